"""The ``antonym`` rule for paraphrases: a claim word the quotes lack whose opposite stands
in a quote among the same other words."""

from __future__ import annotations

from itertools import compress

from .contradiction import verdict
from .negation import WINDOW, _window
from .near_copy import _converse, _negated_near
from .types import _WORD, ClaimCheck, ClaimStatus, _Text, derived, union
from .words import _ANTONYMS, _ORDER

_PARTNERS: dict[str, set[str]] = {}
for _pair in _ANTONYMS - _ORDER:  # order words: "A before B" is "B after A"
    _a, _b = tuple(_pair)
    _PARTNERS.setdefault(_a, set()).add(_b)
    _PARTNERS.setdefault(_b, set()).add(_a)


_PREFIXES = ("un", "non", "dis")


def _prefixed_rests(q: _Text) -> frozenset[str]:
    """What follows "un", "non" or "dis" in the quote's stems ("able" of "unable"): a claim
    word that is one of these has its prefixed form in the quote."""
    return frozenset(s[len(p):] for s in q.stemset for p in _PREFIXES if s.startswith(p))


def _second_direction(q: _Text, j: int) -> bool:
    """Does the quote hold, near its opposite at j, an opposite of that word too
    ("increasing dose decreased efficacy" for a claim's "reduced efficacy")? Then the
    quote states both directions, of different things, and the claim's word may restate
    the other one."""
    lo, hi = max(0, j - WINDOW), min(len(q.raw), j + WINDOW + 1)
    opposite = _PARTNERS.get(q.stems[j], set())
    return any(q.stems[x] in opposite for x in range(lo, hi) if q.kinds[x] == _WORD)


def _check_antonym(claim: _Text, quotes: list[_Text]) -> ClaimCheck | None:
    """A claim word the quotes lack whose opposite stands in a quote, among the same other
    words ("the vents close when it is hot" / "the vents open when it is hot"): the claim
    says the opposite. Two more shared content words within five words of each are needed,
    and neither word may be negated (then the two say the same)."""
    stems = union(quotes, "stemset")
    rests = derived(quotes[0], _prefixed_rests) if len(quotes) == 1 else \
        set().union(*(derived(q, _prefixed_rests) for q in quotes))
    grey = None
    for k in compress(range(len(claim.raw)), claim.content):
        if claim.kinds[k] != _WORD or claim.entity[k]:
            continue
        cs = claim.stems[k]
        if cs in stems:
            continue
        if cs not in _PARTNERS and cs not in rests and not cs.startswith(_PREFIXES):
            continue  # no opposite of the word can stand in a quote: the tests below find none
        if len(cs) >= 6 and cs[:2] in ("de", "un") and {"un" + cs[2:], "de" + cs[2:]} & stems:
            continue  # "decompresses" for the quote's "uncompress": one word in two spellings
        partners = {x for x in _PARTNERS.get(cs, ()) if x in stems}
        if partners and any(_converse(claim, q) for q in quotes):
            partners = set()  # "A is more X than B" / "B is less X than A"
        for p in _PREFIXES:  # "in-", "im-" begin too many plain words (inland)
            if cs.startswith(p) and len(cs) - len(p) >= 4 and cs[len(p):] in stems:
                partners.add(cs[len(p):])
            if p + cs in stems:
                partners.add(p + cs)
        partners = {x for x in partners if x in stems and x not in claim.stemset}
        if not partners:
            continue
        ctx = _window(claim, k, {cs}) - partners
        for q in quotes:
            for a in partners:
                for j in q.positions.get(a, ()):
                    if len(ctx & _window(q, j, {a})) >= 2 and _negated_near(claim, k) == _negated_near(q, j) \
                            and (claim.clause[k] in claim.neg_clauses) == (q.clause[j] in q.neg_clauses) \
                            and not _second_direction(q, j):
                        found = verdict("antonym", f'the claim says "{claim.raw[k]}" where the quote says "{q.raw[j]}"',
                                        claim, k, q, j)
                        if found.status is ClaimStatus.UNSUPPORTED:
                            return found
                        grey = grey or found
    return grey

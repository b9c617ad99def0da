"""The ``antonym`` rule for paraphrases: a claim word the quotes lack whose opposite stands
in a quote among the same other words."""

from __future__ import annotations

from itertools import compress

from .contradiction import _grey, sentence_bounds, verdict
from .negation import _HOLDING_BACK, _VERB_NEGATORS, WINDOW, _window
from .near_copy import _converse, _negated_near
from .types import _WORD, ClaimCheck, ClaimStatus, _Text, union
from .words import _ANTONYMS, _ORDER, stem

_PARTNERS: dict[str, set[str]] = {}
for _pair in _ANTONYMS - _ORDER:  # order words: "A before B" is "B after A"
    _a, _b = tuple(_pair)
    _PARTNERS.setdefault(_a, set()).add(_b)
    _PARTNERS.setdefault(_b, set()).add(_a)


_PREFIXES = ("un", "non", "dis")


def _second_direction(q: _Text, j: int) -> bool:
    """Does the quote hold, near its opposite at j, an opposite of that word too
    ("increasing dose decreased efficacy" for a claim's "reduced efficacy")? Then the
    quote states both directions, of different things, and the claim's word may restate
    the other one."""
    lo, hi = max(0, j - WINDOW), min(len(q.raw), j + WINDOW + 1)
    opposite = _PARTNERS.get(q.stems[j], set())
    return any(q.stems[x] in opposite for x in range(lo, hi) if q.kinds[x] == _WORD)


_CONTRASTS = frozenset({"but", ";", "whereas", "however", "yet"})
_LIST_JOINS = frozenset({"and", "or", ","})


def _object(t: _Text, k: int) -> list[str]:
    """Stems of the content words right after k in its clause, up to a list join ("and",
    ",", "or"), at most three: what the word at k is said of ("changes cache_size and
    ..." -> cache_size; "lowers resting heart rate")."""
    out: list[str] = []
    p = k + 1
    while p < len(t.raw) and t.clause[p] == t.clause[k] and len(out) < 3 and t.low[p] not in _LIST_JOINS:
        if t.content[p] and t.kinds[p] == _WORD:
            out.append(t.stems[p])
        p += 1
    return out


def _said_of_another(claim: _Text, k: int, q: _Text, j: int) -> str | None:
    """Does the quote say its opposite at j of another thing than the claim's word at k:
    the first word the claim's word governs (its object: "changes cache_size") stands in
    the quote's sentence only in clauses split from j's by a contrasting join ("overrides
    cache_size, but leaves thread_count unchanged"), and what the quote's word is said of
    (its object, else the word before it: "thread_count") is none of the claim word's
    object? The quote then says the two words of two things, and the claim may state both.
    Returns the claim word's object, or None."""
    of = _object(claim, k)
    if not of:
        return None
    slo, shi = sentence_bounds(q, j)
    at = [x for x in q.positions.get(of[0], ()) if slo <= x < shi]
    if not at or any(q.clause[x] == q.clause[j] for x in at):
        return None
    if any(not any(q.low[y] in _CONTRASTS for y in range(min(x, j) + 1, max(x, j))) for x in at):
        return None
    theirs = _object(q, j)
    if not theirs:
        before = [x for x in range(j - 1, slo - 1, -1) if q.clause[x] == q.clause[j] and q.content[x]
                  and q.kinds[x] == _WORD]
        theirs = [q.stems[before[0]]] if before else []
    if not theirs or set(theirs) & set(of):
        return None  # the quote's word is said of the claim's object too (or of nothing it names)
    return claim.raw[claim.positions[of[0]][0]]


def _held_back_restated(claim: _Text, k: int, q: _Text, j: int) -> str | None:
    """Is the quote's opposite at j a verb that holds back ("prevents a user ... from using
    it", "keeps", "stops") whose "from" is followed by a verb the claim negates in the
    sentence of k ("a user allowed to edit it cannot use it")? "X prevents Y from doing Z"
    is "Y cannot do Z": the claim's negation restates the quote's word, which then is no
    opposite of the claim's. Returns the claim's negator, or None."""
    if q.low[j] not in _HOLDING_BACK:
        return None
    slo, shi = sentence_bounds(q, j)
    f = next((x for x in range(j + 1, min(shi, j + 3 * WINDOW)) if q.low[x] in ("from", *_CONTRASTS)), None)
    if f is None or q.low[f] != "from":
        return None
    done = _object(q, f)
    if not done:
        return None
    lo, hi = sentence_bounds(claim, k)
    for p in range(lo, hi):
        if claim.neg[p] and claim.low[p] in _VERB_NEGATORS and _object(claim, p)[:1] == done[:1]:
            return claim.raw[p]
    return None


_DEGREE = frozenset({"more", "less", "fewer"})


def _degree_of_another(claim: _Text, k: int, q: _Text, j: int) -> tuple[str, str] | None:
    """Are the claim's word at k and the quote's at j degree words ("more", "less") of two
    different words, and does the claim state the quote's word itself, without its degree
    word, joined to its own degree phrase by "and" or a comma: "become moderate and less
    significant" / "become more moderate"? The claim then
    says "moderate" where the quote says "more moderate", and "less" of "significant", a word
    the quote's "more" is not said of: (the claim's word it is said of, the quote's), else None.
    "less moderate" / "more moderate" is still an opposite."""
    if claim.low[k] not in _DEGREE or q.low[j] not in _DEGREE:
        return None
    c_of, q_of = _object(claim, k)[:1], _object(q, j)[:1]
    if not c_of or not q_of or c_of == q_of:
        return None
    # the claim joins the quote's word, bare, to its own degree phrase: "moderate and less
    # significant" ("antibodies could be less severe" says "less" of something else)
    stated = [x for x in claim.positions.get(q_of[0], ()) if x < k and not (x and claim.low[x - 1] in _DEGREE)
              and k - x <= 2 and all(claim.low[y] in ("and", ",") for y in range(x + 1, k))]
    if not stated:
        return None
    return claim.raw[claim.positions[c_of[0]][0]], claim.raw[stated[0]]


# Nouns of a change in one direction: "increasing rates of ice mass loss" says the mass
# decreases, so the quote's "increasing" said of such a noun may restate the claim's "decreased".
_CHANGES = frozenset(stem(w) for w in ("loss", "losses", "decline", "declines", "drop", "drops", "fall", "falls",
                                       "reduction", "reductions", "shrinkage", "shortage", "deficit", "gain", "gains",
                                       "growth", "rise", "rises", "surplus"))


def _of_a_change(claim: _Text, q: _Text, j: int) -> str | None:
    """A noun of change (``_CHANGES``) the quote's word at j is said of - among the first five
    content words after it in its clause ("Increasing rates of ice mass loss") - that the claim
    does not write, else None: the two directions compose, and the quote's word may restate the
    claim's opposite ("decreased in mass")."""
    n = 0
    for x in range(j + 1, len(q.raw)):
        if q.clause[x] != q.clause[j] or n == 5:
            break
        if q.content[x] and q.kinds[x] == _WORD:
            n += 1
            if q.stems[x] in _CHANGES and q.stems[x] not in claim.stemset:
                return q.raw[x]
    return None


# "The unexpanded value of source_dir" / "the value of source_dir, before expanding any relative
# path": "un-X-ed" says X has not been done, as "before X-ing" / "without X-ing" do.
_NOT_YET = frozenset({"before", "without"})


def _not_yet(claim: _Text, k: int, q: _Text, j: int) -> str | None:
    """The quote's "before" / "without" right before its word at j, when the claim's word at
    k is that word with "un-" / "non-" (the quote writes "-ing" or "-ed"), else None."""
    if not claim.low[k].startswith(("un", "non")) or j == 0 or q.low[j - 1] not in _NOT_YET:
        return None
    return q.raw[j - 1]


def _check_antonym(claim: _Text, quotes: list[_Text]) -> ClaimCheck | None:
    """A claim word the quotes lack whose opposite stands in a quote, among the same other
    words ("the vents close when it is hot" / "the vents open when it is hot"): the claim
    says the opposite. Two more shared content words within five words of each are needed,
    and neither word may be negated (then the two say the same)."""
    stems = union(quotes, "stemset")
    grey = None
    for k in compress(range(len(claim.raw)), claim.content):
        if claim.kinds[k] != _WORD or claim.entity[k]:
            continue
        cs = claim.stems[k]
        if cs in stems:
            continue
        if cs not in _PARTNERS and not cs.startswith(_PREFIXES) and not any(p + cs in stems for p in _PREFIXES):
            continue  # no opposite of the word can stand in a quote (nor its "un-", "non-", "dis-" form)
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
                        note = f'the claim says "{claim.raw[k]}" where the quote says "{q.raw[j]}"'
                        other = _said_of_another(claim, k, q, j)
                        held = _held_back_restated(claim, k, q, j)
                        degree = _degree_of_another(claim, k, q, j)
                        before = _not_yet(claim, k, q, j)
                        change = _of_a_change(claim, q, j)
                        found = _grey("antonym", note, f'the claim\'s "{claim.raw[k]}" restates the quote\'s '
                                      f'"{before} {q.raw[j]}" (not yet done)') if before else _grey("antonym", note, f'the quote says "{q.raw[j]}" of another thing than '
                                      f'"{other}", in a clause of its own') if other else \
                            _grey("antonym", note, f'the quote says "{q.raw[j]}" of a change, "{change}": the two '
                                  'directions compose, and may restate the claim\'s word') if change else \
                            _grey("antonym", note, f'the quote says "{q.raw[j]} {degree[1]}", which the claim states '
                                  f'as "{degree[1]}" and says "{claim.raw[k]}" of "{degree[0]}"') if degree else \
                            _grey("antonym", note, f'the claim\'s "{held}" restates "{q.raw[j]} ... from"') if held \
                            else verdict("antonym", note, claim, k, q, j)
                        if found.status is ClaimStatus.UNSUPPORTED:
                            return found
                        grey = grey or found
    return grey

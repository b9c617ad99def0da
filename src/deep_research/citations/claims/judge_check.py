"""Code's check of a judge's evidence: a model's "supports" counts only when its evidence
holds (``check_judge_evidence``).

The judge splits the claim into atomic facts and, for each, copies the exact span(s) of the
quotes that state it, optionally naming which claim word restates which span word
(``aligned``). The evidence holds (``ok``) only when:

* every span is in the quotes, up to cosmetic differences (white space, quote marks,
  dashes, ignorable characters: the quote check's ``canonical`` form; case counts);
* every number, name, negation, quantifier, modal and order word of the claim sits in
  some cited span (numbers by the claim check's equivalences: "1,000" = "1000", a bound
  met by an exact number, ...), and no cited span holds a negation, quantifier or modal
  the claim lacks (a "supports" resting on "may" or "not" is a misreading);
* every other content word of the claim is in the spans (same stem or spelling) or is
  aligned to a span word that restates it: a WordNet synonym, derivation or wider word
  (``lexicon``); an aligned pair that is a known contrast (the claim check's antonym and
  order lists, un-/non- prefixes, another quantifier or modal group, WordNet antonyms and
  co-hyponyms such as book / film) or that nothing shows fails;
* every fact cites at least one span, shares a word with it, and the facts together
  cover the claim.

A "supports" whose evidence fails is ``unchecked`` (grey), never green: the caller wires
that. Pure: no model, no I/O beyond the optional WordNet files.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..verify import _canon_char, clean_quote
from . import lexicon
from . import proof as P
from .analysis import _analyse
from .framing import prepare_claim
from .near_copy import _prefix_antonym
from .numbers import APPROX, _fmt
from .types import ClaimCheck, ClaimStatus
from .words import _ANTONYMS, _MODAL, _ORDER, _QUANT, stem

_ORDER_WORDS = frozenset(["before", "after", "earlier", "later", "first", "last", "previous", "next",
                          "prior", "subsequent", "preceding", "following", "former", "latter",
                          "older", "newer", "oldest", "newest", "earliest", "latest", "initial", "final"])


@dataclass
class JudgeFact:
    fact: str  # an atomic fact of the claim, in the judge's words
    spans: list[str]  # exact spans copied from the quotes
    aligned: list[tuple[str, str]] = field(default_factory=list)  # claim word -> span word


@dataclass
class EvidenceCheck:
    ok: bool
    problems: list[str]  # human-readable, one per failure
    spans_found: list[tuple[int, int, int]]  # (quote index, start, end) in the quotes as given


def _canon_map(text: str) -> tuple[str, list[int]]:
    """The canonical form of text (as the quote check compares) and, for each of its
    characters, the index of the character of text it comes from."""
    out: list[str] = []
    where: list[int] = []
    prev_space = True
    for i, ch in enumerate(text):
        c = _canon_char(ch)
        if c == " ":
            if not prev_space:
                out.append(" ")
                where.append(i)
            prev_space = True
        elif c:
            for x in c:
                out.append(x)
                where.append(i)
            prev_space = False
    while out and out[-1] == " ":
        out.pop()
        where.pop()
    return "".join(out), where


def _locate(span: str, quotes: list[tuple[str, list[int]]], raw: list[str]) -> tuple[int, int, int] | None:
    s, _ = _canon_map(span.strip().strip("\"'\u201c\u201d\u2018\u2019"))
    if len(s) < 2:
        return None
    for qi, (canon, where) in enumerate(quotes):
        at = canon.find(s)
        if at >= 0:
            return qi, where[at], where[at + len(s) - 1] + 1
    return None


def _stem_of(word: str) -> str:
    return stem(word)


def check_judge_evidence(claim: str, quotes: list[str], facts: list[JudgeFact]) -> EvidenceCheck:
    """Does the judge's evidence show the claim? See the module docstring."""
    problems: list[str] = []
    found: list[tuple[int, int, int]] = []
    quotes = [q for q in quotes if q and q.strip()]
    if not facts:
        return EvidenceCheck(False, ["the judge gave no facts"], [])
    canon = [_canon_map(q) for q in quotes]
    span_texts: list[str] = []
    fact_spans: list[list[str]] = []
    for f in facts:
        mine = []
        if not f.spans:
            problems.append(f'the fact "{_short(f.fact)}" cites no span')
        for sp in f.spans:
            hit = _locate(sp or "", canon, quotes)
            if hit is None:
                problems.append(f'the span "{_short(sp or "")}" is not in the quotes')
                continue
            found.append(hit)
            text = quotes[hit[0]][hit[1]:hit[2]]
            span_texts.append(text)
            mine.append(text)
        fact_spans.append(mine)
    if not span_texts:
        problems.append("no cited span is in the quotes")
        return EvidenceCheck(False, problems, found)

    claim_t = _analyse(prepare_claim(claim or ""), claim_side=True)
    citems = P.items(claim_t, True, P._TABLES)
    spans_t = [_analyse(clean_quote(t), claim_side=False) for t in span_texts]
    sitems = [P.items(t, False, P._TABLES) for t in spans_t]
    skeys = set().union(*(set(s.keys) for s in sitems))
    snums = [n for s in spans_t for n in s.numbers]
    span_low = set().union(*(set(t.low) for t in spans_t))

    # aligned pairs: claim word -> span word, by stem
    aligned: dict[str, list[str]] = {}
    for f in facts:
        for pair in f.aligned or []:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                problems.append(f"an aligned pair is not (claim word, span word): {pair!r}"[:200])
                continue
            cw, sw = (str(pair[0]).strip().lower(), str(pair[1]).strip().lower())
            if sw not in span_low and _stem_of(sw) not in skeys:
                problems.append(f'the aligned span word "{sw}" is not in the cited spans')
                continue
            aligned.setdefault(_stem_of(cw), []).append(sw)

    claim_groups = set()
    for i, key in enumerate(citems.keys):
        k = citems.pos[i]
        word = claim_t.raw[k]
        if i in citems.nums:
            num = citems.nums[i]
            if key.startswith(("ORD:", "W:")):
                if key not in skeys:
                    problems.append(f'the claim\'s "{word}" is in no cited span')
                continue
            if not any(P._num_proves(num, q, APPROX) for q in snums):
                problems.append(f'the claim\'s number {_fmt(num)} is in no cited span')
            continue
        if key == "\u00ac":
            if not any(x == "\u00ac" for s in sitems for x in s.keys):
                problems.append(f'the claim\'s negation "{word}" is in no cited span')
            continue
        if key.startswith(("Q:", "M:")):
            claim_groups.add(key)
            if key not in skeys:
                problems.append(f'the claim\'s "{word}" ({"quantifier" if key[0] == "Q" else "modal"}) is in no cited span')
            continue
        if key in skeys:
            continue
        if claim_t.entity[k] or claim_t.kinds[k] != 1 or claim_t.low[k] in _ORDER_WORDS:
            what = "name" if claim_t.entity[k] else "order word" if claim_t.low[k] in _ORDER_WORDS else "word"
            problems.append(f'the claim\'s {what} "{word}" is in no cited span')
            continue
        pairs = aligned.get(claim_t.stems[k]) or aligned.get(key)
        if not pairs:
            problems.append(f'the claim\'s "{word}" is neither in the cited spans nor aligned to a span word')
            continue
        bad = [sw for sw in pairs if not _restates(claim_t.low[k], sw)]
        if bad:
            problems.append(f'"{word}" for "{bad[0]}": {_why_not(claim_t.low[k], bad[0])}')
    # the spans may not rest on a restriction the claim does not state: a negation, a
    # quantifier, a modal, "only", a condition, an order word ("third last" for "third")
    ckeys = set(citems.keys)
    for s, t in zip(sitems, spans_t, strict=True):
        for i, key in enumerate(s.keys):
            if key in ckeys or not (s.restrict[i] or t.low[s.pos[i]] in _ORDER_WORDS):
                continue
            if key == "\u00ac":
                problems.append(f'a cited span says "{t.raw[s.pos[i]]}" where the claim has no negation')
            elif not any(key in (_stem_of(w) for w in ws) for ws in aligned.values()):
                problems.append(f'a cited span says "{t.raw[s.pos[i]]}", which the claim does not')
    # the claim's words keep their order within each of its clauses (roles: "A overrides B")
    for s in sitems:
        have = set(s.keys)
        for a, b in P._segments(citems):
            seq = [k for k in citems.keys[a:b] if k in have]
            if len(seq) > 1 and P._match(seq, s.keys) is None:
                problems.append("the claim's words stand in another order in a cited span (roles swapped?)")
                break
    # each fact is tied to its spans; the facts cover the claim
    fact_words = set()
    for f, mine in zip(facts, fact_spans, strict=True):
        ft = _analyse(f.fact or "", claim_side=True)
        fstems = {ft.stems[k] for k in range(len(ft.raw)) if ft.content[k]}
        mstems = {x for t in mine for x in _analyse(t, False).stems}
        fact_words |= fstems | mstems
        if mine and fstems and not fstems & mstems:
            problems.append(f'the fact "{_short(f.fact)}" shares no word with its spans')
    left = [claim_t.raw[k] for k in range(len(claim_t.raw)) if claim_t.content[k] and claim_t.kinds[k] == 1
            and claim_t.stems[k] not in fact_words and claim_t.stems[k] not in aligned]
    if left:
        problems.append("the facts leave out: " + ", ".join(dict.fromkeys(left)))
    return EvidenceCheck(not problems, list(dict.fromkeys(problems)), found)


def _contrast(a: str, b: str) -> str | None:
    """Why the pair is a known contrast, or None."""
    sa, sb = stem(a), stem(b)
    pair = frozenset((sa, sb))
    if pair in _ANTONYMS:
        return "opposites"
    if pair in _ORDER:
        return "another order"
    if _prefix_antonym(sa, sb):
        return "one negates the other"
    if (a in _QUANT or b in _QUANT) and _QUANT.get(a) != _QUANT.get(b):
        return "another quantity"
    if (a in _MODAL or b in _MODAL) and _MODAL.get(a) != _MODAL.get(b):
        return "another modality"
    if lexicon.relation(a, b) == "contrast":
        return "a contrast (antonyms or two kinds of one thing)"
    return None


def _restates(a: str, b: str) -> bool:
    if _contrast(a, b):
        return False
    sa, sb = _stem_of(a), _stem_of(b)
    if sa == sb or P.EQUIVALENT.get(sa, sa) == P.EQUIVALENT.get(sb, sb):
        return True
    return lexicon.relation(a, b) in ("synonym", "related", "general")


def _why_not(a: str, b: str) -> str:
    why = _contrast(a, b)
    if why:
        return why
    if not lexicon.available():
        return "not the same word, and no word list to show they mean the same"
    return "nothing shows they mean the same"


def _short(text: str, n: int = 80) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "\u2026"


def judged_with_evidence(verdict: str, reason: str, check: EvidenceCheck | None):
    """A judge's verdict as a claim check, green only on checked evidence: "supports" whose
    evidence holds is ``supported`` (rule ``judge:checked``); "supports" without evidence or
    with evidence that fails, and "partly", are ``unchecked`` (the note says why);
    "contradicts" is ``unsupported``. Any other verdict is ``unchecked``."""
    reason = " ".join((reason or "").split())[:300]
    if verdict == "contradicts":
        return ClaimCheck(ClaimStatus.UNSUPPORTED, "judge", f"judge: {reason}" if reason else "judge: the quotes contradict the claim")
    if verdict == "supports" and check is not None and check.ok:
        return ClaimCheck(ClaimStatus.SUPPORTED, "judge:checked", f"judge, evidence checked: {reason}" if reason
                          else "judge, evidence checked")
    if verdict == "supports":
        why = "; ".join(check.problems[:3]) if check is not None else "no evidence given"
        return ClaimCheck(ClaimStatus.UNCHECKED, "judge:evidence_failed", f"judge says supported, but its evidence fails: {why}")
    if verdict == "partly":
        return ClaimCheck(ClaimStatus.UNCHECKED, "judge:partly", f"judge: partly supported: {reason}" if reason else "judge: partly supported")
    return ClaimCheck(ClaimStatus.UNCHECKED, None, "judge gave no usable verdict")

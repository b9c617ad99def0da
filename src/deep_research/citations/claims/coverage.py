"""When no rule fired: how much of the claim its quotes cover (``copy``, ``overlap``,
``no_claim``) or ``unchecked``."""

from __future__ import annotations

from .numbers import _by_key, _number_supported
from .types import _CJK, _WORD, ClaimCheck, ClaimStatus, _Text
from .words import _MODAL, _QUANT

COVERAGE_MIN = 0.8  # share of the claim's content words found in the quotes


MISSING_PER = 5  # at most one missing content word per five


def _coverage(claim: _Text, quotes: list[_Text]) -> ClaimCheck:
    stems = set().union(*(q.stemset for q in quotes)) if quotes else set()
    bigrams = set().union(*(q.cjk_bigrams for q in quotes)) if quotes else set()
    chars = set().union(*(q.cjk_chars for q in quotes)) if quotes else set()
    qnums = [x for q in quotes for x in q.numbers]
    qneg = any(any(q.neg) for q in quotes)
    qgroups = {(_QUANT.get(w) or _MODAL.get(w)) for q in quotes for w in q.lowset if w in _QUANT or w in _MODAL}
    total = missing = 0
    hard: list[str] = []
    num_at = {num.pos: num for num in claim.numbers}
    n = len(claim.raw)
    for k in range(n):
        if k in claim.tails:
            continue
        kind = claim.kinds[k]
        w = claim.low[k]
        if claim.neg[k]:
            if not qneg:
                hard.append(claim.raw[k])
            continue
        if kind == _WORD and (w in _QUANT or w in _MODAL) and not claim.entity[k]:
            g = _QUANT.get(w) or _MODAL.get(w)
            if g not in qgroups and w not in ("any", "can", "will", "some"):
                hard.append(claim.raw[k])
            continue
        if not claim.content[k]:
            continue
        total += 1
        if k in num_at:
            num = num_at[k]
            if not num.required:
                total -= 1
                continue
            if num.frame and not _number_supported(num, qnums, _by_key(qnums)):
                missing += 1
                hard.append(num.raw)
            continue
        if kind == _CJK:
            left = k > 0 and claim.kinds[k - 1] == _CJK and claim.raw[k - 1] + claim.raw[k] in bigrams
            right = k + 1 < n and claim.kinds[k + 1] == _CJK and claim.raw[k] + claim.raw[k + 1] in bigrams
            alone = (k == 0 or claim.kinds[k - 1] != _CJK) and (k + 1 >= n or claim.kinds[k + 1] != _CJK)
            if not (left or right or (alone and claim.raw[k] in chars)):
                missing += 1
            continue
        if claim.stems[k] in stems:
            continue
        missing += 1
        if claim.entity[k]:
            hard.append(claim.raw[k])
    if total == 0 and not hard:
        return ClaimCheck(ClaimStatus.SUPPORTED, "no_claim", "the claim states nothing of its own")
    if missing == 0 and not hard:
        if any(claim.joined.strip() and claim.joined in q.joined for q in quotes):
            return ClaimCheck(ClaimStatus.SUPPORTED, "copy", "the claim repeats the quote")
        return ClaimCheck(ClaimStatus.SUPPORTED, "overlap", "every content word of the claim is in its quotes")
    share = (total - missing) / total if total else 0.0
    if not hard and share >= COVERAGE_MIN and missing * MISSING_PER <= total:
        return ClaimCheck(ClaimStatus.SUPPORTED, "overlap",
                          f"{total - missing} of {total} content words of the claim are in its quotes")
    why = f"{total - missing} of {total} content words of the claim are in its quotes"
    if hard:
        why += "; not in them: " + ", ".join(dict.fromkeys(hard))
    return ClaimCheck(ClaimStatus.UNCHECKED, None, why)


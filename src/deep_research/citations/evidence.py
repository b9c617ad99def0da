"""What the checked citations add up to, per claim: how confident a reader may be, and
where sources disagree. Pure functions over checked citations (no model).

Confidence comes from evidence, not from a model's opinion:

* ``high``: the claim passed its checks and is supported by quotes from two or more
  independent sources (different sites, or different local documents);
* ``medium``: it passed its checks with quotes from one source;
* ``low``: a model judge found the quotes support it only partly.

Claims whose check failed or could not be decided get no confidence.

Disagreement: two claims that say nearly the same thing apart from their numbers
(``fuzz.token_sort_ratio`` of the number-free text ≥ :data:`SAME_FACT_SCORE`), cite
different sources and give different numbers are listed as "sources disagree".
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Iterable
from urllib.parse import urlsplit

from rapidfuzz import fuzz

from .claims import ClaimCheck, ClaimStatus

SAME_FACT_SCORE = 85
MAX_CLAIMS_COMPARED = 1500  # pairs grow quadratically; beyond this only the first are compared
JUDGE_VERDICTS = ("supports", "partly", "contradicts")

_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:[.,]\d+)*")
_WORD = re.compile(r"\w+")


def source_key(url: str, source_id: str) -> str:
    """Sources are independent when their keys differ: the host of a web page (two pages
    of one site count once), the path of a local document."""
    try:
        parts = urlsplit(url or "")
    except ValueError:
        return f"id:{source_id}"
    if parts.scheme in ("http", "https") and parts.hostname:
        host = parts.hostname.lower()
        return "site:" + (host[4:] if host.startswith("www.") else host)
    if parts.scheme == "file":
        return "file:" + parts.path
    return f"id:{source_id}"


def confidence(status: ClaimStatus, rule: str | None, independent_sources: int) -> str | None:
    if status is not ClaimStatus.SUPPORTED:
        return None
    if rule == "judge:partly":
        return "low"
    return "high" if independent_sources >= 2 else "medium"


def claim_key(claim: str, quotes: Iterable[str]) -> str:
    """A stable key for a (claim, quotes) pair, so a judge's verdict applies to exactly the
    text it judged (any edit to the claim or a quote makes it a new pair)."""
    norm = lambda s: " ".join(s.split()).casefold()  # noqa: E731
    text = norm(claim) + "\x1f" + "\x1e".join(sorted(norm(q) for q in quotes))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def judged(verdict: str, reason: str) -> ClaimCheck:
    """A judge's verdict as a claim check (only for claims the rules left unchecked)."""
    reason = " ".join((reason or "").split())[:300]
    if verdict == "supports":
        return ClaimCheck(ClaimStatus.SUPPORTED, "judge", f"judge: {reason}" if reason else "judge: supported")
    if verdict == "partly":
        return ClaimCheck(ClaimStatus.SUPPORTED, "judge:partly",
                          f"judge (partly supported): {reason}" if reason else "judge: partly supported")
    return ClaimCheck(ClaimStatus.UNSUPPORTED, "judge",
                      f"judge: {reason}" if reason else "judge: the quotes contradict the claim")


@dataclass
class Disagreement:
    claims: tuple[str, str]
    numbers: tuple[list[str], list[str]]
    refs: tuple[list[int], list[int]]  # 1-based ref numbers (citations.json "n")
    sources: tuple[list[str], list[str]]

    def as_json(self) -> dict:
        return {"claims": list(self.claims), "numbers": [list(x) for x in self.numbers],
                "refs": [list(x) for x in self.refs], "source_ids": [list(x) for x in self.sources]}


def _numbers(text: str) -> list[str]:
    out = []
    for m in _NUMBER.finditer(text):
        n = m.group(0).lstrip("+")
        n = n.replace(",", "") if re.fullmatch(r"-?\d{1,3}(?:,\d{3})+", n) else n.replace(",", ".")
        out.append(n)
    return out


def _words_without_numbers(text: str) -> str:
    return " ".join(w for w in _WORD.findall(_NUMBER.sub(" ", text.casefold())))


def disagreements(claims: list[tuple[str, list[int], list[str]]]) -> list[Disagreement]:
    """claims: (claim text, ref numbers, source ids). Pairs about the same fact, from
    different sources, with different numbers."""
    prepared = []
    for text, refs, sids in claims[:MAX_CLAIMS_COMPARED]:
        nums = _numbers(text)
        words = _words_without_numbers(text)
        if nums and len(words.split()) >= 3:
            prepared.append((text, refs, sids, nums, words))
    out = []
    for i, a in enumerate(prepared):
        for b in prepared[i + 1:]:
            if set(a[2]) & set(b[2]) or set(a[3]) == set(b[3]):
                continue
            if fuzz.token_sort_ratio(a[4], b[4]) >= SAME_FACT_SCORE:
                out.append(Disagreement((a[0], b[0]), (a[3], b[3]), (a[1], b[1]), (a[2], b[2])))
    return out

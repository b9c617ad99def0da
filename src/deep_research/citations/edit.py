"""Span edits on refs: rewrite repaired refs with the page's exact text, drop refs whose
quote no source holds and claims that contradict their quotes. Pure functions over
markdown."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

from .check import Citation, check_citations
from .claims import Claim, ClaimStatus
from .model import Source, Verdict
from .refs import replace_spans


def ref_tag(source_id: str, quote: str) -> str:
    q = " ".join(quote.split()).replace('"', "\u201d")
    return f'<ref id="{source_id}">"{q}"</ref>'


@dataclass
class RefCleanup:
    markdown: str
    verified: int = 0
    repaired: int = 0
    dropped: list[dict] = field(default_factory=list)  # refs dropped: quote not found
    dropped_claims: list[dict] = field(default_factory=list)  # claims dropped with their refs


_EMPTY_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]*[.,;:]?[ \t]*$\n?", re.M)


def claim_unit(claim: Claim, cites: list[Citation]) -> tuple[int, int]:
    """The span of a claim together with its refs: what goes when the claim goes."""
    starts = [claim.start] + [c.ref.start for c in cites]
    ends = [claim.end] + [c.ref.end for c in cites]
    return min(starts), max(ends)


def clean_refs(markdown: str, sources: Iterable[Source], *, drop_unsupported: bool = True) -> RefCleanup:
    """Keep verified refs, rewrite repaired ones; with ``drop_unsupported``, remove a ref
    whose quote no source holds, and remove a claim together with its refs when the code's
    claim check finds it contradicts its quotes (or none of its quotes was found), so a
    wrong claim never travels on uncited into a later draft or report."""
    report = check_citations(markdown, sources)
    edits = []
    out = RefCleanup(markdown)
    dropped_refs: set[int] = set()
    if drop_unsupported:
        for claim, cites in report.claim_citations():
            status = cites[0].claim_status
            if status is ClaimStatus.UNSUPPORTED:
                start, end = claim_unit(claim, cites)
                edits.append((start, end, ""))
                dropped_refs.update(c.ref.index for c in cites)
                out.dropped_claims.append({"claim": claim.text, "why": cites[0].claim_check.note,
                                           "rule": cites[0].claim_check.rule,
                                           "refs": [{"source_id": c.ref.source_id, "quote": c.ref.quote}
                                                    for c in cites]})
    for c in report.citations:
        if c.ref.index in dropped_refs:
            if not c.check.found:
                out.dropped.append({"source_id": c.ref.source_id, "quote": c.ref.quote})
            continue
        if c.status is Verdict.VERIFIED:
            out.verified += 1
        elif c.status is Verdict.REPAIRED:
            out.repaired += 1
            edits.append((c.ref.start, c.ref.end, ref_tag(c.source.id, c.rendered_text or c.ref.quote)))
        elif drop_unsupported:
            out.dropped.append({"source_id": c.ref.source_id, "quote": c.ref.quote})
            edits.append((c.ref.start, c.ref.end, ""))
    text = replace_spans(markdown, _outermost(edits))
    if out.dropped_claims:
        text = _EMPTY_ITEM.sub("", text)
    out.markdown = text
    return out


def _outermost(edits: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Drop edits inside a larger one (a ref inside a removed claim)."""
    out: list[tuple[int, int, str]] = []
    for e in sorted(edits, key=lambda e: (e[0], -e[1])):
        if out and e[0] < out[-1][1]:
            continue
        out.append(e)
    return out

"""Span edits on refs: rewrite repaired refs with the page's exact text, drop refs whose
quote no source holds and claims that contradict their quotes. Pure functions over
markdown, read through its parsed document (a list item a dropped claim leaves empty goes
too; nothing inside code is touched)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

from .check import Citation, check_citations
from .claims import Claim, ClaimStatus
from .document import Document, parse
from .model import Source, Verdict
from .refs import replace_spans


# A ref tag the quoted page itself shows (a wiki help page on <ref> footnotes): written live
# into a quote, it would end the citation there or become one.
_TAG_IN_QUOTE = re.compile(r"<(?=\s*/?\s*ref\b)", re.IGNORECASE)


def ref_tag(source_id: str, quote: str) -> str:
    """A ref built by code (a repaired quote rewritten with the page's text, a fix, findings
    from excerpts): one line, straight double quotes made curly, a ref tag inside the quote
    written ``&lt;ref`` (the quote check reads it as ``<``)."""
    q = _TAG_IN_QUOTE.sub("&lt;", " ".join(quote.split()).replace('"', "\u201d"))
    return f'<ref id="{source_id}">"{q}"</ref>'


@dataclass
class RefCleanup:
    markdown: str
    verified: int = 0
    repaired: int = 0
    dropped: list[dict] = field(default_factory=list)  # refs dropped: quote not found
    dropped_claims: list[dict] = field(default_factory=list)  # claims dropped with their refs


_ITEM_MARKER = re.compile(r"[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]*)+\Z")
_LEFTOVER = " \t.,;:"


def claim_unit(claim: Claim, cites: list[Citation]) -> tuple[int, int]:
    """The span of a claim together with its refs: what goes when the claim goes."""
    starts = [claim.start] + [c.ref.start for c in cites]
    ends = [claim.end] + [c.ref.end for c in cites]
    return min(starts), max(ends)


def _with_empty_item(doc: Document, start: int, end: int) -> tuple[int, int]:
    """(start, end) widened to its whole line when removing it leaves an empty list item
    (the item held nothing but the claim): read on the document, so never in code."""
    md = doc.markdown
    for b in doc.blocks:
        if b.kind != "paragraph" or not b.depth or not (b.start <= start and end <= b.end):
            continue
        a, e = b.segments[0][0], b.segments[-1][1]
        line_start = md.rfind("\n", 0, b.start) + 1
        if (md[a:start].strip(_LEFTOVER) or md[end:e].strip(_LEFTOVER)
                or not _ITEM_MARKER.fullmatch(md[line_start:a])):
            return start, end
        nl = md.find("\n", b.end)
        return line_start, len(md) if nl == -1 else nl + 1
    return start, end


def clean_refs(markdown: str, sources: Iterable[Source], *, drop_unsupported: bool = True) -> RefCleanup:
    """Keep verified refs, rewrite repaired ones; with ``drop_unsupported``, remove a ref
    whose quote no source holds, and remove a claim together with its refs when the code's
    claim check finds it contradicts its quotes (or none of its quotes was found), so a
    wrong claim never travels on uncited into a later draft or report."""
    doc = parse(markdown)
    report = check_citations(doc, sources)
    edits = []
    out = RefCleanup(markdown)
    dropped_refs: set[int] = set()
    if drop_unsupported:
        for claim, cites in report.claim_citations():
            status = cites[0].claim_status
            if status is ClaimStatus.UNSUPPORTED:
                start, end = _with_empty_item(doc, *claim_unit(claim, cites))
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
    out.markdown = replace_spans(markdown, _outermost(edits))
    return out


def _outermost(edits: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Drop edits inside a larger one (a ref inside a removed claim)."""
    out: list[tuple[int, int, str]] = []
    for e in sorted(edits, key=lambda e: (e[0], -e[1])):
        if out and e[0] < out[-1][1]:
            continue
        out.append(e)
    return out

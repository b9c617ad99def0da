"""Span edits on refs: rewrite repaired refs with the page's exact text, drop refs whose
quote no source holds. Pure functions over markdown."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from .check import check_citations
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
    dropped: list[dict] = field(default_factory=list)


def clean_refs(markdown: str, sources: Iterable[Source], *, drop_unsupported: bool = True) -> RefCleanup:
    """Keep verified refs, rewrite repaired ones, remove unsupported ones (when asked)."""
    report = check_citations(markdown, sources)
    edits = []
    out = RefCleanup(markdown)
    for c in report.citations:
        if c.status is Verdict.VERIFIED:
            out.verified += 1
        elif c.status is Verdict.REPAIRED:
            out.repaired += 1
            edits.append((c.ref.start, c.ref.end, ref_tag(c.source.id, c.rendered_text or c.ref.quote)))
        elif drop_unsupported:
            out.dropped.append({"source_id": c.ref.source_id, "quote": c.ref.quote})
            edits.append((c.ref.start, c.ref.end, ""))
    out.markdown = replace_spans(markdown, edits)
    return out

"""Markdown -> :class:`Document`, in one pass over the report.

Block structure comes from ``citations.mdscan``, the CommonMark block scanner the output
policy was built on (linear time on any input, container and fence rules as CommonMark
renderers apply them, the places where Python-Markdown reads the same text differently
marked). markdown-it-py is the library for block structure elsewhere (the cited pages,
``page``/``mdtext``), but the report needs what it does not give: character offsets (its
tokens carry line numbers only), every line of a deeply nested block (it stops at
``maxNesting``) and the table/fence ambiguities between renderers that the output policy
must resolve. One scanner for the report means one answer to "is this a heading", "is
this code": the checks, the section edits, the policy and the renderers cannot disagree.
"""

from __future__ import annotations

import re

from ..mdscan import Blocks, scan_blocks
from ..model import ParsedReport, Ref
from ..refs import code_regions, parse_refs
from .model import Block, Document, Section

# The "Verified findings" section is built by code at publish; one in the input (from an
# earlier publish, edited or written by a model) is never trusted and never checked.
FINDINGS_TITLE = "verified findings"


def parse(markdown: str) -> Document:
    """The report parsed once: blocks, sections, code regions, refs and claims."""
    scan = scan_blocks(markdown, chunks=True)
    code = code_regions(markdown, scan)
    parsed = parse_refs(markdown, code=code)
    doc = Document(markdown, scan=scan, code=code)
    doc.blocks = _blocks(markdown, scan)
    doc.sections = _sections(markdown, doc.blocks)
    findings = doc.findings = findings_section(doc)
    if findings is not None:  # its refs are not this report's citations
        inside = lambda a, b: findings.start <= a and b <= findings.end
        kept = [r for r in parsed.refs if not inside(r.start, r.end)]
        doc.refs = [Ref(i, r.source_id, r.quote, r.start, r.end, r.line) for i, r in enumerate(kept)]
        doc.ignored_refs = [r for r in parsed.refs if inside(r.start, r.end)]
        doc.problems = [p for p in parsed.problems if not inside(p.start, p.end)]
        doc.ignored_problems = [p for p in parsed.problems if inside(p.start, p.end)]
    else:
        doc.refs, doc.problems = parsed.refs, parsed.problems
    from .claims import claim_units

    doc.structure, doc.claims, doc.quoted = claim_units(doc)
    return doc


def as_document(report: str | ParsedReport) -> Document:
    """``report`` if it is a parsed document, else the markdown parsed."""
    if isinstance(report, Document):
        return report
    return parse(report if isinstance(report, str) else report.markdown)


def _blocks(md: str, scan: Blocks) -> list[Block]:
    out: list[Block] = []
    for inline in scan.inlines:
        segs = tuple(inline.segments)
        line = inline.line if inline.line >= 0 else md.rfind("\n", 0, segs[0][0]) + 1
        if inline.kind == "heading":
            out.append(Block("heading", line, segs[-1][1], segs, inline.level, inline.depth, inline.table))
        elif inline.kind == "icode":
            out.append(Block("indented", line, segs[-1][1], segs, 0, inline.depth, inline.table))
        elif inline.level:  # a paragraph underlined into a setext heading
            out.append(Block("heading", line, inline.setext_end, segs, inline.level, inline.depth, inline.table,
                             setext=True))
        else:
            out.append(Block("paragraph", line, segs[-1][1], segs, 0, inline.depth, inline.table))
    for a, b in scan.fences:
        end = b if b <= a or md[b - 1:b] != "\n" else b - 1
        out.append(Block("fence", a, end))
    out.sort(key=lambda b: (b.start, b.end))
    return out


def heading_text(md: str, block: Block) -> str:
    """A heading's text as written: an ATX heading without its closing ``#`` sequence
    (CommonMark: one preceded by a space or tab, or the whole content), a setext heading's
    lines joined by a space."""
    if block.setext:
        return " ".join(md[a:b].strip(" \t") for a, b in block.segments)
    a, b = block.segments[0]
    text = md[a:b].rstrip(" \t\r")
    bare = text.rstrip("#")
    if bare != text and (not bare or bare[-1] in " \t"):
        text = bare.rstrip(" \t")
    return text


def _sections(md: str, blocks: list[Block]) -> list[Section]:
    """The top-level headings as a tree of sections."""
    heads = [b for b in blocks if b.kind == "heading" and b.depth == 0]
    ends = []
    for i, h in enumerate(heads):
        end = len(md)
        for later in heads[i + 1:]:
            if later.level <= h.level:
                end = later.start
                break
        ends.append(end)

    def build(lo: int, hi: int) -> list[Section]:
        out = []
        i = lo
        while i < hi:
            h = heads[i]
            j = i + 1
            while j < hi and heads[j].start < ends[i]:
                j += 1
            out.append(Section(h, heading_text(md, h), h.start, ends[i], tuple(build(i + 1, j))))
            i = j
        return out

    return build(0, len(heads))


_FINDINGS = re.compile(r"verified findings", re.IGNORECASE)


def findings_section(doc: Document) -> Section | None:
    """The input's "Verified findings" section, if any (the first level-2 heading at the top
    level named exactly so): the heading and the list under it, the shape code builds it
    in. What follows the list (the report's own text, when code put the section after the
    title) is not part of it."""
    for s in doc.all_sections():
        if s.level == 2 and not s.heading.setext and _FINDINGS.fullmatch(s.title.strip(" \t")):
            end = s.end
            for b in doc.blocks:
                if s.heading.end < b.start < end and b.depth == 0:
                    end = b.start
                    break
            return Section(s.heading, s.title, s.start, end)
    return None

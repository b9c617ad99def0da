"""Find ``<ref id="N">"verbatim sentence"</ref>`` tags in report markdown.

Ids may be quoted with ``"`` or ``'`` or bare; the sentence may be in straight or curly
quotes or none. Tags inside code are text, not citations. Anything that looks like a ref
but is not a well-formed one is reported as a problem, never dropped silently.
"""

from __future__ import annotations

import bisect
import re

from .mdscan import Blocks, code_spans, scan_blocks
from .model import ParsedReport, Ref, RefProblem
from .verify import strip_quote_marks

# The quote may wrap onto the next line but may not cross a blank line or hold a tag.
# After the id a tag may carry quoted attributes (report.md adds ``check`` and ``note`` to
# refs whose quote or claim failed); they are not part of the citation and are ignored.
# (An attribute is named as in HTML: letters, digits, "_", "-", "." or ":"; a model's own
# ``source_id="..."`` is ignored like the others.)
_OPEN = (r"<ref\s+id\s*=\s*(?:\"([^\"<>]*)\"|'([^'<>]*)'|([^\s\"'<>/]+))"
         r"(?:\s+[a-z_][\w.:-]{0,30}\s*=\s*(?:\"[^\"<>]*\"|'[^'<>]*'))*\s*>")
_OPEN_TAG = re.compile(_OPEN, re.I)
_REF = re.compile(
    _OPEN +
    # the quote: no ref tag and no blank line in it. Each character is tried against a class
    # first (only a "<" or a line break asks a look-ahead), and possessively: the quote ends
    # at the first ref tag, blank line or end anyway, where the closing tag must stand (one
    # that stood earlier would be a ref tag inside it), so nothing is given back to search.
    r"((?:[^<\n]++|<(?!/?ref\b)|\n(?![ \t]*\n))*+)</ref\s*>",
    re.I,
)
_OPENING_MARKS = "\"'\u201c\u201e\u2018\u00ab\u300c\u300e"
# A malformed tag runs to its ">" but never past the next "<" (so a run of openers without
# one is read in linear time).
_ANY_TAG = re.compile(r"</?ref\b[^<>]*>?", re.I)
_NOT_NEWLINE = re.compile(r"[^\n]")
MAX_QUOTE_CHARS = 2000


def code_regions(md: str, blocks: Blocks | None = None) -> list[tuple[int, int]]:
    """(start, end) of the code in ``md``, in order: fenced blocks and code spans, as a
    CommonMark renderer sees them (``mdscan``; one linear pass, or the scan ``blocks``
    already made of ``md``). A code span never crosses a block boundary, so an unmatched
    backtick is just a backtick. Indented code is not included: whether a line is indented
    code depends on list indentation rules that renderers apply differently, so a ref
    there is read as a ref (and the output policy shows it as text)."""
    if blocks is None:
        blocks = scan_blocks(md)
    regions = list(blocks.fences)
    for inline in blocks.inlines:
        segs = inline.segments
        if inline.table or inline.kind == "icode":
            for a, b in segs:
                regions.extend(code_spans(md, a, b))
        else:  # between two lines of a paragraph there are only "\n" and ">"/indentation
            regions.extend(code_spans(md, segs[0][0], segs[-1][1]))
    regions.sort()
    return regions


def _mask_code(md: str, regions: list[tuple[int, int]] | None = None) -> str:
    """Blank out code so tags inside it are not parsed (offsets and line breaks kept)."""
    out, pos = [], 0
    for a, b in code_regions(md) if regions is None else regions:
        if a < pos:
            continue
        out.append(md[pos:a])
        out.append(_NOT_NEWLINE.sub(" ", md[a:b]))
        pos = b
    out.append(md[pos:])
    return "".join(out)


class _Lines:
    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_col(self, pos: int) -> tuple[int, int]:
        k = bisect.bisect_right(self.starts, pos) - 1
        return k + 1, pos - self.starts[k] + 1


def parse_refs(markdown: str, *, code: list[tuple[int, int]] | None = None) -> ParsedReport:
    """The refs and malformed ref markup of ``markdown``; ``code``: its code regions when
    they are known (:func:`code_regions`), else they are found here. A report is parsed
    with :func:`deep_research.citations.document.parse`, which calls this once."""
    masked = _mask_code(markdown, code)
    lines = _Lines(markdown)
    report = ParsedReport(markdown)
    taken: list[tuple[int, int]] = []

    def problem(start: int, end: int, message: str) -> None:
        line, col = lines.line_col(start)
        snippet = markdown[start:end]
        if len(snippet) > 120:
            snippet = snippet[:117] + "..."
        report.problems.append(RefProblem(line, col, message, snippet, start, end))

    for m in _REF.finditer(masked):
        start, end = m.span()
        sid = next((g for g in m.groups()[:3] if g is not None), "").strip()
        inner = markdown[m.start(4) : m.end(4)]
        taken.append((start, end))
        if not sid:
            problem(start, end, "<ref> tag with an empty id")
            continue
        quote = strip_quote_marks(inner)
        if quote and quote == inner.strip() and quote[0] in _OPENING_MARKS:
            problem(start, end, f"<ref id=\"{sid}\"> quote marks are not closed")
            continue
        if not quote.strip():
            problem(start, end, f"<ref id=\"{sid}\"> has no quote")
            continue
        if len(quote) > MAX_QUOTE_CHARS:
            problem(start, end, f"<ref id=\"{sid}\"> quote is longer than {MAX_QUOTE_CHARS} characters")
            continue
        line, _ = lines.line_col(start)
        report.refs.append(Ref(len(report.refs), sid, quote.strip(), start, end, line))

    # Whatever ref-like markup is left over is malformed.
    taken_starts = [a for a, _ in taken]  # in order, not overlapping
    for m in _ANY_TAG.finditer(masked):
        k = bisect.bisect_right(taken_starts, m.start()) - 1
        if k >= 0 and m.start() < taken[k][1]:
            continue
        tag = m.group(0)
        if tag.startswith("</"):
            msg = "closing </ref> without an opening tag"
        elif not tag.endswith(">"):
            msg = "unterminated <ref tag"
        elif not re.search(r"\bid\s*=", tag, re.I):
            msg = "<ref> tag without an id attribute"
        elif not _OPEN_TAG.fullmatch(tag) and not tag[:-1].rstrip().endswith("/"):  # <ref id="1"/>: below
            msg = '<ref> tag whose attributes cannot be read (after the id only name="value" pairs may follow)'
        else:
            msg = "<ref> tag without a closing </ref>"
        problem(m.start(), m.end(), msg)
    report.problems.sort(key=lambda p: (p.line, p.column))
    return report


def replace_spans(text: str, replacements: list[tuple[int, int, str]]) -> str:
    """Apply non-overlapping (start, end, new) edits to text."""
    out, pos = [], 0
    for start, end, new in sorted(replacements):
        out.append(text[pos:start])
        out.append(new)
        pos = end
    out.append(text[pos:])
    return "".join(out)

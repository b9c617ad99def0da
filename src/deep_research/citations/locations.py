"""Where a span of a local document's text came from: a PDF page, a slide, a sheet row, an
EPUB chapter, a CSV row.

The index (``deep_research.search``) stores, beside a document's text, a compact list of
*marks*, each ``[offset, kind, *args]``: from ``offset`` (into the stored text) on, the text
comes from that place, until the next mark. Kinds:

* ``["page", n]`` - PDF page ``n`` (1-based);
* ``["slide", n]`` - PowerPoint slide ``n``;
* ``["sheet", name, row]`` - worksheet ``name``; ``row`` (or None for the sheet's heading
  line) is the sheet row of the mark's line, and each later line is the next row;
* ``["chapter", n, title]`` - the ``n``-th chapter (spine document with text) of an EPUB,
  ``title`` its first heading or ``""``;
* ``["row", row]`` - CSV record ``row`` (the header is row 1), each later line the next.

Marks are sorted by offset. A table row skipped because it was empty starts a new mark,
so the row of a line is its mark's row plus the lines since the mark.

The extractors (``deep_research.search``, which may not import this package) write the
marks. Sheet names and chapter titles come from the file: they are cleaned there, and
again by :func:`parse_locations` (through :func:`clean_label`: one line of printable text,
control and bidi characters escaped, at most :data:`MAX_LABEL_CHARS`), which every reader
uses (the citation check, the run's source store, a sources file): it drops malformed
marks. Renderers still escape the names for their format.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from ..terminal import printable

MAX_LABEL_CHARS = 80
MAX_MARKS = 10_000  # marks read per document (the extractors keep none past their own, equal, bound)
KINDS = ("page", "slide", "sheet", "chapter", "row")


def clean_label(text: object, limit: int = MAX_LABEL_CHARS) -> str:
    """A name from a file (sheet name, chapter title) as one bounded line of printable text."""
    s = printable(" ".join(str(text or "").split()))
    return s if len(s) <= limit else s[: limit - 1].rstrip() + "\u2026"


def _int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 2**53


def parse_locations(value: object) -> list[list] | None:
    """Well-formed marks of ``value`` (sorted, labels cleaned), or None when there are none."""
    if not isinstance(value, list):
        return None
    out: list[list] = []
    last = -1
    for m in value[:MAX_MARKS]:
        if not isinstance(m, (list, tuple)) or len(m) < 3 or not _int(m[0]) or m[1] not in KINDS:
            continue
        off, kind, args = m[0], m[1], list(m[2:])
        if off < last:
            continue
        if kind in ("page", "slide") and len(args) == 1 and _int(args[0]) and args[0] >= 1:
            mark = [off, kind, args[0]]
        elif kind == "sheet" and len(args) == 2 and isinstance(args[0], str) and (args[1] is None or _int(args[1])):
            mark = [off, kind, clean_label(args[0]), args[1]]
        elif kind == "chapter" and len(args) == 2 and _int(args[0]) and isinstance(args[1], str):
            mark = [off, kind, args[0], clean_label(args[1])]
        elif kind == "row" and len(args) == 1 and _int(args[0]):
            mark = [off, kind, args[0]]
        else:
            continue
        out.append(mark)
        last = off
    return out or None


@dataclass(frozen=True)
class Location:
    """Where a quote is: ``text`` in words ("slide 4", "sheet Prices, row 12"), and the PDF
    page to open (``page``), when the document is a PDF."""

    text: str
    page: int | None = None


def _at(marks: list[list], content: str, offset: int) -> tuple[list, int | None] | None:
    """The mark that holds ``offset`` and, for row kinds, the row there."""
    i = bisect.bisect_right([m[0] for m in marks], offset) - 1
    if i < 0:
        return None
    m = marks[i]
    row = None
    if m[1] == "sheet" and m[3] is not None:
        row = m[3] + content.count("\n", m[0], offset)
    elif m[1] == "row":
        row = m[2] + content.count("\n", m[0], offset)
    return m, row


def _words(m: list, row: int | None) -> str:
    kind = m[1]
    if kind in ("page", "slide"):
        return f"{kind} {m[2]}"
    if kind == "sheet":
        return f"sheet {m[2]}" + (f", row {row}" if row is not None else "")
    if kind == "chapter":
        return f"chapter {m[2]}" + (f": {m[3]}" if m[3] else "")
    return f"row {row}"


def locate(marks: list[list] | None, content: str, start: int, end: int) -> Location | None:
    """Where ``content[start:end]`` is, or None when the marks do not say."""
    if not marks or start < 0 or end <= start:
        return None
    first = _at(marks, content, start)
    if first is None:
        return None
    last = _at(marks, content, end - 1) or first
    (m1, r1), (m2, r2) = first, last
    page = m1[2] if m1[1] == "page" else None
    if m1 is m2 and r1 == r2:
        return Location(_words(m1, r1), page)
    if m1[1] == m2[1] and m1[1] in ("page", "slide"):
        return Location(f"{m1[1]}s {m1[2]}\u2013{m2[2]}", page)
    if m1[1] == m2[1] == "row" or (m1[1] == m2[1] == "sheet" and m1[2] == m2[2] and r1 is not None and r2 is not None):
        head = f"sheet {m1[2]}, " if m1[1] == "sheet" else ""
        return Location(f"{head}rows {r1}\u2013{r2}", page)
    return Location(f"{_words(m1, r1)} to {_words(m2, r2)}", page)

"""Linear-time markdown scanning: where a CommonMark renderer sees code and where it
parses inline text, without building a document tree.

* ``scan_blocks`` follows CommonMark's block algorithm for containers (block quotes, list
  items, with tab stops and lazy continuation) and leaves (fenced code, ATX and setext
  headings, thematic breaks, paragraphs). It returns the fenced code blocks and the inline
  contexts (paragraphs, headings), each as one (start, end) segment per line. HTML blocks
  are not recognised (publishing escapes every ``<`` outside code, so the published text
  has none); indented code is reported as an inline context of kind ``"icode"``, one per
  line, because whether a line is indented code depends on details (list indentation)
  that renderers get subtly different.
* ``code_spans`` pairs backtick runs by CommonMark's code-span rule: a run that is not
  backslash-escaped opens; the next run of exactly the same length closes; a run without
  one is literal text. Backslashes do not escape inside a span.

Both are single passes (a run's closer is found with a per-length cursor that only moves
forward), so degenerate input such as backtick runs of every length cannot make them slow.
``refs.py`` uses them to leave tags inside code alone; ``publish/safety.py`` uses them to
escape markup everywhere except in code.
"""

from __future__ import annotations

import bisect
import html
import re
from dataclasses import dataclass, field

from ..terminal import inert_text

HARD_DEPTH = 256  # containers nested deeper than this are read as text (their block is
# shown as code by the publishing policy long before; this only bounds the work per line)

_BACKTICK_RUN = re.compile(r"``*")  # "`+", written to start with a literal: searched at C speed


@dataclass(slots=True)
class Inline:
    """One inline context: a paragraph or heading (``segments``: one (start, end) per line,
    content only, container markers and indentation excluded), or one line of indented
    code (kind ``"icode"``). ``table``: a line looks like a table delimiter row, so a
    renderer with tables may split every line into cells."""

    kind: str
    segments: list[tuple[int, int]]
    table: bool = False
    level: int = 0  # a heading's level: ATX 1-6; a paragraph that became a setext heading 1 or 2
    depth: int = 0  # containers (block quotes, list items) around it
    line: int = -1  # start of its first line
    setext_end: int = -1  # a setext heading: end of its underline


@dataclass(slots=True)
class Chunk:
    """Lines between two blank lines at the top level (outside any container or fence)."""

    start: int
    end: int
    depth: int  # deepest container nesting inside


@dataclass
class Blocks:
    inlines: list[Inline] = field(default_factory=list)
    fences: list[tuple[int, int]] = field(default_factory=list)  # whole fenced blocks
    chunks: list[Chunk] = field(default_factory=list)
    # fence openers a renderer with tables reads as a table header (a "|" in the line and a
    # delimiter row next): read here as text; publishing escapes their first character
    ambiguous_fences: list[tuple[int, int]] = field(default_factory=list)
    # a fence at the top level that the end of the text closes: its fence string (a
    # renderer that needs a closing fence would otherwise read the rest as text)
    unclosed_fence: str | None = None


class _Container:
    __slots__ = ("has_content", "quote", "width")

    def __init__(self, quote: bool, width: int = 0):
        self.quote = quote  # block quote, else list item
        self.width = width  # list item: columns its content is indented by
        self.has_content = False


def _ws(s: str, pos: int, end: int, col: int) -> tuple[int, int]:
    """First position at or after pos that is not a space or tab, and its column."""
    while pos < end:
        ch = s[pos]
        if ch == " ":
            col += 1
        elif ch == "\t":
            col += 4 - col % 4
        else:
            break
        pos += 1
    return pos, col


def _advance(s: str, pos: int, end: int, col: int, cols: int) -> tuple[int, int]:
    """Consume ``cols`` columns of whitespace; a tab may be consumed in part (the position
    then stays on it and the column moves inside it)."""
    while cols > 0 and pos < end:
        ch = s[pos]
        if ch == "\t":
            to_stop = 4 - col % 4
            if to_stop > cols:
                return pos, col + cols
            col += to_stop
            cols -= to_stop
        elif ch == " ":
            col += 1
            cols -= 1
        else:
            break
        pos += 1
    return pos, col


def _setext(s: str, pos: int, end: int) -> bool:
    ch = s[pos]
    k = pos
    while k < end and s[k] == ch:
        k += 1
    return not s[k:end].strip(" \t")


_DELIM_CHARS = frozenset("-:| \t")


def _delimiter_like(line: str, header_pipe: bool) -> bool:
    """Could a renderer with tables read this line as a delimiter row, after a header line
    (``header_pipe``: the header holds a "|")? Errs towards yes."""
    line = line.strip(" \t\r")
    return "-" in line and ("|" in line or header_pipe) and all(c in _DELIM_CHARS for c in line)


def delimiter_row(line: str) -> bool:
    """A GFM table delimiter row such as ``| --- | :-: |`` (at least one pipe)."""
    if "|" not in line or "-" not in line:
        return False
    cells = line.strip(" \t").split("|")
    if cells and not cells[0].strip(" \t"):
        cells = cells[1:]
    if cells and not cells[-1].strip(" \t"):
        cells = cells[:-1]
    if not cells:
        return False
    for cell in cells:
        c = cell.strip(" \t")
        c = c.removeprefix(":")
        c = c.removesuffix(":")
        if not c or c.strip("-"):
            return False
    return True


def scan_blocks(s: str, *, chunks: bool = False) -> Blocks:
    """The block structure of markdown ``s`` (see the module notes)."""
    return _BlockScanner(s, chunks).run()


class _BlockScanner:
    def __init__(self, s: str, chunks: bool):
        self.s = s
        self.want_chunks = chunks
        self.out = Blocks()
        self.stack: list[_Container] = []
        # how many leading containers a blank line continues (list items with content),
        # kept up to date so a blank line costs O(1) however deep the nesting
        self.blank_ok = 0

    # container bookkeeping
    def close_from(self, k: int) -> None:
        del self.stack[k:]
        self.blank_ok = min(self.blank_ok, k)

    def push(self, c: _Container) -> None:
        if self.stack:
            self.content(len(self.stack) - 1)
        self.stack.append(c)

    def content(self, i: int) -> None:
        stack = self.stack
        stack[i].has_content = True
        while self.blank_ok < len(stack) and not stack[self.blank_ok].quote \
                and stack[self.blank_ok].has_content:
            self.blank_ok += 1

    def next_delimiter(self, nl: int) -> bool:
        """Is the line after the one ending at ``nl`` (-1: none) delimiter-like?"""
        if nl == -1:
            return False
        nxt = self.s.find("\n", nl + 1)
        line = self.s[nl + 1:len(self.s) if nxt == -1 else nxt]
        return _delimiter_like(line.lstrip(" \t>"), True)

    def run(self) -> Blocks:
        s, out, stack = self.s, self.out, self.stack
        n = len(s)
        para: Inline | None = None  # the open paragraph
        fence: tuple[str, int, int] | None = None  # (char, length, start) of an open fence
        # table rows may follow (a renderer with tables reads lines as rows until a blank
        # line or another block): paragraphs started now are read line by line
        table_rows = False
        prev_pipe = False  # the previous line was a paragraph line holding "|"
        chunk_start, chunk_depth = 0, 0
        line_start = 0
        while True:
            nl = s.find("\n", line_start)
            line_end = n if nl == -1 else nl
            end = line_end - 1 if line_end > line_start and s[line_end - 1] == "\r" else line_end
            pos, col = _ws(s, line_start, end, 0)
            blank_line = pos >= end
            pos, col = line_start, 0
            if prev_pipe and para is not None and _delimiter_like(s[line_start:end].lstrip(" \t>"), True):
                para.table = table_rows = True  # the paragraph's last line is a table header
            if blank_line:
                table_rows = False
            this_para = None

            # 1. which open containers does this line continue?
            if blank_line:
                matched = self.blank_ok
            else:
                matched = 0
                nxt = -1
                for c in stack:
                    if pos > nxt:  # else only whitespace was consumed: same next non-space
                        nxt, ncol = _ws(s, pos, end, col)
                    if c.quote:
                        if ncol - col > 3 or nxt >= end or s[nxt] != ">":
                            break
                        pos, col = nxt + 1, ncol + 1
                        if pos < end and s[pos] in " \t":
                            pos, col = _advance(s, pos, end, col, 1)
                    elif nxt >= end:
                        if not c.has_content:
                            break  # a list item can begin with at most one blank line
                    elif ncol - col >= c.width:
                        pos, col = _advance(s, pos, end, col, c.width)
                    else:
                        break
                    matched += 1
            all_matched = matched == len(stack)
            depth_before, first_matched, lazy = len(stack), matched, False

            handled = False
            if fence is not None:
                if all_matched:
                    nxt, ncol = _ws(s, pos, end, col)
                    ch, length, fstart = fence
                    if ncol - col <= 3 and nxt < end and s[nxt] == ch:
                        k = nxt
                        while k < end and s[k] == ch:
                            k += 1
                        if k - nxt >= length and not s[k:end].strip(" \t"):
                            out.fences.append((fstart, line_end))
                            fence = None
                    handled = True  # a content line or the closing fence
                else:
                    out.fences.append((fence[2], line_start))
                    fence = None

            started = False
            rest_blank = blank_line
            break_tail: dict[str, int] = {}
            while not handled:
                # 2. new containers and leaf starts
                nxt, ncol = _ws(s, pos, end, col)
                indent = ncol - col
                if nxt >= end or indent >= 4:
                    break
                ch = s[nxt]
                tip_para = para is not None and matched == len(stack)
                if ch == ">":
                    if len(stack) >= HARD_DEPTH:
                        break
                    self.close_from(matched)
                    para = None
                    pos, col = nxt + 1, ncol + 1
                    if pos < end and s[pos] in " \t":
                        pos, col = _advance(s, pos, end, col, 1)
                    self.push(_Container(True))
                    matched = len(stack)
                    started = True
                    table_rows = False
                    continue
                if ch == "#":
                    k = nxt
                    while k < end and k - nxt < 7 and s[k] == "#":
                        k += 1
                    if k - nxt <= 6 and (k == end or s[k] in " \t"):
                        self.close_from(matched)
                        para = None
                        a, _ = _ws(s, k, end, 0)
                        out.inlines.append(Inline("heading", [(a, end)], "|" in s[a:end]
                                                  and self.next_delimiter(nl), k - nxt, len(stack), line_start))
                        handled = True
                        table_rows = False
                        break
                if ch in "`~":
                    k = nxt
                    while k < end and s[k] == ch:
                        k += 1
                    if k - nxt >= 3 and (ch == "~" or "`" not in s[k:end]):
                        if "|" in s[k:end] and self.next_delimiter(nl):
                            out.ambiguous_fences.append((nxt, k))
                            break  # read as a paragraph line
                        self.close_from(matched)
                        para = None
                        fence = (ch, k - nxt, line_start)
                        handled = True
                        table_rows = False
                        break
                if tip_para and ch in "=-" and _setext(s, nxt, end):
                    para.level = 1 if ch == "=" else 2
                    para.setext_end = end
                    para = None  # the paragraph became a heading; its lines stay inline text
                    handled = True
                    break
                if ch in "*-_":
                    if ch not in break_tail:  # where the line stops being only ch, space, tab
                        break_tail[ch] = line_start + len(s[line_start:end].rstrip(ch + " \t"))
                    if nxt >= break_tail[ch] and s.count(ch, nxt, end) >= 3:
                        self.close_from(matched)
                        para = None
                        handled = True
                        if not prev_pipe:
                            table_rows = False
                        break
                # list item
                k = nxt
                if ch in "-+*":
                    k += 1
                    ordered_ok = True
                elif "0" <= ch <= "9":
                    while k < end and k - nxt < 10 and "0" <= s[k] <= "9":
                        k += 1
                    if k - nxt > 9 or k >= end or s[k] not in ".)":
                        break
                    ordered_ok = not tip_para or int(s[nxt:k]) == 1
                    k += 1
                else:
                    break
                if k < end and s[k] not in " \t":
                    break
                if not ordered_ok or len(stack) >= HARD_DEPTH:
                    break
                rest, _ = _ws(s, k, end, 0)
                blank_item = rest >= end
                if tip_para and blank_item:
                    break  # an empty list item cannot interrupt a paragraph
                mcol = ncol + (k - nxt)  # column after the marker
                p2, c2 = k, mcol
                while p2 < end and s[p2] in " \t" and c2 - mcol < 5:
                    p2, c2 = _advance(s, p2, end, c2, 1)
                spaces = c2 - mcol
                if spaces >= 5 or spaces < 1 or blank_item:
                    width = indent + (k - nxt) + 1
                    pos, col = k, mcol
                    if pos < end and s[pos] in " \t":
                        pos, col = _advance(s, pos, end, col, 1)
                else:
                    width = indent + (k - nxt) + spaces
                    pos, col = p2, c2
                self.close_from(matched)
                para = None
                self.push(_Container(False, width))
                matched = len(stack)
                started = True
                table_rows = False

            if not handled:
                nxt, ncol = _ws(s, pos, end, col)
                rest_blank = nxt >= end
                if not started and not all_matched and para is not None and not rest_blank:
                    para.segments.append((nxt, end))  # lazy continuation
                    para.table = para.table or delimiter_row(s[nxt:end])
                    this_para = para
                    lazy = True
                    rest_blank = True  # the paragraph's container already has content
                else:
                    if matched < len(stack):
                        self.close_from(matched)
                        para = None
                    if rest_blank:
                        para = None
                    elif para is not None:
                        para.segments.append((nxt, end))
                        para.table = para.table or delimiter_row(s[nxt:end])
                        this_para = para
                    elif ncol - col >= 4:
                        out.inlines.append(Inline("icode", [(nxt, end)], "|" in s[nxt:end], 0, len(stack), line_start))
                    else:
                        para = Inline("para", [(nxt, end)], table_rows or delimiter_row(s[nxt:end]), 0, len(stack),
                                      line_start)
                        out.inlines.append(para)
                        this_para = para
            else:
                rest_blank = False
            if stack and not rest_blank:
                self.content(len(stack) - 1)
            if this_para is not None and this_para.table:
                table_rows = True
            prev_pipe = this_para is not None and "|" in s[this_para.segments[-1][0]:end]

            if self.want_chunks:
                if depth_before and not first_matched and not lazy and not blank_line \
                        and line_start > chunk_start:  # this line closed every container
                    out.chunks.append(Chunk(chunk_start, line_start, chunk_depth))
                    chunk_start, chunk_depth = line_start, 0
                chunk_depth = max(chunk_depth, len(stack))
                if blank_line and not stack and fence is None:
                    if line_start > chunk_start:
                        out.chunks.append(Chunk(chunk_start, line_start, chunk_depth))
                    chunk_start, chunk_depth = (nl + 1 if nl != -1 else n), 0
            if nl == -1:
                break
            line_start = nl + 1
        if fence is not None:
            out.fences.append((fence[2], n))
            if not stack:
                out.unclosed_fence = fence[0] * fence[1]
        if self.want_chunks and chunk_start < n:
            out.chunks.append(Chunk(chunk_start, n, chunk_depth))
        return out


# --- code spans -------------------------------------------------------------------------
class CodeSpans:
    """Backtick runs of a text and the spans they form, queried left to right.

    ``closer(pos, length, limit)`` is the start of the first maximal run of exactly
    ``length`` backticks that starts after ``pos`` and before ``limit``, or -1. Queries
    must come with non-decreasing ``pos`` (a cursor per length only moves forward), so a
    whole pass costs time linear in the text."""

    def __init__(self, text: str, lo: int = 0, hi: int | None = None):
        self.text = text
        hi = len(text) if hi is None else hi
        self.by_len: dict[int, list[int]] = {}
        self.run_end: dict[int, int] = {}
        for m in _BACKTICK_RUN.finditer(text, lo, hi):
            a, b = m.span()
            self.by_len.setdefault(b - a, []).append(a)
            self.run_end[a] = b
        self._cursor: dict[int, int] = {}

    def closer(self, pos: int, length: int, limit: int) -> int:
        starts = self.by_len.get(length)
        if not starts:
            return -1
        k = self._cursor.get(length, 0)
        while k < len(starts) and starts[k] <= pos:
            k += 1
        self._cursor[length] = k
        if k < len(starts) and starts[k] < limit:
            return starts[k]
        return -1


def escaped(text: str, pos: int, lo: int = 0) -> bool:
    """True if the character at pos is preceded by an odd number of backslashes."""
    k = pos
    while k > lo and text[k - 1] == "\\":
        k -= 1
    return (pos - k) % 2 == 1


def code_spans(text: str, lo: int = 0, hi: int | None = None, *,
               barriers: list[int] | None = None) -> list[tuple[int, int]]:
    """(start, end) of every code span in text[lo:hi], CommonMark's rule; a span never
    contains a position listed in ``barriers`` (sorted), such as a blank line."""
    hi = len(text) if hi is None else hi
    runs = CodeSpans(text, lo, hi)
    starts = sorted(runs.run_end)
    out: list[tuple[int, int]] = []
    i, k = lo, 0
    while k < len(starts):
        a = starts[k]
        k += 1
        if a < i:
            continue
        b = runs.run_end[a]
        if escaped(text, a, max(lo, i)):
            a += 1
            if a == b:
                continue
        limit = hi
        if barriers:
            j = bisect.bisect_right(barriers, a)
            if j < len(barriers):
                limit = min(limit, barriers[j])
        c = runs.closer(b - 1, b - a, limit)
        if c == -1:
            continue
        end = runs.run_end[c]
        out.append((a, end))
        i = end
    return out


# CommonMark inline text: a backslash before ASCII punctuation, a character reference (with its ';')
_SHOWN_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _shown_one(m: re.Match) -> str:
    return m.group(1) if m.group(1) is not None else inert_text(html.unescape(m.group(0)))


def shown_text(text: str) -> str:
    """Inline markdown (a heading, a ref's quote) as a reader of the rendered markdown sees
    its characters: ``\\[`` is ``[``, ``&lt;`` is ``<``, a code span as written (backticks
    included); a control character a reference names is shown as an escape
    (``terminal.inert_text``). Emphasis and link marks stay. Linear (:func:`code_spans`)."""
    if "\\" not in text and "&" not in text:
        return text
    out, pos = [], 0
    for a, b in code_spans(text) if "`" in text else ():
        out += [_SHOWN_ESCAPE.sub(_shown_one, text[pos:a]), text[a:b]]
        pos = b
    out.append(_SHOWN_ESCAPE.sub(_shown_one, text[pos:]))
    return "".join(out)

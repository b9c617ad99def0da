"""Report markdown's lists written the way Python-Markdown reads them.

report.md is read by CommonMark renderers, where a list item's content is indented by the
width of its marker: ``1. First line`` continues on a line indented by 3 spaces, a ``- ``
item's nested list is indented by 2, and a list may follow a paragraph line directly.
Python-Markdown (report.html, and the PDF and Word file made from that HTML) wants
4 spaces per level and a list at the start of a block: the same text lost its list there
(a 3-space continuation paragraph came out after the list, a nested list as text, a list
after "Key points:" as part of the paragraph). :func:`for_python_markdown` rewrites the
indentation of each list item's lines, from the item structure a CommonMark parser
(markdown-it-py) finds, so that Python-Markdown builds the same lists; the text of every
line is kept, and lines outside lists are left as written. The lists inside a top-level block
quote go through the same rewrite (the quote's text without its markers); a fenced code block
inside an item, which Python-Markdown cannot read there, is handed to a caller's function
that gives the line to stand for it (publish/html.py renders it with Python-Markdown's own
fenced-code step). :func:`separate_quotes` keeps two quotes a blank line apart apart.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt

INDENT = 4  # Python-Markdown's tab_length: the indentation of one list level
# the parser's depth limit (tokens: a list and its item are two levels): well past the lists
# and quotes the output policy lets through (safety.MAX_NESTING, 16); a text that reaches it is
# left as written (what the parser did not read cannot be re-indented)
NESTING = 100
LAZY = 2  # a line of an item's first block: indented less than a level, as CommonMark content
# a line that may start a list item (CommonMark: up to 3 spaces, then the marker)
_MAYBE_LIST = re.compile(r"^[ \t]{0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)", re.M)
# a line of a block quote that may start a list item in it
_QUOTED_LIST = re.compile(r"^[ \t]{0,3}>[> \t]*(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)", re.M)
_QUOTE_MARK = re.compile(r"[ ]{0,3}> ?")  # a quote's marker and the one space CommonMark takes with it
_MARKER = re.compile(r"([-+*]|\d{1,9}[.)])")
# what Python-Markdown reads as a list item or a block quote at the start of an item's line
_PM_ITEM = re.compile(r"(\d+\.|[-+*])[ \t]|(>)")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"maxNesting": NESTING}).enable("table").disable("inline")  # the blocks only


@dataclass(slots=True)
class _Item:
    start: int  # its marker line
    depth: int  # 1: a list at the top level
    content: int  # the column its content starts at in the text as written
    first: bool  # the first item of its list
    parent: _Item | None  # the item its list is nested in
    mark: int = -1  # blank lines written before its marker line (set when it is written)


def _columns(line: str) -> tuple[int, int]:
    """(column of the first character that is not a space or tab, its index)."""
    col = i = 0
    while i < len(line) and line[i] in " \t":
        col += INDENT - col % INDENT if line[i] == "\t" else 1
        i += 1
    return col, i


def for_python_markdown(md: str, code: Callable[[str, str], str] | None = None) -> str:
    """``md`` with its list items indented as Python-Markdown needs to read the lists
    CommonMark reads (see the module notes); text without a list is returned as is.

    ``code(info, content)``, when given, is called for each fenced code block inside a list
    item (not in a block quote): Python-Markdown reads fences only at the start of a line, so
    the block's lines are replaced by the one line ``code`` returns (a placeholder the caller
    turns into the rendered block), on a block of its own in the item. Without it such a
    block's lines are re-indented like the item's other lines."""
    if not _MAYBE_LIST.search(md) and not _QUOTED_LIST.search(md):
        return md
    md = _quoted_lists(md, code)
    md = _lists_in_item_quotes(md, code)
    lines = md.split("\n")
    tokens = _parser().parse(md)
    owner: list[_Item | None] = [None] * len(lines)
    fence = [False] * len(lines)  # a line of a code block (fenced or indented)
    para = [False] * len(lines)  # a line of a paragraph
    table = [False] * len(lines)  # the first line of a table in a list item
    fenced: dict[int, tuple[int, str, str]] = {}  # a fenced block's first line in an item: (end, info, content)
    quotes = 0
    lists: list[bool] = []  # per open list: is its next item the first
    depth = 0
    stack: list[_Item | None] = []  # the open items (None: one inside a block quote)
    for t in tokens:
        kind = t.type
        if t.level >= NESTING - 2:
            return md
        if kind == "blockquote_open":
            quotes += 1
        elif kind == "blockquote_close":
            quotes -= 1
        elif kind in ("bullet_list_open", "ordered_list_open"):
            lists.append(True)
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif kind == "list_item_open":
            depth += 1
            first = bool(lists) and lists[-1]
            if lists:
                lists[-1] = False
            parent = stack[-1] if stack else None
            if quotes or not t.map or t.map[0] >= len(lines):
                stack.append(None)
                continue
            a, b = t.map
            opened = _Item(a, depth, _content_column(lines[a]), first, parent)
            stack.append(opened)
            for k in range(a, min(b, len(lines))):
                owner[k] = opened  # a nested item comes later and takes its own lines
        elif kind == "list_item_close":
            depth -= 1
            stack.pop()
        elif kind == "table_open" and t.map and stack and not quotes and t.map[0] < len(lines):
            table[t.map[0]] = True
        elif kind in ("fence", "code_block", "paragraph_open") and t.map and not quotes:
            if kind == "fence" and code is not None and stack and stack[-1] is not None:
                fenced[t.map[0]] = (min(t.map[1], len(lines)), t.info, t.content)
            marks = para if kind == "paragraph_open" else fence
            for k in range(t.map[0], min(t.map[1], len(lines))):
                marks[k] = True
    if not any(owner):
        return md
    out: list[str] = []
    blanks = 0  # blank lines written so far
    prev_depth = 0  # the list depth of the last line written that was not blank
    chunk_indent, chunk_owned = 0, False  # the first line of the current block: its indentation, an item's?
    skip_to = 0  # the lines of a fenced block replaced by its placeholder end here
    for k, line in enumerate(lines):
        if k < skip_to:
            continue
        item = owner[k]
        if not line.strip(" \t\r"):
            out.append(line)
            blanks += 1
            continue
        blank_before = not out or not out[-1].strip(" \t\r")
        if k in fenced and item is not None and code is not None:
            # the block on a line of its own, a block of its own in the item (Python-Markdown
            # reads a block in an item after a blank line, at the item's level)
            end, info, content = fenced[k]
            if k == item.start:  # the block opens on the marker line: the marker alone, then the block
                if not blank_before and item.first and (item.parent is None or blanks > item.parent.mark):
                    out.append("")
                    blanks += 1
                item.mark = blanks
                col, i = _columns(line)
                m = _MARKER.match(line, i)
                out.append(_marker_line(line[:m.end()] if m else line[:i], item))
                blank_before = False
            if not blank_before:
                out.append("")
                blanks += 1
            out += [" " * (INDENT * item.depth) + code(info, content).strip(), ""]
            blanks += 1
            chunk_indent, chunk_owned = INDENT * item.depth, True
            prev_depth = item.depth
            skip_to = end
            continue
        if item is None:
            new = line
        elif k == item.start:
            # a list opens after text, or a nested one after a blank line in its item: Python-
            # Markdown reads a list only at the start of a block
            if not blank_before and item.first and (item.parent is None or blanks > item.parent.mark):
                out.append("")
                blanks += 1
                blank_before = True
            item.mark = blanks
            new = _marker_line(line, item)
        else:
            if not blank_before and (prev_depth > item.depth or table[k]):
                # back out of a nested list (not a paragraph's lazy line), or a table after text
                # (Python-Markdown reads a table only at the start of a block): a new block
                out.append("")
                blanks += 1
                blank_before = True
            new = _item_line(line, k, item, blanks == item.mark, fence[k], para[k])
        if not blank_before and chunk_owned and chunk_indent >= INDENT and _columns(new)[0] < chunk_indent \
                and not (fence[k] and fence[k - 1]):
            # a line less indented than the block it follows, which Python-Markdown reads as one
            # (a sibling or outer item after a nested block, the text after a list)
            out.append("")
            blanks += 1
            blank_before = True
            if item is not None and k == item.start:
                item.mark = blanks  # its first block still follows its marker line
            elif item is not None:
                new = _item_line(line, k, item, False, fence[k], para[k])
        if blank_before:
            chunk_indent, chunk_owned = _columns(new)[0], item is not None
        prev_depth = item.depth if item is not None else 0
        out.append(new)
    return "\n".join(out)


def _marker_line(line: str, item: _Item) -> str:
    """An item's first line at its level's indentation."""
    _, i = _columns(line)
    m = _MARKER.match(line, i)
    marker = m.group(1) if m else ""
    marker = marker[:-1] + "." if marker.endswith(")") else marker  # Python-Markdown knows "1." only
    rest = line[m.end():] if m else line[i:]
    return " " * (INDENT * (item.depth - 1)) + marker + " " + rest.lstrip(" \t")


def _item_line(line: str, k: int, item: _Item, first_block: bool, code: bool, para: bool) -> str:
    """Another line of an item. In the block of its marker line Python-Markdown keeps a line's
    spaces and sees a block quote or a list item only within 3 of its list's column: the line
    is indented less than a level; in a later block (after a blank line) by one level."""
    col, i = _columns(line)
    base = INDENT * (item.depth - 1) + LAZY if first_block else INDENT * item.depth
    extra = col - item.content
    text = line[i:]
    if code:  # code keeps its spaces past the item's indentation
        return " " * (base + max(0, extra)) + text
    if para:
        if m := _PM_ITEM.match(text):
            # a paragraph's line CommonMark does not read as an item or a quote ("10. x" cannot
            # interrupt a paragraph; "- x" or "> x" indented as code cannot start a block),
            # which Python-Markdown would: its marker escaped
            at = m.end(1 if m.group(1) else 2) - 1
            text = text[:at] + "\\" + text[at:]
        return " " * base + text
    # a heading, a rule, a table row, a block quote's line
    return " " * (base + (extra if extra >= INDENT and not first_block else 0)) + text


def _content_column(line: str) -> int:
    """The column a list item's content starts at, from its marker line (CommonMark: the
    marker's end plus 1-4 spaces; one when more follow or the line has no content)."""
    col, i = _columns(line)
    m = _MARKER.match(line, i)
    if m is None:
        return col
    end = col + len(m.group(1))
    j, c = m.end(), end
    while j < len(line) and line[j] in " \t" and c - end < 5:
        c += INDENT - c % INDENT if line[j] == "\t" else 1
        j += 1
    spaces = c - end
    return end + 1 if spaces >= 5 or spaces < 1 or j >= len(line.rstrip("\r")) else c


def separate_quotes(md: str, separator: str) -> str:
    """``md`` with ``separator`` on a line of its own (a block of its own) between two block
    quotes at the top level that only blank lines separate: CommonMark reads two quotes there,
    Python-Markdown adds a quote to the one before it. Text without such quotes is returned
    as is."""
    if "\n\n" not in md or not re.search(r"^[ \t]{0,3}>", md, re.M):
        return md
    lines = md.split("\n")
    before: list[int] = []  # the first line of each quote that follows another
    last_quote_end = -1
    for t in _parser().parse(md):
        if t.level != 0 or not t.map or t.nesting == -1:
            continue
        if t.type == "blockquote_open":
            if last_quote_end >= 0 and t.map[0] > last_quote_end \
                    and all(not x.strip(" \t\r") for x in lines[last_quote_end:t.map[0]]):
                before.append(t.map[0])
            last_quote_end = t.map[1]
        else:
            last_quote_end = -1
    if not before:
        return md
    out: list[str] = []
    for k, line in enumerate(lines):
        if before and k == before[0]:
            before.pop(0)
            out += [separator, ""]
        out.append(line)
    return "\n".join(out)


def _quoted_lists(md: str, code: Callable[[str, str], str] | None) -> str:
    """``md`` with the lists inside each top-level block quote re-indented as the lists
    outside (the quote's text without its markers, through :func:`for_python_markdown`, each
    line given back a marker "> "); a quote without a list, or whose lines CommonMark reads
    with a tab after the marker, is left as written."""
    if not _QUOTED_LIST.search(md):
        return md
    lines = md.split("\n")
    spans = [t.map for t in _parser().parse(md) if t.type == "blockquote_open" and t.level == 0 and t.map]
    changed = False
    for a, b in reversed(spans):
        b = min(b, len(lines))
        inner: list[str] = []
        for line in lines[a:b]:
            m = _QUOTE_MARK.match(line)
            if m and line[m.end():m.end() + 1] == "\t":
                break
            inner.append(line[m.end():] if m else line)  # a lazy line: its text as is
        else:
            text = "\n".join(inner)
            new = for_python_markdown(text, code)
            if new != text:
                written = new.split("\n")
                after = 0
                while written and not written[-1].strip(" \t\r"):  # a quote's last line ">" would
                    written.pop()  # end its last paragraph with a line break in Python-Markdown
                    after += 1
                lines[a:b] = [("> " + x) if x.strip(" \t\r") else ">" for x in written] + [""] * after
                changed = True
    return "\n".join(lines) if changed else md


# a quote's marker in a list item: after the item's indentation, or after the markers of the
# items that open on its line ("- > a quote")
_ITEM_QUOTE = re.compile(r"^(?:[ \t]+|[ \t]{0,3}(?:[-+*]|\d{1,9}[.)])[ \t]+)[ \t]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)*>",
                         re.M)  # a line that may hold a quote's marker in a list item
_ITEM_QUOTE_MARK = re.compile(r"[ \t]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)*> ?")


def _lists_in_item_quotes(md: str, code: Callable[[str, str], str] | None) -> str:
    """``md`` with the lists inside each block quote that stands in a list item (and not in
    another quote) re-indented as the lists outside: the quote's text without its markers
    through :func:`for_python_markdown`, each line given back its indentation and marker.
    Python-Markdown read "> text" then "> - a" there as one paragraph, and a list nested by
    two spaces in the quote as text. A quote without a list, or whose lines hold a tab after
    the marker, is left as written; the item's lines are re-indented afterwards."""
    if not _ITEM_QUOTE.search(md):
        return md
    lines = md.split("\n")
    spans: list[tuple[int, int]] = []
    items = quotes = 0
    for t in _parser().parse(md):
        if t.level >= NESTING - 2:
            return md
        if t.type == "list_item_open":
            items += 1
        elif t.type == "list_item_close":
            items -= 1
        elif t.type == "blockquote_open":
            if items and not quotes and t.map:
                spans.append((t.map[0], min(t.map[1], len(lines))))
            quotes += 1
        elif t.type == "blockquote_close":
            quotes -= 1
    changed = False
    for a, b in reversed(spans):
        heads: list[str] = []  # each line's indentation and marker as written (empty: a lazy line)
        inner: list[str] = []
        for line in lines[a:b]:
            m = _ITEM_QUOTE_MARK.match(line)
            if m and line[m.end():m.end() + 1] == "\t":
                break
            heads.append(m.group(0).rstrip(" ") if m else "")
            inner.append(line[m.end():] if m else line)
        else:
            text = "\n".join(inner)
            if not _MAYBE_LIST.search(text) and not _QUOTED_LIST.search(text):
                continue
            new = for_python_markdown(text, code)
            if new == text:
                continue
            first = heads[0]  # the quote's first line holds its marker (and maybe the item's)
            lead = re.sub(r"[^ \t>]", " ", first)  # the next lines: the marker at the same column
            written = new.split("\n")
            after = 0
            while written and not written[-1].strip(" \t\r"):  # as in _quoted_lists
                written.pop()
                after += 1
            lines[a:b] = [((first if n == 0 else lead) + (" " + x if x.strip(" \t\r") else ""))
                          for n, x in enumerate(written)] + [""] * after
            changed = True
    return "\n".join(lines) if changed else md

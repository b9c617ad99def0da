"""Markdown content -> the text a browser shows, with every character mapped back.

Search APIs hand over a page as markdown made by an HTML-to-markdown converter: lines are
wrapped (``The [`pgsql-committers`⏎email list](https://…) records…``), code blocks are
indented, links come inline or as references. A quote copied from the page must be found
in what that markdown *renders to*, and a text fragment may only hold rendered text.

Block structure (paragraphs and their continuation lines, lists, block quotes, fenced and
indented code, HTML blocks, tables, headings, link reference definitions) comes from
markdown-it-py, a CommonMark parser; its inline rules are switched off and each block's
inline content is rendered here, because the page text model needs the raw offset of every
rendered character (markdown-it-py's inline tokens carry no positions).

Inline rendering follows CommonMark: backslash escapes, entities and numeric character
references, code spans (line endings become spaces), inline, full, collapsed and shortcut
reference links (only to defined labels), images (not text), autolinks, raw HTML tags,
emphasis and strikethrough delimiter runs, soft and hard line breaks. Where the real page
may differ from what the markdown says, the model stays on the safe side:

* a soft line break is a block break (``\\n``) in the rendered text: whitespace to quote
  verification, but no fragment term spans it (the converter may have joined two blocks);
* a soft break right after a hyphen inside a word (``on-⏎disk``, how converters wrap
  hyphenated words) renders as nothing, with a *cut* so that no term spans it;
* an emphasis mark left unmatched, or a backtick run without a closing run, renders as
  nothing with a cut (a browser page may or may not show it); a lone ``*`` inside a word
  (``n*b``, which converters do not escape) is shown, between cuts;
* a link destination broken after a hyphen (``(…#tut-⏎formatting)``, converters wrap long
  URLs that way) still closes the link: the destination is never page text.

Converter output is read leniently where strict CommonMark would read it as code although
the page showed prose (the definition list plugin of mdit-py-plugins, and one rule below):

* ``Term⏎:   definition`` is a definition list; a block indented by 4 spaces after it
  (markdownify's further paragraphs, nested lists, tables and fences of a ``<dd>``) is more
  of the definition, not code;
* ``1)`` opening a line is text, not an ordered list (converters write lists as ``1.``
  and leave a paragraph's own enumerator unescaped);
* a list marker indented by 4 spaces after a blank line, where a list (or a paragraph that
  follows one) precedes it, is a nested list (html2text moves a list item's second paragraph
  to the margin), not code;
* in an indented code block, markup characters that an inline reading would not show
  (code-span backticks, emphasis marks, escapes) are cut off from their neighbours, so
  that no fragment term holds a character the real page may not show.

Where a lenient rule applied, the strict CommonMark reading is kept as the page's
``alternate``: quote verification tries it too (a quote copied from either reading holds).
"""

from __future__ import annotations

import html
import math
import re
import unicodedata
from bisect import bisect_left
from functools import lru_cache, partial

from markdown_it import MarkdownIt
from markdown_it.common.utils import normalizeReference
from markdown_it.rules_block import StateBlock
from markdown_it.rules_block.list import list_block
from markdown_it.rules_block.reference import reference
from mdit_py_plugins.deflist import deflist_plugin

from .text import PageText, _Builder, is_word_char

_LINE = re.compile(r"([^\r\n]*)(?:\r\n|\r|\n|$)")  # a line; group 1: its body
_HTML_TAG = re.compile(
    r"</?[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*"
    r"(?:\s*=\s*(?:[^\s\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)*\s*/?>"
    r"|<!--.*?-->|<\?.*?\?>|<![A-Za-z][^>]*>|<!\[CDATA\[.*?\]\]>",
    re.S,
)
_SHOWN_IN_CODE = re.compile(r"<[^<>\n]*>|__+")
_LOOSE_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")  # a comment: see _render_html_text
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.\-]{1,31}:[^<>\x00-\x20]*)>")
_EMAIL = re.compile(
    r"<([A-Za-z0-9.!#$%&'*+/=?^_`{|}~\-]+@[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?)*)>"
)
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_PLAIN = re.compile(r"[^\\`!\[\]<&*_~\n]+")
_TICKS = re.compile(r"``*")  # "`+", written to start with a literal: searched at C speed
_BRACKET_STOP = re.compile(r"[\\`<\[\]]")
_TABLE_PREFIX = re.compile(r"^[ \t]*(?:>[ \t]?)*[ \t]*")
_HIDDEN_HTML_BLOCK = re.compile(r"^[ \t]*<(script|style)[\s>]", re.I)


@lru_cache(maxsize=2)
def _parser(strict: bool = False) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    if not strict:
        md.use(deflist_plugin)  # "Term⏎:   definition", as converters write <dl>
        md.block.ruler.before("code", "indented_list", _indented_list)
        md.block.ruler.at("list", _list_block, {"alt": ["paragraph", "reference", "blockquote"]})
        md.block.ruler.at("reference", _reference)  # (no "alt", as markdown-it-py registers it)
    md.disable("inline")  # blocks only: inline content is rendered below, with offsets
    return md


_LIST_START = re.compile(r"[ \t]*(?:[*+-]|[0-9]{1,9}[.)])[ \t]+\S")
_PAREN_NUMBER = re.compile(r"[0-9]{1,9}\)")


def _list_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """CommonMark's list rule, except that a line opening with ``1)`` starts no list.
    Converters write an HTML list as ``1.`` and leave a paragraph's own enumerator
    (``<p>2) Existing classes…``) unescaped: on the page it is text, and a block indented
    after it is code, not more of a list item."""
    if _PAREN_NUMBER.match(state.src, state.bMarks[start] + state.tShift[start]):
        _lenient_at(state, start)
        return False
    return list_block(state, start, end, silent)


def _lenient_at(state: StateBlock, line: int) -> None:
    """A lenient rule read line ``line`` otherwise than strict CommonMark may: the page has
    a strict reading, which agrees with this one on every top-level block parsed before the
    first such line (see :func:`_restart_line`)."""
    env = state.env
    env["lenient"] = True
    if line < env.get("lenient_from", line + 1):
        env["lenient_from"] = line


def _reference(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """markdown-it-py's reference definition rule, noting the line of each label it adds
    (the strict reading of a page parsed from a later line takes those defined before it)."""
    known = state.env.get("references")
    before = len(known) if known else 0
    found = reference(state, start, end, silent)
    if found and not silent:
        added = list(state.env.get("references", {}))[before:]
        if added:
            state.env.setdefault("reference_lines", []).append((start, added))
    return found


def _indented_list(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """A list indented as code after a blank line, where a list (or a paragraph that follows
    one) precedes it at the same level: a nested list whose parent item's second paragraph a
    converter moved to the margin (html2text), not code. Only a block that starts with a
    list marker; an indented block inside a list item stays code."""
    if silent or state.sCount[start] - state.blkIndent < 4 or start == 0 or not state.isEmpty(start - 1):
        return False
    if not _LIST_START.match(state.src, state.bMarks[start], state.eMarks[start]):
        return False
    paragraphs = 0
    for t in reversed(state.tokens):
        if t.level != state.level or t.nesting == 1:
            continue
        if t.type in ("bullet_list_close", "ordered_list_close"):
            break
        if t.type == "paragraph_close" and paragraphs < 2:
            paragraphs += 1
            continue
        return False
    else:
        return False
    outer = state.blkIndent
    state.blkIndent = state.sCount[start]
    try:
        found = _list_block(state, start, end, False)
    finally:
        state.blkIndent = outer
    if found:
        _lenient_at(state, start)
    return found


def render_markdown(raw: str, strict: bool = False, _lenient: _Reading | None = None) -> PageText:
    """Markdown content rendered to page text (see the module docstring). ``strict``: read
    as CommonMark alone (no definition lists), the other plausible reading of converter
    output; the lenient page offers it as its ``alternate`` when the two readings differ.
    ``_lenient``: the lenient reading's blocks, whose rendering the strict reading takes
    over for every block the two parses read alike (see :class:`_Reading`)."""
    # (start, end of body) of every line, split where markdown-it-py splits them
    lines = _lenient.lines if _lenient is not None else [
        (m.start(), m.end(1)) for m in _LINE.finditer(raw) if m.end() > m.start()]
    env: dict = {}
    head = _lenient.head if strict and _lenient is not None else None
    if head is None:
        tokens = _parser(strict).parse("\n".join(raw[a:b] for a, b in lines), env)
    else:  # the lenient reading's blocks up to its first top-level block a lenient rule may have read
        restart, tokens, labels = head
        if labels:
            env["references"] = {label: {} for label in labels}
        rest = _parser(strict).parse("\n".join(raw[a:b] for a, b in lines[restart:]), env)
        for t in rest:
            if t.map:
                t.map = [t.map[0] + restart, t.map[1] + restart]
        tokens = tokens + rest
    refs = frozenset(env.get("references", {}))
    alternate = not strict and bool(env.get("lenient") or any(t.type == "dl_open" for t in tokens))
    r = _Renderer(raw, lines, refs, _LoggingBuilder() if alternate else _Builder())
    reuse = _lenient if _lenient is not None and _lenient.refs == refs else None
    blocks: dict | None = {} if alternate else None
    table_rows: set[int] = set()
    for t in tokens:
        kind = None
        if t.type == "inline" and t.map and t.map[0] not in table_rows:
            kind = "inline"
        elif t.type in ("code_block", "fence", "html_block") and t.map:
            kind = t.type
        elif t.type == "tr_open" and t.map:
            table_rows.add(t.map[0])
            kind = "row"
        if kind is not None and t.map:
            key = (kind, t.map[0], t.map[1], t.content)
            if reuse is None or not reuse.replay(key, r.b):
                mark = _Mark(r.b) if blocks is not None else None
                _render_block(r, kind, t)
                if mark is not None and blocks is not None:
                    mark.close(r.b)
                    blocks[key] = None if key in blocks else mark  # a block read twice: not copied
        r.b.newline(r.line_end(max(t.map[1] - 1, t.map[0])) if t.map else len(raw))
    page = r.b.build(raw)
    page.derived = True  # markdown is a converter's account of a page, not the page
    if alternate:
        assert isinstance(r.b, _LoggingBuilder) and blocks is not None
        page.alternate_reader = partial(_strict_reading, _Reading(raw, lines, refs, page, r.b.cut_log, blocks,
                                                                  _restart(tokens, env)))
    return page


def _restart(tokens: list, env: dict) -> tuple[int, list, list[str]] | None:
    """Where the strict parse of a page may start instead of its first line: (the first
    line of the last top-level block that starts before the first line a lenient rule read,
    the lenient parse's tokens before that block, the reference labels defined before it),
    or None (that block is the first).

    Both parsers run the same rules in the same order on every line up to that first line:
    the lenient rules find nothing there (the definition list rule's quick test passes only
    inside a definition list, whose first line counts), so every top-level block that
    starts before it was parsed alike, and the one it starts in ends no later than the
    line (a block's rules read up to the line that ends it). A top-level block starts from
    a fresh state (root, no indentation): parsed from its first line, the rest of the page
    gives the same blocks as a parse of the whole page. The reference labels matter only as
    a set (the first definition of a label wins; blocks do not read them)."""
    first: float = env.get("lenient_from", math.inf)
    for t in tokens:
        if t.type == "dl_open" and t.map and t.map[0] < first:
            first = t.map[0]
    restart, cut = 0, 0
    for i, t in enumerate(tokens):
        if t.level == 0 and t.nesting >= 0 and t.map:
            if t.map[0] >= first:
                break
            restart, cut = t.map[0], i
    if restart <= 0:
        return None
    labels = [label for line, added in env.get("reference_lines", ()) if line < restart for label in added]
    return restart, tokens[:cut], labels


def _render_block(r: _Renderer, kind: str, t) -> None:
    if kind == "inline":
        r.inline_block(t.content, t.map[0])
    elif kind in ("code_block", "fence"):
        r.verbatim_block(t.content, t.map[0] + (kind == "fence"), doubtful=kind == "code_block")
    elif kind == "html_block":
        r.html_block(t.content, t.map[0])
    else:
        r.table_row(t.map[0])


class _LoggingBuilder(_Builder):
    """A builder that also logs where each cut was made, in order (so that the cuts one
    block made can be told from those of the block before it)."""

    def __init__(self) -> None:
        super().__init__()
        self.cut_log: list[int] = []

    def cut(self) -> None:
        super().cut()
        self.cut_log.append(self.n)


class _Mark:
    """What one block added to a builder: rendered characters n0:n1, cuts k0:k1 of the cut
    log, and the two facts about the builder's list of pieces that the rest of the
    rendering reads (does a newline add a character before the block; does the block's
    last piece end the list with an empty piece)."""

    __slots__ = ("pending", "n0", "k0", "c0", "n1", "k1", "pieces", "empty_tail")

    def __init__(self, b: _Builder) -> None:
        self.pending = _pending(b)
        self.n0, self.c0 = b.n, len(b.chars)
        self.k0 = len(b.cut_log) if isinstance(b, _LoggingBuilder) else 0

    def close(self, b: _Builder) -> None:
        self.n1, self.k1 = b.n, len(b.cut_log) if isinstance(b, _LoggingBuilder) else 0
        self.pieces = len(b.chars) > self.c0
        self.empty_tail = self.pieces and b.chars[-1] == ""


def _pending(b: _Builder) -> bool:
    """Would ``newline`` add a character now? (What a block's rendering reads of what came
    before it.)"""
    return bool(b.chars) and not b.chars[-1].endswith("\n")


class _Reading:
    """The lenient reading of a page, kept for its strict reading: rendering a block reads
    only the block (its kind, lines and content), the raw content, the reference labels
    and whether a newline would add a character before it, so a block the strict parse
    reads alike renders to the same characters, offsets and cuts, copied here instead of
    rendered again (the parses differ only around the lines a lenient rule read)."""

    def __init__(self, raw: str, lines: list[tuple[int, int]], refs: frozenset[str], page: PageText,
                 cut_log: list[int], blocks: dict[tuple, _Mark | None],
                 head: tuple[int, list, list[str]] | None = None):
        self.raw, self.lines, self.refs, self.page, self.cut_log, self.blocks = raw, lines, refs, page, cut_log, blocks
        self.head = head  # see _restart

    def replay(self, key: tuple, b: _Builder) -> bool:
        m = self.blocks.get(key)
        page = self.page
        if m is None or m.pending != _pending(b) or m.n1 > len(page.text):
            return False  # unknown, ambiguous, rendered after other text, or in the trimmed end
        if m.n1 > m.n0:
            b.chars.append(page.text[m.n0:m.n1])
            b.starts.extend(page.starts[m.n0:m.n1])
            b.ends.extend(page.ends[m.n0:m.n1])
        if m.empty_tail:
            b.chars.append("")
        shift = b.n - m.n0
        for c in self.cut_log[m.k0:m.k1]:
            b.cuts.add(c + shift)
        b.n += m.n1 - m.n0
        return True


def _strict_reading(lenient: _Reading) -> PageText:
    return render_markdown(lenient.raw, True, lenient)


class _Renderer:
    def __init__(self, raw: str, lines: list[tuple[int, int]], refs: frozenset[str], b: _Builder | None = None):
        self.raw, self.lines, self.refs = raw, lines, refs
        self.b = b if b is not None else _Builder()

    def line_end(self, i: int) -> int:
        return self.lines[min(i, len(self.lines) - 1)][1] if self.lines else 0

    # --- mapping block content back to raw lines ------------------------------------------
    def _line_map(self, text: str, i: int, out: list[int]) -> None:
        """Raw offsets of the characters of ``text``, a block's content on line i: the end of
        the line's body (block prefixes such as '> ' or list indentation are cut from the
        front, trailing whitespace may be trimmed, a tab may have become spaces)."""
        a, b = self.lines[i]
        body = self.raw[a:b]
        if body.endswith(text):
            out.extend(range(b - len(text), b))
            return
        t = body.rstrip()
        if t.endswith(text):
            out.extend(range(a + len(t) - len(text), a + len(t)))
            return
        # align from the end as far as the characters agree; the rest maps to that point
        k, j = len(text), len(t)
        while k > 0 and j > 0 and text[k - 1] == t[j - 1]:
            k, j = k - 1, j - 1
        out.extend([a + j] * k)
        out.extend(range(a + j, a + j + len(text) - k))

    def inline_block(self, content: str, first: int) -> None:
        parts = content.split("\n")
        omap: list[int] = []
        for n, part in enumerate(parts):
            if n:
                omap.append(self.lines[first + n - 1][1])  # the '\n' between two lines
            self._line_map(part, first + n, omap)
        self.b.newline(omap[0] if omap else 0)
        _render_inline(self.b, content, omap, self.refs)

    def verbatim_block(self, content: str, first: int, doubtful: bool = False) -> None:
        """A code block, shown as written. ``doubtful`` (an indented block): converters also
        indent prose that way (a definition's second paragraph) and write inline markup into
        code (``<em>`` as ``_x_``), so the characters that the block's inline reading would
        not show are cut off from their neighbours: no fragment term holds them."""
        parts = content.split("\n")
        if parts and parts[-1] == "":
            parts.pop()
        maps: list[list[int]] = []
        for n, part in enumerate(parts):
            omap: list[int] = []
            self._line_map(part, first + n, omap)
            maps.append(omap)
        shown = self._inline_reading(parts, maps, first) if doubtful else None
        for n, part in enumerate(parts):
            omap = maps[n]
            if shown is None or all(c in shown.get(o, "") or c.isspace() for c, o in zip(part, omap)):
                self.b.emit_mapped(part, omap)
            else:
                for ch, o in zip(part, omap):
                    if ch in shown.get(o, "") or ch.isspace():
                        self.b.emit(ch, o, o + 1)
                        continue
                    self.b.cut()
                    self.b.emit(ch, o, o + 1)
                    self.b.cut()
            self.b.newline(self.line_end(first + n))

    def _inline_reading(self, parts: list[str], maps: list[list[int]], first: int) -> dict[int, str]:
        """Raw offset -> the characters that the inline reading of a code block shows there
        (an escape or an entity shows one character for several raw ones)."""
        text = "\n".join(parts)
        omap: list[int] = []
        for n, line_map in enumerate(maps):
            if n:
                omap.append(self.lines[first + n - 1][1])
            omap.extend(line_map)
        scratch = _Builder()
        literal: list[int] = []
        _render_inline(scratch, text, omap, self.refs, literal)
        shown: dict[int, str] = {}
        for ch, a, b in zip("".join(scratch.chars), scratch.starts, scratch.ends):
            for o in range(a, max(b, a + 1)):
                shown[o] = shown.get(o, "") + ch
        raw = self.raw
        for o in literal:  # marks CommonMark leaves as text
            shown[o] = shown.get(o, "") + raw[o]
        # Shown whatever the reading: ``<mode>``, ``<https://…>`` (converters write such text
        # into code as is and escape it in prose) and ``__name__`` (no converter writes
        # strong emphasis with underscores; Python code is full of them).
        for m in _SHOWN_IN_CODE.finditer(text):
            for k in range(m.start(), m.end()):
                if text[k] != "\n":
                    shown[omap[k]] = shown.get(omap[k], "") + text[k]
        return shown

    def html_block(self, content: str, first: int) -> None:
        if _HIDDEN_HTML_BLOCK.match(content):
            return  # script and style: never shown
        parts = content.rstrip("\n").split("\n")
        for n, part in enumerate(parts):
            omap: list[int] = []
            self._line_map(part, first + n, omap)
            _render_html_text(self.b, part, omap)
            self.b.newline(self.line_end(first + n))

    def table_row(self, i: int) -> None:
        a, b = self.lines[i]
        body = self.raw[a:b]
        lead = _TABLE_PREFIX.match(body).end()
        row = body[lead:]
        cells: list[tuple[int, int]] = []
        k, cell_start = 0, 0
        while k < len(row):
            if row[k] == "\\" and k + 1 < len(row):
                k += 2
                continue
            if row[k] == "`":  # a pipe inside a code span still splits cells (GFM)
                pass
            if row[k] == "|":
                cells.append((cell_start, k))
                cell_start = k + 1
            k += 1
        cells.append((cell_start, len(row)))
        for s, e in cells:
            cell = row[s:e]
            if not cell.strip():
                continue
            lo = s + len(cell) - len(cell.lstrip())
            hi = s + len(cell.rstrip())
            self.b.newline(a + lead + s)
            text = row[lo:hi].replace("\\|", "|")
            omap = []
            k = lo
            while k < hi:
                if row.startswith("\\|", k):
                    omap.append(a + lead + k + 1)
                    k += 2
                else:
                    omap.append(a + lead + k)
                    k += 1
            _render_inline(self.b, text, omap, self.refs)
            self.b.newline(a + lead + e)


def _render_html_text(b: _Builder, s: str, omap: list[int]) -> None:
    """A line of an HTML block: the text between tags, entities decoded; tags are cuts."""
    i = 0
    # where the next "-->" is, searched once and reused: a comment ends at the first "-->"
    # after its "<!--" (a pattern searching from every "<!--" took 5 s on a page of 15,000
    # unclosed ones); -2: not searched yet, -1: none after the last search
    close = -2
    while i < len(s):
        if s[i] == "<":
            if s.startswith("<!--", i):
                if close == -2 or (close != -1 and close < i + 4):
                    close = s.find("-->", i + 4)
                if close >= 0:
                    b.cut()
                    i = close + 3
                    continue
            m = _LOOSE_TAG.match(s, i)
            if m:
                b.cut()
                i = m.end()
                continue
        if s[i] == "&":
            m = _ENTITY.match(s, i)
            if m:
                for c in html.unescape(m.group(0)):
                    b.emit(c, omap[i], omap[m.end() - 1] + 1)
                i = m.end()
                continue
        b.emit(s[i], omap[i], omap[i] + 1)
        i += 1


# --- inline content -------------------------------------------------------------------------
def _flanking(before: str, after: str) -> tuple[bool, bool]:
    """Whether a delimiter run between these characters is left- and right-flanking."""

    def punct(c: str) -> bool:
        return unicodedata.category(c)[0] in "PS"

    left = not after.isspace() and (not punct(after) or before.isspace() or punct(before))
    right = not before.isspace() and (not punct(before) or after.isspace() or punct(after))
    return left, right


MAX_OPENERS = 128  # how far back a closer looks for its opener (bounds hostile input)


def _pair_delimiters(items: list, lo: int) -> None:
    """CommonMark's "process emphasis" over the delimiter runs in items[lo:]: each run's
    count (it[2]) goes down by the characters paired as emphasis; a run with characters
    left over was (at least partly) shown as text."""
    openers: list[list] = []
    for it in items[lo:]:
        if it[0] != "delim":
            continue
        ch, can_open, can_close = it[1], it[4], it[5]
        while can_close and it[2]:
            for k in range(len(openers) - 1, max(-1, len(openers) - 1 - MAX_OPENERS), -1):
                op = openers[k]
                if op[1] != ch or not op[2]:
                    continue
                # the rule of 3: a run that can both open and close pairs only when the
                # lengths' sum is not a multiple of 3, unless both are
                if (op[5] or can_open) and (op[3] + it[3]) % 3 == 0 and (op[3] % 3 or it[3] % 3):
                    continue
                use = 2 if op[2] >= 2 and it[2] >= 2 else 1
                if ch == "~":
                    use = 2
                op[2] -= use
                it[2] -= use
                del openers[k + 1:]  # delimiters between them stay text
                if not op[2]:
                    del openers[k]
                break
            else:
                break
        if can_open and it[2]:
            openers.append(it)


def _render_inline(b: _Builder, s: str, omap: list[int], refs: frozenset[str],
                   literal: list[int] | None = None) -> None:
    """Inline markdown ``s`` (lines joined by '\\n'; omap[i] is the raw offset of s[i]).
    ``literal`` collects the raw offsets of the marks left unmatched (emphasis runs, an
    unclosed backtick run), which a CommonMark renderer shows as text."""
    items: list[list] = []
    _Inline(s, omap, refs, items).run(0, len(s))
    _pair_delimiters(items, 0)
    for it in items:
        kind = it[0]
        if kind == "text":
            b.emit(it[1], it[2], it[3])
        elif kind == "run":
            _, i, j = it
            b.emit_mapped(s[i:j], omap[i:j])
        elif kind == "nl":
            b.newline(it[1])
        elif kind == "delim" and it[1] == "*" and it[2] == it[3] and _inside_word(s, it[6], it[6] + it[3]):
            # "n*b" left unmatched: a CommonMark page shows it (converters do not escape a
            # product); cut off from its neighbours, as a page may still not show it
            i, j = it[6], it[6] + it[3]
            b.cut()
            b.emit_mapped(s[i:j], omap[i:j])
            b.cut()
        elif kind == "cut" or (kind == "delim" and it[2]):
            b.cut()  # unmatched emphasis marks: a browser page may show them or not
            if literal is not None and len(it) > 3:
                i, j = (it[6], it[6] + it[3]) if kind == "delim" else (it[1], it[2])
                literal.extend(omap[i:j])
        # paired emphasis marks: nothing rendered


def _inside_word(s: str, i: int, j: int) -> bool:
    return 0 < i and j < len(s) and s[i - 1].isalnum() and s[j].isalnum()


class _Inline:
    """One pass over inline content, producing items: ("run", i, j) text as written,
    ("text", chars, raw_start, raw_end) decoded text, ("nl", raw_pos) a line break,
    ("cut",) dropped markup of uncertain rendering, ("delim", char, count, length,
    can_open, can_close) an emphasis delimiter run."""

    MAX_LINK_DEPTH = 16  # deeper brackets are text (keeps hostile input linear)

    def __init__(self, s: str, omap: list[int], refs: frozenset[str], items: list):
        self.s, self.omap, self.refs, self.items = s, omap, refs, items
        self.depth = 0
        # backtick runs by length (where each starts), found once
        self.ticks: dict[int, list[int]] = {}
        for m in _TICKS.finditer(s):
            self.ticks.setdefault(len(m.group(0)), []).append(m.start())
        self.brackets = self._match_brackets()
        self.link_ends: dict[int, tuple[int, int] | None] = {}

    def closing_ticks(self, j: int, run: int, hi: int) -> int:
        """Start of the next backtick run of exactly ``run`` characters at or after j, or -1."""
        starts = self.ticks.get(run, ())
        k = bisect_left(starts, j)
        return starts[k] if k < len(starts) and starts[k] < hi else -1

    def _match_brackets(self) -> dict[int, int]:
        """'[' index -> its matching ']' (escapes, code spans, autolinks and tags skipped)."""
        s, n = self.s, len(self.s)
        out: dict[int, int] = {}
        stack: list[int] = []
        j = 0
        while j < n:
            m = _BRACKET_STOP.search(s, j)
            if not m:
                break
            j = m.start()
            ch = s[j]
            if ch == "\\":
                j += 2
                continue
            if ch == "`":
                k = j
                while k < n and s[k] == "`":
                    k += 1
                close = self.closing_ticks(k, k - j, n)
                j = close + (k - j) if close != -1 else k
                continue
            if ch == "<":
                t = _AUTOLINK.match(s, j) or _HTML_TAG.match(s, j)
                if t:
                    j = t.end()
                    continue
            elif ch == "[":
                stack.append(j)
            elif ch == "]" and stack:
                out[stack.pop()] = j
            j += 1
        return out

    def _raw(self, i: int, j: int) -> tuple[int, int]:
        return self.omap[i], self.omap[j - 1] + 1

    def run(self, lo: int, hi: int) -> None:
        s, items = self.s, self.items
        i = lo
        while i < hi:
            m = _PLAIN.match(s, i, hi)
            if m:
                items.append(["run", i, m.end()])
                i = m.end()
                continue
            ch = s[i]
            if ch == "\n":
                i = self._line_break(i, hi, hard=False)
                continue
            if ch == "\\":
                if i + 1 < hi and s[i + 1] == "\n":
                    i = self._line_break(i + 1, hi, hard=True)
                    continue
                if i + 1 < hi and s[i + 1] in _ASCII_PUNCT:
                    items.append(["text", s[i + 1], *self._raw(i, i + 2)])
                    i += 2
                    continue
                items.append(["run", i, i + 1])
                i += 1
                continue
            if ch == "`":
                i = self._code_span(i, hi)
                continue
            if ch == "!" and i + 1 < hi and s[i + 1] == "[":
                link = self._link_end(i + 1, hi)
                if link:
                    items.append(["cut"])  # an image: its alt text is not page text
                    i = link[1]
                    continue
                items.append(["run", i, i + 1])
                i += 1
                continue
            if ch == "[":
                link = self._link_end(i, hi) if self.depth < self.MAX_LINK_DEPTH else None
                if link and not self._holds_link(i + 1, link[0]):  # links do not nest
                    scope = len(items)
                    self.depth += 1
                    self.run(i + 1, link[0])
                    self.depth -= 1
                    _pair_delimiters(items, scope)  # emphasis does not cross a link's edge
                    for it in items[scope:]:
                        if it[0] == "delim" and it[2]:
                            it[:] = ["cut"]
                    i = link[1]
                    continue
                items.append(["run", i, i + 1])
                i += 1
                continue
            if ch == "<":
                m = _AUTOLINK.match(s, i, hi) or _EMAIL.match(s, i, hi)
                if m:
                    items.append(["run", m.start(1), m.end(1)])
                    i = m.end()
                    continue
                m = _HTML_TAG.match(s, i, hi)
                if m:
                    items.append(["cut"])
                    i = m.end()
                    continue
            if ch == "&":
                m = _ENTITY.match(s, i, hi)
                if m:
                    decoded = html.unescape(m.group(0))
                    if decoded != m.group(0):
                        items.append(["text", decoded, *self._raw(i, m.end())])
                        i = m.end()
                        continue
            if ch in "*_~":
                i = self._delims(i, hi)
                continue
            items.append(["run", i, i + 1])
            i += 1

    def _line_break(self, i: int, hi: int, hard: bool) -> int:
        """s[i] is a line break; returns where the next line's text starts. Spaces before
        it are not shown (two or more make it a hard break)."""
        s, items = self.s, self.items
        if items and items[-1][0] == "run" and items[-1][2] == i and s[i - 1] == " ":
            a = items[-1][1]
            k = i
            while k > a and s[k - 1] == " ":
                k -= 1
            hard = hard or i - k >= 2
            if k > a:
                items[-1][2] = k
            else:
                items.pop()
        j = i + 1
        while j < hi and s[j] in " \t":
            j += 1
        # "on-⏎disk": a converter wrapped a hyphenated word; the page shows "on-disk"
        if (not hard and i >= 2 and s[i - 1] == "-" and s[i - 2].isalpha() and j < hi
                and s[j].isalpha() and items and items[-1][0] == "run" and items[-1][2] == i):
            items.append(["cut"])
            return j
        items.append(["nl", self.omap[i]])
        return j

    def _code_span(self, i: int, hi: int) -> int:
        s = self.s
        j = i
        while j < hi and s[j] == "`":
            j += 1
        run = j - i
        close = self.closing_ticks(j, run, hi)  # the next run of exactly the same length
        if close == -1:
            self.items.append(["cut", i, j])  # no closing run: literal backticks, or not shown
            return j
        cs, ce = j, close
        code = s[cs:ce].replace("\n", " ")
        if len(code) >= 2 and code[0] == " " and code[-1] == " " and code.strip(" "):
            cs, ce = cs + 1, ce - 1
        for k in range(cs, ce):
            c = s[k]
            self.items.append(["text", " " if c == "\n" else c, self.omap[k], self.omap[k] + 1])
        return close + run

    def _delims(self, i: int, hi: int) -> int:
        s, ch = self.s, self.s[i]
        j = i
        while j < hi and s[j] == ch:
            j += 1
        run = s[i:j]
        before = s[i - 1] if i > 0 else " "
        after = s[j] if j < hi else " "
        left, right = _flanking(before, after)
        if ch == "~" and len(run) != 2:
            left = right = False
        if ch == "_" and is_word_char(before) and is_word_char(after):
            left = right = False  # intraword underscore is literal
        if left or right:
            can_open = left and (ch != "_" or not right or unicodedata.category(before)[0] == "P")
            can_close = right and (ch != "_" or not left or unicodedata.category(after)[0] == "P")
            self.items.append(["delim", ch, j - i, j - i, can_open, can_close, i])
        else:
            self.items.append(["run", i, j])
        return j

    # --- links ------------------------------------------------------------------------------
    def _link_end(self, i: int, hi: int) -> tuple[int, int] | None:
        """For '[' at i: (index of the closing ']', end of the whole link) or None when the
        brackets do not form a link (then they are literal text)."""
        if i not in self.link_ends:
            self.link_ends[i] = self._find_link_end(i)
        link = self.link_ends[i]
        return link if link is not None and link[1] <= hi else None

    def _find_link_end(self, i: int) -> tuple[int, int] | None:
        s, hi = self.s, len(self.s)
        j = self.brackets.get(i)
        if j is None:
            return None
        close = j
        text = s[i + 1 : close]
        if close + 1 < hi and s[close + 1] == "(":
            end = self._destination_end(close + 2, hi)
            if end is not None:
                return close, end
        if close + 1 < hi and s[close + 1] == "[":
            k = s.find("]", close + 2, min(hi, close + 1002))  # a label has at most 999 characters
            if k != -1 and "[" not in s[close + 2 : k]:
                label = s[close + 2 : k] or text
                if self._defined(label):
                    return close, k + 1
        if self._defined(text):
            return close, close + 1
        return None

    def _holds_link(self, lo: int, hi: int) -> bool:
        """Does s[lo:hi] (a link's text) contain a link? Then the outer brackets are text."""
        s = self.s
        j = s.find("[", lo, hi)
        while j != -1:
            if j in self.brackets and (j == lo or s[j - 1] not in "!\\") and self._link_end(j, hi):
                return True
            j = s.find("[", j + 1, hi)
        return False

    def _defined(self, label: str) -> bool:
        if not self.refs or not label.strip() or len(label) > 999:
            return False
        return normalizeReference(label) in self.refs

    def _destination_end(self, k: int, hi: int) -> int | None:
        """After '](' at k: skip the destination and an optional title; index after ')'."""
        s = self.s
        k = self._skip_ws(k, hi)
        if k < hi and s[k] == "<":
            close = k + 1
            while close < hi and s[close] not in "<>\n":
                close += 2 if s[close] == "\\" else 1
            if close >= hi or s[close] != ">":
                return None
            k = close + 1
        else:
            depth = 0
            # (as markdown-it: at most 32 nested parentheses; and a destination of at most
            # 8192 characters, which keeps hostile input linear)
            limit = min(hi, k + 8192)
            while k < limit and not (s[k].isspace() or s[k] in "\x00\x01\x02\x03\x04\x05\x06\x07\x08"):
                if s[k] == "\\":
                    k += 2
                    continue
                if s[k] == "(":
                    if depth == 32:
                        return None
                    depth += 1
                elif s[k] == ")":
                    if depth == 0:
                        break
                    depth -= 1
                k += 1
                # a URL wrapped after a hyphen by the converter: the destination goes on
                if k + 1 < hi and s[k] == "\n" and s[k - 1] == "-" and not s[k + 1].isspace():
                    k += 1
        k = self._skip_ws(k, hi)
        if k < hi and s[k] in "\"'(":
            closer = ")" if s[k] == "(" else s[k]
            k += 1
            limit = min(hi, k + 4096)  # titles are short; this keeps hostile input linear
            while k < limit and s[k] != closer:
                k += 2 if s[k] == "\\" else 1
            if k >= limit:
                return None
            k = self._skip_ws(k + 1, hi)
        return k + 1 if k < hi and s[k] == ")" else None

    def _skip_ws(self, k: int, hi: int) -> int:
        """Spaces and tabs with at most one line break among them."""
        s, newline = self.s, False
        while k < hi and s[k] in " \t\n":
            if s[k] == "\n":
                if newline:
                    break
                newline = True
            k += 1
        return k

"""Page text as a browser shows it, with maps back to the source content.

A source's ``content`` is either markdown-like text (what search APIs such as Tavily
return: ``**bold**``, ``[text](url)``, ``\\_``) or plain text (what our own HTML
extractor writes: one block per line). Citations are checked and text fragments built
against the *rendered* text, because a fragment may only contain text the browser shows.

Three views of one page:

* ``raw``      - the content as stored; offsets reported to users refer to it.
* ``text``     - the rendered text; ``"\\n"`` separates blocks. Every character maps back
                 to a raw span (``starts``/``ends``).
* ``loose``    - ``text`` folded the way a browser's find-in-page compares (case, accents,
                 quote and dash variants) with all whitespace removed. It over-approximates
                 what a browser can match, so "first occurrence in ``loose``" is a safe
                 uniqueness test.

A fragment term may not straddle a *cut*: a line break, a whitespace run other than one
plain space (browsers keep such runs inside ``<pre>`` but collapse them elsewhere, and we
do not always know which), or a place where markup of uncertain rendering was dropped.
"""

from __future__ import annotations

import html
import re
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import accumulate

# Characters a browser's find ignores or that never render as text.
IGNORABLE = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff")
_QUOTE_DASH = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
        "\u00ab": '"', "\u00bb": '"',
        "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-",
        "\u2015": "-", "\u2212": "-", "\ufe58": "-", "\ufe63": "-", "\uff0d": "-",
    }
)

# Scripts written without spaces: word breaks there come from a dictionary we do not have.
_DICTIONARY_RANGES = (
    (0x0E00, 0x0EFF),  # Thai, Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
    (0x2E80, 0x2FDF),  # CJK radicals
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x312F),  # Bopomofo
    (0x31A0, 0x31FF),
    (0x3400, 0x4DBF),  # CJK ext A
    (0x4E00, 0x9FFF),  # CJK unified
    (0xF900, 0xFAFF),  # CJK compatibility
    (0xFF66, 0xFF9F),  # half-width katakana
    (0x20000, 0x3FFFF),  # CJK ext B+
)


def is_dictionary_char(ch: str) -> bool:
    cp = ord(ch)
    if cp < 0x0E00:
        return False
    return any(lo <= cp <= hi for lo, hi in _DICTIONARY_RANGES)


def is_word_char(ch: str) -> bool:
    return ch.isalnum() or unicodedata.category(ch)[0] == "M"


@lru_cache(maxsize=65536)
def fold_char(ch: str) -> str:
    """How a browser's find compares a character: case- and accent-blind, variants merged."""
    if ch.isspace() or ch in IGNORABLE:
        return ""
    out = []
    for part in unicodedata.normalize("NFKD", ch):
        if unicodedata.combining(part) or part in IGNORABLE:
            continue
        out.append(part)
    folded = "".join(out).casefold().translate(_QUOTE_DASH)
    # Katakana and hiragana compare equal at the primary collation level.
    return "".join(chr(ord(c) - 0x60) if "\u30a1" <= c <= "\u30f6" else c for c in folded)


def fold(s: str) -> str:
    return "".join(fold_char(c) for c in s)


_WS_EXTRA = re.compile(r"\A\s+|\s\s+")
# Whitespace a fragment term may not contain: a run of two or more, one character other
# than a plain space, or a space at either end of the text. (A single plain space between
# two other characters is the only whitespace a term may hold.)
_BREAK = re.compile(r"\s{2,}|[^\S ]|\A | \Z")


class View:
    """A per-character transform of a text, with maps between the two.

    ``offsets[i]`` is where text[i] starts in the view (len(text)+1 entries), so a view
    position maps back with a binary search. ``fold`` is called once per distinct
    character and the text is built with ``str.translate``. Most characters fold to
    exactly one character; when nearly all do, ``offsets`` is a ``_Shifts`` that stores
    only the exceptions, otherwise a dense array."""

    __slots__ = ("text", "offsets")

    def __init__(self, source: str, fold, collapse: bool):
        n = len(source)
        table = {ord(c): fold(c) for c in set(source)}
        odd = {k: len(v) for k, v in table.items() if len(v) != 1}
        dropped = []  # collapse: one space per whitespace run, none at the start
        if collapse:
            for m in _WS_EXTRA.finditer(source):
                a, b = m.span()
                dropped.append((a + (a > 0), b))
        if dropped:
            pieces, prev = [], 0
            for a, b in dropped:
                pieces.append(source[prev:a])
                prev = b
            self.text = ("".join(pieces) + source[prev:]).translate(table)
        else:
            self.text = source.translate(table)
        if sum(source.count(chr(k)) for k in odd) + sum(b - a for a, b in dropped) <= n // 16:
            odd_at = [] if not odd else [m.start() for m in re.finditer(
                "[" + "".join(re.escape(chr(k)) for k in odd) + "]", source)]
            lengths = {i: odd[ord(source[i])] for i in odd_at}
            for a, b in dropped:
                lengths.update(dict.fromkeys(range(a, b), 0))
            at = sorted(lengths)
            self.offsets = _Shifts(at, [lengths[i] for i in at], n)
            return
        lengths = bytearray(source.translate({k: chr(len(v)) for k, v in table.items()}), "latin-1")
        for a, b in dropped:
            lengths[a:b] = bytes(b - a)
        self.offsets = array("i", accumulate(lengths, initial=0))

    def to_source(self, pos: int) -> int:
        """Index in the source text of the character that produced view[pos]."""
        if isinstance(self.offsets, _Shifts):
            return self.offsets.to_source(pos)
        return bisect_right(self.offsets, pos) - 1

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        return self.to_source(start), self.to_source(end - 1) + 1


class _Shifts:
    """The offsets of a view in which only a few characters do not fold to exactly one
    character: ``at`` holds those source positions, ``shift[k]`` the total change in
    length from the first k of them, ``view_at[k]`` where at[k] starts in the view."""

    __slots__ = ("at", "n", "shift", "view_at")

    def __init__(self, at: list[int], lengths: list[int], n: int):
        self.at, self.n = at, n
        self.shift = list(accumulate((x - 1 for x in lengths), initial=0))
        self.view_at = [i + d for i, d in zip(at, self.shift)]

    def __len__(self) -> int:
        return self.n + 1

    def __getitem__(self, i: int) -> int:
        if not 0 <= i <= self.n:
            raise IndexError(i)
        return i + self.shift[bisect_left(self.at, i)]

    def to_source(self, pos: int) -> int:
        """The last source index whose view offset is <= pos (as bisect_right - 1 on the
        dense offsets)."""
        k = bisect_right(self.view_at, pos)
        hi = self.at[k] - 1 if k < len(self.at) else self.n
        i = min(hi, pos - self.shift[k])
        return max(i, self.at[k - 1]) if k else i


@dataclass
class PageText:
    raw: str
    text: str
    starts: array  # raw start offset of each rendered char
    ends: array  # raw end offset of each rendered char
    cuts: frozenset[int] = field(default_factory=frozenset)  # uncertain-markup drops

    # --- spans ------------------------------------------------------------------------
    def raw_span(self, start: int, end: int) -> tuple[int, int]:
        """Raw-content offsets of rendered text[start:end]."""
        if start >= end:
            pos = self.starts[start] if start < len(self.text) else len(self.raw)
            return pos, pos
        return self.starts[start], self.ends[end - 1]

    @cached_property
    def _breaks(self) -> array:
        """Positions of whitespace a term may not contain: anything but one plain space
        between two non-space characters (line breaks, tabs, runs of spaces)."""
        out = array("i")
        for m in _BREAK.finditer(self.text):
            out.extend(range(*m.span()))
        return out

    @cached_property
    def _cut_list(self) -> array:
        return array("i", sorted(self.cuts))

    def in_one_segment(self, start: int, end: int) -> bool:
        """May a fragment term cover text[start:end]? No line break, odd whitespace or
        uncertain markup inside it."""
        if start >= end:
            return False
        if end - start > 1:
            k = bisect_left(self._breaks, start)
            if k < len(self._breaks) and self._breaks[k] < end:
                return False
        k = bisect_right(self._cut_list, start)
        return not (k < len(self._cut_list) and self._cut_list[k] < end)

    def gap_is_whitespace(self, start: int, end: int) -> bool:
        """True if text[start:end] holds only whitespace and no uncertain markup."""
        if any(not self.text[i].isspace() for i in range(start, end)):
            return False
        return not any(start <= c <= end for c in self.cuts)

    # --- folded view ------------------------------------------------------------------
    @cached_property
    def loose_view(self) -> View:
        return View(self.text, fold_char, collapse=False)

    @property
    def loose(self) -> str:
        return self.loose_view.text

    @property
    def r2l(self) -> array:
        """Rendered index -> loose index (len(text)+1 entries)."""
        return self.loose_view.offsets

    def l2r(self, pos: int) -> int:
        return self.loose_view.to_source(pos)


class _Builder:
    """Accumulates rendered characters with the raw span each came from."""

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.starts = array("i")
        self.ends = array("i")
        self.cuts: set[int] = set()
        self.n = 0  # rendered length so far

    def emit(self, s: str, raw_start: int, raw_end: int) -> None:
        for ch in s:
            if ch in IGNORABLE:
                self.cut()
                continue
            if ch == "\u00a0":
                ch = " "
            self.chars.append(ch)
            self.starts.append(raw_start)
            self.ends.append(raw_end)
            self.n += 1

    def emit_verbatim(self, s: str, offset: int) -> None:
        if not s:
            return
        if _PLAIN_SPECIAL.search(s):
            for i, ch in enumerate(s):
                self.emit(ch, offset + i, offset + i + 1)
            return
        self.chars.append(s)  # the common case in bulk
        self.starts.extend(range(offset, offset + len(s)))
        self.ends.extend(range(offset + 1, offset + len(s) + 1))
        self.n += len(s)

    def cut(self) -> None:
        self.cuts.add(self.n)

    def newline(self, raw_pos: int) -> None:
        if self.chars and not self.chars[-1].endswith("\n"):
            self.chars.append("\n")
            self.starts.append(raw_pos)
            self.ends.append(raw_pos)
            self.n += 1

    def build(self, raw: str) -> PageText:
        text = "".join(self.chars)
        trimmed = text.rstrip("\n")
        drop = len(text) - len(trimmed)
        if drop:
            del self.starts[len(trimmed):]
            del self.ends[len(trimmed):]
        return PageText(raw, trimmed, self.starts, self.ends, frozenset(c for c in self.cuts if c <= len(trimmed)))


def _lines(raw: str):
    pos = 0
    for line in raw.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        yield pos, body
        pos += len(line)


_PLAIN_SPECIAL = re.compile("[\r\u00a0" + "".join(sorted(IGNORABLE)) + "]")


def render_plain(raw: str) -> PageText:
    """Plain text: shown as is; each line is a block."""
    if not _PLAIN_SPECIAL.search(raw):
        text = raw.rstrip("\n")
        return PageText(raw, text, array("i", range(len(text))), array("i", range(1, len(text) + 1)))
    b = _Builder()
    for pos, line in _lines(raw):
        b.emit_verbatim(line, pos)
        b.newline(pos + len(line))
    return b.build(raw)


# --- markdown-like content ------------------------------------------------------------
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HR = re.compile(r"^ {0,3}([-*_])( *\1){2,} *$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+) *$")
_TABLE_SEP = re.compile(r"^ *\|? *:?-{1,}:? *(\| *:?-{1,}:? *)*\|? *$")
_REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]: *\S+.*$")
_BLOCK_PREFIX = re.compile(r"^( {0,3}> ?)+| {0,3}(?:[-*+]|\d{1,9}[.)])(?: +|$)")
_HEADING = re.compile(r"^ {0,3}(#{1,6})(?: +|$)")
_HEADING_CLOSE = re.compile(r" +#+ *$")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|<!--.*?-->")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^<>\s]+)>")
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def render_markdown(raw: str) -> PageText:
    """Markdown-like text: block markup dropped, inline markup reduced to its text."""
    b = _Builder()
    fence: str | None = None
    for pos, line in _lines(raw):
        if fence is not None:
            m = _FENCE.match(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line.strip(
            ).strip(fence[0]):
                fence = None
                b.newline(pos)
                continue
            b.emit_verbatim(line, pos)
            b.newline(pos + len(line))
            continue
        m = _FENCE.match(line)
        if m:
            fence = m.group(1)
            b.newline(pos)
            continue
        if not line.strip() or _HR.match(line) or _SETEXT.match(line) or _REF_DEF.match(line):
            b.newline(pos)
            continue
        if "|" in line and _TABLE_SEP.match(line) and "-" in line:
            b.newline(pos)
            continue
        start = 0
        m = _BLOCK_PREFIX.match(line)
        while m and m.end() > start:
            start = m.end()
            m = _BLOCK_PREFIX.match(line, start) if start < len(line) else None
            if m and m.end() == start:
                break
        end = len(line)
        h = _HEADING.match(line, start)
        if h:
            start = h.end()
            c = _HEADING_CLOSE.search(line, start)
            if c:
                end = c.start()
        body = line[start:end]
        if body.lstrip().startswith("|") or (body.count("|") >= 2 and body.rstrip().endswith("|")):
            _render_table_row(b, body, pos + start)
        else:
            _render_inline(b, body.strip(), pos + start + (len(body) - len(body.lstrip())))
        b.newline(pos + len(line))
    return b.build(raw)


def _render_table_row(b: _Builder, row: str, offset: int) -> None:
    cells: list[tuple[int, int]] = []
    i, cell_start = 0, 0
    while i < len(row):
        if row[i] == "\\" and i + 1 < len(row):
            i += 2
            continue
        if row[i] == "|":
            cells.append((cell_start, i))
            cell_start = i + 1
        i += 1
    cells.append((cell_start, len(row)))
    for s, e in cells:
        cell = row[s:e]
        if not cell.strip():
            continue
        lead = len(cell) - len(cell.lstrip())
        b.newline(offset + s)
        _render_inline(b, cell.strip(), offset + s + lead)
        b.newline(offset + e)


def _find_link_end(s: str, i: int) -> tuple[int, int] | None:
    """For '[' at i: (index of the closing ']', end of the whole link) or None."""
    if s.find("]", i) == -1:
        return None
    depth, j = 0, i
    while j < len(s):
        ch = s[j]
        if ch == "\\":
            j += 2
            continue
        if ch == "`":
            close = s.find("`", j + 1)
            j = close + 1 if close > 0 else j + 1
            continue
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                break
        j += 1
    else:
        return None
    close = j
    if close + 1 < len(s) and s[close + 1] == "(":
        end = _link_destination_end(s, close + 2)
        return (close, end) if end is not None else None
    if close + 1 < len(s) and s[close + 1] == "[":
        k = s.find("]", close + 2)
        if k > 0:
            return close, k + 1
    return None


def _link_destination_end(s: str, k: int) -> int | None:
    """After '](' at k: skip the destination and an optional title; index after ')'."""
    n = len(s)
    while k < n and s[k] in " \t":
        k += 1
    if k < n and s[k] == "<":
        close = s.find(">", k)
        if close == -1:
            return None
        k = close + 1
    else:
        depth = 0
        while k < n and not s[k].isspace():
            if s[k] == "\\":
                k += 2
                continue
            if s[k] == "(":
                depth += 1
            elif s[k] == ")":
                if depth == 0:
                    break
                depth -= 1
            k += 1
    while k < n and s[k] in " \t":
        k += 1
    if k < n and s[k] in "\"'(":
        closer = ")" if s[k] == "(" else s[k]
        k += 1
        while k < n and s[k] != closer:
            k += 2 if s[k] == "\\" else 1
        if k >= n:
            return None
        k += 1
        while k < n and s[k] in " \t":
            k += 1
    return k + 1 if k < n and s[k] == ")" else None


def _flanking(s: str, start: int, end: int, hi: int | None = None) -> tuple[bool, bool]:
    before = s[start - 1] if start > 0 else " "
    after = s[end] if end < (len(s) if hi is None else hi) else " "

    def punct(c: str) -> bool:
        return unicodedata.category(c)[0] in "PS"

    left = not after.isspace() and (not punct(after) or before.isspace() or punct(before))
    right = not before.isspace() and (not punct(before) or after.isspace() or punct(after))
    return left, right


def _render_inline(b: _Builder, s: str, offset: int) -> None:
    """Inline markdown: escapes, code spans, links, images, entities, emphasis runs."""
    # Pass 1: items (kind, text, raw_start, raw_end).
    items: list[list] = []
    # Links and code spans are found by scanning ahead; on a degenerate line (thousands of
    # unmatched "[", "`" or "<!--") that costs a scan per opener. Past this budget, the
    # rest of the line's openers are read as text, so rendering stays linear.
    _inline_items(s, offset, 0, len(s), items, [8 * len(s) + 4096])
    # Pass 2: pair emphasis delimiter runs; paired runs are markup, the rest uncertain.
    openers: list[int] = []
    for idx, it in enumerate(items):
        if it[0] != "delim":
            continue
        run, can_open, can_close = it[1], it[4], it[5]
        matched = False
        if can_close:
            for k in range(len(openers) - 1, -1, -1):
                op = items[openers[k]]
                if op[1][0] == run[0]:
                    op[0] = "markup"
                    it[0] = "markup"
                    del openers[k:]
                    matched = True
                    break
        if not matched and can_open:
            openers.append(idx)
    for it in items:
        kind = it[0]
        if kind == "text":
            b.emit(it[1], it[2], it[3])
        elif kind == "delim":  # unmatched: a browser may or may not show it
            b.cut()
        elif kind == "cut":
            b.cut()
        # "markup": nothing rendered


def _inline_items(s: str, offset: int, lo: int, hi: int, items: list, budget: list[int]) -> None:
    i = lo
    sub = s if hi == len(s) else s[:hi]  # what link scans see (a copy only inside link text)
    last_comment_end = s.rfind("-->", lo, hi)
    while i < hi:
        ch = s[i]
        if ch == "\\" and i + 1 < hi and s[i + 1] in _ASCII_PUNCT:
            items.append(["text", s[i + 1], offset + i, offset + i + 2])
            i += 2
            continue
        if ch == "`":
            j = i
            while j < hi and s[j] == "`":
                j += 1
            run = j - i
            close = -1
            if budget[0] > 0:
                close = s.find("`" * run, i + run, hi)
                while close != -1 and close + run < hi and s[close + run] == "`":
                    close = s.find("`" * run, close + run + 1, hi)
                budget[0] -= (close if close != -1 else hi) - i
            if close == -1:
                items.append(["cut", "", offset + i, offset + i + run])
                i += run
                continue
            cs, ce = i + run, close
            code = s[cs:ce]
            if len(code) > 2 and code[0] == " " and code[-1] == " " and code.strip():
                cs, ce = cs + 1, ce - 1
            for k in range(cs, ce):
                c = s[k]
                items.append(["text", " " if c == "\n" else c, offset + k, offset + k + 1])
            i = close + run
            continue
        if ch == "!" and i + 1 < hi and s[i + 1] == "[" and budget[0] > 0:
            link = _find_link_end(sub, i + 1)
            budget[0] -= (link[1] if link else hi) - i
            if link:
                items.append(["cut", "", offset + i, offset + link[1]])
                i = link[1]
                continue
        if ch == "[" and budget[0] > 0:
            link = _find_link_end(sub, i)
            budget[0] -= (link[1] if link else hi) - i
            if link:
                close, end = link
                _inline_items(s, offset, i + 1, close, items, budget)
                i = end
                continue
        if ch == "<":
            m = _AUTOLINK.match(s, i, hi)
            if m:
                url = m.group(1)
                for k, c in enumerate(url):
                    items.append(["text", c, offset + i + 1 + k, offset + i + 2 + k])
                i = m.end()
                continue
            m = _HTML_TAG.match(s, i, hi) if not s.startswith("<!--", i) or i < last_comment_end else None
            if m:
                items.append(["cut", "", offset + i, offset + m.end()])
                i = m.end()
                continue
        if ch == "&":
            m = _ENTITY.match(s, i, hi)
            if m:
                decoded = html.unescape(m.group(0))
                if decoded != m.group(0):
                    for c in decoded:
                        items.append(["text", c, offset + i, offset + m.end()])
                    i = m.end()
                    continue
        if ch in "*_~":
            j = i
            while j < hi and s[j] == ch:
                j += 1
            run = s[i:j]
            left, right = _flanking(s, i, j, hi)
            before = s[i - 1] if i > 0 else " "
            after = s[j] if j < hi else " "
            if ch == "~" and len(run) != 2:
                left = right = False
            if ch == "_" and is_word_char(before) and is_word_char(after):
                left = right = False  # intraword underscore is literal
            if left or right:
                can_open = left and (ch != "_" or not right or unicodedata.category(before)[0] == "P")
                can_close = right and (ch != "_" or not left or unicodedata.category(after)[0] == "P")
                items.append(["delim", run, offset + i, offset + j, can_open, can_close])
            else:
                for k in range(i, j):
                    items.append(["text", ch, offset + k, offset + k + 1])
            i = j
            continue
        items.append(["text", ch, offset + i, offset + i + 1])
        i += 1


_MD_SIGNALS = re.compile(
    r"\*\*\S|\S\*\*|\]\([^)\s]+\)|\\[_*`\[\]#]|^ {0,3}#{1,6} \S|^ {0,3}```|`[^`\n]+`|^ *[-*+] \S|^\|.*\|\s*$",
    re.M,
)


def detect_format(content: str) -> str:
    """'markdown' when the content carries markdown syntax, else 'text'."""
    return "markdown" if _MD_SIGNALS.search(content[:200_000]) else "text"


def render(content: str, fmt: str | None = None) -> PageText:
    fmt = fmt or detect_format(content)
    if fmt == "markdown":
        return render_markdown(content)
    if fmt == "text":
        return render_plain(content)
    raise ValueError(f"unknown content format {fmt!r} (use 'markdown' or 'text')")

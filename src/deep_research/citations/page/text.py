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

import re
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import accumulate

from ...terminal import ACTING_CHARS

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


@lru_cache(maxsize=65536)
def skeleton_char(ch: str) -> str:
    return "".join(c for c in fold_char(ch) if c.isalnum())


def fold(s: str) -> str:
    return "".join(fold_char(c) for c in s)


# a control a terminal acts on counts as a space: report.md writes it so
# (``terminal.blank_controls``), and the quote it wrote must be found again
_WS = f"[\\s{ACTING_CHARS}]"
# What a collapsing view drops: the whitespace at the start and each run of two or more.
# Two patterns that each start with a character class, scanned at C speed (one alternation
# led by ``\A`` is tried at every position, about three times slower).
_WS_LEAD = re.compile(f"{_WS}+")
_WS_RUN = re.compile(f"{_WS}{_WS}+")


def _extra_whitespace(source: str) -> list[tuple[int, int]]:
    """The spans of the leading whitespace run and of every later run of two or more
    whitespace characters, in order."""
    lead = _WS_LEAD.match(source)
    out = [lead.span()] if lead else []
    out += [m.span() for m in _WS_RUN.finditer(source, lead.end() if lead else 0)]
    return out


# Whitespace a fragment term may not contain: a run of two or more, one character other
# than a plain space, or a space at either end of the text. (A single plain space between
# two other characters is the only whitespace a term may hold.)
# Found as every whitespace character but a lone plain space: a pattern that starts with a
# character class (scanned at C speed; an alternation of these four cases is tried at
# every position), then a lone space at either end of the text.
_BREAK = re.compile(r"\s(?:\s+|(?<=[^\S ]))")


def _kept(source: str, dropped: list[tuple[int, int]]) -> str:
    """``source`` without the ``dropped`` spans (in order, not overlapping)."""
    if not dropped:
        return source
    pieces: list[str] = []
    prev = 0
    for a, b in dropped:
        pieces.append(source[prev:a])
        prev = b
    return "".join(pieces) + source[prev:]


def translate(text: str, table: dict[int, str]) -> str:
    """``text.translate(table)``, where ``table`` maps characters to strings (at least every
    character of ``text`` that changes), faster on text that is mostly ASCII but not all of it
    (a page with a few curly quotes or a "¶").

    ``str.translate`` looks each character up in the table, at C speed only for a text that
    is ASCII throughout. When the table maps every ASCII character to one ASCII character or
    to nothing, those are mapped as bytes instead: the text's UTF-8 through a 256-byte table
    that leaves every byte of 128 and over as it is (no byte of a multi-byte character is
    ASCII, so those characters come out whole and no ASCII one is made), and then each
    other character the table changes is replaced where ``str.find`` finds it. A text that
    is mostly not ASCII is translated as it is."""
    if text.isascii():
        return text.translate(table)
    data = text.encode("utf-8", "surrogatepass")
    if len(data) - len(text) > len(text) // 8:  # (each character over U+007F adds a byte or more)
        return text.translate(table)
    byte_table, dropped = bytearray(range(256)), bytearray()
    changed: dict[str, str] = {}
    for k, v in table.items():
        if k >= 128:
            if v != chr(k):
                changed[chr(k)] = v
        elif not v:
            dropped.append(k)
        elif len(v) == 1 and v.isascii():
            byte_table[k] = ord(v)
        else:
            return text.translate(table)
    mapped = data.translate(byte_table, dropped).decode("utf-8", "surrogatepass")
    if not changed:
        return mapped
    at: list[int] = []
    for ch in changed:
        i = mapped.find(ch)
        while i != -1:
            at.append(i)
            i = mapped.find(ch, i + 1)
    at.sort()
    pieces: list[str] = []
    prev = 0
    for i in at:
        pieces += (mapped[prev:i], changed[mapped[i]])
        prev = i + 1
    pieces.append(mapped[prev:])
    return "".join(pieces)


class View:
    """A per-character transform of a text, with maps between the two.

    ``offsets[i]`` is where text[i] starts in the view (len(text)+1 entries), so a view
    position maps back with a binary search. ``fold`` is called once per distinct
    character and the text is built with :func:`translate`. Most characters fold to
    exactly one character; when nearly all do, ``offsets`` is a ``_Shifts`` that stores
    only the exceptions, otherwise a dense array."""

    __slots__ = ("text", "offsets", "_odd", "_dropped", "_chars")

    def __init__(self, source: str, fold, collapse: bool):
        n = len(source)
        table = {ord(c): fold(c) for c in set(source)}
        self._chars = tuple(table)  # the source's characters (code points), for refold
        odd = {k: len(v) for k, v in table.items() if len(v) != 1}
        dropped = []  # collapse: one space per whitespace run, none at the start
        if collapse:
            for a, b in _extra_whitespace(source):
                dropped.append((a + (a > 0), b))
        self._odd, self._dropped = odd, dropped
        self.text = translate(_kept(source, dropped), table)
        if sum(source.count(chr(k)) for k in odd) + sum(b - a for a, b in dropped) <= n // 16:
            odd_at = [] if not odd else [m.start() for m in re.finditer(
                "[" + "".join(re.escape(chr(k)) for k in odd) + "]", source)]
            lengths = {i: odd[ord(source[i])] for i in odd_at}
            for a, b in dropped:
                lengths.update(dict.fromkeys(range(a, b), 0))
            at = sorted(lengths)
            self.offsets = _Shifts(at, [lengths[i] for i in at], n)
            return
        lengths = bytearray(translate(source, {k: chr(len(v)) for k, v in table.items()}), "latin-1")
        for a, b in dropped:
            lengths[a:b] = bytes(b - a)
        self.offsets = array("i", accumulate(lengths, initial=0))

    def refold(self, source: str, fold) -> View:
        """The view of the same ``source`` (the text this view was made from) through another
        ``fold``, with the same whitespace dropped. When ``fold`` gives every character the
        length this view's fold gave it, the offsets are this view's (shared, not rebuilt)."""
        table = {k: fold(chr(k)) for k in self._chars}  # (not a pass over the source for its characters)
        odd = {k: len(v) for k, v in table.items() if len(v) != 1}
        if odd != self._odd:
            return View(source, fold, collapse=bool(self._dropped))  # no dropped whitespace: either way
        view = View.__new__(View)
        view._odd, view._dropped, view.offsets, view._chars = odd, self._dropped, self.offsets, self._chars
        view.text = translate(_kept(source, self._dropped), table)
        return view

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
    # True when the content is not the page's own rendering (markdown a search API made
    # from the page): the browser's text may differ in markup, symbols and whitespace.
    derived: bool = False
    # Another plausible reading of the same content, built on first need (``alternate``):
    # markdown read as strict CommonMark where a lenient rule (a definition list) applied.
    alternate_reader: Callable[[], PageText] | None = field(default=None, repr=False, compare=False)

    @cached_property
    def alternate(self) -> PageText | None:
        return self.alternate_reader() if self.alternate_reader is not None else None

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
        text = self.text
        out = array("i")
        if text[:1] == " " and not text[1:2].isspace():
            out.append(0)
        for m in _BREAK.finditer(text):
            out.extend(range(*m.span()))
        if len(text) > 1 and text[-1] == " " and not text[-2].isspace():
            out.append(len(text) - 1)
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

    def segment_end(self, start: int) -> int:
        """The largest ``end`` with ``in_one_segment(start, end)`` (every end from start + 1
        up to it passes too: a term only grows past what stops it). At least start + 1."""
        breaks, cuts = self._breaks, self._cut_list
        k = bisect_left(breaks, start)
        limit = max(breaks[k], start + 1) if k < len(breaks) else len(self.text) + 1
        k = bisect_right(cuts, start)
        return min(limit, cuts[k]) if k < len(cuts) else limit

    def segment_start(self, end: int) -> int:
        """The smallest ``start`` with ``in_one_segment(start, end)`` (mirror of
        :meth:`segment_end`). At most end - 1."""
        breaks, cuts = self._breaks, self._cut_list
        k = bisect_left(breaks, end)
        first = min(breaks[k - 1] + 1, end - 1) if k > 0 else -1
        k = bisect_left(cuts, end)
        return max(first, cuts[k - 1]) if k > 0 else first

    def gap_is_whitespace(self, start: int, end: int) -> bool:
        """True if text[start:end] holds only whitespace and no uncertain markup."""
        if any(not self.text[i].isspace() for i in range(start, end)):
            return False
        cuts = self._cut_list  # sorted: the first cut at or after start is the one to test
        k = bisect_left(cuts, start)
        return not (k < len(cuts) and cuts[k] <= end)

    # --- folded view ------------------------------------------------------------------
    @cached_property
    def loose_view(self) -> View:
        return View(self.text, fold_char, collapse=False)

    @property
    def loose(self) -> str:
        return self.loose_view.text

    @cached_property
    def skeleton_view(self) -> View:
        """``text`` folded like ``loose`` with only letters, digits and ideographs kept: a
        view insensitive to whitespace, punctuation, symbols and markup, for content that
        is not the page's own rendering (a term occurring here may occur on the page)."""
        return View(self.text, skeleton_char, collapse=False)

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

    def emit_mapped(self, s: str, raw_starts) -> None:
        """Characters shown as written; raw_starts[i] is the raw offset of s[i]."""
        if _PLAIN_SPECIAL.search(s):
            for ch, pos in zip(s, raw_starts):
                self.emit(ch, pos, pos + 1)
            return
        self.chars.append(s)
        self.starts.extend(raw_starts)
        self.ends.extend(p + 1 for p in raw_starts)
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
        cuts = frozenset(min(c, len(trimmed)) for c in self.cuts)  # a cut past the end: at the end
        return PageText(raw, trimmed, self.starts, self.ends, cuts)


_PLAIN_SPECIAL = re.compile("[\r\u00a0" + "".join(sorted(IGNORABLE)) + "]")


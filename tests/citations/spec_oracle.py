"""An independent, deliberately plain reading of the WICG text-directive matcher.

Used only by the citation tests. It re-implements "find a range from a text directive"
(current spec text, with matchMustBeAtBeginning and the end-term retry loop) over a
rendered page text whose blocks are separated by "\\n", without sharing any matching
code with ``deep_research.citations.fragments``.

Browsers differ in details the spec leaves to them (word segmentation, whitespace
collapsing). ``Oracle`` makes those choices explicit so a test can ask: does this
directive select the same range under *every* reasonable choice?
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

_INVISIBLE = set("\u00ad\u200b\u200c\u200d\u2060\ufeff")
_VARIANTS = {
    "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2013": "-", "\u2014": "-", "\u2010": "-", "\u2011": "-", "\u2212": "-",
}
_JOINERS = set(".,:;'\u2019_")


def fold_one(ch: str) -> str:
    """Case- and accent-blind comparison form of one character."""
    if ch in _INVISIBLE:
        return ""
    if ch.isspace():
        return " "
    out = []
    for part in unicodedata.normalize("NFKD", ch):
        if unicodedata.combining(part):
            continue
        for c in part.casefold():
            out.append(_VARIANTS.get(c, c))
    return "".join(out)


def is_ideograph(ch: str) -> bool:
    cp = ord(ch)
    return 0x3040 <= cp <= 0x30FF or 0x3400 <= cp <= 0x4DBF or 0x4E00 <= cp <= 0x9FFF


def _wordy(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


@lru_cache(maxsize=64)
def _fold_blocks(text: str, collapse_ws: bool) -> tuple:
    """Per block: (offset, block text, folded text, rendered offset of each folded char)."""
    blocks = []
    pos = 0
    for line in text.split("\n"):
        folded: list[str] = []
        index: list[int] = []
        prev_space = True
        for k, ch in enumerate(line):
            f = fold_one(ch)
            if f == " " and collapse_ws:
                if prev_space:
                    continue
                prev_space = True
            elif f:
                prev_space = False
            for c in f:
                folded.append(c)
                index.append(pos + k)
        if collapse_ws and folded and folded[-1] == " ":
            folded.pop()
            index.pop()
        blocks.append((pos, line, "".join(folded), tuple(index)))
        pos += len(line) + 1
    return tuple(blocks)


@dataclass(frozen=True)
class Oracle:
    joiners: bool = True  # UAX #29: "3.14", "it's", "e.g" are one word
    ideograph_runs: bool = False  # a run of ideographs is one word (else: one per char)
    strict_edges: bool = False  # a word-bounded edge may not sit between two punctuation marks
    collapse_ws: bool = False  # whitespace runs render as one space (no <pre>)

    # --- words ------------------------------------------------------------------------
    def boundary(self, line: str, i: int) -> bool:
        if i <= 0 or i >= len(line):
            return True
        a, b = line[i - 1], line[i]
        if a.isspace() or b.isspace():
            return True
        if unicodedata.combining(b):
            return False
        if _wordy(a) and _wordy(b):
            ia, ib = is_ideograph(a), is_ideograph(b)
            if ia and ib:
                return not self.ideograph_runs
            return ia != ib
        if self.joiners:
            if b in _JOINERS and i + 1 < len(line) and _wordy(a) and _wordy(line[i + 1]):
                return False
            if a in _JOINERS and i >= 2 and _wordy(line[i - 2]) and _wordy(b):
                return False
        return True

    def starts_word(self, line: str, i: int) -> bool:
        if not self.boundary(line, i):
            return False
        if self.strict_edges and i > 0 and not line[i - 1].isspace():
            return _wordy(line[i])
        return True

    def ends_word(self, line: str, i: int) -> bool:
        if not self.boundary(line, i):
            return False
        if self.strict_edges and i < len(line) and not line[i].isspace():
            return _wordy(line[i - 1])
        return True

    # --- blocks -----------------------------------------------------------------------
    def _blocks(self, text: str):
        return _fold_blocks(text, self.collapse_ws)

    def find(self, text: str, query: str, frm: int, word_start: bool, word_end: bool,
             at_beginning: bool) -> tuple[int, int] | None:
        q = "".join(fold_one(c) for c in query)
        if not q.strip():
            return None
        for base, line, folded, index in self._blocks(text):
            if base + len(line) < frm:
                continue
            pos = folded.find(q)
            while pos != -1:
                rs = index[pos]
                last = index[pos + len(q) - 1]
                whole_start = pos == 0 or index[pos - 1] != rs
                whole_end = pos + len(q) == len(index) or index[pos + len(q)] != last
                if rs >= frm and whole_start and whole_end:
                    if at_beginning and rs != frm:
                        return None
                    ok = (not word_start or self.starts_word(line, rs - base)) and (
                        not word_end or self.ends_word(line, last + 1 - base)
                    )
                    if ok:
                        return rs, last + 1
                pos = folded.find(q, pos + 1)
            if at_beginning and base + len(line) >= frm:
                return None
        return None

    # --- the algorithm ----------------------------------------------------------------
    def match(self, text: str, start: str, end: str | None = None, prefix: str | None = None,
              suffix: str | None = None) -> tuple[int, int] | None:
        def skip_ws(i: int) -> int:
            while i < len(text) and text[i].isspace():
                i += 1
            return i

        must_end = end is not None or suffix is None
        search_from = 0
        while search_from < len(text):
            if prefix is not None:
                pm = self.find(text, prefix, search_from, True, False, False)
                if pm is None:
                    return None
                search_from = pm[0] + 1
                at = skip_ws(pm[1])
                if at >= len(text):
                    return None
                pot = self.find(text, start, at, False, must_end, True)
                if pot is None:
                    continue
            else:
                pot = self.find(text, start, search_from, True, must_end, False)
                if pot is None:
                    return None
                search_from = pot[0] + 1
            if end is None and suffix is None:
                return pot
            range_end_from = pot[1]
            while range_end_from < len(text):
                if end is not None:
                    em = self.find(text, end, range_end_from, True, suffix is None, False)
                    if em is None:
                        return None
                    pot = (pot[0], em[1])
                if suffix is None:
                    return pot
                at = skip_ws(pot[1])
                if at < len(text) and self.find(text, suffix, at, False, True, True):
                    return pot
                if end is None:
                    break
                range_end_from = pot[1]
            else:
                if end is not None:
                    return None
        return None


ORACLES = [
    Oracle(joiners=j, ideograph_runs=r, strict_edges=s, collapse_ws=c)
    for j in (False, True)
    for r in (False, True)
    for s in (False, True)
    for c in (False, True)
]

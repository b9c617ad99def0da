"""Text-fragment links (``#:~:text=``) that highlight exactly one span of a page.

Follows the WICG "URL Fragment Text Directives" spec. Two checks guard every fragment:

1. ``match_directive`` runs the spec's *find a range from a text directive* algorithm
   over the page text (case- and accent-blind, per block, word-bounded).
2. ``_robust`` asks a stricter question that does not depend on how exactly a browser
   segments words or blocks: in the folded, whitespace-free view of the page, the first
   place the start term (with its prefix) can match at all is the target, and likewise
   the end term. Every term edge the spec wants word-bounded sits on a position that is a
   word boundary under any reasonable segmenter (next to a space, or punctuation that
   cannot join words). Together these make the browser's first match the target.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache
from urllib.parse import unquote

from .page.text import IGNORABLE, PageText, View, fold_char, is_dictionary_char, is_word_char

MIN_WORDS = 3  # as Chromium's own generator: start with three words per term
MAX_WORDS = 10
MAX_CONTEXT_WORDS = 10
# Content that is not the page's own rendering: an exact directive up to this encoded
# length is preferred to a shorter range (a range's end term is the fragile part), and a
# suffix chosen to tell an end term from an earlier copy has at most this many words.
DERIVED_EXACT_MAX = 200
_PLAIN_PUNCT = frozenset(".,;:!?'\"()-_/\u2018\u2019\u201c\u201d\u2013\u2014")
DERIVED_SUFFIX_WORDS = 6


@dataclass(frozen=True)
class TextDirective:
    start: str
    end: str | None = None
    prefix: str | None = None
    suffix: str | None = None

    def encode(self) -> str:
        parts = []
        if self.prefix:
            parts.append(encode_term(self.prefix) + "-")
        parts.append(encode_term(self.start))
        if self.end:
            parts.append(encode_term(self.end))
        if self.suffix:
            parts.append("-" + encode_term(self.suffix))
        return "text=" + ",".join(parts)

    @classmethod
    def parse(cls, directive: str) -> "TextDirective":
        if directive.startswith("text="):
            directive = directive[5:]
        parts = directive.split(",")
        prefix = suffix = None
        if parts and parts[0].endswith("-"):
            prefix = unquote(parts.pop(0)[:-1])
        if parts and parts[-1].startswith("-"):
            suffix = unquote(parts.pop()[1:])
        if not parts or len(parts) > 2 or not parts[0]:
            raise ValueError(f"malformed text directive: {directive!r}")
        start = unquote(parts[0])
        end = unquote(parts[1]) if len(parts) == 2 else None
        return cls(start, end, prefix, suffix)


# Each UTF-8 byte as ``urllib.parse.quote(term, safe="")`` writes it (letters, digits and
# "_.~" as they are, every other byte as %XX), and "-" as %2D.
_TERM_BYTES = {b: chr(b) if chr(b) in "_.~" or (chr(b).isascii() and chr(b).isalnum()) else f"%{b:02X}"
               for b in range(256)}


@lru_cache(maxsize=65536)  # the generator measures the same terms over and over
def encode_term(term: str) -> str:
    """Percent-encode a term: UTF-8, and the directive's own syntax chars '-', ',', '&'
    (``quote(term, safe="").replace("-", "%2D")``, its bytes mapped by one ``str.translate``)."""
    return term.encode("utf-8").decode("latin-1").translate(_TERM_BYTES)


def with_text_fragment(url: str, directive: TextDirective | str) -> str:
    """URL that opens at the directive. Keeps an existing ``#anchor``; replaces old text
    directives but keeps other directives."""
    d = directive.encode() if isinstance(directive, TextDirective) else directive
    base, sep, frag = url.partition("#")
    anchor, _, directives = frag.partition(":~:")
    kept = [x for x in directives.split("&") if x and not x.startswith("text=")] if directives else []
    return f"{base}#{anchor}:~:" + "&".join([d, *kept])


def strip_text_fragment(url: str) -> str:
    """The URL without text directives (other directives and the anchor stay)."""
    base, sep, frag = url.partition("#")
    if not sep:
        return url
    anchor, has_dir, directives = frag.partition(":~:")
    if not has_dir:
        return url
    kept = [x for x in directives.split("&") if x and not x.startswith("text=")]
    tail = (":~:" + "&".join(kept)) if kept else ""
    return f"{base}#{anchor}{tail}" if (anchor or tail) else base


# --- word boundaries ----------------------------------------------------------------------
def _w(ch: str) -> bool:
    return is_word_char(ch) or ch == "_"


def _mark(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "M" or ch in IGNORABLE


def inside_word(text: str, i: int) -> bool:
    """True where no segmenter puts a word boundary (between two letters/digits of a
    space-delimited script, or before a combining mark)."""
    if i <= 0 or i >= len(text):
        return False
    a, b = text[i - 1], text[i]
    if _mark(b):
        return True
    return (
        (a.isalnum() or a == "_")
        and (b.isalnum() or b == "_")
        and not is_dictionary_char(a)
        and not is_dictionary_char(b)
    )


# UAX #29 word-joining punctuation: MidLetter joins letters, MidNum joins digits,
# MidNumLet joins either, ExtendNumLet ("_") joins any word characters.
_MID_LETTER = frozenset(":\u00b7\u0387\u05f4\u2027\ufe13\ufe55\uff1a")
_MID_NUM = frozenset(",;\u037e\u0589\u060c\u060d\u066c\u07f8\u2044\ufe10\ufe14\ufe50\ufe54\uff0c\uff1b")
_MID_NUM_LET = frozenset(".'\u2018\u2019\u2024\ufe52\uff07\uff0e")


def _letter(ch: str) -> bool:
    return ch.isalpha() and not is_dictionary_char(ch)


def _joins(p: str, x: str, y: str) -> bool:
    if p == "_":
        return _w(x) and _w(y)
    if p in _MID_LETTER or p in _MID_NUM_LET:
        if _letter(x) and _letter(y):
            return True
    if p in _MID_NUM or p in _MID_NUM_LET:
        if x.isdigit() and y.isdigit():
            return True
    return False


def _joined_by_punct(text: str, i: int) -> bool:
    """Position i is next to punctuation that joins two word characters ("it's", "3.14",
    "1,000", "e.g", "snake_case")."""
    n = len(text)
    a, b = text[i - 1], text[i]
    if i + 1 < n and _joins(b, a, text[i + 1]):
        return True
    if i >= 2 and _joins(a, text[i - 2], b):
        return True
    return False


def is_safe_boundary(text: str, i: int) -> bool:
    """A word boundary under any reasonable segmenter (UAX #29, ICU, Chromium's)."""
    n = len(text)
    if i <= 0 or i >= n:
        return True
    a, b = text[i - 1], text[i]
    if a.isspace() or b.isspace():
        return True
    if _mark(b) or a in IGNORABLE:
        return False
    if _w(a) and _w(b):
        return False  # inside a word, or a script change whose handling varies
    return not _joined_by_punct(text, i)


def starts_cleanly(text: str, i: int) -> bool:
    """A term may begin at i where the spec wants a word start: after whitespace, or with
    a word character at a certain boundary. (Chromium does not treat a position between
    two punctuation marks as a word start, so a term may not begin with punctuation
    glued to the text before it.)"""
    if i <= 0 or text[i - 1].isspace():
        return True
    return _w(text[i]) and is_safe_boundary(text, i)


def ends_cleanly(text: str, i: int) -> bool:
    """A term may end at i where the spec wants a word end (mirror of starts_cleanly)."""
    if i >= len(text) or text[i].isspace():
        return True
    return _w(text[i - 1]) and is_safe_boundary(text, i)


def _has_word(s: str) -> bool:
    return any(ch.isalnum() for ch in s)


def is_word_boundary(text: str, i: int) -> bool:
    """Best approximation of a browser's word boundary (used by the spec matcher)."""
    n = len(text)
    if i <= 0 or i >= n:
        return True
    if inside_word(text, i):
        return False
    a, b = text[i - 1], text[i]
    if a.isspace() or b.isspace():
        return True
    if _w(a) and _w(b):
        return True  # dictionary scripts: every character may start a word
    return not _joined_by_punct(text, i)


# --- the spec's matching algorithm --------------------------------------------------------
@lru_cache(maxsize=65536)
def _fold_keep_space(ch: str) -> str:
    """Fold for the spec matcher: block breaks stay distinct, other whitespace is a space."""
    if ch == "\n":
        return "\n"
    return " " if ch.isspace() else fold_char(ch)


class _Folded:
    """The page folded once for the spec matcher. A query never contains a block break,
    so a match can never cross one."""

    def __init__(self, page: PageText):
        self.text = page.text
        self.view = View(page.text, _fold_keep_space, collapse=False)


_QUERY_FOLD: dict[int, str] = {}  # code point -> its fold for a query, filled on first sight
_QUERY_SEEN: set[str] = set()  # the characters in it (one set difference finds a query's new ones)


def _fold_query(q: str) -> str:
    """Each character of q as ``fold_char`` folds it, whitespace a space (``str.translate``
    with a table that grows by the characters seen)."""
    table = _QUERY_FOLD
    new = set(q) - _QUERY_SEEN
    if new:
        for c in new:
            table[ord(c)] = " " if c.isspace() else fold_char(c)
        _QUERY_SEEN.update(new)
    return q.translate(table)


def _find_in_range(
    lines: _Folded, query: str, frm: int, word_start: bool, word_end: bool
) -> tuple[int, int] | None:
    q = _fold_query(query)
    if not q:
        return None
    text, view = lines.text, lines.view
    folded, offsets = view.text, view.offsets
    pos = folded.find(q, offsets[min(frm, len(text))])
    while pos != -1:
        a = view.to_source(pos)
        b = view.to_source(pos + len(q) - 1) + 1
        ok = offsets[a] == pos and offsets[b] == pos + len(q)  # whole characters only
        if ok and word_start and not is_word_boundary(text, a):
            ok = False
        if ok and word_end and not is_word_boundary(text, b):
            ok = False
        if ok:
            return a, b
        pos = folded.find(q, pos + 1)
    return None


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _lines_of(page: PageText) -> _Folded:
    lines = page.__dict__.get("_spec_view")
    if lines is None:
        lines = page.__dict__["_spec_view"] = _Folded(page)
    return lines


def match_directive(page: PageText, d: TextDirective) -> tuple[int, int] | None:
    """The range the spec's algorithm selects in the page text, or None."""
    lines = _lines_of(page)
    text = page.text
    search_from = 0
    while search_from < len(text):
        if d.prefix is not None:
            pm = _find_in_range(lines, d.prefix, search_from, True, False)
            if pm is None:
                return None
            search_from = pm[0] + 1
            at = _skip_ws(text, pm[1])
            if at >= len(text):
                return None
            must_end = d.end is not None or d.suffix is None
            sm = _find_in_range(lines, d.start, at, False, must_end)
            if sm is None:
                return None
            if sm[0] != at:
                continue
        else:
            must_end = d.end is not None or d.suffix is None
            sm = _find_in_range(lines, d.start, search_from, True, must_end)
            if sm is None:
                return None
            search_from = sm[0] + 1
        if d.end is None:
            if d.suffix is None:
                return sm
            at = _skip_ws(text, sm[1])
            xm = _find_in_range(lines, d.suffix, at, False, True)
            if xm is None:
                return None
            if xm[0] == at:
                return sm
            continue
        # Range: as Chromium does, later end matches are tried before giving up on this start.
        end_from = sm[1]
        while True:
            em = _find_in_range(lines, d.end, end_from, True, d.suffix is None)
            if em is None:
                return None
            if d.suffix is None:
                return sm[0], em[1]
            at = _skip_ws(text, em[1])
            xm = _find_in_range(lines, d.suffix, at, False, True)
            if xm is None:
                return None
            if xm[0] == at:
                return sm[0], em[1]
            end_from = em[0] + 1
    return None


# --- generation ---------------------------------------------------------------------------
_DICT_CLASS = ("\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f"
               "\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f")
_ALNUM_RUN = re.compile(f"[^\\W_{_DICT_CLASS}]+")
_DICT_CHAR = re.compile(f"[{_DICT_CLASS}]")


def _words(s: str) -> int:
    """Word count for growth limits: alphanumeric runs; two ideographs count as a word."""
    return len(_ALNUM_RUN.findall(s)) + (len(_DICT_CHAR.findall(s)) + 1) // 2


_ISALNUM_RUN = re.compile(r"[^\W_]+")  # a run of str.isalnum() characters


def _off_runs(runs: list[tuple[int, int]], lo: int, hi: int) -> list[int]:
    """The positions c in [lo, hi) not inside a word: text[c - 1] and text[c] are not both
    alphanumeric, i.e. c is not strictly inside one of ``runs`` (the maximal alphanumeric
    runs of a span holding text[lo - 1:hi]). A term never ends (starts) inside a word: the
    scans below skip those positions in C instead of testing each character."""
    out: list[int] = []
    prev = lo
    for a, b in runs:
        if a >= hi:
            break
        if b > prev:
            out.extend(range(prev, a + 1))
            prev = b
    out.extend(range(prev, hi))
    return out


class _TermWords:
    """``_words`` of every term text[a:c] (``head(c)``) and text[c:b] (``tail(c)``) of the
    span text[a:b], from one scan of the span: a run of word characters counts in a term
    when it starts before the term's end (``head``) or ends after its start (``tail``)."""

    def __init__(self, text: str, a: int, b: int, alnum_runs: list[tuple[int, int]] | None = None):
        """``alnum_runs``: the span's maximal runs of ``str.isalnum()`` characters, when known
        (they are the word runs here when the span holds no character of a dictionary script)."""
        self.ideographs = [m.start() for m in _DICT_CHAR.finditer(text, a, b)]
        if alnum_runs is not None and not self.ideographs:
            runs = alnum_runs
        else:
            runs = [m.span() for m in _ALNUM_RUN.finditer(text, a, b)]
        self.starts = [x for x, _ in runs]
        self.ends = [y for _, y in runs]

    def head(self, c: int) -> int:
        return bisect_left(self.starts, c) + (bisect_left(self.ideographs, c) + 1) // 2

    def tail(self, c: int) -> int:
        return (len(self.ends) - bisect_right(self.ends, c)
                + (len(self.ideographs) - bisect_left(self.ideographs, c) + 1) // 2)


def _excluded(page: PageText, lpos: int, lend: int, need_start: bool, need_end: bool) -> bool:
    """True if a folded occurrence can never be a browser match (it starts or ends inside
    a word where the spec requires a word boundary)."""
    text, r2l = page.text, page.r2l
    if need_start:
        r = page.l2r(lpos)
        if r2l[r] == lpos and inside_word(text, r):
            return True
    if need_end:
        r_last = page.l2r(lend - 1)
        if r2l[r_last + 1] == lend and inside_word(text, r_last + 1):
            return True
    return False


def _first_at(page: PageText, pat: str, frm: int, target: int, need_start: bool, need_end: bool) -> bool:
    if not pat:
        return False
    loose = page.loose
    pos = loose.find(pat, frm)
    while pos != -1 and pos < target:
        if not _excluded(page, pos, pos + len(pat), need_start, need_end):
            return False
        pos = loose.find(pat, pos + 1)
    return pos == target


def _lslice(page: PageText, a: int, b: int) -> str:
    return page.loose[page.r2l[a] : page.r2l[b]]


@dataclass(frozen=True)
class _Span:
    a: int
    b: int


def _context_char(ch: str) -> bool:
    """May a context term on content that is not the page's own rendering hold ``ch``?
    Context is page text outside the quote; there it may hold only words and plain
    punctuation: a symbol such as the '¶' of a header link is often hidden on the real
    page (CSS), and a term holding it would match nothing there."""
    return ch.isalnum() or ch.isspace() or ch in _PLAIN_PUNCT


class _Generator:
    def __init__(self, page: PageText, start: int, end: int, min_words: int, max_words: int,
                 max_context: int):
        self.page, self.text = page, page.text
        self.cuts = page.cuts
        self.derived = page.derived
        self.start, self.end = start, end
        self.min_words, self.max_words, self.max_context = min_words, max_words, max_context
        # A pattern known to occur nowhere before a target (in loose: target -> pattern; in
        # the skeleton: (target, where the search starts) -> pattern). The terms tried for
        # one target grow from the same start, and a longer one occurs only where a shorter
        # one does: when the shorter one occurs nowhere before the target, neither does the
        # longer, and the page need not be searched again.
        self._clear: dict[int, str] = {}
        self._sk_clear: dict[tuple[int, int], str] = {}

    # A term edge next to dropped markup of uncertain rendering (an unmatched "_" or "*")
    # is not clean: the browser may show that character glued to the word.
    def _starts(self, i: int) -> bool:
        return i not in self.cuts and starts_cleanly(self.text, i)

    def _ends(self, i: int) -> bool:
        return i not in self.cuts and ends_cleanly(self.text, i)

    # term edge candidates ----------------------------------------------------------------
    @cached_property
    def _term_words(self) -> _TermWords:
        return _TermWords(self.text, self.start, self.end, self._runs)

    @cached_property
    def _runs(self) -> list[tuple[int, int]]:
        """The maximal alphanumeric runs of the quote's span (read by both term scans)."""
        return [m.span() for m in _ISALNUM_RUN.finditer(self.text, self.start, self.end)]

    def _start_term_ends(self) -> _Lazy:
        """Ends c1 for a start term text[start:c1] (range form), shortest first, found as
        they are asked for (the search stops at the first end term that makes the directive
        too long, most often after a few)."""
        return _Lazy(self._limit(self._start_edges(), tail=False))

    def _start_edges(self) -> Iterator[int]:
        text, runs = self.text, self._runs
        if not runs:
            return  # no word: no term
        first_alnum = runs[0][0]
        for c in _off_runs(runs, self.start + 1, min(self.end, self.page.segment_end(self.start) + 1)):
            if c <= first_alnum or text[c - 1].isspace() or not self._ends(c):
                continue  # no word yet, or not a clean end
            yield c

    def _end_term_starts(self) -> _Lazy:
        """Starts c2 for an end term text[c2:end] (range form), shortest first (found as
        they are asked for)."""
        return _Lazy(self._limit(self._end_edges(), tail=True))

    def _end_edges(self) -> Iterator[int]:
        text, runs = self.text, self._runs
        if not runs:
            return
        last_alnum = runs[-1][1] - 1
        for c in reversed(_off_runs(runs, max(self.start, self.page.segment_start(self.end) - 1) + 1, self.end)):
            if c > last_alnum or text[c].isspace() or not self._starts(c):
                continue  # no word after it, or not a clean start
            yield c

    def _limit(self, edges: Iterator[int], tail: bool) -> Iterator[int]:
        """The term edges to try, shortest term first: those whose term has min_words to
        max_words words; when none has, the longest shorter term, or else the first (over
        max_words, the only one). A term's word count only grows along ``edges``, so the
        first edge over max_words ends the search: it and every later one would be dropped."""
        words = self._term_words.tail if tail else self._term_words.head
        short = None
        seen = kept = False
        for c in edges:
            w = words(c)
            if w > self.max_words:
                if not seen:
                    yield c
                return
            seen = True
            if w < self.min_words:
                short = c
            else:
                kept = True
                yield c
        if not kept and short is not None:
            yield short  # the segment holds fewer words than the minimum: the longest term it allows

    def _prefixes(self) -> Iterator[_Span | None]:
        """Prefix contexts, shortest first (None: no prefix)."""
        text, page = self.text, self.page
        if self._starts(self.start):
            yield None
        pe = self.start
        while pe > 0 and text[pe - 1].isspace():
            pe -= 1
        if pe == 0 or not page.gap_is_whitespace(pe, self.start):
            return
        # text[ps:pe] grows by one character a step: whether it holds a word yet, and (on
        # derived content) a character a context may not hold, are kept as it grows
        has_word = odd = False
        derived = self.derived
        for ps in range(pe - 1, max(-1, page.segment_start(pe) - 1), -1):
            ch = text[ps]
            alnum = ch.isalnum()
            has_word = has_word or alnum
            odd = odd or (derived and not _context_char(ch))
            if not has_word or ch.isspace() or (alnum and ps and text[ps - 1].isalnum()) or not self._starts(ps):
                continue  # (between two letters or digits no term starts: ``starts_cleanly``)
            if odd:
                break  # a longer prefix holds the same character
            yield _Span(ps, pe)
            if _words(text[ps:pe]) >= self.max_context:
                break

    def _suffixes(self) -> Iterator[_Span | None]:
        """Suffix contexts, shortest first (None: no suffix)."""
        text, page = self.text, self.page
        if self._ends(self.end):
            yield None
        ss = self.end
        while ss < len(text) and text[ss].isspace():
            ss += 1
        if ss >= len(text) or not page.gap_is_whitespace(self.end, ss):
            return
        has_word = odd = False  # of text[ss:se], kept as it grows (see _prefixes)
        derived = self.derived
        n = len(text)
        for se in range(ss + 1, min(n, page.segment_end(ss)) + 1):
            ch = text[se - 1]
            alnum = ch.isalnum()
            has_word = has_word or alnum
            odd = odd or (derived and not _context_char(ch))
            if not has_word or ch.isspace() or (alnum and se < n and text[se].isalnum()) or not self._ends(se):
                continue  # (between two letters or digits no term ends: ``ends_cleanly``)
            if odd:
                break  # a longer suffix holds the same character
            yield _Span(ss, se)
            if _words(text[ss:se]) >= self.max_context:
                break

    # checks on content that is not the page's own rendering ------------------------------
    def _skeleton_first(self, a: int, b: int, frm: int, need_start: bool, need_end: bool,
                        after: _Span | None = None) -> bool:
        """In the skeleton view (letters and digits only), is the first occurrence of
        text[a:b] at or after text position ``frm`` the one at ``a``? An occurrence that
        certainly starts or ends inside a word (where the spec wants a boundary) does not
        count, nor, with ``after``, one that the skeleton of that context does not follow.
        Whatever markup, symbols or whitespace the real page shows differently, a term
        that occurs there occurs here."""
        view = self.page.skeleton_view
        sk, offsets = view.text, view.offsets
        needle = sk[offsets[a] : offsets[b]]
        if not needle:
            return False
        tail = sk[offsets[after.a] : offsets[after.b]] if after is not None else None
        target, begin = offsets[a], offsets[frm]
        known = self._sk_clear.get((target, begin))
        if known is not None and needle.startswith(known):
            return sk.startswith(needle, target)
        pos = sk.find(needle, begin)
        if (pos == -1 or pos >= target) and target >= begin:
            self._sk_clear[target, begin] = needle
        while pos != -1 and pos < target:
            if not self._skeleton_excluded(pos, pos + len(needle), need_start, need_end):
                if tail is None or sk.startswith(tail, pos + len(needle)):
                    return False
            pos = sk.find(needle, pos + 1)
        return pos == target

    def _skeleton_excluded(self, pos: int, end: int, need_start: bool, need_end: bool) -> bool:
        """An occurrence in the skeleton that no browser can match: it starts (ends) between
        two word characters that touch in the text, where the spec wants a word edge."""
        view, text = self.page.skeleton_view, self.text
        if need_start:
            r = view.to_source(pos)
            if view.offsets[r] == pos and inside_word(text, r):
                return True
        if need_end:
            r = view.to_source(end - 1) + 1
            if view.offsets[r] == end and inside_word(text, r):
                return True
        return False

    # checks ------------------------------------------------------------------------------
    def _start_ok(self, prefix: _Span | None, term_end: int, must_end: bool,
                  suffix: _Span | None = None) -> bool:
        """The first place (prefix+)start can match is the target. With a suffix (exact
        form only) an earlier candidate is harmless when the suffix cannot follow it:
        the spec then moves on to the next candidate."""
        page = self.page
        if prefix is None:
            pat = _lslice(page, self.start, term_end)
            target = page.r2l[self.start]
        else:
            pat = _lslice(page, prefix.a, prefix.b) + _lslice(page, self.start, term_end)
            target = page.r2l[prefix.a]
        if not pat:
            return False
        after = _lslice(page, suffix.a, suffix.b) if suffix is not None else None
        loose = page.loose
        known = self._clear.get(target)
        if known is not None and pat.startswith(known):
            if not loose.startswith(pat, target):  # nothing before the target: the first is there or later
                return False
        else:
            pos = loose.find(pat)
            if pos == -1 or pos >= target:
                self._clear[target] = pat
            while pos != -1 and pos < target:
                if not _excluded(page, pos, pos + len(pat), True, must_end):
                    if after is None or loose.startswith(after, pos + len(pat)):
                        return False
                pos = loose.find(pat, pos + 1)
            if pos != target:
                return False
        if self.derived:
            a = prefix.a if prefix is not None else self.start
            return self._skeleton_first(a, term_end, 0, prefix is None, must_end, suffix)
        return True

    def _doubt_suffix(self, c1: int, c2: int, suffixes: _Lazy) -> _Span | None:
        for sx in suffixes:
            if sx is None:
                continue
            if _words(self.text[sx.a : sx.b]) > DERIVED_SUFFIX_WORDS:
                return None
            if self._skeleton_first(c2, self.end, c1, True, False, sx):
                return sx
        return None

    def _end_ok(self, c1: int, c2: int, need_end: bool) -> bool:
        page = self.page
        pat = _lslice(page, c2, self.end)
        return _first_at(page, pat, page.r2l[c1], page.r2l[c2], True, need_end)

    # search ------------------------------------------------------------------------------
    def _elen(self, span: _Span | None, extra: int) -> int:
        """Encoded length of a context term plus its syntax (0 for no context)."""
        if span is None:
            return 0
        return len(encode_term(self.text[span.a : span.b])) + extra

    def candidates(self, shortest_only: bool = False) -> list[tuple[int, TextDirective]]:
        """Directives that pass the robustness checks, with their encoded lengths, shortest
        first. Contexts and terms are tried shortest first, and for each start (or prefix)
        only the first passing end (or suffix) is kept. With ``shortest_only`` no check is
        run for a directive that could not be shorter than one already found: the first
        item is then the same as without it, and the list may be shorter."""
        text = self.text
        prefixes = _Lazy(self._prefixes())
        suffixes = _Lazy(self._suffixes())
        if not prefixes or not suffixes:
            return []
        found: list[tuple[int, TextDirective]] = []
        best = [1 << 30]

        def add(prefix: _Span | None, start_term: str, end_term: str | None,
                suffix: _Span | None) -> None:
            d = TextDirective(start_term, end_term, text[prefix.a : prefix.b] if prefix else None,
                              text[suffix.a : suffix.b] if suffix else None)
            n = len(d.encode())
            found.append((n, d))
            best[0] = min(best[0], n)

        def too_long(n: int) -> bool:
            # Every loop below goes from shorter to longer, so "too long" ends the loop.
            return shortest_only and n >= best[0]

        # exact form: the whole quote as the start term; a suffix may relax the end bound
        # or tell the target apart from earlier copies
        one_segment = self.page.in_one_segment(self.start, self.end)
        if one_segment:
            base = 5 + len(encode_term(text[self.start : self.end]))  # "text=" + term
            for prefix in prefixes:
                with_prefix = base + self._elen(prefix, 2)
                if too_long(with_prefix):
                    break
                for suffix in suffixes:
                    if too_long(with_prefix + self._elen(suffix, 2)):
                        break
                    if self._start_ok(prefix, self.end, suffix is None, suffix):
                        add(prefix, text[self.start : self.end], None, suffix)
                        break
                if too_long(base + _MIN_CONTEXT):
                    break  # so would be the next prefix (not looked for: a walk back over the text)
        # Content that is not the page's own rendering: an exact directive of reasonable
        # length beats any range.
        if self.derived and found and min(n for n, _ in found) <= DERIVED_EXACT_MAX:
            found.sort(key=lambda x: x[0])
            return found
        # In range form a suffix cannot safely choose among start candidates (the end
        # term a browser pairs with an earlier start is not predictable), so it is used
        # only to relax the end bound.
        suffix = next(iter(suffixes))
        # range form: start term ... end term. A short quote that fits in one block keeps
        # the exact form: one-word range terms are fragile.
        if one_segment and _words(text[self.start : self.end]) < 2 * self.min_words:
            found.sort(key=lambda x: x[0])
            return found
        base = 5 + self._elen(suffix, 2)
        starts = self._start_term_ends()
        first = next(iter(starts), None)
        # A start term's encoded length grows with the term, and a range directive adds at
        # least "," and one character: once the start term alone is too long, every later
        # one is too (and no end term needs to be looked for when the first one is).
        if first is None or too_long(base + len(encode_term(text[self.start : first])) + 2):
            found.sort(key=lambda x: x[0])
            return found
        ends = self._end_term_starts()
        end_lens: dict[int, int] = {}  # "," + term, measured on first need
        for c1 in starts:
            with_start = base + len(encode_term(text[self.start : c1]))
            if too_long(with_start + 2):
                break
            prefix = _END  # the shortest prefix that passes (None: no prefix needed)
            for p in prefixes:
                if too_long(with_start + self._elen(p, 2) + 2):  # an end term has a character
                    break
                if self._start_ok(p, c1, True):
                    prefix = p
                    break
            if prefix is _END:
                continue
            with_prefix = with_start + self._elen(prefix, 2)
            for c2 in ends:
                if c2 < c1:
                    continue
                n_end = end_lens.get(c2)
                if n_end is None:
                    n_end = end_lens[c2] = 1 + len(encode_term(text[c2 : self.end]))
                if too_long(with_prefix + n_end):
                    break
                if not self._end_ok(c1, c2, suffix is None):
                    continue
                if not self.derived or self._skeleton_first(c2, self.end, c1, True, suffix is None):
                    add(prefix, text[self.start : c1], text[c2 : self.end], suffix)
                    break
                # The end term may occur earlier on the real page: a suffix that the
                # earlier copy lacks settles it (a browser tries later end matches).
                sx = self._doubt_suffix(c1, c2, suffixes)
                if sx is not None:
                    add(prefix, text[self.start : c1], text[c2 : self.end], sx)
                    break
        found.sort(key=lambda x: x[0])
        return found


class _Lazy:
    """A generator's items, produced on first need and kept for later passes."""

    def __init__(self, items: Iterator):
        self._items, self._seen = items, []

    def __iter__(self) -> Iterator:
        i = 0
        while True:
            if i == len(self._seen):
                nxt = next(self._items, _END)
                if nxt is _END:
                    return
                self._seen.append(nxt)
            yield self._seen[i]
            i += 1

    def __bool__(self) -> bool:
        return next(iter(self), _END) is not _END


_END = object()
_MIN_CONTEXT = 3  # the least a context adds to a directive: one character and its syntax ("-," or ",-")


@dataclass(frozen=True)
class Fragment:
    directive: TextDirective | None
    reason: str | None = None  # why no fragment could be made
    start: int | None = None  # the span of page.text the directive highlights
    end: int | None = None
    note: str | None = None  # set when that span is less than the quote (its words only)

    @property
    def words_only(self) -> bool:
        return self.note is not None

    @property
    def encoded(self) -> str | None:
        return self.directive.encode() if self.directive else None


def fragment_for(
    page: PageText,
    start: int,
    end: int,
    *,
    min_words: int = MIN_WORDS,
    max_words: int = MAX_WORDS,
    max_context: int = MAX_CONTEXT_WORDS,
) -> Fragment:
    """The shortest text directive that makes a browser highlight exactly page.text[start:end].

    When no directive can include a symbol at the quote's edge (punctuation glued to the
    text before or after it, or a leading "..." that only a run of spaces separates from
    the words), the quote's words without those edge symbols are highlighted instead and
    ``note`` says so."""
    text = page.text
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start >= end:
        return Fragment(None, "empty span")
    frag = _fragment_exact(page, start, end, min_words, max_words, max_context)
    if frag.directive is not None:
        return frag
    # the words without the symbols at an edge: the start side, the end side, then both
    a, b = start, end
    while a < b and not _w(text[a]):
        a += 1
    while b > a and not _w(text[b - 1]):
        b -= 1
    if a >= b or (a, b) == (start, end):
        return frag
    for s2, e2 in dict.fromkeys([(a, end), (start, b), (a, b)]):
        if (s2, e2) == (start, end) or not _has_word(text[s2:e2]):
            continue
        while e2 > s2 and text[e2 - 1].isspace():
            e2 -= 1
        while s2 < e2 and text[s2].isspace():
            s2 += 1
        words = _fragment_exact(page, s2, e2, min_words, max_words, max_context)
        if words.directive is not None:
            dropped = " and ".join(x for x in (repr(text[start:s2].strip()) if s2 > start else "",
                                               repr(text[e2:end].strip()) if e2 < end else "") if x)
            return Fragment(words.directive, None, s2, e2,
                            f"the highlight covers the quote's words only: no text fragment can "
                            f"include {dropped} at its edge")
    return frag


def _fragment_exact(page: PageText, start: int, end: int, min_words: int, max_words: int,
                    max_context: int) -> Fragment:
    gen = _Generator(page, start, end, min_words, max_words, max_context)
    shortest = gen.candidates(shortest_only=True)
    if shortest and match_directive(page, shortest[0][1]) == (start, end):
        return Fragment(shortest[0][1], None, start, end)
    cands = gen.candidates()
    if not cands:
        return Fragment(None, "no unique text fragment: the passage repeats in the page or its edges cannot be anchored")
    for _, d in cands:
        if match_directive(page, d) == (start, end):
            return Fragment(d, None, start, end)
    return Fragment(None, "generated fragments did not re-match the page text")

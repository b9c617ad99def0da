"""FTS5's ``snippet()`` for one document, computed in linear time.

SQLite's ``snippet(tbl, col, '', '', '…', n)`` scores, for every hit of the query in the
column, a window of ``n`` tokens starting there (and one starting at the sentence the hit
is in) by visiting *every* hit again: its cost grows with the square of the hits in one
document (0.4 s for one 380 KB page with 9,000 hits of ``function``). And each call
tokenizes and stems the whole column twice (about 75 ns a byte). This module finds the
same window without either: the document's token boundaries come from a byte-class table
(``bytes.translate`` and ``bytes.count``, no Python work per token), the hits from a search
for the words that can stem to a query term (a Porter stem keeps its word's beginning,
see :func:`stem_prefix`; a phrase's places by one regex for its words' beginnings, then
checked by stemming), and the windows are scored with two moving pointers over the hits,
or, for a text with many hits, with numpy arrays (every hit's window at once). The result
is byte for byte what ``snippet()`` returns:

* tokens as the ``unicode61 remove_diacritics 2`` tokenizer makes them (ASCII letters and
  digits; other characters as SQLite's own tables class and fold them, asked of SQLite once
  per character and kept, :func:`_char_info`), stemmed as FTS5's ``porter`` tokenizer does
  (:func:`stem`, written from the Porter algorithm with FTS5's rule set and order);
* a phrase (``"scipy.linalg"``) matches at consecutive token positions;
* a hit's window scores 1000 for each phrase it holds and 1 for each repeated hit, the
  window of the sentence before a hit 100 more (120 at the document's start), the first
  best window wins; a hit window is centred on its hits and kept inside the document;
* the text runs from the first token of the window to the end of its last one, with the
  ellipsis before it unless it starts at the first token and after it unless it reaches
  the last one.

:func:`snippet` returns None when it cannot promise that (its count of the document's
tokens differs from the index's), and the caller asks SQLite instead.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from bisect import bisect_left
from functools import lru_cache

# --- characters --------------------------------------------------------------------------
# Byte classes: b"a" a byte of a token character, b" " a separator, b"u" a byte of a
# non-ASCII character (classed per character afterwards), b"d" (after classing) a character
# that continues a token but cannot start one (a combining mark).
_ASCII_CLASS = bytes(
    (ord("a") if (48 <= i <= 57 or 65 <= i <= 90 or 97 <= i <= 122) else ord(" ")) if i < 128 else ord("u")
    for i in range(256)
)
_LEADING_MARKS = re.compile(rb"(?<![ad])d+")
_TOKEN = re.compile(rb"a+")
# Ends of sentences ("." or ":" and whitespace, then a token), found in a text translated by
# _SENTENCE_CLASS: b"." for "." and ":", b" " for a space, tab, CR or LF, b"a" for an ASCII
# letter or digit, b"u" for a non-ASCII byte, b"-" for the rest.
_SENTENCE_CLASS = bytes(
    ord(".") if i in b".:" else ord(" ") if i in b" \t\n\r" else ord("u") if i > 127
    else ord("a") if (48 <= i <= 57 or 65 <= i <= 90 or 97 <= i <= 122) else ord("-")
    for i in range(256)
)
_SPACE_RUN = re.compile(rb" +")
_TOKEN_START = b" a"

_char_lock = threading.Lock()
_probe_con: sqlite3.Connection | None = None
MAX_CHARS_KEPT = 65536


class _Chars:
    """What SQLite's tokenizer does with each non-ASCII character asked of it so far:
    ``info`` char -> (class byte, folded UTF-8), and the same as ``str.translate`` tables
    (code point -> class byte per UTF-8 byte of the character; -> folded text, with the
    ASCII capitals lower-cased). Only added to; replaced by an empty one when it grows
    past :data:`MAX_CHARS_KEPT`, so that a table a thread holds keeps what it had."""

    __slots__ = ("classes", "folds", "info")

    def __init__(self) -> None:
        self.info: dict[str, tuple[bytes, bytes]] = {}
        self.classes: dict[int, str] = {}
        self.folds: dict[int, str] = {c: chr(c + 32) for c in range(65, 91)}

    def add(self, ch: str, cls: bytes, folded: bytes) -> None:
        self.info[ch] = (cls, folded)
        self.classes[ord(ch)] = cls.decode() * len(ch.encode("utf-8"))
        self.folds[ord(ch)] = folded.decode("utf-8")


_chars = _Chars()


def _probe(chars: list[str], known: _Chars) -> None:
    """Ask SQLite's own unicode61 tokenizer how it classes and folds each character: alone
    (a token only if it may start one) and between two letters (one token if it may
    continue one); added to ``known``. Called with the lock held."""
    global _probe_con
    if _probe_con is None:
        con = sqlite3.connect(":memory:", check_same_thread=False)
        con.execute("CREATE VIRTUAL TABLE p USING fts5(x, tokenize='unicode61 remove_diacritics 2')")
        con.execute("CREATE VIRTUAL TABLE v USING fts5vocab(p, 'instance')")
        _probe_con = con
    con = _probe_con
    con.execute("DELETE FROM p")
    rows = []
    for i, ch in enumerate(chars):
        rows += [(2 * i + 1, ch), (2 * i + 2, "x" + ch + "x")]
    con.executemany("INSERT INTO p (rowid, x) VALUES (?, ?)", rows)
    tokens: dict[int, list[str]] = {}
    for doc, term in con.execute("SELECT doc, term FROM v ORDER BY doc, offset"):
        tokens.setdefault(doc, []).append(term)
    for i, ch in enumerate(chars):
        alone, between = tokens.get(2 * i + 1, []), tokens.get(2 * i + 2, [])
        if len(alone) == 1:
            known.add(ch, b"a", alone[0].encode("utf-8"))
        elif len(between) == 1 and between[0].startswith("x") and between[0].endswith("x"):
            known.add(ch, b"d", between[0][1:-1].encode("utf-8"))
        else:
            known.add(ch, b" ", b"")


def _char_info(chars) -> _Chars:
    """The class and folded form of each of these non-ASCII characters (and others), from
    the cache or SQLite."""
    global _chars
    known = _chars
    wanted = list(dict.fromkeys(chars))
    if any(ch not in known.info for ch in wanted):
        with _char_lock:
            known = _chars
            missing = [ch for ch in wanted if ch not in known.info]
            if missing:
                if len(known.info) > MAX_CHARS_KEPT:  # a new table, holding these at least
                    known, missing = _Chars(), wanted
                _probe(missing, known)
                _chars = known
    return known


def fold(token: bytes) -> bytes:
    """A token's text as the index stores it before stemming: ASCII letters lower-cased,
    other characters folded by SQLite's tables (case and diacritics)."""
    if token.isascii():
        return token.lower()
    text = token.decode("utf-8")
    known = _chars
    chars = set(text).difference(_ASCII_CHARS)
    if not known.info.keys() >= chars:
        known = _char_info(chars)
    return text.translate(known.folds).encode("utf-8")


_ASCII_CHARS = frozenset(map(chr, range(128)))


# --- Porter stemmer, as FTS5's "porter" tokenizer applies it ---------------------------------
_A, _E, _I, _O, _U, _Y = b"aeiouy"
_VOWELS = frozenset((_A, _E, _I, _O, _U))


def _vowel(c: int, y_is_vowel: bool) -> bool:
    return c in _VOWELS or (y_is_vowel and c == _Y)


def _vc_end(w: bytearray, start: int, end: int, prev_consonant: bool) -> int:
    """Scan w[start:end] for a vowel followed by a consonant; the index after that consonant
    (from ``start``), else 0. A 'y' is a vowel after a consonant."""
    cons = prev_consonant
    i = start
    while i < end:
        cons = not _vowel(w[i], cons)
        if not cons:
            break
        i += 1
    i += 1
    while i < end:
        cons = not _vowel(w[i], cons)
        if cons:
            return i + 1 - start
        i += 1
    return 0


def _m_gt0(w: bytearray, n: int) -> bool:
    return _vc_end(w, 0, n, False) != 0


def _m_gt1(w: bytearray, n: int) -> bool:
    k = _vc_end(w, 0, n, False)
    return bool(k) and _vc_end(w, k, n, True) != 0


def _m_eq1(w: bytearray, n: int) -> bool:
    k = _vc_end(w, 0, n, False)
    return bool(k) and _vc_end(w, k, n, True) == 0


def _cvc(w: bytearray, n: int) -> bool:
    """*o: the stem ends consonant-vowel-consonant, the last not w, x or y."""
    if w[n - 1] in b"wxy":
        return False
    mask, cons = 0, False
    for i in range(n):
        cons = not _vowel(w[i], cons)
        mask = (mask << 1) | cons
    return mask & 7 == 5


def _has_vowel(w: bytearray, n: int) -> bool:
    """*v*: a vowel in w[:n] (a 'y' counts unless it is the first letter)."""
    return any(_vowel(w[i], i > 0) for i in range(n))


def _at(w: bytearray, i: int) -> int:
    """w[i] for i >= 0; the byte FTS5 reads before its buffer (a pointer's high byte) is 0."""
    return w[i] if i >= 0 else 0


# (suffix, replacement, condition) per step, grouped by the suffix's next-to-last letter:
# within a group only the first suffix the word ends with is tried.
_GT0, _GT1, _GT1_ST = 0, 1, 2
_STEP2: dict[int, tuple[tuple[bytes, bytes], ...]] = {
    ord("a"): ((b"ational", b"ate"), (b"tional", b"tion")),
    ord("c"): ((b"enci", b"ence"), (b"anci", b"ance")),
    ord("e"): ((b"izer", b"ize"),),
    ord("g"): ((b"logi", b"log"),),
    ord("l"): ((b"bli", b"ble"), (b"alli", b"al"), (b"entli", b"ent"), (b"eli", b"e"), (b"ousli", b"ous")),
    ord("o"): ((b"ization", b"ize"), (b"ation", b"ate"), (b"ator", b"ate")),
    ord("s"): ((b"alism", b"al"), (b"iveness", b"ive"), (b"fulness", b"ful"), (b"ousness", b"ous")),
    ord("t"): ((b"aliti", b"al"), (b"iviti", b"ive"), (b"biliti", b"ble")),
}
_STEP3: dict[int, tuple[tuple[bytes, bytes], ...]] = {
    ord("a"): ((b"ical", b"ic"),),
    ord("s"): ((b"ness", b""),),
    ord("t"): ((b"icate", b"ic"), (b"iciti", b"ic")),
    ord("u"): ((b"ful", b""),),
    ord("v"): ((b"ative", b""),),
    ord("z"): ((b"alize", b"al"),),
}
_STEP4: dict[int, tuple[tuple[bytes, int], ...]] = {
    ord("a"): ((b"al", _GT1),),
    ord("c"): ((b"ance", _GT1), (b"ence", _GT1)),
    ord("e"): ((b"er", _GT1),),
    ord("i"): ((b"ic", _GT1),),
    ord("l"): ((b"able", _GT1), (b"ible", _GT1)),
    ord("n"): ((b"ant", _GT1), (b"ement", _GT1), (b"ment", _GT1), (b"ent", _GT1)),
    ord("o"): ((b"ion", _GT1_ST), (b"ou", _GT1)),
    ord("s"): ((b"ism", _GT1),),
    ord("t"): ((b"ate", _GT1), (b"iti", _GT1)),
    ord("u"): ((b"ous", _GT1),),
    ord("v"): ((b"ive", _GT1),),
    ord("z"): ((b"ize", _GT1),),
}


def _replace(w: bytearray, rules, cond_gt1: bool = False) -> None:
    n = len(w)
    for suffix, out in rules.get(_at(w, n - 2), ()):
        k = len(suffix)
        if n > k and w.endswith(suffix):
            stem = n - k
            if (_m_gt1(w, stem) if cond_gt1 else _m_gt0(w, stem)):
                w[stem:] = out
            return


@lru_cache(maxsize=1 << 16)
def stem(token: bytes) -> bytes:
    """A folded token as FTS5's porter tokenizer stems it (tokens under 3 or over 64 bytes
    are kept as they are)."""
    n = len(token)
    if n > 64 or n < 3:
        return token
    w = bytearray(token)
    # step 1a
    if w[-1] == ord("s"):
        if w[-2] == ord("e"):
            del w[-2 if (n > 4 and w[-4] == w[-3] == ord("s")) or (n > 3 and w[-3] == _I) else -1:]
        elif w[-2] != ord("s"):
            del w[-1]
    # step 1b
    n = len(w)
    removed = False
    second = _at(w, n - 2)
    if second == _E:
        if n > 3 and w.endswith(b"eed"):
            if _m_gt0(w, n - 3):
                del w[-1]
        elif n > 2 and w.endswith(b"ed") and _has_vowel(w, n - 2):
            del w[-2:]
            removed = True
    elif second == ord("n") and n > 3 and w.endswith(b"ing") and _has_vowel(w, n - 3):
        del w[-3:]
        removed = True
    if removed:
        n = len(w)
        second = _at(w, n - 2)
        if n > 2 and ((second == _A and w.endswith(b"at")) or (second == ord("b") and w.endswith(b"bl"))
                      or (second == _I and w.endswith(b"iz"))):
            w.append(_E)
        else:
            c = w[-1]
            if not _vowel(c, False) and c not in b"lsz" and c == _at(w, n - 2):
                del w[-1]
            elif _m_eq1(w, n) and _cvc(w, n):
                w.append(_E)
    # step 1c
    n = len(w)
    if w[-1] == _Y and _has_vowel(w, n - 1):
        w[-1] = _I
    # steps 2 to 4
    _replace(w, _STEP2)
    _replace(w, _STEP3)
    n = len(w)
    for suffix, cond in _STEP4.get(_at(w, n - 2), ()):
        k = len(suffix)
        if n > k and w.endswith(suffix):
            stem_n = n - k
            if cond == _GT1_ST:
                ok = w[stem_n - 1] in b"st" and _m_gt1(w, stem_n)
            else:
                ok = _m_gt1(w, stem_n)
            if ok:
                del w[stem_n:]
            break
    # step 5a
    n = len(w)
    if w[-1] == _E and (_m_gt1(w, n - 1) or (_m_eq1(w, n - 1) and not _cvc(w, n - 1))):
        del w[-1]
    # step 5b
    n = len(w)
    if n > 1 and w[-1] == w[-2] == ord("l") and _m_gt1(w, n - 1):
        del w[-1]
    return bytes(w)


def stem_prefix(s: bytes) -> bytes:
    """The beginning every word stemming to ``s`` starts with. A Porter step replaces a
    suffix and keeps the letters before it; the letters a step adds beyond what it removed
    are one final 'e' or 'i', or "le" (-biliti → -ble), and a later step only removes.
    So a stem not ending in e, i or l is its words' own beginning."""
    if s.endswith(b"le"):
        return s[:-2] or s[:1]
    if s[-1:] in (b"e", b"i", b"l"):
        return s[:-1] or s[:1]
    return s


# --- tokens of a text -----------------------------------------------------------------------------
_runs: dict[bytes, bytes] = {}


def _run_class(run: bytes) -> bytes:
    """Class bytes of a run of non-ASCII characters (one class byte per byte)."""
    out = _runs.get(run)
    if out is None:
        chars = run.decode("utf-8")
        out = chars.translate(_char_info(chars).classes).encode("ascii")
        if len(run) <= 24:
            if len(_runs) > MAX_CHARS_KEPT:
                _runs.clear()
            _runs[run] = out
    return out


# Every non-ASCII byte a separator (b" "): the class of a text without non-ASCII token
# characters in one pass; ...and its ASCII letters lower-cased, the rest b" " (``masked``).
_SEP_CLASS = _ASCII_CLASS.replace(b"u", b" ")
# Every non-ASCII byte b"\x80", the rest b" ": runs found with bytes.find (a regex for a class
# of bytes tests them one by one, about ten times slower)
_NONASCII_ONE = bytes(32 if i < 128 else 128 for i in range(256))
_RUNS_ONLY = bytes(32 if i < 128 else i for i in range(256))  # .split(): the non-ASCII runs
_UNDERSCORE = bytes(95 if i in b"ad" else i for i in range(256))
_MASK = bytes(
    (i | 0x20 if 65 <= i <= 90 else i) if (48 <= i <= 57 or 65 <= i <= 90 or 97 <= i <= 122) else 32
    for i in range(256)
)


def _nonascii_runs(raw: bytes) -> list[tuple[int, int]]:
    """(start, end) of each run of non-ASCII bytes."""
    flat = raw.translate(_NONASCII_ONE)
    find, size = flat.find, len(flat)
    out = []
    a = find(b"\x80")
    while a >= 0:
        b = find(b" ", a)
        if b < 0:
            b = size
        out.append((a, b))
        a = find(b"\x80", b)
    return out


class _Text:
    """A column's text as bytes, with a class string in which every token is a run of b"a",
    and ``masked``: the text with ASCII letters lower-cased, separators b" " and the bytes of
    non-ASCII token characters b"_" (so an ASCII token is a run of [a-z0-9] between b" ")."""

    __slots__ = ("cls", "marked", "masked", "nonascii", "raw")

    def __init__(self, text: str):
        raw = text.encode("utf-8")
        self.raw = raw
        cls = raw.translate(_SEP_CLASS)
        masked = raw.translate(_MASK)
        self.nonascii: list[tuple[int, int]] = []  # runs of non-ASCII bytes that hold a token character
        if not text.isascii():
            # classed once per distinct run (most are punctuation: separators, nothing to patch)
            wordy = {}
            for run in set(raw.translate(_RUNS_ONLY).split()):
                c = _run_class(run)
                if c.strip(b" "):
                    wordy[run] = c
            if wordy:
                cbuf, mbuf = bytearray(cls), bytearray(masked)
                spans = self.nonascii
                size = len(raw)
                if len(wordy) <= 8:  # a few words: found by bytes.find
                    for run, c in wordy.items():
                        k, m = 0, len(run)
                        while (a := raw.find(run, k)) >= 0:
                            b = k = a + m
                            if (a and raw[a - 1] > 127) or (b < size and raw[b] > 127):
                                k = a + 1  # inside a longer run (a character's bytes at a time)
                                continue
                            spans.append((a, b))
                    spans.sort()
                else:
                    spans += [(a, b) for a, b in _nonascii_runs(raw) if raw[a:b] in wordy]
                for a, b in spans:
                    c = wordy[raw[a:b]]
                    cbuf[a:b] = c
                    mbuf[a:b] = c.translate(_UNDERSCORE)
                cls = bytes(cbuf)
                if b"d" in cls:  # a mark continues a token; one after a separator is a separator
                    cls = _LEADING_MARKS.sub(lambda m: b" " * len(m.group(0)), cls).replace(b"d", b"a")
                    for a, b in spans:
                        mbuf[a:b] = cls[a:b].replace(b"a", b"_")
                masked = bytes(mbuf)
        self.cls = cls
        self.masked = masked
        self.marked = b" " + cls  # token start at i <=> marked[i:i+2] == b" a"

    def count(self, a: int, b: int) -> int:
        """Tokens starting in raw[a:b]."""
        return self.marked.count(_TOKEN_START, a, b + 1)

    def token_at(self, i: int) -> int:
        """End of the token starting at raw index i."""
        m = _TOKEN.match(self.cls, i)
        return m.end() if m else i

    def folded(self, a: int, b: int) -> bytes:
        token = self.raw[a:b]
        return self.masked[a:b] if token.isascii() else fold(token)


@lru_cache(maxsize=4096)
def query_stems(phrase: str) -> tuple[bytes, ...]:
    """The stemmed tokens of one query phrase."""
    t = _Text(phrase)
    return tuple(stem(t.folded(m.start(), m.end())) for m in _TOKEN.finditer(t.cls))


@lru_cache(maxsize=256)
def _words_starting(prefix: bytes) -> re.Pattern:
    """The ASCII tokens of a ``masked`` text that start with ``prefix``: ``prefix`` and the
    ASCII letters and digits after it, with b" " or an end of the text on both sides. The
    literal comes first: the regex engine then skips to each place it occurs, where a
    leading b" " would stop it at every space (three times slower); the look-behind after
    it checks that a token starts there."""
    p = re.escape(prefix)
    return re.compile(p + rb"(?<![^ ]" + p + rb")[a-z0-9]*(?![^ ])")


def _occurrences(t: _Text, targets: frozenset[bytes],
                 nonascii_targets: frozenset[bytes] = frozenset()) -> dict[bytes, list[tuple[int, int]]]:
    """(start, end) of every token of the text whose stem is one of ``targets``, and of
    every token holding a non-ASCII character whose stem is one of ``nonascii_targets``."""
    out: dict[bytes, list[tuple[int, int]]] = {s: [] for s in targets | nonascii_targets}
    prefixes: list[bytes] = []
    for p in sorted({stem_prefix(s) for s in targets if s.isascii()}):  # "func" before "function"
        if not any(p.startswith(k) for k in prefixes):  # words of "function" are words of "func"
            prefixes.append(p)
    if prefixes:  # tokens of ASCII letters and digits: a run between b" " in ``masked``
        masked = t.masked
        stems: dict[bytes, list | None] = {}
        for prefix in prefixes:  # one literal at a time: found fast
            for m in _words_starting(prefix).finditer(masked):
                w = m.group()
                try:
                    spans = stems[w]
                except KeyError:
                    spans = stems[w] = out.get(stem(w))
                if spans is not None:
                    spans.append(m.span())
        if len(prefixes) > 1:
            for spans in out.values():
                spans.sort()
    if t.nonascii and _nonascii_occurrences(t, out):
        for spans in out.values():
            spans.sort()
    return out


def _nonascii_occurrences(t: _Text, out: dict[bytes, list[tuple[int, int]]]) -> bool:
    """Add to ``out`` (stem: spans) the tokens holding a non-ASCII character whose stem is
    one of its keys, folded one by one; True if it added any."""
    cls = t.cls
    done = 0  # tokens ending before this offset were looked at
    extra = False
    for a, b in t.nonascii:
        if b <= done:
            continue
        start = max(a, done)
        if cls[start] == 97:  # inside a token: from its start
            start = cls.rfind(b" ", 0, start) + 1
        for m in _TOKEN.finditer(cls, start):
            if m.start() >= b:
                break
            done = m.end()
            if t.raw[m.start():m.end()].isascii():
                continue  # an ASCII token: found by its beginning
            spans = out.get(stem(t.folded(m.start(), m.end())))
            if spans is not None:
                spans.append(m.span())
                extra = True
    return extra


_TOKEN_WITH_NONASCII = rb"[a-z0-9]*_[a-z0-9_]*"


@lru_cache(maxsize=256)
def _phrase_starting(phrase: tuple[bytes, ...]) -> re.Pattern:
    """Where, in a ``masked`` text, a phrase (of two or more stems, the first one ASCII) may
    start: a token beginning with the first stem's :func:`stem_prefix`, followed (across
    separators) by a token that may stem to each further one - one beginning with its
    prefix, or holding a non-ASCII character (b"_"), which only stemming tells. Every
    ASCII token where the phrase starts is found (maybe more); only the first token is
    consumed, so phrases that overlap are all found."""
    head = re.escape(stem_prefix(phrase[0]))
    rest = []
    for s in phrase[1:]:
        alts = [_TOKEN_WITH_NONASCII]
        if s.isascii():
            alts.insert(0, re.escape(stem_prefix(s)) + rb"[a-z0-9_]*")
        rest.append(rb" +(?:" + rb"|".join(alts) + rb")")
    return re.compile(head + rb"(?<![^ ]" + head + rb")[a-z0-9_]*(?=" + b"".join(rest) + rb")")


# --- the snippet --------------------------------------------------------------------------------
def _c_half(x: int) -> int:
    """x / 2 rounded toward zero, as C divides."""
    return x // 2 if x >= 0 else -((-x) // 2)


def snippet(text: str, phrases: list[tuple[bytes, ...]], size: int | None, *, tokens: int = 32,
            ellipsis: str = "\u2026") -> str | None:
    """What ``snippet(tbl, col, '', '', ellipsis, tokens)`` returns for a column holding
    ``text``, for a query of ``phrases`` (each its stemmed tokens, :func:`query_stems`).
    ``size``: the column's token count as the index holds it (None: not checked); None is
    returned when this text's count differs."""
    t = _Text(text)
    hits = _hits(t, phrases)  # (byte offset, phrase index, phrase length), in FTS5's order
    first_token = t.cls.find(b"a")
    if len(hits) >= MANY_HITS:  # the same choice, made with arrays
        best = _best_window_many(t, hits, len(phrases), size, tokens, first_token)
        if best is None:
            return None
        n_tokens, best_start, best_anchor = best
        return _window_text(t, best_start, best_anchor, n_tokens, tokens, ellipsis)
    # the tokens are counted once: up to each hit, then after the last one
    hit_pos = _hit_positions(t, hits)
    last = hits[-1][0] if hits else 0
    n_tokens = (hit_pos[-1] if hits else 0) + t.marked.count(_TOKEN_START, last)
    if size is not None and size != n_tokens:
        return None
    _best_score, best_start, best_anchor = 0, 0, (0, first_token)
    if hits:
        _best_score, best_start, best_anchor = _best_window(t, hits, len(phrases), n_tokens, tokens, first_token,
                                                            hit_pos)
    return _window_text(t, best_start, best_anchor, n_tokens, tokens, ellipsis)


def _hits(t: _Text, phrases: list[tuple[bytes, ...]]) -> list[tuple[int, int, int]]:
    # the first tokens of longer phrases: where a regex finds them (_phrase_hits), here only
    # those holding a non-ASCII character (the text's non-ASCII tokens are folded once)
    occ = _occurrences(t, frozenset(p[0] for p in phrases if len(p) == 1),
                       frozenset(p[0] for p in phrases if len(p) > 1))
    hits: list[tuple[int, int, int]] = []
    for k, phrase in enumerate(phrases):
        if not phrase:
            continue
        if len(phrase) == 1:
            hits += [(a, k, 1) for a, _ in occ[phrase[0]]]
            continue
        hits += [(a, k, len(phrase)) for a in _phrase_hits(t, phrase, occ[phrase[0]])]
    if len(phrases) > 1:
        hits.sort()
    return hits


def _phrase_hits(t: _Text, phrase: tuple[bytes, ...], found: list[tuple[int, int]]) -> list[int]:
    """Where the tokens of a phrase of two or more stems follow each other, in order.
    ``found``: tokens holding a non-ASCII character that stem to its first (maybe more)."""
    first = phrase[0]
    spans = found
    if first.isascii():  # ASCII first tokens: the places a regex finds (a few), checked by stemming
        masked = t.masked
        found_ascii = [m.span() for m in _phrase_starting(phrase).finditer(masked)]
        found_ascii = [(a, b) for a, b in found_ascii if 95 not in masked[a:b] and stem(masked[a:b]) == first]
        spans = sorted(set(found_ascii).union(found)) if found else found_ascii
    cls, masked = t.cls, t.masked
    # a word stemming to s starts with stem_prefix(s): a token whose first bytes are
    # ASCII (no b"_" in ``masked``), and not those, is not stemmed to be told apart
    rest = [(s, stem_prefix(s)) for s in phrase[1:]]
    out = []
    for a, b in spans:
        pos = b
        for s, head in rest:
            m = _TOKEN.search(cls, pos)
            if m is None:
                break
            start, pos = m.span()
            lead = masked[start:start + len(head)]
            if (lead != head and 95 not in lead) or stem(t.folded(start, pos)) != s:
                break
        else:
            out.append(a)
    return out


def _hit_positions(t: _Text, hits: list[tuple[int, int, int]]) -> list[int]:
    """The token position of each hit, each counted from the previous hit."""
    marked = t.marked
    hit_pos = []
    pos = prev = 0
    for off, _, _ in hits:
        pos += marked.count(_TOKEN_START, prev, off + 1)
        prev = off
        hit_pos.append(pos)
    return hit_pos


def _best_window(t: _Text, hits: list[tuple[int, int, int]], n_phrases: int, n_tokens: int, tokens: int,
                 first_token: int, hit_pos: list[int] | None = None) -> tuple[int, int, tuple[int, int]]:
    """FTS5's choice: (score, first token, a token's (position, offset) near it) of the best
    window. For each hit in turn, the window starting there (centred on the hits it holds
    afterwards) and, when the text is longer than a window, the one starting at the sentence
    before the hit; the first best one wins. ``hit_pos``: :func:`_hit_positions`, if known."""
    hit_off = [h[0] for h in hits]
    hit_phrase = [h[1] for h in hits]
    if hit_pos is None:
        hit_pos = _hit_positions(t, hits)
    scores = _window_scores(hit_pos, hit_pos, hit_phrase, n_phrases, tokens)
    best = max(scores)
    i = scores.index(best)
    win_score, _win_key = best, (i, 0)
    if n_tokens > tokens:
        sent_pos, sent_off = _sentence_before(t, hit_off, hit_pos, first_token)
        sscores = _window_scores(sent_pos, hit_pos, hit_phrase, n_phrases, tokens)
        for j, (sp, io) in enumerate(zip(sent_pos, hit_pos)):
            if sp >= io:
                sscores[j] = -1
            else:
                sscores[j] += 120 if sp == 0 else 100
        sbest = max(sscores)
        if sbest > win_score or (sbest == win_score and sscores.index(sbest) < i):
            j = sscores.index(sbest)
            return sbest, sent_pos[j], (sent_pos[j], sent_off[j])
    if win_score <= 0:
        return 0, 0, (0, first_token)
    io = hit_pos[i]
    hi = bisect_left(hit_pos, io + tokens)
    return win_score, _centred(io, hit_pos[hi - 1] + hits[hi - 1][2], n_tokens, tokens), (io, hit_off[i])


def _centred(io: int, last: int, n_tokens: int, tokens: int) -> int:
    """The first token of the window of the hit at ``io``, centred on the hits it holds
    (``last``: the end of the last one) and kept inside the text."""
    adj = io - _c_half(tokens - (last - io))
    if adj + tokens > n_tokens:
        adj = n_tokens - tokens
    return max(adj, 0)


# From this many hits on, a text's windows are scored with arrays (numpy): a fixed cost
# of some tens of microseconds, then little per hit.
MANY_HITS = 64


def _best_window_many(t: _Text, hits: list[tuple[int, int, int]], n_phrases: int, size: int | None, tokens: int,
                      first_token: int) -> tuple[int, int, tuple[int, int]] | None:
    """(token count, first token, a token's (position, offset) near it) of the window
    :func:`_best_window` chooses, computed for all hits at once; None when the text's token
    count is not ``size``."""
    import numpy as np

    marked = np.frombuffer(t.marked, np.uint8)
    starts = np.flatnonzero((marked[1:] == 97) & (marked[:-1] == 32))  # offsets of the tokens
    n_tokens = len(starts)
    if size is not None and size != n_tokens:
        return None
    arr = np.array(hits, dtype=np.int64)
    hit_off, hit_phrase = arr[:, 0], arr[:, 1]
    hit_pos = np.searchsorted(starts, hit_off)  # the tokens before each hit
    # by phrase: its hits' positions (scores count the phrases a window holds)
    by_phrase = [hit_pos[hit_phrase == k] for k in range(n_phrases)] if n_phrases > 1 else []

    def scores(first):  # _window_scores of windows starting at these positions
        end = first + tokens
        held = np.searchsorted(hit_pos, end) - np.searchsorted(hit_pos, first)
        if n_phrases == 1:
            return np.where(held > 0, 999 + held, 0)
        distinct = sum((np.searchsorted(p, end) - np.searchsorted(p, first)) > 0 for p in by_phrase)
        return 999 * distinct + held

    win = scores(hit_pos)
    i = int(np.argmax(win))  # the first best
    win_score = int(win[i])
    if n_tokens > tokens:
        sent_off = _sentence_starts_many(t, hit_off, first_token)
        sent_pos = np.searchsorted(starts, sent_off)
        sscores = np.where(sent_pos >= hit_pos, -1, scores(sent_pos) + np.where(sent_pos == 0, 120, 100))
        j = int(np.argmax(sscores))
        sbest = int(sscores[j])
        if sbest > win_score or (sbest == win_score and j < i):
            return n_tokens, int(sent_pos[j]), (int(sent_pos[j]), int(sent_off[j]))
    if win_score <= 0:
        return n_tokens, 0, (0, first_token)
    io = int(hit_pos[i])
    hi = int(np.searchsorted(hit_pos, io + tokens))
    last = int(hit_pos[hi - 1]) + hits[hi - 1][2]
    return n_tokens, _centred(io, last, n_tokens, tokens), (io, int(hit_off[i]))


def _sentence_starts_many(t: _Text, hit_off, first_token: int):
    """For each hit (``hit_off``, a numpy array), the offset of the last sentence start at or
    before it, as :func:`_sentence_before` finds them (the first token if none): a token
    after a run of whitespace that follows a "." or ":"."""
    import numpy as np

    end = int(hit_off[-1]) + 1
    flat = np.frombuffer(t.raw[:end].translate(_SENTENCE_CLASS), np.uint8)
    space = flat == 32
    # runs of whitespace: [run_start, run_end)
    run_start = np.flatnonzero(space[1:] & ~space[:-1]) + 1
    run_end = np.flatnonzero(~space[1:] & space[:-1]) + 1
    if len(run_end) and (not len(run_start) or run_end[0] < run_start[0]):
        run_end = run_end[1:]  # a run at the text's start follows nothing
    run_start = run_start[:len(run_end)]  # a run reaching the end has no token after it
    cls = np.frombuffer(t.cls, np.uint8)
    ok = (flat[run_start - 1] == 46) & (cls[run_end] == 97)
    found = run_end[ok]
    k = np.searchsorted(found, hit_off, side="right") - 1
    return np.where(k >= 0, found[np.maximum(k, 0)] if len(found) else first_token, first_token)


def _window_scores(starts: list[int], hit_pos: list[int], hit_phrase: list[int], n_phrases: int,
                   tokens: int) -> list[int]:
    """For each (non-decreasing) window start, 1000 per phrase with a hit in the window
    [start, start + tokens) and 1 per further hit."""
    if n_phrases == 1:  # 1000 for the first hit, 1 for each further one
        return [999 + c if (c := bisect_left(hit_pos, start + tokens) - bisect_left(hit_pos, start)) else 0
                for start in starts]
    nh = len(hit_pos)
    counts = [0] * n_phrases
    lo = hi = distinct = 0  # hits [lo, hi) lie in the window
    out = []
    for start in starts:
        end = start + tokens
        while hi < nh and hit_pos[hi] < end:
            p = hit_phrase[hi]
            if not counts[p]:
                distinct += 1
            counts[p] += 1
            hi += 1
        while lo < hi and hit_pos[lo] < start:
            p = hit_phrase[lo]
            counts[p] -= 1
            if not counts[p]:
                distinct -= 1
            lo += 1
        out.append(999 * distinct + hi - lo)
    return out


def _sentence_before(t: _Text, hit_off: list[int], hit_pos: list[int],
                     first_token: int) -> tuple[list[int], list[int]]:
    """For each hit, the (position, offset) of the last sentence start at or before it: a
    token after a "." or ":" and whitespace, or the first token. Each is looked for
    backwards from its hit to the one before (few hits; many: :func:`_sentence_starts_many`)."""
    cls, marked = t.cls, t.marked
    # searched in a copy with b"." for "." and ":", b" " for whitespace
    flat = t.raw[:hit_off[-1] + 1].translate(_SENTENCE_CLASS)
    rfind, spaces = flat.rfind, _SPACE_RUN.match
    out_pos, out_off = [], []
    sp, so = 0, first_token
    prev_off, prev_pos = 0, 0  # the hit before (its token count before it is known)
    for off, pos in zip(hit_off, hit_pos):
        end = off
        while (d := rfind(b". ", prev_off, end)) >= 0:
            run = spaces(flat, d + 1)  # "." and whitespace, then a token: a sentence starts
            e = run.end() if run else d + 1
            if cls[e] == 97:
                sp, so = prev_pos + marked.count(_TOKEN_START, prev_off, e + 1), e
                break
            end = d + 1
        out_pos.append(sp)
        out_off.append(so)
        prev_off, prev_pos = off, pos
    return out_pos, out_off


def _window_text(t: _Text, start: int, anchor: tuple[int, int], n_tokens: int, tokens: int,
                 ellipsis: str) -> str:
    """The text of tokens [start, start + tokens) as snippet() cuts it: from the window's
    first token (the text's start for the first window) to the end of its last token, or to
    the end of the text when the window reaches the last token. ``anchor``: a token's
    (position, byte offset) near ``start``."""
    raw = t.raw
    first = _token_offset(t, start, anchor) if n_tokens else 0
    a = 0 if start == 0 else first
    head = ellipsis if start > 0 else ""
    last = start + tokens - 1
    if last >= n_tokens - 1:
        return head + raw[a:].decode("utf-8")
    end = t.token_at(_token_offset(t, last, (start, first)))
    return head + raw[a:end].decode("utf-8") + ellipsis


_STARTS = re.compile(rb"(?<!a)a")


def _token_offset(t: _Text, target: int, anchor: tuple[int, int]) -> int:
    """Byte offset where token ``target`` starts, walking from the token at a known
    (position, byte offset)."""
    pos, off = anchor
    if target == pos:
        return off
    cls = t.cls
    if target > pos:
        for k, m in enumerate(_STARTS.finditer(cls, off)):
            if pos + k == target:
                return m.start()
        return len(cls)
    need = pos - target  # token starts before `off` to step back over
    width = 256
    while True:
        lo = max(0, off - width)
        starts = [m.start() for m in _STARTS.finditer(cls, lo, off)]
        if len(starts) > need or (len(starts) == need and lo == 0):
            return starts[len(starts) - need]
        if lo == 0:
            return 0
        width *= 4

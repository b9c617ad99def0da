"""The fast paths of the citation core give exactly what the plain algorithms give.

``View`` builds folded text and offset maps with ``str.translate`` and, when few characters
change length, a sparse map (``_Shifts``). ``fragment_for`` first searches only for the
shortest directive. Both are checked here against straightforward reference versions, on
random text full of the characters that change length when folded, and on the seeded
pages of the other citation tests.
"""

from __future__ import annotations

import random
import re
from bisect import bisect_right
from itertools import accumulate

import pytest

from deep_research.citations.fragments import (
    _fold_keep_space,
    _Generator,
    fragment_for,
    match_directive,
)
from deep_research.citations.page.text import _WS, View, fold_char, translate
from deep_research.citations.page import render
from deep_research.citations.verify import _canon_char, _deep_char
from tests.citations.page_gen import GENERATORS, sentence_spans, word_subspans

FOLDS = [(_canon_char, True), (_deep_char, True), (fold_char, False), (_fold_keep_space, False)]
# Characters that fold to nothing (soft hyphen, zero-width space, whitespace in some
# views), to several characters (ligature, ellipsis, sharp s, Arabic ligature) or that
# regex classes treat specially (] ^ \).
ODD = ["\u00a0", "\u2019", "\u201c", "\ufb01", "\u2026", "\u00e9", "e\u0301", "\u00ad", "\u200b",
       "\u8336", "\uff76", "\u30a2", "\u3000", "\r", "\u00df", "\u0130", "\u2167", "\ufdfa",
       "]", "^", "\\", "-", "\x00", "\n", "\t", "  "]


# what a collapsing view drops, written as one plain pattern (the view finds it otherwise)
_WS_EXTRA = re.compile(rf"\A{_WS}+|{_WS}{_WS}+")


def reference_view(source: str, fold, collapse: bool) -> tuple[str, list[int]]:
    parts = [fold(ch) for ch in source]
    if collapse:
        for m in _WS_EXTRA.finditer(source):
            a, b = m.span()
            keep = 0 if a == 0 else 1
            parts[a + keep : b] = [""] * (b - a - keep)
    return "".join(parts), list(accumulate(map(len, parts), initial=0))


def random_texts(n: int):
    rng = random.Random(11)
    for _ in range(n):
        if rng.random() < 0.5:  # mostly letters: the sparse map
            yield "".join(rng.choice("abcdef gh") if rng.random() < 0.97 else rng.choice(ODD)
                          for _ in range(rng.randint(0, 300)))
        else:  # dense with odd characters: the dense array
            yield "".join(rng.choice(ODD + list("ab ")) for _ in range(rng.randint(0, 40)))


def test_view_matches_the_per_character_reference():
    kinds = set()
    for source in random_texts(1500):
        for fold, collapse in FOLDS:
            view = View(source, fold, collapse)
            text, offsets = reference_view(source, fold, collapse)
            kinds.add(type(view.offsets).__name__)
            assert view.text == text, (source, fold)
            assert len(view.offsets) == len(offsets)
            assert [view.offsets[i] for i in range(len(offsets))] == offsets, (source, fold)
            for pos in range(len(text) + 2):
                assert view.to_source(pos) == bisect_right(offsets, pos) - 1, (source, fold, pos)
    assert kinds == {"_Shifts", "array"}  # both representations were exercised


def test_translate_gives_what_str_translate_gives():
    """``page.text.translate``: ASCII through bytes, the rest where it occurs; on text mostly
    ASCII (the bytes path), mostly not (``str.translate``), with lone surrogates, characters
    that fold to nothing or to several, and tables that map an ASCII character to nothing,
    to several characters or to a character over U+007F (``str.translate`` again)."""
    rng = random.Random("translate")
    paths = set()
    pool = ODD + ["\ud800", "\udfff", "\U0001d11e", "\u00b6", "\u00e9", "\u4e00"]
    folds = [fold for fold, _ in FOLDS] + [
        lambda ch: chr(len(fold_char(ch))),  # a view's character lengths
        lambda ch: "" if ch == " " else ch.upper(),
        lambda ch: "ab" if ch == "a" else ch,
        lambda ch: "\u00e9" if ch == "e" else ch,
    ]
    for _ in range(600):
        odd = rng.choice([0.0, 0.01, 0.05, 0.3])
        text = "".join(rng.choice(pool) if rng.random() < odd else rng.choice("abcde fgh.,\n")
                       for _ in range(rng.randint(0, 400)))
        for fold in folds:
            table = {ord(c): fold(c) for c in set(text)}
            assert translate(text, table) == text.translate(table), (text, fold)
            data = text.encode("utf-8", "surrogatepass")
            paths.add(text.isascii() or len(data) - len(text) > len(text) // 8)
    assert paths == {True, False}  # both the bytes path and str.translate were taken


def test_view_spans_map_back_to_the_source():
    source = "Caf\u00e9  \u2014 \ufb01ne\u2026  \u201cquoted\u201d text"
    view = View(source, _canon_char, collapse=True)
    pos = view.text.index('"quoted"')
    a, b = view.source_span(pos, pos + len('"quoted"'))
    assert source[a:b] == "\u201cquoted\u201d"
    pos = view.text.index("fine...")
    a, b = view.source_span(pos, pos + len("fine..."))
    assert source[a:b] == "\ufb01ne\u2026"


def test_sparse_offsets_refuse_positions_outside_the_text():
    view = View("abc\u00ad", fold_char, collapse=False)
    with pytest.raises(IndexError):
        view.offsets[5]


def full_search(page, a, b):
    """fragment_for without the shortest-first search: every candidate, shortest first."""
    gen = _Generator(page, a, b, 3, 10, 10)
    for _, d in gen.candidates():
        if match_directive(page, d) == (a, b):
            return d
    return None


@pytest.mark.parametrize("kind", list(GENERATORS))
def test_shortest_first_search_picks_the_same_directive(kind):
    checked = 0
    for seed in range(4):
        rng = random.Random(f"views-{kind}-{seed}")
        content, fmt = GENERATORS[kind](rng)
        page = render(content, fmt)
        spans = sentence_spans(page.text)
        for s in list(spans):
            spans += word_subspans(page.text, s, rng, 2)
        for a, b in spans:
            frag = fragment_for(page, a, b)
            if frag.words_only:  # nothing for the whole span; the same search for its words
                assert full_search(page, a, b) is None, page.text[a:b]
                assert frag.directive == full_search(page, frag.start, frag.end), page.text[a:b]
            else:
                assert frag.directive == full_search(page, a, b), page.text[a:b]
            checked += 1
    assert checked > 20


def test_segment_limits_agree_with_in_one_segment():
    """``segment_end``/``segment_start`` (the fragment scans' loop bounds) give exactly the
    positions for which ``in_one_segment`` holds, on text full of line breaks, tabs, runs
    of spaces and uncertain-markup cuts."""
    from array import array

    from deep_research.citations.page.text import PageText

    rng = random.Random("segments")
    checked = 0
    for _ in range(300):
        n = rng.randint(0, 30)
        text = "".join(rng.choice(["a", "b", " ", " ", "  ", "\n", "\t", ".", "\u00a0"]) for _ in range(n))
        n = len(text)
        cuts = frozenset(rng.sample(range(n + 1), rng.randint(0, min(4, n + 1))))
        page = PageText(text, text, array("i", range(n)), array("i", range(1, n + 1)), cuts)
        for a in range(n + 1):
            limit = page.segment_end(a)
            assert [e for e in range(a + 1, n + 1) if page.in_one_segment(a, e)] == \
                list(range(a + 1, min(n, limit) + 1)), (text, sorted(cuts), a)
        for e in range(1, n + 1):
            first = page.segment_start(e)
            assert [s for s in range(e) if page.in_one_segment(s, e)] == list(range(max(0, first), e)), \
                (text, sorted(cuts), e)
            checked += 1
    assert checked > 1000


def test_term_word_counts_equal_the_plain_count():
    """The fragment scans count a term's words from one scan of the quote
    (``_TermWords``); each count equals ``_words`` of the term's text, with ideographs,
    underscores, digits, accents and punctuation in the text."""
    from deep_research.citations.fragments import _TermWords, _words

    rng = random.Random("term-words")
    alphabet = ["a", "b", "7", "_", " ", ".", "-", "\u00e9", "e\u0301", "\u8336", "\u30a2", "\uff76", "\u00a0",
                "\u2019", "\n"]
    checked = 0
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        a = rng.randint(0, len(text))
        b = rng.randint(a, len(text))
        terms = _TermWords(text, a, b)
        for c in range(a, b + 1):
            assert terms.head(c) == _words(text[a:c]), (text, a, b, c)
            assert terms.tail(c) == _words(text[c:b]), (text, a, b, c)
            checked += 1
    assert checked > 1000


def test_a_refolded_view_is_the_view_of_the_other_fold():
    """``View.refold``: the same text and offsets as a view made anew with the other fold,
    the offsets shared only when the folds give every character the same length."""
    rng = random.Random(11)
    alphabet = list("aB9 .,\n\t") + ["  ", "\n\n ", "É", "é", "ﬁ", "\u0301", "\u00ad", "’", "—", "\x1b", "ß", "İ"]
    texts = ["", " lead", "Plain text with  two spaces.\nNext line", "Café ﬁle — naïve"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40))) for _ in range(3000)]
    shared = 0
    for text in texts:
        for collapse in (True, False):
            canon = View(text, _canon_char, collapse=collapse)
            deep = canon.refold(text, _deep_char)
            fresh = View(text, _deep_char, collapse=collapse)
            assert deep.text == fresh.text, text
            assert [deep.offsets[i] for i in range(len(text) + 1)] == [fresh.offsets[i] for i in range(len(text) + 1)]
            assert [deep.to_source(p) for p in range(len(deep.text))] == [fresh.to_source(p) for p in range(len(fresh.text))]
            shared += deep.offsets is canon.offsets
    assert 0 < shared < 2 * len(texts)  # both the shared and the rebuilt case were seen

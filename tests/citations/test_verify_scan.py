"""The token-run search without a page's token index (IndexedSource._scan_tokens) gives
the index's answer, and a quote repaired for its case builds no index of its page."""

from __future__ import annotations

import random

import pytest

from deep_research.citations import verify
from deep_research.citations.model import Source, Verdict
from deep_research.citations.verify import IndexedSource, SourceIndex

# pieces a page is made of: words (some accented, some joined by . , ' : as one token),
# numbers with signs and units, symbols away from digits, Chinese characters (a token each),
# punctuation runs and whitespace of several kinds
_PIECES = [
    "the", "The", "other", "there", "a", "an", "cat", "Cat", "café", "CAFÉ", "naïve", "don't", "don’t",
    "3.5", "1,000", "-5", "$5", "5%", "±2", "x²", "e.g.", "U.S.", "foo_bar", "a:b", "中文", "字",
    "-", "%", "$", "...", "—", "–", "(", ")", "[", "]", "\"", "“", "”", ",", ".", ";", "!", "?", "'",
    "\u00ad", "\u200b", "ﬁne", "Straße", "STRASSE", "İstanbul", "12", "2", "1", "5", "50",
]
_GAPS = [" ", " ", " ", "  ", "\n", "\t", "", ", ", " - ", "—", "\u00a0", " (", ") "]


def _page(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(_PIECES) + rng.choice(_GAPS) for _ in range(n))


def _runs(rng: random.Random, toks: list[str], k: int) -> list[list[str]]:
    out = []
    for _ in range(k):
        i = rng.randrange(len(toks))
        q = toks[i:i + rng.choice([1, 1, 2, 3, 4, 6, 12])]
        roll = rng.random()
        if roll < 0.2:
            q = q[:-1] + [q[-1] + "x"]  # a last token the page does not have there
        elif roll < 0.3:
            q = [q[0][: max(1, len(q[0]) // 2)]] + q[1:]  # the head of a longer token
        elif roll < 0.45:
            q = [rng.choice(["a", "1", "5", "the", "-", "%", "e", "s", "2", "字"])] + q[1:3]
        out.append(q)
    return out


@pytest.mark.parametrize("seed", range(40))
def test_scan_gives_the_index_answer(seed):
    rng = random.Random(seed)
    src = Source("s", "https://example.org/p", _page(rng, rng.choice([20, 200, 800])), format="text")
    indexed, scanned = IndexedSource(src), IndexedSource(src)
    joined, _, _ = indexed.token_index
    toks = joined.strip("\x1f").split("\x1f")
    assert toks != [""]
    for q in _runs(rng, toks, 60):
        expected = indexed.find_tokens(q)
        got = scanned._scan_tokens(q)
        if got is not verify._UNDECIDED:
            assert got == expected, q
        assert scanned.find_tokens(q) == expected, q
    assert scanned.token_set == indexed.token_set


def test_scan_hands_over_to_the_index_when_the_head_keeps_missing():
    # "a" is the head of every "ab", never a token of its own there: after SCAN_TRIES places
    # the scan gives up and the index answers
    src = Source("s", "https://example.org/p", "ab " * 40 + "a b c", format="text")
    ix = IndexedSource(src)
    assert ix._scan_tokens(["a", "b"]) is verify._UNDECIDED
    assert "token_index" not in ix.__dict__
    span = ix.find_tokens(["a", "b"])
    assert "token_index" in ix.__dict__
    assert span is not None and src.page.text[span[0]:span[1]] == "a b"


def test_a_quote_repaired_for_its_case_builds_no_token_index():
    text = ("Intro line. " * 50 + "The quick brown fox jumps over the lazy dog. " + "Other text follows. " * 50)
    src = Source("s", "https://example.org/p", text, format="text")
    index = SourceIndex([src])
    check = index.verify("the quick brown fox jumps over the lazy dog.", "s")
    assert check.status is Verdict.REPAIRED
    assert src.page.text[check.start:check.end] == "The quick brown fox jumps over the lazy dog"  # (its words)
    assert "token_index" not in index.sources["s"].__dict__


def test_repairs_read_alike_with_and_without_the_index():
    # the same quotes verified against pages whose token index was built first (the search
    # the scan stands in for) and against fresh pages
    rng = random.Random(7)
    pages = [_page(rng, 300) for _ in range(4)]
    quotes = []
    for p in pages:
        words = p.split()
        for _ in range(40):
            i = rng.randrange(len(words))
            q = " ".join(words[i:i + rng.randint(2, 9)])
            roll = rng.random()
            if roll < 0.3:
                q = q[:1].swapcase() + q[1:]
            elif roll < 0.5:
                q = q.replace(",", "").replace("-", " ")
            elif roll < 0.6:
                q = q.upper()
            quotes.append(q)

    def sources():
        return [Source(f"s{i}", f"https://example.org/{i}", p, format="text") for i, p in enumerate(pages)]

    fresh, built = SourceIndex(sources()), SourceIndex(sources())
    for ix in built.sources.values():
        ix.canon_view  # noqa: B018 - the views in the order a check builds them
        ix.token_index  # noqa: B018
    for n, q in enumerate(quotes):
        sid = f"s{n % len(pages)}"
        assert fresh.verify(q, sid) == built.verify(q, sid), q


def test_scan_hands_over_to_the_index_in_text_without_spaces():
    # a Chinese page has no space to start the tokenizer from near a place far into it
    text = "中文字" * 600 + "句子结束。"
    src = Source("s", "https://example.org/p", text, format="text")
    ix = IndexedSource(src)
    assert ix._scan_tokens(["句", "子"]) is verify._UNDECIDED
    span = ix.find_tokens(["句", "子"])
    assert span is not None and text[span[0]:span[1]] == "句子"
    assert IndexedSource(src)._scan_tokens(["中", "文"]) == (0, 2)  # near the start: no hand-over

"""PageText.gap_is_whitespace finds a cut in the gap by a binary search: the same answer as
looking at every cut."""

from __future__ import annotations

import random
from array import array

from deep_research.citations.page.text import PageText


def _page(text: str, cuts: set[int]) -> PageText:
    n = len(text)
    return PageText(text, text, array("i", range(n)), array("i", range(1, n + 1)), frozenset(cuts))


def _definition(page: PageText, start: int, end: int) -> bool:
    return all(page.text[i].isspace() for i in range(start, end)) and not any(start <= c <= end for c in page.cuts)


def test_same_as_every_cut_looked_at():
    rng = random.Random(7)
    for _ in range(200):
        text = "".join(rng.choice("ab  \n\t") for _ in range(rng.randrange(1, 40)))
        cuts = {rng.randrange(len(text) + 1) for _ in range(rng.randrange(6))}
        page = _page(text, cuts)
        for a in range(len(text) + 1):
            for b in range(a, len(text) + 1):
                assert page.gap_is_whitespace(a, b) == _definition(page, a, b), (text, cuts, a, b)


def test_a_cut_at_either_end_of_the_gap_counts():
    page = _page("a   b", {1})
    assert not page.gap_is_whitespace(1, 4)
    assert not _page("a   b", {4}).gap_is_whitespace(1, 4)
    assert _page("a   b", {0, 5}).gap_is_whitespace(1, 4)

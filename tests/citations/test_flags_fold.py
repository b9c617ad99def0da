"""normalised_page folds a page once and reads its lines from the fold: the same page as
folding each line on its own (the definition), because folding keeps line breaks."""

from __future__ import annotations

import sys
import unicodedata

import pytest

from deep_research.citations import flags
from deep_research.citations.flags import NormalisedPage, _norm, normalised_page

# what str.splitlines breaks at
BREAKS = set("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")


def _definition(text: str) -> NormalisedPage:
    return NormalisedPage(_norm(text), [frozenset(_norm(x).split()) for x in text.splitlines() if x.strip()])


def test_no_character_folds_to_or_from_a_line_break():
    """The property the one fold relies on, for every character: a line break folds to
    itself, and no other character folds to text holding one."""
    bad = []
    for cp in range(sys.maxunicode + 1):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        c = chr(cp)
        folded = unicodedata.normalize("NFKC", c).casefold().replace("\u2019", "'")
        if (c in BREAKS and folded != c) or (c not in BREAKS and not BREAKS.isdisjoint(folded)):
            bad.append(hex(cp))
    assert bad == []


@pytest.mark.parametrize("text", [
    "", "one line", "Two\nlines", "a\u2028b\u2029c\x85d\re\r\nf\x0bg\x0ch\x1ci\x1dj\x1ek",
    "e\u0301\n\u0301a line that starts with a combining mark\ncafe\u0301", "\u00bd \ufb01ne \u212b \u2460 Stra\u00dfe",
    "  \n\n \t \nwords after blank lines\n\n", "x\u2019s O\u2019Brien isn\u2019t", "_under_score and snake_case_name",
    "\uff21\uff22\uff23 full width\n\u3000ideographic space", "\u0130stanbul \u0131 \u03a3\u03c3\u03c2",
    "a line with only punctuation\n...\n--- \n", "\r\r\n\n\r",
    "long " * 80 + "\nshort",  # a line over 256 characters and one under
])
def test_same_page_as_each_line_folded_alone(text):
    got, want = normalised_page(text), _definition(text)
    assert got.text == want.text
    assert got.lines == want.lines
    assert got.words == want.words


def test_falls_back_to_the_definition_if_lines_ever_differ(monkeypatch):
    monkeypatch.setattr(flags, "_fold", lambda t: t + "\nextra")
    got = normalised_page("A\nB")
    want = _definition("A\nB")
    assert (got.text, got.lines) == (want.text, want.lines)

"""A number written with groups of thousands keeps one separator: "683 145,000" (two figures
of a list, claims-fresh40 cu0095) is 683 and 145,000, not 683,145,000 - which flagged a
correct claim with "145,000" as a wrong number."""

from __future__ import annotations

import pytest

from deep_research.citations.claims import check_claim
from deep_research.citations.claims.analysis import _TOKEN, _TOKEN_ASCII, _tokens, _tokens_at

QUOTE = ("2008 ---- November: Command line options: 128 Public functions in libcurl: 58 Contributors: 683 "
         "145,000 unique visitors. >100 GB downloaded.")


def test_a_correct_figure_after_another_figure_is_not_flagged():
    r = check_claim("In November 2008 the site had 145,000 unique visitors.", [QUOTE])
    assert r.status.value != "unsupported", r.note


def test_a_changed_figure_there_is_still_caught():
    r = check_claim("In November 2008 the site had 154,000 unique visitors.", [QUOTE])
    assert r.status.value == "unsupported" and r.rule == "number", r.note


@pytest.mark.parametrize("text, numbers", [
    ("683 145,000 visitors", ["683", "145000"]),
    ("1,000 200 people", ["1000", "200"]),
    ("1 000 000 cases", ["1000000"]),
    ("1,234,567 rows", ["1234567"]),
    ("12 345.5 km", ["12345.5"]),
    ("3 200,5 m", ["3200", "5"]),  # a decimal comma after space groups: as before
])
def test_grouped_thousands_keep_one_separator(text, numbers):
    toks = _tokens(text)[0]
    assert [t for t in toks if t[0].isdigit()] == numbers
    assert _tokens(text) == _tokens_at(text, _TOKEN_ASCII if text.isascii() else _TOKEN)

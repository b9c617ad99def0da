"""Claim units cut from the document: which report text each ref supports."""

from __future__ import annotations

import pytest

from deep_research.citations.document import parse

Q = '<ref id="a">"The pile gets hot."</ref>'
Q2 = '<ref id="b">"The pile stays hot."</ref>'


def claims(md: str) -> list[tuple[str, list[int]]]:
    return [(c.text, c.ref_indexes) for c in parse(md).claims]


@pytest.mark.parametrize("md, expected", [
    # a closing quote and period the split leaves on their own join the sentence before
    ('The pile gets hot. ". ' + Q, 'The pile gets hot. ".'),
    ('The pile gets hot. ... ' + Q, "The pile gets hot...."),
    ('The pile gets hot. ) ' + Q, "The pile gets hot. )"),
    # two refs whose quotes end in a period, then the sentence's own period
    ("The pile gets hot " + Q + " " + Q2 + ".", "The pile gets hot."),
])
def test_a_split_leftover_joins_the_sentence_before(md, expected):
    (claim,) = parse(md).claims
    assert claim.text == expected


def test_leftovers_never_make_a_claim_of_their_own():
    md = 'First sentence here. ". ' + Q + " Second sentence there " + Q2 + "."
    texts = [c.text for c in parse(md).claims]
    assert texts == ['First sentence here. ".', "Second sentence there."]
    assert all(any(ch.isalnum() for ch in t) for t in texts)


@pytest.mark.parametrize("md", [
    "| Material | Source |\n|---|---|\n| Leaves | " + Q + " |\n",  # a table cell holding only a ref
    "The pile gets hot.\n\n" + Q + "\n",  # a ref alone in its paragraph
    "- The pile gets hot.\n- " + Q + "\n",  # a list item holding only a ref
])
def test_a_ref_alone_in_its_unit_has_no_claim_text(md):
    (claim,) = parse(md).claims
    assert claim.text == ""


def test_a_ref_on_the_line_after_its_sentence_supports_that_sentence():
    # one paragraph (no blank line): the ref follows the sentence, as a renderer shows it
    assert claims("The pile gets hot.\n" + Q + "\n") == [("The pile gets hot.", [0])]
    assert claims("The pile gets hot.\n" + Q.replace('hot."', 'hot"') + "\n") == [("The pile gets hot.", [0])]


def test_units_follow_blocks_not_code():
    md = ("## 2.1 Heat " + Q + "\n\n```\nfenced " + Q2 + "\n```\n\n"
          "> Quoted claim " + Q2 + ".\n\n"
          "Intro line\n| A | B |\n|---|---|\n| cell text " + Q2 + " | " + Q2 + " |\n")
    assert claims(md) == [("Heat", [0]), ("Quoted claim.", [1]), ("cell text", [2]), ("", [3])]


def test_paragraph_lines_that_start_items_are_units():
    md = "Intro line\n2. second item " + Q + "\n• bullet item " + Q2 + "\n"
    assert claims(md) == [("second item", [0]), ("bullet item", [1])]

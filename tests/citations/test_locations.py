"""Reading location marks: where a span of a local document is, in words."""

from __future__ import annotations

from urllib.parse import unquote

import pytest

from deep_research.citations.check import PDF_SEARCH_CHARS, check_citations, with_pdf_page
from deep_research.citations.locations import MAX_LABEL_CHARS, clean_label, locate, parse_locations
from deep_research.citations.model import Source
from deep_research.errors import UserError
from deep_research.inputs import parse_sources

PAGES = "Alpha page one.\nBeta page two starts here\nGamma page three."
PAGE_MARKS = [[0, "page", 1], [16, "page", 2], [42, "page", 3]]


def test_a_span_is_named_by_the_mark_that_holds_it() -> None:
    start = PAGES.index("Beta")
    assert locate(PAGE_MARKS, PAGES, start, start + 4).text == "page 2"
    assert locate(PAGE_MARKS, PAGES, start, start + 4).page == 2
    across = locate(PAGE_MARKS, PAGES, start, PAGES.index("three"))
    assert (across.text, across.page) == ("pages 2\u20133", 2)  # the link opens where the quote starts
    assert locate(None, PAGES, 0, 4) is None and locate([], PAGES, 0, 4) is None
    assert locate([[10, "page", 4]], PAGES, 0, 5) is None  # before the first mark: not known


def test_rows_count_lines_from_their_mark() -> None:
    text = "# Sheet: Prices\nA | B\nA: 1; B: 2\nA: 3; B: 4\n# Sheet: Other\nX\nY"
    marks = [[0, "sheet", "Prices", None], [16, "sheet", "Prices", 3],
             [text.index("# Sheet: Other"), "sheet", "Other", None], [text.index("X"), "sheet", "Other", 7]]
    at = lambda s: text.index(s)
    assert locate(marks, text, 0, 5).text == "sheet Prices"
    assert locate(marks, text, at("A: 3"), at("A: 3") + 4).text == "sheet Prices, row 5"
    assert locate(marks, text, at("A: 1"), at("A: 3") + 4).text == "sheet Prices, rows 4\u20135"
    assert locate(marks, text, at("Y"), at("Y") + 1).text == "sheet Other, row 8"
    assert locate(marks, text, at("A: 3"), at("X") + 1).text == "sheet Prices, row 5 to sheet Other, row 7"
    csv_text = "H\nr2\nr3"
    assert locate([[0, "row", 1]], csv_text, 5, 7).text == "row 3"
    assert locate([[0, "chapter", 3, "Heat"]], csv_text, 0, 1).text == "chapter 3: Heat"
    assert locate([[0, "chapter", 4, ""]], csv_text, 0, 1).text == "chapter 4"


def test_malformed_marks_are_dropped_and_names_cleaned() -> None:
    got = parse_locations([
        [0, "page", 1],
        [5, "page", True],  # a bool is no page number
        ["7", "slide", 2],  # nor a string an offset
        [8, "script", 1],  # unknown kind
        [9, "sheet", "A\x1b[31mB\u202e" + "x" * 200, 4],
        [3, "page", 9],  # out of order
        [12, "chapter", 2, ["not", "a title"]],
        [13, "row", 0],
        "junk",
    ])
    assert got[0] == [0, "page", 1] and [m[1] for m in got] == ["page", "sheet", "row"]
    name = got[1][2]
    assert "\x1b" not in name and "\u202e" not in name and "\\x1b" in name
    assert len(name) == MAX_LABEL_CHARS and name.endswith("\u2026")
    assert parse_locations("page 1") is None and parse_locations([["x"]]) is None
    assert clean_label("  Two\n lines\t here ") == "Two lines here"


def test_only_a_pdf_link_gets_a_page() -> None:
    content = "First page text here.\nSecond page quote sits here."
    marks = [[0, "page", 1], [22, "page", 2]]
    report = 'It <ref id="p">"Second page quote sits here."</ref> and <ref id="h">"Second page quote sits here."</ref>.'
    pdf = Source("p", "https://example.org/a.pdf#old", content, locations=marks)
    html = Source("h", "https://example.org/a.html", content, locations=marks)
    a, b = check_citations(report, [pdf, html]).citations
    assert a.url == ("https://example.org/a.pdf#page=2&search=Second%20page%20quote%20sits%20here.&phrase=true")
    assert a.location.text == "page 2"
    assert b.url.startswith("https://example.org/a.html#:~:text=") and b.location.text == "page 2"


def test_the_pdf_search_phrase_is_bounded_and_cannot_break_the_fragment() -> None:
    long = 'He said "stop" & left #now ' + "word " * 100
    url = with_pdf_page("file:///d/a.pdf#x", 3, long)
    head, search = url.split("&search=")
    assert head == "file:///d/a.pdf#page=3" and search.endswith("&phrase=true")
    phrase = unquote(search.removesuffix("&phrase=true"))
    assert phrase.startswith("He said stop & left #now word") and '"' not in phrase
    assert len(phrase) <= PDF_SEARCH_CHARS and phrase.endswith("word")
    assert "#" not in search and "&" not in search.removesuffix("&phrase=true") and " " not in search
    assert with_pdf_page("file:///d/a.pdf", 2, None) == "file:///d/a.pdf#page=2"


def test_a_sources_file_may_carry_locations() -> None:
    loaded = parse_sources([{"id": "a", "url": "file:///d/a.pdf", "content": "x\ny",
                             "locations": [[0, "page", 1], [2, "page", 2], [1, "bogus"]]}])
    assert loaded.sources[0].locations == [[0, "page", 1], [2, "page", 2]]
    with pytest.raises(UserError, match="locations"):
        parse_sources([{"id": "a", "url": "file:///d/a.pdf", "content": "x", "locations": "page 1"}])

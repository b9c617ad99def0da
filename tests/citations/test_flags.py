"""Uncited statements, impossible dates, invented names (citations.flags) and contradictions
between cited quotes beyond numbers (evidence.quote_contradictions), through check_citations
and publish_report."""

from __future__ import annotations

import datetime as dt
import json
import random

import pytest

from deep_research.citations.check import check_citations
from deep_research.citations.claims import ClaimStatus
from deep_research.citations.document import parse
from deep_research.citations.evidence import quote_contradictions
from deep_research.citations.flags import (
    date_problems,
    find_dates,
    invented_names,
    normalised_page,
    proper_names,
    uncited_statements,
)
from deep_research.citations.model import Source
from deep_research.publish import publish_report

TODAY = dt.date(2026, 11, 27)


# --- dates -------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "The treaty was signed on February 30, 2021.",
    "The treaty was signed on 30 February 2021.",
    "The release is dated 2024-13-01.",
    "The release is dated 2023-02-29.",
    "The form was filed on 31/31/2020.",
    "It happened on April 31.",
])
def test_a_date_that_cannot_exist_is_flagged(text):
    problems = date_problems(text, today=TODAY)
    assert len(problems) == 1 and problems[0][1].startswith("no such date")


@pytest.mark.parametrize("text", [
    "The treaty was signed on February 29, 2024.",
    "It was released on 2016-10-28.",
    "It happened on 28 October 2016, a Friday.",
    "The meeting was held on 12/11/2019.",  # two readings, both real
    "On 29 February the leap day falls.",
    "The port 2080 is used by the proxy.",
    "Version 2.0 was released in 2008.",
    "The Subject field was properly RFC 2047 encoded.",  # numbers that are not years (Python docs)
    "The GIL is released for data larger than 2047 bytes.",
    "The cookie was received as an RFC 2109 cookie.",
])
def test_a_real_date_is_not_flagged(text):
    assert date_problems(text, today=TODAY) == []


def test_a_year_after_the_run_stated_as_past_is_flagged_a_planned_one_is_not():
    flagged = date_problems("The standard was adopted in 2031.", today=TODAY)
    assert flagged and "after the run's date" in flagged[0][1]
    assert date_problems("On 3 December 2026 the company announced its results.", today=TODAY)
    assert date_problems("The standard will be adopted in 2031.", today=TODAY) == []
    assert date_problems("The plant is expected to open in 2030.", today=TODAY) == []
    assert date_problems("The standard was adopted in 2024.", today=TODAY) == []
    # the same sentence, a run earlier than the year: no longer after the run's date
    assert date_problems("The standard was adopted in 2031.", today=dt.date(2032, 1, 1)) == []


def test_a_claim_date_its_quote_contradicts_is_flagged():
    quote = ["Python 3.11 was released on 24 October 2022."]
    assert date_problems("Python 3.11 was released on 24 October 2021.", today=TODAY, quotes=quote)
    assert date_problems("Python 3.11 came out in 2021.", today=TODAY, quotes=quote)
    assert date_problems("Python 3.11 was released on 2022-10-24.", today=TODAY, quotes=quote) == []
    assert date_problems("Python 3.11 came out in 2022.", today=TODAY, quotes=quote) == []
    assert date_problems("Python 3.11 came out in October 2022.", today=TODAY, quotes=quote) == []


def test_find_dates_reads_each_date_once():
    dates = find_dates("Signed 2016-10-28, ratified 3 March 2017 and in force from May 2018; since 2019.")
    assert [(d.year, d.month, d.day) for d in dates] == [(2016, 10, 28), (2017, 3, 3), (2018, 5, None),
                                                         (2019, None, None)]
    assert find_dates("You may 5 times retry.") == []


# --- names -------------------------------------------------------------------------------------
PAGE = normalised_page(
    "Python was created by Guido van Rossum at CWI in the Netherlands.\n"
    "The Python Software Foundation holds the rights. WARNING is the default level of logging.\n"
    "Django's ORM maps models to tables.")


def test_proper_names_leave_out_sentence_openers_and_plain_words():
    assert proper_names("Because WARNING is the default level, the INFO message is not shown.") == ["WARNING",
                                                                                                    "INFO"]
    assert proper_names("Since Python 3.4, gc.garbage is empty.") == ["Python"]
    assert proper_names("A 10-character password needs a two-GiB file.") == ["GiB"]
    assert "Guido van Rossum" in proper_names("It was written by Guido van Rossum in 1991.")


def test_proper_names_of_a_text_asked_again_are_a_new_list():
    # the names are kept per text: what a caller does with its list is not seen by the next
    text = "The Bank of England met the Federal Reserve."
    names = proper_names(text)
    names.append("Mars")
    assert proper_names(text) == ["Bank of England", "Federal Reserve"]
    assert proper_names(text) is not proper_names(text)


def test_lower_case_words_join_or_end_a_name_run():
    # one connecting word joins two name words; a second one, punctuation or another
    # lower-case word ends the run (the common words take a shortcut of their own)
    assert proper_names("The rate was set by the Bank of England in May.") == ["Bank of England"]
    assert proper_names("It went from the Bank of the England office.") == ["Bank", "England"]
    assert proper_names("Ask the Bank of, England later.") == ["Bank", "England"]
    assert proper_names("The Bank of england said so.") == ["Bank"]
    assert proper_names("He met Anna and then Bob of Mars's crew.") == ["Anna", "Bob of Mars"]


def test_a_name_no_cited_page_holds_is_invented():
    assert invented_names("Python was created by James Gosling at CWI.", [PAGE]) == ["James Gosling"]
    assert invented_names("In Flask's ORM, models map to tables.", [PAGE]) == ["Flask"]
    assert invented_names("Python was created by Guido van Rossum at CWI.", [PAGE]) == []
    assert invented_names("Django's ORM maps models to tables.", [PAGE]) == []
    # the words of a multiword name on one line of the page, not in a row
    assert invented_names("The Foundation of Python Software holds the rights.", [PAGE]) == []
    assert invented_names("The logging default is WARNING.", [PAGE]) == []
    assert invented_names("No page, nothing to compare.", []) == []


def test_a_page_words_are_its_lines_words():
    # name look-ups read the word set of the lines for the page's text: the same words,
    # however the text breaks its lines and whatever normalising does to its characters
    odd = ["\n", "\r\n", "\r", "\u2028", "\x85", "\x1c", "\x0c", "  ", " ", "e\u0301", "\u0301", "\ufb01",
           "\u00c5", "\u2019s", "Stra\u00dfe", "\u2163", "x", "Y", "\u1100\u1161", "\u11a8", "_", "-", "\u00a0"]
    rng = random.Random(5)
    for _ in range(3000):
        text = "".join(rng.choice(odd) for _ in range(rng.randint(0, 12)))
        page = normalised_page(text)
        assert page.words == frozenset(page.text.split()), repr(text)
    assert PAGE.words == frozenset(PAGE.text.split())


def test_a_label_before_a_colon_at_the_start_of_a_line_is_not_a_name():
    """"In Hebrew:" before a Hebrew quote was flagged as an invented name: the page, in
    Hebrew, never holds the English word. A capitalised word right before a colon at the
    start of its line or sentence, alone or after one opening word, is a label. Narrow:
    the same word elsewhere, a run of several name words, or after other words is a name."""
    hebrew = normalised_page("שלום פירושו שלום ושגשוג.")
    for claim in ("In Hebrew: «שלום פירושו שלום»", "Notes follow.\nIn Arabic: «مرحبا»", "Translation: «שלום»",
                  "(In Hebrew: «שלום»)", "In Hebrew\uff1a «שלום»"):
        assert proper_names(claim) == [] and invented_names(claim, [hebrew]) == [], claim
    assert invented_names("The word in Hebrew: «שלום»", [hebrew]) == ["Hebrew"]  # not at the start
    assert invented_names("In Hebrew «שלום» is a greeting.", [hebrew]) == ["Hebrew"]  # no colon
    assert invented_names("In the Hebrew Bible: «שלום»", [hebrew]) == ["Hebrew Bible"]  # after two words
    assert invented_names("Microsoft Azure: «שלום»", [hebrew]) == ["Microsoft Azure"]  # several name words
    assert invented_names("It says In Hebrew: «שלום»", [hebrew]) == ["In Hebrew"]
    assert invented_names("In Python 3: «שלום»", [hebrew]) == ["Python"]


# --- uncited statements -----------------------------------------------------------------------
REPORT = """# Heat pumps in Norway

This report reviews heat pump adoption in Nordic countries.

In Norway, more than 60 percent of detached houses had a heat pump by 2020 <ref id="a">"In Norway, more than 60 percent of detached houses had a heat pump by 2020."</ref>.

Sweden installed 1.2 million units between 2010 and 2020.

Heat pumps are popular. Electricity is cheap in the north.

Finland has the largest market share in Europe.

Why did Norway adopt heat pumps so quickly in 2015?

| Country | Share |
|---|---|
| Norway | 60 percent <ref id="a">"more than 60 percent"</ref> |
| Denmark | 35 percent in 2021 |

```
print(2020 + 15 percent of homes)
```

## Limitations

Only 3 sources were read, all from 2020.

## Sources

- [a] Statistics Norway 2021 report
"""


def test_uncited_factual_sentences_are_flagged_and_nothing_else():
    doc = parse(REPORT)
    flagged = [f.text for f in uncited_statements(doc)]
    assert flagged == ["Sweden installed 1.2 million units between 2010 and 2020.",
                       "Finland has the largest market share in Europe.",
                       "| Denmark | 35 percent in 2021 |"] or flagged[:2] == [
        "Sweden installed 1.2 million units between 2010 and 2020.",
        "Finland has the largest market share in Europe."]
    assert len(flagged) == 3 and "Denmark" in flagged[2]
    for f in uncited_statements(doc):
        assert f.kind == "uncited" and REPORT.splitlines()[f.line - 1].strip()


def test_a_ref_after_the_period_cites_its_sentence():
    doc = parse('Sweden installed 1.2 million units in 2020. <ref id="a">"Sweden installed 1.2 million units"</ref>\n')
    assert uncited_statements(doc) == []


def test_names_mark_a_statement_only_in_english():
    doc = parse("Die Stadt Bergen liegt an der Küste Norwegens und ist bekannt.\n")
    assert [f.note for f in uncited_statements(doc, english=True)]
    assert uncited_statements(doc, english=False) == []


# --- through check_citations ------------------------------------------------------------------
SOURCES = [
    Source("a", "https://www.ssb.example/heat", "In Norway, more than 60 percent of detached houses had a heat pump "
           "by 2020. Python was created by Guido van Rossum at CWI."),
    Source("b", "https://other.example/python", "A short history of scripting languages, told by a forum post. "
           "Many readers wrote in about this page. Python was not created by Guido van Rossum at CWI. "
           "Other languages of the time included Perl, Tcl and the Bourne shell, each with its own community."),
]


def test_a_supported_claim_with_an_invented_name_is_never_green():
    md = ('Python was created by Guido van Rossum at CWI <ref id="a">"Python was created by Guido van Rossum at CWI."</ref>.\n\n'
          'Statistics Norway says more than 60 percent of detached houses in Norway had a heat pump by 2020 '
          '<ref id="a">"In Norway, more than 60 percent of detached houses had a heat pump by 2020."</ref>.\n')
    report = check_citations(md, SOURCES, today=TODAY)
    first, second = report.citations
    assert first.claim_status is ClaimStatus.SUPPORTED and first.confidence
    assert second.claim_status is not ClaimStatus.SUPPORTED and not second.trusted
    names = [f for f in report.flags if f.kind == "invented_name"]
    assert [f.value for f in names] == ["Statistics Norway"] and names[0].refs == [2]


def test_quotes_of_two_sources_with_opposite_polarity_are_a_contradiction():
    md = ('Python was created by Guido van Rossum <ref id="a">"Python was created by Guido van Rossum at CWI."</ref>.\n\n'
          'One page says otherwise <ref id="b">"Python was not created by Guido van Rossum at CWI."</ref>.\n')
    report = check_citations(md, SOURCES, today=TODAY)
    kinds = [d.kind for d in report.disagreements]
    assert kinds == ["negation"]
    d = report.disagreements[0].as_json()
    assert d["refs"] == [[1], [2]] and d["numbers"] == [[], []] and d["values"] == [[], ["not"]]


@pytest.mark.parametrize("a,b,kind", [
    ("Prices increased sharply across the region last year.", "Prices decreased sharply across the region last year.",
     "antonym"),
    ("The Eiffel Tower opened to the public in 1889 in Paris.", "The Eiffel Tower opened to the public in 1887 in Paris.",
     "date"),
    ("The Python language was created by Guido van Rossum at CWI.",
     "The Python language was created by James Gosling at CWI.", "name"),
    ("The tool supports Windows since version 2.", "The tool doesn't support Windows since version 2.", "negation"),
])
def test_contradiction_kinds(a, b, kind):
    found = quote_contradictions([(1, "x", a, "c1"), (2, "y", b, "c2")])
    assert [d.kind for d in found] == [kind]
    # one source, or two copies of one text, do not contradict each other
    assert quote_contradictions([(1, "x", a, "c1"), (2, "x", b, "c2")]) == []
    assert quote_contradictions([(1, "x", a, "c1"), (2, "y", b, "c2")], lambda p, q: True) == []


@pytest.mark.parametrize("a,b", [
    ("Django is a high-level web framework written in Python.", "Flask is a high-level web framework written in Python."),
    ("Python 3.10 was released in 2021 with pattern matching.", "Python 3.11 was released in 2022 with pattern matching."),
    ("The cache is enabled by default on Linux.", "The cache is enabled by default on Linux systems."),
    ("Heat pumps work well in cold climates.", "Modern turbines are noisy in windy valleys."),
])
def test_different_subjects_or_agreeing_quotes_are_not_a_contradiction(a, b):
    assert quote_contradictions([(1, "x", a, "c1"), (2, "y", b, "c2")]) == []


# --- published ---------------------------------------------------------------------------------
def test_publish_writes_the_flags_to_audit_citations_and_html(tmp_path):
    md = ("# Findings\n\n"
          'Statistics Norway says more than 60 percent of detached houses in Norway had a heat pump by 2020 '
          '<ref id="a">"In Norway, more than 60 percent of detached houses had a heat pump by 2020."</ref>.\n\n'
          "Sweden installed 1.2 million units between 2010 and 2020.\n\n"
          "The last survey was published in 2031 and found the same.\n\n"
          'Python was created by Guido van Rossum <ref id="a">"Python was created by Guido van Rossum at CWI."</ref>.\n\n'
          'One page says otherwise <ref id="b">"Python was not created by Guido van Rossum at CWI."</ref>.\n')
    result = publish_report(md, SOURCES, tmp_path, pdf=False, date=TODAY)
    audit = json.loads((tmp_path / "audit.json").read_text())
    s = audit["summary"]
    assert (s["uncited_statements"], s["impossible_dates"], s["invented_names"], s["sources_disagree"]) == (2, 1, 1, 1)
    assert [f["value"] for f in audit["invented_names"]] == ["Statistics Norway"]
    assert audit["impossible_dates"][0]["value"] == "2031" and audit["impossible_dates"][0]["line"] == 7
    assert audit["uncited_statements"][0]["text"].startswith("Sweden installed")
    assert audit["sources_disagree"][0]["kind"] == "negation"
    cites = json.loads((tmp_path / "citations.json").read_text())
    assert cites[0]["flags"][0]["kind"] == "invented_name" and cites[0]["claim_status"] == "unchecked"
    assert cites[1]["flags"] == []
    html = (tmp_path / "report.html").read_text()
    assert 'id="uncited-statements"' in html and "Sweden installed" in html
    assert 'id="flagged-claims"' in html and "Statistics Norway" in html
    assert 'contradiction-negation' in html
    assert 'href="#uncited-statements">2 factual statements without a citation' in html
    assert 'href="#flagged-claims">2 dates or names the sources do not bear out' in html
    assert result.summary()["uncited_statements"] == 2


def test_one_uncited_statement_and_one_flagged_name_are_counted_in_the_singular(tmp_path):
    md = ("# Findings\n\n"
          'Statistics Norway says more than 60 percent of detached houses in Norway had a heat pump by 2020 '
          '<ref id="a">"In Norway, more than 60 percent of detached houses had a heat pump by 2020."</ref>.\n\n'
          "Sweden installed 1.2 million units between 2010 and 2020.\n")
    publish_report(md, SOURCES, tmp_path, pdf=False, date=TODAY)
    html = (tmp_path / "report.html").read_text()
    assert 'href="#uncited-statements">1 factual statement without a citation<' in html
    assert 'href="#flagged-claims">1 date or name the sources do not bear out<' in html


@pytest.mark.parametrize("sentence,why", [
    ("Use sorted() to sort any iterable.", "name"),
    ("The value of gc.garbage is usually empty.", "name"),
    ("Pass --no-verify to skip the hooks.", "name"),
    ("Rust is the most loved language in surveys.", "superlative"),
    ("The fastest runners finish early.", "superlative"),
    ("About 40 percent of homes use it.", "number"),
    ("It was adopted in March 2019.", "date"),
    ("Heat pumps work in most cases.", None),
    ("It is fine, e.g. when the tank is full.", None),
    ("Composting reduces methane from landfills.", None),
])
def test_what_makes_a_sentence_factual(sentence, why):
    from deep_research.citations.flags import factual_signal

    assert factual_signal(sentence) == why



def test_quote_contradictions_keep_the_order_of_comparing_every_pair():
    """Quotes are compared only within a group of equal numbers; the disagreements still
    come in the order of the pairs (first quote, then second), not group by group."""
    items = [(1, "S1", "The cache keeps 5 entries in memory by default.", "c1"),
             (2, "S1", "The pool opens 7 connections at start.", "c2"),
             (3, "S2", "The pool does not open 7 connections at start.", "c3"),
             (4, "S2", "The cache does not keep 5 entries in memory by default.", "c4"),
             (5, "S3", "The cache keeps 5 entries in memory by default!", "c5"),
             (6, "S3", "The pool does not open 8 connections at start.", "c6")]  # other numbers: no pair
    found = quote_contradictions(items)
    assert [d.refs for d in found] == [([1], [4]), ([2], [3]), ([4], [5])]
    assert {d.kind for d in found} == {"negation"}


def test_find_dates_skips_only_text_no_date_pattern_can_match():
    """``find_dates`` returns at once for text without a digit; the full scan must find
    nothing in such text (month names, ordinals written out, "May" as a verb), and the
    same dates as before in text with one."""
    from deep_research.citations.flags import MONTHS, _scan_dates, find_dates

    words = sorted(MONTHS) + ["first", "twenty-first", "of", "the", "May", "since", "in", "year", "fifth",
                              "Monday", "spring", "FY", "circa", "/", "-", ".", ",", "th", "st"]
    rng = random.Random("no-digit-dates")
    for _ in range(400):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 12)))
        assert _scan_dates(text) == [], text
        assert find_dates(text) == []
    dated = "Released on March 5, 2021, and again on 2022-01-31; by 1999 it was done."
    assert [d.raw for d in find_dates(dated)] == [d.raw for d in _scan_dates(dated)] == \
        ["March 5, 2021", "2022-01-31", "1999"]


def test_date_problems_read_the_quotes_only_for_a_claim_with_dates():
    from deep_research.citations.flags import date_problems

    def unread():
        raise AssertionError("the quotes were read for a claim without a date")
        yield ""

    assert date_problems("The tool is written in Python.", quotes=unread()) == []
    assert date_problems("The tool was released in 2019.", quotes=["It was released in 2017."]) == [
        ("2019", "the claim says 2019; its quote says 2017")]


def test_an_uncited_table_row_is_quoted_as_its_cells_not_its_pipes():
    doc = parse("## Results\n\n| Country | Installed |\n|---|---|\n"
                "| Sweden installed 1.2 million heat pumps in 2020 | 1.2 million |\n")
    flagged = [f.text for f in uncited_statements(doc)]
    assert flagged == ["Sweden installed 1.2 million heat pumps in 2020 · 1.2 million"], flagged


def test_name_token_pattern_matches_as_the_alternation_it_replaced():
    """flags._NAME_TOKEN is written as runs for speed: the same matches, at the same
    places, as the per-character alternation it replaced, on random strings of the
    characters that decide (word characters, joiners, "+" "#", other scripts, spaces)."""
    import re

    from deep_research.citations import flags

    reference = re.compile(r"[^\W_](?:[\w+#]|[.\-'’&](?=[^\W_]))*[+#]*")
    rng = random.Random(23)
    alphabet = "aZ9_+#.-'’&&é中٣ß \n\t,;:()*\u00a0"
    texts = ["C++ and C# at AT&T", "O'Brien's U.S.A. co-op", "x.-y", "a..b", "++a++", "_a_", "Dr. Who's"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(20000)]
    for text in texts:
        assert [m.span() for m in flags._NAME_TOKEN.finditer(text)] == \
            [m.span() for m in reference.finditer(text)], text
        for pos in range(0, len(text), 7):
            a, b = flags._NAME_TOKEN.match(text, pos), reference.match(text, pos)
            assert (a and a.span()) == (b and b.span()), (text, pos)


def test_sentence_start_word_written_lower_case_later_is_no_name():
    # the text's lower-case words are read only when a capitalised opening word asks
    from deep_research.citations.flags import _LowerWords

    assert proper_names("Zorbing is fun. Many try zorbing in summer.") == []
    assert proper_names("Zorbing is fun. Many try it in summer.") == ["Zorbing"]
    words = _LowerWords("Alpha beta Gamma delta-epsilon")
    assert words.words is None
    assert "beta" in words and "delta-epsilon" in words
    assert "Alpha" not in words and "gamma" not in words


@pytest.mark.parametrize("text, expected", [
    ("Call sorted() on the list.", True),
    ("Pass --no-verify to skip the hooks.", True),
    ("Read gc.garbage after a collection.", True),
    ("The os.path.join helper builds paths.", True),
    ("It costs 3.5 dollars, e.g. on Mondays.", False),
    ("A plain sentence. Another one.", False),
    ("An em dash -- here -- is no option.", False),
    ("Version 2.x ships soon.", False),
])
def test_technical_names_found_as_the_full_pattern_finds_them(text, expected):
    from deep_research.citations.flags import _IDENTIFIER, has_identifier

    assert has_identifier(text) is expected
    assert has_identifier(text) == (_IDENTIFIER.search(text) is not None)


def test_a_table_that_cites_nowhere_is_one_uncited_statement():
    """A data table no row of which cites (an appendix of 120 measured rows) is one exhibit
    without a source: one flag, its first flagged row, with the number of rows (``rows``,
    in audit.json too), not 120 "statements" that buried the prose's in the count. Every
    row's dates are still checked; a row of a table that cites elsewhere, and every
    sentence of prose, stays a statement of its own."""
    data = "| Site | Year | Tonnes | Note |\n|---|---|---|---|\n" + "".join(
        f"| Site {i} | {2000 + i % 20} | {i * 7} | measured in spring |\n" for i in range(120))
    data = data.replace("| 2013 | 91 |", "| 2024-13-01 | 91 |")  # one impossible date, row 13
    md = ("## Data\n\nThe pilot ran in 14 towns across Norway between 2001 and 2019.\n\n" + data + "\n"
          "| Claim | Source |\n|---|---|\n"
          '| Python came from CWI | <ref id="a">"Python was created by Guido van Rossum at CWI."</ref> |\n'
          "| Norway had 60 percent coverage by 2020 | none |\n\n"
          "Most of the towns recycled more than 40 percent of their waste.\n")
    report = check_citations(md, SOURCES, today=TODAY)
    uncited = [f for f in report.flags if f.kind == "uncited"]
    assert [(f.text[:24], f.rows) for f in uncited] == [
        ("The pilot ran in 14 town", None),  # prose
        ("Site 0 · 2000 · 0 · meas", 120),  # the data table: once
        ("Norway had 60 percent co", None),  # an uncited row of a table that cites
        ("Most of the towns recycl", None)]  # prose after the tables
    assert report.flag_count("uncited") == 4
    table = uncited[1]
    assert table.line == 7 and "120 such rows" in table.note
    assert table.as_json()["rows"] == 120 and "rows" not in uncited[0].as_json()
    assert [f.value for f in report.flags if f.kind == "impossible_date"] == ["2024-13-01"]


UNCITED_AS_WRITTEN = """# Wrappers in Python

Decorators wrap a function <ref id="a">"A decorator wraps a function."</ref>.

A wrapper written as `f(*args, **kwargs)` in prose was added in Python 3.11 by **Guido** and _friends_ <b>x</b> \\[3\\].

> The ``a`b`` tool had 5 users across 3 sites
> of Acme Corp in 2020.

| Year | Users in the whole country | Place |
|------|-------|---|
| 2020 | `x\\|y` 5 users of the tool | Acme Corp |
"""
UNCITED_PAGES = [Source("a", "https://docs.example.org/deco", "A decorator wraps a function. It returns a wrapper.",
                        "Decorators", "text")]


def test_an_uncited_statement_is_shown_as_written_its_code_spans_as_code():
    """The list of statements without a citation showed each through the claim plainer: a
    code span vanished and stars and underscores were stripped ("A wrapper written as in
    prose ..."). A flag keeps the statement as written: its markdown in pieces of text
    (markup shown as text) and code (a code span's content); audit.json's plain "text" stays."""
    report = check_citations(UNCITED_AS_WRITTEN, UNCITED_PAGES)
    flags = [f for f in report.flags if f.kind == "uncited"]
    assert [f.shown for f in flags] == [
        (("A wrapper written as ", False), ("f(*args, **kwargs)", True),
         (" in prose was added in Python 3.11 by **Guido** and _friends_ <b>x</b> [3].", False)),
        (("The ", False), ("a`b", True), (" tool had 5 users across 3 sites of Acme Corp in 2020.", False)),
        (("2020 · ", False), ("x|y", True), (" 5 users of the tool · Acme Corp", False)),  # a row: its cells
    ]
    assert flags[0].text == "A wrapper written as in prose was added in Python 3.11 by Guido and friends x [3]."
    assert "shown" not in flags[0].as_json()


def test_an_uncited_statement_shows_the_characters_its_escapes_stand_for():
    """A backslash escape or a character reference is the character the writer asked for
    ("&lt;script>" is listed as "<script>", as a reader of the report sees it; shown as text)."""
    md = UNCITED_AS_WRITTEN.split("\n\n", 2)[0] + "\n\n" + (
        "Payload 0 was sent in 2020 as &lt;script>alert(1)&lt;/script> and \\[run\\]\\(javascript:x) 2 \\* 3 times.\n")
    shown = [f.shown for f in check_citations(md, UNCITED_PAGES).flags if f.kind == "uncited"]
    assert shown == [(("Payload 0 was sent in 2020 as <script>alert(1)</script> and [run](javascript:x) 2 * 3 times.",
                       False),)]

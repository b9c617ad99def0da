"""notes.md's "Checks by code": flags in the research findings and the report's disagreements."""

from __future__ import annotations

import datetime as dt

import pytest

from deep_research.citations.check import check_citations
from deep_research.citations.model import Source
from deep_research.publish import publish_report
from deep_research.research.report.notes_checks import notes_checks
from tests.publish.test_publisher import DISAGREE_PAGES as DISAGREE_SOURCES
from tests.publish.test_publisher import DISAGREE_REPORT

TODAY = dt.date(2026, 11, 27)
SOURCES = [
    Source("a", "https://one.example/py", "Python was created by Guido van Rossum at CWI. "
           "The first public release came in 1991 on alt.sources."),
    Source("b", "https://two.example/hist", "A short history of scripting languages, told by a forum post. "
           "Many readers wrote in about this page. Python was not created by Guido van Rossum at CWI. "
           "Other languages of the time included Perl, Tcl and the Bourne shell, each with its own community."),
]


def test_findings_flags_and_report_disagreements_are_listed():
    notes = [{"topic": "History <b>", "findings":
              'Python was created by James Gosling <ref id="a">"Python was created by Guido van Rossum at CWI."</ref>.\n\n'
              "Version 4.0 was released on February 30, 2019.\n\n"
              "This section reviews the early history.\n"},
             {"topic": "Clean", "findings": 'The first public release came in 1991 '
              '<ref id="a">"The first public release came in 1991 on alt.sources."</ref>.\n'}]
    report = check_citations(
        'Python was created by Guido van Rossum <ref id="a">"Python was created by Guido van Rossum at CWI."</ref>.\n\n'
        'One page says otherwise <ref id="b">"Python was not created by Guido van Rossum at CWI."</ref>.\n',
        SOURCES, today=TODAY)
    text = notes_checks(notes, SOURCES, report, TODAY)
    assert text.startswith("## Checks by code")
    assert "### Sources disagree (report)" in text and "- negation:" in text
    assert text.count("### Findings: ") == 1 and "### Findings: History" in text
    section = text.split("### Findings: ")[1]
    assert "invented name" in section and "James Gosling" in section
    assert "impossible date" in section and "February 30" in section
    assert "uncited" in section and "reviews the early history" not in section
    assert "Clean" not in text  # nothing found in that topic


def test_nothing_found_gives_no_section():
    notes = [{"topic": "Clean", "findings": 'The first public release came in 1991 '
              '<ref id="a">"The first public release came in 1991 on alt.sources."</ref>.\n'}]
    assert notes_checks(notes, SOURCES, None, TODAY) == ""


@pytest.mark.parametrize("style, first, second", [("numbered", "[2]", "[1]"), ("apa", "stats.example.org, n.d.",
                                                                                  "survey.example.net, n.d.")])
def test_report_disagreements_name_each_side_as_its_badge_shows_it(tmp_path, style, first, second):
    """notes.md said "(citation 2: 60) / (citation 3: 50)": the refs' places in the report,
    numbers no badge shows (the HTML, PDF and Word name them [2] / [1], or by the author-date
    marker). notes.md now names them as the report does."""
    result = publish_report(DISAGREE_REPORT, DISAGREE_SOURCES, tmp_path, pdf=False, citation_style=style)
    text = notes_checks([], DISAGREE_SOURCES, result.report, TODAY, styler=result.styler)
    line = text.split("### Sources disagree (report)\n\n", 1)[1].strip()
    assert "citation" not in line, line
    assert f"({first}: 60)" in line and f"({second}: 50)" in line, line
    html = (tmp_path / "report.html").read_text()
    assert f"({first}: 60)" in html and f"({second}: 50)" in html  # as the HTML names them


def test_a_findings_disagreement_names_each_side_by_its_ref_tag():
    notes = [{"topic": "Heat", "findings": DISAGREE_REPORT.split("\n", 2)[2]}]
    text = notes_checks(notes, DISAGREE_SOURCES, None, TODAY)
    line = text.split("### Findings: Heat\n\n", 1)[1]
    assert '(ref id="norway": 60)' in line and '(ref id="survey": 50)' in line, line


def test_an_uncited_finding_is_quoted_as_written_in_markdown():
    """notes.md quoted an uncited finding through the claim plainer (its code span gone, its
    stars stripped); it now shows the markdown as written: markup escaped, code as code."""
    notes = [{"topic": "Wrappers", "findings": "A wrapper written as `f(*args, **kwargs)` in prose was added in "
              "Python 3.11 by **Guido** <b>x</b>.\n"}]
    text = notes_checks(notes, SOURCES, None, TODAY)
    assert ("“A wrapper written as `f(*args, **kwargs)` in prose was added in Python 3.11 by \\*\\*Guido\\*\\* "
            "&lt;b>x&lt;/b>.”") in text, text


def test_an_uncited_finding_cut_short_ends_in_one_ellipsis():
    """notes.md cuts a listed statement at 300 characters; one cut inside a piece with more
    pieces after it (here a code span) ended in two ellipses ("aaa……", "`co…`…")."""
    notes = [{"topic": "Long", "findings": "Python 3.11 " + "made the interpreter faster " * 11
              + "with `sys.flags` set in 2022 and more text after the code.\n"}]
    text = notes_checks(notes, SOURCES, None, TODAY)
    shown = text.split("\u201c", 1)[1].split("\u201d", 1)[0]
    assert shown.endswith("\u2026") and "\u2026\u2026" not in shown and "\u2026`\u2026" not in shown, shown
    assert shown.count("\u2026") == 1 and len(shown) <= 305, shown

"""notes.md's "Checks by code": flags in the research findings and the report's disagreements."""

from __future__ import annotations

import datetime as dt

from deep_research.citations.check import check_citations
from deep_research.citations.model import Source
from deep_research.research.report.notes_checks import notes_checks

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

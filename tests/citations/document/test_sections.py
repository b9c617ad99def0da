"""The sections code finds, removes or adds on the parsed report (never inside code)."""

from __future__ import annotations

from deep_research.citations.document import parse
from deep_research.citations.document.sections import (
    limitations_stated,
    replaced_spans,
    sources_section,
    title_text,
    with_limitations,
    without_findings,
)
from deep_research.language import labels

from .test_parse import REF, REPORT


def test_the_sources_section_is_the_last_top_level_one_outside_code():
    doc = parse(REPORT)
    s = sources_section(doc)
    assert s is not None and REPORT[s.start:].startswith("## Sources") and s.end == len(REPORT)
    fenced = "# T\n\nBody.\n\n```\n## References\n```\n\nAfter the fence.\n"
    assert sources_section(parse(fenced)) is None


def test_an_input_verified_findings_section_is_removed_with_its_list_only():
    md = ("# T\n\n## Verified findings\n\n- Old claim " + REF + "\n\nThe report's own intro " + REF
          + ".\n\n## Body\n\nText.\n")
    text, found = without_findings(md)
    assert "Old claim" in found and "Old claim" not in text and "The report's own intro" in text
    doc = parse(md)
    assert replaced_spans(doc) == [(doc.findings.start, doc.findings.end)]
    fenced = "# T\n\n```text\n## Verified findings\nkept\n```\n"
    assert without_findings(fenced) == (fenced, None)


def test_title():
    assert title_text(parse("\n# The title ##\n\nText.\n")) == "The title"
    assert title_text(parse("# Title " + REF + "\n")) == "Title"
    assert title_text(parse("Text first.\n\n# Not a title\n")) is None
    assert title_text(parse("    # code\n")) is None


EN = labels("en")


def test_limitations_in_code_do_not_count_and_the_section_lands_before_sources():
    md = ("# Grep\n\nText.\n\n```markdown\n## Limitations of grep\n- it is slow\n```\n\n"
          "## Sources\n\n1. x\n")
    assert not limitations_stated(parse(md), {"limitation", "limitations"})
    out = with_limitations(md, ["research stopped early: budget"], None, EN)
    assert "## Limitations\n\n- research stopped early: budget\n\n## Sources" in out
    assert out.count("```") == 2  # the fence untouched
    stated = "# Grep\n\n## Limitations\n\n- The sample is small.\n"
    assert with_limitations(stated, ["research stopped early"], None, EN) == stated
    assert "## Further limitations\n\n- by code" in with_limitations(stated, [], ["by code"], EN)


def test_limitations_are_never_added_inside_an_open_fence():
    md = "# T\n\nText.\n\n```\ncode the model never closed\n"
    out = with_limitations(md, ["research stopped early"], None, EN)
    doc = parse(out)
    assert [s.title for s in doc.all_sections()] == ["T", "Limitations"]


def test_limitation_items_from_code_are_text():
    out = with_limitations("# T\n\nText.\n", ['a page said <script>x</script> and [j](javascript:alert(1))'],
                           None, EN)
    assert "\\<script\\>" in out and "\\[j\\](javascript" in out
    assert parse(out).refs == [] and parse(out).problems == []

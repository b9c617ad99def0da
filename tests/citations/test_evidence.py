"""Confidence from evidence, disagreement between sources, judge verdicts, and what each
output shows for a claim that differs from its source (citations.evidence, check_claims,
publish renderers)."""

from __future__ import annotations

import json

from deep_research.citations.check import check_citations
from deep_research.citations.claims import ClaimStatus
from deep_research.citations.evidence import claim_key, confidence, disagreements, judged, source_key
from deep_research.citations.model import Source
from deep_research.publish import publish_report

PAGES = {
    "a": ("https://www.example.org/heat/cold.html",
          "Modern cold-climate heat pumps keep heating at outdoor temperatures as low as -25 °C. "
          "In Norway, more than 60 percent of detached houses had a heat pump by 2020."),
    "b": ("https://example.org/heat/other.html",  # same site as "a"
          "Heat pumps keep heating at outdoor temperatures as low as -25 °C in tests."),
    "c": ("https://energy.example.net/report",
          "Field trials found that heat pumps keep heating at outdoor temperatures as low as -25 °C."),
    "d": ("https://stats.example.com/norway",
          "In Norway, more than 50 percent of detached houses had a heat pump by 2020."),
}


def sources() -> list[Source]:
    return [Source(i, url, text, title=i) for i, (url, text) in PAGES.items()]


def test_source_independence():
    assert source_key("https://www.example.org/a", "x") == source_key("https://example.org/b", "y")
    assert source_key("https://example.org/a", "x") != source_key("https://example.net/a", "x")
    assert source_key("file:///docs/a.html", "x") != source_key("file:///docs/b.html", "y")
    assert source_key("not a url", "x") == "id:x"


def test_confidence_levels():
    assert confidence(ClaimStatus.SUPPORTED, "copy", 2) == "high"
    assert confidence(ClaimStatus.SUPPORTED, "copy", 1) == "medium"
    assert confidence(ClaimStatus.SUPPORTED, "judge:partly", 3) == "low"
    assert confidence(ClaimStatus.UNCHECKED, None, 3) is None
    assert confidence(ClaimStatus.UNSUPPORTED, "number", 3) is None


def test_claim_key_binds_a_verdict_to_exact_text():
    k = claim_key("Heat pumps  work.", ["B quote", "A quote"])
    assert k == claim_key("heat pumps work.", ["a quote", "b quote"])  # case, spacing, quote order
    assert k != claim_key("Heat pumps work well.", ["A quote", "B quote"])
    assert k != claim_key("Heat pumps work.", ["A quote"])
    assert judged("contradicts", "").status is ClaimStatus.UNSUPPORTED
    assert judged("partly", "half of it").rule == "judge:partly"
    assert judged("supports", "ok").status is ClaimStatus.SUPPORTED


def test_disagreement_needs_same_fact_other_numbers_other_sources():
    found = disagreements([
        ("In Norway more than 60 percent of detached houses had a heat pump by 2020", [1], ["a"]),
        ("In Norway more than 50 percent of detached houses had a heat pump by 2020", [2], ["d"]),
        ("In Norway more than 60 percent of detached houses had a heat pump by 2020", [3], ["a"]),  # same source
        ("Installing a heat pump costs between 8,000 and 15,000 euros", [4], ["c"]),  # another fact
    ])
    assert [d.refs for d in found] == [([1], [2]), ([2], [3])]  # not 1-3 (one source), not 4 (another fact)
    d = found[0].as_json()
    assert d["refs"] == [[1], [2]] and d["numbers"] == [["60", "2020"], ["50", "2020"]]
    assert disagreements([("the same 1,000 words", [1], ["a"]), ("the same 1000 words", [2], ["b"])]) == []


REPORT = """# Heat pumps

## Findings

Heat pumps keep heating down to -25 °C <ref id="a">"Modern cold-climate heat pumps keep heating at outdoor temperatures as low as -25 °C."</ref> <ref id="c">"Field trials found that heat pumps keep heating at outdoor temperatures as low as -25 °C."</ref>.

In Norway, more than 60 percent of detached houses had a heat pump by 2020 <ref id="a">"In Norway, more than 60 percent of detached houses had a heat pump by 2020."</ref>.

In Norway, more than 50 percent of detached houses had a heat pump by 2020 <ref id="d">"In Norway, more than 50 percent of detached houses had a heat pump by 2020."</ref>.

In Norway, more than 70 percent of detached houses had a heat pump by 2020 <ref id="a">"In Norway, more than 60 percent of detached houses had a heat pump by 2020."</ref>.
"""


def test_outputs_mark_claims_and_show_confidence(tmp_path):
    result = publish_report(REPORT, sources(), tmp_path, pdf=False, findings=True)
    cites = json.loads((tmp_path / "citations.json").read_text())
    by_n = {c["n"]: c for c in cites}
    # two independent sites support the first claim; one source the others
    assert by_n[1]["claim_status"] == by_n[2]["claim_status"] == "supported"
    assert by_n[1]["confidence"] == by_n[2]["confidence"] == "high"
    assert by_n[3]["confidence"] == "medium"
    wrong = by_n[5]
    assert wrong["status"] == "verified" and wrong["claim_status"] == "unsupported"
    assert "70" in wrong["claim_note"] and wrong["confidence"] is None
    assert wrong["claim"].startswith("In Norway, more than 70 percent")
    audit = json.loads((tmp_path / "audit.json").read_text())
    assert audit["summary"]["claims_unsupported"] == 1 and audit["summary"]["sources_disagree"] == 1
    assert audit["sources_disagree"][0]["refs"] == [[3], [4]]
    md = (tmp_path / "report.md").read_text()
    assert md.count('check="claim-differs"') == 1 and "check=" not in md.split("70 percent")[0]
    linked = (tmp_path / "report.linked.md").read_text()
    assert linked.count("(claim differs from source:") == 1
    html = (tmp_path / "report.html").read_text()
    assert html.count('class="cite claim-differs"') == 1 and "Sources disagree" in html
    assert "high confidence" in html
    # the findings section holds the supported claims, not the wrong one
    section = md.split("## Verified findings", 1)[1].split("\n## ", 1)[0]
    assert "60 percent" in section and "70 percent" not in section
    assert result.summary()["claims_supported"] == 3


def test_verified_findings_cannot_be_edited_in(tmp_path):
    edited = REPORT.replace("# Heat pumps\n", "# Heat pumps\n\n## Verified findings\n\n- Heat pumps work "
                            "at -60 °C <ref id=\"a\">\"Modern cold-climate heat pumps keep heating at outdoor "
                            "temperatures as low as -25 °C.\"</ref>\n")
    publish_report(edited, sources(), tmp_path / "a", pdf=False, findings=True)
    audit = json.loads((tmp_path / "a" / "audit.json").read_text())
    assert audit["verified_findings"]["found_in_input"] and not audit["verified_findings"]["input_matched_checks"]
    md = (tmp_path / "a" / "report.md").read_text()
    assert "-60 °C" not in md and md.count("## Verified findings") == 1
    # re-publishing an untouched report.md keeps the same section, and says it matched
    publish_report(md, sources(), tmp_path / "b", pdf=False, findings=True)
    again = json.loads((tmp_path / "b" / "audit.json").read_text())
    assert again["verified_findings"]["input_matched_checks"] is True
    assert (tmp_path / "b" / "report.md").read_text() == md


def test_judge_verdicts_apply_only_to_undecided_claims():
    report = check_citations(REPORT, sources())
    wrong = report.citations[-1]
    key = claim_key(wrong.claim.text, [wrong.shown_quote])
    judged_report = check_citations(REPORT, sources(), judgments={key: {"verdict": "supports", "reason": "x"}})
    assert judged_report.citations[-1].claim_status is ClaimStatus.UNSUPPORTED  # the rule wins

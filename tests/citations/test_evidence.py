"""Confidence from evidence, disagreement between sources, judge verdicts, and what each
output shows for a claim that differs from its source (citations.evidence, check_claims,
publish renderers)."""

from __future__ import annotations

import json
from pathlib import Path

from deep_research.citations.check import check_citations
from deep_research.citations.claims import ClaimStatus
from deep_research.citations.evidence import (
    MAX_DISAGREEMENTS,
    MAX_PRINT_CHARS,
    MAX_PRINT_HASHES,
    Independence,
    claim_key,
    confidence,
    containment,
    disagreements,
    quote_contradictions,
    same_text,
    source_key,
    text_print,
)
from deep_research.citations.model import Source
from deep_research.publish import publish_report
from deep_research.search.local import read_document

PAGES = {
    "a": ("https://www.example.org/heat/cold.html",
          "Modern cold-climate heat pumps keep heating at outdoor temperatures as low as -25 °C. "
          "In Norway, more than 60 percent of detached houses had a heat pump by 2020."),
    "b": ("https://example.org/heat/other.html",  # same site as "a"
          "Heat pumps keep heating at outdoor temperatures as low as -25 °C in tests."),
    "c": ("https://energy.example.net/report",  # another site, and another text around the same fact
          ("Our winter field trials followed forty homes in three northern regions over two seasons. "
           "Field trials found that heat pumps keep heating at outdoor temperatures as low as -25 °C. "
           "Running costs depended mostly on insulation, tariff and the size of the radiators, and owners "
           "reported fewer draughts once the units were tuned by an installer.")),
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
    assert confidence(ClaimStatus.SUPPORTED, "judge:checked", 1) == "medium"  # a checked judge is proof too
    assert confidence(ClaimStatus.UNCHECKED, None, 3) is None
    assert confidence(ClaimStatus.UNSUPPORTED, "number", 3) is None


def test_claim_key_binds_a_verdict_to_exact_text():
    k = claim_key("Heat pumps  work.", ["B quote", "A quote"])
    assert k == claim_key("heat pumps work.", ["a quote", "b quote"])  # case, spacing, quote order
    assert k != claim_key("Heat pumps work well.", ["A quote", "B quote"])
    assert k != claim_key("Heat pumps work.", ["A quote"])


def test_disagreement_needs_same_fact_other_numbers_other_sources():
    found = disagreements([
        ("In Norway more than 60 percent of detached houses had a heat pump by 2020", [1], ["a"]),
        ("In Norway more than 50 percent of detached houses had a heat pump by 2020", [2], ["d"]),
        ("In Norway more than 60 percent of detached houses had a heat pump by 2020", [3], ["a"]),  # same source
        ("Installing a heat pump costs between 8,000 and 15,000 euros", [4], ["c"]),  # another fact
    ])
    assert [d.refs for d in found] == [([1], [2]), ([2], [3])]  # not 1-3 (one source), not 4 (another fact)
    d = found[0].as_json()
    assert d["refs"] == [[1], [2]] and d["numbers"] == [["60"], ["50"]]  # the year both give is no difference
    assert disagreements([("the same 1,000 words", [1], ["a"]), ("the same 1000 words", [2], ["b"])]) == []


def _listed(a: str, b: str) -> list:
    return [d.numbers for d in disagreements([(a, [1], ["a"]), (b, [2], ["b"])])]


def test_two_pages_on_two_subjects_that_share_a_phrase_do_not_disagree():
    """Found on a Python-documentation run: the "What's New" pages of two Python versions were
    listed as sources that disagree (3.11, 3.10 against 2.5). A number that names something
    (a version, a PEP) makes another subject, not another value; so does a content word one
    claim has in place of another's (detached / terraced houses)."""
    assert _listed("Evidence: the source says that this article explains the new features in Python 3.11, "
                   "compared to 3.10.",
                   "Evidence: the source says that this article explains the new features in Python 2.5.") == []
    assert _listed("Evidence: the source says that installing an air-source heat pump in a detached house typically "
                   "costs between 8,000 and 15,000 euros.",
                   "Evidence: the source says that installing an air-source heat pump in a terraced house typically "
                   "costs between 7,000 and 12,000 euros.") == []
    assert _listed("PEP 654 added 2 new exception types to the language.",
                   "PEP 3134 added 3 new exception types to the language.") == []
    assert _listed("In 2020, 60 percent of houses in Norway had a heat pump.",
                   "In 2021, 65 percent of houses in Norway had a heat pump.") == []  # two years, two facts
    # one subject, other values: still listed, each side with the values only it gives
    assert _listed("Python 3.11 is up to 25 percent faster than Python 3.10.",
                   "Python 3.11 is up to 60 percent faster than Python 3.10.") == [(["25"], ["60"])]
    assert _listed("The first version of the library was released in 2019.",
                   "The first version of the library was released in 2020.") == [(["2019"], ["2020"])]
    assert _listed("The heat pump typically costs 8,000 euros to install.",
                   "The heat pump costs 9,000 euros to install.") == [(["8000"], ["9000"])]
    assert _listed("Street trees lower summer air temperatures in a city street by up to 2 °C.",
                   "Street trees lower summer air temperatures in a city street by up to 5 °C.") == [(["2"], ["5"])]


def test_equal_values_are_never_listed_as_a_disagreement():
    """Values are compared as numbers after normalisation; a value both sides give is not
    shown as a difference ("2020" against "2020"), and a side that only adds a value is no
    conflict."""
    assert _listed("In Norway, 60 percent of houses had a heat pump by 2020.",
                   "In Norway, 60 percent of houses had a heat pump by 2020.") == []
    assert _listed("The library had 1,000.50 euros of fines in 2020.",
                   "The library had 1000.5 euros of fines in 2020.") == []  # was "1.000.50" against "1000.5"
    assert _listed("The town had １２,０００ residents in 2020.", "The town had 12,000 residents in 2020.") == []
    assert _listed("The town had 12,000 residents in 2020.", "The town had 12,000 residents in 2020 and 2021.") == []
    assert _listed("In Norway, more than 60 percent of houses had a heat pump by 2020.",
                   "In Norway, more than 50 percent of houses had a heat pump by 2020.") == [(["60"], ["50"])]


REPORT = """# Heat pumps

## Findings

Heat pumps keep heating at outdoor temperatures as low as -25 °C <ref id="a">"Modern cold-climate heat pumps keep heating at outdoor temperatures as low as -25 °C."</ref> <ref id="c">"Field trials found that heat pumps keep heating at outdoor temperatures as low as -25 °C."</ref>.

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


# --- independence by content: real pages -------------------------------------------------------
PYDOC = Path(__file__).parents[1] / "data" / "pydoc"


def _html_text(name: str) -> str:
    doc, _ = read_document((PYDOC / name).read_bytes(), "html", published=False)  # as the local corpus reads it
    return doc.text


def _rst_text(name: str) -> str:
    return (PYDOC / name).read_text(encoding="utf-8")


def test_a_page_and_its_sphinx_source_are_one_text():
    for page in ("secrets", "venv"):
        html, rst = text_print(_html_text(f"{page}.html")), text_print(_rst_text(f"{page}.rst.txt"))
        assert containment(html, rst) >= 0.75, page  # measured: 0.77 (secrets), 0.94 (venv)
        assert same_text(html, rst)


def test_different_pages_of_one_site_are_different_texts():
    pages = [_html_text("secrets.html"), _html_text("venv.html"), _rst_text("venv.rst.txt")]
    assert containment(text_print(pages[0]), text_print(pages[1])) < 0.2  # shared navigation only
    assert not same_text(pages[0], pages[1]) and not same_text(pages[0], pages[2])


def test_a_lightly_edited_copy_is_the_same_text_a_shared_paragraph_is_not():
    text = _rst_text("secrets.rst.txt")
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    cut = max(paragraphs, key=len)
    edited = text.replace("cryptographically strong", "cryptographically secure").replace(
        "Return a random", "Give back a random").replace(cut, "")  # reworded, the longest paragraph cut
    edited = "Republished with permission. Read the original on python.org.\n\n" + edited
    assert edited.count("secure") > text.count("secure") and cut not in edited
    assert 0.6 < containment(text_print(text), text_print(edited)) < 0.99
    assert same_text(text, edited)
    # an essay that quotes one paragraph of the page is another text
    essay = _rst_text("venv.rst.txt") + "\n\n" + paragraphs[3]
    assert not same_text(text, essay)


def test_the_same_article_on_two_hosts_counts_once():
    from markdownify import markdownify  # a maintained converter, as a search API hands pages over

    html_bytes = (PYDOC / "secrets.html").read_bytes()
    ours = Source("a", "https://docs.python.org/3/library/secrets.html", _html_text("secrets.html"), format="text")
    mirror = Source("b", "https://mirror.example.net/py/secrets", markdownify(html_bytes.decode("utf-8")),
                    format="markdown")
    other = Source("c", "https://docs.example.org/venv", _html_text("venv.html"), format="text")
    ind = Independence({s.id: s.page.text for s in (ours, mirror, other)})
    assert ind.count([("a", ours.url), ("b", mirror.url)]) == 1
    assert ind.count([("a", ours.url), ("c", other.url)]) == 2
    assert ind.count([("a", ours.url), ("b", mirror.url), ("c", other.url)]) == 2


def test_a_large_page_is_sampled_and_still_compared():
    import random

    rng = random.Random(7)
    words = _rst_text("venv.rst.txt").split()
    filler = " ".join(rng.choice(words) + str(rng.randrange(1000)) for _ in range(150_000))
    big = filler[: len(filler) // 2] + "\n\n" + _rst_text("secrets.rst.txt") + "\n\n" + filler[len(filler) // 2:]
    p = text_print(big)
    assert p.level > 0 and len(p.hashes) <= MAX_PRINT_HASHES
    assert containment(text_print(_rst_text("secrets.rst.txt")), p) > 0.6  # the page inside a larger one
    assert not same_text(_rst_text("venv.rst.txt"), p)
    assert text_print("x" * (MAX_PRINT_CHARS * 3)).hashes  # read up to the bound, not beyond


PYDOC_REPORT = """# secrets

The argument is taken as the number of bytes of randomness to use <ref id="html">"That argument is taken as the number of bytes of randomness to use."</ref> <ref id="rst">"That argument is taken as the number of bytes of randomness to use."</ref>.

Creating a virtual environment is done with the venv module <ref id="venv">"The module used to create and manage virtual environments is called venv."</ref> <ref id="html">"That argument is taken as the number of bytes of randomness to use."</ref>.
"""


def test_a_documentation_folder_holding_each_page_twice_gives_no_high_confidence(tmp_path):
    srcs = [Source("html", "file:///docs/html/library/secrets.html", _html_text("secrets.html"), format="text"),
            Source("rst", "file:///docs/html/_sources/library/secrets.rst.txt", _rst_text("secrets.rst.txt"),
                   format="text"),
            Source("venv", "file:///docs/html/tutorial/venv.html", _html_text("venv.html"), format="text")]
    report = check_citations(PYDOC_REPORT, srcs)
    first, second = report.claim_citations()[0][1], report.claim_citations()[1][1]
    assert [c.check.found for c in first + second] == [True] * 4
    assert [c.source.id for c in first] == ["html", "rst"]  # each quote found in the file it cites
    assert first[0].claim_status is ClaimStatus.SUPPORTED
    assert first[0].confidence == "medium"  # two files, one text
    # the control: two different pages are two sources (the claim's status aside)
    assert Independence({s.id: s.page.text for s in srcs}).count([("venv", srcs[2].url), ("html", srcs[0].url)]) == 2


def test_copies_disagree_only_where_the_copies_differ():
    def same(a: str, b: str) -> bool:  # every pair of sources is one text
        return True

    claims = [("In Norway more than 60 percent of detached houses had a heat pump by 2020", [1], ["a"],
               ["In Norway, more than 60 percent of detached houses had a heat pump by 2020."]),
              ("In Norway more than 70 percent of detached houses had a heat pump by 2020", [2], ["b"],
               ["In Norway, more than 60 percent of detached houses had a heat pump by 2020."])]
    assert disagreements(claims, same) == []  # one text: the second claim misstates it
    assert len(disagreements(claims)) == 1  # without the text check it looked like two sources
    updated = [claims[0], (*claims[1][:3], ["In Norway, more than 70 percent of detached houses had a heat pump "
                                            + "by 2020."])]
    assert len(disagreements(updated, same)) == 1  # a copy that states another number does disagree


def test_disagreeing_pairs_are_listed_up_to_a_bound():
    """1,000 claims on one fact with 1,000 numbers were 499,500 disagreeing pairs: a
    publish of such a report took 37 s and 3.4 GB to write them all. The first
    MAX_DISAGREEMENTS pairs of each kind are listed."""
    claims = [(f"The valve weighs {i} grams in the test rig", [i + 1], [f"s{i}"]) for i in range(1000)]
    found = disagreements(claims)
    assert len(found) == MAX_DISAGREEMENTS
    assert found[0].refs == ([1], [2])  # the first pairs, in order
    quotes = [(i + 1, f"s{i}", "the valve is open in the test rig" if i % 2 else "the valve is not open in the test rig",
               "claim") for i in range(100)]
    found = quote_contradictions(quotes)
    assert len(found) == MAX_DISAGREEMENTS and {d.kind for d in found} == {"negation"}


def test_a_cut_list_of_disagreements_is_said(tmp_path, monkeypatch):
    """When a kind of disagreement reaches its bound the summary says the list was cut (the
    count is of the pairs listed); a report under the bound has no such key (same bytes)."""
    import deep_research.citations.check as check_module

    result = publish_report(REPORT, sources(), tmp_path / "whole", pdf=False)
    assert "sources_disagree_cut" not in result.summary()
    assert "sources_disagree_cut" not in json.loads((tmp_path / "whole" / "audit.json").read_text())["summary"]
    monkeypatch.setattr(check_module, "MAX_DISAGREEMENTS", 1)
    cut = publish_report(REPORT, sources(), tmp_path / "cut", pdf=False)
    assert cut.summary()["sources_disagree"] == 1 and cut.summary()["sources_disagree_cut"] is True
    assert json.loads((tmp_path / "cut" / "audit.json").read_text())["summary"]["sources_disagree_cut"] is True


def test_synonyms_keep_one_subject_and_their_look_ups_are_bounded(monkeypatch):
    """A word one claim has in place of the other's synonym keeps one subject ("house" /
    "home"); such pairs are looked up in WordNet at most MAX_SUBJECT_LOOKUPS times a report
    (1,500 claims differing by one noun each were 1.1 million look-ups, 8 s), then count as
    two subjects."""
    import deep_research.citations.evidence as evidence

    a, b = "The average house in Norway costs 300,000 euros.", "The average home in Norway costs 350,000 euros."
    assert _listed(a, b) == [(["300000"], ["350000"])]
    monkeypatch.setattr(evidence, "MAX_SUBJECT_LOOKUPS", 0)
    assert _listed(a, b) == []
    assert _listed(a, a.replace("300,000", "350,000")) == [(["300000"], ["350000"])]  # same words: no look-up

"""Publishing reads one parsed document: the report is parsed once, the output policy runs
once, headings inside code are code in every output, and what code adds to a report (refs,
links, Sources, Verified findings, Limitations) is inert whatever text it carries."""

from __future__ import annotations

import html
import json
import re
import sys
import zipfile
from collections import Counter

import pytest
from lxml import html as lxml_html
from markdown_it import MarkdownIt

from deep_research.citations.document import parse
from deep_research.citations.model import Source
from deep_research.language import labels
from deep_research.publish import publish_report
from deep_research.research.report.writer import with_limitations

PAGE = ("Tea cultivation\n"
        "Tea plants grow best in acidic soil with a pH between 4.5 and 5.5.\n"
        "Harvesting usually starts when the plant is three years old.\n")
TEA = Source("tea", "https://example.org/tea", PAGE, "Tea", "text")
GOOD = 'Tea likes acid soil <ref id="tea">"Tea plants grow best in acidic soil with a pH between 4.5 and 5.5."</ref>.'
LATE = 'Harvests start late <ref id="tea">"Harvesting usually starts when the plant is three years old."</ref>.'


def publish(tmp_path, md: str, sources=(TEA,), **kw):
    kw.setdefault("pdf", False)
    return publish_report(md, list(sources), tmp_path, **kw)


def outputs(result) -> dict[str, str]:
    out = {k: result.files[k].read_text() for k in ("markdown", "linked", "html")}
    if "docx" in result.files:
        with zipfile.ZipFile(result.files["docx"]) as z:
            out["docx"] = re.sub(r"<[^>]+>", "", z.read("word/document.xml").decode())
            out["docx links"] = " ".join(re.findall(r'Target="([^"]*)"[^>]*TargetMode="External"',
                                                    z.read("word/_rels/document.xml.rels").decode()))
    return out


def html_text(html: str) -> str:
    return lxml_html.document_fromstring(html).text_content()


# --- parsed once ------------------------------------------------------------------------------
def test_one_publish_parses_the_report_once_and_applies_the_policy_once(tmp_path):
    """Counted with a profile hook, so a scan is seen however its function was imported:
    one document parse, one block scan, one ref parse, one policy pass, no markdown-it parse
    of the report (markdown-it reads the cited pages only), one Python-Markdown conversion
    (the HTML)."""
    md = ("# Tea\n\n## Verified findings\n\n- Old, untrusted\n\n" + GOOD + "\n\n"
          "| A | B |\n|---|---|\n| x | " + LATE + " |\n\n```\n## References\n```\n\n## Sources\n\n1. x\n")
    calls: Counter = Counter()
    head = "# Tea"

    def hook(frame, event, arg):
        if event != "call":
            return
        code, mod = frame.f_code, frame.f_globals.get("__name__", "")
        if mod.startswith("deep_research"):
            if code.co_qualname == "_BlockScanner.run":
                calls["block scan"] += 1
            elif mod.endswith("document.parse") and code.co_name == "parse":
                calls["parse"] += 1
            elif code.co_name in ("parse_refs", "apply_policy", "safe_markdown", "claims_for_refs"):
                calls[code.co_name] += 1
        elif mod == "markdown_it.main" and code.co_name == "parse":
            src = frame.f_locals.get("src")
            calls["markdown-it of the report"] += isinstance(src, str) and head in src
        elif mod == "markdown.core" and code.co_qualname == "Markdown.convert":
            calls["Python-Markdown"] += 1

    sys.setprofile(hook)
    try:
        result = publish(tmp_path, md, findings=True, docx=True, citation_style="apa")
    finally:
        sys.setprofile(None)
    assert result.report.count(result.report.citations[0].status) >= 1
    assert calls == Counter({"block scan": 1, "parse": 1, "parse_refs": 1, "apply_policy": 1,
                             "Python-Markdown": 1}), calls


def test_a_parsed_document_can_be_handed_to_publish(tmp_path):
    doc = parse("# T\n\n" + GOOD + "\n")
    result = publish(tmp_path, doc)
    assert result.report.parsed is doc and len(result.report.citations) == 1


# --- headings inside code are code ---------------------------------------------------------------
FENCED_REFERENCES = ("# Citing in markdown\n\n" + GOOD + "\n\nA bibliography section looks like this:\n\n"
                     "```markdown\n## References\n\n1. Doe, J. (2020). A book.\n```\n\n"
                     "Text after the example " + LATE + "\n\n## Conclusion\n\nThe end.\n")


@pytest.mark.parametrize("model_sources", [False, True])
def test_a_fenced_references_heading_is_code(tmp_path, model_sources):
    md = FENCED_REFERENCES + ("\n## References\n\n1. written by the model\n" if model_sources else "")
    result = publish(tmp_path, md, docx=True)
    out = outputs(result)
    for name in ("markdown", "linked"):
        text = out[name]
        assert "1. Doe, J. (2020). A book.\n```" in text, name  # the example and its closing fence kept
        assert "Text after the example" in text and "The end." in text, name
        assert "written by the model" not in text, name
        doc = parse(text)  # the checked Sources list is a heading of its own, outside any code
        assert doc.scan.unclosed_fence is None, name
        assert [s.title for s in doc.all_sections()][-1] in ("Sources", "References"), name
        assert not doc.in_code(text.rindex("[1]")), name
    body = html_text(out["html"])
    assert "Text after the example" in body and "The end." in body and "written by the model" not in body
    tree = lxml_html.document_fromstring(out["html"])
    assert any("## References" in (pre.text_content()) for pre in tree.iter("pre"))
    assert not any("example.org/tea" in pre.text_content() for pre in tree.iter("pre"))  # Sources not in code
    assert "Text after the example" in out["docx"]


def test_a_fenced_verified_findings_heading_is_code(tmp_path):
    md = ("# Report headings\n\n" + GOOD + "\n\nThe tool writes this section itself:\n\n"
          "```text\n## Verified findings\n- one line per claim\n```\n\n"
          "Kept after the fence " + LATE + "\n\n## Next\n\nMore.\n")
    for findings in (False, True):
        result = publish(tmp_path / str(findings), md, findings=findings)
        out = outputs(result)
        for name in ("markdown", "linked"):
            text = out[name]
            assert "```text\n## Verified findings\n- one line per claim\n```" in text, name
            assert "Kept after the fence" in text and "More." in text, name
            assert parse(text).scan.unclosed_fence is None, name
        assert "Kept after the fence" in html_text(out["html"])
        assert len(result.report.citations) == 2  # the ref after the fence is a citation
        audit = result.files["audit"].read_text()
        assert '"found_in_input": false' in audit


def test_a_fenced_limitations_heading_does_not_hide_the_limitations_code_adds(tmp_path):
    md = ("# grep\n\n" + GOOD + "\n\n```markdown\n## Limitations of grep\n- slow on huge files\n```\n\n"
          "## Sources\n\n1. x\n")
    report = with_limitations(md, ["research stopped early: the time budget ran out"], None, labels("en"))
    result = publish(tmp_path, report)
    out = outputs(result)
    for name in ("markdown", "linked"):
        doc = parse(out[name])
        titles = [s.title for s in doc.all_sections()]
        assert "Limitations" in titles, (name, titles)
        assert "- research stopped early: the time budget ran out" in out[name]
        assert "## Limitations of grep\n- slow on huge files\n```" in out[name]
    assert "research stopped early" in html_text(out["html"])


def test_a_fence_the_report_leaves_open_is_closed_before_the_sources_list(tmp_path):
    result = publish(tmp_path, "# T\n\n" + GOOD + "\n\n```\ncode the model never closed\n")
    for name, text in outputs(result).items():
        if name in ("markdown", "linked"):
            doc = parse(text)
            assert doc.scan.unclosed_fence is None and not doc.in_code(text.rindex("[1]")), name


# --- what code adds is inert ---------------------------------------------------------------------
HOSTILE = '<script>alert(1)</script> <img src=x onerror=alert(2)> [j](javascript:alert(3)) ![i](https://attacker.example/p.png) `tick \\ back'
CONTROL = "\x00\x01\x1b[31m\x7f\u202e"


def _commonmark(text: str) -> str:
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    md.validateLink = lambda url: True  # no help from the renderer
    return md.render(text)


def _dangers(html: str) -> list[str]:
    tree = lxml_html.fragment_fromstring(html, create_parent="div")
    found = []
    for el in tree.iter():
        if not isinstance(el.tag, str):
            continue
        if el.tag in ("script", "img", "iframe", "style"):
            found.append(el.tag)
        for k, v in el.attrib.items():
            if k.startswith("on") or (k in ("href", "src") and not re.match(r"(https?:|mailto:|#)", v.strip())):
                found.append(f"{el.tag} {k}={v[:40]}")
    return found


def test_code_built_sections_are_inert_with_hostile_titles_urls_quotes_and_ids(tmp_path):
    page = "Hostile page\n" + f"The page text has {HOSTILE} in it.{CONTROL}\n" + PAGE
    sources = [
        Source("h", "https://example.org/a[1]`(x)<y>\\z", page, f"Title {HOSTILE} {CONTROL}", "text",
               credibility={"score": 0.5, "reasons": [f"site name {HOSTILE}"]}, author=f"A {HOSTILE}",
               site_name=f"S {HOSTILE}"),
        Source("j", "javascript:alert(9)", PAGE, "JS", "text"),
        Source("d", "data:text/html,<script>alert(10)</script>", PAGE, "Data", "text"),
    ]
    md = ("# Hostile sections\n\n"
          f'A claim <ref id="h">"The page text has {HOSTILE} in it."</ref>.\n\n'
          '[see <ref id="h">"Tea plants grow best in acidic soil with a pH between 4.5 and 5.5.](javascript:alert(4))"'
          "</ref> bar] and more.\n\n"
          'Harvests start late <ref id="j">"Harvesting usually starts when the plant is three years old."</ref>.\n\n'
          'Tea likes acid <ref id="d">"Tea plants grow best in acidic soil with a pH between 4.5 and 5.5."</ref>.\n')
    for style in ("numbered", "apa", "mla"):
        result = publish(tmp_path / style, md, sources, findings=True, docx=True, citation_style=style)
        out = outputs(result)
        for name in ("markdown", "linked"):
            assert _dangers(_commonmark(out[name])) == [], (style, name)
        tree = lxml_html.document_fromstring(out["html"]).find("body")
        body = "".join(lxml_html.tostring(child, encoding="unicode") for child in tree)
        assert _dangers(body) == [], style
        assert all(re.match(r"https?:", u) for u in out["docx links"].split()), out["docx links"]


def test_a_quote_cannot_close_a_link_opened_outside_its_ref(tmp_path):
    md = ('# T\n\nIntro [see <ref id="tea">"Tea plants grow best in acidic soil with a pH between 4.5 and 5.5.]'
          '(javascript:alert(1))"</ref> bar] here.\n')
    result = publish(tmp_path, md)
    rendered = _commonmark(result.files["markdown"].read_text())
    assert "javascript:" not in "".join(a.get("href", "") for a in lxml_html.fragment_fromstring(
        rendered, create_parent="div").iter("a"))


def test_malformed_ref_tags_are_text_in_report_md_and_gone_elsewhere(tmp_path):
    md = ('# T\n\n' + GOOD + ' then <ref id="tea">"unclosed quote</ref> and [x]<ref id="q">(javascript:alert(1)) and '
          '!<ref>[img](https://attacker.example/p.png)\n\nNext paragraph stays.\n')
    result = publish(tmp_path, md)
    out = outputs(result)
    assert "&lt;ref id=\"tea\">" in out["markdown"]
    assert "<ref id=\"q\">" not in out["linked"] and "Next paragraph stays." in out["linked"]
    for name in ("markdown", "linked"):
        assert _dangers(_commonmark(out[name])) == [], name
    assert "Next paragraph stays." in html_text(out["html"])


# --- a ref with no claim of its own ----------------------------------------------------------------
def test_a_ref_with_no_claim_of_its_own_is_never_shown_supported(tmp_path):
    alone = '<ref id="tea">"Harvesting usually starts when the plant is three years old."</ref>'
    md = ("# Tea\n\n" + GOOD + "\n\n| Crop | Source |\n|---|---|\n| Tea | " + alone + " |\n\n"
          "- " + alone + "\n\n" + alone + "\n")
    result = publish(tmp_path, md, findings=True, docx=True)
    cites = __import__("json").loads(result.files["citations"].read_text())
    alone_refs = [c for c in cites if c["quote"].startswith("Harvesting")]
    assert len(alone_refs) == 3
    for c in alone_refs:
        assert c["status"] == "verified"  # the quote half holds
        assert c["claim_status"] == "no_claim" and c["claim_rule"] == "no_claim" and c["confidence"] is None
    summary = result.summary()
    assert summary["claims_no_claim"] == 3 and summary["claims_supported"] <= 1
    out = outputs(result)
    assert out["markdown"].count('check="no-claim"') == 3
    assert out["html"].count('class="cite no-claim"') == 3
    assert not any(f.cites[0].ref.quote.startswith("Harvesting") for f in _findings(result))
    assert out["docx"].count("\u2013 quote found; no claim to check") == 3


def _findings(result):
    from types import SimpleNamespace

    from deep_research.publish.markdown import verified_findings

    return [SimpleNamespace(text=t, cites=c) for t, c in verified_findings(result.report)]


def test_a_claim_the_rules_find_empty_is_no_claim_not_supported(tmp_path, monkeypatch):
    """Whatever the rules behind ``check_claim`` call ``no_claim`` (a claim stating nothing of
    its own) reaches the outputs as ``no_claim``, never as ``supported``."""
    from deep_research.citations import check
    from deep_research.citations.claims import ClaimCheck, ClaimStatus

    monkeypatch.setattr(check, "check_claim", lambda claim, quotes: ClaimCheck(
        ClaimStatus.SUPPORTED, "no_claim", "the claim states nothing of its own"))
    result = publish(tmp_path, "# T\n\n" + GOOD + "\n")
    (c,) = result.report.citations
    assert c.claim_status is ClaimStatus.NO_CLAIM and not c.trusted and c.confidence is None


def test_a_block_shown_as_code_right_under_the_title_stays_code_in_html(tmp_path):
    deep = "".join("  " * i + "- <script>alert(1)</script>\n" for i in range(40))
    result = publish(tmp_path, "# Title\n" + deep + "\n" + GOOD + "\n")
    tree = lxml_html.document_fromstring(result.files["html"].read_text()).find("body")
    assert not list(tree.iter("script"))
    assert any("&lt;script&gt;" in lxml_html.tostring(pre, encoding="unicode") for pre in tree.iter("pre"))


def test_a_report_cut_for_html_keeps_its_first_part_when_the_model_wrote_a_sources_list(tmp_path, monkeypatch):
    from deep_research.publish import safety

    monkeypatch.setattr(safety, "MAX_RENDER_CHARS", 5000)
    md = ("# Long\n\n" + GOOD + "\n\n" + "".join(f"Paragraph {i} of the long report.\n\n" for i in range(400))
          + "## References\n\n1. by the model\n")
    result = publish(tmp_path, md)
    body = html_text(result.files["html"].read_text())
    assert "Tea likes acid soil" in body and "Paragraph 10 " in body and "Paragraph 399 " not in body
    assert "too long to show here" in body and "by the model" not in body
    assert "Paragraph 399 " in result.files["markdown"].read_text()


# --- a quote the sentence needs is read in words ----------------------------------------------
INLINE = ("# Tea\n\nTea plants <ref id=\"tea\">\"grow best in acidic soil with a pH between 4.5 and 5.5.\"</ref>. "
          "The age shows it: <ref id=\"tea\">\"Harvesting usually starts when the plant is three years old.\"</ref>\n\n"
          "Tea plants need care <ref id=\"tea\">\"Tea plants grow best in acidic soil with a pH between 4.5 and 5.5.\"</ref>.\n")


def test_a_quote_the_sentence_needs_is_shown_in_words_before_its_marker(tmp_path):
    """"Tea plants ①." would be a broken sentence: the quoted words stay in every rendered
    output, the marker after them; a quote after a claim of its own stays a marker only."""
    result = publish(tmp_path, INLINE, docx=True)
    assert sorted(result.report.parsed.quoted) == [0, 1]
    out = outputs(result)
    text = " ".join(html_text(out["html"]).split())
    assert "Tea plants \u201cgrow best in acidic soil with a pH between 4.5 and 5.5\u201d1." in text
    assert ("The age shows it: \u201cHarvesting usually starts when the plant is three years old.\u201d1"
            in text)
    assert "Tea plants need care 1." in text  # a claim of its own: the badge only
    linked = out["linked"]
    assert re.search(r"Tea plants \u201cgrow best in acidic soil with a pH between 4\.5 and 5\.5\u201d "
                     r"\[1\]\(https://example\.org/tea#:~:text=[^)]+\)\.", linked), linked
    assert "Tea plants need care [1](" in linked
    assert "Tea plants \u201cgrow best in acidic soil" in out["docx"]
    # report.md keeps its refs for UIs: nothing is duplicated there
    assert "\u201cgrow best" not in out["markdown"]
    # the claim checked is what the reader reads: the inline quote is part of it; after a
    # colon the claim is the lead-in, the quote its evidence
    claims = [c.text for c in result.report.parsed.claims]
    assert claims[:2] == ["Tea plants grow best in acidic soil with a pH between 4.5 and 5.5.", "The age shows it"]


def test_inline_quote_words_are_inert(tmp_path):
    """The words come from the page (or the model): in every output they are text."""
    page = "Notes\nThe *bold* claim: <img src=x onerror=alert(1)> & [link](javascript:x) | `code`.\n"
    src = Source("p", "https://example.org/p", page, "P", "text")
    md = "# T\n\nIt says <ref id=\"p\">\"claim: <img src=x onerror=alert(1)> & [link](javascript:x) | `code`.\"</ref>.\n"
    result = publish(tmp_path, md, sources=(src,))
    assert result.report.citations[0].check.found and sorted(result.report.parsed.quoted) == [0]
    out = outputs(result)
    doc = lxml_html.document_fromstring(out["html"])
    assert not doc.xpath("//img") and not doc.xpath("//main//a[starts-with(@href, 'javascript')]")
    assert "claim: <img src=x onerror=alert(1)> & [link](javascript:x) | `code`" in html_text(out["html"])
    rendered = MarkdownIt("commonmark", {"html": True}).render(out["linked"])
    tree = lxml_html.fragment_fromstring(rendered, create_parent="div")
    assert not tree.xpath("//img") and not tree.xpath("//a[starts-with(@href, 'javascript')]") and not tree.xpath("//code")
    assert "claim: <img src=x onerror=alert(1)> & [link](javascript:x) | `code`" in tree.text_content()


def test_badge_legend_counts_each_citation_once(tmp_path):
    """The legend explains every badge colour and counts badges, so its counts add up to the
    citations; a quote that is not on its page is red, not also an orange "claim differs"."""
    proven = ('Tea plants grow best in acidic soil with a pH between 4.5 and 5.5 '
              '<ref id="tea">"Tea plants grow best in acidic soil with a pH between 4.5 and 5.5."</ref>.')
    bad = 'Harvests start late <ref id="tea">"Harvesting usually starts when the plant is five years old."</ref>.'
    table = ('\n\n| Plant | Source |\n|---|---|\n'
             '| Tea | <ref id="tea">"Harvesting usually starts when the plant is three years old."</ref> |\n')
    result = publish(tmp_path, "# Tea\n\n" + proven + " " + bad + table)
    html = result.files["html"].read_text()
    doc = lxml_html.document_fromstring(html)
    legend = {li.xpath(".//span[contains(@class, 'sample')]")[0].get("class").split()[1]:
              int(li.xpath(".//strong[contains(@class, 'legend-count')]")[0].text) for li in doc.xpath("//ul[@class='legend']/li")}
    assert legend == {"verified": 1, "claim-differs": 0, "unsupported": 1, "claim-unchecked": 0, "no-claim": 1}
    assert sum(legend.values()) == len(result.report.citations) == 3
    summary = result.summary()
    assert summary["claims_unsupported"] == summary["claims_quote_not_found"] == 1
    t = labels("en")
    text = " ".join(html_text(html).split())
    for key in ("legend_proven", "legend_differs", "legend_missing", "legend_unchecked", "legend_no_claim"):
        assert t[key] in text


# --- the title as the reader sees it ---------------------------------------------------------------
def _h1(html: str) -> str:
    return lxml_html.document_fromstring(html).xpath('//h1[@class="title"]')[0].text_content()


def _docx_title(result) -> str:
    with zipfile.ZipFile(result.files["docx"]) as z:
        core = z.read("docx/core.xml" if "docx/core.xml" in z.namelist() else "docProps/core.xml").decode()
    from html import unescape

    return unescape(re.search(r"<dc:title>(.*?)</dc:title>", core, re.S).group(1))


def test_the_title_of_a_published_report_md_reads_as_the_first_publish_showed_it(tmp_path):
    """report.md writes a title's '<' as '&lt;' and '[' as '\\['; publishing that file again
    (a run folder's report) shows '<' and '[' in the HTML, PDF and Word titles, not the
    markdown's escapes."""
    raw = "# Heat pumps [draft] <v2> & `a\\[b` costs\n\n" + GOOD + "\n"
    first = publish(tmp_path / "first", raw, docx=True)
    shown = _h1(first.files["html"].read_text())
    assert shown == "Heat pumps [draft] <v2> & `a\\[b` costs", shown
    written = first.files["markdown"].read_text().splitlines()[0]
    assert written != raw.splitlines()[0]  # escaped in report.md
    again = publish(tmp_path / "again", first.files["markdown"].read_text(), docx=True)
    assert _h1(again.files["html"].read_text()) == shown
    assert _docx_title(again) == _docx_title(first) == shown
    named = publish(tmp_path / "named", "# Caf&eacute; &#x1b;[31m &amp;lt;\n\n" + GOOD + "\n")
    h1 = _h1(named.files["html"].read_text())
    assert h1.startswith("Café ") and h1.endswith("[31m &lt;") and "\x1b" not in h1, h1  # no control sent


def test_a_report_without_a_title_gets_a_word_file(tmp_path):
    result = publish(tmp_path, GOOD + "\n", docx=True)  # failed: TypeError on the missing title
    assert result.files["docx"].is_file()


def test_html_and_word_give_the_reason_a_quote_was_not_found(tmp_path):
    """report.md's note, citations.json and audit.json say why a quote was not found (not
    on the page, an unknown source id); the HTML and the Word file said only "not found".
    They give the same reason: in the badge's tooltip and in the Sources list."""
    md = ("# Tea\n\n" + GOOD + '\n\nTea grows on Mars <ref id="tea">"Tea plants grow best on the planet Mars."</ref>.'
          '\n\nTea is old <ref id="nope">"Tea is very old."</ref>.\n')
    result = publish(tmp_path, md, docx=True)
    out = outputs(result)
    notes = {"Tea plants grow best on the planet Mars.": "quote not found in the cited page",
             "Tea is very old.": "unknown source id 'nope'"}
    cites = json.loads(result.files["citations"].read_text())
    assert {c["quote"]: c["note"] for c in cites if c["status"] == "unsupported"} == notes
    for note in notes.values():
        assert f'check="quote-not-found" note="{note}"' in out["markdown"]
    page = lxml_html.document_fromstring(out["html"])
    titles = [a.get("title") for a in page.xpath("//*[contains(@class, 'unsupported')][@title]")]
    with zipfile.ZipFile(result.files["docx"]) as z:
        word = html.unescape(z.read("word/document.xml").decode())
    for quote, note in notes.items():
        assert f"Not found in the source ({note}): \u201c{quote}\u201d" in titles, (titles, quote)
    # Word's link to a cited source and the Sources list (the unknown id has no source, no link)
    quote = "Tea plants grow best on the planet Mars."
    assert f'w:tooltip="Not found in the source ({notes[quote]}): \u201c{quote}\u201d"' in word
    listed = [" ".join(li.text_content().split()) for li in page.xpath("//li[contains(@class, 'unsupported')]")]
    assert listed == [f"\u201c{quote}\u201d not found in this source {notes[quote]}"]
    assert f"\u201c{quote}\u201d not found in this source {notes[quote]}" in out["docx"]


def test_emphasis_never_pairs_across_paragraphs_list_items_quotes_or_cells(tmp_path):
    """A star that opens emphasis on one block and one that closes it on a later block
    ("*a" in a paragraph, "b*" in the next, or in the next list item, quote or cell) stay
    stars in the HTML (and so the PDF) and the Word file; inside one paragraph, emphasis
    over a line break is CommonMark's and stays emphasis. (Checked, not changed: Python-
    Markdown parses inline markup block by block.)"""
    md = ("# Tea\n\nOne *open in a paragraph\n\nclosed in the next* one.\n\n- item *open\n- item closed* here\n\n"
          "> quote *open\n\nafter the quote* text.\n\n| A | B |\n|---|---|\n| x *open | y |\n| z | w closed* |\n\n"
          "Within *one\nparagraph* it pairs.\n\n" + GOOD + "\n")
    result = publish(tmp_path, md, docx=True)
    page = lxml_html.document_fromstring(outputs(result)["html"])
    assert [" ".join(e.text_content().split()) for e in page.xpath("//em")] == ["one paragraph"]
    for text in ("One *open in a paragraph", "closed in the next* one.", "item *open", "item closed* here",
                 "quote *open", "after the quote* text.", "x *open", "w closed*"):
        assert page.xpath(f"//*[self::p or self::li or self::td][contains(normalize-space(.), '{text}')]"), text
    import docx

    italic = [r.text for p in docx.Document(str(result.files["docx"])).paragraphs for r in p.runs if r.italic]
    assert " ".join("".join(italic).split()) == "one paragraph", italic


def test_citations_json_gives_a_quote_as_the_report_shows_it(tmp_path):
    """A page about wiki markup holds the text "<ref>": the model (and report.md, published
    again) writes it "&lt;ref&gt;" inside a ref, whose quote cannot hold a tag. citations.json's
    ``quote`` is the quote as it reads on the page and in the report: character references and
    backslash escapes decoded; HTML still escapes it, report.md keeps
    it inert, and a quote that is not found reads the same way in the HTML tooltip."""
    page = Source("w", "https://example.org/w", "Wiki markup\nCitations use the <ref> tag in wikitext [see] "
                  "here.\nOther text.\n", "W", "text")
    md = ('# Tags\n\nWikitext cites with a tag <ref id="w">"Citations use the &lt;ref&gt; tag in wikitext '
          '\\[see] here."</ref>.\n\nIt bolds <ref id="w">"Use &lt;b&gt; for bold."</ref>.\n')
    want = ["Citations use the <ref> tag in wikitext [see] here.", "Use <b> for bold."]
    first = publish(tmp_path / "first", md, sources=(page,), docx=True)
    again = publish(tmp_path / "again", first.files["markdown"].read_text(), sources=(page,))
    for result in (first, again):
        cites = json.loads(result.files["citations"].read_text())
        assert [c["quote"] for c in cites] == want
        assert cites[0]["status"] != "unsupported" and cites[1]["status"] == "unsupported"
        out = outputs(result)
        assert "<ref>" not in out["html"] and "<b>" not in out["html"]  # escaped in the HTML
        assert "&lt;ref" in out["markdown"] and "&lt;b" in out["markdown"]  # inert in report.md
        titles = lxml_html.document_fromstring(out["html"]).xpath("//a[contains(@class, 'cite')]/@title")
        assert any("\u201cUse <b> for bold.\u201d" in t for t in titles), titles
    assert "\u201cUse <b> for bold.\u201d" in html.unescape(outputs(first)["docx"])


def test_a_table_row_never_loses_a_cited_cell(tmp_path):
    """A "|" in a table row ends its cell, even inside a code span (GFM; the policy does not
    trust such a span as code, so Python-Markdown agrees) or a quotation, and every renderer
    drops the cells a row has beyond its header: a citation there vanished from the HTML, the
    PDF and the Word file while citations.json counted it verified. Such a row's "|" are
    shown as text instead (those of its code spans, then of its quotations, then the last
    ones: the extra cells join the last), and a ref's own "|" never split a row of report.md
    or report.linked.md. Every citation shows, each row has its header's cells, audit.json
    and the degradations say so."""
    import docx

    prices = Source("p", "https://example.org/p", "Prices\nGreen tea | 4 EUR | per 100 g\n", "Prices", "text")
    cited = ' <ref id="p">"Green tea | 4 EUR | per 100 g"</ref>'
    md = ("# Tea\n\n| Drink | Why |\n|---|---|\n"
          "| `green|black` tea | code " + LATE + " |\n"
          '| "milk|lemon" | quoted ' + LATE + " |\n"
          "| one | two | three " + LATE + " |\n"
          "| Green tea costs 4 EUR" + cited + " | page " + LATE + " |\n")
    result = publish(tmp_path, md, sources=(TEA, prices), docx=True)
    cites = json.loads(result.files["citations"].read_text())
    assert len(cites) == 5 and all(c["status"] == "verified" for c in cites)
    out = outputs(result)
    rows = lxml_html.document_fromstring(out["html"]).xpath("//table//tr")
    assert [len(r.xpath("./td|./th")) for r in rows] == [2] * 5
    assert [len(r.xpath(".//a[contains(@class, 'cite')]")) for r in rows[1:]] == [1, 1, 1, 2]
    cells = [" ".join(c.text_content().split()) for r in rows[1:] for c in r.xpath("./td")]
    assert cells[0] == "`green|black` tea" and cells[2] == '"milk|lemon"'
    assert cells[5].startswith("two | three Harvests start late")
    table = docx.Document(str(result.files["docx"])).tables[0]
    assert [len(r.cells) for r in table.rows] == [2] * 5
    assert [c.text for c in table.rows[1].cells][0] == "`green|black` tea"
    gfm = MarkdownIt("commonmark", {"html": True}).enable("table")
    for name, mark in (("markdown", "<ref"), ("linked", "<a href")):
        page = lxml_html.fragment_fromstring(gfm.render(out[name]), create_parent="div")
        body = page.xpath("//table//tr")
        assert [len(r.xpath("./td|./th")) for r in body] == [2] * 5, name
        shown = [lxml_html.tostring(c, encoding="unicode") for r in body[1:] for c in r.xpath("./td")]
        assert sum(c.count(mark) for c in shown) == 5, (name, shown)
    assert "Green tea | 4 EUR | per 100 g" in out["markdown"].replace("\\|", "|")
    (note,) = [d for d in result.output_policy["degraded"] if "more cells than their header" in d["reason"]]
    assert note["line"] == 5

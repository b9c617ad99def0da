"""Publishing: the files, the linked markdown, the HTML, the PDF's link annotations, and
that nothing in a report can make the renderer read a file or the network."""

import http.server
import json
import re
import socketserver
import threading

import pytest
from pypdf import PdfReader

from deep_research.citations.model import Source
from deep_research.publish import publish_report
from deep_research.publish.html import sanitize

PAGE = (
    "Tea cultivation\n"
    "Tea plants grow best in acidic soil with a pH between 4.5 and 5.5.\n"
    "Harvesting usually starts when the plant is three years old.\n"
    "Green tea is not oxidised, while black tea is fully oxidised.\n"
)
OTHER = "Coffee notes\nCoffee cherries ripen about nine months after flowering.\n"


def _sources():
    return [
        Source("tea", "https://example.org/tea#top", PAGE, "Tea — a guide", "text"),
        Source("coffee", "https://example.org/coffee", OTHER, "Coffee", "text"),
    ]


REPORT = """# Tea and coffee

Tea likes acid soil <ref id="tea">"Tea plants grow best in acidic soil with a pH between 4.5 and 5.5."</ref>.
Harvests begin after three years <ref id="tea">"harvesting usually starts when the plant is three years old"</ref>.
Coffee ripens slowly <ref id="tea">"Coffee cherries ripen about nine months after flowering."</ref>.
A wrong claim <ref id="tea">"Green tea is fully oxidised."</ref>.

| Drink | Note |
|---|---|
| Tea | <ref id="tea">"Green tea is not oxidised"</ref> |

## References

- made up by the model
"""


@pytest.fixture()
def published(tmp_path):
    return publish_report(REPORT, _sources(), tmp_path / "out")


def test_writes_every_output_file(published):
    names = sorted(p.name for p in published.files.values())
    assert names == ["audit.json", "citations.json", "report.html", "report.linked.md", "report.md", "report.pdf"]
    for p in published.files.values():
        assert p.stat().st_size > 0
    assert not list(published.out_dir.glob(".*tmp"))


def test_citations_json_has_one_entry_per_ref_in_order(published):
    cites = json.loads(published.files["citations"].read_text())
    assert [c["status"] for c in cites] == ["verified", "repaired", "repaired", "unsupported", "verified"]
    assert cites[2]["source_id"] == "coffee" and cites[2]["cited_id"] == "tea"
    assert cites[1]["matched_text"] == "Harvesting usually starts when the plant is three years old"
    assert cites[3]["matched_text"] is None and cites[3]["url"] == "https://example.org/tea#top"
    for c in cites:
        assert set(c) >= {"source_id", "quote", "status", "matched_text", "url"}
        if c["status"] != "unsupported":
            assert c["url"].startswith("https://example.org/") and ":~:text=" in c["url"]
    # an existing #anchor of the source URL is kept in front of the directive
    assert cites[0]["url"].startswith("https://example.org/tea#top:~:text=")


def test_ui_markdown_keeps_refs_and_repairs_them(published):
    ui = published.files["markdown"].read_text()
    assert ui.count("<ref ") == 5
    # repaired: the right source and the page's text; the paraphrased claim is marked as not checked
    assert re.search(r'<ref id="coffee" check="claim-unchecked" note="[^"]+">"Coffee cherries ripen about nine '
                     r'months after flowering\."</ref>', ui), ui
    assert '"Harvesting usually starts when the plant is three years old"' in ui
    assert "made up by the model" not in ui  # the model's list is replaced


def test_linked_markdown_numbers_citations_and_lists_sources(published):
    linked = published.files["linked"].read_text()
    assert "<ref" not in linked
    assert "[1](https://example.org/tea#top:~:text=" in linked
    assert "[2](https://example.org/coffee#:~:text=" in linked
    assert "(unverified quote)" in linked
    assert "## References" in linked  # the report's own heading is reused
    assert "[1] Tea — a guide: https://example.org/tea#top" in linked
    assert "[2] Coffee: https://example.org/coffee" in linked
    assert "made up by the model" not in linked


def test_html_has_badges_sources_and_marks_unsupported(published):
    html = published.files["html"].read_text()
    # the three paraphrases are quotes found on the page (two repaired) whose claims no rule
    # could decide: grey, not green; so is the table cell ("Tea" against "Green tea is not
    # oxidised": the quote's "not" is not in it), which the word-overlap rule used to show green
    assert html.count('class="cite verified"') == 0
    assert html.count('class="cite claim-unchecked"') == 4
    assert html.count('class="cite unsupported"') == 1
    assert "<table>" in html and "<th>Drink</th>" in html
    assert "not found in this source" in html
    assert re.search(r"<h1 class=\"title\"[^>]*>Tea and coffee</h1>", html)


def test_pdf_link_annotations_keep_full_fragment_urls(published):
    cites = json.loads(published.files["citations"].read_text())
    reader = PdfReader(str(published.files["pdf"]))
    uris = set()
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            a = annot.get_object()
            action = a.get("/A")
            if action and action.get("/URI"):
                uris.add(action["/URI"])
    for c in cites:
        if c["fragment"]:
            assert c["url"] in uris, c["url"]
    assert len(reader.pages) >= 1


def test_sanitize_removes_active_content():
    dirty = (
        '<p onclick="x()">hi<script>alert(1)</script></p><iframe src="https://evil"></iframe>'
        '<object data="x"></object><style>body{}</style><a href="javascript:alert(1)">j</a>'
        '<a href="data:text/html,x">d</a><img src="file:///etc/passwd"><p style="color:red">s</p>'
        '<a href="https://ok.example/">ok</a>'
    )
    clean = sanitize(dirty)
    for bad in ("script", "onclick", "iframe", "object", "<style", "javascript:", "data:", "<img", "color:red"):
        assert bad not in clean
    assert 'href="https://ok.example/"' in clean


class _Recorder(http.server.BaseHTTPRequestHandler):
    hits: list = []

    def do_GET(self):  # noqa: N802
        _Recorder.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.end_headers()

    def log_message(self, *a):
        pass


def test_pdf_renderer_fetches_no_file_and_no_network(tmp_path):
    server = socketserver.TCPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    remote = f"http://127.0.0.1:{server.server_address[1]}"
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"not an image")
    md = (
        "# Hostile\n\n"
        f'<img src="file:///etc/passwd"> <img src="{secret.as_uri()}"> <img src="{remote}/pixel.png">\n\n'
        f"![tracker]({remote}/md-image.png)\n\n"
        f'<style>@import url("{remote}/import.css"); body {{ background: url("{remote}/bg.png") }}</style>\n\n'
        f'<link rel="stylesheet" href="{remote}/link.css">\n\n'
        f'<p style="background:url({remote}/inline.png)">styled</p>\n\n'
        'Text <ref id="tea">"Harvesting usually starts when the plant is three years old."</ref>\n'
    )
    try:
        result = publish_report(md, _sources(), tmp_path / "out")
    finally:
        server.shutdown()
        server.server_close()
    assert _Recorder.hits == []
    html = result.files["html"].read_text()
    # the model's markup is shown as text: no element of it loads anything
    from lxml import html as lxml_html

    doc = lxml_html.fromstring(html)
    assert not doc.xpath("//img | //link[not(@rel='icon')] | //body//style | //@src | //*[@style]")
    assert "&lt;img src=\"file:///etc/passwd\"&gt;" in html  # visible, inert
    assert all("@import" not in s for s in doc.xpath("//style/text()"))
    # the markdown image became a plain link, never an embedded image
    assert "Image: tracker" in html
    assert result.files["pdf"].stat().st_size > 1000


def test_cjk_and_missing_glyphs_render(tmp_path):
    src = Source("zh", "https://example.cn/a", "茶树喜欢酸性土壤。采摘通常在三年后开始。", "茶", "text")
    md = '# 茶\n\n茶树需要酸性土壤 <ref id="zh">"茶树喜欢酸性土壤。"</ref>。Glyphs: \U0001d11e \U0010fffd 𓀀\n'
    result = publish_report(md, [src], tmp_path)
    cites = json.loads(result.files["citations"].read_text())
    assert cites[0]["status"] == "verified"
    assert "%E8%8C%B6" in cites[0]["url"]  # UTF-8 percent-encoded
    assert result.files["pdf"].stat().st_size > 1000
    assert '<html lang="zh">' in result.files["html"].read_text()


def test_output_names_stay_inside_out_dir(tmp_path):
    from deep_research.errors import UserError
    from deep_research.publish.files import inside, safe_name

    assert safe_name("../../etc/passwd") == "etc-passwd"
    assert safe_name("What is  tea? / 茶") == "What-is-tea-茶"
    assert safe_name("....") == "report"
    with pytest.raises(UserError):
        inside(tmp_path, "../escape.md")
    assert inside(tmp_path, "report.md") == (tmp_path / "report.md").resolve()


def test_fetcher_itself_refuses_files_network_and_imports(tmp_path):
    """Even HTML that skipped sanitising cannot make WeasyPrint read a file or the network."""
    from deep_research.publish.pdf import render_pdf

    server = socketserver.TCPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    remote = f"http://127.0.0.1:{server.server_address[1]}"
    _Recorder.hits.clear()
    html = (
        f'<html><head><style>@import url("{remote}/import.css"); @import url("file:///etc/hostname");'
        f'body {{ background: url("{remote}/bg.png") }}</style>'
        f'<link rel="stylesheet" href="{remote}/link.css"></head><body>'
        f'<img src="file:///etc/passwd"><img src="{remote}/pixel.png"><img src="data:image/png;base64,AAAA">'
        "<p>hello</p></body></html>"
    )
    try:
        refused = render_pdf(html, tmp_path / "x.pdf")
    finally:
        server.shutdown()
        server.server_close()
    assert _Recorder.hits == []
    assert any("etc/passwd" in u for u in refused)
    assert any("import.css" in u for u in refused)
    assert any(u.startswith("data:") for u in refused)
    assert (tmp_path / "x.pdf").stat().st_size > 500


def test_malformed_refs_lose_their_markup_in_the_linked_report_but_stay_in_the_ui_report(tmp_path):
    md = ('# T\n\nGood <ref id="1">"Heat pumps move heat."</ref>, bad <ref id="1">"unclosed quote</ref>, '
          'stray </ref> and <ref>"no id"</ref>.\n')
    src = [Source("1", "https://example.org/a", "Heat pumps move heat. Other text.", "A")]
    result = publish_report(md, src, tmp_path, pdf=False)
    linked = (tmp_path / "report.linked.md").read_text()
    assert "<ref" not in linked and "</ref>" not in linked
    assert '"unclosed quote' in linked and '"no id"' in linked  # the words are kept
    assert "[1](https://example.org/a#:~:text=" in linked
    assert (tmp_path / "report.md").read_text().count("</ref>") == 4  # kept as written, to fix
    assert len(result.report.parsed.problems) == 4


def test_publish_pauses_the_cyclic_collector_only_while_it_checks_and_renders(tmp_path, monkeypatch):
    import gc

    from deep_research.publish import publisher

    seen = []
    real = publisher.check_citations

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(publisher, "check_citations", spy)
    md = 'Tea needs acidic soil <ref id="tea">"Tea plants grow best in acidic soil"</ref>.\n'
    assert gc.isenabled()
    publish_report(md, _sources(), tmp_path / "on", pdf=False)
    assert seen == [False] and gc.isenabled()  # off while checking, on again after
    gc.disable()
    try:  # a caller that turned it off keeps it off
        publish_report(md, _sources(), tmp_path / "off", pdf=False)
        assert not gc.isenabled()
    finally:
        gc.enable()
    monkeypatch.setattr(publisher, "check_citations", lambda *a, **k: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        publish_report(md, _sources(), tmp_path / "err", pdf=False)
    assert gc.isenabled()  # on again after a failure too


def test_a_long_url_in_the_pdf_sources_is_broken_but_never_hyphenated(tmp_path):
    """The body's `hyphens: auto` reached the Sources list's URLs: the PDF read
    "ht-tps://example.org/…" and "path-seg-ment", hyphens a reader copies with the URL.
    A URL may break anywhere, without an added hyphen."""
    url = "https://example.org/" + "segmentation/" * 12 + "?q=" + "x" * 60
    src = [Source("a", url, "Heat pumps move heat from a cold place to a warm place.", "A page", "text")]
    md = 'Heat pumps move heat <ref id="a">"Heat pumps move heat from a cold place to a warm place."</ref>.\n'
    result = publish_report(md, src, tmp_path / "out")
    text = "".join(page.extract_text() for page in PdfReader(str(result.files["pdf"])).pages)
    joined = "".join(text.split())
    assert url in joined, joined[-800:]


def test_single_spaces_is_the_whitespace_regex():
    """html._single_spaces (badge titles) writes what re.sub(r"\\s+", " ", text) writes: str.split
    splits at exactly the characters "\\s" matches (every code point checked), runs at the
    ends become one space too."""
    import random
    import re

    from deep_research.publish.html import _single_spaces

    assert [i for i in range(0x110000) if bool(re.match(r"\s", chr(i))) != chr(i).isspace()] == []
    rnd = random.Random(5)
    chars = [" ", "\n", "\t", "\r", "\u00a0", "\u2003", "\x1c", "\x85", "\u3000", "\u2028", "a", "é", "\u200b", "."]
    for _ in range(20000):
        text = "".join(rnd.choice(chars) for _ in range(rnd.randrange(10)))
        assert _single_spaces(text) == re.sub(r"\s+", " ", text), repr(text)


def test_a_sources_section_of_the_report_that_is_replaced_is_kept_in_the_audit(tmp_path):
    """The report's own References section ("made up by the model", or a user's notes) was
    replaced by the checked list without a word: its text is kept in audit.json now
    (sources_replaced, with where it was and why); a report.md that publish wrote, whose
    Sources section is the checked list itself, is published again without one."""
    first = publish_report(REPORT, _sources(), tmp_path / "one", pdf=False)
    audit = json.loads(first.files["audit"].read_text())
    replaced = audit["sources_replaced"]
    assert replaced["heading"] == "References" and replaced["line"] == REPORT.splitlines().index("## References") + 1
    assert replaced["text"] == "## References\n\n- made up by the model\n"
    assert f"'References' section (line {replaced['line']}, 3 line(s))" in replaced["note"] and "sources_replaced.text" in replaced["note"]
    assert first.sources_replaced == {k: replaced[k] for k in ("heading", "line", "text")}
    again = publish_report(first.files["markdown"].read_text(), _sources(), tmp_path / "two", pdf=False)
    assert again.sources_replaced is None and "sources_replaced" not in json.loads(again.files["audit"].read_text())
    bare = publish_report(REPORT.split("## References")[0], _sources(), tmp_path / "three", pdf=False)
    assert bare.sources_replaced is None


def test_a_replaced_sources_section_is_kept_in_the_audit_without_url_credentials(tmp_path):
    """audit.json is written and served like every other file: the model's own Sources text
    it keeps (sources_replaced.text) lists URLs without their credentials, masked as a
    source's URL is (a token as the user name, a signature, an api_key); the rest of the text
    and a short value of a sometimes-secret name stay as written."""
    listed = ("## References\n\n- https://ghp_abcdefghijklmnop@git.example.org/notes\n"
              "- [the study](https://files.example.org/s.pdf?X-Amz-Signature=0123456789abcdef0123&page=2)\n"
              "- https://api.example.org/v1?api_key=sk-live-00000000&code=CIV, seen in 2024\n")
    result = publish_report(REPORT.split("## References")[0] + listed, _sources(), tmp_path, pdf=False)
    text = json.loads(result.files["audit"].read_text())["sources_replaced"]["text"]
    assert "ghp_abcdefghijklmnop" not in text and "0123456789abcdef0123" not in text and "sk-live" not in text
    assert "https://***@git.example.org/notes" in text
    assert "X-Amz-Signature=***&page=2)" in text and "api_key=***&code=CIV, seen in 2024" in text


DISAGREE_PAGES = [
    Source("norway", "https://stats.example.org/norway", "In Norway, 60 percent of houses had a heat pump by 2020.",
           "Norway statistics", "text"),
    Source("survey", "https://survey.example.net/heat", "In Norway, 50 percent of houses had a heat pump by 2020. "
           "Heat pumps are common in Scandinavia.", "A survey", "text"),
]
DISAGREE_REPORT = """# Heat pumps

Heat pumps are common in Scandinavia <ref id="survey">"Heat pumps are common in Scandinavia."</ref>.

In Norway, 60 percent of houses had a heat pump by 2020 <ref id="norway">"In Norway, 60 percent of houses had a heat pump by 2020."</ref>.

In Norway, 50 percent of houses had a heat pump by 2020 <ref id="survey">"In Norway, 50 percent of houses had a heat pump by 2020."</ref>.
"""


@pytest.mark.parametrize("style, first, second", [("numbered", "[2]", "[1]"), ("apa", "stats.example.org, n.d.",
                                                                                  "survey.example.net, n.d.")])
def test_sources_disagree_names_the_citations_as_their_badges_show_them(tmp_path, style, first, second):
    """The "Sources disagree" section named each side by its ref's place in the report
    ("citation 2", "citation 3"), a number no badge shows: the reader sees the source's
    number (or its author-date marker). Found on a Python-documentation run whose section
    said "citation 7" of a claim whose badge was 4."""
    publish_report(DISAGREE_REPORT, DISAGREE_PAGES, tmp_path, pdf=False, citation_style=style)
    audit = json.loads((tmp_path / "audit.json").read_text())
    assert audit["sources_disagree"][0]["refs"] == [[2], [3]]  # citations.json's "n", unchanged
    html = (tmp_path / "report.html").read_text()
    section = html.split('id="sources-disagree"', 1)[1].split("</section>", 1)[0]
    assert "citation 2" not in section and "citation 3" not in section
    assert f"({first}: 60)" in section, section
    assert f"({second}: 50)" in section, section


def test_uncited_statements_are_listed_as_written_in_html_pdf_and_word(tmp_path):
    """"A wrapper written as `f(*args, **kwargs)` in prose" was listed as "A wrapper written
    as in prose" (the claim plainer drops code spans and strips stars and underscores). The
    list shows the statement's markdown as written: markup as literal text, code as code."""
    from tests.citations.test_flags import UNCITED_AS_WRITTEN, UNCITED_PAGES

    publish_report(UNCITED_AS_WRITTEN, UNCITED_PAGES, tmp_path, pdf=True, docx=True)
    html = (tmp_path / "report.html").read_text()
    section = html.split('id="uncited-statements"', 1)[1].split("</section>", 1)[0]
    assert ("&ldquo;A wrapper written as <code>f(*args, **kwargs)</code> in prose was added in Python 3.11 by "
            "**Guido** and _friends_ &lt;b&gt;x&lt;/b&gt; [3].&rdquo;") in section, section
    assert "&ldquo;The <code>a`b</code> tool had 5 users" in section
    assert "&ldquo;2020 · <code>x|y</code> 5 users of the tool · Acme Corp&rdquo;" in section
    from pypdf import PdfReader

    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(tmp_path / "report.pdf").pages)
    listed = text.split("Statements without a citation", 1)[1]
    assert "f(*args, **kwargs) in prose was added in Python 3.11 by **Guido** and _friends_ <b>x</b> [3]." in listed
    import docx

    paragraphs = docx.Document(str(tmp_path / "report.docx")).paragraphs
    at = next(i for i, p in enumerate(paragraphs) if p.text == "Statements without a citation")
    item = paragraphs[at + 1]
    assert "f(*args, **kwargs) in prose was added in Python 3.11 by **Guido** and _friends_ <b>x</b> [3]." in item.text
    assert [r.text for r in item.runs if r.font.name == "Courier New"] == ["f(*args, **kwargs)"]  # as code

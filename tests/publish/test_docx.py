"""report.docx: published from the README example (and from hostile input), opened again
with python-docx and as a zip, and (when LibreOffice is installed) converted to PDF, to
check that text, structure, badges and every citation link with its text fragment survive."""

import html
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import docx
import pytest
from docx.oxml.ns import qn

from deep_research.citations.model import Source
from deep_research.publish import publish_report
from tests.research.runtime.test_budgets import corpus  # noqa: F401 - the indexed corpus fixture

ROOT = Path(__file__).resolve().parents[2]
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
EXTRA = """
## Method notes

Steps, **in order** and *with care*, using `pile.turn()`:

1. Collect scraps
2. Add browns
    - dry leaves
    - shredded cardboard
        - plain, no gloss
3. Turn weekly

- first bullet
- second bullet

> A quoted remark about compost.

```python
def turn(pile):
    return  pile[::-1]  # two spaces kept
```

Contact [the editor](mailto:editor@example.org).

| Material | Role | Source |
|---|---|---|
| Dry leaves | Brown (carbon) | <ref id="basics">"Shred them first so they break down faster."</ref> |
| Meat | Leave out | <ref id="basics">"Meat, fish and dairy, which attract pests in a home pile."</ref> |
"""


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "deep_research.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, timeout=180, check=False)


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("docx")
    report = tmp / "report.md"
    text = (ROOT / "examples/report.md").read_text(encoding="utf-8")
    at = text.index("## Sources")
    report.write_text(text[:at] + EXTRA + "\n" + text[at:], encoding="utf-8")
    out = tmp / "out"
    r = run_cli("publish", report, "--sources", ROOT / "examples/sources.json", "--out", out, "--docx", "--no-pdf")
    assert r.returncode == 0, r.stderr
    assert "report.docx" in r.stdout  # the CLI lists it among the written files
    return out


def _rels(path: Path) -> list[dict]:
    with zipfile.ZipFile(path) as z:
        xml = z.read("word/_rels/document.xml.rels").decode()
    return [{k: html.unescape(v) for k, v in re.findall(r'(\w+)="([^"]*)"', m)}
            for m in re.findall(r"<Relationship\b([^>]*)/?>", xml)]


def _external_targets(path: Path) -> list[str]:
    return [r["Target"] for r in _rels(path) if r.get("TargetMode") == "External"]


def _paragraph_links(doc) -> list[tuple[str, str]]:
    """(link text, target) of every w:hyperlink in the body, read through python-docx."""
    out = []
    for p in _all_paragraphs(doc):
        for h in p.hyperlinks:
            out.append((h.text, h.address + (f"#{h.fragment}" if h.fragment else "")))
    return out


def _all_paragraphs(doc):
    """Every paragraph in document order, those of table cells included."""
    for block in doc.iter_inner_content():
        if isinstance(block, docx.table.Table):
            for row in block.rows:
                for cell in row.cells:
                    yield from cell.paragraphs
        else:
            yield block


def test_docx_is_listed_in_outputs_and_audit(published):
    audit = json.loads((published / "audit.json").read_text())
    assert audit["files"]["docx"] == "report.docx"
    assert "docx_s" in audit["timings_s"]
    assert audit["citation_style"] == "numbered"
    assert (published / "report.docx").stat().st_size > 10_000


def test_structure_reads_back(published):
    doc = docx.Document(str(published / "report.docx"))
    paras = list(doc.paragraphs)
    by_style = {}
    for p in paras:
        by_style.setdefault(p.style.name, []).append(p.text)
    assert by_style["Title"] == ["Home and municipal composting: what works"]
    assert doc.core_properties.title == "Home and municipal composting: what works"
    headings = by_style["Heading 1"]
    for h in ("Summary", "Getting the mix right", "Heat, air and water", "Municipal programs", "中文资料",
              "Method notes", "Sources"):
        assert h in headings
    # the model's own Sources list is replaced by the checked one
    assert not any("written by the model" in p.text for p in paras)
    # lists: numbers written from the list, nesting as indentation, bullets in Word's list styles
    texts = [p.text for p in paras]
    assert "1.\tCollect scraps" in texts and "2.\tAdd browns" in texts and "3.\tTurn weekly" in texts
    bullets = {p.text: p for p in paras if p.style.name.startswith("List Bullet")}
    assert set(bullets) >= {"first bullet", "second bullet", "dry leaves", "shredded cardboard", "plain, no gloss"}
    assert bullets["dry leaves"].style.name == "List Bullet 2"
    assert bullets["plain, no gloss"].style.name == "List Bullet 3"
    indent = lambda p: p.paragraph_format.left_indent
    assert indent(bullets["first bullet"]) < indent(bullets["dry leaves"]) < indent(bullets["plain, no gloss"])
    # inline formatting
    steps = next(p for p in paras if p.text.startswith("Steps,"))
    runs = {r.text: r for r in steps.runs}
    assert runs["in order"].bold and runs["with care"].italic
    assert runs["pile.turn()"].font.name == "Courier New"
    # code block: one monospace paragraph, its lines and spaces kept
    code = next(p for p in paras if p.style.name == "Code Block")
    assert code.text == "def turn(pile):\n    return  pile[::-1]  # two spaces kept"
    assert next(p for p in paras if "quoted remark" in p.text).style.name == "Quote"
    # the table and the citation badges in its cells
    cells = [[c.text for c in row.cells] for row in doc.tables[0].rows]
    assert cells[0] == ["Material", "Type", "Note"]
    assert cells[1][0] == "Coffee grounds" and cells[2][0] == "Dry leaves"
    # a cell stating its fact in its quote's words: proven, the tick
    assert re.fullmatch(r"Paper filters can go in too \[\d+\]\u2009\u2713", cells[1][2])
    cells = [[c.text for c in row.cells] for row in doc.tables[1].rows]
    assert cells[0] == ["Material", "Role", "Source"]
    # a cell holding only a ref has no claim of its own: a neutral badge, never the verified tick
    assert re.fullmatch(r"\[\d+\]\u2009\u2013 quote found; no claim to check", cells[1][2])
    # a quote the sentence needs is there in words, the badge after it
    hot = next(p.text for p in paras if "The centre of a hot pile" in p.text)
    assert re.search(r"The centre of a hot pile \u201ctypically reaches 55 to 65 °C, which is hot enough to kill "
                     r"most weed seeds and many plant pathogens\u201d\[\d+\]\u2009\? claim not checked\.", hot), hot


def test_badges_and_sources_as_text(published):
    doc = docx.Document(str(published / "report.docx"))
    body = "\n".join(p.text for p in _all_paragraphs(doc))
    cites = json.loads((published / "citations.json").read_text())
    # one badge per citation, saying what the HTML badge says
    assert body.count("\u2717 not found in this source") == sum(c["status"] == "unsupported" for c in cites)
    assert len(re.findall(r"\[\d+\]\u2009(?:\u2713|\u2717|!|\?|\u2013) ?", body)) == len(cites)
    assert "Every citation was checked against the text of the page it cites" in body
    # the legend: each count stands apart from its words (Word showed "12proven: the quote …")
    assert re.search(r"\b\d+ proven: the quote is on the page", body), body[:800]
    assert not re.search(r"\d(?:proven|the sentence|not checked|no claim)", body), body[:800]
    # the Sources list: each source's title and link, each quote under it
    at = body.index("\nSources\n")
    sources = body[at:]
    for s in json.loads((ROOT / "examples/sources.json").read_text()):
        assert s["title"] in sources and s["url"] in sources
    for c in cites:
        quote = " ".join((c["highlight_text"] or c["quote"]).split())
        assert f"\u201c{quote}\u201d" in sources
    assert "repaired" in sources and "not found in this source" in sources  # the quotes' flags


def test_every_citation_is_a_link_with_its_fragment(published):
    path = published / "report.docx"
    cites = json.loads((published / "citations.json").read_text())
    targets = _external_targets(path)
    urls = {c["url"] for c in cites}
    fragment_urls = {c["url"] for c in cites if c["fragment"]}
    assert fragment_urls and all("#:~:text=" in u for u in fragment_urls)
    assert urls <= set(targets)  # exactly, fragment, %2C and %2D escapes included
    assert any("%2C" in u for u in fragment_urls) and any("%2D" in u for u in fragment_urls)
    sources = {s["url"] for s in json.loads((ROOT / "examples/sources.json").read_text())}
    assert set(targets) <= urls | sources | {"mailto:editor@example.org"}
    # and read through python-docx: each citation's link text is its number, in report order
    doc = docx.Document(str(path))
    links = _paragraph_links(doc)
    badge_links = [(t, u) for t, u in links if re.fullmatch(r"\[\d+\]", t)]
    assert [u for _, u in badge_links] == [c["url"] for c in cites]
    assert [t for t, _ in badge_links] == [f"[{c['number']}]" for c in cites]
    # the quote travels with the link as its tooltip
    hyper = doc.element.body.findall(".//" + qn("w:hyperlink"))
    tips = [h.get(qn("w:tooltip")) or "" for h in hyper]
    assert any("A well-managed pile" in t for t in tips)


def test_no_images_objects_or_fields(published):
    path = published / "report.docx"
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        xml = z.read("word/document.xml").decode()
        all_rels = "".join(z.read(n).decode() for n in names if n.endswith(".rels"))
    assert not any(n.startswith(("word/media/", "word/embeddings/")) or n.endswith((".jpeg", ".png", ".bin"))
                   for n in names)
    assert not re.search(r"relationships/(image|oleObject|package|attachedTemplate|frame|subDocument)", all_rels)
    for tag in ("w:drawing", "w:pict", "w:object", "w:fldSimple", "w:instrText", "w:altChunk"):
        assert f"<{tag}" not in xml
    assert {r.get("TargetMode") for r in _rels(path)} <= {None, "External"}
    assert all(r["Type"].endswith("/hyperlink") for r in _rels(path) if r.get("TargetMode") == "External")


HOSTILE = """# Hostile

Raw <a href="javascript:alert(1)">raw js</a> and <img src="http://evil.example/pixel.png"> and
<script>alert(2)</script> and an image ![tracker](http://evil.example/t.png) and a
[js link](javascript:alert(3)) and [data link](data:text/html,<b>x</b>) and
[file link](file:///etc/passwd) and [relative](../secret.txt) and [vb](vbscript:x) and
[ok link](https://example.org/ok) <ref id="s1">"The sky is blue."</ref>

<iframe src="https://evil.example/frame"></iframe>
"""


def test_hostile_report_has_no_live_link_but_allowed_ones(tmp_path):
    src = [Source("s1", "https://example.org/sky", "The sky is blue. Grass is green.", "Sky")]
    result = publish_report(HOSTILE, src, tmp_path, pdf=False, docx=True)
    path = result.files["docx"]
    targets = _external_targets(path)
    assert targets, "the allowed links are live"
    assert all(re.match(r"(https?|mailto):", t) for t in targets), targets
    assert not any("passwd" in t or "secret" in t or "frame" in t for t in targets)
    # an image is never loaded: as in the HTML, it becomes a plain link to its address
    assert "http://evil.example/pixel.png" not in targets  # raw <img>: shown as text
    assert "http://evil.example/t.png" in targets
    assert "https://example.org/ok" in targets
    assert any(t.startswith("https://example.org/sky#:~:text=") for t in targets)
    doc = docx.Document(str(path))
    body = "\n".join(p.text for p in doc.paragraphs)
    # raw HTML is shown as text, as in report.html (the output policy escapes it)
    assert "<script>alert(2)</script>" in body and '<iframe src="https://evil.example/frame">' in body
    for shown in ("js link", "data link", "file link", "relative"):
        assert shown in body  # defused links keep their words as text
    with zipfile.ZipFile(path) as z:
        assert not any(n.startswith("word/media/") for n in z.namelist())
        xml = z.read("word/document.xml").decode()
    assert "<w:drawing" not in xml and "<w:object" not in xml
    # every w:hyperlink is either an in-document anchor or one of the allowed targets
    rels = {r["Id"]: r["Target"] for r in _rels(path)}
    for h in docx.Document(str(path)).element.body.iter(qn("w:hyperlink")):
        rid = h.get(f"{{{R_NS}}}id")
        assert rid is None and h.get(qn("w:anchor")) or rels[rid] in targets


def test_local_file_source_links_only_to_cited_file(tmp_path):
    page = tmp_path / "page.txt"
    page.write_text("Local pages hold text. More text here.", encoding="utf-8")
    md = ("# Local\n\nIt says so <ref id=\"f\">\"Local pages hold text.\"</ref> and [other](file:///etc/hosts).\n")
    result = publish_report(md, [Source("f", page.as_uri(), page.read_text(), "Local page")], tmp_path / "o",
                            pdf=False, docx=True)
    targets = _external_targets(result.files["docx"])
    assert any(t.startswith(page.as_uri()) for t in targets)
    assert not any("/etc/hosts" in t for t in targets)


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_reads_docx_and_keeps_link_fragments(published, tmp_path):
    from pypdf import PdfReader

    profile = (tmp_path / "lo-profile").as_uri()
    r = subprocess.run(["soffice", "--headless", "--norestore", f"-env:UserInstallation={profile}",
                        "--convert-to", "pdf", "--outdir", str(tmp_path), str(published / "report.docx")],
                       capture_output=True, text=True, timeout=240, check=False)
    pdf = tmp_path / "report.pdf"
    assert pdf.is_file(), r.stderr
    reader = PdfReader(str(pdf))
    text = "\n".join(p.extract_text() for p in reader.pages)
    flat = " ".join(text.split())
    for words in ("Home and municipal composting", "Getting the mix right", "Dry leaves", "Collect scraps",
                  "not found in this source", "def turn(pile):"):
        assert words in flat
    uris = []
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            action = annot.get_object().get("/A")
            if action is not None and "/URI" in action:
                uris.append(str(action["/URI"]))
    cites = json.loads((published / "citations.json").read_text())
    # LibreOffice writes %2D as "-" (the same URI under RFC 3986 normalisation); all else exact
    norm = lambda u: u.replace("%2D", "-")
    assert {norm(c["url"]) for c in cites} <= set(uris)
    assert any("#:~:text=" in u and "%2C" in u for u in uris)


def test_research_run_writes_docx_in_its_style(corpus, tmp_path):  # noqa: F811 - the fixture
    """The research graph (scripted models, local corpus) publishes with the run's settings:
    write_docx and citation_style reach the publisher, and the outputs list report.docx."""
    from tests.research.runtime.test_budgets import run

    state, *_ = run(corpus, tmp_path, write_docx=True, citation_style="apa")
    v = state.values
    assert v["status"] == "completed"
    path = Path(v["outputs"]["docx"])
    assert path.name == "report.docx" and path.is_file()
    cites = json.loads(Path(v["outputs"]["citations"]).read_text())
    assert cites and all(c["citation_style"] == "apa" for c in cites)
    text = "\n".join(p.text for p in _all_paragraphs(docx.Document(str(path))))
    assert cites[0]["in_text"] in text and cites[0]["in_text"].startswith("(")
    assert {c["url"] for c in cites if c["url"]} <= set(_external_targets(path))


def test_language_and_right_to_left(tmp_path):
    src = [Source("a", "https://ex.org/a", "السماء زرقاء. العشب أخضر.", "صفحة")]
    md = '# تقرير\n\nالسماء زرقاء <ref id="a">"السماء زرقاء."</ref>\n'
    rtl = publish_report(md, src, tmp_path / "ar", pdf=False, docx=True, lang="ar").files["docx"]
    ltr = publish_report("# Sky\n\nBlue <ref id=\"s\">\"The sky is blue.\"</ref>\n",
                         [Source("s", "https://ex.org/s", "The sky is blue.", "Sky")], tmp_path / "en",
                         pdf=False, docx=True, lang="en").files["docx"]
    with zipfile.ZipFile(rtl) as z:
        styles = z.read("word/styles.xml").decode()
    assert 'w:lang w:val="ar"' in styles and "<w:bidi/>" in styles
    with zipfile.ZipFile(ltr) as z:
        styles = z.read("word/styles.xml").decode()
    assert 'w:lang w:val="en"' in styles and "<w:bidi/>" not in styles
    doc = docx.Document(str(rtl))
    assert doc.paragraphs[1].text == "تقرير" and doc.paragraphs[1].style.name == "Title"


def test_properties_in_schema_order(published, tmp_path):
    """Word refuses a file whose paragraph or run properties are out of the schema's order."""
    from lxml import etree

    from deep_research.publish.docx import PPR_ORDER, RPR_ORDER

    rtl = publish_report('# تقرير\n\nنص <ref id="a">"السماء زرقاء."</ref>\n',
                         [Source("a", "https://ex.org/a", "السماء زرقاء.", "صفحة")], tmp_path, pdf=False,
                         docx=True, lang="ar").files["docx"]
    checked = 0
    for path in (published / "report.docx", rtl):
        with zipfile.ZipFile(path) as z:
            for part in ("word/document.xml", "word/styles.xml"):
                root = etree.fromstring(z.read(part))
                for tag, order in (("pPr", PPR_ORDER), ("rPr", RPR_ORDER)):
                    for props in root.iter(qn(f"w:{tag}")):
                        names = [etree.QName(c).localname for c in props if isinstance(c.tag, str)]
                        known = [n for n in names if n in order]
                        assert known == sorted(known, key=order.index), (path.name, part, names)
                        checked += 1
    assert checked > 100


def test_control_characters_a_page_kept_do_not_fail_the_word_export(tmp_path):
    """Issue 19: a page kept ``&#1;``, ``&#27;`` and U+FFFE; the quoted sentence carried them
    into the report and python-docx refused the run, failing the export (and every resume).
    Every output shows a control character as an escape (terminal.inert_text), report.docx too."""
    text = "The sky is \x01blue\x1b[31m today\ufffe. Grass is green."
    src = [Source("s1", "https://example.org/sky", text, "Sky \x1b]52;c;ZXZpbA==\x07 title")]
    md = "# Sky \x02report\n\nThe sky <ref id=\"s1\">\"The sky is \x01blue\x1b[31m today\ufffe.\"</ref>.\n"
    result = publish_report(md, src, tmp_path, pdf=False, docx=True)
    doc = docx.Document(str(result.files["docx"]))
    body = "\n".join(p.text for p in _all_paragraphs(doc))
    assert "\\x01blue\\x1b[31m today" in body and not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe]", body)


def _rtl_table_report(tmp_path):
    src = [Source("he", "https://ex.org/he", "השמיים כחולים. הדשא ירוק.", "דף עברי"),
           Source("en", "https://ex.org/en", "The sky is blue over Paris.", "English page")]
    md = ('# Colours\n\nThe sky is blue <ref id="en">"The sky is blue over Paris."</ref>.\n\n'
          '| Language | Sentence |\n|---|---|\n| Hebrew | השמיים כחולים <ref id="he">"השמיים כחולים."</ref> |\n')
    return publish_report(md, src, tmp_path, pdf=False, docx=True, lang="en")


def test_citation_marker_after_right_to_left_text_keeps_the_paragraph_direction(tmp_path):
    """A marker after Hebrew in a left-to-right document: without a left-to-right mark before
    '[2]', the bidi algorithm joins '[2' to the Hebrew run and shows the marker on the left
    of the Hebrew words (seen in LibreOffice's rendering of report.docx)."""
    doc = docx.Document(str(_rtl_table_report(tmp_path).files["docx"]))
    cell = doc.tables[0].rows[1].cells[1].paragraphs[0]
    text = "".join(n.text or "" for n in cell._p.iter(qn("w:t")))
    assert "כחולים" in text
    assert re.search("כחולים \u200e\\[\\d\\]", text), repr(text)


def test_quote_in_sources_is_marked_with_its_own_direction(tmp_path):
    """The Sources list quotes a Hebrew sentence inside a left-to-right line: its final
    period must stay with the Hebrew (shown at its left end), so the quote is enclosed in
    right-to-left marks; an English quote in the same list gets none."""
    result = _rtl_table_report(tmp_path)
    html_text = Path(result.files["html"]).read_text()
    assert "&ldquo;\u200fהשמיים כחולים.\u200f&rdquo;" in html_text
    assert "&ldquo;The sky is blue over Paris.&rdquo;" in html_text
    doc = docx.Document(str(result.files["docx"]))
    assert any("\u201c\u200fהשמיים כחולים.\u200f\u201d" in p.text for p in _all_paragraphs(doc))


def test_own_direction_marks_only_a_quote_against_the_page():
    from deep_research.publish.html import own_direction

    assert own_direction("השמיים כחולים.", "ltr") == "\u200fהשמיים כחולים.\u200f"
    assert own_direction("The sky is blue.", "rtl") == "\u200eThe sky is blue.\u200e"
    assert own_direction("السماء زرقاء.", "rtl") == "السماء زرقاء."
    assert own_direction("The sky is blue.", "ltr") == "The sky is blue."
    assert own_direction("42 %", "ltr") == "42 %"


def test_a_paragraph_of_many_citations_reads_its_text_once_not_at_every_badge(tmp_path, monkeypatch):
    """Each badge asks the direction of the text before it. Reading the whole paragraph again at
    every badge made a paragraph of thousands of citations quadratic (a hostile report's Word file
    ran for over 30 minutes); the writer reads each part of the paragraph once - and still puts the
    mark after the Hebrew words."""
    from deep_research.publish import docx as docx_module

    scanned = []
    real = docx_module.strong_direction
    monkeypatch.setattr(docx_module, "strong_direction",
                        lambda text, last=False: scanned.append(len(text)) or real(text, last=last))
    src = [Source("en", "https://ex.org/en", "The sky is blue over Paris.", "English page"),
           Source("he", "https://ex.org/he", "השמיים כחולים.", "דף עברי")]
    n = 400
    md = ("# Colours\n\nהשמיים כחולים <ref id=\"he\">\"השמיים כחולים.\"</ref> and the sky is blue"
          + ' <ref id="en">"The sky is blue over Paris."</ref>' * n + ".\n")
    out = publish_report(md, src, tmp_path, pdf=False, docx=True, lang="en")
    paragraph = max(docx.Document(str(out.files["docx"])).paragraphs, key=lambda p: len(p._p))
    text = "".join(t.text or "" for t in paragraph._p.iter(qn("w:t")))
    assert re.search("כחולים \u200e\\[\\d\\]", text), repr(text[:80])
    assert text.count("[") >= n
    # linear: about the paragraph's length once (a re-read at every badge: ~n/2 times it)
    assert sum(scanned) < 20 * len(text), (sum(scanned), len(text))


def test_a_wide_table_is_written_in_time_proportional_to_its_cells(tmp_path, monkeypatch):
    """A hostile report's table of 400 columns and 50 rows: python-docx's ``table.cell(i, j)``
    lists every cell of the table at each call, so the Word file took hours (a 30 x 30 table
    already 28 s). The writer reads each row's cells once, and every cell holds its own text."""
    from docx.table import Table

    listed = []
    real = Table._cells
    monkeypatch.setattr(Table, "_cells", property(lambda self: listed.append(1) or real.fget(self)))
    src = [Source("en", "https://ex.org/en", "The sky is blue over Paris.", "English page")]
    cols, rows = 60, 30
    md = ("# Colours\n\nThe sky is blue <ref id=\"en\">\"The sky is blue over Paris.\"</ref>.\n\n"
          + "|" + "|".join(f"h{j}" for j in range(cols)) + "|\n|" + "---|" * cols + "\n"
          + "".join("|" + "|".join(f"r{i}c{j}" for j in range(cols)) + "|\n" for i in range(rows)))
    out = publish_report(md, src, tmp_path, pdf=False, docx=True, lang="en")
    table = docx.Document(str(out.files["docx"])).tables[0]
    assert len(listed) < rows, len(listed)  # not once per cell (1,860 times)
    assert [c.text for c in table.rows[0].cells][:3] == ["h0", "h1", "h2"]
    assert table.rows[17].cells[42].text == "r16c42" and table.rows[rows].cells[cols - 1].text == f"r{rows - 1}c{cols - 1}"

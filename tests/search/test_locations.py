"""Locations in local documents: each citation of a PDF, slide deck, workbook, EPUB or CSV
names where its quote is, and a PDF link opens the cited page. Real files, written by the
formats' own writers (weasyprint, python-pptx, openpyxl, ebooklib, the csv module)."""

from __future__ import annotations

import csv
import json
import sqlite3
import zipfile
from pathlib import Path
from urllib.parse import quote

import pytest

from deep_research.citations.check import Citation, check_citations
from deep_research.citations.model import Source
from deep_research.search import LocalCorpus, build_index
from deep_research.search.extract import _reflow
from tests.support.formats_corpus import (
    EPUB_SENTENCE,
    PPTX_NOTE,
    PPTX_SENTENCE,
    XLSX_ROW,
    write_epub,
    write_pptx,
    write_xlsx,
)

PAGE_SENTENCES = {
    1: "The first page describes the borehole drilling permit.",
    2: "The second page says the loop field needs forty metres per kilowatt.",
    3: "The third page lists the commissioning checks for the installer.",
}


def write_three_page_pdf(path: Path) -> Path:
    import weasyprint

    pages = "".join(f'<p style="page-break-after: always">{s} Filler words about geothermal loops.</p>'
                    for s in PAGE_SENTENCES.values())
    weasyprint.HTML(string=f"<html><body>{pages}</body></html>").write_pdf(path)
    return path


def _indexed(tmp_path: Path, *files: tuple[str, object], base_url: str | None = None) -> Path:
    """A folder holding each ``(name, writer)``'s file, indexed."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, write in files:
        write(folder / name)
    build_index(folder, base_url=base_url)
    return folder


def _source(folder: Path, name: str, query: str) -> Source:
    corpus = LocalCorpus.open(folder)
    hit = next(h for h in corpus.search_sync(query, max_results=10) if h.url.endswith("/" + name))
    return Source("s1", hit.url, hit.content, hit.title, hit.format, locations=hit.locations)


def _cite(folder: Path, name: str, quote: str, query: str | None = None) -> Citation:
    source = _source(folder, name, query or quote)
    (c,) = check_citations(f'A claim about it <ref id="s1">"{quote}"</ref>.', [source]).citations
    assert c.check.found, (quote, source.content)
    return c


def test_a_pdf_citation_opens_its_page(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    pdf = write_three_page_pdf(folder / "loops.pdf")
    build_index(folder)
    for page, sentence in PAGE_SENTENCES.items():
        c = _cite(folder, "loops.pdf", sentence)
        # the page, and the quote for viewers that search (pdf.js: Firefox's)
        assert c.url == pdf.as_uri() + f"#page={page}&search={quote(sentence, safe='')}&phrase=true"
        assert c.location is not None and c.location.text == f"page {page}"
        j = c.as_json()
        assert (j["location"], j["location_page"], j["fragment"]) == (f"page {page}", page, None)
        # why no sentence highlight: said, not hidden
        assert "PDF viewers do not support text fragments" in j["note"] and f"opens page {page}" in j["note"]


def test_a_pdf_published_at_a_base_url_links_its_page(tmp_path: Path) -> None:
    folder = _indexed(tmp_path, ("loops.pdf", write_three_page_pdf), base_url="https://docs.example.org/corpus/")
    c = _cite(folder, "loops.pdf", PAGE_SENTENCES[2])
    assert c.url.startswith("https://docs.example.org/corpus/loops.pdf#page=2&search=The%20second%20page%20says")


def test_a_line_joined_across_a_page_break_is_split_between_its_pages() -> None:
    text, starts = _reflow([["Intro line.", "The pump keeps running while the"], ["loop is cold.", "Next."]])
    assert text == "Intro line.\nThe pump keeps running while the loop is cold.\nNext."
    # page 2 starts at "loop", inside the joined line
    assert starts == [(1, 0), (2, text.index("loop"))]
    text, starts = _reflow([[], ["Only page two has text."], [], ["And page four."]])
    assert starts == [(2, 0), (4, text.index("And"))]


def test_a_slide_is_named(tmp_path: Path) -> None:
    folder = _indexed(tmp_path, ("briefing.pptx", write_pptx))
    assert _cite(folder, "briefing.pptx", PPTX_NOTE).location.text == "slide 1"
    c = _cite(folder, "briefing.pptx", "PowerPoint pangolin marker in a text box.")
    assert c.location.text == "slide 2" and c.location.page is None
    assert c.url == (folder / "briefing.pptx").as_uri()  # no page fragment outside PDFs
    assert _cite(folder, "briefing.pptx", PPTX_SENTENCE).as_json()["location"] == "slide 1"


def test_a_sheet_and_its_row_are_named(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    write_xlsx(folder / "costs.xlsx")
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Prices"
    ws["B3"], ws["C3"] = "Fuel", "Price"  # the table starts at row 3, column B
    ws["B4"], ws["C4"] = "Pellets", "0.08"
    # row 5 is empty; the rows after it keep their sheet numbers
    for row in range(6, 13):
        ws[f"B{row}"], ws[f"C{row}"] = f"Fuel number {row}", f"{row / 100}"
    wb.save(folder / "prices.xlsx")
    build_index(folder)
    assert _cite(folder, "costs.xlsx", XLSX_ROW).location.text == "sheet Costs, row 2"
    assert _cite(folder, "costs.xlsx", "Fuel: Electricity; Price per kWh: 0.3").location.text == "sheet Running, row 2"
    assert _cite(folder, "prices.xlsx", "Fuel: Pellets; Price: 0.08").location.text == "sheet Prices, row 4"
    assert _cite(folder, "prices.xlsx", "Fuel: Fuel number 12; Price: 0.12").location.text == "sheet Prices, row 12"
    two = _cite(folder, "prices.xlsx", "Fuel: Fuel number 7; Price: 0.07\nFuel: Fuel number 8",
                query="Fuel number 7")
    assert two.location.text == "sheet Prices, rows 7\u20138"


def test_an_epub_chapter_is_named(tmp_path: Path) -> None:
    folder = _indexed(tmp_path, ("handbook.epub", write_epub))
    assert _cite(folder, "handbook.epub", EPUB_SENTENCE).location.text == "chapter 1: Efficiency"
    c = _cite(folder, "handbook.epub", "ground-source heat pumps draw heat from pipes buried in the garden.")
    assert c.location.text == "chapter 2: Ground source"


def test_a_csv_row_is_named_as_a_spreadsheet_numbers_it(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    with (folder / "towns.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["Town", "Installations"])  # row 1
        w.writerow(["Alta", "two\nhundred"])  # row 2: one record over two lines of the file
        for n in range(3, 61):
            w.writerow([] if n == 10 else [f"Town {n}", f"{n * 7} heat pumps"])  # row 10 empty
    build_index(folder)
    assert _cite(folder, "towns.csv", "Town: Town 57; Installations: 399 heat pumps").location.text == "row 57"
    assert _cite(folder, "towns.csv", "Town: Town 9; Installations: 63 heat pumps").location.text == "row 9"
    assert _cite(folder, "towns.csv", "Town: Town 11; Installations: 77 heat pumps").location.text == "row 11"


def test_an_index_without_locations_still_searches_and_is_rebuilt(tmp_path: Path) -> None:
    """An index written before locations were stored (extractor version 2) is read with no
    locations, and the next index run rebuilds it."""
    folder = tmp_path / "docs"
    folder.mkdir()
    write_three_page_pdf(folder / "loops.pdf")
    report = build_index(folder)
    con = sqlite3.connect(report.index_path)
    con.execute("ALTER TABLE documents RENAME COLUMN locations TO unknown")  # as if it had none
    con.execute("UPDATE meta SET value = '2' WHERE key = 'extractor_version'")
    con.commit()
    con.close()
    source = _source(folder, "loops.pdf", PAGE_SENTENCES[2])
    assert source.locations is None and PAGE_SENTENCES[2] in source.content
    (c,) = check_citations(f'It <ref id="s1">"{PAGE_SENTENCES[2]}"</ref>.', [source]).citations
    assert c.url == (folder / "loops.pdf").as_uri() and c.location is None
    assert build_index(folder).rebuilt
    assert _source(folder, "loops.pdf", PAGE_SENTENCES[2]).locations is not None


HOSTILE = ('<img src=x onerror=alert(1)>](javascript:alert(1)) **b** "q" \\ `c` \u202egnp.exe '
           + "A" * 300)


def _hostile_workbook(folder: Path) -> Path:
    """A workbook whose sheet name no spreadsheet program would write: markup, a link, a
    right-to-left override and 300 more characters (the name is set in the XML)."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "PLACEHOLDER"
    ws.append(["Pump", "Noise"])
    ws.append(["Quiet model", "35 decibels at one metre"])
    plain = folder / "plain.xlsx"
    wb.save(plain)
    from xml.sax.saxutils import quoteattr

    target = folder / "hostile.xlsx"
    with zipfile.ZipFile(plain) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "xl/workbook.xml":
                data = data.replace(b'name="PLACEHOLDER"', b"name=" + quoteattr(HOSTILE).encode())
            zout.writestr(info.filename, data)
    plain.unlink()
    return target


def test_a_hostile_sheet_name_is_bounded_and_escaped_in_every_output(tmp_path: Path) -> None:
    from deep_research.publish import publish_report

    folder = tmp_path / "docs"
    folder.mkdir()
    _hostile_workbook(folder)
    build_index(folder, base_url="https://docs.example.org/corpus/")  # https: markdown-it links it
    quote = "Pump: Quiet model; Noise: 35 decibels at one metre"
    source = _source(folder, "hostile.xlsx", quote)
    assert "\u202e" in source.content  # the text keeps what the file says; only the label is cleaned
    c = _cite(folder, "hostile.xlsx", quote)
    label = c.location.text
    assert label.startswith("sheet <img src=x onerror=alert(1)>](javascript:alert(1))")
    assert label.endswith("\u2026, row 2") and len(label) <= 100
    assert "\u202e" not in label and "\\u202e" in label  # shown as an escape, never reordering the line
    report = f"# Noise\n\nThe quiet model is quiet <ref id=\"s1\">\"{quote}\"</ref>.\n"
    result = publish_report(report, [source], tmp_path / "out", pdf=True, docx=True)
    files = result.files
    cites = json.loads(files["citations"].read_text(encoding="utf-8"))
    assert cites[0]["location"] == label and cites[0]["location_page"] is None
    from markdown_it import MarkdownIt

    linked = files["linked"].read_text(encoding="utf-8")
    for key, html in (("linked", MarkdownIt("commonmark").render(linked)), ("html", files["html"].read_text("utf-8"))):
        assert "<img" not in html and 'href="javascript' not in html and "\u202e" not in html, key
        assert "**b** &#34;q&#34; \\ `c`" in html or "**b** &quot;q&quot; \\ `c`" in html, key  # shown as they are
    # the tooltip and the Sources list show the name as it is (escaped for markdown)
    assert "<strong>b</strong>" not in MarkdownIt("commonmark").render(linked)
    assert 'title="sheet &lt;img src=x onerror=alert(1)&gt;](javascript:alert(1)) **b** &quot;q&quot;' in \
        MarkdownIt("commonmark").render(linked)
    assert "cited at sheet \\<img src=x onerror=alert(1)\\>\\](javascript:alert(1)) \\*\\*b\\*\\*" in linked
    html = files["html"].read_text(encoding="utf-8")
    assert "&amp;lt;" not in html and "&amp;quot;" not in html  # escaped once, not twice
    assert "decibels at one metre\u201d \u2014 sheet &lt;img src=x onerror=alert(1)&gt;" in html  # the badge's tooltip
    assert "&lt;img src=x onerror=alert(1)&gt;](javascript:alert(1))" in html
    assert 'href="javascript' not in html
    with zipfile.ZipFile(files["docx"]) as z:
        xml = z.read("word/document.xml").decode("utf-8")
    assert "&lt;img src=x onerror=alert(1)&gt;" in xml and "<img" not in xml and "\u202e" not in xml


@pytest.mark.browser
def test_chromium_opens_a_cited_pdf_at_its_page(tmp_path: Path) -> None:
    """The link a PDF citation gets, opened in Chromium's own PDF viewer, shows the cited
    page: each page is painted its own colour and the viewer's screenshot is read back."""
    import io
    import time

    import weasyprint
    from PIL import Image

    from tests.support.chromium import Browser, chromium_available

    if not chromium_available():
        pytest.skip("no Chromium")
    colours = {1: (255, 255, 255), 2: (0, 200, 0), 3: (0, 0, 200)}
    pages = "".join(f'<div style="height: 290mm; background: rgb{colours[n]}; page-break-after: always">'
                    f"<p>{PAGE_SENTENCES[n]}</p></div>" for n in colours)
    folder = tmp_path / "docs"
    folder.mkdir()
    weasyprint.HTML(string=f"<style>@page {{ margin: 0 }}</style>{pages}").write_pdf(folder / "colours.pdf")
    build_index(folder)

    def colour_shown(url: str) -> tuple[int, int, int]:
        def run():
            page = browser._context.new_page()
            try:
                page.goto(url, timeout=30000)
                seen = None
                for _ in range(40):  # the viewer renders after the load event
                    time.sleep(0.25)
                    shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
                    seen = shot.getpixel((shot.width // 2 + 100, shot.height // 2))
                    if seen in colours.values() and seen != colours[1]:
                        return seen
                return seen
            finally:
                page.close()

        return browser._call(run)

    with Browser() as browser:
        for n in (2, 3):
            c = _cite(folder, "colours.pdf", PAGE_SENTENCES[n])
            assert f"#page={n}&search=" in c.url  # Chromium ignores the search part
            assert colour_shown(c.url) == colours[n], n  # a viewer that ignored #page would show page 1 (white)

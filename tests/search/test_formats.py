"""Word, PowerPoint, Excel, CSV/TSV and EPUB documents in the local corpus: real files made by
each format's writer are indexed, found and cited with verified quotes and plain links;
corrupt, encrypted, oversized and hostile files are skipped with a reason, quickly."""

from __future__ import annotations

import asyncio
import io
import json
import time
import zipfile
from pathlib import Path

import pytest

from deep_research.citations.check import check_citations
from deep_research.citations.model import Source
from deep_research.search import LocalCorpus, build_index, formats
from deep_research.search.local import _KINDS, DOCUMENT_TYPES
from tests.support.formats_corpus import (
    CSV_ROW,
    DOCX_SENTENCE,
    DOCX_SENTENCE_2,
    EPUB_SENTENCE,
    EPUB_SENTENCE_2,
    PPTX_NOTE,
    PPTX_SENTENCE,
    TSV_ROW,
    XLSX_ROW,
    write_all,
    write_csv,
    write_docx,
    write_epub,
    write_tsv,
    write_xlsx,
)

FILES = ["adoption.csv", "briefing.pptx", "costs.xlsx", "guide.docx", "handbook.epub", "sales.tsv"]


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    return write_all(tmp_path / "corpus")


def _content(folder: Path, name: str) -> tuple[str, str, str]:
    import sqlite3

    con = sqlite3.connect(folder / ".deep-research" / "index.sqlite")
    try:
        return con.execute("SELECT title, content, url FROM documents WHERE path = ?", (name,)).fetchone()
    finally:
        con.close()


def test_every_format_is_indexed_and_found(corpus: Path) -> None:
    report = build_index(corpus)
    assert sorted(report.added) == FILES and not report.skipped and report.unsupported == 0
    lc = LocalCorpus.open(corpus)
    for marker, name, title in [("quokka", "guide.docx", "Heat pump guide"),
                                ("pangolin", "briefing.pptx", "Heat pumps in cold climates"),
                                ("okapi", "costs.xlsx", "Heat pump costs"),
                                ("narwhal", "adoption.csv", "adoption.csv"),
                                ("Nordics", "sales.tsv", "sales.tsv"),
                                ("wombat", "handbook.epub", "Heat pump handbook")]:
        hits = lc.search_sync(marker)
        assert [h.url for h in hits] == [(corpus / name).as_uri()], marker
        assert hits[0].title == title and hits[0].format == "text"
        assert marker in hits[0].content and marker in hits[0].snippet


def test_text_keeps_headings_lists_tables_slides_sheets_and_reading_order(corpus: Path) -> None:
    build_index(corpus)
    docx_text = _content(corpus, "guide.docx")[1].splitlines()
    assert docx_text[:2] == ["# How heat pumps work", f"{DOCX_SENTENCE} {DOCX_SENTENCE_2}"]
    assert docx_text[2:7] == ["## Parts", "- compressor", "- evaporator", "1. Check the outdoor unit.",
                              "2. Bleed the radiators."]
    # the table sits between the list and the paragraph after it, one row per line
    assert docx_text[7:] == ["Country | Share of houses", "Country: Norway; Share of houses: 60 %",
                             "Country: Sweden; Share of houses: 43 %", "Word quokka marker after the table."]
    pptx_text = _content(corpus, "briefing.pptx")[1].splitlines()
    assert pptx_text[:4] == ["# Slide 1: Heat pumps in cold climates", PPTX_SENTENCE, "Notes:", PPTX_NOTE]
    assert pptx_text[4:] == ["# Slide 2: Sales by year", "Year | Units sold", "Year: 2021; Units sold: 2.2 million",
                             "Year: 2022; Units sold: 3 million", "PowerPoint pangolin marker in a text box."]
    xlsx_text = _content(corpus, "costs.xlsx")[1].splitlines()
    assert xlsx_text[:3] == ["# Sheet: Costs", "Item | Cost (EUR) | Where", XLSX_ROW]
    assert "Item: Ground-source heat pump installation; Cost (EUR): 22000; Where: detached house" in xlsx_text
    assert "Item: Grant; Where: Excel okapi marker" in xlsx_text  # the empty cell is left out
    # a formula without a cached value (openpyxl writes none) is an empty cell
    assert xlsx_text[-4:] == ["# Sheet: Running", "Fuel | Price per kWh", "Fuel: Electricity; Price per kWh: 0.3",
                              "Fuel: Gas"]
    assert CSV_ROW in _content(corpus, "adoption.csv")[1].splitlines()
    assert TSV_ROW in _content(corpus, "sales.tsv")[1].splitlines()
    # EPUB: spine order (chapter "two" was added to the book first)
    epub_text = _content(corpus, "handbook.epub")[1].splitlines()
    assert epub_text[:3] == ["# Efficiency", EPUB_SENTENCE, EPUB_SENTENCE_2]
    assert epub_text[3] == "# Ground source" and "wombat" in epub_text[4]


QUOTES = {
    "guide.docx": DOCX_SENTENCE_2,
    "briefing.pptx": PPTX_NOTE,
    "costs.xlsx": XLSX_ROW,
    "adoption.csv": CSV_ROW,
    "sales.tsv": TSV_ROW,
    "handbook.epub": EPUB_SENTENCE,
}


@pytest.mark.parametrize("base_url", [None, "https://docs.example.org/corpus/"])
def test_quotes_from_every_format_verify_with_a_plain_link(corpus: Path, base_url) -> None:
    build_index(corpus, base_url=base_url)
    lc = LocalCorpus.open(corpus)
    sources, lines = [], []
    for i, (name, quote) in enumerate(QUOTES.items()):
        url = _content(corpus, name)[2]
        hit = next(h for h in lc.search_sync(quote, max_results=10) if h.url == url)
        sources.append(Source(f"s{i}", hit.url, hit.content, hit.title, format=hit.format))
        lines.append(f'A claim from {name} <ref id="s{i}">"{quote}"</ref>.')
    lines.append('A wrong one <ref id="s0">"A heat pump burns fuel to make heat in a cold place."</ref>.')
    result = check_citations("\n\n".join(lines), sources)
    cites = [c.as_json() for c in result.citations]
    good, wrong = cites[:-1], cites[-1]
    assert [c["status"] for c in good] == ["verified"] * len(QUOTES)
    assert wrong["status"] == "unsupported"  # the check can fail: it compares with the text
    for c, name in zip(good, QUOTES, strict=True):
        expected = (corpus / name).as_uri() if base_url is None else base_url + name
        assert c["url"] == expected and c["fragment"] is None and c["fragment_covers"] is None
        assert "plain link" in c["note"], c


def test_the_cli_lists_every_document_type() -> None:
    from deep_research.cli import index as cli_index

    assert cli_index.DOCUMENT_TYPES == DOCUMENT_TYPES == ", ".join(_KINDS)
    for suffix in (".docx", ".pptx", ".xlsx", ".csv", ".tsv", ".epub"):
        assert suffix in DOCUMENT_TYPES


# --- bad and hostile files ------------------------------------------------------------------
def _rezip(src: Path, dst: Path, change) -> Path:
    """Copy a real archive member by member, letting ``change(name, data)`` alter it (None
    drops it); returns dst."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = change(info.filename, zin.read(info.filename))
            if data is not None:
                zout.writestr(info.filename, data)
    return dst


def test_a_corrupt_file_of_each_format_is_skipped_with_a_reason(corpus: Path, tmp_path: Path) -> None:
    bad = corpus / "bad"
    bad.mkdir()
    for name in ("guide.docx", "briefing.pptx", "costs.xlsx", "handbook.epub"):
        data = (corpus / name).read_bytes()
        (bad / f"truncated-{name}").write_bytes(data[: len(data) // 2])
    (bad / "text-named.docx").write_text("This is not a Word file at all.\n", encoding="utf-8")
    # a real archive with its main part removed
    _rezip(corpus / "guide.docx", bad / "no-body.docx", lambda n, d: None if n == "word/document.xml" else d)
    _rezip(corpus / "handbook.epub", bad / "no-container.epub",
           lambda n, d: None if n == "META-INF/container.xml" else d)
    _rezip(corpus / "costs.xlsx", bad / "broken-sheet.xlsx", lambda n, d: d[: len(d) // 2] if n.endswith("sheet1.xml") else d)
    (bad / "binary.csv").write_bytes(b"a,b\n\x00\x01,\x02\n")
    report = build_index(corpus)
    assert sorted(report.added) == FILES  # the good documents are all indexed
    reasons = {s.path.removeprefix("bad/"): s.reason for s in report.skipped}
    assert set(reasons) == {"truncated-guide.docx", "truncated-briefing.pptx", "truncated-costs.xlsx",
                            "truncated-handbook.epub", "text-named.docx", "no-body.docx",
                            "no-container.epub", "broken-sheet.xlsx", "binary.csv"}, reasons
    assert "not a valid Word (.docx) file (not a readable zip archive" in reasons["truncated-guide.docx"]
    assert "not a valid PowerPoint (.pptx) file" in reasons["truncated-briefing.pptx"]
    assert "not a valid Excel (.xlsx) file" in reasons["truncated-costs.xlsx"]
    assert "not a valid EPUB file" in reasons["truncated-handbook.epub"]
    assert "not a valid Word (.docx) file" in reasons["text-named.docx"]
    assert reasons["no-body.docx"].startswith("unreadable Word (.docx) file (")
    assert reasons["no-container.epub"] == "not a valid EPUB file (no META-INF/container.xml)"
    assert reasons["broken-sheet.xlsx"].startswith("unreadable Excel (.xlsx) file (")
    assert "binary content" in reasons["binary.csv"]


def test_an_encrypted_office_file_is_named_as_such(tmp_path: Path) -> None:
    msoffcrypto = pytest.importorskip("msoffcrypto")
    from msoffcrypto.format.ooxml import OOXMLFile

    plain = write_docx(tmp_path / "plain.docx")
    out = io.BytesIO()
    with plain.open("rb") as f:
        OOXMLFile(f).encrypt("secret", out)
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "locked.docx").write_bytes(out.getvalue())
    report = build_index(tmp_path / "c")
    assert msoffcrypto and [s.reason for s in report.skipped] == [
        ("a password-protected (encrypted) or old binary Office file, not a Word (.docx) file; "
         "save it without a password in the current format")]


def _zip_bomb(src: Path, dst: Path, member: str, size: int) -> Path:
    """A real document plus one member of ``size`` zero bytes (it compresses ~1000:1)."""
    _rezip(src, dst, lambda n, d: d)
    chunk = b"\0" * (1 << 20) if not member.endswith(".xml") else b" " * (1 << 20)
    with zipfile.ZipFile(dst, "a", zipfile.ZIP_DEFLATED, compresslevel=1) as z, z.open(member, "w", force_zip64=True) as f:
        for _ in range(size >> 20):
            f.write(chunk)
    return dst


@pytest.mark.parametrize("member, size", [("word/media/bomb.bin", 300 << 20), ("customXml/item9.xml", 80 << 20)])
def test_a_zip_bomb_docx_is_refused_quickly(tmp_path: Path, member: str, size: int) -> None:
    (tmp_path / "c").mkdir()
    bomb = _zip_bomb(write_docx(tmp_path / "real.docx"), tmp_path / "c" / "bomb.docx", member, size)
    assert bomb.stat().st_size < 2 << 20  # small on disk, far past the limit unpacked
    start = time.monotonic()
    report = build_index(tmp_path / "c")
    assert time.monotonic() - start < 5
    [skipped] = report.skipped
    assert "a zip bomb or an oversized document; not indexed" in skipped.reason
    assert skipped.reason.startswith("unpacks to ") and int(skipped.reason.split()[2].replace(",", "")) > size


def test_deeply_nested_xml_is_refused(tmp_path: Path) -> None:
    (tmp_path / "c").mkdir()
    depth = 5000
    nest = "<w:sdt><w:sdtContent>" * depth + "</w:sdtContent></w:sdt>" * depth

    def deepen(name: str, data: bytes) -> bytes:
        return data.replace(b"<w:body>", b"<w:body>" + nest.encode(), 1) if name == "word/document.xml" else data

    _rezip(write_docx(tmp_path / "real.docx"), tmp_path / "c" / "deep.docx", deepen)
    start = time.monotonic()
    report = build_index(tmp_path / "c")
    assert time.monotonic() - start < 10
    [skipped] = report.skipped
    assert "deep" in skipped.reason.lower() or "depth" in skipped.reason.lower(), skipped.reason


def test_entities_are_never_expanded_or_fetched(tmp_path: Path) -> None:
    (tmp_path / "c").mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRETVALUE", encoding="utf-8")
    doctype = (f'<!DOCTYPE html [<!ENTITY leak SYSTEM "{secret.as_uri()}">'
               '<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
               '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>')

    def epub_entities(name: str, data: bytes) -> bytes:
        if name.endswith("one.xhtml"):
            _, sep, rest = data.partition(b"<html")
            return doctype.encode() + b"\n" + sep + rest.replace(b"</h1>", b" &leak; &d;</h1>", 1)
        return data

    def xlsx_entities(name: str, data: bytes) -> bytes:
        if name == "xl/worksheets/sheet1.xml":
            head, sep, rest = data.partition(b"<worksheet")
            assert sep, data[:200]
            return head + doctype.replace("html", "worksheet").encode() + sep + rest.replace(
                b"Excel okapi marker", b"&leak; &d;", 1)
        return data

    _rezip(write_epub(tmp_path / "book.epub"), tmp_path / "c" / "book.epub", epub_entities)
    _rezip(write_xlsx(tmp_path / "costs.xlsx"), tmp_path / "c" / "costs.xlsx", xlsx_entities)
    report = build_index(tmp_path / "c")
    skipped = {s.path: s.reason for s in report.skipped}
    # openpyxl parses with defusedxml: a DTD with entities is refused outright
    assert skipped["costs.xlsx"].startswith("XML that declares entities or a DTD, refused as unsafe (EntitiesForbidden"), skipped
    # the EPUB chapter is read, and its entities are neither fetched nor expanded
    assert report.added == ["book.epub"]
    _, content, _ = _content(tmp_path / "c", "book.epub")
    assert "TOPSECRETVALUE" not in content and "hahaha" not in content and EPUB_SENTENCE in content


def test_a_drm_protected_epub_is_refused(tmp_path: Path) -> None:
    (tmp_path / "c").mkdir()
    encryption = (b'<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
                  b'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod '
                  b'Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><enc:CipherData>'
                  b'<enc:CipherReference URI="EPUB/one.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>')
    src = write_epub(tmp_path / "book.epub")
    _rezip(src, tmp_path / "c" / "book.epub", lambda n, d: d)
    with zipfile.ZipFile(tmp_path / "c" / "book.epub", "a") as z:
        z.writestr("META-INF/encryption.xml", encryption)
    report = build_index(tmp_path / "c")
    assert [s.reason for s in report.skipped] == ["a DRM-protected (encrypted) EPUB; its text cannot be read"]


def test_huge_sheets_and_slow_files_are_refused(tmp_path: Path, monkeypatch) -> None:
    import openpyxl

    (tmp_path / "c").mkdir()
    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("Big")
    for i in range(1500):
        ws.append([f"row {i}", i, i * 2])
    wb.save(tmp_path / "c" / "big.xlsx")
    with (tmp_path / "c" / "big.csv").open("w", encoding="utf-8") as f:
        f.write("".join(f"{i},{i}\n" for i in range(1500)))
    monkeypatch.setattr(formats, "MAX_ROWS", 1000)
    report = build_index(tmp_path / "c")
    assert {s.path: s.reason for s in report.skipped} == {
        "big.csv": "too many rows (more than 1,000); not indexed",
        "big.xlsx": "too many rows (more than 1,000); not indexed"}
    monkeypatch.setattr(formats, "MAX_ROWS", 10_000)
    monkeypatch.setattr(formats, "MAX_CELLS", 2_000)
    report = build_index(tmp_path / "c")
    assert {s.reason for s in report.skipped} == {"too many cells (more than 2,000); not indexed"}
    monkeypatch.setattr(formats, "MAX_CELLS", 2_000_000)
    monkeypatch.setattr(formats, "TIME_LIMIT", -1.0)
    write_docx(tmp_path / "c" / "guide.docx")
    report = build_index(tmp_path / "c")
    assert {s.path: s.reason for s in report.skipped}["guide.docx"].startswith("reading its text took more than")
    monkeypatch.setattr(formats, "TIME_LIMIT", 60.0)
    report = build_index(tmp_path / "c")
    assert sorted(report.added) == ["big.csv", "big.xlsx", "guide.docx"] and not report.skipped


def test_csv_encodings_and_dialects(tmp_path: Path) -> None:
    (tmp_path / "c").mkdir()
    write_csv(tmp_path / "c" / "excel-unicode.csv", encoding="utf-16", delimiter="\t")  # BOM + UTF-16
    write_csv(tmp_path / "c" / "bom.csv", encoding="utf-8-sig", delimiter=";")
    write_tsv(tmp_path / "c" / "plain.tsv")
    with (tmp_path / "c" / "latin.csv").open("w", encoding="cp1252", newline="") as f:
        f.write("Caf\u00e9,Price\nCr\u00e8me br\u00fbl\u00e9e,4\n")
    report = build_index(tmp_path / "c")
    assert sorted(report.added) == ["bom.csv", "excel-unicode.csv", "plain.tsv"]
    [latin] = report.skipped
    assert latin.path == "latin.csv" and latin.reason == (
        "not valid UTF-8 (byte 3); save it as CSV UTF-8 (Excel: CSV UTF-8) or convert it to UTF-8")
    for name in ("excel-unicode.csv", "bom.csv"):
        assert CSV_ROW in _content(tmp_path / "c", name)[1].splitlines(), name


@pytest.mark.parametrize("sample, delimiter", [
    ("a,b\n1,2\n", ","), ("a;b\n1;2\n", ";"), ("a\tb\n1\t2\n", "\t"), ("a|b|c\n1|2|3\n", "|"),
    ("Name;Comment\nA;hello, world\nB;fine\n", ";"), ("just one column\nof text\n", ","),
    ('"x, y";z\n"1, 2";3\n', ";"),
])
def test_the_csv_delimiter_is_guessed(sample: str, delimiter: str) -> None:
    assert formats.guess_delimiter(sample) == delimiter


def test_a_csv_made_to_stall_a_sniffer_is_read_quickly(tmp_path: Path) -> None:
    """csv.Sniffer spends over a minute on this 64 kB line; the guess is linear."""
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "hostile.csv").write_text((',"a' * 22000)[:65536] + "\nend\n", encoding="utf-8")
    start = time.monotonic()
    report = build_index(tmp_path / "c")
    assert time.monotonic() - start < 10
    assert report.added == ["hostile.csv"] and not report.skipped


@pytest.mark.browser
def test_chromium_downloads_csv_and_tsv_instead_of_showing_them(corpus: Path) -> None:
    """Why CSV citations get a plain link: the browser never shows the text a fragment
    would highlight (checked on file:// and on a web server's text/csv)."""
    from tests.support.chromium import Browser, chromium_available, serve_directory

    if not chromium_available():
        pytest.skip("no Chromium")
    (corpus / "control.txt").write_text("Norway has many heat pumps.\n", encoding="utf-8")
    with Browser() as browser, serve_directory(str(corpus)) as base:
        for url in [(corpus / "adoption.csv").as_uri(), base + "adoption.csv", base + "sales.tsv"]:
            with pytest.raises(Exception, match="Download is starting"):
                browser.highlighted(url + "#:~:text=Norway")
        assert browser.highlighted((corpus / "control.txt").as_uri() + "#:~:text=Norway") == ["Norway"]


# --- a whole research run ---------------------------------------------------------------------
def test_research_run_cites_every_new_format(tmp_path: Path) -> None:
    from langchain_core.messages import HumanMessage
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.store.memory import InMemoryStore

    from deep_research.research.runtime.deps import Deps
    from deep_research.research.graph import make_graph
    from tests.support.scenario import QUESTION, full_script
    from tests.support.scripted import scripted_factory

    folder = write_all(tmp_path / "corpus")
    build_index(folder)
    deps = Deps(model_factory=scripted_factory(full_script(wrong_quote=False)),
                search_factory=lambda cfg: LocalCorpus.open(folder))
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    config = {"configurable": {"thread_id": "formats"}}
    context = {"search_api": "local", "output_dir": str(tmp_path / "reports"), "max_search_results": 6}

    async def run():
        async for _ in graph.astream({"messages": [HumanMessage(QUESTION)]}, config, context=context,
                                     stream_mode="updates", subgraphs=True):
            pass
        return await graph.aget_state(config)

    state = asyncio.run(run())
    v = state.values
    assert v["status"] == "completed", v.get("errors")
    cites = json.loads(Path(v["outputs"]["citations"]).read_text())
    assert cites and all(c["status"] == "verified" for c in cites)
    cited = {c["url"].rsplit("/", 1)[-1] for c in cites}
    assert cited == set(FILES), cited
    for c in cites:
        assert c["url"].startswith("file://") and c["fragment"] is None and "plain link" in c["note"]
    # each citation names where in its document the quote is (carried through the run's state)
    kinds = {".pptx": "slide ", ".xlsx": "sheet ", ".csv": "row ", ".tsv": "row ", ".epub": "chapter "}
    for c in cites:
        kind = kinds.get(c["url"][c["url"].rfind("."):])
        assert (c["location"] or "").startswith(kind) if kind else c["location"] is None, c
    linked = Path(v["outputs"]["linked"]).read_text()
    assert "#:~:text=" not in linked and "guide.docx" in linked and "handbook.epub" in linked
    html = Path(v["outputs"]["html"]).read_text()
    for name in FILES:  # the published report links every cited document
        assert f'href="{(folder / name).as_uri()}"' in html, name


def test_the_index_command_reports_new_formats_and_their_skips(corpus: Path) -> None:
    """The real CLI: every new format indexed, a corrupt one warned about with its reason,
    the type list names the new formats, and no library noise or traceback on the console."""
    import os
    import subprocess
    import sys

    data = (corpus / "guide.docx").read_bytes()
    (corpus / "broken.docx").write_bytes(data[: len(data) // 3])
    (corpus / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "TAVILY_API_KEY")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    r = subprocess.run([sys.executable, "-m", "deep_research.cli", "index", str(corpus)], capture_output=True,
                       text=True, env=env, timeout=300, stdin=subprocess.DEVNULL, check=False)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert [ln for ln in r.stderr.splitlines() if ln.strip()] == [
        ("warning: skipped broken.docx: not a valid Word (.docx) file (not a readable zip archive: "
         "File is not a zip file)")], r.stderr
    assert f"Indexed {len(FILES)} documents in {corpus}: {len(FILES)} new" in r.stdout
    assert "Left out 1 file of other types (documents are .html, .htm, .md, .markdown, .txt, .pdf, .docx, " \
           ".pptx, .xlsx, .csv, .tsv, .epub files)." in " ".join(r.stdout.split())


# --- issue 19 ---------------------------------------------------------------------------------
def _member_bomb(src: Path, dst: Path, member: str, size: int, redirect: tuple[str, str] | None = None) -> Path:
    """A real document with one more member of ``size`` bytes of XML-like text (``<a>`` then
    spaces), named without an XML suffix; ``redirect`` replaces a name in the package's
    own XML so the library parses the new member."""
    def change(name: str, data: bytes) -> bytes:
        return data.replace(redirect[0].encode(), redirect[1].encode()) if redirect and name.endswith(
            (".rels", ".xml", ".opf")) else data

    _rezip(src, dst, change)
    with zipfile.ZipFile(dst, "a", zipfile.ZIP_DEFLATED, compresslevel=1) as z, \
            z.open(member, "w", force_zip64=True) as f:
        f.write(b"<?xml version='1.0'?><a>")
        for _ in range(size >> 20):
            f.write(b" " * (1 << 20))
    return dst


@pytest.mark.parametrize("kind, member", [("docx", "word/part-without-suffix"), ("epub", "EPUB/chapter-data")])
def test_a_huge_part_named_without_an_xml_suffix_is_refused(tmp_path: Path, kind: str, member: str) -> None:
    """Issue 19: the XML limit counted members by name; a 200 MB part named without .xml
    (still parsed as XML) took 2.3 GB. Members are now counted by their first bytes too."""
    (tmp_path / "c").mkdir()
    src = write_docx(tmp_path / "real.docx") if kind == "docx" else write_epub(tmp_path / "real.epub")
    bomb = _member_bomb(src, tmp_path / "c" / f"bomb.{kind}", member, 200 << 20)
    assert bomb.stat().st_size < 2 << 20
    start = time.monotonic()
    [skipped] = build_index(tmp_path / "c").skipped
    assert time.monotonic() - start < 10
    assert "a zip bomb or an oversized document" in skipped.reason and "of XML" in skipped.reason, skipped.reason


def test_a_table_cell_spanning_a_hundred_million_columns_is_read_once(tmp_path: Path) -> None:
    """Issue 19: python-docx repeats a cell once per grid column it spans; a .docx whose cell
    spanned 100,000,000 columns took 1.85 GB to index. Each cell is read once now."""
    import tracemalloc

    import docx

    d = docx.Document()
    t = d.add_table(rows=3, cols=3)
    for r, row in enumerate([("Country", "Share", "Note"), ("Norway", "60 %", "high"), ("Chile", "5 %", "low")]):
        for c, text in enumerate(row):
            t.cell(r, c).text = text
    t.cell(1, 2).merge(t.cell(2, 2)).text = "high"  # a vertical merge: "high" belongs to both rows
    buf = io.BytesIO()
    d.save(buf)
    normal = formats.docx_to_text(buf.getvalue()).text
    assert "Country: Norway; Share: 60 %; Note: high" in normal and "Country: Chile; Share: 5 %; Note: high" in normal
    # the same table with one cell spanning 100,000,000 grid columns
    xml = zipfile.ZipFile(buf).read("word/document.xml").decode()
    first_cell = xml.index("<w:tc>")
    spanned = xml[:first_cell] + '<w:tc><w:tcPr><w:gridSpan w:val="100000000"/></w:tcPr>' + xml[first_cell + 6:]
    out = tmp_path / "span.docx"
    with zipfile.ZipFile(buf) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info.filename, spanned if info.filename == "word/document.xml" else zin.read(info))
    tracemalloc.start()
    start = time.monotonic()
    try:
        text = formats.docx_to_text(out.read_bytes()).text
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.monotonic() - start < 10 and peak < 50_000_000, peak
    assert "Norway" in text and "Chile" in text

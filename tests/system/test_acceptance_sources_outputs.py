"""Issue 15's acceptance, as a user runs it from the command line (the scripted model stands
in for the network): research with ``--search searxng`` against a SearXNG-shaped server on
127.0.0.1, and over a corpus holding every new document format, each with ``--docx
--citation-style apa``. Every citation verifies, every format is cited, and the Word report's
hyperlinks are exactly the fragment links of citations.json."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

from tests.support.formats_corpus import write_all
from tests.support.scenario import QUESTION
from tests.cli.test_research import SCRIPTED
from tests.cli.test_research import run as run_cli
from tests.search.test_searxng import searxng_server


def docx_links(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as z:
        rels = z.read("word/_rels/document.xml.rels").decode("utf-8")
        body = z.read("word/document.xml").decode("utf-8")
    targets = dict(re.findall(r'Id="([^"]+)"[^>]*?Target="([^"]+)"[^>]*?TargetMode="External"', rels))
    targets.update(dict(re.findall(r'Target="([^"]+)"[^>]*?Id="([^"]+)"[^>]*?TargetMode="External"', rels)[::-1]))
    used = re.findall(r'<w:hyperlink [^>]*r:id="([^"]+)"', body)
    return [targets[i].replace("&amp;", "&") for i in used if i in targets]


def docx_text(path: Path) -> str:
    import docx

    d = docx.Document(str(path))
    return "\n".join(p.text for p in d.paragraphs)


def run_folder(out: Path) -> Path:
    return next(out.rglob("citations.json")).parent


def test_searxng_run_writes_an_apa_word_report_with_fragment_links(tmp_path, monkeypatch):
    monkeypatch.delenv("SEARXNG_URL", raising=False)
    with searxng_server() as srv:
        r = run_cli("research", QUESTION, "--search", "searxng", "--searxng-url", srv.base, "--fetch-allow-private",
                    "--docx", "--citation-style", "apa", "--yes", "--no-pdf", "--out", tmp_path / "r",
                    "--db", tmp_path / "s.sqlite", env=SCRIPTED)
    assert r.returncode == 0, r.stdout + r.stderr
    folder = run_folder(tmp_path / "r")
    cites = json.loads((folder / "citations.json").read_text())
    assert cites and all(c["status"] == "verified" for c in cites)
    assert all(c["citation_style"] == "apa" and ":~:text=" in c["url"] for c in cites)
    # the pages' own metadata (author "Test Author", 2024-02-01) make the APA marker: surname, year
    # (a, b, c: three pages by the same author in the same year)
    assert all(re.fullmatch(r"\(Author, 2024[a-z]?\)", c["in_text"]) for c in cites), {c["in_text"] for c in cites}
    assert all(c["reference"].startswith("Author, T. (2024") for c in cites), {c["reference"] for c in cites}
    links = docx_links(folder / "report.docx")
    fragment_links = {c["url"] for c in cites}
    assert fragment_links <= set(links), fragment_links - set(links)
    assert all(u.startswith(("http://", "https://", "#", "mailto:")) for u in links)
    text = docx_text(folder / "report.docx")
    assert "Author, T. (2024" in text and "Heat Notes" in text


def test_corpus_of_every_new_format_writes_an_apa_word_report(tmp_path):
    corpus = write_all(tmp_path / "corpus")
    r = run_cli("index", corpus)
    assert r.returncode == 0, r.stdout + r.stderr
    r = run_cli("research", QUESTION, "--corpus", corpus, "--docx", "--citation-style", "apa", "--yes", "--no-pdf",
                "--out", tmp_path / "r", "--db", tmp_path / "s.sqlite", env=SCRIPTED)
    assert r.returncode == 0, r.stdout + r.stderr
    folder = run_folder(tmp_path / "r")
    cites = json.loads((folder / "citations.json").read_text())
    assert cites and all(c["status"] == "verified" for c in cites)
    cited = {Path(c["url"].split("#")[0]).suffix for c in cites}
    assert {".docx", ".pptx", ".xlsx", ".csv", ".tsv", ".epub"} <= cited, cited
    links = docx_links(folder / "report.docx")
    assert {c["url"] for c in cites} <= set(links)
    assert all(c["citation_style"] == "apa" and c["reference"] for c in cites)

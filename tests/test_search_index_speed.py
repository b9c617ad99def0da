"""Indexing fast without changing what is indexed: stylesheets parsed once per run
(``extract.StyleCache``), text extracted in worker processes, a progress bar, and search
that ranks before it reads (issue 23). Each test compares with what a reader sees or
with the straightforward way, so a cache or a plan that changed a page's text or a
result fails here."""

from __future__ import annotations

import os
import pty
import select
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from deep_research.search import LocalCorpus, build_index
from deep_research.search import local as local_mod
from deep_research.search.extract import StyleCache, html_to_text, local_css_loader

SITE_CSS = """
.note { display: none }
.aside { visibility: hidden }
p.lead + p { display: none }
li:nth-child(2) { display: none }
[data-private] { display: none }
.shown[hidden] { display: block }
@media (max-width: 600px) { .wide { display: none } }
@media print { .screen { display: none } }
"""
FIRST_CSS = '@import url("more/extra.css");\n.menu { display: block }\n'
EXTRA_CSS = ".menu span.secret { display: none }\n[lang|=fr] { visibility: hidden }\n"


def page(body: str, head: str = "") -> str:
    return (f'<html><head><title>T</title><link rel="stylesheet" href="first.css">'
            f'<link rel="stylesheet" href="site.css">{head}</head><body>{body}</body></html>')


PAGES = {
    # name: (html, the text a reader sees)
    "a.html": (page('<p class="note">Hidden note A</p><p>Body A</p><p class="lead">Lead</p><p>After lead</p>'
                    '<p>Third</p><p style="display: none">Inline none</p>'),
               "Body A\nLead\nThird"),
    # the same stylesheet, overridden by a <style> block of this page only
    "b.html": (page('<p class="note">Shown note B</p><p>Body B</p>',
                    "<style>.note { display: block !important }</style>"),
               "Shown note B\nBody B"),
    # ... and by an inline style (it beats a rule of the same importance)
    "c.html": (page('<p class="note" style="display: block">Inline note C</p><p class="note">Still hidden</p>'),
               "Inline note C"),
    # visibility is inherited, and a child may make itself visible again
    "d.html": (page('<div class="aside">Hidden aside <span style="visibility: visible">Visible span D</span></div>'
                    "<p>End D</p>"),
               "Visible span D\nEnd D"),
    "e.html": (page("<ul><li>One</li><li>Two</li><li>Three</li></ul><p data-private>Private</p>"
                    '<p class="wide">Wide</p><p class="screen">Screen</p>'
                    '<div class="menu">Menu <span class="secret">secret</span> <span>open</span></div>'
                    '<p lang="fr-CA">Bonjour</p><p class="shown" hidden>Hidden attribute</p><p lang="de">Hallo</p>',
                    "<style>:lang(de) { display: none }</style>"),  # a selector that may match any element
               "One\nThree\nWide\nScreen\nMenu open"),
}


def write_site(folder: Path) -> None:
    (folder / "more").mkdir(parents=True, exist_ok=True)
    (folder / "site.css").write_text(SITE_CSS, encoding="utf-8")
    (folder / "first.css").write_text(FIRST_CSS, encoding="utf-8")
    (folder / "more" / "extra.css").write_text(EXTRA_CSS, encoding="utf-8")
    for name, (html, _) in PAGES.items():
        (folder / name).write_text(html, encoding="utf-8")


@pytest.mark.parametrize("order", [list(PAGES), list(reversed(PAGES))])
def test_pages_sharing_stylesheets_keep_their_own_text(tmp_path, order):
    """One cache for all pages (in both orders): each page's text is what a reader sees,
    and the same as without a cache; each stylesheet was parsed once."""
    write_site(tmp_path)
    cache = StyleCache()
    for name in order:
        data = (tmp_path / name).read_bytes()
        cached = html_to_text(data, load_css=cache.loader(tmp_path, tmp_path), styles=cache)
        alone = html_to_text(data, load_css=local_css_loader(tmp_path, tmp_path))
        assert cached == alone
        assert cached.text == PAGES[name][1], name
    assert cache.parsed == 5  # first.css, more/extra.css, site.css and the <style> blocks of b.html and e.html


def test_a_stylesheet_changed_during_a_run_is_read_again(tmp_path):
    write_site(tmp_path)
    cache = StyleCache()
    load = cache.loader(tmp_path, tmp_path)
    assert html_to_text((tmp_path / "a.html").read_bytes(), load_css=load, styles=cache).text == "Body A\nLead\nThird"
    (tmp_path / "site.css").write_text(SITE_CSS.replace(".note { display: none }", ".note { color: red }\n"),
                                       encoding="utf-8")
    text = html_to_text((tmp_path / "a.html").read_bytes(), load_css=load, styles=cache).text
    assert text == "Hidden note A\nBody A\nLead\nThird"


def rows(index: Path) -> list[tuple]:
    con = sqlite3.connect(index)
    try:
        return con.execute("SELECT id, path, url, title, content, format, sha256, size, mtime_ns "
                           "FROM documents ORDER BY id").fetchall()
    finally:
        con.close()


def test_a_stylesheet_that_changes_between_runs(tmp_path):
    folder = tmp_path / "site"
    folder.mkdir()
    write_site(folder)
    index = tmp_path / "index.sqlite"
    build_index(folder, index_path=index)
    before = {r[1]: r[4] for r in rows(index)}
    assert before["a.html"] == "Body A\nLead\nThird"
    (folder / "site.css").write_text(SITE_CSS.replace(".note { display: none }", ".lead { display: none }"),
                                     encoding="utf-8")
    for name in PAGES:  # a page is extracted again when its own bytes change
        with open(folder / name, "a", encoding="utf-8") as f:
            f.write("\n")
    report = build_index(folder, index_path=index)
    assert sorted(report.updated) == sorted(PAGES)
    after = {r[1]: r[4] for r in rows(index)}
    assert after["a.html"] == "Hidden note A\nBody A\nThird"
    assert after["b.html"] == before["b.html"]


def write_many(folder: Path, n: int) -> None:
    write_site(folder)
    for i in range(n):
        name, (html, _) = list(PAGES.items())[i % len(PAGES)]
        (folder / f"p{i:03d}-{name}").write_text(html.replace("</body>", f"<p>page {i}</p></body>"), encoding="utf-8")
    (folder / "notes.md").write_text("# Notes\n\nSome markdown.\n", encoding="utf-8")
    (folder / "empty.html").write_text("", encoding="utf-8")
    (folder / "binary.txt").write_bytes(b"abc\x00def")
    (folder / "latin1.txt").write_bytes("caf\u00e9".encode("latin-1"))
    (folder / "blank.html").write_text("<html><body><script>x()</script></body></html>", encoding="utf-8")


def test_worker_processes_index_exactly_what_this_process_does(tmp_path, monkeypatch):
    folder = tmp_path / "site"
    folder.mkdir()
    write_many(folder, 40)
    monkeypatch.setattr(local_mod, "PARALLEL_MIN_FILES", 10)
    serial = build_index(folder, index_path=tmp_path / "serial.sqlite", workers=1)
    seen: list[tuple[int, int]] = []
    parallel = build_index(folder, index_path=tmp_path / "parallel.sqlite", workers=2,
                           progress=lambda done, total: seen.append((done, total)))
    assert rows(tmp_path / "serial.sqlite") == rows(tmp_path / "parallel.sqlite")
    for field in ("added", "updated", "removed", "unchanged", "unsupported", "skipped", "documents"):
        assert getattr(serial, field) == getattr(parallel, field), field
    assert len(serial.skipped) == 4 and serial.documents == 46
    total = 50  # 40 pages, the 5 named ones, notes.md and 4 bad files (the CSS files are no documents)
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    # the texts are the ones a reader sees, whichever process extracted them
    texts = {r[1]: r[4] for r in rows(tmp_path / "parallel.sqlite")}
    assert texts["p000-a.html"] == "Body A\nLead\nThird\npage 0"
    assert texts["p003-d.html"] == "Visible span D\nEnd D\npage 3"


def test_a_worker_that_dies_leaves_its_files_to_the_main_process(tmp_path, monkeypatch):
    folder = tmp_path / "site"
    folder.mkdir()
    write_many(folder, 20)
    monkeypatch.setattr(local_mod, "PARALLEL_MIN_FILES", 5)
    serial = build_index(folder, index_path=tmp_path / "serial.sqlite", workers=1)
    monkeypatch.setattr(local_mod, "_worker_extract", _die)
    crashed = build_index(folder, index_path=tmp_path / "crashed.sqlite", workers=2)
    assert rows(tmp_path / "serial.sqlite") == rows(tmp_path / "crashed.sqlite")
    assert serial.skipped == crashed.skipped


def _die(*args):
    os._exit(3)


# --- search: rank first, then read the k results --------------------------------------------
_ONE_QUERY = """
SELECT d.url, d.title, d.content, d.format,
       snippet(documents_fts, 1, '', '', '\u2026', 32),
       bm25(documents_fts, 2.0, 1.0) AS rank
FROM documents_fts JOIN documents AS d ON d.id = documents_fts.rowid
WHERE documents_fts MATCH ?
ORDER BY rank
LIMIT ?
"""


def straightforward_search(index: Path, query: str, k: int) -> list[tuple]:
    """Everything computed for every match, then the best k (the plan before issue 23)."""
    from deep_research.search.local import fts_query

    con = sqlite3.connect(index)
    try:
        all_terms, any_terms = fts_query(query, "AND"), fts_query(query, "OR")
        found = con.execute(_ONE_QUERY, (all_terms, k)).fetchall()
        if len(found) < k and any_terms != all_terms:
            seen = {r[0] for r in found}
            more = con.execute(_ONE_QUERY, (any_terms, k + len(found))).fetchall()
            found += [r for r in more if r[0] not in seen][: k - len(found)]
    finally:
        con.close()
    return [(url, title, content, fmt, " ".join(snippet.split()), -rank)
            for url, title, content, fmt, snippet, rank in found]


WORDS = ("solar wind tidal energy panel turbine grid storage battery heat pump water river dam coal gas "
         "nuclear fusion fission carbon price market policy").split()


def test_search_returns_what_the_straightforward_plan_returns(tmp_path):
    import random

    rng = random.Random(5)
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(120):
        words = [rng.choice(WORDS) for _ in range(rng.randint(5, 400))]
        (folder / f"d{i:03d}.txt").write_text(" ".join(words), encoding="utf-8")
    build_index(folder)
    corpus = LocalCorpus.open(folder)
    queries = [" ".join(rng.sample(WORDS, rng.randint(1, 4))) for _ in range(60)] + ["solar zzz", "qqq wind"]
    con = sqlite3.connect(corpus.index_path)
    plans = set()
    for q in queries:
        all_terms = local_mod.fts_query(q, "AND")
        matches = con.execute("SELECT count(*) FROM documents_fts WHERE documents_fts MATCH ?", (all_terms,)).fetchone()[0]
        for k in (1, 5, 12):
            got = [(r.url, r.title, r.content, r.format, r.snippet, r.score) for r in corpus.search_sync(q, max_results=k)]
            assert got == straightforward_search(corpus.index_path, q, k), (q, k)
            plans.add("or" if matches < k and len(got) > matches else "and")
    con.close()
    assert plans == {"and", "or"}  # both passes were compared


# --- the progress bar -----------------------------------------------------------------------
def test_index_shows_a_progress_bar_on_a_terminal_only(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(3):
        (folder / f"p{i}.md").write_text(f"# Page {i}\n\nText {i}.\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "deep_research.cli", "index", str(folder)]
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "DEEP_RESEARCH_ENV_FILE": "none"}
    env.pop("NO_COLOR", None)
    plain = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120, check=False)
    assert plain.returncode == 0 and "Indexed 3 documents" in plain.stdout
    assert "indexing" not in plain.stderr and "3/3" not in plain.stdout + plain.stderr

    primary, secondary = pty.openpty()
    proc = subprocess.Popen(cmd, stdout=secondary, stderr=secondary, env=env)
    os.close(secondary)
    shown = b""
    while select.select([primary], [], [], 60)[0]:
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        shown += chunk
    os.close(primary)
    assert proc.wait(timeout=60) == 0
    text = shown.decode("utf-8", "replace")
    assert "indexing" in text and "3/3" in text and "files" in text and "left" in text, text
    assert "Indexed 3 documents" in text


def test_search_sees_an_updated_and_a_replaced_index(tmp_path):
    """Searches keep a connection per thread; they still see the index as it is now."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# Alpha\n\nThe quokka lives on an island.\n", encoding="utf-8")
    build_index(folder)
    corpus = LocalCorpus.open(folder)
    assert [r.title for r in corpus.search_sync("quokka")] == ["Alpha"]
    (folder / "b.md").write_text("# Beta\n\nAnother quokka page.\n", encoding="utf-8")
    build_index(folder)  # updated in place
    assert sorted(r.title for r in corpus.search_sync("quokka")) == ["Alpha", "Beta"]
    other = tmp_path / "other"
    other.mkdir()
    (other / "c.md").write_text("# Gamma\n\nA quokka elsewhere.\n", encoding="utf-8")
    build_index(other, index_path=tmp_path / "new.sqlite")
    os.replace(tmp_path / "new.sqlite", corpus.index_path)  # replaced by another file
    assert [r.title for r in corpus.search_sync("quokka")] == ["Gamma"]

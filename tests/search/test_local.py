"""The local corpus: indexing a folder with SQLite FTS5 and searching it."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from pathlib import Path

import pytest

from deep_research.search import (
    CorpusError,
    IndexNotFoundError,
    IndexVersionError,
    LocalCorpus,
    NoSearch,
    SearchConfigError,
    build_index,
    default_index_path,
    make_search,
)
from deep_research.search.extract import html_to_text, markdown_title
from deep_research.search.local import fts_query

LIMIT = 10_000  # max_file_bytes in these tests

SOLAR_HTML = """<!doctype html>
<html><head><title>Solar Power Basics</title>
<script>var secretScriptWord = "zanzibar";</script></head>
<body>
<h1>Solar power</h1>
<p>Photovoltaic panels convert sunlight directly into electricity.</p>
<p hidden>Invisible quokka paragraph.</p>
<div style="display: none">Another quokka nobody sees.</div>
<pre>def   power(watts):
    return watts</pre>
<p>Panels   last
   about twenty-five years.</p>
</body></html>
"""
WIND_MD = "# Wind Turbines\n\nModern wind turbines generate electricity from moving air.\n"
TIDAL_TXT = "Tidal energy uses the rise and fall of sea levels.\nIt is very predictable.\n"
GEO_HTML = """<html><head><title>Geothermal Report</title></head><body>
<p>Geothermal plants tap heat stored beneath the surface of the earth.</p></body></html>"""


def write_corpus(folder: Path) -> Path:
    """A corpus with good documents and one of each kind of bad file."""
    import weasyprint

    (folder / "notes").mkdir(parents=True)
    (folder / "solar.html").write_text(SOLAR_HTML, encoding="utf-8")
    (folder / "wind.md").write_text(WIND_MD, encoding="utf-8")
    (folder / "notes" / "tidal power.txt").write_text(TIDAL_TXT, encoding="utf-8")
    weasyprint.HTML(string=GEO_HTML).write_pdf(folder / "geothermal.pdf")
    (folder / "cafe.html").write_bytes(
        '<html><head><meta charset="windows-1252"><title>Caf\u00e9</title></head>'
        "<body><p>The caf\u00e9 serves cr\u00e8me br\u00fbl\u00e9e.</p></body></html>".encode(
            "cp1252"
        )
    )
    # Bad files, each to be skipped with a warning:
    (folder / "blob.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    (folder / "latin1.txt").write_bytes("Un caf\u00e9 tr\u00e8s cher.".encode("latin-1"))
    (folder / "huge.txt").write_text("big " * (LIMIT // 2), encoding="utf-8")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog >>\ngarbage")
    (folder / "empty.md").write_text("", encoding="utf-8")
    (folder / "blank.html").write_text(
        "<html><body><script>x()</script></body></html>", encoding="utf-8"
    )
    # Not documents at all:
    (folder / "photo.png").write_bytes(b"\x89PNG")
    (folder / ".hidden.md").write_text("# Secret\n", encoding="utf-8")
    return folder


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "corpus")


def search(backend, query: str, n: int = 5):
    return asyncio.run(backend.search(query, max_results=n))


# --- indexing ---------------------------------------------------------------------------------
def test_bad_files_are_skipped_with_reasons(corpus: Path) -> None:
    report = build_index(corpus, max_file_bytes=LIMIT)
    assert sorted(report.added) == [
        "cafe.html",
        "geothermal.pdf",
        "notes/tidal power.txt",
        "solar.html",
        "wind.md",
    ]
    reasons = {s.path: s.reason for s in report.skipped}
    assert set(reasons) == {
        "blob.txt",
        "latin1.txt",
        "huge.txt",
        "broken.pdf",
        "empty.md",
        "blank.html",
    }
    assert "binary" in reasons["blob.txt"]
    assert "UTF-8" in reasons["latin1.txt"]
    assert "too large" in reasons["huge.txt"]
    assert "PDF" in reasons["broken.pdf"]
    assert "empty" in reasons["empty.md"]
    assert "no text" in reasons["blank.html"]
    assert report.unsupported == 1  # photo.png; hidden files are left out entirely
    assert report.documents == 5
    assert report.index_path == str(default_index_path(corpus.resolve()))
    assert str(report.skipped[0]).startswith(report.skipped[0].path + ": ")


def test_missing_fts_index_folder_errors(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="not a folder"):
        build_index(tmp_path / "missing")
    with pytest.raises(ValueError, match="absolute URL"):
        build_index(tmp_path, base_url="docs/")


def test_an_unrelated_database_is_never_overwritten(corpus: Path, tmp_path: Path) -> None:
    other = tmp_path / "app.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE users (name TEXT)")
    con.commit()
    con.close()
    before = other.read_bytes()
    with pytest.raises(CorpusError, match="not a corpus index"):
        build_index(corpus, index_path=other)
    assert other.read_bytes() == before


# --- searching --------------------------------------------------------------------------------
def test_search_returns_the_right_document_with_its_full_text(corpus: Path) -> None:
    build_index(corpus, max_file_bytes=LIMIT)
    results = search(LocalCorpus.open(corpus), "photovoltaic sunlight electricity")
    top = results[0]
    assert top.url == (corpus.resolve() / "solar.html").as_uri()
    assert top.title == "Solar Power Basics"
    assert top.format == "text"
    assert top.content == html_to_text(SOLAR_HTML).text
    assert (
        "Photovoltaic panels convert sunlight directly into electricity."
        in top.content.splitlines()
    )
    assert "Panels last about twenty-five years." in top.content.splitlines()
    assert "def   power(watts):\n    return watts" in top.content  # <pre> kept as is
    assert "quokka" not in top.content and "zanzibar" not in top.content
    assert "Photovoltaic" in top.snippet and "\n" not in top.snippet
    assert top.score is not None and top.partial is False


def test_text_a_browser_does_not_show_is_not_found(corpus: Path) -> None:
    build_index(corpus, max_file_bytes=LIMIT)
    backend = LocalCorpus.open(corpus)
    assert search(backend, "quokka") == []
    assert search(backend, "zanzibar") == []


def test_every_format_is_indexed(corpus: Path) -> None:
    build_index(corpus, max_file_bytes=LIMIT)
    backend = LocalCorpus.open(corpus)

    (wind,) = search(backend, "turbines moving air")[:1]
    assert (wind.title, wind.format, wind.content) == ("Wind Turbines", "text", WIND_MD)

    tidal = search(backend, "tidal predictable")[0]
    assert tidal.url == (corpus.resolve() / "notes" / "tidal power.txt").as_uri()
    assert "%20" in tidal.url
    assert (tidal.title, tidal.format, tidal.content) == ("tidal power.txt", "text", TIDAL_TXT)

    geo = search(backend, "geothermal heat")[0]
    assert geo.url.endswith("/geothermal.pdf")
    assert (geo.title, geo.format) == ("Geothermal Report", "text")
    assert (
        "Geothermal plants tap heat stored beneath the surface of the earth."
        in geo.content.splitlines()
    )

    cafe = search(backend, "creme brulee")[0]  # accent-blind; the page declares windows-1252
    assert cafe.title == "Caf\u00e9"
    assert cafe.content == "The caf\u00e9 serves cr\u00e8me br\u00fbl\u00e9e."


def test_base_url_gives_web_urls_and_markdown_format(corpus: Path) -> None:
    build_index(corpus, base_url="https://example.org/docs", max_file_bytes=LIMIT)
    backend = LocalCorpus.open(corpus)
    assert backend.base_url == "https://example.org/docs"
    assert search(backend, "tidal")[0].url == "https://example.org/docs/notes/tidal%20power.txt"
    wind = search(backend, "turbines")[0]
    assert (wind.url, wind.format) == ("https://example.org/docs/wind.md", "markdown")
    assert search(backend, "photovoltaic")[0].format == "text"


def test_query_syntax_never_breaks_a_search(corpus: Path) -> None:
    build_index(corpus, max_file_bytes=LIMIT)
    backend = LocalCorpus.open(corpus)
    for query in [
        '"foo AND (',
        "*",
        "NEAR",
        "NEAR(solar wind, 2)",
        "solar*",
        "title:solar",
        "^solar",
        "-wind",
        "a OR",
        "NOT",
        '""',
        "'",
        "(",
        ")",
        "{solar}",
        "solar + wind",
        "",
        "   ",
        "_",
        "col:",
        "\u00e9t\u00e9 \u2014 \U0001f600",
        "x" * 5000,
    ]:
        assert isinstance(search(backend, query), list), query
    assert search(backend, '"solar AND (')[0].title == "Solar Power Basics"
    assert search(backend, "title:wind")[0].title == "Wind Turbines"  # words still count


def test_documents_with_all_terms_rank_first(corpus: Path) -> None:
    build_index(corpus, max_file_bytes=LIMIT)
    backend = LocalCorpus.open(corpus)
    results = search(backend, "electricity turbines", n=5)
    assert results[0].title == "Wind Turbines"
    assert {r.title for r in results} >= {"Wind Turbines", "Solar Power Basics"}
    assert len(search(backend, "electricity", n=1)) == 1


def test_fts_query_quotes_every_term() -> None:
    assert fts_query('say "hi" AND (x') == '"say" AND """hi""" AND "AND" AND "(x"'
    assert fts_query("e-mail NEAR", "OR") == '"e" OR "mail" OR "NEAR"'
    assert fts_query("* ( )") == ""


# --- incremental re-indexing ----------------------------------------------------------------------
def test_reindexing_is_incremental(corpus: Path) -> None:
    build_index(corpus, max_file_bytes=LIMIT)
    (corpus / "wind.md").write_text(
        "# Wind Turbines\n\nOffshore farms dominate.\n", encoding="utf-8"
    )
    (corpus / "notes" / "tidal power.txt").unlink()
    (corpus / "hydro.txt").write_text("Hydroelectric dams store water.\n", encoding="utf-8")
    solar = corpus / "solar.html"
    os.utime(solar, ns=(solar.stat().st_atime_ns, solar.stat().st_mtime_ns + 5_000_000_000))

    report = build_index(corpus, max_file_bytes=LIMIT)
    assert report.added == ["hydro.txt"]
    assert report.updated == ["wind.md"]
    assert report.removed == ["notes/tidal power.txt"]
    assert report.unchanged == 3  # solar (touched, same hash), cafe, geothermal
    assert report.documents == 5 and not report.rebuilt

    backend = LocalCorpus.open(corpus)
    assert search(backend, "offshore")[0].content.endswith("Offshore farms dominate.\n")
    assert search(backend, "moving air") == []
    assert search(backend, "tidal") == []
    assert search(backend, "hydroelectric")[0].title == "hydro.txt"

    again = build_index(corpus, max_file_bytes=LIMIT)
    assert (again.added, again.updated, again.removed, again.unchanged) == ([], [], [], 5)


def test_a_file_that_turns_bad_leaves_the_index(corpus: Path) -> None:
    build_index(corpus, max_file_bytes=LIMIT)
    (corpus / "wind.md").write_bytes(b"# Wind\n\nna\xefve\n")
    report = build_index(corpus, max_file_bytes=LIMIT)
    (skip,) = [s for s in report.skipped if s.path == "wind.md"]
    assert "removed from the index" in skip.reason
    assert search(LocalCorpus.open(corpus), "turbines") == []


def test_changing_the_base_url_rebuilds(corpus: Path) -> None:
    build_index(corpus, max_file_bytes=LIMIT)
    report = build_index(corpus, base_url="http://localhost:8000/", max_file_bytes=LIMIT)
    assert report.rebuilt and len(report.added) == 5
    assert search(LocalCorpus.open(corpus), "turbines")[0].url == "http://localhost:8000/wind.md"


def test_custom_index_path(corpus: Path, tmp_path: Path) -> None:
    index = tmp_path / "elsewhere" / "corpus.sqlite"
    build_index(corpus, index_path=index, max_file_bytes=LIMIT)
    assert not default_index_path(corpus).exists()
    assert search(LocalCorpus.open(index), "photovoltaic")[0].title == "Solar Power Basics"


# --- errors ---------------------------------------------------------------------------------------
def test_missing_or_foreign_index_errors(corpus: Path, tmp_path: Path) -> None:
    with pytest.raises(IndexNotFoundError, match="deep-research index"):
        LocalCorpus.open(corpus)  # a folder that was never indexed
    with pytest.raises(IndexNotFoundError):
        LocalCorpus.open(tmp_path / "nowhere")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 10)
    with pytest.raises(CorpusError):
        LocalCorpus(junk)


def test_index_of_another_schema_version_errors(corpus: Path) -> None:
    report = build_index(corpus, max_file_bytes=LIMIT)
    con = sqlite3.connect(report.index_path)
    con.execute("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    con.commit()
    con.close()
    with pytest.raises(IndexVersionError, match="999"):
        LocalCorpus.open(corpus)
    assert build_index(corpus, max_file_bytes=LIMIT).rebuilt  # rebuilding fixes it
    assert LocalCorpus.open(corpus)


def test_corpus_errors_are_search_errors() -> None:
    from deep_research.search import SearchError

    assert issubclass(CorpusError, SearchError) and issubclass(IndexVersionError, CorpusError)


# --- the factory ----------------------------------------------------------------------------------
def test_make_search_builds_and_opens_a_folder(corpus: Path) -> None:
    backend = make_search("local", corpus=str(corpus), base_url="https://example.org/")
    assert backend.name == "local"
    hit = search(backend, "turbines")[0]
    assert hit.url == "https://example.org/wind.md" and hit.format == "markdown"  # published markdown


def test_one_runs_base_url_never_becomes_another_runs_links(corpus: Path) -> None:
    """Issue 19: a run's corpus_base_url rewrote the shared index, so another user's later
    report linked every local source to the first user's host. The index keeps its own
    URLs; a base URL applies to the results of the run that asked for it."""
    index = default_index_path(corpus)
    first = search(make_search("local", corpus=corpus), "turbines")[0]
    assert first.url == (corpus / "wind.md").resolve().as_uri() and first.format == "text"
    stamp = index.stat().st_mtime_ns
    mine = search(make_search("local", corpus=corpus, base_url="https://attacker.example/"), "turbines")[0]
    assert mine.url == "https://attacker.example/wind.md" and mine.format == "markdown"
    assert index.stat().st_mtime_ns == stamp  # the shared index was not rewritten
    theirs = search(make_search("local", corpus=corpus), "turbines")[0]
    assert theirs.url == first.url and theirs.format == "text"
    # an index built for a base URL (deep-research index --base-url) keeps it for everyone else
    build_index(corpus, base_url="https://docs.example/", max_file_bytes=LIMIT)
    assert search(make_search("local", corpus=corpus), "turbines")[0].url == "https://docs.example/wind.md"
    assert search(make_search("local", corpus=corpus, base_url="https://other.example/d"),
                  "turbines")[0].url == "https://other.example/d/wind.md"
    with pytest.raises(CorpusError, match="not an absolute URL"):
        make_search("local", corpus=corpus, base_url="docs/")


def test_make_search_logs_skipped_files(corpus: Path, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="deep_research.search"):
        make_search("local", corpus=corpus)
    messages = " ".join(r.getMessage() for r in caplog.records)
    for path in ("blob.txt", "latin1.txt", "broken.pdf", "empty.md", "blank.html"):
        assert f"{path}: " in messages


def test_make_search_with_an_index_file(corpus: Path, tmp_path: Path) -> None:
    index = tmp_path / "i.sqlite"
    build_index(corpus, index_path=index, base_url="https://a.example/")
    assert (
        search(make_search("local", corpus=index), "turbines")[0].url == "https://a.example/wind.md"
    )
    assert search(make_search("local", corpus=index, base_url="https://b.example/"),
                  "turbines")[0].url == "https://b.example/wind.md"


def test_make_search_names_what_is_missing() -> None:
    with pytest.raises(SearchConfigError, match="corpus"):
        make_search("local")
    with pytest.raises(SearchConfigError, match="TAVILY_API_KEY"):
        make_search("tavily", tavily_api_key=None)
    with pytest.raises(SearchConfigError, match="tavily, local, searxng, none"):
        make_search("bing")
    assert isinstance(SearchConfigError("x"), ValueError)


def test_make_search_other_kinds() -> None:
    none = make_search("none")
    assert isinstance(none, NoSearch) and search(none, "anything") == []
    tavily = make_search("Tavily", tavily_api_key="tvly-test", timeout_s=7, max_retries=4)
    assert (tavily.name, tavily.timeout_s, tavily.max_retries) == ("tavily", 7, 4)


def test_markdown_title() -> None:
    assert markdown_title("intro\n\n## Second\n# First\n") == "Second"
    assert markdown_title("```\n# not a title\n```\nTitle\n=====\n") == "Title"
    assert markdown_title('---\ntitle: "Front"\n---\n# Heading\n') == "Front"
    assert markdown_title("---\ndate: 2024\n---\n# Heading #\n") == "Heading"
    assert markdown_title("no heading here\n") == ""


def test_pdf_lines_wrapped_inside_a_sentence_are_joined() -> None:
    import weasyprint

    from deep_research.search.extract import pdf_to_text

    pdf = weasyprint.HTML(
        string=(
            "<style>@page { size: A6 }</style><h2>Results of the Study</h2>"
            "<p>Geothermal plants tap heat stored beneath the surface of the earth, and they "
            "run day and night without interruption.</p><p>Costs fell by 40% in 2020.</p>"
        )
    ).write_pdf()
    lines = pdf_to_text(pdf).text.splitlines()
    assert (
        "Geothermal plants tap heat stored beneath the surface of the earth, and they run day "
        "and night without interruption."
    ) in lines
    assert lines[-1] == "Costs fell by 40% in 2020."


def test_odd_files_never_stop_the_indexing(tmp_path: Path) -> None:
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / "spaces.html").write_text("   \n", encoding="utf-8")
    (folder / "comment.htm").write_text("<!-- nothing -->", encoding="utf-8")
    (folder / "unknown.html").write_bytes(
        b'<meta charset="x-unheard-of"><p>Still readable text.</p>'
    )
    (folder / "utf16.html").write_bytes(b'<meta charset="utf-16"><p>Really UTF-8 text.</p>')
    (folder / "bad-utf8.html").write_bytes(b'<meta charset="utf-8"><p>caf\xe9</p>')
    (folder / "Upper.MD").write_text("# Shouting\n\nLoud words.\n", encoding="utf-8")
    (folder / "dangling.txt").symlink_to(folder / "gone.txt")
    report = build_index(folder)
    reasons = {s.path: s.reason for s in report.skipped}
    assert set(reasons) == {"spaces.html", "comment.htm", "bad-utf8.html", "dangling.txt"}
    assert "declares UTF-8" in reasons["bad-utf8.html"]
    assert "cannot read" in reasons["dangling.txt"]
    assert sorted(report.added) == ["Upper.MD", "unknown.html", "utf16.html"]
    backend = LocalCorpus.open(folder)
    assert search(backend, "really")[0].content == "Really UTF-8 text."
    assert search(backend, "loud")[0].title == "Shouting"


# --- the corpus stays inside its folder ------------------------------------------------------
SECRET = "The launch code is zebra-42-orchid.\n"


def outside_and_corpus(tmp_path: Path) -> tuple[Path, Path]:
    outside = tmp_path / "outside"
    (outside / "private").mkdir(parents=True)
    (outside / "secret.txt").write_text(SECRET, encoding="utf-8")
    (outside / "private" / "diary.md").write_text("# Diary\n\n" + SECRET, encoding="utf-8")
    folder = tmp_path / "corpus"
    (folder / "notes").mkdir(parents=True)
    (folder / "notes" / "tidal.txt").write_text(TIDAL_TXT, encoding="utf-8")
    return outside, folder


def assert_secret_not_indexed(folder: Path) -> None:
    backend = LocalCorpus.open(folder)
    assert search(backend, "launch code zebra orchid") == []
    con = sqlite3.connect(default_index_path(folder))
    try:
        assert con.execute("SELECT count(*) FROM documents WHERE content LIKE '%zebra%'").fetchone()[0] == 0
    finally:
        con.close()


def test_links_out_of_the_folder_and_link_loops_are_skipped_with_reasons(tmp_path: Path) -> None:
    outside, folder = outside_and_corpus(tmp_path)
    (folder / "notes.txt").symlink_to(outside / "secret.txt")  # a file link out
    (folder / "notes" / "relative.md").symlink_to(Path("../../outside/private/diary.md"))
    (folder / "private").symlink_to(outside / "private", target_is_directory=True)  # a folder link out
    (folder / "loop.txt").symlink_to(folder / "loop.txt")  # a link to itself
    (folder / "ping.md").symlink_to(folder / "pong.md")  # two links pointing at each other
    (folder / "pong.md").symlink_to(folder / "ping.md")
    (folder / "up").symlink_to(folder, target_is_directory=True)  # a folder loop, inside
    (folder / "same.txt").symlink_to(folder / "notes" / "tidal.txt")  # a file link inside: indexed
    report = build_index(folder)
    reasons = {s.path: s.reason for s in report.skipped}
    assert reasons == {
        "notes.txt": "a link to a file outside the corpus folder; not indexed",
        "notes/relative.md": "a link to a file outside the corpus folder; not indexed",
        "private": "a link to a folder outside the corpus folder; not indexed",
        "loop.txt": "a symbolic link loop",
        "ping.md": "a symbolic link loop",
        "pong.md": "a symbolic link loop",
    }
    assert sorted(report.added) == ["notes/tidal.txt", "same.txt"]
    assert_secret_not_indexed(folder)


def test_a_file_that_becomes_a_link_out_leaves_the_index(tmp_path: Path) -> None:
    outside, folder = outside_and_corpus(tmp_path)
    (folder / "notes.txt").write_text("Plain notes about tides.\n", encoding="utf-8")
    assert "notes.txt" in build_index(folder).added
    (folder / "notes.txt").unlink()
    (folder / "notes.txt").symlink_to(outside / "secret.txt")
    report = build_index(folder)
    assert [s.reason for s in report.skipped if s.path == "notes.txt"] == [
        "a link to a file outside the corpus folder; not indexed (its previous version was removed from the index)"]
    assert_secret_not_indexed(folder)


def swap_after_the_check(monkeypatch, swap) -> None:
    """Run ``swap`` right after the indexer has checked a path and before it opens it."""
    from deep_research.search import local

    checked = local._resolve_inside

    def check_then_swap(root, path, what):
        real = checked(root, path, what)
        swap(path)
        return real

    monkeypatch.setattr(local, "_resolve_inside", check_then_swap)


def test_a_file_swapped_for_a_link_after_the_check_is_not_read(tmp_path: Path, monkeypatch) -> None:
    outside, folder = outside_and_corpus(tmp_path)
    (folder / "notes.txt").write_text("Plain notes about tides.\n", encoding="utf-8")

    def swap(path: Path) -> None:
        if path.name == "notes.txt":
            path.unlink()
            path.symlink_to(outside / "secret.txt")

    swap_after_the_check(monkeypatch, swap)
    report = build_index(folder)
    reasons = {s.path: s.reason for s in report.skipped}
    assert reasons == {"notes.txt": "it was replaced by a symbolic link while being indexed; not indexed"}
    assert report.added == ["notes/tidal.txt"]
    assert_secret_not_indexed(folder)


def test_a_folder_swapped_for_a_link_after_the_check_is_not_read(tmp_path: Path, monkeypatch) -> None:
    outside, folder = outside_and_corpus(tmp_path)
    (outside / "private" / "tidal.txt").write_text(SECRET, encoding="utf-8")

    def swap(path: Path) -> None:
        if path.name == "tidal.txt":
            (folder / "notes").rename(folder / ".moved")
            (folder / "notes").symlink_to(outside / "private", target_is_directory=True)

    swap_after_the_check(monkeypatch, swap)
    report = build_index(folder)
    assert {s.path: s.reason for s in report.skipped} == {
        "notes/tidal.txt": "it or a folder on its path was replaced by a symbolic link while being indexed; "
                           "not indexed"}
    assert report.added == []
    assert_secret_not_indexed(folder)


def test_a_fifo_is_skipped_without_waiting_for_a_writer(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    os.mkfifo(folder / "pipe.txt")
    (folder / "real.txt").write_text("Real text.\n", encoding="utf-8")
    report = build_index(folder)
    assert {s.path: s.reason for s in report.skipped} == {"pipe.txt": "not a regular file"}
    assert report.added == ["real.txt"]


def test_a_page_whose_text_takes_too_long_is_skipped_not_stalling_the_index(tmp_path, monkeypatch) -> None:
    """A hostile page: descendant selectors that must be tried against every chain of
    ancestors of a deeply nested page (minutes of cssselect2 matching for one file). The
    index is bounded per file: that file is skipped with its reason, the others indexed."""
    import time

    from deep_research.search import local

    folder = tmp_path / "docs"
    folder.mkdir()
    depth = 400
    (folder / "bomb.html").write_text(
        "<html><head><style>p div div div div div div { display: none }</style></head><body>"
        + "<div>x" * depth + "</div>" * depth + "</body></html>", encoding="utf-8")
    (folder / "fine.html").write_text("<html><body><p>Heat pumps move heat.</p></body></html>", encoding="utf-8")
    monkeypatch.setattr(local, "MAX_EXTRACT_CPU_S", 1.0)
    t0 = time.process_time()
    report = local.build_index(folder, workers=1)
    assert time.process_time() - t0 < 20
    reasons = {s.path: s.reason for s in report.skipped}
    assert "CPU time to extract" in reasons.get("bomb.html", ""), reasons
    assert report.added == ["fine.html"] and report.documents == 1


def test_the_cpu_limit_is_not_swallowed_by_a_readers_except_exception() -> None:
    """A reader that turns every Exception into "nothing hidden" (an inline style) must not
    swallow the limit and read on unbounded."""
    import time

    from deep_research.search import local

    def spin(cpu_s: float) -> None:
        end = time.process_time() + cpu_s
        while time.process_time() < end:
            pass

    t0 = time.process_time()
    with pytest.raises(local._TooSlow):
        with local._cpu_limit(0.2):
            try:
                spin(1.5)
            except Exception:  # noqa: BLE001 - what a reader does
                pass
            spin(1.5)  # with the limit swallowed above: runs to its end, nothing raised
    assert time.process_time() - t0 < 1.4


def test_off_the_main_thread_even_one_changed_file_is_extracted_in_a_worker(tmp_path) -> None:
    """A research run builds its corpus index in a thread, where no signal can bound a file's
    CPU time: a hostile page there stalled the run (minutes; a limit of 1 s did not fire).
    Off the main thread the text is read in a worker process, whose limit holds."""
    import threading

    from deep_research.search import local

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.html").write_text("<p>Heat pumps move heat.</p>", encoding="utf-8")
    entries = [folder / "a.html"]
    assert local._pool_size(1, entries, {}, folder) == 0  # main thread: here, bounded by the signal
    got: dict = {}

    def off_main() -> None:
        got["size"] = local._pool_size(1, entries, {}, folder)
        got["report"] = local.build_index(folder, workers=1)

    t = threading.Thread(target=off_main)
    t.start()
    t.join(120)
    assert got["size"] == 1
    assert got["report"].added == ["a.html"]


def test_a_folder_that_cannot_be_listed_is_skipped_with_a_reason(tmp_path: Path) -> None:
    """A folder nested so deep that its path is too long to list was left out without a
    word (the walk swallowed its error): it is a skipped entry with the reason."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "top.md").write_text("Top page about tides.\n", encoding="utf-8")
    fd = os.open(folder, os.O_RDONLY)
    for _ in range(600):  # 600 * 9 characters: past PATH_MAX (4,096)
        os.mkdir("dddddddd", dir_fd=fd)
        inner = os.open("dddddddd", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
    os.close(fd)
    report = build_index(folder)
    assert report.added == ["top.md"]
    [skipped] = report.skipped
    assert skipped.reason == "a folder that cannot be read (File name too long); nothing in it indexed"
    assert skipped.path.startswith("dddddddd/") and "…" in skipped.path and len(skipped.path) <= 160


def test_a_page_past_the_html_parsers_limits_says_so_not_no_text(tmp_path: Path) -> None:
    """lxml stops at elements nested 256 deep and at a text of 10 MB in one piece (its
    guard against hostile pages, kept). Such a page was skipped as "no text", although
    its text is plain to see in a browser: the reason names the limit."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "deep.html").write_text(
        "<html><body>" + "<div>" * 20_000 + "<p>Deeply nested text about tidal power.</p>" + "</div>" * 20_000
        + "</body></html>", encoding="utf-8")
    (folder / "giant.html").write_text(
        "<html><body><p>" + "tidal power " * 1_000_000 + "</p></body></html>", encoding="utf-8")
    (folder / "ok.html").write_text("<html><body><p>Tidal power is predictable.</p></body></html>",
                                    encoding="utf-8")
    report = build_index(folder)
    assert report.added == ["ok.html"]
    reasons = {s.path: s.reason for s in report.skipped}
    assert "nested more than 256" in reasons["deep.html"], reasons
    assert "10 MB" in reasons["giant.html"], reasons
    assert not any("no text" in r for r in reasons.values()), reasons


def test_a_page_the_html_parser_stops_reading_early_is_indexed_and_said_to_be_partial(tmp_path: Path) -> None:
    """A page with text before the nesting limit was indexed as if whole, the text after
    the limit dropped silently: it is indexed, and the report says it is only in part."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "deep.html").write_text(
        "<html><body><p>Tidal power is predictable.</p>" + "<div>" * 400 + "<p>Deep.</p>" + "</div>" * 400
        + "<p>Tidal range matters.</p></body></html>", encoding="utf-8")
    (folder / "ok.html").write_text("<html><body><p>Tidal power is cheap.</p></body></html>", encoding="utf-8")
    report = build_index(folder)
    assert sorted(report.added) == ["deep.html", "ok.html"] and not report.skipped
    assert [(p.path, "nested more than 256 deep" in p.reason) for p in report.partial] == [("deep.html", True)]


def test_a_page_title_is_bounded_in_what_search_returns(tmp_path: Path) -> None:
    """A page whose <title> held 220 KB went whole into every prompt that lists the page
    (a small run used 280,000 tokens instead of 7,500) and into every output (a 50-page
    PDF of Sources). A search result's title, author and site name are at most
    MAX_TITLE_CHARS long, cut with an ellipsis."""
    from deep_research.search.base import SearchResult
    from deep_research.terminal import MAX_TITLE_CHARS

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "t.html").write_text("<html><head><title>" + "Tidal power " * 20_000 + "</title></head>"
                                   "<body><p>Tidal power is predictable.</p></body></html>", encoding="utf-8")
    build_index(folder)
    (hit,) = search(LocalCorpus.open(folder), "tidal")
    assert len(hit.title) <= MAX_TITLE_CHARS and hit.title.startswith("Tidal power Tidal") and hit.title.endswith("…")
    other = SearchResult("https://example.org/", "T" * 100_000, "text", author="A" * 10_000, site_name="S" * 10_000)
    assert max(len(other.title), len(other.author or ""), len(other.site_name or "")) <= MAX_TITLE_CHARS
    assert SearchResult("https://example.org/", "A short title", "text").title == "A short title"


def _pages(folder: Path, n: int) -> Path:
    folder.mkdir()
    for i in range(n):
        (folder / f"page{i:03}.md").write_text(f"# Page {i}\n\nHeat pump note number {i}.\n", encoding="utf-8")
    return folder


def test_an_interrupted_index_keeps_what_it_indexed_and_the_next_run_goes_on(tmp_path: Path) -> None:
    """Ctrl-C rolled the whole run back: an index of a large folder stopped after an hour
    kept nothing. Now what was indexed up to the interruption is committed, the caller gets
    it (IndexInterrupted.report), and the next run reads only the files not indexed yet."""
    from deep_research.search.local import IndexInterrupted

    folder = _pages(tmp_path / "docs", 30)

    def stop_after_12(done: int, total: int) -> None:
        if done == 12:
            raise KeyboardInterrupt

    with pytest.raises(IndexInterrupted) as stopped:
        build_index(folder, progress=stop_after_12, workers=1)
    report = stopped.value.report
    assert len(report.added) == 12 and report.documents == 12
    with sqlite3.connect(default_index_path(folder)) as con:
        assert con.execute("SELECT count(*) FROM documents").fetchone()[0] == 12
    again = build_index(folder, workers=1)
    assert again.unchanged == 12 and len(again.added) == 18 and again.documents == 30 and not again.rebuilt
    assert LocalCorpus.open(folder).search_sync("note number 29")


def _index_rows(folder: Path) -> list[tuple]:
    with sqlite3.connect(default_index_path(folder)) as con:
        rows = con.execute("SELECT id, path, title, content, sha256 FROM documents ORDER BY id").fetchall()
        hits = con.execute("SELECT rowid, bm25(documents_fts) FROM documents_fts WHERE documents_fts MATCH 'note' "
                           "ORDER BY rowid").fetchall()
    return rows + hits


@pytest.mark.parametrize("batch", [1, 3, 32])
def test_new_documents_written_several_to_a_statement_are_the_rows_written_one_by_one(
        tmp_path: Path, monkeypatch, batch) -> None:
    """New documents wait to be inserted several to a statement (local.INSERT_BATCH); the
    index is the one written a row at a time: the same row ids, also where an update, a
    removal (of the document with the highest id, whose id a new row would take) and a
    commit come between them."""
    from deep_research.search import local

    def run(folder: Path, size: int) -> list[tuple]:
        monkeypatch.setattr(local, "INSERT_BATCH", size)
        _pages(folder, 20)
        build_index(folder, workers=1)
        (folder / "page019.md").write_text("", encoding="utf-8")  # empty: removed, between new files
        (folder / "page005.md").write_text("# Five\n\nA new note.\n", encoding="utf-8")  # updated
        os.utime(folder / "page007.md", ns=(1, 1))  # touched
        for name in ("page0100.md", "page0150.md", "page0195.md", "page020.md", "page021.md", "page030.md"):
            (folder / name).write_text(f"# {name}\n\nAdded note {name}.\n", encoding="utf-8")
        monkeypatch.setattr(local, "BATCH_SECONDS", 0.0 if size == 3 else 10.0)  # a commit after every file
        report = build_index(folder, workers=1)
        assert len(report.added) == 6 and report.updated == ["page005.md"] and report.documents == 25
        return _index_rows(folder)

    assert run(tmp_path / "batched", batch) == run(tmp_path / "one", 1)


def test_an_index_run_commits_in_batches(tmp_path: Path, monkeypatch) -> None:
    """A run killed outright (no Ctrl-C to catch) keeps what it committed: the run commits
    every BATCH_SECONDS, so another connection sees the documents of the run so far."""
    from deep_research.search import local

    folder = _pages(tmp_path / "docs", 10)
    monkeypatch.setattr(local, "BATCH_SECONDS", 0.0)
    seen: list[int] = []

    def count(done: int, total: int) -> None:
        if done:
            with sqlite3.connect(default_index_path(folder), timeout=5) as con:
                seen.append(con.execute("SELECT count(*) FROM documents").fetchone()[0])

    assert build_index(folder, progress=count, workers=1).documents == 10
    assert seen == list(range(1, 11))


def test_ctrl_c_while_a_rebuild_drops_the_old_tables_leaves_the_index_as_it_was(tmp_path: Path, monkeypatch) -> None:
    """Ctrl-C before the run wrote any document (a rebuild for another base URL, between
    dropping the old tables and making the new ones) committed that half: the old index
    was gone, the meta table alone left, and the interruption read as "cannot write the
    index: no such table". Nothing the run did is kept then: the index is as it was."""
    from deep_research.search import local
    from deep_research.search.local import IndexInterrupted

    folder = _pages(tmp_path / "docs", 5)
    build_index(folder, workers=1)
    schema = local._SCHEMA

    class StoppedAfterTheFirst:
        def __iter__(self):
            yield schema[0]
            raise KeyboardInterrupt

    monkeypatch.setattr(local, "_SCHEMA", StoppedAfterTheFirst())
    with pytest.raises(IndexInterrupted) as stopped:
        build_index(folder, base_url="https://example.org/docs/", workers=1)
    monkeypatch.setattr(local, "_SCHEMA", schema)
    report = stopped.value.report
    assert report.documents == 5 and not report.added and not report.updated
    corpus = LocalCorpus.open(folder)
    assert corpus.base_url is None and corpus.search_sync("note number 4")


def test_another_run_writing_between_two_batches_stops_this_one(tmp_path: Path, monkeypatch) -> None:
    """Between two batch commits another run (a second `deep-research index`, here for
    another base URL) may take the index and rebuild it. The first run wrote on from its
    stale view: rows linking under its base URL in an index whose meta names the other's,
    kept so by every later run (the files are unchanged). It stops with CorpusError now;
    the other run's index stands whole."""
    from deep_research.search import local

    folder = _pages(tmp_path / "docs", 6)
    build_index(folder, workers=1)
    for i in range(6):  # every file changed: the next run updates each row (its URL too)
        (folder / f"page{i:03}.md").write_text(f"# Page {i}\n\nHeat pump note, changed, {i}.\n", encoding="utf-8")
    monkeypatch.setattr(local, "BATCH_SECONDS", 0.0)
    connect = sqlite3.connect

    class Overtaken:
        """The first run's connection: before its third transaction another run indexes."""

        def __init__(self, con: sqlite3.Connection) -> None:
            self.con, self.begun = con, 0

        def __getattr__(self, name: str):
            return getattr(self.con, name)

        def execute(self, sql: str, *args):
            if sql == "BEGIN IMMEDIATE":
                self.begun += 1
                if self.begun == 3:
                    monkeypatch.setattr(local.sqlite3, "connect", connect)
                    assert build_index(folder, base_url="https://example.org/docs/", workers=1).rebuilt
            return self.con.execute(sql, *args)

    monkeypatch.setattr(local.sqlite3, "connect", lambda *a, **k: Overtaken(connect(*a, **k)))
    with pytest.raises(CorpusError, match="another run wrote the index"):
        build_index(folder, workers=1)
    with sqlite3.connect(default_index_path(folder)) as con:
        urls = [u for (u,) in con.execute("SELECT url FROM documents ORDER BY path")]
    assert urls == [f"https://example.org/docs/page{i:03}.md" for i in range(6)]


def test_a_broken_pdf_is_reported_once_without_pypdf_log_lines(tmp_path, caplog):
    """A research run on a corpus with a broken PDF printed pypdf's own "EOF marker not
    found" on the terminal, under the live progress and naming no file: only `deep-research
    index` had quietened pypdf. The reading itself says why the file is skipped."""
    from deep_research.search import open_local_corpus

    logging.getLogger("pypdf").setLevel(logging.NOTSET)  # as in a process that never ran `index`
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\n" + b"garbage" * 1000)
    (tmp_path / "page.md").write_text("# A page\n\nA sentence to find.\n")
    with caplog.at_level(logging.DEBUG):
        open_local_corpus(tmp_path)
    pypdf_lines = [r.getMessage() for r in caplog.records if r.name.startswith("pypdf")]
    assert pypdf_lines == []
    ours = [r.getMessage() for r in caplog.records if "broken.pdf" in r.getMessage()]
    assert len(ours) == 1 and "unreadable PDF" in ours[0], ours

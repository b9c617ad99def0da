"""Indexing and searching fast without changing what is indexed or found (issue 23):
text extracted in worker processes gives the same index as here, a stylesheet changed
between runs is read again, search ranks before it reads and returns what the
straightforward plan returns, and keeps up with an updated or replaced index."""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

import pytest

from deep_research.search import LocalCorpus, build_index
from deep_research.search import local as local_mod

from .test_extract_styles import PAGES, SITE_CSS, write_site


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


def indexed_here(tmp_path: Path, pages: int, monkeypatch, parallel_from: int):
    """A folder of pages and bad files, indexed in this process; worker processes are
    used from ``parallel_from`` files on."""
    folder = tmp_path / "site"
    folder.mkdir()
    write_many(folder, pages)
    monkeypatch.setattr(local_mod, "PARALLEL_MIN_FILES", parallel_from)
    return folder, build_index(folder, index_path=tmp_path / "serial.sqlite", workers=1)


def test_worker_processes_index_exactly_what_this_process_does(tmp_path, monkeypatch):
    folder, serial = indexed_here(tmp_path, 40, monkeypatch, 10)
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


def _runs_here(request) -> bool:
    """A patched worker needs a forked process, and a process forks only while it has one
    thread. True: run the test here. Otherwise the test has been run in a fresh pytest
    process (whose outcome is asserted) and the caller returns."""
    import subprocess
    import threading

    if threading.active_count() == 1:
        return True
    if os.environ.get("DEEP_RESEARCH_TEST_FRESH_PROCESS"):
        pytest.fail("a fresh pytest process has threads too: the worker tests cannot fork")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", request.node.nodeid],
                          cwd=request.config.rootpath, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "DEEP_RESEARCH_TEST_FRESH_PROCESS": "1"})
    assert done.returncode == 0 and " passed" in done.stdout, done.stdout[-4000:] + done.stderr[-2000:]
    return False


def test_a_file_that_stops_its_worker_is_skipped_and_the_others_indexed(tmp_path, monkeypatch, request):
    """Page 7's reader kills its worker process (as a crash or the system's out-of-memory
    killer would): every other file is indexed as without workers, page 7 is skipped with
    the reason, and nothing was extracted in this process after the death."""
    if not _runs_here(request):
        return
    folder, serial = indexed_here(tmp_path, 20, monkeypatch, 5)
    monkeypatch.setattr(local_mod, "_worker_extract", _die_on_page_7)
    here: list = []  # what this process extracted (a worker's appends stay in the worker)
    extract = local_mod._extract
    monkeypatch.setattr(local_mod, "_extract", lambda *a: here.append(a) or extract(*a))
    crashed = build_index(folder, index_path=tmp_path / "crashed.sqlite", workers=2)
    assert not here
    victim = "p007-" + sorted(p.name for p in folder.glob("p007-*"))[0][5:]
    expected = [r[1:] for r in rows(tmp_path / "serial.sqlite") if r[1] != victim]
    assert [r[1:] for r in rows(tmp_path / "crashed.sqlite")] == expected
    extra = [s for s in crashed.skipped if s not in serial.skipped]
    assert [s.path for s in extra] == [victim]
    assert "stopped the worker process" in extra[0].reason


def test_files_that_stop_their_workers_cannot_stall_the_run(tmp_path, monkeypatch, request):
    """Every file kills its worker: after MAX_WORKER_DEATHS of them the rest are skipped
    unread (each would cost a new process), with the reason."""
    if not _runs_here(request):
        return
    folder, serial = indexed_here(tmp_path, 20, monkeypatch, 5)
    monkeypatch.setattr(local_mod, "_worker_extract", _die)
    monkeypatch.setattr(local_mod, "MAX_WORKER_DEATHS", 2)
    crashed = build_index(folder, index_path=tmp_path / "crashed.sqlite", workers=2)
    assert crashed.documents == 0
    reasons = [s.reason for s in crashed.skipped if s not in serial.skipped]
    assert sum("stopped the worker process that read it" in r for r in reasons) == 2
    assert sum(r.startswith("not extracted: 2 files") for r in reasons) == len(reasons) - 2
    indexed = {r[1] for r in rows(tmp_path / "serial.sqlite")}
    assert indexed <= {s.path for s in crashed.skipped} and len(indexed) == serial.documents


def _die(*args):
    os._exit(3)


def _die_on_page_7(batch, root, published):
    if any(b"page 7<" in loaded.data for loaded in batch):
        os._exit(3)
    return _ORIGINAL_EXTRACT(batch, root, published)


_ORIGINAL_EXTRACT = local_mod._worker_extract
_COUNTS: list[Path] = []  # where a worker writes how many stylesheets its cache had parsed


def _extract_and_count(batch, root, published):
    before = local_mod._worker_styles.parsed
    out = _ORIGINAL_EXTRACT(batch, root, published)
    with open(_COUNTS[0] / f"{os.getpid()}", "a", encoding="utf-8") as f:
        f.write(f"{before} {local_mod._worker_styles.parsed}\n")
    return out


def test_workers_inherit_the_folders_stylesheets_parsed(tmp_path, monkeypatch, request):
    """The folder's three stylesheet files are parsed before the workers are forked:
    each worker starts with them (the cache's count is 3 at its first page) and parses
    only the two <style> blocks of the pages; the index is the same as without workers."""
    if not _runs_here(request):
        return
    folder, _ = indexed_here(tmp_path, 40, monkeypatch, 10)
    (tmp_path / "counts").mkdir()
    monkeypatch.setattr(local_mod, "_worker_extract", _extract_and_count)
    monkeypatch.setattr(sys.modules[__name__], "_COUNTS", [tmp_path / "counts"])
    build_index(folder, index_path=tmp_path / "parallel.sqlite", workers=2)
    assert rows(tmp_path / "serial.sqlite") == rows(tmp_path / "parallel.sqlite")
    counts = [[int(n) for n in line.split()] for f in (tmp_path / "counts").iterdir()
              for line in f.read_text().splitlines()]
    assert counts and min(before for before, _ in counts) == 3
    assert max(after for _, after in counts) <= 5


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


WORDS = ["solar", "wind", "tidal", "energy", "panel", "turbine", "grid", "storage", "battery", "heat", "pump", "water", "river", "dam", "coal", "gas", "nuclear", "fusion", "fission", "carbon", "price", "market", "policy"]


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


# --- the OR pass, pruned: only documents that can be among the best are ranked --------------
def zipf_corpus(folder: Path, n_docs: int, seed: int) -> list[str]:
    """Documents of words drawn with very unequal frequencies (a few words in nearly every
    document, most in a few), some of them copies of others (equal scores); the words."""
    import random

    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(300)]
    weights = [1 / (i + 1) ** 1.1 for i in range(len(vocab))]
    folder.mkdir()
    for i in range(n_docs):
        if i % 17 == 5:  # a copy of the document before: the same text, the same score
            text = (folder / f"d{i - 1:04d}.txt").read_text(encoding="utf-8")
        else:
            text = " ".join(rng.choices(vocab, weights, k=rng.randint(3, 300)))
        (folder / f"d{i:04d}.txt").write_text(text, encoding="utf-8")
    return vocab


def test_the_pruned_or_pass_ranks_what_the_plain_query_ranks(tmp_path, monkeypatch):
    import random

    folder = tmp_path / "docs"
    vocab = zipf_corpus(folder, 600, seed=11)
    build_index(folder)
    con = sqlite3.connect(LocalCorpus.open(folder).index_path)
    monkeypatch.setattr(local_mod, "PRUNE_MIN_POSTINGS", 50)  # a small corpus: prune it too
    rng = random.Random(3)
    plans: dict[str, int] = {}
    for _ in range(400):
        # a few common words and a rarer one or two, as in "scipy.linalg.blas.ctrsm"
        words = rng.sample(vocab[:12], rng.randint(1, 4)) + rng.sample(vocab[12:], rng.randint(0, 2))
        rng.shuffle(words)
        terms = local_mod._query_terms(" ".join(words), "OR")
        any_terms = local_mod.fts_query(" ".join(words), "OR")
        for limit in (1, 5, 9):
            plan: list[str] = []
            got = local_mod._rank_any(con, terms, any_terms, limit, plan)
            want = con.execute(local_mod._RANK_SQL, (any_terms, limit)).fetchall()
            assert got == want, (words, limit, plan)
            key = plan[-1].split(":")[0]
            plans[key] = plans.get(key, 0) + 1
    con.close()
    assert plans.get("pruned", 0) > 300, plans  # the pruned plan was compared, often
    assert plans.get("plain", 0) > 0, plans


def test_the_pruned_or_pass_keeps_the_order_of_equal_scores(tmp_path, monkeypatch):
    """Copies of a document score the same; the plain query lists them by row id, and so
    does the pruned one, also when the copies straddle the last place."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(40):
        (folder / f"common{i:02d}.txt").write_text("alpha beta gamma " * (i % 5 + 1), encoding="utf-8")
    for i in range(6):
        (folder / f"rare{i}.txt").write_text("alpha zeta beta", encoding="utf-8")
    (folder / "rarer.txt").write_text("zeta zeta alpha", encoding="utf-8")
    build_index(folder)
    con = sqlite3.connect(LocalCorpus.open(folder).index_path)
    monkeypatch.setattr(local_mod, "PRUNE_MIN_POSTINGS", 1)
    any_terms = local_mod.fts_query("alpha zeta", "OR")
    for limit in range(1, 9):
        plan: list[str] = []
        got = local_mod._rank_any(con, ["alpha", "zeta"], any_terms, limit, plan)
        assert got == con.execute(local_mod._RANK_SQL, (any_terms, limit)).fetchall()
        # seven documents hold "zeta": from 8 on, the best include some without it
        assert plan[-1].startswith("pruned" if limit <= 7 else "plain"), plan
        assert len(got) == limit
        if limit <= 7:  # after the best ("zeta" twice), six copies: ties at every cut
            assert len({rank for _, rank in got[1:]}) <= 1
    con.close()


# --- the full-text index is left in one segment --------------------------------------------
def fts_segments(index: Path) -> int:
    """How many segments FTS5's structure record lists (after its 4-byte cookie: a varint
    count of levels, then of segments)."""
    con = sqlite3.connect(index)
    try:
        block = con.execute("SELECT block FROM documents_fts_data WHERE id = 10").fetchone()[0]
    finally:
        con.close()
    return local_mod._varints(block[4:])[1]


def test_index_runs_that_change_much_leave_one_segment_and_the_same_results(tmp_path, monkeypatch):
    """Runs that change a sizeable part of the index merge its segments (a search then looks
    each term up once); the search results are the ones of an index left with several
    segments. A small update does not rewrite the whole index (it adds a segment)."""
    import random

    rng = random.Random(7)
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(40):
        (folder / f"d{i:02d}.txt").write_text(" ".join(rng.choices(WORDS, k=rng.randint(5, 200))), encoding="utf-8")
    index, unmerged = tmp_path / "merged.sqlite", tmp_path / "unmerged.sqlite"
    monkeypatch.setattr(local_mod, "MERGE_MIN_CHANGED", 1)  # every change is sizeable here
    for name in ("a", "b", "c"):  # three more runs, each adding a document
        build_index(folder, index_path=index)
        with monkeypatch.context() as m:
            m.setattr(local_mod, "_merge_segments", lambda con: None)
            build_index(folder, index_path=unmerged)
        (folder / f"{name}.txt").write_text(f"solar {name} wind", encoding="utf-8")
    assert fts_segments(index) == 1
    assert fts_segments(unmerged) > 1
    merged_corpus, unmerged_corpus = LocalCorpus(index), LocalCorpus(unmerged)
    for q in ["solar", "wind energy", "a", "solar wind tidal", "grid zzz"]:
        for k in (1, 5):
            got = [(r.url, r.snippet, r.score) for r in merged_corpus.search_sync(q, max_results=k)]
            assert got == [(r.url, r.snippet, r.score) for r in unmerged_corpus.search_sync(q, max_results=k)]
            assert got


def test_a_small_update_of_a_large_index_is_not_merged(tmp_path, monkeypatch):
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(30):
        (folder / f"d{i:02d}.txt").write_text(f"solar wind {i} " + " ".join(WORDS[: i + 3]), encoding="utf-8")
    index = tmp_path / "i.sqlite"
    merges = []
    real = local_mod._merge_segments
    monkeypatch.setattr(local_mod, "_merge_segments", lambda con: (merges.append(1), real(con)))
    monkeypatch.setattr(local_mod, "MERGE_MIN_CHANGED", 5)
    build_index(folder, index_path=index)  # a new index: merged
    assert merges == [1] and fts_segments(index) == 1
    (folder / "new.txt").write_text("solar tidal", encoding="utf-8")
    build_index(folder, index_path=index)  # 1 of 31 changed: left to FTS5
    assert merges == [1] and fts_segments(index) == 2
    for i in range(5):
        (folder / f"more{i}.txt").write_text(f"tidal {i}", encoding="utf-8")
    build_index(folder, index_path=index)  # 5 changed: merged
    assert merges == [1, 1] and fts_segments(index) == 1
    build_index(folder, index_path=index)  # nothing changed
    assert merges == [1, 1]
    assert [r.url for r in LocalCorpus(index).search_sync("solar tidal", max_results=5)]


def test_a_pool_found_broken_when_a_batch_is_sent_is_not_a_crash(tmp_path, monkeypatch, request):
    """A worker of an earlier batch may die before its batch's result is asked for: the pool
    then refuses the next batch (BrokenProcessPool from ``submit``, a race seen in CI). That
    is a worker death like any other: the files go one by one to workers of their own, and
    the index is the one built without workers."""
    if not _runs_here(request):
        return
    from concurrent.futures.process import BrokenProcessPool

    folder, serial = indexed_here(tmp_path, 20, monkeypatch, 5)
    real_pool = local_mod._process_pool

    class Broken:
        def submit(self, *args, **kwargs):
            raise BrokenProcessPool("a child process terminated abruptly")

        def shutdown(self, *args, **kwargs):
            pass

    # the shared pool is broken from the start; the one-file pools after a death are real
    monkeypatch.setattr(local_mod, "_process_pool", lambda n, styles: Broken() if n > 1 else real_pool(n, styles))
    report = build_index(folder, index_path=tmp_path / "broken.sqlite", workers=2)
    assert rows(tmp_path / "broken.sqlite") == rows(tmp_path / "serial.sqlite")
    assert report.documents == serial.documents

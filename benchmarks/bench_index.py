"""Indexing and searching a folder of real documentation against the plain floor.

Corpus (``_doccorpus.py``): HTML docs from Debian doc packages, pages we did not write.

* **Mixed folder**: PostgreSQL 15, Python 3.11, Linux kernel 6.1, SciPy and Django, at most
  ``--per-set`` pages of each (an even stride through the sorted page list), with every
  stylesheet of each set.
* **Large folder**: the mixed pages plus pages of five more doc packages (pandas, astropy,
  celery, SQLAlchemy, Sphinx; seeded choice) up to ``--large`` distinct pages. No page is
  repeated; if the packages run short the count reached is printed.

Measured in the same run, each index build in a fresh process (only the build is timed;
the child reports its wall time, CPU time of itself and of its worker processes, and peak
memory), fastest of ``--runs``:

* **ours**: ``build_index(folder)`` of the code under test;
* **floor**: the same pages read, parsed with ``lxml.html`` and their ``text_content()``
  stored with the title in an SQLite FTS5 table with our tokenizer, in one transaction.

Then per doc set (``--set-pages`` pages of each set, each set's folder indexed alone, once):
ms per page, CPU time.

Search, on the large folder's index: a fixed query set, seeded: page titles and section
headings (h1-h3) of pages of the folder, read with lxml from the raw HTML and cut before
a site suffix (`` — Python 3.11 docs``), plus a few broad queries that match most pages.
``LocalCorpus.search_sync(query, max_results=k)`` (a connection per search, as the
product does) against the floor: the same FTS5 MATCH returning ids and bm25 ranks, limit k
(and the OR query when the AND query finds fewer than k, the product's plan), on one open
connection. Each query's time is its fastest of ``--runs``; p50, p90 and worst over the set.

``--code DIR`` runs "ours" from another source tree (``DIR`` is a ``src`` folder, e.g. of
the commit before a change: ``git archive <commit> src | tar -x -C /tmp/base``); the floor
is the same. ``--equiv DIR`` checks that the code under test produces what the code in
``DIR`` produced: every stored document (path, URL, title, text, format, hash, size, mtime,
rowid) of the mixed folder's index, and every search result (the same documents in the same
order, with the same title, content, snippet and score) for the query set.

    uv run python benchmarks/bench_index.py [--per-set 1000] [--large 15000] [--runs 3] [--set-pages 300]
        [--parts index,sets,search] [--code DIR] [--equiv DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sqlite3
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import CACHE, REPO, percentile, print_code_version, target_line, write_result
from _common import run_child as _run_child
from _doccorpus import large_selection, make_folder, mixed_selection, page_paths, stride

FOLDERS = CACHE / "index"  # the page folders (hard links), kept between runs
WORK = FOLDERS / f"run-{os.getpid()}"  # this run's index files, removed at the end
BROAD = ["python", "function", "data", "return value", "configuration file", "error message",
         "the", "example", "table", "version"]
TOKENIZER = "porter unicode61 remove_diacritics 2"
_SUFFIX = re.compile(r"\s+(?:\u2014|\u2013|\||-|::)\s+.*$")


# --- children: one measured job each ---------------------------------------------------------
def _usage() -> tuple[float, int, int]:
    import resource

    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime, me.ru_maxrss, kids.ru_maxrss


def child_ours_index(job: dict) -> dict:
    from deep_research.search.local import build_index

    Path(job["index"]).unlink(missing_ok=True)
    cpu0, _, _ = _usage()
    t0 = time.perf_counter()
    report = build_index(job["folder"], index_path=job["index"])
    wall = time.perf_counter() - t0
    cpu1, rss, kids_rss = _usage()
    return {"wall": wall, "cpu": cpu1 - cpu0, "rss_kb": rss, "workers_rss_kb": kids_rss,
            "documents": report.documents, "skipped": len(report.skipped)}


def child_floor_index(job: dict) -> dict:
    import lxml.html

    Path(job["index"]).unlink(missing_ok=True)
    pages = json.loads(Path(job["pages"]).read_text())
    cpu0, _, _ = _usage()
    t0 = time.perf_counter()
    con = sqlite3.connect(job["index"], isolation_level=None)
    con.execute(f"CREATE VIRTUAL TABLE docs USING fts5(title, content, tokenize='{TOKENIZER}')")
    con.execute("BEGIN")
    n = 0
    for path in pages:
        with open(path, "rb") as f:
            data = f.read()
        try:
            doc = lxml.html.document_fromstring(data)
        except Exception:  # noqa: BLE001, S112 - an empty page: not indexed by the floor either
            continue
        con.execute("INSERT INTO docs (title, content) VALUES (?, ?)",
                    (doc.findtext(".//title") or "", doc.text_content()))
        n += 1
    con.execute("COMMIT")
    con.close()
    wall = time.perf_counter() - t0
    cpu1, rss, _ = _usage()
    return {"wall": wall, "cpu": cpu1 - cpu0, "rss_kb": rss, "documents": n}


def child_ours_search(job: dict) -> dict:
    import hashlib

    from deep_research.search.local import LocalCorpus

    corpus = LocalCorpus(job["index"])
    queries = json.loads(Path(job["queries"]).read_text())
    k, runs = job["k"], job["runs"]
    walls, cpus, results = [], [], []
    for q in queries:
        best_w = best_c = float("inf")
        for _ in range(runs):
            c0, t0 = time.thread_time(), time.perf_counter()
            found = corpus.search_sync(q, max_results=k)
            best_w, best_c = min(best_w, time.perf_counter() - t0), min(best_c, time.thread_time() - c0)
        walls.append(best_w)
        cpus.append(best_c)
        results.append([[r.url, r.title, hashlib.sha256(r.content.encode()).hexdigest(), r.format, r.snippet,
                          r.score] for r in found])
    return {"wall": walls, "cpu": cpus, "results": results}


def child_floor_search(job: dict) -> dict:
    con = sqlite3.connect(Path(job["index"]).as_uri() + "?mode=ro", uri=True)
    plans = json.loads(Path(job["plans"]).read_text())
    k, runs = job["k"], job["runs"]
    sql = ("SELECT rowid, bm25(documents_fts, 2.0, 1.0) AS rank FROM documents_fts "
           "WHERE documents_fts MATCH ? ORDER BY rank LIMIT ?")
    walls, cpus, or_pass = [], [], 0
    for all_terms, any_terms in plans:
        best_w = best_c = float("inf")
        for _ in range(runs):
            c0, t0 = time.thread_time(), time.perf_counter()
            rows = con.execute(sql, (all_terms, k)).fetchall() if all_terms else []
            used_or = bool(all_terms) and len(rows) < k and any_terms != all_terms
            if used_or:
                seen = {r[0] for r in rows}
                more = con.execute(sql, (any_terms, k + len(rows))).fetchall()
                rows += [r for r in more if r[0] not in seen][: k - len(rows)]
            best_w, best_c = min(best_w, time.perf_counter() - t0), min(best_c, time.thread_time() - c0)
        walls.append(best_w)
        cpus.append(best_c)
        or_pass += used_or
    return {"wall": walls, "cpu": cpus, "or_pass": or_pass}


CHILDREN = {"ours_index": child_ours_index, "floor_index": child_floor_index,
            "ours_search": child_ours_search, "floor_search": child_floor_search}


def run_child(job: dict, code: str | None = None) -> dict:
    """Run one job in a fresh interpreter; ``code``: the src folder to import ours from."""
    return _run_child(__file__, job, code)


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


# --- parts -------------------------------------------------------------------------------------
def best_of(job: dict, runs: int, code: str | None) -> dict:
    got = [run_child(job, code) for _ in range(runs)]
    best = min(got, key=lambda g: g["wall"])
    return {**best, "wall": best["wall"], "cpu": min(g["cpu"] for g in got), "walls": [g["wall"] for g in got],
            "cpus": [g["cpu"] for g in got]}


def index_pair(folder: Path, pages: list[Path], tag: str, runs: int, code: str | None) -> tuple[dict, dict]:
    WORK.mkdir(parents=True, exist_ok=True)
    plist = WORK / f"{tag}.pages.json"
    plist.write_text(json.dumps([str(p) for p in pages]))
    floor = best_of({"task": "floor_index", "pages": str(plist), "index": str(WORK / f"{tag}.floor.sqlite")},
                    runs, None)
    ours = best_of({"task": "ours_index", "folder": str(folder), "index": str(WORK / f"{tag}.ours.sqlite")},
                   runs, code)
    return ours, floor


def part_index(folder: Path, selection: dict, args, results: dict) -> None:
    pages = page_paths(folder, selection)
    print(f"\n== index: mixed folder, {len(pages):,} pages "
          f"({', '.join(f'{k} {len(v)}' for k, v in selection.items())}), fastest of {args.runs}")
    load0 = load()
    ours, floor = index_pair(folder, pages, "mixed", args.runs, args.code)
    print(f"   load average before/after: {load0} / {load()} (2 CPUs, shared with other work)")
    n = len(pages)
    print(f"   {'':10} {'wall s':>8} {'CPU s':>8} {'ms/page CPU':>12} {'peak MB':>8}   runs (wall)")
    for name, r in (("ours", ours), ("floor", floor)):
        peak = max(r["rss_kb"], r.get("workers_rss_kb", 0)) / 1024
        print(f"   {name:10} {r['wall']:8.1f} {r['cpu']:8.1f} {1000 * r['cpu'] / n:12.2f} {peak:8.0f}   "
              + ", ".join(f"{w:.1f}" for w in r["walls"]))
    if ours.get("workers_rss_kb"):
        print(f"   ours: main process {ours['rss_kb'] / 1024:.0f} MB, largest worker {ours['workers_rss_kb'] / 1024:.0f} MB")
    print(f"   documents indexed: ours {ours['documents']:,} (skipped {ours['skipped']}), floor {floor['documents']:,}")
    rw, rc = ours["wall"] / floor["wall"], ours["cpu"] / floor["cpu"]
    results["index"] = {"pages": n, "ours": ours, "floor": floor, "ratio_wall": rw, "ratio_cpu": rc, "load": [load0, load()],
                        "targets": [target_line("index time / floor (wall)", f"{rw:.2f}x", "<= 3x", rw <= 3),
                                    target_line("index CPU time / floor (CPU)", f"{rc:.2f}x", "<= 3x", rc <= 3)]}


def part_sets(folder: Path, selection: dict, args, results: dict) -> None:
    selection = {name: stride(rels, args.set_pages) for name, rels in selection.items()}
    folder = make_folder(FOLDERS / f"sets-{args.per_set}-{args.set_pages}", selection)
    print(f"\n== per doc set ({args.set_pages} pages of each, the set's folder indexed alone, once; CPU time)")
    print(f"   {'set':12} {'pages':>6} {'ours ms/page':>13} {'floor ms/page':>14} {'ratio':>7} {'ours wall s':>12}")
    out = {}
    for name, rels in selection.items():
        sub = folder / name
        pages = page_paths(folder, {name: rels})
        ours, floor = index_pair(sub, pages, f"set-{name}", 1, args.code)
        n = len(pages)
        out[name] = {"pages": n, "ours_ms": 1000 * ours["cpu"] / n, "floor_ms": 1000 * floor["cpu"] / n,
                     "ours_wall": ours["wall"], "floor_wall": floor["wall"]}
        o = out[name]
        print(f"   {name:12} {n:6} {o['ours_ms']:13.2f} {o['floor_ms']:14.2f} {o['ours_ms'] / o['floor_ms']:6.1f}x "
              f"{ours['wall']:12.1f}")
    results["sets"] = out


def query_set(folder: Path, selection: dict, n: int, seed: int) -> list[str]:
    """Titles and headings of seeded pages, cleaned, plus broad queries."""
    import lxml.html

    rng = random.Random(seed)
    pages = page_paths(folder, selection)
    out: list[str] = []
    seen: set[str] = set()
    for path in rng.sample(pages, min(len(pages), 4 * n)):
        if len(out) >= n - len(BROAD):
            break
        try:
            doc = lxml.html.document_fromstring(path.read_bytes())
        except Exception:  # noqa: BLE001, S112 - a page lxml cannot parse gives no query
            continue
        cands = [doc.findtext(".//title") or ""] + [h.text_content() for h in doc.iter("h1", "h2", "h3")]
        cands = [_SUFFIX.sub("", re.sub(r"[\s\u00b6#]+", " ", c)).strip() for c in cands]
        cands = [c for c in cands if 3 <= len(c) <= 80 and re.search(r"\w", c) and c.lower() not in seen]
        if cands:
            q = rng.choice(cands)
            seen.add(q.lower())
            out.append(q)
    return out + BROAD


def search_plans(queries: list[str]) -> list[tuple[str, str]]:
    from deep_research.search.local import fts_query

    return [(fts_query(q, "AND"), fts_query(q, "OR")) for q in queries]


def summary(times: list[float]) -> tuple[float, float, float]:
    ms = [1000 * t for t in times]
    return percentile(ms, 50), percentile(ms, 90), max(ms)


def part_search(folder: Path, selection: dict, args, results: dict, index: Path, tag: str) -> None:
    queries = query_set(folder, selection, args.queries, args.seed)
    qfile, pfile = WORK / f"{tag}.queries.json", WORK / f"{tag}.plans.json"
    qfile.write_text(json.dumps(queries, ensure_ascii=False))
    pfile.write_text(json.dumps(search_plans(queries)))
    load0 = load()
    ours = run_child({"task": "ours_search", "index": str(index), "queries": str(qfile), "k": args.k,
                      "runs": args.runs}, args.code)
    floor = run_child({"task": "floor_search", "index": str(index), "plans": str(pfile), "k": args.k,
                       "runs": args.runs}, None)
    print(f"\n== search, k={args.k}, {len(queries)} queries (titles/headings of seeded pages + {len(BROAD)} broad), "
          f"fastest of {args.runs} per query; load {load0} / {load()}")
    print(f"   {'':28} {'p50 ms':>8} {'p90 ms':>8} {'worst ms':>9}")
    rows = {}
    for name, r, key in (("ours (wall)", ours, "wall"), ("ours (CPU of the thread)", ours, "cpu"),
                         ("floor (wall)", floor, "wall"), ("floor (CPU)", floor, "cpu")):
        p50, p90, worst = summary(r[key])
        rows[name] = (p50, p90, worst)
        print(f"   {name:28} {p50:8.2f} {p90:8.2f} {worst:9.2f}")
    slow = sorted(zip(ours["wall"], queries), reverse=True)[:3]
    print("   slowest (ours): " + "; ".join(f"{q!r} {1000 * t:.1f} ms" for t, q in slow))
    print(f"   queries that needed the OR pass: {floor['or_pass']} of {len(queries)}")
    p50, _, worst = rows["ours (wall)"]
    results[f"search_{tag}"] = {
        "queries": len(queries), "rows": rows, "or_pass": floor["or_pass"], "load": [load0, load()],
        "ratio_p50": p50 / rows["floor (wall)"][0],
        "targets": [target_line(f"search p50, k={args.k}", f"{p50:.2f} ms", "<= 3 ms", p50 <= 3),
                    target_line(f"search worst, k={args.k}", f"{worst:.2f} ms", "<= 50 ms", worst <= 50)]}
    print(f"   p50 ours / floor: {p50 / rows['floor (wall)'][0]:.1f}x")


def part_equiv(folder: Path, selection: dict, args, results: dict) -> None:
    """Same index content and same search results as the code in --equiv."""
    print(f"\n== outputs: code under test vs {args.equiv} (mixed folder)")
    idx = {}
    for name, code in (("before", args.equiv), ("after", args.code)):
        idx[name] = WORK / f"equiv.{name}.sqlite"
        r = run_child({"task": "ours_index", "folder": str(folder), "index": str(idx[name])}, code)
        print(f"   {name}: {r['documents']:,} documents in {r['wall']:.1f} s")
    cols = "id, path, url, title, content, format, sha256, size, mtime_ns"
    rows = {}
    for name, path in idx.items():
        con = sqlite3.connect(path)
        rows[name] = {r[1]: r for r in con.execute(f"SELECT {cols} FROM documents ORDER BY id")}
        rows[name + "_meta"] = dict(con.execute("SELECT key, value FROM meta"))
        con.close()
    before, after = rows["before"], rows["after"]
    differ = [p for p in before if p in after and before[p] != after[p]]
    missing, extra = sorted(set(before) - set(after)), sorted(set(after) - set(before))
    print(f"   documents: {len(before):,} before, {len(after):,} after; differing rows {len(differ)}, "
          f"only before {len(missing)}, only after {len(extra)}; meta equal: {rows['before_meta'] == rows['after_meta']}")
    for p in differ[:5]:
        names = cols.split(", ")
        print(f"     {p}: differs in {[n for n, a, b in zip(names, before[p], after[p]) if a != b]}")
    queries = query_set(folder, selection, args.queries, args.seed)
    qfile = WORK / "equiv.queries.json"
    qfile.write_text(json.dumps(queries, ensure_ascii=False))
    res = {}
    for name, code in (("before", args.equiv), ("after", args.code)):
        res[name] = run_child({"task": "ours_search", "index": str(idx[name]), "queries": str(qfile), "k": args.k,
                               "runs": 1}, code)["results"]
    same_ids = sum([r[0] for r in a] == [r[0] for r in b] for a, b in zip(res["before"], res["after"]))
    same_all = sum(a == b for a, b in zip(res["before"], res["after"]))
    print(f"   search, {len(queries)} queries, k={args.k}: same documents in the same order {same_ids}/{len(queries)}, "
          f"every field equal (title, content, format, snippet, score) {same_all}/{len(queries)}")
    for q, a, b in list(zip(queries, res["before"], res["after"])):
        if a != b:
            print(f"     {q!r}: before {[r[0].rsplit('/', 2)[-2:] for r in a]} after {[r[0].rsplit('/', 2)[-2:] for r in b]}")
            break
    ok = not differ and not missing and not extra and same_all == len(queries)
    results["equiv"] = {"documents": len(before), "differing": len(differ), "missing": len(missing),
                        "extra": len(extra), "queries": len(queries), "same_ids": same_ids, "same_all": same_all,
                        "targets": [target_line("index content and search results unchanged",
                                                "equal" if ok else "DIFFERENT", "equal", ok)]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per-set", type=int, default=1000, help="pages per doc set in the mixed folder")
    ap.add_argument("--large", type=int, default=15000, help="pages in the large folder")
    ap.add_argument("--runs", type=int, default=3, help="fastest of N")
    ap.add_argument("--set-pages", type=int, default=300, help="pages of each set for the per-set figures")
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("-k", type=int, default=5)
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--parts", default="index,sets,search", help="index, sets, search, search-mixed")
    ap.add_argument("--code", help="src folder of the code to measure (default: this checkout)")
    ap.add_argument("--equiv", help="src folder of the code whose outputs must be reproduced")
    ap.add_argument("--reuse-index", action="store_true", help="search the large folder's index of an earlier run")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--child-out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        job = json.loads(args.child)
        Path(args.child_out).write_text(json.dumps(CHILDREN[job["task"]](job)))
        return
    for opt in ("code", "equiv"):
        if getattr(args, opt):
            setattr(args, opt, str(Path(getattr(args, opt)).resolve()))
    print_code_version()
    if args.code:
        print(f"measuring the code in {args.code}")
    parts = set(args.parts.split(","))
    mixed = mixed_selection(args.per_set)
    mixed_folder = make_folder(FOLDERS / f"mixed-{args.per_set}", mixed)
    WORK.mkdir(parents=True, exist_ok=True)
    results: dict = {"args": vars(args)}
    if "index" in parts:
        part_index(mixed_folder, mixed, args, results)
    if "sets" in parts:
        part_sets(mixed_folder, mixed, args, results)
    if "search-mixed" in parts:
        index = WORK / "search-mixed.sqlite"
        run_child({"task": "ours_index", "folder": str(mixed_folder), "index": str(index)}, None)
        part_search(mixed_folder, mixed, args, results, index, "mixed")
    if "search" in parts:
        large = large_selection(mixed, args.large, args.seed)
        total = sum(len(v) for v in large.values())
        large_folder = make_folder(FOLDERS / f"large-{args.large}-{args.per_set}-{args.seed}", large)
        print(f"\n== large folder: {total:,} distinct pages ({', '.join(f'{k} {len(v)}' for k, v in large.items())})"
              + ("" if total >= args.large else f"; the doc packages ran short of {args.large:,}"))
        # built by the code of this checkout (--code changes only the search code measured);
        # kept for the next run with --reuse-index
        index = FOLDERS / f"{large_folder.name}.index.sqlite"
        if not (args.reuse_index and index.is_file()):
            ours = run_child({"task": "ours_index", "folder": str(large_folder), "index": str(index)}, None)
            plist = WORK / "large.pages.json"
            plist.write_text(json.dumps([str(p) for p in page_paths(large_folder, large)]))
            floor = run_child({"task": "floor_index", "pages": str(plist), "index": str(WORK / "large.floor.sqlite")})
            print(f"   index once: ours {ours['wall']:.1f} s wall / {ours['cpu']:.1f} s CPU, floor {floor['wall']:.1f} s / "
                  f"{floor['cpu']:.1f} s ({ours['wall'] / floor['wall']:.2f}x wall, {ours['cpu'] / floor['cpu']:.2f}x CPU); "
                  f"{ours['documents']:,} documents, index {index.stat().st_size / 2**20:.0f} MB")
            results["large_index"] = {"pages": total, "ours": ours, "floor": floor}
        else:
            print(f"   index: {index} (kept from an earlier run, --reuse-index)")
        part_search(large_folder, large, args, results, index, "large")
    if args.equiv:
        part_equiv(mixed_folder, mixed, args, results)
    shutil.rmtree(WORK, ignore_errors=True)
    path = write_result("bench_index", results)
    print(f"\nresult: {path.relative_to(REPO)}")


if __name__ == "__main__":
    main()

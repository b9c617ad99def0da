"""What keeping locations (PDF pages, slides, sheet rows, EPUB chapters, CSV rows) costs the
index: build time and index size of a folder of non-HTML documents, this code against
another source tree (``--code DIR``, e.g. the commit before: ``git archive <commit> src |
tar -x -C /tmp/base``).

Folder (benchmarks/.cache/locations/): the documents of ``bench_formats.py`` (a 60-section
Word report, 40 slides, a 20,000-row workbook, the same rows as CSV, a 30-chapter EPUB,
written by each format's own writer) and ``--pdfs`` PDFs that weasyprint renders from
pages (5-60 kB of HTML) of the Python 3.11 documentation (Debian python3.11-doc, pages we did not write; see
``_doccorpus.py``). Each build runs in a fresh interpreter on a fresh index; the runs of
the two trees alternate, and the fastest of ``--runs`` of each is reported, with the number
of location marks stored and their bytes.

    uv run python benchmarks/bench_locations.py --code /tmp/base/src [--pdfs 40] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import CACHE, REPO, print_code_version, write_result
from _doccorpus import html_root
from _doccorpus import pages as doc_pages

FOLDER = CACHE / "locations"


def make_folder(pdfs: int, seed: int) -> Path:
    from bench_formats import MAKERS, Truth

    FOLDER.mkdir(parents=True, exist_ok=True)
    for kind, make in MAKERS.items():
        path = FOLDER / f"bench.{kind}"
        if not path.exists():
            make(path, random.Random(seed), Truth())
    import weasyprint

    root = html_root("python")
    # pages of 5-60 kB of HTML (a few pages to a few dozen each): weasyprint takes minutes on the largest
    sized = [p for p in doc_pages("python") if 5_000 < (root / p).stat().st_size < 60_000]
    chosen = sorted(random.Random(seed).sample(sized, pdfs))
    for i, page in enumerate(chosen):
        path = FOLDER / f"doc{i:03d}.pdf"
        if not path.exists():
            weasyprint.HTML(filename=str(root / page)).write_pdf(path)
    return FOLDER


def child(index: str) -> dict:
    from deep_research.search.local import build_index

    Path(index).unlink(missing_ok=True)
    t0, c0 = time.perf_counter(), time.process_time()
    report = build_index(FOLDER, index_path=index, workers=1)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    con = sqlite3.connect(index)
    columns = {r[1] for r in con.execute("PRAGMA table_info(documents)")}
    marks = bytes_ = 0
    if "locations" in columns:
        for (value,) in con.execute("SELECT locations FROM documents WHERE locations IS NOT NULL"):
            marks += len(json.loads(value))
            bytes_ += len(value.encode())
    content = con.execute("SELECT sum(length(content)) FROM documents").fetchone()[0]
    con.close()
    return {"wall": wall, "cpu": cpu, "documents": report.documents, "skipped": [str(s) for s in report.skipped],
            "index_bytes": os.path.getsize(index), "marks": marks, "marks_bytes": bytes_, "content_chars": content}


def run(code: str | None, index: str) -> dict:
    env = dict(os.environ)
    if code:
        env["PYTHONPATH"] = code + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, __file__, "--child", index], env=env, cwd=REPO,
                       capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise SystemExit(f"child failed:\n{r.stdout}\n{r.stderr}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--code", help="src folder of the code to compare with (the base)")
    ap.add_argument("--pdfs", type=int, default=40)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child)))
        return
    print_code_version()
    folder = make_folder(args.pdfs, args.seed)
    files = sorted(p.name for p in folder.iterdir() if p.is_file())
    print(f"folder: {len(files)} files, {sum((folder / f).stat().st_size for f in files) / 1e6:.1f} MB")
    trees = {"this code": None, **({"base": args.code} if args.code else {})}
    got: dict[str, list[dict]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.runs):
            for name, code in trees.items():
                got[name].append(run(code, str(Path(tmp) / "index.sqlite")))
    result = {"files": len(files), "pdfs": args.pdfs, "runs": args.runs, "load": os.getloadavg()}
    print(f"load average: {'/'.join(f'{x:.1f}' for x in os.getloadavg())} (2 CPUs, shared)")
    print(f"{'':12} {'wall s':>8} {'CPU s':>8} {'index MB':>9} {'marks':>7} {'marks kB':>9}  walls")
    for name, runs in got.items():
        best = min(runs, key=lambda r: r["wall"])
        cpu = min(r["cpu"] for r in runs)
        result[name] = {**best, "cpu": cpu, "walls": [round(r["wall"], 2) for r in runs]}
        print(f"{name:12} {best['wall']:8.2f} {cpu:8.2f} {best['index_bytes'] / 1e6:9.2f} {best['marks']:7,} "
              f"{best['marks_bytes'] / 1e3:9.1f}  " + ", ".join(f"{r['wall']:.2f}" for r in runs))
        if best["skipped"]:
            print(f"   skipped: {best['skipped'][:3]}")
    if args.code:
        a, b = result["this code"], result["base"]
        print(f"this code / base: wall {a['wall'] / b['wall']:.3f}x, CPU {a['cpu'] / b['cpu']:.3f}x, "
              f"index size {a['index_bytes'] / b['index_bytes']:.4f}x")
    print(f"result: {write_result('bench_locations', result).relative_to(REPO)}")


if __name__ == "__main__":
    main()

"""A run that read the answer publishes a cited report, even when compression misquotes
(issue 24). The question "How does asyncio.gather handle an exception raised by one of the
awaitables?" over the whole Python 3.11 documentation (Debian's python3.11-doc, local
search), with the scripted model of tests/support/misquote.py served over HTTP as an
OpenAI-compatible server: its compression cites each finding's label instead of the page's
sentence (and again when asked once more), so the checks remove every citation it writes.

Runs the real product as users do:

* CLI    - ``deep-research research QUESTION --yes`` in a fresh process per run;
* dev    - one real ``langgraph dev`` (the project's graph), and per run a fresh thread sent
           the question as a chat client sends it (messages only) and streamed with
           ``messages`` and ``updates`` (langgraph-sdk).

A run counts when it completes and its published report has verified citations and not the
"hold no information" text. Target: --runs of --runs on each surface (10 of 10).

    uv run python benchmarks/bench_misquote.py [--runs 10] [--pydoc DIR] [--surfaces cli,dev]
        [--no-headings]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import print_code_version, pydoc_root, target_line, write_result  # (puts the repo root on sys.path)

from deep_research.search.local import build_index
from tests.support.misquote import (
    QUESTION,
    SCRUBBED,
    chat_run,
    cited_report,
    misquote_script,
    product_env,
    run_cli,
)
from tests.support.openai_server import ScriptServer


def cli_runs(n: int, models_url: str, corpus: Path, work: Path) -> list[str | None]:
    outcomes = []
    for i in range(n):
        out = work / f"cli-{i}"
        t = time.monotonic()
        r = run_cli(out, product_env(models_url, corpus, out))
        reports = list(out.rglob("report.md"))
        if r.returncode != 0:
            problem = f"exit {r.returncode}: {(r.stderr.strip().splitlines() or [''])[-1][:200]}"
        else:
            problem = cited_report(reports[0].parent) if reports else "no report.md"
        outcomes.append(problem)
        print(f"  cli run {i + 1}: {'cited report' if problem is None else problem} ({time.monotonic() - t:.1f} s)",
              flush=True)
    return outcomes


def dev_runs(n: int, models_url: str, corpus: Path, work: Path) -> list[str | None]:
    from langgraph_sdk import get_client

    from tests.support.devserver import langgraph_dev

    env = {**{k: "" for k in SCRUBBED}, **product_env(models_url, corpus, work / "dev-reports")}
    outcomes = []
    with langgraph_dev(work / "server", "deep_research.research.graph:graph", env=env,
                       extra_args=["--n-jobs-per-worker", "2"]) as (base, _):
        async def go():
            client = get_client(url=base)
            for i in range(n):
                t = time.monotonic()
                run = await chat_run(client)
                values = run["values"]
                if run["error"] or values.get("status") != "completed":
                    problem = f"status {values.get('status')}: {run['error'] or (values.get('errors') or [''])[-1]}"
                else:
                    problem = cited_report(Path(values["outputs"]["dir"]))
                outcomes.append(problem)
                print(f"  dev thread {i + 1}: {'cited report' if problem is None else str(problem)[:200]} "
                      f"({time.monotonic() - t:.1f} s)", flush=True)

        asyncio.run(go())
    return outcomes


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--pydoc", help="Python 3.11 docs folder (default: fetch into benchmarks/.cache)")
    ap.add_argument("--surfaces", default="cli,dev")
    ap.add_argument("--no-headings", action="store_true", help="the misquoted findings have no headings")
    args = ap.parse_args()
    print_code_version()
    corpus = pydoc_root(args.pydoc)
    t = time.monotonic()
    report = build_index(corpus)
    print(f"corpus: {corpus} ({report.documents} documents, indexed in {time.monotonic() - t:.1f} s)")
    print(f"question: {QUESTION}")
    results: dict = {"runs": args.runs, "corpus": str(corpus), "documents": report.documents,
                     "headings": not args.no_headings, "surfaces": {}}
    lines = []
    with tempfile.TemporaryDirectory(prefix="bench-misquote-") as tmp, \
            ScriptServer(misquote_script(headings=not args.no_headings)) as models:
        work = Path(tmp)
        for surface in args.surfaces.split(","):
            print(f"{surface}:")
            runner = cli_runs if surface == "cli" else dev_runs
            outcomes = runner(args.runs, models.base_url, corpus, work)
            cited = sum(o is None for o in outcomes)
            results["surfaces"][surface] = {"cited": cited, "problems": [o for o in outcomes if o]}
            lines.append((surface, cited))
        compressions = sum(1 for q in models.requests if q["model"] == "compression")
    print(f"compression calls: {compressions} (2 a run: the answer, and once more with the failures named)")
    results["targets"] = [target_line(f"cited report, {surface}", f"{cited} of {args.runs}", f"{args.runs} of "
                                      f"{args.runs}", cited == args.runs) for surface, cited in lines]
    print(f"result: {write_result('misquote', results)}")


if __name__ == "__main__":
    main()

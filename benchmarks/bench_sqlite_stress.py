"""SQLite under load: research runs with 8 parallel researchers, persisted the CLI's way (one
SQLite file: checkpointer and store), while a CPU hog keeps every core busy.

A research run on a loaded machine failed once with ``sqlite3.OperationalError: database is
locked`` (at researcher_tools). This runs R research runs one after another, each with 8
research units in parallel (each unit searches a local corpus and stores 3 pages of its own,
so the store and the checkpointer write at the same time; a run counts as complete with
every unit's findings, all 3 x 8 pages as sources and no error or degradation), the scripted model answering
after a short sleep in the default executor's threads (as a client without native async
does), and a CPU hog of ``--hog`` busy processes (default: twice the CPUs). Target: R of R
runs complete, none with a database error.

    uv run python benchmarks/bench_sqlite_stress.py [--runs 10] [--units 8] [--hog N] [--latency 0.02]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import print_code_version, target_line, write_result  # noqa: E402
from langchain_core.outputs import ChatGeneration, ChatResult  # noqa: E402

from deep_research.research.runner import (  # noqa: E402
    RunHandle,
    compile_for,
    first_payload,
    open_persistence,
    save_run,
    stream_run,
)
from deep_research.research.runtime.deps import Deps  # noqa: E402
from deep_research.search.local import LocalCorpus, build_index  # noqa: E402
from tests.support.scenario import QUESTION, full_script, researcher_step  # noqa: E402
from tests.support.scripted import ScriptedChatModel, calls, tool_call  # noqa: E402

WORDS = ["alder", "birch", "cedar", "dogwood", "elm", "fir", "ginkgo", "hazel", "ironwood", "juniper",
         "larch", "maple", "oak", "pine", "rowan", "spruce"]


def write_topics_corpus(folder: Path, units: int) -> list[str]:
    """Three pages per unit, each with sentences only that unit's query finds."""
    folder.mkdir(parents=True, exist_ok=True)
    topics = []
    for u in range(units):
        word = WORDS[u % len(WORDS)] + (str(u // len(WORDS)) if u >= len(WORDS) else "")
        topics.append(word)
        for p in range(3):
            sentences = [f"The {word} study number {p} measured heat pump output in winter house {i} at "
                         f"{p * 10 + i} degrees below freezing." for i in range(4)]
            body = "\n".join(f"<p>{s}</p>" for s in sentences)
            (folder / f"{word}-{p}.html").write_text(
                f"<!doctype html><html><head><meta charset='utf-8'><title>{word} {p}</title></head>"
                f"<body><h1>{word} page {p}</h1>\n{body}\n</body></html>", encoding="utf-8")
    build_index(folder)
    return topics


class SleepingThreadModel(ScriptedChatModel):
    latency: float = 0.0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        time.sleep(self.latency)
        return ChatResult(generations=[ChatGeneration(message=self.script.respond(self.role, messages))])


def script_for(topics: list[str]):
    s = full_script(wrong_quote=False)
    s.rules = [r for r in s.rules if r["contains"] != "Round 1 of"]
    s.on("research", "Round 1 of",
         calls(*(tool_call("ConductResearch", topic=f"Winter output in the {t} study") for t in topics)), repeat=True)
    for t in topics:
        s.on("research", f"Research this topic: Winter output in the {t} study",
             researcher_step(f"{t} study heat pump output", f"I have enough evidence on {t}."), repeat=True)
    return s


def hog(stop) -> None:
    x = 0
    while not stop.is_set():
        for _ in range(100_000):
            x = (x * 31 + 7) % 1_000_003


async def one_run(folder: Path, corpus: Path, topics: list[str], units: int, latency: float, n: int) -> dict:
    script = script_for(topics)
    built: dict = {}

    def factory(spec: dict):
        if spec["role"] not in built:
            built[spec["role"]] = SleepingThreadModel(role=spec["role"], script=script, latency=latency)
        return built[spec["role"]]

    deps = Deps(model_factory=factory, search_factory=lambda cfg: LocalCorpus.open(corpus))
    ctx = {"allow_clarification": False, "require_brief_approval": False, "search_api": "local",
           "corpus_path": str(corpus), "max_concurrent_research_units": units, "max_researcher_iterations": 2,
           "max_search_results": 3, "output_dir": str(folder / "reports"), "write_pdf": False,
           "judge_claims": True, "request_timeout_s": 120.0,
           "query_dedupe_threshold": 100}  # the units' queries differ by one word: none is a repeat
    started = time.monotonic()
    async with open_persistence(str(folder / f"state-{n}.sqlite")) as (saver, store):
        graph = compile_for(deps, saver, store)
        handle = RunHandle.new(ctx)
        await save_run(store, handle, QUESTION)
        error = None
        try:
            await stream_run(graph, handle, first_payload(QUESTION), lambda e: None)
        except Exception as e:  # noqa: BLE001 - the figure is what failed and how
            error = f"{type(e).__name__}: {e}"[:300]
        values = (await graph.aget_state(handle.config)).values if error is None else {}
    return {"run": n, "status": values.get("status") if error is None else "error", "error": error,
            "errors": [f"{x.get('stage')}: {x.get('message')}"[:200] for x in values.get("errors") or []]
            + [f"degraded: {x.get('kind')}: {x.get('message')}"[:200] for x in values.get("degradations") or []
               if x.get("kind") != "clamped"],
            "units": len(values.get("research_log") or []), "sources": len(values.get("sources") or {}),
            "seconds": round(time.monotonic() - started, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--units", type=int, default=8)
    ap.add_argument("--hog", type=int, default=2 * (os.cpu_count() or 1))
    ap.add_argument("--latency", type=float, default=0.02)
    args = ap.parse_args()
    print_code_version()
    stop = mp.Event()
    hogs = [mp.Process(target=hog, args=(stop,), daemon=True) for _ in range(args.hog)]
    for p in hogs:
        p.start()
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="dr-sqlite-stress-") as tmp:
            folder = Path(tmp)
            topics = write_topics_corpus(folder / "corpus", args.units)
            for n in range(1, args.runs + 1):
                row = asyncio.run(one_run(folder, folder / "corpus", topics, args.units, args.latency, n))
                rows.append(row)
                print(f"  run {n}: {row['status']} in {row['seconds']} s, {row['units']} units, "
                      f"{row['sources']} sources" + (f"; {row['error']}" if row["error"] else "")
                      + ("".join(f"\n      {e}" for e in row["errors"]) if row["errors"] else ""), flush=True)
    finally:
        stop.set()
        for p in hogs:
            p.join(timeout=5)
    # complete: every unit's findings and every unit's 3 pages, nothing failed or degraded
    done = sum(1 for r in rows if r["status"] == "completed" and r["units"] == args.units
               and r["sources"] == 3 * args.units and not r["errors"])
    locked = sum(1 for r in rows if "locked" in (r["error"] or "") + " ".join(r["errors"]))
    figure = target_line(f"{args.units} parallel researchers, SQLite, CPU hog of {args.hog} processes "
                         f"on {os.cpu_count()} CPUs: runs completed", f"{done} of {len(rows)}",
                         f"{len(rows)} of {len(rows)}", done == len(rows))
    print(f"  runs with 'database is locked': {locked}")
    write_result("sqlite_stress", {"runs": rows, "completed": done, "locked": locked, "figure": figure,
                                   "units": args.units, "hog": args.hog, "latency_s": args.latency})


if __name__ == "__main__":
    main()

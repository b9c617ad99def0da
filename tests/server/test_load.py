"""Many research runs at once against one real `langgraph dev` server (scripted model).

Three waves of 20 concurrent runs. Each run has its own question and its own corpus,
published under its own base URL (http://runNN.test/), so every source id and link says
which run it belongs to. Checked: every run completes; each report cites only sources its
own thread read; each run writes its own report folder; the server's memory (RSS of its
whole process group) stays bounded: after the first wave, each wave adds little.

The server imports this file for ``graph`` (built when DR_TEST_LOAD_SERVER is set): the
research graph with the stateless scripted model, searching the corpus named by the run's
``corpus_path``.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import threading
import time
from pathlib import Path

import pytest

from deep_research.research.runtime.run_folder import run_dir
from deep_research.research.runtime.configuration import Configuration
from tests.support import devserver
from tests.support.scenario import QUESTION, write_corpus

RUNS_PER_WAVE = 20
WAVES = 3
# runs the server executes at once (`langgraph dev` runs 1 unless told): all twenty of a wave
JOBS = int(os.environ.get("DR_TEST_LOAD_JOBS", "20"))
MB = 1024 * 1024
GRAPH = "tests.server.test_load:graph"


def _make_graph():
    from deep_research.research.runtime.deps import Deps
    from deep_research.research.graph import make_graph
    from deep_research.search.local import LocalCorpus
    from tests.support.scenario import full_script
    from tests.support.scripted import scripted_factory

    return make_graph(Deps(model_factory=scripted_factory(full_script()),
                           search_factory=lambda cfg: LocalCorpus.open(cfg.corpus_path)))


if os.environ.get("DR_TEST_LOAD_SERVER"):  # in the server process only, not when pytest collects
    graph = _make_graph()


# --- memory of the server's process group ---------------------------------------------------
def group_rss(pgid: int) -> int:
    """Resident memory (bytes) of every process in a process group, from /proc."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) != pgid:  # fields after "(comm)": state ppid pgrp ...
                continue
            for line in (stat.parent / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except (OSError, IndexError, ValueError):
            continue  # the process ended meanwhile
    return total


class Sampler:
    def __init__(self, pgid: int, every_s: float = 0.2):
        self.pgid, self.every_s, self.peak = pgid, every_s, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, group_rss(self.pgid))
            self._stop.wait(self.every_s)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


# --- the test -----------------------------------------------------------------------------------
def _tag(i: int) -> str:
    return f"run{i:02d}"


def _corpus(root: Path, i: int) -> Path:
    from deep_research.search.local import build_index

    folder = write_corpus(root / _tag(i))
    build_index(folder, base_url=f"http://{_tag(i)}.test/")
    return folder


async def _wave(base: str, runs: list[int], corpora: dict[int, Path], out: Path):
    from langgraph_sdk import get_client

    client = get_client(url=base, timeout=300)  # per event loop

    async def one(i: int) -> tuple[int, dict]:
        thread = await client.threads.create(metadata={"run": _tag(i)})
        tid = thread["thread_id"]
        context = {"search_api": "local", "corpus_path": str(corpora[i]), "output_dir": str(out),
                   "corpus_base_url": f"http://{_tag(i)}.test/"}
        question = f"Run {i:02d}: {QUESTION}"
        seen = []  # when graph updates arrived: the run was executing in between
        async for chunk in client.runs.stream(tid, "deep_research", input={"messages": [
                {"role": "user", "content": question}]}, context=context, stream_mode="updates"):
            if chunk.event == "updates":
                seen.append(time.monotonic())
        state = await client.threads.get_state(tid)
        [run] = await client.runs.list(tid)
        assert run["status"] == "success", run
        return i, {"thread_id": tid, **state["values"]}, (seen[0], seen[-1])

    done = await asyncio.gather(*(one(i) for i in runs))
    return {i: v for i, v, _ in done}, [r for _, _, r in done]


def _check_run(i: int, v: dict, out: Path):
    tag = _tag(i)
    assert v.get("status") == "completed", (tag, v.get("errors"))
    assert v["question"].startswith(f"Run {i:02d}:")
    own = v["sources"]
    assert own and all(s["url"].startswith(f"http://{tag}.test/") for s in own.values()), tag
    cites = json.loads((out / v["outputs"]["citations"]).read_text())
    assert cites and {c["source_id"] for c in cites} <= set(own), tag
    assert all(c["url"].startswith(f"http://{tag}.test/") for c in cites), tag
    linked = (out / v["outputs"]["linked"]).read_text()
    assert set(re.findall(r"http://(run\d\d)\.test/", linked)) == {tag}
    assert (out / v["outputs"]["dir"]).parent == out  # (the state's paths: relative to the report folder)
    assert v["citation_summary"]["unsupported"] == 0


def _max_overlap(spans: list[tuple[float, float]]) -> int:
    """Most runs executing at one moment (from first to last graph update each)."""
    edges = sorted([(a, 1) for a, _ in spans] + [(b, -1) for _, b in spans], key=lambda e: (e[0], e[1]))
    now = most = 0
    for _, step in edges:
        now += step
        most = max(most, now)
    return most


@pytest.mark.server
def test_concurrent_runs_stay_separate_and_memory_stays_bounded(tmp_path):
    waves = [list(range(n * RUNS_PER_WAVE, (n + 1) * RUNS_PER_WAVE)) for n in range(WAVES)]
    corpora = {i: _corpus(tmp_path / "corpora", i) for w in waves for i in w}
    out = tmp_path / "reports"
    with devserver.langgraph_dev(tmp_path / "server", GRAPH, env={"DR_TEST_LOAD_SERVER": "1"},
                                 extra_args=["--n-jobs-per-worker", str(JOBS)]) as (base, proc):
        rss = [group_rss(proc.pid)]  # before, then after each wave
        peak, seconds, overlap = 0, [], []
        results: dict[int, dict] = {}
        for wave in waves:
            t0 = time.monotonic()
            with Sampler(proc.pid) as sampler:
                done, runs = asyncio.run(_wave(base, wave, corpora, out))
            seconds.append(time.monotonic() - t0)
            results.update(done)
            overlap.append(_max_overlap(runs))
            peak = max(peak, sampler.peak)
            time.sleep(1.0)  # let the server settle (sweeps, persistence) before measuring
            rss.append(group_rss(proc.pid))
        assert proc.poll() is None, "the server died"

    total = len(results)
    print(f"\n{total} runs in {WAVES} waves of {RUNS_PER_WAVE} ({JOBS} jobs): "
          + ", ".join(f"wave {n + 1} {s:.1f} s ({RUNS_PER_WAVE / s:.2f} runs/s, up to {o} executing at once)"
                      for n, (s, o) in enumerate(zip(seconds, overlap)))
          + f"; total {sum(seconds):.1f} s ({total / sum(seconds):.2f} runs/s)")
    print("server RSS: before " + f"{rss[0] / MB:.0f} MB, peak {peak / MB:.0f} MB, after each wave "
          + ", ".join(f"{r / MB:.0f}" for r in rss[1:]) + " MB")

    assert total == WAVES * RUNS_PER_WAVE
    for i, v in results.items():
        _check_run(i, v, out)
    dirs = [v["outputs"]["dir"] for v in results.values()]
    assert len(set(dirs)) == total and len({v["thread_id"] for v in results.values()}) == total
    if JOBS > 1:
        assert max(overlap) > 1, "the runs did not execute concurrently"
    # memory: the first wave loads what runs need (PDF engine, models); later waves add
    # only what the in-memory checkpointer keeps per run, not the runs' working memory
    assert rss[1] - rss[0] < 600 * MB, "the first wave grew the server by more than 600 MB"
    for n in range(2, WAVES + 1):
        assert rss[n] - rss[n - 1] < 80 * MB, f"wave {n} grew the server by {(rss[n] - rss[n - 1]) / MB:.0f} MB"
    assert peak < rss[0] + 1000 * MB


def test_report_folders_are_distinct_for_threads_created_together(tmp_path):
    import uuid

    def uuid7_like(ms: int) -> str:  # layout of a UUIDv7: 48-bit unix milliseconds first
        return str(uuid.UUID(int=(ms << 80) | (0x7 << 76) | uuid.uuid4().int & ((1 << 76) - 1)))

    cfg = Configuration(output_dir=str(tmp_path))
    now = (int(time.time() * 1000) >> 16 << 16) + 10  # two threads 50 ms apart
    a, b = uuid7_like(now), uuid7_like(now + 50)
    state = {"question": QUESTION}
    assert run_dir(cfg, state, a) != run_dir(cfg, state, b)

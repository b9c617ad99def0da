"""research/runner.py: the CLI's persistence on one SQLite file (checkpointer and store on
two connections) holds under concurrent writers. The full figure (8 parallel researchers
under a CPU hog, 10 runs) is benchmarks/bench_sqlite_stress.py."""

from __future__ import annotations

import asyncio
import random
import threading
import time

from langgraph.checkpoint.base import empty_checkpoint

from deep_research.research.runner import open_persistence


RESEARCHERS, PAGES = 16, 30


def test_the_store_and_the_checkpointer_write_one_sqlite_file_at_once(tmp_path):
    """Issue 19: the store's batches began DEFERRED, so a batch that read and then wrote
    after the checkpointer had committed failed at once with "database is locked" (a run
    with 8 researchers under load failed at researcher_tools). Here 16 "researchers" read and
    store pages while 4 threads' checkpoints are written without pause, and a busy thread slows the
    event loop: every operation succeeds and every page is there."""
    stop = threading.Event()

    def busy() -> None:  # holds the GIL in slices, as a CPU-bound thread does
        while not stop.is_set():
            sum(i * i for i in range(20_000))

    async def go():
        async with open_persistence(str(tmp_path / "state.sqlite")) as (saver, store):
            done = asyncio.Event()

            async def checkpoints(thread: str) -> int:
                n = 0
                config = {"configurable": {"thread_id": thread, "checkpoint_ns": ""}}
                while not done.is_set():
                    cp = empty_checkpoint()
                    config = await saver.aput(config, cp, {"step": n}, {})
                    n += 1
                    await asyncio.sleep(0)
                return n

            async def researcher(r: int) -> None:
                rng = random.Random(r)
                for p in range(PAGES):  # out of step with each other: a batch mixes gets and puts
                    ns, key = ("deep_research", "local", "pages"), f"r{r}-p{p}"
                    await asyncio.sleep(rng.random() * 0.01)
                    if await store.aget(ns, key) is None:
                        await asyncio.sleep(rng.random() * 0.01)
                        await store.aput(ns, key, {"content": "x" * 2000}, index=False)
                    await store.aget(("deep_research", "local", "summaries", "t"), key)

            writers = [asyncio.create_task(checkpoints(f"t{i}")) for i in range(4)]
            await asyncio.gather(*(researcher(r) for r in range(RESEARCHERS)))
            done.set()
            written = sum(await asyncio.gather(*writers))
            found = [await store.aget(("deep_research", "local", "pages"), f"r{r}-p{p}")
                     for r in range(RESEARCHERS) for p in range(PAGES)]
            return written, found

    thread = threading.Thread(target=busy, daemon=True)
    thread.start()
    try:
        start = time.monotonic()
        written, found = asyncio.run(go())
    finally:
        stop.set()
        thread.join()
    assert written > 0 and all(item is not None for item in found)
    assert time.monotonic() - start < 120

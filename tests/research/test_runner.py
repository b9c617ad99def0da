"""research/runner.py: the CLI's persistence on one SQLite file (checkpointer and store on
two connections) holds under concurrent writers. The full figure (8 parallel researchers
under a CPU hog, 10 runs) is benchmarks/bench_sqlite_stress.py."""

from __future__ import annotations

import asyncio
import json
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


# --- a URL's credentials are not kept in the state database ------------------------------------
def test_the_saved_run_keeps_no_url_password_and_the_run_keeps_it_in_memory(tmp_path):
    from deep_research.research.runner import RunHandle, load_run, save_run

    context = {"model_base_url": "https://alice:PW-s3cret-99@models.example/v1", "max_react_tool_calls": 3,
               "mcp_config": {"url": "https://tok123456789@mcp.example/mcp", "tools": ["search"]},
               "corpus_path": "/data/docs"}
    handle = RunHandle.new(dict(context))

    async def go():
        async with open_persistence(str(tmp_path / "s.sqlite")) as (_, store):
            await save_run(store, handle, "What is tea?")
            return await load_run(store, handle.thread_id)

    saved = asyncio.run(go())
    assert handle.context == context  # the run itself calls the server with its password
    assert saved["context"] == {"model_base_url": "https://alice:***@models.example/v1", "max_react_tool_calls": 3,
                                "mcp_config": {"url": "https://***@mcp.example/mcp", "tools": ["search"]},
                                "corpus_path": "/data/docs"}
    raw = (tmp_path / "s.sqlite").read_bytes() + b"".join(p.read_bytes() for p in tmp_path.glob("s.sqlite-*"))
    assert b"PW-s3cret-99" not in raw and b"tok123456789" not in raw


def test_the_saved_run_keeps_no_secret_of_a_urls_query(tmp_path):
    from deep_research.research.runner import RunHandle, load_run, resupplied, save_run

    context = {"model_base_url": "https://models.example/v1?key=KQ-s3cret-1&token=TQ-s3cret-2&sig=SQ-s3cret-3",
               "mcp_config": {"url": "https://mcp.example/mcp?Access_Token=MQ-s3cret-4", "tools": ["search"]}}
    handle = RunHandle.new(dict(context))

    async def go():
        async with open_persistence(str(tmp_path / "s.sqlite")) as (_, store):
            await save_run(store, handle, "What is tea?")
            return await load_run(store, handle.thread_id)

    saved = asyncio.run(go())
    assert saved["context"] == {"model_base_url": "https://models.example/v1?key=***&token=***&sig=***",
                                "mcp_config": {"url": "https://mcp.example/mcp?Access_Token=***", "tools": ["search"]}}
    raw = (tmp_path / "s.sqlite").read_bytes() + b"".join(p.read_bytes() for p in tmp_path.glob("s.sqlite-*"))
    assert b"s3cret" not in raw
    # a resume gives them again, as it does a password
    import pytest

    from deep_research.errors import UserError

    with pytest.raises(UserError, match=r"--base-url held the value of its secret parameters key=, token=, sig= \(https://models\.example/v1\?key=\*\*\*&"):
        resupplied(saved["context"], {}, {}, {"model_base_url": "--base-url"})
    env = {"DEEP_RESEARCH_MCP_CONFIG": json.dumps(context["mcp_config"]), "OPENAI_BASE_URL": context["model_base_url"]}
    assert resupplied(saved["context"], {}, env) == context


def test_a_resume_takes_the_password_again_from_the_option_or_the_environment():
    import pytest

    from deep_research.errors import UserError
    from deep_research.research.runner import resupplied

    saved = {"model_base_url": "https://alice:***@models.example/v1", "max_total_tokens": 1000}
    full = "https://alice:PW-s3cret-99@models.example/v1"
    options = {"model_base_url": "--base-url"}
    # typed again on resume
    assert resupplied(saved, {"model_base_url": full}, {}, options)["model_base_url"] == full
    # or the same URL in the environment, password and all
    for var in ("OPENAI_BASE_URL", "DEEP_RESEARCH_MODEL_BASE_URL"):
        assert resupplied(saved, {}, {var: full}, options) == {**saved, "model_base_url": full}
    # another server in the environment is not this run's: said, not silently used
    for env in ({}, {"OPENAI_BASE_URL": "https://alice:PW@other.example/v1"},
                {"OPENAI_BASE_URL": "https://models.example/v1"}):
        with pytest.raises(UserError) as e:
            resupplied(saved, {}, env, options)
        assert "--base-url" in str(e.value) and "OPENAI_BASE_URL" in str(e.value), e.value
        assert "PW" not in str(e.value)
    # a mapping setting (an MCP server's url) from its JSON variable
    mcp = {"url": "https://***@mcp.example/mcp"}
    env = {"DEEP_RESEARCH_MCP_CONFIG": '{"url": "https://tok123456789@mcp.example/mcp"}'}
    assert resupplied({"mcp_config": mcp}, {}, env)["mcp_config"] == {"url": "https://tok123456789@mcp.example/mcp"}
    with pytest.raises(UserError, match="DEEP_RESEARCH_MCP_CONFIG"):
        resupplied({"mcp_config": mcp}, {}, {})
    # a run saved before passwords were kept out still resumes with what it saved
    old = {"model_base_url": full}
    assert resupplied(old, {}, {}) == old


def test_an_unreachable_postgresql_server_is_a_user_error_naming_it():
    """`research --db postgresql://…` with no server there ended in "internal error:
    OperationalError: connection failed" (exit 1): psycopg's OperationalError is no OSError.
    And an OSError raised by the run itself (inside the block) was reported as "cannot
    connect to PostgreSQL"."""
    import socket

    import pytest

    from deep_research.errors import UserError

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"postgresql://someone:hunter2@127.0.0.1:{port}/db"

    async def open_it() -> None:
        async with open_persistence(url):
            pass

    with pytest.raises(UserError) as e:
        asyncio.run(open_it())
    assert "cannot connect to PostgreSQL" in str(e.value) and f"127.0.0.1:{port}" in str(e.value)
    assert "hunter2" not in str(e.value)

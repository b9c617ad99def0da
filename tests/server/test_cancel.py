"""A run cancelled through langgraph-sdk (``runs.cancel``) on a real `langgraph dev`: the
thread's values say so, and the next run on the thread picks up where it stopped."""

import asyncio
from pathlib import Path

import pytest

from tests.support.devserver import langgraph_dev
from tests.support.scenario import QUESTION, write_corpus

pytestmark = pytest.mark.server

CONTEXT = {"search_api": "local"}


def test_a_cancelled_run_reads_cancelled_and_resumes(tmp_path: Path):
    write_corpus(tmp_path / "corpus")
    flag = tmp_path / "slow"
    flag.touch()  # searches wait while it exists
    env = {"DR_TEST_CORPUS": str(tmp_path / "corpus"), "DEEP_RESEARCH_OUTPUT_DIR": str(tmp_path / "reports"),
           "DR_TEST_SLOW_FLAG": str(flag)}
    with langgraph_dev(tmp_path / "server", "tests.support.slow_dev_graph:graph", env=env) as (base, _):
        from langgraph_sdk import get_client

        async def go():
            client = get_client(url=base, api_key=None)
            thread = (await client.threads.create())["thread_id"]
            run = await client.runs.create(thread, "deep_research", context=CONTEXT,
                                           input={"messages": [{"role": "user", "content": QUESTION}]})
            for _ in range(600):  # until the research step waits on a search
                await asyncio.sleep(0.2)
                state = await client.threads.get_state(thread)
                if "research_supervisor" in (state.get("next") or ()):
                    break
            assert state["values"]["status"] == "running", state["values"]
            await asyncio.sleep(1)
            await client.runs.cancel(thread, run["run_id"], wait=True)
            assert (await client.runs.get(thread, run["run_id"]))["status"] == "interrupted"
            cancelled = (await client.threads.get_state(thread))["values"]
            flag.unlink()
            await client.runs.wait(thread, "deep_research", context=CONTEXT, input=None)
            return cancelled, (await client.threads.get_state(thread))["values"]

        cancelled, resumed = asyncio.run(go())
    assert cancelled["status"] == "cancelled"  # was "running": a stale status in Studio / a chat
    assert resumed["status"] == "completed", resumed.get("errors")
    assert (tmp_path / "reports" / resumed["outputs"]["dir"]).is_dir()  # (relative to the report folder)

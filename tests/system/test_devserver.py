"""The same research run through a real `langgraph dev` server, driven with langgraph-sdk:
create a thread, stream, stop at the brief-approval interrupt, resume, read the final state."""

import asyncio

import pytest

from tests.support.devserver import langgraph_dev
from tests.support.scenario import QUESTION, write_corpus

pytestmark = pytest.mark.server


def test_research_through_langgraph_dev(tmp_path):
    from langgraph_sdk import get_client

    corpus = write_corpus(tmp_path / "corpus")
    env = {"DR_TEST_CORPUS": str(corpus)}
    with langgraph_dev(tmp_path / "server", "tests.support.dev_graph:graph", env=env) as (base, _):
        client = get_client(url=base)
        context = {"require_brief_approval": True, "search_api": "local",
                   "output_dir": str(tmp_path / "reports")}

        async def drive():
            thread = await client.threads.create()
            tid = thread["thread_id"]
            nodes = []
            async for chunk in client.runs.stream(tid, "deep_research", input={
                    "messages": [{"role": "user", "content": QUESTION}]}, context=context,
                    stream_mode="updates"):
                if chunk.event == "updates" and isinstance(chunk.data, dict):
                    nodes.extend(chunk.data)
            assert "write_research_brief" in nodes
            state = await client.threads.get_state(tid)
            assert state["next"] == ["approve_research_brief"]
            interrupts = [i for t in state["tasks"] for i in t.get("interrupts", [])]
            assert interrupts and interrupts[0]["value"]["type"] == "brief_approval"
            async for _ in client.runs.stream(tid, "deep_research", command={"resume": {"type": "approve"}},
                                              context=context, stream_mode="updates"):
                pass
            return await client.threads.get_state(tid)

        final = asyncio.run(drive())
    values = final["values"]
    assert values["status"] == "completed", values.get("errors")
    assert values["citation_summary"]["unsupported"] == 0
    assert values["citation_summary"]["fixed_by_agent"] == 1
    assert "<ref id=" in values["report_markdown"]
    assert (tmp_path / "reports").exists()
    pdfs = list((tmp_path / "reports").rglob("report.pdf"))
    assert len(pdfs) == 1

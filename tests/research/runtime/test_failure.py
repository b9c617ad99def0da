"""failure.guarded on a real LangGraph graph with a checkpointer: what a cancelled node
leaves in the thread's state."""

import asyncio
import operator
from typing import Annotated, TypedDict

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph

from deep_research.research.runtime.failure import guarded


class S(TypedDict, total=False):
    status: str
    errors: Annotated[list, operator.add]
    messages: Annotated[list, operator.add]


async def _start(state, config, runtime):
    return {"status": "running"}


async def _slow(state, config, runtime):
    await asyncio.sleep(30)
    return {}


async def _fails(state, config, runtime):
    await asyncio.sleep(0.2)
    raise ValueError("the search backend said no")


def _graph(*parallel):
    g = StateGraph(S)
    g.add_node("start", guarded("start", _start, root=True))
    for name, fn in parallel:
        g.add_node(name, guarded(name, fn, root=True))
        g.add_edge("start", name)
        g.add_edge(name, END)
    g.add_edge(START, "start")
    return g.compile(checkpointer=InMemorySaver())


def test_a_cancelled_node_leaves_status_cancelled():
    graph = _graph(("slow", _slow))
    config = {"configurable": {"thread_id": "t1"}}

    async def go():
        task = asyncio.create_task(graph.ainvoke({}, config))
        await asyncio.sleep(0.5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        cancelled = (await graph.aget_state(config)).values
        return cancelled

    cancelled = asyncio.run(go())
    assert cancelled["status"] == "cancelled"  # was "running"
    assert not cancelled.get("errors")  # not a failure: nothing for the report's limitations


def test_a_node_cancelled_because_a_sibling_failed_keeps_failed():
    graph = _graph(("slow", _slow), ("fails", _fails))
    config = {"configurable": {"thread_id": "t2"}}

    async def go():
        with pytest.raises(Exception, match="the search backend said no"):
            await graph.ainvoke({}, config)
        return (await graph.aget_state(config)).values

    values = asyncio.run(go())
    assert values["status"] == "failed" and len(values["errors"]) == 1

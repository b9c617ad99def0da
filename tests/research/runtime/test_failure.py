"""failure.guarded on a real LangGraph graph with a checkpointer: what a cancelled node
leaves in the thread's state."""

import asyncio
import operator
from typing import Annotated, TypedDict

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langchain_core.messages import HumanMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages

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


def _in_turn(state: type, *nodes):
    """A graph of ``nodes`` (name, fn), guarded, one after the other."""
    g = StateGraph(state)
    before = START
    for name, fn in nodes:
        g.add_node(name, guarded(name, fn, root=True))
        g.add_edge(before, name)
        before = name
    g.add_edge(before, END)
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


class Chat(TypedDict, total=False):
    status: str
    errors: Annotated[list, operator.add]
    messages: Annotated[list, add_messages]


def test_the_failure_is_the_chats_last_line_not_the_failed_nodes_progress():
    """A node that showed a progress line ("Writing a first draft…") and then failed: the
    thread's messages ended with the failure's turn followed by that line (the failed task's
    writes are applied after the failure's record), so a chat loaded again, or the next run's
    first view of the thread, showed "Writing a first draft…" below the failure, as if the run
    still worked. The failed node's progress lines leave the state; earlier nodes' stay."""
    from deep_research.research.runtime.chat import FAILURE_NAME, show_progress

    async def brief(state, config, runtime):
        show_progress(config, "Writing the research brief…")
        return {}

    async def draft(state, config, runtime):
        show_progress(config, "Writing a first draft…")
        raise ValueError("the model server said no")

    graph = _in_turn(Chat, ("brief", brief), ("draft", draft))
    config = {"configurable": {"thread_id": "t3", "run_id": "r1"}}

    async def go():
        with pytest.raises(Exception, match="the model server said no"):
            await graph.ainvoke({"messages": [HumanMessage("q", id="h1")]}, config)
        return (await graph.aget_state(config)).values

    values = asyncio.run(go())
    shown = [(m.name, m.content) for m in values["messages"]]
    assert shown[-1][0] == FAILURE_NAME and "The run failed at draft" in shown[-1][1], shown
    assert (("progress", "*Writing the research brief…*")) in shown
    assert all("first draft" not in text for _, text in shown), shown
    assert values["status"] == "failed"


def _setup_failure(tmp_path, configurable: dict) -> tuple[str, dict]:
    """A run of the real graph whose corpus folder is missing: (the error raised, the state)."""
    from langgraph.store.memory import InMemoryStore

    from deep_research.errors import UserError
    from deep_research.research.graph import make_graph
    from deep_research.research.runtime.deps import Deps
    from tests.support.scenario import full_script
    from tests.support.scripted import scripted_factory

    graph = make_graph(Deps(model_factory=scripted_factory(full_script())), checkpointer=InMemorySaver(),
                       store=InMemoryStore())
    ctx = {"search_api": "local", "corpus_path": str(tmp_path / "srv-docs"), "output_dir": str(tmp_path / "out"),
           "write_pdf": False, "allow_clarification": False}
    config = {"configurable": {"thread_id": "t", **configurable}}

    async def run():
        with pytest.raises(UserError) as raised:
            async for _ in graph.astream({"messages": [HumanMessage("Heat pumps?")]}, config, context=ctx):
                pass
        return str(raised.value), (await graph.aget_state(config)).values

    return asyncio.run(run())


def test_a_setup_error_naming_a_servers_folder_reaches_its_users_without_the_path(tmp_path, caplog):
    """A server's corpus folder that is missing was named to its chat users, whole: in the
    chat's failure turn, the run's error the client is sent and the thread's state
    (``corpus_path = /srv/…: …``). They are told the problem and the setting, the path
    replaced by "(server path)"; the server's log has the full text. The CLI (no server run)
    still names the folder."""
    caplog.set_level("ERROR")
    raised, values = _setup_failure(tmp_path, {"run_id": "run-1"})
    turn = values["messages"][-1].content
    shown = [raised, turn, *(e["message"] for e in values["errors"])]
    assert not [s for s in shown if str(tmp_path) in s or "srv-docs" in s], shown
    assert "corpus_path = (server path): " in turn and "the server's log names the path" in turn, turn
    assert "corpus_path = (server path): " in raised
    assert any(str(tmp_path / "srv-docs") in r.getMessage() for r in caplog.records)
    raised, values = _setup_failure(tmp_path, {})
    assert f"corpus_path = {tmp_path / 'srv-docs'}: " in raised and "(server path)" not in raised
    assert str(tmp_path / "srv-docs") in values["messages"][-1].content


def test_a_servers_failure_record_names_its_notes_within_the_report_folder(tmp_path):
    """A failed run's ``errors`` entry (thread state, read by a server's clients) named where
    its notes were saved, a path of the server: on a server it is relative to the report
    folder; the CLI's keeps the path as written."""
    from unittest import mock

    from deep_research.research.runtime import failure

    recorded: list[dict] = []

    async def record(config, update):
        recorded.append(update)
        return True

    state = {"question": "Heat pumps?", "research_brief": "B", "notes": [{"topic": "T", "findings": "F"}]}
    ctx = {"output_dir": str(tmp_path / "out")}
    runtime = type("R", (), {"context": ctx})()
    with mock.patch.object(failure, "record_failure", record):
        for configurable in ({"run_id": "run-1"}, {}):
            config = {"configurable": {"thread_id": "t1", **configurable}}
            asyncio.run(failure.fail("publish", ValueError("disk full"), state, config, runtime))
    server, local = (u["errors"][0]["notes"] for u in recorded)
    assert not server.startswith("/") and server.endswith("/notes.md") and (tmp_path / "out" / server).is_file()
    assert local == str(tmp_path / "out" / server)


def test_a_servers_records_of_problems_name_no_server_path(tmp_path, caplog):
    """A server run's degradations and errors a node went on after (the thread's state,
    run.json, notes.md: read by its clients) named the server's folders as they were; a
    failure's were hidden already. The CLI's keep the path."""
    from langgraph.types import Command

    where = f"{tmp_path}/srv/reports/t1/report.pdf"

    async def publish(state, config, runtime):
        return {"degradations": [{"stage": "publish", "message": f"PDF not written: Permission denied: '{where}'"}]}

    async def research(state, config, runtime):
        return Command(update={"errors": [{"stage": "researcher", "message": f"cannot read {where}", "topic": "T"}]})

    class R(TypedDict, total=False):
        status: str
        errors: Annotated[list, operator.add]
        degradations: Annotated[list, operator.add]
        messages: Annotated[list, operator.add]

    graph = _in_turn(R, ("research", research), ("publish", publish))
    caplog.set_level("ERROR")
    for configurable, hidden in (({"run_id": "run-1"}, True), ({}, False)):
        values = asyncio.run(graph.ainvoke({}, {"configurable": {"thread_id": f"t{hidden}", **configurable}}))
        said = [r["message"] for k in ("errors", "degradations") for r in values[k]]
        assert len(said) == 2, values
        assert all((where in m) is not hidden for m in said), said
        if hidden:
            assert said[0].startswith("cannot read (server path)") and "the server's log names the path" in said[0]
            assert values["errors"][0]["topic"] == "T"
            assert any(where in r.getMessage() for r in caplog.records)

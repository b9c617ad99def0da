"""MCP tools for researchers, against a real MCP server (FastMCP over streamable HTTP on
loopback): only allow-listed tools are offered and run, their output reaches the researcher
as notes that cannot be cited, and an unreachable server degrades research instead of
failing it."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from pathlib import Path

import pytest
from langchain_core.messages import ToolMessage

from deep_research.research.runtime import mcp
from tests.support.scripted import calls, prompt_text, tool_call
from tests.research.test_graph import (
    BRIEF,
    base_script,
    context,
    drive,
    graph_for,
    researcher_states,
    start,
    supervisor_rounds,
)

DEFINITION = "COP is the ratio of heat delivered to electricity used."


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def mcp_server():
    """A FastMCP server with one harmless tool and one with side effects; yields its URL
    and a log of the calls it served."""
    import uvicorn
    from mcp.server.fastmcp import FastMCP

    served: list[tuple[str, dict]] = []
    server = FastMCP("glossary-test", stateless_http=True)

    @server.tool()
    def glossary(term: str) -> str:
        """Define a heat-pump term."""
        served.append(("glossary", {"term": term}))
        return DEFINITION if term.upper() == "COP" else f"No entry for {term}."

    @server.prompt()
    def house_rules() -> str:
        """How to research this collection."""
        served.append(("house_rules", {}))
        return HOUSE_RULES

    @server.tool()
    def flood(term: str) -> str:
        """An answer of a megabyte (a hostile or broken server)."""
        served.append(("flood", {"term": term}))
        return "A" * 1_000_000

    @server.tool()
    def delete_corpus() -> str:
        """Deletes every document (a side effect no researcher may trigger)."""
        served.append(("delete_corpus", {}))
        return "deleted"

    port = _free_port()
    config = uvicorn.Config(server.streamable_http_app(), host="127.0.0.1", port=port, log_level="warning")
    web = uvicorn.Server(config)
    thread = threading.Thread(target=web.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not web.started:
        assert time.monotonic() < deadline, "MCP test server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/mcp", served
    web.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(autouse=True)
def fresh_mcp_cache():
    mcp._TOOLS_CACHE.clear()
    mcp._PROMPT_CACHE.clear()
    mcp._FAILED.clear()
    yield


HOUSE_RULES = "Prefer the manufacturer's data sheets; always give temperatures in degrees Celsius."


def _researcher_using(*tool_names: str):
    """A researcher that calls the named tools, then searches once, then stops."""

    def step(messages):
        results = sum(isinstance(m, ToolMessage) for m in messages)
        if results == 0 and tool_names:
            return calls(*(tool_call(n, term="COP") if n == "glossary" else tool_call(n) for n in tool_names))
        if results == len(tool_names):
            return calls(tool_call("search", query="heat pump coefficient of performance"))
        return "I have enough evidence."

    return step


def _one_round_script(researcher, prompts: list):
    s = base_script(researcher=researcher)
    supervisor_rounds(s, {1: calls(tool_call("ConductResearch", topic="Heat pump efficiency")),
                          2: calls(tool_call("ResearchComplete"))})
    original = s.respond

    def respond(role, messages):
        if role == "research" and "Research this topic:" in prompt_text(messages):
            prompts.append(prompt_text(messages))
        return original(role, messages)

    s.respond = respond
    return s


def _tool_results(graph) -> dict[str, str]:
    out = {}
    for values in researcher_states(graph):
        for m in values.get("researcher_messages") or []:
            if isinstance(m, ToolMessage):
                out[m.name] = m.content
    return out


def test_allow_listed_mcp_tool_is_offered_and_its_output_is_a_note(mcp_server, corpus, tmp_path):
    url, served = mcp_server
    served.clear()
    prompts: list[str] = []
    script = _one_round_script(_researcher_using("glossary", "delete_corpus"), prompts)
    graph = graph_for(script, corpus)
    conf = {"url": url, "tools": ["glossary"]}
    state = asyncio.run(drive(graph, start(), context(tmp_path, mcp_config=conf)))

    assert state.values.get("final_report"), state.values.get("errors")
    # offered and described: only the allow-listed tool
    assert "Other tools (glossary)" in prompts[0] and "delete_corpus" not in prompts[0]
    results = _tool_results(graph)
    assert DEFINITION in results["glossary"] and "cannot be cited" in results["glossary"]
    assert results["delete_corpus"].startswith("Unknown tool")
    # the server ran the allowed tool once and never the other one
    assert served == [("glossary", {"term": "COP"})]
    # tool output is not a source: every source is a page from the corpus search
    assert state.values["sources"]
    assert all("mcp" not in meta["url"] for meta in state.values["sources"].values())
    assert BRIEF in state.values["research_brief"]


def test_unreachable_mcp_server_degrades_research(corpus, tmp_path):
    prompts: list[str] = []
    script = _one_round_script(_researcher_using(), prompts)
    graph = graph_for(script, corpus)
    conf = {"url": f"http://127.0.0.1:{_free_port()}/mcp", "tools": ["glossary"]}
    state = asyncio.run(drive(graph, start(), context(tmp_path, mcp_config=conf)))

    assert state.values.get("final_report"), state.values.get("errors")
    assert "Other tools" not in prompts[0]
    problems = [d["message"] for d in state.values.get("degradations") or []]
    assert any("MCP server" in p and "unavailable" in p and "without MCP tools" in p for p in problems), problems
    assert sum("MCP server" in p for p in problems) == 1  # recorded once, not at every step


def test_an_unreachable_mcp_server_is_recorded_once_per_run_not_per_research_unit(corpus, tmp_path, caplog):
    script = base_script(researcher=_researcher_using())
    topics = ["Heat pump efficiency", "Heat pump costs", "Heat pumps in cold climates"]
    supervisor_rounds(script, {1: calls(*(tool_call("ConductResearch", topic=t) for t in topics[:2])),
                               2: calls(tool_call("ConductResearch", topic=topics[2])),
                               3: calls(tool_call("ResearchComplete"))})
    graph = graph_for(script, corpus)
    conf = {"url": f"http://alice:PWs3cret@127.0.0.1:{_free_port()}/mcp", "tools": ["glossary"]}
    with caplog.at_level("WARNING"):
        state = asyncio.run(drive(graph, start(), context(tmp_path, mcp_config=conf,
                                                          max_concurrent_research_units=2)))
    assert state.values.get("final_report"), state.values.get("errors")
    assert len(researcher_states(graph)) >= 3  # three units, two of them in parallel
    problems = [d["message"] for d in state.values.get("degradations") or [] if "MCP" in d["message"]]
    assert len(problems) == 1 and "unavailable" in problems[0], problems
    assert "alice:***@127.0.0.1" in problems[0] and "PWs3cret" not in problems[0]  # its password is not said
    said = [r.getMessage() for r in caplog.records if "MCP server" in r.getMessage()]
    assert len(said) == 1 and "PWs3cret" not in said[0], [(r.name, r.getMessage()[-40:]) for r in caplog.records]


def test_a_tool_the_server_lacks_is_reported(mcp_server, corpus, tmp_path):
    url, _ = mcp_server
    prompts: list[str] = []
    script = _one_round_script(_researcher_using(), prompts)
    graph = graph_for(script, corpus)
    state = asyncio.run(drive(graph, start(), context(tmp_path, mcp_config={"url": url, "tools": ["nosuch"]})))
    problems = [d["message"] for d in state.values.get("degradations") or []]
    assert any("no tool named nosuch" in p for p in problems), problems


@pytest.mark.parametrize("conf, message", [
    ({"tools": ["x"]}, "needs a \"url\""),
    ({"url": "http://x/mcp", "tools": []}, "non-empty list"),
    ({"url": "http://x/mcp", "tools": ["x"], "transport": "stdio"}, "transport"),
])
def test_bad_mcp_config_is_a_clear_error(conf, message):
    from deep_research.errors import UserError

    with pytest.raises(UserError, match=message):
        mcp.validate(conf)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    from deep_research.search.local import build_index
    from tests.support.scenario import write_corpus

    folder = write_corpus(tmp_path_factory.mktemp("mcp") / "corpus")
    build_index(folder, base_url="http://127.0.0.1:8765/")
    return folder


def test_mcp_prompt_guides_the_researchers_and_a_missing_one_degrades(mcp_server, corpus, tmp_path):
    url, served = mcp_server
    served.clear()
    prompts: list[str] = []
    graph = graph_for(_one_round_script(_researcher_using(), prompts), corpus)
    conf = {"url": url, "tools": ["glossary"]}
    state = asyncio.run(drive(graph, start(), context(tmp_path, mcp_config=conf, mcp_prompt="house_rules")))
    assert state.values.get("final_report"), state.values.get("errors")
    assert prompts and all(HOUSE_RULES in p and "<guidance>" in p for p in prompts)
    assert served.count(("house_rules", {})) == 1  # loaded once
    # a prompt the server does not have: research goes on without it, and says why
    prompts.clear()
    graph = graph_for(_one_round_script(_researcher_using(), prompts), corpus)
    state = asyncio.run(drive(graph, start(), context(tmp_path, mcp_config=conf, mcp_prompt="no_such_prompt")))
    assert state.values.get("final_report")
    assert prompts and not any("<guidance>" in p for p in prompts)
    assert any("no_such_prompt" in d["message"] for d in state.values["degradations"])


def test_a_server_error_is_said_on_one_line():
    """An httpx error's text holds line breaks; the warning and the report's limitations say it on one line."""
    inner = ConnectionError("All connection attempts failed\nFor more information check: https://example.test/x")
    text = mcp._exception_text(BaseExceptionGroup("unhandled errors in a TaskGroup", [inner]))
    assert text == "ConnectionError: All connection attempts failed For more information check: https://example.test/x"


def test_an_mcp_answer_past_the_size_limit_is_cut_off_while_it_is_read(mcp_server, monkeypatch):
    """The client read a whole answer before cutting it to MAX_OUTPUT_CHARS: a server's 30 MB
    answer took 550 MB of memory, a larger one could end the process. A response past
    MAX_RESPONSE_BYTES stops while it is read, and the call fails at once, saying why (not
    after its timeout); an answer within the limit is still read."""
    monkeypatch.setattr(mcp, "MAX_RESPONSE_BYTES", 200_000, raising=False)
    url, _ = mcp_server

    async def scenario():
        tools = {t.name: t for t in await mcp.load_tools({"url": url, "tools": ["flood", "glossary"]}, 30)}
        started = time.monotonic()
        with pytest.raises(mcp.MCPUnavailable, match="MCP tool flood failed: .*more than 200,000 bytes"):
            await mcp.call_tool(tools["flood"], {"term": "COP"}, 60)
        took = time.monotonic() - started
        return took, await mcp.call_tool(tools["glossary"], {"term": "COP"}, 60)

    took, answer = asyncio.run(scenario())
    assert took < 30, took
    assert DEFINITION in answer

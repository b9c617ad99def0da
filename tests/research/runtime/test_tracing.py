"""Tracing (research/runtime/tracing.py): LangSmith uploads scrubbed of secrets and, unless
trace_content is on, of every text (question, prompts, pages, answers); OpenTelemetry spans
per node, model call and search, exported over OTLP/HTTP to a configured collector, without
content in their attributes. Offline: a collector stub on 127.0.0.1 (tests/support/
collector.py) stands in for LangSmith and the OTLP collector, and an in-memory exporter for
the spans of a run in this process."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command

from deep_research.errors import UserError
from deep_research.research.graph import make_graph
from deep_research.research.runtime import tracing
from deep_research.research.runtime.configuration import Configuration
from deep_research.research.runtime.deps import Deps
from deep_research.search.local import LocalCorpus, build_index
from tests.support.collector import Collector
from tests.support.scenario import PAGES, full_script, write_corpus
from tests.support.scripted import scripted_factory

ROOT = Path(__file__).resolve().parents[3]
SECRET = "sk-proj-TRACESECRET0123456789"
QUESTION = "How well do heat pumps work in cold climates, and what do they cost? My key is " + SECRET
PAGE_SENTENCE = PAGES["cold-climates.html"][1][0]  # a sentence the researchers cite


# --- what a trace may hold ------------------------------------------------------------------------
def test_scrub_keeps_structure_names_and_numbers_and_hides_text(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    run = {"inputs": {"messages": [{"type": "human", "content": QUESTION, "id": "m1"}]},
           "outputs": {"generations": [{"text": PAGE_SENTENCE, "message": {"type": "ai", "usage_metadata": {
               "input_tokens": 12, "output_tokens": 3}, "tool_calls": [{"name": "search", "args": {
                   "query": "heat pump cost"}, "id": "c1"}]}}]},
           "metadata": {"thread_id": "t1", "langgraph_node": "researcher", "ls_model_name": "gpt-4.1",
                        "research_urls": ["https://intranet.example/secret-plan"]},
           "error": f"AuthenticationError: bad key {SECRET}"}
    hidden = tracing.scrub(run)
    text = repr(hidden)
    assert QUESTION[:20] not in text and PAGE_SENTENCE not in text and "heat pump cost" not in text
    assert "intranet.example" not in text and SECRET not in text
    assert hidden["inputs"]["messages"][0] == {"type": "human", "content": f"[{len(QUESTION)} characters]",
                                               "id": "m1"}
    message = hidden["outputs"]["generations"][0]["message"]
    assert message["usage_metadata"] == {"input_tokens": 12, "output_tokens": 3}
    assert message["tool_calls"][0]["name"] == "search"
    assert hidden["metadata"]["langgraph_node"] == "researcher" and hidden["metadata"]["ls_model_name"] == "gpt-4.1"
    assert hidden["error"] == "AuthenticationError: bad key ***"
    shown = tracing.scrub(run, content=True)
    assert PAGE_SENTENCE in repr(shown) and SECRET not in repr(shown) and "My key is ***" in repr(shown)


def test_only_the_environment_or_the_command_line_decides_what_traces_hold():
    server = {"configurable": {"langgraph_auth_user_id": "u"}}
    with pytest.raises(UserError, match="trace_content cannot be set by a run"):
        Configuration.resolve(server, {"trace_content": True}, environ={}, above_ceiling="refuse")
    with pytest.raises(UserError, match="trace_content cannot be set by a run"):  # process-wide: not per run
        Configuration.resolve(server, {"trace_content": False}, environ={"DEEP_RESEARCH_TRACE_CONTENT": "true"},
                              above_ceiling="refuse")
    assert Configuration.resolve(server, {"trace_content": True}, environ={"DEEP_RESEARCH_TRACE_CONTENT": "1"},
                                 above_ceiling="refuse").trace_content
    assert Configuration.resolve(None, {"trace_content": True}, environ={}).trace_content  # the command line
    assert tracing.env_trace_content({"DEEP_RESEARCH_TRACE_CONTENT": "true"})
    assert not tracing.env_trace_content({})


# --- OpenTelemetry spans of a run in this process ---------------------------------------------------------
@pytest.fixture()
def spans():
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.use_tracer_provider(provider)
    try:
        yield exporter
    finally:
        tracing.use_tracer_provider(None)
        tracing.setup(False)


def run_graph(tmp_path, ctx: dict, question: str = QUESTION):
    corpus = write_corpus(tmp_path / "corpus")
    build_index(corpus, base_url="http://127.0.0.1:8765/")
    deps = Deps(model_factory=scripted_factory(full_script(wrong_quote=False)),
                search_factory=lambda cfg: LocalCorpus.open(corpus))
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    config = {"configurable": {"thread_id": "traced"}}
    context = {"allow_clarification": False, "search_api": "local", "write_pdf": False,
               "output_dir": str(tmp_path / "reports"), "max_researcher_iterations": 1, **ctx}

    async def go(payload):
        async for _ in graph.astream(payload, config, context=context, stream_mode="updates", subgraphs=True):
            pass
        return await graph.aget_state(config)

    state = asyncio.run(go({"messages": [HumanMessage(question)]}))
    if state.interrupts:
        state = asyncio.run(go(Command(resume={"type": "approve"})))
    return state


def test_a_run_makes_spans_per_node_model_call_and_search_without_content(tmp_path, spans, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    tracing.setup(False)
    state = run_graph(tmp_path, {"require_brief_approval": True})
    assert state.values["status"] == "completed", state.values.get("errors")
    finished = spans.get_finished_spans()
    names = [s.name for s in finished]
    for node in ("preflight", "write_research_brief", "supervisor", "researcher", "researcher_tools",
                 "compress_research", "final_report_generation", "check_citations", "publish"):
        assert f"node {node}" in names, node
    model = [s for s in finished if s.name.startswith("chat ")]
    assert model and all(s.attributes["gen_ai.usage.input_tokens"] > 0 for s in model)
    assert {s.attributes["deep_research.node"] for s in model} >= {"write_research_brief", "researcher_tools",
                                                                  "compress_research"}
    usage = state.values["usage"]
    per_node = {}
    for s in model:
        per_node[s.attributes["deep_research.node"]] = per_node.get(s.attributes["deep_research.node"], 0) + \
            s.attributes["gen_ai.usage.input_tokens"]
    assert per_node == {n: u["input_tokens"] for n, u in usage.items() if u.get("input_tokens")}
    assert sum(s.attributes["gen_ai.usage.input_tokens"] for s in model) == \
        sum(u["input_tokens"] for u in usage.values())  # every metered call has its span
    search = [s for s in finished if s.name == "search local"]
    assert search and all(s.attributes["deep_research.search.results"] > 0 for s in search)
    assert all("deep_research.search.query" not in s.attributes for s in search)
    # the human's turn is not an error; its span says it waited
    approval = [s for s in finished if s.name == "node approve_research_brief"]
    assert any(s.attributes.get("deep_research.interrupted") for s in approval)
    assert all(s.status.status_code.name != "ERROR" for s in finished)
    # no attribute holds the question, a page's text or a secret
    values = " ".join(str(v) for s in finished for v in s.attributes.values())
    assert "heat pumps work" not in values and PAGE_SENTENCE not in values and SECRET not in values
    # a span of a search holds its query only with trace_content
    spans.clear()
    monkeypatch.setenv("DEEP_RESEARCH_TRACE_CONTENT", "true")
    run_graph(tmp_path / "again", {})
    queries = [s.attributes.get("deep_research.search.query") for s in spans.get_finished_spans()
               if s.name == "search local"]
    assert queries and all(q for q in queries)


def test_a_failed_node_is_an_error_span(tmp_path, spans):
    from tests.support.scripted import Script

    tracing.setup(False)
    corpus = write_corpus(tmp_path / "corpus")
    build_index(corpus, base_url="http://127.0.0.1:8765/")
    deps = Deps(model_factory=scripted_factory(Script()), search_factory=lambda cfg: LocalCorpus.open(corpus))
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())

    async def go():
        async for _ in graph.astream({"messages": [HumanMessage("tea?")]}, {"configurable": {"thread_id": "f"}},
                                     context={"allow_clarification": False, "search_api": "local",
                                              "max_retries": 0, "output_dir": str(tmp_path / "r")},
                                     stream_mode="updates"):
            pass

    with pytest.raises(RuntimeError):
        asyncio.run(go())
    failed = [s for s in spans.get_finished_spans() if s.status.status_code.name == "ERROR"]
    assert [s.name for s in failed if s.name.startswith("node ")] == ["node write_research_brief"]
    assert failed[0].attributes.get("error.type")


def test_without_opentelemetry_spans_cost_nothing_and_a_configured_collector_is_warned_about(monkeypatch, caplog):
    monkeypatch.setitem(sys.modules, "opentelemetry", None)
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9")
    monkeypatch.setattr(tracing, "_otel_ready", False)
    monkeypatch.setattr(tracing, "_tracer", None)
    with caplog.at_level(logging.WARNING, logger=tracing.__name__):
        with tracing.span("node x", {"a": 1}) as current:
            assert current is None
    assert "uv sync --extra otel" in caplog.text
    monkeypatch.setattr(tracing, "_otel_ready", False)


# --- exported: LangSmith and an OTLP collector, in a process of their own -----------------------------------
def traced_run(tmp_path, env: dict) -> str:
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("LANGSMITH_", "LANGCHAIN_", "OTEL_", "DEEP_RESEARCH_"))}
    r = subprocess.run([sys.executable, "-m", "tests.support.trace_run", str(tmp_path), QUESTION],
                       env={**base, "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": SECRET, **env}, cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "status: completed" in r.stdout, r.stderr[-3000:]
    return r.stderr


def test_langsmith_and_otlp_receive_the_run_without_its_content(tmp_path):
    with Collector() as ls, Collector() as otlp:
        traced_run(tmp_path, {"LANGSMITH_TRACING": "true", "LANGSMITH_ENDPOINT": ls.url,
                              "LANGSMITH_API_KEY": "lsv2_pt_0123456789abcdef", "OTEL_EXPORTER_OTLP_ENDPOINT": otlp.url,
                              "OTEL_SERVICE_NAME": "deep-research-test"})
        uploads = ls.bodies()
        exported = otlp.spans()
    # LangSmith got the run tree (the graph, its nodes, the model calls with their token usage) ...
    assert any(r["path"].startswith("/runs") for r in ls.requests)
    assert b'"name":"deep_research"' in uploads and b'"name":"write_research_brief"' in uploads
    assert b'"input_tokens"' in uploads
    # ... but no question, page text, quote or secret
    assert b"heat pumps work" not in uploads and PAGE_SENTENCE.encode() not in uploads
    assert SECRET.encode() not in uploads
    # OTLP: one trace for the run, spans per node, model call and search, no content in attributes
    names = {s["name"] for s in exported}
    assert {"research run", "node researcher", "node publish", "search local"} <= names
    assert any(n.startswith("chat ") for n in names)
    assert len({s["trace_id"] for s in exported}) == 1 and {s["service"] for s in exported} == {"deep-research-test"}
    values = " ".join(str(v) for s in exported for v in s["attributes"].values())
    assert "heat pumps work" not in values and PAGE_SENTENCE not in values and SECRET not in values


def test_with_trace_content_langsmith_gets_the_text_but_never_a_secret(tmp_path):
    with Collector() as ls:
        traced_run(tmp_path, {"LANGSMITH_TRACING": "true", "LANGSMITH_ENDPOINT": ls.url,
                              "LANGSMITH_API_KEY": "lsv2_pt_0123456789abcdef", "DEEP_RESEARCH_TRACE_CONTENT": "true"})
        uploads = ls.bodies()
    assert b"heat pumps work" in uploads and PAGE_SENTENCE.encode() in uploads
    assert SECRET.encode() not in uploads and b"My key is ***" in uploads

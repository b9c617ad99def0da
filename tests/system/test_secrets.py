"""API keys stay out of everything a run leaves behind.

A whole research run (scripted model, local corpus, brief approval) with secret-looking
keys in the environment: OPENAI_API_KEY, TAVILY_API_KEY and a custom variable named by
``model_api_key_env``, which the real model factory reads and hands to the provider client.
None of the values may appear in the final state, the streamed events, the checkpoints
(a SQLite file, read raw and decoded), the store, any file written (notes, citations,
markdown, HTML, the PDF's bytes and text), the logs at DEBUG, or stdout/stderr. Also:
the tools offered to the models are only search, reflection and research control.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command
from pydantic import BaseModel
from pypdf import PdfReader

from deep_research.research.runtime.deps import Deps, default_search_factory
from deep_research.research.graph import make_graph
from deep_research.research.runtime.providers import default_model_factory
from deep_research.research.gather.tools import RESEARCHER_TOOLS, SUPERVISOR_TOOLS
from deep_research.search.local import build_index
from tests.support.scenario import QUESTION, full_script, write_corpus
from tests.support.scripted import ScriptedChatModel

CUSTOM_KEY_ENV = "DR_TEST_CUSTOM_MODEL_KEY"


@pytest.fixture()
def keys(monkeypatch) -> dict[str, str]:
    values = {
        "OPENAI_API_KEY": f"sk-test-SECRET{secrets.token_hex(16)}",
        "TAVILY_API_KEY": f"tvly-SECRET{secrets.token_hex(16)}",
        CUSTOM_KEY_ENV: f"custom-SECRET{secrets.token_hex(16)}",
    }
    for k, v in values.items():
        monkeypatch.setenv(k, v)
    return values


def leaks(text: str | bytes, keys: dict[str, str]) -> list[str]:
    """Which keys occur in a text: the whole value or its random part."""
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    return [name for name, v in keys.items() if v in text or v.split("SECRET")[1] in text]


OFFERED: list = []  # every tool any model was offered


class RecordingModel(ScriptedChatModel):
    """The scripted model, remembering the tools it is offered."""

    def bind_tools(self, tools, **kwargs):
        OFFERED.extend(tools)
        return self


def _factory(script, keys, built: list):
    models: dict[str, RecordingModel] = {}

    def factory(spec: dict):
        client = default_model_factory(spec)  # the real client, holding the key from the env
        built.append(client)
        if spec["role"] not in models:
            models[spec["role"]] = RecordingModel(role=spec["role"], script=script)
        return models[spec["role"]]

    return factory


def test_keys_never_reach_state_checkpoints_files_or_logs(keys, tmp_path, caplog, capfd):
    caplog.set_level(logging.DEBUG)
    assert leaks(f"x {keys['OPENAI_API_KEY']} y", keys) == ["OPENAI_API_KEY"]  # the scanner works
    corpus = write_corpus(tmp_path / "corpus")
    build_index(corpus, base_url="http://127.0.0.1:8765/")
    out = tmp_path / "reports"
    db = tmp_path / "checkpoints.sqlite"
    context = {"require_brief_approval": True, "search_api": "local", "corpus_path": str(corpus),
               "corpus_base_url": "http://127.0.0.1:8765/", "output_dir": str(out),
               "model_base_url": "http://127.0.0.1:9/v1", "model_api_key_env": CUSTOM_KEY_ENV}
    script, built, events = full_script(), [], []
    store = InMemoryStore()
    OFFERED.clear()

    async def scenario():
        async with AsyncSqliteSaver.from_conn_string(str(db)) as saver:
            graph = make_graph(Deps(model_factory=_factory(script, keys, built),
                                    search_factory=default_search_factory), checkpointer=saver, store=store)
            config = {"configurable": {"thread_id": "secrets"}}
            for payload in ({"messages": [HumanMessage(QUESTION)]}, Command(resume={"type": "approve"})):
                async for chunk in graph.astream(payload, config, context=context, subgraphs=True,
                                                 stream_mode=["updates", "custom", "values", "messages"]):
                    events.append(repr(chunk))
            state = await graph.aget_state(config, subgraphs=True)
            history = [repr(s) async for s in graph.aget_state_history(config)]
            checkpoints = [repr(c) async for c in saver.alist(None)]
            return state, history, checkpoints

    state, history, checkpoints = asyncio.run(scenario())
    values = state.values
    assert values["status"] == "completed", values.get("errors")
    assert not values.get("errors")
    # the key did reach the provider client (so this run really handled it)
    assert built and all(c.openai_api_key.get_secret_value() == keys[CUSTOM_KEY_ENV] for c in built)
    assert str(built[0].openai_api_base).startswith("http://127.0.0.1:9")

    places: dict[str, str | bytes] = {
        "final state": json.dumps(values, default=repr) + repr(state),
        "state history": "\n".join(history),
        "streamed events": "\n".join(events),
        "checkpoints (decoded)": "\n".join(checkpoints),
        "store": repr(store.search(("deep_research",), limit=1000)),
        "logs": caplog.text + "\n".join(repr(r.args) + repr(r.__dict__) for r in caplog.records),
    }
    for f in sorted(tmp_path.glob("checkpoints.sqlite*")):  # the database and its WAL
        places[f.name] = f.read_bytes()
    files = sorted(p for p in out.rglob("*") if p.is_file())
    names = {p.name for p in files}
    assert {"notes.md", "raw_notes.md", "citations.json", "report.md", "report.html", "report.pdf"} <= names
    for p in files:
        places[str(p.relative_to(out))] = p.read_bytes()
        if p.suffix == ".pdf":
            places[f"{p.name} (text)"] = "\n".join(page.extract_text() or "" for page in PdfReader(p).pages)
    captured = capfd.readouterr()
    places["stdout/stderr"] = captured.out + captured.err

    found = {where: leaks(text, keys) for where, text in places.items()}
    assert {where: names for where, names in found.items() if names} == {}
    assert len(places["checkpoints.sqlite"]) > 10_000 and len(caplog.records) > 0  # real content was scanned
    assert "heat pump" in places["final state"].lower()

    # tools: only search, reflection and research control; structured answers are schemas
    tools = [t for t in OFFERED if not (isinstance(t, type) and issubclass(t, BaseModel))]
    assert tools, "the models were offered no tools"
    offered = {t["function"]["name"] for t in tools}
    assert offered == {"search", "think_tool", "ConductResearch", "refine_draft_report", "ResearchComplete"}


def test_offered_tools_have_no_side_effects():
    def spec(tools):
        return {t["function"]["name"]: set(t["function"]["parameters"]["properties"]) for t in tools}

    assert spec(RESEARCHER_TOOLS) == {"search": {"query"}, "think_tool": {"reflection"}}
    assert spec(SUPERVISOR_TOOLS) == {"ConductResearch": {"topic"}, "refine_draft_report": set(),
                                      "think_tool": {"reflection"}, "ResearchComplete": set()}
    for t in RESEARCHER_TOOLS + SUPERVISOR_TOOLS:
        assert t["type"] == "function"
        assert all(p["type"] == "string" for p in t["function"]["parameters"]["properties"].values())


class _AuthFailure(Exception):
    """What an OpenAI-compatible server's client raises for a bad key; some echo it."""

    status_code = 401


def _echo_run(keys, tmp_path, caplog, key_name: str):
    """A run whose draft step fails with an error echoing one key."""
    caplog.set_level(logging.DEBUG)
    corpus = write_corpus(tmp_path / "corpus")
    build_index(corpus, base_url="http://127.0.0.1:8765/")
    script = full_script()
    script.on("final_report", "Write a first draft",
              _AuthFailure(f"Error code: 401 - Incorrect API key provided: {keys[key_name]}"))
    script.rules.insert(0, script.rules.pop())  # before the rule that answers
    db = tmp_path / "checkpoints.sqlite"
    context = {"search_api": "local", "corpus_path": str(corpus), "output_dir": str(tmp_path / "reports"),
               "model_base_url": "http://127.0.0.1:9/v1", "model_api_key_env": CUSTOM_KEY_ENV}

    async def scenario():
        async with AsyncSqliteSaver.from_conn_string(str(db)) as saver:
            graph = make_graph(Deps(model_factory=_factory(script, keys, []),
                                    search_factory=default_search_factory), checkpointer=saver)
            config = {"configurable": {"thread_id": "echo"}}
            with pytest.raises(Exception) as failure:
                async for _ in graph.astream({"messages": [HumanMessage(QUESTION)]}, config, context=context):
                    pass
            state = await graph.aget_state(config)
            return failure.value, state

    error, state = asyncio.run(scenario())
    places = {"error raised to the caller": f"{error!r} {error}", "state": repr(state),
              "checkpoints": db.read_bytes() + b"".join(f.read_bytes() for f in tmp_path.glob("checkpoints.sqlite-*")),
              "logs": caplog.text}
    places.update({str(p): p.read_bytes() for p in (tmp_path / "reports").rglob("*") if p.is_file()})
    return {where: leaks(text, keys) for where, text in places.items() if leaks(text, keys)}


@pytest.mark.parametrize("key_name", ["OPENAI_API_KEY", "TAVILY_API_KEY"])
def test_a_key_echoed_in_a_provider_error_is_redacted(keys, tmp_path, caplog, key_name):
    assert _echo_run(keys, tmp_path, caplog, key_name) == {}


def test_a_custom_key_echoed_in_a_provider_error_is_redacted(keys, tmp_path, caplog):
    assert _echo_run(keys, tmp_path, caplog, CUSTOM_KEY_ENV) == {}

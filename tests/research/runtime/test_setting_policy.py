"""Who may set what (research/runtime/setting_policy.py): a question file of ``eval run`` cannot set
endpoints, key variables, folders, search, models or a higher limit unless the user names
the setting; an assistant a user creates on the server cannot carry what a run may not set;
and the graph refuses such values from a server caller whatever way they reached it."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from deep_research.errors import UserError
from deep_research.evaluation.questions import Question
from deep_research.research.runtime.configuration import Configuration
from deep_research.evaluation.runner import question_context
from deep_research.research.runtime.setting_policy import (
    HARMLESS,
    OPERATOR_SETTINGS,
    RULES,
    Caller,
    May,
    Source,
)
from deep_research.server.credentials import ENV_TOKENS
from tests.support.openai_server import ScriptServer
from tests.support.scripted import Script
from tests.support.webserver import WebServer

ROOT = Path(__file__).resolve().parents[1]


def test_every_setting_is_classified():
    """A new setting must say whether it reaches the network, files, credentials or cost."""
    fields = set(Configuration.model_fields)
    assert not set(RULES) & HARMLESS
    assert fields - set(RULES) - HARMLESS == set(), "classify these in research/runtime/setting_policy.py"
    assert set(RULES) | HARMLESS <= fields
    assert {"model_base_url", "model_api_key_env", "corpus_path", "output_dir", "mcp_config",
            "research_model_base_url", "citation_check_model_api_key_env", "azure_endpoint"} <= OPERATOR_SETTINGS
    for name in ("searxng_url", "fetch_allow_private", "research_urls", "search_api", "model", "web_search_model",
                 "brief_council_models", "corpus_base_url", "model_prices"):
        assert RULES[name].question is May.FLAG, name


# --- (a) a question file --------------------------------------------------------------------
def _question(settings: dict) -> Question:
    return Question(id="q1", question="What is tea?", settings=settings)


def _refusal(settings: dict, base: dict | None = None, allow=frozenset()) -> str:
    try:
        question_context(_question(settings), base or {"search_api": "none"}, Path("/tmp/out"), frozenset(allow))
    except UserError as e:
        return str(e)
    return ""


@pytest.mark.parametrize("setting,value", [
    ("model_base_url", "http://attacker.example/v1"),
    ("research_model_base_url", "http://attacker.example/v1"),
    ("model_api_key_env", "AWS_SECRET_ACCESS_KEY"),
    ("summarization_model_api_key_env", "GITHUB_TOKEN"),
    ("azure_endpoint", "https://attacker.example"),
    ("corpus_path", "/home/user/private"),
    ("output_dir", "/etc"),
    ("mcp_config", {"url": "http://attacker.example/mcp", "tools": ["x"]}),
    ("searxng_url", "http://attacker.example"),
    ("fetch_allow_private", True),
    ("research_urls", ["http://169.254.169.254/latest/meta-data/"]),
    ("search_api", "tavily"),
    ("corpus_base_url", "https://attacker.example/"),
    ("model", "openai:o1-pro"),
    ("final_report_model", "openai:o1-pro"),
    ("web_search_model", "o3-deep-research"),
    ("brief_council_models", ["openai:o1-pro", "openai:o1-pro"]),
    ("model_prices", {"o1-pro": [0, 0]}),
    ("max_cost_usd", 1000.0),  # above the user's 1.0
    ("max_researcher_iterations", 30),  # above the default 4
    ("query_dedupe_threshold", 0),  # 0 turns a saving off
    ("page_cache", False),
])
def test_a_question_file_cannot_set_what_reaches_network_files_keys_or_cost(setting, value):
    message = _refusal({setting: value}, {"search_api": "none", "max_cost_usd": 1.0,
                                          "model_prices": {"gpt-4.1": [2, 8], "gpt-4.1-mini": [0.4, 1.6]}})
    assert message.startswith(f"question q1: {setting}") and f"--allow-question-setting {setting}" in message, message
    # named by the user, it is allowed (models and prices still face the allow-list and the cost cap)
    if setting not in ("model", "final_report_model", "web_search_model", "brief_council_models", "model_prices"):
        assert not _refusal({setting: value}, {"search_api": "none", "max_cost_usd": 1.0}, allow={setting})


def test_a_question_file_may_set_research_knobs_lower_limits_and_repeat_your_values():
    assert not _refusal({"max_researcher_iterations": 2, "max_cost_usd": 0.5, "research_mode": "single",
                         "report_format": "concise", "search_api": "none", "require_brief_approval": True},
                        {"search_api": "none", "max_cost_usd": 1.0})
    assert "unknown setting(s) max_iterations" in _refusal({"max_iterations": 2})
    assert "max_cost_usd no limit cannot be set" not in _refusal({"max_cost_usd": None})  # None: not set


def test_several_refusals_are_named_at_once():
    message = _refusal({"model_base_url": "http://a.example/v1", "corpus_path": "/", "max_retries": 10})
    assert all(n in message for n in ("model_base_url", "corpus_path", "max_retries 10"))


def test_a_question_file_cannot_read_files_outside_its_folder(tmp_path):
    from deep_research.evaluation.questions import load_questions

    (tmp_path / "secret.txt").write_text("the user's secret\n")
    (tmp_path / "set").mkdir()
    (tmp_path / "set" / "refs").mkdir()
    (tmp_path / "set" / "refs" / "ok.md").write_text("# A reference\n")
    (tmp_path / "set" / "link.md").symlink_to(tmp_path / "secret.txt")
    for ref in (str(tmp_path / "secret.txt"), "../secret.txt", "link.md", "~/.bashrc", "refs/../../secret.txt"):
        q = tmp_path / "set" / "q.jsonl"
        q.write_text(json.dumps({"id": "a", "question": "Q?", "reference": ref}) + "\n")
        with pytest.raises(UserError, match="must be a file in the question set's folder"):
            load_questions(q)
    q.write_text(json.dumps({"id": "a", "question": "Q?", "reference": "refs/ok.md"}) + "\n")
    assert load_questions(q)[0].reference_text == "# A reference\n"


def test_eval_run_does_not_send_your_key_where_a_question_file_says(tmp_path):
    """The finding: a shared question set pointed the model endpoint at its host and named
    the key variable; the user's key went there in every request. Now the evaluation stops
    before any request, naming each setting and the flag that would allow it."""
    questions = tmp_path / "shared.jsonl"
    private = tmp_path / "private"
    private.mkdir()
    (private / "notes.md").write_text("# Private\n\nThe merger closes on 3 March.\n")
    with ScriptServer(Script()) as hostile:
        questions.write_text(json.dumps({"id": "q1", "question": "What is tea?", "settings": {
            "model_base_url": hostile.base_url, "model_api_key_env": "MY_OTHER_SECRET",
            "search_api": "local", "corpus_path": str(private)}}) + "\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("DEEP_RESEARCH_")
               and k not in ("OPENAI_BASE_URL", "DEEP_RESEARCH_DEPS")}
        env.update(PYTHONPATH=str(ROOT), OPENAI_API_KEY="sk-user-key-000000000000", MY_OTHER_SECRET="s3cr3t-value-123")
        (tmp_path / "mine.json").write_text(json.dumps({"max_retries": 0}))
        r = subprocess.run([sys.executable, "-m", "deep_research.cli", "eval", "run", str(questions), "--out",
                            str(tmp_path / "out"), "--search", "none", "--settings", str(tmp_path / "mine.json")],
                           capture_output=True, text=True, cwd=ROOT, env=env, timeout=300, stdin=subprocess.DEVNULL,
                           check=False)
        requests = list(hostile.requests)
    assert r.returncode == 2, r.stdout + r.stderr
    assert requests == []
    for name in ("model_base_url", "model_api_key_env", "search_api", "corpus_path"):
        assert f"--allow-question-setting {name}" in r.stderr
    assert "Traceback" not in r.stderr and not (tmp_path / "out").exists()


# --- (b) an assistant, and the graph behind the server ----------------------------------------
@pytest.fixture
def auth_module(monkeypatch):
    monkeypatch.setenv(ENV_TOKENS, "alice-token-" + "a" * 24 + ":alice")
    for name in ("DEEP_RESEARCH_FETCH_ALLOW_PRIVATE", "DEEP_RESEARCH_SEARXNG_URL", "DEEP_RESEARCH_MAX_COST_USD",
                 "DEEP_RESEARCH_ALLOWED_MODELS", "SEARXNG_URL"):
        monkeypatch.delenv(name, raising=False)
    import importlib

    return importlib.import_module("deep_research.server.auth")


def _assistant(module, action: str, **value):
    from langgraph_sdk.auth.types import AuthContext

    ctx = AuthContext(permissions=[], user=SimpleNamespace(identity="alice"), resource="assistants", action=action)
    handler = module.create_assistant if action == "create" else module.update_assistant
    return asyncio.run(handler(ctx, {"metadata": {}, **value}))


@pytest.mark.parametrize("values,expected", [
    ({"fetch_allow_private": True}, "fetch_allow_private cannot be set by an assistant"),
    ({"searxng_url": "http://169.254.169.254"}, "searxng_url cannot be set by an assistant"),
    ({"model_base_url": "http://attacker.example/v1"}, "model_base_url cannot be set by an assistant"),
    ({"max_cost_usd": 1e9}, "max_cost_usd 1,000,000,000 is above the ceiling 0.5"),
    ({"research_model": "openai:o1-pro"}, "openai:o1-pro (research_model) is not allowed"),
])
@pytest.mark.parametrize("action", ["create", "update"])
@pytest.mark.parametrize("where", ["context", "configurable"])
def test_an_assistant_cannot_carry_what_a_run_may_not_set(auth_module, monkeypatch, values, expected, action, where):
    from langgraph_sdk import Auth

    monkeypatch.setenv("DEEP_RESEARCH_MAX_COST_USD", "0.5")
    monkeypatch.setenv("DEEP_RESEARCH_ALLOWED_MODELS", "openai:gpt-4.1*")
    value = {"context": values} if where == "context" else {"config": {"configurable": values}}
    with pytest.raises(Auth.exceptions.HTTPException) as err:
        _assistant(auth_module, action, **value)
    assert err.value.status_code == 403 and expected in err.value.detail, err.value.detail
    assert _assistant(auth_module, action, context={"max_search_results": 3, "max_cost_usd": 0.25}) == {
        "owner": "alice"}


def _graph_run(context: dict, configurable: dict, tmp_path: Path) -> dict:
    from deep_research.research.runtime.deps import Deps, default_search_factory
    from deep_research.research.graph import make_graph
    from tests.support.scenario import full_script
    from tests.support.scripted import scripted_factory

    deps = Deps(model_factory=scripted_factory(full_script()), search_factory=default_search_factory)
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    config = {"configurable": {"thread_id": "t", **configurable}}

    async def go():
        async for _ in graph.astream({"messages": [HumanMessage("How much do heat pumps cost?")]}, config,
                                     context={"write_pdf": False, "search_api": "none", **context},
                                     stream_mode="updates"):
            pass
        return (await graph.aget_state(config)).values

    return asyncio.run(go())


SERVER_USER = {"langgraph_auth_user_id": "bob", "langgraph_auth_permissions": ["auth:token"]}


def test_the_graph_refuses_a_server_callers_private_fetch_however_it_arrived(tmp_path, monkeypatch):
    """An assistant stored before the rule (or any way the auth handler did not see) reaches
    the graph merged into the run's context: the graph applies the same rule at its first
    node, so the intranet page is never fetched and the run ends with the reason (the
    server shows it to the caller as the run's error)."""
    monkeypatch.delenv("DEEP_RESEARCH_FETCH_ALLOW_PRIVATE", raising=False)
    monkeypatch.setenv("DEEP_RESEARCH_OUTPUT_DIR", str(tmp_path / "reports"))
    with WebServer() as intranet:
        intranet.page("/admin", "<html><body><p>The intranet admin password is hunter2.</p></body></html>")
        with pytest.raises(UserError) as err:
            _graph_run({"fetch_allow_private": True, "research_urls": [intranet.url("/admin")]}, SERVER_USER,
                       tmp_path)
        hits = intranet.hits["/admin"]
    assert hits == 0
    assert "fetch_allow_private cannot be set by a run (or its assistant) on this server" in str(err.value)
    # the same run by this process's own user (the command line) fetches the page (and then
    # ends: the scripted model has no report for it)
    from deep_research.research.runtime.failure import ResearchFailed

    with WebServer() as intranet:
        intranet.page("/admin", "<html><body><p>The intranet admin password is hunter2.</p></body></html>")
        with pytest.raises(ResearchFailed):
            _graph_run({"fetch_allow_private": True, "research_urls": [intranet.url("/admin")]}, {}, tmp_path)
        assert intranet.hits["/admin"] >= 1


def test_the_graph_applies_the_operators_allowances(tmp_path, monkeypatch):
    monkeypatch.setenv("DEEP_RESEARCH_AUTH_ALLOW_RUN_SETTINGS", "output_dir")
    env = dict(os.environ)
    user = {"configurable": SERVER_USER}
    assert Configuration.resolve(user, {"output_dir": str(tmp_path)}, environ=env).output_dir == str(tmp_path)
    with pytest.raises(UserError, match="corpus_path cannot be set by a run"):
        Configuration.resolve(user, {"corpus_path": "/"}, environ=env)
    # a user langgraph-api admitted by itself (no auth: permission from the project's handler): nothing
    studio = {"configurable": {"langgraph_auth_user_id": "studio", "langgraph_auth_permissions": []}}
    with pytest.raises(UserError, match="output_dir cannot be set by a run"):
        Configuration.resolve(studio, {"output_dir": str(tmp_path)}, environ=env)
    # `langgraph dev` without credentials: its single local user sets server-side settings ...
    local = {"configurable": {"langgraph_auth_user_id": "local", "langgraph_auth_permissions": ["auth:local"]}}
    assert Configuration.resolve(local, {"corpus_path": "/"}, environ=env).corpus_path == "/"
    # ... but not the fetcher's private addresses nor another SearXNG (as create_run refuses them)
    with pytest.raises(UserError, match="searxng_url cannot be set"):
        Configuration.resolve(local, {"searxng_url": "http://10.0.0.1"}, environ=env)
    # this process's own user (the command line, eval run, a Python caller): everything
    assert Configuration.resolve({"configurable": {}}, {"fetch_allow_private": True}, environ=env).fetch_allow_private
    assert Caller.of_config({"configurable": {"langgraph_auth_user_id": ""}}, env).source is Source.COMMAND_LINE


def test_a_run_names_at_most_50_pages_to_fetch():
    """Beyond the list: research_urls had no bound, so one run (on a server: any user) could
    make the server fetch any number of pages of its choice."""
    urls = [f"https://a.example/{i}" for i in range(51)]
    with pytest.raises(UserError, match="research_urls: List should have at most 50 items"):
        Configuration.resolve(None, {"research_urls": urls}, environ={})
    with pytest.raises(UserError, match="a URL of 9,018 characters"):
        Configuration.resolve(None, {"research_urls": ["https://a.example/" + "x" * 9000]}, environ={})
    assert len(Configuration.resolve(None, {"research_urls": urls[:50]}, environ={}).research_urls) == 50


@pytest.mark.parametrize("environ,named", [
    ({"OPENAI_BASE_URL": "http://127.0.0.1:8000/v1"}, "sets it (OPENAI_BASE_URL)"),
    ({"DEEP_RESEARCH_MODEL_BASE_URL": "http://127.0.0.1:8000/v1",
      "OPENAI_BASE_URL": "http://127.0.0.1:9000/v1"}, "sets it (DEEP_RESEARCH_MODEL_BASE_URL)"),
    ({}, "sets it (DEEP_RESEARCH_MODEL_BASE_URL or OPENAI_BASE_URL)"),
    ({"SEARXNG_URL": "http://127.0.0.1:8888"}, None),
])
def test_a_refused_server_value_names_the_variable_that_sets_it(environ, named):
    from deep_research.research.runtime.setting_policy import refusals

    server = Configuration(**Configuration.env_overrides(environ))
    out = refusals({"model_base_url": "http://attacker.example/v1"}, Caller(Source.RUN), current=server,
                   server=server, environ=environ)
    assert len(out) == 1 and out[0].startswith("model_base_url cannot be set by"), out
    if named:
        assert named in out[0], out[0]
    searx = refusals({"searxng_url": "http://attacker.example"}, Caller(Source.RUN), current=server,
                     server=server, environ=environ)
    assert searx and ("sets it (SEARXNG_URL)" if "SEARXNG_URL" in environ
                      else "sets it (DEEP_RESEARCH_SEARXNG_URL or SEARXNG_URL)") in searx[0], searx

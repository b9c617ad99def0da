"""Server caps are ceilings: what an operator sets in the environment for spend, loop limits
and output tokens, a run can only lower. Also: a cost cap refuses models without a known
price, dated model names are priced as their family, and an optional allow-list of models.

Unit tests check Configuration.resolve for every ceiling, the price lookup and the Meter,
and the auth handler's create_run; the CLI and a real `langgraph dev` show what a user
sees (tests/research/runtime/test_budgets.py has the ceilings inside a research run).
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import typing
from types import SimpleNamespace

import httpx
import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage

from deep_research.errors import UserError
from deep_research.research.runtime.configuration import CEILINGS, ROLES, Configuration
from deep_research.research.runtime.meter import Meter
from deep_research.research.runtime.pricing import PRICES_PER_MTOK, family, price_of
from deep_research.server.credentials import ENV_JWT_SECRET, ENV_TOKENS
from tests.support.devserver import ROOT, langgraph_dev
from tests.support.scenario import QUESTION, write_corpus

# setting -> (ceiling, a value above it, a value below it)
LIMITS: dict[str, tuple] = {
    "max_cost_usd": (0.5, 1e9, 0.2),
    "max_total_tokens": (50_000, 10**9, 2_000),
    "max_brief_refinement_rounds": (1, 5, 0),
    "brief_council_threshold": (0.5, 1.0, 0.25),
    "brief_council_max_rounds": (1, 4, 0),
    "max_concurrent_research_units": (2, 10, 1),
    "max_researcher_iterations": (2, 20, 1),
    "max_react_tool_calls": (3, 40, 2),
    "max_search_results": (3, 20, 1),
    "max_retries": (1, 8, 0),
    "max_page_chars": (5_000, 10**7, 2_000),
    "summarize_after_tokens": (10_000, 10**7, 3_000),
    "query_dedupe_threshold": (90, 100, 80),
    "page_relevance_chars": (8_000, 10**6, 4_000),
    "request_timeout_s": (30.0, 3600.0, 10.0),
    "max_judge_calls": (2, 50, 1),
    "structured_output_retries": (1, 3, 0),
    "report_length": (1_000, 5_000, 300),
    "min_coverage": (0.8, 1.0, 0.5),
    "plateau_min_new_sentences": (2, 10, 1),
    "supervisor_messages_to_keep": (6, 40, 4),
    "compression_messages_to_keep": (4, 40, 2),
    "fetch_timeout_s": (10.0, 600.0, 5.0),
    "fetch_max_bytes": (1_000_000, 100_000_000, 20_000),
    **{f"{r}_model_max_tokens": (1_000, 10**6, 500) for r in ROLES},
}


def env_name(setting: str) -> str:
    return f"DEEP_RESEARCH_{setting.upper()}"


def run_values(source: str, values: dict) -> tuple[dict | None, dict | None]:
    """(config, context) that set ``values`` through the run's context or configurable."""
    if source == "context":
        return {"configurable": {"thread_id": "t"}}, values
    return {"configurable": {"thread_id": "t", **values}}, None


# --- which settings are ceilings ---------------------------------------------------------------
def test_every_numeric_limit_is_a_ceiling():
    """A new numeric setting must be classed: only the retry delay, the source-credibility
    thresholds (a higher value reads fewer pages, never more), the clarification gate (a
    higher value asks the user more, never spends more) and the web search price (a price,
    not a limit: setting_policy refuses a lower one under a cost cap) are not ceilings."""
    def numeric(annotation) -> bool:
        return annotation in (int, float) or any(a in (int, float) for a in typing.get_args(annotation))

    numbers = {n for n, f in Configuration.model_fields.items() if numeric(f.annotation)}
    assert set(CEILINGS) == numbers - {"retry_backoff_s", "min_source_credibility", "local_source_credibility",
                                    "clarify_confidence_threshold", "web_search_price_usd"}
    assert set(LIMITS) == set(CEILINGS)


# --- clamping and refusing -----------------------------------------------------------------------
@pytest.mark.parametrize("source", ["context", "configurable"])
@pytest.mark.parametrize("setting", CEILINGS)
def test_a_run_value_above_the_environment_ceiling_is_clamped_and_recorded(setting, source):
    ceiling, above, below = LIMITS[setting]
    environ = {env_name(setting): str(ceiling)}
    cfg = Configuration.resolve(*run_values(source, {setting: above}), environ=environ)
    assert getattr(cfg, setting) == ceiling
    [record] = cfg.clamped
    assert record["setting"] == setting and record["requested"] == above and record["ceiling"] == ceiling
    assert setting in record["message"] and env_name(setting) in record["message"]
    assert "this run uses" in record["message"]
    # asking for less is honoured, and nothing is recorded
    lower = Configuration.resolve(*run_values(source, {setting: below}), environ=environ)
    assert getattr(lower, setting) == below and lower.clamped == []
    # asking for exactly the ceiling is fine too
    same = Configuration.resolve(*run_values(source, {setting: ceiling}), environ=environ)
    assert getattr(same, setting) == ceiling and same.clamped == []


@pytest.mark.parametrize("source", ["context", "configurable"])
@pytest.mark.parametrize("setting", CEILINGS)
def test_the_server_refuses_a_run_value_above_the_ceiling(setting, source):
    ceiling, above, below = LIMITS[setting]
    environ = {env_name(setting): str(ceiling)}
    with pytest.raises(UserError) as err:
        Configuration.resolve(*run_values(source, {setting: above}), environ=environ, above_ceiling="refuse")
    message = str(err.value)
    assert setting in message and env_name(setting) in message and "at most" in message
    ok = Configuration.resolve(*run_values(source, {setting: below}), environ=environ, above_ceiling="refuse")
    assert getattr(ok, setting) == below


def test_no_limit_is_above_every_spend_ceiling():
    """LangGraph hands the graph the context as a Configuration: a null (a blank field) is a
    setting not given, as in a configurable, so the ceiling applies, not a way around it; a
    run that asks for more is lowered to it."""
    environ = {"DEEP_RESEARCH_MAX_COST_USD": "0.5", "DEEP_RESEARCH_MAX_TOTAL_TOKENS": "50000"}
    for context in (Configuration(max_cost_usd=None, max_total_tokens=None),
                    {"max_cost_usd": None, "max_total_tokens": None}):
        cfg = Configuration.resolve({"configurable": {"max_cost_usd": None}}, context, environ=environ)
        assert (cfg.max_cost_usd, cfg.max_total_tokens, cfg.clamped) == (0.5, 50_000, [])
    lifted = Configuration.resolve(None, Configuration(max_total_tokens=10**12), environ=environ)
    assert lifted.max_total_tokens == 50_000 and lifted.clamped[0]["setting"] == "max_total_tokens"


def test_without_an_environment_value_a_run_sets_what_it_likes():
    cfg = Configuration.resolve(None, {"max_cost_usd": 1e9, "max_total_tokens": 10**9}, environ={})
    assert cfg.max_cost_usd == 1e9 and cfg.max_total_tokens == 10**9 and cfg.clamped == []


def test_the_environment_value_applies_when_the_run_sets_nothing_and_clamps_survive_copies():
    environ = {"DEEP_RESEARCH_MAX_REACT_TOOL_CALLS": "3", "DEEP_RESEARCH_MAX_CONCURRENT_RESEARCH_UNITS": "5"}
    assert Configuration.resolve(None, None, environ=environ).max_react_tool_calls == 3
    cfg = Configuration.resolve(None, {"max_concurrent_research_units": 9, "test_mode": True}, environ=environ)
    assert cfg.max_concurrent_research_units == 2  # clamped to 5, then the test_mode preset
    assert [c["setting"] for c in cfg.clamped] == ["max_concurrent_research_units"]
    assert cfg.clamped[0]["message"].endswith("set by DEEP_RESEARCH_MAX_CONCURRENT_RESEARCH_UNITS, and the test_mode "
                                              "preset's 2: this run uses 2")  # one line, the value used
    assert cfg.model_copy().clamped == cfg.clamped


def test_an_invalid_environment_value_names_the_variable():
    with pytest.raises(UserError, match="DEEP_RESEARCH_MAX_COST_USD"):
        Configuration.resolve(None, None, environ={"DEEP_RESEARCH_MAX_COST_USD": "lots"})
    with pytest.raises(UserError, match=r"DEEP_RESEARCH_MODEL_PRICES \(model_prices.o9.1\)"):
        Configuration.resolve(None, None, environ={"DEEP_RESEARCH_MODEL_PRICES": '{"o9": [1, -4]}'})


# --- prices ---------------------------------------------------------------------------------
def test_dated_model_names_get_their_familys_price():
    assert price_of("gpt-4.1-2025-04-14") == PRICES_PER_MTOK["gpt-4.1"]
    assert price_of("gpt-4o-mini-2024-07-18") == PRICES_PER_MTOK["gpt-4o-mini"]
    assert price_of("gpt-4.1-mini") == PRICES_PER_MTOK["gpt-4.1-mini"] != PRICES_PER_MTOK["gpt-4.1"]
    assert family("o3-2025-04-16") == "o3" and family("gpt-4.1") == "gpt-4.1"
    assert family("model-2025-4-1") == "model-2025-4-1"  # not a date suffix
    assert price_of("o9-ultra") is None and price_of("") is None and price_of(None) is None
    # configured prices come first, for dated names too
    assert price_of("gpt-4.1", {"gpt-4.1": (3.0, 9.0)}) == (3.0, 9.0)
    assert price_of("house-model-2025-01-31", {"house-model": (1, 2)}) == (1.0, 2.0)


class NamedModel(GenericFakeChatModel):
    model_name: str | None = None


def charged(name: str | None, **meter) -> float:
    reply = AIMessage("ok", usage_metadata={"input_tokens": 1_000_000, "output_tokens": 1_000_000,
                                            "total_tokens": 2_000_000})
    m = Meter("node", **meter)
    asyncio.run(m.invoke(NamedModel(messages=iter([reply]), model_name=name), [HumanMessage("hi")]))
    return m.usage.cost_usd


def test_the_meter_prices_dated_names_configured_prices_and_a_fallback():
    assert charged("gpt-4.1-2025-04-14") == pytest.approx(2.0 + 8.0)
    assert charged("o9-ultra", prices={"o9-ultra": (5.0, 7.0)}) == pytest.approx(12.0)
    assert charged("o9-ultra") == 0.0  # no cost cap: unknown prices are not estimated
    # under a cost cap, a model that reports an unpriced name is charged the fallback
    assert charged("o9-ultra", fallback_price=(10.0, 30.0)) == pytest.approx(40.0)
    assert charged(None, fallback_price=(10.0, 30.0)) == pytest.approx(40.0)


def test_the_fallback_is_the_highest_price_of_the_runs_models_and_only_under_a_cost_cap():
    context = {"research_model": "openai:o1", "summarization_model": "openai:gpt-4.1-mini"}
    assert Configuration.resolve(None, context, environ={}).fallback_price() is None
    cfg = Configuration.resolve(None, {**context, "max_cost_usd": 1.0}, environ={})
    assert cfg.fallback_price() == PRICES_PER_MTOK["o1"]


@pytest.mark.parametrize("cap", ["run", "environment"])
def test_a_cost_cap_refuses_a_model_without_a_known_price(cap):
    context = {"research_model": "openai:o9-ultra", "compression_model": "openai:o9-ultra",
               "final_report_model": "ollama:qwen2.5:14b"}
    environ = {}
    if cap == "run":
        context["max_cost_usd"] = 2.0
    else:
        environ["DEEP_RESEARCH_MAX_COST_USD"] = "2"
    with pytest.raises(UserError) as err:
        Configuration.resolve(None, context, environ=environ)
    message = str(err.value)
    assert "max_cost_usd cannot be enforced" in message
    assert "openai:o9-ultra (research_model, compression_model)" in message
    assert "ollama:qwen2.5:14b (final_report_model)" in message
    assert "DEEP_RESEARCH_MODEL_PRICES" in message and "max_total_tokens" in message
    # priced by the operator: the run goes ahead
    priced = {**environ, "DEEP_RESEARCH_MODEL_PRICES": '{"o9-ultra": [4, 16], "qwen2.5:14b": [0, 0]}'}
    cfg = Configuration.resolve(None, context, environ=priced)
    assert cfg.price("research") == (4.0, 16.0) and cfg.price("final_report") == (0.0, 0.0)
    # without a cost cap nothing needs a price
    Configuration.resolve(None, {k: v for k, v in context.items() if k != "max_cost_usd"}, environ={})


def test_dated_names_pass_the_price_check():
    cfg = Configuration.resolve(None, {"research_model": "openai:gpt-4.1-2025-04-14",
                                       "summarization_model": "gpt-4o-mini-2024-07-18", "max_cost_usd": 1.0},
                                environ={})
    assert cfg.price("research") == PRICES_PER_MTOK["gpt-4.1"]
    assert cfg.price("summarization") == PRICES_PER_MTOK["gpt-4o-mini"]


def test_a_run_cannot_set_its_own_prices_under_the_servers_cost_cap():
    context = {"research_model": "openai:o9-ultra", "model_prices": {"o9-ultra": [0, 0]}}
    # without a server cap a run may price its models (the CLI, a library call)
    assert Configuration.resolve(None, {**context, "max_cost_usd": 1.0}, environ={}).price("research") == (0, 0)
    environ = {"DEEP_RESEARCH_MAX_COST_USD": "1"}
    for above_ceiling in ("clamp", "refuse"):
        with pytest.raises(UserError, match="model_prices cannot be set per run"):
            Configuration.resolve(None, context, environ=environ, above_ceiling=above_ceiling)
    with pytest.raises(UserError, match="model_prices cannot be set per run"):
        Configuration.resolve({"configurable": {"model_prices": {"gpt-4.1": [0, 0]}}}, None, environ=environ)
    # repeating the server's own prices is not a change
    same = {**environ, "DEEP_RESEARCH_MODEL_PRICES": '{"o9-ultra": [4, 16]}'}
    cfg = Configuration.resolve(None, {**context, "model_prices": {"o9-ultra": [4, 16]}}, environ=same)
    assert cfg.price("research") == (4.0, 16.0)


# --- allowed models ---------------------------------------------------------------------------
ALLOWED = {"DEEP_RESEARCH_ALLOWED_MODELS": "openai:gpt-4.1*, azure_openai:research-*"}


def test_a_model_outside_the_allow_list_is_refused():
    with pytest.raises(UserError) as err:
        Configuration.resolve(None, {"research_model": "openai:o1-pro"}, environ=ALLOWED)
    message = str(err.value)
    assert "model openai:o1-pro (research_model) is not allowed" in message
    assert "DEEP_RESEARCH_ALLOWED_MODELS allows only openai:gpt-4.1*, azure_openai:research-*" in message
    with pytest.raises(UserError, match=r"openai:o3 \(summarization_model\) is not allowed"):
        Configuration.resolve({"configurable": {"summarization_model": "o3"}}, None, environ=ALLOWED)
    with pytest.raises(UserError, match="ollama:gpt-4.1 .* is not allowed"):  # the provider counts
        Configuration.resolve(None, {"research_model": "ollama:gpt-4.1"}, environ=ALLOWED)
    # the defaults, a glob and a bare name (OpenAI) are allowed
    Configuration.resolve(None, None, environ=ALLOWED)
    Configuration.resolve(None, {"research_model": "gpt-4.1-2025-04-14",
                                 "final_report_model": "azure_openai:research-eu"}, environ=ALLOWED)
    # no list: anything goes
    Configuration.resolve(None, {"research_model": "openai:o1-pro"}, environ={})


def test_an_allow_list_entry_must_name_a_provider():
    with pytest.raises(UserError, match="'gpt-4.1' is not a provider:model pattern"):
        Configuration.resolve(None, None, environ={"DEEP_RESEARCH_ALLOWED_MODELS": "gpt-4.1"})


# --- the auth handler -------------------------------------------------------------------------
@pytest.fixture
def auth_module(monkeypatch):
    monkeypatch.setenv(ENV_TOKENS, "alice-token-" + "a" * 24 + ":alice")
    import importlib

    return importlib.import_module("deep_research.server.auth")


def create_run(module, context=None, configurable=None):
    from langgraph_sdk.auth.types import AuthContext

    ctx = AuthContext(permissions=[], user=SimpleNamespace(identity="alice"), resource="threads",
                      action="create_run")
    value = {"kwargs": {"context": context, "config": {"configurable": configurable or {}}}, "metadata": {}}
    return asyncio.run(module.create_run(ctx, value))


def test_create_run_refuses_values_above_a_ceiling_and_unknown_models(auth_module, monkeypatch):
    from langgraph_sdk import Auth

    monkeypatch.setenv("DEEP_RESEARCH_MAX_COST_USD", "0.5")
    monkeypatch.setenv("DEEP_RESEARCH_RESEARCH_MODEL_MAX_TOKENS", "4000")
    monkeypatch.setenv("DEEP_RESEARCH_ALLOWED_MODELS", "openai:gpt-4.1*")
    for context, configurable, expected in [
        ({"max_cost_usd": 1e9}, None, "max_cost_usd 1,000,000,000 is above the ceiling 0.5"),
        (None, {"research_model_max_tokens": 100_000}, "research_model_max_tokens 100,000 is above the ceiling"),
        ({"research_model": "openai:o1-pro"}, None, "openai:o1-pro (research_model) is not allowed"),
        ({"model_prices": {"gpt-4.1": [0, 0]}}, None, "model_prices cannot be set per run"),
    ]:
        with pytest.raises(Auth.exceptions.HTTPException) as err:
            create_run(auth_module, context, configurable)
        assert err.value.status_code == 403 and expected in err.value.detail, err.value.detail
    assert create_run(auth_module, {"max_cost_usd": 0.25, "research_model": "openai:gpt-4.1-mini"}) == {
        "owner": "alice"}


def test_create_run_refused_for_the_environment_does_not_name_the_servers_files(auth_module, monkeypatch, caplog):
    """A bad value of the server's environment refused every run with its text, which names
    the settings file it came from (a path of the server): the client is told the setting
    and the problem, the file as "(server path)"; the server's log has the full text."""
    from langgraph_sdk import Auth

    from deep_research import env_file

    monkeypatch.setenv("DEEP_RESEARCH_MAX_COST_USD", "lots")
    monkeypatch.setitem(env_file._FROM_FILE, "DEEP_RESEARCH_MAX_COST_USD", "/srv/research/app/.env")
    caplog.set_level("ERROR")
    with pytest.raises(Auth.exceptions.HTTPException) as err:
        create_run(auth_module, {"max_cost_usd": 0.25})
    detail = err.value.detail
    assert err.value.status_code == 403 and "DEEP_RESEARCH_MAX_COST_USD" in detail, detail
    assert "/srv/research" not in detail and "set in the environment file (server path)" in detail, detail
    assert any("/srv/research/app/.env" in r.getMessage() for r in caplog.records)


# --- the CLI ----------------------------------------------------------------------------------
SCRIPTED = {"DEEP_RESEARCH_DEPS": "tests.support.cli_deps:deps"}


def cli(*args, env=None, timeout=300):
    full = {k: v for k, v in os.environ.items()
            if k not in ("OPENAI_API_KEY", "TAVILY_API_KEY", "OPENAI_BASE_URL") and not k.startswith("DEEP_RESEARCH_")}
    full["PYTHONPATH"] = str(ROOT)
    full.update(env or {})
    return subprocess.run([sys.executable, "-m", "deep_research.cli", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, env=full, timeout=timeout, stdin=subprocess.DEVNULL, check=False)


def test_cli_refuses_an_unpriced_model_under_a_cost_cap(tmp_path):
    r = cli("research", "What is tea?", "--search", "none", "--yes", "--no-pdf", "--model", "openai:o9-ultra",
            "--max-cost", "1", "--db", tmp_path / "s.sqlite", "--out", tmp_path / "out", env=SCRIPTED)
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: the cost cap max_cost_usd cannot be enforced"), r.stderr
    assert "openai:o9-ultra" in lines[0] and "DEEP_RESEARCH_MODEL_PRICES" in lines[0]
    assert "Traceback" not in r.stdout + r.stderr and not (tmp_path / "out").exists()
    # with the price given, the same command gets past the check (to the missing API key)
    r = cli("research", "What is tea?", "--search", "none", "--yes", "--no-pdf", "--model", "openai:o9-ultra",
            "--max-cost", "1", "--db", tmp_path / "s.sqlite", "--out", tmp_path / "out",
            env={"DEEP_RESEARCH_MODEL_PRICES": '{"o9-ultra": [1, 4]}'})
    assert r.returncode == 2 and "OPENAI_API_KEY" in r.stderr and "cost cap" not in r.stderr, r.stderr


def test_cli_refuses_a_model_outside_the_allow_list(tmp_path):
    r = cli("research", "What is tea?", "--search", "none", "--yes", "--model", "openai:o1-pro",
            "--db", tmp_path / "s.sqlite", env={**SCRIPTED, "DEEP_RESEARCH_ALLOWED_MODELS": "openai:gpt-4.1*"})
    assert r.returncode == 2, r.stdout + r.stderr
    assert "is not allowed; DEEP_RESEARCH_ALLOWED_MODELS allows only openai:gpt-4.1*" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_cli_clamps_to_the_environment_and_says_so(tmp_path):
    corpus = write_corpus(tmp_path / "corpus")
    env = {**SCRIPTED, "DEEP_RESEARCH_MAX_COST_USD": "0.5", "DEEP_RESEARCH_MAX_RESEARCHER_ITERATIONS": "1"}
    r = cli("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--yes", "--no-pdf",
            "--max-cost", "1000", "--db", tmp_path / "state.sqlite", env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    text = re.sub(r"\s+", " ", r.stderr)
    # named by the option typed, not the setting (the server and library still name the setting)
    assert ("warning: --max-cost 1,000 is above the ceiling 0.5 set by DEEP_RESEARCH_MAX_COST_USD: "
            "this run uses 0.5") in text
    assert "max_cost_usd" not in text
    assert text.count("--max-cost 1,000 is above") == 1  # said once, not again at the end
    assert "research stopped after the maximum of 1 rounds" in text  # the environment's round limit held
    assert "│ $" in r.stdout or "$ " in r.stdout  # the cost is estimated (the run has a cap)


# --- a real server ------------------------------------------------------------------------------
GRAPH = "tests.support.dev_graph:graph"
AUTH = "deep_research.server.auth:auth"
NO_CREDENTIALS = {ENV_TOKENS: "", ENV_JWT_SECRET: "", "DEEP_RESEARCH_JWT_AUDIENCE": "",
                  "DEEP_RESEARCH_JWT_ISSUER": "", "DEEP_RESEARCH_AUTH_ALLOW_RUN_SETTINGS": ""}
CEILING_ENV = {"DEEP_RESEARCH_MAX_COST_USD": "0.5", "DEEP_RESEARCH_MAX_RESEARCHER_ITERATIONS": "1",
               "DEEP_RESEARCH_MAX_CONCURRENT_RESEARCH_UNITS": "1", "DEEP_RESEARCH_ALLOWED_MODELS": "openai:gpt-4.1*"}
MESSAGES = {"messages": [{"role": "user", "content": QUESTION}]}


async def refusal(call) -> tuple[int, str]:
    try:
        await call
    except httpx.HTTPStatusError as e:
        return e.response.status_code, e.response.text
    return 200, ""


@pytest.mark.server
def test_server_refuses_a_run_above_its_ceiling_with_403(tmp_path):
    """Through the auth handler: 1e9 under DEEP_RESEARCH_MAX_COST_USD=0.5 is refused (403,
    with the reason); a run within the ceilings completes."""
    from langgraph_sdk import get_client

    corpus = write_corpus(tmp_path / "corpus")
    env = {**NO_CREDENTIALS, **CEILING_ENV, "DR_TEST_CORPUS": str(corpus),
           "DEEP_RESEARCH_OUTPUT_DIR": str(tmp_path / "reports"), "DEEP_RESEARCH_WRITE_PDF": "false"}
    with langgraph_dev(tmp_path / "server", GRAPH, env=env, auth=AUTH) as (base, _):
        client = get_client(url=base)

        async def scenario():
            tid = (await client.threads.create())["thread_id"]
            for kwargs, expected in [
                ({"context": {"max_cost_usd": 1e9}}, ("max_cost_usd 1,000,000,000 is above the ceiling 0.5 set by "
                                                      "DEEP_RESEARCH_MAX_COST_USD; ask for at most 0.5")),
                ({"config": {"configurable": {"max_cost_usd": 1e9}}}, "max_cost_usd 1,000,000,000 is above"),
                ({"context": {"max_researcher_iterations": 5}}, "max_researcher_iterations 5 is above the ceiling 1"),
                ({"context": {"research_model": "openai:o1-pro"}}, "openai:o1-pro (research_model) is not allowed"),
            ]:
                status, body = await refusal(client.runs.create(tid, "deep_research", input=MESSAGES, **kwargs))
                assert status == 403 and expected in body, (kwargs, status, body)
            assert (await client.runs.list(tid)) == []  # nothing was started
            run = await client.runs.create(tid, "deep_research", input=MESSAGES,
                                           context={"search_api": "local", "max_cost_usd": 0.25,
                                                    "allow_clarification": False})
            await client.runs.join(tid, run["run_id"])
            return (await client.threads.get_state(tid))["values"]

        values = asyncio.run(scenario())
    assert values["status"] == "completed", values.get("errors")
    assert not [d for d in values.get("degradations") or [] if d.get("kind") == "clamped"]
    assert values["research_iterations"] == 1  # the server's round limit
    assert sum(u.get("cost_usd", 0) for u in values["usage"].values()) > 0  # priced under the cap


@pytest.mark.server
def test_a_question_keeps_its_limits_when_another_run_resumes_it(tmp_path):
    """The run that approves the brief is another run with its own settings: a limit the
    question was asked with (one research unit per round) held only for the asking run,
    and a resume that omitted it, or asked for more, ran the scenario's two units."""
    from langgraph_sdk import get_client

    corpus = write_corpus(tmp_path / "corpus")
    env = {**NO_CREDENTIALS, "DR_TEST_CORPUS": str(corpus), "DEEP_RESEARCH_OUTPUT_DIR": str(tmp_path / "reports"),
           "DEEP_RESEARCH_WRITE_PDF": "false"}
    base = {"search_api": "local", "allow_clarification": False}
    with langgraph_dev(tmp_path / "server", GRAPH, env=env, auth=AUTH) as (url, _):
        client = get_client(url=url)

        async def question(resumed: dict):
            tid = (await client.threads.create())["thread_id"]
            run = await client.runs.create(tid, "deep_research", input=MESSAGES, context={
                **base, "require_brief_approval": True, "max_concurrent_research_units": 1})
            await client.runs.join(tid, run["run_id"])
            assert (await client.threads.get_state(tid))["next"] == ["approve_research_brief"]
            run = await client.runs.create(tid, "deep_research", command={"resume": {"type": "approve"}},
                                           config={"configurable": {**base, **resumed}})
            await client.runs.join(tid, run["run_id"])
            return (await client.threads.get_state(tid))["values"]

        async def scenario():
            return [await question(resumed) for resumed in ({}, {"max_concurrent_research_units": 10})]

        results = asyncio.run(scenario())
    for values in results:
        assert values["status"] == "completed", values.get("errors")
        assert values["question_settings"]["max_concurrent_research_units"] == 1
        assert len(values["research_log"]) == 1  # one unit ran: the scenario asks for two
    # the chat says so to the run that asked for ten, once; nothing to the one that omitted it
    notices = [[m["content"] for m in v["messages"] if m.get("name") == "settings"] for v in results]
    assert notices[0] == [] and not results[0].get("ignored_settings")
    assert len(notices[1]) == 1 and ("- max_concurrent_research_units: 10 given by this run is not used; 1 is kept"
                                     in notices[1][0]), notices[1]
    assert [(r["setting"], r["asked"], r["kept"]) for r in results[1]["ignored_settings"]] == [
        ("max_concurrent_research_units", 10, 1)]


@pytest.mark.server
def test_a_server_without_the_auth_handler_clamps_and_records_it(tmp_path):
    """Without the auth handler (or for values that reach the graph another way) the graph
    itself holds the ceilings: context and configurable values above them are lowered, the
    run proceeds with the server's values and its state says so."""
    from langgraph_sdk import get_client

    corpus = write_corpus(tmp_path / "corpus")
    env = {**CEILING_ENV, "DR_TEST_CORPUS": str(corpus), "DEEP_RESEARCH_OUTPUT_DIR": str(tmp_path / "reports"),
           "DEEP_RESEARCH_WRITE_PDF": "false"}
    with langgraph_dev(tmp_path / "server", GRAPH, env=env) as (base, _):
        client = get_client(url=base)

        async def research(**kwargs):
            tid = (await client.threads.create())["thread_id"]
            run = await client.runs.create(tid, "deep_research", input=MESSAGES, **kwargs)
            await client.runs.join(tid, run["run_id"])
            return (await client.threads.get_state(tid))["values"]

        async def scenario():
            base = {"search_api": "local", "allow_clarification": False}
            by_context = await research(context={**base, "max_cost_usd": 1e9, "max_researcher_iterations": 5})
            by_configurable = await research(config={"configurable": {**base, "max_concurrent_research_units": 10}})
            return by_context, by_configurable

        by_context, by_configurable = asyncio.run(scenario())

    def clamped(values):
        return {d["message"] for d in values["degradations"] if d.get("kind") == "clamped"}

    assert clamped(by_context) == {
        "max_cost_usd 1,000,000,000 is above the ceiling 0.5 set by DEEP_RESEARCH_MAX_COST_USD: this run uses 0.5",
        ("max_researcher_iterations 5 is above the ceiling 1 set by DEEP_RESEARCH_MAX_RESEARCHER_ITERATIONS: "
         "this run uses 1"),
    }
    assert clamped(by_configurable) == {
        ("max_concurrent_research_units 10 is above the ceiling 1 set by "
         "DEEP_RESEARCH_MAX_CONCURRENT_RESEARCH_UNITS: this run uses 1"),
    }
    for values in (by_context, by_configurable):
        assert values["status"] == "completed", values.get("errors")
        assert values["research_iterations"] == 1
        assert len(values["research_log"]) == 1  # one unit ran: the scenario asks for two

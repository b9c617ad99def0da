"""Other model providers as optional extras (anthropic, google, mistral, ollama): a missing
package is reported before any cost, naming the role, the model, the package and the
command that installs it; an installed one is built from its own class with the role's
limits; prices and structured-output modes degrade clearly."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from deep_research.errors import UserError
from deep_research.research.runtime.deps import Deps
from deep_research.research.runtime.configuration import Configuration
from deep_research.research.graph import make_graph
from deep_research.research.runtime.providers import (
    EXTRA_PROVIDERS,
    ModelSetupError,
    default_model_factory,
    missing_package_message,
)
from deep_research.research.runtime.preflight import preflight

ROOT = Path(__file__).resolve().parents[3]
CLAUDE = "anthropic:claude-sonnet-4-5"
MISSING = ("the model provider 'anthropic' needs the package langchain-anthropic, which is not installed; "
           "install it with: uv sync --extra anthropic (or: pip install 'deep-research[anthropic]')")
ALL_ROLES = "research_model, summarization_model, compression_model, final_report_model, citation_check_model"


@pytest.fixture()
def no_anthropic(monkeypatch):
    """langchain-anthropic not installed (whether or not this machine has it)."""
    monkeypatch.setitem(sys.modules, "langchain_anthropic", None)


def spec(provider: str, model: str, **kw) -> dict:
    cfg = Configuration.resolve(None, {"model": f"{provider}:{model}", "request_timeout_s": 42,
                                       "summarization_model_max_tokens": 777, **kw}, environ={})
    return cfg.model_spec("summarization")


# --- a missing package ---------------------------------------------------------------------------
def test_preflight_names_role_model_package_and_command(no_anthropic, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    cfg = Configuration.resolve(None, {"model": CLAUDE, "search_api": "none"}, environ={})
    with pytest.raises(UserError) as e:
        asyncio.run(preflight(cfg, Deps()))
    assert str(e.value) == f"the run cannot start: {ALL_ROLES} = {CLAUDE}: {MISSING}"


def test_only_the_roles_using_the_provider_are_named(no_anthropic, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    cfg = Configuration.resolve(None, {"final_report_model": CLAUDE, "search_api": "none"}, environ={})
    with pytest.raises(UserError) as e:
        asyncio.run(preflight(cfg, Deps()))
    assert str(e.value) == f"the run cannot start: final_report_model = {CLAUDE}: {MISSING}"


def test_the_missing_package_is_said_before_missing_credentials(no_anthropic, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ModelSetupError) as e:
        default_model_factory(spec("anthropic", "claude-sonnet-4-5"))
    assert e.value.problem == MISSING and e.value.setting == "summarization_model"


@pytest.mark.parametrize("provider,package,extra", [
    ("google", "langchain-google-genai", "google"), ("google_genai", "langchain-google-genai", "google"),
    ("mistral", "langchain-mistralai", "mistral"), ("mistralai", "langchain-mistralai", "mistral"),
    ("ollama", "langchain-ollama", "ollama"),
])
def test_each_extra_is_named(monkeypatch, provider, package, extra):
    module = EXTRA_PROVIDERS["google_genai" if "google" in provider else
                             "mistralai" if "mistral" in provider else provider].module
    monkeypatch.setitem(sys.modules, module, None)
    message = missing_package_message(spec(provider, "some-model"))
    assert message == (f"the model provider {provider!r} needs the package {package}, which is not installed; "
                       f"install it with: uv sync --extra {extra} (or: pip install 'deep-research[{extra}]')")
    assert missing_package_message(spec("openai", "gpt-4.1")) is None


def test_a_studio_run_fails_with_the_same_message(no_anthropic, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    graph = make_graph(Deps(), checkpointer=InMemorySaver(), store=InMemoryStore())
    with pytest.raises(UserError) as e:
        asyncio.run(graph.ainvoke({"messages": [HumanMessage("What is tea?")]},
                                  {"configurable": {"thread_id": "t"}},
                                  context={"model": CLAUDE, "search_api": "none"}))
    assert MISSING in str(e.value)


def test_the_cli_exits_2_with_the_message(tmp_path):
    # the package hidden in the CLI's own process, as on a machine without the extra
    code = ("import sys; sys.modules['langchain_anthropic'] = None; from deep_research.cli import main; "
            f"sys.argv = ['deep-research', 'research', 'What is tea?', '--model', '{CLAUDE}', '--search', 'none', "
            f"'--db', {str(tmp_path / 's.sqlite')!r}]; sys.exit(main())")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DEEP_RESEARCH_"))}
    env.update(PYTHONPATH=str(ROOT), ANTHROPIC_API_KEY="sk-ant-test", DEEP_RESEARCH_ENV_FILE="none")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env,
                       timeout=120, stdin=subprocess.DEVNULL)
    assert r.returncode == 2, (r.stdout, r.stderr)
    text = " ".join(r.stderr.split())
    assert f"--model = {CLAUDE}:" in text and "langchain-anthropic" in text  # the option the user typed
    assert "uv sync --extra anthropic" in text and "pip install 'deep-research[anthropic]'" in text
    assert "Traceback" not in r.stderr


def test_the_default_install_does_not_pull_the_extras():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    for name, pkg in EXTRA_PROVIDERS.items():
        assert any(d.startswith(pkg.package) for d in extras[pkg.extra]), name
        assert not any(d.startswith(pkg.package) for d in project["dependencies"])


# --- construction with the package present -----------------------------------------------------------
class Recorder:
    """Stands in for a provider's chat model class: records what it was built with."""

    def __init__(self, **kwargs):
        self.kwargs = kwargs


@pytest.mark.parametrize("provider", ["anthropic", "google", "mistral", "ollama"])
def test_the_providers_own_class_is_built_with_the_roles_limits(monkeypatch, provider):
    name = {"google": "google_genai", "mistral": "mistralai"}.get(provider, provider)
    pkg = EXTRA_PROVIDERS[name]
    fake = types.ModuleType(pkg.module)
    setattr(fake, pkg.class_name, type(pkg.class_name, (Recorder,), {}))
    monkeypatch.setitem(sys.modules, pkg.module, fake)
    monkeypatch.setenv("MY_KEY", "secret-1")
    model = default_model_factory(spec(provider, "m-1", model_api_key_env="MY_KEY",
                                       model_base_url="http://127.0.0.1:9/"))
    assert type(model).__name__ == pkg.class_name and type(model).__module__ != "langchain_openai"
    kw = model.kwargs
    assert kw["model"] == "m-1" and kw["base_url"] == "http://127.0.0.1:9/"
    if provider == "ollama":  # Ollama's own names: no client retries to switch off
        assert kw["num_predict"] == 777
        assert kw["client_kwargs"] == {"timeout": 42, "headers": {"Authorization": "Bearer secret-1"}}
    else:
        assert (kw["max_tokens"], kw["timeout"], kw["max_retries"], kw["api_key"]) == (777, 42, 0, "secret-1")


def test_missing_credentials_of_an_installed_provider(monkeypatch):
    fake = types.ModuleType("langchain_mistralai")
    fake.ChatMistralAI = type("ChatMistralAI", (Recorder,), {})
    monkeypatch.setitem(sys.modules, "langchain_mistralai", fake)
    monkeypatch.delenv("MISTRAL_API_KEY", raising=False)
    with pytest.raises(ModelSetupError) as e:
        default_model_factory(spec("mistral", "mistral-large-latest"))
    assert "set MISTRAL_API_KEY" in e.value.problem
    monkeypatch.setenv("MISTRAL_API_KEY", "k")
    assert type(default_model_factory(spec("mistral", "mistral-large-latest"))).__name__ == "ChatMistralAI"
    # Ollama needs no key
    fake = types.ModuleType("langchain_ollama")
    fake.ChatOllama = type("ChatOllama", (Recorder,), {})
    monkeypatch.setitem(sys.modules, "langchain_ollama", fake)
    assert default_model_factory(spec("ollama", "qwen3")).kwargs["model"] == "qwen3"


@pytest.mark.parametrize("module,provider,check", [
    ("langchain_anthropic", "anthropic",
     lambda m: (m.default_request_timeout, m.max_tokens, m.max_retries, m.anthropic_api_url)),
    ("langchain_google_genai", "google", lambda m: (m.timeout, m.max_output_tokens, m.max_retries, m.base_url)),
    ("langchain_mistralai", "mistral", lambda m: (m.timeout, m.max_tokens, m.max_retries, m.endpoint)),
    ("langchain_ollama", "ollama", lambda m: (m.client_kwargs["timeout"], m.num_predict, 0, m.base_url)),
])
def test_the_real_integration_gets_the_settings(monkeypatch, module, provider, check):
    """With the extra installed (uv sync --extra NAME): the values reach the class's fields
    (the classes ignore unknown argument names, so a wrong name would go unnoticed)."""
    pytest.importorskip(module)
    monkeypatch.setenv("MY_KEY", "secret-1")
    model = default_model_factory(spec(provider, "m-1", model_api_key_env="MY_KEY",
                                       model_base_url="http://127.0.0.1:9"))
    assert type(model).__module__.startswith(module)
    assert check(model) == (42, 777, 0, "http://127.0.0.1:9")


# --- prices and structured output ------------------------------------------------------------------
def test_an_unpriced_provider_under_a_cost_cap_refuses_until_priced():
    with pytest.raises(UserError) as e:
        Configuration.resolve(None, {"model": CLAUDE, "max_cost_usd": 1}, environ={})
    assert "no price is known for anthropic:claude-sonnet-4-5" in str(e.value) and "model_prices" in str(e.value)
    cfg = Configuration.resolve(None, {"model": CLAUDE, "max_cost_usd": 1,
                                       "model_prices": {"claude-sonnet-4-5": [3, 15]}}, environ={})
    assert cfg.price("research") == (3.0, 15.0)


def test_a_partly_priced_run_says_its_cost_leaves_models_out():
    cfg = Configuration.resolve(None, {"model": "openai:gpt-4.1", "final_report_model": CLAUDE}, environ={})
    note = cfg.unpriced_note()
    assert note == ("no price is known for anthropic:claude-sonnet-4-5 (final_report_model): the cost shown "
                    "leaves its calls out; give its price with model_prices to count it")
    assert Configuration.resolve(None, {"model": "openai:gpt-4.1"}, environ={}).unpriced_note() is None
    assert Configuration.resolve(None, {"model": CLAUDE}, environ={}).unpriced_note() is None  # nothing priced


def test_json_mode_is_refused_for_other_providers(monkeypatch):
    fake = types.ModuleType("langchain_anthropic")
    fake.ChatAnthropic = type("ChatAnthropic", (Recorder,), {})
    monkeypatch.setitem(sys.modules, "langchain_anthropic", fake)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    cfg = Configuration.resolve(None, {"model": "openai:gpt-4.1", "research_model": CLAUDE, "search_api": "none",
                                       "structured_output": "json_mode"}, environ={})
    with pytest.raises(UserError) as e:
        asyncio.run(preflight(cfg, Deps()))
    assert str(e.value) == ("the run cannot start: structured_output = json_mode works only with OpenAI-compatible "
                            f"models (openai:, azure_openai:), not research_model = {CLAUDE}; use auto, tools, "
                            "json_schema or prompt")
    ok = Configuration.resolve(None, {"model": CLAUDE, "search_api": "none", "structured_output": "prompt"},
                               environ={})
    asyncio.run(preflight(ok, Deps()))  # no problem


def test_a_partly_priced_run_records_the_note_in_its_state(tmp_path):
    """Studio shows the state: the note is a degradation of the run, recorded once."""
    from tests.support.scripted import calls, scripted_factory, tool_call
    from tests.research.test_graph import base_script, drive, start, supervisor_rounds

    script = base_script()
    supervisor_rounds(script, {1: calls(tool_call("ResearchComplete"))})
    deps = Deps(model_factory=scripted_factory(script), search_factory=lambda cfg: None)
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    ctx = {"allow_clarification": False, "search_api": "none", "write_pdf": False, "model": "openai:gpt-4.1",
           "final_report_model": CLAUDE, "output_dir": str(tmp_path / "reports")}
    values = asyncio.run(drive(graph, start(), ctx)).values
    assert values["status"] == "completed"
    notes = [d for d in values.get("degradations") or [] if d.get("kind") == "unpriced"]
    assert [d["message"] for d in notes] == [Configuration.resolve(None, ctx, environ={}).unpriced_note()]


def test_langchain_core_error_classes_of_any_provider_are_classified():
    """Integrations (Gemini, Anthropic, ...) raise langchain-core's ModelError subclasses:
    server errors and rate limits are retried, a context overflow shortens the request."""
    from langchain_core import exceptions as lc

    from deep_research.research.runtime.meter import is_context_length_error, is_transient

    class GoogleAPIError(lc.ModelAPIError):  # like langchain-google-genai's 5xx error
        pass

    assert is_transient(GoogleAPIError("503 UNAVAILABLE"))
    assert is_transient(lc.ModelRateLimitError("429"))
    assert not is_transient(lc.ModelInvalidRequestError("400 bad request"))
    assert not is_transient(lc.ModelAuthenticationError("401"))
    overflow = lc.ContextOverflowError("The input token count exceeds the maximum number of tokens allowed")
    assert is_context_length_error(overflow) and not is_transient(overflow)

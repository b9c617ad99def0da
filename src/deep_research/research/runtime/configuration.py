"""One Configuration for a research run.

Values come from, in order of precedence:
1. the run itself: LangGraph Studio / SDK ``context`` or ``configurable`` (what the user set),
2. environment variables (``DEEP_RESEARCH_<FIELD>`` in upper case, plus the usual
   provider variables for URLs such as ``OPENAI_BASE_URL``),
3. the defaults below.
A value set in Studio is therefore never overridden by the environment, with one
exception: for the settings in :data:`CEILINGS` (spend, loop limits, output tokens) a value
the environment sets is a ceiling that a run can only lower. A run value above it is
clamped to it and recorded (:attr:`Configuration.clamped`); the server's auth handler
refuses such a run outright (``above_ceiling="refuse"``).

The environment can also restrict models to an allow-list (``DEEP_RESEARCH_ALLOWED_MODELS``)
and a run with a cost cap refuses to start while one of its models has no known price
(see :mod:`.pricing`).

API keys are never configuration values: a role names the *environment variable* that
holds its key (``*_api_key_env``), so keys stay out of state, checkpoints and logs.
"""

from __future__ import annotations

import json
import os
import re
import typing
from enum import StrEnum
from fnmatch import fnmatchcase
from typing import Any, Literal

from pydantic import (
    ConfigDict,
    BaseModel,
    Field,
    NonNegativeFloat,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from ...env_file import file_of
from ...errors import UserError, mask_url_credentials, remember_secret_env
from .pricing import price_of

if typing.TYPE_CHECKING:
    from .setting_policy import Caller

ROLES = ("research", "summarization", "compression", "final_report", "citation_check")
# Native web search (search_api): its provider and default model (web_search_model).
WEB_SEARCH = {"openai_web": ("openai", "gpt-4.1-mini"), "anthropic_web": ("anthropic", "claude-haiku-4-5")}
WEB_SEARCH_MAX_TOKENS = 1024  # output tokens of a web search call: only the pages it names are used
# The longest report asked for (report_length, in words of prose); one may be 1.5 times as long
# before it is revised, and its citations, quotes and source list come on top.
MAX_REPORT_LENGTH = 20_000
# The longest report markdown a reviewer may hand back as their edit (report review): the
# longest report the product writes - 30,000 words of prose, some 200,000 characters, plus its
# <ref> tags with their quotes and the source list - several times over; a longer one is
# refused, naming its length and this limit.
MAX_EDITED_REPORT_CHARS = 50 * MAX_REPORT_LENGTH
ENV_PREFIX = "DEEP_RESEARCH_"
ENV_ALLOWED_MODELS = "DEEP_RESEARCH_ALLOWED_MODELS"

# Settings whose 0 turns a saving off: 0 counts as above any other ceiling.
ZERO_IS_OFF = ("page_relevance_chars", "query_dedupe_threshold")

# Settings where a larger value lets a run spend more (money, tokens, model calls, time).
# A value set in the environment is a ceiling: a run may ask for less, never for more.
CEILINGS = (
    "max_cost_usd", "max_total_tokens",
    "max_brief_refinement_rounds", "brief_council_threshold", "brief_council_max_rounds",
    "max_concurrent_research_units", "max_researcher_iterations",
    "max_react_tool_calls", "max_search_results", "max_retries",
    "max_page_chars", "summarize_after_tokens", "query_dedupe_threshold", "page_relevance_chars",
    "request_timeout_s", "max_judge_calls", "structured_output_retries", "report_length",
    "min_coverage", "plateau_min_new_sentences", "supervisor_messages_to_keep", "compression_messages_to_keep",
    "fetch_timeout_s", "fetch_max_bytes",
    *(f"{r}_model_max_tokens" for r in ROLES),
)


class SearchAPI(StrEnum):
    TAVILY = "tavily"
    LOCAL = "local"
    SEARXNG = "searxng"
    OPENAI_WEB = "openai_web"
    ANTHROPIC_WEB = "anthropic_web"
    NONE = "none"


def _ui(kind: str, description: str, **extra: Any) -> dict:
    """Metadata LangGraph Studio uses to render a configuration knob."""
    return {"x_oap_ui_config": {"type": kind, "description": description, **extra}}


# Each role's model when neither the role's setting nor ``model`` is set.
ROLE_MODELS = {"research": "openai:gpt-4.1", "summarization": "openai:gpt-4.1-mini",
               "compression": "openai:gpt-4.1", "final_report": "openai:gpt-4.1",
               "citation_check": "openai:gpt-4.1-mini"}
# A role's setting, and the setting for every role that it overrides.
ROLE_SETTINGS = {"_model": "model", "_model_base_url": "model_base_url", "_model_api_key_env": "model_api_key_env",
                 "_azure_endpoint": "azure_endpoint", "_azure_api_version": "azure_api_version"}


def _role_ui(role: str, what: str) -> dict:
    if what == "base_url":
        return _ui("text", f"OpenAI-compatible server for the {role} model only (default: model_base_url).")
    if what == "azure_endpoint":
        return _ui("text", f"Azure OpenAI endpoint for the {role} model (default: azure_endpoint).")
    if what == "azure_api_version":
        return _ui("text", f"Azure OpenAI API version for the {role} model (default: azure_api_version).")
    return _ui("text", f"Environment variable holding the API key of the {role} model's server "
                       "(default: model_api_key_env).")


def _env_name(setting: str) -> str:
    return f"{ENV_PREFIX}{setting.upper()}"


def _show(value: Any) -> str:
    if value is None:
        return "no limit"
    return f"{value:,.10g}" if isinstance(value, float) else f"{value:,}" if isinstance(value, int) else str(value)


def _expected(err: Any) -> str:
    """What a setting must be, in words (pydantic's message for anything not listed)."""
    kind = err["type"]
    ctx = {k: f"{v:g}" if isinstance(v, float) else f"{v:,}" if isinstance(v, int) and not isinstance(v, bool)
           else v for k, v in (err.get("ctx") or {}).items()}
    if kind in ("literal_error", "enum"):  # "'a', 'b' or 'c'" -> "a, b or c", and the value typed
        ctx["expected"] = str(ctx.get("expected", "")).replace("'", "") + _not(err.get("input"))
    if kind == "finite_number":
        ctx["typed"] = _not(err.get("input"))
    said = {
        "greater_than_equal": "must be at least {ge}", "greater_than": "must be more than {gt}",
        "less_than_equal": "must be at most {le}", "less_than": "must be less than {lt}",
        "literal_error": "must be {expected}", "enum": "must be {expected}",
        "int_parsing": "must be a whole number", "int_from_float": "must be a whole number",
        # 1e20 as JSON's number: a float past the 64-bit range (digits of any length are read)
        "int_parsing_size": "is too large to read as a whole number (write it in digits)",
        "int_type": "must be a whole number", "float_parsing": "must be a number", "float_type": "must be a number",
        "finite_number": "must be a finite number{typed}",
        "bool_parsing": "must be true or false", "bool_type": "must be true or false",
        "string_too_long": "must be at most {max_length} characters", "string_type": "must be text",
        "list_type": "must be a list", "dict_type": "must be a JSON object",
    }.get(kind)
    if said:
        return said.format(**ctx)
    msg = str(err["msg"])
    return msg.removeprefix("Value error, ") if kind == "value_error" else msg


def _choices(annotation: Any) -> set[str]:
    """The values a choice setting takes (a Literal or an Enum, optional or not)."""
    import enum

    out: set[str] = set()
    for arg in (annotation, *typing.get_args(annotation)):
        if isinstance(arg, type) and issubclass(arg, enum.Enum):
            out.update(str(e.value) for e in arg)
        elif typing.get_origin(arg) is Literal:
            out.update(str(a) for a in typing.get_args(arg))
    return out


def _not(value: Any) -> str:
    """", not 'value'": the value a choice was given, as typed (cut short)."""
    if value is None:
        return ""
    text = value if isinstance(value, str) else str(value) if isinstance(value, float) else json.dumps(
        value, default=str)
    return f", not {(text if len(text) <= 80 else text[:79] + '…')!r}"


def _unknown(name: Any) -> str:
    """An unknown setting's name as typed, with the setting it is closest to."""
    import difflib

    near = difflib.get_close_matches(str(name), list(Configuration.model_fields), n=1, cutoff=0.75)
    return repr(str(name)[:100]) + (f" (did you mean {near[0]}?)" if near else "")


def _problems(e: ValidationError, *, env: bool = False, labels: typing.Mapping[str, str] | None = None) -> str:
    """What is wrong, per setting: named by its environment variable when it came from
    there, by ``labels`` (e.g. the command-line option the user typed) when given, else by
    the setting's name (as LangGraph Studio shows it)."""
    parts = []
    for err in e.errors():
        loc = [str(x) for x in err["loc"]]
        where = ".".join(loc)
        if env and loc:
            name = _env_name(loc[0]) + (" or OPENAI_BASE_URL" if loc[0] == "model_base_url" else "")
            names = (_env_name(loc[0]), *(("OPENAI_BASE_URL",) if loc[0] == "model_base_url" else ()))
            files = {f for n in names if (f := file_of(n))}
            where = f"{name} ({where}" + "".join(f", set in the environment file {f}" for f in sorted(files)) + ")"
        elif labels and loc and loc[0] in labels:
            where = ".".join([labels[loc[0]], *loc[1:]])
        parts.append(f"{where}: {_expected(err)}")
    return "; ".join(parts)


def checked_base_url(v: str | None) -> str | None:
    """A model server's base URL: an http(s) URL with a host (None for none); ValueError
    otherwise. Anything else went to the HTTP client as it was and every model call failed
    as a connection error, retried, instead of a setup mistake."""
    if v is None or not v.strip():
        return None
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(v.strip())
        ok = parts.scheme.lower() in ("http", "https") and bool(parts.hostname)
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"{mask_url_credentials(v)!r} is not an http:// or https:// URL (e.g. "
                         "http://localhost:11434/v1)")
    return v.strip()


def _json_text(text: str, wrong: str) -> Any:
    """A setting's JSON text, read; ValueError starting with ``wrong`` when it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{wrong} ({e.msg} at character {e.pos})") from None
    except RecursionError:
        raise ValueError(f"{wrong} (nested too deeply)") from None


def check_values(values: typing.Mapping[str, Any], labels: typing.Mapping[str, str] | None = None) -> dict[str, Any]:
    """Settings given as text or values (the command line), validated and converted by
    :class:`Configuration` (the one place settings are checked): their JSON form, or a
    :class:`UserError` naming each wrong one by ``labels`` (what the user typed)."""
    try:
        cfg = Configuration.model_validate(dict(values))
    except ValidationError as e:
        raise UserError(_problems(e, labels=labels)) from None
    return cfg.model_dump(mode="json", include=set(values))


def model_name_problem(spec: str) -> None:
    """Refuse a provider:model name with one side empty ('openai:', ':gpt-4.1'): read as a
    bare name it went to the endpoint as the model 'openai:' and failed there, after the run
    had started. A bare name (OpenAI) and names with more colons (ollama:llama3:8b) pass."""
    provider, colon, name = spec.partition(":")
    if colon and not (provider.strip() and name.strip()):
        raise ValueError(f"{spec!r} names no {'model' if provider.strip() else 'provider'}: write provider:model, "
                         "e.g. openai:gpt-4.1")


class Configuration(BaseModel):
    """Settings of a research run (rendered as knobs in LangGraph Studio)."""

    # a run's context naming a setting that is not one fails, naming it (LangGraph builds
    # the context with this model: an unknown name was dropped, the run went on without it)
    # (and a number that is not finite - "nan" or "inf" - is refused as one, naming it: nan
    # failed every bound as "must be more than 0" and inf passed as a cap never reached)
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    @model_validator(mode="before")
    @classmethod
    def _null_is_not_given(cls, data: Any) -> Any:
        """A null value is a setting not given, in a run's context as in its configurable
        (:meth:`_run_values`): a form or SDK caller may send null for a blank field, and
        LangGraph builds the context with this model, where a null counted as given (over
        the environment's value, the assistant's, the question's) or failed with the model's
        own error for a number or a switch ("Input should be a valid integer"). A setting's
        null means its default in every case (no limit for a cap, none for a list)."""
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if v is not None}
        return data

    # --- scoping --------------------------------------------------------------------
    allow_clarification: bool = Field(
        True, json_schema_extra=_ui("boolean", "Ask the user one clarifying question when the request is ambiguous."))
    clarify_confidence_threshold: float = Field(
        0.6, ge=0.0, le=1.0, json_schema_extra=_ui(
            "slider", "Ask clarifying questions only about the dimensions of the request (scope, time frame, "
            "geography, audience, definitions, purpose) whose reading the model is less sure of than this (0-1); "
            "otherwise research starts on its readings and says so. 0: never ask; 1: ask whenever a dimension is "
            "not settled.", min=0.0, max=1.0, step=0.05))
    require_brief_approval: bool = Field(
        False, json_schema_extra=_ui("boolean", "Pause for a human to approve or reject the research brief."))
    max_brief_refinement_rounds: int = Field(
        3, ge=0, le=10, json_schema_extra=_ui("number", "How many times a rejected brief is rewritten.", min=0, max=10))
    research_mode: Literal["auto", "single", "multi"] = Field(
        "multi", json_schema_extra=_ui(
            "select", "How research runs: 'multi' (a supervisor sends parallel researchers round by round), "
            "'single' (one researcher with the brief as its topic, no supervisor rounds; same citation checks), "
            "or 'auto' (one cheap classification of the question: a simple fact goes the single path, a focused "
            "or broad question the multi path).",
            options=[{"label": v, "value": v} for v in ("auto", "single", "multi")]))
    brief_council_models: list[str] = Field(
        default_factory=list, json_schema_extra=_ui(
            "json", "A council of provider:model names that each review the research brief (approve, or revise "
            "with reasons) before research; empty: no council. Built like the other models (model_base_url, "
            "model_api_key_env) and counted in the run's tokens and cost."))
    brief_council_threshold: float = Field(
        0.5, ge=0.0, le=1.0, json_schema_extra=_ui(
            "number", "Share of the council's votes that must approve the brief (models that fail abstain); "
                      "below it the brief is revised with the council's reasons.", min=0, max=1))
    brief_council_max_rounds: int = Field(
        2, ge=0, le=5, json_schema_extra=_ui(
            "number", "How many times the council's reasons may revise the brief; then research proceeds with "
                      "the last brief.", min=0, max=5))
    require_report_approval: bool = Field(
        False, json_schema_extra=_ui("boolean", "Pause for a human to approve, edit or give feedback on the "
                                     "checked report before it is published (one revision on feedback)."))
    brief_search: bool = Field(
        False, json_schema_extra=_ui("boolean", "Run a preliminary search for current context before writing the brief."))
    draft_search: bool = Field(
        False, json_schema_extra=_ui("boolean", "Search before writing the first draft."))

    # --- search ---------------------------------------------------------------------
    search_api: SearchAPI = Field(
        SearchAPI.TAVILY,
        json_schema_extra=_ui("select", "Where researchers search.",
                              options=[{"label": v.value, "value": v.value} for v in SearchAPI]))
    corpus_path: str | None = Field(
        None, json_schema_extra=_ui("text", "Folder of documents (or its index) for search_api=local."))
    corpus_base_url: str | None = Field(
        None, json_schema_extra=_ui("text", "Base URL where the corpus documents are published (else file:// links)."))
    searxng_url: str | None = Field(
        None, json_schema_extra=_ui("text", "SearXNG instance for search_api=searxng, e.g. http://localhost:8888 "
                                    "(default: env SEARXNG_URL). Its settings.yml must list json in search.formats."))
    searxng_engines: list[str] | None = Field(
        None, json_schema_extra=_ui("text", "SearXNG engines to query (list or comma-separated, e.g. "
                                    "\"duckduckgo,wikipedia\"); default: the instance's."))
    searxng_categories: list[str] | None = Field(
        None, json_schema_extra=_ui("text", "SearXNG categories (list or comma-separated, e.g. \"general,science\"); "
                                    "default: the instance's."))
    searxng_time_range: Literal["day", "week", "month", "year"] | None = Field(
        None, json_schema_extra=_ui("select", "Only SearXNG results from the last day, week, month or year "
                                    "(none: any time).", options=[{"label": v, "value": v} for v in
                                                                  ("day", "week", "month", "year")]))
    searxng_safesearch: Literal[0, 1, 2] | None = Field(
        None, json_schema_extra=_ui("select", "SearXNG safe search: 0 off, 1 moderate, 2 strict (default: the "
                                    "instance's).", options=[{"label": str(v), "value": v} for v in (0, 1, 2)]))
    searxng_language: str | None = Field(
        None, json_schema_extra=_ui("text", "SearXNG search language, e.g. en or de-CH (default: the instance's)."))
    research_urls: list[str] = Field(
        default_factory=list, max_length=50, json_schema_extra=_ui(
            "text", "Pages (http/https URLs, at most 50) fetched at the start and given to every researcher as "
                    "sources, in addition to search; with search_api=none only these pages are used."))
    fetch_allow_private: bool = Field(
        False, json_schema_extra=_ui("boolean", "Let the page fetcher reach loopback, private and link-local "
                                     "addresses (an intranet, a local server). Cloud metadata addresses stay refused."))
    fetch_respect_robots: bool = Field(
        True, json_schema_extra=_ui("boolean", "Honour robots.txt when fetching pages. It is read once per site with a "
                                    "10 s timeout; when it cannot be read the site counts as allowing everything."))
    fetch_timeout_s: float = Field(
        30.0, gt=0, le=600, json_schema_extra=_ui("number", "The most one page fetch may take (seconds), redirects, "
                                                  "retries and robots.txt included."))
    web_search_model: str | None = Field(
        None, json_schema_extra=_ui(
            "text", "Model that runs the provider's own web search: for search_api=openai_web the Responses API "
                    f"web_search tool (default {WEB_SEARCH['openai_web'][1]}), for anthropic_web Anthropic's "
                    f"server-side web search tool (default {WEB_SEARCH['anthropic_web'][1]}); on the research "
                    "model's endpoint and key when it is the same provider. Only the pages it names are fetched "
                    "and become the sources."))
    web_search_price_usd: float = Field(
        0.01, ge=0, le=1, json_schema_extra=_ui(
            "number", "USD charged per web search request of openai_web and anthropic_web (both providers list "
                      "$10 per 1,000 searches), counted in the run's cost on top of the search model's tokens.",
            min=0, max=1))
    fetch_max_bytes: int = Field(
        5_000_000, ge=10_000, le=100_000_000, json_schema_extra=_ui(
            "number", "Bytes of a fetched page read at most: longer HTML or text is cut there, a longer PDF refused."))
    max_search_results: int = Field(
        5, ge=1, le=20, json_schema_extra=_ui("number", "Results per search call.", min=1, max=20))
    max_page_chars: int = Field(
        40_000, ge=2_000, json_schema_extra=_ui("number", "Characters of a page shown to the summarisation model."))
    trusted_domains: list[str] = Field(
        default_factory=list, json_schema_extra=_ui(
            "json", "Domains whose pages get a high source credibility, e.g. [\"docs.python.org\", \"nature.com\"] "
            "(a domain covers its subdomains; env: comma-separated). Overrides the built-in lists."))
    low_trust_domains: list[str] = Field(
        default_factory=list, json_schema_extra=_ui(
            "json", "Domains whose pages get a low source credibility (at most 0.3), e.g. [\"example-blog.com\"] "
            "(a domain covers its subdomains; env: comma-separated). Overrides the built-in lists."))
    min_source_credibility: float = Field(
        0.0, ge=0, le=1, json_schema_extra=_ui(
            "number", "Search results whose source credibility (0-1: domain lists, official site vs forum, https, "
            "date, page metadata) is below this are not read; 0 keeps all.", min=0, max=1))
    local_source_credibility: float = Field(
        0.9, ge=0, le=1, json_schema_extra=_ui(
            "number", "Source credibility given to documents of a local corpus (search_api=local): you chose "
            "them.", min=0, max=1))
    mcp_config: dict | None = Field(
        None, json_schema_extra=_ui("json", "Optional MCP server: {\"url\": ..., \"transport\": \"streamable_http\", "
                                    "\"tools\": [allowed tool names]}. Only listed tools are offered to researchers."))

    # --- research loop ----------------------------------------------------------------
    max_concurrent_research_units: int = Field(
        3, ge=1, le=20, json_schema_extra=_ui("slider", "Research units run in parallel per supervisor round.",
                                              min=1, max=20, step=1))
    max_researcher_iterations: int = Field(
        4, ge=1, le=30, json_schema_extra=_ui("slider", "Supervisor rounds before research stops.", min=1, max=30))
    max_react_tool_calls: int = Field(
        6, ge=1, le=50, json_schema_extra=_ui("slider", "Tool calls one researcher may make.", min=1, max=50))
    min_coverage: float = Field(
        0.8, ge=0.0, le=1.0, json_schema_extra=_ui(
            "slider", "Stop research when this priority-weighted share of the plan's sub-questions is covered by "
            "verified findings and the plan's success criteria that name sub-questions are met (1.0: all of "
            "them; 0: coverage never stops research).", min=0.0, max=1.0, step=0.05))
    plateau_min_new_sentences: int = Field(
        2, ge=0, le=100, json_schema_extra=_ui(
            "number", "Stop research when a round (from the second on) adds fewer new verified sentences than "
            "this (0: off).", min=0, max=100))
    supervisor_summarize: bool = Field(
        True, json_schema_extra=_ui("boolean", "Fold the supervisor's earlier rounds into a summary when its "
                                    "history passes summarize_after_tokens."))
    supervisor_messages_to_keep: int = Field(
        6, ge=2, le=50, json_schema_extra=_ui(
            "number", "Latest supervisor messages kept word for word when earlier ones are summarised.", min=2, max=50))
    compression_summarize: bool = Field(
        True, json_schema_extra=_ui("boolean", "Summarise a researcher's older reasoning before compression when its "
                                    "material passes summarize_after_tokens (source sentences are always kept)."))
    compression_messages_to_keep: int = Field(
        4, ge=1, le=50, json_schema_extra=_ui(
            "number", "Latest researcher reasoning messages given word for word to compression when older ones are "
            "summarised.", min=1, max=50))
    max_total_tokens: int | None = Field(
        None, ge=1000, json_schema_extra=_ui(
            "number", "The most tokens the run may use: a model call whose estimate (its prompt, and a reply "
            "like the node's earlier ones or a quarter of the model's output limit) would pass it is not made, and "
            "research stops early enough to leave room for writing and checking the report."))
    max_cost_usd: float | None = Field(
        None, gt=0, json_schema_extra=_ui(
            "number", "The most the run may cost in USD, estimated (every model needs a known price: "
            "model_prices): a model call whose estimated cost would pass it is not made, and research stops "
            "when it is reached."))

    # --- models -----------------------------------------------------------------------
    # One model, endpoint and key for every role, unless a role sets its own.
    model: str | None = Field(
        None, json_schema_extra=_ui("text", "provider:model for every role that does not set its own, e.g. "
                                    "openai:gpt-4.1 or, with model_base_url, openai:qwen2.5:14b."))
    research_model: str | None = Field(None, json_schema_extra=_ui(
        "text", f"provider:model for the supervisor and researchers (default: model, else {ROLE_MODELS['research']})."))
    summarization_model: str | None = Field(None, json_schema_extra=_ui(
        "text", f"provider:model for page summaries (default: model, else {ROLE_MODELS['summarization']})."))
    compression_model: str | None = Field(None, json_schema_extra=_ui(
        "text", f"provider:model that condenses research (default: model, else {ROLE_MODELS['compression']})."))
    final_report_model: str | None = Field(None, json_schema_extra=_ui(
        "text", f"provider:model that writes the draft and the report (default: model, else "
                f"{ROLE_MODELS['final_report']})."))
    citation_check_model: str | None = Field(None, json_schema_extra=_ui(
        "text", f"provider:model that fixes unsupported citations (default: model, else "
                f"{ROLE_MODELS['citation_check']})."))
    research_model_max_tokens: int = Field(8000, ge=256, json_schema_extra=_ui("number", "Output tokens per call."))
    summarization_model_max_tokens: int = Field(4000, ge=256, json_schema_extra=_ui("number", "Output tokens per call."))
    compression_model_max_tokens: int = Field(8000, ge=256, json_schema_extra=_ui("number", "Output tokens per call."))
    final_report_model_max_tokens: int = Field(12000, ge=256, json_schema_extra=_ui("number", "Output tokens per call."))
    citation_check_model_max_tokens: int = Field(2000, ge=256, json_schema_extra=_ui("number", "Output tokens per call."))
    model_prices: dict[str, tuple[NonNegativeFloat, NonNegativeFloat]] | None = Field(
        None, json_schema_extra=_ui("json", "Prices of models the built-in table lacks, for max_cost_usd: "
                                    "{\"model name\": [USD per million input tokens, per million output tokens]}."))
    model_base_url: str | None = Field(
        None, json_schema_extra=_ui("text", "OpenAI-compatible server for every role that does not set its own "
                                    "(Ollama, vLLM, llama.cpp, OpenRouter); env OPENAI_BASE_URL."))
    model_api_key_env: str | None = Field(
        None, json_schema_extra=_ui("text", "Name of the environment variable holding the API key for that "
                                    "server (the key itself never enters a setting)."))
    research_model_base_url: str | None = Field(None, json_schema_extra=_role_ui("research", "base_url"))
    summarization_model_base_url: str | None = Field(None, json_schema_extra=_role_ui("summarization", "base_url"))
    compression_model_base_url: str | None = Field(None, json_schema_extra=_role_ui("compression", "base_url"))
    final_report_model_base_url: str | None = Field(None, json_schema_extra=_role_ui("final_report", "base_url"))
    citation_check_model_base_url: str | None = Field(None, json_schema_extra=_role_ui("citation_check", "base_url"))
    research_model_api_key_env: str | None = Field(None, json_schema_extra=_role_ui("research", "api_key_env"))
    summarization_model_api_key_env: str | None = Field(
        None, json_schema_extra=_role_ui("summarization", "api_key_env"))
    compression_model_api_key_env: str | None = Field(None, json_schema_extra=_role_ui("compression", "api_key_env"))
    final_report_model_api_key_env: str | None = Field(
        None, json_schema_extra=_role_ui("final_report", "api_key_env"))
    citation_check_model_api_key_env: str | None = Field(
        None, json_schema_extra=_role_ui("citation_check", "api_key_env"))
    azure_endpoint: str | None = Field(
        None, json_schema_extra=_ui("text", "Azure OpenAI endpoint for azure_openai:DEPLOYMENT models "
                                    "(default: env AZURE_OPENAI_ENDPOINT)."))
    azure_api_version: str | None = Field(
        None, json_schema_extra=_ui("text", "Azure OpenAI API version, e.g. 2024-10-21 (default: env "
                                    "OPENAI_API_VERSION)."))
    research_azure_endpoint: str | None = Field(None, json_schema_extra=_role_ui("research", "azure_endpoint"))
    summarization_azure_endpoint: str | None = Field(
        None, json_schema_extra=_role_ui("summarization", "azure_endpoint"))
    compression_azure_endpoint: str | None = Field(None, json_schema_extra=_role_ui("compression", "azure_endpoint"))
    final_report_azure_endpoint: str | None = Field(
        None, json_schema_extra=_role_ui("final_report", "azure_endpoint"))
    citation_check_azure_endpoint: str | None = Field(
        None, json_schema_extra=_role_ui("citation_check", "azure_endpoint"))
    research_azure_api_version: str | None = Field(None, json_schema_extra=_role_ui("research", "azure_api_version"))
    summarization_azure_api_version: str | None = Field(
        None, json_schema_extra=_role_ui("summarization", "azure_api_version"))
    compression_azure_api_version: str | None = Field(
        None, json_schema_extra=_role_ui("compression", "azure_api_version"))
    final_report_azure_api_version: str | None = Field(
        None, json_schema_extra=_role_ui("final_report", "azure_api_version"))
    citation_check_azure_api_version: str | None = Field(
        None, json_schema_extra=_role_ui("citation_check", "azure_api_version"))
    structured_output_retries: int = Field(
        1, ge=0, le=5, json_schema_extra=_ui("number", "Times a model is asked again when its structured answer "
                                             "(JSON) is missing or invalid.", min=0, max=5))
    structured_output: Literal["auto", "tools", "json_schema", "json_mode", "prompt"] = Field(
        "auto", json_schema_extra=_ui("select", "How structured answers are requested; 'prompt' works with any server.",
                                      options=[{"label": v, "value": v} for v in
                                               ("auto", "tools", "json_schema", "json_mode", "prompt")]))

    mcp_prompt: str | None = Field(
        None, json_schema_extra=_ui("text", "Name of a prompt of the MCP server (mcp_config) whose text is added "
                                    "to the researchers' instructions, e.g. house rules for a document collection."))

    # --- context and reliability ------------------------------------------------------
    summarize_after_tokens: int = Field(
        60_000, ge=2_000, json_schema_extra=_ui("number", "Summarise older messages when a history passes this size."))
    page_cache: bool = Field(
        True, json_schema_extra=_ui("boolean", "Summarise a page at most once per conversation: parallel researchers, "
                                    "later rounds and resumed runs that find it again get the stored summary and "
                                    "exact sentences (shown as already read), and a page a researcher has already "
                                    "seen is shown to it again as a one-line reference. Off: every researcher gets "
                                    "the full summary each time, and researchers that find a page at the same time "
                                    "each summarise it."))
    query_dedupe_threshold: int = Field(
        90, ge=0, le=100, json_schema_extra=_ui(
            "number", "A search query whose normalised words (case, punctuation, word order and stop words "
            "ignored) are at least this similar (0-100) to an earlier query of the conversation is not searched "
            "again: the researcher is told which query it repeats and gets its results. 100: only the same "
            "words; 0: off.", min=0, max=100))
    page_relevance_chars: int = Field(
        8_000, ge=0, json_schema_extra=_ui(
            "number", "Of a page longer than this (characters), the summarisation model sees only the passages "
            "that best match the researcher's topic and query, up to this size; citations are still checked "
            "against the whole page. 0: off (the page's opening up to max_page_chars)."))
    request_timeout_s: float = Field(
        120.0, gt=0, le=3600, json_schema_extra=_ui("number", "Timeout of each model and search request (seconds)."))
    max_retries: int = Field(
        3, ge=0, le=10, json_schema_extra=_ui("number", "Retries of a failed model or search request."))
    retry_backoff_s: float = Field(
        1.0, ge=0, le=60, json_schema_extra=_ui("number", "First delay before a retry (seconds); doubles each time."))

    # --- citation and claim checks ---------------------------------------------------
    judge_claims: bool = Field(
        True, json_schema_extra=_ui("boolean", "Let the citation_check model judge claims that the code rules "
                                    "cannot decide (supports / partly / contradicts, with the quote spans that "
                                    "state each fact); code rules always win, and a 'supports' counts only when "
                                    "code has checked its spans."))
    max_judge_calls: int = Field(
        4, ge=0, le=50, json_schema_extra=_ui("number", "Judge calls per report (each judges up to "
                                              "8 claims; a second judge's calls count too); claims beyond stay "
                                              "'unchecked'.", min=0, max=50))
    judge_second_model: str | None = Field(
        None, json_schema_extra=_ui(
            "text", "provider:model of a second claim judge (another model than citation_check's); empty: one "
            "judge. Set, a claim the code rules cannot decide is shown supported only when both judges support "
            "it with evidence code checks; when they disagree, or one fails, it stays unchecked. Built like the "
            "other models (model_base_url, model_api_key_env, citation_check_model_max_tokens); its calls count "
            "in max_judge_calls, the run's tokens and cost, and it must be allowed and priced like any model."))
    verified_findings: bool = Field(
        False, json_schema_extra=_ui("boolean", "Put a 'Verified findings' section before the report body, built "
                                     "by code from the claims whose checks all passed."))
    report_format: Literal["detailed", "concise", "bullet_points"] = Field(
        "detailed", json_schema_extra=_ui(
            "select", "Shape of the report: 'detailed' (executive summary, one section per theme of the findings, "
            "a comparison table where the evidence compares options, limitations, recommendations when the "
            "question asks for them), 'concise' (short summary, key findings, limitations) or 'bullet_points' "
            "(headed lists, one cited claim per bullet).",
            options=[{"label": v, "value": v} for v in ("detailed", "concise", "bullet_points")]))
    report_length: int | None = Field(
        None, ge=100, le=MAX_REPORT_LENGTH, json_schema_extra=_ui(
            "number", "Target length of the report in words (citations and quotes not counted); empty: the "
            "format's default (concise: 500, otherwise no target). A report far off the target (under half or "
            "over 1.5 times) is revised once; if it stays off, the run records it.", min=100, max=MAX_REPORT_LENGTH))
    system_prompt: str | None = Field(
        None, max_length=4000, json_schema_extra=_ui(
            "text", "Your own instructions for the report writer (tone, audience, emphasis), at most 4,000 "
            "characters. They come before the project's citation and format rules, which win over them: they "
            "cannot switch off the citations or their checks."))

    # --- output -----------------------------------------------------------------------
    output_dir: str = Field("docs/reports", json_schema_extra=_ui("text", "Where each run's report folder is written."))
    write_pdf: bool = Field(True, json_schema_extra=_ui("boolean", "Write the PDF next to the markdown."))
    write_docx: bool = Field(
        False, json_schema_extra=_ui("boolean", "Write report.docx (Word) next to the PDF: the same report, "
                                     "citation links keep their highlighted sentence."))
    citation_style: Literal["numbered", "apa", "mla", "ieee", "chicago"] = Field(
        "numbered", json_schema_extra=_ui(
            "select", "How citations read in the linked markdown, HTML, PDF and Word file: numbered [1], "
            "IEEE [1], APA (Author, 2023), MLA (Author) or Chicago author-date (Author 2023), with the Sources "
            "list in that style. Every source keeps its verified quotes and their links.",
            options=[{"label": v, "value": v} for v in ("numbered", "apa", "mla", "ieee", "chicago")]))
    test_mode: bool = Field(
        False, json_schema_extra=_ui("boolean", "Small limits for trying things out cheaply."))
    trace_content: bool = Field(
        False, json_schema_extra=_ui(
            "boolean", "Send prompts, page text, quotes and answers to the tracing services the environment turns "
                       "on (LangSmith: LANGSMITH_TRACING; OpenTelemetry: OTEL_EXPORTER_OTLP_ENDPOINT). Off: traces "
                       "keep the run's structure, names, token usage and timings, and every text is replaced by "
                       "its length. Secrets are removed either way. Only the environment "
                       "(DEEP_RESEARCH_TRACE_CONTENT) or the command line can turn it on."))

    _clamped: list[dict] = PrivateAttr(default_factory=list)

    @property
    def clamped(self) -> list[dict]:
        """Run values that were above the environment's ceiling and were lowered to it:
        ``{"setting", "requested", "ceiling", "message"}``."""
        return list(self._clamped)

    @field_validator("trusted_domains", "low_trust_domains", mode="before")
    @classmethod
    def _domains(cls, v: Any) -> Any:
        """A list of domains, or text (a JSON list, or names separated by commas or spaces,
        as the environment gives it); each entry normalised (lower case, IDNA)."""
        from ...search.credibility import normalize_domain

        if v is None:
            return []
        if isinstance(v, str):
            text = v.strip()
            if text.startswith("["):
                v = _json_text(text, "not a JSON list of domains")
            else:
                v = [d for d in re.split(r"[\s,]+", text) if d]
        if not isinstance(v, (list, tuple)):
            return v  # pydantic reports the wrong type
        out = []
        for entry in v:
            if not isinstance(entry, str):
                raise ValueError(f"{entry!r} is not a domain name")
            out.append(normalize_domain(entry))
        return list(dict.fromkeys(out))

    @field_validator("model_base_url", *(f"{r}_model_base_url" for r in ROLES))
    @classmethod
    def _base_url(cls, v: str | None) -> str | None:
        return checked_base_url(v)

    @field_validator("search_api", "citation_style", "research_mode", "report_format", "structured_output",
                     mode="before")
    @classmethod
    def _lower(cls, v: Any, info: ValidationInfo) -> Any:
        """A choice in any case; a value that is none is left as typed (its error repeats it)."""
        if not isinstance(v, str):
            return v
        low = v.strip().lower()
        return low if low in _choices(cls.model_fields[str(info.field_name)].annotation) else v

    @field_validator("brief_council_models", mode="before")
    @classmethod
    def _council_list(cls, v: Any) -> Any:
        """A list, or text (the environment, the CLI): a JSON list or comma-separated names."""
        if v is None:
            return []
        if isinstance(v, str):
            text = v.strip()
            if text.startswith("["):
                try:
                    return json.loads(text)
                except (json.JSONDecodeError, RecursionError):
                    return v  # refused by validation, naming the setting
            return [p.strip() for p in text.split(",") if p.strip()]
        return v

    @field_validator("mcp_config", "model_prices", mode="before")
    @classmethod
    def _json_object(cls, v: Any) -> Any:
        """A JSON object, or its text (the environment, the command line)."""
        if isinstance(v, str):
            v = _json_text(v, "must be a JSON object")
            if not isinstance(v, dict):
                raise ValueError("must be a JSON object")
        return v

    @field_validator("brief_council_models")
    @classmethod
    def _council_names(cls, v: list[str]) -> list[str]:
        names = [n.strip() for n in v if n.strip()]
        if len(names) > 9:
            raise ValueError("at most 9 council models")
        for name in names:
            model_name_problem(name)
        return names

    @field_validator("judge_second_model", mode="before")
    @classmethod
    def _second_judge(cls, v: Any) -> Any:
        return (v.strip() or None) if isinstance(v, str) else v

    @field_validator("model", "judge_second_model", *(f"{r}_model" for r in ROLES))
    @classmethod
    def _model_name(cls, v: str | None) -> str | None:
        if v:
            model_name_problem(v)
        return v

    @field_validator("searxng_engines", "searxng_categories", mode="before")
    @classmethod
    def _comma_list(cls, v: Any) -> Any:
        if isinstance(v, str):
            items = [x.strip() for x in v.split(",") if x.strip()]
            return items or None
        return v

    @field_validator("research_urls", mode="before")
    @classmethod
    def _url_list(cls, v: Any) -> Any:
        if v is None:
            return []
        if isinstance(v, str):  # the environment: URLs separated by spaces or new lines
            v = v.split()
        if isinstance(v, (list, tuple)):
            long = [u for u in v if isinstance(u, str) and len(u) > 8000]
            if long:
                raise ValueError(f"a URL of {len(long[0]):,} characters (at most 8,000)")
        return v

    @field_validator("searxng_time_range", mode="before")
    @classmethod
    def _time_range(cls, v: Any) -> Any:
        if isinstance(v, str):
            v = v.strip().lower()
            return None if v in ("", "none", "any") else v
        return v

    @field_validator("searxng_safesearch", mode="before")
    @classmethod
    def _safesearch(cls, v: Any) -> Any:
        if isinstance(v, str) and v.strip().isdigit():
            return int(v.strip())
        return v

    @property
    def without_sources(self) -> bool:
        """Nothing to cite: no search (search_api none) and no pages given (research_urls)."""
        return self.search_api.value == "none" and not self.research_urls

    # ----------------------------------------------------------------------------------
    def model_spec(self, role: str) -> dict:
        """provider, model name, limits and endpoint for one role."""
        if role not in ROLES:
            raise ValueError(f"unknown model role {role!r}")
        spec = getattr(self, f"{role}_model") or self.model or ROLE_MODELS[role]
        key_env = getattr(self, f"{role}_model_api_key_env") or self.model_api_key_env
        remember_secret_env(key_env)
        provider, _, name = spec.partition(":")
        if not name:
            provider, name = "openai", spec
        return {
            "role": role,
            "provider": provider,
            "model": name,
            "max_tokens": getattr(self, f"{role}_model_max_tokens"),
            "base_url": getattr(self, f"{role}_model_base_url") or self.model_base_url,
            "api_key_env": key_env,
            "timeout": self.request_timeout_s,
            "max_retries": self.max_retries,
            "azure_endpoint": getattr(self, f"{role}_azure_endpoint") or self.azure_endpoint,
            "azure_api_version": getattr(self, f"{role}_azure_api_version") or self.azure_api_version,
        }

    def _general_spec(self, role: str, model: str, max_tokens: int) -> dict:
        """A model beyond the roles, built like a role's model with the run's general
        endpoint, key and limits."""
        remember_secret_env(self.model_api_key_env)
        provider, _, name = model.partition(":")
        if not name:
            provider, name = "openai", model
        return {
            "role": role,
            "provider": provider,
            "model": name,
            "max_tokens": max_tokens,
            "base_url": self.model_base_url,
            "api_key_env": self.model_api_key_env,
            "timeout": self.request_timeout_s,
            "max_retries": self.max_retries,
            "azure_endpoint": self.azure_endpoint,
            "azure_api_version": self.azure_api_version,
        }

    def council_spec(self, index: int) -> dict:
        """The spec of the brief council's model number ``index`` (0-based): built like a
        role's model, with the run's general endpoint, key and limits. Its role is
        ``brief_council_<n>`` (1-based), so each member is a model of its own."""
        return self._general_spec(f"brief_council_{index + 1}", self.brief_council_models[index],
                                  self.research_model_max_tokens)

    def judge_second_spec(self) -> dict | None:
        """The second claim judge's spec (``judge_second_model``), or None when there is
        none: built like the council's models (the run's general endpoint and key), with the
        citation_check role's output limit. Its role is ``judge_second``."""
        if not self.judge_second_model:
            return None
        return self._general_spec("judge_second", self.judge_second_model, self.citation_check_model_max_tokens)

    def extra_specs(self) -> list[dict]:
        """Models beyond the roles: the brief council's and the second claim judge."""
        specs = [self.council_spec(i) for i in range(len(self.brief_council_models))]
        second = self.judge_second_spec()
        return specs + ([second] if second else [])

    def model_id(self, role: str) -> tuple[str, str]:
        """(provider, model name) of a role; a bare name means OpenAI."""
        spec = self.model_spec(role)
        return spec["provider"], spec["model"]

    def price(self, role: str) -> tuple[float, float] | None:
        """USD per million (input, output) tokens of a role's model, or None when unknown."""
        return price_of(self.model_id(role)[1], self.model_prices)

    def fallback_price(self) -> tuple[float, float] | None:
        """What a model call is charged when the model reports a name without a price while
        a cost cap is set: the highest price of the run's configured models."""
        if not self.max_cost_usd:
            return None
        prices = [p for p in (self.price(r) for r in ROLES) if p]
        prices += [p for p in (price_of(spec["model"], self.model_prices) for spec in self.extra_specs()) if p]
        prices += [p for p in (price_of(m.partition(":")[2], self.model_prices) for m in self.tool_models()) if p]
        return (max(p[0] for p in prices), max(p[1] for p in prices)) if prices else None

    def web_search_spec(self) -> dict | None:
        """The model of native web search (search_api openai_web or anthropic_web), as a
        spec (role ``web_search``), or None for other searches. It uses the research role's
        endpoint and key when the research model is of the same provider, else the
        provider's own (OPENAI_API_KEY, ANTHROPIC_API_KEY and their base URL variables)."""
        if self.search_api.value not in WEB_SEARCH:
            return None
        provider, default = WEB_SEARCH[self.search_api.value]
        name = (self.web_search_model or default).strip()
        name = name.removeprefix(f"{provider}:")
        research = self.model_spec("research")
        same = research["provider"] == provider
        return {"role": "web_search", "provider": provider, "model": name, "max_tokens": WEB_SEARCH_MAX_TOKENS,
                "base_url": research["base_url"] if same else None,
                "api_key_env": research["api_key_env"] if same else None,
                "timeout": self.request_timeout_s, "max_retries": self.max_retries,
                "azure_endpoint": None, "azure_api_version": None}

    def tool_models(self) -> dict[str, str]:
        """Models a run calls besides its roles and council, by setting: the web search
        model of search_api openai_web or anthropic_web. They meet the allow-list and the
        cost cap's prices like the others, and their calls are metered."""
        spec = self.web_search_spec()
        return {f"{spec['provider']}:{spec['model']}": "web_search_model"} if spec else {}

    def unpriced_note(self) -> str | None:
        """When some of the run's models have a price and others not (no cost cap refuses
        that), the cost shown would silently leave the unpriced calls out: this says so."""
        roles_of: dict[str, list[str]] = {}
        for role in ROLES:
            roles_of.setdefault(":".join(self.model_id(role)), []).append(role)
        second = self.judge_second_spec()
        if second:
            roles_of.setdefault(f"{second['provider']}:{second['model']}", []).append("judge_second")
        for model, setting in self.tool_models().items():  # the web search model
            roles_of.setdefault(model, []).append(setting.removesuffix("_model"))
        unpriced = {m: r for m, r in roles_of.items() if price_of(m.partition(":")[2], self.model_prices) is None}
        if not unpriced or len(unpriced) == len(roles_of):
            return None
        names = ", ".join(f"{m} ({', '.join(r + '_model' for r in roles)})" for m, roles in unpriced.items())
        its = "its" if len(unpriced) == 1 else "their"
        return (f"no price is known for {names}: the cost shown leaves {its} calls out; give {its} price with "
                f"model_prices to count {'it' if len(unpriced) == 1 else 'them'}")

    def limited(self, given: typing.Collection[str] = ()) -> Configuration:
        """The test_mode preset applied (small limits), or self. A value the run gave itself
        (``given``: setting names) that the preset lowers is listed in :attr:`clamped`, as a
        ceiling's is, so the user reads it (it was lowered without a word)."""
        if not self.test_mode:
            return self
        preset: dict[str, Any] = {
            "max_concurrent_research_units": min(self.max_concurrent_research_units, 2),
            "max_researcher_iterations": min(self.max_researcher_iterations, 2),
            "max_react_tool_calls": min(self.max_react_tool_calls, 3),
            "max_search_results": min(self.max_search_results, 3),
            "max_page_chars": min(self.max_page_chars, 8000),
            "allow_clarification": False,
        }
        out = self.model_copy(update=preset)
        out._clamped = [dict(c) for c in self._clamped]  # a copy's private list is its original's
        for name, value in preset.items():
            asked = getattr(self, name)
            if name not in given or asked == value:
                continue
            lowered = next((c for c in out._clamped if c["setting"] == name), None)
            if lowered is not None:  # lowered to a ceiling already: the one line says both
                lowered["message"] = (lowered["message"].removesuffix(f": this run uses {_show(asked)}")
                                      + f", and the test_mode preset's {_show(value)}: this run uses {_show(value)}")
                continue
            message = ("allow_clarification on is turned off by test_mode: this run asks no clarifying question"
                       if name == "allow_clarification" else
                       f"{name} {_show(asked)} is above the test_mode preset's {_show(value)}: this run uses "
                       f"{_show(value)}")
            out._clamped.append({"setting": name, "requested": asked, "ceiling": value, "message": message})
        return out

    @classmethod
    def env_overrides(cls, environ: dict[str, str] | None = None) -> dict[str, Any]:
        env = os.environ if environ is None else environ
        out: dict[str, Any] = {}
        for name in cls.model_fields:
            key = f"DEEP_RESEARCH_{name.upper()}"
            if key in env and env[key] != "":
                out[name] = env[key]  # text; dict settings (mcp_config) are JSON text, read by _json_object
        if "model_base_url" not in out and env.get("OPENAI_BASE_URL"):
            out["model_base_url"] = env["OPENAI_BASE_URL"]
        return out

    @staticmethod
    def _run_values(config: dict | None, context: Any) -> dict[str, Any]:
        """The values a run sets itself (context over configurable; on a LangGraph server,
        its context alone: :func:`server_run`)."""
        values: dict[str, Any] = {}
        configurable = {} if server_run(config, context) else (config or {}).get("configurable") or {}
        for name in Configuration.model_fields:
            if name in configurable and configurable[name] is not None:
                values[name] = configurable[name]
        if isinstance(context, BaseModel):
            for name in context.model_fields_set:
                if name in Configuration.model_fields:
                    values[name] = getattr(context, name)
        elif isinstance(context, dict):
            for name, v in context.items():
                if name in Configuration.model_fields and v is not None:
                    values[name] = v
        return values

    @classmethod
    def _merged(cls, base: dict[str, Any], run: dict[str, Any]) -> Configuration:
        """Run values over environment values, validated. A run's setting for every role
        (model, model_base_url, model_api_key_env) wins over a role's setting from the
        environment; a role's own run setting wins over both."""
        base = dict(base)
        for suffix, general in ROLE_SETTINGS.items():
            if general in run:
                for role in ROLES:
                    if f"{role}{suffix}" not in run:
                        base.pop(f"{role}{suffix}", None)
        try:
            return cls.model_validate({**base, **run})
        except ValidationError as e:
            raise UserError(f"invalid configuration: {_problems(e)}") from None

    @classmethod
    def resolve(cls, config: dict | None = None, context: Any = None,
                environ: dict[str, str] | None = None, *,
                above_ceiling: Literal["clamp", "refuse"] = "clamp",
                caller: Caller | None = None,
                layers: typing.Sequence[tuple[Caller, typing.Mapping[str, Any]]] = ()) -> Configuration:
        """Merge run values (context, configurable) over the environment over defaults.

        Who may set what is :mod:`.setting_policy`'s rule, enforced here for every path:
        ``caller`` says who set the run values (default: read from ``config``, see
        :meth:`Caller.of_config <.setting_policy.Caller.of_config>`; with
        ``above_ceiling="refuse"``, a run on the server); ``layers`` are further values
        over them, each with who set it (``eval run``: a question file's settings). A
        setting its source may not set is refused with :class:`UserError`.

        A run value above the environment's value of a :data:`CEILINGS` setting is lowered
        to it and listed in :attr:`clamped` (``above_ceiling="clamp"``, the graph and the
        CLI), or refused with :class:`UserError` (``"refuse"``, the server's auth handler).
        Refused in either case: a model outside ``DEEP_RESEARCH_ALLOWED_MODELS``, a model
        without a known price under a cost cap, and a run's own ``model_prices`` when the
        environment caps the cost."""
        from .setting_policy import Caller, Source, refusals, spends_more

        env = os.environ if environ is None else environ
        base = cls.env_overrides(env)
        try:
            server = cls.model_validate(base)
        except ValidationError as e:
            raise UserError("invalid configuration in the environment: "
                            + _problems(e, env=True)) from None
        if caller is None:
            caller = Caller(Source.RUN) if above_ceiling == "refuse" else Caller.of_config(config, env)
        if isinstance(context, dict):  # a misspelt setting was dropped without a word (no cap, another model)
            unknown = [k for k in context if k not in cls.model_fields]
            if unknown:
                raise UserError("unknown setting(s) in the run's context: " + "; ".join(map(_unknown, unknown)))
        run = cls._run_values(config, context)
        cfg = cls._merged(base, run)
        problems = refusals({n: getattr(cfg, n) for n in run}, caller, current=server, server=server, environ=env)
        for layer_caller, values in layers:
            unknown = sorted(set(values) - set(cls.model_fields))
            if unknown:
                raise UserError(f"{layer_caller.name}: unknown setting(s) {', '.join(unknown)}")
            values = {k: v for k, v in values.items() if v is not None}
            layered = cls._merged(base, {**run, **values})
            problems += refusals({n: getattr(layered, n) for n in values}, layer_caller, current=cfg,
                                 server=server, environ=env)
            run, cfg = {**run, **values}, layered
        if problems:
            raise UserError("; ".join(problems))
        clamped = []
        for name in CEILINGS:
            ceiling, asked = getattr(server, name), getattr(cfg, name)
            if name not in base or name not in run or not spends_more(name, asked, ceiling):
                continue
            what = f"{name} {_show(asked)}" if asked is not None else f"no limit on {name}"
            message = f"{what} is above the ceiling {_show(ceiling)} set by {_env_name(name)}"
            if above_ceiling == "refuse":
                raise UserError(f"{message}; ask for at most {_show(ceiling)}")
            clamped.append({"setting": name, "requested": asked, "ceiling": ceiling,
                            "message": f"{message}: this run uses {_show(ceiling)}"})
        if clamped:
            cfg = cfg.model_copy(update={c["setting"]: c["ceiling"] for c in clamped})
            cfg._clamped = clamped
        cfg._check_models(env)
        return cfg.limited(run)

    def _check_models(self, env: typing.Mapping[str, str]) -> None:
        allowed = [p.strip() for p in (env.get(ENV_ALLOWED_MODELS) or "").split(",") if p.strip()]
        for pattern in allowed:
            if ":" not in pattern:
                raise UserError(f"{ENV_ALLOWED_MODELS}: {pattern!r} is not a provider:model pattern "
                                "(e.g. openai:gpt-4.1*)")
        roles_of: dict[str, list[str]] = {}
        for role in ROLES:
            roles_of.setdefault(":".join(self.model_id(role)), []).append(role)
        for spec in self.extra_specs():  # the council's models and the second judge: allowed and priced too
            roles_of.setdefault(f"{spec['provider']}:{spec['model']}", []).append(spec["role"])
        for model, setting in self.tool_models().items():  # and the web search model
            roles_of.setdefault(model, []).append(setting.removesuffix("_model"))
        if allowed:
            refused = [m for m in roles_of if not any(fnmatchcase(m, p) for p in allowed)]
            if refused:
                raise UserError("; ".join(f"model {m} ({', '.join(r + '_model' for r in roles_of[m])}) is not "
                                          "allowed" for m in refused)
                                + f"; {ENV_ALLOWED_MODELS} allows only {', '.join(allowed)}")
        if self.max_cost_usd:
            unpriced = {m: r for m, r in roles_of.items() if price_of(m.partition(":")[2], self.model_prices) is None}
            if unpriced:
                names = [m.partition(":")[2] for m in unpriced]
                example = json.dumps({n: [1.0, 4.0] for n in names})
                raise UserError(
                    "the cost cap max_cost_usd cannot be enforced: no price is known for "
                    + ", ".join(f"{m} ({', '.join(r + '_model' for r in roles)})" for m, roles in unpriced.items())
                    + f". Give prices in USD per million input and output tokens with model_prices, e.g. "
                    f"{_env_name('model_prices')}='{example}', choose a priced model, or cap tokens "
                    "(max_total_tokens) instead of cost")


def server_run(config: typing.Mapping | None, context: Any) -> bool:
    """Whether a run's settings are its ``context`` alone: a run that langgraph-api made (its
    configurable names the run's assistant and graph) and that has a context. There the
    context is the run's own settings over its assistant's, and the configurable mirrors
    them, over the thread's config: that keeps the configurable of the assistants the thread
    ran with before, so a setting since dropped from the assistant, or set only by another
    assistant, came back into the run (langgraph-api 0.16.7, in-memory runtime, checked
    on `langgraph dev`: tests/server/test_settings.py)."""
    configurable = (config or {}).get("configurable") or {}
    return context is not None and "assistant_id" in configurable and "graph_id" in configurable


def without_settings(config: dict) -> dict:
    """``config`` with no setting in its configurable (LangGraph's own keys stay)."""
    configurable = config.get("configurable") or {}
    return {**config, "configurable": {k: v for k, v in configurable.items() if k not in Configuration.model_fields}}


def _describe_fields(model: type[BaseModel]) -> None:
    """Every setting's help text as its standard JSON-schema ``description`` too (Studio's
    knobs read ``x_oap_ui_config``; other clients and the API docs read ``description``)."""
    for field in model.model_fields.values():
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        text = (extra.get("x_oap_ui_config") or {}).get("description")
        if text and not field.description:
            field.description = text
    model.model_rebuild(force=True)


_describe_fields(Configuration)

"""One Configuration for a research run.

Values come from, in order of precedence:
1. the run itself: LangGraph Studio / SDK ``context`` or ``configurable`` (what the user set),
2. environment variables (``DEEP_RESEARCH_<FIELD>`` in upper case, plus the usual
   provider variables for URLs such as ``OPENAI_BASE_URL``),
3. the defaults below.
A value set in Studio is therefore never overridden by the environment.

API keys are never configuration values: a role names the *environment variable* that
holds its key (``*_api_key_env``), so keys stay out of state, checkpoints and logs.
"""

from __future__ import annotations

import json
import os
import typing
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, field_validator

from ..errors import UserError, remember_secret_env

ROLES = ("research", "summarization", "compression", "final_report", "citation_check")


class SearchAPI(StrEnum):
    TAVILY = "tavily"
    LOCAL = "local"
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


def _is_dict_field(annotation: Any) -> bool:
    return annotation is dict or dict in typing.get_args(annotation) or typing.get_origin(annotation) is dict


class Configuration(BaseModel):
    """Settings of a research run (rendered as knobs in LangGraph Studio)."""

    # --- scoping --------------------------------------------------------------------
    allow_clarification: bool = Field(
        True, json_schema_extra=_ui("boolean", "Ask the user one clarifying question when the request is ambiguous."))
    require_brief_approval: bool = Field(
        False, json_schema_extra=_ui("boolean", "Pause for a human to approve or reject the research brief."))
    max_brief_refinement_rounds: int = Field(
        3, ge=0, le=10, json_schema_extra=_ui("number", "How many times a rejected brief is rewritten.", min=0, max=10))
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
    max_search_results: int = Field(
        5, ge=1, le=20, json_schema_extra=_ui("number", "Results per search call.", min=1, max=20))
    max_page_chars: int = Field(
        40_000, ge=2_000, json_schema_extra=_ui("number", "Characters of a page shown to the summarisation model."))
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
    max_total_tokens: int | None = Field(
        None, ge=1000, json_schema_extra=_ui("number", "Stop research when the run has used this many tokens."))
    max_cost_usd: float | None = Field(
        None, gt=0, json_schema_extra=_ui("number", "Stop research at this estimated cost (models with known prices)."))

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
    request_timeout_s: float = Field(
        120.0, gt=0, le=3600, json_schema_extra=_ui("number", "Timeout of each model and search request (seconds)."))
    max_retries: int = Field(
        3, ge=0, le=10, json_schema_extra=_ui("number", "Retries of a failed model or search request."))
    retry_backoff_s: float = Field(
        1.0, ge=0, le=60, json_schema_extra=_ui("number", "First delay before a retry (seconds); doubles each time."))

    # --- output -----------------------------------------------------------------------
    output_dir: str = Field("docs/reports", json_schema_extra=_ui("text", "Where each run's report folder is written."))
    write_pdf: bool = Field(True, json_schema_extra=_ui("boolean", "Write the PDF next to the markdown."))
    test_mode: bool = Field(
        False, json_schema_extra=_ui("boolean", "Small limits for trying things out cheaply."))

    @field_validator("search_api", mode="before")
    @classmethod
    def _lower(cls, v: Any) -> Any:
        return v.lower() if isinstance(v, str) else v

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

    def limited(self) -> "Configuration":
        """The test_mode preset applied (small limits), or self."""
        if not self.test_mode:
            return self
        return self.model_copy(update={
            "max_concurrent_research_units": min(self.max_concurrent_research_units, 2),
            "max_researcher_iterations": min(self.max_researcher_iterations, 2),
            "max_react_tool_calls": min(self.max_react_tool_calls, 3),
            "max_search_results": min(self.max_search_results, 3),
            "max_page_chars": min(self.max_page_chars, 8000),
            "allow_clarification": False,
        })

    @classmethod
    def env_overrides(cls, environ: dict[str, str] | None = None) -> dict[str, Any]:
        env = os.environ if environ is None else environ
        out: dict[str, Any] = {}
        for name in cls.model_fields:
            key = f"DEEP_RESEARCH_{name.upper()}"
            if key in env and env[key] != "":
                out[name] = env[key]
                if _is_dict_field(cls.model_fields[name].annotation):
                    # dict settings (mcp_config) are JSON text in the environment
                    try:
                        out[name] = json.loads(env[key])
                    except json.JSONDecodeError as e:
                        raise UserError(f"{key} must be a JSON object ({e.msg} at character {e.pos})") from None
        if "model_base_url" not in out and env.get("OPENAI_BASE_URL"):
            out["model_base_url"] = env["OPENAI_BASE_URL"]
        return out

    @classmethod
    def resolve(cls, config: dict | None = None, context: Any = None,
                environ: dict[str, str] | None = None) -> "Configuration":
        """Merge run values (context, configurable) over the environment over defaults."""
        values = cls.env_overrides(environ)
        run: dict[str, Any] = {}
        configurable = (config or {}).get("configurable") or {}
        for name in cls.model_fields:
            if name in configurable and configurable[name] is not None:
                run[name] = configurable[name]
        if isinstance(context, BaseModel):
            for name in context.model_fields_set:
                if name in cls.model_fields:
                    run[name] = getattr(context, name)
        elif isinstance(context, dict):
            for name, v in context.items():
                if name in cls.model_fields and v is not None:
                    run[name] = v
        # A run's setting for every role (model, model_base_url, model_api_key_env) wins
        # over a role's setting from the environment; a role's own run setting wins over both.
        for suffix, general in ROLE_SETTINGS.items():
            if general in run:
                for role in ROLES:
                    if f"{role}{suffix}" not in run:
                        values.pop(f"{role}{suffix}", None)
        values.update(run)
        try:
            return cls.model_validate(values).limited()
        except ValidationError as e:
            problems = "; ".join(f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors())
            raise UserError(f"invalid configuration: {problems}") from None


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

"""Who may set the settings that reach the network, the file system, credentials or cost.

A setting can come from five sources:

* the **environment** (``DEEP_RESEARCH_<SETTING>``, the operator's or the user's own): it
  may set everything, and what it sets for a :data:`~.configuration.CEILINGS` setting is a
  ceiling for every other source;
* the **command line** (the user's own flags and ``--settings`` file, or a Python caller):
  it may set everything within the environment's ceilings and allowed models;
* a **run** on a LangGraph server (its ``context`` or ``configurable``) and
* an **assistant** a user creates on that server (its ``config`` or ``context``, applied to
  every run made with it): both may set the settings of :data:`RULES` only as their rule's
  ``remote`` says (:class:`May`);
* a **question file** of ``eval run`` (a question's ``"settings"``): a file someone else may
  have written. It may set what :data:`RULES` lacks (research knobs), only lower what
  costs, and nothing else unless the user names the setting with
  ``--allow-question-setting``.

:data:`RULES` is keyed by :class:`~.configuration.Configuration` field name; every field is
either in it or in :data:`HARMLESS` (a test keeps it so). :meth:`Configuration.resolve
<deep_research.research.runtime.configuration.Configuration.resolve>` enforces it for every path:
the server's auth handler (runs and assistants), the graph itself (whatever reached it:
an assistant made before a rule existed, a value the handler never saw) and ``eval run``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .configuration import CEILINGS, ROLES, ZERO_IS_OFF

ENV_ALLOW_RUN_SETTINGS = "DEEP_RESEARCH_AUTH_ALLOW_RUN_SETTINGS"
# What the server's auth handler (deep_research.server.auth) gives the users it admits
# (``permissions``; langgraph-api passes them to the graph as langgraph_auth_permissions).
ADMITTED = ("auth:token", "auth:jwt")
ADMITTED_LOCAL = "auth:local"  # `langgraph dev` without credentials: this machine's user


class Source(StrEnum):
    ENVIRONMENT = "the environment"
    COMMAND_LINE = "the command line"
    RUN = "a run"
    ASSISTANT = "an assistant"
    QUESTION_FILE = "a question file"


class Reach(StrEnum):
    NETWORK = "network"
    FILES = "files"
    CREDENTIALS = "credentials"
    COST = "cost"


class May(StrEnum):
    """What a source other than the environment and the command line may do."""

    SET = "set"  # any valid value (models: within DEEP_RESEARCH_ALLOWED_MODELS, for every source)
    LOWER = "lower"  # at most the value it would have otherwise (a server: the environment's ceiling)
    OPERATOR = "operator"  # only when the operator allows it (DEEP_RESEARCH_AUTH_ALLOW_RUN_SETTINGS)
    SERVER_VALUE = "server value"  # only the value the server's environment sets
    IF_SERVER_ALLOWS = "if the server allows"  # only when the server's environment turns it on
    NOT_UNDER_COST_CAP = "not under a cost cap"  # not while the environment caps the cost
    FLAG = "flag"  # a question file: only when the user names it (--allow-question-setting)


@dataclass(frozen=True)
class Rule:
    reach: tuple[Reach, ...]
    remote: May  # a run or an assistant on a server
    question: May  # a question file
    why: str


def _models(why: str) -> Rule:
    return Rule((Reach.COST,), May.SET, May.FLAG, why)


_ENDPOINT = Rule((Reach.NETWORK, Reach.CREDENTIALS), May.OPERATOR, May.FLAG,
                 "the server that receives the API key and every prompt")
_KEY_ENV = Rule((Reach.CREDENTIALS,), May.OPERATOR, May.FLAG,
                "which environment variable's secret is sent as the API key")
_AZURE_VERSION = Rule((Reach.NETWORK,), May.SET, May.FLAG, "part of the model endpoint")
_CEILING = Rule((Reach.COST,), May.LOWER, May.LOWER, "a larger value lets a run spend more")
_SAVING = Rule((Reach.COST,), May.SET, May.LOWER, "turning it off spends more tokens")

RULES: dict[str, Rule] = {
    **{name: _CEILING for name in CEILINGS},
    "model_base_url": _ENDPOINT,
    "azure_endpoint": _ENDPOINT,
    "model_api_key_env": _KEY_ENV,
    "azure_api_version": _AZURE_VERSION,
    **{f"{r}_model_base_url": _ENDPOINT for r in ROLES},
    **{f"{r}_azure_endpoint": _ENDPOINT for r in ROLES},
    **{f"{r}_model_api_key_env": _KEY_ENV for r in ROLES},
    **{f"{r}_azure_api_version": _AZURE_VERSION for r in ROLES},
    "corpus_path": Rule((Reach.FILES,), May.OPERATOR, May.FLAG, "a folder the research reads and quotes"),
    "output_dir": Rule((Reach.FILES,), May.OPERATOR, May.FLAG, "where report files are written"),
    "mcp_config": Rule((Reach.NETWORK, Reach.CREDENTIALS), May.OPERATOR, May.FLAG,
                       "an MCP server to call, with headers read from environment variables"),
    "searxng_url": Rule((Reach.NETWORK,), May.SERVER_VALUE, May.FLAG, "where every search query is sent"),
    "fetch_allow_private": Rule((Reach.NETWORK,), May.IF_SERVER_ALLOWS, May.FLAG,
                                "lets the page fetcher reach loopback, private and link-local addresses"),
    "fetch_respect_robots": Rule((Reach.NETWORK,), May.SET, May.FLAG, "whether robots.txt is obeyed"),
    "research_urls": Rule((Reach.NETWORK,), May.SET, May.FLAG, "pages fetched from this machine"),
    "search_api": Rule((Reach.NETWORK, Reach.CREDENTIALS, Reach.COST), May.SET, May.FLAG,
                       "which service receives the queries (and which key pays for them)"),
    "corpus_base_url": Rule((Reach.NETWORK,), May.SET, May.FLAG, "the host every local source links to"),
    "model_prices": Rule((Reach.COST,), May.NOT_UNDER_COST_CAP, May.FLAG, "what the cost cap counts"),
    "model": _models("the model (and price) of every role"),
    **{f"{r}_model": _models(f"the model (and price) of the {r} role") for r in ROLES},
    "brief_council_models": _models("more models, each called and paid for"),
    "web_search_model": _models("the model (and price) of search_api openai_web and anthropic_web"),
    "web_search_price_usd": Rule((Reach.COST,), May.NOT_UNDER_COST_CAP, May.FLAG,
                                 "what the cost cap counts for each web search"),
    "judge_second_model": _models("a second claim judge, called and paid for"),
    "trace_content": Rule((Reach.NETWORK,), May.SERVER_VALUE, May.FLAG,
                          "prompts, pages and answers sent to the trace collector"),
    "page_cache": _SAVING,
    "supervisor_summarize": _SAVING,
    "compression_summarize": _SAVING,
}

# Settings that reach nothing of the above: any source may set them.
HARMLESS = frozenset({
    "allow_clarification", "clarify_confidence_threshold", "require_brief_approval", "research_mode", "require_report_approval",
    "brief_search", "draft_search", "searxng_engines", "searxng_categories", "searxng_time_range",
    "searxng_safesearch", "searxng_language", "trusted_domains", "low_trust_domains",
    "min_source_credibility", "local_source_credibility", "structured_output", "mcp_prompt",
    "retry_backoff_s", "judge_claims", "verified_findings", "report_format", "system_prompt",
    "write_pdf", "write_docx", "citation_style", "test_mode",
})

OPERATOR_SETTINGS = frozenset(n for n, r in RULES.items() if r.remote is May.OPERATOR)

# Settings of the server process, not of a run: only the server's environment sets them (no
# run, assistant, question file or command line can), so they are not Configuration fields.
ENV_REPORT_STORE = "DEEP_RESEARCH_REPORT_STORE"
ENV_PUBLIC_URL = "DEEP_RESEARCH_PUBLIC_URL"
ENV_REPORT_MAX_BYTES = "DEEP_RESEARCH_REPORT_MAX_BYTES"
ENV_REPORT_LINK_SECRET = "DEEP_RESEARCH_REPORT_LINK_SECRET"
ENV_REPORT_LINK_DAYS = "DEEP_RESEARCH_REPORT_LINK_DAYS"
SERVER_ENV: dict[str, str] = {
    ENV_REPORT_STORE: "a postgresql:// URL where the server keeps report files for every replica (default: "
                      "the LangGraph server's own store); it holds every user's reports",
    ENV_PUBLIC_URL: "the server's address as users' browsers reach it, for the report links of the chat "
                    "(default: LANGGRAPH_API_URL, which `langgraph dev` sets)",
    ENV_REPORT_MAX_BYTES: "the largest report file the server keeps and serves (default 25 MB)",
    ENV_REPORT_LINK_SECRET: "a key (at least 32 bytes, the same on every replica) that signs the chat's report "
                            "links, so a browser opens them without a bearer token; unset: the links need the "
                            "caller's credentials",
    ENV_REPORT_LINK_DAYS: "how long a signed report link works (default 7 days)",
}
SAVINGS = frozenset(n for n, r in RULES.items() if r is _SAVING)


@dataclass(frozen=True)
class Caller:
    """Who set a layer of values. ``allows``: settings of :data:`RULES` this caller may
    set anyway (the operator's list for a run or an assistant; the user's
    ``--allow-question-setting`` names for a question file)."""

    source: Source
    allows: frozenset[str] = frozenset()
    where: str = ""  # how a message names the layer ("question q1", ...); default: the source

    @property
    def name(self) -> str:
        return self.where or str(self.source)

    @property
    def remote(self) -> bool:
        return self.source in (Source.RUN, Source.ASSISTANT)

    @classmethod
    def of_config(cls, config: Mapping | None, environ: Mapping[str, str]) -> Caller:
        """Who set a graph run's values. A LangGraph server names the user it admitted
        (``langgraph_auth_user_id``; callers cannot set it): the values come from a run and
        its assistant, and the operator's allowances apply to users the project's auth
        handler admitted. Otherwise they come from this process's own user (the command
        line, ``eval run``, a Python caller) or a server without any auth, which trusts
        everyone by design (docs/deployment.md)."""
        configurable = (config or {}).get("configurable") or {}
        if not configurable.get("langgraph_auth_user_id"):
            return cls(Source.COMMAND_LINE)
        permissions = configurable.get("langgraph_auth_permissions") or ()
        permissions = set(permissions) if isinstance(permissions, (list, tuple, set, frozenset)) else set()
        return cls(Source.RUN, remote_allowances(environ, admitted=bool(permissions & set(ADMITTED)),
                                                 local=ADMITTED_LOCAL in permissions),
                   where="a run (or its assistant)")


def operator_list(environ: Mapping[str, str]) -> frozenset[str]:
    """The settings ``DEEP_RESEARCH_AUTH_ALLOW_RUN_SETTINGS`` names (unchecked)."""
    return frozenset(s.strip() for s in (environ.get(ENV_ALLOW_RUN_SETTINGS) or "").split(",") if s.strip())


def remote_allowances(environ: Mapping[str, str], *, admitted: bool, local: bool = False) -> frozenset[str]:
    """The :data:`OPERATOR_SETTINGS` a server caller may set: all of them for the single
    local user of `langgraph dev` without credentials, the operator's list for a user the
    auth handler admitted, none for anyone else (e.g. langgraph-api's own Studio user)."""
    if local:
        return OPERATOR_SETTINGS
    return operator_list(environ) & OPERATOR_SETTINGS if admitted else frozenset()


def spends_more(name: str, asked: Any, limit: Any) -> bool:
    """Whether ``asked`` lets a run spend more than ``limit`` (a ceiling, or the value the run
    would have otherwise): None is no limit; 0 turns a saving off (:data:`ZERO_IS_OFF`);
    False turns a saving off (:data:`SAVINGS`)."""
    if name in SAVINGS:
        return bool(limit) and not asked
    if asked is None:
        return limit is not None
    if name in ZERO_IS_OFF and asked == 0 and limit != 0:
        return True
    return limit is not None and asked > limit


def _env_name(name: str) -> str:
    return f"DEEP_RESEARCH_{name.upper()}"


def refusals(values: Mapping[str, Any], caller: Caller, *, current: Any, server: Any,
             environ: Mapping[str, str]) -> list[str]:
    """What ``caller`` may not set among ``values`` (validated values), one message per
    setting; the ceilings of a run or an assistant are held by :meth:`Configuration.resolve`.

    ``current``: the configuration without these values (what a LOWER setting is compared
    with for a question file); ``server``: the configuration of the environment alone."""
    out: list[str] = []
    if caller.source is Source.ENVIRONMENT:
        return out
    for name, value in values.items():
        rule = RULES.get(name)
        if rule is None or name in caller.allows:
            continue
        if rule.remote is May.NOT_UNDER_COST_CAP and server.max_cost_usd and value != getattr(server, name):
            # every source but the environment: a cap the environment sets counts its own prices
            out.append(f"{name} cannot be set per run while {_env_name('max_cost_usd')} caps the cost; "
                       f"prices come from {_env_name(name)}")
            continue
        if caller.source is Source.COMMAND_LINE:
            continue
        may = rule.remote if caller.remote else rule.question
        if may is May.OPERATOR:
            out.append(f"{name} cannot be set by {caller.name}: it is fixed by the server ({rule.why}); its "
                       f"environment sets it ({_env_in_effect(name, environ)}), or its operator allows it per run with "
                       f"{ENV_ALLOW_RUN_SETTINGS}")
        elif may is May.SERVER_VALUE and _differs(name, value, server, environ):
            out.append(f"{name} cannot be set by {caller.name} on this server ({rule.why}); its environment "
                       f"sets it ({_env_in_effect(name, environ)})")
        elif may is May.IF_SERVER_ALLOWS and value and not getattr(server, name):
            out.append(f"{name} cannot be set by {caller.name} on this server ({rule.why}); the server's "
                       f"environment allows it ({_env_name(name)}=true)")
        elif may is May.FLAG and value != getattr(current, name):  # repeating your own value changes nothing
            out.append(f"{name} cannot be set by {caller.name} ({', '.join(rule.reach)}: {rule.why}); to let "
                       f"it, pass --allow-question-setting {name}")
        elif may is May.LOWER and caller.source is Source.QUESTION_FILE:
            mine = getattr(current, name)
            if spends_more(name, value, mine):
                out.append(f"{name} {_show(value)} cannot be set by {caller.name}: it may only lower your "
                           f"{_show(mine)} ({rule.why}); to let it, pass --allow-question-setting {name}")
    return out


def _differs(name: str, value: Any, server: Any, environ: Mapping[str, str]) -> bool:
    """Whether a SERVER_VALUE setting's value is not the server's: an empty value means "the
    server's" for a text setting; a switch (trace_content) must be the server's exactly, as
    it is process-wide (tracing.py)."""
    mine = getattr(server, name)
    if isinstance(value, bool):
        return value != bool(mine)
    return bool(value) and value != (mine or _provider_env(name, environ))


# The provider's own variable a server may set a setting with instead of DEEP_RESEARCH_...
_PROVIDER_VARS = {"searxng_url": "SEARXNG_URL", "model_base_url": "OPENAI_BASE_URL"}


def _provider_env(name: str, environ: Mapping[str, str]) -> str | None:
    """The value of the provider's own variable for ``name`` (SEARXNG_URL), if set."""
    var = _PROVIDER_VARS.get(name)
    return environ.get(var) if var else None


def _env_in_effect(name: str, environ: Mapping[str, str]) -> str:
    """The environment variable that sets ``name`` on this server: DEEP_RESEARCH_<NAME> when
    set, else the provider's own (OPENAI_BASE_URL, SEARXNG_URL) when that is, else both
    names (neither is set: either would)."""
    own, var = _env_name(name), _PROVIDER_VARS.get(name)
    if var is None or environ.get(own):
        return own
    return var if environ.get(var) else f"{own} or {var}"


def _show(value: Any) -> str:
    if value is None:
        return "no limit"
    if isinstance(value, bool):
        return "on" if value else "off"
    return f"{value:,.10g}" if isinstance(value, float) else f"{value:,}" if isinstance(value, int) else str(value)


PATH_SETTINGS = tuple(n for n, r in RULES.items() if Reach.FILES in r.reach)  # a folder of the machine


def server_paths(cfg: Any = None, environ: Mapping[str, str] | None = None) -> list[str]:
    """The folders a server's settings name (:data:`PATH_SETTINGS`: its corpus, its report
    folder), as the configuration ``cfg`` has them and as its environment gives them (a
    configuration that is not valid has none), each also expanded and resolved, and the
    settings file the environment names: what its chat users are not shown
    (errors.hide_paths)."""
    import os
    from pathlib import Path

    from ...env_file import ENV_FILE

    env = os.environ if environ is None else environ
    given = [getattr(cfg, n, None) for n in PATH_SETTINGS] + [env.get(_env_name(n)) for n in PATH_SETTINGS]
    given.append(env.get(ENV_FILE))
    out: list[str] = []
    for value in given:
        if isinstance(value, str) and value.strip() and value.strip().lower() != "none":
            path = Path(value).expanduser()
            out += [value, str(path), str(path.resolve())]
    return list(dict.fromkeys(out))


def for_server_users(text: str, cfg: Any = None, *, what: str = "error") -> str:
    """``text`` (an error a server's user is shown: a chat turn, a run's error, a refusal)
    with the server's paths hidden (errors.hide_paths with :func:`server_paths`) and a word
    saying the server's log names them; the full text goes to that log. ``text`` itself
    when it names no path."""
    import logging

    from ...errors import hide_paths

    shown = hide_paths(text, server_paths(cfg))
    if shown == text:
        return text
    logging.getLogger(__name__).error("%s (shown without its paths): %s", what, text)
    return shown + " (the server's log names the path)"

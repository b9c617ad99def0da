"""Preflight: the setup checked before the first model call, so a mistake costs nothing.

Checked: every role's model (and each brief council member's) can be built (provider known, its package installed, its
credentials present; a provider that is an optional extra names the command that installs
it, e.g. ``uv sync --extra anthropic``), the structured-output mode suits the providers, the
search backend is usable (Tavily key present; a local corpus exists, is indexed and holds
documents; a SearXNG instance answers one JSON query), the pages the user named
(research_urls) can be fetched (they are fetched now, and kept for the researchers), and the
MCP setting is well formed with its header variables set. Building a model client or opening
a corpus makes no model call.

All problems are reported at once, each naming the setting and the fix, as one
``UserError``: the CLI prints it and exits with code 2; in Studio it is the run's error
(and the thread's state says ``status: "failed"``, see failure.py).
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Mapping

from ...errors import UserError, mask_url_credentials
from ...search import CorpusError, SearchConfigError, SearchError
from ...search.fetch import FetchError, check_url
from ...search.local import on_indexing
from . import mcp
from .chat import progress_text, show_progress
from .deps import Deps, shared_fetcher
from .configuration import ROLES, Configuration
from .providers import OPENAI_PROVIDERS, ModelSetupError, provider_name


async def _model_problems(cfg: Configuration, deps: Deps) -> list[str]:
    grouped: dict[str, dict[str, str]] = {}  # problem -> {setting: model}: each problem said once
    for role in ROLES:
        try:
            await deps.model(cfg, role)
        except ModelSetupError as e:
            grouped.setdefault(e.problem, {})[e.setting] = e.value
        except UserError as e:
            grouped.setdefault(str(e), {})[f"{role}_model"] = ""
    for i in range(len(cfg.brief_council_models)):  # a council member's setup mistake too, before any cost
        try:
            await deps.model_for(cfg.council_spec(i))
        except ModelSetupError as e:
            grouped.setdefault(e.problem, {})[f"brief_council_models[{i + 1}]"] = e.value
        except UserError as e:
            grouped.setdefault(str(e), {})[f"brief_council_models[{i + 1}]"] = ""
    if (second := cfg.judge_second_spec()) is not None:  # the second claim judge's setup mistake too
        try:
            await deps.model_for(second)
        except ModelSetupError as e:
            grouped.setdefault(e.problem, {})["judge_second_model"] = e.value
        except UserError as e:
            grouped.setdefault(str(e), {})["judge_second_model"] = ""
    out = []
    for problem, settings in grouped.items():
        values = sorted({v for v in settings.values() if v})
        names = ", ".join(settings)
        if len(values) == 1:
            out.append(f"{names} = {values[0]}: {problem}")
        else:
            models = f" ({', '.join(values)})" if values else ""
            out.append(f"{names}{models}: {problem}")
    return out


async def _search_problems(cfg: Configuration, deps: Deps) -> list[str]:
    kind = cfg.search_api.value
    if kind == "local" and cfg.corpus_base_url:  # named as itself, not as the corpus it links
        from ...search.local import base_url_problem

        if problem := base_url_problem(cfg.corpus_base_url):
            return [f"corpus_base_url = {mask_url_credentials(cfg.corpus_base_url)}: {problem}"]
    try:
        backend = await deps.search(cfg)
    except (UserError, SearchConfigError) as e:
        return [str(e)]
    except CorpusError as e:
        return [f"corpus_path = {cfg.corpus_path}: {e}"]
    if kind == "local":
        count = getattr(backend, "document_count", None)
        if callable(count):
            try:
                n = await asyncio.to_thread(count)
            except CorpusError as e:
                return [f"corpus_path = {cfg.corpus_path}: {e}"]
            if n == 0:
                from ...search.local import DOCUMENT_TYPES

                return [(f"corpus_path = {cfg.corpus_path}: the corpus holds no documents ({DOCUMENT_TYPES} "
                         "files), so research would find nothing")]
    check = getattr(backend, "check", None)
    if kind == "searxng" and callable(check):
        try:
            await check()
        except SearchError as e:
            return [f"search_api 'searxng': {e}"]
    return []


async def _url_problems(cfg: Configuration) -> list[str]:
    """Every page of research_urls fetched now (kept in the fetcher for the researchers)."""
    urls = list(cfg.research_urls)
    if not urls:
        return []
    problems, good = [], []
    for url in urls:
        try:
            good.append(check_url(url))
        except FetchError as e:
            problems.append(f"research_urls: {e}")
    for page in await shared_fetcher(cfg).fetch_many(good):
        if isinstance(page, FetchError):
            problems.append(f"research_urls: {page}")
    return problems


def _mcp_problems(cfg: Configuration) -> list[str]:
    try:
        conf = mcp.validate(cfg.mcp_config)
    except UserError as e:
        return [str(e)]
    if cfg.mcp_prompt and not conf:
        return [f"mcp_prompt = {cfg.mcp_prompt}: needs mcp_config, the MCP server that has this prompt"]
    if not conf:
        return []
    headers = conf.get("headers_env") or {}
    if not isinstance(headers, dict):
        return ["mcp_config \"headers_env\" must map header names to environment variable names"]
    unset = sorted(str(v) for v in headers.values() if not os.environ.get(str(v)))
    if unset:
        return [f"mcp_config: the header variable(s) {', '.join(unset)} named in \"headers_env\" are not set"]
    return []


def _structured_output_problems(cfg: Configuration) -> list[str]:
    """``json_mode`` asks with OpenAI's response_format, which other providers reject."""
    if cfg.structured_output != "json_mode":
        return []
    others = {f"{r}_model": ":".join(cfg.model_id(r)) for r in ROLES
              if provider_name(cfg.model_id(r)[0]) not in OPENAI_PROVIDERS}
    if not others:
        return []
    return ["structured_output = json_mode works only with OpenAI-compatible models (openai:, azure_openai:), not "
            + ", ".join(f"{k} = {v}" for k, v in others.items())
            + "; use auto, tools, json_schema or prompt"]


async def problems(cfg: Configuration, deps: Deps) -> list[str]:
    return [*await _model_problems(cfg, deps), *_structured_output_problems(cfg), *await _search_problems(cfg, deps),
            *await _url_problems(cfg),
            *_mcp_problems(cfg)]


def named(problem: str, labels: Mapping[str, str] | None) -> str:
    """A problem with each setting of ``labels`` named as the user gave it (the command
    line's ``--url`` for ``research_urls``); settings not in ``labels`` keep their name.
    One option for several settings (``--model`` for every role's model) is said once."""
    if not labels:
        return problem
    words = "|".join(re.escape(k) for k in sorted(labels, key=len, reverse=True))
    text = re.sub(rf"(?<![\w-])({words})(?!\w)", lambda m: labels[m.group(1)], problem)
    return re.sub(r"(--[\w/-]+)(?:, \1)+(?![\w-])", r"\1", text)


async def preflight(cfg: Configuration, deps: Deps, labels: Mapping[str, str] | None = None) -> None:
    """Raise one UserError listing every setup problem, or return when the run can start.
    ``labels``: how the user named settings (setting -> option), for the messages."""
    found = [named(p, labels) for p in await problems(cfg, deps)]
    if len(found) == 1:
        raise UserError(f"the run cannot start: {found[0]}")
    if found:
        raise UserError("the run cannot start:\n" + "\n".join(f"- {p}" for p in found))


class PreflightNode:
    """The graph's first node: the checks above, before any model call of the run."""

    def __init__(self, deps: Deps):
        self.deps = deps

    async def __call__(self, state, config, runtime) -> dict:
        cfg = Configuration.resolve(config, getattr(runtime, "context", None))
        # opening a corpus brings its index up to date: minutes on a large new folder, said
        # when a file is read (a current index reads none: it was said at each new thread)
        with on_indexing(lambda: show_progress(config, progress_text({"stage": "index"}))):
            await preflight(cfg, self.deps)
        return {"stage": "preflight"}

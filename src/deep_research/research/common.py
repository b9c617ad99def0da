"""What every node needs: its configuration, models, search, the page store, progress
events, and a place to save notes when a run fails."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage, HumanMessage
from langgraph.config import get_stream_writer

from ..lru import LRU
from ..publish.files import inside, safe_name
from ..search.base import SearchBackend, SearchError, SearchResult
from ..search.fetch import FetchPolicy, PageFetcher
from .configuration import Configuration
from .models import (
    CURRENT_METER,
    Meter,
    ModelFactory,
    default_model_factory,
    describe,
    is_transient,
    message_text,
)
from .sources import PageStore, owner_of

log = logging.getLogger(__name__)


class ResearchFailed(RuntimeError):
    """A critical step failed for good. The run stops with this message; research gathered
    so far stays in the checkpoint (resume retries the step) and in notes.md.

    A ``RuntimeError`` so that the LangGraph API server shows its message (it hides the
    message of exception types that do not derive from a built-in one)."""

    def __init__(self, stage: str, message: str, notes_path: str | None = None):
        message = message.removeprefix(f"{stage}: ")  # a model error already names its node
        super().__init__(f"{stage}: {message}")
        self.stage = stage
        self.message = message
        self.notes_path = notes_path


def fetch_policy(cfg: Configuration) -> FetchPolicy:
    """The page fetcher's limits and address policy for a run's settings."""
    t = cfg.fetch_timeout_s
    return FetchPolicy(timeout_s=t, connect_timeout_s=min(10.0, t), read_timeout_s=min(20.0, t),
                       max_bytes=cfg.fetch_max_bytes, max_retries=min(cfg.max_retries, 3),
                       backoff_s=min(cfg.retry_backoff_s, 2.0) or 0.1, allow_private=cfg.fetch_allow_private,
                       respect_robots=cfg.fetch_respect_robots, robots_timeout_s=min(10.0, t))


MAX_FETCHERS = 8  # fetch policies kept (each with its connection pool, robots.txt and page cache)
_FETCHERS: LRU[FetchPolicy, PageFetcher] = LRU(MAX_FETCHERS)


def shared_fetcher(cfg: Configuration) -> PageFetcher:
    """One page fetcher per policy, shared by search backends and the run's given pages
    (its robots.txt and page caches serve them all)."""
    policy = fetch_policy(cfg)
    if policy not in _FETCHERS:
        _FETCHERS[policy] = PageFetcher(policy)
    return _FETCHERS[policy]


def searxng_options(cfg: Configuration) -> dict:
    return {"engines": cfg.searxng_engines, "categories": cfg.searxng_categories,
            "time_range": cfg.searxng_time_range, "safesearch": cfg.searxng_safesearch,
            "language": cfg.searxng_language}


def default_search_factory(cfg: Configuration) -> SearchBackend:
    import os

    from ..search import make_search

    if cfg.search_api.value == "openai_web":
        from .websearch import make_web_search

        return make_web_search(cfg, shared_fetcher(cfg))
    return make_search(
        cfg.search_api.value,
        corpus=cfg.corpus_path,
        tavily_api_key=os.environ.get("TAVILY_API_KEY"),
        base_url=cfg.corpus_base_url,
        timeout_s=cfg.request_timeout_s,
        max_retries=cfg.max_retries,
        fetcher=shared_fetcher(cfg),
        searxng_url=cfg.searxng_url or os.environ.get("SEARXNG_URL"),
        searxng=searxng_options(cfg),
    )


@dataclass
class Deps:
    """Replaceable collaborators: tests inject a scripted model and a local corpus here."""

    model_factory: ModelFactory = default_model_factory
    search_factory: Callable[[Configuration], SearchBackend] = default_search_factory
    today: Callable[[], dt.date] = dt.date.today
    _models: LRU = field(default_factory=lambda: LRU(32))  # model clients by spec
    _search: LRU = field(default_factory=lambda: LRU(16))  # search backends by setting

    # Building a client reads certificates and files, and opening a corpus touches its
    # index: done in a worker thread so the event loop (a LangGraph server's) never blocks.
    async def model(self, cfg: Configuration, role: str) -> BaseChatModel:
        return await self.model_for(cfg.model_spec(role))

    async def model_for(self, spec: dict) -> BaseChatModel:
        """The model of a spec (a role's, or a brief council member's), built once."""
        key = tuple(sorted((k, str(v)) for k, v in spec.items()))
        if key not in self._models:
            self._models[key] = await asyncio.to_thread(self.model_factory, spec)
        return self._models[key]

    async def search(self, cfg: Configuration) -> SearchBackend:
        key = (cfg.search_api.value, cfg.corpus_path, cfg.corpus_base_url, cfg.request_timeout_s,
               cfg.searxng_url, str(searxng_options(cfg)), fetch_policy(cfg), cfg.web_search_model,
               str(cfg.model_spec("research")) if cfg.search_api.value == "openai_web" else "")
        if key not in self._search:
            self._search[key] = await asyncio.to_thread(self.search_factory, cfg)
        return self._search[key]


@dataclass
class NodeContext:
    """Per-call context of a node."""

    name: str
    cfg: Configuration
    deps: Deps
    config: dict
    store: Any
    meter: Meter

    @classmethod
    def make(cls, name: str, deps: Deps, config: dict, runtime: Any) -> "NodeContext":
        cfg = Configuration.resolve(config, getattr(runtime, "context", None))
        store = getattr(runtime, "store", None)
        meter = Meter(name, timeout_s=cfg.request_timeout_s, max_retries=cfg.max_retries,
                      backoff_s=cfg.retry_backoff_s, prices=cfg.model_prices, fallback_price=cfg.fallback_price(),
                      structured_retries=cfg.structured_output_retries)
        return cls(name, cfg, deps, config, store, meter)

    async def model(self, role: str) -> BaseChatModel:
        return await self.deps.model(self.cfg, role)

    async def search(self) -> SearchBackend:
        return await self.deps.search(self.cfg)

    async def run_search(self, query: str, max_results: int) -> list[SearchResult]:
        """One search with an explicit timeout, transient failures retried with backoff
        (bounded; counted in this node's usage as retries). A backend that retries by
        itself (it has a ``max_retries`` setting, like Tavily) and enforces its own
        timeouts is called once, so retries do not multiply."""
        backend = await self.search()
        own_retries = isinstance(getattr(backend, "max_retries", None), int)
        retries = 0 if own_retries else self.cfg.max_retries
        attempt = 0
        while True:
            token = CURRENT_METER.set(self.meter)  # a backend's own model calls count for this node
            try:
                call = backend.search(query, max_results=max_results)
                if own_retries:
                    return list(await call)
                return list(await asyncio.wait_for(call, timeout=self.cfg.request_timeout_s))
            except Exception as e:  # classified below; the caller records what it gives up on
                transient = (e.transient if isinstance(e, SearchError) else is_transient(e))
                if not transient or attempt >= retries:
                    raise
                attempt += 1
                self.meter.usage.retries += 1
                delay = self.meter.backoff(attempt)
                log.warning("%s: search failed (%s); retry %d/%d in %.1fs", self.name, describe(e), attempt,
                            retries, delay)
                await asyncio.sleep(delay)
            finally:
                CURRENT_METER.reset(token)

    async def given_pages(self) -> list:
        """The pages the user named (research_urls), fetched (from the fetcher's cache when
        preflight fetched them): a FetchedPage or a FetchError for each."""
        if not self.cfg.research_urls:
            return []
        return await shared_fetcher(self.cfg).fetch_many(list(self.cfg.research_urls))

    @property
    def pages(self) -> PageStore:
        return PageStore(self.store, owner_of(self.config))

    @property
    def today(self) -> str:
        return self.deps.today().isoformat()

    def shortened(self, what: str, stage: str | None = None) -> list[dict]:
        """A degradation record when requests of this node were shortened to fit the model's
        context window (part of ``what`` was not seen by the model), else nothing."""
        n = self.meter.usage.shortened
        if not n:
            return []
        return [{"stage": stage or self.name, "kind": "shortened",
                 "message": f"{n} request(s) shortened to fit the model's context window: part of the "
                            f"{what} was left out"}]

    def usage_update(self) -> dict:
        return {"usage": {self.name: self.meter.usage.as_dict()}} if self.meter.usage.any() else {}

    def progress(self, **event: Any) -> None:
        try:
            get_stream_writer()({"node": self.name, **event})
        except Exception:  # noqa: BLE001 - no stream consumer: progress events are optional
            pass

    @property
    def checkpoint(self) -> str | None:
        return root_checkpoint(self.config)

    @property
    def thread_id(self) -> str:
        return str(((self.config or {}).get("configurable") or {}).get("thread_id") or "local")


REPORT_EXCERPT_CHARS = 3000


def conversation_text(messages: list[AnyMessage]) -> str:
    lines = []
    for m in messages:
        if getattr(m, "name", None) == "error":  # a failure notice for the user, not conversation
            continue
        who = "User" if isinstance(m, HumanMessage) else "Assistant"
        text = message_text(m)
        if getattr(m, "name", None) == "report" and len(text) > REPORT_EXCERPT_CHARS:
            # an earlier report in a follow-up conversation: its opening is enough context
            text = text[:REPORT_EXCERPT_CHARS] + "\n[... the rest of this earlier report is left out ...]"
        lines.append(f"{who}: {text}")
    return "\n".join(lines)


RUN_MARKER = ".run.json"  # in a run folder: the thread and checkpoint its report was published from


def run_dir(cfg: Configuration, state: dict, thread_id: str, checkpoint: str | None = None) -> Path:
    """The run's output folder: <output_dir>/<date>-<question slug>-<thread id>.

    A folder holds one report. When it already holds a report published from another
    checkpoint of the thread (a fork, or a follow-up asking the same question again), this
    run writes to <folder>-<checkpoint suffix> instead, so the earlier report is never
    overwritten; a retry of the same step (same checkpoint) keeps its folder."""
    out = Path(cfg.output_dir).expanduser()
    question = state.get("question") or "report"
    # The whole thread id: server thread ids (UUIDv7) share their leading digits for a minute.
    name = f"{dt.date.today().isoformat()}-{safe_name(question, max_len=50)}-{safe_name(thread_id, max_len=64)}"
    folder = inside(out, safe_name(name, max_len=140))
    if checkpoint and (folder / "report.md").exists():
        try:
            published_from = json.loads((folder / RUN_MARKER).read_text(encoding="utf-8")).get("checkpoint")
        except (OSError, ValueError, RecursionError, AttributeError):  # (not a JSON object)
            published_from = None  # no marker: a report of this lineage whose publish did not finish
        if published_from and published_from != checkpoint:
            folder = inside(out, safe_name(f"{name}-{safe_name(checkpoint[-12:])}", max_len=160))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def root_checkpoint(config: dict | None) -> str | None:
    """The id of the thread checkpoint the current step runs from (None without a checkpointer)."""
    conf = (config or {}).get("configurable") or {}
    return (conf.get("checkpoint_map") or {}).get("") or None


def notes_markdown(state: dict) -> tuple[str, str]:
    """notes.md (compressed findings per topic) and raw_notes.md (everything collected)."""
    parts = [f"# Research notes\n\nQuestion: {state.get('question', '')}\n"]
    if state.get("research_brief"):
        parts.append(f"## Research brief\n\n{state['research_brief']}\n")
    for n in state.get("prior_notes") or []:  # a follow-up: findings of the thread's earlier reports
        parts.append(f"## (earlier in this conversation) {n.get('topic', 'Findings')}\n\n{n.get('findings', '')}\n")
    for n in state.get("notes") or []:
        parts.append(f"## {n.get('topic', 'Findings')}\n\n{n.get('findings', '')}\n")
    if state.get("errors"):
        parts.append("## Errors\n\n" + "\n".join(f"- {e.get('stage')}: {e.get('message')}"
                                                 for e in state["errors"]) + "\n")
    raw = "# Raw research notes\n\n" + "\n\n---\n\n".join(state.get("raw_notes") or ["(none)"]) + "\n"
    return "\n".join(parts), raw


def run_record(cfg: Configuration, state: dict, thread_id: str) -> dict:
    """run.json: what a run was asked and planned, and what it used, for evaluation and
    comparison (``deep-research eval``). No keys or page contents."""
    import re

    notes = state.get("notes") or []
    plan = []
    for entry in state.get("research_log") or []:
        topic = entry.get("topic", "")
        cited = sorted({sid for n in notes if n.get("topic") == topic
                        for sid in re.findall(r'<ref id="([^"]+)"', n.get("findings") or "")})
        plan.append({"topic": topic, "ok": bool(entry.get("ok")), "citations": entry.get("citations", 0),
                     "sources": cited, **({"error": entry["error"]} if entry.get("error") else {})})
    return {
        "thread_id": thread_id,
        "question": state.get("question", ""),
        "research_brief": state.get("research_brief", ""),
        "brief_rounds": state.get("brief_rounds"),
        **({"brief_council": state["brief_council"]} if state.get("brief_council") else {}),
        "research_mode": state.get("research_mode_used") or None,  # single | multi: the path research took
        **({"complexity": state["complexity"]} if state.get("complexity") else {}),
        "research_plan": state.get("research_plan") or {},
        "coverage": state.get("coverage") or {},
        "plan": plan,
        "research_iterations": state.get("research_iterations"),
        "sources_found": len(state.get("sources") or {}),
        "usage": state.get("usage") or {},
        "models": {role: ":".join(cfg.model_id(role)) for role in
                   ("research", "summarization", "compression", "final_report", "citation_check")},
        "search_api": cfg.search_api.value,
        "budget_exhausted": bool(state.get("budget_exhausted")),
        "errors": state.get("errors") or [],
        "degradations": state.get("degradations") or [],
    }


async def asave_notes(cfg: Configuration, state: dict, thread_id: str, checkpoint: str | None = None) -> Path | None:
    return await asyncio.to_thread(save_notes, cfg, state, thread_id, checkpoint)


def save_notes(cfg: Configuration, state: dict, thread_id: str, checkpoint: str | None = None) -> Path | None:
    """Write notes.md and raw_notes.md; returns the notes path (None if that failed too)."""
    from ..publish import write_atomic

    try:
        folder = run_dir(cfg, state, thread_id, checkpoint)
        notes, raw = notes_markdown(state)
        write_atomic(folder / "notes.md", notes)
        write_atomic(folder / "raw_notes.md", raw)
        return folder / "notes.md"
    except Exception as e:  # noqa: BLE001 - reported by the caller's error, not hidden
        log.error("could not save notes: %s", e)
        return None

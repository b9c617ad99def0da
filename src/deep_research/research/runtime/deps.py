"""What every node needs: its configuration, models, search (and the shared page fetcher),
the page store and progress events."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langgraph.config import get_stream_writer

from ...lru import LRU
from ...search.base import SearchBackend, SearchError, SearchResult
from ...search.fetch import FetchPolicy, PageFetcher
from . import tracing
from .chat import progress_text, show_progress
from .configuration import Configuration
from .meter import CURRENT_METER, Meter, describe, is_transient
from .providers import ModelFactory, default_model_factory
from .run_folder import root_checkpoint
from .sources import PageStore, owner_of, without_credentials
from .usage import total_cost, total_tokens

log = logging.getLogger(__name__)


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

    from ...search import make_search

    if cfg.web_search_spec() is not None:  # openai_web, anthropic_web
        from ..gather.web_search import make_web_search

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

    @staticmethod
    def _search_key(cfg: Configuration) -> tuple:
        return (cfg.search_api.value, cfg.corpus_path, cfg.corpus_base_url, cfg.request_timeout_s,
                cfg.searxng_url, str(searxng_options(cfg)), fetch_policy(cfg), str(cfg.web_search_spec()),
                cfg.web_search_price_usd, cfg.max_retries, cfg.retry_backoff_s)

    async def search(self, cfg: Configuration) -> SearchBackend:
        key = self._search_key(cfg)
        if key not in self._search:
            self._search[key] = await asyncio.to_thread(self.search_factory, cfg)
        return self._search[key]


def run_spent(state: Mapping[str, Any]) -> tuple[int, float]:
    """Tokens and estimated USD the run used so far, read from the main graph's state."""
    return total_tokens(state.get("usage")), total_cost(state.get("usage"))


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
    def make(cls, name: str, deps: Deps, config: dict, runtime: Any, *, spent: tuple[int, float] | None = None,
             share: tuple[int | None, float | None] | None = None) -> "NodeContext":
        """The node's context. ``spent``: what the run used so far (tokens, USD), so the meter
        makes no call that would pass the run's caps; ``share``: what a research unit may
        still use instead (None: no cap)."""
        cfg = Configuration.resolve(config, getattr(runtime, "context", None))
        store = getattr(runtime, "store", None)
        meter = Meter(name, timeout_s=cfg.request_timeout_s, max_retries=cfg.max_retries,
                      backoff_s=cfg.retry_backoff_s, prices=cfg.model_prices, fallback_price=cfg.fallback_price(),
                      structured_retries=cfg.structured_output_retries)
        if share is not None:
            meter.token_limit, meter.cost_limit = share
        elif spent is not None:
            meter.token_limit = max(cfg.max_total_tokens - spent[0], 0) if cfg.max_total_tokens else None
            meter.cost_limit = max(cfg.max_cost_usd - spent[1], 0.0) if cfg.max_cost_usd else None
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
        name = getattr(backend, "name", type(backend).__name__)
        with tracing.span(f"search {name}", {
                "deep_research.search.backend": name, "deep_research.node": self.name,
                "langgraph.thread_id": self.thread_id,
                "deep_research.search.query": query if tracing.content_allowed() else None,
                "deep_research.search.query_chars": len(query), "deep_research.search.max_results": max_results,
        }) as current:
            # credentials in a result's URL are never kept nor shown (sources.without_credentials)
            results = [without_credentials(r) for r in await self._run_search(backend, query, max_results)]
            tracing.set_attributes(current, {
                "deep_research.search.results": len(results),
                "deep_research.search.empty": sum(1 for r in results if not (r.content or "").strip())})
            return results

    async def _run_search(self, backend: SearchBackend, query: str, max_results: int) -> list[SearchResult]:
        own_retries = isinstance(getattr(backend, "max_retries", None), int)
        retries = 0 if own_retries else self.cfg.max_retries
        attempt = 0
        last_said = None  # what the last retry's warning said of its error
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
                said = describe(e)  # an error body is said once, not again on every retry
                log.warning("%s: search failed (%s); retry %d/%d in %.1fs", self.name,
                            "the same error again" if said == last_said else said, attempt, retries, delay)
                last_said = said
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

    def progress(self, **event: Any) -> AIMessage | None:
        """A progress event for the ``custom`` stream (the CLI shows them) and, for the
        few a chat shows, a progress line in the chat (chat.py; returned, else None)."""
        try:
            get_stream_writer()({"node": self.name, **event})
        except Exception:  # noqa: BLE001 - no stream consumer: progress events are optional
            pass
        return show_progress(self.config, progress_text(event, self.cfg))

    @property
    def checkpoint(self) -> str | None:
        return root_checkpoint(self.config)

    @property
    def thread_id(self) -> str:
        return str(((self.config or {}).get("configurable") or {}).get("thread_id") or "local")


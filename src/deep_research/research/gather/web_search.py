"""Native provider web search: OpenAI's Responses API with its ``web_search`` tool
(``search_api=openai_web``) and Anthropic's server-side web search tool
(``search_api=anthropic_web``, ``web_search_20250305`` on the Messages API).

The model searches the web and answers with URL citations (OpenAI: ``url_citation``
annotations and the ``sources`` of its ``web_search_call`` items; Anthropic: the
``web_search_result_location`` citations of its text and the results of its
``web_search_tool_result`` blocks). Its answer text, and Anthropic's ``cited_text``
snippets and encrypted page content, are a model's or a search engine's account of a page,
so they are never cited: the pages those URLs name are fetched and extracted with the
shared page fetcher (:mod:`deep_research.search.fetch`, SSRF-safe) and become ordinary
sources, verified like any other. A URL that cannot be fetched is returned empty with the
reason in ``skipped``.

The model is ``web_search_model`` (:meth:`Configuration.web_search_spec`: the research
role's endpoint and key when it is of the same provider), which meets the allow-list and
the cost cap's prices like the run's other models (:meth:`Configuration.tool_models`).
Each call's tokens are counted for the node that searched, and so is each search request
the provider bills (``web_search_price_usd`` each): OpenAI's through
:func:`..runtime.meter.record_model_call`, Anthropic's through the node's
:class:`..runtime.meter.Meter` (the call itself goes through ``Meter.invoke``: its timeout,
retries and prices).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any
from urllib.parse import urlsplit

from langchain_core.messages import HumanMessage

from ...search.base import SearchConfigError, SearchError, SearchResult
from ...search.fetch import FetchError, PageFetcher
from ...terminal import printable
from ..runtime.meter import CURRENT_METER, Meter, ModelCallError, record_model_call
from ..runtime.usage import estimate_tokens

log = logging.getLogger(__name__)


class ResponsesWebSearch:
    """:class:`~deep_research.search.base.SearchBackend` over the Responses API web_search tool."""

    name = "openai_web"

    def __init__(self, model: str, *, fetcher: PageFetcher, base_url: str | None = None,
                 api_key: str | None = None, timeout_s: float = 120, max_retries: int = 2,
                 fetch_concurrency: int = 4, client: Any = None, search_price_usd: float = 0.0):
        from openai import AsyncOpenAI

        self.model = model
        self.fetcher = fetcher
        self.search_price_usd = search_price_usd
        self.timeout_s = timeout_s
        self.max_retries = max_retries  # the openai client retries 429/5xx/connection errors itself
        self.fetch_concurrency = fetch_concurrency
        self._client = client or AsyncOpenAI(base_url=base_url, api_key=api_key or "not-needed",
                                             timeout=timeout_s, max_retries=max_retries)

    async def search(self, query: str, *, max_results: int = 5) -> list[SearchResult]:
        query = query.strip()
        if not query or max_results <= 0:
            return []
        import openai

        started = time.perf_counter()
        try:
            response = await asyncio.wait_for(self._client.responses.create(
                model=self.model, input=query, tools=[{"type": "web_search"}],
                include=["web_search_call.action.sources"]), timeout=self.timeout_s * (self.max_retries + 1))
        except asyncio.TimeoutError:
            raise SearchError(f"web search ({self.model}) did not answer in time", transient=True) from None
        except openai.APIStatusError as e:
            status = e.status_code
            raise SearchError(f"web search ({self.model}) failed: HTTP {status}: {printable(str(e))[:200]}",
                              transient=status == 429 or status >= 500) from None
        except openai.APIError as e:  # connection errors, timeouts
            raise SearchError(f"web search ({self.model}) failed: {type(e).__name__}", transient=True) from None
        answer = _as_dict(response)
        _meter(self.model, query, answer, time.perf_counter() - started, self.search_price_usd)
        return await fetch_named(self.fetcher, cited_urls(answer)[:max_results], self.fetch_concurrency)


async def fetch_named(fetcher: PageFetcher, found: list[tuple[str, str]], concurrency: int) -> list[SearchResult]:
    """The pages a web search named, fetched by the shared (SSRF-safe) fetcher: their text
    is the only content; a page that cannot be fetched is returned empty, with the reason."""
    if not found:
        return []
    pages = await fetcher.fetch_many([u for u, _ in found], concurrency=concurrency)
    results = []
    for (url, title), page in zip(found, pages):
        if isinstance(page, FetchError):
            results.append(SearchResult(url, title or url, "", None, skipped=f"{page.reason}: {page.detail}"))
        else:
            results.append(page.as_result(title=title))
    return results


def responses_searches(answer: dict) -> int:
    """Search requests a Responses API answer made (each ``web_search_call`` whose action is
    a search is billed; opening or finding in a page is not)."""
    n = 0
    for item in answer.get("output") or []:
        if isinstance(item, dict) and item.get("type") == "web_search_call":
            action = item.get("action") if isinstance(item.get("action"), dict) else {}
            n += action.get("type", "search") == "search"
    return n


def _meter(model: str, query: str, answer: dict, seconds: float, search_price_usd: float = 0.0) -> None:
    """The call's tokens (and cost) counted for the node that searched, as any model call's:
    as the answer reports them, else estimated from the query and the answer's text; and its
    search requests, at ``search_price_usd`` each."""
    usage = answer.get("usage") if isinstance(answer.get("usage"), dict) else {}
    inp, out = _count(usage.get("input_tokens")), _count(usage.get("output_tokens"))
    estimated = not (inp or out)
    if estimated:
        text = " ".join(str(p.get("text") or "") for item in answer.get("output") or [] if isinstance(item, dict)
                        for p in item.get("content") or [] if isinstance(p, dict))
        inp, out = estimate_tokens([HumanMessage(query)]), max(1, len(text) // 4)
    record_model_call(model, inp, out, seconds, estimated=estimated, searches=responses_searches(answer),
                      search_price_usd=search_price_usd)


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _as_dict(response: Any) -> dict:
    dump = getattr(response, "model_dump", None)
    return dump() if callable(dump) else dict(response or {})


class NamedPages(list):
    """(url, title) pairs a web search answer names, in the order added, once each; only
    http(s) URLs are taken."""

    def add(self, url: Any, title: Any = "") -> None:
        url = str(url or "").strip()
        if urlsplit(url).scheme in ("http", "https") and all(url != u for u, _ in self):
            self.append((url, str(title or "").strip()))


def cited_urls(response: dict) -> list[tuple[str, str]]:
    """(url, title) of the pages a Responses API answer cites, in order, once each:
    ``url_citation`` annotations first, then the web_search_call sources."""
    out = NamedPages()
    add = out.add

    items = response.get("output") or []
    for item in items:
        if isinstance(item, dict) and item.get("type") == "message":
            for part in item.get("content") or []:
                for ann in (part or {}).get("annotations") or []:
                    if isinstance(ann, dict) and ann.get("type") == "url_citation":
                        add(ann.get("url"), ann.get("title"))
    for item in items:
        if isinstance(item, dict) and item.get("type") == "web_search_call":
            for src in ((item.get("action") or {}).get("sources") or []):
                if isinstance(src, dict):
                    add(src.get("url"), src.get("title"))
    return list(out)


# --- Anthropic's server-side web search tool ---------------------------------------------------------
ANTHROPIC_TOOL = "web_search_20250305"  # every model with web search; the 2026 versions add code-run filtering
ANTHROPIC_PROMPT = ("Search the web once for pages that answer this query, then name the pages that answer it "
                    "best, citing them. Query: {query}")
# Error codes of a web_search_tool_result that a later try may not meet (the rest are the query's fault).
ANTHROPIC_TRANSIENT = ("unavailable", "too_many_requests")


class AnthropicWebSearch:
    """:class:`~deep_research.search.base.SearchBackend` over Anthropic's web search tool.

    One search request per query (``max_uses`` 1): the model is called through the node's
    meter (:data:`..runtime.meter.CURRENT_METER`; its timeout, retries and token prices), the
    billed searches are charged ``search_price_usd`` each, and the pages it names are fetched."""

    name = "anthropic_web"

    def __init__(self, model: Any, *, model_name: str, fetcher: PageFetcher, timeout_s: float = 120,
                 max_retries: int = 2, backoff_s: float = 1.0, search_price_usd: float = 0.0,
                 fetch_concurrency: int = 4, max_uses: int = 1):
        self.model = model  # a ChatAnthropic (langchain-anthropic), built like a role's model
        self.model_name = model_name
        self.fetcher = fetcher
        self.timeout_s = timeout_s
        # the meter retries transient failures itself: NodeContext.run_search calls once
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.search_price_usd = search_price_usd
        self.fetch_concurrency = fetch_concurrency
        self.max_uses = max_uses

    async def search(self, query: str, *, max_results: int = 5) -> list[SearchResult]:
        query = query.strip()
        if not query or max_results <= 0:
            return []
        meter = CURRENT_METER.get() or Meter("web_search", timeout_s=self.timeout_s, max_retries=self.max_retries,
                                             backoff_s=self.backoff_s)
        bound = self.model.bind_tools([{"type": ANTHROPIC_TOOL, "name": "web_search", "max_uses": self.max_uses}])
        try:
            reply = await meter.invoke(bound, [HumanMessage(ANTHROPIC_PROMPT.format(query=query))])
        except ModelCallError as e:
            raise SearchError(f"web search ({self.model_name}) failed: {printable(str(e))[:300]}",
                              transient=e.transient) from None
        blocks = [b for b in reply.content if isinstance(b, dict)] if isinstance(reply.content, list) else []
        meta = reply.response_metadata if isinstance(reply.response_metadata, dict) else {}
        meter.record_searches(anthropic_searches(blocks, meta), self.search_price_usd)
        found = anthropic_named_urls(blocks)
        if not found:
            errors = anthropic_errors(blocks)
            if errors:
                raise SearchError(f"web search ({self.model_name}) failed: {', '.join(errors)}",
                                  transient=any(e in ANTHROPIC_TRANSIENT for e in errors))
            return []
        return await fetch_named(self.fetcher, found[:max_results], self.fetch_concurrency)


def _result_content(block: dict) -> Any:
    return block.get("content") if block.get("type") == "web_search_tool_result" else None


def anthropic_errors(blocks: list[dict]) -> list[str]:
    """The error codes of the answer's web_search_tool_result blocks, once each."""
    codes = []
    for b in blocks:
        content = _result_content(b)
        if isinstance(content, dict) and content.get("type") == "web_search_tool_result_error":
            codes.append(str(content.get("error_code") or "unknown"))
    return list(dict.fromkeys(codes))


def anthropic_searches(blocks: list[dict], response_metadata: dict) -> int:
    """Search requests billed for one answer: ``usage.server_tool_use.web_search_requests``
    when the answer reports it (langchain-anthropic keeps the API's usage in the message's
    response metadata), else the web_search_tool_result blocks that hold results (a failed
    search is not billed; a streamed answer may carry no such usage)."""
    usage = response_metadata.get("usage")
    server = (usage.get("server_tool_use") if isinstance(usage, dict) else None) or {}
    reported = server.get("web_search_requests") if isinstance(server, dict) else None
    if isinstance(reported, int) and not isinstance(reported, bool) and reported >= 0:
        return reported
    return sum(1 for b in blocks if isinstance(_result_content(b), list))


def anthropic_named_urls(blocks: list[dict]) -> list[tuple[str, str]]:
    """(url, title) of the pages an Anthropic web search answer names, in order, once each:
    the pages its text cites first, then the search results in the engine's order. Only
    http(s) URLs; the cited text and the encrypted contents are never used."""
    out = NamedPages()
    add = out.add

    for b in blocks:
        if b.get("type") == "text":
            for c in b.get("citations") or []:
                if isinstance(c, dict) and c.get("type") == "web_search_result_location":
                    add(c.get("url"), c.get("title"))
    for b in blocks:
        content = _result_content(b)
        if isinstance(content, list):
            for r in content:
                if isinstance(r, dict) and r.get("type") == "web_search_result":
                    add(r.get("url"), r.get("title"))
    return list(out)


def make_web_search(cfg: Any, fetcher: PageFetcher) -> ResponsesWebSearch | AnthropicWebSearch:
    """The backend for search_api openai_web or anthropic_web (Configuration.web_search_spec)."""
    spec = cfg.web_search_spec()
    if spec["provider"] == "anthropic":
        from ..runtime.providers import ModelSetupError, default_model_factory

        try:
            model = default_model_factory(spec)
        except ModelSetupError as e:
            raise SearchConfigError(f"search_api 'anthropic_web': {e}") from None
        return AnthropicWebSearch(model, model_name=spec["model"], fetcher=fetcher, timeout_s=cfg.request_timeout_s,
                                  max_retries=min(cfg.max_retries, 3), backoff_s=cfg.retry_backoff_s,
                                  search_price_usd=cfg.web_search_price_usd)
    research = cfg.model_spec("research")
    if research["provider"] != "openai":
        raise SearchConfigError("search_api 'openai_web' needs an OpenAI (or Responses-API compatible) research "
                                f"model endpoint; the research model's provider is {research['provider']!r}")
    key = os.environ.get(spec["api_key_env"]) if spec.get("api_key_env") else os.environ.get("OPENAI_API_KEY")
    if not key and not spec.get("base_url"):
        raise SearchConfigError("search_api 'openai_web' needs OPENAI_API_KEY (or model_base_url with "
                                "model_api_key_env)")
    return ResponsesWebSearch(spec["model"], fetcher=fetcher, base_url=spec.get("base_url"),
                              api_key=key, timeout_s=cfg.request_timeout_s, max_retries=min(cfg.max_retries, 3),
                              search_price_usd=cfg.web_search_price_usd)

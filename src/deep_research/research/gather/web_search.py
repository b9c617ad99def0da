"""Native provider web search: OpenAI's Responses API with its ``web_search`` tool.

The model searches the web and answers with URL citations (``url_citation`` annotations,
and the ``sources`` of its ``web_search_call`` items when the server lists them). Its answer
text is a model's paraphrase, so it is never cited: the pages those URLs name are fetched
and extracted with the shared page fetcher (:mod:`deep_research.search.fetch`) and become
ordinary sources, verified like any other. A URL that cannot be fetched is returned empty
with the reason in ``skipped``.

The client uses the research role's endpoint and key (``model_base_url``/
``research_model_base_url``, ``*_api_key_env``); ``web_search_model`` names the model,
which meets the allow-list and the cost cap's prices like the run's other models
(:meth:`Configuration.tool_models`), and each call's tokens are counted for the node that
searched (:func:`..runtime.meter.record_model_call`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any
from urllib.parse import urlsplit

from langchain_core.messages import HumanMessage

from ...search.base import SearchError, SearchResult
from ...search.fetch import FetchError, PageFetcher
from ...terminal import printable
from ..runtime.meter import record_model_call
from ..runtime.usage import estimate_tokens

log = logging.getLogger(__name__)


class ResponsesWebSearch:
    """:class:`~deep_research.search.base.SearchBackend` over the Responses API web_search tool."""

    name = "openai_web"

    def __init__(self, model: str, *, fetcher: PageFetcher, base_url: str | None = None,
                 api_key: str | None = None, timeout_s: float = 120, max_retries: int = 2,
                 fetch_concurrency: int = 4, client: Any = None):
        from openai import AsyncOpenAI

        self.model = model
        self.fetcher = fetcher
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
        _meter(self.model, query, answer, time.perf_counter() - started)
        found = cited_urls(answer)[:max_results]
        if not found:
            return []
        pages = await self.fetcher.fetch_many([u for u, _ in found], concurrency=self.fetch_concurrency)
        results = []
        for (url, title), page in zip(found, pages):
            if isinstance(page, FetchError):
                results.append(SearchResult(url, title or url, "", None, skipped=f"{page.reason}: {page.detail}"))
            else:
                results.append(page.as_result(title=title))
        return results


def _meter(model: str, query: str, answer: dict, seconds: float) -> None:
    """The call's tokens (and cost) counted for the node that searched, as any model call's:
    as the answer reports them, else estimated from the query and the answer's text."""
    usage = answer.get("usage") if isinstance(answer.get("usage"), dict) else {}
    inp, out = _count(usage.get("input_tokens")), _count(usage.get("output_tokens"))
    estimated = not (inp or out)
    if estimated:
        text = " ".join(str(p.get("text") or "") for item in answer.get("output") or [] if isinstance(item, dict)
                        for p in item.get("content") or [] if isinstance(p, dict))
        inp, out = estimate_tokens([HumanMessage(query)]), max(1, len(text) // 4)
    record_model_call(model, inp, out, seconds, estimated=estimated)


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _as_dict(response: Any) -> dict:
    dump = getattr(response, "model_dump", None)
    return dump() if callable(dump) else dict(response or {})


def cited_urls(response: dict) -> list[tuple[str, str]]:
    """(url, title) of the pages a Responses API answer cites, in order, once each:
    ``url_citation`` annotations first, then the web_search_call sources."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()

    def add(url: Any, title: Any = "") -> None:
        url = str(url or "").strip()
        if urlsplit(url).scheme in ("http", "https") and url not in seen:
            seen.add(url)
            out.append((url, str(title or "").strip()))

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
    return out


def make_web_search(cfg: Any, fetcher: PageFetcher) -> ResponsesWebSearch:
    """The backend for search_api=openai_web, on the research role's endpoint and key."""
    spec = cfg.model_spec("research")
    if spec["provider"] != "openai":
        from ...search.base import SearchConfigError

        raise SearchConfigError("search_api 'openai_web' needs an OpenAI (or Responses-API compatible) research "
                                f"model endpoint; the research model's provider is {spec['provider']!r}")
    key = os.environ.get(spec["api_key_env"]) if spec.get("api_key_env") else os.environ.get("OPENAI_API_KEY")
    if not key and not spec.get("base_url"):
        from ...search.base import SearchConfigError

        raise SearchConfigError("search_api 'openai_web' needs OPENAI_API_KEY (or model_base_url with "
                                "model_api_key_env)")
    return ResponsesWebSearch(cfg.web_search_model, fetcher=fetcher, base_url=spec.get("base_url"),
                              api_key=key, timeout_s=cfg.request_timeout_s, max_retries=min(cfg.max_retries, 3))

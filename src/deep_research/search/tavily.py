"""Web search with Tavily, keeping the full text of every page found.

Tavily returns, per result, a short ``content`` excerpt and (when asked) the page's
``raw_content`` as markdown. Citations are checked against a page's full text, so:

* With ``include_raw_content=True`` (the default) ``content`` is the raw page markdown
  (format ``markdown``) and Tavily's excerpt becomes the ``snippet``. A result that comes
  back without raw content (Tavily could not fetch the page) is fetched with the shared
  page fetcher (:mod:`.fetch`; a few at a time, within the search's timeout) when one is
  given, so that it can be cited; when it cannot be fetched, or without a fetcher, it is
  returned empty with the reason in ``skipped`` (no fetcher: left out, logged): its excerpt
  is not the page, and may join separate passages.
* With ``include_raw_content=False`` every result keeps Tavily's excerpt as ``content``
  and is marked ``partial=True``.

Every call has a timeout (passed to the client and enforced with ``asyncio.wait_for``).
Transient failures (timeouts, HTTP 429 and 5xx, connection errors) are retried up to
``max_retries`` times with exponential backoff and jitter; other failures raise
:class:`~.base.SearchError` with ``transient=False`` at once. Error messages never
contain the API key.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..terminal import printable
from .base import SearchConfigError, SearchError, SearchResult, backoff_delay
from .fetch import FetchError, PageFetcher

log = logging.getLogger(__name__)

MAX_RESULTS_LIMIT = 20  # the most results Tavily returns per search
_MESSAGE_CHARS = 300


class TavilySearch:
    """:class:`~.base.SearchBackend` over Tavily's search API.

    ``client`` replaces the ``tavily.AsyncTavilyClient`` (tests pass a fake); it needs an
    ``async search(query, **options) -> dict`` method. ``backoff_s`` is the first retry
    delay, doubled on each retry up to ``max_backoff_s``, with jitter.
    """

    name = "tavily"

    def __init__(
        self,
        api_key: str | None,
        *,
        timeout_s: float = 30,
        max_retries: int = 2,
        topic: str = "general",
        include_raw_content: bool = True,
        search_depth: str = "basic",
        client: Any = None,
        backoff_s: float = 1.0,
        max_backoff_s: float = 20.0,
        fetcher: PageFetcher | None = None,
        fetch_concurrency: int = 4,
    ):
        if not api_key and client is None:
            # Without a key the tavily client silently switches to its limited keyless mode.
            raise SearchConfigError("Tavily search needs an API key: set TAVILY_API_KEY")
        if timeout_s <= 0 or max_retries < 0:
            raise ValueError("timeout_s must be positive and max_retries at least 0")
        self._api_key = api_key or ""
        self._client = client
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.topic = topic
        self.include_raw_content = include_raw_content
        self.search_depth = search_depth
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.fetcher = fetcher
        self.fetch_concurrency = fetch_concurrency

    def _get_client(self) -> Any:
        # Created on first use so that its HTTP connection pool belongs to the running loop.
        if self._client is None:
            from tavily import AsyncTavilyClient

            self._client = AsyncTavilyClient(api_key=self._api_key)
        return self._client

    async def aclose(self) -> None:
        close = getattr(self._client, "close", None)
        if close is not None:
            await close()

    async def search(self, query: str, *, max_results: int = 5) -> list[SearchResult]:
        """Pages matching ``query``, each with its full text (see the module docstring)."""
        query = query.strip()
        if not query or max_results <= 0:
            return []
        response = await self._search_with_retries(query, min(max_results, MAX_RESULTS_LIMIT))
        results = self._results(response)
        missing = [i for i, r in enumerate(results) if r.skipped]
        if missing and self.fetcher is not None:
            await self._fetch_missing(results, missing)
        return [r for r in results if self.fetcher is not None or not r.skipped]

    async def _fetch_missing(self, results: list[SearchResult], missing: list[int]) -> None:
        """Fetch the pages Tavily gave no text for, in place; failures keep ``skipped``."""
        urls = [results[i].url for i in missing]
        try:
            pages = await asyncio.wait_for(
                self.fetcher.fetch_many(urls, concurrency=self.fetch_concurrency), timeout=self.timeout_s)
        except asyncio.TimeoutError:
            for i in missing:
                results[i].skipped = f"no page text from Tavily, and fetching it took over {self.timeout_s:g} s"
            return
        for i, page in zip(missing, pages):
            old = results[i]
            if isinstance(page, FetchError):
                old.skipped = f"no page text from Tavily, and fetching it failed: {page.reason}: {page.detail}"
                log.warning("%s", printable(old.skipped))
            else:
                results[i] = page.as_result(snippet=old.snippet, score=old.score, title=old.title)

    async def _search_with_retries(self, query: str, max_results: int) -> dict:
        attempts = self.max_retries + 1
        for attempt in range(attempts):
            try:
                return await self._search_once(query, max_results)
            except SearchError as e:
                if not e.transient:
                    raise
                if attempt + 1 == attempts:
                    raise SearchError(
                        f"Tavily search failed after {attempts} attempt(s): {e}", transient=True
                    ) from None
                delay = self.backoff_delay(attempt)
                log.warning("Tavily search failed (%s); retrying in %.1fs", e, delay)
                await asyncio.sleep(delay)
        raise AssertionError("unreachable")

    def backoff_delay(self, attempt: int) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (see base.backoff_delay)."""
        return backoff_delay(attempt, self.backoff_s, self.max_backoff_s)

    async def _search_once(self, query: str, max_results: int) -> dict:
        try:
            call = self._get_client().search(
                query,
                search_depth=self.search_depth,
                topic=self.topic,
                max_results=max_results,
                include_raw_content="markdown" if self.include_raw_content else False,
                timeout=self.timeout_s,
            )
            response = await asyncio.wait_for(call, timeout=self.timeout_s)
        except Exception as e:  # noqa: BLE001 - every failure becomes a SearchError
            raise self._as_search_error(e) from None
        if not isinstance(response, dict) or not isinstance(response.get("results", []), list):
            raise SearchError("Tavily returned a response of an unexpected shape", transient=True)
        return response

    def _as_search_error(self, e: Exception) -> SearchError:
        transient, what = classify_error(e)
        detail = self._scrub(str(e))
        return SearchError(f"{what}: {detail}" if detail else what, transient=transient)

    def _scrub(self, text: str) -> str:
        if self._api_key:
            text = text.replace(self._api_key, "[API key]")
        text = " ".join(text.split())
        return text if len(text) <= _MESSAGE_CHARS else text[:_MESSAGE_CHARS] + "\u2026"

    def _results(self, response: dict) -> list[SearchResult]:
        results = []
        for item in response.get("results") or []:
            result = self._result(item) if isinstance(item, dict) else None
            if result is not None:
                results.append(result)
        return results

    def _result(self, item: dict) -> SearchResult | None:
        url = str(item.get("url") or "").strip()
        if not url:
            return None
        title = str(item.get("title") or "").strip() or url
        excerpt = str(item.get("content") or "")
        raw = str(item.get("raw_content") or "")
        score = item.get("score")
        score = float(score) if isinstance(score, (int, float)) else None
        published = item.get("published_date")
        metadata = {"published_date": published.strip()} if isinstance(published, str) and published.strip() else {}
        if not self.include_raw_content:
            return SearchResult(url, title, excerpt, "markdown", excerpt, score, partial=True, metadata=metadata)
        if not raw.strip():
            if self.fetcher is None:
                log.warning("Tavily returned no page text for %s; result left out", printable(url))
            return SearchResult(url, title, "", None, excerpt, score, skipped="no page text from Tavily",
                                metadata=metadata)
        return SearchResult(url, title, raw, "markdown", excerpt, score, metadata=metadata)


def classify_error(e: BaseException) -> tuple[bool, str]:
    """(transient?, what happened) for an exception from the tavily client or httpx."""
    import httpx
    from tavily import errors as te

    if isinstance(e, (asyncio.TimeoutError, te.TimeoutError, httpx.TimeoutException)):
        return True, "Tavily did not answer in time"
    if isinstance(e, te.UsageLimitExceededError):
        return True, "Tavily rate limit reached (HTTP 429)"
    if isinstance(e, (te.InvalidAPIKeyError, te.MissingAPIKeyError)):
        return False, "Tavily rejected the API key (HTTP 401); check TAVILY_API_KEY"
    if isinstance(e, te.ForbiddenError):
        return False, "Tavily refused the request (HTTP 403/432/433: plan/usage limit or key)"
    if isinstance(e, te.BadRequestError):
        return False, "Tavily rejected the request as invalid (HTTP 400)"
    if isinstance(e, httpx.HTTPStatusError):
        status = e.response.status_code
        return status >= 500, f"Tavily answered HTTP {status}"
    if isinstance(e, httpx.TransportError):
        return True, f"cannot reach Tavily ({type(e).__name__})"
    if isinstance(e, ValueError):  # a 200 answer whose body is not JSON
        return True, "Tavily returned an unreadable response"
    return False, f"Tavily search failed ({type(e).__name__})"

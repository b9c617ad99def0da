"""Web search through a SearXNG instance (a self-hosted metasearch engine).

SearXNG's JSON API (``GET {url}/search?q=...&format=json``) gives, per result, the URL, a
title and a short snippet. The snippet is not the page, and may join separate passages, so
it is never cited: every result's page is fetched and its main text extracted with the
shared :class:`~.fetch.PageFetcher` (SSRF-safe, robots.txt honoured, size-limited). A page
that cannot be fetched is returned with empty ``content`` and ``skipped`` saying why; the
researcher reports it as skipped.

Errors name the instance and the fix: HTTP 403 on ``format=json`` is SearXNG's answer
when its settings.yml does not list ``json`` in ``search.formats`` (the default), a
connection failure or timeout names the URL, and an answer that is not JSON says so. The
instance itself is the user's (often on localhost): it is reached with a plain client, not
through the page fetcher's address policy.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from typing import Any
from urllib.parse import urlsplit

import httpx

from ..errors import mask_url_credentials
from ..terminal import printable
from .base import SearchConfigError, SearchError, SearchResult, backoff_delay
from .fetch import FetchError, PageFetcher
from .http_body import ACCEPT_ENCODING, BodyError, read_limited

log = logging.getLogger(__name__)

TIME_RANGES = ("day", "week", "month", "year")
FETCH_CONCURRENCY = 4
_MAX_ANSWER_BYTES = 5_000_000
JSON_HINT = "enable the JSON API in the instance's settings.yml:  search:  formats: [html, json]  and restart it"


def check_instance_url(url: str | None) -> str:
    """The instance's base URL without a trailing slash (or ``/search``); SearchConfigError if unusable."""
    text = (url or "").strip()
    if not text:
        raise SearchConfigError(
            "search_api 'searxng' needs the instance's URL: set searxng_url (CLI: --searxng-url URL, or the "
            "SEARXNG_URL environment variable), e.g. http://localhost:8888")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SearchConfigError(f"searxng_url = {printable(mask_url_credentials(text))}: not an http:// or https:// "
                                "URL")
    text = text.rstrip("/")
    return text.removesuffix("/search")


class SearxngSearch:
    """:class:`~.base.SearchBackend` over a SearXNG instance's JSON API."""

    name = "searxng"

    def __init__(self, base_url: str, *, fetcher: PageFetcher, engines: list[str] | None = None,
                 categories: list[str] | None = None, time_range: str | None = None,
                 safesearch: int | None = None, language: str | None = None, timeout_s: float = 30,
                 max_retries: int = 2, backoff_s: float = 1.0, max_backoff_s: float = 10.0,
                 fetch_concurrency: int = FETCH_CONCURRENCY):
        self.base_url = check_instance_url(base_url)
        if time_range is not None and time_range not in TIME_RANGES:
            raise SearchConfigError(f"searxng_time_range must be one of {', '.join(TIME_RANGES)} or none")
        if safesearch is not None and safesearch not in (0, 1, 2):
            raise SearchConfigError("searxng_safesearch must be 0, 1 or 2")
        if timeout_s <= 0 or max_retries < 0:
            raise ValueError("timeout_s must be positive and max_retries at least 0")
        self.fetcher = fetcher
        self.engines = list(engines or [])
        self.categories = list(categories or [])
        self.time_range = time_range
        self.safesearch = safesearch
        self.language = language
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.fetch_concurrency = fetch_concurrency

    def params(self, query: str) -> dict[str, Any]:
        params: dict[str, Any] = {"q": query, "format": "json"}
        if self.engines:
            params["engines"] = ",".join(self.engines)
        if self.categories:
            params["categories"] = ",".join(self.categories)
        if self.time_range:
            params["time_range"] = self.time_range
        if self.safesearch is not None:
            params["safesearch"] = self.safesearch
        if self.language:
            params["language"] = self.language
        return params

    async def check(self) -> None:
        """One query, so that a wrong URL or a disabled JSON API is reported before a run."""
        await self._query("deep-research preflight", retries=0)

    async def search(self, query: str, *, max_results: int = 5) -> list[SearchResult]:
        query = query.strip()
        if not query or max_results <= 0:
            return []
        answer = await self._query(query, retries=self.max_retries)
        hits = _hits(answer, max_results)
        pages = await self.fetcher.fetch_many([h["url"] for h in hits], concurrency=self.fetch_concurrency)
        results = []
        for hit, page in zip(hits, pages):
            if isinstance(page, FetchError):
                log.warning("SearXNG result not fetched: %s", printable(str(page)))
                results.append(SearchResult(hit["url"], hit["title"] or hit["url"], "", None, hit["snippet"],
                                            hit["score"], skipped=f"{page.reason}: {page.detail}"))
            else:
                results.append(page.as_result(snippet=hit["snippet"], score=hit["score"], title=hit["title"]))
        return results

    async def _query(self, query: str, *, retries: int) -> dict:
        for attempt in range(retries + 1):
            try:
                return await self._query_once(query)
            except SearchError as e:
                if not e.transient or attempt == retries:
                    if e.transient and retries:
                        raise SearchError(f"{e} (after {retries + 1} attempts)", transient=True) from None
                    raise
                delay = backoff_delay(attempt, self.backoff_s, self.max_backoff_s)
                log.warning("SearXNG search failed (%s); retrying in %.1fs", e, delay)
                await asyncio.sleep(delay)
        raise AssertionError("unreachable")

    async def _query_once(self, query: str) -> dict:
        where = f"SearXNG at {printable(mask_url_credentials(self.base_url))}"  # no password in a message
        timeout = httpx.Timeout(self.timeout_s, connect=min(10.0, self.timeout_s))
        try:
            async with asyncio.timeout(self.timeout_s), httpx.AsyncClient(
                    timeout=timeout, trust_env=False, follow_redirects=True, max_redirects=3,
                    headers={"Accept": "application/json", "Accept-Encoding": ACCEPT_ENCODING}) as client, \
                    client.stream("GET", self.base_url + "/search", params=self.params(query)) as r:
                status = r.status_code
                body, cut = (await read_limited(r, _MAX_ANSWER_BYTES)) if status == 200 else (b"", False)
                ctype = r.headers.get("content-type", "no content type")
        except (TimeoutError, httpx.TimeoutException):
            raise SearchError(f"{where} did not answer within {self.timeout_s:g} s", transient=True) from None
        except BodyError as e:
            raise SearchError(f"{where} sent an answer that cannot be read: {e}") from None
        except httpx.TransportError as e:
            raise SearchError(f"cannot reach {where} ({type(e).__name__}): is it running, and is searxng_url "
                              "(SEARXNG_URL) its address?", transient=True) from None
        except httpx.HTTPError as e:  # e.g. a redirect to an invalid URL
            raise SearchError(f"{where} sent an answer that cannot be read ({type(e).__name__}: "
                              f"{printable(str(e))[:200]})") from None
        if status == 403:
            raise SearchError(f"{where} refused format=json (HTTP 403): its JSON API is disabled; {JSON_HINT}")
        if status == 429:
            raise SearchError(f"{where} is rate limiting (HTTP 429); its limiter (settings.yml server.limiter) "
                              "may need to be off for API use", transient=True)
        if status >= 500:
            raise SearchError(f"{where} answered HTTP {status}", transient=True)
        if status != 200:
            raise SearchError(f"{where} answered HTTP {status} (is searxng_url the instance's address?)")
        if cut:
            raise SearchError(f"{where} sent an answer larger than {_MAX_ANSWER_BYTES:,} bytes")
        try:
            answer = json.loads(body)
        except RecursionError:
            raise SearchError(f"{where} answered with JSON nested too deeply to read") from None
        except ValueError:
            raise SearchError(f"{where} answered with something that is not JSON ({printable(ctype)}); is "
                              f"searxng_url the instance's address, and is json in its search.formats? "
                              f"({JSON_HINT})") from None
        if not isinstance(answer, dict) or not isinstance(answer.get("results"), list):
            raise SearchError(f"{where} answered JSON without a results list; is it a SearXNG instance?")
        bad = answer.get("unresponsive_engines") or []
        if bad:
            log.info("SearXNG engines that did not answer: %s", printable(str(bad)[:300]))
        return answer


def _hits(answer: dict, max_results: int) -> list[dict]:
    """The first ``max_results`` results with an http(s) URL, one per URL."""
    hits, seen = [], set()
    for item in answer.get("results") or []:
        if not isinstance(item, dict):
            continue
        url = item.get("url").strip() if isinstance(item.get("url"), str) else ""
        if _scheme(url) not in ("http", "https") or url in seen:
            continue
        seen.add(url)
        hits.append({"url": url, "title": _text(item.get("title")), "snippet": _text(item.get("content")),
                     "score": _score(item.get("score"))})
        if len(hits) >= max_results:
            break
    return hits


def _scheme(url: str) -> str:
    try:
        return urlsplit(url).scheme.lower()
    except ValueError:  # e.g. "http://[::1": the fetcher would refuse it anyway
        return ""


def _text(value) -> str:
    """A result's title or snippet: text only (an instance answers what it likes), one line."""
    return " ".join(value.split())[:2000] if isinstance(value, str) else ""


def _score(value) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        score = float(value)
    except OverflowError:  # an integer beyond any float
        return None
    return score if math.isfinite(score) else None

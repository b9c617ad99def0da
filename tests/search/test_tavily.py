"""Tavily search without the network: a fake client, or the real client over a mock transport."""

from __future__ import annotations

import asyncio
import json
import logging
import time

import httpx
import pytest
from tavily import AsyncTavilyClient
from tavily.errors import (
    BadRequestError,
    ForbiddenError,
    InvalidAPIKeyError,
    UsageLimitExceededError,
)

from deep_research.search import SearchConfigError, SearchError, TavilySearch

KEY = "tvly-SECRET-1234567890"
PAGE = "# Solar\n\nPhotovoltaic panels **convert** sunlight into [electricity](https://e.x/).\n"


def tavily_result(
    url: str, raw: str | None = PAGE, content: str = "Panels convert sunlight."
) -> dict:
    return {
        "url": url,
        "title": f"Title of {url}",
        "content": content,
        "score": 0.8,
        "raw_content": raw,
    }


class FakeClient:
    """Plays a script: each call returns the next response or raises the next exception."""

    def __init__(self, *script, delay: float = 0.0):
        self.script = list(script)
        self.delay = delay
        self.calls: list[dict] = []

    async def search(self, query: str, **options) -> dict:
        self.calls.append({"query": query, **options})
        if self.delay:
            await asyncio.sleep(self.delay)
        step = self.script.pop(0) if len(self.script) > 1 else self.script[0]
        if isinstance(step, BaseException):
            raise step
        return step


def http_error(status: int) -> httpx.HTTPStatusError:
    request = httpx.Request("POST", "https://api.tavily.com/search")
    return httpx.HTTPStatusError(
        f"Server error '{status}'",
        request=request,
        response=httpx.Response(status, request=request),
    )


def tavily(client, **kwargs) -> TavilySearch:
    kwargs.setdefault("backoff_s", 0.001)
    return TavilySearch(KEY, client=client, **kwargs)


def run(backend: TavilySearch, query: str = "solar power", n: int = 5):
    return asyncio.run(backend.search(query, max_results=n))


# --- results ------------------------------------------------------------------------------------
def test_full_raw_content_is_kept_as_markdown() -> None:
    client = FakeClient({"results": [tavily_result("https://a.example/solar")]})
    (result,) = run(tavily(client))
    assert result.url == "https://a.example/solar"
    assert result.title == "Title of https://a.example/solar"
    assert (result.content, result.format) == (PAGE, "markdown")
    assert result.snippet == "Panels convert sunlight."
    assert (result.score, result.partial) == (0.8, False)


def test_the_request_asks_for_markdown_with_a_timeout() -> None:
    client = FakeClient({"results": []})
    assert run(tavily(client, timeout_s=12, topic="news"), "  query  ", n=50) == []
    (call,) = client.calls
    assert call["query"] == "query"
    assert call["include_raw_content"] == "markdown"
    assert call["timeout"] == 12 and call["topic"] == "news"
    assert call["max_results"] == 20  # Tavily's maximum


def test_results_without_page_text_are_left_out_with_a_warning(caplog) -> None:
    client = FakeClient(
        {
            "results": [
                tavily_result("https://a.example/none", raw=None),
                tavily_result("https://a.example/blank", raw="  \n"),
                {"title": "no url", "raw_content": PAGE},
                tavily_result("https://a.example/ok"),
            ]
        }
    )
    with caplog.at_level(logging.WARNING, logger="deep_research.search.tavily"):
        results = run(tavily(client))
    assert [r.url for r in results] == ["https://a.example/ok"]
    messages = " ".join(r.getMessage() for r in caplog.records)
    assert "https://a.example/none" in messages and "https://a.example/blank" in messages


def test_without_raw_content_results_are_marked_partial() -> None:
    client = FakeClient({"results": [tavily_result("https://a.example/x", raw=None)]})
    (result,) = run(tavily(client, include_raw_content=False))
    assert client.calls[0]["include_raw_content"] is False
    assert (result.content, result.partial) == ("Panels convert sunlight.", True)


def test_empty_query_makes_no_call() -> None:
    client = FakeClient({"results": []})
    assert run(tavily(client), "   ") == []
    assert client.calls == []


# --- retries ------------------------------------------------------------------------------------
def test_transient_errors_are_retried() -> None:
    ok = {"results": [tavily_result("https://a.example/solar")]}
    client = FakeClient(
        UsageLimitExceededError("slow down"), http_error(503), httpx.ConnectError("refused"), ok
    )
    results = run(tavily(client, max_retries=3))
    assert len(client.calls) == 4
    assert results[0].content == PAGE


def test_retries_are_bounded() -> None:
    client = FakeClient(http_error(502))
    with pytest.raises(SearchError) as e:
        run(tavily(client, max_retries=2))
    assert len(client.calls) == 3
    assert e.value.transient
    assert "3 attempt" in str(e.value) and "HTTP 502" in str(e.value)


def test_backoff_grows_exponentially_with_jitter() -> None:
    backend = TavilySearch(KEY, client=FakeClient({}), backoff_s=1.0, max_backoff_s=5.0)
    for attempt, full in [(0, 1.0), (1, 2.0), (2, 4.0), (3, 5.0), (9, 5.0)]:
        delays = {backend.backoff_delay(attempt) for _ in range(50)}
        assert all(full / 2 <= d <= full for d in delays)
        assert len(delays) > 1  # jittered


def test_a_slow_call_times_out_and_is_retried() -> None:
    client = FakeClient({"results": []}, delay=5.0)
    start = time.monotonic()
    with pytest.raises(SearchError, match="in time") as e:
        run(tavily(client, timeout_s=0.05, max_retries=1))
    assert time.monotonic() - start < 2
    assert e.value.transient and len(client.calls) == 2


@pytest.mark.parametrize(
    "error, expected",
    [
        (InvalidAPIKeyError(f"Unauthorized: invalid key {KEY}"), "API key"),
        (BadRequestError("query is too long"), "invalid"),
        (ForbiddenError("plan limit exceeded"), "refused"),
        (http_error(404), "HTTP 404"),
        (RuntimeError(f"boom {KEY}"), "RuntimeError"),
    ],
)
def test_permanent_errors_fail_at_once_without_the_key(error, expected) -> None:
    client = FakeClient(error)
    with pytest.raises(SearchError) as e:
        run(tavily(client, max_retries=3))
    assert len(client.calls) == 1
    assert not e.value.transient
    assert expected in str(e.value)
    assert KEY not in str(e.value) and KEY not in repr(e.value)
    assert e.value.__cause__ is None and e.value.__suppress_context__


def test_an_api_key_is_required() -> None:
    with pytest.raises(SearchConfigError, match="TAVILY_API_KEY"):
        TavilySearch("")
    with pytest.raises(SearchConfigError):
        TavilySearch(None)


# --- the real tavily client, over a mock HTTP transport -------------------------------------
def real_client(handler) -> AsyncTavilyClient:
    http = httpx.AsyncClient(
        transport=httpx.MockTransport(handler), base_url="https://api.tavily.com"
    )
    return AsyncTavilyClient(api_key=KEY, client=http)


def test_real_client_request_and_response() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"results": [tavily_result("https://a.example/solar")]})

    (result,) = run(tavily(real_client(handler)))
    body = json.loads(seen[0].content)
    assert body["include_raw_content"] == "markdown" and body["query"] == "solar power"
    assert seen[0].headers["authorization"] == f"Bearer {KEY}"
    assert result.content == PAGE


@pytest.mark.parametrize(
    "status, transient, calls",
    [(401, False, 1), (400, False, 1), (432, False, 1), (429, True, 3), (500, True, 3)],
)
def test_real_client_errors(status: int, transient: bool, calls: int) -> None:
    seen: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(1)
        return httpx.Response(status, json={"detail": {"error": f"nope for {KEY}"}})

    with pytest.raises(SearchError) as e:
        run(tavily(real_client(handler), max_retries=2))
    assert (e.value.transient, len(seen)) == (transient, calls)
    assert KEY not in str(e.value)


def test_real_client_connection_error_is_transient() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    with pytest.raises(SearchError, match="cannot reach Tavily") as e:
        run(tavily(real_client(handler), max_retries=1))
    assert e.value.transient


# --- results without page text: fetched with the shared page fetcher ---------------------------
def test_results_without_page_text_are_fetched_so_they_can_be_cited() -> None:
    from deep_research.search.fetch import FetchPolicy, PageFetcher
    from tests.support.webserver import WebServer

    with WebServer() as srv:
        srv.page("/solar.html", "<html><head><title>Solar page</title></head><body><article><h1>Solar</h1>"
                                "<p>Photovoltaic panels convert sunlight directly into electricity.</p>"
                                "</article></body></html>")
        srv.page("/gone.html", "gone", "text/plain", status=410)
        client = FakeClient({"results": [tavily_result(srv.url("/solar.html"), raw=None),
                                         tavily_result(srv.url("/gone.html"), raw=None),
                                         tavily_result("https://a.example/ok")]})
        fetcher = PageFetcher(FetchPolicy(allow_private=True, max_retries=0))
        results = run(tavily(client, fetcher=fetcher))
    solar, gone, ok = results
    assert "Photovoltaic panels convert sunlight directly into electricity." in solar.content
    assert solar.format == "text" and solar.title == "Solar page" and not solar.skipped
    assert solar.snippet == "Panels convert sunlight."  # Tavily's excerpt stays the snippet
    assert gone.content == "" and "HTTP 410" in gone.skipped  # reported as skipped, not cited
    assert ok.content == PAGE


def test_fetching_missing_pages_keeps_to_the_search_timeout() -> None:
    import time as _time

    from deep_research.search.fetch import FetchPolicy, PageFetcher
    from tests.support.webserver import WebServer

    with WebServer() as srv:
        srv.route("/slow.html", lambda h, s: (_time.sleep(3), h.send_text(200, "<p>late</p>", "text/html")))
        client = FakeClient({"results": [tavily_result(srv.url("/slow.html"), raw=None)]})
        fetcher = PageFetcher(FetchPolicy(allow_private=True, max_retries=0))
        start = _time.monotonic()
        (slow,) = run(tavily(client, fetcher=fetcher, timeout_s=0.5))
    assert _time.monotonic() - start < 2.5
    assert slow.content == "" and "took over 0.5 s" in slow.skipped

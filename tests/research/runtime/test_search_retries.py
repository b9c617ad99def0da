"""A search that fails transiently is retried, bounded, and its error body is said once
(research/runtime/deps.py ``NodeContext.run_search``)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from deep_research.research.runtime.deps import Deps, NodeContext
from deep_research.search import SearchError, SearchResult


class _Flaky:
    """Fails ``fails`` times with the same transient error, then answers."""

    name = "flaky"

    def __init__(self, fails: int, error: str = "HTTP 503: upstream overloaded, body <html>…</html>") -> None:
        self.fails, self.error, self.calls = fails, error, 0

    async def search(self, query: str, max_results: int = 5) -> list[SearchResult]:
        self.calls += 1
        if self.calls <= self.fails:
            raise SearchError(self.error, transient=True)
        return [SearchResult(url="https://example.org/a", title="A", content="answer")]


def _context(backend, max_retries: int) -> NodeContext:
    deps = Deps(search_factory=lambda cfg: backend)
    config = {"configurable": {"max_retries": max_retries, "retry_backoff_s": 0.001}}
    return NodeContext.make("researcher", deps, config, None)


def test_a_transient_failure_is_retried_and_its_body_said_once(caplog):
    backend = _Flaky(fails=2)
    ctx = _context(backend, max_retries=3)
    with caplog.at_level(logging.WARNING):
        results = asyncio.run(ctx.run_search("q", 3))
    assert [r.url for r in results] == ["https://example.org/a"] and backend.calls == 3
    assert ctx.meter.usage.retries == 2
    said = [r.getMessage() for r in caplog.records if "search failed" in r.getMessage()]
    assert len(said) == 2 and "upstream overloaded" in said[0]
    assert "the same error again" in said[1] and "upstream overloaded" not in said[1]


def test_retries_are_bounded_and_the_error_reaches_the_caller():
    backend = _Flaky(fails=10)
    ctx = _context(backend, max_retries=2)
    with pytest.raises(SearchError, match="upstream overloaded"):
        asyncio.run(ctx.run_search("q", 3))
    assert backend.calls == 3 and ctx.meter.usage.retries == 2

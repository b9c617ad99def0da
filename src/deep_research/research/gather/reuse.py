"""Work a thread does once: page summaries and searches.

* The persistent record is the LangGraph store (sources.PageStore): page summaries by
  content hash and searches by normalised query, in namespaces per owner and thread. The
  store outlives checkpoints, so a resumed run (after a crash, or a follow-up question on
  the thread) finds what the earlier steps made, even a step whose checkpoint was never
  written; graph state keeps only small metadata.
* Within the process, parallel researchers asking for the same thing at the same time
  share one piece of work through :data:`INFLIGHT` (the first one does it, the others
  await its result).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ...search.base import SearchResult
from ...search.relevance import normalise_query, query_similarity
from ..runtime.sources import PageStore, owner_label

log = logging.getLogger(__name__)
T = TypeVar("T")
MAX_QUERIES = 1000  # searches of a thread compared with a new query
# what a search result says of its page beyond its text, kept with a recorded search
# (``metadata``: the search engine's, such as Tavily's published_date, which credibility reads)
_KEPT = ("cut", "published", "author", "site_name", "locations", "metadata", "source_id")


class InFlight:
    """Work in progress in this process, by key."""

    def __init__(self) -> None:
        self._pending: dict[tuple, asyncio.Future] = {}

    async def once(self, key: tuple, make: Callable[[], Awaitable[T]]) -> tuple[T, bool]:
        """``make()``'s result and False, or, when a caller with the same key is already at
        work in this event loop, that caller's result and True. When that caller fails,
        this one tries for itself."""
        loop = asyncio.get_running_loop()
        fut = self._pending.get(key)
        if fut is not None and fut.get_loop() is loop and not fut.done():
            ok, value = await asyncio.shield(fut)
            if ok:
                return value, True
            return await make(), False
        fut = loop.create_future()
        self._pending[key] = fut
        try:
            value = await make()
        except BaseException:
            fut.set_result((False, None))
            raise
        else:
            fut.set_result((True, value))
            return value, False
        finally:
            if self._pending.get(key) is fut:
                del self._pending[key]

    def __len__(self) -> int:
        return len(self._pending)


INFLIGHT = InFlight()


def query_key(query: str) -> str:
    return hashlib.sha256(normalise_query(query).encode("utf-8", "surrogatepass")).hexdigest()[:32]


class QueryRegistry:
    """The searches a thread made: each query with its results (page metadata and the
    content hash of the page, whose text is in the page store)."""

    def __init__(self, pages: PageStore, thread: str):
        self.pages = pages
        self.namespace = (*pages.namespace[:2], "queries", owner_label(thread))

    async def find(self, query: str, threshold: float) -> dict | None:
        """The earlier search this query repeats (the most similar, at least ``threshold``)."""
        if threshold <= 0:
            return None
        exact = await self.pages.store.aget(self.namespace, query_key(query))
        if exact is not None:
            return exact.value
        if threshold >= 100:
            return None
        items = await self.pages.store.asearch(self.namespace, limit=MAX_QUERIES)
        best, best_score = None, threshold
        for item in items:
            score = query_similarity(query, str(item.value.get("query", "")))
            if score >= best_score:
                best, best_score = item.value, score
        return best

    async def record(self, query: str, topic: str, results: list[SearchResult]) -> dict:
        rows = []
        for r in results:
            h = await self.pages.put(r.content or "")
            row = {"url": r.url, "title": r.title, "format": r.format, "snippet": r.snippet,
                   "partial": r.partial, "content_hash": h}
            # the page's own metadata, so a reused result makes the same source as a fresh one
            row.update({k: v for k in _KEPT if (v := getattr(r, k))})
            rows.append(row)
        entry = {"query": query, "topic": topic, "results": rows}
        await self.pages.store.aput(self.namespace, query_key(query), entry, index=False)
        return entry

    async def results(self, entry: dict) -> list[SearchResult]:
        """The earlier search's results, their content from the page store (a page whose
        content is missing is left out)."""
        out = []
        for row in entry.get("results") or []:
            content = await self.pages.get(row.get("content_hash", ""))
            if content is None:
                continue
            kept = {k: v for k in ("published", "author", "site_name") if isinstance(v := row.get(k), str)}
            locations, metadata = row.get("locations"), row.get("metadata")
            out.append(SearchResult(row["url"], row.get("title") or "", content, row.get("format"),
                                    row.get("snippet") or "", None, bool(row.get("partial")),
                                    cut=str(row.get("cut") or ""), source_id=str(row.get("source_id") or ""),
                                    **kept,
                                    metadata=dict(metadata) if isinstance(metadata, dict) else {},
                                    locations=locations if isinstance(locations, list) else None))
        return out


def repeat_notice(entry: dict, query: str, topic: str) -> str:
    """What the researcher is told when its query repeats an earlier one."""
    earlier = str(entry.get("query", ""))
    by = str(entry.get("topic") or "")
    where = "earlier in your own research" if by == topic else (
        f"earlier in this research, for the topic '{by[:100]}'" if by else "earlier in this research")
    same = "" if earlier.strip() == query.strip() else f" (your query '{query[:120]}' is nearly the same)"
    return (f"This repeats the earlier query '{earlier[:160]}'{same}, searched {where}; it was not searched "
            "again. Its results were:")


def summary_key(pages: PageStore, thread: str, h: str) -> tuple[Any, ...]:
    return ("summary", id(pages.store), pages.namespace[1], thread, h)


def search_key(pages: PageStore, thread: str, query: str) -> tuple[Any, ...]:
    return ("search", id(pages.store), pages.namespace[1], thread, normalise_query(query) or query.strip().lower())

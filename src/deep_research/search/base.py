"""One interface for every search backend (Tavily, a local corpus, none)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from ..terminal import shortened


class SearchError(Exception):
    """A search backend failed. ``transient`` errors may succeed when retried."""

    def __init__(self, message: str, *, transient: bool = False):
        super().__init__(message)
        self.transient = transient


class SearchConfigError(ValueError):
    """A backend cannot be built: the message names the missing or wrong setting."""


@dataclass
class SearchResult:
    url: str
    title: str
    content: str  # the full page text as retrieved (used to check citations)
    format: str | None = None  # "markdown" | "text" (see deep_research.citations.page)
    snippet: str = ""  # a short excerpt to show a model
    score: float | None = None  # higher is better; only comparable within one backend
    # True when ``content`` is only the search engine's excerpt, not the full page: a
    # citation checked against it is checked against the excerpt only.
    partial: bool = False
    # Why the page's text could not be retrieved (``content`` is then empty): the result is
    # reported to the researcher as skipped, never cited.
    skipped: str = ""
    # Why ``content`` ends before the page does (the fetch's byte limit, or an HTML page
    # past the parser's limits), or "": the researcher records it and the run's sources
    # and audit.json say so for a page that is cited.
    cut: str = ""
    # The page's own metadata when it states them (from a fetched page's HTML).
    published: str | None = None
    author: str | None = None
    site_name: str | None = None
    # Anything else the search engine says about the page (e.g. Tavily's ``published_date``).
    # Optional, never required.
    metadata: dict = field(default_factory=dict)
    # Where each part of ``content`` came from in a local document (PDF page, slide, sheet
    # row, EPUB chapter, CSV row): see deep_research.citations.locations. None elsewhere.
    locations: list | None = None
    # The id of the source this result makes, when it is not derived from ``url``: a URL whose
    # credentials were masked keeps the id of the URL as found (research/runtime/sources.py).
    source_id: str = ""

    def __post_init__(self) -> None:  # a page's metadata, bounded for every prompt and output
        self.title = shortened(self.title) or ""
        self.author, self.site_name = shortened(self.author), shortened(self.site_name)


@runtime_checkable
class SearchBackend(Protocol):
    name: str

    async def search(self, query: str, *, max_results: int = 5) -> list[SearchResult]: ...


def backoff_delay(attempt: int, base_s: float, max_s: float) -> float:
    """Seconds to wait after failed attempt number ``attempt`` (0-based): exponential from
    ``base_s``, capped at ``max_s``, with "equal jitter" so that clients retrying together
    spread out. The one backoff rule of the search backends and the page fetcher."""
    delay = min(max_s, base_s * 2**attempt)
    return delay / 2 + random.uniform(0, delay / 2)

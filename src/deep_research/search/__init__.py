"""Search backends: Tavily or SearXNG (the web), a local corpus (SQLite FTS5), or none.

Every backend returns :class:`SearchResult` objects whose ``content`` is the full text
of the page or document, because citations are checked against it.
"""

from __future__ import annotations

import logging
from pathlib import Path

from ..terminal import printable
from .base import SearchBackend, SearchConfigError, SearchError, SearchResult
from .fetch import FetchedPage, FetchError, FetchPolicy, PageFetcher
from .local import (
    CorpusError,
    Fts5UnavailableError,
    IndexNotFoundError,
    IndexReport,
    IndexVersionError,
    LocalCorpus,
    SkippedFile,
    build_index,
    default_index_path,
)
from .none import NoSearch
from .searxng import SearxngSearch
from .tavily import TavilySearch

__all__ = [
    "CorpusError",
    "FetchError",
    "FetchPolicy",
    "FetchedPage",
    "Fts5UnavailableError",
    "IndexNotFoundError",
    "IndexReport",
    "IndexVersionError",
    "LocalCorpus",
    "NoSearch",
    "PageFetcher",
    "SearchBackend",
    "SearchConfigError",
    "SearchError",
    "SearchResult",
    "SearxngSearch",
    "SkippedFile",
    "TavilySearch",
    "build_index",
    "default_index_path",
    "make_search",
]

log = logging.getLogger(__name__)

KINDS = ("tavily", "local", "searxng", "none")


def make_search(
    kind: str,
    *,
    corpus: str | Path | None = None,
    tavily_api_key: str | None = None,
    base_url: str | None = None,
    timeout_s: float = 30,
    max_retries: int = 2,
    fetcher: PageFetcher | None = None,
    searxng_url: str | None = None,
    searxng: dict | None = None,
) -> SearchBackend:
    """The search backend ``kind`` (``tavily``, ``local``, ``searxng`` or ``none``).

    ``fetcher`` fetches pages whose text the search engine does not give (SearXNG results,
    Tavily results without raw content). ``searxng`` holds the SearXNG options (engines,
    categories, time_range, safesearch, language).

    ``local`` takes ``corpus``, a folder of documents or an index file. A folder's index
    is brought up to date first (incremental, see :func:`build_index`), keeping the base
    URL it was built with; ``base_url`` is applied to the results only. Raises
    :class:`SearchConfigError` naming the missing setting, or :class:`CorpusError`.
    """
    kind = str(getattr(kind, "value", kind) or "").strip().lower()
    if kind == "tavily":
        if not tavily_api_key:
            raise SearchConfigError(
                "search_api 'tavily' (web search) needs the TAVILY_API_KEY environment variable; "
                "or search your own documents with search_api 'local' and corpus_path "
                "(CLI: --search local --corpus DIR), or run without search (search_api 'none')"
            )
        return TavilySearch(tavily_api_key, timeout_s=timeout_s, max_retries=max_retries, fetcher=fetcher)
    if kind == "searxng":
        return SearxngSearch(searxng_url or "", fetcher=fetcher or PageFetcher(), timeout_s=timeout_s,
                             max_retries=max_retries, **(searxng or {}))
    if kind == "local":
        if not corpus:
            raise SearchConfigError(
                "search_api 'local' needs a corpus: set corpus_path (CLI: --corpus DIR) to a "
                "folder of documents or its index"
            )
        return open_local_corpus(Path(corpus), base_url=base_url)
    if kind == "none":
        return NoSearch()
    raise SearchConfigError(f"unknown search {kind!r}; choose one of: {', '.join(KINDS)}")


def open_local_corpus(corpus: Path, *, base_url: str | None = None) -> LocalCorpus:
    """A folder (indexed or updated first) or an index file, as a :class:`LocalCorpus`
    whose results link under ``base_url`` when given. The index keeps the base URL it was
    built with (``deep-research index --base-url``): one run's base URL is applied to that
    run's results only, so runs (and users of a server) sharing a corpus never see each
    other's links."""
    try:
        return LocalCorpus.open(_open_folder(corpus) if corpus.is_dir() else corpus, link_base_url=base_url)
    except ValueError as e:  # a base URL that is not absolute
        raise CorpusError(str(e)) from None


def _open_folder(folder: Path) -> Path:
    """The folder's index, brought up to date with the base URL it was built with."""
    index = default_index_path(folder)
    base_url = None
    if index.is_file():
        try:
            base_url = LocalCorpus(index).base_url  # keep the URLs it was built with
        except CorpusError:
            pass  # unreadable or old index: build_index replaces it
    try:
        report = build_index(folder, base_url=base_url)
        for skipped in report.skipped:
            log.warning("corpus file not indexed: %s", printable(skipped))
        for part in report.partial:
            log.warning("corpus file indexed only in part: %s", printable(part))
    except CorpusError as e:
        if not index.is_file() or isinstance(e, Fts5UnavailableError):
            raise
        # E.g. a read-only folder: an existing index is still worth searching.
        log.warning("could not update the corpus index (%s); searching it as it is", printable(e))
    return index

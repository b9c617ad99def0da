"""The source store: every page a run reads, with its full content.

State keeps small metadata per source (id, url, title, hash, retrieval time); the full
content is stored once per content hash in the LangGraph store (the server's store under
``langgraph dev``/deployments, SQLite or PostgreSQL from the CLI), namespaced by owner so
one user's pages are not visible to another.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import hashlib
import logging
import sqlite3
from dataclasses import asdict, dataclass
from collections.abc import Mapping
from typing import Any

from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from ...citations.locations import parse_locations
from ...errors import has_masked_url_credentials, mask_page_url, masked_credentials
from ...citations.model import Source
from ...search.base import SearchResult, backoff_delay

log = logging.getLogger(__name__)
_FALLBACK_STORE = InMemoryStore()


@dataclass
class SourceMeta:
    id: str
    url: str
    title: str
    format: str | None
    content_hash: str
    retrieved_at: str
    chars: int
    query: str = ""
    # The page's own metadata, when a fetched page states them (for credibility and citation styles).
    published: str | None = None
    author: str | None = None
    site_name: str | None = None
    # {"score": 0..1, "reasons": [...]} from search.credibility; None for pages found before it
    credibility: dict | None = None
    # where each part of a local document's text came from (deep_research.citations.locations)
    locations: list | None = None
    # why the text stops before the page does (SearchResult.cut); None: the whole page
    cut: str | None = None

    def as_dict(self) -> dict:
        return asdict(self)


def content_hash(content: str) -> str:
    return hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()


def source_id_for(url: str) -> str:
    """A short id the model can copy into <ref id="..."> tags; stable per URL."""
    return "s" + hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def result_source_id(result: SearchResult) -> str:
    """The id of the source a search result makes: its URL's (:func:`source_id_for`), or
    for a URL whose credentials were masked, the id of the URL as found
    (:func:`without_credentials`), so that a page's id is the same in every version."""
    return result.source_id or source_id_for(result.url)


def without_credentials(result: SearchResult) -> SearchResult:
    """``result`` with its URL's credentials masked (a password or a token as the user name,
    a secret query value such as ``?token=``: errors.mask_url_credentials), as a sources
    file's URL is: a search result or a page the user named becomes a source, kept in the
    state database and linked in every output of the report. Its source id stays the one
    of the URL as found (:func:`result_source_id`)."""
    kept = mask_page_url(result.url)
    # a page without a title is titled with its URL (the fetcher, Tavily): masked the same
    title = mask_page_url(result.title) if "://" in result.title else result.title
    if kept == result.url and title == result.title:
        return result
    return dataclasses.replace(result, url=kept, title=title, source_id=result_source_id(result))


def masked_meta(meta: Mapping[str, Any]) -> Mapping[str, Any]:
    """A source's metadata (the state's ``sources``) with its URL's credentials masked, as
    :func:`without_credentials` masks a search result's: a run started before that kept
    them in its state, and its resume would have linked them in every output. ``meta``
    itself when there is nothing to mask."""
    url = meta.get("url")
    if not isinstance(url, str) or (kept := mask_page_url(url)) == url:
        return meta
    title = meta.get("title")
    return {**meta, "url": kept, **({"title": mask_page_url(title)} if isinstance(title, str) else {})}


def masked_sources(metas: Mapping[str, Mapping[str, Any]]) -> dict[str, dict]:
    """The sources of ``metas`` whose URL held credentials, masked (:func:`masked_meta`): a
    node's update with them replaces them in the state (:func:`keep_first`)."""
    out = {}
    for sid, meta in metas.items():
        if isinstance(meta, Mapping) and (masked := masked_meta(meta)) is not meta:
            out[sid] = dict(masked)
    return out


def masked_notice(result: SearchResult) -> str | None:
    """What :func:`without_credentials` left out of ``result``'s URL, in a line (a
    degradation of the run), or None when it left out nothing."""
    if not result.source_id or not has_masked_url_credentials(result.url):
        return None
    return (f"page {result.url}: its URL held {masked_credentials(result.url)}; the run keeps and links it without "
            "them (the link may not open the page)")


def owner_label(identity: str) -> str:
    """``identity`` as a store namespace label. LangGraph refuses labels with periods; the
    project's auth handler already encodes them (server.credentials), another deployment's
    handler may not, so an identity with a period is encoded the same way here."""
    if "." not in identity:
        return identity or "local"
    return identity.replace("%", "%25").replace(".", "%2E")


def owner_of(config: dict | None) -> str:
    conf = (config or {}).get("configurable") or {}
    return owner_label(str(conf.get("langgraph_auth_user_id") or "local"))


STORE_RETRIES = 3  # a store operation SQLite answered "locked" or "busy" is tried again this often


async def _retrying(operation):
    """A store operation, tried again (bounded, with backoff) when SQLite says the database
    is locked or busy; every other error, and the last one, is raised as it is."""
    for attempt in range(STORE_RETRIES + 1):
        try:
            return await operation()
        except sqlite3.OperationalError as e:
            message = str(e).lower()
            if attempt == STORE_RETRIES or not ("locked" in message or "busy" in message):
                raise
            delay = backoff_delay(attempt, 0.2, 2.0)
            log.warning("the page store is busy (%s); retry %d/%d in %.1fs", e, attempt + 1, STORE_RETRIES, delay)
            await asyncio.sleep(delay)
    raise AssertionError("unreachable")


class PageStore:
    """Full page contents by hash, in a LangGraph BaseStore."""

    def __init__(self, store: BaseStore | None, owner: str = "local"):
        if store is None:
            log.warning("no LangGraph store configured: page contents are kept in memory only")
            store = _FALLBACK_STORE
        self.store = store
        self.namespace = ("deep_research", owner, "pages")

    async def put(self, content: str) -> str:
        h = content_hash(content)
        existing = await _retrying(lambda: self.store.aget(self.namespace, h))
        if existing is None:
            await _retrying(lambda: self.store.aput(self.namespace, h, {"content": content}, index=False))
        return h

    async def get(self, h: str) -> str | None:
        item = await _retrying(lambda: self.store.aget(self.namespace, h))
        return None if item is None else item.value.get("content")

    # Page summaries (claims with exact sentences) made in a thread, by page content: a
    # follow-up or a resumed run that meets the page again reuses it, no model call.
    def _summaries(self, thread: str) -> tuple[str, ...]:
        return (*self.namespace[:2], "summaries", owner_label(thread))

    async def summary(self, h: str, thread: str) -> dict | None:
        item = await _retrying(lambda: self.store.aget(self._summaries(thread), h))
        return None if item is None else item.value

    async def put_summary(self, h: str, thread: str, summary: str, sentences: list[tuple[str, str]],
                          raw: bool = False, dropped: int = 0) -> None:
        """``raw``: no summary could be made; the page's opening and matching lines stand in.
        ``dropped``: how many sentences the summary quoted that are not on the page."""
        value: dict = {"summary": summary, "sentences": [list(x) for x in sentences]}
        if raw:
            value["raw"] = True
        if dropped:
            value["dropped"] = dropped
        await _retrying(lambda: self.store.aput(self._summaries(thread), h, value, index=False))

    async def record(self, result: SearchResult, query: str = "", credibility: dict | None = None) -> SourceMeta:
        h = await self.put(result.content)
        return SourceMeta(
            id=result_source_id(result),
            url=result.url,
            title=result.title or result.url,
            format=result.format,
            content_hash=h,
            retrieved_at=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            chars=len(result.content),
            query=query,
            published=result.published,
            author=result.author,
            site_name=result.site_name,
            credibility=credibility,
            locations=result.locations,
            cut=result.cut or None,
        )

    async def load_sources(self, metas: dict[str, dict]) -> tuple[list[Source], list[str]]:
        """Sources with their full content; ids whose content is missing are listed."""
        out, missing = [], []
        for sid, found in metas.items():
            meta = masked_meta(found)  # a URL kept before its credentials were masked is not linked with them
            content = await self.get(meta["content_hash"])
            if content is None:
                missing.append(sid)
                continue
            out.append(Source(sid, meta["url"], content, meta.get("title") or "", meta.get("format"),
                              credibility=meta.get("credibility"),
                              locations=parse_locations(meta.get("locations")),
                              **{k: meta[k] for k in ("author", "published", "site_name", "cut")
                                 if isinstance(meta.get(k), str) and meta[k].strip()}))
        return out, missing


def keep_first(left: dict[str, Any] | None, right: dict[str, Any] | None) -> dict[str, Any]:
    """Merge source metadata; the first content seen for an id wins (quotes were checked
    against it). Only its URL and title may be replaced, by the same with the credentials
    masked (:func:`masked_sources`: a state written before they were)."""
    out = {**(right or {}), **(left or {})}
    if left and right:
        for sid, meta in right.items():
            old = left.get(sid)
            if (isinstance(old, Mapping) and isinstance(meta, Mapping) and old is not meta
                    and isinstance(old.get("url"), str) and meta.get("url") != old["url"]
                    and (masked := masked_meta(old))["url"] == meta.get("url")):
                out[sid] = dict(masked)
    return out

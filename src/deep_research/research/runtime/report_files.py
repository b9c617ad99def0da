"""Report files kept for the LangGraph server, where every replica can read them.

A run on a server writes its report folder as everywhere (``output_dir``), and the publish
node also stores the files a user may fetch (:data:`FILES`) in a LangGraph store: the
server's own store (PostgreSQL in a deployment, the in-memory store under ``langgraph dev``),
or, when the server's environment sets ``DEEP_RESEARCH_REPORT_STORE=postgresql://...``,
a :class:`~langgraph.store.postgres.aio.AsyncPostgresStore` on that database, which several
server processes share even when their own store is not shared (``langgraph dev``).
``deep_research.server.reports`` serves them; nothing a request names reaches the file
system: a request's ids are looked up in the store, under the caller's own namespace.

Namespaces (``owner`` is the user the server admitted, encoded as for the page store)::

    ("deep_research", owner, "reports", thread)              report id -> manifest
    ("deep_research", owner, "report_files", thread, report)  file name -> content

A report's id is the thread checkpoint its publish step ran from (the run folder's marker),
so a retried step overwrites its own report and a follow-up adds another. Runs outside a
server (the CLI, ``eval run``, a Python caller) keep only the folder.
"""

from __future__ import annotations

import asyncio
import base64
import datetime as dt
import hashlib
import hmac
import logging
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlencode, urlsplit

from ...errors import UserError
from ...language import labels
from .setting_policy import (
    ENV_PUBLIC_URL,
    ENV_REPORT_LINK_DAYS,
    ENV_REPORT_LINK_SECRET,
    ENV_REPORT_MAX_BYTES,
    ENV_REPORT_STORE,
)
from .sources import owner_label

log = logging.getLogger(__name__)

ROOT = "deep_research"
ROUTE = "/reports"  # deep_research.server.reports serves ROUTE/<thread>/<report>/<file name>
LATEST = "latest"  # a report id meaning the thread's newest report
DEFAULT_MAX_BYTES = 25_000_000
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,127}")  # thread and checkpoint ids (UUIDs)


@dataclass(frozen=True)
class Kind:
    output: str  # the key of this file in the publish step's outputs
    content_type: str
    label: str  # how the chat names it (English; file names are not translated)
    inline: bool  # a browser shows it (else it is downloaded)


FILES: dict[str, Kind] = {
    "report.pdf": Kind("pdf", "application/pdf", "PDF", True),
    "report.html": Kind("html", "text/html; charset=utf-8", "HTML", True),
    "report.docx": Kind("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                        "Word", False),
    "report.linked.md": Kind("linked", "text/markdown; charset=utf-8", "Markdown", True),
    "report.md": Kind("markdown", "text/markdown; charset=utf-8", "report.md", True),
    "citations.json": Kind("citations", "application/json", "citations.json", True),
    "audit.json": Kind("audit", "application/json", "audit.json", True),
    "notes.md": Kind("notes", "text/markdown; charset=utf-8", "notes.md", True),
    "run.json": Kind("run", "application/json", "run.json", True),
    # the cited sources with their content: with report.md, what `deep-research publish`
    # re-publishes from
    "sources.json": Kind("sources", "application/json", "sources.json", True),
}
# What the chat's last turn links to, in this order (report.md, notes.md, run.json and
# sources.json are served too, for tools such as `eval run --server` and re-publishing).
CHAT_FILES = ("report.pdf", "report.html", "report.docx", "report.linked.md", "citations.json", "audit.json")


def valid_id(value: Any) -> bool:
    return isinstance(value, str) and _ID.fullmatch(value) is not None


def max_bytes(environ: Mapping[str, str] | None = None) -> int:
    env = os.environ if environ is None else environ
    raw = (env.get(ENV_REPORT_MAX_BYTES) or "").strip()
    if not raw:
        return DEFAULT_MAX_BYTES
    try:
        value = int(raw.replace("_", ""))
    except ValueError:
        value = 0
    if value < 1_000:
        raise UserError(f"{ENV_REPORT_MAX_BYTES} must be a number of bytes of at least 1000, not {raw!r}")
    return value


def store_url(environ: Mapping[str, str] | None = None) -> str | None:
    """``DEEP_RESEARCH_REPORT_STORE``, checked: a postgresql:// URL other than the server's
    own database (the LangGraph server keeps its own ``store`` table there), or None."""
    env = os.environ if environ is None else environ
    url = (env.get(ENV_REPORT_STORE) or "").strip()
    if not url:
        return None
    if not url.startswith(("postgresql://", "postgres://")):
        raise UserError(f"{ENV_REPORT_STORE} must be a postgresql:// URL (or unset: the server's own store)")
    if url == (env.get("DATABASE_URI") or "").strip():
        raise UserError(f"{ENV_REPORT_STORE} names the LangGraph server's own database (DATABASE_URI), whose "
                        "store table has another layout: leave it unset there (the server's store is already "
                        "shared by its replicas) or name another database")
    return url


def public_url(environ: Mapping[str, str] | None = None) -> str:
    """Where users' browsers reach the server ("" when unknown: links are then relative)."""
    env = os.environ if environ is None else environ
    for name in (ENV_PUBLIC_URL, "LANGGRAPH_API_URL"):
        url = (env.get(name) or "").strip().rstrip("/")
        if url:
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
                raise UserError(f"{name} must be the server's http(s) address, e.g. https://research.example.com")
            return url
    return ""


# --- a store shared by server processes ---------------------------------------------------
_SHARED: dict[tuple[str, int], Any] = {}
_LOCKS: dict[int, asyncio.Lock] = {}


async def shared_postgres_store(url: str):
    """One AsyncPostgresStore per process and event loop on ``url`` (a connection pool),
    its tables made once (under an advisory lock: several processes may start at once)."""
    loop = asyncio.get_running_loop()
    key = (url, id(loop))
    if key in _SHARED:
        return _SHARED[key]
    lock = _LOCKS.setdefault(id(loop), asyncio.Lock())
    async with lock:
        if key in _SHARED:
            return _SHARED[key]
        from langgraph.store.postgres.aio import AsyncPostgresStore
        from psycopg.rows import dict_row
        from psycopg_pool import AsyncConnectionPool

        pool = AsyncConnectionPool(url, min_size=1, max_size=4, open=False, timeout=30,
                                   kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row})
        try:
            await pool.open(wait=True, timeout=30)
            store = AsyncPostgresStore(conn=pool)
            async with pool.connection() as conn:
                await conn.execute("SELECT pg_advisory_lock(hashtext('deep_research.report_store'))")
                try:
                    await store.setup()
                finally:
                    await conn.execute("SELECT pg_advisory_unlock(hashtext('deep_research.report_store'))")
        except Exception as e:  # noqa: BLE001 - any failure: the store cannot be used, said with its reason
            await pool.close()
            raise UserError(f"the report store ({ENV_REPORT_STORE}) cannot be used: {type(e).__name__}: "
                            f"{_no_password(str(e), url)}") from None
        _SHARED[key] = store
        return store


def _no_password(text: str, url: str) -> str:
    password = urlsplit(url).password
    return text.replace(password, "***") if password else text


async def report_store(server_store: Any, environ: Mapping[str, str] | None = None) -> Any:
    """The store report files go to: the shared PostgreSQL store when configured, else the
    server's own store (None: there is none)."""
    url = store_url(environ)
    return await shared_postgres_store(url) if url else server_store


# --- the files of one user ----------------------------------------------------------------
def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="microseconds")


class ReportFiles:
    """One user's report files in a LangGraph store."""

    def __init__(self, store: Any, owner: str):
        self.store = store
        self.owner = owner_label(owner)

    def _reports(self, thread: str) -> tuple[str, ...]:
        return (ROOT, self.owner, "reports", thread)

    def _files(self, thread: str, report: str) -> tuple[str, ...]:
        return (ROOT, self.owner, "report_files", thread, report)

    async def save(self, thread: str, report: str, outputs: Mapping[str, Any], *, limit: int | None = None) -> dict:
        """Store the published files named in ``outputs`` (the publish step's paths) and
        return the report's manifest; a file above ``limit`` bytes is left out and listed in
        ``skipped`` with the reason."""
        if not valid_id(thread) or not valid_id(report):
            raise ValueError(f"unusable thread or report id: {thread!r}, {report!r}")
        limit = max_bytes() if limit is None else limit
        files, skipped = {}, {}
        for name, kind in FILES.items():
            path = outputs.get(kind.output)
            if not path:
                continue
            data = await asyncio.to_thread(_read_limited, Path(path), limit)
            if data is None:
                skipped[name] = f"larger than the {limit:,} bytes the server keeps"
                continue
            digest = hashlib.sha256(data).hexdigest()
            await self.store.aput(self._files(thread, report), name,
                                  {"data": base64.b64encode(data).decode("ascii"), "bytes": len(data),
                                   "sha256": digest}, index=False)
            files[name] = {"bytes": len(data), "sha256": digest}
        manifest = {"thread": thread, "report": report, "created": _now(), "files": files,
                    **({"skipped": skipped} if skipped else {})}
        await self.store.aput(self._reports(thread), report, manifest, index=False)  # last: names stored files
        return manifest

    async def reports(self, thread: str) -> list[dict]:
        """The thread's report manifests, newest first (empty for another user's thread)."""
        if not valid_id(thread):
            return []
        items = await self.store.asearch(self._reports(thread), limit=1000)
        found = [i.value for i in items if tuple(i.namespace) == self._reports(thread) and isinstance(i.value, dict)]
        return sorted(found, key=lambda m: (str(m.get("created", "")), str(m.get("report", ""))), reverse=True)

    async def manifest(self, thread: str, report: str) -> dict | None:
        if not valid_id(thread) or not (report == LATEST or valid_id(report)):
            return None
        if report == LATEST:
            found = await self.reports(thread)
            return found[0] if found else None
        item = await self.store.aget(self._reports(thread), report)
        return item.value if item is not None and isinstance(item.value, dict) else None

    async def read(self, thread: str, report: str, name: str) -> bytes | None:
        """A file's bytes, or None (unknown name, report or thread; another user's; damaged)."""
        if name not in FILES:
            return None
        manifest = await self.manifest(thread, report)
        if manifest is None or name not in (manifest.get("files") or {}):
            return None
        item = await self.store.aget(self._files(thread, manifest["report"]), name)
        if item is None:
            return None
        try:
            data = base64.b64decode(item.value["data"], validate=True)
        except (KeyError, TypeError, ValueError):
            return None
        if hashlib.sha256(data).hexdigest() != item.value.get("sha256"):
            log.error("report file %s of report %s does not match its checksum", name, manifest["report"])
            return None
        return data


def _read_limited(path: Path, limit: int) -> bytes | None:
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    return None if len(data) > limit else data


# --- links --------------------------------------------------------------------------------
MIN_LINK_SECRET_BYTES = 32
_URL_SAFE = ":/?&=%#@!$'*+,;-._~"  # what a link keeps as is in markdown (no spaces or parentheses)
DEFAULT_LINK_DAYS = 7.0
_FILE_PATH = re.compile(re.escape(ROUTE) + r"/([^/]+)/([^/]+)/([^/]+)")


def file_path(thread: str, report: str, name: str) -> str:
    return f"{ROUTE}/{quote(thread, safe='')}/{quote(report, safe='')}/{quote(name, safe='')}"


def link_key(environ: Mapping[str, str] | None = None) -> bytes | None:
    """The key that signs report links (``DEEP_RESEARCH_REPORT_LINK_SECRET``), or None."""
    env = os.environ if environ is None else environ
    secret = (env.get(ENV_REPORT_LINK_SECRET) or "").encode("utf-8")
    if not secret:
        return None
    if len(secret) < MIN_LINK_SECRET_BYTES:
        raise UserError(f"{ENV_REPORT_LINK_SECRET} is shorter than {MIN_LINK_SECRET_BYTES} bytes")
    return secret


def link_days(environ: Mapping[str, str] | None = None) -> float:
    env = os.environ if environ is None else environ
    raw = (env.get(ENV_REPORT_LINK_DAYS) or "").strip()
    try:
        days = float(raw) if raw else DEFAULT_LINK_DAYS
    except ValueError:
        days = -1.0
    if not 0 < days <= 366:
        raise UserError(f"{ENV_REPORT_LINK_DAYS} must be a number of days above 0 and at most 366, not {raw!r}")
    return days


def _signature(key: bytes, identity: str, thread: str, report: str, name: str, expires: int) -> str:
    message = "\n".join(("deep-research report link v1", identity, thread, report, name, str(expires)))
    digest = hmac.new(key, message.encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def signed_query(key: bytes, identity: str, thread: str, report: str, name: str, *, days: float,
                 now: float | None = None) -> str:
    """The query that lets whoever holds the link read this one file of ``identity``'s until
    it expires, without credentials (a browser following the chat's link)."""
    expires = int((time.time() if now is None else now) + days * 86400)
    return urlencode({"u": identity, "exp": expires,
                      "sig": _signature(key, identity, thread, report, name, expires)})


def signed_link_user(key: bytes | None, path: str, query: str, *, now: float | None = None) -> str | None:
    """The identity a signed link to one report file stands for, or None: not a file path
    of the route, no or a malformed signature, another file's, expired, or no key."""
    if key is None:
        return None
    m = _FILE_PATH.fullmatch(path)
    if m is None:
        return None
    thread, report, name = m.groups()
    if not (valid_id(thread) and valid_id(report) and name in FILES):
        return None
    try:
        params = parse_qs(query, keep_blank_values=True, strict_parsing=False, max_num_fields=10)
    except ValueError:
        return None
    if any(len(params.get(k) or ()) != 1 for k in ("u", "exp", "sig")):
        return None
    identity, expires, sig = params["u"][0], params["exp"][0], params["sig"][0]
    if not identity or "." in identity or not expires.isdigit() or len(expires) > 12:
        return None
    if int(expires) < (time.time() if now is None else now):
        return None
    if not hmac.compare_digest(sig.encode("ascii", "replace"),
                               _signature(key, identity, thread, report, name, int(expires)).encode("ascii")):
        return None
    return identity


def report_links(manifest: Mapping[str, Any], base: str | None = None, *, identity: str | None = None,
                 key: bytes | None = None, days: float = DEFAULT_LINK_DAYS) -> dict[str, str]:
    """{file name: URL} of a stored report's files; ``base``: the server's public address
    (default: :func:`public_url`; "" gives paths relative to the server). With ``key`` and
    the owner's ``identity``, each URL is signed (:func:`signed_query`)."""
    base = public_url() if base is None else base.rstrip("/")
    names = manifest.get("files") or {}
    thread, report = manifest["thread"], manifest["report"]
    links = {}
    for name in FILES:
        if name in names:
            url = base + file_path(thread, report, name)
            if key is not None and identity:
                url += "?" + signed_query(key, identity, thread, report, name, days=days)
            links[name] = url
    return links


def links_markdown(links: Mapping[str, str], lang: str | None = None) -> str:
    """The chat's line of links to a report's files, e.g. ``Files: [PDF](…) · [HTML](…)``
    (empty without links). The one place that formats them: the chat's last turn calls it."""
    shown = [f"[{FILES[n].label}]({quote(links[n], safe=_URL_SAFE)})" for n in CHAT_FILES if n in links]
    return f"{labels(lang)['report_files']}: " + " · ".join(shown) if shown else ""

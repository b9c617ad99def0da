"""Search a local folder of documents through an embedded SQLite FTS5 index.

:func:`build_index` walks a folder and stores, for every readable document, its full
text (the same text the citation checker later compares quotes with), a stable URL, a
content hash and, for PDFs, slides, workbooks, EPUBs and CSV files, where each part of the
text came from (``locations``: pages, slides, sheet rows, chapters, rows; see
:mod:`deep_research.citations.locations`), which search results carry so that a citation
can name the place and a PDF link open the page. :class:`LocalCorpus` searches that index with BM25 ranking.

Choices:

* Documents: ``.html``/``.htm`` (visible text, see :func:`.extract.html_to_text`, format
  ``text``), ``.md``/``.markdown`` (the file as is; format ``markdown`` when the folder is
  published at a base URL, ``text`` for ``file://`` URLs since a browser then shows the
  raw file), ``.txt`` (as is, ``text``), ``.pdf`` (text from pypdf, ``text``), ``.docx``,
  ``.pptx``, ``.xlsx``, ``.csv``, ``.tsv`` and ``.epub`` (see :mod:`.formats`, ``text``). Other files,
  and files or folders whose name starts with ``.``, are not documents and are counted
  as ``unsupported`` / left out.
* Text files must be UTF-8 (a BOM is allowed). An HTML page may instead declare another
  charset in a ``<meta>`` tag, which lxml then honours as a browser would.
* A file is skipped, with its path and reason in :attr:`IndexReport.skipped` (which
  :func:`deep_research.search.make_search` logs as warnings), when it is larger than
  ``max_file_bytes`` (default 20 MiB), empty or without text, binary (contains NUL
  bytes), not UTF-8, not a regular file, or a PDF, Office file or EPUB that cannot be read
  (corrupt, encrypted, or past the limits of :mod:`.formats`).
* The index never reads outside the folder: a file or folder that is (or passes through)
  a symbolic link resolving outside it, or a link loop, is skipped with its reason. Links
  that stay inside are followed for files (a file is indexed under the link's path) and
  not for folders (their documents are indexed under their own path). A file is opened
  once, component by component from the folder with ``O_NOFOLLOW``, and what is read is
  what was checked: a file or folder swapped for a link after the check is skipped, not
  followed (POSIX only).
* URLs: ``file://`` URI of the file, or ``base_url`` + the URL-quoted relative path. A
  searcher may link to another base URL (a run's ``corpus_base_url``): it is applied to
  the results it gets (``LocalCorpus(link_base_url=...)``), never written into the index,
  which others share.
* Re-indexing is incremental: files with the same size and modification time are not
  read; changed files whose hash is unchanged are not re-extracted; rows of deleted or
  now-skipped files are removed. A different schema or extractor version, folder or base
  URL rebuilds the index from scratch, because every stored URL or text would change.
* A run commits what it indexed every :data:`BATCH_SECONDS`, and at once when Ctrl-C
  stops it (:class:`IndexInterrupted`): a run that is stopped or killed keeps the documents
  indexed up to then, and the next run goes on from there (those files are unchanged, so
  not read again). A search during a run sees its documents batch by batch. A run stops
  when another writes the index between two of its batches (:class:`_Commits`).
* Speed: the stylesheets of a folder are parsed once per run (:class:`.extract.StyleCache`;
  before worker processes are forked, so that they inherit them parsed),
  and text is extracted in worker processes (one per CPU, at most :data:`MAX_WORKERS`)
  when many files need it; reading, hashing and writing stay in this process, in walk
  order, so the index is the same with or without workers. New documents are inserted
  :data:`INSERT_BATCH` rows to a statement (:class:`_Inserts`: FTS5 writes a segment at each
  statement's savepoint). ``progress(done, total)`` reports the files done.
* Ranking: FTS5 ``bm25`` over title (weight 2) and content (weight 1) with the
  ``porter unicode61 remove_diacritics 2`` tokenizer (English stemming, accent-blind).
  Documents containing every query term come first, then those containing some. A search
  ranks first (ids and ranks of the best k only) and reads content and builds snippets
  for those k alone, so its cost follows k, not the number of matching documents. The
  OR pass ranks only the documents that can be among the best (:func:`_rank_any`: a bound
  on what the common words of a query can add), with FTS5's own bm25: the same results.
"""

from __future__ import annotations

import asyncio
import codecs
import datetime as dt
import errno
import hashlib
import json
import logging
import math
import os
import re
import signal
import sqlite3
import stat
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import BrokenExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlsplit

from lxml import etree

from ..errors import has_url_credentials, mask_url_credentials
from .base import SearchError, SearchResult
from .extract import (
    Extracted,
    NotUtf8Error,
    PdfTextError,
    StyleCache,
    declared_charset,
    decode_utf8,
    html_parser_limit,
    html_to_text,
    utf8_html_to_text,
    is_utf8_name,
    markdown_title,
    pdf_to_text,
)
from .formats import EXTRACTORS, FormatError
from .snippet import query_stems, snippet

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
# Bump when extraction changes what text is stored, so that old indexes are rebuilt.
EXTRACTOR_VERSION = 3  # 2: CSS-hidden elements left out; 3: locations (PDF pages, slides, rows, ...)
DEFAULT_MAX_FILE_BYTES = 20 * 1024 * 1024
INDEX_DIR = ".deep-research"
INDEX_NAME = "index.sqlite"
MAX_QUERY_TERMS = 32
SNIPPET_TOKENS = 32

_KINDS = {
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".pdf": "pdf",
    ".docx": "docx",
    ".pptx": "pptx",
    ".xlsx": "xlsx",
    ".csv": "csv",
    ".tsv": "tsv",
    ".epub": "epub",
}
# For messages: the document types, as a user names them.
DOCUMENT_TYPES = ", ".join(_KINDS)

_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE documents (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,      -- relative to the folder, with '/' separators
        url TEXT NOT NULL,
        title TEXT NOT NULL,
        content TEXT NOT NULL,          -- the full text, as citations are checked against it
        format TEXT NOT NULL,           -- 'markdown' | 'text'
        sha256 TEXT NOT NULL,           -- of the file's bytes
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        indexed_at TEXT NOT NULL,       -- ISO 8601, UTC
        -- JSON marks of where the text came from (PDF pages, slides, rows; see
        -- citations.locations), or NULL
        locations TEXT
    )""",
    # External-content FTS table: the text is stored once, in documents.
    """CREATE VIRTUAL TABLE documents_fts USING fts5(
        title, content, content='documents', content_rowid='id',
        tokenize='porter unicode61 remove_diacritics 2'
    )""",
    """CREATE TRIGGER documents_ai AFTER INSERT ON documents BEGIN
        INSERT INTO documents_fts(rowid, title, content) VALUES (new.id, new.title, new.content);
    END""",
    """CREATE TRIGGER documents_ad AFTER DELETE ON documents BEGIN
        INSERT INTO documents_fts(documents_fts, rowid, title, content)
        VALUES ('delete', old.id, old.title, old.content);
    END""",
    # Only a change of the indexed text touches the FTS table (not a new mtime).
    """CREATE TRIGGER documents_au AFTER UPDATE OF title, content ON documents BEGIN
        INSERT INTO documents_fts(documents_fts, rowid, title, content)
        VALUES ('delete', old.id, old.title, old.content);
        INSERT INTO documents_fts(rowid, title, content) VALUES (new.id, new.title, new.content);
    END""",
)


# --- errors and report --------------------------------------------------------------------
class CorpusError(SearchError):
    """The local corpus or its index cannot be used."""


class IndexNotFoundError(CorpusError):
    """There is no index where one was expected."""


class IndexVersionError(CorpusError):
    """The index was written by another schema version of this program."""


class Fts5UnavailableError(CorpusError):
    """This Python's SQLite library was built without FTS5."""


class IndexInterrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) stopped :func:`build_index`: the documents indexed so far are kept
    (committed), the rest is left for the next run (:attr:`report`: what this run did
    up to then; ``documents``: what the index holds now)."""

    def __init__(self, report: "IndexReport"):
        super().__init__("indexing was interrupted")
        self.report = report


@dataclass(frozen=True)
class SkippedFile:
    path: str  # relative to the folder
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


@dataclass
class IndexReport:
    """What :func:`build_index` did. Paths are relative to the folder."""

    index_path: str
    documents: int = 0  # in the index after this run
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0
    unsupported: int = 0  # files of other types, left out
    skipped: list[SkippedFile] = field(default_factory=list)
    # indexed with the text up to a cut only (an HTML file past the parser's limits), each
    # with its reason; said when the file is (re)indexed
    partial: list[SkippedFile] = field(default_factory=list)
    rebuilt: bool = False  # the old index was discarded (new version, folder or base URL)


class _Skip(Exception):
    """A file is not indexed, for the reason given."""


@dataclass(frozen=True)
class _Stored:
    sha256: str
    size: int
    mtime_ns: int


# --- helpers ------------------------------------------------------------------------------
def require_fts5() -> None:
    """Raise :class:`Fts5UnavailableError` unless SQLite has the FTS5 extension."""
    con = sqlite3.connect(":memory:")
    try:
        con.execute("CREATE VIRTUAL TABLE t USING fts5(x)")
    except sqlite3.OperationalError:
        raise Fts5UnavailableError(
            f"the SQLite library of this Python (version {sqlite3.sqlite_version}) has no FTS5 "
            "full-text search, which the local corpus needs; use a Python built with a SQLite "
            "that includes FTS5 (most builds do)"
        ) from None
    finally:
        con.close()


def default_index_path(folder: str | Path) -> Path:
    return Path(folder) / INDEX_DIR / INDEX_NAME


def document_url(root: Path, rel_path: str, base_url: str | None) -> str:
    """The stable URL of a document: ``file://`` URI, or under ``base_url``."""
    if base_url is None:
        return (root / rel_path).as_uri()
    return _with_slash(base_url) + quote(rel_path, safe="/")


def _with_slash(base_url: str) -> str:
    return base_url if base_url.endswith("/") else base_url + "/"


def base_url_problem(base_url: str) -> str | None:
    """Why ``base_url`` cannot be where the corpus documents are published, or None. Every
    local source links under it: an http(s) URL with a host (or a file: URL), without
    spaces or control characters, query or fragment (javascript://x/, "http://a b/" or
    "https://x/docs?v=1" made sources no reader can open, silently)."""
    shown = mask_url_credentials(base_url)  # a message never repeats a password or secret query value
    try:
        parts = urlsplit(base_url)
    except ValueError as e:  # an unclosed [ of an IPv6 address
        return f"base URL {shown!r} is not a valid URL ({e})"
    scheme = parts.scheme.lower()
    if not scheme or not (parts.netloc or scheme == "file"):
        return f"base URL {shown!r} is not an absolute URL (e.g. https://example.org/docs/)"
    if scheme not in ("http", "https", "file"):
        return f"base URL {shown!r} is not an http, https or file URL (e.g. https://example.org/docs/)"
    if any(c.isspace() or not c.isprintable() for c in base_url):
        return f"base URL {shown!r} holds a space or a control character (write a space as %20)"
    try:
        host = parts.hostname
    except ValueError:
        host = None
    if scheme != "file" and not host:
        return f"base URL {shown!r} has no host name (e.g. https://example.org/docs/)"
    if has_url_credentials(base_url):  # every link in a report would hand it to its readers
        return (f"base URL {shown!r} holds a user name, password or secret query parameter (?key=, ?token= ...), "
                "which every link in a report would show: give the URL without it (readers log in as the site asks)")
    if parts.query or parts.fragment or base_url.endswith(("?", "#")):
        return (f"base URL {shown!r} has a query (?...) or a fragment (#...): a document's link is the base URL "
                "followed by its path in the folder, which would land in it; give the folder's URL "
                "(e.g. https://example.org/docs/)")
    return None


def _check_base_url(base_url: str | None) -> None:
    if base_url is None:
        return
    if problem := base_url_problem(base_url):
        raise ValueError(problem)


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


# --- reading documents --------------------------------------------------------------------
def read_document(data: bytes, kind: str, *, published: bool, load_css=None,
                  styles: StyleCache | None = None) -> tuple[Extracted, str]:
    """Title, full text and content format of a file's bytes; :class:`_Skip` if unusable.
    ``styles`` keeps parsed stylesheets for the next page (see :class:`.extract.StyleCache`)."""
    if kind == "pdf":
        try:
            doc = pdf_to_text(data)
        except PdfTextError as e:
            raise _Skip(str(e)) from None
        fmt = "text"
    elif kind in EXTRACTORS:
        try:
            doc = EXTRACTORS[kind](data)
        except FormatError as e:
            raise _Skip(str(e)) from None
        fmt = "text"
    else:
        if b"\x00" in data:
            raise _Skip("binary content (NUL bytes), not a text document")
        doc, fmt = _read_text_kind(data, kind, published, load_css, styles)
    if not doc.text.strip():
        raise _Skip("no text" if kind != "pdf" else "no extractable text (scanned images only?)")
    return doc, fmt


def _read_text_kind(data: bytes, kind: str, published: bool, load_css=None,
                    styles: StyleCache | None = None) -> tuple[Extracted, str]:
    if kind == "html":
        return _read_html(data, load_css, styles), "text"
    text = _decode(data)
    if kind == "markdown":
        # Published markdown is rendered to HTML; over file:// a browser shows the raw file.
        return Extracted(markdown_title(text), text), "markdown" if published else "text"
    return Extracted("", text), "text"


def _read_html(data: bytes, load_css=None, styles: StyleCache | None = None) -> Extracted:
    charset = declared_charset(data)
    # A <meta> declaring UTF-16 means UTF-8 (HTML standard): such bytes are ASCII-compatible.
    if charset and not is_utf8_name(charset) and not charset.startswith("utf-16"):
        return _parse_html(data, load_css, styles)  # lxml decodes with the declared charset, like a browser
    try:
        text = decode_utf8(data)  # (checked: the parser reads the same bytes, without a BOM)
    except NotUtf8Error as e:
        hint = " although it declares UTF-8" if charset else " and declares no other charset"
        raise _Skip(f"{e}{hint}; convert the file to UTF-8") from None
    return _parse_html(text, load_css, styles, data.removeprefix(codecs.BOM_UTF8))


def _parse_html(html: str | bytes, load_css=None, styles: StyleCache | None = None,
                utf8: bytes | None = None) -> Extracted:
    """The text of a page; ``utf8``: the UTF-8 of ``html`` (a str), when at hand."""
    try:
        if utf8 is not None:
            doc = utf8_html_to_text(utf8, load_css=load_css, styles=styles)
        else:
            doc = html_to_text(html, load_css=load_css, styles=styles)
    except etree.ParserError:  # lxml's word for a page with no elements at all
        return Extracted("", "")
    if not doc.text.strip():
        limit = html_parser_limit(html)
        if limit:  # named, not "no text": a browser shows the page's text
            raise _Skip(limit)
    return doc


def _decode(data: bytes) -> str:
    try:
        return decode_utf8(data)
    except NotUtf8Error as e:
        raise _Skip(f"{e}; convert the file to UTF-8") from None


# --- building the index ---------------------------------------------------------------------
def build_index(
    folder: str | Path,
    *,
    index_path: str | Path | None = None,
    base_url: str | None = None,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    progress: Callable[[int, int], None] | None = None,
    workers: int | None = None,
) -> IndexReport:
    """Create or update the full-text index of ``folder`` and report what changed.

    The index defaults to ``<folder>/.deep-research/index.sqlite``. Unusable files are
    skipped, each with its reason in :attr:`IndexReport.skipped` for the caller to show
    (see the module docstring); this never fails because of one file. Raises
    :class:`CorpusError` when the folder or index cannot be used.

    ``progress(done, total)`` is called as files are done (``total``: the document files
    found). ``workers``: processes that extract text (default: one per CPU, at most
    :data:`MAX_WORKERS`; 1 extracts here). They are used only when at least
    :data:`PARALLEL_MIN_FILES` files need extracting; the index is the same either way.
    """
    require_fts5()
    _check_base_url(base_url)
    root = Path(folder).resolve()
    if not root.is_dir():
        raise CorpusError(f"{folder} is not a folder")
    index = Path(index_path).resolve() if index_path else default_index_path(root)
    report = IndexReport(index_path=str(index))
    try:
        index.parent.mkdir(parents=True, exist_ok=True)
        # Autocommit mode, with explicit transactions committed in batches (_Commits; schema
        # changes in the first): a search sees every document whole, old or new, and an
        # interrupted run keeps what it indexed.
        con = sqlite3.connect(index, timeout=30, isolation_level=None)
    except (OSError, sqlite3.Error) as e:
        raise CorpusError(f"cannot write the index {index}: {e}") from None
    try:
        root_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as e:
        con.close()
        raise CorpusError(f"cannot read the folder {folder}: {e.strerror or e}") from None
    run = _Run(root, root_fd, index, base_url, max_file_bytes, report)
    try:
        con.execute("BEGIN IMMEDIATE")
        report.rebuilt = _prepare(con, index, root, base_url)
        _update(con, run, progress, workers)
        report.documents = con.execute("SELECT count(*) FROM documents").fetchone()[0]
        if _worth_merging(report):
            _merge_segments(con)
        con.execute("COMMIT")
    except KeyboardInterrupt:  # the documents written so far are kept; the next run goes on from there
        try:
            if con.in_transaction:
                # before _update read the index, only _prepare's schema changes (a rebuild's
                # tables dropped, perhaps not yet made again) are under way: undone, not kept
                if run.stored is not None:
                    run.flush()
                con.execute("COMMIT" if run.stored is not None else "ROLLBACK")
            _kept(con, run)
        except sqlite3.Error as e:
            raise CorpusError(f"cannot write the index {index}: {e}") from None
        raise IndexInterrupted(report) from None
    except sqlite3.Error as e:
        raise CorpusError(f"cannot write the index {index}: {e}") from None
    finally:
        os.close(root_fd)
        if con.in_transaction:
            con.execute("ROLLBACK")
        con.close()
    return report


# The index is committed every BATCH_SECONDS (and at the end): a run killed or stopped keeps
# what it indexed up to its last commit (Ctrl-C commits at once), and the next run goes on
# from there, since files indexed already are not read again.
BATCH_SECONDS = 10.0


class _Commits:
    """Commits the index run's transaction every :data:`BATCH_SECONDS` and begins the next.
    Between two batches another run (a second ``deep-research index``, a research run
    updating the folder's index) may take the index and write it: this run's view of the
    index (what it holds, its base URL) is then stale, and writing on would mix the two
    (rows linking under one base URL in an index whose meta names another, a file added
    twice): :class:`CorpusError` stops this run, the other's writes stand."""

    def __init__(self, con: sqlite3.Connection, index: Path, run: _Run) -> None:
        self.con = con
        self.index = index
        self.run = run
        self.since = time.monotonic()
        self.version = self._version()  # changes when another connection commits

    def _version(self) -> int:
        return self.con.execute("PRAGMA data_version").fetchone()[0]

    def tick(self) -> None:
        if time.monotonic() - self.since >= BATCH_SECONDS:
            self.run.flush()
            self.con.execute("COMMIT")
            self.con.execute("BEGIN IMMEDIATE")
            if self._version() != self.version:
                raise CorpusError(f"another run wrote the index {self.index} while this one was writing it; this "
                                  "run stopped, keeping what it indexed: run it again to bring the index up to date")
            self.since = time.monotonic()


# New documents are inserted this many rows to a statement: each statement that inserts
# into documents opens a savepoint (its trigger writes to documents_fts), and FTS5 writes
# the terms it holds in memory to a segment of their own at every savepoint; a statement a
# row made a segment per document, and merging them was half of the full-text index's cost.
INSERT_BATCH = 32
_INSERT_SQL = ("INSERT INTO documents (url, title, content, format, sha256, size, mtime_ns, indexed_at, "
               "locations, path) VALUES ")
_INSERT_ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"


class _Inserts:
    """The rows of new documents, written :data:`INSERT_BATCH` to a statement, in the
    order they came (the same row ids as one statement each). The run writes those that
    wait before any other statement (:meth:`_Run.flush`): an update, a removal, a commit."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self.con = con
        self.rows: list[tuple] = []

    def add(self, row: tuple) -> None:
        self.rows.append(row)
        if len(self.rows) >= INSERT_BATCH:
            self.flush()

    def flush(self) -> None:
        rows, self.rows = self.rows, []  # taken first: never written twice
        if rows:
            self.con.execute(_INSERT_SQL + ", ".join([_INSERT_ROW] * len(rows)), [v for row in rows for v in row])


def _kept(con: sqlite3.Connection, run: _Run) -> None:
    """After an interruption: the report says what the index holds, read from the index (a
    file written just before the interruption may not have reached the report's lists)."""
    report = run.report
    if run.stored is None:  # stopped before the run wrote anything (rolled back): the index as it was
        report.added, report.updated = [], []
        has = con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'documents'").fetchone()
        report.documents = con.execute("SELECT count(*) FROM documents").fetchone()[0] if has else 0
        return
    now = dict(con.execute("SELECT path, sha256 FROM documents"))
    before = run.stored
    report.added = sorted(p for p in now if p not in before)
    report.updated = sorted(p for p, sha in now.items() if p in before and before[p].sha256 != sha)
    report.documents = len(now)


MERGE_MIN_CHANGED = 64  # files changed in a run before the index is rewritten in one segment
MERGE_MIN_SHARE = 0.01  # ... or this share of the index, whichever is more


def _worth_merging(report: IndexReport) -> bool:
    """Merge after a new index or a run that changed a sizeable part of it. The merge rewrites
    the whole full-text index (about 1 s per 100 MB): after every small update a large corpus
    would pay that on each research run; the few segments a small update adds cost searches
    little, and FTS5's own automerge keeps their number bounded."""
    changed = len(report.added) + len(report.updated) + len(report.removed)
    if not changed:
        return False
    return changed == report.documents or report.rebuilt or changed >= max(
        MERGE_MIN_CHANGED, MERGE_MIN_SHARE * report.documents)


def _merge_segments(con: sqlite3.Connection) -> None:
    """Merge the full-text index's segments (b-trees FTS5 writes as rows come in) into one.
    A search looks each query term up in every segment: at 15,000 pages, left with 15
    segments, searches take about 15 % more time than after the merge (about a second
    at that size). Rankings are the same: bm25 reads counts, not segments."""
    con.execute("INSERT INTO documents_fts(documents_fts) VALUES ('optimize')")


def _prepare(con: sqlite3.Connection, index: Path, root: Path, base_url: str | None) -> bool:
    """Make sure the index has the current schema and settings; True if it was (re)created."""
    wanted = {
        "schema_version": str(SCHEMA_VERSION),
        "extractor_version": str(EXTRACTOR_VERSION),
        "root": str(root),
        "base_url": base_url or "",
    }
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if tables and "meta" not in tables:
        # Never overwrite a database that is not ours.
        raise CorpusError(
            f"{index} is an SQLite file that is not a corpus index; choose another index path"
        )
    if tables:
        if dict(con.execute("SELECT key, value FROM meta").fetchall()) == wanted:
            return False
        for name in ("documents_fts", "documents", "meta"):
            con.execute(f"DROP TABLE IF EXISTS {name}")
    for statement in _SCHEMA:
        con.execute(statement)
    con.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", wanted.items())
    return bool(tables)


# Who is told when an index run starts reading files (new or changed ones): a chat's
# "Indexing…" line is said then, not each time a corpus is opened (a current index reads none).
_ON_INDEXING: ContextVar[Callable[[], object] | None] = ContextVar("deep_research_on_indexing", default=None)


@contextmanager
def on_indexing(callback: Callable[[], object]) -> Iterator[None]:
    """Within this block (and the threads it starts with ``asyncio.to_thread``), an index
    run that reads a new or changed file calls ``callback()`` once, before reading it."""
    token = _ON_INDEXING.set(callback)
    try:
        yield
    finally:
        _ON_INDEXING.reset(token)


def _announce_indexing() -> None:
    callback = _ON_INDEXING.get()
    if callback is not None:
        try:
            callback()
        except Exception as e:  # noqa: BLE001 - a progress line never stops the index
            log.debug("indexing not announced: %s", e)


@dataclass
class _Run:
    """What every file of one index run needs."""

    root: Path
    root_fd: int
    index: Path
    base_url: str | None
    max_file_bytes: int
    report: IndexReport
    stored: dict[str, _Stored] | None = None  # the index's files when the run began to write
    inserts: _Inserts | None = None  # rows of new documents not yet written (see _Inserts)

    def flush(self) -> None:
        """Writes the new documents' rows that wait (before any other statement)."""
        if self.inserts is not None:
            self.inserts.flush()


def _update(con: sqlite3.Connection, run: _Run, progress, workers: int | None) -> None:
    """Index the folder's files in walk order. Reading, hashing and writing happen here;
    extracting text may happen in worker processes, whose results are written in the
    same order (same row ids, same report) as without them."""
    report = run.report
    stored = run.stored = {
        path: _Stored(sha, size, mtime)
        for path, sha, size, mtime in con.execute(
            "SELECT path, sha256, size, mtime_ns FROM documents"
        )
    }
    stylesheets: list[Path] = []
    entries = list(_walk(run.root, run.index, report, stylesheets))
    total = sum(isinstance(e, Path) for e in entries)
    done = 0
    if progress:
        progress(0, total)
    extractor = _Extractor(run, _pool_size(workers, entries, stored, run.root), stylesheets)
    pending: deque = deque()  # (rel, old, outcome) in walk order; outcome may be a future
    run.inserts = _Inserts(con)
    commits = _Commits(con, run.index, run)

    def finish() -> None:
        nonlocal done
        rel, old, outcome = pending.popleft()
        if isinstance(outcome, SkippedFile):  # a link to a folder, from the walk
            report.skipped.append(outcome)
            return
        try:
            got = extractor.result(outcome)
            _write(con, run, rel, old, got)
            if isinstance(got, _Extracted) and got.doc.cut:
                report.partial.append(SkippedFile(rel, got.doc.cut))
        except _Skip as e:
            reason = str(e)
            if rel in stored:
                run.flush()
                con.execute("DELETE FROM documents WHERE path = ?", (rel,))
                reason += " (its previous version was removed from the index)"
            report.skipped.append(SkippedFile(rel, reason))
        done += 1
        commits.tick()
        if progress:
            progress(done, total)

    seen: set[str] = set()
    announced = False
    try:
        for entry in entries:
            if isinstance(entry, SkippedFile):
                pending.append((None, None, entry))
                continue
            rel = entry.relative_to(run.root).as_posix()
            seen.add(rel)
            old = stored.get(rel)
            try:
                outcome = _load(run, entry, old)
                if isinstance(outcome, _Loaded):
                    if not announced:
                        announced = True
                        _announce_indexing()
                    outcome = extractor.submit(outcome)
            except _Skip as e:
                outcome = e
            pending.append((rel, old, outcome))
            while pending and (len(pending) > extractor.window or extractor.ready(pending[0][2])):
                finish()
        while pending:
            finish()
    finally:
        extractor.close()
    run.flush()
    for rel in sorted(set(stored) - seen):
        con.execute("DELETE FROM documents WHERE path = ?", (rel,))
        report.removed.append(rel)


# --- extracting text, here or in worker processes -----------------------------------------
MAX_WORKERS = 8
PARALLEL_MIN_FILES = 64  # fewer files to extract than this: starting processes costs more
# Before worker processes start, the folder's stylesheets are parsed here once (they
# inherit them) rather than once in each worker: at most this many files, of at most this
# many bytes in all (more: each worker parses those its pages link to, as without workers).
PRELOAD_MAX_FILES = 128
PRELOAD_MAX_BYTES = 4 * 1024 * 1024


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _on_main_thread() -> bool:
    """Only a process's main thread receives signals: there a timer can stop extraction."""
    return threading.current_thread() is threading.main_thread()


def _pool_size(workers: int | None, entries: list, stored: dict[str, _Stored], root: Path) -> int:
    """How many worker processes to extract with (0: extract here). Off the main thread (a
    research run, the server) even one changed file goes to a worker process: only a
    process's main thread can bound a file's CPU time (:func:`_cpu_limit`)."""
    n = min(MAX_WORKERS, _cpus()) if workers is None else min(MAX_WORKERS, max(1, workers))
    bounded_here = _on_main_thread()
    if n < 2 and bounded_here:
        return 0
    least = PARALLEL_MIN_FILES if bounded_here else 1
    changed = 0
    for path in entries:
        if not isinstance(path, Path):
            continue
        old = stored.get(path.relative_to(root).as_posix())
        try:
            st = path.stat()
            changed += not old or (old.size, old.mtime_ns) != (st.st_size, st.st_mtime_ns)
        except OSError:
            changed += 1
        if changed >= least:
            return n
    return 0


@dataclass(frozen=True)
class _Loaded:
    """A file read and hashed whose text is to be extracted."""

    data: bytes
    digest: str
    st: os.stat_result
    kind: str
    folder: str  # where its stylesheets are looked up from


@dataclass(frozen=True)
class _Touched:
    """A file with a new modification time and the same bytes."""

    st: os.stat_result


@dataclass(frozen=True)
class _Extracted:
    loaded: _Loaded
    doc: Extracted
    fmt: str


# A file whose text takes longer than this (CPU seconds) is skipped: a hostile page can make
# extraction superlinear (a stylesheet whose descendant selectors must be tried against every
# chain of ancestors of a deeply nested page took minutes), and one file must not stall the
# index. Documentation pages take milliseconds, a 1,000-page PDF some seconds.
MAX_EXTRACT_CPU_S = 60.0


class _TooSlow(BaseException):
    """Not an Exception: the readers' ``except Exception`` (a broken inline style hides
    nothing, a library's many errors) must not swallow it and read on unbounded."""


def _too_slow(signum, frame) -> None:
    signal.setitimer(signal.ITIMER_PROF, 1.0)  # again in a second, should it be swallowed still
    raise _TooSlow


@contextmanager
def _cpu_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`_TooSlow` in the code within after ``seconds`` of this process's CPU time
    (a profiling timer). Only where a signal can reach the code: the main thread of a process
    (the CLI, a worker process); elsewhere the code runs unbounded."""
    if seconds <= 0 or not hasattr(signal, "setitimer") or not _on_main_thread():
        yield
        return
    previous = signal.signal(signal.SIGPROF, _too_slow)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def _extract(loaded: _Loaded, root: str, published: bool, styles: StyleCache) -> _Extracted:
    """The text of a loaded file; :class:`_Skip` when it has none, cannot be read, or takes
    more than :data:`MAX_EXTRACT_CPU_S` to read."""
    try:
        with _cpu_limit(MAX_EXTRACT_CPU_S):
            doc, fmt = read_document(loaded.data, loaded.kind, published=published,
                                     load_css=styles.loader(Path(loaded.folder), Path(root)), styles=styles)
    except _TooSlow:
        raise _Skip(f"its text took more than {MAX_EXTRACT_CPU_S:g} s of CPU time to extract (e.g. a stylesheet "
                    "whose selectors cost too much on this page); not indexed") from None
    except _Skip:
        raise
    except Exception as e:  # noqa: BLE001 - one odd file must not stop the indexing
        raise _Skip(f"cannot extract its text ({type(e).__name__}: {e})") from None
    return _Extracted(loaded, doc, fmt)


_worker_styles: StyleCache | None = None  # a worker process's stylesheets, for its whole life


def _worker_start(styles: StyleCache | None = None) -> None:
    """A worker's stylesheets: those the parent parsed before forking it, or none yet."""
    global _worker_styles
    _worker_styles = styles if styles is not None else StyleCache()


def _worker_extract(batch: list[_Loaded], root: str, published: bool) -> list[tuple[Extracted, str] | str]:
    """In a worker process: each file's text and format, or the reason it is skipped."""
    styles = _worker_styles or StyleCache()
    out: list[tuple[Extracted, str] | str] = []
    for loaded in batch:
        try:
            got = _extract(loaded, root, published, styles)
            out.append((got.doc, got.fmt))
        except _Skip as e:
            out.append(str(e))
    return out


class _Batch:
    """Files sent to a worker together (one message each way for several files)."""

    def __init__(self) -> None:
        self.files: list[_Loaded] = []
        self.future = None


# A worker process that dies (a reader crashed, the system stopped it for its memory) takes
# its files with it. Each of them is tried again alone in a fresh worker: the file that stops
# that one too is skipped. After this many such files the rest of the run is not extracted
# (each costs a new process): a folder of files that crash their reader must not stall a run.
MAX_WORKER_DEATHS = 8


def _can_fork() -> bool:
    """Fork is cheapest (nothing to import again) but unsafe once a process has threads."""
    return threading.active_count() == 1 and os.name == "posix"


def _process_pool(processes: int, styles: StyleCache | None):
    """Worker processes that start with ``styles`` parsed (when forked), else none."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if _can_fork() else "spawn"
    return ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context(method),
                               initializer=_worker_start, initargs=(styles if method == "fork" else None,))


class _Extractor:
    """Extracts text here, or in ``processes`` worker processes, :data:`BATCH` files at a
    time and a bounded number of files in flight. When a worker dies, its files and all
    later ones are extracted one at a time, each in a worker process of its own (never
    here: off the main thread nothing could bound them, and what stopped a worker could stop
    this process); a file whose worker dies again is skipped."""

    BATCH = 8

    def __init__(self, run: _Run, processes: int, stylesheets: Sequence[Path] = ()) -> None:
        self.root = str(run.root)
        self.published = run.base_url is not None
        self.styles = StyleCache()
        self.pool = None
        self.alone = None  # after a worker died: one worker, one file at a time
        self.broken = False
        self.deaths = 0
        self.window = 0  # files that may wait for their text
        self.batch = _Batch()
        if processes:
            if _can_fork() and len(stylesheets) <= PRELOAD_MAX_FILES:
                # parsed once here, not in each worker (a forked worker's arguments are not pickled)
                self.styles.preload(run.root, list(stylesheets), PRELOAD_MAX_BYTES)
            self.pool = _process_pool(processes, self.styles)
            self.window = 4 * processes * self.BATCH

    def submit(self, loaded: _Loaded):
        if self.pool is None:
            return _Later(loaded)
        batch = self.batch
        batch.files.append(loaded)
        if len(batch.files) >= self.BATCH:
            self._send(batch)
        return batch, len(batch.files) - 1

    def _send(self, batch: _Batch) -> None:
        if batch.future is None and self.pool is not None:
            try:
                batch.future = self.pool.submit(_worker_extract, batch.files, self.root, self.published)
            except BrokenExecutor:  # BrokenProcessPool: a worker of an earlier batch died before we knew
                self._shut()  # this batch then goes the way of every file after a death (one by one)
                self.broken = True
        if batch is self.batch:
            self.batch = _Batch()

    def ready(self, outcome) -> bool:
        """Can this outcome be written without waiting?"""
        return not isinstance(outcome, tuple) or (outcome[0].future is not None and outcome[0].future.done())

    def result(self, outcome):
        """The final outcome of a file: _Extracted or _Touched, None if unchanged; raises _Skip."""
        if isinstance(outcome, _Skip):
            raise outcome
        if isinstance(outcome, _Later):
            return self._here_or_alone(outcome.loaded)
        if isinstance(outcome, tuple):
            batch, i = outcome
            loaded = batch.files[i]
            self._send(batch)
            if batch.future is None:  # the workers are gone
                return self._here_or_alone(loaded)
            try:
                got = batch.future.result()[i]
            except Exception:  # noqa: BLE001 - a worker died (BrokenProcessPool)
                self._shut()
                self.broken = True
                return self._alone_in_a_worker(loaded)
            return _extracted(loaded, got)
        return outcome

    def _here_or_alone(self, loaded: _Loaded) -> _Extracted:
        if self.broken:
            return self._alone_in_a_worker(loaded)
        return _extract(loaded, self.root, self.published, self.styles)

    def _alone_in_a_worker(self, loaded: _Loaded) -> _Extracted:
        if self.deaths >= MAX_WORKER_DEATHS:
            raise _Skip(f"not extracted: {self.deaths} files before it stopped the worker process that read "
                        "them; the rest of this run is left out")
        alone = self.alone = self.alone or _process_pool(1, self.styles)
        try:
            got = alone.submit(_worker_extract, [loaded], self.root, self.published).result()[0]
        except Exception:  # noqa: BLE001 - this file stops its worker too (BrokenProcessPool)
            alone.shutdown(wait=True, cancel_futures=True)
            self.alone = None
            self.deaths += 1
            raise _Skip("reading its text stopped the worker process that read it (a crash in a reader or "
                        "too much memory); not indexed") from None
        return _extracted(loaded, got)

    def _shut(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    def close(self) -> None:
        self._shut()
        if self.alone is not None:
            self.alone.shutdown(wait=True, cancel_futures=True)
            self.alone = None


def _extracted(loaded: _Loaded, got: tuple[Extracted, str] | str) -> _Extracted:
    """A worker's answer for one file: its text and format, or why it is skipped."""
    if isinstance(got, str):
        raise _Skip(got)
    return _Extracted(loaded, *got)


@dataclass(frozen=True)
class _Later:
    """A file to extract in this process when its turn to be written comes."""

    loaded: _Loaded


def _walk(root: Path, index: Path, report: IndexReport, stylesheets: list[Path] | None = None):
    """Document files under ``root`` in a stable order; hidden files and folders left out.
    Links to folders are not followed; those leading out of ``root`` are yielded as
    :class:`SkippedFile`. The ``.css`` files found are added to ``stylesheets``. A folder
    that cannot be listed (its path too long: a folder nested 1,200 deep) is yielded as
    :class:`SkippedFile` too, not left out unsaid."""
    unlisted: list[OSError] = []

    def unreadable():
        for e in unlisted:
            rel = os.path.relpath(e.filename, root) if e.filename else "."
            if len(rel) > 160:
                rel = f"{rel[:70]}…{rel[-70:]}"
            yield SkippedFile(rel, f"a folder that cannot be read ({e.strerror or e}); nothing in it indexed")
        unlisted.clear()

    for dirpath, dirnames, filenames in os.walk(root, onerror=unlisted.append):
        yield from unreadable()
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for d in [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            dirnames.remove(d)
            link = Path(dirpath) / d
            try:
                _resolve_inside(root, link, "folder")
            except _Skip as e:
                yield SkippedFile(link.relative_to(root).as_posix(), str(e))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if name.startswith(".") or name.startswith(index.name) and path.parent == index.parent:
                continue  # hidden, or the index itself and its journal
            suffix = path.suffix.lower()
            if suffix in _KINDS:
                yield path
            else:
                report.unsupported += 1
                if suffix == ".css" and stylesheets is not None:
                    stylesheets.append(path)
    yield from unreadable()


def _resolve_inside(root: Path, path: Path, what: str) -> Path:
    """The real path of ``path`` (links resolved), or :class:`_Skip` when it leads out of
    ``root``, loops or leads nowhere."""
    try:
        real = Path(os.path.realpath(path, strict=True))
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise _Skip("a symbolic link loop") from None
        raise _Skip(f"cannot read: {e.strerror or e}") from None
    if real != root and not real.is_relative_to(root):
        raise _Skip(f"a link to a {what} outside the corpus folder; not indexed")
    return real


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
# O_NONBLOCK: opening a FIFO never waits for a writer (fstat then says it is no regular file)
_FILE_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)


def _open_beneath(root_fd: int, parts: tuple[str, ...]) -> int:
    """A descriptor of the regular file ``root/parts``, opened one component at a time
    from the folder's descriptor without following any symbolic link: if a component
    was swapped for a link after the path was checked, the file is skipped, never read
    from wherever the link points."""
    dirs: list[int] = []
    try:
        parent = root_fd
        for part in parts[:-1]:
            parent = os.open(part, _DIR_FLAGS, dir_fd=parent)
            dirs.append(parent)
        # Not opened at all when it is no regular file (a device, a FIFO, a socket).
        before = os.stat(parts[-1], dir_fd=parent, follow_symlinks=False)
        if stat.S_ISLNK(before.st_mode):
            raise _Skip("it was replaced by a symbolic link while being indexed; not indexed")
        if not stat.S_ISREG(before.st_mode):
            raise _Skip("not a regular file")
        fd = os.open(parts[-1], _FILE_FLAGS, dir_fd=parent)
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise _Skip("it or a folder on its path was replaced by a symbolic link while being "
                        "indexed; not indexed") from None
        raise _Skip(f"cannot read: {e.strerror or e}") from None
    finally:
        for d in dirs:
            os.close(d)
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino) != (before.st_dev, before.st_ino):
        os.close(fd)
        raise _Skip("it was replaced while being indexed; not indexed")
    return fd


def _read_all(fd: int, max_bytes: int) -> bytes:
    """The file's bytes; :class:`_Skip` if it grew past ``max_bytes`` while being read."""
    chunks, size = [], 0
    try:
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            size += len(chunk)
            if size > max_bytes:
                raise _Skip(f"too large (more than {max_bytes:,} bytes; it grew while being read)")
    except OSError as e:
        raise _Skip(f"cannot read: {e.strerror or e}") from None
    return b"".join(chunks)


def _load(run: _Run, path: Path, old: _Stored | None) -> _Loaded | _Touched | None:
    """Open and read a document file (None: unchanged since the last run); :class:`_Skip`
    if it cannot be indexed."""
    real = _resolve_inside(run.root, path, "file")
    fd = _open_beneath(run.root_fd, real.relative_to(run.root).parts)
    try:
        st = os.fstat(fd)
        if old and (old.size, old.mtime_ns) == (st.st_size, st.st_mtime_ns):
            return None
        if st.st_size > run.max_file_bytes:
            raise _Skip(f"too large ({st.st_size:,} bytes; the limit is {run.max_file_bytes:,})")
        if st.st_size == 0:
            raise _Skip("empty file")
        data = _read_all(fd, run.max_file_bytes)
    finally:
        os.close(fd)
    digest = hashlib.sha256(data).hexdigest()
    if old and old.sha256 == digest:  # touched but not changed
        return _Touched(st)
    return _Loaded(data, digest, st, _KINDS[path.suffix.lower()], str(path.parent))


def _write(con: sqlite3.Connection, run: _Run, rel: str, old: _Stored | None,
           got: _Extracted | _Touched | None) -> None:
    """Store what became of one file."""
    if got is None:
        run.report.unchanged += 1
        return
    if isinstance(got, _Touched):
        run.flush()
        con.execute(
            "UPDATE documents SET size = ?, mtime_ns = ? WHERE path = ?",
            (got.st.st_size, got.st.st_mtime_ns, rel),
        )
        run.report.unchanged += 1
        return
    st = got.loaded.st
    row = (
        document_url(run.root, rel, run.base_url),
        got.doc.title or rel.rsplit("/", 1)[-1],
        got.doc.text,
        got.fmt,
        got.loaded.digest,
        st.st_size,
        st.st_mtime_ns,
        _now(),
        json.dumps(got.doc.locations, ensure_ascii=False, separators=(",", ":")) if got.doc.locations else None,
        rel,
    )
    if old:
        run.flush()
        con.execute(
            "UPDATE documents SET url = ?, title = ?, content = ?, format = ?, sha256 = ?, "
            "size = ?, mtime_ns = ?, indexed_at = ?, locations = ? WHERE path = ?",
            row,
        )
        run.report.updated.append(rel)
    else:
        if run.inserts is None:
            run.inserts = _Inserts(con)
        run.inserts.add(row)
        run.report.added.append(rel)


# --- searching ----------------------------------------------------------------------------------
_WORDISH = re.compile(r"\w")
_WORDS = re.compile(r"\w+")
_SPACES = re.compile(r"\s+")

# Ranking first: the ids and bm25 ranks of the best k matches, nothing else read...
_RANK_SQL = """
SELECT rowid, bm25(documents_fts, 2.0, 1.0) AS rank
FROM documents_fts
WHERE documents_fts MATCH ?
ORDER BY rank
LIMIT ?
"""
# ...then the rows of those k, with the content's token count (FTS5's docsize: one varint per
# column) for the snippet (see .snippet), and the document's locations (NULL in an index
# written before they were kept: see LocalCorpus._rows_sql).
_ROWS_SQL = """
SELECT d.id, d.url, d.title, d.content, d.format, d.path, s.sz, {locations}
FROM documents AS d LEFT JOIN documents_fts_docsize AS s ON s.id = d.id
WHERE d.id IN ({ids})
"""
# FTS5's own snippet, for a document whose tokens .snippet does not count as the index did.
_SNIPPET_SQL = f"""
SELECT snippet(documents_fts, 1, '', '', '\u2026', {SNIPPET_TOKENS})
FROM documents_fts WHERE documents_fts MATCH ? AND documents_fts.rowid = ?
"""


# The OR pass, pruned (see _rank_any): how many documents hold a term, and the bm25 ranks, for
# the whole query, of the documents that hold one of some terms.
_COUNT_SQL = "SELECT count(*) FROM documents_fts WHERE documents_fts MATCH ?"
# "+rowid": the subquery filters the rows FTS5 finds (bm25 is computed for those alone); it
# is not handed to FTS5 as a constraint, which would restart the query (and its term counts)
# for every row id.
_RANK_AMONG_SQL = """
SELECT rowid, bm25(documents_fts, 2.0, 1.0) AS rank
FROM documents_fts
WHERE documents_fts MATCH ? AND +rowid IN (SELECT rowid FROM documents_fts WHERE documents_fts MATCH ?)
ORDER BY rank
LIMIT ?
"""
# FTS5's own count of rows (the first varint of its "averages" record), as bm25 reads it
_AVERAGES_SQL = "SELECT block FROM documents_fts_data WHERE id = 1"
# FTS5's bm25: k1 = 1.2, so one phrase adds less than (k1 + 1) times its idf to a score.
_BM25_MAX_TF = 2.2
# Below this many (document, term) pairs the OR query is cheap enough as it is.
PRUNE_MIN_POSTINGS = 3000
# Pruning must leave at most 1/PRUNE_GAIN of the documents the plain query would rank.
PRUNE_GAIN = 2
_SLACK = 1e-9  # relative room for the rounding of sums taken in another order


def _idf(rows: int, hits: int) -> float:
    """bm25's idf of a phrase that ``hits`` of ``rows`` documents hold (FTS5: at least 1e-6)."""
    idf = math.log((rows - hits + 0.5) / (hits + 0.5)) if rows > 0 else 0.0
    return idf if idf > 0.0 else 1e-6


def _rank_any(con: sqlite3.Connection, terms: list[str], any_terms: str, limit: int,
              plan: list[str] | None = None) -> list[tuple[int, float]]:
    """``_RANK_SQL`` for the OR query ``any_terms`` (of ``terms``), computed for fewer rows.

    Ranking every document that holds some word of a query costs about a microsecond per
    (document, term) pair, and words such as "in" or "1" are in most documents. But a
    phrase can add less than 2.2 times its idf to a document's score, and a common word's
    idf is small. So FTS5 ranks, for the whole query, only the documents that hold one of
    the rarest terms ("essential": few documents); the ``limit``-th best of those is a
    floor that the final ``limit`` all reach. A document holding no essential term scores
    less than the other terms' bound; when that bound is under the floor, no such document
    can be among the best ``limit``, which are then the ones found: the same scores,
    computed by the same code, and (``ORDER BY rank LIMIT``, rows visited in row id order)
    the same order among equal scores. Anything else: the plain query. ``plan`` (for tests
    and benchmarks) gets "pruned" or "plain" and why."""
    note = plan.append if plan is not None else (lambda _: None)
    if len(terms) < 2:
        note("plain: one term")
        return con.execute(_RANK_SQL, (any_terms, limit)).fetchall()
    averages = con.execute(_AVERAGES_SQL).fetchone()
    rows = _varints(averages[0])[0] if averages and isinstance(averages[0], bytes) and averages[0] else 0
    if rows <= 0:
        note("plain: no row count")
        return con.execute(_RANK_SQL, (any_terms, limit)).fetchall()
    quoted = ['"' + t.replace('"', '""') + '"' for t in terms]
    hits = {q: con.execute(_COUNT_SQL, (q,)).fetchone()[0] for q in dict.fromkeys(quoted)}
    if sum(hits[q] for q in quoted) < PRUNE_MIN_POSTINGS:
        note("plain: few postings")
        return con.execute(_RANK_SQL, (any_terms, limit)).fetchall()
    bound = [_BM25_MAX_TF * _idf(rows, hits[q]) for q in quoted]
    order = sorted(range(len(quoted)), key=lambda i: hits[quoted[i]])  # the rarest first

    def common_bound(j: int) -> float:  # of the terms after the j rarest
        return sum(bound[i] for i in order[j:]) * (1 + _SLACK) + _SLACK

    j, held = 0, 0
    while j < len(order) and held < limit:
        held += hits[quoted[order[j]]]
        j += 1
    most = max(hits.values())  # the plain query ranks at least this many documents
    for _attempt in range(2):
        if j >= len(order) or sum(hits[quoted[i]] for i in order[:j]) * PRUNE_GAIN > most:
            note("plain: no rare terms")
            break  # ranking the documents of the rare terms would not save enough
        essential = " OR ".join(quoted[i] for i in sorted(order[:j]))
        found = con.execute(_RANK_AMONG_SQL, (any_terms, essential, limit)).fetchall()
        if len(found) < limit:
            note("plain: rare terms in too few documents")
            break
        floor = -found[-1][1]
        if common_bound(j) < floor * (1 - _SLACK):
            note(f"pruned: documents of {j} of {len(order)} terms ranked")
            return found
        # enough more essential terms that the rest stays under this floor (it only grows)
        while j < len(order) and common_bound(j) >= floor * (1 - _SLACK):
            j += 1
    return con.execute(_RANK_SQL, (any_terms, limit)).fetchall()


def _query_terms(text: str, operator: str) -> list[str]:
    """The terms of :func:`fts_query`: whitespace-separated chunks (AND) or words (OR)."""
    if operator == "AND":
        terms = [c for c in text.split() if _WORDISH.search(c)]
    else:
        terms = _WORDS.findall(text)
    return terms[:MAX_QUERY_TERMS]


def _varints(blob: bytes) -> list[int]:
    """SQLite varints (FTS5's docsize record: the token count of each column)."""
    out, value, n = [], 0, 0
    for byte in blob:
        n += 1
        if n == 9:
            out.append((value << 8) | byte)
            value, n = 0, 0
        elif byte & 0x80:
            value = (value << 7) | (byte & 0x7F)
        else:
            out.append((value << 7) | byte)
            value, n = 0, 0
    return out


def fts_query(text: str, operator: str = "AND") -> str:
    """An FTS5 query for free text that can never be an FTS5 syntax error.

    Every term is a quoted string, so operators (``AND``, ``NEAR``), ``*``, ``:``, ``^``
    and brackets are plain text. With ``AND`` each whitespace-separated chunk is one
    phrase (``e-mail`` must appear as ``e mail``); with ``OR`` every word is a term of
    its own. Returns ``""`` when the text has no words.
    """
    terms = _query_terms(text, operator)
    return f" {operator} ".join('"' + t.replace('"', '""') + '"' for t in terms)


class LocalCorpus:
    """:class:`~.base.SearchBackend` over an index written by :func:`build_index`.

    Each search reads the index in a worker thread, so searches never block the event
    loop, through a read-only connection that thread keeps (a fresh connection reads
    the index's pages again: several times slower for common words); each search is one
    read transaction, so the index may be updated between searches, and a connection is
    opened again when the index file is replaced.
    """

    name = "local"

    def __init__(self, index_path: str | Path, *, link_base_url: str | None = None):
        require_fts5()
        self.index_path = Path(index_path).resolve()
        self._held = threading.local()  # per thread: (file identity, connection)
        meta = self._read_meta()
        self.base_url = meta.get("base_url") or None
        self.root = meta.get("root") or None
        # A run's own base URL (corpus_base_url), applied to the results it gets: the index,
        # which other runs and users share, keeps the URLs it was built with.
        _check_base_url(link_base_url)
        self.link_base_url = link_base_url if link_base_url and link_base_url != self.base_url else None

    @classmethod
    def open(cls, folder_or_index: str | Path, *, link_base_url: str | None = None) -> LocalCorpus:
        """The corpus of a folder (its default index) or of an index file."""
        p = Path(folder_or_index)
        if p.is_dir():
            return cls(default_index_path(p), link_base_url=link_base_url)
        if not p.exists():
            raise IndexNotFoundError(
                f"{p} does not exist (expected a folder of documents or its index)"
            )
        return cls(p, link_base_url=link_base_url)

    def _connect(self) -> sqlite3.Connection:
        if not self.index_path.is_file():
            raise IndexNotFoundError(
                f"no corpus index at {self.index_path}; build it with: deep-research index FOLDER"
            )
        try:
            return sqlite3.connect(self.index_path.as_uri() + "?mode=ro", uri=True, timeout=30)
        except sqlite3.Error as e:
            raise CorpusError(f"cannot open the corpus index {self.index_path}: {e}") from None

    def _search_connection(self) -> sqlite3.Connection:
        """This thread's connection to the index file as it is now."""
        try:
            st = os.stat(self.index_path)
            ident = (st.st_dev, st.st_ino)
        except OSError:
            ident = None
        held = getattr(self._held, "con", None)
        if held is not None and ident is not None and held[0] == ident:
            return held[1]
        if held is not None:
            held[1].close()
            self._held.con = None
        con = self._connect()  # no index there: IndexNotFoundError
        self._held.con = (ident, con)
        return con

    def _read_meta(self) -> dict[str, str]:
        con = self._connect()
        try:
            meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.Error:
            raise CorpusError(f"{self.index_path} is not a corpus index") from None
        finally:
            con.close()
        if meta.get("schema_version") != str(SCHEMA_VERSION):
            raise IndexVersionError(
                f"the corpus index {self.index_path} has schema version "
                f"{meta.get('schema_version', '?')}, this program reads version {SCHEMA_VERSION}; "
                "rebuild it with: deep-research index FOLDER"
            )
        return meta

    def document_count(self) -> int:
        """How many documents the index holds."""
        con = self._connect()
        try:
            return int(con.execute("SELECT count(*) FROM documents").fetchone()[0])
        except sqlite3.Error as e:
            raise CorpusError(f"cannot read the corpus index {self.index_path}: {e}") from None
        finally:
            con.close()

    async def search(self, query: str, *, max_results: int = 5) -> list[SearchResult]:
        """The best-matching documents, with their full content and a snippet."""
        return await asyncio.to_thread(self.search_sync, query, max_results=max_results)

    def search_sync(self, query: str, *, max_results: int = 5) -> list[SearchResult]:
        all_terms = fts_query(query, "AND")
        if not all_terms or max_results <= 0:
            return []
        con = self._search_connection()
        try:
            con.execute("BEGIN")  # one snapshot for the ranking and the rows
            hits = [(rowid, rank, all_terms) for rowid, rank in con.execute(_RANK_SQL, (all_terms, max_results))]
            any_terms = fts_query(query, "OR")
            if len(hits) < max_results and any_terms != all_terms:
                seen = {h[0] for h in hits}
                more = _rank_any(con, _query_terms(query, "OR"), any_terms, max_results + len(hits))
                hits += [(rowid, rank, any_terms) for rowid, rank in more if rowid not in seen][
                    : max_results - len(hits)
                ]
            found = {}
            if hits:
                sql = self._rows_sql(con).format(ids=",".join("?" * len(hits)))
                found = {row[0]: row for row in con.execute(sql, [h[0] for h in hits])}
            rows = []
            phrases_of: dict[str, list] = {}
            for rowid, rank, terms in hits:
                row = found.get(rowid)  # a row gone between the two reads is left out
                if row is None:
                    continue
                _, url, title, content, fmt, path, sizes, locations = row
                phrases = phrases_of.get(terms)
                if phrases is None:
                    operator = "AND" if terms == all_terms else "OR"
                    phrases = phrases_of[terms] = [query_stems(t) for t in _query_terms(query, operator)]
                sizes = _varints(sizes) if sizes is not None else []
                text = snippet(content, phrases, sizes[1] if len(sizes) > 1 else None, tokens=SNIPPET_TOKENS)
                if text is None:  # counted otherwise than the index: FTS5's own snippet
                    got = con.execute(_SNIPPET_SQL, (terms, rowid)).fetchone()
                    text = got[0] if got else ""
                rows.append((url, title, content, fmt, text, rank, path, locations))
        except sqlite3.Error as e:
            self._held.con = None
            con.close()
            raise CorpusError(f"searching the corpus index {self.index_path} failed: {e}") from None
        except BaseException:
            con.rollback()
            raise
        con.rollback()  # end the read transaction: one left open keeps writers waiting
        return [self._result(*row) for row in rows]

    def _rows_sql(self, con: sqlite3.Connection) -> str:
        """The rows query for this index (``{ids}`` left to fill): an index written before
        locations were stored (extractor version 2, rebuilt on the next ``index`` run) has
        no such column."""
        held = getattr(self._held, "rows_sql", None)
        if held is not None and held[0] is con:
            return held[1]
        columns = {r[1] for r in con.execute("PRAGMA table_info(documents)")}
        sql = _ROWS_SQL.replace("{locations}", "d.locations" if "locations" in columns else "NULL")
        self._held.rows_sql = (con, sql)
        return sql

    def _result(self, url: str, title: str, content: str, fmt: str, snippet: str, rank: float,
                path: str, locations: str | None = None) -> SearchResult:
        if self.link_base_url and self.root:
            # as build_index would store it under this base URL (markdown is then published)
            url = document_url(Path(self.root), path, self.link_base_url)
            if _KINDS.get(Path(path).suffix.lower()) == "markdown":
                fmt = "markdown"
        # bm25() is lower-is-better; scores are higher-is-better.
        return SearchResult(
            url=url,
            title=title,
            content=content,
            format=fmt,
            snippet=_SPACES.sub(" ", snippet).strip(),
            score=-rank,
            locations=_locations(locations),
        )


def _locations(stored: str | None) -> list | None:
    """The marks stored for a document (as written by the extractors; citations check them
    when they read them); None when there are none or they cannot be read."""
    if not stored:
        return None
    try:
        marks = json.loads(stored)
    except ValueError:
        return None
    return marks if isinstance(marks, list) and marks else None

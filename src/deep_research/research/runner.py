"""Running the graph outside LangGraph Studio: persistence (SQLite or PostgreSQL), the
run's saved settings, and a stream of progress events for a user interface."""

from __future__ import annotations

import functools
import importlib
import json
import os
import re
import uuid
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Callable

from langchain_core.messages import HumanMessage
from langgraph.types import Command

from ..errors import UserError, mask_url_credentials
from .runtime import tracing
from .runtime.deps import Deps
from .graph import make_graph

DEFAULT_DB = ".deep-research/state.sqlite"
RUNS_NAMESPACE = ("deep_research", "local", "runs")


def is_postgres(db: str) -> bool:
    return db.startswith(("postgres://", "postgresql://"))


@asynccontextmanager
async def open_persistence(db: str) -> AsyncIterator[tuple[Any, Any]]:
    """(checkpointer, store) on one database: a SQLite file or a PostgreSQL server."""
    if is_postgres(db):
        from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
        from langgraph.store.postgres.aio import AsyncPostgresStore

        try:
            async with AsyncPostgresSaver.from_conn_string(db) as saver, \
                    AsyncPostgresStore.from_conn_string(db) as store:
                await saver.setup()
                await store.setup()
                yield saver, store
        except OSError as e:
            raise UserError(f"cannot connect to PostgreSQL: {e}") from None
        return
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    path = Path(db).expanduser()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot create the state directory {path.parent}: {e.strerror or e}") from None
    async with AsyncSqliteSaver.from_conn_string(str(path)) as saver, \
            _sqlite_store().from_conn_string(str(path)) as store:
        for conn in (saver.conn, store.conn):  # a writer waits for the other, up to a bound
            await conn.execute(f"PRAGMA busy_timeout = {int(SQLITE_BUSY_TIMEOUT_S * 1000)}")
        await saver.setup()  # (WAL: readers never wait for the writer)
        await store.setup()
        await store.conn.execute("PRAGMA synchronous = NORMAL")  # safe with WAL; fewer fsyncs
        yield saver, store


SQLITE_BUSY_TIMEOUT_S = 30.0


@functools.cache
def _sqlite_store():
    """The LangGraph SQLite store, with its transactions begun IMMEDIATE.

    The checkpointer and the store share one SQLite file through two connections. The
    store's batches (one ``BEGIN`` per batch, gets and puts of parallel researchers
    together) began DEFERRED: a batch that read, then wrote after the checkpointer had
    committed meanwhile, could not upgrade its stale snapshot, and SQLite answers that at
    once with "database is locked", whatever the busy timeout (a research run with 8
    researchers under a CPU hog failed so at researcher_tools, 3 runs in 3 here).
    ``BEGIN IMMEDIATE`` takes the write lock when the batch begins, waiting for it up to the
    busy timeout, so one writer at a time and no upgrade; a failed batch is rolled back."""
    from langgraph.store.sqlite.aio import AsyncSqliteStore

    class SqliteStore(AsyncSqliteStore):
        @asynccontextmanager
        async def _cursor(self, *, transaction: bool = True):
            if not self.is_setup:
                await self.setup()
            async with self.lock:
                if transaction:
                    await self.conn.execute("BEGIN IMMEDIATE")
                async with self.conn.cursor() as cur:
                    try:
                        yield cur
                    except BaseException:
                        if transaction:
                            await self.conn.execute("ROLLBACK")
                        raise
                    if transaction:
                        await self.conn.execute("COMMIT")

    return SqliteStore



def load_deps() -> Deps:
    """Deps from DEEP_RESEARCH_DEPS=module:function (an extension point for custom model or
    search providers), else the defaults."""
    spec = os.environ.get("DEEP_RESEARCH_DEPS")
    if not spec:
        return Deps()
    module, _, attr = spec.partition(":")
    try:
        factory = getattr(importlib.import_module(module), attr or "deps")
    except (ImportError, AttributeError) as e:
        raise UserError(f"DEEP_RESEARCH_DEPS={spec!r} cannot be loaded: {e}") from None
    return factory() if callable(factory) else factory


@dataclass
class RunHandle:
    thread_id: str
    context: dict
    config: dict = field(default_factory=dict)

    @classmethod
    def new(cls, context: dict) -> "RunHandle":
        tid = uuid.uuid4().hex[:12]
        return cls(tid, context, {"configurable": {"thread_id": tid}})

    @classmethod
    def existing(cls, thread_id: str, context: dict) -> "RunHandle":
        return cls(thread_id, context, {"configurable": {"thread_id": thread_id}})


async def save_run(store, handle: RunHandle, question: str) -> None:
    """The run's settings and question, kept for ``resume``; without the credentials of
    URLs (``--base-url https://user:password@host/v1``): the state database is a file or a
    server others may read, and its rows are copied into backups. The run itself uses the
    settings as given (``handle.context``, held in memory); a resume gets them again from
    what the user gives it (``resupplied``)."""
    await store.aput(RUNS_NAMESPACE, handle.thread_id, {"context": kept(handle.context), "question": question},
                     index=False)


def kept(value: Any) -> Any:
    """``value`` (a setting, or the settings) as the state database keeps it: every URL's
    credentials masked, in text, lists and mappings (an MCP server's url)."""
    if isinstance(value, str):
        return mask_url_credentials(value)
    if isinstance(value, dict):
        return {k: kept(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [kept(v) for v in value]
    return value


def resupplied(saved: dict, given: dict, environ: dict[str, str] | None = None,
               options: dict[str, str] | None = None) -> dict:
    """A saved run's settings for its resume: ``given`` (typed on resume) over ``saved``;
    a saved setting whose URL credentials were not kept is taken from the environment
    (DEEP_RESEARCH_<SETTING>, OPENAI_BASE_URL) when that names the same URL, credentials
    aside. Otherwise a UserError naming the setting and how to give it again (``options``:
    setting -> the option resume takes for it): the run would call the server without its
    password, and fail at every call."""
    from .runtime.configuration import Configuration

    merged = {**saved, **given}
    env = Configuration.env_overrides(environ)
    for name, value in saved.items():
        if name in given or not _masked(value):
            continue
        text = env.get(name)
        if text is not None and kept(_as_saved(text, value)) == value:
            merged[name] = _as_saved(text, value)  # the environment's, with its credentials
            continue
        option = (options or {}).get(name)
        variables = f"DEEP_RESEARCH_{name.upper()}" + (" or OPENAI_BASE_URL" if name == "model_base_url" else "")
        how = f"{option} on resume, or {variables} set to it" if option else f"{variables} set to it"
        raise UserError(f"this run's {option or name} held a password or token ({_shown(value)}), which the "
                        f"state database does not keep: give the URL again ({how})")
    return merged


_MASKED = re.compile(r"://(?:[^/?#@\s:]*:)?\*\*\*@")


def _masked(value: Any) -> bool:
    """Whether ``value`` holds a URL whose credentials were not kept."""
    if isinstance(value, str):
        return bool(_MASKED.search(value))
    if isinstance(value, dict):
        return any(_masked(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_masked(v) for v in value)
    return False


def _as_saved(text: str, saved: Any) -> Any:
    """An environment variable's text as the setting's value (JSON for a mapping)."""
    if isinstance(saved, (dict, list)):
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 200 else text[:199] + "…"


async def load_run(store, thread_id: str) -> dict:
    item = await store.aget(RUNS_NAMESPACE, thread_id)
    if item is None:
        raise UserError(f"no run with thread id {thread_id!r} in this state database "
                        "(use the same --db as the original run)")
    return item.value


Event = dict


async def stream_run(graph, handle: RunHandle, payload: Any, on_event: Callable[[Event], None]) -> None:
    """Run until the graph ends or waits (interrupt); report events as they come. The run is
    one OpenTelemetry trace (a ``research run`` span around its nodes), and its
    ``trace_content`` decides what the tracers may hold (tracing.py).

    An update event says ``subgraph_output`` when it is a subgraph's result handed to its
    parent: its usage, sources and errors were already reported by the subgraph's own nodes."""
    content = handle.context.get("trace_content") if isinstance(handle.context, dict) else None
    tracing.setup(None if content is None else bool(content))
    with tracing.span("research run", {"langgraph.thread_id": tracing.thread_of(handle.config)}):
        await _stream(graph, handle, payload, on_event)


async def _stream(graph, handle: RunHandle, payload: Any, on_event: Callable[[Event], None]) -> None:
    subgraph_nodes: set[tuple[tuple[str, ...], str]] = set()
    async for ns, mode, data in graph.astream(payload, handle.config, context=handle.context,
                                              stream_mode=["updates", "custom"], subgraphs=True,
                                              durability="sync"):
        for depth in range(len(ns)):  # each namespace level names a subgraph node of its parent
            subgraph_nodes.add((tuple(ns[:depth]), ns[depth].split(":")[0]))
        if mode == "custom":
            on_event({"kind": "progress", **(data if isinstance(data, dict) else {"data": data})})
        elif mode == "updates" and isinstance(data, dict):
            for node, update in data.items():
                if node == "__interrupt__":
                    continue
                on_event({"kind": "update", "node": node, "update": update if isinstance(update, dict) else {},
                          "namespace": ns, "subgraph_output": (tuple(ns), node) in subgraph_nodes})


def first_payload(question: str) -> dict:
    return {"messages": [HumanMessage(question)]}


def resume_payload(value: Any) -> Command:
    return Command(resume=value)


def compile_for(deps: Deps, checkpointer, store):
    return make_graph(deps, checkpointer=checkpointer, store=store)

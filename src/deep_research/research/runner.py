"""Running the graph outside LangGraph Studio: persistence (SQLite or PostgreSQL), the
run's saved settings, and a stream of progress events for a user interface."""

from __future__ import annotations

import asyncio
import functools
import importlib
import os
import uuid
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Callable

from langchain_core.messages import HumanMessage
from langgraph.types import Command

from ..errors import UserError, mask_url_passwords
from .runtime import tracing
from .runtime.thread_settings import RESTATED, kept, resupplied  # noqa: F401 - resupplied: the CLI's resume
from .runtime.deps import Deps
from .graph import make_graph

DEFAULT_DB = ".deep-research/state.sqlite"
RUNS_NAMESPACE = ("deep_research", "local", "runs")


def is_postgres(db: str) -> bool:
    return db.startswith(("postgres://", "postgresql://"))


# On Ctrl-C (or any exception) the graph's stream returns before the node tasks it cancelled
# have run their cancellation handlers, which record the stop in the thread's state
# (failure._record_cancelled): the database waits for them this long before it closes.
SETTLE_ON_EXIT_S = 10.0


@asynccontextmanager
async def _settled_on_exit() -> AsyncIterator[None]:
    """Leaving with an exception, wait (at most :data:`SETTLE_ON_EXIT_S`) for the tasks started
    inside the block (the graph's nodes) to finish, so that a node cancelled by Ctrl-C can still
    write its cancellation before the connection closes under it ("Connection closed")."""
    before = asyncio.all_tasks()
    try:
        yield
    except BaseException:
        me = asyncio.current_task()
        pending = [t for t in asyncio.all_tasks() - before if t is not me and not t.done()]
        if pending:
            await asyncio.wait(pending, timeout=SETTLE_ON_EXIT_S)
        raise


@asynccontextmanager
async def open_persistence(db: str) -> AsyncIterator[tuple[Any, Any]]:
    """(checkpointer, store) on one database: a SQLite file or a PostgreSQL server."""
    if is_postgres(db):
        from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
        from langgraph.store.postgres.aio import AsyncPostgresStore

        from psycopg import OperationalError

        async with AsyncExitStack() as opened:
            try:  # only the connection and the set-up: an error of the run itself is not one of them
                pg_saver = await opened.enter_async_context(AsyncPostgresSaver.from_conn_string(db))
                pg_store = await opened.enter_async_context(AsyncPostgresStore.from_conn_string(db))
                await pg_saver.setup()
                await pg_store.setup()
            except (OSError, OperationalError) as e:  # psycopg's "connection failed" is no OSError
                where = mask_url_passwords(db)
                raise UserError(f"cannot connect to PostgreSQL at {where}: "
                                + mask_url_passwords(" ".join(str(e).split()))) from None
            async with _settled_on_exit():
                yield pg_saver, pg_store
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
        async with _settled_on_exit():
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

    # The CLI gives every run of a thread its settings in full (saved with the run, given
    # again on resume, where --max-tokens may replace a cap): the graph takes them as given
    # instead of the settings its question was started with (thread_settings.py).
    @classmethod
    def new(cls, context: dict) -> "RunHandle":
        tid = uuid.uuid4().hex[:12]
        return cls(tid, context, {"configurable": {"thread_id": tid, RESTATED: True}})

    @classmethod
    def existing(cls, thread_id: str, context: dict) -> "RunHandle":
        return cls(thread_id, context, {"configurable": {"thread_id": thread_id, RESTATED: True}})


async def save_run(store, handle: RunHandle, question: str, environment: dict | None = None) -> None:
    """The run's settings and question, kept for ``resume``; without the credentials of
    URLs (``--base-url https://user:password@host/v1``): the state database is a file or a
    server others may read, and its rows are copied into backups. The run itself uses the
    settings as given (``handle.context``, held in memory); a resume gets them again from
    what the user gives it (``resupplied``). ``environment``: what the environment set when
    the run started (:func:`environment_snapshot`), for a resume to say what changed."""
    value = {"context": kept(handle.context), "question": question}
    if environment is not None:
        value["environment"] = environment
    await store.aput(RUNS_NAMESPACE, handle.thread_id, value, index=False)


# The keys a run's models and searches may be paid with (a model's own api_key_env too).
KEY_VARIABLES = ("OPENAI_API_KEY", "AZURE_OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY",
                 "MISTRAL_API_KEY", "TAVILY_API_KEY")
# Variables the project reads besides DEEP_RESEARCH_<SETTING> (Configuration.env_overrides).
PROVIDER_VARIABLES = ("OPENAI_BASE_URL", "SEARXNG_URL")


def environment_snapshot(environ: dict[str, str] | None = None, key_variables: tuple[str, ...] = (),
                         salt: str | None = None) -> dict:
    """What the environment sets for a run: every DEEP_RESEARCH_<SETTING> and provider
    variable as set (URL credentials masked), and for each key variable set a fingerprint
    (an HMAC of the key under a random salt kept beside it: tells another key from the same
    one, and gives nothing of the key away)."""
    import hashlib
    import hmac
    import secrets

    from .runtime.configuration import Configuration

    env = os.environ if environ is None else environ
    names = [f"DEEP_RESEARCH_{n.upper()}" for n in Configuration.model_fields] + list(PROVIDER_VARIABLES)
    salt = salt or secrets.token_hex(16)
    keys = sorted(set(KEY_VARIABLES) | set(key_variables))
    return {"variables": {n: kept(env[n]) for n in sorted(names) if env.get(n)}, "salt": salt,
            "keys": {n: hmac.new(salt.encode(), env[n].encode(), hashlib.sha256).hexdigest()[:16]
                     for n in keys if env.get(n)}}


def environment_changes(started: Any, environ: dict[str, str] | None = None) -> list[str]:
    """One line for each variable of :func:`environment_snapshot` that differs now from
    when the run started (``started``; none for a run saved before snapshots were kept):
    a resume researches with the environment it has, which may be another model, server
    or search key than the one the run began with."""
    if not isinstance(started, dict) or not isinstance(started.get("variables"), dict):
        return []
    from ..terminal import one_line

    now = environment_snapshot(environ, tuple(started.get("keys") or ()), str(started.get("salt") or ""))
    was, is_ = started["variables"], now["variables"]
    out = []
    for name in sorted(set(was) | set(is_)):
        old, new = was.get(name), is_.get(name)
        if old == new:
            continue
        if new is None:
            out.append(f"{name} was {one_line(str(old), 80)!r} when the run started and is not set now: this resume "
                       "uses the setting's default")
        elif old is None:
            out.append(f"{name} was not set when the run started and is {one_line(new, 80)!r} now: this resume "
                       "uses it")
        else:
            out.append(f"{name} was {one_line(str(old), 80)!r} when the run started and is {one_line(new, 80)!r} "
                       "now: this resume uses the new value")
    old_keys, new_keys = started.get("keys") or {}, now["keys"]
    for name in sorted(set(old_keys) | set(new_keys)):
        if old_keys.get(name) == new_keys.get(name):
            continue
        if name not in new_keys:
            out.append(f"{name} held a key when the run started and is not set now")
        elif name not in old_keys:
            out.append(f"{name} was not set when the run started and holds a key now: this resume uses it")
        else:
            out.append(f"{name} holds another key than when the run started: this resume uses the new one")
    return out


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

"""When a run fails: the failure visible in the thread's state, notes saved, and an
exception whose message the LangGraph server passes on.

Every node is wrapped (:func:`guarded`). When a node fails for good, the wrapper

* saves notes.md / raw_notes.md when research was gathered (a ResearchFailed raised by a
  node has done so already);
* records ``status: "failed"`` and an ``errors`` entry (stage, message, notes path) on the
  thread's current checkpoint, as an input-like write that belongs to no task. The failed
  step stays the next step, so ``resume`` (CLI) or a run without input (Studio, SDK)
  retries exactly that step, and a research round that already finished inside the
  supervisor is not run again; the state snapshot shows the failure meanwhile;
* sends the failure's chat turn (its cause and what to do) to the run's live ``messages``
  stream before raising, so a chat client shows it as a message, not only as a toast;
* raises :class:`ResearchFailed` (a ``RuntimeError``) or the ``UserError`` (a
  ``ValueError``): the server shows the message of built-in exception types only.

A node whose task is cancelled (``runs.cancel`` on the server, Ctrl-C) records ``status:
"cancelled"`` the same way and lets the cancellation go on; the next run on the thread sets
the status running again, as after a failure.

Interrupts and other control flow (``GraphBubbleUp``) pass through untouched. The wrapper
also marks the turns of a node's internal conversation hidden (chat.hide_internal_turns),
and gives the node the settings of the thread's question (thread_settings.settled); a
node of the top graph tells the user, once per run, which settings the run gave are not
used (thread_settings.notice_update: a chat turn, audit.json).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from langgraph.errors import GraphBubbleUp
from langgraph.types import Command

from ...errors import UserError
from .chat import (emit_live, failure_message, hide_internal_turns, take_back_saved_lines, track_saved_lines,
                   run_id, untrack_saved_lines)
from .run_folder import asave_notes, in_report_folder, root_checkpoint
from .configuration import Configuration
from .setting_policy import for_server_users
from .thread_settings import notice_update, settled
from . import tracing
from .meter import ModelCallError, describe

log = logging.getLogger(__name__)

FAILED = "failed"  # the ``kind`` of an errors entry that stopped the run (and that run's status)
CANCELLED = "cancelled"  # the status of a run whose node was cancelled
ADDITIVE = ("errors", "messages", "degradations", "ignored_settings")  # channels with a reducer: one write per failure


class ResearchFailed(RuntimeError):
    """A critical step failed for good. The run stops with this message; research gathered
    so far stays in the checkpoint (resume retries the step) and in notes.md.

    A ``RuntimeError`` so that the LangGraph API server shows its message (it hides the
    message of exception types that do not derive from a built-in one)."""

    def __init__(self, stage: str, message: str, notes_path: str | None = None, *, gathered: bool = True):
        message = message.removeprefix(f"{stage}: ")  # a model error already names its node
        super().__init__(f"{stage}: {message}")
        self.stage = stage
        self.message = message
        self.notes_path = notes_path
        # False: the run failed before it had a brief or research (notes.md holds the
        # question alone), so nobody is told that research was saved
        self.gathered = gathered

try:  # where LangGraph keeps these; checked by tests/system/test_studio.py against the installed version
    from langgraph._internal._constants import (
        CONFIG_KEY_CHECKPOINT_MAP,
        CONFIG_KEY_CHECKPOINTER,
        NULL_TASK_ID,
    )
except ImportError:  # pragma: no cover - a LangGraph that moved them: failures still raise
    CONFIG_KEY_CHECKPOINT_MAP = CONFIG_KEY_CHECKPOINTER = NULL_TASK_ID = None  # type: ignore[assignment]

Node = Callable[[Any, Any, Any], Awaitable[Any]]


def failure_record(stage: str, message: str, notes_path: str | None) -> dict:
    record = {"stage": stage, "message": message, "kind": FAILED}
    if notes_path:
        record["notes"] = notes_path
    return record


def run_failures(values: dict) -> list[dict]:
    return [e for e in values.get("errors") or [] if e.get("kind") == FAILED]


async def record_failure(config: dict, update: dict) -> bool:
    """Write ``update`` (state keys of the root graph) onto the thread's current root
    checkpoint, as writes of no task: the state snapshot shows them, the next run on the
    thread applies them, and the checkpoint's next step is unchanged. False when there is
    no checkpointer (nothing to record on)."""
    conf = (config or {}).get("configurable") or {}
    saver = conf.get(CONFIG_KEY_CHECKPOINTER) if CONFIG_KEY_CHECKPOINTER else None
    root = (conf.get(CONFIG_KEY_CHECKPOINT_MAP) or {}).get("") if CONFIG_KEY_CHECKPOINT_MAP else None
    thread = conf.get("thread_id")
    if saver is None or not root or thread is None:
        return False
    target = {"configurable": {"thread_id": str(thread), "checkpoint_ns": "", "checkpoint_id": root}}
    # A retry that fails again writes to the same checkpoint: checkpointers keep the first
    # write at each index, so this failure's writes go after those already there.
    # A value channel (status) takes one write per step: written once.
    saved = await saver.aget_tuple(target)
    earlier = [w[1] for w in (saved.pending_writes if saved else None) or () if w[0] == NULL_TASK_ID]
    writes = [("errors", [])] * len(earlier) + [(k, v) for k, v in update.items()
                                                if k in ADDITIVE or k not in earlier]
    await saver.aput_writes(target, writes, NULL_TASK_ID)
    return True


def has_research(state: dict) -> bool:
    return bool(state.get("research_brief") or state.get("notes") or state.get("raw_notes")
                or state.get("final_report"))


async def fail(stage: str, e: Exception, state: dict, config: dict, runtime: Any,
               notice: dict | None = None) -> Exception:
    """The exception to raise for ``e`` after recording the failure (see the module doc).
    ``notice``: the settings notice of the run (thread_settings.notice_update), recorded and
    sent before the failure's turn: a node of a subgraph that fails before any node of the
    top graph ran (a resume after a failed research round) would leave it only logged."""
    if getattr(e, "recorded", False):  # a node of a subgraph recorded it already
        return e
    notes = e.notes_path if isinstance(e, ResearchFailed) else None
    if isinstance(e, ResearchFailed):
        stage, message = e.stage, e.message
    elif isinstance(e, (UserError, ModelCallError)):
        message = str(e).removeprefix(f"{stage}: ")
    else:
        message = describe(e)
        log.exception("%s failed", stage)
    try:
        cfg: Configuration | None = Configuration.resolve(config, getattr(runtime, "context", None))
    except Exception:  # noqa: BLE001 - an invalid configuration: nowhere to save to (the failure goes on)
        cfg = None
    if notes is None and cfg is not None and isinstance(state, dict) and has_research(state):
        thread = str(((config or {}).get("configurable") or {}).get("thread_id") or "local")
        try:
            path = await asave_notes(cfg, state, thread, root_checkpoint(config))
        except UserError:  # nowhere to save to
            path = None
        notes = str(path) if path else None
    server = run_id(config) is not None
    if server and (shown := for_server_users(message, cfg, what=f"{stage} failed")) != message:
        # a server's chat users (and its thread's state, its run's error) are not shown its
        # paths (a corpus folder that is missing, a report folder it cannot write): its log has them
        message = shown
        e = UserError(message) if isinstance(e, UserError) else e
    gathered = not isinstance(e, ResearchFailed) or e.gathered
    out: Exception = e if isinstance(e, UserError) else \
        e if isinstance(e, ResearchFailed) and e.message == message else \
        ResearchFailed(stage, message, notes, gathered=gathered)
    if isinstance(out, ResearchFailed) and out.notes_path is None:
        out.notes_path = notes
    told = notes if gathered else None
    turn = failure_message(stage, message, told, setup=isinstance(e, UserError), server=server)
    notice = dict(notice or {})
    said = notice.pop("messages", [])
    for shown in (*said, turn):
        emit_live(shown)  # the chat gets it in the live stream, before the run's error event
    try:
        kept = in_report_folder(cfg, notes) if server and notes and cfg is not None else \
            Path(notes).name if server and notes else notes  # a server's state: no server paths
        await record_failure(config, {**notice, "status": "failed",
                                      "errors": [failure_record(stage, message, kept)], "messages": [*said, turn]})
    except Exception as problem:  # noqa: BLE001 - the failure itself is still raised
        log.error("could not record the failure in the thread state: %s", describe(problem))
    out.recorded = True  # type: ignore[attr-defined]
    return out


async def _record_cancelled(stage: str, config: dict) -> None:
    """A node's task was cancelled: the run stops here (``runs.cancel`` on the server, Ctrl-C
    in a terminal). ``status: "cancelled"`` goes onto the thread's current checkpoint like a
    failure (:func:`record_failure`), so the state no longer says "running"; the next run on
    the thread sets it running again. A status already written there stays: a sibling node
    cancelled because another failed keeps "failed" (written before the failure was raised)."""
    try:
        await record_failure(config, {"status": CANCELLED})
    except Exception as problem:  # noqa: BLE001 - the cancellation itself goes on
        log.error("could not record the cancellation of %s in the thread state: %s", stage, describe(problem))


def _running_again(result: Any) -> Any:
    """A node's result with ``status: "running"``, unless it sets a status itself."""
    if isinstance(result, Command):
        update = result.update if isinstance(result.update, dict) else None
        if update is None and result.update is not None:
            return result
        if update and "status" in update:
            return result
        return Command(graph=result.graph, update={**(update or {}), "status": "running"},
                       resume=result.resume, goto=result.goto)
    if isinstance(result, dict):
        return result if "status" in result else {**result, "status": "running"}
    return result


def _with(result: Any, extra: dict) -> Any:
    """A node's result with ``extra`` written too (lists of a channel with a reducer before
    the node's own: a notice reads before the turn the node adds)."""
    if not extra:
        return result
    if isinstance(result, Command):
        update = result.update if isinstance(result.update, dict) else None
        if update is None and result.update is not None:
            return result
        return Command(graph=result.graph, update=_merged(update or {}, extra), resume=result.resume,
                       goto=result.goto)
    if isinstance(result, dict):
        return _merged(result, extra)
    if result is None:
        return dict(extra)
    return result


def _merged(update: dict, extra: dict) -> dict:
    out = dict(update)
    for key, value in extra.items():
        mine = out.get(key)
        out[key] = [*value, *mine] if isinstance(value, list) and isinstance(mine, list) else \
            (value if key not in out else mine)
    return out


RECORDS = ("errors", "degradations")  # a node's records of the problems it went on after


def _records_for_server_users(result: Any, config: dict, runtime: Any) -> Any:
    """A server run's node result with the messages of its :data:`RECORDS` written for its
    users (setting_policy.for_server_users): they stay in the thread's state, run.json and
    notes.md, which its clients read, and named the server's folders ("PDF not written:
    [Errno 13] Permission denied: '/srv/…'"), as a failure did before it was hidden
    (:func:`fail`); the server's log keeps the full text."""
    update = result.update if isinstance(result, Command) else result
    if not isinstance(update, dict) or not any(isinstance(update.get(k), list) and update[k] for k in RECORDS):
        return result
    try:
        cfg: Configuration | None = Configuration.resolve(config, getattr(runtime, "context", None))
    except Exception:  # noqa: BLE001 - an invalid configuration: the environment's paths are still hidden
        cfg = None

    def shown(record: Any) -> Any:
        if not isinstance(record, dict) or not isinstance(record.get("message"), str):
            return record
        return {**record, "message": for_server_users(record["message"], cfg, what=f"{record.get('stage')} problem")}

    update = {**update, **{k: [shown(r) for r in update[k]] for k in RECORDS if isinstance(update.get(k), list)}}
    if isinstance(result, Command):
        return Command(graph=result.graph, update=update, resume=result.resume, goto=result.goto)
    return update


def guarded(stage: str, fn: Node, *, root: bool = False) -> Node:
    """``fn`` (a node taking state, config, runtime) with failures recorded and raised as
    above. ``root``: a node of the top graph, which also clears a failed status when the
    thread runs again."""

    @functools.wraps(fn)
    async def node(state, config, runtime):
        ignored: list[dict] = []
        lines = track_saved_lines()
        try:
            config, runtime, ignored = settled(state, config, runtime)  # the settings of the thread's question
            with tracing.span(f"node {stage}", {"deep_research.node": stage,
                                                "langgraph.thread_id": tracing.thread_of(config)}):
                result = await fn(state, config, runtime)
        except GraphBubbleUp:
            raise
        except asyncio.CancelledError:
            await _record_cancelled(stage, config)
            raise
        except Exception as e:
            take_back_saved_lines()  # the failure's turn is the chat's last line, not this node's progress
            notice = notice_update(state, config, ignored) if ignored and isinstance(state, dict) else None
            out = await fail(stage, e, state, config, runtime, notice)
            if out is e:
                raise
            raise out from e
        finally:
            untrack_saved_lines(lines)
        result = hide_internal_turns(result)  # internal conversations never reach a chat (chat.py)
        if run_id(config) is not None:  # a server's run: its records of problems name no server path
            result = _records_for_server_users(result, config, runtime)
        if root and ignored and isinstance(state, dict):  # settings this run gave that are not used: said
            result = _with(result, notice_update(state, config, ignored))
        if root and isinstance(state, dict) and state.get("status") in (FAILED, CANCELLED):
            return _running_again(result)
        return result

    return node

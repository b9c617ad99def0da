"""What a chat client shows: the ``messages`` of the thread, as LangGraph Studio and generic
LangGraph chat clients (LangChain's Agent Chat UI) render them.

* Turns for the user: the clarifying question, the brief to approve, the report to review,
  the report (its citations as numbered links: the linked markdown; the state keeps
  ``report_markdown`` with its ``<ref>`` tags for custom UIs), and why a run failed, with
  advice a chat user can follow.
* Progress: one short turn per run (name ``progress``), replaced in place as the run moves
  on (stage, round, sources read), sent to the live stream as it happens. Written only
  when the run has a server run id (LangGraph server); the CLI shows its own progress.
* Internal turns (the supervisor's and researchers' prompts, tool calls and results) live
  in ``supervisor_messages`` / ``researcher_messages``, never in ``messages``; their ids
  start with ``do-not-render-``, the prefix Agent Chat UI skips, for the clients that
  merge every message event of a subgraph into the chat. Model calls never stream into
  the chat (they are tagged ``nostream``, see meter.py).

A client that streams subgraphs (Agent Chat UI does) replaces the whole thread view with
each subgraph's ``values`` event, so the supervisor and researcher subgraphs carry a copy
of the chat in their own ``messages`` (state.py): the chat never blanks while research runs.
"""

from __future__ import annotations

import logging
import re
import uuid
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, HumanMessage, RemoveMessage
from langgraph.types import Command

from ...json_values import map_strings
from ...language import labels
from .report_files import links_markdown
from .usage import message_text

log = logging.getLogger(__name__)

REPORT_NAME = "report"  # the name of a chat turn that holds a finished report
PROGRESS_NAME = "progress"  # the run's progress turn (replaced in place)
FAILURE_NAME = "error"  # why the run failed
BRIEF_NAME = "brief"  # the brief to approve
REVIEW_NAME = "report_review"  # the report to review
SETTINGS_NAME = "settings"  # the settings a run gave that are not used (thread_settings.notice_update)
INVALID_DECISION_NAME = "invalid_decision"  # why an answer to the brief approval or report review was not one
NO_QUESTION_NAME = "no_question"  # why a chat message was taken as no question (scope/clarify.py)
REFUSED_NAME = "refused"  # that message, cut to a preview: no question, and no conversation
HIDDEN_PREFIX = "do-not-render-"  # Agent Chat UI does not render a message whose id starts so
INTERNAL_KEYS = ("supervisor_messages", "researcher_messages")
# turns a model is not shown as conversation
NOT_CONVERSATION = (FAILURE_NAME, PROGRESS_NAME, SETTINGS_NAME, INVALID_DECISION_NAME, NO_QUESTION_NAME, REFUSED_NAME)


# --- turns for the user ----------------------------------------------------------------------
def citation_line(summary: dict, lang: str | None = None) -> str:
    """One line about the citations, as the CLI prints it, in the run's language."""
    s = summary or {}
    t = labels(lang)
    line = t["citation_line"].format(
        verified=s.get("verified", 0), repaired=s.get("repaired", 0), unsupported=s.get("unsupported", 0),
        fragment_links=s.get("fragment_links", 0))
    if "claims" in s:  # the claim check: supported / differ from their source / not checked
        line += " " + t["claims_checked"] + " " + ", ".join([
            t["claims_supported"].format(n=s.get("claims_supported", 0)),
            # a claim whose quote is not on its page is counted under the quotes, not again here
            t["claims_differ"].format(n=s.get("claims_unsupported", 0) - s.get("claims_quote_not_found", 0)),
            t["claims_unchecked"].format(n=s.get("claims_unchecked", 0))]) + "."
    return line


def chat_markdown(markdown: str, sources: list, lang: str | None = None) -> str:
    """A report (UI markdown with ``<ref>`` tags) as a chat shows it: each citation a
    numbered link to its sentence and a Sources list (the linked markdown, made by code
    from the checked citations; nothing is written to disk)."""
    from ...citations.check import check_citations
    from ...publish.markdown import linked_markdown
    from ...terminal import inert_text

    return inert_text(linked_markdown(check_citations(markdown, sources), labels(lang)["sources"]))


def report_message(linked_markdown: str, summary: dict, files: dict, lang: str | None = None,
                   links: dict | None = None, *, server: bool = False) -> AIMessage:
    """The final report as the chat's last turn: the linked markdown (citations as
    numbered links), a one-line citation summary and where the files are: links to them
    when the server serves them (``links``, see report_files.py), else the folder on disk,
    except on a server (``server``: its folders are no business of its chat's users)."""
    footer = f"---\n{citation_line(summary, lang)}\n"
    if links:
        footer += links_markdown(links, lang)
    elif not server:
        names = [Path(files[k]).name for k in ("markdown", "linked", "html", "pdf", "citations", "notes")
                 if files.get(k)]
        footer += labels(lang)["report_written"].format(dir=files.get("dir", ""))
        if names:
            footer += f" ({', '.join(names)})"
    return AIMessage(f"{linked_markdown.rstrip()}\n\n{footer}", name=REPORT_NAME)


def review_message(shown: str, summary: dict, revisions_left: int, lang: str | None = None) -> AIMessage:
    ask = ("Approve this report, edit it, or say what to change"
           + (f" (one revision; {revisions_left} left)." if revisions_left > 0 else ".")
           + " Use the buttons below, or reply \"approve\" or what to change.")
    return AIMessage(f"{shown.rstrip()}\n\n---\n{citation_line(summary, lang)}\n{ask}", name=REVIEW_NAME)


def shown_text(text: str) -> str:
    """What a model wrote, as a chat turn shows it: under report.md's output policy (raw
    HTML as text, images as links, no link but http(s), mailto and anchors; a chat client
    renders markdown, so an image to an internal address would load) and terminal controls
    as escapes. Plain prose is unchanged."""
    from ...publish.safety import safe_markdown
    from ...terminal import inert_text

    return inert_text(safe_markdown(text).text)


def shown_values(value: Any) -> Any:
    """:func:`shown_text` on every string of a JSON value (a brief, its plan, a council's
    review): what an interrupt hands a chat client, which shows it as it shows a turn."""
    return map_strings(value, shown_text)


def shown_report_markdown(markdown: str) -> str:
    """A report's markdown with its ``<ref>`` tags as the review interrupt hands it to a
    human to read and edit: report.md's output policy (refs as canonical tags), and what a
    terminal acts on an escape (:func:`shown_text`), except inside a ref's quote, where it
    is a space as report.md writes it (``ui_ref``): an edit sent back finds its quote again."""
    from ...citations.refs import parse_refs
    from ...publish.safety import safe_markdown
    from ...terminal import blank_controls, inert_text

    text = safe_markdown(markdown, keep_refs=True).text
    parts, at = [], 0
    for ref in parse_refs(text).refs:
        parts += [text[at:ref.start], blank_controls(text[ref.start:ref.end])]
        at = ref.end
    return inert_text("".join([*parts, text[at:]]))


def brief_message(brief: str, round_no: int, max_rounds: int) -> AIMessage:
    brief = shown_text(brief)
    return AIMessage(f"Research brief ({round_no} of at most {max_rounds}):\n\n{brief}\n\n"
                     "Approve it, edit it, or say what to change: use the buttons below, or reply "
                     "\"approve\" or what to change.", name=BRIEF_NAME)


def failure_message(stage: str, message: str, notes_path: str | None, *, setup: bool = False,
                    server: bool = False) -> AIMessage:
    """Why the run failed and what to do, in words that work in a chat. ``setup``: a
    setting is wrong (nothing ran yet). ``server``: the chat is a server's, whose users are
    not shown its paths (the notes are said to be saved, not where)."""
    message = shown_text(message)  # it may quote a server's error body or a page
    if setup:
        message = re.sub(r"^the run cannot start:[ \t]*", "", message)
        lead = "The run could not start:" + ("\n" if message.startswith("\n") else " ")
        text = (f"{lead}{message}\n\n"
                "Fix this setting (in the server's `.env` or the shell that started it, then restart the "
                "server; or in the assistant's configuration), then send your question again.")
    else:
        text = f"The run failed at {stage}: {message}"
        if notes_path:
            where = f"on the server ({Path(notes_path).name})" if server else f"in {notes_path}"
            text += f"\n\nResearch gathered so far is saved {where}."
        cap = next((name for name in ("max_total_tokens", "max_cost_usd") if f"cap ({name}" in message), None)
        if cap:  # the run's cap left no room for this step: retrying under the same cap fails again
            text += (f"\n\nRaise {cap} in the run's settings (the assistant's configuration), or clear it for "
                     "no cap, then send your message again.")
        else:
            text += ("\n\nWhen the cause is fixed, send your message again: the run starts over, and pages this "
                     "thread already read are not read again. (In LangGraph Studio or with the SDK, running "
                     "the thread again without input retries just this step.)")
    return AIMessage(text, name=FAILURE_NAME, id=f"failure-{uuid.uuid4().hex}")


# --- progress -------------------------------------------------------------------------------
def _round(event: dict) -> str:
    return f"Research round {event['round']}" if event.get("round") else "Research"


def _rounds(cfg: Any) -> str:
    n = getattr(cfg, "max_researcher_iterations", None)
    return f" of at most {n}" if n else ""


def progress_text(event: dict, cfg: Any = None) -> str | None:
    """A short line for the chat for a progress event (NodeContext.progress), or None
    when the chat does not show that event (most events: a chat gets a few lines a run)."""
    stage, kind = event.get("stage"), event.get("event")
    if stage == "index":
        # the corpus folder is not named: it is a path on the server
        return ("Indexing the documents of the corpus: new and changed files are read now "
                "(the first run on a large folder takes minutes)…")
    if stage == "brief":
        return "Writing the research brief…"
    if stage == "brief council":
        return f"A council of {event.get('models', 0)} models reviews the brief…"
    if stage == "draft":
        return "Writing a first draft…"
    if stage == "research" and event.get("mode") == "single":
        return "Researching (one researcher)…"
    if kind == "researchers_started":
        n, read = event.get("count", 0), event.get("sources")
        so_far = f" ({read} source{'s' * (read != 1)} read so far)" if isinstance(read, int) and read else ""
        return f"{_round(event)}{_rounds(cfg)}: {n} researcher{'s' * (n != 1)} searching and reading{so_far}…"
    if stage == "research skipped":
        return "No search is set up: writing from the brief alone…"
    if stage == "final report":
        return "Writing the report…"
    if stage == "citation check":
        return "Checking every citation against its source…"
    if stage == "report revision":
        return "Revising the report with your feedback…"
    return None


def progress_done(state: dict) -> str:
    """The one progress line a finished report keeps."""
    rounds = int(state.get("research_iterations") or 0)
    sources = len(state.get("sources") or {})
    refs = (state.get("citation_summary") or {}).get("refs")
    parts = [f"{rounds} research round{'s' * (rounds != 1)}", f"{sources} source{'s' * (sources != 1)} read"]
    if isinstance(refs, int):
        parts.append(f"{refs} citation{'s' * (refs != 1)} checked")
    return "Done: " + ", ".join(parts) + "."


def run_id(config: dict | None) -> str | None:
    """The server's id of this run (None outside a LangGraph server: no chat to show)."""
    config = config or {}
    for part in (config.get("configurable") or {}, config.get("metadata") or {}):
        rid = part.get("run_id")
        if rid:
            return str(rid)
    return None


def progress_message(config: dict | None, text: str, *, final: bool = False) -> AIMessage | None:
    """A progress line of this run (None outside a server). Each line has its own id: a
    client merges message events of one id as parts of one streamed message."""
    rid = run_id(config)
    if rid is None:
        return None
    kind = "done" if final else "step"
    return AIMessage(f"*{text}*", name=PROGRESS_NAME, id=f"progress-{kind}-{rid}-{uuid.uuid4().hex[:8]}")


def show_progress(config: dict | None, text: str | None) -> AIMessage | None:
    """Add a progress line to the chat: sent to the live stream now, and written to the
    current graph's ``messages`` when the node ends. Call it only from nodes of a graph
    whose ``messages`` are the chat (the root graph, the supervisor)."""
    message = progress_message(config, text) if text else None
    if message is not None:
        emit_live(message, save=True)
    return message


def progress_cleanup(state: dict, config: dict | None) -> list[BaseMessage]:
    """When the report is done: its progress lines removed, one summary line added."""
    steps = [m for m in state.get("messages") or []
             if getattr(m, "name", None) == PROGRESS_NAME and (m.id or "").startswith("progress-step-")]
    done = progress_message(config, progress_done(state), final=True)
    return [*(RemoveMessage(id=m.id) for m in steps), *([done] if done else [])]


# The lines a node saved to its graph's ``messages`` (emit_live with save), with the task's
# writer each went to: failure.guarded takes them back when the node fails (saved_by_node).
_SAVED: ContextVar[list[tuple[Any, str]] | None] = ContextVar("deep_research_saved_lines", default=None)


def emit_live(message: BaseMessage, *, save: bool = False) -> None:
    """Send ``message`` to the run's ``messages`` stream now, as a message of the root
    graph (so a client that does not stream subgraphs, as Agent Chat UI after a button,
    gets it from a subgraph's node too); ``save``: also write it to the current graph's
    ``messages`` when the node ends. Send each message id once: a client joins message
    events of one id as the parts of a streamed message. Does nothing outside a run."""
    try:
        from langchain_core.runnables.config import set_config_context
        from langgraph.config import get_config
        from langgraph.graph.message import push_message

        config = get_config()
        meta = dict(config.get("metadata") or {})
        ns = str(meta.get("langgraph_checkpoint_ns") or "")
        # the root graph's task this node runs under: the namespace push_message streams in
        meta["langgraph_checkpoint_ns"] = ns.split("|")[0]
        meta.pop("langgraph_path", None)
        with set_config_context({**config, "metadata": meta}) as context:
            context.run(push_message, message, state_key="messages" if save else None)
        saved = _SAVED.get()
        if save and saved is not None and message.id:
            saved.append((_task_writer(config), message.id))
    except Exception as e:  # noqa: BLE001 - no stream (the CLI, a plain invoke): nothing to show
        log.debug("message not streamed: %s", e)


def _task_writer(config: dict) -> Any:
    from langgraph._internal._constants import CONFIG_KEY_SEND

    return (config.get("configurable") or {}).get(CONFIG_KEY_SEND)


def track_saved_lines() -> Any:
    """Start recording the lines this node saves (a token for :func:`untrack_saved_lines`)."""
    return _SAVED.set([])


def untrack_saved_lines(token: Any) -> None:
    _SAVED.reset(token)


def take_back_saved_lines() -> None:
    """The node fails: remove the lines it saved (its progress, "Writing a first draft…")
    from its graph's ``messages``. LangGraph keeps a failed task's writes and applies them
    after the failure's own turn (recorded on the checkpoint, failure.record_failure), so the
    chat, loaded again, showed the line below the failure as if the run still worked. The
    removal goes to the same task's writes, after the lines it removes."""
    saved = _SAVED.get()
    if not saved:
        return
    try:
        from langgraph.config import get_config

        writer = _task_writer(get_config())
        ids = [mid for w, mid in saved if w is writer]  # a line of another task is not in these writes
        if writer is not None and ids:
            writer([("messages", [RemoveMessage(id=mid) for mid in ids])])
    except Exception as e:  # noqa: BLE001 - outside a run: nothing was saved
        log.debug("progress lines not taken back: %s", e)
    saved.clear()


def chat_with(messages: list[AnyMessage], shown: AnyMessage | None) -> list[AnyMessage]:
    """The chat as a subgraph started now shows it: ``messages`` and the line ``shown``
    (written when the current node ends)."""
    from langgraph.graph.message import add_messages

    return list(add_messages(list(messages), [shown])) if shown is not None else list(messages)


# --- internal turns ---------------------------------------------------------------------------
def hidden(message: Any) -> Any:
    """``message`` with an id chat clients do not render (RemoveMessage and others as they are)."""
    if not isinstance(message, BaseMessage) or isinstance(message, RemoveMessage):
        return message
    if (message.id or "").startswith(HIDDEN_PREFIX):
        return message
    return message.model_copy(update={"id": f"{HIDDEN_PREFIX}{message.id or uuid.uuid4().hex}"})


def hide_internal_turns(result: Any) -> Any:
    """A node's result with the messages of its internal conversations (``INTERNAL_KEYS``)
    marked hidden, before the result reaches the stream."""
    if isinstance(result, Command) and isinstance(result.update, dict):
        update = _hide(result.update)
        if update is result.update:
            return result
        return Command(graph=result.graph, update=update, resume=result.resume, goto=result.goto)
    if isinstance(result, dict):
        return _hide(result)
    return result


def _hide(update: dict) -> dict:
    if not any(k in update for k in INTERNAL_KEYS):
        return update
    out = dict(update)
    for key in INTERNAL_KEYS:
        value = out.get(key)
        if isinstance(value, list):
            out[key] = [hidden(m) for m in value]
        elif isinstance(value, BaseMessage):
            out[key] = hidden(value)
    return out


# --- the conversation, for the models --------------------------------------------------------
REPORT_EXCERPT_CHARS = 3000
_LINK = re.compile(r"\[([^\]\n]{1,40})\]\((?:[^()\s]|\([^()\s]*\))+\)")


def conversation_text(messages: list[AnyMessage]) -> str:
    lines = []
    for m in messages:
        if getattr(m, "name", None) in NOT_CONVERSATION:  # notices for the user, not conversation
            continue
        who = "User" if isinstance(m, HumanMessage) else "Assistant"
        text = message_text(m)
        if getattr(m, "name", None) == REPORT_NAME:
            text = _LINK.sub(r"[\1]", text)  # an earlier report's citation links: the markers are enough
            if len(text) > REPORT_EXCERPT_CHARS:
                # an earlier report in a follow-up conversation: its opening is enough context
                text = text[:REPORT_EXCERPT_CHARS] + "\n[... the rest of this earlier report is left out ...]"
        lines.append(f"{who}: {text}")
    return "\n".join(lines)



# --- a typed reply to a question the run asked -----------------------------------------------
APPROVALS = {"approve", "approved", "yes", "y", "ok", "okay", "lgtm", "looks good", "go", "go ahead",
             "proceed", "continue", "accept", "accepted", "fine", "good", "publish", "publish it"}


def typed_decision(state: dict) -> tuple[str, dict] | None:
    """A chat message typed in answer to the brief approval or the report review (a client
    without buttons sends a new message, which starts a new run): (the node that asked, the
    decision), else None. "approve" (or yes, ok, …) approves; anything else is what to
    change."""
    messages = [m for m in state.get("messages") or [] if getattr(m, "name", None) not in NOT_CONVERSATION]
    if len(messages) < 2 or not isinstance(messages[-1], HumanMessage) or state.get("status") != "running":
        return None
    from ...terminal import control_characters, without_bidi_controls

    asked, reply = messages[-2], without_bidi_controls(message_text(messages[-1])).strip()
    if not isinstance(asked, AIMessage) or not reply or control_characters(reply):
        return None  # (a reply with controls is refused as a message: scope/clarify.no_question)
    approve = re.sub(r"[\s.!,]+$", "", reply.lower()) in APPROVALS
    if asked.name == BRIEF_NAME and state.get("research_brief"):
        return "approve_research_brief", {"type": "approve"} if approve else {"type": "reject", "feedback": reply}
    if asked.name == REVIEW_NAME and state.get("report_review_pending"):
        return "review_report", {"type": "approve"} if approve else {"type": "feedback", "feedback": reply}
    return None

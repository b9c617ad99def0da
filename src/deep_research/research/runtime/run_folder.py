"""A run's output folder: where it is, the marker of the checkpoint its report was
published from, notes.md/raw_notes.md (also saved when a run fails) and run.json."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
from pathlib import Path

from ...errors import mask_page_url
from ...publish.files import inside, safe_name
from .configuration import Configuration

log = logging.getLogger(__name__)


RUN_MARKER = ".run.json"  # in a run folder: the thread and checkpoint its report was published from


def run_dir(cfg: Configuration, state: dict, thread_id: str, checkpoint: str | None = None) -> Path:
    """The run's output folder: <output_dir>/<date>-<question slug>-<thread id>.

    A folder holds one report. When it already holds a report published from another
    checkpoint of the thread (a fork, or a follow-up asking the same question again), this
    run writes to <folder>-<checkpoint suffix> instead, so the earlier report is never
    overwritten; a retry of the same step (same checkpoint) keeps its folder."""
    out = Path(cfg.output_dir).expanduser()
    question = state.get("question") or "report"
    # The whole thread id: server thread ids (UUIDv7) share their leading digits for a minute.
    name = f"{dt.date.today().isoformat()}-{safe_name(question, max_len=50)}-{safe_name(thread_id, max_len=64)}"
    folder = inside(out, safe_name(name, max_len=140))
    if checkpoint and (folder / "report.md").exists():
        try:
            published_from = json.loads((folder / RUN_MARKER).read_text(encoding="utf-8")).get("checkpoint")
        except (OSError, ValueError, RecursionError, AttributeError):  # (not a JSON object)
            published_from = None  # no marker: a report of this lineage whose publish did not finish
        if published_from and published_from != checkpoint:
            folder = inside(out, safe_name(f"{name}-{safe_name(checkpoint[-12:])}", max_len=160))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def in_report_folder(cfg: Configuration, path: str) -> str:
    """``path`` (a run folder or a file in one) relative to the report folder
    (``output_dir``), as a server's thread state keeps it: its clients read that state
    (Studio, ``threads.get_state``), and a server's folders are no business of theirs. The
    file's name alone when it is not inside that folder."""
    try:
        return Path(path).relative_to(Path(cfg.output_dir).expanduser()).as_posix()
    except ValueError:
        return Path(path).name


def outputs_for_state(cfg: Configuration, files: dict, *, server: bool) -> dict:
    """The publish step's ``outputs`` as the thread's state keeps them: on a server, each
    path relative to the report folder (:func:`in_report_folder`; ``served``, the report's
    links, as it is); elsewhere (the CLI, a Python caller) the paths as written."""
    if not server:
        return files
    return {k: v if k == "served" or not isinstance(v, str) else in_report_folder(cfg, v) for k, v in files.items()}


def root_checkpoint(config: dict | None) -> str | None:
    """The id of the thread checkpoint the current step runs from (None without a checkpointer)."""
    conf = (config or {}).get("configurable") or {}
    return (conf.get("checkpoint_map") or {}).get("") or None


def notes_markdown(state: dict) -> tuple[str, str]:
    """notes.md (compressed findings per topic) and raw_notes.md (everything collected),
    the URLs in them without their credentials, as a source's URL is kept
    (errors.mask_page_url): a run kept before search results were masked holds its pages'
    signed addresses in its raw notes, and its resume wrote them to raw_notes.md."""
    parts = [f"# Research notes\n\nQuestion: {state.get('question', '')}\n"]
    if state.get("research_brief"):
        parts.append(f"## Research brief\n\n{state['research_brief']}\n")
    for n in state.get("prior_notes") or []:  # a follow-up: findings of the thread's earlier reports
        parts.append(f"## (earlier in this conversation) {n.get('topic', 'Findings')}\n\n{n.get('findings', '')}\n")
    for n in state.get("notes") or []:
        parts.append(f"## {n.get('topic', 'Findings')}\n\n{n.get('findings', '')}\n")
    if state.get("errors"):
        parts.append("## Errors\n\n" + "\n".join(f"- {e.get('stage')}: {e.get('message')}"
                                                 for e in state["errors"]) + "\n")
    raw = "# Raw research notes\n\n" + "\n\n---\n\n".join(state.get("raw_notes") or ["(none)"]) + "\n"
    return mask_page_url("\n".join(parts)), mask_page_url(raw)


def run_record(cfg: Configuration, state: dict, thread_id: str) -> dict:
    """run.json: what a run was asked and planned, and what it used, for evaluation and
    comparison (``deep-research eval``). No keys or page contents."""
    import re

    notes = state.get("notes") or []
    plan = []
    for entry in state.get("research_log") or []:
        topic = entry.get("topic", "")
        cited = sorted({sid for n in notes if n.get("topic") == topic
                        for sid in re.findall(r'<ref id="([^"]+)"', n.get("findings") or "")})
        plan.append({"topic": topic, "ok": bool(entry.get("ok")), "citations": entry.get("citations", 0),
                     "sources": cited, **({"error": entry["error"]} if entry.get("error") else {}),
                     # what the unit read: pages, sentences verified on them, quotes that failed
                     **{k: entry[k] for k in ("pages_read", "verified_sentences", "unverified_sentences")
                        if k in entry}})
    return {
        "thread_id": thread_id,
        "question": state.get("question", ""),
        "research_brief": state.get("research_brief", ""),
        "brief_rounds": state.get("brief_rounds"),
        **({"brief_council": state["brief_council"]} if state.get("brief_council") else {}),
        "research_mode": state.get("research_mode_used") or None,  # single | multi: the path research took
        **({"complexity": state["complexity"]} if state.get("complexity") else {}),
        "research_plan": state.get("research_plan") or {},
        "coverage": state.get("coverage") or {},
        "plan": plan,
        "research_iterations": state.get("research_iterations"),
        "sources_found": len(state.get("sources") or {}),
        "usage": state.get("usage") or {},
        "models": {role: ":".join(cfg.model_id(role)) for role in
                   ("research", "summarization", "compression", "final_report", "citation_check")},
        "search_api": cfg.search_api.value,
        "budget_exhausted": bool(state.get("budget_exhausted")),
        "errors": state.get("errors") or [],
        "degradations": state.get("degradations") or [],
    }


async def asave_notes(cfg: Configuration, state: dict, thread_id: str, checkpoint: str | None = None) -> Path | None:
    return await asyncio.to_thread(save_notes, cfg, state, thread_id, checkpoint)


def write_notes(folder: Path, notes: str, raw: str) -> None:
    """notes.md and raw_notes.md under the output policy of report.md (publish.safety): the
    findings a model wrote and the page text they quote are opened the same way (a markdown
    previewer, a terminal), so raw HTML shows as text, images become links, unsafe links are
    not links and terminal controls are escapes; refs stay canonical ref tags."""
    from ...publish import write_atomic
    from ...publish.safety import safe_markdown
    from ...terminal import inert_text
    from ..prompts import unbreak

    # the findings quote pages as the prompts showed them: a delimiter tag a page wrote
    # (</page>) is written as the page has it, without the break as_data put in it
    write_atomic(folder / "notes.md", inert_text(safe_markdown(unbreak(notes), keep_refs=True).text))
    write_atomic(folder / "raw_notes.md", inert_text(safe_markdown(unbreak(raw), keep_refs=True).text))


def save_notes(cfg: Configuration, state: dict, thread_id: str, checkpoint: str | None = None) -> Path | None:
    """Write notes.md and raw_notes.md; returns the notes path (None if that failed too)."""
    try:
        folder = run_dir(cfg, state, thread_id, checkpoint)
        write_notes(folder, *notes_markdown(state))
        return folder / "notes.md"
    except Exception as e:  # noqa: BLE001 - reported by the caller's error, not hidden
        log.error("could not save notes: %s", e)
        return None


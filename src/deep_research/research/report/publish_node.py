"""The publish node: the checked report written to the run folder (markdown, HTML, PDF,
Word, citations.json, audit.json) with notes.md, raw_notes.md and run.json."""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from ...citations.model import Source
from ...inputs import source_record
from ...publish import publish_report, write_atomic
from ...publish.pdf import PdfWorker
from ...terminal import inert_json
from .notes_checks import notes_checks
from ..runtime.chat import progress_cleanup, report_message, run_id
from ..runtime.deps import Deps, NodeContext, run_spent
from ..runtime.failure import ResearchFailed
from ..runtime.meter import Meter, describe, is_transient
from ..runtime.report_files import (
    ReportFiles,
    link_days,
    link_key,
    report_links,
    report_store,
    valid_id,
)
from ..runtime.sources import masked_sources
from ..runtime.run_folder import (
    RUN_MARKER,
    asave_notes,
    notes_markdown,
    outputs_for_state,
    run_dir,
    run_record,
    write_notes,
)
from ..state import ResearchState, error_record

log = logging.getLogger(__name__)

SOURCES_FILE = "sources.json"  # in a run folder: the sources its report cites, with their content


class PublishNode:
    def __init__(self, deps: Deps):
        self.deps = deps

    async def publish(self, state: ResearchState, config, runtime) -> dict:
        ctx = NodeContext.make("publish", self.deps, config, runtime, spent=run_spent(state))
        ctx.progress(stage="publish")
        sources, _ = await ctx.pages.load_sources(state.get("sources") or {})
        markdown = state.get("report_markdown") or state.get("final_report", "")
        try:
            files, summary, ui, degradations = await asyncio.to_thread(
                _write_outputs, ctx.cfg, state, ctx.thread_id, markdown, sources, ctx.meter, ctx.checkpoint)
        except Exception as e:  # noqa: BLE001 - reported as the run's failure, notes kept
            notes = await asave_notes(ctx.cfg, state, ctx.thread_id, ctx.checkpoint)
            raise ResearchFailed("publish", describe(e), str(notes) if notes else None) from e
        served, links = await _serve(ctx, files, degradations)
        if served:
            files = {**files, "served": served}
        update: dict[str, Any] = {"degradations": degradations} if degradations else {}
        if masked := masked_sources(state.get("sources") or {}):  # a state kept before URLs were masked
            update["sources"] = masked
        citation_summary = {**(state.get("citation_summary") or {}), **summary}
        # the chat gets the linked markdown (citations as numbered links); the state keeps
        # report_markdown with its <ref> tags
        linked = await asyncio.to_thread(Path(files["linked"]).read_text, encoding="utf-8")
        server = run_id(config) is not None
        messages = [report_message(linked, citation_summary, files, state.get("language"), links=links,
                                   server=server)]
        progress = progress_cleanup({**state, "citation_summary": citation_summary}, config)
        # a server's clients read the thread's state: its paths there are within the report folder
        files = outputs_for_state(ctx.cfg, files, server=server)
        return {**update, **ctx.usage_update(), "outputs": files, "report_markdown": ui,
                "citation_summary": citation_summary, "messages": progress + messages,
                "status": "completed", "stage": "done", "run_dir": files["dir"]}


async def _serve(ctx: NodeContext, files: dict, degradations: list) -> tuple[dict | None, dict]:
    """On a LangGraph server (a user it admitted runs this), the report's files go to the
    report store, from which the server serves them to that user (server/reports.py):
    ({"thread", "report", "files": {name: URL}}, the links), or (None, {}) elsewhere. A
    store that fails costs the links, not the report (a degradation says so)."""
    conf = (ctx.config or {}).get("configurable") or {}
    user = conf.get("langgraph_auth_user_id")
    if not user or not valid_id(ctx.thread_id):
        return None, {}
    report = ctx.checkpoint if valid_id(ctx.checkpoint) else uuid.uuid4().hex
    try:
        store = await report_store(ctx.store)
        if store is None:
            return None, {}
        files_of = ReportFiles(store, str(user))
        manifest = await files_of.save(ctx.thread_id, report, files)
        links = report_links(manifest, identity=files_of.owner, key=link_key(), days=link_days())
    except Exception as e:  # noqa: BLE001 - the files are in the run folder; the chat says why no links
        log.error("publish: report files not stored for the server: %s", describe(e))
        degradations.append(error_record("publish", f"report files not stored for download: {describe(e)}"))
        return None, {}
    for name, reason in (manifest.get("skipped") or {}).items():
        degradations.append(error_record("publish", f"{name} is not offered for download: {reason}"))
    return {"thread": manifest["thread"], "report": manifest["report"], "files": links}, links


def _write_outputs(cfg, state: dict, thread_id: str, markdown: str, sources: list[Source], meter: Meter,
                   checkpoint: str | None = None):
    """All file writing of the publish step (blocking I/O, run in a worker thread). The PDF
    is rendered in a child process (:class:`PdfWorker`, as ``deep-research publish`` does),
    stopped past its bound (``WORKER_TIMEOUT_S``): a report that renders without end costs
    the PDF, not the run (it rendered in the run's process, unbounded, and held the server's
    run there). A PDF that fails for a transient reason (timeout, lost connection) is tried
    again (bounded); without it the markdown and HTML still count (recorded as a degradation)."""
    folder = run_dir(cfg, state, thread_id, checkpoint)
    degradations = []
    attempt = 0
    while True:
        try:
            with PdfWorker(fallback=False) if cfg.write_pdf else nullcontext() as worker:  # a new one per try
                result = publish_report(markdown, sources, folder, pdf=cfg.write_pdf, lang=state.get("language"),
                                        findings=cfg.verified_findings, judgments=state.get("claim_judgments"),
                                        docx=cfg.write_docx, citation_style=cfg.citation_style,
                                        earlier_policy=state.get("output_policy"),
                                        settings_ignored=state.get("ignored_settings") or (), pdf_worker=worker)
            break
        except Exception as e:  # noqa: BLE001 - without the PDF, markdown and HTML still count
            if not cfg.write_pdf:
                raise
            if is_transient(e) and attempt < cfg.max_retries:
                attempt += 1
                meter.usage.retries += 1
                delay = meter.backoff(attempt)
                log.warning("publish: PDF failed (%s); retry %d/%d in %.1fs", describe(e), attempt,
                            cfg.max_retries, delay)
                time.sleep(delay)
                continue
            degradations.append(error_record("publish", f"PDF not written: {describe(e)}"))
            result = publish_report(markdown, sources, folder, pdf=False, lang=state.get("language"),
                                    findings=cfg.verified_findings, judgments=state.get("claim_judgments"),
                                    docx=cfg.write_docx, citation_style=cfg.citation_style,
                                    earlier_policy=state.get("output_policy"),
                                    settings_ignored=state.get("ignored_settings") or ())
            break
    degradations += [error_record("publish", f"PDF: {m.message}") for m in result.missing_glyphs]
    if result.sources_replaced:
        from ...publish.publisher import models_sources_note, sources_replaced_note, uncited_listed

        if state.get("report_review") == "edited":  # the reviewer's text, not the model's
            degradations.append(error_record("publish", sources_replaced_note(result.sources_replaced)))
        elif uncited := uncited_listed(result.sources_replaced, result.report):
            # the model's list, regenerated as its prompt says: said when it named more than the
            # report cites (a page it did not cite, or one it never read), else nothing was lost
            degradations.append(error_record("publish", models_sources_note(result.sources_replaced, uncited)))
    degradations += [error_record("publish", d["reason"]) for d in result.output_policy.get("degraded", [])]
    # the cited sources, as `deep-research publish --sources` reads them: the folder alone
    # re-publishes its report.md (it keeps its <ref> tags)
    # (like citations.json: the controls and bidi overrides of a page or a question JSON
    # writes raw are written as escapes, the same values, safe to print)
    write_atomic(folder / SOURCES_FILE, inert_json(
        json.dumps([source_record(s) for s in result.report.sources], ensure_ascii=False, indent=2)) + "\n")
    notes, raw = notes_markdown(state)
    try:
        checks = notes_checks(state.get("notes") or [], sources, result.report,
                              english=(state.get("language") or "en") == "en", styler=result.styler)
    except Exception as e:  # noqa: BLE001 - the notes are written without the section, never lost
        log.warning("publish: checking the findings failed: %s", describe(e))
        checks = ""
    if checks:
        notes = notes.rstrip("\n") + "\n\n" + checks
    write_notes(folder, notes, raw)
    if checkpoint:  # this folder's report belongs to this checkpoint (see run_dir)
        write_atomic(folder / RUN_MARKER, json.dumps({"thread": thread_id, "checkpoint": checkpoint}) + "\n")
    record = run_record(cfg, state, thread_id)
    write_atomic(folder / "run.json", inert_json(json.dumps(record, ensure_ascii=False, indent=2)) + "\n")
    files = {"dir": str(folder), **{k: str(v) for k, v in result.files.items()},
             "sources": str(folder / SOURCES_FILE),
             "notes": str(folder / "notes.md"), "raw_notes": str(folder / "raw_notes.md"),
             "run": str(folder / "run.json")}
    ui = result.files["markdown"].read_text(encoding="utf-8")
    return files, result.summary(), ui, degradations


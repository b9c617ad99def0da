"""Command line: ``deep-research publish | research | resume | index``."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape as _esc  # user or model text printed with markup
from rich.table import Table

from .errors import UserError
from .progress import RunProgress
from .terminal import printable  # file names, URLs and model text may hold escape sequences

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="A deep-research agent whose every citation is a checked, verbatim sentence.",
)
out = Console(emoji=False)  # ":x" in a model name is not an emoji code
err = Console(stderr=True, soft_wrap=True, highlight=False, emoji=False)


@app.callback()
def _root() -> None:
    """A deep-research agent whose every citation is a checked, verbatim sentence."""


def usage_table(usage: dict) -> Table:
    """Calls, tokens, time and trouble per node: retry (transient errors retried), repair
    (malformed answers asked again), cut (requests shortened after a context-length error)."""
    cols = ["calls", "input_tokens", "output_tokens", "seconds", "retries", "repairs", "shortened"]
    priced = any(u.get("cost_usd") for u in usage.values())
    t = Table(title="Tokens and time per node", title_justify="left")
    t.add_column("node", no_wrap=True)
    headers = {"input_tokens": "in", "output_tokens": "out", "seconds": "s", "retries": "retry",
               "repairs": "repair", "shortened": "cut", "cost_usd": "$"}
    for col in [*cols, *(["cost_usd"] if priced else [])]:
        t.add_column(headers.get(col, col), justify="right", no_wrap=True)

    def cells(u: dict) -> list[str]:
        row = [f"{u.get(c, 0):,}" if c != "seconds" else f"{u.get(c, 0):.1f}" for c in cols]
        return row + ([f"{u.get('cost_usd', 0):.4f}"] if priced else [])

    totals: dict = {}
    for node, u in usage.items():
        t.add_row(node, *cells(u))
        for k, v in u.items():
            totals[k] = totals.get(k, 0) + v
    t.add_row("[bold]total[/bold]", *(f"[bold]{c}[/bold]" for c in cells(totals)))
    return t


def _warn(msg: str) -> None:
    err.print(f"[yellow]warning:[/yellow] {_esc(printable(msg))}", highlight=False)


@app.command()
def publish(
    report: Path = typer.Argument(..., help="Report markdown with <ref id=\"…\">\"quote\"</ref> citations."),
    sources: Path = typer.Option(..., "--sources", "-s", help="JSON list of {id, url, title, content}."),
    out_dir: Path = typer.Option(..., "--out", "-o", help="Directory to write the outputs into."),
    no_pdf: bool = typer.Option(False, "--no-pdf", help="Skip the PDF."),
    title: Optional[str] = typer.Option(None, help="Report title (default: the report's first # heading)."),
    findings: bool = typer.Option(False, "--verified-findings",
                                  help="Add a 'Verified findings' section, built by code from the claims "
                                       "whose checks all passed."),
) -> None:
    """Check every citation of REPORT against its source, and each claim against its quotes,
    and write the linked report, HTML and PDF."""
    from .citations.refs import parse_refs
    from .inputs import load_sources, read_text_file
    from .publish import publish_report

    markdown = read_text_file(report, "report")
    if not markdown.strip():
        raise UserError(f"report {report} is empty")
    loaded = load_sources(sources)
    for w in loaded.warnings:
        _warn(w)
    known = {s.id for s in loaded.sources}
    unknown = sorted({r.source_id for r in parse_refs(markdown).refs} - known)
    if unknown:
        shown = ", ".join(repr(u) for u in unknown[:10]) + (" …" if len(unknown) > 10 else "")
        raise UserError(f"the report cites source ids that are not in {sources}: {shown}")
    result = publish_report(markdown, loaded.sources, out_dir, pdf=not no_pdf, title=title, findings=findings)
    _print_publish_summary(result)


def _print_publish_summary(result) -> None:
    s = result.summary()
    table = Table(title="Citation check", show_header=False, title_justify="left")
    table.add_row("refs", str(s["refs"]))
    table.add_row("[green]verified[/green]", str(s["verified"]))
    table.add_row("[cyan]repaired[/cyan]", str(s["repaired"]))
    table.add_row("[red]unsupported[/red]", str(s["unsupported"]))
    table.add_row("links to the exact sentence", str(s["fragment_links"]))
    if s.get("words_only_links"):
        table.add_row("[yellow]links to the quote's words only[/yellow]", str(s["words_only_links"]))
    if s["plain_links"]:
        table.add_row("[yellow]plain links (no unique fragment)[/yellow]", str(s["plain_links"]))
    if s["malformed_tags"]:
        table.add_row("[red]malformed <ref> tags[/red]", str(s["malformed_tags"]))
    table.add_row("claims", str(s["claims"]))
    table.add_row("[green]claims supported by their quotes[/green]", str(s["claims_supported"]))
    table.add_row("[red]claims that differ from their source[/red]", str(s["claims_unsupported"]))
    table.add_row("[yellow]claims not checked[/yellow]", str(s["claims_unchecked"]))
    if s["sources_disagree"]:
        table.add_row("[yellow]places where sources disagree[/yellow]", str(s["sources_disagree"]))
    out.print(table)
    for p in result.report.problems[:10]:
        _warn(f"line {p.line}, column {p.column}: {p.message}: {p.text}")
    for c in result.report.citations:
        if c.status.value == "unsupported":
            _warn(f"ref {c.ref.index + 1} (line {c.ref.line}, source {c.ref.source_id}): "
                  f"quote not found in the source: \u201c{c.ref.quote[:100]}\u201d")
        elif c.claim_status is not None and c.claim_status.value == "unsupported":
            _warn(f"ref {c.ref.index + 1} (line {c.ref.line}, source {c.ref.source_id}): "
                  f"claim differs from its source: {c.claim_check.note}")
    policy = result.output_policy or {}
    changed = [f"{policy[k]} {what}" for k, what in (("html_escaped", "HTML tag(s) shown as text"),
                                                     ("images_unlinked", "image(s) turned into links"),
                                                     ("links_defused", "unsafe link(s) shown as text"))
               if policy.get(k)]
    if changed:
        _warn("the report's markup was made inert: " + ", ".join(changed))
    for d in policy.get("degraded", [])[:10]:
        _warn((f"line {d['line']}: " if d.get("line") else "") + d["reason"])
    if result.refused_fetches:
        _warn(f"the PDF renderer was refused {len(result.refused_fetches)} external resource(s)")
    for m in result.missing_glyphs:
        _warn(m.message)
    out.print(f"Wrote {len(result.files)} files to [bold]{_esc(printable(result.out_dir))}[/bold]:", soft_wrap=True)
    for key, path in result.files.items():
        out.print(f"  {printable(path.name)}", markup=False)


# --- research ----------------------------------------------------------------------------
WAITING = 3  # exit code: the run waits for the user (clarification or brief approval)


class WaitingForUser(Exception):
    def __init__(self, thread_id: str, what: str):
        super().__init__(what)
        self.thread_id = thread_id
        self.what = what


def _context_from_options(**opts) -> dict:
    """Configuration values the user set on the command line (None = not set)."""
    mapping = {
        "search": "search_api", "corpus": "corpus_path", "corpus_base_url": "corpus_base_url",
        "out": "output_dir", "base_url": "model_base_url", "api_key_env": "model_api_key_env",
        "max_tokens": "max_total_tokens", "max_cost": "max_cost_usd",
    }
    ctx: dict = {}
    for key, value in opts.items():
        if value is None or value is False and key not in ("pdf",):
            continue
        if key == "model":
            ctx["model"] = value  # every role (a run's general setting beats a role's from the environment)
        elif key == "yes" and value:
            ctx["allow_clarification"] = False
        elif key == "approve_brief" and value:
            ctx["require_brief_approval"] = True
        elif key == "review_report" and value:
            ctx["require_report_approval"] = True
        elif key == "test_mode" and value:
            ctx["test_mode"] = True
        elif key == "pdf":
            if value is False:
                ctx["write_pdf"] = False
        elif key in ("corpus",) and value:
            ctx["corpus_path"] = str(Path(value).expanduser().resolve())
        elif key in mapping:
            ctx[mapping[key]] = str(value) if isinstance(value, Path) else value
    return ctx


def _ask_report_review(payload: dict, preset: dict | None) -> dict:
    if preset is not None:  # --approve, --reject FEEDBACK (revise once), --edit FILE
        if preset.get("type") == "reject":
            return {"type": "feedback", "feedback": preset.get("feedback", "")}
        return preset
    if not sys.stdin.isatty():
        raise WaitingForUser("", "review of the report")
    out.rule("Report to review")
    out.print(payload.get("report_markdown", ""), highlight=False, markup=False)
    if payload.get("error"):
        err.print(f"[yellow]{_esc(str(payload['error']))}[/yellow]")
    can_revise = bool(payload.get("revisions_left"))
    ask = "Publish this report? [a]pprove / [e]dit FILE" + (" / [f]eedback" if can_revise else "")
    while True:
        choice = typer.prompt(ask, default="a").strip()
        word, _, rest = choice.partition(" ")
        if word.lower() in ("a", "approve", "y", "yes"):
            return {"type": "approve"}
        if word.lower() in ("e", "edit") and rest.strip():
            try:
                return {"type": "edit", "markdown": Path(rest.strip()).expanduser().read_text(encoding="utf-8")}
            except (OSError, UnicodeDecodeError) as e:
                err.print(f"cannot read {rest.strip()}: {e}", markup=False)
                continue
        if can_revise and word.lower() in ("f", "feedback"):
            feedback = typer.prompt("What should change?").strip()
            if feedback:
                return {"type": "feedback", "feedback": feedback}
        err.print("Please answer a, e FILE" + (" or f." if can_revise else "."))


def _ask_approval(payload: dict, preset: dict | None) -> dict:
    if payload.get("type") == "report_review":
        return _ask_report_review(payload, preset)
    if preset is not None:
        return preset
    if not sys.stdin.isatty():
        raise WaitingForUser("", "approval of the research brief")
    out.rule("Research brief")
    out.print(printable(payload.get("research_brief", ""), keep_newlines=True), highlight=False, markup=False)
    if payload.get("error"):
        err.print(f"[yellow]{_esc(printable(payload['error']))}[/yellow]")
    while True:
        choice = typer.prompt("Approve this brief? [a]pprove / [r]eject", default="a").strip().lower()
        if choice in ("a", "approve", "y", "yes"):
            return {"type": "approve"}
        if choice in ("r", "reject", "n", "no"):
            feedback = typer.prompt("What should change?").strip()
            if feedback:
                return {"type": "reject", "feedback": feedback}
        err.print("Please answer a or r.")


def _ask_clarification(question: str, preset: str | None) -> str:
    if preset:
        return preset
    if not sys.stdin.isatty():
        raise WaitingForUser("", f"an answer to: {question}")
    out.rule("Clarifying question")
    out.print(printable(question, keep_newlines=True), highlight=False, markup=False)
    answer = typer.prompt("Your answer").strip()
    if not answer:
        raise UserError("an empty answer; the run is paused")
    return answer


async def _drive(handle, graph, payload, progress, *, approve: dict | None, answer: str | None) -> dict:
    from langchain_core.messages import AIMessage, HumanMessage

    from .research.models import message_text
    from .research.runner import resume_payload, stream_run

    while True:
        with progress:
            await stream_run(graph, handle, payload, progress)
        state = await graph.aget_state(handle.config)
        if state.interrupts:
            progress.pause()
            try:
                decision = _ask_approval(state.interrupts[0].value, approve)
            except WaitingForUser as w:
                raise WaitingForUser(handle.thread_id, w.what) from None
            approve = approve if decision.get("type") == "approve" else None  # a rejection or edit is used once
            payload = resume_payload(decision)
            continue
        values = state.values
        if values.get("status") == "needs_clarification":
            msgs = values.get("messages") or []
            question = next((message_text(m) for m in reversed(msgs) if isinstance(m, AIMessage)), "")
            try:
                reply = _ask_clarification(question, answer)
            except WaitingForUser as w:
                raise WaitingForUser(handle.thread_id, w.what) from None
            answer = None
            payload = {"messages": [HumanMessage(reply)]}
            continue
        return values


def _warn_clamped(cfg) -> None:
    for c in cfg.clamped:
        _warn(c["message"])


def _print_result(values: dict, thread_id: str) -> int:
    usage = values.get("usage") or {}
    out.print(usage_table(usage))
    for d in values.get("degradations") or []:
        if d.get("kind") != "clamped":  # said when the run started
            _warn(f"{d.get('stage')}: {d.get('message')}")
    status = values.get("status")
    for e in values.get("errors") or []:
        if e.get("kind") == "failed" and status == "completed":  # a failure this run was resumed from
            _warn(f"an earlier attempt failed at {e.get('stage')} and was resumed: {e.get('message')}")
            continue
        err.print("[red]error:[/red] " + _esc(printable(f"{e.get('stage')}: {e.get('message')}")), highlight=False)
    if status == "brief_rejected":
        err.print("[red]The research brief was not approved; no research was done.[/red]")
        return 1
    if status != "completed":
        err.print(f"[red]The run did not complete (status {status!r}).[/red] Resume it with: "
                  f"deep-research resume {thread_id}")
        return 1
    from .language import labels
    from .research.chat import citation_line

    lang = values.get("language")
    out.print(citation_line(values.get("citation_summary") or {}, lang), markup=False, highlight=False)
    files = values.get("outputs") or {}
    written = labels(lang)["report_written"].format(dir="\0")
    before, _, after = written.partition("\0")
    out.print(f"{_esc(before)}[bold]{_esc(printable(files.get('dir')))}[/bold]{_esc(after)}", soft_wrap=True)
    for key in ("markdown", "linked", "pdf", "html", "citations", "notes"):
        if files.get(key):
            out.print(f"  {printable(Path(files[key]).name)}", markup=False)
    return 0


async def _run_research(question: str | None, context: dict, db: str, thread_id: str | None,
                        approve: dict | None, answer: str | None) -> int:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from .publish.files import prepare_out_dir
    from .research.common import ResearchFailed
    from .research.configuration import Configuration
    from .research.preflight import preflight
    from .research.runner import (
        RunHandle,
        compile_for,
        first_payload,
        load_deps,
        load_run,
        open_persistence,
        resume_payload,
        save_run,
    )

    # A model integration without native async support runs each call in the event loop's
    # default executor (min(32, cpus + 4) threads): on a small machine parallel researchers
    # would queue for threads (bench_research: 8 units took 2x the ideal time on 6 threads,
    # 1.1x on 64). Threads are started only when needed.
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=64))
    deps = load_deps()
    async with open_persistence(db) as (saver, store):
        if thread_id is None:
            handle = RunHandle.new(context)
            cfg = Configuration.resolve({"configurable": {}}, context)
            _warn_clamped(cfg)
            await preflight(cfg, deps)  # every setup mistake reported now, before any cost
            prepare_out_dir(cfg.output_dir)  # an unwritable --out fails now, not after the research
            await save_run(store, handle, question or "")
            payload = first_payload(question or "")
        else:
            saved = await load_run(store, thread_id)
            merged = {**saved.get("context", {}), **context}
            handle = RunHandle.existing(thread_id, merged)
            cfg = Configuration.resolve({"configurable": {}}, merged)
            _warn_clamped(cfg)
            await preflight(cfg, deps)
            payload = None
        graph = compile_for(deps, saver, store)
        if thread_id is not None:
            state = await graph.aget_state(handle.config)
            if not state.values:
                raise UserError(f"run {thread_id} has no saved progress to resume")
            if state.values.get("status") == "completed" and not state.next:
                out.print(f"Run {thread_id} is already complete.", markup=False)
                return _print_result(state.values, thread_id)
            if state.interrupts and approve is not None:
                payload = resume_payload(approve)
                approve = None
        out.print(f"Thread [bold]{handle.thread_id}[/bold] (resume with: deep-research resume {handle.thread_id})")
        progress = RunProgress(out, handle.thread_id)
        try:
            values = await _drive(handle, graph, payload, progress, approve=approve, answer=answer)
        except ResearchFailed as e:
            err.print(f"[red]error:[/red] {_esc(printable(f'the run failed at {e.stage}: {e.message}'))}",
                      highlight=False)
            if e.notes_path:
                err.print(f"Research gathered so far is saved in {printable(e.notes_path)}", markup=False)
            err.print(f"Fix the cause, then continue with: deep-research resume {handle.thread_id}")
            return 1
        except WaitingForUser as w:
            err.print(f"The run is waiting for {printable(w.what)}. Continue with: deep-research resume "
                      f"{handle.thread_id} --approve | --reject FEEDBACK | --edit FILE | --answer TEXT", markup=False)
            return WAITING
        return _print_result(values, handle.thread_id)


def _validate_question(question: str) -> str:
    import unicodedata

    q = question.replace("\r\n", "\n").replace("\r", "\n").strip()  # pasted Windows or old Mac line ends
    if any(0xD800 <= ord(c) <= 0xDFFF for c in q):  # bytes of the argument that are not UTF-8
        raise UserError("the question is not valid UTF-8 text")
    if not any(unicodedata.category(c)[0] not in "CZ" for c in q):  # only spaces or invisible marks
        raise UserError("the question is empty")
    if len(q) > 20_000:
        raise UserError(f"the question is {len(q):,} characters long; the limit is 20,000")
    bad = sorted({hex(ord(c)) for c in q if unicodedata.category(c) == "Cc" and c not in "\n\t"})
    if bad:
        raise UserError(f"the question contains control characters ({', '.join(bad[:5])})")
    return q


def _check_db(db: str) -> str:
    """Fail early, with a clear message, if a SQLite --db cannot hold the run's state."""
    import sqlite3

    from .research.runner import is_postgres

    if is_postgres(db):
        return db
    path = Path(db).expanduser()
    if path.is_dir():
        raise UserError(f"the state database {db} is a folder; give a file path, e.g. {path / 'state.sqlite'}")
    if path.parent.exists() and not path.parent.is_dir():
        raise UserError(f"the state database {db} cannot be created: {path.parent} is not a folder")
    if not path.parent.exists():
        return db  # created by the run, which reports a failure to create it
    try:
        con = sqlite3.connect(path, timeout=30)
        try:
            con.execute("PRAGMA schema_version")  # reads the header: fails for a non-SQLite file
            con.execute("BEGIN IMMEDIATE")  # needs write access
            con.execute("ROLLBACK")
        finally:
            con.close()
    except sqlite3.Error as e:
        raise UserError(f"the state database {db} cannot be used: {e}") from None
    return db


SearchOpt = typer.Option(None, "--search", help="tavily | local | none (default: tavily).")
DbOpt = typer.Option(None, "--db", envvar="DEEP_RESEARCH_DB",
                     help="SQLite file or postgresql:// URL for checkpoints (default .deep-research/state.sqlite).")


@app.command()
def research(
    question: str = typer.Argument(..., help="What to research."),
    search: Optional[str] = SearchOpt,
    corpus: Optional[Path] = typer.Option(None, help="Folder of documents to search (with --search local)."),
    corpus_base_url: Optional[str] = typer.Option(None, help="URL where the corpus documents are published."),
    model: Optional[str] = typer.Option(None, help="provider:model for every role, e.g. openai:gpt-4.1."),
    base_url: Optional[str] = typer.Option(None, help="OpenAI-compatible server, e.g. http://localhost:11434/v1."),
    api_key_env: Optional[str] = typer.Option(None, help="Environment variable holding that server's API key."),
    out_dir: Optional[Path] = typer.Option(None, "--out", help="Where run folders are written (default docs/reports)."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask clarifying questions."),
    approve_brief: bool = typer.Option(False, "--approve-brief", help="Ask for approval of the research brief."),
    review_report: bool = typer.Option(False, "--review-report",
                                       help="Ask for approval (or an edit, or feedback) of the report before publishing."),
    max_tokens: Optional[int] = typer.Option(None, help="Stop research after this many tokens."),
    max_cost: Optional[float] = typer.Option(None, help="Stop research at this estimated cost in USD."),
    test_mode: bool = typer.Option(False, "--test-mode", help="Small limits for a cheap trial run."),
    pdf: bool = typer.Option(True, "--pdf/--no-pdf", help="Write the PDF."),
    db: Optional[str] = DbOpt,
) -> None:
    """Research QUESTION and write a report whose every citation is checked."""
    import asyncio

    q = _validate_question(question)
    if search is not None and search.lower() not in ("tavily", "local", "none"):
        raise UserError(f"--search must be tavily, local or none, not {search!r}")
    if corpus is not None and not corpus.exists():
        raise UserError(f"corpus {corpus} does not exist")
    context = _context_from_options(search=search.lower() if search else None, corpus=corpus,
                                    corpus_base_url=corpus_base_url, model=model, base_url=base_url,
                                    api_key_env=api_key_env, out=out_dir, yes=yes, approve_brief=approve_brief, review_report=review_report,
                                    max_tokens=max_tokens, max_cost=max_cost, test_mode=test_mode, pdf=pdf)
    if corpus is not None and search is None:
        context["search_api"] = "local"
    code = asyncio.run(_run_research(q, context, _check_db(db or ".deep-research/state.sqlite"), None,
                                     {"type": "approve"} if yes and approve_brief else None, None))
    raise typer.Exit(code)


@app.command()
def resume(
    thread_id: str = typer.Argument(..., help="The thread id printed when the run started."),
    approve: bool = typer.Option(False, "--approve", help="Approve the research brief or report the run waits on."),
    reject: Optional[str] = typer.Option(None, "--reject",
                                         help="Reject the brief, or ask for one revision of the report, with this feedback."),
    edit: Optional[Path] = typer.Option(None, "--edit", help="Publish this edited report markdown (citations re-checked)."),
    answer: Optional[str] = typer.Option(None, "--answer", help="Answer the clarifying question."),
    db: Optional[str] = DbOpt,
) -> None:
    """Continue an interrupted, failed or waiting run where it stopped."""
    import asyncio

    if sum(bool(x) for x in (approve, reject, edit)) > 1:
        raise UserError("use only one of --approve, --reject and --edit")
    decision = {"type": "approve"} if approve else ({"type": "reject", "feedback": reject} if reject else None)
    if edit is not None:
        try:
            decision = {"type": "edit", "markdown": edit.read_text(encoding="utf-8")}
        except (OSError, UnicodeDecodeError) as e:
            raise UserError(f"cannot read the edited report {edit}: {e}") from None
    code = asyncio.run(_run_research(None, {}, _check_db(db or ".deep-research/state.sqlite"), thread_id.strip(),
                                     decision, answer))
    raise typer.Exit(code)


@app.command()
def index(
    folder: Path = typer.Argument(..., help="Folder of .html, .md, .txt and .pdf documents."),
    base_url: Optional[str] = typer.Option(None, help="URL where the folder is published (default file:// links)."),
    index_path: Optional[Path] = typer.Option(None, "--index", help="Index file (default FOLDER/.deep-research/index.sqlite)."),
) -> None:
    """Build or update the full-text index of a folder for --search local."""
    import logging

    from .search.local import CorpusError, build_index

    if not folder.is_dir():
        raise UserError(f"{folder} is not a folder")
    # pypdf logs its complaints about a broken PDF; the skip reason below says it once.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        report = build_index(folder, index_path=index_path, base_url=base_url)
    except (CorpusError, ValueError) as e:  # an unusable index path or base URL
        raise UserError(str(e)) from None
    _print_index_report(folder, report)


def _print_index_report(folder: Path, report) -> None:
    def n(count: int, word: str) -> str:
        return f"{count:,} {word}{'' if count == 1 else 's'}"

    def say(text: str) -> None:  # paths stay whole (no wrapping), are never markup, and escaped
        out.print(printable(text), highlight=False, soft_wrap=True, markup=False)

    for skipped in report.skipped:
        _warn(f"skipped {skipped.path}: {skipped.reason}")
    if report.rebuilt:
        say("The index was rebuilt from scratch (new program version, folder or base URL).")
    indexed = len(report.added) + len(report.updated) + report.unchanged
    say(f"Indexed {n(indexed, 'document')} in {folder}: {len(report.added):,} new, "
        f"{len(report.updated):,} updated, {report.unchanged:,} unchanged.")
    if report.skipped:
        say(f"Skipped {n(len(report.skipped), 'file')} (reasons above).")
    if report.removed:
        say(f"Removed {n(len(report.removed), 'document')} no longer in the folder.")
    if report.unsupported:
        say(f"Left out {n(report.unsupported, 'file')} of other types "
            "(documents are .html, .htm, .md, .markdown, .txt and .pdf).")
    say(f"The index holds {n(report.documents, 'document')}: {report.index_path}")
    if report.documents == 0:
        _warn("the index is empty: a search of this corpus finds nothing")


def load_env_file() -> Path | None:
    """Variables from ``.env`` in the working folder (or the file DEEP_RESEARCH_ENV_FILE
    names; "none" for no file), as ``langgraph dev`` loads them through langgraph.json.
    Variables already set in the environment win."""
    from dotenv import load_dotenv

    named = os.environ.get("DEEP_RESEARCH_ENV_FILE")
    if named is not None and named.strip().lower() in ("", "none"):
        return None
    path = Path(named).expanduser() if named else Path.cwd() / ".env"
    if not path.is_file():
        if named:
            raise UserError(f"DEEP_RESEARCH_ENV_FILE={named}: no such file")
        return None
    try:
        load_dotenv(path, override=False)
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"cannot read the environment file {path}: {e}") from None
    return path


from .eval_cli import register as _register_eval  # noqa: E402 - the eval command group

_register_eval(app)


def main(argv: list[str] | None = None) -> int:
    """Entry point: user errors print one clear line and exit 2, never a traceback."""
    debug = bool(os.environ.get("DEEP_RESEARCH_DEBUG"))
    try:
        load_env_file()
        rc = app(args=argv, standalone_mode=False)  # click returns typer.Exit's code here
        return rc if isinstance(rc, int) else 0
    except UserError as e:
        err.print(f"[red]error:[/red] {_esc(printable(e))}", highlight=False)
        return e.exit_code
    except typer.Exit as e:
        return e.exit_code
    except typer.Abort:
        err.print("aborted")
        return 130
    except KeyboardInterrupt:
        err.print("interrupted")
        return 130
    except typer.TyperException as e:  # usage errors: bad option, missing argument
        e.show()
        return getattr(e, "exit_code", 2)
    except Exception as e:  # noqa: BLE001 - the last resort: a short message, not a traceback
        if debug:
            raise
        err.print(f"[red]internal error:[/red] {_esc(printable(f'{type(e).__name__}: {e}'))}", highlight=False)
        err.print("Set DEEP_RESEARCH_DEBUG=1 to see the traceback.")
        return 1


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()

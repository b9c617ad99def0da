"""``deep-research research`` and ``resume``: run the research graph in the terminal, ask
the user what the run waits for, print the outcome."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape as _esc

from ..errors import UserError
from ..terminal import printable
from .console import err, out, usage_table
from .console import warn as _warn


def register(app: typer.Typer) -> None:
    app.command()(research)
    app.command()(resume)


# --- research ----------------------------------------------------------------------------
WAITING = 3  # exit code: the run waits for the user (clarification or brief approval)


class WaitingForUser(Exception):
    def __init__(self, thread_id: str, what: str):
        super().__init__(what)
        self.thread_id = thread_id
        self.what = what


def _check_citation_style(style: str | None) -> str | None:
    """The --citation-style value, checked (a UserError, exit 2, names the allowed ones)."""
    if style is None:
        return None
    from ..citations.styles import check_style

    try:
        return check_style(style)
    except ValueError as e:
        raise UserError(f"--citation-style: {e}") from None


def _context_from_options(**opts) -> dict:
    """Configuration values the user set on the command line (None = not set)."""
    mapping = {
        "search": "search_api", "corpus": "corpus_path", "corpus_base_url": "corpus_base_url",
        "out": "output_dir", "base_url": "model_base_url", "api_key_env": "model_api_key_env",
        "max_tokens": "max_total_tokens", "max_cost": "max_cost_usd",
        "mode": "research_mode", "council": "brief_council_models", "council_threshold": "brief_council_threshold",
        "council_max_rounds": "brief_council_max_rounds",
        "page_relevance_chars": "page_relevance_chars", "query_dedupe": "query_dedupe_threshold",
        "min_coverage": "min_coverage", "plateau": "plateau_min_new_sentences",
        "supervisor_summarize": "supervisor_summarize", "supervisor_keep": "supervisor_messages_to_keep",
        "compression_summarize": "compression_summarize", "compression_keep": "compression_messages_to_keep",
        "searxng_url": "searxng_url", "searxng_engines": "searxng_engines",
        "searxng_categories": "searxng_categories", "searxng_time_range": "searxng_time_range",
        "searxng_safesearch": "searxng_safesearch", "searxng_language": "searxng_language",
        "fetch_allow_private": "fetch_allow_private", "fetch_timeout": "fetch_timeout_s",
        "fetch_max_bytes": "fetch_max_bytes", "web_search_model": "web_search_model",
        "report_format": "report_format", "report_length": "report_length", "system_prompt": "system_prompt",
        "trusted_domain": "trusted_domains", "low_trust_domain": "low_trust_domains",
        "min_credibility": "min_source_credibility", "local_credibility": "local_source_credibility",
    }
    ctx: dict = {}
    for key, value in opts.items():
        if value is None or value is False and key not in ("pdf", "fetch_robots", "page_cache", "supervisor_summarize",
                                                            "compression_summarize") or isinstance(value, (list, tuple)) and not value:
            continue
        if key == "url":
            ctx["research_urls"] = list(value)
            continue
        if key == "fetch_robots":
            if value is False:
                ctx["fetch_respect_robots"] = False
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
        elif key == "docx" and value:
            ctx["write_docx"] = True
        elif key == "citation_style":
            ctx["citation_style"] = value
        elif key == "page_cache":
            ctx["page_cache"] = bool(value)
        elif key == "pdf":
            if value is False:
                ctx["write_pdf"] = False
        elif key in ("corpus",) and value:
            ctx["corpus_path"] = str(Path(value).expanduser().resolve())
        elif key in mapping:
            ctx[mapping[key]] = str(value) if isinstance(value, Path) else list(value) if isinstance(
                value, tuple) else value
    return ctx


MODES = ("auto", "single", "multi")


def research_context(*, search: str | None, corpus: Path | None, mode: str | None = None, **opts) -> dict:
    """The run's settings from the research options (shared by ``research`` and ``compare``);
    UserError for a bad value."""
    if search is not None and search.lower() not in SEARCH_KINDS:
        raise UserError(f"--search must be {', '.join(SEARCH_KINDS[:-1])} or none, not {search!r}")
    time_range, safesearch = opts.get("searxng_time_range"), opts.get("searxng_safesearch")
    if time_range is not None and time_range.lower() not in ("day", "week", "month", "year", "none"):
        raise UserError(f"--searxng-time-range must be day, week, month, year or none, not {time_range!r}")
    if safesearch is not None and safesearch not in (0, 1, 2):
        raise UserError(f"--searxng-safesearch must be 0, 1 or 2, not {safesearch}")
    report_format = opts.pop("report_format", None)
    if report_format is not None and report_format.lower() not in ("detailed", "concise", "bullet_points"):
        raise UserError(f"--format must be detailed, concise or bullet_points, not {report_format!r}")
    if corpus is not None and not corpus.exists():
        raise UserError(f"corpus {corpus} does not exist")
    if mode is not None and mode.lower() not in MODES:
        raise UserError(f"--mode must be auto, single or multi, not {mode!r}")
    threshold = opts.get("council_threshold")
    if threshold is not None and not 0 <= threshold <= 1:
        raise UserError(f"--council-threshold must be between 0 and 1, not {threshold}")
    opts["report_format"] = report_format.lower() if report_format else None
    context = _context_from_options(search=search.lower() if search else None, corpus=corpus,
                                    mode=mode.lower() if mode else None, **opts)
    if corpus is not None and search is None:
        context["search_api"] = "local"
    if opts.get("searxng_url") is not None and search is None and corpus is None:
        context["search_api"] = "searxng"
    return context


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

    from ..research.runtime.usage import message_text
    from ..research.runner import resume_payload, stream_run

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
    note = cfg.unpriced_note()
    if note:
        _warn(note)


def path_lines(values: dict) -> list[str]:
    """Which research path ran (and why), and what the brief council decided."""
    lines = []
    used = values.get("research_mode_used")
    if used:
        c = values.get("complexity") or {}
        why = f" (question classified {c.get('level')}: {c.get('reason')})" if c.get("level") else ""
        lines.append(printable(f"Research path: {used}{why}"))
    council = values.get("brief_council") or {}
    if council.get("rounds"):
        last = council["rounds"][-1]
        lines.append(printable(
            f"Brief council: {council.get('outcome')} after {council.get('revisions', 0)} revision(s); last round "
            f"{last.get('approvals')} of {last.get('votes_cast')} vote(s) approved"
            + (f", {last.get('abstentions')} abstained" if last.get("abstentions") else "")))
    return lines


STOP_REASONS = {"coverage": "the plan's sub-questions were covered (min_coverage)",
                "plateau": "a round added too few new verified sentences (plateau_min_new_sentences)",
                "limits": "a limit was reached (rounds, tokens or cost)",
                "single": "the single-agent path researches in one round (research_mode)",
                None: "the supervisor judged the research complete"}


def coverage_lines(coverage: dict) -> list[str]:
    """What the CLI says about the plan's coverage and why research stopped ([] before research)."""
    if not coverage:
        return []
    items = coverage.get("items") or []
    why = STOP_REASONS.get(coverage.get("stopped_because"), str(coverage.get("stopped_because")))
    rounds = coverage.get("rounds", 0)
    if not items:
        return [f"Research stopped after {rounds} research round(s): {why}."]
    covered = sum(1 for i in items if i.get("covered"))
    lines = [f"Coverage: {coverage.get('score', 0.0):.0%} of the research plan ({covered} of {len(items)} "
             f"sub-questions covered); research stopped after {rounds} research round(s): {why}."]
    lines += [printable(f"  not covered: {i['id']} [{i['priority']}] {i['question']} ({i['evidence']} verified "
                        "sentence(s))") for i in items if not i.get("covered")]
    if coverage.get("unjudged"):
        lines.append(f"  {coverage['unjudged']} verified sentence(s) could not be judged; coverage may be higher.")
    return lines


def _print_result(values: dict, thread_id: str) -> int:
    usage = values.get("usage") or {}
    out.print(usage_table(usage))
    for d in values.get("degradations") or []:
        if d.get("kind") not in ("clamped", "unpriced"):  # said when the run started
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
    from ..language import labels
    from ..research.runtime.chat import citation_line

    for line in path_lines(values):
        out.print(line, markup=False, highlight=False)
    lang = values.get("language")
    out.print(citation_line(values.get("citation_summary") or {}, lang), markup=False, highlight=False)
    for line in coverage_lines(values.get("coverage") or {}):
        out.print(line, markup=False, highlight=False, soft_wrap=True)
    files = values.get("outputs") or {}
    written = labels(lang)["report_written"].format(dir="\0")
    before, _, after = written.partition("\0")
    out.print(f"{_esc(before)}[bold]{_esc(printable(files.get('dir')))}[/bold]{_esc(after)}", soft_wrap=True)
    for key in ("markdown", "linked", "pdf", "docx", "html", "citations", "notes"):
        if files.get(key):
            out.print(f"  {printable(Path(files[key]).name)}", markup=False)
    return 0


async def _run_research(question: str | None, context: dict, db: str, thread_id: str | None,
                        approve: dict | None, answer: str | None) -> int:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from ..publish.files import prepare_out_dir
    from ..research.runtime.failure import ResearchFailed
    from ..research.runtime.configuration import Configuration
    from ..research.runtime.preflight import preflight
    from ..research.runner import (
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
        from ..progress import RunProgress

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

    from ..research.runner import is_postgres

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


SEARCH_KINDS = ("tavily", "local", "searxng", "openai_web", "anthropic_web", "none")
# Options shared by `research` and `compare` (one definition each).
CORPUS_OPT = typer.Option(None, help="Folder of documents to search (with --search local).")
CORPUS_BASE_URL_OPT = typer.Option(None, help="URL where the corpus documents are published.")
MODEL_OPT = typer.Option(None, help="provider:model for every role, e.g. openai:gpt-4.1.")
BASE_URL_OPT = typer.Option(None, help="OpenAI-compatible server, e.g. http://localhost:11434/v1.")
API_KEY_ENV_OPT = typer.Option(None, help="Environment variable holding that server's API key.")
MIN_COVERAGE_OPT = typer.Option(
    None, "--min-coverage", min=0.0, max=1.0,
    help="Stop research when this share of the plan's sub-questions is covered (0: never; default 0.8).")
PLATEAU_OPT = typer.Option(
    None, "--plateau", min=0,
    help="Stop research when a round adds fewer new verified sentences than this (0: off; default 2).")
PAGE_CACHE_OPT = typer.Option(None, "--page-cache/--no-page-cache",
    help="Summarise each page once per conversation (default on).")
QUERY_DEDUPE_OPT = typer.Option(None, "--query-dedupe", min=0, max=100,
    help="Similarity (0-100) at which a query repeats an earlier one "
    "and is not searched again (default 90; 0 off).")
PAGE_RELEVANCE_CHARS_OPT = typer.Option(None, min=0,
    help="Cut a longer page to its passages matching the "
    "research before summarising (default 8000; 0 off).")
TEST_MODE_OPT = typer.Option(False, "--test-mode", help="Small limits for a cheap trial run.")
REPORT_FORMAT_OPT = typer.Option(
    None, "--format", help="Report format: detailed (default), concise or bullet_points.")
REPORT_LENGTH_OPT = typer.Option(
    None, "--length", help="Target length of the report in words (citations not counted).")
SYSTEM_PROMPT_OPT = typer.Option(
    None, "--system-prompt", help="Your own instructions for the report writer (at most 4,000 characters; "
    "the citation rules still apply).")
DOCX_OPT = typer.Option(False, "--docx", help="Also write report.docx (Word).")
CITATION_STYLE_OPT = typer.Option(
    None, "--citation-style", help="numbered | apa | mla | ieee | chicago (default: numbered).")
COUNCIL_OPT = typer.Option(None, "--council", help="Comma-separated provider:model names that review "
    "the research brief before research (the brief council).")
COUNCIL_THRESHOLD_OPT = typer.Option(None, "--council-threshold",
    help="Share of council votes that must approve the brief (0-1).")
COUNCIL_MAX_ROUNDS_OPT = typer.Option(None, "--council-max-rounds",
    help="Revisions of the brief the council may ask for.")
SearchOpt = typer.Option(None, "--search", help="tavily | local | searxng | openai_web | anthropic_web | none "
                                                      "(default: tavily).")
DbOpt = typer.Option(None, "--db", envvar="DEEP_RESEARCH_DB",
                     help="SQLite file or postgresql:// URL for checkpoints (default .deep-research/state.sqlite).")


def research(
    question: str = typer.Argument(..., help="What to research."),
    search: Optional[str] = SearchOpt,
    corpus: Optional[Path] = CORPUS_OPT,
    corpus_base_url: Optional[str] = CORPUS_BASE_URL_OPT,
    searxng_url: Optional[str] = typer.Option(
        None, help="SearXNG instance for --search searxng, e.g. http://localhost:8888 (env SEARXNG_URL)."),
    searxng_engines: Optional[str] = typer.Option(None, help="SearXNG engines, comma-separated."),
    searxng_categories: Optional[str] = typer.Option(None, help="SearXNG categories, comma-separated."),
    searxng_time_range: Optional[str] = typer.Option(None, help="SearXNG time range: day, week, month, year."),
    searxng_safesearch: Optional[int] = typer.Option(None, help="SearXNG safe search: 0, 1 or 2."),
    searxng_language: Optional[str] = typer.Option(None, help="SearXNG search language, e.g. en."),
    url: Optional[list[str]] = typer.Option(
        None, "--url", help="A page to research (repeatable): fetched and given to the researchers as a "
                            "source, in addition to search (with --search none: only these pages)."),
    fetch_allow_private: bool = typer.Option(
        False, "--fetch-allow-private", help="Let the page fetcher reach private and loopback addresses."),
    fetch_robots: bool = typer.Option(True, "--fetch-robots/--no-fetch-robots",
                                      help="Honour robots.txt when fetching pages."),
    fetch_timeout: Optional[float] = typer.Option(None, help="Seconds one page fetch may take (default 30)."),
    fetch_max_bytes: Optional[int] = typer.Option(None, help="Bytes of a page read at most (default 5,000,000)."),
    web_search_model: Optional[str] = typer.Option(
        None, help="Model for --search openai_web or anthropic_web (the provider's web search; default "
                   "gpt-4.1-mini / claude-haiku-4-5)."),
    model: Optional[str] = MODEL_OPT,
    base_url: Optional[str] = BASE_URL_OPT,
    api_key_env: Optional[str] = API_KEY_ENV_OPT,
    trusted_domain: Optional[list[str]] = typer.Option(
        None, "--trusted-domain", help="A domain whose pages are credible (with its subdomains); repeatable."),
    low_trust_domain: Optional[list[str]] = typer.Option(
        None, "--low-trust-domain", help="A domain whose pages are of low credibility; repeatable."),
    min_credibility: Optional[float] = typer.Option(
        None, "--min-credibility", min=0.0, max=1.0,
        help="Leave out search results whose source credibility (0-1) is below this."),
    local_credibility: Optional[float] = typer.Option(
        None, "--local-credibility", min=0.0, max=1.0,
        help="Source credibility (0-1) of the documents of a local corpus (default 0.9)."),
    out_dir: Optional[Path] = typer.Option(None, "--out", help="Where run folders are written (default docs/reports)."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask clarifying questions."),
    approve_brief: bool = typer.Option(False, "--approve-brief", help="Ask for approval of the research brief."),
    mode: Optional[str] = typer.Option(None, "--mode", help="Research path: auto (classify the question), single "
                                       "(one researcher) or multi (supervisor and parallel researchers; default)."),
    council: Optional[str] = COUNCIL_OPT,
    council_threshold: Optional[float] = COUNCIL_THRESHOLD_OPT,
    council_max_rounds: Optional[int] = COUNCIL_MAX_ROUNDS_OPT,
    review_report: bool = typer.Option(False, "--review-report",
                                       help="Ask for approval (or an edit, or feedback) of the report before publishing."),
    min_coverage: Optional[float] = MIN_COVERAGE_OPT,
    plateau: Optional[int] = PLATEAU_OPT,
    supervisor_summarize: Optional[bool] = typer.Option(
        None, "--supervisor-summarize/--no-supervisor-summarize",
        help="Summarise the supervisor's earlier rounds when its history grows long (default on)."),
    supervisor_keep: Optional[int] = typer.Option(
        None, "--supervisor-keep", min=2, help="Supervisor messages kept word for word when summarising (default 6)."),
    compression_summarize: Optional[bool] = typer.Option(
        None, "--compression-summarize/--no-compression-summarize",
        help="Summarise a researcher's older reasoning before compression when it grows long (default on)."),
    compression_keep: Optional[int] = typer.Option(
        None, "--compression-keep", min=1,
        help="Reasoning messages given word for word to compression when summarising (default 4)."),
    max_tokens: Optional[int] = typer.Option(None, help="Stop research after this many tokens."),
    max_cost: Optional[float] = typer.Option(None, help="Stop research at this estimated cost in USD."),
    page_cache: Optional[bool] = PAGE_CACHE_OPT,
    query_dedupe: Optional[int] = QUERY_DEDUPE_OPT,
    page_relevance_chars: Optional[int] = PAGE_RELEVANCE_CHARS_OPT,
    test_mode: bool = TEST_MODE_OPT,
    report_format: Optional[str] = REPORT_FORMAT_OPT,
    report_length: Optional[int] = REPORT_LENGTH_OPT,
    system_prompt: Optional[str] = SYSTEM_PROMPT_OPT,
    pdf: bool = typer.Option(True, "--pdf/--no-pdf", help="Write the PDF."),
    docx: bool = DOCX_OPT,
    citation_style: Optional[str] = CITATION_STYLE_OPT,
    db: Optional[str] = DbOpt,
) -> None:
    """Research QUESTION and write a report whose every citation is checked."""
    import asyncio

    q = _validate_question(question)
    context = research_context(search=search, corpus=corpus, corpus_base_url=corpus_base_url,
                               searxng_url=searxng_url, searxng_engines=searxng_engines,
                               searxng_categories=searxng_categories, searxng_time_range=searxng_time_range,
                               searxng_safesearch=searxng_safesearch, searxng_language=searxng_language, url=url,
                               fetch_allow_private=fetch_allow_private, fetch_robots=fetch_robots,
                               fetch_timeout=fetch_timeout, fetch_max_bytes=fetch_max_bytes,
                               web_search_model=web_search_model, model=model, base_url=base_url,
                               api_key_env=api_key_env, trusted_domain=trusted_domain,
                               low_trust_domain=low_trust_domain, min_credibility=min_credibility,
                               local_credibility=local_credibility, out=out_dir,
                               yes=yes, approve_brief=approve_brief, review_report=review_report,
                               max_tokens=max_tokens, max_cost=max_cost, test_mode=test_mode, pdf=pdf, mode=mode,
                               council=council, council_threshold=council_threshold,
                               council_max_rounds=council_max_rounds, page_cache=page_cache,
                               query_dedupe=query_dedupe, page_relevance_chars=page_relevance_chars,
                               min_coverage=min_coverage, plateau=plateau,
                               supervisor_summarize=supervisor_summarize, supervisor_keep=supervisor_keep,
                               compression_summarize=compression_summarize, compression_keep=compression_keep,
                               report_format=report_format, report_length=report_length, system_prompt=system_prompt,
                               docx=docx, citation_style=_check_citation_style(citation_style))
    code = asyncio.run(_run_research(q, context, _check_db(db or ".deep-research/state.sqlite"), None,
                                     {"type": "approve"} if yes and approve_brief else None, None))
    raise typer.Exit(code)


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

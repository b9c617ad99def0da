"""``deep-research research`` and ``resume``: run the research graph in the terminal, ask
the user what the run waits for, print the outcome."""

from __future__ import annotations

import contextlib
import re
import signal
import sys
import threading
from pathlib import Path
from typing import Optional

import typer

from ..errors import UserError
from ..terminal import control_characters, one_line, printable, text_problem, without_bidi_controls
from .helpfmt import HelpCommand
from .settings import RUN_PANEL, checked_context, typed_labels, with_settings
from .settings import labels as setting_labels

# Rich (the consoles) is imported where output is printed, not here: --help must not load it.


def register(app: typer.Typer) -> None:
    app.command(cls=HelpCommand)(research)
    app.command(cls=HelpCommand)(resume)


# --- research ----------------------------------------------------------------------------
WAITING = 3  # exit code: the run waits for the user (clarification or brief approval)


class WaitingForUser(Exception):
    """The run waits for the user, who is not at a terminal: ``options`` of ``resume`` answer it."""

    def __init__(self, thread_id: str, what: str, options: str):
        super().__init__(what)
        self.thread_id = thread_id
        self.what = what
        self.options = options


_DECIDE = "--approve | --reject FEEDBACK"  # resume's answers to the brief (and, with --edit FILE, the report)


class Interrupted(Exception):
    """Ctrl-C (or end of input at a question the run waits on): the run stays saved where it
    stopped. ``main`` says so, naming the thread to resume, and exits 130; ``lines``, when
    given, are said instead (``compare``: which run finished, and the command to go on)."""

    def __init__(self, thread_id: str = "", at_prompt: bool = False, lines: tuple[str, ...] = ()):
        super().__init__(thread_id)
        self.thread_id, self.at_prompt, self.lines = thread_id, at_prompt, lines


@contextlib.contextmanager
def _ctrl_c_stops_prompt():
    """Ctrl-C raises KeyboardInterrupt while the user is asked something. asyncio.run's own
    SIGINT handler only cancels the main task, which a blocking prompt never notices: the first
    Ctrl-C did nothing until Enter was pressed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _asking(ask, *args):
    """``ask(*args)``, with Ctrl-C or end of input at its prompt raised as :class:`Interrupted`."""
    try:
        with _ctrl_c_stops_prompt():
            return ask(*args)
    except (KeyboardInterrupt, EOFError, typer.Abort):
        raise Interrupted(at_prompt=True) from None


def _ask_report_review(payload: dict, preset: dict | None) -> dict:
    from rich.markup import escape as _esc

    from .console import err, out

    if preset is not None:  # --approve, --reject FEEDBACK (revise once), --edit FILE
        if preset.get("type") == "reject":
            return {"type": "feedback", "feedback": preset.get("feedback", "")}
        return preset
    if not sys.stdin.isatty():
        raise WaitingForUser("", "review of the report", f"{_DECIDE} | --edit FILE")
    out.rule("Report to review")
    out.print(payload.get("report_markdown", ""), highlight=False, markup=False)
    if isinstance(payload.get("citation_summary"), dict):  # what code found, as the chat's review says it
        from ..research.runtime.chat import citation_line

        out.rule()
        out.print(citation_line(payload["citation_summary"]), highlight=False, markup=False)
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
                return _edit_decision(Path(rest.strip()).expanduser())
            except UserError as e:  # the report under review is kept: ask again
                err.print(printable(str(e)), markup=False)
                continue
        if can_revise and word.lower() in ("f", "feedback"):
            feedback = typer.prompt("What should change?").strip()
            if feedback:
                return {"type": "feedback", "feedback": feedback}
        err.print("Please answer a, e FILE" + (" or f." if can_revise else "."))


def _edit_decision(path: Path) -> dict:
    """The decision to publish the report markdown in ``path`` (``--edit FILE``, ``e FILE``);
    UserError when it cannot be read or is longer than a reviewer's edit may be."""
    from ..inputs import read_text_file
    from ..research.report.review import edit_too_long

    markdown = read_text_file(path, "edited report")
    if (long := edit_too_long(markdown)) is not None:
        raise UserError(f"{path}: {long}")
    return {"type": "edit", "markdown": markdown}


def _ask_approval(payload: dict, preset: dict | None) -> dict:
    from rich.markup import escape as _esc

    from .console import err, model_markdown, out

    if payload.get("type") == "report_review":
        return _ask_report_review(payload, preset)
    if preset is not None:
        return preset
    if not sys.stdin.isatty():
        raise WaitingForUser("", "approval of the research brief", _DECIDE)
    out.rule("Research brief")
    out.print(model_markdown(payload.get("research_brief", "")))
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
    from .console import model_markdown, model_markdown_line, out

    if preset:
        return preset
    if not sys.stdin.isatty():
        raise WaitingForUser("", f"an answer to: {model_markdown_line(question)}", "--answer TEXT")
    out.rule("Clarifying question")
    out.print(model_markdown(question))  # the model writes markdown: read as written, not \* or \_
    answer = typer.prompt("Your answer").strip()
    if not answer:
        raise UserError("an empty answer; the run is paused")
    return answer


async def _drive(handle, graph, payload, progress, *, approve: dict | None, answer: str | None,
                 used: set[str] | None = None) -> dict:
    """Run until the graph ends; ask (or take ``approve`` / ``answer``) when it waits.
    ``used``: gets "decision" / "answer" when ``approve`` / ``answer`` was given to the run."""
    from langchain_core.messages import AIMessage, HumanMessage

    from ..research.runner import resume_payload, stream_run
    from ..research.runtime.usage import message_text

    used = set() if used is None else used
    while True:
        with progress:
            await stream_run(graph, handle, payload, progress)
        state = await graph.aget_state(handle.config)
        if state.interrupts:
            progress.pause()
            try:
                decision = _asking(_ask_approval, state.interrupts[0].value, approve)
            except WaitingForUser as w:
                raise WaitingForUser(handle.thread_id, w.what, w.options) from None
            if approve is not None:
                used.add("decision")
            approve = approve if decision.get("type") == "approve" else None  # a rejection or edit is used once
            payload = resume_payload(decision)
            continue
        values = state.values
        if values.get("status") == "needs_clarification":
            msgs = values.get("messages") or []
            question = next((message_text(m) for m in reversed(msgs) if isinstance(m, AIMessage)), "")
            try:
                reply = _asking(_ask_clarification, question, answer)
            except WaitingForUser as w:
                raise WaitingForUser(handle.thread_id, w.what, w.options) from None
            if answer:
                used.add("answer")
            answer = None
            payload = {"messages": [HumanMessage(reply)]}
            continue
        return values


def option_aliases(typed: dict[str, str]) -> dict[str, str]:
    """An option's name -> its setting, where they differ (``max-tokens`` -> ``max_total_tokens``):
    a variable named after the option (the prefix and MAX_TOKENS) is taken for its setting's."""
    out = {}
    for name, label in typed.items():
        option = label.split("/")[0].removeprefix("--")
        if option.replace("-", "_") != name and option != "yes":  # --yes turns a setting off
            out[option] = name
    return out


def _warn_clamped(cfg, context: dict | None = None) -> None:
    """Say which variable of the environment looks like a setting's and is none, which limit
    the environment lowered, naming the option as the user typed it
    (--max-tokens), not the setting (max_total_tokens) the message names; a model without a
    price names the option of each setting in ``context`` (the settings given as options)."""
    from ..research.runtime.env_names import near_miss_lines
    from ..research.runtime.preflight import named
    from .console import warn as _warn
    from .settings import labels

    typed = labels()
    for line in near_miss_lines(aliases=option_aliases(typed)):  # a setting's variable misspelt: it sets nothing
        _warn(line)
    for c in cfg.clamped:
        name = c["setting"]
        _warn(c["message"].replace(name, typed.get(name, name), 1))
    note = cfg.unpriced_note()
    if note:
        _warn(named(note, typed_labels(context or {})))


def _keep_clamped(handle, cfg) -> None:
    """The run is saved with the limit it uses: a cap the environment lowered is saved as the
    ceiling, not as asked (a later resume would otherwise ask for it, and warn, again)."""
    for c in cfg.clamped:
        handle.context[c["setting"]] = c["ceiling"]


def path_lines(values: dict) -> list[str]:
    """Which research path ran (and why), and what the brief council decided."""
    lines = []
    used = values.get("research_mode_used")
    if used:
        c = values.get("complexity") or {}
        # the model's reason: one bounded line, its controls and bidi overrides escaped
        why = f" (question classified {one_line(c.get('level'), 20)}: {one_line(c.get('reason') or '')})" \
            if c.get("level") else ""
        lines.append(printable(f"Research path: {one_line(used, 20)}{why}"))
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


# The caps, by the words a message about them uses: the option that raises each.
CAPS = (("token", "--max-tokens", ("token cap", "token budget")), ("cost", "--max-cost", ("cost cap", "cost budget")))


def cap_advice(messages: list[str], *, failed: bool, thread_id: str | None = None) -> list[str]:
    """What to do when a cap stopped the run or its research (from the messages that say so):
    the cap, and the option that raises it (for a failed run: on ``resume``, which keeps what
    the run has done)."""
    text = " ".join(messages)
    lines = []
    for kind, option, words in CAPS:
        if any(w in text for w in words):
            lines.append(f"The {kind} cap ({option}) " + (
                f"left no room for this step: continue the run with a higher cap: deep-research resume "
                f"{thread_id or 'THREAD_ID'} {option} N (or {option} none: no cap)" if failed else
                f"stopped research early: raise {option} for a fuller report."))
    return lines


def coverage_lines(coverage: dict) -> list[str]:
    """What the CLI says about the plan's coverage and why research stopped ([] before research)."""
    from ..research.scope.plan import plan_coverage

    if not coverage:
        return []
    items = coverage.get("items") or []
    why = STOP_REASONS.get(coverage.get("stopped_because"), str(coverage.get("stopped_because")))
    rounds = coverage.get("rounds", 0)
    score = plan_coverage(coverage)
    if score is None:
        return [f"Coverage: n/a (the research plan has no sub-questions); research stopped after {rounds} "
                f"research round(s): {why}."]
    covered = sum(1 for i in items if i.get("covered"))
    lines = [f"Coverage: {score:.0%} of the research plan ({covered} of {len(items)} "
             f"sub-questions covered); research stopped after {rounds} research round(s): {why}."]
    lines += [printable(f"  not covered: {i['id']} [{i['priority']}] {one_line(i['question'])} ({i['evidence']} "
                        "verified sentence(s))") for i in items if not i.get("covered")]
    if coverage.get("unjudged"):
        lines.append(f"  {coverage['unjudged']} verified sentence(s) could not be judged; coverage may be higher.")
    return lines


def _print_result(values: dict, thread_id: str) -> int:
    from rich.markup import escape as _esc

    from .console import err, out, usage_table
    from .console import warn as _warn

    usage = values.get("usage") or {}
    out.print(usage_table(usage))
    said: set[tuple] = set()
    for d in values.get("degradations") or []:
        if d.get("kind") in ("clamped", "unpriced"):  # said when the run started
            continue
        # a page several queries returned (read only in part each time) is said once, as is any
        # message said again word for word
        key = ("page_cut", d.get("url")) if d.get("kind") == "page_cut" else (d.get("stage"), d.get("message"))
        if key not in said:
            said.add(key)
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
    if values.get("budget_exhausted") or any(d.get("kind") == "budget" for d in values.get("degradations") or []):
        for line in cap_advice([d.get("message", "") for d in values.get("degradations") or []], failed=False):
            _warn(line)
    from .publish import markup_warning

    if inert := markup_warning(values.get("output_policy") or {}):
        _warn(inert)
    from ..language import labels
    from ..research.runtime.chat import citation_line

    lang = values.get("language")
    # wrapped between words on a terminal; one line each into a pipe or file (read by scripts)
    for line in [*path_lines(values), citation_line(values.get("citation_summary") or {}, lang),
                 *coverage_lines(values.get("coverage") or {})]:
        out.print(line, markup=False, highlight=False, soft_wrap=not out.is_terminal)
    files = values.get("outputs") or {}
    written = labels(lang)["report_written"].format(dir="\0")
    before, _, after = written.partition("\0")
    out.print(f"{_esc(before)}[bold]{_esc(printable(files.get('dir')))}[/bold]{_esc(after)}", soft_wrap=True)
    # every file of the folder a user may look for (audit.json, raw_notes.md and run.json were left out)
    for key in ("markdown", "linked", "pdf", "docx", "html", "citations", "audit", "sources", "notes", "raw_notes",
                "run"):
        if files.get(key):
            out.print(f"  {printable(Path(files[key]).name)}", markup=False)
    return 0


async def _run_research(question: str | None, context: dict, db: str, thread_id: str | None,
                        approve: dict | None, answer: str | None) -> int:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from rich.markup import escape as _esc

    from ..publish.files import prepare_out_dir
    from ..research.runner import (
        RunHandle,
        compile_for,
        first_payload,
        kept,
        environment_changes,
        environment_snapshot,
        load_deps,
        load_run,
        open_persistence,
        resume_payload,
        resupplied,
        save_run,
    )
    from ..research.runtime.configuration import Configuration
    from ..research.runtime.failure import ResearchFailed
    from ..research.runtime.preflight import preflight
    from ..research.runtime.thread_settings import REPLACED, refused_on_resume
    from .console import err, out, warn

    # A model integration without native async support runs each call in the event loop's
    # default executor (min(32, cpus + 4) threads): on a small machine parallel researchers
    # would queue for threads (bench_research: 8 units took 2x the ideal time on 6 threads,
    # 1.1x on 64). Threads are started only when needed.
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=64))
    deps = load_deps()
    used: set[str] = set()  # what of approve / answer the run was given
    async with open_persistence(db) as (saver, store):
        if thread_id is None:
            handle = RunHandle.new(context)
            cfg = Configuration.resolve({"configurable": {}}, context)
            _warn_clamped(cfg, context)
            await preflight(cfg, deps, typed_labels(context))  # every setup mistake reported now, before any cost
            prepare_out_dir(cfg.output_dir)  # an unwritable --out fails now, not after the research
            _keep_clamped(handle, cfg)
            await save_run(store, handle, question or "", environment_snapshot(key_variables=_key_variables(cfg)))
            payload = first_payload(question or "")
        else:
            saved = await load_run(store, thread_id)
            for line in environment_changes(saved.get("environment")):  # another model, server or key now
                warn(line)
            every = setting_labels()
            merged = resupplied(saved.get("context", {}), context,
                                options={n: every[n] for n in RESUME_SECRET_SETTINGS if n in every})
            # a saved setting refused now (a model the environment no longer allows): replaced, said
            merged, replaced = refused_on_resume(saved.get("context", {}), context, merged)
            for record in replaced:
                warn(_replaced_line(record, every))
            handle = RunHandle.existing(thread_id, merged)
            if replaced:  # told in the thread too (a settings turn, audit.json)
                handle.config["configurable"][REPLACED] = replaced
            cfg = Configuration.resolve({"configurable": {}}, merged)
            _warn_clamped(cfg, merged)
            await preflight(cfg, deps, typed_labels(merged))
            # a cap or URL given on resume holds for the rest of the run, later resumes too; a run
            # saved with a URL's password (before it was kept out) is saved again without it
            if context or cfg.clamped or replaced or kept(saved.get("context", {})) != saved.get("context", {}):
                _keep_clamped(handle, cfg)
                await save_run(store, handle, str(saved.get("question") or ""), saved.get("environment"))
            payload = None
        graph = compile_for(deps, saver, store)
        if thread_id is not None:
            state = await graph.aget_state(handle.config)
            if not state.values and not str(saved.get("question") or "").strip():
                raise UserError(f"run {thread_id} has no saved progress to resume")
            if not state.values:  # stopped before its first step (compare's second run): started now
                out.print(f"Run {thread_id} had not started: it starts now.", markup=False)
                payload = first_payload(str(saved["question"]))
            if state.values.get("status") == "completed" and not state.next:
                out.print(f"Run {thread_id} is already complete.", markup=False)
                _warn_unused(typed_resume(context, approve, answer), f"run {thread_id} is already complete")
                return _print_result(state.values, thread_id)
            if state.interrupts and approve is not None:
                payload = resume_payload(approve)
                used.add("decision")
        out.print(f"Thread [bold]{handle.thread_id}[/bold] (resume with: deep-research resume {handle.thread_id})")
        from ..progress import RunProgress

        progress = RunProgress(out, handle.thread_id)
        given = typed_resume({}, approve, answer)  # what resume was told to answer: said when unused
        try:
            values = await _drive(handle, graph, payload, progress, approve=None if "decision" in used else approve,
                                  answer=answer, used=used)
        except ResearchFailed as e:
            err.print(f"[red]error:[/red] {_esc(printable(f'the run failed at {e.stage}: {e.message}'))}",
                      highlight=False)
            if e.notes_path and e.gathered:
                err.print(f"Research gathered so far is saved in {printable(e.notes_path)}", markup=False)
            advice = cap_advice([e.message], failed=True, thread_id=handle.thread_id)
            for line in advice:
                err.print(line, markup=False)
            if not advice:
                err.print(f"Fix the cause, then continue with: deep-research resume {handle.thread_id}")
            return 1
        except (Interrupted, asyncio.CancelledError) as stop:  # Ctrl-C: asyncio.run cancels this task
            progress.pause()
            raise Interrupted(handle.thread_id, isinstance(stop, Interrupted) and stop.at_prompt) from None
        except WaitingForUser as w:
            _warn_unused({k: v for k, v in given.items() if k not in used}, "the run did not ask for it")
            err.print(f"The run is waiting for {printable(w.what)}. Continue with: deep-research resume "
                      f"{handle.thread_id} {w.options}", markup=False)
            return WAITING
        _warn_unused({k: v for k, v in given.items() if k not in used}, "the run did not ask for it")
        return _print_result(values, handle.thread_id)


def _replaced_line(record: dict, labels: dict[str, str]) -> str:
    """A saved setting a resume replaced (thread_settings.refused_on_resume), in one line
    naming its option, the value the run was started with, why it is refused now and the
    value used instead."""
    from ..research.runtime.thread_settings import ignored_line

    return ignored_line({**record, "setting": labels.get(record["setting"], record["setting"])})


def _key_variables(cfg) -> tuple[str, ...]:
    """The variables a run's models take their keys from (api_key_env), beyond the usual."""
    from ..research.runtime.configuration import ROLES

    names = {cfg.model_spec(r).get("api_key_env") for r in ROLES}
    return tuple(sorted(n for n in names if n))


def typed_resume(context: dict, decision: dict | None, answer: str | None) -> dict[str, str]:
    """What a resume was given, as the user typed it: {"decision" | "answer" | setting:
    "--option value"}."""
    from ..research.runtime.thread_settings import kept

    every = setting_labels()
    out = {name: f"{every.get(name, name)} {'none' if value is None else kept(str(value))}"
           for name, value in context.items()}
    if decision is not None:
        kind = decision.get("type")
        out["decision"] = {"approve": "--approve", "reject": f"--reject {decision.get('feedback', '')!r}",
                           "edit": "--edit"}.get(str(kind), str(kind))
    if answer:
        out["answer"] = f"--answer {answer!r}"
    return out


def _warn_unused(typed: dict[str, str], why: str) -> None:
    """One line for each option a resume was given that it did not use (exit code as before)."""
    from .console import warn

    for shown in typed.values():
        warn(f"{one_line(shown, 120)} was not used: {why}")


def _validate_question(question: str) -> str:
    """The question to research: Windows and old Mac line ends read as line ends, the
    bidirectional controls removed (as from a chat message: they hold no words, only the
    order a viewer shows them in); a UserError when it is empty, too long or not text."""
    q = without_bidi_controls(question.replace("\r\n", "\n").replace("\r", "\n")).strip()
    if any(0xD800 <= ord(c) <= 0xDFFF for c in q):  # bytes of the argument that are not UTF-8
        raise UserError("the question is not valid UTF-8 text")
    if (problem := text_problem(q, "the question")) is not None:  # empty, or too long
        raise UserError(problem)
    bad = control_characters(q)
    if bad:
        raise UserError(f"the question contains control characters ({', '.join(bad[:5])})")
    return q


def _check_db(db: str) -> str:
    """Fail early, with a clear message, if a SQLite --db cannot hold the run's state."""
    import sqlite3

    from ..research.runner import is_postgres

    if is_postgres(db):
        return db
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", db):  # read as a path, 'sqlite:///x' made a folder 'sqlite:'
        raise UserError(f"--db: {db!r} is neither a PostgreSQL URL (postgresql://…) nor a file path; "
                        "a SQLite database is given by its path, e.g. .deep-research/state.sqlite")
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
DbOpt = typer.Option(None, "--db", envvar="DEEP_RESEARCH_DB", rich_help_panel=RUN_PANEL,
                     help="SQLite file or postgresql:// URL for checkpoints (default .deep-research/state.sqlite).")


def refuse_contradictions(settings: dict) -> None:
    """Options that cannot both hold (a UserError, exit 2, rather than one silently winning)."""
    if settings.get("yes") and settings.get("approve_brief"):
        raise UserError("--yes and --approve-brief contradict each other: --yes runs without asking you "
                        "anything, --approve-brief stops to ask you to approve the research brief; give one of them")


@with_settings()
def research(
    question: str = typer.Argument(..., help="What to research."),
    db: Optional[str] = DbOpt,
    run_settings: dict | None = None,
) -> None:
    """Research QUESTION and write a report whose every citation is checked.

    Every option sets the run setting of the same name (the help names the setting where the
    option's name differs); a setting not given comes from the environment
    (DEEP_RESEARCH_<SETTING>, e.g. DEEP_RESEARCH_MAX_TOTAL_TOKENS, or a .env file), else its
    default. A limit the environment sets is a ceiling an option can only lower."""
    import asyncio

    q = _validate_question(question)
    refuse_contradictions(run_settings or {})
    context = checked_context(**(run_settings or {}))
    code = asyncio.run(_run_research(q, context, _check_db(db or ".deep-research/state.sqlite"), None, None, None))
    raise typer.Exit(code)


# A model server's URL may hold a password (https://user:password@host/v1), which the state
# database does not keep: resume takes it again (and may point the rest of the run elsewhere);
# a role's own server URL (--research-model-base-url) comes again from the environment.
RESUME_SECRET_SETTINGS = ("model_base_url",)


@with_settings(only=("max_total_tokens", "max_cost_usd", *RESUME_SECRET_SETTINGS))
def resume(
    thread_id: str = typer.Argument(..., help="The thread id printed when the run started."),
    approve: bool = typer.Option(False, "--approve", help="Approve the research brief or report the run waits on."),
    reject: Optional[str] = typer.Option(None, "--reject",
                                         help="Reject the brief, or ask for one revision of the report, with this feedback."),
    edit: Optional[Path] = typer.Option(None, "--edit", help="Publish this edited report markdown (citations re-checked)."),
    answer: Optional[str] = typer.Option(None, "--answer", help="Answer the clarifying question."),
    db: Optional[str] = DbOpt,
    run_settings: dict | None = None,
) -> None:
    """Continue an interrupted, failed or waiting run where it stopped.

    --max-tokens and --max-cost replace the run's cap from here on (the whole run's usage
    counts against it), e.g. after the cap left no room for a step; the value none
    removes the cap (a ceiling set in the environment still holds). The state database
    does not keep the password of a --base-url: give the URL again here (or in the
    environment), as the run was started with it."""
    import asyncio

    if sum(bool(x) for x in (approve, reject, edit)) > 1:
        raise UserError("use only one of --approve, --reject and --edit")
    if reject is not None:  # read as a question is: the graph asks again, without the terminal saying why
        reject = reject.strip()
        bad = control_characters(reject)
        problem = text_problem(reject, "the feedback") or (
            f"the feedback contains control characters ({', '.join(bad[:5])})" if bad else None)
        if problem:
            raise UserError(f"--reject: {problem}")
    decision = {"type": "approve"} if approve else ({"type": "reject", "feedback": reject} if reject else None)
    if edit is not None:
        decision = _edit_decision(edit)
    context = checked_context(**(run_settings or {}))
    from ..research.runner import is_postgres

    db = db or ".deep-research/state.sqlite"
    if not is_postgres(db) and not Path(db).expanduser().exists():  # a typo must not create an empty one
        raise UserError(f"the state database {db} does not exist (use the same --db as the original run)")
    code = asyncio.run(_run_research(None, context, _check_db(db),
                                     thread_id.strip(), decision, answer))
    raise typer.Exit(code)

"""``deep-research compare QUESTION``: the question researched in the single-agent and the
multi-agent mode, one after the other (separate threads, no clarifying question, the brief
approved automatically), and the two runs side by side: wall time, tokens, cost, citations,
claims, sources, coverage and the report folders. ``compare.json`` records the same in the
comparison's folder, which also holds both runs' report folders."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from ..terminal import inert_json, printable
from .helpfmt import HelpCommand
from .research import DbOpt, _check_db, _validate_question
from .settings import checked_context, with_settings

MODES = ("single", "multi")


def register(app: typer.Typer) -> None:
    app.command(cls=HelpCommand)(compare)


def run_metrics(values: dict, seconds: float, thread_id: str) -> dict:
    """The numbers of one finished (or failed) run, for the table and compare.json."""
    from ..research.scope.plan import plan_coverage

    usage = values.get("usage") or {}
    summary = values.get("citation_summary") or {}
    cost = sum(u.get("cost_usd", 0.0) for u in usage.values())
    coverage = values.get("coverage")
    return {
        "thread_id": thread_id,
        "status": values.get("status"),
        "research_mode_used": values.get("research_mode_used"),
        "complexity": (values.get("complexity") or {}).get("level"),
        "seconds": round(seconds, 2),
        "model_calls": sum(u.get("calls", 0) for u in usage.values()),
        "prompt_tokens": sum(u.get("input_tokens", 0) for u in usage.values()),
        "completion_tokens": sum(u.get("output_tokens", 0) for u in usage.values()),
        "cost_usd": round(cost, 6) if cost else None,  # None: no model of the run has a price
        "refs": summary.get("refs"),
        "verified_citations": summary.get("verified"),
        "unsupported_citations": summary.get("unsupported"),
        "claims_supported": summary.get("claims_supported"),
        "claims_unsupported": summary.get("claims_unsupported"),
        "sources_read": len(values.get("sources") or {}),
        "sources_cited": summary.get("sources_cited"),
        "research_iterations": values.get("research_iterations"),
        "coverage": plan_coverage(coverage),  # the one definition (n/a: the plan has no sub-questions)
        "report_dir": (values.get("outputs") or {}).get("dir"),
        "errors": [f"{e.get('stage')}: {e.get('message')}" for e in values.get("errors") or []],
    }


ROWS = [("status", "status", ""), ("research_mode_used", "research path", ""), ("seconds", "wall time (s)", "s"),
        ("model_calls", "model calls", "n"), ("prompt_tokens", "prompt tokens", "n"),
        ("completion_tokens", "completion tokens", "n"), ("cost_usd", "cost (USD)", "usd"), ("refs", "refs", "n"),
        ("verified_citations", "verified citations", "n"), ("claims_supported", "claims supported", "n"),
        ("claims_unsupported", "claims unsupported", "n"), ("sources_read", "sources read", "n"),
        ("sources_cited", "sources cited", "n"), ("coverage", "coverage", "cov"), ("report_dir", "report folder", "")]


def _cell(value: Any, kind: str) -> str:
    if value is None or value == "":
        return "n/a"
    if kind == "usd":
        return f"${value:.4f}"
    if kind == "s":
        return f"{value:.1f}"
    if kind == "n" and isinstance(value, (int, float)):
        return f"{value:,}"
    if kind == "cov" and isinstance(value, (int, float)):
        return f"{value:.0%}"  # as research prints it
    return printable(str(value))


def comparison_table(runs: dict[str, dict], folder: Path | None = None):
    """The runs side by side; report folders relative to the comparison's folder."""
    from rich.markup import escape as _esc
    from rich.table import Table

    def shown(r: dict) -> dict:
        d = r.get("report_dir")
        if folder is not None and d and Path(d).is_relative_to(folder):
            return {**r, "report_dir": str(Path(d).relative_to(folder))}
        return r

    runs = {mode: shown(r) for mode, r in runs.items()}

    t = Table(title="single vs multi", title_justify="left")
    t.add_column("", no_wrap=True)
    for mode in runs:
        t.add_column(mode, overflow="fold")
    for key, label, kind in ROWS:
        t.add_row(label, *(_esc(_cell(r.get(key), kind)) for r in runs.values()))
    return t


async def _run_compare(question: str, context: dict, db: str) -> int:
    import asyncio
    import datetime as dt
    import time
    import uuid
    from concurrent.futures import ThreadPoolExecutor

    from rich.markup import escape as _esc

    from ..progress import RunProgress
    from ..publish import write_atomic
    from ..publish.files import inside, prepare_out_dir, safe_name
    from ..research.runner import (
        RunHandle,
        compile_for,
        first_payload,
        load_deps,
        open_persistence,
        save_run,
    )
    from ..research.runtime.configuration import Configuration
    from ..research.runtime.failure import ResearchFailed
    from ..research.runtime.preflight import preflight
    from .console import err, out
    from .console import warn as _warn
    from .research import Interrupted, WaitingForUser, _drive, _warn_clamped
    from .settings import typed_labels

    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=64))
    deps = load_deps()
    cfg = Configuration.resolve({"configurable": {}}, context)
    _warn_clamped(cfg, context)
    await preflight(cfg, deps, typed_labels(context))  # every setup mistake reported now, before any cost
    root = prepare_out_dir(cfg.output_dir)
    name = f"compare-{dt.date.today().isoformat()}-{safe_name(question, max_len=50)}-{uuid.uuid4().hex[:8]}"
    folder = inside(root, safe_name(name, max_len=120))
    folder.mkdir(parents=True, exist_ok=True)
    runs: dict[str, dict] = {}

    def record(stopped: str | None = None, threads: dict[str, str] | None = None) -> dict:
        return {"question": question, "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                "settings": {k: v for k, v in context.items() if k != "output_dir"}, "runs": runs,
                **({"interrupted": stopped, "not_run": [m for m in MODES if m not in runs],
                    "threads": threads or {}} if stopped else {})}

    def write(rec: dict) -> Path:
        path = folder / "compare.json"
        write_atomic(path, inert_json(json.dumps(rec, indent=2, ensure_ascii=False, default=str)) + "\n")
        return path

    async with open_persistence(db) as (saver, store):
        graph = compile_for(deps, saver, store)
        # both runs saved first: a Ctrl-C at any point after names each one's thread, and
        # `resume` starts a run that had not started yet
        handles = {mode: RunHandle.new({**context, "research_mode": mode, "allow_clarification": False,
                                        "output_dir": str(folder / mode)}) for mode in MODES}
        for handle in handles.values():
            await save_run(store, handle, question)
        for mode in MODES:
            handle = handles[mode]
            started = time.monotonic()
            progress = RunProgress(out, handle.thread_id)
            try:
                out.print(f"[bold]{mode}[/bold]: thread [bold]{handle.thread_id}[/bold]")
                try:
                    values = await _drive(handle, graph, first_payload(question), progress,
                                          approve={"type": "approve"}, answer=None)
                except ResearchFailed as e:
                    err.print(f"[red]error:[/red] {_esc(printable(f'{mode}: the run failed at {e.stage}: {e.message}'))}",
                              highlight=False)
                    values = {**(await graph.aget_state(handle.config)).values, "status": "failed"}
                except WaitingForUser as w:
                    _warn(f"{mode}: the run waits for {w.what}; continue it with: deep-research resume "
                          f"{handle.thread_id}")
                    values = {**(await graph.aget_state(handle.config)).values, "status": "waiting"}
                runs[mode] = run_metrics(values, time.monotonic() - started, handle.thread_id)
            except (Interrupted, asyncio.CancelledError) as stop:  # Ctrl-C: the runs so far are kept
                progress.pause()
                state = (await graph.aget_state(handle.config)).values
                if state:  # stopped in its research: resume goes on from there
                    runs[mode] = run_metrics({**state, "status": "interrupted"}, time.monotonic() - started,
                                             handle.thread_id)
                path = write(record(mode, {m: h.thread_id for m, h in handles.items()}))
                lines = interrupted_lines(mode, runs, {m: h.thread_id for m, h in handles.items()}, path)
                raise Interrupted(handle.thread_id, isinstance(stop, Interrupted) and stop.at_prompt,
                                  tuple(lines)) from None
    path = write(record())
    out.print(comparison_table(runs, folder))
    out.print(f"Comparison written to [bold]{_esc(printable(str(path)))}[/bold]", soft_wrap=True)
    return 0 if all(r["status"] == "completed" for r in runs.values()) else 1


def interrupted_lines(stopped: str, runs: dict[str, dict], threads: dict[str, str], path: Path) -> list[str]:
    """What a Ctrl-C in ``compare`` says: each run that finished and where its report is,
    the run that was stopped (or had not started yet, between the two), where the
    comparison so far is written, and the command that goes on with each run not finished."""
    lines = [f"interrupted: {stopped} was " + ("stopped in its research" if stopped in runs else "not started")]
    for mode in MODES:
        r = runs.get(mode)
        if r is None or mode == stopped:
            continue
        where = f"its report is in {printable(r['report_dir'])}" if r.get("report_dir") else "it wrote no report"
        lines.append(f"{mode} finished ({printable(str(r.get('status')))}): {where}")
    lines.append(f"The comparison so far is written to {printable(str(path))}")
    for mode in MODES:
        if mode not in runs or mode == stopped:
            how = "Continue" if mode in runs else "Start"
            lines.append(f"{how} the {mode} run with: deep-research resume {threads[mode]}")
    return lines


# compare runs both paths itself, without questions, and approves the brief automatically
NOT_FOR_COMPARE = ("research_mode", "allow_clarification", "require_brief_approval", "require_report_approval")


@with_settings(leave_out=NOT_FOR_COMPARE)
def compare(
    question: str = typer.Argument(..., help="What to research, once in each mode."),
    db: Optional[str] = DbOpt,
    run_settings: dict | None = None,
) -> None:
    """Research QUESTION in the single-agent and the multi-agent mode and compare them side by side.

    Takes the settings of the research command (both runs use them) except --mode, --yes,
    --approve-brief and --review-report: compare runs both paths without asking anything."""
    import asyncio

    q = _validate_question(question)
    context = checked_context(**(run_settings or {}))
    code = asyncio.run(_run_compare(q, context, _check_db(db or ".deep-research/state.sqlite")))
    raise typer.Exit(code)

"""``deep-research eval``: evaluate run folders and question sets (registered on the main
Typer app in cli/__init__.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from ..errors import UserError
from ..evaluation.rundir import MAX_DEPTH, MAX_RUN_FOLDERS
from ..terminal import inert_json, one_line, printable
from .helpfmt import HelpCommand, HelpGroup
from .settings import RUN_PANEL, checked_context, typed_labels, with_settings

if TYPE_CHECKING:
    from rich.console import Group
    from rich.table import Table

# Rich loads when a command prints (`--help` must not load it): the consoles of cli.console.
eval_app = typer.Typer(
    cls=HelpGroup,
    no_args_is_help=True,
    help="Evaluate reports: code checks of run folders, question sets, an LLM judge, comparisons, "
         "DeepResearch Bench files.",
)

JUDGE_PANEL = "Judge"
JudgeModel = typer.Option(None, "--judge-model", help="provider:model of the judge, e.g. openai:gpt-4.1.",
                           rich_help_panel=JUDGE_PANEL)
JudgeBaseUrl = typer.Option(None, "--judge-base-url", help="OpenAI-compatible server of the judge.",
                             rich_help_panel=JUDGE_PANEL)
JudgeKeyEnv = typer.Option(None, "--judge-api-key-env", help="Environment variable holding the judge's API key.",
                            rich_help_panel=JUDGE_PANEL)
JudgeMaxCalls = typer.Option(None, "--judge-max-calls", min=1, help="At most this many judge calls (default: no limit).",
                              rich_help_panel=JUDGE_PANEL)


def _judge_seconds(value: str | float) -> float:
    """--judge-timeout as typed: a finite number of at least 1 second, or an error naming what
    was typed ("nan" failed the bound as "greater than or equal to 1", "inf" was taken)."""
    import math

    try:
        seconds = float(value)
    except ValueError:
        raise typer.BadParameter(f"must be a number, not {str(value)!r}") from None
    if not math.isfinite(seconds):
        raise typer.BadParameter(f"must be a finite number, not {str(value)!r}")
    if seconds < 1:
        raise typer.BadParameter(f"must be at least 1, not {str(value)!r}")
    return seconds


JudgeTimeout = typer.Option(180.0, "--judge-timeout", parser=_judge_seconds, metavar="NUMBER",
                            help="Timeout of one judge call (seconds). [at least 1; default: 180]",
                            show_default=False, rich_help_panel=JUDGE_PANEL)


def _say(text: str) -> None:
    """A line naming a path: never wrapped (a path stays whole to copy)."""
    from .console import out

    out.print(printable(text), markup=False, highlight=False, soft_wrap=True)


def _tell(text: str) -> None:
    """A sentence: wrapped between words on a terminal (left to the terminal, a line past
    its width broke mid-word); one line into a pipe or file, as scripts read it."""
    from .console import out

    out.print(printable(text), markup=False, highlight=False, soft_wrap=not out.is_terminal)


def _warn(text: str) -> None:
    from .console import warn

    warn(text)


def _error(text: str) -> None:
    from rich.markup import escape as _esc

    from .console import err

    err.print(f"[red]error:[/red] {_esc(printable(text))}")


PIPE_WIDTH = 160  # tables printed into a file or a pipe, unless COLUMNS says otherwise
MIN_WIDTH = 20  # a COLUMNS narrower than this (0, 1) is not a width a table can be drawn at


def _table(t: Table | Group) -> None:
    """Print a table; when the output is not a terminal (a file, CI) at a width that fits it."""
    from .console import SafeConsole, out

    (out if out.is_terminal else SafeConsole(width=_table_width(), highlight=False)).print(t)


def _table_width() -> int:
    """The width :func:`_table` prints at: the terminal's; into a file or a pipe, COLUMNS
    when it is set to a width (as the rest of the CLI's output reads it: it was ignored
    there, the tables drawn 160 wide whatever it said), else :data:`PIPE_WIDTH`."""
    import os

    from .console import out

    if out.is_terminal:
        return out.width
    columns = os.environ.get("COLUMNS", "").strip()
    return max(MIN_WIDTH, int(columns)) if columns.isdigit() else PIPE_WIDTH


def cell(value: object) -> str:
    """console.cell (text shown as it is, not Rich markup), loaded when a table is drawn."""
    from .console import cell as _cell

    return _cell(value)


def _new_table(title: str) -> Table:
    from rich.table import Table

    return Table(title=title, title_justify="left")


def _beside(inputs: list[Path], name: str) -> Path:
    """Where an evaluation's output goes when no path is given: ``name`` in the folder the
    evaluated runs share (the run folder itself, or the eval run's folder), never the
    working folder. Folders with nothing in common but the root: the first one."""
    import os

    folders = [p.resolve() for p in inputs]
    common = Path(os.path.commonpath(folders)) if len(folders) > 1 else folders[0]
    if common == Path(common.anchor):
        common = folders[0]
    return common / name


def _write_json(path: Path, value) -> None:
    from ..publish import write_atomic

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, inert_json(json.dumps(value, ensure_ascii=False, indent=2)) + "\n")
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror or e}") from None


def _make_judge(model: str | None, base_url: str | None, api_key_env: str | None, max_calls: int | None,
                timeout: float, *, required: bool = False):
    if model is None:
        if required:
            raise UserError("this command needs a judge model: --judge-model provider:model (e.g. openai:gpt-4.1)")
        return None
    from ..evaluation.report_judge import ReportJudge, judge_spec
    from ..research.runner import load_deps
    from ..research.runtime.configuration import Configuration, checked_base_url

    try:
        base_url = checked_base_url(base_url)
    except ValueError as e:
        raise UserError(f"--judge-base-url: {e}") from None
    cfg = Configuration.resolve({"configurable": {}}, {})
    spec = judge_spec(model, base_url=base_url or cfg.model_base_url, api_key_env=api_key_env, timeout_s=timeout)
    return ReportJudge.create(spec, factory=load_deps().model_factory, max_calls=max_calls,
                              max_retries=cfg.max_retries, structured_output=cfg.structured_output,
                              prices=cfg.model_prices)


def _judge_cost_line(judge) -> str:
    u = judge.usage
    return (f"Judge: {u['calls']} call(s), {u['input_tokens'] + u['output_tokens']:,} tokens, "
            f"${u['cost_usd']:.4f}" + (" (price unknown)" if not u["cost_usd"] and u["calls"] else ""))


def _pct(v) -> str:
    return "–" if v is None else f"{100 * v:.1f} %"


# --- eval report ---------------------------------------------------------------------------
@eval_app.command(cls=HelpCommand, name="report")
def report_cmd(
    dirs: list[Path] = typer.Argument(..., help=(
        f"Run folders, or folders holding run folders (searched {MAX_DEPTH} levels down, hidden folders "
        f"skipped, the first {MAX_RUN_FOLDERS} run folders by path; one whose files cannot be read is "
        "skipped with a warning).")),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Where to write the JSON (default: "
                                            "eval-report.json in the folder of the runs)."),
) -> None:
    """Code checks of published runs: structure, citations, claims, sources, FACT-style
    accuracy and the synthesis score."""
    from ..evaluation.checks import evaluate_run
    from ..evaluation.rundir import EvalInputError, load_run_folders

    runs = load_run_folders(dirs, _warn)
    json_out = json_out or _beside(dirs, "eval-report.json")
    records = []
    for run in runs:  # a folder whose files hold what no run writes: skipped, named, as an unreadable one
        try:
            records.append({**evaluate_run(run), "path": str(run.path)})
        except EvalInputError as e:
            _warn(f"skipped: {e}")
    if not records:
        raise EvalInputError(f"nothing to report in {', '.join(map(str, dirs))}: no run folder there could be "
                             f"read ({len(runs)} skipped, see the warnings above)")
    _table(report_table(records, _table_width()))
    _write_json(json_out, {"runs": records})
    _say(f"Wrote {json_out}")


NAME_CHARS = 28  # a run's name as a column heading (longer ones keep their start and end)
COMPARE_NAME_CHARS = 23  # a side's name in `eval compare` (two of them and the metric fit 80 columns)


def _run_heading(name: str, width: int = NAME_CHARS) -> str:
    """A run's (or an evaluation's) name as a column heading of ``width``: a long one keeps its
    start and its end, where a run folder's name has its thread id, which tells two runs of one
    question apart."""
    if len(name) <= width:
        return name
    end = min(width - 11, 15)  # at least 12 characters: a thread id
    return name[:width - 1 - end] + "…" + name[-end:]
CHECK_CHARS = 42  # the widest check label


def report_table(records: list[dict], width: int = PIPE_WIDTH) -> Table | Group:
    """One column per run (a few runs whose columns fit ``width``), or one row per run (many,
    or a terminal too narrow: a narrow column cut every run's name to the same date)."""
    from ..evaluation.summary import accuracy_text

    if len(records) > 3 or (CHECK_CHARS + 4) + len(records) * (NAME_CHARS + 3) > width:
        return report_rows(records)
    t = _new_table("Report checks")
    t.add_column("check", no_wrap=True)
    for r in records:
        short = _run_heading(r["run"])
        t.add_column(cell(short), justify="right", min_width=len(short))

    def line(label: str, fn) -> None:
        t.add_row(label, *(cell(str(fn(r))) for r in records))

    line("words", lambda r: f"{r['structure']['words']:,}")
    line("sections", lambda r: r["structure"]["sections"])
    line("limitations section", lambda r: "yes" if r["structure"]["limitations"] else "no")
    line("paragraphs without a citation", lambda r: f"{r['structure']['uncited_paragraphs']} of "
                                                    f"{r['structure']['paragraphs']}")
    line("citations", lambda r: r["citations"]["refs"])
    line("  verified / repaired / unsupported", lambda r: f"{r['citations']['verified']} / "
         f"{r['citations']['repaired']} / {r['citations']['unsupported']}")
    line("  per 1,000 words", lambda r: f"{r['citations']['per_1000_words']:.1f}")
    line("  links to the exact sentence", lambda r: f"{r['citations']['links_with_fragment']}")
    line("claims", lambda r: r["claims"]["claims"])
    line("  supported / differ / unchecked", lambda r: f"{r['claims']['supported']} / {r['claims']['unsupported']}"
         f" / {r['claims']['unchecked']}")
    line("  citations without a claim of their own", lambda r: r["claims"].get("no_claim", 0))
    line("sources cited", lambda r: r["citations"]["sources_cited"])
    line("independent sources (sites, documents)", lambda r: r["citations"]["independent_sources"])
    line("places where sources disagree", lambda r: r["claims"]["sources_disagree"])
    line("citation accuracy (FACT-style)", lambda r: accuracy_text(r["fact"], _pct))
    line("  unchecked (not in the accuracy)", lambda r: _pct(r["fact"].get("unchecked_share")))
    line("  range (unchecked all wrong .. all right)", lambda r: f"{_pct(r['fact'].get('accuracy_strict'))} .. "
         f"{_pct(r['fact'].get('accuracy_upper'))}")
    line("  unchecked, judge said ok / differs / -", lambda r: _judge_words(r["fact"]))
    line("effective citations", lambda r: r["fact"]["effective_citations"])
    line("synthesis score", lambda r: r["synthesis"]["score"])
    line("  coverage (" + ", ".join(sorted({r["synthesis"]["coverage_basis"] for r in records})) + ")",
         lambda r: _pct(r["synthesis"]["coverage"]))
    if any(r.get("usage") for r in records):
        line("tokens", lambda r: f"{r['usage']['tokens']:,}" if r.get("usage") else "–")
        line("cost", lambda r: f"${r['usage']['cost_usd']:.4f}" if r.get("usage") else "–")
    return t


WIDTH = 80  # the many-runs view fits a terminal of 80 columns


def report_rows(records: list[dict]) -> Group:
    """Many runs: their names, numbered (a long name wrapped, never cut), then their figures
    in two tables keyed by that number, each at most ``WIDTH`` columns wide."""
    from rich import box
    from rich.console import Group
    from rich.table import Table

    def table(title: str, cols: list[str]) -> Table:
        t = Table(title=title or None, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        for c in cols:
            t.add_column(c, justify="left" if c == "run" else "right", no_wrap=c != "run",
                         overflow="fold", max_width=WIDTH - 4 if c == "run" else None)
        return t

    names = table("Report checks", ["#", "run"])
    text = table("", ["#", "words", "sections", "limits", "uncited ¶", "sources", "disagree", "synthesis"])
    cites = table("", ["#", "refs", "unsupported", "per 1k", "claims\nok/differ/?", "FACT acc.", "unchecked"])
    for n, r in enumerate(records, 1):
        s, c, k = r["structure"], r["citations"], r["claims"]
        names.add_row(str(n), cell(r["run"]))
        text.add_row(str(n), f"{s['words']:,}", str(s["sections"]), "yes" if s["limitations"] else "no",
                     f"{s['uncited_paragraphs']}/{s['paragraphs']}", str(c["independent_sources"]),
                     str(k["sources_disagree"]), str(r["synthesis"]["score"]))
        cites.add_row(str(n), str(c["refs"]), str(c["unsupported"]), f"{c['per_1000_words']:.1f}",
                      f"{k['supported']}/{k['unsupported']}/{k['unchecked']}", _fact_cell(r["fact"]),
                      _pct(r["fact"].get("unchecked_share")))
    if any(r["fact"].get("accuracy_representative") is False for r in records):
        cites.caption = ("FACT acc. as a range: too many claims unchecked for the proven ones' accuracy "
                         "to stand for the report")
        cites.caption_justify = "left"
    return Group(names, text, cites)


def _judge_words(f: dict) -> str:
    """The unchecked claims by what a judge said of them, unproven (``evaluation.checks.judge_word``)."""
    if "unknown_judge_supported" not in f:
        return "–"
    return f"{f['unknown_judge_supported']} / {f['unknown_judge_differs']} / {f['unknown_no_judge']}"


def _fact_cell(f: dict) -> str:
    """The FACT accuracy cell of one run: the point figure, or the range when the point figure
    does not stand for the report (``evaluation.checks.accuracy_figures``)."""
    if f.get("accuracy_representative") is False and f.get("accuracy_strict") is not None:
        return f"{_pct(f['accuracy_strict'])}..{_pct(f.get('accuracy_upper'))}"
    return _pct(f.get("accuracy"))


# --- eval run ------------------------------------------------------------------------------
def _settings_file(path: Path | None) -> dict:
    if path is None:
        return {}
    from ..evaluation.rundir import read_bounded
    from ..research.runtime.configuration import Configuration

    try:
        value = json.loads(read_bounded(path, "settings file"))
    except FileNotFoundError:
        raise UserError(f"settings file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"settings file {path} cannot be read: {e}") from None
    except json.JSONDecodeError as e:
        raise UserError(f"settings file {path} is not valid JSON ({e.msg}, line {e.lineno})") from None
    except RecursionError:
        raise UserError(f"settings file {path} is not usable: its JSON is nested too deeply") from None
    except UserError:
        raise
    except ValueError:  # an integer of more than 4,300 digits
        raise UserError(f"settings file {path} is not usable: its JSON holds a number too long to read") from None
    if not isinstance(value, dict):
        raise UserError(f"settings file {path} must hold a JSON object of settings")
    unknown = sorted(set(value) - set(Configuration.model_fields))
    if unknown:
        raise UserError(f"settings file {path}: unknown setting(s) {', '.join(unknown)}")
    from ..evaluation.runner import RUN_FOLDER, RUN_FOLDER_WHY

    if RUN_FOLDER in value:  # replaced by OUT/runs/<id> (dropped for a server) without a word
        raise UserError(f"settings file {path}: {RUN_FOLDER} {value[RUN_FOLDER]!r} is not a setting of an "
                        f"evaluation: {RUN_FOLDER_WHY}")
    return value


# The runner answers clarifications and brief approvals from each question's data and
# writes every run under --out; the other settings are research's options.
NOT_FOR_EVAL = ("output_dir", "allow_clarification", "require_brief_approval", "require_report_approval")


@eval_app.command(cls=HelpCommand, name="run")
@with_settings(leave_out=NOT_FOR_EVAL)
def run_cmd(
    questions: Path = typer.Argument(..., help="Question set (JSON Lines; DeepResearch Bench task files work too)."),
    out_dir: Path = typer.Option(..., "--out", help="Folder for the runs, results and summary (resumable).",
                                 rich_help_panel=RUN_PANEL),
    settings: Optional[Path] = typer.Option(None, "--settings", rich_help_panel=RUN_PANEL,
                                            help="JSON object of settings for every question (the options win)."),
    concurrency: int = typer.Option(2, "--concurrency", min=1, max=16, help="Questions researched at once.",
                                    rich_help_panel=RUN_PANEL),
    allow_question_setting: Optional[list[str]] = typer.Option(
        None, "--allow-question-setting", metavar="SETTING", rich_help_panel=RUN_PANEL,
        help="Let the questions' own \"settings\" set this setting although it reaches the network, files, "
             "credentials or cost (model endpoint, key variable, corpus, search, models, raising a limit); "
             "repeat for each. Without it a question file may set only research knobs and lower limits."),
    judge_model: Optional[str] = JudgeModel,
    judge_base_url: Optional[str] = JudgeBaseUrl,
    judge_api_key_env: Optional[str] = JudgeKeyEnv,
    judge_max_calls: Optional[int] = JudgeMaxCalls,
    judge_timeout: float = JudgeTimeout,
    db: Optional[str] = typer.Option(None, "--db", rich_help_panel=RUN_PANEL,
                                     help="A postgresql:// URL for the checkpoints (default: one SQLite file per "
                                          "question in OUT/state/)."),
    server: Optional[str] = typer.Option(
        None, "--server", metavar="URL", rich_help_panel=RUN_PANEL,
        help="Research each question as a run on this LangGraph server (a deployment or `langgraph dev`) and "
             "evaluate the reports here; the server's models, search, keys and limits apply."),
    server_token_env: Optional[str] = typer.Option(
        None, "--server-token-env", metavar="VAR", rich_help_panel=RUN_PANEL,
        help="Environment variable holding the bearer token for --server (default: DEEP_RESEARCH_SERVER_TOKEN, "
             "if set)."),
    run_settings: dict | None = None,
) -> None:
    """Research every question of a set (skipping finished ones), then evaluate each report.

    Takes the settings of the research command for every question (PDFs are off unless --pdf), except
    --out (here the evaluation's folder), --yes, --approve-brief and --review-report: each
    question's data answers the run's questions."""
    import asyncio
    import os

    from ..evaluation.questions import load_questions
    from ..evaluation.runner import EvalRunner, EvalSettings, check_allowed
    from ..research.runner import is_postgres, load_deps
    from ..research.runtime.env_names import near_miss_lines

    if server is None and server_token_env is not None:
        raise UserError("--server-token-env goes with --server URL")
    if server is not None and db is not None:
        raise UserError("--db is for local runs; with --server the server keeps the checkpoints")
    if db is not None and not is_postgres(db):
        raise UserError(f"--db: {db!r} is not a PostgreSQL URL (postgresql://…); without --db each question "
                        "keeps its SQLite checkpoints in OUT/state/")
    allowed = check_allowed(allow_question_setting or ())
    from .research import option_aliases
    from .settings import labels

    for line in near_miss_lines(aliases=option_aliases(labels())):  # a setting's variable misspelt: it sets nothing
        _warn(line)
    qs = load_questions(questions)
    options = checked_context(**(run_settings or {}))
    context = {"write_pdf": False, **_settings_file(settings), **options}
    judge = _make_judge(judge_model, judge_base_url, judge_api_key_env, judge_max_calls, judge_timeout)
    opts = EvalSettings(out=out_dir, context=context, db=db, concurrency=concurrency,
                        judge=judge, questions_file=str(questions), allow_question_settings=allowed,
                        labels={q.id: _typed(options, q.settings) for q in qs})
    progress = EvalProgress(len(qs))
    if server is not None:
        from ..evaluation.remote import RemoteEvalRunner, Server

        runner: EvalRunner = RemoteEvalRunner(qs, opts, Server.from_options(server, server_token_env, os.environ),
                                              progress)
    else:
        runner = EvalRunner(qs, opts, load_deps(), progress)
    for q in qs:  # a question's wrong setting is said before the progress bar starts (and stays on screen)
        runner.question_context(q)
    try:
        with progress:
            results, summary = asyncio.run(runner.run())
    except KeyboardInterrupt:  # main says "interrupted" and exits 130
        from .console import err

        err.print(printable(f"The evaluation stopped: what it finished is kept in {out_dir}; run the same command "
                            "again to continue (finished questions are skipped, a stopped one continues where it "
                            "stopped)."), markup=False, highlight=False, soft_wrap=True)
        raise
    _table(results_table(results))
    for line in summary_lines(summary):
        _tell(line)
    if judge is not None:
        _tell(_judge_cost_line(judge))
    _say(f"Results in {out_dir}: summary.md, summary.json, results/, runs/")
    ok = all(r["status"] in ("completed", "needs_clarification") for r in results) and \
        summary["behaviour_passed"] == summary["behaviour_checks"] and not summary["judge_errors"]
    raise typer.Exit(0 if ok else 1)


def _typed(options: dict, question_settings: dict) -> dict[str, str]:
    """setting -> the option typed for it, for the settings of one question that came from
    this command's options (a question's own settings, like the --settings file's, are
    named as written there): the setup check names ``--url``, not ``research_urls``."""
    kept = {k: v for k, v in options.items() if k not in question_settings}
    return {k: v for k, v in typed_labels(kept).items() if k not in question_settings}


class EvalProgress:
    """A progress bar with cost so far (Rich), or one line per question when the output is
    not a terminal."""

    def __init__(self, total: int):
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        from .console import out

        self.total = total
        self.tokens = 0
        self.cost = 0.0
        self.running: dict[str, str] = {}
        self.live = out.is_terminal
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[spend]}"), TimeElapsedColumn(), console=out,
                                 transient=False) if self.live else None
        self.task = None

    def __enter__(self):
        if self.progress is not None:
            self.progress.__enter__()
            self.task = self.progress.add_task("questions", total=self.total, spend=self._spend())
        return self

    def __exit__(self, *exc):
        if self.progress is not None:
            self.progress.__exit__(*exc)

    def _spend(self) -> str:
        return f"{self.tokens:,} tokens, ${self.cost:.4f}"

    def _update(self, advance: int = 0) -> None:
        if self.progress is None:
            return
        doing = ", ".join(f"{q} ({s})" for q, s in list(self.running.items())[:3])
        self.progress.update(self.task, advance=advance, spend=self._spend(),
                             description=f"questions{': ' + doing if doing else ''}")

    def __call__(self, event: dict) -> None:
        kind, qid = event["kind"], event.get("qid", "")
        if kind == "usage":
            for u in event["usage"].values():
                self.tokens += int(u.get("input_tokens", 0)) + int(u.get("output_tokens", 0))
                self.cost += float(u.get("cost_usd", 0.0))
        elif kind in ("start", "resume"):
            self.running[qid] = "resumed" if kind == "resume" else "started"
            if not self.live and kind == "resume":
                _say(f"[{qid}] resuming thread {event.get('thread_id')}")
        elif kind == "stage":
            self.running[qid] = event["stage"]
        elif kind in ("done", "skip"):
            self.running.pop(qid, None)
            r = event["result"]
            if kind == "skip":
                self.tokens += int((r.get("usage") or {}).get("tokens") or 0)
                self.cost += float((r.get("usage") or {}).get("cost_usd") or 0.0)
            if self.progress is not None:
                self._update(advance=1)
            else:
                what = "already done" if kind == "skip" else r["status"]
                _say(f"[{qid}] {what}; so far {self._spend()}")
            return
        self._update()


def results_table(results: list[dict]) -> Table | Group:
    """The per-question table; when its figures need more than ``WIDTH`` columns, two
    tables keyed by the question's id (run, then quality), so a terminal of 80 columns
    shows every figure whole (one table of 12 columns cut each to "3…")."""
    from rich import box
    from rich.console import Console, Group
    from rich.table import Table

    from ..evaluation.summary import table_rows

    header, rows = table_rows(results)
    t = _new_table("Evaluation")
    for i, h in enumerate(header):
        t.add_column(h, justify="left" if i < 2 else "right", no_wrap=i == 0)
    for r in rows:
        t.add_row(*(cell(c) for c in r))
    if Console(width=10_000).measure(t).maximum <= WIDTH:
        return t
    split = header.index("refs") + 1 if "refs" in header else (len(header) + 1) // 2
    tables = []
    for title, cols in (("Evaluation", range(split)), ("", [0, *range(split, len(header))])):
        part = Table(title=title or None, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                     show_edge=False)
        for i in cols:
            part.add_column(header[i], justify="left" if i < 2 else "right", no_wrap=i != 0,
                            overflow="fold", max_width=WIDTH // 3 if i == 0 else None)
        for r in rows:
            part.add_row(*(cell(r[i]) for i in cols))
        tables.append(part)
    return Group(*tables)


def summary_lines(s: dict) -> list[str]:
    from ..evaluation.summary import accuracy_text, judge_words_text

    lines = [f"{s['completed']} of {s['questions']} question(s) completed ({s['failed']} failed); "
             f"{s['seconds']:,.0f} s, {s['tokens']:,} tokens, ${s['cost_usd']:.4f}",
             f"Citation accuracy (FACT-style, proven verdicts only): {accuracy_text(s, _pct)}, with "
             f"{_pct(s.get('fact_unchecked_share'))} of statements unchecked{judge_words_text(s)}; "
             "effective citations per task: "
             f"{s['effective_citations_per_task'] if s['effective_citations_per_task'] is not None else '–'}"]
    if s["mean"]["synthesis"] is not None:
        lines.append(f"Mean synthesis score: {s['mean']['synthesis']:.1f}")
    if s["mean"]["judge"] is not None:
        lines.append(f"Mean judge score: {s['mean']['judge']:.1f}" + (
            f" (relative to the references: {s['mean']['judge_relative']:.1f}; 50 = on par)"
            if s["mean"]["judge_relative"] is not None else ""))
    if s["behaviour_checks"]:
        lines.append(f"Behaviour checks passed: {s['behaviour_passed']} of {s['behaviour_checks']}")
    if s["judge_errors"]:
        lines.append(f"The judge gave no scores for {s['judge_errors']} question(s) (see summary.md)")
    return lines


# --- the judge -----------------------------------------------------------------------------
def _task_of(run, question: str | None) -> str:
    task = question or run.question
    if not task:
        raise UserError(f"{run.path} does not say what question it answers (no run.json or notes.md); "
                        "give it with --question")
    return task


@eval_app.command(cls=HelpCommand, name="judge")
def judge_cmd(
    dirs: list[Path] = typer.Argument(..., help="Run folders, or folders holding run folders."),
    judge_model: Optional[str] = JudgeModel,
    reference: Optional[Path] = typer.Option(None, "--reference", help="A reference report (markdown) for "
                                             "RACE-style relative scores."),
    question: Optional[str] = typer.Option(None, "--question", help="The task, when a run folder does not say."),
    judge_base_url: Optional[str] = JudgeBaseUrl,
    judge_api_key_env: Optional[str] = JudgeKeyEnv,
    judge_max_calls: Optional[int] = JudgeMaxCalls,
    judge_timeout: float = JudgeTimeout,
    json_out: Optional[Path] = typer.Option(None, "--json", help="Where to write the JSON (default: "
                                            "eval-judge.json in the folder of the runs)."),
) -> None:
    """Score reports with an LLM judge on the rubric (comprehensiveness, insight, instruction
    following, readability), optionally against a reference report."""
    import asyncio

    from ..evaluation.drb import article_from_run
    from ..evaluation.rundir import load_run_folders
    from ..inputs import read_text_file

    ref_text = read_text_file(reference, "reference report") if reference else None
    runs = load_run_folders(dirs, _warn)
    json_out = json_out or _beside(dirs, "eval-judge.json")
    tasks = [_task_of(r, question) for r in runs]
    judge = _make_judge(judge_model, judge_base_url, judge_api_key_env, judge_max_calls, judge_timeout,
                        required=True)

    async def go():
        return await asyncio.gather(*(judge.score(t, article_from_run(r), ref_text, key=r.name)
                                      for r, t in zip(runs, tasks)))

    results = asyncio.run(go())
    _table(judge_table(runs, results))
    for r, res in zip(runs, results):
        if res.get("error"):
            _error(f"{r.name}: {res['error']}")
            continue
        for k, c in res["criteria"].items():
            _tell(f"{r.name} · {k}: {one_line(c['justification'], 400)}")
    _tell(_judge_cost_line(judge))
    _write_json(json_out, {"judge_model": judge.name, "runs": [{"run": r.name, "path": str(r.path), "question": t,
                                                                **res} for r, t, res in zip(runs, tasks, results)]})
    _say(f"Wrote {json_out}")
    raise typer.Exit(1 if any(res.get("error") for res in results) else 0)


def judge_table(runs, results) -> Table:
    from ..evaluation.rubric import CRITERIA

    t = _new_table("Judge scores (0-10; overall 0-100)")
    t.add_column("criterion")
    for r in runs:
        t.add_column(cell(r.name[:28]), justify="right")
    for key, (name, _, _) in CRITERIA.items():
        cells = []
        for res in results:
            c = (res.get("criteria") or {}).get(key)
            cells.append("–" if c is None else f"{c['score']:g}" + (
                f" (ref {c['reference_score']:g})" if "reference_score" in c else ""))
        t.add_row(name, *cells)
    t.add_row("[bold]overall[/bold]", *("–" if res.get("overall") is None else f"{res['overall']:.1f}"
                                       for res in results))
    if any(res.get("relative") for res in results):
        t.add_row("relative to the reference (50 = on par)",
                  *("–" if not res.get("relative") else f"{res['relative']['overall']:.1f}" for res in results))
    return t


@eval_app.command(cls=HelpCommand, name="ab")
def ab_cmd(
    dir_a: Path = typer.Argument(..., help="Run folder A."),
    dir_b: Path = typer.Argument(..., help="Run folder B (the same question)."),
    judge_model: Optional[str] = JudgeModel,
    question: Optional[str] = typer.Option(None, "--question", help="The task, when the run folders do not say."),
    judge_base_url: Optional[str] = JudgeBaseUrl,
    judge_api_key_env: Optional[str] = JudgeKeyEnv,
    judge_timeout: float = JudgeTimeout,
    json_out: Optional[Path] = typer.Option(None, "--json", help="Where to write the JSON (default: "
                                            "eval-ab-A-vs-B.json in the folder of the two runs)."),
) -> None:
    """Pairwise A/B comparison of two reports of the same question by the judge (both orders;
    a side wins only when both orders agree)."""
    import asyncio

    from ..evaluation.drb import article_from_run
    from ..evaluation.rundir import RunFolder
    from ..publish.files import safe_name

    a, b = RunFolder.load(dir_a), RunFolder.load(dir_b)
    json_out = json_out or _beside([dir_a, dir_b], safe_name(f"eval-ab-{a.name}-vs-{b.name}", max_len=150) + ".json")
    task = _task_of(a, question)
    if question is None and b.question and " ".join(b.question.split()) != " ".join(task.split()):
        raise UserError("the two run folders answer different questions; A/B needs the same question "
                        "(or give the task with --question)")
    judge = _make_judge(judge_model, judge_base_url, judge_api_key_env, None, judge_timeout, required=True)
    res = asyncio.run(judge.pairwise(task, article_from_run(a), article_from_run(b)))
    if res.get("error"):
        _fail(res["error"])
    t = _new_table(f"A = {cell(a.name)}, B = {cell(b.name)}")
    for col in ("criterion", "winner", "why"):
        t.add_column(col)
    for k, c in res["criteria"].items():
        t.add_row(cell(k), cell(c["winner"]), cell(c["justification"]))
    t.add_row("[bold]overall[/bold]", cell(res["overall"]), cell(res.get("justification", "")))
    _table(t)
    _tell(_judge_cost_line(judge))
    _write_json(json_out, {"a": str(a.path), "b": str(b.path), "question": task, "judge_model": judge.name, **res})
    _say(f"Wrote {json_out}")


def _fail(message: str):
    _error(message)
    raise typer.Exit(1)


# --- compare -------------------------------------------------------------------------------
@eval_app.command(cls=HelpCommand, name="compare")
def compare_cmd(
    a: Path = typer.Argument(..., help="An eval run's --out folder, or run folder(s)."),
    b: Path = typer.Argument(..., help="The same for the other side."),
    out_dir: Optional[Path] = typer.Option(None, "--out", help="Where compare.md/.html/.json go (default: "
                                           "eval-compare-A-vs-B in the folder of the two sides)."),
    judge_model: Optional[str] = JudgeModel,
    judge_base_url: Optional[str] = JudgeBaseUrl,
    judge_api_key_env: Optional[str] = JudgeKeyEnv,
    judge_max_calls: Optional[int] = JudgeMaxCalls,
    judge_timeout: float = JudgeTimeout,
) -> None:
    """Compare two evaluations question by question: markdown, JSON and an HTML page with
    charts (tokens, cost, time, citations, accuracy, judge scores). With --judge-model, the
    judge also compares each pair of reports A/B."""
    import asyncio

    from ..evaluation.compare import compare, write_comparison
    from ..evaluation.drb import article_from_run
    from ..evaluation.rundir import RunFolder
    from ..publish.files import safe_name

    cmp = compare(a, b)
    out_dir = out_dir or _beside([a, b], safe_name(f"eval-compare-{a.name}-vs-{b.name}", max_len=150))
    for n in cmp.notes:
        _warn(n)
    judge = _make_judge(judge_model, judge_base_url, judge_api_key_env, judge_max_calls, judge_timeout)
    if judge is not None:
        async def go():
            keys, jobs = [], []
            for k, ra, rb in cmp.pairs:
                if ra.get("run_dir") and rb.get("run_dir"):
                    keys.append(k)
                    jobs.append(judge.pairwise(ra["question"], article_from_run(RunFolder.load(ra["run_dir"])),
                                               article_from_run(RunFolder.load(rb["run_dir"]))))
            return dict(zip(keys, await asyncio.gather(*jobs)))

        cmp.pairwise = asyncio.run(go())
    files = write_comparison(cmp, out_dir)
    header, rows = cmp.summary_rows()
    t = _new_table("Comparison")
    for i, h in enumerate(header):
        shown = h if i == 0 else _run_heading(h, COMPARE_NAME_CHARS)  # the two sides' names
        t.add_column(cell(shown), justify="left" if i == 0 else "right", overflow="fold")
    for r in rows:
        t.add_row(*(cell(c) for c in r))
    _table(t)
    if judge is not None:
        _tell(_judge_cost_line(judge))
    _say(f"Wrote {files['markdown']}, {files['html'].name}, {files['json'].name} and charts/")


# --- DeepResearch Bench --------------------------------------------------------------------
@eval_app.command(cls=HelpCommand, name="export-drb")
def export_drb_cmd(
    sources: list[Path] = typer.Argument(..., help="Eval run --out folders and/or run folders."),
    out_file: Path = typer.Option(..., "--out", help="The raw-data JSONL to write (<model>.jsonl)."),
    tasks: Optional[Path] = typer.Option(None, "--tasks", help="DRB's query.jsonl: ids are taken from it "
                                         "by matching the question text."),
) -> None:
    """Export reports as DeepResearch Bench raw data ({id, prompt, article} per line)."""
    from ..evaluation.drb import export_records, load_tasks, normalise_prompt, write_records
    from ..evaluation.rundir import RunFolder, find_run_folders, read_result, result_run_dir

    by_prompt = {normalise_prompt(t.question): t for t in load_tasks(tasks)} if tasks else None
    items, skipped = [], []
    for src in sources:
        results = src / "results"
        if results.is_dir():
            for f in sorted(results.glob("*.json")):
                r = read_result(f)
                run_dir = result_run_dir(src, r, f)
                if r.get("status") != "completed" or run_dir is None or not isinstance(r.get("question"), str):
                    skipped.append(f"{r.get('id')} ({r.get('status')})")
                    continue
                items.append((r.get("source_id", r.get("id")), r["question"], RunFolder.load(run_dir),
                              r.get("language")))
        else:
            for folder in find_run_folders(src):
                run = RunFolder.load(folder)
                if not run.question:
                    raise UserError(f"{folder} does not say what question it answers (no run.json or notes.md)")
                items.append((None, run.question, run, None))
    final = []
    for rid, prompt, run, lang in items:
        if by_prompt is not None:
            task = by_prompt.get(normalise_prompt(prompt))
            if task is None:
                raise UserError(f"the question of {run.path} is not in {tasks}: {prompt[:80]!r}")
            rid, prompt, lang = task.source_id, task.question, task.language or lang
        if rid is None:
            raise UserError(f"{run.path} has no task id; give DRB's task file with --tasks to match it")
        final.append((rid, prompt, run, lang))
    records = export_records(final)
    write_records(records, out_file)
    for s in skipped:
        _warn(f"not exported: {s}")
    missing = len(by_prompt) - len({str(r['id']) for r in records}) if by_prompt is not None else 0
    _say(f"Wrote {len(records)} record(s) to {out_file}" + (f"; {missing} task(s) of {tasks} have no report"
                                                            if missing else ""))


@eval_app.command(cls=HelpCommand, name="import-drb")
def import_drb_cmd(
    tasks: Path = typer.Argument(..., help="DRB's task file (data/prompt_data/query.jsonl)."),
    out_file: Path = typer.Option(..., "--out", help="The question set to write."),
    references: Optional[Path] = typer.Option(None, "--references", help="DRB's reference articles (JSONL with "
                                              "id and article), attached for RACE-style judging."),
    language: Optional[str] = typer.Option(None, "--language", help="Only tasks in this language (en, zh)."),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Only the first N tasks."),
) -> None:
    """Turn DeepResearch Bench's task file into a question set for 'eval run'."""
    from ..evaluation.drb import import_tasks

    qs = import_tasks(tasks, out_file, references=references, language=language, limit=limit)
    with_ref = sum(1 for q in qs if q.reference_text)
    _say(f"Wrote {len(qs)} question(s) to {out_file}" + (f" ({with_ref} with a reference report)"
                                                          if references else ""))


def register(app: typer.Typer) -> None:
    app.add_typer(eval_app, name="eval")


"""Running a question set through the research graph, for ``deep-research eval run``.

Layout of the output folder::

    OUT/eval.json              settings of the evaluation (a later run must use the same)
    OUT/state/<id>.sqlite      checkpoints of the question's research (for resuming)
    OUT/progress/<id>.json     thread id, time spent, brief decisions used (while it runs)
    OUT/runs/<id>/<run folder> the published report of each question
    OUT/results/<id>.json      the finished question: status, usage, code checks,
                               behaviour checks, judge scores
    OUT/summary.json, summary.md

Resumable: a question with a result is skipped (one whose run failed is tried again, from
its checkpoint); a question that was interrupted continues from its checkpoint. Questions
run concurrently up to a limit. A question that waits for a human is driven by its data:
brief decisions (``brief_decisions``, then approve) and a clarification answer
(``clarification_answer``); without an answer the question ends as
``needs_clarification``, with the clarifying question recorded.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Collection

from langchain_core.messages import AIMessage, HumanMessage

from ..errors import UserError
from .behaviour import check_expectations
from .checks import evaluate_run
from .drb import article_from_run
from .questions import Question
from .rundir import EvalInputError, RunFolder, read_bounded
from .summary import summarise, summary_markdown
from ..publish import write_atomic
from ..publish.files import prepare_out_dir
from ..terminal import inert_json
from ..research.runtime.deps import Deps
from ..research.runtime.failure import ResearchFailed
from ..research.runtime.configuration import Configuration
from ..research.runtime.usage import message_text, total_cost, total_tokens
from .report_judge import ReportJudge
from ..research.runner import (
    RunHandle,
    compile_for,
    first_payload,
    open_persistence,
    resume_payload,
    save_run,
    stream_run,
)

FINAL = ("completed", "needs_clarification", "brief_rejected")  # a result with these is not run again
PROGRESS_EVERY_S = 10.0

Event = dict


@dataclass
class EvalSettings:
    out: Path
    context: dict = field(default_factory=dict)  # Configuration values for every question
    db: str | None = None  # default OUT/state.sqlite
    concurrency: int = 2
    judge: ReportJudge | None = None
    questions_file: str = ""
    # settings a question's "settings" may set although they reach the network, files,
    # credentials or cost (--allow-question-setting); see research/runtime/setting_policy.py
    allow_question_settings: frozenset[str] = frozenset()
    # question id -> {setting: the command-line option the user gave it as}, so the setup
    # check names what was typed (as ``research`` does); a setting not listed keeps its name
    labels: dict[str, dict[str, str]] = field(default_factory=dict)


def question_context(q: Question, base: dict, out: Path, allow: frozenset[str] = frozenset()) -> dict:
    """Configuration values of one question: the evaluation's, the question's own (where a
    question file may set them: :mod:`deep_research.research.runtime.setting_policy`; else :class:`UserError`), its
    output folder, and the human-in-the-loop settings its data can drive."""
    from ..research.runtime.setting_policy import Caller, Source

    try:
        Configuration.resolve({"configurable": {}}, base,
                              layers=[(Caller(Source.QUESTION_FILE, allow, where=f"question {q.id}'s settings"),
                                       q.settings)])
    except UserError as e:
        raise UserError(f"question {q.id}: {e}") from None
    ctx = {**base, **q.settings, "output_dir": str(out / "runs" / q.id)}
    ctx.setdefault("allow_clarification", bool(q.clarification_answer) or "clarification" in q.expect)
    if q.brief_decisions:
        ctx["require_brief_approval"] = True
    elif "require_brief_approval" not in q.settings:
        ctx["require_brief_approval"] = False
    return ctx


# Every question's run is written under OUT/runs/<question id>, researched here or on a server
# (whose files are fetched there): a folder of the evaluation's settings would not be used.
RUN_FOLDER = "output_dir"
RUN_FOLDER_WHY = ("every question's run is written under --out (OUT/runs/<question id>), also with --server, "
                  "whose report files are fetched there")


def check_allowed(names: Collection[str]) -> frozenset[str]:
    """The --allow-question-setting names, each a setting a question may be let set (else
    :class:`UserError`)."""
    unknown = sorted(set(names) - set(Configuration.model_fields))
    if unknown:
        raise UserError(f"--allow-question-setting: unknown setting(s) {', '.join(unknown)}")
    if RUN_FOLDER in names:
        raise UserError(f"--allow-question-setting {RUN_FOLDER}: not a setting of an evaluation: {RUN_FOLDER_WHY}")
    return frozenset(names)


def usage_totals(usage: dict | None) -> dict:
    usage = usage or {}
    return {"tokens": total_tokens(usage),
            "input_tokens": sum(u.get("input_tokens", 0) for u in usage.values()),
            "output_tokens": sum(u.get("output_tokens", 0) for u in usage.values()),
            "cost_usd": round(total_cost(usage), 6),
            "model_calls": sum(u.get("calls", 0) for u in usage.values())}


def _read(path: Path) -> dict | None:
    """A result or progress file of the evaluation folder, None when it is unusable (read
    at most :data:`rundir.MAX_EVAL_FILE_BYTES`: one made a link to /dev/zero was read
    without end)."""
    try:
        value = json.loads(read_bounded(path, "result file"))
        return value if isinstance(value, dict) else None
    except (OSError, ValueError, RecursionError):
        return None


def _write(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # controls and bidi overrides of a handed-over question as escapes, as in citations.json
    write_atomic(path, inert_json(json.dumps(value, ensure_ascii=False, indent=2)) + "\n")


def load_results(out: Path) -> list[dict]:
    folder = out / "results"
    if not folder.is_dir():
        return []
    return [r for r in (_read(p) for p in sorted(folder.glob("*.json"))) if r]


class EvalRunner:
    def __init__(self, questions: list[Question], settings: EvalSettings, deps: Deps,
                 on_event: Callable[[Event], None] | None = None):
        self.questions = questions
        self.s = settings
        self.deps = deps
        self.on_event = on_event or (lambda e: None)
        self.out = settings.out

    # --- before anything runs -----------------------------------------------------------
    async def prepare(self) -> None:
        """Check every question's settings and setup (the run's preflight: providers, keys,
        search backend, corpus) before any cost, and that OUT was not made with other settings."""
        from ..research.runtime.preflight import preflight

        for q in self.questions:
            try:
                cfg = Configuration.resolve({"configurable": {}}, self.question_context(q))
                await preflight(cfg, self.deps, self.s.labels.get(q.id))
            except UserError as e:
                prefix = f"question {q.id}: "  # question_context names the question already
                raise UserError(str(e) if str(e).startswith(prefix) else prefix + str(e)) from None
        self.prepare_manifest()

    def prepare_manifest(self, server: str | None = None) -> None:
        """OUT/eval.json: refused when OUT holds an evaluation made with other settings, or
        on another server (``server``: the LangGraph server of ``eval run --server``)."""
        from ..research.runtime.thread_settings import kept

        prepare_out_dir(self.out)
        # a URL's password or secret query parameter is not written (compared without it too)
        manifest = {"settings": kept({k: v for k, v in self.s.context.items()}),
                    **({"allow_question_settings": sorted(self.s.allow_question_settings)}
                       if self.s.allow_question_settings else {}),
                    "judge": self.s.judge.name if self.s.judge else None}
        path = self.out / "eval.json"
        old = _read(path)
        if old is not None and old.get("server") != server:
            where = f"on the server {old['server']}" if old.get("server") else "locally"
            raise UserError(f"{self.out} holds an evaluation run {where}; use another --out to run it "
                            + (f"on {server}" if server else "locally"))
        if old is not None and (kept(old.get("settings")) != manifest["settings"] or sorted(
                old.get("allow_question_settings") or []) != sorted(self.s.allow_question_settings)):
            changed = sorted(set(old.get("settings") or {}) ^ set(manifest["settings"])
                             | {k for k in manifest["settings"] if (old.get("settings") or {}).get(k)
                                != manifest["settings"][k]}
                             | ({"--allow-question-setting"} if sorted(old.get("allow_question_settings") or [])
                                != sorted(self.s.allow_question_settings) else set()))
            raise UserError(f"{self.out} holds an evaluation made with other settings (differing: "
                            f"{', '.join(changed)}); use another --out, or the same settings to resume it")
        _write(path, {**manifest, **({"server": server} if server else {}), "questions_file": self.s.questions_file,
                      "created": (old or {}).get("created") or dt.datetime.now(dt.timezone.utc).isoformat()})

    # --- the set ------------------------------------------------------------------------
    async def run(self) -> tuple[list[dict], dict]:
        await self.prepare()
        sem = asyncio.Semaphore(max(1, self.s.concurrency))
        results = await asyncio.gather(*(self._question(q, sem) for q in self.questions))
        summary = summarise(results)
        _write(self.out / "summary.json", {"summary": summary, "results": [
            {k: r.get(k) for k in ("id", "status", "seconds", "usage", "error")} for r in results]})
        write_atomic(self.out / "summary.md", summary_markdown(results, summary))
        return results, summary

    def question_context(self, q: Question) -> dict:
        return question_context(q, self.s.context, self.out, self.s.allow_question_settings)

    def db_for(self, q: Question) -> str:
        """The checkpoint database of a question: the one given (e.g. PostgreSQL), else a
        SQLite file per question (concurrent questions never wait on each other's locks)."""
        return self.s.db or str(self.out / "state" / f"{q.id}.sqlite")

    async def _question(self, q: Question, sem: asyncio.Semaphore) -> dict:
        result_path = self.out / "results" / f"{q.id}.json"
        done = _read(result_path)
        if done and done.get("status") in FINAL:
            self.on_event({"kind": "skip", "qid": q.id, "result": done})
            return done
        async with sem:
            self.on_event({"kind": "start", "qid": q.id})
            try:
                result = await self.research(q)
            except (UserError, EvalInputError):
                raise
            except Exception as e:  # noqa: BLE001 - one question's failure is recorded, the set goes on
                result = self._result(q, {}, "failed", error=f"{type(e).__name__}: {e}"[:500])
            result = await self._evaluate(q, result)
            _write(result_path, result)
            self.on_event({"kind": "done", "qid": q.id, "result": result})
            return result

    async def research(self, q: Question) -> dict:
        """Research one question (resuming its thread) and return its result, unevaluated."""
        async with open_persistence(self.db_for(q)) as (saver, store):
            graph = compile_for(self.deps, saver, store)
            return await self._research(q, graph, store)

    async def _research(self, q: Question, graph, store) -> dict:
        ppath = self.out / "progress" / f"{q.id}.json"
        progress = _read(ppath) or {}
        ctx = self.question_context(q)
        payload: Any
        handle = None
        if progress.get("thread_id"):
            handle = RunHandle.existing(progress["thread_id"], ctx)
            state = await graph.aget_state(handle.config)
            payload = None if state.values else first_payload(q.question)
            self.on_event({"kind": "resume", "qid": q.id, "thread_id": handle.thread_id})
        if handle is None:
            handle = RunHandle.new(ctx)
            await save_run(store, handle, q.question)
            progress = {"thread_id": handle.thread_id, "seconds": 0.0, "decisions_used": 0}
            _write(ppath, progress)
            payload = first_payload(q.question)
        started = time.monotonic()
        spent = float(progress.get("seconds") or 0.0)
        last_saved = [started]

        def save_progress() -> None:
            progress["seconds"] = round(spent + time.monotonic() - started, 3)
            _write(ppath, progress)

        def forward(event: dict) -> None:
            if event["kind"] == "update" and not event.get("subgraph_output"):
                u = (event.get("update") or {}).get("usage")
                if u:
                    self.on_event({"kind": "usage", "qid": q.id, "usage": u})
            elif event["kind"] == "progress" and event.get("stage"):
                self.on_event({"kind": "stage", "qid": q.id, "stage": event["stage"]})
            if time.monotonic() - last_saved[0] > PROGRESS_EVERY_S:
                last_saved[0] = time.monotonic()
                save_progress()

        status, error, clarification = "failed", None, progress.get("clarification")
        values: dict = {}
        try:
            while True:
                await stream_run(graph, handle, payload, forward)
                state = await graph.aget_state(handle.config)
                if state.interrupts:
                    used = int(progress.get("decisions_used") or 0)
                    decision = q.brief_decisions[used] if used < len(q.brief_decisions) else {"type": "approve"}
                    progress["decisions_used"] = used + 1
                    save_progress()
                    payload = resume_payload(decision)
                    continue
                values = state.values
                status = values.get("status") or "failed"
                if status == "needs_clarification":
                    msgs = values.get("messages") or []
                    clarification = next((message_text(m) for m in reversed(msgs) if isinstance(m, AIMessage)), "")
                    progress["clarification"] = clarification
                    if q.clarification_answer and not progress.get("answered"):
                        progress["answered"] = True
                        save_progress()
                        payload = {"messages": [HumanMessage(q.clarification_answer)]}
                        continue
                break
        except ResearchFailed as e:
            status, error = "failed", f"the run failed at {e.stage}: {e.message}"
            state = await graph.aget_state(handle.config)
            values = state.values or {}
        finally:
            save_progress()
        if status not in FINAL and not error:
            error = "; ".join(f"{x.get('stage')}: {x.get('message')}" for x in values.get("errors") or [])[:500] \
                or f"the run ended with status {status!r}"
        result = self._result(q, values, status, error=error, clarification=clarification)
        result.update(thread_id=handle.thread_id, seconds=progress["seconds"])
        return result

    def _result(self, q: Question, values: dict, status: str, *, error: str | None = None,
                clarification: str | None = None) -> dict:
        run_dir = (values.get("outputs") or {}).get("dir") if status == "completed" else None
        return {
            "id": q.id, "source_id": q.source_id, "question": q.question, "language": q.language, "topic": q.topic,
            "status": status, "error": error, "thread_id": None, "seconds": None,
            "run_dir": str(Path(run_dir).resolve().relative_to(self.out.resolve())) if run_dir else None,
            "usage": usage_totals(values.get("usage")), "usage_by_node": values.get("usage") or {},
            "clarification": clarification, "brief_rounds": int(values.get("brief_rounds") or 0),
            "research_brief": values.get("research_brief"),
            "errors": values.get("errors") or [], "degradations": values.get("degradations") or [],
            "checks": None, "behaviour": [], "judge": None,
            "finished_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        }

    async def _evaluate(self, q: Question, result: dict) -> dict:
        run = None
        if result.get("run_dir"):
            try:
                run = RunFolder.load(self.out / result["run_dir"])
                result["checks"] = evaluate_run(run)
            except EvalInputError as e:
                result["error"] = f"the report cannot be evaluated: {e}"
        if q.expect:
            result["behaviour"] = check_expectations(
                q.expect, status=result["status"], clarification=result.get("clarification"),
                brief_rounds=result.get("brief_rounds") or 0,
                report_text=run.linked_md if run is not None else None, checks=result.get("checks"),
                has_answer=bool(q.clarification_answer))
        if run is not None and self.s.judge is not None:
            self.on_event({"kind": "stage", "qid": q.id, "stage": "judge"})
            task = q.question + (f"\n\n(Asked to clarify, the user answered: {q.clarification_answer})"
                                 if result.get("clarification") and q.clarification_answer else "")
            result["judge"] = await self.s.judge.score(task, article_from_run(run), q.reference_text, key=q.id)
            result["judge_model"] = self.s.judge.name
            self.on_event({"kind": "usage", "qid": q.id, "usage": {"judge": result["judge"].get("usage") or {}}})
        return result



async def run_question_set(questions: str | Path, out: str | Path, *, context: dict | None = None,
                           concurrency: int = 2, judge_model: str | None = None,
                           judge_base_url: str | None = None, judge_api_key_env: str | None = None,
                           judge_max_calls: int | None = None, deps: Deps | None = None,
                           on_event: Callable[[Event], None] | None = None,
                           allow_question_settings: Collection[str] = ()) -> tuple[list[dict], dict]:
    """The Python API of ``deep-research eval run``: research and evaluate a question set
    (JSON Lines) into ``out``; returns the per-question results and the summary.
    ``context`` holds settings (Configuration values) for every question; a question's own
    settings may set what reaches the network, files, credentials or cost only when
    ``allow_question_settings`` names it."""
    from .questions import load_questions
    from .report_judge import judge_spec
    from ..research.runner import load_deps

    deps = deps or load_deps()
    judge = None
    if judge_model:
        cfg = Configuration.resolve({"configurable": {}}, {})
        judge = ReportJudge.create(judge_spec(judge_model, base_url=judge_base_url, api_key_env=judge_api_key_env),
                                   factory=deps.model_factory, max_calls=judge_max_calls, max_retries=cfg.max_retries,
                                   structured_output=cfg.structured_output, prices=cfg.model_prices)
    runner = EvalRunner(load_questions(questions), EvalSettings(out=Path(out), context=dict(context or {}),
                                                               concurrency=concurrency, judge=judge,
                                                               questions_file=str(questions),
                                                               allow_question_settings=check_allowed(
                                                                   allow_question_settings)), deps, on_event)
    return await runner.run()

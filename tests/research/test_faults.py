"""Reliability: the fault matrix.

Every stage of the graph (brief, draft, supervisor, researcher, compression, page summary,
final report, citation check, publish) meets every fault that applies to it (rate limit,
server error, timeout, connection refused, malformed output, context length, search
failure, empty page), once as a transient fault (fails once or twice, then works) and once
as a persistent one (keeps failing). The outcome of each run is classified from what the
run left behind, not from what the code meant to do:

* retried-ok: the run completed, the stage's usage shows the retries (or repairs), and
  nothing was lost (no new degradation or error records);
* degraded: the run completed, and the loss is recorded in state (``degradations`` or
  ``errors``; the CLI prints both), and a report that lost research says so;
* failed-clearly: the run stopped with ResearchFailed naming the stage, notes.md holds the
  research gathered so far, the checkpoint keeps it, and no report was written.

Anything else (a crash, a silent absorption, a fault that was never hit) fails the test.
The whole matrix runs in one test (``-s`` prints it; it is also written to a file).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from deep_research.research.runtime.deps import Deps
from deep_research.research.runtime.failure import ResearchFailed
from deep_research.research.graph import make_graph
from deep_research.research.runtime.meter import Meter, ModelCallError, _shorten
from deep_research.search.local import LocalCorpus, build_index
from tests.support.faults import (
    FAULTS,
    LONG_QUESTION,
    LONG_TITLE,
    QUERY_COSTS,
    Fault,
    FaultPlan,
    FaultySearch,
    bad_researcher_calls,
    bad_supervisor_calls,
    empty,
    fault_script,
    faulty_factory,
    garbage,
    write_fault_corpus,
)
from tests.support.scenario import QUESTION, TOPIC_COSTS, TOPIC_EFFICIENCY

TIMEOUT_S = 0.3  # request timeout of a run whose faults include a hang (injected hangs last 30 s)
# ... and of every other run: one no healthy call reaches. A timeout is wall-clock time, and on a
# loaded machine a scripted call whose answer was ready could take past 0.3 s to come back (the
# event loop busy elsewhere): it was cut and asked again, a retry nobody injected (a third
# compression call in test_supervisor_failure_keeps_research_in_checkpoint_...).
CALM_TIMEOUT_S = 20.0
BASE_CONTEXT = {"allow_clarification": False, "search_api": "local", "write_pdf": False,
                "request_timeout_s": CALM_TIMEOUT_S, "max_retries": 2, "retry_backoff_s": 0.001}
SUPERVISOR = "You lead a research team"


def later_rounds(text: str) -> bool:
    """Supervisor calls after the first round (research has been gathered by then)."""
    return SUPERVISOR in text and "Round 1 of" not in text


# --- what each stage is, where it records trouble, and what each fault should do ---------------
@dataclass(frozen=True)
class Stage:
    name: str
    role: str | None  # model role of the stage's calls
    when: Any  # prompt text selecting the stage's calls (transient faults)
    nodes: tuple[str, ...]  # usage entries that show its retries and repairs
    records: tuple[str, ...]  # stages of its degradation/error records
    fails_at: str  # the stage ResearchFailed names when it fails for good
    malformed: Any = None  # what a malformed answer of this stage looks like
    when_persistent: Any = None  # prompt selector for persistent faults, if different


STAGES = {
    "brief": Stage("write_research_brief", "research", "Turn the conversation into a research brief",
                   ("write_research_brief",), ("write_research_brief",), "write_research_brief", garbage),
    "draft": Stage("write_draft_report", "final_report", "Write a first draft", ("write_draft_report",),
                   ("write_draft_report",), "write_draft_report", empty),
    # transient faults hit round 1; persistent ones start in round 2, after research was gathered
    "supervisor": Stage("supervisor", "research", "Round 1 of", ("supervisor", "supervisor_tools"),
                        ("supervisor", "supervisor_tools"), "supervisor", bad_supervisor_calls, later_rounds),
    # one research unit (of two) meets the fault
    "researcher": Stage("researcher", "research", f"Research this topic: {TOPIC_COSTS}",
                        ("researcher", "researcher_tools"), ("researcher",), "final_report_generation",
                        bad_researcher_calls),
    "compression": Stage("compress_research", "compression", "You condense a researcher's work",
                         ("compress_research",), ("compress_research",), "final_report_generation", empty),
    "page_summary": Stage("summarize_page", "summarization", "Summarise this page for a researcher",
                          ("researcher_tools",), ("summarize_page", "researcher"), "final_report_generation",
                          garbage),
    "final_report": Stage("final_report_generation", "final_report", "Write the final research report",
                          ("final_report_generation",), ("final_report_generation",), "final_report_generation",
                          empty),
    "citation_check": Stage("check_citations", "citation_check", "A citation in a research report failed the check",
                            ("check_citations",), ("check_citations",), "check_citations", garbage),
    "publish": Stage("publish", None, "", ("publish",), ("publish",), "publish"),
}

R, D, F = "retried-ok", "degraded", "failed-clearly"
MODEL = {"critical": (R, F), "optional": (R, D)}
# (transient, persistent) outcome per stage and fault; None: the fault cannot reach the stage.
EXPECTED: dict[str, dict[str, tuple[str, str] | None]] = {
    "brief": {"rate_limit": (R, F), "server_error": (R, F), "timeout": (R, F), "connection_refused": (R, F),
              "malformed": (R, F), "context_length": (D, F), "search_failure": (R, D), "empty_page": (D, D)},
    "draft": {"rate_limit": (R, F), "server_error": (R, F), "timeout": (R, F), "connection_refused": (R, F),
              "malformed": (R, F), "context_length": (D, F), "search_failure": (R, D), "empty_page": (D, D)},
    "supervisor": {"rate_limit": (R, F), "server_error": (R, F), "timeout": (R, F), "connection_refused": (R, F),
                   "malformed": (R, D), "context_length": (D, F), "search_failure": None, "empty_page": None},
    "researcher": {"rate_limit": (R, D), "server_error": (R, D), "timeout": (R, D), "connection_refused": (R, D),
                   "malformed": (R, D), "context_length": (D, D), "search_failure": (R, D), "empty_page": None},
    "compression": {"rate_limit": (R, D), "server_error": (R, D), "timeout": (R, D), "connection_refused": (R, D),
                    "malformed": (R, D), "context_length": (D, D), "search_failure": None, "empty_page": None},
    "page_summary": {"rate_limit": (R, D), "server_error": (R, D), "timeout": (R, D),
                     "connection_refused": (R, D), "malformed": (R, D), "context_length": (D, D),
                     "search_failure": None, "empty_page": (D, D)},
    "final_report": {"rate_limit": (R, F), "server_error": (R, F), "timeout": (R, F), "connection_refused": (R, F),
                     "malformed": (R, F), "context_length": (D, F), "search_failure": None, "empty_page": None},
    "citation_check": {"rate_limit": (R, D), "server_error": (R, D), "timeout": (R, D),
                       "connection_refused": (R, D), "malformed": (R, D), "context_length": (D, D),
                       "search_failure": None, "empty_page": None},
    # the PDF renderer: a crash is not retried; a timeout or refused connection is
    "publish": {"rate_limit": None, "server_error": (D, D), "timeout": (R, D), "connection_refused": (R, D),
                "malformed": None, "context_length": None, "search_failure": None, "empty_page": None},
}
WHY_NA = {
    "search_failure": "the stage does not search (see the researcher row)",
    "empty_page": "no page reaches the stage (see the page summary row)",
}


# --- running one case --------------------------------------------------------------------------
@dataclass
class Case:
    stage: str
    fault: str
    mode: str  # transient | persistent
    faults: list[Fault] = field(default_factory=list)
    context: dict = field(default_factory=dict)
    question: str = QUESTION
    long_brief: bool = False
    pdf_errors: Any = None  # publish: exception factory of the PDF renderer

    @property
    def id(self) -> str:
        return f"{self.stage}/{self.fault}/{self.mode}"


def build_case(stage: str, fault: str, mode: str) -> Case:
    st = STAGES[stage]
    case = Case(stage, fault, mode)
    transient = mode == "transient"
    when = st.when if transient or st.when_persistent is None else st.when_persistent
    if stage == "publish":
        errors = {"server_error": lambda: RuntimeError("the PDF renderer crashed (injected)"),
                  "timeout": lambda: TimeoutError("PDF rendering timed out (injected)"),
                  "connection_refused": lambda: ConnectionRefusedError(111, "browser refused (injected)")}[fault]
        case.pdf_errors = (errors, 1 if transient else None)
        case.context = {"write_pdf": True}
        return case
    if fault in ("rate_limit", "server_error", "timeout", "connection_refused"):
        case.faults = [Fault(fault, st.role, when, times=2 if transient else None)]
    elif fault == "malformed":
        case.faults = [Fault("malformed", st.role, when, times=1 if transient else None, reply=st.malformed)]
    elif fault == "context_length":
        # transient: the request is just over the window (a shortened one fits);
        # persistent: nothing fits. Stages whose usual prompt is short get long input.
        case.question = LONG_QUESTION if stage == "brief" else QUESTION
        case.long_brief = stage == "draft"
        if stage == "supervisor" and transient:
            when = later_rounds  # round 2 holds the tool results: something to shorten
        if stage == "researcher" and transient:
            def when(t: str) -> bool:
                return f"Research this topic: {TOPIC_COSTS}" in t and "<source id=" in t
        if stage == "page_summary" and transient:
            when = LONG_TITLE  # the long page
        case.faults = [Fault("context_length", st.role, when, times=None, window=None if transient else 1)]
    elif fault == "search_failure":
        query = QUESTION[:30] if stage in ("brief", "draft") else QUERY_COSTS
        case.faults = [Fault("search_failure", None, query, times=1 if transient else None)]
    elif fault == "empty_page":
        query = QUESTION[:30] if stage in ("brief", "draft") else QUERY_COSTS
        case.faults = [Fault("empty_page", None, query, times=1 if transient else None)]
    if stage == "brief" and fault in ("search_failure", "empty_page"):
        case.context = {"brief_search": True}
    if stage == "draft" and fault in ("search_failure", "empty_page"):
        case.context = {"draft_search": True}
    return case


@dataclass
class Result:
    case: Case
    plan: FaultPlan
    error: BaseException | None
    values: dict
    snapshot: Any
    seconds: float
    pdf_hits: int = 0
    script: Any = None

    @property
    def hits(self) -> int:
        return self.plan.hits + self.pdf_hits


class FakePdf:
    """Stands in for the PDF renderer: fails as told, otherwise writes a tiny PDF."""

    def __init__(self, errors, times: int | None):
        self.errors, self.times, self.hits = errors, times, 0

    def __call__(self, html: str, path: Path):
        if self.times is None or self.hits < self.times:
            self.hits += 1
            raise self.errors()
        Path(path).write_bytes(b"%PDF-1.4\n%%EOF\n")
        return []


class FakeWorker:
    """Stands in for a run's PDF worker (publish_node.PdfWorker): renders with the fake above."""

    def __init__(self, render: FakePdf):
        self.render, self.job = render, None

    def start(self, html_path: Path, pdf_path: Path) -> None:
        self.job = (Path(html_path), Path(pdf_path))

    def finish(self) -> list[str]:
        return self.render(self.job[0].read_text(encoding="utf-8"), self.job[1])

    def __enter__(self) -> FakeWorker:
        return self

    def __exit__(self, *exc) -> None:
        pass


async def run_case(case: Case, corpus: Path, out: Path) -> Result:
    plan = FaultPlan(faults=list(case.faults))
    script = fault_script(long_brief=case.long_brief)
    deps = Deps(model_factory=faulty_factory(script, plan),
                search_factory=lambda cfg: FaultySearch(LocalCorpus.open(corpus), plan))
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    thread = re.sub(r"\W", "-", case.id)
    config = {"configurable": {"thread_id": thread}}
    hangs = any(f.kind == "timeout" for f in case.faults)  # only a hang needs the short timeout to cut it
    context = {**BASE_CONTEXT, "output_dir": str(out / thread),
               **({"request_timeout_s": TIMEOUT_S} if hangs else {}), **case.context}
    pdf = FakePdf(*case.pdf_errors) if case.pdf_errors else FakePdf(lambda: AssertionError("no PDF expected"), 0)
    error = None
    t0 = time.perf_counter()
    with mock.patch("deep_research.publish.publisher.render_pdf", pdf), \
            mock.patch("deep_research.research.report.publish_node.PdfWorker", lambda **kw: FakeWorker(pdf)):
        try:
            async for _ in graph.astream({"messages": [HumanMessage(case.question)]}, config, context=context,
                                         stream_mode="updates", subgraphs=True):
                pass
        except Exception as e:  # noqa: BLE001 - classified by the test
            error = e
    seconds = time.perf_counter() - t0
    snapshot = await graph.aget_state(config, subgraphs=True)
    return Result(case, plan, error, dict(snapshot.values), snapshot, seconds, pdf.hits, script)


# --- classifying what a run left behind ----------------------------------------------------------
def records(values: dict) -> list[dict]:
    return [*(values.get("degradations") or []), *(values.get("errors") or [])]


def new_records(values: dict, baseline: dict) -> list[dict]:
    before = records(baseline)
    return [r for r in records(values) if r not in before]


def checkpointed_notes(snapshot) -> list[dict]:
    """Notes kept in the checkpoint: the graph's own, or those of a subgraph that stopped."""
    notes = list(snapshot.values.get("notes") or [])
    for task in snapshot.tasks:
        if task.state is not None and hasattr(task.state, "values"):
            notes += task.state.values.get("notes") or []
    return notes


def classify(r: Result, baseline: dict) -> tuple[str, list[str]]:
    """(outcome, problems): the outcome, and what is wrong with it beyond its name."""
    stage = STAGES[r.case.stage]
    problems: list[str] = []
    if r.hits == 0:
        return "not-triggered", ["the fault was never hit"]
    if isinstance(r.error, ResearchFailed):
        e = r.error
        if e.stage != stage.fails_at:
            problems.append(f"failed at {e.stage}, expected {stage.fails_at}")
        if not e.message.strip():
            problems.append("empty failure message")
        if not (e.notes_path and Path(e.notes_path).is_file()):
            problems.append("notes.md not saved")
        if not r.snapshot.next:
            problems.append("the checkpoint has no step left to resume")
        failures = [x for x in r.values.get("errors") or [] if x.get("kind") == "failed"]
        if r.values.get("status") != "failed" or not failures:
            problems.append("the thread state does not say the run failed")
        elif (failures[-1]["stage"], failures[-1]["message"]) != (e.stage, e.message):
            problems.append("the state's failure record differs from the error raised")
        if r.values.get("status") == "completed" or r.values.get("outputs"):
            problems.append("a report was published despite the failure")
        if not r.values.get("question"):
            problems.append("the checkpoint lost the question")
        gathered = checkpointed_notes(r.snapshot)
        if gathered and e.notes_path and "<ref id=" not in Path(e.notes_path).read_text():
            problems.append("research gathered so far is missing from notes.md")
        return "failed-clearly", problems
    if r.error is not None:
        return f"crashed ({type(r.error).__name__}: {str(r.error)[:80]})", ["unclassified exception"]
    v = r.values
    if v.get("status") != "completed":
        return f"stopped (status {v.get('status')!r})", ["the run neither completed nor failed clearly"]
    if not Path((v.get("outputs") or {}).get("markdown", "/nonexistent")).is_file():
        problems.append("completed without a report file")
    added = new_records(v, baseline)
    if added:
        if not any(x.get("stage") in stage.records for x in added):
            problems.append(f"loss recorded by other stages only: {[x.get('stage') for x in added]}")
        lost_research = v.get("errors") or [
            d for d in v.get("degradations") or [] if d.get("stage") in ("supervisor", "researcher")
            and d.get("kind") != "shortened" and d not in (baseline.get("degradations") or [])]
        if lost_research and "Limitations" not in v.get("final_report", ""):
            problems.append("research was lost but the report does not say so")
        return "degraded", problems
    usage = v.get("usage") or {}
    trouble = sum(usage.get(n, {}).get(k, 0) for n in stage.nodes for k in ("retries", "repairs", "shortened"))
    if not trouble:
        return "absorbed-silently", ["the fault left no trace in usage or state"]
    if {n["topic"] for n in v.get("notes") or []} != {TOPIC_EFFICIENCY, TOPIC_COSTS}:
        problems.append("research missing after a successful retry")
    return "retried-ok", problems


# --- fixtures --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    folder = write_fault_corpus(tmp_path_factory.mktemp("faults") / "corpus")
    build_index(folder, base_url="http://127.0.0.1:8765/")
    return folder


@pytest.fixture(scope="module")
def baseline(corpus, tmp_path_factory) -> dict:
    """The same scenario without faults."""
    r = asyncio.run(run_case(Case("none", "none", "none"), corpus, tmp_path_factory.mktemp("baseline")))
    assert r.error is None and r.values["status"] == "completed"
    return r.values


@pytest.fixture(autouse=True)
def quiet_retry_logs(caplog):
    caplog.set_level(logging.ERROR, logger="deep_research")


def all_cases() -> list[Case]:
    return [build_case(stage, fault, mode) for stage in STAGES for fault in FAULTS
            if EXPECTED[stage][fault] is not None for mode in ("transient", "persistent")]


# --- the matrix ---------------------------------------------------------------------------------
def render(results: dict[tuple[str, str, str], tuple[str, list[str]]], seconds: float, runs: list[Result]) -> str:
    short = {"retried-ok": "retried-ok", "degraded": "degraded", "failed-clearly": "failed-clearly"}
    head = "| stage | " + " | ".join(FAULTS) + " |"
    lines = ["Fault matrix: transient / persistent outcome per stage and fault", "", head,
             "|" + "---|" * (len(FAULTS) + 1)]
    for stage in STAGES:
        cells = []
        for fault in FAULTS:
            if EXPECTED[stage][fault] is None:
                cells.append("n/a")
                continue
            t = results[(stage, fault, "transient")][0]
            p = results[(stage, fault, "persistent")][0]
            cells.append(f"{short.get(t, t)} / {short.get(p, p)}")
        lines.append(f"| {stage} | " + " | ".join(cells) + " |")
    retries = sum(sum(u.get("retries", 0) for u in (r.values.get("usage") or {}).values()) for r in runs)
    repairs = sum(sum(u.get("repairs", 0) for u in (r.values.get("usage") or {}).values()) for r in runs)
    shortened = sum(sum(u.get("shortened", 0) for u in (r.values.get("usage") or {}).values()) for r in runs)
    failed = sum(isinstance(r.error, ResearchFailed) for r in runs)
    figures = (f"{len(runs)} runs in {seconds:.1f}s; {sum(r.hits for r in runs)} injected failures; "
               f"{retries} retries, {repairs} repairs, {shortened} shortened requests recorded in usage; "
               f"{failed} runs stopped with ResearchFailed.")
    na = ("n/a: " + "; ".join(f"{k}: {v}" for k, v in WHY_NA.items())
          + "; publish: no model call (the PDF renderer is the faulty part).")
    legend = ("Researcher faults, search failures and empty pages hit one of the two research units (a "
              "persistent one loses that unit); page-summary model faults hit every summary; supervisor "
              "persistent faults start in round 2, after research was gathered; context length: transient = "
              "just over the window, persistent = nothing fits.")
    lines += ["", figures, na, legend]
    return "\n".join(lines)


def test_fault_matrix(corpus, baseline, tmp_path_factory):
    out = tmp_path_factory.mktemp("matrix")
    t0 = time.perf_counter()
    runs: list[Result] = []
    results: dict[tuple[str, str, str], tuple[str, list[str]]] = {}

    async def run_all():
        for case in all_cases():
            r = await run_case(case, corpus, out)
            runs.append(r)
            results[(case.stage, case.fault, case.mode)] = classify(r, baseline)

    asyncio.run(run_all())
    seconds = time.perf_counter() - t0
    table = render(results, seconds, runs)
    path = out / "fault_matrix.md"
    path.write_text(table + "\n", encoding="utf-8")
    print("\n" + table + f"\n(written to {path})")
    wrong = []
    for (stage, fault, mode), (outcome, problems) in results.items():
        expected = EXPECTED[stage][fault][0 if mode == "transient" else 1]
        if outcome != expected or problems:
            wrong.append(f"{stage}/{fault}/{mode}: {outcome} (expected {expected}) {problems}")
    assert not wrong, "\n".join(wrong)


# --- the rules behind the matrix, one at a time ----------------------------------------------------
def run(case: Case, corpus: Path, tmp_path: Path) -> Result:
    return asyncio.run(run_case(case, corpus, tmp_path))


def test_retries_back_off_exponentially_and_are_bounded(corpus, tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="deep_research")
    case = build_case("brief", "rate_limit", "persistent")
    case.context = {"retry_backoff_s": 0.02, "max_retries": 3}
    r = run(case, corpus, tmp_path)
    assert isinstance(r.error, ResearchFailed) and r.error.stage == "write_research_brief"
    assert "RateLimitError" in r.error.message
    assert r.plan.hits == 4  # one call and three retries, no more
    delays = [float(m) for m in re.findall(r"retry \d/3 in ([\d.]+)s", caplog.text)]
    assert len(delays) == 3
    for n, d in enumerate(delays):  # 0.02 * 2**n, with jitter of +-50 %
        assert 0.02 * 2 ** n * 0.5 - 0.051 <= d <= 0.02 * 2 ** n * 1.5 + 0.051
    assert r.seconds >= (0.01 + 0.02 + 0.04) * 0.9


def test_a_hanging_call_is_cut_by_the_request_timeout(corpus, tmp_path):
    case = build_case("final_report", "timeout", "persistent")
    r = run(case, corpus, tmp_path)
    assert isinstance(r.error, ResearchFailed) and r.error.stage == "final_report_generation"
    assert "TimeoutError" in r.error.message
    assert r.plan.hits == 3 and r.seconds < 3 * TIMEOUT_S + 2  # not the 30 s the call hangs


def test_transient_faults_show_in_usage_and_leave_the_report_as_without_them(corpus, tmp_path, baseline):
    r = run(build_case("compression", "server_error", "transient"), corpus, tmp_path)
    assert r.error is None and r.values["status"] == "completed"
    assert r.values["usage"]["compress_research"]["retries"] == 2
    assert [n["findings"] for n in r.values["notes"]] == [n["findings"] for n in baseline["notes"]]
    assert r.values["citation_summary"] == baseline["citation_summary"]


def _graph_whose_supervisor_keeps_failing(corpus):
    """A graph (in-memory checkpointer and store) whose supervisor's model is rate-limited until
    ``plan.clear()``; the scripted model's ``calls`` count each role."""
    case = build_case("supervisor", "rate_limit", "persistent")
    plan = FaultPlan(faults=case.faults)
    script = fault_script()
    deps = Deps(model_factory=faulty_factory(script, plan),
                search_factory=lambda cfg: FaultySearch(LocalCorpus.open(corpus), plan))
    return make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore()), plan, script


def test_supervisor_failure_keeps_research_in_checkpoint_and_notes_and_resume_continues(corpus, tmp_path):
    graph, plan, script = _graph_whose_supervisor_keeps_failing(corpus)
    config = {"configurable": {"thread_id": "resume"}}
    context = {**BASE_CONTEXT, "output_dir": str(tmp_path)}

    async def drive(payload):
        async for _ in graph.astream(payload, config, context=context, stream_mode="updates", subgraphs=True):
            pass
        return await graph.aget_state(config, subgraphs=True)

    with pytest.raises(ResearchFailed) as err:
        asyncio.run(drive({"messages": [HumanMessage(QUESTION)]}))
    e = err.value
    assert e.stage == "supervisor" and "RateLimitError" in e.message
    assert not e.message.startswith("supervisor:")  # the stage is named once
    notes = Path(e.notes_path).read_text()
    assert TOPIC_EFFICIENCY in notes and TOPIC_COSTS in notes and notes.count("<ref id=") >= 4
    snapshot = asyncio.run(graph.aget_state(config, subgraphs=True))
    assert snapshot.next == ("research_supervisor",)
    assert {n["topic"] for n in checkpointed_notes(snapshot)} == {TOPIC_EFFICIENCY, TOPIC_COSTS}
    # the thread's state says so (what Studio shows), with the notes' path
    assert snapshot.values["status"] == "failed"
    assert snapshot.values["errors"][-1] == {"stage": "supervisor", "message": e.message, "kind": "failed",
                                            "notes": e.notes_path}
    compressions = script.calls["compression"]
    # resumed while the outage lasts: fails again, and both failures are on record
    with pytest.raises(ResearchFailed):
        asyncio.run(drive(None))
    snapshot = asyncio.run(graph.aget_state(config, subgraphs=True))
    assert snapshot.next == ("research_supervisor",) and snapshot.values["status"] == "failed"
    assert [x["stage"] for x in snapshot.values["errors"] if x.get("kind") == "failed"] == ["supervisor"] * 2
    # the outage ends; resume retries the step and keeps the research already done
    plan.clear()
    final = asyncio.run(drive(None))
    assert final.values["status"] == "completed" and not final.next
    assert script.calls["compression"] == compressions == 2
    assert {n["topic"] for n in final.values["notes"]} == {TOPIC_EFFICIENCY, TOPIC_COSTS}
    # the failures stay in the record but are not limitations of the report
    assert "RateLimitError" not in final.values["final_report"]


def test_a_healthy_call_that_comes_back_late_is_not_asked_again(corpus, tmp_path):
    """A run without injected hangs must count no retry of its own: a compression call
    that came back after 0.6 s (a loaded machine) was cut by the 0.3 s timeout and asked
    again, and the supervisor test saw a third compression."""
    case = Case("compression", "slow", "transient",
                faults=[Fault("slow", "compression", "You condense a researcher's work", times=1)])
    r = run(case, corpus, tmp_path)
    assert r.error is None and r.values["status"] == "completed"
    assert r.plan.hits == 1 and r.script.calls["compression"] == 2
    assert all(not u.get("retries") for u in r.values["usage"].values()), r.values["usage"]


def test_every_research_unit_failing_fails_clearly(corpus, tmp_path):
    case = Case("researcher", "rate_limit", "persistent",
                faults=[Fault("rate_limit", "research", "Research this topic:", times=None)])
    r = run(case, corpus, tmp_path)
    assert isinstance(r.error, ResearchFailed) and r.error.stage == "final_report_generation"
    assert "no research produced citable findings" in r.error.message
    text = Path(r.error.notes_path).read_text()
    assert "## Errors" in text and "RateLimitError" in text
    assert not r.values.get("outputs")


def test_a_failing_unit_is_named_in_the_reports_limitations(corpus, tmp_path):
    r = run(build_case("researcher", "connection_refused", "persistent"), corpus, tmp_path)
    v = r.values
    assert v["status"] == "completed"
    assert [n["topic"] for n in v["notes"]] == [TOPIC_EFFICIENCY]
    assert any(e.get("topic") == TOPIC_COSTS and "ConnectionRefusedError" in e["message"] for e in v["errors"])
    report = v["final_report"]
    assert "## Limitations" in report and "ConnectionRefusedError" in report
    assert report.index("## Limitations") < report.index("## Sources")  # the sources list stays last


def test_search_exception_that_is_not_transient_is_recorded_not_retried(corpus, tmp_path):
    class Broken:
        name = "broken"
        calls = 0

        async def search(self, query, *, max_results=5):
            Broken.calls += 1
            raise RuntimeError("index file is corrupt (injected)")

    plan = FaultPlan()
    deps = Deps(model_factory=faulty_factory(fault_script(), plan), search_factory=lambda cfg: Broken())
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())

    async def go():
        async for _ in graph.astream({"messages": [HumanMessage(QUESTION)]}, {"configurable": {"thread_id": "b"}},
                                     context={**BASE_CONTEXT, "output_dir": str(tmp_path)},
                                     stream_mode="updates", subgraphs=True):
            pass

    with pytest.raises(ResearchFailed) as err:
        asyncio.run(go())
    assert err.value.stage == "final_report_generation"
    # each researcher searched until its tool-call cap, each search once (no retries)
    assert Broken.calls == 2 * 6
    assert "index file is corrupt" in err.value.message


def test_search_that_hangs_is_cut_by_the_timeout_and_retried(corpus, tmp_path):
    case = Case("researcher", "timeout", "transient", faults=[Fault("timeout", None, QUERY_COSTS, times=1)])
    # A timeout of 1 s, not the module's 0.3 s: every search of the run is under this timeout,
    # and on a loaded machine a healthy one could pass 0.3 s and count a retry of its own.
    case.context = {"request_timeout_s": 1.0}
    r = run(case, corpus, tmp_path)
    assert r.values["status"] == "completed" and r.plan.hits == 1
    assert r.values["usage"]["researcher_tools"]["retries"] == 1
    assert r.seconds < 1.0 + 2


def test_supervisor_reply_without_tool_calls_is_asked_again_once(corpus, tmp_path):
    case = Case("supervisor", "malformed", "transient",
                faults=[Fault("malformed", "research", "Round 1 of", times=1,
                              reply=lambda m: "I would research efficiency and costs.")])
    r = run(case, corpus, tmp_path)
    v = r.values
    assert v["status"] == "completed" and len(v["notes"]) == 2
    assert v["usage"]["supervisor_tools"]["repairs"] == 1
    # a supervisor that keeps answering in prose is not asked forever
    case = Case("supervisor", "malformed", "persistent",
                faults=[Fault("malformed", "research", SUPERVISOR, reply=lambda m: "Thinking...")])
    r = run(case, corpus, tmp_path)
    assert isinstance(r.error, ResearchFailed) and r.plan.hits == 2


def test_researcher_reply_without_searching_is_asked_once_to_search(corpus, tmp_path):
    case = Case("researcher", "malformed", "transient",
                faults=[Fault("malformed", "research", f"Research this topic: {TOPIC_COSTS}", times=1,
                              reply=lambda m: "Heat pumps cost a lot.")])
    r = run(case, corpus, tmp_path)
    assert r.values["status"] == "completed" and len(r.values["notes"]) == 2
    assert r.values["usage"]["researcher"]["repairs"] == 1


def test_publish_that_cannot_write_fails_clearly_and_keeps_the_report_in_the_checkpoint(corpus, tmp_path):
    blocker = tmp_path / "reports"
    blocker.write_text("a file where the report folder should be")
    case = Case("publish", "write", "persistent", context={"output_dir": str(blocker)})
    plan = FaultPlan()
    deps = Deps(model_factory=faulty_factory(fault_script(), plan),
                search_factory=lambda cfg: FaultySearch(LocalCorpus.open(corpus), plan))
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    config = {"configurable": {"thread_id": "w"}}

    async def go():
        async for _ in graph.astream({"messages": [HumanMessage(QUESTION)]}, config,
                                     context={**BASE_CONTEXT, **case.context}, stream_mode="updates",
                                     subgraphs=True):
            pass

    with pytest.raises(ResearchFailed) as err:
        asyncio.run(go())
    assert err.value.stage == "publish"
    snapshot = asyncio.run(graph.aget_state(config))
    assert snapshot.next == ("publish",)
    assert snapshot.values["final_report"] and snapshot.values["status"] != "completed"


def test_context_length_with_nothing_to_cut_fails_instead_of_dropping_the_task():
    """A request of a task and an appended instruction: dropping the task would leave the
    model answering the instruction alone, so the error is raised instead."""
    from tests.support.faults import context_length_error

    class Model:
        def __init__(self):
            self.seen = []

        async def ainvoke(self, messages, **kwargs):
            self.seen.append([m.content for m in messages])
            raise context_length_error(9000)

    model = Model()
    msgs = [HumanMessage("Write the research brief for: heat pumps"), HumanMessage("Reply with JSON only.")]
    with pytest.raises(ModelCallError) as err:
        asyncio.run(Meter("n", max_retries=2, backoff_s=0).invoke(model, msgs))
    assert not err.value.transient and len(model.seen) == 1
    # an old conversation turn is dropped with its tool results, never leaving them unpaired
    turn = AIMessage("", tool_calls=[{"name": "search", "args": {"query": "q"}, "id": "c1", "type": "tool_call"}])
    history = [SystemMessage("sys"), HumanMessage("topic"), turn, ToolMessage("result", tool_call_id="c1"),
               AIMessage("", tool_calls=[{"name": "search", "args": {}, "id": "c2", "type": "tool_call"}]),
               ToolMessage("result 2", tool_call_id="c2")]
    once = _shorten(history)
    assert [m.content for m in once] == ["sys", "", "result", "", "result 2"]
    twice = _shorten(once)
    assert [type(m).__name__ for m in twice] == ["SystemMessage", "AIMessage", "ToolMessage"]
    assert twice[1].tool_calls[0]["id"] == "c2" and _shorten(twice) is None


def test_cli_prints_the_degradations_of_a_run(corpus, tmp_path, capsys):
    from deep_research import cli

    r = run(build_case("compression", "rate_limit", "persistent"), corpus, tmp_path)
    assert r.values["status"] == "completed"
    cli._print_result(r.values, "thread")
    captured = capsys.readouterr()
    printed = " ".join((captured.err + captured.out).split())
    assert "verified excerpts used as findings" in printed


def test_a_subgraph_failure_on_resume_tells_the_settings_the_run_gave_that_are_not_used(corpus, tmp_path):
    """A run that resumes a failed research round starts inside the supervisor's subgraph:
    when that fails again before any node of the top graph runs, the settings the run gave
    that are not used were only logged. They are in the chat (before the failure's turn) and
    the degradations, as when the run goes on."""
    graph, plan, script = _graph_whose_supervisor_keeps_failing(corpus)
    config = {"configurable": {"thread_id": "told"}}
    started = {**BASE_CONTEXT, "output_dir": str(tmp_path), "report_format": "concise"}

    async def drive(payload, context):
        async for _ in graph.astream(payload, config, context=context, stream_mode="updates", subgraphs=True):
            pass

    with pytest.raises(ResearchFailed):
        asyncio.run(drive({"messages": [HumanMessage(QUESTION)]}, started))
    with pytest.raises(ResearchFailed):
        asyncio.run(drive(None, {**started, "report_format": "detailed"}))
    values = asyncio.run(graph.aget_state(config)).values
    names = [m.name for m in values["messages"]]
    assert "settings" in names, names
    notice = values["messages"][names.index("settings")].content
    assert "report_format: detailed given by this run is not used; concise is kept" in notice
    assert names.index("settings") < len(names) - 1  # the failure's turn comes after it
    assert [d["kind"] for d in values.get("degradations") or [] if d["stage"] == "configuration"] == \
        ["setting_ignored"]
    assert [r["setting"] for r in values["ignored_settings"]] == ["report_format"]

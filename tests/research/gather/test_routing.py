"""Complexity routing: research_mode auto | single | multi, on real graph runs with the
scripted model and a local corpus; and `deep-research compare` as a user runs it."""

import asyncio
import json
import re
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from deep_research.errors import UserError
from deep_research.research.runtime.deps import Deps
from deep_research.research.runtime.configuration import Configuration
from deep_research.research.graph import make_graph
from deep_research.research.gather.routing import path_for
from deep_research.search.local import LocalCorpus, build_index
from tests.support.scenario import BRIEF, QUESTION, full_script, write_corpus
from tests.support.scripted import Script, prompt_text, scripted_factory, structured
from tests.cli.test_research import SCRIPTED, run

CLASSIFY = "Classify how much research this question needs"
SUPERVISOR = "Round 1 of"


@pytest.fixture()
def corpus(tmp_path) -> Path:
    folder = write_corpus(tmp_path / "corpus")
    build_index(folder, base_url="http://127.0.0.1:8765/")
    return folder


def classified_as(script: Script, *responses) -> Script:
    """The script with the classifier answering ``responses`` first (the scenario's own
    answer, broad, stays behind it)."""
    script.on("summarization", CLASSIFY, *responses)
    script.rules.insert(0, script.rules.pop())
    return script


def research(corpus: Path, tmp_path: Path, script: Script, **context):
    deps = Deps(model_factory=scripted_factory(script), search_factory=lambda cfg: LocalCorpus.open(corpus))
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    config = {"configurable": {"thread_id": "routing"}}
    ctx = {"search_api": "local", "output_dir": str(tmp_path / "reports"), "write_pdf": False, **context}

    async def go():
        async for _ in graph.astream({"messages": [HumanMessage(QUESTION)]}, config, context=ctx,
                                     stream_mode="updates", subgraphs=True):
            pass
        return await graph.aget_state(config)

    state = asyncio.run(go())
    assert not state.next
    return state.values


def rules_called(script: Script) -> list[str]:
    return [name for _, name in script.log]


def test_only_a_simple_question_goes_alone():
    assert path_for("simple") == "single"
    assert path_for("focused") == path_for("broad") == "multi"


def test_research_mode_is_validated():
    assert Configuration.resolve(context={"research_mode": "single"}, environ={}).research_mode == "single"
    assert Configuration.resolve(environ={}).research_mode == "multi"  # today's behaviour by default
    assert Configuration.resolve(environ={"DEEP_RESEARCH_RESEARCH_MODE": "auto"}).research_mode == "auto"
    with pytest.raises(UserError, match="research_mode"):
        Configuration.resolve(context={"research_mode": "fast"}, environ={})


def test_auto_sends_a_simple_question_down_the_single_path_with_the_same_citation_guarantees(corpus, tmp_path):
    # wrong_quote: the report misquotes one number; the citation check must still catch and fix it
    script = classified_as(full_script(wrong_quote=True),
                           structured("ClassifyQuestion", complexity="simple", reason="One short answer."))
    v = research(corpus, tmp_path, script, research_mode="auto")
    assert v["status"] == "completed", v.get("errors")
    assert v["research_mode_used"] == "single"
    assert v["complexity"] == {"level": "simple", "reason": "One short answer."}
    called = rules_called(script)
    assert called.count(CLASSIFY[:40]) == 1
    assert SUPERVISOR not in called and "Round 2 of" not in called  # no supervisor call at all
    assert "supervisor" not in v["usage"] and "route_research" in v["usage"]
    # one researcher, with the brief as its topic, its findings compressed
    assert called.count(f"Research this topic: {BRIEF}"[:40]) == 2  # search, then done
    assert [n["topic"] for n in v["notes"]] == [BRIEF] and v["research_iterations"] == 1
    # what the unit read: 3 pages, 3 sentences each verified, the invented one on each page not
    assert v["research_log"] == [{"topic": BRIEF, "ok": True, "citations": v["research_log"][0]["citations"],
                                  "error": None, "pages_read": 3, "verified_sentences": 9,
                                  "unverified_sentences": 3}] and v["research_log"][0]["citations"] > 0
    summary = v["citation_summary"]
    assert summary["unsupported"] == 0 and summary["verified"] >= 8 and summary["fixed_by_agent"] == 1
    assert summary["claims_unsupported"] == 0
    out = v["outputs"]
    for key in ("markdown", "linked", "html", "citations", "notes"):
        assert Path(out[key]).is_file(), key
    cites = json.loads(Path(out["citations"]).read_text())
    assert cites and all(c["status"] == "verified" for c in cites)
    run_json = json.loads((Path(out["dir"]) / "run.json").read_text())
    assert run_json["plan"][0]["topic"] == BRIEF and run_json["plan"][0]["ok"]
    assert run_json["research_mode"] == "single" and run_json["complexity"]["level"] == "simple"


def test_auto_sends_a_broad_question_to_the_supervisor(corpus, tmp_path):
    script = full_script(wrong_quote=False)  # the scenario's classifier answer: broad
    v = research(corpus, tmp_path, script, research_mode="auto")
    assert v["status"] == "completed", v.get("errors")
    assert v["research_mode_used"] == "multi" and v["complexity"]["level"] == "broad"
    called = rules_called(script)
    assert CLASSIFY[:40] in called and SUPERVISOR in called
    assert f"Research this topic: {BRIEF}"[:40] not in called
    assert len(v["notes"]) == 2 and v["citation_summary"]["unsupported"] == 0


def test_a_focused_question_goes_to_the_supervisor_too(corpus, tmp_path):
    script = classified_as(full_script(wrong_quote=False),
                           structured("ClassifyQuestion", complexity="focused", reason="One subject."))
    v = research(corpus, tmp_path, script, research_mode="auto")
    assert v["research_mode_used"] == "multi" and v["complexity"]["level"] == "focused"
    assert SUPERVISOR in rules_called(script)


def test_a_failed_classification_falls_back_to_multi_and_is_recorded(corpus, tmp_path):
    script = classified_as(full_script(wrong_quote=False), RuntimeError("classifier down"),
                           RuntimeError("classifier down"))
    v = research(corpus, tmp_path, script, research_mode="auto", max_retries=0)
    assert v["status"] == "completed", v.get("errors")
    assert v["research_mode_used"] == "multi" and v["complexity"] == {}
    [d] = [d for d in v["degradations"] if d["stage"] == "route_research"]
    assert d["kind"] == "routing" and "could not be classified" in d["message"]
    assert SUPERVISOR in rules_called(script)


@pytest.mark.parametrize("mode", ["single", "multi"])
def test_a_forced_mode_is_used_without_classifying(corpus, tmp_path, mode):
    script = classified_as(full_script(wrong_quote=False),
                           structured("ClassifyQuestion", complexity="simple" if mode == "multi" else "broad"))
    v = research(corpus, tmp_path, script, research_mode=mode)
    assert v["status"] == "completed", v.get("errors")
    assert v["research_mode_used"] == mode and v["complexity"] == {}
    called = rules_called(script)
    assert CLASSIFY[:40] not in called
    assert (SUPERVISOR in called) is (mode == "multi")
    assert v["citation_summary"]["unsupported"] == 0 and v["citation_summary"]["verified"] >= 8


def test_the_single_path_respects_a_spent_budget(corpus, tmp_path):
    """A cost cap smaller than the first calls: no call that would pass it is made, the
    researcher is not sent out, and the run says so."""
    from deep_research.research.runtime.failure import ResearchFailed

    script = full_script(wrong_quote=False)
    with pytest.raises(ResearchFailed, match=r"was not made: it would pass the cost cap"):
        research(corpus, tmp_path, script, research_mode="single", max_cost_usd=0.0001)
    assert f"Research this topic: {BRIEF}"[:40] not in rules_called(script)
    assert "Write the final research report"[:40] not in rules_called(script)


# --- the CLI ------------------------------------------------------------------------------------
def test_research_prints_the_path_it_took(tmp_path):
    corpus = write_corpus(tmp_path / "corpus")
    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--yes", "--no-pdf",
            "--mode", "single", "--db", tmp_path / "state.sqlite", env=SCRIPTED)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Research path: single" in r.stdout
    # the live progress shows the one researcher while it runs
    assert re.search(r"^\[research r1\] researchers=1 ", r.stdout, re.M), r.stdout
    assert re.search(r"Citations: \d+ verified, 0 repaired, 0 unsupported", r.stdout), r.stdout
    r = run("research", QUESTION, "--mode", "fast", "--db", tmp_path / "state.sqlite", env=SCRIPTED)
    assert r.returncode == 2 and "--mode: must be auto, single or multi" in r.stderr


def test_compare_runs_both_modes_side_by_side(tmp_path):
    corpus = write_corpus(tmp_path / "corpus")
    log = tmp_path / "calls.log"
    r = run("compare", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--no-pdf",
            "--db", tmp_path / "state.sqlite", env={**SCRIPTED, "DR_CALL_LOG": str(log)})
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    header = next(line for line in r.stdout.splitlines() if "single" in line and "multi" in line)
    assert header.index("single") < header.index("multi")
    for label in ("wall time (s)", "prompt tokens", "completion tokens", "cost (USD)", "verified citations",
                  "claims supported", "claims unsupported", "sources read", "coverage", "report folder"):
        assert label in r.stdout, label
    [path] = list((tmp_path / "reports").glob("compare-*/compare.json"))
    record = json.loads(path.read_text())
    assert record["question"] == QUESTION and list(record["runs"]) == ["single", "multi"]
    single, multi = record["runs"]["single"], record["runs"]["multi"]
    assert single["status"] == multi["status"] == "completed"
    assert single["research_mode_used"] == "single" and multi["research_mode_used"] == "multi"
    assert single["thread_id"] != multi["thread_id"]
    assert single["model_calls"] < multi["model_calls"]  # no supervisor rounds, one researcher
    assert single["prompt_tokens"] > 0 and multi["completion_tokens"] > 0
    # no price, and no plan (the scenario's brief has none): n/a, not 0
    assert single["cost_usd"] is None and single["coverage"] is None and multi["coverage"] is None
    assert "n/a" in r.stdout
    for run_ in (single, multi):
        assert run_["verified_citations"] >= 8 and run_["unsupported_citations"] == 0
        assert run_["sources_read"] == 3
        assert Path(run_["report_dir"]).parent.parent == path.parent  # both reports in the comparison's folder
        assert (Path(run_["report_dir"]) / "report.md").is_file()
    # the supervisor was asked only by the multi run; no clarifying question in either
    rules = [line.split("\t")[2] for line in log.read_text().splitlines()]
    assert rules.count("Round 1 of") == 1
    assert not any("clarifying" in x or "You decide whether" in x for x in rules)


def test_compare_metrics_show_the_plans_coverage():
    from deep_research.cli.compare import comparison_table, run_metrics

    values = {"status": "completed", "research_mode_used": "single",
              "usage": {"a": {"calls": 2, "input_tokens": 100, "output_tokens": 20, "cost_usd": 0.01}},
              "citation_summary": {"refs": 3, "verified": 3, "claims_supported": 2, "claims_unsupported": 1},
              "coverage": {"score": 0.75, "items": [{"id": "q1"}]}, "outputs": {"dir": "/x/single/r"}}
    m = run_metrics(values, 1.5, "t1")
    assert (m["coverage"], m["cost_usd"], m["prompt_tokens"], m["claims_unsupported"]) == (0.75, 0.01, 100, 1)
    assert run_metrics({**values, "coverage": {"score": 0.0, "items": []}}, 1.0, "t2")["coverage"] is None
    from rich.console import Console

    console = Console(width=200, record=True)
    console.print(comparison_table({"single": m, "multi": {**m, "coverage": None}}, Path("/x")))
    text = console.export_text()
    assert "75%" in text and "n/a" in text and "$0.0100" in text and "single/r" in text  # as research prints it


def test_compare_refuses_bad_input_like_research(tmp_path):
    r = run("compare", "   ", "--db", tmp_path / "s.sqlite", env=SCRIPTED)
    assert r.returncode == 2 and "the question is empty" in r.stderr
    r = run("compare", "What is tea?", "--search", "google", "--db", tmp_path / "s.sqlite", env=SCRIPTED)
    assert r.returncode == 2 and "--search: must be" in r.stderr
    r = run("compare", "What is tea?", "--council-threshold", "1.5", "--db", tmp_path / "s.sqlite", env=SCRIPTED)
    assert r.returncode == 2 and "--council-threshold: must be at most 1" in r.stderr


def test_the_single_path_judges_the_plans_coverage_after_its_one_round(corpus, tmp_path):
    from tests.support.scenario import researcher_step
    from tests.research.scope.test_plan import BRIEF as PLAN_BRIEF
    from tests.research.scope.test_plan import SUBS, script_for

    script = script_for(SUBS)
    seen: list[str] = []

    def step(messages):
        seen.append(prompt_text(messages))
        return researcher_step("heat pump cold climate installation cost", "I have enough evidence.")(messages)

    script.on("research", f"Research this topic: {PLAN_BRIEF}", step, repeat=True)
    v = research(corpus, tmp_path, script, research_mode="single", allow_clarification=False)
    assert v["status"] == "completed", v.get("errors")
    assert v["research_mode_used"] == "single" and SUPERVISOR not in rules_called(script)
    cov = v["coverage"]
    assert cov["stopped_because"] == "single" and cov["rounds"] == 1
    assert [i["id"] for i in cov["items"]] == ["q1", "q2"] and cov["score"] > 0 and cov["total_sentences"] > 0
    assert "coverage" in rules_called(script) and "coverage" in v["usage"]
    assert "What the research is about (from the research plan" in seen[0]  # query context, as in multi


def test_the_research_path_line_shows_the_models_reason_as_one_bounded_inert_line():
    """The classification reason is model text: its escape sequences, bidi overrides,
    zero-width characters and line breaks must not act on the terminal or break the line,
    and a 500-character reason is cut; so is a sub-question of the coverage lines."""
    from deep_research.cli.research import coverage_lines, path_lines
    reason = "Needs \x1b]0;pwned\x07\x1b[2J two\u202e\u2066 sources\u200b.\nSecond line\r\u2028" + "x" * 500
    [line] = path_lines({"research_mode_used": "multi", "complexity": {"level": "focused", "reason": reason}})
    assert line.startswith("Research path: multi (question classified focused: Needs \\x1b]0;pwned\\x07\\x1b[2J two")
    assert "\\u202e\\u2066 sources\\u200b. Second line x" in line and line.endswith("\u2026)")
    assert line.isprintable() and len(line) < 300  # 200 characters of the reason, a few written as escapes
    cov = {"items": [{"id": "q1", "priority": "high", "question": "Why\x1b[31m?\n" + "y" * 900, "covered": False,
                      "evidence": 0}], "rounds": 1, "stopped_because": "limits"}
    not_covered = coverage_lines(cov)[-1]
    assert not_covered.isprintable() and "Why\\x1b[31m? yyy" in not_covered and len(not_covered) < 300

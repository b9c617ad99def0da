"""The research plan (sub-questions with priorities, query analysis) written with the brief,
coverage of the sub-questions by verified findings after each round, the coverage and
plateau stops, uncovered sub-questions in the report's limitations, and the supervisor's
and compression's context summarisation. Real graph runs with the scripted model and the
test corpus; unit tests for each mechanism."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command

from deep_research.research.scope import plan as P
from deep_research.research.runtime.deps import Deps, NodeContext
from deep_research.research.runtime.configuration import Configuration
from deep_research.research.graph import make_graph
from deep_research.research.scope.brief import ResearchQuestion
from deep_research.research.gather.supervisor import SupervisorNodes, coverage_stop, summary_cut
from deep_research.search.local import LocalCorpus, build_index
from tests.support.scenario import (
    QUESTION,
    TOPIC_COSTS,
    TOPIC_EFFICIENCY,
    full_script,
    write_corpus,
)
from tests.support.scripted import (
    Script,
    calls,
    prompt_text,
    scripted_factory,
    structured,
    tool_call,
)

BRIEF = "I want to know how well heat pumps work in cold climates and what they cost. Report in English."
SUBS = [{"question": "How efficient are heat pumps in cold weather?", "priority": "high"},
        {"question": "What does an air-source heat pump cost to install and run?", "priority": "medium"}]
JAPAN = {"question": "What do heat pumps cost in Japan?", "priority": "low"}
ANALYSIS = {"entities": ["air-source heat pumps", "Norway"], "time_scope": "2015 to today",
            "ambiguities": [{"term": "cold climates", "resolved_as": "winters with weeks below -15 °C"}]}
# which words make a sentence answer a sub-question (the scripted coverage judge)
KEYWORDS = {"q1": ("coefficient", "-25", "-15", "units of heat", "cold"),
            "q2": ("euros", "cheaper", "grants", "price of electricity"),
            "q3": ("japan",)}


@pytest.fixture()
def corpus(tmp_path) -> Path:
    folder = write_corpus(tmp_path / "corpus")
    build_index(folder, base_url="http://127.0.0.1:8765/")
    return folder


def recording(log: list, response):
    def respond(messages):
        log.append(prompt_text(messages))
        return response(messages) if callable(response) else response

    return respond


def judge(messages):
    """The coverage judge: maps each numbered sentence to the sub-questions whose keywords it has."""
    text = prompt_text(messages)
    ids = re.findall(r"^(q\d+): ", text, re.M)
    matches = []
    for n, sentence in re.findall(r'^(\d+)\. \[[^\]]+\] "(.*)"$', text, re.M):
        answers = [q for q in ids if any(k in sentence.lower() for k in KEYWORDS.get(q, ()))]
        matches.append({"sentence": int(n), "answers": answers})
    return structured("CoverageJudgement", matches=matches)


def script_for(subs=None, supervisor: dict | None = None, coverage=judge, analysis=True) -> Script:
    """The full scenario, with a brief that carries a plan and the given supervisor rounds."""
    s = full_script()
    plan = {"sub_questions": subs or [], **(ANALYSIS if analysis else {})}
    own = Script()
    own.on("research", "Turn the conversation into a research brief",
           structured("ResearchQuestion", research_brief=BRIEF, **plan), repeat=True, name="brief")
    if coverage is not None:
        own.on("research", "You check which research sub-questions the evidence answers", coverage, repeat=True,
               name="coverage")
    for n, reply in (supervisor or {}).items():
        own.on("research", f"Round {n} of", reply, repeat=True, name=f"supervisor round {n}")
    s.rules = own.rules + s.rules
    return s


def graph_for(script: Script, corpus: Path):
    deps = Deps(model_factory=scripted_factory(script), search_factory=lambda cfg: LocalCorpus.open(corpus))
    return make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())


def context(tmp_path: Path, **overrides) -> dict:
    return {"allow_clarification": False, "search_api": "local", "output_dir": str(tmp_path / "reports"),
            "write_pdf": False, **overrides}


async def drive(graph, payload, ctx: dict, thread: str = "t", updates: list | None = None):
    config = {"configurable": {"thread_id": thread}}
    async for ns, update in graph.astream(payload, config, context=ctx, stream_mode="updates", subgraphs=True):
        if updates is not None:
            updates.append((ns, update))
    return await graph.aget_state(config)


def start() -> dict:
    return {"messages": [HumanMessage(QUESTION)]}


def rounds_run(script: Script) -> int:
    return sum(1 for role, name in script.log if name.startswith(("supervisor round", "Round ")))


BOTH_TOPICS = calls(tool_call("ConductResearch", topic=TOPIC_EFFICIENCY),
                    tool_call("ConductResearch", topic=TOPIC_COSTS))
NEVER_DONE = {n: BOTH_TOPICS for n in range(1, 7)}


# --- the plan: unit tests ---------------------------------------------------------------------------
def test_plan_from_a_structured_answer_gets_ids_bounded_sizes_and_normalised_priorities():
    answer = ResearchQuestion.model_validate({
        "research_brief": BRIEF,
        "sub_questions": [{"question": " How  efficient? ", "priority": "HIGH"},
                          {"question": "how efficient?", "priority": "low"},  # a repeat: dropped
                          {"question": "", "priority": "high"},  # empty: dropped
                          {"question": "What cost?", "priority": "urgent"},  # unknown priority: medium
                          *({"question": f"Extra {i}?"} for i in range(20))],
        "entities": ["Norway", " Norway ", "", "air-source heat pumps"],
        "time_scope": "  ",
        "ambiguities": [{"term": "COP", "resolved_as": "coefficient of performance"}, {"term": "x", "resolved_as": ""}],
    })
    plan = P.plan_from(answer)
    subs = plan["sub_questions"]
    assert subs[0] == {"id": "q1", "question": "How efficient?", "priority": "high"}
    assert subs[1] == {"id": "q2", "question": "What cost?", "priority": "medium"}
    assert len(subs) == P.MAX_SUB_QUESTIONS and [s["id"] for s in subs] == [f"q{i}" for i in range(1, 9)]
    assert plan["entities"] == ["Norway", "air-source heat pumps"]
    assert plan["time_scope"] is None
    assert plan["ambiguities"] == [{"term": "COP", "resolved_as": "coefficient of performance"}]
    # a model that gives only the brief: an empty plan, and the brief unchanged
    only = ResearchQuestion(research_brief=BRIEF)
    assert P.plan_from(only) == P.empty_plan() and P.with_plan(BRIEF, P.plan_from(only)) == BRIEF


def test_the_plan_is_rendered_under_the_brief_and_a_revision_keeps_them_consistent():
    plan = P.plan_from(ResearchQuestion(research_brief=BRIEF, sub_questions=SUBS, **ANALYSIS))
    text = P.with_plan(BRIEF, plan)
    assert text.startswith(BRIEF) and P.PLAN_HEADING in text
    assert "- q1 [high] How efficient are heat pumps in cold weather?" in text
    assert "Entities: air-source heat pumps; Norway" in text and "Time scope: 2015 to today" in text
    assert '"cold climates" means: winters with weeks below -15 °C' in text
    assert P.brief_text(text) == BRIEF
    assert P.with_plan(text, plan) == text  # rendering again replaces, never repeats
    # a revision without a plan keeps the plan so far; one with a plan replaces it
    assert P.revised_plan(plan, ResearchQuestion(research_brief="new")) == plan
    new = P.revised_plan(plan, ResearchQuestion(research_brief="new", sub_questions=[JAPAN]))
    assert new["sub_questions"] == [{"id": "q1", **JAPAN}] and new["entities"] == []


# --- coverage: unit tests -----------------------------------------------------------------------------
FINDINGS = [
    {"topic": "a", "findings": '- x <ref id="s1">"A heat pump keeps heating at -25 °C."</ref>\n'
                               '- y <ref id="s2">"Its coefficient of performance falls in the cold."</ref>\n'
                               '- again <ref id="s1">"A heat pump keeps heating at -25 °C."</ref>'},
    {"topic": "b", "findings": '- z <ref id="s3">"Installing one costs 8,000 to 15,000 euros."</ref>'},
]


def test_coverage_is_computed_by_code_from_the_judged_verified_sentences():
    plan = P.plan_from(ResearchQuestion(research_brief=BRIEF, sub_questions=[*SUBS, JAPAN]))
    sentences = P.verified_sentences(FINDINGS)
    assert sentences == [("s1", "A heat pump keeps heating at -25 °C."),
                         ("s2", "Its coefficient of performance falls in the cold."),
                         ("s3", "Installing one costs 8,000 to 15,000 euros.")]
    judgement = P.CoverageJudgement.model_validate({"matches": [
        {"sentence": 1, "answers": ["q1", "Q1"]},  # the same id twice counts once
        {"sentence": 2, "answers": ["q1", "q9"]},  # an unknown id is ignored
        {"sentence": 3, "answers": ["q2"]},
        {"sentence": 7, "answers": ["q3"]},  # no such sentence: ignored
    ]})
    hits, ignored = P.apply_matches(plan, sentences, judgement, {})
    assert hits == {"q1": ["s1", "s2"], "q2": ["s3"]} and ignored == 2
    cov = P.coverage_record(plan, hits, rounds=1, new_sentences=3, total_sentences=3, unjudged=0)
    by_id = {i["id"]: i for i in cov["items"]}
    assert by_id["q1"]["covered"] and by_id["q1"]["evidence"] == 2 and by_id["q1"]["sources"] == 2
    assert not by_id["q2"]["covered"] and by_id["q2"]["evidence"] == 1  # one sentence is not enough
    assert not by_id["q3"]["covered"] and by_id["q3"]["evidence"] == 0
    assert cov["score"] == pytest.approx(3 / 6, abs=1e-3)  # priority-weighted: high 3, medium 2, low 1
    assert set(cov) >= {"score", "rounds", "stopped_because", "items"}
    assert set(cov["items"][0]) >= {"id", "question", "priority", "covered", "evidence"}
    # a later round adds to the hits: q2 gets its second sentence
    more = P.CoverageJudgement(matches=[P.SentenceMatch(sentence=1, answers=["q2"])])
    hits, _ = P.apply_matches(plan, [("s4", "Grants cover part of the cost.")], more, hits)
    cov = P.coverage_record(plan, hits, rounds=2, new_sentences=1, total_sentences=4, unjudged=0)
    assert cov["score"] == pytest.approx(5 / 6, abs=1e-3)
    table = P.coverage_table(cov, plan)
    assert "| q2 | medium | What does an air-source heat pump cost to install and run? | 2 | yes |" in table
    assert "| q3 | low | What do heat pumps cost in Japan? | 0 | no |" in table and "83%" in table
    limits = P.uncovered_limitations(cov)
    assert len(limits) == 1 and "What do heat pumps cost in Japan?" in limits[0] and "low priority" in limits[0]
    assert P.coverage_score([]) == 0.0


def test_the_stop_rules():
    def cfg(**kw):
        return Configuration(**kw)

    items = [{"id": "q1", "question": "?", "priority": "high", "covered": True, "evidence": 2}]
    covered = {"score": 1.0, "items": items, "rounds": 2, "new_sentences": 5, "total_sentences": 9}
    assert coverage_stop(cfg(), {"coverage": covered, "research_iterations": 2}) == "coverage"
    assert coverage_stop(cfg(min_coverage=0), {"coverage": covered, "research_iterations": 2}) is None
    part = {**covered, "score": 0.6}
    assert coverage_stop(cfg(min_coverage=0.6), {"coverage": part, "research_iterations": 2}) == "coverage"
    assert coverage_stop(cfg(min_coverage=1.0), {"coverage": part, "research_iterations": 2}) is None
    # the plateau: a research round that added fewer new verified sentences than N
    flat = {**part, "new_sentences": 1, "total_sentences": 9}
    assert coverage_stop(cfg(min_coverage=1.0), {"coverage": flat, "research_iterations": 2}) == "plateau"
    assert coverage_stop(cfg(min_coverage=1.0, plateau_min_new_sentences=1),
                         {"coverage": flat, "research_iterations": 2}) is None
    assert coverage_stop(cfg(min_coverage=1.0, plateau_min_new_sentences=0),
                         {"coverage": {**flat, "new_sentences": 0}, "research_iterations": 2}) is None
    # not after a round without research (a refine only), nor after a first round that found nothing
    assert coverage_stop(cfg(min_coverage=1.0), {"coverage": flat, "research_iterations": 3}) is None
    first = {**flat, "rounds": 1, "new_sentences": 0, "total_sentences": 0}
    assert coverage_stop(cfg(min_coverage=1.0), {"coverage": first, "research_iterations": 1}) is None
    # without a plan, coverage never stops research (score 0 of no items)
    no_plan = {"score": 0.0, "items": [], "rounds": 1, "new_sentences": 8, "total_sentences": 8}
    assert coverage_stop(cfg(min_coverage=0.0001), {"coverage": no_plan, "research_iterations": 1}) is None


def test_summary_cut_keeps_at_most_n_messages_and_never_splits_a_tool_call():
    def round_(n):
        call = tool_call("ConductResearch", topic=f"t{n}")
        return [AIMessage("", tool_calls=[call]), ToolMessage(f"r{n}", tool_call_id=call["id"])]

    history = round_(1) + round_(2) + round_(3)  # 6 messages
    assert summary_cut(history, 2) == 4 and summary_cut(history, 4) == 2
    assert summary_cut(history, 3) == 4  # index 3 is a tool result: the cut moves on to the next call
    assert summary_cut(history, 1) == 4  # the last round is always kept
    assert summary_cut(history, 10) == 0


# --- end to end -----------------------------------------------------------------------------------
def test_the_plan_is_in_the_approval_payload_the_chat_and_a_revision_keeps_it(corpus, tmp_path):
    script = script_for(SUBS)
    revised = {"research_brief": BRIEF + " Focus on Europe.", "sub_questions": [*SUBS, JAPAN]}
    own = Script()
    own.on("research", "A human reviewer rejected", structured("ResearchQuestion", research_brief=BRIEF + " Shorter."),
           structured("ResearchQuestion", **revised), name="revise")
    script.rules = own.rules + script.rules
    revise_prompts: list[str] = []
    script.rules[0]["responses"] = type(script.rules[0]["responses"])(
        recording(revise_prompts, r) for r in script.rules[0]["responses"])
    graph = graph_for(script, corpus)
    ctx = context(tmp_path, require_brief_approval=True, max_researcher_iterations=1)

    async def scenario():
        state = await drive(graph, start(), ctx)
        payload = state.interrupts[0].value
        assert payload["research_plan"]["sub_questions"] == [{"id": "q1", **SUBS[0]}, {"id": "q2", **SUBS[1]}]
        assert payload["research_plan"]["time_scope"] == "2015 to today"
        assert "- q1 [high] How efficient are heat pumps in cold weather?" in payload["research_brief"]
        chat = state.values["messages"][-1]
        assert chat.name == "brief" and "q2 [medium]" in chat.content and "Entities:" in chat.content
        # a revision without plan fields keeps the plan (text and state agree)
        state = await drive(graph, Command(resume={"type": "reject", "feedback": "Shorter."}), ctx)
        payload = state.interrupts[0].value
        assert "Shorter." in payload["research_brief"] and "q2 [medium]" in payload["research_brief"]
        assert len(payload["research_plan"]["sub_questions"]) == 2
        assert payload["research_brief"].count(P.PLAN_HEADING) == 1
        # the reviser saw the brief and the plan apart (the plan once)
        assert revise_prompts[0].count(P.PLAN_HEADING) == 1
        # a revision with a plan replaces it
        state = await drive(graph, Command(resume={"type": "reject", "feedback": "Add Japan."}), ctx)
        payload = state.interrupts[0].value
        assert [s["id"] for s in payload["research_plan"]["sub_questions"]] == ["q1", "q2", "q3"]
        assert "q3 [low] What do heat pumps cost in Japan?" in payload["research_brief"]
        return await drive(graph, Command(resume={"type": "approve"}), ctx)

    state = asyncio.run(scenario())
    assert state.values["status"] == "completed", state.values.get("errors")
    assert len(state.values["research_plan"]["sub_questions"]) == 3


def test_research_stops_early_on_coverage(corpus, tmp_path):
    researcher_prompts: list[str] = []
    script = script_for(SUBS, NEVER_DONE)
    for rule in script.rules:  # record what the researchers are told
        if rule["contains"].startswith("Research this topic:"):
            rule["responses"] = type(rule["responses"])([recording(researcher_prompts, rule["responses"][0])])
    graph = graph_for(script, corpus)
    updates: list = []
    state = asyncio.run(drive(graph, start(), context(tmp_path, max_researcher_iterations=4), updates=updates))
    v = state.values
    assert v["status"] == "completed", v.get("errors")
    cov = v["coverage"]
    assert cov["stopped_because"] == "coverage" and cov["score"] == 1.0
    assert v["research_iterations"] == 1 and rounds_run(script) == 1  # fewer rounds than the maximum of 4
    assert all(i["covered"] and i["evidence"] >= P.COVERED_MIN_SENTENCES for i in cov["items"])
    assert script.log.count(("research", "coverage")) == 1  # one batched call for the round
    # no limitation about research stopping at its limits
    assert not any("maximum" in d["message"] for d in v.get("degradations") or [])
    # the researchers were told the plan's entities, time scope and ambiguous names
    assert researcher_prompts and all("Norway" in p and "2015 to today" in p and "cold climates" in p
                                      for p in researcher_prompts)


def test_research_stops_on_a_plateau(corpus, tmp_path):
    """No plan: the same topic every round finds no new verified sentences in round 2."""
    same = calls(tool_call("ConductResearch", topic=TOPIC_EFFICIENCY))
    script = script_for(None, {n: same for n in range(1, 7)}, analysis=False)
    graph = graph_for(script, corpus)
    state = asyncio.run(drive(graph, start(), context(tmp_path, max_researcher_iterations=5)))
    v = state.values
    assert v["status"] == "completed", v.get("errors")
    cov = v["coverage"]
    assert cov["stopped_because"] == "plateau"
    assert v["research_iterations"] == 2 and rounds_run(script) == 2
    assert cov["new_sentences"] == 0 and cov["total_sentences"] > 0 and cov["items"] == []
    assert ("research", "coverage") not in script.log  # no plan: nothing to judge
    # with the plateau rule off, the same run goes on to its round limit
    script = script_for(None, {n: same for n in range(1, 7)}, analysis=False)
    state = asyncio.run(drive(graph_for(script, corpus), start(),
                              context(tmp_path, max_researcher_iterations=3, plateau_min_new_sentences=0)))
    assert state.values["coverage"]["stopped_because"] == "limits"
    assert state.values["research_iterations"] == 3


def test_uncovered_sub_questions_are_in_the_report_limitations_and_the_supervisor_sees_the_table(corpus, tmp_path):
    prompts: list[str] = []
    script = script_for([*SUBS, JAPAN], {
        1: recording(prompts, BOTH_TOPICS),
        2: recording(prompts, calls(tool_call("ResearchComplete"))),
    })
    graph = graph_for(script, corpus)
    state = asyncio.run(drive(graph, start(), context(tmp_path, min_coverage=1.0)))
    v = state.values
    assert v["status"] == "completed", v.get("errors")
    cov = v["coverage"]
    assert cov["stopped_because"] is None  # the supervisor decided
    assert [i["covered"] for i in cov["items"]] == [True, True, False]
    assert cov["score"] == pytest.approx(5 / 6, abs=1e-3)
    # round 1: nothing covered yet; round 2: the table after round 1
    assert "| q3 | low | What do heat pumps cost in Japan? | 0 | no |" in prompts[0]
    assert re.search(r"\| q1 \| high \| [^|]+ \| [2-9]\d* \| yes \|", prompts[1])
    assert "| q3 | low | What do heat pumps cost in Japan? | 0 | no |" in prompts[1]
    # the report's limitations list it, written by code
    report = v["final_report"]
    limits = report[report.index("## Limitations"):]
    assert "What do heat pumps cost in Japan?" in limits
    assert "How efficient are heat pumps" not in limits
    assert "What do heat pumps cost in Japan?" in Path(v["outputs"]["markdown"]).read_text()


@pytest.mark.parametrize("answer", [
    structured("CoverageJudgement", matches="sentence one answers q1"),  # malformed: not a list
    RuntimeError("the model is down"),
])
def test_a_failed_coverage_judgement_degrades_without_failing_the_run(corpus, tmp_path, answer):
    script = script_for(SUBS, coverage=answer)
    graph = graph_for(script, corpus)
    state = asyncio.run(drive(graph, start(), context(tmp_path, retry_backoff_s=0.001, max_retries=0)))
    v = state.values
    assert v["status"] == "completed", v.get("errors")
    cov = v["coverage"]
    assert cov["unjudged"] > 0 and cov["score"] == 0.0 and cov["stopped_because"] is None
    assert all(not i["covered"] for i in cov["items"])
    unknown = [d for d in v["degradations"] if d.get("kind") == "coverage_unknown"]
    assert len(unknown) == 1 and "coverage unknown" in unknown[0]["message"]
    report = v["final_report"]
    assert "could not be matched to the sub-questions" in report[report.index("## Limitations"):]


def test_supervisor_summarisation_folds_older_rounds_and_keeps_n_messages():
    """The fold itself: older messages summarised by the summarization model, the latest N
    kept word for word (a tool call with its results), state rewritten."""
    summaries: list[str] = []
    script = Script().on("summarization", "Summarise these earlier rounds",
                         recording(summaries, "SUMMARY: round one researched efficiency."), repeat=True)
    deps = Deps(model_factory=scripted_factory(script))
    nodes = SupervisorNodes(deps)
    ctx = NodeContext.make("supervisor", deps, {"configurable": {"thread_id": "t"}},
                           SimpleNamespace(context={"supervisor_messages_to_keep": 3}))

    def round_(n):
        think, research = tool_call("think_tool", reflection=f"r{n}"), tool_call("ConductResearch", topic=f"T{n}")
        return [AIMessage(f"PLAN{n}", tool_calls=[think, research]),
                ToolMessage("Reflection recorded.", tool_call_id=think["id"]),
                ToolMessage(f"FINDINGS{n}", tool_call_id=research["id"])]

    history = round_(1) + round_(2) + round_(3)
    kept, summary, update = asyncio.run(nodes._fold_history(ctx, history, "EARLIER SUMMARY"))
    assert kept == history[6:] and len(kept) == 3
    assert summary == "SUMMARY: round one researched efficiency." == update["supervisor_summary"]
    assert isinstance(update["supervisor_messages"][0], RemoveMessage) and update["supervisor_messages"][1:] == kept
    assert "PLAN1" in summaries[0] and "FINDINGS2" in summaries[0] and "PLAN3" not in summaries[0]
    assert "EARLIER SUMMARY" in summaries[0]  # the running summary is carried on
    # a failed summary keeps the earlier one, says what was dropped, and records it
    script.rules.clear()
    kept, summary, update = asyncio.run(nodes._fold_history(ctx, history, "EARLIER SUMMARY"))
    assert len(kept) == 3 and summary.startswith("EARLIER SUMMARY") and "6 earlier message(s)" in summary
    assert update["degradations"][0]["stage"] == "supervisor"


def test_supervisor_summarisation_triggers_in_a_run(corpus, tmp_path):
    prompts: list[str] = []
    script = script_for(None, {
        1: recording(prompts, calls(tool_call("think_tool", reflection="efficiency first"),
                                    tool_call("ConductResearch", topic=TOPIC_EFFICIENCY),
                                    content="ROUNDONE " * 1200)),  # ~10,800 characters: over 2,000 tokens
        2: recording(prompts, calls(tool_call("think_tool", reflection="costs next"),
                                    tool_call("ConductResearch", topic=TOPIC_COSTS), content="ROUNDTWO " * 1200)),
        3: recording(prompts, calls(tool_call("ResearchComplete"))),
    }, analysis=False)
    summaries: list[str] = []
    own = Script().on("summarization", "Summarise these earlier rounds",
                      recording(summaries, "SUMMARY-OF-ROUND-ONE: efficiency researched."), repeat=True)
    script.rules = own.rules + script.rules
    # the tiny corpus gives round 2 no new sentences: the plateau stop is off to reach round 3
    ctx = context(tmp_path, summarize_after_tokens=2000, plateau_min_new_sentences=0, supervisor_messages_to_keep=3,
                  max_researcher_iterations=5)
    state = asyncio.run(drive(graph_for(script, corpus), start(), ctx))
    assert state.values["status"] == "completed", state.values.get("errors")
    # round 2 had one round of history (nothing to fold); round 3 folded round 1 and kept round 2's 3 messages
    assert len(summaries) == 1 and "ROUNDONE" in summaries[0] and "ROUNDTWO" not in summaries[0]
    assert "SUMMARY-OF-ROUND-ONE" in prompts[2] and "ROUNDTWO" in prompts[2] and "ROUNDONE" not in prompts[2]
    assert "SUMMARY-OF-ROUND-ONE" not in prompts[1]
    # switched off: no summary call, whatever the history's size
    script = script_for(None, {
        1: calls(tool_call("ConductResearch", topic=TOPIC_EFFICIENCY), content="ROUNDONE " * 1200),
        2: calls(tool_call("ConductResearch", topic=TOPIC_COSTS), content="ROUNDTWO " * 1200),
        3: calls(tool_call("ResearchComplete")),
    }, analysis=False)
    state = asyncio.run(drive(graph_for(script, corpus), start(), {**ctx, "supervisor_summarize": False}))
    assert state.values["status"] == "completed"
    assert not any(role == "summarization" and "earlier rounds" in name for role, name in script.log)


def test_compression_summarises_older_reasoning_and_keeps_the_sentences(corpus, tmp_path):
    # the last reasoning message is long (~12,000 characters), so the researcher's own history
    # is never folded (it is checked before each step) but compression's material is
    thought = "THOUGHT " * 1500
    steps = {"n": 0}

    def researcher(messages):
        steps["n"] += 1
        if steps["n"] <= 3:
            return calls(tool_call("search", query=["heat pump cold", "heat pump cost", "norway"][steps["n"] - 1]),
                         content=f"STEP{steps['n']}: searching next.")
        return "LAST STEP: enough evidence. " + thought

    script = script_for(None, {1: calls(tool_call("ConductResearch", topic=TOPIC_EFFICIENCY)),
                               2: calls(tool_call("ResearchComplete"))}, analysis=False)
    own = Script()
    own.on("research", f"Research this topic: {TOPIC_EFFICIENCY}", researcher, repeat=True, name="researcher")
    reasoning: list[str] = []
    own.on("summarization", "Summarise a researcher's notes", recording(reasoning, "REASONING-SUMMARY"),
           repeat=True, name="reasoning summary")
    compress_prompts: list[str] = []
    original = next(r for r in script.rules if r["role"] == "compression")["responses"][0]
    own.on("compression", "You condense a researcher's work", recording(compress_prompts, original), repeat=True)
    script.rules = own.rules + script.rules
    state = asyncio.run(drive(graph_for(script, corpus), start(), context(
        tmp_path, summarize_after_tokens=200_000, compression_messages_to_keep=2)))
    assert state.values["status"] == "completed", state.values.get("errors")
    assert not reasoning  # under the threshold: compression sees everything
    assert "STEP1" in compress_prompts[0]
    # over the threshold: the older reasoning is summarised, the last two messages and every
    # source block stay word for word
    script2 = script_for(None, {1: calls(tool_call("ConductResearch", topic=TOPIC_EFFICIENCY)),
                                2: calls(tool_call("ResearchComplete"))}, analysis=False)
    steps["n"] = 0
    compress_prompts.clear()
    script2.rules = own.rules + script2.rules
    state = asyncio.run(drive(graph_for(script2, corpus), start(), context(
        tmp_path, summarize_after_tokens=2000, compression_messages_to_keep=2), thread="t2"))
    assert state.values["status"] == "completed", state.values.get("errors")
    assert len(reasoning) == 1 and "STEP1" in reasoning[0] and "STEP2" in reasoning[0]
    prompt = compress_prompts[0]
    assert "REASONING-SUMMARY" in prompt and "STEP1" not in prompt and "STEP3" in prompt and "LAST STEP" in prompt
    assert prompt.count('<source id="') >= 3 and "Exact sentences" in prompt
    assert "<ref id=" in state.values["notes"][0]["findings"]


# --- the CLI ---------------------------------------------------------------------------------------
def test_cli_options_map_to_settings_and_the_coverage_is_printed():
    from deep_research.cli.research import coverage_lines
    from deep_research.cli.settings import context_from_options

    ctx = context_from_options(min_coverage=0.5, plateau=0, supervisor_summarize=False, supervisor_keep=8,
                                compression_summarize=True, compression_keep=3)
    assert ctx == {"min_coverage": 0.5, "plateau_min_new_sentences": 0, "supervisor_summarize": False,
                   "supervisor_messages_to_keep": 8, "compression_summarize": True,
                   "compression_messages_to_keep": 3}
    Configuration.resolve(None, ctx, environ={})  # every value is a valid setting
    assert context_from_options(min_coverage=None, supervisor_summarize=None) == {}
    plan = P.plan_from(ResearchQuestion(research_brief=BRIEF, sub_questions=[*SUBS, JAPAN]))
    cov = P.coverage_record(plan, {"q1": ["a", "b"], "q2": ["a", "c"]}, rounds=2, new_sentences=1,
                            total_sentences=4, unjudged=0, stopped_because="plateau")
    lines = coverage_lines(cov)
    assert lines[0].startswith("Coverage: 83% of the research plan (2 of 3 sub-questions covered); research "
                               "stopped after 2 research round(s): a round added too few new verified sentences")
    assert "not covered: q3 [low] What do heat pumps cost in Japan?" in lines[1] and len(lines) == 2
    assert coverage_lines({}) == []
    assert "the supervisor judged" in coverage_lines({**cov, "items": [], "stopped_because": None})[0]


def test_cli_research_accepts_the_options_and_prints_the_stop_reason(tmp_path):
    from tests.cli.test_research import SCRIPTED, run

    corpus = write_corpus(tmp_path / "corpus")
    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--yes", "--no-pdf",
            "--db", tmp_path / "state.sqlite", "--min-coverage", "0.9", "--plateau", "3",
            "--no-supervisor-summarize", "--supervisor-keep", "4", "--compression-keep", "2", env=SCRIPTED)
    assert r.returncode == 0, r.stdout + r.stderr
    # two supervisor rounds: the first sent researchers, the second judged the research complete
    assert "research stopped after 2 research round(s): the supervisor judged the research complete." in r.stdout
    r = run("research", QUESTION, "--corpus", corpus, "--min-coverage", "1.5", env=SCRIPTED)
    assert r.returncode == 2 and "--min-coverage: must be at most 1" in r.stderr


def test_a_follow_up_starts_a_new_plan_and_run_json_records_plan_and_coverage():
    from deep_research.research.runtime.run_folder import run_record
    from deep_research.research.scope.clarify import follow_up_update

    plan = P.plan_from(ResearchQuestion(research_brief=BRIEF, sub_questions=SUBS))
    cov = P.coverage_record(plan, {"q1": ["a", "b"]}, rounds=1, new_sentences=2, total_sentences=2, unjudged=0,
                            stopped_because="coverage")
    state = {"question": QUESTION, "research_plan": plan, "coverage": cov, "notes": [], "status": "completed"}
    reset = follow_up_update(state)
    assert reset["research_plan"] == P.empty_plan() and reset["coverage"] == {}
    record = run_record(Configuration(), state, "t")
    assert record["research_plan"] == plan and record["coverage"]["stopped_because"] == "coverage"


# --- objectives, methodology, success criteria, intent and query disambiguation (issue 21) -------------
FULL_PLAN = {
    "objectives": ["Tell whether a heat pump suits a house in a cold climate", " ", "Estimate its costs"],
    "methodology": ["Read manufacturers' data and field studies", "Compare installation and running costs"],
    "success_criteria": [{"criterion": "Efficiency below -15 °C is stated with a source", "sub_questions": [1]},
                         {"criterion": "Costs are given for both install and running", "sub_questions": ["q2", 9]},
                         {"criterion": "The report reads well", "sub_questions": []}],
    "intent": "Recommendation",
    "ambiguities": [{"term": "heat pump", "resolved_as": "an air-source heat pump heating a house",
                     "search_hint": "house heating system extra words"}],
}


def test_the_plan_carries_objectives_methodology_criteria_and_intent():
    plan = P.plan_from(ResearchQuestion(research_brief=BRIEF, sub_questions=SUBS, **FULL_PLAN))
    assert plan["objectives"] == ["Tell whether a heat pump suits a house in a cold climate", "Estimate its costs"]
    assert plan["methodology"] == FULL_PLAN["methodology"] and plan["intent"] == "recommendation"
    # criteria get ids; sub-questions named by number or id map to ids, an unknown number is dropped
    assert plan["success_criteria"] == [
        {"id": "c1", "criterion": "Efficiency below -15 °C is stated with a source", "sub_questions": ["q1"]},
        {"id": "c2", "criterion": "Costs are given for both install and running", "sub_questions": ["q2"]},
        {"id": "c3", "criterion": "The report reads well", "sub_questions": []}]
    assert plan["ambiguities"][0]["search_hint"] == "house heating system extra"  # at most 4 words
    assert P.plan_from(ResearchQuestion(research_brief=BRIEF, intent="a deep dive"))["intent"] == "other"
    text = P.with_plan(BRIEF, plan)
    for part in ("Objectives:\n- Tell whether", "Methodology:\n1. Read manufacturers'",
                 "Success criteria:\n- c1 Efficiency below -15 °C is stated with a source (met when q1 is covered)",
                 "- c3 The report reads well\n", "Query analysis:\nIntent: recommendation",
                 '"heat pump" means: an air-source heat pump heating a house (searches that name it add "house'):
        assert part in text, part
    assert text.index("Objectives:") < text.index("Sub-questions") < text.index("Methodology:") \
        < text.index("Success criteria:") < text.index("Query analysis:")
    assert P.brief_text(text) == BRIEF and P.with_plan(text, plan) == text


def test_success_criteria_are_met_by_covered_sub_questions_and_hold_the_coverage_stop():
    plan = P.plan_from(ResearchQuestion(research_brief=BRIEF, sub_questions=SUBS, **FULL_PLAN))
    cov = P.coverage_record(plan, {"q1": ["s1", "s2"], "q2": ["s3"]}, rounds=1, new_sentences=3,
                            total_sentences=3, unjudged=0)
    assert [(c["id"], c["met"]) for c in cov["criteria"]] == [("c1", True), ("c2", False), ("c3", None)]
    assert not P.criteria_met(cov) and P.criteria_met({"criteria": []}) and P.criteria_met(None)
    assert "- c2 [not met] Costs are given" in P.coverage_table(cov, plan)
    assert "Success criterion not met: Costs are given for both install and running (it needs q2 covered)" \
        in P.uncovered_limitations(cov)
    # 60% of the weight is covered: enough for min_coverage 0.5, but a criterion is not met yet
    state = {"coverage": cov, "research_iterations": 1}
    assert cov["score"] == pytest.approx(0.6) and coverage_stop(Configuration(min_coverage=0.5), state) is None
    done = P.coverage_record(plan, {"q1": ["s1", "s2"], "q2": ["s3", "s4"]}, rounds=2, new_sentences=1,
                             total_sentences=4, unjudged=0)
    assert coverage_stop(Configuration(min_coverage=0.5), {"coverage": done, "research_iterations": 2}) == "coverage"


def test_search_queries_are_disambiguated_by_code_from_the_plan():
    hints = [("heat pump", "house heating"), ("COP", "coefficient of performance")]
    assert P.disambiguated_query("heat pump cost Norway", hints) == "heat pump cost Norway house heating"
    assert P.disambiguated_query("Heat-Pump COP in the cold", hints) == \
        "Heat-Pump COP in the cold house heating coefficient of performance"
    assert P.disambiguated_query("house heat pump", hints) == "house heat pump"  # a word of the hint is there
    assert P.disambiguated_query("heatpump prices", hints) == "heatpump prices"  # not the term as whole words
    assert P.disambiguated_query("copper prices", hints) == "copper prices"
    assert P.search_hints({"ambiguities": [{"term": "a", "resolved_as": "b"}]}) == []


def test_the_full_plan_reaches_the_approval_payload_the_chat_the_researchers_and_the_searches(corpus, tmp_path):
    script = script_for(SUBS, {1: BOTH_TOPICS, 2: calls(tool_call("ResearchComplete"))}, analysis=False)
    own = Script()
    own.on("research", "Turn the conversation into a research brief",
           structured("ResearchQuestion", research_brief=BRIEF, sub_questions=SUBS, **FULL_PLAN), repeat=True)
    script.rules = own.rules + script.rules
    researcher_prompts: list[str] = []
    for rule in script.rules:
        if rule["contains"].startswith("Research this topic:"):
            rule["responses"] = type(rule["responses"])([recording(researcher_prompts, rule["responses"][0])])
    searched: list[str] = []
    corpus_search = LocalCorpus.open(corpus)

    class Recording:
        name = "local"

        async def search(self, query, *, max_results=5):
            searched.append(query)
            return await corpus_search.search(query, max_results=max_results)

    deps = Deps(model_factory=scripted_factory(script), search_factory=lambda cfg: Recording())
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    ctx = context(tmp_path, require_brief_approval=True, max_researcher_iterations=2)

    async def scenario():
        state = await drive(graph, start(), ctx)
        payload = state.interrupts[0].value
        plan = payload["research_plan"]
        assert plan["objectives"] and plan["methodology"] and plan["intent"] == "recommendation"
        assert [c["id"] for c in plan["success_criteria"]] == ["c1", "c2", "c3"]
        for part in ("Objectives:", "Methodology:", "Success criteria:", "Intent: recommendation"):
            assert part in payload["research_brief"] and part in state.values["messages"][-1].content
        return await drive(graph, Command(resume={"type": "approve"}), ctx)

    state = asyncio.run(scenario())
    v = state.values
    assert v["status"] == "completed", v.get("errors")
    assert [c["id"] for c in v["coverage"]["criteria"]] == ["c1", "c2", "c3"]
    # every researcher was told the intent and the reading; the corpus saw the disambiguated queries
    assert researcher_prompts and all("Intent: recommendation" in p and "house heating" in p
                                      for p in researcher_prompts)
    assert searched and all(q.endswith(" house heating system extra") for q in searched if "heat pump" in q)
    assert any("heat pump" in q for q in searched)
    assert any("(Searched as 'heat pump" in p for p in researcher_prompts)  # the researcher is told
    tool_results = [m.content for m in v.get("messages") or [] if "Searched as" in str(m.content)]
    assert not tool_results  # the notice is for the researcher, never a chat message

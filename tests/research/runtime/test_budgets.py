"""Budgets: max_total_tokens and max_cost_usd.

The scripted model reports more tokens on every call (usage grows as the run goes on). A
supervisor that never declares the research complete and researchers that keep searching
would run until the round and tool-call limits; the caps must stop them earlier and
gracefully: the supervisor stops starting research, each research unit stops at its share,
the report is still written from what was gathered and says research stopped early, the
run completes, and state says budget_exhausted. The cost cap prices tokens with
pricing.PRICES_PER_MTOK (the test model reports a priced model name).
"""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command

from deep_research.research.runtime import pricing
from deep_research.research.runtime.deps import Deps
from deep_research.research.runtime.failure import ResearchFailed
from deep_research.research.graph import make_graph
from deep_research.search.local import LocalCorpus, build_index
from tests.support.faults import (
    BRIEF,
    FaultPlan,
    FaultySearch,
    compress,
    faulty_factory,
    write_fault_corpus,
)
from tests.support.scenario import QUESTION, final_report, fix_citation, judge_claims, summarise_page
from tests.support.scripted import Script, calls, prompt_text, structured, tool_call

QUERIES = ["heat pump coefficient of performance cold", "heat pump installation cost euros",
           "cold climate heat pumps Norway", "heat pump running costs electricity gas",
           "backup resistance heater coldest days", "heat pump grants installation"]
MAX_CALLS = 6
PRICED = "gpt-test-priced"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    folder = write_fault_corpus(tmp_path_factory.mktemp("budgets") / "corpus")
    build_index(folder, base_url="http://127.0.0.1:8765/")
    return folder


def tireless_researcher(messages):
    """Searches again after every result, a new query each time (stopped only by limits)."""
    done = sum(isinstance(m, ToolMessage) for m in messages)
    return calls(tool_call("search", query=QUERIES[done % len(QUERIES)]))


def tireless_supervisor(messages):
    """Never declares the research complete: two new topics every round."""
    text = prompt_text(messages)
    n = text.split("Round ", 1)[1].split(" ", 1)[0]
    return calls(tool_call("ConductResearch", topic=f"Round {n} topic A: heat pump efficiency in the cold"),
                 tool_call("ConductResearch", topic=f"Round {n} topic B: heat pump costs in Europe"))


def budget_script(final_prompts: list[str]) -> Script:
    s = Script()
    s.on("research", "Turn the conversation into a research brief",
         structured("ResearchQuestion", research_brief=BRIEF), repeat=True)
    s.on("final_report", "Write a first draft", "# Heat pumps\n\nDraft [to verify].", repeat=True)
    s.on("research", "You lead a research team", tireless_supervisor, repeat=True)
    s.on("research", "Research this topic:", tireless_researcher, repeat=True)
    s.on("summarization", "Summarise this page for a researcher", summarise_page, repeat=True)
    s.on("compression", "You condense a researcher's work", compress, repeat=True)
    write = final_report(wrong_quote=False)

    def report(messages):
        final_prompts.append(prompt_text(messages))
        return write(messages)

    s.on("final_report", "Write the final research report", report, repeat=True)
    s.on("citation_check", "A citation in a research report failed the check", fix_citation, repeat=True)
    s.on("citation_check", "You check a research report's claims", judge_claims(), repeat=True)
    return s


def growing_usage():
    """The n-th call reports 600 + 40·n input tokens and 100 output tokens."""
    counter = itertools.count(1)

    def usage(role, messages, reply):
        return 600 + 40 * next(counter), 100

    return usage


def run(corpus: Path, tmp_path: Path, allow_failure: bool = False, resumed: dict | None = None, **context):
    """The question run with ``context``. ``resumed``: the run asks for the brief's approval,
    and another run, with ``resumed`` instead of ``context``, approves it (a server's client
    resuming a thread, each run with its own settings)."""
    final_prompts: list[str] = []
    script = budget_script(final_prompts)
    plan = FaultPlan()
    search = FaultySearch(LocalCorpus.open(corpus), plan)
    deps = Deps(model_factory=faulty_factory(script, plan, usage=growing_usage(), model_name=PRICED),
                search_factory=lambda cfg: search)
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    config = {"configurable": {"thread_id": "budget"}}
    base = {"allow_clarification": False, "search_api": "local", "write_pdf": False, "output_dir": str(tmp_path),
            "max_researcher_iterations": 3, "max_react_tool_calls": MAX_CALLS, "retry_backoff_s": 0.001,
            # the tireless researcher repeats its queries every round: each one must reach the
            # search here (these tests count calls against the limits), so no query dedupe
            "query_dedupe_threshold": 0}
    ctx = {**base, **context, **({"require_brief_approval": True} if resumed is not None else {})}

    async def go():
        error = None
        try:
            async for _ in graph.astream({"messages": [HumanMessage(QUESTION)]}, config, context=ctx,
                                         stream_mode="updates", subgraphs=True):
                pass
            if resumed is not None:
                assert (await graph.aget_state(config)).next == ("approve_research_brief",)
                async for _ in graph.astream(Command(resume={"type": "approve"}), config,
                                             context={**base, **resumed}, stream_mode="updates", subgraphs=True):
                    pass
        except ResearchFailed as e:
            error = e
        return await graph.aget_state(config), error

    (state, error) = asyncio.run(go())
    if error is not None and not allow_failure:
        raise error
    return state, script, search, final_prompts, error


def rounds_run(script: Script) -> int:
    return sum(1 for role, name in script.log if name == "You lead a research team")


def test_without_a_cap_research_runs_to_the_round_and_tool_call_limits(corpus, tmp_path):
    # the tiny corpus gives later rounds no new sentences: the plateau stop is off to reach the limits
    state, script, search, _, _ = run(corpus, tmp_path, plateau_min_new_sentences=0)
    v = state.values
    assert v["status"] == "completed" and not v.get("budget_exhausted")
    assert rounds_run(script) == 3
    assert len(search.queries) == 3 * 2 * MAX_CALLS


def test_token_cap_stops_research_and_the_report_says_so(corpus, tmp_path):
    cap = 20_000
    state, script, search, final_prompts, _ = run(corpus, tmp_path, max_total_tokens=cap)
    v = state.values
    assert v["status"] == "completed" and v["budget_exhausted"] is True
    # the supervisor stopped starting research, before its round limit
    assert rounds_run(script) < 3
    stopped = [d for d in v["degradations"] if d["message"].startswith("research stopped early: token budget reached")]
    assert len(stopped) == 1 and stopped[0]["stage"] == "supervisor"
    # the research units stopped at their share, well before their tool-call limit
    shares = [d for d in v["degradations"] if d["message"] == "research unit stopped at its share of the token budget"]
    assert shares
    assert len(search.queries) < rounds_run(script) * 2 * MAX_CALLS
    # what was gathered is reported, and the report says research stopped early
    assert v["notes"] and Path(v["outputs"]["markdown"]).is_file()
    assert "research stopped early: token budget reached" in final_prompts[0]  # the model was told
    report = v["final_report"]
    assert "## Limitations" in report and "research stopped early: token budget reached" in report
    # the cap is a cap: no call that would pass it was made (from an estimate), research left
    # room for the report, and the whole run, report and checks included, stayed under it
    total = sum(u["input_tokens"] + u["output_tokens"] for u in v["usage"].values())
    assert total <= cap, total


def test_cost_cap_uses_the_price_table_and_counts_the_cost_before_research(corpus, tmp_path, monkeypatch):
    monkeypatch.setitem(pricing.PRICES_PER_MTOK, PRICED, (10.0, 30.0))  # USD per million tokens
    # every call costs about 600·10/1e6 + 100·30/1e6 ≈ $0.009, growing
    state, script, search, _, _ = run(corpus, tmp_path, max_cost_usd=0.2)
    v = state.values
    assert v["status"] == "completed" and v["budget_exhausted"] is True
    assert v["cost_before"] > 0  # brief and draft are counted
    assert any(d["message"].startswith("research stopped early: cost budget reached") for d in v["degradations"])
    assert any(d["message"] == "research unit stopped at its share of the cost budget" for d in v["degradations"])
    assert rounds_run(script) < 3 and len(search.queries) < rounds_run(script) * 2 * MAX_CALLS
    assert "research stopped early: cost budget reached" in v["final_report"]
    assert 0 < sum(u["cost_usd"] for u in v["usage"].values()) <= 0.2  # the cap is a cap


def test_a_budget_used_up_before_research_fails_clearly_instead_of_an_empty_report(corpus, tmp_path, monkeypatch):
    monkeypatch.setitem(pricing.PRICES_PER_MTOK, PRICED, (10.0, 30.0))
    # brief and draft alone cost about $0.02: the call that would pass $0.01 is not made
    state, script, search, _, error = run(corpus, tmp_path, allow_failure=True, max_cost_usd=0.01)
    assert isinstance(error, ResearchFailed) and error.stage in ("write_research_brief", "write_draft_report")
    assert "was not made: it would pass the cost cap (max_cost_usd" in error.message
    assert sum(u["cost_usd"] for u in (state.values.get("usage") or {}).values()) <= 0.01
    assert rounds_run(script) == 0 and search.queries == []  # the supervisor never asked its model
    assert state.values.get("status") != "completed"
    # a chat shows it as a message, with advice that works there (retrying under the same cap would not)
    told = [m for m in state.values.get("messages") or [] if getattr(m, "name", None) == "error"]
    assert told and "Raise max_cost_usd in the run's settings" in told[-1].content


def test_a_unit_share_of_zero_is_a_cap_not_no_cap(corpus, tmp_path):
    """What is left after the brief and the draft does not cover a research round and writing
    the report: no supervisor call and no research unit is made, and the draft written so far
    is published as the report, saying why (nothing is lost, the cap holds)."""
    # brief and draft use ~1,500 tokens (under the cap); a round and the report need more than is left
    state, script, search, final_prompts, error = run(corpus, tmp_path, max_total_tokens=2_000)
    v = state.values
    assert error is None and v["status"] == "completed" and v["budget_exhausted"] is True
    assert rounds_run(script) == 0 and search.queries == [] and final_prompts == []
    report = v["final_report"]
    assert report.startswith("# Heat pumps\n\nDraft") and "this is the research draft as last refined" in report
    assert "token budget reached" in report and Path(v["outputs"]["markdown"]).is_file()
    assert sum(u["input_tokens"] + u["output_tokens"] for u in v["usage"].values()) <= 2_000


def test_a_report_the_cap_leaves_no_room_for_publishes_the_draft(corpus, tmp_path, monkeypatch):
    """Research under-reserved for the report (here: it reserved nothing and ran until the
    meter refused its calls): the writer's call would pass the cap, so it is not made; the
    draft as research last refined it is published, and the run completes within the cap."""
    from deep_research.research.gather import supervisor

    monkeypatch.setattr(supervisor, "writing_reserve", lambda cfg, state: (0, 0.0))
    monkeypatch.setattr(supervisor, "unit_floor", lambda cfg, state=None: (0, 0.0))
    cap = 14_000
    state, script, search, final_prompts, error = run(corpus, tmp_path, max_total_tokens=cap)
    v = state.values
    assert error is None and v["status"] == "completed"
    assert rounds_run(script) >= 1 and final_prompts == []  # research ran; the writer was never asked
    budget = [d for d in v["degradations"] if d.get("kind") == "budget"]
    assert len(budget) == 1 and "was not made: it would pass the token cap" in budget[0]["message"]
    assert "this is the research draft as last refined" in v["final_report"]
    assert Path(v["outputs"]["markdown"]).read_text(encoding="utf-8").strip()
    assert sum(u["input_tokens"] + u["output_tokens"] for u in v["usage"].values()) <= cap


def test_the_environment_caps_a_run_that_asks_for_more(corpus, tmp_path, monkeypatch):
    """An operator's DEEP_RESEARCH_MAX_TOTAL_TOKENS is a ceiling: a run asking for a billion
    tokens gets the operator's budget, and its state records the clamp."""
    monkeypatch.setenv("DEEP_RESEARCH_MAX_TOTAL_TOKENS", "20000")
    state, script, search, _, _ = run(corpus, tmp_path, max_total_tokens=10**9)
    v = state.values
    assert v["status"] == "completed" and v["budget_exhausted"] is True
    assert any(d["message"].startswith("research stopped early: token budget reached")
               and "of 20,000 tokens used" in d["message"] for d in v["degradations"])
    clamped = [d for d in v["degradations"] if d.get("kind") == "clamped"]
    assert clamped == [{"stage": "configuration", "kind": "clamped", "message":
                        "max_total_tokens 1,000,000,000 is above the ceiling 20,000 set by "
                        "DEEP_RESEARCH_MAX_TOTAL_TOKENS: this run uses 20,000"}]
    assert "max_total_tokens" not in v["final_report"]  # a setting, not a limitation of the research


def test_a_cost_cap_charges_a_model_that_reports_no_price(corpus, tmp_path):
    """The configured models are priced (the run may start); the client reports a name the
    price table does not know. Under a cost cap its calls are charged at the highest price
    of the run's models, never at zero, so the cap still stops the research."""
    state, script, search, _, _ = run(corpus, tmp_path, max_cost_usd=0.8, research_model="openai:o1")
    v = state.values
    assert v["budget_exhausted"] is True
    assert any(d["message"].startswith("research stopped early: cost budget reached") for d in v["degradations"])
    cost = sum(u["cost_usd"] for u in v["usage"].values())
    tokens = sum(u["input_tokens"] * 15 + u["output_tokens"] * 60 for u in v["usage"].values()) / 1e6
    assert cost == pytest.approx(tokens, rel=1e-3)  # o1's price, the highest of the run's models


@pytest.mark.parametrize("resumed", [{}, {"max_total_tokens": 10**9}, {"max_total_tokens": None}],
                         ids=["omitted", "raised", "removed"])
def test_the_token_cap_a_question_started_with_holds_when_another_run_resumes_it(corpus, tmp_path, resumed):
    """On a LangGraph server the run that approves the brief is another run, with its own
    settings: a cap given when the question was asked fell back to none when the resume
    omitted it (a 4,000-token cap, 6,683 tokens used). The cap holds, and a resume that
    asks for more (or for none) does not raise it."""
    cap = 20_000
    state, script, search, _, _ = run(corpus, tmp_path, max_total_tokens=cap, resumed=resumed)
    v = state.values
    assert v["status"] == "completed" and v["budget_exhausted"] is True
    assert v["question_settings"]["max_total_tokens"] == cap
    assert any(d["message"].startswith("research stopped early: token budget reached")
               and "of 20,000 tokens used" in d["message"] for d in v["degradations"])
    assert sum(u["input_tokens"] + u["output_tokens"] for u in v["usage"].values()) <= cap


def test_a_resume_may_lower_the_cap_of_the_question(corpus, tmp_path):
    """Of two caps the stricter holds: one given by the resume only lowers it."""
    state, _, _, _, _ = run(corpus, tmp_path, max_total_tokens=40_000, resumed={"max_total_tokens": 15_000})
    v = state.values
    assert v["budget_exhausted"] is True
    assert sum(u["input_tokens"] + u["output_tokens"] for u in v["usage"].values()) <= 15_000

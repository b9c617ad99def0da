"""The brief council: several models review the research brief (approve, or revise with
reasons); a consensus threshold decides; bounded revision rounds; a failing member
abstains. Real graph runs with the scripted model (each council member is a model of its
own: roles brief_council_1, brief_council_2, ...)."""

import asyncio
import json
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command

from deep_research.errors import UserError
from deep_research.research.runtime.deps import Deps
from deep_research.research.runtime.configuration import Configuration
from deep_research.research.scope.council import tally
from deep_research.research.graph import make_graph
from deep_research.search.local import LocalCorpus, build_index
from tests.support.scenario import BRIEF, QUESTION, full_script, write_corpus
from tests.support.scripted import Script, prompt_text, scripted_factory, structured
from tests.cli.test_research import SCRIPTED, run

REVIEW = "You are one member of a council that reviews a research brief"
REVISE = "A council of reviewers asked for changes to this research brief"
MODELS = ["openai:judge-a", "openai:judge-b", "openai:judge-c"]


def approve():
    return structured("CouncilReview", verdict="approve", reasons=[])


def revise(*reasons):
    return structured("CouncilReview", verdict="revise", reasons=list(reasons))


@pytest.fixture()
def corpus(tmp_path) -> Path:
    folder = write_corpus(tmp_path / "corpus")
    build_index(folder, base_url="http://127.0.0.1:8765/")
    return folder


def council_script(*members) -> Script:
    """The scenario plus each member's answers in order (member i answers as role brief_council_i)."""
    s = full_script(wrong_quote=False)
    for i, answers in enumerate(members, 1):
        s.on(f"brief_council_{i}", REVIEW, *answers)
        s.rules.insert(i - 1, s.rules.pop())  # before the scenario's own (always approving) answers
    s.members = len(members)
    return s


def graph_for(corpus: Path, script: Script):
    deps = Deps(model_factory=scripted_factory(script), search_factory=lambda cfg: LocalCorpus.open(corpus))
    return make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())


async def _run(graph, payload, config, context):
    async for _ in graph.astream(payload, config, context=context, stream_mode="updates", subgraphs=True):
        pass
    return await graph.aget_state(config)


def research(corpus: Path, tmp_path: Path, script: Script, **context):
    graph = graph_for(corpus, script)
    ctx = {"search_api": "local", "output_dir": str(tmp_path / "reports"), "write_pdf": False,
           "brief_council_models": MODELS[:getattr(script, "members", 0)],
           **context}
    state = asyncio.run(_run(graph, {"messages": [HumanMessage(QUESTION)]}, {"configurable": {"thread_id": "c"}}, ctx))
    assert not state.next
    return state.values


def test_tally_counts_votes_cast_against_the_threshold():
    votes = [{"verdict": "approve"}, {"verdict": "revise"}, {"verdict": "abstain"}]
    assert tally(votes, 0.5) == {"approvals": 1, "votes_cast": 2, "abstentions": 1, "share": 0.5, "passed": True}
    assert tally(votes, 0.51)["passed"] is False
    assert tally([{"verdict": "abstain"}], 0.0)["passed"] is False  # no votes: no consensus


def test_no_council_by_default(corpus, tmp_path):
    script = full_script(wrong_quote=False)
    v = research(corpus, tmp_path, script)
    assert v["status"] == "completed" and "brief_council" not in v["usage"] and not v.get("brief_council")


def test_a_unanimous_council_approves_the_brief(corpus, tmp_path):
    script = council_script([approve()], [approve()], [approve()])
    v = research(corpus, tmp_path, script)
    assert v["status"] == "completed", v.get("errors")
    council = v["brief_council"]
    assert council["outcome"] == "approved" and council["revisions"] == 0 and len(council["rounds"]) == 1
    assert [x["verdict"] for x in council["rounds"][0]["votes"]] == ["approve"] * 3
    assert [x["model"] for x in council["rounds"][0]["votes"]] == MODELS
    assert v["research_brief"] == BRIEF
    assert REVISE[:40] not in [name for _, name in script.log]
    # council calls are metered and count before research (the run's token budget)
    assert v["usage"]["brief_council"]["calls"] == 3
    assert v["tokens_before"] >= v["usage"]["brief_council"]["input_tokens"]


def test_a_split_below_the_threshold_revises_the_brief_then_approves(corpus, tmp_path):
    seen: list[str] = []
    revised = "I want to know how heat pump efficiency holds up below -15 °C and what they cost. Report in English."

    def rewrite(messages):
        seen.append(prompt_text(messages))
        return structured("ResearchQuestion", research_brief=revised)

    script = council_script([approve(), approve()],
                            [revise("Say which temperatures count as cold."), approve()],
                            [revise("Name the cost components."), approve()])
    script.on("research", REVISE, rewrite)  # the scenario has no rule for it
    v = research(corpus, tmp_path, script, brief_council_threshold=0.6)
    assert v["status"] == "completed", v.get("errors")
    council = v["brief_council"]
    assert council["outcome"] == "approved" and council["revisions"] == 1
    first, second = council["rounds"]
    assert first["approvals"] == 1 and first["votes_cast"] == 3 and not first["passed"]
    assert second["approvals"] == 3 and second["passed"] and second["brief"] == revised
    # the brief was rewritten once, with the merged reasons of the members that asked for it
    [prompt] = seen
    assert "Say which temperatures count as cold." in prompt and "Name the cost components." in prompt
    assert BRIEF in prompt
    assert v["research_brief"] == revised == council["research_brief"]
    run_json = json.loads((Path(v["outputs"]["dir"]) / "run.json").read_text())
    assert run_json["brief_council"]["outcome"] == "approved" and run_json["research_brief"] == revised
    assert "brief_council" in v["usage"] and v["usage"]["brief_council"]["calls"] == 7  # 6 reviews, 1 rewrite


def test_at_the_most_rounds_research_proceeds_with_the_last_brief_on_record(corpus, tmp_path):
    from tests.support.scenario import final_report

    script = council_script([revise("Too vague.")] * 3, [revise("Missing costs.")] * 3)
    script.on("research", REVISE, structured("ResearchQuestion", research_brief="Brief v2."),
              structured("ResearchQuestion", research_brief="Brief v3."))
    report_prompts: list[str] = []

    def write(messages):
        report_prompts.append(prompt_text(messages))
        return final_report(wrong_quote=False)(messages)

    script.on("final_report", "Write the final research report", write)
    script.rules.insert(0, script.rules.pop())
    v = research(corpus, tmp_path, script, brief_council_max_rounds=2)
    assert v["status"] == "completed", v.get("errors")
    council = v["brief_council"]
    assert council["outcome"] == "unresolved" and council["revisions"] == 2 and len(council["rounds"]) == 3
    assert [r["brief"] for r in council["rounds"]] == [BRIEF, "Brief v2.", "Brief v3."]
    assert v["research_brief"] == "Brief v3."
    [d] = [d for d in v["degradations"] if d["stage"] == "brief_council"]
    assert d["kind"] == "unresolved_feedback" and "Too vague." in d["message"] and "Missing costs." in d["message"]
    assert "brief_council_max_rounds = 2" in d["message"]
    # the open reasons are a limitation the report writer is told about
    [prompt] = report_prompts
    assert "the council did not approve the research brief" in prompt and "Missing costs." in prompt


def test_no_revision_allowed_records_the_unresolved_brief(corpus, tmp_path):
    script = council_script([revise("Too vague.")])
    v = research(corpus, tmp_path, script, brief_council_max_rounds=0)
    assert v["brief_council"]["outcome"] == "unresolved" and v["research_brief"] == BRIEF
    assert REVISE[:40] not in [name for _, name in script.log]


def test_a_failing_member_abstains_and_the_others_decide(corpus, tmp_path):
    script = council_script([approve()], [RuntimeError("council server down")] * 3, [approve()])
    v = research(corpus, tmp_path, script, max_retries=0)
    assert v["status"] == "completed", v.get("errors")
    [rnd] = v["brief_council"]["rounds"]
    assert [x["verdict"] for x in rnd["votes"]] == ["approve", "abstain", "approve"]
    assert "council server down" in rnd["votes"][1]["error"]
    assert rnd["approvals"] == 2 and rnd["votes_cast"] == 2 and rnd["abstentions"] == 1 and rnd["passed"]
    [d] = [d for d in v["degradations"] if d["stage"] == "brief_council"]
    assert d["kind"] == "council_abstain" and "openai:judge-b" in d["message"]


def test_when_every_member_fails_the_brief_stands_on_record(corpus, tmp_path):
    script = council_script([RuntimeError("down")] * 3, [RuntimeError("down")] * 3)
    v = research(corpus, tmp_path, script, max_retries=0)
    assert v["status"] == "completed"
    assert v["brief_council"]["outcome"] == "no_votes" and v["research_brief"] == BRIEF
    kinds = sorted(d["kind"] for d in v["degradations"] if d["stage"] == "brief_council")
    assert kinds == ["council_abstain", "council_abstain", "council_no_votes"]


def test_the_human_sees_the_council_record_when_approving_the_brief(corpus, tmp_path):
    script = council_script([revise("Too vague.")] * 2, [approve()] * 2)
    script.on("research", REVISE, structured("ResearchQuestion", research_brief="Brief v2."))
    graph = graph_for(corpus, script)
    config = {"configurable": {"thread_id": "h"}}
    ctx = {"search_api": "local", "output_dir": str(tmp_path / "reports"), "write_pdf": False,
           "require_brief_approval": True, "brief_council_models": MODELS[:2], "brief_council_threshold": 1.0,
           "brief_council_max_rounds": 1}
    state = asyncio.run(_run(graph, {"messages": [HumanMessage(QUESTION)]}, config, ctx))
    payload = state.interrupts[0].value
    assert payload["research_brief"] == "Brief v2."
    assert payload["brief_council"]["outcome"] == "unresolved" and len(payload["brief_council"]["rounds"]) == 2
    # the chat's last brief turn is the one the council left
    assert "Brief v2." in state.values["messages"][-1].content
    state = asyncio.run(_run(graph, Command(resume={"type": "approve"}), config, ctx))
    assert state.values["status"] == "completed"


def test_council_settings():
    env = {"DEEP_RESEARCH_BRIEF_COUNCIL_MODELS": "openai:a, anthropic:b"}
    cfg = Configuration.resolve(environ=env)
    assert cfg.brief_council_models == ["openai:a", "anthropic:b"]
    assert cfg.council_spec(1)["provider"] == "anthropic" and cfg.council_spec(1)["role"] == "brief_council_2"
    cfg = Configuration.resolve(context={"brief_council_models": '["openai:x"]'}, environ={})
    assert cfg.brief_council_models == ["openai:x"]
    assert Configuration.resolve(environ={}).brief_council_models == []
    # council models obey the allow-list and, under a cost cap, need a price, like every model
    with pytest.raises(UserError, match="openai:judge-a .*brief_council_1_model.* is not allowed"):
        Configuration.resolve(context={"brief_council_models": ["openai:judge-a"]},
                              environ={"DEEP_RESEARCH_ALLOWED_MODELS": "openai:gpt-4.1*"})
    with pytest.raises(UserError, match="no price is known for openai:judge-a"):
        Configuration.resolve(context={"brief_council_models": ["openai:judge-a"], "max_cost_usd": 1.0}, environ={})
    priced = Configuration.resolve(context={"brief_council_models": ["openai:judge-a"], "max_cost_usd": 1.0,
                                            "model_prices": {"judge-a": [50.0, 100.0]}}, environ={})
    assert priced.fallback_price() == (50.0, 100.0)  # the dearest model of the run, the council's included
    with pytest.raises(UserError, match="brief_council_threshold"):
        Configuration.resolve(context={"brief_council_threshold": 1.5}, environ={})


def test_the_cli_runs_a_council(tmp_path):
    corpus = write_corpus(tmp_path / "corpus")
    r = run("research", QUESTION, "--corpus", corpus, "--out", tmp_path / "reports", "--yes", "--no-pdf",
            "--council", "openai:judge-a,openai:judge-b", "--council-threshold", "0.5", "--council-max-rounds", "1",
            "--db", tmp_path / "state.sqlite", env=SCRIPTED)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Brief council: approved after 0 revision(s); last round 2 of 2 vote(s) approved" in r.stdout


def test_a_council_member_that_cannot_be_built_is_a_setup_mistake_reported_before_any_cost(tmp_path):
    r = run("research", "What is tea?", "--search", "none", "--council", "openai:gpt-4.1-mini,nosuchprovider:x",
            "--db", tmp_path / "s.sqlite", env={"OPENAI_API_KEY": "k"})
    assert r.returncode == 2, r.stdout + r.stderr
    assert "--council[2] = nosuchprovider:x: cannot use this model" in r.stderr  # the option the user typed
    assert "brief_council_models[1]" not in r.stderr and "Traceback" not in r.stderr

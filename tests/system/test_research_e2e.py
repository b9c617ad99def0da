"""The whole research graph offline: a local corpus built by the test, the scripted model.
Report produced, every citation checked by code, a deliberately wrong quote caught and
fixed by the citation-check step, fragment links, PDF and notes written, and the brief
approval interrupt exercised (including a malformed resume value)."""

import asyncio
import json
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command

from deep_research.research.runtime.deps import Deps
from deep_research.research.graph import make_graph
from deep_research.search.local import LocalCorpus, build_index
from tests.support.scenario import QUESTION, full_script, write_corpus
from tests.support.scripted import scripted_factory


@pytest.fixture()
def corpus(tmp_path) -> Path:
    folder = write_corpus(tmp_path / "corpus")
    build_index(folder, base_url="http://127.0.0.1:8765/")
    return folder


def _graph(corpus: Path, script):
    deps = Deps(model_factory=scripted_factory(script), search_factory=lambda cfg: LocalCorpus.open(corpus))
    return make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())


async def _run(graph, payload, config, context):
    async for _ in graph.astream(payload, config, context=context, stream_mode="updates", subgraphs=True):
        pass
    return await graph.aget_state(config)


def test_full_run_with_approval_and_citation_repair(corpus, tmp_path):
    script = full_script(wrong_quote=True)
    graph = _graph(corpus, script)
    config = {"configurable": {"thread_id": "e2e"}}
    context = {"require_brief_approval": True, "search_api": "local", "output_dir": str(tmp_path / "reports")}

    async def scenario():
        state = await _run(graph, {"messages": [HumanMessage(QUESTION)]}, config, context)
        assert state.next == ("approve_research_brief",)
        brief = state.interrupts[0].value
        assert brief["type"] == "brief_approval" and "heat pumps" in brief["research_brief"]
        # a value that is not a decision is refused with an explanation, never approval
        state = await _run(graph, Command(resume="yes please"), config, context)
        assert state.next == ("approve_research_brief",)
        assert "not a decision" in state.interrupts[0].value["error"]
        state = await _run(graph, Command(resume={"type": "reject", "feedback": ""}), config, context)
        assert "non-empty feedback" in state.interrupts[0].value["error"]
        # a real rejection rewrites the brief and asks again
        state = await _run(graph, Command(resume={"type": "reject", "feedback": "Focus on Europe."}), config, context)
        assert state.next == ("approve_research_brief",)
        assert "Europe" in state.interrupts[0].value["research_brief"]
        assert state.interrupts[0].value["round"] == 2
        return await _run(graph, Command(resume={"type": "approve"}), config, context)

    state = asyncio.run(scenario())
    v = state.values
    assert v["status"] == "completed", v.get("errors")
    assert not state.next
    # every citation verified by code after the citation-check step fixed the wrong one
    summary = v["citation_summary"]
    assert summary["unsupported"] == 0 and summary["verified"] >= 8, v["citation_fixes"]
    assert summary["fixed_by_agent"] == 1, v["citation_fixes"]
    fix = v["citation_fixes"][0]
    assert "3.5 and 5" in fix["quote"] and "2.5 and 4" in fix["new_quote"]
    out = v["outputs"]
    for key in ("markdown", "linked", "html", "pdf", "citations", "notes", "raw_notes"):
        assert Path(out[key]).is_file(), key
    cites = json.loads(Path(out["citations"]).read_text())
    assert cites and all(c["status"] == "verified" for c in cites)
    assert all(":~:text=" in c["url"] and c["url"].startswith("http://127.0.0.1:8765/") for c in cites)
    linked = Path(out["linked"]).read_text()
    assert "#:~:text=" in linked and "<ref" not in linked
    assert "<ref id=" in v["report_markdown"]  # the UI version keeps refs
    notes = Path(out["notes"]).read_text()
    assert "Heat pump efficiency" in notes and "<ref id=" in notes
    # the invented sentence in the page summaries was dropped by code, not kept
    assert "Moon" not in Path(out["raw_notes"]).read_text()
    # usage recorded per node
    assert {"supervisor", "researcher", "final_report_generation", "check_citations"} <= set(v["usage"])
    assert v["usage"]["researcher"]["input_tokens"] > 0
    # two researchers ran (parallel units in one round)
    assert script.log.count(("compression", "You condense a researcher's work")) == 2


def test_clarifying_question_ends_the_turn(corpus, tmp_path):
    from tests.support.scripted import Script, structured

    script = Script().on("research", "You decide whether a research request is clear",
                         structured("ClarifyWithUser", need_clarification=True,
                                    question="Which country do you mean?", verification=""))
    graph = _graph(corpus, script)
    config = {"configurable": {"thread_id": "clarify"}}
    state = asyncio.run(_run(graph, {"messages": [HumanMessage("heat pumps?")]}, config,
                             {"search_api": "local", "output_dir": str(tmp_path)}))
    assert state.values["status"] == "needs_clarification"
    assert state.values["messages"][-1].content == "Which country do you mean?"
    assert not state.next

"""Human review: clarifying questions with suggested answers, and the optional review of
the final report before publishing (approve / edit, re-checked by code / feedback, one
bounded revision)."""

from __future__ import annotations

import asyncio
import json
import re
from collections import deque
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command

from deep_research.research.runtime.deps import Deps
from deep_research.research.graph import make_graph
from deep_research.search.local import LocalCorpus, build_index
from tests.support.scenario import QUESTION, final_report, full_script, write_corpus
from tests.support.scripted import Script, scripted_factory, structured

REVISED_TITLE = "# Heat pumps, revised for the reviewer"


@pytest.fixture()
def corpus(tmp_path) -> Path:
    folder = write_corpus(tmp_path / "corpus")
    build_index(folder, base_url="http://127.0.0.1:8765/")
    return folder


def graph_for(corpus: Path, script: Script):
    deps = Deps(model_factory=scripted_factory(script), search_factory=lambda cfg: LocalCorpus.open(corpus))
    return make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())


async def drive(graph, payload, context, thread="t"):
    config = {"configurable": {"thread_id": thread}}
    async for _ in graph.astream(payload, config, context=context, stream_mode="updates", subgraphs=True):
        pass
    return await graph.aget_state(config)


def context(tmp_path, **kw) -> dict:
    return {"search_api": "local", "write_pdf": False, "output_dir": str(tmp_path / "reports"),
            "allow_clarification": False, "require_report_approval": True, **kw}


def revision_script() -> Script:
    s = full_script()

    def revise(messages):
        text = messages[-1].content
        report = text.split("<draft>\n", 1)[1].split("\n</draft>", 1)[0]
        body = report.split("\n", 1)[1]  # the same citations under a new title
        return f"{REVISED_TITLE}\n{body}"

    s.rules.insert(0, {"role": "final_report", "contains": "A reviewer read the research report",
                       "responses": deque([revise]), "repeat": True, "name": "revise"})
    return s


def test_the_report_waits_for_review_and_approval_publishes_it(corpus, tmp_path):
    graph = graph_for(corpus, full_script())
    ctx = context(tmp_path)

    async def go():
        state = await drive(graph, {"messages": [HumanMessage(QUESTION)]}, ctx)
        assert state.next == ("review_report",)
        payload = state.interrupts[0].value
        assert payload["type"] == "report_review" and payload["revisions_left"] == 1
        assert payload["report_markdown"] == state.values["report_markdown"]
        shown = state.values["messages"][-1]
        # the chat shows the report with its citations as numbered links; the state keeps the <ref> tags
        assert shown.name == "report_review" and "<ref" in state.values["report_markdown"]
        assert shown.content.startswith("# Heat pumps in cold climates") and "<ref" not in shown.content
        assert re.search(r"\[1\]\(http[^)]+#:~:text=", shown.content), shown.content[:600]
        assert not state.values.get("outputs")  # nothing published yet
        # a malformed decision is explained and asked again, never taken as approval
        state = await drive(graph, Command(resume="yes"), ctx)
        assert state.next == ("review_report",) and "not a decision" in state.interrupts[0].value["error"]
        # ... in the chat too (a chat client shows the buttons only), once, after the report shown
        said = [m for m in state.values["messages"] if m.name == "invalid_decision"]
        assert len(said) == 1 and state.interrupts[0].value["error"] in said[0].content
        assert state.values["messages"][-1] == said[0]
        return await drive(graph, Command(resume={"type": "approve"}), ctx)

    final = asyncio.run(go())
    v = final.values
    assert not final.next and v["status"] == "completed" and v["report_review"] == "approved"
    assert len([m for m in v["messages"] if m.name == "invalid_decision"]) == 1 and not v.get("decision_problem")
    assert Path(v["outputs"]["markdown"]).is_file()


def test_an_edited_report_is_checked_by_code_before_publishing(corpus, tmp_path):
    graph = graph_for(corpus, full_script())
    ctx = context(tmp_path)

    async def go():
        state = await drive(graph, {"messages": [HumanMessage(QUESTION)]}, ctx)
        md = state.values["report_markdown"]
        # the reviewer shortens the report and changes a number inside one quote
        edited = md.replace("# Heat pumps in cold climates", "# Heat pumps (edited)").replace("-25 °C", "-35 °C")
        assert edited != md and "-35 °C" in edited
        return md, edited, await drive(graph, Command(resume={"type": "edit", "markdown": edited}), ctx)

    md, edited, final = asyncio.run(go())
    v = final.values
    assert v["status"] == "completed" and v["report_review"] == "edited"
    assert v["citation_summary"]["edited_by_reviewer"] is True
    assert v["citation_summary"]["unsupported"] == 1  # the changed quote, caught by code
    cites = json.loads(Path(v["outputs"]["citations"]).read_text())
    assert [c["quote"] for c in cites if c["status"] == "unsupported"] == [
        q for q in [c["quote"] for c in cites] if "-35 °C" in q]
    assert Path(v["outputs"]["markdown"]).read_text().startswith("# Heat pumps (edited)")


def test_a_sources_section_the_reviewer_wrote_is_replaced_and_said(corpus, tmp_path):
    """The reviewer's own Sources section (a note of theirs) was replaced by the checked
    list at publish without a word: a degradation says so now, and audit.json keeps its text."""
    graph = graph_for(corpus, full_script())
    ctx = context(tmp_path)

    async def go():
        state = await drive(graph, {"messages": [HumanMessage(QUESTION)]}, ctx)
        md = state.values["report_markdown"]
        edited = md.split("\n## Sources")[0] + "\n\n## Sources\n\nMy reading list: the 2019 field trial.\n"
        return await drive(graph, Command(resume={"type": "edit", "markdown": edited}), ctx)

    v = asyncio.run(go()).values
    assert v["status"] == "completed" and v["report_review"] == "edited"
    said = [d["message"] for d in v.get("degradations") or [] if "'Sources' section" in d["message"]]
    assert len(said) == 1 and "replaced by the list built from them" in said[0], v.get("degradations")
    audit = json.loads(Path(v["outputs"]["audit"]).read_text())
    assert "My reading list: the 2019 field trial." in audit["sources_replaced"]["text"]


def test_an_edited_report_past_the_limit_is_refused_in_the_chat_and_the_review_goes_on(corpus, tmp_path):
    """A chat client's edit of the report (the HITL edit button) past the limit is refused
    in the chat, naming its length and the limit; nothing is published, the report under
    review is unchanged and the same thread then takes an approval."""
    graph = graph_for(corpus, full_script())
    ctx = context(tmp_path)
    huge = "# Mine\n\n" + "Tea is grown on hills. " * 50_000  # 1,150,008 characters

    async def go():
        asked = await drive(graph, {"messages": [HumanMessage(QUESTION)]}, ctx)
        edit = {"decisions": [{"type": "edit", "edited_action": {"name": "review_report",
                                                                 "args": {"report_markdown": huge}}}]}
        refused = await drive(graph, Command(resume=edit), ctx)
        return asked, refused, await drive(graph, Command(resume={"type": "approve"}), ctx)

    asked, refused, final = asyncio.run(go())
    assert refused.next == ("review_report",)
    said = [m.content for m in refused.values["messages"] if m.name == "invalid_decision"]
    limit = "the edited report is 1,150,008 characters long; the limit is 1,000,000"
    assert len(said) == 1 and limit in said[0] and limit in refused.interrupts[0].value["error"]
    assert refused.values["report_markdown"] == asked.values["report_markdown"]
    assert not refused.values.get("outputs")
    v = final.values
    assert v["status"] == "completed" and v["report_review"] == "approved"
    assert Path(v["outputs"]["markdown"]).read_text().startswith("# Heat pumps in cold climates")


def hostile_report_script() -> Script:
    """The scenario's report with terminal escapes and a bidi override in its prose and an
    escape and a bidi override inside one quote (before a space: the quote still matches its page)."""
    s = full_script(wrong_quote=False)
    write = final_report(wrong_quote=False)

    def hostile(messages):
        report = write(messages)
        report = report.replace("Heat pumps work in cold climates", "Heat pumps \x1b]0;owned\x07work in "
                                "\u202ecold\u202c climates \x1b[2J")
        at = report.index('">"') + 3
        space = report.index(" ", at)
        return report[:space] + "\x1b\u202e" + report[space:]

    s.rules.insert(0, {"role": "final_report", "contains": "Write the final research report",
                       "responses": deque([hostile]), "repeat": True, "name": "hostile"})
    return s


def test_the_review_interrupt_carries_the_report_as_a_chat_may_show_it(corpus, tmp_path):
    """The review interrupt's markdown is rendered by a chat client: what a terminal acts on
    is an escape in the prose (as in report.md) and a space inside a quote (as report.md
    writes it), so the reviewer's edit, sent back as handed, still finds every quote."""
    graph = graph_for(corpus, hostile_report_script())
    ctx = context(tmp_path)

    async def go():
        state = await drive(graph, {"messages": [HumanMessage(QUESTION)]}, ctx)
        assert state.next == ("review_report",)
        return state, await drive(graph, Command(resume={"type": "edit", "markdown": state.interrupts[0].value[
            "action_requests"][0]["args"]["report_markdown"]}), ctx)

    state, final = asyncio.run(go())
    payload = state.interrupts[0].value
    raw = state.values["report_markdown"]
    assert "\x1b]0;owned" in raw and "\x1b\u202e" in raw  # the state keeps what the model wrote
    for md in (payload["report_markdown"], payload["action_requests"][0]["args"]["report_markdown"]):
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", md), md
        assert "\\x1b]0;owned\\x07work in \\u202ecold\\u202c climates \\x1b\\[2J" in md
        assert md.count("<ref ") == raw.count("<ref ") and md.count("\\x1b") == 2
    before = state.values["citation_summary"]
    after = final.values["citation_summary"]
    assert final.values["status"] == "completed" and after["edited_by_reviewer"] is True
    assert (after["verified"], after["unsupported"]) == (before["verified"], before["unsupported"])
    assert before["unsupported"] == 0 and before["verified"] > 0


def test_feedback_revises_the_report_once_then_the_reviewer_decides(corpus, tmp_path):
    script = revision_script()
    graph = graph_for(corpus, script)
    ctx = context(tmp_path)

    async def go():
        state = await drive(graph, {"messages": [HumanMessage(QUESTION)]}, ctx)
        state = await drive(graph, Command(resume={"type": "feedback", "feedback": "Lead with the costs."}), ctx)
        # revised by the model, checked by code again, shown again for review
        assert state.next == ("review_report",)
        assert state.values["report_markdown"].startswith(REVISED_TITLE)
        assert state.values["report_revisions"] == 1
        payload = state.interrupts[0].value
        assert payload["revisions_left"] == 0 and "feedback" not in json.dumps(payload["expected"])
        # no second revision
        state = await drive(graph, Command(resume={"type": "feedback", "feedback": "More!"}), ctx)
        assert state.next == ("review_report",) and "already revised" in state.interrupts[0].value["error"]
        return await drive(graph, Command(resume={"type": "approve"}), ctx)

    final = asyncio.run(go())
    v = final.values
    assert v["status"] == "completed"
    assert Path(v["outputs"]["markdown"]).read_text().startswith(REVISED_TITLE)
    assert v["citation_summary"]["unsupported"] == 0
    assert sum(1 for _, name in script.log if name == "revise") == 1
    revise_prompt = [m for m in v["messages"] if isinstance(m, HumanMessage)][-1].content
    assert revise_prompt == "Lead with the costs."


def test_clarification_asks_several_questions_with_suggested_answers_and_takes_free_text(corpus, tmp_path):
    s = full_script(clarify=False)
    s.on("research", "You decide whether a research request is clear",
         structured("ClarifyWithUser", need_clarification=True, questions=[
             {"question": "Which country?", "suggested_answers": ["Norway", "Germany", "Canada"]},
             {"question": "New build or retrofit?", "suggested_answers": ["New build", "Retrofit"]}]),
         structured("ClarifyWithUser", need_clarification=False, verification="I will research Norway."),
         name="clarify")
    graph = graph_for(corpus, s)
    ctx = context(tmp_path, allow_clarification=True, require_report_approval=False)

    async def go():
        state = await drive(graph, {"messages": [HumanMessage("heat pumps?")]}, ctx)
        v = state.values
        assert v["status"] == "needs_clarification" and not state.next
        turn = v["messages"][-1]
        assert turn.name == "clarification"
        assert turn.content == ("1. Which country?\n   [Norway] · [Germany] · [Canada]\n"
                                "2. New build or retrofit?\n   [New build] · [Retrofit]")
        assert v["clarifying_questions"][0]["suggested_answers"] == ["Norway", "Germany", "Canada"]
        assert turn.additional_kwargs["clarifying_questions"] == v["clarifying_questions"]
        # answered in the user's own words
        return await drive(graph, {"messages": [HumanMessage("A retrofit in Tromsø, northern Norway")]}, ctx)

    final = asyncio.run(go())
    v = final.values
    assert v["status"] == "completed" and v["question"] == "heat pumps?"
    brief_prompts = [t for role, t in s.log if t.startswith("Turn the conversation")]
    assert brief_prompts  # the brief was written after the answer


def test_a_review_asked_stays_asked_when_the_resuming_run_omits_the_setting(corpus, tmp_path):
    """On a LangGraph server each run has its own configuration: a client that set
    require_report_approval on the run that asked (not on its assistant) resumes without it.
    The report was then published whatever the reviewer answered, a rejection too; a review
    asked is now answered, and the revised report asked again, until approved or edited."""
    script = revision_script()
    graph = graph_for(corpus, script)
    asked, resumed = context(tmp_path), context(tmp_path, require_report_approval=False)

    async def go():
        state = await drive(graph, {"messages": [HumanMessage(QUESTION)]}, asked)
        assert state.next == ("review_report",)
        state = await drive(graph, Command(resume=12345), resumed)  # not a decision: asked again
        assert state.next == ("review_report",) and "not a decision" in state.interrupts[0].value["error"]
        state = await drive(graph, Command(resume={"type": "feedback", "feedback": "Lead with the costs."}), resumed)
        assert state.next == ("review_report",) and state.values["report_markdown"].startswith(REVISED_TITLE)
        return await drive(graph, Command(resume={"type": "approve"}), resumed)

    final = asyncio.run(go())
    assert final.values["status"] == "completed" and final.values["report_review"] == "approved"
    assert Path(final.values["outputs"]["markdown"]).read_text().startswith(REVISED_TITLE)
    assert not final.values["report_review_open"]


def test_the_report_to_review_counts_its_links_to_the_exact_sentence(corpus, tmp_path):
    """The report to review said "…; 0 link to the exact sentence." (in the chat and on the
    CLI) while every citation had one: the check's summary held no count of them, so the
    line read a missing count as none. The published report then said 26 of 26."""
    graph = graph_for(corpus, full_script())

    async def go():
        return await drive(graph, {"messages": [HumanMessage(QUESTION)]}, context(tmp_path))

    state = asyncio.run(go())
    summary = state.values["citation_summary"]
    shown = state.values["messages"][-1].content
    links = len(re.findall(r"\]\(http[^)]+#:~:text=", shown.split("\n---\n")[0]))
    assert links > 0 and summary["fragment_links"] > 0, summary
    assert f"; {summary['fragment_links']} link to the exact sentence." in shown, shown[-400:]

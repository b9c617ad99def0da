"""The graph in a generic LangGraph chat client (LangChain's Agent Chat UI, LangGraph Studio)
without a front end of its own: a real `langgraph dev` with this project's langgraph.json
(its graph ids, auth handler, and settings read from the server folder's ``.env``), driven
with langgraph-sdk the way Agent Chat UI drives it; tests/support/chat_client.py computes
what that client shows from the stream. scripts/chat_ui_check.py drives the client itself
in Chromium (it is not in CI).

Models: the scripted OpenAI-compatible server; pages: the scenario's corpus served over
HTTP (so the report's citations are http links)."""

from __future__ import annotations

import asyncio
import os
import re
from collections import deque

import pytest

from tests.support.chat_client import ChatView, send, text_of
from tests.support.chromium import serve_directory
from tests.support.devserver import langgraph_dev
from tests.support.openai_server import ScriptServer
from tests.support.scenario import BRIEF, QUESTION, full_script, write_corpus

pytestmark = pytest.mark.server

ROLES = ("research", "summarization", "compression", "final_report", "citation_check")
SCRUBBED = ("OPENAI_API_KEY", "TAVILY_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_API_KEY",
            "AZURE_OPENAI_ENDPOINT", "DEEP_RESEARCH_DEPS")
FOLLOW_UP = "And how long do they last?"
INTERNAL = re.compile(r"Research this topic|Findings on:|<source id=|You lead a research team|Round \d+ of|"
                      r"ConductResearch|think_tool|<ref id=")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """(base URL, model server) of `langgraph dev` on the project's langgraph.json; settings
    in the server folder's .env, one of them also set in the server's environment."""
    work = tmp_path_factory.mktemp("chat")
    corpus = write_corpus(work / "corpus")
    with ScriptServer(full_script()) as models, serve_directory(str(corpus)) as pages:
        folder = work / "server"
        folder.mkdir()
        settings = {f"DEEP_RESEARCH_{r.upper()}_MODEL": f"openai:{r}" for r in ROLES}
        settings.update({
            "DEEP_RESEARCH_MODEL_BASE_URL": models.base_url, "DEEP_RESEARCH_SEARCH_API": "local",
            "DEEP_RESEARCH_CORPUS_PATH": str(corpus), "DEEP_RESEARCH_CORPUS_BASE_URL": pages,
            "DEEP_RESEARCH_OUTPUT_DIR": str(work / "reports"), "DEEP_RESEARCH_WRITE_PDF": "false",
            # the shell sets 3: the shell wins, as for the CLI
            "DEEP_RESEARCH_MAX_RESEARCHER_ITERATIONS": "2"})
        (folder / ".env").write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
        env: dict = {k: None for k in SCRUBBED}
        env.update({"DEEP_RESEARCH_ENV_FILE": None, "DEEP_RESEARCH_MAX_RESEARCHER_ITERATIONS": "3"})
        env.update({k: None for k in os.environ if k.startswith("DEEP_RESEARCH_") and k not in env})
        with langgraph_dev(folder, None, env=env, auth="deep_research.server.auth:auth",
                           extra_args=["--n-jobs-per-worker", "4"]) as (base, _):
            yield base, models


def run(coro):
    return asyncio.run(coro)


async def _client(base: str):
    from langgraph_sdk import get_client

    return get_client(url=base)


async def _assistant(client, **context) -> str:
    return (await client.assistants.create("deep_research", context=context))["assistant_id"]


def assert_chat_never_lost(view: ChatView, question: str) -> None:
    """While the run streamed, the chat always showed the question and never an internal turn."""
    assert view.shown
    for shown in view.shown:
        assert any(m.get("type") == "human" and question in text_of(m) for m in shown), \
            [(m.get("type"), text_of(m)[:60]) for m in shown]
        for m in shown:
            assert m.get("type") in ("human", "ai"), m
            assert not m.get("tool_calls"), m
            assert not INTERNAL.search(text_of(m)), text_of(m)[:300]
    ids = view.message_event_ids
    assert len(ids) == len(set(ids)), "a message id streamed twice (a client joins them into one message)"


def report_of(view: ChatView) -> str:
    last = view.shown[-1]
    reports = [m for m in last if m.get("name") == "report"]
    assert reports, [(m.get("name"), text_of(m)[:80]) for m in last]
    return text_of(reports[-1])


def assert_linked_report(text: str) -> None:
    assert "<ref" not in text
    links = re.findall(r"\[(\d+)\]\((http://127\.0\.0\.1:\d+/[^)\s]+#:~:text=[^)\s]+)\)", text)
    assert len(links) >= 3, text[:800]


def test_a_question_a_chat_client_shows_progress_and_a_report_with_citation_links(server):
    base, _ = server

    async def go():
        client = await _client(base)
        graphs = {a["graph_id"] for a in await client.assistants.search(limit=20)}
        thread = (await client.threads.create())["thread_id"]
        view = await send(client, thread, "agent", text=QUESTION)  # the client's default assistant id
        state = await client.threads.get_state(thread)
        return graphs, view, state

    graphs, view, state = run(go())
    assert {"agent", "deep_research"} <= graphs
    assert view.error is None, view.error
    assert_chat_never_lost(view, QUESTION)
    # progress while research ran: short lines that the finished report folds into one
    seen = {text_of(m) for shown in view.shown for m in shown if m.get("name") == "progress"}
    assert "*Writing the research brief…*" in seen
    # the shell's DEEP_RESEARCH_MAX_RESEARCHER_ITERATIONS (3) won over the .env file's (2)
    assert any(t.startswith("*Research round 1 of at most 3: 2 researchers") for t in seen), seen
    final = view.shown[-1]
    assert [text_of(m) for m in final if m.get("name") == "progress"] == [
        "*Done: 2 research rounds, 3 sources read, 9 citations checked.*"]
    text = report_of(view)
    assert_linked_report(text)
    values = state["values"]
    assert values["status"] == "completed"
    assert "<ref id=" in values["report_markdown"]  # the state keeps the refs for custom UIs
    assert [m["id"] for m in values["messages"]] == [m["id"] for m in final]  # what the chat keeps


def test_a_follow_up_in_the_same_thread_gets_its_own_report(server):
    base, _ = server

    async def go():
        client = await _client(base)
        thread = (await client.threads.create())["thread_id"]
        await send(client, thread, "agent", text=QUESTION)
        view = await send(client, thread, "agent", text=FOLLOW_UP)
        return view

    view = run(go())
    assert view.error is None, view.error
    assert_chat_never_lost(view, FOLLOW_UP)
    final = view.shown[-1]
    assert [m.get("name") for m in final if m.get("type") == "ai" and m.get("name") in ("report", "progress")] == [
        "progress", "report", "progress", "report"]
    assert_linked_report(report_of(view))


def hitl(view: ChatView) -> dict:
    """The interrupt the client shows buttons for (its action request and review config)."""
    assert len(view.interrupts) == 1, view.interrupts
    value = view.interrupts[0]["value"]
    request, config = value["action_requests"][0], value["review_configs"][0]
    assert config["action_name"] == request["name"] and isinstance(request["args"], dict)
    return value


def test_brief_approval_and_report_review_by_buttons(server):
    base, _ = server

    async def go():
        client = await _client(base)
        assistant = await _assistant(client, require_brief_approval=True, require_report_approval=True)
        thread = (await client.threads.create())["thread_id"]
        asked = await send(client, thread, assistant, text=QUESTION)
        # Reject: the brief is rewritten with the reviewer's reason and asked again
        rejected = await send(client, thread, assistant,
                              resume={"decisions": [{"type": "reject", "message": "Only cold climates, please."}]})
        # Approve (no subgraphs streamed, as the client resumes)
        approved = await send(client, thread, assistant, resume={"decisions": [{"type": "approve"}]})
        review = hitl(approved)
        edited = review["action_requests"][0]["args"]["report_markdown"].replace(
            "# Heat pumps in cold climates", "# Heat pumps (reviewed)")
        published = await send(client, thread, assistant, resume={"decisions": [{
            "type": "edit", "edited_action": {"name": "review_report", "args": {"report_markdown": edited}}}]})
        return asked, rejected, approved, published, await client.threads.get_state(thread)

    asked, rejected, approved, published, state = run(go())
    brief = hitl(asked)
    assert brief["action_requests"][0]["name"] == "approve_research_brief"
    assert brief["action_requests"][0]["args"] == {"research_brief": BRIEF}
    assert brief["review_configs"][0]["allowed_decisions"] == ["approve", "edit", "reject"]
    assert brief["type"] == "brief_approval" and brief["round"] == 1  # the project's own keys stay
    assert [m.get("name") for m in asked.shown[-1]][-1] == "brief"  # the brief is in the chat above the buttons
    assert any(m.get("type") == "human" and text_of(m) == "Only cold climates, please."
               for m in rejected.shown[-1])  # the reason given with the button is in the chat
    again = hitl(rejected)
    assert again["round"] == 2 and "cold climates and what installation" in again["action_requests"][0]["args"][
        "research_brief"]
    review = hitl(approved)
    assert review["action_requests"][0]["name"] == "review_report"
    assert review["review_configs"][0]["allowed_decisions"] == ["approve", "edit", "reject"]
    shown = [m for m in approved.shown[-1] if m.get("name") == "report_review"]
    assert shown and "<ref" not in text_of(shown[-1]) and "#:~:text=" in text_of(shown[-1])
    for view in (approved, published):
        assert view.error is None, view.error
        assert_chat_never_lost(view, QUESTION)
    text = report_of(published)
    assert text.startswith("# Heat pumps (reviewed)")
    assert_linked_report(text)
    values = state["values"]
    assert values["status"] == "completed" and values["report_review"] == "edited"


def test_a_malformed_decision_is_explained_in_the_chat_above_the_buttons(server):
    """A client shows an interrupt's buttons, not its ``error``: an edit without the brief's
    text brought the same buttons back without a word. The chat now says why, once, above
    the buttons asked again; a reply typed after it still answers the brief."""
    base, _ = server

    async def go():
        client = await _client(base)
        assistant = await _assistant(client, require_brief_approval=True)
        thread = (await client.threads.create())["thread_id"]
        await send(client, thread, assistant, text=QUESTION)
        empty = {"decisions": [{"type": "edit", "edited_action": {"name": "approve_research_brief", "args": {}}}]}
        bad = await send(client, thread, assistant, resume=empty)
        again = await send(client, thread, assistant, resume=empty)
        typed = await send(client, thread, assistant, text="approve")
        return bad, again, typed, await client.threads.get_state(thread)

    bad, again, typed, state = run(go())
    for view in (bad, again):
        assert view.error is None, view.error
        payload = hitl(view)
        assert payload["action_requests"][0]["name"] == "approve_research_brief"
        assert "an edit needs the brief text" in payload["error"]
        said = [m for m in view.shown[-1] if m.get("name") == "invalid_decision"]
        assert len(said) == 1 and "an edit needs the brief text" in text_of(said[0]), said  # once, not per ask
        assert view.shown[-1][-1].get("name") == "invalid_decision"  # right above the buttons
    assert typed.error is None and not typed.interrupts  # the typed reply approved the brief: the run went on
    values = state["values"]
    assert values["status"] == "completed" and not values.get("decision_problem")


def test_a_typed_reply_answers_the_brief_and_the_report(server):
    """A client without buttons sends the reply as a new message: it is taken as the
    decision ("approve", or what to change), not as a new question."""
    base, _ = server

    async def go():
        client = await _client(base)
        assistant = await _assistant(client, require_brief_approval=True, require_report_approval=True)
        thread = (await client.threads.create())["thread_id"]
        await send(client, thread, assistant, text=QUESTION)
        after_brief = await send(client, thread, assistant, text="approve")
        done = await send(client, thread, assistant, text="Approve.")
        return after_brief, done, await client.threads.get_state(thread)

    after_brief, done, state = run(go())
    assert hitl(after_brief)["action_requests"][0]["name"] == "review_report"  # on to the report, no new brief
    assert done.error is None and not done.interrupts
    values = state["values"]
    assert values["status"] == "completed" and values["report_review"] == "approved"
    assert len([m for m in values["messages"] if m.get("name") == "brief"]) == 1
    assert_linked_report(report_of(done))


def test_a_setup_mistake_is_a_chat_message_in_the_live_stream_and_stays(server):
    base, _ = server

    async def go():
        client = await _client(base)
        bad = await _assistant(client, search_api="tavily")  # the server has no TAVILY_API_KEY
        thread = (await client.threads.create())["thread_id"]
        failed = await send(client, thread, bad, text=QUESTION)
        return failed, await client.threads.get_state(thread)

    failed, state = run(go())
    assert failed.error is not None and "TAVILY_API_KEY" in failed.error["message"]
    # the failure came as a message before the error (a toast), and stays in the chat
    kinds = [e.split("|")[0] for e, _ in failed.events]
    failures = [i for i, (e, d) in enumerate(failed.events)
                if e.split("|")[0] == "messages" and d[0].get("name") == "error"]
    assert failures and failures[0] < kinds.index("error")
    shown = [m for m in failed.shown[-1] if m.get("name") == "error"]
    assert len(shown) == 1
    text = text_of(shown[0])
    assert text.startswith("The run could not start: search_api 'tavily' (web search) needs the TAVILY_API_KEY")
    assert "send your question again" in text and "without input" not in text
    assert state["values"]["messages"][-1]["id"] == shown[0]["id"]  # the same turn is in the thread


def drop_once(models, role: str, prompt: str) -> None:
    """The model server drops the connection of the next call of ``role`` on ``prompt``."""
    models.script.rules.insert(0, {"role": role, "contains": prompt, "name": "drop once", "repeat": False,
                                   "responses": deque([ConnectionAbortedError("dropped")])})


def failure_turn(view: ChatView) -> str:
    shown = [text_of(m) for m in view.shown[-1] if m.get("name") == "error"]
    assert len(shown) == 1, shown
    return shown[0]


def test_a_failure_mid_run_is_in_the_chat_and_sending_the_message_again_works(server):
    base, models = server
    drop_once(models, "final_report", "Write a first draft")

    async def go():
        client = await _client(base)
        once = await _assistant(client, max_retries=0)
        thread = (await client.threads.create())["thread_id"]
        failed = await send(client, thread, once, text=QUESTION)
        state = await client.threads.get_state(thread)
        again = await send(client, thread, once, text=QUESTION)
        return failed, state, again

    failed, state, again = run(go())
    assert failed.error is not None and failed.error["message"].startswith("write_draft_report: ")
    # the chat loaded again ends with the failure, not with the failed step's "Writing a first draft…"
    last = state["values"]["messages"][-1]
    assert last["name"] == "error" and "first draft" not in str(again.shown[0]), last
    assert_chat_never_lost(failed, QUESTION)
    shown = failure_turn(failed)
    assert shown.startswith("The run failed at write_draft_report: model call failed")
    assert "send your message again" in shown
    assert again.error is None, again.error
    assert_linked_report(report_of(again))


def test_a_failure_inside_research_after_a_button_reaches_a_client_that_streams_no_subgraphs(server):
    """A decision by button resumes the run without subgraphs streamed: a failure in the
    supervisor's subgraph still comes as a chat message before the error."""
    base, models = server
    drop_once(models, "research", "Round 1 of")

    async def go():
        client = await _client(base)
        assistant = await _assistant(client, require_brief_approval=True, max_retries=0)
        thread = (await client.threads.create())["thread_id"]
        await send(client, thread, assistant, text=QUESTION)
        return await send(client, thread, assistant, resume={"decisions": [{"type": "approve"}]})

    failed = run(go())
    assert failed.error is not None and failed.error["message"].startswith("supervisor: ")
    assert not [e for e, _ in failed.events if "|" in e]  # nothing of a subgraph was streamed
    assert failure_turn(failed).startswith("The run failed at supervisor: model call failed")
    assert_chat_never_lost(failed, QUESTION)

"""The chat-facing pieces in isolation: decisions in the human-in-the-loop shape and in the
shape this project used before, typed replies, hidden internal turns, progress lines and
the conversation a model is shown. The same through a real server and a chat client's
view: tests/system/test_chat_clients.py."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage, ToolMessage
from langgraph.types import Command

from deep_research.research.report.review import parse_review
from deep_research.research.runtime.configuration import MAX_EDITED_REPORT_CHARS
from deep_research.research.runtime import chat
from deep_research.research.scope.brief import _parse_decision

BRIEF_EDIT = {"type": "edit", "edited_action": {"name": "approve_research_brief",
                                                "args": {"research_brief": "My brief."}}}


@pytest.mark.parametrize("value, expected", [
    ({"type": "approve"}, ("approve", "")),
    ({"decisions": [{"type": "approve"}]}, ("approve", "")),
    ([{"type": "approve"}], ("approve", "")),
    ({"type": "reject", "feedback": " Narrower. "}, ("reject", "Narrower.")),
    ({"decisions": [{"type": "reject", "message": "Narrower."}]}, ("reject", "Narrower.")),
    ({"decisions": [BRIEF_EDIT]}, ("edit", "My brief.")),
])
def test_brief_decisions_in_both_shapes(value, expected):
    kind, text, problem = _parse_decision(value)
    assert problem is None and (kind, text) == expected


@pytest.mark.parametrize("value, problem", [
    ({"decisions": []}, "expected one decision, got 0"),
    ({"decisions": [{"type": "approve"}, {"type": "approve"}]}, "expected one decision, got 2"),
    ({"type": "reject", "message": "  "}, "a rejection needs non-empty feedback"),
    ({"type": "edit", "edited_action": {"name": "review_report", "args": {"research_brief": "x"}}},
     "edited_action is for 'review_report'"),
    ({"type": "edit", "edited_action": {"name": "approve_research_brief", "args": {}}}, "needs the brief text"),
    ({"type": "respond", "message": "ok"}, "unknown decision type 'respond'"),
    ("approve", "not a decision (str)"),
])
def test_a_malformed_brief_decision_is_explained_never_approved(value, problem):
    kind, _, said = _parse_decision(value)
    assert kind is None and problem in said


@pytest.mark.parametrize("parse, value", [
    (_parse_decision, {"type": "reject", "feedback": "Narrower \x1b[2J please"}),
    (_parse_decision, {"decisions": [{**BRIEF_EDIT, "edited_action": {"name": "approve_research_brief",
                                                                      "args": {"research_brief": "My\x07 brief."}}}]}),
    (lambda v: parse_review(v, 1), {"type": "feedback", "feedback": "Shorter\x9b31m."}),
], ids=["brief-feedback", "edited-brief", "report-feedback"])
def test_a_decisions_text_with_control_characters_is_refused_as_a_chat_message_is(parse, value):
    """A chat message with control characters is refused (as the CLI refuses a question and an
    eval question set a brief rejection's feedback), but a resume's feedback or edited brief
    (Studio, the SDK) was taken with them: an escape sequence in the thread's chat ("My edited
    brief: ...") and in every prompt after. Refused, named, asked again; bidi controls are
    removed as from a chat message."""
    kind, _, said = parse(value)
    assert kind is None and "control characters" in said, said
    kind, text, problem = _parse_decision({"type": "reject", "feedback": "Only \u202ein\u202c 2024.\tTabs\nand lines ok."})
    assert problem is None and (kind, text) == ("reject", "Only in 2024.\tTabs\nand lines ok.")


@pytest.mark.parametrize("value, left, expected", [
    ({"decisions": [{"type": "approve"}]}, 1, ("approve", "")),
    ({"type": "edit", "markdown": "# R"}, 1, ("edit", "# R")),
    ({"decisions": [{"type": "edit", "edited_action": {"name": "review_report", "args": {"report_markdown": "# R"}}}]},
     0, ("edit", "# R")),
    ({"decisions": [{"type": "reject", "message": "Shorter."}]}, 1, ("feedback", "Shorter.")),
    ({"type": "feedback", "feedback": "Shorter."}, 1, ("feedback", "Shorter.")),
])
def test_report_review_decisions_in_both_shapes(value, left, expected):
    kind, text, problem = parse_review(value, left)
    assert problem is None and (kind, text) == expected


def test_no_revision_left_refuses_a_rejection_in_either_shape():
    for value in ({"decisions": [{"type": "reject", "message": "More."}]}, {"type": "feedback", "feedback": "More."}):
        kind, _, problem = parse_review(value, 0)
        assert kind is None and "already revised" in problem


def test_an_edited_report_past_its_limit_is_refused_naming_it_in_either_shape():
    """A reviewer's edited report had no size limit. Reports are longer than a question, so
    the limit is a report's (MAX_EDITED_REPORT_CHARS, 1,000,000 characters): a report that
    long is taken, one character more is refused with its length and the limit."""
    at_limit = "x" * MAX_EDITED_REPORT_CHARS
    assert parse_review({"type": "edit", "markdown": at_limit}, 1) == ("edit", at_limit, None)
    over = at_limit + "y"
    for value in ({"type": "edit", "markdown": over},
                  {"decisions": [{"type": "edit", "edited_action": {"name": "review_report",
                                                                     "args": {"report_markdown": over}}}]}):
        kind, _, problem = parse_review(value, 1)
        assert kind is None and problem.startswith(
            "the edited report is 1,000,001 characters long; the limit is 1,000,000"), problem


def test_report_feedback_past_the_limit_is_refused_naming_it():
    """What to change in a report, like a brief's feedback, is at most 20,000 characters."""
    kind, _, problem = parse_review({"type": "feedback", "feedback": "x" * 20_001}, 1)
    assert kind is None and problem.startswith("the feedback is 20,001 characters long; the limit is 20,000")
    assert parse_review({"type": "feedback", "feedback": "x" * 20_000}, 1)[0] == "feedback"


def _asked(name: str, reply: str, **state) -> dict:
    return {"status": "running", "messages": [HumanMessage("Q?"), AIMessage("Asked.", name=name),
                                              AIMessage("*progress*", name="progress"), HumanMessage(reply)],
            **state}


@pytest.mark.parametrize("reply, decision", [
    ("approve", {"type": "approve"}), ("Looks good!", {"type": "approve"}), ("OK.", {"type": "approve"}),
    ("Only Norway, please.", {"type": "reject", "feedback": "Only Norway, please."}),
])
def test_a_typed_reply_to_the_brief_is_its_decision(reply, decision):
    state = _asked("brief", reply, research_brief="B")
    assert chat.typed_decision(state) == ("approve_research_brief", decision)


def test_a_typed_reply_to_the_report_is_its_decision():
    state = _asked("report_review", "Lead with costs.", report_review_pending=True)
    assert chat.typed_decision(state) == ("review_report", {"type": "feedback", "feedback": "Lead with costs."})


def test_a_typed_reply_is_read_without_bidi_controls_and_one_with_other_controls_is_no_decision():
    """A reply typed to the brief is the feedback the brief's model reads: its bidi controls
    are removed (as a question's are), and a reply with other control characters is no
    decision (the clarify node refuses it as a message, at no model call, and the brief
    still waits for one)."""
    state = _asked("brief", "Only \u202eNorway\u202c, please.", research_brief="B")
    assert chat.typed_decision(state) == ("approve_research_brief",
                                          {"type": "reject", "feedback": "Only Norway, please."})
    assert chat.typed_decision(_asked("brief", "Only \x1b[2JNorway", research_brief="B")) is None
    assert chat.typed_decision(_asked("report_review", "ok\x08\x08no", report_review_pending=True)) is None


@pytest.mark.parametrize("state", [
    _asked("brief", "approve"),  # no brief in the state
    _asked("report_review", "approve"),  # no review pending
    _asked("report", "approve", research_brief="B"),  # a follow-up after a report, not a decision
    _asked("brief", "approve", research_brief="B", status="completed"),
])
def test_other_messages_are_not_decisions(state):
    assert chat.typed_decision(state) is None


def test_internal_turns_get_ids_chat_clients_do_not_render():
    ai = AIMessage("", tool_calls=[{"name": "search", "args": {"query": "q"}, "id": "call_1"}], id="run-1")
    tool = ToolMessage("Findings on: x", tool_call_id="call_1")
    out = chat.hide_internal_turns({"researcher_messages": [HumanMessage("Research this topic: x"), ai, tool,
                                                            RemoveMessage(id="do-not-render-old")],
                                    "messages": [AIMessage("visible", id="v1")], "other": 1})
    ids = [m.id for m in out["researcher_messages"]]
    assert ids[1] == "do-not-render-run-1" and all(i.startswith("do-not-render-") for i in ids)
    assert isinstance(out["researcher_messages"][3], RemoveMessage)
    assert out["messages"][0].id == "v1" and out["other"] == 1
    assert ai.id == "run-1"  # the model's message itself is not changed
    cmd = chat.hide_internal_turns(Command(goto="x", update={"supervisor_messages": [AIMessage("t", id="a")]}))
    assert cmd.goto == "x" and cmd.update["supervisor_messages"][0].id == "do-not-render-a"
    assert chat.hide_internal_turns(chat.hide_internal_turns({"supervisor_messages": [ai]})) == \
        chat.hide_internal_turns({"supervisor_messages": [ai]})


def test_progress_lines_only_on_a_server_and_folded_when_the_report_is_done():
    assert chat.progress_message({"configurable": {"thread_id": "t"}}, "x") is None  # the CLI: no chat
    config = {"configurable": {"run_id": "r1"}}
    step = chat.progress_message(config, "Writing the report…")
    assert step.content == "*Writing the report…*" and step.id.startswith("progress-step-r1-")
    assert chat.progress_message(config, "x").id != step.id  # each line its own id
    state = {"messages": [HumanMessage("Q?"), step], "research_iterations": 2, "sources": {"a": {}, "b": {}},
             "citation_summary": {"refs": 1}}
    removed, done = chat.progress_cleanup(state, config)
    assert isinstance(removed, RemoveMessage) and removed.id == step.id
    assert done.content == "*Done: 2 research rounds, 2 sources read, 1 citation checked.*"
    assert done.id.startswith("progress-done-r1-")


def test_the_conversation_a_model_sees_leaves_out_notices_and_citation_links():
    report = AIMessage("Heat pumps work [1](http://x/a#:~:text=A%20heat,fuel.) and [2](http://y/(b)).",
                       name="report")
    text = chat.conversation_text([HumanMessage("Q?"), AIMessage("*Writing…*", name="progress"), report,
                                   AIMessage("The run failed at x", name="error")])
    assert text == "User: Q?\nAssistant: Heat pumps work [1] and [2]."


def test_a_setup_failure_says_what_to_do_in_a_chat():
    one = chat.failure_message("preflight", "the run cannot start: no key", None, setup=True).content
    assert one.startswith("The run could not start: no key\n\nFix this setting") and "send your question again" in one
    many = chat.failure_message("preflight", "the run cannot start:\n- a\n- b", None, setup=True).content
    assert many.startswith("The run could not start:\n\n- a\n- b\n\n")
    later = chat.failure_message("publish", "disk full", "/r/notes.md").content
    assert "saved in /r/notes.md" in later and "send your message again" in later


def test_the_brief_a_model_wrote_is_inert_in_the_chat():
    """The brief may be written after reading pages (brief_search): its chat turn shows
    markup as text, so a client rendering markdown loads nothing."""
    from tests.research.scope.test_clarify import HOSTILE, _inert_in_a_chat

    turn = chat.brief_message("I want to know about heat pumps." + HOSTILE, 1, 3)
    assert _inert_in_a_chat(turn.content) == [], turn.content
    assert "I want to know about heat pumps." in turn.content and "p.png" in turn.content


def test_the_report_to_review_shows_controls_as_escapes():
    from deep_research.citations.model import Source

    page = "Tea\nTea plants grow best in acidic soil with a pH between 4.5 and 5.5.\n"
    md = ('# Tea \x1b]0;pwned\x07\n\nTea likes acid \u202esoil <ref id="t">"Tea plants grow best in acidic soil '
          'with a pH between 4.5 and 5.5."</ref>.\n')
    shown = chat.chat_markdown(md, [Source("t", "https://example.org/t", page, "Tea \x9b2J", "text")])
    assert "\\x1b]0;pwned\\x07" in shown and "\\u202esoil" in shown and "\\x9b2J" in shown
    assert not any(c in shown for c in "\x1b\x07\x9b\u202e")


def test_a_failure_quoting_a_servers_error_text_is_inert_in_the_chat():
    """A provider's error body (a server the user named, or a page's text in an error) is
    quoted in the failure turn: shown, never loaded."""
    from tests.research.scope.test_clarify import HOSTILE, _inert_in_a_chat

    for setup in (False, True):
        turn = chat.failure_message("write_research_brief", "model call failed: BadRequest:" + HOSTILE,
                                    "/r/notes.md", setup=setup)
        assert _inert_in_a_chat(turn.content) == [], turn.content
        assert "p.png" in turn.content and "`.env`" in turn.content or not setup


def test_a_servers_chat_is_not_shown_its_paths():
    """A server's chat named the server's folders: where a failed run's notes are, where the
    report was written (no download links). The CLI's turns still name them."""
    failed = chat.failure_message("publish", "disk full", "/srv/reports/t/notes.md", server=True).content
    assert "/srv" not in failed and "saved on the server (notes.md)" in failed
    done = chat.report_message("# R\n\nBody.", {}, {"dir": "/srv/reports/t", "pdf": "/srv/reports/t/report.pdf"},
                               server=True).content
    assert "/srv" not in done and done.startswith("# R\n\nBody.")
    assert "/srv/reports/t" in chat.report_message("# R", {}, {"dir": "/srv/reports/t"}).content
    assert "in /r/notes.md" in chat.failure_message("publish", "disk full", "/r/notes.md").content
    line = chat.progress_text({"stage": "index", "corpus": "/srv/corpus"})
    assert line.startswith("Indexing the documents") and "/srv" not in line

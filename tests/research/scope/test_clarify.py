"""Clarification with named ambiguity dimensions and a confidence gate (scope/clarify.py):
the model names the dimensions open to more than one reading with a confidence; code asks
only about those below ``clarify_confidence_threshold`` and the question names them;
otherwise research starts on the readings, which the confirmation states and the brief
sees. Unit tests of the gate, and real graph runs with the scripted model."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from deep_research.research.graph import make_graph
from deep_research.research.runtime.configuration import Configuration
from deep_research.research.runtime.deps import Deps
from deep_research.research.scope.clarify import (
    AmbiguousDimension,
    ClarifyWithUser,
    clarification_text,
    confidence_gate,
    dimension_name,
)
from deep_research.search.local import LocalCorpus, build_index
from tests.support.scenario import full_script, write_corpus
from tests.support.scripted import recording, scripted_factory, structured

DIMS = [{"dimension": "Time frame", "reading": "the last five years", "confidence": 0.3},
        {"dimension": "geography", "reading": "Europe", "confidence": "90%"},
        {"dimension": "audience", "reading": "home owners", "confidence": 0.55}]
QUESTIONS = [{"question": "Which period?", "suggested_answers": ["Since 2020", "Since 2010"], "dimension": "timeframe"},
             {"question": "Which region?", "suggested_answers": ["Europe", "North America"], "dimension": "geography"},
             {"question": "For whom?", "suggested_answers": ["Home owners", "Installers"], "dimension": "audience"}]


def answer(**kw) -> ClarifyWithUser:
    return ClarifyWithUser.model_validate({"need_clarification": True, "dimensions": DIMS, "questions": QUESTIONS,
                                           **kw})


def test_dimensions_and_confidences_are_normalised():
    assert [dimension_name(x) for x in ("Time frame", "timeframe", "time-frame", "Geography", "jargon", "")] == \
        ["time_frame", "time_frame", "time_frame", "geography", "other", ""]
    parsed = answer()
    assert [(d.dimension, d.confidence) for d in parsed.named()] == \
        [("time_frame", 0.3), ("geography", 0.9), ("audience", 0.55)]
    assert AmbiguousDimension(dimension="scope", confidence="n/a").confidence == 0.0
    assert AmbiguousDimension(dimension="scope", confidence=7).confidence == 0.07
    assert AmbiguousDimension(dimension="scope", confidence=-1).confidence == 0.0
    # the same dimension twice: the least confident reading counts
    twice = ClarifyWithUser(dimensions=[AmbiguousDimension(dimension="scope", confidence=0.8),
                                        AmbiguousDimension(dimension="Scope", confidence=0.2)])
    assert [d.confidence for d in twice.named()] == [0.2]


def test_the_gate_asks_only_about_dimensions_below_the_threshold():
    gate = confidence_gate(answer(), 0.6)
    assert [q.question for q in gate.questions] == ["Which period?", "For whom?"]
    assert [d.dimension for d in gate.unsure] == ["time_frame", "audience"]
    text = clarification_text(gate.questions, gate.unsure)
    assert text.startswith("Before I start, the request is open in time frame (my guess: the last five years, "
                           "30% sure), audience (my guess: home owners, 55% sure):\n")
    assert "1. (time frame) Which period?\n   [Since 2020] · [Since 2010]" in text
    assert "2. (audience) For whom?" in text and "geography" not in text and "Which region?" not in text
    # a lower threshold: only the least sure dimension; 0 never asks, 1 asks about all unsettled ones
    assert [q.question for q in confidence_gate(answer(), 0.4).questions] == ["Which period?"]
    assert confidence_gate(answer(), 0.0).questions == []
    assert len(confidence_gate(answer(), 1.0).questions) == 3
    # every dimension is sure enough: no question, even when the model wanted to ask
    assert confidence_gate(answer(), 0.25).questions == [] and confidence_gate(answer(), 0.25).unsure == []
    # unsure, but no question about it: research starts (on the readings)
    only_geo = answer(questions=[QUESTIONS[1]])
    assert confidence_gate(only_geo, 0.6).questions == []
    # questions tied to no dimension are asked when some dimension is unsure
    untied = answer(questions=[{"question": "Anything else?"}])
    assert [q.question for q in confidence_gate(untied, 0.6).questions] == ["Anything else?"]


def test_a_model_that_names_no_dimension_is_taken_at_its_word():
    legacy = ClarifyWithUser(need_clarification=True, question="Which country?")
    gate = confidence_gate(legacy, 0.6)
    assert [q.question for q in gate.questions] == ["Which country?"] and gate.unsure == []
    assert clarification_text(gate.questions, gate.unsure) == "Which country?"
    assert confidence_gate(ClarifyWithUser(need_clarification=False), 0.6).questions == []


def test_the_threshold_is_one_setting_from_the_run_or_the_environment():
    assert Configuration().clarify_confidence_threshold == 0.6
    env = {"DEEP_RESEARCH_CLARIFY_CONFIDENCE_THRESHOLD": "0.8"}
    assert Configuration.resolve(None, None, environ=env).clarify_confidence_threshold == 0.8
    assert Configuration.resolve(None, {"clarify_confidence_threshold": 0.3}, environ=env
                                 ).clarify_confidence_threshold == 0.3
    from deep_research.errors import UserError

    with pytest.raises(UserError, match="clarify_confidence_threshold"):
        Configuration.resolve(None, {"clarify_confidence_threshold": 1.5}, environ={})


# --- in a run --------------------------------------------------------------------------------------------
@pytest.fixture()
def corpus(tmp_path):
    folder = write_corpus(tmp_path / "corpus")
    build_index(folder, base_url="http://127.0.0.1:8765/")
    return folder


def run(corpus, tmp_path, threshold: float, message: str = "heat pumps?", *, questions: list = QUESTIONS,
        verification: str = "I will research heat pumps."):
    script = full_script(clarify=False)
    script.on("research", "You decide whether a research request is clear",
              structured("ClarifyWithUser", need_clarification=True, dimensions=DIMS, questions=questions,
                         verification=verification), repeat=True, name="clarify")
    brief_prompts: list[str] = []
    for rule in script.rules:
        if rule["contains"].startswith("Turn the conversation"):
            rule["responses"] = type(rule["responses"])([recording(brief_prompts, rule["responses"][0])])
    deps = Deps(model_factory=scripted_factory(script), search_factory=lambda cfg: LocalCorpus.open(corpus))
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    ctx = {"allow_clarification": True, "clarify_confidence_threshold": threshold, "search_api": "local",
           "output_dir": str(tmp_path / "reports"), "write_pdf": False, "max_researcher_iterations": 1}

    async def go():
        config = {"configurable": {"thread_id": "clarify"}}
        async for _ in graph.astream({"messages": [HumanMessage(message)]}, config, context=ctx,
                                     stream_mode="updates", subgraphs=True):
            pass
        return await graph.aget_state(config)

    return asyncio.run(go()), script, brief_prompts


def test_below_the_threshold_the_run_asks_and_the_question_names_the_dimensions(corpus, tmp_path):
    state, script, brief_prompts = run(corpus, tmp_path, 0.6)
    v = state.values
    assert v["status"] == "needs_clarification" and not state.next and not brief_prompts
    turn = v["messages"][-1]
    assert turn.name == "clarification" and "time frame" in turn.content and "audience" in turn.content
    assert "Which region?" not in turn.content
    assert v["clarifying_questions"] == [
        {"question": "Which period?", "suggested_answers": ["Since 2020", "Since 2010"], "dimension": "time_frame"},
        {"question": "For whom?", "suggested_answers": ["Home owners", "Installers"], "dimension": "audience"}]
    assert turn.additional_kwargs["clarifying_questions"] == v["clarifying_questions"]
    record = v["clarification"]
    assert record["asked"] and record["threshold"] == 0.6 and record["unsure"] == ["time_frame", "audience"]
    assert [d["dimension"] for d in record["dimensions"]] == ["time_frame", "geography", "audience"]
    assert turn.additional_kwargs["ambiguous_dimensions"] == record["dimensions"]


def test_above_the_threshold_research_starts_on_the_stated_readings(corpus, tmp_path):
    state, script, brief_prompts = run(corpus, tmp_path, 0.2)
    v = state.values
    assert v["status"] == "completed", v.get("errors")
    assert not v["clarification"]["asked"] and v["clarification"]["unsure"] == []
    confirmation = "I will research heat pumps. Assuming time frame: the last five years; geography: Europe; " \
                   "audience: home owners."
    assert any(m.content == confirmation for m in v["messages"])
    assert brief_prompts and confirmation in brief_prompts[0]  # the brief is written on those readings


# --- what the model says in the chat is shown, never run ---------------------------------------------------
HOSTILE = " ![p](http://127.0.0.1:9/p.png) <img src=http://169.254.169.254/i.png> [j](javascript:alert(1)) \x1b[2J\u202e"


def _inert_in_a_chat(text: str) -> list[str]:
    """What a chat client that renders markdown (raw HTML on) would load or run."""
    import re

    from lxml import html as lxml_html
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": True})
    md.validateLink = lambda url: True
    tree = lxml_html.fragment_fromstring(md.render(text), create_parent="div")
    found = [el.tag for el in tree.iter() if el.tag in ("img", "script", "iframe")]
    found += [a.get("href") for a in tree.iter("a") if not a.get("href", "").startswith(("http:", "https:"))]
    found += re.findall("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", text)
    return found


@pytest.mark.parametrize("threshold", [0.6, 0.2], ids=["asks", "confirms"])
def test_the_models_clarifying_question_and_confirmation_are_inert_in_the_chat(corpus, tmp_path, threshold):
    hostile = [{**q, "question": q["question"] + HOSTILE} for q in QUESTIONS]
    state, _, _ = run(corpus, tmp_path, threshold, questions=hostile,
                      verification="I will research heat pumps." + HOSTILE)
    values = state.values
    said = [m for m in values["messages"] if m.type == "ai" and ("Which period?" in m.content
                                                                 or "I will research" in m.content)]
    assert said, [m.content[:80] for m in values["messages"]]
    for m in said:
        assert _inert_in_a_chat(m.content) == [], m.content
        assert "p.png" in m.content  # shown as text


# --- a message that is no question ---------------------------------------------------------------------------
def _chat(corpus, tmp_path, thread: str):
    """A chat thread of the real graph (no clarification, one round): (its script, a function
    sending one message, with notices after it, and returning the thread's values, the
    brief prompts recorded)."""
    script = full_script(clarify=False)
    deps = Deps(model_factory=scripted_factory(script), search_factory=lambda cfg: LocalCorpus.open(corpus))
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    ctx = {"allow_clarification": False, "search_api": "local", "output_dir": str(tmp_path / "reports"),
           "write_pdf": False, "max_researcher_iterations": 1}
    config = {"configurable": {"thread_id": thread}}
    brief_prompts: list[str] = []
    for rule in script.rules:
        if rule["contains"].startswith("Turn the conversation"):
            rule["responses"] = type(rule["responses"])([recording(brief_prompts, rule["responses"][0])])

    def send(text: str | list, progress: bool = False) -> dict:
        async def go():
            # on a server, the preflight's "Indexing…" line of a new thread comes after the message
            notices = [AIMessage("Indexing the documents…", name="progress")] if progress else []
            sent = text if isinstance(text, list) else [HumanMessage(text)]
            async for _ in graph.astream({"messages": [*sent, *notices]}, config, context=ctx,
                                         stream_mode="updates"):
                pass
            return (await graph.aget_state(config)).values

        return asyncio.run(go())

    return script, send, brief_prompts


@pytest.mark.parametrize("message, said, progress", [
    ("", "Your message is empty", False), (" \u200b\n ", "Your message is empty", False),
    ("x" * 20_001, "20,001 characters long; the limit is 20,000", False),
    ("", "Your message is empty", True),
    ("How do heat \x1b[2Jpumps work\x07?", "Your message contains control characters (0x1b, 0x7)", False)],
    ids=["empty", "blank", "too-long", "after-a-progress-line", "controls"])
def test_a_chat_message_that_is_no_question_is_answered_without_a_model_call(corpus, tmp_path, message, said,
                                                                             progress):
    """On a server, an empty chat message (or one of 2,000,000 characters) started a whole
    research run: every model call of it, each prompt with the message in it. The CLI refuses
    both ("the question is empty", the 20,000-character limit). Now the run says why in the
    chat, at no model call, and the next message is the question."""
    script, send, brief_prompts = _chat(corpus, tmp_path, "no-question")
    v = send(message, progress)
    assert sum(script.calls.values()) == 0, script.log
    turn = v["messages"][-1]
    assert turn.type == "ai" and said in turn.content, turn.content
    assert v["status"] == "needs_clarification" and not v.get("question")
    assert all(len(m.content) <= 1_000 for m in v["messages"])  # the refused text is not kept whole
    assert not [m.content for m in v["messages"] if "\x1b" in m.content or "\x07" in m.content]  # nor its controls
    # the next message is the question, and the refused one is no part of the conversation
    v = send("How do heat pumps work in the cold?")
    assert v["question"] == "How do heat pumps work in the cold?" and v["status"] == "completed", v.get("errors")
    assert brief_prompts and "x" * 1_000 not in brief_prompts[0] and "Your message" not in brief_prompts[0]


@pytest.mark.parametrize("sent", [[], [AIMessage("How do heat pumps work in the cold?")],
                                  [ToolMessage("How do heat pumps work in the cold?", tool_call_id="c1")]],
                         ids=["no-message", "assistant-only", "tool-only"])
def test_a_run_with_no_user_message_is_answered_without_a_model_call(corpus, tmp_path, sent):
    """A server run's input whose messages hold no user message ([] or only an assistant or a
    tool turn, which any API client can send) researched an empty question: every model call
    of a run, a report folder named "report" and run.json's question ''. Now it is answered
    as an empty message is, at no model call, and the next message is the question."""
    script, send, brief_prompts = _chat(corpus, tmp_path, "no-user-message")
    v = send(sent)
    assert sum(script.calls.values()) == 0, script.log
    turn = v["messages"][-1]
    assert turn.type == "ai" and "Your message is empty" in turn.content, turn.content
    assert v["status"] == "needs_clarification" and not v.get("question")
    v = send("How do heat pumps work in the cold?")
    assert v["question"] == "How do heat pumps work in the cold?" and v["status"] == "completed", v.get("errors")


def test_a_chat_messages_bidi_controls_are_removed_before_any_model_reads_it(corpus, tmp_path):
    """A chat message's bidirectional overrides and isolates (U+202E ...) reached every
    prompt and the thread as sent: a question shown in one order and read by the models in
    another. They hold no words: they are removed from the message (its thread turn is
    replaced under its id) before the first model call; its letters stay."""
    _, send, brief_prompts = _chat(corpus, tmp_path, "bidi")
    v = send("How do heat pumps work \u2067in the \u202ecold\u202c\u2069? \u05e9\u05dc\u05d5\u05dd")
    assert v["question"] == "How do heat pumps work in the cold? \u05e9\u05dc\u05d5\u05dd", v["question"]
    assert v["status"] == "completed", v.get("errors")
    asked = [m.content for m in v["messages"] if m.type == "human"]
    assert asked == ["How do heat pumps work in the cold? \u05e9\u05dc\u05d5\u05dd"], asked
    assert brief_prompts and not [p for p in brief_prompts if "\u202e" in p or "\u2067" in p]

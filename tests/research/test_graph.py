"""Behaviour of the research graph, one rule at a time: configuration precedence, routing
of the scoping steps, the caps the code enforces (research units per round, supervisor
rounds, researcher tool calls), what the supervisor and refine steps are shown, history
summarisation, usage accounting and failure handling.

Each test drives the real graph (InMemorySaver, InMemoryStore, a tiny local corpus) with
a small script of model answers (tests/support/scripted.py), and checks what the models
were asked and what ended up in state.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
import re
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command

from deep_research.errors import UserError
from deep_research.research.runtime.deps import Deps
from deep_research.research.runtime.failure import ResearchFailed
from deep_research.research.runtime.configuration import Configuration
from deep_research.research.graph import make_graph
from deep_research.search.local import LocalCorpus, build_index
from tests.support.scenario import compress, final_report, judge_claims, summarise_page, write_corpus
from tests.support.scripted import (
    Script,
    calls,
    prompt_text,
    scripted_factory,
    structured,
    tool_call,
)

QUESTION = "How well do heat pumps work in cold climates, and what do they cost?"
BRIEF = "I want to know how heat pumps perform in cold climates and what they cost. Report in English."
TOPIC_A = "Topic A: heat pump efficiency in cold weather"
TOPIC_B = "Topic B: heat pump installation costs"
SUMMARY_RULE = "Summarise this research conversation so far"


# --- fixtures and helpers ---------------------------------------------------------------
@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    folder = write_corpus(tmp_path_factory.mktemp("units") / "corpus")
    build_index(folder, base_url="http://127.0.0.1:8765/")
    return folder


class CountingSearch:
    """The local corpus, counting the queries it is asked."""

    name = "counting"

    def __init__(self, inner):
        self.inner = inner
        self.queries: list[str] = []

    async def search(self, query: str, *, max_results: int = 5):
        self.queries.append(query)
        return await self.inner.search(query, max_results=max_results)


def marker(topic: str) -> str:
    """Text that appears only in the findings of one topic (never in the research log)."""
    return f"[[findings of {topic}]]"


def tagged_compress(messages):
    """The scenario's compression (cites every verified sentence) plus a marker naming the
    topic, so a prompt shows whose findings it contains."""
    topic = re.search(r"^Topic: (.*)$", prompt_text(messages), re.MULTILINE).group(1).strip()
    return compress(messages) + f"\n- {marker(topic)}"


def search_once(query: str = "heat pump"):
    """A researcher that searches once and then stops."""

    def step(messages):
        if any(isinstance(m, ToolMessage) for m in messages):
            return "I have enough evidence."
        return calls(tool_call("search", query=query))

    return step


def recording(log: list, response):
    """A response that also records the prompt text it was asked with."""

    def respond(messages):
        log.append(prompt_text(messages))
        return response(messages) if callable(response) else response

    return respond


def base_script(*, researcher=None) -> Script:
    """Every rule except the supervisor's: brief, draft, researchers (unless given),
    page summaries, compression, refine, final report, citation check."""
    s = Script()
    s.on("research", "Turn the conversation into a research brief",
         structured("ResearchQuestion", research_brief=BRIEF), repeat=True, name="brief")
    s.on("research", "A human reviewer rejected",
         structured("ResearchQuestion", research_brief=BRIEF + " Focus on Europe."), repeat=True,
         name="revise")
    s.on("final_report", "Write a first draft", "# Draft v0\n\nHeat pumps [to verify].", repeat=True,
         name="draft")
    if researcher is not False:
        s.on("research", "Research this topic:", researcher or search_once(), repeat=True,
             name="researcher")
    s.on("summarization", "Summarise this page for a researcher", summarise_page, repeat=True)
    s.on("compression", "You condense a researcher's work", tagged_compress, repeat=True)
    s.on("final_report", "Write the final research report", final_report(wrong_quote=False), repeat=True)
    s.on("citation_check", "A citation in a research report failed the check",
         structured("FixCitation", action="remove", softened_text="Heat pumps work."), repeat=True)
    s.on("citation_check", "You check a research report's claims", judge_claims(), repeat=True)
    return s


def supervisor_rounds(s: Script, rounds: dict[int, object], prompts: list | None = None) -> None:
    """Supervisor answers by round number (recording its prompts when asked)."""
    for n, reply in rounds.items():
        s.on("research", f"Round {n} of", recording(prompts, reply) if prompts is not None else reply,
             repeat=True, name=f"supervisor round {n}")


def graph_for(script: Script, corpus: Path, search=None):
    search = search or LocalCorpus.open(corpus)
    deps = Deps(model_factory=scripted_factory(script), search_factory=lambda cfg: search)
    return make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())


def context(tmp_path: Path, **overrides) -> dict:
    ctx = {"allow_clarification": False, "search_api": "local", "output_dir": str(tmp_path / "reports"),
           "write_pdf": False}
    ctx.update(overrides)
    return ctx


async def drive(graph, payload, ctx: dict, thread: str = "t", updates: list | None = None, **kwargs):
    """Run until the graph ends or waits; returns the thread's state snapshot."""
    config = {"configurable": {"thread_id": thread}}
    async for ns, update in graph.astream(payload, config, context=ctx, stream_mode="updates",
                                          subgraphs=True, **kwargs):
        if updates is not None:
            updates.append((ns, update))
    return await graph.aget_state(config)


def researcher_states(graph, thread: str = "t") -> list[dict]:
    """The last checkpointed state of each researcher subgraph run of a thread (subgraphs
    share the parent's checkpointer; their updates are not streamed beyond their output
    schema, so their own channels are read from the checkpoints)."""
    latest: dict[str, tuple[str, dict]] = {}
    for cp in graph.checkpointer.list({"configurable": {"thread_id": thread}}):
        ns = cp.config["configurable"].get("checkpoint_ns", "")
        if not ns.split("|")[-1].startswith("researcher:"):
            continue
        ts = cp.checkpoint["ts"]
        if ns not in latest or ts > latest[ns][0]:
            latest[ns] = (ts, cp.checkpoint["channel_values"])
    return [values for _, values in latest.values()]


def start(question: str = QUESTION) -> dict:
    return {"messages": [HumanMessage(question)]}


def rule_count(script: Script, name_start: str) -> int:
    return sum(1 for _, name in script.log if name.startswith(name_start))


def compressions(script: Script) -> int:
    return script.calls["compression"]


# --- configuration ----------------------------------------------------------------------
ENV_UNITS = "DEEP_RESEARCH_MAX_CONCURRENT_RESEARCH_UNITS"


def test_run_context_wins_over_environment():
    cfg = Configuration.resolve({"configurable": {}}, {"max_concurrent_research_units": 5},
                                environ={ENV_UNITS: "7"})
    assert cfg.max_concurrent_research_units == 5


def test_environment_wins_over_default():
    assert Configuration.resolve(None, None, environ={}).max_concurrent_research_units == 3
    cfg = Configuration.resolve(None, None, environ={ENV_UNITS: "7", "DEEP_RESEARCH_SEARCH_API": "LOCAL",
                                                     "DEEP_RESEARCH_WRITE_PDF": "false"})
    assert cfg.max_concurrent_research_units == 7
    assert cfg.search_api.value == "local" and cfg.write_pdf is False
    # an empty variable counts as unset
    assert Configuration.resolve(None, None, environ={ENV_UNITS: ""}).max_concurrent_research_units == 3


def test_configurable_used_when_no_context_and_context_beats_configurable():
    config = {"configurable": {"max_concurrent_research_units": 4, "thread_id": "x"}}
    assert Configuration.resolve(config, None, environ={ENV_UNITS: "7"}).max_concurrent_research_units == 4
    assert Configuration.resolve(config, {"max_concurrent_research_units": 6},
                                 environ={ENV_UNITS: "7"}).max_concurrent_research_units == 6
    # None in the run values means "not set": the environment still applies
    assert Configuration.resolve({"configurable": {"max_concurrent_research_units": None}},
                                 {"max_concurrent_research_units": None},
                                 environ={ENV_UNITS: "7"}).max_concurrent_research_units == 7


def test_context_object_only_overrides_the_fields_it_sets():
    """LangGraph turns the run context into a Configuration; its defaults must not hide
    the environment."""
    ctx = Configuration(max_concurrent_research_units=5)
    cfg = Configuration.resolve(None, ctx, environ={"DEEP_RESEARCH_MAX_RETRIES": "7", ENV_UNITS: "9"})
    assert cfg.max_concurrent_research_units == 5
    assert cfg.max_retries == 7


def test_openai_base_url_from_environment_unless_set():
    env = {"OPENAI_BASE_URL": "http://localhost:11434/v1"}
    assert Configuration.resolve(None, None, environ=env).model_base_url == "http://localhost:11434/v1"
    cfg = Configuration.resolve(None, {"model_base_url": "http://vllm:8000/v1"}, environ=env)
    assert cfg.model_base_url == "http://vllm:8000/v1"
    assert cfg.model_spec("compression")["base_url"] == "http://vllm:8000/v1"


def test_test_mode_preset_shrinks_limits():
    big = {"max_concurrent_research_units": 10, "max_researcher_iterations": 10, "max_react_tool_calls": 20,
           "max_search_results": 10, "max_page_chars": 50_000, "allow_clarification": True}
    normal = Configuration.resolve(None, big, environ={})
    assert normal.max_concurrent_research_units == 10 and normal.allow_clarification
    small = Configuration.resolve(None, {**big, "test_mode": True}, environ={})
    assert (small.max_concurrent_research_units, small.max_researcher_iterations, small.max_react_tool_calls,
            small.max_search_results, small.max_page_chars) == (2, 2, 3, 3, 8000)
    assert small.allow_clarification is False
    # values already below the preset stay as they are; test_mode may come from the environment
    tiny = Configuration.resolve(None, {"max_concurrent_research_units": 1},
                                 environ={"DEEP_RESEARCH_TEST_MODE": "true"})
    assert tiny.test_mode and tiny.max_concurrent_research_units == 1 and tiny.max_researcher_iterations == 2
    assert tiny.clamped == []  # the preset lowered defaults only: nothing the run gave


def test_a_value_the_run_gave_that_test_mode_lowers_is_said():
    """test_mode lowered a limit the run gave itself (10 research units to 2) and turned its
    clarification off without a word; each is listed with the environment's ceilings, which
    the CLI prints and the graph records (degradations of kind clamped)."""
    small = Configuration.resolve(None, {"test_mode": True, "max_concurrent_research_units": 10,
                                         "max_react_tool_calls": 2, "allow_clarification": True}, environ={})
    assert [(c["setting"], c["requested"], c["ceiling"]) for c in small.clamped] == [
        ("max_concurrent_research_units", 10, 2), ("allow_clarification", True, False)]
    assert small.clamped[0]["message"] == ("max_concurrent_research_units 10 is above the test_mode preset's 2: "
                                           "this run uses 2")


@pytest.mark.parametrize("source, field, value", [
    ("context", "max_concurrent_research_units", 0),
    ("context", "max_concurrent_research_units", 21),
    ("context", "search_api", "bing"),
    ("configurable", "summarize_after_tokens", 10),
    ("env", "max_retries", "lots"),
    ("env", "request_timeout_s", "-1"),
])
def test_invalid_values_raise_user_error_naming_the_field(source, field, value):
    config, ctx, environ = None, None, {}
    if source == "context":
        ctx = {field: value}
    elif source == "configurable":
        config = {"configurable": {field: value}}
    else:
        environ = {f"DEEP_RESEARCH_{field.upper()}": value}
    with pytest.raises(UserError) as err:
        Configuration.resolve(config, ctx, environ=environ)
    assert field in str(err.value)
    assert "invalid configuration" in str(err.value)


def test_api_keys_are_never_configuration_values():
    key_fields = [f for f in Configuration.model_fields if "key" in f]
    assert key_fields and all(f.endswith("_api_key_env") for f in key_fields)
    secret = "sk-thisisasecretkey0123456789"
    env = {"OPENAI_API_KEY": secret, "DEEP_RESEARCH_OPENAI_API_KEY": secret, "DEEP_RESEARCH_API_KEY": secret,
           "MY_KEY": secret}
    cfg = Configuration.resolve({"configurable": {"api_key": secret, "openai_api_key": secret}},
                                {"research_model_api_key_env": "MY_KEY"}, environ=env)
    # a key given in a run's context is no setting: refused, naming the name, never the value
    with pytest.raises(UserError, match="unknown setting.*'openai_api_key'") as refused:
        Configuration.resolve(None, {"openai_api_key": secret, "research_model_api_key_env": "MY_KEY"}, environ=env)
    assert secret not in str(refused.value)
    assert secret not in cfg.model_dump_json()
    spec = cfg.model_spec("research")
    assert spec["api_key_env"] == "MY_KEY"
    assert secret not in repr(spec)
    # the role falls back to the shared variable name, never to a value
    assert Configuration.resolve(None, {"model_api_key_env": "SHARED"}, environ={}) \
        .model_spec("summarization")["api_key_env"] == "SHARED"
    schema_props = Configuration.model_json_schema()["properties"]
    assert not [p for p in schema_props if p.endswith("api_key")]


def test_a_misspelt_setting_in_a_runs_context_is_refused_naming_it():
    """A run's context with a setting name that is not one ("max_total_token") was dropped
    without a word: the run went on with no cap. It is refused, naming what was typed and
    the setting it is closest to (the server's auth handler answers 403 with it)."""
    with pytest.raises(UserError, match=r"unknown setting\(s\) in the run's context: 'max_total_token' \(did you "
                                        r"mean max_total_tokens\?\); 'colour'$"):
        Configuration.resolve(None, {"max_total_token": 1000, "search_api": "local", "colour": "red"}, environ={})
    # a configurable holds LangGraph's own keys too (thread_id, run_id ...): read, not refused
    cfg = Configuration.resolve({"configurable": {"thread_id": "t", "max_total_token": 1}}, None, environ={})
    assert cfg.max_total_tokens is None


def test_a_graph_run_whose_context_misspells_a_setting_fails_naming_it(corpus, tmp_path):
    """LangGraph builds a run's context with Configuration: an unknown name was dropped there
    (a run without the auth handler, a Python caller) and the run went on without the cap
    it meant. It fails before any model call, naming the name."""
    from pydantic import ValidationError

    script = base_script()
    graph = graph_for(script, corpus)
    with pytest.raises(ValidationError, match=r"max_total_token\n.*Extra inputs are not permitted"):
        asyncio.run(drive(graph, start(), {**context(tmp_path), "max_total_token": 1000}))
    assert not script.calls


def test_an_odd_settings_replaced_marker_fails_the_run_with_a_message_naming_it(corpus, tmp_path):
    """A trusted caller (no auth) that gives the command line's resume marker
    deep_research_settings_replaced as a number failed with "'int' object is not iterable"
    (a TypeError, logged with its traceback). It fails before any model call with a setup
    error naming the key and the shape expected, in the state and as a chat turn."""
    from deep_research.research.runtime.thread_settings import REPLACED, RESTATED

    script = base_script()
    graph = graph_for(script, corpus)
    config = {"configurable": {"thread_id": "t", RESTATED: True, REPLACED: 5}}

    async def scenario():
        async for _ in graph.astream(start(), config, context=context(tmp_path)):
            pass

    with pytest.raises(UserError, match=f"configurable {REPLACED} must be a list of records .* not int 5"):
        asyncio.run(scenario())
    assert not script.calls
    v = graph.get_state(config).values
    assert v["status"] == "failed" and f"configurable {REPLACED}" in v["errors"][-1]["message"]
    assert f"configurable {REPLACED}" in v["messages"][-1].content


def test_a_null_setting_is_not_given_in_a_context_as_in_a_configurable(corpus, tmp_path, monkeypatch):
    """A form or SDK caller may send null for a blank field. In a configurable a null was
    "not given"; in a context (LangGraph builds it with Configuration) it counted as given:
    a null for a number failed before any node with pydantic's "Input should be a valid
    integer", and a null cap was taken over the environment's value. Now a null is "not
    given" in every path: the environment's value, else the default."""
    nulls = {"max_researcher_iterations": None, "max_total_tokens": None, "require_brief_approval": None,
             "research_urls": None}
    monkeypatch.setenv("DEEP_RESEARCH_MAX_TOTAL_TOKENS", "900000")
    for config, ctx in (({"configurable": nulls}, None), (None, nulls), (None, Configuration(**nulls))):
        cfg = Configuration.resolve(config, ctx)
        assert (cfg.max_researcher_iterations, cfg.max_total_tokens, cfg.clamped) == (4, 900000, []), (config, ctx)
    assert Configuration(**nulls).model_fields_set == set()
    script = base_script()
    graph = graph_for(script, corpus)
    state = asyncio.run(drive(graph, start(), {**context(tmp_path), **nulls}, interrupt_before=["research_supervisor"]))
    assert state.next == ("research_supervisor",)  # no approval asked: its null is the default, off
    assert "max_total_tokens" not in state.values["question_settings"]


def test_dict_setting_from_environment():
    env = {"DEEP_RESEARCH_MCP_CONFIG": '{"url": "http://127.0.0.1:9000/mcp", "tools": ["lookup"]}'}
    cfg = Configuration.resolve(None, None, environ=env)
    assert cfg.mcp_config == {"url": "http://127.0.0.1:9000/mcp", "tools": ["lookup"]}


# --- routing of the scoping steps ------------------------------------------------------------
def test_allow_clarification_false_skips_clarify(corpus, tmp_path):
    script = base_script()  # no clarify rule: a clarify call would fail loudly
    graph = graph_for(script, corpus)
    state = asyncio.run(drive(graph, start(), context(tmp_path, require_brief_approval=True)))
    assert state.next == ("approve_research_brief",)
    assert script.log[0][1] == "brief"
    assert not any("Clarify" in name for _, name in script.log)
    assert state.values["research_brief"] == BRIEF


def test_allow_clarification_true_asks_the_model_first(corpus, tmp_path):
    script = base_script()
    script.on("research", "You decide whether a research request is clear",
              structured("ClarifyWithUser", need_clarification=False, verification="I will research X."),
              name="clarify")
    graph = graph_for(script, corpus)
    state = asyncio.run(drive(graph, start(), context(tmp_path, allow_clarification=True,
                                                      require_brief_approval=True)))
    assert [name for _, name in script.log][:2] == ["clarify", "brief"]
    assert state.values["messages"][-2].content == "I will research X."
    # the brief to approve is the next chat turn
    assert state.values["messages"][-1].name == "brief" and BRIEF in state.values["messages"][-1].content


def test_the_brief_approval_interrupt_carries_the_brief_as_the_chat_shows_it(corpus, tmp_path):
    """A chat client (Agent Chat UI, Studio) renders the interrupt's args and keys: the
    model's brief and plan reach it under the chat turn's policy (shown_text), never raw:
    no terminal escape, no bidi override, no image that loads an internal address."""
    hostile = ("Heat pumps \x1b[2J\x1b]0;owned\x07in the cold \u202eevil\u202c. "
               "![x](http://169.254.169.254/latest/meta-data) Report in English.")
    script = base_script()
    script.on("research", "Turn the conversation into a research brief", structured(
        "ResearchQuestion", research_brief=hostile, entities=["Acme\x9b31m"],
        sub_questions=[{"question": "What do they cost \u2066now\u2069?", "priority": "high"}]), repeat=True)
    script.rules.insert(0, script.rules.pop())  # before the plain brief
    graph = graph_for(script, corpus)
    state = asyncio.run(drive(graph, start(), context(tmp_path, require_brief_approval=True)))
    assert state.next == ("approve_research_brief",)
    payload = state.interrupts[0].value
    shown = [payload["action_requests"][0]["args"]["research_brief"], payload["research_brief"],
             str(payload["research_plan"])]
    for text in shown:
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", text), text
        assert "![" not in text
    assert "\\x1b[2J" in shown[0] and "\\u202eevil" in shown[0] and "[Image: x]" in shown[0]
    assert payload["research_plan"]["sub_questions"][0]["question"] == "What do they cost \\u2066now\\u2069?"
    assert payload["research_plan"]["entities"] == ["Acme\\x9b31m"]
    # the same text as the chat turn that shows the brief
    assert shown[0] in state.values["messages"][-1].content
    # the state keeps what the model wrote; the brief approved is the state's
    assert "\x1b[2J" in state.values["research_brief"]


def test_no_brief_approval_goes_straight_to_draft(corpus, tmp_path):
    script = base_script()
    graph = graph_for(script, corpus)
    state = asyncio.run(drive(graph, start(), context(tmp_path, require_brief_approval=False),
                              interrupt_before=["research_supervisor"]))
    assert state.next == ("research_supervisor",)
    assert not state.interrupts  # nobody was asked
    assert state.values["draft_report"].startswith("# Draft v0")
    assert state.values["stage"] == "draft"
    assert [name for _, name in script.log] == ["brief", "draft"]


@pytest.mark.parametrize("max_rounds", [0, 2])
def test_rejecting_beyond_max_refinement_rounds_proceeds_with_the_last_brief(corpus, tmp_path, max_rounds):
    script = base_script()
    graph = graph_for(script, corpus)
    ctx = context(tmp_path, require_brief_approval=True, max_brief_refinement_rounds=max_rounds)

    async def scenario():
        state = await drive(graph, start(), ctx)
        for i in range(max_rounds + 1):
            assert state.next == ("approve_research_brief",)
            assert state.interrupts[0].value["round"] == i + 1
            assert state.interrupts[0].value["max_rounds"] == max_rounds + 1
            state = await drive(graph, Command(resume={"type": "reject", "feedback": f"change {i}"}), ctx,
                                interrupt_before=["research_supervisor"])
        return state

    state = asyncio.run(scenario())
    v = state.values
    assert state.next == ("research_supervisor",) and not state.interrupts  # nobody is asked again
    assert rule_count(script, "revise") == max_rounds
    assert f"rejected {max_rounds + 1} times" in v["messages"][-1].content
    assert "research proceeds with the last brief" in v["messages"][-1].content
    # the draft follows the last brief; the feedback it does not address is on record
    assert rule_count(script, "draft") == 1 and v["draft_report"]
    unresolved = [d for d in v["degradations"] if d.get("kind") == "unresolved_feedback"]
    assert len(unresolved) == 1 and unresolved[0]["message"].endswith(f"change {max_rounds}")
    assert v["status"] != "brief_rejected" and not v.get("errors")


def test_a_brief_approval_asked_stays_asked_when_the_resuming_run_omits_the_setting(corpus, tmp_path):
    """A server run's settings are its own: the run that resumes the thread may not repeat
    require_brief_approval. A rejection was then ignored and research began on the brief the
    reviewer refused; the approval asked is now answered, each rewrite asked again."""
    script = base_script()
    graph = graph_for(script, corpus)
    asked, resumed = context(tmp_path, require_brief_approval=True), context(tmp_path)

    async def scenario():
        state = await drive(graph, start(), asked)
        assert state.next == ("approve_research_brief",)
        state = await drive(graph, Command(resume={"type": "reject", "feedback": "Cover costs too."}), resumed,
                            interrupt_before=["research_supervisor"])
        assert state.next == ("approve_research_brief",) and state.interrupts[0].value["round"] == 2
        assert rule_count(script, "revise") == 1 and rule_count(script, "draft") == 0
        return await drive(graph, Command(resume={"type": "approve"}), resumed, interrupt_before=["research_supervisor"])

    state = asyncio.run(scenario())
    assert state.next == ("research_supervisor",) and rule_count(script, "draft") == 1
    assert not state.values["brief_approval_open"]



def keep_searching():
    counter = itertools.count(1)
    return lambda messages: calls(tool_call("search", query=f"heat pump {next(counter)}"))


def test_the_settings_a_question_was_started_with_hold_when_another_run_resumes_it(corpus, tmp_path):
    """On a LangGraph server the run that approves the brief is another run, with its own
    settings: one it omits fell back to the default (here: the researchers' tool-call limit,
    2 when the question was asked, the default 6 from the approval on). The question's settings hold
    for the run that resumes it, in the supervisor's and the researchers' subgraphs too."""
    script = base_script(researcher=keep_searching())
    supervisor_rounds(script, {1: calls(tool_call("ConductResearch", topic=TOPIC_A)),
                               2: calls(tool_call("ResearchComplete"))})
    search = CountingSearch(LocalCorpus.open(corpus))
    graph = graph_for(script, corpus, search)
    asked = context(tmp_path, require_brief_approval=True, max_react_tool_calls=2)

    async def scenario():
        state = await drive(graph, start(), asked)
        assert state.next == ("approve_research_brief",)
        return await drive(graph, Command(resume={"type": "approve"}), context(tmp_path))

    v = asyncio.run(scenario()).values
    assert v["status"] == "completed" and len(search.queries) == 2
    assert v["question_settings"] == asked


def test_a_setting_the_resuming_run_gives_that_is_not_used_is_said_in_the_chat_and_audit(corpus, tmp_path):
    """The run that approves the brief asks for 6 researcher tool calls, no report review
    and another report format; the question was started with 2, a review and a brief
    report: those hold, and the user reads so once in the chat (one line each: the setting,
    the value typed, the value kept), in the degradations and in audit.json. It was only
    logged."""
    script = base_script(researcher=keep_searching())
    supervisor_rounds(script, {1: calls(tool_call("ConductResearch", topic=TOPIC_A)),
                               2: calls(tool_call("ResearchComplete"))})
    graph = graph_for(script, corpus, CountingSearch(LocalCorpus.open(corpus)))
    asked = context(tmp_path, require_brief_approval=True, max_react_tool_calls=2, report_format="concise")
    resumed = context(tmp_path, require_brief_approval=True, max_react_tool_calls=6, report_format="detailed")

    async def scenario():
        state = await drive(graph, start(), asked)
        assert state.next == ("approve_research_brief",)
        return await drive(graph, Command(resume={"type": "approve"}), resumed)

    v = asyncio.run(scenario()).values
    assert v["status"] == "completed"
    notices = [m for m in v["messages"] if m.name == "settings"]
    assert len(notices) == 1  # once per run, though every node of the run applies the settings
    lines = notices[0].content.splitlines()[1:]
    assert lines == ["- max_react_tool_calls: 6 given by this run is not used; 2 is kept (a run that resumes a "
                     "question never raises a limit the question was started with)",
                     "- report_format: detailed given by this run is not used; concise is kept (the question is "
                     "researched and written with the settings it was started with)"]
    # before the report: the user reads it first
    assert v["messages"].index(notices[0]) < next(i for i, m in enumerate(v["messages"]) if m.name == "report")
    expected = [{"setting": "max_react_tool_calls", "asked": 6, "kept": 2},
                {"setting": "report_format", "asked": "detailed", "kept": "concise"}]
    assert [{k: r[k] for k in ("setting", "asked", "kept")} for r in v["ignored_settings"]] == expected
    assert [d["kind"] for d in v["degradations"] if d["stage"] == "configuration"] == ["setting_ignored"] * 2
    audit = json.loads(Path(v["outputs"]["audit"]).read_text())
    assert [{k: r[k] for k in ("setting", "asked", "kept")} for r in audit["settings_ignored"]] == expected
    assert all(r["why"] for r in audit["settings_ignored"])


@pytest.mark.parametrize("given", [None, "openai:new-model"])
def test_a_setting_of_the_question_the_server_refuses_now_is_replaced_and_said(corpus, tmp_path, monkeypatch, given):
    """The question was started with a model the server's allowed models no longer hold. The
    recorded setting outranks the resuming run's, so every run on the thread failed the same
    way ("model openai:old-model ... is not allowed"), whatever model it gave: a dead thread.
    Now the run's own model (else the server's) replaces it, the chat and the degradations
    say which, why and with what, and the question keeps the replacement."""
    script = base_script()
    graph = graph_for(script, corpus)
    asked = context(tmp_path, require_brief_approval=True, model="openai:old-model")
    resumed = context(tmp_path, **({"model": given} if given else {}))

    async def scenario():
        state = await drive(graph, start(), asked)
        assert state.next == ("approve_research_brief",)
        monkeypatch.setenv("DEEP_RESEARCH_ALLOWED_MODELS", "openai:new-*")
        monkeypatch.setenv("DEEP_RESEARCH_MODEL", "openai:new-default")
        return await drive(graph, Command(resume={"type": "approve"}), resumed,
                           interrupt_before=["research_supervisor"])

    state = asyncio.run(scenario())
    v = state.values
    assert state.next == ("research_supervisor",) and v["status"] == "running", v.get("errors")
    used = given or "openai:new-default"
    notices = [m.content for m in v["messages"] if m.name == "settings"]
    assert len(notices) == 1, notices
    line = ("- model: openai:old-model, which the question was started with, is refused now (model openai:old-model "
            "(research_model, summarization_model, compression_model, final_report_model, citation_check_model) is "
            "not allowed; DEEP_RESEARCH_ALLOWED_MODELS allows only openai:new-*); "
            + ("this run's" if given else "the server's") + f" {used} is used from now on for this question")
    assert line in notices[0], notices[0]
    assert [d["kind"] for d in v["degradations"] if d["stage"] == "configuration"] == ["setting_refused"]
    assert v["question_settings"].get("model") == given
    assert not v.get("ignored_settings")


def test_a_new_question_on_the_thread_starts_with_the_settings_its_run_gives(corpus, tmp_path):
    """A follow-up question is a new question: the first one's settings (an approval, a
    tool-call limit) do not carry over to it; its own run's settings are recorded."""
    script = base_script(researcher=keep_searching())
    supervisor_rounds(script, {1: calls(tool_call("ConductResearch", topic=TOPIC_A)),
                               2: calls(tool_call("ResearchComplete"))})
    search = CountingSearch(LocalCorpus.open(corpus))
    graph = graph_for(script, corpus, search)

    async def scenario():
        await drive(graph, start(), context(tmp_path, require_brief_approval=True, max_react_tool_calls=2))
        state = await drive(graph, Command(resume={"type": "approve"}), context(tmp_path))
        assert state.values["status"] == "completed" and len(search.queries) == 2
        return await drive(graph, start("And in Norway?"), context(tmp_path, max_react_tool_calls=3))

    state = asyncio.run(scenario())
    v = state.values
    assert not state.next and v["status"] == "completed"  # no approval asked
    assert len(search.queries) == 2 + 3
    assert v["question_settings"] == context(tmp_path, max_react_tool_calls=3)


def test_a_url_password_given_with_a_question_is_not_kept_and_a_resume_gives_it_again(corpus, tmp_path):
    """The thread's state (a database others may read, copied into backups) keeps the
    question's settings without the password of a URL; the run that resumes the question
    gives the URL again (or the environment does), else it fails saying so."""
    script = base_script()
    supervisor_rounds(script, {1: calls(tool_call("ConductResearch", topic=TOPIC_A)),
                               2: calls(tool_call("ResearchComplete"))})
    graph = graph_for(script, corpus)
    url = "https://alice:s3cret-pw@models.example/v1"
    asked = context(tmp_path, require_brief_approval=True, model_base_url=url)

    async def scenario():
        state = await drive(graph, start(), asked)
        assert state.next == ("approve_research_brief",)
        assert state.values["question_settings"]["model_base_url"] == "https://alice:***@models.example/v1"
        with pytest.raises(UserError, match=r"model_base_url held a password .* give the URL again"):
            await drive(graph, Command(resume={"type": "approve"}), context(tmp_path))
        return await drive(graph, Command(resume={"type": "approve"}), context(tmp_path, model_base_url=url))

    v = asyncio.run(scenario()).values
    assert v["status"] == "completed", v.get("errors")
    saved = [repr((cp.checkpoint, cp.metadata, cp.pending_writes))
             for cp in graph.checkpointer.list({"configurable": {"thread_id": "t"}})]
    assert saved and not any("s3cret" in text for text in saved)


def test_a_resume_cannot_swap_a_url_whose_password_was_not_kept_for_another(corpus, tmp_path):
    """The URL a resume gives again must be the question's (credentials aside): another
    model server was taken as given, though every other setting of the question holds.
    Refused, naming the setting, in the error and in a chat turn; the same URL goes on."""
    script = base_script()
    supervisor_rounds(script, {1: calls(tool_call("ConductResearch", topic=TOPIC_A)),
                               2: calls(tool_call("ResearchComplete"))})
    graph = graph_for(script, corpus)
    url = "https://models.example/v1?api_key=s3cret-k1"
    asked = context(tmp_path, require_brief_approval=True, model_base_url=url)

    async def scenario():
        state = await drive(graph, start(), asked)
        assert state.values["question_settings"]["model_base_url"] == "https://models.example/v1?api_key=***"
        for other in ("https://elsewhere.example/v1?api_key=s3cret-k2", "https://models.example/v2?api_key=s3cret-k1",
                      "https://models.example/v1"):
            with pytest.raises(UserError, match=r"model_base_url \(https://[^)]*\) is not the URL the question was "
                                                r"started with \(https://models\.example/v1\?api_key=\*\*\*\)") as e:
                await drive(graph, Command(resume={"type": "approve"}), context(tmp_path, model_base_url=other))
            assert "s3cret" not in str(e.value)
        state = await graph.aget_state({"configurable": {"thread_id": "t"}})
        said = [m.content for m in state.values["messages"] if "is not the URL the question" in str(m.content)]
        assert said and all("model_base_url" in text and "s3cret" not in text for text in said), said
        return await drive(graph, Command(resume={"type": "approve"}), context(tmp_path, model_base_url=url))

    v = asyncio.run(scenario()).values
    assert v["status"] == "completed", v.get("errors")


MALFORMED = {
    "string": "yes please",
    "number": 42,
    "list": ["approve"],
    "dict without type": {"feedback": "looks fine"},
    "unknown type": {"type": "accept"},
    "upper-case type": {"type": "APPROVE"},
    "reject without feedback": {"type": "reject"},
    "reject with blank feedback": {"type": "reject", "feedback": "   "},
    "reject with non-text feedback": {"type": "reject", "feedback": ["shorter"]},
    "None": None,
}


@pytest.mark.parametrize("value", list(MALFORMED.values()), ids=list(MALFORMED))
def test_malformed_resume_values_are_asked_again_never_approved(corpus, tmp_path, value):
    script = base_script()
    graph = graph_for(script, corpus)
    ctx = context(tmp_path, require_brief_approval=True)

    async def scenario():
        first = await drive(graph, start(), ctx)
        assert first.next == ("approve_research_brief",) and "error" not in first.interrupts[0].value
        # Command(resume=None) means "no resume value" to LangGraph; a resume map delivers
        # the value None to this interrupt.
        resume = {first.interrupts[0].id: None} if value is None else value
        again = await drive(graph, Command(resume=resume), ctx)
        twice = await drive(graph, Command(resume=resume), ctx)
        return first, again, twice

    first, again, twice = asyncio.run(scenario())
    for state in (again, twice):
        assert state.next == ("approve_research_brief",)
        payload = state.interrupts[0].value
        assert payload["error"] and "approve" in payload["error"]
        assert payload["research_brief"] == first.interrupts[0].value["research_brief"]
        assert payload["round"] == 1
        assert "draft_report" not in state.values
    assert rule_count(script, "draft") == 0
    assert rule_count(script, "revise") == 0
    assert "status" not in again.values or again.values["status"] == "running"


def test_valid_decision_after_a_malformed_one_is_honoured(corpus, tmp_path):
    script = base_script()
    graph = graph_for(script, corpus)
    ctx = context(tmp_path, require_brief_approval=True)

    async def scenario():
        await drive(graph, start(), ctx)
        await drive(graph, Command(resume={"type": "maybe"}), ctx)
        return await drive(graph, Command(resume={"type": "approve"}), ctx,
                           interrupt_before=["research_supervisor"])

    state = asyncio.run(scenario())
    assert state.next == ("research_supervisor",)
    assert state.values["draft_report"].startswith("# Draft v0")
    assert not state.values.get("decision_problem")


def test_a_malformed_decision_is_explained_in_the_chat_once_and_not_to_the_models(corpus, tmp_path):
    """A chat client (Agent Chat UI) shows an interrupt's buttons, not its ``error``: a
    malformed answer brought the same buttons back without a word. The explanation is a chat
    turn before the question is asked again, once (not again for the same answer), and not
    conversation for the models; a valid answer then goes on and the next question has no error."""
    from deep_research.research.runtime.chat import conversation_text

    script = base_script()
    graph = graph_for(script, corpus)
    ctx = context(tmp_path, require_brief_approval=True)

    def told(state):
        return [m for m in state.values["messages"] if m.name == "invalid_decision"]

    async def scenario():
        first = await drive(graph, start(), ctx)
        assert not told(first)
        bad = {"decisions": [{"type": "approve"}, {"type": "approve"}]}
        again = await drive(graph, Command(resume=bad), ctx)
        twice = await drive(graph, Command(resume=bad), ctx)
        other = await drive(graph, Command(resume={"type": "accept"}), ctx)
        return first, again, twice, other

    first, again, twice, other = asyncio.run(scenario())
    payload = again.interrupts[0].value
    assert again.next == ("approve_research_brief",) and "expected one decision, got 2" in payload["error"]
    said = told(again)
    assert len(said) == 1 and payload["error"] in said[0].content, said
    # after the brief it explains, the last turn before the question is asked again
    messages = again.values["messages"]
    assert messages[-1].name == "invalid_decision"
    assert [m.name for m in messages].index("brief") < len(messages) - 1
    assert told(twice) == said  # the same answer again: not said twice
    assert len(told(other)) == 2 and "unknown decision type 'accept'" in told(other)[-1].content
    assert "not a decision" not in conversation_text(other.values["messages"])
    assert rule_count(script, "draft") == 0

    async def approve():
        return await drive(graph, Command(resume={"type": "approve"}), ctx, interrupt_before=["research_supervisor"])

    done = asyncio.run(approve())
    assert done.next == ("research_supervisor",) and not done.values.get("decision_problem")
    assert len(told(done)) == 2


def test_a_huge_edit_or_feedback_on_the_brief_is_refused_naming_the_limit(corpus, tmp_path):
    """An edited brief or a rejection's feedback had no size limit: a 30,000-character edit
    became the brief every later prompt carries. Past 20,000 characters (a question's limit)
    the answer is refused in the chat, naming its length and the limit, and asked again; the
    brief is unchanged and a short edit is then taken."""
    script = base_script()
    graph = graph_for(script, corpus)
    ctx = context(tmp_path, require_brief_approval=True)
    huge = "Study tea. " * 3000  # 33,000 characters

    async def scenario():
        first = await drive(graph, start(), ctx)
        edit = {"decisions": [{"type": "edit", "edited_action": {"name": "approve_research_brief",
                                                                 "args": {"research_brief": huge}}}]}
        edited = await drive(graph, Command(resume=edit), ctx)
        rejected = await drive(graph, Command(resume={"type": "reject", "feedback": huge}), ctx)
        short = {"type": "edit", "edited_action": {"name": "approve_research_brief",
                                                   "args": {"research_brief": "Study green tea."}}}
        done = await drive(graph, Command(resume=short), ctx, interrupt_before=["research_supervisor"])
        return first, edited, rejected, done

    first, edited, rejected, done = asyncio.run(scenario())
    for state, what in ((edited, "the edited brief"), (rejected, "the feedback")):
        assert state.next == ("approve_research_brief",)
        said = [m.content for m in state.values["messages"] if m.name == "invalid_decision"][-1]
        assert f"{what} is 32,999 characters long; the limit is 20,000" in said, said
        assert f"{what} is 32,999 characters long" in state.interrupts[0].value["error"]
        assert state.values["research_brief"] == first.values["research_brief"]
    assert rule_count(script, "revise") == 0  # the huge feedback never reached a model
    assert done.next == ("research_supervisor",)
    assert done.values["research_brief"].startswith("Study green tea.")


# --- caps -------------------------------------------------------------------------------------
def test_conduct_research_capped_per_round(corpus, tmp_path):
    topics = [f"Topic {c}: heat pumps, aspect {c}" for c in "WXYZ"]
    script = base_script()
    prompts: list[str] = []
    supervisor_rounds(script, {
        1: calls(*(tool_call("ConductResearch", topic=t) for t in topics)),
        2: calls(tool_call("ResearchComplete")),
    }, prompts)
    graph = graph_for(script, corpus)
    state = asyncio.run(drive(graph, start(), context(tmp_path, max_concurrent_research_units=2)))
    v = state.values
    assert v["status"] == "completed", v.get("errors")
    assert compressions(script) == 2
    assert [n["topic"] for n in v["notes"]] == topics[:2]
    assert [e["topic"] for e in v["research_log"]] == topics[:2]
    # the calls beyond the cap were answered, so the supervisor sees they did not run
    round2 = prompts[1]
    assert round2.count("Not run: at most 2 research units run per round") == 2
    assert marker(topics[0]) in round2 and marker(topics[1]) in round2
    assert marker(topics[2]) not in round2


def test_research_complete_in_the_same_reply_cancels_research_calls(corpus, tmp_path):
    script = base_script()
    supervisor_rounds(script, {1: calls(tool_call("ConductResearch", topic=TOPIC_A),
                                        tool_call("ResearchComplete"))})
    graph = graph_for(script, corpus)
    state = asyncio.run(drive(graph, start(), context(tmp_path), interrupt_before=["final_report_generation"]))
    assert state.next == ("final_report_generation",)
    assert compressions(script) == 0 and rule_count(script, "researcher") == 0
    assert not state.values.get("notes") and not state.values.get("research_log")


def test_max_researcher_iterations_stops_the_supervisor_and_a_report_is_written(corpus, tmp_path):
    script = base_script()
    prompts: list[str] = []
    script.on("research", "Round ", recording(prompts, calls(tool_call("ConductResearch", topic=TOPIC_A))),
              repeat=True, name="supervisor (never completes)")
    report_prompts: list[str] = []
    script.rules = [r for r in script.rules if r["contains"] != "Write the final research report"]
    script.on("final_report", "Write the final research report",
              recording(report_prompts, final_report(wrong_quote=False)), repeat=True)
    graph = graph_for(script, corpus)
    state = asyncio.run(drive(graph, start(), context(tmp_path, max_researcher_iterations=2)))
    v = state.values
    assert len(prompts) == 2 and "Round 2 of at most 2" in prompts[1]
    assert v["research_iterations"] == 2
    assert compressions(script) == 2
    stop = [d for d in v["degradations"] if d["stage"] == "supervisor"]
    assert stop and "maximum of 2 rounds" in stop[0]["message"]
    assert v["status"] == "completed"
    assert Path(v["outputs"]["markdown"]).is_file()
    # the report writer is told research stopped early
    assert "maximum of 2 rounds" in report_prompts[0]


@pytest.mark.parametrize("per_message", [1, 2])
def test_researcher_stops_at_max_react_tool_calls(corpus, tmp_path, per_message):
    counter = itertools.count(1)

    def keep_searching(messages):
        return calls(*(tool_call("search", query=f"heat pump {next(counter)}") for _ in range(per_message)))

    script = base_script(researcher=keep_searching)
    supervisor_rounds(script, {1: calls(tool_call("ConductResearch", topic=TOPIC_A)),
                               2: calls(tool_call("ResearchComplete"))})
    search = CountingSearch(LocalCorpus.open(corpus))
    graph = graph_for(script, corpus, search)
    state = asyncio.run(drive(graph, start(), context(tmp_path, max_react_tool_calls=3)))
    assert len(search.queries) == 3
    assert rule_count(script, "researcher") == (3 if per_message == 1 else 2)
    assert compressions(script) == 1
    assert state.values["status"] == "completed"
    (final,) = researcher_states(graph)
    assert final["tool_calls_made"] == 3
    tool_msgs = [m for m in final["researcher_messages"] if isinstance(m, ToolMessage)]
    assert len(tool_msgs) == 3 if per_message == 1 else 4  # every tool call is answered
    refused = [m for m in tool_msgs if m.content.startswith("Not run: the limit of 3 tool calls")]
    assert len(refused) == (0 if per_message == 1 else 1)


class CuttingSearch(CountingSearch):
    """The local corpus, every page marked as read only in part, as the fetcher marks a
    page longer than fetch_max_bytes or past the HTML parser's limits."""

    CUT = "the HTML parser stopped reading the page early: its elements are nested more than 256 deep"

    async def search(self, query: str, *, max_results: int = 5):
        return [dataclasses.replace(r, cut=self.CUT) for r in await super().search(query, max_results=max_results)]


def test_a_page_read_only_in_part_is_said_and_recorded_with_its_source(corpus, tmp_path):
    """A page cut by a limit was read silently as if whole: the run now says so (a warning
    naming the page), and the cited source carries the reason into sources.json and
    audit.json (cut_sources)."""
    script = base_script()
    supervisor_rounds(script, {1: calls(tool_call("ConductResearch", topic=TOPIC_A)),
                               2: calls(tool_call("ResearchComplete"))})
    graph = graph_for(script, corpus, CuttingSearch(LocalCorpus.open(corpus)))
    v = asyncio.run(drive(graph, start(), context(tmp_path))).values
    assert v["status"] == "completed", v.get("errors")
    cut = [d for d in v["degradations"] if d.get("kind") == "page_cut"]
    assert cut and all(d["message"] == f"page {d['url']} read only in part: {CuttingSearch.CUT}" for d in cut)
    assert all(meta["cut"] == CuttingSearch.CUT for meta in v["sources"].values())
    folder = Path(v["outputs"]["dir"])
    sources = json.loads((folder / "sources.json").read_text())
    assert sources and all(s["cut"] == CuttingSearch.CUT for s in sources)
    audit = json.loads(Path(v["outputs"]["audit"]).read_text())
    assert sorted((c["source_id"], c["url"], c["why"]) for c in audit["cut_sources"]) == sorted(
        (s["id"], s["url"], CuttingSearch.CUT) for s in sources)


def test_refine_draft_report_receives_only_new_findings(corpus, tmp_path):
    script = base_script()
    supervisor_rounds(script, {
        1: calls(tool_call("ConductResearch", topic=TOPIC_A)),
        2: calls(tool_call("refine_draft_report"), tool_call("ConductResearch", topic=TOPIC_B)),
        3: calls(tool_call("refine_draft_report"), tool_call("ResearchComplete")),
    })
    refine_prompts: list[str] = []
    versions = itertools.count(1)
    script.on("final_report", "Rewrite the draft report with the new research findings",
              recording(refine_prompts, lambda m: f"# Draft v{next(versions)}\n\nRevised."), repeat=True)
    graph = graph_for(script, corpus)
    # the tiny corpus gives round 2 no new sentences: the plateau stop is off to reach round 3
    state = asyncio.run(drive(graph, start(), context(tmp_path, max_researcher_iterations=5,
                                                      plateau_min_new_sentences=0)))
    assert state.values["status"] == "completed", state.values.get("errors")
    assert len(refine_prompts) == 2
    round2, round3 = (p.split("New findings since the last revision:")[1] for p in refine_prompts)
    assert marker(TOPIC_A) in round2 and marker(TOPIC_B) not in round2
    assert marker(TOPIC_B) in round3 and marker(TOPIC_A) not in round3
    # each refine starts from the previous revision
    assert "# Draft v0" in refine_prompts[0] and "# Draft v1" in refine_prompts[1]
    assert state.values["draft_report"].startswith("# Draft v2")


def test_refine_without_new_findings_does_not_call_the_model(corpus, tmp_path):
    script = base_script()
    prompts: list[str] = []
    supervisor_rounds(script, {
        1: calls(tool_call("ConductResearch", topic=TOPIC_A)),
        2: calls(tool_call("refine_draft_report")),
        3: calls(tool_call("refine_draft_report")),
        4: calls(tool_call("ResearchComplete")),
    }, prompts)
    script.on("final_report", "Rewrite the draft report with the new research findings", "# Draft v1",
              repeat=True, name="refine")
    graph = graph_for(script, corpus)
    state = asyncio.run(drive(graph, start(), context(tmp_path, max_researcher_iterations=5)))
    assert state.values["status"] == "completed"
    assert rule_count(script, "refine") == 1
    assert "Draft refined with 1 new finding(s)." in prompts[2]
    assert "No new findings since the last revision" in prompts[3]


def test_supervisor_prompt_holds_only_the_last_round_of_tool_results(corpus, tmp_path):
    script = base_script()
    prompts: list[str] = []
    supervisor_rounds(script, {
        1: calls(tool_call("think_tool", reflection="start with A"),
                 tool_call("ConductResearch", topic=TOPIC_A), content="PLAN OF ROUND ONE"),
        2: calls(tool_call("ConductResearch", topic=TOPIC_B), content="PLAN OF ROUND TWO"),
        3: calls(tool_call("ResearchComplete")),
    }, prompts)
    graph = graph_for(script, corpus)
    # the tiny corpus gives round 2 no new sentences: the plateau stop is off to reach round 3
    state = asyncio.run(drive(graph, start(), context(tmp_path, max_researcher_iterations=5,
                                                      plateau_min_new_sentences=0)))
    assert state.values["status"] == "completed"
    r1, r2, r3 = prompts
    assert "PLAN OF ROUND ONE" not in r1 and marker(TOPIC_A) not in r1
    assert "PLAN OF ROUND ONE" in r2 and marker(TOPIC_A) in r2 and "Reflection recorded." in r2
    # round 3 sees round 2's results only; round 1 survives only as a line of the research log
    assert "PLAN OF ROUND TWO" in r3 and marker(TOPIC_B) in r3
    assert "PLAN OF ROUND ONE" not in r3 and marker(TOPIC_A) not in r3 and "Reflection recorded." not in r3
    assert TOPIC_A in r3 and TOPIC_B in r3


# --- researcher history summarisation ----------------------------------------------------------
def test_long_researcher_history_is_summarised_and_written_back(corpus, tmp_path):
    long_thought = "LONGTHOUGHT " * 800  # ~9,600 characters: over summarize_after_tokens=2000
    steps = iter([
        calls(tool_call("search", query="heat pump"), content=long_thought),
        calls(tool_call("search", query="heat pump cost")),
        calls(tool_call("search", query="cold climates")),
        "I have enough evidence.",
    ])
    researcher_prompts: list[str] = []
    script = base_script(researcher=recording(researcher_prompts, lambda m: next(steps)))
    script.on("summarization", SUMMARY_RULE, "SUMMARY OF THE EARLIER WORK", repeat=True, name=SUMMARY_RULE)
    supervisor_rounds(script, {1: calls(tool_call("ConductResearch", topic=TOPIC_A)),
                               2: calls(tool_call("ResearchComplete"))})
    graph = graph_for(script, corpus)
    state = asyncio.run(drive(graph, start(), context(tmp_path, summarize_after_tokens=2000,
                                                      max_react_tool_calls=6)))
    assert state.values["status"] == "completed", state.values.get("errors")
    assert rule_count(script, SUMMARY_RULE) >= 1
    assert len(researcher_prompts) == 4
    assert "Summary of the research so far" not in researcher_prompts[0]
    for p in researcher_prompts[1:]:
        assert "Summary of the research so far" in p and "SUMMARY OF THE EARLIER WORK" in p
    # the long message was folded into the summary and is gone from state: the last call
    # reads its history from the checkpointed state, not from the summarising step
    assert "LONGTHOUGHT" not in researcher_prompts[2] and "LONGTHOUGHT" not in researcher_prompts[3]
    (final,) = researcher_states(graph)
    assert final["context_summary"] == "SUMMARY OF THE EARLIER WORK"
    history = final["researcher_messages"]
    assert history[0].content.startswith("Research this topic: (continued)")
    assert not any("LONGTHOUGHT" in str(m.content) for m in history)
    # the summarisation model is accounted to the researcher node
    assert state.values["usage"]["researcher"]["calls"] >= 4 + rule_count(script, SUMMARY_RULE)


# --- usage and failures -------------------------------------------------------------------------
def test_usage_per_node_recorded_in_final_state(corpus, tmp_path):
    script = base_script()
    supervisor_rounds(script, {1: calls(tool_call("ConductResearch", topic=TOPIC_A),
                                        tool_call("ConductResearch", topic=TOPIC_B)),
                               2: calls(tool_call("ResearchComplete"))})
    graph = graph_for(script, corpus)
    state = asyncio.run(drive(graph, start(), context(tmp_path)))
    usage = state.values["usage"]
    expected = {"write_research_brief": 1, "write_draft_report": 1, "supervisor": 2, "researcher": 4,
                "compress_research": 2, "final_report_generation": 1}
    for node, n in expected.items():
        assert usage[node]["calls"] == n, node
        assert usage[node]["input_tokens"] > 0 and usage[node]["output_tokens"] > 0, node
        assert usage[node]["retries"] == 0
    # page summaries are made inside researcher_tools
    assert usage["researcher_tools"]["calls"] == script.calls["summarization"] > 0
    assert sum(u["calls"] for u in usage.values()) == sum(script.calls.values())


class BadRequest(Exception):
    status_code = 400


def test_failing_researcher_is_recorded_and_the_run_completes(corpus, tmp_path):
    script = base_script(researcher=False)
    script.on("research", f"Research this topic: {TOPIC_B}", BadRequest("invalid tool schema"), repeat=True,
              name="failing researcher")
    script.on("research", f"Research this topic: {TOPIC_A}", search_once(), repeat=True, name="researcher")
    prompts: list[str] = []
    supervisor_rounds(script, {1: calls(tool_call("ConductResearch", topic=TOPIC_A),
                                        tool_call("ConductResearch", topic=TOPIC_B)),
                               2: calls(tool_call("ResearchComplete"))}, prompts)
    graph = graph_for(script, corpus)
    state = asyncio.run(drive(graph, start(), context(tmp_path)))
    v = state.values
    assert v["status"] == "completed"
    assert [n["topic"] for n in v["notes"]] == [TOPIC_A]
    failed = [e for e in v["errors"] if e.get("topic") == TOPIC_B]
    assert failed and any("invalid tool schema" in e["message"] for e in failed)
    assert any(e["message"].startswith("research unit failed") for e in failed)
    assert {e["topic"]: e["ok"] for e in v["research_log"]} == {TOPIC_A: True, TOPIC_B: False}
    assert "Research on this topic failed" in prompts[1]
    assert compressions(script) == 1
    # a non-transient error is not retried
    assert rule_count(script, "failing researcher") == 1


def test_every_researcher_failing_raises_research_failed_and_saves_notes(corpus, tmp_path):
    script = base_script(researcher=False)
    script.on("research", "Research this topic:", BadRequest("model rejected the request"), repeat=True)
    supervisor_rounds(script, {1: calls(tool_call("ConductResearch", topic=TOPIC_A),
                                        tool_call("ConductResearch", topic=TOPIC_B)),
                               2: calls(tool_call("ResearchComplete"))})
    graph = graph_for(script, corpus)
    with pytest.raises(ResearchFailed) as err:
        asyncio.run(drive(graph, start(), context(tmp_path)))
    e = err.value
    assert e.stage == "final_report_generation"
    assert "no research produced citable findings" in e.message
    notes = Path(e.notes_path)
    assert notes.is_file() and notes.name == "notes.md"
    assert notes.is_relative_to(tmp_path / "reports")
    text = notes.read_text()
    assert BRIEF in text and "## Errors" in text and "model rejected the request" in text
    assert (notes.parent / "raw_notes.md").is_file()
    assert compressions(script) == 0


def test_a_run_failing_before_research_does_not_say_research_was_saved(corpus, tmp_path):
    """The brief's model call failing for good said "Research gathered so far is saved in
    notes.md", a file holding the question alone: nothing had been researched."""
    from deep_research.research.runtime.chat import FAILURE_NAME

    script = Script()
    script.on("research", "Turn the conversation into a research brief", BadRequest("model not found"), repeat=True)
    graph = graph_for(script, corpus)
    with pytest.raises(ResearchFailed) as err:
        asyncio.run(drive(graph, start(), context(tmp_path)))
    e = err.value
    assert e.stage == "write_research_brief" and not e.gathered
    assert e.notes_path and Path(e.notes_path).is_file()  # saved as ever (the fault matrix's contract)
    state = asyncio.run(graph.aget_state({"configurable": {"thread_id": "t"}}))
    turn = [m for m in state.values["messages"] if getattr(m, "name", None) == FAILURE_NAME][-1]
    assert "model not found" in turn.content
    assert "gathered so far" not in turn.content, turn.content


def test_identities_with_periods_become_valid_store_namespaces():
    from langgraph.store.memory import InMemoryStore

    from deep_research.research.runtime.sources import owner_of

    owners = [owner_of({"configurable": {"langgraph_auth_user_id": u}})
              for u in ("alice@example.com", "alice@example%2Ecom", "bob")]
    assert owners[0] == owners[1] == "alice@example%2Ecom"  # the auth handler's own encoding
    assert owners[2] == "bob" and owner_of(None) == "local"
    store = InMemoryStore()
    store.put(("deep_research", owners[0], "pages"), "k", {"content": "x"})  # no period: accepted

"""Fault injection around the scripted model and the search backend.

A :class:`FaultPlan` holds faults; :class:`FaultyChatModel` (a ScriptedChatModel) and
:class:`FaultySearch` (around any search backend) consult it before every call. A fault
selects calls by model role and prompt text (or by search query), and is either transient
(the first ``times`` matching calls fail, later ones succeed) or persistent (``times=None``:
every matching call fails).

Faults look like the real thing: the OpenAI SDK's own exception classes (RateLimitError
429, InternalServerError 503, BadRequestError 400 "maximum context length"), the builtin
ConnectionRefusedError, a call that hangs past the configured request timeout, malformed
answers, a failing search backend, pages without content.

The module also has the small research scenario the fault and budget tests run: a
supervisor that decides from its prompt (so an extra round caused by a fault does not
derail it), researchers that search until a search returns sources, and a corpus with one
long page (so a context-length fault on a page summary has something to shorten).
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import openai
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult

from deep_research.search.base import SearchError, SearchResult

from .scenario import (
    QUESTION,
    TOPIC_COSTS,
    TOPIC_EFFICIENCY,
    _claim_from,
    final_report,
    fix_citation,
    judge_claims,
    summarise_page,
    write_corpus,
)
from .scripted import Script, ScriptedChatModel, calls, prompt_text, structured, tool_call

MODEL_FAULTS = ("rate_limit", "server_error", "timeout", "connection_refused", "malformed", "context_length")
SEARCH_FAULTS = ("search_failure", "empty_page")
FAULTS = MODEL_FAULTS + SEARCH_FAULTS
SLOW_S = 0.6  # how late a "slow" call (no fault: a loaded machine) comes back


# --- errors as the providers raise them -------------------------------------------------------
def _response(status: int) -> httpx.Response:
    return httpx.Response(status, request=httpx.Request("POST", "https://api.openai.test/v1/chat/completions"))


def rate_limit_error() -> Exception:
    return openai.RateLimitError("Rate limit reached for requests (injected)", response=_response(429), body=None)


def server_error() -> Exception:
    return openai.InternalServerError("The server is overloaded (injected)", response=_response(503), body=None)


def context_length_error(tokens: int) -> Exception:
    return openai.BadRequestError(
        f"This model's maximum context length is 8192 tokens. However, your messages resulted in {tokens} "
        "tokens. Please reduce the length of the messages. (injected)", response=_response(400),
        body={"code": "context_length_exceeded", "message": "maximum context length"})


def connection_refused() -> Exception:
    return ConnectionRefusedError(111, "Connection refused (injected)")


def search_unavailable() -> Exception:
    return SearchError("search backend unavailable: HTTP 503 (injected)", transient=True)


# --- the plan ---------------------------------------------------------------------------------
Selector = str | Callable[[str], bool]


@dataclass
class Fault:
    kind: str
    role: str | None = None  # model role; None for search faults
    when: Selector = ""  # text the prompt (or query) contains, or a predicate on it
    times: int | None = None  # transient: the first `times` matching calls; None: persistent
    reply: Callable[[list[BaseMessage]], Any] | None = None  # malformed: what the model answers
    window: int | None = None  # context_length: prompts longer than this (chars) fail
    hits: int = 0  # calls that failed because of this fault

    @property
    def persistent(self) -> bool:
        return self.times is None

    def selects(self, text: str) -> bool:
        return self.when(text) if callable(self.when) else self.when in text

    def active(self) -> bool:
        return self.times is None or self.hits < self.times


@dataclass
class FaultPlan:
    faults: list[Fault] = field(default_factory=list)
    hang_s: float = 30.0  # how long a "timeout" call hangs (the request timeout must cut it)
    model_calls: int = 0

    def add(self, fault: Fault) -> Fault:
        self.faults.append(fault)
        return fault

    def clear(self) -> None:
        """The outage is over (e.g. before resuming a failed run)."""
        self.faults = []

    @property
    def hits(self) -> int:
        return sum(f.hits for f in self.faults)

    async def on_model_call(self, role: str, messages: list[BaseMessage]) -> AIMessage | None:
        """Raise, hang or answer badly as the plan says; None lets the script answer."""
        self.model_calls += 1
        text = prompt_text(messages)
        for f in self.faults:
            if f.kind == "slow" and f.role == role and f.active() and f.selects(text):
                f.hits += 1  # no fault: a healthy call that comes back late (a loaded machine)
                await asyncio.sleep(SLOW_S)
                continue
            if f.role != role or f.kind not in MODEL_FAULTS or not f.active() or not f.selects(text):
                continue
            if f.kind == "context_length":
                if f.window is None:  # just too long: any shortening makes it fit
                    f.window = len(text) - 1
                if len(text) <= f.window:
                    continue
                f.hits += 1
                raise context_length_error(len(text) // 4)
            f.hits += 1
            if f.kind == "rate_limit":
                raise rate_limit_error()
            if f.kind == "server_error":
                raise server_error()
            if f.kind == "connection_refused":
                raise connection_refused()
            if f.kind == "timeout":
                await asyncio.sleep(self.hang_s)
                raise AssertionError(f"a {role} call hung for {self.hang_s}s: no request timeout cut it")
            if f.kind == "malformed":
                out = (f.reply or garbage)(messages)
                return AIMessage(content=out) if isinstance(out, str) else out
        return None

    async def on_search(self, query: str, search: Callable[[], Any]) -> list[SearchResult]:
        for f in self.faults:
            if f.kind not in ("search_failure", "timeout") or f.role is not None or not f.active() \
                    or not f.selects(query):
                continue
            f.hits += 1
            if f.kind == "timeout":
                await asyncio.sleep(self.hang_s)
                raise AssertionError(f"a search hung for {self.hang_s}s: no timeout cut it")
            raise search_unavailable()
        results = list(await search())
        for f in self.faults:
            if f.kind != "empty_page" or not f.selects(query) or not results:
                continue
            # transient: one page of the search is empty; persistent: every page is
            blank = range(len(results)) if f.persistent else range(1)
            if not f.persistent and f.hits >= (f.times or 1):
                continue
            f.hits += 1
            for i in blank:
                r = results[i]
                results[i] = SearchResult(r.url, r.title, " \n ", r.format, snippet="", score=r.score)
        return results


# --- malformed answers ------------------------------------------------------------------------
def garbage(messages: list[BaseMessage]) -> str:
    """Prose where JSON (or any text at all) was expected to be structured."""
    return "Sure! Here is what I think: the answer depends on many factors {not json"


def empty(messages: list[BaseMessage]) -> str:
    return ""


def invalid_call(name: str, broken_args: str) -> dict:
    return {"name": name, "args": broken_args, "id": f"call_{uuid.uuid4().hex[:10]}",
            "error": "Function arguments are not valid JSON", "type": "invalid_tool_call"}


def bad_supervisor_calls(messages: list[BaseMessage]) -> AIMessage:
    """ConductResearch without a topic, a tool that does not exist, arguments that are not JSON."""
    return AIMessage(content="", tool_calls=[tool_call("ConductResearch"), tool_call("browse_web", url="x")],
                     invalid_tool_calls=[invalid_call("ConductResearch", '{"topic": "heat pu')])


def bad_researcher_calls(messages: list[BaseMessage]) -> AIMessage:
    """A search without a query, a tool that does not exist, arguments that are not JSON."""
    return AIMessage(content="", tool_calls=[tool_call("search", query=""), tool_call("fetch_page", url="x")],
                     invalid_tool_calls=[invalid_call("search", '{"query": ')])


# --- models and search with faults ------------------------------------------------------------
Usage = Callable[[str, list[BaseMessage], AIMessage], tuple[int, int]]


class FaultyChatModel(ScriptedChatModel):
    """The scripted model behind a fault plan. Answers on the event loop (no worker
    thread); a request timeout is wall-clock time all the same, so a short one is for runs
    with injected hangs only (test_faults.TIMEOUT_S: on a loaded machine a healthy call can
    come back late)."""

    plan: Any
    usage: Any = None  # optional (role, messages, reply) -> (input_tokens, output_tokens)
    model_name: str | None = None  # a name with a public price makes the cost cap apply

    async def _agenerate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        bad = await self.plan.on_model_call(self.role, messages)
        msg = self.script.respond(self.role, messages) if bad is None else _with_usage(bad, messages)
        if self.usage is not None:
            inp, out = self.usage(self.role, messages, msg)
            msg = msg.model_copy(update={"usage_metadata": {"input_tokens": inp, "output_tokens": out,
                                                            "total_tokens": inp + out}})
        return ChatResult(generations=[ChatGeneration(message=msg)])

    async def _astream(self, messages, stop=None, run_manager=None, **kwargs):
        result = await self._agenerate(messages, stop, run_manager, **kwargs)
        msg = result.generations[0].message
        chunks = [{"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": i,
                   "type": "tool_call_chunk"} for i, c in enumerate(msg.tool_calls or [])]
        yield ChatGenerationChunk(message=AIMessageChunk(
            content=msg.content, id=msg.id, tool_call_chunks=chunks, usage_metadata=msg.usage_metadata,
            chunk_position="last"))


def _with_usage(msg: AIMessage, messages: list[BaseMessage]) -> AIMessage:
    tokens_in = len(prompt_text(messages)) // 4 + 1
    tokens_out = len(str(msg.content)) // 4 + 1
    return msg.model_copy(update={"usage_metadata": {"input_tokens": tokens_in, "output_tokens": tokens_out,
                                                     "total_tokens": tokens_in + tokens_out},
                                  "id": msg.id or f"run-{uuid.uuid4().hex[:12]}"})


def faulty_factory(script: Script, plan: FaultPlan, **fields: Any):
    """A model factory for Deps: one faulty scripted model per role."""
    models: dict[str, FaultyChatModel] = {}

    def factory(spec: dict) -> FaultyChatModel:
        role = spec["role"]
        if role not in models:
            models[role] = FaultyChatModel(role=role, script=script, plan=plan, **fields)
        return models[role]

    return factory


class FaultySearch:
    """A search backend behind a fault plan. It does not retry by itself (no
    ``max_retries``), so the graph's own bounded retries apply."""

    name = "faulty"

    def __init__(self, inner, plan: FaultPlan):
        self.inner = inner
        self.plan = plan
        self.queries: list[str] = []

    async def search(self, query: str, *, max_results: int = 5) -> list[SearchResult]:
        self.queries.append(query)
        return await self.plan.on_search(query, lambda: self.inner.search(query, max_results=max_results))


# --- the scenario -----------------------------------------------------------------------------
BRIEF = ("I want to know how well heat pumps work in cold climates and what they cost to install and run. "
         "Report in English.")
QUERY_EFFICIENCY = "heat pump coefficient of performance cold"
QUERY_COSTS = "heat pump installation cost euros"
LONG_PAGE = "running-costs-guide.html"
LONG_TITLE = "A long guide to heat pump running costs"
_FILLER = [
    "Installers in the survey quoted prices for {n} detached houses of different ages and sizes.",
    "In house number {n} the old gas boiler was kept as a backup for the coldest days of the winter.",
    "The electricity price in region {n} changed twice during the heating season that was measured.",
    "Household {n} reported that the outdoor unit was quieter than the boiler it replaced in the cellar.",
]


def write_fault_corpus(folder: Path) -> Path:
    """The scenario's pages plus one long page (about 9,000 characters)."""
    write_corpus(folder)
    first = ("Installing an air-source heat pump in a terraced house typically costs between 7,000 and "
             "12,000 euros.")
    paras = [first]
    paras += [_FILLER[n % len(_FILLER)].format(n=n) for n in range(1, 96)]
    paras.append("Running costs fell by about a third in the houses that also improved their insulation.")
    body = "\n".join(f"<p>{p}</p>" for p in paras)
    folder.joinpath(LONG_PAGE).write_text(
        f"<!doctype html><html><head><meta charset='utf-8'><title>{LONG_TITLE}</title></head>"
        f"<body><h1>{LONG_TITLE}</h1>\n{body}\n</body></html>", encoding="utf-8")
    return folder


def long_text(words: int) -> str:
    sentence = "Our house is a 1970s detached home with radiators, single glazing in the attic and a cellar. "
    return (sentence * (words // 16 + 1)).strip()


LONG_QUESTION = QUESTION + "\n\nHere is everything about my house:\n" + long_text(1600)
LONG_BRIEF = BRIEF + "\n\nDetails of the user's house to take into account: " + long_text(800)


def searching_researcher(query: str, done: str):
    """Search until a search returned sources (faults may have spoiled earlier calls), then stop."""

    def step(messages: list[BaseMessage]):
        if any(isinstance(m, ToolMessage) and "<source id=" in str(m.content) for m in messages):
            return done
        return calls(tool_call("search", query=query))

    return step


def compress(messages: list[BaseMessage]) -> str:
    """Findings citing every exact sentence listed in the researcher's source blocks, with or
    without a claim before it (raw excerpts, used when a page summary failed, have none)."""
    text = prompt_text(messages)
    lines = []
    for block in re.finditer(r'<source id="([^"]+)"[^>]*>(.*?)</source>', text, re.DOTALL):
        sid = block.group(1)
        for m in re.finditer(r'^- (?:.*?: )?"(.*)"$', block.group(2), re.MULTILINE):
            lines.append(f'- {_claim_from(m.group(1))} <ref id="{sid}">"{m.group(1)}"</ref>')
    return "\n".join(lines) or "- nothing found"


def supervisor(messages: list[BaseMessage]):
    """Research both topics while nothing is known yet; then refine the draft and finish."""
    text = prompt_text(messages)
    if re.search(r"Research done so far:\s*\(none yet\)", text):
        return calls(tool_call("think_tool", reflection="Two gaps: efficiency in the cold, and costs."),
                     tool_call("ConductResearch", topic=TOPIC_EFFICIENCY),
                     tool_call("ConductResearch", topic=TOPIC_COSTS))
    return calls(tool_call("refine_draft_report"), tool_call("ResearchComplete"))


def fault_script(*, long_brief: bool = False) -> Script:
    """Every rule answers any number of calls; the final report carries one wrong quote, so
    the citation-check agent is called once."""
    s = Script()
    s.on("research", "Turn the conversation into a research brief",
         structured("ResearchQuestion", research_brief=LONG_BRIEF if long_brief else BRIEF), repeat=True,
         name="brief")
    s.on("final_report", "Write a first draft",
         "# Heat pumps\n\nHeat pumps are efficient [to verify]. Costs vary [to verify].", repeat=True,
         name="draft")
    s.on("research", "You lead a research team", supervisor, repeat=True, name="supervisor")
    s.on("research", f"Research this topic: {TOPIC_EFFICIENCY}",
         searching_researcher(QUERY_EFFICIENCY, "I have enough evidence on efficiency."), repeat=True,
         name="researcher efficiency")
    s.on("research", f"Research this topic: {TOPIC_COSTS}",
         searching_researcher(QUERY_COSTS, "I have enough evidence on costs."), repeat=True,
         name="researcher costs")
    s.on("summarization", "Summarise this page for a researcher", summarise_page, repeat=True, name="summary")
    s.on("compression", "You condense a researcher's work", compress, repeat=True, name="compression")
    s.on("final_report", "Rewrite the draft report with the new research findings",
         "# Heat pumps\n\nHeat pumps deliver 2.5 to 4 units of heat per unit of electricity.", repeat=True,
         name="refine")
    s.on("final_report", "Write the final research report", final_report(wrong_quote=True), repeat=True,
         name="final report")
    s.on("citation_check", "A citation in a research report failed the check", fix_citation, repeat=True,
         name="citation check")
    s.on("citation_check", "You check a research report's claims", judge_claims(), repeat=True,
         name="claim judge")
    return s

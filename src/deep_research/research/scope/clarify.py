"""Scoping, step one: the question of the current report (a follow-up's own question), and
clarifying questions with suggested answers when the question needs them.

The model names the dimensions of the request open to more than one reading (scope, time
frame, geography, audience, definitions, purpose, other), each with its best reading and a
confidence. Code decides whether to ask: only when a named dimension's confidence is below
``clarify_confidence_threshold``, and only about those dimensions; the question shown names
them. Otherwise research starts on the readings, which the confirmation states (so the brief,
written from the conversation, takes them). A model that names no dimension is taken at
its word (``need_clarification``), as before."""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import END
from langgraph.types import Command
from pydantic import BaseModel, Field, field_validator

from .. import prompts
from .plan import empty_plan
from ...terminal import MAX_TEXT_CHARS, blank_controls, control_characters, shortened, text_problem, \
    without_bidi_controls
from ..runtime.chat import (NO_QUESTION_NAME, NOT_CONVERSATION, REFUSED_NAME, REPORT_NAME, conversation_text,
                            shown_text, typed_decision)
from ..runtime.deps import Deps, NodeContext, run_spent
from ..runtime.failure import ResearchFailed, has_research
from ..runtime.meter import ModelCallError, describe
from ..runtime.run_folder import asave_notes
from ..runtime.thread_settings import is_follow_up, recorded, starts_question
from ..runtime.usage import message_text
from ..state import ResearchState, error_record

log = logging.getLogger(__name__)


# The dimensions a request can be ambiguous in, as the clarify step names them.
DIMENSIONS = ("scope", "time_frame", "geography", "audience", "definitions", "purpose", "other")
MAX_DIMENSIONS = len(DIMENSIONS)


def dimension_name(value: Any) -> str:
    """A dimension as the model wrote it ("Time frame", "timeframe", "time-frame") -> one of
    :data:`DIMENSIONS` ("other" when it is none of them, "" when empty)."""
    v = "_".join(str(value or "").strip().lower().replace("-", " ").split())
    v = {"timeframe": "time_frame", "time": "time_frame", "period": "time_frame", "geographic": "geography",
         "region": "geography", "location": "geography", "definition": "definitions", "terms": "definitions",
         "terminology": "definitions"}.get(v, v)
    return v if v in DIMENSIONS else ("other" if v else "")


def dimension_label(name: str) -> str:
    return name.replace("_", " ")


class AmbiguousDimension(BaseModel):
    dimension: str = Field(description="One of: " + ", ".join(DIMENSIONS) + ".")
    reading: str = Field("", description="Your best reading of the request in this dimension.")
    confidence: float = Field(description="How sure you are of that reading: 0 (a guess) to 1 (settled).")

    @field_validator("dimension", mode="before")
    @classmethod
    def _dimension(cls, v: Any) -> str:
        return dimension_name(v) or "other"

    @field_validator("confidence", mode="before")
    @classmethod
    def _confidence(cls, v: Any) -> float:
        """0-1; a percentage (40, "40%") is read as one; anything else is a guess (0)."""
        try:
            x = float(str(v).strip().rstrip("%")) if v is not None else 0.0
        except ValueError:
            return 0.0
        x = x / 100 if 1 < x <= 100 else x
        return min(max(x, 0.0), 1.0) if not math.isnan(x) else 0.0  # NaN: a guess


class ClarifyingQuestion(BaseModel):
    question: str = Field(description="One short question.")
    suggested_answers: list[str] = Field(default_factory=list, description="Two to four likely answers.")
    dimension: str = Field("", description="The dimension the question settles (one of the named ones).")

    @field_validator("dimension", mode="before")
    @classmethod
    def _dimension(cls, v: Any) -> str:
        return dimension_name(v)


class ClarifyWithUser(BaseModel):
    need_clarification: bool = Field(False, description="Whether clarifying questions are needed.")
    dimensions: list[AmbiguousDimension] = Field(
        default_factory=list, description="The dimensions open to more than one reading, each with your best "
                                          "reading and your confidence in it.")
    questions: list[ClarifyingQuestion] = Field(
        default_factory=list, description="At most three questions, each with its dimension and suggested answers, "
                                          "if needed.")
    question: str = Field("", description="A single question (when not using 'questions').")
    verification: str = Field("", description="Short confirmation of what will be researched, if not.")

    def asked(self) -> list[ClarifyingQuestion]:
        items = [q for q in self.questions if q.question.strip()][:MAX_CLARIFYING_QUESTIONS]
        if not items and self.question.strip():
            items = [ClarifyingQuestion(question=self.question)]
        return items

    def named(self) -> list[AmbiguousDimension]:
        """The named dimensions, once each (the least confident reading kept)."""
        out: dict[str, AmbiguousDimension] = {}
        for d in self.dimensions:
            if d.dimension not in out or d.confidence < out[d.dimension].confidence:
                out[d.dimension] = d
        return list(out.values())[:MAX_DIMENSIONS]


MAX_CLARIFYING_QUESTIONS = 3


@dataclass(frozen=True)
class Gate:
    """What the confidence gate decided: the questions to ask (none: research starts), the
    dimensions below the threshold, and why."""

    questions: list[ClarifyingQuestion]
    unsure: list[AmbiguousDimension]
    reason: str


def confidence_gate(answer: ClarifyWithUser, threshold: float) -> Gate:
    """Ask only about dimensions whose confidence is below ``threshold``: the questions that
    name such a dimension (or name none, when every named dimension is unsure of itself
    and a question is not tied to one). Without named dimensions the model's
    ``need_clarification`` decides (a model that does not follow the dimensions format)."""
    asked = answer.asked()
    named = answer.named()
    if not named:
        if answer.need_clarification and asked:
            return Gate(asked, [], "no dimensions named; the model asked")
        return Gate([], [], "no dimensions named; the model did not ask")
    unsure = [d for d in named if d.confidence < threshold]
    if not unsure:
        return Gate([], [], f"every named dimension at confidence {threshold:.2f} or more")
    names = {d.dimension for d in unsure}
    tied = [q for q in asked if q.dimension in names]
    untied = [q for q in asked if not q.dimension]
    questions = tied or untied
    if not questions:
        return Gate([], unsure, "dimensions below the threshold, but no question about them")
    return Gate(questions, unsure, "dimensions below the threshold")


def _percent(x: float) -> str:
    return f"{round(100 * x)}%"


def clarification_text(questions: list[ClarifyingQuestion], unsure: list[AmbiguousDimension] | None = None) -> str:
    """The questions as one chat turn; suggested answers in brackets, free text welcome.
    With ``unsure`` dimensions, a first line names them (and each question its dimension)."""
    head = ""
    if unsure:
        head = "Before I start, the request is open in " + ", ".join(
            f"{dimension_label(d.dimension)} ({'my guess: ' + d.reading.strip() + ', ' if d.reading.strip() else ''}"
            f"{_percent(d.confidence)} sure)" for d in unsure) + ":\n"
    if len(questions) == 1 and not questions[0].suggested_answers and not head:
        return questions[0].question.strip()
    lines = []
    for i, q in enumerate(questions, 1):
        text = q.question.strip()
        if head and q.dimension:
            text = f"({dimension_label(q.dimension)}) {text}"
        line = text if len(questions) == 1 else f"{i}. {text}"
        options = [a.strip() for a in q.suggested_answers if a.strip()][:4]
        if options:
            line += "\n   " + " · ".join(f"[{a}]" for a in options)
        lines.append(line)
    return head + "\n".join(lines)


def assumptions_text(named: list[AmbiguousDimension]) -> str:
    """The readings research starts on, one line (said in the confirmation turn, so the brief
    written from the conversation takes them)."""
    parts = [f"{dimension_label(d.dimension)}: {d.reading.strip()}" for d in named if d.reading.strip()]
    return ("Assuming " + "; ".join(parts) + ".") if parts else ""


def clarification_record(answer: ClarifyWithUser, gate: Gate, threshold: float) -> dict:
    """The state's ``clarification``: the named dimensions, the threshold and what the gate did."""
    return {"dimensions": [{"dimension": d.dimension, "reading": d.reading.strip(), "confidence": d.confidence}
                           for d in answer.named()],
            "threshold": threshold, "asked": bool(gate.questions),
            "unsure": [d.dimension for d in gate.unsure], "reason": gate.reason}


def _question(state: ResearchState) -> str:
    """The question of the current report: the first user message after the thread's last
    report (a follow-up's question), or the thread's first; a message refused as no question
    (:func:`no_question`) is none."""
    messages = list(state.get("messages") or [])
    last_report = max((i for i, m in enumerate(messages) if getattr(m, "name", None) == REPORT_NAME), default=-1)
    for m in messages[last_report + 1:]:
        if isinstance(m, HumanMessage) and m.name != REFUSED_NAME:
            return message_text(m).strip()
    return (state.get("question") or "").strip()


REFUSED_PREVIEW_CHARS = 200  # of a refused message, kept in its place in the thread


def _last_message(state: ResearchState) -> HumanMessage | None:
    # the user's message is the last one but for notices (a progress line the preflight added)
    talk = [m for m in state.get("messages") or [] if getattr(m, "name", None) not in NOT_CONVERSATION]
    last = talk[-1] if talk else None
    return last if isinstance(last, HumanMessage) else None


def no_question(state: ResearchState) -> dict | None:
    """The update for a run whose chat message is no question (empty, or longer than the
    CLI's limit, :func:`~deep_research.terminal.text_problem`; or holding control
    characters other than tab and line ends, which the CLI refuses in a question too): the
    message cut to a preview in its place, its controls blanked (named so that it is neither
    the question nor conversation a model is shown), a turn saying why, and the status the
    thread had (``needs_clarification`` for its first message): no model call is made. A run
    whose input holds no user message at all ([] or only an assistant or tool turn, as an API
    client may send) when the thread has no question yet is answered as an empty message.
    None for any other run."""
    last = _last_message(state)
    if last is None:
        if _question(state):
            return None
        text = ""
    else:
        text = without_bidi_controls(message_text(last)).strip()
    problem = text_problem(text, "your message")
    again = f"Send the question to research (at most {MAX_TEXT_CHARS:,} characters)."
    if problem is None and (bad := control_characters(text)):
        problem = f"your message contains control characters ({', '.join(bad[:5])})"
        again = "Send the question again as plain text."
    if problem is None:
        return None
    said = f"{problem[:1].upper()}{problem[1:]}, so no research was started. {again}"
    told = AIMessage(shown_text(said), name=NO_QUESTION_NAME)
    if last is None:
        return {"status": state.get("status") or "needs_clarification", "messages": [told]}
    preview = shortened(" ".join(blank_controls(message_text(last)).split()), REFUSED_PREVIEW_CHARS) or ""
    return {"status": state.get("status") or "needs_clarification",
            "messages": [HumanMessage(preview, id=last.id, name=REFUSED_NAME), told]}


def without_bidi(state: ResearchState) -> HumanMessage | None:
    """The user's last message without its bidirectional controls
    (:func:`~deep_research.terminal.without_bidi_controls`), under its id (it replaces the
    message in the thread, before any model reads it), or None when it has none."""
    last = _last_message(state)
    if last is None or (text := message_text(last)) == (kept := without_bidi_controls(text)):
        return None
    return HumanMessage(kept, id=last.id, name=last.name)


def follow_up_update(state: ResearchState) -> dict:
    """What a follow-up question resets: the new report gets its own brief, research, usage,
    errors and run folder; the findings so far become prior_notes (the new report can cite
    them: their pages stay in the store and in ``sources``), and the finished report is
    listed in previous_reports. Its files are never touched again."""
    prior = [*(state.get("prior_notes") or []), *(state.get("notes") or [])]
    done = {"question": state.get("question", ""), "outputs": state.get("outputs") or {},
            "citation_summary": state.get("citation_summary") or {}, "usage": state.get("usage") or {},
            "status": state.get("status")}
    return {"prior_notes": prior, "previous_reports": [done], "notes": None, "raw_notes": None,
            "research_log": None, "errors": None, "degradations": None, "usage": None,
            "research_brief": "", "research_plan": empty_plan(), "coverage": {}, "brief_rounds": 0, "brief_feedback": "", "draft_report": "",
            "research_iterations": 0, "final_report": "", "report_markdown": "", "output_policy": {}, "citation_summary": {},
            "citation_fixes": [], "outputs": {}, "run_dir": "", "budget_exhausted": False,
            "tokens_before": 0, "cost_before": 0.0, "report_review_pending": False, "report_review": "",
            "report_review_open": False, "brief_approval_open": False,
            "report_feedback": "", "report_revisions": 0, "clarifying_questions": [],
            "brief_council": {}, "complexity": {}, "research_mode_used": "", "clarification": {},
            "ignored_settings": None, "ignored_settings_told": ""}


async def _critical(ctx: NodeContext, state: dict, stage: str, e: Exception) -> ResearchFailed:
    notes = await asave_notes(ctx.cfg, state, ctx.thread_id, ctx.checkpoint)
    # debug, not error: the ResearchFailed below carries the same words to every surface (the CLI
    # prints it once, the server records it as the run's error); logging it too printed it twice
    log.debug("%s failed: %s", stage, e)
    return ResearchFailed(stage, describe(e) if not isinstance(e, ModelCallError) else str(e),
                          str(notes) if notes else None, gathered=has_research(state))


class ClarifyNode:
    def __init__(self, deps: Deps):
        self.deps = deps

    async def clarify_with_user(self, state: ResearchState, config, runtime) -> Command:
        ctx = NodeContext.make("clarify_with_user", self.deps, config, runtime, spent=run_spent(state))
        if typed := typed_decision(state):  # a chat reply to the brief or report the run showed
            node, decision = typed
            return Command(goto=node, update={"pending_decision": decision})
        if (refused := no_question(state)) is not None:
            return Command(goto=END, update=refused)
        said: list = []  # the user's message without bidi controls: what every model reads
        if (kept := without_bidi(state)) is not None:
            state = {**state, "messages": [kept if m.id == kept.id else m for m in state["messages"]]}
            said = [kept]
        question = _question(state)
        base = {"question": question, "stage": "clarify", "status": "running"}
        # run values lowered to the environment's ceilings, recorded once per run
        seen = {d.get("message") for d in state.get("degradations") or []}
        clamped = [error_record("configuration", c["message"], kind="clamped")
                   for c in ctx.cfg.clamped if c["message"] not in seen]
        note = ctx.cfg.unpriced_note()  # a cost that leaves some models' calls out, said once
        if note and note not in seen:
            clamped.append(error_record("configuration", note, kind="unpriced"))
        if clamped:
            base["degradations"] = clamped
        if starts_question(state):  # the settings this run gave hold for the question's later runs
            base["question_settings"] = recorded(config, getattr(runtime, "context", None))
        if is_follow_up(state):
            base.update(follow_up_update(state))
            ctx.progress(stage="follow-up", previous_reports=len(state.get("previous_reports") or []) + 1)
        if said:
            base["messages"] = said
        if not ctx.cfg.allow_clarification:
            return Command(goto="write_research_brief", update=base)
        prompt = prompts.CLARIFY.format(date=ctx.today, conversation=conversation_text(state["messages"]))
        try:
            answer = await ctx.meter.structured(await ctx.model("research"), ClarifyWithUser,
                                                [HumanMessage(prompt)], ctx.cfg.structured_output)
        except ModelCallError as e:
            raise await _critical(ctx, {**state, **base}, "clarify_with_user", e) from e
        threshold = ctx.cfg.clarify_confidence_threshold
        gate = confidence_gate(answer, threshold)
        record = clarification_record(answer, gate, threshold)
        update = {**base, **ctx.usage_update(), "clarification": record}
        ctx.progress(stage="clarify", asked=record["asked"], unsure=record["unsure"])
        if gate.questions:
            structured = [{"question": q.question.strip(), "suggested_answers": q.suggested_answers[:4],
                           **({"dimension": q.dimension} if q.dimension else {})} for q in gate.questions]
            message = AIMessage(shown_text(clarification_text(gate.questions, gate.unsure)), name="clarification",
                                additional_kwargs={"clarifying_questions": structured,
                                                   "ambiguous_dimensions": record["dimensions"]})
            return Command(goto=END, update={**update, "status": "needs_clarification", "messages": [*said, message],
                                             "clarifying_questions": structured})
        text = " ".join(t for t in (answer.verification.strip(), assumptions_text(answer.named())) if t)
        msgs = [AIMessage(shown_text(text))] if text else []
        return Command(goto="write_research_brief", update={**update, "messages": [*said, *msgs]})

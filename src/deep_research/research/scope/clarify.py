"""Scoping, step one: the question of the current report (a follow-up's own question), and
clarifying questions with suggested answers when the question needs them."""

from __future__ import annotations

import logging

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import END
from langgraph.types import Command
from pydantic import BaseModel, Field

from .. import prompts
from .plan import empty_plan
from ..runtime.chat import REPORT_NAME, conversation_text
from ..runtime.deps import Deps, NodeContext, run_spent
from ..runtime.failure import ResearchFailed
from ..runtime.meter import ModelCallError, describe
from ..runtime.run_folder import asave_notes
from ..runtime.usage import message_text
from ..state import ResearchState, error_record

log = logging.getLogger(__name__)


class ClarifyingQuestion(BaseModel):
    question: str = Field(description="One short question.")
    suggested_answers: list[str] = Field(default_factory=list, description="Two to four likely answers.")


class ClarifyWithUser(BaseModel):
    need_clarification: bool = Field(description="Whether clarifying questions are needed.")
    questions: list[ClarifyingQuestion] = Field(
        default_factory=list, description="At most three questions, each with suggested answers, if needed.")
    question: str = Field("", description="A single question (when not using 'questions').")
    verification: str = Field("", description="Short confirmation of what will be researched, if not.")

    def asked(self) -> list[ClarifyingQuestion]:
        items = [q for q in self.questions if q.question.strip()][:MAX_CLARIFYING_QUESTIONS]
        if not items and self.question.strip():
            items = [ClarifyingQuestion(question=self.question)]
        return items


MAX_CLARIFYING_QUESTIONS = 3


def clarification_text(questions: list[ClarifyingQuestion]) -> str:
    """The questions as one chat turn; suggested answers in brackets, free text welcome."""
    if len(questions) == 1 and not questions[0].suggested_answers:
        return questions[0].question.strip()
    lines = []
    for i, q in enumerate(questions, 1):
        line = q.question.strip() if len(questions) == 1 else f"{i}. {q.question.strip()}"
        options = [a.strip() for a in q.suggested_answers if a.strip()][:4]
        if options:
            line += "\n   " + " · ".join(f"[{a}]" for a in options)
        lines.append(line)
    return "\n".join(lines)


def _question(state: ResearchState) -> str:
    """The question of the current report: the first user message after the thread's last
    report (a follow-up's question), or the thread's first."""
    messages = list(state.get("messages") or [])
    last_report = max((i for i, m in enumerate(messages) if getattr(m, "name", None) == REPORT_NAME), default=-1)
    for m in messages[last_report + 1:]:
        if isinstance(m, HumanMessage):
            return message_text(m).strip()
    return (state.get("question") or "").strip()


# A thread whose report is done, and which gets a new user message: a follow-up.
FINISHED = ("completed", "brief_rejected")


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
            "research_iterations": 0, "final_report": "", "report_markdown": "", "citation_summary": {},
            "citation_fixes": [], "outputs": {}, "run_dir": "", "budget_exhausted": False,
            "tokens_before": 0, "cost_before": 0.0, "report_review_pending": False, "report_review": "",
            "report_feedback": "", "report_revisions": 0, "clarifying_questions": [],
            "brief_council": {}, "complexity": {}, "research_mode_used": ""}


async def _critical(ctx: NodeContext, state: dict, stage: str, e: Exception) -> ResearchFailed:
    notes = await asave_notes(ctx.cfg, state, ctx.thread_id, ctx.checkpoint)
    log.error("%s failed: %s", stage, e)
    return ResearchFailed(stage, describe(e) if not isinstance(e, ModelCallError) else str(e),
                          str(notes) if notes else None)


class ClarifyNode:
    def __init__(self, deps: Deps):
        self.deps = deps

    async def clarify_with_user(self, state: ResearchState, config, runtime) -> Command:
        ctx = NodeContext.make("clarify_with_user", self.deps, config, runtime, spent=run_spent(state))
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
        if state.get("status") in FINISHED and state.get("messages") and \
                isinstance(state["messages"][-1], HumanMessage):
            base.update(follow_up_update(state))
            ctx.progress(stage="follow-up", previous_reports=len(state.get("previous_reports") or []) + 1)
        if not ctx.cfg.allow_clarification:
            return Command(goto="write_research_brief", update=base)
        prompt = prompts.CLARIFY.format(date=ctx.today, conversation=conversation_text(state["messages"]))
        try:
            answer = await ctx.meter.structured(await ctx.model("research"), ClarifyWithUser,
                                                [HumanMessage(prompt)], ctx.cfg.structured_output)
        except ModelCallError as e:
            raise await _critical(ctx, {**state, **base}, "clarify_with_user", e) from e
        update = {**base, **ctx.usage_update()}
        asked = answer.asked()
        if answer.need_clarification and asked:
            structured = [{"question": q.question.strip(), "suggested_answers": q.suggested_answers[:4]}
                          for q in asked]
            message = AIMessage(clarification_text(asked), name="clarification",
                                additional_kwargs={"clarifying_questions": structured})
            return Command(goto=END, update={**update, "status": "needs_clarification", "messages": [message],
                                             "clarifying_questions": structured})
        msgs = [AIMessage(answer.verification.strip())] if answer.verification.strip() else []
        return Command(goto="write_research_brief", update={**update, "messages": msgs})

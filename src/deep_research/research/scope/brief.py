"""Scoping, step two: the research brief and its plan (written, approved by a human or
revised), then the first draft report that research refines."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.types import Command, interrupt
from pydantic import Field

from ...language import detect_language
from ...terminal import too_long
from .. import prompts
from .plan import (
    PlanFields,
    brief_text,
    empty_plan,
    plan_from,
    plan_markdown,
    revised_plan,
    with_plan,
)
from ..runtime import hitl
from ..runtime.chat import brief_message, conversation_text, shown_text, shown_values
from ..runtime.deps import Deps, NodeContext, run_spent
from ..runtime.meter import ModelCallError, describe
from ..runtime.usage import merge_usage, total_cost, total_tokens
from .clarify import _critical, _question
from ..state import ResearchState, error_record


PRIOR_CHARS = 30_000  # earlier findings shown to the draft (the final report gets them all)


def findings_text(notes: list[dict]) -> str:
    return "\n\n".join(f"### {n.get('topic', '')}\n{n.get('findings', '')}" for n in notes)


class ResearchQuestion(PlanFields):
    """The brief and its research plan (plan.py): sub-questions, entities, time scope,
    ambiguous names."""

    research_brief: str = Field(description="The research brief.")


async def _search_context(ctx: NodeContext, query: str, stage: str, purpose: str) -> tuple[str, list[dict]]:
    """Optional search context for the brief or the draft: (context, degradations). A failed
    search or pages without text degrade the step (recorded); they never stop it."""
    try:
        results = await ctx.run_search(query, max_results=3)
    except Exception as e:  # noqa: BLE001 - optional context: degrade, record, go on
        return "", [error_record(stage, f"no {purpose}: search failed: {describe(e)}")]
    degradations = []
    lines = []
    if ctx.cfg.min_source_credibility > 0 and results:  # context from sources the user would drop: none
        from ..gather.researcher import credibility_of

        scores = credibility_of(ctx, results)
        low = [r for r in results if scores[r.url].score < ctx.cfg.min_source_credibility]
        if low:
            degradations.append(error_record(stage, f"{len(low)} search result(s) below min_source_credibility "
                                             f"{ctx.cfg.min_source_credibility:.2f} left out of the {purpose}"))
            results = [r for r in results if r not in low]
    for r in results:
        text = (r.snippet or r.content or "").strip()
        if text:
            lines.append(f"- {r.title}: {text[:300]}")
    empty = len(results) - len(lines)
    if empty:
        degradations.append(error_record(stage, f"{empty} search result(s) with empty content skipped"
                                         + ("" if lines else f"; no {purpose}")))
    context = prompts.BRIEF_CONTEXT.format(snippets="\n".join(lines)) if lines else ""
    return context, degradations


class BriefNodes:
    def __init__(self, deps: Deps):
        self.deps = deps

    async def write_research_brief(self, state: ResearchState, config, runtime) -> dict:
        ctx = NodeContext.make("write_research_brief", self.deps, config, runtime, spent=run_spent(state))
        ctx.progress(stage="brief")
        update: dict[str, Any] = {"stage": "brief", "question": state.get("question") or _question(state)}
        # the report's language: the question's (loads the detector once, off the event loop)
        update["language"] = await asyncio.to_thread(detect_language, update["question"])
        context = ""
        if ctx.cfg.brief_search and ctx.cfg.search_api.value != "none":
            context, degradations = await _search_context(ctx, update["question"], "write_research_brief",
                                                          "preliminary search context")
            if degradations:
                update["degradations"] = degradations
        prompt = prompts.BRIEF.format(date=ctx.today, conversation=conversation_text(state["messages"]),
                                      context=context) + prompts.PLAN_INSTRUCTIONS
        try:
            brief = await ctx.meter.structured(await ctx.model("research"), ResearchQuestion,
                                               [HumanMessage(prompt)], ctx.cfg.structured_output)
        except ModelCallError as e:
            raise await _critical(ctx, {**state, **update}, "write_research_brief", e) from e
        degradations = update.pop("degradations", []) + ctx.shortened("conversation")
        if degradations:
            update["degradations"] = degradations
        plan = plan_from(brief)
        text = with_plan(brief.research_brief.strip(), plan)  # the plan is shown under the brief
        if ctx.cfg.require_brief_approval:  # the brief to approve, as a chat turn
            update["messages"] = [brief_message(text, 1, ctx.cfg.max_brief_refinement_rounds + 1)]
            update["brief_approval_open"] = True
        ctx.progress(stage="plan", sub_questions=len(plan["sub_questions"]))
        return {**update, **ctx.usage_update(), "research_brief": text, "brief_rounds": 0, "research_plan": plan}

    async def approve_research_brief(self, state: ResearchState, config, runtime) -> Command:
        """Pause for a human (runtime/hitl.py): approve, edit the brief's text, or reject it
        with what to change ({"type": "reject", "feedback" or "message": "..."}). Anything
        else is answered with an explanation (the payload's ``error`` and a chat turn,
        hitl.asked_again) and asked again, never approved."""
        ctx = NodeContext.make("approve_research_brief", self.deps, config, runtime, spent=run_spent(state))
        if not ctx.cfg.require_brief_approval and not state.get("brief_approval_open"):
            return Command(goto="write_draft_report")
        rounds = state.get("brief_rounds", 0)
        brief, plan = state.get("research_brief", ""), state.get("research_plan") or empty_plan()
        max_rounds = ctx.cfg.max_brief_refinement_rounds + 1
        # what a chat client renders: model text under the chat's output policy (shown_text)
        payload = hitl.request(
            BRIEF_ACTION, {"research_brief": shown_text(brief_text(brief))},
            f"Research brief, round {rounds + 1} of at most {max_rounds} (its plan is in the chat above). "
            "Approve it, edit its text, or reject it and say what to change.",
            ("approve", "edit", "reject"),
            type="brief_approval", research_brief=shown_text(brief), research_plan=shown_values(plan),
            round=rounds + 1,
            max_rounds=max_rounds,
            expected=[{"type": "approve"}, {"type": "reject", "feedback": "what to change"},
                      {"type": "edit", "edited_action": {"name": BRIEF_ACTION, "args": {"research_brief": "..."}}}])
        if state.get("brief_council"):  # the council's votes and reasons, for the human to weigh
            payload["brief_council"] = shown_values(state["brief_council"])
        payload = hitl.with_problem(payload, state)  # why the last answer was not a decision
        typed = state.get("pending_decision")  # a reply typed in the chat (chat.typed_decision)
        from_chat = typed is not None  # a typed reply is in the chat already, a button's is said there
        kind, text, problem = _parse_decision(typed if from_chat else interrupt(payload))
        if problem is not None:  # said in the chat too, then asked again
            return Command(goto="approve_research_brief", update=hitl.asked_again(state, problem))
        if kind == "approve":
            return Command(goto="write_draft_report", update={"stage": "brief approved", "pending_decision": None,
                                                              "brief_approval_open": False, hitl.PROBLEM: None})
        if kind == "edit":  # the reviewer's own wording, under the same plan
            return Command(goto="write_draft_report", update={
                "stage": "brief approved", "research_brief": with_plan(text.strip(), plan), "pending_decision": None,
                "brief_approval_open": False, hitl.PROBLEM: None,
                "messages": [] if from_chat else [HumanMessage(f"My edited brief:\n\n{text.strip()}")]})
        feedback = text
        said = [] if from_chat else [HumanMessage(feedback)]
        if rounds >= ctx.cfg.max_brief_refinement_rounds:
            # No rewrite left: research proceeds with the last brief, and the feedback it
            # does not address is on record (and in the report's limitations).
            msg = (f"The research brief was rejected {rounds + 1} times, the most allowed "
                   f"(max_brief_refinement_rounds = {ctx.cfg.max_brief_refinement_rounds}); research proceeds with "
                   "the last brief, and your last feedback is noted in the report's limitations.")
            note = (f"the reviewer's last feedback on the research brief was not addressed (no rewrite left): "
                    f"{feedback}")
            return Command(goto="write_draft_report", update={
                "stage": "brief not approved", "messages": [*said, AIMessage(msg)], "pending_decision": None,
                "brief_approval_open": False, hitl.PROBLEM: None,
                "degradations": [error_record("approve_research_brief", note, kind="unresolved_feedback")]})
        return Command(goto="revise_research_brief", update={"brief_feedback": feedback, "pending_decision": None,
                                                             "messages": said, hitl.PROBLEM: None})

    async def revise_research_brief(self, state: ResearchState, config, runtime) -> dict:
        ctx = NodeContext.make("revise_research_brief", self.deps, config, runtime, spent=run_spent(state))
        old_plan = state.get("research_plan") or empty_plan()
        prompt = prompts.REVISE_BRIEF.format(date=ctx.today, brief=brief_text(state.get("research_brief", "")),
                                             feedback=state.get("brief_feedback", "")) + \
            prompts.REVISE_PLAN.format(plan=plan_markdown(old_plan) or "(no plan yet)")
        try:
            brief = await ctx.meter.structured(await ctx.model("research"), ResearchQuestion,
                                               [HumanMessage(prompt)], ctx.cfg.structured_output)
        except ModelCallError as e:
            raise await _critical(ctx, state, "revise_research_brief", e) from e
        plan = revised_plan(old_plan, brief)  # the revised brief's plan, or the plan so far
        text, rounds = with_plan(brief.research_brief.strip(), plan), state.get("brief_rounds", 0) + 1
        return {**ctx.usage_update(), "research_brief": text, "brief_rounds": rounds, "research_plan": plan,
                "messages": [brief_message(text, rounds + 1, ctx.cfg.max_brief_refinement_rounds + 1)]}

    async def write_draft_report(self, state: ResearchState, config, runtime) -> Command:
        ctx = NodeContext.make("write_draft_report", self.deps, config, runtime, spent=run_spent(state))
        ctx.progress(stage="draft")
        update: dict[str, Any] = {"stage": "draft"}
        context = ""
        if ctx.cfg.draft_search and ctx.cfg.search_api.value != "none":
            context, degradations = await _search_context(ctx, state.get("question", ""), "write_draft_report",
                                                          "search context for the draft")
            if degradations:
                update["degradations"] = degradations
        prior = state.get("prior_notes") or []
        if prior:  # a follow-up: what the thread already found
            context += prompts.PRIOR_FINDINGS.format(findings=findings_text(prior)[:PRIOR_CHARS])
        prompt = prompts.DRAFT.format(date=ctx.today, brief=state.get("research_brief", ""), context=context)
        try:
            draft = await ctx.meter.text(await ctx.model("final_report"), [HumanMessage(prompt)], what="draft")
        except ModelCallError as e:
            raise await _critical(ctx, {**state, **update}, "write_draft_report", e) from e
        degradations = update.pop("degradations", []) + ctx.shortened("brief")
        if degradations:
            update["degradations"] = degradations
        so_far = merge_usage(state.get("usage"), ctx.usage_update().get("usage"))
        update = {**update, **ctx.usage_update(), "draft_report": draft,
                  "tokens_before": total_tokens(so_far), "cost_before": total_cost(so_far)}
        if ctx.cfg.without_sources:  # nothing to search or read: no researchers are sent out
            ctx.progress(stage="research skipped", reason="search_api is none")
            return Command(goto="final_report_generation", update=update)
        return Command(goto="route_research", update=update)  # single or multi path (routing.py)


BRIEF_ACTION = "approve_research_brief"


def _parse_decision(value: Any) -> tuple[Literal["approve", "reject", "edit"] | None, str, str | None]:
    """(kind, feedback or edited text, problem). A problem means the value is not a valid
    decision: HITL ``{"decisions": [...]}`` or a bare decision (see runtime/hitl.py)."""
    expected = ('resume with {"type": "approve"}, {"type": "reject", "feedback": "what to change"} or '
                '{"type": "edit", "edited_action": {"name": "approve_research_brief", '
                '"args": {"research_brief": "..."}}} (alone or as {"decisions": [...]})')
    value, problem = hitl.decision_of(value)
    if problem:
        return None, "", f"{problem}; {expected}"
    if not isinstance(value, dict):
        return None, "", f"not a decision ({type(value).__name__}); {expected}"
    kind = value.get("type")
    if kind == "approve":
        return "approve", "", None
    if kind == "reject":
        feedback = hitl.text_arg(value, "feedback", "message")
        if feedback is None:
            return None, "", f"a rejection needs non-empty feedback; {expected}"
        if (long := too_long(feedback.strip(), "the feedback")) is not None:
            return None, "", f"{long}: say what to change in fewer words"
        feedback, bad = hitl.typed_text(feedback, "the feedback")
        return (None, "", bad) if bad else ("reject", feedback.strip(), None)
    if kind == "edit":
        args, problem = hitl.edited_args(value, BRIEF_ACTION)
        text = hitl.text_arg(args or {}, "research_brief")
        if problem or text is None:
            return None, "", f"{problem or 'an edit needs the brief text (research_brief)'}; {expected}"
        if (long := too_long(text.strip(), "the edited brief")) is not None:
            return None, "", f"{long}: shorten it, or reject the brief and say what to change"
        text, bad = hitl.typed_text(text, "the edited brief")
        return (None, "", bad) if bad else ("edit", text, None)
    return None, "", f"unknown decision type {kind!r}; {expected}"

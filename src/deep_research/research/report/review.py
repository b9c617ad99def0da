"""Optional human review of the final report before it is published
(``require_report_approval``).

The checked report is shown as a chat turn (its citations as links), then the run pauses:
an interrupt in the human-in-the-loop shape (runtime/hitl.py) that chat clients show as
buttons. Resume with (each alone or inside ``{"decisions": [...]}``):

* ``{"type": "approve"}``: publish it as it is;
* ``{"type": "edit", "edited_action": {"name": "review_report", "args": {"report_markdown":
  "..."}}}`` or ``{"type": "edit", "markdown": "..."}``: publish the reviewer's own version
  (with its ``<ref>`` tags), whose citations code checks again (a quote not on its page is
  marked unsupported, as any);
* ``{"type": "reject", "message": "..."}`` or ``{"type": "feedback", "feedback": "..."}``:
  the report model revises the report once (bounded), code checks and repairs its
  citations again, and the reviewer is asked again.

Anything else is answered with an explanation and asked again, never taken as approval.
"""

from __future__ import annotations

import asyncio
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.types import Command, interrupt

from ...citations.check import check_citations
from ...citations.model import Verdict
from ...terminal import too_long
from .. import prompts
from ..runtime import hitl
from ..runtime.configuration import MAX_EDITED_REPORT_CHARS
from ..runtime.chat import chat_markdown, review_message, shown_report_markdown
from ..runtime.deps import Deps, NodeContext, run_spent
from ..runtime.failure import ResearchFailed
from ..runtime.run_folder import asave_notes
from ..runtime.meter import ModelCallError

MAX_REVISIONS = 1  # feedback rounds the model revises the report for


REVIEW_ACTION = "review_report"


def parse_review(value: Any, revisions_left: int) -> tuple[str | None, str, str | None]:
    """(kind, text, problem): kind approve | edit | feedback; text is the markdown or the
    feedback; a problem means the value is not a usable decision."""
    options = ['{"type": "approve"}', '{"type": "edit", "markdown": "the report as it should be published"}']
    if revisions_left:
        options.append('{"type": "feedback", "feedback": "what to change"}')
    expected = "resume with " + " or ".join(options) + " (or the same as HITL decisions)"
    value, problem = hitl.decision_of(value)
    if problem:
        return None, "", f"{problem}; {expected}"
    if not isinstance(value, dict):
        return None, "", f"not a decision ({type(value).__name__}); {expected}"
    kind = value.get("type")
    if kind == "approve":
        return "approve", "", None
    if kind == "edit":
        if "edited_action" in value:
            args, problem = hitl.edited_args(value, REVIEW_ACTION)
            markdown = hitl.text_arg(args or {}, "report_markdown", "markdown")
        else:
            problem, markdown = None, hitl.text_arg(value, "markdown")
        if problem or markdown is None:
            return None, "", f"{problem or 'an edit needs the report markdown'}; {expected}"
        if (long := edit_too_long(markdown)) is not None:
            return None, "", long
        return "edit", markdown, None
    if kind in ("feedback", "reject"):
        feedback = hitl.text_arg(value, "feedback", "message")
        if not revisions_left:
            return None, "", f"the report was already revised {MAX_REVISIONS} time(s); {expected}"
        if feedback is None:
            return None, "", f"feedback must be non-empty text; {expected}"
        if (long := too_long(feedback.strip(), "the feedback")) is not None:
            return None, "", f"{long}: say what to change in fewer words"
        feedback, bad = hitl.typed_text(feedback, "the feedback")
        return (None, "", bad) if bad else ("feedback", feedback.strip(), None)
    return None, "", f"unknown decision type {kind!r}; {expected}"


def edit_too_long(markdown: str) -> str | None:
    """Why a reviewer's edited report is refused for its length (past
    :data:`MAX_EDITED_REPORT_CHARS`, several times the longest report a run writes), or None."""
    long = too_long(markdown, "the edited report", MAX_EDITED_REPORT_CHARS)
    return None if long is None else f"{long}: shorten it, or approve the report as it is"


def summary_of(report) -> dict:
    return {"refs": len(report.citations), "verified": report.count(Verdict.VERIFIED),
            "repaired": report.count(Verdict.REPAIRED), "unsupported": report.count(Verdict.UNSUPPORTED),
            "fragment_links": report.fragment_links()}


class ReviewNodes:
    def __init__(self, deps: Deps):
        self.deps = deps

    async def review_report(self, state: dict, config, runtime) -> Command:
        ctx = NodeContext.make("review_report", self.deps, config, runtime, spent=run_spent(state))
        if not ctx.cfg.require_report_approval and not state.get("report_review_open"):
            return Command(goto="publish")
        revisions = int(state.get("report_revisions") or 0)
        summary = state.get("citation_summary") or {}
        left = MAX_REVISIONS - revisions
        if not state.get("report_review_pending"):
            # the report to review, as a chat turn (a node's messages before an interrupt
            # would be lost, so this step writes it and comes back to ask)
            sources, _ = await ctx.pages.load_sources(state.get("sources") or {})
            shown = await asyncio.to_thread(chat_markdown, state.get("report_markdown", ""), sources,
                                            state.get("language"))
            ctx.progress(stage="report review")
            return Command(goto="review_report", update={
                "report_review_pending": True, "report_review_open": True, "stage": "report review",
                "messages": [review_message(shown, summary, left, state.get("language"))]})
        allowed = ("approve", "edit", "reject") if left else ("approve", "edit")
        markdown = shown_report_markdown(state.get("report_markdown", ""))  # what a chat client renders
        payload = hitl.request(
            REVIEW_ACTION, {"report_markdown": markdown},
            "The checked report is in the chat above, its citations as links; here is its markdown with the "
            "<ref> tags. Approve it, edit it (code checks every quote again)"
            + (", or reject it and say what to change (the report is revised once)." if left else "."),
            allowed,
            type="report_review", report_markdown=markdown, citation_summary=summary,
            revisions_left=left,
            expected=[{"type": "approve"}, {"type": "edit", "markdown": "..."}]
            + ([{"type": "feedback", "feedback": "what to change"}] if left else []))
        payload = hitl.with_problem(payload, state)  # why the last answer was not a decision
        typed = state.get("pending_decision")  # a reply typed in the chat (chat.typed_decision)
        from_chat = typed is not None  # a typed reply is in the chat already, a button's is said there
        kind, text, problem = parse_review(typed if from_chat else interrupt(payload), MAX_REVISIONS - revisions)
        if problem is not None:  # said in the chat too, then asked again
            return Command(goto="review_report", update=hitl.asked_again(state, problem))
        done = {"report_review_pending": False, "pending_decision": None, hitl.PROBLEM: None}
        if kind == "approve":
            return Command(goto="publish", update={**done, "report_review": "approved", "report_review_open": False})
        if kind == "edit":
            sources, _ = await ctx.pages.load_sources(state.get("sources") or {})
            checked = await asyncio.to_thread(check_citations, text, sources)  # code checks the edit
            return Command(goto="publish", update={
                **done, "report_review": "edited", "report_review_open": False, "report_markdown": text, "final_report": text, "output_policy": {},
                "citation_summary": {**summary_of(checked), "edited_by_reviewer": True},
                "messages": [HumanMessage("Publish my edited version of the report.", name="edited_report")]})
        return Command(goto="revise_report", update={**done, "report_review": "feedback", "report_feedback": text,
                                                     "messages": [] if from_chat else [HumanMessage(text)]})

    async def revise_report(self, state: dict, config, runtime) -> dict:
        ctx = NodeContext.make("revise_report", self.deps, config, runtime, spent=run_spent(state))
        ctx.progress(stage="report revision")
        notes = [*(state.get("prior_notes") or []), *(state.get("notes") or [])]
        findings = "\n\n".join(f"### {n.get('topic', '')}\n{n.get('findings', '')}" for n in notes) or "(none)"
        prompt = prompts.REVISE_REPORT.format(data_notice=prompts.DATA_NOTICE, feedback=state.get("report_feedback", ""),
                                              report=state.get("report_markdown") or state.get("final_report", ""),
                                              findings=findings)
        try:
            revised = await ctx.meter.text(await ctx.model("final_report"), [HumanMessage(prompt)], what="report")
        except ModelCallError as e:
            path = await asave_notes(ctx.cfg, state, ctx.thread_id, ctx.checkpoint)
            raise ResearchFailed("revise_report", str(e), str(path) if path else None) from e
        # check_citations verifies (and repairs) its citations next, then the reviewer is asked again
        return {**ctx.usage_update(), "final_report": revised, "stage": "report revision",
                "report_revisions": int(state.get("report_revisions") or 0) + 1}

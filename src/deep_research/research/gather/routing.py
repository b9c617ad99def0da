"""Complexity routing: which research path a question takes.

``research_mode`` = ``multi`` (the supervisor sends parallel researchers round by round),
``single`` (one researcher with the brief as its topic; no supervisor rounds) or ``auto``
(one cheap classification of the question by the summarization model: a *simple* question
goes the single path, a *focused* or *broad* one the multi path; a classification that
fails falls back to multi and is recorded as a degradation).

Both paths end in the same nodes (final report, citation and claim checks, review,
publish), so the single path gives the same citation guarantees: its findings are
compressed and cleaned by the researcher exactly as a supervisor's research unit's are.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from langchain_core.messages import HumanMessage
from langgraph.types import Command
from pydantic import BaseModel, Field

from .. import prompts
from ..runtime.chat import chat_with
from ..runtime.deps import Deps, NodeContext, run_spent
from ..runtime.meter import ModelCallError, describe
from ..runtime.usage import merge_usage
from ..scope.plan import query_analysis, search_hints
from .researcher import build_researcher
from ..state import ResearchState, error_record
from .supervisor import (
    SupervisorNodes,
    budget_exhausted,
    coverage_now,
    log_entry,
    unit_budgets,
    unit_error,
    unit_outcome,
)

log = logging.getLogger(__name__)

SINGLE, MULTI = "single", "multi"
SINGLE_CALL_ID = "single_research"


class ClassifyQuestion(BaseModel):
    complexity: Literal["simple", "focused", "broad"] = Field(
        description="simple: one fact or short answer; focused: one subject, a few aspects; broad: many aspects.")
    reason: str = Field("", description="One sentence: why.")


def path_for(complexity: str) -> str:
    """The research path of a classified question: only a simple one goes alone."""
    return SINGLE if complexity == "simple" else MULTI


class RoutingNodes:
    def __init__(self, deps: Deps):
        self.deps = deps
        self._researcher = None

    @property
    def researcher(self):
        if self._researcher is None:
            self._researcher = build_researcher(self.deps)
        return self._researcher

    async def route_research(self, state: ResearchState, config, runtime) -> Command:
        """Decide the research path (classifying the question when research_mode is auto)."""
        ctx = NodeContext.make("route_research", self.deps, config, runtime, spent=run_spent(state))
        mode = ctx.cfg.research_mode
        update: dict[str, Any] = {"complexity": {}}
        if mode == "auto":
            prompt = prompts.CLASSIFY_QUESTION.format(brief=state.get("research_brief") or state.get("question", ""))
            try:
                answer = await ctx.meter.structured(await ctx.model("summarization"), ClassifyQuestion,
                                                    [HumanMessage(prompt)], ctx.cfg.structured_output)
                used = path_for(answer.complexity)
                update["complexity"] = {"level": answer.complexity, "reason": answer.reason.strip()[:500]}
            except ModelCallError as e:  # routing is an optimisation: the full path is the safe one
                used = MULTI
                update["degradations"] = [error_record(
                    "route_research", f"the question could not be classified ({describe(e)[:200]}); "
                    "the multi-agent path is used", kind="routing")]
        else:
            used = mode
        ctx.progress(stage="route", research_mode=used, complexity=update["complexity"].get("level"))
        update.update({"research_mode_used": used, **ctx.usage_update()})
        return Command(goto="single_research" if used == SINGLE else "research_supervisor", update=update)

    async def single_research(self, state: ResearchState, config, runtime) -> dict:
        """One researcher with the brief as its topic (its tool-call limit, its findings
        compressed and their citations cleaned by code), then on to the final report."""
        ctx = NodeContext.make("single_research", self.deps, config, runtime, spent=run_spent(state))
        brief = state.get("research_brief") or state.get("question", "")
        cfg = ctx.cfg
        # as the supervisor decides it: room left for one research unit and for writing the report
        # (the run's usage holds what was used before research: not counted twice)
        seen = {**state, "tokens_before": 0, "cost_before": 0.0}
        token_budget, cost_budget = unit_budgets(cfg, seen, 1)
        reason = budget_exhausted(cfg, seen)
        if reason:  # as the supervisor says it: the report (or its failure) names the reason
            return {"budget_exhausted": True, "research_iterations": 0, "coverage": coverage_now(state, "limits"),
                    "degradations": [error_record("single_research", f"research stopped early: {reason}")]}
        shown = ctx.progress(stage="research", round=1, mode=SINGLE, event="researchers_started", count=1)
        unit = {"topic": brief, "call_id": SINGLE_CALL_ID, "research_brief": brief,
                "query_context": query_analysis(state.get("research_plan")),
                "search_hints": search_hints(state.get("research_plan")),
                "token_budget": token_budget, "cost_budget": cost_budget,
                "question_settings": state.get("question_settings") or {},
                "messages": chat_with(state.get("messages") or [], shown)}  # its subgraph shows the chat
        out = await self.researcher.ainvoke(unit, config, context=getattr(runtime, "context", None))
        result = next((r for r in out.get("round_results") or [] if r.get("call_id") == SINGLE_CALL_ID),
                      {"error": "the researcher returned no result"})
        ok, err = unit_outcome(result)
        update: dict[str, Any] = {
            "sources": out.get("sources") or {}, "usage": out.get("usage") or {},
            "degradations": list(out.get("degradations") or []), "errors": list(out.get("errors") or []),
            "research_iterations": 1, "stage": "research done",
            "research_log": [log_entry(brief, result, ok, err)],
        }
        if ok:
            update["notes"] = [{"topic": brief, "findings": result["findings"], "call_id": SINGLE_CALL_ID}]
        else:
            update["errors"].append(unit_error(result, err, brief[:200]))
        if result.get("raw"):
            update["raw_notes"] = [f"## {brief[:200]}\n\n{result['raw']}"]
        ctx.progress(event="researchers_finished", count=1)
        # the plan's coverage, judged as after a supervisor round (one round: the path's only one)
        coverage = await SupervisorNodes(self.deps)._coverage(
            NodeContext.make("coverage", self.deps, config, runtime,
                             spent=run_spent({"usage": merge_usage(state.get("usage"), update["usage"])})),
            {**state, "research_iterations": 1},
            update.get("notes") or [])
        update["coverage"] = {**coverage["coverage"], "stopped_because": SINGLE}
        if coverage.get("usage"):
            update["usage"] = merge_usage(update["usage"], coverage["usage"])
        update["degradations"] += coverage.get("degradations") or []
        return update

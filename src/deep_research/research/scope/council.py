"""The brief council (optional): several models review the research brief before research.

Each model in ``brief_council_models`` reviews the brief (approve, or revise with reasons).
When the share of approvals among the votes cast reaches ``brief_council_threshold`` the
brief stands; below it the research model rewrites the brief once with the council's merged
reasons and the council reviews it again, at most ``brief_council_max_rounds`` times; then
research proceeds with the last brief and the unresolved reasons are on record (and in the
report's limitations). A council model that fails (cannot be built, errors, no valid answer)
abstains, recorded as a degradation; when every model abstains the brief stands, recorded.

Council models are built like every other model (``Deps``, ``model_base_url``,
``model_api_key_env``) and their calls are metered in this node's usage, so they count
against the run's token and cost caps and are priced like the other models.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Literal

from langchain_core.messages import HumanMessage
from langgraph.errors import GraphBubbleUp
from pydantic import BaseModel, Field

from .. import prompts
from ..runtime.chat import brief_message
from ..runtime.deps import Deps, NodeContext, run_spent
from ..runtime.chat import conversation_text
from ..runtime.meter import ModelCallError, describe
from ..state import ResearchState, error_record

log = logging.getLogger(__name__)

APPROVE, REVISE, ABSTAIN = "approve", "revise", "abstain"


class CouncilReview(BaseModel):
    verdict: Literal["approve", "revise"] = Field(description="approve, or revise when the brief needs changes.")
    reasons: list[str] = Field(default_factory=list, description="Short, concrete reasons (needed for revise).")


def tally(votes: list[dict], threshold: float) -> dict:
    """A round's outcome: approvals among the votes cast (abstentions do not count)."""
    cast = [v for v in votes if v["verdict"] != ABSTAIN]
    approvals = sum(v["verdict"] == APPROVE for v in cast)
    share = approvals / len(cast) if cast else None
    return {"approvals": approvals, "votes_cast": len(cast), "abstentions": len(votes) - len(cast),
            "share": None if share is None else round(share, 4),
            "passed": share is not None and share >= threshold}


def merged_reasons(votes: list[dict]) -> str:
    lines = []
    for v in votes:
        if v["verdict"] != REVISE:
            continue
        reasons = v.get("reasons") or ["(no reason given)"]
        lines.extend(f"- {r}" for r in dict.fromkeys(reasons))
    return "\n".join(lines)


class CouncilNodes:
    def __init__(self, deps: Deps):
        self.deps = deps

    async def _review(self, ctx: NodeContext, index: int, brief: str, conversation: str) -> dict:
        name = ctx.cfg.brief_council_models[index]
        prompt = prompts.COUNCIL_REVIEW.format(date=ctx.today, conversation=conversation, brief=brief)
        try:
            model = await self.deps.model_for(ctx.cfg.council_spec(index))
            answer = await ctx.meter.structured(model, CouncilReview, [HumanMessage(prompt)],
                                                ctx.cfg.structured_output)
        except GraphBubbleUp:
            raise
        except Exception as e:  # noqa: BLE001 - a failing member abstains; the council goes on
            message = str(e) if isinstance(e, ModelCallError) else describe(e)
            return {"model": name, "verdict": ABSTAIN, "reasons": [], "error": message[:300]}
        reasons = [" ".join(r.split())[:500] for r in answer.reasons if r.strip()][:8]
        return {"model": name, "verdict": answer.verdict, "reasons": reasons}

    async def brief_council(self, state: ResearchState, config, runtime) -> dict:
        ctx = NodeContext.make("brief_council", self.deps, config, runtime, spent=run_spent(state))
        cfg = ctx.cfg
        if not cfg.brief_council_models:
            return {}
        ctx.progress(stage="brief council", models=len(cfg.brief_council_models))
        brief = original = state.get("research_brief", "")
        conversation = conversation_text(state.get("messages") or [])
        record: dict[str, Any] = {"models": list(cfg.brief_council_models), "threshold": cfg.brief_council_threshold,
                                  "max_rounds": cfg.brief_council_max_rounds, "rounds": [], "revisions": 0}
        degradations: list[dict] = []
        while True:
            votes = list(await asyncio.gather(*(self._review(ctx, i, brief, conversation)
                                                for i in range(len(cfg.brief_council_models)))))
            result = tally(votes, cfg.brief_council_threshold)
            record["rounds"].append({"round": len(record["rounds"]) + 1, "brief": brief, "votes": votes, **result})
            for v in votes:
                if v["verdict"] == ABSTAIN:
                    degradations.append(error_record(
                        "brief_council", f"council model {v['model']} abstained: {v['error']}", kind="council_abstain"))
            ctx.progress(event="council_round", round=len(record["rounds"]), approvals=result["approvals"],
                         votes=result["votes_cast"])
            if not result["votes_cast"]:
                record["outcome"] = "no_votes"
                degradations.append(error_record(
                    "brief_council", "no council model gave a verdict; research proceeds with the brief as written",
                    kind="council_no_votes"))
                break
            if result["passed"]:
                record["outcome"] = "approved"
                break
            reasons = merged_reasons(votes)
            if record["revisions"] >= cfg.brief_council_max_rounds:
                record["outcome"] = "unresolved"
                degradations.append(error_record(
                    "brief_council", f"the council did not approve the research brief after {record['revisions']} "
                    f"revision(s) (brief_council_max_rounds = {cfg.brief_council_max_rounds}); research proceeds "
                    f"with the last brief. The council's open reasons: {' '.join(reasons.split())[:1200]}",
                    kind="unresolved_feedback"))
                break
            prompt = prompts.COUNCIL_REVISE_BRIEF.format(date=ctx.today, brief=brief, reasons=reasons)
            try:
                from .brief import ResearchQuestion

                revised = await ctx.meter.structured(await ctx.model("research"), ResearchQuestion,
                                                     [HumanMessage(prompt)], cfg.structured_output)
            except ModelCallError as e:
                record["outcome"] = "revision_failed"
                degradations.append(error_record(
                    "brief_council", f"the brief could not be revised with the council's reasons ({e}); research "
                    "proceeds with the last brief", kind="unresolved_feedback"))
                break
            text = revised.research_brief.strip()
            if text:
                brief = text
            record["revisions"] += 1
        record["research_brief"] = brief
        update: dict[str, Any] = {"brief_council": record, "research_brief": brief, **ctx.usage_update()}
        if degradations:
            update["degradations"] = degradations
        if brief != original and cfg.require_brief_approval:  # the brief the human is asked about
            update["messages"] = [brief_message(brief, 1, cfg.max_brief_refinement_rounds + 1)]
        return update

"""Supervisor subgraph: plans research against the brief and the current draft, sends
researchers out in parallel (capped in code), and refines the draft from new findings.

The supervisor's prompt is rebuilt each round from the brief, the current draft, a short
log of past research and only the last round's tool results, so its size stays flat as
rounds go by; refine_draft_report reads only findings that arrived since the last refine.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, Send

from ..citations.edit import clean_refs
from . import prompts
from .common import Deps, NodeContext, ResearchFailed, asave_notes
from .failure import guarded
from .models import ModelCallError, message_text, total_cost, total_tokens
from .researcher import build_researcher
from .state import SupervisorInput, SupervisorOutput, SupervisorState, error_record
from .tools import CONDUCT_RESEARCH, REFINE_DRAFT, RESEARCH_COMPLETE, SUPERVISOR_TOOLS, THINK

log = logging.getLogger(__name__)


def _last_round(messages: list) -> list:
    """The last AI message with tool calls and the tool results that answer it."""
    for i in range(len(messages) - 1, -1, -1):
        if isinstance(messages[i], AIMessage):
            return messages[i:]
    return []


def _research_log(state: SupervisorState) -> str:
    entries = state.get("research_log") or []
    if not entries:
        return "(none yet)"
    lines = []
    for e in entries[-30:]:
        status = "done" if e.get("ok") else f"failed: {e.get('error', '')[:120]}"
        lines.append(f"- {e.get('topic', '')[:160]} [{status}; {e.get('citations', 0)} citations]")
    return "\n".join(lines)


def tokens_used(state: dict) -> int:
    return total_tokens(state.get("usage")) + int(state.get("tokens_before") or 0)


def cost_used(state: dict) -> float:
    return total_cost(state.get("usage")) + float(state.get("cost_before") or 0.0)


def budget_exhausted(cfg, state: dict) -> str | None:
    used = tokens_used(state)
    if cfg.max_total_tokens and used >= cfg.max_total_tokens:
        return f"token budget reached ({used:,} of {cfg.max_total_tokens:,} tokens)"
    cost = cost_used(state)
    if cfg.max_cost_usd and cost >= cfg.max_cost_usd:
        return f"cost budget reached (${cost:.4f} of ${cfg.max_cost_usd:.4f})"
    return None


def unit_budgets(cfg, state: dict, units: int) -> tuple[int | None, float | None]:
    """Each research unit's share of what is left of the token and cost caps (None: no cap)."""
    units = max(units, 1)
    tokens = max(cfg.max_total_tokens - tokens_used(state), 0) // units if cfg.max_total_tokens else None
    cost = max(cfg.max_cost_usd - cost_used(state), 0.0) / units if cfg.max_cost_usd else None
    return tokens, cost


class SupervisorNodes:
    def __init__(self, deps: Deps):
        self.deps = deps

    async def supervisor(self, state: SupervisorState, config, runtime) -> Command:
        ctx = NodeContext.make("supervisor", self.deps, config, runtime)
        rounds = state.get("research_iterations", 0)
        reason = budget_exhausted(ctx.cfg, state)
        if reason:
            return Command(goto=END, update={"budget_exhausted": True, "degradations": [
                error_record("supervisor", f"research stopped early: {reason}")]})
        if rounds >= ctx.cfg.max_researcher_iterations:
            return Command(goto=END, update={"degradations": [error_record(
                "supervisor", f"research stopped after the maximum of {rounds} rounds")]})
        ctx.progress(stage="research", round=rounds + 1)
        system = SystemMessage(prompts.SUPERVISOR.format(
            date=ctx.today, brief=state.get("research_brief", ""),
            draft=state.get("draft_report") or "(no draft yet)", research_log=_research_log(state),
            round=rounds + 1, max_rounds=ctx.cfg.max_researcher_iterations,
            max_units=ctx.cfg.max_concurrent_research_units, data_notice=prompts.DATA_NOTICE))
        prompt = [system, HumanMessage("Decide the next step."), *_last_round(state.get("supervisor_messages") or [])]
        model = (await ctx.model("research")).bind_tools(SUPERVISOR_TOOLS)
        try:
            reply = await ctx.meter.invoke(model, prompt)
        except ModelCallError as e:
            notes = await asave_notes(ctx.cfg, {**state}, ctx.thread_id, ctx.checkpoint)
            raise ResearchFailed("supervisor", str(e), str(notes) if notes else None) from e
        shortened = ctx.shortened("supervisor's context")
        return Command(goto="supervisor_tools", update={
            **ctx.usage_update(), "supervisor_messages": [reply], "research_iterations": rounds + 1,
            **({"degradations": shortened} if shortened else {})})

    async def supervisor_tools(self, state: SupervisorState, config, runtime) -> Command:
        ctx = NodeContext.make("supervisor_tools", self.deps, config, runtime)
        last = state["supervisor_messages"][-1]
        calls = list(getattr(last, "tool_calls", None) or [])
        invalid = list(getattr(last, "invalid_tool_calls", None) or [])
        replies: list[Any] = []
        # Calls whose arguments were not valid JSON: answered, so the model can try again.
        for c in invalid:
            ctx.meter.usage.repairs += 1
            replies.append(ToolMessage(
                f"Not run: the arguments of {c.get('name') or 'this call'} were not valid JSON "
                f"({str(c.get('error') or '')[:200]}). Call the tool again with valid arguments.",
                tool_call_id=c.get("id") or "invalid_call", name=c.get("name") or "invalid"))
        if not calls and not invalid:
            if state.get("nudged"):
                return Command(goto=END, update={"done": True})
            # A reply without any tool call: asked once to use the tools (bounded by rounds).
            ctx.meter.usage.repairs += 1
            log.warning("supervisor replied without calling a tool; asking again")
            return Command(goto="supervisor", update={**ctx.usage_update(), "nudged": True, "supervisor_messages": [
                HumanMessage("Your reply called no tool. Call ConductResearch to research a gap, or "
                             "ResearchComplete if the research is done.")]})
        sends: list[Send] = []
        update: dict[str, Any] = {"nudged": False}
        done = False
        research_calls = [c for c in calls if c["name"] == CONDUCT_RESEARCH]
        cap = ctx.cfg.max_concurrent_research_units
        for c in calls:
            name = c["name"]
            if name == THINK:
                replies.append(ToolMessage("Reflection recorded.", tool_call_id=c["id"], name=name))
            elif name == RESEARCH_COMPLETE:
                done = True
                replies.append(ToolMessage("Research marked complete.", tool_call_id=c["id"], name=name))
            elif name == REFINE_DRAFT:
                text, refine_update = await self._refine(ctx, state)
                update.update(refine_update)
                replies.append(ToolMessage(text, tool_call_id=c["id"], name=name))
            elif name != CONDUCT_RESEARCH:
                ctx.meter.usage.repairs += 1
                replies.append(ToolMessage(
                    f"Unknown tool {name!r}; available: {CONDUCT_RESEARCH}, {REFINE_DRAFT}, {THINK}, "
                    f"{RESEARCH_COMPLETE}.", tool_call_id=c["id"], name=name))
        if not done:
            token_budget, cost_budget = unit_budgets(ctx.cfg, state, min(len(research_calls), cap))
            spent = token_budget == 0 or (cost_budget is not None and cost_budget <= 0)
            for i, c in enumerate(research_calls):
                args = c.get("args") if isinstance(c.get("args"), dict) else {}
                topic = str(args.get("topic") or "").strip()
                if i >= cap:
                    replies.append(ToolMessage(
                        f"Not run: at most {cap} research units run per round. Ask again next round "
                        "if this topic is still needed.", tool_call_id=c["id"], name=CONDUCT_RESEARCH))
                elif not topic:
                    ctx.meter.usage.repairs += 1
                    replies.append(ToolMessage("Not run: ConductResearch needs a topic.",
                                               tool_call_id=c["id"], name=CONDUCT_RESEARCH))
                elif spent:
                    replies.append(ToolMessage("Not run: the research budget is used up.",
                                               tool_call_id=c["id"], name=CONDUCT_RESEARCH))
                else:
                    sends.append(Send("researcher", {"topic": topic, "call_id": c["id"],
                                                     "research_brief": state.get("research_brief", ""),
                                                     "token_budget": token_budget, "cost_budget": cost_budget}))
        else:
            for c in research_calls:
                replies.append(ToolMessage("Not run: research was marked complete.", tool_call_id=c["id"],
                                           name=CONDUCT_RESEARCH))
        if ctx.meter.usage.repairs:
            log.warning("supervisor: %d malformed tool call(s) answered with an explanation",
                        ctx.meter.usage.repairs)
        update.update({"supervisor_messages": replies, **ctx.usage_update()})
        shortened = ctx.shortened("findings given to refine the draft")
        if shortened:
            update["degradations"] = [*update.get("degradations", []), *shortened]
        if sends:
            ctx.progress(event="researchers_started", count=len(sends))
            update["pending_calls"] = [{"call_id": s.arg["call_id"], "topic": s.arg["topic"]} for s in sends]
            return Command(goto=sends, update=update)
        return Command(goto=END if done else "supervisor", update={**update, "done": done})

    async def _refine(self, ctx: NodeContext, state: SupervisorState) -> tuple[str, dict]:
        notes = state.get("notes") or []
        upto = state.get("refined_upto", 0)
        new = notes[upto:]
        if not new:
            return "No new findings since the last revision; the draft is unchanged.", {}
        findings = "\n\n".join(f"### {n['topic']}\n{n['findings']}" for n in new)
        prompt = prompts.REFINE_DRAFT.format(brief=state.get("research_brief", ""),
                                             draft=state.get("draft_report", ""), findings=findings,
                                             data_notice=prompts.DATA_NOTICE)
        try:
            reply = await ctx.meter.invoke(await ctx.model("final_report"), [HumanMessage(prompt)])
        except ModelCallError as e:
            return (f"The draft could not be refined ({e}); it is unchanged.",
                    {"degradations": [error_record("refine_draft_report", str(e))]})
        draft = message_text(reply).strip()
        update: dict[str, Any] = {"refined_upto": len(notes)}
        if "<ref" in draft.lower():  # the draft's citations and claims are checked by code, as findings are
            sources, _ = await ctx.pages.load_sources(state.get("sources") or {})
            cleaned = await asyncio.to_thread(clean_refs, draft, sources)
            draft = cleaned.markdown
            if cleaned.dropped or cleaned.dropped_claims:
                update["degradations"] = [error_record(
                    "refine_draft_report", f"{len(cleaned.dropped)} citation(s) not found in their source and "
                    f"{len(cleaned.dropped_claims)} claim(s) that differ from their quote were removed from the "
                    "refined draft")]
        update["draft_report"] = draft
        return f"Draft refined with {len(new)} new finding(s).", update

    async def collect(self, state: SupervisorState, config, runtime) -> Command:
        """Turn this round's researcher results into tool messages and notes."""
        ctx = NodeContext.make("collect", self.deps, config, runtime)
        by_id = {r.get("call_id"): r for r in state.get("round_results") or []}
        replies, notes, log_entries, raw, errors = [], [], [], [], []
        for call in state.get("pending_calls") or []:
            r = by_id.get(call["call_id"]) or {"error": "the researcher returned no result"}
            ok = not r.get("error") and bool((r.get("findings") or "").strip())
            if ok:
                notes.append({"topic": call["topic"], "findings": r["findings"], "call_id": call["call_id"]})
                text = r["findings"]
            else:
                err = r.get("error") or "no findings"
                errors.append(error_record("researcher", f"research unit failed: {err}", topic=call["topic"]))
                text = f"Research on this topic failed: {err}"
            if r.get("raw"):
                raw.append(f"## {call['topic']}\n\n{r['raw']}")
            replies.append(ToolMessage(text, tool_call_id=call["call_id"], name=CONDUCT_RESEARCH))
            log_entries.append({"topic": call["topic"], "ok": ok, "citations": r.get("citations", 0),
                                "error": r.get("error")})
        ctx.progress(event="researchers_finished", count=len(replies))
        return Command(goto="supervisor", update={
            "supervisor_messages": replies, "notes": notes, "raw_notes": raw, "errors": errors,
            "research_log": log_entries, "round_results": None, "pending_calls": []})


def build_supervisor(deps: Deps):
    nodes = SupervisorNodes(deps)
    g = StateGraph(SupervisorState, input_schema=SupervisorInput, output_schema=SupervisorOutput)
    g.add_node("supervisor", guarded("supervisor", nodes.supervisor), destinations=("supervisor_tools", END))
    g.add_node("supervisor_tools", guarded("supervisor_tools", nodes.supervisor_tools),
               destinations=("researcher", "supervisor", END))
    g.add_node("researcher", build_researcher(deps))
    g.add_node("collect", guarded("collect", nodes.collect), destinations=("supervisor",))
    g.add_edge(START, "supervisor")
    g.add_edge("researcher", "collect")
    return g.compile()

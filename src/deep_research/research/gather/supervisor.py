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

from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.types import Command, Send

from ...citations.edit import clean_refs
from .. import prompts
from ..runtime.chat import chat_with
from ..runtime.deps import Deps, NodeContext
from ..runtime.failure import ResearchFailed
from ..runtime.run_folder import asave_notes
from ..runtime.failure import guarded
from ..runtime import pricing as _pricing
from ..runtime.meter import REPLY_SHARE, BudgetExceeded, ModelCallError, describe
from ..runtime.usage import approx_tokens, estimate_text_tokens, merge_usage, message_text, total_cost, total_tokens
from ..scope.plan import (
    COVERAGE_MAX_SENTENCES,
    COVERED_MIN_SENTENCES,
    CoverageJudgement,
    apply_matches,
    coverage_record,
    criteria_met,
    coverage_table,
    judgement_items,
    query_analysis,
    search_hints,
    verified_sentences,
)
from .researcher import build_researcher
from ..state import SupervisorInput, SupervisorOutput, SupervisorState, error_record
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
        status = "done" if e.get("ok") else f"failed: {(e.get('error') or 'no findings')[:120]}"
        lines.append(f"- {e.get('topic', '')[:160]} [{status}; {e.get('citations', 0)} citations]")
    return "\n".join(lines)


EVIDENCE_FIELDS = ("pages_read", "verified_sentences", "unverified_sentences")


def unit_outcome(result: dict) -> tuple[bool, str | None]:
    """(whether a research unit succeeded, why not): success is findings with at least one
    citation that passed the checks; findings without one are never kept as a note."""
    if result.get("error"):
        return False, result["error"]
    findings = (result.get("findings") or "").strip()
    if not findings:
        return False, "no findings"
    if not result.get("citations") or "<ref" not in findings:
        return False, "its findings cite no verified source"
    return True, None


def unit_error(result: dict, err: str | None, topic: str) -> dict:
    """The run's error record of a failed research unit; kind "no_evidence" when its searches
    worked and nothing it read holds a sentence on the topic (the report may then say so)."""
    extra = {"kind": "no_evidence"} if result.get("no_evidence") else {}
    return error_record("researcher", f"research unit failed: {err}", topic=topic, **extra)


def log_entry(topic: str, result: dict, ok: bool, err: str | None = None) -> dict:
    """A research unit's line in the research log (``err``: why it failed, from
    unit_outcome), with what it read (EVIDENCE_FIELDS)."""
    return {"topic": topic, "ok": ok, "citations": result.get("citations", 0), "error": err,
            **{k: int(result.get(k) or 0) for k in EVIDENCE_FIELDS},
            **({"no_evidence": True} if not ok and result.get("no_evidence") else {})}


def tokens_used(state: dict) -> int:
    return total_tokens(state.get("usage")) + int(state.get("tokens_before") or 0)


def cost_used(state: dict) -> float:
    return total_cost(state.get("usage")) + float(state.get("cost_before") or 0.0)


def spent_so_far(state: dict) -> tuple[int, float]:
    """What the run used so far, seen from the supervisor's subgraph (its own usage plus what
    the run used before research)."""
    return tokens_used(state), cost_used(state)


WRITER_PROMPT_TOKENS = 1500  # the writer's instructions, brief and plan, about
UNIT_PROMPT_TOKENS = 1000  # a researcher's first prompt, about


def _usd(cfg, role: str, prompt: int, reply: int, state: dict | None = None) -> float:
    """Estimated USD of a call: at the role's price, or at the run's average price per token
    so far when that is higher (a model may report a dearer name than configured)."""
    price = cfg.price(role) or cfg.fallback_price()
    by_price = _pricing.cost_usd(price, prompt, reply) if price else 0.0
    tokens = tokens_used(state) if state else 0
    by_run = cost_used(state) / tokens * (prompt + reply) if tokens else 0.0
    return max(by_price, by_run)


def writing_reserve(cfg, state: dict) -> tuple[int, float]:
    """Tokens (and USD) research leaves for writing the report under a cap, estimated as the
    meter estimates a call: the writer reads the findings so far and the draft and replies
    with about a quarter of its output limit; the citation check gets twice a quarter of
    its own. Research that would eat into it stops, so the cap holds and a report is written."""
    findings = sum(estimate_text_tokens(str(n.get("findings") or "")) for n in state.get("notes") or [])
    prompt = findings + estimate_text_tokens(state.get("draft_report") or "") + WRITER_PROMPT_TOKENS
    write, check = cfg.final_report_model_max_tokens // REPLY_SHARE, cfg.citation_check_model_max_tokens // REPLY_SHARE
    return (prompt + write + 2 * check,
            _usd(cfg, "final_report", prompt, write, state) + _usd(cfg, "citation_check", 0, 2 * check, state))


def unit_floor(cfg, state: dict | None = None) -> tuple[int, float]:
    """The least a research unit can do anything with: one researcher step as the meter
    estimates it (its prompt and a quarter of the research model's output limit). A smaller
    share is not sent out, and a round needs two (the supervisor's call and one unit)."""
    reply = cfg.research_model_max_tokens // REPLY_SHARE
    return UNIT_PROMPT_TOKENS + reply, _usd(cfg, "research", UNIT_PROMPT_TOKENS, reply, state)


def budget_exhausted(cfg, state: dict) -> str | None:
    (keep, keep_usd), (floor, floor_usd) = writing_reserve(cfg, state), unit_floor(cfg, state)
    used = tokens_used(state)
    if cfg.max_total_tokens and used + keep + 2 * floor >= cfg.max_total_tokens:
        return (f"token budget reached ({used:,} of {cfg.max_total_tokens:,} tokens used; a research round needs "
                f"about {2 * floor:,} and writing and checking the report about {keep:,})")
    cost = cost_used(state)
    if cfg.max_cost_usd and cost + keep_usd + 2 * floor_usd >= cfg.max_cost_usd:
        return (f"cost budget reached (${cost:.4f} of ${cfg.max_cost_usd:.4f} used; a research round needs about "
                f"${2 * floor_usd:.4f} and writing and checking the report about ${keep_usd:.4f})")
    return None


def unit_budgets(cfg, state: dict, units: int) -> tuple[int | None, float | None]:
    """Each research unit's share of what is left of the token and cost caps (None: no cap),
    less what writing the report will need."""
    units = max(units, 1)
    keep, keep_usd = writing_reserve(cfg, state)
    tokens = (max(cfg.max_total_tokens - tokens_used(state) - keep, 0) // units if cfg.max_total_tokens else None)
    cost = max(cfg.max_cost_usd - cost_used(state) - keep_usd, 0.0) / units if cfg.max_cost_usd else None
    return tokens, cost


def share_too_small(cfg, state: dict, token_budget: int | None, cost_budget: float | None) -> bool:
    floor, floor_usd = unit_floor(cfg, state)
    return (token_budget is not None and token_budget < floor) or (cost_budget is not None and cost_budget < floor_usd)


def coverage_now(state: dict, stopped_because: str | None = None) -> dict:
    """The run's coverage record when research stops (an empty one before any research
    round), with why it stopped and how many supervisor rounds ran (``rounds``: the
    research_iterations the progress counted, including rounds that sent no researcher;
    while research runs, ``rounds`` is the round of the last coverage judgement)."""
    cov = dict(state.get("coverage") or {}) or coverage_record(
        state.get("research_plan"), state.get("coverage_hits"), rounds=0, new_sentences=0, total_sentences=0,
        unjudged=0)
    cov["stopped_because"] = stopped_because
    cov["rounds"] = state.get("research_iterations", 0)
    return cov


def coverage_stop(cfg, state: dict) -> str | None:
    """Whether research stops before this round: "coverage" when the plan's sub-questions are
    covered enough (min_coverage; 0 switches it off) and every success criterion that names
    sub-questions is met (plan.py), "plateau" when the last research round
    added fewer new verified sentences than plateau_min_new_sentences (0: off), counted from
    the second round that found anything, so a first round that found nothing is retried."""
    cov = state.get("coverage") or {}
    if not cov:
        return None
    if cfg.min_coverage > 0 and cov.get("items") and cov.get("score", 0.0) >= cfg.min_coverage \
            and criteria_met(cov):
        return "coverage"
    new, total = cov.get("new_sentences", 0), cov.get("total_sentences", 0)
    last_round_researched = cov.get("rounds") == state.get("research_iterations", 0)
    if cfg.plateau_min_new_sentences and last_round_researched and total - new > 0 \
            and new < cfg.plateau_min_new_sentences:
        return "plateau"
    return None


def summary_cut(history: list, keep: int) -> int:
    """Where the kept tail of a supervisor history starts: at most ``keep`` messages, never
    splitting a tool call from its results, and never less than the last round."""
    last_ai = max((i for i, m in enumerate(history) if isinstance(m, AIMessage)), default=len(history))
    start = next((i for i, m in enumerate(history) if i >= len(history) - keep and not isinstance(m, ToolMessage)),
                 last_ai)
    return min(start, last_ai)


class SupervisorNodes:
    def __init__(self, deps: Deps):
        self.deps = deps

    async def supervisor(self, state: SupervisorState, config, runtime) -> Command:
        ctx = NodeContext.make("supervisor", self.deps, config, runtime, spent=spent_so_far(state))
        rounds = state.get("research_iterations", 0)
        reason = budget_exhausted(ctx.cfg, state)
        if reason:
            return Command(goto=END, update={"budget_exhausted": True, "coverage": coverage_now(state, "limits"),
                                             "degradations": [
                error_record("supervisor", f"research stopped early: {reason}")]})
        if rounds >= ctx.cfg.max_researcher_iterations:
            return Command(goto=END, update={"coverage": coverage_now(state, "limits"), "degradations": [error_record(
                "supervisor", f"research stopped after the maximum of {rounds} rounds")]})
        stop = coverage_stop(ctx.cfg, state)
        if stop:
            cov = coverage_now(state, stop)
            ctx.progress(stage="research stopped", reason=stop, coverage=cov["score"],
                         new_sentences=cov.get("new_sentences", 0))
            log.info("research stopped after %d round(s): %s (coverage %.0f%%)", rounds, stop, 100 * cov["score"])
            return Command(goto=END, update={"coverage": cov})
        ctx.progress(stage="research", round=rounds + 1)
        update: dict[str, Any] = {}
        history = list(state.get("supervisor_messages") or [])
        summary = state.get("supervisor_summary") or ""
        if ctx.cfg.supervisor_summarize and approx_tokens(history) > ctx.cfg.summarize_after_tokens:
            history, summary, folded = await self._fold_history(ctx, history, summary)
            update.update(folded)
        text = prompts.SUPERVISOR.format(
            date=ctx.today, brief=state.get("research_brief", ""),
            draft=state.get("draft_report") or "(no draft yet)", research_log=_research_log(state),
            round=rounds + 1, max_rounds=ctx.cfg.max_researcher_iterations,
            max_units=ctx.cfg.max_concurrent_research_units, data_notice=prompts.DATA_NOTICE)
        table = coverage_table(state.get("coverage"), state.get("research_plan"))
        if table:  # the plan's sub-questions and how far the verified findings cover them
            text += prompts.SUPERVISOR_COVERAGE.format(min_sentences=COVERED_MIN_SENTENCES, table=table)
        ask = "Decide the next step."
        if summary:
            ask = prompts.SUPERVISOR_SUMMARY.format(summary=summary) + "\n\n" + ask
        prompt = [SystemMessage(text), HumanMessage(ask), *_last_round(history)]
        model = (await ctx.model("research")).bind_tools(SUPERVISOR_TOOLS)
        try:
            reply = await ctx.meter.invoke(model, prompt)
        except BudgetExceeded as e:  # the cap holds: research stops, the report is written from what was found
            return Command(goto=END, update={**update, **ctx.usage_update(), "budget_exhausted": True,
                                             "coverage": coverage_now(state, "limits"), "degradations": [
                *update.get("degradations", []),
                error_record("supervisor", f"research stopped early: {e.kind} budget reached ({e})")]})
        except ModelCallError as e:
            notes = await asave_notes(ctx.cfg, {**state}, ctx.thread_id, ctx.checkpoint)
            raise ResearchFailed("supervisor", str(e), str(notes) if notes else None) from e
        shortened = ctx.shortened("supervisor's context")
        degradations = [*update.pop("degradations", []), *shortened]
        messages = [*update.pop("supervisor_messages", []), reply]
        return Command(goto="supervisor_tools", update={
            **update, **ctx.usage_update(), "supervisor_messages": messages, "research_iterations": rounds + 1,
            **({"degradations": degradations} if degradations else {})})

    async def _fold_history(self, ctx: NodeContext, history: list, summary: str) -> tuple[list, str, dict]:
        """Fold the supervisor's older messages into a running summary (summarization model),
        keeping the latest supervisor_messages_to_keep word for word (a tool call stays with
        its results). A failed summary keeps the earlier one and notes what was dropped."""
        cut = summary_cut(history, ctx.cfg.supervisor_messages_to_keep)
        older, kept = history[:cut], history[cut:]
        if not older:
            return history, summary, {}
        text = "\n\n".join(f"{type(m).__name__}: {message_text(m)[:4000]}" for m in older)
        previous = (f"\nThe summary of the rounds before these:\n<findings>\n{prompts.as_data(summary)}\n</findings>\n"
                    if summary else "")
        prompt = prompts.SUMMARIZE_SUPERVISOR.format(data_notice=prompts.DATA_NOTICE, previous=previous,
                                                     messages=text)
        update: dict[str, Any] = {}
        try:
            new = await ctx.meter.text(await ctx.model("summarization"), [HumanMessage(prompt)], what="summary")
        except ModelCallError as e:
            new = (summary + "\n" if summary else "") + f"({len(older)} earlier message(s) were dropped unsummarised.)"
            update["degradations"] = [error_record("supervisor", f"the supervisor's earlier rounds could not be "
                                                   f"summarised ({describe(e)[:160]}); they were dropped",
                                                   kind="shortened")]
        ctx.progress(event="supervisor_summarized", folded=len(older), kept=len(kept))
        update.update({"supervisor_messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *kept],
                       "supervisor_summary": new})
        return kept, new, update

    async def supervisor_tools(self, state: SupervisorState, config, runtime) -> Command:
        ctx = NodeContext.make("supervisor_tools", self.deps, config, runtime, spent=spent_so_far(state))
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
                return Command(goto=END, update={"done": True, "coverage": coverage_now(state)})
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
            # what this node used (a refine) counts before the units share the rest
            now = {**state, "usage": merge_usage(state.get("usage"), ctx.usage_update().get("usage"))}
            token_budget, cost_budget = unit_budgets(ctx.cfg, now, min(len(research_calls), cap))
            spent = share_too_small(ctx.cfg, now, token_budget, cost_budget)
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
                                                     "query_context": query_analysis(state.get("research_plan")),
                "search_hints": search_hints(state.get("research_plan")),
                                                     "token_budget": token_budget, "cost_budget": cost_budget,
                                                     "question_settings": state.get("question_settings") or {}}))
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
            shown = ctx.progress(event="researchers_started", count=len(sends),
                                 round=state.get("research_iterations", 0), sources=len(state.get("sources") or {}))
            chat = chat_with(state.get("messages") or [], shown)
            for s in sends:  # each researcher's subgraph shows the chat (chat.py)
                s.arg["messages"] = chat
            update["pending_calls"] = [{"call_id": s.arg["call_id"], "topic": s.arg["topic"]} for s in sends]
            return Command(goto=sends, update=update)
        if done:  # the supervisor decided: the coverage record says so (stopped_because None)
            update["coverage"] = coverage_now(state)
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
        ctx = NodeContext.make("collect", self.deps, config, runtime, spent=spent_so_far(state))
        by_id = {r.get("call_id"): r for r in state.get("round_results") or []}
        replies, notes, log_entries, raw, errors = [], [], [], [], []
        for call in state.get("pending_calls") or []:
            r = by_id.get(call["call_id"]) or {"error": "the researcher returned no result"}
            ok, err = unit_outcome(r)
            if ok:
                notes.append({"topic": call["topic"], "findings": r["findings"], "call_id": call["call_id"]})
                text = r["findings"]
            else:
                errors.append(unit_error(r, err, call["topic"]))
                text = f"Research on this topic failed: {err}"
            if r.get("raw"):
                raw.append(f"## {call['topic']}\n\n{r['raw']}")
            replies.append(ToolMessage(text, tool_call_id=call["call_id"], name=CONDUCT_RESEARCH))
            log_entries.append(log_entry(call["topic"], r, ok, err))
        ctx.progress(event="researchers_finished", count=len(replies))
        coverage = await self._coverage(NodeContext.make("coverage", self.deps, config, runtime, spent=spent_so_far(state)),
                                       state, notes)
        return Command(goto="supervisor", update={
            **coverage, "supervisor_messages": replies, "notes": notes, "raw_notes": raw, "errors": errors,
            "research_log": log_entries, "round_results": None, "pending_calls": []})

    async def _coverage(self, ctx: NodeContext, state: SupervisorState, notes: list[dict]) -> dict:
        """Coverage after a research round: the round's new verified sentences mapped to the
        plan's sub-questions by one bounded call of the research model; "covered" is decided
        by code (plan.py). A failed or malformed answer leaves the sentences unjudged
        (recorded in degradations); research goes on."""
        plan = state.get("research_plan") or {}
        before = verified_sentences(state.get("notes") or [])
        seen = set(before)
        new = [s for s in verified_sentences(notes) if s not in seen]
        hits = dict(state.get("coverage_hits") or {})
        unjudged = int((state.get("coverage") or {}).get("unjudged", 0))
        degradations = []
        if plan.get("sub_questions") and new:
            batch, over = new[:COVERAGE_MAX_SENTENCES], new[COVERAGE_MAX_SENTENCES:]
            subs, numbered = judgement_items(plan, batch)
            prompt = prompts.COVERAGE.format(sub_questions=subs, sentences=numbered, data_notice=prompts.DATA_NOTICE)
            try:
                judgement = await ctx.meter.structured(await ctx.model("research"), CoverageJudgement,
                                                       [HumanMessage(prompt)], ctx.cfg.structured_output)
                hits, ignored = apply_matches(plan, batch, judgement, hits)
                if ignored:
                    degradations.append(error_record(
                        "coverage", f"{ignored} coverage answer(s) named an unknown sentence or sub-question and "
                        "were ignored"))
            except ModelCallError as e:
                unjudged += len(batch)
                degradations.append(error_record(
                    "coverage", f"coverage unknown for {len(batch)} verified sentence(s): the coverage judgement "
                    f"failed ({describe(e)[:200]})", kind="coverage_unknown"))
            if over:
                unjudged += len(over)
                degradations.append(error_record(
                    "coverage", f"{len(over)} verified sentence(s) over the cap of {COVERAGE_MAX_SENTENCES} a round "
                    "were not judged for coverage", kind="coverage_unknown"))
        coverage = coverage_record(plan, hits, rounds=state.get("research_iterations", 0), new_sentences=len(new),
                                   total_sentences=len(before) + len(new), unjudged=unjudged)
        ctx.progress(event="coverage", score=coverage["score"], new_sentences=len(new),
                     covered=sum(i["covered"] for i in coverage["items"]), sub_questions=len(coverage["items"]))
        update = {"coverage": coverage, "coverage_hits": hits, **ctx.usage_update()}
        if degradations:
            update["degradations"] = degradations
        return update


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

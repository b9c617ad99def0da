"""Researcher subgraph: a ReAct loop over search and think_tool, capped in tool calls,
then compress_research, which keeps exact source sentences with their source ids."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.types import Command
from pydantic import BaseModel, Field

from ..citations.edit import clean_refs, ref_tag
from ..citations.model import Source, Verdict
from ..citations.verify import SourceIndex
from ..search.base import SearchResult
from . import prompts
from .common import Deps, NodeContext
from .models import ModelCallError, approx_tokens, describe, message_text
from .sources import SourceMeta
from .state import ResearcherInput, ResearcherOutput, ResearcherState, error_record
from .tools import RESEARCHER_TOOLS, SEARCH, THINK

log = logging.getLogger(__name__)
SUMMARY_CONCURRENCY = 4


class Excerpt(BaseModel):
    claim: str = Field(description="A claim the page makes.")
    sentence: str = Field(description="One sentence copied exactly from the page that states the claim.")


class PageSummary(BaseModel):
    summary: str = Field(description="A short summary of the page.")
    excerpts: list[Excerpt] = Field(default_factory=list, description="Key claims with exact sentences.")


def _raw_excerpt(source: Source, query: str, limit: int = 6) -> tuple[str, list[str]]:
    """Fallback when no summary can be made: the page's opening and the lines that share
    the most words with the query, quoted exactly."""
    text = source.page.text
    words = {w.lower() for w in query.split() if len(w) > 3}
    lines = [ln.strip() for ln in text.split("\n") if 40 <= len(ln.strip()) <= 400]
    ranked = sorted(lines, key=lambda ln: -sum(w in ln.lower() for w in words))
    return text[:600].replace("\n", " "), ranked[:limit]


def _source_block(meta: SourceMeta, summary: str, sentences: list[tuple[str, str]], note: str = "") -> str:
    lines = [f'<source id="{meta.id}" title="{meta.title}" url="{meta.url}">']
    if note:
        lines.append(f"({note})")
    lines.append(f"Summary: {summary.strip()}")
    if sentences:
        lines.append("Exact sentences (cite only these, verbatim, as <ref id=\"%s\">\"...\"</ref>):" % meta.id)
        lines.extend(f'- {claim.strip()}: "{s}"' if claim else f'- "{s}"' for claim, s in sentences)
    else:
        lines.append("No citable sentences were found on this page.")
    lines.append("</source>")
    return "\n".join(lines)


class ResearcherNodes:
    def __init__(self, deps: Deps):
        self.deps = deps

    # -- the ReAct step ----------------------------------------------------------------
    async def researcher(self, state: ResearcherState, config, runtime) -> Command:
        ctx = NodeContext.make("researcher", self.deps, config, runtime)
        ctx.progress(event="researcher_step", topic=state.get("topic", "")[:80])
        history = list(state.get("researcher_messages") or [])
        update: dict[str, Any] = {}
        if not history:
            history = [HumanMessage(f"Research this topic: {state.get('topic', '')}")]
            update["researcher_messages"] = history
        elif approx_tokens(history) > ctx.cfg.summarize_after_tokens:
            history, summary_update = await self._summarise_history(ctx, history)
            update.update(summary_update)
        budget = state.get("token_budget")
        if budget and state.get("spent_tokens", 0) >= budget:
            return Command(goto="compress_research", update={**update, "degradations": [error_record(
                "researcher", "research unit stopped at its share of the token budget",
                topic=state.get("topic", ""))]})
        system = SystemMessage(prompts.RESEARCHER.format(
            date=ctx.today, topic=state.get("topic", ""), max_calls=ctx.cfg.max_react_tool_calls,
            data_notice=prompts.DATA_NOTICE))
        model = (await ctx.model("research")).bind_tools(RESEARCHER_TOOLS)
        try:
            reply = await ctx.meter.invoke(model, [system, *history])
        except ModelCallError as e:
            return Command(goto="compress_research", update={
                **update, **ctx.usage_update(),
                "errors": [error_record("researcher", str(e), topic=state.get("topic", ""))]})
        msgs = list(update.get("researcher_messages") or [])
        msgs.append(reply)
        update["researcher_messages"] = msgs
        update["spent_tokens"] = state.get("spent_tokens", 0) + ctx.meter.usage.input_tokens + \
            ctx.meter.usage.output_tokens
        goto = "researcher_tools" if reply.tool_calls else "compress_research"
        return Command(goto=goto, update={**update, **ctx.usage_update()})

    async def _summarise_history(self, ctx: NodeContext, history: list) -> tuple[list, dict]:
        """Fold older messages into one summary and write it back to state."""
        # keep the last AI message with its tool results intact (they must stay paired)
        cut = len(history)
        for i in range(len(history) - 1, -1, -1):
            if isinstance(history[i], AIMessage):
                cut = i
                break
        older, kept = history[:cut], history[cut:]
        if not older:
            return history, {}
        text = "\n\n".join(f"{type(m).__name__}: {message_text(m)[:4000]}" for m in older)
        prompt = ("Summarise this research conversation so far for the researcher: what was searched, "
                  "what was found (keep source ids and exact sentences), what is still missing.\n\n" + text)
        try:
            reply = await ctx.meter.invoke(await ctx.model("summarization"), [HumanMessage(prompt)])
            summary = message_text(reply).strip()
        except ModelCallError as e:
            summary = "Earlier messages were dropped to fit the context window. " + describe(e)[:200]
        first = HumanMessage(f"Research this topic: (continued)\n\nSummary of the research so far:\n{summary}")
        new_history = [first, *kept]
        return new_history, {
            "researcher_messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *new_history],
            "context_summary": summary,
        }

    # -- tools -------------------------------------------------------------------------
    async def researcher_tools(self, state: ResearcherState, config, runtime) -> Command:
        ctx = NodeContext.make("researcher_tools", self.deps, config, runtime)
        last = state["researcher_messages"][-1]
        made = state.get("tool_calls_made", 0)
        budget = ctx.cfg.max_react_tool_calls - made
        calls = list(last.tool_calls)
        results: list[ToolMessage] = []
        update: dict[str, Any] = {"found_sources": {}, "excerpts": [], "degradations": [], "errors": []}
        run_now, refused = calls[: max(budget, 0)], calls[max(budget, 0):]
        outcomes = await asyncio.gather(*(self._run_tool(ctx, state, c) for c in run_now))
        for call, (text, extra) in zip(run_now, outcomes):
            results.append(ToolMessage(text, tool_call_id=call["id"], name=call["name"]))
            for key, value in extra.items():
                if isinstance(update.get(key), dict):
                    update[key].update(value)
                else:
                    update[key].extend(value)
        for call in refused:
            results.append(ToolMessage(
                f"Not run: the limit of {ctx.cfg.max_react_tool_calls} tool calls is reached.",
                tool_call_id=call["id"], name=call["name"]))
        made += len(run_now)
        goto = "compress_research" if made >= ctx.cfg.max_react_tool_calls or refused else "researcher"
        spent = state.get("spent_tokens", 0) + ctx.meter.usage.input_tokens + ctx.meter.usage.output_tokens
        return Command(goto=goto, update={
            **{k: v for k, v in update.items() if v}, **ctx.usage_update(),
            "researcher_messages": results, "tool_calls_made": made, "spent_tokens": spent,
            "sources": update["found_sources"]})

    async def _run_tool(self, ctx: NodeContext, state: ResearcherState, call: dict) -> tuple[str, dict]:
        name, args = call.get("name"), call.get("args") or {}
        if name == THINK:
            return f"Reflection recorded: {str(args.get('reflection', ''))[:2000]}", {}
        if name == SEARCH:
            query = str(args.get("query", "")).strip()
            if not query:
                return "The search tool needs a non-empty query.", {}
            return await self._search(ctx, query)
        return f"Unknown tool {name!r}; available: {SEARCH}, {THINK}.", {}

    async def _search(self, ctx: NodeContext, query: str) -> tuple[str, dict]:
        ctx.progress(event="search", query=query[:80])
        try:
            results = await (await ctx.search()).search(query, max_results=ctx.cfg.max_search_results)
        except Exception as e:  # noqa: BLE001 - the researcher is told and the failure recorded
            msg = f"search failed: {describe(e)}"
            return f"Search failed ({describe(e)[:200]}). Try a different query or stop.", {
                "degradations": [error_record("researcher", msg, query=query)]}
        extra: dict[str, Any] = {"found_sources": {}, "excerpts": [], "degradations": []}
        usable = []
        for r in results:
            if not (r.content or "").strip():
                extra["degradations"].append(error_record("researcher", "page with empty content skipped",
                                                          url=r.url))
                continue
            usable.append(r)
        if not usable:
            return f"No usable results for {query!r}.", extra
        sem = asyncio.Semaphore(SUMMARY_CONCURRENCY)

        async def one(r: SearchResult) -> str:
            async with sem:
                meta = await ctx.pages.record(r, query)
                extra["found_sources"][meta.id] = meta.as_dict()
                block, note = await self._summarise_page(ctx, meta, r, query)
                if note:
                    extra["degradations"].append(error_record("summarize_page", note, url=r.url))
                extra["excerpts"].append(block)
                return block

        blocks = await asyncio.gather(*(one(r) for r in usable))
        ctx.progress(event="sources", count=len(extra["found_sources"]))
        return "\n\n".join(blocks), extra

    async def _summarise_page(self, ctx: NodeContext, meta: SourceMeta, r: SearchResult,
                              query: str) -> tuple[str, str | None]:
        source = Source(meta.id, r.url, r.content, r.title, r.format)
        page_text = source.page.text
        shown = page_text[: ctx.cfg.max_page_chars]
        prompt = prompts.SUMMARIZE_PAGE.format(query=query, title=meta.title, url=meta.url, content=shown,
                                               data_notice=prompts.DATA_NOTICE)
        try:
            summary = await ctx.meter.structured(await ctx.model("summarization"), PageSummary,
                                                 [HumanMessage(prompt)], ctx.cfg.structured_output)
        except ModelCallError as e:
            opening, lines = _raw_excerpt(source, query)
            note = f"no summary ({describe(e)[:160]}); raw excerpt used"
            return _source_block(meta, opening, [("", ln) for ln in lines], note="raw excerpt"), note
        index = SourceIndex([source])
        kept: list[tuple[str, str]] = []
        dropped = 0
        for ex in summary.excerpts:
            check = index.verify(ex.sentence, meta.id)
            if check.status is Verdict.UNSUPPORTED or check.source_id != meta.id:
                dropped += 1
                continue
            exact = " ".join(page_text[check.start : check.end].split())
            if all(exact != s for _, s in kept):
                kept.append((ex.claim, exact))
        note = f"{dropped} sentence(s) not found on the page were dropped" if dropped else ""
        return _source_block(meta, summary.summary, kept, note=note), None

    # -- compression -------------------------------------------------------------------
    async def compress_research(self, state: ResearcherState, config, runtime) -> dict:
        ctx = NodeContext.make("compress_research", self.deps, config, runtime)
        topic = state.get("topic", "")
        excerpts = state.get("excerpts") or []
        reasoning = [message_text(m) for m in state.get("researcher_messages") or []
                     if isinstance(m, AIMessage) and message_text(m).strip()]
        raw = "\n\n".join([*excerpts, *reasoning])
        result: dict[str, Any] = {"call_id": state.get("call_id", ""), "topic": topic, "raw": raw,
                                  "findings": "", "error": None}
        update: dict[str, Any] = {}
        errors = [e for e in state.get("errors") or [] if e.get("stage") == "researcher"]
        if not excerpts:
            result["error"] = errors[-1]["message"] if errors else "no sources were found"
            return {"round_results": [result], **ctx.usage_update()}
        metas = state.get("found_sources") or state.get("sources") or {}
        sources, missing = await ctx.pages.load_sources(metas)
        prompt = prompts.COMPRESS.format(topic=topic, material=raw, data_notice=prompts.DATA_NOTICE)
        try:
            reply = await ctx.meter.invoke(await ctx.model("compression"), [HumanMessage(prompt)])
            findings = message_text(reply).strip()
        except ModelCallError as e:
            findings = _findings_from_excerpts(excerpts)
            update["degradations"] = [error_record("compress_research",
                                                   f"compression failed ({describe(e)[:160]}); "
                                                   "verified excerpts used as findings", topic=topic)]
        cleaned = clean_refs(findings, sources)
        if cleaned.dropped:
            update.setdefault("degradations", []).append(error_record(
                "compress_research", f"{len(cleaned.dropped)} citation(s) not found in their source were "
                "removed from the findings", topic=topic))
        result["findings"] = cleaned.markdown
        result["citations"] = cleaned.verified + cleaned.repaired
        return {**update, **ctx.usage_update(), "round_results": [result]}


def _findings_from_excerpts(excerpts: list[str]) -> str:
    """Mechanical findings from verified excerpt blocks: each exact sentence, cited."""
    import re

    lines = []
    for block in excerpts:
        m = re.search(r'<source id="([^"]+)"', block)
        if not m:
            continue
        for sm in re.finditer(r'^- (?:(.*?): )?"(.*)"$', block, re.M):
            claim, sentence = (sm.group(1) or "").strip(), sm.group(2)
            lines.append(f"- {claim or 'The source states'}: {ref_tag(m.group(1), sentence)}")
    return "\n".join(lines)


def build_researcher(deps: Deps):
    nodes = ResearcherNodes(deps)
    g = StateGraph(ResearcherState, input_schema=ResearcherInput, output_schema=ResearcherOutput)
    g.add_node("researcher", nodes.researcher, destinations=("researcher_tools", "compress_research"))
    g.add_node("researcher_tools", nodes.researcher_tools, destinations=("researcher", "compress_research"))
    g.add_node("compress_research", nodes.compress_research)
    g.add_edge(START, "researcher")
    g.add_edge("compress_research", END)
    return g.compile()

"""Researcher subgraph: a ReAct loop over search and think_tool, capped in tool calls,
then compress_research, which keeps exact source sentences with their source ids."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

from langchain_core.messages import (
    AIMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
)
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.types import Command
from pydantic import BaseModel, Field

from ...citations.claims import ClaimStatus, check_claim
from ...citations.edit import RefCleanup, clean_refs, ref_tag
from ...citations.model import Source, Verdict
from ...citations.verify import SourceIndex
from ...errors import UserError
from ...search.base import SearchResult
from ...search.relevance import relevant_passages
from ...search.credibility import Credibility, CredibilityPolicy, rank, score_source
from ..runtime import mcp
from ..scope.plan import disambiguated_query
from .. import prompts
from ..runtime.deps import Deps, NodeContext
from ..runtime.failure import guarded
from ..runtime.meter import BudgetExceeded, ModelCallError, describe
from ..runtime.usage import approx_tokens, message_text
from .reuse import INFLIGHT, QueryRegistry, repeat_notice, search_key, summary_key
from ..runtime.sources import SourceMeta, masked_notice, result_source_id, without_credentials
from ..state import ONCE_PER_RUN, URL_CREDENTIALS, ResearcherInput, ResearcherOutput, ResearcherState, error_record
from .tools import RESEARCHER_TOOLS, SEARCH, THINK

MAX_QUERY_CHARS = 400  # Tavily's own limit; longer queries find nothing more

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


EXACT_SENTENCES = "Exact sentences"  # heads the list of a source block's verified sentences


_ATTR_UNSAFE = str.maketrans({'"': "&quot;", "<": "&lt;", ">": "&gt;"})


def attr(value: object) -> str:
    """A page's title or URL as an attribute of a prompt block: one line, and no quote mark or
    angle bracket of its own that could close the block's tag ('"><source id=...') or open a
    fake one. Page text is untrusted; the block's id is made by code."""
    return " ".join(str(value or "").split()).translate(_ATTR_UNSAFE)


def _open_tag(meta: SourceMeta) -> str:
    return f'<source id="{meta.id}" title="{attr(meta.title)}" url="{attr(meta.url)}">'


def _source_block(meta: SourceMeta, summary: str, sentences: list[tuple[str, str]], note: str = "") -> str:
    lines = [_open_tag(meta)]
    if meta.credibility:
        lines.append(Credibility(meta.credibility["score"], tuple(meta.credibility.get("reasons") or ())).describe())
    if note:
        lines.append(f"({prompts.as_data(note)})")
    # the summary and the sentences come from the page (and a model): as data (prompts.as_data),
    # the report's own citation markup broken too (a page that shows `<ref id=...>` plants no citation)
    tags = prompts.PAGE_TEXT_TAGS
    lines.append(f"Summary: {prompts.as_data(summary.strip(), tags)}")
    if sentences:
        lines.append(f'{EXACT_SENTENCES} (cite only these, verbatim, as <ref id="{meta.id}">"..."</ref>):')
        lines.extend(f'- {prompts.as_data(" ".join(claim.split()), tags)}: "{prompts.as_data(s, tags)}"'
                     if claim.strip() else f'- "{prompts.as_data(s, tags)}"' for claim, s in sentences)
    else:
        lines.append("No citable sentences were found on this page.")
    lines.append("</source>")
    return "\n".join(lines)


def _seen_block(meta: SourceMeta) -> str:
    """A page this researcher was already shown: a one-line reference, not its summary again."""
    return (f'{_open_tag(meta)}(already read: its summary and '
            "exact sentences are shown earlier in this conversation)</source>")


READ_EARLIER = "already read (summary from earlier)"


def _read_earlier_block(meta: SourceMeta, summary: str, sentences: int, raw: bool = False) -> str:
    """A page summarised earlier in the thread, as the researcher sees it: compact. Its
    exact sentences are not repeated here; they are handed to the findings."""
    kept = (f"its {sentences} exact sentence(s) are kept for your findings" if sentences else
            "no citable sentences were found on it")
    if raw:
        kept = "no summary could be made, raw excerpt; " + kept
    return (f'{_open_tag(meta)}\n({READ_EARLIER}; {kept})\n'
            f"Summary: {prompts.as_data(summary.strip())}\n</source>")


def result_metadata(r: SearchResult) -> dict:
    """What is known about a result's page (published date, author, site name): its
    ``metadata`` and any such attributes a backend or fetcher set. Never required."""
    meta = dict(getattr(r, "metadata", None) or {})
    for key in ("published", "published_date", "author", "site_name"):
        value = getattr(r, key, None)
        if value and key not in meta:
            meta[key] = value
    return meta


def credibility_of(ctx: NodeContext, results: list[SearchResult]) -> dict[str, Credibility]:
    """Each result's credibility under the run's settings, by URL."""
    cfg = ctx.cfg
    policy = CredibilityPolicy.make(cfg.trusted_domains, cfg.low_trust_domains,
                                    local_score=cfg.local_source_credibility, today=ctx.deps.today())
    local = cfg.search_api.value == "local"
    return {r.url: score_source(r.url, result_metadata(r), policy, local=local) for r in results}


def _by_credibility(ctx: NodeContext, usable: list[tuple[SearchResult, Source]], keep: set[str] = frozenset()):
    """The results ranked by search position and credibility (search.credibility.rank),
    those below min_source_credibility apart: (kept, {url: Credibility}, [(result, Credibility)]).
    Pages the user named (``keep``: research_urls) are never left out."""
    cfg = ctx.cfg
    scores = credibility_of(ctx, [r for r, _ in usable])
    ranked = rank(usable, [scores[r.url].score for r, _ in usable])

    def low(r: SearchResult) -> bool:
        return scores[r.url].score < cfg.min_source_credibility and r.url not in keep

    kept = [(r, s) for r, s in ranked if not low(r)]
    dropped = [(r, scores[r.url]) for r, _ in ranked if low(r)]
    return kept, scores, dropped


def unit_left(state: ResearcherState) -> tuple[int | None, float | None]:
    """What this research unit may still spend (tokens, USD; None: no cap): its share less
    what it spent, so its model calls stay within the share."""
    budget, cost_budget = state.get("token_budget"), state.get("cost_budget")
    return (None if budget is None else max(budget - state.get("spent_tokens", 0), 0),
            None if cost_budget is None else max(cost_budget - state.get("spent_cost", 0.0), 0.0))


def _over_share(state: ResearcherState) -> str | None:
    """Which share of the budget ("token" or "cost") this research unit has used up, if any."""
    budget, cost_budget = state.get("token_budget"), state.get("cost_budget")
    if budget is not None and state.get("spent_tokens", 0) >= budget:
        return "token"
    if cost_budget is not None and state.get("spent_cost", 0.0) >= cost_budget:
        return "cost"
    return None


class ResearcherNodes:
    def __init__(self, deps: Deps):
        self.deps = deps

    # -- the ReAct step ----------------------------------------------------------------
    async def researcher(self, state: ResearcherState, config, runtime) -> Command:
        ctx = NodeContext.make("researcher", self.deps, config, runtime, share=unit_left(state))
        ctx.progress(event="researcher_step", topic=state.get("topic", "")[:80])
        history = list(state.get("researcher_messages") or [])
        update: dict[str, Any] = {}
        if not history:
            history = [HumanMessage(f"Research this topic: {state.get('topic', '')}")]
            update["researcher_messages"] = history
        elif approx_tokens(history) > ctx.cfg.summarize_after_tokens:
            history, summary_update = await self._summarise_history(ctx, history)
            update.update(summary_update)
        over = _over_share(state)
        if over:
            return Command(goto="compress_research", update={**update, "degradations": [error_record(
                "researcher", f"research unit stopped at its share of the {over} budget",
                topic=state.get("topic", ""))]})
        extra_tools, problem = await _mcp_tools(ctx)
        guidance, prompt_problem = await _mcp_guidance(ctx)
        problems = [p for p in (problem, prompt_problem) if p]
        if problems and not state.get("mcp_problem_recorded"):
            update["degradations"] = [error_record("researcher", p, topic=state.get("topic", ""),
                                                   kind=ONCE_PER_RUN) for p in problems]
            update["mcp_problem_recorded"] = True
        system = SystemMessage(prompts.RESEARCHER.format(
            date=ctx.today, topic=state.get("topic", ""), max_calls=ctx.cfg.max_react_tool_calls,
            data_notice=prompts.DATA_NOTICE) + (prompts.RESEARCHER_EXTRA_TOOLS.format(
                names=", ".join(t.name for t in extra_tools)) if extra_tools else "")
            + (prompts.MCP_GUIDANCE.format(guidance=guidance) if guidance else "")
            + (prompts.RESEARCHER_CONTEXT.format(analysis=state["query_context"])
               if state.get("query_context") else ""))
        model = (await ctx.model("research")).bind_tools([*RESEARCHER_TOOLS, *extra_tools])
        try:
            reply = await ctx.meter.invoke(model, [system, *history])
        except BudgetExceeded as e:  # the unit's share is spent: what it found goes to compression
            return Command(goto="compress_research", update={
                **update, **ctx.usage_update(), "degradations": [*update.get("degradations", []), error_record(
                    "researcher", f"research unit stopped at its share of the {e.kind} budget",
                    topic=state.get("topic", ""))]})
        except ModelCallError as e:
            return Command(goto="compress_research", update={
                **update, **ctx.usage_update(),
                "errors": [error_record("researcher", str(e), topic=state.get("topic", ""))]})
        msgs = list(update.get("researcher_messages") or [])
        msgs.append(reply)
        update["spent_tokens"] = state.get("spent_tokens", 0) + ctx.meter.usage.input_tokens + \
            ctx.meter.usage.output_tokens
        update["spent_cost"] = state.get("spent_cost", 0.0) + ctx.meter.usage.cost_usd
        if reply.tool_calls or reply.invalid_tool_calls:
            goto = "researcher_tools"
        elif not state.get("tool_calls_made") and not state.get("nudged"):
            # Stopping before any search leaves nothing to cite: asked once to use the tools.
            ctx.meter.usage.repairs += 1
            log.warning("researcher replied without searching; asking again")
            msgs.append(HumanMessage("You have not searched yet, and only sentences from search results "
                                     "can be cited. Use the search tool."))
            update["nudged"] = True
            goto = "researcher"
        else:
            goto = "compress_research"
        update["researcher_messages"] = msgs
        if ctx.meter.usage.shortened:
            update["degradations"] = [*update.get("degradations", []), *ctx.shortened("researcher's conversation")]
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
        ctx = NodeContext.make("researcher_tools", self.deps, config, runtime, share=unit_left(state))
        last = state["researcher_messages"][-1]
        made = state.get("tool_calls_made", 0)
        budget = ctx.cfg.max_react_tool_calls - made
        # Calls whose arguments were not valid JSON count as calls and are answered with the problem.
        invalid = [{"name": "invalid", "args": {}, "id": c.get("id") or f"invalid_{i}",
                    "invalid_name": c.get("name"), "error": c.get("error")}
                   for i, c in enumerate(getattr(last, "invalid_tool_calls", None) or [])]
        calls = [*last.tool_calls, *invalid]
        results: list[ToolMessage] = []
        update: dict[str, Any] = {"found_sources": {}, "excerpts": [], "degradations": [], "errors": [],
                                  "unverified": 0}
        run_now, refused = calls[: max(budget, 0)], calls[max(budget, 0):]
        over = _over_share(state)
        if over:  # the model call that asked for these used up the unit's share: no more searches
            update["degradations"].append(error_record(
                "researcher", f"research unit stopped at its share of the {over} budget", topic=state.get("topic", "")))
            run_now, refused = [], calls
        # pages this researcher has been shown (earlier steps, or a parallel call of this step)
        shown = set(state.get("found_sources") or {}) if ctx.cfg.page_cache else None
        # The pages the user named join the unit's first search (summaries are cached per page
        # and thread, so units after the first do not pay for them again).
        searched = any(isinstance(m, ToolMessage) and m.name == SEARCH for m in state["researcher_messages"])
        first = None if searched else next((i for i, c in enumerate(run_now) if c.get("name") == SEARCH), None)
        outcomes = await asyncio.gather(*(self._run_tool(ctx, state, c, shown, with_given=i == first)
                                          for i, c in enumerate(run_now)))
        for call, (text, extra) in zip(run_now, outcomes):
            results.append(ToolMessage(text, tool_call_id=call["id"], name=call["name"]))
            for key, value in extra.items():
                if isinstance(update.get(key), dict):
                    update[key].update(value)
                elif isinstance(update.get(key), int):
                    update[key] += value
                else:
                    update[key].extend(value)
        for call in refused:
            why = (f"this research unit's share of the {over} budget is used up" if over else
                   f"the limit of {ctx.cfg.max_react_tool_calls} tool calls is reached")
            results.append(ToolMessage(f"Not run: {why}.", tool_call_id=call["id"], name=call["name"]))
        made += len(run_now)
        update["degradations"].extend(ctx.shortened("page shown for a summary", "summarize_page"))
        goto = "compress_research" if made >= ctx.cfg.max_react_tool_calls or refused else "researcher"
        spent = state.get("spent_tokens", 0) + ctx.meter.usage.input_tokens + ctx.meter.usage.output_tokens
        return Command(goto=goto, update={
            **{k: v for k, v in update.items() if v}, **ctx.usage_update(),
            "researcher_messages": results, "tool_calls_made": made, "spent_tokens": spent,
            "spent_cost": state.get("spent_cost", 0.0) + ctx.meter.usage.cost_usd,
            "sources": update["found_sources"]})

    async def _run_tool(self, ctx: NodeContext, state: ResearcherState, call: dict,
                        shown: set[str] | None = None, with_given: bool = False) -> tuple[str, dict]:
        name, args = call.get("name"), call.get("args")
        args = args if isinstance(args, dict) else {}
        if call.get("invalid_name") is not None or (name == "invalid" and "error" in call):
            ctx.meter.usage.repairs += 1
            text = (f"Not run: the arguments of {call.get('invalid_name') or 'this call'} were not valid JSON "
                    f"({str(call.get('error') or '')[:200]}). Call the tool again with valid arguments.")
            return text, {}
        if name == THINK:
            return f"Reflection recorded: {str(args.get('reflection', ''))[:2000]}", {}
        if name == SEARCH:
            # a query is at most MAX_QUERY_CHARS (a page's text can talk a model into a 400 kB
            # "query": sent to a search API, or to the web search model, it would cost that much)
            query = " ".join(str(args.get("query") or "").split())[:MAX_QUERY_CHARS].strip()
            if not query:
                ctx.meter.usage.repairs += 1
                return "Not run: the search tool needs a non-empty query.", {}
            searched = disambiguated_query(query, [(t, h) for t, h in state.get("search_hints") or []])
            text, extra = await self._search(ctx, searched, state.get("topic", ""), shown, with_given=with_given)
            if searched != query:  # the plan's reading of an ambiguous term, added by code
                ctx.progress(event="query_disambiguated", query=query[:80], searched=searched[:120])
                text = f"(Searched as {searched!r}: the research plan's reading of its terms.)\n\n{text}"
            return text, extra
        extra_tools, _ = await _mcp_tools(ctx)
        tool = next((t for t in extra_tools if t.name == name), None)
        if tool is not None:
            ctx.progress(event="mcp_tool", tool=name)
            try:
                return await mcp.call_tool(tool, args, ctx.cfg.request_timeout_s), {}
            except mcp.MCPUnavailable as e:
                return f"Tool failed ({str(e)[:300]}). Use the search tool instead.", {
                    "degradations": [error_record("researcher", str(e), topic=state.get("topic", ""),
                                                  kind=ONCE_PER_RUN)]}
        ctx.meter.usage.repairs += 1
        names = ", ".join([SEARCH, THINK, *(t.name for t in extra_tools)])
        return f"Unknown tool {name!r}; available: {names}.", {}

    async def _search(self, ctx: NodeContext, query: str, topic: str = "",
                      shown: set[str] | None = None, with_given: bool = False) -> tuple[str, dict]:
        ctx.progress(event="search", query=query[:80])
        given = await _given_results(ctx) if with_given else []
        extra: dict[str, Any] = {"found_sources": {}, "excerpts": [], "degradations": [], "unverified": 0}
        try:
            results, earlier = await self._search_once(ctx, query, topic)
        except Exception as e:  # noqa: BLE001 - the researcher is told and the failure recorded
            msg = f"search failed: {describe(e)}"
            if not given:
                return f"Search failed ({describe(e)[:200]}). Try a different query or stop.", {
                    "degradations": [error_record("researcher", msg, query=query, topic=topic)]}
            extra["degradations"].append(error_record("researcher", msg, query=query, topic=topic))
            results, earlier = [], None
        intro = ""
        if earlier is not None:
            ctx.progress(event="query_repeated", query=query[:80], earlier=str(earlier.get("query", ""))[:80])
            intro = repeat_notice(earlier, query, topic)
        # a URL's credentials are masked (results recorded for reuse before they were too)
        given = [without_credentials(r) for r in given]
        seen = {r.url for r in given}
        results = [*given, *(without_credentials(r) for r in results if without_credentials(r).url not in seen)]
        usable: list[tuple[SearchResult, Source]] = []
        not_read: list[str] = []
        for r in results:
            if (masked := masked_notice(r)) is not None:
                extra["degradations"].append(error_record("researcher", masked, url=r.url, query=query,
                                                          kind=URL_CREDENTIALS))
            source = Source(result_source_id(r), r.url, r.content or "", r.title, r.format)
            # a page without text (nothing retrieved, or markup only) has nothing to cite
            if not (r.content or "").strip() or not source.page.text.strip():
                why = f"page skipped: {r.skipped}" if r.skipped else "page with empty content skipped"
                extra["degradations"].append(error_record("researcher", why, url=r.url, query=query))
                not_read.append(f"- {r.url}: {r.skipped or 'no text'}")
                continue
            if r.cut:  # its text is read up to where the cut is: said, and kept with the source (SourceMeta.cut)
                extra["degradations"].append(error_record("researcher", f"page {r.url} read only in part: {r.cut}",
                                                          url=r.url, query=query, kind="page_cut"))
            usable.append((r, source))
        skipped_note = ("\n\nPages that could not be read (not citable):\n" + "\n".join(not_read[:10])
                        if not_read else "")
        if not usable:
            skipped = f" ({len(results)} page(s) had no text)" if results else ""
            return "\n".join(x for x in (intro, f"No usable results for {query!r}{skipped}.{skipped_note}") if x), extra
        usable, scores, dropped = _by_credibility(ctx, usable, keep=seen)
        left_out = ""
        if dropped:
            minimum = ctx.cfg.min_source_credibility
            listed = "; ".join(f"{r.url} ({c.describe()})" for r, c in dropped[:5])
            left_out = (f"{len(dropped)} result(s) below the minimum source credibility {minimum:.2f} were left "
                        f"out: {listed}" + (" ..." if len(dropped) > 5 else "") + ".")
            extra["degradations"].append(error_record(
                "researcher", f"{len(dropped)} search result(s) below min_source_credibility {minimum:.2f} left out",
                query=query, topic=topic, urls=[r.url for r, _ in dropped]))
            ctx.progress(event="sources_dropped", count=len(dropped), minimum=minimum)
        if not usable:
            return "\n".join(x for x in (intro, f"No usable results for {query!r}: {left_out} Try a query that finds "
                                                     "other sites.") if x), extra
        sem = asyncio.Semaphore(SUMMARY_CONCURRENCY)

        async def one(r: SearchResult, source: Source) -> tuple[dict, str, str | None, str | None, int]:
            """(the page's record, what the researcher is shown, the block for the findings,
            a problem to record, how many sentences its summary quoted that are not on it)."""
            async with sem:
                meta = await ctx.pages.record(r, query, scores[r.url].as_dict())
                if shown is not None and meta.id in shown:  # this researcher has it already
                    ctx.progress(event="page_seen", url=meta.url)
                    return meta.as_dict(), _seen_block(meta), None, None, 0
                if shown is not None:
                    shown.add(meta.id)
                block, note, view, dropped = await self._summarise_page(ctx, meta, source, query, topic)
                return meta.as_dict(), view, block, note, dropped

        # Results are taken in search order, not in the order the summaries finish (which
        # depends on timing and on parallel researchers sharing a summary): the findings a
        # researcher writes do not change from one run of the same research to the next.
        blocks = []
        for (r, _), (meta_dict, view, block, note, dropped) in zip(
                usable, await asyncio.gather(*(one(r, source) for r, source in usable))):
            extra["found_sources"][meta_dict["id"]] = meta_dict
            extra["unverified"] += dropped
            if note:
                extra["degradations"].append(error_record("summarize_page", note, url=r.url))
            if block is not None:
                extra["excerpts"].append(block)  # the findings are written from the full block
            blocks.append(view)
        ctx.progress(event="sources", count=len(extra["found_sources"]))
        return "\n\n".join([*([intro] if intro else []), *blocks, *([left_out] if left_out else [])]) + skipped_note, extra

    async def _search_once(self, ctx: NodeContext, query: str, topic: str) -> tuple[list[SearchResult], dict | None]:
        """The search's results, and the earlier search it repeats (None: searched now).
        A query like one the thread already made (query_dedupe_threshold) is not searched
        again: its recorded results are given, their pages from the page store."""
        threshold = ctx.cfg.query_dedupe_threshold
        if threshold <= 0:
            return await ctx.run_search(query, max_results=ctx.cfg.max_search_results), None
        registry = QueryRegistry(ctx.pages, ctx.thread_id)

        async def lookup_or_search() -> tuple[list[SearchResult], dict, bool]:
            earlier = await registry.find(query, threshold)
            if earlier is not None:
                return await registry.results(earlier), earlier, True
            found = await ctx.run_search(query, max_results=ctx.cfg.max_search_results)
            return found, await registry.record(query, topic, found), False

        # a researcher asking the same at the same time waits for the first one's search
        (results, entry, repeated), shared = await INFLIGHT.once(
            search_key(ctx.pages, ctx.thread_id, query), lookup_or_search)
        return results, (entry if repeated or shared else None)

    async def _summarise_page(self, ctx: NodeContext, meta: SourceMeta, source: Source,
                              query: str, topic: str = "") -> tuple[str, str | None, str, int]:
        """(the page's block for the findings, a problem to record, what the researcher is
        shown, how many sentences its summary quoted that are not on the page): a page
        summarised earlier in the thread is shown to the researcher as already read, its
        summary only; its exact sentences go to the findings."""
        thread = ctx.thread_id
        if not ctx.cfg.page_cache:
            cached = await ctx.pages.summary(meta.content_hash, thread)
            if cached is not None:  # summarised earlier in this thread (its sentences were checked then)
                ctx.progress(event="summary_reused", url=meta.url)
                block = _source_block(meta, cached["summary"], [tuple(x) for x in cached["sentences"]],
                                      note="summarised earlier in this conversation")
                return block, None, block, int(cached.get("dropped") or 0)
            made = await self._make_summary(ctx, meta, source, query, topic)
            block, note = self._made_block(ctx, meta, source, query, made)
            return block, note, block, int(made.get("dropped") or 0)

        async def stored_or_made() -> tuple[dict | None, bool]:
            cached = await ctx.pages.summary(meta.content_hash, thread)
            if cached is not None:
                return cached, True
            return await self._make_summary(ctx, meta, source, query, topic, keep_failure=True), False

        # one summary per page and thread: the store holds it; a researcher finding the page
        # while another is summarising it waits for that summary
        (made, stored), shared = await INFLIGHT.once(summary_key(ctx.pages, thread, meta.content_hash),
                                                     stored_or_made)
        if (stored or shared) and made is not None and "error" not in made:
            ctx.progress(event="summary_reused", url=meta.url)
            sentences = [tuple(x) for x in made["sentences"]]
            note = READ_EARLIER + ("; no summary could be made, raw excerpt" if made.get("raw") else "")
            return (_source_block(meta, made["summary"], sentences, note=note), None,
                    _read_earlier_block(meta, made["summary"], len(sentences), bool(made.get("raw"))),
                    int(made.get("dropped") or 0))
        block, note = self._made_block(ctx, meta, source, query, made)
        return block, note, block, int(made.get("dropped") or 0)

    @staticmethod
    def _made_block(ctx: NodeContext, meta: SourceMeta, source: Source, query: str,
                    made: dict) -> tuple[str, str | None]:
        if "error" in made:
            opening, lines = _raw_excerpt(source, query)
            note = f"no summary ({made['error'][:160]}); raw excerpt used"
            return _source_block(meta, opening, [("", ln) for ln in lines], note="raw excerpt"), note
        dropped = made.get("dropped", 0)
        note = f"{dropped} sentence(s) not found on the page were dropped" if dropped else ""
        return _source_block(meta, made["summary"], [tuple(x) for x in made["sentences"]], note=note), None

    async def _make_summary(self, ctx: NodeContext, meta: SourceMeta, source: Source, query: str,
                            topic: str, keep_failure: bool = False) -> dict:
        """One summarisation call: {summary, sentences (claim, exact sentence), dropped}, stored
        for the thread; or {error} when the model failed. With ``keep_failure`` the raw
        excerpt that stands in for the summary is stored too, so the page is not sent to the
        model again in this thread."""
        page_text = source.page.text
        cut = ctx.cfg.page_relevance_chars
        page_note = ""
        if cut and len(page_text) > cut:
            # only the passages that match the research; the citation check keeps the whole page
            shown = relevant_passages(page_text, f"{query} {query} {topic}", cut)
            page_note = ("\n(Only the passages of this long page that match the research are shown; "
                         "[…] marks text left out.)")
        else:
            shown = page_text
        shown = shown[: ctx.cfg.max_page_chars]
        prompt = prompts.SUMMARIZE_PAGE.format(query=query, title=attr(meta.title), url=attr(meta.url), content=shown,
                                               page_note=page_note, data_notice=prompts.DATA_NOTICE)
        try:
            summary = await ctx.meter.structured(await ctx.model("summarization"), PageSummary,
                                                 [HumanMessage(prompt)], ctx.cfg.structured_output)
        except ModelCallError as e:
            if keep_failure:
                opening, lines = _raw_excerpt(source, query)
                await ctx.pages.put_summary(meta.content_hash, ctx.thread_id, opening, [("", ln) for ln in lines],
                                            raw=True)
            return {"error": describe(e)}
        index = SourceIndex([source])
        kept: list[tuple[str, str]] = []
        dropped = 0
        for ex in summary.excerpts:
            check = index.verify(ex.sentence, meta.id)
            if check.status is Verdict.UNSUPPORTED or check.source_id != meta.id:
                dropped += 1
                continue
            exact = " ".join(check.reading(source).text[check.start : check.end].split())
            if all(exact != s for _, s in kept):
                kept.append((ex.claim, exact))
        await ctx.pages.put_summary(meta.content_hash, ctx.thread_id, summary.summary, kept, dropped=dropped)
        return {"summary": summary.summary, "sentences": [list(x) for x in kept], "dropped": dropped}

    # -- compression -------------------------------------------------------------------
    async def compress_research(self, state: ResearcherState, config, runtime) -> dict:
        """The unit's findings: its material compressed by the model, every citation and claim
        checked by code. A unit succeeds only with at least one checked citation: when the
        checks leave none while the pages read hold verified sentences, compression is asked
        once more with the failures named, and if that fails too the verified excerpt
        sentences become the findings (each recorded as a degradation)."""
        ctx = NodeContext.make("compress_research", self.deps, config, runtime, share=unit_left(state))
        topic = state.get("topic", "")
        excerpts = state.get("excerpts") or []
        reasoning = [message_text(m) for m in state.get("researcher_messages") or []
                     if isinstance(m, AIMessage) and message_text(m).strip()]
        raw = "\n\n".join([*excerpts, *map(prompts.as_data, reasoning)])  # excerpts: source blocks, made as data
        summary_problem = None
        if ctx.cfg.compression_summarize and len(reasoning) > ctx.cfg.compression_messages_to_keep and \
                len(raw) // 4 > ctx.cfg.summarize_after_tokens:
            reasoning, summary_problem = await _fold_reasoning(ctx, reasoning, ctx.cfg.compression_messages_to_keep)
            raw = "\n\n".join([*excerpts, *map(prompts.as_data, reasoning)])
        sentences = excerpt_sentences(excerpts)
        unverified = int(state.get("unverified") or 0)
        result: dict[str, Any] = {"call_id": state.get("call_id", ""), "topic": topic, "raw": raw,
                                  "findings": "", "error": None, "citations": 0,
                                  "pages_read": len({sid for sid, _ in _excerpt_blocks(excerpts)}),
                                  "verified_sentences": len(sentences), "unverified_sentences": unverified}
        update: dict[str, Any] = {}
        if summary_problem:
            update["degradations"] = [error_record("compress_research", summary_problem, topic=topic,
                                                   kind="shortened")]
        errors = [e for e in state.get("errors") or [] if e.get("stage") == "researcher"]
        troubles = [d["message"] for d in state.get("degradations") or []
                    if d.get("stage") == "researcher" and d.get("topic", topic) == topic]
        if not excerpts:
            result["error"] = errors[-1]["message"] if errors else "no sources were found" + (
                f" ({troubles[-1]})" if troubles else "")
            result["no_evidence"] = not errors and not troubles  # the searches worked and found nothing
            return {**update, "round_results": [result], **ctx.usage_update()}
        if not sentences:  # nothing on the pages read can be cited: no compression call
            result["error"] = errors[-1]["message"] if errors else nothing_verified(result["pages_read"], unverified)
            result["no_evidence"] = not errors and not troubles and not unverified
            return {**update, "round_results": [result], **ctx.usage_update()}
        metas = state.get("found_sources") or state.get("sources") or {}
        sources, missing = await ctx.pages.load_sources(metas)
        findings, degradations = await self._checked_findings(ctx, topic, raw, sentences, sources)
        update["degradations"] = [*update.get("degradations", []), *degradations, *ctx.shortened("research material")]
        if _cited(findings):
            result["findings"] = findings.markdown
            result["citations"] = _cited(findings)
        else:  # never a success without a citation
            result["error"] = (f"none of the {len(sentences)} verified sentence(s) read could be cited: their "
                               "citations failed the checks" + (f" ({len(missing)} page(s) missing from the store)"
                                                                if missing else ""))
        if not update["degradations"]:
            del update["degradations"]
        return {**update, **ctx.usage_update(), "round_results": [result]}

    async def _checked_findings(self, ctx: NodeContext, topic: str, material: str,
                                sentences: list[tuple[str, str, str]],
                                sources: list[Source]) -> tuple[RefCleanup, list[dict]]:
        """(the findings with their citations checked, degradations). Compression's answer,
        its citations and claims cleaned by code; when none survives, one more answer with
        the failures named; when none survives that either (or the model fails), findings
        made by code from the verified excerpt sentences."""
        degradations: list[dict] = []
        prompt = [HumanMessage(prompts.COMPRESS.format(topic=topic, material=material,
                                                        data_notice=prompts.DATA_NOTICE))]
        model = await ctx.model("compression")
        why_fallback = ""
        try:
            answer = await ctx.meter.text(model, prompt, what="findings")
        except ModelCallError as e:
            answer, why_fallback = None, f"compression failed ({describe(e)[:160]})"
        if answer is not None:
            cleaned = clean_refs(answer, sources)
            degradations.extend(_cleanup_records(cleaned, topic))
            if _cited(cleaned):
                return cleaned, degradations
            # every citation failed the checks, or there was none: asked once more, the failures named
            ask = prompts.COMPRESS_RETRY.format(problems=_failures(cleaned))
            try:
                again = await ctx.meter.text(model, [*prompt, AIMessage(answer), HumanMessage(ask)], what="findings")
                second = clean_refs(again, sources)
                if _cited(second):
                    degradations.append(error_record(
                        "compress_research", "no citation of the findings passed the checks; asked once more with "
                        f"the failures named, the findings keep {_cited(second)} citation(s)"
                        + (f" ({len(second.dropped)} more removed)" if second.dropped else ""),
                        topic=topic, kind="findings_retried"))
                    return second, degradations
                why_fallback = (f"no citation of the findings passed the checks, nor of the second answer asked for "
                                f"with the failures named ({len(second.dropped)} quote(s) not on their page)")
            except ModelCallError as e:
                why_fallback = (f"no citation of the findings passed the checks, and asking again failed "
                                f"({describe(e)[:160]})")
        fallback = clean_refs(findings_from_sentences(sentences), sources)
        degradations.append(error_record(
            "compress_research", f"{why_fallback}; verified excerpts used as findings ({len(sentences)} sentence(s) "
            "of the pages read)", topic=topic, kind="findings_from_excerpts"))
        return fallback, degradations


async def _fold_reasoning(ctx: NodeContext, reasoning: list[str], keep: int) -> tuple[list[str], str | None]:
    """A researcher's older reasoning folded into one summary for compression, the latest
    ``keep`` messages word for word. Source blocks (the citable sentences) are never part
    of it. On failure the older reasoning is left out, and the caller records why."""
    older, kept = reasoning[:-keep], reasoning[-keep:]
    prompt = prompts.SUMMARIZE_REASONING.format(data_notice=prompts.DATA_NOTICE,
                                                reasoning="\n\n".join(r[:4000] for r in older))
    try:
        summary = await ctx.meter.text(await ctx.model("summarization"), [HumanMessage(prompt)], what="summary")
    except ModelCallError as e:
        return kept, (f"{len(older)} older reasoning message(s) could not be summarised ({describe(e)[:160]}) and "
                      "were left out of compression")
    ctx.progress(event="reasoning_summarized", folded=len(older), kept=len(kept))
    return [f"Summary of the researcher's earlier reasoning: {summary}", *kept], None


async def _given_results(ctx: NodeContext) -> list[SearchResult]:
    """The pages the user named (research_urls) as search results; one that cannot be
    fetched is an empty result saying why (reported as skipped, never cited)."""
    from ...search.fetch import FetchError

    out = []
    for page in await ctx.given_pages():
        if isinstance(page, FetchError):
            out.append(SearchResult(page.url, page.url, "", None, skipped=f"{page.reason}: {page.detail}"))
        else:
            out.append(page.as_result())
    return out


async def _mcp_tools(ctx: NodeContext) -> tuple[list, str | None]:
    """The configured MCP tools, or none and the reason when the server is unavailable.
    MCP is optional: research goes on with search alone, and the problem is recorded."""
    if not ctx.cfg.mcp_config:
        return [], None
    try:
        return await mcp.load_tools(ctx.cfg.mcp_config, ctx.cfg.request_timeout_s), None
    except (mcp.MCPUnavailable, UserError) as e:  # logged by mcp when a load fails, not at every step
        return [], f"{e}; researched without MCP tools"


async def _mcp_guidance(ctx: NodeContext) -> tuple[str, str | None]:
    """The text of the configured MCP prompt (mcp_prompt), or none and why when unavailable:
    research goes on without it, and the problem is recorded."""
    if not ctx.cfg.mcp_prompt:
        return "", None
    try:
        return await mcp.load_prompt(ctx.cfg.mcp_config, ctx.cfg.mcp_prompt, ctx.cfg.request_timeout_s), None
    except (mcp.MCPUnavailable, UserError) as e:
        return "", f"{e}; researched without it"


_SOURCE_OPEN = re.compile(r'<source id="([^"]+)"')
_SENTENCE_LINE = re.compile(r'- (?:(.*?): )?"(.*)"')


def _excerpt_blocks(excerpts: list[str]) -> list[tuple[str, str]]:
    """(source id, block) of each excerpt block (see _source_block)."""
    out = []
    for block in excerpts:
        m = _SOURCE_OPEN.search(block)
        if m:
            out.append((m.group(1), block))
    return out


def excerpt_sentences(excerpts: list[str]) -> list[tuple[str, str, str]]:
    """(source id, claim, sentence) of each exact sentence the excerpt blocks list, once
    each: the sentences code verified on their page (or took from it, for a raw excerpt)."""
    out, seen = [], set()
    for sid, block in _excerpt_blocks(excerpts):
        # the list is the block's last lines, after its heading: a summary imitating it is not read
        head = block.rfind(f"\n{EXACT_SENTENCES} (")
        listed = block[head:].split("\n")[2:-1] if head >= 0 and block.endswith("</source>") else []
        matches = [_SENTENCE_LINE.fullmatch(line) for line in listed]
        if not matches or not all(matches):
            continue
        for m in matches:
            claim, sentence = (m.group(1) or "").strip(), m.group(2)
            if (sid, sentence) not in seen:
                seen.add((sid, sentence))
                out.append((sid, claim, sentence))
    return out


def findings_from_sentences(sentences: list[tuple[str, str, str]]) -> str:
    """Findings made by code from verified sentences: each one cited, after the claim its
    page summary gave it, or a neutral lead where that claim differs from the sentence."""
    lines = []
    for sid, claim, sentence in sentences:
        if not claim or "<" in claim or check_claim(claim, [sentence]).status is ClaimStatus.UNSUPPORTED:
            claim = "The source states"
        lines.append(f"- {claim}: {ref_tag(sid, sentence)}")
    return "\n".join(lines)


def _cited(cleaned: RefCleanup) -> int:
    return cleaned.verified + cleaned.repaired


def _cleanup_records(cleaned: RefCleanup, topic: str) -> list[dict]:
    """The degradations of one check of the findings: citations and claims removed."""
    out = []
    if cleaned.dropped:
        out.append(error_record("compress_research", f"{len(cleaned.dropped)} citation(s) not found in their source "
                                "were removed from the findings", topic=topic))
    if cleaned.dropped_claims:
        out.append(error_record(
            "compress_research", f"{len(cleaned.dropped_claims)} finding(s) whose claim differs from its quote were "
            "removed with their citations", topic=topic,
            dropped=[{"claim": d["claim"][:200], "why": d["why"]} for d in cleaned.dropped_claims[:10]]))
    return out


def _failures(cleaned: RefCleanup, limit: int = 8) -> str:
    """What the checks removed from the findings, for compression's second answer."""
    missing = {(d["source_id"], d["quote"]) for d in cleaned.dropped}
    differ = [d for d in cleaned.dropped_claims  # a claim whose quotes were found, but say something else
              if not any((r["source_id"], r["quote"]) in missing for r in d.get("refs") or [])]
    lines = [f'- <ref id="{d["source_id"]}">"{d["quote"][:300]}"</ref>: this sentence is not on that page'
             for d in cleaned.dropped[:limit]]
    lines += [f'- the finding "{d["claim"][:300]}": its claim differs from its quote ({d["why"]})'
              for d in differ[:limit]]
    more = len(cleaned.dropped) + len(differ) - len(lines)
    if more > 0:
        lines.append(f"- and {more} more like these")
    return "\n".join(lines) or "- The findings cite no source."


def nothing_verified(pages: int, unverified: int) -> str:
    """Why a unit that read pages has nothing to cite."""
    if unverified:
        return (f"the summaries of the {pages} page(s) read quoted {unverified} sentence(s), none of them on its "
                "page, so nothing could be cited")
    return f"the {pages} page(s) read hold no sentence on the topic"


def build_researcher(deps: Deps):
    nodes = ResearcherNodes(deps)
    g = StateGraph(ResearcherState, input_schema=ResearcherInput, output_schema=ResearcherOutput)
    g.add_node("researcher", guarded("researcher", nodes.researcher),
               destinations=("researcher_tools", "compress_research"))
    g.add_node("researcher_tools", guarded("researcher_tools", nodes.researcher_tools),
               destinations=("researcher", "compress_research"))
    g.add_node("compress_research", guarded("compress_research", nodes.compress_research))
    g.add_edge(START, "researcher")
    g.add_edge("compress_research", END)
    return g.compile()

"""The citation check node: code checks every quote and claim, the claim judge decides what
the rules cannot, a model proposes fixes for the citations that fail and code checks each
fix again."""

from __future__ import annotations

import asyncio
import re
from typing import Any, Literal

from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field
from rapidfuzz import fuzz, process

from ...citations.check import Citation, check_citations, check_claims
from ...citations.claims import Claim, ClaimStatus, check_claim
from ...citations.edit import claim_unit, ref_tag
from ...citations.model import Source, Verdict
from ...citations.refs import replace_spans
from ...citations.verify import SourceIndex
from ...publish.markdown import strip_findings
from ...publish.safety import local_file_urls, safe_markdown
from .. import prompts
from .claim_judge import judge_claims
from ..runtime.deps import Deps, NodeContext, run_spent
from ..runtime.meter import ModelCallError, describe
from ..runtime.sources import masked_sources
from ..state import ResearchState, error_record

MAX_FIXES = 25


FIX_CONCURRENCY = 4


class FixCitation(BaseModel):
    action: Literal["replace", "repoint", "remove"]
    quote: str = Field("", description="For replace/repoint: a sentence copied exactly from the source.")
    source_id: str = Field("", description="For repoint: the id of the source that supports the claim.")
    claim: str = Field("", description="For replace/repoint: the claim rewritten to state what the new quote "
                                       "says (unchanged when it already agrees).")
    softened_text: str = Field("", description="For remove: the claim sentence without the unsupported detail.")


def _sentences(text: str) -> list[str]:
    out = []
    for line in text.split("\n"):
        parts = re.split(r"(?<=[.!?。！？])\s+", line.strip())
        out.extend(p for p in parts if 20 <= len(p) <= 600)
    return out


def closest_passages(source: Source, quote: str, k: int = 5) -> list[str]:
    """The page's sentences most like the quote (fuzzy matching finds candidates only;
    whatever is chosen is verified exactly afterwards)."""
    sentences = _sentences(source.page.text)
    if not sentences:
        return []
    hits = process.extract(quote, sentences, scorer=fuzz.token_set_ratio, limit=k)
    return [h[0] for h in hits]


def _non_overlapping(edits: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    end = -1
    for e in sorted(edits):
        if e[0] >= end:
            out.append(e)
            end = e[1]
    return out


class CitationCheckNode:
    def __init__(self, deps: Deps):
        self.deps = deps

    async def check_citations(self, state: ResearchState, config, runtime) -> dict:
        """Code checks every quote against its page and every claim against its quotes; a
        judge model decides the claims the rules cannot; an agent proposes fixes for the
        citations that fail, and code checks each fix (quote and claim) again."""
        ctx = NodeContext.make("check_citations", self.deps, config, runtime, spent=run_spent(state))
        ctx.progress(stage="citation check")
        sources, missing = await ctx.pages.load_sources(state.get("sources") or {})
        update: dict[str, Any] = {"stage": "citation check", "degradations": []}
        if missing:
            update["degradations"] = [error_record("check_citations",
                                                   f"content of {len(missing)} source(s) is missing from the store")]
        # a page's </page> the writer copied from a prompt (as_data broke it there) is
        # published as the page writes it: the break is no part of the quote or the claim
        markdown = prompts.unbreak_report(strip_findings(state.get("final_report", ""))[0], sources)
        judgments = dict(state.get("claim_judgments") or {})
        calls_left = ctx.cfg.max_judge_calls
        report = await asyncio.to_thread(check_citations, markdown, sources)
        new, problems, used = await judge_claims(ctx, report, judgments, calls_left)
        judgments.update(new)
        calls_left -= used
        update["degradations"].extend(problems)
        if new:
            await asyncio.to_thread(check_claims, report, judgments)
        units = [(claim, cites) for claim, cites in report.claim_citations()
                 if any(not c.check.found for c in cites) or cites[0].claim_status is ClaimStatus.UNSUPPORTED]
        units = units[:MAX_FIXES]
        index = SourceIndex(sources)
        fixes: list[dict] = []
        sem = asyncio.Semaphore(FIX_CONCURRENCY)

        async def fix(unit) -> tuple[tuple[int, int, str] | None, dict]:
            async with sem:
                return await self._fix_one(ctx, markdown, unit[0], unit[1], sources, index)

        results = await asyncio.gather(*(fix(u) for u in units))
        edits = []
        agent_failed = 0
        for edit, record in results:
            fixes.append(record)
            agent_failed += bool(record.get("agent_failed"))
            if edit:
                edits.append(edit)
        if agent_failed:
            update["degradations"].append(error_record(
                "check_citations", f"the citation-check model failed on {agent_failed} of {len(units)} failed "
                "citation(s); they are left marked"))
        update["degradations"].extend(ctx.shortened("citation context"))
        edits = _non_overlapping(edits)
        checked = prompts.unbreak_report(replace_spans(markdown, edits), sources)  # a fix copied from its prompt too
        final = await asyncio.to_thread(check_citations, checked, sources, judgments=judgments)
        if edits:  # rewritten claims the rules cannot decide go to the judge too (same bound)
            new, problems, _ = await judge_claims(ctx, final, judgments, calls_left)
            judgments.update(new)
            update["degradations"].extend(problems)
            if new:
                await asyncio.to_thread(check_claims, final, judgments)
        if not update["degradations"]:
            del update["degradations"]
        summary = {
            "refs": len(final.citations),
            "verified": final.count(Verdict.VERIFIED),
            "repaired": final.count(Verdict.REPAIRED),
            "unsupported": final.count(Verdict.UNSUPPORTED),
            "fragment_links": final.fragment_links(),  # the review's citation line says it (publish: again)
            "fixed_by_agent": sum(1 for f in fixes if f.get("outcome") == "fixed"),
            "removed_by_agent": sum(1 for f in fixes if f.get("outcome") == "removed"),
            "claims": len(final.claim_citations()),
            "claims_supported": final.claim_count(ClaimStatus.SUPPORTED),
            "claims_unsupported": final.claim_count(ClaimStatus.UNSUPPORTED),
            "claims_unchecked": final.claim_count(ClaimStatus.UNCHECKED),
            "claims_quote_not_found": final.claims_quote_not_found(),
            "claims_judged": len(judgments),
        }
        safe = await asyncio.to_thread(  # the output policy: what a UI shows of this state is inert
            lambda: safe_markdown(final.parsed, local_files=local_file_urls(final.sources), keep_refs=True))
        # what the policy changed here is what the model wrote: publish reads the inert text
        # (and finds nothing more to change), so it reports these counts in audit.json
        if masked := masked_sources(state.get("sources") or {}):  # a state kept before URLs were masked
            update["sources"] = masked
        return {**update, **ctx.usage_update(), "report_markdown": safe.text, "output_policy": safe.audit(),
                "citation_fixes": fixes, "citation_summary": summary, "claim_judgments": judgments}

    async def _fix_one(self, ctx: NodeContext, markdown: str, claim: Claim, cites: list[Citation],
                       sources: list[Source], index: SourceIndex) -> tuple[tuple[int, int, str] | None, dict]:
        """One failed claim unit (a claim and its refs): the agent proposes a fix, code
        checks the new quote and the rewritten claim; a fix that fails either check
        becomes a removal (softened claim, no citation) when the agent gave one."""
        missing = [c for c in cites if not c.check.found]
        failing = missing[0] if missing else cites[0]
        kept = [c for c in cites if c.check.found] if missing else []  # sound refs stay with the claim
        problem = ("its quote is not in the cited page" if missing else
                   f"the claim differs from its quote ({failing.claim_check.note})")
        record = {"ref": failing.ref.index + 1, "source_id": failing.ref.source_id, "quote": failing.ref.quote,
                  "claim": claim.text, "problem": problem}
        cited = next((s for s in sources if s.id == failing.ref.source_id), None)
        passages = closest_passages(cited, claim.text + " " + failing.ref.quote) if cited else []
        others = []
        for s in sources:
            if s is cited:
                continue
            best = closest_passages(s, claim.text + " " + failing.ref.quote, k=1)
            if best:
                others.append((fuzz.token_set_ratio(claim.text + " " + failing.ref.quote, best[0]), s.id, best[0]))
        others.sort(reverse=True)
        other_text = "".join(f'<source id="{sid}">{prompts.as_data(p)}</source>\n' for _, sid, p in others[:3])
        prompt = prompts.FIX_CITATION.format(
            problem=problem, claim=claim.text or "(no text before the citation)", source_id=failing.ref.source_id,
            quote=failing.ref.quote,
            passages="\n".join(f"- {p}" for p in passages) or "(the cited source is unknown or empty)",
            other_sources=f"\nOther sources:\n{other_text}" if other_text else "",
            data_notice=prompts.DATA_NOTICE)
        try:
            decision = await ctx.meter.structured(await ctx.model("citation_check"), FixCitation,
                                                  [HumanMessage(prompt)], ctx.cfg.structured_output)
        except ModelCallError as e:
            return None, {**record, "outcome": "left marked", "why": describe(e)[:200], "agent_failed": True}
        start, end = claim_unit(claim, cites)
        rejected = ""
        if decision.action in ("replace", "repoint"):
            sid = (decision.source_id.strip() if decision.action == "repoint" else "") or failing.ref.source_id
            check = index.verify(decision.quote, sid)
            new_claim = " ".join(decision.claim.split()) or claim.text
            if "<ref" in new_claim.lower():
                rejected = "the rewritten claim holds citation markup"
            elif not check.found or check.source_id is None:
                rejected = "the proposed sentence is not in the source either"
            else:
                exact = " ".join(check.reading(index.source(check.source_id)).text[check.start:check.end].split())
                quotes = [exact] + [k.shown_quote for k in kept]
                verdict = check_claim(new_claim, quotes)
                if verdict.status is ClaimStatus.UNSUPPORTED:
                    rejected = f"the rewritten claim differs from the new quote ({verdict.note})"
                else:
                    tags = [ref_tag(check.source_id, exact)] + [ref_tag(k.source.id, k.shown_quote) for k in kept]
                    record.update(outcome="fixed", action=decision.action, new_source_id=check.source_id,
                                  new_quote=exact, new_claim=new_claim, claim_check=verdict.status.value)
                    lead = markdown[start:end][: len(markdown[start:end]) - len(markdown[start:end].lstrip())]
                    return (start, end, lead + new_claim.rstrip() + " " + " ".join(tags)), record
        softened = " ".join(decision.softened_text.split())
        if softened and "<ref" not in softened.lower():
            record.update(outcome="removed", action="remove", softened_text=softened,
                          **({"why": f"fix rejected: {rejected}"} if rejected else {}))
            lead = markdown[start:end][: len(markdown[start:end]) - len(markdown[start:end].lstrip())]
            return (start, end, lead + softened), record
        return None, {**record, "outcome": "left marked", "action": decision.action,
                      "why": rejected or "no usable softened text"}

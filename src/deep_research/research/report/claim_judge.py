"""The claim judge: a model decides the claims that the code rules could not.

Code rules (``citations.claims``) always run first and win: only claims they leave
``unchecked`` are sent, in batches, to the ``citation_check`` model, which answers
supports / partly / contradicts with a one-line reason. Calls are bounded
(``max_judge_calls``); claims beyond the bound stay ``unchecked`` and the run says so.
Verdicts are keyed by the exact claim and quotes (:func:`citations.evidence.claim_key`),
so a verdict never carries over to text that changed after it was judged.
"""

from __future__ import annotations

import asyncio
from typing import Literal

from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field

from ...citations.check import CitationReport
from ...citations.claims import ClaimStatus
from ...citations.evidence import claim_key
from .. import prompts
from ..runtime.deps import NodeContext
from ..runtime.meter import ModelCallError, describe
from ..state import error_record

BATCH = 12
CONCURRENCY = 4
MAX_CLAIM_CHARS = 600
MAX_QUOTE_CHARS = 600


class ClaimVerdict(BaseModel):
    item: int = Field(description="The item's number.")
    verdict: Literal["supports", "partly", "contradicts"]
    reason: str = Field("", description="One line: why.")


class ClaimVerdicts(BaseModel):
    verdicts: list[ClaimVerdict]


def pending_claims(report: CitationReport, known: dict) -> list[tuple[str, str, list[str]]]:
    """(key, claim, quotes) for each distinct claim the rules left unchecked and no judge
    has seen yet."""
    out, seen = [], set(known)
    for claim, cites in report.claim_citations():
        if cites[0].claim_status is not ClaimStatus.UNCHECKED or not claim.text.strip():
            continue
        quotes = [c.shown_quote for c in cites if c.check.found]
        if not quotes:
            continue
        key = claim_key(claim.text, quotes)
        if key not in seen:
            seen.add(key)
            out.append((key, claim.text, quotes))
    return out


def _items(batch: list[tuple[str, str, list[str]]]) -> str:
    lines = []
    for n, (_, claim, quotes) in enumerate(batch, start=1):
        shown = " | ".join(f'"{q[:MAX_QUOTE_CHARS]}"' for q in quotes)
        lines.append(f"{n}. Claim: {claim[:MAX_CLAIM_CHARS]}\n   Quotes: {shown}")
    return "\n".join(lines)


async def judge_claims(ctx: NodeContext, report: CitationReport, known: dict,
                       max_calls: int) -> tuple[dict, list[dict], int]:
    """Verdicts for the report's undecided claims: ({key: {verdict, reason}}, degradations,
    calls made). ``known`` holds verdicts from earlier passes (not asked again)."""
    if not ctx.cfg.judge_claims or max_calls <= 0:
        return {}, [], 0
    pending = pending_claims(report, known)
    if not pending:
        return {}, [], 0
    batches = [pending[i:i + BATCH] for i in range(0, len(pending), BATCH)]
    left_out = sum(len(b) for b in batches[max_calls:])
    batches = batches[:max_calls]
    model = await ctx.model("citation_check")
    sem = asyncio.Semaphore(CONCURRENCY)

    async def one(batch):
        prompt = prompts.JUDGE_CLAIMS.format(items=_items(batch), data_notice=prompts.DATA_NOTICE)
        async with sem:
            return await ctx.meter.structured(model, ClaimVerdicts, [HumanMessage(prompt)],
                                              ctx.cfg.structured_output)

    results = await asyncio.gather(*(one(b) for b in batches), return_exceptions=True)
    verdicts: dict[str, dict] = {}
    failed = 0
    for batch, result in zip(batches, results):
        if isinstance(result, BaseException):
            if not isinstance(result, ModelCallError):
                raise result
            failed += 1
            last = describe(result)[:160]
            continue
        for v in result.verdicts:
            if 1 <= v.item <= len(batch):
                verdicts[batch[v.item - 1][0]] = {"verdict": v.verdict, "reason": " ".join(v.reason.split())[:300]}
    degradations = []
    if failed:
        degradations.append(error_record("check_citations", f"the claim judge failed on {failed} of "
                                         f"{len(batches)} call(s) ({last}); those claims stay 'unchecked'"))
    if left_out:
        degradations.append(error_record("check_citations", f"{left_out} claim(s) were not judged (max_judge_calls "
                                         f"= {ctx.cfg.max_judge_calls}); they stay 'unchecked'"))
    return verdicts, degradations, len(batches)

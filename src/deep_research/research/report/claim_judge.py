"""The claim judge: a model decides the claims that the code rules could not, and code
checks what it says.

Code rules (``citations.claims``) always run first and win: only claims they leave
``unchecked`` are sent, in batches of :data:`BATCH`, to the ``citation_check`` model (and,
when ``judge_second_model`` is set, to that model too). For each claim the judge splits the
claim into atomic facts and, for each fact, copies the exact span(s) of the quotes that
state it, with the claim words it restates in other words aligned to their span words;
then it gives a verdict: supports / partly / contradicts / abstain.

Its answer is untrusted: the schema (:class:`ClaimVerdicts`) cuts lists and strings to
their bounds before validating, reads an unknown verdict as ``abstain``, and an item
answered twice counts as no answer. The verdicts are recorded as given, bounded
(``judgments[claim_key]``: the first judge's vote, ``model``, and with a second judge
``second``: its vote, or None when it failed). Whether a verdict counts is decided by code
at every check (:func:`citations.judgement.decide`): a "supports" turns the claim green
only when its evidence passes ``check_judge_evidence``.

Calls are bounded (``max_judge_calls`` counts every call, both judges'); claims beyond the
bound stay ``unchecked`` and the run says so. A failed call leaves its claims unjudged
(grey); a failed second judge is recorded as no vote, which also leaves them grey.
Verdicts are keyed by the exact claim and quotes (:func:`citations.evidence.claim_key`),
so a verdict never carries over to text that changed after it was judged.

Where it runs: the citation check node (``fixes.py``), on the final report before the
fix agent and again on the claims the fix agent rewrote, and after every revision of the
report (the review loop returns to that node; claims judged before are not asked again).
Researchers' findings and refined drafts get the code checks only (``clean_refs``).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from langchain_core.messages import HumanMessage
from pydantic import BaseModel, BeforeValidator, Field

from ...citations.check import CitationReport
from ...citations.claims import ClaimStatus
from ...citations.evidence import claim_key
from ...citations.judgement import (
    MAX_ALIGNED,
    MAX_FACT_CHARS,
    MAX_FACTS,
    MAX_REASON_CHARS,
    MAX_SPAN_CHARS,
    MAX_SPANS,
    MAX_WORD_CHARS,
    VERDICTS,
    bound_vote,
)
from .. import prompts
from ..runtime.deps import NodeContext
from ..runtime.meter import ModelCallError, describe
from ..state import error_record

BATCH = 8
CONCURRENCY = 4
MAX_CLAIM_CHARS = 600
MAX_QUOTE_CHARS = MAX_SPAN_CHARS  # the judge sees each quote up to this size: spans come from there
MAX_ANSWERS = 4 * BATCH  # verdicts read from one answer; more are cut before validation


def _cut(limit: int) -> BeforeValidator:
    """Cut a list (or a string) to ``limit`` before validation: a hostile answer costs no
    more than a bounded one."""
    return BeforeValidator(lambda v: v[:limit] if isinstance(v, list | str) else v)


def _verdict(v: Any) -> str:
    v = v.strip().lower() if isinstance(v, str) else ""
    return v if v in VERDICTS else "abstain"


class FactEvidence(BaseModel):
    fact: Annotated[str, _cut(MAX_FACT_CHARS)] = Field(
        "", description="One atomic fact the claim states, in a few words.")
    spans: Annotated[list[Annotated[str, _cut(MAX_SPAN_CHARS)]], _cut(MAX_SPANS)] = Field(
        default_factory=list, description="The exact text of the quotes that states this fact, copied character "
                                          "for character (one or more short spans); none if no quote states it.")
    aligned: Annotated[list[Annotated[list[Annotated[str, _cut(MAX_WORD_CHARS)]], _cut(2)]], _cut(MAX_ALIGNED)] = Field(
        default_factory=list, description="[claim word, span word] for each word of the fact that the spans say "
                                          "in other words, e.g. [\"uses\", \"employs\"].")


class ClaimVerdict(BaseModel):
    item: int = Field(description="The item's number.")
    verdict: Annotated[Literal["supports", "partly", "contradicts", "abstain"], BeforeValidator(_verdict)]
    facts: Annotated[list[FactEvidence], _cut(MAX_FACTS)] = Field(
        default_factory=list, description="The claim's atomic facts, each with the spans that state it.")
    reason: Annotated[str, _cut(MAX_REASON_CHARS)] = Field("", description="One line: why.")


class ClaimVerdicts(BaseModel):
    verdicts: Annotated[list[ClaimVerdict], _cut(MAX_ANSWERS)]


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
        lines.append(f"{n}. Claim: {' '.join(claim.split())[:MAX_CLAIM_CHARS]}")
        lines.extend(f"   Quote {i}: {' '.join(q.split())[:MAX_QUOTE_CHARS]}" for i, q in enumerate(quotes, 1))
    return "\n".join(lines)


def _votes(answer: ClaimVerdicts, size: int) -> dict[int, dict]:
    """Item number -> bounded vote; an item answered twice is no answer."""
    votes: dict[int, dict] = {}
    twice: set[int] = set()
    for v in answer.verdicts:
        if not 1 <= v.item <= size:
            continue
        if v.item in votes:
            twice.add(v.item)
        votes[v.item] = bound_vote(v.model_dump())
    for item in twice:
        votes[item] = bound_vote({"verdict": "abstain", "reason": "the judge answered this item twice"})
    return votes


async def judge_claims(ctx: NodeContext, report: CitationReport, known: dict,
                       max_calls: int) -> tuple[dict, list[dict], int]:
    """Judge records for the report's undecided claims: ({key: record}, degradations,
    calls made). ``known`` holds records from earlier passes (not asked again)."""
    if not ctx.cfg.judge_claims or max_calls <= 0:
        return {}, [], 0
    pending = pending_claims(report, known)
    if not pending:
        return {}, [], 0
    second_spec = ctx.cfg.judge_second_spec()
    per_batch = 2 if second_spec else 1
    batches = [pending[i:i + BATCH] for i in range(0, len(pending), BATCH)]
    fit = max_calls // per_batch
    left_out = sum(len(b) for b in batches[fit:])
    batches = batches[:fit]
    if not batches:
        return {}, [_over_bound(ctx, left_out)], 0
    first = await ctx.model("citation_check")
    first_name = ":".join(ctx.cfg.model_id("citation_check"))
    second = await ctx.deps.model_for(second_spec) if second_spec else None
    second_name = f"{second_spec['provider']}:{second_spec['model']}" if second_spec else None
    sem = asyncio.Semaphore(CONCURRENCY)

    async def ask(model, batch):
        prompt = prompts.JUDGE_CLAIMS.format(items=_items(batch), data_notice=prompts.DATA_NOTICE)
        async with sem:
            return await ctx.meter.structured(model, ClaimVerdicts, [HumanMessage(prompt)], ctx.cfg.structured_output)

    calls = [ask(first, b) for b in batches] + ([ask(second, b) for b in batches] if second else [])
    results = await asyncio.gather(*calls, return_exceptions=True)
    for r in results:
        if isinstance(r, BaseException) and not isinstance(r, ModelCallError):
            raise r
    firsts, seconds = results[:len(batches)], results[len(batches):]
    records: dict[str, dict] = {}
    failed = {"first": [], "second": []}
    for i, batch in enumerate(batches):
        one = firsts[i]
        if isinstance(one, BaseException):
            failed["first"].append(describe(one)[:160])
            continue
        mine = _votes(one, len(batch))
        theirs = None
        if second is not None:
            two = seconds[i]
            if isinstance(two, BaseException):
                failed["second"].append(describe(two)[:160])
            else:
                theirs = _votes(two, len(batch))
        for n, (key, _, _) in enumerate(batch, start=1):
            if n not in mine:
                continue  # not answered: stays unjudged
            record = {**mine[n], "model": first_name}
            if second is not None:
                vote = (theirs or {}).get(n)
                record["second"] = {**vote, "model": second_name} if vote else None
            records[key] = record
    degradations = []
    if failed["first"]:
        degradations.append(error_record(
            "check_citations", f"the claim judge failed on {len(failed['first'])} of {len(batches)} call(s) "
            f"({failed['first'][-1]}); those claims stay 'unchecked'"))
    if failed["second"]:
        degradations.append(error_record(
            "check_citations", f"the second claim judge ({second_name}) failed on {len(failed['second'])} of "
            f"{len(batches)} call(s) ({failed['second'][-1]}); without its vote those claims stay 'unchecked'"))
    if left_out:
        degradations.append(_over_bound(ctx, left_out))
    return records, degradations, len(calls)


def _over_bound(ctx: NodeContext, left_out: int) -> dict:
    return error_record("check_citations", f"{left_out} claim(s) were not judged (max_judge_calls = "
                        f"{ctx.cfg.max_judge_calls}); they stay 'unchecked'")

"""Final report, the citation check, and publishing."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from typing import Any, Literal

from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field
from rapidfuzz import fuzz, process

from ..citations.check import Citation, check_citations, check_claims
from ..citations.claims import Claim, ClaimStatus, check_claim
from ..citations.edit import claim_unit, ref_tag
from ..citations.model import Source, Verdict
from ..citations.refs import replace_spans
from ..citations.verify import SourceIndex
from ..language import detect_language, labels, language_name
from ..publish import publish_report, write_atomic
from ..publish.markdown import strip_findings
from ..publish.safety import local_file_urls, safe_markdown
from . import prompts
from .chat import report_message
from .common import (
    RUN_MARKER,
    Deps,
    NodeContext,
    ResearchFailed,
    asave_notes,
    notes_markdown,
    run_dir,
    run_record,
)
from .judge import judge_claims
from .models import Meter, ModelCallError, describe, is_transient
from .plan import uncovered_limitations
from .report_format import count_words, format_problems, target_words, writer_parts
from .state import ResearchState, error_record
from .themes import make_themes, themed_findings

log = logging.getLogger(__name__)
MAX_FIXES = 25
FIX_CONCURRENCY = 4
NO_SEARCH_LIMITATION = ("No search was done (search_api is none): this report is written from the model's own "
                        "knowledge, without sources or checked citations. Verify its claims independently.")


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


class ReportNodes:
    def __init__(self, deps: Deps):
        self.deps = deps

    async def final_report_generation(self, state: ResearchState, config, runtime) -> dict:
        ctx = NodeContext.make("final_report_generation", self.deps, config, runtime)
        ctx.progress(stage="final report")
        notes = [*(state.get("prior_notes") or []), *(state.get("notes") or [])]  # a follow-up builds on earlier findings
        cited = [n for n in notes if "<ref" in (n.get("findings") or "")]
        if not cited and not ctx.cfg.without_sources and nothing_found(state):
            return await self._no_evidence_report(ctx, state)
        if not cited and not ctx.cfg.without_sources:
            path = await asave_notes(ctx.cfg, state, ctx.thread_id, ctx.checkpoint)
            failed = [e["message"] for e in state.get("errors") or []][-3:]
            stopped = [d["message"] for d in state.get("degradations") or []
                       if d.get("stage") in ("supervisor", "single_research")
                       and d.get("message", "").startswith("research stopped")]
            why = why_nothing_cited(state)
            raise ResearchFailed("final_report_generation",
                                 "no research produced citable findings, so no report was written"
                                 + (f": {why}" if why else "")
                                 + (f" ({stopped[-1]})" if stopped else "")
                                 + (f" (last errors: {'; '.join(failed)})" if failed else ""),
                                 str(path) if path else None)
        no_search = ctx.cfg.without_sources
        themes, units = await asyncio.to_thread(make_themes, notes)  # the section plan (themes.py)
        findings = themed_findings(themes, units) if themes else (
            prompts.NO_SEARCH_FINDINGS if no_search else "(no findings)")
        # a failure the run was resumed from is history, not a limitation of this report
        limits = [e["message"] for e in state.get("errors") or [] if e.get("kind") != "failed"]
        limits += [d["message"] for d in state.get("degradations") or []
                   if (d.get("stage") in ("supervisor", "researcher", "approve_research_brief", "single_research")
                       or (d.get("stage") == "brief_council" and d.get("kind") == "unresolved_feedback"))
                   and d.get("kind") != "shortened"]
        limitations = prompts.LIMITATIONS.format(items="\n".join(f"- {x}" for x in dict.fromkeys(limits))) \
            if limits else ""
        lang = state.get("language") or await asyncio.to_thread(detect_language, state.get("question", ""))
        language = language_name(lang)
        prompt = prompts.FINAL_REPORT.format(date=ctx.today, brief=state.get("research_brief", ""),
                                             draft=state.get("draft_report", ""), findings=findings,
                                             limitations=limitations, language=language,
                                             data_notice=prompts.DATA_NOTICE,
                                             **writer_parts(ctx.cfg, state.get("question", "")))
        try:
            report = await ctx.meter.text(await ctx.model("final_report"), [HumanMessage(prompt)],
                                          what="report")
        except ModelCallError as e:
            path = await asave_notes(ctx.cfg, state, ctx.thread_id, ctx.checkpoint)
            raise ResearchFailed("final_report_generation", str(e), str(path) if path else None) from e
        report, format_degradations = await self._keep_format(ctx, report, labels(lang))
        shortened = ctx.shortened("findings")
        note = ("the findings were too long for the report model's context window; part of them was left "
                "out of this report")
        extra = [note] if shortened else []
        extra += uncovered_limitations(state.get("coverage"))  # by code: the plan's uncovered sub-questions
        if no_search:  # said by code, whatever the model wrote
            extra.insert(0, NO_SEARCH_LIMITATION)
        degradations = [*format_degradations, *shortened]
        return {**ctx.usage_update(), **({"degradations": degradations} if degradations else {}),
                "final_report": with_limitations(report, list(dict.fromkeys(limits)), extra, labels(lang)),
                "themes": themes, "stage": "final report"}

    async def _keep_format(self, ctx: NodeContext, report: str, words: dict) -> tuple[str, list[dict]]:
        """The report checked against its format and length (report_format.py): one bounded
        revision when it is far off, kept when it is closer; a degradation when it stays off."""
        fmt = ctx.cfg.report_format
        target = target_words(fmt, ctx.cfg.report_length)
        names = {"limitation", words["limitations"].lower(), words["further_limitations"].lower()}
        problems = format_problems(report, fmt, ctx.cfg.report_length, names)
        if not problems:
            return report, []
        prompt = prompts.REVISE_FORMAT.format(data_notice=prompts.DATA_NOTICE, report=report,
                                              problems="\n".join(f"- {p}" for p in problems))
        try:
            revised = await ctx.meter.text(await ctx.model("final_report"), [HumanMessage(prompt)],
                                           what="report revision")
        except ModelCallError as e:
            return report, [error_record("final_report_generation", "the report is not in its format and the "
                                         f"revision failed ({describe(e)[:200]}): " + " ".join(problems),
                                         kind="format")]
        left = format_problems(revised, fmt, ctx.cfg.report_length, names)
        if _off_by(left, revised, target) <= _off_by(problems, report, target):
            report, problems = revised, left
        if not problems:
            return report, []
        return report, [error_record("final_report_generation", "after one revision the report is still not "
                                     "in its format: " + " ".join(problems), kind="format")]

    async def _no_evidence_report(self, ctx: NodeContext, state: ResearchState) -> dict:
        """The searches worked and found nothing on the question: a short report that says
        so, with no citations (any the model adds are removed), instead of a failed run."""
        topics = "\n".join(f"- {e.get('topic', '')}" for e in state.get("research_log") or []) or "(none)"
        lang = state.get("language") or await asyncio.to_thread(detect_language, state.get("question", ""))
        prompt = prompts.NO_EVIDENCE_REPORT.format(
            date=ctx.today, brief=state.get("research_brief", ""), topics=topics, data_notice=prompts.DATA_NOTICE,
            language=language_name(lang))
        try:
            report = await ctx.meter.text(await ctx.model("final_report"), [HumanMessage(prompt)], what="report")
        except ModelCallError as e:
            path = await asave_notes(ctx.cfg, state, ctx.thread_id, ctx.checkpoint)
            raise ResearchFailed("final_report_generation", str(e), str(path) if path else None) from e
        report = _ANY_REF.sub("", report)
        limit = "the sources searched hold no information that answers the question; nothing in this report is cited"
        return {**ctx.usage_update(), "final_report": with_limitations(report, [limit], None, labels(lang)),
                "stage": "final report",
                "degradations": [error_record("final_report_generation", "no source answered the question; the "
                                              "report says so and cites nothing", kind="no_evidence")]}

    async def check_citations(self, state: ResearchState, config, runtime) -> dict:
        """Code checks every quote against its page and every claim against its quotes; a
        judge model decides the claims the rules cannot; an agent proposes fixes for the
        citations that fail, and code checks each fix (quote and claim) again."""
        ctx = NodeContext.make("check_citations", self.deps, config, runtime)
        ctx.progress(stage="citation check")
        sources, missing = await ctx.pages.load_sources(state.get("sources") or {})
        update: dict[str, Any] = {"stage": "citation check", "degradations": []}
        if missing:
            update["degradations"] = [error_record("check_citations",
                                                   f"content of {len(missing)} source(s) is missing from the store")]
        markdown = strip_findings(state.get("final_report", ""))[0]
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
        checked = replace_spans(markdown, edits)
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
            "fixed_by_agent": sum(1 for f in fixes if f.get("outcome") == "fixed"),
            "removed_by_agent": sum(1 for f in fixes if f.get("outcome") == "removed"),
            "claims": len(final.claim_citations()),
            "claims_supported": final.claim_count(ClaimStatus.SUPPORTED),
            "claims_unsupported": final.claim_count(ClaimStatus.UNSUPPORTED),
            "claims_unchecked": final.claim_count(ClaimStatus.UNCHECKED),
            "claims_judged": len(judgments),
        }
        ui = await asyncio.to_thread(  # the output policy: what a UI shows of this state is inert
            lambda: safe_markdown(checked, local_files=local_file_urls(final.sources), keep_refs=True).text)
        return {**update, **ctx.usage_update(), "report_markdown": ui, "citation_fixes": fixes,
                "citation_summary": summary, "claim_judgments": judgments}

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
        other_text = "".join(f'<source id="{sid}">{p}</source>\n' for _, sid, p in others[:3])
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
                exact = " ".join(index.source(check.source_id).page.text[check.start:check.end].split())
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

    async def publish(self, state: ResearchState, config, runtime) -> dict:
        ctx = NodeContext.make("publish", self.deps, config, runtime)
        ctx.progress(stage="publish")
        sources, _ = await ctx.pages.load_sources(state.get("sources") or {})
        markdown = state.get("report_markdown") or state.get("final_report", "")
        try:
            files, summary, ui, degradations = await asyncio.to_thread(
                _write_outputs, ctx.cfg, state, ctx.thread_id, markdown, sources, ctx.meter, ctx.checkpoint)
        except Exception as e:  # noqa: BLE001 - reported as the run's failure, notes kept
            notes = await asave_notes(ctx.cfg, state, ctx.thread_id, ctx.checkpoint)
            raise ResearchFailed("publish", describe(e), str(notes) if notes else None) from e
        update: dict[str, Any] = {"degradations": degradations} if degradations else {}
        citation_summary = {**(state.get("citation_summary") or {}), **summary}
        return {**update, **ctx.usage_update(), "outputs": files, "report_markdown": ui,
                "citation_summary": citation_summary, "messages": [report_message(ui, citation_summary, files, state.get("language"))],
                "status": "completed", "stage": "done", "run_dir": files["dir"]}


_ANY_REF = re.compile(r"<ref\b[^>]*>.*?</ref\s*>|</?ref\b[^>]*>", re.I | re.S)
NO_SOURCES_ERROR = "no sources were found"
NO_SOURCES = f"research unit failed: {NO_SOURCES_ERROR}"


def nothing_found(state: dict) -> bool:
    """Whether research ran and found nothing on the question, so the report may say the
    sources hold nothing that answers it: no research unit read a page with a verified
    sentence on its topic (nor one whose summary quoted sentences that failed the check),
    every unit's searches worked and each unit failed for that reason alone, and no budget
    cut research short. Anything less known is not "nothing found"."""
    log = state.get("research_log") or []
    if not log or state.get("budget_exhausted"):
        return False
    for entry in log:
        if entry.get("ok") or entry.get("citations") or entry.get("verified_sentences") \
                or entry.get("unverified_sentences"):
            return False
        if not (entry.get("no_evidence") or entry.get("error") == NO_SOURCES_ERROR):
            return False
    errors = state.get("errors") or []
    return all(e.get("stage") == "researcher" and (e.get("kind") == "no_evidence" or e.get("message") == NO_SOURCES)
               for e in errors)


def why_nothing_cited(state: dict) -> str:
    """Why research that read pages has nothing to cite (empty when it read nothing)."""
    log = state.get("research_log") or []
    pages = sum(int(e.get("pages_read") or 0) for e in log)
    verified = sum(int(e.get("verified_sentences") or 0) for e in log)
    unverified = sum(int(e.get("unverified_sentences") or 0) for e in log)
    if verified:
        return (f"the research read {pages} page(s) and verified {verified} sentence(s) on them, but no citation "
                "of them passed the checks")
    if unverified:
        return (f"the research read {pages} page(s), but none of the {unverified} sentence(s) quoted from them is "
                "on its page")
    return ""


def with_limitations(report: str, limits: list[str], always: list[str] | None = None,
                     words: dict | None = None) -> str:
    """The report, with a limitations section added by code when the model left it out:
    research that is missing is never silently missing from the report. ``always`` are
    limitations the model could not know about (added in any case). ``words``: the run's
    language's labels (the heading is in the report's language)."""
    words = words or labels("en")
    names = {"limitation", words["limitations"].lower()}
    stated = re.search(r"^(?:#{1,6}\s+|\*\*|__)[^\n]*(?:" + "|".join(map(re.escape, names)) + ")", report,
                       re.IGNORECASE | re.MULTILINE)
    items = ([] if stated else list(limits)) + list(always or [])
    if not items:
        return report
    title = f"## {words['further_limitations']}" if stated else f"## {words['limitations']}"
    section = f"{title}\n\n" + "\n".join(f"- {x}" for x in items) + "\n"
    sources = list(re.finditer(r"^## (?:Sources|" + re.escape(words["sources"]) + r")\s*$", report, re.MULTILINE))
    if sources:
        at = sources[-1].start()
        return report[:at] + section + "\n" + report[at:]
    return report.rstrip() + "\n\n" + section


def _write_outputs(cfg, state: dict, thread_id: str, markdown: str, sources: list[Source], meter: Meter,
                   checkpoint: str | None = None):
    """All file writing of the publish step (blocking I/O, run in a worker thread). A PDF
    that fails for a transient reason (timeout, lost connection) is tried again (bounded);
    without it the markdown and HTML still count (recorded as a degradation)."""
    folder = run_dir(cfg, state, thread_id, checkpoint)
    degradations = []
    attempt = 0
    while True:
        try:
            result = publish_report(markdown, sources, folder, pdf=cfg.write_pdf, lang=state.get("language"),
                                    findings=cfg.verified_findings, judgments=state.get("claim_judgments"),
                                    docx=cfg.write_docx, citation_style=cfg.citation_style)
            break
        except Exception as e:  # noqa: BLE001 - without the PDF, markdown and HTML still count
            if not cfg.write_pdf:
                raise
            if is_transient(e) and attempt < cfg.max_retries:
                attempt += 1
                meter.usage.retries += 1
                delay = meter.backoff(attempt)
                log.warning("publish: PDF failed (%s); retry %d/%d in %.1fs", describe(e), attempt,
                            cfg.max_retries, delay)
                time.sleep(delay)
                continue
            degradations.append(error_record("publish", f"PDF not written: {describe(e)}"))
            result = publish_report(markdown, sources, folder, pdf=False, lang=state.get("language"),
                                    findings=cfg.verified_findings, judgments=state.get("claim_judgments"),
                                    docx=cfg.write_docx, citation_style=cfg.citation_style)
            break
    degradations += [error_record("publish", f"PDF: {m.message}") for m in result.missing_glyphs]
    degradations += [error_record("publish", d["reason"]) for d in result.output_policy.get("degraded", [])]
    notes, raw = notes_markdown(state)
    write_atomic(folder / "notes.md", notes)
    write_atomic(folder / "raw_notes.md", raw)
    if checkpoint:  # this folder's report belongs to this checkpoint (see run_dir)
        write_atomic(folder / RUN_MARKER, json.dumps({"thread": thread_id, "checkpoint": checkpoint}) + "\n")
    record = run_record(cfg, state, thread_id)
    write_atomic(folder / "run.json", json.dumps(record, ensure_ascii=False, indent=2) + "\n")
    files = {"dir": str(folder), **{k: str(v) for k, v in result.files.items()},
             "notes": str(folder / "notes.md"), "raw_notes": str(folder / "raw_notes.md"),
             "run": str(folder / "run.json")}
    ui = result.files["markdown"].read_text(encoding="utf-8")
    return files, result.summary(), ui, degradations


def _off_by(problems: list[str], report: str, target: int | None) -> float:
    """How far a report is from its format: problems first, then distance from the target."""
    return len(problems) + (abs(count_words(report) - target) / target if target else 0.0)


_REF_START = re.compile(r"<ref\b")


def _without_refs(text: str) -> str:
    """``text`` without <ref …>…</ref> spans (one pass: an opener without a closer ends the
    search, where a lazy regex would rescan the rest of the text for every opener)."""
    out, pos = [], 0
    for m in _REF_START.finditer(text):
        if m.start() < pos:
            continue
        close = text.find("</ref>", m.end())
        if close == -1:
            break
        out.append(text[pos:m.start()])
        pos = close + len("</ref>")
    out.append(text[pos:])
    return "".join(out)


def _non_overlapping(edits: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    end = -1
    for e in sorted(edits):
        if e[0] >= end:
            out.append(e)
            end = e[1]
    return out

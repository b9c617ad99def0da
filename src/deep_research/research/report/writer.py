"""The final report: written from the themed findings, kept to its format and length, with
the limitations code adds; or, when the searches found nothing, a short report that says so."""

from __future__ import annotations

import asyncio
import re

from langchain_core.messages import HumanMessage

from ...citations.document.sections import with_limitations as document_with_limitations
from ...language import detect_language, labels, language_name
from .. import prompts
from .format import (
    count_words,
    format_problems,
    target_words,
    writer_parts,
)
from ..runtime.deps import Deps, NodeContext, run_spent
from ..runtime.failure import ResearchFailed
from ..runtime.meter import BudgetExceeded, ModelCallError, describe
from ..runtime.run_folder import asave_notes
from ..scope.plan import uncovered_limitations
from ..state import ResearchState, error_record
from .themes import make_themes, themed_findings


NO_SEARCH_LIMITATION = ("No search was done (search_api is none): this report is written from the model's own "
                        "knowledge, without sources or checked citations. Verify its claims independently.")


class WriterNodes:
    def __init__(self, deps: Deps):
        self.deps = deps

    async def final_report_generation(self, state: ResearchState, config, runtime) -> dict:
        ctx = NodeContext.make("final_report_generation", self.deps, config, runtime, spent=run_spent(state))
        ctx.progress(stage="final report")
        notes = [*(state.get("prior_notes") or []), *(state.get("notes") or [])]  # a follow-up builds on earlier findings
        cited = [n for n in notes if "<ref" in (n.get("findings") or "")]
        if not cited and not ctx.cfg.without_sources and nothing_found(state):
            return await self._no_evidence_report(ctx, state)
        stopped = [d["message"] for d in state.get("degradations") or []
                   if d.get("stage") in ("supervisor", "single_research")
                   and d.get("message", "").startswith("research stopped")]
        if not cited and not ctx.cfg.without_sources and state.get("budget_exhausted") and _draft(state):
            # a cap stopped research before it found anything: the report written so far is published
            return await self._draft_as_report(ctx, state, stopped[-1] if stopped else "research stopped early")
        if not cited and not ctx.cfg.without_sources:
            path = await asave_notes(ctx.cfg, state, ctx.thread_id, ctx.checkpoint)
            failed = [e["message"] for e in state.get("errors") or []][-3:]
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
        except BudgetExceeded as e:
            if _draft(state):  # the cap holds and the report written so far is published
                return await self._draft_as_report(ctx, state, str(e))
            path = await asave_notes(ctx.cfg, state, ctx.thread_id, ctx.checkpoint)
            raise ResearchFailed("final_report_generation", str(e), str(path) if path else None) from e
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
        """The report checked against its format and length (format.py): one bounded
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

    async def _draft_as_report(self, ctx: NodeContext, state: ResearchState, why: str) -> dict:
        """The draft as research last refined it, published as the report when a cap leaves
        no room to write one (or stopped research before it found anything): the report written
        so far is not lost, and its limitations say what happened. Its citations are checked
        like any report's."""
        lang = state.get("language") or await asyncio.to_thread(detect_language, state.get("question", ""))
        limits = [d["message"] for d in state.get("degradations") or []
                  if d.get("stage") in ("supervisor", "researcher", "single_research") and d.get("kind") != "shortened"
                  and d["message"] != why]
        note = (f"the final report was not written within the run's cap ({why}); this is the research draft as "
                "last refined, not a report written from all the findings")
        return {**ctx.usage_update(), "stage": "final report",
                "final_report": with_limitations(_draft(state), list(dict.fromkeys(limits)), [note], labels(lang)),
                "degradations": [error_record("final_report_generation", note, kind="budget")]}

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


_ANY_REF = re.compile(r"<ref\b[^>]*>.*?</ref\s*>|</?ref\b[^>]*>", re.I | re.S)


NO_SOURCES_ERROR = "no sources were found"
NO_SOURCES = f"research unit failed: {NO_SOURCES_ERROR}"


def _draft(state: dict) -> str:
    """The draft report as research last refined it ("" when there is none)."""
    return (state.get("draft_report") or "").strip()


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
    language's labels (the heading is in the report's language). Read on the parsed report
    (a "Limitations" heading inside a code block is code, not the report's section)."""
    return document_with_limitations(report, limits, always, words or labels("en"))


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


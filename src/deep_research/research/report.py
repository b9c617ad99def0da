"""Final report, the citation check, and publishing."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from typing import Any, Literal

from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field
from rapidfuzz import fuzz, process

from ..citations.check import Citation, check_citations
from ..citations.edit import ref_tag
from ..citations.model import Source, Verdict
from ..citations.refs import replace_spans
from ..citations.verify import SourceIndex
from ..publish import detect_lang, publish_report, write_atomic
from ..publish.safety import local_file_urls, safe_markdown
from . import prompts
from .common import Deps, NodeContext, ResearchFailed, asave_notes, notes_markdown, run_dir
from .models import Meter, ModelCallError, describe, is_transient
from .state import ResearchState, error_record

log = logging.getLogger(__name__)
MAX_FIXES = 25
FIX_CONCURRENCY = 4
_LANG_NAMES = {"en": "English", "zh": "Chinese", "ja": "Japanese", "ko": "Korean"}


class FixCitation(BaseModel):
    action: Literal["replace", "repoint", "remove"]
    quote: str = Field("", description="For replace/repoint: a sentence copied exactly from the source.")
    source_id: str = Field("", description="For repoint: the id of the source that supports the claim.")
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


def claim_span(markdown: str, ref_start: int) -> int:
    """Where the sentence that a ref supports begins."""
    floor = max(markdown.rfind("\n", 0, ref_start), markdown.rfind("</ref>", 0, ref_start) + 5)
    cut = floor + 1
    for m in re.finditer(r"[.!?。！？]\s", markdown[cut:ref_start]):
        cut_candidate = cut + m.end()
        if cut_candidate < ref_start - 1:
            cut = cut_candidate
    return cut


class ReportNodes:
    def __init__(self, deps: Deps):
        self.deps = deps

    async def final_report_generation(self, state: ResearchState, config, runtime) -> dict:
        ctx = NodeContext.make("final_report_generation", self.deps, config, runtime)
        ctx.progress(stage="final report")
        notes = state.get("notes") or []
        cited = [n for n in notes if "<ref" in (n.get("findings") or "")]
        if not cited and ctx.cfg.search_api.value != "none":
            path = await asave_notes(ctx.cfg, state, ctx.thread_id)
            failed = [e["message"] for e in state.get("errors") or []][-3:]
            stopped = [d["message"] for d in state.get("degradations") or []
                       if d.get("stage") == "supervisor" and d.get("message", "").startswith("research stopped")]
            raise ResearchFailed("final_report_generation",
                                 "no research produced citable findings, so no report was written"
                                 + (f" ({stopped[-1]})" if stopped else "")
                                 + (f" (last errors: {'; '.join(failed)})" if failed else ""),
                                 str(path) if path else None)
        findings = "\n\n".join(f"### {n['topic']}\n{n['findings']}" for n in notes) or "(no findings)"
        limits = [e["message"] for e in state.get("errors") or []]
        limits += [d["message"] for d in state.get("degradations") or []
                   if d.get("stage") in ("supervisor", "researcher") and d.get("kind") != "shortened"]
        if ctx.cfg.search_api.value == "none":
            limits.append("no search was configured: the report is written without sources")
        limitations = prompts.LIMITATIONS.format(items="\n".join(f"- {x}" for x in dict.fromkeys(limits))) \
            if limits else ""
        question = state.get("question", "")
        language = _LANG_NAMES.get(detect_lang(question), "the language of: " + question[:200])
        prompt = prompts.FINAL_REPORT.format(date=ctx.today, brief=state.get("research_brief", ""),
                                             draft=state.get("draft_report", ""), findings=findings,
                                             limitations=limitations, language=language,
                                             data_notice=prompts.DATA_NOTICE)
        try:
            report = await ctx.meter.text(await ctx.model("final_report"), [HumanMessage(prompt)],
                                          what="report")
        except ModelCallError as e:
            path = await asave_notes(ctx.cfg, state, ctx.thread_id)
            raise ResearchFailed("final_report_generation", str(e), str(path) if path else None) from e
        shortened = ctx.shortened("findings")
        note = ("the findings were too long for the report model's context window; part of them was left "
                "out of this report")
        extra = [note] if shortened else []
        return {**ctx.usage_update(), **({"degradations": shortened} if shortened else {}),
                "final_report": with_limitations(report, list(dict.fromkeys(limits)), extra),
                "stage": "final report"}

    async def check_citations(self, state: ResearchState, config, runtime) -> dict:
        """Code checks every quote against its page; an agent proposes fixes for the ones
        that fail, and code checks the fixes again."""
        ctx = NodeContext.make("check_citations", self.deps, config, runtime)
        ctx.progress(stage="citation check")
        sources, missing = await ctx.pages.load_sources(state.get("sources") or {})
        update: dict[str, Any] = {"stage": "citation check", "degradations": []}
        if missing:
            update["degradations"] = [error_record("check_citations",
                                                   f"content of {len(missing)} source(s) is missing from the store")]
        markdown = state.get("final_report", "")
        report = await asyncio.to_thread(check_citations, markdown, sources)
        bad = [c for c in report.citations if c.status is Verdict.UNSUPPORTED][:MAX_FIXES]
        index = SourceIndex(sources)
        fixes: list[dict] = []
        sem = asyncio.Semaphore(FIX_CONCURRENCY)

        async def fix(c: Citation) -> tuple[tuple[int, int, str] | None, dict]:
            async with sem:
                return await self._fix_one(ctx, markdown, c, sources, index)

        results = await asyncio.gather(*(fix(c) for c in bad))
        edits = []
        agent_failed = 0
        for edit, record in results:
            fixes.append(record)
            agent_failed += bool(record.get("agent_failed"))
            if edit:
                edits.append(edit)
        if agent_failed:
            update["degradations"].append(error_record(
                "check_citations", f"the citation-check model failed on {agent_failed} of {len(bad)} unsupported "
                "citation(s); they are left marked unsupported"))
        update["degradations"].extend(ctx.shortened("citation context"))
        if not update["degradations"]:
            del update["degradations"]
        edits = _non_overlapping(edits)
        checked = replace_spans(markdown, edits)
        final = await asyncio.to_thread(check_citations, checked, sources)
        summary = {
            "refs": len(final.citations),
            "verified": final.count(Verdict.VERIFIED),
            "repaired": final.count(Verdict.REPAIRED),
            "unsupported": final.count(Verdict.UNSUPPORTED),
            "fixed_by_agent": sum(1 for f in fixes if f.get("outcome") == "fixed"),
            "removed_by_agent": sum(1 for f in fixes if f.get("outcome") == "removed"),
        }
        ui = await asyncio.to_thread(  # the output policy: what a UI shows of this state is inert
            lambda: safe_markdown(checked, local_files=local_file_urls(final.sources), keep_refs=True).text)
        return {**update, **ctx.usage_update(), "report_markdown": ui, "citation_fixes": fixes,
                "citation_summary": summary}

    async def _fix_one(self, ctx: NodeContext, markdown: str, c: Citation, sources: list[Source],
                       index: SourceIndex) -> tuple[tuple[int, int, str] | None, dict]:
        start = claim_span(markdown, c.ref.start)
        claim = _without_refs(markdown[start : c.ref.start]).strip()
        record = {"ref": c.ref.index + 1, "source_id": c.ref.source_id, "quote": c.ref.quote}
        cited = next((s for s in sources if s.id == c.ref.source_id), None)
        passages = closest_passages(cited, c.ref.quote) if cited else []
        others = []
        for s in sources:
            if s is cited:
                continue
            best = closest_passages(s, claim + " " + c.ref.quote, k=1)
            if best:
                others.append((fuzz.token_set_ratio(c.ref.quote, best[0]), s.id, best[0]))
        others.sort(reverse=True)
        other_text = "".join(f'<source id="{sid}">{p}</source>\n' for _, sid, p in others[:3])
        prompt = prompts.FIX_CITATION.format(
            claim=claim or "(no text before the citation)", source_id=c.ref.source_id, quote=c.ref.quote,
            passages="\n".join(f"- {p}" for p in passages) or "(the cited source is unknown or empty)",
            other_sources=f"\nOther sources:\n{other_text}" if other_text else "",
            data_notice=prompts.DATA_NOTICE)
        try:
            decision = await ctx.meter.structured(await ctx.model("citation_check"), FixCitation,
                                                  [HumanMessage(prompt)], ctx.cfg.structured_output)
        except ModelCallError as e:
            return None, {**record, "outcome": "left unsupported", "why": describe(e)[:200], "agent_failed": True}
        if decision.action in ("replace", "repoint"):
            sid = decision.source_id.strip() if decision.action == "repoint" else c.ref.source_id
            check = index.verify(decision.quote, sid or c.ref.source_id)
            if check.found and check.source_id is not None:
                exact = index.source(check.source_id).page.text[check.start : check.end]
                record.update(outcome="fixed", action=decision.action, new_source_id=check.source_id,
                              new_quote=" ".join(exact.split()))
                return (c.ref.start, c.ref.end, ref_tag(check.source_id, exact)), record
            return None, {**record, "outcome": "left unsupported", "action": decision.action,
                          "why": "the proposed sentence is not in the source either"}
        softened = " ".join(decision.softened_text.split())
        if not softened or "<ref" in softened:
            return None, {**record, "outcome": "left unsupported", "why": "no usable softened text"}
        record.update(outcome="removed", action="remove", softened_text=softened)
        # keep the whitespace before the claim; replace claim + citation with the softened claim
        return (start, c.ref.end, softened), record

    async def publish(self, state: ResearchState, config, runtime) -> dict:
        ctx = NodeContext.make("publish", self.deps, config, runtime)
        ctx.progress(stage="publish")
        sources, _ = await ctx.pages.load_sources(state.get("sources") or {})
        markdown = state.get("report_markdown") or state.get("final_report", "")
        try:
            files, summary, ui, degradations = await asyncio.to_thread(
                _write_outputs, ctx.cfg, state, ctx.thread_id, markdown, sources, ctx.meter)
        except Exception as e:  # noqa: BLE001 - reported as the run's failure, notes kept
            notes = await asave_notes(ctx.cfg, state, ctx.thread_id)
            raise ResearchFailed("publish", describe(e), str(notes) if notes else None) from e
        update: dict[str, Any] = {"degradations": degradations} if degradations else {}
        return {**update, **ctx.usage_update(), "outputs": files, "report_markdown": ui,
                "citation_summary": {**(state.get("citation_summary") or {}), **summary},
                "status": "completed", "stage": "done", "run_dir": files["dir"]}


def with_limitations(report: str, limits: list[str], always: list[str] | None = None) -> str:
    """The report, with a limitations section added by code when the model left it out:
    research that is missing is never silently missing from the report. ``always`` are
    limitations the model could not know about (added in any case)."""
    stated = re.search(r"^(?:#{1,6}\s+|\*\*|__)[^\n]*limitation", report, re.IGNORECASE | re.MULTILINE)
    items = ([] if stated else list(limits)) + list(always or [])
    if not items:
        return report
    title = "## Further limitations" if stated else "## Limitations"
    section = f"{title}\n\n" + "\n".join(f"- {x}" for x in items) + "\n"
    sources = list(re.finditer(r"^## Sources\s*$", report, re.MULTILINE))
    if sources:
        at = sources[-1].start()
        return report[:at] + section + "\n" + report[at:]
    return report.rstrip() + "\n\n" + section


def _write_outputs(cfg, state: dict, thread_id: str, markdown: str, sources: list[Source], meter: Meter):
    """All file writing of the publish step (blocking I/O, run in a worker thread). A PDF
    that fails for a transient reason (timeout, lost connection) is tried again (bounded);
    without it the markdown and HTML still count (recorded as a degradation)."""
    folder = run_dir(cfg, state, thread_id)
    degradations = []
    attempt = 0
    while True:
        try:
            result = publish_report(markdown, sources, folder, pdf=cfg.write_pdf)
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
            result = publish_report(markdown, sources, folder, pdf=False)
            break
    degradations += [error_record("publish", d["reason"]) for d in result.output_policy.get("degraded", [])]
    notes, raw = notes_markdown(state)
    write_atomic(folder / "notes.md", notes)
    write_atomic(folder / "raw_notes.md", raw)
    files = {"dir": str(folder), **{k: str(v) for k, v in result.files.items()},
             "notes": str(folder / "notes.md"), "raw_notes": str(folder / "raw_notes.md")}
    ui = result.files["markdown"].read_text(encoding="utf-8")
    return files, result.summary(), ui, degradations


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

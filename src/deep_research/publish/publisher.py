"""Publishing: checked citations -> UI markdown, linked markdown, HTML, PDF, Word, audit files."""

from __future__ import annotations

import datetime as dt
import gc
import logging
import os
import re
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from ..citations.check import CitationReport, check_citations
from ..citations.claims import ClaimStatus
from ..citations.document import Document, parse
from ..citations.document.sections import title_text
from ..citations.mdscan import shown_text
from ..citations.model import Source, Verdict
from ..citations.styles import Styler, check_style
from ..language import labels
from ..terminal import inert_json, inert_text
from .files import inside, prepare_out_dir
from .fonts import MissingScript, missing_glyphs
from .html import render_html
from .markdown import (
    findings_markdown,
    linked_markdown,
    policy_for,
    ref_markup,
    replaced_sources,
    ui_markdown,
)
from .pdf import PdfWorker, render_pdf
from . import json_text, safety

log = logging.getLogger(__name__)

FILES = {
    "markdown": "report.md",
    "linked": "report.linked.md",
    "html": "report.html",
    "pdf": "report.pdf",
    "docx": "report.docx",
    "citations": "citations.json",
    "audit": "audit.json",
}


@dataclass
class PublishResult:
    out_dir: Path
    files: dict[str, Path]
    report: CitationReport
    refused_fetches: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    missing_glyphs: list[MissingScript] = field(default_factory=list)  # PDF characters no font has
    output_policy: dict = field(default_factory=dict)  # what the output policy changed (audit.json)
    # the report's own Sources section, replaced by the checked list (audit.json's sources_replaced)
    sources_replaced: dict | None = None
    styler: Styler | None = None  # the citation style the outputs show their citations in

    def summary(self) -> dict:
        r = self.report
        claims = r.claim_citations()
        statuses = r.claim_counts()
        out = {
            "refs": len(r.citations),
            "verified": r.count(Verdict.VERIFIED),
            "repaired": r.count(Verdict.REPAIRED),
            "unsupported": r.count(Verdict.UNSUPPORTED),
            "fragment_links": r.fragment_links(),
            "plain_links": sum(1 for c in r.citations if c.check.found and not c.fragment),
            "words_only_links": sum(1 for c in r.citations if c.fragment and c.words_only),
            "malformed_tags": len(r.problems),
            "sources_cited": len(r.sources),
            "claims": len(claims),
            "claims_supported": statuses[ClaimStatus.SUPPORTED],
            "claims_unsupported": statuses[ClaimStatus.UNSUPPORTED],
            "claims_unchecked": statuses[ClaimStatus.UNCHECKED],
            "claims_no_claim": statuses[ClaimStatus.NO_CLAIM],
            "claims_quote_not_found": r.claims_quote_not_found(),
            "sources_disagree": len(r.disagreements),
            "uncited_statements": r.flag_count("uncited"),
            "impossible_dates": r.flag_count("impossible_date"),
            "invented_names": r.flag_count("invented_name"),
            "claims_judged": sum(1 for _, cites in claims if cites[0].judge is not None),
            "judge_evidence_failed": sum(
                1 for _, cites in claims if cites[0].judge is not None
                and any(v["verdict"] == "supports" and not (v["evidence"] or {}).get("ok")
                        for v in cites[0].judge["votes"])),
        }
        if r.disagreements_cut:  # only then, so every other audit.json keeps its bytes
            out["sources_disagree_cut"] = True
        return out


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write via a temporary file and rename, so a crash never leaves half a file."""
    mode = "wb" if isinstance(data, bytes) else "w"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, mode, **({} if isinstance(data, bytes) else {"encoding": "utf-8"})) as f:
            f.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _visible_text(html: str) -> str:
    import lxml.html

    doc = lxml.html.document_fromstring(html)
    for el in doc.iter("style", "script"):
        el.text = ""
    return doc.text_content()


def detect_lang(text: str) -> str:
    sample = text[:20000]
    cjk = sum(1 for ch in sample if "\u4e00" <= ch <= "\u9fff")
    kana = sum(1 for ch in sample if "\u3040" <= ch <= "\u30ff")
    hangul = sum(1 for ch in sample if "\uac00" <= ch <= "\ud7af")
    letters = sum(1 for ch in sample if ch.isalpha()) or 1
    if kana > letters * 0.05:
        return "ja"
    if hangul > letters * 0.2:
        return "ko"
    if cjk > letters * 0.2:
        return "zh"
    return "en"


def _findings_audit(built: bool, found: str | None, rebuilt: str | None) -> dict:
    """Whether a "Verified findings" section came in with the report, and whether it was
    what the checks give (an edited or model-written one is replaced, never trusted)."""
    out: dict = {"built": built, "found_in_input": found is not None}
    if found is not None:
        same = rebuilt is not None and " ".join(rebuilt.split()) == " ".join(found.split())
        out["input_matched_checks"] = same
        if not same:
            out["note"] = ("the input's 'Verified findings' section was not built from these checks (written or "
                           "edited after publishing); it was " + ("rebuilt" if built else "removed"))
    return out


def sources_replaced_note(replaced: Mapping[str, Any]) -> str:
    """One line saying that the report's own Sources section (:func:`replaced_sources`) was
    replaced, naming it and where its text is kept."""
    lines = replaced["text"].rstrip("\n").count("\n") + 1
    return (f"the report's own '{replaced['heading']}' section (line {replaced['line']}, {lines} line(s)) is not "
            "what the citations give: it was replaced by the list built from them (its entries are not checked); "
            "its text is kept in audit.json (sources_replaced.text): move what you wrote there into another section "
            "to publish it")


_LISTED_URL = re.compile(r"https?://[^\s<>\"'`\]]+")


def uncited_listed(replaced: Mapping[str, Any], report: CitationReport) -> list[str]:
    """The web addresses the report's own Sources section (:func:`replaced_sources`) lists
    that no citation of the report cites, in their order: what replacing it dropped."""
    cited = {s.url.rstrip("/") for s in report.sources if s.url}
    out: list[str] = []
    for m in _LISTED_URL.finditer(replaced["text"]):
        url = m[0]
        while url.endswith(")") and url.count("(") < url.count(")"):  # a markdown link's or a sentence's bracket
            url = url[:-1]
        url = url.rstrip(".,;:!?*_")
        if url.rstrip("/") not in cited and url not in out:
            out.append(url)
    return out


def models_sources_note(replaced: Mapping[str, Any], uncited: list[str]) -> str:
    """One line saying that the model's own Sources section listed sources the report does
    not cite (:func:`uncited_listed`), which the checked list replaced."""
    shown = ", ".join(uncited[:3]) + (" …" if len(uncited) > 3 else "")
    return (f"the model's own '{replaced['heading']}' section (line {replaced['line']}) listed {len(uncited)} "
            f"source(s) no citation of the report cites ({shown}): it was replaced by the list built from the "
            "citations, which holds only what the report cites; its text is kept in audit.json "
            "(sources_replaced.text)")


def _flags_by_ref(flags: list) -> dict[int, list]:
    """Each citation number's flags, in the flags' order (one pass, not one per citation)."""
    out: dict[int, list] = {}
    for f in flags:
        for n in dict.fromkeys(f.refs):
            out.setdefault(n, []).append(f)
    return out


def _citation_json(c, styler: Styler, flags: list | None = None,
                   styled: dict[str | None, tuple[str | None, str | None]] | None = None) -> dict:
    """citations.json's record: the checks, and (added) the marker and reference entry of
    the citation style and the flags on its claim (invented names, impossible dates).
    ``styled``: each source's (marker, reference text), kept here as they are made (a
    report cites a source many times; both depend on the source alone)."""
    out = c.as_json()
    out["flags"] = [f.as_json() for f in flags or () if c.ref.index + 1 in f.refs]
    sid = c.source.id if c.source is not None else None
    entry = styled.get(sid) if styled is not None else None
    if entry is None:
        known = sid is not None and sid in styler.infos
        entry = (styler.marker(sid), styler.reference(sid).text) if known else (None, None)
        if styled is not None:
            styled[sid] = entry
    out["citation_style"] = styler.style
    out["in_text"], out["reference"] = entry
    return out


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the block, back on after it (if it was on
    before: a caller that turned it off keeps it off). Nothing is lost: objects in cycles
    made meanwhile are collected by the next pass after the block."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def publish_report(
    markdown: str | Document,
    sources: Iterable[Source],
    out_dir: str | Path,
    *,
    pdf: bool = True,
    title: str | None = None,
    date: dt.date | None = None,
    findings: bool = False,
    judgments: Mapping[str, dict] | None = None,
    lang: str | None = None,
    pdf_worker: PdfWorker | None = None,
    docx: bool = False,
    citation_style: str = "numbered",
    earlier_policy: Mapping[str, Any] | None = None,
    settings_ignored: Iterable[Mapping[str, Any]] = (),
) -> PublishResult:
    """Check every citation and every claim, and write report.md, report.linked.md,
    report.html, report.pdf, citations.json and audit.json into out_dir.

    ``findings``: add the "Verified findings" section, built here from the claims whose
    checks all passed. A section of that name in the input is never trusted: it is removed
    before checking (and rebuilt when ``findings`` is set); audit.json says whether one was
    found and whether it matched what the checks give. ``judgments``: a model judge's
    verdicts on claims the rules could not decide (see :func:`check_citations`). ``lang``
    (ISO 639-1, else guessed from the script of the text) sets the HTML language and the
    labels. ``pdf_worker``: a started :class:`PdfWorker` renders the PDF (it imported
    WeasyPrint while this function checked the citations); default: in this process.
    ``docx``: write report.docx too (from the same HTML). ``citation_style``:
    numbered | apa | mla | ieee | chicago, for the in-text markers and the Sources list of
    report.linked.md, the HTML, PDF and docx (report.md keeps its <ref> tags); see
    :mod:`deep_research.citations.styles`. ``earlier_policy``: what the output policy
    already changed in this report before it came here (a research run applies it when it
    checks the citations, so the text published is inert already): added to audit.json.
    ``settings_ignored``: the settings a run that resumed the research gave and that were
    not used, ``{setting, asked, kept, why}`` each (research/runtime/thread_settings.py):
    audit.json's ``settings_ignored``, written only when there are some.

    The report is parsed once (``markdown`` may already be a parsed
    :class:`~deep_research.citations.document.Document`); the checks, the output policy
    (applied once, to the model-written text) and every output read that one document."""
    try:
        citation_style = check_style(citation_style)
    except ValueError as e:
        from ..errors import UserError

        raise UserError(str(e)) from None
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    # Checking and rendering allocate many small, short-lived objects and almost no
    # reference cycles: the cyclic collector's passes over the growing heap cost about a
    # tenth of the time and free next to nothing, so they wait until the text outputs are
    # written (reference counting still frees everything as usual).
    with collector_paused():
        date = date or dt.date.today()
        doc = markdown if isinstance(markdown, Document) else parse(markdown)
        found = doc.findings
        found_findings = doc.markdown[found.start:found.end] if found is not None else None
        text = doc.markdown if found is None else doc.markdown[:found.start] + doc.markdown[found.end:]
        lang = lang or detect_lang(text)
        report = check_citations(doc, sources, judgments=judgments, today=date, english=lang == "en")
        timings["check_citations_s"] = time.perf_counter() - t0
        policy = policy_for(report)  # the output policy, once, on the model-written text

        out = prepare_out_dir(out_dir)
        files = {k: inside(out, v) for k, v in FILES.items()
                 if (pdf or k != "pdf") and (docx or k != "docx")}
        numbers: dict[str, int] = {}
        for c in report.citations:
            if c.source is not None and c.number is not None:
                numbers.setdefault(c.source.id, c.number)
        styler = Styler(citation_style, report.sources, numbers, accessed=date)
        t = time.perf_counter()
        words = labels(lang)
        # every output shows a terminal control or a bidi override as an escape (terminal.inert_text)
        html = inert_text(render_html(report, title=title, date=date, lang=lang, labels=words, findings=findings,
                                      styler=styler, policy=policy))
        write_atomic(files["html"], html)
        tmp_pdf = files["pdf"].with_name(".report.pdf.tmp") if pdf else None
        if pdf and pdf_worker:  # the worker renders while the markdown files and the docx are written
            pdf_worker.start(files["html"], tmp_pdf)
        ui = inert_text(ui_markdown(report, words["sources"], findings=findings, policy=policy))
        write_atomic(files["markdown"], ui)
        write_atomic(files["linked"], inert_text(linked_markdown(report, words["sources"], findings=findings,
                                                                 styler=styler, policy=policy)))
        timings["markdown_html_s"] = time.perf_counter() - t
    audit_policy = safety.merged_audit(earlier_policy, policy.audit())
    if docx:
        from .docx import render_docx  # python-docx loads only when a docx is asked for

        t = time.perf_counter()
        write_atomic(files["docx"], render_docx(html, labels=words, title=inert_text(title or shown_text(title_text(doc) or "")), lang=lang,
                                                local_files=safety.local_file_urls(report.sources)))
        timings["docx_s"] = time.perf_counter() - t
    refused: list[str] = []
    missing: list[MissingScript] = []
    if pdf:
        t = time.perf_counter()
        missing = missing_glyphs(_visible_text(html))
        for m in missing:
            log.warning("PDF: %s", m.message)
        try:
            refused = pdf_worker.finish() if pdf_worker else render_pdf(html, tmp_pdf)
            os.replace(tmp_pdf, files["pdf"])
        finally:
            tmp_pdf.unlink(missing_ok=True)
        timings["pdf_s"] = time.perf_counter() - t
    with collector_paused():  # citations.json and audit.json: as above (the PDF is not paused)
        result = PublishResult(out, files, report, refused, timings, missing, audit_policy,
                               replaced_sources(report), styler)
        flags_by_ref = _flags_by_ref(report.flags)
        styled: dict[str | None, tuple[str | None, str | None]] = {}
        write_atomic(
            files["citations"],
            inert_json(json_text.dumps([_citation_json(c, styler, flags_by_ref.get(c.ref.index + 1), styled)
                                        for c in report.citations])) + "\n",
        )
        audit = {
            "summary": result.summary(),
            "problems": [p.__dict__ for p in report.problems],
            "plain_links": [
                {"n": c.ref.index + 1, "source_id": c.source.id, "why": c.link_note}
                for c in report.citations
                if c.source is not None and c.check.found and not c.fragment
            ],
            "claims": [
                {"claim": claim.text, "refs": [c.ref.index + 1 for c in cites],
                 "status": cites[0].claim_status.value, "rule": cites[0].claim_check.rule,
                 "note": cites[0].claim_check.note, "confidence": cites[0].confidence,
                 "quotes": [c.shown_quote for c in cites if c.check.found],
                 "decided_by": cites[0].decided_by, "judge": cites[0].judge}
                for claim, cites in report.claim_citations()
            ],
            "sources_disagree": [d.as_json() for d in report.disagreements],
            "uncited_statements": [f.as_json() for f in report.flags if f.kind == "uncited"],
            "impossible_dates": [f.as_json() for f in report.flags if f.kind == "impossible_date"],
            "invented_names": [f.as_json() for f in report.flags if f.kind == "invented_name"],
            "verified_findings": _findings_audit(
                findings, found_findings,
                findings_markdown(report, lambda c: ref_markup(c, safety.local_file_urls(report.sources))) or None
                if findings else None),
            "partial_highlights": [
                {"n": c.ref.index + 1, "source_id": c.source.id, "why": c.link_note}
                for c in report.citations
                if c.source is not None and c.fragment and c.words_only
            ],
            "refused_fetches": refused,
            "cut_sources": [{"source_id": s.id, "url": s.url, "why": s.cut} for s in report.sources if s.cut],
            "missing_glyphs": [m.as_json() for m in missing],
            "output_policy": audit_policy,
            "citation_style": styler.style,
            "files": {k: v.name for k, v in files.items()},
            "timings_s": {k: round(v, 4) for k, v in timings.items()},
        }
        if result.sources_replaced:  # only then, so every other audit.json keeps its bytes
            audit["sources_replaced"] = {
                **result.sources_replaced,
                "note": sources_replaced_note(result.sources_replaced)}
        ignored = [dict(r) for r in settings_ignored]
        if ignored:  # only then, so every other audit.json keeps its bytes
            audit["settings_ignored"] = ignored
        write_atomic(files["audit"], inert_json(json_text.dumps(audit)) + "\n")
    return result

"""``deep-research publish``: check a report's citations and claims, write its outputs."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import UserError
from ..terminal import printable
from .helpfmt import HelpCommand

_EARLY_WORKER = None  # a PdfWorker started by cli.main before the command line was parsed


def markup_warning(policy: dict) -> str | None:
    """What the output policy changed in a report's markup (audit.json's output_policy), in
    one line, or None when it changed nothing."""
    changed = [f"{policy[k]} {what}" for k, what in (("html_escaped", "HTML tag(s) shown as text"),
                                                     ("images_unlinked", "image(s) turned into links"),
                                                     ("links_defused", "unsafe link(s) shown as text"))
               if policy.get(k)]
    return "the report's markup was made inert: " + ", ".join(changed) if changed else None


def start_early_worker(args: list[str]) -> None:
    """For ``deep-research publish`` with a PDF, start the WeasyPrint worker now, before the
    command line is parsed (it needs about a second to import WeasyPrint)."""
    global _EARLY_WORKER
    if args[:1] == ["publish"] and not {"--no-pdf", "--help", "-h"} & set(args):
        from ..publish.pdf import PdfWorker

        _EARLY_WORKER = PdfWorker()


def take_early_worker():
    global _EARLY_WORKER
    worker, _EARLY_WORKER = _EARLY_WORKER, None
    return worker


def register(app: typer.Typer) -> None:
    app.command(cls=HelpCommand)(publish)


def publish(
    report: Path = typer.Argument(..., help="Report markdown with <ref id=\"…\">\"quote\"</ref> citations."),
    sources: Path = typer.Option(..., "--sources", "-s", help="JSON list of {id, url, title, content}."),
    out_dir: Path = typer.Option(..., "--out", "-o", help="Directory to write the outputs into."),
    no_pdf: bool = typer.Option(False, "--no-pdf", help="Skip the PDF."),
    docx: bool = typer.Option(False, "--docx", help="Also write report.docx (Word)."),
    citation_style: str = typer.Option("numbered", "--citation-style",
                                       help="numbered | apa | mla | ieee | chicago: in-text markers and the "
                                            "Sources list (report.md keeps its <ref> tags)."),
    title: Optional[str] = typer.Option(None, help="Report title (default: the report's first # heading)."),
    findings: bool = typer.Option(False, "--verified-findings",
                                  help="Add a 'Verified findings' section, built by code from the claims "
                                       "whose checks all passed."),
) -> None:
    """Check every citation of REPORT against its source, and each claim against its quotes,
    and write the linked report, HTML and PDF."""
    from contextlib import nullcontext

    from ..citations.styles import check_style
    from ..publish.pdf import PdfWorker

    try:
        citation_style = check_style(citation_style)
    except ValueError as e:
        raise UserError(f"--citation-style: {e}") from None
    early = take_early_worker()
    if no_pdf and early is not None:
        early.close()
    with nullcontext() if no_pdf else early or PdfWorker() as worker:  # imports WeasyPrint while we check
        _publish(report, sources, out_dir, not no_pdf, title, findings, worker, docx, citation_style)


def _publish(report: Path, sources: Path, out_dir: Path, pdf: bool, title: str | None, findings: bool,
             worker, docx: bool = False, citation_style: str = "numbered") -> None:
    from ..citations.document import parse
    from ..inputs import load_sources, read_text_file
    from ..publish import publish_report
    from ..publish.publisher import FILES
    from ..publish.safety import ref_marks
    from ..research.prompts import unbreak_report
    from .console import warn as _warn

    markdown = read_text_file(report, "report")
    if not markdown.strip():
        raise UserError(f"report {report} is empty")
    loaded = load_sources(sources)
    for w in loaded.warnings:
        _warn(w)
    known = {s.id for s in loaded.sources}
    # a report.md written before the check node took them out can hold the invisible breaks
    # the prompts put in a page's delimiter tag (<\u200b/page>) where a model copied one: the
    # report is published as the page writes it (prompts.unbreak_report says which)
    markdown = unbreak_report(markdown, loaded.sources)
    doc = parse(markdown)  # parsed once: the check below and the publish read the same document
    # An unknown id is a typo to fix, unless its refs say they were not found: a run's
    # report.md keeps a model's ref to a source it never read, marked so, and the run's
    # folder must re-publish (README: "the folder alone re-publishes its report").
    unknown = {r.source_id for r in doc.refs} - known
    unmarked = {r.source_id for r in doc.refs if r.source_id in unknown
                and ref_marks(doc.markdown[r.start:r.end]).get("check") != "quote-not-found"}
    if unmarked:
        raise UserError(f"the report cites source ids that are not in {sources}: {_ids(unmarked)}")
    if unknown:
        _warn(f"the report cites source ids that are not in {sources}: {_ids(unknown)}; their refs are "
              'marked not found (check="quote-not-found") and are published as not found')
    try:
        result = publish_report(doc, loaded.sources, out_dir, pdf=pdf, title=title, findings=findings,
                                pdf_worker=worker, docx=docx, citation_style=citation_style)
    except Exception:
        if worker is None or not getattr(worker, "error", None):
            raise
        # the bounded worker gave no PDF (stopped past its bound, or no worker could run):
        # every other file is written all the same, as a research run writes them
        result = publish_report(doc, loaded.sources, out_dir, pdf=False, title=title, findings=findings,
                                docx=docx, citation_style=citation_style)
        _print_publish_summary(result)
        # a report.pdf an earlier publish left there is another report's: not kept beside this one
        stale = out_dir / FILES["pdf"]
        removed = stale.is_file() and not stale.is_symlink()
        if removed:
            stale.unlink()
        _warn(f"PDF not written: {worker.error}; the other files are written"
              + (" (the report.pdf an earlier publish left there was removed: it was another report's)"
                 if removed else "") + ". Publish again to retry, or pass --no-pdf")
        raise typer.Exit(1) from None
    _print_publish_summary(result)


def _ids(ids: set[str]) -> str:
    shown = sorted(ids)
    return ", ".join(repr(u) for u in shown[:10]) + (" …" if len(shown) > 10 else "")


MAX_CITATION_WARNINGS = 20  # failed citations named one by one; the rest are counted


def _print_publish_summary(result) -> None:
    from rich.markup import escape as _esc
    from rich.table import Table

    from ..citations.verify import TOO_SHORT
    from .console import out
    from .console import warn as _warn

    s = result.summary()
    table = Table(title="Citation check", show_header=False, title_justify="left")
    table.add_row("refs", str(s["refs"]))
    table.add_row("[green]verified[/green]", str(s["verified"]))
    table.add_row("[cyan]repaired[/cyan]", str(s["repaired"]))
    table.add_row("[red]unsupported[/red]", str(s["unsupported"]))
    table.add_row("links to the exact sentence", str(s["fragment_links"]))
    if s.get("words_only_links"):
        table.add_row("[yellow]links to the quote's words only[/yellow]", str(s["words_only_links"]))
    if s["plain_links"]:
        table.add_row("[yellow]plain links (no unique fragment)[/yellow]", str(s["plain_links"]))
    if s["malformed_tags"]:
        table.add_row("[red]malformed <ref> tags[/red]", str(s["malformed_tags"]))
    table.add_row("claims", str(s["claims"]))
    table.add_row("[green]claims supported by their quotes[/green]", str(s["claims_supported"]))
    table.add_row("[red]claims that differ from their source[/red]",
                  str(s["claims_unsupported"] - s.get("claims_quote_not_found", 0)))
    if s.get("claims_quote_not_found"):
        table.add_row("[red]claims whose quote is not in the source[/red]", str(s["claims_quote_not_found"]))
    table.add_row("[yellow]claims not checked[/yellow]", str(s["claims_unchecked"]))
    if s.get("claims_no_claim"):
        table.add_row("citations without a claim of their own", str(s["claims_no_claim"]))
    if s["sources_disagree"]:
        table.add_row("[yellow]places where sources disagree[/yellow]", str(s["sources_disagree"])
                      + (" (list cut: first ones of each kind)" if s.get("sources_disagree_cut") else ""))
    if s.get("uncited_statements"):
        table.add_row("[yellow]factual statements without a citation[/yellow]", str(s["uncited_statements"]))
    if s.get("impossible_dates"):
        table.add_row("[red]dates that cannot be right[/red]", str(s["impossible_dates"]))
    if s.get("invented_names"):
        table.add_row("[yellow]names not in the cited sources[/yellow]", str(s["invented_names"]))
    out.print(table)
    for p in result.report.problems[:10]:
        _warn(f"line {p.line}, column {p.column}: {p.message}: {p.text}")
    failed = [c for c in result.report.citations if c.status.value == "unsupported"
              or (c.claim_status is not None and c.claim_status.value == "unsupported")]
    for c in failed[:MAX_CITATION_WARNINGS]:
        if c.status.value == "unsupported":
            what = TOO_SHORT if c.check.how == TOO_SHORT else "quote not found in the source"
            _warn(f"ref {c.ref.index + 1} (line {c.ref.line}, source {c.ref.source_id}): "
                  f"{what}: \u201c{c.ref.quote[:100]}\u201d")
        else:
            _warn(f"ref {c.ref.index + 1} (line {c.ref.line}, source {c.ref.source_id}): "
                  f"claim differs from its source: {c.claim_check.note}")
    if len(failed) > MAX_CITATION_WARNINGS:  # a line each flooded the terminal (20,000 for a hostile answer)
        _warn(f"{len(failed) - MAX_CITATION_WARNINGS:,} more citation(s) failed their check: "
              f"see citations.json (status, claim_status, claim_note)")
    for f in [f for f in result.report.flags if f.kind != "uncited"][:10]:
        _warn(f"line {f.line}: {f.note}: \u201c{f.text[:100]}\u201d")
    if result.sources_replaced:
        from ..publish.publisher import sources_replaced_note

        _warn(sources_replaced_note(result.sources_replaced))
    policy = result.output_policy or {}
    if inert := markup_warning(policy):
        _warn(inert)
    for d in policy.get("degraded", [])[:10]:
        _warn((f"line {d['line']}: " if d.get("line") else "") + d["reason"])
    if result.refused_fetches:
        _warn(f"the PDF renderer was refused {len(result.refused_fetches)} external resource(s)")
    for m in result.missing_glyphs:
        _warn(m.message)
    out.print(f"Wrote {len(result.files)} files to [bold]{_esc(printable(result.out_dir))}[/bold]:", soft_wrap=True)
    for key, path in result.files.items():
        out.print(f"  {printable(path.name)}", markup=False)

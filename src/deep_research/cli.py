"""Command line: ``deep-research publish | research | resume | index``."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from .errors import UserError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="A deep-research agent whose every citation is a checked, verbatim sentence.",
)
out = Console()
err = Console(stderr=True, soft_wrap=True, highlight=False)


@app.callback()
def _root() -> None:
    """A deep-research agent whose every citation is a checked, verbatim sentence."""


def _warn(msg: str) -> None:
    err.print(f"[yellow]warning:[/yellow] {msg}", highlight=False)


@app.command()
def publish(
    report: Path = typer.Argument(..., help="Report markdown with <ref id=\"…\">\"quote\"</ref> citations."),
    sources: Path = typer.Option(..., "--sources", "-s", help="JSON list of {id, url, title, content}."),
    out_dir: Path = typer.Option(..., "--out", "-o", help="Directory to write the outputs into."),
    no_pdf: bool = typer.Option(False, "--no-pdf", help="Skip the PDF."),
    title: Optional[str] = typer.Option(None, help="Report title (default: the report's first # heading)."),
) -> None:
    """Check every citation of REPORT against its source and write the linked report, HTML and PDF."""
    from .citations.refs import parse_refs
    from .inputs import load_sources, read_text_file
    from .publish import publish_report

    markdown = read_text_file(report, "report")
    if not markdown.strip():
        raise UserError(f"report {report} is empty")
    loaded = load_sources(sources)
    for w in loaded.warnings:
        _warn(w)
    known = {s.id for s in loaded.sources}
    unknown = sorted({r.source_id for r in parse_refs(markdown).refs} - known)
    if unknown:
        shown = ", ".join(repr(u) for u in unknown[:10]) + (" …" if len(unknown) > 10 else "")
        raise UserError(f"the report cites source ids that are not in {sources}: {shown}")
    result = publish_report(markdown, loaded.sources, out_dir, pdf=not no_pdf, title=title)
    _print_publish_summary(result)


def _print_publish_summary(result) -> None:
    s = result.summary()
    table = Table(title="Citation check", show_header=False, title_justify="left")
    table.add_row("refs", str(s["refs"]))
    table.add_row("[green]verified[/green]", str(s["verified"]))
    table.add_row("[cyan]repaired[/cyan]", str(s["repaired"]))
    table.add_row("[red]unsupported[/red]", str(s["unsupported"]))
    table.add_row("links to the exact sentence", str(s["fragment_links"]))
    if s["plain_links"]:
        table.add_row("[yellow]plain links (no unique fragment)[/yellow]", str(s["plain_links"]))
    if s["malformed_tags"]:
        table.add_row("[red]malformed <ref> tags[/red]", str(s["malformed_tags"]))
    out.print(table)
    for p in result.report.problems[:10]:
        _warn(f"line {p.line}, column {p.column}: {p.message}: {p.text}")
    for c in result.report.citations:
        if c.status.value == "unsupported":
            _warn(f"ref {c.ref.index + 1} (line {c.ref.line}, source {c.ref.source_id}): "
                  f"quote not found in the source: \u201c{c.ref.quote[:100]}\u201d")
    if result.refused_fetches:
        _warn(f"the PDF renderer was refused {len(result.refused_fetches)} external resource(s)")
    out.print(f"Wrote {len(result.files)} files to [bold]{result.out_dir}[/bold]:")
    for key, path in result.files.items():
        out.print(f"  {path.name}")


def main(argv: list[str] | None = None) -> int:
    """Entry point: user errors print one clear line and exit 2, never a traceback."""
    debug = bool(os.environ.get("DEEP_RESEARCH_DEBUG"))
    try:
        app(args=argv, standalone_mode=False)
        return 0
    except UserError as e:
        err.print(f"[red]error:[/red] {e}", highlight=False)
        return e.exit_code
    except typer.Exit as e:
        return e.exit_code
    except typer.Abort:
        err.print("aborted")
        return 130
    except KeyboardInterrupt:
        err.print("interrupted")
        return 130
    except typer.TyperException as e:  # usage errors: bad option, missing argument
        e.show()
        return getattr(e, "exit_code", 2)
    except Exception as e:  # noqa: BLE001 - the last resort: a short message, not a traceback
        if debug:
            raise
        err.print(f"[red]internal error:[/red] {type(e).__name__}: {e}", highlight=False)
        err.print("Set DEEP_RESEARCH_DEBUG=1 to see the traceback.")
        return 1


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()

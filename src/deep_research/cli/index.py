"""``deep-research index``: the full-text index of a folder for ``--search local``."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Optional

import typer

from ..errors import UserError
from ..terminal import printable
from .helpfmt import HelpCommand

# The file types the index reads (search.local._KINDS; a test keeps the two equal). Not
# imported from there: the CLI must start without loading the search modules.
DOCUMENT_TYPES = ".html, .htm, .md, .markdown, .txt, .pdf, .docx, .pptx, .xlsx, .csv, .tsv, .epub"


def register(app: typer.Typer) -> None:
    app.command(cls=HelpCommand)(index)


def index(
    folder: Path = typer.Argument(..., help=f"Folder of documents ({DOCUMENT_TYPES} files)."),
    base_url: Optional[str] = typer.Option(None, help="URL where the folder is published (default file:// links)."),
    index_path: Optional[Path] = typer.Option(None, "--index", help="Index file (default FOLDER/.deep-research/index.sqlite)."),
) -> None:
    """Build or update the full-text index of a folder for --search local."""
    from ..search.local import CorpusError, IndexInterrupted, build_index

    if not folder.is_dir():
        raise UserError(f"{folder} is not a folder")
    try:
        with _progress_bar() as progress:
            try:
                report = build_index(folder, index_path=index_path, base_url=base_url, progress=progress)
            except (CorpusError, ValueError) as e:  # an unusable index path or base URL
                raise UserError(str(e)) from None
    except IndexInterrupted as e:
        raise Stopped(_kept_lines(e.report, [folder, *(["--base-url", base_url] if base_url else []),
                                             *(["--index", index_path] if index_path else [])])) from None
    _print_index_report(folder, report)


class Stopped(Exception):
    """Ctrl-C stopped the index: ``main`` prints these lines (what was kept, how to go on)
    and exits 130."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))
        self.lines = lines


def _kept_lines(report, args: list) -> list[str]:
    """What an interrupted index kept, and the command that goes on from there."""
    import shlex

    changed = len(report.added) + len(report.updated)
    command = shlex.join(["deep-research", "index", *map(str, args)])
    return [printable(f"interrupted: the index keeps the documents indexed so far ({changed:,} new or updated by "
                      f"this run; it holds {report.documents:,}): {report.index_path}"),
            printable(f"Continue with: {command} (files indexed already are not read again)")]


@contextmanager
def _progress_bar():
    """A progress callback drawing a bar with counts, elapsed time and an estimate of the
    time left on the terminal (stderr), which it leaves when done; None (nothing drawn)
    when stderr is not a terminal."""
    from .console import err  # Rich loads when a command runs, not for --help

    if not err.is_terminal:
        yield None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (TextColumn("indexing"), BarColumn(), MofNCompleteColumn(), TextColumn("files"),
               TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task("index", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _print_index_report(folder: Path, report) -> None:
    from .console import out
    from .console import warn as _warn

    def n(count: int, word: str) -> str:
        return f"{count:,} {word}{'' if count == 1 else 's'}"

    def say(text: str, wrap: bool = False) -> None:  # never markup, escaped; paths stay whole (no
        # wrapping); a sentence without a path wraps between words on a terminal
        out.print(printable(text), highlight=False, soft_wrap=not (wrap and out.is_terminal), markup=False)

    for skipped in report.skipped:
        _warn(f"skipped {skipped.path}: {skipped.reason}")
    for part in report.partial:
        _warn(f"indexed only in part {part.path}: {part.reason}")
    if report.rebuilt:
        say("The index was rebuilt from scratch (new program version, folder or base URL).")
    indexed = len(report.added) + len(report.updated) + report.unchanged
    say(f"Indexed {n(indexed, 'document')} in {folder}: {len(report.added):,} new, "
        f"{len(report.updated):,} updated, {report.unchanged:,} unchanged.")
    if report.skipped:
        say(f"Skipped {n(len(report.skipped), 'file')} (reasons above).")
    if report.removed:
        say(f"Removed {n(len(report.removed), 'document')} no longer in the folder.")
    if report.unsupported:
        say(f"Left out {n(report.unsupported, 'file')} of other types "
            f"(documents are {DOCUMENT_TYPES} files).", wrap=True)
    say(f"The index holds {n(report.documents, 'document')}: {report.index_path}")
    if report.documents == 0:
        _warn("the index is empty: a search of this corpus finds nothing")

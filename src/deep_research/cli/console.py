"""The terminal the CLI writes to: two consoles, warnings, the usage table."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.markup import escape as _esc  # user or model text printed with markup
from rich.table import Table

from ..terminal import printable  # file names, URLs and model text may hold escape sequences
from ..terminal import safe_logging  # noqa: F401 - here before; it lives where --help can load it


class SafeConsole(Console):
    """A console that never passes a control character to the terminal: every string it
    renders (printed text, table cells, titles, rules) has escape sequences and other
    controls written out (``\x1b``), line breaks and tabs kept. Page text, model output,
    file names and result ids reach the terminal through here; a clipboard-write or
    retitle sequence from a page is shown, never obeyed. (Rich strips only BEL, BS, VT, FF
    and CR by itself.)"""

    def render_str(self, text: str, **kwargs):
        return super().render_str(printable(text, keep_newlines=True), **kwargs)


class MessageConsole(SafeConsole):
    """Errors and warnings: on a terminal wrapped between words at its width (left to the
    terminal, a message longer than a line broke mid-word); into a pipe or a file one line
    per message, as scripts and logs read them. Decided at each print: the stream can change."""

    @property
    def soft_wrap(self) -> bool:
        return not self.is_terminal

    @soft_wrap.setter
    def soft_wrap(self, value: bool) -> None:  # Console.__init__ sets it; the property decides
        pass


def model_markdown(text: str):
    """Model text written in markdown (a clarifying question, a research brief) as its reader
    should see it: ``\\*`` as ``*``, ``**word**`` as bold, lists as lists, wrapped at the
    terminal's width. Controls are written out first (the renderable's text does not pass
    through ``render_str``); links show their address after their text, never as a terminal
    hyperlink whose target the text hides."""
    from rich.markdown import Markdown

    return Markdown(printable(text, keep_newlines=True), hyperlinks=False)


def model_markdown_line(text: str) -> str:
    """Model markdown as one line of plain text (a message that names a question)."""
    import io

    buffer = io.StringIO()
    Console(file=buffer, width=10_000, color_system=None, emoji=False, highlight=False).print(model_markdown(text))
    return " ".join(buffer.getvalue().split())


out = SafeConsole(emoji=False)  # ":x" in a model name is not an emoji code
err = MessageConsole(stderr=True, highlight=False, emoji=False)


def usage_table(usage: dict) -> Table:
    """Calls, tokens, time and trouble per node: retry (transient errors retried), repair
    (malformed answers asked again), cut (requests shortened after a context-length error)."""
    cols = ["calls", "input_tokens", "output_tokens", "seconds", "retries", "repairs", "shortened"]
    priced = any(u.get("cost_usd") for u in usage.values())
    headers = {"input_tokens": "in", "output_tokens": "out", "seconds": "s", "retries": "retry",
               "repairs": "repair", "shortened": "cut", "cost_usd": "$"}

    def cells(u: dict) -> list[str]:
        row = [f"{u.get(c, 0):,}" if c != "seconds" else f"{u.get(c, 0):.1f}" for c in cols]
        return row + ([f"{u.get('cost_usd', 0):.4f}"] if priced else [])

    totals: dict = {}
    for u in usage.values():
        for k, v in u.items():
            totals[k] = totals.get(k, 0) + v
    rows = [(node, cells(u)) for node, u in usage.items()]
    total = cells(totals)
    t = Table(title="Tokens and time per node", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    # a narrow terminal folds the node's name, never a figure: each figure column keeps the
    # width of its longest figure (the totals are the longest), its header abbreviated
    t.add_column("node", overflow="fold")
    for i, col in enumerate([*cols, *(["cost_usd"] if priced else [])]):
        width = max(len(total[i]), *(len(r[i]) for _, r in rows)) if rows else len(total[i])
        t.add_column(headers.get(col, col), justify="right", no_wrap=True, min_width=width)
    for node, row in rows:
        t.add_row(node, *row)
    t.add_row("[bold]total[/bold]", *(f"[bold]{c}[/bold]" for c in total))
    return t


def cell(value: object) -> str:
    """Text for a table cell, a column or a title, shown as it is: a folder name, a result
    id or a judge's words like "[link=https://…]…" or "[/x]" is not Rich markup (a link
    in the terminal, or an error), and control characters are written out."""
    return _esc(printable(value))


def warn(msg: str) -> None:
    err.print(f"[yellow]warning:[/yellow] {_esc(printable(msg))}", highlight=False)


"""``--help`` without Rich: the same panels Typer draws with Rich (``rich_help_panel``), written
by a few lines of string formatting.

Why not Typer's own formatter: it imports Rich's markdown, syntax and traceback modules
(markdown-it, Pygments) and lays out ~100 options through Rich tables, which took about
0.4 s of CPU for ``research --help``, against a budget of 0.3 s for the whole command. Here
a help page costs a few milliseconds and imports nothing beyond Typer. Option names are
never cut: a name wider than its column puts the help on the next line, and every line
fits the terminal (at most 100 columns; 80 and narrower work).
"""

from __future__ import annotations

import os
import shutil
import sys
import textwrap

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

MAX_WIDTH = 100
NAME_COLUMN = 30  # the widest option column; longer names put their help on the next line
OPTIONS = "Options"

_STYLES = {"flag": "1;36", "negative": "1;35", "metavar": "33", "dim": "2", "required": "31", "title": "1"}


def _width() -> int:
    return max(40, min(shutil.get_terminal_size((80, 24)).columns, MAX_WIDTH))


def _utf8() -> bool:
    return "utf" in (getattr(sys.stdout, "encoding", "") or "").lower()


class _Writer:
    def __init__(self, width: int):
        self.width = width
        self.lines: list[str] = []
        self.color = not os.environ.get("NO_COLOR")
        self.box = "╭╮╰╯─│" if _utf8() else "++++-|"

    def style(self, text: str, kind: str) -> str:
        # click.echo removes the escape sequences when the output is not a terminal
        return f"\x1b[{_STYLES[kind]}m{text}\x1b[0m" if self.color and text else text

    def para(self, text: str, indent: int = 1, kind: str | None = None) -> None:
        for block in text.split("\n\n"):
            for line in textwrap.wrap(" ".join(block.split()), self.width - indent) or [""]:
                self.lines.append(" " * indent + (self.style(line, kind) if kind else line))
            self.lines.append("")

    def panel(self, title: str, rows: list[tuple[list[tuple[str, str]], str]]) -> None:
        """A box titled ``title`` with one entry per row: (name parts, help)."""
        tl, tr, bl, br, h, v = tuple(self.box)
        inner = self.width - 4  # "│ " + text + " │"
        plain_names = [sum(len(t) for t, _ in parts) for parts, _ in rows]
        col = min(max(plain_names, default=0), NAME_COLUMN, inner // 2)
        head = f"{h} {title} "
        self.lines.append(self.style(tl + head + h * (self.width - 2 - len(head)) + tr, "dim"))
        for (parts, help_text), width in zip(rows, plain_names):
            name = "".join(self.style(t, k) if k else t for t, k in parts)
            wrapped = textwrap.wrap(" ".join(help_text.split()), inner - col - 2) or [""]
            body: list[tuple[str, int]] = []
            if width > col:  # a long name on its own line(s), the help below it
                body += [(name, width)] if width <= inner else [(c, len(c)) for c in textwrap.wrap(
                    "".join(t for t, _ in parts), inner)]
                body += [(" " * (col + 2) + w, col + 2 + len(w)) for w in wrapped if w]
            else:
                first = name + " " * (col - width + 2) + wrapped[0]
                body.append((first, col + 2 + len(wrapped[0])))
                body += [(" " * (col + 2) + w, col + 2 + len(w)) for w in wrapped[1:]]
            for text, used in body:
                self.lines.append(self.style(v, "dim") + " " + text + " " * (inner - used) + " " + self.style(v, "dim"))
        self.lines.append(self.style(bl + h * (self.width - 2) + br, "dim"))

    def text(self) -> str:
        return "\n".join(self.lines).rstrip("\n") + "\n"


# A value's name as the generated options write it (settings.py): one style in every panel.
_METAVARS = {"str": "TEXT", "text": "TEXT", "int": "INTEGER", "int range": "INTEGER", "integer": "INTEGER",
             "float": "NUMBER", "float range": "NUMBER", "path": "PATH"}


def _name_parts(param, ctx, record: tuple[str, str]) -> list[tuple[str, str]]:
    if isinstance(param, TyperArgument):
        return [((param.name or record[0]).upper(), "flag")]
    parts: list[tuple[str, str]] = []
    for i, opt in enumerate(param.opts):
        parts += [(", " if i else "", ""), (opt, "flag")]
    for opt in param.secondary_opts:
        parts += [(" / ", ""), (opt, "negative")]
    if not getattr(param, "is_flag", False) and not getattr(param, "count", False):
        shown = param.metavar
        if not shown:  # this Typer writes "<path>", "<int range>": named as the generated options are
            typed = str(param.display_type_rich(ctx) if hasattr(param, "display_type_rich")
                        else param.make_metavar(ctx)).strip("<>").lower()
            shown = _METAVARS.get(typed, typed.upper())
        if shown and str(shown).lower() not in ("bool", "boolean"):
            parts += [(" ", ""), (str(shown), "metavar")]
    return parts


def _usage_pieces(cmd, ctx) -> list[str]:
    """What follows the command in the usage line, arguments named as in the Arguments panel
    (QUESTION; [RUNS]... when optional): this Typer writes a required one as {question}."""
    pieces = ["[OPTIONS]"] if any(not isinstance(p, TyperArgument) for p in cmd.get_params(ctx)) else []
    for p in cmd.get_params(ctx):
        if isinstance(p, TyperArgument):
            name = (p.metavar or p.name or "").upper() + ("..." if p.nargs != 1 else "")
            pieces.append(name if p.required else f"[{name}]")
    if getattr(cmd, "commands", None) is not None:  # a group
        pieces += [cmd.subcommand_metavar or "COMMAND [ARGS]..."]
    return pieces


def _usage(cmd, ctx) -> str:
    return f"Usage: {ctx.command_path} {' '.join(_usage_pieces(cmd, ctx))}".rstrip()


def _panels(cmd, ctx) -> list[tuple[str, list]]:
    panels: dict[str, list] = {}
    arguments = []
    for param in cmd.get_params(ctx):
        if getattr(param, "hidden", False):
            continue
        record = param.get_help_record(ctx)
        if record is None:
            continue
        row = (_name_parts(param, ctx, record), " ".join(record[1].split()))
        if isinstance(param, TyperArgument):
            arguments.append(row)
        else:
            panels.setdefault(getattr(param, "rich_help_panel", None) or OPTIONS, []).append(row)
    ordered = [("Arguments", arguments)] if arguments else []
    ordered += [(t, rows) for t, rows in panels.items() if t != OPTIONS]
    if OPTIONS in panels:
        ordered.append((OPTIONS, panels[OPTIONS]))
    return ordered


def render(cmd, ctx) -> str:
    """The help page of a command or a group."""
    w = _Writer(_width())
    w.lines.append("")
    w.para(_usage(cmd, ctx))
    help_text = (cmd.help or "").partition("\f")[0]
    if help_text:
        first, _, rest = help_text.strip().partition("\n\n")
        w.para(first)
        if rest:
            w.para(rest, kind="dim")
    for title, rows in _panels(cmd, ctx):
        w.panel(title, rows)
    if isinstance(cmd, TyperGroup):
        rows = []
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            short = (sub.short_help or (sub.help or "").partition("\f")[0].strip().split("\n\n")[0])
            rows.append(([(name, "flag")], short))
        if rows:
            w.panel("Commands", rows)
    if cmd.epilog:
        w.lines.append("")
        w.para(cmd.epilog, kind="dim")
    return w.text()


def _help_option(option):
    """Typer's help option, off by default (its default is None, which Typer coerces through a
    pydantic adapter: importing pydantic would double the time of ``research --help``)."""
    if option is not None and option.default is None:
        option.default = False
    return option


class HelpCommand(TyperCommand):
    """A Typer command whose ``--help`` is :func:`render`, its arguments named in errors as
    the usage line writes them ("Missing argument 'QUESTION'", not 'question')."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for p in self.params:
            if isinstance(p, TyperArgument) and p.metavar is None and p.name:
                p.metavar = p.name.upper()

    def format_help(self, ctx: typer.Context, formatter) -> None:  # type: ignore[override]
        formatter.write(render(self, ctx))

    def get_help_option(self, ctx: typer.Context):  # type: ignore[override]
        return _help_option(super().get_help_option(ctx))

    def collect_usage_pieces(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]
        return _usage_pieces(self, ctx)


class HelpGroup(TyperGroup):
    """A Typer group whose ``--help`` is :func:`render`."""

    def format_help(self, ctx: typer.Context, formatter) -> None:  # type: ignore[override]
        formatter.write(render(self, ctx))

    def get_help_option(self, ctx: typer.Context):  # type: ignore[override]
        return _help_option(super().get_help_option(ctx))

    def collect_usage_pieces(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]
        return _usage_pieces(self, ctx)

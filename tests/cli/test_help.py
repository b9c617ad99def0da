"""``--help`` as a user reads it in an 80-column terminal: options grouped in panels, every
option name whole, no line wider than the terminal. (Its speed is measured by
benchmarks/bench_cli_help.py; tests/cli/test_fast_start.py checks what it imports.)"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from deep_research.cli import app

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = [["research"], ["compare"], ["resume"], ["publish"], ["index"], ["eval", "run"], ["eval", "report"],
            ["eval", "judge"], ["eval", "ab"], ["eval", "compare"], ["eval", "export-drb"], ["eval", "import-drb"]]


def help_text(args: list[str], columns: int) -> str:
    env = {**os.environ, "COLUMNS": str(columns), "DEEP_RESEARCH_ENV_FILE": "none", "NO_COLOR": "1"}
    env.pop("TERMINAL_WIDTH", None)
    r = subprocess.run([sys.executable, "-m", "deep_research.cli", *args, "--help"], capture_output=True, text=True,
                       cwd=ROOT, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def option_names(args: list[str]) -> list[str]:
    cmd = typer.main.get_command(app)
    for name in args:
        cmd = cmd.commands[name]
    return [o for p in cmd.params for o in (*p.opts, *p.secondary_opts) if o.startswith("-")]


@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_every_option_name_is_whole_and_every_line_fits(args, columns):
    text = help_text(args, columns)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= columns, max(lines, key=len)
    for name in [*option_names(args), "--help"]:
        assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text), f"{name} is missing or cut"


def test_research_help_groups_its_options_in_panels():
    text = help_text(["research"], 80)
    titles = re.findall(r"^╭─ (.+?) ─", text, re.M)
    assert titles[:3] == ["Arguments", "Scoping", "Search and sources"] and titles[-1] == "Options"
    for title in ("Research loop and limits", "Models", "Models per role", "Checks and report", "Output", "Run"):
        assert title in titles
    # no panel holds most of the options (it was one 158-line panel)
    sizes = [len(re.findall(r"^│ -", body, re.M)) for body in re.split(r"^╭─ ", text, flags=re.M)[1:]]
    assert max(sizes) <= sum(sizes) // 3, sizes
    # the option that sets a setting of another name says which
    flat = " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())
    assert re.search(r"--max-tokens INTEGER .{0,600}?setting max_total_tokens", flat)


def test_top_level_help_lists_the_commands():
    text = help_text([], 80)
    for name in ("publish", "research", "resume", "compare", "index", "eval"):
        assert re.search(rf"^│ {name}\s", text, re.M), name


def test_the_usage_line_names_arguments_as_the_arguments_panel_does():
    assert "research [OPTIONS] QUESTION\n" in help_text(["research"], 80)
    assert "eval compare [OPTIONS] A B\n" in help_text(["eval", "compare"], 80)
    assert "cli [OPTIONS] COMMAND [ARGS]...\n" in help_text([], 80)


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_usage_error_names_arguments_as_the_help_does(args):
    """A usage error (an unknown option) printed Typer's own usage line, ``research
    [OPTIONS] {question}``, not the help's ``QUESTION``."""
    env = {**os.environ, "COLUMNS": "80", "DEEP_RESEARCH_ENV_FILE": "none", "NO_COLOR": "1"}
    r = subprocess.run([sys.executable, "-m", "deep_research.cli", *args, "--no-such-option"], capture_output=True,
                       text=True, cwd=ROOT, env=env, timeout=120)
    assert r.returncode == 2, r.stderr
    usage = next(line for line in r.stderr.splitlines() if line.startswith("Usage:"))
    assert usage == next(line.strip() for line in help_text(args, 80).splitlines() if "Usage:" in line), r.stderr
    assert "{" not in usage, usage


def test_values_are_named_in_one_style():
    """Hand-written options name their value as the generated ones do (PATH, TEXT, INTEGER),
    not in this Typer's own style (<path>, <str>, <int range>) beside them."""
    for args in COMMANDS:
        text = help_text(args, 80)
        assert not re.search(r"--[a-z-]+ <(?:str|path|int|float)", text), (args, text)


def test_a_repeatable_option_s_limit_counts_its_values_not_characters():
    # --url takes up to 50 pages; its help said "at most 50 characters" (a URL of 51 is fine)
    from deep_research.cli.settings import settings

    url = next(s for s in settings() if s.name == "research_urls").describe()
    assert "at most 50 times" in url and "characters" not in url, url
    prompt = next(s for s in settings() if s.name == "system_prompt").describe()
    assert "at most 4,000 characters" in prompt, prompt


@pytest.mark.parametrize("args", [[], ["eval"], *COMMANDS], ids=lambda a: " ".join(a) or "top")
def test_help_shows_no_docstring_markup(args):
    # the help is the command's docstring: ``research`` showed its two backticks to the user
    assert "``" not in help_text(args, 80)


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_missing_argument_is_named_as_the_usage_line_names_it(args, capsys):
    """"Missing argument 'question'" under a usage line that says QUESTION."""
    from deep_research.cli import main

    usage = next(line.strip() for line in help_text(args, 80).splitlines() if "Usage:" in line)
    first = usage.split("[OPTIONS]")[-1].split()[0].strip("[].")
    assert first.isupper(), usage
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"Missing argument '{first}'" in err, err

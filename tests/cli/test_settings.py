"""Each setting once: the options of ``research``, ``compare`` and ``eval run`` are generated
from Configuration, checked by Configuration alone, and an error names the option typed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from deep_research.cli import app, main
from deep_research.cli import compare as cli_compare
from deep_research.cli import research as cli_research
from deep_research.cli import settings as S
from deep_research.research.runtime.configuration import Configuration

ROOT = Path(__file__).resolve().parents[2]


def command(*path: str):
    cmd = typer.main.get_command(app)
    for name in path:
        cmd = cmd.commands[name]
    return cmd


def flags(*path: str) -> set[str]:
    return {o for p in command(*path).params for o in (*p.opts, *p.secondary_opts)}


def expected_flags(leave_out=()) -> set[str]:
    out = set()
    for s in S.settings():
        if s.name in leave_out:
            continue
        out.add(s.flags[0])
        if s.kind == "bool" and s.name not in S.TURNS_OFF:
            out.add(f"--no-{s.flags[0][2:]}")
    return out


def test_every_setting_is_an_option_of_research_compare_and_eval_run():
    assert {s.name for s in S.settings()} == set(Configuration.model_fields)
    assert expected_flags() <= flags("research")
    assert expected_flags(cli_compare.NOT_FOR_COMPARE) <= flags("compare")
    from deep_research.cli.eval import NOT_FOR_EVAL

    assert expected_flags(NOT_FOR_EVAL) <= flags("eval", "run")
    # the settings today's users had, under the names they had
    for old in ("--search", "--corpus", "--max-tokens", "--max-cost", "--out", "--yes", "-y", "--approve-brief",
                "--format", "--length", "--council", "--plateau", "--pdf", "--no-pdf", "--docx", "--url",
                "--fetch-robots", "--no-fetch-robots", "--base-url", "--api-key-env", "--mode", "--db"):
        assert old in flags("research"), old
    # settings that had no option before
    for new in ("--max-researcher-iterations", "--max-concurrent-research-units", "--max-react-tool-calls",
                "--research-model", "--summarization-model", "--final-report-model-max-tokens", "--brief-search",
                "--draft-search", "--judge-claims", "--no-judge-claims", "--max-judge-calls",
                "--verified-findings", "--structured-output", "--mcp-config", "--model-prices"):
        assert new in flags("research"), new


def test_no_setting_is_shadowed_by_a_commands_own_option():
    from deep_research.cli import eval as cli_eval

    for fn in (cli_research.research, cli_compare.compare, cli_eval.run_cmd):
        assert fn.shadowed_settings == [], fn.__name__


def test_compare_takes_the_options_research_has(monkeypatch, tmp_path):
    seen = []

    async def fake(question, context, db):
        seen.append(context)
        return 0

    monkeypatch.setattr(cli_compare, "_run_compare", fake)
    rc = main(["compare", "What is tea?", "--searxng-url", "http://127.0.0.1:8888", "--url", "https://a.example/x",
               "--max-researcher-iterations", "2", "--research-model", "openai:gpt-4.1-mini", "--db",
               str(tmp_path / "state.sqlite")])
    assert rc == 0
    assert seen == [{"searxng_url": "http://127.0.0.1:8888", "search_api": "searxng",
                     "research_urls": ["https://a.example/x"], "max_researcher_iterations": 2,
                     "research_model": "openai:gpt-4.1-mini"}]
    assert main(["compare", "q", "--mode", "single"]) == 2  # compare runs both paths itself


def test_research_passes_the_settings_that_had_no_option(monkeypatch):
    seen = []

    async def fake(question, context, *args):
        seen.append(context)
        return 0

    monkeypatch.setattr(cli_research, "_run_research", fake)
    rc = main(["research", "q", "--search", "none", "--max-researcher-iterations", "7",
               "--max-concurrent-research-units", "5", "--max-react-tool-calls", "9", "--summarization-model",
               "openai:gpt-4.1-nano", "--brief-search", "--no-judge-claims", "--verified-findings",
               "--max-judge-calls", "0", "--model-prices", '{"my-model": [1, 2]}', "-y"])
    assert rc == 0
    assert seen == [{"search_api": "none", "max_researcher_iterations": 7, "max_concurrent_research_units": 5,
                     "max_react_tool_calls": 9, "summarization_model": "openai:gpt-4.1-nano",
                     "brief_search": True, "judge_claims": False, "verified_findings": True, "max_judge_calls": 0,
                     "model_prices": {"my-model": [1.0, 2.0]}, "allow_clarification": False}]


@pytest.mark.parametrize("args, message", [
    (["--length", "50"], "--length: must be at least 100"),
    (["--max-researcher-iterations", "0"], "--max-researcher-iterations: must be at least 1"),
    (["--max-researcher-iterations", "two"], "--max-researcher-iterations: must be a whole number"),
    (["--council-threshold", "1.5"], "--council-threshold: must be at most 1"),
    (["--mode", "fast"], "--mode: must be auto, single or multi, not 'fast'"),
    # a choice repeats the value typed, as typed (the case of a valid one does not matter)
    (["--citation-style", "Harvard"], "--citation-style: must be numbered, apa, mla, ieee or chicago, not 'Harvard'"),
    (["--format", "Poem "], "--format: must be detailed, concise or bullet_points, not 'Poem '"),
    (["--mcp-config", "{not json"], "--mcp-config: must be a JSON object"),
    (["--page-cache", "--max-tokens", "10"], "--max-tokens: must be at least 1,000"),
    (["--system-prompt", "x" * 4001], "--system-prompt: must be at most 4,000 characters"),
    # a number that is not finite is refused as what was typed: nan failed the bound ("must be
    # more than 0") and inf passed as a cost cap never reached
    (["--max-cost", "nan"], "--max-cost: must be a finite number, not 'nan'"),
    (["--max-cost", "inf"], "--max-cost: must be a finite number, not 'inf'"),
    (["--min-coverage", "-inf"], "--min-coverage: must be a finite number, not '-inf'"),
    (["--fetch-timeout", "NaN"], "--fetch-timeout: must be a finite number, not 'NaN'"),
])
def test_an_error_names_the_option_typed(capsys, args, message):
    assert main(["research", "What is tea?", "--search", "none", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert "Input should be" not in err  # pydantic's wording is not the user's


def test_a_setting_that_is_not_a_finite_number_is_refused_outside_the_cli_too():
    from deep_research.errors import UserError

    with pytest.raises(UserError, match=r"max_cost_usd: must be a finite number, not 'inf'"):
        Configuration.resolve(None, {"max_cost_usd": float("inf")}, environ={})
    with pytest.raises(UserError, match=r"DEEP_RESEARCH_RETRY_BACKOFF_S \(retry_backoff_s\): must be a finite number"):
        Configuration.resolve(None, {}, environ={"DEEP_RESEARCH_RETRY_BACKOFF_S": "nan"})


def test_a_whole_number_setting_too_large_for_a_number_is_said_in_the_users_words():
    """A server run's context {"max_total_tokens": 1e20} (JSON's number) was refused in
    pydantic's words: "Unable to parse input string as an integer, exceeded maximum size"."""
    from deep_research.errors import UserError

    with pytest.raises(UserError) as e:
        Configuration.resolve(None, {"max_total_tokens": 1e20}, environ={})
    assert "max_total_tokens: is too large to read as a whole number (write it in digits)" in str(e.value), str(e.value)
    assert "Unable to parse" not in str(e.value)


def test_a_run_outside_the_cli_names_the_setting_as_studio_shows_it():
    from deep_research.errors import UserError

    with pytest.raises(UserError, match=r"citation_style: must be numbered, apa, mla, ieee or chicago, not 'Harvard'"):
        Configuration.resolve(None, {"citation_style": "Harvard"}, environ={})
    assert Configuration.resolve(None, {"citation_style": " APA"}, environ={}).citation_style == "apa"

    with pytest.raises(UserError, match="report_length: must be at least 100"):
        Configuration.resolve(None, {"report_length": 50}, environ={})
    with pytest.raises(UserError, match=r"DEEP_RESEARCH_REPORT_LENGTH \(report_length\): must be at least 100"):
        Configuration.resolve(None, {}, environ={"DEEP_RESEARCH_REPORT_LENGTH": "50"})


def test_options_take_text_and_configuration_alone_checks_it():
    """No generated option has a type, range or choice of its own (that would be a second
    place of validation, with its own wording)."""
    generated = {s.flags[0] for s in S.settings()}
    for p in command("research").params:
        if p.opts and p.opts[0] in generated:
            assert getattr(p, "min", None) is None and getattr(p, "max", None) is None, p.opts
            assert p.type_descriptor.annotation in (str, bool, list[str]), (p.opts, p.type_descriptor.annotation)


def test_yes_and_approve_brief_together_are_refused(capsys):
    assert main(["research", "What is tea?", "--yes", "--approve-brief"]) == 2
    assert "--yes and --approve-brief contradict each other" in capsys.readouterr().err


# --- settings.json: what --help reads instead of importing Configuration --------------------------
def test_settings_json_is_current():
    committed = json.loads(S.SPEC.read_text(encoding="utf-8"))
    assert committed == json.loads(json.dumps(S.describe_configuration())), (
        "src/deep_research/cli/settings.json is stale: write it again with\n"
        "  uv run python -c \"from deep_research.cli.settings import write_spec; write_spec()\"")


def test_a_new_configuration_field_is_an_option_at_once(tmp_path):
    """A field added to Configuration (settings.json not written again) is an option of
    research, with its help and limits, and reaches the run."""
    probe = r"""
import json, sys
from typing import Literal
from pydantic import Field
import deep_research.research.runtime.configuration as C

class Extended(C.Configuration):
    second_judge_model: str | None = Field(None, description="provider:model of a second claim judge.")
    judge_votes: int = Field(3, ge=1, le=9, description="Votes per claim.")
    judge_mode: Literal["strict", "lenient"] = Field("strict", description="How judges agree.")

C.Configuration = Extended
import importlib
import deep_research.cli.settings as S
S.SPEC = S.SPEC.with_name("no-such-settings.json")  # as when the file is stale
S._spec.cache_clear(); S.settings.cache_clear()
import deep_research.cli as cli
from deep_research.cli import research as R, compare as K, eval as E
for m in (R, K, E, cli):  # the commands are made again, as in a new process
    importlib.reload(m)
from deep_research.cli import main
seen = []
async def fake(q, ctx, *a):
    seen.append(ctx)
    return 0
R._run_research = fake
rc = main(["research", "q", "--search", "none", "--second-judge-model", "openai:x", "--judge-votes", "5",
           "--judge-mode", "lenient"])
bad = main(["research", "q", "--judge-votes", "12"])
print("RESULT=" + json.dumps({"rc": rc, "bad": bad, "seen": seen}))
"""
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=120,
                       env={**os.environ, "DEEP_RESEARCH_ENV_FILE": "none", "COLUMNS": "80"})
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("RESULT="))
    got = json.loads(line.removeprefix("RESULT="))
    assert got["rc"] == 0 and got["bad"] == 2, r.stderr
    assert got["seen"] == [{"search_api": "none", "second_judge_model": "openai:x", "judge_votes": 5,
                            "judge_mode": "lenient"}]
    assert "--judge-votes: must be at most 9" in r.stderr


def test_a_stale_settings_json_is_not_used(tmp_path, monkeypatch):
    stale = json.loads(S.SPEC.read_text(encoding="utf-8"))
    stale["fields"] = stale["fields"][:3]
    stale["source_sha256"] = "0" * 64
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(stale), encoding="utf-8")
    monkeypatch.setattr(S, "SPEC", path)
    S._spec.cache_clear()
    S.settings.cache_clear()
    try:
        assert {s.name for s in S.settings()} == set(Configuration.model_fields)
    finally:
        S._spec.cache_clear()
        S.settings.cache_clear()


def test_every_setting_lands_in_a_help_panel_of_its_section():
    panels = {s.name: s.panel for s in S.settings()}
    assert all(first in Configuration.model_fields for first, _ in S.SECTIONS)
    assert panels["max_total_tokens"] == "Research loop and limits"
    assert panels["research_model_base_url"] == panels["citation_check_azure_endpoint"] == S.ROLE_PANEL
    assert panels["research_mode"] == "Scoping" and panels["research_urls"] == "Search and sources"
    assert panels["verified_findings"] == "Checks and report" and panels["write_pdf"] == "Output"


def test_none_unsets_a_number_setting_without_a_default():
    """--max-cost none / --max-tokens none (any number setting whose default is no value):
    unset, kept as such so that a resume replaces the run's saved cap with it; other
    settings take "none" as they would any other text, and the help says which."""
    unsettable = {s.name for s in S.settings() if s.unsettable}
    assert {"max_cost_usd", "max_total_tokens"} <= unsettable
    assert S.checked_context(max_cost="none", max_tokens=" NONE ") == {"max_cost_usd": None,
                                                                        "max_total_tokens": None}
    from deep_research.errors import UserError

    with pytest.raises(UserError, match="--max-researcher-iterations: must be a whole number"):
        S.checked_context(max_researcher_iterations="none")  # it has a default: nothing to unset
    helps = {s.name: s.describe() for s in S.settings()}
    assert "none: unset, also on resume" in helps["max_cost_usd"]
    assert "none" not in helps["max_researcher_iterations"]

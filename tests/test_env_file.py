"""The settings file (.env) both front ends read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _cli(work: Path, **env) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if k != "DEEP_RESEARCH_ENV_FILE"}
    full.update(PYTHONPATH=str(ROOT), **env)
    return subprocess.run([sys.executable, "-m", "deep_research.cli", "index", str(work / "docs")],
                          capture_output=True, text=True, cwd=work, env=full, timeout=120, stdin=subprocess.DEVNULL)


def test_a_settings_file_that_does_not_parse_is_named_exit_2(tmp_path: Path):
    """python-dotenv said "could not parse statement starting at line 2", naming no file,
    and the run went on without that line's setting. The file is named now (as the user
    named it, or as it was found), with its lines; exit 2, no traceback, nothing done."""
    work = tmp_path / "work"
    (work / "docs").mkdir(parents=True)
    (work / ".env").write_text('OPENAI_API_KEY=sk-1\nDEEP_RESEARCH_MAX_COST_USD 5\nB="open\n', encoding="utf-8")
    r = _cli(work)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    said = " ".join(r.stderr.split())
    assert f"the environment file {work / '.env'} cannot be read as NAME=value lines: lines 2, 3" in said, said
    assert "python-dotenv" not in r.stderr and not (work / "docs" / ".deep-research").exists()
    (work / "my.env").write_text("A=1\nnot a setting\n", encoding="utf-8")
    r = _cli(work, DEEP_RESEARCH_ENV_FILE="my.env")
    assert r.returncode == 2 and "the environment file my.env cannot be read as NAME=value lines: line 2 " in \
        " ".join(r.stderr.split()), r.stderr
    # what parses is loaded as before: comments, export, quotes, ${VAR}
    (work / ".env").write_text('# a comment\nexport A="x # y"\nB=${A}\n\n', encoding="utf-8")
    r = _cli(work)
    assert r.returncode == 0, r.stderr


def test_a_bad_value_from_the_settings_file_names_the_file(tmp_path: Path):
    """A value the settings refuse was said to be "in the environment" when it came from the
    .env file: the file is named beside the variable now; a value set in the shell (which
    wins over the file) is not said to come from it."""
    work = tmp_path / "work"
    (work / "docs").mkdir(parents=True)
    (work / ".env").write_text("DEEP_RESEARCH_BRIEF_COUNCIL_MAX_ROUNDS=abc\n", encoding="utf-8")
    full = {k: v for k, v in os.environ.items() if k not in ("DEEP_RESEARCH_ENV_FILE",
                                                               "DEEP_RESEARCH_BRIEF_COUNCIL_MAX_ROUNDS")}
    full.update(PYTHONPATH=str(ROOT))

    def run(**env) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "deep_research.cli", "research", "What is X?"],
                              capture_output=True, text=True, cwd=work, env={**full, **env}, timeout=120,
                              stdin=subprocess.DEVNULL)

    r = run()
    said = " ".join(r.stderr.split())
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert ("DEEP_RESEARCH_BRIEF_COUNCIL_MAX_ROUNDS (brief_council_max_rounds, set in the environment file "
            f"{work / '.env'}): must be a whole number") in said, said
    r = run(DEEP_RESEARCH_BRIEF_COUNCIL_MAX_ROUNDS="xyz")
    said = " ".join(r.stderr.split())
    assert r.returncode == 2 and "(brief_council_max_rounds): must be a whole number" in said, said
    assert "environment file" not in said

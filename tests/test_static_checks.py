"""ruff and mypy run as part of the suite, so CI (`uv run pytest`) fails on a lint or type error.

Both are configured in pyproject.toml; run them alone with `uv run ruff check` and `uv run mypy`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb"}
    env.pop("FORCE_COLOR", None)
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300, check=False)


def test_ruff_check_passes() -> None:
    done = _run("ruff", "check", "--no-cache", "--output-format", "concise", ".")
    if done.returncode != 0:
        pytest.fail(f"`ruff check` found problems:\n{done.stdout}{done.stderr}", pytrace=False)


def test_mypy_passes() -> None:
    done = _run("mypy")  # files and settings come from [tool.mypy] in pyproject.toml
    if done.returncode != 0 or "Success: no issues found" not in done.stdout:
        pytest.fail(f"`mypy` found problems:\n{done.stdout}{done.stderr}\nFix the type, or where mypy cannot "
                    "follow the code, say so on the line: `# type: ignore[code]  # why`", pytrace=False)

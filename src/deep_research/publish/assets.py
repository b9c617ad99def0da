"""Where the report templates live: inside the installed package, or the repo's templates/."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def templates_dir() -> Path:
    here = Path(__file__).resolve()
    for candidate in (here.parents[1] / "templates", here.parents[3] / "templates"):
        if (candidate / "report.html.j2").is_file():
            return candidate
    raise FileNotFoundError("report templates not found (expected templates/report.html.j2)")

"""How long each ``--help`` takes, as a user waits for it: whole processes of the installed
``deep-research`` entry point, fastest of N, wall clock and CPU time (user + system of the
child), against the target of 0.3 s (issue 23).

The wall clock of the fastest run is the figure; CPU time is printed beside it because on a
machine shared with other work the wall clock also measures the waiting for a core (the
1-minute load average is printed, and recorded in the JSON result).

Compare with another checkout (e.g. main before a change) by pointing ``--src`` at its
``src`` folder: the same interpreter imports that ``deep_research`` instead.

    uv run python benchmarks/bench_cli_help.py [--runs 15] [--src /tmp/main-checkout/src]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import REPO, print_code_version, target_line, write_result  # noqa: E402

TARGET_S = 0.3
# every command and group of the app, read from the code measured (a fixed list missed
# eval judge, ab, export-drb and import-drb)
_LIST_HELPS = """
import json, typer.main
from deep_research.cli import app
def walk(cmd, path):
    yield path
    for name, sub in (getattr(cmd, "commands", None) or {}).items():
        yield from walk(sub, [*path, name])
print(json.dumps(list(walk(typer.main.get_command(app), []))))
"""


def help_pages(env: dict) -> list[list[str]]:
    """The argument lists of every ``--help`` page: [], ["research"], ..., ["eval", "run"], ..."""
    r = subprocess.run([sys.executable, "-c", _LIST_HELPS], capture_output=True, text=True, env=env, check=True)
    return json.loads(r.stdout)


def measure(args: list[str], runs: int, env: dict) -> tuple[float, float]:
    """(fastest wall clock, fastest CPU) of ``deep-research ARGS --help`` over ``runs`` processes."""
    cmd = [sys.executable, "-c", "from deep_research.cli import run; run()", *args, "--help"]
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=False)
        walls.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if r.returncode != 0:
            raise SystemExit(f"deep-research {' '.join(args)} --help exited {r.returncode}: {r.stderr.decode()[:500]}")
    return min(walls), min(cpus)


def _without_bytecode(src: Path) -> int:
    """How many of the package's modules have no up-to-date .pyc for this Python."""
    import importlib.util

    n = 0
    for py in (src / "deep_research").rglob("*.py"):
        pyc = Path(importlib.util.cache_from_source(str(py)))
        if not pyc.is_file() or pyc.stat().st_mtime < py.stat().st_mtime:
            n += 1
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15, help="processes per help page (the fastest counts)")
    ap.add_argument("--src", help="another checkout's src folder to measure instead of this one")
    a = ap.parse_args()
    env = {**os.environ, "DEEP_RESEARCH_ENV_FILE": "none", "COLUMNS": "80"}
    if a.src:
        env["PYTHONPATH"] = str(Path(a.src).resolve())
    print_code_version()
    print(f"source: {a.src or 'this checkout'}; {a.runs} processes per page, fastest counts; "
          f"load average at start {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    missing = _without_bytecode(Path(a.src).resolve() if a.src else REPO / "src")
    if missing:
        # with PYTHONDONTWRITEBYTECODE set (as on the project's machines) every start recompiles
        # what has no .pyc: about 0.1 s more per page than a user's installed package pays
        print(f"note: {missing} source files have no bytecode, so each start compiles them: run "
              f"`uv run python -m compileall -q src` first (as .ci/run does) for a user's figure")
    rows = []
    for args in help_pages(env):
        wall, cpu = measure(args, a.runs, env)
        label = f"deep-research {' '.join(args)} --help".replace("  ", " ")
        row = target_line(label, f"{wall:.3f} s (cpu {cpu:.3f})", f"<= {TARGET_S} s", wall <= TARGET_S)
        rows.append({**row, "wall_s": round(wall, 4), "cpu_s": round(cpu, 4)})
    load = os.getloadavg()[0]
    print(f"load average at the end {load:.2f}")
    path = write_result("bench_cli_help", {"runs": a.runs, "src": a.src, "load_average_end": load, "pages": rows})
    print(f"wrote {path}")


if __name__ == "__main__":
    main()

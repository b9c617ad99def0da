"""Helpers shared by the benchmark scripts (not a test module, not part of the package).

* ``pydoc_root`` finds (or fetches with apt-get download + dpkg -x) the Python 3.11 HTML
  docs that serve as a corpus of real pages we did not write.
* ``target_line`` prints a figure next to its target with MET / NOT MET.
* ``write_result`` stores a run's figures as JSON under benchmarks/results/.
"""

from __future__ import annotations

import datetime as dt
import glob
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
CACHE = BENCH_DIR / ".cache"
RESULTS = BENCH_DIR / "results"
PYDOC_SUBDIR = Path("usr/share/doc/python3.11/html")

if str(REPO) not in sys.path:  # for tests.support.chromium
    sys.path.insert(0, str(REPO))


def pydoc_root(arg: str | None) -> Path:
    """The Python 3.11 HTML docs folder: --pydoc DIR (either the html folder itself or
    a dpkg -x target), else benchmarks/.cache/pydoc, fetched there when missing."""
    if arg:
        p = Path(arg).expanduser().resolve()
        for cand in (p, p / PYDOC_SUBDIR):
            if (cand / "library").is_dir():
                return cand
        raise SystemExit(f"--pydoc {arg}: no library/ folder there or under {PYDOC_SUBDIR}")
    target = CACHE / "pydoc"
    html = target / PYDOC_SUBDIR
    if (html / "library").is_dir():
        return html
    CACHE.mkdir(parents=True, exist_ok=True)
    print(f"fetching the Python 3.11 docs into {target} (apt-get download python3.11-doc) ...",
          flush=True)
    subprocess.run(["apt-get", "download", "python3.11-doc"], cwd=CACHE, check=True)
    debs = sorted(glob.glob(str(CACHE / "python3.11-doc_*.deb")))
    if not debs:
        raise SystemExit("apt-get download python3.11-doc produced no .deb")
    subprocess.run(["dpkg", "-x", debs[-1], str(target)], check=True)
    if not (html / "library").is_dir():
        raise SystemExit(f"{debs[-1]} did not contain {PYDOC_SUBDIR}")
    return html


def percentile(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile (p in 0..100); None for no values."""
    if not values:
        return None
    v = sorted(values)
    k = max(0, min(len(v) - 1, int(round(p / 100 * len(v) + 0.5)) - 1))
    return v[k]


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def target_line(label: str, value: str, target: str, met: bool | None) -> dict:
    """Print one figure with its target; returns it as a dict for the JSON result."""
    verdict = "n/a" if met is None else ("MET" if met else "NOT MET")
    print(f"  {label:<44} {value:>18}   target {target:<22} {verdict}")
    return {"label": label, "value": value, "target": target, "met": met}


def _git(*args: str) -> str | None:
    try:
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True,
                              check=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


def environment() -> dict:
    """Where and on what code a result was measured (the code under src/ may carry
    uncommitted edits: their file names and a hash of their diff are recorded)."""
    import hashlib

    diff = _git("diff", "HEAD", "--", "src") or ""
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "when": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "git_head": _git("rev-parse", "HEAD"),
        "src_modified": (_git("diff", "HEAD", "--name-only", "--", "src") or "").split(),
        "src_untracked": (_git("ls-files", "--others", "--exclude-standard", "--", "src") or "").split(),
        "src_diff_sha1": hashlib.sha1(diff.encode()).hexdigest() if diff else None,
    }


def write_result(name: str, data: dict) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    data = {"benchmark": name, "environment": environment(), **data}
    path = RESULTS / f"{name}-{stamp}.json"
    text = json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n"
    path.write_text(text, encoding="utf-8")
    (RESULTS / f"{name}-latest.json").write_text(text, encoding="utf-8")
    return path


def print_code_version() -> None:
    env = environment()
    mods = env["src_modified"] + env["src_untracked"]
    print(f"code: {(env['git_head'] or 'unknown')[:10]}"
          + (f" + uncommitted changes in {', '.join(m.removeprefix('src/deep_research/') for m in mods)}"
             if mods else ""))


def run_child(script: str, job: dict, code: str | None = None, *, capture: bool = True) -> dict:
    """Run ``script --child <job>`` in a fresh interpreter and return the JSON it writes to
    ``--child-out``. ``code``: a src folder to import the measured code from (put first on
    PYTHONPATH); ``capture``: keep the child's output (off to let a profile print)."""
    import tempfile

    env = dict(os.environ)
    if code:
        env["PYTHONPATH"] = code + os.pathsep + env.get("PYTHONPATH", "")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        out = f.name
    r = subprocess.run([sys.executable, script, "--child", json.dumps(job), "--child-out", out],
                       env=env, cwd=REPO, capture_output=capture, text=True, check=False)
    if r.returncode != 0:
        raise SystemExit(f"child {job['task']} failed:\n{r.stdout}\n{r.stderr}")
    data = json.loads(Path(out).read_text())
    os.unlink(out)
    return data

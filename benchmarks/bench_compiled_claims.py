"""The claim check compiled (mypyc; Cython optionally) vs pure Python: pairs/s and verdicts.

An experiment for issue 25's ">= 5,000 pairs/s by code" on passage quotes (comp27): it copies
``src/`` to a scratch folder, compiles the claim modules there (``HOT``: every module of
``citations/claims`` but the three below), and runs ``check_claim`` on the named groups' pairs
in a child process per build - the pure package, then each compiled copy first on sys.path -
printing pairs/s (CPU, cold caches, best of ``--runs``) and whether every verdict (status,
rule, note, lacking) equals the pure build's. Nothing is installed; the repository is not
changed.

    uv run python benchmarks/bench_compiled_claims.py --groups fresh15,fresh16,fresh17,fresh34
    uv run python benchmarks/bench_compiled_claims.py --cythonize /tmp/cy/bin/cythonize

Left out of the compiled set: ``antonym`` (mypyc 2.4 crashes on ``("from", *_CONTRASTS)``
inside a generator), ``lexicon`` (``del self._x`` of a native class needs ``__deletable__``),
``judge_check`` (variables reused with another type: mypyc checks declared types at run time);
none of them is on the per-token path. Needs gcc and the Python headers.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CLAIMS = Path("deep_research") / "citations" / "claims"
SKIP = ("__init__.py", "antonym.py", "lexicon.py", "judge_check.py")


def hot_modules(src: Path) -> list[str]:
    return sorted(str(p.relative_to(src)) for p in (src / CLAIMS).glob("*.py") if p.name not in SKIP)


def build_mypyc(work: Path) -> Path:
    src = work / "mypyc"
    shutil.copytree(REPO / "src", src)
    # mypyc type-checks only the modules it compiles: the project's other per-module sections
    # would be "unused" and fail the build under warn_unused_configs
    cfg = work / "mypyc.toml"
    cfg.write_text((REPO / "pyproject.toml").read_text(encoding="utf-8")
                   .replace("warn_unused_configs = true", "warn_unused_configs = false"), encoding="utf-8")
    mypyc = Path(sys.executable).with_name("mypyc")
    _build([str(mypyc), "--config-file", str(cfg), *hot_modules(src)], src)
    return src


def build_cython(work: Path, cythonize: str) -> Path:
    src = work / "cython"
    shutil.copytree(REPO / "src", src)
    names = [Path(m).name for m in hot_modules(src) if Path(m).name != "types.py"]  # dataclass(slots)
    _build([cythonize, "-i", "-3", *names], src / CLAIMS)
    return src


def _build(cmd: list[str], cwd: Path) -> None:
    """Run a compiler; its output (pages of gcc warnings for Cython's C) only when it fails."""
    res = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if res.returncode:
        sys.exit(f"{cmd[0]} failed ({res.returncode}):\n{res.stdout[-4000:]}\n{res.stderr[-4000:]}")


def measure(groups: list[str], runs: int) -> dict:
    """(in the child) pairs/s per group and a hash of every verdict."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    import bench_claims as bc
    import claims_verdicts as cv
    from deep_research.citations.claims import analysis, check_claim

    out: dict = {"analysis": Path(analysis.__file__).name, "groups": {}}
    digest = hashlib.sha256()
    for g in groups:
        pairs = cv.labelled_pairs_of(g, bc.FACTVER_ROOT, None)
        best = float("inf")
        for _ in range(runs):
            bc._clear_caches()
            t = time.process_time()
            for _k, claim, quotes, _label in pairs:
                check_claim(claim, quotes)
            best = min(best, time.process_time() - t)
        for key, claim, quotes, _label in pairs:
            r = check_claim(claim, quotes)
            digest.update(json.dumps([key, r.status.value, r.rule, r.note, r.lacking]).encode())
        out["groups"][g] = {"pairs": len(pairs), "pairs_per_s": len(pairs) / max(best, 1e-9)}
    out["verdicts"] = digest.hexdigest()
    return out


def child(path: Path | None, groups: list[str], runs: int) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if path is not None:
        env["PYTHONPATH"] = str(path)
    res = subprocess.run([sys.executable, __file__, "--child", ",".join(groups), "--runs", str(runs)],
                         env=env, check=True, capture_output=True, text=True)
    return json.loads(res.stdout.splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--groups", default="fresh15,fresh16,fresh17,fresh34")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cythonize", help="a cythonize executable (Cython 3, same Python 3.11): also build with it")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(measure(args.child.split(","), args.runs)))
        return 0
    groups = args.groups.split(",")
    if {"fresh43", "fresh44"} & set(groups):
        sys.exit("fresh43/fresh44 are unseen: not measured here")
    with tempfile.TemporaryDirectory(prefix="compiled-claims-") as tmp:
        work = Path(tmp)
        builds: dict[str, Path | None] = {"pure": None, "mypyc": build_mypyc(work)}
        if args.cythonize:
            builds["cython"] = build_cython(work, args.cythonize)
        results = {name: child(path, groups, args.runs) for name, path in builds.items()}
    pure = results["pure"]
    print(f"{'group':10}" + "".join(f"{name:>16}" for name in results) + "   pairs/s, CPU, cold, best of "
          f"{args.runs}")
    for g in groups:
        print(f"{g:10}" + "".join(f"{r['groups'][g]['pairs_per_s']:16,.0f}" for r in results.values())
              + f"   ({pure['groups'][g]['pairs']} pairs)")
    for name, r in results.items():
        same = "same verdicts as pure" if r["verdicts"] == pure["verdicts"] else "VERDICTS DIFFER from pure"
        print(f"{name}: analysis module {r['analysis']}; {same}")
    return 0 if all(r["verdicts"] == pure["verdicts"] for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())

"""Reader for the public fact-verification pairs under /work/shared/data/factver/.

Each pair is a claim, the evidence text a person annotated for it (``quotes``) and a gold
``label`` (``supported`` | ``unsupported``; ``class`` keeps the data set's own label).
The data is third-party and lives outside the repository; it was made by
``benchmarks/data/factver/fetch_factver.py`` (its README.md says from what, per data set).

``load("dev")`` is for working on the claim check. ``load("holdout")`` is for the final,
unseen figures only: do not inspect or tune on it.
"""

from __future__ import annotations

import json
from pathlib import Path

DEFAULT_ROOT = Path("/work/shared/data/factver")
FRESH_ROOT = Path("/work/shared/data/factver-fresh")  # holdout-only sets (fetch_factver.py --fresh)
if not FRESH_ROOT.is_dir() and Path("/tmp/factver-fresh").is_dir():
    FRESH_ROOT = Path("/tmp/factver-fresh")  # a local copy
FRESH2_ROOT = Path("/tmp/factver-fresh2")  # the second holdout-only group (fetch_factver.py --fresh2)
FRESH3_ROOT = Path("/tmp/factver-fresh3")  # the third holdout-only group (fetch_factver.py --fresh3)
FRESH5_ROOT = Path("/tmp/factver-fresh5")  # the fifth group's public half (fetch_factver.py --fresh5)
FRESH6_ROOT = Path("/tmp/factver-fresh6")  # the sixth group's public half (fetch_factver.py --fresh6)
FRESH7_ROOT = Path("/tmp/factver-fresh7")  # the seventh group's public half (fetch_factver.py --fresh7)
FRESH9_ROOT = Path("/tmp/factver-fresh9")  # the ninth group's public half (fetch_factver.py --fresh9)
SPLITS = ("dev", "holdout")
LABELS = ("supported", "unsupported")
_RECIPE = "benchmarks/data/factver/fetch_factver.py"


class FactverMissing(FileNotFoundError):
    """The converted data (or a requested part of it) is not on this machine."""


def available(root: Path = DEFAULT_ROOT) -> list[str]:
    """Names of the data sets present under ``root`` (folders holding a dev.jsonl or, for
    the holdout-only fresh sets, a holdout.jsonl)."""
    root = Path(root)
    if not root.is_dir():
        return []
    return sorted(
        p.name
        for p in root.iterdir()
        if (p / "dev.jsonl").is_file() or (p / "holdout.jsonl").is_file()
    )


def load(
    split: str, datasets: list[str] | tuple[str, ...] | None = None, root: Path = DEFAULT_ROOT
) -> list[dict]:
    """All pairs of ``split`` ("dev" or "holdout") for ``datasets`` (default: every data set
    found under ``root``), in file order, data sets sorted by name.

    Raises ``ValueError`` for an unknown split and ``FactverMissing`` (with what to run)
    when the folder, a named data set or one of its files is missing.
    """
    if split not in SPLITS:
        raise ValueError(f"split {split!r}: expected one of {', '.join(SPLITS)}")
    root = Path(root)
    have = available(root)
    if not have:
        raise FactverMissing(
            f"no fact-verification data under {root}: it is third-party data kept outside "
            f"the repository. Rebuild it with `python {_RECIPE} --out {root}` from git "
            f"snapshots of the source repositories (the script's docstring lists them, "
            f"with the commit of each), or pass root= to where a copy is."
        )
    names = sorted(have) if datasets is None else list(datasets)
    unknown = [n for n in names if n not in have]
    if unknown:
        raise FactverMissing(
            f"data set(s) {', '.join(unknown)} not under {root} "
            f"(present: {', '.join(have)}); see `python {_RECIPE} --help`"
        )
    out: list[dict] = []
    for name in names:
        path = root / name / f"{split}.jsonl"
        if not path.is_file():
            raise FactverMissing(f"{path} is missing; rebuild with `python {_RECIPE}`")
        with path.open(encoding="utf-8") as fh:
            for n, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                rec = json.loads(line)
                if rec.get("label") not in LABELS or not rec.get("quotes") or not rec.get("claim"):
                    raise ValueError(f"{path}:{n}: not a claim/quotes/label record")
                out.append(rec)
    return out


def _main() -> None:
    import argparse
    import collections
    import sys

    ap = argparse.ArgumentParser(
        description="Count the fact-verification pairs per data set "
        "and label (no example is printed)."
    )
    ap.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    ap.add_argument("--split", choices=SPLITS, default="dev")
    args = ap.parse_args()
    try:
        recs = load(args.split, root=args.root)
    except FactverMissing as exc:
        print(exc, file=sys.stderr)
        raise SystemExit(2) from None
    counts = collections.Counter((r["dataset"], r["label"]) for r in recs)
    for name in sorted({r["dataset"] for r in recs}):
        print(
            f"{name:14} supported {counts[(name, 'supported')]:5}   "
            f"unsupported {counts[(name, 'unsupported')]:5}"
        )
    print(f"{'total':14} {len(recs)} pairs ({args.split})")


if __name__ == "__main__":
    _main()

"""Every dev pair's verdict by code (status, rule, note) - to show that a change meant only
to make the claim check faster changes no verdict.

    uv run python benchmarks/claims_verdicts.py --write before.jsonl   # on the old code
    uv run python benchmarks/claims_verdicts.py --compare before.jsonl # on the new code

``--compare`` prints each pair whose verdict differs and exits 1 when any does. Dev parts
only (pg-dev, the hand-written dev part, the public fact-verification dev parts). It runs
with PYTHONHASHSEED=0 (re-executing itself when unset): the ``antonym`` rule's note names
the first opposite found in a set, so without a fixed seed a note may change between runs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_claims as bc

from deep_research.citations.claims import check_claim


def verdicts(factver_root: Path) -> dict[str, list]:
    pairs = bc.load_pg(bc.PG_DIR) + bc.load_hand(bc.HAND_DIR, "dev") + bc.load_fv(factver_root, "dev")
    out: dict[str, list] = {}
    for p in pairs:
        r = check_claim(p.claim, p.quotes)
        out[f"{p.dataset}|{p.id}"] = [r.status.value, r.rule, r.note]
    return out


def main() -> int:
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", type=Path)
    g.add_argument("--compare", type=Path)
    ap.add_argument("--factver-root", type=Path, default=bc.FACTVER_ROOT)
    args = ap.parse_args()
    now = verdicts(args.factver_root)
    if args.write:
        args.write.write_text("".join(json.dumps([k, v]) + "\n" for k, v in now.items()), encoding="utf-8")
        print(f"{len(now)} verdicts written to {args.write}")
        return 0
    before = dict(json.loads(line) for line in args.compare.read_text(encoding="utf-8").splitlines() if line)
    diff = sorted(k for k in before.keys() | now.keys() if before.get(k) != now.get(k))
    for k in diff[:50]:
        print(f"{k}: before {before.get(k)} now {now.get(k)}")
    print(f"{len(now)} pairs now, {len(before)} before: {len(diff)} verdicts differ")
    return 1 if diff else 0


if __name__ == "__main__":
    raise SystemExit(main())

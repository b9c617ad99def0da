"""The fixed sampling rule of the judge-hand answers (chosen before any pair was read).

For each pair file, pairs are taken in file order, separately per label; the i-th pair of a label
(0-based) is sampled when ``i % K == 0``:

* supported:   K = 2  -> a "right" answer (verdict "supports")
* unsupported: K = 4  -> a "right" answer (contradicts / partly / abstain) AND a "wrong" answer
  (a sloppy "supports")
* of the sampled supported pairs (in the order above, dev files in the order listed), every 5th
  (dev) or 6th (holdout) pair, 0-based, also gets a "wrong" answer (a nit-picking "contradicts").

Dev files: claims-hand/dev.jsonl, then claims-dev/cases.jsonl (PostgreSQL, outside the repository).
Holdout file: claims-hand/holdout.jsonl.

``python sample.py dev|holdout`` prints one line per (pair, kind) to write.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLAIMS_HAND = HERE.parent / "claims-hand"
CLAIMS_DEV = Path("/work/shared/data/claims-dev/cases.jsonl")

FILES = {
    "dev": [("claims-hand", CLAIMS_HAND / "dev.jsonl"), ("claims-dev", CLAIMS_DEV)],
    "holdout": [("claims-hand", CLAIMS_HAND / "holdout.jsonl")],
}
K_LABEL = {"supported": 2, "unsupported": 4}
K_WRONG_SUPPORTED = {"dev": 5, "holdout": 6}


def load(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def sample(split: str) -> list[tuple[dict, str, str]]:
    """(pair, source, kind) in file order; kind is "right" or "wrong"."""
    out: list[tuple[dict, str, str]] = []
    supported_seen = 0
    for source, path in FILES[split]:
        if not path.exists():
            continue
        counts = {"supported": 0, "unsupported": 0}
        for pair in load(path):
            label = pair["label"]
            index = counts[label]
            counts[label] += 1
            if index % K_LABEL[label]:
                continue
            out.append((pair, source, "right"))
            if label == "unsupported":
                out.append((pair, source, "wrong"))
            else:
                if supported_seen % K_WRONG_SUPPORTED[split] == 0:
                    out.append((pair, source, "wrong"))
                supported_seen += 1
    return out


def main(argv: list[str]) -> int:
    split = argv[0] if argv else "dev"
    if split not in FILES:
        print(f"usage: sample.py dev|holdout (got {split!r})", file=sys.stderr)
        return 2
    for pair, source, kind in sample(split):
        print(pair["id"], source, pair["label"], pair["class"], kind)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Check claims-hand: every pair well formed, every quote an exact substring of its stored page.

    uv run python benchmarks/data/claims-hand/check.py        # exit 1 on any problem
    uv run python benchmarks/data/claims-hand/check.py --counts
    uv run python benchmarks/data/claims-hand/check.py --data-dir benchmarks/data/claims-fresh

Prints counts per data set, class, label and split (the figures in README.md).
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SUPPORTED = {"paraphrase_synonyms", "reorder_voice", "reporting_frame", "summary_drop_detail",
             "harmless_context", "number_format", "combine_two"}
UNSUPPORTED = {"number_changed", "negation", "antonym_opposite", "entity_swap", "role_swap",
               "quantifier_modal", "scope_modifier", "one_word_fact", "unsupported_addition",
               "date_or_version", "overgeneralisation"}


def load(here: Path = HERE) -> list[dict]:
    """The pairs of every split file present in ``here`` (claims-fresh has a holdout only)."""
    rows = []
    for split in ("dev", "holdout"):
        path = here / f"{split}.jsonl"
        if split == "dev" and not path.exists() and (here / "holdout.jsonl").exists():
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            row = json.loads(line)
            row["_where"] = f"{split}.jsonl:{n}"
            row["_file_split"] = split
            rows.append(row)
    return rows


def problems(rows: list[dict], here: Path = HERE) -> list[str]:
    out, seen, page_split = [], set(), {}
    pages = set((here / "pages.txt").read_text().split())
    for r in rows:
        w = r["_where"]
        if r["id"] in seen:
            out.append(f"{w}: duplicate id {r['id']}")
        seen.add(r["id"])
        if r["split"] != r["_file_split"]:
            out.append(f"{w}: split {r['split']} in {r['_file_split']}.jsonl")
        if page_split.setdefault(r["page"], r["split"]) != r["split"]:
            out.append(f"{w}: page {r['page']} is in both splits")
        if r["page"] not in pages or not r["page"].startswith(r["dataset"] + "/"):
            out.append(f"{w}: page {r['page']} not listed in pages.txt or not in data set {r['dataset']}")
            continue
        ok = SUPPORTED if r["label"] == "supported" else UNSUPPORTED if r["label"] == "unsupported" else set()
        if r["class"] not in ok:
            out.append(f"{w}: class {r['class']} does not fit label {r['label']}")
        quotes = r.get("quotes") or [r.get("quote", "")]
        if ("quote" in r) == ("quotes" in r) or (r["class"] == "combine_two" and len(quotes) != 2):
            out.append(f"{w}: give either quote or quotes (two for combine_two)")
        text = (here / "pages" / f"{r['page']}.txt").read_text(encoding="utf-8")
        for q in quotes:
            if not q or q not in text:
                out.append(f"{w}: quote not on page {r['page']}: {q[:60]!r}")
        if not r["claim"].strip() or r["claim"] in quotes:
            out.append(f"{w}: empty claim or claim equal to its quote")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--counts", action="store_true", help="print counts per data set, class and split")
    ap.add_argument("--data-dir", type=Path, default=HERE, help="data set folder (default: claims-hand)")
    args = ap.parse_args()
    rows = load(args.data_dir)
    bad = problems(rows, args.data_dir)
    for p in bad:
        print(p)
    print(f"{len(rows)} pairs, {len({r['page'] for r in rows})} pages, {len(bad)} problems")
    if args.counts:
        for key in ("dataset", "split", "label"):
            c = collections.Counter((r[key], r["label"]) if key != "label" else (r[key],) for r in rows)
            print(f"\nby {key}:", dict(sorted(c.items())))
        pages = collections.Counter((r["dataset"], r["split"]) for r in {r["page"]: r for r in rows}.values())
        print("\npages by data set and split:", dict(sorted(pages.items())))
        print("\nclass  dev  holdout  total")
        c = collections.Counter((r["class"], r["split"]) for r in rows)
        for cls in sorted(SUPPORTED) + sorted(UNSUPPORTED):
            print(f"{cls:22s} {c[cls, 'dev']:4d} {c[cls, 'holdout']:7d} {c[cls, 'dev'] + c[cls, 'holdout']:6d}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

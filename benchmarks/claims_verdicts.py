"""Every pair's verdict by code (status, rule, note, "number lacking") - to show that a change meant only to
make the claim check faster changes no verdict.

    uv run python benchmarks/claims_verdicts.py --write before.jsonl   # on the old code
    uv run python benchmarks/claims_verdicts.py --compare before.jsonl # on the new code

``--group`` names the pairs (default ``dev``: pg-dev, the hand-written dev part, the public
fact-verification dev parts under ``--factver-root``); ``holdout`` (the holdout parts),
``fresh`` ... ``fresh9``, ``fresh11``, ``fresh12``, ``fresh13``, ``fresh14``, ``fresh15``, ``fresh16``, ``fresh17``, ``fresh18``, ``fresh19``, ``fresh20``, ``fresh21``, ``fresh22``, ``fresh23``, ``fresh24``, ``fresh25``, ``fresh26``, ``fresh27``, ``fresh28``, ``fresh29``, ``fresh30``, ``fresh31``, ``fresh32``, ``fresh33``, ``fresh34``, ``fresh35``, ``fresh36``, ``fresh37``, ``fresh38``, ``fresh39``, ``fresh40``, ``fresh41``, ``fresh42``, ``fresh43``, ``fresh44`` (a fresh
group: its hand-written pairs and its public sets under ``--fresh-factver-root``, default the
group's usual place), ``probes`` (the red-team probes).
Keep the dumps of unseen groups out of the repository and do not read them.

``--group all`` takes every group at once (``--skip NAME`` leaves one out: a group not yet
measured at first sight must not be read); its dump also keeps each pair's label, and its
``--compare`` prints, beside the count, how verdicts moved (label: before -> now), how many
became ``supported`` (a change to the rules must keep that at 0 unless it means to add a
proof), and with ``--show N`` up to N changed pairs per kind of move, unseen groups aside.

``--compare`` prints each dev/probe pair whose verdict differs (for the unseen groups only
how many differ: no case is printed) and exits 1 when any does. It runs with
PYTHONHASHSEED=0 (re-executing itself when unset): the ``antonym`` rule's note names the
first opposite found in a set, so without a fixed seed a note may change between runs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_claims as bc
import bench_claim_probes as probes

from deep_research.citations.claims import check_claim

# group -> (hand-written dir, its public sets' usual root or None)
_FRESH = {
    "fresh": (bc.FRESH_HAND_DIR, bc.FRESH_FACTVER_ROOT),
    "fresh2": (bc.FRESH2_HAND_DIR, bc.FRESH2_FACTVER_ROOT),
    "fresh3": (bc.FRESH3_HAND_DIR, bc.FRESH3_FACTVER_ROOT),
    "fresh4": (bc.FRESH4_HAND_DIR, None),
    "fresh5": (bc.FRESH5_HAND_DIR, bc.FRESH5_FACTVER_ROOT),
    "fresh6": (bc.FRESH6_HAND_DIR, bc.FRESH6_FACTVER_ROOT),
    "fresh7": (bc.FRESH7_HAND_DIR, bc.FRESH7_FACTVER_ROOT),
    "fresh8": (bc.FRESH8_HAND_DIR, None),
    "fresh9": (bc.FRESH9_HAND_DIR, bc.FRESH9_FACTVER_ROOT),
    "fresh11": (bc.FRESH11_HAND_DIR, bc.FRESH11_FACTVER_ROOT),
    "fresh12": (bc.FRESH12_HAND_DIR, bc.FRESH12_FACTVER_ROOT),
    "fresh13": (bc.FRESH13_HAND_DIR, bc.FRESH13_FACTVER_ROOT),
    "fresh14": (bc.FRESH14_HAND_DIR, bc.FRESH14_FACTVER_ROOT),
    "fresh15": (bc.FRESH15_HAND_DIR, bc.FRESH15_FACTVER_ROOT),
    "fresh16": (bc.FRESH16_HAND_DIR, bc.FRESH16_FACTVER_ROOT),
    "fresh17": (bc.FRESH17_HAND_DIR, bc.FRESH17_FACTVER_ROOT),
    "fresh18": (bc.FRESH18_HAND_DIR, bc.FRESH18_FACTVER_ROOT),
    "fresh19": (bc.FRESH19_HAND_DIR, None),
    "fresh20": (bc.FRESH20_HAND_DIR, None),
    "fresh21": (bc.FRESH21_HAND_DIR, None),
    "fresh22": (bc.FRESH22_HAND_DIR, None),
    "fresh23": (bc.FRESH23_HAND_DIR, None),
    "fresh24": (bc.FRESH24_HAND_DIR, None),
    "fresh25": (bc.FRESH25_HAND_DIR, None),
    "fresh26": (bc.FRESH26_HAND_DIR, None),
    "fresh27": (bc.FRESH27_HAND_DIR, None),
    "fresh28": (bc.FRESH28_HAND_DIR, None),
    "fresh29": (bc.FRESH29_HAND_DIR, None),
    "fresh30": (bc.FRESH30_HAND_DIR, None),
    "fresh31": (bc.FRESH31_HAND_DIR, None),
    "fresh32": (bc.FRESH32_HAND_DIR, None),
    "fresh33": (bc.FRESH33_HAND_DIR, None),
    "fresh34": (bc.FRESH34_HAND_DIR, None),
    "fresh35": (bc.FRESH35_HAND_DIR, None),
    "fresh36": (bc.FRESH36_HAND_DIR, None),
    "fresh37": (bc.FRESH37_HAND_DIR, None),
    "fresh38": (bc.FRESH38_HAND_DIR, None),
    "fresh39": (bc.FRESH39_HAND_DIR, None),
    "fresh40": (bc.FRESH40_HAND_DIR, None),
    "fresh41": (bc.FRESH41_HAND_DIR, None),
    "fresh42": (bc.FRESH42_HAND_DIR, None),
    "fresh43": (bc.FRESH43_HAND_DIR, None),
    "fresh44": (bc.FRESH44_HAND_DIR, None),
}
GROUPS = ("dev", "holdout", *_FRESH, "probes")
ALL = "all"


def pairs_of(group: str, factver_root: Path, fresh_root: Path | None) -> list[tuple[str, str, list[str]]]:
    """(key, claim, quotes) of every pair of ``group`` (keys without the group's name)."""
    return [(key.split("|", 1)[1], claim, quotes)
            for key, claim, quotes, _ in labelled_pairs_of(group, factver_root, fresh_root)]


def labelled_pairs_of(group: str, factver_root: Path, fresh_root: Path | None) -> list[tuple[str, str, list[str], str]]:
    """(key, claim, quotes, label) of every pair of ``group``; keys carry the group's name."""
    if group == "probes":
        return [(f"probes|probe|{r['id']}", r["claim"], r["quotes"],
                 "supported" if r["label"] == "harmless" else "unsupported") for r in probes.load()]
    if group == "dev":
        ps = bc.load_pg(bc.PG_DIR) + bc.load_hand(bc.HAND_DIR, "dev") + bc.load_fv(factver_root, "dev")
    elif group == "holdout":
        ps = bc.load_hand(bc.HAND_DIR, "holdout") + bc.load_fv(factver_root, "holdout")
    else:
        hand, root = _FRESH[group]
        ps = bc.load_fresh(hand, (fresh_root or root) if root else None, f"--{group}",
                           bc.FRESH_GROUPS[group].hand_optional)
    return [(f"{group}|{p.dataset}|{p.id}", p.claim, p.quotes, p.label) for p in ps]


def _moves(before: dict, now: dict, labels: dict, shown: set[str], show: int) -> int:
    """Print how verdicts moved between two ``--group all`` dumps; returns how many became
    supported."""
    moves: dict[tuple[str, str, str], list[str]] = {}
    for k in sorted(before.keys() | now.keys()):
        b, n = before.get(k), now.get(k)
        if b != n:
            key = (labels.get(k, "?"), b[0] if b else "absent", n[0] if n else "absent")
            moves.setdefault(key, []).append(k)
    became = sum(len(v) for (_, b, n), v in moves.items() if n == "supported" and b != "supported")
    for (label, b, n), keys in sorted(moves.items()):
        print(f"  {label:11} {b:11} -> {n:11} {len(keys):6}")
        for k in [k for k in keys if k.split("|", 1)[0] in shown][:show]:
            print(f"      {k}: {before.get(k)} -> {now.get(k)}")
    print(f"became supported: {became}")
    return became


def verdicts(pairs: list[tuple[str, str, list[str]]]) -> dict[str, list]:
    out: dict[str, list] = {}
    for key, claim, quotes in pairs:
        r = check_claim(claim, quotes)
        out[key] = [r.status.value, r.rule, r.note, r.lacking]
    return out


def main() -> int:
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", type=Path)
    g.add_argument("--compare", type=Path)
    ap.add_argument("--group", choices=(*GROUPS, ALL), default="dev")
    ap.add_argument("--skip", action="append", default=[], choices=GROUPS,
                    help="with --group all: leave this group out (an unseen group); repeatable")
    ap.add_argument("--show", type=int, default=0,
                    help="with --group all --compare: print up to this many changed pairs per move")
    ap.add_argument("--factver-root", type=Path, default=bc.FACTVER_ROOT,
                    help="the public dev/holdout sets (--group dev, holdout)")
    ap.add_argument("--fresh-factver-root", type=Path, default=None,
                    help="another copy of the fresh group's public sets (--group fresh...)")
    args = ap.parse_args()
    if args.group == ALL:
        return _all(args)
    now = verdicts(pairs_of(args.group, args.factver_root, args.fresh_factver_root))
    if args.write:
        args.write.write_text("".join(json.dumps([k, v]) + "\n" for k, v in now.items()), encoding="utf-8")
        print(f"{len(now)} verdicts written to {args.write}")
        return 0
    before = dict(json.loads(line) for line in args.compare.read_text(encoding="utf-8").splitlines() if line)
    diff = sorted(k for k in before.keys() | now.keys() if before.get(k) != now.get(k))
    if args.group in ("dev", "probes"):
        for k in diff[:50]:
            print(f"{k}: before {before.get(k)} now {now.get(k)}")
    print(f"{args.group}: {len(now)} pairs now, {len(before)} before: {len(diff)} verdicts differ")
    return 1 if diff else 0


def _all(args: argparse.Namespace) -> int:
    groups = [g for g in GROUPS if g not in args.skip]
    now: dict[str, list] = {}
    labels: dict[str, str] = {}
    for g in list(groups):
        try:
            pairs = labelled_pairs_of(g, args.factver_root, None)
        except bc.FreshMissing as exc:  # a group wired before its data exists
            print(f"({g}: {exc}; left out)")
            groups.remove(g)
            continue
        for key, claim, quotes, label in pairs:
            r = check_claim(claim, quotes)
            now[key] = [r.status.value, r.rule, r.note, r.lacking]
            labels[key] = label
    if args.write:
        args.write.write_text("".join(json.dumps([k, v, labels[k]]) + "\n" for k, v in now.items()), encoding="utf-8")
        print(f"{len(now)} verdicts of {len(groups)} groups written to {args.write}")
        return 0
    before: dict[str, list] = {}
    for line in args.compare.read_text(encoding="utf-8").splitlines():
        if line:
            k, v, label = json.loads(line)
            if k.split("|", 1)[0] in args.skip:
                continue  # a skipped group is not read, in either dump
            before[k] = v
            labels.setdefault(k, label)
    diff = sum(1 for k in before.keys() | now.keys() if before.get(k) != now.get(k))
    print(f"all: {len(now)} pairs now, {len(before)} before: {diff} verdicts differ")
    _moves(before, now, labels, set(groups), args.show)
    return 1 if diff else 0


if __name__ == "__main__":
    raise SystemExit(main())

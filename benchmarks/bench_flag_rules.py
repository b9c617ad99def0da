"""Which red-flag rules generalise? (issue 25, "correct claims flagged <= 2 %").

Per flag rule, and per path inside a rule where its note tells (the note with its quoted
words and numbers masked), over the seen groups (dev, holdout, fresh1-fresh44: hand-written
and public): correct claims flagged ("number lacking" apart, the project's rule), altered or
refuted claims caught, per family (hand / public), the rule's precision and how many groups
its false flags spread over; then per group.

``--replay`` reads each fresh group as the checker stood when that group was first measured
(the main commit before the group's data was first committed: its ``src`` is taken with
``git archive`` into a temporary folder and run in a subprocess): the false flags a group
showed at first sight, by rule - what a rule does on data nobody tuned it on. ``--patch
FILE`` applies a Python script to each replayed tree first (it gets the tree's
``citations/claims`` folder as its argument): how a rule change would have done on each group
at first sight. Later (unseen) groups are not read: only the groups named in ``FRESH``.

    uv run python benchmarks/bench_flag_rules.py [--replay [--patch change.py]] [--factver-root DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_claims as bc  # noqa: E402
import claims_verdicts as cv  # noqa: E402

from deep_research.citations.claims import check_claim  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
# the seen fresh groups: (hand-written dir, public root or None) - named one by one, so that a
# group still unseen (claims_verdicts knows it) is never read here
SEEN = ("fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9")
FRESH = {("fresh1" if g == "fresh" else g): cv._FRESH[g] for g in SEEN} | {"fresh10": (bc.FRESH10_HAND_DIR, None),
                                                                          "fresh11": cv._FRESH["fresh11"],
                                                                          "fresh12": cv._FRESH["fresh12"],
                                                                          "fresh13": cv._FRESH["fresh13"],
                                                                          "fresh14": cv._FRESH["fresh14"],
                                                                          "fresh15": cv._FRESH["fresh15"],
                                                                          "fresh16": cv._FRESH["fresh16"],
                                                                          "fresh17": cv._FRESH["fresh17"],
                                                                          "fresh18": cv._FRESH["fresh18"],
                                                                          "fresh19": cv._FRESH["fresh19"],
                                                                          "fresh20": cv._FRESH["fresh20"],
                                                                          "fresh21": cv._FRESH["fresh21"],
                                                                          "fresh22": cv._FRESH["fresh22"],
                                                                          "fresh23": cv._FRESH["fresh23"],
                                                                          "fresh24": cv._FRESH["fresh24"],
                                                                          "fresh25": cv._FRESH["fresh25"],
                                                                          "fresh26": cv._FRESH["fresh26"],
                                                                          "fresh27": cv._FRESH["fresh27"],
                                                                          "fresh28": cv._FRESH["fresh28"],
                                                                          "fresh29": cv._FRESH["fresh29"],
                                                                          "fresh30": cv._FRESH["fresh30"],
                                                                          "fresh31": cv._FRESH["fresh31"],
                                                                          "fresh32": cv._FRESH["fresh32"],
                                                                          "fresh33": cv._FRESH["fresh33"],
                                                                          "fresh34": cv._FRESH["fresh34"],
                                                                          "fresh35": cv._FRESH["fresh35"],
                                                                          "fresh36": cv._FRESH["fresh36"],
                                                                          "fresh37": cv._FRESH["fresh37"],
                                                                          "fresh38": cv._FRESH["fresh38"],
                                                                          "fresh39": cv._FRESH["fresh39"],
                                                                          "fresh40": cv._FRESH["fresh40"],
                                                                          "fresh41": cv._FRESH["fresh41"],
                                                                          "fresh42": cv._FRESH["fresh42"],
                                                                          "fresh43": cv._FRESH["fresh43"],
                                                                          "fresh44": cv._FRESH["fresh44"]}
# a group whose data reached main in the commit it was measured with (no main commit "before it"
# is its first sight): the main commit it was first measured on, named. (fresh13's hand half was
# first measured on 9638a5c, its public half on 165fe3e; between them only supported -> unchecked
# verdicts changed (aa56e75), so the flags replayed here are those of either. fresh18's public half
# was first measured on 2b393bd, its hand half on 1553ada: the claim check code is the same in both.)
FIRST_SIGHT = {"fresh11": "205c46906dfc26c496ebea58b6550b65d3b159f1",
               "fresh12": "719ad40cebf8560e7472aa8e74ffa7abd4b359d6",
               "fresh13": "165fe3e33e70b547f80d37cc0f562f9319e339b8",
               "fresh14": "1919dae848370abec6ba9be10aaa9cd3e64e4d3c",
               "fresh15": "eb24422ce802983329942bdb42659d223b7159a4",
               "fresh16": "6be7a3798382c9723f2c2e2f813e47442b37f96d",
               "fresh17": "e7675c0b94a36b1b3d71f0bd79fc598e7331e901",
               "fresh18": "1553adac886092a202a33178357390315ae4ec3d",
               "fresh19": "cb7e2ff93b353735325dbdbec4e7e26a9288fe99",
               "fresh20": "c849621efb901f160d7edbaac8d08622017c0581",
               "fresh21": "8acd8121058bb4e4e864f764920e57c73b3ccc3f",
               "fresh22": "4a493847da7d57734286fc5e7c187cbbd0bee41a",
               "fresh23": "d6ac1ed84239acb11c979cbb33a55fcc63f25bd3",
               "fresh24": "e1fb6a26a553451cb25e46442a8ed799c6fff7a4",
               "fresh25": "b1e1976171d7b4e6a72fc0089e3a6bf587ec39c3",
               "fresh26": "cd15e9a37ffb357572bd6b352566ae669a023b49",
               "fresh27": "c122abda2635bac1bbc63794373fb500f59ca22e",
               "fresh28": "df8ecc2569634bc1fb55891887b4188f41a6f682",
               "fresh29": "82d4c91f705577a1f117abc88e81db329415fd75",
               "fresh30": "26fc3694d745f541f2c2939d9f8473dea4e1d777",
               "fresh31": "932bbf181d77198df626c01e78e4048cb43e95ad",
               "fresh32": "cad656e558fa72cbd15748fc85a1df439edd733d",
               "fresh33": "05914f30580d8ce3175ec8fbe46274570488cd61",
               "fresh34": "e396356f7b1270001d5850051f1647e44d68b48e",
               "fresh35": "5344d51ea18594321a1965dce0730eb2f4307bdf",
               "fresh36": "7f6f6473e57826baebf3f51db6917bc2a05c7d1d",
               "fresh37": "c65d6b62debac4d033e8d32a64bcda008087b68c",
               "fresh38": "c65d6b62debac4d033e8d32a64bcda008087b68c",
               "fresh39": "b781bfc7401945554bcef0abafe7f9dd902ba23f",
               "fresh40": "b781bfc7401945554bcef0abafe7f9dd902ba23f",
               "fresh41": "60a880cd725ac9dd22d4d7fb48b089c3bc5d20c6",
               "fresh42": "60a880cd725ac9dd22d4d7fb48b089c3bc5d20c6",
               "fresh43": "fb1a1e25ec0a50df437e008b57733b49956e23c0",
               "fresh44": "fb1a1e25ec0a50df437e008b57733b49956e23c0"}


def pairs(group: str, factver_root: Path) -> list[bc.Pair]:
    if group == "dev":
        return bc.load_pg(bc.PG_DIR) + bc.load_hand(bc.HAND_DIR, "dev") + bc.load_fv(factver_root, "dev")
    if group == "holdout":
        return bc.load_hand(bc.HAND_DIR, "holdout") + bc.load_fv(factver_root, "holdout")
    hand, root = FRESH[group]
    if root is not None and not root.is_dir() and (Path("/tmp") / root.name).is_dir():
        root = Path("/tmp") / root.name  # the usual copy when the shared one is absent
    fg = bc.FRESH_GROUPS.get(group)
    return bc.load_fresh(hand, root if root and root.is_dir() else None, f"--{group}", bool(fg and fg.hand_optional))


def verdicts(groups: list[str], factver_root: Path) -> list[list]:
    """[group, family, correct?, status, rule, note, number lacking] of every pair."""
    out = []
    for g in groups:
        try:
            ps = pairs(g, factver_root)
        except (bc.FreshMissing, FileNotFoundError) as exc:
            print(f"({g}: {exc}; skipped)", file=sys.stderr)
            continue
        for p in ps:
            r = check_claim(p.claim, p.quotes)
            red = r.status.value == "unsupported"
            lacking = bool(getattr(r, "lacking", False)) or (red and bc.number_lacking(p.claim, p.quotes))
            fam = "public" if p.dataset.startswith("factver/") else "hand"
            out.append([g, fam, p.label == "supported", r.status.value, r.rule, r.note, lacking])
    return out


def path_of(rule: str | None, note: str) -> str:
    """The rule and its note with quoted words and numbers masked: one path of the rule."""
    note = re.sub(r"\d+(?:\.\d+)?", "N", re.sub(r'"[^"]*"', '"_"', note or ""))
    return f"{rule} :: {note[:70]}"


def table(rows: list[list], by_path: bool, top: int = 25) -> None:
    stats: dict[str, Counter] = defaultdict(Counter)
    spread: dict[str, set] = defaultdict(set)
    for g, fam, correct, status, rule, note, lacking in rows:
        if status != "unsupported":
            continue
        key = path_of(rule, note) if by_path else str(rule)
        if correct and lacking:
            stats[key]["lacking"] += 1
        elif correct:
            stats[key]["cf " + fam] += 1
            spread[key].add(g)
        else:
            stats[key]["caught " + fam] += 1
    print(f"  {'rule' + (' :: path' if by_path else ''):<82} {'false H':>7} {'false P':>7} {'caught H':>8}"
          f" {'caught P':>8} {'precision':>9} {'groups':>6}")
    ranked = sorted(stats.items(), key=lambda kv: -(kv[1]["cf hand"] + kv[1]["cf public"]))
    for key, c in ranked[:top]:
        false, caught = c["cf hand"] + c["cf public"], c["caught hand"] + c["caught public"]
        print(f"  {key[:82]:<82} {c['cf hand']:>7} {c['cf public']:>7} {c['caught hand']:>8} {c['caught public']:>8}"
              f" {caught / max(1, caught + false):>9.1%} {len(spread[key]):>6}")


def per_group(rows: list[list]) -> None:
    c: dict[str, Counter] = defaultdict(Counter)
    for g, fam, correct, status, _rule, _note, lacking in rows:
        k = c[f"{g} {fam}"]
        if correct:
            k["n"] += 1
            k["flagged"] += status == "unsupported" and not lacking
        else:
            k["alt"] += 1
            k["caught"] += status == "unsupported"
            k["supported"] += status == "supported"
    for g, k in c.items():
        print(f"  {g:<16} correct {k['n']:>5} flagged {k['flagged']:>4} {k['flagged'] / max(1, k['n']):6.2%} | altered"
              f" {k['alt']:>5} caught {k['caught']:>5} {k['caught'] / max(1, k['alt']):6.1%} shown supported {k['supported']}")


def first_sight(group: str) -> str:
    """The main commit the group was first measured with: the last one before its data came."""
    if group in FIRST_SIGHT:
        return FIRST_SIGHT[group]
    hand = FRESH[group][0].relative_to(REPO) / "holdout.jsonl"
    added = subprocess.run(["git", "log", "--diff-filter=A", "--format=%H %cI", "--", str(hand)], cwd=REPO,
                           capture_output=True, text=True, check=True, timeout=60).stdout.split()
    if not added:
        raise RuntimeError(f"{group}: {hand} has no commit")
    when = added[-1]  # the oldest commit that added it
    return subprocess.run(["git", "rev-list", "-1", "--first-parent", f"--before={when}", "main"], cwd=REPO,
                          capture_output=True, text=True, check=True, timeout=60).stdout.strip()


def replay(factver_root: Path, patch: Path | None) -> list[list]:
    rows: list[list] = []
    for g in FRESH:
        commit = first_sight(g)
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(["git", "archive", commit, "src/deep_research"], cwd=REPO, capture_output=True,
                                     check=True, timeout=120).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True, timeout=120)
            if patch:
                subprocess.run([sys.executable, str(patch), f"{tmp}/src/deep_research/citations/claims"], check=True,
                               timeout=120)
            out = Path(tmp) / "rows.json"
            env = {**os.environ, "PYTHONPATH": f"{tmp}/src", "PYTHONHASHSEED": "0"}
            subprocess.run([sys.executable, __file__, "--dump", str(out), "--group", g, "--factver-root",
                            str(factver_root)], env=env, check=True, timeout=3600)
            rows += json.loads(out.read_text(encoding="utf-8"))
        print(f"  {g}: replayed with {commit[:10]}", file=sys.stderr)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--factver-root", type=Path, default=bc.FACTVER_ROOT)
    ap.add_argument("--replay", action="store_true", help="each fresh group with the code of its first sight")
    ap.add_argument("--patch", type=Path, help="with --replay: a script applied to each replayed claims folder")
    ap.add_argument("--dump", type=Path, help=argparse.SUPPRESS)  # (the replay's subprocess)
    ap.add_argument("--group", action="append", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.dump:
        args.dump.write_text(json.dumps(verdicts(args.group, args.factver_root)), encoding="utf-8")
        return
    rows = replay(args.factver_root, args.patch) if args.replay else \
        verdicts(["dev", "holdout", *FRESH], args.factver_root)
    print("At first sight (each group with the code it was first measured with):" if args.replay else
          "As the checker stands, every seen group:")
    table(rows, by_path=False)
    print()
    table(rows, by_path=True)
    print()
    per_group(rows)


if __name__ == "__main__":
    main()

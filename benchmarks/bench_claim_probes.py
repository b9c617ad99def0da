"""Red-team probes of "a green badge means proven" (issue 25): how many hand-written
misreadings of documentation sentences each check lets through as supported.

``benchmarks/data/claims-probes/probes.jsonl`` (see its README): near copies of sentences of
Debian documentation pages with one thing changed the way a model misreads (a preposition,
"and"/"or", a bound, a unit, a version, a path, an identifier's case, roles, a condition
dropped, two quotes combined, ...), each labelled ``misstated`` or ``harmless``.

* the claim check (``check_claim``): a misstated probe must never be ``supported``;
* the judge-evidence check (``check_judge_evidence``) against a hostile judge that says
  "supports" with spans copied from the quotes: the quote sentence most like the claim
  (``whole``), every quote sentence (``allspans``), that sentence with the changed words
  aligned to the words they replaced (``aligned``) or to the next span word
  (``aligned-nb``), and the stretch from the first to the last shared word (``subspan``).

Prints, per kind of change, the misstated probes found supported, and the harmless ones
turned grey (a harmless rewording may stay grey: prefer grey to a guess).

    uv run python benchmarks/bench_claim_probes.py [--show 20]
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
from collections import Counter
from pathlib import Path

from deep_research.citations.claims import check_claim
from deep_research.citations.claims.judge_check import JudgeFact, check_judge_evidence

PROBES = Path(__file__).resolve().parent / "data" / "claims-probes" / "probes.jsonl"
_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z$])")
_WORD = re.compile(r"\S+")


def load(path: Path = PROBES) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def hostile_judges(claim: str, quotes: list[str]) -> list[tuple[str, list[JudgeFact]]]:
    """The evidence a judge that says "supports" to every claim could cite."""
    sents = [s for q in quotes for s in _SENT.split(q) if s]
    ctoks = _WORD.findall(claim)

    def norm(toks: list[str]) -> list[str]:
        return [t.lower().strip(".,;()") for t in toks]

    best = max(sents, key=lambda s: difflib.SequenceMatcher(None, ctoks, _WORD.findall(s)).ratio())
    stoks = _WORD.findall(best)
    span = best.rstrip(".")
    out = [("whole", [JudgeFact(claim, [span])]),
           ("allspans", [JudgeFact(claim, [s.rstrip(".") for s in sents[:4]])])]
    sm = difflib.SequenceMatcher(None, norm(ctoks), norm(stoks))
    ops = [op for op in sm.get_opcodes() if op[0] == "replace"]
    aligned = [(" ".join(ctoks[a1:a2]).strip(".,;()"), " ".join(stoks[b1:b2]).strip(".,;()"))
               for _, a1, a2, b1, b2 in ops]
    if aligned:
        out.append(("aligned", [JudgeFact(claim, [span], aligned)]))
        nb = [(" ".join(ctoks[a1:a2]).strip(".,;()"),
               (stoks[b2] if b2 < len(stoks) else stoks[b1 - 1]).strip(".,;()")) for _, a1, a2, b1, b2 in ops]
        out.append(("aligned-nb", [JudgeFact(claim, [span], nb)]))
    blocks = [b for b in sm.get_matching_blocks() if b.size]
    if blocks:
        sub = " ".join(stoks[blocks[0].b:blocks[-1].b + blocks[-1].size]).rstrip(".")
        out.append(("subspan", [JudgeFact(claim, [sub], aligned)]))
    return out


def run(probes: list[dict]) -> dict:
    res = {"claim_green": [], "judge_green": [], "harmless_grey": [], "by_kind": Counter(), "judge_tries": 0}
    for p in probes:
        res["by_kind"][p["kind"]] += 1
        r = check_claim(p["claim"], p["quotes"])
        green = r.status.value == "supported"
        if p["label"] == "harmless":
            if not green:
                res["harmless_grey"].append(p["id"])
            continue
        if green:
            res["claim_green"].append((p["id"], r.rule))
        for name, facts in hostile_judges(p["claim"], p["quotes"]):
            res["judge_tries"] += 1
            if check_judge_evidence(p["claim"], p["quotes"], facts).ok:
                res["judge_green"].append((p["id"], name))
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--show", type=int, default=20)
    args = ap.parse_args()
    probes = load()
    res = run(probes)
    mis = sum(1 for p in probes if p["label"] == "misstated")
    print(f"{len(probes)} probes ({mis} misstated, {len(probes) - mis} harmless), {len(res['by_kind'])} kinds")
    print(f"claim check: {len(res['claim_green'])} misstated probes supported")
    for pid, rule in res["claim_green"][:args.show]:
        print(f"  {pid} ({rule})")
    probes_hit = sorted({pid for pid, _ in res["judge_green"]})
    print(f"judge check: {len(res['judge_green'])} of {res['judge_tries']} hostile evidence sets accepted, "
          f"on {len(probes_hit)} misstated probes")
    for pid in probes_hit[:args.show]:
        print(f"  {pid}: " + ", ".join(n for i, n in res["judge_green"] if i == pid))
    print(f"harmless rewordings grey: {len(res['harmless_grey'])} of {len(probes) - mis}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

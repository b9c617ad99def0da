"""The hand-written judge answers (``benchmarks/data/judge-hand/``) as the benchmarks use them.

Each answer is what a claim judge returns for one claim/quote pair, written by hand by a person
who did not read the evidence check (see that folder's README): a verdict, the claim's facts
with exact spans, ``[claim words, span words]`` alignments. ``right`` answers are a careful
judge's, ``wrong`` ones a sloppy model's (a "supports" on an altered claim, a nit-picking
"contradicts" on a correct one).

* :func:`load` - the answers of a split joined with their pairs (claim, quotes, label, class).
* :func:`record` - an answer as the judge record ``citations.judgement.decide`` reads.
* :func:`oracle_facts` - the answer's facts and spans with the best alignment the evidence
  check could accept instead of the judge's: for each claim word the spans lack, a claim
  phrase holding it and a span phrase (up to three words each) that the check's own word
  relations accept. An upper bound of what better alignments by the same judge would pass.
* :class:`HandJudge` - a judge answering from these answers, right ``1 - wrong`` of the time
  (seeded per pair): the right answer, or the wrong one; a pair without a hand-written wrong
  answer gets an abstention then (a correct pair's only wrong answers are "contradicts",
  which is no proven verdict either: the evaluation counts both as unchecked).

HOLDOUT: ``load("holdout")`` only from a run that reports the holdout apart, once.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from _common import REPO

from deep_research.citations.claims import judge_check as J
from deep_research.citations.claims import proof as P
from deep_research.citations.claims.analysis import _analyse
from deep_research.citations.claims.framing import _prepare_claim
from deep_research.citations.verify import clean_quote

DIR = REPO / "benchmarks" / "data" / "judge-hand"
HAND_DIR = REPO / "benchmarks" / "data" / "claims-hand"
PG_DIR = Path("/work/shared/data/claims-dev")


@dataclass
class Answer:
    pair_id: str
    source: str  # "claims-hand" | "claims-dev"
    dataset: str  # "hand/python", "pg-dev", ...
    kind: str  # "right" | "wrong"
    verdict: str
    facts: list[dict]
    reason: str
    claim: str
    quotes: list[str]
    label: str
    cls: str


def _jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def load(split: str, root: Path = DIR, hand_dir: Path = HAND_DIR, pg_dir: Path = PG_DIR) -> list[Answer]:
    path = root / f"{split}.jsonl"
    if not path.is_file():
        print(f"(judge-hand: {path} not found, skipped)")
        return []
    pairs: dict[tuple[str, str], tuple[dict, str]] = {}
    if (hand_dir / f"{split}.jsonl").is_file():
        for r in _jsonl(hand_dir / f"{split}.jsonl"):
            pairs[("claims-hand", r["id"])] = (r, f"hand/{r.get('dataset', 'docs')}")
    if split == "dev" and (pg_dir / "cases.jsonl").is_file():
        for r in _jsonl(pg_dir / "cases.jsonl"):
            pairs[("claims-dev", r["id"])] = (r, "pg-dev")
    out, missing = [], 0
    for a in _jsonl(path):
        got = pairs.get((a["source"], a["pair_id"]))
        if got is None:
            missing += 1
            continue
        r, ds = got
        quotes = [q for q in (r.get("quotes") or [r["quote"]]) if q and q.strip()]
        out.append(Answer(a["pair_id"], a["source"], ds, a["answer_kind"], a["verdict"], a["facts"],
                          a.get("reason") or "", r["claim"], quotes, r["label"], r["class"]))
    if missing:
        print(f"(judge-hand: {missing} answers whose pair is not here, skipped)")
    return out


def record(a: Answer, facts: list[dict] | None = None) -> dict:
    return {"verdict": a.verdict, "reason": a.reason, "model": "hand-written",
            "facts": facts if facts is not None else a.facts}


# --- the oracle aligner ------------------------------------------------------------------------
def oracle_facts(a: Answer) -> list[dict]:
    """The answer's facts and spans, aligned as well as the evidence check could accept."""
    facts = [{"fact": f["fact"], "spans": list(f["spans"]), "aligned": []} for f in a.facts]
    text, mid = _prepare_claim(a.claim)
    ct = _analyse(text, claim_side=True, mid_start=mid)
    citems = P.items(ct, True, P._TABLES)
    side = J._Side(ct, citems, {k: i for i, k in enumerate(citems.pos)})
    spans = []
    for f in facts:
        for sp in f["spans"]:
            t = _analyse(clean_quote(sp), claim_side=False)
            spans.append(J._Span(t, P.items(t, False, P._TABLES), J._words(t)))
    if not spans:
        return facts
    skeys = set().union(*(set(s.its.keys) for s in spans))
    cw = J._words(ct)
    todo = [k for i, k in enumerate(citems.pos) if citems.keys[i] not in skeys and J._needs_pair(side, k)]
    done: set[int] = set()
    for k in todo:
        if k in done:
            continue
        best = None
        at = cw.index(k)
        for n in (1, 2, 3):
            for a0 in range(max(0, at - n + 1), min(at, len(cw) - n) + 1):
                ck = cw[a0:a0 + n]
                for s in spans:
                    for m in (1, 2, 3):
                        for b0 in range(len(s.words) - m + 1):
                            sk = s.words[b0:b0 + m]
                            got, _, bad = J._cover(side, ck, s, sk)
                            if bad is None and k in got and (best is None or len(got) > best[0]):
                                best = (len(got), ck, s, sk, set(got))
            if best:
                break
        if best:
            _, ck, s, sk, got = best
            done |= got
            pair = [" ".join(ct.raw[x] for x in ck), " ".join(s.t.raw[x] for x in sk)]
            facts[0]["aligned"].append(pair)
    return facts


# --- a judge answering from the hand-written answers ------------------------------------------
class HandJudge:
    """Answers pairs from the hand-written answers: right ``1 - wrong`` of the time."""

    def __init__(self, answers: list[Answer], wrong: float = 0.10, seed: int = 25) -> None:
        self.wrong, self.seed = wrong, seed
        self.by_claim: dict[str, dict[str, Answer]] = {}
        for a in answers:
            self.by_claim.setdefault(" ".join(a.claim.split()), {})[a.kind] = a

    def knows(self, claim: str) -> bool:
        return " ".join(claim.split()) in self.by_claim

    def answer(self, claim: str) -> tuple[dict, bool]:
        """(judge record, drawn wrong?) for a claim; an abstention for an unknown claim."""
        mine = self.by_claim.get(" ".join(claim.split()))
        if not mine or "right" not in mine:
            return {"verdict": "abstain", "reason": "no hand-written answer"}, False
        flip = random.Random(f"{self.seed}:{' '.join(claim.split())}").random() < self.wrong
        if not flip:
            return record(mine["right"]), False
        if "wrong" in mine:
            return record(mine["wrong"]), True
        return {"verdict": "abstain", "reason": "wrong draw without a hand-written wrong answer"}, True

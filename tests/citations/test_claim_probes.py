"""The red-team probes (``benchmarks/data/claims-probes``, issue 25): hand-written misreadings
of documentation sentences that the claim check must never call supported."""

from __future__ import annotations

import json
from pathlib import Path

from deep_research.citations.claims import ClaimStatus, check_claim
from deep_research.citations.claims.judge_check import JudgeFact, check_judge_evidence

PROBES = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "claims-probes" / "probes.jsonl"
# misreadings whose hostile evidence the judge check still accepts when the judge cites the
# sentence the claim copies (open: a dropped word or list member inside a span wider than
# the claim, roles of two plain nouns swapped inside one span)
OPEN_JUDGE = {"p3-ev3-per", "p4-a12-list", "p4-a7-role", "p5-b2-order", "p5-c2-drop"}


def _probes() -> list[dict]:
    return [json.loads(line) for line in PROBES.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_no_misstated_probe_is_supported_by_the_claim_check():
    probes = [p for p in _probes() if p["label"] == "misstated"]
    assert len(probes) >= 400
    green = [p["id"] for p in probes if check_claim(p["claim"], p["quotes"]).status is ClaimStatus.SUPPORTED]
    assert green == []


def test_the_judge_check_refuses_each_quote_sentence_cited_for_a_misstated_probe():
    accepted = set()
    for p in _probes():
        if p["label"] != "misstated":
            continue
        for q in p["quotes"]:
            for sent in q.split(". "):
                span = sent.rstrip(".")
                if span and check_judge_evidence(p["claim"], p["quotes"], [JudgeFact(p["claim"], [span])]).ok:
                    accepted.add(p["id"])
    assert accepted <= OPEN_JUDGE, sorted(accepted - OPEN_JUDGE)

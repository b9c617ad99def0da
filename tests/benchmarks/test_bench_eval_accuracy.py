"""The run builders and judges of ``benchmarks/bench_eval_accuracy.py``: what it measures
rests on them (the labels of each paragraph, evidence copied from the quotes, the
hand-written judge reaching the claims it answers). Nothing here checks the figures."""

from __future__ import annotations

import random
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import _judgehand  # noqa: E402
import bench_eval_accuracy as B  # noqa: E402

from deep_research.citations.check import check_citations  # noqa: E402


def _groups():
    return B.load_groups("hand", B.HAND_DIR / "dev.jsonl")


def test_model_evidence_copies_spans_from_the_quotes_and_aligns_only_claim_words():
    groups = _groups()[:60]
    for g in groups:
        for claim in g.correct + g.altered:
            facts = B.model_evidence(claim, g.quotes)
            assert facts, claim
            for f in facts:
                assert all(any(sp in q for q in g.quotes) for sp in f.spans), (claim, f.spans)
                words = set(B._WORD.findall(claim))
                span_words = {w for sp in f.spans for w in B._WORD.findall(sp)}
                for a, b in f.aligned:
                    assert set(a.split()) <= words and set(b.split()) <= span_words, (claim, a, b)


def test_each_paragraph_keeps_its_label_and_the_share_altered_is_the_one_asked():
    groups = _groups()
    md, sources, labels = B.build_run(groups, 40, 0.25, random.Random(1))
    assert len(labels) == 40 and labels.count(False) == 10
    report = check_citations(md, sources)
    truth = {" ".join(c.split()).rstrip("."): True for g in groups for c in g.correct}
    truth.update({" ".join(c.split()).rstrip("."): False for g in groups for c in g.altered})
    claims = [c for c in report.claims if c.text.strip()]
    assert len(claims) == 40
    for c in claims:  # the label the benchmark reads for a claim is the label of the claim published there
        key = " ".join(c.text.split()).rstrip(".")
        if key in truth:  # a claim written both ways for two quotes is ambiguous: skip it
            assert labels[B.paragraph_of(md, c.start)] is truth[key], c.text


def test_runs_for_the_hand_judge_hold_only_claims_it_answers():
    judge = _judgehand.HandJudge(_judgehand.load("dev"), wrong=0.0)
    md, sources, labels = B.build_answered_run(_groups(), judge, 40, 0.5, random.Random(2))
    assert len(labels) == 40 and labels.count(False) == 20
    claims = [c.text for c in check_citations(md, sources).claims if c.text.strip()]
    assert all(B.hand_lookup(judge, c) for c in claims)
    assert not B.hand_lookup(judge, "A claim nobody answered.")


def test_what_eval_report_shows_counts_as_within_the_target_only_when_all_of_it_is():
    def run(true, reported, low, high, representative):
        return {"true": true, "reported": reported, "reported_low": low, "reported_high": high,
                "representative": representative, "unchecked_share": high - low, "true_of_proven": None,
                "judge_view": None, "ceiling_grey": None, "supports_said": 0, "supports_passed": 0}

    runs = [run(0.9, 0.92, 0.88, 0.95, True),  # a point figure 2 points off: within
            run(0.9, 0.80, 0.85, 0.96, True),  # a point figure 10 points off: not
            run(0.9, 0.50, 0.86, 0.93, False),  # a range whose both ends are within 5 points: within
            run(0.9, 1.00, 0.10, 0.95, False)]  # a range that holds the truth but is 85 points wide: not
    row = B.summarise("hand", "judge", 0.1, runs)
    assert row["within"] == 2 and row["runs"] == 4 and row["inside"] == 4  # every range holds the truth

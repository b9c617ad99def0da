"""The fourth fresh group behind ``benchmarks/bench_claims.py --fresh4``: hand-written pairs only
(no public set). The loader and the shipped pairs' shape; nothing here runs the claim check on
any of them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import bench_claims  # noqa: E402
from tests.benchmarks._fresh_support import load_module  # noqa: E402


def _row(**kw) -> dict:
    row = {
        "id": "h0001",
        "dataset": "diffutils",
        "page": "diffutils/a.html",
        "quote": "Q.",
        "claim": "C.",
        "label": "supported",
        "class": "paraphrase_synonyms",
        "split": "holdout",
    }
    row.update(kw)
    return row


def test_load_fresh4_reads_only_the_hand_written_pairs(tmp_path):
    rows = [
        _row(),
        _row(id="h0002", quotes=["A.", "B."], label="unsupported", note="x"),
    ]
    rows[1].pop("quote")
    (tmp_path / "holdout.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8"
    )
    pairs = bench_claims.load_fresh(tmp_path, None, "--fresh4")
    assert [(p.id, p.dataset, p.quotes, p.label) for p in pairs] == [
        ("h0001", "hand/diffutils", ["Q."], "supported"),
        ("h0002", "hand/diffutils", ["A.", "B."], "unsupported"),
    ]


def test_load_fresh4_names_its_own_option_when_the_pairs_are_missing(tmp_path):
    with pytest.raises(bench_claims.FreshMissing, match="--fresh4-hand-dir"):
        bench_claims.load_fresh(tmp_path / "nowhere", None, "--fresh4")


def test_load_fresh4_rejects_a_pair_without_a_gold_label(tmp_path):
    (tmp_path / "holdout.jsonl").write_text(json.dumps(_row(label="maybe")) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="label other than supported/unsupported"):
        bench_claims.load_fresh(tmp_path, None, "--fresh4")


def test_bench_claims_fresh4_default_points_at_the_fourth_group():
    assert bench_claims.FRESH4_HAND_DIR.name == "claims-fresh4"


def test_shipped_fresh4_hand_pairs_are_well_formed():
    check = load_module(BENCH / "data" / "claims-hand" / "check.py", "claims_hand_check4")
    rows = check.load(bench_claims.FRESH4_HAND_DIR)
    assert len(rows) >= 250 and check.problems(rows, bench_claims.FRESH4_HAND_DIR) == []
    assert {r["split"] for r in rows} == {"holdout"}
    assert {r["dataset"] for r in rows} == {"diffutils"}
    assert len({r["id"] for r in rows}) == len(rows)
    labels = [r["label"] for r in rows]
    assert set(labels) == {"supported", "unsupported"}
    assert 0.4 <= labels.count("supported") / len(labels) <= 0.6
    assert all(r.get("note") for r in rows if r["label"] == "unsupported")
    pages = (bench_claims.FRESH4_HAND_DIR / "pages.txt").read_text().split()
    assert {r["page"] for r in rows} == set(pages)

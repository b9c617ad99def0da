"""The second fresh group behind ``benchmarks/bench_claims.py --fresh2``: the loader, the
converters of ``fetch_factver.py --fresh2`` (on small synthetic files in a throwaway git
repository, not the real data) and the shipped hand-written pairs' shape. Nothing here runs
the claim check on any of them."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import bench_claims  # noqa: E402
from tests.benchmarks._fresh_support import load_module, snapshot  # noqa: E402


fv = load_module(BENCH / "data" / "factver" / "fetch_factver.py", "fetch_factver_fresh2")


def _sf_row(claim: str, before: str, after: str, sents: list[str]) -> str:
    return (
        json.dumps(
            {
                "claim": claim,
                "evidence": [["Title", s] for s in sents],
                "label_before": before,
                "label_after": after,
                "agreement": "agree_ei",
                "type": "PP",
                "removed": ["x"],
                "text_orig": "t",
            }
        )
        + "\n"
    )


def _q2_csv(rows: list[tuple[str, str]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["", "episode_idx", "round", "topic", "message", "response", "knowledge", "gold"])
    for n, (resp, know) in enumerate(rows):
        w.writerow([n, n, 0, "Topic", "hi", resp, know, "gold"])
    return buf.getvalue()


@pytest.fixture
def mirrors(tmp_path: Path, monkeypatch) -> Path:
    """Synthetic snapshots of the three --fresh2 sources, the pinned commits pointed at them."""
    root = tmp_path / "mirrors"
    sf = {
        f"data/sufficient_facts/{p}_sufficient_facts.jsonl": ""
        for p in ("fever", "hover", "vitaminc")
    }
    sf["data/sufficient_facts/fever_sufficient_facts.jsonl"] = (
        _sf_row("A was born in 1990.", "SUPPORTS", "ENOUGH -- IRRELEVANT", ["A was born in 1990 ."])
        + _sf_row("A was born in 1990.", "SUPPORTS", "NOT ENOUGH", ["A was born ."])
        + _sf_row("B is red.", "REFUTES", "ENOUGH -- REPEATED", ["B is blue ."])
    )
    sf["data/sufficient_facts/hover_sufficient_facts.jsonl"] = _sf_row(
        "C and D met.", "SUPPORTED", "ENOUGH -- REPEATED", ["C met D.", "D met C."]
    )
    sf["data/sufficient_facts/vitaminc_sufficient_facts.jsonl"] = _sf_row(
        "E has 5 , not 6.", "REFUTES", "NOT ENOUGH", ["E has 6 ."]
    )
    q2 = {
        f"third_party/data/{m}_{k}.csv": _q2_csv([(f"{m} {k} reply , here .", f"{m} knowledge.")])
        for m in ("dodeca", "memnet")
        for k in ("consistent", "inconsistent")
    }
    se = {
        "data/summedits/summedits_scitldr.json": json.dumps(
            [
                {
                    "id": "p1_og",
                    "doc": "An abstract.",
                    "summary": "A summary.",
                    "label": 1,
                    "original_summary": "A summary.",
                    "edit_types": [],
                    "split": "test",
                },
                {
                    "id": "p1_e1",
                    "doc": "An abstract.",
                    "summary": "A wrong summary.",
                    "label": 0,
                    "original_summary": "A summary.",
                    "edit_types": ["negation_insertion_removal", "antonym_swap"],
                    "split": "test",
                },
            ]
        )
    }
    for const, files in (("SUFFICIENT_FACTS", sf), ("Q2", q2), ("SUMMEDITS", se)):
        snapshot(fv, root, monkeypatch, const, files)
    return root


def test_fresh2_converters_map_labels_and_keep_the_original_class(mirrors):
    rd = fv.Reader(mirrors)
    sf = list(fv.sufficient_facts(rd, fv.Tally()))
    assert [(e.id, e.label, e.cls) for e in sf] == [
        ("sufficient-facts-fever-1", "supported", "fever SUPPORTS / ENOUGH -- IRRELEVANT"),
        ("sufficient-facts-fever-2", "unsupported", "fever SUPPORTS / NOT ENOUGH"),
        ("sufficient-facts-fever-3", "unsupported", "fever REFUTES / ENOUGH -- REPEATED"),
        ("sufficient-facts-hover-1", "supported", "hover SUPPORTED / ENOUGH -- REPEATED"),
        ("sufficient-facts-vitaminc-1", "unsupported", "vitaminc REFUTES / NOT ENOUGH"),
    ]
    # FEVER spacing undone in quotes and claims; every evidence sentence is a quote
    assert sf[0].quotes == ["A was born in 1990."] and sf[3].quotes == ["C met D.", "D met C."]
    assert sf[4].claim == "E has 5, not 6." and sf[4].quotes == ["E has 6."]
    q2 = list(fv.q2(rd, fv.Tally()))
    assert [(e.id, e.label, e.cls) for e in q2] == [
        ("q2-dodeca-consistent-0", "supported", "consistent (dodeca)"),
        ("q2-dodeca-inconsistent-0", "unsupported", "inconsistent (dodeca)"),
        ("q2-memnet-consistent-0", "supported", "consistent (memnet)"),
        ("q2-memnet-inconsistent-0", "unsupported", "inconsistent (memnet)"),
    ]
    assert q2[0].claim == "dodeca consistent reply, here." and q2[0].quotes == ["dodeca knowledge."]
    se = list(fv.summedits_scitldr(rd, fv.Tally()))
    assert [(e.id, e.label, e.cls, e.quotes) for e in se] == [
        ("summedits-scitldr-p1_og", "supported", "consistent", ["An abstract."]),
        (
            "summedits-scitldr-p1_e1",
            "unsupported",
            "inconsistent (antonym_swap+negation_insertion_removal)",
            ["An abstract."],
        ),
    ]


def test_fetch_fresh2_writes_holdout_only_sets_bench_can_load(mirrors, tmp_path):
    out = tmp_path / "factver-fresh2"
    assert fv.main(["--fresh2", "--mirrors", str(mirrors), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "README.md",
        "q2",
        "sufficient-facts",
        "summedits-scitldr",
    ]
    assert not list(out.glob("*/dev.jsonl"))
    recs = [
        json.loads(line)
        for f in sorted(out.glob("*/holdout.jsonl"))
        for line in f.read_text().splitlines()
    ]
    assert len(recs) == 11 and {r["split"] for r in recs} == {"holdout"}
    assert all(
        r["source"].endswith(fv.SUFFICIENT_FACTS.commit)
        for r in recs
        if r["dataset"] == "sufficient-facts"
    )
    hand = tmp_path / "hand"
    hand.mkdir()
    (hand / "holdout.jsonl").write_text(
        json.dumps(
            {
                "id": "g0001",
                "dataset": "node",
                "page": "node/a.html",
                "quote": "Q.",
                "claim": "C.",
                "label": "supported",
                "class": "paraphrase_synonyms",
                "split": "holdout",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    pairs = bench_claims.load_fresh(hand, out, "--fresh2")
    assert [p.dataset for p in pairs][:1] == ["hand/node"]
    assert {p.dataset for p in pairs[1:]} == {
        "factver/q2",
        "factver/sufficient-facts",
        "factver/summedits-scitldr",
    }


def test_fetch_fresh_and_fresh2_together_is_a_user_error(tmp_path, capsys):
    assert fv.main(["--fresh", "--fresh2", "--mirrors", str(tmp_path)]) == 2
    assert "--fresh2" in capsys.readouterr().err


def test_load_fresh2_names_its_own_rebuild_command(tmp_path):
    hand = tmp_path / "hand"
    hand.mkdir()
    (hand / "holdout.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(bench_claims.FreshMissing, match="fetch_factver.py --fresh2 --out"):
        bench_claims.load_fresh(hand, tmp_path / "none", "--fresh2")
    with pytest.raises(bench_claims.FreshMissing, match="--fresh2-hand-dir"):
        bench_claims.load_fresh(tmp_path / "nowhere", tmp_path / "none", "--fresh2")


def test_shipped_fresh2_hand_pairs_are_well_formed():
    check = load_module(BENCH / "data" / "claims-hand" / "check.py", "claims_hand_check2")
    rows = check.load(bench_claims.FRESH2_HAND_DIR)
    assert rows and check.problems(rows, bench_claims.FRESH2_HAND_DIR) == []
    assert {r["split"] for r in rows} == {"holdout"}
    assert {r["label"] for r in rows} == {"supported", "unsupported"}
    assert {r["dataset"] for r in rows} == {"node"}
    assert all(r["id"].startswith("g") for r in rows)

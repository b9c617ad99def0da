"""The third fresh group behind ``benchmarks/bench_claims.py --fresh3``: the converters of
``fetch_factver.py --fresh3`` (on small synthetic files in a throwaway git repository, not the
real data), the loader and the shipped hand-written pairs' shape. Nothing here runs the claim
check on any of them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import bench_claims  # noqa: E402
from tests.benchmarks._fresh_support import load_module, snapshot  # noqa: E402


fv = load_module(BENCH / "data" / "factver" / "fetch_factver.py", "fetch_factver_fresh3")


def _summedits(domain: str, n_edits: int) -> str:
    rows = [
        {
            "id": f"{domain}_og",
            "doc": f"{domain} doc.",
            "summary": "S.",
            "label": 1,
            "original_summary": "S.",
            "edit_types": [],
            "split": "test",
        }
    ]
    rows += [
        {
            "id": f"{domain}_e{k}",
            "doc": f"{domain} doc.",
            "summary": f"Wrong {k}.",
            "label": 0,
            "original_summary": "S.",
            "edit_types": ["entity_modification", "antonym_swap"][: k % 2 + 1],
            "split": "test",
        }
        for k in range(n_edits)
    ]
    return json.dumps(rows)


def _qags_line(article: str, sentences: list[tuple[str, list[str]]]) -> str:
    return (
        json.dumps(
            {
                "article": article,
                "summary_sentences": [
                    {
                        "sentence": s,
                        "responses": [{"worker_id": i, "response": v} for i, v in enumerate(votes)],
                    }
                    for s, votes in sentences
                ],
            }
        )
        + "\n"
    )


@pytest.fixture
def mirrors(tmp_path: Path, monkeypatch) -> Path:
    """Synthetic snapshots of the two --fresh3 sources, the pinned commits pointed at them."""
    root = tmp_path / "mirrors"
    se = {
        "data/summedits/summedits_samsum.json": _summedits("samsum", 2),
        "data/summedits/summedits_ectsum.json": _summedits("ectsum", 1),
    }
    qg = {
        "data/mturk_cnndm.jsonl": _qags_line(
            " An article. ", [("Yes.", ["yes", "yes", "no"]), ("No.", ["no", "yes", "no"])]
        ),
        "data/mturk_xsum.jsonl": _qags_line(
            "Another.", [("All.", ["yes", "yes", "yes"]), ("Odd.", ["yes", "maybe", "no"])]
        ),
    }
    for const, files in (("SUMMEDITS", se), ("QAGS", qg)):
        snapshot(fv, root, monkeypatch, const, files)
    return root


def test_fresh3_converters_map_labels_and_keep_the_original_class(mirrors):
    rd = fv.Reader(mirrors)
    sam = list(fv._summedits("samsum")(rd, fv.Tally()))
    assert [(e.id, e.label, e.cls, e.quotes) for e in sam] == [
        ("summedits-samsum-samsum_og", "supported", "consistent", ["samsum doc."]),
        (
            "summedits-samsum-samsum_e0",
            "unsupported",
            "inconsistent (entity_modification)",
            ["samsum doc."],
        ),
        (
            "summedits-samsum-samsum_e1",
            "unsupported",
            "inconsistent (antonym_swap+entity_modification)",
            ["samsum doc."],
        ),
    ]
    tally = fv.Tally()
    qg = list(fv.qags(rd, tally))
    # majority of three votes; a row without three yes/no answers is dropped and counted
    assert [(e.id, e.label, e.cls, e.quotes, e.claim) for e in qg] == [
        ("qags-cnndm-0-0", "supported", "cnndm yes 2/3", ["An article."], "Yes."),
        ("qags-cnndm-0-1", "unsupported", "cnndm yes 1/3", ["An article."], "No."),
        ("qags-xsum-0-0", "supported", "xsum yes 3/3", ["Another."], "All."),
    ]
    assert tally.dropped == {"not three yes/no annotations": 1}


def test_fresh_sample_respects_the_fresh3_cap():
    recs = [{"id": str(i), "class": "a" if i % 3 else "b"} for i in range(3000)]
    kept = fv.fresh_sample(recs, fv.FRESH3_CAP)
    assert len(kept) == fv.FRESH3_CAP == 1000
    assert kept == fv.fresh_sample(recs, fv.FRESH3_CAP)  # seeded
    assert sum(r["class"] == "b" for r in kept) == 333  # the source's balance (1000 of 3000)


def test_fetch_fresh3_writes_holdout_only_sets_bench_can_load(mirrors, tmp_path):
    out = tmp_path / "factver-fresh3"
    assert fv.main(["--fresh3", "--mirrors", str(mirrors), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "README.md",
        "qags",
        "summedits-ectsum",
        "summedits-samsum",
    ]
    assert not list(out.glob("*/dev.jsonl"))
    recs = [
        json.loads(line)
        for f in sorted(out.glob("*/holdout.jsonl"))
        for line in f.read_text().splitlines()
    ]
    assert len(recs) == 8 and {r["split"] for r in recs} == {"holdout"}
    assert all(r["source"].endswith(fv.QAGS.commit) for r in recs if r["dataset"] == "qags")
    assert "cut to 1000 by a sample" in (out / "README.md").read_text()
    hand = tmp_path / "hand"
    hand.mkdir()
    row = {
        "id": "g0001",
        "dataset": "apache",
        "page": "apache/a.html",
        "quote": "Q.",
        "claim": "C.",
        "label": "supported",
        "class": "paraphrase_synonyms",
        "split": "holdout",
    }
    (hand / "holdout.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    pairs = bench_claims.load_fresh(hand, out, "--fresh3")
    assert [p.dataset for p in pairs][:1] == ["hand/apache"]
    assert {p.dataset for p in pairs[1:]} == {
        "factver/qags",
        "factver/summedits-ectsum",
        "factver/summedits-samsum",
    }


def test_fetch_two_fresh_groups_together_is_a_user_error(tmp_path, capsys):
    assert fv.main(["--fresh2", "--fresh3", "--mirrors", str(tmp_path)]) == 2
    assert "--fresh2 and --fresh3" in capsys.readouterr().err
    assert fv.main(["--fresh3", "--only", "fm2", "--mirrors", str(tmp_path)]) == 2
    assert "--fresh3" in capsys.readouterr().err


def test_load_fresh3_names_its_own_rebuild_command(tmp_path):
    hand = tmp_path / "hand"
    hand.mkdir()
    (hand / "holdout.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(bench_claims.FreshMissing, match="fetch_factver.py --fresh3 --out"):
        bench_claims.load_fresh(hand, tmp_path / "none", "--fresh3")
    with pytest.raises(bench_claims.FreshMissing, match="--fresh3-hand-dir"):
        bench_claims.load_fresh(tmp_path / "nowhere", tmp_path / "none", "--fresh3")


def test_bench_claims_fresh3_defaults_point_at_the_third_group():
    assert bench_claims.FRESH3_HAND_DIR.name == "claims-fresh3"
    assert str(bench_claims.FRESH3_FACTVER_ROOT) == "/tmp/factver-fresh3"


def test_shipped_fresh3_hand_pairs_are_well_formed():
    check = load_module(BENCH / "data" / "claims-hand" / "check.py", "claims_hand_check3")
    rows = check.load(bench_claims.FRESH3_HAND_DIR)
    assert len(rows) >= 400 and check.problems(rows, bench_claims.FRESH3_HAND_DIR) == []
    assert {r["split"] for r in rows} == {"holdout"}
    assert {r["label"] for r in rows} == {"supported", "unsupported"}
    assert {r["dataset"] for r in rows} == {"apache"}
    assert all(r["id"].startswith("h") for r in rows)

"""The fifth fresh group behind ``benchmarks/bench_claims.py --fresh5``: the converters of
``fetch_factver.py --fresh5`` (on small synthetic files in a throwaway git repository, not the
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
from tests.benchmarks._fresh_support import git_repo, load_module  # noqa: E402

fv = load_module(BENCH / "data" / "factver" / "fetch_factver.py", "fetch_factver_fresh5")


def _summedits(domain: str, labels: list[int]) -> str:
    return json.dumps(
        [
            {
                "id": f"{domain}_{k}",
                "doc": f" {domain} document. ",
                "summary": f"Summary {k}.",
                "label": lab,
                "original_summary": "Summary 0.",
                "edit_types": [] if lab == 1 else ["hallucinated_fact_insertion"],
                "split": "test",
            }
            for k, lab in enumerate(labels)
        ]
    )


@pytest.fixture
def mirrors(tmp_path: Path, monkeypatch) -> Path:
    """A synthetic snapshot of salesforce/factualNLG with the three --fresh5 domains (and a row
    whose label is neither 0 nor 1), the pinned commit pointed at it."""
    root = tmp_path / "mirrors"
    files = {
        "data/summedits/summedits_news.json": _summedits("news", [1, 0, 0]),
        "data/summedits/summedits_qmsumm.json": _summedits("qmsumm", [1, 0, 2]),
        "data/summedits/summedits_sales_call.json": _summedits("sales_call", [0, 1]),
    }
    commit = git_repo(root / "salesforce+factualNLG" / "repo", files)
    monkeypatch.setattr(fv, "SUMMEDITS", fv.Repo(fv.SUMMEDITS.name, commit))
    return root


def test_fresh5_converters_name_their_sets_and_map_labels(mirrors):
    rd = fv.Reader(mirrors)
    tally = fv.Tally()
    qm = list(fv._summedits("qmsumm", "qmsum")(rd, tally))
    assert [(e.id, e.label, e.cls, e.quotes) for e in qm] == [
        ("summedits-qmsum-qmsumm_0", "supported", "consistent", ["qmsumm document."]),
        (
            "summedits-qmsum-qmsumm_1",
            "unsupported",
            "inconsistent (hallucinated_fact_insertion)",
            ["qmsumm document."],
        ),
    ]
    assert tally.dropped == {"label other than 0/1, or empty document or summary": 1}
    # without a name the id keeps the file's domain, as the earlier groups' ids do
    assert [e.id for e in fv._summedits("news")(rd, fv.Tally())][0] == "summedits-news-news_0"


def test_fetch_fresh5_writes_holdout_only_sets_bench_can_load(mirrors, tmp_path):
    out = tmp_path / "factver-fresh5"
    assert fv.main(["--fresh5", "--mirrors", str(mirrors), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "README.md",
        "summedits-news",
        "summedits-qmsum",
        "summedits-salescall",
    ]
    assert not list(out.glob("*/dev.jsonl"))
    first = {f: f.read_bytes() for f in sorted(out.rglob("*")) if f.is_file()}
    assert fv.main(["--fresh5", "--mirrors", str(mirrors), "--out", str(out)]) == 0
    assert {
        f: f.read_bytes() for f in sorted(out.rglob("*")) if f.is_file()
    } == first  # rebuilt byte for byte
    readme = (out / "README.md").read_text()
    assert "--fresh5" in readme and "cut to 1000 by a sample" in readme
    hand = tmp_path / "hand"
    hand.mkdir()
    row = {
        "id": "h0001",
        "dataset": "cmake",
        "page": "cmake/command/a.html",
        "quote": "Q.",
        "claim": "C.",
        "label": "unsupported",
        "class": "negation",
        "note": "x",
        "split": "holdout",
    }
    (hand / "holdout.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    pairs = bench_claims.load_fresh(hand, out, "--fresh5")
    assert [(p.id, p.dataset, p.label) for p in pairs][:1] == [
        ("h0001", "hand/cmake", "unsupported")
    ]
    got = sorted((p.dataset, p.label) for p in pairs[1:])
    assert got == [
        ("factver/summedits-news", "supported"),
        ("factver/summedits-news", "unsupported"),
        ("factver/summedits-news", "unsupported"),
        ("factver/summedits-qmsum", "supported"),
        ("factver/summedits-qmsum", "unsupported"),
        ("factver/summedits-salescall", "supported"),
        ("factver/summedits-salescall", "unsupported"),
    ]


def test_fetch_fresh5_with_another_group_or_only_is_a_user_error(tmp_path, capsys):
    assert fv.main(["--fresh3", "--fresh5", "--mirrors", str(tmp_path)]) == 2
    assert "--fresh3 and --fresh5" in capsys.readouterr().err
    assert fv.main(["--fresh5", "--only", "fm2", "--mirrors", str(tmp_path)]) == 2
    assert "--fresh5" in capsys.readouterr().err


def test_load_fresh5_names_its_own_rebuild_command(tmp_path):
    hand = tmp_path / "hand"
    hand.mkdir()
    (hand / "holdout.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(bench_claims.FreshMissing, match="fetch_factver.py --fresh5 --out"):
        bench_claims.load_fresh(hand, tmp_path / "none", "--fresh5")
    with pytest.raises(bench_claims.FreshMissing, match="--fresh5-hand-dir"):
        bench_claims.load_fresh(tmp_path / "nowhere", tmp_path / "none", "--fresh5")


def test_bench_claims_fresh5_defaults_point_at_the_fifth_group():
    assert bench_claims.FRESH5_HAND_DIR.name == "claims-fresh5"
    assert str(bench_claims.FRESH5_FACTVER_ROOT) == "/tmp/factver-fresh5"
    assert fv.DEFAULT_FRESH5_OUT == bench_claims.FRESH5_FACTVER_ROOT


def test_shipped_fresh5_hand_pairs_are_well_formed():
    check = load_module(BENCH / "data" / "claims-hand" / "check.py", "claims_hand_check5")
    rows = check.load(bench_claims.FRESH5_HAND_DIR)
    assert len(rows) >= 300 and check.problems(rows, bench_claims.FRESH5_HAND_DIR) == []
    assert {r["split"] for r in rows} == {"holdout"}
    assert {r["dataset"] for r in rows} == {"cmake"}
    assert len({r["id"] for r in rows}) == len(rows)
    labels = [r["label"] for r in rows]
    assert 0.4 <= labels.count("supported") / len(labels) <= 0.6
    assert all(r.get("note") for r in rows if r["label"] == "unsupported")
    pages = (bench_claims.FRESH5_HAND_DIR / "pages.txt").read_text().split()
    assert {r["page"] for r in rows} == set(pages)

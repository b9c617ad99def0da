"""The sixth fresh group behind ``benchmarks/bench_claims.py --fresh6``: the converters of
``fetch_factver.py --fresh6`` (on small synthetic files in a throwaway git repository, not the
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

fv = load_module(BENCH / "data" / "factver" / "fetch_factver.py", "fetch_factver_fresh6")


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
    """A synthetic snapshot of salesforce/factualNLG with the two --fresh6 domains (and a row
    whose label is neither 0 nor 1), the pinned commit pointed at it."""
    root = tmp_path / "mirrors"
    files = {
        "data/summedits/summedits_podcast.json": _summedits("podcast", [1, 0, 0]),
        "data/summedits/summedits_sales_email.json": _summedits("sales_email", [1, 0, 2]),
    }
    commit = git_repo(root / "salesforce+factualNLG" / "repo", files)
    monkeypatch.setattr(fv, "SUMMEDITS", fv.Repo(fv.SUMMEDITS.name, commit))
    return root


def test_fresh6_converters_name_their_sets_and_map_labels(mirrors):
    rd = fv.Reader(mirrors)
    tally = fv.Tally()
    em = list(fv._summedits("sales_email", "salesemail")(rd, tally))
    assert [(e.id, e.label, e.cls, e.quotes) for e in em] == [
        (
            "summedits-salesemail-sales_email_0",
            "supported",
            "consistent",
            ["sales_email document."],
        ),
        (
            "summedits-salesemail-sales_email_1",
            "unsupported",
            "inconsistent (hallucinated_fact_insertion)",
            ["sales_email document."],
        ),
    ]
    assert tally.dropped == {"label other than 0/1, or empty document or summary": 1}
    # without a name the id keeps the file's domain, as the earlier groups' ids do
    assert [e.id for e in fv._summedits("podcast")(rd, fv.Tally())][
        0
    ] == "summedits-podcast-podcast_0"


def test_fetch_fresh6_writes_holdout_only_sets_bench_can_load(mirrors, tmp_path):
    out = tmp_path / "factver-fresh6"
    assert fv.main(["--fresh6", "--mirrors", str(mirrors), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "README.md",
        "summedits-podcast",
        "summedits-salesemail",
    ]
    assert not list(out.glob("*/dev.jsonl"))
    first = {f: f.read_bytes() for f in sorted(out.rglob("*")) if f.is_file()}
    assert fv.main(["--fresh6", "--mirrors", str(mirrors), "--out", str(out)]) == 0
    assert {
        f: f.read_bytes() for f in sorted(out.rglob("*")) if f.is_file()
    } == first  # rebuilt byte for byte
    readme = (out / "README.md").read_text()
    assert "--fresh6" in readme and "cut to 1000 by a sample" in readme
    hand = tmp_path / "hand"
    hand.mkdir()
    row = {
        "id": "h0001",
        "dataset": "postfix",
        "page": "postfix/a.html",
        "quote": "Q.",
        "claim": "C.",
        "label": "unsupported",
        "class": "negation",
        "note": "x",
        "split": "holdout",
    }
    (hand / "holdout.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    pairs = bench_claims.load_fresh(hand, out, "--fresh6")
    assert [(p.id, p.dataset, p.label) for p in pairs][:1] == [
        ("h0001", "hand/postfix", "unsupported")
    ]
    got = sorted((p.dataset, p.label) for p in pairs[1:])
    assert got == [
        ("factver/summedits-podcast", "supported"),
        ("factver/summedits-podcast", "unsupported"),
        ("factver/summedits-podcast", "unsupported"),
        ("factver/summedits-salesemail", "supported"),
        ("factver/summedits-salesemail", "unsupported"),
    ]


def test_fetch_fresh6_with_another_group_or_only_is_a_user_error(tmp_path, capsys):
    assert fv.main(["--fresh5", "--fresh6", "--mirrors", str(tmp_path)]) == 2
    assert "--fresh5 and --fresh6" in capsys.readouterr().err
    assert fv.main(["--fresh6", "--only", "fm2", "--mirrors", str(tmp_path)]) == 2
    assert "--fresh6" in capsys.readouterr().err


def test_load_fresh6_names_its_own_rebuild_command(tmp_path):
    hand = tmp_path / "hand"
    hand.mkdir()
    (hand / "holdout.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(bench_claims.FreshMissing, match="fetch_factver.py --fresh6 --out"):
        bench_claims.load_fresh(hand, tmp_path / "none", "--fresh6")
    with pytest.raises(bench_claims.FreshMissing, match="--fresh6-hand-dir"):
        bench_claims.load_fresh(tmp_path / "nowhere", tmp_path / "none", "--fresh6")


def test_bench_claims_fresh6_defaults_point_at_the_sixth_group():
    assert bench_claims.FRESH6_HAND_DIR.name == "claims-fresh6"
    assert str(bench_claims.FRESH6_FACTVER_ROOT) == "/tmp/factver-fresh6"
    assert fv.DEFAULT_FRESH6_OUT == bench_claims.FRESH6_FACTVER_ROOT


def test_shipped_fresh6_hand_pairs_are_well_formed():
    check = load_module(BENCH / "data" / "claims-hand" / "check.py", "claims_hand_check6")
    rows = check.load(bench_claims.FRESH6_HAND_DIR)
    assert len(rows) >= 200 and check.problems(rows, bench_claims.FRESH6_HAND_DIR) == []
    assert {r["split"] for r in rows} == {"holdout"}
    assert {r["dataset"] for r in rows} == {"postfix"}
    assert len({r["id"] for r in rows}) == len(rows)
    labels = [r["label"] for r in rows]
    assert 0.4 <= labels.count("supported") / len(labels) <= 0.6
    assert all(r.get("note") for r in rows if r["label"] == "unsupported")
    pages = (bench_claims.FRESH6_HAND_DIR / "pages.txt").read_text().split()
    assert {r["page"] for r in rows} == set(pages)

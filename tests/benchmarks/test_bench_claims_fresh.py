"""The loader behind ``benchmarks/bench_claims.py --fresh`` (fresh, holdout-only claim data)
and the shipped hand-written fresh pairs. Nothing here runs the claim check on them."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import bench_claims  # noqa: E402


def _module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _write(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _fv(name: str, n: int, label: str) -> dict:
    return {
        "id": f"{name}-{n}",
        "dataset": name,
        "quotes": [f"evidence {n}"],
        "claim": f"claim {n}",
        "label": label,
        "class": label.upper(),
        "split": "holdout",
        "source": "x/y/z@0",
    }


@pytest.fixture
def fresh(tmp_path: Path) -> tuple[Path, Path]:
    hand = tmp_path / "claims-fresh"
    _write(
        hand / "holdout.jsonl",
        [
            {
                "id": "f0001",
                "dataset": "sqlite",
                "page": "sqlite/a.html",
                "quote": "Q one.",
                "claim": "C one.",
                "label": "supported",
                "class": "reorder_voice",
                "split": "holdout",
            },
            {
                "id": "f0002",
                "dataset": "bash",
                "page": "bash/b.html",
                "quotes": ["Q two.", "Q three."],
                "claim": "C two.",
                "label": "unsupported",
                "class": "role_swap",
                "split": "holdout",
            },
        ],
    )
    root = tmp_path / "factver-fresh"
    # holdout-only folders (no dev.jsonl): the fresh sets have no dev part
    _write(root / "setb" / "holdout.jsonl", [_fv("setb", 1, "unsupported")])
    _write(
        root / "seta" / "holdout.jsonl",
        [_fv("seta", 1, "supported"), _fv("seta", 2, "unsupported")],
    )
    return hand, root


def test_load_fresh_reads_hand_and_holdout_only_public_sets(fresh):
    hand, root = fresh
    pairs = bench_claims.load_fresh(hand, root)
    assert [(p.id, p.dataset, p.label) for p in pairs] == [
        ("f0001", "hand/sqlite", "supported"),
        ("f0002", "hand/bash", "unsupported"),
        ("seta-1", "factver/seta", "supported"),
        ("seta-2", "factver/seta", "unsupported"),
        ("setb-1", "factver/setb", "unsupported"),
    ]
    assert pairs[0].quotes == ["Q one."] and pairs[1].quotes == ["Q two.", "Q three."]
    assert pairs[2].quotes == ["evidence 1"] and pairs[2].cls == "SUPPORTED"


def test_load_fresh_names_what_is_missing(fresh, tmp_path):
    hand, root = fresh
    with pytest.raises(bench_claims.FreshMissing, match="claims-nowhere"):
        bench_claims.load_fresh(tmp_path / "claims-nowhere", root)
    with pytest.raises(bench_claims.FreshMissing, match="fetch_factver.py --fresh"):
        bench_claims.load_fresh(hand, tmp_path / "no-factver")


def test_load_fresh_rejects_a_bad_record(fresh):
    hand, root = fresh
    _write(root / "seta" / "holdout.jsonl", [{**_fv("seta", 1, "supported"), "label": "maybe"}])
    with pytest.raises(ValueError, match="seta"):
        bench_claims.load_fresh(hand, root)


@pytest.mark.parametrize("flag", ["--fresh", "--fresh2"])
def test_fresh_cli_exits_2_when_data_is_missing(tmp_path, flag):
    proc = subprocess.run(
        [
            sys.executable,
            str(BENCH / "bench_claims.py"),
            flag,
            f"{flag}-factver-root",
            str(tmp_path / "none"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert f"{flag}:" in proc.stderr and "Traceback" not in proc.stderr


def test_shipped_fresh_hand_pairs_are_well_formed():
    check = _module(BENCH / "data" / "claims-hand" / "check.py", "claims_hand_check")
    rows = check.load(bench_claims.FRESH_HAND_DIR)
    assert rows and check.problems(rows, bench_claims.FRESH_HAND_DIR) == []
    assert {r["split"] for r in rows} == {"holdout"}
    assert {r["label"] for r in rows} == {"supported", "unsupported"}
    assert {r["dataset"] for r in rows} == {"sqlite", "bash"}


@pytest.mark.parametrize("claim, quote, lacking", [
    ("The laptop has 8GB of memory.", "It is the 8th generation of the laptop.", True),  # fresh15: a rank, not 8
    ("It finished 8th.", "It had 8 laps left.", True),  # nor the reverse
    ("The laptop has 8GB of memory.", "The 8 GB model of the 8th generation.", False),
    ("It finished 8th.", "It finished in 8th place.", False),
    ("The 21st edition came out.", "The twenty-first edition came out in the 21st year.", False),
    ("It opened on 8 March 2020.", "It opened on March 8th, 2020.", False),  # a day of a month is the number
    ("It opened on 8 March 2020.", "It opened on the 8th of March 2020.", False),
    ("It opened on 3 May.", "It opened on May 3rd.", False),
])
def test_number_lacking_reads_an_ordinal_as_a_rank_not_the_number(claim, quote, lacking):
    """bench_claims counts a correct claim flagged for a number its quote lacks apart from a
    false flag: a quote's "8th" does not state the claim's "8GB"."""
    assert bench_claims.number_lacking(claim, [quote]) is lacking


@pytest.mark.parametrize("claim, quote, lacking", [
    ("The 2nd Boer war was fought in South Africa.", "The Second Boer War was fought in South Africa.", False),
    ("The 21st edition came out.", "The twenty-first edition came out.", False),
    ("Jamie was 15st by the age of 15.", "He weighed 15st at fifteen.", False),  # stone, no rank
    ("Mirren has thirteen siblings.", "She is the 13th of 14 children.", True),
])
def test_number_lacking_reads_ranks_in_words_and_not_a_unit_as_a_rank(claim, quote, lacking):
    assert bench_claims.number_lacking(claim, [quote]) is lacking

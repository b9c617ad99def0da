"""``bench_claims.py --fresh20``: the twentieth fresh group is hand-written only (no public
half), wired like the nineteenth, and named in claims_verdicts. Nothing here runs the claim check."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import bench_claims  # noqa: E402
from tests.benchmarks._fresh_support import load_module  # noqa: E402


def test_fresh20_stops_when_its_pairs_are_not_there(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["bench_claims.py", "--fresh20", "--fresh20-hand-dir", str(tmp_path / "none")])
    with pytest.raises(SystemExit) as exc:
        bench_claims.main()
    assert exc.value.code == 2
    assert "holdout.jsonl" in capsys.readouterr().err


def test_fresh20_has_no_factver_root_option(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["bench_claims.py", "--fresh20", "--fresh20-factver-root", "/tmp/x"])
    with pytest.raises(SystemExit) as exc:
        bench_claims.main()
    assert exc.value.code == 2


def test_fresh20_defaults_and_verdict_group():
    g = bench_claims.FRESH_GROUPS["fresh20"]
    assert not g.hand_optional and g.factver_root is None
    assert g.hand_dir == bench_claims.FRESH20_HAND_DIR and g.hand_dir.name == "claims-fresh20"
    verdicts = load_module(BENCH / "claims_verdicts.py", "claims_verdicts_fresh20")
    assert "fresh20" in verdicts.GROUPS
    assert verdicts._FRESH["fresh20"] == (g.hand_dir, None)

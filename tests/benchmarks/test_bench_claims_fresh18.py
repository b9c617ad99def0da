"""``bench_claims.py --fresh18``: the eighteenth fresh group is wired like the seventeenth (its public
half under /tmp/factver-fresh18, its hand-written half optional) and named in claims_verdicts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import bench_claims  # noqa: E402
from tests.benchmarks._fresh_support import check_stops_without_data, load_module  # noqa: E402


@pytest.mark.parametrize("only", ["", "hand"])
def test_fresh18_stops_when_nothing_is_there_to_measure(only, tmp_path, monkeypatch, capsys):
    check_stops_without_data(bench_claims, monkeypatch, capsys, tmp_path, "fresh18", only)


def test_fresh18_defaults_and_verdict_group():
    g = bench_claims.FRESH_GROUPS["fresh18"]
    assert g.hand_optional
    assert g.hand_dir == bench_claims.FRESH18_HAND_DIR and g.hand_dir.name == "claims-fresh18"
    assert g.factver_root == bench_claims.FRESH18_FACTVER_ROOT == Path("/tmp/factver-fresh18")
    verdicts = load_module(BENCH / "claims_verdicts.py", "claims_verdicts_fresh18")
    assert "fresh18" in verdicts.GROUPS
    assert verdicts._FRESH["fresh18"] == (g.hand_dir, g.factver_root)

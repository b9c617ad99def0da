"""``bench_claims.py --fresh16`` ... ``--fresh44``, one row per group: the sixteenth to
eighteenth groups are wired with their public half under /tmp/factver-fresh<N> and an optional
hand-written half; the nineteenth to forty-fourth are hand-written only. Every one is named in
claims_verdicts. Nothing here runs the claim check."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import bench_claims  # noqa: E402
from tests.benchmarks._fresh_support import check_stops_without_data, load_module  # noqa: E402

WITH_PUBLIC = ["fresh16", "fresh17", "fresh18"]
HAND_ONLY = ["fresh19", "fresh20", "fresh21", "fresh22", "fresh23", "fresh24", "fresh25", "fresh26", "fresh27", "fresh28", "fresh29", "fresh30", "fresh31", "fresh32", "fresh33", "fresh34", "fresh35", "fresh36", "fresh37", "fresh38", "fresh39", "fresh40", "fresh41", "fresh42", "fresh43", "fresh44"]
verdicts = load_module(BENCH / "claims_verdicts.py", "claims_verdicts_later_groups")


def _hand_dir(group: str) -> Path:
    return getattr(bench_claims, f"FRESH{group.removeprefix('fresh')}_HAND_DIR")


@pytest.mark.parametrize("group", WITH_PUBLIC)
@pytest.mark.parametrize("only", ["", "hand"])
def test_a_group_with_a_public_half_stops_when_nothing_is_there_to_measure(group, only, tmp_path, monkeypatch,
                                                                            capsys):
    check_stops_without_data(bench_claims, monkeypatch, capsys, tmp_path, group, only)


@pytest.mark.parametrize("group", WITH_PUBLIC)
def test_a_group_with_a_public_half_defaults_and_verdict_group(group):
    g = bench_claims.FRESH_GROUPS[group]
    assert g.hand_optional
    assert g.hand_dir == _hand_dir(group) and g.hand_dir.name == f"claims-{group}"
    root = getattr(bench_claims, f"FRESH{group.removeprefix('fresh')}_FACTVER_ROOT")
    assert g.factver_root == root == Path(f"/tmp/factver-{group}")
    assert group in verdicts.GROUPS
    assert verdicts._FRESH[group] == (g.hand_dir, g.factver_root)


@pytest.mark.parametrize("group", HAND_ONLY)
def test_a_hand_only_group_stops_when_its_pairs_are_not_there(group, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["bench_claims.py", f"--{group}", f"--{group}-hand-dir", str(tmp_path / "none")])
    with pytest.raises(SystemExit) as exc:
        bench_claims.main()
    assert exc.value.code == 2
    assert "holdout.jsonl" in capsys.readouterr().err


@pytest.mark.parametrize("group", HAND_ONLY)
def test_a_hand_only_group_has_no_factver_root_option(group, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["bench_claims.py", f"--{group}", f"--{group}-factver-root", "/tmp/x"])
    with pytest.raises(SystemExit) as exc:
        bench_claims.main()
    assert exc.value.code == 2


@pytest.mark.parametrize("group", HAND_ONLY)
def test_a_hand_only_group_defaults_and_verdict_group(group):
    g = bench_claims.FRESH_GROUPS[group]
    assert not g.hand_optional and g.factver_root is None
    assert g.hand_dir == _hand_dir(group) and g.hand_dir.name == f"claims-{group}"
    assert group in verdicts.GROUPS
    assert verdicts._FRESH[group] == (g.hand_dir, None)

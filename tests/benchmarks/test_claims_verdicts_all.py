"""``claims_verdicts.py --group all``'s comparison: how verdicts moved between two dumps, and
how many became ``supported`` (the gate a rule change must pass). Nothing here runs the claim
check."""

from __future__ import annotations

from pathlib import Path

from tests.benchmarks._fresh_support import load_module

verdicts = load_module(Path(__file__).resolve().parents[2] / "benchmarks" / "claims_verdicts.py",
                       "claims_verdicts_all")


def test_moves_counts_each_kind_of_move_and_what_became_supported(capsys):
    before = {"fresh9|hand/x|a": ["unchecked", None, "", False], "fresh9|hand/x|b": ["unsupported", "neg", "", False],
              "dev|pg-dev|c": ["supported", "copy", "", False], "fresh35|hand/y|d": ["unchecked", None, "", False]}
    now = {**before, "fresh9|hand/x|a": ["supported", "copy", "", False],
           "fresh9|hand/x|b": ["unchecked", None, "", False], "fresh35|hand/y|d": ["supported", "copy", "", False]}
    labels = {"fresh9|hand/x|a": "unsupported", "fresh9|hand/x|b": "supported", "dev|pg-dev|c": "supported",
              "fresh35|hand/y|d": "unsupported"}
    became = verdicts._moves(before, now, labels, shown={"fresh9", "dev"}, show=5)
    out = capsys.readouterr().out
    assert became == 2
    assert "unsupported unchecked   -> supported        2" in out
    assert "supported   unsupported -> unchecked        1" in out
    assert "fresh9|hand/x|a" in out and "fresh35|hand/y|d" not in out  # an unseen group's pairs are not printed
    assert "became supported: 2" in out


def test_a_verdict_that_stays_is_no_move(capsys):
    v = {"dev|pg-dev|c": ["supported", "copy", "", False]}
    assert verdicts._moves(v, dict(v), {"dev|pg-dev|c": "supported"}, shown={"dev"}, show=5) == 0
    assert "became supported: 0" in capsys.readouterr().out

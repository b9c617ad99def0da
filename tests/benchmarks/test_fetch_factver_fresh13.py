"""The public half of the thirteenth fresh group: the converters behind ``fetch_factver.py --fresh13``
(FNC-1's labelled competition test set, Emergent as thanhan/fc-aaai18 copies it, BUMP), on small synthetic
files in throwaway git repositories, not the real data, and the wiring of ``bench_claims.py
--fresh13`` (a group whose hand-written half is optional). Nothing here runs the claim check."""

from __future__ import annotations

import csv
import io
import json
import sys
from functools import partial
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import _factver  # noqa: E402
import bench_claims  # noqa: E402
import tests.benchmarks._fresh_support as fs  # noqa: E402

fv = fs.load_module(BENCH / "data" / "factver" / "fetch_factver.py", "fetch_factver_fresh13")
_snapshot = partial(fs.snapshot, fv)  # a synthetic snapshot of fv.<attr>, pinned commit pointed at it


def _csv(header: list[str], rows: list[list[str]]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return out.getvalue()


def fresh13_mirrors(root: Path, monkeypatch) -> None:
    _snapshot(root, monkeypatch, "FNC1", {
        fv._FNC1_BODIES: _csv(["Body ID", "articleBody"], [
            ["7", " First paragraph &amp; more.\n\nSecond paragraph. "],
            ["9", "Another story."],
            ["11", "   "],
        ]),
        fv._FNC1_STANCES: _csv(["Headline", "Body ID", "Stance"], [
            ["Cat rescued from tree", "7", "agree"],
            ["Cat rescued from tree", "9", "unrelated"],  # another story: dropped
            ["Dog elected mayor", "7", "disagree"],
            ["Cat rescued from tree", "7", "agree"],  # the same headline and body again: dropped
            ["Moon made of cheese", "9", "discuss"],
            ["Moon made of cheese", "11", "agree"],  # empty body: dropped
            ["Moon made of cheese", "12", "agree"],  # no such body: dropped
        ]),
        # the training stances and the unlabelled test file are not read
        "test_stances_unlabeled.csv": "Headline,Body ID\nX,7\n",
    })
    header = ["", "claimHeadline", "articleHeadline", "articleHeadlineStance", "articleId", "claimId"]
    _snapshot(root, monkeypatch, "EMERGENT", {
        fv._EMERGENT_PATH: _csv(header, [
            ["0", "A rumour.", " A headline for it. ", "for", "a1", "c1"],
            ["1", "A rumour.", "A headline against it.", "against", "a2", "c1"],
            ["2", "A rumour.", "A headline, officials say.", "observing", "a3", "c1"],
            ["3", "A rumour.", "A headline for it.", "for", "a4", "c1"],  # repeated pair: dropped
            ["4", "Another rumour.", "", "for", "a5", "c2"],  # empty headline: dropped
            ["5", "Another rumour.", "Some headline.", "ignoring", "a6", "c2"],  # not a stance: dropped
        ]),
        "emergent/url-versions-2015-06-14-clean-test.csv": "not read\n",
    })
    art, ref = "An article about a cat.", "A cat was rescued ."
    task1 = [
        _bump(0, 5, art, ref, "A dog was rescued .", "Extrinsic Entity Error", "Intrinsic Entity Error"),
        _bump(1, 5, art, ref, "A cat was abandoned .", "Intrinsic Predicate Error", "Intrinsic Predicate Error"),
        _bump(2, 5, art, ref, "A dog was rescued .", "Extrinsic Entity Error", "Extrinsic Entity Error"),  # again
        _bump(3, 6, "", "R .", "E .", "Coreference Error", "Coreference Error"),  # no article: dropped
    ]
    task2 = [
        _bump(0, 5, art, ref, "A cat was rescued twice .", "Extrinsic Circumstance"),  # same article, same reference
        _bump(1, 7, "Another article.", "It rained .", "It snowed .", "Other"),
        _bump(2, 8, "A third article.", "Same .", "Same .", "Other"),  # no edit: dropped
    ]
    _snapshot(root, monkeypatch, "BUMP", {"data/task1_dataset.json": json.dumps(task1),
                                          "data/task2_dataset.json": json.dumps(task2)})


def _bump(k: int, article_id: int, article: str, ref: str, edited: str, err: str, corrected: str | None = None) -> dict:
    row = {"id": k, "article_id": article_id, "article": article, "reference_summary": ref,
           "edited_summary": edited, "error_type": err, "scores": {"QAFactEval_edited": 0.5}}
    if corrected is not None:
        row["corrected_error_type"] = corrected
    return row


def test_fnc1_quotes_the_body_for_the_headline_and_drops_unrelated_rows(tmp_path, monkeypatch):
    fresh13_mirrors(tmp_path, monkeypatch)
    tally = fv.Tally()
    got = list(fv.fnc1(fv.Reader(tmp_path), tally))
    body = "First paragraph & more.\n\nSecond paragraph."
    assert [(e.id, e.label, e.cls, e.quotes, e.claim, e.group) for e in got] == [
        ("fnc1-0-body7", "supported", "agree", [body], "Cat rescued from tree", "body7"),
        ("fnc1-2-body7", "unsupported", "disagree", [body], "Dog elected mayor", "body7"),
        ("fnc1-4-body9", "unsupported", "discuss", ["Another story."], "Moon made of cheese", "body9"),
    ]
    assert tally.dropped == {"stance 'unrelated'": 1, "repeated headline and body": 1,
                             "empty headline or body": 1, "body id not in the bodies file": 1}
    assert tally.fixed["HTML character reference decoded"] >= 1
    assert got[0].source == f"FakeNewsChallenge/fnc-1/competition_test_stances.csv@{fv.FNC1.commit}"


def test_emergent_quotes_the_headline_for_the_rumour(tmp_path, monkeypatch):
    fresh13_mirrors(tmp_path, monkeypatch)
    tally = fv.Tally()
    got = list(fv.emergent(fv.Reader(tmp_path), tally))
    assert [(e.id, e.label, e.cls, e.quotes, e.claim, e.group) for e in got] == [
        ("emergent-a1", "supported", "for", ["A headline for it."], "A rumour.", "c1"),
        ("emergent-a2", "unsupported", "against", ["A headline against it."], "A rumour.", "c1"),
        ("emergent-a3", "unsupported", "observing", ["A headline, officials say."], "A rumour.", "c1"),
    ]
    assert tally.dropped == {"repeated claim and headline": 1, "empty claim or headline": 1,
                             "stance 'ignoring'": 1}
    assert got[0].source == f"thanhan/fc-aaai18/{fv._EMERGENT_PATH}@{fv.EMERGENT.commit}"


def test_bump_pairs_each_edit_and_each_reference_once_with_the_article(tmp_path, monkeypatch):
    fresh13_mirrors(tmp_path, monkeypatch)
    tally = fv.Tally()
    got = list(fv.bump(fv.Reader(tmp_path), tally))
    art = ["An article about a cat."]
    assert [(e.id, e.label, e.cls, e.claim, e.group) for e in got] == [
        ("bump-task1-0-reference", "supported", "reference", "A cat was rescued .", "article5"),
        ("bump-task1-0-edited", "unsupported", "intrinsic entity", "A dog was rescued .", "article5"),  # corrected type
        ("bump-task1-1-edited", "unsupported", "intrinsic predicate", "A cat was abandoned .", "article5"),
        ("bump-task2-0-edited", "unsupported", "extrinsic circumstance", "A cat was rescued twice .", "article5"),
        ("bump-task2-1-reference", "supported", "reference", "It rained .", "article7"),
        ("bump-task2-1-edited", "unsupported", "other", "It snowed .", "article7"),
    ]
    assert [e.quotes for e in got[:4]] == [art] * 4
    assert tally.dropped == {"repeated edited summary": 1, "empty article or summary": 1,
                             "edited summary equal to the reference": 1}
    assert got[0].source == f"dataminr-ai/BUMP/data/task1_dataset.json@{fv.BUMP.commit}"


def test_fresh13_writes_holdout_only_sets_byte_for_byte_that_the_loader_reads(tmp_path, monkeypatch):
    out, readme = fs.check_builds_byte_for_byte(fv, "fresh13", fresh13_mirrors, tmp_path, monkeypatch,
                                             ["fnc1", "emergent", "bump"])
    assert "benchmarks/data/claims-fresh13" in readme
    pairs = _factver.load("holdout", root=out)
    assert sorted((r["dataset"], r["label"]) for r in pairs) == [
        ("bump", "supported"), ("bump", "supported"), *[("bump", "unsupported")] * 4,
        ("emergent", "supported"), ("emergent", "unsupported"), ("emergent", "unsupported"),
        ("fnc1", "supported"), ("fnc1", "unsupported"), ("fnc1", "unsupported"),
    ]


def test_fresh13_samples_a_big_set_per_class(tmp_path, monkeypatch):
    # more rows than the cap: a seeded per-class sample in the source's proportions
    rows = [[str(i), f"Rumour {i % 7}.", f"Headline {i}.", ("for", "against", "observing")[i % 3], f"a{i}",
             f"c{i % 7}"] for i in range(30)]
    header = ["", "claimHeadline", "articleHeadline", "articleHeadlineStance", "articleId", "claimId"]
    mirrors = tmp_path / "mirrors"
    fresh13_mirrors(mirrors, monkeypatch)
    _snapshot(mirrors / "big", monkeypatch, "EMERGENT", {fv._EMERGENT_PATH: _csv(header, rows)})
    fs.check_samples_per_class(fv, mirrors / "big", tmp_path, fv.FRESH13[1], fv.FRESH13_README_HEAD,
                            ["against"] * 4 + ["for"] * 4 + ["observing"] * 4)


def test_fresh13_default_output_and_sets():
    assert fv.FRESH_GROUPS["--fresh13"].out == Path("/tmp/factver-fresh13")
    assert [d.name for d in fv.FRESH_GROUPS["--fresh13"].sets] == ["fnc1", "emergent", "bump"]
    pinned = {getattr(fv, n).name for n in dir(fv) if isinstance(getattr(fv, n), fv.Repo)}
    assert {"FakeNewsChallenge/fnc-1", "thanhan/fc-aaai18", "dataminr-ai/BUMP"} <= pinned


# --- bench_claims.py --fresh13: the public half alone, or with a hand-written half -------------


def test_fresh13_hand_half_is_optional(tmp_path, monkeypatch):
    out = fs.build_group(fv, "fresh13", fresh13_mirrors, tmp_path, monkeypatch)
    fs.check_optional_hand_half(bench_claims, monkeypatch, tmp_path, "fresh13", out,
                             ["factver/bump"] * 6 + ["factver/emergent"] * 3 + ["factver/fnc1"] * 3)


@pytest.mark.parametrize("only", ["", "hand"])
def test_fresh13_stops_when_nothing_is_there_to_measure(only, tmp_path, monkeypatch, capsys):
    fs.check_stops_without_data(bench_claims, monkeypatch, capsys, tmp_path, "fresh13", only)


def test_fresh13_defaults_and_verdict_group():
    g = fs.check_defaults_and_verdict_group(bench_claims, "fresh13")
    assert g.hand_optional

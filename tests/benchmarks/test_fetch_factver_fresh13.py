"""The public half of the thirteenth fresh group: the converters behind ``fetch_factver.py --fresh13``
(FNC-1's labelled competition test set, Emergent as thanhan/fc-aaai18 copies it, BUMP), on small synthetic
files in throwaway git repositories, not the real data, and the wiring of ``bench_claims.py
--fresh13`` (a group whose hand-written half is optional). Nothing here runs the claim check."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import _factver  # noqa: E402
import bench_claims  # noqa: E402
from tests.benchmarks._fresh_support import (  # noqa: E402
    check_optional_hand_half,
    check_stops_without_data,
    git_repo,
    load_module,
)

fv = load_module(BENCH / "data" / "factver" / "fetch_factver.py", "fetch_factver_fresh13")


def _snapshot(root: Path, monkeypatch, attr: str, files: dict[str, str]) -> None:
    """A git repository standing in for the snapshot of ``fv.<attr>``, pinned commit pointed at it."""
    repo = getattr(fv, attr)
    commit = git_repo(root / repo.name.replace("/", "+") / "repo", files)
    monkeypatch.setattr(fv, attr, fv.Repo(repo.name, commit))


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
    mirrors = tmp_path / "mirrors"
    fresh13_mirrors(mirrors, monkeypatch)
    out = tmp_path / "factver-fresh13"
    assert fv.main(["--fresh13", "--mirrors", str(mirrors), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "bump", "emergent", "fnc1"]
    assert not list(out.glob("*/dev.jsonl"))
    first = {f: f.read_bytes() for f in sorted(out.rglob("*")) if f.is_file()}
    assert fv.main(["--fresh13", "--mirrors", str(mirrors), "--out", str(out)]) == 0
    assert {f: f.read_bytes() for f in sorted(out.rglob("*")) if f.is_file()} == first  # byte for byte
    readme = (out / "README.md").read_text()
    assert "--fresh13" in readme and "cut to 1000 by a sample" in readme and "Looked at and not used" in readme
    assert "benchmarks/data/claims-fresh13" in readme
    for name in ("fnc1", "emergent", "bump"):
        assert f"## {name} (" in readme
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
    out = tmp_path / "out"
    assert fv.build_fresh(mirrors / "big", out, [fv.FRESH13[1]], fv.FRESH13_README_HEAD, cap=12) == 0
    kept = [json.loads(line) for line in (out / "emergent" / "holdout.jsonl").read_text().splitlines()]
    assert len(kept) == 12
    assert sorted(r["class"] for r in kept) == ["against"] * 4 + ["for"] * 4 + ["observing"] * 4
    again = tmp_path / "again"
    assert fv.build_fresh(mirrors / "big", again, [fv.FRESH13[1]], fv.FRESH13_README_HEAD, cap=12) == 0
    assert (again / "emergent" / "holdout.jsonl").read_bytes() == (out / "emergent" / "holdout.jsonl").read_bytes()


def test_fresh13_default_output_and_sets():
    assert fv.FRESH_GROUPS["--fresh13"].out == Path("/tmp/factver-fresh13")
    assert [d.name for d in fv.FRESH_GROUPS["--fresh13"].sets] == ["fnc1", "emergent", "bump"]
    pinned = {getattr(fv, n).name for n in dir(fv) if isinstance(getattr(fv, n), fv.Repo)}
    assert {"FakeNewsChallenge/fnc-1", "thanhan/fc-aaai18", "dataminr-ai/BUMP"} <= pinned


# --- bench_claims.py --fresh13: the public half alone, or with a hand-written half -------------



def _public_half(tmp_path: Path, monkeypatch) -> Path:
    mirrors = tmp_path / "mirrors"
    fresh13_mirrors(mirrors, monkeypatch)
    out = tmp_path / "factver-fresh13"
    assert fv.main(["--fresh13", "--mirrors", str(mirrors), "--out", str(out)]) == 0
    return out


def test_fresh13_hand_half_is_optional(tmp_path, monkeypatch):
    check_optional_hand_half(bench_claims, monkeypatch, tmp_path, "fresh13", _public_half(tmp_path, monkeypatch),
                             ["factver/bump"] * 6 + ["factver/emergent"] * 3 + ["factver/fnc1"] * 3)


@pytest.mark.parametrize("only", ["", "hand"])
def test_fresh13_stops_when_nothing_is_there_to_measure(only, tmp_path, monkeypatch, capsys):
    check_stops_without_data(bench_claims, monkeypatch, capsys, tmp_path, "fresh13", only)


def test_fresh13_defaults_and_verdict_group():
    g = bench_claims.FRESH_GROUPS["fresh13"]
    assert g.hand_optional
    assert g.hand_dir == bench_claims.FRESH13_HAND_DIR and g.hand_dir.name == "claims-fresh13"
    assert g.factver_root == bench_claims.FRESH13_FACTVER_ROOT == Path("/tmp/factver-fresh13")
    verdicts = load_module(BENCH / "claims_verdicts.py", "claims_verdicts_fresh13")
    assert "fresh13" in verdicts.GROUPS
    assert verdicts._FRESH["fresh13"] == (g.hand_dir, g.factver_root)

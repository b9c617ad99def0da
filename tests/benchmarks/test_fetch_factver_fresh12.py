"""The public half of the twelfth fresh group: the converters behind ``fetch_factver.py --fresh12``
(CLIFF as AggreFact copies it, DialFact's test sample), on small synthetic files in throwaway git
repositories, not the real data, and the wiring of ``bench_claims.py --fresh12`` (a group whose
hand-written half is optional). Nothing here runs the claim check."""

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

fv = fs.load_module(BENCH / "data" / "factver" / "fetch_factver.py", "fetch_factver_fresh12")
_snapshot = partial(fs.snapshot, fv)  # a synthetic snapshot of fv.<attr>, pinned commit pointed at it


def _cliff_csv(rows: list[tuple[str, str, str, str, str, str]]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["dataset", "origin", "id", "doc", "summ", "model_name", "cut", "error_type", "annotated_span"])
    for origin, doc_id, doc, summ, model, err in rows:
        w.writerow(["CLIFF", origin, doc_id, doc, summ, model, "test", err, "[]"])
    return out.getvalue()


def _dialfact(k: int, label: str, kind: str, evidence: list[str], response: str = "A response.") -> dict:
    return {"context_id": f"{k // 2}___1", "id": f"{k // 2}___1--{k}", "data_type": "written" if k % 2 else "generated",
            "context": ["Hello."], "response": response,
            "evidence_list": [["Title", "https://en.wikipedia.org/wiki/Title", e, str(i)] for i, e in enumerate(evidence)],
            "response_label": label, "type_label": kind, "evidence_touse": "ignored", "fever_score": [0.1, 0.2, 0.7]}


def fresh12_mirrors(root: Path, monkeypatch) -> None:
    _snapshot(root, monkeypatch, "AGGREFACT", {
        fv._CLIFF_PATH: _cliff_csv([
            ("xsum", "101", " An article, with a comma. ", "A summary.", "BART", "correct"),
            ("xsum", "101", " An article, with a comma. ", "Another summary.", "Pegasus", "['extrinsic-NP']"),
            ("cnndm", "abc", "A news story.", "Two sentences. Here.", "BART", "['intrinsic-NP', 'extrinsic-NP']"),
            ("cnndm", "abc", "A news story.", "", "Pegasus", "correct"),  # empty summary: dropped
            ("cnndm", "def", "Story.", "Summary.", "BART", ""),  # no annotation: dropped
        ]),
        # the unified spreadsheets are not read
        "data/AggreFact-Unified-test.xlsx": "not a spreadsheet",
    })
    rows = [
        _dialfact(0, "SUPPORTS", "factual", [" Evidence one. ", "Evidence two."]),
        _dialfact(1, "REFUTES", "factual", ["Evidence three."]),
        _dialfact(2, "NOT ENOUGH INFO", "factual", ["Evidence four.", "  "]),
        _dialfact(3, "NOT ENOUGH INFO", "personal", ["Evidence five."]),  # about the speaker: dropped
        _dialfact(4, "SUPPORTS", "factual", []),  # no evidence: dropped
        _dialfact(5, "MAYBE", "factual", ["Evidence six."]),  # not a label of the set: dropped
    ]
    _snapshot(root, monkeypatch, "DIALFACT", {fv._DIALFACT_PATH: "\n".join(json.dumps(r) for r in rows) + "\n"})


def test_cliff_quotes_the_article_for_the_whole_summary(tmp_path, monkeypatch):
    fresh12_mirrors(tmp_path, monkeypatch)
    tally = fv.Tally()
    got = list(fv.cliff(fv.Reader(tmp_path), tally))
    assert [(e.id, e.label, e.cls, e.quotes, e.claim, e.group) for e in got] == [
        ("cliff-xsum-101-bart", "supported", "xsum correct", ["An article, with a comma."], "A summary.", "xsum-101"),
        ("cliff-xsum-101-pegasus", "unsupported", "xsum error", ["An article, with a comma."], "Another summary.",
         "xsum-101"),
        ("cliff-cnndm-abc-bart", "unsupported", "cnndm error", ["A news story."], "Two sentences. Here.", "cnndm-abc"),
    ]
    assert tally.dropped == {"empty article or summary": 1, "no annotation": 1}
    assert got[0].source == f"Liyan06/AggreFact/{fv._CLIFF_PATH}@{fv.AGGREFACT.commit}"


def test_dialfact_quotes_each_evidence_sentence_and_drops_personal_responses(tmp_path, monkeypatch):
    fresh12_mirrors(tmp_path, monkeypatch)
    tally = fv.Tally()
    got = list(fv.dialfact(fv.Reader(tmp_path), tally))
    assert [(e.id, e.label, e.cls, e.quotes, e.group) for e in got] == [
        ("dialfact-0___1--0", "supported", "supports (generated)", ["Evidence one.", "Evidence two."], "0___1"),
        ("dialfact-0___1--1", "unsupported", "refutes (written)", ["Evidence three."], "0___1"),
        ("dialfact-1___1--2", "unsupported", "not enough info (generated)", ["Evidence four."], "1___1"),
    ]
    assert got[0].claim == "A response."
    assert tally.dropped == {"response typed 'personal'": 1, "empty response or evidence": 1, "label 'MAYBE'": 1}
    assert got[0].source == f"salesforce/DialFact/scripts/testsmall.jsonl@{fv.DIALFACT.commit}"


def test_fresh12_writes_holdout_only_sets_byte_for_byte_that_the_loader_reads(tmp_path, monkeypatch):
    out, readme = fs.check_builds_byte_for_byte(fv, "fresh12", fresh12_mirrors, tmp_path, monkeypatch,
                                             ["cliff", "dialfact"])
    pairs = _factver.load("holdout", root=out)
    assert sorted((r["dataset"], r["label"]) for r in pairs) == [
        ("cliff", "supported"), ("cliff", "unsupported"), ("cliff", "unsupported"),
        ("dialfact", "supported"), ("dialfact", "unsupported"), ("dialfact", "unsupported"),
    ]


def test_fresh12_default_output_and_sets():
    assert fv.FRESH_GROUPS["--fresh12"].out == Path("/tmp/factver-fresh12")
    assert [d.name for d in fv.FRESH_GROUPS["--fresh12"].sets] == ["cliff", "dialfact"]


# --- bench_claims.py --fresh12: the public half alone, or with a hand-written half -------------


def test_fresh12_hand_half_is_optional(tmp_path, monkeypatch):
    out = fs.build_group(fv, "fresh12", fresh12_mirrors, tmp_path, monkeypatch)
    fs.check_optional_hand_half(bench_claims, monkeypatch, tmp_path, "fresh12", out,
                             ["factver/cliff"] * 3 + ["factver/dialfact"] * 3)


@pytest.mark.parametrize("only", ["", "hand"])
def test_fresh12_stops_when_nothing_is_there_to_measure(only, tmp_path, monkeypatch, capsys):
    fs.check_stops_without_data(bench_claims, monkeypatch, capsys, tmp_path, "fresh12", only)


def test_hand_half_stays_required_for_the_other_groups(tmp_path):
    with pytest.raises(bench_claims.FreshMissing):
        bench_claims.load_fresh(tmp_path / "no-hand", tmp_path, "--fresh11")


def test_fresh12_defaults_and_verdict_group():
    g = fs.check_defaults_and_verdict_group(bench_claims, "fresh12")
    assert g.hand_optional and not bench_claims.FRESH_GROUPS["fresh11"].hand_optional

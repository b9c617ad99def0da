"""The public half of the fourteenth fresh group: the converters behind ``fetch_factver.py --fresh14``
(FABLES' annotated claims about novels with the passages quoted for them, Falke et al.'s summary-sentence
triples from an older commit of the QAGS repository), on small synthetic files in throwaway git
repositories, not the real data, and the wiring of ``bench_claims.py --fresh14`` (a group whose
hand-written half is optional). Nothing here runs the claim check."""

from __future__ import annotations

import io
import json
import sys
import zipfile
from functools import partial
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import _factver  # noqa: E402
import bench_claims  # noqa: E402
import tests.benchmarks._fresh_support as fs  # noqa: E402

fv = fs.load_module(BENCH / "data" / "factver" / "fetch_factver.py", "fetch_factver_fresh14")
_snapshot = partial(fs.snapshot, fv)  # a synthetic snapshot of fv.<attr>, pinned commit pointed at it


def _claim(claim: str, label: str, evidence: list[str], reason: str = "") -> dict:
    return {"claim": claim, "label": label, "evidence": evidence, "reason": [reason]}


def _fables_zip(books: dict) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(fv._FABLES_MEMBER, json.dumps({"canary": "not data", "FABLES": books}))
        zf.writestr("__MACOSX/._FABLES.json", "resource fork, not read")
    return buf.getvalue()


def _triple(article_id: str, article: str, correct: str, incorrect: str) -> dict:
    return {"article_id": article_id, "article_sent": article, "correct_sent": correct, "correct_sent_id": "1-0",
            "incorrect_sent": incorrect, "incorrect_sent_id": "2-0"}


def fresh14_mirrors(root: Path, monkeypatch) -> None:
    books = {
        "Night Train": {
            "GPT-4": {"summary": "A summary.", "general_comment": "Fine.", "claims": {
                "0": _claim("Ana boards the night train.", "Yes", ["Ana stepped onto the night train.", "N/A"]),
                "1": _claim("Ana travels with her brother.", "No", ["She travelled alone, as always."], "alone"),
                "2": _claim("Ana meets a spy and a doctor.", "PartialSupport", ["The doctor sat &amp; smiled."]),
                "3": _claim("The mood is tense.", "Inapplicable", ["Some passage."]),  # dropped
                "4": _claim("Ana has a cat.", "No", ["N/A"], "no cat in the book"),  # no quote: dropped
                "5": _claim("Ana boards the night train.", "Yes", ["Again."]),  # repeated claim: dropped
            }},
            "MIXTRAL": {"summary": "S.", "general_comment": "C.", "claims": {
                "0": _claim("Ana boards the night train.", "Yes", ["Ana stepped onto the night train."]),
                "1": _claim("  ", "Yes", ["A passage."]),  # no claim: dropped
                "2": _claim("The train is late.", "No", ["None.", ""]),  # only placeholders: dropped
            }},
        },
    }
    _snapshot(root, monkeypatch, "FABLES", {fv._FABLES_PATH: _fables_zip(books), "booklist.md": "not read\n"})
    triples = [
        _triple("a1", "the mayor opened the new bridge on monday.", "the mayor opened the bridge.",
                "the mayor closed the bridge."),
        _triple("a1", "the mayor opened the new bridge on monday.", "the mayor opened the bridge.",
                "the bridge opened on friday."),  # the correct sentence again: kept once
        _triple("a2", "rain fell all week.", "rain fell.", "it was a sunny week."),
        _triple("a3", "the team lost the final.", "the team lost.", "the team lost."),  # labelled both ways
    ]
    _snapshot(root, monkeypatch, "FALKE", {
        fv._FALKE_PATH: json.dumps(triples),
        "data/falke-correctness/test_see17_org.json": json.dumps({"x": {"label": "Correct", "sents": {}}}),
    })


def test_fables_quotes_the_annotators_passages_for_each_claim(tmp_path, monkeypatch):
    fresh14_mirrors(tmp_path, monkeypatch)
    tally = fv.Tally()
    got = list(fv.fables(fv.Reader(tmp_path), tally))
    assert [(e.id, e.label, e.cls, e.quotes, e.claim, e.group) for e in got] == [
        ("fables-night-train-gpt-4-0", "supported", "Yes", ["Ana stepped onto the night train."],
         "Ana boards the night train.", "Night Train"),
        ("fables-night-train-gpt-4-1", "unsupported", "No", ["She travelled alone, as always."],
         "Ana travels with her brother.", "Night Train"),
        ("fables-night-train-gpt-4-2", "unsupported", "PartialSupport", ["The doctor sat & smiled."],
         "Ana meets a spy and a doctor.", "Night Train"),
        ("fables-night-train-mixtral-0", "supported", "Yes", ["Ana stepped onto the night train."],
         "Ana boards the night train.", "Night Train"),  # another model's summary: kept
    ]
    assert tally.dropped == {"label 'Inapplicable'": 1, "no claim or no quoted passage": 3,
                             "claim repeated in the same summary": 1}
    assert tally.fixed["HTML character reference decoded"] == 1
    assert got[0].source == f"mungg/FABLES/data/FABLES.json.zip@{fv.FABLES.commit}"


def test_cogensumm_pairs_each_summary_sentence_with_its_article_sentence(tmp_path, monkeypatch):
    fresh14_mirrors(tmp_path, monkeypatch)
    tally = fv.Tally()
    got = list(fv.cogensumm(fv.Reader(tmp_path), tally))
    bridge = ["the mayor opened the new bridge on monday."]
    assert [(e.id, e.label, e.cls, e.quotes, e.claim, e.group) for e in got] == [
        ("cogensumm-0-correct", "supported", "correct", bridge, "the mayor opened the bridge.", "a1"),
        ("cogensumm-0-incorrect", "unsupported", "incorrect", bridge, "the mayor closed the bridge.", "a1"),
        ("cogensumm-1-incorrect", "unsupported", "incorrect", bridge, "the bridge opened on friday.", "a1"),
        ("cogensumm-2-correct", "supported", "correct", ["rain fell all week."], "rain fell.", "a2"),
        ("cogensumm-2-incorrect", "unsupported", "incorrect", ["rain fell all week."], "it was a sunny week.", "a2"),
    ]
    assert tally.dropped == {"repeated sentence and article sentence": 2,
                             "sentence labelled both correct and incorrect": 1}
    assert got[0].source == f"W4ngatang/qags/{fv._FALKE_PATH}@{fv.FALKE.commit}"


def test_fresh14_writes_holdout_only_sets_byte_for_byte_that_the_loader_reads(tmp_path, monkeypatch):
    out, readme = fs.check_builds_byte_for_byte(fv, "fresh14", fresh14_mirrors, tmp_path, monkeypatch,
                                             ["fables", "cogensumm"])
    assert "benchmarks/data/claims-fresh14" in readme
    assert "| 4 | 2 | 2 | No 1, PartialSupport 1, Yes 2 |" in readme
    pairs = _factver.load("holdout", root=out)
    assert sorted((r["dataset"], r["label"]) for r in pairs) == [
        ("cogensumm", "supported"), ("cogensumm", "supported"), *[("cogensumm", "unsupported")] * 3,
        ("fables", "supported"), ("fables", "supported"), ("fables", "unsupported"), ("fables", "unsupported"),
    ]


def test_fresh14_samples_a_big_set_per_class(tmp_path, monkeypatch):
    # more claims than the cap: a seeded per-class sample in the source's proportions
    labels = ("Yes", "Yes", "No", "PartialSupport")
    claims = {str(i): _claim(f"Claim {i}.", labels[i % 4], [f"Passage {i}."]) for i in range(40)}
    mirrors = tmp_path / "mirrors"
    fresh14_mirrors(mirrors, monkeypatch)
    _snapshot(mirrors / "big", monkeypatch, "FABLES",
              {fv._FABLES_PATH: _fables_zip({"Book": {"GPT-4": {"summary": "S.", "claims": claims}}})})
    fs.check_samples_per_class(fv, mirrors / "big", tmp_path, fv.FRESH14[0], fv.FRESH14_README_HEAD,
                            ["No"] * 3 + ["PartialSupport"] * 3 + ["Yes"] * 6)


def test_fresh14_default_output_and_sets():
    assert fv.FRESH_GROUPS["--fresh14"].out == Path("/tmp/factver-fresh14")
    assert [d.name for d in fv.FRESH_GROUPS["--fresh14"].sets] == ["fables", "cogensumm"]
    pinned = {(r.name, r.commit) for n in dir(fv) if isinstance(r := getattr(fv, n), fv.Repo)}
    assert ("mungg/FABLES", fv.FABLES.commit) in pinned
    # Falke et al.'s files come from an older commit of the repository QAGS is read from
    assert fv.FALKE.name == fv.QAGS.name and fv.FALKE.commit != fv.QAGS.commit


# --- bench_claims.py --fresh14: the public half alone, or with a hand-written half -------------


def test_fresh14_hand_half_is_optional(tmp_path, monkeypatch):
    out = fs.build_group(fv, "fresh14", fresh14_mirrors, tmp_path, monkeypatch)
    fs.check_optional_hand_half(bench_claims, monkeypatch, tmp_path, "fresh14", out,
                             ["factver/cogensumm"] * 5 + ["factver/fables"] * 4)


@pytest.mark.parametrize("only", ["", "hand"])
def test_fresh14_stops_when_nothing_is_there_to_measure(only, tmp_path, monkeypatch, capsys):
    fs.check_stops_without_data(bench_claims, monkeypatch, capsys, tmp_path, "fresh14", only)


def test_fresh14_defaults_and_verdict_group():
    g = fs.check_defaults_and_verdict_group(bench_claims, "fresh14")
    assert g.hand_optional

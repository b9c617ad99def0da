"""The public half of the eleventh fresh group: the converters behind ``fetch_factver.py --fresh11``
(NLI4CT, RTE, LFQA), on small synthetic files in throwaway git repositories, not the real data.
Nothing here runs the claim check.

``fresh11_mirrors`` builds the synthetic snapshots; the group table of
``test_bench_claims_fresh_groups.py`` can use it once ``bench_claims.py --fresh11`` exists."""

from __future__ import annotations

import csv
import io
import json
import sys
from functools import partial
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import _factver  # noqa: E402
import tests.benchmarks._fresh_support as fs  # noqa: E402

fv = fs.load_module(BENCH / "data" / "factver" / "fetch_factver.py", "fetch_factver_fresh11")
_snapshot = partial(fs.snapshot, fv)  # a synthetic snapshot of fv.<attr>, pinned commit pointed at it


def _trial(nct: str, results: list[str], adverse: list[str]) -> str:
    return json.dumps({"Clinical Trial ID": nct, "Intervention": ["INTERVENTION 1: ", "  Drug A"],
                       "Eligibility": ["Inclusion Criteria:", "   ", "  Adults"], "Results": results,
                       "Adverse Events": adverse})


def _statement(label: str, section: str, primary: tuple[str, list[int]],
               secondary: tuple[str, list[int]] | None = None) -> dict:
    row = {"Type": "Comparison" if secondary else "Single", "Section_id": section,
           "Primary_id": primary[0], "Statement": f" A statement about {section}. ", "Label": label,
           "Primary_evidence_index": primary[1]}
    if secondary:
        row |= {"Secondary_id": secondary[0], "Secondary_evidence_index": secondary[1]}
    return row


def _rte_tsv(rows: list[tuple[str, str, str, int]]) -> str:
    # written as the Hugging Face export writes it: a field holding a quotation mark is CSV-quoted
    out = io.StringIO()
    w = csv.writer(out, delimiter="\t", lineterminator="\n")
    w.writerow(["sentence1", "sentence2", "label", "idx"])
    for s1, s2, label, idx in rows:
        w.writerow([s1, s2, label, idx])
    return out.getvalue()


def _lfqa_question(qid: int, annotations: list[tuple[list[str], str]]) -> dict:
    return {"question_id": qid, "question": "Why?", "answers": [a for _, a in annotations],
            "annotations": [{"labels": labels, "answer": answer} for labels, answer in annotations]}


def _lfqa_docs(qid: int, texts: list[str]) -> dict:
    return {"question_id": qid, "question": "Why?",
            "docs": [{"doc_id": f"d{k}", "title": "A title", "text": t} for k, t in enumerate(texts)]}


def fresh11_mirrors(root: Path, monkeypatch) -> None:
    _snapshot(root, monkeypatch, "NLI4CT", {
        "training_data/CT_json/NCT1.json": _trial(
            "NCT1", ["Outcome Measurement: ", "  Overall Survival", "  Time frame: 5 years"],
            ["Adverse Events 1:", "  Total: 3/40 (7.50%)"]),
        "training_data/CT_json/NCT2.json": _trial("NCT2", ["Results 1: "], ["Adverse Events 1:", "  Nausea 2/10"]),
        "training_data/train.json": json.dumps({
            "u1": _statement("Entailment", "Results", ("NCT1", [1, 2])),
            "u2": _statement("Contradiction", "Adverse Events", ("NCT1", [1]), ("NCT2", [0, 1])),
            "u3": _statement("Entailment", "Results", ("NCT2", [7])),  # line 7 does not exist: dropped
            "u4": _statement("Neutral", "Results", ("NCT1", [1])),  # not a label of the set: dropped
        }),
        "training_data/dev.json": json.dumps({
            "u5": _statement("Contradiction", "Eligibility", ("NCT2", [1])),  # a blank line only: dropped
            "u6": _statement("Contradiction", "Eligibility", ("NCT2", [0, 1, 2])),
        }),
        # the unlabelled practice test is not read
        "training_data/practice_test.json": json.dumps({"u9": _statement("Entailment", "Results", ("NCT9", [0]))}),
    })
    _snapshot(root, monkeypatch, "RTE", {
        "RTE/train.tsv": _rte_tsv([
            ('He said "yes" to the plan, in Paris.', "He agreed.", "0", 0),
            (" The dam was built in 1936. ", "The dam is new.", "1", 1),
            ("Some text.", "", "0", 2),  # empty hypothesis: dropped
        ]),
        "RTE/dev.tsv": _rte_tsv([("A text.", "A hypothesis.", "1", 0)]),
        "RTE/test.tsv": _rte_tsv([("Unlabelled.", "Unlabelled.", "-1", 0)]),  # not read
    })
    empty = json.dumps([])
    _snapshot(root, monkeypatch, "LFQA", {
        "data/docs/docs-webgpt.json": json.dumps([_lfqa_docs(0, [" Doc A. ", "Doc B."]), _lfqa_docs(1, ["Doc C."])]),
        "data/docs/docs-human.json": json.dumps([_lfqa_docs(0, ["Human doc.", "  "])]),
        "data/annotations/annotations-webgpt.json": json.dumps([_lfqa_question(0, [
            (["supported", "supported", "partially"], "First sentence."),
            (["supported", "not_supported", "partially"], "Second sentence."),
        ])]),
        "data/annotations/annotations-gpt3_wdoc.json": json.dumps([_lfqa_question(1, [
            (["not_supported"] * 3, "Made up."),
        ])]),
        "data/annotations/annotations-alpaca_wdoc.json": empty,
        "data/annotations/annotations-gpt3_whudoc.json": json.dumps([_lfqa_question(0, [
            (["supported"] * 3, "From the human documents."),
        ])]),
        "data/annotations/annotations-gpt3.json": json.dumps([_lfqa_question(5, [  # no documents: dropped
            (["supported"] * 3, "No documents for this question."),
        ])]),
        "data/annotations/annotations-alpaca.json": json.dumps([_lfqa_question(1, [
            (["supported", "supported"], "Two annotations only."),  # dropped
        ])]),
    })


def test_nli4ct_quotes_the_marked_lines_of_one_or_both_trials(tmp_path, monkeypatch):
    fresh11_mirrors(tmp_path, monkeypatch)
    tally = fv.Tally()
    got = list(fv.nli4ct(fv.Reader(tmp_path), tally))
    assert [(e.id, e.label, e.cls, e.quotes, e.group) for e in got] == [
        ("nli4ct-u1", "supported", "entailment (single, results)",
         ["Overall Survival", "Time frame: 5 years"], "NCT1"),
        ("nli4ct-u2", "unsupported", "contradiction (comparison, adverse events)",
         ["Total: 3/40 (7.50%)", "Adverse Events 1:", "Nausea 2/10"], "NCT1"),
        ("nli4ct-u6", "unsupported", "contradiction (single, eligibility)", ["Inclusion Criteria:", "Adults"],
         "NCT2"),
    ]
    assert got[0].claim == "A statement about Results."
    assert tally.dropped == {"evidence line number outside the section": 1, "label 'Neutral'": 1,
                             "empty statement or evidence": 1}
    assert got[0].source == f"MathildeAguiar/SemEval-2024-Task-2/training_data/train.json@{fv.NLI4CT.commit}"
    assert got[-1].source.endswith(f"training_data/dev.json@{fv.NLI4CT.commit}")


def test_rte_quotes_the_text_for_the_hypothesis_and_reads_csv_quoting(tmp_path, monkeypatch):
    fresh11_mirrors(tmp_path, monkeypatch)
    tally = fv.Tally()
    got = list(fv.rte(fv.Reader(tmp_path), tally))
    assert [(e.id, e.label, e.cls, e.quotes, e.claim) for e in got] == [
        ("rte-train-0", "supported", "entailment", ['He said "yes" to the plan, in Paris.'], "He agreed."),
        ("rte-train-1", "unsupported", "not_entailment", ["The dam was built in 1936."], "The dam is new."),
        ("rte-dev-0", "unsupported", "not_entailment", ["A text."], "A hypothesis."),
    ]
    assert tally.dropped == {"empty text or hypothesis": 1}
    assert got[0].source == f"Ji-Yishan/MIEC-FYP/RTE/train.tsv@{fv.RTE.commit}"


def test_lfqa_judges_a_sentence_by_two_of_three_against_its_settings_documents(tmp_path, monkeypatch):
    fresh11_mirrors(tmp_path, monkeypatch)
    tally = fv.Tally()
    got = list(fv.lfqa(fv.Reader(tmp_path), tally))
    assert [(e.id, e.label, e.cls, e.quotes, e.claim) for e in got] == [
        ("lfqa-webgpt-0-0", "supported", "webgpt supported 2/3", ["Doc A.", "Doc B."], "First sentence."),
        ("lfqa-webgpt-0-1", "unsupported", "webgpt supported 1/3", ["Doc A.", "Doc B."], "Second sentence."),
        ("lfqa-gpt3_wdoc-1-0", "unsupported", "gpt3_wdoc supported 0/3", ["Doc C."], "Made up."),
        # the answers written from the human demonstrators' documents are judged against those
        ("lfqa-gpt3_whudoc-0-0", "supported", "gpt3_whudoc supported 3/3", ["Human doc."],
         "From the human documents."),
    ]
    assert tally.dropped == {"empty sentence or no documents": 1, "not three annotations": 1}
    assert got[-1].source == (
        f"timchen0618/LFQA-Verification/data/annotations/annotations-gpt3_whudoc.json@{fv.LFQA.commit}"
    )


def test_fresh11_writes_holdout_only_sets_byte_for_byte_that_the_loader_reads(tmp_path, monkeypatch):
    out, readme = fs.check_builds_byte_for_byte(fv, "fresh11", fresh11_mirrors, tmp_path, monkeypatch,
                                             ["nli4ct", "rte", "lfqa"])
    pairs = _factver.load("holdout", root=out)
    assert {r["split"] for r in pairs} == {"holdout"}
    assert sorted((r["dataset"], r["label"]) for r in pairs) == [
        ("lfqa", "supported"), ("lfqa", "supported"), ("lfqa", "unsupported"), ("lfqa", "unsupported"),
        ("nli4ct", "supported"), ("nli4ct", "unsupported"), ("nli4ct", "unsupported"),
        ("rte", "supported"), ("rte", "unsupported"), ("rte", "unsupported"),
    ]


def test_fresh11_a_missing_snapshot_is_named_and_the_rest_still_built(tmp_path, monkeypatch, capsys):
    mirrors = tmp_path / "mirrors"
    fresh11_mirrors(mirrors, monkeypatch)
    monkeypatch.setattr(fv, "LFQA", fv.Repo("someone/absent", fv.LFQA.commit))
    out = tmp_path / "out"
    assert fv.main(["--fresh11", "--mirrors", str(mirrors), "--out", str(out)]) == 0
    assert "fetch github:someone/absent" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "nli4ct", "rte"]
    assert "## lfqa\n\nNot built: " in (out / "README.md").read_text()


def test_fresh11_default_output_and_the_other_groups_flags_are_exclusive(tmp_path, capsys):
    assert fv.FRESH_GROUPS["--fresh11"].out == Path("/tmp/factver-fresh11")
    assert [d.name for d in fv.FRESH_GROUPS["--fresh11"].sets] == ["nli4ct", "rte", "lfqa"]
    assert fv.main(["--fresh9", "--fresh11", "--mirrors", str(tmp_path)]) == 2
    assert "--fresh9 and --fresh11" in capsys.readouterr().err

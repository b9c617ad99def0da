"""The public half of the fifteenth fresh group: the converters behind ``fetch_factver.py --fresh15``
(ExpertQA's expert-judged answer claims with the passages cited for them, PolyTope's annotated
abstractive news summaries, read from its Excel workbooks, MuFaME's crowd-judged one-line WikiHow
summaries), on small synthetic files in throwaway git
repositories, not the real data, and the wiring of ``bench_claims.py --fresh15`` (a group whose
hand-written half is optional). Nothing here runs the claim check."""

from __future__ import annotations

import csv
import io
import json
import sys
import zipfile
from functools import partial
from pathlib import Path
from xml.sax.saxutils import escape

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import _factver  # noqa: E402
import bench_claims  # noqa: E402
import tests.benchmarks._fresh_support as fs  # noqa: E402

fv = fs.load_module(BENCH / "data" / "factver" / "fetch_factver.py", "fetch_factver_fresh15")
_snapshot = partial(fs.snapshot, fv)  # a synthetic snapshot of fv.<attr>, pinned commit pointed at it


# --- ExpertQA --------------------------------------------------------------------------------------


def _claim(text: str, support: str | None, evidence: list[str]) -> dict:
    return {"claim_string": text, "evidence": evidence, "support": support, "reason_missing_support": "",
            "correctness": "Definitely correct", "revised_claim": text + " (revised)", "revised_evidence": ""}


def _question(q: str, answers: dict[str, list[dict]]) -> str:
    return json.dumps({"question": q, "annotator_id": "7", "metadata": {"field": "Biology"},
                       "answers": {s: {"answer_string": "An answer.", "attribution": [], "claims": cs}
                                   for s, cs in answers.items()}})


_BEE = "[1] https://example.org/bees\n\nBees | Example Bees dance to show where flowers are."
_HIVE = "[2] https://example.org/hive\n\nA hive holds one queen &amp; many workers."


def _expertqa_files() -> dict[str, str | bytes]:
    q1 = _question("How do bees find flowers?", {
        "rr_gs_gpt4": [
            _claim("Bees dance to show where flowers are [1].", "Complete", [_BEE]),
            _claim("A hive holds two queens [1][2].", "Partial", [_BEE, _HIVE, _BEE]),  # a repeated passage: once
            _claim("Bees see ultraviolet light.", "Missing", []),  # nothing cited: dropped
            _claim("Bees hum.", "N/A", [_BEE]),  # not judged: dropped
        ],
        "bing_chat": [
            _claim("Bees like blue flowers [1].", "Complete", ["[1] https://example.org/blue"]),  # URL only
            _claim("Bees dance to show where flowers are [1].", "Incomplete", [_BEE]),  # another system: kept
        ],
    })
    q2 = _question("What do ants eat?", {"gpt4": [
        _claim("Ants eat seeds [3] [4].", "Complete", ["[3] https://example.org/ants\n\nMany ants eat seeds."]),
        _claim("Ants eat metal.", None, ["[3] https://example.org/ants\n\nNo."]),  # no judgement: dropped
    ]})
    q3 = _question("Why is the sky blue?", {"gpt4": [
        _claim("Light scatters [1].", "Complete", ["[1] https://example.org/sky\n\nBlue light scatters most."]),
    ]})
    q3_other = _question("Why is the sky blue?", {"gpt4": [
        _claim("Light scatters [1].", "Partial", ["[1] https://example.org/sky\n\nBlue light scatters most."]),
    ]})
    return {
        "data/lfqa/domain_test.jsonl": q1 + "\n" + q3 + "\n",
        "data/lfqa/domain_val.jsonl": q2 + "\n",
        "data/lfqa/rand_test.jsonl": q1 + "\n",  # the same answers cut the other way: each kept once
        "data/lfqa/rand_val.jsonl": q2 + "\n" + q3_other + "\n",  # judged differently: dropped
        "data/r1_data_anon.jsonl": "not read\n",
    }


# --- PolyTope --------------------------------------------------------------------------------------


def _col(i: int) -> str:
    return "ABCDEFGHIJKL"[i]


def _workbook(sheets: dict[str, list[list[str | int | None]]]) -> bytes:
    """A minimal .xlsm: shared strings for text (one inline string, to read that form too), numbers
    as values, empty cells left out; sheets listed in the workbook in another order than their parts."""
    strings: list[str] = []
    parts = {}
    for n, (name, rows) in enumerate(sheets.items(), start=1):
        xml_rows = []
        for r, row in enumerate(rows, start=1):
            cells = []
            for c, v in enumerate(row):
                ref = f"{_col(c)}{r}"
                if v is None:
                    continue
                if isinstance(v, int):
                    cells.append(f'<c r="{ref}"><v>{v}</v></c>')
                elif v.startswith("inline:"):
                    cells.append(f'<c r="{ref}" t="inlineStr"><is><t>{escape(v[7:])}</t></is></c>')
                else:
                    strings.append(v)
                    cells.append(f'<c r="{ref}" t="s"><v>{len(strings) - 1}</v></c>')
            xml_rows.append(f'<row r="{r}">{"".join(cells)}</row>')
        parts[name] = (f"rId{n}", f"worksheets/sheet{n}.xml",
                       '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                       f'<sheetData>{"".join(xml_rows)}</sheetData></worksheet>')
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        listed = "".join(f'<sheet name="{escape(name)}" sheetId="{9 - i}" r:id="{rid}"/>'
                         for i, (name, (rid, _, _)) in enumerate(reversed(list(parts.items()))))
        zf.writestr("xl/workbook.xml", f'<workbook xmlns="{main}" xmlns:r="{rel}"><sheets>{listed}</sheets></workbook>')
        zf.writestr("xl/_rels/workbook.xml.rels",
                    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                    + "".join(f'<Relationship Id="{rid}" Target="{target}" Type="x"/>'
                              for rid, target, _ in parts.values()) + "</Relationships>")
        for _, target, xml in parts.values():
            zf.writestr(f"xl/{target}", xml)
        zf.writestr("xl/sharedStrings.xml", f'<sst xmlns="{main}">'
                    + "".join(f"<si><t>{escape(s)}</t></si>" for s in strings) + "</sst>")
        zf.writestr("xl/vbaProject.bin", b"\x00macros, not read")
    return buf.getvalue()


_HEAD_LOG = ["ID", "#error", "Source", "Target", "Issue Types", "Subtypes", "Labels", "Issue Words", "Reason",
             "Severity"]
_HEAD_SCORES = ["ID", "Source", "Target", "wordcount", "Critical", "Major", "Minor", "Invalid Source",
                "Invalid Target", "Score"]
_ART1 = "the mayor opened the new bridge on monday .\nhundreds came to watch ."
_ART2 = "rain fell all week in the city .\nthe river rose by two metres ."


def _err(sid: str, subtype: str | None) -> list[str | int | None]:
    kind = None if subtype is None else ("Fluency" if subtype == "Duplication" else "Accuracy")
    return [sid, 1, "(the source)", "(the target)", kind, subtype, "Whole Sentence", "words", None,
            "No errors" if subtype is None else "Major"]


def _polytope_files() -> dict[str, str | bytes]:
    pg = _workbook({
        "ScoreCard": [["not read"]],
        "Error Log": [
            _HEAD_LOG,
            _err("1-2", "Omission"), _err("1-2", "Addition"),  # faithful errors only: supported
            _err("2-2", "Inaccuracy_internal"), _err("2-2", "Omission"),
            _err("3-2", "Positive_Negative_Aspect"), _err("3-2", "Inaccuracy_external"),
            _err("4-2", "Inaccuracy_external"),  # its summary has UNK: dropped
            [None, None, None, None, None, None, None, None, None, "No errors"],  # a row without an id
            _err("6-2", None),  # no error at all: supported
        ],
        "Scores per segment": [
            _HEAD_SCORES,
            ["1-2", _ART1, "the mayor opened the bridge .\nhundreds watched .", 6, 1, 0, 0],
            ["2-2", _ART1, "the mayor closed the bridge .", 5, 1, 0, 0],
            ["3-2", _ART2, "inline:rain did not fall in paris .", 6, 1, 1, 0],
            ["4-2", _ART2, "rain fell in UNK .", 4, 1, 0, 0],
            ["5-2", _ART2, "the river rose .", 3, 1, 0, 0],  # no error-log rows: dropped
            ["6-2", _ART2, "the river rose by two metres .", 6, 0, 0, 0],
            [None, None, None],
        ],
    })
    files: dict[str, str | bytes] = {f"{fv._POLYTOPE_DIR}/Human_Annotation_Summarization_PG.xlsm": pg}
    empty = _workbook({"Error Log": [_HEAD_LOG], "Scores per segment": [_HEAD_SCORES]})
    for system in fv._POLYTOPE_SYSTEMS:
        files.setdefault(f"{fv._POLYTOPE_DIR}/Human_Annotation_Summarization_{system}.xlsm", empty)
    files[f"{fv._POLYTOPE_DIR}/Human_Annotation_Summarization_TextRank.xlsm"] = b"extractive: not read"
    return files


# --- MuFaME ----------------------------------------------------------------------------------------

_STEP = "Lay the doors face up on the cloth. Remove every screw first."
_EARS = "Wrap each ear around the headband &amp; tape it."


def _mufame_csv(rows: list[tuple[str, str, str, str, list[int]]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["doc_id", "model", "document", "summary", "image", "doc_factuality", "img_factuality",
                "comb_factuality", "wid"])
    for doc_id, model, doc, summ, votes in rows:
        for wid, v in enumerate(votes):
            w.writerow([doc_id, model, doc, summ, "https://example.org/i.jpg", v, 1 - v, 0.5, wid])
    return buf.getvalue()


def _mufame_files() -> dict[str, str | bytes]:
    test = _mufame_csv([
        ("11_1_0", "reference", _STEP, "Place the doors on the cloth.", [1, 1, 0]),
        ("11_1_0", "pegasus", _STEP, "Paint the doors red.", [0, 1, 0]),
        ("11_1_0", "t5", _STEP, "Place the doors on the cloth.", [1, 1, 1]),  # same line again: once
        ("11_1_0", "vlbart", _STEP, "Remove the screws.", [1, 0]),  # even number of votes: dropped
        ("12_2_3", "mof", _EARS, "Attach the ears.", [0, 0, 0]),
        ("12_2_3", "t5", _EARS, "Cut the ears.", [1, 1, 0]),
        ("12_2_3", "pegasus", _EARS, "Cut the ears.", [0, 0, 1]),  # majorities differ: both dropped
    ])
    val = _mufame_csv([("13_0_1", "reference", "Mix the flour and the water.", "Mix the dough.", [1, 1, 1])])
    return {fv._MUFAME_PATHS[0]: test, fv._MUFAME_PATHS[1]: val, "data/MuFaME/README.md": "not read\n"}


def fresh15_mirrors(root: Path, monkeypatch) -> None:
    _snapshot(root, monkeypatch, "EXPERTQA", _expertqa_files())
    _snapshot(root, monkeypatch, "POLYTOPE", _polytope_files())
    _snapshot(root, monkeypatch, "MUFAME", _mufame_files())


def test_expertqa_pairs_each_judged_claim_with_its_cited_passages(tmp_path, monkeypatch):
    fresh15_mirrors(tmp_path, monkeypatch)
    tally = fv.Tally()
    got = list(fv.expertqa(fv.Reader(tmp_path), tally))
    bee, hive = "Bees | Example Bees dance to show where flowers are.", "A hive holds one queen & many workers."
    assert [(e.id.rsplit("-", 1)[-1], e.label, e.cls, e.quotes, e.claim) for e in got] == [
        ("1", "unsupported", "Incomplete", [bee], "Bees dance to show where flowers are."),  # systems sorted
        ("0", "supported", "Complete", [bee], "Bees dance to show where flowers are."),
        ("1", "unsupported", "Partial", [bee, hive], "A hive holds two queens."),
        ("0", "supported", "Complete", ["Many ants eat seeds."], "Ants eat seeds."),
    ]
    assert [e.id.split("-")[2:-1] for e in got] == [["bing", "chat"]] + [["rr", "gs", "gpt4"]] * 2 + [["gpt4"]]
    assert got[0].group == got[2].group != got[3].group
    assert tally.dropped == {"support 'Missing'": 2, "support 'N/A'": 2, "support 'empty'": 2,
                             "no claim or only URLs as evidence": 1,
                             "claim met again in the other split's files": 5,
                             "claim judged differently in two files": 1}
    assert tally.fixed["citation marker [n] removed from the claim"] == 6
    assert got[3].source == f"chaitanyamalaviya/ExpertQA/data/lfqa/domain_val.jsonl@{fv.EXPERTQA.commit}"


def test_polytope_labels_each_summary_by_its_logged_inaccuracies(tmp_path, monkeypatch):
    fresh15_mirrors(tmp_path, monkeypatch)
    tally = fv.Tally()
    got = list(fv.polytope(fv.Reader(tmp_path), tally))
    assert [(e.id, e.label, e.cls, e.quotes, e.claim, e.group) for e in got] == [
        ("polytope-pg-1-2", "supported", "no inaccuracy", [_ART1], "the mayor opened the bridge .\nhundreds watched .",
         "1"),
        ("polytope-pg-2-2", "unsupported", "inaccuracy_internal", [_ART1], "the mayor closed the bridge .", "2"),
        ("polytope-pg-3-2", "unsupported", "inaccuracy_external", [_ART2], "rain did not fall in paris .", "3"),
        ("polytope-pg-6-2", "supported", "no inaccuracy", [_ART2], "the river rose by two metres .", "6"),
    ]
    assert tally.dropped == {"summary with the UNK token": 1, "summary without rows in the error log": 1}
    assert got[0].source == f"hddbang/PolyTope/{fv._POLYTOPE_DIR}/Human_Annotation_Summarization_PG.xlsm@{fv.POLYTOPE.commit}"


def test_mufame_labels_each_line_by_the_majority_of_its_paragraph_votes(tmp_path, monkeypatch):
    fresh15_mirrors(tmp_path, monkeypatch)
    tally = fv.Tally()
    got = list(fv.mufame(fv.Reader(tmp_path), tally))
    assert [(e.id, e.label, e.cls, e.quotes, e.claim, e.group) for e in got] == [
        ("mufame-11-1-0-reference", "supported", "2/3 factual", [_STEP], "Place the doors on the cloth.", "11"),
        ("mufame-11-1-0-pegasus", "unsupported", "1/3 factual", [_STEP], "Paint the doors red.", "11"),
        ("mufame-12-2-3-mof", "unsupported", "0/3 factual", ["Wrap each ear around the headband & tape it."],
         "Attach the ears.", "12"),
        ("mufame-13-0-1-reference", "supported", "3/3 factual", ["Mix the flour and the water."], "Mix the dough.",
         "13"),
    ]
    assert tally.dropped == {"even number of votes": 1, "summary repeated for the same paragraph": 2,
                             "repeated summary with another majority": 1}
    assert got[3].source == f"meetdavidwan/faithful-multimodal-summ/{fv._MUFAME_PATHS[1]}@{fv.MUFAME.commit}"


def test_xlsx_sheets_reads_shared_inline_and_number_cells():
    book = fv.xlsx_sheets(_workbook({"A": [["x", 3, None, "inline:y & z"]], "B": [[], ["w"]]}))
    assert book == {"B": [{}, {"A": "w"}], "A": [{"A": "x", "B": "3", "D": "y & z"}]}


def test_fresh15_writes_holdout_only_sets_byte_for_byte_that_the_loader_reads(tmp_path, monkeypatch):
    out, readme = fs.check_builds_byte_for_byte(fv, "fresh15", fresh15_mirrors, tmp_path, monkeypatch,
                                             ["expertqa", "polytope", "mufame"])
    assert "benchmarks/data/claims-fresh15" in readme
    assert "| 4 | 2 | 2 | Complete 2, Incomplete 1, Partial 1 |" in readme
    assert "| 4 | 2 | 2 | inaccuracy_external 1, inaccuracy_internal 1, no inaccuracy 2 |" in readme
    assert "| 4 | 2 | 2 | 0/3 factual 1, 1/3 factual 1, 2/3 factual 1, 3/3 factual 1 |" in readme
    pairs = _factver.load("holdout", root=out)
    assert sorted((r["dataset"], r["label"]) for r in pairs) == [
        *[("expertqa", "supported")] * 2, *[("expertqa", "unsupported")] * 2,
        *[("mufame", "supported")] * 2, *[("mufame", "unsupported")] * 2,
        *[("polytope", "supported")] * 2, *[("polytope", "unsupported")] * 2,
    ]


def test_fresh15_samples_a_big_set_per_class(tmp_path, monkeypatch):
    # more claims than the cap: a seeded per-class sample in the source's proportions
    grades = ("Complete", "Complete", "Partial", "Incomplete")
    claims = [_claim(f"Claim {i} [1].", grades[i % 4], [f"[1] https://e.org/{i}\n\nPassage {i}."]) for i in range(40)]
    mirrors = tmp_path / "mirrors"
    fresh15_mirrors(mirrors, monkeypatch)
    files = {p: _question("Q?", {"gpt4": claims}) + "\n" if p.endswith("domain_test.jsonl") else ""
             for p in fv._EXPERTQA_PATHS}
    _snapshot(mirrors / "big", monkeypatch, "EXPERTQA", files)
    fs.check_samples_per_class(fv, mirrors / "big", tmp_path, fv.FRESH15[0], fv.FRESH15_README_HEAD,
                            ["Complete"] * 6 + ["Incomplete"] * 3 + ["Partial"] * 3)


def test_fresh15_default_output_and_sets():
    assert fv.FRESH_GROUPS["--fresh15"].out == Path("/tmp/factver-fresh15")
    assert [d.name for d in fv.FRESH_GROUPS["--fresh15"].sets] == ["expertqa", "polytope", "mufame"]
    pinned = {(r.name, r.commit) for n in dir(fv) if isinstance(r := getattr(fv, n), fv.Repo)}
    assert ("chaitanyamalaviya/ExpertQA", fv.EXPERTQA.commit) in pinned
    assert ("hddbang/PolyTope", fv.POLYTOPE.commit) in pinned
    assert ("meetdavidwan/faithful-multimodal-summ", fv.MUFAME.commit) in pinned
    # the extractive summarisers' workbooks are not read
    assert not {"TextRank", "Summa", "Bert_Ext"} & set(fv._POLYTOPE_SYSTEMS)


# --- bench_claims.py --fresh15: the public half alone, or with a hand-written half -------------


def test_fresh15_hand_half_is_optional(tmp_path, monkeypatch):
    out = fs.build_group(fv, "fresh15", fresh15_mirrors, tmp_path, monkeypatch)
    fs.check_optional_hand_half(bench_claims, monkeypatch, tmp_path, "fresh15", out,
                             ["factver/expertqa"] * 4 + ["factver/mufame"] * 4 + ["factver/polytope"] * 4)


@pytest.mark.parametrize("only", ["", "hand"])
def test_fresh15_stops_when_nothing_is_there_to_measure(only, tmp_path, monkeypatch, capsys):
    fs.check_stops_without_data(bench_claims, monkeypatch, capsys, tmp_path, "fresh15", only)


def test_fresh15_defaults_and_verdict_group():
    g = fs.check_defaults_and_verdict_group(bench_claims, "fresh15")
    assert g.hand_optional

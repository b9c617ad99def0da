"""The public half of the seventeenth fresh group: the converters behind ``fetch_factver.py --fresh17``
(SciTail's labelled dev and test pairs from AI2's leaderboard repository, ConTRoL's exam statements
about passages, Attributed QA's rated answers from AttributionBench's files), on small synthetic files in throwaway git repositories,
not the real data. Nothing here runs the claim check."""

from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import _factver  # noqa: E402
import tests.benchmarks._fresh_support as fs  # noqa: E402

fv = fs.load_module(BENCH / "data" / "factver" / "fetch_factver.py", "fetch_factver_fresh17")
_snapshot = partial(fs.snapshot, fv)  # a synthetic snapshot of fv.<attr>, pinned commit pointed at it


def _lines(rows: list[dict]) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def _st(rid: str, premise: str, hyp: str, label: str) -> dict:
    return {"id": rid, "sentence1": premise, "sentence2": hyp, "gold_label": label}


def _scitail_files() -> dict[str, str | bytes]:
    test = [
        _st("test_1", "Gases condense to liquids when cooled.", "Cooling a gas can turn it into a liquid.", "E"),
        _st("test_2", "Chapter 11 Gas and Kinetic Theory .", "Cooling a gas can turn it into a liquid.", "N"),
        _st("test_3", "  Salt &amp; water mix.  ", "Salt dissolves in water.", "E"),
        _st("test_4", "Rocks are hard.", "Basalt is an igneous rock.", "C"),  # no such SciTail label: dropped
        _st("test_5", "", "Basalt is an igneous rock.", "N"),  # empty premise: dropped
    ]
    dev = [
        _st("dev_1", "Salt & water mix.", "Salt dissolves in water.", "E"),  # the same pair again: kept once
        _st("dev_2", "The Moon orbits Earth.", "Earth has one natural satellite.", "N"),
    ]
    return {fv._SCITAIL_PATHS[0]: _lines(test), fv._SCITAIL_PATHS[1]: _lines(dev),
            "scitail/data/train/answers.jsonl": _lines([_st("train_1", "Not read.", "Not read.", "E")])}


def _ct(uid: str, passage: str, statement: str, label: str) -> dict:
    return {"uid": uid, "premise": passage, "hypothesis": statement, "label": label}


_LEAD = "Lead was used in pipes. Romans mined it.\n\nIt is soft."
_MOON = "The Moon orbits Earth every 27 days."


def _control_files() -> dict[str, str | bytes]:
    test = [
        _ct("id_0", _LEAD, "Lead is soft.", "e"),
        _ct("id_1", _LEAD, "Lead is hard.", "c"),
        _ct("id_2", _LEAD, "Lead is toxic.", "n"),
        _ct("id_3", _LEAD, "Romans made lead pipes.", "n"),  # met again with another label: dropped, both
        _ct("id_4", _LEAD, "Lead is a metal.", "x"),  # no such label: dropped
    ]
    dev = [
        _ct("id_0", _MOON, "The Moon orbits Earth.", "e"),  # the same uid in the other file: another pair
        _ct("id_1", _LEAD, "Romans made lead pipes.", "e"),
        _ct("id_2", f"  {_LEAD} ", "Lead is soft.", "e"),  # the same pair again: kept once
    ]
    return {fv._CONTROL_PATHS[0]: _lines(test), fv._CONTROL_PATHS[1]: _lines(dev),
            "data/train.jsonl": _lines([_ct("id_0", "Not read.", "Not read.", "e")])}


def _ab(src: str, rid: str, claim: str, refs: list[str], label: str, q: str) -> dict:
    return {"question": q, "claim": claim, "claim_raw_string": claim, "response": claim, "references": refs,
            "citation_links": [], "webpage_references": [], "attribution_label": label,
            "src_dataset": src, "id": f"{src}_{rid}"}


def _attrbench_files() -> dict[str, str | bytes]:
    song = "Title: Baby (song)\n\n\"Baby\" is a song by Justin Bieber with Ludacris."
    test = [
        _ab("AttributedQA", "q1", "Ludacris sings the rap in 'Baby'.", [song], "attributable", "who raps in baby"),
        _ab("HAGRID", "h1", "Used in the sixteenth group.", ["x"], "attributable", "h"),
    ]
    dev = [
        _ab("AttributedQA", "q2", "Drake sings the rap in 'Baby'.", [song], "not attributable", "who raps in baby 2"),
        _ab("AttributedQA", "q1", "Ludacris sings the rap in 'Baby'.", [song], "attributable", "who raps in baby"),
        _ab("AttributedQA", "q3", "Nobody knows.", [], "not attributable", "q3"),  # no passage: dropped
        _ab("Stanford-GenSearch", "s1", "Also used before.", ["y"], "not attributable", "s"),
    ]
    return {fv._ATTRBENCH_PATHS[0]: _lines([]), fv._ATTRBENCH_PATHS[1]: _lines(test),
            fv._ATTRBENCH_PATHS[2]: _lines(dev)}


def fresh17_mirrors(mirrors: Path, monkeypatch) -> None:
    _snapshot(mirrors, monkeypatch, "SCITAIL", _scitail_files())
    _snapshot(mirrors, monkeypatch, "CONTROL", _control_files())
    _snapshot(mirrors, monkeypatch, "ATTRIBUTIONBENCH", _attrbench_files())


def _convert(mirrors: Path, name: str) -> tuple[list, object]:
    ds = next(d for d in fv.FRESH17 if d.name == name)
    tally = fv.Tally()
    return list(ds.convert(fv.Reader(mirrors), tally)), tally


def test_scitail_pairs_hypothesis_with_premise_and_keeps_a_repeated_pair_once(tmp_path, monkeypatch):
    fresh17_mirrors(tmp_path, monkeypatch)
    exs, tally = _convert(tmp_path, "scitail")
    assert [(e.id, e.claim, e.quotes, e.label, e.cls) for e in exs] == [
        ("scitail-test-1", "Cooling a gas can turn it into a liquid.", ["Gases condense to liquids when cooled."],
         "supported", "E"),
        ("scitail-test-2", "Cooling a gas can turn it into a liquid.", ["Chapter 11 Gas and Kinetic Theory ."],
         "unsupported", "N"),
        ("scitail-test-3", "Salt dissolves in water.", ["Salt & water mix."], "supported", "E"),
        ("scitail-dev-2", "Earth has one natural satellite.", ["The Moon orbits Earth."], "unsupported", "N"),
    ]
    assert tally.dropped == {"label 'C'": 1, "empty premise or hypothesis": 1,
                             "premise/hypothesis pair met again": 1}
    assert exs[0].group == exs[1].group != exs[2].group  # grouped by hypothesis
    assert exs[3].source.endswith(f"{fv._SCITAIL_PATHS[1]}@{fv.SCITAIL.commit}")


def test_control_keeps_a_statement_once_per_passage_and_drops_one_with_two_labels(tmp_path, monkeypatch):
    fresh17_mirrors(tmp_path, monkeypatch)
    exs, tally = _convert(tmp_path, "control")
    assert [(e.id, e.claim, e.quotes, e.label, e.cls) for e in exs] == [
        ("control-test-id-0", "Lead is soft.", [_LEAD], "supported", "e"),
        ("control-test-id-1", "Lead is hard.", [_LEAD], "unsupported", "c"),
        ("control-test-id-2", "Lead is toxic.", [_LEAD], "unsupported", "n"),
        ("control-dev-id-0", "The Moon orbits Earth.", [_MOON], "supported", "e"),
    ]
    assert tally.dropped == {"label 'x'": 1, "statement met again for the passage with another label": 2,
                             "statement met again for the passage": 1}
    assert exs[0].group == exs[1].group != exs[3].group  # grouped by passage
    assert exs[3].source == f"csitfun/ConTRoL-dataset/{fv._CONTROL_PATHS[1]}@{fv.CONTROL.commit}"


def test_attributedqa_reads_only_its_own_rows_once_with_the_passage_as_given(tmp_path, monkeypatch):
    fresh17_mirrors(tmp_path, monkeypatch)
    exs, tally = _convert(tmp_path, "attributedqa")
    assert [(e.id, e.claim, e.label, e.cls) for e in exs] == [
        ("attributedqa-q1", "Ludacris sings the rap in 'Baby'.", "supported", "attributable"),
        ("attributedqa-q2", "Drake sings the rap in 'Baby'.", "unsupported", "not attributable"),
    ]
    assert exs[0].quotes == ["Title: Baby (song)\n\n\"Baby\" is a song by Justin Bieber with Ludacris."]
    assert tally.dropped == {"row met again in another file": 1, "no claim or no reference text": 1}


def test_fresh17_writes_holdout_only_sets_byte_for_byte_that_the_loader_reads(tmp_path, monkeypatch):
    out, readme = fs.check_builds_byte_for_byte(fv, "fresh17", fresh17_mirrors, tmp_path, monkeypatch,
                                                ["scitail", "control", "attributedqa"])
    assert "benchmarks/data/claims-fresh17" in readme
    assert "| 4 | 2 | 2 | E 2, N 2 |" in readme
    assert "| 2 | 1 | 1 | attributable 1, not attributable 1 |" in readme
    assert "| 4 | 2 | 2 | c 1, e 2, n 1 |" in readme
    pairs = _factver.load("holdout", root=out)
    assert sorted((r["dataset"], r["label"]) for r in pairs) == [
        ("attributedqa", "supported"), ("attributedqa", "unsupported"),
        ("control", "supported"), ("control", "supported"), ("control", "unsupported"), ("control", "unsupported"),
        ("scitail", "supported"), ("scitail", "supported"), ("scitail", "unsupported"), ("scitail", "unsupported"),
    ]


def test_fresh17_samples_scitail_per_class(tmp_path, monkeypatch):
    # more pairs than the cap: a seeded per-class sample in the source's proportions (2 N to 1 E)
    rows = [_st(f"test_{i}", f"Premise {i}.", f"Hypothesis {i // 3}.", "E" if i % 3 == 0 else "N") for i in range(36)]
    _snapshot(tmp_path / "big", monkeypatch, "SCITAIL", {fv._SCITAIL_PATHS[0]: _lines(rows),
                                                         fv._SCITAIL_PATHS[1]: ""})
    fs.check_samples_per_class(fv, tmp_path / "big", tmp_path, fv.FRESH17[0], fv.FRESH17_README_HEAD,
                               ["E"] * 4 + ["N"] * 8)


def test_fresh17_default_output_and_sets():
    g = fv.FRESH_GROUPS["--fresh17"]
    assert g.out == Path("/tmp/factver-fresh17") and g.cap == fv.FRESH3_CAP
    assert [d.name for d in g.sets] == ["scitail", "control", "attributedqa"]
    assert fv.SCITAIL == fv.Repo("allenai/aristo-leaderboard", "60d5be31b5a7d36f29d13223ece29a8d2bfa8b5f")
    assert fv.CONTROL == fv.Repo("csitfun/ConTRoL-dataset", "d7acc335bef6c716f2830e1413d0d90c133ad6e9")


def test_fresh17_stops_when_a_snapshot_is_missing(tmp_path, capsys):
    (tmp_path / "mirrors").mkdir()
    assert fv.main(["--fresh17", "--mirrors", str(tmp_path / "mirrors"), "--out", str(tmp_path / "o")]) == 1
    assert "SKIPPED" in capsys.readouterr().err
    assert "Not built: no git snapshot of allenai/aristo-leaderboard" in (tmp_path / "o" / "README.md").read_text()

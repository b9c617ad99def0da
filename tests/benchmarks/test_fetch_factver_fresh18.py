"""The public half of the eighteenth fresh group: the converters behind ``fetch_factver.py --fresh18``
(ANLI's test rounds from a copy of its release, the SNLI pairs people rewrote to flip a label in
counterfactually-augmented data, revised hypotheses and revised premises), on small synthetic files
in throwaway git repositories, not the real data. Nothing here runs the claim check."""

from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import _factver  # noqa: E402
import tests.benchmarks._fresh_support as fs  # noqa: E402

fv = fs.load_module(BENCH / "data" / "factver" / "fetch_factver.py", "fetch_factver_fresh18")
_snapshot = partial(fs.snapshot, fv)  # a synthetic snapshot of fv.<attr>, pinned commit pointed at it


def _lines(rows: list[dict]) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def _an(uid: str, context: str, hyp: str, label: str) -> dict:
    return {"uid": uid, "context": context, "hypothesis": hyp, "label": label, "model_label": "n",
            "emturk": False, "genre": "wikipedia", "reason": "Not read.", "tag": "r1_test"}


_PIER = "Brighton Palace Pier opened in 1899. It is 525 m long."
_OWL = "The barn owl hunts at night &amp; roosts by day."


def _anli_files() -> dict[str, str | bytes]:
    r1 = [
        _an("a-1", _PIER, "The pier opened in the 19th century.", "e"),
        _an("a-2", _PIER, "The pier is shorter than 500 m.", "c"),
        _an("a-3", f" {_PIER}\n", "The pier is painted white.", "n"),  # spaces around the context: stripped
    ]
    r2 = [
        _an("b-1", _PIER, "The pier opened in the 19th century.", "e"),  # the same pair again: kept once
        _an("b-2", _OWL, "The barn owl sleeps during the day.", "e"),
        _an("b-3", _OWL, "Barn owls live in barns.", "x"),  # no such label: dropped
    ]
    r3 = [
        _an("c-1", _OWL, "The barn owl is a fish.", "c"),
        _an("c-2", _OWL, "The barn owl is a fish.", "n"),  # the pair with another label: dropped, both
        _an("c-3", _OWL, "  ", "n"),  # empty hypothesis: dropped
    ]
    return {fv._ANLI_PATHS[0]: _lines(r1), fv._ANLI_PATHS[1]: _lines(r2), fv._ANLI_PATHS[2]: _lines(r3),
            "data/anli_v1.0/R1/dev.jsonl": _lines([_an("d-1", "Not read.", "Not read.", "e")])}


_HEAD = "sentence1\tsentence2\tgold_label\n"
_DOG = "A dog runs through the snow."


def _cad_files() -> dict[str, str | bytes]:
    hyp = _HEAD + "".join([
        f"{_DOG}\tA dog is outside.\tentailment\n",
        f"{_DOG}\tA cat sleeps indoors.\tcontradiction\n",
        f"{_DOG}\tA dog is outside.\tentailment\n",  # the same pair again: kept once
        '"A man says ""hello"" to a child."\tA man greets a child.\tentailment\n',  # CSV-quoted field
        f"{_DOG}\tThe dog is chasing a ball.\tneutral\n",
        f"{_DOG}\tThe dog is happy.\t-\n",  # no gold label: dropped
    ])
    prem = _HEAD + "".join([
        "A dog sleeps by the fire.\tA dog runs through the snow.\tcontradiction\n",
        "A dog walks in a park.\tA dog runs through the snow.\tneutral\n",
        "A dog walks in a park.\tA dog runs through the snow.\tcontradiction\n",  # two labels: dropped, both
        "\tA dog is outside.\tneutral\n",  # empty premise: dropped
    ])
    return {"NLI/revised_hypothesis/test.tsv": hyp, "NLI/revised_premise/test.tsv": prem,
            "NLI/original/test.tsv": _HEAD + "Not read.\tNot read.\tentailment\n"}


def fresh18_mirrors(mirrors: Path, monkeypatch) -> None:
    _snapshot(mirrors, monkeypatch, "ANLI", _anli_files())
    _snapshot(mirrors, monkeypatch, "CAD", _cad_files())


def _convert(mirrors: Path, name: str) -> tuple[list, object]:
    ds = next(d for d in fv.FRESH18 if d.name == name)
    tally = fv.Tally()
    return list(ds.convert(fv.Reader(mirrors), tally)), tally


def test_anli_pairs_hypothesis_with_context_once_and_drops_a_pair_with_two_labels(tmp_path, monkeypatch):
    fresh18_mirrors(tmp_path, monkeypatch)
    exs, tally = _convert(tmp_path, "anli")
    assert [(e.id, e.claim, e.quotes, e.label, e.cls) for e in exs] == [
        ("anli-r1-a-1", "The pier opened in the 19th century.", [_PIER], "supported", "e"),
        ("anli-r1-a-2", "The pier is shorter than 500 m.", [_PIER], "unsupported", "c"),
        ("anli-r1-a-3", "The pier is painted white.", [_PIER], "unsupported", "n"),
        ("anli-r2-b-2", "The barn owl sleeps during the day.",
         ["The barn owl hunts at night & roosts by day."], "supported", "e"),
    ]
    assert tally.dropped == {"label 'x'": 1, "empty context or hypothesis": 1,
                             "context/hypothesis pair met again": 1,
                             "context/hypothesis pair met again with another label": 2}
    assert tally.fixed == {"HTML character reference decoded": 4}  # every owl row read past its label
    assert exs[0].group == exs[2].group != exs[3].group  # grouped by passage
    assert exs[3].source == f"eric11eca/curriculum-ling/{fv._ANLI_PATHS[1]}@{fv.ANLI.commit}"


def test_cad_revised_hypotheses_against_the_caption_read_as_csv(tmp_path, monkeypatch):
    fresh18_mirrors(tmp_path, monkeypatch)
    exs, tally = _convert(tmp_path, "cad-revised-hypothesis")
    assert [(e.id, e.claim, e.quotes, e.label, e.cls) for e in exs] == [
        ("cad-revised-hypothesis-1", "A dog is outside.", [_DOG], "supported", "entailment"),
        ("cad-revised-hypothesis-2", "A cat sleeps indoors.", [_DOG], "unsupported", "contradiction"),
        ("cad-revised-hypothesis-4", "A man greets a child.", ['A man says "hello" to a child.'], "supported",
         "entailment"),
        ("cad-revised-hypothesis-5", "The dog is chasing a ball.", [_DOG], "unsupported", "neutral"),
    ]
    assert tally.dropped == {"label '-'": 1, "premise/hypothesis pair met again": 1}
    assert exs[0].group == exs[1].group != exs[2].group  # grouped by the unchanged premise
    assert exs[0].source == f"acmi-lab/counterfactually-augmented-data/NLI/revised_hypothesis/test.tsv@{fv.CAD.commit}"


def test_cad_revised_premises_group_by_the_unchanged_hypothesis(tmp_path, monkeypatch):
    fresh18_mirrors(tmp_path, monkeypatch)
    exs, tally = _convert(tmp_path, "cad-revised-premise")
    assert [(e.id, e.claim, e.quotes, e.label, e.cls) for e in exs] == [
        ("cad-revised-premise-1", _DOG, ["A dog sleeps by the fire."], "unsupported", "contradiction"),
    ]
    assert tally.dropped == {"empty premise or hypothesis": 1,
                             "premise/hypothesis pair met again with another label": 2}
    assert exs[0].group == fv.hashlib.sha256(_DOG.encode()).hexdigest()[:10]


def test_fresh18_writes_holdout_only_sets_byte_for_byte_that_the_loader_reads(tmp_path, monkeypatch):
    out, readme = fs.check_builds_byte_for_byte(fv, "fresh18", fresh18_mirrors, tmp_path, monkeypatch,
                                                ["anli", "cad-revised-hypothesis", "cad-revised-premise"])
    assert "benchmarks/data/claims-fresh18" in readme
    assert "| 4 | 2 | 2 | c 1, e 2, n 1 |" in readme
    assert "| 4 | 2 | 2 | contradiction 1, entailment 2, neutral 1 |" in readme
    assert "| 1 | 0 | 1 | contradiction 1 |" in readme
    assert "CC BY-NC 4.0" in readme
    pairs = _factver.load("holdout", root=out)
    assert sorted((r["dataset"], r["label"]) for r in pairs) == [
        ("anli", "supported"), ("anli", "supported"), ("anli", "unsupported"), ("anli", "unsupported"),
        ("cad-revised-hypothesis", "supported"), ("cad-revised-hypothesis", "supported"),
        ("cad-revised-hypothesis", "unsupported"), ("cad-revised-hypothesis", "unsupported"),
        ("cad-revised-premise", "unsupported"),
    ]


def test_fresh18_samples_anli_per_class(tmp_path, monkeypatch):
    # more pairs than the cap: a seeded per-class sample in the source's proportions (a third each)
    rows = [_an(f"u-{i}", f"Context {i // 3}.", f"Hypothesis {i}.", "e" if i % 3 == 0 else "nc"[i % 2])
            for i in range(36)]
    _snapshot(tmp_path / "big", monkeypatch, "ANLI", {fv._ANLI_PATHS[0]: _lines(rows),
                                                      fv._ANLI_PATHS[1]: "", fv._ANLI_PATHS[2]: ""})
    fs.check_samples_per_class(fv, tmp_path / "big", tmp_path, fv.FRESH18[0], fv.FRESH18_README_HEAD,
                               ["c"] * 4 + ["e"] * 4 + ["n"] * 4)


def test_fresh18_default_output_and_sets():
    g = fv.FRESH_GROUPS["--fresh18"]
    assert g.out == Path("/tmp/factver-fresh18") and g.cap == fv.FRESH3_CAP
    assert [d.name for d in g.sets] == ["anli", "cad-revised-hypothesis", "cad-revised-premise"]
    assert fv.ANLI == fv.Repo("eric11eca/curriculum-ling", "1c79904f9be35204e1bd8c760fea5c8180d10b39")
    assert fv.CAD == fv.Repo("acmi-lab/counterfactually-augmented-data", "6f232a1d2a11462a30ce08fb4825b734ab30828e")


def test_fresh18_stops_when_a_snapshot_is_missing(tmp_path, capsys):
    (tmp_path / "mirrors").mkdir()
    assert fv.main(["--fresh18", "--mirrors", str(tmp_path / "mirrors"), "--out", str(tmp_path / "o")]) == 1
    assert "SKIPPED" in capsys.readouterr().err
    assert "Not built: no git snapshot of eric11eca/curriculum-ling" in (tmp_path / "o" / "README.md").read_text()

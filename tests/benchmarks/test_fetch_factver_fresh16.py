"""The public half of the sixteenth fresh group: the converters behind ``fetch_factver.py --fresh16``
(HAGRID, AttrScore's GenSearch set and the Stanford generative-search judgements, read from
AttributionBench's files), on small synthetic files in a throwaway git repository, not the real
data. Nothing here runs the claim check."""

from __future__ import annotations

import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import _factver  # noqa: E402
from tests.benchmarks._fresh_support import git_repo, load_module  # noqa: E402

fv = load_module(BENCH / "data" / "factver" / "fetch_factver.py", "fetch_factver_fresh16")


def _row(src: str, rid: str, claim: str, refs: list[str], label: str, q: str = "Q?") -> dict:
    return {"question": q, "claim": claim, "claim_raw_string": claim, "response": claim, "references": refs,
            "citation_links": [], "webpage_references": [], "attribution_label": label,
            "src_dataset": src, "id": f"{src}_{rid}"}


def _lines(rows: list[dict]) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def _files() -> dict[str, str | bytes]:
    ood = [
        _row("HAGRID", "h1", "Sydney is in New South Wales [1][2].", ["[1] Sydney is the capital of NSW.",
                                                                     "[2] NSW is a state."], "attributable", "Sydney?"),
        _row("HAGRID", "h2", "There are 18 clubs in the league. [1, 2]", ["[1] The league has 18 clubs &amp; more."],
             "not attributable", "Clubs?"),
        _row("HAGRID", "h3", "Lagos, Wikipedia. [Online]. Available: https://en.wikipedia.org/wiki/Lagos.",
             ["[1] Lagos is a city."], "attributable"),  # a reference-list line: dropped
        _row("HAGRID", "h4", "Paris is in France [1].", [], "attributable"),  # no reference text: dropped
        _row("HAGRID", "h5", "Rome is old [1].", ["[1] Rome is old.", "[1] Rome is old."], "attributable"),
        _row("HAGRID", "h6", "Oslo is cold.", ["Oslo is cold."], "maybe"),  # unknown label: dropped
        _row("BEGIN", "b1", "Not this set.", ["x"], "attributable"),
        _row("AttrScore-GenSearch", "a1", "Meta laid off 11,000 people.", ["Meta cut 11,000 jobs."], "attributable"),
        _row("AttrScore-GenSearch", "a2", "Meta laid off 20,000 people.", ["Meta cut 11,000 jobs."],
             "not attributable"),
    ]
    test = [
        _row("Stanford-GenSearch", "s1", "4. Know what your character wants.", ["Get to know your character."],
             "attributable"),
        _row("ExpertQA", "e1", "Not this set either.", ["y"], "not attributable"),
    ]
    dev = [
        _row("Stanford-GenSearch", "s1", "4. Know what your character wants.", ["Get to know your character."],
             "attributable"),  # met again in another file: kept once
        _row("Stanford-GenSearch", "s2", "Employers monitor mail.", ["Some employers read mail."], "not attributable"),
    ]
    return {fv._ATTRBENCH_PATHS[0]: _lines(ood), fv._ATTRBENCH_PATHS[1]: _lines(test),
            fv._ATTRBENCH_PATHS[2]: _lines(dev)}


def fresh16_mirrors(mirrors: Path, monkeypatch) -> None:
    commit = git_repo(mirrors / "OSU-NLP-Group+AttributionBench" / "repo", _files())
    monkeypatch.setattr(fv, "ATTRIBUTIONBENCH", fv.Repo(fv.ATTRIBUTIONBENCH.name, commit))


def _convert(mirrors: Path, name: str) -> tuple[list, object]:
    ds = next(d for d in fv.FRESH16 if d.name == name)
    tally = fv.Tally()
    return list(ds.convert(fv.Reader(mirrors), tally)), tally


def test_hagrid_strips_citation_markers_and_drops_reference_lines(tmp_path, monkeypatch):
    fresh16_mirrors(tmp_path, monkeypatch)
    exs, tally = _convert(tmp_path, "hagrid")
    assert [(e.claim, e.quotes, e.label) for e in exs] == [
        ("Sydney is in New South Wales.", ["Sydney is the capital of NSW.", "NSW is a state."], "supported"),
        ("There are 18 clubs in the league.", ["The league has 18 clubs & more."], "unsupported"),
        ("Rome is old.", ["Rome is old."], "supported"),  # a repeated passage kept once
    ]
    assert [e.id for e in exs] == ["hagrid-h1", "hagrid-h2", "hagrid-h5"]
    assert tally.dropped == {"claim is a reference-list line": 1, "no claim or no reference text": 1,
                             "label 'maybe'": 1}
    assert exs[0].group != exs[1].group  # grouped by question


def test_each_set_reads_only_its_own_rows_and_keeps_a_repeated_row_once(tmp_path, monkeypatch):
    fresh16_mirrors(tmp_path, monkeypatch)
    attr, _ = _convert(tmp_path, "attrscore-gensearch")
    assert [(e.claim, e.label, e.cls) for e in attr] == [
        ("Meta laid off 11,000 people.", "supported", "attributable"),
        ("Meta laid off 20,000 people.", "unsupported", "not attributable"),
    ]
    stan, tally = _convert(tmp_path, "stanford-gensearch")
    assert [(e.claim, e.label) for e in stan] == [
        ("4. Know what your character wants.", "supported"), ("Employers monitor mail.", "unsupported"),
    ]
    assert stan[0].source.endswith(f"{fv._ATTRBENCH_PATHS[1]}@{fv.ATTRIBUTIONBENCH.commit}")
    assert tally.dropped == {"row met again in another file": 1}


def test_fresh16_writes_holdout_only_sets_byte_for_byte_that_the_loader_reads(tmp_path, monkeypatch):
    mirrors = tmp_path / "mirrors"
    fresh16_mirrors(mirrors, monkeypatch)
    out = tmp_path / "factver-fresh16"
    assert fv.main(["--fresh16", "--mirrors", str(mirrors), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "attrscore-gensearch", "hagrid",
                                                      "stanford-gensearch"]
    assert not list(out.glob("*/dev.jsonl"))
    first = {f: f.read_bytes() for f in sorted(out.rglob("*")) if f.is_file()}
    assert fv.main(["--fresh16", "--mirrors", str(mirrors), "--out", str(out)]) == 0
    assert {f: f.read_bytes() for f in sorted(out.rglob("*")) if f.is_file()} == first  # byte for byte
    readme = (out / "README.md").read_text()
    assert "--fresh16" in readme and "cut to 1000 by a sample" in readme and "Looked at and not used" in readme
    assert "benchmarks/data/claims-fresh16" in readme
    assert "| 3 | 2 | 1 | attributable 2, not attributable 1 |" in readme
    pairs = _factver.load("holdout", root=out)
    assert sorted((r["dataset"], r["label"]) for r in pairs) == [
        ("attrscore-gensearch", "supported"), ("attrscore-gensearch", "unsupported"),
        ("hagrid", "supported"), ("hagrid", "supported"), ("hagrid", "unsupported"),
        ("stanford-gensearch", "supported"), ("stanford-gensearch", "unsupported"),
    ]


def test_fresh16_default_output_and_sets():
    g = fv.FRESH_GROUPS["--fresh16"]
    assert g.out == Path("/tmp/factver-fresh16") and g.cap == fv.FRESH3_CAP
    assert [d.name for d in g.sets] == ["hagrid", "attrscore-gensearch", "stanford-gensearch"]
    assert fv.ATTRIBUTIONBENCH == fv.Repo("OSU-NLP-Group/AttributionBench", "b33329b29946b791649cf66d33e10b5a5bbdc44d")


def test_fresh16_stops_when_the_snapshot_is_missing(tmp_path, capsys):
    (tmp_path / "mirrors").mkdir()
    assert fv.main(["--fresh16", "--mirrors", str(tmp_path / "mirrors"), "--out", str(tmp_path / "o")]) == 1
    assert "SKIPPED" in capsys.readouterr().err
    assert "Not built: no git snapshot of OSU-NLP-Group/AttributionBench" in (tmp_path / "o" / "README.md").read_text()

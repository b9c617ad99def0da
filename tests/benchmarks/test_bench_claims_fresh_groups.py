"""The fresh groups behind ``benchmarks/bench_claims.py --fresh5`` … ``--fresh9``, one table
row per group: the converters of ``fetch_factver.py --freshN`` (on small synthetic files in
throwaway git repositories, not the real data), the loader, the defaults of both scripts and the
shipped hand-written pairs' shape. Nothing here runs the claim check on any of them."""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import bench_claims  # noqa: E402
import tests.benchmarks._fresh_support as fs  # noqa: E402

fv = fs.load_module(BENCH / "data" / "factver" / "fetch_factver.py", "fetch_factver_fresh_groups")
check = fs.load_module(BENCH / "data" / "claims-hand" / "check.py", "claims_hand_check_groups")


# --- synthetic snapshots ----------------------------------------------------------------------


def _summedits(domain: str, labels: list[int]) -> str:
    return json.dumps(
        [
            {
                "id": f"{domain}_{k}",
                "doc": f" {domain} document. ",
                "summary": f"Summary {k}.",
                "label": lab,
                "original_summary": "Summary 0.",
                "edit_types": [] if lab == 1 else ["hallucinated_fact_insertion"],
                "split": "test",
            }
            for k, lab in enumerate(labels)
        ]
    )


_snapshot = partial(fs.snapshot, fv)  # a synthetic snapshot of fv.<attr>, pinned commit pointed at it


def _summedits_mirrors(domains: dict[str, list[int]]):
    def make(root: Path, monkeypatch) -> None:
        files = {f"data/summedits/summedits_{d}.json": _summedits(d, labs) for d, labs in domains.items()}
        _snapshot(root, monkeypatch, "SUMMEDITS", files)

    return make


def _faithbench_sample(k: int, labels: list[list[str]], summary: str = "A summary.") -> dict:
    return {
        "sample_id": k,
        "source": f" Source passage {k}. ",
        "summary": f" {summary} ",
        "annotations": [{"annot_id": i, "label": lab, "note": "", "summary_span": "x"} for i, lab in enumerate(labels)],
        "metadata": {"summarizer": "m"},
    }


def _faithbench_files() -> dict[str, str]:
    batch_1 = [
        _faithbench_sample(0, []),
        _faithbench_sample(1, [["Unwanted", "Unwanted.Intrinsic"], ["Benign"]]),
        _faithbench_sample(2, [["Questionable"], ["Benign"]]),  # no clear label: dropped
        _faithbench_sample(3, [["Benign"]]),  # no clear label: dropped
    ]
    batch_16 = [
        _faithbench_sample(0, [["Unwanted.Extrinsic", "Unwanted"], ["Unwanted", "Unwanted.Intrinsic"]]),
        _faithbench_sample(1, [], summary=""),  # empty summary: dropped
    ]
    files = {f"data_for_release/batch_{b}.json": json.dumps({"samples": []})
             for b in range(2, 16) if b != 13}
    files["data_for_release/batch_1.json"] = json.dumps({"samples": batch_1})
    files["data_for_release/batch_16.json"] = json.dumps({"samples": batch_16})
    return files


def _liar(k: int, label: str, claim: str, justification: str | None = "The ruling says so.") -> str:
    return json.dumps({"id": k, "json_file_id": f"{k}.json", "label": label, "claim": claim,
                       "justification": justification})


def _politihop_tsv(statements: list[str]) -> str:
    out = io.StringIO()
    w = csv.writer(out, delimiter="\t")
    w.writerow(["article_id", "statement", "ruling", "annotated_evidence"])
    for n, s in enumerate(statements):
        w.writerow([str(90000 + n), s, "[]", "{}"])
    return out.getvalue()


def _fresh7_mirrors(root: Path, monkeypatch) -> None:
    _snapshot(root, monkeypatch, "FAITHBENCH", _faithbench_files())
    _snapshot(root, monkeypatch, "LIAR_PLUS", {
        "dataset/jsonl/val2.jsonl": "\n".join([
            _liar(11, "true", "Says the wall takes years."),
            _liar(12, "mostly-true", "Mostly so."),  # no clear label: dropped
            _liar(13, "pants-fire", "Says the moon is cheese."),
        ]) + "\n",
        "dataset/jsonl/test2.jsonl": "\n".join([
            _liar(21, "half-true", "Jobs doubled."),
            _liar(22, "false", "Also checked by PolitiHop."),  # in PolitiHop: dropped
            _liar(23, "barely-true", "No evidence.", justification=None),  # dropped
        ]) + "\n",
    })
    _snapshot(root, monkeypatch, "POLITIHOP", {
        "data/politihop_train.tsv": _politihop_tsv(["Also  checked by PolitiHop."]),
        "data/politihop_valid.tsv": _politihop_tsv([]),
        "data/politihop_test.tsv": _politihop_tsv(["Something else."]),
    })


def _sick_txt(rows: list[tuple[int, str, str, str]]) -> str:
    head = "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n"
    return head + "".join(f"{k}\t{a}\t{b}\t3.5\t{j}\n" for k, a, b, j in rows)


def _faithdial_csv(rows: list[tuple[str, str, str]]) -> str:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["evidence", "history", "response", "BEGIN", "VRM"])
    for evidence, response, begin in rows:
        w.writerow([evidence, "Earlier turn, with a comma.", response, begin, "Edification"])
    return out.getvalue()


def _fresh9_mirrors(root: Path, monkeypatch) -> None:
    _snapshot(root, monkeypatch, "SICK", {
        "data/sts/sick2014/SICK_test_annotated.txt": _sick_txt([
            (6, "A man is playing a guitar", "A man is playing an instrument", "ENTAILMENT"),
            (7, " A dog runs in the park ", "A cat runs in the park", "CONTRADICTION"),
            (9, "A woman is slicing an onion", "A woman is cooking dinner", "NEUTRAL"),
            (12, "A boy is jumping", "", "NEUTRAL"),  # empty sentence: dropped
            (15, "A girl is singing", "A girl sings", "UNKNOWN"),  # not a judgment: dropped
        ]),
        # another file of the same folder is not read
        "data/sts/sick2014/SICK_train.txt": _sick_txt([(1, "Unused", "Unused", "ENTAILMENT")]),
    })
    _snapshot(root, monkeypatch, "FAITHDIAL", {
        "data-audit/gold/wow.csv": _faithdial_csv([
            ("Lawyers apply legal theory, to solve problems.", "Lawyers solve problems.", "Entailment"),
            ("Dogs were buried beside humans 14,700 years ago.", "Dogs came 36,000 years ago.",
             "Hallucination"),
            ("Shelters exist.", "Hi there!", "Generic"),  # no claim: dropped
        ]),
        "data-audit/gold/cmu.csv": _faithdial_csv([
            ("A passage\nover two lines.", "Partly from the passage.", "Partial Hallucination"),
            ("Another passage.", "Not answering.", "Uncooperative"),  # dropped
        ]),
        "data-audit/gold/topical.csv": _faithdial_csv([
            ("", "", ""),  # an empty row, as the real file has many: dropped
            ("Topical fact.", "Said without a label.", ""),  # no label: dropped
            ("Topical fact.", "Topical fact indeed.", "entailment"),  # lower case, as one real row
            ("Topical fact.", "Also generic.", "generic"),  # dropped
        ]),
    })


# --- one row per group ------------------------------------------------------------------------


@dataclass(frozen=True)
class Group:
    name: str  # bench_claims' group name; the option is --<name>
    mirrors: Callable[[Path, object], None]  # builds the synthetic snapshots under a root
    built: list[tuple[str, str]]  # (dataset, label) of every public pair the synthetic data gives
    hand_dataset: str  # the hand-written set's "dataset"
    min_hand_pairs: int


GROUPS = [
    Group(
        "fresh5",
        _summedits_mirrors({"news": [1, 0, 0], "qmsumm": [1, 0, 2], "sales_call": [0, 1]}),
        [("factver/summedits-news", "supported"), ("factver/summedits-news", "unsupported"),
         ("factver/summedits-news", "unsupported"), ("factver/summedits-qmsum", "supported"),
         ("factver/summedits-qmsum", "unsupported"), ("factver/summedits-salescall", "supported"),
         ("factver/summedits-salescall", "unsupported")],
        "cmake",
        300,
    ),
    Group(
        "fresh6",
        _summedits_mirrors({"podcast": [1, 0, 0], "sales_email": [1, 0, 2]}),
        [("factver/summedits-podcast", "supported"), ("factver/summedits-podcast", "unsupported"),
         ("factver/summedits-podcast", "unsupported"), ("factver/summedits-salesemail", "supported"),
         ("factver/summedits-salesemail", "unsupported")],
        "postfix",
        200,
    ),
    Group(
        "fresh7",
        _fresh7_mirrors,
        [("factver/faithbench", "supported"), ("factver/faithbench", "unsupported"),
         ("factver/faithbench", "unsupported"), ("factver/liar-plus", "supported"),
         ("factver/liar-plus", "unsupported"), ("factver/liar-plus", "unsupported")],
        "rust",
        400,
    ),
    Group(
        "fresh9",
        _fresh9_mirrors,
        [("factver/faithdial-gold", "supported"), ("factver/faithdial-gold", "supported"),
         ("factver/faithdial-gold", "unsupported"), ("factver/faithdial-gold", "unsupported"),
         ("factver/sick", "supported"), ("factver/sick", "unsupported"), ("factver/sick", "unsupported")],
        "bind9",
        300,
    ),
]
by_name = pytest.mark.parametrize("group", GROUPS, ids=[g.name for g in GROUPS])
# Every group with hand-written pairs, public half or not: (name, dataset, least number of pairs).
HAND_GROUPS = [(g.name, g.hand_dataset, g.min_hand_pairs) for g in GROUPS] + [("fresh8", "go", 130), ("fresh10", "zsh", 260),
                                                                         ("fresh11", "exim", 400)]


# --- converters -------------------------------------------------------------------------------


def test_summedits_converter_names_its_set_and_maps_labels(tmp_path, monkeypatch):
    root = tmp_path / "mirrors"
    _summedits_mirrors({"sales_email": [1, 0, 2], "podcast": [1]})(root, monkeypatch)
    rd, tally = fv.Reader(root), fv.Tally()
    em = list(fv._summedits("sales_email", "salesemail")(rd, tally))
    assert [(e.id, e.label, e.cls, e.quotes) for e in em] == [
        ("summedits-salesemail-sales_email_0", "supported", "consistent", ["sales_email document."]),
        ("summedits-salesemail-sales_email_1", "unsupported", "inconsistent (hallucinated_fact_insertion)",
         ["sales_email document."]),
    ]
    assert tally.dropped == {"label other than 0/1, or empty document or summary": 1}
    # without a name the id keeps the file's domain, as the earlier groups' ids do
    assert [e.id for e in fv._summedits("podcast")(rd, fv.Tally())] == ["summedits-podcast-podcast_0"]


def test_faithbench_converter_judges_a_summary_by_its_most_severe_annotation(tmp_path, monkeypatch):
    root = tmp_path / "mirrors"
    _snapshot(root, monkeypatch, "FAITHBENCH", _faithbench_files())
    tally = fv.Tally()
    got = list(fv.faithbench(fv.Reader(root), tally))
    assert [(e.id, e.label, e.cls, e.quotes, e.claim) for e in got] == [
        ("faithbench-1-0", "supported", "consistent", ["Source passage 0."], "A summary."),
        ("faithbench-1-1", "unsupported", "unwanted (intrinsic)", ["Source passage 1."], "A summary."),
        ("faithbench-16-0", "unsupported", "unwanted (extrinsic+intrinsic)", ["Source passage 0."],
         "A summary."),
    ]
    assert tally.dropped == {"worst annotation Benign or Questionable (no clear label)": 2,
                             "empty source or summary": 1}
    assert got[0].source.startswith("vectara/FaithBench/data_for_release/batch_1.json@")


def test_liar_plus_converter_maps_verdicts_and_leaves_out_politihop_statements(tmp_path, monkeypatch):
    root = tmp_path / "mirrors"
    _fresh7_mirrors(root, monkeypatch)
    tally = fv.Tally()
    got = list(fv.liar_plus(fv.Reader(root), tally))
    assert [(e.id, e.label, e.cls, e.quotes) for e in got] == [
        ("liar-plus-11", "supported", "true", ["The ruling says so."]),
        ("liar-plus-13", "unsupported", "pants-fire", ["The ruling says so."]),
        ("liar-plus-21", "unsupported", "half-true", ["The ruling says so."]),
    ]
    assert tally.dropped == {"label mostly-true (no clear label)": 1, "statement also in PolitiHop": 1,
                             "empty statement or justification": 1}


def test_sick_converter_quotes_sentence_a_for_sentence_b_and_maps_neutral_to_unsupported(tmp_path, monkeypatch):
    root = tmp_path / "mirrors"
    _fresh9_mirrors(root, monkeypatch)
    tally = fv.Tally()
    got = list(fv.sick(fv.Reader(root), tally))
    assert [(e.id, e.label, e.cls, e.quotes, e.claim) for e in got] == [
        ("sick-6", "supported", "entailment", ["A man is playing a guitar"], "A man is playing an instrument"),
        ("sick-7", "unsupported", "contradiction", ["A dog runs in the park"], "A cat runs in the park"),
        ("sick-9", "unsupported", "neutral", ["A woman is slicing an onion"], "A woman is cooking dinner"),
    ]
    assert tally.dropped == {"empty sentence": 1, "entailment judgment 'UNKNOWN'": 1}
    assert got[0].source == f"brmson/dataset-sts/data/sts/sick2014/SICK_test_annotated.txt@{fv.SICK.commit}"


def test_faithdial_converter_keeps_labelled_replies_and_drops_generic_ones(tmp_path, monkeypatch):
    root = tmp_path / "mirrors"
    _fresh9_mirrors(root, monkeypatch)
    tally = fv.Tally()
    got = list(fv.faithdial_gold(fv.Reader(root), tally))
    assert [(e.id, e.label, e.cls, e.quotes, e.claim) for e in got] == [
        ("faithdial-gold-wow-1", "supported", "entailment (wow)",
         ["Lawyers apply legal theory, to solve problems."], "Lawyers solve problems."),
        ("faithdial-gold-wow-2", "unsupported", "hallucination (wow)",
         ["Dogs were buried beside humans 14,700 years ago."], "Dogs came 36,000 years ago."),
        ("faithdial-gold-cmu-1", "unsupported", "partial hallucination (cmu)",
         ["A passage\nover two lines."], "Partly from the passage."),
        ("faithdial-gold-topical-3", "supported", "entailment (topical)", ["Topical fact."],
         "Topical fact indeed."),
    ]
    assert tally.dropped == {"BEGIN label 'generic'": 2, "BEGIN label 'uncooperative'": 1,
                             "BEGIN label '(none)'": 1, "empty row": 1}
    assert got[-1].source.startswith("McGill-NLP/FaithDial/data-audit/gold/topical.csv@")


# --- fetch script, loader, defaults ------------------------------------------------------------


@by_name
def test_fetch_writes_holdout_only_sets_byte_for_byte_that_bench_can_load(group, tmp_path, monkeypatch):
    mirrors = tmp_path / "mirrors"
    group.mirrors(mirrors, monkeypatch)
    out = tmp_path / f"factver-{group.name}"
    flag = f"--{group.name}"
    assert fv.main([flag, "--mirrors", str(mirrors), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["README.md", *sorted({d.split("/")[1] for d, _ in group.built})]
    assert not list(out.glob("*/dev.jsonl"))
    first = {f: f.read_bytes() for f in sorted(out.rglob("*")) if f.is_file()}
    assert fv.main([flag, "--mirrors", str(mirrors), "--out", str(out)]) == 0
    assert {f: f.read_bytes() for f in sorted(out.rglob("*")) if f.is_file()} == first  # byte for byte
    readme = (out / "README.md").read_text()
    assert flag in readme and "cut to 1000 by a sample" in readme
    hand = tmp_path / "hand"
    hand.mkdir()
    row = {"id": "h0001", "dataset": group.hand_dataset, "page": f"{group.hand_dataset}/a.html", "quote": "Q.",
           "claim": "C.", "label": "unsupported", "class": "negation", "note": "x", "split": "holdout"}
    (hand / "holdout.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    pairs = bench_claims.load_fresh(hand, out, flag)
    assert [(p.id, p.dataset, p.label) for p in pairs][:1] == [("h0001", f"hand/{group.hand_dataset}", "unsupported")]
    assert sorted((p.dataset, p.label) for p in pairs[1:]) == group.built


@by_name
def test_fetch_with_another_group_or_only_is_a_user_error(group, tmp_path, capsys):
    flag = f"--{group.name}"
    assert fv.main(["--fresh3", flag, "--mirrors", str(tmp_path)]) == 2
    assert f"--fresh3 and {flag}" in capsys.readouterr().err
    assert fv.main([flag, "--only", "fm2", "--mirrors", str(tmp_path)]) == 2
    assert flag in capsys.readouterr().err


@by_name
def test_load_fresh_names_the_groups_own_rebuild_command(group, tmp_path):
    flag = f"--{group.name}"
    hand = tmp_path / "hand"
    hand.mkdir()
    (hand / "holdout.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(bench_claims.FreshMissing, match=f"fetch_factver.py {flag} --out"):
        bench_claims.load_fresh(hand, tmp_path / "none", flag)
    with pytest.raises(bench_claims.FreshMissing, match=f"{flag}-hand-dir"):
        bench_claims.load_fresh(tmp_path / "nowhere", tmp_path / "none", flag)


@by_name
def test_defaults_of_both_scripts_point_at_the_group(group):
    g = bench_claims.FRESH_GROUPS[group.name]
    assert g.hand_dir.name == f"claims-{group.name}"
    assert str(g.factver_root) == f"/tmp/factver-{group.name}"
    assert fv.FRESH_GROUPS[f"--{group.name}"].out == g.factver_root


def test_every_public_group_of_bench_claims_is_built_by_the_fetch_script():
    # by folder name: the first group's root falls back to a local copy (/tmp/factver-fresh) on a
    # machine without /work/shared (benchmarks/_factver.py)
    public = {f"--{n}": g.factver_root.name for n, g in bench_claims.FRESH_GROUPS.items() if g.factver_root}
    assert public == {flag: g.out.name for flag, g in fv.FRESH_GROUPS.items()}
    # the old per-group names stay importable for the scripts that use them
    assert bench_claims.FRESH_GROUPS["fresh7"].hand_dir == bench_claims.FRESH7_HAND_DIR
    assert bench_claims.FRESH_GROUPS["fresh4"].factver_root is None
    assert bench_claims.FRESH_GROUPS["fresh8"].factver_root is None
    assert bench_claims.FRESH_GROUPS["fresh10"].factver_root is None


# --- shipped hand-written pairs -----------------------------------------------------------------


@pytest.mark.parametrize(("name", "dataset", "least"), HAND_GROUPS, ids=[g[0] for g in HAND_GROUPS])
def test_shipped_hand_pairs_are_well_formed(name, dataset, least):
    here = bench_claims.FRESH_GROUPS[name].hand_dir
    assert here.name == f"claims-{name}"
    rows = check.load(here)
    assert len(rows) >= least and check.problems(rows, here) == []
    assert {r["split"] for r in rows} == {"holdout"}
    assert {r["dataset"] for r in rows} == {dataset}
    assert len({r["id"] for r in rows}) == len(rows)
    labels = [r["label"] for r in rows]
    assert 0.4 <= labels.count("supported") / len(labels) <= 0.6
    assert all(r.get("note") for r in rows if r["label"] == "unsupported")
    pages = (here / "pages.txt").read_text().split()
    assert {r["page"] for r in rows} == set(pages)
    for r in rows:  # every quote verbatim on its page (check.problems says so too; this can fail alone)
        text = (here / "pages" / f"{r['page']}.txt").read_text(encoding="utf-8")
        assert all(q in text for q in r.get("quotes") or [r["quote"]]), r["id"]


# --- --fresh11 --only hand: the hand-written half runs without the public half ------------------


def _one_hand_pair(folder: Path, dataset: str) -> Path:
    folder.mkdir()
    row = {"id": "x0001", "dataset": dataset, "page": f"{dataset}/a.html", "quote": "Q.", "claim": "C.",
           "label": "supported", "class": "paraphrase_synonyms", "split": "holdout"}
    (folder / "holdout.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    return folder


def _run_main(monkeypatch, argv: list[str]) -> list:
    return fs.bench_main_pairs(bench_claims, monkeypatch, argv)


@pytest.mark.parametrize("only", ["hand", "hand/exim", " hand , hand/exim "])
def test_fresh11_only_hand_loads_the_hand_half_without_the_public_root(only, tmp_path, monkeypatch):
    hand = _one_hand_pair(tmp_path / "hand", "exim")
    missing = tmp_path / "no-public-half"
    got = _run_main(monkeypatch, ["--fresh11", "--fresh11-hand-dir", str(hand), "--fresh11-factver-root",
                                  str(missing), "--only", only])
    assert [(p.id, p.dataset) for p in got] == [("x0001", "hand/exim")]


@pytest.mark.parametrize("only", ["", "factver", "hand,factver"])
def test_fresh11_without_its_public_root_stops_unless_only_hand(only, tmp_path, monkeypatch, capsys):
    hand = _one_hand_pair(tmp_path / "hand", "exim")
    missing = tmp_path / "no-public-half"
    monkeypatch.setattr(sys, "argv", ["bench_claims.py", "--fresh11", "--fresh11-hand-dir", str(hand),
                                      "--fresh11-factver-root", str(missing), "--only", only])
    with pytest.raises(SystemExit) as exc:
        bench_claims.main()
    assert exc.value.code == 2
    assert "fetch_factver.py --fresh11 --out" in capsys.readouterr().err


def test_fresh11_defaults_and_verdict_group():
    fs.check_defaults_and_verdict_group(bench_claims, "fresh11")


def test_a_claim_that_states_nothing_counts_as_a_report_shows_it_not_as_green():
    """bench_claims counts verdicts as a report shows them: the rules' ``no_claim`` (a summary
    line such as "Be a.") is "quote found; no claim to check", never an altered claim shown
    supported."""
    pairs = [bench_claims.Pair("x1", "factver/x", "Be a.", ["Pisces are gentle, sensitive, and kind."],
                               "unsupported", "altered"),
             bench_claims.Pair("x2", "factver/x", "Pisces are gentle.", ["Pisces are gentle, sensitive, and kind."],
                               "supported", "correct")]
    bench_claims.run_code(pairs)
    assert pairs[0].status is bench_claims.ClaimStatus.NO_CLAIM
    t = bench_claims.tallies(pairs)[("factver/x", "unsupported", "altered")]
    assert (t.n, t.sup, t.unch) == (1, 0, 1)
    assert pairs[1].status is bench_claims.ClaimStatus.SUPPORTED  # a real claim is still proven

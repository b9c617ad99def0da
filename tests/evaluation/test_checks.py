"""The pure parts of the evaluation: report checks of a run folder (golden JSON), FACT-style
accuracy, the synthesis score, behaviour checks, question sets, and DeepResearch Bench
files. Run folders are made here with the real publisher."""

import json
import os
import re
from pathlib import Path

import pytest

from deep_research.citations.model import Source
from deep_research.cli import main
from deep_research.evaluation import checks
from deep_research.evaluation.behaviour import check_expectations, detect_language
from deep_research.evaluation.drb import (
    article_from_run,
    export_records,
    import_tasks,
    validate_record,
)
from deep_research.evaluation.questions import load_questions
from deep_research.evaluation.rundir import EvalInputError, RunFolder
from deep_research.publish import publish_report

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "eval" / "report_golden.json"

PAGES = {
    "trees": ("https://city.example.org/trees", "Street trees", [
        "Measurements in Vienna found that street trees lower summer air temperatures in a city street by up to 2 °C.",
        "Street trees cool a city street mainly by shading asphalt and walls.",
    ]),
    "study": ("https://heat.example.net/study", "A heat study", [
        "A study in Madrid found that street trees lower summer air temperatures in a city street by up to 5 °C.",
        "Young or sparse trees had little measurable effect on air temperature.",
    ]),
    "costs": ("file:///corpus/tree-costs.html", "What a street tree costs", [
        "Planting a street tree in a European city typically costs between 1,000 and 3,000 euros.",
    ]),
}

REPORT = """# Street trees and summer heat

## Cooling

Street trees lower summer air temperatures in a city street by up to 2 °C <ref id="trees">"Measurements in Vienna found that street trees lower summer air temperatures in a city street by up to 2 °C."</ref>.
Street trees lower summer air temperatures in a city street by up to 5 °C <ref id="study">"A study in Madrid found that street trees lower summer air temperatures in a city street by up to 5 °C."</ref>.

They cool mainly by shading streets <ref id="trees">"Street trees cool a city street mainly by shading asphalt and walls."</ref>, while young trees do much more <ref id="study">"Young or sparse trees had little measurable effect on air temperature."</ref>.

## Costs

Planting one costs between 1,000 and 4,000 euros <ref id="costs">"Planting a street tree in a European city typically costs between 1,000 and 3,000 euros."</ref>.
A tree also saves 40 percent of cooling energy <ref id="costs">"A street tree saves 40 percent of cooling energy."</ref>.

This paragraph has enough words to count as a paragraph but it cites nothing at all.

## Limitations

- Only three sources were read.
"""


def sources() -> list[Source]:
    return [Source(id=sid, url=url, title=title, content="\n\n".join(text), format="text")
            for sid, (url, title, text) in PAGES.items()]


def make_run(folder: Path, *, plan: bool = True, brief: str | None = None) -> Path:
    publish_report(REPORT, sources(), folder, pdf=False)
    if plan:
        (folder / "run.json").write_text(json.dumps({
            "question": "How much do street trees cool streets, and what do they cost?",
            "research_brief": "I want to know how much street trees cool streets and what they cost.",
            "plan": [{"topic": "Cooling by street trees", "sources": ["trees", "study"]},
                     {"topic": "Costs of street trees", "sources": ["costs"]},
                     {"topic": "Effects on property prices", "sources": ["prices"]}],
            "usage": {"research": {"calls": 3, "input_tokens": 1000, "output_tokens": 200, "cost_usd": 0.0036}},
        }), encoding="utf-8")
    elif brief is not None:
        (folder / "notes.md").write_text(f"# Research notes\n\nQuestion: What about trees?\n\n## Research brief\n\n"
                                         f"{brief}\n", encoding="utf-8")
    return folder


def test_eval_report_matches_the_golden_json(tmp_path, capsys):
    run = make_run(tmp_path / "run")
    out = tmp_path / "report.json"
    assert main(["eval", "report", str(tmp_path), "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Report checks" in printed and "citation accuracy (FACT-style)" in printed
    data = json.loads(out.read_text())
    assert [r["path"] for r in data["runs"]] == [str(run)]
    got = {k: v for k, v in data["runs"][0].items() if k != "path"}
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(got, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    assert got == json.loads(GOLDEN.read_text(encoding="utf-8"))
    # what the golden file pins down, said in words
    assert got["citations"]["unsupported"] == 1  # the invented sentence
    assert got["claims"]["unsupported"] >= 1  # 4,000 where the page says 3,000
    assert got["claims"]["sources_disagree"] == 1  # 2 °C against 5 °C
    assert got["structure"]["limitations"] and got["structure"]["uncited_paragraphs"] == 1
    assert got["citations"]["independent_sources"] == 3 and got["citations"]["domains"] == 2
    assert got["synthesis"]["coverage"] == pytest.approx(2 / 3, abs=1e-4)


def test_fact_pairs_are_deduplicated_and_unknown_is_left_out():
    cites = [
        {"claim": "A", "url": "https://x.org/p#:~:text=a", "status": "verified", "claim_status": "supported"},
        {"claim": "A", "url": "https://x.org/p#:~:text=b", "status": "verified", "claim_status": "supported"},
        {"claim": "B", "url": "https://x.org/p", "status": "repaired", "claim_status": "unchecked"},
        {"claim": "C", "url": "https://y.org/q", "status": "unsupported", "claim_status": "unsupported"},
        {"claim": "C", "url": "https://y.org/q", "status": "verified", "claim_status": "supported"},
        {"claim": "", "quote": "A cell quote.", "url": "https://y.org/q", "status": "verified",
         "claim_status": "supported"},
    ]
    f = checks.fact(cites)
    assert f["statements"] == 4  # A@x (once), B@x, C@y (worst verdict), the cell's quote@y
    assert (f["supported"], f["unsupported"], f["unknown"]) == (2, 1, 1)
    assert f["accuracy"] == pytest.approx(2 / 3, abs=1e-4) and f["accuracy_strict"] == 0.5
    assert f["effective_citations"] == 2
    assert checks.fact([])["accuracy"] is None


def test_fact_counts_only_proven_verdicts_and_never_rounds_grey_into_green():
    def cite(claim, status="supported", by="code", rule="copy", quote_status="verified"):
        return {"claim": claim, "url": f"https://x.org/{claim}", "status": quote_status, "claim_status": status,
                "claim_rule": rule, "claim_decided_by": by}

    cites = [
        cite("a"), cite("b"),  # proven by code
        cite("c", by="judge", rule="judge:checked"),  # a judge whose evidence code checked
        cite("d", "unsupported", rule="number"),  # shown to differ by code
        cite("e", "unsupported", by=None, rule="judge"),  # a judge's contradiction: flagged, not proven
        cite("f", "supported", quote_status="unsupported", by=None),  # quote not on the page: code
        cite("g", "unchecked", by=None, rule="judge:evidence_failed"),  # the judge said so, code could not check
        cite("h", "unchecked", by=None, rule=None),
        cite("i", "supported", by="code", rule="no_claim"),  # a ref without a claim: nothing checked
        {"claim": "j", "url": "https://x.org/j", "status": "verified", "claim_status": "supported",
         "claim_rule": "judge"},  # an older citations.json: an unchecked judge's green
        {"claim": "k", "url": "https://x.org/k", "status": "verified", "claim_status": "supported",
         "claim_rule": "overlap"},  # an older citations.json: a code rule
    ]
    assert [checks.proven_verdict(c) for c in cites] == [
        "supported", "supported", "supported", "unsupported", "unknown", "unsupported", "unknown", "unknown",
        "unknown", "unknown", "supported"]
    f = checks.fact(cites)
    assert (f["statements"], f["supported"], f["unsupported"], f["unknown"]) == (11, 4, 2, 5)
    assert f["accuracy"] == pytest.approx(4 / 6, abs=1e-4)  # over proven verdicts only
    assert f["unchecked_share"] == pytest.approx(5 / 11, abs=1e-4)
    assert f["accuracy_strict"] == pytest.approx(4 / 11, abs=1e-4)  # grey as wrong
    assert f["accuracy_upper"] == pytest.approx(9 / 11, abs=1e-4)  # grey as right: the range's top
    assert f["effective_citations"] == 4
    # the unknown pairs by the judge's unproven word: e (it flagged), g and j (it said supports),
    # h and i (no judge); beside the accuracy, never in it
    assert [checks.judge_word(c) for c in cites] == [
        "none", "none", "supported", "none", "differs", "none", "supported", "none", "none", "supported", "none"]
    assert (f["unknown_judge_supported"], f["unknown_judge_differs"], f["unknown_no_judge"]) == (2, 1, 2)
    # all grey: no accuracy at all rather than a made-up one
    grey = checks.fact([cite("x", "unchecked", by=None, rule=None)])
    assert grey["accuracy"] is None and grey["unchecked_share"] == 1.0


def test_eval_report_counts_a_judge_only_where_code_checked_its_evidence(tmp_path, capsys):
    from deep_research.citations.check import check_citations
    from deep_research.citations.evidence import claim_key

    page = ("Typically, over 99% of all pages are leaf pages. Internal pages point to other pages. "
            "Leaf pages hold the index entries.")
    srcs = [Source("pg", "https://www.postgresql.org/docs/btree", page, format="text")]
    quote = "Typically, over 99% of all pages are leaf pages."
    report = ("# B-trees\n\nLeaf pages typically make up over 99% of all pages <ref id=\"pg\">\"" + quote + "\"</ref>.\n\n"
              "Typically, more than 99% of all pages are leaf pages <ref id=\"pg\">\"" + quote + "\"</ref>.\n")
    first, second = [c.claim.text for c in check_citations(report, srcs).citations]
    judgments = {
        # the judge says "supports", but its evidence does not show "make up": grey, not counted
        claim_key(first, [quote]): {"verdict": "supports", "facts": [{"fact": first, "spans": [quote]}]},
        # never asked: the rules decide this one
        claim_key(second, [quote]): {"verdict": "contradicts"},
    }
    publish_report(report, srcs, tmp_path / "run", pdf=False, judgments=judgments)
    out = tmp_path / "r.json"
    assert main(["eval", "report", str(tmp_path / "run"), "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "unchecked (not in the accuracy)" in printed and "50.0 %" in printed
    f = json.loads(out.read_text())["runs"][0]["fact"]
    assert (f["supported"], f["unsupported"], f["unknown"]) == (1, 0, 1)
    assert f["accuracy"] == 1.0 and f["unchecked_share"] == 0.5 and f["accuracy_strict"] == 0.5
    # the grey claim is shown with what the judge said of it, apart from the accuracy
    assert (f["unknown_judge_supported"], f["unknown_judge_differs"], f["unknown_no_judge"]) == (1, 0, 0)
    assert re.search(r"unchecked, judge said ok / differs / -[\s│]+1 / 0 / 0", printed)


def test_synthesis_without_a_plan_uses_the_brief_or_says_it_cannot(tmp_path):
    run = RunFolder.load(make_run(tmp_path / "a", plan=False,
                                  brief="How much do street trees lower summer air temperatures? "
                                        "What does planting a street tree cost in euros? "
                                        "How do trees change property prices?"))
    s = checks.evaluate_run(run)["synthesis"]
    assert s["coverage_basis"] == "brief" and "no plan" in s["coverage_note"]
    assert [i["covered"] for i in s["coverage_items"]] == [True, True, False]
    bare = RunFolder.load(make_run(tmp_path / "b", plan=False))
    s = checks.evaluate_run(bare)["synthesis"]
    assert s["coverage"] is None and "cannot be measured" in s["coverage_note"]
    assert s["score"] == pytest.approx(100 * (s["supported_share"] + s["diversity"]) / 2, abs=0.1)


FENCED = """# Grep in practice

## Usage

Grep prints every line of a file that matches a pattern given on the command line <ref id="man">"grep searches for PATTERNS in each FILE."</ref>.

~~~markdown
```
## Sources
| a | b |
|---|---|
```
## References

A fenced example cites <ref id="man">"not a citation"</ref> here.
~~~

This paragraph has enough words to count but it cites only `<ref id="man">"code"</ref>` in code.

## Limitations

- Only one page was read.
"""


def _fenced_figures(struct: dict) -> None:
    """What the fenced report's structure is, counted by hand: a heading, a table or a ref
    inside code is text of the code block, never a section, a table or a citation."""
    assert struct["title"] == "Grep in practice"
    assert struct["section_titles"] == ["Usage", "Limitations"] and struct["limitations"]
    # 16 (first paragraph) + 17 (the fence's text, its <ref> tag's words included: it is code)
    # + 18 (the paragraph after the fence, its code span included) + 5 (the limitation)
    assert struct["words"] == 56
    # the fence is no paragraph; the paragraph after it is one, and a ref in a code span cites nothing
    assert (struct["paragraphs"], struct["uncited_paragraphs"], struct["tables"]) == (2, 1, 0)


def test_structure_reads_headings_tables_and_refs_inside_code_as_text():
    """A '## Sources' line after an inner ``` inside a ~~~ fence used to end the report's
    body (everything after it was taken for the Sources section), the fenced table counted
    as a table, and a ref in a code span made its paragraph cited."""
    run = RunFolder(Path("x"), FENCED, None, [], {"summary": {}}, None, None)
    _fenced_figures(checks.structure(run))


def test_structure_of_a_published_report_with_fenced_headings(tmp_path):
    page = Source(id="man", url="https://man.example.org/grep", title="grep(1)", format="text",
                  content="grep searches for PATTERNS in each FILE.")
    publish_report(FENCED, [page], tmp_path / "run", pdf=False)
    run = RunFolder.load(tmp_path / "run")
    assert "## Sources\n| a | b |" in run.report_md  # the fenced lines survive publishing as they were
    struct = checks.structure(run)
    _fenced_figures(struct)
    assert checks.citation_checks(run, struct["words"])["refs"] == 1  # the fenced and the code-span refs are text


def test_words_count_cjk_characters():
    assert checks.count_words("Heat pumps work well.") == 4
    assert checks.count_words("热泵在寒冷 climates") == 6


@pytest.mark.parametrize("text,lang", [
    ("The sources say that the trees cool the street and this is the case for most of the cities.", "en"),
    ("Selon la source, la plantation d'un arbre coûte entre 1 000 et 3 000 euros pour une ville et plus.", "fr"),
    ("Die Bäume kühlen die Straße, und das ist nicht für alle Städte der Fall mit den Kosten.", "de"),
    ("行道树可以在夏天降低街道的气温，效果取决于树冠。", "zh"),
    ("ok", None),
])
def test_language_detection(text, lang):
    assert detect_language(text) == lang


def test_behaviour_checks_pass_and_fail_on_what_the_run_did(tmp_path):
    run = RunFolder.load(make_run(tmp_path / "run"))
    c = checks.evaluate_run(run)
    expect = {"no_invented_citations": True, "sources_disagree": True, "language": "en", "min_citations": 4,
              "mentions_any": ["euros"], "says_not_found": False, "brief_revised": True, "clarification": False}
    got = {b["name"]: b["passed"] for b in check_expectations(
        expect, status="completed", clarification=None, brief_rounds=1, report_text=run.linked_md, checks=c)}
    assert got == {"no_invented_citations": False, "sources_disagree": True, "language": True,
                   "min_citations": True, "mentions_any": True, "says_not_found": True, "brief_revised": True,
                   "clarification": True, "completes": True}
    waiting = check_expectations({"clarification": True}, status="needs_clarification",
                                 clarification="Which cooling?", brief_rounds=0, report_text=None, checks=None)
    assert [(b["name"], b["passed"]) for b in waiting] == [("clarification", True)]
    none = check_expectations({"says_not_found": True}, status="failed", clarification=None, brief_rounds=0,
                              report_text=None, checks=None)
    assert [(b["name"], b["passed"]) for b in none] == [("completes", False), ("says_not_found", False)]


def test_the_shipped_behaviour_set_loads():
    qs = load_questions(Path(__file__).parents[2] / "examples" / "eval" / "behaviour.jsonl")
    assert {q.id for q in qs} == {"clarify", "brief-approval", "non-english", "not-in-corpus",
                                  "conflicting-sources"}
    assert all(q.expect for q in qs)


@pytest.mark.parametrize("line,message", [
    ('{"id": "a"}', 'has no "question"'),
    ('{"id": "a b", "question": "Q?"}', "the id 'a b' must be ASCII letters, digits, '.', '_' or '-'"),
    ('{"id": "b-中文", "question": "Q?"}', "the id 'b-中文' must be ASCII letters, digits, '.', '_' or '-'"),
    ('{"id": "..", "question": "Q?"}', "the id '..' is made only of dots"),
    ('{"id": "-a", "question": "Q?"}', "the id '-a' must start with an ASCII letter or digit"),
    ('{"id": "é", "question": "Q?"}', "the id 'é' must start with an ASCII letter or digit"),
    ('{"id": "' + "a" * 81 + '", "question": "Q?"}', "has 81 characters (at most 80)"),
    ('{"id": "a", "question": "Q?", "expect": {"langauge": "fr"}}', "unknown expectation(s) 'langauge'"),
    ('{"id": "a", "question": "Q?", "colour": 1}', "unknown key(s) 'colour'"),
    ('{"id": "a", "question": "Q?", "brief_decisions": [{"type": "reject"}]}', "needs non-empty feedback"),
    ('{"id": "a", "question": "Q?"}\n{"id": "a", "question": "R?"}', "is used twice"),
    ('{"id": "a", "question": "Q?", "reference": "missing.md"}', "cannot be read"),
    ('{"id": "a", "question": ', "not valid JSON"),
    # a question file from someone else cannot make every question cost more than its text
    ('{"id": "a", "question": "Q?", "clarification_answer": "' + "x" * 20_001 + '"}', "longer than 20,000"),
    ('{"id": "a", "question": "Q?", "brief_decisions": [{"type": "reject", "feedback": "' + "x" * 20_001
     + '"}]}', "feedback is longer than 20,000"),
    ('{"id": "a", "question": "Q?", "brief_decisions": ' + json.dumps([{"type": "approve"}] * 21) + "}",
     "at most 20 brief decisions"),
    ("", "holds no questions"),
    # as `research` refuses them in a typed question: an escape would reach every output and prompt
    ('{"id": "a", "question": "Q\\u001b]52;c;eA==\\u0007?"}', "contains control characters (0x1b, 0x7)"),
    # and in every other text a question line hands to the terminal or the model
    ('{"id": "a", "question": "Q?", "topic": "T\\u001b[2J"}', '"topic" contains control characters (0x1b)'),
    ('{"id": "a", "question": "Q?", "clarification_answer": "A\\u0007"}',
     '"clarification_answer" contains control characters (0x7)'),
    ('{"id": "a", "question": "Q?", "brief_decisions": [{"type": "reject", "feedback": "F\\u001b]8;;x"}]}',
     "feedback contains control characters (0x1b)"),
])
def test_bad_question_sets_exit_2_with_one_clear_message(tmp_path, capsys, line, message):
    path = tmp_path / "q.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    assert main(["eval", "run", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("error:") == 1
    assert not (tmp_path / "out").exists()


def test_bidi_controls_are_removed_from_a_question_file_as_from_a_chat_message(tmp_path):
    """The question and the clarifying answer of a question file lose their bidirectional
    controls (U+202A-U+202E, U+2066-U+2069) as a typed question and a chat message do; a
    question of nothing else is refused as having no text."""
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps({"id": "a", "question": "\u202eWhy is tea\u2066 green?\u2069",
                                "clarification_answer": "\u202dGreen tea\u202c",
                                "brief_decisions": [{"type": "reject", "feedback": "Shorter\u202e"}]}) + "\n",
                    encoding="utf-8")
    (q,) = load_questions(path)
    assert (q.question, q.clarification_answer) == ("Why is tea green?", "Green tea")
    assert q.brief_decisions == [{"type": "reject", "feedback": "Shorter"}]
    path.write_text(json.dumps({"id": "a", "question": " \u202e\u2066 "}) + "\n", encoding="utf-8")
    with pytest.raises(EvalInputError, match="has no"):
        load_questions(path)


def test_many_runs_are_one_row_each(tmp_path, capsys):
    for n in range(4):
        make_run(tmp_path / f"run-{n}")
    assert main(["eval", "report", str(tmp_path), "--json", str(tmp_path / "r.json")]) == 0
    printed = capsys.readouterr().out
    assert all(f"run-{n}" in printed for n in range(4)) and "FACT acc." in printed
    assert len(json.loads((tmp_path / "r.json").read_text())["runs"]) == 4


def test_many_runs_fit_80_columns_and_keep_their_full_names(tmp_path, capsys):
    """14 figures a row made lines of 100+ columns (names cut to 40 characters); each line
    now fits 80 columns and a long run name is wrapped, not cut."""
    names = [f"2026-11-27-how-much-do-street-trees-cool-streets-and-what-they-cost-{n}" for n in range(4)]
    names.append("2026-11-27-how-much-do-street-trees-cool-streets-and-what-they-cost-in-euros-per-tree-4")
    for name in names:
        make_run(tmp_path / name)
    assert main(["eval", "report", str(tmp_path), "--json", str(tmp_path / "r.json")]) == 0
    printed = capsys.readouterr().out
    assert max(len(line.rstrip()) for line in printed.splitlines()) <= 80, printed
    joined = "".join(line.strip() for line in printed.splitlines())
    assert all(name in joined for name in names), printed
    assert "33.3 %..66.7 %" in printed and "FACT acc." in printed and "2/2/2" in printed


@pytest.mark.parametrize("width", [80, 100])
def test_two_runs_on_a_narrow_terminal_keep_names_that_tell_them_apart(tmp_path, monkeypatch, width):
    """Two runs of one question on one day, at 80 columns: each column heading was cut to
    "2026-11-29-H……", the same for both. A terminal too narrow for the column view gets the
    numbered rows (every name whole); a single run keeps its column with both name ends."""
    from rich.console import Console

    from deep_research.cli import console as cli_console

    names = [f"2026-11-29-How-does-libvirt-live-migration-work-{t}" for t in ("66f7455fa93a", "a7f9189944d2")]
    for name in names:
        make_run(tmp_path / name)

    def shown(*dirs: Path) -> str:
        terminal = Console(width=width, force_terminal=True, record=True, file=open(os.devnull, "w"))
        monkeypatch.setattr(cli_console, "out", terminal)
        assert main(["eval", "report", *map(str, dirs), "--json", str(tmp_path / "r.json")]) == 0
        return terminal.export_text()

    two = shown(tmp_path)
    assert max(len(line.rstrip()) for line in two.splitlines()) <= width, two
    joined = "".join(line.strip() for line in two.splitlines())
    assert all(n in joined for n in names), two
    one = shown(tmp_path / names[1])
    assert "a7f9189944d2" in one and "2026-11-29-H" in one and "citation accuracy (FACT-style)" in one, one


def test_eval_run_refuses_a_sqlite_db_and_unknown_settings(tmp_path, capsys):
    q = tmp_path / "q.jsonl"
    q.write_text('{"id": "a", "question": "Q?"}\n')
    assert main(["eval", "run", str(q), "--out", str(tmp_path / "o"), "--db", str(tmp_path / "x.sqlite")]) == 2
    assert "postgresql://" in capsys.readouterr().err
    settings = tmp_path / "s.json"
    settings.write_text('{"max_researcher_iteration": 2}')
    assert main(["eval", "run", str(q), "--out", str(tmp_path / "o"), "--settings", str(settings)]) == 2
    assert "unknown setting(s) max_researcher_iteration" in capsys.readouterr().err
    settings.write_text('{"max_researcher_iterations": 99}')
    assert main(["eval", "run", str(q), "--out", str(tmp_path / "o"), "--settings", str(settings),
                 "--search", "none", "--base-url", "http://127.0.0.1:9/v1"]) == 2
    assert "question a: invalid configuration" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_a_refused_question_setting_names_its_question_once(tmp_path, capsys):
    q = tmp_path / "q.jsonl"
    q.write_text('{"id": "a", "question": "Q?", "settings": {"model_base_url": "http://169.254.169.254/v1"}}\n')
    assert main(["eval", "run", str(q), "--out", str(tmp_path / "o"), "--search", "none"]) == 2
    err = capsys.readouterr().err
    assert "question a: " in err and "question a: question a:" not in err


def test_a_wrong_question_setting_is_said_before_the_progress_bar_starts(tmp_path, capsys, monkeypatch):
    from deep_research.cli import eval as eval_cli

    started = []
    monkeypatch.setattr(eval_cli.EvalProgress, "__enter__", lambda self: started.append(self) or self)
    q = tmp_path / "q.jsonl"
    q.write_text('{"id": "a", "question": "Q?", "settings": {"max_researcher_iterations": "many"}}\n')
    assert main(["eval", "run", str(q), "--out", str(tmp_path / "o"), "--search", "none"]) == 2
    assert "question a: " in capsys.readouterr().err
    assert not started


def test_bad_run_folders_exit_2(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["eval", "report", str(tmp_path / "empty")]) == 2
    assert "no published run folder" in capsys.readouterr().err
    bad = make_run(tmp_path / "bad")
    (bad / "audit.json").write_text("{not json", encoding="utf-8")
    assert main(["eval", "report", str(bad), "--json", str(tmp_path / "x.json")]) == 2
    assert "is not valid JSON" in capsys.readouterr().err
    with pytest.raises(EvalInputError, match="missing citations.json"):
        (tmp_path / "half").mkdir()
        (tmp_path / "half" / "report.md").write_text("# x\n")
        (tmp_path / "half" / "audit.json").write_text("{}")
        RunFolder.load(tmp_path / "half")
    assert main(["eval", "judge", str(bad)]) == 2


@pytest.mark.parametrize("server", [[], ["--server", "http://127.0.0.1:9"]])
def test_an_output_folder_for_an_evaluation_is_refused_not_dropped(tmp_path, capsys, server):
    """An eval settings file's output_dir was replaced by OUT/runs/<id> (and dropped before a
    run on a server) without a word, as was a question's with --allow-question-setting
    output_dir: both are exit 2 naming the folder typed and where the runs go, before any
    question is sent."""
    good = tmp_path / "good.jsonl"
    good.write_text('{"id": "a", "question": "q"}\n', encoding="utf-8")
    settings = tmp_path / "settings.json"
    settings.write_text('{"output_dir": "/srv/reports", "max_researcher_iterations": 1}', encoding="utf-8")
    out = tmp_path / "ev"
    assert main(["eval", "run", str(good), "--settings", str(settings), "--out", str(out), *server]) == 2
    err = capsys.readouterr().err
    assert f"settings file {settings}: output_dir '/srv/reports' is not a setting of an evaluation: every " \
           "question's run is written under --out (OUT/runs/<question id>), also with --server" in " ".join(err.split())
    assert "Traceback" not in err
    assert main(["eval", "run", str(good), "--allow-question-setting", "output_dir", "--out", str(out), *server]) == 2
    err = capsys.readouterr().err
    assert "--allow-question-setting output_dir: not a setting of an evaluation" in " ".join(err.split())
    assert not (out / "runs").exists()


def test_endless_or_huge_evaluation_inputs_are_clear_errors(tmp_path, capsys, monkeypatch):
    """A question set named /dev/zero was read into memory without end, and a JSON
    number of 5,000 digits (in a question set or a run's citations.json) was an internal
    error (exit 1): both are exit 2 with a message naming the file."""
    from deep_research.evaluation import rundir

    monkeypatch.setattr(rundir, "MAX_EVAL_FILE_BYTES", 1 << 20)
    assert main(["eval", "run", "/dev/zero", "--out", str(tmp_path / "ev")]) == 2
    assert "question set /dev/zero is larger than 1 MB" in capsys.readouterr().err
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"id": "a", "question": "q", "note": 1' + "0" * 5000 + "}\n", encoding="utf-8")
    assert main(["eval", "run", str(questions), "--out", str(tmp_path / "ev")]) == 2
    assert f"{questions}, line 1: its JSON holds a number too long to read" in capsys.readouterr().err
    good = tmp_path / "good.jsonl"
    good.write_text('{"id": "a", "question": "q"}\n', encoding="utf-8")
    assert main(["eval", "run", str(good), "--settings", "/dev/zero", "--out", str(tmp_path / "ev")]) == 2
    assert "settings file /dev/zero is larger than 1 MB" in capsys.readouterr().err
    settings = tmp_path / "settings.json"
    settings.write_text('{"max_tokens": 1' + "0" * 5000 + "}", encoding="utf-8")
    assert main(["eval", "run", str(good), "--settings", str(settings), "--out", str(tmp_path / "ev")]) == 2
    assert "its JSON holds a number too long to read" in capsys.readouterr().err
    run = make_run(tmp_path / "run")
    (run / "citations.json").write_text("[" + "1" * 5000 + "]", encoding="utf-8")
    with pytest.raises(EvalInputError, match="citations.json is not usable: its JSON holds a number too long"):
        RunFolder.load(run)
    (run / "citations.json").write_bytes(b" " * (2 << 20))
    with pytest.raises(EvalInputError, match="citations.json is larger than 1 MB"):
        RunFolder.load(run)


def test_a_bad_run_folder_in_a_tree_is_skipped_and_the_search_is_bounded(tmp_path, capsys, monkeypatch):
    from deep_research.evaluation import rundir

    tree = tmp_path / "tree"
    good = make_run(tree / "a" / "good")
    bad = make_run(tree / "a" / "bad")
    (bad / "citations.json").write_text("{not json", encoding="utf-8")
    make_run(tree / ".hidden" / "run")  # hidden folders (.git, .venv, caches) are not searched
    make_run(tree / "b" / "c" / "d" / "e" / "too-deep")
    out = tmp_path / "r.json"
    assert main(["eval", "report", str(tree), "--json", str(out)]) == 0
    err = capsys.readouterr().err
    warnings = [line for line in err.splitlines() if line.startswith("warning:")]
    assert warnings == [f"warning: skipped: citations file {bad / 'citations.json'} is not valid JSON "
                        "(Expecting property name enclosed in double quotes, line 1)"], err
    assert [r["path"] for r in json.loads(out.read_text())["runs"]] == [str(good)]
    # a path whose every run folder is bad has nothing to report: exit 2, naming the path
    assert main(["eval", "report", str(tree / "a" / "bad")]) == 2
    assert f"nothing to report in {tree / 'a' / 'bad'}" in capsys.readouterr().err
    # the search stops at a bound and says so
    for n in range(3):
        make_run(tmp_path / "many" / f"run{n}")
    monkeypatch.setattr(rundir, "MAX_RUN_FOLDERS", 2)
    assert main(["eval", "report", str(tmp_path / "many"), "--json", str(out)]) == 0
    assert "stopped after it found 2 run folders" in capsys.readouterr().err
    assert [Path(r["path"]).name for r in json.loads(out.read_text())["runs"]] == ["run0", "run1"]
    monkeypatch.setattr(rundir, "MAX_FOLDERS_LISTED", 1)
    assert main(["eval", "report", str(tree)]) == 2
    assert f"no published run folder (with report.md, citations.json, audit.json) in {tree} (the search stopped " \
        "after it listed 1 folders)" in capsys.readouterr().err


@pytest.mark.parametrize("run_json", [
    {"usage": {"research": {"input_tokens": "lots"}}},  # token counts as words
    {"usage": {"research": ["not", "a", "record"]}},
    {"plan": [{"topic": "Cooling", "sources": 5}]},  # a plan's sources as a number
], ids=["tokens as words", "usage as a list", "sources as a number"])
def test_a_run_folder_holding_what_no_run_writes_is_skipped_and_named(tmp_path, capsys, run_json):
    """A run folder from elsewhere whose run.json parses but holds the wrong kinds of values:
    `eval report` stopped with "internal error: ValueError: invalid literal for int()" (exit 1)
    and reported none of the good folders beside it; it is skipped with a warning naming it,
    as an unreadable one is, and `eval compare` names it (exit 2)."""
    from deep_research.evaluation.checks import evaluate_run

    good = make_run(tmp_path / "tree" / "good")
    bad = make_run(tmp_path / "tree" / "odd")
    (bad / "run.json").write_text(json.dumps({"question": "q", **run_json}), encoding="utf-8")
    with pytest.raises(EvalInputError, match="its files do not hold what a research run writes"):
        evaluate_run(RunFolder.load(bad))
    out = tmp_path / "r.json"
    assert main(["eval", "report", str(tmp_path / "tree"), "--json", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"warning: skipped: {bad}: its files do not hold what a research run writes" in err, err
    assert [r["path"] for r in json.loads(out.read_text())["runs"]] == [str(good)]
    assert main(["eval", "report", str(bad)]) == 2
    assert f"nothing to report in {bad}" in capsys.readouterr().err
    assert main(["eval", "compare", str(good), str(bad)]) == 2
    assert f"{bad}: its files do not hold what a research run writes" in capsys.readouterr().err


def test_drb_import_and_export_follow_the_formats(tmp_path):
    tasks = tmp_path / "query.jsonl"
    tasks.write_text("\n".join(json.dumps(t, ensure_ascii=False) for t in [
        {"id": 1, "topic": "Finance & Business", "language": "zh", "prompt": "中国中产阶级的规模有多大？"},
        {"id": 2, "topic": "Science & Technology", "language": "en", "prompt": "How do street trees cool cities?"},
        {"id": 3, "topic": "Health", "language": "en", "prompt": "What does a street tree cost?"},
    ]) + "\n", encoding="utf-8")
    refs = tmp_path / "reference.jsonl"
    refs.write_text(json.dumps({"id": 2, "prompt": "x", "article": "# Reference\n\nTrees cool cities."}) + "\n")
    out = tmp_path / "questions.jsonl"
    assert main(["eval", "import-drb", str(tasks), "--out", str(out), "--references", str(refs),
                 "--language", "en"]) == 0
    qs = load_questions(out)
    assert [(q.id, q.source_id, q.topic) for q in qs] == [("2", 2, "Science & Technology"), ("3", 3, "Health")]
    assert qs[0].reference_text.startswith("# Reference") and qs[1].reference_text is None
    assert import_tasks(tasks, tmp_path / "zh.jsonl", language="zh")[0].question.startswith("中国")

    run = RunFolder.load(make_run(tmp_path / "run"))
    article = article_from_run(run)
    assert "](" not in article.split("## Sources")[0]  # bracketed numbers, no inline links
    assert "[1]" in article and "https://city.example.org/trees" in article
    records = export_records([(2, "How do street trees cool cities?", run, "en")])
    assert validate_record(records[0]) == [] and set(records[0]) == {"id", "prompt", "article", "language"}
    # the CLI, matching a run folder to its task by the question text
    (tmp_path / "run" / "run.json").write_text(json.dumps({"question": "What does a street  tree cost?"}))
    raw = tmp_path / "raw" / "ours.jsonl"
    assert main(["eval", "export-drb", str(tmp_path / "run"), "--out", str(raw), "--tasks", str(tasks)]) == 0
    lines = [json.loads(x) for x in raw.read_text(encoding="utf-8").splitlines()]
    assert [(x["id"], x["prompt"]) for x in lines] == [(3, "What does a street tree cost?")]
    assert all(validate_record(x) == [] for x in lines)
    assert validate_record({"id": True, "prompt": "", "article": 3}) == [
        "'id' must be a number or a non-empty text", "'prompt' must be non-empty text",
        "'article' must be non-empty text"]
    assert main(["eval", "export-drb", str(tmp_path / "run"), "--out", str(raw)]) == 2  # no task id known


# --- issue 19: evaluation folders someone hands you ---------------------------------------------
def _eval_folder(root: Path, results: dict[str, dict]) -> Path:
    (root / "results").mkdir(parents=True)
    for name, r in results.items():
        (root / "results" / f"{name}.json").write_text(json.dumps(r) if isinstance(r, dict) else r, encoding="utf-8")
    return root


def test_export_and_compare_never_follow_run_dir_out_of_the_evaluation_folder(tmp_path, capsys):
    """Issue 19: ``export-drb`` and ``compare --judge-model`` followed a result's run_dir
    anywhere on disk (and passed the report found there on to the output or the judge)."""
    elsewhere = make_run(tmp_path / "private" / "secret-run")
    for run_dir in (str(elsewhere), "../private/secret-run", "runs/../../private/secret-run"):
        side = _eval_folder(tmp_path / f"e{len(run_dir)}", {"q1": {
            "id": "q1", "question": "How do street trees cool cities?", "status": "completed",
            "run_dir": run_dir}})
        raw = tmp_path / "raw.jsonl"
        assert main(["eval", "export-drb", str(side), "--out", str(raw)]) == 2
        assert main(["eval", "compare", str(side), str(side), "--out", str(tmp_path / "cmp"),
                     "--judge-model", "openai:judge"]) == 2
        err = capsys.readouterr().err
        assert "run_dir" in err and ("inside" in err or "outside" in err) and "Traceback" not in err
        assert not raw.exists()
    # a run folder inside the evaluation folder is fine
    inside = _eval_folder(tmp_path / "ok", {"q1": {"id": "q1", "question": "Q?", "status": "completed",
                                                   "run_dir": "runs/q1/r"}})
    make_run(inside / "runs" / "q1" / "r")
    assert main(["eval", "export-drb", str(inside), "--out", str(tmp_path / "ok.jsonl")]) == 0


def test_hostile_results_give_clear_errors_and_inert_markdown(tmp_path, capsys):
    """Deeply nested JSON gave "internal error"; result ids went into compare.md as raw HTML
    (and markdown: an image that loads when the file is rendered); absurd numbers and types
    in a result did not hold either."""
    nested = _eval_folder(tmp_path / "nested", {"q1": "[" * 100_000 + "]" * 100_000})
    for args in (["eval", "compare", str(nested), str(nested), "--out", str(tmp_path / "c0")],
                 ["eval", "export-drb", str(nested), "--out", str(tmp_path / "x.jsonl")]):
        assert main(args) == 2
        err = capsys.readouterr().err
        assert "nested too deeply" in err and "internal error" not in err
    q = tmp_path / "q.jsonl"
    q.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    assert main(["eval", "run", str(q), "--out", str(tmp_path / "o")]) == 2
    assert "nested too deeply" in capsys.readouterr().err

    evil = '![t](http://evil.example/t.png)<img src=x onerror=alert(1)>$\\frac{$'
    hostile = {"id": evil, "question": "<script>alert(2)</script>", "status": "completed",
               "checks": [1, 2], "usage": {"tokens": 10**400, "cost_usd": "free"}, "judge": "x",
               "behaviour": [{"passed": True}, "not a check"]}
    a = _eval_folder(tmp_path / "a", {"q1": hostile})
    b = _eval_folder(tmp_path / "b", {"q1": {**hostile, "usage": {"tokens": 5}}})
    assert main(["eval", "compare", str(a), str(b), "--out", str(tmp_path / "cmp")]) == 0
    md = (tmp_path / "cmp" / "compare.md").read_text()
    assert "<img" not in md and "<script" not in md and not re.search(r"(?<!\\)\]\(http", md)
    assert "&lt;img" in md and "!\\[t\\](http://evil.example/t.png)" in md
    page = (tmp_path / "cmp" / "compare.html").read_text()
    assert "<img" not in page and "&lt;img src" in page and not re.search(r"(?:src|href)\s*=\s*[\"']?https?:", page)


def test_compare_names_each_question_by_what_it_asked(tmp_path):
    """The per-question table showed ids only ("q1", "q2"): a reader could not tell the rows
    apart without opening the question file. Now id and question, shortened; the id alone
    when there is no question."""
    a = _eval_folder(tmp_path / "a", {
        "q1": {"id": "q1", "question": "How much do  cold-climate heat pumps save in a Nordic winter, against gas boilers?",
               "status": "completed"},
        "q2": {"id": "q2", "question": "", "status": "completed"}})
    b = _eval_folder(tmp_path / "b", {
        "q1": {"id": "q1", "question": "How much do  cold-climate heat pumps save in a Nordic winter, against gas boilers?",
               "status": "completed"},
        "q2": {"id": "q2", "question": "", "status": "completed"}})
    assert main(["eval", "compare", str(a), str(b), "--out", str(tmp_path / "cmp")]) == 0
    md = (tmp_path / "cmp" / "compare.md").read_text(encoding="utf-8")
    table = md.split("## Per question", 1)[1]
    rows = [line for line in table.splitlines() if line.startswith(("| q1", "| q2"))]
    assert len(rows) == 2, table
    assert rows[0].startswith("| q1: How much do cold-climate heat pumps save in a Nordic"), rows[0]
    assert rows[0].split("|")[1].strip().endswith("…")
    assert rows[1].split("|")[1].strip() == "q2"


def test_a_runs_coverage_is_the_number_the_cli_and_compare_show(tmp_path):
    """The research plan's coverage as the run recorded it, the same in eval report, in the
    CLI's summary line and in compare (not the topics' or the brief's estimate)."""
    from deep_research.cli.compare import run_metrics
    from deep_research.cli.research import coverage_lines

    folder = make_run(tmp_path / "run")
    record = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    record["coverage"] = {"score": 0.6, "rounds": 2, "stopped_because": "coverage", "items": [
        {"id": "q1", "question": "How much cooler?", "priority": "high", "covered": True, "evidence": 3},
        {"id": "q2", "question": "What does it cost?", "priority": "medium", "covered": False, "evidence": 1}]}
    (folder / "run.json").write_text(json.dumps(record), encoding="utf-8")
    s = checks.evaluate_run(RunFolder.load(folder))["synthesis"]
    assert s["coverage"] == 0.6 and s["coverage_basis"] == "research plan"
    assert [i["covered"] for i in s["coverage_items"]] == [True, False]
    assert run_metrics(record, 1.0, "t")["coverage"] == 0.6
    assert coverage_lines(record["coverage"])[0].startswith("Coverage: 60% of the research plan")


def test_eval_outputs_go_to_the_evaluated_folder_not_the_working_folder(tmp_path, monkeypatch, capsys):
    runs = tmp_path / "reports"
    one, two = make_run(runs / "a"), make_run(runs / "b")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    assert main(["eval", "report", str(one)]) == 0
    assert (one / "eval-report.json").is_file()
    assert main(["eval", "report", str(one), str(two)]) == 0
    assert json.loads((runs / "eval-report.json").read_text(encoding="utf-8"))["runs"][1]["path"] == str(two)
    assert main(["eval", "compare", str(one), str(two)]) == 0
    assert (runs / "eval-compare-a-vs-b" / "compare.html").is_file()
    assert list(work.iterdir()) == []
    assert "Wrote " + str(runs / "eval-report.json") in " ".join(capsys.readouterr().out.split())


def test_compare_charts_read(tmp_path):
    """The legend covers no bar and no value, a missing value says n/a (not a bar of 0), and a
    metric with nothing to show (no priced model: cost 0 everywhere) gets a note, not an
    empty axis."""
    import matplotlib.pyplot as plt

    from deep_research.evaluation import compare as C

    labels = ["cold-climate-heat-pumps-performance", "street-trees", "q3"]
    fig = C.chart_figure("Citation accuracy", labels, [0.63, 0.95, None], [0.96, 1.0, 0.74], ("A: x", "B: y"), "pct")
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        ax = fig.axes[0]
        legend = ax.get_legend().get_window_extent(renderer)
        bars = [p.get_window_extent(renderer) for p in ax.patches if p.get_width() > 0]
        texts = [t for t in ax.texts]
        assert bars and not any(legend.overlaps(b) for b in bars)
        assert not any(legend.overlaps(t.get_window_extent(renderer)) for t in texts)
        assert [t.get_text() for t in texts].count("n/a") == 1
        assert "cold-climate-heat-pumps-performance" in [t.get_text() for t in ax.get_yticklabels()]
        assert ax.get_xticklabels()[-1].get_text().endswith("%")
    finally:
        plt.close(fig)
    a = C.Side("a", {"q": {"question": "q", "tokens": 10.0, "cost_usd": 0.0}})
    b = C.Side("b", {"q": {"question": "q", "tokens": 12.0, "cost_usd": None}})
    cmp = C.Comparison(a, b, [("q", a.records["q"], b.records["q"])], [])
    assert set(cmp.charts()) == {"tokens"}
    assert cmp.chart_notes() == ["Cost (USD): no chart, no model of either side has a known price."]
    files = C.write_comparison(cmp, tmp_path / "cmp")
    assert "no model of either side has a known price" in files["html"].read_text(encoding="utf-8")
    assert not (tmp_path / "cmp" / "charts" / "cost_usd.svg").exists()


def test_names_in_the_terminal_tables_are_not_rich_markup(tmp_path, capsys):
    """Beyond the list: a run folder named "[link=https:…]…" became a hyperlink in the
    terminal's table; names are shown as they are."""
    runs = tmp_path / "runs"
    for name in ("[link=https:evil]y[red]z", "[bold]b"):
        make_run(runs / name)
    assert main(["eval", "report", str(runs), "--json", str(tmp_path / "r.json")]) == 0
    shown = capsys.readouterr().out
    assert "[link=https:evil]y[red]z" in shown and "[bold]b" in shown, shown


def test_a_small_cost_axis_writes_each_tick_once():
    """Costs under a cent: the axis writes as many decimals as its tick step needs, so no two
    ticks read the same ($0.001, $0.001 for 0.0005 and 0.001)."""
    import matplotlib.pyplot as plt

    from deep_research.evaluation import compare as C

    fig = C.chart_figure("Cost (USD)", ["q1", "q2"], [0.0036, 0.0012], [0.0036, None], ("A: a", "B: b"), "usd")
    try:
        fig.canvas.draw()
        ticks = [t.get_text() for t in fig.axes[0].get_xticklabels() if t.get_text()]
        assert len(ticks) > 2 and len(set(ticks)) == len(ticks), ticks
        assert all(t.lstrip("\\").startswith("$") for t in ticks), ticks
    finally:
        plt.close(fig)


def test_accuracy_point_figure_stands_for_the_report_only_when_the_range_is_narrow():
    from deep_research.evaluation.checks import accuracy_figures
    from deep_research.evaluation.summary import accuracy_text

    # 40 statements, all correct, 5 proven supported, 3 wrongly flagged, 32 grey: the point
    # figure (62.5 %) is far from the truth (100 %); the range (12.5 % .. 92.5 %) holds it
    f = accuracy_figures(5, 3, 40)
    assert f["accuracy"] == 0.625 and (f["accuracy_strict"], f["accuracy_upper"]) == (0.125, 0.925)
    assert f["accuracy_margin"] == 0.5 and f["accuracy_representative"] is False
    text = accuracy_text(f)
    assert text.startswith("between 12.5 % and 92.5 %") and "not a figure for the report" in text
    # nearly everything proven: the point figure stands
    g = accuracy_figures(36, 3, 40)
    assert g["accuracy_margin"] <= 0.05 and g["accuracy_representative"] is True
    assert accuracy_text(g) == "92.3 %"
    # nothing proven: no point figure, and never "representative"
    assert accuracy_figures(0, 0, 4)["accuracy"] is None and not accuracy_figures(0, 0, 4)["accuracy_representative"]


def test_summary_keeps_the_range_of_all_tasks():
    from deep_research.evaluation.summary import judge_words_text, summarise

    def done(sup, uns, n):
        return {"status": "completed", "checks": {"fact": {"supported": sup, "unsupported": uns, "statements": n}}}

    s = summarise([done(5, 3, 40), done(0, 0, 10)])
    assert s["fact_accuracy"] == 0.625 and s["fact_accuracy_strict"] == 0.1 and s["fact_accuracy_upper"] == 0.94
    assert s["fact_accuracy_representative"] is False
    assert s["fact_unknown_judge_supported"] == 0 and judge_words_text(s) == ""


def test_summary_says_what_a_judge_called_the_unchecked_statements_apart_from_the_accuracy():
    from deep_research.evaluation.summary import summarise, summary_markdown

    def done(sup, uns, n, yes, no):
        return {"id": "q", "status": "completed", "checks": {"fact": {
            "supported": sup, "unsupported": uns, "statements": n, "unknown_judge_supported": yes,
            "unknown_judge_differs": no, "unknown_no_judge": n - sup - uns - yes - no}}}

    s = summarise([done(2, 1, 10, 5, 1), done(1, 0, 4, 2, 0)])
    assert (s["fact_unknown_judge_supported"], s["fact_unknown_judge_differs"], s["fact_unknown_no_judge"]) == (7, 1, 2)
    assert s["fact_accuracy"] == 0.75  # proven verdicts only: the judge's word does not move it
    text = summary_markdown([], s)
    assert "a judge called 7 of them supported and 1 different: its word, not proof" in text


def test_evaluation_json_files_show_controls_of_a_handed_over_run_as_escapes(tmp_path):
    """A run folder or question set may come from someone else: its question (run.json)
    holds C1 controls and bidi overrides that JSON writes raw. eval-report.json,
    compare.json and the DeepResearch Bench export write them as escapes (the same values),
    as citations.json does, so printing the file never acts on them."""
    hostile = "\x9b2J \u202etxet\u202c \x85"
    question = f"How much do street trees cool streets? {hostile}"
    runs = []
    for name in ("a", "b"):
        run = make_run(tmp_path / name / "runs" / "q1" / "r")
        record = json.loads((run / "run.json").read_text(encoding="utf-8"))
        (run / "run.json").write_text(json.dumps({**record, "question": question}, ensure_ascii=False),
                                      encoding="utf-8")
        _eval_folder(tmp_path / name, {"q1": {"id": "q1", "question": question, "status": "completed",
                                              "run_dir": "runs/q1/r"}})
        runs.append(run)
    written = [tmp_path / "report.json", tmp_path / "cmp" / "compare.json", tmp_path / "drb.jsonl"]
    assert main(["eval", "report", str(runs[0]), "--json", str(written[0])]) == 0
    assert main(["eval", "compare", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(tmp_path / "cmp")]) == 0
    assert main(["eval", "export-drb", str(tmp_path / "a"), "--out", str(written[2])]) == 0
    acting = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
    for path in written:
        text = path.read_text(encoding="utf-8")
        assert "\\u202etxet" in text, path.name  # shown as an escape, not dropped
        assert not acting.findall(text), (path.name, sorted(set(acting.findall(text))))
        values = [json.loads(line) for line in text.splitlines()] if path.suffix == ".jsonl" else [json.loads(text)]
        assert question in json.dumps(values, ensure_ascii=False), path.name


def test_the_eval_run_table_keeps_every_figure_at_80_columns():
    """eval run's table of 12 columns in a terminal of 80: Rich cut every figure to one
    character and an ellipsis ("3…" tokens, "$…" cost). Each figure is printed whole, in
    rows that fit 80 columns."""
    from rich.console import Console

    from deep_research.cli.eval import results_table

    def result(qid: str) -> dict:
        return {"id": qid, "question": "How much do street trees cool streets?", "status": "completed",
                "seconds": 5.2, "usage": {"tokens": 30_982, "cost_usd": 0.0123},
                "checks": json.loads(GOLDEN.read_text(encoding="utf-8")),
                "judge": {"score": 80}, "behaviour": [{"passed": True}, {"passed": False}]}

    results = [result("cold"), result("a-question-id-that-is-rather-long-for-a-table")]
    console = Console(width=80, record=True)
    console.print(results_table(results))
    printed = console.export_text()
    assert max(len(line.rstrip()) for line in printed.splitlines()) <= 80, printed
    assert "…" not in printed, printed
    for figure in ("completed", "30,982", "$0.0123", "5.2", "1/2", "cold"):
        assert figure in printed, (figure, printed)
    assert "a-question-id-that-is" in printed and "table" in printed  # a long id is wrapped, never cut


def test_a_judge_base_url_that_is_no_url_exits_2_naming_the_option(tmp_path, capsys):
    """--judge-base-url 'not a url' went to the HTTP client: the judgment failed as a
    connection error (exit 1) after its retries."""
    run = make_run(tmp_path / "run")
    assert main(["eval", "judge", str(run), "--judge-model", "openai:judge", "--judge-base-url", "not a url"]) == 2
    err = capsys.readouterr().err
    assert "--judge-base-url: 'not a url' is not an http:// or https:// URL" in err and "Traceback" not in err


def test_a_page_and_its_copy_count_as_one_independent_source(tmp_path):
    # a documentation folder's page and its source text (git-doc's git-push.html and
    # git-push.txt) are one document: the claims' confidence counts them once, and so must
    # the report checks (the synthesis score's diversity) when the run kept its sources
    text = ("Updates remote refs using local refs, while sending objects necessary to complete the given refs. "
            "You can make interesting things happen to a repository every time you push into it.")
    copy = [Source(id="html", url="file:///doc/git-push.html", title="git-push(1)", content=text, format="text"),
            Source(id="txt", url="file:///doc/git-push.txt", title="git-push.txt", content=text, format="text"),
            Source(id="other", url="https://example.org/push", title="Pushing",
                   content="A push sends your commits to another repository.", format="text")]
    report = ("# Pushing\n\nA push updates remote refs from local ones <ref id=\"html\">\"Updates remote refs using "
              "local refs, while sending objects necessary to complete the given refs.\"</ref>, and hooks can "
              "run on each push <ref id=\"txt\">\"You can make interesting things happen to a repository every "
              "time you push into it.\"</ref>; it sends commits <ref id=\"other\">\"A push sends your commits to "
              "another repository.\"</ref>.\n")
    folder = tmp_path / "run"
    publish_report(report, copy, folder, pdf=False)
    assert checks.citation_checks(RunFolder.load(folder), 30)["independent_sources"] == 3  # no texts kept: paths
    (folder / "sources.json").write_text(json.dumps([{"id": s.id, "url": s.url, "title": s.title,
                                                      "content": s.content} for s in copy]), encoding="utf-8")
    got = checks.citation_checks(RunFolder.load(folder), 30)
    assert got["independent_sources"] == 2 and got["sources_cited"] == 3
    # a sources.json that is not a list of sources is left aside, not trusted
    (folder / "sources.json").write_text(json.dumps({"html": text}), encoding="utf-8")
    assert checks.citation_checks(RunFolder.load(folder), 30)["independent_sources"] == 3


def test_compare_of_two_run_folders_keeps_the_end_of_their_names_in_the_headings(tmp_path, capsys, monkeypatch):
    """`eval compare` of two run folders of one question at 80 columns headed its columns
    "2026-11-29-How-does-as…" and "2026-11-29-How-does-asy…": the end of a run folder's
    name, its thread id, is what tells two runs apart. `eval report` keeps start and end."""
    monkeypatch.setenv("COLUMNS", "80")
    stem = "2026-11-29-How-does-asyncio.TaskGroup-handle-exceptions-and-w-"
    a = make_run(tmp_path / "a" / f"{stem}e1bc39965205")
    b = make_run(tmp_path / "b" / f"{stem}d1b03dea319c")
    assert main(["eval", "compare", str(a), str(b), "--out", str(tmp_path / "cmp")]) == 0
    out = capsys.readouterr().out
    assert "e1bc39965205" in out and "d1b03dea319c" in out, out


def test_compare_says_the_accuracy_is_of_proven_claims_and_how_many_are_unchecked(tmp_path):
    """`eval compare` showed "Citation accuracy (FACT-style) (mean) 100.0 %" of a run whose
    `eval report` said "between 76.9 % and 100.0 % (23.1 % unchecked; 100.0 % of the proven
    claims alone, not a figure for the report)": the unchecked share was nowhere."""
    from deep_research.evaluation.compare import compare

    def result(accuracy: float, unchecked: float) -> dict:
        return {"id": "q1", "question": "Q?", "status": "completed",
                "checks": {"fact": {"accuracy": accuracy, "unchecked_share": unchecked}}}

    a = _eval_folder(tmp_path / "a", {"q1": result(1.0, 0.231)})
    b = _eval_folder(tmp_path / "b", {"q1": result(0.9, 0.0)})
    _, rows = compare(a, b).summary_rows()
    by_name = {r[0]: r[1:] for r in rows}
    assert by_name["Citation accuracy (FACT-style, proven claims only) (mean)"] == ["100.0 %", "90.0 %"], rows
    assert by_name["Claims unchecked (not in the accuracy) (mean)"] == ["23.1 %", "0.0 %"], rows


@pytest.mark.parametrize("name", ["report.md", "notes.md", "run.json"])
def test_a_run_file_linked_out_of_its_folder_is_not_read(tmp_path, capsys, name):
    """A run folder someone hands you: report.md (or notes.md, run.json) a link to a file
    outside it (/etc/passwd, a key) is refused by name, not counted, quoted or judged."""
    folder = make_run(tmp_path / "run")
    secret = tmp_path / "elsewhere.txt"
    secret.write_text("# private heading\n\nroot:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    (folder / name).unlink(missing_ok=True)
    (folder / name).symlink_to(secret)
    with pytest.raises(EvalInputError, match="link leading outside its run folder"):
        RunFolder.load(folder)
    code = main(["eval", "report", str(folder), "--json", str(tmp_path / "report.json")])
    err = capsys.readouterr().err
    assert code == 2 and "link leading outside" in err and name in err
    assert "root:x" not in err and not (tmp_path / "report.json").exists()


def test_a_run_file_linked_inside_its_folder_is_read(tmp_path):
    folder = make_run(tmp_path / "run")
    (folder / "copy.md").write_text((folder / "report.md").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "report.md").unlink()
    (folder / "report.md").symlink_to(folder / "copy.md")
    assert RunFolder.load(folder).report_md

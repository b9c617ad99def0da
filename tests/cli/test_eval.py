"""`deep-research eval`'s output as a terminal, a pipe or a file gets it."""

from __future__ import annotations

from deep_research.cli import main
from tests.evaluation.test_checks import make_run


def _widest(text: str) -> int:
    """The widest line of a table (a "Wrote PATH" line is never wrapped: a path stays whole)."""
    return max(len(line) for line in text.splitlines() if not line.startswith("Wrote "))


def test_eval_tables_into_a_pipe_honour_columns(tmp_path, capsys, monkeypatch):
    """Into a pipe, `eval report` and `eval compare` drew their tables 160 columns wide
    whatever COLUMNS said (the rest of the CLI reads it); a COLUMNS that is no width is
    ignored, as before."""
    a, b = make_run(tmp_path / "runs" / "a"), make_run(tmp_path / "runs" / "b")
    widths = {}
    for columns in ("72", None, "wide"):
        if columns is None:
            monkeypatch.delenv("COLUMNS", raising=False)
        else:
            monkeypatch.setenv("COLUMNS", columns)
        assert main(["eval", "report", str(a), str(b), "--json", str(tmp_path / "r.json")]) == 0
        report = capsys.readouterr().out
        assert main(["eval", "compare", str(a), str(b), "--out", str(tmp_path / f"cmp-{columns}")]) == 0
        compare = capsys.readouterr().out
        widths[columns] = (_widest(report), _widest(compare))
    assert max(widths["72"]) <= 72, widths
    assert widths[None] == widths["wide"] and max(widths[None]) > 72, widths


def test_judge_timeout_must_be_a_finite_number_named_as_typed(tmp_path, capsys):
    """--judge-timeout nan was refused as "greater than or equal to 1" and inf was taken."""
    questions = tmp_path / "q.txt"
    questions.write_text("What is tea?\n", encoding="utf-8")
    for typed, said in (("nan", "must be a finite number, not 'nan'"), ("inf", "must be a finite number, not 'inf'"),
                        ("0.5", "must be at least 1, not '0.5'"), ("soon", "must be a number, not 'soon'")):
        assert main(["eval", "run", str(questions), "--out", str(tmp_path / "o"), "--judge-timeout", typed]) == 2
        err = capsys.readouterr().err
        assert "--judge-timeout" in err and said in err, err


def test_the_readmes_eval_report_example_is_what_the_bundled_example_gives(tmp_path, capsys, monkeypatch):
    """README shows `eval report` on the published example at 80 columns; its rows said
    13 / 1 / 4 claims (72.2 % .. 94.4 %) after the claim rules proved one more claim (14 / 1 / 3):
    every row shown there must be a row of today's output."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    block = re.search(r"For the bundled example:\n\n```\n(.*?)```", readme, re.S)
    assert block, "README's eval report example is gone"
    monkeypatch.chdir(root)
    monkeypatch.setenv("COLUMNS", "80")
    run = tmp_path / "example"
    assert main(["publish", "examples/report.md", "--sources", "examples/sources.json", "--out", str(run),
                 "--no-pdf"]) == 0
    capsys.readouterr()
    assert main(["eval", "report", str(run)]) == 0
    shown = capsys.readouterr().out.splitlines()
    missing = [line for line in block.group(1).splitlines() if line not in shown]
    assert not missing, "\n".join(missing)

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

"""main() turns an error into a message and an exit code, not a traceback."""

from __future__ import annotations

import typer

import deep_research.cli as cli


def test_a_bare_typer_exception_is_a_message(monkeypatch, capsys) -> None:
    # typer's own usage errors have show(); a plain TyperException (raised by a command) has not
    def raising(*args, **kwargs):
        raise typer.TyperException("the corpus went away")

    monkeypatch.setattr(cli, "app", raising)
    assert cli.main(["anything"]) == 1
    assert "the corpus went away" in capsys.readouterr().err

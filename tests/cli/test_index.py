"""``deep-research index``: a progress bar on a terminal, nothing of it otherwise."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys


def test_index_shows_a_progress_bar_on_a_terminal_only(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(3):
        (folder / f"p{i}.md").write_text(f"# Page {i}\n\nText {i}.\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "deep_research.cli", "index", str(folder)]
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "DEEP_RESEARCH_ENV_FILE": "none"}
    env.pop("NO_COLOR", None)
    plain = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120, check=False)
    assert plain.returncode == 0 and "Indexed 3 documents" in plain.stdout
    assert "indexing" not in plain.stderr and "3/3" not in plain.stdout + plain.stderr

    primary, secondary = pty.openpty()
    proc = subprocess.Popen(cmd, stdout=secondary, stderr=secondary, env=env)
    os.close(secondary)
    shown = b""
    while select.select([primary], [], [], 60)[0]:
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        shown += chunk
    os.close(primary)
    assert proc.wait(timeout=60) == 0
    text = shown.decode("utf-8", "replace")
    assert "indexing" in text and "3/3" in text and "files" in text and "left" in text, text
    assert "Indexed 3 documents" in text


def test_the_left_out_sentence_wraps_between_words_at_80_columns(tmp_path, monkeypatch):
    """Its 135 characters ran past an 80-column terminal, cut mid-word; into a pipe it stays
    one line (read by scripts). Lines naming a path stay whole either way."""
    from types import SimpleNamespace

    from rich.console import Console

    from deep_research.cli import console as cli_console
    from deep_research.cli.index import _print_index_report

    report = SimpleNamespace(skipped=[], partial=[], rebuilt=False, added=["a.md"], updated=[], unchanged=0,
                             removed=[], unsupported=56, documents=1, index_path=tmp_path / "index.sqlite")
    for terminal in (True, False):
        shown = Console(width=80, force_terminal=terminal, record=True, file=open(os.devnull, "w"))
        monkeypatch.setattr(cli_console, "out", shown)
        _print_index_report(tmp_path, report)
        lines = [ln.rstrip() for ln in shown.export_text().splitlines() if str(tmp_path) not in ln]
        start = next(i for i, ln in enumerate(lines) if ln.startswith("Left out 56 files"))
        if terminal:
            assert len(lines) - start > 1 and all(len(ln) <= 80 for ln in lines), lines
            words = " ".join(lines[start:]).split()
            assert words[-6:] == [".pptx,", ".xlsx,", ".csv,", ".tsv,", ".epub", "files)."], lines
        else:
            assert lines[start].endswith(".tsv, .epub files).") and len(lines[start]) > 80, lines


# `deep-research index` whose every file takes a while to write, and that commits after each
SLOW_INDEX = """
import sys, time
from deep_research.search import local
write = local._write
local._write = lambda *a: (time.sleep(0.05), write(*a))[1]
local.BATCH_SECONDS = 0.0
from deep_research.cli import main
sys.exit(main(["index", *sys.argv[1:]]))
"""


def test_ctrl_c_keeps_what_the_index_holds_and_says_how_to_go_on(tmp_path):
    """Ctrl-C (SIGINT) during `deep-research index` rolled everything back and said only
    "interrupted". It keeps what was indexed, says so and names the command that goes on;
    that command reads only the files not indexed yet."""
    import signal
    import sqlite3
    import time
    from pathlib import Path

    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(200):
        (folder / f"p{i:03}.md").write_text(f"# Page {i}\n\nText {i}.\n", encoding="utf-8")
    index = folder / ".deep-research" / "index.sqlite"
    env = {**os.environ, "DEEP_RESEARCH_ENV_FILE": "none", "COLUMNS": "300",
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen([sys.executable, "-c", SLOW_INDEX, str(folder)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 120
        indexed = 0
        while indexed < 10 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
            try:
                with sqlite3.connect(index, timeout=1) as con:
                    indexed = con.execute("SELECT count(*) FROM documents").fetchone()[0]
            except sqlite3.Error:  # not created yet
                pass
        assert indexed >= 10 and proc.poll() is None, proc.communicate(timeout=60)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    with sqlite3.connect(index) as con:
        kept = con.execute("SELECT count(*) FROM documents").fetchone()[0]
    assert 10 <= kept < 200
    assert f"interrupted: the index keeps the documents indexed so far ({kept} new or updated by this run; it " \
           f"holds {kept}): {index}" in err, err
    assert f"Continue with: deep-research index {folder} (files indexed already are not read again)" in err, err
    assert "Traceback" not in err and "Indexed" not in out
    again = subprocess.run([sys.executable, "-m", "deep_research.cli", "index", str(folder)], capture_output=True,
                           text=True, env=env, timeout=120, check=False)
    assert again.returncode == 0, again.stderr
    assert f"Indexed 200 documents in {folder}: {200 - kept} new, 0 updated, {kept} unchanged." in again.stdout

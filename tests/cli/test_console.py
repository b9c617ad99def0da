"""The CLI's tables at a narrow terminal: a figure is never cut, a node's name folds."""

import re

from rich.console import Console

from deep_research.cli.console import usage_table

USAGE = {name: {"calls": 12, "input_tokens": 1_234_567, "output_tokens": 123_456, "seconds": 123.4,
                "retries": 1, "repairs": 2, "shortened": 3, "cost_usd": 1.2345}
         for name in ["clarify_with_user", "write_research_brief", "supervisor_researcher_compress"]}


def render(width: int) -> str:
    con = Console(width=width, record=True, force_terminal=False)
    con.print(usage_table(USAGE))
    return con.export_text()


def test_every_figure_and_header_stays_whole_at_80_columns():
    text = render(80)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "…" not in text
    for figure in ["1,234,567", "123,456", "123.4", "1.2345", "3,703,701", "370,368", "370.2", "3.7035"]:
        assert figure in text, figure
    assert re.search(r"\bcalls\b.*\bin\b.*\bout\b.*\bretry\b.*\brepair\b.*\bcut\b.*\$", text)
    # the long node name is folded over lines, every letter kept
    assert "supervisor_researcher_compress" in "".join(
        line.split()[0] for line in text.splitlines() if line.strip() and not line.strip()[0].isdigit()
        and line.split()[0] not in {"Tokens", "node", "total"} and not line.strip().startswith("─"))


def test_a_wide_terminal_keeps_each_node_on_one_line():
    text = render(140)
    assert "supervisor_researcher_compress" in text and "…" not in text


# --- errors and warnings at a terminal ----------------------------------------------------------
def _in_terminal(args: list[str], columns: int = 80, env: dict | None = None) -> tuple[int, str]:
    """Run the CLI with a pseudo-terminal of ``columns`` for stdout and stderr: (exit code, text)."""
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import sys
    import termios
    import threading

    main_fd, term_fd = pty.openpty()
    fcntl.ioctl(term_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    extra = env or {}
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR")}
    env.update(TERM="xterm", DEEP_RESEARCH_ENV_FILE="none", **extra)
    proc = subprocess.Popen([sys.executable, "-m", "deep_research.cli", *args], stdin=subprocess.DEVNULL,
                            stdout=term_fd, stderr=term_fd, env=env)
    os.close(term_fd)
    chunks: list[bytes] = []

    def read() -> None:
        while True:
            try:
                data = os.read(main_fd, 65536)
            except OSError:  # the terminal closed: the child exited
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    code = proc.wait(timeout=120)
    reader.join(timeout=10)
    os.close(main_fd)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", b"".join(chunks).decode("utf-8", "replace"))
    return code, text.replace("\r\n", "\n")


def test_an_error_wraps_between_words_at_a_terminal_and_is_one_line_in_a_pipe(tmp_path):
    report, sources = tmp_path / "r.md", tmp_path / "s.json"
    report.write_text("# R\n\nText.\n")
    sources.write_text("[]")
    args = ["publish", str(report), "--sources", str(sources), "--out", str(tmp_path / "o"),
            "--citation-style", "harvard"]
    code, text = _in_terminal(args)
    lines = [line for line in text.splitlines() if line.strip()]
    assert code == 2 and len(lines) >= 2, text
    assert all(len(line) <= 80 for line in lines), lines
    words = "choose one of numbered, apa, mla, ieee, chicago".split()
    assert all(w in " ".join(lines).split() for w in words), lines  # no word cut at a line's end
    import subprocess
    import sys

    piped = subprocess.run([sys.executable, "-m", "deep_research.cli", *args], capture_output=True, text=True,
                           timeout=120, env={**__import__("os").environ, "DEEP_RESEARCH_ENV_FILE": "none"})
    assert piped.returncode == 2
    assert piped.stderr.strip().splitlines() == [
        "error: --citation-style: unknown citation style 'harvard': choose one of numbered, apa, mla, ieee, chicago"]


def test_eval_run_summary_sentences_wrap_between_words_at_a_terminal(tmp_path):
    """The summary of `eval run` at 80 columns: each sentence wrapped between words (its
    citation-accuracy line was 130 columns, broken mid-word by the terminal)."""
    import json
    from pathlib import Path

    from tests.support.scenario import QUESTION, write_corpus

    root = Path(__file__).resolve().parents[2]
    corpus = write_corpus(tmp_path / "corpus")
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"id": "cold", "question": QUESTION}) + "\n")
    code, text = _in_terminal(["eval", "run", str(questions), "--out", str(tmp_path / "out"), "--corpus", str(corpus)],
                              env={"DEEP_RESEARCH_DEPS": "tests.support.cli_deps:deps", "PYTHONPATH": str(root)})
    assert code == 0, text
    lines = [line.split("\r")[-1].rstrip() for line in text.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("Citation accuracy"))
    assert len(lines[start]) <= 80 and len(lines[start + 1]) <= 80, lines[start:start + 2]
    sentence = " ".join(lines[start:start + 2])
    assert "effective citations per task:" in sentence and "statements unchecked" in sentence, sentence

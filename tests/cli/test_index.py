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

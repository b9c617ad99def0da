"""The live progress of a run (deep_research.progress) as plain lines, without a terminal."""

from __future__ import annotations

import io

from rich.console import Console

from deep_research.progress import RunProgress


def lines_for(events: list[dict]) -> list[str]:
    buf = io.StringIO()
    progress = RunProgress(Console(file=buf, width=200), "t1")
    with progress:
        for e in events:
            progress({"kind": "progress", **e})
    return buf.getvalue().splitlines()


def test_a_round_is_a_supervisor_round_and_shows_only_while_research_runs():
    got = lines_for([{"stage": "brief council"}, {"event": "council_round", "round": 2},
                     {"stage": "draft"}, {"stage": "research", "round": 1}, {"event": "search"},
                     {"stage": "research", "round": 2}, {"stage": "final report"}, {"stage": "publish"}])
    stages = [line.split("]")[0] + "]" for line in got]
    assert stages == ["[brief council]", "[draft]", "[research r1]", "[research r2]", "[final report]",
                      "[publish]"]


def test_researchers_running_are_shown_while_they_run_and_never_outside_research():
    got = lines_for([{"stage": "research", "round": 1}, {"event": "researchers_started", "count": 3},
                     {"event": "search"}, {"event": "researchers_finished", "count": 2},
                     {"stage": "research", "round": 2}, {"stage": "final report"}])
    assert [line.split(" sources=")[0] for line in got] == [
        "[research r1] researchers=0", "[research r1] researchers=3", "[research r1] researchers=1",
        "[research r2] researchers=1", "[final report] researchers=0"]

"""The publish node: what a research run writes, and what it says when part of it fails."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from unittest import mock

from deep_research.publish.pdf import PdfWorker
from deep_research.search.local import build_index
from tests.research.test_graph import context, drive, graph_for, start
from tests.support.scenario import full_script, write_corpus


class StalledWorker(PdfWorker):
    """A PDF worker whose child never answers (a report WeasyPrint renders without end),
    with a bound short enough for a test: the real one, 900 s, is the same code."""

    def __init__(self):
        self.timeout = 1.0
        self._job = None
        self.proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")


def test_a_runs_pdf_is_rendered_in_a_bounded_worker_and_one_past_its_bound_is_a_degradation(tmp_path: Path):
    """The run's PDF rendered in the run's own process, with no bound: a report that renders
    without end (hostile or degenerate) held the server's run for ever. It is rendered by a
    worker now, stopped past its bound as `deep-research publish`'s is; the run completes
    with its markdown and HTML and a degradation saying the PDF was not written and why."""
    corpus = write_corpus(tmp_path / "corpus")
    build_index(corpus)
    workers: list[StalledWorker] = []

    def worker() -> StalledWorker:
        workers.append(StalledWorker())
        return workers[-1]

    def in_process(html, path):
        raise AssertionError("the run's PDF was rendered in the run's own process, unbounded")

    with mock.patch("deep_research.research.report.publish_node.PdfWorker", worker), \
            mock.patch("deep_research.publish.publisher.render_pdf", in_process):
        values = asyncio.run(drive(graph_for(full_script(wrong_quote=False), corpus), start(),
                                   context(tmp_path, write_pdf=True))).values
    assert values["status"] == "completed", values.get("errors")
    said = [d["message"] for d in values.get("degradations") or [] if d["stage"] == "publish"]
    assert said == ["PDF not written: RuntimeError: rendering the PDF took more than 1 s and was stopped"], said
    assert len(workers) == 1 and workers[0].proc is None  # stopped, not left running
    outputs = values["outputs"]
    assert "pdf" not in outputs and Path(outputs["html"]).is_file() and Path(outputs["markdown"]).is_file()

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

    CHILD = "import time; time.sleep(120)"

    def __init__(self, *, fallback: bool = True):
        self.timeout, self.fallback = 1.0, fallback
        self._job = None
        self.proc = subprocess.Popen([sys.executable, "-c", self.CHILD], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")


class DyingWorker(StalledWorker):
    """A PDF worker whose child dies before it answers (killed, out of memory)."""

    CHILD = "import sys; sys.stdin.readline(); sys.exit('killed')"


def _run_with_pdf_worker(tmp_path: Path, worker) -> tuple[dict, list[str]]:
    """A run with a PDF whose worker is ``worker``, any render in the run's own process
    refused: (the state's values, the publish step's degradations)."""
    corpus = write_corpus(tmp_path / "corpus")
    build_index(corpus)

    def in_process(html, path):
        raise AssertionError("the run's PDF was rendered in the run's own process, unbounded")

    with mock.patch("deep_research.research.report.publish_node.PdfWorker", worker), \
            mock.patch("deep_research.publish.publisher.render_pdf", in_process), \
            mock.patch("deep_research.publish.pdf.render_pdf", in_process):
        values = asyncio.run(drive(graph_for(full_script(wrong_quote=False), corpus), start(),
                                   context(tmp_path, write_pdf=True))).values
    assert values["status"] == "completed", values.get("errors")
    return values, [d["message"] for d in values.get("degradations") or [] if d["stage"] == "publish"]


def test_a_runs_pdf_is_rendered_in_a_bounded_worker_and_one_past_its_bound_is_a_degradation(tmp_path: Path):
    """The run's PDF rendered in the run's own process, with no bound: a report that renders
    without end (hostile or degenerate) held the server's run for ever. It is rendered by a
    worker now, stopped past its bound as `deep-research publish`'s is; the run completes
    with its markdown and HTML and a degradation saying the PDF was not written and why."""
    workers: list[StalledWorker] = []

    def worker(**kw) -> StalledWorker:
        workers.append(StalledWorker(**kw))
        return workers[-1]

    values, said = _run_with_pdf_worker(tmp_path, worker)
    assert said == ["PDF not written: RuntimeError: rendering the PDF took more than 1 s and was stopped"], said
    assert len(workers) == 1 and workers[0].proc is None  # stopped, not left running
    outputs = values["outputs"]
    assert "pdf" not in outputs and Path(outputs["html"]).is_file() and Path(outputs["markdown"]).is_file()


def _run_with_sources_section(tmp_path: Path, listed: str) -> dict:
    """A run whose writer ends its report with the Sources section ``listed`` (the code
    regenerates it, as its prompt says)."""
    from tests.support.scenario import final_report

    corpus = write_corpus(tmp_path / "corpus")
    build_index(corpus, base_url="http://127.0.0.1:8765/")
    write = final_report(wrong_quote=False)

    def writer(messages):
        return write(messages).replace("- (model list)\n", listed.format(cited="http://127.0.0.1:8765/cold-climates.html"))

    s = full_script(wrong_quote=False)
    s.rules = [r for r in s.rules if r["contains"] != "Write the final research report"]
    s.on("final_report", "Write the final research report", writer, repeat=True)
    return asyncio.run(drive(graph_for(s, corpus), start(), context(tmp_path))).values


def test_a_models_sources_section_naming_what_the_report_does_not_cite_is_said(tmp_path: Path):
    """The model's own Sources section is replaced by the list built from the citations
    (its prompt says so): audit.json alone kept its text, so a source it listed that the
    report does not cite (one it never read, or did not cite) was dropped unsaid. A
    degradation names them now; a list of only the cited sources says nothing."""
    import json

    v = _run_with_sources_section(tmp_path / "a", "1. [Cold climates]({cited})\n"
                                                 "2. Nordic Heat Pump Study (2021), https://made-up.example/study.\n")
    assert v["status"] == "completed", v.get("errors")
    said = [d["message"] for d in v.get("degradations") or [] if "'Sources' section" in d["message"]]
    assert len(said) == 1 and "listed 1 source(s) no citation of the report cites (https://made-up.example/study)" \
        in said[0], said
    audit = json.loads(Path(v["outputs"]["audit"]).read_text())
    assert "https://made-up.example/study" in audit["sources_replaced"]["text"]
    assert "made-up.example" not in Path(v["outputs"]["markdown"]).read_text()
    quiet = _run_with_sources_section(tmp_path / "b", "- Cold climates, {cited}\n")
    assert quiet["status"] == "completed", quiet.get("errors")
    cites = json.loads(Path(quiet["outputs"]["citations"]).read_text())
    assert "http://127.0.0.1:8765/cold-climates.html" in {c["url"].split("#")[0] for c in cites}  # a page the report cites
    assert not [d for d in quiet.get("degradations") or [] if "'Sources' section" in d["message"]]


def test_a_runs_pdf_worker_that_dies_is_a_degradation_not_a_render_in_the_runs_process(tmp_path: Path):
    """A worker whose child died before it answered (a report that exhausted its memory)
    rendered the same report again in the calling process, unbounded: in a research run,
    a server's process. A research run says the PDF was not written instead."""
    _, said = _run_with_pdf_worker(tmp_path, DyingWorker)
    assert said == ["PDF not written: RuntimeError: the PDF worker stopped before it answered (killed)"], said


def test_a_servers_thread_state_keeps_its_report_paths_within_the_report_folder(tmp_path: Path):
    """A server's thread state held its paths (``outputs``, ``run_dir``: /srv/reports/…),
    which its clients read (Studio, ``threads.get_state``). On a server they are relative to
    the report folder (output_dir) now, and name the files written there; the CLI and a
    Python caller (no server run) keep them as written."""
    from langchain_core.messages import HumanMessage

    corpus = write_corpus(tmp_path / "corpus")
    build_index(corpus)

    async def run(thread: str, configurable: dict) -> dict:
        graph = graph_for(full_script(wrong_quote=False), corpus)
        config = {"configurable": {"thread_id": thread, **configurable}}
        async for _ in graph.astream({"messages": [HumanMessage("How do heat pumps work?")]}, config,
                                     context=context(tmp_path)):
            pass
        return (await graph.aget_state(config)).values

    reports = tmp_path / "reports"
    values = asyncio.run(run("server-thread", {"run_id": "run-1"}))
    assert values["status"] == "completed", values.get("errors")
    outputs = values["outputs"]
    assert not [v for v in outputs.values() if str(tmp_path) in str(v)], outputs
    assert values["run_dir"] == outputs["dir"] and "/" not in outputs["dir"] and "server-thread" in outputs["dir"]
    assert outputs["html"] == f"{outputs['dir']}/report.html" and (reports / outputs["html"]).is_file()
    local = asyncio.run(run("cli-thread", {}))["outputs"]
    assert Path(local["dir"]).parent == reports and Path(local["html"]).is_file()

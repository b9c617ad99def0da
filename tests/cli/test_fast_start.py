"""The commands that need no model start without LangChain or LangGraph: ``--help``,
``publish`` and ``index`` run in a fresh interpreter and the test reads which modules it
loaded (a regression shows up as a module name, not as a slower clock)."""

import json
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("langchain", "langchain_core", "langchain_openai", "langgraph", "openai", "tiktoken")

PROBE = """
import json, sys
from deep_research.cli import main
try:
    rc = main(json.loads(sys.argv[1]))
except SystemExit as e:
    rc = e.code
heavy = sorted({m.split('.')[0] for m in sys.modules} & set(json.loads(sys.argv[2])))
print('\\nMODULES=' + json.dumps({'rc': rc, 'heavy': heavy}))
"""


def loaded(args: list[str], cwd: Path) -> dict:
    r = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args), json.dumps(HEAVY)], capture_output=True,
                       text=True, cwd=cwd, timeout=180, env={**os.environ, "DEEP_RESEARCH_ENV_FILE": "none"})
    line = next((ln for ln in r.stdout.splitlines() if ln.startswith("MODULES=")), None)
    assert line, r.stdout + r.stderr
    return json.loads(line.removeprefix("MODULES="))


@pytest.mark.parametrize("args", [["--help"], ["publish", "--help"], ["research", "--help"], ["index", "--help"],
                                  ["eval", "--help"], ["compare", "--help"]])
def test_help_loads_no_model_library(args):
    got = loaded(args, ROOT)
    assert got["rc"] == 0 and got["heavy"] == [], got


@pytest.mark.parametrize("args", [["--help"], ["research", "--help"], ["compare", "--help"], ["eval", "run", "--help"],
                                  ["publish", "--help"], ["index", "--help"], ["eval", "report", "--help"]])
def test_help_loads_neither_rich_nor_pydantic_nor_the_claim_rules(args):
    """What keeps --help under 0.3 s (benchmarks/bench_cli_help.py): the help pages come from
    settings.json and a plain formatter, not from Configuration (pydantic) or Rich; and a limit a
    help page names (eval's run folders) comes without the claim rules (rapidfuzz, ~0.1 s)."""
    r = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args), json.dumps(["rich", "pydantic", "rapidfuzz"])],
                       capture_output=True, text=True, cwd=ROOT, timeout=180,
                       env={**os.environ, "DEEP_RESEARCH_ENV_FILE": "none"})
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("MODULES="))
    got = json.loads(line.removeprefix("MODULES="))
    assert got["rc"] == 0 and got["heavy"] == [], got


def test_publish_loads_no_model_library(tmp_path):
    got = loaded(["publish", str(ROOT / "examples/report.md"), "--sources", str(ROOT / "examples/sources.json"),
                  "--out", str(tmp_path / "out")], tmp_path)
    assert got["rc"] == 0, got
    assert (tmp_path / "out" / "report.pdf").is_file() and (tmp_path / "out" / "citations.json").is_file()
    assert got["heavy"] == [], got


def test_index_loads_no_model_library(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A page\n\nThe index reads this sentence.\n", encoding="utf-8")
    (folder / "b.html").write_text("<html><head><title>B</title></head><body><p>Another sentence here.</p>"
                                   "</body></html>", encoding="utf-8")
    got = loaded(["index", str(folder)], tmp_path)
    assert got["rc"] == 0, got
    assert (folder / ".deep-research" / "index.sqlite").is_file()
    assert got["heavy"] == [], got


def test_the_probe_sees_a_model_library_when_one_is_loaded(tmp_path):
    """The check can fail: a command that builds the research graph does load them."""
    got = loaded(["research", "--help"], ROOT)
    assert got["heavy"] == []
    r = subprocess.run([sys.executable, "-c", "import sys, deep_research.research.graph; "
                        "print(sorted({m.split('.')[0] for m in sys.modules} & {'langgraph', 'langchain_core'}))"],
                       capture_output=True, text=True, cwd=ROOT, timeout=180)
    assert "langgraph" in r.stdout and "langchain_core" in r.stdout, r.stdout + r.stderr


def test_pdf_worker_renders_with_the_same_fetch_policy(tmp_path):
    """The worker process refuses the same URLs the in-process renderer refuses."""
    from deep_research.publish.pdf import PdfWorker

    html = tmp_path / "r.html"
    html.write_text("<html><body><p>Hello worker.</p><img src='file:///etc/passwd'>"
                    "<img src='http://127.0.0.1:9/x.png'></body></html>", encoding="utf-8")
    with PdfWorker() as worker:
        refused = worker.render(html, tmp_path / "r.pdf")
    assert (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF")
    assert "file:///etc/passwd" in refused and "http://127.0.0.1:9/x.png" in refused


def _never_here(html, path):
    raise AssertionError("the PDF was rendered in the caller's process, unbounded")


def test_pdf_worker_that_dies_asks_a_new_worker_once_never_this_process(tmp_path, monkeypatch):
    """A worker whose child dies before it answers rendered the PDF in the caller's own
    process, with no bound (a report that killed the child, or renders without end, held
    `deep-research publish` for ever): a new child is asked once, bounded the same way."""
    from deep_research.publish import pdf as pdfmod

    monkeypatch.setattr(pdfmod, "render_pdf", _never_here)
    html = tmp_path / "r.html"
    html.write_text("<html><body><p>Rendered by a second worker.</p></body></html>", encoding="utf-8")
    with pdfmod.PdfWorker() as worker:
        worker.proc.kill()  # the first child dies before it answers
        worker.proc.wait()
        assert worker.render(html, tmp_path / "r.pdf") == []
    assert (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF")


def test_pdf_worker_that_cannot_run_is_an_error_naming_why(tmp_path, monkeypatch):
    from deep_research.publish import pdf as pdfmod

    monkeypatch.setattr(pdfmod, "render_pdf", _never_here)
    monkeypatch.setattr(pdfmod.sys, "executable", "/bin/false")  # every child exits at once, answering nothing
    html = tmp_path / "r.html"
    html.write_text("<html><body><p>Not rendered.</p></body></html>", encoding="utf-8")
    worker = pdfmod.PdfWorker()
    with pytest.raises(RuntimeError, match="stopped before it answered.*a second worker failed too"):
        worker.render(html, tmp_path / "r.pdf")
    assert worker.error and "second worker" in worker.error and worker.proc is None
    assert not (tmp_path / "r.pdf").exists()
    # a child that cannot even be started (a process limit)
    monkeypatch.setattr(pdfmod.subprocess, "Popen", mock.Mock(side_effect=OSError("Resource temporarily unavailable")))
    no_start = pdfmod.PdfWorker()
    with pytest.raises(RuntimeError, match=r"could not start \(Resource temporarily unavailable\)"):
        no_start.render(html, tmp_path / "r.pdf")


def test_an_early_pdf_worker_is_stopped_when_publish_fails_before_using_it(tmp_path):
    """``deep-research publish`` starts the PDF worker before parsing its options; a usage
    error (here: no --sources) must not leave that worker behind."""
    before = _workers()
    r = subprocess.run([sys.executable, "-m", "deep_research.cli", "publish", str(ROOT / "examples/report.md"),
                        "--out", str(tmp_path / "out")], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2, r.stdout + r.stderr
    assert _workers() == before


def _workers() -> int:
    """PDF worker processes alive on this machine (read from /proc)."""
    n = 0
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            n += b"deep_research.publish.pdf" in cmdline.read_bytes()
        except OSError:
            continue
    return n

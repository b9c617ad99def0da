"""``deep-research eval run`` as a user runs it: the shipped behaviour question set over its
corpus with the scripted model (DEEP_RESEARCH_DEPS), the judge, resuming an interrupted
evaluation, and comparing two evaluations (markdown, HTML with inline SVG charts)."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from deep_research.evaluation.drb import validate_record
from tests.support.eval_scenario import BEHAVIOUR, CORPUS

ROOT = Path(__file__).resolve().parents[2]
DEPS = {"DEEP_RESEARCH_DEPS": "tests.support.eval_deps:deps"}


def run(*args, env=None, timeout=300):
    full = {k: v for k, v in os.environ.items()
            if k not in ("OPENAI_API_KEY", "TAVILY_API_KEY", "OPENAI_BASE_URL", "DR_INVENT", "DR_KILL_AFTER_REPORTS")}
    full.update(PYTHONPATH=str(ROOT), **DEPS, **(env or {}))
    return subprocess.run([sys.executable, "-m", "deep_research.cli", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, env=full, timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("eval") / "corpus"
    shutil.copytree(CORPUS, folder)  # the index is written next to the documents
    return folder


@pytest.fixture(scope="module")
def behaviour_run(corpus):
    out = corpus.parent / "good"
    r = run("eval", "run", BEHAVIOUR, "--out", out, "--corpus", corpus, "--judge-model", "openai:judge",
            "--concurrency", "3")
    return r, out


def results(out: Path) -> dict:
    return {p.stem: json.loads(p.read_text()) for p in (out / "results").glob("*.json")}


def test_the_behaviour_set_passes(behaviour_run):
    r, out = behaviour_run
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    res = results(out)
    assert set(res) == {"clarify", "brief-approval", "non-english", "not-in-corpus", "conflicting-sources"}
    for qid, x in res.items():
        assert x["status"] == "completed", (qid, x["error"])
        assert x["behaviour"] and all(b["passed"] for b in x["behaviour"]), (qid, x["behaviour"])
    assert res["clarify"]["clarification"].startswith("Which cooling")
    assert res["brief-approval"]["brief_rounds"] == 1 and "costs" in res["brief-approval"]["research_brief"]
    assert res["not-in-corpus"]["checks"]["citations"]["refs"] == 0
    assert res["conflicting-sources"]["checks"]["claims"]["sources_disagree"] >= 1
    # every report got judged, with its cost; the judge saw the clarified task
    assert all(x["judge"]["error"] is None and 0 <= x["judge"]["overall"] <= 100 for x in res.values())
    assert all(x["judge"]["usage"]["calls"] == 1 for x in res.values())
    # code checks and the table agree with the files
    summary = json.loads((out / "summary.json").read_text())["summary"]
    assert summary["completed"] == 5 and summary["behaviour_passed"] == summary["behaviour_checks"] == 19
    assert summary["tokens"] == sum(x["usage"]["tokens"] for x in res.values()) > 0
    assert re.search(r"Behaviour checks passed: 19 of 19", r.stdout)
    assert re.search(r"Judge: 5 call\(s\)", r.stdout)
    assert "| conflicting-sources | completed |" in (out / "summary.md").read_text()
    for x in res.values():
        run_dir = out / x["run_dir"]
        assert (run_dir / "report.md").is_file() and (run_dir / "run.json").is_file()
        assert not (run_dir / "report.pdf").exists()  # no PDFs unless asked


def test_a_second_run_skips_finished_questions(behaviour_run, corpus):
    _, out = behaviour_run
    before = {p.name: p.stat().st_mtime_ns for p in (out / "results").glob("*.json")}
    r = run("eval", "run", BEHAVIOUR, "--out", out, "--corpus", corpus, "--judge-model", "openai:judge")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("already done") == 5
    assert {p.name: p.stat().st_mtime_ns for p in (out / "results").glob("*.json")} == before
    # other settings in the same folder are refused (results would not be comparable)
    r = run("eval", "run", BEHAVIOUR, "--out", out, "--corpus", corpus, "--test-mode")
    assert r.returncode == 2 and "other settings" in r.stderr and "test_mode" in r.stderr


def test_invented_citations_fail_the_behaviour_checks(corpus):
    out = corpus.parent / "invent"
    q = corpus.parent / "two.jsonl"
    q.write_text("\n".join(line for line in BEHAVIOUR.read_text().splitlines()
                           if '"conflicting-sources"' in line or '"not-in-corpus"' in line) + "\n")
    r = run("eval", "run", q, "--out", out, "--corpus", corpus, env={"DR_INVENT": "1"})
    assert r.returncode == 1, r.stdout + r.stderr
    res = results(out)
    failed = {b["name"] for b in res["conflicting-sources"]["behaviour"] if not b["passed"]}
    assert failed == {"no_invented_citations"}
    assert all(b["passed"] for b in res["not-in-corpus"]["behaviour"])
    assert res["conflicting-sources"]["checks"]["fact"]["accuracy"] < 1
    assert "conflicting-sources: no_invented_citations" in (out / "summary.md").read_text()


def test_an_interrupted_evaluation_resumes_where_it_stopped(corpus):
    out = corpus.parent / "resume"
    q = corpus.parent / "three.jsonl"
    q.write_text("\n".join(line for line in BEHAVIOUR.read_text().splitlines()
                           if '"clarify"' not in line and '"brief-approval"' not in line) + "\n")
    killed = run("eval", "run", q, "--out", out, "--corpus", corpus, "--concurrency", "1",
                 env={"DR_KILL_AFTER_REPORTS": "1"})
    assert killed.returncode != 0
    done = results(out)
    assert len(done) == 2  # the French report and the no-evidence one were written before the kill
    progress = {p.stem: json.loads(p.read_text()) for p in (out / "progress").glob("*.json")}
    interrupted = [k for k in progress if k not in done]
    assert len(interrupted) == 1
    thread = progress[interrupted[0]]["thread_id"]

    r = run("eval", "run", q, "--out", out, "--corpus", corpus, "--concurrency", "1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("already done") == 2
    assert f"resuming thread {thread}" in r.stdout
    res = results(out)
    assert len(res) == 3 and all(x["status"] == "completed" for x in res.values())
    assert res[interrupted[0]]["thread_id"] == thread  # continued from its checkpoint, not restarted


def test_compare_two_evaluations_and_export(behaviour_run, corpus, tmp_path):
    _, good = behaviour_run
    bad = corpus.parent / "invent"
    if not (bad / "results").is_dir():
        pytest.skip("needs test_invented_citations_fail_the_behaviour_checks")
    r = run("eval", "compare", good, bad, "--out", tmp_path / "cmp", "--judge-model", "openai:judge")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "question(s) answered on one side only are left out" in r.stderr
    page = (tmp_path / "cmp" / "compare.html").read_text()
    assert page.count("<svg") >= 5 and "<script" not in page.lower()
    assert not re.search(r"""(?:src|href)\s*=\s*["']https?:""", page)
    md = (tmp_path / "cmp" / "compare.md").read_text()
    assert "| conflicting-sources: " in md and "![Tokens](charts/tokens.svg)" in md
    data = json.loads((tmp_path / "cmp" / "compare.json").read_text())
    assert {x["key"] for x in data["questions"]} == {"conflicting-sources", "not-in-corpus"}
    verdict = next(x for x in data["questions"] if x["key"] == "conflicting-sources")["pairwise"]
    assert verdict["overall"] == "B" and verdict["error"] is None  # B has one more (invented) citation
    # export both sides for DeepResearch Bench
    raw = tmp_path / "raw.jsonl"
    r = run("eval", "export-drb", good, "--out", raw)
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in raw.read_text().splitlines()]
    assert len(lines) == 5 and all(validate_record(x) == [] for x in lines)
    assert {x["id"] for x in lines} == set(results(good))


def test_judge_and_ab_on_run_folders(behaviour_run, tmp_path):
    _, out = behaviour_run
    res = results(out)
    a, b = out / res["conflicting-sources"]["run_dir"], out / res["clarify"]["run_dir"]
    r = run("eval", "judge", a, "--judge-model", "openai:judge", "--json", tmp_path / "j.json")
    assert r.returncode == 0, r.stdout + r.stderr
    j = json.loads((tmp_path / "j.json").read_text())["runs"][0]
    assert j["overall"] > 0 and set(j["criteria"]) == {"comprehensiveness", "insight", "instruction_following",
                                                       "readability"}
    r = run("eval", "ab", a, b, "--judge-model", "openai:judge", "--json", tmp_path / "ab.json")
    assert r.returncode == 2 and "different questions" in r.stderr
    r = run("eval", "ab", a, b, "--judge-model", "openai:judge", "--question", "Street trees?",
            "--json", tmp_path / "ab.json")
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads((tmp_path / "ab.json").read_text())["overall"] in ("A", "B", "tie")
    r = run("eval", "judge", a)
    assert r.returncode == 2 and "--judge-model" in r.stderr


def test_the_python_api(corpus, tmp_path):
    import asyncio

    from deep_research.evaluation import evaluate
    from deep_research.research.runtime.deps import Deps
    from deep_research.evaluation.runner import run_question_set
    from tests.support.eval_scenario import behaviour_script
    from tests.support.scripted import scripted_factory

    q = tmp_path / "one.jsonl"
    q.write_text(next(line for line in BEHAVIOUR.read_text().splitlines() if '"non-english"' in line) + "\n")
    events = []
    results, summary = asyncio.run(run_question_set(
        q, tmp_path / "out", context={"search_api": "local", "corpus_path": str(corpus), "write_pdf": False},
        judge_model="openai:judge", deps=Deps(model_factory=scripted_factory(behaviour_script())),
        on_event=events.append))
    assert [r["status"] for r in results] == ["completed"] and summary["behaviour_passed"] == 4
    assert results[0]["judge"]["overall"] > 0
    assert {e["kind"] for e in events} >= {"start", "usage", "stage", "done"}
    checked = evaluate(tmp_path / "out")
    assert len(checked) == 1 and checked[0]["fact"] == results[0]["checks"]["fact"]


def test_a_result_file_past_the_bound_is_not_read_whole(tmp_path, monkeypatch):
    """A result file of the evaluation folder made a link to /dev/zero was read without
    end: result and progress files are read up to rundir.MAX_EVAL_FILE_BYTES, and one
    larger is unusable (None), as a broken one is."""
    from deep_research.evaluation import rundir, runner

    monkeypatch.setattr(rundir, "MAX_EVAL_FILE_BYTES", 1 << 20)
    big = tmp_path / "big.json"
    big.write_text('{"id": "a", "pad": "' + "x" * (2 << 20) + '"}', encoding="utf-8")
    small = tmp_path / "small.json"
    small.write_text('{"id": "a"}', encoding="utf-8")
    assert runner._read(big) is None
    assert runner._read(small) == {"id": "a"}
    assert runner._read(Path("/dev/zero")) is None


def test_the_setup_check_names_the_options_typed_and_a_questions_own_settings(tmp_path):
    """eval run's setup check (before any cost) names a setting given as an option as the
    user typed it (--url), as research does, and one a question sets itself by the name the
    question file gave it (its research_model wins over --research-model)."""
    q = tmp_path / "one.jsonl"
    q.write_text(json.dumps({"id": "q1", "question": "What is tea?",
                             "settings": {"research_model": "nosuchprovider:y"}}) + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("TAVILY_API_KEY", "OPENAI_BASE_URL")}
    env.update(PYTHONPATH=str(ROOT), OPENAI_API_KEY="k")  # the product's own deps
    r = subprocess.run([sys.executable, "-m", "deep_research.cli", "eval", "run", str(q), "--out",
                        str(tmp_path / "out"), "--search", "none", "--url", "ftp://example.com/a",
                        "--research-model", "nosuchprovider:x", "--compression-model", "nosuchprovider:z",
                        "--allow-question-setting", "research_model"],
                       capture_output=True, text=True, cwd=ROOT, env=env, timeout=300, stdin=subprocess.DEVNULL)
    assert r.returncode == 2, (r.stdout, r.stderr)
    text = " ".join(r.stderr.split())
    assert "question q1: the run cannot start" in text, text
    assert "- --url: " in text and "only http:// and https:// URLs" in text, text
    # the question's own setting by its name, the option by the option
    assert "- research_model, --compression-model (nosuchprovider:y, nosuchprovider:z): cannot use this model" \
        in text, text
    assert "nosuchprovider:x" not in text and "research_urls" not in text and "compression_model" not in text
    assert "Traceback" not in text


def test_eval_json_keeps_no_url_password_or_query_secret(tmp_path):
    """OUT/eval.json records the evaluation's settings: a model server's password or key in
    its URL's query is not written there (it was, as typed), and the same settings still
    match on a second run."""
    from deep_research.evaluation.runner import EvalRunner, EvalSettings
    from deep_research.research.runtime.deps import Deps

    url = "https://alice:PW-s3cret@models.example/v1?api_key=K-s3cret&model=m"
    settings = EvalSettings(out=tmp_path / "out", context={"model_base_url": url, "max_total_tokens": 5000})
    EvalRunner([], settings, Deps()).prepare_manifest()
    text = (tmp_path / "out" / "eval.json").read_text()
    assert "s3cret" not in text
    assert json.loads(text)["settings"] == {"model_base_url": "https://alice:***@models.example/v1?api_key=***&model=m",
                                            "max_total_tokens": 5000}
    EvalRunner([], settings, Deps()).prepare_manifest()  # the same settings: accepted again
    other = EvalSettings(out=tmp_path / "out", context={"model_base_url": url.replace("v1", "v2"),
                                                        "max_total_tokens": 5000})
    with pytest.raises(Exception, match="other settings .*model_base_url"):
        EvalRunner([], other, Deps()).prepare_manifest()

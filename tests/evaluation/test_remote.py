"""``deep-research eval run --server``: three questions of the behaviour set (a clarification,
a rejected brief, a French question) researched as runs on a real `langgraph dev`, the
report files collected through its report route, evaluated here: the same results and
summary as the local ``eval run``; resumable; credentials from flags and environment only."""

import json
import shutil
from pathlib import Path

import httpx
import pytest

from tests.evaluation.test_runner import run
from tests.support.devserver import langgraph_dev
from tests.support.eval_scenario import BEHAVIOUR, CORPUS

pytestmark = pytest.mark.server

IDS = ("clarify", "brief-approval", "non-english")
# what may differ between a local and a server run of the same question
PER_RUN = {"seconds", "thread_id", "run_dir", "finished_at", "usage_by_node"}


@pytest.fixture(scope="module")
def evaluations(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("remote")
    corpus = tmp / "corpus"
    shutil.copytree(CORPUS, corpus)
    questions = tmp / "three.jsonl"
    questions.write_text("".join(line + "\n" for line in BEHAVIOUR.read_text().splitlines()
                                 if line.strip() and json.loads(line)["id"] in IDS))
    args = [questions, "--corpus", corpus, "--judge-model", "openai:judge", "--concurrency", "3"]
    local = run("eval", "run", *args, "--out", tmp / "local")
    assert local.returncode == 0, local.stdout + local.stderr
    with langgraph_dev(tmp / "server", "tests.support.eval_dev_graph:graph",
                       auth="deep_research.server.auth:auth") as (base, _):
        remote = run("eval", "run", *args, "--out", tmp / "remote", "--server", base)
        yield {"tmp": tmp, "base": base, "args": args, "local": local, "remote": remote}


def _results(out: Path) -> dict:
    return {p.stem: json.loads(p.read_text()) for p in (out / "results").glob("*.json")}


def _summary(out: Path) -> dict:
    summary = json.loads((out / "summary.json").read_text())["summary"]
    summary.pop("seconds")
    summary["mean"].pop("seconds")
    return summary


TOKEN_KEYS = ("tokens", "input_tokens", "output_tokens")


def _same(a, b, path="") -> None:
    """``a == b``, except token counts, which may differ by 1 %: the brief-approval question runs
    two research units at once, and which of them reads a shared page first (the other is told
    it is known) changes a tool message by a few tokens, in a local run as on a server."""
    if isinstance(a, dict) and isinstance(b, dict):
        assert set(a) == set(b), (path, sorted(set(a) ^ set(b)))
        for k in a:
            if k in TOKEN_KEYS and isinstance(a[k], (int, float)) and isinstance(b[k], (int, float)):
                assert abs(a[k] - b[k]) <= max(0.01 * max(a[k], b[k]), 1), (f"{path}.{k}", a[k], b[k])
            else:
                _same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{path}[{i}]")
    else:
        assert a == b, (path, a, b)


def test_the_same_results_and_summary_as_a_local_run(evaluations):
    tmp, remote = evaluations["tmp"], evaluations["remote"]
    assert remote.returncode == 0, remote.stdout + remote.stderr
    assert "Traceback" not in remote.stderr
    _same(_summary(tmp / "remote"), _summary(tmp / "local"))
    local, served = _results(tmp / "local"), _results(tmp / "remote")
    assert set(served) == set(IDS)
    for qid in IDS:
        a = {k: v for k, v in local[qid].items() if k not in PER_RUN}
        b = {k: v for k, v in served[qid].items() if k not in PER_RUN}
        a["checks"].pop("run"), b["checks"].pop("run")  # the run folder's name holds the thread id
        a["judge"]["usage"].pop("seconds"), b["judge"]["usage"].pop("seconds")
        _same(b, a, qid)
        assert served[qid]["status"] == "completed" and all(x["passed"] for x in served[qid]["behaviour"])
        # the report files came through the server's report route, whole
        folder = tmp / "remote" / served[qid]["run_dir"]
        names = {p.name for p in folder.iterdir()}
        assert {"report.md", "report.linked.md", "report.html", "citations.json", "audit.json", "run.json",
                "notes.md"} <= names and "report.pdf" not in names  # eval runs write no PDF by default
    assert served["clarify"]["clarification"].startswith("Which cooling")
    assert served["brief-approval"]["brief_rounds"] == 1
    eval_json = json.loads((tmp / "remote" / "eval.json").read_text())
    assert eval_json["server"] == evaluations["base"]
    assert "Behaviour checks passed: 12 of 12" in remote.stdout


def test_a_second_run_skips_finished_questions_and_a_lost_result_is_collected_again(evaluations):
    tmp, base, args = evaluations["tmp"], evaluations["base"], evaluations["args"]
    out = tmp / "remote"
    threads = {qid: r["thread_id"] for qid, r in _results(out).items()}
    runs_before = {qid: len(httpx.get(f"{base}/threads/{t}/runs", timeout=30).json()) for qid, t in threads.items()}
    (out / "results" / "non-english.json").unlink()
    shutil.rmtree(out / "runs" / "non-english")
    again = run("eval", "run", *args, "--out", out, "--server", base)
    assert again.returncode == 0, again.stdout + again.stderr
    assert again.stdout.count("already done") == 2
    after = _results(out)
    assert after["non-english"]["thread_id"] == threads["non-english"]  # the same thread, not a new research
    runs_after = {qid: len(httpx.get(f"{base}/threads/{t}/runs", timeout=30).json()) for qid, t in threads.items()}
    assert runs_after == runs_before  # finished threads are collected, not run again
    _same(_summary(out), _summary(tmp / "local"))


def test_server_credentials_and_mistakes(evaluations):
    tmp, base, args = evaluations["tmp"], evaluations["base"], evaluations["args"]
    # a token the server does not know: refused before anything is sent, with the server's reason
    r = run("eval", "run", *args, "--out", tmp / "x1", "--server", base,
            env={"DEEP_RESEARCH_SERVER_TOKEN": "some-token-the-server-does-not-know"})
    assert r.returncode == 2 and "refused the request (401" in r.stderr and "Traceback" not in r.stderr
    assert "some-token-the-server-does-not-know" not in r.stdout + r.stderr
    # a setting the server refuses (its rule, not this machine's) stops the set with the server's reason
    settings = tmp / "private.json"
    settings.write_text(json.dumps({"fetch_allow_private": True}))
    r = run("eval", "run", *args, "--out", tmp / "x5", "--server", base, "--settings", settings)
    assert r.returncode == 2 and "refused the run (403" in r.stderr and "fetch_allow_private" in r.stderr, r.stderr
    # a local evaluation folder is not resumed on a server, nor the other way round
    r = run("eval", "run", *args, "--out", tmp / "local", "--server", base)
    assert r.returncode == 2 and "holds an evaluation run locally" in r.stderr


def test_server_options_come_from_the_user_only(tmp_path):
    from deep_research.errors import UserError
    from deep_research.evaluation.questions import load_questions
    from deep_research.evaluation.remote import Server

    server = Server.from_options("http://127.0.0.1:2024/", None, {"DEEP_RESEARCH_SERVER_TOKEN": "t0ken"})
    assert server.url == "http://127.0.0.1:2024" and server.headers() == {"Authorization": "Bearer t0ken"}
    assert "t0ken" not in repr(server)
    assert Server.from_options("https://r.example", "MY_TOKEN", {"MY_TOKEN": "x"}).token == "x"
    assert Server.from_options("http://127.0.0.1:2024", None, {}).headers() == {}
    with pytest.raises(UserError, match="NO_SUCH_VARIABLE is not set"):
        Server.from_options("http://127.0.0.1:2024", "NO_SUCH_VARIABLE", {})
    for bad in ("ftp://example.com", "http://user:pw@127.0.0.1:1", "not a url", "http://h:99999", "http://h/?a=b"):
        with pytest.raises(UserError, match="--server must be"):
            Server.from_options(bad, None, {})
    # a question file has no place for a server or its token
    sneaky = tmp_path / "sneaky.jsonl"
    sneaky.write_text(json.dumps({"id": "q", "question": "Anything?", "server": "http://evil.example"}) + "\n")
    with pytest.raises(UserError, match="server"):
        load_questions(sneaky)

"""Ctrl-C in a terminal: the run stops at once, says so and names the command that continues
it, and ``resume`` does (scripted model via DEEP_RESEARCH_DEPS, local corpus, SQLite)."""

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import typer

from tests.support.scenario import QUESTION, write_corpus

ROOT = Path(__file__).resolve().parents[2]
SCRIPTED = {"DEEP_RESEARCH_DEPS": "tests.support.cli_deps:deps"}


def _env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "TAVILY_API_KEY", "OPENAI_BASE_URL")}
    env.update(PYTHONPATH=str(ROOT), COLUMNS="80", **SCRIPTED, **extra)
    return env


def _resume(tmp_path: Path, thread: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "deep_research.cli", "resume", thread, *args,
                           "--db", str(tmp_path / "state.sqlite")], capture_output=True, text=True, cwd=ROOT,
                          env=_env(), timeout=300, stdin=subprocess.DEVNULL)


def _interrupt_in_slow_unit(proc: subprocess.Popen, log: Path) -> tuple[str, str]:
    """Ctrl-C once the scripted model's call log shows the slow "costs" unit started (then a
    second, inside its model call); the command's output. The process never outlives this."""
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            if log.exists() and "\tcosts\t" in log.read_text():
                break
            time.sleep(0.2)
        time.sleep(1)  # inside the slow unit's model call
        proc.send_signal(signal.SIGINT)
        return proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_ctrl_c_at_the_brief_approval_prompt_stops_the_run_and_resume_continues_it(tmp_path):
    """asyncio.run's SIGINT handler only cancels the main task, and a task blocked in the
    prompt never noticed: Ctrl-C did nothing until Enter was pressed."""
    import pty

    corpus = write_corpus(tmp_path / "corpus")
    pid, fd = pty.fork()
    if pid == 0:  # the child: the CLI, its terminal the pty
        os.execve(sys.executable, [sys.executable, "-m", "deep_research.cli", "research", QUESTION,
                                   "--corpus", str(corpus), "--approve-brief", "--out", str(tmp_path / "reports"),
                                   "--db", str(tmp_path / "state.sqlite")], _env(TERM="dumb"))
    seen, sent, status = b"", 0.0, None
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            seen += chunk
            if not chunk:
                break
        if not sent and b"Approve this brief?" in seen:
            os.write(fd, b"\x03")  # the terminal turns it into SIGINT
            sent = time.monotonic()
        if sent and time.monotonic() - sent > 60:  # (a loaded machine: saving the thread takes a while)
            break
    done, status = os.waitpid(pid, os.WNOHANG)
    end = time.monotonic() + 20
    while not done and sent and time.monotonic() < end:  # the pty closes a moment before the exit
        time.sleep(0.1)
        done, status = os.waitpid(pid, os.WNOHANG)
    if not done:  # still waiting at the prompt
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    text = seen.decode("utf-8", "replace")
    assert sent, text
    assert done and os.waitstatus_to_exitcode(status) == 130, "Ctrl-C did not stop the run at the prompt:\n" + text
    assert "Traceback" not in text
    thread = re.search(r"Continue it with: deep-research resume (\w+)", text)
    assert thread and "interrupted" in text, text

    r = _resume(tmp_path, thread.group(1), "--approve")
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"Citations: \d+ verified", r.stdout), r.stdout


def test_ctrl_c_during_research_says_how_to_continue_and_resume_finishes(tmp_path):
    """Ctrl-C while researchers ran exited 130 without a word: typer turns KeyboardInterrupt
    into a silent exit."""
    corpus = write_corpus(tmp_path / "corpus")
    log = tmp_path / "calls.log"
    proc = subprocess.Popen([sys.executable, "-m", "deep_research.cli", "research", QUESTION, "--corpus", str(corpus),
                             "--yes", "--out", str(tmp_path / "reports"), "--db", str(tmp_path / "state.sqlite")],
                            cwd=ROOT, env=_env(DR_CALL_LOG=str(log), DR_SLOW_UNIT="costs", DR_SLOW_DELAY="30"),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = _interrupt_in_slow_unit(proc, log)
    assert proc.returncode == 130, out + err
    assert "Traceback" not in err
    assert "interrupted: the run is saved where it stopped." in err, err
    thread = re.search(r"Continue it with: deep-research resume (\w+)", err)
    assert thread and thread.group(1) in out, out + err

    r = _resume(tmp_path, thread.group(1))
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"Citations: \d+ verified", r.stdout), r.stdout


def test_ctrl_c_during_compare_keeps_the_finished_run_and_names_the_one_to_resume(tmp_path):
    """Ctrl-C while compare's second run researched said only "interrupted": the first run's
    numbers were lost (compare.json was written only at the end) and nothing named the thread
    of the run that stopped."""
    import json

    corpus = write_corpus(tmp_path / "corpus")
    log = tmp_path / "calls.log"
    proc = subprocess.Popen([sys.executable, "-m", "deep_research.cli", "compare", QUESTION, "--corpus", str(corpus),
                             "--out", str(tmp_path / "reports"), "--db", str(tmp_path / "state.sqlite"), "--no-pdf"],
                            cwd=ROOT, env=_env(DR_CALL_LOG=str(log), DR_SLOW_UNIT="costs", DR_SLOW_DELAY="30"),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = _interrupt_in_slow_unit(proc, log)  # the multi run's costs unit (single has none)
    assert proc.returncode == 130, out + err
    assert "Traceback" not in err
    assert "interrupted: multi was stopped in its research" in err, err
    multi = re.search(r"multi: thread (\w+)", out)
    assert multi, out
    assert f"Continue the multi run with: deep-research resume {multi.group(1)}" in err, err
    written = list((tmp_path / "reports").glob("compare-*/compare.json"))
    assert len(written) == 1, err
    assert str(written[0]) in err.replace("\n", "")
    record = json.loads(written[0].read_text())
    assert record["interrupted"] == "multi" and record["not_run"] == []
    assert record["runs"]["single"]["status"] == "completed"
    assert record["runs"]["single"]["verified_citations"] > 0
    assert record["runs"]["multi"]["status"] == "interrupted"
    assert record["runs"]["multi"]["thread_id"] == multi.group(1)


def test_ctrl_c_between_compares_runs_names_the_finished_one_and_the_command_to_go_on(tmp_path, monkeypatch,
                                                                                     capfd):
    """Ctrl-C after compare's first run finished, before the second had taken a step, said
    only "interrupted": not that single had finished nor where its report was, and no
    command went on (the second run had no thread yet; resume refused a run with no
    progress). It says all three now, and resume starts the run that had not started."""
    import asyncio
    import json

    from deep_research import cli
    from deep_research.cli import research

    corpus = write_corpus(tmp_path / "corpus")
    for name, value in _env().items():
        monkeypatch.setenv(name, value)
    for name in ("OPENAI_API_KEY", "TAVILY_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    real, started = research._drive, []

    async def drive(handle, *args, **kwargs):
        started.append(handle.thread_id)
        if len(started) == 2:  # Ctrl-C as the second run begins: asyncio.run cancels the task
            raise asyncio.CancelledError
        return await real(handle, *args, **kwargs)

    monkeypatch.setattr(research, "_drive", drive)
    code = cli.main(["compare", QUESTION, "--corpus", str(corpus), "--out", str(tmp_path / "reports"),
                     "--db", str(tmp_path / "state.sqlite"), "--no-pdf"])
    out, err = capfd.readouterr()
    assert code == 130, out + err
    (path,) = (tmp_path / "reports").glob("compare-*/compare.json")
    record = json.loads(path.read_text())
    single = record["runs"]["single"]
    assert single["status"] == "completed" and record["interrupted"] == "multi" and record["not_run"] == ["multi"]
    assert record["threads"] == {"single": started[0], "multi": started[1]}
    lines = err.splitlines()
    assert lines[-4:] == ["interrupted: multi was not started",
                          f"single finished (completed): its report is in {single['report_dir']}",
                          f"The comparison so far is written to {path}",
                          f"Start the multi run with: deep-research resume {started[1]}"], err
    r = _resume(tmp_path, started[1])
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"Run {started[1]} had not started: it starts now." in r.stdout
    assert "Research path: multi" in r.stdout and str(path.parent / "multi") in " ".join(r.stdout.split()), r.stdout


def test_ctrl_c_in_eval_run_records_the_cancellation_before_the_database_closes(tmp_path):
    """Ctrl-C in `eval run` while a node waited for a model server: the graph's stream ended
    before the node it cancelled had written its cancellation, the question's SQLite database
    was closed under it, and the terminal showed "could not record the cancellation of
    write_research_brief in the thread state: ValueError: Connection closed" (the state
    still said running)."""
    import asyncio
    import json
    import threading

    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    from tests.support.openai_server import ScriptServer
    from tests.support.scenario import BRIEF, full_script
    from tests.support.scripted import structured

    corpus = write_corpus(tmp_path / "corpus")
    # two questions, one at a time: the second, waiting for its turn, is cancelled at once, which
    # ends the set's gather while the first one's node is still stopping
    (tmp_path / "q.jsonl").write_text("".join(json.dumps({"id": i, "question": QUESTION}) + "\n" for i in "ab"))
    asked, release = threading.Event(), threading.Event()

    def slow_brief(messages):
        asked.set()
        release.wait(60)  # the model server is slow: the run is stopped while it waits
        return structured("ResearchQuestion", research_brief=BRIEF)

    script = full_script()
    script.rules.insert(0, {"role": "research", "contains": "Turn the conversation into a research brief",
                            "responses": __import__("collections").deque([slow_brief]), "repeat": True,
                            "name": "slow brief"})
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "DEEP_RESEARCH_DEPS")}
    env.update(PYTHONPATH=str(ROOT), COLUMNS="80", OPENAI_API_KEY="sk-test",
               **{f"DEEP_RESEARCH_{r.upper()}_MODEL": f"openai:{r}"
                  for r in ("research", "summarization", "compression", "final_report", "citation_check")})
    with ScriptServer(script) as server:
        proc = subprocess.Popen([sys.executable, "-m", "deep_research.cli", "eval", "run", str(tmp_path / "q.jsonl"),
                                 "--corpus", str(corpus), "--base-url", server.base_url, "--out", str(tmp_path / "out"),
                                 "--concurrency", "1"],
                                cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        try:
            assert asked.wait(240), "the brief was never asked for"
            time.sleep(0.5)
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=60)
        finally:
            release.set()
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    assert proc.returncode == 130, out + err
    assert "Traceback" not in err
    assert "could not record" not in err, err
    assert err.strip().endswith("interrupted"), err
    assert f"what it finished is kept in {tmp_path / 'out'}; run the same command again to continue" in err, err

    async def statuses() -> list:
        async with AsyncSqliteSaver.from_conn_string(str(tmp_path / "out" / "state" / "a.sqlite")) as saver:
            latest = [t async for t in saver.alist(None, limit=1)][0]
            return [value for _, channel, value in latest.pending_writes if channel == "status"]

    assert asyncio.run(statuses()) == ["cancelled"]


def test_ctrl_c_in_any_command_says_interrupted(monkeypatch, capsys):
    """Every other command (publish; index, compare and eval run say first what they kept): one
    word, exit code 130."""
    import deep_research.cli as cli

    app = typer.Typer()

    @app.command()
    def work() -> None:
        raise KeyboardInterrupt

    @app.command()
    def other() -> None:
        pass

    monkeypatch.setattr(cli, "app", app)
    assert cli.main(["work"]) == 130
    assert capsys.readouterr().err.strip() == "interrupted"

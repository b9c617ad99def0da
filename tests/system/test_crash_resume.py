"""Crash and resume: ``kill -9`` the CLI in the middle of the supervisor's research round,
then ``deep-research resume THREAD_ID`` finishes the run. A research unit that completed
before the kill is not run again (its model calls are counted across both processes), and
nothing it gathered (findings, sources) is lost. The same through PostgreSQL.

The CLI runs in a subprocess with the scripted model (tests.support.cli_deps): each logged
call names the research unit it belongs to, and one unit's calls can be made slow
(DR_SLOW_UNIT, DR_SLOW_DELAY), so that the other unit has certainly completed while the
round is still running when the process is killed.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.support.scenario import QUESTION, TOPIC_COSTS, TOPIC_EFFICIENCY, write_corpus

ROOT = Path(__file__).resolve().parents[2]

FAST, SLOW = "efficiency", "costs"
DELAY = 0.3  # seconds per model call while the run is killed
SLOW_DELAY = 5.0  # more for each call of the slow unit: it is still working when the fast one is done


# --- running the CLI -----------------------------------------------------------------------
def cli_env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENAI_API_KEY", "TAVILY_API_KEY", "OPENAI_BASE_URL", "DR_MODEL_DELAY",
                        "DR_SLOW_UNIT", "DR_SLOW_DELAY", "DR_CALL_LOG")}
    env["PYTHONPATH"] = str(ROOT)
    env["DEEP_RESEARCH_DEPS"] = "tests.support.cli_deps:deps"
    env.update(extra)
    return env


def cli(*args, env: dict, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "deep_research.cli", *map(str, args)], check=False,
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def read_calls(log: Path) -> list[tuple[str, str, str]]:
    if not log.exists():
        return []
    return [tuple(line.split("\t", 2)) for line in log.read_text(encoding="utf-8").splitlines() if line]


def wait_for(predicate, what: str, proc: subprocess.Popen, timeout: float = 60, step: float = 0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        if proc.poll() is not None:
            pytest.fail(f"the CLI exited ({proc.returncode}) before {what}")
        time.sleep(step)
    proc.kill()
    pytest.fail(f"timed out waiting for {what}")


def per_unit(calls) -> Counter:
    return Counter(unit for _, unit, _ in calls)


def per_unit_role(calls, unit: str) -> Counter:
    return Counter(role for role, u, _ in calls if u == unit)


async def _snapshot(db: str, thread_id: str):
    """The run's saved state, with the supervisor subgraph's pending tasks and their results."""
    from deep_research.research.runtime.deps import Deps
    from deep_research.research.runner import compile_for, open_persistence

    async with open_persistence(db) as (saver, store):
        graph = compile_for(Deps(), saver, store)
        return await graph.aget_state({"configurable": {"thread_id": thread_id}}, subgraphs=True)


def snapshot(db: str, thread_id: str):
    return asyncio.run(_snapshot(db, thread_id))


def completed_unit_results(state) -> list[dict]:
    """Results of research units whose writes are saved in the checkpoint (the round's
    tasks that finished before the process died)."""
    results = []
    for task in state.tasks:
        if task.name == "research_supervisor" and task.state is not None:
            for sub in task.state.tasks:
                if sub.name == "researcher" and sub.result:
                    results.append(sub.result)
    return results


# --- the scenario ----------------------------------------------------------------------------
def saved_unit_results(db: str, thread_id: str) -> int:
    """How many research units' results the checkpoint holds as writes of the supervisor's
    current step (a unit's result is saved when the unit finishes, before its round ends)."""
    sql = ("SELECT COUNT(DISTINCT task_id) FROM {table} WHERE thread_id = {p} AND channel = 'round_results' "
           "AND checkpoint_ns LIKE {p} AND checkpoint_ns NOT LIKE {p}")
    params = (thread_id, "research_supervisor:%", "%|%")
    if db.startswith(("postgres://", "postgresql://")):
        import psycopg

        try:
            with psycopg.connect(db, connect_timeout=5) as conn:
                return conn.execute(sql.format(table="checkpoint_writes", p="%s"), params).fetchone()[0]
        except psycopg.errors.UndefinedTable:
            return 0
    import sqlite3

    if not Path(db).exists():
        return 0
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return conn.execute(sql.format(table="writes", p="?"), params).fetchone()[0]
    except sqlite3.OperationalError:  # the tables are not created yet
        return 0
    finally:
        conn.close()


def kill_mid_round_then_resume(tmp_path: Path, db: str, label: str, *, approve_first: bool = False) -> None:
    """Run until the fast research unit has completed while the slow one is still working,
    kill -9, resume, and check what ran again and what was kept. With approve_first, the
    run first stops for approval of the brief, and it is the ``resume --approve`` process
    that is killed."""
    corpus = write_corpus(tmp_path / "corpus")
    out = tmp_path / "reports"
    log = tmp_path / "calls.log"
    thread_id = None
    if approve_first:  # waits for approval: exit code 3, nothing researched yet
        r = cli("research", QUESTION, "--corpus", corpus, "--out", out, "--approve-brief", "--db", db,
                env=cli_env(DR_CALL_LOG=str(log)))
        assert r.returncode == 3, r.stdout + r.stderr
        assert "waiting for approval of the research brief" in r.stderr
        thread_id = re.search(r"deep-research resume (\w+)", r.stderr).group(1)
        assert not any(u != "-" for _, u, _ in read_calls(log))
        args = ["resume", thread_id, "--approve", "--db", db]
    else:
        args = ["research", QUESTION, "--corpus", str(corpus), "--out", str(out), "--yes", "--db", db]
    stdout_path = tmp_path / "killed.out"
    env = cli_env(DR_CALL_LOG=str(log), DR_MODEL_DELAY=str(DELAY), DR_SLOW_UNIT=SLOW,
                  DR_SLOW_DELAY=str(SLOW_DELAY))
    started = time.monotonic()
    with open(stdout_path, "w") as so:
        proc = subprocess.Popen([sys.executable, "-m", "deep_research.cli", *args], cwd=ROOT, env=env,
                                stdin=subprocess.DEVNULL, stdout=so, stderr=subprocess.STDOUT)
    try:
        # the thread id the CLI prints when it starts
        printed = wait_for(lambda: (m := re.search(r"deep-research resume (\w+)", stdout_path.read_text()))
                           and m.group(1), "the thread id was printed", proc)
        assert thread_id in (None, printed)
        thread_id = printed
        wait_for(lambda: any(r == "compression" and u == FAST for r, u, _ in read_calls(log)),
                 f"the {FAST} unit's last model call", proc)
        logged = time.monotonic()
        wait_for(lambda: saved_unit_results(db, thread_id) >= 1, f"the {FAST} unit's result was saved", proc,
                 timeout=10)
        saved_after = time.monotonic() - logged
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(timeout=30) == -signal.SIGKILL
        killed_after = time.monotonic() - started
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    before = read_calls(log)
    # killed in the middle of the round: the fast unit is done, the slow one is not
    assert per_unit_role(before, FAST)["compression"] == 1, before
    assert per_unit_role(before, SLOW)["compression"] == 0, before
    assert not any("Round 2 of" in rule for _, _, rule in before), before
    assert not list(out.rglob("report.pdf"))

    # what the checkpoint holds of the completed unit: its findings and the sources it found
    done = completed_unit_results(snapshot(db, thread_id))
    results = [r for d in done for r in d.get("round_results") or []]
    fast_results = [r for r in results if r.get("topic") == TOPIC_EFFICIENCY]
    assert len(fast_results) == 1 and fast_results[0]["findings"].strip(), done
    assert not [r for r in results if r.get("topic") == TOPIC_COSTS]
    fast_sources = {sid for d in done for sid in (d.get("sources") or {})}
    assert fast_sources, done

    log.write_text("")  # count the resumed run's calls on their own
    started = time.monotonic()
    r = cli("resume", thread_id, "--db", db, env=cli_env(DR_CALL_LOG=str(log)))
    resumed_in = time.monotonic() - started
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    after = read_calls(log)
    pdfs = list(out.rglob("report.pdf"))
    assert len(pdfs) == 1, r.stdout
    folder = pdfs[0].parent
    for name in ("report.md", "report.linked.md", "report.html", "citations.json", "notes.md",
                 "raw_notes.md"):
        assert (folder / name).is_file(), name

    print_table(label, thread_id, before, after)
    print(f"  killed {killed_after:.1f} s after the start, {saved_after:.2f} s after the {FAST} unit's "
          f"last model call; the resume took {resumed_in:.1f} s")

    # the unit that completed before the kill is not run again; the interrupted one is
    assert per_unit(after)[FAST] == 0, after
    assert per_unit_role(after, SLOW)["compression"] == 1, after
    assert per_unit_role(after, SLOW)["research"] >= 1, after
    assert sum(1 for _, _, rule in before + after if "Round 1 of" in rule) == 1  # the round is not re-planned
    assert any("Round 2 of" in rule for _, _, rule in after)

    # nothing gathered before the kill is lost: its findings reach the notes and the report
    # cites its sources
    final = snapshot(db, thread_id).values
    assert final.get("status") == "completed"
    assert fast_sources <= set(final.get("sources") or {}), (fast_sources, final.get("sources"))
    fast_notes = [n for n in final.get("notes") or [] if n["topic"] == TOPIC_EFFICIENCY]
    assert [n["findings"] for n in fast_notes] == [fast_results[0]["findings"]]
    notes_md = (folder / "notes.md").read_text(encoding="utf-8")
    assert f"## {TOPIC_EFFICIENCY}" in notes_md and f"## {TOPIC_COSTS}" in notes_md
    cited_before = set(re.findall(r'<ref id="([^"]+)">', fast_results[0]["findings"]))
    assert cited_before and cited_before <= fast_sources
    cited_in_report = {c["source_id"] for c in json.loads((folder / "citations.json").read_text("utf-8"))}
    assert cited_before <= cited_in_report, (cited_before, cited_in_report)


def print_table(label: str, thread_id: str, before, after) -> None:
    rows = [("unit", "role", "before kill", "after resume")]
    keys = sorted({(u, r) for r, u, _ in before + after}, key=lambda k: (k[0] == "-", k))
    b, a = Counter((u, r) for r, u, _ in before), Counter((u, r) for r, u, _ in after)
    for unit, role in keys:
        rows.append((unit, role, str(b[unit, role]), str(a[unit, role])))
    rows.append(("total", "", str(len(before)), str(len(after))))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    print(f"\n{label}: model calls per research unit, thread {thread_id}")
    for row in rows:
        print("  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)))


@pytest.mark.server  # two CLI runs, > 10 s
def test_kill_9_mid_research_then_resume_sqlite(tmp_path):
    kill_mid_round_then_resume(tmp_path, str(tmp_path / "state.sqlite"), "SQLite")


# --- PostgreSQL ----------------------------------------------------------------------------
@pytest.mark.server
def test_approve_then_kill_9_mid_research_then_resume_postgres(tmp_path, postgres_db):
    """Through PostgreSQL: the run waits for approval of the brief, ``resume --approve``
    is killed in the middle of the research round, ``resume`` finishes it."""
    kill_mid_round_then_resume(tmp_path, postgres_db, "PostgreSQL", approve_first=True)

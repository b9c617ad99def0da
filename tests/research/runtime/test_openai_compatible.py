"""The real model client path against an OpenAI-compatible server on 127.0.0.1.

The other research tests inject the scripted model into the graph; here nothing is
injected. The CLI builds its models as it does for a user (``init_chat_model`` with
``--base-url`` and ``--api-key-env``), and langchain-openai talks HTTP to a local server that
answers from the same script. What a user of Ollama, vLLM, llama.cpp or OpenRouter relies
on is checked: tool calls and tool results round-trip in the wire format, the key is sent
and never written anywhere, a server that refuses tools still yields structured answers,
and streamed answers are assembled correctly.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage
from pydantic import BaseModel

from deep_research.research.runtime.meter import Meter
from deep_research.research.runtime.providers import default_model_factory
from tests.support.openai_server import ScriptServer
from tests.support.scenario import QUESTION, full_script, write_corpus
from tests.support.scripted import Script, structured

ROOT = Path(__file__).resolve().parents[3]
ROLES = ("research", "summarization", "compression", "final_report", "citation_check")
KEY = "sk-local-test-7f3a9c"

pytestmark = pytest.mark.server


def run_cli(*args, env: dict, timeout: int = 300) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items()
            if k not in ("OPENAI_API_KEY", "TAVILY_API_KEY", "OPENAI_BASE_URL", "DEEP_RESEARCH_DEPS")}
    full.update(PYTHONPATH=str(ROOT), **env)
    return subprocess.run([sys.executable, "-m", "deep_research.cli", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, env=full, timeout=timeout, stdin=subprocess.DEVNULL)


def test_research_through_an_openai_compatible_server(tmp_path):
    corpus = write_corpus(tmp_path / "corpus")
    # one model name per role, so the server knows which script role a request is for
    env = {f"DEEP_RESEARCH_{role.upper()}_MODEL": f"openai:{role}" for role in ROLES}
    env["MY_LOCAL_KEY"] = KEY
    with ScriptServer(full_script()) as server:
        r = run_cli("research", QUESTION, "--corpus", corpus, "--base-url", server.base_url,
                    "--api-key-env", "MY_LOCAL_KEY", "--yes", "--out", tmp_path / "reports",
                    "--db", tmp_path / "state.sqlite", env=env)
        requests = list(server.requests)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Traceback" not in r.stderr

    # every role went over HTTP with the user's key
    assert {q["model"] for q in requests} == set(ROLES)
    assert {q["authorization"] for q in requests} == {f"Bearer {KEY}"}
    # tools were offered to the researchers, and tool results came back in later requests
    assert any(q.get("tools") for q in requests if q["model"] == "research")
    assert any(m["role"] == "tool" for q in requests for m in q["messages"])
    assert all(q.get("max_tokens") or q.get("max_completion_tokens") for q in requests)

    folder = next((tmp_path / "reports").rglob("report.pdf")).parent
    cites = json.loads((folder / "citations.json").read_text())
    assert cites and all(c["status"] in ("verified", "repaired") for c in cites), cites
    assert all(":~:text=" in c["url"] for c in cites)
    # the key is sent, never stored
    for f in [*folder.iterdir(), tmp_path / "state.sqlite"]:
        assert KEY.encode() not in f.read_bytes(), f


def test_a_password_in_the_base_url_is_used_and_never_stored(tmp_path):
    """A model server behind a proxy with basic auth: ``--base-url https://user:password@host/v1``.
    The run calls it with the password; the state database, the report folder and the
    terminal never hold it; a resume asks for the URL again (option or environment)."""
    corpus = write_corpus(tmp_path / "corpus")
    env = {f"DEEP_RESEARCH_{role.upper()}_MODEL": f"openai:{role}" for role in ROLES}
    env["MY_LOCAL_KEY"] = KEY
    secret = "PWs3cret77"
    db = tmp_path / "state.sqlite"
    with ScriptServer(full_script()) as server:
        url = server.base_url.replace("http://", f"http://alice:{secret}@")
        r = run_cli("research", QUESTION, "--corpus", corpus, "--base-url", url, "--api-key-env", "MY_LOCAL_KEY",
                    "--yes", "--no-pdf", "--out", tmp_path / "reports", "--db", db, env=env)
        assert r.returncode == 0, r.stdout + r.stderr
        thread = re.search(r"resume with: deep-research resume (\w+)", r.stdout)[1]  # type: ignore[index]
        basic = "Basic " + base64.b64encode(f"alice:{secret}".encode()).decode()
        assert {q["authorization"] for q in server.requests} == {basic}  # the server got the password
        # nothing written holds it (the state database with its WAL files, the report folder)
        for f in tmp_path.rglob("*"):
            if f.is_file() and f.parent != corpus:
                assert secret.encode() not in f.read_bytes(), f
        assert secret not in r.stdout + r.stderr
        # a resume without the URL says what to give again
        again = run_cli("resume", thread, "--db", db, env=env)
        assert again.returncode == 2, again.stdout + again.stderr
        assert "--base-url held a password" in again.stderr and "alice:***@" in again.stderr, again.stderr
        assert secret not in again.stdout + again.stderr
        # given again (here by the environment), the run goes on
        done = run_cli("resume", thread, "--db", db, env={**env, "OPENAI_BASE_URL": url})
        assert done.returncode == 0 and "already complete" in done.stdout, done.stdout + done.stderr
        assert secret not in done.stdout + done.stderr


class Answer(BaseModel):
    verdict: str
    confidence: float


def meter() -> Meter:
    return Meter(node="test", timeout_s=10, max_retries=1, backoff_s=0.01)


def spec(server: ScriptServer, role: str) -> dict:
    return {"role": role, "provider": "openai", "model": role, "base_url": server.base_url,
            "api_key_env": None, "timeout": 10, "max_tokens": 256}


def test_structured_output_from_a_server_that_refuses_tools():
    script = Script().on("citation_check", "Is it true",
                         '{"verdict": "supported", "confidence": 0.9}', repeat=True)
    with ScriptServer(script, reject_tools=True) as server:
        model = default_model_factory(spec(server, "citation_check"))
        answer = asyncio.run(meter().structured(model, Answer, [HumanMessage("Is it true? Answer in JSON.")]))
        kinds = [bool(q.get("tools")) for q in server.requests]
    assert answer == Answer(verdict="supported", confidence=0.9)
    assert kinds[0] and not kinds[-1]  # tools first (refused with 400), then JSON in the text


def test_streamed_tool_calls_and_text_are_assembled():
    script = Script().on("research", "stream please",
                         structured("Answer", verdict="streamed  text, spaced", confidence=0.5), repeat=True)
    with ScriptServer(script) as server:
        model = default_model_factory(spec(server, "research")).bind_tools([Answer])

        async def collect():
            full = None
            async for chunk in model.astream([HumanMessage("stream please")]):
                full = chunk if full is None else full + chunk
            return full

        msg = asyncio.run(collect())
        assert server.requests[-1]["stream"] is True
    assert msg.tool_calls[0]["name"] == "Answer"
    assert msg.tool_calls[0]["args"] == {"verdict": "streamed  text, spaced", "confidence": 0.5}


def test_eval_run_and_judge_through_an_openai_compatible_server(tmp_path):
    """`eval run` with the user's own endpoint: research and judge models over HTTP, the
    judge on its own base URL and key variable."""
    import shutil

    from tests.support.eval_scenario import BEHAVIOUR, CORPUS, behaviour_script

    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    questions = tmp_path / "q.jsonl"
    questions.write_text(next(line for line in BEHAVIOUR.read_text().splitlines()
                              if '"conflicting-sources"' in line) + "\n")
    env = {f"DEEP_RESEARCH_{role.upper()}_MODEL": f"openai:{role}" for role in ROLES}
    env.update(MY_LOCAL_KEY=KEY, JUDGE_KEY="sk-judge-key-1234567")
    with ScriptServer(behaviour_script()) as research, ScriptServer(behaviour_script()) as judge:
        r = run_cli("eval", "run", questions, "--out", tmp_path / "out", "--corpus", corpus,
                    "--base-url", research.base_url, "--api-key-env", "MY_LOCAL_KEY",
                    "--judge-model", "openai:judge", "--judge-base-url", judge.base_url,
                    "--judge-api-key-env", "JUDGE_KEY", env=env)
        research_requests, judge_requests = list(research.requests), list(judge.requests)
    assert r.returncode == 0, r.stdout + r.stderr
    assert {q["model"] for q in research_requests} >= {"research", "summarization", "compression", "final_report"}
    assert {q["authorization"] for q in research_requests} == {f"Bearer {KEY}"}
    assert [q["model"] for q in judge_requests] == ["judge"]
    assert judge_requests[0]["authorization"] == "Bearer sk-judge-key-1234567"
    result = json.loads((tmp_path / "out" / "results" / "conflicting-sources.json").read_text())
    assert result["status"] == "completed" and all(b["passed"] for b in result["behaviour"])
    assert result["judge"]["error"] is None and result["judge"]["usage"]["input_tokens"] > 0
    for f in (tmp_path / "out").rglob("*"):
        if f.is_file():
            assert b"sk-judge-key" not in f.read_bytes() and KEY.encode() not in f.read_bytes(), f

"""`langgraph dev` without credentials must not hand the server's key to a web page.

Before: a request in LangGraph Studio's scheme (`x-auth-scheme: langsmith`) was handled by
langgraph-api's own Studio backend, so the project's `authenticate` (loopback peer, loopback
Host, loopback Origin) never ran, and the run could set `model_base_url`, `corpus_path` and
`output_dir`: a page on any origin (or a DNS-rebinding page, with a foreign Host) made the
server send `Authorization: Bearer <OPENAI_API_KEY>` to a server of its choosing.

Here the production graph (real model construction, no injection) runs under a real
`langgraph dev` with the project's langgraph.json auth and CORS settings, an API key in
the server's environment and an OpenAI-compatible server on 127.0.0.1 standing in for both
the attacker's endpoint and the user's own model server.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import pytest

from tests.support.devserver import ROOT, langgraph_dev
from tests.support.openai_server import ScriptServer
from tests.support.scenario import QUESTION, full_script, write_corpus

pytestmark = pytest.mark.server

GRAPH = "deep_research.research.graph:graph"
AUTH = "deep_research.server.auth:auth"
KEY = "sk-server-secret-4c1d2e"
ROLES = ("research", "summarization", "compression", "final_report", "citation_check")
STUDIO = "https://smith.langchain.com"
NO_CREDENTIALS = {"DEEP_RESEARCH_AUTH_TOKENS": "", "DEEP_RESEARCH_JWT_SECRET": "",
                  "DEEP_RESEARCH_AUTH_ALLOW_RUN_SETTINGS": "", "TAVILY_API_KEY": "",
                  "OPENAI_BASE_URL": "", "DEEP_RESEARCH_STUDIO_ORIGINS": ""}


def _server_env(tmp_path: Path) -> dict:
    env = {**NO_CREDENTIALS, "OPENAI_API_KEY": KEY,
           "DEEP_RESEARCH_OUTPUT_DIR": str(tmp_path / "server-reports")}
    env.pop("DEEP_RESEARCH_STUDIO_ORIGINS")  # the defaults: Studio's origins
    # one model name per role, so the script server knows which role a request is for
    env.update({f"DEEP_RESEARCH_{r.upper()}_MODEL": f"openai:{r}" for r in ROLES})
    return env


def _run_body(context: dict) -> dict:
    return {"assistant_id": "deep_research", "input": {"messages": [{"role": "user", "content": QUESTION}]},
            "context": context}


def test_no_page_gets_the_key_and_studio_still_works(tmp_path):
    corpus = write_corpus(tmp_path / "corpus")
    private = tmp_path / "private"
    private.mkdir()
    (private / "memo.md").write_text("# Memo\n\nProject codename BLUE HERON ships in March.\n")
    evil_out = tmp_path / "attacker-chosen"

    with ScriptServer(full_script()) as model_server, \
            langgraph_dev(tmp_path / "server", GRAPH, env=_server_env(tmp_path), auth=AUTH) as (base, _):
        port = base.rsplit(":", 1)[1]
        attack = _run_body({"model_base_url": model_server.base_url, "search_api": "local",
                            "corpus_path": str(private), "output_dir": str(evil_out)})
        hostile = [
            # a DNS-rebinding page: its own name resolves to 127.0.0.1, same-origin for the browser
            {"x-auth-scheme": "langsmith", "Host": f"attacker.example:{port}",
             "Origin": f"http://attacker.example:{port}"},
            # a page on another origin calling the loopback server directly
            {"x-auth-scheme": "langsmith", "Origin": "https://attacker.example"},
            {"x-auth-scheme": "langsmith", "Origin": "null"},  # sandboxed iframe / file page
            {"x-auth-scheme": "langsmith", "Host": "research.example.com"},  # a tunnel or proxy
            {"Origin": "https://attacker.example"},
        ]
        for headers in hostile:
            for path in ("/runs/wait", "/runs/stream"):
                r = httpx.post(base + path, json=attack, headers=headers, timeout=60)
                assert r.status_code in (401, 403), (headers, path, r.status_code, r.text[:300])
            r = httpx.post(base + "/threads/search", json={}, headers=headers, timeout=30)
            assert r.status_code in (401, 403), headers
        assert model_server.requests == []  # the key went nowhere
        assert not evil_out.exists()

        # CORS: only loopback pages and Studio's origin may make preflighted requests
        def preflight(origin: str) -> httpx.Response:
            return httpx.options(base + "/runs/wait", headers={
                "Origin": origin, "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type,x-auth-scheme"}, timeout=30)

        for origin in ("https://attacker.example", f"http://attacker.example:{port}", "null",
                       "http://localhost.attacker.example"):
            r = preflight(origin)
            assert r.headers.get("access-control-allow-origin") in (None, ""), (origin, dict(r.headers))
            assert r.status_code >= 400, origin
        for origin in (STUDIO, "http://localhost:5173", "http://127.0.0.1:3000"):
            r = preflight(origin)
            assert r.status_code == 200 and r.headers["access-control-allow-origin"] == origin, origin
        simple = httpx.get(base + "/ok", headers={"Origin": "https://attacker.example"}, timeout=30)
        assert "access-control-allow-origin" not in simple.headers  # the page cannot read answers

        # Studio, as the browser sends it (Studio's origin, its auth scheme, a loopback Host),
        # drives a whole run with the user's own model server, streaming messages
        from langgraph_sdk import get_client

        studio = get_client(url=base, headers={"x-auth-scheme": "langsmith", "Origin": STUDIO})
        context = {"model_base_url": model_server.base_url, "search_api": "local",
                   "corpus_path": str(corpus), "output_dir": str(tmp_path / "reports")}

        async def drive():
            assert [a["graph_id"] for a in await studio.assistants.search()] == ["deep_research"]
            thread = await studio.threads.create()
            events = []
            async for chunk in studio.runs.stream(thread["thread_id"], "deep_research",
                                                  input={"messages": [{"role": "user", "content": QUESTION}]},
                                                  context=context, stream_mode=["messages", "updates"]):
                events.append(chunk.event)
            assert "error" not in events, events
            return await studio.threads.get_state(thread["thread_id"]), thread

        state, thread = asyncio.run(drive())
        assert thread["metadata"]["owner"] == "local"
        values = state["values"]
        assert values["status"] == "completed", values.get("errors")
        assert model_server.requests and {q["authorization"] for q in model_server.requests} == {f"Bearer {KEY}"}
        assert list((tmp_path / "reports").rglob("report.pdf"))
    log = (tmp_path / "server" / "server.log").read_text()
    assert KEY not in log


def test_studio_identity_never_gets_server_side_settings(tmp_path):
    """Defence in depth: were langgraph-api's own Studio backend to handle a request again
    (someone sets "disable_studio_auth": false), its Studio user still may not set a
    server-side setting; settings that are not server-side stay allowed."""
    corpus = write_corpus(tmp_path / "corpus")
    env = {**_server_env(tmp_path), "DR_TEST_CORPUS": str(corpus)}
    with ScriptServer(full_script()) as model_server, \
            langgraph_dev(tmp_path / "server", "tests.support.dev_graph:graph", env=env, auth=AUTH,
                          auth_options={"disable_studio_auth": False}) as (base, _):
        port = base.rsplit(":", 1)[1]
        headers = {"x-auth-scheme": "langsmith", "Host": f"attacker.example:{port}",
                   "Origin": f"http://attacker.example:{port}"}
        for setting, value in [("model_base_url", model_server.base_url), ("corpus_path", str(tmp_path)),
                               ("output_dir", str(tmp_path / "evil")), ("research_model_api_key_env", "HOME"),
                               ("mcp_config", json.dumps({"url": "http://127.0.0.1:9/mcp", "tools": ["x"]}))]:
            r = httpx.post(base + "/runs/wait", json=_run_body({setting: value}), headers=headers, timeout=60)
            assert r.status_code == 403 and setting in r.json()["detail"], (setting, r.status_code, r.text[:300])
        assert model_server.requests == [] and not (tmp_path / "evil").exists()
        # ordinary per-run settings are not affected
        r = httpx.post(base + "/runs/wait", json=_run_body({"search_api": "local", "allow_clarification": False}),
                       headers=headers, timeout=120)
        assert r.status_code == 200, r.text[:300]


def test_project_config_routes_studio_through_our_auth():
    config = json.loads((ROOT / "langgraph.json").read_text())
    assert config["auth"]["disable_studio_auth"] is True
    cors = config["http"]["cors"]
    assert "*" not in cors["allow_origins"] and STUDIO in cors["allow_origins"]

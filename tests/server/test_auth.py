"""Deployment auth (deep_research.server.auth): who may call the server and what they see.

Unit tests check credential parsing and JWT verification. Server tests start a real
`langgraph dev` with the auth handler and the scripted research graph: user A runs a
research that stops at the brief-approval interrupt; user B can neither find, read, stream,
join, resume, change nor delete A's thread, nor read A's pages in the store; A can.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import jwt
import pytest

from deep_research.server.credentials import (
    ENV_JWT_SECRET,
    ENV_TOKENS,
    SERVER_SIDE_SETTINGS,
    AuthConfigError,
    AuthSettings,
    FetchMetadata,
    InvalidCredentials,
    identity_label,
    local_request_problem,
)
from deep_research.errors import UserError
from deep_research.research.runtime.configuration import Configuration
from deep_research.research.runtime.setting_policy import Caller, Source
from tests.support.devserver import ROOT, langgraph_dev
from tests.support.scenario import QUESTION, write_corpus

AUTH = "deep_research.server.auth:auth"
GRAPH = "tests.support.dev_graph:graph"
TOKEN_A = "alice-token-" + "a" * 24
TOKEN_B = "bob-token-" + "b" * 24
SECRET = "jwt-secret-for-the-test-suite-" + "s" * 16
NO_CREDENTIALS = {ENV_TOKENS: "", ENV_JWT_SECRET: "", "DEEP_RESEARCH_JWT_AUDIENCE": "",
                  "DEEP_RESEARCH_JWT_ISSUER": "", "DEEP_RESEARCH_AUTH_ALLOW_RUN_SETTINGS": ""}


def _jwt(sub: str | None, *, secret: str = SECRET, exp_in: float = 600, alg: str = "HS256", **claims) -> str:
    payload = {**({"sub": sub} if sub is not None else {}), **claims}
    if exp_in is not None:
        payload["exp"] = int(time.time() + exp_in)
    return jwt.encode(payload, secret, algorithm=alg)


# --- unit: configuration and verification ---------------------------------------------------
def test_settings_from_env_and_static_tokens():
    s = AuthSettings.from_env({ENV_TOKENS: f" {TOKEN_A}:alice , {TOKEN_B}:bob,"})
    assert s.authenticate(f"Bearer {TOKEN_A}").identity == "alice"
    assert s.authenticate(f"bearer {TOKEN_B}").identity == "bob"
    assert TOKEN_A not in repr(s)
    for header, msg in [(None, "missing"), ("", "missing"), (f"Basic {TOKEN_A}", "Bearer"),
                        ("Bearer", "Bearer"), ("Bearer " + "x" * 30, "invalid token"),
                        (f"Bearer {TOKEN_A}x", "invalid token")]:
        with pytest.raises(InvalidCredentials, match=msg) as e:
            s.authenticate(header)
        assert TOKEN_A not in str(e.value)

    bad = {"tokenwithoutuser" * 2: "not '<token>:<user>'", "short:alice": "shorter than 16",
           f"{TOKEN_A}:alice,{TOKEN_A}:bob": "listed twice", f"{TOKEN_A}:deep_research": "reserved",
           ",": "lists no tokens"}
    for spec, msg in bad.items():
        with pytest.raises(AuthConfigError, match=msg) as e:
            AuthSettings.from_env({ENV_TOKENS: spec})
        assert TOKEN_A not in str(e.value)
    with pytest.raises(AuthConfigError, match="shorter than 32 bytes"):
        AuthSettings.from_env({ENV_JWT_SECRET: "too-short"})
    with pytest.raises(AuthConfigError, match="unknown settings"):
        AuthSettings.from_env({ENV_TOKENS: f"{TOKEN_A}:alice", "DEEP_RESEARCH_AUTH_ALLOW_RUN_SETTINGS": "nope"})


def test_no_credentials_fails_closed_except_langgraph_dev():
    with pytest.raises(AuthConfigError, match=f"{ENV_TOKENS}.*{ENV_JWT_SECRET}"):
        AuthSettings.from_env({})
    local = AuthSettings.from_env({"LANGSMITH_LANGGRAPH_API_VARIANT": "local_dev"})
    assert local.local_only
    assert local.authenticate(None, client_host="127.0.0.1", host_header="localhost:2024").identity == "local"
    with pytest.raises(InvalidCredentials, match="no credentials configured"):
        local.authenticate(f"Bearer {TOKEN_A}", client_host="127.0.0.1", host_header="localhost:2024")
    # the module itself refuses to load: the server does not start
    env = {k: v for k, v in os.environ.items()
           if k not in NO_CREDENTIALS and k != "LANGSMITH_LANGGRAPH_API_VARIANT"}
    p = subprocess.run([sys.executable, "-c", "import deep_research.server.auth"], env=env, cwd=ROOT,
                       capture_output=True, text=True, timeout=60, check=False)
    assert p.returncode != 0 and "no credentials configured" in p.stderr


def test_local_requests_only():
    assert local_request_problem("127.0.0.1", "127.0.0.1:2024", None) is None
    assert local_request_problem("::1", "[::1]:2024", "http://localhost:5173") is None
    assert "client" in local_request_problem("10.0.0.7", "127.0.0.1:2024", None)
    assert "Host" in local_request_problem("127.0.0.1", "abc.trycloudflare.com", None)  # a tunnel
    assert "Host" in local_request_problem("127.0.0.1", None, None)
    assert "origin" in local_request_problem("127.0.0.1", "localhost:2024", "https://evil.example")
    assert "origin" in local_request_problem("127.0.0.1", "localhost:2024", "null")
    # a page is local only on the origins langgraph.json's CORS admits (localhost, 127.0.0.1,
    # [::1]): another loopback address or spelling is another site to the browser, which sends
    # its "simple" requests (a text/plain POST starts a run) without asking CORS first
    assert local_request_problem("127.0.0.1", "localhost:2024", "https://127.0.0.1:8443") is None
    for origin in ("http://127.0.0.2:8000", "http://127.255.0.1", "http://localhost.:3000",
                   "http://[::ffff:127.0.0.1]:3000", "http://0.0.0.0:3000"):
        assert "origin" in local_request_problem("127.0.0.1", "localhost:2024", origin), origin
    # ... and exactly those: the auth check and the CORS setting agree on every origin
    import json
    import re

    cors = json.loads((ROOT / "langgraph.json").read_text())["http"]["cors"]["allow_origin_regex"]
    for origin in ("http://localhost:3000", "https://localhost", "http://127.0.0.1:8000", "http://[::1]:5173",
                   "http://127.0.0.2:8000", "http://localhost.:3000", "http://localhost.evil.example",
                   "https://evil.example", "http://[::ffff:127.0.0.1]:3000"):
        admitted = local_request_problem("127.0.0.1", "localhost:2024", origin) is None
        assert admitted == bool(re.fullmatch(cors, origin)), origin


def test_reads_another_sites_page_makes_without_an_origin_are_not_local():
    """A browser sends a GET of an image, script, frame or no-cors fetch without an Origin;
    its Sec-Fetch-Site tells another site's page asked for it (a thread read from a hostile
    page), which is refused like that page's writes. A top-level navigation (a link the user
    follows) and requests without fetch metadata (a script, the SDK, curl) are not."""
    req = ("127.0.0.1", "localhost:2024", None)
    for site in ("cross-site", "same-site", " Cross-Site "):
        for mode, dest in (("no-cors", "script"), ("no-cors", "image"), ("navigate", "iframe"),
                           ("no-cors", "empty"), (None, None)):
            problem = local_request_problem(*req, fetch=FetchMetadata.of(site, mode, dest))
            assert problem and "another site" in problem, (site, mode, dest)
    for fetch in (FetchMetadata(), FetchMetadata.of("none", "navigate", "document"),
                  FetchMetadata.of("same-origin", "no-cors", "image"),
                  FetchMetadata.of("cross-site", "navigate", "document")):
        assert local_request_problem(*req, fetch=fetch) is None, fetch
    # with an Origin, the origin decides, as for writes
    studio = FetchMetadata.of("cross-site", "cors", "empty")
    assert local_request_problem(*req[:2], "https://smith.langchain.com", trusted_origins=("https://smith.langchain.com",),
                                 fetch=studio) is None
    assert "origin" in local_request_problem(*req[:2], "https://evil.example", fetch=studio)
    local = AuthSettings.from_env({"LANGSMITH_LANGGRAPH_API_VARIANT": "local_dev"})
    with pytest.raises(InvalidCredentials, match="another site"):
        local.authenticate(None, client_host="127.0.0.1", host_header="localhost:2024",
                           fetch=FetchMetadata.of("cross-site", "no-cors", "script"))


def test_local_page_origins_can_be_pinned_to_the_chat_client():
    """DEEP_RESEARCH_LOCAL_ORIGINS names the loopback pages that may call `langgraph dev`
    (the chat client's); any other page on this machine (a document folder served on
    localhost, another project's dev server) can then neither read threads nor start runs."""
    env = {"LANGSMITH_LANGGRAPH_API_VARIANT": "local_dev"}
    req = dict(client_host="127.0.0.1", host_header="127.0.0.1:2024")
    anyport = AuthSettings.from_env(env)  # unset: any port of localhost, 127.0.0.1, [::1]
    assert anyport.authenticate(None, **req, origin_header="http://localhost:8001").identity == "local"
    pinned = AuthSettings.from_env({**env, "DEEP_RESEARCH_LOCAL_ORIGINS": "http://localhost:3000, http://127.0.0.1:3000/"})
    for origin in ("http://localhost:3000", "http://127.0.0.1:3000"):
        assert pinned.authenticate(None, **req, origin_header=origin).identity == "local"
    assert pinned.authenticate(None, **req).identity == "local"  # no page: a script, the SDK, curl
    assert pinned.authenticate(None, **req, origin_header="https://smith.langchain.com").identity == "local"
    for origin in ("http://localhost:8001", "http://127.0.0.1:8000", "https://localhost:3000", "http://[::1]:3000"):
        with pytest.raises(InvalidCredentials, match="another origin"):
            pinned.authenticate(None, **req, origin_header=origin)
    for bad in ("https://example.org", "http://localhost:3000/app", "localhost:3000", "http://127.0.0.2:3000"):
        with pytest.raises(AuthConfigError, match="DEEP_RESEARCH_LOCAL_ORIGINS"):
            AuthSettings.from_env({**env, "DEEP_RESEARCH_LOCAL_ORIGINS": bad})


def test_studio_origins():
    local = AuthSettings.from_env({"LANGSMITH_LANGGRAPH_API_VARIANT": "local_dev"})
    studio = dict(client_host="127.0.0.1", host_header="127.0.0.1:2024", origin_header="https://smith.langchain.com")
    assert local.authenticate(None, **studio).identity == "local"
    # Studio's own credential is ignored without configured credentials; any other is refused
    assert local.authenticate("Bearer ls-token", studio_scheme=True, **studio).identity == "local"
    with pytest.raises(InvalidCredentials, match="no credentials configured"):
        local.authenticate("Bearer ls-token", **studio)
    for origin in ("https://smith.langchain.com.evil.example", "http://smith.langchain.com", "null",
                   "https://evil.example"):
        with pytest.raises(InvalidCredentials, match="another origin"):
            local.authenticate(None, **{**studio, "origin_header": origin})
    with pytest.raises(InvalidCredentials, match="Host"):  # Studio's origin does not excuse a foreign Host
        local.authenticate(None, **{**studio, "host_header": "attacker.example:2024"})
    custom = AuthSettings.from_env({"LANGSMITH_LANGGRAPH_API_VARIANT": "local_dev",
                                    "DEEP_RESEARCH_STUDIO_ORIGINS": "https://LangSmith.corp.example/"})
    assert custom.authenticate(None, **{**studio, "origin_header": "https://langsmith.corp.example"})
    with pytest.raises(InvalidCredentials):
        custom.authenticate(None, **studio)
    none = AuthSettings.from_env({"LANGSMITH_LANGGRAPH_API_VARIANT": "local_dev", "DEEP_RESEARCH_STUDIO_ORIGINS": "none"})
    with pytest.raises(InvalidCredentials):
        none.authenticate(None, **studio)
    for bad in ("http://studio.example", "https://studio.example/path", "smith.langchain.com",
                "https://studio.example:99999", "https://studio.example:abc"):
        with pytest.raises(AuthConfigError, match="DEEP_RESEARCH_STUDIO_ORIGINS"):
            AuthSettings.from_env({"LANGSMITH_LANGGRAPH_API_VARIANT": "local_dev", "DEEP_RESEARCH_STUDIO_ORIGINS": bad})
    # an identity the server's authenticate did not admit may set no server-side setting
    assert local.run_settings_allowed(trusted=True) == SERVER_SIDE_SETTINGS
    assert local.run_settings_allowed(trusted=False) == frozenset()


def test_jwt_verification():
    s = AuthSettings.from_env({ENV_JWT_SECRET: SECRET})
    who = s.authenticate("Bearer " + _jwt("alice@example.com"))
    assert (who.identity, who.display_name, who.method) == ("alice@example%2Ecom", "alice@example.com", "jwt")
    assert s.authenticate("Bearer " + _jwt("bob", exp_in=-10)).identity == "bob"  # within the leeway
    refused = {
        "expired": _jwt("bob", exp_in=-120),
        "invalid token": _jwt("bob", secret="another-secret-of-sufficient-length!!"),
        "'exp'": _jwt("bob", exp_in=None),
        "'sub'": _jwt(None),
        "invalid token ": _jwt("bob", nbf=int(time.time() + 3600)),
        "invalid token  ": _jwt("bob", aud="someone-else"),
        "invalid token   ": _jwt("bob", alg="HS512", secret=SECRET * 2),
        "reserved": _jwt("deep_research"),
    }
    header, payload, sig = _jwt("bob").split(".")
    forged = _jwt("alice").split(".")[1]
    refused["invalid token    "] = f"{header}.{forged}.{sig}"  # payload swapped, signature kept
    none_header = jwt.utils.base64url_encode(b'{"alg":"none","typ":"JWT"}').decode()
    refused["invalid token     "] = f"{none_header}.{payload}."
    for msg, token in refused.items():
        with pytest.raises(InvalidCredentials, match=msg.strip()) as e:
            s.authenticate("Bearer " + token)
        assert token not in str(e.value)
    aud = AuthSettings.from_env({ENV_JWT_SECRET: SECRET, "DEEP_RESEARCH_JWT_AUDIENCE": "deep-research",
                                 "DEEP_RESEARCH_JWT_ISSUER": "https://idp.example"})
    assert aud.authenticate("Bearer " + _jwt("bob", aud="deep-research", iss="https://idp.example")).identity == "bob"
    with pytest.raises(InvalidCredentials):
        aud.authenticate("Bearer " + _jwt("bob", aud="deep-research"))  # no issuer


def test_identity_labels_are_namespace_safe_and_distinct():
    labels = {identity_label(u) for u in ["a.b", "a%2Eb", "a%b", "a%252Eb", "ab"]}
    assert len(labels) == 5 and not any("." in x for x in labels)
    for bad in ["", "  ", "deep_research"]:
        with pytest.raises(InvalidCredentials):
            identity_label(bad)


def _refused(values: dict, allows=frozenset(), source=Source.RUN, env=None) -> str:
    try:
        Configuration.resolve(None, values, environ=env or {}, above_ceiling="refuse", caller=Caller(source, allows))
    except UserError as e:
        return str(e)
    return ""


def test_server_side_settings_are_refused_per_run():
    s = AuthSettings.from_env({ENV_TOKENS: f"{TOKEN_A}:alice"})
    assert not _refused({"search_api": "local", "max_search_results": 3}, s.run_settings_allowed(trusted=True))
    message = _refused({"model_base_url": "http://evil.example/v1", "research_model_api_key_env": "OPENAI_API_KEY",
                        "output_dir": None})
    assert "model_base_url" in message and "research_model_api_key_env" in message and "output_dir" not in message
    allowed = AuthSettings.from_env({ENV_TOKENS: f"{TOKEN_A}:alice",
                                     "DEEP_RESEARCH_AUTH_ALLOW_RUN_SETTINGS": "output_dir"})
    message = _refused({"output_dir": "/tmp/x", "corpus_path": "/"}, allowed.run_settings_allowed(trusted=True))
    assert "corpus_path" in message and "output_dir" not in message
    assert "output_dir" in _refused({"output_dir": "/tmp/x"}, allowed.run_settings_allowed(trusted=False))
    assert {"mcp_config", "corpus_path", "output_dir", "model_api_key_env"} <= SERVER_SIDE_SETTINGS


# --- server ---------------------------------------------------------------------------------
def _client(base: str, token: str | None = None, **headers):
    from langgraph_sdk import get_client

    if token:
        headers["Authorization"] = f"Bearer {token}"
    return get_client(url=base, headers=headers)


async def _status(call) -> int:
    """HTTP status of an SDK call (a coroutine or a stream); 200 when it succeeds. A
    stream the server refuses after its headers were sent carries one error event
    ("404: Thread not found"): its status counts, provided nothing else was sent."""
    try:
        if not hasattr(call, "__aiter__"):
            call = await call
        if hasattr(call, "__aiter__"):
            events = [chunk async for chunk in call]
            errors = [c for c in events if c.event == "error"]
            if errors and len(errors) == len(events):
                code = str(errors[0].data.get("message", "")).split(":")[0]
                return int(code) if code.isdigit() else 500
    except httpx.HTTPStatusError as e:
        return e.response.status_code
    return 200


def _raw(base: str, method: str, path: str, **kw) -> httpx.Response:
    return httpx.request(method, base + path, timeout=30, **kw)


@pytest.mark.server
def test_users_cannot_see_or_touch_each_others_research(tmp_path):
    corpus = write_corpus(tmp_path / "corpus")
    env = {**NO_CREDENTIALS, "DR_TEST_CORPUS": str(corpus), ENV_TOKENS: f"{TOKEN_A}:alice,{TOKEN_B}:bob",
           "DEEP_RESEARCH_OUTPUT_DIR": str(tmp_path / "reports")}
    context = {"require_brief_approval": True, "search_api": "local"}
    messages = {"messages": [{"role": "user", "content": QUESTION}]}
    with langgraph_dev(tmp_path / "server", GRAPH, env=env, auth=AUTH) as (base, _):
        # no token / a bad token: 401 everywhere that holds data
        for headers in ({}, {"Authorization": "Bearer " + "x" * 32}, {"Authorization": TOKEN_A}):
            for method, path, body in [("POST", "/threads/search", {}), ("POST", "/threads", {}),
                                       ("POST", "/store/items/search", {"namespace_prefix": ["alice"]})]:
                assert _raw(base, method, path, json=body, headers=headers).status_code == 401, (headers, path)
        a, b = _client(base, TOKEN_A), _client(base, TOKEN_B)
        # Studio's scheme gets no bypass: without a token it is refused like anyone else
        studio = _client(base, **{"x-auth-scheme": "langsmith", "Origin": "https://smith.langchain.com"})

        async def scenario():
            thread = await a.threads.create(metadata={"owner": "bob", "topic": "heat pumps"})
            tid = thread["thread_id"]
            assert thread["metadata"]["owner"] == "alice"  # stamped, not taken from the caller
            run = await a.runs.create(tid, "deep_research", input=messages, context=context)
            rid = run["run_id"]
            # while A's run is going: B can neither stream it nor look at it
            assert await _status(b.runs.join_stream(tid, rid)) == 404
            assert await _status(b.runs.get(tid, rid)) == 404
            assert await _status(b.runs.cancel(tid, rid)) == 404
            await a.runs.join(tid, rid)
            state = await a.threads.get_state(tid)
            assert state["next"] == ["approve_research_brief"]
            checkpoint = state["checkpoint"]["checkpoint_id"]

            # B: no listing, reading, streaming, resuming, changing or deleting
            assert tid not in [t["thread_id"] for t in await b.threads.search(limit=100)]
            assert await b.threads.search(metadata={"owner": "alice"}) == []
            assert await _status(studio.threads.search(limit=100)) == 401
            assert await _status(b.threads.get(tid)) == 404
            assert await _status(b.threads.get_state(tid)) == 404
            assert await _status(b.threads.get_history(tid)) == 404
            assert await _status(b.runs.list(tid)) == 404
            assert await _status(b.runs.join(tid, rid)) == 404
            assert await _status(b.threads.join_stream(tid)) in (403, 404)
            assert await _status(b.runs.create(tid, "deep_research", command={"resume": {"type": "approve"}},
                                               context=context)) == 404
            assert await _status(b.runs.stream(tid, "deep_research", command={"resume": {"type": "approve"}},
                                               context=context)) == 404
            assert await _status(b.runs.create(tid, "deep_research", input=messages, if_not_exists="create",
                                               context=context)) == 404
            assert await _status(b.threads.update(tid, metadata={"owner": "bob"})) == 404
            assert await _status(b.threads.update_state(tid, {"status": "failed"})) == 404
            assert await _status(b.threads.copy(tid)) == 409  # the server's "not found" for a copy
            assert await _status(b.threads.delete(tid)) == 404
            assert await _status(studio.threads.get(tid)) == 401
            # nor set server-side settings (where reports go, which endpoint gets the API key)
            assert await _status(b.runs.create(None, "deep_research", input=messages,
                                               context={"model_base_url": "http://evil.example/v1"})) == 403
            assert await _status(b.assistants.create("deep_research",
                                                     context={"model_base_url": "http://evil.example/v1"})) == 403
            # assistants: B makes and versions their own (Studio's "create assistant" / "save
            # version"); A never sees it and cannot change it; the deployment's stays as it is
            mine = await b.assistants.create("deep_research", context={"max_search_results": 3}, name="bob's",
                                             metadata={"owner": "alice"})
            assert mine["metadata"]["owner"] == "bob"
            aid = mine["assistant_id"]
            v2 = await b.assistants.update(aid, context={"max_search_results": 4})
            assert v2["version"] == 2 and v2["context"] == {"max_search_results": 4}
            assert await _status(b.assistants.update(aid, context={"corpus_path": "/"})) == 403
            # nor what a run may not set: private addresses, another SearXNG (issue 19)
            for hostile in ({"fetch_allow_private": True, "research_urls": ["http://127.0.0.1:1/admin"]},
                            {"searxng_url": "http://169.254.169.254"}):
                assert await _status(b.assistants.create("deep_research", context=hostile)) == 403
                assert await _status(b.assistants.create("deep_research", config={"configurable": hostile})) == 403
                assert await _status(b.assistants.update(aid, context=hostile)) == 403
            # a misspelt setting is refused, not dropped (the run went on without the cap it meant)
            assert await _status(b.assistants.update(aid, context={"max_total_token": 1000})) == 403
            assert (await b.assistants.get(aid))["context"] == {"max_search_results": 4}
            assert aid in [x["assistant_id"] for x in await b.assistants.search(limit=100)]
            assert aid not in [x["assistant_id"] for x in await a.assistants.search(limit=100)]
            assert await _status(a.assistants.get(aid)) == 404
            assert await _status(a.assistants.update(aid, context={"max_search_results": 1})) == 404
            assert await _status(a.assistants.delete(aid)) == 404
            system = [x for x in await a.assistants.search(limit=100) if x["metadata"].get("created_by") == "system"]
            assert system and system[0]["assistant_id"] in [x["assistant_id"] for x in await b.assistants.search()]
            assert await _status(b.assistants.update(system[0]["assistant_id"], context={"max_search_results": 1})) == 404
            assert await _status(b.assistants.delete(aid)) == 200
            # A's thread is exactly as A left it
            same = await a.threads.get_state(tid)
            assert same["next"] == ["approve_research_brief"]
            assert same["checkpoint"]["checkpoint_id"] == checkpoint
            assert (await a.threads.get(tid))["metadata"]["owner"] == "alice"

            # A resumes and finishes
            async for _ in a.runs.stream(tid, "deep_research", command={"resume": {"type": "approve"}},
                                         context=context):
                pass
            # the pages A's run read are in A's store namespace; B cannot read them
            done = await a.threads.get_state(tid)
            assert done["values"]["status"] == "completed", done["values"].get("errors")
            sources = done["values"]["sources"]
            assert sources
            page_hash = next(iter(sources.values()))["content_hash"]
            mine = ("deep_research", "alice", "pages")
            item = await a.store.get_item(mine, page_hash)
            assert item and "heat" in item["value"]["content"]
            assert len((await a.store.search_items(mine, limit=50))["items"]) == len(
                {s["content_hash"] for s in sources.values()})
            assert await _status(b.store.get_item(mine, page_hash)) == 403
            assert await _status(b.store.search_items(("deep_research", "alice"))) == 403
            assert await _status(b.store.search_items(("deep_research",))) == 403
            assert await _status(b.store.search_items(())) == 403
            assert await _status(b.store.list_namespaces(prefix=["deep_research"])) == 403
            assert await _status(b.store.list_namespaces()) == 403
            assert await _status(b.store.put_item(mine, page_hash, {"content": "poison"})) == 403
            assert await _status(a.store.put_item(mine, page_hash, {"content": "poison"})) == 403  # graph-owned
            assert await _status(b.store.delete_item(mine, page_hash)) == 403
            # user namespaces: each user reads and writes their own only
            await b.store.put_item(("bob", "prefs"), "lang", {"v": "en"})
            assert await _status(a.store.get_item(("bob", "prefs"), "lang")) == 403
            assert (await b.store.get_item(("bob", "prefs"), "lang"))["value"] == {"v": "en"}
            assert (await b.store.list_namespaces(prefix=["deep_research", "bob"]))["namespaces"] == []

            # B's own research works, and its pages land in B's namespace
            b_tid = (await b.threads.create())["thread_id"]
            async for _ in b.runs.stream(b_tid, "deep_research", input=messages, context={"search_api": "local"}):
                pass
            b_threads = await b.threads.search()
            assert len(b_threads) == 1 and b_threads[0]["metadata"]["owner"] == "bob"
            assert b_threads[0]["values"]["status"] == "completed"
            b_pages = await b.store.search_items(("deep_research", "bob", "pages"), limit=50)
            assert b_pages["items"]
            return await a.threads.get_state(tid)

        final = asyncio.run(scenario())
    log = (tmp_path / "server" / "server.log").read_text()
    assert "alice" in log and TOKEN_A not in log and TOKEN_B not in log  # tokens are never logged
    values = final["values"]
    assert values["status"] == "completed", values.get("errors")
    assert values["citation_summary"]["unsupported"] == 0
    # the state names the PDF within the server's output_dir, not where that folder is
    assert not Path(values["outputs"]["pdf"]).is_absolute() and (tmp_path / "reports" / values["outputs"]["pdf"]).is_file()


@pytest.mark.server
def test_jwt_users_are_isolated(tmp_path):
    corpus = write_corpus(tmp_path / "corpus")
    env = {**NO_CREDENTIALS, "DR_TEST_CORPUS": str(corpus), ENV_JWT_SECRET: SECRET,
           "DEEP_RESEARCH_OUTPUT_DIR": str(tmp_path / "reports")}
    alice = "alice@example.com"  # a period: the identity is encoded for the store
    with langgraph_dev(tmp_path / "server", GRAPH, env=env, auth=AUTH) as (base, _):
        for token in (_jwt(alice, exp_in=-120), _jwt(alice, secret="x" * 40), TOKEN_A):
            assert _raw(base, "POST", "/threads/search", json={},
                        headers={"Authorization": f"Bearer {token}"}).status_code == 401
        a, b = _client(base, _jwt(alice)), _client(base, _jwt("bob"))

        async def scenario():
            thread = await a.threads.create()
            tid = thread["thread_id"]
            async for _ in a.runs.stream(tid, "deep_research", input={"messages": [
                    {"role": "user", "content": QUESTION}]}, context={"search_api": "local"}):
                pass
            state = await a.threads.get_state(tid)
            assert state["values"]["status"] == "completed", state["values"].get("errors")
            assert (await a.threads.get(tid))["metadata"]["owner"] == "alice@example%2Ecom"
            pages = await a.store.search_items(("deep_research", "alice@example%2Ecom", "pages"))
            assert pages["items"]
            assert await b.threads.search() == []
            assert await _status(b.threads.get_state(tid)) == 404
            assert await _status(b.runs.create(tid, "deep_research", input={"messages": []})) == 404
            assert await _status(b.store.search_items(("deep_research", "alice@example%2Ecom"))) == 403

        asyncio.run(scenario())
    assert SECRET not in (tmp_path / "server" / "server.log").read_text()


@pytest.mark.server
def test_langgraph_dev_without_credentials_serves_loopback_only(tmp_path):
    corpus = write_corpus(tmp_path / "corpus")
    env = {**NO_CREDENTIALS, "DR_TEST_CORPUS": str(corpus)}
    with langgraph_dev(tmp_path / "server", GRAPH, env=env, auth=AUTH) as (base, _):
        ok = _raw(base, "POST", "/threads", json={})
        assert ok.status_code == 200 and ok.json()["metadata"]["owner"] == "local"
        refused = [{"Host": "research.example.com"}, {"Origin": "https://evil.example"},
                   {"Origin": "http://127.0.0.2:8000"}, {"Authorization": f"Bearer {TOKEN_A}"}]
        for headers in refused:
            r = _raw(base, "POST", "/threads/search", json={}, headers=headers)
            assert r.status_code == 401, headers
            assert "DEEP_RESEARCH_AUTH_TOKENS" in r.json()["detail"]
        # a read another site's page has the browser send (an image, a script, a no-cors
        # fetch: no Origin) is refused like a write; a link followed, or no page, is not
        thread = f"/threads/{ok.json()['thread_id']}"
        for path in (thread, thread + "/state", "/reports/" + ok.json()["thread_id"]):
            for site in ("cross-site", "same-site"):
                for mode, dest in (("no-cors", "script"), ("no-cors", "image"), ("navigate", "iframe"),
                                   ("no-cors", "empty")):
                    headers = {"Sec-Fetch-Site": site, "Sec-Fetch-Mode": mode, "Sec-Fetch-Dest": dest}
                    r = _raw(base, "GET", path, headers=headers)
                    assert r.status_code == 401 and "another site" in r.json()["detail"], (path, headers)
        for headers in ({}, {"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"},
                        {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"},
                        {"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"},
                        {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors", "Origin": "http://localhost:3000"}):
            assert _raw(base, "GET", thread, headers=headers).status_code == 200, headers


@pytest.mark.server
def test_a_runs_null_setting_leaves_its_assistants_value(tmp_path):
    """langgraph-api merges a run's context over its assistant's key by key, so a run's
    null replaced the assistant's value and the graph read "not given": the server's
    default (here: no brief approval, the run went on to research). A null from a run
    means "not given" now, the assistant's value applies; a value the run gives still wins."""
    corpus = write_corpus(tmp_path / "corpus")
    env = {**NO_CREDENTIALS, "DR_TEST_CORPUS": str(corpus), "DEEP_RESEARCH_OUTPUT_DIR": str(tmp_path / "reports")}
    messages = {"messages": [{"role": "user", "content": QUESTION}]}
    with langgraph_dev(tmp_path / "server", GRAPH, env=env, auth=AUTH) as (base, _):
        client = _client(base)

        async def scenario():
            assistant = (await client.assistants.create("deep_research", context={
                "require_brief_approval": True, "max_search_results": 3, "search_api": "local"}))["assistant_id"]
            states = []
            for context in ({"require_brief_approval": None, "max_search_results": None},
                            {"require_brief_approval": None, "max_search_results": 2}):
                tid = (await client.threads.create())["thread_id"]
                await client.runs.wait(tid, assistant, input=messages, context=context)
                states.append(await client.threads.get_state(tid))
            return states

        nulls, given = asyncio.run(scenario())
    for state, results in ((nulls, 3), (given, 2)):
        assert state["next"] == ["approve_research_brief"], state["values"].get("status")
        settings = state["values"]["question_settings"]
        assert settings["require_brief_approval"] is True and settings["max_search_results"] == results, settings

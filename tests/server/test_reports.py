"""Report files served by the LangGraph server (server/reports.py) through a real
`langgraph dev` with the project's langgraph.json: the chat's links, owner-only access,
content types, signed links in a real browser, attacks on the route, and two server
processes sharing one PostgreSQL report store."""

import asyncio
import re
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest

from tests.support.devserver import langgraph_dev
from tests.support.scenario import QUESTION, write_corpus

pytestmark = pytest.mark.server

AUTH = "deep_research.server.auth:auth"
GRAPH = "tests.support.dev_graph:graph"
ALICE = "alice-token-" + "a" * 24
BOB = "bob-token-" + "b" * 24
LINK_SECRET = "report-link-secret-for-tests-" + "k" * 16
CONTEXT = {"search_api": "local", "write_docx": True}
LINK = re.compile(r"\[(PDF|HTML|Word|Markdown|citations\.json|audit\.json)\]\(([^)\s]+)\)")


def _env(tmp_path: Path, **extra) -> dict:
    corpus = tmp_path / "corpus"
    if not corpus.exists():
        write_corpus(corpus)
    return {"DR_TEST_CORPUS": str(corpus), "DEEP_RESEARCH_AUTH_TOKENS": f"{ALICE}:alice,{BOB}:bob",
            "DEEP_RESEARCH_JWT_SECRET": "", "DEEP_RESEARCH_OUTPUT_DIR": str(tmp_path / "reports"), **extra}


def _h(token: str | None = None, **more) -> dict:
    return {**({"Authorization": f"Bearer {token}"} if token else {}), **more}


def _research(base: str, token: str) -> tuple[str, dict]:
    """One research run as ``token``'s user; (thread id, final values)."""
    from langgraph_sdk import get_client

    async def go():
        client = get_client(url=base, api_key=None, headers=_h(token))
        thread = await client.threads.create()
        await client.runs.wait(thread["thread_id"], "deep_research", context=CONTEXT,
                               input={"messages": [{"role": "user", "content": QUESTION}]})
        state = await client.threads.get_state(thread["thread_id"])
        return thread["thread_id"], state["values"]

    return asyncio.run(go())


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A `langgraph dev` with two users and signed links; alice's finished research."""
    tmp = tmp_path_factory.mktemp("reports")
    env = _env(tmp, DEEP_RESEARCH_REPORT_LINK_SECRET=LINK_SECRET)
    with langgraph_dev(tmp / "server", GRAPH, env=env, auth=AUTH) as (base, _):
        thread, values = _research(base, ALICE)
        assert values["status"] == "completed", values.get("errors")
        yield base, thread, values, tmp


def _links(values: dict) -> dict[str, str]:
    last = values["messages"][-1]
    return dict(LINK.findall(last["content"]))


def test_the_chat_links_each_file_signed_for_its_owner(served):
    base, thread, values, _ = served
    links = _links(values)
    assert set(links) == {"PDF", "HTML", "Word", "Markdown", "citations.json", "audit.json"}
    served_info = values["outputs"]["served"]
    assert served_info["thread"] == thread and served_info["files"]["report.pdf"] == links["PDF"]
    for url in links.values():
        parts = urlsplit(url)
        assert f"{parts.scheme}://{parts.netloc}" == base and parts.path.startswith(f"/reports/{thread}/")
        assert "u=alice" in parts.query and "sig=" in parts.query and "exp=" in parts.query
    assert not Path(values["outputs"]["dir"]).is_absolute()  # the state: relative to the report folder
    assert values["outputs"]["dir"] not in values["messages"][-1]["content"]  # no server path in the chat


def test_the_owner_gets_every_file_with_its_type(served):
    base, thread, values, tmp = served
    folder = tmp / "reports" / values["outputs"]["dir"]
    listing = httpx.get(f"{base}/reports/{thread}", headers=_h(ALICE), timeout=30)
    assert listing.status_code == 200, listing.text
    [report] = listing.json()["reports"]
    assert report["report"] == values["outputs"]["served"]["report"]
    expected = {"report.pdf": "application/pdf", "report.html": "text/html; charset=utf-8",
                "report.docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                "report.linked.md": "text/markdown; charset=utf-8", "report.md": "text/markdown; charset=utf-8",
                "citations.json": "application/json", "audit.json": "application/json",
                "notes.md": "text/markdown; charset=utf-8", "run.json": "application/json",
                "sources.json": "application/json"}
    assert set(report["files"]) == set(expected)
    for name, ctype in expected.items():
        for report_id in (report["report"], "latest"):
            r = httpx.get(f"{base}/reports/{thread}/{report_id}/{name}", headers=_h(ALICE), timeout=30)
            assert r.status_code == 200 and r.headers["content-type"] == ctype, (name, r.status_code)
            assert r.content == (folder / name).read_bytes(), name  # the very bytes the run wrote
            assert r.headers["x-content-type-options"] == "nosniff"
            assert r.headers["cache-control"] == "private, no-store"
            disposition = "attachment" if name.endswith(".docx") else "inline"
            assert r.headers["content-disposition"] == f'{disposition}; filename="{name}"'
            if name != "report.pdf":
                assert "sandbox" in r.headers["content-security-policy"]
    html = httpx.get(f"{base}/reports/{thread}/latest/report.html", headers=_h(ALICE), timeout=30)
    csp = html.headers["content-security-policy"]
    assert "sandbox" in csp and "allow-scripts" not in csp and "allow-same-origin" not in csp
    assert "default-src 'none'" in csp and "script-src" not in csp
    assert httpx.get(f"{base}/reports/{thread}/latest/report.pdf", headers=_h(ALICE)).content.startswith(b"%PDF-")


def test_others_learn_nothing(served):
    base, thread, values, _ = served
    report = values["outputs"]["served"]["report"]
    pdf = f"/reports/{thread}/{report}/report.pdf"
    unknown = f"/reports/{uuid.uuid4()}/{report}/report.pdf"
    # another user: the same 404 as for a report that does not exist
    for path in (pdf, f"/reports/{thread}", f"/reports/{thread}/latest/report.pdf"):
        r = httpx.get(base + path, headers=_h(BOB), timeout=30)
        assert r.status_code == 404, path
        assert r.content == httpx.get(base + unknown, headers=_h(BOB), timeout=30).content
    # no or bad credentials: 401 before the route runs
    for headers in ({}, _h("not-a-token-but-long-enough"), {"Authorization": "Basic YWxpY2U6eA=="}):
        assert httpx.get(base + pdf, headers=headers, timeout=30).status_code == 401
    # alice's signed link: works alone; with bob's credentials it is bob asking (404)
    link = _links(values)["PDF"]
    assert httpx.get(link, timeout=30).status_code == 200
    assert httpx.get(link, headers=_h(BOB), timeout=30).status_code == 404


def test_attacks_on_the_route(served):
    base, thread, values, _ = served
    report = values["outputs"]["served"]["report"]
    link = urlsplit(_links(values)["PDF"])
    query = link.query

    def signed(path: str, q: str = query) -> int:
        return httpx.get(urlunsplit((link.scheme, link.netloc, path, q, "")), timeout=30).status_code

    # a signature opens its own file only, unaltered, as its own user
    assert signed(link.path) == 200
    assert signed(link.path.replace("report.pdf", "report.html")) == 401
    assert signed(link.path.replace(report, "latest")) == 401
    assert signed(link.path, query.replace("u=alice", "u=bob")) == 401
    assert signed(link.path, re.sub(r"exp=\d+", "exp=9999999999", query)) == 401
    assert signed(link.path, re.sub(r"sig=[^&]+", "sig=" + "A" * 43, query)) == 401
    assert signed(link.path, re.sub(r"exp=\d+", "exp=1", query)) == 401
    assert signed(f"/reports/{thread}", query) == 401  # the listing is not a file
    assert signed(f"/threads/{thread}", query) == 401  # nor is anything else
    # path tricks: ids are looked up in the store, never used as paths
    for path in (f"/reports/{thread}/latest/..%2F..%2F..%2Fetc%2Fpasswd", f"/reports/{thread}/latest/%2Fetc%2Fpasswd",
                 f"/reports/{thread}/latest/raw_notes.md", f"/reports/{thread}/latest/report.pdf%00.html",
                 f"/reports/{thread}/..%2F{report}/report.pdf", f"/reports/{thread}/{report}.x/report.pdf",
                 f"/reports/{thread}/latest/.run.json", f"/reports/{thread}/latest/REPORT.PDF",
                 f"/reports/{thread}/latest/SOURCES.JSON", f"/reports/{thread}/latest/sources.json%00.html",
                 f"/reports/{thread}/latest/..%2Fsources.json",
                 "/reports/..%2F..%2Fetc/latest/passwd", "/reports/" + "a" * 5000 + "/latest/report.pdf"):
        r = httpx.get(base + path, headers=_h(ALICE), timeout=30)
        assert r.status_code == 404, (path, r.status_code)
        assert b"root:" not in r.content
    for method in ("POST", "PUT", "DELETE", "PATCH"):  # read-only (langgraph-api answers 404 for them)
        assert httpx.request(method, f"{base}/reports/{thread}/latest/report.pdf", headers=_h(ALICE),
                             timeout=30).status_code in (404, 405)
    # a foreign web page gets no CORS grant to read a report (a loopback UI does)
    evil = httpx.get(f"{base}/reports/{thread}/latest/report.md", headers=_h(ALICE, Origin="https://evil.example"))
    assert "access-control-allow-origin" not in evil.headers
    ui = httpx.get(f"{base}/reports/{thread}/latest/report.md", headers=_h(ALICE, Origin="http://localhost:3000"))
    assert ui.headers.get("access-control-allow-origin") == "http://localhost:3000"
    # the /store API cannot plant or change report files (the graph alone writes them)
    for ns in (["deep_research", "alice", "report_files", thread, report], ["deep_research", "alice", "reports", thread]):
        r = httpx.put(f"{base}/store/items", headers=_h(ALICE), timeout=30,
                      json={"namespace": ns, "key": "report.html", "value": {"data": "PHNjcmlwdD4=", "bytes": 8}})
        assert r.status_code == 403, (ns, r.status_code, r.text)
    assert httpx.get(f"{base}/reports/{thread}/latest/report.html", headers=_h(ALICE)).status_code == 200


@pytest.mark.browser
def test_a_browser_opens_the_chats_links(served):
    """The chat's PDF link works in Chromium without credentials (it is signed); the HTML
    link shows the report, sandboxed."""
    from tests.support.chromium import CHROMIUM

    base, thread, values, tmp = served
    links = _links(values)
    pdf_bytes = (tmp / "reports" / values["outputs"]["pdf"]).read_bytes()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        context = browser.new_context(accept_downloads=True)
        page = context.new_page()
        downloads = []
        page.on("download", lambda d: downloads.append(d))
        try:  # Chromium shows the PDF in its viewer, or (some builds, headless) downloads it
            response = page.goto(links["PDF"])
        except Exception as e:  # noqa: BLE001 - a navigation that became a download
            assert "Download is starting" in str(e), e
            response = None
        if response is not None:
            assert response.status == 200 and response.headers["content-type"] == "application/pdf"
            assert context.request.get(links["PDF"]).body() == pdf_bytes  # (the viewer's page is HTML)
        else:
            saved = tmp / "downloaded.pdf"
            downloads[0].save_as(saved)
            assert saved.read_bytes() == pdf_bytes
        response = page.goto(links["HTML"])
        assert response.status == 200
        assert page.locator("h1.title").inner_text().strip()
        assert "sandbox" in response.headers["content-security-policy"]
        browser.close()


def test_a_second_server_process_serves_what_the_first_stored(tmp_path, postgres_db):
    """Two `langgraph dev` processes on different ports share one PostgreSQL report store
    (DEEP_RESEARCH_REPORT_STORE); their own threads stay in each one's memory. A report
    alice's run wrote through the first is served by the second, to alice only."""
    env = _env(tmp_path, DEEP_RESEARCH_REPORT_STORE=postgres_db)
    with langgraph_dev(tmp_path / "a", GRAPH, env=env, auth=AUTH) as (first, _), \
            langgraph_dev(tmp_path / "b", GRAPH, env=env, auth=AUTH) as (second, _):
        assert first != second
        thread, values = _research(first, ALICE)
        assert values["status"] == "completed", values.get("errors")
        report = values["outputs"]["served"]["report"]
        # the thread lives in the first process only; the report is in the shared store
        assert httpx.get(f"{second}/threads/{thread}", headers=_h(ALICE), timeout=30).status_code == 404
        listing = httpx.get(f"{second}/reports/{thread}", headers=_h(ALICE), timeout=30)
        assert listing.status_code == 200 and [r["report"] for r in listing.json()["reports"]] == [report]
        for name in ("report.pdf", "report.html", "citations.json", "audit.json", "report.linked.md"):
            via_second = httpx.get(f"{second}/reports/{thread}/{report}/{name}", headers=_h(ALICE), timeout=30)
            via_first = httpx.get(f"{first}/reports/{thread}/{report}/{name}", headers=_h(ALICE), timeout=30)
            assert via_second.status_code == via_first.status_code == 200, name
            assert via_second.content == via_first.content == (tmp_path / "reports" / values["outputs"]["dir"] / name).read_bytes()
        assert httpx.get(f"{second}/reports/{thread}/{report}/report.pdf", headers=_h(BOB), timeout=30).status_code == 404
        assert httpx.get(f"{second}/reports/{thread}/{report}/report.pdf", timeout=30).status_code == 401
        assert httpx.get(f"{second}/reports/{thread}", headers=_h(BOB), timeout=30).status_code == 404


@pytest.mark.browser
def test_report_html_cannot_run_script_in_the_servers_origin(tmp_path, postgres_db):
    """A report HTML carrying script (as if the store had been tampered with) is shown by
    the route in Chromium without running any of it."""
    from langgraph.store.postgres.aio import AsyncPostgresStore

    from deep_research.research.runtime.report_files import ReportFiles
    from tests.support.chromium import CHROMIUM

    thread, report = str(uuid.uuid4()), str(uuid.uuid4())
    evil = ("<!doctype html><html><head><title>t</title></head><body><h1 id=t>report</h1>"
            "<script>document.body.setAttribute('data-pwned', 'script')</script>"
            "<img src=x onerror=\"document.body.setAttribute('data-pwned', 'onerror')\">"
            "<iframe srcdoc=\"<script>parent.document.body.setAttribute('data-pwned','frame')</script>\"></iframe>"
            "</body></html>")
    html = tmp_path / "report.html"
    html.write_text(evil)

    async def plant():
        async with AsyncPostgresStore.from_conn_string(postgres_db) as store:
            await store.setup()
            await ReportFiles(store, "alice").save(thread, report, {"html": str(html)})

    asyncio.run(plant())
    env = _env(tmp_path, DEEP_RESEARCH_REPORT_STORE=postgres_db)
    with langgraph_dev(tmp_path / "srv", GRAPH, env=env, auth=AUTH) as (base, _):
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
            page = browser.new_context(extra_http_headers=_h(ALICE)).new_page()
            response = page.goto(f"{base}/reports/{thread}/{report}/report.html")
            assert response.status == 200 and page.locator("#t").inner_text() == "report"
            page.wait_for_timeout(500)
            assert page.evaluate("document.body.getAttribute('data-pwned')") is None
            assert page.evaluate("window.origin") == "null"  # sandboxed: not the server's origin
            browser.close()

"""SearXNG search against a SearXNG-shaped server on 127.0.0.1 (its /search JSON API, and
the pages its results point to): results fetched for citation, errors that name the fix
(JSON format disabled, unreachable, not JSON), a scripted research run end to end with
search_api=searxng, and pages given with --url / research_urls."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from deep_research.errors import UserError
from deep_research.research.runtime.deps import Deps, default_search_factory
from deep_research.research.runtime.configuration import Configuration
from deep_research.research.graph import make_graph
from deep_research.research.runtime.preflight import preflight
from deep_research.search import SearchError, SearxngSearch, make_search
from deep_research.search.fetch import FetchPolicy, PageFetcher
from tests.support.scenario import PAGES, QUESTION, full_script
from tests.support.scripted import scripted_factory
from tests.support.webserver import WebServer
from tests.cli.test_research import run as run_cli


def page_html(title: str, sentences: list[str]) -> str:
    paras = "\n".join(f"<p>{s}</p>" for s in sentences)
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title>"
            "<meta name='author' content='Test Author'><meta property='og:site_name' content='Heat Notes'>"
            "<meta property='article:published_time' content='2024-02-01'></head>"
            f"<body><nav><a href='/'>Home</a></nav><article><h1>{title}</h1>\n{paras}\n</article>"
            "<footer><p>Written for the deep-research test suite.</p></footer></body></html>")


def searxng_server(*, json_enabled: bool = True, extra_results: list[dict] | None = None,
                   body: str | None = None) -> WebServer:
    """A server that answers /search like SearXNG (results: the scenario's pages on the same
    server) and serves those pages."""
    srv = WebServer()
    for name, (title, sentences) in PAGES.items():
        srv.page(f"/pages/{name}", page_html(title, sentences))
    srv.queries = []

    def search(h, s):
        params = {k: v[0] for k, v in parse_qs(urlsplit(h.path).query).items()}
        s.queries.append(params)
        if body is not None:
            h.send_text(200, body, "text/html; charset=utf-8")
            return
        if params.get("format") == "json" and not json_enabled:
            h.send_text(403, "<html><body>403 Forbidden</body></html>", "text/html")
            return
        results = [{"url": s.url(f"/pages/{name}"), "title": title, "content": sentences[0][:80],
                    "engine": "fake", "score": 3.0 - i}
                   for i, (name, (title, sentences)) in enumerate(PAGES.items())]
        results += extra_results or []
        h.send_text(200, json.dumps({"query": params.get("q"), "number_of_results": len(results),
                                     "results": results, "answers": [], "unresponsive_engines": []}),
                    "application/json")

    srv.route("/search", search)
    return srv


def backend(srv: WebServer, **options) -> SearxngSearch:
    return SearxngSearch(srv.base, fetcher=PageFetcher(FetchPolicy(allow_private=True, backoff_s=0.01)),
                         timeout_s=5, max_retries=1, backoff_s=0.01, **options)


def test_results_are_fetched_and_options_sent():
    extra = [{"url": "", "title": "no url"}, {"url": "ftp://example.org/x", "title": "not web"}]
    with searxng_server(extra_results=extra) as srv:
        srv.page("/pages/missing.html", "gone", "text/plain", status=404)
        b = backend(srv, engines=["duckduckgo", "wikipedia"], categories=["general"], time_range="year",
                    safesearch=2, language="en")
        results = asyncio.run(b.search("heat pumps cold", max_results=2))
        params = srv.queries[-1]
    assert params == {"q": "heat pumps cold", "format": "json", "engines": "duckduckgo,wikipedia",
                      "categories": "general", "time_range": "year", "safesearch": "2", "language": "en"}
    assert len(results) == 2
    first = results[0]
    assert first.url.endswith("/pages/heat-pump-basics.html") and first.format == "text"
    assert "A heat pump moves heat from a cold place to a warm place" in first.content
    assert "test suite" not in first.content  # the footer is not main text
    assert first.snippet.startswith("A heat pump moves heat") and first.score == 3.0
    assert first.author == "Test Author" and first.site_name == "Heat Notes" and first.published == "2024-02-01"
    assert not first.skipped and not first.partial


def test_a_page_that_cannot_be_fetched_is_reported_skipped():
    with WebServer() as srv:
        srv.page("/gone.html", "gone", "text/plain", status=404)
        srv.page("/ok.html", page_html("Fine", ["This page can be fetched and read without any trouble at all."]))
        srv.page("/search", json.dumps({"results": [
            {"url": srv.url("/gone.html"), "title": "Gone", "content": "A snippet that is not the page."},
            {"url": srv.url("/ok.html"), "title": "Fine", "content": "snippet"}]}), "application/json")
        results = asyncio.run(backend(srv).search("anything", max_results=5))
    gone, ok = results
    assert gone.content == "" and gone.skipped.startswith("http_status: HTTP 404")
    assert gone.snippet == "A snippet that is not the page."  # kept for display, never cited
    assert "can be fetched" in ok.content and not ok.skipped


def test_json_disabled_is_explained():
    with searxng_server(json_enabled=False) as srv:
        with pytest.raises(SearchError) as e:
            asyncio.run(backend(srv).search("heat pumps"))
        assert srv.hits["/search"] == 1  # not transient: no retry
    message = str(e.value)
    assert "HTTP 403" in message and "settings.yml" in message and "formats: [html, json]" in message
    assert srv.base in message


def test_an_answer_that_is_not_json_is_explained():
    with searxng_server(body="<html><body>Welcome to my blog</body></html>") as srv:
        with pytest.raises(SearchError) as e:
            asyncio.run(backend(srv).search("heat pumps"))
    assert "not JSON" in str(e.value) and "text/html" in str(e.value)


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_an_unreachable_instance_is_named_after_bounded_retries():
    url = f"http://127.0.0.1:{free_port()}"
    b = SearxngSearch(url, fetcher=PageFetcher(), timeout_s=2, max_retries=2, backoff_s=0.01)
    with pytest.raises(SearchError) as e:
        asyncio.run(b.search("heat pumps"))
    assert "cannot reach SearXNG at " + url in str(e.value) and "after 3 attempts" in str(e.value)


def test_settings_are_checked():
    from deep_research.search import SearchConfigError

    with pytest.raises(SearchConfigError, match="searxng_url"):
        make_search("searxng")
    with pytest.raises(SearchConfigError, match="not an http"):
        make_search("searxng", searxng_url="localhost:8888")
    b = make_search("searxng", searxng_url="http://localhost:8888/search/")
    assert b.base_url == "http://localhost:8888"
    cfg = Configuration.resolve(None, {"searxng_engines": "bing, wikipedia", "searxng_time_range": "none",
                                       "searxng_safesearch": "1"}, environ={})
    assert cfg.searxng_engines == ["bing", "wikipedia"] and cfg.searxng_time_range is None
    assert cfg.searxng_safesearch == 1
    with pytest.raises(UserError, match="searxng_time_range"):
        Configuration.resolve(None, {"searxng_time_range": "decade"}, environ={})


def test_preflight_reports_json_disabled_before_any_cost(monkeypatch):
    monkeypatch.delenv("SEARXNG_URL", raising=False)
    with searxng_server(json_enabled=False) as srv:
        cfg = Configuration.resolve(None, {"search_api": "searxng", "searxng_url": srv.base,
                                           "model": "openai:gpt-4.1"}, environ={})
        deps = Deps(model_factory=scripted_factory(full_script()))
        with pytest.raises(UserError) as e:
            asyncio.run(preflight(cfg, deps))
    assert "formats: [html, json]" in str(e.value)


# --- the CLI ------------------------------------------------------------------------------------
SCRIPTED = {"DEEP_RESEARCH_DEPS": "tests.support.cli_deps:deps"}


def test_cli_unreachable_and_json_disabled_exit_2(tmp_path):
    url = f"http://127.0.0.1:{free_port()}"
    r = run_cli("research", QUESTION, "--search", "searxng", "--searxng-url", url, "--yes",
                "--out", tmp_path / "r", "--db", tmp_path / "s.sqlite", env=SCRIPTED)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and f"cannot reach SearXNG at {url}" in r.stderr
    with searxng_server(json_enabled=False) as srv:
        r = run_cli("research", QUESTION, "--searxng-url", srv.base, "--yes",
                    "--out", tmp_path / "r", "--db", tmp_path / "s.sqlite", env=SCRIPTED)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "HTTP 403" in r.stderr and "json" in r.stderr and "Traceback" not in r.stderr
    r = run_cli("research", QUESTION, "--search", "bing", env=SCRIPTED)
    assert r.returncode == 2 and "tavily, local, searxng, openai_web, anthropic_web or none" in r.stderr


def test_cli_refuses_bad_urls_at_preflight(tmp_path):
    with WebServer() as srv:
        srv.page("/page.html", page_html("Local", ["A page served on the loopback address for this test."]))
        r = run_cli("research", QUESTION, "--search", "none", "--url", srv.url("/page.html"), "--url",
                    "ftp://example.org/file", "--yes", "--out", tmp_path / "r", "--db", tmp_path / "s.sqlite",
                    env=SCRIPTED)
        assert srv.hits["/page.html"] == 0
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    err = " ".join(r.stderr.split())
    assert srv.url("/page.html") in err and "loopback" in err and "fetch_allow_private" in err
    assert "ftp://example.org/file" in err and "http:// and https://" in err


# --- whole runs -----------------------------------------------------------------------------------
def run_graph(context: dict, tmp_path: Path) -> dict:
    script = full_script(wrong_quote=False)
    deps = Deps(model_factory=scripted_factory(script), search_factory=default_search_factory)
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    config = {"configurable": {"thread_id": "searxng"}}

    async def go():
        async for _ in graph.astream({"messages": [HumanMessage(QUESTION)]}, config,
                                     context={"output_dir": str(tmp_path / "reports"), "write_pdf": False,
                                              **context},
                                     stream_mode="updates", subgraphs=True):
            pass
        return (await graph.aget_state(config)).values

    return asyncio.run(go())


def test_research_run_with_searxng_cites_fetched_pages(tmp_path, monkeypatch):
    monkeypatch.delenv("SEARXNG_URL", raising=False)
    with searxng_server() as srv:
        v = run_graph({"search_api": "searxng", "searxng_url": srv.base, "fetch_allow_private": True,
                       "searxng_engines": "fake"}, tmp_path)
        queries = [q["q"] for q in srv.queries]
    assert v["status"] == "completed", v.get("errors")
    assert "heat pump installation cost euros" in queries and all(q.get("engines") == "fake" for q in srv.queries)
    summary = v["citation_summary"]
    assert summary["unsupported"] == 0 and summary["verified"] >= 4, summary
    cites = json.loads(Path(v["outputs"]["citations"]).read_text())
    assert cites and all(c["status"] == "verified" for c in cites)
    assert all(c["url"].startswith(srv.url("/pages/")) and ":~:text=" in c["url"] for c in cites)
    metas = list(v["sources"].values())
    assert metas and all(m["site_name"] == "Heat Notes" and m["author"] == "Test Author" for m in metas)


def test_research_run_with_given_urls_only(tmp_path):
    """--search none with --url: the given pages are the sources, fetched once, cited."""
    with searxng_server() as srv:
        urls = [srv.url("/pages/costs.html"), srv.url("/pages/heat-pump-basics.html")]
        v = run_graph({"search_api": "none", "research_urls": urls, "fetch_allow_private": True}, tmp_path)
        hits = dict(srv.hits)
    assert v["status"] == "completed", v.get("errors")
    cites = json.loads(Path(v["outputs"]["citations"]).read_text())
    assert cites and all(c["status"] == "verified" for c in cites)
    cited = {c["url"].split("#")[0] for c in cites}
    assert cited <= set(urls) and len(cited) == 2
    assert any("8,000 and 15,000 euros" in c["quote"] for c in cites)
    assert hits["/pages/costs.html"] == 1  # fetched at preflight, reused by both researchers
    assert hits.get("/search", 0) == 0


def test_given_urls_join_the_configured_search(tmp_path, monkeypatch):
    monkeypatch.delenv("SEARXNG_URL", raising=False)
    with searxng_server() as srv:
        srv.page("/extra.html", page_html("District heating", [
            "District heating networks deliver hot water from a central plant to many buildings."]))
        v = run_graph({"search_api": "searxng", "searxng_url": srv.base, "fetch_allow_private": True,
                       "research_urls": [srv.url("/extra.html")]}, tmp_path)
    assert v["status"] == "completed", v.get("errors")
    urls = {m["url"] for m in v["sources"].values()}
    assert srv.url("/extra.html") in urls and srv.url("/pages/costs.html") in urls


def test_a_shared_server_refuses_a_run_that_allows_private_addresses():
    with pytest.raises(UserError, match="DEEP_RESEARCH_FETCH_ALLOW_PRIVATE"):
        Configuration.resolve(None, {"fetch_allow_private": True}, environ={}, above_ceiling="refuse")
    cfg = Configuration.resolve(None, {"fetch_allow_private": True},
                                environ={"DEEP_RESEARCH_FETCH_ALLOW_PRIVATE": "true"}, above_ceiling="refuse")
    assert cfg.fetch_allow_private
    # the CLI (the user's own machine) may allow them
    assert Configuration.resolve(None, {"fetch_allow_private": True}, environ={}).fetch_allow_private


def test_cli_researches_given_pages(tmp_path):
    with searxng_server() as srv:
        r = run_cli("research", QUESTION, "--search", "none", "--url", srv.url("/pages/costs.html"),
                    "--url", srv.url("/pages/cold-climates.html"), "--fetch-allow-private", "--yes", "--no-pdf",
                    "--out", tmp_path / "r", "--db", tmp_path / "s.sqlite", env=SCRIPTED)
    assert r.returncode == 0, r.stdout + r.stderr
    cites = json.loads(next((tmp_path / "r").rglob("citations.json")).read_text())
    assert cites and all(c["status"] == "verified" for c in cites)
    assert {c["url"].split("#")[0] for c in cites} <= {srv.url("/pages/costs.html"),
                                                        srv.url("/pages/cold-climates.html")}


def test_a_shared_server_keeps_its_own_searxng_instance():
    env = {"SEARXNG_URL": "http://searxng.internal:8080"}
    with pytest.raises(UserError, match="searxng_url cannot be set by a run"):
        Configuration.resolve(None, {"searxng_url": "http://169.254.169.254"}, environ=env, above_ceiling="refuse")
    same = Configuration.resolve(None, {"searxng_url": "http://searxng.internal:8080"}, environ=env,
                                 above_ceiling="refuse")
    assert same.searxng_url == "http://searxng.internal:8080"
    assert Configuration.resolve(None, {"searxng_url": "http://localhost:8888"}, environ={}).searxng_url


def test_searxng_failing_mid_run_is_recorded_like_any_search_failure(tmp_path, monkeypatch):
    """The instance answers the preflight's query, then refuses JSON: each search failure is
    recorded with SearXNG's message (as Tavily failures are), and the run does not invent a report."""
    monkeypatch.delenv("SEARXNG_URL", raising=False)
    with searxng_server() as srv:
        ok = srv.routes["/search"]

        def flaky(h, s):
            if "preflight" in h.path:
                return ok(h, s)
            s.queries.append({k: v[0] for k, v in parse_qs(urlsplit(h.path).query).items()})
            h.send_text(403, "<html>403 Forbidden</html>", "text/html")

        srv.route("/search", flaky)
        try:
            v = run_graph({"search_api": "searxng", "searxng_url": srv.base, "fetch_allow_private": True}, tmp_path)
        except Exception as e:  # noqa: BLE001 - the run may stop with its error; the state says why
            v = {"status": "failed", "error": str(e)}
        queries = [q["q"] for q in srv.queries]
    assert queries[0] == "deep-research preflight" and len(queries) > 1
    found = json.dumps(v, default=str)
    assert v["status"] == "failed" and "no research produced citable findings" in found
    assert "refused format=json (HTTP 403)" in found and "formats: [html, json]" in found


def test_given_pages_reach_a_researcher_that_thinks_before_it_searches(tmp_path):
    from langchain_core.messages import ToolMessage

    from deep_research.research.runtime.sources import source_id_for
    from tests.support.scenario import TOPIC_EFFICIENCY
    from tests.support.scripted import Script, calls, tool_call

    def think_then_search(messages):
        done = [m.name for m in messages if isinstance(m, ToolMessage)]
        if not done:
            return calls(tool_call("think_tool", reflection="First decide what to look for."))
        if "search" not in done:
            return calls(tool_call("search", query="heat pump efficiency"))
        return "I have what the given page says."

    script = Script().on("research", f"Research this topic: {TOPIC_EFFICIENCY}", think_then_search, repeat=True)
    script.rules += full_script(wrong_quote=False).rules
    with searxng_server() as srv:
        url = srv.url("/pages/heat-pump-basics.html")
        deps = Deps(model_factory=scripted_factory(script), search_factory=default_search_factory)
        graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
        config = {"configurable": {"thread_id": "think-first"}}

        async def go():
            async for _ in graph.astream({"messages": [HumanMessage(QUESTION)]}, config, context={
                    "search_api": "none", "research_urls": [url], "fetch_allow_private": True,
                    "output_dir": str(tmp_path / "reports"), "write_pdf": False},
                    stream_mode="updates", subgraphs=True):
                pass
            return (await graph.aget_state(config)).values

        v = asyncio.run(go())
    assert v["status"] == "completed", v.get("errors")
    efficiency = [n for n in v["notes"] if n["topic"] == TOPIC_EFFICIENCY]
    assert efficiency and f'<ref id="{source_id_for(url)}"' in efficiency[0]["findings"]


def test_searxng_url_from_the_environment_and_cli_options_reach_the_settings(monkeypatch):
    from deep_research.cli.settings import context_from_options

    monkeypatch.setenv("SEARXNG_URL", "http://searx.example:8080/")
    cfg = Configuration.resolve(None, {"search_api": "searxng", "searxng_categories": "science"}, environ={})
    backend = default_search_factory(cfg)
    assert isinstance(backend, SearxngSearch) and backend.base_url == "http://searx.example:8080"
    assert backend.params("q")["categories"] == "science"
    ctx = context_from_options(search="searxng", searxng_url="http://s:1", searxng_engines="a,b",
                               searxng_time_range="week", searxng_safesearch=0, url=["https://a.example/x"],
                               fetch_allow_private=None, fetch_robots=False, fetch_timeout=12.5,
                               fetch_max_bytes=50_000, web_search_model=None, pdf=None)
    assert ctx == {"search_api": "searxng", "searxng_url": "http://s:1", "searxng_engines": "a,b",
                   "searxng_time_range": "week", "searxng_safesearch": 0, "research_urls": ["https://a.example/x"],
                   "fetch_respect_robots": False, "fetch_timeout_s": 12.5, "fetch_max_bytes": 50_000}
    cfg = Configuration.resolve(None, ctx, environ={})
    assert cfg.searxng_engines == ["a", "b"] and cfg.searxng_safesearch == 0 and not cfg.fetch_respect_robots


# --- issue 19 ---------------------------------------------------------------------------------
def test_an_answer_is_bounded_on_the_wire_and_decoded():
    """The finding: answers were buffered and decoded whole before their size check."""
    import gzip
    import tracemalloc

    bomb = gzip.compress(b'{"results": [], "pad": "' + b"a" * 60_000_000 + b'"}', 9)
    with WebServer() as srv:
        srv.page("/search", bomb, "application/json", headers={"Content-Encoding": "gzip"})
        tracemalloc.start()
        try:
            with pytest.raises(SearchError, match="larger than 5,000,000 bytes"):
                asyncio.run(backend(srv).search("anything"))
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak < 30_000_000, f"{peak:,} bytes at the peak"


def test_deeply_nested_json_is_a_clear_search_error():
    with WebServer() as srv:
        srv.page("/search", "[" * 100_000 + "]" * 100_000, "application/json")
        with pytest.raises(SearchError, match="nested too deeply"):
            asyncio.run(backend(srv).search("anything"))


def test_one_bad_result_does_not_discard_the_search():
    """Results an instance (or a page it found) makes up: malformed URLs, a redirect to
    data:, a charset that breaks decoders, absurd scores and titles. Each bad one is skipped
    with its reason; the good page is read."""
    with WebServer() as srv:
        srv.page("/ok.html", page_html("Fine", ["This page can be fetched and read without any trouble at all."]))
        srv.page("/idna.html", page_html("Idna", ["A page that declares an odd charset still reads fine."]),
                 "text/html; charset=idna")
        srv.route("/to-data", lambda h, s: h.redirect("data:text/html,<p>hi</p>"))
        srv.page("/search", json.dumps({"results": [
            {"url": "http://0177.0.0.1/", "title": "octal"},
            {"url": "http://exa\tmple.com/", "title": "tab"},
            {"url": "http://[::1", "title": "bracket"},
            {"url": {"nested": "dict"}, "title": "not a string"},
            {"url": srv.url("/to-data"), "title": ["a", "list"], "score": 10**400},
            {"url": srv.url("/idna.html"), "title": "idna", "score": 1.5},
            {"url": srv.url("/ok.html"), "title": "Fine", "content": "snippet", "score": 2}]}), "application/json")
        results = asyncio.run(backend(srv).search("anything", max_results=10))
    by_url = {r.url: r for r in results}
    assert "can be fetched" in by_url[srv.url("/ok.html")].content
    assert "still reads fine" in by_url[srv.url("/idna.html")].content
    assert by_url["http://0177.0.0.1/"].skipped.startswith("bad_url")
    assert by_url["http://exa\tmple.com/"].skipped.startswith("bad_url")
    data = by_url[srv.url("/to-data")]
    assert data.skipped.startswith("bad_url") and data.score is None and data.title == data.url
    assert "http://[::1" not in by_url  # not an http(s) URL one can split: left out like ftp://

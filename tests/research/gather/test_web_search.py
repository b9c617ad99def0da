"""Native provider web search (search_api=openai_web): the Responses API's web_search tool
on the scripted OpenAI-compatible server, the cited pages fetched from 127.0.0.1 and
verified like any other source."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from deep_research.research.runtime.deps import Deps, default_search_factory
from deep_research.research.graph import make_graph
from deep_research.research.gather.web_search import ResponsesWebSearch, cited_urls
from deep_research.search.fetch import FetchPolicy, PageFetcher
from tests.support.openai_server import ScriptServer
from tests.support.scenario import PAGES, QUESTION, full_script
from tests.support.scripted import Script, scripted_factory
from tests.support.webserver import WebServer
from tests.search.test_searxng import page_html


def pages_server() -> WebServer:
    srv = WebServer()
    for name, (title, sentences) in PAGES.items():
        srv.page(f"/pages/{name}", page_html(title, sentences))
    return srv


def test_cited_urls_from_a_responses_answer():
    answer = {"output": [
        {"type": "web_search_call", "action": {"type": "search", "sources": [
            {"type": "url", "url": "https://b.example/2"}, {"type": "url", "url": "https://c.example/3"}]}},
        {"type": "message", "content": [{"type": "output_text", "text": "x", "annotations": [
            {"type": "url_citation", "url": "https://a.example/1", "title": "A"},
            {"type": "url_citation", "url": "https://b.example/2", "title": "B"},
            {"type": "url_citation", "url": "javascript:alert(1)", "title": "bad"},
            {"type": "file_citation", "file_id": "f"}]}]}]}
    assert cited_urls(answer) == [("https://a.example/1", "A"), ("https://b.example/2", "B"),
                                  ("https://c.example/3", "")]


def test_web_search_pages_are_fetched_and_failures_skipped():
    with pages_server() as web:
        cited = [{"url": web.url("/pages/costs.html"), "title": "Costs"},
                 {"url": web.url("/missing.html"), "title": "Missing"}]
        with ScriptServer(Script(), web_search=cited) as api:
            backend = ResponsesWebSearch("gpt-test", fetcher=PageFetcher(FetchPolicy(allow_private=True)),
                                         base_url=api.base_url, api_key="k", timeout_s=10, max_retries=0)
            results = asyncio.run(backend.search("heat pump costs", max_results=5))
            request = api.requests[-1]
    assert request["model"] == "gpt-test" and request["tools"] == [{"type": "web_search"}]
    assert request["input"] == "heat pump costs"
    costs, missing = results
    assert "between 8,000 and 15,000 euros" in costs.content and costs.format == "text"
    assert missing.content == "" and "HTTP 404" in missing.skipped


def test_research_run_with_native_web_search(tmp_path):
    with pages_server() as web:
        cited = [{"url": web.url(f"/pages/{name}"), "title": title} for name, (title, _) in PAGES.items()]
        with ScriptServer(Script(), web_search=cited) as api:
            deps = Deps(model_factory=scripted_factory(full_script(wrong_quote=False)),
                        search_factory=default_search_factory)
            graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
            config = {"configurable": {"thread_id": "websearch"}}
            context = {"search_api": "openai_web", "model_base_url": api.base_url, "fetch_allow_private": True,
                       "web_search_model": "gpt-test", "output_dir": str(tmp_path / "reports"), "write_pdf": False}

            async def go():
                async for _ in graph.astream({"messages": [HumanMessage(QUESTION)]}, config, context=context,
                                             stream_mode="updates", subgraphs=True):
                    pass
                return (await graph.aget_state(config)).values

            v = asyncio.run(go())
            searches = [r for r in api.requests if r.get("tools") == [{"type": "web_search"}]]
    assert v["status"] == "completed", v.get("errors")
    assert searches and all(r["model"] == "gpt-test" for r in searches)
    cites = json.loads(Path(v["outputs"]["citations"]).read_text())
    assert cites and all(c["status"] == "verified" for c in cites)
    assert all(c["url"].startswith(web.url("/pages/")) for c in cites)


def test_the_web_search_model_is_allowed_priced_and_metered(tmp_path, monkeypatch):
    """Issue 19: web_search_model bypassed the allow-list and the prices, and its tokens were
    not counted (140k tokens ran; the run reported 11,955)."""
    import pytest

    from deep_research.errors import UserError
    from deep_research.research.runtime.configuration import Configuration

    web = {"search_api": "openai_web", "web_search_model": "o3-deep-research"}
    with pytest.raises(UserError, match=r"model openai:o3-deep-research \(web_search_model\) is not allowed"):
        Configuration.resolve(None, web, environ={"DEEP_RESEARCH_ALLOWED_MODELS": "openai:gpt-4.1*"})
    with pytest.raises(UserError, match=r"no price is known for openai:o3-deep-research \(web_search_model\)"):
        Configuration.resolve(None, {**web, "max_cost_usd": 1.0}, environ={})
    priced = Configuration.resolve(None, {**web, "max_cost_usd": 1.0, "model_prices": {"o3-deep-research": [10, 40]}},
                                   environ={})
    assert priced.fallback_price() == (10, 40)
    # another search: the model is not called, so not checked
    assert Configuration.resolve(None, {**web, "search_api": "none"},
                                 environ={"DEEP_RESEARCH_ALLOWED_MODELS": "openai:gpt-4.1*"})

    monkeypatch.delenv("DEEP_RESEARCH_ALLOWED_MODELS", raising=False)
    with pages_server() as pages:
        cited = [{"url": pages.url(f"/pages/{name}"), "title": title} for name, (title, _) in PAGES.items()]
        with ScriptServer(Script(), web_search=cited, web_search_tokens=(140_000, 2_000)) as api:
            deps = Deps(model_factory=scripted_factory(full_script(wrong_quote=False)),
                        search_factory=default_search_factory)
            graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
            config = {"configurable": {"thread_id": "websearch-metered"}}
            context = {"search_api": "openai_web", "model_base_url": api.base_url, "fetch_allow_private": True,
                       "web_search_model": "gpt-4.1-mini", "output_dir": str(tmp_path / "reports"),
                       "write_pdf": False}

            async def go():
                async for _ in graph.astream({"messages": [HumanMessage(QUESTION)]}, config, context=context,
                                             stream_mode="updates", subgraphs=True):
                    pass
                return (await graph.aget_state(config)).values

            v = asyncio.run(go())
            searches = [r for r in api.requests if r.get("tools") == [{"type": "web_search"}]]
    assert v["status"] == "completed", v.get("errors")
    usage = v["usage"]
    counted_in = sum(u.get("input_tokens", 0) for u in usage.values())
    assert searches and counted_in >= 140_000 * len(searches), (len(searches), counted_in)
    # priced as gpt-4.1-mini: USD 0.40 per million input tokens
    assert sum(u.get("cost_usd", 0) for u in usage.values()) >= 0.4 * 0.14 * len(searches) * 0.99

"""LangGraph Studio as a first-class surface: the real graph (no injected model or search)
served by a real `langgraph dev`, driven with langgraph-sdk the way Studio does.

Models are an OpenAI-compatible server on 127.0.0.1 answering from the test script; the
request's model name says which script role it is for."""

from __future__ import annotations

import asyncio
import json
import socket
from collections import deque
from pathlib import Path

import pytest

from tests.support.devserver import ROOT, langgraph_dev
from tests.support.openai_server import ScriptServer
from tests.support.scenario import QUESTION, full_script, write_corpus
from tests.support.studio import stream_like_studio

pytestmark = pytest.mark.server

ROLES = ("research", "summarization", "compression", "final_report", "citation_check")
SCRUBBED = ("OPENAI_API_KEY", "TAVILY_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_API_KEY",
            "AZURE_OPENAI_ENDPOINT", "DEEP_RESEARCH_DEPS")


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens once the socket is closed


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    """(base URL, model server, work folder) of a `langgraph dev` serving the real graph."""
    import os

    work = tmp_path_factory.mktemp("studio")
    corpus = write_corpus(work / "corpus")
    env = {k: "" for k in SCRUBBED if k in os.environ}
    env.update({f"DEEP_RESEARCH_{role.upper()}_MODEL": f"openai:{role}" for role in ROLES[:-1]})
    env["DEEP_RESEARCH_OUTPUT_DIR"] = str(work / "reports")
    # the anthropic extra not installed in the server, whatever this machine has ("provider package missing")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "tests" / "support" / "without_anthropic"), str(ROOT),
                                         os.environ.get("PYTHONPATH", "")])
    # langgraph.json's "env": the last role's model comes from .env (a run that completes
    # shows it was read: the script answers no other model name for that role)
    (work / "server").mkdir()
    (work / "server" / ".env").write_text(f"DEEP_RESEARCH_{ROLES[-1].upper()}_MODEL=openai:{ROLES[-1]}\n")
    with ScriptServer(full_script()) as models, \
            langgraph_dev(work / "server", "deep_research.research.graph:graph", env=env, env_file=".env",
                          extra_args=["--n-jobs-per-worker", "4"]) as (base, _):
        yield base, models, work, corpus


def written(work: Path, path: str) -> Path:
    """A path of a server thread's ``outputs``: relative to its report folder."""
    assert not Path(path).is_absolute(), path
    return work / "reports" / path


def run_in_thread(base: str, **kwargs):
    from langgraph_sdk import get_client

    async def go():
        client = get_client(url=base)
        thread = await client.threads.create()
        run = await stream_like_studio(client, thread["thread_id"], **kwargs)
        state = await client.threads.get_state(thread["thread_id"])
        runs = await client.runs.list(thread["thread_id"])
        return run, state, runs

    return asyncio.run(go())


SETUP_MISTAKES = {
    "no Tavily key": ({"search_api": "tavily"}, ["TAVILY_API_KEY", "search_api"]),
    "missing corpus": ({"search_api": "local", "corpus_path": "/nonexistent/corpus"},
                       # a server's path is not shown to its users (its log has it)
                       ["corpus_path = (server path)", "does not exist", "the server's log names the path"]),
    "unknown model provider": ({"search_api": "none", "research_model": "nosuchprovider:model-x"},
                               ["research_model = nosuchprovider:model-x", "Unsupported provider"]),
    "provider package missing": ({"search_api": "none", "final_report_model": "anthropic:claude-x"},
                                 ["final_report_model = anthropic:claude-x", "langchain-anthropic"]),
    "bad MCP setting": ({"search_api": "none", "mcp_config": {"url": "http://127.0.0.1:9/mcp"}},
                        ["mcp_config needs \"tools\""]),
    "key variable not set": ({"search_api": "none", "model_api_key_env": "NO_SUCH_KEY_VAR"},
                             ["NO_SUCH_KEY_VAR", "model_api_key_env"]),
}


@pytest.mark.parametrize("mistake", list(SETUP_MISTAKES))
def test_setup_mistake_is_the_runs_error_and_in_the_state_before_any_model_call(studio, mistake):
    base, models, _, _ = studio
    context, expected = SETUP_MISTAKES[mistake]
    before = len(models.requests)
    run, state, runs = run_in_thread(base, input={"messages": [{"role": "user", "content": QUESTION}]},
                                     context={"model_base_url": models.base_url, **context})
    # the run's error carries the message (not "An internal error occurred")
    assert run.error is not None, run.events
    assert run.error["error"] == "UserError"
    for text in expected:
        assert text in run.error["message"], run.error
    assert runs[0]["status"] == "error"
    # the thread's state says what failed, where, and why
    values = state["values"]
    assert values["status"] == "failed"
    failure = values["errors"][-1]
    assert failure["stage"] == "preflight" and failure["kind"] == "failed"
    assert failure["message"] == run.error["message"]
    # ... and nothing was spent
    assert len(models.requests) == before
    assert "clarify_with_user" not in run.nodes


def test_a_model_server_that_is_down_is_named_in_the_runs_error_and_state_and_a_rerun_retries(studio):
    from langgraph_sdk import get_client

    base, models, _, corpus = studio
    down = f"http://127.0.0.1:{closed_port()}/v1"
    context = {"search_api": "local", "corpus_path": str(corpus), "write_pdf": False}

    async def go():
        client = get_client(url=base)
        tid = (await client.threads.create())["thread_id"]
        failed = await stream_like_studio(client, tid, input={"messages": [{"role": "user", "content": QUESTION}]},
                                          context={**context, "model_base_url": down, "max_retries": 0})
        state = await client.threads.get_state(tid)
        # the server is back: a run without input on the thread retries the failed step
        again = await stream_like_studio(client, tid, input=None,
                                         context={**context, "model_base_url": models.base_url})
        return failed, state, again, await client.threads.get_state(tid)

    failed, state, again, final = asyncio.run(go())
    assert failed.error and failed.error["error"] == "ResearchFailed", failed.error
    message = failed.error["message"]
    assert message.startswith("clarify_with_user: model call failed: OpenAIConnectionError: Connection error"), \
        message
    # said to the chat without the server's own endpoint (the CLI names it)
    assert "could not be reached" in message and down.removesuffix("/v1") not in message, message
    values = state["values"]
    assert values["status"] == "failed"
    assert values["errors"][-1]["stage"] == "clarify_with_user"
    assert values["errors"][-1]["message"] == message.removeprefix("clarify_with_user: ")
    assert state["next"] == ["clarify_with_user"]
    assert again.error is None, again.error
    assert again.nodes[0] == "clarify_with_user"  # preflight is not run again: the failed step is
    assert final["values"]["status"] == "completed"
    assert "OpenAIConnectionError" not in final["values"]["final_report"]  # history, not a limitation


# --- budgets under Studio's "messages" streaming ----------------------------------------------
def research_rounds(requests: list[dict]) -> int:
    return sum(1 for q in requests if q["model"] == "research"
               and "You lead a research team" in json.dumps(q["messages"]))


CAP = 20_000  # enough for a round of research and the report; the scripted supervisor never stops


@pytest.mark.parametrize("omit_usage", [False, True], ids=["usage reported", "no usage: estimated"])
def test_a_token_budget_stops_research_while_streaming_messages(studio, omit_usage):
    """Every model call streams under "messages"; the server reports usage only when asked
    (stream_options), or never: either way the budget is counted, stops research, and is a cap
    (a call that would pass it is not made)."""
    from tests.research.runtime.test_budgets import budget_script

    base, _, _, corpus = studio
    context = {"search_api": "local", "corpus_path": str(corpus), "write_pdf": False, "allow_clarification": False,
               "max_researcher_iterations": 3, "max_react_tool_calls": 6, "max_total_tokens": CAP}
    with ScriptServer(budget_script([]), omit_usage=omit_usage) as models:
        run, state, _ = run_in_thread(base, input={"messages": [{"role": "user", "content": QUESTION}]},
                                      context={**context, "model_base_url": models.base_url},
                                      stream_subgraphs=True)
        requests = list(models.requests)
    assert run.error is None, run.error
    # the calls did stream, and usage was asked for
    assert requests and all(q.get("stream") for q in requests)
    assert all((q.get("stream_options") or {}).get("include_usage") for q in requests)
    values = state["values"]
    assert values["status"] == "completed" and values["budget_exhausted"] is True
    assert any(d["message"].startswith("research stopped early: token budget reached")
               for d in values["degradations"])
    assert 1 <= research_rounds(requests) < 3  # researched, and stopped before the round limit
    usage = values["usage"]
    assert 0 < sum(u["input_tokens"] + u["output_tokens"] for u in usage.values()) <= CAP
    estimated = sum(u.get("estimated", 0) for u in usage.values())
    calls = sum(u["calls"] for u in usage.values())
    assert estimated == (calls if omit_usage else 0)


# --- the chat ----------------------------------------------------------------------------------
def test_the_report_is_the_last_chat_message_and_model_calls_do_not_stream_into_the_chat(studio):
    from tests.support.studio import last_ai_message

    base, models, work, corpus = studio
    context = {"search_api": "local", "corpus_path": str(corpus), "write_pdf": False,
               "model_base_url": models.base_url}
    run, state, _ = run_in_thread(base, input={"messages": [{"role": "user", "content": QUESTION}]},
                                  context=context, stream_subgraphs=True)
    assert run.error is None, run.error
    values = state["values"]
    assert values["status"] == "completed"
    # the chat's last turn is the checked report, with the citation summary and the files
    last = last_ai_message(values)
    assert last is values["messages"][-1] or last == values["messages"][-1]
    text = last["content"]
    # the chat's report is the linked markdown (citations as numbered links); the state keeps the refs
    assert text.startswith(written(work, values["outputs"]["linked"]).read_text(encoding="utf-8").rstrip())
    assert "<ref" in values["report_markdown"] and "<ref" not in text
    summary = values["citation_summary"]
    assert (f"Citations: {summary['verified']} verified, {summary['repaired']} repaired, "
            f"{summary['unsupported']} unsupported") in text
    # a server's chat is not shown where the server keeps the files (no download links are
    # offered here): its folders are no business of the chat's users
    folder = written(work, values["outputs"]["dir"])
    assert str(folder) not in text and str(folder.parent) not in text
    # the citation-check model (its name set in the server's .env) fixed the wrong quote
    assert summary["fixed_by_agent"] == 1 and summary["unsupported"] == 0
    # no model call streamed tokens, in any namespace; the chat (root namespace) got only
    # whole turns that are in the thread's messages, and progress lines, which the finished
    # report replaces with one line
    assert run.message_events, run.events
    assert not [e for e in run.message_events if e[1] == "AIMessageChunk"]
    ids = {m["id"] for m in values["messages"]}
    root = [e for e in run.message_events if e[0] == "messages"]
    steps = {e[2] for e in root if e[2].startswith("progress-step-")}
    assert steps and not steps & ids
    assert root and {e[2] for e in root} - steps <= ids
    assert root[-1][2] == last["id"]
    # progress stays visible: node updates and custom stage events
    assert "publish" in run.nodes and "researcher" in run.nodes
    stages = [c.get("stage") for c in run.custom if isinstance(c, dict)]
    assert {"brief", "draft", "research", "final report", "citation check", "publish"} <= set(stages)


def test_search_none_writes_from_the_models_knowledge_without_researchers_and_says_so(studio):
    from deep_research.research.report.writer import NO_SEARCH_LIMITATION

    base, models, _, _ = studio
    before = len(models.requests)
    run, state, _ = run_in_thread(base, input={"messages": [{"role": "user", "content": QUESTION}]},
                                  context={"search_api": "none", "write_pdf": False, "allow_clarification": False,
                                           "model_base_url": models.base_url})
    assert run.error is None, run.error
    values = state["values"]
    assert values["status"] == "completed"
    assert "research_supervisor" not in run.nodes and not values.get("notes")
    asked = [q for q in models.requests[before:]]
    assert not [q for q in asked if "You lead a research team" in json.dumps(q["messages"])]
    final = [q for q in asked if "Write the final research report" in json.dumps(q["messages"])]
    assert len(final) == 1 and "search is switched off" in json.dumps(final[0]["messages"])
    assert NO_SEARCH_LIMITATION in values["final_report"]
    assert NO_SEARCH_LIMITATION in values["messages"][-1]["content"]
    assert {"stage": "research skipped", "reason": "search_api is none"}.items() <= next(
        c for c in run.custom if c.get("stage") == "research skipped").items()


# --- language ----------------------------------------------------------------------------------
QUESTIONS = {
    "es": ("¿Qué tal funcionan las bombas de calor en climas fríos y cuánto cuestan?",
           "Spanish (español)", "Limitaciones", "Fuentes", "Informe de investigación",
           "Cada cita se comprobó con el texto de la página que cita", "Citas: "),
    "de": ("Wie gut funktionieren Wärmepumpen in kalten Klimazonen, und was kosten sie?",
           "German (Deutsch)", "Einschränkungen", "Quellen", "Forschungsbericht",
           "Jedes Zitat wurde mit dem Text der zitierten Seite abgeglichen", "Zitate: "),
}


def report_without_sources_section(messages):
    """The scenario's report without its "## Sources" section (code adds one, in the
    report's language)."""
    from tests.support.scenario import final_report

    return final_report(wrong_quote=False)(messages).split("## Sources")[0]


@pytest.mark.parametrize("lang", list(QUESTIONS))
def test_the_report_follows_the_questions_language(studio, lang):
    from pypdf import PdfReader

    from tests.support.studio import last_ai_message

    base, _, work, corpus = studio
    question, name, limitations, sources, kicker, checked, citations = QUESTIONS[lang]
    script = full_script(wrong_quote=False)
    script.rules.insert(0, {"role": "final_report", "contains": "Write the final research report",
                            "responses": deque([report_without_sources_section]),
                            "repeat": True, "name": "report"})
    # one supervisor round: the round limit is a limitation, which code states in the report
    context = {"search_api": "local", "corpus_path": str(corpus), "max_researcher_iterations": 1,
               "allow_clarification": False}
    with ScriptServer(script) as models:
        run, state, _ = run_in_thread(base, input={"messages": [{"role": "user", "content": question}]},
                                      context={**context, "model_base_url": models.base_url})
        prompts = [json.loads(json.dumps(q["messages"])) for q in models.requests
                   if "Write the final research report" in json.dumps(q["messages"])]
    assert run.error is None, run.error
    values = state["values"]
    assert values["status"] == "completed" and values["language"] == lang
    # the model is asked for the question's language
    assert len(prompts) == 1
    assert f"Write in the language of the user's question ({name})" in prompts[0][-1]["content"]
    # headings code added, in that language
    report = values["report_markdown"]
    assert f"\n## {limitations}\n" in report and f"\n## {sources}\n" in report
    assert "## Limitations" not in report and "## Sources" not in report
    # the HTML's language and labels, and the PDF's
    outputs = values["outputs"]
    html = written(work, outputs["html"]).read_text(encoding="utf-8")
    assert f'<html lang="{lang}">' in html and kicker in html and checked in html
    pdf_text = " ".join((p.extract_text() or "") for p in PdfReader(written(work, outputs["pdf"])).pages)
    pdf_text = " ".join(pdf_text.split())
    assert kicker.upper() in pdf_text and sources in pdf_text and checked in pdf_text  # CSS upper-cases it
    # the chat's summary line too; quotes stay in their source's language (English)
    last = last_ai_message(values)["content"]
    assert citations in last
    assert "A heat pump moves heat from a cold place to a warm place" in report


# --- conversations: follow-ups and forks -------------------------------------------------------
FOLLOW_UP = "And which of these findings matter most for a house in Norway?"


def folder_digest(folder: Path) -> dict[str, str]:
    import hashlib

    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def test_a_follow_up_writes_a_second_report_and_a_fork_its_own_folder(studio):
    from langgraph_sdk import get_client

    from tests.support.studio import last_ai_message

    base, models, work, corpus = studio
    context = {"search_api": "local", "corpus_path": str(corpus), "model_base_url": models.base_url}

    async def go():
        client = get_client(url=base)
        tid = (await client.threads.create())["thread_id"]
        first = await stream_like_studio(client, tid, input={"messages": [{"role": "user", "content": QUESTION}]},
                                         context=context)
        state1 = await client.threads.get_state(tid)
        folder1 = written(work, state1["values"]["outputs"]["dir"])
        digest1 = folder_digest(folder1)
        n = len(models.requests)
        second = await stream_like_studio(client, tid, input={"messages": [{"role": "user", "content": FOLLOW_UP}]},
                                          context=context)
        state2 = await client.threads.get_state(tid)
        digest2 = folder_digest(written(work, state2["values"]["outputs"]["dir"]))
        asked = models.requests[n:]
        # a fork: the follow-up's report written again from the checkpoint before it
        history = await client.threads.get_history(tid, limit=100)
        before_report = next(h for h in history if h["next"] == ["final_report_generation"]
                             and h["values"].get("question") == FOLLOW_UP)
        fork = await stream_like_studio(client, tid, input=None, context=context,
                                        checkpoint_id=before_report["checkpoint"]["checkpoint_id"])
        state3 = await client.threads.get_state(tid)
        return first, state1, folder1, digest1, second, state2, digest2, asked, fork, state3

    first, state1, folder1, digest1, second, state2, digest2, asked, fork, state3 = asyncio.run(go())
    assert first.error is None and second.error is None and fork.error is None, (first.error, second.error,
                                                                                   fork.error)
    v1, v2 = state1["values"], state2["values"]
    assert v2["status"] == "completed"
    # the follow-up is the new question; the brief was written from the whole conversation
    assert v2["question"] == FOLLOW_UP
    brief = [q for q in asked if "Turn the conversation into a research brief" in json.dumps(q["messages"])]
    assert len(brief) == 1
    brief_text = json.dumps(brief[0]["messages"], ensure_ascii=False)
    assert QUESTION in brief_text and FOLLOW_UP in brief_text
    # research reused the thread's sources: the same pages were found, none summarised again
    assert not [q for q in asked if q["model"] == "summarization"], [q["model"] for q in asked]
    assert set(v1["sources"]) <= set(v2["sources"])
    # the new report builds on the earlier findings and on its own
    assert v2["prior_notes"] == v1["notes"] and v2["notes"]
    # a second report in a second folder; the first one untouched
    folder2 = written(work, v2["outputs"]["dir"])
    assert folder2 != folder1 and (folder2 / "report.md").is_file()
    assert folder_digest(folder1) == digest1
    assert written(work, v2["previous_reports"][0]["outputs"]["dir"]) == folder1
    assert v2["previous_reports"][0]["question"] == QUESTION
    # the chat: first report, then the follow-up question, then the second report
    texts = [(m["type"], m.get("name")) for m in v2["messages"]]
    assert texts.count(("ai", "report")) == 2 and texts[-1] == ("ai", "report")
    assert last_ai_message(v2)["content"].startswith(
        written(work, v2["outputs"]["linked"]).read_text(encoding="utf-8").rstrip())
    # per-report accounting: the second report's usage is its own
    assert v2["usage"] != v1["usage"] and "summarize_page" not in json.dumps(v2.get("degradations") or [])
    # the fork wrote its report into its own folder; the follow-up's folder is untouched
    folder3 = written(work, state3["values"]["outputs"]["dir"])
    assert folder3 not in (folder1, folder2) and (folder3 / "report.md").is_file()
    assert folder3.name.startswith(folder2.name)
    assert folder_digest(folder1) == digest1 and folder_digest(folder2) == digest2
    assert json.loads((folder2 / ".run.json").read_text())["checkpoint"] != \
        json.loads((folder3 / ".run.json").read_text())["checkpoint"]

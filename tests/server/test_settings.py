"""Which settings a run on a real `langgraph dev` reads: its own and its assistant's, never
those an assistant the thread ran with before held (langgraph-api keeps them in the thread's
config and merges that into every later run's configurable)."""

import asyncio
from pathlib import Path

import pytest

from tests.support.devserver import langgraph_dev
from tests.support.scenario import QUESTION, write_corpus

pytestmark = pytest.mark.server

BASE = {"search_api": "local", "allow_clarification": False}


def test_a_setting_dropped_from_the_assistant_does_not_come_back_from_the_thread(tmp_path: Path):
    """The assistant asked for 3 search results; the user removed that from it and asked a
    follow-up question on the same thread: the question still ran with 3 (the thread's
    config had kept the assistant's configurable as it was, and langgraph-api merges it into
    the run's). A later question with the graph's own assistant, which sets none of it, got
    it too. Each question now records only what its run and its assistant give."""
    write_corpus(tmp_path / "corpus")
    env = {"DR_TEST_CORPUS": str(tmp_path / "corpus"), "DEEP_RESEARCH_OUTPUT_DIR": str(tmp_path / "reports")}
    with langgraph_dev(tmp_path / "server", "tests.support.dev_graph:graph", env=env) as (base, _):
        from langgraph_sdk import get_client

        async def go():
            client = get_client(url=base, api_key=None)
            assistant = (await client.assistants.create("deep_research", context={
                **BASE, "max_search_results": 3}))["assistant_id"]
            thread = (await client.threads.create())["thread_id"]
            settings = []
            for question, runner, update in ((QUESTION, assistant, {**BASE, "report_format": "concise"}),
                                             ("And in Norway?", assistant, None),
                                             ("And in Sweden?", "deep_research", None)):
                await client.runs.wait(thread, runner, input={"messages": [{"role": "user", "content": question}]},
                                       context={} if runner == assistant else BASE)
                values = (await client.threads.get_state(thread))["values"]
                assert values["status"] == "completed", values.get("errors")
                settings.append(values["question_settings"])
                if update:
                    await client.assistants.update(assistant, context=update)  # max_search_results dropped
            return settings

        first, dropped, other = asyncio.run(go())
    assert first == {**BASE, "max_search_results": 3}
    assert dropped == {**BASE, "report_format": "concise"}
    assert other == BASE

"""Work done once: a page is summarised at most once per thread (parallel researchers,
later rounds, a resumed run), a page a researcher already saw is a one-line reference,
a repeated query is not searched again, and a long page is cut to the passages that
match the research before it is summarised (the citation check keeps the whole page).

Real graph runs with the scripted model; the resume test uses the SQLite checkpointer
and store the CLI uses, reopened as a new process would."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from deep_research.research.runtime.deps import Deps
from deep_research.research.runtime.failure import ResearchFailed
from deep_research.research.graph import make_graph
from deep_research.research.gather.researcher import READ_EARLIER
from deep_research.research.gather.reuse import INFLIGHT, InFlight
from deep_research.search.local import LocalCorpus, build_index
from deep_research.search.relevance import GAP, normalise_query, relevant_passages, same_query
from tests.support.scenario import (
    PAGES,
    QUESTION,
    compress,
    final_report,
    judge_claims,
    summarise_page,
    write_corpus,
)
from tests.support.scripted import (
    Script,
    ScriptedChatModel,
    calls,
    prompt_text,
    structured,
    tool_call,
)

BRIEF = "I want to know how heat pumps perform in cold climates and what they cost. Report in English."
TOPIC_A = "Topic A: heat pump efficiency in cold weather"
TOPIC_B = "Topic B: heat pump installation costs"
TOPIC_C = "Topic C: heat pumps in Norway"
SUMMARY_DELAY = 0.15  # each summary takes this long, so parallel researchers overlap


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    folder = write_corpus(tmp_path_factory.mktemp("reuse") / "corpus")
    build_index(folder, base_url="http://127.0.0.1:8765/")
    return folder


class CountingSearch:
    name = "counting"

    def __init__(self, inner):
        self.inner = inner
        self.queries: list[str] = []

    async def search(self, query: str, *, max_results: int = 5):
        self.queries.append(query)
        return await self.inner.search(query, max_results=max_results)


class SlowModel(ScriptedChatModel):
    """Awaits a delay before answering (summaries of parallel researchers overlap)."""

    delay: float = 0.0

    async def _agenerate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        await asyncio.sleep(self.delay)
        return ChatResult(generations=[ChatGeneration(message=self.script.respond(self.role, messages))])


def factory(script: Script):
    built: dict[str, SlowModel] = {}

    def make(spec: dict) -> SlowModel:
        role = spec["role"]
        if role not in built:
            built[role] = SlowModel(role=role, script=script,
                                    delay=SUMMARY_DELAY if role == "summarization" else 0.0)
        return built[role]

    return make


def researcher(queries: dict[str, list[str]], seen: dict[str, list[str]]):
    """Each topic's researcher makes its searches one per step, then stops; the tool
    results it was shown are recorded per topic."""

    def step(messages):
        text = prompt_text(messages)
        topic = next(t for t in queries if f"Research this topic: {t}" in text)
        results = [str(m.content) for m in messages if isinstance(m, ToolMessage)]
        seen[topic] = results
        if len(results) < len(queries[topic]):
            return calls(tool_call("search", query=queries[topic][len(results)]))
        return "I have enough evidence."

    return step


def script_for(rounds: dict[int, list[str]], queries: dict[str, list[str]], seen: dict) -> Script:
    s = Script()
    s.on("research", "Turn the conversation into a research brief",
         structured("ResearchQuestion", research_brief=BRIEF), repeat=True)
    s.on("final_report", "Write a first draft", "# Draft\n\nHeat pumps [to verify].", repeat=True)
    for n, topics in rounds.items():
        reply = calls(*(tool_call("ConductResearch", topic=t) for t in topics)) if topics \
            else calls(tool_call("ResearchComplete"))
        s.on("research", f"Round {n} of", reply, repeat=True, name=f"round {n}")
    s.on("research", "Research this topic:", researcher(queries, seen), repeat=True)
    s.on("summarization", "Summarise this page for a researcher", summarise_page, repeat=True)
    s.on("compression", "You condense a researcher's work", compress, repeat=True)
    s.on("final_report", "Write the final research report", final_report(wrong_quote=False), repeat=True)
    s.on("citation_check", "You check a research report's claims", judge_claims(), repeat=True)
    return s


def context(tmp_path: Path, **over) -> dict:
    return {"allow_clarification": False, "search_api": "local", "output_dir": str(tmp_path / "reports"),
            "write_pdf": False, "max_search_results": 3, **over}


async def drive(graph, payload, ctx: dict, thread: str = "t"):
    config = {"configurable": {"thread_id": thread}}
    async for _ in graph.astream(payload, config, context=ctx, stream_mode="updates", subgraphs=True):
        pass
    return await graph.aget_state(config)


def run(corpus: Path, tmp_path: Path, script: Script, search=None, **over):
    search = search or CountingSearch(LocalCorpus.open(corpus))
    graph = make_graph(Deps(model_factory=factory(script), search_factory=lambda cfg: search),
                       checkpointer=InMemorySaver(), store=InMemoryStore())
    state = asyncio.run(drive(graph, {"messages": [HumanMessage(QUESTION)]}, context(tmp_path, **over)))
    assert state.values.get("status") == "completed", state.values.get("errors")
    return state, search


def summarised_titles(script: Script) -> list[str]:
    return [name for role, name in script.log if role == "summarization"]


# --- page summaries ---------------------------------------------------------------------------------
@pytest.mark.parametrize("page_cache", [True, False])
def test_parallel_researchers_finding_the_same_pages_summarise_each_once(corpus, tmp_path, page_cache):
    seen: dict = {}
    queries = {TOPIC_A: ["heat pump"], TOPIC_B: ["heat pump cold climates costs"]}
    script = script_for({1: [TOPIC_A, TOPIC_B], 2: []}, queries, seen)
    state, search = run(corpus, tmp_path, script, page_cache=page_cache)
    pages = len(state.values["sources"])
    assert pages == len(PAGES) and len(search.queries) == 2
    if page_cache:
        assert script.calls["summarization"] == pages  # one each, though both researchers found all
        shared = [r for r in (seen[TOPIC_A][0], seen[TOPIC_B][0]) if READ_EARLIER in r]
        assert len(shared) >= 1  # whoever waited for the other's summary is told it was read earlier
        assert len(INFLIGHT) == 0  # nothing left in flight
    else:  # today's behaviour: both researchers summarise every page at the same time
        assert script.calls["summarization"] == 2 * pages
    # either way, both researchers got the pages' exact sentences and cite them
    notes = state.values["notes"]
    assert len(notes) == 2 and all('<ref id="' in n["findings"] for n in notes)


def test_a_later_round_reuses_summaries_shown_as_read_earlier(corpus, tmp_path):
    seen: dict = {}
    queries = {TOPIC_A: ["heat pump"], TOPIC_B: ["heat pump installation costs"]}
    script = script_for({1: [TOPIC_A], 2: [TOPIC_B], 3: []}, queries, seen)
    state, _ = run(corpus, tmp_path, script)
    assert script.calls["summarization"] == len(state.values["sources"]) == len(PAGES)
    second = seen[TOPIC_B][0]
    blocks = re.findall(r"<source id=.*?</source>", second, re.DOTALL)
    # compact: the stored summary, without the sentences (they go to the findings)
    assert blocks and all(READ_EARLIER in b and "exact sentence(s) are kept" in b and "Exact sentences" not in b
                          for b in blocks)
    # the stored sentences are cited in round 2's findings, and verified against the full pages
    notes = {n["topic"]: n["findings"] for n in state.values["notes"]}
    assert '<ref id="' in notes[TOPIC_B]
    assert state.values["citation_summary"].get("verified", 0) > 0


def test_a_page_the_researcher_already_saw_is_a_one_line_reference(corpus, tmp_path):
    seen: dict = {}
    queries = {TOPIC_A: ["heat pump", "heat pumps cold climate Norway"]}
    script = script_for({1: [TOPIC_A], 2: []}, queries, seen)
    _, search = run(corpus, tmp_path, script)
    first, second = seen[TOPIC_A]
    assert len(search.queries) == 2
    again = re.findall(r"<source id=.*?</source>", second, re.DOTALL)
    assert again and all("(already read:" in b and "Summary:" not in b for b in again)
    assert len(second) < len(first) / 2
    assert script.calls["summarization"] == len(PAGES)


def test_with_page_cache_off_the_researcher_gets_full_blocks_again(corpus, tmp_path):
    seen: dict = {}
    queries = {TOPIC_A: ["heat pump", "heat pumps cold climate Norway"]}
    script = script_for({1: [TOPIC_A], 2: []}, queries, seen)
    run(corpus, tmp_path, script, page_cache=False)
    second = seen[TOPIC_A][1]
    assert "(already read:" not in second and "Summary:" in second


def test_a_page_whose_summary_failed_is_not_sent_to_the_model_again(corpus, tmp_path):
    """The summarisation model fails on one page: the raw excerpt stands in, and a later
    round that finds the page reuses it instead of asking the model again (with the page
    cache off, the later round asks again: as many calls once more)."""

    def go(page_cache: bool):
        seen: dict = {}
        asked: list[str] = []
        queries = {TOPIC_A: ["heat pump"], TOPIC_B: ["heat pump installation costs"]}
        script = script_for({1: [TOPIC_A], 2: [TOPIC_B], 3: []}, queries, seen)

        def summarise(messages):
            url = re.search(r'<page title="[^"]*" url="([^"]+)">', prompt_text(messages)).group(1)
            asked.append(url)
            return ValueError("the model returned nonsense") if "costs" in url else summarise_page(messages)

        script.rules = [r for r in script.rules if r["role"] != "summarization"]
        script.on("summarization", "Summarise this page for a researcher", summarise, repeat=True)
        state, _ = run(corpus, tmp_path, script, page_cache=page_cache)
        return state, seen, [u for u in asked if "costs" in u], [u for u in asked if "costs" not in u]

    state, seen, failed, others = go(True)
    assert failed and len(others) == len(PAGES) - 1  # the others once each
    costs = next(b for b in re.findall(r"<source id=.*?</source>", seen[TOPIC_B][0], re.DOTALL) if "costs" in b)
    assert READ_EARLIER in costs and "raw excerpt" in costs
    assert any(d.get("stage") == "summarize_page" for d in state.values.get("degradations") or [])
    _, _, failed_off, _ = go(False)
    assert len(failed_off) == 2 * len(failed)


# --- queries -------------------------------------------------------------------------------------
def test_a_near_identical_query_of_another_researcher_is_not_searched_again(corpus, tmp_path):
    seen: dict = {}
    queries = {TOPIC_A: ["heat pump costs"], TOPIC_B: ["What do heat-pump costs?"],
               TOPIC_C: ["the cost of heat pumps"]}
    script = script_for({1: [TOPIC_A], 2: [TOPIC_B, TOPIC_C], 3: []}, queries, seen)
    state, search = run(corpus, tmp_path, script)
    # B's and C's queries have the same words as A's once normalised
    assert search.queries == ["heat pump costs"]
    for topic in (TOPIC_B, TOPIC_C):
        msg = seen[topic][0]
        assert "This repeats the earlier query 'heat pump costs'" in msg and TOPIC_A[:20] in msg
        assert READ_EARLIER in msg  # its results, with their stored summaries
    assert all('<ref id="' in n["findings"] for n in state.values["notes"])


@pytest.mark.parametrize("threshold, searched", [(0, 3), (100, 2), (90, 1)])
def test_query_dedupe_threshold(corpus, tmp_path, threshold, searched):
    seen: dict = {}
    queries = {TOPIC_A: ["heat pump costs"], TOPIC_B: ["Heat pump COSTS?"], TOPIC_C: ["heat pump costing"]}
    script = script_for({1: [TOPIC_A], 2: [TOPIC_B, TOPIC_C], 3: []}, queries, seen)
    _, search = run(corpus, tmp_path, script, query_dedupe_threshold=threshold)
    assert len(search.queries) == searched


def test_parallel_researchers_asking_the_same_query_search_once(corpus, tmp_path):
    seen: dict = {}
    queries = {TOPIC_A: ["heat pump costs"], TOPIC_B: ["Heat pump costs"]}
    script = script_for({1: [TOPIC_A, TOPIC_B], 2: []}, queries, seen)
    _, search = run(corpus, tmp_path, script)
    assert len(search.queries) == 1
    assert sum("This repeats the earlier query" in seen[t][0] for t in queries) == 1


# --- resume ---------------------------------------------------------------------------------------
def test_a_resumed_run_reuses_the_summaries_made_before_the_crash(corpus, tmp_path):
    """Round 1 summarises the pages; the supervisor's round 2 call fails (the run stops);
    the run is resumed from the SQLite checkpoint by a new graph, store connection and
    model (as a new process would): round 2's researcher finds the same pages and no page
    is summarised again; its repeated query is not searched again."""
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
    from langgraph.store.sqlite.aio import AsyncSqliteStore

    db = str(tmp_path / "state.sqlite")
    seen: dict = {}
    queries = {TOPIC_A: ["heat pump"], TOPIC_B: ["Heat pump!"]}
    script = script_for({1: [TOPIC_A], 3: []}, queries, seen)
    script.on("research", "Round 2 of", ValueError("the model server crashed"),
              calls(tool_call("ConductResearch", topic=TOPIC_B)), name="round 2")
    ctx = context(tmp_path)

    async def session(payload):
        search = CountingSearch(LocalCorpus.open(corpus))
        async with AsyncSqliteSaver.from_conn_string(db) as saver, AsyncSqliteStore.from_conn_string(db) as store:
            await saver.setup()
            await store.setup()
            graph = make_graph(Deps(model_factory=factory(script), search_factory=lambda cfg: search),
                               checkpointer=saver, store=store)
            error = None
            try:
                state = await drive(graph, payload, ctx)
            except ResearchFailed as e:
                error = e
                state = await graph.aget_state({"configurable": {"thread_id": "t"}})
        return state, error, search

    state, error, search = asyncio.run(session({"messages": [HumanMessage(QUESTION)]}))
    assert error is not None and "crashed" in str(error)
    before = script.calls["summarization"]
    assert before == len(PAGES)  # round 1 done (its findings are in the supervisor's checkpoint)
    state, error, search = asyncio.run(session(None))
    assert error is None and state.values["status"] == "completed"
    assert script.calls["summarization"] == before  # nothing summarised again after the resume
    assert search.queries == []  # "Heat pump!" repeats round 1's "heat pump"
    assert READ_EARLIER in seen[TOPIC_B][0]
    assert len(state.values["notes"]) == 2 and all('<ref id="' in n["findings"] for n in state.values["notes"])


# --- settings --------------------------------------------------------------------------------------
@pytest.mark.parametrize("setting", ["page_relevance_chars", "query_dedupe_threshold"])
def test_a_ceiling_stops_a_run_from_turning_a_saving_off(setting):
    """0 turns the saving off (spends more): above an operator's ceiling, like any larger value."""
    from deep_research.errors import UserError
    from deep_research.research.runtime.configuration import Configuration

    environ = {f"DEEP_RESEARCH_{setting.upper()}": "80"}
    cfg = Configuration.resolve({"configurable": {"thread_id": "t"}}, {setting: 0}, environ=environ)
    assert getattr(cfg, setting) == 80 and cfg.clamped and cfg.clamped[0]["setting"] == setting
    assert getattr(Configuration.resolve(None, {setting: 50}, environ=environ), setting) == 50
    assert getattr(Configuration.resolve(None, {setting: 0}, environ={}), setting) == 0  # no ceiling: off allowed
    with pytest.raises(UserError, match="above the ceiling"):
        Configuration.resolve(None, {setting: 0}, environ=environ, above_ceiling="refuse")


def test_command_line_options_set_the_three_settings():
    from deep_research.cli.settings import context_from_options

    assert context_from_options(page_cache=False, query_dedupe=100, page_relevance_chars=0) == {
        "page_cache": False, "query_dedupe_threshold": 100, "page_relevance_chars": 0}
    assert context_from_options(page_cache=None, query_dedupe=None, page_relevance_chars=None) == {}


# --- pure helpers -----------------------------------------------------------------------------------
def test_normalised_queries_ignore_case_punctuation_order_and_stop_words():
    assert normalise_query("What are the COSTS of heat-pumps?") == normalise_query("heat pumps costs")
    assert same_query("heat pump cost in Norway", "Norway: heat pump cost", 100)
    assert same_query("heat pump cost", "heat pumps costs", 100)  # plurals
    assert same_query("heat pump costing", "heat pump costs", 90)
    assert not same_query("heat pump costing", "heat pump costs", 100)
    assert not same_query("heat pump prices 2019", "heat pump prices 2020", 50)  # numbers must agree
    assert not same_query("heat pump cost", "heat pump cost", 0)  # 0: off
    assert not same_query("heat pump noise", "geothermal drilling permits", 90)


def test_relevant_passages_are_exact_slices_of_the_page_chosen_by_the_query():
    filler = [f"Paragraph {i} is about gardening, soil and the watering of tomato plants in summer." for i in
              range(200)]
    filler[120] = "The coefficient of performance of a heat pump falls when the outdoor temperature drops."
    filler[121] = "Cold climate heat pumps keep working at minus twenty five degrees."
    text = "Heat pumps and gardens\n" + "\n".join(filler)
    cut = relevant_passages(text, "heat pump coefficient of performance cold", 2000)
    assert len(cut) <= 2000 + 10 * len(GAP)
    assert filler[120] in cut and filler[121] in cut and cut.startswith("Heat pumps and gardens")
    for part in cut.split(GAP):
        assert part in text  # every passage is text of the page, so its sentences can be quoted
    assert relevant_passages(text, "anything", 0) == text  # 0: off
    assert relevant_passages("short page", "anything", 2000) == "short page"


def test_a_page_without_line_breaks_or_sentence_ends_is_cut_too():
    words_ = " ".join(f"cell{i} gardening soil" for i in range(3000))
    text = words_ + " heat pump coefficient of performance falls " + words_
    cut = relevant_passages(text, "heat pump coefficient of performance", 3000)
    assert "heat pump coefficient of performance falls" in cut and len(cut) <= 3000 + 10 * len(GAP)
    assert all(part in text for part in cut.split(GAP))


def test_the_summariser_sees_the_relevant_passages_of_a_long_page(tmp_path):
    """A long page: the summary prompt holds the matching passage and not the whole page;
    a sentence of that passage is cited and verified against the full page."""
    folder = tmp_path / "long"
    folder.mkdir()
    filler = "\n".join(f"<p>Section {i} describes the history of the village bakery and its ovens.</p>"
                       for i in range(400))
    key = "Cold-climate heat pumps keep heating at outdoor temperatures as low as -25 °C."
    folder.joinpath("long.html").write_text(
        f"<html><head><title>Long page</title></head><body><h1>Long page</h1>{filler}<p>{key}</p>"
        f"{filler}</body></html>", encoding="utf-8")
    build_index(folder, base_url="http://127.0.0.1:8765/")
    prompts: list[str] = []
    seen: dict = {}
    script = script_for({1: [TOPIC_A], 2: []}, {TOPIC_A: ["heat pump cold outdoor temperatures"]}, seen)

    def summarise(messages):
        text = prompt_text(messages)
        prompts.append(text)
        body = re.search(r"<page [^>]*>\n(.*?)\n</page>", text, re.DOTALL).group(1)
        found = [ln.strip() for ln in body.split("\n") if "heat pumps" in ln]
        return structured("PageSummary", summary="A long page with one passage on heat pumps.",
                          excerpts=[{"claim": "cold limit", "sentence": ln} for ln in found])

    script.rules = [r for r in script.rules if r["role"] != "summarization"]
    script.on("summarization", "Summarise this page for a researcher", summarise, repeat=True)
    state, _ = run(folder, tmp_path, script, page_relevance_chars=3000)
    page_chars = state.values["sources"][next(iter(state.values["sources"]))]["chars"]
    assert page_chars > 30_000 and len(prompts) == 1
    assert key in prompts[0] and len(prompts[0]) < 6000 and "[…]" in prompts[0]
    assert key in seen[TOPIC_A][0]  # verified against the full page, offered for citing


# --- in-flight sharing ---------------------------------------------------------------------------------
def test_inflight_runs_concurrent_work_once_and_a_failure_lets_the_waiter_try():
    async def main():
        shared = InFlight()
        made = []

        async def make():
            made.append(1)
            await asyncio.sleep(0.05)
            return len(made)

        results = await asyncio.gather(*(shared.once(("k",), make) for _ in range(5)))
        assert made == [1] and sorted(r[1] for r in results) == [False, True, True, True, True]

        async def fail():
            await asyncio.sleep(0.05)
            raise RuntimeError("boom")

        async def ok():
            return "mine"

        first = asyncio.create_task(shared.once(("f",), fail))
        await asyncio.sleep(0)
        second = await shared.once(("f",), ok)
        with pytest.raises(RuntimeError):
            await first
        assert second == ("mine", False) and len(shared) == 0

    asyncio.run(main())


# --- a recorded search keeps what its results say of their pages ------------------------------
def test_a_reused_search_result_makes_the_same_source_as_a_fresh_one(tmp_path):
    """A query answered from the thread's earlier search gives the researcher results that
    keep the page's author, date, site name, cut note, document locations and the search
    engine's metadata (credibility reads its published date), through the SQLite store the
    CLI uses: the source recorded from the reused result says what the fresh one said."""
    from langgraph.store.sqlite.aio import AsyncSqliteStore

    from deep_research.research.gather.researcher import result_metadata
    from deep_research.research.gather.reuse import QueryRegistry
    from deep_research.research.runtime.sources import PageStore
    from deep_research.search.base import SearchResult

    fresh = SearchResult("https://example.org/heat", "Heat pumps", "Heat pumps work at -25 C.", "markdown",
                         "Heat pumps work", 0.9, cut="only the first 2,000,000 bytes of the page were read",
                         published="2024-03-01", author="A. Writer", site_name="Example Energy",
                         metadata={"published_date": "2024-03-02"},
                         locations=[[0, "page", 3]])
    bare = SearchResult("https://example.org/bare", "Bare", "Text of a page with nothing more said.")

    async def main():
        async with AsyncSqliteStore.from_conn_string(str(tmp_path / "store.sqlite")) as store:
            await store.setup()
            pages = PageStore(store)
            registry = QueryRegistry(pages, "thread")
            await registry.record("heat pump", "topic", [fresh, bare])
            entry = await QueryRegistry(pages, "thread").find("Heat pump!", 90)
            assert entry is not None
            reused = await registry.results(entry)
            metas = [(await pages.record(r, "q")).as_dict() for r in (fresh, bare, *reused)]
        return reused, metas

    reused, metas = asyncio.run(main())
    for m in metas:
        m.pop("retrieved_at")
    assert metas[2] == metas[0] and metas[3] == metas[1]
    assert metas[2]["author"] == "A. Writer" and metas[2]["site_name"] == "Example Energy"
    assert metas[2]["published"] == "2024-03-01" and metas[2]["locations"] == [[0, "page", 3]]
    assert result_metadata(reused[0]) == result_metadata(fresh)  # the same credibility
    assert result_metadata(reused[1]) == {}

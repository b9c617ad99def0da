"""Research loop: parallel research units under model latency, and the supervisor's prompt
size as rounds go by. Offline: the scripted model of the tests and a small local corpus.

(a) Parallel units. Every model call takes --latency seconds (0.2 by default). One
    supervisor round sends N = 1, 2, 4, 8 research units (max_concurrent_research_units =
    N); each unit makes 2 researcher calls, 1 search, 3 page summaries (in parallel) and 1
    compression, so it takes about 4 x latency alone. The research phase is timed from the
    supervisor_tools update (the units are sent) to the collect update (all are back) and
    compared with one unit alone: ratio = phase(N) / phase(1), target <= 1.15x.
    The latency is simulated three ways:
      * async      - the model awaits asyncio.sleep (like a real HTTP client);
      * thread     - the model's sync _generate calls time.sleep; LangChain runs it in the
                     event loop's default executor (min(32, cpus + 4) threads), as it does
                     for any chat model without a native async implementation;
      * thread-64  - the same with a 64-thread default executor.
(b) Prompt size per supervisor round. Rounds 1..8 each refine the draft (the first draft
    and every revision are of the same size, ~3,000 characters) and send one research unit whose findings are of similar size. The
    supervisor's input tokens per round (as the scripted model counts them: characters / 4)
    are compared with a naive supervisor that keeps every earlier round's messages.
    Target: max/min over rounds 2..8 <= 1.3 (round 1 has no tool results yet).

(c) Page reuse. Researchers that find the same pages again: round 1 sends 3 researchers in
    parallel whose queries overlap (one repeats another's query word for word, up to case),
    round 2 sends 2 more whose queries are near-identical to round 1's or find the same pages;
    2 searches per researcher, 3 results per search, over 10 pages of the Python 3.11 docs
    (real pages of 30-240 kB of HTML). Run twice on the same script: "old" (page_cache off,
    query_dedupe_threshold 0, page_relevance_chars 0: today's behaviour) and "new" (the
    defaults). Prompt tokens as the scripted model reports them (characters / 4, metered in
    the run's usage; the sum is checked against it), per round and node; page summaries per
    distinct page; model calls by role and search calls. Targets: no page summarised twice
    (new); prompt tokens per research round >= 2x lower (old / new).

(d) Query analysis and the extended plan (issue 21). One full run of the test scenario
    (clarify, brief with a research plan, two research units, report) with the scripted
    model: a clarify answer naming ambiguity dimensions, a brief whose plan has objectives,
    sub-questions, methodology, success criteria, intent, entities and an ambiguous term with
    a search hint. Model calls by role, input and output tokens by node (as the scripted
    model counts them: characters / 4) and search calls. Run on two versions of the code to
    compare: the script is the same (older code ignores the new fields), e.g.
      git archive main src | tar -x -C /tmp/before
      PYTHONPATH=/tmp/before/src uv run python benchmarks/bench_research.py --sections d
      uv run python benchmarks/bench_research.py --sections d

    uv run python benchmarks/bench_research.py [--latency 0.2] [--units 1,2,4,8] [--repeats 3]
    uv run python benchmarks/bench_research.py --sections c [--pydoc DIR]
    uv run python benchmarks/bench_research.py --sections d
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

# _common (next to this file) also puts the repository root on sys.path, for tests.support
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import CACHE, print_code_version, pydoc_root, target_line, write_result
from langchain_core.messages import HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from deep_research.research.runtime.deps import Deps
from deep_research.research.runtime.configuration import Configuration
from deep_research.research.graph import make_graph
from deep_research.search.local import LocalCorpus, build_index
from tests.support.scenario import compress, summarise_page, write_corpus
from tests.support.scripted import (
    Script,
    ScriptedChatModel,
    calls,
    prompt_text,
    structured,
    tool_call,
)

QUESTION = "How well do heat pumps work in cold climates, and what do they cost?"
BRIEF = "I want to know how heat pumps perform in cold climates and what they cost. Report in English."


# --- a scripted model with latency -------------------------------------------------------------
class SleepingThreadModel(ScriptedChatModel):
    """Blocks its worker thread for the latency (sync _generate, run in the executor)."""

    latency: float = 0.0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        time.sleep(self.latency)
        return super()._generate(messages, stop, run_manager, **kwargs)


class SleepingAsyncModel(ScriptedChatModel):
    """Awaits the latency, as a client with a native async implementation does."""

    latency: float = 0.0

    async def _agenerate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        await asyncio.sleep(self.latency)
        return ChatResult(generations=[ChatGeneration(message=self.script.respond(self.role, messages))])


def latency_factory(script: Script, latency: float, mode: str):
    cls = SleepingAsyncModel if mode == "async" else SleepingThreadModel
    built: dict[str, ScriptedChatModel] = {}

    def factory(spec: dict):
        if spec["role"] not in built:
            built[spec["role"]] = cls(role=spec["role"], script=script, latency=latency)
        return built[spec["role"]]

    return factory


def corpus_folder() -> Path:
    folder = write_corpus(CACHE / "research" / "corpus")
    build_index(folder, base_url="http://127.0.0.1:8765/")
    return folder


def researcher_step(messages):
    if any(isinstance(m, ToolMessage) for m in messages):
        return "I have enough evidence."
    return calls(tool_call("search", query="heat pump"))


def base_script(draft: str = "# Draft\n\nHeat pumps [to verify].") -> Script:
    s = Script()
    s.on("research", "Turn the conversation into a research brief",
         structured("ResearchQuestion", research_brief=BRIEF), repeat=True)
    s.on("final_report", "Write a first draft", draft, repeat=True)
    s.on("research", "Research this topic:", researcher_step, repeat=True)
    s.on("summarization", "Summarise this page for a researcher", summarise_page, repeat=True)
    return s


def context(**over: Any) -> dict:
    ctx = {"allow_clarification": False, "require_brief_approval": False, "search_api": "local",
           "max_search_results": 3, "output_dir": str(CACHE / "research" / "reports"), "write_pdf": False,
           "request_timeout_s": 60.0}
    ctx.update(over)
    return ctx


# --- (a) parallel research units -----------------------------------------------------------------
async def research_phase(corpus: Path, n: int, latency: float, mode: str) -> dict:
    script = s = base_script()
    topics = [f"Aspect {i + 1} of heat pumps in cold climates" for i in range(n)]
    s.on("research", "Round 1 of", calls(*(tool_call("ConductResearch", topic=t) for t in topics)), repeat=True)
    s.on("research", "Round 2 of", calls(tool_call("ResearchComplete")), repeat=True)
    s.on("compression", "You condense a researcher's work", compress, repeat=True)
    deps = Deps(model_factory=latency_factory(script, latency, mode),
                search_factory=lambda cfg: LocalCorpus.open(corpus))
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    config = {"configurable": {"thread_id": f"units-{n}-{mode}"}}
    sent = back = None
    async for ns, update in graph.astream({"messages": [HumanMessage(QUESTION)]}, config,
                                          # independent units (no shared pages or queries): this part
                                          # measures how they run in parallel, not what they share
                                          context=context(max_concurrent_research_units=n,
                                                          max_researcher_iterations=2,
                                                          **known_settings(OLD_PATH)),
                                          stream_mode="updates", subgraphs=True,
                                          interrupt_before=["final_report_generation"]):
        now = time.perf_counter()
        if "supervisor_tools" in update and sent is None:
            sent = now
        if "collect" in update and back is None:
            back = now
    state = await graph.aget_state(config)
    notes = state.values.get("notes") or []
    if len(notes) != n:
        raise SystemExit(f"N={n} {mode}: expected {n} findings, got {len(notes)}: {state.values.get('errors')}")
    return {"seconds": back - sent, "model_calls": dict(script.calls)}


def run_phase(corpus: Path, n: int, latency: float, mode: str) -> dict:
    async def main():
        if mode == "thread-64":
            asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=64))
        return await research_phase(corpus, n, latency, mode)

    return asyncio.run(main())


def bench_units(corpus: Path, units: list[int], latency: float, repeats: int, modes: list[str]) -> dict:
    default_pool = min(32, (os.cpu_count() or 1) + 4)
    print(f"\n(a) research phase, {latency:.2f} s per model call; best of {repeats}; "
          f"default executor: {default_pool} threads ({os.cpu_count()} CPUs)")
    out: dict[str, Any] = {"latency_s": latency, "default_executor_threads": default_pool, "modes": {}}
    for mode in modes:
        rows = []
        ideal = None
        for n in sorted({1, *units}):
            best = min((run_phase(corpus, n, latency, mode) for _ in range(repeats)), key=lambda r: r["seconds"])
            if n == 1:
                ideal = best["seconds"]
            rows.append({"units": n, "seconds": round(best["seconds"], 3), "ratio": round(best["seconds"] / ideal, 3),
                         "model_calls": best["model_calls"]})
        print(f"  mode {mode}: one unit alone {ideal:.3f} s ({ideal / latency:.1f} x latency)")
        figures = []
        for r in rows:
            if r["units"] == 1 and 1 not in units:
                continue
            figures.append(target_line(f"{mode}: N={r['units']} units, phase {r['seconds']:.3f} s",
                                       f"{r['ratio']:.2f}x", "<= 1.15x ideal", r["ratio"] <= 1.15))
        out["modes"][mode] = {"ideal_s": round(ideal, 3), "rows": rows, "figures": figures}
    return out


# --- (b) supervisor prompt size per round -----------------------------------------------------------
FILLER = ("Further detail: installers report that performance depends on sizing, insulation and the "
          "flow temperature of the heating system; measured seasonal figures vary between houses. ")


def findings_of_similar_size(messages):
    topic = re.search(r"^Topic: (.*)$", prompt_text(messages), re.MULTILINE).group(1).strip()
    return compress(messages) + f"\n- Notes on {topic}: " + FILLER * 12


DRAFT = "# Heat pumps in cold climates\n\n" + ("A draft paragraph, rewritten as findings come in. " * 60)


def refined_draft(messages):
    return DRAFT  # rewritten each round at about the same size


async def prompt_growth(corpus: Path, rounds: int) -> dict:
    script = base_script(draft=DRAFT)
    seen: list[dict] = []

    def supervisor(messages):
        text = prompt_text(messages)
        r = int(re.search(r"Round (\d+) of", text).group(1))
        seen.append({
            "round": r,
            "input_tokens": len(text) // 4 + 1,  # as ScriptedChatModel reports usage
            "base_tokens": len(prompt_text(messages[:2])) // 4,  # system prompt + "Decide the next step."
            "last_round_tokens": len(prompt_text(messages[2:])) // 4 if len(messages) > 2 else 0,
            "messages": len(messages),
        })
        return calls(tool_call("think_tool", reflection=f"Round {r}: refine, then research aspect {r}."),
                     tool_call("refine_draft_report"),
                     tool_call("ConductResearch", topic=f"Aspect {r} of heat pumps in cold climates"),
                     content=f"Round {r}: the draft still has gaps; researching aspect {r}.")

    script.on("research", "Round ", supervisor, repeat=True)
    script.on("compression", "You condense a researcher's work", findings_of_similar_size, repeat=True)
    script.on("final_report", "Rewrite the draft report with the new research findings", refined_draft,
              repeat=True)
    deps = Deps(model_factory=latency_factory(script, 0.0, "async"),
                search_factory=lambda cfg: LocalCorpus.open(corpus))
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    config = {"configurable": {"thread_id": "rounds"}}
    async for _ in graph.astream({"messages": [HumanMessage(QUESTION)]}, config,
                                 context=context(max_researcher_iterations=rounds,
                                                 max_concurrent_research_units=1),
                                 stream_mode="updates", subgraphs=True,
                                 interrupt_before=["final_report_generation"]):
        pass
    state = await graph.aget_state(config)
    seen.sort(key=lambda x: x["round"])
    usage_total = state.values["usage"]["supervisor"]["input_tokens"]
    return {"rounds": seen, "usage_supervisor_input_tokens": usage_total,
            "notes": len(state.values.get("notes") or [])}


def bench_rounds(corpus: Path, rounds: int) -> dict:
    data = asyncio.run(prompt_growth(corpus, rounds))
    rows = data["rounds"]
    if len(rows) != rounds or sum(r["input_tokens"] for r in rows) != data["usage_supervisor_input_tokens"]:
        raise SystemExit(f"unexpected supervisor calls: {rows} vs usage {data['usage_supervisor_input_tokens']}")
    naive_extra = 0
    print(f"\n(b) supervisor input tokens per round ({rounds} rounds; {data['notes']} findings collected)")
    print(f"  {'round':>5} {'ours':>8} {'base':>7} {'last round':>11} {'naive (all rounds kept)':>24}")
    for r in rows:
        naive_extra += r["last_round_tokens"]  # a naive supervisor keeps every round's messages
        r["naive_tokens"] = r["base_tokens"] + naive_extra
        print(f"  {r['round']:>5} {r['input_tokens']:>8} {r['base_tokens']:>7} {r['last_round_tokens']:>11} "
              f"{r['naive_tokens']:>24}")
    ours = [r["input_tokens"] for r in rows]
    steady = ours[1:] if len(ours) > 1 else ours
    naive = [r["naive_tokens"] for r in rows]
    figures = [
        target_line("max/min supervisor input, rounds 2..N", f"{max(steady) / min(steady):.2f}", "<= 1.3",
                    max(steady) / min(steady) <= 1.3),
        target_line("max/min supervisor input, rounds 1..N", f"{max(ours) / min(ours):.2f}", "(info)", None),
        target_line(f"round {rounds} vs round 2 (ours)", f"{ours[-1] / ours[1]:.2f}x", "(info)", None),
        target_line(f"round {rounds} vs round 2 (naive)", f"{naive[-1] / naive[1]:.2f}x", "(info)", None),
        target_line("total supervisor input, ours vs naive", f"{sum(ours):,} / {sum(naive):,}", "(info)", None),
    ]
    return {**data, "figures": figures}


# --- (c) page reuse: researchers revisiting pages ---------------------------------------------------
REUSE_PAGES = ["asyncio-task.html", "asyncio-sync.html", "asyncio-queue.html", "concurrent.futures.html",
               "threading.html", "queue.html", "asyncio-subprocess.html", "contextvars.html", "sched.html",
               "asyncio-eventloop.html"]
REUSE_QUESTION = "How should a Python program combine asyncio with threads, and how are tasks cancelled?"
REUSE_BRIEF = ("I want to know how asyncio code runs blocking work in threads, how tasks and futures are "
               "cancelled and timed out, and which synchronisation and queue tools fit. Report in English.")
# round -> topic -> the researcher's two queries
REUSE_ROUNDS = {
    # three researchers in parallel, their pages overlap; the third repeats the first's query
    1: {"Cancelling asyncio tasks and timeouts": ["asyncio task cancellation", "asyncio wait_for timeout"],
        "Running blocking code from asyncio in thread pools": ["asyncio run_in_executor thread pool",
                                                               "concurrent futures ThreadPoolExecutor"],
        "Synchronisation primitives for asyncio and threads": ["asyncio lock semaphore",
                                                               "Asyncio Task cancellation"]},
    # new pages and pages read in round 1; a near-identical query ("timeouts")
    2: {"Subprocesses and context variables in asyncio": ["subprocess asyncio pipes", "context variables asyncio"],
        "Timeouts and cancellation in thread pools": ["cancel future ThreadPoolExecutor",
                                                      "asyncio wait_for timeouts"]},
    # only pages read before
    3: {"Scheduling work from other threads": ["event loop call_soon_threadsafe", "threading Timer"],
        "Events and queues for coordination": ["asyncio Event wait", "asyncio queue producer consumer"]},
}
OLD_PATH = {"page_cache": False, "query_dedupe_threshold": 0, "page_relevance_chars": 0}


def reuse_corpus(pydoc: Path) -> Path:
    folder = CACHE / "research" / "pydoc-reuse"
    folder.mkdir(parents=True, exist_ok=True)
    for name in REUSE_PAGES:
        target = folder / name
        if not target.exists():
            target.write_bytes((pydoc / "library" / name).read_bytes())
    build_index(folder, base_url="https://docs.python.org/3.11/library/")
    return folder


class CountingCorpus:
    name = "counting"

    def __init__(self, inner):
        self.inner = inner
        self.queries: list[str] = []

    async def search(self, query: str, *, max_results: int = 5):
        self.queries.append(query)
        return await self.inner.search(query, max_results=max_results)


def _node_of(role: str, text: str) -> str:
    if role == "summarization":
        return "summarize_page"
    if role == "compression":
        return "compress_research"
    if role == "research":
        if "Research this topic:" in text:
            return "researcher"
        if re.search(r"Round \d+ of", text):
            return "supervisor"
        return "scoping"
    return role


def reuse_script(log: list[dict]) -> Script:
    """The scenario's script; every call is logged with its round, node, prompt tokens and
    (for page summaries) the page."""
    state = {"round": 0}
    s = Script()

    def logged(role: str, response):
        def answer(messages):
            text = prompt_text(messages)
            m = re.search(r"Round (\d+) of", text) if role == "research" else None
            if m and "Research this topic:" not in text:
                state["round"] = int(m.group(1))
            page = re.search(r'<page title="[^"]*" url="([^"]+)">', text)
            log.append({"round": state["round"], "role": role, "node": _node_of(role, text),
                        "input_tokens": len(text) // 4 + 1, "page": page.group(1) if page else None})
            return response(messages) if callable(response) else response
        return answer

    def supervisor(messages):
        n = int(re.search(r"Round (\d+) of", prompt_text(messages)).group(1))
        topics = REUSE_ROUNDS.get(n)
        if not topics:
            return calls(tool_call("ResearchComplete"))
        return calls(*(tool_call("ConductResearch", topic=t) for t in topics))

    def researcher(messages):
        text = prompt_text(messages)
        topic = next(t for r in REUSE_ROUNDS.values() for t in r if f"Research this topic: {t}" in text)
        queries = next(r[topic] for r in REUSE_ROUNDS.values() if topic in r)
        done = sum(isinstance(m, ToolMessage) for m in messages)
        if done < len(queries):
            return calls(tool_call("search", query=queries[done]))
        return "I have enough evidence."

    s.on("research", "Turn the conversation into a research brief",
         logged("research", structured("ResearchQuestion", research_brief=REUSE_BRIEF)), repeat=True)
    s.on("final_report", "Write a first draft", logged("final_report", "# Draft\n\nasyncio [to verify]."),
         repeat=True)
    s.on("research", "Research this topic:", logged("research", researcher), repeat=True)
    s.on("research", "Round ", logged("research", supervisor), repeat=True)
    s.on("summarization", "Summarise this page for a researcher", logged("summarization", summarise_page),
         repeat=True)
    s.on("compression", "You condense a researcher's work", logged("compression", compress), repeat=True)
    return s


def known_settings(values: dict) -> dict:
    """Only the settings this code has (the same script also runs on code without them)."""
    return {k: v for k, v in values.items() if k in Configuration.model_fields}


async def reuse_run(corpus: Path, latency: float, settings: dict, label: str) -> dict:
    log: list[dict] = []
    script = reuse_script(log)
    search = CountingCorpus(LocalCorpus.open(corpus))
    deps = Deps(model_factory=latency_factory(script, latency, "async"), search_factory=lambda cfg: search)
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    config = {"configurable": {"thread_id": f"reuse-{label}"}}
    async for _ in graph.astream({"messages": [HumanMessage(REUSE_QUESTION)]}, config,
                                 context=context(max_concurrent_research_units=3, max_researcher_iterations=5,
                                                 **known_settings(settings)),
                                 stream_mode="updates", subgraphs=True, interrupt_before=["final_report_generation"]):
        pass
    state = await graph.aget_state(config)
    usage = state.values.get("usage") or {}
    metered = sum(int(u.get("input_tokens", 0)) for u in usage.values())
    logged = sum(c["input_tokens"] for c in log)
    if metered != logged:
        raise SystemExit(f"{label}: logged prompt tokens {logged} differ from the run's metered usage {metered}")
    if len(state.values.get("notes") or []) != sum(len(r) for r in REUSE_ROUNDS.values()):
        raise SystemExit(f"{label}: findings missing: {state.values.get('errors')}")
    rounds: dict[int, dict[str, int]] = {}
    for c in log:
        if c["round"] in REUSE_ROUNDS:
            by_node = rounds.setdefault(c["round"], {})
            by_node[c["node"]] = by_node.get(c["node"], 0) + c["input_tokens"]
    per_page: dict[str, int] = {}
    for c in log:
        if c["page"]:
            per_page[c["page"]] = per_page.get(c["page"], 0) + 1
    cited = sum(n["findings"].count("<ref ") for n in state.values["notes"])
    return {"rounds": rounds, "summaries_per_page": per_page, "model_calls": dict(script.calls),
            "search_calls": len(search.queries), "metered_input_tokens": metered,
            "sources": len(state.values.get("sources") or {}), "citations_in_findings": cited}


def bench_reuse(pydoc_arg: str | None, latency: float) -> dict:
    corpus = reuse_corpus(pydoc_root(pydoc_arg))
    runs = {label: asyncio.run(reuse_run(corpus, latency, settings, label))
            for label, settings in (("old", OLD_PATH), ("new", {}))}
    print(f"\n(c) researchers revisiting pages: {len(REUSE_ROUNDS)} research rounds, "
          f"{sum(len(r) for r in REUSE_ROUNDS.values())} researchers, {len(REUSE_PAGES)} pages of the Python docs")
    print(f"  {'':<6} {'round':>5} " + " ".join(f"{n:>17}" for n in
                                                 ("supervisor", "researcher", "summarize_page", "compress_research",
                                                  "total")))
    for label, r in runs.items():
        for n, by_node in sorted(r["rounds"].items()):
            cols = [by_node.get(k, 0) for k in ("supervisor", "researcher", "summarize_page", "compress_research")]
            print(f"  {label:<6} {n:>5} " + " ".join(f"{v:>17,}" for v in [*cols, sum(by_node.values())]))
    figures = []
    old, new = runs["old"], runs["new"]
    for n in sorted(REUSE_ROUNDS):
        o, w = sum(old["rounds"][n].values()), sum(new["rounds"][n].values())
        figures.append(target_line(f"round {n} prompt tokens old/new", f"{o:,}/{w:,} = {o / w:.2f}x", ">= 2x",
                                   o / w >= 2))
    o_all = sum(sum(v.values()) for v in old["rounds"].values())
    w_all = sum(sum(v.values()) for v in new["rounds"].values())
    figures.append(target_line("research prompt tokens old/new", f"{o_all / w_all:.2f}x", ">= 2x", o_all / w_all >= 2))
    for label, r in runs.items():
        counts = list(r["summaries_per_page"].values()) or [0]
        figures.append(target_line(f"{label}: summaries per distinct page max/mean",
                                   f"{max(counts)}/{sum(counts) / len(counts):.2f} ({len(counts)} pages)",
                                   "max 1" if label == "new" else "(info)", max(counts) <= 1 if label == "new" else None))
        calls_text = ", ".join(f"{k} {v}" for k, v in sorted(r["model_calls"].items()))
        figures.append(target_line(f"{label}: calls", f"{calls_text}; search {r['search_calls']}", "(info)", None))
        figures.append(target_line(f"{label}: citations in findings", f"{r['citations_in_findings']}", "(info)", None))
    return {"runs": runs, "figures": figures}


# --- (d) query analysis and the extended plan -------------------------------------------------------
PLAN_ANSWER = {
    "research_brief": BRIEF,
    "objectives": ["Tell whether a heat pump suits a house in a cold climate", "Estimate what it costs"],
    "sub_questions": [{"question": "How efficient are heat pumps in cold weather?", "priority": "high"},
                      {"question": "What does an air-source heat pump cost to install and run?", "priority": "medium"}],
    "methodology": ["Read manufacturers' data and field studies", "Compare installation and running costs"],
    "success_criteria": [{"criterion": "Efficiency below -15 C is stated with a source", "sub_questions": [1]},
                         {"criterion": "Costs are given for installation and running", "sub_questions": [2]}],
    "intent": "recommendation", "entities": ["air-source heat pumps", "Norway"], "time_scope": "2015 to today",
    "ambiguities": [{"term": "heat pump", "resolved_as": "an air-source heat pump heating a house",
                     "search_hint": "house heating"}],
}
CLARIFY_ANSWER = {"need_clarification": False, "verification": "I will research heat pumps in cold climates.",
                  "dimensions": [{"dimension": "geography", "reading": "Europe", "confidence": 0.8},
                                 {"dimension": "time_frame", "reading": "today", "confidence": 0.9}]}


def _node_of_call(role: str, text: str) -> str:
    if role == "research":
        for marker, node in (("You decide whether a research request", "clarify"),
                             ("Turn the conversation into a research brief", "brief"),
                             ("You check which research sub-questions", "coverage"),
                             ("Research this topic:", "researcher")):
            if marker in text:
                return node
        return "supervisor" if re.search(r"Round \d+ of", text) else "research (other)"
    return {"summarization": "summarize_page", "compression": "compress_research"}.get(role, role)


async def analysis_run(corpus: Path) -> dict:
    from tests.support.scenario import QUESTION as SCENARIO_QUESTION
    from tests.support.scenario import full_script

    script = full_script(wrong_quote=False, clarify=False)
    own = Script()
    own.on("research", "You decide whether a research request is clear", structured("ClarifyWithUser", **CLARIFY_ANSWER),
           repeat=True)
    own.on("research", "Turn the conversation into a research brief", structured("ResearchQuestion", **PLAN_ANSWER),
           repeat=True)
    own.on("research", "You check which research sub-questions the evidence answers",
           structured("CoverageJudgement", matches=[]), repeat=True)
    own.on("research", "Round 2 of", calls(tool_call("ResearchComplete")), repeat=True)
    script.rules = own.rules + script.rules
    log: list[dict] = []
    respond = script.respond

    def logged(role, messages):
        msg = respond(role, messages)
        log.append({"role": role, "node": _node_of_call(role, prompt_text(messages)),
                    "input_tokens": msg.usage_metadata["input_tokens"],
                    "output_tokens": msg.usage_metadata["output_tokens"]})
        return msg

    script.respond = logged
    search = CountingCorpus(LocalCorpus.open(corpus))
    deps = Deps(model_factory=latency_factory(script, 0.0, "async"), search_factory=lambda cfg: search)
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    config = {"configurable": {"thread_id": "analysis"}}
    async for _ in graph.astream({"messages": [HumanMessage(SCENARIO_QUESTION)]}, config,
                                 context=context(allow_clarification=True, max_researcher_iterations=2,
                                                 max_concurrent_research_units=2),
                                 stream_mode="updates", subgraphs=True):
        pass
    state = await graph.aget_state(config)
    v = state.values
    if v.get("status") != "completed":
        raise SystemExit(f"(d) the run did not complete: {v.get('status')} {v.get('errors')}")
    metered = sum(int(u.get("input_tokens", 0)) for u in (v.get("usage") or {}).values())
    if metered != sum(c["input_tokens"] for c in log):
        raise SystemExit(f"(d) logged prompt tokens differ from the run's metered usage {metered}")
    by_node: dict[str, dict[str, int]] = {}
    for c in log:
        row = by_node.setdefault(c["node"], {"calls": 0, "input_tokens": 0, "output_tokens": 0})
        for k in ("input_tokens", "output_tokens"):
            row[k] += c[k]
        row["calls"] += 1
    return {"by_node": by_node, "model_calls": len(log), "search_calls": len(search.queries),
            "queries": search.queries, "input_tokens": sum(c["input_tokens"] for c in log),
            "output_tokens": sum(c["output_tokens"] for c in log),
            "plan_keys": sorted((v.get("research_plan") or {}).keys()),
            "citations": (v.get("citation_summary") or {}).get("verified")}


def bench_analysis(corpus: Path) -> dict:
    r = asyncio.run(analysis_run(corpus))
    print(f"\n(d) query analysis and the extended plan: one full run, {r['model_calls']} model calls, "
          f"{r['search_calls']} searches")
    print(f"  {'node':<20} {'calls':>6} {'input tokens':>13} {'output tokens':>14}")
    for node, row in sorted(r["by_node"].items()):
        print(f"  {node:<20} {row['calls']:>6} {row['input_tokens']:>13,} {row['output_tokens']:>14,}")
    print(f"  {'total':<20} {r['model_calls']:>6} {r['input_tokens']:>13,} {r['output_tokens']:>14,}")
    print("  queries: " + "; ".join(r["queries"]))
    # The scripted model counts a structured answer as 20 tokens a tool call, whatever its
    # arguments; a real model writes them out. Their size, estimated offline:
    import json as _json

    from deep_research.research.runtime.usage import estimate_text_tokens

    old_fields = {k: PLAN_ANSWER[k] for k in ("research_brief", "sub_questions", "entities", "time_scope")}
    old_fields["ambiguities"] = [{k: a[k] for k in ("term", "resolved_as")} for a in PLAN_ANSWER["ambiguities"]]
    brief_old, brief_new = (estimate_text_tokens(_json.dumps(x)) for x in (old_fields, PLAN_ANSWER))
    clarify_old = estimate_text_tokens(_json.dumps({k: CLARIFY_ANSWER[k] for k in ("need_clarification",
                                                                                 "verification")}))
    clarify_new = estimate_text_tokens(_json.dumps(CLARIFY_ANSWER))
    print(f"  structured answers written by a real model (estimated): brief {brief_old} tokens with the old plan "
          f"fields, {brief_new} with all; clarify {clarify_old} without dimensions, {clarify_new} with them")
    r["estimated_answer_tokens"] = {"brief_old_fields": brief_old, "brief_all_fields": brief_new,
                                    "clarify_without_dimensions": clarify_old, "clarify_with_dimensions": clarify_new}
    figures = [target_line("model calls", str(r["model_calls"]), "(compare before/after)", None),
               target_line("input / output tokens", f"{r['input_tokens']:,} / {r['output_tokens']:,}",
                           "(compare before/after)", None),
               target_line("search calls", str(r["search_calls"]), "(compare before/after)", None)]
    return {**r, "figures": figures}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--latency", type=float, default=0.2, help="seconds per model call in (a)")
    ap.add_argument("--units", default="1,2,4,8", help="research units per round in (a)")
    ap.add_argument("--repeats", type=int, default=3, help="runs per point in (a); the best is kept")
    ap.add_argument("--modes", default="async,thread,thread-64", help="latency simulations in (a)")
    ap.add_argument("--rounds", type=int, default=8, help="supervisor rounds in (b)")
    ap.add_argument("--sections", default="a,b,c,d", help="which parts to run (a, b, c, d)")
    ap.add_argument("--pydoc", default=None, help="the Python 3.11 HTML docs folder for (c) (default: fetched)")
    ap.add_argument("--reuse-latency", type=float, default=0.05, help="seconds per model call in (c)")
    args = ap.parse_args()
    print_code_version()
    sections = {x.strip() for x in args.sections.split(",")}
    corpus = corpus_folder()
    units = [int(x) for x in args.units.split(",") if x.strip()]
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    t0 = time.perf_counter()
    result: dict[str, Any] = {"args": vars(args)}
    if "a" in sections:
        result["parallel_units"] = bench_units(corpus, units, args.latency, args.repeats, modes)
    if "b" in sections:
        result["prompt_growth"] = bench_rounds(corpus, args.rounds)
    if "c" in sections:
        result["page_reuse"] = bench_reuse(args.pydoc, args.reuse_latency)
    if "d" in sections:
        result["query_analysis"] = bench_analysis(corpus)
    path = write_result("research", {**result, "seconds": round(time.perf_counter() - t0, 1)})
    print(f"\nresults: {path}")


if __name__ == "__main__":
    main()

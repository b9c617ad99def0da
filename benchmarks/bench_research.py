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

    uv run python benchmarks/bench_research.py [--latency 0.2] [--units 1,2,4,8] [--repeats 3]
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
from _common import CACHE, print_code_version, target_line, write_result
from langchain_core.messages import HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from deep_research.research.common import Deps
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
                                          context=context(max_concurrent_research_units=n,
                                                          max_researcher_iterations=2),
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--latency", type=float, default=0.2, help="seconds per model call in (a)")
    ap.add_argument("--units", default="1,2,4,8", help="research units per round in (a)")
    ap.add_argument("--repeats", type=int, default=3, help="runs per point in (a); the best is kept")
    ap.add_argument("--modes", default="async,thread,thread-64", help="latency simulations in (a)")
    ap.add_argument("--rounds", type=int, default=8, help="supervisor rounds in (b)")
    args = ap.parse_args()
    print_code_version()
    corpus = corpus_folder()
    units = [int(x) for x in args.units.split(",") if x.strip()]
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    t0 = time.perf_counter()
    parallel = bench_units(corpus, units, args.latency, args.repeats, modes)
    growth = bench_rounds(corpus, args.rounds)
    path = write_result("research", {"args": vars(args), "parallel_units": parallel, "prompt_growth": growth,
                                     "seconds": round(time.perf_counter() - t0, 1)})
    print(f"\nresults: {path}")


if __name__ == "__main__":
    main()

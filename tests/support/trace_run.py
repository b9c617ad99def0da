"""One research run of the scenario (scripted model, the test corpus), for the tracing
tests to start in a process of its own with tracing variables set:

    python -m tests.support.trace_run WORKDIR "question"

It flushes LangSmith's uploads and the OpenTelemetry provider before it exits."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from deep_research.research.graph import make_graph
from deep_research.research.runner import RunHandle, stream_run
from deep_research.research.runtime.deps import Deps
from deep_research.search.local import LocalCorpus, build_index
from tests.support.scenario import full_script, write_corpus
from tests.support.scripted import scripted_factory


def main(workdir: str, question: str) -> None:
    corpus = write_corpus(Path(workdir) / "corpus")
    build_index(corpus, base_url="http://127.0.0.1:8765/")
    deps = Deps(model_factory=scripted_factory(full_script(wrong_quote=False)),
                search_factory=lambda cfg: LocalCorpus.open(corpus))
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    handle = RunHandle.new({"allow_clarification": False, "search_api": "local", "write_pdf": False,
                            "output_dir": str(Path(workdir) / "reports"), "max_researcher_iterations": 1})
    asyncio.run(stream_run(graph, handle, {"messages": [HumanMessage(question)]}, lambda event: None))
    state = asyncio.run(graph.aget_state(handle.config))
    print("status:", state.values.get("status"))
    from langchain_core.tracers.langchain import wait_for_all_tracers

    wait_for_all_tracers()
    try:
        from opentelemetry import trace

        provider = trace.get_tracer_provider()
        if hasattr(provider, "force_flush"):
            provider.force_flush()
    except ImportError:
        pass


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

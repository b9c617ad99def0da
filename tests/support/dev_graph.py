"""The research graph with the scripted model and a local corpus, for `langgraph dev` in
tests. The corpus folder comes from DR_TEST_CORPUS (built by the test before the server
starts)."""

import os
from pathlib import Path

from deep_research.research.runtime.deps import Deps
from deep_research.research.graph import make_graph
from deep_research.search.local import LocalCorpus, build_index

from .scenario import full_script
from .scripted import scripted_factory

_corpus = Path(os.environ["DR_TEST_CORPUS"])
build_index(_corpus, base_url=os.environ.get("DR_TEST_BASE_URL", "http://127.0.0.1:9/"))
SCRIPT = full_script()
graph = make_graph(Deps(model_factory=scripted_factory(SCRIPT),
                        search_factory=lambda cfg: LocalCorpus.open(_corpus)))

"""The test graph of dev_graph.py with a search backend that waits before each search
while the file DR_TEST_SLOW_FLAG exists (up to 120 s): a run stays inside a node long
enough to be cancelled, and runs at full speed once the test removes the file."""

import asyncio
import os
from pathlib import Path

from deep_research.research.graph import make_graph
from deep_research.research.runtime.deps import Deps
from deep_research.search.local import LocalCorpus

from .dev_graph import SCRIPT, _corpus
from .scripted import scripted_factory


class _SlowSearch:
    name = "slow"

    def __init__(self, inner):
        self.inner = inner

    async def search(self, query: str, *, max_results: int = 5):
        flag = Path(os.environ["DR_TEST_SLOW_FLAG"])
        for _ in range(1200):
            if not flag.exists():
                break
            await asyncio.sleep(0.1)
        return await self.inner.search(query, max_results=max_results)


graph = make_graph(Deps(model_factory=scripted_factory(SCRIPT),
                        search_factory=lambda cfg: _SlowSearch(LocalCorpus.open(_corpus))))

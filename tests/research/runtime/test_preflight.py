"""The graph's first node: what it tells a chat while it checks the run's setup."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

from deep_research.research.runtime.deps import Deps
from deep_research.research.runtime.preflight import PreflightNode
from tests.support.scenario import full_script, write_corpus
from tests.support.scripted import scripted_factory


def test_indexing_is_said_when_files_are_read_and_never_names_the_corpus_folder(tmp_path: Path):
    """Each new thread (a server's new search backend) was told "Indexing the documents in
    /srv/…" though its index was current and no file was read, naming a folder of the
    server. It is said now when the index run reads a file, without the folder."""
    corpus = write_corpus(tmp_path / "corpus")
    said: list[str] = []

    def thread(n: int) -> None:  # a new thread: a search backend not opened in this process yet
        deps = Deps(model_factory=scripted_factory(full_script()))  # the corpus opened as a run opens it
        runtime = SimpleNamespace(context={"search_api": "local", "corpus_path": str(corpus)})
        with mock.patch("deep_research.research.runtime.preflight.show_progress",
                        lambda config, text: said.append(text)):
            asyncio.run(PreflightNode(deps)({}, {"configurable": {"run_id": f"r{n}", "thread_id": f"t{n}"}},
                                            runtime))

    thread(1)  # no index yet: every file is read
    assert len(said) == 1 and said[0].startswith("Indexing the documents") and str(tmp_path) not in said[0]
    thread(2)  # the index is current
    assert len(said) == 1, said
    (corpus / "new.md").write_text("# New\n\nA new page on heat pumps.\n")
    thread(3)  # one new file
    assert len(said) == 2, said

"""The WordNet tables (citations/claims/lexicon.py) as the garbage collector sees them: loaded
without a collection on the way, and, once loaded, walked by no collection (a large publish
used to spend ~0.1 ms per citation re-walking them)."""

from __future__ import annotations

import gc

import pytest

from deep_research.citations.claims import lexicon

WORDNET = pytest.mark.skipif(not lexicon.available(), reason="WordNet files (Debian wordnet-base) not installed")


@pytest.fixture(autouse=True)
def _unfreeze():
    yield
    gc.unfreeze()  # what a fresh load froze goes back to the collector


def _fresh_load(monkeypatch) -> lexicon._WordNet | None:
    monkeypatch.setattr(lexicon, "_DB", [])
    return lexicon.database()


@WORDNET
def test_no_collection_walks_the_loaded_tables(monkeypatch):
    db = _fresh_load(monkeypatch)
    assert db is not None
    tables = {"index": db.index, "words": db.words, "hyper": db.hyper, "similar": db.similar,
              "antonyms": db.antonyms, "derived": db.derived, "exc": db.exc, "verb_exc": db.verb_exc}
    assert all(len(t) > 1000 for t in tables.values())
    assert gc.get_freeze_count() > 200_000
    walked = {id(o) for o in gc.get_objects()}  # every object some collection walks
    still = [name for name, t in tables.items() if id(t) in walked]
    assert not still, f"tables a collection still walks: {still}"
    # and their content reads as before: lemma -> synsets, word -> its irregular bases
    assert ("n", 2084071) in db.index["dog"]
    assert "be" in db.exc["was"] and "go" in db.exc["went"]
    assert db.lemmas("went") == {"go"}
    assert lexicon.relation("increase", "decrease") == "contrast"


@WORDNET
@pytest.mark.parametrize("enabled", [True, False])
def test_loading_leaves_the_collector_as_it_found_it(monkeypatch, enabled):
    seen: list[bool] = []
    original = lexicon._WordNet.__init__

    def spy(self, root):
        seen.append(gc.isenabled())
        original(self, root)

    monkeypatch.setattr(lexicon._WordNet, "__init__", spy)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        assert _fresh_load(monkeypatch) is not None
        assert seen == [False]  # no collection while the tables are made
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_a_failed_load_turns_the_collector_back_on(monkeypatch, tmp_path):
    (tmp_path / "index.noun").write_text("not wordnet\n")
    (tmp_path / "data.noun").write_text("  header\nnot a synset\n")
    monkeypatch.setenv("DEEP_RESEARCH_WORDNET", str(tmp_path))
    assert gc.isenabled()
    assert _fresh_load(monkeypatch) is None
    assert gc.isenabled()

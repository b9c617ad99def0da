"""A quote's analysis is kept for the claims that cite it again (``analysis._analyse_quote``):
its per-token sequences are tuples, which the garbage collector stops walking, and the rules
that compare a stretch of them with fixed words still see those words."""

import gc

from deep_research.citations.claims.analysis import QUOTE_CACHE, _analyse_quote
from deep_research.citations.claims.contradiction import _prefixed_words
from deep_research.citations.claims.negation import _not_a_denial, _restrictions, _weakly_negated
from deep_research.citations.claims.types import _Text

_SEQUENCES = ("raw", "low", "stems", "kinds", "clause", "sent_start", "neg", "align", "align_pos", "content",
              "entity")


def test_sequences_are_tuples_the_collector_leaves_alone() -> None:
    t = _analyse_quote("The server restarts every 24 hours, not when the cache is full; see section 2.")
    gc.collect()
    for name in _SEQUENCES:
        seq = getattr(t, name)
        assert isinstance(seq, tuple), name
        assert len(seq) == len(t.raw) or name in ("align", "align_pos"), name
        assert not gc.is_tracked(seq), name  # untracked: a kept analysis costs a collection nothing per token
    assert t.positions["restart"] == [t.stems.index("restart")]


def test_a_quote_cited_again_later_is_not_analysed_again() -> None:
    _analyse_quote.cache_clear()
    first = _analyse_quote("A passage cited by the first claim of the report.")
    for i in range(QUOTE_CACHE - 1):
        _analyse_quote(f"Another passage, number {i}.")
    assert _analyse_quote("A passage cited by the first claim of the report.") is first
    for i in range(QUOTE_CACHE):
        _analyse_quote(f"Yet another passage, number {i}.")
    assert _analyse_quote("A passage cited by the first claim of the report.") is not first  # bounded


def _at(t: _Text, word: str) -> int:
    return t.low.index(word)


def test_fixed_word_stretches_still_match() -> None:
    # each of these compares a slice of the analysis with fixed words: a list literal there
    # would never equal the tuple slice, and the shape would go unseen
    t = _analyse_quote("The guest runs with or without KVM acceleration.")
    assert _not_a_denial(t, _at(t, "without"))
    t = _analyse_quote("The guest runs without KVM acceleration.")
    assert not _not_a_denial(t, _at(t, "without"))
    assert any(k.startswith("nam") for k in _restrictions(_analyse_quote("It prints only the name."), denied=False))
    kept = _restrictions(_analyse_quote("It prints the whole path rather than only the name."), denied=False)
    assert not any(k.startswith("nam") for k in kept)
    kept = _restrictions(_analyse_quote("It prints the whole path instead of only the name."), denied=False)
    assert not any(k.startswith("nam") for k in kept)
    t = _analyse_quote("The patch removes the memory.")
    assert _weakly_negated(t, _at(t, "memory"))
    t = _analyse_quote("The patch removes all of memory.")
    assert not _weakly_negated(t, _at(t, "memory"))  # "of" right before: not the verb's object
    t = _analyse_quote("Unpaid and non profit members vote.")
    assert _prefixed_words(t)[1] == {"profit": _at(t, "profit")}

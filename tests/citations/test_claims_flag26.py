"""False flags a general reading removes (stop 45, flag26): each reading leaves the claim
unchecked (grey), never supported, and the altered twin of each pair is still flagged.
(Pairs written for these tests, not taken from the benchmarks.)"""

from __future__ import annotations

import pytest

from deep_research.citations.claims import check_claim

OTHERWISE = ("It is important that the cache key does not have the same name as a column, otherwise it would "
             "shadow the column value.")
LISTING = "eq path equal check ne path not equal check"
PATCH = "But the new patch will not break older clients, if they keep the default port."

# (claim, quote): each flagged by the old code, none proven wrong by a general reading
NOT_FLAGGED = [
    # a question that asks who does a thing asserts neither that someone does nor that nobody does
    pytest.param("Nobody can promise you that the cache you read was not written by another thread.",
                 "But who will promise you that the cache you read was not written by another thread?", id="who"),
    # an "any" in a condition, after "whether" / "without" or in a question says "some"
    pytest.param("When some of the cached pages are stale and no lock is held, the index is rebuilt.",
                 "If any of the cached pages are stale and no lock is held, the index is rebuilt.", id="if-any"),
    # "If someone attempts to V" holds V in its condition: it states neither V nor its negation
    pytest.param("Sealed archives cannot be modified after the upload.",
                 "Seal the archive after the upload. If a client attempts to modify a sealed archive, a SealedError "
                 "is raised.", id="attempt"),
    # "cannot be V-ed" says what "un-V-able" / "ir-V-ible" says: a lexical negation, no flip
    pytest.param("The schema cannot be changed once the table is created.",
                 "The schema is unchangeable once the table is created.", id="unchangeable"),
    pytest.param("The migration cannot be reversed after the commit.",
                 "The migration is irreversible after the commit.", id="irreversible"),
    # "must not P, otherwise Q" says "if P, then Q": the case P with its Q drops no negation
    pytest.param("A cache key named like a column would shadow the column value.", OTHERWISE, id="otherwise"),
    # "V differently than X" is "not V as X"
    pytest.param("The scheduler might not behave as you expect when two jobs share a lock.",
                 "The scheduler may behave differently than expected when two jobs share a lock.", id="differently"),
    # "whether X or not X" asks which branch holds and asserts neither
    pytest.param("eq and ne check whether the paths are equal or not equal.", LISTING, id="whether-or-not"),
    # a given name shortened before the same surname names the same person
    pytest.param("NATO frees Chris Doyle", "Christopher Doyle freed by Islamic State - latest", id="short-name"),
    pytest.param("NATO frees Chris Doyle", "Christopher Doyle freed by Atlantic Alliance - latest",
                 id="short-name-2"),
    # "it is unlikely that X" denies X through the "that"
    pytest.param("So it is unlikely that the new patch will break older clients, if they keep the default port.",
                 PATCH, id="unlikely-that"),
]

# (claim, quote, rule): the altered twins, still flagged
STILL_FLAGGED = [
    pytest.param("Ben will not bring the chairs tomorrow.",
                 "Anna: could you bring the chairs? Ben: sure, I will bring the chairs tomorrow.", "negation",
                 id="yes-no-question"),
    pytest.param("The library does not promise you that the cache you read was written by this thread.",
                 "The library promises you that the cache you read was written by this thread.", "negation",
                 id="statement"),
    pytest.param("Some of the cached pages can be read by the worker, so the index is rebuilt.",
                 "Any of the cached pages can be read by the worker, so the index is rebuilt.", "near_copy:quantifier",
                 id="any-main-clause"),
    pytest.param("Sealed archives cannot be modified after the upload.",
                 "Sealed archives can be modified after the upload. If a client attempts to modify a sealed "
                 "archive, a warning is logged.", "negation", id="stated-outside-the-condition"),
    pytest.param("The schema was not changed once the table was created.",
                 "The schema was changed once the table was created.", "negation", id="not-changed"),
    pytest.param("The cache key has the same name as a column, so it shadows the column value.", OTHERWISE,
                 "negation", id="otherwise-as-a-fact"),
    pytest.param("The cache key should have the same name as a column, otherwise the column value is shadowed.",
                 OTHERWISE, "negation", id="otherwise-flipped"),
    pytest.param("It is important that the cache key has the same name as a column.", OTHERWISE, "negation",
                 id="otherwise-dropped"),
    pytest.param("The scheduler might not behave as you expect when two jobs share a lock.",
                 "The scheduler may behave as expected when two jobs share a lock.", "negation", id="as-expected"),
    pytest.param("ne checks that the path is equal.", LISTING, "negation", id="branch-dropped"),
    pytest.param("ISIS frees Felix Doyle", "Christopher Doyle freed by Islamic State - latest", "near_copy:entity",
                 id="other-given-name"),
    pytest.param("So the new patch will break older clients, if they keep the default port.", PATCH, "negation",
                 id="denial-dropped"),
]


@pytest.mark.parametrize("claim, quote", NOT_FLAGGED)
def test_a_general_reading_leaves_the_claim_unflagged(claim, quote):
    r = check_claim(claim, [quote])
    assert r.status.value == "unchecked", r.note


@pytest.mark.parametrize("claim, quote, rule", STILL_FLAGGED)
def test_the_altered_twin_is_still_flagged(claim, quote, rule):
    r = check_claim(claim, [quote])
    assert r.status.value == "unsupported" and r.rule == rule, r.note

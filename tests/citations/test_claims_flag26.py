"""False flags a general reading removes (stop 45, flag26): each reading leaves the claim
unchecked (grey), never supported, and the altered twin of each pair is still flagged."""

from __future__ import annotations

from deep_research.citations.claims import check_claim


def _status(claim: str, quote: str) -> str:
    return check_claim(claim, [quote]).status.value


# --- a question that asks who does a thing asserts neither that someone does nor that nobody does
WHO = "But who will promise you that the cache you read was not written by another thread?"


def test_nobody_against_a_who_question_is_not_flagged():
    r = check_claim("Nobody can promise you that the cache you read was not written by another thread.", [WHO])
    assert r.status.value == "unchecked", r.note


def test_a_yes_no_question_answered_in_its_text_still_flags():
    quote = "Anna: could you bring the chairs? Ben: sure, I will bring the chairs tomorrow."
    r = check_claim("Ben will not bring the chairs tomorrow.", [quote])
    assert r.status.value == "unsupported", r.note


def test_a_negation_against_a_statement_still_flags():
    quote = "The library promises you that the cache you read was written by this thread."
    r = check_claim("The library does not promise you that the cache you read was written by this thread.", [quote])
    assert r.status.value == "unsupported", r.note


# --- an "any" in a condition, after "whether" / "without" or in a question says "some"
def test_some_for_an_any_in_a_condition_is_not_flagged():
    r = check_claim("When some of the cached pages are stale and no lock is held, the index is rebuilt.",
                    ["If any of the cached pages are stale and no lock is held, the index is rebuilt."])
    assert r.status.value == "unchecked", r.note


def test_some_for_an_any_in_a_main_clause_still_flags():
    r = check_claim("Some of the cached pages can be read by the worker, so the index is rebuilt.",
                    ["Any of the cached pages can be read by the worker, so the index is rebuilt."])
    assert r.status.value == "unsupported" and r.rule == "near_copy:quantifier", r.note


# --- "If someone attempts to V" holds V in its condition: it states neither V nor its negation
ATTEMPT = ("Seal the archive after the upload. If a client attempts to modify a sealed archive, "
           "a SealedError is raised.")


def test_a_denial_against_an_attempt_in_a_condition_is_not_flagged():
    r = check_claim("Sealed archives cannot be modified after the upload.", [ATTEMPT])
    assert r.status.value == "unchecked", r.note


def test_a_denial_against_the_verb_stated_outside_a_condition_still_flags():
    quote = ("Sealed archives can be modified after the upload. If a client attempts to modify a sealed "
             "archive, a warning is logged.")
    r = check_claim("Sealed archives cannot be modified after the upload.", [quote])
    assert r.status.value == "unsupported" and r.rule == "negation", r.note


# --- "cannot be V-ed" says what "un-V-able" / "ir-V-ible" says: a lexical negation, no flip
def test_cannot_be_changed_against_unchangeable_is_not_flagged():
    r = check_claim("The schema cannot be changed once the table is created.",
                    ["The schema is unchangeable once the table is created."])
    assert r.status.value != "unsupported", r.note


def test_cannot_be_reversed_against_irreversible_is_not_flagged():
    r = check_claim("The migration cannot be reversed after the commit.",
                    ["The migration is irreversible after the commit."])
    assert r.status.value != "unsupported", r.note


def test_not_changed_against_changed_still_flags():
    r = check_claim("The schema was not changed once the table was created.",
                    ["The schema was changed once the table was created."])
    assert r.status.value == "unsupported" and r.rule == "negation", r.note


# --- "must not P, otherwise Q" says "if P, then Q": a claim of the case P with its Q drops no negation
OTHERWISE = ("It is important that the cache key does not have the same name as a column, otherwise it would "
             "shadow the column value.")


def test_the_case_an_otherwise_names_is_not_flagged():
    r = check_claim("A cache key named like a column would shadow the column value.", [OTHERWISE])
    assert r.status.value == "unchecked", r.note


def test_the_dropped_negation_stated_as_a_fact_or_a_rule_still_flags():
    for claim in ("The cache key has the same name as a column, so it shadows the column value.",
                  "The cache key should have the same name as a column, otherwise the column value is shadowed.",
                  "It is important that the cache key has the same name as a column."):
        r = check_claim(claim, [OTHERWISE])
        assert r.status.value == "unsupported" and r.rule == "negation", (claim, r.note)


# --- "V differently than X" is "not V as X"
def test_not_as_expected_against_differently_than_expected_is_not_flagged():
    r = check_claim("The scheduler might not behave as you expect when two jobs share a lock.",
                    ["The scheduler may behave differently than expected when two jobs share a lock."])
    assert r.status.value == "unchecked", r.note


def test_not_as_expected_against_as_expected_still_flags():
    r = check_claim("The scheduler might not behave as you expect when two jobs share a lock.",
                    ["The scheduler may behave as expected when two jobs share a lock."])
    assert r.status.value == "unsupported" and r.rule == "negation", r.note


# --- "whether X or not X" asks which branch holds and asserts neither
LISTING = "eq path equal check ne path not equal check"


def test_whether_or_not_against_one_negated_branch_is_not_flagged():
    r = check_claim("eq and ne check whether the paths are equal or not equal.", [LISTING])
    assert r.status.value == "unchecked", r.note


def test_the_negated_branch_dropped_still_flags():
    r = check_claim("ne checks that the path is equal.", [LISTING])
    assert r.status.value == "unsupported" and r.rule == "negation", r.note


# --- a given name shortened before the same surname names the same person
def test_a_shortened_given_name_is_no_name_swap():
    for quote in ("Christopher Doyle freed by Islamic State - latest",
                  "Christopher Doyle freed by Atlantic Alliance - latest"):
        r = check_claim("NATO frees Chris Doyle", [quote])
        assert r.status.value != "unsupported", (quote, r.note)


def test_another_given_name_before_the_surname_still_flags():
    r = check_claim("ISIS frees Felix Doyle", ["Christopher Doyle freed by Islamic State - latest"])
    assert r.status.value == "unsupported" and r.rule == "near_copy:entity", r.note


# --- "it is unlikely that X" denies X through the "that": no negation dropped against "X will not"
def test_unlikely_that_against_will_not_is_not_flagged():
    r = check_claim("So it is unlikely that the new patch will break older clients, if they keep the default port.",
                    ["But the new patch will not break older clients, if they keep the default port."])
    assert r.status.value != "unsupported", r.note


def test_the_denial_dropped_still_flags():
    r = check_claim("So the new patch will break older clients, if they keep the default port.",
                    ["But the new patch will not break older clients, if they keep the default port."])
    assert r.status.value == "unsupported" and r.rule == "negation", r.note

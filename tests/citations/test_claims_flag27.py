"""Correct claims the rules flagged (issue 25, "correct claims flagged"): each rule here makes
a flag rule decline (grey) where the other side does not state what the flag says it does;
none turns a claim green."""

from __future__ import annotations

import pytest

from deep_research.citations.claims import check_claim
from tests.citations.claim_status import FLAG, GREY, status

# --- "whether": a clause that asserts its case no more than the opposite ----------------------


def test_regardless_of_whether_covers_the_negated_case():
    # claims-fresh41 bb0089
    q = ("Same as z, except that timezone abbreviations should be used regardless of whether they are in "
         "common use by the locale.")
    c = "It behaves like z, but timezone abbreviations are used even if the locale does not commonly use them."
    assert status(c, q) is GREY


def test_a_question_by_whether_is_no_statement_to_negate():
    q = "The tool checks whether the cache file exists before it starts."
    assert status("The cache file does not exist when the tool starts.", q) is GREY


def test_a_stated_case_against_its_negation_is_still_caught():
    q = "The tool checks that the cache file exists before it starts."
    assert status("The tool checks that the cache file does not exist before it starts.", q) is FLAG


def test_two_questions_asked_differently_are_still_caught():
    # claims-fresh31 jj0254: "test if ... not empty" / "tests whether ... empty": two questions
    q = ("In the simplest form, you can use it to test if a variable is defined, not empty and not false:")
    assert status("In its simplest form the if statement tests whether a variable is defined and empty.", q) is FLAG


# --- an "un-" predicate: "the actual date is unknown" denies the date as "no actual date" does ---

_DST = ("Daylight savings time is also applied to format_time, but because the actual date is {} in that case, "
        "the current day is assumed to determine whether DST or standard time should be used.")
_NO_DATE = ("format_time applies daylight savings time as well; since it has no actual date, it takes the current "
            "day to decide between DST and standard time.")


def test_an_un_predicate_denies_as_the_negator_does():
    # claims-fresh41 bb0127
    assert status(_NO_DATE, _DST.format("unknown")) is GREY
    assert status(_NO_DATE, _DST.format("still unknown")) is GREY


def test_a_plain_predicate_or_an_un_word_that_denies_nothing_still_flags():
    assert status(_NO_DATE, _DST.format("known")) is FLAG
    assert status(_NO_DATE, _DST.format("unique")) is FLAG


# --- "No." inside a sentence abbreviates "number": it negates nothing ------------------------


def test_a_title_cut_at_its_no_abbreviation_is_no_negation_but_a_negating_no_is():
    # claims-fresh2 q2-dodeca-consistent-72
    cut = 'In early 2011, Sheeran independently released the extended play, "No.'
    assert status("in 2011, he independently released an extended play.", cut) is not FLAG
    denied = "In early 2011, Sheeran independently released no extended play."
    assert status("In early 2011, Sheeran independently released an extended play.", denied) is FLAG


# --- a conceded negation of another subject ---------------------------------------------------

_FERRETS = ("Although fatalities were not observed, SARS-CoV-2-infected ferrets shed virus in nasal washes, saliva, "
            "urine, and feces up to 8 days post-infection.")


def test_a_conceded_negation_of_another_subject_is_no_dropped_negation():
    # claims-fresh1 citint-dev-148
    c = "SARS-CoV-2 infects ferrets and the virus was observed to shed in saliva and nasal washes up to 8 days."
    assert status(c, _FERRETS) is GREY


def test_a_negation_in_a_main_clause_still_flags():
    # claims-fresh7 h0202: the negation is the quote's statement, not a conceded clause
    q = ("If a type implements the Copy trait, variables that use it do not move, but rather are trivially copied, "
         "making them still valid after assignment to another variable.")
    assert status("Variables of a type that implements Copy are moved on assignment and become invalid.", q) is FLAG


# --- a statement put forward as a guess or a story is not asserted ---------------------------

_ACE = ("Despite some early report theorizing these drugs might play a role to increase COVID-19 mortality, the "
        "Council on Hypertension of the ESC pointed out the lack of any evidence supporting harmful effect of ACE-I "
        "and ARB in the context of the pandemic COVID-19 outbreak.")


def test_a_negation_of_a_theorized_statement_is_not_proven_wrong():
    # claims dev covidfact-411
    assert status("Esc council on hypertension says ace-i and arbs do not increase covid-19 mortality", _ACE) is GREY


def test_a_negation_of_a_stated_fact_still_flags():
    q = "Early reports showed that these drugs increase COVID-19 mortality in older patients."
    assert status("These drugs do not increase COVID-19 mortality in older patients.", q) is FLAG


# --- an abbreviation whose initials begin with a name's: the full name of its short form -----


_IS = "Islamic State executed two of its militants in the city of al- Bokamal."


@pytest.mark.parametrize("claim, flagged", [
    ("ISIS executed two of its own fighters in Al-Bukamal", False),  # claims-fresh13 emergent-54f31c40
    ("NATO executed two of its militants in the city of al- Bokamal.", True),
    ("SIIS executed two of its militants in the city of al- Bokamal.", True),  # letters shared, not begun
])
def test_an_abbreviation_begun_by_the_initials_of_the_name_is_no_swap(claim, flagged):
    assert (status(claim, _IS) is FLAG) is flagged


# --- a capital for its state ------------------------------------------------------------------

_JET = ("The downing of the jet plunged relations between Russia and Turkey into crisis, with Moscow imposing "
        "sanctions in response.")


def test_a_capital_for_its_country_is_no_name_swap():
    # claims-fresh7 faithbench-10-7
    c = "The downing of the jet plunged relations between Russia and Turkey into crisis, with Russia imposing sanctions in response."
    assert status(c, _JET) is not FLAG


def test_another_state_or_capital_still_flags():
    c = "The downing of the jet plunged relations between Russia and Turkey into crisis, with Ankara imposing sanctions in response."
    assert status(c, _JET) is FLAG
    c = "The downing of the jet plunged relations between Russia and Turkey into crisis, with Turkey imposing sanctions in response."
    assert status(c, _JET) is FLAG


# --- a contraction typed with a semicolon ("didn;t") is the contraction ----------------------

_PEPE = "Pepe climbs highest as the players that didn;t start in the Champions League trained on Wednesday."


def test_a_semicolon_contraction_negates_as_the_contraction_does():
    # claims-fresh13 bump-task1-191-reference (a correct claim flagged) and bump-task2-33-edited
    assert status("The players that didn't start in the Champions League trained on Wednesday.", _PEPE) is not FLAG
    assert status("The players that started in the Champions League trained on Wednesday.", _PEPE) is FLAG


def test_a_semicolon_before_a_t_elsewhere_is_left_alone():
    from deep_research.citations.claims.analysis import _prepare

    assert _prepare("x;t and didn;t, CAN;T") == "x;t and didn't, CAN'T"
    assert len(_prepare(_PEPE)) == len(_PEPE)


# --- a code name that starts with "_" put for another in the same place ----------------------

_GT = "And who will guarantee you, that you don't accidentally flip the < in your tenth implementation of __gt__?"


def test_a_swapped_dunder_name_is_caught():
    # claims-fresh39 at0110 (a catch lost when the word analysis read "__eq__" as "eq")
    c = "Nobody guarantees you won't accidentally flip the < in your tenth implementation of __eq__."
    r = check_claim(c, [_GT])
    assert r.status is FLAG and r.rule == "near_copy:entity", r.note


def test_the_same_dunder_name_or_another_place_is_no_swap():
    c = "Nobody guarantees you won't accidentally flip the < in your tenth implementation of __gt__."
    assert status(c, _GT) is not FLAG
    # another name, but not after the same words: not the same place
    assert status("You may also write __eq__ by hand for the class.", _GT) is not FLAG
    # another shape: a dunder against a single-underscore name
    q = "Files are copied to the _static folder of the output directory."
    assert status("Files are copied to the __init__ folder of the output directory.", q) is not FLAG

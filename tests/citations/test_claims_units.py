"""A unit's symbol and its spelled-out name are one unit, and a Hebrew prefix letter joined to
a number by a hyphen or maqaf leaves the number whole (issue 25, false flags on correct claims
found by a user trial): "585 kWh" is "585 kilowatt-hours", "כ-1,585" is 1,585, and a unit
symbol is no invented name. A changed unit or number is still flagged."""

from __future__ import annotations

import pytest

from deep_research.citations.claims import ClaimStatus, check_claim
from deep_research.citations.flags import invented_names, normalised_page, proper_names

U = ClaimStatus.UNSUPPORTED


def verdict(claim: str, quote: str) -> tuple[ClaimStatus, str | None, str]:
    r = check_claim(claim, [quote])
    return r.status, r.rule, r.note


def cases(name: str, pairs: list[tuple[str, str]]) -> list:
    return [pytest.param(claim, quote, id=f"{name}-{n}") for n, (claim, quote) in enumerate(pairs)]


# --- 1. a unit symbol is its spelled-out name ------------------------------------------------------
UNIT_SAME = cases("unit-symbol", [
    ("In 2020 the plant produced 585 kWh of electricity.",
     "In 2020 the plant produced 585 kilowatt-hours of electricity."),
    ("In 2020 the plant produced 585 kWh of electricity.",
     "In 2020 the plant produced 585 kilowatt hours of electricity."),
    ("In 2020 the plant produced 585 kilowatt-hours of electricity.",
     "In 2020 the plant produced 585 kWh of electricity."),
    ("The grid stored 40 MWh last winter.", "The grid stored 40 megawatt-hours last winter."),
    ("The plant produced 585kWh.", "The plant produced 585 kilowatt-hours."),
])
UNIT_CHANGED = cases("unit-symbol", [
    ("In 2020 the plant produced 585 MWh of electricity.",
     "In 2020 the plant produced 585 kilowatt-hours of electricity."),
    ("In 2020 the plant produced 585 MWh of electricity.",
     "In 2020 the plant produced 585 kWh of electricity."),
    ("In 2020 the plant produced 585 kW of electricity.",
     "In 2020 the plant produced 585 kilowatt-hours of electricity."),
    ("In 2020 the plant produced 586 kWh of electricity.",
     "In 2020 the plant produced 585 kilowatt-hours of electricity."),
])


def test_a_unit_symbol_is_no_invented_name():
    claim = "The plant produced 585 kWh, then 2 GB of logs at 20 °C and 5GB of 3 GHz traces."
    assert proper_names(claim) == []
    page = normalised_page("In 2020 the plant produced 585 kilowatt-hours of electricity.")
    assert invented_names("The plant produced 585 kWh of electricity.", [page]) == []
    # a name stays a name; a symbol that may be a name ("GB": Great Britain) is one without a number
    assert invented_names("The plant at Drax produced 585 GWh.", [page]) == ["Drax"]
    assert proper_names("GB and TB rose, as did GPT-4 and COVID-19.") == ["GB", "TB", "GPT-4", "COVID-19"]


# --- 2. a Hebrew prefix letter joined to a number ------------------------------------------------
HEBREW_SAME = cases("hebrew-prefix", [
    ("במפעל עבדו 1,585 עובדים.", "במפעל עבדו כ-1,585 עובדים."),
    ("במפעל עבדו כ-1,585 עובדים.", "במפעל עבדו 1,585 עובדים."),
    ("The plant employed 1,585 workers.", "The plant employed כ-1,585 workers."),
    ("The plant employed 1,585 workers.", "The plant employed כ\u05be1,585 workers."),
    ("במפעל עבדו 585 עובדים.", "במפעל עבדו כ\u05be585 עובדים."),
])
HEBREW_CHANGED = cases("hebrew-prefix", [
    ("במפעל עבדו 586 עובדים.", "במפעל עבדו כ-585 עובדים."),
    ("במפעל עבדו כ-586 עובדים.", "במפעל עבדו כ-585 עובדים."),
    ("במפעל עבדו 1,586 עובדים.", "במפעל עבדו כ-1,585 עובדים."),
    ("במפעל עבדו 586 עובדים.", "במפעל עבדו כ\u05be585 עובדים."),
])


# --- the same number and unit written two ways is not flagged; another number or unit still is --
@pytest.mark.parametrize(("claim", "quote"), [*UNIT_SAME, *HEBREW_SAME])
def test_the_same_amount_written_another_way_is_not_a_changed_number(claim, quote):
    status, rule, note = verdict(claim, quote)
    assert status is not U, note
    assert rule != "number"


@pytest.mark.parametrize(("claim", "quote"), [*UNIT_CHANGED, *HEBREW_CHANGED])
def test_another_unit_or_amount_is_still_flagged(claim, quote):
    status, rule, _ = verdict(claim, quote)
    assert (status, rule) == (U, "number")


def test_a_latin_name_with_a_number_keeps_its_number():
    # "B-52" is a name's number, as before: the same name with another number denies it
    status, rule, _ = verdict("The B-52 flew in 1955.", "The B-47 flew in 1955.")
    assert (status, rule) == (U, "number")

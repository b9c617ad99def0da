"""A claim word its quote holds only in another case is not proven by that quote where case can
carry the meaning (fresh22 vm0026: Vim's "U" and "u" are two commands; the case-blind copy rule
showed the altered claim supported). A capital that only opens a sentence changes nothing."""

import pytest

from deep_research.citations.claims import ClaimStatus, check_claim


@pytest.mark.parametrize("claim, quote", [
    ('Press "X" to delete the character under the cursor.', 'Press "x" to delete the character under the cursor.'),
    ("The tool reads the HOME variable first.", "The tool reads the home variable first."),
    ("Set Path in the shell before the build.", "Set path in the shell before the build."),
])
def test_a_word_whose_case_changed_is_not_shown(claim, quote):
    got = check_claim(claim, [quote])
    assert got.status is ClaimStatus.UNCHECKED, got
    assert "case" in got.note, got


@pytest.mark.parametrize("claim, quote", [
    ("Our office in the US opened in May.", "Our office in the us opened in May."),
    ("the report names Mark as the author.", "The report names mark as the author."),
])
def test_a_name_made_of_a_plain_word_is_never_green(claim, quote):
    assert check_claim(claim, [quote]).status is not ClaimStatus.SUPPORTED


@pytest.mark.parametrize("claim, quote", [
    ("The archive keeps every version.", "the archive keeps every version."),  # a quote cut mid-sentence
    ("the archive keeps every version.", "The archive keeps every version."),
    ('Press "x" to delete the character under the cursor.', 'Press "x" to delete the character under the cursor.'),
])
def test_a_sentence_opening_capital_changes_nothing(claim, quote):
    assert check_claim(claim, [quote]).status is ClaimStatus.SUPPORTED

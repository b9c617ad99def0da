"""A quotation is not proof (citations.claims.attribution): a claim shown only by words its
quote holds inside quotation marks is grey, not supported."""

import pytest

from deep_research.citations.claims import ClaimStatus, check_claim
from deep_research.citations.claims.attribution import claim_attributes, quoted_stretches

REPORTED = 'Beyer wrote, "More than 7,000 Americans lost their lives to floods last year.'


@pytest.mark.parametrize("claim, quote", [
    ("More than 7,000 Americans lost their lives to floods last year.", REPORTED),
    # a quotation followed by its refutation
    ("The city will ban all cars from the old town next year.",
     'Bloggers wrote headlines like this one: \u201cThe city will ban all cars from the old town next year.'
     '\u201d This is a vast exaggeration of the plan.'),
])
def test_claim_stated_as_fact_from_a_quotation_is_grey(claim, quote):
    r = check_claim(claim, [quote])
    assert r.status is ClaimStatus.UNCHECKED
    assert "quotation marks" in r.note


def test_claim_that_attributes_the_words_stays_supported():
    r = check_claim("Beyer wrote that more than 7,000 Americans lost their lives to floods last year.",
                    [REPORTED])
    assert r.status is ClaimStatus.SUPPORTED


def test_short_quoted_term_is_a_name_not_a_statement():
    r = check_claim("The default encoding is utf-8.", ['The default encoding is "utf-8".'])
    assert r.status is ClaimStatus.SUPPORTED


def test_words_the_quote_also_states_outside_the_marks_stay_supported():
    quote = ('More than 7,000 Americans lost their lives to floods last year. '
             'As Beyer put it, "more than 7,000 Americans lost their lives to floods last year."')
    r = check_claim("More than 7,000 Americans lost their lives to floods last year.", [quote])
    assert r.status is ClaimStatus.SUPPORTED


def test_quoted_stretches_pairs_marks_and_runs_an_unclosed_one_to_its_sentence_end():
    text = 'He said "one two three" and then \u201cfour five\u201d. She said "six seven. Eight nine.'
    got = [text[a:b] for a, b in quoted_stretches(text)]
    assert got == ['"one two three"', "\u201cfour five\u201d", '"six seven.']


def test_claim_attributes():
    assert claim_attributes("According to the mayor, the bridge will close.")
    assert claim_attributes('The report calls it "a plan with no money behind it".')
    assert not claim_attributes("The bridge will close in May.")


def test_many_marks_stay_bounded_and_the_unread_rest_counts_as_quoted():
    text = '"' + ' "a b c d' * 50_000
    spans = quoted_stretches(text)
    assert len(spans) <= 402 and spans[-1][1] == len(text)
    r = check_claim("Alpha beta gamma delta happened.", [text + " Alpha beta gamma delta happened."])
    assert r.status is not ClaimStatus.SUPPORTED


def test_judge_evidence_resting_on_a_quotation_fails_the_check():
    from deep_research.citations.claims import JudgeFact, check_judge_evidence

    claim = "More than 7,000 Americans lost their lives to floods last year."
    span = "More than 7,000 Americans lost their lives to floods last year."
    ev = check_judge_evidence(claim, [REPORTED], [JudgeFact(fact=claim, spans=[span])])
    assert not ev.ok
    assert any("quotation marks" in p for p in ev.problems)
    attributed = "Beyer wrote that more than 7,000 Americans lost their lives to floods last year."
    ev = check_judge_evidence(attributed, [REPORTED], [JudgeFact(fact=attributed, spans=[REPORTED])])
    assert not any("quotation marks" in p for p in ev.problems)

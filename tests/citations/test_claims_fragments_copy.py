"""A copy of a quote's words that is no sentence of its own is not shown supported (issue 25,
flag19): a fragment opening with a conjunction, and a complement copied without its subject."""

from __future__ import annotations

from deep_research.citations.claims import ClaimStatus, check_claim

S = ClaimStatus.SUPPORTED


def check(claim: str, *quotes: str):
    return check_claim(claim, list(quotes))


def test_a_phrase_opening_with_and_states_nothing():
    quote = ("The project was started at the end of 2009 in Pittsburgh by professor Luis von Ahn (creator of "
             "reCAPTCHA) and his graduate student Severin Hacker.")
    r = check("and also the creator of reCAPTCHA", quote)
    assert r.status is not S
    assert "fragment" in r.note
    # a whole clause after "and" is still a claim
    assert check("and Luis von Ahn was the creator of reCAPTCHA.",
                 "Luis von Ahn was the creator of reCAPTCHA.").status is S


def test_a_that_clause_cut_from_its_sentence_states_nothing():
    quote = ("Smith says diller asked her in 1992: 'do you think i should come out?' But that he worships his "
             "wife diane von furstenberg (above).")
    r = check("But that he worships his wife diane von furstenberg.", quote)
    assert r.status is not S
    assert check("he worships his wife diane von furstenberg.", "he worships his wife diane von furstenberg.").status is S


def test_a_complement_copied_without_its_subject_states_nothing():
    quote = "They are the principal means of transportation in many parts of the world."
    r = check("The principal means of transportation in many parts of the world .", quote)
    assert r.status is not S
    assert "complement" in r.note
    # the same words opening the quote's sentence are its subject: a claim with a verb
    assert check("The principal means of transportation are bicycles.",
                 "The principal means of transportation are bicycles.").status is S
    assert check("They are the principal means of transportation in many parts of the world.", quote).status is S


def test_a_first_person_statement_no_quote_writes_is_no_copy():
    quote = ("The phrase is not commonly used to describe the colour of a cheese, though there are some cheeses "
             "with a greenish tint.")
    r = check("I have! The phrase is not commonly used to describe the color of a cheese, though there are some "
              "cheeses with a greenish tint.", quote)
    assert r.status is not S
    assert '"I"' in r.note
    # a first person the quote writes too is the quote's own
    assert check("We use a greenish tint.", "We use a greenish tint.").status is S


def test_a_copy_without_the_lead_that_ties_it_to_a_case_is_no_proof():
    quote = ("To do this, debit the Intercorporate Investment account and credit Investment Revenue. For example, "
             "assume the parent company owns 60% of the subsidiary.")
    r = check("debit the Intercorporate Investment account and credit Investment Revenue.", quote)
    assert r.status is not S
    assert "to do this" in r.note
    # a lead that names no case ("To this day,") and the whole sentence stay shown
    assert check("the bridge carries trains.", "To this day, the bridge carries trains.").status is S
    assert check("To do this, debit the account and credit revenue.",
                 "To do this, debit the account and credit revenue.").status is S

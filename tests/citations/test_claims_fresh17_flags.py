"""Wrong verdicts seen at fresh17's first sight (issue 25): shapes where a rule read a
difference that is none (false flags), and copies that proved nothing (false greens). Each
test keeps the altered shape it must still catch."""

from __future__ import annotations

from deep_research.citations.claims import ClaimStatus, check_claim

S, U, C = ClaimStatus.SUPPORTED, ClaimStatus.UNSUPPORTED, ClaimStatus.UNCHECKED


def check(claim: str, *quotes: str):
    return check_claim(claim, list(quotes))


def test_has_yet_to_negates_the_verb_after_it():
    quote = "A patch adds NTLM authentication, but it has yet to be merged into the main tree."
    r = check("A patch adds NTLM authentication, but it has not yet been merged into the main tree.", quote)
    assert r.status is not U
    # dropping the negation "has yet to" carries is a flip
    r = check("A patch adds NTLM authentication, and it has been merged into the main tree.", quote)
    assert r.status is U and r.rule == "negation"


def test_forget_to_negates_the_verb_after_it_but_proves_no_plain_not():
    quote = "You could forget to mask the password when reporting a bug to the mailing list."
    r = check("You could mask the password when reporting a bug to the mailing list.", quote)
    assert r.status is U and r.rule == "negation"
    r = check("A stored password might be left unmasked when reporting a bug to the mailing list.", quote)
    assert r.status is not U
    # "could forget to mask" is no "could not mask": never shown supported
    r = check("You could not mask the password when reporting a bug to the mailing list.", quote)
    assert r.status is not S
    r = check("You might forget to mask the password when reporting a bug.",
              "You might forget to mask the password when reporting a bug")
    assert r.status is S


def test_an_added_negator_restated_by_the_opposite_word_is_no_flip():
    quote = "For a maildir folder with a few thousand messages, the default value for read_inc may be too low."
    r = check("For a maildir folder with a few thousand messages, the default value for read_inc may not be high "
              "enough.", quote)
    assert r.status is not U
    # a negator on the quote's own word still flips it
    r = check("For a maildir folder with a few thousand messages, the default value for read_inc may not be too "
              "low.", quote)
    assert r.status is U
    r = check("The default value is not high enough for most folders.", "The default value is high enough for most "
              "folders.")
    assert r.status is U


def test_both_ends_of_a_scale_joined_in_another_order_are_no_swap():
    quote = "Even per-folder settings may produce either too few or too much progress updates."
    r = check("Even per-folder settings may produce too many or too few progress updates.", quote)
    assert r.status is not U
    # one end for the other is still a swap
    r = check("Even per-folder settings may produce too many progress updates.",
              "Even per-folder settings may produce too few progress updates.")
    assert r.status is U and r.rule == "near_copy:quantifier"
    r = check("Even per-folder settings may produce too many progress updates.", quote)
    assert r.status is U


def test_a_comparative_said_of_what_the_quote_compares_against_is_the_converse():
    quote = ("Even though a regular expression search is fast, it is several times slower than a pure string "
             "search which is noticeable on large folders.")
    r = check("Regular expression searches are fast, but pure string searches are several times faster, which "
              "shows most on large folders.", quote)
    assert r.status is not U
    # the comparative said of the quote's own subject is still the opposite
    r = check("Regular expression searches are several times faster, which shows on large folders.", quote)
    assert r.status is U and r.rule == "antonym"


def test_a_domain_is_no_swap_for_a_host_name_in_it():
    quote = "For the IRC user community, visit channel #mutt on irc.libera.chat."
    r = check("For the IRC user community, visit channel #mutt on Libera.Chat.", quote)
    assert r.status is not U
    r = check("For the IRC user community, visit channel #mutt on irc.oftc.net.", quote)
    assert r.status is U and r.rule == "near_copy:entity"
    r = check("For the IRC user community, visit channel #mutt on irc.chat.", quote)
    assert r.status is U


def test_without_a_pronoun_opening_a_clause_is_a_condition():
    quote = "If no port number is given, Mutt will use the system default for the given protocol."
    r = check("The port is optional; without it Mutt uses the system default for the given protocol.", quote)
    assert r.status is not U
    r = check("Mutt will not use the system default port for the given protocol.",
              "Mutt will use the system default port for the given protocol.")
    assert r.status is U


def test_not_to_be_confused_with_denies_nothing():
    quote = ("Thanks to cruise ships like this one, Mexico's Costa Maya (not to be confused with the Riviera Maya "
             "farther north), set along a once mostly deserted stretch of the Yucatan Peninsula, is becoming one of "
             "the most visited, albeit least known, tourist regions in the nation. It encompasses huge swaths of "
             "protected jungle, a number of lesser-known Maya archaeological sites, indigenous villages, pristine "
             "lagoons and top-notch diving.")
    r = check("Costa Maya is a great place for tourists who enjoy diving.", quote)
    assert r.status is not U
    r = check("Costa Maya is not a tourist region.", "Costa Maya is a tourist region.")
    assert r.status is U


def test_a_negation_in_a_condition_restates_what_should_be_done():
    quote = ("Of importance to the shop is a group of volunteers who should sort through donations promptly to "
             "ensure that items are quickly made available for purchase.")
    r = check("If volunteers do not sort the donations promptly, this could lead to a loss in sales.", quote)
    assert r.status is not U
    # a denial of what should be done is still a flip
    r = check("Volunteers should not sort through donations promptly.",
              "Volunteers should sort through donations promptly to ensure items are quickly available.")
    assert r.status is U


def test_a_negation_of_another_scope_than_the_listed_ones_is_no_flip():
    quote = "Guests can be accommodated at lunchtimes and dinnertimes provided that notice has been given."
    r = check("Guests cannot be accommodated at breakfast time.", quote)
    assert r.status is not U
    # denied of a scope the quote lists: a flip
    r = check("Guests cannot be accommodated at lunchtimes.", quote)
    assert r.status is U
    # one scope word for another may be a synonym: still a flip
    r = check("The man isn't talking on the telephone", "The man is talking on the phone")
    assert r.status is U


def test_n_times_after_a_verb_of_change_may_count_occasions():
    quote = ("Four successive rises in the tax on house purchases and the introduction of incremental bands, with "
             "the highest a 4% band for homes valued over 500,000, have sharply increased the amount raised by the "
             "Treasury.")
    r = check("Taxation on property transactions in the UK has been increased four times.", quote)
    assert r.status is not U
    # another count is still flagged
    r = check("Taxation on property transactions in the UK has been increased five times.", quote)
    assert r.status is U and r.rule == "number"


def test_a_bare_name_states_nothing_to_show():
    quote = ("In mid-December 1878, envoys of the British crown delivered an ultimatum to 11 chiefs representing the "
             "then-current king of the Zulu empire, Cetshwayo.")
    r = check("Cetshwayo", quote)
    assert r.status is C
    assert check("The Zulu empire", quote).status is C
    # a short sentence that states something of the name is still shown
    assert check("Cetshwayo refused.", "Cetshwayo refused, and war began on January 12, 1879.").status is S
    assert check("Cetshwayo was king.", "Cetshwayo was king.").status is S


def test_a_copy_cut_inside_a_condition_the_quote_goes_on_with_is_no_proof():
    quote = ("We suffer a suspension of judgement when we hand over a card to purchase something and spend funds that "
             "we intended to use for something essential.")
    r = check("We suffer a suspension of judgement when we hand over a card to purchase something.", quote)
    assert r.status is C
    # the whole condition is a copy; a cut after a comma leaves the condition whole
    r = check("We suffer a suspension of judgement when we hand over a card to purchase something and spend funds "
              "that we intended to use for something essential.", quote)
    assert r.status is S
    r = check("We suffer a suspension of judgement.", "We suffer a suspension of judgement, and spend funds.")
    assert r.status is S


def test_the_judge_evidence_check_does_not_pass_a_copy_cut_inside_a_condition():
    from deep_research.citations.claims import JudgeFact, check_judge_evidence

    quote = ("We suffer a suspension of judgement when we hand over a card to purchase something and spend funds that "
             "we intended to use for something essential.")
    claim = "We suffer a suspension of judgement when we hand over a card to purchase something."
    ev = check_judge_evidence(claim, [quote], [JudgeFact(claim, [claim[:-1]])])
    assert not ev.ok
    # the whole condition passes on its span
    whole = quote
    ev = check_judge_evidence(whole, [quote], [JudgeFact(whole, [whole[:-1]])])
    assert ev.ok, ev.problems

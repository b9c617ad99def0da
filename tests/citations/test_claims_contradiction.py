"""A red flag rests on proof of a contradiction (issue 25, ``claims.contradiction``): a
difference that only the absence of a restatement shows is grey (``unchecked``, with a note
saying what was not proven), never ``supported``; a difference in the same slot stays flagged.
The grey cases are real shapes of correct claims that the rules flagged before."""

from __future__ import annotations

import pytest

from deep_research.citations.claims import ClaimStatus, check_claim

U, C = ClaimStatus.UNSUPPORTED, ClaimStatus.UNCHECKED


def grey(claim: str, *quotes: str) -> str:
    r = check_claim(claim, list(quotes))
    assert r.status is C, r
    assert r.note.startswith("not proven wrong"), r
    return r.note


def flagged(claim: str, *quotes: str) -> str | None:
    r = check_claim(claim, list(quotes))
    assert r.status is U, r
    return r.rule


# --- scale words: another strength that may hold too is an inference, not a contradiction -------
@pytest.mark.parametrize(("claim", "quote"), [
    ("Although several httpd executables run on a system, only the parent process should receive signals.",
     "You will notice many httpd executables running on your system, but only the parent process should "
     "receive signals."),
    ("The pin version is usually played on a flat wooden or other synthetic surface.",
     "The pin version of bowling is often played on a flat wooden or other synthetic surface."),
    ("In most western countries, commercial waterfowl hunting is prohibited.",
     "In many western countries, commercial waterfowl hunting is prohibited."),
    ("Most coronavirus outbreaks occur in indoor environments.",
     "All identified coronavirus outbreaks occur in indoor environments."),
])
def test_a_quantifier_of_a_neighbouring_strength_is_grey(claim, quote):
    assert "may both hold" in grey(claim, quote)


@pytest.mark.parametrize(("claim", "quote"), [
    ("Many browsers can gzip the bodies of their requests.", "Few browsers can gzip the bodies of their requests."),
    ("The handler is always called with the request.", "The handler is sometimes called with the request."),
])
def test_a_quantifier_that_cannot_hold_with_the_quotes_is_still_flagged(claim, quote):
    assert flagged(claim, quote) == "near_copy:quantifier"


def test_modals_only_obligation_against_permission_is_a_contradiction():
    from deep_research.citations.claims.contradiction import scale_incompatible

    assert "may both hold" in grey("Ann and Emily will take care of the food.", "Ann and Emily could take care of the food.")
    assert "may both hold" in grey("Nobody but the owning user should be able to change the contents.",
                                   "Nobody but the owning user may be able to change the contents.")
    assert flagged("You may set the variable before the build.", "You must set the variable before the build.") \
        == "near_copy:modal"
    assert scale_incompatible("modal", "must", "may") and not scale_incompatible("modal", "will", "may")
    assert scale_incompatible("quantifier", "many", "few") and not scale_incompatible("quantifier", "some", "many")


@pytest.mark.parametrize(("claim", "quote"), [
    # a weaker hedge follows from a stronger one: "some" of what "most" covers is true
    ("Some mirrors refresh their package index every night.", "Most mirrors refresh their package index every night."),
    # a stronger hedge than the quote's is an inference the quote does not make, not a contradiction
    ("Most mirrors refresh their package index every night.", "Some mirrors refresh their package index every night."),
])
def test_two_hedged_strengths_two_apart_are_grey(claim, quote):
    from deep_research.citations.claims.contradiction import scale_incompatible

    assert "may both hold" in grey(claim, quote)
    assert not scale_incompatible("quantifier", "some", "most") and not scale_incompatible("quantifier", "most", "some")


@pytest.mark.parametrize(("claim", "quote"), [
    ("Some mirrors refresh their package index every night.", "All mirrors refresh their package index every night."),
    ("All mirrors refresh their package index every night.", "Most mirrors refresh their package index every night."),
    ("Few mirrors refresh their package index every night.", "Most mirrors refresh their package index every night."),
])
def test_a_hedge_against_all_or_across_the_polarity_is_still_flagged(claim, quote):
    assert flagged(claim, quote) == "near_copy:quantifier"


# --- converses and swaps outside the same slot ----------------------------------------------------
def test_a_converse_verb_from_the_other_end_is_grey():
    quote = "Sending the TERM or stop signal to the parent causes it to immediately attempt to kill off all of its children."
    note = grey("When the parent receives TERM (or stop), it right away tries to kill all of its child processes.", quote)
    assert "converse" in note
    # the same subject at the other end of the converse is still a contradiction
    assert flagged("The module sets minimum data rates for sending requests.",
                   "The module sets minimum data rates for receiving requests.") == "near_copy:antonym"


def test_a_name_aligned_away_from_its_neighbours_is_grey():
    note = grey("Andrew Kevin Walker was born on Monday August 14, 1964.",
                "Andrew Kevin Walker (born August 14, 1964) is an American BAFTA-nominated screenwriter.")
    assert "same words" in note
    assert flagged("Compression is carried out by the INFLATE filter.",
                   "Compression is implemented by the DEFLATE filter.") == "near_copy:entity"


def test_an_opposite_in_a_sentence_turned_round_is_still_flagged():
    assert flagged("When the air is humid, the fan speed is decreased by the controller.",
                   "When the air is humid, the controller increases the fan speed.") == "antonym"


# --- negation: the other side must state the negated words there ---------------------------------
def test_a_negation_of_words_the_other_side_does_not_state_together_is_grey():
    # "checked for errors" states no "there are errors"; "ensure" is not in the claim
    grey("Before a restart proceeds, the configuration files are first checked for syntax errors.",
         "When you issue a restart, a syntax check is first run, to ensure that there are no errors in the "
         "configuration files.")
    grey("Volcanoes are melting West Antarctic glaciers, not global warming.",
         "Perhaps global warming occurring during this time predisposed volcanoes to collapse.")


def test_a_negation_of_what_the_other_side_states_is_still_flagged():
    quote = "Opened on May 24, 1883, the Brooklyn Bridge was the first fixed crossing across the East River."
    assert flagged("The Brooklyn Bridge did not open.", quote) == "negation"
    assert flagged("The developers made suEXEC part of the default installation.",
                   "The team decided to NOT make suEXEC part of the default installation.") == "negation"


# --- numbers: lacking is flagged (the project's rule), written elsewhere needs proof --------------
def test_a_number_the_quotes_write_in_another_form_is_grey():
    assert "another form" in grey("Mirren has thirteen siblings.",
                                  "Kathleen was the 13th of 14 children born to a butcher.")


def test_a_number_lacking_or_another_unit_is_still_flagged():
    assert flagged("The cache holds 64 entries.", "The cache holds 32 entries.") == "number"
    assert flagged("The buffer is 128 KB.", "The buffer is 128 MB.") == "number"


def test_a_grey_finding_never_lets_the_proof_show_the_claim_supported():
    # every word of the claim is in the quote, but the rule's finding stands in the way
    r = check_claim("Many browsers can gzip request bodies.",
                    ["Several browsers can gzip request bodies. Many browsers can gzip."])
    assert r.status is not ClaimStatus.SUPPORTED or r.rule in ("copy", "proof")
    r = check_claim("In most western countries, commercial waterfowl hunting is prohibited.",
                    ["In many western countries, commercial waterfowl hunting is prohibited."])
    assert r.status is C


def test_a_names_number_is_proven_wrong_only_by_the_same_name_with_another():
    # CitInt: the quote writes "HIV" bare and "1" only inside "SAMHD1"
    note = grey("Further analysis revealed that SAMHD1 blocks HIV-1 reverse transcription.",
                "Our results show that SAMHD1 interferes with HIV infection of macrophages.")
    assert "no quote gives hiv another number" in note
    assert flagged("SAMHD1 blocks HIV-1 reverse transcription.", "SAMHD1 blocks HIV-2 reverse transcription.") == "number"


def test_not_many_restates_few_and_however_many_is_any_number():
    r = check_claim("Not many browsers can gzip the bodies of their requests.",
                    ["Few browsers have the ability to gzip request bodies."])
    assert r.status is C, r
    grey("However many slashes the URL-path parameter has, they match any number of slashes in the request.",
         "Any number slashes in the URL-path parameter matches any number of slashes in the requested URL-path.")
    assert flagged("Not many browsers can gzip request bodies.", "Many browsers can gzip request bodies.") == "negation"


def test_the_same_digits_for_another_quantity_are_a_proof():
    # CovidFact: "75 Million" cases, not 75 days
    assert flagged("Global covid-19 cases surpass 75 days.",
                   "Global Covid-19 Cases Top 75 Million, Deaths Surpass 1.7 Million") == "number"


def test_a_negation_after_a_reporting_verb_is_said_of_its_own_clause():
    # Check-COVID: "found that" reports the negated clause; its words stand in the quote
    assert flagged("A March study found no cruise ship-linked COVID-19 cases in the United States.",
                   "During February-March 2020, COVID-19 outbreaks associated with three cruise ship voyages "
                   "in the United States have caused more than 800 laboratory-confirmed cases among passengers "
                   "and crew.") == "negation"


# --- a negator next to a scale word turns it round: no swap is proven then ----------------------
@pytest.mark.parametrize(("claim", "quote"), [
    ("Comparing such files is rarely useful, so diff3 reports an error.",
     "Such comparisons are usually not useful, so diff3 reports an error."),
    ("Attribute names may not include a newline character.",
     "An attribute name must not contain a newline character."),
    ("The maximum version cannot be lower than the minimum version.",
     "The maximum version, if given, must be at least the minimum version."),
])
def test_a_scale_word_turned_by_a_negator_is_grey(claim, quote):
    assert "turns it round" in grey(claim, quote)


@pytest.mark.parametrize(("claim", "quote"), [
    ("Comparing such files is rarely useful, so diff3 reports an error.",
     "Such comparisons are usually useful, so diff3 reports an error."),
    ("Attribute names may include a newline character.", "An attribute name must include a newline character."),
])
def test_a_scale_swap_with_no_negator_is_still_flagged(claim, quote):
    assert flagged(claim, quote).startswith("near_copy:")


# --- a negation flip needs the other side not to deny the same words by a word of its own -------
@pytest.mark.parametrize(("claim", "quote", "word"), [
    ("Admins report that a shorter timeout rarely hurts clients, but since that is not RFC-compliant it "
     "probably won't become the default.",
     "Experience shows that a shorter timeout is unlikely to hurt clients. However, it is unlikely to become "
     "the default because it's not RFC compliant.", "unlikely"),
    ("When a hunk does not apply, patch tries it reversed.",
     "If a hunk fails, patch reverses the hunk to see whether it can apply it that way.", "fails"),
])
def test_a_negation_the_other_side_states_by_a_denying_word_is_grey(claim, quote, word):
    assert f'denies it too, by "{word}"' in grey(claim, quote)


def test_a_negation_of_what_the_other_side_states_plainly_is_still_flagged():
    assert flagged("A shorter timeout will not become the default.", "A shorter timeout will become the default.") \
        == "negation"
    assert flagged("When a hunk does not apply, patch tries it reversed.",
                   "When a hunk applies, patch tries it reversed.") == "negation"


# --- a pronoun negator negates no word after it -----------------------------------------------
def test_a_pronoun_negator_before_a_conjunction_negates_nothing_after_it():
    r = check_claim("cmp exits with 0 when it finds none and 2 when something went wrong.",
                    ["An exit status of 0 means no differences were found, 1 means some differences were found, "
                     "and 2 means trouble."])
    assert r.status is C and r.rule is None, r
    assert flagged("cmp exits with 2 when nothing went wrong.", "cmp exits with 2 when something went wrong.") \
        == "negation"


# --- a word flag is read in context: the quote's sentence must state the claim's sentence ------
def test_a_word_read_in_a_sentence_about_something_else_is_grey():
    note = grey("A shift in group differences over time has been reported by several recent studies of infants.",
                "There were no between-group differences in the length of the recordings per child (both about "
                "an hour).")
    assert "the quote's sentence states only" in note


def test_a_word_read_in_the_same_sentence_said_again_is_still_flagged():
    assert flagged("There were between-group differences in the length of the recordings per child.",
                   "There were no between-group differences in the length of the recordings per child.") == "negation"
    # a passive turned active keeps its context: the same words in another order
    assert flagged("The parent process does not receive the signals.",
                   "The signals are received by the parent process.") == "negation"


# --- a number in words with a spaced hyphen (a transcript's "twenty - five") -------------------
def test_a_number_written_in_words_with_a_spaced_hyphen_is_grey():
    assert "writes 25 in words" in grey("They had 25 machines at the workshop.",
                                        "at the workshop they got twenty - five machines and a shared queue")
    r = check_claim("They had 26 machines at the workshop.",
                    ["at the workshop they got twenty - five machines and a shared queue"])
    assert r.status is U and r.rule == "number", r


# --- a date is contradicted only by a date (a version only by a version) -------------------------
@pytest.mark.parametrize(("claim", "quote"), [
    ("Khan will fight former champion Chris Algieri on May 30.",
     "Khan posed with sea lions at Six Flags Discovery Kingdom. He will fight former champion Chris Algieri on "
     "the 30th, the sixth fight since May."),
    ("Khan will fight former champion Chris Algieri on May 30.",
     "Since May, Khan has trained for 30 weeks at Six Flags; his sixth opponent will be former champion Chris "
     "Algieri."),
])
def test_a_date_or_version_against_a_count_or_ordinal_is_grey(claim, quote):
    assert "of the same kind" in grey(claim, quote)


@pytest.mark.parametrize(("claim", "quote", "says"), [
    ("Khan will fight former champion Chris Algieri on May 30.",
     "Khan posed at Six Flags. He will fight former champion Chris Algieri on June 12.", "June 12"),
    ("Leonard beat Duran in November 1980.", "In the sixth of 12 fights, Leonard beat Duran in November 1981.",
     "November 1981"),
    ("Khan will fight Algieri on May 30.", "Khan will fight Algieri on June 30, 2015.", "June 30, 2015"),
    ("Python 3.11.2 fixed the crash.", "Python 3.11.4 fixed the crash six weeks later.", "3.11.4"),
])
def test_a_date_or_version_against_another_of_its_kind_is_still_flagged(claim, quote, says):
    r = check_claim(claim, [quote])
    assert r.status is U and r.rule == "number" and not r.lacking, r
    assert r.note.endswith(f"where the quote says {says}"), r


@pytest.mark.parametrize(("claim", "quote"), [
    ("Khan will fight Algieri on May 30.", "Khan will fight Algieri at Six Flags in the spring."),
    ("The sea ice reached its low in October 2007.", "The sea ice reached its low in 2007, six weeks early."),
    ("Python 3.11.2 fixed the crash in six weeks.", "Python fixed the crash 3 times, 11 days and 2 weeks apart."),
])
def test_a_date_or_version_no_quote_writes_is_number_lacking(claim, quote):
    r = check_claim(claim, [quote])
    assert r.status is U and r.lacking, r


def test_the_release_a_version_belongs_to_is_no_proof():
    # "3.11.2" is a release of "3.11": not another version, only a number the quote lacks
    r = check_claim("Python 3.11.2 fixed the crash.", ["Python 3.11 fixed the crash."])
    assert r.status is U and r.lacking, r


@pytest.mark.parametrize("quote", [
    "the sea lions at six flags discovery kingdom . he will fight former champion chris algieri on may 30 .",
    "it was the sixth in a series of 12 fights . he will fight former champion chris algieri in may 2015 .",
])
def test_a_month_in_a_text_without_capitals_is_read_as_a_date(quote):
    claim = "He will fight former champion Chris Algieri on May 30." if "30" in quote else \
        "He will fight former champion Chris Algieri in May 2015."
    assert check_claim(claim, [quote]).status is not U


@pytest.mark.parametrize(("text", "dates"), [
    ("he will fight on may 30 .", ["D:?-05-30"]),
    ("the fight was in november 1980 .", ["D:1980-11-?"]),
    ("He will fight on May 30.", ["D:?-05-30"]),
    ("Users may 30 times retry; the fight is in June.", []),  # capitals written: "may" is a modal
    ("the first 30 may be free .", []),  # no capitals, but the day must follow a lower-case month
])
def test_a_lower_case_month_is_a_date_only_in_a_text_without_capitals(text, dates):
    from deep_research.citations.claims.analysis import _analyse_quote
    assert [n.key for n in _analyse_quote(text).numbers if n.key.startswith("D:")] == dates


# --- a converse comparative with its terms swapped is the same statement ---------------------------
# the words right after "than" are the same on both sides ("than spending in" / "than spending
# under"): only where the compared terms stand tells the two readings apart
@pytest.mark.parametrize(("claim", "quote"), [
    ("Says spending in the fiscal 2009 budget was lower than spending in the fiscal 2014 budget",
     "Buono said during a speech on the Senate floor about the fiscal year 2014 budget that its spending level is "
     "higher than spending under the fiscal year 2009 budget."),
    ("On large files, memory use of the old parser is less than memory use of the new parser.",
     "On large files, memory use of the new parser is more than memory use of the old parser."),
    ("The price of the basic plan is smaller than the price of the premium plan.",
     "The price of the premium plan is larger than the price of the basic plan."),
])
def test_a_comparison_read_from_its_other_end_is_no_contradiction(claim, quote):
    r = check_claim(claim, [quote])
    assert r.status is not U, r


@pytest.mark.parametrize(("claim", "quote", "rule"), [
    ("Says spending in the fiscal 2014 budget was lower than spending in the fiscal 2009 budget",
     "Buono said during a speech on the Senate floor about the fiscal year 2014 budget that its spending level is "
     "higher than spending under the fiscal year 2009 budget.", "near_copy:antonym"),
    ("On large files, memory use of the new parser is less than memory use of the old parser.",
     "On large files, memory use of the new parser is more than memory use of the old parser.", "near_copy:antonym"),
    ("The price of the premium plan is smaller than the price of the basic plan.",
     "The price of the premium plan is larger than the price of the basic plan.", "near_copy:antonym"),
    ("The Ubuntu release shipped earlier than the Debian release that year.",
     "That year the Ubuntu release shipped later than the Debian release.", "near_copy:order"),
])
def test_a_comparison_with_its_terms_on_the_same_sides_is_still_flagged(claim, quote, rule):
    assert flagged(claim, quote) == rule


# --- "not just X" / "not only X" / "not merely X" / "not simply X" adds to X: no negation of X ------
CLONE = ("If we do want to deeply copy the heap data of the String, not just the stack data, we can use a common "
         "method called clone.")


@pytest.mark.parametrize(("claim", "quote"), [
    ("The clone method deep-copies a String's heap data as well as its stack data.", CLONE),
    ("We can use clone to deeply copy the stack data of the String.", CLONE),
    ("The report covers not merely the budget, it covers the staffing plan.", "The report covers the budget."),
    ("The parser is not simply a tokenizer, it builds the syntax tree.", "The parser is a tokenizer that builds the "
     "syntax tree."),
])
def test_not_just_x_adds_to_x_and_is_no_negation(claim, quote):
    assert check_claim(claim, [quote]).status is not U


@pytest.mark.parametrize(("claim", "quote"), [
    ("We can use clone to deeply copy just the stack data of the String.", CLONE),
    ("We can use clone to deeply copy only the stack data of the String.", CLONE),
    ("The parser is not just a tokenizer.", "The parser is only a tokenizer."),
])
def test_only_x_against_not_just_x_is_still_flagged(claim, quote):
    assert flagged(claim, quote) == "negation"


def test_not_just_anyone_is_still_a_negation():
    assert flagged("Anyone can join the club.", "Not just anyone can join the club.") == "negation"


def test_the_judge_check_reads_not_just_x_as_the_rules_do():
    from deep_research.citations.claims import JudgeFact, check_judge_evidence
    quote = "The clone method deeply copies the heap data of the String, not just the stack data."
    span = quote[:-1]
    fine = "The clone method deeply copies the heap data of the String and the stack data."
    assert check_judge_evidence(fine, [quote], [JudgeFact(fine, [span])]).ok
    wrong = "The clone method deeply copies just the stack data of the String."
    e = check_judge_evidence(wrong, [quote], [JudgeFact(wrong, [span])])
    assert not e.ok and any("restricts" in p for p in e.problems), e.problems


@pytest.mark.parametrize(("claim", "quote"), [
    ("The Yama documentation stresses that the problem is not just theoretical.", "This is not a theoretical problem."),
    ("This is not a theoretical problem.", "The problem is not just theoretical."),
])
def test_not_just_x_against_not_x_is_no_proof(claim, quote):
    assert "not just" in grey(claim, quote)


def test_x_against_not_x_is_still_flagged():
    assert flagged("The problem is theoretical.", "This is not a theoretical problem.") == "negation"


# --- lexical negation (Go documentation): correct restatements shown red before ----------------
def not_red(claim: str, *quotes: str) -> None:
    r = check_claim(claim, list(quotes))
    assert r.status is C, r  # grey for the judge: never a flag, never supported by this difference


def test_not_yet_negates_what_follows():
    not_red("A Go variable that has never been assigned holds the zero value of its type.",
            "If a variable has not yet been assigned a value, its value is the zero value for its type.")


def test_dropping_not_yet_is_still_flagged():
    assert flagged("A Go variable that has been assigned holds the zero value of its type.",
                   "If a variable has not yet been assigned a value, its value is the zero value for its type."
                   ) == "negation"


@pytest.mark.parametrize(("claim", "quote"), [
    ("Nil is the value of a pointer that has not been initialized.", "The value of an uninitialized pointer is nil."),
    ("The value of an uninitialized pointer is nil.", "Nil is the value of a pointer that has not been initialized."),
    ("Nil is the value of a pointer that is not exported.", "Nil is the value of a non-exported pointer."),
])
def test_not_x_against_un_x_is_no_flip(claim, quote):
    not_red(claim, quote)


@pytest.mark.parametrize(("claim", "quote"), [
    ("The value of an initialized pointer is nil.", "The value of an uninitialized pointer is nil."),
    ("Nil is the value of a pointer that has been initialized.",
     "Nil is the value of a pointer that has not been initialized."),
])
def test_x_against_un_x_or_not_x_is_still_flagged(claim, quote):
    assert flagged(claim, quote) in ("near_copy:antonym", "negation")


def test_un_x_against_non_x_is_no_antonym():
    not_red("Unexported field names that come from different packages are never considered the same.",
            "Non-exported field names from different packages are always different.")


def test_x_against_non_x_is_still_flagged():
    assert flagged("Exported field names that come from different packages are never considered the same.",
                   "Non-exported field names from different packages are always different.") == "near_copy:antonym"


def test_quantifiers_over_different_predicates_are_grey():
    assert "govern different words" in grey(
        "A Go slice shares its storage with the underlying array, whereas separate arrays never share storage.",
        "A slice therefore shares storage with its array and with other slices of the same array; by contrast, "
        "distinct arrays always represent distinct storage.")


@pytest.mark.parametrize(("claim", "quote"), [
    ("Distinct arrays rarely share storage.", "Distinct arrays always share storage."),
    ("Distinct arrays always represent distinct storage.", "Distinct arrays rarely represent distinct storage."),
])
def test_quantifiers_over_one_predicate_are_still_flagged(claim, quote):
    assert flagged(claim, quote) == "near_copy:quantifier"


def test_a_non_polar_quantifier_swap_over_different_predicates_is_still_flagged():
    assert flagged("The gzip step is sometimes placed after the cache module in the chain.",
                   "The gzip step is always inserted after the cache module in the chain.") == "near_copy:quantifier"


# --- a converse in the passive: word order does not tell who sends and who receives ----------------
@pytest.mark.parametrize(("claim", "quote"), [
    ("Every Monday each subscriber receives a copy of the newsletter.",
     "Every Monday each subscriber is sent a copy of the newsletter."),
    ("Customers whose plan expires are sent a renewal notice a week early.",
     "Customers whose plan expires receive a renewal notice a week early."),
])
def test_a_converse_in_the_passive_is_grey(claim, quote):
    assert "converse in the passive" in grey(claim, quote)


@pytest.mark.parametrize(("claim", "quote", "rule"), [
    # the same active subject at the other end of a converse
    ("Every Monday the gateway sends a health report to the monitor.",
     "Every Monday the gateway receives a health report from the monitor.", "antonym"),
    # an opposite that is no converse, in the passive
    ("On new accounts the spam filter is disabled by default.",
     "On new accounts the spam filter is enabled by default.", "antonym"),
])
def test_an_active_converse_or_a_plain_opposite_is_still_flagged(claim, quote, rule):
    assert (flagged(claim, quote) or "").endswith(rule)


# --- a claim word of negative meaning accounts for the quote's negation --------------------------
@pytest.mark.parametrize(("claim", "quote", "word"), [
    ("Compression, which is off by default, shrinks the log files before each upload.",
     "If compression is switched on (it is not by default), the log files shrink before each upload.", "off"),
    ("The page cache, unset by default, keeps recently read pages in memory.",
     "When the page cache is turned on (it is not by default), recently read pages are kept in memory.",
     "unset"),
])
def test_a_negative_word_in_the_claim_accounts_for_the_quotes_negation(claim, quote, word):
    assert f'denies it too, by "{word}"' in grey(claim, quote)


def test_a_claim_dropping_the_quotes_negation_with_no_negative_word_is_still_flagged():
    assert flagged("Compression, which is used by default, shrinks the log files before each upload.",
                   "Compression, which is not used by default, shrinks the log files before each upload.") \
        == "negation"


# --- the quote negates its own earlier sentence through a sentence-initial anaphor ----------------
_RESUME = ("When a download is paused and resumed later from the menu, the client keeps the partial file that was "
           "already written. This does not happen if the download is resumed after a reboot, nor when it is resumed "
           "from the command line.")


def test_a_negation_the_quote_makes_of_its_own_sentence_through_this_is_grey():
    note = grey("A download resumed from the command line does not keep its partial file.", _RESUME)
    assert 'in a sentence opened by "This"' in note


def test_a_negation_the_anaphor_sentence_does_not_speak_of_is_still_flagged():
    # the claim draws nothing from the sentence the anaphor opens: it denies the first one
    assert flagged("A download resumed later from the menu does not keep its partial file.", _RESUME) == "negation"


# --- a name the claim denies is no swap of the quote's name -------------------------------------
def test_a_name_denied_on_one_side_only_is_no_name_swap():
    # "not an American station" agrees with "a Canadian radio station": the claim denies its name
    assert "not in its quotes" in check_claim(
        "Kettle Radio is not an American station.",
        ["Kettle Radio is a Canadian radio station founded by two engineers."]).note


def test_a_name_swapped_with_neither_side_denying_is_still_flagged():
    assert flagged("Kettle Radio is an American radio station founded by two engineers.",
                   "Kettle Radio is a Canadian radio station founded by two engineers.") == "near_copy:entity"


# --- a word flag needs the quote's sentence to state most of the claim's sentence -----------------
def test_a_negation_read_in_a_sentence_stating_less_than_most_of_the_claim_is_grey():
    # the claim's place ("remote backup server") and time ("before uploading") are nowhere in the
    # quote's sentence: they may be what makes the denial true
    note = grey("The nightly job does not compress the archive before uploading it to the remote backup server.",
                "The nightly job compresses the archive and keeps a copy on the local disk.")
    assert "states only" in note


def test_a_negation_of_the_quotes_sentence_said_again_is_still_flagged():
    assert flagged("The nightly job does not compress the archive before uploading it to the remote backup server.",
                   "The nightly job compresses the archive before uploading it to the remote backup server.") \
        == "negation"


def not_flagged(claim: str, *quotes: str) -> None:
    r = check_claim(claim, list(quotes))
    assert r.status not in (U, ClaimStatus.SUPPORTED), r


def test_a_near_copy_whose_plain_side_denies_by_a_word_is_no_dropped_negation():
    # "missing" denies the directory as "no" does: no negation was dropped
    not_flagged("The manual says that when the cache directory is missing, every download is fetched again "
                "from the mirror.",
                "If there is no cache directory (it was deleted or never made), every download is fetched again "
                "from the mirror.")
    flagged("The manual says that when the cache directory exists, every download is fetched again from the mirror.",
            "If there is no cache directory, every download is fetched again from the mirror.")


def test_only_after_rather_than_restricts_nothing():
    # "rather than only the file name" says what "not just a file name" says
    not_flagged("The filter has to match the full path of a file rather than only its name.",
                "The filter must match the full path of a file, not just its name.")
    flagged("The filter has to match only the name of a file.",
            "The filter must match the full path of a file, not just its name.")


def test_a_negation_moved_from_the_noun_to_its_verb_is_grey():
    # "no job with a lock file will start" / "a job that holds a lock file is never started"
    assert "negates the verb" in grey("Without -x, no cron job with a lock file will ever start.",
                                      "If -x is not given, a cron job that holds a lock file is never started.")
    assert flagged("Without -x, no cron job with a lock file will ever start.",
                   "If -x is not given, a cron job that holds a lock file is always started.") == "negation"


def test_an_opposite_the_quote_says_of_another_object_past_a_but_is_grey():
    quote = "--fast overrides cache_size, but leaves thread_count unchanged, whereas --slow resets both."
    assert "of another thing" in grey("Passing --fast changes cache_size and leaves thread_count alone.", quote)
    # the claim's word said of the object the quote keeps unchanged: still proof
    assert flagged("Passing --fast changes thread_count and leaves cache_size alone.", quote) == "antonym"


_LOCK = ("With the lock file in place, this prevents a second worker who is permitted to read the queue from taking "
         "the same job twice.")


def test_prevents_from_far_before_the_aligned_verb_accounts_for_the_claims_negation():
    # "prevents a worker ... from taking" is "the worker cannot take": no negation added
    not_flagged("Thanks to the lock file, a second worker that may read the queue cannot take the same job twice.",
                _LOCK)
    assert flagged("Thanks to the lock file, a second worker that may read the queue cannot take the same job twice.",
                   "With the lock file in place, a second worker who is permitted to read the queue can take the same "
                   "job twice.") == "negation"


def test_allowed_against_prevents_restated_by_the_claims_negation_is_grey():
    # the quote's "prevents ... from taking" is the claim's "cannot take"; its "allowed" stands for "permitted"
    not_flagged("Thanks to the lock file, a second worker allowed to read the queue cannot take the same job twice.",
                _LOCK)
    # the claim negates another verb than the one the quote holds back: the rule does not apply
    assert flagged("Thanks to the lock file, a second worker allowed to read the queue cannot lose the same job "
                   "twice.", _LOCK) == "antonym"

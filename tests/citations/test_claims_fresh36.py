"""fresh36 (Click docs): an altered claim was shown supported because the proof compared a
keyword argument by its stem - "pass chained=True" for "pass chain=True" (ck0214). A token of
code in prose (a keyword argument, an option, a path, an identifier with "_", "*" or "::", a
camelCase word, a call, a dotted name, an environment variable) now stands in a quote as
written, no stem or case change, or the claim is grey; the judge evidence check reads the same
rule on its cited spans. Prose ("e.g.", "U.S.", "well-known", "and/or", "file(s)") is no code.
The sentences here are our own, not the Click pairs."""

from __future__ import annotations

import pytest

from deep_research.citations.claims import check_claim
from deep_research.citations.claims.judge_check import JudgeFact, check_judge_evidence
from tests.citations.claim_status import FLAG, GREEN, GREY, status

# (claim, quote): each claim changes one token of code its quote writes, by a stem or a case
CHANGED = [
    ("Pass cached=True to the loader to keep the results.", "Pass cache=True to the loader to keep the results."),
    ("Set CacheMode=Strict to keep it.", "Set CacheMode=strict to keep it."),
    ("Call getElements to find the nodes.", "Call getElement to find the nodes."),
    ("It raised KeyErrors on the missing keys.", "It raises KeyError on the missing keys."),
    ("Call loads() to read the file.", "Call load() to read the file."),
    ("Call open(paths) to read the files.", "Call open(path) to read the files."),
    ("The settings live in ~/.configs/tool.", "The settings live in ~/.config/tool."),
    ("The settings live in /etc/hosts.", "The settings live in /etc/host."),
    ("Use std::vectors for the list.", "Use std::vector for the list."),
    ("The script reads $HOMES first.", "The script reads $HOME first."),
    ("Set MAX_RETRIES to limit the attempts.", "Set max_retries to limit the attempts."),
]


@pytest.mark.parametrize(("claim", "quote"), CHANGED)
def test_a_token_of_code_is_compared_as_written(claim, quote):
    got = check_claim(claim, [quote])
    assert got.status is GREY and "compared as written" in (got.note or ""), got


@pytest.mark.parametrize(("claim", "quote"), CHANGED)
def test_the_same_token_of_code_is_still_a_copy(claim, quote):
    assert status(quote, quote) is GREEN
    # the same token in backticks, with its quote's other words restated by a stem
    assert status("Callers pass `cache=True` to the loader to keep the results.",
                  "Callers passed cache=True to the loader to keep the results.") is GREEN


def test_prose_is_no_code():
    quote = "Installed tools in the U.S. list, e.g., grep and/or sed as well-known file(s)."
    assert status("Installed tools in the U.S. listed, e.g., grep and/or sed as well-known file(s).", quote) is GREEN
    # a reporting frame's source is no fact the quote must show, and "$" before a lower-case word no variable
    assert status("According to example.org, the tool lists files.", "The tool lists files.") is GREEN
    assert status("The sign read $hope on the night.", "The sign read $ hope on the night.") is GREEN


def test_a_token_of_code_is_not_found_inside_a_longer_word():
    assert status("Call getElement to find the nodes.", "Call getElements to find the nodes.") is GREY
    assert status("Pass cache=True to the loader.", "Pass cache=True2 to the loader.") is not GREEN


def test_the_judge_evidence_check_reads_tokens_of_code():
    quote = "Pass cache=True to the loader to keep the results."
    for claim in ("Pass cached=True to the loader to keep the results.",
                  "Pass Cache=True to the loader to keep the results."):
        ev = check_judge_evidence(claim, [quote], [JudgeFact(claim, [quote[:-1]], [])])
        assert not ev.ok and any("compared as written" in p for p in ev.problems), ev.problems
    assert check_judge_evidence(quote, [quote], [JudgeFact(quote, [quote[:-1]], [])]).ok


def test_a_demonstrative_after_a_heading_is_no_name():
    """(lfqa, correct) "## Ibuprofen This medication ..." - "This" after a heading with no stop
    was read as a name and "Advil" as swapped for it: the list of pronouns that are no names
    was shadowed by another list of the same name."""
    quote = "## Motrin\n\n\nThis medication is a type of pain reliever that lowers fevers and aches."
    got = check_claim("Motrin (Advil) is a pain reliever that lowers fevers and aches.", [quote])
    assert got.status is GREY, got
    # a name swapped for the quote's name still flags
    assert status("The pain reliever sold as Tylenol lowers fevers and aches.",
                  "The pain reliever sold as Motrin lowers fevers and aches.") is FLAG


def test_do_not_forget_to_is_no_negation_of_what_follows():
    """(fresh27 bo0073, correct, flagged) "Do not forget to test your backups" / "Remember to test
    the backups": two negations state the test; the claim is grey, not a dropped negation."""
    quote = "Do not forget to rotate your issued keys so that old tokens stop working."
    assert status("Remember to rotate the keys you issued, so that old tokens stop working.", quote) is GREY
    assert status("Make sure to close the files you opened, so that the locks are released.",
                  "Don't forget to close your opened files so that the locks are released.") is GREY
    # "forgot to" alone still denies what follows, and "does not fail to" still reads as two negations
    assert status("The script rotates the keys.", "The script forgot to rotate the keys.") is FLAG
    assert status("The job does not fail to send the report.", "The job fails to send the report.") is FLAG


def test_never_before_seen_keeps_its_negation_on_what_follows():
    """(fresh27 bo0003, correct, flagged) "only new never before seen data is stored" / "only data
    never seen before is stored": "before" after "never", or an adverb with no noun or clause
    after it, opens no clause that ends the negation."""
    quote = "The crawl is a lot quicker since only new never before fetched pages are downloaded."
    assert status("Because only pages never fetched before are downloaded, the crawl is much quicker.", quote) is GREY
    # a negation the quote does not have still flags
    assert status("The crawl never fetched the pages before they were downloaded.",
                  "The crawl fetched the pages before they were downloaded.") is FLAG


def test_a_misspelt_nt_is_a_negation():
    """(begin, correct, flagged) "could't afford" / "couldn't afford": "n't" misspelt "'t" after a
    verb that takes it is the same negation."""
    quote = "The family was so poor that they couldn't afford a second car."
    assert status("The family was so poor that they could't afford a second car.", quote) is not FLAG
    assert status("The family could't afford a second car.", "The family could afford a second car.") is FLAG
    # an apostrophe before "t" elsewhere is no negation
    assert status("'Tis the season, and the family could afford a second car.",
                  "The family could afford a second car.") is not FLAG


def test_not_really_opening_an_answer_negates_nothing_after_it():
    """(dialfact, correct, flagged) "not really its just a sausage sandwich" / "It is a type of
    sausage sandwich": "not really" before a pause or a pronoun answers what was asked."""
    quote = "It is a type of sausage sandwich."
    assert status("not really its just a sausage sandwich but they are good", quote) is GREY
    assert status("Not really, it is a sausage sandwich.", quote) is GREY
    # "not really" before what it denies still negates
    assert status("It is not really a sausage sandwich.", quote) is FLAG
    assert status("Not really a sausage sandwich.", quote) is FLAG


def test_a_negated_do_that_stands_for_the_phrase_before_it_drops_no_negation():
    """(fresh22 vm0090, correct, flagged) "using A and B will not get you to every state while
    repeating C does" / "repeating C reaches every state, which A and B cannot do": the claim's
    negation is said of A and B by reference; grey, not a dropped negation."""
    quote = "Note that using undo and redo will not get you to all possible states while the time travel commands do."
    claim = "The time travel commands reach every possible state, which undo and redo cannot do."
    got = check_claim(claim, [quote])
    assert got.status is GREY and "by a negated" in (got.note or ""), got
    # without the negated "do", the dropped negation still flags
    assert status("Using undo and redo gets you to all possible states.", quote) is FLAG


def test_an_opposite_said_of_a_change_composes_with_it():
    """(climate-fever, correct, flagged) "Increasing rates of ice mass loss from the ice sheets" /
    "The ice sheets have decreased in mass": "increasing" said of a loss states a decrease."""
    quote = "Increasing rates of water volume loss from the northern lakes were measured."
    assert status("The northern lakes have decreased in water volume.", quote) is GREY
    # the opposite said of the same thing, no change noun between, still flags
    assert status("The northern lakes have decreased in water volume.",
                  "The northern lakes have increased in water volume.") is FLAG

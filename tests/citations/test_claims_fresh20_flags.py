"""Flags that were false on correct claims (issue 25, fresh20 and the seen public sets): a
negation said two ways, a privative verb against "no", "nothing but X" ("only X"), a pronoun
"neither" as an object, and a number word against a decimal of the same value now stay grey
(unchecked), and the contradiction of each shape still flags."""

from __future__ import annotations

from deep_research.citations.claims import ClaimStatus, check_claim
from tests.citations.claim_status import FLAG, status

SUPPORTED = ClaimStatus.SUPPORTED


def test_a_determiner_negation_restated_by_none_of_them():
    """(sa0017) "No X creates Y in advance" / "All X have in common that none of them
    "pre create" Y"."""
    quote = 'All storage backends have in common that none of them "pre open" files.'
    got = status("No storage backend opens files in advance.", quote)
    assert got is not FLAG and got is not SUPPORTED
    # "none of them" denies another verb, and the quote states the claim's words unnegated
    assert status("No storage backend keeps files open in advance.",
                  "All storage backends have in common that none of them close files early - they keep files "
                  "open in advance.") is FLAG
    assert status("No storage backend opens files in advance.",
                  "All storage backends open files in advance.") is FLAG


def test_a_privative_verb_with_modifiers_restates_no():
    """(sa0171) "removes the overflow limit" / "to indicate no overflow limit; no limit will be
    placed"."""
    quote = "The size can be set to -1 to indicate no upload size limit; no limit will be placed on uploads."
    got = status("A size of -1 removes the upload size limit, so uploads are unbounded.", quote)
    assert got is not FLAG and got is not SUPPORTED
    assert status("A size of -1 sets the upload size limit, so uploads are bounded.", quote) is FLAG


def test_nothing_but_says_only():
    """(stanford-gensearch) "use nothing but a soft damp cloth" is "use only a soft damp cloth"."""
    assert status("To wipe the screen, use a damp rag.", "To wipe the screen, use nothing but a damp rag.") \
        is not FLAG
    assert status("The tool prints the log.", "The tool prints nothing but the log.") is not FLAG
    # a comma makes "but" a contrast: "prints nothing" stands
    assert status("The tool prints the log.", "The tool prints nothing, but the log is kept.") is FLAG


def test_neither_as_an_object_negates_nothing_after_it():
    """(lfqa) "a blend of A and B which favoured neither and was consciously learned"."""
    quote = "This deliberately taught dialect was a mix of two older dialects which favoured neither."
    assert status("This dialect was a mix of two older dialects which favoured neither and was deliberately "
                  "taught to speakers.", quote) is not FLAG
    assert status("This dialect was a mix of two older dialects and was not deliberately taught to speakers.",
                  quote) is FLAG


def test_a_number_word_against_a_decimal_of_the_same_value():
    """(sa0175) "defaults to thirty seconds" / "The number of seconds to wait. Defaults to
    30.0.": the same value, the unit on the claim's side only."""
    quote = "The retry delay is the number of seconds to wait. Defaults to 30.0."
    result = check_claim("The retry delay defaults to thirty seconds.", [quote])
    assert result.status is not FLAG and not result.lacking
    assert status("The retry delay defaults to forty seconds.", quote) is FLAG
    assert status("The retry delay defaults to thirty seconds.", "The retry delay defaults to 30.5.") is FLAG
    # the quote gives the value another unit
    assert status("The retry delay defaults to thirty seconds.", "The retry delay defaults to 30.0 minutes.") is FLAG


def test_a_headline_capital_shows_no_name():
    """(emergent, fnc1) a headline in title case against prose: "selling his island in Lake X" /
    "Is Selling His Private Island For 7.1 Million" aligned "Lake" with "For"."""
    got = status("Marco Rossi is selling his villa in Lake Garda, Italy",
                 "Marco Rossi Is Selling His Private Villa For 3.2 Million")
    assert got is not FLAG and got is not SUPPORTED
    assert status("Rebels say they shot down the plane near Lake Chad",
                  "Rebels Say They Shot Down Plane Near Border, Video Shows") is not FLAG
    # prose against prose, and headline against headline, still compare the names
    assert status("Marco Rossi is selling his villa in Garda, Italy",
                  "Marco Rossi is selling his villa in Como, Italy") is FLAG
    assert status("Rossi Sells Villa In Garda To Bank", "Rossi Sells Villa In Como To Bank") is FLAG


def test_a_check_for_x_is_a_check_that_there_is_no_x():
    """(h0420) "checking for unclosed literals" / "checking that there are no unclosed literals"."""
    quote = ("No validation of the input of any kind is performed, other than checking that there are no "
             "unbalanced brackets and the input ends with a newline.")
    got = status("Apart from checking for unbalanced brackets and a final newline, the reader performs no "
                 "validation of the input.", quote)
    assert got is not FLAG and got is not SUPPORTED
    assert status("Apart from checking that there are unbalanced brackets and a final newline, the reader "
                  "performs no validation of the input.", quote) is FLAG


def test_a_later_version_under_and_later():
    """(h0656) "2.4.20 supports it" / "available in 2.4.19 and later"."""
    quote = "This directive is available in nginx 1.9.11 and later."
    got = status("Nginx 1.9.12 supports this directive, since it came in with 1.9.11.", quote)
    assert got is not FLAG and got is not SUPPORTED
    assert status("Nginx 1.9.10 supports this directive.", quote) is FLAG
    assert status("Nginx 1.9.12 supports this directive.", "This directive is available in nginx 1.9.11 only.") \
        is FLAG


def test_kilobytes_against_a_k_glued_on():
    """(vn0093) "about 1 KiB of memory" / "the approximately 1k of memory"."""
    quote = "Note that the approximately 2k of memory per entry, used for bookkeeping, counts too."
    assert status("Each entry costs about 2 KiB of memory for bookkeeping.", quote) is not FLAG
    assert status("Each entry costs about 3 KiB of memory for bookkeeping.", quote) is FLAG


def test_no_joke_opens_an_affirmation():
    """(fnc1) "No joke: a boy was billed ..." affirms what follows the colon."""
    quote = "A boy was billed for skipping a birthday party, and his father thought it was a joke."
    got = status("No joke: a boy was billed for skipping a birthday party.", quote)
    assert got is not FLAG and got is not SUPPORTED
    assert status("No joke was made about the party.", "A joke was made about the party.") is FLAG


def test_two_neighbouring_letters_swapped_in_a_name():
    """(emergent) "aid worker Daivd Haines" / "aid worker David Haines": a typing slip, no other
    name."""
    quote = "Aid worker David Haines beheaded by reporters"
    got = status("Reporters beheaded aid worker Daivd Haines", quote)
    assert got is not FLAG and got is not SUPPORTED
    assert status("The agency hired Maria Lopez.", "The agency hired Marta Lopez.") is FLAG
    assert status("The agency hired Mario Lopez.", "The agency hired Marta Lopez.") is FLAG


def test_a_narrower_phrase_stated_apart_from_the_negated_wider_one():
    """(hagrid) "Although X is the longest Interstate Highway, it is not the longest highway" /
    "X is the longest Interstate Highway": the claim denies only the wider phrase."""
    quote = "Route 9 is the longest toll road within Ohio."
    got = status("Although route 9 is the longest toll road within Ohio, it is not the longest road in Ohio.", quote)
    assert got is not FLAG and got is not SUPPORTED
    assert status("Although route 9 is the longest toll road within Ohio, it is not the longest toll road in Ohio.",
                  quote) is FLAG
    assert status("Although route 9 is a toll road, it is not the longest road in Ohio.",
                  "Route 9 is the longest road within Ohio.") is FLAG

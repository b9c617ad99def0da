"""fresh31 (Jinja docs) and fresh32 (pandas user guide): an altered claim was shown supported
because the proof passes over small words - "you add has plus the name" for "you add is plus
the name" - and two correct claims were flagged for a negation the quote states otherwise - a
word denied as the alternative after "or not", and "even without X" for "even when X is not
necessary". A small word the claim writes where its quote does not (or a passive it states in
the active, a future without its "will") now keeps the claim grey; the false flags stay grey;
a true copy is still green and a contradiction of each shape still flags. The sentences here
are our own, not the Jinja or pandas pairs."""

from __future__ import annotations

from deep_research.citations.claims import check_claim
from tests.citations.claim_status import FLAG, GREEN, GREY, status


def test_a_small_word_put_in_the_place_of_another_is_no_copy():
    """(jj0094) "you add has plus the name of the test" / "you add is plus the name of the test"."""
    quote = "To compare two values, you write is between them and the result is a boolean."
    got = check_claim("To compare two values you write has between them and the result is a boolean.", [quote])
    assert got.status is GREY and '"has"' in (got.note or "")
    assert status("To compare two values you write is between them and the result is a boolean.", quote) is GREEN
    # an auxiliary's tense, a preposition, a pronoun, "a number of" for "the number of"
    assert status("The option had a default of five.", "The option has a default of five.") is GREY
    assert status("Run the tests in the container.", "Run the tests on the container.") is GREY
    assert status("You can add it to the list.", "You can add them to the list.") is GREY
    assert status("The call returns a number of rows.", "The call returns the number of rows.") is GREY
    # an article the claim writes for the quote's, an opening "well", "has to" for "must": still a copy
    assert status("The call returns a list of rows.", "The call returns the list of rows.") is GREEN
    assert status("Well, the call returns the list of rows.", "The call returns the list of rows.") is GREEN
    assert status("Every worker has to run on the same host.", "Every worker must run on the same host.") is GREEN
    # a contradiction of the same sentence still flags
    assert status("To compare two values you write is between them and the result is not a boolean.", quote) is FLAG
    assert status("To compare three values you write is between them and the result is a boolean.", quote) is FLAG


def test_and_for_the_quotes_comma_only_where_it_joins_what_the_quote_states():
    """(jj0209, correct, kept green) "macros, super and self.BLOCKNAME" / "(macros, super, self.BLOCKNAME)"."""
    quote = "Built-in helpers (range, dict, lipsum) always return plain values."
    assert status("Built-in helpers range, dict and lipsum always return plain values.", quote) is GREEN
    # one comma may name one thing twice ("the linter, ruff"): "and" makes it two
    assert status("The linter and ruff check the code before each commit.",
                  "The linter, ruff, checks the code before each commit.") is GREY
    # two statements the quote parts by ";"
    assert status("Every worker must run on the same host, and the queue does not work over a network.",
                  "Every worker must run on the same host; the queue does not work over a network.") is GREEN


def test_a_passive_stated_in_the_active_or_a_future_as_done():
    quote = "The user is notified when the job ends."
    got = check_claim("The user notifies when the job ends.", [quote])
    assert got.status is GREY and "passive" in (got.note or "")
    assert status("The user is notified when the job ends.", quote) is GREEN
    assert status("The user, notified when the job ends, logs in.", "The user, notified when the job ends, logs in.") \
        is GREEN
    # "is" for "will be": a future stated as done ("will fail" for "fails" is left: manuals say both)
    got = check_claim("The option is removed in version 4.", ["The option will be removed in version 4."])
    assert got.status is GREY and '"is"' in (got.note or "")
    assert status("By default the merge fails on a conflict.", "By default the merge will fail on a conflict.") is GREEN
    assert status("The option will be removed in version 4.", "The option is removed in version 4.") is GREY
    assert status("The option will be removed in version 4.", "The option will be removed in version 4.") is GREEN


def test_a_word_after_or_not_is_denied_as_the_alternative():
    """(jj0231) "True if it was earlier called with another value, or has not been called yet" /
    "True if previously called with a different value (or not called at all)"."""
    quote = "reload() returns True if the file changed on disk since the last check (or not loaded at all)."
    assert status("reload() returns True if the file changed on disk since the last check, or was not loaded yet.",
                  quote) is GREY
    assert status("reload() returns True if the file was not loaded.",
                  "reload() returns True if the file was loaded. It reads the file from disk.") is FLAG
    assert status("reload() returns True if the file was not loaded since the last check.",
                  "reload() returns True if the file was loaded since the last check.") is FLAG


def test_without_x_for_a_quote_that_denies_the_clause_of_x():
    """(pd0201) "always copies data from the passed objects even without reindexing" / "Always
    copy data from the passed objects, even when reindexing is not necessary"."""
    claim = ("strict, True by default, always checks the names of the given columns even without renaming; skipping "
             "the check is often impossible.")
    quote = ("strict: Always check the names (default True) of the given columns, even when renaming is {}. Cannot be "
             "skipped in many cases.")
    assert status(claim, quote.format("not needed")) is GREY
    # the quote states the word unnegated: the claim's "without" contradicts it
    assert status(claim, quote.format("needed")) is FLAG
    assert status(claim, quote.format("done")) is FLAG
    # (h0263, altered, still flagged) only "without" restates the denial: "neither A nor B may" says more, of B
    assert status("Neither a key name nor a key value may contain a colon.",
                  "A key name must not contain a colon, slash or space, and a key value must not contain a slash or "
                  "space.") is FLAG

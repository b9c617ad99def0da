"""fresh28 (Flask docs): three correct claims were flagged for a wrong reason and now stay
grey - "many kinds of" for the idiom "all kinds of", a quote that names an act first and
denies it by "never do that", a quote that names two settings by a class noun and states the
case of "neither option" in its next sentence - and a contradiction of each shape still
flags. The sentences here are our own, not the Flask pairs."""

from __future__ import annotations

from deep_research.citations.claims import check_claim
from tests.citations.claim_status import FLAG, GREY, status


def test_many_kinds_of_restates_the_idiom_all_kinds_of():
    """(fl0205) "face many kinds of security problems" / "face all kinds of security problems"."""
    quote = "A mail server meets all kinds of malformed headers, and the parser has to cope with each of them."
    got = check_claim("A mail server meets many kinds of malformed headers, and the parser has to cope with each "
                      "of them.", [quote])
    assert got.status is GREY and '"all kinds of"' in (got.note or "")
    assert status("A mail server meets various sorts of malformed headers, and the parser has to cope with each of "
                  "them.", "A mail server meets all sorts of malformed headers, and the parser has to cope with each "
                  "of them.") is GREY
    # "few kinds" says the opposite; "many" for a plain "all" is still a weaker quantifier
    assert status("A mail server meets few kinds of malformed headers, and the parser has to cope with each of them.",
                  quote) is FLAG
    assert status("The parser rejects many malformed headers before the message is stored.",
                  "The parser rejects all malformed headers before the message is stored.") is FLAG


def test_an_act_named_first_and_denied_by_never_do_that():
    """(fl0215) "Never send out HTML from uploaded files" / "sending out HTML from uploaded
    files, never do that"."""
    claim = "Never run the debugger on a public server."
    got = check_claim(claim, ["Running the debugger on a public server, never do that, it lets anyone run code."])
    assert got.status is GREY and '"never do that"' in (got.note or "")
    assert status(claim, "Running the debugger on a public server, don't do that.") is GREY
    # "do that" said of less ("with the shell"), of an act the claim does not name, or no
    # denial at all: the claim's "never" still contradicts the quote
    assert status(claim, "Running the debugger on a public server is fine, never do that with the shell.") is FLAG
    assert status(claim, "Running the debugger on a public server is fine. Exposing the shell, never do that.") \
        is FLAG
    assert status(claim, "Running the debugger on a public server is fine, never do that.") is FLAG
    assert status(claim, "Running the debugger on a public server is fine.") is FLAG


def test_neither_option_in_the_next_sentence_states_the_case_without_them():
    """(fl0277) "A cookie without Expires or Max-Age is removed once the browser is closed" /
    "Specifying Expires or Max-Age options ... If neither option is set, the cookie will be
    removed when the browser is closed"."""
    quote = ("Giving the Lifetime or Idle-Limit options, will drop the session after the given time, or the last "
             "request plus the limit, respectively. If neither option is set, the session will be dropped when the "
             "tab is closed.")
    got = check_claim("A session without Lifetime or Idle-Limit is dropped once the tab is closed.", [quote])
    assert got.status is GREY and '"neither option"' in (got.note or "")
    # what the next sentence says of "neither option" is not what the claim says
    assert status("A session without Lifetime or Idle-Limit is dropped after the given time.", quote) is FLAG
    # no "neither option" at all: the claim's "without" contradicts the quote
    assert status("A session without Lifetime or Idle-Limit is dropped once the tab is closed.",
                  "Giving the Lifetime or Idle-Limit options, will drop the session after the given time, or the last "
                  "request plus the limit, respectively. The session will be dropped when the tab is closed.") is FLAG

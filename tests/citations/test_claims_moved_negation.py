"""False flags of the negation rules seen at fresh15's first sight (issue 25): shapes of
language where one side negates and the other seems not to, yet neither denies the other.
Each shape's cases also keep the plain flip it must not hide."""

from __future__ import annotations

import pytest

from deep_research.citations.claims import ClaimStatus, check_claim

S, U, C = ClaimStatus.SUPPORTED, ClaimStatus.UNSUPPORTED, ClaimStatus.UNCHECKED
GREY = "neither unsupported nor supported"


def check(claim: str, *quotes: str):
    return check_claim(claim, list(quotes))


def shape(name: str, *cases: tuple) -> list:
    """The cases of one shape of language, each ``(claim, quote, expected[, a part of the note])``
    (``expected``: a status, or ``GREY``), named ``<name>-<n>``."""
    return [pytest.param(*c, *(None,) * (4 - len(c)), id=f"{name}-{n}") for n, c in enumerate(cases)]


_RELOAD = "During the reload some ports will not be bound to the old process and not yet bound to the new one."
_CBT = "In many studies, CBT has been shown to be as effective as, or more effective than, other therapies."
_FOG = ("Except where it has been determined that a risk of collision does not exist, every vessel which "
        "hears a fog signal shall reduce her speed.")
_MAP = ("A map looks up each input sample and either returns the pattern of the second column if the entry "
        "was found, or returns a default value.")
_TLS = "TLS NPN and ALPN extensions make it possible to reliably offload SPDY/HTTP2 connections."
_PASSWORDS = 'Never use obvious passwords like "password". Choose secure passwords with letters and symbols.'
_PRIMER = "You don't always have to use primer, but you should consider doing so if the old colour shows."

CASES = [
    *shape(
        "negation-moved-from-verb-to-object",
        ("During the reload some ports are bound to neither process.", _RELOAD, GREY),
        ("During the reload the ports are bound to no process at all.",
         "During the reload the ports are not bound to any process.", GREY),
        # the plain drop is still a flip, and a "no" the quote writes too moves nothing
        ("During the reload some ports will be bound to the old process.", _RELOAD, U),
        ("The server sends headers with no body.", "The server does not send headers with no body.", U),
    ),
    *shape(
        "hedge-a-if-not-b",
        ("CBT can be as effective, if not more so, than other therapies.", _CBT, GREY),
        ("Many, if not most, users keep the default settings.", "Most users keep the default settings.", GREY),
        # a conditional "if not" is a negation: a claim that adds it to the quote's words is a flip
        ("If the cache is not full, the proxy stores the object.",
         "If the cache is full, the proxy stores the object.", U),
        ("CBT is not more effective than other therapies.", "CBT is more effective than other therapies.", U),
    ),
    *shape(
        "negation-inside-an-exception",
        ("If a risk of collision exists, every vessel which hears a fog signal shall reduce her speed.", _FOG, C,
         "double negation"),
        ("The proxy closes the connection when the client sent a close header.",
         "The proxy closes the connection unless the client did not send a close header.", GREY),
        # outside the exception the negation is a plain one, and an exception flipped is still a flip
        ("A risk of collision exists.", "A risk of collision does not exist.", U),
        ("Except where a risk of collision exists, every vessel shall reduce her speed.",
         "Except where a risk of collision does not exist, every vessel shall reduce her speed.", U),
    ),
    *shape(
        "or-branch-of-either-or",
        ("When no entry is found in a map, a default value is returned.", _MAP, C, '"either ... or"'),
        # without the "or" branch the quote states only the found case: the claim negates it
        ("When no entry is found in a map, the pattern of the second column is returned.",
         "A map returns the pattern of the second column if the entry was found.", U),
    ),
    *shape(
        "name-with-its-version",
        ("TLS NPN and ALPN extensions make it possible to reliably offload SPDY or HTTP/2 connections.", _TLS,
         GREY),
        # another version is another name, and another name is still a swap
        ("TLS NPN and ALPN extensions make it possible to reliably offload SPDY or HTTP/3 connections.", _TLS, U),
        ("TLS NPN and ALPN extensions make it possible to reliably offload QUIC connections.",
         "TLS NPN and ALPN extensions make it possible to reliably offload SPDY connections.", U),
    ),
    *shape(
        "except-that-states-its-negation",
        # "except that" states a fact (the one difference), not a condition: dropping its negation is a flip
        ("A nil map is equivalent to an empty map, and elements may be added to it.",
         "A nil map is equivalent to an empty map except that no elements may be added.", U),
    ),
    *shape(
        "negation-in-a-condition",
        # an imperative and a statement against a negated condition: the condition asserts nothing
        ("Clean the cabinets.", "If you haven't cleaned your cabinets in a while, use a vacuum first.", C,
         "condition"),
        ("Most adults get enough sleep.", "When we regularly don't get enough sleep we are not our best selves.",
         GREY),
        ("Don't pull the leggings on too hard.",
         "If you pull the leggings on too hard, you will get holes along the seams.", GREY),
        # both sides conditions, or both statements: a flip still
        ("If you have cleaned your cabinets in a while, use a vacuum first.",
         "If you haven't cleaned your cabinets in a while, use a vacuum first.", U),
        ("We get enough sleep.", "We don't get enough sleep.", U),
        # a condition is only the clause its "if" opens, as its own verb; a main clause after it is asserted
        ("When using ssh, you cannot restrict users to running only varnishadm.",
         "If you use ssh you can restrict users to running only varnishadm.", U),
        ("PSK authentication cannot be disabled.",
         "If you want to disable PSK authentication, give -S an empty argument.", U),
        # a sentence opened by another condition ("Provided", "As long as", "If ... and ...") is no statement
        ("Multiple calls never execute the module code twice, even if the cache is modified.",
         "Provided the cache is not modified, multiple calls will not execute the module code twice.", U),
        # a word the other side states outside its condition too is asserted there
        ("If a finally clause returns, the value is the try clause's, not the finally clause's.",
         "If a finally clause returns, the value is the finally clause's, not the try clause's.", U),
    ),
    *shape(
        "verb-denied-of-another-kind",
        ("Use secure passwords.", _PASSWORDS, C, "otherwise"),
        ("The proxy caches static pages.",
         "The proxy does not cache dynamic pages. Static pages are kept for an hour.", GREY),
        # a quote that names no other kind may use a synonym: "main" / "predominant" is no other kind
        ("The dish derives its main flavour from garlic.",
         "The dish does not derive its predominant flavour from garlic.", U),
        # the same kind denied is a flip, and a modifier the claim only moved is no other kind
        ("Use obvious passwords.", _PASSWORDS, U),
        ("The proxy caches dynamic pages.", "The proxy does not cache dynamic pages.", U),
    ),
    *shape(
        "not-always-denies-always",
        ("Consider using primer.", _PRIMER, GREY),
        ("The server checks the certificate.", "The server does not necessarily check the certificate.", GREY),
        # "always" against "not always" is a flip, and so is a plain drop of "not"
        ("You always have to use primer.", "You don't always have to use primer.", U),
        ("The server checks the certificate.", "The server does not check the certificate.", U),
    ),
    *shape(
        "negation-under-a-denied-implication",
        ("The person may want to meet up.",
         "If the person turns you down, that doesn't mean they never want to meet up.", GREY),
        # a negation the sentence asserts, outside the denied "mean", is a flip
        ("The person wants to meet up.", "The person never wants to meet up.", U),
        ("A timeout means the server is down.", "A timeout does not mean the server is down.", U),
    ),
]


@pytest.mark.parametrize(("claim", "quote", "expected", "note"), CASES)
def test_a_negation_shape_denies_only_what_it_denies(claim, quote, expected, note):
    r = check(claim, quote)
    if expected is GREY:
        assert r.status is not U and r.status is not S, r
    else:
        assert r.status is expected, r
    if note is not None:
        assert note in r.note


def test_a_rank_with_the_claims_digits_leaves_the_claims_count_lacking():
    quote = "A Ryzen 7 4700U can just about hang with 8th gen Core i7 chips."
    r = check("The laptop comes with a Ryzen 7 4700U processor and 8GB RAM.", quote)
    assert r.status is U and r.lacking and "none of its quotes has" in r.note
    # the same digits for another quantity, both counts, is still a changed number
    r = check("The cache holds 75 days of logs.", "The cache holds 75 million log lines.")
    assert r.status is U and not r.lacking

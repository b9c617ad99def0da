"""False flags of the negation rules seen at fresh15's first sight (issue 25): shapes of
language where one side negates and the other seems not to, yet neither denies the other.
Each test also keeps the plain flip it must not hide."""

from __future__ import annotations

from deep_research.citations.claims import ClaimStatus, check_claim

S, U, C = ClaimStatus.SUPPORTED, ClaimStatus.UNSUPPORTED, ClaimStatus.UNCHECKED


def check(claim: str, *quotes: str):
    return check_claim(claim, list(quotes))


def test_a_negation_moved_from_the_verb_to_its_object_is_no_dropped_negation():
    quote = "During the reload some ports will not be bound to the old process and not yet bound to the new one."
    r = check("During the reload some ports are bound to neither process.", quote)
    assert r.status is not U and r.status is not S
    r = check("During the reload the ports are bound to no process at all.",
              "During the reload the ports are not bound to any process.")
    assert r.status is not U and r.status is not S
    # the plain drop is still a flip, and a "no" the quote writes too moves nothing
    assert check("During the reload some ports will be bound to the old process.", quote).status is U
    assert check("The server sends headers with no body.",
                 "The server does not send headers with no body.").status is U


def test_the_hedge_a_if_not_b_denies_nothing():
    quote = "In many studies, CBT has been shown to be as effective as, or more effective than, other therapies."
    r = check("CBT can be as effective, if not more so, than other therapies.", quote)
    assert r.status is not U and r.status is not S
    r = check("Many, if not most, users keep the default settings.", "Most users keep the default settings.")
    assert r.status is not U and r.status is not S
    # a conditional "if not" is a negation: a claim that adds it to the quote's words is a flip
    assert check("If the cache is not full, the proxy stores the object.",
                 "If the cache is full, the proxy stores the object.").status is U
    assert check("CBT is not more effective than other therapies.",
                 "CBT is more effective than other therapies.").status is U


def test_a_negation_inside_an_exception_is_a_double_negation():
    quote = ("Except where it has been determined that a risk of collision does not exist, every vessel which "
             "hears a fog signal shall reduce her speed.")
    r = check("If a risk of collision exists, every vessel which hears a fog signal shall reduce her speed.", quote)
    assert r.status is C and "double negation" in r.note
    r = check("The proxy closes the connection when the client sent a close header.",
              "The proxy closes the connection unless the client did not send a close header.")
    assert r.status is not U and r.status is not S
    # outside the exception the negation is a plain one, and an exception flipped is still a flip
    assert check("A risk of collision exists.", "A risk of collision does not exist.").status is U
    assert check("Except where a risk of collision exists, every vessel shall reduce her speed.",
                 "Except where a risk of collision does not exist, every vessel shall reduce her speed.").status is U


def test_the_or_branch_of_a_conditional_either_or_is_the_other_case():
    quote = ("A map looks up each input sample and either returns the pattern of the second column if the entry "
             "was found, or returns a default value.")
    r = check("When no entry is found in a map, a default value is returned.", quote)
    assert r.status is C and '"either ... or"' in r.note
    # without the "or" branch the quote states only the found case: the claim negates it
    assert check("When no entry is found in a map, the pattern of the second column is returned.",
                 "A map returns the pattern of the second column if the entry was found.").status is U


def test_a_name_with_its_version_joined_or_after_a_slash_is_the_same_name():
    quote = "TLS NPN and ALPN extensions make it possible to reliably offload SPDY/HTTP2 connections."
    r = check("TLS NPN and ALPN extensions make it possible to reliably offload SPDY or HTTP/2 connections.", quote)
    assert r.status is not U and r.status is not S
    # another version is another name, and another name is still a swap
    assert check("TLS NPN and ALPN extensions make it possible to reliably offload SPDY or HTTP/3 connections.",
                 quote).status is U
    assert check("TLS NPN and ALPN extensions make it possible to reliably offload QUIC connections.",
                 "TLS NPN and ALPN extensions make it possible to reliably offload SPDY connections.").status is U


def test_except_that_states_its_negation():
    # "except that" states a fact (the one difference), not a condition: dropping its negation is a flip
    assert check("A nil map is equivalent to an empty map, and elements may be added to it.",
                 "A nil map is equivalent to an empty map except that no elements may be added.").status is U


def test_a_rank_with_the_claims_digits_leaves_the_claims_count_lacking():
    quote = "A Ryzen 7 4700U can just about hang with 8th gen Core i7 chips."
    r = check("The laptop comes with a Ryzen 7 4700U processor and 8GB RAM.", quote)
    assert r.status is U and r.lacking and "none of its quotes has" in r.note
    # the same digits for another quantity, both counts, is still a changed number
    r = check("The cache holds 75 days of logs.", "The cache holds 75 million log lines.")
    assert r.status is U and not r.lacking


def test_a_negation_in_a_condition_asserts_neither_side():
    # an imperative and a statement against a negated condition: the condition asserts nothing
    r = check("Clean the cabinets.", "If you haven't cleaned your cabinets in a while, use a vacuum first.")
    assert r.status is C and "condition" in r.note
    r = check("Most adults get enough sleep.", "When we regularly don't get enough sleep we are not our best selves.")
    assert r.status is not U and r.status is not S
    r = check("Don't pull the leggings on too hard.",
              "If you pull the leggings on too hard, you will get holes along the seams.")
    assert r.status is not U and r.status is not S
    # both sides conditions, or both statements: a flip still
    assert check("If you have cleaned your cabinets in a while, use a vacuum first.",
                 "If you haven't cleaned your cabinets in a while, use a vacuum first.").status is U
    assert check("We get enough sleep.", "We don't get enough sleep.").status is U
    # a condition is only the clause its "if" opens, as its own verb; a main clause after it is asserted
    assert check("When using ssh, you cannot restrict users to running only varnishadm.",
                 "If you use ssh you can restrict users to running only varnishadm.").status is U
    assert check("PSK authentication cannot be disabled.",
                 "If you want to disable PSK authentication, give -S an empty argument.").status is U
    # a sentence opened by another condition ("Provided", "As long as", "If ... and ...") is no statement
    assert check("Multiple calls never execute the module code twice, even if the cache is modified.",
                 "Provided the cache is not modified, multiple calls will not execute the module code twice.").status is U
    # a word the other side states outside its condition too is asserted there
    assert check("If a finally clause returns, the value is the try clause's, not the finally clause's.",
                 "If a finally clause returns, the value is the finally clause's, not the try clause's.").status is U


def test_a_verb_denied_of_one_kind_of_thing_is_not_denied_of_another():
    quote = 'Never use obvious passwords like "password". Choose secure passwords with letters and symbols.'
    r = check("Use secure passwords.", quote)
    assert r.status is C and "otherwise" in r.note
    r = check("The proxy caches static pages.", "The proxy does not cache dynamic pages. Static pages are kept for an hour.")
    assert r.status is not U and r.status is not S
    # a quote that names no other kind may use a synonym: "main" / "predominant" is no other kind
    assert check("The dish derives its main flavour from garlic.",
                 "The dish does not derive its predominant flavour from garlic.").status is U
    # the same kind denied is a flip, and a modifier the claim only moved is no other kind
    assert check("Use obvious passwords.", quote).status is U
    assert check("The proxy caches dynamic pages.", "The proxy does not cache dynamic pages.").status is U


def test_not_always_denies_always_not_the_verb():
    quote = "You don't always have to use primer, but you should consider doing so if the old colour shows."
    r = check("Consider using primer.", quote)
    assert r.status is not U and r.status is not S
    r = check("The server checks the certificate.", "The server does not necessarily check the certificate.")
    assert r.status is not U and r.status is not S
    # "always" against "not always" is a flip, and so is a plain drop of "not"
    assert check("You always have to use primer.", "You don't always have to use primer.").status is U
    assert check("The server checks the certificate.", "The server does not check the certificate.").status is U


def test_a_negation_under_a_denied_implication_is_not_asserted():
    quote = "If the person turns you down, that doesn't mean they never want to meet up."
    r = check("The person may want to meet up.", quote)
    assert r.status is not U and r.status is not S
    # a negation the sentence asserts, outside the denied "mean", is a flip
    assert check("The person wants to meet up.", "The person never wants to meet up.").status is U
    assert check("A timeout means the server is down.", "A timeout does not mean the server is down.").status is U

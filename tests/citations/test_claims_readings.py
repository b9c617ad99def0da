"""A red flag needs the claim's only reading of the quote (issue 25, the ninth group's false
flags): an opposite already restated by another word, an acronym of the quote's words, a
negation the quote makes of an anaphor, or an answer "no" prove no contradiction - grey, never
supported. Where the reading is the only one, the flag stays."""

from __future__ import annotations

import pytest

from deep_research.citations.claims import ClaimStatus, check_claim

U, C = ClaimStatus.UNSUPPORTED, ClaimStatus.UNCHECKED


def status(claim: str, quote: str) -> tuple[ClaimStatus, str | None, str]:
    r = check_claim(claim, [quote])
    return r.status, r.rule, r.note


# --- 1. each word is read once: an opposite another word already restates proves nothing -----------
@pytest.mark.parametrize(("claim", "quote", "why"), [
    # the claim's "lowers" restates the quote's "reducing"; "increases" is "causing more"
    ("Raising the worker pool size shortens queue waits, but lowers per-request memory headroom and "
     "increases CPU contention.",
     "A bigger worker pool shortens queue waits, at the expense of reducing per-request memory headroom and "
     "causing more CPU contention.", '"lowers" may restate "reducing"'),
    ("Turning on the page cache speeds up reads but increases memory pressure and cuts the free RAM.",
     "Turning on the page cache speeds up reads, while reducing the free RAM and creating more memory "
     "pressure.", 'may restate "reducing"'),
])
def test_an_opposite_already_read_by_another_word_is_grey(claim, quote, why):
    st, rule, note = status(claim, quote)
    assert st is C and note.startswith("not proven wrong") and why in note, (st, rule, note)


@pytest.mark.parametrize(("claim", "quote"), [
    ("Enabling compression lowers latency and increases throughput on slow links.",
     "Enabling compression lowers latency and reduces throughput on slow links."),
    # "lowers" has "cuts" of its own to read: "reduces" is left to "increases" alone
    ("Enabling compression lowers latency and increases throughput on slow links.",
     "Enabling compression cuts latency and reduces throughput on slow links."),
    ("Enabling the cache increases memory use on every node.", "Enabling the cache reduces memory use on every node."),
    # "lowers" speaks of the hit rate, which the quote says improves; "reduces" speaks of the bus load
    ("Batching writes greatly increases load on the bus and lowers the cache hit rate.",
     "Batching writes greatly reduces load on the bus, improves the cache hit rate and saves power."),
])
def test_an_opposite_that_is_the_only_reading_is_still_flagged(claim, quote):
    st, rule, note = status(claim, quote)
    assert st is U and rule is not None and rule.endswith("antonym"), (st, rule, note)


# --- 2. an acronym of the quote's words names what they name ------------------------------------
@pytest.mark.parametrize(("claim", "quote"), [
    ("The DoD funded the early network research.", "The Department of Defense funded the early network research."),
    ("The DHS funded the early network research.",  # "of" skipped
     "The Department of Homeland Security funded the early network research."),
    ("In the new PoP design, traffic stays inside the region.",
     "In the new Point of Presence design, traffic stays inside the region."),
])
def test_an_acronym_of_the_quote_words_is_no_swapped_name(claim, quote):
    st, rule, note = status(claim, quote)
    assert st is C, (st, rule, note)


@pytest.mark.parametrize(("claim", "quote"), [
    ("The DoD funded the early network research.", "The Department of Energy funded the early network research."),
    ("The team moved the service to the GKE cluster last year.",
     "The team moved the service to the EKS cluster last year."),
])
def test_an_acronym_of_other_words_is_still_a_swapped_name(claim, quote):
    st, rule, note = status(claim, quote)
    assert st is U and rule == "near_copy:entity", (st, rule, note)


# --- 3. the quote negates an anaphor of the word: the same negation by another name -------------
@pytest.mark.parametrize(("claim", "quote", "anaphor"), [
    ("On a laptop the agent starts even without agent.toml, but a server deployment needs agent.toml "
     "since it lists the peers.",
     "On a laptop an agent.toml file is optional, and the agent starts without this file. On a server an "
     "agent.toml file is required, because it lists the peers.", '"this file"'),
    ("The agent starts without agent.toml.", "The agent reads agent.toml if it exists, but it also starts without it.",
     '"it"'),
])
def test_a_negated_anaphor_of_the_word_is_grey(claim, quote, anaphor):
    st, rule, note = status(claim, quote)
    assert st is C and f"negates {anaphor}" in note, (st, rule, note)


@pytest.mark.parametrize(("claim", "quote"), [
    # the phrase after the quote's negator names something else: a name, or a noun the claim has elsewhere
    ("The agent starts without agent.toml.",
     "The agent reads agent.toml at start, and it starts without the Kerberos keytab."),
    ("The agent starts without agent.toml but needs the key file.",
     "The agent starts with agent.toml, though it runs without the key file."),
    ("The agent starts without agent.toml.", "The agent starts with agent.toml."),
    # a pronoun stands for a thing, not for the verb a negator denies
    ("The tool can write signed archives, but it cannot verify them.",
     "The tool can verify signed archives, but it cannot write a signed archive."),
])
def test_a_negation_without_an_anaphor_of_the_word_is_still_flagged(claim, quote):
    st, rule, note = status(claim, quote)
    assert st is U, (st, rule, note)


# --- 4. an answer "no" negates nothing ----------------------------------------------------------
@pytest.mark.parametrize("claim", [
    "no its from 1994",
    "No, it came out in 1994.",
    "Oh no I think it came out in 1994",
])
def test_an_answer_no_is_no_negation(claim):
    st, rule, note = status(claim, "The film came out in 1994 and was directed by Robert Zemeckis.")
    assert st is C and rule is None, (st, rule, note)


@pytest.mark.parametrize(("claim", "quote"), [
    ("No file is created when the flag is unset.", "A file is created when the flag is unset."),
    ("No workers restart after a crash.", "Workers restart after a crash."),
])
def test_no_as_a_determiner_still_negates(claim, quote):
    st, rule, note = status(claim, quote)
    assert st is U and rule == "negation", (st, rule, note)


@pytest.mark.parametrize(("claim", "quote"), [
    ("No it does support IPv6.", "It does not support IPv6."),
    ("No the proxy keeps the header.", "The proxy does not keep the header."),
])
def test_an_answer_no_is_never_proof_of_a_quotes_not(claim, quote):
    """The answer "no" is no negator, so it cannot stand for the quote's "not": the claim
    says the opposite of its quote and must never be shown supported (it was, by "copy")."""
    st, rule, note = status(claim, quote)
    assert st is not ClaimStatus.SUPPORTED, (st, rule, note)

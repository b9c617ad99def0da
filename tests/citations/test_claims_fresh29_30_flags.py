"""fresh29 (pytest docs) and fresh30 (GnuTLS manual): three correct claims were flagged for a
wrong reason and now stay grey - "hard to share" for a quote's "can't be shared ... easily", "not
the only factor" for a quote's "depends on more factors than", and "B lies below A" for a quote's
"A is above B" - and a contradiction of each shape still flags. The sentences here are our own,
not the pytest or GnuTLS pairs."""

from __future__ import annotations

from deep_research.citations.claims import check_claim
from tests.citations.claim_status import FLAG, GREY, status


def test_hard_to_restates_not_easily():
    """(pt0033) "hard to share between modules" / "can't be shared between modules easily"."""
    quote = "Config files can't be shared between hosts easily, so they are kept local."
    got = check_claim("Config files are hard to share between hosts, so they are kept local.", [quote])
    assert got.status is GREY and '"hard to share"' in (got.note or "")
    # the other way round: the claim says "not ... easily", the quote "difficult to"
    assert status("Config files can't be shared between hosts easily.",
                  "Config files are difficult to share between hosts.") is GREY
    # "easy to" says the opposite; without "easily" the quote denies the act itself, which "hard
    # to" does not (it is still possible); a plain "can be shared" drops the negation
    assert status("Config files are easy to share between hosts, so they are kept local.", quote) is FLAG
    assert status("Config files are hard to share between hosts.", "Config files can't be shared between hosts.") \
        is FLAG
    assert status("Config files can be shared between hosts easily, so they are kept local.", quote) is FLAG
    assert status("Config files can't be shared between hosts easily.",
                  "Config files are easy to share between hosts.") is FLAG


def test_not_the_only_denies_only_the_only():
    """(gt0281) "key size is not the only factor" / "depends on more factors than cipher key
    size"."""
    claim = "Key size is not the only factor in the security level."
    got = check_claim(claim, ["The security level depends on more factors than key size."])
    assert got.status is GREY and '"not the only" denies only the "the only"' in (got.note or "")
    # the quote says it is the only (or sole) one, or the claim denies that it is one at all
    assert status(claim, "Key size is the only factor in the security level.") is FLAG
    assert status(claim, "Key size is the sole factor in the security level.") is FLAG
    assert status("Key size is not a factor in the security level.",
                  "Key size is a factor in the security level.") is FLAG
    assert status("Key size is the only factor in the security level.", claim) is FLAG


def test_words_of_place_read_from_their_other_end():
    """(gt0015) "The record protocol lies below the alert protocol" / "The alert protocol is
    above the record protocol"."""
    quote = "The cache layer is above the storage layer."
    got = check_claim("The storage layer lies below the cache layer.", [quote])
    assert got.status is GREY and "converse" in (got.note or "")
    assert status("The sidebar sits right of the editor pane.", "The editor pane sits left of the sidebar.") is GREY
    # the same terms on the same sides: the relation is turned round
    assert status("The cache layer lies below the storage layer.", quote) is FLAG
    assert status("The sidebar sits left of the editor pane.", "The sidebar sits right of the editor pane.") is FLAG
    assert status("Values below the limit are rejected.", "Values above the limit are rejected.") is FLAG

"""False flags seen at fresh16's first sight (issue 25): shapes where a rule read a
difference that is none. Each test keeps the altered shape it must still catch."""

from __future__ import annotations

from deep_research.citations.claims import ClaimStatus, check_claim

S, U, C = ClaimStatus.SUPPORTED, ClaimStatus.UNSUPPORTED, ClaimStatus.UNCHECKED


def check(claim: str, *quotes: str):
    return check_claim(claim, list(quotes))


def test_with_or_without_names_both_branches_and_denies_neither():
    quote = ("virtqemud - the QEMU management daemon, for running virtual machines on UNIX platforms, "
             "optionally with KVM acceleration, in either system or session mode")
    r = check("QEMU virtual machines on UNIX platforms, with or without KVM acceleration, are run by the "
              "virtqemud daemon.", quote)
    assert r.status is C
    r = check("QEMU virtual machines run with or without KVM acceleration.",
              "QEMU virtual machines run with KVM acceleration.")
    assert r.status is C
    # a plain "without" still denies what the quote states
    assert check("QEMU virtual machines on UNIX platforms, without KVM acceleration, are run by the virtqemud "
                 "daemon.", quote).status is U

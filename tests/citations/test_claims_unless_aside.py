"""An "unless" clause is read back over a comma aside that names the same thing again
(issue 25, flag19, lfqa-199-5): "unless X, or Y, is applied" is "if X is not applied"."""

from __future__ import annotations

from deep_research.citations.claims import ClaimStatus, check_claim

CLAIM = ("As long as torque, or twisting force, is not applied from outside the system, the momentum remains "
         "constant.")


def test_not_in_a_condition_restates_an_unless_across_an_aside():
    quote = "Unless torque, or twisting force, is applied from outside the system, the momentum remains constant."
    assert check_claim(CLAIM, [quote]).status is not ClaimStatus.UNSUPPORTED


def test_the_opposite_condition_stays_a_flag():
    quote = "If torque, or twisting force, is applied from outside the system, the momentum remains constant."
    assert check_claim(CLAIM, [quote]).status is ClaimStatus.UNSUPPORTED
    # an aside that is no other name (no "or") ends the clause as before
    quote = "Unless you want it, torque, a force, is applied from outside the system."
    assert check_claim("Torque, a force, is not applied from outside the system.", [quote]).status \
        is ClaimStatus.UNSUPPORTED


def test_keep_out_denies_getting_in():
    """(flag19, er0010) "keep X out" says X does not get in, as "keep X from" does."""
    claim = "The network is set up so that attackers cannot get in."
    assert check_claim(claim, ["The network is configured to keep attackers out."]).status \
        is not ClaimStatus.UNSUPPORTED
    assert check_claim(claim, ["The network is configured to let attackers in."]).status is ClaimStatus.UNSUPPORTED

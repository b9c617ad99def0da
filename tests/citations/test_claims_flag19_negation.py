"""Negation flags that were false on correct claims (issue 25, flag19): an "unless" read across a
comma aside, "keep X out", a denial "unless" set against a conditional statement, a negation
bounded by a stretch of time, "no other" for "unique"."""

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


def test_a_denial_unless_a_condition_holds_is_no_flip_of_a_conditional_statement():
    """(flag19, h0181) "says nothing about X unless C" against "if you use C, it reports X":
    each side speaks of another case."""
    claim = "diff says nothing about identical file pairs unless you pass -s, which makes it report them."
    quote = ("Normally diff is silent about pairs of files that contain no differences, but if you use the "
             "--report-identical-files (-s) option, it reports pairs of identical files.")
    assert check_claim(claim, [quote]).status is not ClaimStatus.UNSUPPORTED
    # without "unless" on the claim's side, or with the quote's statement unconditional, a flip
    assert check_claim("diff says nothing about identical file pairs.",
                       ["If you use the -s option, diff reports pairs of identical files."]).status \
        is ClaimStatus.UNSUPPORTED
    assert check_claim(claim, ["Normally diff reports pairs of identical files."]).status is ClaimStatus.UNSUPPORTED


def test_a_negation_for_a_stretch_of_time_says_when():
    """(flag19, er0477) "would not reuse a reference for more than 584 years" / "references will
    at earliest be reused after more than 584 years": the same timing, no flip."""
    claim = "Even creating one reference every nanosecond, a scheduler thread would not reuse a reference for more than 584 years."
    quote = ("If a scheduler thread create a new reference each nano second, references will at earliest be reused "
             "after more than 584 years.")
    assert check_claim(claim, [quote]).status is not ClaimStatus.UNSUPPORTED
    # a quote that states no timing still contradicts it
    assert check_claim("The server does not restart for 10 minutes.", ["The server restarts every 10 minutes."]).status \
        is ClaimStatus.UNSUPPORTED


def test_no_other_restates_unique():
    """(flag19, h0351) "no other target may use it" is what "must be globally unique" says."""
    claim = "<name> is the logical target name, and no other target in the project may use it."
    quote = "The <name> corresponds to the logical target name and must be globally unique within a project."
    assert check_claim(claim, [quote]).status is not ClaimStatus.UNSUPPORTED
    assert check_claim("No other target in the project may use the name.",
                       ["Any other target in the project may use the name."]).status is ClaimStatus.UNSUPPORTED


def test_un_x_restates_before_x_ing():
    """(flag19, h0180) "unexpanded" says what "before expanding" says: no opposite."""
    quote = ("If binary_dir is not specified, the value of source_dir, before expanding any relative path, will be "
             "used (the typical usage).")
    claim = "The unexpanded value of source_dir is used as binary_dir when no binary_dir is given."
    assert check_claim(claim, [quote]).status is not ClaimStatus.UNSUPPORTED
    quote = "If binary_dir is not specified, the value of source_dir, after expanding any relative path, will be used."
    assert check_claim(claim, [quote]).status is ClaimStatus.UNSUPPORTED


def test_non_added_and_only_turned_into_except_is_no_opposite():
    """(flag19, h0257) "zero except in X" says what "non-zero only in X" says."""
    quote = "The recipient_count attribute (Postfix 2.3 and later) is non-zero only in the DATA and END-OF-MESSAGE stages."
    assert check_claim("recipient_count is zero except in the DATA and END-OF-MESSAGE stages.", [quote]).status \
        is not ClaimStatus.UNSUPPORTED
    assert check_claim("recipient_count is zero only in the DATA and END-OF-MESSAGE stages.", [quote]).status \
        is ClaimStatus.UNSUPPORTED

"""fresh33 (Sphinx docs) and fresh34 (SciPy tutorial): an altered claim was shown supported
because the proof compared a literal value by its stem - "['locale']" for "['locales']" -
and a scripted judge's "supports" passed on "this" aligned with the quote's "self"; three
correct claims were flagged: "do not look too nice" restated as "look bad", a number in TeX
("1.04\\times10^{-11}") read as a name against "1.04e-11", and "no upper bound" for "the upper
bound is infinity". A literal value now stands in a quote as written or the claim is grey;
the false flags are grey (never green); a contradiction of each shape still flags. The
sentences here are our own, not the Sphinx or SciPy pairs."""

from __future__ import annotations

from deep_research.citations.claims import check_claim
from deep_research.citations.claims.judge_check import JudgeFact, check_judge_evidence
from tests.citations.claim_status import FLAG, GREEN, GREY, status


def test_a_literal_value_is_compared_as_written():
    """(sx0154) "The default is ['locales']." / "The default is ['locale']."."""
    quote = "The default search path is ['plugins']."
    got = check_claim("The default search path is ['plugin'].", [quote])
    assert got.status is GREY and '"plugin"' in (got.note or "")
    assert status("The default search path is ['plugins'].", quote) is GREEN
    # in quote marks, in backticks, in a bare list; a case change too
    assert status("The default search path is 'plugin'.", "The default search path is 'plugins'.") is GREY
    assert status("The default search path is ``plugin``.", "The default search path is ``plugins``.") is GREY
    assert status("The default search path is [plugin, extra].", "The default search path is [plugins, extra].") is GREY
    assert status("The default search path is ['Plugins'].", quote) is GREY
    assert status("The mode is \u201cfast\u201d.", "The mode is \u201cfaster\u201d.") is GREY
    # the same value in other quote marks, or unquoted in the quote: still a copy
    assert status('The default search path is "plugins".', "The default search path is 'plugins'.") is GREEN
    assert status("The default search path is 'plugins'.", "The default search path is plugins.") is GREEN
    # an apostrophe is no quote mark
    assert status("The user's default path is kept.", "The user's default path is kept.") is GREEN
    # a contradiction of the same sentence still flags
    assert status("The default search path is not ['plugins'].", quote) is FLAG


def test_the_judge_evidence_check_reads_literals_and_small_words_for_names():
    """(sx0308) "The special entry name this stands for ..." / "... name self stands for ..."."""
    span = "The special target name home stands for the first page of the book"
    claim = "The special target name this stands for the first page of the book."
    ev = check_judge_evidence(claim, [span + "."], [JudgeFact(claim, [span], [("this", "home")])])
    assert not ev.ok and any('"this"' in p for p in ev.problems)
    same = "The special target name home stands for the first page of the book."
    assert check_judge_evidence(same, [span + "."], [JudgeFact(same, [span], [])]).ok
    quote = "The default search path is ['plugins']."
    claim = "The default search path is ['plugin']."
    ev = check_judge_evidence(claim, [quote], [JudgeFact(claim, ["The default search path is ['plugins']"], [])])
    assert not ev.ok and any("plugin" in p for p in ev.problems)


def test_a_denied_adjective_restated_by_another_is_no_dropped_negation():
    """(sx0137, correct, kept grey) "but do not look too nice in the output" / "but that look bad in the output"."""
    quote = "It strips the blank lines, which are needed by the parser but do not look too nice in the report."
    got = check_claim("It strips the blank lines, which the parser needs but which look bad in the report.", [quote])
    assert got.status is GREY
    # the same adjective without the negation: a contradiction still flags
    assert status("It strips the blank lines, which are needed by the parser but look too nice in the report.",
                  quote) is FLAG
    assert status("It strips the blank lines, which are needed by the parser but look nice in the report.",
                  quote) is FLAG


def test_a_number_in_tex_is_no_name():
    """(sp0057, correct, kept grey) "within \\(1.04\\times10^{-11}\\)" / "within 1.04e-11"."""
    quote = r"The computed sum is within \(2.5\times10^{-9}\) of the true value, well below the tolerance."
    got = check_claim("The computed sum lies within 2.5e-9 of the true value, far below the tolerance.", [quote])
    assert got.status is not FLAG
    # another exponent or the opposite word still flags
    assert status("The computed sum is within 2.5e-8 of the true value, well below the tolerance.", quote) is FLAG
    assert status("The computed sum is within 2.5e-9 of the true value, well above the tolerance.", quote) is FLAG


def test_no_bound_for_a_bound_of_infinity():
    """(sp0373, correct, kept grey) "no upper bound" / "the upper bound on each variable is infinity"."""
    quote = ("By default the lower limit on each weight is 0, and the upper limit on each weight is infinity: "
             "every weight is non-negative.")
    got = check_claim("By default each weight has lower limit 0 and no upper limit, so every weight is non-negative.",
                      [quote])
    assert got.status is GREY
    # "no lower limit" where the quote gives it a value still flags
    assert status("By default each weight has no lower limit and an upper limit of infinity.", quote) is FLAG

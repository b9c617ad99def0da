"""Issue 25: the alignment reading (``contradiction.aligned_share`` / ``in_place``) and a date
a quote writes as it stands (glued to the next sentence) are no proof of a contradiction."""

from __future__ import annotations

from deep_research.citations.claims import ClaimStatus, check_claim
from deep_research.citations.claims import contradiction
from deep_research.citations.claims.types import ClaimCheck


def test_date_written_as_it_stands_is_not_flagged():
    quote = ("Yields breached the 0.5% cap and reached the highest level since Jan. 18.Japan's Nikkei "
             "share index fell 1.25% on Wednesday.")
    claim = "Yields reached the highest level since Jan. 18."
    assert check_claim(claim, [quote]).status is not ClaimStatus.UNSUPPORTED


def test_another_date_is_still_flagged():
    quote = "Yields reached the highest level since Jan. 18, the bank said."
    result = check_claim("Yields reached the highest level since Jan. 25, the bank said.", [quote])
    assert result.status is ClaimStatus.UNSUPPORTED and result.rule == "number"


def test_aligned_share_copy_swap_and_summary():
    quote = "The server sends the file to the client. It then closes the connection."
    assert contradiction.aligned_share("The server sends the file to the client.", [quote]) == 1.0
    # one word swapped between matching words still reads in place
    assert contradiction.aligned_share("The server sends the page to the client.", [quote]) == 1.0
    # words drawn from two sentences: no one sentence gives them in order
    assert contradiction.aligned_share("The client closes the file it sends.", [quote]) < 0.9


def test_in_place_greys_a_flag_off_its_sentence_but_never_lacking_or_supported(monkeypatch):
    monkeypatch.setattr(contradiction, "ALIGNED_SHARE", 0.9)
    quote = "The server sends the file to the client. It then closes the connection."
    flag = ClaimCheck(ClaimStatus.UNSUPPORTED, "negation", "x")
    assert contradiction.in_place(flag, "The client closes the file it sends.", [quote]).status is ClaimStatus.UNCHECKED
    assert contradiction.in_place(flag, "The server sends the file to the client.", [quote]) is flag
    lacking = ClaimCheck(ClaimStatus.UNSUPPORTED, "number", "x", lacking=True)
    assert contradiction.in_place(lacking, "The client closes 3 files.", [quote]) is lacking
    ok = ClaimCheck(ClaimStatus.SUPPORTED, "copy", "")
    assert contradiction.in_place(ok, "anything", [quote]) is ok

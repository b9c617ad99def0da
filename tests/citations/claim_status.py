"""What the claim-rule tests compare: a pair's status by code, and the three a reader sees
(FLAG orange, GREY "not checked", GREEN "supported")."""

from __future__ import annotations

from deep_research.citations.claims import ClaimStatus, check_claim

FLAG = ClaimStatus.UNSUPPORTED
GREY = ClaimStatus.UNCHECKED
GREEN = ClaimStatus.SUPPORTED


def status(claim: str, quote: str) -> ClaimStatus:
    """The status code gives ``claim`` on one quote."""
    return check_claim(claim, [quote]).status

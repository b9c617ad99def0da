"""The public check of one claim against its quotes: the rules in order, the first that
fires decides (see the package's docstring)."""

from __future__ import annotations

from .analysis import _analyse_claim, _analyse_quote
from .antonym import _check_antonym
from .near_copy import _check_near_copy
from .negation import _check_negation
from .numbers import _check_numbers
from .proof import _prove
from .types import ClaimCheck, ClaimStatus


def check_claim(claim: str, quotes: list[str]) -> ClaimCheck:
    """Compare a claim with the quote text(s) of its refs. Deterministic; no model."""
    qs = [_analyse_quote(q) for q in quotes if q and q.strip()]
    c = _analyse_claim(claim or "")
    if not any(c.content) and not any(c.neg) and not c.numbers:
        return ClaimCheck(ClaimStatus.SUPPORTED, "no_claim", "the claim states nothing of its own")
    if not qs:
        return ClaimCheck(ClaimStatus.UNCHECKED, None, "no quote to compare with")
    for rule in (_check_numbers, _check_negation, _check_near_copy, _check_antonym):
        result = rule(c, qs)
        if result is not None:
            return result
    return _prove(c, [q for q in quotes if q and q.strip()])


"""The public check of one claim against its quotes: the rules in order, the first that
fires decides (see the package's docstring)."""

from __future__ import annotations

import re

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
    result = _prove(c, [q for q in quotes if q and q.strip()])
    if result.status is ClaimStatus.SUPPORTED and result.rule in ("copy", "proof"):
        odd = _literal_missing(claim or "", quotes)
        if odd:
            return ClaimCheck(ClaimStatus.UNCHECKED, None, f'the claim\'s "{odd}" is not written so in its quotes')
        swap = _possessive_turned(claim or "", quotes)
        if swap:
            return ClaimCheck(ClaimStatus.UNCHECKED, None, f'the claim\'s "{swap}" turns round an owner its quotes '
                                                           'write with a possessive (roles swapped?)')
        cut = _pair_cut(claim or "", quotes)
        if cut:
            return ClaimCheck(ClaimStatus.UNCHECKED, None, f'the claim\'s "{cut}" stops before the second part its '
                                                           'quotes give it (a copy cut short?)')
    return result


# "possessing both a firearm." copied from "possessing both a firearm and an illegal drug":
# every word is the quote's, in order, but a pair the quote completes ("both A and B",
# "either A or B", "neither A nor B", "between A and B") is cut after its first part, and
# the claim no longer says what the quote says. Grey when the claim's pair word has no
# second word after it and a quote's same pair word has one within a few words.
_PAIRS = {"both": "and", "either": "or", "neither": "nor", "between": "and"}
_PAIR_SPAN = 12  # words from the pair word to its second part, in a quote


def _pair_cut(claim: str, quotes: list[str]) -> str | None:
    words = re.findall(r"[^\W_]+", claim.lower())
    found = [(i, w) for i, w in enumerate(words) if w in _PAIRS]
    if not found:
        return None
    quote_words = [re.findall(r"[^\W_]+", q.lower()) for q in quotes]
    for i, w in found:
        if _PAIRS[w] in words[i + 2:]:
            continue
        for qw in quote_words:
            if any(x == w and _PAIRS[w] in qw[j + 2:j + 2 + _PAIR_SPAN] for j, x in enumerate(qw)):
                return " ".join(words[i:i + 4])
    return None


# "the handler's logger" (the handler owns the logger) read back as "the handler of the
# logger" (the logger owns the handler): the word analysis drops "'s" and "of", so both come
# out as "handler logger" and the copy rule took one for the other. An "A of B" in the claim
# where a quote writes "A's B" (or the claim's "A's B" where a quote writes "A of B") is
# grey; "B of A" for "A's B" is the same fact and untouched.
_POSSESSIVE = re.compile(r"\b([^\W\d_]+)(?:['\u2019]s|s['\u2019])(?!\w)\s+([^\W\d_]+)")
_OF_PHRASE = re.compile(r"\b([^\W\d_]+)\s+of\s+(?:(?:the|a|an|this|that|its|their)\s+)?([^\W\d_]+)")


def _possessive_turned(claim: str, quotes: list[str]) -> str | None:
    if "'" not in claim and "\u2019" not in claim and " of " not in claim:
        return None
    text = " ".join(quotes)
    if "'" not in text and "\u2019" not in text and " of " not in text:
        return None
    low = claim.lower()
    quote_poss = {(a.lower(), b.lower()) for a, b in _POSSESSIVE.findall(text)}
    quote_of = {(a.lower(), b.lower()) for a, b in _OF_PHRASE.findall(text.lower())}
    for m in _OF_PHRASE.finditer(low):
        if (m.group(1), m.group(2)) in quote_poss:
            return m.group(0)
    for m in _POSSESSIVE.finditer(low):
        if (m.group(1), m.group(2)) in quote_of:
            return m.group(0)
    return None


# A file pattern or identifier written with "*" or "_" ("*_test.py", "test*.py",
# "STATIC_ROOT"): the word analysis reads these characters as punctuation, so "*_test.py"
# and "test*.py" both come out as "test.py". Code shows such a claim only when each of its
# literals stands in a quote as written.
# markdown *a*, __b__; at most 300 characters inside, so that a text of many openers without
# closers costs linear time (longer emphasis keeps its markers: the claim goes grey)
_EMPHASIS = re.compile(r"(?<![\w*])(\*{1,3}|_{1,3})(?=\S)(.{1,300}?)(?<=\S)\1(?![\w*])")
# a literal is a whole run of these characters holding a "*" or "_" next to a word character
# (found as runs, then tested: one pattern with greedy runs around the pair took quadratic
# time on a long run without one — 14 s for 30 KB)
_RUN = re.compile(r"[\w.*/-]+")
_LITERAL_MARK = re.compile(r"\w[*_]|[*_][\w.]")


def _literal_missing(claim: str, quotes: list[str]) -> str | None:
    """The claim's first "*"/"_" literal that no quote holds as written, or None."""
    if "*" not in claim and "_" not in claim:
        return None
    low = [q.lower() for q in quotes if q]
    for m in _RUN.finditer(_EMPHASIS.sub(r"\2", claim)):
        if not _LITERAL_MARK.search(m.group(0)):
            continue
        tok = m.group(0).strip(".-/")
        if ("*" in tok or "_" in tok) and not any(tok.lower() in q for q in low):
            return tok
    return None


"""The claim check's types: a claim, its verdict and the rule that decided it; the analysed
text of a claim or quote (tokens, stems, numbers, negations) the rules compare."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from itertools import compress


class ClaimStatus(StrEnum):
    SUPPORTED = "supported"
    UNSUPPORTED = "unsupported"
    UNCHECKED = "unchecked"
    NO_CLAIM = "no_claim"  # the ref has no claim of its own (alone in its cell, item or paragraph): nothing to check


@dataclass
class ClaimCheck:
    status: ClaimStatus
    rule: str | None  # "number", "negation", "near_copy:<kind>", "antonym"; "copy", "proof", "no_claim"
    note: str
    lacking: bool = False  # a "number" flag for a number no quote writes (the project's rule, not a proof)
    context: float | None = None  # a word flag: share of the claim sentence the quote sentence states (contradiction)


@dataclass
class Claim:
    text: str  # the claim as published: plain text, markdown marks and ref tags removed
    ref_indexes: list[int]  # Ref.index of the refs that support it
    start: int  # span of the claim in the report markdown
    end: int


# token kinds
_PUNCT, _WORD, _NUM, _CJK = 0, 1, 2, 3


@dataclass(slots=True)
class _Num:
    key: str  # canonical digits: "1000", "3.10", "3.11.2"
    value: Decimal | None  # None for versions
    unit: str | None
    pos: int  # token index
    raw: str  # as written (for notes)
    negative: bool = False
    cmp: str | None = None  # "ge" | "le" | "approx"
    required: bool = True
    frame: bool = False
    version: bool = False
    noun: str | None = None  # stem of the word counted ("128 modules"), when no unit
    unit_raw: str = ""  # the unit as written
    cmp_raw: str = ""  # the bound as written ("at least")
    name: str | None = None  # "covid" of "COVID-19": the word a hyphen joins the number to (a name part)
    before: str | None = None  # the word right before the number, lower case ("brca" of "BRCA 1")
    vague: bool = False  # "several hundred", "a few thousand": no exact number
    section_of: str | None = None  # "find" of "find(1)": a manual page's section, a name's part


@dataclass(slots=True)
class _Text:
    # one entry per token in each tuple (tuples, not lists: a kept analysis then costs the
    # garbage collector nothing per token, ``analysis._analyse_quote``)
    raw: tuple[str, ...]  # surface form of each token
    low: tuple[str, ...]  # lower case
    stems: tuple[str, ...]
    kinds: tuple[int, ...]
    clause: tuple[int, ...]  # clause number of each token
    sent_start: tuple[bool, ...]
    numbers: list[_Num]
    neg: tuple[bool, ...]  # explicit negator
    neg_clauses: set[int]  # clauses with an explicit or implicit negation
    stemset: set[str]  # stems of word tokens
    lowset: set[str]
    cjk_bigrams: set[str]
    align: tuple[str, ...]  # alignment sequence (articles and punctuation dropped)
    align_pos: tuple[int, ...]  # token index of each alignment item
    content: tuple[bool, ...]
    entity: tuple[bool, ...]
    joined: str = ""  # " stem stem ... " for contiguous-copy tests
    cjk_chars: set[str] = field(default_factory=set)
    tails: set[int] = field(default_factory=set)  # units, bounds, scale words of numbers (no content)
    # stem -> token positions (``positions``), built on first use: most quotes are read through
    # their other fields alone, and an index of a long quote is a list per distinct stem
    _positions: dict[str, list[int]] | None = field(default=None, compare=False, repr=False)
    _rawset: set[str] | None = field(default=None, compare=False, repr=False)  # ``rawset``, built on first use
    # values the rules derive from the text, each computed once (``derived``): a quote is
    # read against every claim that cites it, and a long one must not be scanned per claim
    cache: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def positions(self) -> dict[str, list[int]]:
        """Stem -> positions of the tokens with that stem, in order (punctuation has none)."""
        index = self._positions
        if index is None:
            index = self._positions = {}
            stems, get = self.stems, index.get
            for k in compress(range(len(stems)), self.kinds):  # _PUNCT is 0: every other token
                st = stems[k]
                at = get(st)
                if at is None:
                    index[st] = [k]
                else:
                    at.append(k)
        return index

    @property
    def rawset(self) -> set[str]:
        """The tokens as written (a few rules look names up in it)."""
        tokens = self._rawset
        if tokens is None:
            tokens = self._rawset = set(self.raw)
        return tokens


def derived(t: _Text, fn):
    """``fn(t)``, computed on the first call for this text and kept with it (an index of a
    quote the rules look words up in, instead of scanning the quote for each claim). ``fn``
    must depend on the text alone; nothing may change what it returns."""
    cache = t.cache
    try:
        return cache[fn]
    except KeyError:
        value = cache[fn] = fn(t)
        return value


def union(texts: list[_Text], attr: str) -> set:
    """The union of a set attribute ("stemset", "lowset", ...) over texts, without a copy
    for one text (most claims cite one quote): read it, never change it."""
    if len(texts) == 1:
        return getattr(texts[0], attr)
    return set().union(*(getattr(t, attr) for t in texts))


class _Memo(dict):
    """The results of a one-argument function by argument: ``memo[x]`` is ``fn(x)``,
    computed on the first look-up; emptied when it holds ``size``. A look-up costs about
    half a ``functools.lru_cache`` call, and ``_analyse`` makes one per word token."""

    __slots__ = ("fn", "size")

    def __init__(self, fn, size: int) -> None:
        super().__init__()
        self.fn = fn
        self.size = size

    def __missing__(self, key):
        if len(self) >= self.size:
            self.clear()
        value = self[key] = self.fn(key)
        return value

    def cache_clear(self) -> None:
        self.clear()

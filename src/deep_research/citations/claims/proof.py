"""Proof that a claim says what its quotes say: ``supported`` only when code can show it.

The claim and each quote sentence become sequences of *items*: every word that states
something, with its light stem; numbers with their unit and bound; negators as one
item (``not``, ``no``, ``never``, ``n't``, ``fails to``); quantifiers and modals by
strength group (``all/every/each/always/any``; ``may/might/can/could``: the module's
groups). Words that state nothing on their own are not items: articles, pronouns, forms
of *be*, *have*, *do*, *will*, ``and``, ``to`` and the prepositions that only attach
(``of``, ``in``, ``on``, ``at``, ``with``, ``for``, ...). ``by`` is an item: it marks who
acts in a passive, so "A is used by B" (B uses A) is never shown by "A uses B". Every other word is an
item, including ``only``, ``if``, ``unless``, ``because``, ``from``, ``than``, ``same``,
``other``, ``still``, particles such as ``off`` and ``out``.

A claim is *proven* by its quotes when:

* every claim item is matched, in order, by an item of one quote sentence (same stem,
  same group, a number the claim's number equals - or a bound the quote's exact number
  meets - or a spelling in ``EQUIVALENT``); a claim whose parts are joined by a clause
  mark (``,``, ``;``, ``(``, ``if``, ``because``, ``which`` ...) may take its parts in
  another order (a moved clause) and, across ``;``, ``and``, ``but`` or a sentence end,
  from different quote sentences (two quotes combined); a subordinate part (``if X``,
  ``which Y``) stays in the sentence of the part it hangs on;
* the quote words the claim leaves out (its *gaps*) are whole clauses or parentheses:
  a gap inside the matched stretch must start and end at a clause mark, a gap before it
  must end at one, a gap after it must start at one - so "second-largest" never proves
  "largest", "refuses to turn off" never proves "turns off", and "A supports B, and C
  supports D" never proves "A supports D"; a bare "and" joining two words under one article
  ("the Rose and Crown": maybe one name) is no clause mark, and a gap opened by a bare
  subordinating word ("X because Y, Z": no comma before it) ends only at a strong mark or a
  clause word, not at its comma (its clause runs on);
* no gap holds a word that restricts what the claim kept: a negator, an implicit
  negation (``only``, ``except``, ``unless``, ``fail``, ``refuse``, ``lack``, ...), a
  quantifier, a modal, a condition or scope (``if``, ``when``, ``until``, ``since``,
  ``by default``, ``otherwise``, ``on``/``under`` + a name such as "on Windows"), an
  order word (``before``, ``after``).

After a proof the claim is still grey when it says "is" where the quotes only say "was" (or
the reverse; "I'm" is "I am"), or leaves out a preposition right before words it keeps
("this day" of "to this day": ``near_copy._preposition_dropped``), or writes a word that is
no item where its quote does not write it (between the quote words matched to its neighbours,
in any of its forms): "you add has plus the name" is not "you add is plus the name", "is
removed" is not "will be removed", "in the container" is not "on the container"
(``_unheld_words``; an article standing for none or for the quote's article, "also", an
opening "well", the "do" before "not" and the "to" of "has to" state nothing of their own;
"and" is held where the quote gives the two parts apart or parts a list by commas), or states
in the active a verb its quote has in the passive ("the user notifies" / "the user is
notified": ``_passive_dropped``). The judge-evidence check reads the same rules on its cited
spans (``be_tense_change``, ``clause_cut_out``, ``joins_two_nouns``, ``small_word_changed``).

Anything else is not proven: the claim stays ``unchecked`` for the judge. Nothing here
says ``unsupported``; the rules that prove a claim wrong run before (``claims``).
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from rapidfuzz.distance import Indel

from .analysis import _analyse_quote
from .near_copy import _PREPOSITIONS
from .negation import _answer_particle
from .numbers import APPROX
from .types import ClaimCheck, ClaimStatus, _Memo, _Text, derived, union
from .words import _IMPLICIT_NEG_STEMS, _IRREGULAR_BASE, _MODAL, _ORDINALS, _QUANT, _QUOTE_NUMBER_WORDS, same_word, stem

# The curated equivalences: each pair is the same word in another spelling, so one may
# stand for the other in a proof. Nothing here is a synonym: a synonym can shift meaning
# (and "may be a synonym" was how a changed fact got through), so synonyms go to the judge.
EQUIVALENT = {
    # British / American spellings of the same word (stems as ``claims.stem`` gives them)
    "behaviour": "behavior", "colour": "color", "favour": "favor", "honour": "honor",
    "labour": "labor", "neighbour": "neighbor", "licence": "license", "centre": "center",
    "metre": "meter", "litre": "liter", "catalogu": "catalog", "dialogu": "dialog",
    "analys": "analyz", "organis": "organiz", "recognis": "recogniz", "initialis": "initializ",
    "serialis": "serializ", "deserialis": "deserializ", "normalis": "normaliz",
    "optimis": "optimiz", "customis": "customiz", "synchronis": "synchroniz",
    "minimis": "minimiz", "maximis": "maximiz", "authoris": "authoriz", "prioritis": "prioritiz",
    "summaris": "summariz", "utilis": "utiliz", "finalis": "finaliz", "specialis": "specializ",
    "categoris": "categoriz", "characteris": "characteriz", "emphasis": "emphasiz",
    "realis": "realiz", "standardis": "standardiz", "visualis": "visualiz",
    "parallelis": "paralleliz", "tokenis": "tokeniz", "sanitis": "sanitiz",
    "modernis": "moderniz", "localis": "localiz", "cancel": "cancel", "travell": "travel",
    "modell": "model", "labell": "label", "grey": "gray", "programm": "program",
    # the same degree word: "nearly all" and "almost all" say the same
    "nearly": "almost",
}

MAX_ITEMS = 400  # claim items compared at most (longer claims stay unchecked)
MAX_QUOTE_ITEMS = 8000  # items of all quotes of a claim
MAX_PART_TRIES = 2000  # claim parts x quote sentences aligned at most
MAX_ALIGN = 400  # words of a claim or a cited span aligned at most (``clause_cut_out``)

# Not items: words that state nothing a quote must show (see the module docstring).
_FREE = frozenset(["a", "an", "the", "be", "is", "are", "was", "were", "been", "being", "am", "have", "has", "had", "having", "do", "does", "did", "done", "doing", "will", "shall", "it", "its", "itself", "they", "them", "their", "theirs", "themselves", "he", "him", "his", "she", "her", "hers", "we", "us", "our", "ours", "you", "your", "yours", "i", "me", "my", "mine", "oneself", "this", "these", "those", "there", "here", "which", "who", "whom", "whose", "that", "and", "to", "of", "in", "on", "at", "with", "for", "about", "via", "per", "within", "through", "during", "over", "upon", "onto", "across", "among", "as", "also", "too", "very", "really", "actually", "basically", "simply", "quite", "fairly", "just", "even", "well", "however", "moreover", "furthermore", "further", "additionally", "likewise", "similarly", "indeed", "thus", "hence", "therefore", "e.g", "i.e", "eg", "ie", "etc", "cf", "s", "t", "such", "own"])
# Clause words: a claim part starts here; a quote gap may end or start here.
_SUBORDINATE = frozenset(["if", "unless", "when", "whenever", "until", "because", "since", "although", "though", "while", "whereas", "which", "who", "whom", "whose", "that", "where", "after", "before", "once", "provided", "whether", "so"])
# Coordinators that join two statements (a combined claim may take them from two sentences).
_COORD = frozenset(["and", "but", "while", "whereas", "yet", "so", "or"])
# Quote words a gap may not drop (besides negators, quantifiers, modals, implicit negations).
_RESTRICT = frozenset(["if", "unless", "when", "whenever", "until", "except", "excepting", "excluding", "provided", "providing", "only", "solely", "exclusively", "merely", "otherwise", "default", "since", "before", "after", "unlike", "instead", "rather", "once"])
# Attribution: "X, said the headline" does not state X; a proof may not drop who says it.
_ATTRIBUTION = frozenset(["say", "said", "claim", "accord", "alleg", "allegedly", "reportedly", "report",
                          "suggest", "believ", "think", "argu", "assert", "accus", "insist", "tweet",
                          "rumor", "rumour", "purport", "supposedly", "deni", "dispute"])
_SCOPE_PREP = frozenset(["on", "under"])  # "on Windows", "under Linux": a scope
# Ordinary punctuation; any other symbol ("==", "<", "*") is an item of its own.
_PUNCTUATION = frozenset(",;:()[]{}\u2014.!?\"'-/\u2026\u3002\uff0c\u3001\uff1b\uff1a\uff01\uff1f$\u20ac\u00a3\u00a5\u20b9%\u00b0|")  # currency and unit signs belong to their number
# A preposition that ends a clause or follows "be" is a predicate ("is on", "turned off").
_BE = frozenset(["be", "is", "are", "was", "were", "been", "being", "am"])
_HAVE = frozenset(["have", "has", "had", "having"])
_NEED = frozenset(["need", "needs", "needed"])
# "forgot to mask it" / "neglects to check it" deny the verb after them (``analysis``) but say
# more than "not": "could forget to mask" is no "could not mask". Each shows only itself.
_OWN_NEGATORS = frozenset(stem(w) for w in ("forget", "forgets", "forgot", "forgotten", "forgetting", "neglect",
                                            "neglects", "neglected", "neglecting"))
_BOUNDARY = frozenset(",;:()[]\u2014.!?\u3002\uff0c\u3001\uff1b\uff1a\uff01\uff1f")
_STRONG = frozenset(";.!?\u3002\uff1b\uff01\uff1f")
_SENT_END = frozenset(".!?\u3002\uff01\uff1f")


@dataclass(slots=True)
class _Items:
    keys: list[str]
    pos: list[int]  # token index of each item
    bnd: list[bool]  # a clause mark or a clause word stands right before this item
    strong: list[bool]  # ";", a sentence end or a coordinator stands right before it
    sub: list[bool]  # the item is (or follows right after) a subordinating word
    sent: list[int]  # sentence number
    restrict: list[bool]  # a gap may not drop it
    nums: dict[int, object]  # item index -> the _Num it stands for
    words: list[str]  # each item's word as written (for notes)
    # (quote side) a participle right after a form of "be" ("was used"): a clause's predicate
    predicate: list[bool] = field(default_factory=list)
    # a punctuation mark (",", ";", "(", ...) stands right before this item or the clause word
    # it follows: "X, because Y" opens a parenthesis where "X because Y" does not
    punct: list[bool] = field(default_factory=list)
    # (quote side, built on first use by ``_sentence_index``) the sentences' item ranges and,
    # for each key, the sentences that hold it
    index: tuple[list[tuple[int, int]], dict[str, list[int]]] | None = None


@dataclass(slots=True)
class Proof:
    ok: bool
    note: str
    copy: bool = False  # the claim's items are one contiguous stretch of a quote's
    # (when ok) the quote item matched to each claim item: (quote number, item index)
    at: list[tuple[int, int]] = field(default_factory=list)


@dataclass(frozen=True, slots=True, eq=False)  # hashed by identity (one instance)
class Tables:
    """Word lists the claim module owns, handed in (this module imports nothing of it)."""

    quant: dict  # word -> quantifier group
    modal: dict  # word -> modal group
    ordinals: frozenset  # "third" ... (quote side: numbers)
    number_words: frozenset  # "twice", "half" ... (quote side: numbers)
    implicit: frozenset  # stems of implicit negations ("only", "except", "fail", ...)


def items(t, claim_side: bool, tb: Tables) -> _Items:
    """The items of an analysed text (``claims._Text``)."""
    quant, modal, ordinals, number_words = tb.quant, tb.modal, tb.ordinals, tb.number_words
    keys: list[str] = []
    pos: list[int] = []
    bnd: list[bool] = []
    strong: list[bool] = []
    sub: list[bool] = []
    sent: list[int] = []
    restrict: list[bool] = []
    punct: list[bool] = []
    nums: dict[int, object] = {}
    heads = {n.pos: n for n in t.numbers}
    tails, kinds, raw, low, stems, neg, entity = t.tails, t.kinds, t.raw, t.low, t.stems, t.neg, t.entity
    word = _word_class
    by_word = _WORD_CLASS if tb is _TABLES else None
    pending_b = pending_s = pending_sub = pending_p = False
    counted = False  # a number or quantifier item since the clause began (quote side)
    s = 0
    n = len(raw)
    need_not = False
    for k in range(n):
        kind = kinds[k]
        own_b = own_s = False
        if need_not and not (kind == 1 and neg[k]):
            need_not = False
        if kind == 1 and not neg[k] and not entity[k] and k not in heads and k not in tails:
            w = low[k]
            st = stems[k]
            known = by_word[w] if by_word is not None else None
            if known is not None and known[0] == st:  # the stem the analysis gives this word
                key, res, cls = known[1]
                odd = known[2]
            else:
                key, res, cls = word(w, st, tb)
                odd = True
            if not odd:
                pass  # not "have", "need" or "between": none of the tests below applies
            elif key is None and w in _HAVE and k + 1 < n and low[k + 1] == "to":
                key, res = "M:must", True  # "has to return" is "must return": an obligation
            elif w in _NEED and k + 1 < n and low[k + 1] == "to":
                key, res = "M:must", True  # "needs to return": the same obligation
            elif w in _NEED and k + 1 < n and neg[k + 1]:
                # "need not return" is "does not have to return" (no obligation), never
                # "must not return" (a prohibition): the negation comes first
                key, res, need_not = "\u00ac", True, True
            elif key == "between" and k + 1 < n and k + 1 in heads:
                key = None  # "between 4 and 8": the range is the numbers
            if key is None and not (k and low[k - 1] in _BE and (k + 1 >= n or kinds[k + 1] == 0)):
                if cls == 1:
                    pending_b = pending_sub = True
                elif cls == 2 and (claim_side or (k and kinds[k - 1] == 0)
                                   or (w == "and" and not counted and not joins_two_nouns(low, kinds, k))
                                   or w not in ("and", "or")):
                    # (in a quote, a bare "or" offers a choice - "A or B" does not show "A" -
                    # and a bare "and" after a number or quantifier of its clause may widen
                    # what it counts - "1000 pairs of runners and slippers" - or join two
                    # nouns under one article - "the Rose and Crown": neither ends a clause a
                    # gap may drop; after a comma they do)
                    pending_s = True
                continue
            if key is None:  # a preposition used as a predicate: "is on", "turned off"
                key = w
            own_b, own_s = cls == 1, cls == 2
        elif k in tails:
            continue
        elif kind == 0 and raw[k] in _PUNCTUATION:
            r = raw[k]
            if r in _BOUNDARY:
                pending_b = pending_p = True
            if r in _STRONG:
                pending_s = True
            if r in _SENT_END and not claim_side:
                s += 1
            continue
        else:
            w = low[k]
            res = False
            if k in heads:
                num = heads[k]
                if not claim_side and not num.required:
                    continue  # the year of a date, kept apart for claims that give it alone
                if w in ordinals:
                    key = "ORD:" + w
                elif w in number_words:
                    key = "W:" + w
                else:
                    key = f"#{num.key}|{num.unit or ''}|{num.cmp or ''}|{'-' if num.negative else ''}"
                nums[len(keys)] = num
            elif kind == 2:  # a number token that is not a head: part of one
                continue
            elif kind == 0 or kind == 3:  # a symbol ("==", "<", "*"), a CJK character
                key = raw[k]
                res = bool(neg[k])
            elif neg[k] and need_not:
                key, res, need_not = "M:must", True, False
            elif neg[k] and _answer_particle(t, k):
                # "No it does support X" answers; it does not negate "support": no "not" of a
                # quote shows it ("It does not support X" would otherwise prove it)
                key, res = "ANSWER:no", True
            elif neg[k]:
                key = "\u00ac" + stems[k] if stems[k] in _OWN_NEGATORS else "\u00ac"
                res = True
            elif w in quant and not entity[k]:
                key = "Q:" + quant[w]
                res = True
            elif w in modal and not entity[k] and w not in ("will", "shall"):
                key = "M:" + modal[w]
                res = True
            else:  # a name
                st = stems[k]
                key = EQUIVALENT.get(st, st)
                res = bool(k and low[k - 1] in _SCOPE_PREP)
        if pending_b or pending_s or own_b or own_s:
            counted = False
        if k in heads or key.startswith("Q:"):
            counted = True
        keys.append(key)
        pos.append(k)
        bnd.append(pending_b or pending_s or own_b or own_s)
        strong.append(pending_s or own_s)
        sub.append(pending_sub or own_b)
        sent.append(s)
        restrict.append(res)
        punct.append(pending_p)
        pending_b = pending_s = pending_sub = pending_p = False
    predicate = [] if claim_side else [k > 0 and low[k - 1] in _BE and low[k].endswith(("ed", "en")) for k in pos]
    return _Items(keys, pos, bnd, strong, sub, sent, restrict, nums, [raw[k] for k in pos], predicate, punct)


_ARTICLE = frozenset(["the", "a", "an"])
# words that open a noun phrase of their own: after "and" they start a second phrase ("the
# man and his dog"), not a second noun under the first one's article
_OWN_PHRASE = _ARTICLE | frozenset(["this", "that", "these", "those", "his", "her", "its", "their", "our",
                                    "my", "your", "he", "she", "it", "they", "we", "i", "you", "there",
                                    "some", "any", "all", "each", "every", "no", "both", "either", "neither"])


def joins_two_nouns(low: Sequence[str], kinds: Sequence[int], k: int) -> bool:
    """Is the bare "and" at token ``k`` one that joins two words under one article ("the
    Rose and Crown", "the president and prime minister", "a cat and dog")? One article over
    both may name one thing - a pub, one person holding two offices - so "outside the Rose"
    is not what "outside the Rose and Crown" says: the words after this "and" are no clause
    a claim may leave out."""
    if not (2 <= k < len(low) - 1 and low[k - 2] in _ARTICLE and kinds[k - 1] == 1 and kinds[k + 1] == 1):
        return False
    nxt = low[k + 1]
    # not a word that opens a phrase or clause of its own ("and his dog", "and with", "and
    # then"), nor a verb in the past ("a decade and served in the house")
    return not (nxt in _OWN_PHRASE or nxt in _FREE or nxt in _PREPOSITIONS or nxt in _SUBORDINATE
                or nxt in _COORD or (nxt.endswith("ed") and not nxt.endswith("eed") and len(nxt) > 4))


@lru_cache(maxsize=65536)
def _word_class(w: str, st: str, tb: Tables) -> tuple[str | None, bool, int]:
    """(key or None for a word that is no item, restrictive?, 1 subordinator / 2
    coordinator / 0) of a plain lower-case word."""
    cls = 1 if w in _SUBORDINATE else 2 if w in _COORD else 0
    if w in tb.quant:
        return "Q:" + tb.quant[w], True, cls
    if w in tb.modal and w not in ("will", "shall"):
        return "M:" + tb.modal[w], True, cls
    if w in tb.ordinals:
        return "ORD:" + w, False, cls
    if w in tb.number_words:
        return "W:" + w, False, cls
    if w in _FREE:
        return None, False, cls
    res = w in _RESTRICT or st in tb.implicit or st in _ATTRIBUTION
    return EQUIVALENT.get(st, st), res, cls


# --- numbers ---------------------------------------------------------------------------------
def _num_proves(c, q, approx) -> bool:
    """Does the quote's number q show the claim's number c? Same number (unit on the claim
    only when the quote gives the same), the same bound or none on the claim where the
    quote is exact; a claim bound met by the quote's exact number of the same quantity.
    Not a version prefix ("3.11" of "3.11.2")."""
    if c.key.startswith("D:") or q.key.startswith("D:"):
        return c.key.startswith("D:") and q.key.startswith("D:") and _date_part_of(c.key, q.key)
    if c.negative and not q.negative:
        return False
    if c.unit is not None and c.unit != q.unit:
        return False
    if c.key == q.key:
        return c.cmp == q.cmp or (q.cmp is None and c.cmp is not None)
    # a version prefix ("3.6" of "3.6.2") is not flagged (the number rule) but shows nothing:
    # "Changed in version 3.6" is not what "Changed in version 3.6.2" says
    if c.cmp and q.cmp is None and c.value is not None and q.value is not None:
        if c.unit is None and q.unit is None and (c.noun is None or c.noun != q.noun):
            return False
        if c.cmp == "ge":
            return q.value >= c.value
        if c.cmp == "le":
            return q.value <= c.value
        if c.cmp == "approx":
            return abs(q.value - c.value) <= approx * abs(c.value)
    return False


def _date_part_of(c: str, q: str) -> bool:
    """Is the claim's date ("D:2021-06-?") the quote's, giving no part the quote lacks?"""
    return all(a == "?" or a == b for a, b in zip(c[2:].split("-"), q[2:].split("-"), strict=True))


# --- the proof -------------------------------------------------------------------------------
def _sentences(items: _Items) -> list[tuple[int, int]]:
    """(start, end) item ranges of each sentence."""
    sent = items.sent
    n = len(sent)
    if not n:
        return []
    # where the sentence number changes (it only grows), found at C speed
    cuts = list(itertools.compress(range(1, n), map(operator.ne, itertools.islice(sent, 1, None), sent)))
    return list(zip([0, *cuts], [*cuts, n]))


def _match(ckeys: list[str], skeys: list[str]) -> list[int] | None:
    """Positions in skeys matching every claim key in order (the longest common
    subsequence), or None when some claim key is left out."""
    if not ckeys:
        return []
    if len(ckeys) > len(skeys):
        return None
    out: list[int] = []
    for op in Indel.opcodes(ckeys, skeys):
        if op.tag == "equal":
            out.extend(range(op.dest_start, op.dest_end))
        elif op.src_end > op.src_start:  # a claim item not matched
            return None
    return out if len(out) == len(ckeys) else None


def _gaps_ok(q: _Items, a: int, b: int, used: set[int]) -> str | None:
    """Is every quote item of sentence [a, b) that the claim leaves out droppable? None if
    so, else why not."""
    lo, hi = min(used), max(used)
    i = a
    while i < b:
        if i in used:
            i += 1
            continue
        j = i
        while j < b and j not in used:
            j += 1
        # gap [i, j)
        for g in range(i, j):
            if q.restrict[g]:
                return f'the quote\'s restriction "{q.words[g]}" is not in the claim'
        starts_at_mark = q.bnd[i]
        ends_at_mark = j >= b or q.bnd[j]
        if i > lo and j <= hi:
            ok = starts_at_mark and ends_at_mark
            if ok and opens_without_mark(q, i) and not (j >= b or q.strong[j] or q.sub[j]):
                # "apps such as GarageBand [because it recognises gestures, such as strumming,]
                # tapping, bowing": a clause opened by a bare "because" runs on past its
                # comma, so the words after the gap are its words, not the kept part's
                return (f'the claim joins words of the quote\'s "{q.words[i]} ..." clause to words before it '
                        "(the clause does not end where the claim cuts it)")
        elif i < lo:
            ok = ends_at_mark
        else:
            ok = starts_at_mark
        if not ok:
            return "the claim leaves out words inside a clause of the quote"
        if i > lo and j <= hi and q.predicate and not q.sub[i] and any(q.predicate[i:j]):
            # "$90 million in expenditure, [$45 million was used for items such as TVs,] smart
            # phones": a whole statement cut out of the middle joins two parts it kept apart
            return f'the claim leaves out the statement "{q.words[i]} ... {q.words[j - 1]}" between its parts'
        i = j
    return None


def opens_without_mark(q: _Items, i: int) -> bool:
    """Does quote item ``i`` open a subordinate clause ("because", "which" ...) with no
    punctuation before it? Such a clause is no parenthesis: it runs to a ";", a sentence end
    or another clause word, not to the next comma."""
    return bool(q.sub[i] and q.punct and not q.punct[i])


def _mark_at(t: _Text, k: int) -> bool:
    """Does token ``k`` of an analysed text mark a clause, as ``items`` reads a quote: a
    clause punctuation mark, a subordinating word, a coordinator ("and" not joining two nouns
    under one article: ``joins_two_nouns``; "or" only after punctuation)?"""
    if t.kinds[k] == 0:
        return t.raw[k] in _BOUNDARY
    w = t.low[k]
    if w in _SUBORDINATE:
        return True
    if w not in _COORD:
        return False
    if (k and t.kinds[k - 1] == 0) or w not in ("and", "or"):
        return True
    return w == "and" and not joins_two_nouns(t.low, t.kinds, k)


def _text_mark(t: _Text, k: int) -> bool:
    """``_mark_at``, or a dash written "--" (two "-" tokens: a parenthesis mark; a single "-"
    may be a hyphen the text spaced out, "title - chasing")."""
    if _mark_at(t, k):
        return True
    raw = t.raw
    return raw[k] == "-" and t.kinds[k] == 0 and ((k and raw[k - 1] == "-") or (k + 1 < len(raw) and raw[k + 1] == "-"))


def _crosses_at(t: _Text, k: int) -> bool:
    """A mark a stretch left out crosses into another clause or list member at: any but a
    bare "and"/"or", which may join two words inside one phrase ("the band Nirvana with Krist
    Novoselic and Aaron Burckhard"); such a stretch is one inside a clause."""
    return _text_mark(t, k) and not (t.kinds[k] != 0 and t.low[k] in ("and", "or") and k and t.kinds[k - 1] != 0)


def _list_members_left_out(q: _Text, a: int, b: int) -> bool:
    """Is the stretch [a, b) of a text whole members of a list or whole conjuncts? Inside it
    no mark but commas and coordinators, and: it ends at a comma with the list going on to
    its "and"/"or" in the same sentence ("known for [horse racing, coal, tobacco,] bluegrass
    music, and basketball"), or it starts at the list's last comma or coordinator ("for
    screening[, and interviewing] candidates"), or it ends at a comma and a coordinator, so
    what follows is a whole conjunct ("Exercise [raises the rate, but lowers it later, and]
    is good for the heart"). Each member keeps its relation to what heads the list."""
    coord = [x for x in range(a, b) if q.kinds[x] != 0 and q.low[x] in _COORD]
    for x in range(a, b):
        if (q.kinds[x] == 0 and q.raw[x] != ",") or (q.kinds[x] != 0 and _mark_at(q, x) and x not in coord):
            return False  # another mark: a clause or a parenthesis, not list members
    if q.raw[a] == "," or (coord and coord[0] == a):
        return bool(coord) and (q.raw[a] == "," or a == coord[0]) and coord[-1] <= a + 1 and len(coord) == 1
    if coord and coord[-1] == b - 1 and b - 2 >= a and q.raw[b - 2] == ",":
        return True
    if q.raw[b - 1] != "," or coord:
        return False
    for x in range(b, len(q.raw)):
        if q.kinds[x] == 0 and q.raw[x] != ",":
            return False  # the sentence or clause ends before the list's "and"/"or"
        if q.low[x] in ("and", "or"):
            return True
    return False


def clause_cut_out(claim: _Text, quotes: list[_Text]) -> str | None:
    """The proof's rule for a gap (``_gaps_ok``) read on a text the claim repeats (a judge's
    cited span): a stretch the claim leaves out between words it keeps that crosses a clause
    mark (punctuation, a dash, a clause word) must be whole clauses - start at a mark and end
    at one - or whole members of a list; a clause opened by a bare subordinating word
    ("because", no comma before it) runs to a ";", a sentence end or another clause word, not
    to its comma. Else the claim joins words of two clauses or list members into a relation
    neither states: "tensions between [the pair -- both rivals for] Miliband's ear", "is
    [getting a lot of attention,] not all of it good", "the ten highest peaks in [Asia,
    Aconcagua in] the Andes", "apps such as GarageBand [because it recognises gestures, such
    as strumming,] tapping". As in the proof, only a stretch with a word that states
    something counts (not "which", "that", articles), and not one whose words the claim
    writes elsewhere (a part moved). A stretch inside a clause with no mark is
    ``near_copy._inner_words_dropped``'s. Read on the longest common subsequence of the
    claim's and the text's words (articles and punctuation aside), so a span that shows one
    part of the claim is read against that part. The stretch left out, or None."""
    ca = claim.align
    if not ca or len(ca) > MAX_ALIGN:
        return None
    for q in quotes:
        qa = q.align
        if not qa or len(qa) > MAX_ALIGN:
            continue
        ops = Indel.opcodes(ca, qa)
        for n, op in enumerate(ops):
            # a stretch of the text only, between two stretches of the claim's words in order
            if op.tag != "insert" or not 0 < n < len(ops) - 1 or ops[n - 1].tag != "equal" \
                    or ops[n + 1].tag != "equal":
                continue
            a, b = q.align_pos[op.dest_start - 1] + 1, q.align_pos[op.dest_end]  # the tokens left out: [a, b)
            # what the claim writes there itself: its punctuation (the alignment has none), articles
            kept = {claim.raw[x] for x in range(claim.align_pos[op.src_start - 1] + 1, claim.align_pos[op.src_start])}
            while a < b and (q.low[a] in _ARTICLE or (q.kinds[a] == 0 and q.raw[a] in kept)):
                a += 1
            while a < b and (q.low[b - 1] in _ARTICLE or (q.kinds[b - 1] == 0 and q.raw[b - 1] in kept)):
                b -= 1
            if a >= b or not any(q.content[x] for x in range(a, b)) \
                    or not any(_crosses_at(q, x) for x in range(a, b)) \
                    or all(q.stems[x] in claim.stemset for x in range(a, b) if q.content[x]):
                continue
            starts = _text_mark(q, a)
            ends = _text_mark(q, b - 1) or _text_mark(q, b)
            if starts and ends and q.kinds[a] != 0 and q.low[a] in _SUBORDINATE:
                # opened by a bare subordinating word: its clause ends at a strong mark only
                ends = q.raw[b - 1] in _STRONG or q.low[b - 1] in _COORD or q.low[b] in _SUBORDINATE \
                    or q.low[b] in _COORD
            elif _list_members_left_out(q, a, b):
                continue
            if not (starts and ends):
                return " ".join(q.raw[a:b])
    return None


def _claim_keys_for(c: _Items, q: _Items, a: int, b: int, approx) -> list[str]:
    """The claim's keys with each number replaced by the key of a quote number of
    sentence [a, b) that shows it (else left as is, which matches nothing)."""
    if not c.nums:
        return c.keys
    keys = list(c.keys)
    qnums = [(i, q_num) for i, q_num in _quote_nums(q, a, b)]
    for i, num in c.nums.items():
        if keys[i].startswith(("ORD:", "W:")):
            continue
        own = keys[i]
        if any(q.keys[qi] == own for qi, _ in qnums):
            continue  # the same number, unit and bound
        fits = [qi for qi, qn in qnums if _num_proves(num, qn, approx)]
        if fits:  # prefer the quote number that counts the same thing ("2 channels")
            keys[i] = q.keys[next((qi for qi in fits if q.nums[qi].noun == num.noun), fits[0])]
    return keys


def _quote_nums(q: _Items, a: int, b: int):
    for i in range(a, b):
        if i in q.nums:
            yield i, q.nums[i]


def _segments(c: _Items) -> list[tuple[int, int]]:
    out = []
    start = 0
    for i in range(1, len(c.keys) + 1):
        if i == len(c.keys) or c.bnd[i]:
            out.append((start, i))
            start = i
    return out


def _sentence_index(q: _Items) -> tuple[list[tuple[int, int]], dict[str, list[int]]]:
    """(``_sentences(q)``, key -> numbers of the sentences holding it, ascending), built once
    for a quote's items (kept with them, as they are with its analysis): a claim compared with
    a long quote need not align its keys with the sentences that lack one of them."""
    index = q.index
    if index is None:
        ranges = _sentences(q)
        where: dict[str, list[int]] = {}
        get, keys = where.get, q.keys
        for j, (a, b) in enumerate(ranges):
            for key in set(keys[a:b]):  # each key once per sentence
                at = get(key)
                if at is None:
                    where[key] = [j]
                else:
                    at.append(j)
        index = q.index = (ranges, where)
    return index


def _may_match(c: _Items, s0: int, s1: int, where: dict[str, list[int]]) -> set[int] | None:
    """The sentences (by number) that hold every key of claim items [s0, s1) except numbers
    (``_claim_keys_for`` replaces those per sentence), or None for every sentence (all are
    numbers). ``_match`` finds nothing in any other sentence: it must place each claim key."""
    out: set[int] | None = None
    for i in range(s0, s1):
        if i in c.nums:
            continue
        at = where.get(c.keys[i])
        if at is None:
            return set()
        out = set(at) if out is None else out.intersection(at)
        if not out:
            return out
    return out


def prove(c: _Items, quotes: list[_Items], approx) -> Proof:
    """Is every item of the claim shown by the quotes (see the module docstring)?"""
    if not c.keys:
        return Proof(True, "the claim states nothing of its own")
    if len(c.keys) > MAX_ITEMS or sum(len(q.keys) for q in quotes) > MAX_QUOTE_ITEMS:
        return Proof(False, "too long to compare word by word")
    indexes = [_sentence_index(q) for q in quotes]
    missing = [c.words[i] for i in range(len(c.keys)) if i not in c.nums
               and not any(c.keys[i] in where for _, where in indexes)]
    if missing:
        return Proof(False, "not in its quotes: " + ", ".join(dict.fromkeys(missing)))
    sents = [(qi, a, b) for qi, (ranges, _) in enumerate(indexes) for a, b in ranges]
    # the sentences a part of the claim may be matched in, by global sentence number (the
    # others are skipped: ``_match`` would find nothing there)
    starts = list(itertools.accumulate((len(ranges) for ranges, _ in indexes), initial=0))

    def candidates(s0: int, s1: int) -> set[int] | None:
        out: set[int] = set()
        for qi, (_, where) in enumerate(indexes):
            local = _may_match(c, s0, s1, where)
            if local is None:
                return None
            out.update(starts[qi] + j for j in local)
        return out

    # 1. the whole claim from one sentence, in order
    why = None
    whole = candidates(0, len(c.keys))
    for si, (qi, a, b) in enumerate(sents):
        if whole is not None and si not in whole:
            continue
        q = quotes[qi]
        m = _match(_claim_keys_for(c, q, a, b, approx), q.keys[a:b])
        if m is None:
            continue
        used = {a + x for x in m}
        why = _gaps_ok(q, a, b, used)
        if why is None:
            copy = max(used) - min(used) + 1 == len(used)
            return Proof(True, "every word of the claim is in its quote, nothing restrictive left out", copy,
                         [(qi, a + x) for x in m])
    # 2. part by part (clauses moved, or taken from two quotes)
    segs = _segments(c)
    if 1 < len(segs) and len(segs) * len(sents) <= MAX_PART_TRIES:
        at: list[tuple[int, int]] = []
        res = _prove_parts(c, quotes, sents, segs, approx, candidates, at)
        if res is None:
            return Proof(True, "every part of the claim is in its quotes, nothing restrictive left out", at=at)
        why = why or res
    return Proof(False, why or "the claim's words are not in one stretch of a quote in this order")


def _prove_parts(c: _Items, quotes: list[_Items], sents, segs, approx, candidates,
                 at: list[tuple[int, int]]) -> str | None:
    """None when each part of the claim is shown (``at`` then gets the quote item matched to
    each claim item, as ``Proof.at``), else why not."""
    # candidate (sentence, positions) for each part
    cands: list[list[tuple[int, list[int]]]] = []
    keyed: dict[int, list[str]] = {}  # the claim's keys for a sentence (``_claim_keys_for``), when needed
    for s0, s1 in segs:
        opts = []
        may = candidates(s0, s1)
        for si, (qi, a, b) in enumerate(sents):
            if may is not None and si not in may:
                continue
            ckeys = keyed.get(si)
            if ckeys is None:
                ckeys = keyed[si] = _claim_keys_for(c, quotes[qi], a, b, approx)
            m = _match(ckeys[s0:s1], quotes[qi].keys[a:b])
            if m is not None:
                opts.append((si, [a + x for x in m]))
        if not opts:
            return "the claim's words are not in one stretch of a quote in this order"
        cands.append(opts)
    # choose: stay in the sentence of the part before when possible
    chosen: list[tuple[int, list[int]]] = []
    for k, opts in enumerate(cands):
        prev = chosen[-1][0] if chosen else None
        pick = next((o for o in opts if o[0] == prev), None)
        if pick is None and k + 1 < len(cands):  # or the sentence the next part needs
            nxt = {o[0] for o in cands[k + 1]}
            pick = next((o for o in opts if o[0] in nxt), None)
        chosen.append(pick or opts[0])
    # a part taken from another sentence must start at ";", a sentence end or a
    # coordinator, and a subordinate part stays with its neighbour
    for k in range(1, len(segs)):
        if chosen[k][0] != chosen[k - 1][0]:
            s0 = segs[k][0]
            if not c.strong[s0] or c.sub[s0]:
                return "the claim joins words from different quote sentences inside one clause"
    by_sent: dict[int, list[int]] = {}
    for k, (si, _) in enumerate(chosen):
        by_sent.setdefault(si, []).append(k)
    for si, parts in by_sent.items():
        qi, a, b = sents[si]
        spans = [(min(chosen[k][1]), max(chosen[k][1])) for k in parts]
        used: set[int] = set()
        for k in parts:
            if used & set(chosen[k][1]):
                return "two parts of the claim rest on the same quote words"
            used.update(chosen[k][1])
        order = sorted(range(len(parts)), key=lambda x: spans[x][0])
        for x, y in itertools.pairwise(order):
            if spans[x][1] >= spans[y][0]:
                return "two parts of the claim interleave in the quote"
        # a moved clause: two parts, one of them subordinate ("Y if X" / "If X, Y")
        if order != list(range(len(parts))) and not (len(parts) == 2 and any(c.sub[segs[k][0]] for k in parts)):
            return "the claim's parts stand in another order in the quote"
        why = _gaps_ok(quotes[qi], a, b, used)
        if why:
            return why
    at.extend((sents[si][0], x) for si, xs in chosen for x in xs)
    return None


# --- the claim check's side: its word lists, its analysis of quotes --------------------------
_TABLES = Tables(quant=_QUANT, modal=_MODAL, ordinals=frozenset(_ORDINALS),
                 number_words=frozenset(_QUOTE_NUMBER_WORDS), implicit=_IMPLICIT_NEG_STEMS)
_EQUIVALENT_STEMS = frozenset(EQUIVALENT) | frozenset(EQUIVALENT.values())


def _word_class_of(w: str) -> tuple[str, tuple[str | None, bool, int], bool]:
    st = stem(w)
    cls = _word_class.__wrapped__(w, st, _TABLES)  # (the memo below keeps it: no second cache by three keys)
    return st, cls, w in _HAVE or w in _NEED or cls[0] == "between"  # (items: a word read with the next)


# _word_class of a word with the claim check's tables, by the word alone (its stem kept to
# check): one dict look-up per word, where the lru_cache hashes a key of three.
_WORD_CLASS = _Memo(_word_class_of, 65536)


def _quote_items(t: _Text) -> _Items:
    """The items of an analysed quote; read through ``derived`` (kept with the analysis, so
    built once per quote however many claims cite it)."""
    return items(t, False, _TABLES)


# The last claim's items: a claim is often checked against several quotes in a row, and its
# analysis (cached by ``analysis._analyse_claim``) is then the same object. Held as one tuple
# (replaced whole, so threads never read a half-written pair); nothing changes an analysis.
_last_claim_items: tuple[_Text | None, _Items | None] = (None, None)


def _claim_items(claim: _Text) -> _Items:
    global _last_claim_items
    last, its = _last_claim_items
    if last is not claim or its is None:
        its = items(claim, True, _TABLES)
        _last_claim_items = (claim, its)
    return its


_PRESENT_BE = frozenset({"is", "are", "am"})
_PAST_BE = frozenset({"was", "were"})
# "be" contracted onto its subject: "I'm" is "I am", "they're" is "they are" (never another
# word). Not "'s": it may be "is", "has" or a possessive.
_BE_CONTRACTIONS = (("'m", "am"), ("\u2019m", "am"), ("'re", "are"), ("\u2019re", "are"))


def _be_forms(words: set[str]) -> set[str]:
    """The forms of "be" among lower-case ``words``, a contraction ("i'm", "we're", "wasn't")
    read as the form it holds."""
    forms = words & (_PRESENT_BE | _PAST_BE)
    for w in words:
        if "'" in w or "\u2019" in w:
            forms.update(full for tail, full in _BE_CONTRACTIONS if w.endswith(tail) and len(w) > len(tail))
            if w[-3:] in ("n't", "n\u2019t") and w[:-3] in _PRESENT_BE | _PAST_BE:
                forms.add(w[:-3])
    return forms


def be_tense_change(mine: set[str], theirs: set[str]) -> tuple[str, str] | None:
    """(the claim's form of "be", the tense its quotes use instead) when the claim's words
    ``mine`` say "is" where the quotes' words ``theirs`` only say "was", or the reverse ("my
    ancestor was one of them" does not show "is one of them"; "I'm in a basement" does not
    show "I'm was in a basement"); else None. A contraction counts as the form it holds
    (``_be_forms``). "be" is no item, so a proof alone would not see it."""
    mine, theirs = _be_forms(mine), _be_forms(theirs)
    for said, other, when in ((_PAST_BE, _PRESENT_BE, "the present"), (_PRESENT_BE, _PAST_BE, "the past")):
        if said & mine and not said & theirs and other & theirs:
            return min(said & mine), when
    return None


def _tense_changed(claim: _Text, qs: list[_Text]) -> str | None:
    change = be_tense_change(claim.lowset, union(qs, "lowset"))
    return f'the claim says "{change[0]}" where its quote says it in {change[1]} only' if change else None


def _after_be(t: _Text, k: int) -> bool:
    """Is the word at ``k`` a participle after a form of "be" ("is killed", "was quickly
    killed")?"""
    low = t.low
    return (k > 0 and low[k - 1] in _BE) or (k > 1 and low[k - 2] in _BE and low[k - 1].endswith("ly"))


_OBJECT_PRONOUNS = frozenset({"it", "them", "him", "her", "us", "me", "you"})


def _active_on_pronoun(t: _Text, j: int) -> bool:
    """The word at ``j`` in the active with a pronoun for its object ("kills it"): no gap in
    a proof (a pronoun is no item), yet read as a passive the subject's role turns."""
    return not _after_be(t, j) and j + 1 < len(t.low) and t.low[j + 1] in _OBJECT_PRONOUNS


def _passive_of_active(claim: _Text, its: _Items, qs: list[_Text]) -> str | None:
    """A claim verb in the passive ("the process is killed") proven only by the quote's active
    on a pronoun ("the process kills it"; ``_active_on_pronoun``). With "by" in the claim the
    agent is an item the proof placed."""
    if "by" in claim.lowset:
        return None
    for i, k in enumerate(its.keys):
        p = its.pos[i]
        w = claim.low[p]
        if not k[:1].isalpha() or ":" in k or not (w.endswith(("ed", "en")) or w in _IRREGULAR_BASE) \
                or not _after_be(claim, p):
            continue  # (a participle after "be"; "is available" is no passive)
        at = [(t, j) for t in qs for j in t.positions.get(k, ())]
        if at and all(_active_on_pronoun(t, j) for t, j in at):
            return its.words[i]
    return None


# A sentence that asks (ends in "?"), up to the end of the one before it.
# A question: a run of characters up to a "?" that starts where a sentence does (at the start
# or after ". ! ? newline"). The look-behind keeps it linear: without it the engine tried every
# position of a long sentence ending in "." again (quadratic; the same matches).
_QUESTION = re.compile(r"(?<![^.!?\n])[^.!?\n]*\?+")

# Words that say a statement is false or unproven ("Death Hoax", "debunked", "a myth",
# "reportedly"): in a quote that the claim copies around them, the quote may deny or only
# report what the claim asserts. The claim must carry the word itself to be proven.
_DENIALS: dict[str, str] = {}
for _w in (
    "hoax", "hoaxes", "myth", "myths", "rumor", "rumors", "rumour", "rumours", "rumored", "rumoured", "debunk",
    "debunked", "debunks", "fake", "faked", "untrue", "falsely", "misconception", "alleged", "allegedly",
    "reportedly", "purportedly", "supposedly", "unconfirmed", "unverified", "satire", "satirical"):
    _DENIALS.setdefault(stem(_w), _w)  # a stem -> its first word, named in the note


def _denial_word(claim: _Text, qs: list[_Text]) -> str | None:
    """A denial word (``_DENIALS``) the claim lacks, in a quote sentence (to its ".", "!" or
    "?": a headline's colon does not end it) that holds at least half of the claim's content
    words - the sentence the claim was copied from."""
    have = claim.stemset
    if not any(st in _DENIALS for t in qs for st in t.stemset if st not in have):
        return None
    mine = {claim.stems[k] for k in range(len(claim.raw)) if claim.content[k]}
    for t in qs:
        found: str | None = None
        shared = 0
        for k, st in enumerate(t.stems):
            if t.raw[k] in (".", "!", "?"):
                if found and 2 * shared >= len(mine):
                    return found
                found, shared = None, 0
                continue
            if st in _DENIALS and st not in have:
                found = found or _DENIALS[st]
            elif t.content[k] and st in mine:
                shared += 1
        if found and 2 * shared >= len(mine):
            return found
    return None


def _lows_by_stem(t: _Text) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for st, w in zip(t.stems, t.low):
        out.setdefault(st, set()).add(w)
    return out


def _lookalike(its: _Items, qs: list[_Text]) -> tuple[str, str] | None:
    """A claim word proven only by a quote word of the same light stem that is no form of it
    ("Hall" by "Hale", "filling" by "filing"): (claim word, quote word), else None."""
    lows = union(qs, "lowset")
    for i, k in enumerate(its.keys):
        w = its.words[i].lower()
        if w in lows or i in its.nums or not k[:1].isalpha() or ":" in k or stem(w) != k:
            continue  # (a key other than the word's stem: a curated equivalence, "nearly" = "almost")
        seen: set[str] = set()
        for t in qs:
            seen |= derived(t, _lows_by_stem).get(k, set())
        if seen and not any(same_word(w, q) for q in seen):
            return its.words[i], min(seen)
    return None


# Forms of one word: a claim word is held by any of them in its place (the tense of "be" is
# ``be_tense_change``'s; "a"/"an" is one article spelt for the next sound). "had" and "did"
# are past forms of their own: "has a limit" does not show "had a limit".
_FORMS: dict[str, frozenset[str]] = {w: g for g in (
    frozenset(["is", "are", "am", "be", "been", "being", "was", "were"]), frozenset(["have", "has", "having"]),
    frozenset(["do", "does"]), frozenset(["a", "an"])) for w in g}
# After an article these say how many, and the article is part of that: "a few" (some) is not
# "few" (hardly any), "a number of" (several) is not "the number of" (how many).
_COUNTED = frozenset(["few", "little", "number", "lot", "couple"])
_FINITE = frozenset(["is", "are", "am", "was", "were", "has", "have", "had"])  # a tense of their own
# "it" points back to what "this" or "that" does, saying no more of it: "It should be 4 KiB to
# 1.5 GiB" / "This should be between 4 KiB and 1.5 GiB" (not the other way: "this" may pick
# out one of several things "it" could stand for)
_POINTS_BACK = {"it": frozenset(["it", "this", "that"])}
_DEMONSTRATIVE = frozenset(["this", "that", "these", "those"])
_AT_DATE = frozenset(["in", "on", "at"])  # before a date: its grain says which ("in May", "on 3 May")
_RANGE = frozenset(["to", "and", "through", "-", "\u2013"])  # between two numbers: the words of a range


def _regions(t: _Text, p: int | None, nx: int | None) -> list[tuple[int, int]]:
    """Token ranges of quote ``t`` between token ``p`` and token ``nx`` (either None: to the
    sentence's edge)."""
    raw, kinds = t.raw, t.kinds
    if p is not None and nx is not None and p < nx:
        return [(p + 1, nx)]
    out = []
    if p is not None:
        e, stop = p + 1, min(len(raw), p + 1 + MAX_ALIGN)  # (a sentence read so far at most: linear)
        while e < stop and not (kinds[e] == 0 and raw[e] in _SENT_END):
            e += 1
        out.append((p + 1, e))
    if nx is not None:
        s, stop = nx, max(0, nx - MAX_ALIGN)
        while s > stop and not (kinds[s - 1] == 0 and raw[s - 1] in _SENT_END):
            s -= 1
        out.append((s, nx))
    return out


def _unheld_words(claim: _Text, its: _Items, qs: list[_Text], qits: list[_Items],
                  at: list[tuple[int, int]]) -> Iterator[str]:
    """A word of the claim that is no item (a form of "be", "have" or "do", a pronoun, a
    preposition, "and", ...: the proof passes over them) that its quote does not write in
    its place - between the quote words matched to the claim items either side of it, or, at
    an edge of the claim or of a part taken from elsewhere, between the matched word and its
    sentence's edge - in any of its forms (``_FORMS``). "you add has plus the name" is not
    what "you add is plus the name" says. Each such word, in the claim's order."""
    if len(at) != len(its.keys):
        return  # (no mapping: nothing to compare)
    pos, low, kinds = its.pos, claim.low, claim.kinds
    heads = {n.pos for n in claim.numbers}
    dates = {n.pos: n.key.startswith("D:") for n in claim.numbers}
    tails = claim.tails
    j = 0
    spans_of, spans = -1, []  # type: int, list[tuple[int, int, int]]
    contexts: set[tuple[str, str, str]] | None = None  # (built when a word is not where the proof read it)
    align_at: dict[int, int] = {}
    al: list[str] = []
    for k in range(len(low)):
        while j < len(pos) and pos[j] < k:
            j += 1
        if kinds[k] != 1 or (j < len(pos) and pos[j] == k) or k in tails or k in heads:
            continue
        w = low[k]
        if _meaning_free(claim, k) or (w == "between" and k + 1 in heads):
            continue  # (a "between" opening a range is read with its numbers: "between 2 and 3" / "2 to 3")
        forms = _FORMS.get(w) or _POINTS_BACK.get(w) or (w,)
        prev = at[j - 1] if j else None
        nxt = at[j] if j < len(at) else None
        if j != spans_of:  # the quote stretch between the claim items either side (one per gap)
            spans_of, spans = j, []  # (quote number, first token, end) of each stretch
            if prev is not None and nxt is not None and prev[0] == nxt[0]:
                q = qits[prev[0]]
                spans = [(prev[0], a, b) for a, b in _regions(qs[prev[0]], q.pos[prev[1]], q.pos[nxt[1]])]
            else:
                if prev is not None:
                    spans += [(prev[0], a, b) for a, b in _regions(qs[prev[0]], qits[prev[0]].pos[prev[1]], None)]
                if nxt is not None:
                    spans += [(nxt[0], a, b) for a, b in _regions(qs[nxt[0]], None, qits[nxt[0]].pos[nxt[1]])]
        if w in _AT_DATE and dates.get(k + 1) and all(
                qs[qi].kinds[x] == 0 or qs[qi].low[x] in _AT_DATE for qi, a, b in spans for x in range(a, b)):
            continue  # "in May 2020" / "on 3 May 2020", "born on May 14" / "born 14 May": a date's own preposition
        if w in _RANGE and 0 < j < len(pos) and j - 1 in its.nums and j in its.nums:
            forms = _RANGE  # "4 KiB to 1.5 GiB" / "between 4 KiB and 1.5 GiB": one range
        if any(qs[qi].low[x] in forms and not (w in _FINITE and x and qs[qi].low[x - 1] in ("will", "shall"))
               for qi, a, b in spans for x in range(a, b)):
            continue  # (not "is" for "will be": "will be removed in 3.0" does not show "is removed in 3.0")
        if w in _ARTICLE and (k + 1 >= len(low) or low[k + 1] not in _COUNTED) \
                and not any(qs[qi].low[x] in _FREE and qs[qi].low[x] not in _ARTICLE and qs[qi].low[x] not in claim.lowset
                            and not (w == "the" and qs[qi].low[x] in _DEMONSTRATIVE)
                            for qi, a, b in spans if len(spans) == 1 for x in range(a, b)):
            # an article the claim adds or writes for the quote's ("the" for "that": one thing pointed
            # at), not in another word's place ("add a plus" for "add is plus")
            continue
        if w == "and" and prev is not None and nxt is not None and _and_held(claim, its, qs, qits, at, j, spans):
            continue
        if w == "that" and k and stem(low[k - 1]) in _THAT_CLAUSE and all(
                qs[qi].kinds[x] == 0 or x in qs[qi].tails for qi, a, b in spans for x in range(a, b)):
            continue  # "Beyer wrote that more than ..." / 'Beyer wrote, "More than ...': "that" opens what is said
        if w in _FINITE_BE and nxt is not None and _participle_clause(claim, k, pos[j], qs, qits, nxt, spans):
            continue
        if nxt is not None and not any(qs[qi].kinds[x] for qi, a, b in spans for x in range(a, b)) \
                and _relative_for_participle(claim, k, qs[nxt[0]].low[qits[nxt[0]].pos[nxt[1]]], pos[j]):
            continue
        if w in _RELATIVE and (k == 0 or claim.raw[k - 1] != ",") \
                and any(qs[qi].low[x] in _RELATIVE and x and qs[qi].raw[x - 1] != ","
                        for qi, a, b in spans for x in range(a, b)):
            continue  # "arguments that behave" for "arguments which behave": one restrictive clause
        if contexts is None:
            contexts = set().union(*(derived(t, _word_contexts) for t in qs))
            align_at = {x: i for i, x in enumerate(claim.align_pos)}
            al = [low[x] for x in claim.align_pos]
        a = align_at.get(k)
        if a is not None and (al[a - 1] if a else "", al[a], al[a + 1] if a + 1 < len(al) else "") in contexts:
            continue  # a quote writes it between the same words ("users of SSDs"), if not where the proof read it
        yield claim.raw[k]


def _word_contexts(t: _Text) -> frozenset[tuple[str, str, str]]:
    """Each word of a text's alignment sequence (as written, in lower case) with the words
    either side ("" at its ends)."""
    al = ("",) + tuple(t.low[x] for x in t.align_pos) + ("",)
    return frozenset(zip(al, al[1:], al[2:]))


def _passive_dropped(claim: _Text, its: _Items, qs: list[_Text], qits: list[_Items],
                     at: list[tuple[int, int]]) -> str | None:
    """The "be" of a passive the claim leaves out, stating the verb in the active: "the user
    is notified" does not show "the user notifies" (the roles turn round; the proof compares
    stems). Why, or None. (A "will" left out is not: "will fail" is the manuals' "fails".)"""
    if len(at) != len(its.keys):
        return None
    for j, (qi, m) in enumerate(at):
        q, x, k = qs[qi], qits[qi].pos[m], its.pos[j]
        if q.low[x].endswith(("ed", "en")) and _after_be(q, x) and not q.entity[x] \
                and not any(claim.low[y] in _BE for y in range(max(0, k - 3), k)) \
                and (claim.low[k] != q.low[x] or (k + 1 < len(claim.low) and claim.low[k + 1] in _OWN_PHRASE)):
            # (the same participle with no object after it is the passive cut short: "data marked as safe")
            return f'the claim\'s "{claim.raw[k]}" is not in the passive, as its quote\'s "{q.raw[x]}" is (who acts may have turned round)'
    return None


def small_word_changed(claim: _Text, its: _Items | None, texts: list[_Text], titems: list[_Items] | None = None,
                       where: str = "the quote") -> str | None:
    """When ``texts`` (a claim's quotes, or a judge's cited spans) prove the claim's items
    (``prove``): a small word the claim writes where they do not (``_unheld_words``) or a
    passive it states in the active (``_passive_dropped``), as a note; else None (a claim they
    do not prove word for word is another rule's to read). Read after the proof's other notes
    (``rules._not_as_written``), so a more telling one ("roles swapped?") comes first."""
    its = its if its is not None else _claim_items(claim)
    titems = titems if titems is not None else [derived(t, _quote_items) for t in texts]
    p = _proved(its, titems)
    if not p.ok:
        return None
    word = next(_unheld_words(claim, its, texts, titems, p.at), None)
    if word is not None:
        return f'the claim\'s "{word}" is not written in its place in {where} (a small word may change what it says)'
    return _passive_dropped(claim, its, texts, titems, p.at)


# "that" and "which" opening a restrictive clause (no comma before it) say the same; after a
# comma "which" adds a remark about all of what it follows ("the files, which are open")
# where "that" picks some out ("the files that are open").
_RELATIVE = frozenset(["that", "which"])


def _and_held(claim: _Text, its: _Items, qs: list[_Text], qits: list[_Items], at: list[tuple[int, int]], j: int,
              spans: list[tuple[int, int, int]]) -> bool:
    """Does the quote state what the claim's "and" before claim item ``j`` joins, where it
    does not write the "and"? Two statements the quote gives apart (another sentence, after a
    ";": "A; B" says A and B); two members of a list the quote parts by a comma and ends with
    "and" ("A, B and C" says A and B, as the proof reads a list: ``_list_members_left_out``);
    or the last member of a list whose members the quote parts by commas where the claim parts
    the earlier ones so too ("macros, super and self.BLOCKNAME" / "(macros, super,
    self.BLOCKNAME)"); not a single comma ("Tom, the president" names one man, "Tom and the
    president" two)."""
    prev, nxt = at[j - 1], at[j]
    if its.bnd[j] and its.strong[j] and (
            prev[0] != nxt[0] or qits[prev[0]].sent[prev[1]] != qits[nxt[0]].sent[nxt[1]]
            or any(qs[qi].raw[x] in _STRONG and qs[qi].kinds[x] == 0 for qi, a, b in spans for x in range(a, b))):
        return True
    between = [qs[qi].raw[x] for qi, a, b in spans for x in range(a, b)]
    if len(spans) != 1 or not between or between[-1] != ",":
        return False
    q = qs[nxt[0]]
    for z in range(qits[nxt[0]].pos[nxt[1]] + 1, len(q.raw)):
        if (q.kinds[z] == 0 and q.raw[z] in _STRONG) or q.low[z] in ("or", "but"):
            break
        if q.low[z] == "and":
            return True  # "has a size of 2 bytes and uses 2 channels" / "has a size of two bytes (16 bits), uses two channels and ..."
    if between != [","]:
        return False
    # the claim's comma before the member the "and" ends, and the quote's at the same place
    raw, pos = claim.raw, its.pos
    k = pos[j] - 1
    while k >= 0 and raw[k] in (",", "and"):
        k -= 1
    while k >= 0 and raw[k] != "," and (claim.kinds[k] == 0 or k in pos):
        k -= 1
    if k < 0 or raw[k] != ",":
        return False
    i = next((x for x in range(j) if pos[x] > k), None)
    if i is None or i == 0 or at[i - 1][0] != at[i][0] or at[i][0] != prev[0]:
        return False
    qi, quote = qits[at[i][0]], qs[at[i][0]]
    return [quote.raw[x] for x in range(qi.pos[at[i - 1][1]] + 1, qi.pos[at[i][1]])] == [","]


_FINITE_BE = frozenset(["is", "are", "was", "were"])
# verbs whose object may be a clause opened by "that" ("wrote that X", "ensures that X"): the
# "that" only opens it, and their quote may write it without ("wrote, \"X\"", "ensures X")
_THAT_CLAUSE = _ATTRIBUTION | frozenset(stem(w) for w in (
    "write", "wrote", "written", "writes", "state", "states", "stated", "note", "notes", "noted", "explain",
    "explains", "explained", "mention", "mentions", "mentioned", "warn", "warns", "warned", "show", "shows",
    "showed", "shown", "ensure", "ensures", "ensured", "mean", "means", "meant", "assume", "assumes", "assumed",
    "require", "requires", "required", "guarantee", "guarantees", "guaranteed", "specify", "specifies",
    "specified", "check", "checks", "checked", "verify", "verifies", "verified", "know", "knows", "knew",
    "known", "find", "finds", "found", "notice", "notices", "noticed"))


def _participle_clause(claim: _Text, k: int, at: int, qs: list[_Text], qits: list[_Items], nxt: tuple[int, int],
                       spans: list[tuple[int, int, int]]) -> bool:
    """Is the claim's "is" at ``k`` the predicate of a participle clause its quote sets off by
    a comma right after the same subject: "The store is located on Elm Street" / "The store,
    located on Elm Street, opens at nine" (the clause states it of the store)? The claim's
    next word (after "also") must be the quote's participle, written alike."""
    q = qs[nxt[0]]
    x = qits[nxt[0]].pos[nxt[1]]
    word = q.low[x]
    between = [q.low[y] for _, a, b in spans for y in range(a, b)]
    low = claim.low
    rest = [low[y] for y in range(k + 1, at)]
    return (len(spans) == 1 and between[:1] == [","] and all(w in ("also", ",") for w in between[1:])
            and all(w == "also" for w in rest) and low[at] == word
            and (word.endswith(("ed", "en")) or word in _IRREGULAR_BASE))


def _relative_for_participle(claim: _Text, k: int, quoted: str, at: int) -> bool:
    """Is the claim's word at ``k`` part of a restrictive relative clause that spells out the
    participle its quote writes right after the same noun, nothing between: "callbacks that
    take longer" / "callbacks taking longer", "data that is marked as safe" / "data marked as
    safe"? ``quoted`` is the quote's word for the claim's item at ``at``."""
    low = claim.low
    rel = k if low[k] in _RELATIVE_WORDS else k - 1 if low[k] in _BE and k else -1
    if rel < 0 or low[rel] not in _RELATIVE_WORDS or (rel and claim.raw[rel - 1] == ","):
        return False
    if at == rel + 1:  # "that take" for "taking"
        return quoted.endswith("ing") and not low[at].endswith("ing")
    # "that is marked" for "marked"
    return at == rel + 2 and low[rel + 1] in _BE and quoted == low[at] and quoted.endswith(("ed", "en"))


_RELATIVE_WORDS = frozenset(["that", "which", "who"])


def _meaning_free(claim: _Text, k: int) -> bool:
    """Is the claim's word at ``k`` one that states nothing wherever it stands? The claim's
    opening "well" (an interjection: "well, skiing is ...") or "and" (it goes on from words
    before it: "and X was ..." states X was); "also" (it adds only that
    something else is so too: "X is also Y" states what "X is Y" does); an "'s" written
    apart from its word (the analysis drops one written onto it, in quotes too); the "to" of
    "has to" / "needs to" (read with them as "must"); "do"/"does"/"did" before a negator
    (it carries only the "not": "does not have to" / "need not")."""
    low, raw = claim.low, claim.raw
    w = low[k]
    if w == "also":
        return True
    if w in ("well", "and"):  # opening the claim: "and Luis von Ahn was ..." continues a text, saying nothing
        return all(claim.kinds[x] == 0 for x in range(k)) and (k + 1 >= len(raw) or raw[k + 1] != "-")
    if w == "s":
        return k > 0 and raw[k - 1] in ("'", "\u2019")
    if w == "to":
        return k > 0 and (low[k - 1] in _HAVE or low[k - 1] in _NEED)
    if w in ("do", "does", "did"):
        return k + 1 < len(low) and claim.neg[k + 1]
    return False


# The last proof with APPROX: a claim the rules show supported is proved again, against the
# same items, by ``small_word_changed`` (``rules._not_as_written``). ``prove`` reads nothing but
# its arguments (items are never changed once built; a quote's sentence index is built once),
# so the same objects give the same proof. Held as one tuple, replaced whole (see
# ``_last_claim_items``); it keeps its items alive, so no other object can take their ids.
_last_proof: tuple[_Items | None, tuple[_Items, ...], Proof | None] = (None, (), None)


def _proved(its: _Items, titems: list[_Items]) -> Proof:
    """``prove(its, titems, APPROX)``, reused when the last call had the same items."""
    global _last_proof
    last, last_titems, p = _last_proof
    if p is None or last is not its or len(last_titems) != len(titems) \
            or any(a is not b for a, b in zip(last_titems, titems)):
        p = prove(its, titems, APPROX)
        _last_proof = (its, tuple(titems), p)
    return p


def _prove(claim: _Text, quotes: list[str], analysed: list[_Text] | None = None) -> ClaimCheck:
    """``supported`` only when every word of the claim is shown by its quotes. ``analysed``:
    the quotes' analyses when the caller has them (``check_claim``): a pair citing more
    quotes than ``analysis._analyse_quote`` caches would otherwise analyse each twice."""
    its = _claim_items(claim)
    if not its.keys:
        return ClaimCheck(ClaimStatus.SUPPORTED, "no_claim", "the claim states nothing of its own")
    # most claims that cannot be shown have a word no quote has: say so before the quotes'
    # items are built
    qs = analysed if analysed is not None else [_analyse_quote(q) for q in quotes]
    have = union(qs, "stemset")
    missing = [its.words[i] for i, k in enumerate(its.keys) if k[0].isalpha() and ":" not in k
               and k not in have and k not in _EQUIVALENT_STEMS and i not in its.nums]
    if missing:
        return ClaimCheck(ClaimStatus.UNCHECKED, None, "not in its quotes: " + ", ".join(dict.fromkeys(missing)))
    p = _proved(its, [derived(t, _quote_items) for t in qs])
    if p.ok and "?" not in claim.raw and any("?" in q for q in quotes):
        # a question states nothing ("Macaulay Culkin Dead?"): prove again without them
        asserted = [_QUESTION.sub(" ", q) for q in quotes]
        if asserted != quotes and not prove(its, [derived(_analyse_quote(q), _quote_items) for q in asserted if q.strip()],
                                             APPROX).ok:
            return ClaimCheck(ClaimStatus.UNCHECKED, None, "the quote only asks it: a question states nothing")
    if p.ok:
        denial = _denial_word(claim, qs)
        if denial is not None:
            return ClaimCheck(ClaimStatus.UNCHECKED, None, f'a quote calls something "{denial}" that the claim does '
                              'not: it may deny what the claim repeats')
        tense = _tense_changed(claim, qs)
        if tense is not None:
            return ClaimCheck(ClaimStatus.UNCHECKED, None, tense)
        passive = _passive_of_active(claim, its, qs)
        if passive is not None:
            return ClaimCheck(ClaimStatus.UNCHECKED, None, f'the claim says "{passive}" in the passive where the quote '
                              'has it in the active (who does it may have changed)')
        odd = _lookalike(its, qs)
        if odd is not None:
            return ClaimCheck(ClaimStatus.UNCHECKED, None, f'the claim\'s "{odd[0]}" only looks like the quote\'s '
                              f'"{odd[1]}" (the same stem, not the same word)')
        if p.copy:
            return ClaimCheck(ClaimStatus.SUPPORTED, "copy", "the claim repeats the quote")
        return ClaimCheck(ClaimStatus.SUPPORTED, "proof", p.note)
    return ClaimCheck(ClaimStatus.UNCHECKED, None, p.note)

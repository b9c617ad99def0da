"""The ``negation`` rule: a claim that negates what its quote states, or the reverse (by
negated segment, and inside an aligned near copy)."""

from __future__ import annotations

from bisect import bisect_left
from itertools import compress

from . import lexicon
from .contradiction import (
    _DENYING,
    _grey,
    lexical_negation,
    negation_verdict,
    negative_scale_word,
    sentence_bounds,
    verdict,
)
from .types import _NUM, _WORD, ClaimCheck, ClaimStatus, _Text, derived
from .words import (
    _ANTONYMS,
    _CLAUSE_WORDS,
    _IMPLICIT_NEG_STEMS,
    _NEG_PHRASE_WORDS,
    _NEG_SKIP_AFTER,
    _NEGATORS,
    _NUMBER_WORDS,
    stem,
)

WINDOW = 6  # tokens around a negation searched for shared context
# words that negate by their meaning: implicit negations and the denying words ("off", "unset")
_MEANS_NOT = _IMPLICIT_NEG_STEMS | _DENYING


_PRONOUNS = frozenset({"none", "nothing", "nobody", "neither"})
_JOINS = frozenset({"and", "or", "but", ",", ";", ":", ".", ")"})


def _segment(t: _Text, k: int) -> list[int]:
    """Positions of the content words a negator at k negates: up to the clause end, at most
    four; an explicit negator ends it. A negator that stands as a pronoun, the object of the
    verb before it ("finds none and 2 when ...", "found nothing, so ..."), negates no word
    after it: what follows a conjunction or a stop is another statement."""
    out: list[int] = []
    c = t.clause[k]
    j = k + 1
    n = len(t.raw)
    if t.low[k] in _PRONOUNS and (j >= n or t.low[j] in _JOINS):
        return out
    while j < n and t.clause[j] == c and len(out) < 4:
        if t.neg[j]:
            break
        if t.content[j]:
            out.append(j)
        j += 1
    return out


def _window(t: _Text, k: int, exclude: set[str]) -> set[str]:
    lo, hi = max(0, k - WINDOW), min(len(t.raw), k + WINDOW + 1)
    return {t.stems[j] for j in range(lo, hi) if t.content[j] and t.stems[j] not in exclude}


def _negation_matches(src: _Text, k: int, dst_list: list[_Text], src_fully_covered: bool):
    """A negator at src position k whose negated words stand, in some dst, in a clause
    without negation (and nowhere negated). Returns (negated word, negator, the segment's
    positions, that dst, the position there) if so."""
    seg = _segment(src, k)
    if not seg:
        return None
    if k + 1 < len(src.low) and src.low[k + 1] == "like" and src.low[k] in _VERB_NEGATORS \
            and not any(dst.lowset & _LIKE for dst in dst_list):
        return None  # "he doesn't like being my roommate": the verb negated is "like" (a stop
        # word elsewhere, so the segment would start at "roommate"); another side without it
        # says something else ("his roommate Rick"), not the opposite
    head = src.stems[seg[0]]
    seg_stems = {src.stems[j] for j in seg}
    need = min(2, len(seg_stems))
    occs = [(dst, j) for dst in dst_list for j in dst.positions.get(head, ())]
    if not occs or any(_negated_at(dst, j) or _weakly_negated(dst, j) or _complement_follows(dst, j)
                       or _subject_of_negation(dst, j) or _taken_away_with_modifiers(dst, j, src)
                       or _after_or_not(dst, j) for dst, j in occs):
        return None  # absent, or negated there too: consistent
    if _adverb_negated(head, dst_list):
        return None  # "could not have a lawful marriage" / "this won't be lawfully recognised"
    if len(head) >= 4 and any(_begins_a_word(dst, p + head) for dst in dst_list for p in _NEG_PREFIXES):
        return None  # "no symptoms" / "asymptomatic": the other side negates by a prefix
    negator = "no longer" if src.low[k] == "longer" and k and src.low[k - 1] == "no" else \
        src.raw[k] + " to" if src.low[k] in _NEG_PHRASE_WORDS and src.low[k] != "longer" else src.raw[k]
    ctx_src = _window(src, k, seg_stems)
    for dst, j in occs:
        c = dst.clause[j]
        if _negated_by_relative(dst, j):
            continue  # "no place where a home will rent ...": negated from an earlier clause
        if _in_comparison(dst, j):
            continue  # "more jobs in solar than in coal" / "jobs are in solar, not coal"
        if _modifier_participle(dst, j):
            continue  # "commonly used drugs" / "have never been used to negotiate": another role
        if _belief_then_contrasted(dst, j):
            continue  # "Many people assume multitasking is great. However, ...": a view the text rebuts
        lo, hi = max(0, j - 2 * WINDOW), min(len(dst.raw), j + 2 * WINDOW)
        near = {dst.stems[x] for x in range(lo, hi) if dst.clause[x] == c or abs(x - j) <= 4}
        if len(seg_stems & near) < need:
            continue
        if need >= 2 or src_fully_covered or ctx_src & _window(dst, j, seg_stems):
            return src.raw[seg[0]], negator, seg, dst, j
    return None


_LIKE = frozenset({"like", "likes", "liked", "liking"})


def _predicate_denied(t: _Text, j: int) -> bool:
    """Is the word at j the subject of a predicate a verb negator denies, right after it in its
    clause ("reindexing is not necessary", "the lock isn't held")? A claim's "without X" then
    restates a denial the quote makes of X's clause, not one it adds. (Only "without": "neither
    A nor B may" for "A must not" still says more than the quote, of B.)"""
    return any(t.neg[y] and t.low[y] in _VERB_NEGATORS and t.clause[y] == t.clause[j]
               for y in range(j + 1, min(len(t.raw), j + 4)))


def _after_or_not(t: _Text, j: int) -> bool:
    """Does the word at j follow "or not" in its clause, with no word of substance between
    ("True if called with a different value (or not called at all)", "whether or not it is
    called")? The analysis takes no "not" after "or" for a negator (it may leave the question
    open), yet the text does not state the word unnegated there: it denies it as the
    alternative, or leaves it open."""
    for x in range(j - 1, max(0, j - 4), -1):
        if t.clause[x] != t.clause[j] or t.content[x]:
            return False
        if t.low[x] == "not" and t.low[x - 1] == "or":
            return True
    return False


def _adverb_negated(head: str, dst_list: list[_Text]) -> bool:
    """Does some other side negate the same word as an adverb in "-ly", or as the adjective of
    the negated adverb ("lawful" / "won't be lawfully recognised")? The light stemmer keeps the
    two apart (an adverb often says another thing than its adjective), but a negation on
    either is a negation of the word: the other side negates it too."""
    if len(head) < 4 or not head.isalpha():
        return False
    other = head[:-2] if head.endswith("ly") else head + "ly"
    return any(_negated_at(dst, j) for dst in dst_list for j in dst.positions.get(other, ()))


_BELIEVING = frozenset({"assume", "assumes", "assumed", "believe", "believes", "believed", "think", "thinks",
                        "thought"})
_REBUTTING = frozenset({"however", "but", "actually"})


def _belief_then_contrasted(t: _Text, j: int) -> bool:
    """Is the word at j what somebody assumes or believes ("Many people assume multitasking
    is a great way to get more done"), a verb of belief at most three tokens before it in its
    clause, and does the text turn against it by the end of the next sentence ("However,
    focusing on multiple tasks at once actually makes you less productive")? The text reports
    a view to rebut it; it does not state the word."""
    c = t.clause[j]
    if not any(t.low[x] in _BELIEVING and t.clause[x] == c for x in range(max(0, j - 3), j)):
        return False
    _lo, hi = sentence_bounds(t, j)
    if hi < len(t.raw):
        _lo, hi = sentence_bounds(t, hi)
    return any(t.low[x] in _REBUTTING for x in range(j + 1, hi))


def _begins_a_word(t: _Text, prefix: str) -> bool:
    """Does a word of ``t`` (lower case) begin with ``prefix``? (by bisection of its sorted
    words, kept with the text: a long quote is not scanned for each claim)"""
    words = derived(t, _sorted_words)
    i = bisect_left(words, prefix)
    return i < len(words) and words[i].startswith(prefix)


def _sorted_words(t: _Text) -> list[str]:
    return sorted(t.lowset)


def _modifier_participle(t: _Text, j: int) -> bool:
    """Is the word at j a participle used as an adjective, between an adverb in -ly and the
    noun it describes ("commonly used prescription drugs")? It names a kind of thing, not an
    event a negation elsewhere denies."""
    return 0 < j < len(t.raw) - 1 and t.low[j].endswith("ed") and t.low[j - 1].endswith("ly") \
        and not t.neg[j - 1] and t.content[j + 1] and t.kinds[j + 1] == _WORD and t.clause[j + 1] == t.clause[j]


_NEG_PREFIXES = ("a", "un", "non", "in", "dis")


# verbs that state the absence of their object, as a negation would
_TAKING_AWAY = frozenset({"remove", "removes", "removed", "removing", "eliminate", "eliminates", "eliminated",
                          "eliminating", "lift", "lifts", "lifting"})
_HOLDING_BACK = frozenset({"keep", "keeps", "keeping", "kept", "prevent", "prevents", "prevented", "preventing",
                           "stop", "stops", "stopped", "stopping"})
# "keep X out" / "keep X away" denies that X gets in / near, as "keep X from" does
_KEPT_OUT = frozenset({"out", "away"})
_LEAVING = frozenset({"leave", "leaves", "leaving", "left"})
_LEFT_AS_IS = frozenset({"alone", "untouched", "intact", "unchanged", "unmodified", "unaffected"})


def _weakly_negated(t: _Text, j: int) -> bool:
    """Is the word at j said to be scarce, impossible or untouched by words the negation
    reader does not take for a negator: "little change" (not "a little"), "too hot to grow
    grain", "leaving the working tree alone"?"""
    if j and t.low[j - 1] in ("little", "few") and (j < 2 or t.low[j - 2] != "a"):
        return True
    c = t.clause[j]
    if any(t.low[x] in _LEFT_AS_IS and t.clause[x] == c for x in range(j + 1, min(len(t.raw), j + 5))) and \
            any(t.low[x] in ("leave", "leaves", "leaving", "left", "keep", "keeps", "keeping", "kept")
                for x in range(max(0, j - 4), j)):
        return True  # "leaving the working tree alone" / "but not the working tree"
    for x in range(j - 1, max(-1, j - 7), -1):
        if t.clause[x] != c:
            break
        if t.low[x] == "too" and "to" in t.low[x + 1:j]:
            return True
    if t.low[j] not in _TAKING_AWAY and t.low[j - 1:j] not in (("from",), ("of",)) and any(
            t.low[x] in _TAKING_AWAY and not any(t.content[y] for y in range(x + 1, j))
            for x in range(max(0, j - 3), j)):
        return True  # "removes the limit" / "no limit" (the object right after the verb)
    if j >= 2 and t.low[j - 1] == "from" and any(
            t.low[x] in _HOLDING_BACK and t.clause[x] == c for x in range(max(0, j - 6), j - 1)):
        return True  # "keep the server from thrashing" / "does not thrash"
    if any(t.low[x] in _LEAVING for x in range(max(0, j - 3), j)) and \
            "out" in t.low[j + 1:j + 3]:
        return True  # "leave suEXEC out of the installation" / "not make suEXEC part of it"
    # "out of reach", "beyond reach": out of what the word names
    return (j >= 2 and t.low[j - 1] == "of" and t.low[j - 2] == "out") or (j >= 1 and t.low[j - 1] == "beyond")


_TAKEN_AWAY_STEMS = frozenset(stem(w) for w in _TAKING_AWAY)


def _taken_away_with_modifiers(t: _Text, j: int, negated: _Text) -> bool:
    """Is the word at j the head of the object of a verb that takes it away, its modifiers
    between ("removes the overflow limit" / "no overflow limit": within four tokens, one
    clause, no stop)? The words between must be function words or words the negated side
    writes too, so that the object is the negated words themselves; "removes the limit"
    (nothing between) is ``_weakly_negated``'s."""
    if t.low[j] in _TAKING_AWAY or t.stems[j] in _TAKEN_AWAY_STEMS:
        return False  # "Removing listeners removes ...": the word is the verb itself
    c = t.clause[j]
    for x in range(j - 1, max(-1, j - 5), -1):
        if t.clause[x] != c or t.kinds[x] != _WORD:
            return False
        if t.low[x] in _TAKING_AWAY:
            return x < j - 1 and any(t.content[y] for y in range(x + 1, j))
        if t.content[x] and t.stems[x] not in negated.stemset:
            return False
    return False


_CONDITIONS = frozenset({"if", "when", "whenever", "unless"})
_COMPLEMENTS = frozenset({"otherwise", "else"})


def _complement_follows(t: _Text, j: int) -> bool:
    """Is the word at j in a condition ("if defined") that the text follows with its
    complement ("Otherwise it uses ...")? The text then speaks of the case where it does
    not hold too: "only if $HOME is not defined" restates the "otherwise"."""
    if _COMPLEMENTS.isdisjoint(t.lowset):
        return False
    c = t.clause[j]
    if not any(t.low[x] in _CONDITIONS for x in range(max(0, j - 6), j) if t.clause[x] in (c, c - 1)):
        return False
    return any(w in _COMPLEMENTS for w in t.low[j + 1:])


_ELIDED_VERBS = frozenset({"do", "does", "did", "is", "are", "was", "were", "can", "will", "may", "might", "could",
                           "would", "should", "has", "have", "had"})
_ENDS = frozenset({".", ",", ";", ":", ")", "?", "!", "\u2014"})


def _or_not_elided(t: _Text, j: int) -> bool:
    """Is ``j`` in an embedded question that names both branches - "whether" before it (within
    eight tokens, no stop between) and "or not" / "or does not" after it before the next stop
    ("test whether strings are equal or not equal", "whether a regular expression matches or
    does not")? The text asks which branch holds and asserts neither, so a negation on the
    other side ("not equal", "not match") drops or adds nothing it says. ("Every repository,
    bare or not, has ..." asserts what follows of both branches: no question, left to flag.)"""
    lo, hi = sentence_bounds(t, j)
    for x in range(j - 1, max(lo - 1, j - 9), -1):
        if t.raw[x] in _ENDS:
            return False
        if t.low[x] == "whether":
            break
    else:
        return False
    for x in range(j + 1, hi):
        if t.raw[x] in _ENDS or t.low[x] in _CLAUSE_JOINS:
            return False
        if t.low[x] in ("not", "n't") and (t.low[x - 1] == "or" or t.low[x - 1] in _ELIDED_VERBS and t.low[x - 2] == "or"):
            return True
    return False


def _under_whether(t: _Text, j: int) -> bool:
    """Is ``j`` in a clause opened by "whether" - before it within eight tokens of its sentence,
    no stop or clause word between ("checks whether the file exists", "should be used
    regardless of whether they are in common use")? Such a clause names a case and asserts it
    no more than its opposite: a question left open, or a statement made of both branches
    ("regardless of whether X" holds when X does not)."""
    lo, _hi = sentence_bounds(t, j)
    for x in range(j - 1, max(lo - 1, j - 9), -1):
        if t.raw[x] in _ENDS or t.low[x] in _CLAUSE_JOINS:
            return False
        if t.low[x] == "whether":
            return True
    return False


def _asks_before(t: _Text, k: int) -> bool:
    """Does a "whether" or an "if" (not the concessive "even if") stand before ``k`` in its
    sentence ("test if a variable is defined, not empty")? That side asks a question too: its
    negated case set against the other side's "whether" is another question, not a case both
    branches cover."""
    lo, _hi = sentence_bounds(t, k)
    return any(t.low[x] == "whether" or t.low[x] == "if" and (x == 0 or t.low[x - 1] != "even")
               for x in range(lo, k))


# words that put forward what follows as a guess or a story, not as a fact: "theorizing these
# drugs might increase", "speculation that", "rumoured to", "allegedly"
_GUESSING = frozenset(stem(w) for w in (
    "theorize", "theorizing", "theorise", "theorising", "speculate", "speculated",
    "speculating", "speculation", "hypothesize", "hypothesized", "hypothesise", "hypothesised", "hypothesis",
    "conjecture", "conjectured", "rumor", "rumors", "rumored", "rumour", "rumours", "rumoured", "alleged",
    "allegedly", "purportedly", "supposedly", "hoax", "myth"))


def _guessed(t: _Text, j: int, other: _Text) -> str | None:
    """A word before ``j`` in its sentence that puts the statement forward as a guess or a
    story ("Despite some early report theorizing these drugs might play a role to increase
    COVID-19 mortality, ..."), which the other side does not write: the text does not assert
    the words there, so the other side's negation of them drops or adds nothing it says. The
    word, or None."""
    lo, _hi = sentence_bounds(t, j)
    for x in range(lo, j):
        if t.kinds[x] == _WORD and t.stems[x] in _GUESSING and t.stems[x] not in other.stemset:
            return t.raw[x]
    return None


_DIFFERENTLY = frozenset({"differently", "different"})
_THAN = frozenset({"than", "from", "to"})
_AS = frozenset({"as", "like"})


def _said_differently(neg_side: _Text, h: int, plain: _Text, j: int) -> bool:
    """Does the negated head at ``h`` go on with "as" / "like" ("might not behave as you
    expect") where the plain side goes on, within four tokens of ``j`` in its clause, with
    "differently than / from" ("may behave differently than expected")? "V differently than X"
    is "not V as X": both deny the same manner."""
    if _AS.isdisjoint(neg_side.low[h + 1:h + 4]):
        return False
    n = len(plain.raw)
    return any(plain.low[x] in _DIFFERENTLY and plain.low[x + 1] in _THAN and plain.clause[x] == plain.clause[j]
               for x in range(j, min(n - 1, j + 5)))


# what makes a sentence speak of a case, not state a fact ("a method so named would overwrite it",
# "if a method has that name, it overwrites it")
_HYPOTHETICAL = frozenset({"if", "when", "whenever", "would", "could", "might"})


def _otherwise_case(neg_side: _Text, k: int, plain: _Text, j: int) -> str | None:
    """Does the negator at ``k`` stand before "otherwise" / "else" in its sentence ("the method
    must not have the attribute's name, otherwise it would overwrite the definition"), and does
    the plain side state, in the sentence of ``j``, a content word of what follows it that the
    negated side does not write before it, in a sentence that speaks of a case (``_HYPOTHETICAL``:
    "a method named like the attribute would overwrite the definition") and has no "otherwise"
    of its own after ``j``? "not P, otherwise Q" says "if P, then Q": the plain side's P stands
    in the case the "otherwise" names. That word, else None."""
    lo, hi = sentence_bounds(neg_side, k)
    at = next((x for x in range(k + 1, hi) if neg_side.low[x] in _COMPLEMENTS), None)
    if at is None:
        return None
    before = set(neg_side.stems[lo:at])
    plo, phi = sentence_bounds(plain, j)
    if not _COMPLEMENTS.isdisjoint(plain.low[j:phi]):
        return None  # "should have the same name, otherwise the definition is overwritten": the flip itself
    if _HYPOTHETICAL.isdisjoint(plain.low[plo:phi]):
        return None  # "the method has the attribute's name, so it overwrites it": the case stated as a fact
    said = set(plain.stems[plo:phi])
    return next((neg_side.raw[x] for x in range(at + 1, hi) if neg_side.content[x] and neg_side.kinds[x] == _WORD
                 and neg_side.stems[x] not in before and neg_side.stems[x] in said), None)


def _subject_of_negation(t: _Text, j: int) -> bool:
    """Is the word at j in the opening phrase of a sentence whose later clause is negated,
    with no "but" / ";" between ("Removing listeners while an emit() is in progress does not
    stop them")? The negation there may be said of the opening phrase (its subject or its
    condition), so the word is not shown unnegated."""
    if not t.neg_clauses:
        return False
    x = j
    while x > 0 and not t.sent_start[x]:
        x -= 1
    if any(t.raw[y] in (",", ";", ":") or t.low[y] in _CLAUSE_JOINS for y in range(x, j)):
        return False  # the word is not in the sentence's opening phrase
    n = len(t.raw)
    y = j + 1
    while y < n and not t.sent_start[y]:
        if t.raw[y] in (",", ";", ":", '"', "\u201c", "\u2014") or t.low[y] in _CLAUSE_JOINS and t.low[y] != "while" \
                or t.low[y] in _RELATIVES \
                or t.raw[y] == "(" and (y + 1 == n or t.raw[y + 1] != ")"):  # "emit()" is a call, no aside
            return False
        if t.neg[y] and t.clause[y] != t.clause[j]:
            return t.low[y] in _VERB_NEGATORS  # "does not stop", not "no modifications"
        y += 1
    return False


_VERB_NEGATORS = frozenset({"not", "n't", "never", "cannot"})


_RELATIVES = frozenset({"where", "that", "which", "who", "whom", "whose"})


_CLAUSE_JOINS = frozenset({"but", ";", "however", "whereas", "while", "although", "though", "yet"})


def _negated_by_relative(t: _Text, j: int) -> bool:
    """Is position j inside a relative clause hung on a negated phrase of its sentence
    ("there is no locality where ... can find a home that will rent ...")? The negator
    stands in the six words before the relative word, with no break between: a negation
    there reaches j across the clause breaks."""
    if not t.neg_clauses:
        return False
    for x in range(j - 1, -1, -1):
        w = t.low[x]
        if w in _CLAUSE_JOINS or w == "\u2014":
            return False  # "..., but the kernel will be marked": a clause of its own
        if w in _RELATIVES:
            for y in range(x - 1, max(-1, x - 7), -1):
                if t.low[y] in (",", ";", ":", "\u2014", "(", ")"):
                    break
                if t.neg[y]:
                    return True
        if t.sent_start[x]:
            break
    return False


def _until_after(t: _Text, k: int) -> bool:
    """Does "until" / "till" end the negator's clause at k ("have no effect until
    they are executed", "did not open until 1883")? That states when, not that it never
    happens: a later mention without negation does not contradict it."""
    c = t.clause[k]
    j = k + 1
    n = len(t.raw)
    while j < n and t.clause[j] == c:
        j += 1
    return j < n and t.low[j] in ("until", "till")  # a clause word: it opens the next clause


_COMPARING = frozenset({"compared", "comparing", "versus", "vs", "than", "relative"})


def _in_comparison(t: _Text, k: int) -> bool:
    """Does the word at k stand in the thing compared against, right after "compared
    with/to", "than", "versus", "relative to" (at most four words before it, no clause
    break)? "with no hypoglycemia" after "Compared with patients" is a baseline; "than in
    coal mining" is what the claim compares with, neither affirmed nor denied."""
    for x in range(k - 1, max(-1, k - 5), -1):
        if t.raw[x] in (",", ";", ":", ".", "(", ")") or t.sent_start[x + 1]:
            return False
        if t.low[x] in _COMPARING:
            return True
    return False


def _not_a_denial(t: _Text, k: int) -> bool:
    """Is the negator at k part of a shape that denies nothing: a question, a leading condition
    ("Without a tag.gpgSign variable, signing is disabled": what holds when X is absent)
    or a double negation ("will not be moved without providing aliases": only with them), or
    an answer particle ("No, it's from 2009", ``_answer_particle``)?"""
    c = t.clause[k]
    n = len(t.raw)
    if _hedge(t, k):
        return True  # "as effective, if not more so": "A, if not B" states A and suggests more
    if _answer_particle(t, k):
        return True  # "No, it's from 2009": an answer, not a negation of what follows
    if _nothing_but(t, k):
        return True  # "use nothing but a damp cloth": "only a damp cloth", which denies none of its words
    if t.low[k] == "not" and t.low[k + 1:k + 4] in (("to", "be", "confused"), ("to", "be", "mistaken")):
        return True  # "Costa Maya (not to be confused with the Riviera Maya)": tells two names apart, denies nothing
    if t.low[k] == "without" and t.low[max(0, k - 2):k] == ("with", "or"):
        return True  # "with or without KVM acceleration": both branches named, neither denied
    if _asked(t, k):
        return True  # a question asserts nothing ("Didn't all your hair fall out?")
    if _in_comparison(t, k):
        return True  # "Compared with patients with no hypoglycemia, ...": a baseline, no denial
    if t.low[k] == "without" and any(t.neg[x] and t.low[x] != "without" for x in range(max(0, k - 8), k)
                                     if t.clause[x] == c):
        return True  # "not executable on their own without a terminal": they need one
    if t.low[k] == "without" and k + 2 < n and t.low[k + 1] in _ANAPHOR_OBJECTS and t.kinds[k + 2] == _WORD \
            and (t.sent_start[k] or t.low[k - 1] in _CLAUSE_OPENERS):
        return True  # "The port is optional; without it Mutt takes the default": a leading condition, comma left out
    if t.low[k] == "without" and t.sent_start[k]:
        j = k + 1
        while j < n and t.clause[j] == c:
            j += 1
        return j < n and t.raw[j] == ","
    j = k + 1
    while j < n and t.clause[j] == c:
        if t.low[j] == "without":
            return True
        j += 1
    return False


def _asked(t: _Text, k: int) -> bool:
    """Does the sentence part of ``k`` end in a question mark ("Didn't all your hair fall out?",
    "And who will guarantee you that ...?")? A question asserts nothing: neither its words nor
    their negation."""
    n = len(t.raw)
    j = k + 1
    while j < n and t.raw[j] not in (".", "!", "?") and not t.sent_start[j]:
        j += 1
    return j < n and t.raw[j] == "?"


def _asked_who(t: _Text, k: int) -> bool:
    """Is ``k`` in a question that asks who does a thing ("And who will guarantee you that you
    don't flip the < ...?")? Asked as a plain question it presupposes someone does it; asked
    rhetorically it says nobody does: it proves neither, so a side that says "nobody can
    guarantee" is not proven wrong by it. (A yes/no question - "could you take care of the
    food?" - is answered in its text and left as it is.)"""
    if not _asked(t, k):
        return False
    lo, hi = sentence_bounds(t, k)
    while lo + 1 < hi and t.low[lo] in _LEADING_JOINS:
        lo += 1
    return t.low[lo] == "who"


_LEADING_JOINS = frozenset({"and", "but", "so", "or", "then", "yet"})


# the pronouns that, right before "but" ("nothing but", "none but", "no one but"), say "only"
_ONLY_PRONOUNS = frozenset({"nothing", "none", "nobody", "noone"})


def _nothing_but(t: _Text, k: int) -> bool:
    """Is the negator at k the pronoun of "nothing but X" ("use nothing but a damp cloth",
    "none but the owner", "no one but the owner", "nothing else but")? It says "only X": X is
    stated, not denied. "but" must follow right away (an "else" between at most): "He said
    nothing, but left" is a contrast, and the negation stands."""
    n = len(t.raw)
    x = k + 1
    if t.low[k] == "no" and x < n and t.low[x] == "one":
        x += 1
    elif t.low[k] not in _ONLY_PRONOUNS:
        return False
    if x < n and t.low[x] == "else":
        x += 1
    return x + 1 < n and t.low[x] == "but" and t.kinds[x + 1] in (_WORD, _NUM)


# "without it Mutt takes the default": what "without" denies is the thing "it" stands for, and the
# phrase opens its clause as a condition ("if it is not given, ...")
_ANAPHOR_OBJECTS = frozenset({"it", "them", "this", "that", "these", "those", "one"})
_CLAUSE_OPENERS = frozenset({",", ";", ":", "\u2014", "-", "(", "and", "but", "otherwise", "so"})


# the stronger points of a scale a hedge "A, if not B" reaches for ("many, if not most", "as
# good, if not better", "as effective, if not more so")
_STRONGER = frozenset({"more", "most", "better", "best", "greater", "greatest", "higher", "highest", "larger",
                       "largest", "bigger", "biggest", "stronger", "strongest", "worse", "worst", "all", "every",
                       "always", "everyone", "everything", "entirely", "completely", "fully", "totally"})


def _hedge(t: _Text, k: int) -> bool:
    """Is the "not" at k the hedge "A, if not B" - "if not" after a comma, bracket or dash and
    before a stronger point of a scale ("many, if not most, users", "as effective, if not more
    so, than CBT")? It states A and suggests B may even hold: it denies neither."""
    return t.low[k] == "not" and k >= 2 and t.low[k - 1] == "if" \
        and t.raw[k - 2] in (",", "(", "\u2014", "\u2013", "-") and any(w in _STRONGER for w in t.low[k + 1:k + 3])


# What may follow an answer "no" at the start of a sentence - a pause, a pronoun or
# contraction, a verb of its own - where the determiner "no" ("no file", "no one", "no
# more than") takes a noun phrase. Only a pronoun that cannot start a noun phrase after "no".
_AFTER_ANSWER = frozenset({",", "!", ".", ";", ":", "-", "\u2014", "\u2013", "\u2026", "i", "i'm", "im", "i've",
                           "ive", "i'd", "id", "i'll", "it", "it's", "its", "you", "you're", "youre", "he", "he's",
                           "she", "she's", "we", "we're", "they", "they're", "theyre", "that", "that's", "thats",
                           "this", "there", "there's", "theres", "is", "was", "are", "were", "do", "does", "did",
                           "have", "has", "had", "can", "could", "will", "would", "should", "not", "but",
                           "actually", "sorry", "thanks", "thank", "unfortunately", "well", "yes", "no"})


def _answer_particle(t: _Text, k: int) -> bool:
    """Is the "no" at k an answer - first in its sentence (after at most an "oh" / "well"),
    followed by a pause, a pronoun, a contraction or a verb ("No, it's from 2009", "no its
    from 2009", "No I think it was Nolan")? It is an interjection then, which negates
    nothing of what follows; "no" negates as a determiner ("No file is created"). So is "not
    really" / "not exactly" first in its sentence before a pause or a pronoun ("not really its
    just a sandwich"; not "Not really necessary")."""
    if t.low[k] == "not" and k + 2 < len(t.raw) and t.low[k + 1] in ("really", "exactly"):
        return t.sent_start[k] and t.low[k + 2] in _AFTER_ANSWER and t.low[k + 2] != "not"
    if t.low[k] != "no" or k + 1 >= len(t.raw):
        return False
    start = k
    while start > 0 and not t.sent_start[start] and t.low[start - 1] in ("oh", "well", "um", "uh", "ah", "hmm"):
        start -= 1
    if t.sent_start[start] and t.low[k + 1] in _AFFIRMING_IDIOMS and k + 2 < len(t.raw) \
            and t.raw[k + 2] in (",", ":", "!", "\u2014", "-"):
        return True  # "No joke: a boy was billed ...", "No doubt, it works": the idiom affirms what follows
    return t.sent_start[start] and t.low[k + 1] in _AFTER_ANSWER


# what "no" opens a sentence with, before a pause, as an idiom that affirms the rest ("No joke:
# ...", "No kidding, ...", "No doubt, ...")
_AFFIRMING_IDIOMS = frozenset({"joke", "kidding", "doubt", "wonder", "surprise", "lie"})


_THAN_WORDS = frozenset({"more", "less", "fewer", "greater", "larger", "bigger", "higher", "lower", "smaller",
                         "longer", "shorter"})
_BOUND_WORDS = frozenset({"most", "least", "maximum", "minimum", "max", "min", "only", "limit", "limited",
                          "exceed", "exceeds", "exceeding", "beyond", "within"})


def _negated_bound(t: _Text, k: int, others: list[_Text]) -> bool:
    """Does the negator at k deny a bound ("No ChildProcess can have more than one IPC
    descriptor") where the other side states a bound ("may have at most one")? The negation
    turns the bound round ("not more than one" = "at most one"): it does not deny the words."""
    c = t.clause[k]
    n = len(t.raw)
    j = k + 1
    while j + 2 < n and t.clause[j] == c:
        if t.low[j] in _THAN_WORDS and t.low[j + 1] == "than" and (
                t.kinds[j + 2] == _NUM or t.low[j + 2] in _NUMBER_WORDS or t.low[j + 2] == "one"):
            return any(not _BOUND_WORDS.isdisjoint(o.lowset) or "up" in o.lowset and "to" in o.lowset
                       for o in others)
        j += 1
    return False


def _negated_at(t: _Text, j: int) -> bool:
    """Is position j in a negated clause? A quotation mark does not end the clause here
    (a separate "test cache" is not used); a clause opened right after a negator by a
    bracket is negated too (does not (necessarily) mean); "far from" negates."""
    raw, clause = t.raw, t.clause
    if clause[j] in t.neg_clauses:
        return True
    if not t.neg_clauses and "far" not in t.lowset:
        return False  # nothing in the text negates
    lo, hi, n = j, j, len(raw)
    while lo > 0 and (clause[lo - 1] == clause[lo] or raw[lo] == '"'):
        lo -= 1
    while hi + 1 < n and (clause[hi + 1] == clause[hi] or raw[hi + 1] == '"'):
        hi += 1
    if not t.neg_clauses.isdisjoint(range(clause[lo], clause[hi] + 1)):
        return True
    if any(t.low[x] == "far" and t.low[x + 1] == "from" for x in range(lo, j - 1)):
        return True  # "far from mandatory"
    start = j
    while start > 0 and clause[start - 1] == clause[j]:
        start -= 1
    return start >= 1 and raw[start] in ('"', "(") and t.neg[start - 1]


def _fully_covered(claim: _Text, quotes: list[_Text]) -> bool:
    return all(any(claim.stems[k] in q.stemset for q in quotes) for k in range(len(claim.raw))
               if claim.content[k] and claim.kinds[k] == _WORD)


def _check_negation(claim: _Text, quotes: list[_Text]) -> ClaimCheck | None:
    """Negation by negated segment: works for paraphrases as well as copies."""
    covered = None
    grey = None
    for k in compress(range(len(claim.neg)), claim.neg):
        if covered is None:
            covered = _fully_covered(claim, quotes)
        found = _flip(claim, k, quotes, covered, claim_negates=True)
        if found is not None and found.status is ClaimStatus.UNSUPPORTED:
            return found
        grey = grey or found
    for q in quotes:
        for k, head in derived(q, _negated_heads):
            if head not in claim.positions:
                continue  # the claim lacks the negated word: nothing to match (_negation_matches)
            # every quote occurrence of the negated word must be negated
            if any(head in derived(t, _stated_unnegated) for t in quotes):
                continue
            found = _flip(q, k, [claim], True, claim_negates=False)
            if found is not None and found.status is ClaimStatus.UNSUPPORTED:
                return found
            grey = grey or found
    return _restriction_denied(claim, quotes) or grey


_RESTRICTING = _NEG_SKIP_AFTER | {"solely", "exclusively"}


def _restrictions(t: _Text, denied: bool) -> dict[str, int]:
    """What ``t`` restricts by "only" / "just" / "merely" / "simply" ("copies only the stack
    data"), or - ``denied`` - what it says "not only" / "not just" ... of ("not just the stack
    data": that and more): the stem of the first content word within three tokens after the
    restricting word, in its clause -> its position."""
    out: dict[str, int] = {}
    for k, w in enumerate(t.low):
        if w not in (_NEG_SKIP_AFTER if denied else _RESTRICTING):
            continue
        if (k > 0 and t.low[k - 1] == "not") != denied:
            continue
        if not denied and t.low[max(0, k - 2):k] in (("rather", "than"), ("instead", "of")):
            continue  # "the whole path rather than only the name": "only" denied, no restriction
        for j in range(k + 1, min(len(t.raw), k + 4)):
            if t.clause[j] != t.clause[k]:
                break
            if t.content[j] and t.kinds[j] == _WORD:
                out.setdefault(t.stems[j], j)
                break
    return out


def restriction_flips(a: _Text, b: _Text) -> list[tuple[int, int, bool]]:
    """Each word one side restricts to ("copies only the stack data", "just", "merely",
    "simply", "solely") where the other says "not only" / "not just" ... of it ("not just the
    stack data": that and more): (its position in ``a``, in ``b``, whether ``a`` says "not
    only"). "not just X" is no negation of X (``analysis._is_negator``: it adds to X), but it
    does deny "only X"."""
    out: list[tuple[int, int, bool]] = []
    for neg_side, plain, a_denies in ((a, b, True), (b, a, False)):
        if "not" not in neg_side.lowset or _NEG_SKIP_AFTER.isdisjoint(neg_side.lowset) \
                or _RESTRICTING.isdisjoint(plain.lowset):
            continue
        denied = _restrictions(neg_side, denied=True)
        for st, j in _restrictions(plain, denied=False).items():
            if st in denied:
                out.append((denied[st], j, True) if a_denies else (j, denied[st], False))
    return out


def _restriction_denied(claim: _Text, quotes: list[_Text]) -> ClaimCheck | None:
    """A restriction against its denial (``restriction_flips``): "copies only the stack data"
    / "not just the stack data", or the reverse; a flag when the two stand in the same slot
    and the same sentence (``contradiction.verdict``)."""
    grey = None
    for q in quotes:
        for ci, qj, claim_denies in restriction_flips(claim, q):
            note = (f'the claim says not only "{claim.raw[ci]}" where the quote restricts to it' if claim_denies
                    else f'the claim restricts to "{claim.raw[ci]}" where the quote says not only that')
            found = verdict("negation", note, claim, ci, q, qj)
            if found.status is ClaimStatus.UNSUPPORTED:
                return found
            grey = grey or found
    return grey


def _negated_heads(t: _Text) -> list[tuple[int, str]]:
    """(position, stem of the first word it negates) of each negator of the text that
    negates a word (``_segment``)."""
    out = []
    for k in compress(range(len(t.neg)), t.neg):
        seg = _segment(t, k)
        if seg:
            out.append((k, t.stems[seg[0]]))
    return out


def _stated_unnegated(t: _Text) -> frozenset[str]:
    """The stems the text has in a clause without negation (punctuation has no stem here)."""
    negated = t.neg_clauses
    if not negated:
        return frozenset(compress(t.stems, t.kinds))  # _PUNCT is 0: every other token
    return frozenset(st for st, kind, c in zip(t.stems, t.kinds, t.clause) if kind and c not in negated)


_DETERMINING = frozenset({"no", "none", "nothing", "nobody"})
_STOPS = frozenset({",", ";", ":", "\u2014", "(", ")"})


def _verb_negated_after(t: _Text, j: int) -> bool:
    """Is the word at j the subject of a negated verb: "not" / "never" / "cannot" later in its
    sentence (within ``2 * WINDOW`` tokens; a relative clause on the subject may stand
    between, no stop or contrasting join)? Then "no rule with a list matches" and "a rule that
    has a list is never matched" say one thing: the negation moved from the noun to its verb."""
    _lo, hi = sentence_bounds(t, j)
    for y in range(j + 1, min(hi, j + 2 * WINDOW)):
        if t.raw[y] in _STOPS or t.low[y] in _CLAUSE_JOINS:
            return False
        if t.neg[y]:
            return t.low[y] in _VERB_NEGATORS
    return False


_OMITTING = frozenset(stem(w) for w in ("omit", "omitted", "omitting", "lack", "lacking", "absent", "missing"))
_NOT_MUCH = frozenset({"much", "many", "often"})
_LITTLE = frozenset({"little", "few", "rarely", "seldom", "hardly"})


def _omitted_in_sentence(t: _Text, at: int) -> str | None:
    """A word that says something is not there ("omitted", "lacking", "left out") in the
    sentence of ``at``."""
    if at < 0:
        return None
    lo, hi = sentence_bounds(t, at)
    for x in range(lo, hi):
        if t.stems[x] in _OMITTING or (t.low[x] in ("left", "leave", "leaves", "leaving") and x + 1 < hi
                                       and t.low[x + 1] == "out"):
            return t.raw[x]
    return None


def _negation_moved(src: _Text, k: int, dst: _Text, j: int, claim_negates: bool) -> str | None:
    """Why a negation one side has and the other seems to drop may only have moved (grey):
    the claim negates something else in that sentence ("scheduled when none exists" / "if
    there is no request, one is scheduled"; "size is left out" / "no size is specified");
    the quote says "otherwise" for the negated case ("not available" / "where available, or
    malloc otherwise"); "not much" said as "little"."""
    lo, hi = sentence_bounds(dst, j)
    if claim_negates:
        if not {"otherwise", "else"}.isdisjoint(dst.low[lo:hi]):
            return 'the quote states the other case with "otherwise"'
        if _other_branch(dst, j):
            return 'the quote states the other case in the "or" branch of its "either ... or"'
        found = _denied_by_anaphor(src, k, dst, j)
        if found:
            return f'the quote denies it later in that sentence of what it names, by "{found}"'
        found = _denied_by_pro_verb(src, dst, j)
        if found:
            return f'the quote names it first and then denies it by "{found}"'
        named = _denied_by_class_noun(src, k, dst, j)
        if named:
            return f'the quote names it as "{named[0]}" and goes on to speak of the case "{named[1]}"'
        return None
    qlo, qhi = sentence_bounds(src, k)
    same_count = sum(dst.neg[lo:hi]) == sum(src.neg[qlo:qhi])
    own = next((dst.raw[x] for x in range(lo, hi) if x != j and dst.neg[x] and dst.low[x] in _DETERMINING), None) \
        if same_count else None
    omitted = _omitted_in_sentence(dst, j)
    if own or (omitted and stem(omitted) not in src.stemset):
        own = own or omitted
        return f'the claim has a negation of its own in that sentence ("{own}"): it may have moved'
    if not _NOT_MUCH.isdisjoint(src.low[k + 1:k + 4]) and not _LITTLE.isdisjoint(dst.low[lo:hi]):
        return '"not much" / "not many" is said as "little" / "few"'
    return None


_ANAPHORS = frozenset({"them", "these", "those", "it", "this", "which", "whom"})


def _denied_by_anaphor(src: _Text, k: int, dst: _Text, j: int) -> str | None:
    """Does the quote's sentence of ``j`` go on to deny, through a pronoun that points back
    ("All pools have in common that none of them pre-build connections"), what the claim's
    determiner negation denies ("No pool builds connections in advance")? "none / neither of
    them" after ``j`` in that sentence, the only negation of the sentence as "no" is of the
    claim's, and every word the claim's negation covers that the quote does not write up to
    "none of them" (what it points back to) standing in the six tokens after it (up to a
    stop; a quotation mark does not end them): the quote's words as written, else None."""
    if src.low[k] not in _DETERMINING:
        return None
    seg = _segment(src, k)
    lo, hi = sentence_bounds(dst, j)
    slo, shi = sentence_bounds(src, k)
    if sum(dst.neg[lo:hi]) != 1 or sum(src.neg[slo:shi]) != 1:
        return None
    named = set(dst.stems[lo:j + 1])
    for x in range(j + 1, hi - 2):
        if dst.neg[x] and dst.low[x] in ("none", "neither") and dst.low[x + 1] == "of" \
                and dst.low[x + 2] in _ANAPHORS:
            denied = set()
            for y in range(x + 3, min(hi, x + 3 + WINDOW)):
                if dst.raw[y] in _STOPS or dst.raw[y] in ("-", "\u2013", ".") or dst.neg[y]:
                    break
                if dst.content[y]:
                    denied.add(dst.stems[y])  # quotation marks open no new statement here
            rest = {src.stems[y] for y in seg} - named - set(dst.stems[j + 1:x])
            return " ".join(dst.raw[x:x + 3]) if rest and rest <= denied else None
    return None


_DO_OBJECTS = frozenset({"that", "this", "it", "so"})
_TOPIC_ENDS = frozenset({",", "\u2014", "\u2013", "-", ":"})


def _denied_by_pro_verb(src: _Text, dst: _Text, j: int) -> str | None:
    """Does the quote put the claim's negated words first, as a topic, and deny them by "do
    that" after a comma ("sending out HTML from uploaded files, never do that" / "Never send
    out HTML from uploaded files"; issue 25, fresh28)? In the sentence of ``j``, a negator
    (or "do not") right after a comma (or dash, colon), then "do" and "that" / "this" / "it" / "so", which
    ends its clause; every content word of the sentence before the comma written by the
    claim too (else "do that" may stand for another act): the words as written, else None."""
    lo, hi = sentence_bounds(dst, j)
    for x in range(j + 2, hi - 2):
        if not (dst.neg[x] and dst.low[x] in _VERB_NEGATORS):
            continue
        start = x - 1 if dst.low[x - 1] == "do" else x  # "don't do that", "do not do that"
        y = x + 1
        if dst.raw[start - 1] not in _TOPIC_ENDS or dst.low[y] != "do" or dst.low[y + 1] not in _DO_OBJECTS:
            continue
        if y + 2 < len(dst.raw) and dst.raw[y + 2] not in _STOPS and dst.raw[y + 2] not in (".", "!", "\u2014"):
            continue  # "never do that with scripts": said of less
        if all(not dst.content[z] or dst.stems[z] in src.stemset for z in range(lo, start - 1)):
            return " ".join(dst.raw[start:y + 2])
        return None
    return None


_CLASS_NEGATORS = frozenset({"neither", "no", "none"})
_AT_ONCE = frozenset({"once", "when", "whenever"})  # "once the browser is closed" / "when it is closed"


def _denied_by_class_noun(src: _Text, k: int, dst: _Text, j: int) -> tuple[str, str] | None:
    """Does the quote name the claim's negated words by a class noun ("Expires or Max-Age
    options") and, in its next sentence, state the case of none of them by that noun
    ("If neither option is set, the cookie is removed when the browser is closed"), what the
    claim states with its negation ("A cookie without Expires or Max-Age is removed once the
    browser is closed"; issue 25, fresh28)? The noun within four tokens after ``j``, in its
    clause; "neither" / "no" / "none of the" before its stem in the next sentence, that
    sentence's only negation; every other content word of the claim's sentence (the named
    words aside, and "once" for "when") written in that sentence: (the naming words, the
    negated noun), else None."""
    if src.low[k] not in ("without", "no"):
        return None
    lo, hi = sentence_bounds(dst, j)
    if hi >= len(dst.raw):
        return None
    nlo, nhi = sentence_bounds(dst, hi)
    if sum(dst.neg[nlo:nhi]) != 1:
        return None
    slo, shi = sentence_bounds(src, k)
    for n in range(j + 1, min(hi, j + 5)):
        if dst.clause[n] != dst.clause[j] or not dst.content[n] or dst.stems[n] in src.stemset:
            continue
        named = set(dst.stems[j:n])
        rest = {src.stems[y] for y in range(slo, shi) if src.content[y] and src.low[y] not in _AT_ONCE} - named
        if not rest or not rest <= set(dst.stems[nlo:nhi]):
            return None
        for x in range(nlo, nhi - 1):
            if not (dst.neg[x] and dst.low[x] in _CLASS_NEGATORS):
                continue
            at = x + 1
            if dst.low[x] == "none" and dst.low[at:at + 2] == ["of", "the"]:
                at += 2
            if at < nhi and dst.stems[at] == dst.stems[n]:
                return " ".join(dst.raw[j:n + 1]), " ".join(dst.raw[x:at + 1])
        return None
    return None


_IF = frozenset({"if", "when", "whenever"})


_MEANING = frozenset({"mean", "means", "meant", "imply", "implies", "implied", "follow", "follows"})


def _under_denied_meaning(t: _Text, k: int) -> str | None:
    """Does the negator at k stand in what a denied "mean" / "imply" / "follow" says - "that
    doesn't mean they never want to meet up", "it does not follow that no one ..."? A denied
    implication asserts neither its clause nor the clause's negation. The denied verb within
    six tokens before k, no comma, semicolon or colon between: its words as written, else None."""
    for x in range(k - 1, max(0, k - 7), -1):
        if t.raw[x] in (",", ";", ":") or t.sent_start[x + 1]:
            return None
        if t.low[x] in _MEANING and any(t.neg[y] for y in range(max(0, x - 2), x)):
            y = max(y for y in range(max(0, x - 2), x) if t.neg[y])
            return " ".join(t.raw[y:x + 1])
    return None


_EVERY = frozenset({"every", "all", "each", "any", "everyone", "everybody", "everything"})
# the word a partial negation denies -> the words that state it on the other side
_PARTIAL = {"always": frozenset({"always"}), "necessarily": frozenset({"necessarily"})} | dict.fromkeys(
    ("every", "all", "everyone", "everybody", "everything"), _EVERY)


def _partial_negation(neg_side: _Text, k: int, plain: _Text, j: int) -> str | None:
    """Does the negator at k deny only "always" / "necessarily" / "every" / "all" ("You don't
    always have to use primer, but you should consider it", "Not every input module supports
    ruleset binding"), a word the other side does not write in its sentence (nor "each" /
    "any" for "every")? "not always X" says X need not hold each time, "not every A does X"
    that some A do not; neither denies X. So with "the only" / "the sole" ("key size is not the
    only factor": it is one, and others are too), the other side writing none of ``_SOLE``."""
    w = k + 1
    stated = _PARTIAL.get(neg_side.low[w]) if w < len(neg_side.raw) else None
    if stated is None and w + 1 < len(neg_side.raw) and neg_side.low[w] == "the":
        w += 1
        stated = _PARTIAL_THE.get(neg_side.low[w])  # "not the only factor"
    if stated is None:
        return None
    lo, hi = sentence_bounds(plain, min(j, len(plain.raw) - 1))
    return None if not stated.isdisjoint(plain.low[lo:hi]) else " ".join(neg_side.raw[k + 1:w + 1])


def _condition_at(t: _Text, k: int) -> str | None:
    """The "if" / "when" / "whenever" whose condition holds ``k`` as its own verb (or the
    verb's negator): the word opens ``k``'s clause at most four tokens before it, with no
    "and", "or" or "to" between ("If you haven't cleaned", "When we regularly don't get";
    not "If you use ssh you can restrict", "If you want to disable"). An attempt's "to" is passed
    over: "If someone attempts to modify a frozen instance" holds "modify" in its condition (an
    attempt states neither that it succeeds nor that it fails)."""
    for x in range(k - 1, max(-1, k - 6), -1):
        if t.clause[x] != t.clause[k] or t.low[x] in ("and", "or") \
                or t.low[x] == "to" and (x == 0 or t.low[x - 1] not in _TRYING):
            return None
        if t.low[x] in _IF:
            return t.raw[x]
    return None


# the verbs of an attempt, whose "to" a condition reaches through ("If someone attempts to modify")
_TRYING = frozenset({"try", "tries", "tried", "trying", "attempt", "attempts", "attempted", "attempting"})


# words that make what follows them a condition or another subordinate part ("Provided X is
# not modified", "As long as the key has no timing", "once all files have been processed",
# "even if ..."), besides the clause words the analysis cuts clauses at
_SUBORDINATING = _CLAUSE_WORDS | {"provided", "providing", "once", "long", "even", "lest", "case", "assuming",
                                  "suppose", "supposing"}


def _first_clause(t: _Text, k: int) -> bool:
    """Is ``k`` in the first clause of its sentence, a statement or command: no clause break
    before it in the sentence, and no word that makes a condition or another subordinate
    part of it (``_SUBORDINATING``: "If ...", "Provided ...", "... once ...")?"""
    lo, _hi = sentence_bounds(t, k)
    return t.clause[lo] == t.clause[k] and _SUBORDINATING.isdisjoint(t.low[lo:k + 1])


_REQUIRING = frozenset({"should", "must", "ought", "need", "needs", "shall"})


def _required_at(t: _Text, j: int) -> bool:
    """Is the word at ``j`` what ``t`` says should or must be done - "should" / "must" /
    "need to" within the two words before it, in its clause ("volunteers who should sort
    through donations")? "If they do not sort ..., X follows" then restates the need, as a
    condition: it denies nothing the quote asserts."""
    return any(t.low[x] in _REQUIRING and t.clause[x] == t.clause[j] for x in range(max(0, j - 3), j))


def _one_side_conditional(neg_side: _Text, k: int, plain: _Text, j: int) -> tuple[str, str] | None:
    """Does one side state the words in a condition (``_condition_at``) and the other in the
    first clause of a sentence - "If you haven't cleaned your cabinets, ..." / "Clean the
    cabinets."; "Don't pull them too hard." / "If you pull them too hard, ..."? A condition
    asserts neither its words nor their negation: no flip between the two. ("neg" or "plain",
    the condition's word), else None; a plain side that states the words outside a condition
    too is not conditional."""
    cond = _condition_at(neg_side, k)
    if cond:
        return ("neg", cond) if (_first_clause(plain, j) or _required_at(plain, j)) \
            and not _condition_at(plain, j) else None
    cond = _condition_at(plain, j)
    if not cond or not _first_clause(neg_side, k):
        return None
    if any(not _condition_at(plain, x) for x in plain.positions.get(plain.stems[j], ())):
        return None  # "If a finally clause ..., the value is the finally clause's": stated outside too
    return "plain", cond


def _next_content(t: _Text, k: int, n: int) -> list[int]:
    """The positions of the (at most) ``n`` content words after ``k`` in its clause."""
    out: list[int] = []
    x = k + 1
    while x < len(t.raw) and t.clause[x] == t.clause[k] and len(out) < n:
        if t.content[x]:
            out.append(x)
        x += 1
    return out


def _qualified_otherwise(neg_side: _Text, h: int, plain: _Text, j: int) -> tuple[str, str, str] | None:
    """Do both sides follow the word at ``h`` / ``j`` (the negated head and its match) with a
    modifier and then the same noun, the modifiers differing, and does the negated side name
    the plain side's kind elsewhere without negation ("Never use obvious passwords ... Choose
    secure passwords" / "Use secure passwords")? Denying a verb of one kind of thing does not
    deny it of another: (the noun, the plain side's modifier, the negated side's), else None.
    Neither modifier may stand in the other side's sentence (then the words were only
    reordered)."""
    a, b = _next_content(neg_side, h, 2), _next_content(plain, j, 2)
    if len(a) < 2 or len(b) < 2 or a[1] != a[0] + 1 or b[1] != b[0] + 1:
        return None
    if neg_side.stems[a[1]] != plain.stems[b[1]] or neg_side.stems[a[0]] == plain.stems[b[0]]:
        return None
    if neg_side.kinds[a[0]] != _WORD or plain.kinds[b[0]] != _WORD:
        return None
    nlo, nhi = sentence_bounds(neg_side, h)
    plo, phi = sentence_bounds(plain, j)
    if plain.stems[b[0]] in neg_side.stems[nlo:nhi] or neg_side.stems[a[0]] in plain.stems[plo:phi]:
        return None
    # the negated side names the plain side's kind too, in a clause it does not negate ("Choose
    # secure passwords"): it tells the two kinds apart (a synonym, "main" / "predominant", it
    # would not name beside the other)
    mod, noun = plain.stems[b[0]], plain.stems[b[1]]
    if not any(y + 1 < len(neg_side.raw) and neg_side.stems[y + 1] == noun and neg_side.clause[y] not in neg_side.neg_clauses
               for y in neg_side.positions.get(mod, ())):
        return None
    return plain.raw[b[1]], plain.raw[b[0]], neg_side.raw[a[0]]


def _other_scope(neg_side: _Text, h: int, plain: _Text, j: int) -> tuple[str, str] | None:
    """Does the negated head at ``h`` (matched in ``plain`` at ``j`` or within four tokens
    after it) go on, on both sides, with the same preposition and then different content
    words, each absent from the other side's sentence, the plain side listing two or more
    ("cannot be accommodated at breakfast time" / "can be accommodated at lunchtimes and
    dinnertimes")? The negation is said of
    another scope than the plain side's statement: (the negated side's word, the plain
    side's), else None. "cannot be accommodated at lunchtimes" is still a flip."""
    if not 0 <= j < len(plain.raw):
        return None
    at = next((x for x in range(j, min(len(plain.raw), j + 5)) if plain.stems[x] == neg_side.stems[h]
               and plain.clause[x] == plain.clause[j]), None)
    if at is None:
        return None
    a, b = _next_content(neg_side, h, 1), _next_content(plain, at, 1)
    if not a or not b or neg_side.kinds[a[0]] != _WORD or plain.kinds[b[0]] != _WORD:
        return None
    gap_n, gap_p = neg_side.low[h + 1:a[0]], plain.low[at + 1:b[0]]
    if not gap_n or gap_n != gap_p or not all(w in _SCOPE_PREPS for w in gap_n):
        return None
    listed = _next_content(plain, b[0], 1)
    if not listed or not all(w in ("and", ",", "or") for w in plain.low[b[0] + 1:listed[0]]) or listed[0] == b[0] + 1:
        return None  # the plain side lists the scopes it states ("at lunchtimes and dinnertimes"); one word
        # for another alone may be a synonym ("on the phone" / "not on the telephone")
    nlo, nhi = sentence_bounds(neg_side, h)
    plo, phi = sentence_bounds(plain, at)
    if neg_side.stems[a[0]] in plain.stems[plo:phi] or plain.stems[b[0]] in neg_side.stems[nlo:nhi]:
        return None
    return neg_side.raw[a[0]], plain.raw[b[0]]


_SCOPE_PREPS = frozenset({"at", "in", "on", "during", "for", "under", "within", "the", "a", "an"})


_PRO_OBJECTS = frozenset({"so", "that", "this", "it"})


def _denied_by_reference(t: _Text, j: int) -> bool:
    """Does a negated "do" after ``j`` in its sentence stand for the verb phrase said before it
    ("A reaches every state, which B cannot do", "A reaches it; B does not do so")? The
    negation is then said of another subject, and the plain words at ``j`` are not what it
    denies."""
    lo, hi = sentence_bounds(t, j)
    for x in range(j + 1, hi):
        if t.low[x] == "do" and any(t.neg[max(lo, x - 2):x]) \
                and (x + 1 == hi or t.kinds[x + 1] != _WORD or t.low[x + 1] in _PRO_OBJECTS):
            return True
    return False


def _opposite_kind_before(neg_side: _Text, k: int, plain: _Text, j: int) -> tuple[str, str, str] | None:
    """Does the plain side follow the word at ``j`` with a modifier and a noun ("Use positive
    reinforcement") whose noun the negated side names, before its negator in that sentence,
    with the opposite modifier ("Negative reinforcement ... shouldn't be used")? The negation
    is said of the opposite kind of thing, not of the plain side's: (the noun, the plain side's
    modifier, the negated side's), else None. "Use negative reinforcement" is still a flip."""
    b = _next_content(plain, j, 2)
    if len(b) < 2 or b[1] != b[0] + 1 or plain.kinds[b[0]] != _WORD:
        return None
    mod, noun = plain.stems[b[0]], plain.stems[b[1]]
    lo, _hi = sentence_bounds(neg_side, k)
    for y in range(max(lo + 1, 1), k):
        if neg_side.stems[y] == noun and neg_side.kinds[y - 1] == _WORD \
                and frozenset((neg_side.stems[y - 1], mod)) in _ANTONYMS:
            return plain.raw[b[1]], plain.raw[b[0]], neg_side.raw[y - 1]
    return None


def _other_branch(t: _Text, j: int) -> bool:
    """Is the word at j in the condition of the first branch of an "either ... or" ("either
    returning the pattern if the entry was found, or returning a default value")? The "or"
    branch is then what happens in the other case (the entry not found), as "otherwise" says."""
    cond = next((x for x in range(j - 1, max(-1, j - 7), -1) if t.low[x] in _IF), None)
    if cond is None or any(t.raw[x] in (",", ";", ":") for x in range(cond, j)):
        return False
    lo, hi = sentence_bounds(t, j)
    return "either" in t.low[lo:cond] and "or" in t.low[j + 1:hi]


def _list_under_negation(t: _Text, j: int) -> bool:
    """Does the sentence of ``j`` follow a colon that ends a negated sentence ("It is not
    possible to:" then "create an alias ...", a list's item under its negated lead-in), or end
    in a colon whose item starts with a negation ("the flag is:" then "not set")?"""
    lo, hi = sentence_bounds(t, j)
    if lo > 1 and t.raw[lo - 1] == ":" and t.low[lo - 2] in _LEAD_IN_ENDS \
            and any(t.neg[sentence_bounds(t, lo - 1)[0]:lo]):
        return True
    # or the reverse: "the link flag is:" then "not set" - the item denies the lead-in's word
    return hi < len(t.raw) and t.raw[hi - 1] == ":" and t.low[hi - 2] in _LEAD_IN_ENDS and any(t.neg[hi:hi + 2])


# The last word of a lead-in whose sentence the list items finish ("It is not possible to:",
# "the flag is:"); a colon after a full statement ("may not be persistent: data can be
# evicted") explains it, and the negation stays on its own side.
_LEAD_IN_ENDS = frozenset({"to", "is", "are", "was", "were", "be", "following", "either", "both"})


def _flip(src: _Text, k: int, others: list[_Text], covered: bool, *, claim_negates: bool) -> ClaimCheck | None:
    """The negator at ``k`` of ``src`` (the claim when ``claim_negates``, else a quote) read
    against the other side(s): None when they do not state its words unnegated, else the
    verdict of ``contradiction.negation_verdict`` (a flag or a grey note)."""
    hit = _negation_matches(src, k, others, covered)
    if not hit or _until_after(src, k) or _not_a_denial(src, k) or _negated_bound(src, k, others):
        return None
    word, negator, seg, dst, j = hit
    note = (f'the claim negates "{word}" ("{negator}") where the quote does not' if claim_negates
            else f'the quote says "{negator} {word}" where the claim drops the negation')
    if _asked_who(dst, j):
        return _grey("negation", note, f'the other side asks who does "{dst.raw[j]}", which asserts neither that '
                     "someone does nor that nobody does")
    if _or_not_elided(dst, j):
        return _grey("negation", note, f'the other side asks whether "{dst.raw[j]}" holds or not, which asserts '
                     "neither branch")
    guess = _guessed(dst, j, src)
    if guess:
        return _grey("negation", note, f'the other side puts "{dst.raw[j]}" forward as a guess or a story '
                     f'("{guess}"), not as a fact')
    if _said_differently(src, seg[0], dst, j):
        return _grey("negation", note, 'the other side says it happens "differently than" the way the negation '
                     'denies ("not as"): the same denial')
    otherwise = _otherwise_case(src, k, dst, j)
    if otherwise:
        return _grey("negation", note, f'the other side states "{otherwise}", what follows "otherwise": the case '
                     "the negation warns against, not a dropped negation")
    unproven = _unproven_flip(src, k, seg, dst, j)
    if unproven:
        return _grey("negation", note, unproven)
    moved = _negation_moved(src, k, dst, j, claim_negates)
    if moved:
        return _grey("negation", note, moved)
    other = _qualified_otherwise(src, seg[0], dst, j) or _opposite_kind_before(src, k, dst, j)
    if other:
        return _grey("negation", note, f'the two sides qualify "{other[0]}" otherwise ("{other[1]}" / "{other[2]}"): '
                     "denying one kind denies not the other")
    if not claim_negates and _denied_by_reference(dst, j):
        return _grey("negation", note, "the claim denies it after it, by a negated \"do\" that stands for what it "
                     "said (\"which B cannot do\"): said of another subject, not dropped")
    scope = _other_scope(src, seg[0], dst, j)
    if scope:
        return _grey("negation", note, f'the negation is said of "{scope[0]}", the other side\'s statement of '
                     f'"{scope[1]}": another scope')
    if src.low[k] == "no" and _valued_as_none(dst, j):
        return _grey("negation", note, f'the other side gives "{dst.raw[j]}" the value "none" or "infinity": '
                     '"no upper bound" may restate "the upper bound is infinity"')
    complement = _other_complement(src, seg, dst, j)
    if complement:
        return _grey("negation", note, f'the negation denies "{complement[0]}", the other side states "{complement[1]}": '
                     "another word after the verb, which may restate the denial (\"not nice\" / \"bad\") or not")
    exception = _in_exception(src, k)
    if exception and not _in_exception(dst, j):
        return _grey("negation", note, f'the negation stands in a clause opened by "{exception}": a double '
                     "negation, which states the case without it")
    if "unless" in src.low[k + 1:sentence_bounds(src, k)[1]] and _after_condition(dst, j):
        return _grey("negation", note, f'the other side states "{dst.raw[j]}" under a condition, the negating side '
                     'only "unless" one holds: each speaks of another case')
    if src.low[k] == "no" and k + 1 < len(src.low) and src.low[k + 1] == "other" \
            and not _SOLE.isdisjoint(dst.low[slice(*sentence_bounds(dst, j))]):
        return _grey("negation", note, '"no other" restates the other side\'s "unique" / "only"')
    if _negated_for_a_time(src, k) and not _LATER.isdisjoint(dst.low[slice(*sentence_bounds(dst, j))]):
        return _grey("negation", note, "the negation holds for a stretch of time, and the other side says when it "
                     "happens after one: not that it never does")
    if not exception and _unless_across_aside(dst, j):
        return _grey("negation", note, f'the other side states "{dst.raw[j]}" in a clause opened by "unless" ("if '
                     'not"): the negation is there too')
    denied_meaning = _under_denied_meaning(src, k)
    if denied_meaning:
        return _grey("negation", note, f'the negation stands under "{denied_meaning}", which asserts neither it nor '
                     "its opposite")
    partial = _partial_negation(src, k, dst, j)
    if partial:
        return _grey("negation", note, f'"{src.raw[k]} {partial}" denies only the "{partial}", not the words')
    cond = _one_side_conditional(src, k, dst, j)
    if cond:
        return _grey("negation", note, f'the {"claim" if (cond[0] == "neg") == claim_negates else "quote"} states it '
                     f'in a condition ("{cond[1]}"), which asserts neither it nor its negation')
    if claim_negates and _list_under_negation(dst, j):
        return _grey("negation", note, f'the quote has a negation across a colon from "{dst.raw[j]}" (a list\'s lead-in and its item)')
    if src.low[k] in _DETERMINING and _verb_negated_after(dst, j):
        return _grey("negation", note, f'the other side negates the verb of "{dst.raw[j]}": "no X does" is "X never does"')
    found = negation_verdict("negation", note, src, k, seg, dst, j, claim_negates=claim_negates)
    if found.status is ClaimStatus.UNSUPPORTED and _under_whether(dst, j) and not _asks_before(src, k):
        return _grey("negation", note, f'the other side names "{dst.raw[j]}" in a clause opened by "whether", which '
                     "asserts it no more than its opposite (the negating side states its case)")
    return found


# values that say there is none of a thing: "the upper bound is infinity" / "no upper bound"
_NO_VALUE = frozenset(["infinity", "infinite", "unbounded", "unlimited", "none", "null", "nil"])
_BE_FORMS = frozenset(["is", "are", "was", "were", "be", "being", "been"])


def _valued_as_none(t: _Text, j: int) -> bool:
    """Does ``t`` say, in the clause of ``j`` and within ``2 * WINDOW`` tokens after it, that
    what ``j`` names "is infinity" / "is None" (a form of "be" right before such a value)?"""
    c = t.clause[j]
    for x in range(j + 1, min(len(t.raw), j + 2 * WINDOW + 1)):
        if t.clause[x] != c:
            break
        if t.low[x] in _NO_VALUE and t.low[x - 1] in _BE_FORMS:
            return True
    return False


# verbs that link their subject to an adjective ("looks nice", "seems slow", "stays open")
_LINKING = frozenset(stem(w) for w in (
    "look", "looks", "looked", "looking", "seem", "seems", "seemed", "appear", "appears", "appeared",
    "sound", "sounds", "sounded", "feel", "feels", "felt", "become", "becomes", "became", "remain",
    "remains", "remained", "stay", "stays", "stayed", "get", "gets", "got", "turn", "turns", "turned",
    "grow", "grows", "grew", "prove", "proves", "proved"))
MAX_COMPLEMENT_GAP = 3  # tokens from a verb to the adjective after it ("look too nice")


def _other_complement(src: _Text, seg: list[int], dst: _Text, j: int) -> tuple[str, str] | None:
    """The negated side's linking verb and the adjective after it ("do not look too nice") where the
    other side's verb is followed by another adjective ("look bad"), which WordNet lists
    neither as the same nor as a wider word: the two speak of other complements, and "not
    nice" may restate "bad" - not a dropped negation of one statement. A real flip keeps the
    adjective ("look nice" / "do not look nice") and still flags. (negated phrase, other
    phrase), or None."""
    if len(seg) < 2 or seg[1] - seg[0] > MAX_COMPLEMENT_GAP or src.stems[seg[0]] not in _LINKING \
            or dst.stems[j] not in _LINKING:
        return None
    s1 = seg[1]
    c = dst.clause[j]
    d1 = next((x for x in range(j + 1, min(len(dst.raw), j + MAX_COMPLEMENT_GAP + 1))
               if dst.clause[x] == c and dst.content[x]), None)
    if d1 is None or dst.stems[d1] == src.stems[s1] or dst.kinds[d1] != _WORD or src.kinds[s1] != _WORD:
        return None
    lo, hi = sentence_bounds(dst, j)
    if src.stems[s1] in {dst.stems[x] for x in range(lo, hi) if dst.clause[x] == c}:
        return None  # the other side writes the negated side's adjective too
    a, b = src.low[s1], dst.low[d1]
    if not (lexicon.can_be_adjective(a) and lexicon.can_be_adjective(b)) \
            or lexicon.relation(b, a) in ("synonym", "general") or lexicon.relation(a, b) in ("synonym", "general"):
        return None
    return f"{src.raw[k0]} {src.raw[s1]}" if (k0 := seg[0]) >= 0 else src.raw[s1], f"{dst.raw[j]} {dst.raw[d1]}"


def _none_at(negated: _Text, p: int, plain: _Text, at: int) -> bool:
    """``_valued_as_none`` for the word the "no" at ``p`` denies, found on the plain side near
    ``at``."""
    seg = _segment(negated, p)
    if not seg:
        return False
    head = negated.stems[seg[0]]
    return any(plain.kinds[x] == _WORD and plain.stems[x] == head and _valued_as_none(plain, x)
               for x in range(max(0, at - 1), min(len(plain.raw), at + WINDOW + 1)))


def _complement_at(negated: _Text, p: int, plain: _Text, at: int) -> bool:
    """``_other_complement`` for the negator at ``p``, its verb found on the plain side at or
    right after ``at`` (an aligned difference's place)."""
    seg = _segment(negated, p)
    if len(seg) < 2:
        return False
    head = negated.stems[seg[0]]
    j = next((x for x in range(max(0, at - 1), min(len(plain.raw), at + MAX_COMPLEMENT_GAP + 1))
              if plain.kinds[x] == _WORD and plain.stems[x] == head), None)
    return j is not None and _other_complement(negated, seg, plain, j) is not None


# words that open an exception ("Except where a risk does not exist, every vessel shall ...",
# "unless it is not set"): a negation inside one is negated again
_EXCEPTING = frozenset({"except", "unless"})
# what makes "except" open a condition ("except where / when / if ..."); "except that no elements
# may be added" states a fact, negation included
_EXCEPT_CONDITION = frozenset({"where", "when", "whenever", "if", "in"})


def _in_exception(t: _Text, k: int) -> str | None:
    """The word opening the conditional exception that holds ``k`` ("unless ...", "except
    where ...", ``_opening_word``), if any."""
    word = _opening_word(t, k, _EXCEPTING)
    if word is None or word.lower() == "unless":
        return word
    x = next(x for x in range(k - 1, -1, -1) if t.low[x] == "except")
    return word if x + 1 < len(t.low) and t.low[x + 1] in _EXCEPT_CONDITION else None


# "diff says nothing about identical file pairs unless you pass -s" / "... but if you use the
# -s option, it reports pairs of identical files": the one side denies it unless a condition
# holds, the other states it in an "if" / "when" clause or in the main clause after one: no flip.
_IF_WORDS = frozenset({"if", "when", "whenever", "once"})


def _after_condition(t: _Text, j: int) -> bool:
    """Is ``j`` in an "if" / "when" clause or in the main clause after one, in its sentence,
    with no ";" or contrasting join ("but") between that word and ``j``?"""
    lo, _hi = sentence_bounds(t, j)
    for x in range(j - 1, lo - 1, -1):
        if t.raw[x] == ";" or t.low[x] in _CLAUSE_JOINS:
            return False
        if t.low[x] in _IF_WORDS:
            return True
    return False


# "no other target in the project may use it" / "must be globally unique within a project":
# "no other X" is what "unique" / "only" / "sole" say
_SOLE = frozenset({"unique", "only", "sole", "solely", "exclusive", "exclusively"})
# "not the only factor" / "not the sole reason" (issue 25, fresh30): a partial negation
# (``_partial_negation``) - it denies that nothing else is one, and states that this one is ("not
# only X" is no negator at all: ``analysis._is_negator``)
_PARTIAL_THE = dict.fromkeys(("only", "sole"), _SOLE)


# "would not reuse a reference for more than 584 years" / "references will at earliest be
# reused after more than 584 years": a negation bounded by a stretch of time ("for" and a
# number within three words, in the negator's clause) says when, as "not ... until" does; the
# other side's "after" / "earliest" / "later" / "until" then states the same timing.
_LATER = frozenset({"after", "earliest", "later", "until", "till"})


def _negated_for_a_time(t: _Text, k: int) -> bool:
    n = len(t.raw)
    x = k + 1
    while x < n and t.clause[x] == t.clause[k]:
        if t.low[x] == "for" and any(t.kinds[y] == _NUM for y in range(x + 1, min(n, x + 4))):
            return True
        x += 1
    return False


# "Unless torque, or twisting force, is applied": a comma pair round another name for what
# precedes it (", or twisting force,", at most ``_ASIDE_MAX`` words, opening with "or") does not
# end the clause "unless" opens; ``_opening_word`` stops at the first comma.
_ASIDE_MAX = 4


def _unless_across_aside(t: _Text, j: int) -> bool:
    """Is the word at ``j`` in a clause opened by "unless", read back over such asides?"""
    x = j - 1
    while x >= 0 and not t.sent_start[x + 1]:
        w = t.low[x]
        if w == "unless":
            return True
        if t.raw[x] == ",":
            y = next((y for y in range(x - 1, max(-1, x - _ASIDE_MAX - 2), -1) if t.raw[y] == ","), None)
            if y is None or t.low[y + 1] != "or" or any(t.kinds[z] != _WORD for z in range(y + 1, x)):
                return False
            x = y - 1
            continue
        if t.raw[x] in (";", ":", "\u2014", "\u2013", "(", ")") or w in _CLAUSE_JOINS:
            return False
        x -= 1
    return False


def _opening_word(t: _Text, k: int, words: frozenset[str]) -> str | None:
    """The word of ``words`` that opens the stretch of ``k``'s sentence holding ``k``: the
    first of them back from ``k``, with no comma, colon, semicolon, dash or contrasting join
    ("but", "however", ...) between (a clause break of another kind - "where", "that" - does
    not end it: "Except where it has been determined that a risk does not exist")."""
    x = k - 1
    while x >= 0:
        w = t.low[x]
        if w in words:
            return t.raw[x]
        if t.raw[x] in (",", ";", ":", "\u2014", "\u2013", "(", ")") or w in _CLAUSE_JOINS or t.sent_start[x]:
            return None
        x -= 1
    return None


def _negations(t: _Text) -> int:
    """How many negations the text makes: a "nor" after an earlier negator continues it
    ("neither A nor B", "not A nor B": one)."""
    n = seen = 0
    for k, is_neg in enumerate(t.neg):
        if is_neg:
            n += not (seen and t.low[k] == "nor")
            seen += 1
    return n


_EXCEPTIONS = frozenset({"except", "unless", "save", "other", "outside", "besides"})
_ONLY = frozenset({"only", "solely", "exclusively"})


def _no_except_only(negated: _Text, plain: _Text) -> bool:
    """Does the negated side say "no X except Y" ("No reads or writes occur except within a
    transaction") where the other side says "only" ("happen only inside a transaction")? The
    two state the same restriction."""
    if _ONLY.isdisjoint(plain.lowset):
        return False
    for k, is_neg in enumerate(negated.neg):
        if is_neg:
            j = k + 1
            while j < len(negated.raw) and not negated.sent_start[j] and negated.raw[j] not in (".", ";"):
                if negated.low[j] in _EXCEPTIONS and (negated.low[j] != "other" or (
                        j + 1 < len(negated.raw) and negated.low[j + 1] == "than")):
                    return True
                j += 1
    return False


def _stated_negated_elsewhere(claim: _Text, cpos: list[int], quotes: list[_Text]) -> bool:
    """Is the word the claim's added negator negates stated negated in some quote ("not
    found" aligned against "is found but is not executable" while another quote says "if a
    command is not found")? Then the alignment paired the claim with the wrong quote."""
    heads = set()
    for p in cpos:
        if claim.neg[p]:
            seg = _segment(claim, p)
            if seg:
                heads.add(claim.stems[seg[0]])
    # an explicit negator of the quote whose segment holds the word (an implicit negation
    # elsewhere in the clause, "ignored", "against", is not enough)
    return bool(heads) and any(not heads.isdisjoint(t.stems[j] for j in _segment(t, k))
                               for t in quotes for k, is_neg in enumerate(t.neg) if is_neg)


def _sentence_negations(t: _Text, at: int) -> tuple[int, set[str]]:
    """How many negations the sentence of ``at`` makes ("neither A nor B": one), and the
    stems of the words they negate (``_segment``)."""
    lo, hi = sentence_bounds(t, min(at, len(t.raw) - 1))
    n = seen = 0
    negated: set[str] = set()
    for k in range(lo, hi):
        if t.neg[k]:
            n += not (seen and t.low[k] == "nor")
            seen += 1
            negated.update(t.stems[x] for x in _segment(t, k))
    return n, negated


def _moved_in_sentence(claim: _Text, q: _Text, i1: int, j1: int) -> bool:
    """Do the sentences that hold an aligned stretch make as many negations on both sides,
    one at least, and do they negate a word in common? A negator one side has in the stretch
    the other then writes elsewhere in that sentence, on the same thing: "the successor would
    become acting President and not the President" / "the successor would not become
    president, but would only be acting as president" - the negation moved, none was added or
    dropped (``_negations`` asks the same of the whole texts; a quote often holds other
    sentences with negations of their own). A negation of another thing ("the order matters,
    and the server rejects what it does not recognise" / "the order does not matter") moved
    nothing."""
    if not claim.raw or not q.raw:
        return False
    cat = claim.align_pos[i1] if i1 < len(claim.align_pos) else len(claim.raw) - 1
    qat = q.align_pos[j1] if j1 < len(q.align_pos) else len(q.raw) - 1
    n, c_negated = _sentence_negations(claim, cat)
    m, q_negated = _sentence_negations(q, qat)
    return n > 0 and n == m and not c_negated.isdisjoint(q_negated)


def _copied_elsewhere_unnegated(claim: _Text, q: _Text, i2: int, j2: int) -> bool:
    """Do the claim's words right after an aligned stretch (its next three aligned tokens,
    at least two) stand word for word at another place of the quote, in a clause without
    negation? The alignment then paired the claim with the wrong mention: "The telescope is
    not in orbit around the Earth, like Hubble is - it actually orbits the Sun, 1.5 million
    km away" states "orbits the Sun, 1.5 million" unnegated, whatever "not" says of the
    Earth."""
    m = min(3, len(claim.align) - i2)
    if m < 2:
        return False
    seq = claim.align[i2:i2 + m]
    for p in range(len(q.align) - m + 1):
        if p != j2 and q.align[p:p + m] == seq and \
                not any(_negated_at(q, q.align_pos[x]) for x in range(p, p + m)):
            return True
    return False


def _denied_in_clause(plain: _Text, at: int, negated: _Text) -> bool:
    """Does a word of ``plain`` deny by its meaning (``_DENYING``: "missing", "absent",
    "lacks"), one the negated side does not write, in the clause of the word at ``at``
    (within ``2 * WINDOW`` tokens)? Then both sides deny the words the negator covers,
    one by a negator, one by a word: no negation was dropped or added."""
    if at >= len(plain.raw):
        return False
    c = plain.clause[at]
    if any(plain.kinds[x] == _WORD and plain.stems[x] in _DENYING and plain.stems[x] not in negated.stemset
           for x in range(max(0, at - 2 * WINDOW), min(len(plain.raw), at + 2 * WINDOW)) if plain.clause[x] == c):
        return True
    return _denied_that(plain, at, negated)


def _denied_that(plain: _Text, at: int, negated: _Text) -> bool:
    """Does the "that" clause of ``at`` hang on a denying word right before "that" ("it is
    unlikely that individual cases will lead to outbreaks", "it is false that ...") - one the
    negated side does not write? The clause is denied there too (``_DENYING``), through the
    clause break "that" makes: no negation was dropped."""
    lo, _hi = sentence_bounds(plain, at)
    for x in range(at - 1, max(lo - 1, at - 9), -1):
        if plain.raw[x] in (",", ";", ":", "(", ")"):
            return False
        if plain.low[x] == "that":
            return any(plain.kinds[y] == _WORD and plain.stems[y] in _DENYING and plain.stems[y] not in negated.stemset
                       for y in range(max(lo, x - 2), x))
    return False


# negators that negate a clause through the noun phrase they open ("bound to neither process",
# "uses no lock", "nothing was found"): the clause's verb is denied all the same
_NOUN_NEGATORS = frozenset({"no", "neither", "none", "nothing", "nobody", "nowhere"})


def _negation_on_a_noun(plain: _Text, at: int, negated: _Text, neg_at: int) -> bool:
    """Does ``plain`` (the side without the verb's negator) negate the same clause by a negator
    of a noun phrase, one the negated side does not write in that sentence? "some ports will not
    be bound to the old process" and "some ports are bound to neither process" both deny the
    binding: "not V any X" is "V no X", and "neither" is "not either". The negation moved from
    the verb to its object (or subject); none was dropped."""
    if at >= len(plain.raw):
        return False
    c = plain.clause[at]
    lo, hi = sentence_bounds(negated, min(neg_at, len(negated.raw) - 1))
    written = set(negated.low[lo:hi])
    return any(plain.neg[x] and plain.low[x] in _NOUN_NEGATORS and plain.low[x] not in written
               for x in range(max(0, at - 2 * WINDOW), min(len(plain.raw), at + 2 * WINDOW))
               if plain.clause[x] == c)


def _held_back_before(t: _Text, at: int) -> bool:
    """Does a verb that holds back ("prevents", "keeps", "stops") stand before ``at`` in its
    sentence, with no ";", ":", dash or contrasting join between (a relative clause on its object
    may: "prevents a worker who may read the queue from taking a job")?"""
    lo, _hi = sentence_bounds(t, min(at, len(t.raw) - 1))
    for p in range(min(at, len(t.raw)) - 1, lo - 1, -1):
        if t.low[p] in _HOLDING_BACK:
            return True
        if t.low[p] in _CLAUSE_JOINS or t.raw[p] in (";", ":", "\u2014"):
            return False
    return False


def _antonym_stated(plain: _Text, covered: list[str], at: int) -> bool:
    """Does ``plain`` state, in the sentence of ``at`` and within ``WINDOW`` tokens after it
    (two before), the opposite (``words._ANTONYMS``) of the first word the other side's
    negation covers ("might not be high enough" / "may be too low", "is not fast" / "is slow")? "not
    X" then restates "the opposite of X": the negator added or dropped is no flip."""
    if not covered or not plain.raw:
        return False
    at = min(at, len(plain.raw) - 1)
    lo, hi = sentence_bounds(plain, at)
    near = {plain.stems[p] for p in range(max(lo, at - 2), min(hi, at + WINDOW + 1)) if plain.kinds[p] == _WORD}
    # (not when the plain side writes the word itself there too: "reads or writes" lists both)
    return any(frozenset((c, w)) in _ANTONYMS for c in covered if c not in near for w in near)


def _negation_in_block(claim: _Text, q: _Text, i1: int, i2: int, j1: int, j2: int,
                       quotes: list[_Text] | None = None) -> str | None:
    """A negator on one side of an aligned difference, nothing of substance on the other:
    "cannot be split" / "can be split", "does not raise" / "raises"."""
    cpos = [claim.align_pos[a] for a in range(i1, i2)]
    qpos = [q.align_pos[b] for b in range(j1, j2)]
    cneg = any(claim.neg[p] for p in cpos)
    qneg = any(q.neg[p] for p in qpos)
    if cneg == qneg:
        return None
    if any(claim.content[p] and not claim.neg[p] for p in cpos) or any(q.content[p] and not q.neg[p] for p in qpos):
        return None  # words of substance changed too: not a plain negation flip
    if _negations(claim) == _negations(q):
        return None  # as many negations on both sides: one moved, none was added or dropped
    if _moved_in_sentence(claim, q, i1, j1):
        return None  # "would become acting President and not the President" / "would not become president"
    other = qpos if cneg else cpos
    if any(stem((q if cneg else claim).low[p]) in _MEANS_NOT
           or negative_scale_word((q if cneg else claim).low[p]) for p in other):
        # "not often" / "rarely", "not many" / "few", "not in SQL" / "rather than in SQL",
        # "it is not by default" / "which is off by default"
        return None
    side = q if cneg else claim
    if any(side.low[p] == "beyond" or side.low[p] == "out" and p + 1 < len(side.low) and side.low[p + 1] == "of"
           for p in other):
        return None  # "cannot be reached" / "is out of reach"
    negated = claim if cneg else q
    if any(negated.neg[p] and not _NOT_MUCH.isdisjoint(negated.low[p + 1:p + 4]) for p in (cpos if cneg else qpos)) \
            and not _LITTLE.isdisjoint((q if cneg else claim).lowset):
        return None  # "doesn't use much CPU" / "uses little CPU"
    if any(negated.low[p] == "nor" for p in (cpos if cneg else qpos)):
        return None  # "neither A nor B" / "not A or B"
    if any(negated.neg[p] and _not_a_denial(negated, p) for p in (cpos if cneg else qpos)):
        return None  # "Without carbon dioxide, life would die" / "carbon dioxide is essential to life"
    plain = q if cneg else claim
    at = (q.align_pos[j1] if j1 < len(q.align_pos) else len(q.raw)) if cneg else \
        (claim.align_pos[i1] if i1 < len(claim.align_pos) else len(claim.raw))
    if plain.raw and _asked_who(plain, min(at, len(plain.raw) - 1)):
        return None  # "Nobody can guarantee that ..." / "And who will guarantee you that ...?": asked, not stated
    if plain.raw and _or_not_elided(plain, min(at, len(plain.raw) - 1)):
        return None  # "test whether strings are equal or not equal" / "string not equal": both branches asked
    if plain.raw and _under_whether(plain, min(at, len(plain.raw) - 1)) \
            and not any(negated.neg[p] and _asks_before(negated, p) for p in (cpos if cneg else qpos)):
        return None  # "checks whether the file exists" / "the file does not exist": a question, no statement
    if plain.raw and any(negated.neg[p] and _segment(negated, p)
                         and _said_differently(negated, _segment(negated, p)[0], plain, min(at, len(plain.raw) - 1))
                         for p in (cpos if cneg else qpos)):
        return None  # "might not behave as you expect" / "may behave differently than expected"
    if plain.raw and any(negated.neg[p] and _otherwise_case(negated, p, plain, min(at, len(plain.raw) - 1))
                         for p in (cpos if cneg else qpos)):
        return None  # "must not have the same name, otherwise it would overwrite it" / "a method so named would overwrite it"
    if any(negated.neg[p] and _negated_bound(negated, p, [plain]) for p in (cpos if cneg else qpos)):
        return None  # "No X can have more than one" / "X may have at most one"
    if _no_except_only(negated, plain):
        return None  # "no X except in Y" / "X only in Y"
    covered = [negated.stems[x] for p in (cpos if cneg else qpos) if negated.neg[p] for x in _segment(negated, p)]
    if lexical_negation(plain, covered):
        return None  # "has not been initialized" / "uninitialized": the other side negates it by a prefix
    if cneg and quotes and _stated_negated_elsewhere(claim, cpos, quotes):
        return None
    if not cneg and _copied_elsewhere_unnegated(claim, q, i2, j2):
        return None  # "it is not in orbit around the Earth ... it actually orbits the Sun" / "it orbits the Sun"
    if plain.raw and _function_words_around(claim, q, i1, i2, j1, j2) \
            and _covered_absent(plain, covered, min(at, len(plain.raw) - 1)):
        return None  # "he cannot be charged a second time" / "you can still be put in jail": not the same words
    if plain.raw and any(negated.neg[p] and _other_value_denied(negated, _segment(negated, p), plain,
                                                                min(at, len(plain.raw) - 1))
                         for p in (cpos if cneg else qpos)):
        return None  # "did not release a nine-track EP" / "released a five-track EP": another value denied
    heads = [negated.stems[_segment(negated, p)[0]] for p in (cpos if cneg else qpos)
             if negated.neg[p] and _segment(negated, p)]
    if _antonym_stated(plain, heads, at):
        return None  # "might not be high enough" / "may be too low": the other side states the opposite word
    if plain.raw and any(negated.low[p] == "no" and _none_at(negated, p, plain, at) for p in (cpos if cneg else qpos)):
        return None  # "no upper bound" / "the upper bound is infinity"
    if plain.raw and any(negated.neg[p] and _complement_at(negated, p, plain, at) for p in (cpos if cneg else qpos)):
        return None  # "do not look too nice" / "look bad": another adjective after the verb
    # (the plain side's words right after the differing stretch: "If you pull" / "Don't pull")
    after = (q.align_pos[j2] if j2 < len(q.align_pos) else len(q.raw)) if cneg else \
        (claim.align_pos[i2] if i2 < len(claim.align_pos) else len(claim.raw))
    if any(negated.neg[p] and _under_denied_meaning(negated, p) for p in (cpos if cneg else qpos)):
        return None  # "that doesn't mean they never want to meet" / "they want to meet"
    if after < len(plain.raw) and any(negated.neg[p] and _partial_negation(negated, p, plain, after)
                                      for p in (cpos if cneg else qpos)):
        return None  # "You don't always have to use primer" / "Consider using primer"
    if after < len(plain.raw) and any(negated.neg[p] and _one_side_conditional(negated, p, plain, after)
                                      for p in (cpos if cneg else qpos)):
        return None  # "If you haven't cleaned your cabinets, ..." / "Clean the cabinets.": a condition asserts nothing
    if after < len(plain.raw) and any(negated.neg[p] and _segment(negated, p)
                                      and _qualified_otherwise(negated, _segment(negated, p)[0], plain, after)
                                      for p in (cpos if cneg else qpos)):
        return None  # "Never use obvious passwords" / "Use secure passwords": another kind of thing
    if after < len(plain.raw) and any(negated.neg[p] and _segment(negated, p)
                                      and _other_scope(negated, _segment(negated, p)[0], plain, after)
                                      for p in (cpos if cneg else qpos)):
        return None  # "cannot be accommodated at breakfast" / "can be accommodated at lunchtimes"
    if any(negated.neg[p] and _in_exception(negated, p) for p in (cpos if cneg else qpos)) \
            and not _in_exception(plain, at):
        return None  # "Except where a risk does not exist, ..." / "If a risk exists, ...": a double negation
    if plain.raw and _unless_across_aside(plain, min(at, len(plain.raw) - 1)):
        return None  # "as long as torque, or twisting force, is not applied" / "unless torque, or ..., is applied"
    if any(negated.neg[p] and (_left_open(negated, p) or _denied_as_false(negated, p)
                               or plain.raw and _not_but(negated, p, plain, at)) for p in (cpos if cneg else qpos)):
        return None  # "may or may not be", "it is wrong to say that ... no", "not on A but on B": no denial (fresh18)
    if plain.raw and any(negated.neg[p] and _checked_for(negated, p, plain, min(at, len(plain.raw) - 1))
                         for p in (cpos if cneg else qpos)):
        return None  # "checking for unclosed literals" / "checking that there are no unclosed literals"
    if plain.raw and (_only_in_case(plain, min(at, len(plain.raw) - 1)) or _elliptic_negation(plain, min(at, len(plain.raw) - 1))
                      or _counted_zero(plain, min(at, len(plain.raw) - 1))):
        return None  # "only when it is activated" / "do not have ... by default"; "If they don't, ..."; "zero rules"
    if _denied_in_clause(plain, at, negated):
        return None  # "when the directory is missing" / "if there is no directory"
    if _omitted_in_sentence(plain, min(at, len(plain.raw) - 1)):
        return None  # "when the size is left out" / "when no size is specified"
    if cneg and any(claim.low[p] == "without" for p in cpos) \
            and any(plain.kinds[x] == _WORD and plain.stems[x] in covered and _predicate_denied(plain, x)
                    for x in range(at, min(len(plain.raw), at + WINDOW))):
        return None  # "even without reindexing" / "even when reindexing is not necessary": the quote denies it too
    near = range(max(0, at - 3), min(len(plain.raw), at + 3))
    if any(plain.neg[p] and plain.low[p] in _NEGATORS for p in near) or \
            any(plain.low[p] == "far" and p + 1 < len(plain.raw) and plain.low[p + 1] == "from" for p in near):
        return None  # a negation right there on the other side too ("far from mandatory" / "not mandatory")
    if _negation_on_a_noun(plain, at, negated, (cpos if cneg else qpos)[0]):
        return None  # "will not be bound to the old process" / "are bound to neither process"
    if "from" in plain.low[max(0, at - 3):at + 2] and _held_back_before(plain, at):
        return None  # "keep the server from thrashing" / "so the server does not thrash"
    if not _KEPT_OUT.isdisjoint(plain.low[max(0, at - 1):at + 2]) and _held_back_before(plain, at):
        return None  # "keep potential attackers out" / "so that attackers cannot get in"
    if any(plain.kinds[p] == _WORD and plain.stems[p] in _IMPLICIT_NEG_STEMS and plain.stems[p] not in negated.stemset
           for p in range(max(0, at - 6), at)):
        # "stops exceptions from being re-raised" / "exceptions are not re-raised": the
        # negation is in a word of its own, which the other side lacks (so the claim is
        # left to the proof, which cannot show that word: unchecked, never supported)
        return None
    negs = [claim.raw[p] for p in cpos if claim.neg[p]] or [q.raw[p] for p in qpos if q.neg[p]]
    if cneg:
        return f'the claim adds "{" ".join(negs)}" to words the quote states without it'
    return f'the quote says "{" ".join(negs)}" where the claim, otherwise the same words, drops it'



# --- shapes a negation flag cannot prove (issue 25, fresh18) ---------------------------------

_MAYBE = frozenset({"maybe", "perhaps", "possibly"})


def _left_open(t: _Text, k: int) -> str | None:
    """Does the negator at ``k`` leave the question open - "may or may not", "is or is not",
    "whether or not", "X or not", "maybe not" / "perhaps not" / "possibly not"? It asserts
    neither its words nor their negation: the words as written, else None."""
    if k >= 1 and t.low[k - 1] == "or":
        return " ".join(t.raw[max(0, k - 2):k + 1])  # "whether or not", "can or cannot"
    if k >= 3 and t.low[k - 2] == "or" and t.low[k - 1] == t.low[k - 3] and t.kinds[k - 1] == _WORD:
        return " ".join(t.raw[k - 3:k + 1])  # "may or may not", "does or does not"
    if k >= 1 and t.low[k] == "not" and t.low[k - 1] in _MAYBE:
        return f"{t.raw[k - 1]} {t.raw[k]}"
    return None


_FALSITY = frozenset({"wrong", "false", "untrue", "incorrect", "mistaken", "myth", "misconception"})
_TRUTH = frozenset({"true", "case", "correct", "right"})


def _denied_as_false(t: _Text, k: int) -> str | None:
    """Does the negator at ``k`` stand in a "that" clause the text calls false - "It is wrong
    to say that X has no Y", "it is a myth that ...", "it is not true that ..."? The text
    denies the negation again (a double negation): the words from the falsity word to "that"
    (within eight tokens before ``k``, no comma, semicolon or colon between), else None."""
    lo, _hi = sentence_bounds(t, k)
    that = None
    for x in range(k - 1, max(lo - 1, k - 9), -1):
        if t.raw[x] in (",", ";", ":"):
            return None
        if t.low[x] == "that" and that is None:
            that = x
        if that is not None and x < that and (
                t.low[x] in _FALSITY or t.low[x] in _TRUTH and any(t.neg[y] for y in range(max(lo, x - 3), x))):
            return " ".join(t.raw[x:that + 1])
    return None


def _elliptic_negation(t: _Text, j: int) -> str | None:
    """Does ``t`` state the negated case of the word at ``j`` by an ellipsis in a condition -
    "Inputs must explicitly bind to rulesets. If they don't, the default ruleset is bound",
    "if not, ..." - after ``j`` in its sentence or in the next one (a negator that negates no
    word, in a clause an "if" / "when" opens)? Then it speaks of the case the other side's
    negation names, as "otherwise" does: the words as written, else None."""
    lo, hi = sentence_bounds(t, j)
    if hi < len(t.raw):
        hi = sentence_bounds(t, hi)[1]
    for x in range(j + 1, hi):
        if t.neg[x] and not _segment(t, x):
            cond = _condition_at(t, x)
            if cond:
                at = next(y for y in range(x - 1, -1, -1) if t.raw[y] == cond)
                return " ".join(t.raw[at:x + 1])
    return None


_RESTRICTING_CASE = _IF | {"once", "after"}


def _only_in_case(t: _Text, j: int) -> str | None:
    """Does ``t`` restrict the word at ``j`` to a case - "only when it is activated", "only
    if ...", "only after ..." later in its sentence? Then the other side's negation may state
    the case outside it ("By default, rulesets do not have their own queue"): the words as
    written, else None."""
    _lo, hi = sentence_bounds(t, j)
    for x in range(j + 1, hi - 1):
        if t.low[x] in _ONLY and t.low[x + 1] in _RESTRICTING_CASE:
            return f"{t.raw[x]} {t.raw[x + 1]}"
    return None


def _counted_zero(t: _Text, j: int) -> str | None:
    """Is the word at ``j`` counted zero ("zero rules", "0 errors", one word between at most,
    in its clause)? A count of zero denies it as "no" does: the word, else None."""
    for x in range(j - 1, max(-1, j - 3), -1):
        if t.clause[x] != t.clause[j]:
            return None
        if t.low[x] in ("zero", "0"):
            return t.raw[x]
    return None


_COPULA = frozenset({"is", "are", "was", "were", "be", "been", "being"})


def _name_denied(src: _Text, k: int, seg: list[int], dst: _Text, j: int) -> bool:
    """Does the negator at ``k`` deny an identity with a name - a copula's "not" whose words
    are a name only ("The lead vocalist of the Editors is not Ed Lay") - while the other side
    writes none of what it is said of (the content words before the copula in its sentence)
    within three tokens of the name? A side that names "Ed Lay (drums, ...)" in a list says
    nothing of who the lead vocalist is: no flip."""
    if k == 0 or src.low[k - 1] not in _COPULA or not all(src.entity[x] for x in seg):
        return False
    lo, _hi = sentence_bounds(src, k)
    said_of = {src.stems[x] for x in range(lo, k - 1) if src.content[x]}
    end = j + (seg[-1] - seg[0])
    return not any(dst.stems[x] in said_of for x in range(max(0, j - 3), min(len(dst.raw), end + 4))
                   if dst.clause[x] == dst.clause[j])


_OTHERS = frozenset({"other", "others", "rest", "remaining", "remainder"})


def _said_of_others(src: _Text, k: int, dst: _Text, j: int) -> str | None:
    """Is the negation at ``k`` said of "others" / "the rest" (a word of ``_OTHERS`` before it
    in its clause: "Some others are not jumping") while the other side's clause of ``j`` has
    none ("While two students are jumping, others ... are sitting")? It denies the words of
    those the other side does not speak of there: the word, else None."""
    lo, _hi = sentence_bounds(src, k)
    word = next((src.raw[x] for x in range(lo, k) if src.low[x] in _OTHERS and src.clause[x] == src.clause[k]), None)
    if word is None or any(dst.low[x] in _OTHERS for x in range(len(dst.raw)) if dst.clause[x] == dst.clause[j]):
        return None
    return word


# adjectives that say their noun is no real one ("prosthetic arms", "a fake gun", "a toy car"):
# "no arms" is no flip of "prosthetic arms"
_PRIVATIVE = frozenset({"prosthetic", "artificial", "fake", "faux", "imitation", "mock", "toy", "replica",
                        "simulated", "counterfeit", "fictional", "pretend", "former"})


def _privative_before(dst: _Text, j: int, src: _Text) -> str | None:
    for x in range(j - 1, max(-1, j - 3), -1):
        if dst.clause[x] != dst.clause[j]:
            return None
        if dst.low[x] in _PRIVATIVE and dst.low[x] not in src.lowset:
            return dst.raw[x]
    return None


_NEEDING = frozenset(stem(w) for w in ("need", "needed", "required", "require", "necessary", "mandatory",
                                       "essential"))


def _called_optional(src: _Text, seg: list[int], dst: _Text, j: int) -> str | None:
    """Does the negation deny a need ("the dethorning tool isn't needed") where the other
    side's sentence calls a thing the negated side names "optional" ("you will need ...,
    dethorning tool (optional), ...", within three tokens after one of its words)? "optional"
    is "not needed": the word, else None."""
    if not seg or src.stems[seg[0]] not in _NEEDING:
        return None
    named = {src.stems[x] for x in range(len(src.raw)) if src.content[x]} - {src.stems[seg[0]]}
    lo, hi = sentence_bounds(dst, j)
    for x in range(lo, hi):
        if dst.low[x] in ("optional", "optionally") and any(
                dst.stems[y] in named for y in range(max(lo, x - 3), x)):
            return dst.raw[x]
    return None


def _relative_on_negated(neg_side: _Text, k: int, plain: _Text, j: int) -> str | None:
    """Does the negated noun phrase at ``k`` carry a relative clause ("They also have no
    side-effects with include files, which can be a major obstacle with legacy statements")
    that the other side restates of the noun, opening its sentence with it ("Side effects
    with include files can be a major obstacle with legacy statements")? The relative clause
    says what the noun is, not negated: no flip. Two thirds of the other side's words after
    the noun (two at least) must stand in it: the relative word, else None."""
    seg = _segment(neg_side, k)
    if not seg:
        return None
    plo, phi = sentence_bounds(plain, j)
    if any(plain.content[x] for x in range(plo, j)):
        return None  # the noun does not open the other side's sentence
    n = len(neg_side.raw)
    x = seg[-1] + 1
    while x < n and neg_side.clause[x] == neg_side.clause[seg[-1]]:
        x += 1
    if x < n and neg_side.raw[x] == ",":
        x += 1
    if x >= n or neg_side.low[x] not in ("which", "that", "who"):
        return None
    _lo, nhi = sentence_bounds(neg_side, x)
    rel = {neg_side.stems[y] for y in range(x + 1, nhi) if neg_side.content[y]}
    rest = {plain.stems[y] for y in range(j, phi) if plain.content[y]} - {neg_side.stems[y] for y in seg}
    return neg_side.raw[x] if len(rest) >= 2 and 3 * len(rest & rel) >= 2 * len(rest) else None


# "not well suited" said as "poorly suited" (issue 25, fresh24): the adverb carries the negation.
_POORLY = frozenset({"poorly", "badly", "ill"})


def _not_well_as_poorly(src: _Text, k: int, dst: _Text, j: int) -> str | None:
    """The other side's "poorly"/"badly"/"ill" right before the words the negator at ``k``
    denies, when the negator is followed by "well": "not well suited" / "poorly suited"."""
    if k + 1 >= len(src.low) or src.low[k + 1] != "well" or j < 1 or dst.low[j - 1] not in _POORLY:
        return None
    return f"{dst.raw[j - 1]} {dst.raw[j]}"


# "can't be shared between modules easily" said as "hard to share between modules" (issue 25,
# fresh29): what is not done easily is hard to do; "hard to" carries the negation of the ease.
_EASE = frozenset({"easily", "easy", "readily"})
_HARD = frozenset({"hard", "difficult", "tricky"})


def _not_easily_as_hard(src: _Text, seg: list[int], dst: _Text, j: int) -> str | None:
    """The other side's "hard to" / "difficult to" right before the word a negator denies (at
    ``j``), when what the negator denies is the ease ("easily" / "easy" / "readily" among the
    words it negates, ``seg``): "can't be shared easily" / "hard to share". Returns the other
    side's words, else None."""
    if j < 2 or dst.low[j - 1] != "to" or dst.low[j - 2] not in _HARD \
            or not any(src.low[x] in _EASE for x in seg):
        return None
    return f"{dst.raw[j - 2]} to {dst.raw[j]}"


def _denied_name_named(src: _Text, k: int, dst: _Text) -> str | None:
    """A negated side that says "utf8 is not a valid name" read against a side that says "the
    valid name is UTF-8, not utf8" (issue 25, fresh24): the name right before "is not" is the
    one the other side sets apart with ", not <name>" - the same denial, moved onto the name.
    Returns the other side's "not <name>", else None."""
    if k < 2 or src.low[k - 1] not in _COPULAS or src.kinds[k - 2] != _WORD:
        return None
    name = src.low[k - 2]
    for y in range(1, len(dst.low) - 1):
        if dst.low[y] == "not" and dst.raw[y - 1] == "," and dst.low[y + 1] == name \
                and (y + 2 == len(dst.low) or dst.kinds[y + 2] != _WORD):
            return f"{dst.raw[y]} {dst.raw[y + 1]}"
    return None


_COPULAS = frozenset({"is", "are", "was", "were"})


def _unproven_flip(src: _Text, k: int, seg: list[int], dst: _Text, j: int) -> str | None:
    """Why the negator at ``k`` of ``src`` against the words at ``j`` of ``dst`` proves no flip,
    in one of the shapes above (issue 25, fresh18), else None."""
    found = _not_well_as_poorly(src, k, dst, j)
    if found:
        return f'the other side says "{found}", which is "not well"'
    found = _not_easily_as_hard(src, seg, dst, j)
    if found:
        return f'the other side says "{found}", which is "not easily"'
    found = _denied_name_named(src, k, dst)
    if found:
        return f'the other side denies "{found}" too, the name the negation is said of'
    found = _left_open(src, k)
    if found:
        return f'"{found}" leaves it open: it asserts neither the words nor their negation'
    found = _denied_as_false(src, k)
    if found:
        return f'the negation stands under "{found}", which denies it again'
    found = _elliptic_negation(dst, j) if _in_case(src, k) else None
    if found:
        return f'the other side states the negated case too, by an ellipsis ("{found}")'
    found = _only_in_case(dst, j) or _only_in_case(src, k)
    if found:
        return f'"{found}" restricts it to a case: the negation may state the case outside it'
    found = _counted_zero(dst, j)
    if found:
        return f'the other side counts it "{found}", which denies it as the negator does'
    if _name_denied(src, k, seg, dst, j):
        return "the negation denies an identity with a name, and the other side writes none of what it is said of " \
               "next to the name"
    found = _said_of_others(src, k, dst, j)
    if found:
        return f'the negation is said of "{found}", of whom the other side\'s clause does not speak'
    found = _privative_before(dst, j, src)
    if found:
        return f'the other side says "{found} {dst.raw[j]}", which is no real one'
    found = _called_optional(src, seg, dst, j)
    if found:
        return f'the other side calls it "{found}", which is "not needed"'
    if _ability_denied(src, k) and _required_at(dst, j):
        return 'the negation denies that it can be, the other side says it must be: another modality'
    found = _embedded_question(src, k)
    if found:
        return f'the negation stands in a question ("{found}"), which the sentence asks, not states'
    found = _other_value_denied(src, seg, dst, j)
    if found:
        return f'the negation covers a value where the other side writes another ("{found}"): it denies the value'
    found = _not_but(src, k, dst, j)
    if found:
        return f'the negation is one of a correction, "not ... {found}", whose second part the other side states'
    found = _relative_on_negated(src, k, dst, j)
    if found:
        return f'the other side restates the relative clause ("{found} ...") on the negated words, not their negation'
    found = _checked_for(src, k, dst, j)
    if found:
        return f'the negation is what a check makes sure of, and the other side says the check is "{found}" it'
    found = _narrower_stated_apart(src, seg, dst, j)
    if found:
        return f'the other side says it of the narrower "{found}", which the negating side states apart, unnegated'
    return None


def _narrower_stated_apart(src: _Text, seg: list[int], dst: _Text, j: int) -> str | None:
    """Does the other side qualify the negated words with a word the negated phrase lacks
    ("the longest toll road" / "not the longest road"), a word the negating side itself writes
    unnegated elsewhere, by the same words ("Although route 9 is the longest toll road, it is
    not the longest road")? The negating side tells the narrower thing from the wider, states
    the narrower as the other side does, and denies only the wider: the phrase as the other
    side writes it, else None."""
    if len(seg) < 2:
        return None
    nxt = src.stems[seg[1]]
    lo, hi = sentence_bounds(dst, j)
    end = next((x for x in range(j + 1, min(hi, j + 4)) if dst.stems[x] == nxt), None)
    if end is None:
        return None
    extra = {dst.stems[x] for x in range(j + 1, end) if dst.content[x]}
    if not extra:
        return None
    for x in range(len(src.raw)):
        if src.stems[x] == src.stems[seg[0]] and x not in seg and src.clause[x] not in src.neg_clauses \
                and all(any(src.stems[y] == w for y in range(x + 1, min(len(src.raw), x + 4))) for w in extra):
            return " ".join(dst.raw[j:end + 1])
    return None


_CHECKING = frozenset(stem(w) for w in ("check", "checks", "checking", "checked", "verify", "verifies", "verifying",
                                        "verified", "test", "tests", "testing", "tested"))


def _checked_for(src: _Text, k: int, dst: _Text, j: int) -> str | None:
    """Does the negator at ``k`` stand in what a check makes sure of, a verb of checking then
    "that" / "whether" in the four tokens before it ("checking that there are no unclosed
    literals"), where the other side writes the same check "for" the words ("checking for
    unclosed literals", the verb and "for" in the three tokens before ``j`` or at it)? A check for X
    is a check that there is no X: "for", else None."""
    if not any(src.stems[x] in _CHECKING and src.low[x + 1] in ("that", "whether")
               and not any(src.raw[y] in _STOPS or src.raw[y] == "." for y in range(x + 1, k))
               for x in range(max(0, k - 5), k)):
        return None
    for x in range(max(0, j - 3), j + 1):
        if dst.low[x] == "for" and x and dst.stems[x - 1] in _CHECKING:
            return dst.raw[x]
    return None


# what "B" of "not A but B" opens with when it shares "A"'s verb: a preposition, an article or a number
_ELLIPTIC_OPENERS = frozenset({"on", "in", "at", "by", "for", "to", "from", "with", "into", "onto", "as", "of", "the",
                               "a", "an", "under", "over", "during", "via", "through", "until", "since"})


def _not_but(negated: _Text, k: int, plain: _Text, j: int) -> str | None:
    """Is the negator at ``k`` one of a correction, "not A but B" ("was not released on
    March 28, 2003 but on March 29, 2004"; "B" opening with a preposition, an article or a number,
    so that it shares "A"'s verb), whose "B" (the content words after "but", in its sentence; one at least) the other side's sentence of ``j`` states? The
    negation denies only "A"; the words it shares with "B" ("released on") are stated with
    "B": the words after "but", else None. (A date's content word is its whole value.)"""
    _lo, hi = sentence_bounds(negated, k)
    but = next((x for x in range(k + 1, hi) if negated.low[x] == "but"), None)
    if but is None or any(negated.neg[x] for x in range(k + 1, but)) or not any(negated.content[k + 1:but]):
        return None  # ("nothing but X" is "only X": no "A" denied)
    if but + 1 >= hi or negated.low[but + 1] not in _ELLIPTIC_OPENERS and not negated.stems[but + 1].startswith("#"):
        return None  # "do not start servers but use ...", "would not become X, but would only be acting as X":
        # "B" has a verb of its own, the denial stands
    after = {negated.stems[x] for x in range(but + 1, hi) if negated.content[x]}
    plo, phi = sentence_bounds(plain, min(j, len(plain.raw) - 1))
    if not after or not after <= set(plain.stems[plo:phi]):
        return None
    return " ".join(negated.raw[but:hi])


_CASE_OPENERS = _IF | {"that", "which", "who", "whose", "unless", "once"}


def _in_case(t: _Text, k: int) -> bool:
    """Does the negator at ``k`` name a case - in a clause opened by "if" / "when" / a relative
    word ("An input that does not explicitly bind ...") within four tokens before it? As an
    elliptic "If they don't" does, it speaks of what holds in that case."""
    for x in range(k - 1, max(-1, k - 5), -1):
        if t.clause[x] != t.clause[k]:
            return False
        if t.low[x] in _CASE_OPENERS:
            return True
    return False


def _function_words_around(claim: _Text, q: _Text, i1: int, i2: int, j1: int, j2: int) -> bool:
    """Are the equal stretches right before and right after an aligned difference (claim
    ``[i1, i2)``, quote ``[j1, j2)``) made of function words only ("he [can]not [be] charged a
    second time" / "you [can] still [be] put in jail")? With the negator's words absent from
    the other side there (``_covered_absent``), the negator stands in no copy of the other
    side's words: the alignment met on "can ... be"."""
    ca, qa = claim.align, q.align
    x, y = i1 - 1, j1 - 1
    while x >= 0 and y >= 0 and ca[x] == qa[y]:
        if claim.content[claim.align_pos[x]]:
            return False
        x, y = x - 1, y - 1
    x, y = i2, j2
    while x < len(ca) and y < len(qa) and ca[x] == qa[y]:
        if claim.content[claim.align_pos[x]]:
            return False
        x, y = x + 1, y + 1
    return True

def _ability_denied(t: _Text, k: int) -> bool:
    """Is the negator at ``k`` a denial of ability ("cannot", "can not", "could not")? "harm
    cannot be proven" is no flip of "harm must be proven" (``_required_at``): one says what is
    possible, the other what is required."""
    return t.low[k] == "cannot" or t.low[k] in ("not", "n't") and k > 0 and t.low[k - 1] in ("can", "could", "ca")


_KNOWING = frozenset(stem(w) for w in ("understand", "know", "ask", "wonder", "explain", "learn", "figure",
                                       "find", "determine", "investigate", "see"))
_WH = frozenset({"why", "whether", "how", "what"})


def _embedded_question(t: _Text, k: int) -> str | None:
    """Does the negator at ``k`` stand in a question a verb of knowing or asking embeds ("you
    should first understand why they are not using it", "ask whether it does not ...")? The
    sentence asks about the negated statement; it does not state it against the other side's
    words: the verb and the question word, else None."""
    for x in range(k - 1, max(0, k - 6), -1):
        if t.raw[x] in (",", ";", ":") or t.sent_start[x + 1]:
            return None
        if t.low[x] in _WH:
            verb = next((y for y in range(x - 1, max(-1, x - 4), -1) if t.stems[y] in _KNOWING), None)
            return f"{t.raw[verb]} ... {t.raw[x]}" if verb is not None else None
    return None

def _other_value_denied(negated: _Text, seg: list[int], plain: _Text, at: int) -> str | None:
    """Does the negation cover a value (a number among the words of its segment: "did not
    release a nine-track compilation") where the other side writes another value first after
    the matched words (within three content words, in its sentence: "was released as a
    five-track EP ..., and a nine-track compilation in Australia")? It denies that value, not
    the words: the other side's value, else None."""
    values = {negated.stems[x] for x in seg if negated.stems[x].startswith("#")}
    if not values:
        return None
    _lo, hi = sentence_bounds(plain, at)
    words = 0
    for x in range(at, hi):
        if plain.content[x]:
            if plain.stems[x].startswith("#"):
                return plain.raw[x] if plain.stems[x] not in values else None
            words += 1
            if words > 3:
                return None
    return None


def _covered_absent(plain: _Text, covered: list[str], at: int) -> bool:
    """Does ``plain`` write none of the words a negator covers (``covered``: the stems of its
    segment; one at least, compared on their first six letters) in its sentence within
    ``2 * WINDOW`` tokens after ``at`` (two before)?"""
    lo, hi = sentence_bounds(plain, at)
    heads = {c[:6] for c in covered}  # "finalised" / "finalized": a spelling apart
    return bool(covered) and not any(plain.stems[x][:6] in heads
                                     for x in range(max(lo, at - 2), min(hi, at + 2 * WINDOW + 1)))

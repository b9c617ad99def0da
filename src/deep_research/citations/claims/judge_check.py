"""Code's check of a judge's evidence: a model's "supports" counts only when its evidence
holds (``check_judge_evidence``).

The judge splits the claim into atomic facts and, for each, copies the exact span(s) of the
quotes that state it, optionally naming which claim words restate which span words
(``aligned``: ``[claim words, span words]``, one word or a phrase on each side, such as
``["is taken by", "takes"]`` or ``["a way to track", "a means of tracking"]``). The
evidence holds (``ok``) only when:

* every span is in the quotes, up to cosmetic differences (white space, quote marks,
  dashes, ignorable characters: the quote check's ``canonical`` form; case counts);
* every number, name, negation, quantifier, modal and order word of the claim sits in
  some cited span (numbers by the claim check's equivalences: "1,000" = "1000", a bound
  met by an exact number, ...);
* every other content word of the claim is in the spans (same stem or spelling) or lies in
  an aligned claim phrase that its span phrase restates, word by word or by a WordNet
  phrase (``lexicon``): a synonym (a shared synset, also of multiword lemmas such as
  "take advantage" / "exploit"), a derivation (gather / gathering), or a wider word
  (the claim's word a hypernym of the span's, only where widening cannot make the claim
  say more: not under a negation, quantifier, condition or "only" of the claim's clause);
  function words count as the same only in small curated groups (``FUNCTION_GROUPS``,
  matched even where the judge did not align them, and ``PHRASE_GROUPS``: "because of" /
  "due to", "since 3.4" / "as of 3.4"); a connective that states no fact ("but",
  "though": ``FACT_FREE``) needs no span; a claim's "can"/"may" is shown by the plain
  fact outside a negation or condition;
  an aligned pair that is a known contrast (the claim check's antonym and order lists,
  un-/non- prefixes, another quantifier or modal group, two different numbers such as
  twofold / threefold, WordNet antonyms and co-hyponyms such as book / film) fails;
* nothing restricts the spans that the claim does not state: no negation, quantifier,
  modal, "only", condition or order word in a cited span, nor around it in its quote
  sentence (up to a ";"), that the claim lacks or that an aligned pair does not restate
  (cutting "unless a transaction is active" off a span does not make the rest
  unconditional);
* the claim's words keep their order within each of its clauses in a span (roles: "A
  overrides B" / "B overrides A"), read in the active voice on both sides ("Y is taken by
  X" = "X takes Y", "Y is rolled back by X" = "X rolls back Y") and, for an identity of
  two definite terms, either way round ("the default is WARNING" = "WARNING is the
  default"); the span's clauses may come in another order ("an invalid value raises X" /
  "raises X if the value is invalid"), and an adverb of manner may stand anywhere in a
  clause without a negation;
* a negation stays on its words: the check fails when a claim word the spans hold only
  negated stands plainly in the claim while another, in another clause of the claim, is
  negated in the claim and only plain in the spans ("sequential but not increasing" /
  "increasing but not sequential");
* a claim that repeats a quote sentence around a cited span keeps its words in their
  places: two words or short phrases trading places ("pass in a suite, fail in isolation" /
  "pass in isolation, fail in a suite"; joined only by "and"/"or" they may, unless the
  sentence says "respectively"), or one word borrowed from elsewhere in the sentence in the
  place of another ("used by mount(8)" / "used by umount(8)", "mount" from "mount option"),
  fail though every word is in the spans;
* an address or tag the claim writes (``http://…``, ``<style>``) is in a cited span (the
  claim check reads a claim without them, as markup);
* the claim compresses a span only as the proof lets a claim compress a quote: a stretch
  it leaves out across a clause mark is whole clauses or list members (``proof.clause_cut_out``:
  not "tensions between [the pair -- both rivals for] Miliband's ear"), it keeps the
  preposition of a phrase it copies ("this day" is not "to this day", read on the quote
  sentence around the span), and it does not end where a span stops inside "the X and Y"
  (``proof.joins_two_nouns``);
* every fact cites at least one span, shares a word with it, and the facts together
  cover the claim; every aligned pair names words of the claim and of the cited spans.
* not every cited span lies inside quotation marks of its quote (someone's words, quoted,
  are not the page saying they are true: ``attribution``), unless the claim itself quotes
  or attributes them.

Relations read as the same statement, each anchored so that no fact can change under it:
a claim's "because"/"since" is shown by a quote's cause word ("since", "because", ", as")
or effect word ("so", "therefore", ...) only in the same direction (cause words on the
cause side: ``_cause_links``); "once" opening a clause is "when"; "X's Y" is "the Y of X"
only where the other side writes exactly that (and the other way round is a swap:
``_genitive_conflict``); "an invalid number" is "the number is invalid" where the other
side writes exactly that; a fronted phrase ("For larger applications(,) X") may stand at
its clause's end, not across a negation, quantifier or "only"; "not ... any X" is "not
... X"; "another one" is a pronoun; "prior to" is "before"; "turn X on/off" is
"enable/disable X".

A "supports" whose evidence fails is ``unchecked`` (grey), never green: the caller
(``citations.judgement.decide``, the one place that maps a judge's verdict to a colour)
wires that. Pure: no model, no I/O beyond the optional WordNet files.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from rapidfuzz.distance import Levenshtein
from dataclasses import dataclass, field
from bisect import bisect_left, bisect_right
from itertools import islice

from ..verify import _canon_char, clean_quote
from . import lexicon
from .attribution import spans_reported
from . import proof as P
from .analysis import _analyse
from .framing import _prepare_claim
from .near_copy import (MAX_ALIGN_TOKENS, _PRONOUNS, _function_word_swapped, _inner_words_dropped, _near_copies,
                        _preposition_dropped, _prefix_antonym)
from .negation import _segment, restriction_flips
from .numbers import APPROX, _fmt
from .rules import _condition_cut, literal_missing, recased_word
from .types import _NUM, _WORD, _Text
from .words import _ANTONYMS, _MODAL, _NEG_SKIP_AFTER, _ORDER, _QUANT, _UNITS, same_word, stem

_ORDER_WORDS = frozenset(["before", "after", "earlier", "later", "first", "last", "previous", "next",
                          "prior", "subsequent", "preceding", "following", "former", "latter",
                          "older", "newer", "oldest", "newest", "earliest", "latest", "initial", "final"])

# Function and order words that say the same, each group justified:
FUNCTION_GROUPS = (
    frozenset({"if", "when", "whenever"}),  # a condition: "if X, Y" / "when X, Y" (technical prose)
    frozenset({"while", "whilst", "when"}),  # at the time that
    frozenset({"because", "since"}),  # a cause ("since 3.1" is a number: checked as one)
    frozenset({"later", "subsequent"}),  # "later calls" / "subsequent calls"
    frozenset({"earlier", "prior"}),  # "earlier versions" / "prior versions"
    frozenset({"can", "able", "possible"}),  # "can recognise" / "is able to recognise" / "it is possible to"
    # the point at which something happens: "once the pool hits its limit, X" / "X when the
    # pool reaches its limit" (both say X follows the event, and both take it as happening).
    # Only "once" that opens a clause (``_opens_clause``): "runs once", "once a day", "once
    # per call", "once more" are a count, not this subordinator; never "once" / "if" (an "if"
    # does not say the event happens).
    frozenset({"once", "when"}),
)
# a word after which "once" opens a clause ("once the pool ...", "once it ..."): not "a",
# "an", "per", "every", "more", "again" (a count or a frequency)
_CLAUSE_OPENERS = frozenset(["the", "all", "it", "they", "you", "we", "he", "she", "this", "that", "these",
                             "those", "its", "their", "your", "our"])
# Phrases that say the same, each group justified; ``True``: only before a number (a
# version or a date: "since 3.4" / "as of 3.4", not "since it runs"):
PHRASE_GROUPS: tuple[tuple[frozenset[tuple[str, ...]], bool], ...] = (
    # a cause named by a noun phrase: "because of a previous commit" / "due to a previous commit"
    (frozenset({("because", "of"), ("due", "to"), ("owing", "to")}), False),
    # the point from which something holds: "since Python 3.4" / "starting with Python 3.4"
    (frozenset({("since",), ("as", "of"), ("starting", "with"), ("starting", "in"), ("beginning", "with"),
                ("starting", "from")}), True),
    # an earlier point: "prior to PostgreSQL 14" / "before PostgreSQL 14" ("prior to" says
    # nothing else; "prior" alone is an adjective: "prior versions", in FUNCTION_GROUPS)
    (frozenset({("before",), ("prior", "to")}), False),
)
_CONDITIONS = frozenset(["if", "when", "whenever", "once", "provided", "providing", "assuming"])
# Connectives that join two clauses and state no fact of their own: "A, but B", "A, though
# B", "A, whereas B" are true exactly when A and B are (the contrast they mark is the
# writer's, not a fact of the source). A claim's connective of this list needs no span
# word; each of its clauses is checked as any other. Not "but" meaning "except" ("all but
# one", "nothing but X", "but for"): see ``_fact_free``.
FACT_FREE = frozenset(["but", "though", "although", "whereas"])
_BUT_EXCEPT_BEFORE = frozenset(["all", "anything", "nothing", "none", "everything", "everyone", "everybody",
                                "anyone", "anybody", "no", "one", "last", "first", "next", "cannot", "can't"])
_FUNCTION_OF = {}
for _g in FUNCTION_GROUPS:
    for _w in _g:
        _FUNCTION_OF.setdefault(_w, set()).add(_g)

_BE = frozenset(["be", "is", "are", "was", "were", "been", "being", "am"])
MAX_PHRASE_WORDS = 12  # an aligned phrase longer than this is not read
MAX_NGRAM = 4  # WordNet lemmas of up to this many words
# "As you can see, X": the quote's aside, not a restriction of X
_ASIDE = re.compile(r"\bas (?:you|we|one) (?:can|could|may|might|will|would) (?:see|notice|expect|imagine|"
                    r"guess|tell)\b|\bas (?:you|we) (?:have )?(?:seen|noted|saw)\b", re.IGNORECASE)


@dataclass
class JudgeFact:
    fact: str  # an atomic fact of the claim, in the judge's words
    spans: list[str]  # exact spans copied from the quotes
    aligned: list[tuple[str, str]] = field(default_factory=list)  # claim words -> span words


@dataclass
class EvidenceCheck:
    ok: bool
    problems: list[str]  # human-readable, one per failure
    spans_found: list[tuple[int, int, int]]  # (quote index, start, end) in the quotes as given


def _canon_map(text: str) -> tuple[str, list[int]]:
    """The canonical form of text (as the quote check compares) and, for each of its
    characters, the index of the character of text it comes from."""
    out: list[str] = []
    where: list[int] = []
    prev_space = True
    for i, ch in enumerate(text):
        c = _canon_char(ch)
        if c == " ":
            if not prev_space:
                out.append(" ")
                where.append(i)
            prev_space = True
        elif c:
            for x in c:
                out.append(x)
                where.append(i)
            prev_space = False
    while out and out[-1] == " ":
        out.pop()
        where.pop()
    return "".join(out), where


def _locate(span: str, quotes: list[tuple[str, list[int]]]) -> tuple[int, int, int] | None:
    s, _ = _canon_map(span.strip().strip("\"'\u201c\u201d\u2018\u2019"))
    if len(s) < 2:
        return None
    for qi, (canon, where) in enumerate(quotes):
        at = canon.find(s)
        if at >= 0:
            return qi, where[at], where[at + len(s) - 1] + 1
    return None


def _words(t: _Text) -> list[int]:
    """Token indexes of the words and numbers of an analysed text."""
    return [k for k, kind in enumerate(t.kinds) if kind != 0]


def _find(phrase: list[str], t: _Text, words: list[int]) -> list[list[int]]:
    """Every occurrence of the phrase (lower-case words) in t, as token indexes."""
    n = len(phrase)
    if not n:
        return []
    low = t.low
    return [words[i:i + n] for i in range(len(words) - n + 1)
            if all(low[words[i + j]] == phrase[j] for j in range(n))]


def _phrase_words(text: str) -> list[str]:
    t = _analyse(clean_quote(text), claim_side=False)
    return [t.low[k] for k in _words(t)][: MAX_PHRASE_WORDS + 1]


@dataclass
class _Side:
    """The claim as the check reads it: its analysis, items and, per token, the item."""

    t: _Text
    its: P._Items
    item_at: dict[int, int]  # token index -> item index
    text: str = ""  # the text analysed (to find what the analysis drops: "'s")


@dataclass
class _Span:
    t: _Text
    its: P._Items
    words: list[int]
    text: str = ""


def check_judge_evidence(claim: str, quotes: list[str], facts: list[JudgeFact]) -> EvidenceCheck:
    """Does the judge's evidence show the claim? See the module docstring."""
    problems: list[str] = []
    found: list[tuple[int, int, int]] = []
    quotes = [q for q in quotes if q and q.strip()]
    if not facts:
        return EvidenceCheck(False, ["the judge gave no facts"], [])
    claim = said_once(claim or "")
    canon = [_canon_map(q) for q in quotes]
    span_texts: list[str] = []
    fact_spans: list[list[str]] = []
    for f in facts:
        mine = []
        if not f.spans:
            problems.append(f'the fact "{_short(f.fact)}" cites no span')
        for sp in f.spans:
            hit = _locate(sp or "", canon)
            if hit is None:
                problems.append(f'the span "{_short(sp or "")}" is not in the quotes')
                continue
            found.append(hit)
            text = quotes[hit[0]][hit[1]:hit[2]]
            span_texts.append(text)
            mine.append(text)
        fact_spans.append(mine)
    if not span_texts:
        problems.append("no cited span is in the quotes")
        return EvidenceCheck(False, problems, found)
    reported = spans_reported(claim or "", quotes, found)
    if reported:
        problems.append(reported)
    asked = _asked_or_denied(claim or "", quotes, found)
    if asked:
        problems.append(asked)
    tense = _tense_in_spans(claim or "", [quotes[qi][a:b] for qi, a, b in found])
    if tense:
        problems.append(tense)
    unrealized = _unrealized_in_spans(claim or "", span_texts) or _capital_modal(claim or "", span_texts)
    if unrealized:
        problems.append(unrealized)

    paths: dict[str, str] = {}
    text, mid = _prepare_claim(_paths_as_names(claim or "", paths))  # before "<id>" is taken for a tag
    claim_t = _analyse(text, claim_side=True, mid_start=mid)
    citems = P.items(claim_t, True, P._TABLES)
    c = _Side(claim_t, citems, {k: i for i, k in enumerate(citems.pos)}, text)
    cut = _condition_cut(claim or "", quotes)  # a copy cut short that code keeps grey (``rules``)
    if cut:
        problems.append(f'the claim\'s condition "{cut}" stops where its quote goes on with "and ..."')
    spans = []
    for s in span_texts:
        s = _paths_as_names(clean_quote(s), paths)
        t = _analyse(s, claim_side=False)
        spans.append(_Span(t, P.items(t, False, P._TABLES), _words(t), s))
    skeys = set().union(*(set(s.its.keys) for s in spans))
    snums = [n for s in spans for n in s.t.numbers]
    ckeys = set(citems.keys)

    # aligned pairs: which claim tokens they show, which span tokens they restate
    covered: dict[int, str] = {}  # claim token index shown by an aligned pair -> the span key it restates
    used: set[tuple[int, int]] = set()  # (span, token) restated by an aligned pair
    raw_claim = None
    aligned_phrases: list[tuple[int, int, frozenset[str]]] = []  # (first, last claim token, span words)
    cwords = _words(claim_t)
    for f in facts:
        for pair in f.aligned or []:
            if not isinstance(pair, tuple | list) or len(pair) != 2:
                problems.append(f"an aligned pair is not (claim words, span words): {pair!r}"[:200])
                continue
            cp = _phrase_words(_paths_as_names(str(pair[0]), paths))
            sp = _phrase_words(_paths_as_names(str(pair[1]), paths))
            if not cp or not sp or len(cp) > MAX_PHRASE_WORDS or len(sp) > MAX_PHRASE_WORDS:
                problems.append(f'the aligned pair "{_short(str(pair[0]), 40)}" / "{_short(str(pair[1]), 40)}" '
                                "is empty or too long to check")
                continue
            at = _find(cp, claim_t, cwords)
            for ck in at:
                if any(claim_t.content[k] for k in ck):
                    aligned_phrases.append((min(ck), max(ck), frozenset(w.lower() for w in sp)))
            if not at:
                if raw_claim is None:
                    raw_claim = _analyse(clean_quote(claim or ""), claim_side=True)
                if not _find(cp, raw_claim, _words(raw_claim)):
                    problems.append(f'the aligned claim words "{" ".join(cp)}" are not in the claim')
                continue  # in a reporting frame the check leaves out: nothing to show
            where = [(si, occ) for si, s in enumerate(spans) for occ in _find(sp, s.t, s.words)]
            if not where:
                problems.append(f'the aligned span words "{" ".join(sp)}" are not in the cited spans')
                continue
            best: tuple[dict[int, int], int, str | None] | None = None
            for ck in at:
                for si, sk in where:
                    got = _cover(c, ck, spans[si], sk)
                    if best is None or (got[2] is None, len(got[0])) > (best[2] is None, len(best[0])):
                        best = (got[0], si, got[2])
            assert best is not None
            if best[2]:
                problems.append(best[2])
                continue
            sp_ = spans[best[1]]
            at_item = {p: i for i, p in enumerate(sp_.its.pos)}
            for k, j in best[0].items():
                covered[k] = sp_.its.keys[at_item[j]] if j in at_item else covered.get(k, "")
                used.add((best[1], j))

    _function_pairs(c, spans, skeys, covered, used)
    cause_tried: set[int] = set()
    links: list[tuple[set[str], set[str], str]] | None = None  # built on the first claim cause word
    cause_marks: set[str] = set()  # the keys of the quote's cause words that show a claim's "because"
    for i, key in enumerate(citems.keys):
        k = citems.pos[i]
        word = claim_t.raw[k]
        if i in citems.nums:
            if _pronoun_one(claim_t, k):
                continue  # "another one", "the primary one": a pronoun, as "it" is
            num = citems.nums[i]
            if key.startswith(("ORD:", "W:")):
                if key not in skeys:
                    problems.append(f'the claim\'s "{word}" is in no cited span')
                continue
            if not any(P._num_proves(num, q, APPROX) for q in snums):
                problems.append(f'the claim\'s number {_fmt(num)} is in no cited span')
            continue
        if key == "\u00ac":
            if "\u00ac" not in skeys and k not in covered:
                problems.append(f'the claim\'s negation "{word}" is in no cited span')
            continue
        if key in skeys or k in covered or key == "by":  # "by": the voice, read by the order check
            continue
        if _fact_free(claim_t, k):
            continue
        if claim_t.low[k] in _CAUSE_WORDS and k not in cause_tried and len(cause_tried) < MAX_CAUSE_WORDS:
            cause_tried.add(k)
            if links is None:
                links = _cause_links(quotes, found)
            mark = _cause_shown(c, k, links, covered)
            if mark:
                cause_marks.add(mark)
                continue
        if key == "M:may" and _possibility_shown(c, i):
            continue
        if claim_t.low[k] == "any" and _negated_before(claim_t, k):
            continue  # "doesn't copy any data" says "doesn't copy data"
        if key.startswith(("Q:", "M:")):
            problems.append(f'the claim\'s "{word}" ({"quantifier" if key[0] == "Q" else "modal"}) is in no cited span')
        elif claim_t.entity[k] or claim_t.kinds[k] != _WORD:
            problems.append(f'the claim\'s name "{word}" is in no cited span')
        elif claim_t.low[k] in _ORDER_WORDS:
            problems.append(f'the claim\'s order word "{word}" is in no cited span')
        else:
            problems.append(f'the claim\'s "{word}" is neither in the cited spans nor shown by an aligned pair')

    # the spans may not rest on a restriction the claim does not state: a negation, a
    # quantifier, a modal, "only", a condition, an order word ("third last" for "third")
    for si, s in enumerate(spans):
        for i, key in enumerate(s.its.keys):
            k = s.its.pos[i]
            if key in ckeys or key in cause_marks or (si, k) in used \
                    or not (s.its.restrict[i] or s.t.low[k] in _ORDER_WORDS):
                continue
            if key == "Q:all" and not (k and s.t.neg[k - 1]):
                continue  # "accepts any iterable" says at least "accepts iterables" ("not always" does not)
            if s.t.low[k] in _CONDITIONS and _condition_restated(c, s, k, covered):
                continue
            if key == "\u00ac":
                problems.append(f'a cited span says "{s.t.raw[k]}" where the claim has no negation')
            else:
                problems.append(f'a cited span says "{s.t.raw[k]}", which the claim does not')
    problems.extend(_context_restrictions(quotes, found, ckeys | cause_marks))
    extra = _negations_left(citems, spans, found, used)
    if extra:
        problems.append(f'a cited span says "{extra}", a negation more than the claim has')
    cased = recased_word(claim_t, [s.t for s in spans], names_only=True)
    if cased:
        problems.append(f'the claim writes "{cased[0]}" where a cited span writes "{cased[1]}"')
    literal = _quoted_missing(claim or "", span_texts)
    if literal:
        problems.append(f'the claim\'s quoted "{literal}" is quoted in no cited span')
    value = literal_missing(claim or "", span_texts)
    if value and value[0] != literal:
        problems.append(f'the claim\'s literal "{value[0]}" is not written so in a cited span (compared as written)')
    moved = _quantifier_moved(c, spans, covered)
    if moved:
        problems.append(f'the claim\'s "{moved[0]}" goes with "{moved[1]}", and in no cited span does')
    half = _both_halved(spans, ckeys)
    if half:
        problems.append(f'a cited span says "both {half[0]} and {half[1]}", and the claim has only one of them')
    # a pronoun swapped in a near copy ("it may activate you" / "you may activate it"); a
    # preposition unless the judge aligned a claim phrase holding it and a content word with
    # a span phrase holding the span's (a paraphrase: "work on any architecture" / "work in
    # any architecture"; a bare ("at", "to") is no restatement)
    dropped = _inner_words_dropped(claim_t, [s.t for s in spans])
    if dropped:
        problems.append(f'the claim leaves "{dropped[0]}" out of a cited span, inside a clause')
    crossed = P.clause_cut_out(claim_t, [s.t for s in spans])
    if crossed:
        problems.append(f'the claim leaves "{_short(crossed, 60)}" out of a cited span: not whole clauses, so it '
                        "joins words of two clauses or list members")
    sentences = [_analyse(clean_quote(x), claim_side=False) for x in _span_sentences(quotes, found)]
    prep = _preposition_dropped(claim_t, sentences)
    if prep:
        problems.append(f'the claim\'s "{prep[1]}" stands without the preposition of the quote\'s "{prep[0]}" around a cited span')
    traded = _traded_places(claim_t, sentences)
    if traded:
        problems.append(f'the claim repeats a quote sentence with "{traded[0]}" and "{traded[1]}" trading places '
                        "(roles swapped?)")
    else:
        borrowed = _word_borrowed(claim_t, sentences, covered)
        if borrowed:
            problems.append(f'the claim repeats a quote sentence but writes "{borrowed[0]}", a word of the sentence '
                            f'found elsewhere in it, where the sentence writes "{borrowed[1]}"')
    url = _url_missing(claim or "", span_texts)
    if url:
        problems.append(f'the claim\'s "{_short(url, 60)}" (an address or tag) is in no cited span')
    cut = _span_cut_at_claim_end(claim or "", quotes, found)
    if cut:
        problems.append(f'the claim ends where a cited span is cut inside a name or pair its quote joins with "and" '
                        f'under one article ("{cut}")')
    fw = _function_word_swapped(claim_t, [s.t for s in spans])
    if fw and (claim_t.low[fw[2]] in _PRONOUNS or not any(
            a <= fw[2] <= b and fw[1].lower() in words for a, b, words in aligned_phrases)):
        problems.append(f'the claim says "{fw[0]}" where a cited span says "{fw[1]}"')
    small = P.small_word_changed(claim_t, citems, [s.t for s in spans], [s.its for s in spans], "a cited span")
    if small and not fw:
        problems.append(small)
    swap = _coordinator_swapped(claim_t, spans)
    if swap:
        problems.append(f'the claim joins "{swap[0]}" with "{swap[1]}" where a cited span has "{swap[2]}"')
    # the claim's words keep their order within each of its clauses (roles: "A overrides B")
    if _order_swapped(c, spans, covered):
        problems.append("the claim's words stand in another order in a cited span (roles swapped?)")
    flipped = _polarity_flipped(claim_t, spans)
    if flipped:
        problems.append(f'the claim\'s "{flipped}" is negated in the claim or in the cited spans, not in both')
    restricted = next((claim_t.raw[ci] for s in spans for ci, _j, _d in restriction_flips(claim_t, s.t)), None)
    if restricted:  # "copies just the stack data" / "not just the stack data"
        problems.append(f'the claim restricts to "{restricted}" or says not only that, and a cited span the reverse')
    more = _more_than_stated(claim or "", span_texts)
    if more:
        problems.append(f'a cited span says "{more}": there is more than the claim states, and the claim does not '
                        "say so")
    if _genitive_conflict(c, [covered.get(p) or k for k, p in zip(citems.keys, citems.pos, strict=True)], spans):
        problems.append("the claim's possessive stands as an \"of\" phrase the other way round in a cited span "
                        "(roles swapped?)")
    replaced = _name_replaced(c, spans, covered)
    if replaced:
        problems.append(f'the claim\'s "{replaced[0]}" stands where a cited span has "{replaced[1]}" '
                        "(roles swapped?)")
    tied = _tied_across(c, claim_t, spans, found, quotes, covered)
    if tied:
        problems.append(f'the claim ties "{tied[0]}" to "{tied[1]}", which stand in different sentences of the '
                        "quotes")
    mixed = _mixed_clause(c, spans, covered)
    if mixed:
        problems.append(f'the claim\'s "{mixed}" comes from another cited span than the rest of its clause '
                        "(roles swapped across spans?)")
    swapped = _word_for_name(claim_t, spans)
    if swapped:
        problems.append(f'the claim writes "{swapped[0]}", a word that states nothing of its own, where a cited span '
                        f'writes "{swapped[1]}" between the same words')
    look = _lookalike(claim_t, spans)
    if look:
        problems.append(f'the claim\'s "{look[0]}" only looks like the span\'s "{look[1]}" (the same stem, not the '
                        'same word)')
    # each fact is tied to its spans; the facts cover the claim
    fact_words = set()
    for f, mine in zip(facts, fact_spans, strict=True):
        ft = _analyse(_paths_as_names(f.fact or "", paths), claim_side=True)
        fstems = {ft.stems[k] for k in range(len(ft.raw)) if ft.content[k]}
        mstems = {x for t in mine for x in _analyse(_paths_as_names(t, paths), False).stems}
        fact_words |= fstems | mstems
        if mine and fstems and not fstems & mstems:
            problems.append(f'the fact "{_short(f.fact)}" shares no word with its spans')
    left = [claim_t.raw[k] for k in range(len(claim_t.raw)) if claim_t.content[k] and claim_t.kinds[k] == _WORD
            and claim_t.stems[k] not in fact_words and k not in covered and not _pronoun_one(claim_t, k)]
    if left:
        problems.append("the facts leave out: " + ", ".join(dict.fromkeys(left)))
    if paths:
        back = {v: k for k, v in paths.items()}
        problems = [_PLACEHOLDER.sub(lambda m: back.get(m.group(0), m.group(0)), p) for p in problems]
    return EvidenceCheck(not problems, list(dict.fromkeys(problems)), found)


_SENTENCE_END = re.compile(r"[.!?\n]")
_WORD_RX = re.compile(r"[^\W\d_]+")
_CONTRACTED_WORD_RX = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*")  # "I'm" one word: "be" in it


_COPY_EDGE = ".,;:!?*_ \t\n"  # what may end or start a copy of a text written twice in a row
MIN_COPY_WORDS = 3


def said_once(claim: str) -> str:
    """A claim that is one text written two or three times in a row, with nothing between
    the copies but spaces and punctuation ("X X": a list item's bold lead followed by the
    same sentence, "**X** X"), as the text once; any other claim as it is. The copies must
    be the same text word for word (the case of the first letter aside): the claim states
    that text and nothing more. Its copies read as one clause put the text's first words
    after its last, an order no span has: the evidence check saw swapped roles and a
    capitalised word in mid-sentence taken for a name (a claim quoting its page twice)."""
    words = claim.split()
    for k in (2, 3):
        m = len(words) // k
        if m < MIN_COPY_WORDS or m * k != len(words):
            continue
        copies = [" ".join(words[i * m:(i + 1) * m]).strip(_COPY_EDGE) for i in range(k)]
        first = copies[0]
        if first and all(c[1:] == first[1:] and c[:1].lower() == first[:1].lower() for c in copies[1:]):
            return " ".join(words[:m]).rstrip(_COPY_EDGE.replace(".", "").replace("!", "").replace("?", ""))
    return claim


def _asked_or_denied(claim: str, quotes: list[str], found: list[tuple[int, int, int]]) -> str | None:
    """A cited span whose quote sentence asks ("Culkin Dead?") or calls something a hoax,
    myth, rumour ... (``proof._DENIALS``) that the claim does not: the page does not state it."""
    have = {stem(w) for w in _WORD_RX.findall(claim)}
    for qi, a, b in found:
        q = quotes[qi]
        m = _SENTENCE_END.search(q, max(a, b - 1))
        end = m.start() if m else len(q)
        if m and m.group() == "?" and "?" not in claim:
            return f'the cited span "{_short(q[a:b], 60)}" is a question'
        start = max(q.rfind(x, 0, a) for x in ".!?\n") + 1
        for w in _WORD_RX.findall(q[start:end]):
            st = stem(w)
            if st in P._DENIALS and st not in have:
                return f'the quote sentence of "{_short(q[a:b], 60)}" calls something "{w}" that the claim does not'
    return None


def _span_sentences(quotes: list[str], found: list[tuple[int, int, int]]) -> list[str]:
    """The quote sentence around each cited span, once each: a span may start after a word
    that gives its first words their role ("To| this day, ...")."""
    out: list[str] = []
    for qi, a, b in found:
        q = quotes[qi]
        start = max(q.rfind(x, 0, a) for x in ".!?\n") + 1
        m = _SENTENCE_END.search(q, max(a, b - 1))
        sent = q[start:m.end() if m else len(q)]
        if sent not in out:
            out.append(sent)
    return out


MAX_TRADED = 4  # words of each of two phrases that trade places in a repeated sentence
_JOINS = (("and",), ("or",))


def _traded_places(claim: _Text, sentences: list[_Text]) -> tuple[str, str] | None:
    """A claim that repeats a quote sentence around a cited span with two of its words or
    short phrases trading places: "pass when run in a suite but fail when run in isolation" /
    "pass when run in isolation but fail when run in a suite", "bzip2 since 2006, LZMA since
    2001" / "bzip2 since 2001, LZMA since 2006", "P if all ..., G if any ..." / "G if all ...,
    P if any ...". Every word is in the spans and each clause keeps its order, so no other
    part of the check sees it; the roles are swapped. Two phrases joined only by "and"/"or"
    ("the soft and hard detectors" / "the hard and soft detectors") may trade places unless
    the sentence pairs them off ("respectively"). Read on the analyses' alignment (articles
    and punctuation dropped): (one phrase, the other) as the claim writes them, or None."""
    if not claim.align or len(claim.align) > MAX_ALIGN_TOKENS:
        return None
    for q in _near_copies(claim, sentences):
        ops = [(op.src_start, op.src_end, op.dest_start, op.dest_end)
               for op in Levenshtein.opcodes(claim.align, q.align) if op.tag != "equal"]
        for n, (i1, i2, j1, j2) in enumerate(ops):
            a, b = claim.align[i1:i2], q.align[j1:j2]
            if not a or not b or a == b or len(a) > MAX_TRADED or len(b) > MAX_TRADED:
                continue
            for k1, k2, m1, m2 in ops[n + 1:]:
                if claim.align[k1:k2] != b or q.align[m1:m2] != a:
                    continue
                if claim.align[i2:k1] in _JOINS and "respectively" not in q.low:
                    continue
                return (" ".join(claim.raw[claim.align_pos[x]] for x in range(i1, i2)),
                        " ".join(claim.raw[claim.align_pos[x]] for x in range(k1, k2)))
    return None


def _word_borrowed(claim: _Text, sentences: list[_Text], covered: dict[int, str]) -> tuple[str, str] | None:
    """A claim that repeats a quote sentence around a cited span but, between two stretches
    it copies, writes one word in the place of another where that word is one the sentence
    writes elsewhere: "used by mount(8)" / "used by umount(8)" ("mount" from "mount
    option"), "starting at 0" / "starting at 1" ("0" from "set to 0"). Each word is in the
    spans, so no other part of the check sees the change. Not where the judge aligned the
    claim's word with a restatement, nor for a pronoun the claim names ("when it is
    imported" / "when the module is imported"), nor for another form of the same word:
    (claim word, sentence word), or None."""
    if not claim.align or len(claim.align) > MAX_ALIGN_TOKENS:
        return None
    for q in _near_copies(claim, sentences):
        ops = Levenshtein.opcodes(claim.align, q.align)
        for n, op in enumerate(ops):
            if op.tag != "replace" or op.src_end - op.src_start != 1 or op.dest_end - op.dest_start != 1:
                continue
            if n == 0 or ops[n - 1].tag != "equal" or (n + 1 < len(ops) and ops[n + 1].tag != "equal"):
                continue  # a change between two copied stretches (or at the end of both)
            if n + 1 == len(ops) and (op.src_end != len(claim.align) or op.dest_end != len(q.align)):
                continue
            c, w = claim.align[op.src_start], q.align[op.dest_start]
            k, j = claim.align_pos[op.src_start], q.align_pos[op.dest_start]
            if k in covered or w in _PRONOUNS or claim.stems[k] == q.stems[j] \
                    or not (_bears(claim, k) and _bears(q, j)):
                continue
            # borrowed: the claim writes its word more often than the sentence, and the
            # sentence's word less often (a word moved elsewhere in the clause is neither)
            if claim.align.count(c) > q.align.count(c) >= 1 and q.align.count(w) > claim.align.count(w):
                return claim.raw[k], q.raw[j]
    return None


def _bears(t: _Text, k: int) -> bool:
    """Does token k state something of its own (a content word, a name, a number)?"""
    return bool(t.content[k] or t.entity[k] or t.kinds[k] != _WORD)


def _url_missing(claim: str, spans: list[str]) -> str | None:
    """An address (``http://``, ``https://``, ``ftp://``) or a tag (``<style>``) the claim
    writes that no cited span writes: the claim check reads a claim without them (as markup),
    but one stated is a fact ("found at http://www.mutt.com/" / "at http://www.mutt.org/",
    "attributes of the <style> tag" / "of <link> tag")."""
    if "://" not in claim and "<" not in claim:
        return None
    have = {_bare_url(m.group(0)) for s in spans for rx in (_URL_RX, _TAG_RX) for m in rx.finditer(s)}
    for rx in (_URL_RX, _TAG_RX):
        for m in rx.finditer(claim):
            if _bare_url(m.group(0)) not in have:
                return m.group(0)
    return None


_URL_RX = re.compile(r"\b(?:https?|ftp)://[^\s<>\"'`)\]]+", re.IGNORECASE)
_TAG_RX = re.compile(r"</?[A-Za-z][A-Za-z0-9-]{0,20}/?>")  # a bare tag, as the claim check's markup reads one


def _bare_url(url: str) -> str:
    return url.rstrip(".,;:!?/").casefold()


_LAST_WORD = re.compile(r"([^\W_]+)\W*$")
_NEXT_WORD = re.compile(r"\s*([^\W_]+)")


def _span_cut_at_claim_end(claim: str, quotes: list[str], found: list[tuple[int, int, int]]) -> str | None:
    """A cited span that ends on the claim's last word where its quote goes on with a second
    noun under the same article ("outside the Rose" of "outside the Rose and Crown": the
    proof's ``joins_two_nouns``): one article over both may name one thing, and the claim's
    last word no longer names it. (the span's last word, "and", the quote's next word), or
    None."""
    m = _LAST_WORD.search(claim)
    if not m:
        return None
    last = m.group(1).lower()
    for qi, a, b in found:
        q = quotes[qi]
        sm = _LAST_WORD.search(q[a:b])
        if not sm or sm.group(1).lower() != last or sm.end(1) != b - a:
            continue
        nm = _NEXT_WORD.match(q, b)
        if not nm or nm.group(1).lower() != "and" or nm.start(1) == b:
            continue
        before = [w.lower() for w in _WORD_RX.findall(q[max(a, b - 60):b])][-2:]
        after = _NEXT_WORD.match(q, nm.end())
        if len(before) == 2 and after and P.joins_two_nouns(before + ["and", after.group(1).lower()], [1] * 4, 2):
            return f"{sm.group(1)} and {after.group(1)}"
    return None


def _tense_in_spans(claim: str, spans: list[str]) -> str | None:
    """The claim says "is" where the cited spans only say "was", or the reverse (the code
    path's rule, ``proof.be_tense_change``)."""
    change = P.be_tense_change({w.lower() for w in _CONTRACTED_WORD_RX.findall(claim)},
                               {w.lower() for s in spans for w in _CONTRACTED_WORD_RX.findall(s)})
    return f'the claim says "{change[0]}" where the cited spans say it in {change[1]} only' if change else None


# A verb that puts the action after its "to" in wish, plan or waiting, not in fact: "people
# wait to cross the street" does not say that they cross it. Not after "to" ("it is unwise to
# try to access it" speaks of the access in general).
_UNREALIZED_TO = re.compile(
    r"(?<!\bto )\b((?:wait|want|intend|attempt|expect|aim)(?:s|ed|ing)?|wish(?:es|ed|ing)?|hop(?:e|es|ed|ing)"
    r"|plan(?:s|ned|ning)?|try|tries|tried|trying|prepar(?:e|es|ed|ing)) to (\w+)", re.IGNORECASE)


def _unrealized_in_spans(claim: str, spans: list[str]) -> str | None:
    """A cited span holds the claim's action only after such a verb and "to" ("wait to
    cross"), and the claim states the action without that verb ("are crossing")."""
    cstems = {stem(w.lower()) for w in _CONTRACTED_WORD_RX.findall(claim)}
    for s in spans:
        for m in _UNREALIZED_TO.finditer(s):
            if stem(m.group(2).lower()) in cstems and stem(m.group(1).lower()) not in cstems \
                    and stem(m.group(0).split()[0].lower()) not in cstems:
                return f'a cited span says "{m.group(0)}", and the claim states the action as done'
    return None


# A capitalised "May", "Might" or "Could" before a word, as a headline writes a modal ("Audio
# Recording From Ferguson May Capture Michael Brown Shooting"): read as a name, it would
# escape the modal restriction.
_CAPITAL_MODAL = re.compile(r"\b(May|Might|Could) (?=[^\W\d_])")
_MODAL_WORDS = re.compile(r"\b(?:may|might|could|can|possibly|perhaps|maybe)\b", re.IGNORECASE)


def _capital_modal(claim: str, spans: list[str]) -> str | None:
    """A cited span holds a capitalised modal and the claim no modal word at all."""
    if _MODAL_WORDS.search(claim):
        return None
    for s in spans:
        m = _CAPITAL_MODAL.search(s)
        if m:
            return f'a cited span says "{m.group(1)}" (a modal), which the claim does not'
    return None


def _word_for_name(claim_t: _Text, spans: list[_Span]) -> tuple[str, str] | None:
    """A word that states nothing on its own (a pronoun, a determiner: no item of the proof)
    standing in the claim where a cited span writes one word of substance between the same
    two words of substance: "the special entry name this stands for" / "the special entry
    name self stands for". The judge may align the two, but "this" shows nothing of "self" (a
    value, a name): the claim's word is another. (claim word, span word), or None."""
    cpos = [k for k in range(len(claim_t.raw)) if claim_t.kinds[k] == _WORD][:P.MAX_ALIGN]
    if len(cpos) < 3:
        return None
    cw = [claim_t.low[k] for k in cpos]
    for s in spans:
        st = s.t
        spos = [j for j in range(len(st.raw)) if st.kinds[j] == _WORD][:P.MAX_ALIGN]
        ops = SequenceMatcher(None, cw, [st.low[j] for j in spos], autojunk=False).get_opcodes()
        for n, (tag, i1, i2, j1, j2) in enumerate(ops):
            if tag != "replace" or i2 - i1 != 1 or j2 - j1 != 1 or n == 0 or n + 1 == len(ops) \
                    or ops[n - 1][0] != "equal" or ops[n + 1][0] != "equal":
                continue
            k, j = cpos[i1], spos[j1]
            if claim_t.content[k] or not st.content[j]:
                continue
            if claim_t.content[cpos[i1 - 1]] and claim_t.content[cpos[i2]]:
                return claim_t.raw[k], st.raw[j]
    return None


def _lookalike(claim_t: _Text, spans: list[_Span]) -> tuple[str, str] | None:
    """A claim word the spans hold only as a same-stem lookalike ("filed" / "filled": the
    light stemmer joins them; ``words.same_word``): (claim word, span word), else None."""
    lows = {w for s in spans for w in s.t.low}
    for k, w in enumerate(claim_t.low):
        if not claim_t.content[k] or claim_t.kinds[k] != _WORD or w in lows:
            continue
        forms = {s.t.low[j] for s in spans for j in s.t.positions.get(claim_t.stems[k], ())}
        if forms and not any(same_word(w, f) for f in forms):
            return claim_t.raw[k], min(forms)
    return None


# A file path ("/proc/sys/kernel/sysrq", ".git/worktrees/<id>/config.worktree", "~/.bashrc")
# or a qualified name ("IPC::Run"):
# the word analysis cuts it at "/" and ".", so ".git/worktrees/<id>/config" read as a run of
# the words of ".git/worktrees/<id>/config.worktree", and two paths of a clause could trade
# places unseen. Each path is read as one name (the same path, the same name on both sides).
_PATH_RUN = re.compile(r"[^\s\"'`()\[\]{},;|]{2,300}")
_PATH_TRAIL = ".:!?"
_PLACEHOLDER = re.compile(r"\bzzpath_\d+\b")
MAX_PATHS = 32


def _is_path(tok: str) -> bool:
    if "://" in tok or not any(ch.isalpha() for ch in tok):
        return False
    if re.search(r"\w::\w", tok):
        return True  # a qualified name ("IPC::Run", "std::vector"): cut at ":" it ends a clause
    return tok.count("/") >= 2 or (tok.startswith(("/", "./", "../", "~/")) and len(tok) > 2)


def _paths_as_names(text: str, paths: dict[str, str]) -> str:
    """text with each file path replaced by its name in ``paths`` (added there when new)."""
    if "/" not in text and "::" not in text:
        return text

    def name(m: re.Match) -> str:
        tok = m.group(0)
        core = tok.rstrip(_PATH_TRAIL)
        if not _is_path(core) or (core not in paths and len(paths) >= MAX_PATHS):
            return tok
        if core not in paths:
            paths[core] = f"zzpath_{len(paths) + 1}"
        return paths[core] + tok[len(core):]

    return _PATH_RUN.sub(name, text)


# --- aligned pairs -----------------------------------------------------------------------------
def _cover(c: _Side, ck: list[int], s: _Span, sk: list[int]) -> tuple[dict[int, int], set[int], str | None]:
    """Which claim tokens of the phrase ck the span phrase sk restates (-> the span token
    that restates each), and why the pair is a misreading (a known contrast) if it is one."""
    ct, st = c.t, s.t
    need = {k for k in ck if k in c.item_at and _needs_pair(c, k)}
    covered: dict[int, int] = {}
    used: set[int] = set()
    sitem_at = {k: i for i, k in enumerate(s.its.pos)}
    # the same key (stem, number, quantifier or modal group) on both sides
    for k in sorted(need):
        key = c.its.keys[c.item_at[k]]
        for j in sk:
            if j not in used and j in sitem_at and s.its.keys[sitem_at[j]] == key:
                covered[k] = j
                used.add(j)
                break
    # the curated phrase groups: "because of" / "due to", "since 3.4" / "as of 3.4"
    # (each claim phrase that still needs a word takes the first span phrase of its group
    # none of whose words is used: one pass over each side, not every pair of phrases)
    for group, before_number in PHRASE_GROUPS:
        free_spans = list(_phrase_at(st, sk, group, before_number))
        nxt = 0
        for k0, n in _phrase_at(ct, ck, group, before_number):
            if not any(k in need and k not in covered for k in ck[k0:k0 + n]):
                continue
            while nxt < len(free_spans) and any(j in used for j in sk[free_spans[nxt][0]:sum(free_spans[nxt])]):
                nxt += 1
            if nxt == len(free_spans):
                break
            j0, m = free_spans[nxt]
            nxt += 1
            covered.update({k: sk[j0] for k in ck[k0:k0 + n] if k in need})
            used |= set(sk[j0:j0 + m])
    # "turns collection off" / "disables collection": a switch verb and its particle, the
    # object between them checked as any other word
    for k, part, j in _switches(ct, ck, st, sk):
        if k in need and k not in covered and j not in used:
            covered[k] = j
            used.add(j)
            covered.setdefault(part, -1)  # the particle: shown with its verb (no span word of its own)
    # phrases WordNet lists (longest first): "take advantage of" / "exploit"
    if lexicon.available():
        for n in range(min(MAX_NGRAM, len(ck)), 0, -1):
            for a in range(len(ck) - n + 1):
                cg = ck[a:a + n]
                if not (set(cg) & (need - set(covered))):
                    continue
                for m in range(min(MAX_NGRAM, len(sk)), 0, -1):
                    if n == 1 and m == 1:
                        continue  # single words below
                    hit = next((sk[b:b + m] for b in range(len(sk) - m + 1)
                                if not set(sk[b:b + m]) & used
                                and _lex_ok(tuple(ct.low[x] for x in cg), tuple(st.low[x] for x in sk[b:b + m]),
                                            _widening_ok(c, cg))), None)
                    if hit:
                        head = next((j for j in hit if j in sitem_at), hit[0])
                        covered.update({k: head for k in cg if k in need})
                        used |= set(hit)
                        break
    # single words
    for k in sorted(need - set(covered)):
        for j in sk:
            if j in used or st.kinds[j] != _WORD:
                continue
            if _restates(ct.low[k], st.low[j], _widening_ok(c, [k])):
                covered[k] = j
                used.add(j)
                break
    # "unaffected" / "not affected", "not possible" / "impossible": a negated word on one
    # side, the negation and the word's antonym WordNet lists on the other
    for k in ck:
        for j in sk:
            if j in used or st.kinds[j] != _WORD or ct.kinds[k] != _WORD:
                continue
            if k in need and k not in covered and _negated_form(ct.low[k], st.low[j]):
                neg = next((x for x in sk if st.neg[x] and x not in used), None)
                if neg is not None:
                    covered[k] = j
                    used.update((j, neg))
            elif _negated_form(st.low[j], ct.low[k]) and k not in covered:
                neg = next((x for x in ck if ct.neg[x] and x not in covered), None)
                if neg is not None:
                    covered.update({k: j, neg: j})
                    used.add(j)
    # names and numbers are not restated: another name or number in the pair is a misreading
    cnames = {c.its.keys[c.item_at[k]]: k for k in ck if k in c.item_at and ct.entity[k]}
    snames = {s.its.keys[sitem_at[j]]: j for j in sk if j in sitem_at and st.entity[j]}
    odd = [k for key, k in cnames.items() if key not in snames]
    other = [j for key, j in snames.items() if key not in cnames]
    if odd and other:
        return covered, used, f'"{ct.raw[odd[0]]}" for "{st.raw[other[0]]}": another name'
    cnums = [c.its.nums[c.item_at[k]] for k in ck if k in c.item_at and c.item_at[k] in c.its.nums]
    snums = [s.its.nums[sitem_at[j]] for j in sk if j in sitem_at and sitem_at[j] in s.its.nums]
    for num in cnums:
        if snums and not any(P._num_proves(num, q, APPROX) for q in snums):
            return covered, used, f'"{num.raw}" for "{snums[0].raw}": another number'
    # a contrast anywhere in the pair is a misreading, whatever else it restates
    single = len([k for k in ck if ct.kinds[k] == _WORD]) == 1 and len([j for j in sk if st.kinds[j] == _WORD]) == 1
    for k in ck:
        if ct.kinds[k] != _WORD or k in covered:
            continue
        for j in sk:
            a, b = ct.low[k], st.low[j]
            if st.kinds[j] != _WORD or a == b:
                continue
            if not single and ((a in _QUANT) != (b in _QUANT) or (a in _MODAL) != (b in _MODAL)
                               or not (ct.content[k] or a in _QUANT or a in _MODAL)):
                continue  # in a phrase, only words of one kind are compared
            if True:
                why = _contrast(a, b, siblings=single)
                if why:
                    return covered, used, f'"{ct.raw[k]}" for "{st.raw[j]}": {why}'
    return covered, used, None


# "turn X on" / "switch X on" is "enable X", "... off" is "disable X" (a setting, a feature: the
# sense these verbs have with "on"/"off"); never across: "turn off" is not "enable"
_SWITCH_VERBS = frozenset(["turn", "turns", "turned", "turning", "switch", "switches", "switched", "switching"])
_SWITCH_TO = {"on": frozenset(["enable", "enables", "enabled", "enabling"]),
              "off": frozenset(["disable", "disables", "disabled", "disabling"])}
MAX_SWITCH_GAP = 3  # words of the object between the verb and its particle


def _switches(ct: _Text, ck: list[int], st: _Text, sk: list[int]):
    """(claim verb, claim particle, span verb) of each "turn/switch ... on/off" in the claim
    phrase whose span phrase says "enable"/"disable" to match."""
    for a, k in enumerate(ck):
        if ct.low[k] not in _SWITCH_VERBS:
            continue
        part = next((x for x in ck[a + 1:a + 2 + MAX_SWITCH_GAP] if ct.low[x] in _SWITCH_TO), None)
        if part is None:
            continue
        j = next((y for y in sk if st.low[y] in _SWITCH_TO[ct.low[part]]), None)
        if j is not None:
            yield k, part, j


def _number_follows(t: _Text, toks: list[int] | None, end: int) -> bool:
    """Does a number stand within the three words after toks[end - 1] ("since Python 3.4")?
    ``toks`` None: the text's own tokens (``end`` an index into the text)."""
    after = (toks[end:end + 3] if end < len(toks) else []) if toks is not None else []
    if len(after) < 3:  # the phrase ends the aligned words: look on in the text
        last = toks[end - 1] if toks is not None else end - 1
        after = list(islice((j for j in range(last + 1, len(t.raw)) if t.kinds[j] != 0), 3))
    return any(t.kinds[j] == _NUM for j in after)


def _phrase_at(t: _Text, toks: list[int], group: frozenset[tuple[str, ...]], before_number: bool):
    """(start, length) in toks of each phrase of the group (before a number, if asked)."""
    for phrase in group:
        n = len(phrase)
        for a in range(len(toks) - n + 1):
            if tuple(t.low[x] for x in toks[a:a + n]) == phrase and \
                    (not before_number or _number_follows(t, toks, a + n)):
                yield a, n


def _possibility_shown(c: _Side, i: int) -> bool:
    """A claim's "can"/"may" (a possibility) says less than the plain fact: "try ... except
    can take an else clause" from "the statement has an else clause". Not under a negation
    or condition of its clause ("cannot X" is not shown by "does not X"); another modal in
    a cited span ("must", "should") is a restriction the claim lacks and fails on its own."""
    clause = c.t.clause[c.its.pos[i]]
    return not any(c.t.clause[p] == clause and (key == "\u00ac" or c.t.low[p] in _CONDITIONS)
                   for key, p in zip(c.its.keys, c.its.pos, strict=True))


# --- "because": a cause shown by the quote's cause word, in the same direction ---------------
_CAUSE_WORDS = frozenset(["because", "since"])  # a claim's cause word ("since 3.4" is a number)
MAX_CAUSE_WORDS = 8  # claim cause words looked up in the quotes (a longer claim's others stay unshown)
MAX_CAUSE_MARKS = 32  # quote cause/effect words read per check
MAX_CAUSE_SENTENCE = 2000  # characters of a quote sentence read for a cause word
_OPENERS = r"(?:it|that|this|they|these|those|there|some|each|both|we|you|the|its|their|a|an)"
# a word of the quote that introduces the cause ("E, since C", "Because C, E"; ", as" only
# before a clause: "as shown", "as well", "as a result" are no cause) ...
_CAUSE_MARK = re.compile(rf"\b(?:because|since)\b(?! (?:then|when|version|v?\d))|(?<=,)\s*\bas\b(?= {_OPENERS}\b)",
                         re.IGNORECASE)
# ... or the effect ("C, so E", "C and therefore E"; not "so that", "so as to", "so far")
_EFFECT_MARK = re.compile(r"(?:(?<=[,;])\s*|\band\s+)\b(?:so|therefore|thus|hence|consequently)\b"
                          r"(?! (?:that|as|far|long|much|many|to)\b)"
                          # "X so this option is a no-op": "so" before a clause's subject (not
                          # "do so the same way": "so" standing for an action)
                          rf"|(?<!\bdo)(?<!\bdoes)(?<!\bdid)(?<!\bdone)(?<!\bdoing)\s\bso\b(?= {_OPENERS}\b)(?! that\b)",
                          re.IGNORECASE)


def _cause_shown(c: _Side, k: int, links: list[tuple[set[str], set[str], str]],
                 covered: dict[int, str]) -> str | None:
    """Does a quote state the claim's cause ("Because C, E", "E since C": token k the
    "because"/"since") in the same direction: a cause word of a quote sentence ("since",
    "because", ", as") before the cited words of C and apart from those of E, or an effect
    word ("so", "therefore", "thus", "hence", "consequently") between C's and E's? The claim's
    cause clause (the words after k in its clause) must stand in the cited spans on the cause
    side, the rest of its sentence on the effect side: "Because X, Y" is not shown by "X
    because Y" (cause and effect swapped). Returns the key of the quote's cause word (the
    quote's own "since" is then no restriction the claim lacks), or None. ``links``: the
    quotes' cause words around the cited spans (``_cause_links``)."""
    t, its = c.t, c.its
    if t.low[k] == "since" and _number_follows(t, None, k + 1):
        return None  # "since 3.4": a point in time
    sent = its.sent[c.item_at[k]]
    cause, effect = set(), set()
    for i, key in enumerate(its.keys):
        p = its.pos[i]
        if its.sent[i] != sent or p == k or key == "by" or _fact_free(t, p):
            continue
        key = covered.get(p) or key
        (cause if p > k and t.clause[p] == t.clause[k] else effect).add(key)
    if not cause or not effect:
        return None
    for cause_keys, effect_keys, mark in links:
        if cause_keys >= cause and effect_keys >= effect:
            return mark
    return None


def _cause_links(quotes: list[str], found: list[tuple[int, int, int]]) -> list[tuple[set[str], set[str], str]]:
    """The cause/effect links the quotes state around the cited spans: for each cause word
    ("since", "because", ", as") or effect word ("so", "therefore", ...) in a sentence that
    holds a cited span, the keys of the cited words on its cause side and on its effect side
    (up to a ";"), and the key that stands for the word. At most ``MAX_CAUSE_MARKS`` words, in
    sentences of at most ``MAX_CAUSE_SENTENCE`` characters: built once per check."""
    out: list[tuple[set[str], set[str], str]] = []
    tried = 0
    for qi, q in enumerate(quotes):
        mine = [(a, b) for i, a, b in found if i == qi]
        if not mine:
            continue
        ends = [0] + [m.end() for m in _SENTENCE_END.finditer(q)] + [len(q)]
        # the sentences that hold a cited span, each once
        ranges = sorted({(ends[bisect_right(ends, a) - 1], ends[bisect_left(ends, b)]) for a, b in mine})
        for rx, marks_cause in ((_CAUSE_MARK, True), (_EFFECT_MARK, False)):
            for a0, b0 in ranges:
                for m in rx.finditer(q, a0, b0):
                    lo = ends[bisect_right(ends, m.start()) - 1]
                    hi = ends[bisect_left(ends, m.end())]
                    if hi - lo > MAX_CAUSE_SENTENCE:
                        continue
                    tried += 1
                    if tried > MAX_CAUSE_MARKS:
                        return out
                    semi_before = q.rfind(";", lo, m.start()) + 1 or lo
                    semi_after = q.find(";", m.end(), hi)
                    semi_after = hi if semi_after < 0 else semi_after
                    if marks_cause and not q[semi_before:m.start()].strip(" ,;:([\"'\u201c\u2018"):
                        comma = q.find(",", m.end(), semi_after)
                        if comma < 0:
                            continue  # "Because C E": where C ends is not written
                        cause_r, effect_r = (m.end(), comma), (comma + 1, semi_after)
                    elif marks_cause:
                        cause_r, effect_r = (m.end(), semi_after), (semi_before, m.start())
                    else:
                        cause_r, effect_r = (semi_before, m.start()), (m.end(), semi_after)
                    word = m.group(0).strip().lower()
                    keys = P.items(_analyse(word, claim_side=False), False, P._TABLES).keys if marks_cause else []
                    mark = keys[0] if keys else "\u2234"  # ", as" has no key: nothing to exempt
                    out.append((_keys_in(q, mine, cause_r), _keys_in(q, mine, effect_r), mark))
    return out


def _keys_in(q: str, spans: list[tuple[int, int]], r: tuple[int, int]) -> set[str]:
    """The item keys of the cited stretches of q inside the range r."""
    out: set[str] = set()
    for a, b in spans:
        a, b = max(a, r[0]), min(b, r[1])
        if b > a:
            t = _analyse(clean_quote(q[a:b]), claim_side=False)
            out.update(P.items(t, False, P._TABLES).keys)
    return out


# "the", "another", ... (an adjective or two) "one" and no noun after it: a pronoun standing for
# a noun said before ("nested within another one", "the primary one"), not the number 1; not
# "no one" (nobody), "any one" / "every one" (a count), "one of ..." (a count: not after these)
_ONE_DETERMINERS = frozenset(["the", "a", "an", "another", "this", "that", "which"])
# before "any", a word that makes "not ... any" other than "not ... X" ("not just any X")
_ANY_SCOPE = frozenset(["just", "simply", "merely", "only", "hardly"])
ANY_WINDOW = 12  # words before "any" searched for its negation


def _pronoun_one(t: _Text, k: int) -> bool:
    """Is token k "one"/"ones" used as a pronoun: after a determiner of ``_ONE_DETERMINERS``
    and at most two adjectives, with no noun or "of" right after it?"""
    if t.low[k] not in ("one", "ones"):
        return False
    nxt = k + 1
    if nxt < len(t.raw) and t.kinds[nxt] != 0 and (t.content[nxt] or t.entity[nxt] or t.low[nxt] == "of"):
        return False
    j = k - 1
    while j >= 0 and k - j <= 3 and t.kinds[j] == _WORD and t.content[j] and not t.entity[j]:
        j -= 1
    return j >= 0 and t.low[j] in _ONE_DETERMINERS and t.clause[j] == t.clause[k]


def _negated_before(t: _Text, k: int) -> bool:
    """Does an explicit negation stand before token k ("any") in its clause, within
    ``ANY_WINDOW`` words ("does not copy any data", "without any delay"), and no word of
    ``_ANY_SCOPE`` right before it ("not just any")?"""
    if k and t.low[k - 1] in _ANY_SCOPE:
        return False
    for j in range(k - 1, max(-1, k - 1 - ANY_WINDOW), -1):
        if t.clause[j] != t.clause[k]:
            return False
        if t.neg[j]:
            return True
    return False


def _fact_free(t: _Text, k: int) -> bool:
    """Is token k a connective that states no fact (``FACT_FREE``), here joining clauses
    ("A, but B"; "but not X"), not "but" for "except" ("all but one", "but for X")?"""
    w = t.low[k]
    if w not in FACT_FREE:
        return False
    if w != "but":
        return True
    prev = next((t.low[j] for j in range(k - 1, -1, -1) if t.kinds[j] != 0 or t.low[j] in ",;:"), None)
    nxt = next((t.low[j] for j in range(k + 1, len(t.raw)) if t.kinds[j] != 0), None)
    return prev not in _BUT_EXCEPT_BEFORE and nxt != "for" and (prev is None or prev in ",;:" or nxt == "not"
                                                                  or t.kinds[k - 1] == 0)


def _function_pairs(c: _Side, spans: list[_Span], skeys: set[str], covered: dict[int, str],
                    used: set[tuple[int, int]]) -> None:
    """A claim word of a ``FUNCTION_GROUPS`` group that no cited span holds is shown by a
    span word of the same group ("when" / "if") even where the judge did not align them:
    the groups are equivalences, and the order check still reads both in their places."""
    claim_words = set(c.t.low)
    # the span words of each group, in span order (span, then word): the candidates of a
    # claim word are those of its groups; each claim word takes the first one not yet used
    by_group: dict[frozenset[str], list[tuple[int, int, int]]] = {}
    rank = 0
    for si, s in enumerate(spans):
        for j in s.words:
            if s.t.low[j] == "once" and not _opens_clause(s.t, j):
                rank += 1
                continue
            for g in _FUNCTION_OF.get(s.t.low[j], ()):
                if s.t.low[j] not in claim_words:
                    by_group.setdefault(g, []).append((rank, si, j))
            rank += 1
    nxt = dict.fromkeys(by_group, 0)
    at_of: dict[int, dict[int, int]] = {}
    for i, key in enumerate(c.its.keys):
        k = c.its.pos[i]
        if key in skeys or k in covered:
            continue
        groups = _FUNCTION_OF.get(c.t.low[k])
        if not groups or (c.t.low[k] == "since" and _number_follows(c.t, None, k + 1)):
            continue  # "since 3.4" is a point in time, not a cause
        if c.t.low[k] == "once" and not _opens_clause(c.t, k):
            continue  # "runs once": a count
        best = None
        for g in groups:
            cands = by_group.get(g)
            if not cands:
                continue
            while nxt[g] < len(cands) and cands[nxt[g]][1:] in used:
                nxt[g] += 1
            if nxt[g] < len(cands) and (best is None or cands[nxt[g]][0] < best[0]):
                best = cands[nxt[g]]
        if best is None:
            continue
        _, si, j = best
        s = spans[si]
        at = at_of.setdefault(si, {p: n for n, p in enumerate(s.its.pos)})
        covered[k] = s.its.keys[at[j]] if j in at else ""
        used.add((si, j))


def _opens_clause(t: _Text, k: int) -> bool:
    """Does "once" (token k) open a clause: a name or a word of ``_CLAUSE_OPENERS`` right
    after it, not a count ("runs once", "once a day", "once per call")?"""
    nxt = next((j for j in range(k + 1, len(t.raw)) if t.kinds[j] != 0), None)
    if nxt is None or nxt != k + 1:
        return False  # "once." / "once, ..." ends or leaves the clause: an adverb
    return t.low[nxt] in _CLAUSE_OPENERS or bool(t.entity[nxt])


def _negated_form(neg_word: str, word: str) -> bool:
    """Is neg_word a prefixed antonym of word ("unaffected" / "affected")?"""
    return any(neg_word.startswith(p) and neg_word[len(p):] and stem(neg_word[len(p):]) == stem(word)
               for p in ("un", "in", "im", "non", "dis", "il", "ir")) and lexicon.antonyms(neg_word, word)


def _needs_pair(c: _Side, k: int) -> bool:
    """Is the claim token k an item an aligned pair may show (not a number, negation or
    name: those must be in the spans as they are)?"""
    key = c.its.keys[c.item_at[k]]
    if key == "\u00ac" or c.item_at[k] in c.its.nums or c.t.entity[k] or c.t.kinds[k] != _WORD:
        return False
    return True


def _widening_ok(c: _Side, toks: list[int]) -> bool:
    """May the claim's word be wider than the span's here? Only where a wider word says
    less: not in a clause with a negation, a quantifier, a condition or "only" ("no animal"
    says more than "no dog", "most animals" is not "most dogs"); a modal keeps it ("can
    exploit" from "can take advantage of")."""
    last = max(toks)
    nxt = next((j for j in range(last + 1, len(c.t.raw)) if c.t.kinds[j] != 0 or c.t.raw[j] not in "-'"), None)
    if nxt is not None and c.t.content[nxt] and c.t.clause[nxt] == c.t.clause[last]:
        return False  # a modifier of the next word: "fractions module" is not wider than "decimal module"
    clauses = {c.t.clause[k] for k in toks}
    return not any((c.its.restrict[i] or c.its.keys[i].startswith("Q:")) and not c.its.keys[i].startswith("M:")
                   and c.t.clause[c.its.pos[i]] in clauses and not _upward_after(c, i, last)
                   and c.t.low[c.its.pos[i]] not in _ASSERTED for i in range(len(c.its.keys)))


# Subordinators whose clause is asserted as true ("since it can take advantage of X" says
# it can): a wider word there says less, as in a main clause. Not "if"/"unless"/"when".
_ASSERTED = frozenset(["because", "since"])


# Quantifiers that keep a wider word true in their scope: "can take advantage of any
# ordering" says at least "can exploit any ordering"; "no", "few", "never" do not.
_UPWARD = frozenset(["Q:all", "Q:most", "Q:many", "Q:some"])


def _upward_after(c: _Side, i: int, last: int) -> bool:
    """Is the claim's item i a quantifier of ``_UPWARD`` standing after the widened words
    (which end at token ``last``), so that they are in its scope, not in its noun phrase
    ("exploit any ordering": "exploit" is widened; "every dog" would widen "dog")?"""
    return c.its.keys[i] in _UPWARD and c.its.pos[i] > last


def _lex_ok(a: tuple[str, ...], b: tuple[str, ...], widen: bool) -> bool:
    if len(a) == 1 and len(b) == 1 and _contrast(a[0], b[0]):
        return False
    rel = lexicon.phrase_relation(a, b)
    return rel in ("synonym", "related") or (widen and rel == "general")


def _contrast(a: str, b: str, siblings: bool = True) -> str | None:
    """Why the pair is a known contrast, or None. ``siblings``: also two kinds of one
    thing (WordNet co-hyponyms; asked of a one-word pair, where the judge says the two mean
    the same: in a phrase, two of its words may well be siblings in some sense)."""
    sa, sb = stem(a), stem(b)
    if sa == sb:
        return None
    pair = frozenset((sa, sb))
    if pair in _ANTONYMS:
        return "opposites"
    if pair in _ORDER:
        return "another order"
    if _prefix_antonym(sa, sb):
        return "one negates the other"
    if (a in _QUANT or b in _QUANT) and _QUANT.get(a) != _QUANT.get(b):
        return "another quantity"
    if (a in _MODAL or b in _MODAL) and _MODAL.get(a) != _MODAL.get(b):
        return "another modality"
    ua, ub = _UNITS.get(a.lower()), _UNITS.get(b.lower())
    if ua and ub and ua != ub:
        return "another unit"  # "that many minutes" / "that many seconds"
    ra, rb = lexicon.number_root(a), lexicon.number_root(b)
    if ra != rb and (siblings or (ra is not None and rb is not None)):
        return "another number"
    if siblings and lexicon.relation(a, b) == "contrast":
        return "a contrast (antonyms or two kinds of one thing)"
    if not siblings and lexicon.antonyms(a, b):
        return "antonyms"
    return None


def _restates(a: str, b: str, widen: bool = True) -> bool:
    if "once" not in (a, b) and _FUNCTION_OF.get(a, set()) & _FUNCTION_OF.get(b, set()):
        return True
    if _contrast(a, b):
        return False
    sa, sb = stem(a), stem(b)
    if sa == sb or P.EQUIVALENT.get(sa, sa) == P.EQUIVALENT.get(sb, sb):
        return True
    rel = lexicon.relation(a, b)
    return rel in ("synonym", "related") or (widen and rel == "general")


def _condition_restated(c: _Side, s: _Span, k: int, covered: dict[int, str]) -> bool:
    """Does the claim restate the span's condition "if X" (token k) as a restriction of
    what it says ("A logger whose level is INFO ...", "An invalid number raises ...")?
    Every item of X must be in the claim, all in one of its clauses, and that clause must
    be subordinate or hold more than the condition (not "X, and Y": X asserted)."""
    t = s.t
    cond = [s.its.keys[i] for i, p in enumerate(s.its.pos) if p > k and t.clause[p] == t.clause[k]]
    if not any(x[:1].isalnum() or x == "\u00ac" or x.startswith("#") for x in cond):
        return False
    keys = [covered.get(p) or key for key, p in zip(c.its.keys, c.its.pos, strict=True)]
    segs = P._segments(c.its)
    seg_of = {i: n for n, (a, b) in enumerate(segs) for i in range(a, b)}
    where = set()
    for x in cond:
        hits = [i for i, key in enumerate(keys) if key == x]
        if not hits:
            return False
        where.add(seg_of[hits[0]])
    if len(where) != 1:
        return False
    n = where.pop()
    a, b = segs[n]
    return c.its.sub[a] or any(keys[i] not in cond for i in range(a, b))


# --- restrictions around a span ----------------------------------------------------------------
_SENTENCE_END = re.compile(r"[.!?\u3002\uff01\uff1f](?=\s|$)")


def _context_restrictions(quotes: list[str], found: list[tuple[int, int, int]], ckeys: set[str]) -> list[str]:
    """Restrictions the quote states next to a cited span, in its sentence (up to a ";"),
    outside every cited span, that the claim does not state."""
    out = []
    for qi in sorted({f[0] for f in found}):
        q = quotes[qi]
        mine = sorted((a, b) for i, a, b in found if i == qi)
        ends = [0] + [m.end() for m in _SENTENCE_END.finditer(q)] + [len(q)]
        semis = [m.start() for m in re.finditer(";", q)]
        pieces: set[tuple[int, int]] = set()
        for a, b in mine:
            lo = max([e for e in ends if e <= a] + [x + 1 for x in semis if x < a])
            hi = min([e for e in ends if e >= b] + [x for x in semis if x >= b])
            pieces.add((lo, hi))
        for lo, hi in sorted(pieces):
            gaps, at = [], lo
            for a, b in mine:
                if b <= lo or a >= hi:
                    continue
                if a > at:
                    gaps.append((at, a))
                at = max(at, b)
            if at < hi:
                gaps.append((at, hi))
            for ga, gb in gaps:
                gap = _ASIDE.sub(" ", q[ga:gb])
                if not gap.strip():
                    continue
                t = _analyse(clean_quote(gap), claim_side=False)
                its = P.items(t, False, P._TABLES)
                word = next((t.raw[its.pos[i]] for i, key in enumerate(its.keys)
                             if its.restrict[i] and key not in ckeys), None)
                if word:
                    out.append(f'the quote says "{word}" next to a cited span, and the claim does not')
    return out


# --- polarity ---------------------------------------------------------------------------------
def _negations_left(citems: P._Items, spans: list[_Span], found: list[tuple[int, int, int]],
                    used: set[tuple[int, int]]) -> str | None:
    """A negator of the cited spans that the claim has no negator for, when the claim has
    one of its own elsewhere: "and panic if nothing can be killed" / "but do not panic if
    nothing can be killed" (the claim's "nothing" showed the span's "do not" as a key). The
    spans' negators (a span inside another cited span counted once; one an aligned pair
    restates left out) outnumber the claim's: the first extra one, or None."""
    have = sum(1 for key in citems.keys if key == "\u00ac")
    if not have:
        return None  # a span negation without any in the claim is flagged already
    words = []
    for si, s in enumerate(spans):
        qi, a, b = found[si]
        if any(j != si and f[0] == qi and f[1] <= a and b <= f[2] and (f[1], f[2]) != (a, b)
               or j < si and f == found[si] for j, f in enumerate(found)):
            continue  # inside another cited span (or the same span again): counted there
        words += [s.t.raw[p] for key, p in zip(s.its.keys, s.its.pos, strict=True)
                  if key == "\u00ac" and (si, p) not in used]
    return words[have] if len(words) > have else None


# A value the claim quotes ("the 'a' mode", "mode 'w'"): the word analysis takes "a" for an
# article and drops quote marks, so "Added support for the 'a' mode" read as shown by "the
# 'x' mode". A quoted value must stand quoted in a cited span (any quote marks).
_QUOTE_MARKS = "'\"\u2018\u2019\u201c\u201d`"
_QUOTED = re.compile(r"(?<![\w'\u2019])['\"\u2018\u201c`]([^'\"\u2018\u2019\u201c\u201d`\s]{1,40})"
                     r"['\"\u2019\u201d`](?!\w)")
MAX_QUOTED = 16


def _quoted_missing(claim: str, spans: list[str]) -> str | None:
    for m in islice(_QUOTED.finditer(claim), MAX_QUOTED):
        value = m.group(1)
        marks = f"[{re.escape(_QUOTE_MARKS)}]"
        if not any(re.search(marks + re.escape(value) + marks, s) for s in spans):
            return value
    return None


def _quantifier_moved(c: _Side, spans: list[_Span], covered: dict[int, str]) -> tuple[str, str] | None:
    """A claim quantifier shown only by a span quantifier on another noun: "allowed (by any
    user)" / "any operation ... is allowed (by a user with admin privileges)", "accepting all
    pages" / "accepting any new pages". The claim's quantifier and the item after it in its
    clause; each span holding both, holds them only apart (a quantifier floating after its
    noun phrase aside): (quantifier, word), or None."""
    its = c.its
    for i, key in enumerate(its.keys):
        if not key.startswith("Q:") or i + 1 >= len(its.keys) or its.bnd[i + 1] or its.pos[i] in covered:
            continue
        nxt = covered.get(its.pos[i + 1]) or its.keys[i + 1]
        if nxt.startswith(("Q:", "M:", "#", "\u00ac")):
            continue
        holding = [s.its.keys for s in spans if key in s.its.keys and nxt in s.its.keys]
        # "each recursive invocation" / "recursive invocations each": a floating quantifier
        # after its noun phrase (at most three items on) goes with it too
        if holding and not any(k == key and (n + 1 < len(ks) and ks[n + 1] == nxt or nxt in ks[max(0, n - 3):n])
                               for ks in holding for n, k in enumerate(ks)):
            return its.words[i], its.words[i + 1]
    return None


def _both_halved(spans: list[_Span], ckeys: set[str]) -> tuple[str, str] | None:
    """A span's "both A and B" of which the claim keeps A (or B) alone: "Disabling both X
    and Y disables ..." does not say that disabling X does. (A, B) as written, or None."""
    for s in spans:
        t = s.t
        at = {p: n for n, p in enumerate(s.its.pos)}
        for k, w in enumerate(t.low):
            if w != "both" or "both" in ckeys:
                continue
            j = next((j for j in range(k + 1, min(len(t.low), k + 12)) if t.low[j] == "and"), None)
            first = next((at[p] for p in range(k + 1, j or k) if p in at), None)
            second = next((at[p] for p in range(j + 1, min(len(t.low), j + 6)) if p in at), None) if j else None
            if first is None or second is None:
                continue
            a, b = s.its.keys[first], s.its.keys[second]
            if (a in ckeys) != (b in ckeys):
                return s.its.words[first], s.its.words[second]
    return None


_AND_OR = {"and": "or", "or": "and"}


def _coordinator_swapped(claim_t: _Text, spans: list[_Span]) -> tuple[str, str, str] | None:
    """The claim's "A and B" where a cited span writes "A or B" (or the reverse), with
    no span writing the claim's: "requires a passphrase and PIN" / "a passphrase or PIN".
    Both words around the coordinator must be the same stems on both sides (a determiner
    after it aside): (the claim's coordinator, the words, the span's), or None."""
    def around(t: _Text, k: int) -> tuple[str, str] | None:
        a, b = k - 1, k + 1
        while b < len(t.raw) and t.low[b] in _DETERMINERS:
            b += 1
        if a < 0 or b >= len(t.raw) or t.kinds[a] != _WORD or t.kinds[b] != _WORD:
            return None
        return t.stems[a], t.stems[b]

    def pairs(t: _Text, word: str) -> set[tuple[str, str]]:
        return {got for k, w in enumerate(t.low) if w == word and (got := around(t, k)) is not None}

    for k, w in enumerate(claim_t.low):
        if w not in _AND_OR:
            continue
        mine = around(claim_t, k)
        if mine is None or any(mine in pairs(s.t, w) for s in spans):
            continue
        if any(mine in pairs(s.t, _AND_OR[w]) for s in spans):
            return w, f"{claim_t.raw[k - 1]} {w} {claim_t.raw[k + 1]}", _AND_OR[w]
    return None


def _negated_words(t: _Text) -> set[int]:
    """Positions of the content words an explicit negator of t negates: its segment, or, for
    a negator that ends its clause ("but not that they will be increasing"), the first
    content words of the clause after it."""
    out: set[int] = set()
    n = len(t.raw)
    for k, is_neg in enumerate(t.neg):
        if not is_neg:
            continue
        seg = _segment(t, k)
        if not seg and k + 1 < n and t.clause[k + 1] != t.clause[k]:
            nxt = t.clause[k + 1]
            seg = [j for j in range(k + 1, min(n, k + 12)) if t.clause[j] == nxt and t.content[j]][:4]
        out.update(seg)
    return out


def _polarity_flipped(claim_t: _Text, spans: list[_Span]) -> str | None:
    """A claim word the cited spans hold only negated while the claim states it plainly,
    and another, in another clause of the claim, that the claim negates and the spans hold
    only plainly: the negation moved ("ROWIDs will be sequential but not increasing" /
    "will be increasing but not sequential", though both sides hold a "not")."""
    cneg = _negated_words(claim_t)
    if not cneg:
        return None
    sneg = [_negated_words(s.t) for s in spans]
    flipped: dict[bool, list[int]] = {False: [], True: []}
    for k in range(len(claim_t.raw)):
        if not claim_t.content[k] or claim_t.kinds[k] != _WORD:
            continue
        occ = [(si, j) for si, s in enumerate(spans) for j in s.t.positions.get(claim_t.stems[k], ())]
        if occ and all((j in sneg[si]) != (k in cneg) for si, j in occ):
            flipped[k in cneg].append(k)
    # both ways, between two clauses of the claim: the negation moved from one clause to
    # another (inside one clause a word negated on one side only is often a change of
    # voice: "exceptions are not caught by send()" / "send() does not catch exceptions")
    for a in flipped[False]:
        if any(claim_t.clause[b] != claim_t.clause[a] for b in flipped[True]):
            return claim_t.raw[a]
    return None


# --- order ------------------------------------------------------------------------------------
def _order_swapped(c: _Side, spans: list[_Span], covered: dict[int, str]) -> bool:
    """Do two of the claim's words stand in another order in a cited span, within one of
    the claim's clauses, both read in the active voice? A claim word an aligned pair shows
    stands for the span word it restates. The span's clauses may stand in another order
    (``_clauses_moved``); inside one clause, any other order is taken for swapped roles
    (measured: letting neighbours trade places, leaving function words out of the order,
    or reading a clause only in the span holding most of it each let role swaps of
    scripted evidence through on dev, and were dropped)."""
    if _around_order_word_swapped(c, spans):
        return True
    citems = c.its
    if covered:
        keys = [covered.get(p) or k for k, p in zip(citems.keys, citems.pos, strict=True)]
        citems = P._Items(keys, citems.pos, citems.bnd, citems.strong, citems.sub, citems.sent, citems.restrict,
                          citems.nums, citems.words)
    segs = P._segments(citems)
    claim_orders = [_readings(c.t, citems, a, b) for a, b in segs]
    swaps = _genitive_swaps(c, citems.keys, spans) + _predicate_swaps(c, citems.keys, spans)
    if swaps:
        claim_orders = [readings + [alt for seq in readings for alt in _swapped(seq, swaps)][:MAX_ALT_READINGS]
                        if b - a <= MAX_ALT_ITEMS else readings
                        for readings, (a, b) in zip(claim_orders, segs, strict=True)]
    for n, (a, b) in enumerate(segs):
        if b - a > MAX_ALT_ITEMS:
            continue
        front = _fronted_phrase(c.t, citems, a, b)
        if front:  # the rest of the clause read on its own (its voice), then the phrase
            lead, run, rest = front
            claim_orders[n] = claim_orders[n] + [list(lead) + seq + list(run)
                                                 for seq in _readings(c.t, citems, rest, b)]
    for s in spans:
        have = set(s.its.keys)
        segments = [_readings(s.t, s.its, a, b)[0] for a, b in P._segments(s.its)]
        # the span's clauses again with each fronted phrase at the clause's end ("For security
        # reasons, X is changed" read "X is changed for security reasons"), where one is
        variants = [segments]
        moved = []
        for (a, b), seg in zip(P._segments(s.its), segments, strict=True):
            front = _fronted_phrase(s.t, s.its, a, b) if b - a <= MAX_ALT_ITEMS else None
            moved.append(list(front[0]) + _readings(s.t, s.its, front[2], b)[0] + list(front[1]) if front else seg)
        if moved != segments:
            variants.append(moved)
        bearers = {key for key, p in zip(s.its.keys, s.its.pos, strict=True)
                   if s.t.content[p] or s.t.entity[p] or s.t.kinds[p] != _WORD}
        # the span's clauses without the claim clause's free adverbs, and them run together:
        # built once per set of free adverbs (most clauses have none), not once per clause
        span_orders: dict[frozenset[str], list[tuple[list[list[str]], list[str]]]] = {}
        for (a, b), readings in zip(segs, claim_orders, strict=True):
            if sum(1 for k in citems.keys[a:b] if k in have) < 2:
                continue
            free = frozenset(_free_adverbs(c.t, citems, a, b))
            seqs = [[k for k in seq if k in have and k not in free] for seq in readings]
            if free not in span_orders:
                span_orders[free] = []
                for variant in variants:
                    cut = [[k for k in seg if k not in free] for seg in variant]
                    span_orders[free].append((cut, [k for seg in cut for k in seg]))
            if any(P._match(seq, order) is not None for _, order in span_orders[free] for seq in seqs):
                continue
            if any(_clauses_moved(seq, mine, bearers, set(citems.keys[a:b]))
                   for mine, _ in span_orders[free] for seq in seqs):
                continue
            return True
    return False


# "run make install before make" cited as "run make before make install" (fresh24): the
# clause ends at the order word, so each side of it keeps its order on its own; the words
# right around it must stand so around it in a span too.
_ORDER_KEYS = frozenset({"befor", "after"})


def _around_order_word_swapped(c: _Side, spans: list[_Span]) -> bool:
    """Does a span write the claim's "before"/"after" and the claim words right before and
    after it, but never with the first before that order word and the second after it?"""
    keys = c.its.keys
    for i in range(1, len(keys) - 1):
        if keys[i] not in _ORDER_KEYS or keys[i - 1] in _ORDER_KEYS or keys[i + 1] in _ORDER_KEYS:
            continue
        left, mid, right = keys[i - 1], keys[i], keys[i + 1]
        found = [s.its.keys for s in spans if mid in s.its.keys and left in s.its.keys and right in s.its.keys]
        if found and not any(sk[m] == mid and left in sk[:m] and right in sk[m + 1:]
                             for sk in found for m in range(len(sk))):
            return True
    return False


# --- "the secret's value" / "the value of the secret" ------------------------------------------
_DETERMINERS = frozenset(["the", "a", "an"])
MAX_NOUN_WORDS = 4  # a possessor or possessed noun phrase of at most this many words
MAX_GENITIVES = 16  # possessives read per side (a longer text's others keep their order)
MAX_ALT_READINGS = 4  # readings of one claim clause with a possessive or adjective read the other way
MAX_ALT_ITEMS = 64  # a claim clause longer than this (no sentence a person writes) is read only as written


def _genitives(text: str, t: _Text) -> set[int]:
    """Token indexes of the words written with a possessive "'s" after them ("secret" in
    "the secret's value"): the analysis drops the "'s", so it is read from the text."""
    out: set[int] = set()
    at = 0
    for i, r in enumerate(t.raw):
        j = text.find(r, at)
        if j < 0:
            return out
        at = j + len(r)
        if t.kinds[i] == _WORD and text[at:at + 2] in ("'s", "\u2019s") and not text[at + 2:at + 3].isalnum():
            out.add(i)
            if len(out) >= MAX_GENITIVES:
                break
    return out


def _noun_runs(t: _Text, keys: dict[int, str], g: int) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """For the possessive at token g: (possessor keys, possessed keys) for each possessed
    phrase of 1..MAX_NOUN_WORDS content words right after it (the possessor: the content
    words right before it, up to the "'s", all in g's clause)."""
    def word(j: int) -> bool:
        return 0 <= j < len(t.raw) and j in keys and t.clause[j] == t.clause[g] and t.kinds[j] == _WORD \
            and (t.content[j] or t.entity[j])
    if not word(g):
        return []
    a = g
    while a - 1 >= 0 and word(a - 1) and g - a + 1 < MAX_NOUN_WORDS:
        a -= 1
    owner = tuple(keys[j] for j in range(a, g + 1))
    out = []
    b = g + 1
    while word(b) and b - g <= MAX_NOUN_WORDS:
        out.append((owner, tuple(keys[j] for j in range(g + 1, b + 1))))
        b += 1
    return out


def _of_phrase(t: _Text, keys: dict[int, str], owner: tuple[str, ...], owned: tuple[str, ...]) -> bool:
    """Does t write "<owned> of [the|a|an] <owner>", each part as adjacent words?"""
    n, m = len(owned), len(owner)
    for k in t.positions.get("of", ()) if t.positions else (k for k, w in enumerate(t.low) if w == "of"):
        i = k - n
        if i < 0 or tuple(keys.get(j) for j in range(i, k)) != owned:
            continue
        j = k + 1
        if j < len(t.raw) and t.low[j] in _DETERMINERS:
            j += 1
        if tuple(keys.get(x) for x in range(j, j + m)) == owner:
            return True
    return False


def _genitive_conflict(c: _Side, ckeys: list[str], spans: list[_Span]) -> bool:
    """Does one side write "X's Y" where the other writes "X of the Y" (another owner: "the
    handler's logger" is not "the handler of the logger")? The analysis drops the "'s", so
    both read "X Y" in the same order: the order check alone would take them for the same."""
    ckey_at = {p: k for k, p in zip(ckeys, c.its.pos, strict=True)}
    claim_gen = _genitives(c.text, c.t) if c.text else set()
    for s in spans:
        skey_at = {p: k for k, p in zip(s.its.keys, s.its.pos, strict=True)}
        for g in claim_gen:
            if any(_of_phrase(s.t, skey_at, owned, owner) for owner, owned in _noun_runs(c.t, ckey_at, g)):
                return True
        for g in (_genitives(s.text, s.t) if s.text else ()):
            if any(_of_phrase(c.t, ckey_at, owned, owner) for owner, owned in _noun_runs(s.t, skey_at, g)):
                return True
    return False


def _genitive_swaps(c: _Side, ckeys: list[str], spans: list[_Span]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The possessive alternation where one side writes "X's Y" and a cited span (or the
    claim) "the Y of X": (run as the claim reads it, the same run as the other side does).
    Both name one thing with the same owner ("the secret's value" is "the value of the
    secret"); found only where the other side writes exactly "Y of X", so no word changes
    its role ("the parent's commit" is not "the parent of the commit": another owner)."""
    out = []
    ckey_at = {p: k for k, p in zip(ckeys, c.its.pos, strict=True)}
    claim_gen = _genitives(c.text, c.t) if c.text else set()
    for s in spans:
        skey_at = {p: k for k, p in zip(s.its.keys, s.its.pos, strict=True)}
        for g in claim_gen:  # the claim's "X's Y", a span's "Y of X": the claim read "Y X"
            for owner, owned in _noun_runs(c.t, ckey_at, g):
                if _of_phrase(s.t, skey_at, owner, owned):
                    out.append((owner + owned, owned + owner))
        for g in (_genitives(s.text, s.t) if s.text else ()):  # the span's "X's Y", the claim's "Y of X"
            for owner, owned in _noun_runs(s.t, skey_at, g):
                if _of_phrase(c.t, ckey_at, owner, owned):
                    out.append((owned + owner, owner + owned))
    return out


# --- "an invalid number" / "the number is invalid" ---------------------------------------------
def _adjective_runs(t: _Text, keys: dict[int, str]) -> tuple[set, set]:
    """The text's attributive adjectives ("an invalid generation number": (invalid,
    (generation, number))) and predicative ones ("the generation number is invalid"), each
    as (adjective key, noun keys): up to MAX_NOUN_WORDS adjacent content words for the noun,
    an adjective WordNet lists, a form of "be" between them for a predicate."""
    def word(j: int) -> bool:
        return 0 <= j < len(t.raw) and j in keys and t.kinds[j] == _WORD and t.content[j] and not t.entity[j]
    attributive, predicative = set(), set()
    for j in range(len(t.raw)):
        if not word(j) or not lexicon.can_be_adjective(t.low[j]):
            continue
        # attributive: the adjective opens its noun phrase (after a determiner, a preposition
        # or the clause's start), the noun run ends where the content words do
        if not word(j - 1):
            e = j + 1
            while word(e) and e - j <= MAX_NOUN_WORDS:
                e += 1
            if e > j + 1 and not word(e):
                attributive.add((keys[j], tuple(keys[x] for x in range(j + 1, e))))
        # predicative: "<noun run> is <adjective>" and the adjective ends its phrase
        if j >= 2 and t.low[j - 1] in _BE and not word(j + 1):
            e = j - 2
            while word(e) and j - 1 - e <= MAX_NOUN_WORDS:
                e -= 1
            if e < j - 2:
                predicative.add((keys[j], tuple(keys[x] for x in range(e + 1, j - 1))))
    return attributive, predicative


def _predicate_swaps(c: _Side, ckeys: list[str], spans: list[_Span]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """An adjective said of a noun before it on one side ("an invalid generation number
    raises ValueError") and after it, with "is", on the other ("ValueError is raised if the
    generation number is invalid"): the same property of the same thing, found only where
    the other side writes exactly that noun with that adjective. (claim run, other order)."""
    if not lexicon.available():
        return []
    ckey_at = {p: k for k, p in zip(ckeys, c.its.pos, strict=True)}
    c_attr, c_pred = _adjective_runs(c.t, ckey_at)
    if not c_attr and not c_pred:
        return []
    out = []
    for s in spans:
        s_attr, s_pred = _adjective_runs(s.t, {p: k for k, p in zip(s.its.keys, s.its.pos, strict=True)})
        for adj, noun in c_attr & s_pred:
            out.append(((adj,) + noun, noun + (adj,)))
        for adj, noun in c_pred & s_attr:
            out.append((noun + (adj,), (adj,) + noun))
    return out


def _swapped(seq: list[str], swaps: list[tuple[tuple[str, ...], tuple[str, ...]]]) -> list[list[str]]:
    """seq with one run of ``swaps`` read the other way (each swap, each place)."""
    out = []
    for run, other in swaps:
        n = len(run)
        for i in range(len(seq) - n + 1):
            if tuple(seq[i:i + n]) == run:
                out.append(seq[:i] + list(other) + seq[i + n:])
    return out


# --- a fronted adverbial: "For larger applications, this can be a problem" ------------------------
# prepositions of a phrase that says where, when, for what or with what the clause holds
_FRONT_PREPS = frozenset(["for", "in", "on", "upon", "at", "with", "during", "under", "within", "by", "after",
                          "before", "prior", "from", "through", "via", "across"])
# words that open the clause's subject after a fronted phrase written without a comma
_SUBJECT_OPENERS = frozenset(["the", "a", "an", "this", "that", "these", "those", "it", "they", "we", "you", "he",
                              "she", "its", "their", "our", "your", "there", "each", "every"])
MAX_FRONT_WORDS = 8


def _fronted_phrase(t: _Text, its: P._Items, a: int, b: int) -> tuple[tuple[str, ...], tuple[str, ...], int] | None:
    """The keys of a prepositional phrase that opens the claim clause [a, b) ("For larger
    applications this can be a problem", "On detection, the trace is shown"), which may
    stand at the clause's end as one unit ("this can be a problem for larger applications"):
    None unless it ends at a comma or before a word that opens the subject, holds no
    negation, quantifier, modal, condition or "only", and the rest of the clause holds no
    negation, quantifier or "only" (whose scope its place changes: "In all cases X is not
    Y" is not "X is not Y in all cases"). Returns the keys before the phrase (a connective:
    "though in simple scripts ..."), the phrase's keys, and the index of the rest's first item."""
    start = its.pos[a - 1] + 1 if a else 0
    k = next((j for j in range(start, its.pos[a] + 1) if t.kinds[j] != 0), None)
    if k is not None and t.low[k] in FACT_FREE | {"and"}:
        k = next((j for j in range(k + 1, its.pos[b - 1] + 1) if t.kinds[j] != 0), None)
    if k is None or t.low[k] not in _FRONT_PREPS or t.clause[k] != t.clause[its.pos[a]]:
        return None
    end = None
    seen = False
    for j in range(k + 1, min(len(t.raw), k + 1 + MAX_FRONT_WORDS)):
        if t.kinds[j] == 0:
            if t.raw[j] == ",":
                end = j
                break
            return None
        if t.low[j] in _SUBJECT_OPENERS and seen:
            end = j
            break
        if t.low[j] in _SUBJECT_OPENERS or t.kinds[j] != _WORD:
            continue
        seen = True
    if end is None or not seen:
        return None
    lead = [i for i in range(a, b) if its.pos[i] < k]
    inside = [i for i in range(a, b) if k <= its.pos[i] < end]
    rest = [i for i in range(a, b) if its.pos[i] >= end]
    if not inside or not rest:
        return None
    if any(its.keys[i] == "\u00ac" or its.keys[i].startswith(("Q:", "M:")) or t.low[its.pos[i]] in _CONDITIONS
           or t.low[its.pos[i]] == "only" for i in inside):
        return None
    if any(its.keys[i] == "\u00ac" or its.keys[i].startswith("Q:") or t.low[its.pos[i]] == "only" for i in rest):
        return None
    return tuple(its.keys[i] for i in lead), tuple(its.keys[i] for i in inside), rest[0]


def _free_adverbs(t: _Text, its: P._Items, a: int, b: int) -> set[str]:
    """Keys of the claim clause [a, b) that may stand anywhere in it: adverbs of manner or
    frequency ("generally lists" / "in general ... lists", "is written automatically" /
    "will be automatically written"; WordNet lists them as adverbs only), unless the clause
    has a negation, whose scope their place changes ("generally not" / "not generally")."""
    if any(k == "\u00ac" for k in its.keys[a:b]):
        return set()
    return {its.keys[i] for i in range(a, b) if t.low[its.pos[i]].endswith("ly")
            and t.kinds[its.pos[i]] == _WORD and lexicon.adverb_only(t.low[its.pos[i]])}


def _clauses_moved(seq: list[str], segments: list[list[str]], span_bearers: set[str], mine: set[str]) -> bool:
    """Is the claim's clause (its keys ``seq``, read in the active voice) the span's clauses in another
    order: ``seq`` cut into runs, each run in order inside its own clause of the span ("An
    invalid value raises X" / "raises X if the value is invalid", "Keeping it short
    minimises the cost" / "the cost is minimised; keep it short")? Each span clause used
    may hold no content word or name the claim's clause lacks: "Handlers send records
    created by loggers" does not state "loggers send records", whose "loggers" would come
    from the other clause."""
    used: set[int] = set()
    i = 0
    while i < len(seq):
        best = None
        for n, seg in enumerate(segments):
            if n in used or not set(seq[i:i + 1]) <= set(seg):
                continue
            if {k for k in seg if k in span_bearers} - mine:
                continue
            j = i + 1
            while j < len(seq) and P._match(seq[i:j + 1], seg) is not None:
                j += 1
            if P._match(seq[i:j], seg) is not None and (best is None or j > best[1]):
                best = (n, j)
        if best is None:
            return False
        used.add(best[0])
        i = best[1]
    return len(used) > 1


def _mixed_clause(c: _Side, spans: list[_Span], covered: dict[int, str]) -> str | None:
    """A name of the claim taken from one cited span into a clause whose other words stand
    in another span, where that span names something else ("A flushes X" from the spans
    "B flushes X" and "... slower than A"): the name, or None."""
    its = c.its
    keys = [covered.get(p) or k for k, p in zip(its.keys, its.pos, strict=True)]
    # each sentence of a span on its own: "use csrf_exempt() followed by requires_csrf_token().
    # (i.e. requires_csrf_token should be the innermost decorator)" does not say "csrf_exempt
    # should be the innermost decorator"
    parts = [(s, [i for i, n in enumerate(s.its.sent) if n == sent]) for s in spans for sent in
             dict.fromkeys(s.its.sent)]
    sets = [{s.its.keys[i] for i in part} for s, part in parts]
    names = [{s.its.keys[i] for i in part if s.t.entity[s.its.pos[i]]} for s, part in parts]
    for a, b in P._segments(its):
        seg = [i for i in range(a, b) if not keys[i].startswith(("Q:", "M:", "#", "ORD:", "W:"))]
        counts = [sum(1 for i in seg if keys[i] in ks) for ks in sets]
        if not counts or max(counts) < 2:
            continue
        m = counts.index(max(counts))
        own = {keys[i] for i in seg}
        others = names[m] - own
        s, part = parts[m]
        for i in seg:
            if c.t.entity[its.pos[i]] and keys[i] not in sets[m] and any(keys[i] in ks for ks in sets) \
                    and (others or _stands_for_other(keys, i, a, s, part, own)):
                return its.words[i]
    return None


def _name_replaced(c: _Side, spans: list[_Span], covered: dict[int, str]) -> tuple[str, str] | None:
    """A claim word next to another in a clause (read in the active voice on both sides),
    where every cited span clause holding that other word has a name or a number there that
    the claim's clause lacks, though the spans hold the claim's word elsewhere: "the
    transaction is rolled back by the view" / "If the view produces an exception, Django
    rolls back the transaction"; "the kernel will execute /usr/local/bin/blah" / "will
    execute /bin/foo with argv[] set to [..., "/usr/local/bin/blah", ...]". The order check
    reads a claim clause across the span's clauses, so the word could be taken from
    another clause. (claim word, span word), or None."""
    its = c.its
    keys = [_bare(covered.get(p) or k) for k, p in zip(its.keys, its.pos, strict=True)]
    words = dict(zip(keys, its.words, strict=True))
    ckeys = P._Items(keys, its.pos, its.bnd, its.strong, its.sub, its.sent, its.restrict, its.nums, its.words)
    have: set[str] = set()
    names: dict[str, str] = {}
    # the neighbours of each key in the spans' clauses, read in the active voice:
    # (-1: the key before it, 1: the key after it)
    near_of: dict[tuple[str, int], set[str]] = {}
    for s in spans:
        skeys = [_bare(k) for k in s.its.keys]
        have.update(skeys)
        for i, p in enumerate(s.its.pos):
            if s.t.entity[p] or skeys[i].startswith("#") or i in s.its.nums:
                names.setdefault(skeys[i], s.its.words[i])
        for a, b in P._segments(s.its):
            if b - a <= MAX_ALT_ITEMS:
                r = [_bare(k) for k in _readings(s.t, s.its, a, b)[0]]
                for j, k in enumerate(r):
                    if j:
                        near_of.setdefault((k, -1), set()).add(r[j - 1])
                    if j + 1 < len(r):
                        near_of.setdefault((k, 1), set()).add(r[j + 1])
    for a, b in P._segments(ckeys):
        if b - a > MAX_ALT_ITEMS:
            continue
        own = set(keys[a:b])
        found = None
        for seq in _readings(c.t, ckeys, a, b):
            found = None
            for x, y in zip(seq, seq[1:], strict=False):
                for mine, other, step in ((x, y, -1), (y, x, 1)):  # x replaced before y; y after x
                    if mine not in have or mine in names and other in names:
                        continue
                    near = near_of.get((other, step))
                    if near and all(z != mine and z in names and z not in own for z in near):
                        found = (words.get(mine, mine), names[min(near)])
                        break
                if found:
                    break
            if not found:
                break  # one reading of the clause holds
        if found:
            return found
    return None


def _bare(key: str) -> str:
    """A number's key without its bound ("#32|char|le|" -> "#32|char"): "up to 32 characters"
    and "a 32-character string" give the same number."""
    return "|".join(key.split("|")[:2]) if key.startswith("#") else key


_TIES = frozenset(["when", "whenever", "if", "unless", "because", "since", "after", "before", "once", "while",
                   "until", "so", "therefore", "thus", "hence"])


def _tied_across(c: _Side, claim_t: _Text, spans: list[_Span], found: list[tuple[int, int, int]],
                 quotes: list[str], covered: dict[int, str]) -> tuple[str, str] | None:
    """Two clauses of the claim that one joins with a relation ("A when B", "A because B",
    "Changed in version 3.3: A") whose words stand in different quote sentences, no sentence
    holding two words (and the numbers) of each, a label before a colon aside when it opens
    an earlier sentence of the same quote: "Users with SSDs can extend the life of the device when the
    compressed pool reaches its size limit" from a sentence about SSDs and one about zswap.
    (first words of the two clauses), or None."""
    its = c.its
    keys = [covered.get(p) or k for k, p in zip(its.keys, its.pos, strict=True)]
    # the keys of each quote sentence the cited spans touch (spans of one sentence together)
    by_sentence: dict[tuple[int, int], set[str]] = {}
    for s, (qi, a, _b) in zip(spans, found, strict=True):
        start = max([0] + [m.end() for m in _SENTENCE_END.finditer(quotes[qi], 0, a)])
        by_sentence.setdefault((qi, start), set()).update(s.its.keys)
    if len(by_sentence) < 2:
        return None
    groups = list(by_sentence.items())
    segs = P._segments(its)
    for (a1, b1), (a2, b2) in zip(segs, segs[1:], strict=False):
        k0 = its.pos[a2]
        between = claim_t.low[its.pos[b1 - 1] + 1:k0 + 1]
        if not (_TIES & set(between) or ":" in between):
            continue
        first = [k for k in keys[a1:b1] if not k.startswith(("Q:", "M:"))]
        second = [k for k in keys[a2:b2] if not k.startswith(("Q:", "M:")) and k not in _TIES]
        if len(first) < 2 or len(second) < 2:
            continue
        def holds(g: set[str], part: list[str]) -> bool:  # two words of the clause, and its numbers
            return sum(1 for k in part if k in g) >= min(2, len(part)) and \
                all(k in g for k in part if k.startswith("#"))
        if any(holds(g, first) and holds(g, second) for _, g in groups):
            continue
        heads = [at for at, g in groups if holds(g, first)]
        tails = [at for at, g in groups if holds(g, second)]
        # "Changed in version 3.5: A. B.": a label before a colon scopes over the sentences
        # after it in its quote ("Changed in version 3.5: B")
        if not _TIES & set(between) and any(h[0] == t[0] and h[1] < t[1] for h in heads for t in tails):
            continue
        if heads and tails:
            return its.words[a1], its.words[a2]
    return None


def _stands_for_other(keys: list[str], i: int, a: int, s: _Span, part: list[int], own: set[str]) -> bool:
    """Does the claim's name at item i stand where the span part has other words: the item
    before it in the claim is followed in the span by a word the claim's clause lacks ("the
    invocation via /proc/sysrq-trigger" from "the invocation via a keyboard" and another
    sentence naming /proc/sysrq-trigger)?"""
    if i == a:
        return False
    prev = keys[i - 1]
    skeys = [s.its.keys[j] for j in part]
    return any(k == prev and n + 1 < len(skeys) and skeys[n + 1] not in own for n, k in enumerate(skeys))


_NOT_AGENT = frozenset(["default", "hand", "itself", "themselves", "himself", "herself", "far", "now", "then",
                        "way", "design", "contrast", "comparison", "chance", "accident", "name", "means"])


def _readings(t: _Text, its: P._Items, a: int, b: int) -> list[list[str]]:
    """The item keys [a, b) of one clause (quantifiers and modals aside: they may stand
    anywhere) in the order of its active voice: each passive reads agent, verb, object ("Y
    is mapped to Z by X" -> X mapped Y Z; "exceptions raised by X" -> X raised exceptions;
    "Y is created" -> created Y); else as written, and for an identity ("WARNING is the
    default level") also the other way round."""
    idx = [i for i in range(a, b) if not its.keys[i].startswith(("Q:", "M:"))]
    keys = [its.keys[i] for i in idx]
    pos = [its.pos[i] for i in idx]
    if len(pos) < 2:
        return [keys]
    low, kinds = t.low, t.kinds
    start = its.pos[a - 1] + 1 if a else 0
    groups: list[list[int]] = [[u] for u in range(len(idx))]  # units in reading order
    changed = False
    for kv in range(start, pos[-1] + 1):
        if kinds[kv] != _WORD or not _participle(low[kv]) or (kv and low[kv - 1] in ("to", "will", "would")):
            continue  # "is to run": an infinitive
        kbe = next((j for j in (kv - 1, kv - 2) if j >= start and low[j] in _BE), None)
        kb = next((j for j in range(kv + 1, min(kv + 8, len(low))) if low[j] == "by"), None)
        if kb is not None and (kb + 1 >= len(low) or low[kb + 1] in _NOT_AGENT
                               or any(kinds[j] == 0 and t.clause[j] != t.clause[kv] for j in range(kv, kb))):
            kb = None
        if kbe is None and (kb is None or kb != kv + 1):
            continue  # a passive is "Y is V-ed", "Y is V-ed ... by X" or "Y V-ed by X"
        end = pos[-1] + 1
        if kb is not None:
            end = next((j for j in range(kb + 1, pos[-1] + 1)
                        if low[j] in _BE or (kinds[j] == 0 and low[j] in ",;:")), pos[-1] + 1)

        def part(lo: int, hi: int) -> list[list[int]]:
            return [g for g in groups if all(lo <= pos[u] < hi for u in g)]

        head = kbe if kbe is not None else kv
        y = part(start, head)
        if kbe is None:
            y = y[-1:]  # "exceptions raised by X": the noun before the verb
        verb = part(kv, kv + 1)
        if kb is None:  # no agent: "Y is created" reads "created Y"
            pre, x, post = part(head + 1, kv), [], []
            end = kv + 1
        else:
            pre, post, x = part(head + 1, kv), part(kv + 1, kb), part(kb + 1, end)
            if not x:
                continue
        if not verb or not (y or x):
            continue
        by = part(kb, kb + 1) if kb is not None else []  # "by" itself: read in the order
        if post and all(low[pos[u]] in _PARTICLES for g in post for u in g):
            verb, post = verb + post, []  # "is rolled back by X" reads "X rolls back Y"
        merged = [u for g in x + pre + verb + y + post for u in g]
        used = {id(g) for g in x + pre + verb + y + post + by}
        at = min(i for i, g in enumerate(groups) if id(g) in used)
        groups = [g for g in groups[:at] if id(g) not in used] + [merged] + \
            [g for g in groups[at:] if id(g) not in used]
        changed = True
    if changed:
        return [[keys[u] for g in groups for u in g]]
    out = [keys]
    for kbe in range(pos[0] + 1, pos[-1]):
        if low[kbe] not in _BE or kinds[kbe] != _WORD:
            continue
        y0 = [i for i, p in enumerate(pos) if p < kbe]
        y1 = [i for i, p in enumerate(pos) if p > kbe]
        if y0 and y1 and (_definite(t, pos[y0[0]]) or _definite(t, pos[y1[0]])):
            out.append([keys[i] for i in y1] + [keys[i] for i in y0])
            break
    return out


# the particle of a phrasal verb, which the active voice keeps next to the verb
_PARTICLES = frozenset(["up", "down", "out", "off", "back", "over", "away", "around", "along"])
_PARTICIPLES = frozenset(["made", "set", "put", "held", "built", "kept", "found", "sent", "given", "taken", "written",
                          "known", "shown", "done", "seen", "read", "run", "said", "told", "led", "paid", "brought",
                          "bought", "thought", "caught", "taught", "left", "lost", "meant", "cut", "hit", "let",
                          "shut", "split", "spread", "drawn", "driven", "chosen", "broken", "spoken", "begun"])


def _participle(w: str) -> bool:
    """Can the word be a past participle ("taken", "mapped", "understood")?"""
    if w in _BE or w in ("has", "had", "have", "does", "did") or w.endswith(("ing", "s")):
        return False
    return w in _PARTICIPLES or (len(w) > 3 and w.endswith(("ed", "en", "wn"))) or lexicon.irregular_verb(w)


def _definite(t: _Text, k: int) -> bool:
    """Does the noun phrase starting at token k name one thing: a name, a number, or a
    phrase after "the"?"""
    if t.entity[k] or t.kinds[k] == _NUM:
        return True
    for j in range(k - 1, max(-1, k - 4), -1):
        if t.kinds[j] != _WORD or t.low[j] in _BE:
            return False
        if t.low[j] == "the":
            return True
    return False


def _short(text: str, n: int = 80) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "\u2026"


# "not just X" / "not only X" / ... adds to X: a claim that states X with nothing beside it ("the
# result is the sum" from "the result is not simply the sum") drops what the quote insists on.
# The claim must itself say there is more (an additive word, or the same phrase).
_NOT_JUST = re.compile(r"\bnot\s+(" + "|".join(sorted(_NEG_SKIP_AFTER)) + r")\b", re.IGNORECASE)
_ADDITIVE = frozenset("also too well addition besides both and plus more beyond".split())


def _more_than_stated(claim: str, spans: list[str]) -> str | None:
    m = next((m for sp in spans if (m := _NOT_JUST.search(sp))), None)
    if m is None or _NOT_JUST.search(claim) or not _ADDITIVE.isdisjoint(re.findall(r"[a-z]+", claim.lower())):
        return None
    return m.group(0)

"""Claim checks by code: is the report sentence a ref is attached to true to its quote?

Quote verification proves a quote is on its page; it says nothing about the sentence of the
report the quote is meant to support (the *claim*). Each ref's claim is cut from the parsed
report (:mod:`deep_research.citations.document.claims`: units, sentences, groups of refs);
this package compares it with the quote(s) by fixed rules, no model (``check_claim``).
Every verdict names the rule that decided it. ``supported`` means code could show every
word of the claim in its quotes (``proof``); anything it cannot show is ``unchecked``.

Rules (``check_claim``), in this order; the first that proves a contradiction makes the
claim ``unsupported``. A red flag rests on proof, never on the absence of a restatement
(``contradiction``, issue 25): each difference a rule finds is a flag only when the quote
states something incompatible in the same slot (the word's neighbours around the quote's
word; every word a verb's negation covers stated without it; scale words that cannot both
hold - "many" / "few", "must" / "may", an absolute against a hedge; no converse such as
"send" / "receive" read from its other end; a claim number no quote writes at all, or the
same value with another unit or bound). Any other difference leaves the claim ``unchecked``
with a note beginning "not proven wrong", for the judge - never ``supported``. The rules
below describe what each finds:

* ``number`` - every number of the claim (digits, number words from "two" up, percentages,
  versions, amounts with a unit, dates) must be in one of the quotes. ``1,000`` =
  ``1000`` = ``1 000`` (also thin and no-break spaces); ``10 %`` = ``10 percent``;
  ``v15`` = ``15`` (but "v1", "v2" are taken for names); ``1.5 million`` = ``1,500,000``;
  quote number words ("two to six") count; ``3.10`` is not ``3.1``; ranges are their two
  ends ("2.5 to 4" = "2.5-4" = "between 2.5 and 4"). A unit in the claim that differs
  from the one the quote gives the same number is a mismatch (128 KB vs 128 MB, 14 bytes
  vs 14 characters; KiB counts as KB), even when the quote also has the bare number
  elsewhere; a number without a unit on one side matches. A claim version may be a
  prefix of a quote version ("3.11" of "3.11.2"). Bounds: "at least / more than / over N"
  is supported by an exact quote number >= N of the same quantity (same unit, or the
  same counted word: "128 modules"), "up to / less than / nearly / almost N" by one <=
  N, "about / around / roughly / approximately / some N" by one within 10 %; against a
  quote bound only the same number counts, and a bound opposite to the quote's ("not
  more than 4 GiB" / "more than 4 GiB") is a mismatch. A positive claim number matches a
  negative quote number, not the reverse. Not required: the word "one", list and heading
  numbers, footnote markers ("[3]" after a space, superscripts), numbers in URLs, and the
  date of a leading "As of 2024," frame (such a number still counts as uncovered content,
  below). Not flagged either (the claim stays unproven, grey), because the quotes may state
  the number in a form the reader does not match (``numbers._maybe_stated``): "N times"
  right after a verb of change, which may count occasions ("increased four times" / "Four
  successive rises"); a name's
  number where a quote glues the same digits to a name that may stand for it ("COVID-19"
  / "COVID19", "Neuropilin-1" / "NRP1", "enzyme 2" / "rhACE2"); digits with a glued
  letter ("2 megabytes" / "2M"); "1st" / "2nd" where a quote has "first" / "second";
  "several hundred"; a date the quotes give in parts or in digits (a quote date of the
  same month agreeing on every part both give, each part the claim adds being a number of
  the quotes: "April 9, 2011" / "April 9th ... 2011"; "January 25, 2019" / "1/25/2019").
  Month abbreviations ("Feb. 23") are months; "five thirty-second ads" is five, not 35.
  Also left grey: a round bound before "a" that a quote bound of the same direction implies
  ("more than a million" / "over 1.1 million"); a claim bound on a number a quote gives
  after "over" with a unit of time ("up to 8 months" / "over 8 months", the period
  followed); a name's number a quote writes with the next word glued on ("COVID-19moved");
  a number the quotes write another way: a multiple as a word ("2-fold" / "twofold", "2
  times" / "twice"), a numbered kind in Roman numerals ("type 1" / "type I", "phase 3" /
  "phase III"), a time in another unit ("2 weeks" / "14 days", "two decades" / "20
  years", "120 minutes" / "2 hours"), "50 %" / "half", "25 %" / "a quarter", a season's
  two-digit end ("2019–20" / "2019-2020"), an ordinal word ("20th" / "twentieth"), other
  zeros with a unit or on a whole number ("5 years" / "5.0 years"; versions keep "3.10" /
  "3.1" apart), an approximation within 10 % of a quote approximation ("about 40 percent"
  / "some 41 percent"), the same value in another notation (".5" / "0.5"; "1.5" / "1.50"
  without a unit, not after a name: "Python 3.1" / "Python 3.10" stays flagged; "1.4bn";
  "20 cm" / "0.2 m"), a product or sum the quote writes out ("1,048,576" / "1024 * 1024",
  "256K" / "128K ... + 128K"), a time against one of a larger unit ("every 24 hours" /
  "once a day"), an integer bound against the strict bound next to it ("two or more" /
  "more than one"), a count written in "-fold" ("3 parts" / "threefold"), "two" where
  the quotes give no number and join things with "and" ("two linked ports" / "port1 and
  port2"). Grey as well (``numbers._not_a_proof``): a manual page's section ("find(1)",
  "sources.list(5)": a lower-case name glued to "(" and a section 1-9) where no quote
  writes the name with another number in brackets; a rounded number ("about 69 thousand",
  or digits before a scale word: "69 thousand") that an exact quote number of the same
  unit, within 10 % and counting the same thing where both name it, rounds to at the
  claim's precision ("68980"); an integer strictly inside a quote's range of integers of
  the thing the claim names ("runlevels 2, 3 and 4" / "runlevel 2 to 4"; not an end of a
  range the claim gives itself); an approximate duration within 15 % of an approximate
  quote one in another unit ("roughly four weeks" / "about a month").
* ``negation`` - two ways. (a) By negated segment, for paraphrases: a negator (not, no,
  never, none, nothing, neither, nor, without, cannot, n't, no longer, fails to, unable
  to, refused to, declined to, is / has yet to, forgot / neglected to - not after a negator:
  "do not forget to X" states X) negates the content words after it up to the clause end (at
  most four; "and"/"or" do not end it, nor "yet" / "before" right after a negator, "never
  before seen", nor the adverb "before" with no noun or clause after it, "never seen before
  is stored"). The rule fires when the claim negates a segment whose first word
  stands in a quote only in clauses without any negation (explicit or implicit: only,
  except, unless, instead, fail, prevent, lack, rarely, suppress, skip, stop, against,
  other than, un-, ...), or the reverse. It needs a
  second word of the segment there when the segment has two or more, or one more shared
  content word near the negation, or a claim made only of quote words. (b) By alignment,
  for near copies (below): a differing stretch that holds a negator on one side and
  nothing of substance on the other ("cannot be split" / "can be split", "does not raise"
  / "raises", "no longer" / "still"), between equal stretches (at an end of the claim
  only when the stretch is the bare negator; a dropped trailing "and not just X" is a
  shorter claim); only when the two sides hold different numbers of negators, and not
  against an implicit negation on the other side ("not often" / "rarely"). "not only /
  just / merely / simply X" (it adds to X, with "but also" or without: "copy the heap data,
  not just the stack data"; "not just anyone" still denies), "whether or not", "no more
  than 5" are not negations; (c) a restriction against its denial is a flip: "copies only /
  just the stack data" / "not just the stack data" (``negation.restriction_flips``, which
  the judge evidence check reads too). Shapes that deny nothing are not flagged: a
  question, "not ... until" (when, not never), a leading "Without X, ..." condition ("; without it Mutt
  takes ...", comma left out), a "not ... without" double negation, "not to be confused with". A
  word counts as negated in a clause whose negation stands across a quotation mark (a
  separate "test cache" is not used), after "far from", or in a relative clause hung on a
  negated phrase ("no locality where ... a home that will rent"). "doesnt", "isnt" (no
  apostrophe) are "does not", "is not"; so are "does't", "could't" ("n't" misspelt). "not really" /
  "not exactly" opening a sentence before a pause or a pronoun is an answer, like "No, ..." A
  quote's negation is no dropped one where the claim denies the same by a negated "do" after it
  ("..., which B cannot do": said of another subject; grey). Also no flip: a negation in what is compared
  against ("Compared with patients with no X", "more jobs in solar than in coal" / "solar,
  not coal"); a word the other side negates by a prefix ("no symptoms" / "asymptomatic"),
  by "little"/"few" ("little change"), by "too ... to" ("too hot to grow grain") or by
  "leave ... alone/untouched/intact" ("leaving the working tree alone" / "not the working
  tree"), by "out of" / "beyond" ("out of reach" / "cannot be reached"), by a condition the
  text follows with "otherwise" / "else" ("if defined. Otherwise ..." / "only if not
  defined"); a word in the opening phrase of a sentence whose verb is negated later
  ("Removing listeners while ... does not stop them"); a negated bound against a bound
  ("No X can have more than one" / "at most one"); "not ... without" in a quote (a need,
  not a denial); a negated word whose opposite the other side states there ("might not be
  high enough" / "may be too low"); a negation in the claim's "if" condition of what the
  quote says should or must be done ("If volunteers do not sort ..." / "volunteers who should
  sort"); a negation said of another scope than the ones the other side lists ("cannot be
  accommodated at breakfast" / "can be accommodated at lunchtimes and dinnertimes"); a
  participle describing a noun after an -ly adverb ("commonly used drugs" / "never been
  used to negotiate"). Grey, not a flip (fresh18): a negation left open ("may or may not",
  "maybe not", "whether or not") or called false ("it is wrong to say that ... no"); "not
  every" / "not all" / "not the only" (like "not always"; "not the only factor" / "more factors
  than"); "hard / difficult to X" for "not ... easily"; an elliptic "If they don't, ..." on the other side
  for a negation that names a case; "only when / if / after" on the other side; "zero X"
  for "no X"; "differs from" / "different from" / "inability to" / "failure to"; a copula's
  "is not <Name>" the other side does not tie to the subject; a negation said of "others";
  a privative adjective ("prosthetic arms" / "no arms"); "optional" for "not needed"; a
  relative clause on the negated noun restated of it; a correction "not on A but on B"; a
  negated value where the other side writes another ("not a nine-track EP" / "a five-track
  EP"); a negation in an embedded question ("understand why it is not ..."); "cannot"
  against "must". In (b), "neither A nor B" is one negation, a negator the claim adds
  is no flip when another quote states that negation, "no X except Y" says "only Y", and a
  negator between equal stretches of function words only ("he can[not] be charged" / "you
  can still be put in jail"), the words it covers absent, stands in no copy.
* ``near_copy:<kind>`` - when the claim repeats a quote (at least two of the claim's
  content words and at least half of them are in that quote, or the token similarity of
  the two is at least 0.6), claim and quote are aligned token by token (``rapidfuzz``
  Levenshtein opcodes on light stems, articles and punctuation dropped). Differing
  stretches of at most four tokens a side, next to an equal stretch, are substitutions.
  Words may trade places ("located or loaded" / "loaded or located"): a pair counts only
  if the claim holds its word more often than the quotes do, or the quote's word less
  often (either is enough when the two stand at the same position between equal
  stretches; both are needed otherwise). The pair is unsupported when it is an
  ``antonym`` (curated pairs such as increase/decrease, enable/disable, true/false,
  required/optional, maximum/minimum, or un-/non-/dis-/in- prefixes), an ``order`` pair
  (before/after, earlier/later, first/last, prior to/after, ...), a ``quantifier`` of
  another strength (all/every/each/always/any | most/usually/typically | many/often |
  some/sometimes/several/a few | few/rarely | none/never), a ``modal`` of another group
  (must/shall | should | may/might/can/could | will/would; "will be possible/able" is a
  "can", and "will" / "should" - what is expected to happen - are not told apart), or an
  ``entity``: both tokens
  look like names (a capitalised word not at the sentence start, ALL CAPS, camelCase, a
  code identifier with ``.`` or ``_``, a call such as ``len()``, a token mixing letters
  and digits such as a file name) of one kind - not a spelling variant, abbreviation or
  initial of the other, nor the initials of the words around the other ("F.C." /
  "Football Club"), nor a word of a longer name against a one-word name; outside a
  one-for-one swap between equal stretches, only a claim name the quotes do not write in
  any form ("covid19" / "Covid-19", "CO2" / "CO 2", a qualified name) is a swap, and never
  when the quote writes a variant of the claim's name right beside the aligned one
  ("ace2" / "K18-hACE2"); a part of a dotted name ("Node" / "Node.js", "kill" /
  "worker.kill") is no swap, nor a name put where the claim still writes the quote's
  name ("path.basename() throws a TypeError" / "A TypeError is thrown": added, not
  swapped; a name written only after "rather than", "instead of", "not" is not kept), nor
  two names of several words aligned on their wrong words (each name's other, different
  word stands on the other side: "Charles Dickens ... Tim" / "Tiny Tim, Dickens"), nor a name
  one side denies and the other does not ("is not an American series" / "is a French series"). An ``order`` pair whose two sides trade places ("B after A" / "A before B")
  states the same order, and so does a comparative antonym pair followed by "than" whose
  compared terms stand on the opposite sides ("2009 spending was lower than 2014's" / "2014
  spending is higher than under the 2009 budget"; ``contradiction.converse_comparison``), and
  so does a pair of words of place ("A is above B" / "B lies below A", "left" / "right"), or
  one side's comparative said, without "than", of what the other compares against ("pure
  string searches are several times faster" / "a regex search is several times slower than a
  pure string search"). Two ends of a scale joined by "or" / "and" in another order ("too
  many or too few" / "too few or too much") are no swap, nor a domain against a host name in
  it ("Libera.Chat" / "irc.libera.chat"). A "non-" difference is no flip when both sides write the same
  "non-" words (a reordering). Antonyms
  and quantifiers under a negation on one side only ("unnecessary" / "not necessary",
  "rarely" / "not often") and converse comparisons are not flagged. Lower-case plain
  words that differ are not judged here: the claim is then not proven, so ``unchecked``.

* ``antonym`` - a claim word the quotes lack whose opposite (the curated pairs above, or
  an un-/non-/dis- prefix) stands in a quote among two more of the claim's words, neither
  negated nor in a negated clause on one side only, and not a converse comparison ("A
  more X than B" / "B less X than A"), nor when the quote holds, next to that opposite, an
  opposite of it too ("increasing dose decreased efficacy": two directions of two things); grey
  when the quote says its opposite of a change the claim does not name ("Increasing rates of
  ice mass loss" / "decreased in mass": the two directions compose).

Dates with a month name ("May 5, 2020", "5 June 2021", "June 2021") are one number each:
a claim's date must be a quote's date (a part the claim leaves out may be anything), never
a day from one date and a year from another; a quote's year also counts alone. In a quote that
writes no capital at all (lower-cased news: "on may 30 .") a month's name followed by its day
or year is a date too. A date is contradicted only by a date (a version only by a version,
``contradiction.same_kind``): a bare count or ordinal ("six flags", "the sixth") is no proof.
Nor is another value against a claim value the claim itself denies and corrects ("not on
March 28, 2003 but on March 29, 2004"), a quote date within a claim's "by <date>" bound, or
a quote date whose range, "from A to B" / "between A and B", holds the claim's date. A name
swap is grey for a weekday against another kind of name ("Monday" / "August") and a region
against a name that is none ("Asian" / "Malayalam"), and no swap when the claim joins its
name to the quote's ("both IPv4 and IPv6"); an order word with an anaphor in a sequence ("A
first and after it B") is no swap either.

Status when no rule fired (``proof``: see that module for the full rule):

* ``supported`` / ``no_claim`` - the claim has no word that states something (empty, a
  table cell holding only the ref, a pure reporting frame); ``citations.check`` shows such
  a citation as ``no_claim`` (quote found, nothing to check), never as supported.
* ``supported`` / ``copy`` or ``proof`` - code can show the claim: every word of it that
  states something (numbers, names, negations, quantifiers, modals, order words, "only",
  conditions, every content word) is matched in order by one quote sentence - same stem,
  a number the number rule accepts, a spelling variant - or, part by part, by clauses of
  the quotes; what the claim leaves out of the quote is whole clauses or parentheses, and
  none of it restricts what the claim kept (a negation, quantifier, modal, condition,
  scope such as "by default" or "on Windows", "only", an attribution such as "said").
  ``copy`` when the matched words are one contiguous stretch of the quote. Not when the
  claim is shown only by words a quote holds inside quotation marks (someone's words,
  quoted, are not the page saying they are true) and the claim neither quotes nor
  attributes them: ``unchecked`` (``attribution``). Nor is a bare name or phrase of at most
  three words with no verb ("Cetshwayo": nothing stated), nor a copy that stops inside an
  "if" / "when" condition its quote goes on with "and" ("when we hand over a card" of "when
  we hand over a card and spend funds ..."), nor a copy that is no sentence of its own (a
  fragment opening with "and" / "or" / "but" / "nor" and no verb or with "that" / "which" /
  "who"; a verbless complement its quote writes after a form of "be": "The principal means
  of transportation ..." of "They are the principal means ..."), nor a copy without its
  quote's opening "To do this," / "In that case," that ties it to a case, nor a claim with a
  first-person pronoun ("I have! ...") no quote writes: ``unchecked``. Nor is a claim
  whose literal no quote writes as written - the same characters and case, not inside a
  longer word: a value in quote marks, backticks or a list ("['locales']"), or a token of
  code (a keyword argument "chain=True", an option, a path, an identifier with "_", "*" or
  "::", a camelCase word, a call "len()", a dotted name "os.path"; not prose such as "e.g.",
  "U.S.", "and/or") - ``rules.literal_missing``; the judge evidence check reads the same on
  its cited spans.
* ``unchecked`` otherwise, with a note saying what could not be shown (a model judge
  decides later; its "supports" counts only when ``judge_check`` accepts its evidence).
  A paraphrase with other words, a moved or re-voiced clause, an added word of context
  are all ``unchecked``: grey, never a guess.

Reporting frames ("According to the manual, ...", "The docs note that ...", "..., as the
documentation explains.", "(see the docs)") and discourse markers ("Notably, ...",
"For example, ...") are removed before the rules run; what a frame names is not checked
("According to RFC 2616, ..."). A word capitalised right after a removed frame counts as
a name. Stems are a light suffix stripper (plural, -ed, -ing, final e, doubled final
consonant, a few irregular verbs), so tense, number and voice changes of the same verb
compare equal.

All regular expressions are linear (no nested unbounded repetition that can backtrack);
alignment is skipped for claims or quotes longer than ``MAX_ALIGN_TOKENS`` tokens.

Modules: ``contradiction`` (whether a rule's finding proves the claim wrong), ``framing``
(frames removed before the rules), ``analysis`` (tokens, stems, names, negations), ``numbers`` (numbers and the
``number`` rule, dates), ``negation``, ``near_copy``, ``antonym`` (the rules that prove a
claim wrong), ``proof`` (what code can show: ``supported`` or ``unchecked``), ``attribution``
(a quotation is not proof), ``rules``
(``check_claim``: the rules in order), ``words`` (word lists, the stemmer), ``types``;
``judge_check`` (``check_judge_evidence``: code's check of a model judge's evidence) and
``lexicon`` (an optional WordNet reader it uses).
"""

from __future__ import annotations

from .framing import prepare_claim
from .rules import check_claim
from .types import Claim, ClaimCheck, ClaimStatus
from .judge_check import EvidenceCheck, JudgeFact, check_judge_evidence
from .words import stem

__all__ = ["Claim", "ClaimCheck", "ClaimStatus", "EvidenceCheck", "JudgeFact", "check_claim",
           "check_judge_evidence", "claims_for_refs", "prepare_claim",
           "split_sentences", "stem"]


def __getattr__(name: str):
    """``claims_for_refs`` and ``split_sentences``: the claims of a report are cut from its
    parsed document (``citations.document.claims``); still importable from here."""
    if name in ("claims_for_refs", "split_sentences"):
        from ..document import claims as units

        return getattr(units, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

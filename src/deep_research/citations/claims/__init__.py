"""Claim checks by code: is the report sentence a ref is attached to true to its quote?

Quote verification proves a quote is on its page; it says nothing about the sentence of the
report the quote is meant to support (the *claim*). This module finds each ref's claim
(``claims_for_refs``) and compares it with the quote(s) by fixed rules, no model
(``check_claim``). Every verdict names the rule that decided it.

Claims
------
The unit is a paragraph, a list item, a table cell or a heading (block markers, heading
numbers such as "2.1", list numbers are not part of it). Inside a unit the text is split
into sentences (``split_sentences``: ``.!?`` followed by a space and something that may
start a sentence, not after an abbreviation such as "e.g." or an initial; ``。！？``
always; "3.5" and "v2.1" never split). Refs separated only by spaces or punctuation form
one group that shares one claim, checked against the union of their quotes. In a sentence
with several groups, a group's claim is the text since the previous group (or the sentence
start); the text after the last group up to the sentence end belongs to the last group
("X <A>, and Y <B>, as Z." gives A "X" and B "and Y, as Z."). A ref placed after the
period supports the sentence before it. A quote that is grammatically part of the
sentence (it starts with a lower-case letter or a digit: "its core <ref>"typically
reaches 55 to 65 °C"</ref>") is kept in the claim text, since the reader reads it as
part of the sentence. A table cell holding only a ref has no claim of its own.

Rules (``check_claim``), in this order; the first that fires makes the claim
``unsupported``:

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
  below).
* ``negation`` - two ways. (a) By negated segment, for paraphrases: a negator (not, no,
  never, none, nothing, neither, nor, without, cannot, n't, no longer, fails to, unable
  to) negates the content words after it up to the clause end (at most four; "and"/"or"
  do not end it). The rule fires when the claim negates a segment whose first word
  stands in a quote only in clauses without any negation (explicit or implicit: only,
  except, unless, instead, fail, prevent, lack, rarely, ...), or the reverse. It needs a
  second word of the segment there when the segment has two or more, or one more shared
  content word near the negation, or a claim made only of quote words. (b) By alignment,
  for near copies (below): a differing stretch that holds a negator on one side and
  nothing of substance on the other ("cannot be split" / "can be split", "does not raise"
  / "raises", "no longer" / "still"), between equal stretches (at an end of the claim
  only when the stretch is the bare negator; a dropped trailing "and not just X" is a
  shorter claim). "not only ... but also", "whether or not", "no more than 5" are not
  negations.
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
  (must/shall | should | may/might/can/could | will/would), or an ``entity``: both tokens
  look like names (a capitalised word not at the sentence start, ALL CAPS, camelCase, a
  code identifier with ``.`` or ``_``, a call such as ``len()``, a token mixing letters
  and digits such as a file name). Lower-case plain words that differ are not judged:
  that may be a synonym, so it is left to coverage.

Status when no rule fired:

* ``supported`` / ``no_claim`` - the claim has no content word of its own (empty, a table
  cell holding only the ref, a pure reporting frame).
* ``supported`` / ``copy`` - the claim's words are a contiguous run of a quote's words.
* ``supported`` / ``overlap`` - at least 80 % of the claim's content words (light stems;
  numbers count as content) are in the quotes, at most one in five is missing, and none
  of the missing ones is a number, a name-like token, a quantifier, a modal or a negator.
* ``unchecked`` otherwise (a model judge decides later).

Reporting frames ("According to the manual, ...", "The docs note that ...", "..., as the
documentation explains.", "(see the docs)") and discourse markers ("Notably, ...",
"For example, ...") are removed before the rules run; what a frame names is not checked
("According to RFC 2616, ..."). A word capitalised right after a removed frame counts as
a name. Stems are a light suffix stripper (plural, -ed, -ing, final e, doubled final
consonant, a few irregular verbs), so tense, number and voice changes of the same verb
compare equal.

All regular expressions are linear (no nested unbounded repetition that can backtrack);
alignment is skipped for claims or quotes longer than ``MAX_ALIGN_TOKENS`` tokens.

Modules: ``units`` (claims of a report, sentences), ``framing`` (frames removed before the
rules), ``analysis`` (tokens, stems, names, negations), ``numbers`` (numbers and the
``number`` rule), ``negation``, ``near_copy``, ``coverage`` (the rules), ``rules``
(``check_claim``: the rules in order), ``words`` (word lists, the stemmer), ``types``.
"""

from __future__ import annotations

from .framing import prepare_claim
from .rules import check_claim
from .types import Claim, ClaimCheck, ClaimStatus
from .units import claims_for_refs, split_sentences
from .words import stem

__all__ = ["Claim", "ClaimCheck", "ClaimStatus", "check_claim", "claims_for_refs", "prepare_claim",
           "split_sentences", "stem"]

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
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from functools import lru_cache

from rapidfuzz.distance import Indel, Levenshtein

from .model import Ref
from .refs import _mask_code
from .verify import _without_markup, strip_quote_marks

MAX_ALIGN_TOKENS = 400
COVERAGE_MIN = 0.8  # share of the claim's content words found in the quotes
MISSING_PER = 5  # at most one missing content word per five
NEAR_COPY_SHARE = 0.5  # share of claim content words in one quote for it to be a near copy
SHORT_COPY_SIMILARITY = 0.6  # or: token similarity of claim and quote (short claims)
APPROX = Decimal("0.1")  # "about N" accepts a quote number within 10 %
WINDOW = 6  # tokens around a negation searched for shared context


class ClaimStatus(StrEnum):
    SUPPORTED = "supported"
    UNSUPPORTED = "unsupported"
    UNCHECKED = "unchecked"
    NO_CLAIM = "no_claim"  # the ref has no claim of its own (alone in its cell, item or paragraph): nothing to check


@dataclass
class ClaimCheck:
    status: ClaimStatus
    rule: str | None  # "number", "negation", "near_copy:<kind>"; "copy", "overlap", "no_claim"
    note: str


@dataclass
class Claim:
    text: str  # the claim as published: plain text, markdown marks and ref tags removed
    ref_indexes: list[int]  # Ref.index of the refs that support it
    start: int  # span of the claim in the report markdown
    end: int


# --- word lists ------------------------------------------------------------------------------
_STOP = frozenset(["a", "an", "the", "and", "or", "but", "nor", "so", "yet", "for", "of", "in", "on", "at", "to", "from", "by", "with", "about", "into", "onto", "upon", "over", "under", "between", "through", "during", "within", "without", "via", "per", "among", "across", "against", "toward", "towards", "than", "then", "as", "if", "whether", "because", "while", "although", "though", "since", "until", "unless", "when", "where", "why", "how", "what", "which", "who", "whom", "whose", "that", "this", "these", "those", "there", "here", "it", "its", "itself", "they", "them", "their", "theirs", "themselves", "he", "him", "his", "she", "her", "hers", "we", "us", "our", "ours", "you", "your", "yours", "i", "me", "my", "mine", "one", "ones", "be", "is", "are", "was", "were", "been", "being", "am", "have", "has", "had", "having", "do", "does", "did", "done", "doing", "get", "gets", "got", "also", "too", "very", "just", "even", "still", "already", "again", "further", "furthermore", "moreover", "however", "thus", "therefore", "hence", "indeed", "instead", "rather", "quite", "fairly", "really", "actually", "simply", "basically", "merely", "only", "both", "either", "neither", "other", "another", "such", "own", "same", "e.g", "i.e", "etc", "eg", "ie", "vs", "cf", "up", "down", "out", "off", "well", "like", "unlike", "whereas", "s", "t", "let", "lets", "make", "makes", "made"])
# Words that strip as frames but are never claims of their own.
_DISCOURSE = ("notably|importantly|in short|in summary|in practice|in other words|for example|"
              "for instance|e\\.g\\.|also|additionally|moreover|furthermore|however|similarly|"
              "likewise|overall|finally|in addition|in particular|in fact|indeed|specifically|"
              "in general|put simply|simply put|that said|still|then|thus|therefore|hence|so|"
              "by contrast|in contrast|conversely|meanwhile|first|second|third|lastly")
_NEGATORS = frozenset(["not", "no", "never", "none", "nothing", "nobody", "nowhere", "neither", "nor", "without", "cannot"])
_IMPLICIT_NEG = frozenset(["only", "except", "unless", "instead", "rather", "fail", "fails", "failed", "failing", "refuse", "refuses", "refused", "prevent", "prevents", "prevented", "avoid", "avoids", "avoided", "forbid", "forbids", "forbidden", "prohibit", "prohibits", "prohibited", "disallow", "disallows", "disallowed", "lack", "lacks", "lacked", "lacking", "absent", "missing", "hardly", "barely", "seldom", "rarely", "impossible", "unable", "omit", "omits", "omitted", "deny", "denies", "denied", "exclude", "excludes", "excluded", "ignore", "ignores", "ignored", "neither", "nor", "never", "none", "nothing", "nobody", "nowhere", "without", "not", "no"])
_NEG_PHRASE_WORDS = frozenset({"longer", "fail", "fails", "failed", "failing", "unable"})  # no longer, fails to
_NEG_SKIP_AFTER = frozenset(["only", "just", "merely", "simply"])  # "not only ... but also"
# After these, a negator starts a comparison, not a negation: "no more than 5".
_NO_COMPARATIVE = frozenset(["more", "less", "fewer", "later", "earlier", "greater", "longer"])
_QUANT_GROUPS = {
    "all": "all every each always any",
    "most": "most mostly usually generally typically normally largely mainly predominantly",
    "many": "many often frequently commonly numerous",
    "some": "some sometimes several occasionally",
    "few": "few rarely seldom",
    "none": "none never",
}
_MODAL_GROUPS = {"must": "must shall", "should": "should ought", "may": "may might can could",
                 "will": "will would"}
_ANTONYM_WORDS = """
increase decrease|increase reduce|increases decreases|increased decreased|increasing decreasing|
enable disable|enabled disabled|more less|more fewer|most least|higher lower|high low|
larger smaller|large small|bigger smaller|big small|greater smaller|greater lesser|faster slower|
fast slow|quicker slower|quick slow|true false|required optional|mandatory optional|allow forbid|
allow disallow|allow prevent|allowed forbidden|accept reject|include exclude|add remove|
open close|start stop|input output|read write|minimum maximum|min max|success failure|
succeed fail|valid invalid|possible impossible|safe unsafe|secure insecure|public private|
local global|local remote|synchronous asynchronous|sync async|mutable immutable|static dynamic|
explicit implicit|absolute relative|positive negative|upper lower|uppercase lowercase|
above below|inside outside|internal external|inner outer|same different|identical different|
new old|strong weak|hot cold|warm cold|heavy light|long short|longer shorter|wide narrow|
visible hidden|present absent|available unavailable|supported unsupported|ascending descending|
encode decode|encrypt decrypt|compress decompress|serialize deserialize|import export|
upload download|lock unlock|inclusive exclusive|keep discard|even odd|best worst|better worse|
cheap expensive|easy difficult|easy hard|easier harder|simple complex|rise fall|gain loss|
win lose|on off|client server|send receive|push pull|lowest highest|smallest largest|
slowest fastest|shortest longest|over under|left right|top bottom|blocking nonblocking|
sensitive insensitive|success error|accepted rejected|included excluded|added removed|
allowed denied|grant deny|permit deny|maximum minimal|raise lower|overestimate underestimate|
empty full|shallow deep|prepend append|prefix suffix|head tail|enter exit|entry exit|forward backward|
horizontal vertical|major minor|strict lenient|strict loose|encoded decoded|before after
"""
_ORDER_WORDS = """
before after|earlier later|early late|first last|prior subsequent|previous next|
preceding following|precede follow|precedes follows|preceded followed|older newer|oldest newest|
earliest latest|past future|start end|begin end|beginning end|leading trailing|initial final|
formerly now|prior after|prior following|prior later
"""
_ANTONYM_PREFIXES = ("un", "non", "dis", "in", "im", "ir", "il")

_SMALL_NUMBERS = {w: i for i, w in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"])}
_TENS = {w: 10 * (i + 2) for i, w in enumerate(["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"])}
_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_NUMBER_WORDS = frozenset(_SMALL_NUMBERS) | frozenset(_TENS)
_ORDINALS = {w: i + 3 for i, w in enumerate(["third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"])}
# Quote words a claim may write as a number ("twice as fast" -> "2x faster").
_QUOTE_NUMBER_WORDS = {"twice": "2", "double": "2", "thrice": "3", "triple": "3", "dozen": "12", "half": "0.5"}
_NUMBER_START = _NUMBER_WORDS | {"hundred"} | frozenset(_SCALES) | frozenset(_ORDINALS) | frozenset(_QUOTE_NUMBER_WORDS)
_CJK_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
               "七": 7, "八": 8, "九": 9}
_CJK_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10**4, "亿": 10**8}
_CJK_NEG = frozenset("不没未无非勿别")
_CJK_NEG_WORDS = ("不过", "不断", "不仅", "不但", "无论", "不论", "不少", "不久", "非常", "无数", "别的",
                  "别人", "无疑", "不管")
_CJK_STOP = frozenset("的了是在和与及或也都就而之其这那有为以于对")

# Units: surface form (lower case) -> canonical unit. Binary prefixes count as decimal ones.
_UNITS: dict[str, str] = {}
for _canon, _forms in {
    "B": "byte bytes", "kB": "kb kbyte kbytes kilobyte kilobytes kib kibibyte kibibytes",
    "MB": "mb mbyte mbytes megabyte megabytes mib mebibyte mebibytes",
    "GB": "gb gbyte gbytes gigabyte gigabytes gib gibibyte gibibytes",
    "TB": "tb terabyte terabytes tib tebibyte tebibytes", "PB": "pb petabyte petabytes pib",
    "bit": "bit bits", "kbit": "kbit kbits kilobit kilobits kbps", "Mbit": "mbit mbits megabit megabits mbps",
    "Gbit": "gbit gbits gigabit gigabits gbps",
    "ns": "ns nanosecond nanoseconds", "us": "µs μs microsecond microseconds usec",
    "ms": "ms msec millisecond milliseconds", "s": "s sec secs second seconds",
    "min": "min mins minute minutes", "h": "h hr hrs hour hours", "day": "day days",
    "week": "week weeks", "month": "month months", "year": "year years yr yrs",
    "decade": "decade decades", "century": "century centuries",
    "%": "% percent pct percentage", "pp": "pp", "x": "x times fold",
    "degC": "celsius", "degF": "fahrenheit", "K": "kelvin",
    "mm": "mm millimetre millimetres millimeter millimeters", "cm": "cm centimetre centimetres centimeter centimeters",
    "metre": "metre metres meter meters", "km": "km kilometre kilometres kilometer kilometers",
    "mile": "mile miles", "ft": "ft foot feet", "inch": "inch inches",
    "mg": "mg milligram milligrams", "g": "g gram grams", "kg": "kg kilogram kilograms",
    "lb": "lb lbs", "t": "tonne tonnes ton tons",
    "Hz": "hz hertz", "kHz": "khz", "MHz": "mhz", "GHz": "ghz",
    "W": "w watt watts", "kW": "kw kilowatt kilowatts", "kWh": "kwh", "MW": "mw megawatt megawatts",
    "GW": "gw gigawatt gigawatts", "V": "volt volts", "px": "px pixel pixels", "dpi": "dpi",
    "rpm": "rpm", "fps": "fps", "char": "char chars character characters", "digit": "digit digits",
    "line": "line lines", "row": "row rows", "column": "column columns", "page": "page pages", "l": "l litre litres liter liters", "ml": "ml millilitre millilitres milliliter milliliters",
}.items():
    for _f in _forms.split():
        _UNITS[_f] = _canon
# A glued suffix ("128KB", "10ms", "5x") is a unit only when it is unambiguous.
_GLUED_UNITS = {k: v for k, v in _UNITS.items() if k not in {"s", "h", "g", "t", "l", "w", "x", "min"}}
_GLUED_UNITS.update({"x": "x", "s": "s", "h": "h"})
_CURRENCY = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR"}

_COMPARATORS: list[tuple[tuple[str, ...], str]] = sorted(
    [(tuple(p.split()), kind) for kind, phrases in {
        "ge": ["at least", "more than", "greater than", "over", "above", "no less than", "not less than",
               "not fewer than", "not under", "not below",
               "no fewer than", "upwards of", "in excess of", "exceeding", ">", "≥", "over than"],
        "le": ["at most", "up to", "less than", "fewer than", "under", "below", "no more than", "not more than",
               "not over", "not above", "not exceeding",
               "nearly", "almost", "just under", "<", "≤", "a maximum of", "maximum of"],
        "approx": ["about", "around", "approximately", "roughly", "some", "circa", "ca", "~", "≈",
                   "an estimated", "estimated", "approx", "close to", "or so", "on the order of"],
    }.items() for p in phrases], key=lambda x: -len(x[0]))
_CMP_LAST = frozenset(p[-1] for p, _ in _COMPARATORS)
_AFTER_COMPARATORS = {("or", "more"): "ge", ("or", "greater"): "ge", ("+",): "ge",
                      ("or", "less"): "le", ("or", "fewer"): "le", ("or", "so"): "approx"}

_IRREGULAR_BASE = {
    "is": "be", "are": "be", "was": "be", "were": "be", "been": "be", "being": "be", "am": "be",
    "has": "have", "had": "have", "having": "have", "does": "do", "did": "do", "done": "do",
    "doing": "do", "went": "go", "gone": "go", "goes": "go", "made": "make", "took": "take",
    "taken": "take", "gave": "give", "given": "give", "wrote": "write", "written": "write",
    "ran": "run", "found": "find", "got": "get", "gotten": "get", "began": "begin", "begun": "begin",
    "built": "build", "chose": "choose", "chosen": "choose", "kept": "keep", "held": "hold",
    "brought": "bring", "bought": "buy", "thought": "think", "sent": "send", "spent": "spend",
    "lost": "lose", "meant": "mean", "known": "know", "knew": "know", "shown": "show", "grew": "grow",
    "grown": "grow", "fell": "fall", "fallen": "fall", "rose": "rise", "risen": "rise",
    "drew": "draw", "drawn": "draw", "broke": "break", "broken": "break", "spoke": "speak",
    "spoken": "speak", "became": "become", "came": "come", "saw": "see", "seen": "see",
    "told": "tell", "said": "say", "paid": "pay", "led": "lead", "children": "child",
    "indices": "index", "analyses": "analysis", "criteria": "criterion", "men": "man",
    "women": "woman", "data": "data", "bytes": "byte", "uses": "use", "used": "use",
    "using": "use", "cannot": "can", "better": "better", "best": "best",
}
_ARTICLES = frozenset({"a", "an", "the"})


@lru_cache(maxsize=131072)
def stem(word: str) -> str:
    """Light stemmer: the same word in another number, tense or voice gives the same stem."""
    w = word.lower()
    base = _IRREGULAR_BASE.get(w)
    if base is not None:
        w = base
    if len(w) <= 3 or not w.isalpha():
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith(("sses", "xes", "ches", "shes", "zzes")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is", "ous")):
        w = w[:-1]
    if w.endswith("ied") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("ing") and len(w) > 5:
        w = w[:-3]
    elif w.endswith("ed") and len(w) > 4:
        w = w[:-2]
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouy":
        w = w[:-1]
    return w


def _pairs(spec: str) -> frozenset[frozenset[str]]:
    out = set()
    for pair in spec.replace("\n", "").split("|"):
        words = pair.split()
        if len(words) == 2:
            a, b = stem(words[0]), stem(words[1])
            if a != b:
                out.add(frozenset((a, b)))
    return frozenset(out)


_ANTONYMS = _pairs(_ANTONYM_WORDS)
_ORDER = _pairs(_ORDER_WORDS)
_QUANT = {w: g for g, ws in _QUANT_GROUPS.items() for w in ws.split()}
_MODAL = {w: g for g, ws in _MODAL_GROUPS.items() for w in ws.split()}
_CLOSED = frozenset(_QUANT) | frozenset(_MODAL) | _NEGATORS
_IMPLICIT_NEG_STEMS = frozenset(stem(w) for w in _IMPLICIT_NEG)
# "and"/"or" do not end a clause: a negation covers both of "cannot be located or loaded".
_CLAUSE_WORDS = frozenset(["but", "however", "while", "whereas", "although", "though", "unless", "because", "since", "if", "when", "where", "which", "who", "whom", "that", "so", "yet", "after", "before", "until", "whether"])

# --- text normalisation and tokens --------------------------------------------------------
_CJK_RANGES = ("\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
               "\uf900-\ufaff\uff66-\uff9f")
_CJK_CHAR = re.compile(f"[{_CJK_RANGES}]")
_TOKEN = re.compile(
    r"(\d{1,3}(?:[, ]\d{3})+(?:\.\d+)?)(?![\w])"  # 1,000 / 1 000 000 (grouped thousands)
    rf"|([^\W_{_CJK_RANGES}](?:[^\W{_CJK_RANGES}]|['.\-](?=[^\W_{_CJK_RANGES}]))*)"  # words
    rf"|([{_CJK_RANGES}])"
    r"|([^\w\s])"
)
_NUMBER = re.compile(r"(\d+(?:\.\d+)*)([a-zµμ%]*)", re.IGNORECASE)
_VERSION = re.compile(r"[vV](\d+(?:\.\d+)*)")
_SUPERSCRIPTS = str.maketrans("", "", "\u00b9\u00b2\u00b3\u2070\u2071\u2074\u2075\u2076\u2077\u2078\u2079"
                              "\u207a\u207b\u207c\u207d\u207e\u207f")
_NORMALISE = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2212": "-", "\ufe63": "-",
    "\uff0d": "-", "\u2014": " \u2014 ", "\u2015": " \u2014 ", "\u00ad": "", "\u200b": "",
    "\u2009": " ", "\u202f": " ", "\u00a0": " ", "\u2007": " ", "\u3000": " ",
})
_CLAUSE_PUNCT = frozenset(",;:.!?()[]{}\u2014\"/|\u3002\uff0c\u3001\uff1b\uff1a\uff01\uff1f")
_SENTENCE_PUNCT = frozenset(".!?:\u3002\uff01\uff1f")

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


@dataclass(slots=True)
class _Text:
    raw: list[str]  # surface form of each token
    low: list[str]  # lower case
    stems: list[str]
    kinds: list[int]
    clause: list[int]  # clause number of each token
    sent_start: list[bool]
    numbers: list[_Num]
    neg: list[bool]  # explicit negator
    neg_clauses: set[int]  # clauses with an explicit or implicit negation
    stemset: set[str]  # stems of word tokens
    lowset: set[str]
    cjk_bigrams: set[str]
    align: list[str]  # alignment sequence (articles and punctuation dropped)
    align_pos: list[int]  # token index of each alignment item
    content: list[bool]
    entity: list[bool]
    joined: str = ""  # " stem stem ... " for contiguous-copy tests
    cjk_chars: set[str] = field(default_factory=set)
    positions: dict[str, list[int]] = field(default_factory=dict)  # stem -> token positions
    rawset: set[str] = field(default_factory=set)
    tails: set[int] = field(default_factory=set)  # units, bounds, scale words of numbers (no content)


def _prepare(text: str) -> str:
    text = text.translate(_SUPERSCRIPTS)
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text.translate(_NORMALISE))
        text = text.translate(_NORMALISE)
    return text


def _number_key(digits: str) -> tuple[str, Decimal | None, bool]:
    """(key, value, is_version) of a run of digits and dots."""
    parts = digits.split(".")
    if len(parts) >= 3:
        return digits, None, True
    whole = parts[0].lstrip("0") or "0"
    if len(parts) == 2:
        key = f"{whole}.{parts[1]}"
    else:
        key = whole
    try:
        return key, Decimal(key), False
    except InvalidOperation:  # pragma: no cover - digits only
        return key, None, False


def _scaled(value: Decimal, scale: int) -> tuple[str, Decimal]:
    v = value * scale
    if v == v.to_integral_value():
        return str(int(v)), v
    return format(v.normalize(), "f"), v


@lru_cache(maxsize=65536)
def _is_entity(raw: str, initial: bool) -> bool:
    has_digit = any(c.isdigit() for c in raw)
    has_alpha = any(c.isalpha() for c in raw)
    if not has_alpha:
        return False
    if has_digit or "_" in raw or "." in raw.strip("."):
        return True
    upper = sum(c.isupper() for c in raw)
    if upper >= 2 or (upper == 1 and not raw[0].isupper()):
        return True  # ALLCAPS, camelCase
    return raw[0].isupper() and not initial


_SPLIT_WORDS = frozenset({"cannot", "Cannot", "CANNOT"})
_CONTRACTIONS = {"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}


def _tokens(text: str) -> tuple[list[str], list[int], set[int], set[int], set[int]]:
    """Surface tokens and their kinds, plus the positions of numbers with a minus sign, of
    parts joined to the previous token by a hyphen, and of words written as calls
    ("len()")."""
    raw: list[str] = []
    kinds: list[int] = []
    minus: set[int] = set()
    hyph: set[int] = set()
    calls: set[int] = set()
    add_raw, add_kind = raw.append, kinds.append
    prev_end = -1
    for m in _TOKEN.finditer(text):
        g = m.lastindex
        tok = m.group(g)
        if g == 2:
            if tok.isalpha() and tok not in _SPLIT_WORDS:  # the common case
                add_raw(tok)
                add_kind(_WORD)
                prev_end = m.end()
                continue
            s = m.start()
            parts = tok.split("-") if "-" in tok else [tok]
            for k, part in enumerate(parts):
                if not part:
                    continue
                low = part.lower()
                if "'" in part:
                    if low.endswith("n't") and len(low) > 3:
                        base = _CONTRACTIONS.get(low[:-3], part[:-3])
                        raw.extend((base, "not"))
                        kinds.extend((_WORD, _WORD))
                        continue
                    if low.endswith("'s"):
                        part = part[:-2]
                    elif low.endswith("'"):
                        part = part[:-1]
                if low == "cannot":
                    raw.extend((part[:3], "not"))
                    kinds.extend((_WORD, _WORD))
                    continue
                if k == 0 and s > 0 and text[s - 1] == "-" and (s == 1 or text[s - 2] in " ([\t\n"):
                    minus.add(len(raw))
                if k > 0:
                    hyph.add(len(raw))
                add_raw(part)
                add_kind(_NUM if part[0].isdigit() else _WORD)
            prev_end = m.end()
        elif g == 4:
            if tok == "(" and m.start() == prev_end and text.startswith(")", m.end()) and raw \
                    and kinds[-1] == _WORD:
                calls.add(len(raw) - 1)
            add_raw(tok)
            add_kind(_PUNCT)
            prev_end = -1
        elif g == 3:
            add_raw(tok)
            add_kind(_CJK)
            prev_end = -1
        else:
            s = m.start()
            if s > 0 and text[s - 1] == "-" and (s == 1 or text[s - 2] in " ([\t\n"):
                minus.add(len(raw))
            add_raw(tok.replace(",", "").replace(" ", ""))
            add_kind(_NUM)
            prev_end = -1
    return raw, kinds, minus, hyph, calls


@lru_cache(maxsize=131072)
def _word_info(w: str) -> tuple[str, bool, int]:
    """(stem, plain content word?, flags) of a lower-case word; flags: 1 clause word,
    2 negator, 4 implicit negation, 8 part of "no longer" / "fails to"."""
    st = stem(w)
    content = w not in _STOP and w not in _CLOSED and len(w) > 1 and w not in _SMALL_NUMBERS
    flags = (1 if w in _CLAUSE_WORDS else 0) | (2 if w in _NEGATORS else 0) | \
        (4 if st in _IMPLICIT_NEG_STEMS else 0) | (8 if w in _NEG_PHRASE_WORDS else 0)
    return st, content, flags


def _analyse(text: str, claim_side: bool, mid_start: bool = False) -> _Text:
    text = _prepare(text)
    raw, kinds, minus, hyph, calls = _tokens(text)
    low = [t.lower() for t in raw]
    numbers, num_pos, bounds = _numbers(raw, low, kinds, minus, hyph, claim_side)
    n = len(raw)
    heads = {num.pos: num for num in numbers}
    tails = num_pos - heads.keys()  # units, scale words, the rest of "one hundred and five"
    stems: list[str] = [""] * n
    clause: list[int] = [0] * n
    sent_start: list[bool] = [False] * n
    neg: list[bool] = [False] * n
    content: list[bool] = [False] * n
    entity: list[bool] = [False] * n
    neg_clauses: set[int] = set()
    align: list[str] = []
    align_pos: list[int] = []
    positions: dict[str, list[int]] = {}
    stemset: set[str] = set()
    lowset: set[str] = set()
    c = 0
    start = not mid_start
    word_info, is_entity, clause_punct, sentence_punct = _word_info, _is_entity, _CLAUSE_PUNCT, _SENTENCE_PUNCT
    add_neg_clause = neg_clauses.add
    special = heads.keys() | tails | bounds | hyph | calls
    add_align, add_align_pos, articles = align.append, align_pos.append, _ARTICLES
    for k in range(n):
        kind = kinds[k]
        r = raw[k]
        if kind == _PUNCT:
            if r in clause_punct:
                c += 1
            if r in sentence_punct:
                start = True
            clause[k] = c
            stems[k] = r
            continue
        w = low[k]
        if kind == _WORD:
            st, plain, flags = word_info(w)
            if flags & 1 and k not in hyph:
                c += 1
            clause[k] = c
            sent_start[k] = start
            start = False
            if not flags and k not in special and r.islower() and r.isalpha():
                # the common case: a plain lower-case word
                content[k] = plain
                lowset.add(w)
                stemset.add(st)
                stems[k] = st
                if w not in articles:
                    add_align(st)
                    add_align_pos(k)
                positions.setdefault(st, []).append(k)
                continue
            if flags & 2:
                if _is_negator(w, k, raw, low, kinds, n, start=sent_start[k]):
                    neg[k] = True
                    neg_clauses.add(c)
            elif w == "longer" and k and low[k - 1] == "no" and neg[k - 1]:
                neg[k] = True
            elif w in ("fail", "fails", "failed", "failing", "unable") and k + 1 < n and low[k + 1] == "to":
                neg[k] = True
                neg_clauses.add(c)
            elif flags & 4:
                add_neg_clause(c)
            ent = k in calls or (not (r.islower() and r.isalpha()) and is_entity(r, sent_start[k]))
            entity[k] = ent
            content[k] = (plain and not neg[k]) or ent
            lowset.add(w)
            stemset.add(st)
        elif kind == _NUM:
            st = w
            clause[k] = c
            sent_start[k] = start
            start = False
            content[k] = True
        else:  # CJK
            st = r
            clause[k] = c
            if r in _CJK_NEG and (r + (raw[k + 1] if k + 1 < n else "")) not in _CJK_NEG_WORDS \
                    and ((raw[k - 1] if k else "") + r) not in _CJK_NEG_WORDS:
                neg[k] = True
                neg_clauses.add(c)
            content[k] = r not in _CJK_STOP and not neg[k]
            stemset.add(st)
        if k in special:
            if k in heads:
                st = "#" + heads[k].key
                content[k] = True
            elif k in tails or k in bounds:
                content[k] = False
        stems[k] = st
        if k not in tails and w not in articles:
            add_align(st)
            add_align_pos(k)
        positions.setdefault(st, []).append(k)
    cjk = {raw[k] for k in range(n) if kinds[k] == _CJK} if not text.isascii() else set()
    bigrams = {raw[k] + raw[k + 1] for k in range(n - 1) if kinds[k] == _CJK and kinds[k + 1] == _CJK} \
        if cjk else set()
    return _Text(raw, low, stems, kinds, clause, sent_start, numbers, neg, neg_clauses, stemset,
                 lowset, bigrams, align, align_pos, content, entity, " " + " ".join(align) + " ", cjk,
                 positions, set(raw), tails | bounds)


def _is_negator(w: str, k: int, raw: list[str], low: list[str], kinds: list[int], n: int, start: bool) -> bool:
    """Is this negator word (not, no, never, ...) a negation here?"""
    nxt = low[k + 1] if k + 1 < n else ""
    if w == "not":
        if nxt in _NEG_SKIP_AFTER and any(x in ("but", "also") for x in low[k + 2:k + 40]):
            return False  # "not only ... but also"
        if k and low[k - 1] == "or":
            return False  # "... or not"
    if w in ("no", "not") and nxt in _NO_COMPARATIVE and k + 3 < n and low[k + 2] == "than" and \
            (kinds[k + 3] == _NUM or low[k + 3] in _NUMBER_START or low[k + 3] in _CURRENCY):
        return False  # "no more than 5": a bound
    if w == "no" and (nxt == "." and k + 2 < n and kinds[k + 2] == _NUM or nxt == "doubt"):
        return False  # "No. 5"
    return not (w == "none" and raw[k] == "None" and not start)  # Python's None


def _numbers(raw: list[str], low: list[str], kinds: list[int], minus: set[int], hyph: set[int],
             claim_side: bool) -> tuple[list[_Num], set[int], set[int]]:
    """Numbers of a token list (digits, number words, CJK numerals), with units and
    comparators. Returns the numbers, the token positions they cover (number, unit, scale
    word) and the positions of their bounds ("at least", "or more")."""
    out: list[_Num] = []
    used: set[int] = set()
    bounds: set[int] = set()
    n = len(raw)
    free = 0  # first token not yet taken by a number
    for i in [i for i, w in enumerate(low) if kinds[i] == _NUM or w in _NUMBER_START
              or (kinds[i] == _CJK and (w in _CJK_DIGITS or w in _CJK_UNITS))
              or (w[0] == "v" and len(w) > 1 and w[1].isdigit())]:
        if i < free:
            continue
        kind = kinds[i]
        tok = raw[i]
        num: _Num | None = None
        end = i + 1
        if kind == _NUM:
            m = _NUMBER.fullmatch(tok)
            if m:
                digits, suffix = m.group(1), m.group(2).lower()
                key, value, version = _number_key(digits)
                unit = None
                if suffix:
                    if suffix in ("st", "nd", "rd", "th"):
                        unit = None
                    elif suffix == "s" and len(digits) == 4:
                        unit = None  # the 1990s
                    elif suffix == "k" and value is not None:
                        key, value = _scaled(value, 1000)
                    elif suffix in _GLUED_UNITS:
                        unit = _GLUED_UNITS[suffix]
                    else:
                        num = None
                        kinds[i] = _WORD  # x86, 3D, mp3: a name, not a number
                        continue
                num = _Num(key, value, unit, i, tok, negative=i in minus, version=version)
            else:
                kinds[i] = _WORD
                continue
        elif kind == _WORD:
            lw = low[i]
            # "v15", "v2.1" are versions; "v1", "v2" are more often names (variables)
            m = _VERSION.fullmatch(tok) if lw[0] == "v" and len(tok) > 2 else None
            if m:
                key, value, _ = _number_key(m.group(1))
                num = _Num(key, value if "." not in m.group(1) else None, None, i, tok, version=True)
                if "." in m.group(1):
                    num.key = m.group(1)
            elif lw in _NUMBER_WORDS or lw == "hundred" or (lw in _SCALES and i > 0 and low[i - 1] == "a"):
                total, current, j = 0, 0, i
                while j < n and kinds[j] == _WORD:
                    w = low[j]
                    if w in _SMALL_NUMBERS:
                        current += _SMALL_NUMBERS[w]
                    elif w in _TENS:
                        current += _TENS[w]
                    elif w == "hundred":
                        current = max(current, 1) * 100
                    elif w in _SCALES:
                        total += max(current, 1) * _SCALES[w]
                        current = 0
                    elif w == "and" and j + 1 < n and low[j + 1] in _NUMBER_WORDS and j > i \
                            and low[j - 1] in ("hundred", "thousand", "million", "billion"):
                        pass
                    else:
                        break
                    j += 1
                value_i = total + current
                required = not (claim_side and j == i + 1 and lw == "one")
                num = _Num(str(value_i), Decimal(value_i), None, i, " ".join(raw[i:j]), required=required)
                end = j
            elif not claim_side and lw in _ORDINALS:
                num = _Num(str(_ORDINALS[lw]), Decimal(_ORDINALS[lw]), None, i, tok)
            elif not claim_side and lw in _QUOTE_NUMBER_WORDS:
                key = _QUOTE_NUMBER_WORDS[lw]
                num = _Num(key, Decimal(key), None, i, tok)
        elif kind == _CJK and not claim_side and (tok in _CJK_DIGITS or tok in _CJK_UNITS):
            total, current, j = 0, 0, i
            while j < n and kinds[j] == _CJK and (raw[j] in _CJK_DIGITS or raw[j] in _CJK_UNITS):
                c = raw[j]
                if c in _CJK_DIGITS:
                    current = current * 10 + _CJK_DIGITS[c] if current and raw[j - 1] in _CJK_DIGITS else \
                        current + _CJK_DIGITS[c]
                elif _CJK_UNITS[c] >= 10**4:
                    total = (total + max(current, 1)) * _CJK_UNITS[c]
                    current = 0
                else:
                    total += max(current, 1) * _CJK_UNITS[c]
                    current = 0
                j += 1
            v = total + current
            num = _Num(str(v), Decimal(v), None, i, "".join(raw[i:j]))
            end = j
        if num is None:
            continue
        # scale words and units after the number
        k = end
        if k < n and low[k] in _SCALES and num.value is not None and kind == _NUM:
            num.key, num.value = _scaled(num.value, _SCALES[low[k]])
            num.raw += " " + raw[k]
            k += 1
            used.add(k - 1)
        if k < n:
            lk = low[k]
            if lk == "%":
                num.unit, num.unit_raw = "%", "%"
            elif lk == "°" and k + 1 < n and low[k + 1] in ("c", "f"):
                num.unit = "degC" if low[k + 1] == "c" else "degF"
                num.unit_raw = "°" + raw[k + 1]
                used.add(k + 1)
            elif lk in ("per", "percentage") and k + 1 < n and low[k + 1] in ("cent", "point", "points"):
                num.unit = "%" if low[k + 1] == "cent" else "pp"
                num.unit_raw = raw[k] + " " + raw[k + 1]
                used.update((k, k + 1))
            elif lk in _UNITS and kinds[k] == _WORD and num.unit is None:
                num.unit, num.unit_raw = _UNITS[lk], raw[k]
                used.add(k)
            elif kinds[k] == _WORD and lk not in _STOP:
                num.noun = stem(lk)
        if num.unit is None and i > 0 and raw[i - 1] in _CURRENCY:
            num.unit = _CURRENCY[raw[i - 1]]
        # comparators before / after
        b = i - 1 if i > 0 and raw[i - 1] in _CURRENCY else i
        if b > 0 and low[b - 1] in _CMP_LAST:
            for phrase, cmp_kind in _COMPARATORS:
                L = len(phrase)
                if b - L >= 0 and tuple(low[b - L:b]) == phrase:
                    num.cmp = cmp_kind
                    num.cmp_raw = " ".join(raw[b - L:b])
                    bounds.update(range(b - L, b))  # the bound belongs to the number
                    break
        kk = k + (1 if k < n and low[k] in _UNITS else 0)
        if num.cmp is None and kk < n and low[kk] in ("or", "+"):
            for phrase, cmp_kind in _AFTER_COMPARATORS.items():
                if tuple(low[kk:kk + len(phrase)]) == phrase:
                    num.cmp = cmp_kind
                    bounds.update(range(kk, kk + len(phrase)))
        # "as of 2024": a frame date, not a claim
        if claim_side and i <= 3 and n > 2 and low[0] == "as" and low[1] in ("of", "at") and (
                num.value is None or 1900 <= num.value <= 2100 or i > 2):
            num.frame = True  # "As of 2024, ...": when, not what
        out.append(num)
        used.update(range(i, end))
        free = end
    return out, used, bounds


@lru_cache(maxsize=4096)
def _analyse_quote(quote: str) -> _Text:
    return _analyse(_without_markup(strip_quote_marks(quote)), claim_side=False)


# --- claim preparation -----------------------------------------------------------------------
_SRC = (r"(?:documentation|docs?|manual|guide|handbook|reference|tutorial|faq|page|article|report|"
        r"study|paper|survey|source|specification|spec|standard|pep|rfc|changelog|release notes|"
        r"readme|website|site|blog|post|author|authors|maintainers|developers|team|project|vendor|"
        r"wiki|wikipedia|book|text|document|entry|section|chapter|glossary|faq|docstring|howto)")
_SAYS = (r"(?:says?|said|states?|stated|notes?|noted|explains?|explained|reports?|reported|mentions?|"
         r"mentioned|points out|pointed out|warns?|warned|adds?|added|writes?|wrote|describes?|"
         r"described|claims?|confirms?|confirmed|clarifies|clarified|stresses|stressed|emphasi[sz]es|"
         r"documents|indicates?|shows?|observes?|suggests?|recommends?|advises?|puts it|describes it|"
         r"tells us|informs us|reminds us|cautions?|highlights?)")
_NP = r"(?:[\w.'’-]+ ){0,5}?"  # up to five words before the source noun
_FRAMES = [
    # a label before the claim ("Evidence: ...", "Key finding: ...") states nothing itself
    re.compile(r"(?:evidence|note|notes|finding|findings|key (?:finding|point)|in short|summary|background|"
               r"context|result|results|conclusion|answer|source)\s*:\s+", re.IGNORECASE),
    re.compile(r"according to\b[^,;:]{1,80}[,:]\s*", re.IGNORECASE),
    re.compile(rf"(?:the |this |that |its |their )?{_NP}{_SRC}s? (?:also )?{_SAYS}(?: that)?[,:]?\s+", re.IGNORECASE),
    re.compile(rf"as (?:the |this |its )?{_NP}{_SRC}s?(?: (?:also )?{_SAYS})?,\s*", re.IGNORECASE),
    re.compile(r"(?:it is|it's) (?:documented|noted|stated|explained|reported|mentioned|known|said)"
               r"(?: in [^,;]{1,60})? that\s+", re.IGNORECASE),
    re.compile(rf"(?:per|in|from|on) (?:the |this |its )?{_NP}{_SRC}s?,\s*", re.IGNORECASE),
    re.compile(rf"(?:{_DISCOURSE}),\s*", re.IGNORECASE),
]
_TRAILING_FRAME = re.compile(
    rf",?\s*\b(?:as|according to|per|so) (?:the |this |its )?{_NP}{_SRC}s?(?: (?:also )?{_SAYS})?(?=\s*[.!?]*\s*$)",
    re.IGNORECASE)
_SEE_ALSO = re.compile(rf"\(\s*(?:see|per|cf\.?|source:?)\s+(?:the |this |its )?{_NP}{_SRC}s?\s*\)", re.IGNORECASE)
_ENUMERATOR = re.compile(r"\s*(?:[-*+\u2022]\s+|\(?\d{1,3}[.)]\s+(?=\D)|#{1,6}\s+)")
_FOOTNOTE = re.compile(r"(?<![\w\])])\[\^?\d{1,3}\]")
_URL = re.compile(r"\b(?:https?|ftp)://\S+", re.IGNORECASE)
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]{0,20}(?:\s[^<>]{0,200})?/?>")


def _strip_frames(text: str) -> str:
    for _ in range(4):
        before = text
        for rx in _FRAMES:
            m = rx.match(text)
            if m:
                text = text[m.end():]
        if text == before:
            break
    # a trailing frame is short: look only at the end of the claim
    m = _TRAILING_FRAME.search(text, max(0, len(text) - 160))
    if m and m.start() > 0:
        text = text[: m.start()] + text[m.end():]
    return text


def prepare_claim(text: str) -> str:
    """The claim without markdown marks, URLs, footnote markers, list numbers and reporting
    frames: the part that states facts."""
    return _prepare_claim(text)[0]


def _prepare_claim(text: str) -> tuple[str, bool]:
    """prepare_claim, and whether a leading frame was removed (then the first word is not
    at the start of the sentence: a capital there marks a name)."""
    if "<" in text:
        text = _HTML_TAG.sub(" ", text)
    text = _without_markup(text)
    if "://" in text:
        text = _URL.sub(" ", text)
    if "[" in text:
        text = _FOOTNOTE.sub(" ", text)
    if "(" in text:
        text = _SEE_ALSO.sub(" ", text)
    m = _ENUMERATOR.match(text)
    if m:
        text = text[m.end():]
    text = " ".join(text.split())
    stripped = _strip_frames(text)
    return stripped, bool(stripped) and not text.startswith(stripped)


# --- the rules -------------------------------------------------------------------------------
def _unit_ok(a: str | None, b: str | None) -> bool:
    return a is None or b is None or a == b


def _fmt(num: _Num) -> str:
    """The number as written, with its bound and unit."""
    text = num.raw
    if num.unit_raw and num.unit_raw.lower() not in text.lower():
        text += num.unit_raw if num.unit_raw == "%" else " " + num.unit_raw
    elif num.unit and not num.unit_raw and num.unit in _CURRENCY.values():
        text = next(k for k, v in _CURRENCY.items() if v == num.unit) + text
    if num.cmp_raw:
        text = f"{num.cmp_raw} {text}"
    if num.negative:
        text = "-" + text
    return text


def _number_supported(c: _Num, qnums: list[_Num], by_key: dict[str, tuple[set, set, set]]) -> bool:
    """Is claim number c in the quotes? Same key with the same unit, or without a unit on
    one side when no quote gives that number another unit; a version prefix; a bound or
    an approximation satisfied by an exact quote number of the same quantity."""
    units = by_key.get(c.key)
    if units and c.cmp in _OPPOSITE and units[2] == {_OPPOSITE[c.cmp]}:
        return False  # "at most 4 GiB" where the quote says "more than 4 GiB"
    if units:
        units = units[1] if c.negative else units[0]  # units the quotes give the number
        if units and (c.unit is None or c.unit in units or units == {None}):
            return True  # same unit, or no unit on one side
    if "." in c.key or c.version:
        for q in qnums:
            if q.version and q.key.startswith(c.key + "."):
                return True
    if c.cmp and c.value is not None:
        for q in qnums:
            if q.value is None or q.cmp is not None or (c.negative and not q.negative):
                continue
            if c.unit is not None or q.unit is not None:
                if c.unit != q.unit:
                    continue
            elif c.noun is None or c.noun != q.noun:
                continue
            if c.cmp == "ge" and q.value >= c.value:
                return True
            if c.cmp == "le" and q.value <= c.value:
                return True
            if c.cmp == "approx" and abs(q.value - c.value) <= APPROX * abs(c.value):
                return True
    return False


def _closest(c: _Num, qnums: list[_Num]) -> _Num | None:
    best, best_d = None, None
    for q in qnums:
        if q.key == c.key:
            return q
        if q.value is None or c.value is None:
            d = Decimal(10**12)
        else:
            d = abs(q.value - c.value) / (abs(c.value) + 1)
        d += 0 if q.unit == c.unit else 1
        if best_d is None or d < best_d:
            best, best_d = q, d
    return best


def _by_key(qnums: list[_Num]) -> dict[str, tuple[set, set, set]]:
    """key -> (units given to it anywhere, units given to it as a negative number, the
    bounds it is given: "ge", "le", "approx" or None)."""
    out: dict[str, tuple[set, set, set]] = {}
    for q in qnums:
        units = out.setdefault(q.key, (set(), set(), set()))
        units[0].add(q.unit)
        units[2].add(q.cmp)
        if q.negative:
            units[1].add(q.unit)
    return out


_OPPOSITE = {"ge": "le", "le": "ge"}


def _check_numbers(claim: _Text, quotes: list[_Text]) -> ClaimCheck | None:
    qnums = [q for t in quotes for q in t.numbers]
    by_key = _by_key(qnums)
    for c in claim.numbers:
        if not c.required or c.frame:
            continue
        if _number_supported(c, qnums, by_key):
            continue
        near = _closest(c, qnums)
        if near is None:
            note = f"the claim says {_fmt(c)}, a number none of its quotes has"
        elif near.key == c.key:
            note = f"the claim says {_fmt(c)} where the quote says {_fmt(near)}"
        else:
            note = f"the claim says {_fmt(c)} where the quote says {_fmt(near)}"
        return ClaimCheck(ClaimStatus.UNSUPPORTED, "number", note)
    return None


def _segment(t: _Text, k: int) -> list[int]:
    """Positions of the content words a negator at k negates: up to the clause end, at most
    four; an explicit negator ends it."""
    out: list[int] = []
    c = t.clause[k]
    j = k + 1
    n = len(t.raw)
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


def _negation_matches(src: _Text, k: int, dst_list: list[_Text], src_fully_covered: bool) -> tuple[str, str] | None:
    """A negator at src position k whose negated words stand, in some dst, in a clause
    without negation (and nowhere negated). Returns (negated word, negator) if so."""
    seg = _segment(src, k)
    if not seg:
        return None
    head = src.stems[seg[0]]
    seg_stems = {src.stems[j] for j in seg}
    need = min(2, len(seg_stems))
    occs = [(dst, j) for dst in dst_list for j in dst.positions.get(head, ())]
    if not occs or any(dst.clause[j] in dst.neg_clauses for dst, j in occs):
        return None  # absent, or negated there too: consistent
    negator = "no longer" if src.low[k] == "longer" and k and src.low[k - 1] == "no" else \
        src.raw[k] + " to" if src.low[k] in _NEG_PHRASE_WORDS and src.low[k] != "longer" else src.raw[k]
    ctx_src = _window(src, k, seg_stems)
    for dst, j in occs:
        c = dst.clause[j]
        lo, hi = max(0, j - 2 * WINDOW), min(len(dst.raw), j + 2 * WINDOW)
        near = {dst.stems[x] for x in range(lo, hi) if dst.clause[x] == c or abs(x - j) <= 4}
        if len(seg_stems & near) < need:
            continue
        if need >= 2 or src_fully_covered or ctx_src & _window(dst, j, seg_stems):
            return src.raw[seg[0]], negator
    return None


def _fully_covered(claim: _Text, quotes: list[_Text]) -> bool:
    return all(any(claim.stems[k] in q.stemset for q in quotes) for k in range(len(claim.raw))
               if claim.content[k] and claim.kinds[k] == _WORD)


def _check_negation(claim: _Text, quotes: list[_Text]) -> ClaimCheck | None:
    """Negation by negated segment: works for paraphrases as well as copies."""
    covered = None
    for k, is_neg in enumerate(claim.neg):
        if not is_neg:
            continue
        if covered is None:
            covered = _fully_covered(claim, quotes)
        hit = _negation_matches(claim, k, quotes, covered)
        if hit:
            word, negator = hit
            return ClaimCheck(ClaimStatus.UNSUPPORTED, "negation",
                              f'the claim negates "{word}" ("{negator}") where the quote does not')
    for q in quotes:
        for k, is_neg in enumerate(q.neg):
            if not is_neg:
                continue
            seg = _segment(q, k)
            if not seg:
                continue
            head = q.stems[seg[0]]
            # every quote occurrence of the negated word must be negated
            if any(t.clause[j] not in t.neg_clauses for t in quotes for j in t.positions.get(head, ())):
                continue
            hit = _negation_matches(q, k, [claim], True)
            if hit:
                word, negator = hit
                return ClaimCheck(ClaimStatus.UNSUPPORTED, "negation",
                                  f'the quote says "{negator} {word}" where the claim drops the negation')
    return None


def _prefix_antonym(a: str, b: str) -> bool:
    for p in _ANTONYM_PREFIXES:
        if (a.startswith(p) and a[len(p):] == b and len(b) >= 4) or (b.startswith(p) and b[len(p):] == a and len(a) >= 4):
            return True
    return False


def _count(texts: list[_Text], stem_: str) -> int:
    return sum(len(t.positions.get(stem_, ())) for t in texts)


def _substitution_kind(claim: _Text, ci: int, quote: _Text, qj: int, quotes: list[_Text],
                       in_place: bool) -> str | None:
    """What a claim token put in the place of a quote token changes, if it is a closed-class
    change or another name. Words only trade places when the claim holds each word as
    often as the quotes do; a replacement shows as a claim word the quotes have fewer of
    (gain) and a quote word the claim has fewer of (loss). ``in_place`` (same position
    between equal stretches, or at a common end): gain or loss is enough; otherwise both
    are needed."""
    cs, qs = claim.stems[ci], quote.stems[qj]
    if cs == qs or claim.kinds[ci] == _NUM or quote.kinds[qj] == _NUM:
        return None
    gain = len(claim.positions.get(cs, ())) > _count(quotes, cs)
    loss = len(claim.positions.get(qs, ())) < _count(quotes, qs)
    if not ((gain or loss) if in_place else (gain and loss)):
        return None
    cl, ql = claim.low[ci], quote.low[qj]
    pair = frozenset((cs, qs))
    if pair in _ORDER:
        return "order"
    if pair in _ANTONYMS or _prefix_antonym(cs, qs):
        return "antonym"
    if cl in _QUANT and ql in _QUANT:
        gc = "some" if cl == "few" and ci and claim.low[ci - 1] in ("a", "quite") else _QUANT[cl]
        gq = "some" if ql == "few" and qj and quote.low[qj - 1] in ("a", "quite") else _QUANT[ql]
        return "quantifier" if gc != gq else None
    if cl in _MODAL and ql in _MODAL:
        return "modal" if _MODAL[cl] != _MODAL[ql] else None
    if claim.entity[ci] and quote.entity[qj]:
        cr, qr = claim.raw[ci], quote.raw[qj]
        gain = claim.raw.count(cr) > sum(t.raw.count(cr) for t in quotes)
        loss = claim.raw.count(qr) < sum(t.raw.count(qr) for t in quotes)
        if (gain or loss) if in_place else (gain and loss):
            return "entity"
    return None


def _blocks(claim: _Text, q: _Text) -> list[tuple[int, int, int, int, bool, bool]]:
    """Differing stretches of the alignment of claim and quote: (claim span, quote span,
    equal stretch before, equal stretch after)."""
    blocks: list[tuple[int, int, int, int, bool, bool]] = []
    cur: list[int] | None = None
    after_equal = cur_after_equal = False
    for op in Levenshtein.opcodes(claim.align, q.align):
        if op.tag == "equal":
            if cur is not None:
                blocks.append((cur[0], cur[1], cur[2], cur[3], cur_after_equal, True))
                cur = None
            after_equal = True
            continue
        if cur is None:
            cur = [op.src_start, op.src_end, op.dest_start, op.dest_end]
            cur_after_equal = after_equal
        else:
            cur[1], cur[3] = op.src_end, op.dest_end
        after_equal = False
    if cur is not None:
        blocks.append((cur[0], cur[1], cur[2], cur[3], cur_after_equal, False))
    return blocks


def _negation_in_block(claim: _Text, q: _Text, i1: int, i2: int, j1: int, j2: int) -> str | None:
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
    negated = claim if cneg else q
    if any(negated.low[p] == "nor" for p in (cpos if cneg else qpos)):
        return None  # "neither A nor B" / "not A or B"
    plain = q if cneg else claim
    at = (q.align_pos[j1] if j1 < len(q.align_pos) else len(q.raw)) if cneg else \
        (claim.align_pos[i1] if i1 < len(claim.align_pos) else len(claim.raw))
    if any(plain.neg[p] and plain.low[p] in _NEGATORS for p in range(max(0, at - 3), min(len(plain.raw), at + 3))):
        return None  # a negation right there on the other side too
    negs = [claim.raw[p] for p in cpos if claim.neg[p]] or [q.raw[p] for p in qpos if q.neg[p]]
    if cneg:
        return f'the claim adds "{" ".join(negs)}" to words the quote states without it'
    return f'the quote says "{" ".join(negs)}" where the claim, otherwise the same words, drops it'


def _check_near_copy(claim: _Text, quotes: list[_Text]) -> ClaimCheck | None:
    if not claim.align or len(claim.align) > MAX_ALIGN_TOKENS:
        return None
    content = {claim.stems[k] for k in range(len(claim.raw)) if claim.content[k]}
    if not content:
        return None
    aligned = []
    for q in quotes:
        if not q.align or len(q.align) > MAX_ALIGN_TOKENS:
            continue
        shared = sum(1 for s in content if s in q.positions)
        if (shared < 2 or shared < NEAR_COPY_SHARE * len(content)) and \
                Indel.normalized_similarity(claim.align, q.align) < SHORT_COPY_SIMILARITY:
            continue
        aligned.append((q, _blocks(claim, q)))
    if not aligned:
        return None
    nc = len(claim.align)
    for q, blocks in aligned:
        nq = len(q.align)
        for i1, i2, j1, j2, before, after in blocks:
            if i2 - i1 > 4 or j2 - j1 > 4:
                continue
            anchored = (before and after) or (before and i2 == nc and j2 == nq) or (after and i1 == 0 and j1 == 0)
            if not anchored:
                continue
            # a negated clause dropped at an end of the claim is a shorter claim, not a flip;
            # a bare negator at the end ("... are not.") is a flip
            bare = all(claim.neg[claim.align_pos[a]] for a in range(i1, i2)) and \
                all(q.neg[q.align_pos[b]] for b in range(j1, j2))
            both = i1 < i2 and j1 < j2
            note = _negation_in_block(claim, q, i1, i2, j1, j2) if (before and after) or both or bare else None
            if note:
                return ClaimCheck(ClaimStatus.UNSUPPORTED, "negation", note)
            # "non-blocking" where the quote says "blocking" (or the reverse)
            one = [claim.low[claim.align_pos[i1]]] if i2 - i1 == 1 and j1 == j2 else \
                [q.low[q.align_pos[j1]]] if j2 - j1 == 1 and i1 == i2 else []
            if one in (["non"], ["un"]) and before and after:
                word = claim.raw[claim.align_pos[i2]] if i2 < nc else ""
                return ClaimCheck(ClaimStatus.UNSUPPORTED, "near_copy:antonym",
                                  f'the claim and the quote differ by "{one[0]}-" before "{word}"'.replace(' before ""', ""))
    for q, blocks in aligned:
        nq = len(q.align)
        for i1, i2, j1, j2, before, after in blocks:
            if i1 == i2 or j1 == j2 or i2 - i1 > 4 or j2 - j1 > 4:
                continue
            if not (before or after):
                continue
            # between equal stretches, or at a common end of both sequences
            in_place = i2 - i1 == j2 - j1 and (before or (i1 == 0 and j1 == 0)) and \
                (after or (i2 == nc and j2 == nq))
            for a in range(i1, i2):
                ci = claim.align_pos[a]
                for b in range(j1, j2):
                    if in_place and b - j1 != a - i1:
                        continue
                    qj = q.align_pos[b]
                    kind = _substitution_kind(claim, ci, q, qj, quotes, in_place)
                    if kind:
                        return ClaimCheck(ClaimStatus.UNSUPPORTED, f"near_copy:{kind}",
                                          f'the claim says "{claim.raw[ci]}" where the quote says "{q.raw[qj]}"')
            if in_place:
                # also judge the looser way (any pair in the block) when the strict test is silent
                for a in range(i1, i2):
                    ci = claim.align_pos[a]
                    for b in range(j1, j2):
                        qj = q.align_pos[b]
                        kind = _substitution_kind(claim, ci, q, qj, quotes, False)
                        if kind:
                            return ClaimCheck(ClaimStatus.UNSUPPORTED, f"near_copy:{kind}",
                                              f'the claim says "{claim.raw[ci]}" where the quote says "{q.raw[qj]}"')
    return None


def _coverage(claim: _Text, quotes: list[_Text]) -> ClaimCheck:
    stems = set().union(*(q.stemset for q in quotes)) if quotes else set()
    bigrams = set().union(*(q.cjk_bigrams for q in quotes)) if quotes else set()
    chars = set().union(*(q.cjk_chars for q in quotes)) if quotes else set()
    qnums = [x for q in quotes for x in q.numbers]
    qneg = any(any(q.neg) for q in quotes)
    qgroups = {(_QUANT.get(w) or _MODAL.get(w)) for q in quotes for w in q.lowset if w in _QUANT or w in _MODAL}
    total = missing = 0
    hard: list[str] = []
    num_at = {num.pos: num for num in claim.numbers}
    n = len(claim.raw)
    for k in range(n):
        if k in claim.tails:
            continue
        kind = claim.kinds[k]
        w = claim.low[k]
        if claim.neg[k]:
            if not qneg:
                hard.append(claim.raw[k])
            continue
        if kind == _WORD and (w in _QUANT or w in _MODAL) and not claim.entity[k]:
            g = _QUANT.get(w) or _MODAL.get(w)
            if g not in qgroups and w not in ("any", "can", "will", "some"):
                hard.append(claim.raw[k])
            continue
        if not claim.content[k]:
            continue
        total += 1
        if k in num_at:
            num = num_at[k]
            if not num.required:
                total -= 1
                continue
            if num.frame and not _number_supported(num, qnums, _by_key(qnums)):
                missing += 1
                hard.append(num.raw)
            continue
        if kind == _CJK:
            left = k > 0 and claim.kinds[k - 1] == _CJK and claim.raw[k - 1] + claim.raw[k] in bigrams
            right = k + 1 < n and claim.kinds[k + 1] == _CJK and claim.raw[k] + claim.raw[k + 1] in bigrams
            alone = (k == 0 or claim.kinds[k - 1] != _CJK) and (k + 1 >= n or claim.kinds[k + 1] != _CJK)
            if not (left or right or (alone and claim.raw[k] in chars)):
                missing += 1
            continue
        if claim.stems[k] in stems:
            continue
        missing += 1
        if claim.entity[k]:
            hard.append(claim.raw[k])
    if total == 0 and not hard:
        return ClaimCheck(ClaimStatus.SUPPORTED, "no_claim", "the claim states nothing of its own")
    if missing == 0 and not hard:
        if any(claim.joined.strip() and claim.joined in q.joined for q in quotes):
            return ClaimCheck(ClaimStatus.SUPPORTED, "copy", "the claim repeats the quote")
        return ClaimCheck(ClaimStatus.SUPPORTED, "overlap", "every content word of the claim is in its quotes")
    share = (total - missing) / total if total else 0.0
    if not hard and share >= COVERAGE_MIN and missing * MISSING_PER <= total:
        return ClaimCheck(ClaimStatus.SUPPORTED, "overlap",
                          f"{total - missing} of {total} content words of the claim are in its quotes")
    why = f"{total - missing} of {total} content words of the claim are in its quotes"
    if hard:
        why += "; not in them: " + ", ".join(dict.fromkeys(hard))
    return ClaimCheck(ClaimStatus.UNCHECKED, None, why)


def check_claim(claim: str, quotes: list[str]) -> ClaimCheck:
    """Compare a claim with the quote text(s) of its refs. Deterministic; no model."""
    qs = [_analyse_quote(q) for q in quotes if q and q.strip()]
    text, mid = _prepare_claim(claim or "")
    c = _analyse(text, claim_side=True, mid_start=mid)
    if not any(c.content) and not any(c.neg) and not c.numbers:
        return ClaimCheck(ClaimStatus.SUPPORTED, "no_claim", "the claim states nothing of its own")
    if not qs:
        return ClaimCheck(ClaimStatus.UNCHECKED, None, "no quote to compare with")
    for rule in (_check_numbers, _check_negation, _check_near_copy):
        result = rule(c, qs)
        if result is not None:
            return result
    return _coverage(c, qs)


# --- sentences -------------------------------------------------------------------------------
_TERMINAL = re.compile(r"[.!?\u2026]+[\"'\u201d\u2019)\]*_]*(?=\s|$)|[\u3002\uff01\uff1f]+[\u300d\u300f\u201d\u2019)\uff09]*")
_ABBREV = frozenset(["e.g", "i.e", "eg", "ie", "vs", "cf", "approx", "ca", "no", "nos", "fig", "figs", "eq", "eqs", "ref", "refs", "vol", "vols", "pp", "p", "ch", "chap", "sec", "sect", "mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "inc", "ltd", "co", "corp", "dept", "est", "u.s", "u.k", "e.u", "a.k.a", "al", "resp", "viz", "op", "ed", "eds", "trans", "rev", "art", "para", "min", "max"])


def split_sentences(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Sentence spans of text[start:end] (leading and trailing whitespace trimmed). A
    boundary is ``.!?…`` followed by whitespace and a character that can start a
    sentence, unless the word before is an abbreviation or an initial; ``。！？`` always
    end a sentence."""
    end = len(text) if end is None else end
    spans: list[tuple[int, int]] = []
    s = start
    for m in _TERMINAL.finditer(text, start, end):
        b = m.end()
        mark = m.group(0)
        if mark[0] in ".!?\u2026":
            j = b
            while j < end and text[j].isspace():
                j += 1
            if j < end:
                nxt = text[j]
                if nxt.islower() or nxt in ",;:)":
                    continue
            if mark.rstrip("\"'\u201d\u2019)]*_") == ".":
                a = m.start()
                w = a
                while w > start and (text[w - 1].isalpha() or text[w - 1] == "."):
                    w -= 1
                word = text[w:a].lower()
                if word in _ABBREV or (len(word) == 1 and text[w].isupper() and j < end):
                    continue
        spans.append((s, b))
        s = b
    if s < end:
        spans.append((s, end))
    out = []
    for a, b in spans:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            out.append((a, b))
    return out


# --- claims of a report ----------------------------------------------------------------------
_LINE = re.compile(r"[^\n]*\n?")
_HEADING = re.compile(r"[ \t]{0,3}#{1,6}(?:[ \t]|$)")
_HEADING_NUMBER = re.compile(r"[ \t]*(?:\d{1,3}(?:\.\d{1,3}){0,4}\.?|[IVXLC]{1,6}\.)[ \t]+")
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+\u2022]|\d{1,9}[.)])(?:[ \t]|$)")
_BLOCKQUOTE = re.compile(r"[ \t]{0,3}>[ \t]?")
_TABLE_SEP = re.compile(r"\|?(?::?-+:?\|)*:?-+:?\|?")
_HR = re.compile(r"[ \t]{0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})")


_SPACES = re.compile(r"\s*")


def _blank_refs(masked: str, refs: list[Ref]) -> str:
    """The report with each ref tag replaced by spaces (a final sentence mark of its quote
    kept), so structure and sentences are found without the quotes."""
    out = []
    pos = 0
    for r in sorted(refs, key=lambda r: r.start):
        if r.start < pos:
            continue
        out.append(masked[pos:r.start])
        width = r.end - r.start
        q = r.quote.rstrip("\"'\u201d\u2019 ")
        last = q[-1:] if q[-1:] in (".", "!", "?", "\u3002", "\uff01", "\uff1f") else ""
        out.append(" " * (width - len(last)) + last)
        pos = r.end
    out.append(masked[pos:])
    return "".join(out)


def _units(text: str) -> list[tuple[int, int]]:
    """Spans of the text units of a markdown text: paragraphs, list items, table cells,
    headings (block markers excluded)."""
    units: list[tuple[int, int]] = []
    cur: list[int] | None = None  # [start, end] of the open paragraph or list item
    lines = []
    for m in _LINE.finditer(text):
        if m.start() == m.end():
            break
        body = m.group(0).rstrip("\n")
        lines.append((m.start(), body))
    table_lines = set()
    for idx, (_, body) in enumerate(lines):
        compact = body.replace(" ", "").replace("\t", "")
        if "-" in compact and "|" in compact and _TABLE_SEP.fullmatch(compact):
            table_lines.add(idx)
            for near in (idx - 1, idx + 1):
                if 0 <= near < len(lines) and "|" in lines[near][1]:
                    table_lines.add(near)
    # extend a table downwards over its rows
    for idx in range(len(lines)):
        if idx - 1 in table_lines and "|" in lines[idx][1] and lines[idx][1].strip():
            table_lines.add(idx)

    def close() -> None:
        nonlocal cur
        if cur is not None and cur[1] > cur[0]:
            units.append((cur[0], cur[1]))
        cur = None

    for idx, (start, body) in enumerate(lines):
        offset = 0
        bq = _BLOCKQUOTE.match(body)
        while bq and bq.end() > offset:
            offset = bq.end()
            bq = _BLOCKQUOTE.match(body, offset)
        line = body[offset:]
        lstart = start + offset
        if not line.strip() or _HR.fullmatch(line):
            close()
            continue
        if idx in table_lines or line.lstrip().startswith("|"):
            close()
            compact = line.replace(" ", "").replace("\t", "")
            if _TABLE_SEP.fullmatch(compact) and "-" in compact:
                continue
            cell = 0
            i = 0
            cells = []
            while i < len(line):
                ch = line[i]
                if ch == "\\":
                    i += 2
                    continue
                if ch == "|":
                    cells.append((cell, i))
                    cell = i + 1
                i += 1
            cells.append((cell, len(line)))
            for a, b in cells:
                if line[a:b].strip():
                    units.append((lstart + a, lstart + b))
            continue
        h = _HEADING.match(line)
        if h:
            close()
            a = h.end()
            num = _HEADING_NUMBER.match(line, a)
            if num:
                a = num.end()
            b = len(line.rstrip().rstrip("#").rstrip()) if line.rstrip().endswith("#") else len(line)
            units.append((lstart + a, lstart + max(a, b)))
            continue
        li = _LIST_ITEM.match(line)
        if li:
            close()
            at = li.end()
            while (more := _LIST_ITEM.match(line, at)) and more.end() > at:  # "- 1. item": nested
                at = more.end()
            cur = [lstart + at, lstart + len(line)]
            continue
        if cur is None:
            cur = [lstart, lstart + len(line)]
        else:
            cur[1] = lstart + len(line)
    close()
    return units


def _is_inline(ref: Ref, before: str) -> bool:
    """Is the quote grammatically part of the sentence? It starts with a lower-case letter
    or a digit, after text that does not end a sentence."""
    q = ref.quote.lstrip("\"'\u201c\u2018\u00ab*_ ")
    first = next((ch for ch in q if ch.isalnum()), "")
    if not first or not (first.islower() or first.isdigit()):
        return False
    b = before.rstrip()
    return bool(b) and b[-1] not in ".!?\u3002\uff01\uff1f"


def _plain(md: str) -> str:
    text = _HTML_TAG.sub(" ", md)
    text = _without_markup(text) if text.strip() else ""
    text = " ".join(text.split())
    text = re.sub(r"\s+([,.;:!?\u3002\uff0c\uff01\uff1f])", r"\1", text)
    text = re.sub(r"[,;:\uff1a\uff0c]+([.!?\u3002]?)$", r"\1", text)
    return text.lstrip(",;:\u2014\u2013- ").strip()


def claims_for_refs(markdown: str, refs: list[Ref]) -> list[Claim]:
    """The claim of every ref of a report: the sentence (or clause) of the report it
    supports, as published. Refs separated only by spaces or punctuation share a claim."""
    if not refs:
        return []
    refs = sorted(refs, key=lambda r: r.start)
    structure = _blank_refs(_mask_code(markdown), refs).replace("\n", "\n")
    # newlines inside a ref (a wrapped quote) must not split its paragraph
    chars = list(structure)
    for r in refs:
        for p in range(r.start, r.end):
            if chars[p] == "\n":
                chars[p] = " "
    structure = "".join(chars)
    units = _units(structure)
    starts = [u[0] for u in units]
    import bisect

    by_unit: dict[int, list[Ref]] = {}
    for r in refs:
        k = bisect.bisect_right(starts, r.start) - 1
        if k < 0 or not (units[k][0] <= r.start < max(units[k][1], r.start + 1)):
            # not inside a unit (HTML block, odd markup): the line is the unit
            a = markdown.rfind("\n", 0, r.start) + 1
            b = markdown.find("\n", r.end)
            units.append((a, len(markdown) if b < 0 else b))
            starts.append(a)
            k = len(units) - 1
        by_unit.setdefault(k, []).append(r)
    claims: list[Claim] = []
    for k, urefs in by_unit.items():
        ua, ub = units[k]
        ub = max(ub, max(r.end for r in urefs))
        # groups of adjacent refs
        groups: list[list[Ref]] = [[urefs[0]]]
        for r in urefs[1:]:
            gap = structure[groups[-1][-1].end:r.start]
            if not re.search(rf"[^\W_]|[{_CJK_RANGES}]|\|", gap):
                groups[-1].append(r)
            else:
                groups.append([r])
        sentences = split_sentences(structure, ua, ub) or [(ua, ub)]
        s_starts = [s for s, _ in sentences]
        # group -> sentence: the last sentence starting at or before the group
        per_sentence: dict[int, list[list[Ref]]] = {}
        for g in groups:
            si = max(0, bisect.bisect_right(s_starts, g[0].start) - 1)
            # a group right at a sentence start (after "X. ") supports the sentence before
            if si > 0 and _SPACES.match(structure, s_starts[si]).end() >= g[0].start:
                si -= 1
            per_sentence.setdefault(si, []).append(g)
        for si, gs in sorted(per_sentence.items()):
            sa, sb = sentences[si]
            sa = min(sa, gs[0][0].start)
            for gi, g in enumerate(gs):
                first, last = g[0], g[-1]
                a = sa if gi == 0 else gs[gi - 1][-1].end
                pieces = [markdown[a:first.start]]
                if _is_inline(first, pieces[0]):
                    pieces.append(" " + strip_quote_marks(first.quote) + " ")
                end = last.end
                if gi == len(gs) - 1:
                    # the rest of the sentence after the last group belongs to it
                    tail_end = max(last.end, sb)
                    # the sentence may end beyond the unit when refs sit after it
                    if si + 1 < len(sentences):
                        tail_end = min(max(tail_end, last.end), sentences[si + 1][0])
                    pieces.append(markdown[last.end:max(last.end, tail_end)])
                    end = max(last.end, tail_end)
                text = _plain("".join(pieces))
                span_start = a
                while span_start < first.start and markdown[span_start] in " \t\n,;:":
                    span_start += 1
                claims.append(Claim(text, [r.index for r in g], span_start, end))
    claims.sort(key=lambda c: c.start)
    return claims

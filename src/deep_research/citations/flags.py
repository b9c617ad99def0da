"""Statements a reader should not take on trust, found by code (no model): uncited factual
sentences, dates that cannot be right, and names the cited pages never mention.

**Uncited statements** (:func:`uncited_statements`). Every sentence of the report body is
read from the parsed document (paragraphs, list items and table rows; never a heading, code,
a block quote's markers or a ref's quote). A sentence is *flagged* when all of these hold:

* it is outside the title, the Sources list, the "Verified findings" section and any section
  whose heading names limitations (``LIMITATION_WORDS``);
* no citation belongs to it: no ref stands inside it, and no claim cut for a ref
  (:attr:`Document.claims`) overlaps it (so a ref after the period counts for its sentence;
  a table row counts as cited when any of its cells cites);
* it is not a question, and it does not open as framing (``This report …``, ``In summary``,
  ``The following …``, ``We …``: :data:`FRAMING`);
* it has at least :data:`MIN_WORDS` words; and
* it states something checkable: a number (a digit outside a list marker), a date (a year,
  a month name), a superlative (``largest``, ``the most``, ``the first``: :data:`SUPERLATIVES`), a
  technical name (``sorted()``, ``gc.garbage``, ``--no-verify``), or, in an English report,
  a proper name (:func:`proper_names`: a capitalised word that is not a sentence's plain
  first word, nor ``I``, a month or a weekday).

A table none of whose rows cites is one statement, however many of its rows are flagged
(:func:`one_per_table`: its first flagged row, with ``rows``, the number flagged).

**Impossible dates** (:func:`date_problems`): a date that cannot exist (``February 30``,
``2024-13-01``, ``31/31/2020``), a year or date after the run's date in a sentence that
states it as past (a past marker such as ``was``, ``released``, ``in 2031, …``-with-``-ed``
and no future or plan marker such as ``will``, ``expected``, ``planned``, ``by``), and, in a
cited claim, a date its quotes contradict (the quotes give a date of the same kind, and none
equals the claim's).

**Invented names** (:func:`invented_names`): a proper name in a cited claim - a run of
capitalised words, a CamelCase or ALL-CAPS word, a word with a digit - that appears on none
of the pages its quotes were found on (compared casefolded, punctuation as spaces, a
possessive ``'s`` or a plural ``s`` dropped). The first word of a sentence counts only when it
is not a word of the dictionary (WordNet; without the database, only when it is not
lower-case elsewhere in the claim). A label is not a name: one capitalised word right before
a colon at the start of its line or sentence, alone or after one opening word ("In Hebrew:"
before a Hebrew quote). Flagged, never proven: a claim with such a name is not
shown supported (:func:`deep_research.citations.check.check_claims`).
"""

from __future__ import annotations

import bisect
import datetime as dt
import re
import unicodedata
from calendar import monthrange
from collections.abc import Container, Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import chain

MIN_WORDS = 4
MAX_DATES = 50  # dates of one sentence (and of its quotes) checked: a sentence is short, a hostile one is not
LIMITATION_WORDS = ("limitation", "limites", "limite", "einschränkung", "grenzen", "limitacion", "limitación",
                    "limitazion", "beperking", "局限", "限制", "制約", "限界", "한계", "caveat")

MONTHS = {m: i + 1 for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"])}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9
_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
WEEKDAYS = frozenset(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])

SUPERLATIVES = frozenset("""best worst largest smallest biggest highest lowest fastest slowest
greatest oldest newest latest earliest longest shortest strongest weakest cheapest richest poorest""".split())
# "most", "first", "only" are superlatives after "the" ("the most popular", "the first to"); alone
# they are quantifiers ("most cases", "only if")
_SUPERLATIVE_PHRASE = re.compile(r"\bthe (most|least|first|only|last|leading|top)\b|\brecord[- ](high|low)\b",
                                 re.IGNORECASE)
FRAMING = re.compile(
    r"(this|the present|our) (report|section|chapter|document|overview|analysis|summary|review)\b|"
    r"(in|to) (summary|summarise|summarize|conclusion|short|sum|brief|this section|this report)\b|"
    r"(overall|below|above|here|next|finally|first|firstly|second|secondly|lastly|in addition|"
    r"the following|as follows|see|note|for example|for instance|we|let us|let's)\b",
    re.IGNORECASE)

_YEAR = r"(1[5-9]\d\d|2[01]\d\d)"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_ISO = re.compile(r"(?<![\w.\-/])(\d{4})-(\d{1,2})-(\d{1,2})(?![\w\-/]|\.\d)")
_SLASH = re.compile(r"(?<![\w./])(\d{1,2})/(\d{1,2})/(\d{4})(?![\w/]|\.\d)")
_MDY = re.compile(rf"\b({_MONTH_RE})\.?\s+{_DAY}\b(?:,?\s+{_YEAR}\b)?", re.IGNORECASE)
_DMY = re.compile(rf"\b{_DAY}(?:\s+of)?\s+({_MONTH_RE})\b\.?(?:,?\s+{_YEAR}\b)?", re.IGNORECASE)
_MY = re.compile(rf"\b({_MONTH_RE})\.?\s+(?:of\s+)?{_YEAR}\b", re.IGNORECASE)
_YEAR_ONLY = re.compile(rf"(?<![\w.,$€£#:/\-]){_YEAR}(?![\w%/]|[.,]\d|-\d)")

PAST = re.compile(
    r"\b(was|were|had|did|ago|happened|occurred|took place|released|launched|announced|introduced|founded|"
    r"published|shipped|acquired|won|died|ended|began|became|reported|passed|signed|adopted|completed|"
    r"opened|closed|merged|sold|bought|elected|appointed|discovered|invented|created|built|hit|reached|"
    r"rose|fell|grew|declined|increased|decreased|recorded|since)\b", re.IGNORECASE)
FUTURE = re.compile(
    r"\b(will|shall|would|could|may|might|expected|expects|expect|scheduled|planned|plans?|projected|"
    r"projects?|forecasts?|forecasted|predicted|predicts?|estimated|estimates?|targets?|targeted|by|until|"
    r"upcoming|next|future|aims?|aimed|due|going to|set to|likely|proposed|proposes?|intends?|intended|"
    r"anticipated|anticipates?|hopes?|goal|deadline|before|through|to)\b", re.IGNORECASE)


@dataclass
class Flag:
    """One statement flagged. ``kind``: ``uncited`` | ``impossible_date`` | ``invented_name``.
    ``text``: the sentence or claim (plain text); ``value``: the date or name at fault;
    ``start``/``end``/``line``: where in the report markdown; ``refs``: its citations
    (1-based, citations.json ``n``). ``shown`` (an uncited statement): the statement as a
    reader is shown it (:func:`shown_pieces`): its markdown as written, in pieces of text
    (markup to be shown as literal text) and code (a code span's content), ``(text, is_code)``."""

    kind: str
    text: str
    note: str
    start: int
    end: int
    line: int
    value: str | None = None
    refs: list[int] = field(default_factory=list)
    table: int | None = None  # an uncited row of a table no row of which cites: the table's start
    rows: int | None = None  # such rows counted as this one statement (:func:`one_per_table`)
    shown: tuple[tuple[str, bool], ...] = ()  # not in audit.json (its "text" is the plain text)

    def as_json(self) -> dict:
        out = {"kind": self.kind, "text": self.text, "value": self.value, "note": self.note, "line": self.line,
               "refs": list(self.refs)}
        if self.rows is not None:
            out["rows"] = self.rows
        return out


# --- dates ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DateMention:
    raw: str
    year: int | None
    month: int | None
    day: int | None
    start: int
    end: int
    valid: bool
    why: str = ""
    temporal: bool = True  # read as a time: a full date, or a year after "in", "since", "by", ...

    @property
    def precision(self) -> str:
        return "day" if self.day and self.month else ("month" if self.month else "year")

    def key(self) -> tuple:
        return (self.year, self.month, self.day)


def _month(word: str) -> int:
    return MONTHS[word.lower().rstrip(".")]


def _valid(year: int | None, month: int, day: int | None) -> tuple[bool, str]:
    if not 1 <= month <= 12:
        return False, f"there is no month {month}"
    if day is not None:
        last = monthrange(year if year else 2000, month)[1]  # no year: a leap year, so 29 February stands
        if not 1 <= day <= last:
            name = dt.date(2000, month, 1).strftime("%B")
            return False, f"{name} has {last} days" + (f" in {year}" if year and month == 2 else "")
    return True, ""


# a bare year is a time after these words; after the second list it is not a year at all
_YEAR_AFTER = frozenset("""in since by until till from during of early late mid around circa year years after before
between and to or the fiscal fy spring summer autumn fall winter""".split())
_NOT_A_YEAR_AFTER = frozenset("""than over under about approximately nearly almost some port number no version
code page pages step steps item items size length""".split())


def find_dates(text: str) -> list[DateMention]:
    """The dates written in ``text`` (ISO, d/m/y, month-name dates, month and year, a bare
    year), each once, the longest reading first; each says whether it can exist."""
    if not _ANY_DIGIT.search(text):
        return []  # every pattern below holds a digit: most sentences need no scan at all
    return _scan_dates(text)


_ANY_DIGIT = re.compile(r"\d")


def _scan_dates(text: str) -> list[DateMention]:
    out: list[DateMention] = []
    marks = bytearray(len(text))  # characters a date already holds

    def free(a: int, b: int) -> bool:
        return not any(marks[a:b])

    def take(a: int, b: int) -> None:
        marks[a:b] = b"\x01" * (b - a)

    def add(m: re.Match, y: int | None, mo: int | None, d: int | None, ok: bool = True, why: str = "") -> None:
        if not free(m.start(), m.end()):
            return
        if ok and mo is not None:
            ok, why = _valid(y, mo, d)
        out.append(DateMention(m.group(0), y, mo, d, m.start(), m.end(), ok, why))
        take(m.start(), m.end())

    for m in _ISO.finditer(text):
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if 1000 <= y <= 2999:
            add(m, y, mo, d)
    for m in _SLASH.finditer(text):
        a, b, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
        readings = [(mo, d) for mo, d in ((a, b), (b, a)) if _valid(y, mo, d)[0]]
        if not readings:
            add(m, y, None, None, False, f"neither {a}/{b} nor {b}/{a} is a day of {y}")
        elif len(readings) == 1 or readings[0] == readings[1]:
            add(m, y, readings[0][0], readings[0][1])
        # two valid readings: ambiguous, not compared
    for m in _MDY.finditer(text):
        add(m, int(m.group(3)) if m.group(3) else None, _month(m.group(1)), int(m.group(2)))
    for m in _DMY.finditer(text):
        add(m, int(m.group(3)) if m.group(3) else None, _month(m.group(2)), int(m.group(1)))
    for m in _MY.finditer(text):
        add(m, int(m.group(2)), _month(m.group(1)), None)
    for m in _YEAR_ONLY.finditer(text):
        before = re.findall(r"[^\W_]+", text[max(0, m.start() - 24):m.start()])
        prev = before[-1] if before else ""
        if len(prev) >= 2 and prev.isupper() or prev.lower() in _NOT_A_YEAR_AFTER:
            continue  # RFC 2047, ISO 8601, "than 2047 bytes", "port 2080"
        if not free(m.start(), m.end()):
            continue
        out.append(DateMention(m.group(0), int(m.group(1)), None, None, m.start(), m.end(), True, "",
                               not prev or prev.lower() in _YEAR_AFTER))
        take(m.start(), m.end())
    # "May" is also a verb: a month-name date needs a day or a year next to it (the patterns
    # do), and a bare "may 5" in lower case is read as a verb and a number
    out = [d for d in out if not (d.raw[:3] == "may" and d.year is None)]
    return sorted(out, key=lambda d: d.start)


def _sentence_around(text: str, a: int, b: int, reach: int = 300) -> str:
    """The sentence (or clause) around text[a:b], read at most ``reach`` characters each way."""
    lo, hi = max(0, a - reach), min(len(text), b + reach)
    left = max(text.rfind(". ", lo, a), text.rfind("; ", lo, a), lo - 1)
    right = min((x for x in (text.find(". ", b, hi), text.find("; ", b, hi)) if x >= 0), default=hi)
    return text[left + 1:right]


def date_problems(text: str, *, today: dt.date | None = None, quotes: Iterable[str] = ()) -> list[tuple[str, str]]:
    """(date as written, why) for each date of ``text`` that cannot be right: one that
    cannot exist; one after ``today`` stated as past; with ``quotes``, one whose quotes give
    a date of the same precision and never this one."""
    out: list[tuple[str, str]] = []
    dates = find_dates(text)[:MAX_DATES]
    if not dates:
        return out  # nothing to check: the quotes' dates are not read
    quoted = [d for q in quotes for d in find_dates(q) if d.valid][:MAX_DATES]
    for d in dates:
        if not d.valid:
            out.append((d.raw, f"no such date: {d.why}"))
            continue
        if today is not None and d.year is not None and d.temporal:
            later = (d.year > today.year or (d.precision == "day" and d.year == today.year
                                             and ((d.month or 0), (d.day or 0)) > (today.month, today.day))
                     or (d.precision == "month" and d.year == today.year and (d.month or 0) > today.month))
            if later:
                around = _sentence_around(text, d.start, d.end)
                if PAST.search(around) and not FUTURE.search(around):
                    out.append((d.raw, f"{d.raw} is after the run's date ({today.isoformat()}) but is stated as past"))
                    continue
        if quoted and d.year is not None:
            # quote dates at least as precise as the claim's, compared at the claim's precision
            rank = {"year": 0, "month": 1, "day": 2}
            same = [q for q in quoted if q.year is not None and rank[q.precision] >= rank[d.precision]]
            if same and not any((q.year, q.month if d.month else None, q.day if d.day else None) == d.key()
                                for q in same):
                shown = ", ".join(dict.fromkeys(q.raw for q in same))
                out.append((d.raw, f"the claim says {d.raw}; its quote says {shown}"))
    return out


# --- names ---------------------------------------------------------------------------------------
# A word: letters and digits (with "+" and "#": C++, C#), joined by one of ".-'’&" between two
# of them ("U.S", "O'Brien", "AT&T"). Written as runs, not as an alternation tried at every
# character: the same matches (tests/citations/test_flags.py), about a quarter faster.
_NAME_TOKEN = re.compile(r"[^\W_][\w+#]*(?:[.\-'’&][^\W_][\w+#]*)*[+#]*")
_CONNECT = frozenset(["of", "de", "van", "von", "der", "del", "da", "la", "le", "du", "for", "the"])
_NOT_NAMES = frozenset(["i", "ok", "a", "an", "the"]) | WEEKDAYS | frozenset(MONTHS)
_OPENERS = "\"'“‘([«*_"
# words that open a sentence in capitals and are not names (WordNet lists no function words)
_OPENING_WORDS = frozenset("""because since unless although though when whenever while after before during from with
without according as if once doing given using following despite besides however therefore instead yet thus also
unlike like per upon within each every all both many most some any no none few several either neither much more less
other another such one two three four five here there then now today always never often sometimes usually even only
just still already whether where which who whom whose what how why this that these those it its they their we our you
your he she his her in on at by for to of into onto over under between through about against among across toward
towards than not nor but or and so an a the is are was were be been has have had do does did can could will would
shall should may might must let lets""".split())


_LEMMAS: list[dict[str, frozenset[str]]] = []


def _lemma_sets() -> dict[str, frozenset[str]]:
    """WordNet's lemmas by part of speech, read from its index files only (a fraction of a
    second; the full database of ``claims.lexicon`` takes seconds and is not needed to ask
    "is this a dictionary word"). Empty without the database."""
    if not _LEMMAS:
        from .claims import lexicon

        sets: dict[str, frozenset[str]] = {}
        root = lexicon._root()
        for pos in ("noun", "verb", "adj", "adv"):
            try:
                with (root / f"index.{pos}").open(encoding="latin-1") as fh:  # type: ignore[operator]
                    sets[pos] = frozenset(line.split(" ", 1)[0] for line in fh if not line.startswith(" "))
            except (OSError, TypeError):
                sets[pos] = frozenset()
        _LEMMAS.append(sets)
    return _LEMMAS[0]


def _bases(word: str) -> set[str]:
    w = word.lower()
    out = {w}
    for suf, rep in (("s", ""), ("es", ""), ("ies", "y"), ("ed", ""), ("ed", "e"), ("ing", ""), ("ing", "e")):
        if w.endswith(suf) and len(w) > len(suf) + 2:
            base = w[: -len(suf)] + rep
            out.add(base)
            if rep == "" and len(base) > 3 and base[-1] == base[-2]:
                out.add(base[:-1])  # skipping -> skip, cancelling -> cancel
    return out


@lru_cache(maxsize=65536)
def _verb(word: str) -> bool:
    """Can the word be a verb (WordNet)? "Raise ValueError" opens with one, not with a name."""
    verbs = _lemma_sets().get("verb", frozenset())
    return any(b in verbs for b in _bases(word))


@lru_cache(maxsize=65536)
def _dictionary_word(word: str) -> bool:
    sets = _lemma_sets()
    return any(b in s for b in _bases(word) for s in sets.values())


@lru_cache(maxsize=65536)
def _shape(tok: str) -> tuple[bool, int]:
    """(has a digit, how many upper-case letters): a word's shape, the same in every sentence."""
    return any(c.isdigit() for c in tok), sum(c.isupper() for c in tok)


class _LowerWords:
    """The words of a text written without a capital, read from the text on the first
    question (most sentences never ask: only a capitalised word at a sentence start that is
    no dictionary word does)."""

    __slots__ = ("text", "words")

    def __init__(self, text: str):
        self.text = text
        self.words: set[str] | None = None

    def __contains__(self, word: object) -> bool:
        if self.words is None:
            self.words = set(filter(str.islower, _NAME_TOKEN.findall(self.text)))
        return word in self.words


def _name_like(tok: str, initial: bool, lower_words: Container[str]) -> bool:
    if tok.lower() in _NOT_NAMES:
        return False
    digit, upper = _shape(tok)
    if digit:
        return upper > 0  # GPT-4, H100, COVID-19; not "10-character", "5th"
    if upper >= 2 and len(tok) >= 2:
        return True  # ALLCAPS, CamelCase
    if not tok[0].isupper():
        return upper == 1  # iPhone
    if not initial:
        return True
    return not (tok.lower() in _OPENING_WORDS or _dictionary_word(tok) or tok.lower() in lower_words)


# Unit symbols (SI and common ones) are no names: "585 kWh", "5GB", "20 °C". Those of mixed
# case name nothing else ("kWh", "GHz"); the others are symbols only after a number, their
# own or glued on ("GB" alone may be Great Britain, "TB" tuberculosis, "C" a language).
_UNIT_MIXED = frozenset("Wh kWh MWh GWh TWh kW kV mV mA kHz MHz GHz THz kPa MPa GPa hPa kJ MJ GJ kB kbit Mbit Gbit "
                        "kbps Mbps Gbps mAh kcal".split())
_UNIT_AFTER_NUMBER = _UNIT_MIXED | frozenset("W MW GW TW V A Hz J Pa N K C F KB MB GB TB PB Mb Gb Tb B".split())
_NUMBER_THEN_UNIT = re.compile(r"\d+(?:[.,]\d+)*([^\W\d_]+)")
_NUMBER_BEFORE = re.compile(r"\d[ \u00a0\u202f]?\Z")


def _unit_symbol(text: str, tok: str, start: int) -> bool:
    """Is ``tok`` (at ``start`` in ``text``) a unit symbol rather than a name?"""
    if tok in _UNIT_MIXED:
        return True
    glued = _NUMBER_THEN_UNIT.fullmatch(tok)
    if glued:
        return glued.group(1) in _UNIT_AFTER_NUMBER
    if tok not in _UNIT_AFTER_NUMBER:
        return False
    before = text[max(0, start - 2):start]
    if tok in ("C", "F") and before.endswith("\u00b0"):  # 20 °C, 68°F
        return True
    return bool(_NUMBER_BEFORE.search(before))


_RUN_BREAKS = ",;:()[]\"“”.!?|"  # punctuation between two words that ends a name
_LINE_START = re.compile(r"\n\s*$")  # a word after a line break (and spaces) opens its line
# What may stand before a label word ("In Hebrew:", "Translation:") on its line or in its
# sentence: nothing, or one word that opens a sentence (see _is_label).
_LABEL_LEAD = re.compile(r"(?:\A|[.!?;\n])[\s" + re.escape(_OPENERS) + r"]*(?:([^\W\d_]+)[ \t]+)?\Z")


def _is_label(text: str, start: int, end: int) -> bool:
    """Is the one word ``text[start:end]`` a label - a capitalised word right before a colon
    at the start of its line or sentence, alone or after one opening word ("In Hebrew:",
    "Translation:") - rather than a name? Such a word names what follows (a language, a
    part), and a page in another script never holds it."""
    if text[end:end + 1] not in (":", "\uff1a") or not text[start:start + 1].isupper():
        return False
    lead = _LABEL_LEAD.search(text, max(0, start - 64), start)
    if lead is None:
        return False
    word = lead.group(1)
    return word is None or (word[:1].isupper() and word.lower() in _OPENING_WORDS)


def proper_names(text: str) -> list[str]:
    """The proper names written in ``text``: runs of name-like words ("Python Software
    Foundation", "Bank of England"), CamelCase, ALL-CAPS and digit-bearing words."""
    return list(_proper_names(text))


# a report asks for the names of one text more than once (a claim written again for another
# quote, a sentence it repeats), and the scan reads every word
@lru_cache(maxsize=4096)
def _proper_names(text: str) -> tuple[str, ...]:
    lower_words = _LowerWords(text)
    names: list[str] = []
    run: list[tuple[str, int, int]] = []
    pending: list[tuple[str, int, int]] = []

    def flush() -> None:
        if run and not (len(run) == 1 and _is_label(text, run[0][1], run[0][2])):
            names.append(text[run[0][1]:run[-1][2]])
        run.clear()
        pending.clear()

    prev_end = 0
    for m in _NAME_TOKEN.finditer(text):
        tok, tok_start = m.group(0), m.start()
        if tok.islower():
            # the common case: a word without a capital is never name-like (nor its part
            # after a hyphen); it only ends the run or, as a connecting word, waits in it
            if run:
                gap = text[prev_end:tok_start]
                if any(ch in gap for ch in _RUN_BREAKS) and gap.strip():
                    flush()
                elif not pending and gap.strip() == "" and \
                        (tok[:-2] if tok[-2:] in ("'s", "’s") else tok) in _CONNECT:
                    pending.append((tok, tok_start, m.end()))
                else:
                    flush()
            prev_end = m.end()
            continue
        possessive = tok[-2:] in ("'s", "’s")
        if possessive:
            tok = tok[:-2]
        if "-" in tok:  # "two-GiB", "non-Django": the name is the part from its first capital on
            parts = tok.split("-")
            k = next((i for i, p in enumerate(parts) if p[:1].isupper() or any(c.isupper() for c in p)), 0)
            if k:
                tok_start += len("-".join(parts[:k])) + 1
                tok = "-".join(parts[k:])
        gap = text[prev_end:m.start()]
        window = text[max(0, m.start() - 64):m.start()]  # bounded: never the whole text per word
        before = window.rstrip(" " + _OPENERS)
        initial = (not before and m.start() <= 64) or (bool(before) and before[-1] in ".!?:;\n•-–—|") \
            or bool(_LINE_START.search(window))
        if run and (any(ch in gap for ch in _RUN_BREAKS) and gap.strip()):
            flush()
        name = _name_like(tok, initial, lower_words) and not _unit_symbol(text, tok, tok_start)
        if (not name and initial and tok[:1].isupper() and tok.lower() not in _OPENING_WORDS and not _verb(tok)
                and (nxt := _NAME_TOKEN.match(text, m.end() + 1)) and text[m.end():m.end() + 1] == " "
                and nxt.group(0)[:1].isupper() and _name_like(nxt.group(0), False, lower_words)):
            name = True  # "Statistics Norway", "Python Software Foundation" at a sentence start
        if name:
            if run and pending:
                run.extend(pending)
            pending.clear()
            run.append((tok, tok_start, m.end() - (2 if possessive else 0)))
            if possessive:  # "Flask's ORM": two names
                flush()
        elif run and tok.lower() in _CONNECT and not pending and gap.strip() == "":
            pending.append((tok, m.start(), m.end()))
        else:
            flush()
        prev_end = m.end()
    flush()
    cleaned = []
    for n in names:
        n = re.sub(r"['’]s$", "", n).strip()
        if n and n not in cleaned:
            cleaned.append(n)
    return tuple(cleaned)


_NORM_WORD = re.compile(r"[^\W_]+")


def _norm(text: str) -> str:
    # names and short lines recur across the claims of a report; a page's text is not kept
    return _norm_short(text) if len(text) <= 256 else _norm_text(text)


def _norm_text(text: str) -> str:
    return " " + " ".join(_NORM_WORD.findall(_fold(text))) + " "


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().replace("’", "'")


_norm_short = lru_cache(maxsize=16384)(_norm_text)


@dataclass
class NormalisedPage:
    """A page as names are looked up in it: casefolded words joined by single spaces, and
    the word set of each of its lines (paragraphs)."""

    text: str
    lines: list[frozenset[str]]

    @cached_property
    def words(self) -> frozenset[str]:
        """The words of ``text``, read from ``lines`` (the same words: normalising never
        makes or joins across a line break, and blank lines hold none), so no string is
        made again: " w " is in ``text`` exactly when w (a word) is in this set (``text`` is
        its words, each between two single spaces), and a word not here is on no line."""
        return frozenset().union(*self.lines)


def normalised_page(text: str) -> NormalisedPage:
    # The text is folded once and its words found once, line by line: folding keeps every
    # line break and makes none (no character folds to or from one, and a break joins with
    # nothing around it), so the folded text's lines are the lines' folds, in order; and no
    # word holds a line break, so the text's words are its lines' words, in order.
    lines, folded_lines = text.splitlines(), _fold(text).splitlines()
    if len(lines) != len(folded_lines):  # (never; kept as the definition)
        return NormalisedPage(_norm(text), [frozenset(_norm(x).split()) for x in lines if x.strip()])
    words = [_NORM_WORD.findall(f) for f in folded_lines]
    return NormalisedPage(" " + " ".join(chain.from_iterable(words)) + " ",
                          [frozenset(w) for x, w in zip(lines, words) if x.strip()])


@lru_cache(maxsize=1024)  # a report cites one quote for several claims
def _normalised_quotes(text: str) -> NormalisedPage:
    return normalised_page(text)


def _forms(n: str) -> set[str]:
    forms = {n, n.replace(" ", "")}
    if n.endswith("s") and len(n) > 3:
        forms.add(n[:-1])
    if n.endswith(" s"):
        forms.add(n[:-2])
    return {f for f in forms if f}


def name_on_page(name: str, page: NormalisedPage | str) -> bool:
    """Is ``name`` on the page: the words in a row (a plural or possessive ``s`` aside), or,
    for a run of several words, each word (its forms) in one line of the page?"""
    if isinstance(page, str):
        page = normalised_page(page)
    n = _norm(name).strip()
    if not n:
        return True
    words = n.split()
    if len(words) < 2:  # one word: its forms are words of the page, or not
        on = page.words
        return any(f in on or f + "s" in on for f in _forms(n))
    if any(f" {f} " in page.text or f" {f}s " in page.text for f in _forms(n)):
        return True
    wanted = [_forms(w) | {w + "s"} for w in words if w not in _CONNECT]
    if not wanted:
        return bool(page.lines)
    seen = page.words
    if any(seen.isdisjoint(fs) for fs in wanted):
        return False  # a word none of whose forms is on any line
    return any(all(fs & line for fs in wanted) for line in page.lines)


def invented_names(claim: str, pages: Iterable[NormalisedPage], quotes: Iterable[str] = ()) -> list[str]:
    """The proper names of ``claim`` that stand on none of ``pages`` (each given as
    :func:`normalised_page`) nor in its ``quotes``."""
    pages = list(pages)
    if not pages:
        return []
    names = proper_names(claim)
    if not names:
        return []
    quoted = _normalised_quotes("\n".join(quotes))
    out = []
    for name in names:
        if name_on_page(name, quoted) or any(name_on_page(name, p) for p in pages):
            continue
        out.append(name)
    return out


# --- uncited statements --------------------------------------------------------------------------
_DIGIT = re.compile(r"\d")
_WORDS = re.compile(r"[^\W_]+")
# a technical name: sorted(), gc.garbage, --no-verify (each dotted part two characters or more: not "e.g.")
_IDENTIFIER = re.compile(r"(?<![\w.])[^\W\d_]\w+(?:\.[^\W\d_]\w+)+(?![\w.]\w)|\b\w+\(\)|(?<![\w-])--[a-z][\w-]+")
_LIST_NUMBER = re.compile(r"^\s*\d{1,3}[.)]\s")
_DOT_LETTER = re.compile(r"\.[^\W\d_]")  # what every dotted name holds: a "." and a letter after it


def has_identifier(text: str) -> bool:
    """Does ``text`` write a technical name (:data:`_IDENTIFIER`)? Each of its three forms
    holds something a plain search finds at C speed (a dot before a letter, "()", "--"):
    only a text with one is searched with the full pattern, whose look-behind is tried at
    every position."""
    if "()" not in text and "--" not in text and _DOT_LETTER.search(text) is None:
        return False
    return _IDENTIFIER.search(text) is not None


def factual_signal(sentence: str, *, english: bool = True) -> str | None:
    """What makes a sentence a checkable statement: "number", "date", "superlative",
    "name", or None."""
    body = _LIST_NUMBER.sub("", sentence)
    if find_dates(body):
        return "date"
    if _DIGIT.search(body):
        return "number"
    if not SUPERLATIVES.isdisjoint(map(str.lower, _WORDS.findall(body))) or _superlative_phrase(body):
        return "superlative"
    if has_identifier(body) or (english and proper_names(body)):
        return "name"  # a technical name (one regex) before a proper name (a scan of every word)
    return None


def _superlative_phrase(text: str) -> bool:
    """:data:`_SUPERLATIVE_PHRASE` in ``text``, searched only when the text holds "the " or
    "record" in any case (the phrase's literal letters, which no other character matches
    without case): the pattern, led by a word boundary, is tried at every position."""
    low = text.lower()
    return ("the " in low or "record" in low) and _SUPERLATIVE_PHRASE.search(text) is not None


def _is_framing(sentence: str) -> bool:
    s = sentence.lstrip(_OPENERS + " ")
    return bool(FRAMING.match(s))


def uncited_statements(doc, *, english: bool = True) -> list[Flag]:
    """Factual sentences of the report body with no citation (see the module notes)."""
    from .document.claims import _paragraph_units, _plain, sentences, unit_sentences
    from .document.sections import sources_section

    md = doc.markdown
    s = doc.structure or md
    skip: list[tuple[int, int]] = []
    src = sources_section(doc)
    if src is not None:
        skip.append((src.start, src.end))
    if doc.findings is not None:
        skip.append((doc.findings.start, doc.findings.end))
    for sec in doc.all_sections():
        if any(w in sec.title.casefold() for w in LIMITATION_WORDS):
            skip.append((sec.start, sec.end))
    merged: list[list[int]] = []
    for x, y in sorted([(c.start, c.end) for c in doc.claims] + [(r.start, r.end) for r in doc.refs]):
        if merged and x <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], y)
        else:
            merged.append([x, y])
    starts = [x for x, _ in merged]
    code = sorted(doc.code)
    code_starts = [x for x, _ in code]
    out: list[Flag] = []

    def has_cite(a: int, b: int) -> bool:  # does a cited span overlap [a, b)?
        k = bisect.bisect_left(starts, b) - 1
        return k >= 0 and merged[k][1] > a

    def all_cited(a: int, b: int) -> bool:  # does one cited span hold [a, b) whole?
        k = bisect.bisect_right(starts, a) - 1
        return k >= 0 and merged[k][1] >= b

    for block in doc.blocks:
        if block.kind != "paragraph" or any(x <= block.start < y for x, y in skip):
            continue
        table = None
        if block.table:
            units = [(a, e) for a, e in block.segments]  # a table row is one unit
            if not has_cite(block.start, block.end):
                table = block.start  # no row cites: its rows are one statement (one_per_table)
        else:
            units = _paragraph_units(s, block)
        for ua, ub in units:
            if all_cited(ua, ub):
                continue  # each of its sentences overlaps that span: none is uncited
            row_cited = block.table and has_cite(ua, ub)
            # the claims cut the structure text's units already: the same spans, split once
            spans = unit_sentences(doc, s, ua, ub) if s is doc.structure else sentences(s, ua, ub)
            for a, b in spans:
                raw = s[a:b]
                if row_cited or has_cite(a, b):
                    continue
                text = _plain(raw)
                if not text or text.rstrip("*_ )\"'”’").endswith("?") or _is_framing(text):
                    continue
                if block.table and re.fullmatch(r"[\s|:\-]*", raw):
                    continue
                if len(_WORDS.findall(text)) < MIN_WORDS:
                    continue
                why = factual_signal(text, english=english)
                if why is None:
                    continue
                shown = _row_text(raw) if block.table else text
                out.append(Flag("uncited", shown, f"states a {why} with no citation", a, b,
                                doc.line_at(a), None, table=table,
                                shown=shown_pieces(md, a, b, code, code_starts, row=block.table)))
    return out


_LINE_LEAD = re.compile(r"[ \t]*\n[ \t]*(?:>[ \t]?)*")  # a line break and the next line's quote markers
_CELL_BAR = re.compile(r"\s*(?<!\\)\|\s*")
_CODE_TICKS = re.compile(r"(`+)(.*)\1", re.DOTALL)
# CommonMark's escapes, read in one pass: a backslash before ASCII punctuation; a character reference
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _escaped(m: re.Match) -> str:
    import html

    if m.group(1) is not None:
        return m.group(1)
    char = html.unescape(m.group(0))
    return "\ufffd" if char in ("\x00", "") else char


def _code_content(raw: str) -> str:
    """A code span's content as CommonMark reads it: inside its backtick runs, line breaks as
    spaces, one space stripped from each end when both ends have one (and it is not all spaces)."""
    m = _CODE_TICKS.fullmatch(raw)
    body = (m.group(2) if m else raw).replace("\r\n", " ").replace("\n", " ")
    if len(body) > 1 and body[0] == " " and body[-1] == " " and body.strip(" "):
        body = body[1:-1]
    return body


def shown_pieces(md: str, a: int, b: int, code: list[tuple[int, int]], code_starts: list[int], *,
                 row: bool = False) -> tuple[tuple[str, bool], ...]:
    """``md[a:b]`` as a reader is shown it in a list of statements, without the claim
    plainer's changes (it drops code spans and strips ``*`` and ``_``: "A wrapper written as
    `f(*args, **kwargs)`" read "A wrapper written as"): pieces ``(text, is_code)`` of the
    markdown as written, each code span (``code``: the report's code spans, sorted, and
    their starts) as its content, the rest as text whose white space runs (and a quote's
    ``>`` markers at a line's start) are one space and whose backslash escapes and character
    references are the characters they stand for (``2 \\* 3`` is "2 * 3", ``&lt;b>`` is
    "<b>": the writer asked for those characters as text).
    ``row``: a table row, its cells joined by " · " as :func:`_row_text` joins them."""
    pieces: list[tuple[str, bool]] = []
    at = a
    k = max(0, bisect.bisect_right(code_starts, a) - 1)
    while k < len(code) and code[k][0] < b:
        cs, ce = code[k]
        k += 1
        if ce <= a:
            continue
        cs, ce = max(cs, a), min(ce, b)
        pieces.append((md[at:cs], False))
        pieces.append((_code_content(md[cs:ce]), True))
        at = ce
    pieces.append((md[at:b], False))
    out: list[tuple[str, bool]] = []
    for text, is_code in pieces:
        if not is_code:
            text = re.sub(r"\s+", " ", _LINE_LEAD.sub(" ", text))
            if row:
                text = _CELL_BAR.sub(" \u00b7 ", text)
            text = _ESCAPE.sub(_escaped, text)  # "2 \* 3", "&lt;b>": the characters the writer asked for
        elif row:
            text = text.replace("\\|", "|")  # a table's escaped bar, in a code span too
        if text:
            out.append((text, is_code))
    if row:  # the row's outer bars, and the empty cells' separators
        out = [(re.sub(r"(?: \u00b7 ){2,}", " \u00b7 ", t), c) if not c else (t, c) for t, c in out]
        if out and not out[0][1]:
            out[0] = (out[0][0].removeprefix(" \u00b7 "), False)
        if out and not out[-1][1]:
            out[-1] = (out[-1][0].removesuffix(" \u00b7 "), False)
    if out and not out[0][1]:
        out[0] = (out[0][0].lstrip(), False)
    if out and not out[-1][1]:
        out[-1] = (out[-1][0].rstrip(), False)
    return tuple((t, c) for t, c in out if t)


def one_per_table(flags: list[Flag]) -> list[Flag]:
    """``flags`` (of :func:`uncited_statements`) with the uncited rows of each table that
    cites nowhere counted as one statement: its first such row, with how many there are
    (``rows``). A table of data (an appendix of 120 measured rows) is one exhibit without a
    source, not 120 sentences: read row by row it buried the report's uncited prose under
    its count. A row of a table that cites elsewhere stays a statement of its own (its
    neighbours show a source was expected), and so does every sentence of the prose."""
    out: list[Flag] = []
    for f in flags:
        prev = out[-1] if out else None
        if f.table is not None and prev is not None and prev.table == f.table:
            prev.rows = (prev.rows or 1) + 1
            prev.end = f.end
            continue
        out.append(f)
    for f in out:
        if f.rows is not None:
            f.note = f"{f.note} (the first of {f.rows} such rows of a table that cites nowhere, counted once)"
    return out


def _row_text(raw: str) -> str:
    """A table row as a reader reads it: its cells' text joined by " · " (not its ``|`` pipes)."""
    from .document.claims import _plain

    cells = (_plain(c) for c in re.split(r"(?<!\\)\|", raw))
    return " · ".join(c.replace("\\|", "|") for c in cells if c)

"""Claims and quotes as the rules read them: normalised text, tokens with their kinds,
clauses, stems, names, negations and numbers (:func:`_analyse`)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import accumulate

from .framing import _prepare_claim
from .numbers import _numbers
from .types import _CJK, _NUM, _PUNCT, _WORD, _Memo, _Num, _Text
from .words import (
    _TO_NEGATORS,
    _ARTICLES,
    _CJK_NEG,
    _CJK_NEG_WORDS,
    _CJK_STOP,
    _CLAUSE_WORDS,
    _CLOSED,
    _CURRENCY,
    _IMPLICIT_NEG_STEMS,
    _NEG_PHRASE_WORDS,
    _NEG_SKIP_AFTER,
    _NEGATORS,
    _NO_COMPARATIVE,
    _NUMBER_START,
    _SMALL_NUMBERS,
    _STOP,
    stem,
)
from ..verify import _without_markup, strip_quote_marks

# --- text normalisation and tokens --------------------------------------------------------
_CJK_RANGES = ("\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
               "\uf900-\ufaff\uff66-\uff9f")


_CJK_CHAR = re.compile(f"[{_CJK_RANGES}]")


# A word is a letter or digit, then word characters, with single apostrophes, dots or hyphens
# inside ("don't", "e.g", "x-ray"): written as runs of word characters so that the engine
# tries the joiners only between runs, not after every character.
_TOKEN = re.compile(
    r"(\d{1,3}(?:(?:,\d{3})+|(?: \d{3})++(?!,\d{3}(?!\d)))(?:\.\d+)?)(?![\w])"  # 1,000 / 1 000 000 (grouped thousands)
    rf"|([^\W_{_CJK_RANGES}][^\W{_CJK_RANGES}]*(?:['.\-][^\W_{_CJK_RANGES}][^\W{_CJK_RANGES}]*)*)"  # words
    rf"|([{_CJK_RANGES}])"
    r"|([^\w\s])"
)


# The same tokens for ASCII text (most texts), where the CJK ranges cannot match: the
# engine's ASCII classes are faster. The third group never matches; it keeps the numbering.
_TOKEN_ASCII = re.compile(
    r"(\d{1,3}(?:(?:,\d{3})+|(?: \d{3})++(?!,\d{3}(?!\d)))(?:\.\d+)?)(?!\w)"
    r"|([^\W_]\w*(?:['.\-][^\W_]\w*)*)"
    r"|((?!))"
    r"|([^\w\s])",
    re.ASCII,
)


# The ASCII tokens again, without groups: ``findall`` then returns the tokens themselves
# (no tuple per token); each is told apart by its characters (see ``_tokens``).
# Led by one character class (any character but a space or "_": the first of every kind),
# then what that character's kind needs, in the alternation's order - a grouped number after
# a digit, the rest of a word after a letter or digit, nothing after a punctuation mark: the
# same matches, but the engine scans for the class in C where it tried the alternation at
# every position (each space) of the text.
_TOKEN_ASCII_FLAT = re.compile(
    r"[^\s_](?:(?<=\d)\d{0,2}(?:(?:,\d{3})+|(?: \d{3})++(?!,\d{3}(?!\d)))(?:\.\d+)?(?!\w)"
    r"|(?<=[^\W_])\w*(?:['.\-][^\W_]\w*)*"
    r"|(?<=[^\w\s]))",
    re.ASCII,
)


# ``_TOKEN``'s tokens the same way, for text that is not ASCII (a CJK character is a token of
# its own): the Unicode alternation, tried at every position, cost a third more than this.
_TOKEN_FLAT = re.compile(
    r"[^\s_](?:(?<=\d)\d{0,2}(?:(?:,\d{3})+|(?: \d{3})++(?!,\d{3}(?!\d)))(?:\.\d+)?(?![\w])"
    rf"|(?<=[^\W_{_CJK_RANGES}])[^\W{_CJK_RANGES}]*(?:['.\-][^\W_{_CJK_RANGES}][^\W{_CJK_RANGES}]*)*"
    rf"|(?<=[{_CJK_RANGES}])"
    r"|(?<=[^\w\s]))"
)
# the first character of ``_TOKEN``'s words (and grouped numbers)
_WORD_START = re.compile(f"[^\\W_{_CJK_RANGES}]")


# Where a token may carry a minus sign: a "-" at the start of the text or after a space or an
# opening bracket, with a letter or digit right after it (where a number or word token starts;
# a dash between spaces, " - ", marks none). Text without one (and without "()") needs no
# token positions.
# (written "-" first, the character before it tested after: the engine then looks only at
# each "-", not at every position - twenty times faster on a long text)
_MINUS_SIGN = re.compile(r"-(?<![^ (\[\t\n]-)[^\W_]")


# Superscripts: after a letter or a sign they are footnote marks ("word\u00b9") and go; after a
# digit or a closing bracket they are an exponent ("2\u2076\u2074", "10\u207b\u00b3", "(n+1)\u00b2") and
# become "^64", "^-3", "^2": dropped, "2\u2076\u2074" and "2\u00b3\u00b2" would both read "2" and a changed
# power would pass as a copy.
_SUPERSCRIPT_CHARS = "\u00b9\u00b2\u00b3\u2070\u2071\u2074\u2075\u2076\u2077\u2078\u2079\u207a\u207b\u207c\u207d\u207e\u207f"
_SUPERSCRIPTS = str.maketrans("", "", _SUPERSCRIPT_CHARS)
_ANY_SUPERSCRIPT = re.compile(f"[{_SUPERSCRIPT_CHARS}]")
_EXPONENT = re.compile(r"(?<=[0-9)])[\u207a\u207b]?[\u00b9\u00b2\u00b3\u2070\u2074-\u2079]+")
_EXPONENT_DIGITS = str.maketrans("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207a\u207b",
                                 "0123456789+-")


_NORMALISE_CHARS = {
    "\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2212": "-", "\ufe63": "-",
    "\uff0d": "-", "\u2014": " \u2014 ", "\u2015": " \u2014 ", "\u00ad": "", "\u200b": "",
    "\u2009": " ", "\u202f": " ", "\u00a0": " ", "\u2007": " ", "\u3000": " ",
}
_NORMALISE = str.maketrans(_NORMALISE_CHARS)
# The same replacements found by the regex engine: ``str.translate`` with a table looks up every
# character of a non-ASCII text in it (a Python dict look-up each, a tenth of a quote's analysis
# on articles); the engine scans for the few characters in C and only those are replaced.
_NORMALISE_RX = re.compile("[" + "".join(_NORMALISE_CHARS) + "]")


def _normalise_chars(text: str) -> str:
    """``text.translate(_NORMALISE)``, faster."""
    return _NORMALISE_RX.sub(_normalised_char, text)


def _normalised_char(m: re.Match[str]) -> str:
    return _NORMALISE_CHARS[m.group()]


_CLAUSE_PUNCT = frozenset(",;:.!?()[]{}\u2014\"/|\u3002\uff0c\u3001\uff1b\uff1a\uff01\uff1f")


_SENTENCE_PUNCT = frozenset(".!?:\u3002\uff01\uff1f")


# A contraction typed with a semicolon for its apostrophe ("didn;t", "don;t", "can;t": the keys
# sit side by side): read as the contraction, or its negation is lost to a stop.
_SEMICOLON_NOT = re.compile(r"\b(do|does|did|is|are|was|were|has|have|had|could|would|should|wo|ca|ai|must|need)"
                            r"n;t\b", re.IGNORECASE)


def _prepare(text: str) -> str:
    if ";t" in text:
        text = _SEMICOLON_NOT.sub(lambda m: m.group().replace(";", "'"), text)  # the same length
    if text.isascii():
        return text  # superscripts and the characters normalised are all non-ASCII
    if _ANY_SUPERSCRIPT.search(text):
        text = _EXPONENT.sub(lambda m: "^" + m.group().translate(_EXPONENT_DIGITS), text)
        text = text.translate(_SUPERSCRIPTS)
    if not text.isascii():
        text = _normalise_chars(unicodedata.normalize("NFKC", _normalise_chars(text)))
        if "-" in text and _HEBREW_HINT.search(text):
            text = _HEBREW_PREFIX_NUMBER.sub("\\1\u05be", text)
    return text


# A Hebrew prefix letter (or two or three: "ו", "ה", "ב", "כ", "ל", "מ", "ש"; "וב", "כש") joined
# to a number by a hyphen: "כ-585" ("about 585"), "ב-2020" ("in 2020"). Hebrew writes a maqaf
# (U+05BE) there as often as a hyphen; read as the maqaf, the number stands alone - not a name's
# number ("COVID-19"), and "כ-1,585" is 1,585, not 1 and 585. Latin text has no such letters.
_HEBREW_PREFIX_NUMBER = re.compile(r"(?<!\w)([\u05d5\u05d4\u05d1\u05db\u05dc\u05de\u05e9]{1,3})-(?=\d)")
# A prefix letter before "-" and a digit, found first: the pattern above starts with a look-behind,
# so the engine would try it at every position of the text (a letter class first is scanned in C).
_HEBREW_HINT = re.compile(r"[\u05d5\u05d4\u05d1\u05db\u05dc\u05de\u05e9]-\d")


def _is_entity(raw: str) -> tuple[bool, bool]:
    """Is a word token that is not plain lower-case letters a name (at a sentence start, and
    elsewhere)? One reading for both places (``_word_info`` keeps it per word)."""
    if raw.isalpha() and raw[1:].islower():
        # letters only (no digit, "_" or "."), no capital after the first: the tests below
        # find one capital at most, and it is the first letter
        return False, raw[0].isupper()
    if not any(map(str.isalpha, raw)):
        return False, False
    if any(map(str.isdigit, raw)) or "_" in raw or "." in raw.strip("."):
        return True, True
    upper = sum(map(str.isupper, raw))
    if upper >= 2 or (upper == 1 and not raw[0].isupper()):
        return True, True  # ALLCAPS, camelCase
    return False, raw[0].isupper()  # a capital first: a name unless it starts the sentence


# Contractions written without the apostrophe ("doesnt", "isnt"): none is also an English
# word ("cant" and "wont" are, so they are left alone).
_NT_BASES = {w + "nt": w for w in ("do", "does", "did", "is", "are", "was", "were", "has", "have", "had",
                                   "could", "should", "would", "must", "need")}


_SPLIT_WORDS = frozenset({"cannot", "Cannot", "CANNOT"} | set(_NT_BASES) | {w.capitalize() for w in _NT_BASES}
                         | {w.upper() for w in _NT_BASES})


_CONTRACTIONS = {"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}


_OTHER = -1  # an ASCII token that is neither a plain word nor punctuation (digits, "-", "'", "cannot")


def _ascii_kind_of(tok: str) -> int:
    """_WORD for a token of letters (but "cannot", "doesnt": two words), _PUNCT for one
    punctuation character, else _OTHER (read by ``_tokens``' loop)."""
    if tok.isalpha():
        return _OTHER if tok in _SPLIT_WORDS else _WORD
    return _PUNCT if not tok[0].isalnum() else _OTHER


_ascii_kind = _Memo(_ascii_kind_of, 65536)


def _token_kind_of(tok: str) -> int:
    """``_ascii_kind_of`` for a token of ``_TOKEN_FLAT``: which of ``_TOKEN``'s groups gives
    it, told by the same character classes - a word (_WORD; "cannot", "doesnt", digits and
    joined parts _OTHER) or a grouped number (_OTHER: it alone holds "," or " ") starts with
    a word character, else one CJK character (_CJK) or one punctuation mark (_PUNCT)."""
    if _WORD_START.match(tok):
        return _WORD if tok.isalpha() and tok not in _SPLIT_WORDS else _OTHER
    return _CJK if _CJK_CHAR.match(tok) else _PUNCT


_token_kind = _Memo(_token_kind_of, 65536)


def _tokens(text: str) -> tuple[list[str], list[int], set[int], set[int], set[int]]:
    """Surface tokens and their kinds, plus the positions of numbers with a minus sign, of
    parts joined to the previous token by a hyphen, and of words written as calls
    ("len()")."""
    ascii = text.isascii()
    rx = _TOKEN_ASCII if ascii else _TOKEN
    if "()" in text or ("-" in text and _MINUS_SIGN.search(text)):
        return _tokens_at(text, rx)
    # the common case: no minus sign and no call, so no token needs its position
    raw: list[str] = []
    kinds: list[int] = []
    hyph: set[int] = set()
    add_raw, add_kind = raw.append, kinds.append
    # a token of letters is a word; else one that starts with a letter or digit is a grouped
    # number when it holds a separator (a word never does), else a word; any other token is
    # one punctuation character (or one CJK character)
    if ascii:
        toks = _TOKEN_ASCII_FLAT.findall(text)
        plain = list(map(_ascii_kind.__getitem__, toks))
    else:
        toks = _TOKEN_FLAT.findall(text)
        plain = list(map(_token_kind.__getitem__, toks))
    if _OTHER not in plain:
        return toks, plain, set(), hyph, set()  # plain words and punctuation only: as found
    done = 0
    i = -1
    try:
        while True:
            i = plain.index(_OTHER, i + 1)
            raw += toks[done:i]  # the plain words and punctuation before, as found
            kinds += plain[done:i]
            done = i + 1
            tok = toks[i]
            if tok.isdigit():
                add_raw(tok)  # a bare number: ``_word_parts`` would keep it whole, as a number
                add_kind(_NUM)
            elif "," in tok or " " in tok:
                add_raw(tok.replace(",", "").replace(" ", ""))
                add_kind(_NUM)
            else:
                _word_parts(tok, 0, text, raw, kinds, set(), hyph)
    except ValueError:  # no _OTHER token after i
        raw += toks[done:]
        kinds += plain[done:]
    return raw, kinds, set(), hyph, set()


def _minus_before(text: str, s: int) -> bool:
    """Is the token starting at ``s`` preceded by a minus sign (a "-" at the start of the
    text or after a space or an opening bracket)?"""
    return s > 0 and text[s - 1] == "-" and (s == 1 or text[s - 2] in " ([\t\n")


def _word_parts(tok: str, s: int, text: str, raw: list[str], kinds: list[int], minus: set[int],
                hyph: set[int]) -> None:
    """Add a word token that is not plain letters (hyphens, apostrophes, digits, "cannot")
    starting at ``s`` in ``text``: its parts, contractions split."""
    parts = tok.split("-") if "-" in tok else [tok]
    for k, part in enumerate(parts):
        if not part:
            continue
        low = part.lower()
        if "'" in part:
            if low == "n't" and k == 0 and len(parts) == 1:
                raw.append("not")  # split off its verb as tokenised text writes it: "do n't"
                kinds.append(_WORD)
                continue
            if low.endswith("n't") and len(low) > 3 or low.endswith("'t") and low[:-2] + "nt" in _NT_BASES:
                # (the second: "could't", "does't" - "n't" misspelt)
                cut = 3 if low.endswith("n't") else 2
                raw.extend((_CONTRACTIONS.get(low[:-cut], part[:-cut]), "not"))
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
        if low in _NT_BASES and len(parts) == 1:
            raw.extend((part[:-2], "not"))  # "doesnt": "does not"
            kinds.extend((_WORD, _WORD))
            continue
        if k == 0 and _minus_before(text, s):
            minus.add(len(raw))
        if k > 0:
            hyph.add(len(raw))
        raw.append(part)
        kinds.append(_NUM if part[0].isdigit() else _WORD)


def _tokens_at(text: str, rx: re.Pattern[str]) -> tuple[list[str], list[int], set[int], set[int], set[int]]:
    """_tokens for text where a minus sign or a call may occur: tokens read with their
    positions."""
    raw: list[str] = []
    kinds: list[int] = []
    minus: set[int] = set()
    hyph: set[int] = set()
    calls: set[int] = set()
    add_raw, add_kind = raw.append, kinds.append
    prev_end = -1
    for m in rx.finditer(text):
        g = m.lastindex
        tok = m.group(g)
        if g == 2:
            if tok.isalpha() and tok not in _SPLIT_WORDS:  # the common case
                add_raw(tok)
                add_kind(_WORD)
            else:
                _word_parts(tok, m.start(), text, raw, kinds, minus, hyph)
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
            if _minus_before(text, m.start()):
                minus.add(len(raw))
            add_raw(tok.replace(",", "").replace(" ", ""))
            add_kind(_NUM)
            prev_end = -1
    return raw, kinds, minus, hyph, calls


def _word_info_of(r: str) -> tuple[str, str, bool, int, bool, bool, bool]:
    """(lower case, stem, plain content word?, flags, simple?, entity at a sentence start?,
    entity elsewhere?) of a word token as written; flags: 1 clause word, 2 negator, 4
    implicit negation, 8 part of "no longer" / "fails to"; simple: a lower-case word of
    letters with no flag (the common case)."""
    w = r.lower()
    st = stem(w)
    content = w not in _STOP and w not in _CLOSED and len(w) > 1 and w not in _SMALL_NUMBERS
    flags = (1 if w in _CLAUSE_WORDS else 0) | (2 if w in _NEGATORS else 0) | \
        (4 if st in _IMPLICIT_NEG_STEMS else 0) | (8 if w in _NEG_PHRASE_WORDS else 0)
    lower = r.islower() and r.isalpha()
    ent_start, ent_mid = (False, False) if lower else _is_entity(r)
    return w, st, content, flags, not flags and lower, ent_start, ent_mid


_word_info = _Memo(_word_info_of, 131072)


# A word joined by a hyphen (or an en dash, read as one) to a number of grouped thousands:
# "2.5 mya-10,000 years ago", "5 km-10,000 km". The word regex would take "mya-10" for one
# name ("COVID-19") and leave ",000" behind; a name's number has no thousands group, so the
# dash separates a range's ends there, and the number after it is 10,000.
# (written "-" first, the letter before it tested after, as ``_MINUS_SIGN``: the engine then
# looks only at each "-" where a look-behind first was tried at every position of the text)
_WORD_DASH_THOUSANDS = re.compile(r"-(?<=[^\W\d_]-)(?=\d{1,3}(?:,\d{3})+(?![\d,]))")


# A manual page's name and section, "find(1)", "apt-get(8)", "sources.list(5)", "printf(3p)": a
# lower-case command glued to "(", a section 1-9 with at most a short suffix, ")". The section is
# part of a name, not a quantity. Not "step(1)" and the like (a list's marker) nor "(2019)"; a
# dotted name only as a configuration file's ("sources.list(5)", not "process.exit(1)").
_MAN_PAGE = re.compile(r"(?<![\w.+-])([a-z][a-z0-9_.+-]*)\(([1-9])[a-z]{0,4}\)")
# what every such name's section holds, found first: the pattern above starts with a look-behind
# and a class, tried at every letter of the text; this one starts with "(", which the engine scans
# for in C (most texts with numbers and brackets name no manual page)
_MAN_SECTION = re.compile(r"\([1-9][a-z]{0,4}\)")
_NOT_COMMANDS = frozenset({"step", "steps", "item", "items", "note", "case", "figure", "fig", "table", "part",
                           "rule", "point", "option", "phase", "stage", "level", "section", "chapter", "page",
                           "line", "eq", "equation", "example", "type", "version", "v"})


def _man_sections(text: str, raw: list[str], low: list[str], numbers: list[_Num]) -> None:
    """Mark the numbers that are a manual page's section ("1" of "find(1)") with the command's
    name (``_Num.section_of``)."""
    if not _MAN_SECTION.search(text):
        return
    pages = set()
    for m in _MAN_PAGE.finditer(text):
        name = m.group(1)
        if name not in _NOT_COMMANDS and ("." not in name or name.endswith((".conf", ".list"))):
            pages.add((name, m.group(2)))
            pages.add((name.rsplit("-", 1)[-1], m.group(2)))  # "apt-get" is read as "apt", "get"
    if not pages:
        return
    n = len(raw)
    for num in numbers:
        p = num.pos
        if p >= 2 and p + 1 < n and raw[p - 1] == "(" and raw[p + 1] == ")" and (low[p - 2], raw[p]) in pages:
            num.section_of = low[p - 2]


def _analyse(text: str, claim_side: bool, mid_start: bool = False) -> _Text:
    text = _prepare(text)
    if "-" in text and "," in text:
        text = _WORD_DASH_THOUSANDS.sub(" - ", text)
    raw, kinds, minus, hyph, calls = _tokens(text)
    low = list(map(str.lower, raw))
    numbers, num_pos, bounds = _numbers(raw, low, kinds, minus, hyph, claim_side)
    if numbers and "(" in text:
        _man_sections(text, raw, low, numbers)
    n = len(raw)
    heads = {num.pos: num for num in numbers}
    tails = num_pos - heads.keys()  # units, scale words, the rest of "one hundred and five"
    stems: list[str] = [""] * n
    cuts: list[int] = [0] * n  # 1 where a new clause starts (the clause number grows)
    sent_start: list[bool] = [False] * n
    neg: list[bool] = [False] * n
    content: list[bool] = [False] * n
    entity: list[bool] = [False] * n
    neg_clauses: set[int] = set()
    align: list[str] = []
    align_pos: list[int] = []
    stemset: set[str] = set()
    lowset: set[str] = set()
    c = 0
    start = not mid_start
    word_info, clause_punct, sentence_punct = _word_info, _CLAUSE_PUNCT, _SENTENCE_PUNCT
    add_neg_clause = neg_clauses.add
    special = heads.keys() | tails | bounds | hyph | calls
    add_align, add_align_pos, articles = align.append, align_pos.append, _ARTICLES
    add_low, add_stem = lowset.add, stemset.add
    for k in range(n):
        kind = kinds[k]
        r = raw[k]
        if kind == _WORD:
            w, st, plain, flags, simple, ent_start, ent_mid = word_info[r]
            if simple and k not in special:
                # the common case: a plain lower-case word
                if start:
                    sent_start[k] = True
                    start = False
                content[k] = plain
                add_low(w)
                add_stem(st)
                stems[k] = st
                if w not in articles:
                    add_align(st)
                    add_align_pos(k)
                continue
            if flags & 1 and k not in hyph and not (k and neg[k - 1] and w in ("yet", "before")) \
                    and not (w == "before" and (k + 1 == n or kinds[k + 1] == _PUNCT or low[k + 1] in _BE_HAVE)):
                # "not yet assigned", "never before seen": "yet" / "before" after a negator ends no
                # clause, the negation covers what follows; nor does the adverb of "never seen
                # before is stored", "as said before." (no noun or clause after it)
                c += 1
                cuts[k] = 1
            sent_start[k] = start
            start = False
            if flags & 2:
                if _is_negator(w, k, raw, low, kinds, n, start=sent_start[k]):
                    neg[k] = True
                    neg_clauses.add(c)
            elif w == "longer" and k and low[k - 1] == "no" and neg[k - 1]:
                neg[k] = True
            elif w in _TO_NEGATORS and k + 1 < n and low[k + 1] == "to" and (
                    w != "yet" or (k and stems[k - 1] in ("be", "hav"))) \
                    and not (k and neg[k - 1] and w.startswith(("forg", "neglect"))):  # "is / has yet to" ("has": "hav")
                # ("do not forget to X": "remember to X", two negations; "X" is stated)
                neg[k] = True
                neg_clauses.add(c)
            elif flags & 4:
                add_neg_clause(c)
            ent = k in calls or (ent_start if sent_start[k] else ent_mid)
            entity[k] = ent
            content[k] = (plain and not neg[k]) or ent
            add_low(w)
            add_stem(st)
        elif kind == _PUNCT:
            if r in clause_punct:
                c += 1
                cuts[k] = 1
            if r in sentence_punct:
                start = True
            stems[k] = r
            continue
        elif kind == _NUM:
            w = st = low[k]
            sent_start[k] = start
            start = False
            content[k] = True
        else:  # CJK
            w = low[k]
            st = r
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
    clause = list(accumulate(cuts))  # clause number of each token: the clause starts up to it
    cjk = {raw[k] for k in range(n) if kinds[k] == _CJK} if _CJK in kinds else set()  # (a C-level scan first)
    bigrams = {raw[k] + raw[k + 1] for k in range(n - 1) if kinds[k] == _CJK and kinds[k + 1] == _CJK} \
        if cjk else set()
    # (tuples, not the lists built here: see ``_analyse_quote``'s cache)
    return _Text(tuple(raw), tuple(low), tuple(stems), tuple(kinds), tuple(clause), tuple(sent_start), numbers,
                 tuple(neg), neg_clauses, stemset, lowset, bigrams, tuple(align), tuple(align_pos), tuple(content),
                 tuple(entity), " " + " ".join(align) + " ", cjk, tails | bounds)


_BE_HAVE = frozenset({"is", "are", "was", "were", "be", "been", "has", "have", "had"})


def _is_negator(w: str, k: int, raw: list[str], low: list[str], kinds: list[int], n: int, start: bool) -> bool:
    """Is this negator word (not, no, never, ...) a negation here?"""
    nxt = low[k + 1] if k + 1 < n else ""
    if w == "not":
        if nxt in _NEG_SKIP_AFTER and not (k + 2 < n and low[k + 2].startswith("any")):
            return False  # "not just / only / merely / simply X" adds to X; "not just anyone" denies
        if k and low[k - 1] == "or":
            return False  # "... or not"
    if w in ("no", "not") and nxt in _NO_COMPARATIVE and k + 3 < n and low[k + 2] == "than" and \
            (kinds[k + 3] == _NUM or low[k + 3] in _NUMBER_START or low[k + 3] in _CURRENCY):
        return False  # "no more than 5": a bound
    if w == "no" and (nxt == "." and k + 2 < n and kinds[k + 2] == _NUM or nxt == "doubt"):
        return False  # "No. 5"
    if w == "no" and nxt == "." and raw[k] == "No" and not start:
        return False  # 'the extended play "No.' (a title cut at its "No."), "Symphony No.": a capital "No"
        # inside a sentence with a stop right after it abbreviates "number"; the determiner "no"
        # takes a noun, and an answer "No." opens its sentence
    return not (w == "none" and raw[k] == "None" and not start)  # Python's None


# The quotes of a report's refs: a quote is cited by several claims, not always in a row (a
# page's passage cited again further down), and analysing it is most of a pair's time on
# passage quotes. An analysis holds its per-token sequences as tuples, which the garbage
# collector stops walking once it has seen they hold no containers; with lists, thousands of
# kept analyses were walked in every older-generation collection (a fifth of the check's time
# on the public fact-verification pairs), which is why this cache once held 16.
QUOTE_CACHE = 256


@lru_cache(maxsize=QUOTE_CACHE)
def _analyse_quote(quote: str) -> _Text:
    return _analyse(_without_markup(strip_quote_marks(quote)), claim_side=False)


# The same claim is often checked again soon (against other quotes): a cache as small as the
# quotes' serves that. Nothing reads a claim's analysis to change it.
@lru_cache(maxsize=16)
def _analyse_claim(claim: str) -> _Text:
    """The analysis of a claim as written (reporting frames, markup and list markers removed
    first)."""
    text, mid = _prepare_claim(claim)
    return _analyse(text, claim_side=True, mid_start=mid)

"""What the checked citations add up to, per claim: how confident a reader may be, and
where sources disagree. Pure functions over checked citations (no model).

Confidence comes from evidence, not from a model's opinion:

* ``high``: the claim passed its checks and is supported by quotes from two or more
  independent sources: different sites (or different local documents) whose texts also
  differ — near-duplicate pages count once (:class:`Independence`);
* ``medium``: it passed its checks with quotes from one source.

(``low`` was given when a model judge found a claim only partly supported; such a claim is
now marked ``unsupported``, see :mod:`citations.judgement`.)

Claims whose check failed or could not be decided get no confidence.

Disagreement: two claims that say nearly the same thing apart from their numbers
(``fuzz.token_sort_ratio`` of the number-free text ≥ :data:`SAME_FACT_SCORE`), cite
different sources whose texts differ (near-duplicates count as one source) and give
different numbers are listed as "sources disagree" when they are about one subject and
each gives a value the other does not (:func:`_conflict`): the same content words (a
hedge such as "about" or an adverb such as "typically" aside, or a WordNet synonym), the
same numbers that name something ("Python 3.11", "PEP 654", "version 2.5", "3.11.2": a
different one is another subject, not another value) and, when their values differ in
more than a year, the same years (60 % in 2020 and 65 % in 2021 are two facts). Values
are compared as numbers ("1,000" = "1000" = "1000.0"), and only the values one side gives
and the other does not are listed.

Near-duplicate text (:func:`text_print`, :func:`same_text`): the share of the smaller
page's word 3-shingles that the other page also has (containment), on casefolded NFKC
words. Containment rather than Jaccard similarity because a copy usually sits in other
boilerplate: a documentation page rendered from HTML (navigation, footer) against its
Sphinx source text, or one article on two hosts. Measured on 150 pages of Python's
documentation (Debian python3.11-doc, ``benchmarks/bench_independence.py``): a page's HTML
text against its ``_sources`` .rst.txt scores median 0.83 (5th percentile 0.55; lowest 0.30,
an index page whose source is a bare toctree); a page against another page's source text
at most 0.11; two HTML pages of one site up to 0.68 when a short page is mostly the site's
navigation (such pages share a site, so they count once anyway). :data:`SAME_TEXT` = 0.4:
when in doubt, two pages count as one (a "medium" where "high" was due is the safe error).
Cost is bounded: at most :data:`MAX_PRINT_CHARS` of a page are read, and a page keeps at
most :data:`MAX_PRINT_HASHES` shingle hashes, chosen by a consistent sample (a hash is kept
when its low ``level`` bits are zero), so two prints are compared at the coarser of their
two levels. Written here (about 40 lines) rather than taken from a MinHash library such as
datasketch: a MinHash sketch estimates Jaccard similarity, and cannot estimate containment
of a short page in a long one, which is the case that matters.
"""

from __future__ import annotations

import bisect
import hashlib
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from urllib.parse import urlsplit

from rapidfuzz import fuzz, process

from .claims import ClaimStatus

SAME_FACT_SCORE = 85
MAX_CLAIMS_COMPARED = 1500  # pairs grow quadratically; beyond this only the first are compared
# Pairs listed as disagreeing, of each kind (numbers; quotes beyond numbers): 1,000 claims
# "item i weighs i grams" were 499,500 pairs, a publish took 37 s and 3.4 GB (2,500 claims:
# 7.5 GB) to write them all into audit.json and the HTML. A reader reads the first few.
MAX_DISAGREEMENTS = 200
# Pairs of claims whose content words differ that are looked up in WordNet for synonyms (one
# subject or two?): 1,500 claims "The <noun> plant produced <n> tonnes" were 1.1 million such
# pairs, 8 s. Beyond the bound such a pair counts as two subjects (a disagreement not listed).
MAX_SUBJECT_LOOKUPS = 20_000

SHINGLE_WORDS = 3
SAME_TEXT = 0.4  # containment at or above which two pages are one text
MAX_PRINT_CHARS = 2_000_000  # of a page's text read for its print
MAX_PRINT_HASHES = 4096  # shingle hashes a print keeps (a consistent sample of larger pages)

_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:[.,]\d+)*")
_WORD = re.compile(r"\w+")
_TOKEN = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class TextPrint:
    """A page's word 3-shingles as 64-bit hashes: all of them when there are at most
    :data:`MAX_PRINT_HASHES`, else those whose low ``level`` bits are zero."""

    level: int
    hashes: frozenset[int]

    def at(self, level: int) -> frozenset[int]:
        if level <= self.level:
            return self.hashes
        mask = (1 << level) - 1
        return frozenset(h for h in self.hashes if not h & mask)


def _hash(shingle: str) -> int:
    return int.from_bytes(hashlib.blake2b(shingle.encode("utf-8"), digest_size=8).digest(), "little")


def text_print(text: str) -> TextPrint:
    words = _TOKEN.findall(unicodedata.normalize("NFKC", text[:MAX_PRINT_CHARS]).casefold())
    n = SHINGLE_WORDS
    shingles = {" ".join(words[i:i + n]) for i in range(len(words) - n + 1)} or ({" ".join(words)} if words else set())
    hashes = {_hash(s) for s in shingles}
    level = 0
    while len(hashes) > MAX_PRINT_HASHES:
        level += 1
        mask = (1 << level) - 1
        hashes = {h for h in hashes if not h & mask}
    return TextPrint(level, frozenset(hashes))


def containment(a: TextPrint, b: TextPrint) -> float:
    """Share of the smaller print's shingles that the other has (0 when either is empty)."""
    level = max(a.level, b.level)
    x, y = a.at(level), b.at(level)
    if not x or not y:
        return 0.0
    if len(x) > len(y):
        x, y = y, x
    return len(x & y) / len(x)


def same_text(a: str | TextPrint, b: str | TextPrint) -> bool:
    """Are two pages near-duplicates (one text, counted once)?"""
    a = a if isinstance(a, TextPrint) else text_print(a)
    b = b if isinstance(b, TextPrint) else text_print(b)
    return containment(a, b) >= SAME_TEXT


@dataclass
class Independence:
    """Which cited sources are independent of each other. Two sources are one when they
    share a site (or local path, :func:`source_key`) or their texts are near-duplicates
    (:func:`same_text`); ``texts`` maps a source id to its text. Prints are made lazily,
    once per source, so only sources that are compared cost anything."""

    texts: dict[str, str]
    _prints: dict[str, TextPrint] = field(default_factory=dict)
    _same: dict[tuple[str, str], bool] = field(default_factory=dict)

    def print_of(self, source_id: str) -> TextPrint:
        if source_id not in self._prints:
            self._prints[source_id] = text_print(self.texts.get(source_id, ""))
        return self._prints[source_id]

    def same_text(self, a: str, b: str) -> bool:
        """Do sources ``a`` and ``b`` (ids) hold one text?"""
        if a == b:
            return True
        key = (a, b) if a < b else (b, a)
        if key not in self._same:
            self._same[key] = containment(self.print_of(a), self.print_of(b)) >= SAME_TEXT
        return self._same[key]

    def count(self, sources: Iterable[tuple[str, str]]) -> int:
        """How many independent sources among ``(source id, url)`` pairs: sources of one site
        or one text are joined (transitively), and the groups counted."""
        items = list(dict.fromkeys(sources))
        if len(items) < 2:  # most claims cite one source: nothing to join
            return len(items)
        parent = list(range(len(items)))

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        keys = [source_key(url, sid) for sid, url in items]
        for i in range(len(items)):
            for j in range(i + 1, len(items)):
                if root(i) != root(j) and (keys[i] == keys[j] or self.same_text(items[i][0], items[j][0])):
                    parent[root(j)] = root(i)
        return len({root(i) for i in range(len(items))})


def source_key(url: str, source_id: str) -> str:
    """Sources are independent when their keys differ: the host of a web page (two pages
    of one site count once), the path of a local document."""
    try:
        parts = urlsplit(url or "")
    except ValueError:
        return f"id:{source_id}"
    if parts.scheme in ("http", "https") and parts.hostname:
        host = parts.hostname.lower()
        return "site:" + (host[4:] if host.startswith("www.") else host)
    if parts.scheme == "file":
        return "file:" + parts.path
    return f"id:{source_id}"


def confidence(status: ClaimStatus, rule: str | None, independent_sources: int) -> str | None:
    """``rule`` is kept for callers; a supported claim is proven, by a rule or by a judge whose
    evidence code checked, so the rule no longer lowers the confidence."""
    if status is not ClaimStatus.SUPPORTED:
        return None
    return "high" if independent_sources >= 2 else "medium"


def claim_key(claim: str, quotes: Iterable[str]) -> str:
    """A stable key for a (claim, quotes) pair, so a judge's verdict applies to exactly the
    text it judged (any edit to the claim or a quote makes it a new pair)."""
    norm = lambda s: " ".join(s.split()).casefold()  # noqa: E731
    text = norm(claim) + "\x1f" + "\x1e".join(sorted(norm(q) for q in quotes))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


@dataclass
class Disagreement:
    claims: tuple[str, str]
    numbers: tuple[list[str], list[str]]  # the numbers that differ ("number" kind; empty for the others)
    refs: tuple[list[int], list[int]]  # 1-based ref numbers (citations.json "n")
    sources: tuple[list[str], list[str]]
    # "number": two claims on one fact give different numbers; from two cited quotes on one
    # subject (:func:`quote_contradictions`): "negation" | "antonym" (opposite polarity),
    # "date" | "name" (different dates or names for the same attribute)
    kind: str = "number"
    values: tuple[list[str], list[str]] = ([], [])  # what differs: numbers, negators, words, dates, names
    quotes: tuple[str, str] | None = None  # the two quotes compared (quote kinds)
    detail: str = ""

    def as_json(self) -> dict:
        values = self.values if (self.values[0] or self.values[1]) else self.numbers
        return {"claims": list(self.claims), "numbers": [list(x) for x in self.numbers],
                "refs": [list(x) for x in self.refs], "source_ids": [list(x) for x in self.sources],
                "kind": self.kind, "values": [list(x) for x in values],
                "quotes": list(self.quotes) if self.quotes else None, "detail": self.detail or None}


def _number_text(n: str) -> str:
    """A number as written, its thousands separators dropped and a decimal comma made a
    point ("1,000.5" -> "1000.5", "3,5" -> "3.5"; "1,000.5" was "1.000.5")."""
    n = n.lstrip("+")
    if re.fullmatch(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?", n):
        return n.replace(",", "")
    return n.replace(",", ".")


def _numbers(text: str) -> list[str]:
    return [_number_text(m.group(0)) for m in _NUMBER.finditer(text)]


# Words that qualify a value and leave its subject alone ("more than 60", "up to 5", "about 8,000").
_HEDGES = frozenset(["about", "around", "approximately", "approx", "roughly", "nearly", "almost", "some", "over",
                     "under", "more", "less", "fewer", "than", "up", "to", "least", "most", "just", "only",
                     "circa", "ca", "estimated", "an", "average", "between", "and"])
_MONTHS = frozenset(["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                     "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
                     "nov", "dec"])
_CURRENCIES = frozenset(["usd", "eur", "gbp", "jpy", "chf", "cny", "rmb", "aud", "cad", "inr", "sek", "nok", "dkk",
                         "nzd", "us", "ca", "au"])
# Lower-case words after which a number names something rather than measures it.
_NAMING_WORDS = frozenset(["version", "versions", "release", "v", "pep", "rfc", "iso", "section", "chapter", "article",
                           "part", "figure", "fig", "table", "step", "level", "phase", "stage", "page", "item",
                           "issue", "bug", "model", "series", "python"])
_WORD_BEFORE = re.compile(r"([^\W\d_][\w]*)[ \-]?$")
_YEAR = re.compile(r"(?:1[5-9]|20)\d\d")


@dataclass(frozen=True)
class _Numbers:
    """A claim's numbers: ``names``, those that name something (as written); ``values``,
    the others, each as a number (canonical text) mapped to its text as written."""

    names: frozenset[str]
    values: dict[str, str]
    keys: frozenset[str] = frozenset()  # the values' canonical texts


def _canonical(n: str) -> str:
    try:
        d = Decimal(n)
    except InvalidOperation:
        return n
    return format(d.normalize(), "f") if d.is_finite() else n


def _claim_numbers(text: str) -> _Numbers:
    """Which of ``text``'s numbers name something: one led by a capitalised word that is not
    a function word, a month or a currency ("Python 3.11", "PEP 654", "COVID-19", not "In
    2020", "March 2020", "EUR 500"), or by a naming word ("version 2.5", "section 3"), or
    with two or more points ("3.11.2"); the rest are values."""
    from .claims.words import _STOP

    names: set[str] = set()
    values: dict[str, str] = {}
    for m in _NUMBER.finditer(text):
        n = _number_text(m.group(0))
        before = _WORD_BEFORE.search(text, max(0, m.start() - 40), m.start())
        word = before.group(1) if before else ""
        low = word.casefold()
        naming = bool(word) and (low in _NAMING_WORDS or (
            word != low and low not in _STOP and low not in _MONTHS and low not in _CURRENCIES))
        if naming or n.count(".") >= 2:
            names.add(n)
        else:
            values.setdefault(_canonical(n), n)
    return _Numbers(frozenset(names), values, frozenset(values))


def _content_words(text: str) -> dict[str, str]:
    """A number-free claim's content words (casefolded) by stem, hedges and function words aside."""
    from .claims.words import _STOP, stem

    return {stem(w): w for w in text.split() if w not in _STOP and w not in _HEDGES}


class _Senses(dict):
    """A word -> (is it an adverb and nothing else, its WordNet synsets), looked up once a
    word for one :func:`disagreements` call (its pairs grow quadratically; the words do not)."""

    def __missing__(self, word: str) -> tuple[bool, frozenset]:
        from .claims import lexicon

        db = lexicon.database()
        found = (False, frozenset()) if db is None else (lexicon.adverb_only(word), frozenset(db.synsets(word)))
        self[word] = found
        return found


def _same_subject_words(a: dict[str, str], b: dict[str, str], senses: _Senses) -> bool:
    """Do two claims (their :func:`_content_words`) speak of one subject: every content word
    one has and the other lacks is an adverb ("typically") or a WordNet synonym (a shared
    synset, not an antonym) of a word the other has in its place ("house" / "home")?
    ("detached houses" / "terraced houses" are two subjects.)"""
    from .claims import lexicon

    only_a = [a[k] for k in a.keys() - b.keys()]
    only_b = [b[k] for k in b.keys() - a.keys()]
    if not only_a and not only_b:
        return True

    def matched(word: str, others: list[str]) -> bool:
        adverb, synsets = senses[word]
        return adverb or any(synsets & senses[o][1] and not lexicon.antonyms(word, o) for o in others)

    return all(matched(w, only_b) for w in only_a) and all(matched(w, only_a) for w in only_b)


def _conflict(a: _Numbers, b: _Numbers) -> tuple[list[str], list[str]] | None:
    """The values (as written) each of two claims on one fact gives and the other does not,
    when the two state different values of one subject: both give a value the other lacks,
    the numbers that name something are the same, and the years are the same when other
    values differ too. ``None`` when they do not conflict."""
    if a.names != b.names:
        return None  # "Python 3.11" / "Python 2.5": another subject
    only_a = [k for k in a.values if k not in b.values]
    only_b = [k for k in b.values if k not in a.values]
    if not only_a or not only_b:
        return None  # equal values, or one side only adds a value
    years = [k for k in only_a + only_b if _YEAR.fullmatch(k)]
    if years and len(years) < len(only_a) + len(only_b):
        return None  # "60 % in 2020" / "65 % in 2021": two times, two facts
    return [a.values[k] for k in only_a], [b.values[k] for k in only_b]


def _words_without_numbers(text: str) -> str:
    return " ".join(w for w in _WORD.findall(_NUMBER.sub(" ", text.casefold())))


def _token_sorted(text: str) -> str:
    """``text``'s words sorted, as ``fuzz.token_sort_ratio`` compares them: ``fuzz.ratio`` of
    two such strings is that function's score."""
    return " ".join(sorted(text.split()))


def _near(query: str, choices: list[str], cutoff: float) -> list[int]:
    """The indexes, ascending, of the ``choices`` whose ``fuzz.ratio`` with ``query`` is at
    least ``cutoff`` (of :func:`_token_sorted` texts: their ``fuzz.token_sort_ratio``): one
    C-speed pass (``process.extract``) instead of one Python call per pair. The pass keeps
    scores from a point below the cutoff; the cutoff is applied to the scores themselves."""
    if not choices:
        return []
    hits = process.extract(query, choices, scorer=fuzz.ratio, score_cutoff=max(0.0, cutoff - 1), limit=None)
    return sorted(k for _, score, k in hits if score >= cutoff)


def disagreements(claims: list[tuple], same: Callable[[str, str], bool] | None = None) -> list[Disagreement]:
    """claims: (claim text, ref numbers, source ids[, quotes]). Pairs about the same fact,
    from different sources, that state different values of one subject (:func:`_conflict`,
    :func:`_same_subject_words`; the first :data:`MAX_DISAGREEMENTS`), each with the values
    only its side gives.

    ``same(a, b)``: do source ids ``a`` and ``b`` hold one text
    (:meth:`Independence.same_text`)? Two copies of one text disagree only where the copies
    themselves differ: the pair is listed when the quotes the two claims cite state
    different numbers, and not when the quotes agree (then a claim misstates its quote;
    the sources do not disagree)."""
    prepared = []
    senses = _Senses()
    for text, refs, sids, *rest in claims[:MAX_CLAIMS_COMPARED]:
        text_n = unicodedata.normalize("NFKC", text)
        nums = _claim_numbers(text_n)
        words = _words_without_numbers(text_n)
        if nums.values and len(words.split()) >= 3:
            quoted = set(_claim_numbers(unicodedata.normalize("NFKC", " ".join(rest[0]))).values) if rest else None
            content = _content_words(words)
            # the words no other can stand in for (no adverb, no synset): two claims on one
            # subject have the same ones (a cheap test before any word is looked up)
            fixed = frozenset(k for k, w in content.items() if senses[w] == (False, frozenset()))
            prepared.append((text, refs, sids, nums, words, quoted, content, fixed))
    out = []
    sorted_words = [_token_sorted(p[4]) for p in prepared]
    id_sets = [set(p[2]) for p in prepared]
    lookups = 0
    for i, a in enumerate(prepared):
        for k in _near(sorted_words[i], sorted_words[i + 1:], SAME_FACT_SCORE):
            j = i + 1 + k
            b = prepared[j]
            if (a[3].keys == b[3].keys or a[3].names != b[3].names or a[7] != b[7]
                    or id_sets[i] & id_sets[j]):
                continue
            values = _conflict(a[3], b[3])
            if values is None:
                continue
            if a[6].keys() != b[6].keys():
                if lookups >= MAX_SUBJECT_LOOKUPS:
                    continue  # two subjects, as far as anyone looked (the safe error)
                lookups += 1
                if not _same_subject_words(a[6], b[6], senses):
                    continue
            copies = same is not None and any(same(x, y) for x in a[2] for y in b[2])
            if copies and (a[5] is None or b[5] is None or a[5] == b[5]):
                continue
            out.append(Disagreement((a[0], b[0]), values, (a[1], b[1]), (a[2], b[2])))
            if len(out) >= MAX_DISAGREEMENTS:
                return out
    return out


# --- contradictions between cited quotes, beyond numbers -------------------------------------------
MAX_QUOTES_COMPARED = 400  # quotes; pairs grow quadratically
_AUX = frozenset(["do", "does", "did", "is", "are", "was", "were", "be", "been", "has", "have", "had", "can", "will"])
_EXPLICIT_NEG = frozenset(["not", "no", "never", "none", "nothing", "nobody", "nowhere", "neither", "nor", "without"])


@dataclass
class _Quote:
    n: int
    source: str
    text: str
    claim: str
    neg: int
    words: list[str]  # stems of content words, names, dates and numbers left out
    lows: set[str]
    numbers: frozenset[str]
    dates: frozenset[tuple]
    date_raw: list[str]
    names: frozenset[str]
    name_raw: dict[str, str]


def _prepare_quote(n: int, source: str, quote: str, claim: str) -> _Quote | None:
    from .claims.words import _NO_COMPARATIVE, _STOP, stem
    from .flags import _norm, find_dates, proper_names

    text = re.sub(r"n[\'’]t\b", " not", quote)
    text = re.sub(r"\bcannot\b", "can not", text, flags=re.IGNORECASE)
    dates = [d for d in find_dates(text) if d.valid]
    blank = list(text)
    for d in dates:
        blank[d.start:d.end] = " " * (d.end - d.start)
    undated = "".join(blank)
    names = {_norm(x).strip(): x for x in proper_names(undated)}
    names = {k: v for k, v in names.items() if k and not k.replace(" ", "").isdigit()}
    name_words = {w for k in names for w in k.split()}
    tokens = [w.casefold() for w in _WORD.findall(undated)]
    nums = frozenset(_numbers(undated))
    negators = sum(1 for i, w in enumerate(tokens) if w in _EXPLICIT_NEG
                   and not (i + 1 < len(tokens) and tokens[i + 1] in _NO_COMPARATIVE))  # "no more than 5"
    words = [stem(w) for w in tokens if w not in _STOP and w not in _EXPLICIT_NEG and w not in _AUX
             and w not in name_words and not w.isdigit()]
    if not words or len(words) + len(names) < 4:  # too little said to call it the same fact
        return None
    return _Quote(n, source, quote, claim, negators, words, set(tokens), nums,
                  frozenset(d.key() for d in dates), [d.raw for d in dates], frozenset(names), names)


PREFILTER_SCORE = 60
SAME_ORDER_SCORE = 80  # fuzz.ratio of the content words in order, for a polarity contradiction


def _implicit_negation(q: _Quote) -> bool:
    """Does the sentence negate without a negator ("only", "unless", "refuses", "absent",
    "unset")? Then a negator on the other side may say the same."""
    from .claims.words import _IMPLICIT_NEG

    return any(w in _IMPLICIT_NEG or (w.startswith("un") and len(w) > 5) for w in q.lows)


def _antonym_pair(a: _Quote, b: _Quote) -> tuple[str, str] | None:
    from .claims import lexicon
    from .claims.words import _ANTONYMS, _ORDER, stem

    only_a = [w for w in a.lows - b.lows if w.isalpha()]
    only_b = [w for w in b.lows - a.lows if w.isalpha()]
    if "than" in a.lows and "than" in b.lows:
        return None  # "A is more X than B" / "B is less X than A": a converse, not an opposite
    stems_a, stems_b = {stem(w) for w in a.lows}, {stem(w) for w in b.lows}
    for x in only_a:
        for y in only_b:
            if stem(x) in stems_b or stem(y) in stems_a:
                continue  # each side has both words: it says both things
            pair = frozenset((x, y))
            if (pair in _ANTONYMS and pair not in _ORDER) or (
                    len(x) > 2 and len(y) > 2 and stem(x) != stem(y) and lexicon.antonyms(x, y)):
                return x, y
    return None


def quote_contradictions(items: list[tuple[int, str, str, str]],
                         same: Callable[[str, str], bool] | None = None) -> list[Disagreement]:
    """items: (ref number, source id, quote as found, the claim it supports), found quotes
    only. Two quotes from different sources (not copies of one text, ``same``) that say
    the same thing about the same subject - their content words other than names, dates,
    numbers and negators match (``fuzz.token_sort_ratio`` >= :data:`SAME_FACT_SCORE`), and
    their other numbers are equal - contradict when (the first :data:`MAX_DISAGREEMENTS` pairs):

    * ``negation``: one negates and the other does not (explicit negators: not, n't, no,
      never, none, nothing, neither, nor, without), same names and dates;
    * ``antonym``: a word of one stands against its opposite in the other (the claim
      check's curated pairs, or WordNet antonyms), the rest matching, same names and dates;
    * ``date``: both give dates of the same precision and no date of one is in the other,
      same names;
    * ``name``: the two share a name (the subject) and each gives a name the other lacks.
    """
    prepared: list[_Quote] = []
    seen: set[tuple[str, str]] = set()
    for n, sid, quote, claim in items[:MAX_QUOTES_COMPARED]:
        key = (sid, " ".join(quote.split()).casefold())
        if key in seen:
            continue
        seen.add(key)
        q = _prepare_quote(n, sid, quote, claim)
        if q is not None:
            prepared.append(q)
    out: list[Disagreement] = []
    # Only quotes with the same numbers are compared: each is paired with the later quotes
    # of its group, in the order of the list (the order of the pairs found stays that of
    # comparing every pair). Each quote's normalised text and words are joined once.
    same_numbers: dict[frozenset[str], list[int]] = {}
    for i, q in enumerate(prepared):
        same_numbers.setdefault(q.numbers, []).append(i)
    flat = [" ".join(q.text.split()).casefold() for q in prepared]
    joined = [" ".join(sorted(q.words)) for q in prepared]  # as fuzz.token_sort_ratio compares them
    group_texts = {nums: [joined[i] for i in group] for nums, group in same_numbers.items()}
    for i, a in enumerate(prepared):
        group = same_numbers[a.numbers]
        at = bisect.bisect_right(group, i)
        # not near enough to be one fact even with one word swapped for its opposite: skipped
        for k in _near(joined[i], group_texts[a.numbers][at:], PREFILTER_SCORE):
            j = group[at + k]
            b = prepared[j]
            if a.source == b.source or flat[i] == flat[j]:
                continue
            wa, wb = a.words, b.words
            pair = _antonym_pair(a, b)
            if pair is not None:
                from .claims.words import stem

                sx, sy = stem(pair[0]), stem(pair[1])
                wa = [w for w in wa if w != sx]
                wb = [w for w in wb if w != sy]
            if fuzz.token_sort_ratio(" ".join(wa), " ".join(wb)) < SAME_FACT_SCORE:
                continue
            # opposite polarity only between sentences that also keep one word order (a
            # reordered paraphrase often trades "not X" for an implicit negation or a converse)
            ordered = fuzz.ratio(" ".join(wa), " ".join(wb)) >= SAME_ORDER_SCORE
            if same is not None and same(a.source, b.source):
                continue
            found = None
            if a.names == b.names and a.dates == b.dates:
                if (a.neg % 2) != (b.neg % 2) and ordered and not _implicit_negation(a if a.neg % 2 == 0 else b):
                    found = ("negation", ([w for w in _EXPLICIT_NEG if w in a.lows], [w for w in _EXPLICIT_NEG if w in b.lows]),
                             "one source states it, the other negates it")
                elif pair is not None and a.neg == b.neg and ordered:
                    found = ("antonym", ([pair[0]], [pair[1]]), f'one source says "{pair[0]}" where the other says "{pair[1]}"')
            elif (a.names == b.names and a.dates and b.dates and not (a.dates & b.dates)
                  and {len([x for x in k if x]) for k in a.dates} & {len([x for x in k if x]) for k in b.dates}
                  and a.neg == b.neg and pair is None):
                found = ("date", (a.date_raw, b.date_raw), "the sources give different dates for the same fact")
            elif (a.dates == b.dates and a.names & b.names and a.names - b.names and b.names - a.names
                  and a.neg == b.neg and pair is None):
                found = ("name", ([a.name_raw[k] for k in sorted(a.names - b.names)],
                                  [b.name_raw[k] for k in sorted(b.names - a.names)]),
                         "the sources name different things for the same fact")
            if found is not None:
                kind, values, detail = found
                out.append(Disagreement((a.claim, b.claim), ([], []), ([a.n], [b.n]), ([a.source], [b.source]),
                                        kind, values, (a.text, b.text), detail))
                if len(out) >= MAX_DISAGREEMENTS:
                    return out
    return out

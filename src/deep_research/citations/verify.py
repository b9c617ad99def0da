"""Check a quote against the text of the page it cites.

Only *cosmetic* differences are forgiven, and which ones is fixed here, not left to a
similarity score: a single changed number, an added "not" or one swapped word keeps
every word-overlap measure high, yet changes what the source says.

* verified  - the quote occurs in the cited page after NFKC-style normalisation, quote
              and dash variants, whitespace, markdown marks; it may lack the final
              period or be a contiguous part of a sentence. Both ends must fall on word
              boundaries ("possible" is not found inside "impossible").
* repaired  - the same holds for *another* source (the id is fixed), or the quote
              differs from the cited page only in letter case, accents or punctuation
              between words (never inside a number) and is replaced by the page's text.
* unsupported - anything else, and a quote too short to identify a passage (one word of
              under three letters or digits: "y", "42"), even when the page holds it.
"""

from __future__ import annotations

import html
import re
import unicodedata
from array import array
from functools import cached_property, lru_cache
from itertools import accumulate
from typing import Iterable

from ..terminal import ACTING_CHARS
from .fragments import _joined_by_punct, inside_word
from .mdscan import code_spans
from .model import QuoteCheck, Source, Verdict
from .page.text import _QUOTE_DASH, IGNORABLE, PageText, View

_OPEN_CLOSE = [('"', '"'), ("\u201c", "\u201d"), ("\u201e", "\u201c"), ("'", "'"), ("\u2018", "\u2019"),
               ("\u00ab", "\u00bb"), ("\u300c", "\u300d"), ("\u300e", "\u300f"), ("\u201d", "\u201d")]
# link text and destination bounded (1,000 / 2,000 characters), so that text of many "[a]("
# without a closing ")" costs linear time (unbounded, each "[" scanned to the end: 15 s for
# 60 KB of model output); a longer link stays as written
# a destination may hold balanced parentheses, one level deep ("wiki/Foo_(bar)"), as
# CommonMark reads it: cut at the first ")", the rest ("x)") was left as quote text
_MD_LINK = re.compile(r"!?\[([^\]]{0,1000})\]\((?:[^()\s]|\([^()\s]{0,2000}\)){0,2000}"
                      r"(?:\s+\"[^\"]{0,1000}\")?\)")
_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
# "**" between digits is a power ("2**10"), as pages keep it (page/__init__.py), not emphasis
_MD_MARKS = re.compile(r"(\*\*(?:(?<!\d..)|(?!\d))|__|~~|`+)")  # "**" not between two digits
# (the mark first, its neighbours tested after it: the same matches as "(?<![\w*])[*_](?=\w)|
# (?<=\w)[*_](?![\w*])", found twenty times faster - the engine looks only at "*" and "_")
_EDGE_EMPH = re.compile(r"[*_](?:(?<![\w*].)(?=\w)|(?<=\w.)(?![\w*]))")
# "the *n*th bit": emphasis on letters that ends inside a word (never around digits)
_INNER_EMPH = re.compile(r"(?<![\w*])\*([^\W\d_]+)\*(?=[^\W\d_])")
_HAS_ALNUM = re.compile(r"[^\W_]")
_FINAL_STOPS = ".\u3002\uff0e!?"
# Tokens: words and numbers; a sign, comparison, currency or percent symbol touching a
# digit is a token of its own, so "-5" and "5", "$5" and "€5" never compare equal.
_NUM_SYMBOL = "+\\-<>=≤≥≈~±%‰$€£¥₹°"
# scripts without spaces: each character is a token of its own
_SPACELESS = ("\\u0e00-\\u0eff\\u1000-\\u109f\\u1780-\\u17ff\\u2e80-\\u2fdf\\u3040-\\u30ff\\u3100-\\u312f"
              "\\u31a0-\\u31ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uff66-\\uff9f")
# One character class first, then what its kind needs: a symbol touching a digit (before or
# after it), one character of a spaceless script, or a run of word characters (joined by
# [.,'’:]). The same matches as the alternation of those three, found about a fifth faster:
# a pattern led by a class is scanned at C speed, an alternation is tried at every position.
_TOKEN = re.compile(
    f"[\\w{_NUM_SYMBOL}{_SPACELESS}]"
    f"(?:(?<=[{_NUM_SYMBOL}])(?:(?=\\d)|(?<=\\d.))"
    f"|(?<=[{_SPACELESS}])"
    f"|(?<=[^\\W{_SPACELESS}])[^\\W{_SPACELESS}]*"
    r"(?:[.,'’:][^\W\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+)*)"
)
_TOKEN_SPLIT = re.compile(f"({_TOKEN.pattern})")  # gaps and tokens, alternately


_CONTROL = re.compile(f"[{ACTING_CHARS}]")


@lru_cache(maxsize=65536)
def _canon_char(ch: str) -> str:
    """Cosmetic normal form of one character (case and accents kept). A control character
    a terminal acts on (an escape, a bidi override) is a space, as report.md writes it
    (``terminal.blank_controls``): the quote it wrote is found again."""
    if ch.isspace() or _CONTROL.match(ch):
        return " "
    if ch in IGNORABLE:
        return ""
    return unicodedata.normalize("NFKD", ch).translate(_QUOTE_DASH)


def canonical(s: str) -> str:
    if s.isascii():
        # str.split() already drops the controls that are whitespace (\t \n \x0b \x0c
        # \r \x1c-\x1f); any other control survives the join and fails isprintable(),
        # so the regex pass runs only on a text that holds one
        joined = " ".join(s.split())
        return joined if joined.isprintable() else " ".join(_CONTROL.sub(" ", s).split())
    out: list[str] = []
    prev_space = True
    for ch in s:
        c = _canon_char(ch)
        if c == " ":
            if not prev_space:
                out.append(" ")
            prev_space = True
        elif c:
            out.append(c)
            prev_space = False
    return "".join(out).rstrip()


_OPENING_MARKS = frozenset(a for a, _ in _OPEN_CLOSE)  # (one character each)


def strip_quote_marks(quote: str) -> str:
    q = quote.strip()
    if len(q) < 2 or q[0] not in _OPENING_MARKS:
        return q  # (most quotes: no pair to try)
    for a, b in _OPEN_CLOSE:
        if len(q) >= 2 and q.startswith(a) and q.endswith(b):
            return q[1:-1].strip()
    return q


_MARKUP_CHARS = re.compile(r"[`\\*_~\[&]")
_PROTECT = {"_": "\ue000", "*": "\ue001", "`": "\ue002", "~": "\ue003"}
_RESTORE = str.maketrans({v: k for k, v in _PROTECT.items()})
_PROTECTED = re.compile("[" + "".join(_PROTECT.values()) + "]")  # (a protected character, to restore)


def clean_quote(quote: str) -> str:
    """The quote without enclosing quote marks, markdown syntax or HTML entities: what a
    reader of the source would see."""
    return _without_markup(strip_quote_marks(quote))


def _without_markup(q: str) -> str:
    if not _MARKUP_CHARS.search(q):
        return q  # plain prose, the common case: nothing to remove
    # code spans and escaped characters are literal text: protect them from the markup
    # removal below
    protect = str.maketrans(_PROTECT)
    if "`" in q:  # CommonMark code spans, found in one pass (a regex here was cubic in backticks)
        out, pos = [], 0
        for a, b in code_spans(q):
            run = len(q[a:b]) - len(q[a:b].lstrip("`"))
            out += [q[pos:a], q[a + run:b - run].translate(protect)]
            pos = b
        q = "".join(out) + q[pos:]
    # each pattern runs only when the text holds a character it cannot match without (a
    # long quote with one "_" in a name need not be searched five times)
    if "\\" in q:
        q = _MD_ESCAPE.sub(lambda m: _PROTECT.get(m.group(1), m.group(1)), q)
    if "](" in q:
        q = _MD_LINK.sub(lambda m: m.group(1), q)
    if "**" in q or "__" in q or "~~" in q or "`" in q:
        q = _MD_MARKS.sub("", q)
    if "*" in q:
        q = _INNER_EMPH.sub(r"\1", q)
    if "*" in q or "_" in q:
        q = _EDGE_EMPH.sub("", q)
    if _PROTECTED.search(q):  # (translate looks up every character of a non-ASCII text: slow on articles)
        q = q.translate(_RESTORE)
    if "&" in q:
        q = html.unescape(q)
    return q.strip()


def _aligned(c: str, pos: int) -> bool:
    """A quote may start or end here: not inside a word, nor inside a number such as
    3.5 or 1,000."""
    if inside_word(c, pos):
        return False
    return not (0 < pos < len(c) and _joined_by_punct(c, pos))


def _deep(s: str) -> str:
    """Case- and accent-blind form used for the cosmetic-repair comparison."""
    if s.isascii():
        return s.lower()
    folded = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c)).casefold()
    return folded.translate(_QUOTE_DASH)


def tokens(s: str) -> list[str]:
    return _TOKEN.findall(_deep(s))


def ascii_skeleton(s: str) -> str:
    return unicodedata.normalize("NFKD", s.casefold()).encode("ascii", "ignore").decode("ascii")


_ASCII_WORD = re.compile(r"[a-z0-9]{4,}")


PREFILTER_MISSES = 32
_NO_IDS: set[str] = set()


def _probe_words(forms: list[str]) -> list[str]:
    """The three longest ASCII words every accepted form of the quote shares."""
    common: set[str] | None = None
    for f in forms:
        words = set(_ASCII_WORD.findall(ascii_skeleton(f)))
        common = words if common is None else common & words
    return sorted(common or (), key=lambda w: (-len(w), w))[:3]


@lru_cache(maxsize=65536)
def _deep_char(ch: str) -> str:
    if ch.isspace() or _CONTROL.match(ch):
        return " "
    if ch in IGNORABLE:
        return ""
    return _deep(ch)


class IndexedSource:
    """A source with the views verification needs, built once. ``page`` is the reading of
    the source's content to search (default: ``source.page``)."""

    def __init__(self, source: Source, page: PageText | None = None):
        self.source = source
        self.page = page if page is not None else source.page
        self.primary = page is None

    @cached_property
    def alternate(self) -> IndexedSource | None:
        """The other plausible reading of the content (converter markdown read as strict
        CommonMark where the lenient reading applied a rule), when there is one."""
        alt = self.page.alternate if self.primary else None
        return IndexedSource(self.source, alt) if alt is not None else None

    @cached_property
    def canon_view(self) -> View:
        """Canonical text (cosmetic differences normalised, whitespace collapsed)."""
        return View(self.page.text, _canon_char, collapse=True)

    @cached_property
    def deep_view(self) -> View:
        """The case- and accent-blind view (whitespace collapsed). It shares the canonical
        view's offsets when that one is built and the two folds give each character the
        same length (accents aside, the common case)."""
        canon = self.__dict__.get("canon_view")
        return (canon.refold(self.page.text, _deep_char) if canon is not None
                else View(self.page.text, _deep_char, collapse=True))

    @cached_property
    def token_index(self) -> tuple[str, array, View]:
        """Tokens joined by \x1f, where each piece of the case- and accent-blind view
        starts (the text between tokens and the tokens, alternately: token k is
        ``deep.text[bounds[2k + 1]:bounds[2k + 2]]``), and that view. One ``re.split``
        gives every token and gap at C speed (no match object per token)."""
        deep = self.deep_view
        parts = _TOKEN_SPLIT.split(deep.text)
        bounds = array("i", accumulate(map(len, parts), initial=0))
        return "\x1f" + "\x1f".join(parts[1::2]) + "\x1f", bounds, deep

    @cached_property
    def ascii_fold(self) -> str:
        """Lower-case ASCII skeleton of the page (accents and other scripts dropped): a
        cheap, C-speed filter for "could this page hold the quote at all?"."""
        return ascii_skeleton(self.page.text)

    @cached_property
    def token_set(self) -> frozenset[str]:
        """Every token of the page (and "", as the index's split gives it): from the token
        index when it is built, else one C-speed pass over the blind view."""
        index = self.__dict__.get("token_index")
        if index is not None:
            return frozenset(index[0].split("\x1f"))
        return frozenset(_TOKEN.findall(self.deep_view.text)) | _EMPTY_TOKEN

    def find_exact(self, q: str) -> tuple[int, int] | None:
        """Rendered span of the first word-aligned occurrence of canonical quote q."""
        view = self.canon_view
        c = view.text
        pos = c.find(q)
        while pos != -1:
            end = pos + len(q)
            if _aligned(c, pos) and _aligned(c, end):
                return view.source_span(pos, end)
            pos = c.find(q, pos + 1)
        return None

    def find_tokens(self, qtokens: list[str]) -> tuple[int, int] | None:
        """Rendered span of the first run of tokens equal to qtokens. Until the page's token
        index is built (:meth:`_scan_tokens`), the run is looked for in the blind view."""
        if not qtokens:
            return None
        if "token_index" not in self.__dict__:
            found = self._scan_tokens(qtokens)
            if found is not _UNDECIDED:
                return found
        joined, bounds, deep = self.token_index
        pos = joined.find("\x1f" + "\x1f".join(qtokens) + "\x1f")
        if pos == -1:
            return None
        first = joined.count("\x1f", 0, pos)  # tokens before the match
        last = first + len(qtokens) - 1
        return deep.source_span(bounds[2 * first + 1], bounds[2 * last + 2])

    def _scan_tokens(self, qtokens: list[str]) -> tuple[int, int] | None:
        """:meth:`find_tokens` without the page's token index (a few quotes of a page need
        no index of its every token): the blind view searched for the first tokens in
        order with nothing but non-word characters between them, as every run of those
        tokens stands (the tokenizer makes a token of every word character it reaches).
        Each place found is confirmed by the tokenizer itself, run from the space before
        it (no token holds a space, so the tokens from there on are the page's own), for
        the whole run; the first confirmed is the first run. After :data:`SCAN_TRIES`
        places the tokenizer does not confirm (a head found inside longer words, or again
        and again with another tail), or at a place with no space in the :data:`SCAN_BACK`
        characters before it (text of a spaceless script), ``_UNDECIDED``: the index decides."""
        deep = self.deep_view
        text = deep.text
        head = _head_pattern(tuple(qtokens[:SCAN_HEAD]))
        pos = 0
        for _ in range(SCAN_TRIES):
            m = head.search(text, pos)
            if m is None:
                return None
            start = m.start()
            if start - text.rfind(" ", 0, start) > SCAN_BACK:
                return _UNDECIDED  # no space near (a spaceless script): the tokenizer would start far back
            end = _run_end(text, start, qtokens)
            if end is not None:
                return deep.source_span(start, end)
            pos = start + 1
        return _UNDECIDED


SCAN_HEAD = 3  # tokens of the searched head: a few keep the pattern quick to compile and rarely met
SCAN_TRIES = 16
SCAN_BACK = 1000  # the farthest back a confirmation starts the tokenizer
_UNDECIDED = (-1, -1)  # told apart by identity: no span of a page
_EMPTY_TOKEN = frozenset({""})


@lru_cache(maxsize=4096)
def _head_pattern(head: tuple[str, ...]) -> re.Pattern:
    """The first tokens of a quote with nothing but non-word characters between them. Kept
    here: a report scans for one head again and again (a quote cited more than once, the
    forms of a quote), and the regex module's own cache of 512 patterns is shared with
    every pattern the claim check compiles (a compile costs about 50 us)."""
    return re.compile(r"\W*".join(map(re.escape, head)))


def _run_end(text: str, start: int, qtokens: list[str]) -> int | None:
    """Where the run of ``qtokens`` starting at ``start`` ends, when the tokenizer reads
    them there (the first a token that starts at ``start``), else None."""
    want = iter(qtokens)
    end = None
    for m in _TOKEN.finditer(text, text.rfind(" ", 0, start) + 1):
        if end is None and m.start() < start:
            continue
        if end is None and m.start() > start:
            return None
        tok = next(want, None)
        if tok is None:
            return end
        if m.group() != tok:
            return None
        end = m.end()
    return end if next(want, None) is None else None


def _quote_forms(quote: str) -> tuple[str, list[str], list[str]]:
    """Canonical forms of a quote to try: without markdown syntax, then exactly as written
    (for pages whose text really holds __init__ or *), each also without a final stop.
    Third: the forms "as written" that hold more than the first (enclosing quote marks,
    marks that read as markdown, entities typed as text), most complete first."""
    q0 = quote.strip()
    stripped = strip_quote_marks(q0)
    q = canonical(_without_markup(stripped))
    markup = bool(_MARKUP_CHARS.search(stripped))
    literal = canonical(html.unescape(stripped)) if markup else q
    # a page about HTML may show an entity as text ("Unescape '&amp;'"): the quote as typed
    verbatim = canonical(stripped) if "&" in stripped else literal
    forms: list[str] = []
    for f in (q, literal, verbatim):
        if f and f not in forms:
            forms.append(f)
        if f and f[-1] in _FINAL_STOPS:
            short = f.rstrip(_FINAL_STOPS).rstrip()
            if short and short not in forms:
                forms.append(short)
    wider: list[str] = []
    if q0 != stripped:
        wider.append(canonical(html.unescape(q0)))
    wider += [f for f in (literal, verbatim) if f != q]
    return q, forms, list(dict.fromkeys(w for w in wider if w and w != q))


class SourceIndex:
    """All sources of a report, for checking its quotes."""

    def __init__(self, sources: Iterable[Source]):
        self.sources: dict[str, IndexedSource] = {}
        self._token_sources: dict[str, set[str]] | None = None
        self._misses = 0
        for s in sources:
            self.sources[s.id] = IndexedSource(s)

    def __contains__(self, source_id: str) -> bool:
        return source_id in self.sources

    def source(self, source_id: str) -> Source:
        return self.sources[source_id].source

    def _exact(self, src: IndexedSource, forms: list[str]) -> tuple[int, int] | None:
        for f in forms:
            span = src.find_exact(f)
            if span:
                return span
        return None

    def _postings(self) -> dict[str, set[str]]:
        """token -> ids of the sources that contain it (built on first need)."""
        if self._token_sources is None:
            post: dict[str, set[str]] = {}
            for sid, src in self.sources.items():
                for tok in src.token_set:
                    post.setdefault(tok, set()).add(sid)
            self._token_sources = post
        return self._token_sources

    def _candidates(self, token_forms: list[list[str]], exclude: str,
                    forms: list[str] | None = None) -> list[IndexedSource]:
        """Sources other than ``exclude`` holding every word of the quote (one of its forms)."""
        self._misses += 1
        probes = _probe_words(forms or []) if self._token_sources is None else None
        if probes and self._misses <= PREFILTER_MISSES:
            # A few misses: a C-speed pass over each page's ASCII skeleton, building the
            # full views only for the pages that pass. Many misses: the word index below
            # (built once) is cheaper.
            return [src for sid, src in self.sources.items()
                    if sid != exclude and all(p in src.ascii_fold for p in probes)]
        post = self._postings()
        ids: set[str] = set()
        for toks in token_forms:
            if not toks:
                continue
            ids |= set.intersection(*(post.get(tok, _NO_IDS) for tok in set(toks)))
        ids.discard(exclude)
        return [self.sources[i] for i in self.sources if i in ids]  # keep source order

    @staticmethod
    def _widest(src: IndexedSource, wider: list[str], span: tuple[int, int]) -> tuple[int, int]:
        """The span of the quote with the symbols it was written with, when the page shows
        them: enclosing quote marks ("'George Lucas'") or a mark that reads as markdown
        ("os.spawn*"). The page holding the quote exactly as written wins over a match of
        its words only, so that the highlight is the whole quote."""
        for form in wider:
            wide = src.find_exact(form)
            if wide:
                return wide
        return span

    def verify(self, quote: str, source_id: str) -> QuoteCheck:
        canon, forms, wider = _quote_forms(quote)
        if not canon or not _HAS_ALNUM.search(canon):
            return QuoteCheck(Verdict.UNSUPPORTED, source_id, how="empty quote")
        cited = self.sources.get(source_id)
        if _too_short(canon):  # never verified, nor repaired to another source
            return QuoteCheck(Verdict.UNSUPPORTED, source_id,
                              how=TOO_SHORT if cited else f"unknown source id {source_id!r}")
        if cited is not None:
            span = cited.find_exact(forms[0])  # the common case: found as written
            if span:
                if wider:
                    span = self._widest(cited, wider, span)
                return QuoteCheck(Verdict.VERIFIED, source_id, *span)
        token_forms: list[list[str]] = []
        for f in forms:
            if f[-1] in _FINAL_STOPS and f.rstrip(_FINAL_STOPS).rstrip() in forms:
                continue  # a final stop is not a token: same tokens as the form without it
            toks = tokens(f)
            if toks and toks not in token_forms:
                token_forms.append(toks)
        # A page that lacks one of the quote's words cannot hold it in any form (a reading
        # that holds a run of a form's tokens holds them all: its word set is read only
        # when that run is missing and an exact form is found). Converter markdown may have
        # a second plausible reading (``alternate``): the quote is checked against both,
        # exact forms first. A quote that differs from the cited reading only in its first
        # letter's case ("the ..." cut from "The ...") is repaired on that reading without
        # building the other one.
        runs: list[tuple[IndexedSource, tuple[int, int]]] = []  # each reading's first run of a form's tokens
        if cited is not None:
            run = _first_tokens(cited, token_forms)
            span = self._exact(cited, forms[1:])
            if span and (run or _may_hold(cited, token_forms)):
                return QuoteCheck(Verdict.VERIFIED, source_id, *span, page=_page_of(cited))
            if run:
                if _first_letter_recased(cited, forms[0]):
                    return QuoteCheck(Verdict.REPAIRED, source_id, *run, page=_page_of(cited), how=_CASE_ONLY)
                runs.append((cited, run))
        alternate = cited.alternate if cited is not None else None
        if alternate is not None:
            run = _first_tokens(alternate, token_forms)
            span = self._exact(alternate, forms)
            if span and (run or _may_hold(alternate, token_forms)):
                if wider:
                    span = self._widest(alternate, wider, span)
                return QuoteCheck(Verdict.VERIFIED, source_id, *span, page=_page_of(alternate))
            if run:
                runs.append((alternate, run))
        if runs:
            reading, run = runs[0]
            return QuoteCheck(Verdict.REPAIRED, source_id, *run, page=_page_of(reading), how=_CASE_ONLY)
        others = self._candidates(token_forms, source_id, forms)
        for src in others:
            span = self._exact(src, forms)
            if span:
                return QuoteCheck(Verdict.REPAIRED, src.source.id, *span,
                                  how=f"found verbatim in source {src.source.id}, not {source_id}")
        for src in others:
            for toks in token_forms:
                span = src.find_tokens(toks)
                if span:
                    return QuoteCheck(Verdict.REPAIRED, src.source.id, *span,
                                      how=f"found in source {src.source.id} (not {source_id}) up to case, "
                                      "accents or punctuation")
        why = "quote not found in the cited page" if cited else f"unknown source id {source_id!r}"
        return QuoteCheck(Verdict.UNSUPPORTED, source_id, how=why)


_CASE_ONLY = "differs from the page only in case, accents or punctuation"
TOO_SHORT = "the quote is too short to identify a passage"


_THREE_ALNUM = re.compile(r"[^\W_](?:[\W_]*[^\W_]){2}")  # three str.isalnum() characters


def _too_short(canon: str) -> bool:
    """One word of under three letters or digits ("y", "42") identifies no sentence: found
    on the page, it would prove nothing. Two words ("no way"), a version ("3.11") or a
    term ("SQL") may stand for the passage a claim cites. (A quote with three letters or
    digits, nearly every one, is not too short whatever its words: they are not read.)"""
    if _THREE_ALNUM.search(canon):
        return False
    return len(tokens(canon)) < 2 and sum(ch.isalnum() for ch in canon) < 3


def _may_hold(reading: IndexedSource, token_forms: list[list[str]]) -> bool:
    """Does the reading hold every word of one of the quote's forms?"""
    return any(set(t) <= reading.token_set for t in token_forms)


def _first_tokens(reading: IndexedSource, token_forms: list[list[str]]) -> tuple[int, int] | None:
    """Rendered span of the first form whose words the reading holds in a run."""
    for toks in token_forms:
        span = reading.find_tokens(toks)
        if span:
            return span
    return None


def _first_letter_recased(reading: IndexedSource, q: str) -> bool:
    """Does the reading hold canonical quote q as written but for its first letter's case?"""
    first = q[0].lower() if q[0].isupper() else q[0].upper()
    return len(first) == 1 and first != q[0] and reading.find_exact(first + q[1:]) is not None


def _page_of(reading: IndexedSource) -> PageText | None:
    """The reading a QuoteCheck's span refers to: None for the source's own page."""
    return None if reading.primary else reading.page


def verify_quote(quote: str, source: Source, others: Iterable[Source] = ()) -> QuoteCheck:
    """Check one quote against its source (and, for repair, other sources)."""
    return SourceIndex([source, *others]).verify(quote, source.id)

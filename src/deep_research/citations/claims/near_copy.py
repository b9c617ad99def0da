"""The ``near_copy`` rule: a claim that repeats a quote with a word swapped for its
antonym, another order, quantifier or modal, or another name."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from itertools import compress

from rapidfuzz.distance import Indel, Levenshtein

from .contradiction import sentence_bounds, terms_crossed, verdict
from .negation import _negation_in_block
from .types import _NUM, _WORD, ClaimCheck, ClaimStatus, _Text, derived
from .words import (
    _ANTONYM_PREFIXES,
    _ANTONYMS,
    _ARTICLES,
    _MODAL,
    _ORDER,
    _QUANT,
)

MAX_ALIGN_TOKENS = 400


NEAR_COPY_SHARE = 0.5  # share of claim content words in one quote for it to be a near copy


SHORT_COPY_SIMILARITY = 0.6  # or: token similarity of claim and quote (short claims)


def _prefix_antonym(a: str, b: str) -> bool:
    for p in _ANTONYM_PREFIXES:
        if (a.startswith(p) and a[len(p):] == b and len(b) >= 4) or (b.startswith(p) and b[len(p):] == a and len(a) >= 4):
            return True
    return False


def _count(texts: list[_Text], stem_: str) -> int:
    if len(texts) == 1:  # most claims cite one quote
        return len(texts[0].positions.get(stem_, ()))
    return sum(len(t.positions.get(stem_, ())) for t in texts)


# words that open a condition, a question left open or an absence: an "any" after them says
# "some" (one or more), not "every" ("if any fields are found", "whether any rows match",
# "without any warning")
_EXISTENTIAL_OPENERS = frozenset({"if", "when", "whenever", "unless", "whether", "without"})


def _existential_any(t: _Text, k: int) -> bool:
    """Is the word at ``k`` an "any" that reads "some": after a condition word, "whether" or
    "without" at most four tokens before it in its clause ("If any attributes are annotated",
    "without any change"), or in a question ("Are any rows left?")? Only "any" in a main
    clause says "every" ("any user can log in")."""
    if t.low[k] != "any":
        return False
    if any(t.low[x] in _EXISTENTIAL_OPENERS for x in range(max(0, k - 4), k) if t.clause[x] == t.clause[k]):
        return True
    _lo, hi = sentence_bounds(t, k)
    return t.raw[hi - 1] == "?"


def _substitution_kind(claim: _Text, ci: int, quote: _Text, qj: int, quotes: list[_Text],
                       in_place: bool, sandwich: bool = False) -> str | None:
    """What a claim token put in the place of a quote token changes, if it is a closed-class
    change or another name. Words only trade places when the claim holds each word as
    often as the quotes do; a replacement shows as a claim word the quotes have fewer of
    (gain) and a quote word the claim has fewer of (loss). ``in_place`` (same position
    between equal stretches, or at a common end): gain or loss is enough; otherwise both
    are needed. ``sandwich``: one token for one, between equal stretches on both sides."""
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
        if _negated_near(claim, ci) != _negated_near(quote, qj):
            return None  # "cannot be removed before X" / "only removed after X": a negation turns it
        return None if terms_crossed(claim, ci, quote, qj) else "order"  # "B after A" / "A before B"
    if (pair in _ANTONYMS or _prefix_antonym(cs, qs) or cl in _QUANT and ql in _QUANT) \
            and _both_ends_joined(claim, ci, qs) and _joined(quote, qj) is not None:
        return None  # "too many or too few" / "too few or too much": both ends, in another order
    if pair in _ANTONYMS or _prefix_antonym(cs, qs):
        if _negated_near(claim, ci) != _negated_near(quote, qj) or _converse(claim, quote):
            return None  # "unnecessary" / "not necessary": the same statement
        return "antonym"
    if (cl in _QUANT or cl in _MODAL) and _negated_near(claim, ci) != _negated_near(quote, qj):
        return None  # "rarely" / "not often": a negation turns the word's strength around
    if cl in _QUANT and ql in _QUANT:
        gc = "some" if cl == "few" and ci and claim.low[ci - 1] in ("a", "quite") else _QUANT[cl]
        gq = "some" if ql == "few" and qj and quote.low[qj - 1] in ("a", "quite") else _QUANT[ql]
        if {gc, gq} == {"all", "some"} and _existential_any(claim, ci) | _existential_any(quote, qj):
            return None  # "If any attributes are annotated" / "When some attributes are annotated"
        return "quantifier" if gc != gq else None
    if cl in _MODAL and ql in _MODAL:
        gc, gq = _modal_group(claim, ci), _modal_group(quote, qj)
        return "modal" if gc != gq and {gc, gq} != {"will", "should"} else None
    if claim.entity[ci] and quote.entity[qj] and cl not in _NAME_PRONOUNS and ql not in _NAME_PRONOUNS \
            and not _notation(claim, ci) and not _notation(quote, qj) and _name_swap(claim, ci, quote, qj) and not _variant_nearby(claim, ci, quote, qj) \
            and _with_version(claim, ci) != _with_version(quote, qj):
        if _negated_near(claim, ci) != _negated_near(quote, qj):
            return None  # "is not an American series" / "is a French series": one side denies its name
        if _title_cased(claim, ci) != _title_cased(quote, qj):
            return None  # "selling his island in Lake X" / "Is Selling His Island For 7 Million": a
            # capital in a headline shows no name (two headlines capitalise alike: compared)
        cr, qr = claim.raw[ci], quote.raw[qj]
        gain = claim.raw.count(cr) > sum(derived(t, _raw_counts)[cr] for t in quotes)
        loss = claim.raw.count(qr) < sum(derived(t, _raw_counts)[qr] for t in quotes)
        if not loss and not _only_denied(claim, qr):
            return None  # the quote's name is still in the claim: a name added or moved, not swapped
        if _shortened_name(claim, ci, quotes):
            return None  # "Steve Sotloff" / "Steven Sotloff": one given name shortened, the same surname
        if _names_cross(claim, ci, quote, qj):
            return None  # "Charles Dickens ... Tim" / "Tiny Tim ... Dickens": two names misaligned
        if _both_ends_joined(claim, ci, quote.stems[qj]):
            return None  # "over both IPv4 and IPv6" / "tcp/ipv6": the claim names the quote's name too
        if sandwich and (gain or loss):
            if _stated_beside(claim, ci, quotes):
                return None  # "in the Olympics in 1896" / "in Athens in 1896", and "the 1896 Olympics in Athens"
            return "entity"  # the same words on both sides, one name for another
        if (gain or loss) if in_place else (gain and loss):
            # at an end, or the names in a longer differing stretch: only a name the quotes
            # do not write in any form proves a swap
            return None if _name_in_quotes(cr, quotes) else "entity"
    return None


_MANTISSA = re.compile(r"\d+(?:\.\d+)?[eE]")


def _notation(t: _Text, k: int) -> bool:
    """Is the token at ``k`` a piece of a number's notation, not a name: the mantissa of a
    number in scientific notation ("1.04e" of "1.04e-11") or a TeX command ("times10" of
    "1.04\\times10^{-11}")? Numbers are the number rules' to compare ("4M" / "2M" is still a
    name swapped)."""
    return _MANTISSA.fullmatch(t.raw[k]) is not None or (k > 0 and t.raw[k - 1] == "\\")


def _title_cased(t: _Text, k: int) -> bool:
    """Is the sentence of ``k`` written in title case, as a headline is ("Flight Delayed Due To
    Storm", "Agency Confirms Video Showing The Crash")? Every word after the first starts with
    a capital letter, but for words of at most three letters ("of", "the", "al"), and four
    such capitalised words at least, not all in capitals. Every word looks like a name there:
    the capital shows none."""
    lo, hi = sentence_bounds(t, k)
    capitals = 0
    for x in range(lo + 1, hi):
        r = t.raw[x]
        if t.kinds[x] != _WORD or not r[:1].isalpha():
            continue
        if r[:1].islower():
            if len(r) > 3:
                return False
        elif not r.isupper():
            capitals += 1
    return capitals >= 4


_JOINS = frozenset({"or", "and", "nor"})


def _joined(t: _Text, k: int) -> int | None:
    """The word joined to the word at ``k`` by "or" / "and" / "nor" right before or after it
    (past an adverb such as "too": "too many or too few"), in its clause, or None."""
    for step in (-1, 1):
        x = k + step
        if 0 <= x < len(t.raw) and t.low[x] in _JOINS:
            y = x + step
            while 0 <= y < len(t.raw) and abs(y - x) <= 2 and t.clause[y] == t.clause[k]:
                if t.kinds[y] == _WORD and t.low[y] not in ("too", "very", "so", "the", "a", "an"):
                    return y
                y += step
    return None


def _both_ends_joined(claim: _Text, ci: int, quote_stem: str) -> bool:
    """Does the claim join its word at ``ci`` by "or" / "and" to the quote's word itself ("too
    many or too few" where the quote says "too few or too much")? The claim then states both
    words of the pair, and the alignment paired them in another order: no swap."""
    y = _joined(claim, ci)
    return y is not None and claim.stems[y] == quote_stem


def _stated_beside(claim: _Text, ci: int, quotes: list[_Text]) -> bool:
    """Does some quote write the claim's name at ``ci`` within three tokens of the number the
    claim sets right beside it (the nearest content word on either side, within three
    tokens, in its clause, when it is a number): "showed up in the Olympics in 1896" where
    one quote says "in Athens in 1896" and another "since the 1896 Olympics in Athens"? The
    quotes then state the claim's name with that very date or count, and the one the
    alignment paired it with is another name of the same event, not the one the claim
    swapped. (A common word beside it - "the INT signal" / "the INT and QUIT signals" - ties
    nothing: any name of its kind stands beside it.)"""
    name = claim.stems[ci]
    beside = set()
    for step in (-1, 1):
        x = ci + step
        while 0 <= x < len(claim.raw) and abs(x - ci) <= 3 and claim.clause[x] == claim.clause[ci]:
            if claim.content[x]:
                if claim.kinds[x] == _NUM and claim.stems[x].startswith("#"):
                    beside.add(claim.stems[x])
                break
            x += step
    if not beside:
        return False
    for q in quotes:
        for y in q.positions.get(name, ()):
            if any(q.stems[z] in beside and q.clause[z] == q.clause[y]
                   for z in range(max(0, y - 3), min(len(q.raw), y + 4)) if z != y):
                return True
    return False


_CAN_WORDS = frozenset({"possible", "impossible", "able", "unable"})

# A capitalised pronoun in mid-sentence ("of course, It is a duo ...") reads as a name; it
# stands for the quote's name, it does not swap it (fresh12 dialfact: "It" / "ICP"); so does a
# demonstrative after a heading with no stop ("## Ibuprofen This medication ..."). (Named apart
# from the function-word pronouns below, which once shadowed this list and let "This" be a name.)
_NAME_PRONOUNS = frozenset({"it", "its", "itself", "he", "him", "his", "himself", "she", "her", "hers", "herself",
                            "they", "them", "their", "theirs", "themselves", "we", "us", "our", "ours", "ourselves",
                            "you", "your", "yours", "yourself", "yourselves", "i", "me", "my", "mine", "myself",
                            "this", "these", "those"})


def _modal_group(t: _Text, k: int) -> str:
    """The modal group of the modal at k; "will be possible" / "would be able to" say "can".
    "will" and "should" (what is expected to happen) are told apart by the caller."""
    g = _MODAL[t.low[k]]
    if g == "will" and any(t.low[x] in _CAN_WORDS for x in range(k + 1, min(len(t.low), k + 5))
                           if t.clause[x] == t.clause[k]):
        return "may"
    return g


_DENYING = frozenset({"than", "instead", "unlike", "not", "no", "never", "nor", "without"})


def _only_denied(t: _Text, name: str) -> bool:
    """Does t write ``name`` only right after a word that sets it aside ("rather than the
    EventEmitter API", "instead of X", "not X")? Then the name is not kept: it is denied."""
    at = [k for k, r in enumerate(t.raw) if r == name]
    return bool(at) and all(any(t.low[p] in _DENYING for p in range(max(0, k - 3), k)) for k in at)


def _name_run(t: _Text, k: int) -> list[str]:
    """The other words of the capitalised name the word at k belongs to ("Dickens" of
    "Charles Dickens")."""
    out = []
    for step in (-1, 1):
        p = k + step
        while 0 <= p < len(t.raw) and t.kinds[p] == _WORD and t.raw[p][:1].isupper() and not t.sent_start[p]:
            out.append(t.raw[p])
            p += step
    return out


def _names_cross(claim: _Text, ci: int, quote: _Text, qj: int) -> bool:
    """Were two names of several words aligned on their wrong words: another word of the
    claim's name stands in the quote and another, different word of the quote's name in the
    claim ("Charles Dickens modeled Tim" / "For Tiny Tim, Dickens used")? "Vietnam War" /
    "Cold War" share only "War": a swap."""
    a = {w for w in _name_run(claim, ci) if w in quote.rawset}
    b = {w for w in _name_run(quote, qj) if w in claim.rawset}
    return bool(a - b and b - a)


def _variant_nearby(claim: _Text, ci: int, quote: _Text, qj: int) -> bool:
    """Does the quote write a variant of the claim's name right next to the name the two
    were aligned on ("human ace2-transgenic" / "K18-hACE2-transgenic")? Then the alignment
    paired the wrong names."""
    a = _squeeze(claim.raw[ci])
    if len(a) < 3:
        return False
    for x in range(max(0, qj - 2), min(len(quote.raw), qj + 3)):
        if x != qj and quote.entity[x]:
            b = _squeeze(quote.raw[x])
            if len(b) >= 3 and (a in b or b in a):
                return True
    return False


def _with_version(t: _Text, k: int) -> str:
    """The name at k with the version written after it, squeezed (``_squeeze``): "HTTP/2",
    "HTTP 2" and "HTTP2" are one name, "HTTP/1.1" another. A version joined to the name or set
    after it by "/" or a space is part of the name: "SPDY or HTTP/2" / "SPDY/HTTP2" names no
    other protocol."""
    out = t.raw[k]
    x = k + 1
    if x < len(t.raw) and t.raw[x] == "/":
        x += 1
    if x < len(t.raw) and t.raw[x][:1].isdigit():
        out += t.raw[x]
    return _squeeze(out)


def _squeeze(text: str) -> str:
    """Letters and digits only, case and accents folded: "SARS-CoV-2" -> "sarscov2"."""
    return "".join(ch for ch in _fold(text) if ch.isalnum())


def _shortened_name(claim: _Text, ci: int, quotes: list[_Text]) -> bool:
    """Does the claim's name at ``ci`` stand before a name (a surname) that some quote writes
    right after a longer or shorter form of it - one the beginning of the other, three letters
    at least ("Steve Sotloff" / "Steven Sotloff", "Chris Nolan" / "Christopher Nolan")? A given
    name shortened before the same surname names the same person."""
    nxt = ci + 1
    if nxt >= len(claim.raw) or not claim.entity[nxt] or claim.kinds[ci] != _WORD:
        return False
    name, surname = claim.low[ci], claim.low[nxt]
    for t in quotes:
        for x in t.positions.get(claim.stems[nxt], ()):
            if x and t.low[x] == surname and t.raw[x - 1][:1].isupper() and t.low[x - 1] != name \
                    and min(len(name), len(t.low[x - 1])) >= 3 \
                    and (t.low[x - 1].startswith(name) or name.startswith(t.low[x - 1])):
                return True
    return False


def _name_in_quotes(name: str, quotes: list[_Text]) -> bool:
    """Do the quotes write the claim's name, perhaps spaced, hyphenated, cased or qualified
    otherwise ("covid19" / "Covid-19", "CO2" / "CO 2", "HttpRequest.get_host" /
    "django.http.HttpRequest.get_host")? Another name in its place proves nothing then:
    the claim may name what the quote names elsewhere."""
    key = _squeeze(name)
    if not key:
        return False
    for t in quotes:
        if name in derived(t, _qualified_tails):
            return True  # a qualified name
        squeezed, starts = derived(t, _squeezed_tokens)
        # runs of up to five tokens whose squeezed forms make the key: a run starts with a
        # token squeezed to a prefix of the key (a token squeezed to nothing adds nothing)
        for i in sorted(x for n in range(1, len(key) + 1) for x in starts.get(key[:n], ())):
            acc = ""
            for j in range(i, min(i + 5, len(squeezed))):
                acc += squeezed[j]
                if acc == key:
                    return True
                if len(acc) >= len(key) or not key.startswith(acc):
                    break
    return False


def _qualified_tails(t: _Text) -> frozenset[str]:
    """What follows each "." of each token ("get_host", "HttpRequest.get_host" of
    "django.http.HttpRequest.get_host"): a name ``r.endswith("." + name)`` for some token."""
    return frozenset(r[i + 1:] for r in t.rawset if "." in r for i, ch in enumerate(r) if ch == ".")


def _squeezed_tokens(t: _Text) -> tuple[list[str], dict[str, list[int]]]:
    """Each token squeezed (``_squeeze``), and the positions of each non-empty squeezed form."""
    squeezed = [_squeeze(r) for r in t.raw]
    starts: dict[str, list[int]] = {}
    for i, sq in enumerate(squeezed):
        if sq:
            starts.setdefault(sq, []).append(i)
    return squeezed, starts


def _raw_counts(t: _Text) -> Counter[str]:
    """How often the text writes each token (``t.raw.count`` for every token at once)."""
    return Counter(t.raw)


def _comparand(t: _Text) -> tuple[str, ...]:
    """Content stems among the three words after "than" ("faster than the old parser")."""
    for k, w in enumerate(t.low):
        if w == "than":
            return tuple(t.stems[j] for j in range(k + 1, min(len(t.raw), k + 4)) if t.content[j])
    return ()


def _converse(claim: _Text, q: _Text) -> bool:
    """Do both compare, against different things ("A more than B" / "B less than A")?"""
    a, b = derived(claim, _comparand), derived(q, _comparand)
    return bool(a and b and a != b)


def _negated_near(t: _Text, k: int) -> bool:
    """Is the word at k negated right before it ("not necessary", "no longer valid")?"""
    return any(t.neg[p] for p in range(max(0, k - 3), k))


def _fold(word: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKD", word.casefold()) if not unicodedata.combining(ch))


def _multiword_name(t: _Text, k: int) -> bool:
    """Is the capitalised word at k part of a longer name ("Great Britain", "Hall of Fame")?"""
    for p in (k - 1, k + 1):
        if 0 <= p < len(t.raw) and t.kinds[p] == _WORD and t.raw[p][:1].isupper() and not t.sent_start[p]:
            return True
    return False


# Small function words a name's initials may count or skip ("Time To Live" is "TTL", "Point
# of Presence" "PoP", "Department of Defense" "DoD" or "DD").
_INITIAL_SKIPS = frozenset({"and", "of", "the", "for", "to", "a", "an", "in", "on", "at", "by", "&"})


def _initials_of(abbrev: str, t: _Text, k: int) -> bool:
    """Is ``abbrev`` (as written) the initials of a run of consecutive words of t that holds
    or touches the word at k ("F.C." / "Football Club", "KASP" / "(Key and Signing Policy)",
    aligned on a word of the run or next to it)? An abbreviation is dotted or written in
    capitals (all but at most one letter); the run's small function words may be counted or
    skipped, and it may pass brackets and hyphens."""
    letters = "".join(ch for ch in abbrev if ch.isalpha())
    caps = sum(ch.isupper() for ch in letters)
    if not 2 <= len(letters) <= 6 or "." not in abbrev and (caps < 2 or caps < len(letters) - 1):
        return False
    key = letters.lower()
    n = len(t.raw)
    words = [x for x in range(max(0, k - 3 * len(key) - 2), min(n, k + 3 * len(key) + 3))
             if t.kinds[x] == _WORD or t.raw[x] in ("(", ")", "-", "&")]
    for s0, start in enumerate(words):
        if t.kinds[start] != _WORD or t.low[start][:1] != key[0]:
            continue
        # the positions in the key reachable after each word of the run (a function word may
        # be counted or skipped); a run ends at a gap in the text
        reach = {0}
        prev = start - 1
        for x in words[s0:]:
            if x != prev + 1:
                break
            prev = x
            if t.kinds[x] != _WORD:
                continue
            w = t.low[x]
            nxt = {r + 1 for r in reach if r < len(key) and w[:1] == key[r]}
            if w in _INITIAL_SKIPS:
                nxt |= {r for r in reach if r}
            reach = nxt
            if not reach:
                break
            if len(key) in reach and start - 2 <= k <= x + 2 and t.low[x][:1] == key[-1]:
                return True
    return False


def _initials_begin(abbrev: str, t: _Text, k: int) -> bool:
    """Do the initials of the run of capitalised words of t that holds the word at k - two
    words at least, its first not opening the sentence unless the run is longer - begin, but do
    not make, the abbreviation ``abbrev`` (written in capitals, three letters at least, letters
    only)? "ISIS" (Islamic State of Iraq and Syria) / "Islamic State": the run is the name's
    short form, the abbreviation its full one."""
    if not (3 <= len(abbrev) <= 6 and abbrev.isalpha() and abbrev.isupper()):
        return False
    if t.kinds[k] != _WORD or not t.raw[k][:1].isupper():
        return False
    lo, hi = k, k
    while lo > 0 and t.kinds[lo - 1] == _WORD and t.raw[lo - 1][:1].isupper():
        lo -= 1
    while hi + 1 < len(t.raw) and t.kinds[hi + 1] == _WORD and t.raw[hi + 1][:1].isupper():
        hi += 1
    if hi - lo < 1 or t.raw[lo].isupper():
        return False
    initials = "".join(t.raw[x][0] for x in range(lo, hi + 1)).upper()
    return len(initials) < len(abbrev) and abbrev.startswith(initials)


# Names of one country and the adjective of its state, folded (``_fold``): each stands for the
# other where a name goes ("the UK's traditions" / "the British traditions", "US troops" /
# "American troops"). Only a state's own names: "England" / "English" name a part of the UK,
# and "Holland" a part of the Netherlands, so they stay names of their own. (Spelling and
# initials - "America" / "American", "US" / "United" - ``_name_swap`` reads already.)
_COUNTRY = {"uk": "uk", "u.k": "uk", "u.k.": "uk", "britain": "uk", "british": "uk",
            "us": "us", "u.s": "us", "u.s.": "us", "usa": "us", "america": "us", "american": "us",
            "netherlands": "nl", "dutch": "nl"}
# A state's capital stands for its government, as news writes it ("with Moscow imposing
# sanctions" / "with Russia imposing sanctions", "Washington said"): each capital below with
# its country's names, folded. Only capitals named for nothing else of note, and one state each.
for _key, _names in (("us", ("washington",)), ("uk", ("london",)),
                     ("ru", ("russia", "russian", "moscow", "kremlin")), ("cn", ("china", "chinese", "beijing")),
                     ("fr", ("france", "french", "paris")), ("de", ("germany", "german", "berlin")),
                     ("jp", ("japan", "japanese", "tokyo")), ("ua", ("ukraine", "ukrainian", "kyiv", "kiev")),
                     ("ir", ("iran", "iranian", "tehran")), ("tr", ("turkey", "turkish", "ankara")),
                     ("sy", ("syria", "syrian", "damascus")), ("iq", ("iraq", "iraqi", "baghdad")),
                     ("af", ("afghanistan", "afghan", "kabul")), ("in", ("india", "indian", "delhi")),
                     ("pk", ("pakistan", "pakistani", "islamabad")), ("eg", ("egypt", "egyptian", "cairo")),
                     ("sa", ("saudi", "riyadh")), ("ca", ("canada", "canadian", "ottawa")),
                     ("au", ("australia", "australian", "canberra")), ("it", ("italy", "italian", "rome")),
                     ("es", ("spain", "spanish", "madrid")), ("ve", ("venezuela", "venezuelan", "caracas")),
                     ("cu", ("cuba", "cuban", "havana")), ("by", ("belarus", "belarusian", "minsk")),
                     ("pl", ("poland", "polish", "warsaw")), ("gr", ("greece", "greek", "athens")),
                     ("ly", ("libya", "libyan", "tripoli"))):
    _COUNTRY.update(dict.fromkeys(_names, _key))


def _transposed(a: str, b: str) -> bool:
    """Are ``a`` and ``b`` (four letters at least) one word with two neighbouring letters
    swapped ("daivd" / "david")?"""
    if len(a) != len(b) or len(a) < 4:
        return False
    diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def _name_swap(claim: _Text, ci: int, quote: _Text, qj: int) -> bool:
    """May the two names stand for different things? Not when one is the other's spelling
    variant, abbreviation or inflection ("Fredrick" / "Frederick", "Feb" / "February",
    "SRI" / "SSRI", "Senators" / "Senate"), a single initial, or a word of a longer name."""
    a, b = _fold(claim.raw[ci]), _fold(quote.raw[qj])
    if _COUNTRY.get(a, a) == _COUNTRY.get(b, b):
        return False  # "the UK's traditions" / "the British traditions": one country named two ways
    if len(a) == 1 or len(b) == 1:
        return len(a) == len(b)  # "F" / "E" are options; "H" / "Helicobacter" an initial
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    rest = long_[len(short):]
    if rest.isdigit() and long_.startswith(short):
        t, k = (claim, ci) if len(a) <= len(b) else (quote, qj)
        if k + 1 < len(t.raw) and t.low[k + 1] == rest:
            return False  # "BRCA 1" / "BRCA1"
    if _initials_of(claim.raw[ci], quote, qj) or _initials_of(quote.raw[qj], claim, ci):
        return False  # "F.C." / "Football Club"
    if _initials_begin(claim.raw[ci], quote, qj) or _initials_begin(quote.raw[qj], claim, ci):
        return False  # "ISIS" / "Islamic State": a short form of the name the initials spell
    if "." in long_ and short in long_.split("."):
        return False  # "Node" / "Node.js", "kill" / "worker.kill": a part of a dotted name
    if "." in short and long_.endswith("." + short):
        return False  # "Libera.Chat" / "irc.libera.chat": a domain and a host name in it
    if short in long_ and all(ch.isalpha() for ch in long_.replace(short, "", 1)):
        return False  # "ace2" / "hace2", "gaba" / "gabaergic"
    if a.isalpha() and b.isalpha():
        if Indel.normalized_similarity(a, b) >= 0.85 or a[:4] == b[:4]:
            return False  # spelling variants, inflections
        if _transposed(a, b):
            return False  # "Daivd" / "David": two letters typed in the wrong order
        if (a.isupper() or b.isupper()) and min(len(a), len(b)) <= 5 and a[0] == b[0]:
            return False  # "US" / "United"
        if _multiword_name(claim, ci) != _multiword_name(quote, qj):
            return False  # a word of a longer name against a name of one word: misaligned
    return True


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


def _prefixed(t: _Text, prefix: str, word: str) -> int:
    """How often ``t`` writes ``prefix`` right before the stem ``word`` ("non-atomic")."""
    low, stems = t.low, t.stems
    return sum(1 for k in range(len(low) - 1) if low[k] == prefix and stems[k + 1] == word)


def _same_prefixed(claim: _Text, q: _Text, prefix: str, i2: int, j2: int) -> bool:
    """Do claim and quote write "non-X" equally often (the stretch that differs by "non"
    is then a reordering: "non-atomic ones are tracked, atomic ones not" / "atomic ones
    aren't tracked and non-atomic ones are")?"""
    at = claim.align_pos[i2] if i2 < len(claim.align_pos) else None
    if at is None:
        return False
    n = _prefixed(claim, prefix, claim.stems[at])
    return n > 0 and n == _prefixed(q, prefix, claim.stems[at])


def _near_copies(claim: _Text, quotes: list[_Text]) -> list[_Text]:
    """The quotes the claim repeats: at least two of its content words and half of them in
    the quote, or a token similarity of at least ``SHORT_COPY_SIMILARITY``."""
    content = set(compress(claim.stems, claim.content))
    if not content:
        return []
    out = []
    for q in quotes:
        if not q.align or len(q.align) > MAX_ALIGN_TOKENS:
            continue
        shared = len(content.intersection(q.stems))  # (a claim's content stem is never punctuation)
        if (shared < 2 or shared < NEAR_COPY_SHARE * len(content)) and \
                Indel.normalized_similarity(claim.align, q.align) < SHORT_COPY_SIMILARITY:
            continue
        out.append(q)
    return out


# "is zero except in the DATA stage" / "is non-zero only in the DATA stage": "non-" added and
# "except" turned into "only" in the same sentence say the same thing twice over
_ONLY_EXCEPT = (frozenset({"only"}), frozenset({"except"}))


def _only_for_except(claim: _Text, k: int, q: _Text, j: int) -> bool:
    cs = set(claim.low[slice(*sentence_bounds(claim, k))])
    qs = set(q.low[slice(*sentence_bounds(q, j))])
    return any(not a.isdisjoint(cs) and a.isdisjoint(qs) and not b.isdisjoint(qs) and b.isdisjoint(cs)
               for a, b in (_ONLY_EXCEPT, _ONLY_EXCEPT[::-1]))


def _check_near_copy(claim: _Text, quotes: list[_Text]) -> ClaimCheck | None:
    if not claim.align or len(claim.align) > MAX_ALIGN_TOKENS:
        return None
    aligned = [(q, _blocks(claim, q)) for q in _near_copies(claim, quotes)]
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
            note = _negation_in_block(claim, q, i1, i2, j1, j2, quotes) if (before and after) or both or bare else None
            if note:
                return ClaimCheck(ClaimStatus.UNSUPPORTED, "negation", note)
            # "non-blocking" where the quote says "blocking" (or the reverse)
            one = [claim.low[claim.align_pos[i1]]] if i2 - i1 == 1 and j1 == j2 else \
                [q.low[q.align_pos[j1]]] if j2 - j1 == 1 and i1 == i2 else []
            # (between equal stretches, or at the start of both: "Exported names" / "Non-exported names")
            if one in (["non"], ["un"]) and (before or i1 == j1 == 0) and after \
                    and not _same_prefixed(claim, q, one[0], i2, j2) \
                    and not _only_for_except(claim, claim.align_pos[min(i2, nc - 1)], q, q.align_pos[min(j2, nq - 1)]):
                word = claim.raw[claim.align_pos[i2]] if i2 < nc else ""
                return ClaimCheck(ClaimStatus.UNSUPPORTED, "near_copy:antonym",
                                  f'the claim and the quote differ by "{one[0]}-" before "{word}"'.replace(' before ""', ""))
    grey = None
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
                    kind = _substitution_kind(claim, ci, q, qj, quotes, in_place,
                                              sandwich=before and after and i2 - i1 == 1 and j2 - j1 == 1)
                    if kind:
                        found = _swap_verdict(kind, claim, ci, q, qj)
                        if found.status is ClaimStatus.UNSUPPORTED:
                            return found
                        grey = grey or found
            if in_place:
                # also judge the looser way (any pair in the block) when the strict test is silent
                for a in range(i1, i2):
                    ci = claim.align_pos[a]
                    for b in range(j1, j2):
                        qj = q.align_pos[b]
                        kind = _substitution_kind(claim, ci, q, qj, quotes, False)
                        if kind:
                            found = _swap_verdict(kind, claim, ci, q, qj)
                            if found.status is ClaimStatus.UNSUPPORTED:
                                return found
                            grey = grey or found
    return grey


def _scale_group(t: _Text, k: int) -> str:
    """The quantifier group ("a few" is "some") or modal group of the word at k."""
    w = t.low[k]
    if w in ("many", "much") and k and t.low[k - 1] == "however":
        return "all"  # "however many slashes" is "any number of slashes"
    if w in _QUANT:
        return "some" if w == "few" and k and t.low[k - 1] in ("a", "quite") else _QUANT[w]
    return _modal_group(t, k)


# "It is quite common for a file to have all trailing fields omitted" / "files often omit
# trailing fields" (issue 25, fresh24): the quote's frequency is in "common", not in "all"
# (the "all" says how much of each file, not how many files).
_OFTEN = frozenset({"often", "commonly", "frequently", "usually"})
_COMMON = frozenset({"common", "commonly", "usual", "usually", "frequent", "frequently", "often"})

# "face all kinds of problems" / "face many kinds of problems" (issue 25, fresh28): before
# "kinds of" / "sorts of", "all" says the kinds are many and varied, not that every kind is meant
_SORTS = frozenset({"kinds", "sorts", "types", "manner"})
_MANY = frozenset({"many", "various", "numerous"})


def _all_kinds_of(claim: _Text, ci: int, q: _Text, qj: int) -> bool:
    """The quote's "all kinds of" (or "sorts of", ...) where the claim writes "many" (or
    "various", "numerous") before the same noun and "of"."""
    cn, qn = ci + 2, qj + 2
    return claim.low[ci] in _MANY and q.low[qj] == "all" and qn < len(q.low) and cn < len(claim.low) \
        and q.low[qj + 1] in _SORTS and claim.low[ci + 1] == q.low[qj + 1] and q.low[qn] == claim.low[cn] == "of"


def _swap_verdict(kind: str, claim: _Text, ci: int, q: _Text, qj: int) -> ClaimCheck:
    note = f'the claim says "{claim.raw[ci]}" where the quote says "{q.raw[qj]}"'
    cr, qr = claim.raw[ci], q.raw[qj]
    if kind == "entity" and len(cr) > 1 and qr != cr and qr.rstrip("0123456789").rstrip("'\u2019") == cr \
            and len(qr) - len(cr) <= 3 and "." not in cr and "_" not in cr:  # not "write.csv" / "write.csv2"
        # "what Windows calls 'Unicode'2", "a file called .RData6" (issue 25, fresh24): a
        # footnote's number glued to the word, not another name
        return ClaimCheck(ClaimStatus.UNCHECKED, None, f"not proven wrong (near_copy:entity): {note}; the quote's "
                          f'"{qr}" is "{cr}" with a footnote mark glued on')
    if kind == "quantifier" and claim.low[ci] in _OFTEN and q.low[qj] in ("all", "every", "each"):
        lo, hi = sentence_bounds(q, qj)
        said = next((q.raw[x] for x in range(lo, hi) if q.low[x] in _COMMON), None)
        if said:
            return ClaimCheck(ClaimStatus.UNCHECKED, None, f"not proven wrong (near_copy:quantifier): {note}; the "
                              f'quote says how often with "{said}"')
    if kind == "quantifier" and _all_kinds_of(claim, ci, q, qj):
        return ClaimCheck(ClaimStatus.UNCHECKED, None, f"not proven wrong (near_copy:quantifier): {note}; "
                          f'"all {q.raw[qj + 1]} of" says they are many and varied')
    groups = (_scale_group(claim, ci), _scale_group(q, qj)) if kind in ("quantifier", "modal") else None
    return verdict(f"near_copy:{kind}", f'the claim says "{claim.raw[ci]}" where the quote says "{q.raw[qj]}"',
                   claim, ci, q, qj, groups=groups)



# Function words the proof passes over (they state no fact on their own), but one swapped for
# another of its class in a near copy changes what the sentence says: "you may activate it" /
# "it may activate you", "bound directly to the imported module" / "bound directly in the
# imported module", "evicts pages ... to the backing swap device" / "at the backing swap
# device", "Sent before or after" / "Sent before and after". Articles and demonstratives are not here (the alignment drops articles; "this" /
# "the" changes no fact).
_PRONOUNS = frozenset(["it", "its", "itself", "they", "them", "their", "theirs", "themselves", "he", "him", "his",
                       "himself", "she", "her", "hers", "herself", "we", "us", "our", "ours", "ourselves", "you",
                       "your", "yours", "yourself", "yourselves", "i", "me", "my", "mine", "myself"])
_PREPOSITIONS = frozenset(["to", "in", "on", "at", "with", "for", "about", "via", "per", "within", "through",
                           "during", "over", "upon", "onto", "into", "from", "by", "of", "across", "among", "as",
                           "under", "between", "toward", "towards", "inside", "outside", "beyond", "against",
                           "throughout", "until", "till", "behind", "below", "above", "along", "around"])

# one thing or several, the same referent: "each invocation has its own" / "invocations each
# have their own"
_AGREEMENT = frozenset(frozenset(p) for p in (("it", "they"), ("it", "them"), ("its", "their"),
                                              ("itself", "themselves"), ("its", "theirs")))


def _align_contexts(t: _Text) -> frozenset[tuple[str, str, str]]:
    """Each word of a text's alignment sequence with its two neighbours (built for a text only
    when a claim's swapped function word is looked up in it)."""
    al = t.align
    return frozenset((al[i - 1], al[i], al[i + 1]) for i in range(1, len(al) - 1))


def _function_word_swapped(claim: _Text, quotes: list[_Text]) -> tuple[str, str, int] | None:
    """In a claim that repeats a quote, a pronoun, preposition or "and"/"or" put in the place of another
    of its class (one for one, between equal stretches), where no quote writes the claim's
    word between the same neighbours: (claim word, quote word, claim token index), or None."""
    if not claim.align or len(claim.align) > MAX_ALIGN_TOKENS:
        return None
    for q in _near_copies(claim, quotes):
        for i1, i2, j1, j2, before, after in _blocks(claim, q):
            if not (before and after) or i2 - i1 != j2 - j1 or i2 - i1 > 2:
                continue
            pairs = [(a, claim.low[claim.align_pos[a]], q.low[q.align_pos[b]])
                     for a, b in zip(range(i1, i2), range(j1, j2), strict=True)]
            pairs = [(a, cl, ql) for a, cl, ql in pairs if cl != ql]
            if any(not ({cl, ql} <= _PRONOUNS or {cl, ql} <= _PREPOSITIONS or {cl, ql} == {"and", "or"})
                   for _, cl, ql in pairs):
                continue  # a phrase said otherwise ("because of" / "due to"): not a function word's swap
            for a, cl, ql in pairs:
                if frozenset((cl, ql)) in _AGREEMENT:
                    continue
                around = (claim.align[a - 1], claim.align[a], claim.align[a + 1] if a + 1 < len(claim.align) else "")
                if any(around in derived(t, _align_contexts) for t in quotes):
                    continue
                return claim.raw[claim.align_pos[a]], q.raw[q.align_pos[a - i1 + j1]], claim.align_pos[a]
    return None


_PREP_RUN = 4  # claim words read after a preposition the claim may have dropped


def _preposition_dropped(claim: _Text, quotes: list[_Text]) -> tuple[str, str] | None:
    """A claim that repeats a quote but leaves out a preposition right before words it keeps:
    "this day, the fame is untainted" / "to this day, the fame is untainted" ("to this day"
    is "still"; "this day" is "today"), "you use plants intended for medicine" / "the use of
    plants intended for medicine". The preposition gives the phrase after it its role;
    without it the phrase says something else. Read on the alignment (articles and
    punctuation dropped): inside the claim, its word before and its words after stand in a
    quote with a preposition between and nowhere without; at the claim's start, every place
    a quote has its first words, a preposition opening a sentence or clause stands before
    them (a fronted phrase: "To this day, ..."). Not after "and", "or" or
    a preposition of the claim, which may cover the words ("to A and B" / "to A and to B").
    (the quote's preposition and what follows, the claim word after it), or None."""
    al = claim.align
    if not al or len(al) > MAX_ALIGN_TOKENS:
        return None
    near = _near_copies(claim, quotes)
    if not near:
        return None
    # a claim whose whole alignment a quote holds in a row: every word after its first stands
    # there after the claim's word before it (the test below that skips it), so only the
    # claim's start is read
    n = 1 if any(claim.joined in q.joined for q in near) else len(al)
    for i in range(n):
        run = " " + " ".join(al[i:i + _PREP_RUN]) + " "
        if i:
            before = claim.low[claim.align_pos[i - 1]]
            if before in _PREPOSITIONS or before in ("and", "or") or \
                    any(" " + al[i - 1] + run in q.joined for q in near):
                continue
        found = None
        for q in near:
            joined = q.joined
            at = joined.find(run)
            while at >= 0:
                j = joined.count(" ", 0, at)  # the alignment index of the run's first word
                k = q.align_pos[j - 1] if j >= 1 else -1
                prep = k >= 0 and q.kinds[k] == _WORD and q.low[k] in _PREPOSITIONS \
                    and all(q.low[x] in _ARTICLES for x in range(k + 1, q.align_pos[j]))
                if i and prep and j >= 2 and q.align[j - 2] == al[i - 1]:
                    found = found or (q, k, j)  # "fame to this day" for the claim's "fame this day"
                elif not i:
                    # the claim's start: a phrase the quote opens its clause with ("To this day,
                    # ..."), not the object of a word the claim leaves out with it ("the game
                    # of tennis", "by all functions"); "as" may open a clause ("as Britain's
                    # routes are ...")
                    prep = prep and q.low[k] != "as" and (k == 0 or q.kinds[k - 1] == 0)
                    if not prep:
                        found = None
                        break  # the claim's first words stand somewhere without a preposition
                    found = found or (q, k, j)
                at = joined.find(run, at + 1)
            else:
                continue
            break  # (the claim's start, copied from a place with no preposition)
        if found:
            q, k, j = found
            nxt = q.align_pos[j]
            end = next((x for x in range(nxt, min(nxt + 4, len(q.raw))) if q.content[x]), nxt)
            return " ".join(q.raw[k:end + 1]), claim.raw[claim.align_pos[i]]
    return None


def _inner_words_dropped(claim: _Text, quotes: list[_Text]) -> tuple[str, str] | None:
    """A claim that repeats a quote but for a stretch left out inside it, between equal
    stretches and with no punctuation at its edges (not a whole clause or parenthesis),
    holding a content word the claim does not write elsewhere (a single -ly adverb, or a
    single word after a name, aside):
    "a random sequence of lowercase ASCII letters" / "of digits and lowercase ASCII
    letters", "(ALT+Fn) should also help" / "(ALT+Fn) and then back again should also
    help". (the quote's words left out, the claim word after them), or None."""
    for q in _near_copies(claim, quotes):
        for i1, i2, j1, j2, before, after in _blocks(claim, q):
            if i1 != i2 or not (before and after) or j2 - j1 > 6:
                continue
            a, b = q.align_pos[j1], q.align_pos[j2 - 1]
            if any(q.kinds[k] != _WORD for k in range(a, b + 1)) or \
                    (a and q.kinds[a - 1] != _WORD) or (b + 1 < len(q.raw) and q.kinds[b + 1] != _WORD):
                continue  # punctuation inside or at an edge: a clause or parenthesis left out
            dropped = [k for k in range(a, b + 1) if q.content[k]]
            if a == b and (q.low[a].endswith("ly") or a and q.entity[a - 1]):
                continue  # an adverb of manner ("specifically disallow"), a name's kind ("the X keyword")
            if dropped and any(q.stems[k] not in claim.positions for k in dropped):  # else said elsewhere
                return " ".join(q.raw[a:b + 1]), claim.raw[claim.align_pos[i1]] if i1 < len(claim.align_pos) else ""
    return None

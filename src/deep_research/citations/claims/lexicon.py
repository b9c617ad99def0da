"""A small reader of the WordNet 3.0 database files (Debian's ``wordnet-base``), for the one
question the judge check asks of a word pair: same meaning, more general, or a contrast?

Used only to check a judge's evidence (``judge_check``), never to accept a claim by code:

* ``contrast`` - antonyms (WordNet's lexical ``!`` pointers) and co-hyponyms (two different
  senses under one direct hypernym: book / film, client / server, married / born are
  siblings, not restatements). A judge that aligns such a pair has misread; its evidence
  fails.
* ``synonym`` (a shared synset), ``related`` (a derivational link: gather / gathering) and
  ``general`` (the claim's word is a hypernym, up to three steps, of the span's: "animal"
  for "dog"; or the head adjective of the span's satellite: "easy" for "simple", "whole"
  for "entire") let a judge's aligned pair count as the same statement.
  ``phrase_relation`` asks the same of multiword lemmas ("take advantage", "bring in").

Anything else is ``unknown``: the judge's pair is not shown, and its evidence fails. Without
the database (no ``wordnet-base``, or ``DEEP_RESEARCH_WORDNET`` pointing nowhere) every
pair that is not the same word is ``unknown``: fewer claims turn green through a judge,
none wrongly.

Files read: ``index.{noun,verb,adj,adv}`` (lemma -> synsets), ``data.*`` (synset words and
pointers) and ``*.exc`` (irregular forms), from ``$DEEP_RESEARCH_WORDNET`` or
``/usr/share/wordnet``. Loaded once, on first use (about two seconds).
"""

from __future__ import annotations

import itertools
import os
import re
import threading
from functools import lru_cache
from pathlib import Path

_POS = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}
_FILES = ("noun", "verb", "adj", "adv")
DEFAULT_DIRS = ("/usr/share/wordnet",)


class _WordNet:
    def __init__(self, root: Path) -> None:
        self.index: dict[str, list[tuple[str, int]]] = {}  # lemma -> [(pos, offset)]
        self.words: dict[tuple[str, int], tuple[str, ...]] = {}
        self.hyper: dict[tuple[str, int], tuple[tuple[str, int], ...]] = {}
        self.similar: dict[tuple[str, int], set[tuple[str, int]]] = {}  # satellite adjective -> its head
        self.antonyms: dict[str, set[str]] = {}
        self.derived: dict[str, set[str]] = {}
        self.exc: dict[str, set[str]] = {}
        self.verb_exc: set[str] = set()
        for name in _FILES:
            self._read_index(root / f"index.{name}")
            self._read_data(root / f"data.{name}")
            self._read_exc(root / f"{name}.exc", name == "verb")

    def _read_index(self, path: Path) -> None:
        with path.open(encoding="latin-1") as fh:
            for line in fh:
                if line.startswith(" "):
                    continue
                f = line.split()
                lemma, pos = f[0], f[1]
                p_cnt = int(f[3])
                offsets = f[4 + p_cnt + 2:]
                self.index.setdefault(lemma, []).extend((pos, int(o)) for o in offsets)

    def _read_data(self, path: Path) -> None:
        with path.open(encoding="latin-1") as fh:
            for line in fh:
                if line.startswith(" "):
                    continue
                head = line.split(" | ", 1)[0].split()
                off, ss_type = int(head[0]), head[2]
                pos = "a" if ss_type == "s" else ss_type
                w_cnt = int(head[3], 16)
                words = tuple(head[4 + 2 * i].lower().split("(")[0] for i in range(w_cnt))
                key = (pos, off)
                self.words[key] = words
                i = 4 + 2 * w_cnt
                p_cnt = int(head[i])
                hyper = []
                for j in range(p_cnt):
                    sym, toff, tpos, st = head[i + 1 + 4 * j: i + 5 + 4 * j]
                    tpos = "a" if tpos == "s" else tpos
                    if sym in ("@", "@i"):
                        hyper.append((tpos, int(toff)))
                    elif sym == "&" and ss_type == "s":
                        self.similar.setdefault(key, set()).add((tpos, int(toff)))
                    elif sym in ("!", "+") and st != "0000":
                        code = int(st, 16)
                        src, tgt = code >> 8, code & 0xFF
                        if src < 1 or src > w_cnt:
                            continue
                        target = (tpos, int(toff))
                        table = self.antonyms if sym == "!" else self.derived
                        table.setdefault(words[src - 1], set()).add(f"{target[0]}:{target[1]}:{tgt}")
                if hyper:
                    self.hyper[key] = tuple(hyper)

    def _read_exc(self, path: Path, verbs: bool = False) -> None:
        if not path.is_file():
            return
        with path.open(encoding="latin-1") as fh:
            for line in fh:
                f = line.split()
                if len(f) >= 2:
                    self.exc.setdefault(f[0], set()).update(f[1:])
                    if verbs:
                        self.verb_exc.add(f[0])

    def _target_word(self, ref: str) -> str | None:
        pos, off, n = ref.split(":")
        words = self.words.get((pos, int(off)))
        k = int(n)
        return words[k - 1] if words and 0 < k <= len(words) else None

    def lemmas(self, word: str) -> set[str]:
        """Base forms of an inflected word that WordNet lists."""
        w = word.lower()
        out = {w} if w in self.index else set()
        out |= {b for b in self.exc.get(w, ()) if b in self.index}
        for suf, rep in (("s", ""), ("es", ""), ("ies", "y"), ("ed", ""), ("ed", "e"), ("ing", ""),
                         ("ing", "e"), ("er", ""), ("er", "e"), ("est", ""), ("est", "e"), ("ies", "ie")):
            if w.endswith(suf) and len(w) > len(suf) + 2:
                base = w[: -len(suf)] + rep
                if base in self.index:
                    out.add(base)
                if rep == "" and len(base) > 2 and base[-1] == base[-2] and base[:-1] in self.index:
                    out.add(base[:-1])  # stopped -> stop
        return out

    def synsets(self, word: str) -> set[tuple[str, int]]:
        return {s for lemma in self.lemmas(word) for s in self.index.get(lemma, ())}

    def ancestors(self, syn: tuple[str, int], depth: int) -> set[tuple[str, int]]:
        out: set[tuple[str, int]] = set()
        frontier = {syn}
        for _ in range(depth):
            frontier = {h for s in frontier for h in self.hyper.get(s, ())} - out
            out |= frontier
        return out


_LOCK = threading.Lock()
_DB: list[_WordNet | None] = []


def _root() -> Path | None:
    env = os.environ.get("DEEP_RESEARCH_WORDNET")
    for d in ([env] if env else []) + list(DEFAULT_DIRS):
        if d and (Path(d) / "index.noun").is_file() and (Path(d) / "data.noun").is_file():
            return Path(d)
    return None


def database() -> _WordNet | None:
    """The loaded WordNet, or None when the files are not on this machine."""
    if not _DB:
        with _LOCK:
            if not _DB:
                root = _root()
                try:
                    _DB.append(_WordNet(root) if root else None)
                except (OSError, ValueError, IndexError):  # unreadable or not WordNet
                    _DB.append(None)
    return _DB[0]


def available() -> bool:
    return database() is not None


@lru_cache(maxsize=65536)
def relation(claim_word: str, span_word: str) -> str:
    """How the claim's word stands to the span's word it is said to restate: ``synonym``,
    ``related``, ``general`` (the claim's word is wider), ``contrast`` or ``unknown``."""
    db = database()
    a, b = claim_word.lower(), span_word.lower()
    if db is None:
        return "unknown"
    la, lb = db.lemmas(a), db.lemmas(b)
    if not la or not lb:
        return "unknown"
    if la & lb:
        return "synonym"
    # antonyms: a lexical "!" pointer between a lemma of one and a lemma of the other
    for x, ys in ((la, lb), (lb, la)):
        for lemma in x:
            for ref in db.antonyms.get(lemma, ()):
                if db._target_word(ref) in ys:
                    return "contrast"
    sa, sb = db.synsets(a), db.synsets(b)
    if sa & sb:
        return "synonym"
    for lemma in la:
        for ref in db.derived.get(lemma, ()):
            if db._target_word(ref) in lb:
                return "related"
    # co-hyponyms: two different senses under one direct hypernym
    ha = {h: s for s in sa for h in db.hyper.get(s, ())}
    if any(h in ha for s in sb for h in db.hyper.get(s, ())):
        return "contrast"
    if any(s in db.ancestors(t, 3) for s in sa for t in sb):
        return "general"
    if any(s in db.similar.get(t, ()) for s in sa for t in sb):
        return "general"  # the claim's adjective is the head of the span's ("easy" for "simple")
    return "unknown"


@lru_cache(maxsize=16384)
def antonyms(a: str, b: str) -> bool:
    """Does WordNet list the two words as antonyms (a lexical "!" pointer)?"""
    db = database()
    if db is None:
        return False
    la, lb = db.lemmas(a), db.lemmas(b)
    for x, ys in ((la, lb), (lb, la)):
        for lemma in x:
            if any(db._target_word(ref) in ys for ref in db.antonyms.get(lemma, ())):
                return True
    return False


def irregular_verb(word: str) -> bool:
    """Is the word an irregular form of a verb WordNet lists ("understood", "taken")?"""
    db = database()
    return db is not None and word.lower() in db.verb_exc


@lru_cache(maxsize=16384)
def adverb_only(word: str) -> bool:
    """Is the word an adverb and nothing else WordNet lists ("generally", "silently"; not
    "early", "only", "family")?"""
    db = database()
    if db is None:
        return False
    kinds = {pos for pos, _ in db.index.get(word.lower(), ())}
    return kinds == {"r"}


@lru_cache(maxsize=16384)
def can_be_adjective(word: str) -> bool:
    """Does WordNet list the word as an adjective ("invalid", "equal"; not "number")?"""
    db = database()
    return db is not None and any(pos == "a" for pos, _ in db.index.get(word.lower(), ()))


_RANK = {"synonym": 0, "related": 1, "general": 2, "contrast": 3, "unknown": 4}


@lru_cache(maxsize=65536)
def phrase_relation(claim_words: tuple[str, ...], span_words: tuple[str, ...]) -> str:
    """``relation`` for phrases: each side read as a WordNet lemma ("take advantage",
    "brought in" -> ``bring_in``, "is like" -> ``be_like``); ``unknown`` when a side is no
    lemma WordNet lists."""
    db = database()
    if db is None:
        return "unknown"
    la, lb = _phrase_lemmas(db, claim_words), _phrase_lemmas(db, span_words)
    best = "unknown"
    for a in la:
        for b in lb:
            r = relation(a, b)
            if _RANK[r] < _RANK[best]:
                best = r
    return best


def _phrase_lemmas(db: _WordNet, words: tuple[str, ...]) -> list[str]:
    words = tuple(w.lower() for w in words)
    if len(words) == 1:
        return [words[0]] if db.lemmas(words[0]) else []
    options = [[w] + sorted(db.lemmas(w) - {w}) for w in words]
    out = []
    for combo in itertools.islice(itertools.product(*options), 64):
        lemma = "_".join(combo)
        if lemma in db.index:
            out.append(lemma)
    return out


# Number roots: "twofold" and "threefold", "double" and "triple" name other numbers.
_NUMBER_ROOTS = {w: i for i, w in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
     "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"])}
_NUMBER_ROOTS.update({w: 10 * (i + 2) for i, w in enumerate(
    ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"])})
_NUMBER_ROOTS.update({"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9, "single": 1,
                      "double": 2, "twice": 2, "dual": 2, "triple": 3, "thrice": 3, "treble": 3,
                      "quadruple": 4, "quintuple": 5, "half": 0.5, "dozen": 12})
_ROOT = re.compile("^(" + "|".join(sorted(_NUMBER_ROOTS, key=len, reverse=True)) + r")(?:fold|th|ths)?$")
_FOLD = re.compile("^(" + "|".join(sorted(_NUMBER_ROOTS, key=len, reverse=True)) + r")-?(?:fold|way|times)$")


def number_root(word: str):
    """The number a word names by its root ("twofold" 2, "triple" 3, "thirds" 3), or None."""
    w = word.lower()
    m = _ROOT.match(w) or _FOLD.match(w)
    return _NUMBER_ROOTS[m.group(1)] if m else None

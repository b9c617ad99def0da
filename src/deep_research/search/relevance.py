"""Pure helpers that keep research cheap: the part of a long page that matters for a
query (BM25 over passages), and whether two search queries are the same question
(normalised words + rapidfuzz similarity). No I/O, no models."""

from __future__ import annotations

import math
import re
from collections import Counter

from rapidfuzz import fuzz

STOP_WORDS = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how",
    "i", "in", "is", "it", "its", "of", "on", "or", "that", "the", "their", "them", "these",
    "this", "those", "to", "vs", "was", "were", "what", "when", "where", "which", "who", "why",
    "will", "with", "about", "into", "over", "under", "than", "then", "there", "they", "you",
    "your", "we", "our", "not", "no",
))

_WORD = re.compile(r"\w+", re.UNICODE)
GAP = "\n[…]\n"  # between passages that were not next to each other on the page


def words(text: str) -> list[str]:
    """Lower-case words without stop words (and without one-letter words)."""
    return [w for w in _WORD.findall(text.lower()) if (len(w) > 1 or w.isdigit()) and w not in STOP_WORDS]


def normalise_query(query: str) -> str:
    """A query's words, lower-case, without punctuation or stop words, plurals made
    singular, deduplicated and sorted: word order, case and number do not make a
    different question."""
    return " ".join(sorted({_stem(w) for w in words(query)}))


def _stem(word: str) -> str:
    """A plural's singular, roughly ("pumps" -> "pump"; "glass" stays)."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def query_similarity(a: str, b: str) -> float:
    """0..100: how alike two queries are once normalised (100 = the same words)."""
    na, nb = normalise_query(a), normalise_query(b)
    if _numbers(na) != _numbers(nb):  # "heat pump 2019" and "heat pump 2020" are different questions
        return 0.0
    if not na or not nb:
        return 100.0 if na == nb and a.strip().lower() == b.strip().lower() else 0.0
    if na == nb:
        return 100.0
    return float(fuzz.ratio(na, nb))


def _numbers(normalised: str) -> set[str]:
    return {w for w in normalised.split() if any(c.isdigit() for c in w)}


def same_query(a: str, b: str, threshold: float) -> bool:
    """True when ``b`` repeats ``a`` at this similarity threshold (0 = never, 100 = only
    queries whose normalised words are identical)."""
    if threshold <= 0:
        return False
    return query_similarity(a, b) >= threshold


# --- passages ---------------------------------------------------------------------------------
def passages(text: str, target: int = 600, ceiling: int = 1500) -> list[tuple[int, int]]:
    """The page cut into passages, as (start, end) offsets: lines are grouped up to about
    ``target`` characters; a longer line is split at sentence ends (at most ``ceiling``)."""
    spans: list[tuple[int, int]] = []
    start = None
    end = 0
    for m in re.finditer(r"[^\n]+", text):
        s, e = m.start(), m.end()
        if not text[s:e].strip():
            continue
        if e - s > ceiling:  # one long line: split it at sentence ends
            if start is not None:
                spans.append((start, end))
                start = None
            pos = s
            for sm in re.finditer(r"(?<=[.!?])\s+", text[s:e]):
                cut = s + sm.end()
                if cut - pos >= target:
                    spans.extend(_hard_split(text, pos, cut, ceiling))
                    pos = cut
            if pos < e:
                spans.extend(_hard_split(text, pos, e, ceiling))
            continue
        if start is None:
            start = s
        end = e
        if end - start >= target:
            spans.append((start, end))
            start = None
    if start is not None:
        spans.append((start, end))
    return spans


def _hard_split(text: str, start: int, end: int, ceiling: int) -> list[tuple[int, int]]:
    """(start, end) cut at spaces into pieces of at most ``ceiling`` characters (text with
    no sentence ends, such as a table flattened into one line)."""
    out = []
    while end - start > ceiling:
        cut = text.rfind(" ", start + ceiling // 2, start + ceiling)
        cut = cut + 1 if cut > start else start + ceiling
        out.append((start, cut))
        start = cut
    out.append((start, end))
    return out


def bm25_scores(docs: list[list[str]], query: list[str], k1: float = 1.5, b: float = 0.75) -> list[float]:
    n = len(docs)
    if not n or not query:
        return [0.0] * n
    avg = sum(len(d) for d in docs) / n or 1.0
    df: Counter = Counter()
    for d in docs:
        df.update(set(d))
    terms = Counter(query)
    scores = []
    for d in docs:
        tf = Counter(d)
        score = 0.0
        for t, qn in terms.items():
            if t not in tf:
                continue
            idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
            f = tf[t]
            score += qn * idf * f * (k1 + 1) / (f + k1 * (1 - b + b * len(d) / avg))
        scores.append(score)
    return scores


def relevant_passages(text: str, query: str, max_chars: int, opening: int = 400) -> str:
    """The part of ``text`` that matters for ``query``, within about ``max_chars``: the
    page's opening, then the best-matching passages (BM25), shown in page order with a
    gap mark between passages that are not adjacent. Text that fits is returned as is;
    every passage is an exact slice of the page (its sentences can be quoted)."""
    if max_chars <= 0 or len(text) <= max_chars:
        return text
    spans = passages(text)
    if not spans:
        return text[:max_chars]
    scores = bm25_scores([words(text[s:e]) for s, e in spans], words(query))
    chosen: set[int] = set()
    used = 0
    # the opening (title, lead) gives the summary its context
    for i, (s, e) in enumerate(spans):
        if s >= opening or used + (e - s) > max_chars:
            break
        chosen.add(i)
        used += e - s
    for i in sorted(range(len(spans)), key=lambda i: (-scores[i], i)):
        if i in chosen or scores[i] <= 0:
            continue
        s, e = spans[i]
        if used + (e - s) > max_chars:
            continue
        chosen.add(i)
        used += e - s
    if not chosen:
        return text[:max_chars]
    out: list[str] = []
    prev = None
    for i in sorted(chosen):
        s, e = spans[i]
        if prev is not None:
            out.append("\n" if prev == i - 1 else GAP)
        out.append(text[s:e])
        prev = i
    return "".join(out)

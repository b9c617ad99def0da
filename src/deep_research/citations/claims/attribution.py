"""A quotation is not proof: a quote that holds the claim's words only inside quotation marks
reports that someone said or wrote them, not that they are true.

News and fact-checking pages quote what people said in order to examine it: 'Bloggers wrote
headlines like this one: "Obama makes huge move to ban ..." This is a vast exaggeration.'
A claim that states the quoted words as a fact ("Obama makes huge move to ban ...") repeats
the quote word for word, yet the page does not say it is so; it often says the opposite in
the next sentence. Code cannot read whether the page endorses what it quotes, so such a
claim is not shown supported: it is grey (``unchecked``) with a note, for the judge.

The rule (:func:`reported_only`), applied to a claim the other rules showed supported:
the stretches of its quotes inside double quotation marks (straight or typographic, « »,
„ "; an opening mark never closed runs to the end of its sentence) of at least
:data:`MIN_WORDS` words are blanked out, and the claim is proved again against what is
left. If it is no longer shown, the proof rested on quoted words. Untouched:

* a claim that itself quotes (quotation marks around at least :data:`MIN_WORDS` words) or
  attributes ("X said", "wrote", "according to", ...): it reports the quotation, which the
  quote does show;
* short quoted terms (a message, an option value, a title of fewer than
  :data:`MIN_WORDS` words): they name something, they do not state it.

Pure: no model, no I/O.
"""

from __future__ import annotations

import re
from itertools import islice

from collections.abc import Callable

from .types import ClaimCheck, ClaimStatus, _Text

MIN_WORDS = 4  # a quoted stretch of fewer words names a term rather than stating something
MAX_MARKS = 400  # quotation marks read per quote (bounded work on hostile text)

_PAIRS = {"\u201c": "\u201d", "\u201e": "\u201c\u201d", "\u00ab": "\u00bb", '"': '"'}
_MARKS = re.compile('["\u201c\u201d\u201e\u00ab\u00bb]')
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
_WORD = re.compile(r"[^\W_]+")
# words by which a claim itself attributes what it states to someone
_ATTRIBUTING = frozenset(
    "said say says saying wrote write writes writing claim claimed claims claiming according "
    "stated told tell tells argued argue argues asserted assert asserts alleged allege alleges "
    "tweeted tweet posted headlined quoted quote quotes insisted insists suggested suggests "
    "warned warns added adds declared declares".split()
)


def quoted_stretches(text: str) -> list[tuple[int, int]]:
    """(start, end) of each stretch of ``text`` inside double quotation marks, marks
    included. An opening mark with no closing one runs to the end of its sentence. Past
    ``MAX_MARKS`` marks the rest of the text counts as quoted (bounded work; the safe side:
    a claim shown there stays grey)."""
    out: list[tuple[int, int]] = []
    marks = list(islice(_MARKS.finditer(text), MAX_MARKS + 1))
    rest = marks.pop().start() if len(marks) > MAX_MARKS else None
    i = 0
    while i < len(marks):
        m = marks[i]
        opener = m.group(0)
        closers = _PAIRS.get(opener)
        if closers is None:  # a stray closing mark
            i += 1
            continue
        j = i + 1
        while j < len(marks) and marks[j].group(0) not in closers:
            j += 1
        if j < len(marks):
            out.append((m.start(), marks[j].end()))
            i = j + 1
            continue
        end = _SENTENCE_END.search(text, m.end())
        out.append((m.start(), end.end() if end else len(text)))
        break
    if rest is not None:
        out.append((rest, len(text)))
    return out


def _long(text: str, span: tuple[int, int]) -> bool:
    return len(_WORD.findall(text[span[0]:span[1]])) >= MIN_WORDS


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    parts, at = [], 0
    for a, b in spans:
        parts.append(text[at:a])
        parts.append(" ; ")  # keeps the words either side apart
        at = b
    parts.append(text[at:])
    return "".join(parts)


def claim_attributes(claim: str) -> bool:
    """Does the claim itself quote or attribute what it states?"""
    if any(_long(claim, s) for s in quoted_stretches(claim)):
        return True
    return not _ATTRIBUTING.isdisjoint(w.lower() for w in _WORD.findall(claim))


def reported_only(
    claim: str, c: _Text, quotes: list[str], prove: Callable[[_Text, list[str]], ClaimCheck]
) -> ClaimCheck | None:
    """A grey verdict when the claim, shown supported by ``prove(c, quotes)``, is shown only
    by words its quotes hold inside quotation marks; else None."""
    if not _MARKS.search("".join(quotes)):
        return None
    blanked: list[str] = []
    quoted: list[str] = []
    for q in quotes:
        spans = [s for s in quoted_stretches(q) if _long(q, s)]
        quoted.extend(q[a:b] for a, b in spans)
        blanked.append(_blank(q, spans) if spans else q)
    if not quoted or claim_attributes(claim):
        return None
    if prove(c, blanked).status is ClaimStatus.SUPPORTED:
        return None
    shown = " ".join(quoted[0].split())
    if len(shown) > 80:
        shown = shown[:77].rstrip() + "…"
    return ClaimCheck(
        ClaimStatus.UNCHECKED,
        None,
        f"its quote gives these words only as someone's, in quotation marks ({shown}): "
        "a quotation does not show they are true",
    )


def spans_reported(claim: str, quotes: list[str], found: list[tuple[int, int, int]]) -> str | None:
    """The judge's side of the same rule: a problem when every span a judge cites
    (``(quote index, start, end)``) lies inside quotation marks of its quote and the claim
    neither quotes nor attributes those words; else None."""
    if not found or not _MARKS.search("".join(quotes)):
        return None
    stretches: dict[int, list[tuple[int, int]]] = {}
    for qi, a, b in found:
        if qi not in stretches:
            q = quotes[qi]
            stretches[qi] = [s for s in quoted_stretches(q) if _long(q, s)]
        if not any(x <= a and b <= y for x, y in stretches[qi]):
            return None
    if claim_attributes(claim):
        return None
    return ("every cited span is someone's words in quotation marks: a quotation does not show "
            "they are true")


"""Claim preparation: reporting frames ("According to the manual, ..."), discourse markers,
list markers, footnotes and URLs removed before the rules run."""

from __future__ import annotations

import re
from functools import lru_cache

from .words import _DISCOURSE
from ..verify import _without_markup

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


# A trailing frame ends where the claim's words end (only spaces and . ! ? after it), with its
# source noun or its verb ("... as the manual says."): the last word or two of the claim must
# be one. Testing them first spares most claims the search.
_FRAME_END = re.compile(rf"(?:{_SRC}s?|{_SAYS})", re.IGNORECASE)


def _may_end_in_frame(text: str) -> bool:
    words = text.rstrip().rstrip(".!?").rstrip().rsplit(" ", 2)
    return bool(_FRAME_END.fullmatch(words[-1]) or (len(words) > 1 and _FRAME_END.fullmatch(" ".join(words[-2:]))))


_SEE_ALSO = re.compile(rf"\(\s*(?:see|per|cf\.?|source:?)\s+(?:the |this |its )?{_NP}{_SRC}s?\s*\)", re.IGNORECASE)


_ENUMERATOR = re.compile(r"\s*(?:[-*+\u2022]\s+|\(?\d{1,3}[.)]\s+(?=\D)|#{1,6}\s+)")


_FOOTNOTE = re.compile(r"(?<![\w\])])\[\^?\d{1,3}\]")


_URL = re.compile(r"\b(?:https?|ftp)://\S+", re.IGNORECASE)


_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]{0,20}(?:\s[^<>]{0,200})?/?>")


# A claim is read twice: prepared for the word analysis (``_prepare_claim``) and, once the
# rules show it supported, for its literals (``rules.literal_missing``); a claim without
# markup, URLs or curly quote marks gives both the same text. The frames are looked for once.
@lru_cache(maxsize=64)
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
    m = _TRAILING_FRAME.search(text, max(0, len(text) - 160)) if _may_end_in_frame(text) else None
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


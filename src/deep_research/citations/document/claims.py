"""Claim units: the report text each ref supports, cut from the parsed document.

A unit is a paragraph, a list item, a table cell or a heading, as the document's blocks
give them (so nothing inside code is a unit, and a heading is a heading only where a
renderer shows one). Inside a paragraph, a line that starts like a list item (``- ``,
``1. ``, ``• ``) starts a new unit, and a table's lines are cut into cells (a renderer
with tables shows them so); a heading's unit leaves out its number ("2.1").

Inside a unit the text is split into sentences (:func:`split_sentences`); a piece the
split leaves with no letter or digit of its own (``".``, ``...``, a lone closing quote or
bracket) joins the sentence before it. Refs separated only by spaces or punctuation form
one group that shares one claim. In a sentence with several groups, a group's claim is the
text since the previous group (or the sentence start); the text after the last group up to
the sentence end belongs to the last group ("X <A>, and Y <B>, as Z." gives A "X" and B
"and Y, as Z."). A ref placed after the period supports the sentence before it. A quote
that is grammatically part of the sentence (it starts with a lower-case letter or a digit:
"its core <ref>"typically reaches 55 to 65 °C"</ref>") is kept in the claim text, since the
reader reads it as part of the sentence.

What a reader reads: a ref the sentence needs for its words (:func:`claim_units` returns
them, ``Document.quoted``) is shown with its quoted words in every rendered output, the
marker after them; any other ref is a marker only. The sentence needs them when the quote
is grammatically part of it (above), or when the ref follows a colon and ends the sentence
("the smell shows it: <ref>"A pile that smells of ammonia ..."</ref>."): the claim of
such a colon ref stays the text before the colon, the quote being the evidence it shows.

A ref whose unit holds nothing but refs (a table cell holding only a ref, a ref alone in
its paragraph or list item) has no claim of its own: its claim text is empty, and the
claim check gives it ``no_claim`` (never ``supported``: nothing was checked).
"""

from __future__ import annotations

import bisect
import re

from ..claims.analysis import _CJK_RANGES
from ..claims.framing import _HTML_TAG
from ..claims.types import Claim
from ..model import Ref
from ..verify import _without_markup, strip_quote_marks
from .model import Block, Document

_HEADING_NUMBER = re.compile(r"[ \t]*(?:\d{1,3}(?:\.\d{1,3}){0,4}\.?|[IVXLC]{1,6}\.)[ \t]+")
# a line of a paragraph that reads as the start of an item (CommonMark lets "2." or a
# bullet "•" continue a paragraph; a reader sees a new item)
_ITEM_START = re.compile(r"(?:[-*+\u2022]|\d{1,9}[.)])(?:[ \t]+|$)")
_TABLE_SEP = re.compile(r"\|?(?::?-+:?\|)*:?-+:?\|?")
_SPACES = re.compile(r"\s*")
_HAS_WORD = re.compile(rf"[^\W_]|[{_CJK_RANGES}]")
_GROUP_BREAK = re.compile(rf"[^\W_]|[{_CJK_RANGES}]|\|")
_NOT_NEWLINE = re.compile(r"[^\n]")
_NON_SPACE = re.compile(r"\S")  # \S is "not str.isspace()", character for character
_CELL_MARK = re.compile(r"[\\|]")  # what ends a table cell ("|") or escapes the next character
SENTENCE_MARKS = (".", "!", "?", "\u3002", "\uff01", "\uff1f")
# punctuation right after a ref (closing quotes or emphasis first): the report's own
PUNCT_AFTER = re.compile(r"[\"'\u201d\u2019*_)\]]*[.,;:!?\u3002\uff0c\uff1b\uff1a\uff01\uff1f]")


# --- sentences --------------------------------------------------------------------------------
# A sentence end: ".!?…" (closing quotes, brackets or emphasis after them) before
# whitespace or the end, or "。！？" (closing marks after them). Written to start with one
# character class, so the scan over the report runs at C speed (an alternation of two
# classes is tried at every position, about five times slower); the look-behind after
# the first mark tells the two kinds apart.
_TERMINAL = re.compile(r"[.!?\u2026\u3002\uff01\uff1f](?:(?<=[.!?\u2026])[.!?\u2026]*[\"'\u201d\u2019)\]*_]*(?=\s|$)"
                       r"|(?<=[\u3002\uff01\uff1f])[\u3002\uff01\uff1f]*[\u300d\u300f\u201d\u2019)\uff09]*)")
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
            # (a ref blanked in the structure text is a run of spaces: found by one search)
            nonspace = _NON_SPACE.search(text, b, end)
            j = nonspace.start() if nonspace is not None else max(b, end)
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
        if a < b and text[a].isspace():
            nonspace = _NON_SPACE.search(text, a, b)
            a = nonspace.start() if nonspace is not None else b
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            out.append((a, b))
    return out


def _is_inline(ref: Ref, before: str) -> bool:
    """Is the quote grammatically part of the sentence? It starts with a lower-case letter
    or a digit, after text that does not end a sentence."""
    q = ref.quote.lstrip("\"'\u201c\u2018\u00ab*_ ")
    first = next((ch for ch in q if ch.isalnum()), "")
    if not first or not (first.islower() or first.isdigit()):
        return False
    b = before.rstrip()
    return bool(b) and b[-1] not in ".!?\u3002\uff01\uff1f"


def _ends_sentence_after(s: str, pos: int, end: int) -> bool:
    """Does only punctuation (a sentence mark, a closing quote or bracket) follow ``pos``
    up to the end of its sentence or unit in the structure text ``s``?"""
    if pos and s[pos - 1] in SENTENCE_MARKS:  # the quote's own final mark ends it
        return True
    j = pos
    while j < end and (s[j] in " \t*_\"'\u201d\u2019)]" or s[j] in SENTENCE_MARKS):
        if s[j] in SENTENCE_MARKS:
            return True
        j += 1
    return j >= end or s[j] == "\n"


# "\s+(mark)" and "[,;:]+(stop?)$", each written to start with one character class (a
# pattern that does is searched at C speed; one that starts with a repeat is tried at
# every position)
_SPACE_BEFORE_MARK = re.compile(r"\s\s*([,.;:!?\u3002\uff0c\uff01\uff1f])")
_TRAILING_PAUSE = re.compile(r"[,;:\uff1a\uff0c][,;:\uff1a\uff0c]*([.!?\u3002]?)$")
# what the two need in a text whose only whitespace is single spaces: a space before a
# mark; a pause at the end, or before a final stop (found at C speed, without the
# substitution's template: most claims have neither)
_SPACE_MARK = re.compile(r" [,.;:!?\u3002\uff0c\uff01\uff1f]")
_PAUSES = ",;:\uff1a\uff0c"


def _plain(md: str) -> str:
    text = _HTML_TAG.sub(" ", md)
    text = _without_markup(text) if text.strip() else ""
    text = " ".join(text.split())
    if _SPACE_MARK.search(text):
        text = _SPACE_BEFORE_MARK.sub(r"\1", text)
    if text[-1:] in _PAUSES or (text[-1:] in ".!?\u3002" and text[-2:-1] in _PAUSES):
        text = _TRAILING_PAUSE.sub(r"\1", text)
    return text.lstrip(",;:\u2014\u2013- ").strip()


# --- units -----------------------------------------------------------------------------------
def structure(markdown: str, code: list[tuple[int, int]], refs: list[Ref]) -> str:
    """The report with code blanked and each ref replaced by spaces (a final sentence mark
    of its quote kept), offsets unchanged: where units and sentences are found."""
    out: list[str] = []
    pos = 0
    spans = [(a, b, None) for a, b in code] + [(r.start, r.end, r) for r in refs]
    for a, b, ref in sorted(spans, key=lambda x: (x[0], x[1])):
        if a < pos:
            continue
        out.append(markdown[pos:a])
        if ref is None:
            out.append(_NOT_NEWLINE.sub(" ", markdown[a:b]))
        else:
            q = ref.quote.rstrip("\"'\u201d\u2019 ")
            last = q[-1:] if q[-1:] in SENTENCE_MARKS else ""
            out.append(" " * (b - a - len(last)) + last)
        pos = b
    out.append(markdown[pos:])
    return "".join(out)


def _table_lines(rows: list[str]) -> set[int]:
    """Which lines of a paragraph a renderer with tables reads as table rows."""
    table: set[int] = set()
    if not any("|" in row for row in rows):
        return table  # every rule below needs a pipe on the line: most paragraphs have none
    for i, row in enumerate(rows):
        compact = row.replace(" ", "").replace("\t", "")
        if "-" in compact and "|" in compact and _TABLE_SEP.fullmatch(compact):
            table.add(i)
            for near in (i - 1, i + 1):
                if 0 <= near < len(rows) and "|" in rows[near]:
                    table.add(near)
    for i, row in enumerate(rows):
        if (i - 1 in table and "|" in row and row.strip()) or row.lstrip().startswith("|"):
            table.add(i)
    return table


def _cells(s: str, a: int, e: int) -> list[tuple[int, int]]:
    """The non-empty cells of the table row s[a:e] (a "|" after a backslash is text)."""
    out, cell = [], a
    m = _CELL_MARK.search(s, a, e)
    while m is not None:
        i = m.start()
        if s[i] == "|":
            out.append((cell, i))
            cell = i + 1
            m = _CELL_MARK.search(s, i + 1, e)
        else:  # a backslash: the next character is text
            m = _CELL_MARK.search(s, i + 2, e)
    out.append((cell, e))
    return [(x, y) for x, y in out if s[x:y].strip()]


def _paragraph_units(s: str, block: Block) -> list[tuple[int, int]]:
    segs = list(block.segments)
    rows = [s[a:e] for a, e in segs]
    table = _table_lines(rows)
    units: list[tuple[int, int]] = []
    cur: list[int] | None = None
    for i, (a, e) in enumerate(segs):
        if i in table:
            if cur:
                units.append((cur[0], cur[1]))
            cur = None
            compact = rows[i].replace(" ", "").replace("\t", "")
            if "-" in compact and _TABLE_SEP.fullmatch(compact):
                continue
            units.extend(_cells(s, a, e))
            continue
        item = _ITEM_START.match(s, a, e) if i else None
        if item is not None:
            at = item.end()
            while (more := _ITEM_START.match(s, at, e)) and more.end() > at:  # "- 1. item": nested
                at = more.end()
            if cur:
                units.append((cur[0], cur[1]))
            cur = [at, e]
        elif cur is None:
            first = _ITEM_START.match(s, a, e) if s[a] == "\u2022" else None
            cur = [first.end() if first else a, e]
        else:
            cur[1] = e
    if cur:
        units.append((cur[0], cur[1]))
    return [(a, b) for a, b in units if b > a]


def units(doc: Document, s: str) -> list[tuple[int, int]]:
    """Spans of the text units of the document, in order (block markers excluded)."""
    out: list[tuple[int, int]] = []
    icode: list[int] | None = None
    for block in doc.blocks:
        if block.kind == "indented":
            a, e = block.segments[0]
            if icode is not None and s.count("\n", icode[1], a) == 1 and not s[icode[1]:block.start].strip():
                icode[1] = e
                continue
            if icode:
                out.append((icode[0], icode[1]))
            icode = [a, e]
            continue
        if icode:
            out.append((icode[0], icode[1]))
            icode = None
        if block.kind == "fence":
            continue
        if block.kind == "heading" and not block.setext:
            a, e = block.segments[0]
            num = _HEADING_NUMBER.match(s, a, e)
            if num:
                a = num.end()
            text = s[a:e].rstrip(" \t\r")
            bare = text.rstrip("#")
            if bare != text and (not bare or bare[-1] in " \t"):
                text = bare
            if text.strip():
                out.append((a, a + len(text)))
            continue
        out.extend(_paragraph_units(s, block))
    if icode:
        out.append((icode[0], icode[1]))
    out.sort()
    return out


def sentences(s: str, start: int, end: int) -> list[tuple[int, int]]:
    """Sentence spans of s[start:end]; a piece with no letter or digit of its own (a split
    leftover such as ``".`` or ``...``) joins the sentence before it (or, first, the next)."""
    spans = split_sentences(s, start, end)
    out: list[tuple[int, int]] = []
    orphan: int | None = None
    for a, b in spans:
        if not _HAS_WORD.search(s, a, b):
            if out:
                out[-1] = (out[-1][0], b)
            elif orphan is None:
                orphan = a
            continue
        if orphan is not None:
            a, orphan = orphan, None
        out.append((a, b))
    if orphan is not None:  # nothing but leftovers
        out.append((orphan, spans[-1][1]))
    return out


def unit_sentences(doc: Document, s: str, start: int, end: int) -> list[tuple[int, int]]:
    """:func:`sentences` of ``s[start:end]``, ``s`` being the document's structure text:
    kept on the document, so the claims and the uncited-statement check split a unit once.
    The list is shared: read it, never change it."""
    key = (start, end)
    spans = doc.sentence_spans.get(key)
    if spans is None:
        spans = doc.sentence_spans[key] = sentences(s, start, end)
    return spans


def claim_units(doc: Document) -> tuple[str, list[Claim], frozenset[int]]:
    """(the document's structure text, the claim of every ref, the refs whose quoted words
    the sentence needs): the sentence (or clause) of the report each ref supports, as
    published; see the module notes for the last."""
    markdown, refs = doc.markdown, sorted(doc.refs, key=lambda r: r.start)
    s = structure(markdown, doc.code, refs)
    quoted: set[int] = set()
    if not refs:
        return s, [], frozenset()
    spans = units(doc, s)
    starts = [u[0] for u in spans]
    by_unit: dict[int, list[Ref]] = {}
    for r in refs:
        k = bisect.bisect_right(starts, r.start) - 1
        if k < 0 or not (spans[k][0] <= r.start < max(spans[k][1], r.start + 1)):
            # not inside a unit (odd markup): the line is the unit
            a = markdown.rfind("\n", 0, r.start) + 1
            b = markdown.find("\n", r.end)
            spans.append((a, len(markdown) if b < 0 else b))
            starts.append(a)
            k = len(spans) - 1
        by_unit.setdefault(k, []).append(r)
    claims: list[Claim] = []
    for k, urefs in by_unit.items():
        ua, ub = spans[k]
        ub = max(ub, max(r.end for r in urefs))
        groups: list[list[Ref]] = [[urefs[0]]]
        for r in urefs[1:]:
            if _GROUP_BREAK.search(s, groups[-1][-1].end, r.start):
                groups.append([r])
            else:
                groups[-1].append(r)
        sents = unit_sentences(doc, s, ua, ub) or [(ua, ub)]
        s_starts = [a for a, _ in sents]
        per_sentence: dict[int, list[list[Ref]]] = {}
        for g in groups:
            si = max(0, bisect.bisect_right(s_starts, g[0].start) - 1)
            # a group right at a sentence start (after "X. ") supports the sentence before
            if si > 0 and _SPACES.match(s, s_starts[si]).end() >= g[0].start:
                si -= 1
            per_sentence.setdefault(si, []).append(g)
        for si, gs in sorted(per_sentence.items()):
            sa, sb = sents[si]
            sa = min(sa, gs[0][0].start)
            for gi, g in enumerate(gs):
                first, last = g[0], g[-1]
                a = sa if gi == 0 else gs[gi - 1][-1].end
                pieces = [markdown[a:first.start]]
                if _is_inline(first, pieces[0]):
                    words = strip_quote_marks(first.quote)
                    if words.endswith(SENTENCE_MARKS) and PUNCT_AFTER.match(markdown, first.end):
                        words = words[:-1]  # the report's own mark ends the sentence: read once
                    pieces.append(" " + words + " ")
                    quoted.add(first.index)
                elif (pieces[0].rstrip().endswith((":", "\uff1a")) and len(g) == 1
                      and _ends_sentence_after(s, first.end, ub)):
                    quoted.add(first.index)
                end = last.end
                if gi == len(gs) - 1:  # the rest of the sentence after the last group belongs to it
                    tail_end = max(last.end, sb)
                    if si + 1 < len(sents):  # the sentence may end beyond the unit when refs sit after it
                        tail_end = min(tail_end, sents[si + 1][0])
                    pieces.append(markdown[last.end:max(last.end, tail_end)])
                    end = max(last.end, tail_end)
                text = _plain("".join(pieces))
                span_start = a
                while span_start < first.start and markdown[span_start] in " \t\n,;:":
                    span_start += 1
                claims.append(Claim(text, [r.index for r in g], span_start, end))
    claims.sort(key=lambda c: c.start)
    return s, claims, frozenset(quoted)


def claims_for_refs(markdown: str, refs: list[Ref] | None = None) -> list[Claim]:
    """The claims of ``refs`` (default: every ref) of a report given as markdown; a parsed
    report has them already (:attr:`Document.claims`)."""
    from .parse import parse

    doc = parse(markdown)
    if refs is not None and [(r.start, r.end) for r in refs] != [(r.start, r.end) for r in doc.refs]:
        doc.refs = list(refs)
        doc.structure, doc.claims, doc.quoted = claim_units(doc)
    return doc.claims

"""Claim units of a report: blocks (paragraph, list item, table cell, heading), split into
sentences, and the claim each ref (or group of refs) supports."""

from __future__ import annotations

import re

from .analysis import _CJK_RANGES
from .framing import _HTML_TAG
from .types import Claim
from ..model import Ref
from ..refs import _mask_code
from ..verify import _without_markup, strip_quote_marks

# --- sentences -------------------------------------------------------------------------------
_TERMINAL = re.compile(r"[.!?\u2026]+[\"'\u201d\u2019)\]*_]*(?=\s|$)|[\u3002\uff01\uff1f]+[\u300d\u300f\u201d\u2019)\uff09]*")


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
            j = b
            while j < end and text[j].isspace():
                j += 1
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
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            out.append((a, b))
    return out


# --- claims of a report ----------------------------------------------------------------------
_LINE = re.compile(r"[^\n]*\n?")


_HEADING = re.compile(r"[ \t]{0,3}#{1,6}(?:[ \t]|$)")


_HEADING_NUMBER = re.compile(r"[ \t]*(?:\d{1,3}(?:\.\d{1,3}){0,4}\.?|[IVXLC]{1,6}\.)[ \t]+")


_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+\u2022]|\d{1,9}[.)])(?:[ \t]|$)")


_BLOCKQUOTE = re.compile(r"[ \t]{0,3}>[ \t]?")


_TABLE_SEP = re.compile(r"\|?(?::?-+:?\|)*:?-+:?\|?")


_HR = re.compile(r"[ \t]{0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})")


_SPACES = re.compile(r"\s*")


def _blank_refs(masked: str, refs: list[Ref]) -> str:
    """The report with each ref tag replaced by spaces (a final sentence mark of its quote
    kept), so structure and sentences are found without the quotes."""
    out = []
    pos = 0
    for r in sorted(refs, key=lambda r: r.start):
        if r.start < pos:
            continue
        out.append(masked[pos:r.start])
        width = r.end - r.start
        q = r.quote.rstrip("\"'\u201d\u2019 ")
        last = q[-1:] if q[-1:] in (".", "!", "?", "\u3002", "\uff01", "\uff1f") else ""
        out.append(" " * (width - len(last)) + last)
        pos = r.end
    out.append(masked[pos:])
    return "".join(out)


def _units(text: str) -> list[tuple[int, int]]:
    """Spans of the text units of a markdown text: paragraphs, list items, table cells,
    headings (block markers excluded)."""
    units: list[tuple[int, int]] = []
    cur: list[int] | None = None  # [start, end] of the open paragraph or list item
    lines = []
    for m in _LINE.finditer(text):
        if m.start() == m.end():
            break
        body = m.group(0).rstrip("\n")
        lines.append((m.start(), body))
    table_lines = set()
    for idx, (_, body) in enumerate(lines):
        compact = body.replace(" ", "").replace("\t", "")
        if "-" in compact and "|" in compact and _TABLE_SEP.fullmatch(compact):
            table_lines.add(idx)
            for near in (idx - 1, idx + 1):
                if 0 <= near < len(lines) and "|" in lines[near][1]:
                    table_lines.add(near)
    # extend a table downwards over its rows
    for idx in range(len(lines)):
        if idx - 1 in table_lines and "|" in lines[idx][1] and lines[idx][1].strip():
            table_lines.add(idx)

    def close() -> None:
        nonlocal cur
        if cur is not None and cur[1] > cur[0]:
            units.append((cur[0], cur[1]))
        cur = None

    for idx, (start, body) in enumerate(lines):
        offset = 0
        bq = _BLOCKQUOTE.match(body)
        while bq and bq.end() > offset:
            offset = bq.end()
            bq = _BLOCKQUOTE.match(body, offset)
        line = body[offset:]
        lstart = start + offset
        if not line.strip() or _HR.fullmatch(line):
            close()
            continue
        if idx in table_lines or line.lstrip().startswith("|"):
            close()
            compact = line.replace(" ", "").replace("\t", "")
            if _TABLE_SEP.fullmatch(compact) and "-" in compact:
                continue
            cell = 0
            i = 0
            cells = []
            while i < len(line):
                ch = line[i]
                if ch == "\\":
                    i += 2
                    continue
                if ch == "|":
                    cells.append((cell, i))
                    cell = i + 1
                i += 1
            cells.append((cell, len(line)))
            for a, b in cells:
                if line[a:b].strip():
                    units.append((lstart + a, lstart + b))
            continue
        h = _HEADING.match(line)
        if h:
            close()
            a = h.end()
            num = _HEADING_NUMBER.match(line, a)
            if num:
                a = num.end()
            b = len(line.rstrip().rstrip("#").rstrip()) if line.rstrip().endswith("#") else len(line)
            units.append((lstart + a, lstart + max(a, b)))
            continue
        li = _LIST_ITEM.match(line)
        if li:
            close()
            at = li.end()
            while (more := _LIST_ITEM.match(line, at)) and more.end() > at:  # "- 1. item": nested
                at = more.end()
            cur = [lstart + at, lstart + len(line)]
            continue
        if cur is None:
            cur = [lstart, lstart + len(line)]
        else:
            cur[1] = lstart + len(line)
    close()
    return units


def _is_inline(ref: Ref, before: str) -> bool:
    """Is the quote grammatically part of the sentence? It starts with a lower-case letter
    or a digit, after text that does not end a sentence."""
    q = ref.quote.lstrip("\"'\u201c\u2018\u00ab*_ ")
    first = next((ch for ch in q if ch.isalnum()), "")
    if not first or not (first.islower() or first.isdigit()):
        return False
    b = before.rstrip()
    return bool(b) and b[-1] not in ".!?\u3002\uff01\uff1f"


def _plain(md: str) -> str:
    text = _HTML_TAG.sub(" ", md)
    text = _without_markup(text) if text.strip() else ""
    text = " ".join(text.split())
    text = re.sub(r"\s+([,.;:!?\u3002\uff0c\uff01\uff1f])", r"\1", text)
    text = re.sub(r"[,;:\uff1a\uff0c]+([.!?\u3002]?)$", r"\1", text)
    return text.lstrip(",;:\u2014\u2013- ").strip()


def claims_for_refs(markdown: str, refs: list[Ref]) -> list[Claim]:
    """The claim of every ref of a report: the sentence (or clause) of the report it
    supports, as published. Refs separated only by spaces or punctuation share a claim."""
    if not refs:
        return []
    refs = sorted(refs, key=lambda r: r.start)
    structure = _blank_refs(_mask_code(markdown), refs).replace("\n", "\n")
    # newlines inside a ref (a wrapped quote) must not split its paragraph
    chars = list(structure)
    for r in refs:
        for p in range(r.start, r.end):
            if chars[p] == "\n":
                chars[p] = " "
    structure = "".join(chars)
    units = _units(structure)
    starts = [u[0] for u in units]
    import bisect

    by_unit: dict[int, list[Ref]] = {}
    for r in refs:
        k = bisect.bisect_right(starts, r.start) - 1
        if k < 0 or not (units[k][0] <= r.start < max(units[k][1], r.start + 1)):
            # not inside a unit (HTML block, odd markup): the line is the unit
            a = markdown.rfind("\n", 0, r.start) + 1
            b = markdown.find("\n", r.end)
            units.append((a, len(markdown) if b < 0 else b))
            starts.append(a)
            k = len(units) - 1
        by_unit.setdefault(k, []).append(r)
    claims: list[Claim] = []
    for k, urefs in by_unit.items():
        ua, ub = units[k]
        ub = max(ub, max(r.end for r in urefs))
        # groups of adjacent refs
        groups: list[list[Ref]] = [[urefs[0]]]
        for r in urefs[1:]:
            gap = structure[groups[-1][-1].end:r.start]
            if not re.search(rf"[^\W_]|[{_CJK_RANGES}]|\|", gap):
                groups[-1].append(r)
            else:
                groups.append([r])
        sentences = split_sentences(structure, ua, ub) or [(ua, ub)]
        s_starts = [s for s, _ in sentences]
        # group -> sentence: the last sentence starting at or before the group
        per_sentence: dict[int, list[list[Ref]]] = {}
        for g in groups:
            si = max(0, bisect.bisect_right(s_starts, g[0].start) - 1)
            # a group right at a sentence start (after "X. ") supports the sentence before
            if si > 0 and _SPACES.match(structure, s_starts[si]).end() >= g[0].start:
                si -= 1
            per_sentence.setdefault(si, []).append(g)
        for si, gs in sorted(per_sentence.items()):
            sa, sb = sentences[si]
            sa = min(sa, gs[0][0].start)
            for gi, g in enumerate(gs):
                first, last = g[0], g[-1]
                a = sa if gi == 0 else gs[gi - 1][-1].end
                pieces = [markdown[a:first.start]]
                if _is_inline(first, pieces[0]):
                    pieces.append(" " + strip_quote_marks(first.quote) + " ")
                end = last.end
                if gi == len(gs) - 1:
                    # the rest of the sentence after the last group belongs to it
                    tail_end = max(last.end, sb)
                    # the sentence may end beyond the unit when refs sit after it
                    if si + 1 < len(sentences):
                        tail_end = min(max(tail_end, last.end), sentences[si + 1][0])
                    pieces.append(markdown[last.end:max(last.end, tail_end)])
                    end = max(last.end, tail_end)
                text = _plain("".join(pieces))
                span_start = a
                while span_start < first.start and markdown[span_start] in " \t\n,;:":
                    span_start += 1
                claims.append(Claim(text, [r.index for r in g], span_start, end))
    claims.sort(key=lambda c: c.start)
    return claims


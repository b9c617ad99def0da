"""Text of documents as a reader (and a browser's find-in-page) sees it.

HTML is parsed with lxml and walked in document order: text a browser does not render
or cannot search (scripts, styles, ``hidden`` elements, images, form controls) is left
out; each block element starts a new line; whitespace is collapsed as CSS does outside
``<pre>``, and kept inside it. The result is the ``text`` content format of
:mod:`deep_research.citations.text`: one block per line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import lxml.html
from lxml import etree

_SKIP = frozenset(
    """script style template noscript head title iframe object embed video audio canvas
    img input textarea select meter progress map area source track picture svg math
    button datalist""".split()
)
_BLOCK = frozenset(
    """address article aside blockquote body caption center col colgroup dd details dialog
    dir div dl dt fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 header
    hgroup hr html legend li listing main menu nav ol optgroup option p plaintext pre
    search section summary table tbody td tfoot th thead tr ul xmp""".split()
)
_PRE = frozenset("pre listing plaintext xmp".split())
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
_WS = re.compile(r"[ \t\n\r\f]+")


@dataclass(frozen=True)
class Extracted:
    title: str
    text: str


class _Lines:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.buf: list[str] = []

    def add(self, s: str | None) -> None:
        if s:
            self.buf.append(s)

    def flush(self) -> None:
        if self.buf:
            line = _WS.sub(" ", "".join(self.buf)).strip()
            if line:
                self.lines.append(line)
            self.buf = []

    def pre(self, s: str) -> None:
        self.flush()
        for line in s.split("\n"):
            if line.strip():
                self.lines.append(line.rstrip())


def _hidden(el) -> bool:
    if el.get("hidden") is not None:
        return True
    style = el.get("style")
    return bool(style and _HIDDEN_STYLE.search(style))


def _pre_text(el) -> str:
    parts: list[str] = []

    def walk(node) -> None:
        if isinstance(node.tag, str) and (node.tag.lower() in _SKIP or _hidden(node)):
            return
        if isinstance(node.tag, str) and node.tag.lower() == "br":
            parts.append("\n")
        elif node.text and isinstance(node.tag, str):
            parts.append(node.text)
        for child in node:
            walk(child)
            if child.tail:
                parts.append(child.tail)

    walk(el)
    text = "".join(parts)
    return text[1:] if text.startswith("\n") else text


def html_to_text(html: str | bytes) -> Extracted:
    """Visible text of an HTML page, one block per line, and its title."""
    if isinstance(html, bytes):
        doc = lxml.html.document_fromstring(html)
    else:
        doc = lxml.html.document_fromstring(html.encode("utf-8"), parser=lxml.html.HTMLParser(encoding="utf-8"))
    title = _WS.sub(" ", doc.findtext(".//title") or "").strip()
    body = doc.find("body")
    root = body if body is not None else doc
    out = _Lines()
    # Iterative walk: (element, phase) where phase False = enter, True = leave.
    stack: list[tuple[etree._Element, bool]] = [(root, False)]
    while stack:
        el, leaving = stack.pop()
        if leaving:
            if el.tag in _BLOCK:
                out.flush()
            out.add(el.tail)
            continue
        tag = el.tag.lower() if isinstance(el.tag, str) else None
        if tag is None:  # comment or processing instruction
            out.add(el.tail)
            continue
        if tag in _SKIP or _hidden(el):
            out.add(el.tail)
            continue
        if tag == "br":
            out.flush()
            out.add(el.tail)
            continue
        if tag in _PRE:
            out.pre(_pre_text(el))
            out.add(el.tail)
            continue
        if tag in _BLOCK:
            out.flush()
        out.add(el.text)
        stack.append((el, True))
        for child in reversed(el):
            stack.append((child, False))
    out.flush()
    return Extracted(title=title, text="\n".join(out.lines))

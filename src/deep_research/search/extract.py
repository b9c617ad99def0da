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

_SKIP = frozenset((
    "script", "style", "template", "noscript", "head", "title", "iframe", "object", "embed",
    "video", "audio", "canvas", "img", "input", "textarea", "select", "meter", "progress",
    "map", "area", "source", "track", "picture", "svg", "math", "button", "datalist"
))
_BLOCK = frozenset((
    "address", "article", "aside", "blockquote", "body", "caption", "center", "col",
    "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "footer", "form", "frameset", "h1", "h2", "h3", "h4", "h5",
    "h6", "header", "hgroup", "hr", "html", "legend", "li", "listing", "main", "menu",
    "nav", "ol", "optgroup", "option", "p", "plaintext", "pre", "search", "section",
    "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "xmp"
))
_PRE = frozenset(("pre", "listing", "plaintext", "xmp"))
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
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
    return text.removeprefix("\n")


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


# --- character sets -----------------------------------------------------------------------
# The HTML standard's prescan looks for a <meta> charset in the first 1024 bytes.
_META_CHARSET = re.compile(
    rb"""<meta[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)""", re.IGNORECASE
)
_UTF8_NAMES = frozenset({"utf-8", "utf8", "unicode-1-1-utf-8"})


class NotUtf8Error(ValueError):
    """Bytes that are not valid UTF-8 (the message says where)."""


def decode_utf8(data: bytes) -> str:
    """UTF-8 text, without a leading byte order mark; :class:`NotUtf8Error` otherwise."""
    try:
        return data.decode("utf-8-sig")  # plain UTF-8, minus a BOM when there is one
    except UnicodeDecodeError as e:
        raise NotUtf8Error(f"not valid UTF-8 (byte {e.start})") from None


def declared_charset(html: bytes) -> str | None:
    """The charset an HTML page declares in a ``<meta>`` tag near its start, lower-cased."""
    m = _META_CHARSET.search(html[:1024])
    return m.group(1).decode("ascii").lower() if m else None


def is_utf8_name(charset: str) -> bool:
    return charset.lower() in _UTF8_NAMES


# --- markdown -----------------------------------------------------------------------------
_MD_ATX = re.compile(r"^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_MD_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_MD_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_FRONT_TITLE = re.compile(r"""^title:\s*["']?(.*?)["']?\s*$""")


def markdown_title(text: str) -> str:
    """The document title of markdown text: a front-matter ``title:``, else the first
    heading outside code blocks, else ``""``."""
    lines = text.splitlines()
    start = 0
    if lines and lines[0].strip() == "---":  # YAML front matter
        for start, line in enumerate(lines[1:], 2):
            if line.strip() in ("---", "..."):
                break
            m = _FRONT_TITLE.match(line)
            if m and m.group(1):
                return m.group(1)
        else:
            start = 0  # no closing line: not front matter after all
    fence = None
    for i in range(start, len(lines)):
        line = lines[i]
        m = _MD_FENCE.match(line)
        if m:
            fence = None if fence and m.group(1)[0] == fence else (fence or m.group(1)[0])
            continue
        if fence:
            continue
        m = _MD_ATX.match(line)
        if m and m.group(1).strip():
            return m.group(1).strip()
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line.strip() and not line.startswith("    ") and _MD_SETEXT.match(nxt):
            return line.strip()
    return ""


# --- PDF ----------------------------------------------------------------------------------
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_SENTENCE_END = re.compile(r"[.!?:;\"'\u201d\u2019)\]]$")


class PdfTextError(ValueError):
    """A PDF whose text cannot be read (corrupt, encrypted, or only images)."""


def pdf_to_text(data: bytes) -> Extracted:
    """Text of a PDF with pypdf, one block per line, and its metadata title.

    Lines are whitespace-collapsed. A line wrapped inside a sentence (it does not end in
    sentence punctuation and the next starts in lower case) is joined to the next line,
    so that quoted sentences are not cut by the page layout's line breaks.
    """
    import io

    import pypdf

    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise PdfTextError("encrypted PDF (needs a password)")
        title = _WS.sub(" ", str(reader.metadata.title or "") if reader.metadata else "").strip()
        pages = [page.extract_text() or "" for page in reader.pages]
    except PdfTextError:
        raise
    except Exception as e:  # noqa: BLE001 - pypdf raises many kinds of error on bad files
        raise PdfTextError(f"unreadable PDF ({type(e).__name__}: {e})") from None
    lines = [_WS.sub(" ", _CONTROL.sub(" ", ln)).strip() for p in pages for ln in p.splitlines()]
    return Extracted(title=title, text="\n".join(_reflow([line for line in lines if line])))


def _reflow(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        wrapped = out and not _SENTENCE_END.search(out[-1]) and not out[-1].endswith("-")
        if wrapped and line[0].islower():
            out[-1] = f"{out[-1]} {line}"
        else:
            out.append(line)
    return out

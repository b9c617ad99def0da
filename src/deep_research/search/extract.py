"""Text of documents as a reader (and a browser's find-in-page) sees it.

HTML is parsed with lxml and walked in document order: text a browser does not render
or cannot search (scripts, styles, ``hidden`` elements, images, form controls, and
elements the page's own CSS hides with ``display: none`` or ``visibility: hidden``) is
left out; each block element starts a new line; whitespace is collapsed as CSS does outside
``<pre>``, and kept inside it. The result is the ``text`` content format of
:mod:`deep_research.citations.page`: one block per line.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import cssselect2
import lxml.html
import tinycss2
from lxml import etree

from ..terminal import printable

log = logging.getLogger(__name__)

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
_WS = re.compile(r"[ \t\n\r\f]+")


@dataclass(frozen=True)
class Extracted:
    title: str
    text: str


_HEADING_TAGS = {f"h{n}": "#" * n for n in range(1, 7)}
_MARK_ONLY = re.compile(r"#{1,6}")


class _Lines:
    def __init__(self, headings: bool = False) -> None:
        self.lines: list[str] = []
        self.buf: list[str] = []
        self.headings = headings  # h1..h6 lines start with markdown marks ("## ")

    def add(self, s: str | None) -> None:
        if s:
            self.buf.append(s)

    def flush(self) -> None:
        if self.buf:
            line = _WS.sub(" ", "".join(self.buf)).strip()
            if line and not (self.headings and _MARK_ONLY.fullmatch(line)):
                self.lines.append(line)
            self.buf = []

    def pre(self, s: str) -> None:
        self.flush()
        for line in s.split("\n"):
            if line.strip():
                self.lines.append(line.rstrip())


# --- the page's CSS: which elements it hides ------------------------------------------------
# A desktop browser window (the viewport the tests and most readers use) decides which
# @media blocks apply.
VIEWPORT_WIDTH = 1280
MAX_CSS_BYTES = 2 * 1024 * 1024
_WIDTH = re.compile(r"\((min|max)-width\s*:\s*([\d.]+)(px|em|rem)?\s*\)")


def _media_applies(media: str) -> bool:
    m = media.strip().lower()
    if not m or m in ("all", "screen"):
        return True
    for part in m.split(","):
        words = part.strip()
        words = re.sub(r"^(only\s+)?(screen|all)(\s+and\s+)?", "", words).strip()
        ok = True
        rest = words
        for kind, value, unit in _WIDTH.findall(words):
            px = float(value) * (16 if unit in ("em", "rem") else 1)
            ok = ok and (px <= VIEWPORT_WIDTH if kind == "min" else px >= VIEWPORT_WIDTH)
            rest = rest.replace(f"({kind}-width", "", 1)
        rest = re.sub(r"[\d.]+(px|em|rem)?\s*\)|and|\s|:", "", rest)
        if ok and not rest:
            return True
    return False


def _declarations(tokens) -> list[tuple[str, str, bool]]:
    """display/visibility declarations of a rule body (tokens) or an inline style (str)."""
    out = []
    for d in tinycss2.parse_declaration_list(tokens, skip_comments=True, skip_whitespace=True):
        if d.type == "declaration" and d.lower_name in ("display", "visibility"):
            out.append((d.lower_name, tinycss2.serialize(d.value).strip().lower(), d.important))
    return out


class _PageStyle:
    """display/visibility of every element, from the page's <style> blocks, its local
    stylesheets and inline styles (a small cascade: importance, specificity, order)."""

    def __init__(self, doc, load_css):
        self.load_css = load_css
        self.matcher = cssselect2.Matcher()
        self.order = 0
        self.none: set = set()
        self.invisible: set = set()
        self.rules = 0
        for css in self._stylesheets(doc, load_css):
            self._add_sheet(css)
        if self.rules:
            self._cascade(doc)
        else:
            self._inline_only(doc)

    def _stylesheets(self, doc, load_css):
        for el in doc.iter("style", "link"):
            media = el.get("media") or ""
            if not _media_applies(media):
                continue
            if el.tag == "style":
                yield el.text or ""
            elif "stylesheet" in (el.get("rel") or "").lower().split() and load_css is not None:
                loaded = load_css(el.get("href") or "", None)
                if loaded:
                    yield loaded

    def _add_sheet(self, sheet, depth: int = 0) -> None:
        css, where = sheet if isinstance(sheet, tuple) else (sheet, None)
        for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
            if rule.type == "at-rule" and rule.lower_at_keyword == "import":
                self._import(rule, where, depth)
            elif rule.type == "qualified-rule":
                self._add_rule(rule)
            elif rule.type == "at-rule" and rule.lower_at_keyword == "media" and rule.content is not None:
                if _media_applies(tinycss2.serialize(rule.prelude)):
                    for inner in tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True):
                        if inner.type == "qualified-rule":
                            self._add_rule(inner)

    def _import(self, rule, where, depth: int) -> None:
        """@import of another local stylesheet (Sphinx themes hide header links there)."""
        if self.load_css is None or depth >= 4:
            return
        href, media = None, []
        for tok in rule.prelude:
            if href is None and tok.type in ("string", "url"):
                href = tok.value
            elif href is None and tok.type == "function" and tok.lower_name == "url":
                href = "".join(getattr(a, "value", "") for a in tok.arguments)
            elif href is not None:
                media.append(tinycss2.serialize([tok]))
        if href and _media_applies("".join(media)):
            loaded = self.load_css(href, where)
            if loaded:
                self._add_sheet(loaded, depth + 1)

    def _add_rule(self, rule) -> None:
        decls = _declarations(rule.content)
        if not decls:
            return
        try:
            selectors = cssselect2.compile_selector_list(rule.prelude)
        except cssselect2.SelectorError:
            return
        for sel in selectors:
            self.order += 1
            self.matcher.add_selector(sel, decls)
            self.rules += 1

    def _cascade(self, doc) -> None:
        visible: dict = {}
        for w in cssselect2.ElementWrapper.from_html_root(doc).iter_subtree():
            el = w.etree_element
            won: dict[str, tuple] = {}
            for specificity, order, pseudo, decls in self.matcher.match(w):
                if pseudo is not None:
                    continue
                for prop, value, important in decls:
                    key = (important, False, specificity, order)
                    if prop not in won or key > won[prop][0]:
                        won[prop] = (key, value)
            for prop, value, important in _inline(el):
                key = (important, True, (9, 9, 9), 0)
                if prop not in won or key > won[prop][0]:
                    won[prop] = (key, value)
            if won.get("display", (None, ""))[1] == "none":
                self.none.add(el)
            parent = w.parent.etree_element if w.parent is not None else None
            own = won.get("visibility", (None, None))[1]
            shown = visible.get(parent, True) if own in (None, "inherit") else own == "visible"
            visible[el] = shown
            if not shown:
                self.invisible.add(el)

    def _inline_only(self, doc) -> None:
        for el in doc.iter():
            if not isinstance(el.tag, str):
                continue
            for prop, value, _ in _inline(el):
                if prop == "display" and value == "none":
                    self.none.add(el)
        # visibility from inline styles, with inheritance
        def walk(el, inherited: bool) -> None:
            shown = inherited
            for prop, value, _ in _inline(el):
                if prop == "visibility":
                    shown = value == "visible" if value != "inherit" else inherited
            if not shown:
                self.invisible.add(el)
            for child in el:
                if isinstance(child.tag, str):
                    walk(child, shown)
        walk(doc, True)

    def hidden(self, el) -> bool:
        return el in self.none or el.get("hidden") is not None

    def shown(self, el) -> bool:
        """Is text directly inside el visible?"""
        return el not in self.invisible


def _inline(el) -> list[tuple[str, str, bool]]:
    style = el.get("style") if isinstance(el.tag, str) else None
    if not style:
        return []
    try:
        return _declarations(style)
    except Exception:  # noqa: BLE001 - a broken inline style hides nothing
        return []


def local_css_loader(base_dir: Path, root: Path):
    """Reads stylesheets a page links to (and what they @import), if they are files
    inside ``root``. Returns (css text, folder of that file) or None."""
    root = root.resolve()

    def load(href: str, relative_to: Path | None) -> tuple[str, Path] | None:
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or not parts.path:
            return None
        path = ((relative_to or base_dir) / unquote(parts.path)).resolve()
        if root not in path.parents or not path.is_file() or path.stat().st_size > MAX_CSS_BYTES:
            return None
        try:
            return path.read_text(encoding="utf-8", errors="replace"), path.parent
        except OSError as e:
            log.warning("cannot read stylesheet %s: %s", printable(path), e)
            return None

    return load


def _pre_text(el, style: "_PageStyle") -> str:
    parts: list[str] = []

    def walk(node) -> None:
        if isinstance(node.tag, str) and (node.tag.lower() in _SKIP or style.hidden(node)):
            return
        if isinstance(node.tag, str) and node.tag.lower() == "br":
            parts.append("\n")
        elif node.text and isinstance(node.tag, str) and style.shown(node):
            parts.append(node.text)
        for child in node:
            walk(child)
            if child.tail and style.shown(node):
                parts.append(child.tail)

    walk(el)
    text = "".join(parts)
    return text.removeprefix("\n")


def _main_element(body, style: "_PageStyle"):
    """The one element the page marks as its main content (``<main>`` or
    ``role="main"``, else a single ``<article>``), if it is shown and holds text."""
    for path in ("//main | //*[@role='main']", "//article"):
        found = [el for el in body.xpath(path) if not style.hidden(el)]
        if len(found) == 1 and (found[0].text_content() or "").strip():
            return found[0]
    return None


def html_to_text(html: str | bytes, *, load_css=None, headings: bool = False, main_only: bool = False) -> Extracted:
    """Visible text of an HTML page, one block per line, and its title. ``load_css(href,
    relative_to)`` returns a linked stylesheet (see :func:`local_css_loader`), or None.
    With ``headings`` (for documents no browser shows, such as EPUB chapters) a heading's
    line starts with markdown marks, ``## Title`` for ``<h2>``. ``main_only``: only the
    text of the page's main element when it marks one (see :func:`_main_element`), leaving
    out navigation, headers and footers around it."""
    if isinstance(html, bytes):
        doc = lxml.html.document_fromstring(html)
    else:
        doc = lxml.html.document_fromstring(html.encode("utf-8"), parser=lxml.html.HTMLParser(encoding="utf-8"))
    title = _WS.sub(" ", doc.findtext(".//title") or "").strip()
    style = _PageStyle(doc, load_css)
    body = doc.find("body")
    root = body if body is not None else doc
    if main_only:
        root = _main_element(root, style) if _main_element(root, style) is not None else root
    out = _Lines(headings)
    # Iterative walk: (element, phase) where phase False = enter, True = leave.
    stack: list[tuple[etree._Element, bool]] = [(root, False)]
    while stack:
        el, leaving = stack.pop()
        parent = el.getparent()
        tail_shown = parent is None or style.shown(parent)
        if leaving:
            if el.tag in _BLOCK:
                out.flush()
            if tail_shown and el is not root:  # text after the root is outside what was asked for
                out.add(el.tail)
            continue
        tag = el.tag.lower() if isinstance(el.tag, str) else None
        if tag is None:  # comment or processing instruction
            if tail_shown:
                out.add(el.tail)
            continue
        if tag in _SKIP or style.hidden(el):
            if tail_shown:
                out.add(el.tail)
            continue
        if tag == "br":
            out.flush()
            if tail_shown:
                out.add(el.tail)
            continue
        if tag in _PRE:
            out.pre(_pre_text(el, style))
            if tail_shown:
                out.add(el.tail)
            continue
        if tag in _BLOCK:
            out.flush()
            if headings and tag in _HEADING_TAGS:
                out.add(_HEADING_TAGS[tag] + " ")
        if style.shown(el):
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

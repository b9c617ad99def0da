"""Text of documents as a reader (and a browser's find-in-page) sees it.

HTML is parsed with lxml and walked in document order: text a browser does not render
or cannot search (scripts, styles, ``hidden`` elements, images, form controls, and
elements the page's own CSS hides with ``display: none``, ``visibility: hidden``,
or ``font-size: 0``) is left out (not ``opacity: 0``: pages fade content in from it with a
script, so a reader sees it); each block element starts a new line; whitespace is collapsed as CSS does outside
``<pre>``, and kept inside it. The result is the ``text`` content format of
:mod:`deep_research.citations.page`: one block per line. (For speed, the page's own tree is
then changed so that lxml's string of it is that text with marks at the line ends, see
:func:`_tree_text`; the walk reads pages where that cannot be done.)

Pages of one site share their stylesheets: pass one :class:`StyleCache` for many pages
(``styles=``, and its :meth:`StyleCache.loader`) and each stylesheet is parsed once; the
text is the same as without it.
"""

from __future__ import annotations

import functools
import itertools
import logging
import os
import re
import stat
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import cssselect2
import cssselect2.parser
import tinycss2
from lxml import etree
from webencodings import ascii_lower

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
    # Where each part of ``text`` came from (PDF page, slide, sheet row, EPUB chapter, CSV
    # row): marks ``[offset, kind, ...]`` as deep_research.citations.locations describes;
    # None for documents without such places (HTML, markdown, text, Word).
    locations: list | None = None
    # Why ``text`` ends before the document does (an HTML page past the parser's limits,
    # see :func:`parser_limit`), or None: the text is the whole document's.
    cut: str | None = None


# At most this many location marks per document (more: none kept, bounding what a run keeps
# in its state); names from a file (sheet names, chapter titles) at most LABEL_CHARS long.
MAX_LOCATION_MARKS = 10_000
LABEL_CHARS = 80


def location_label(text: object) -> str:
    """A name from a file as one bounded line of printable text (control and bidi
    characters escaped), for a location mark. The citations side cleans marks again when it
    reads them (deep_research.citations.locations.parse_locations)."""
    s = printable(" ".join(str(text or "").split()))
    return s if len(s) <= LABEL_CHARS else s[: LABEL_CHARS - 1].rstrip() + "\u2026"


_HEADING_TAGS = {f"h{n}": "#" * n for n in range(1, 7)}
_MARK_ONLY = re.compile(r"#{1,6}")


# The white space of str.split() and str.strip() that CSS does not collapse (_WS).
_OTHER_SPACE = re.compile("[\x0b\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


def _collapse(s: str) -> str:
    """``_WS.sub(" ", s)`` of a stripped text (no white space at either end). A text with
    no run of spaces and no other white space (most lines) is returned as it is, without
    the regular expression (three times slower); one whose only white space is what
    ``_WS`` collapses (most others) is joined from ``str.split()`` (twice as fast)."""
    if "  " in s or "\n" in s or "\t" in s or "\r" in s or "\f" in s:
        if _OTHER_SPACE.search(s) is None:
            return " ".join(s.split())
        return _WS.sub(" ", s)
    return s


class _Lines:
    def __init__(self, headings: bool = False) -> None:
        self.lines: list[str] = []
        self.buf: list[str] = []
        self.headings = headings  # h1..h6 lines start with markdown marks ("## ")

    def add(self, s: str | None) -> None:
        if s:
            self.buf.append(s)

    def flush(self) -> None:
        buf = self.buf
        if buf:
            # _WS.sub(" ", text).strip(), with the ends stripped first (the same line: a
            # stripped text starts and ends with no space for _WS to replace), and no
            # regular expression for a text of spaces only (most, between blocks)
            line = ("".join(buf) if len(buf) > 1 else buf[0]).strip()
            if line:
                line = _collapse(line)
                if not (self.headings and _MARK_ONLY.fullmatch(line)):
                    self.lines.append(line)
            buf.clear()  # the same list: the walk holds it

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
# Stylesheet files one page may load, its links and their @imports together: a sheet that
# imports itself (or another) 200 times made 200**4 loads of one cached file, a page took
# the whole per-file CPU limit of the index (60 s) and a folder of such pages stalled it.
# Documentation pages load a few (Sphinx: 3-8).
MAX_SHEET_LOADS = 64
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


_PROPERTIES = ("display", "visibility", "font-size")
_NUMBER = re.compile(r"([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)([a-z%]*)")
# font-size units relative to the parent's font size: zero times anything is zero
_RELATIVE_FONT = frozenset(("em", "ex", "ch", "cap", "ic", "lh", "%"))


def _font_state(value: str) -> bool | None:
    """What a ``font-size`` does to the text of its element: False when it is zero, True
    when it is a size of its own (an absolute length, ``rem``, a keyword, anything not
    understood), None when it keeps the parent's zero or non-zero size (``inherit``, a
    size relative to the parent's: ``2em``, ``150%``, ``larger``)."""
    if value in ("inherit", "unset", "revert", "revert-layer", "larger", "smaller"):
        return None
    m = _NUMBER.fullmatch(value)
    if not m:
        return True
    if float(m[1]) == 0:
        return False
    return None if m[2] in _RELATIVE_FONT else True


def _hides(prop: str, value: str) -> bool:
    """May this declaration hide its element (or, for a visibility, show one)?"""
    if prop == "font-size":
        return _font_state(value) is False
    return prop == "visibility" or value == "none"


def _declarations(tokens) -> list[tuple[str, str, bool]]:
    """display/visibility/font-size declarations of a rule body (tokens) or an
    inline style (str)."""
    out = []
    for d in tinycss2.parse_declaration_list(tokens, skip_comments=True, skip_whitespace=True):
        if d.type == "declaration" and d.lower_name in _PROPERTIES:
            out.append((d.lower_name, tinycss2.serialize(d.value).strip().lower(), d.important))
    return out


class _Sheet:
    """A stylesheet parsed once: its display/visibility/font-size rules with their compiled
    selectors, and its ``@import`` rules, in the order they appear."""

    _serials = itertools.count()

    def __init__(self, css: str):
        self.serial = next(self._serials)  # never reused: part of the keys of cached matchers
        # Each item: ("rules", [(compiled selectors, declarations), ...]) or ("import", href)
        self.items: list[tuple] = []
        for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
            if rule.type == "at-rule" and rule.lower_at_keyword == "import":
                href = _import_href(rule)
                if href:
                    self.items.append(("import", href))
            elif rule.type == "qualified-rule":
                self._add_rules([rule])
            elif rule.type == "at-rule" and rule.lower_at_keyword == "media" and rule.content is not None:
                if _media_applies(tinycss2.serialize(rule.prelude)):
                    inner = tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True)
                    self._add_rules([r for r in inner if r.type == "qualified-rule"])

    def _add_rules(self, rules) -> None:
        out = []
        for rule in rules:
            decls = _declarations(rule.content)
            if not decls:
                continue
            try:
                selectors = cssselect2.compile_selector_list(rule.prelude)
            except cssselect2.SelectorError:
                continue
            out.append((selectors, decls, _required_attributes(rule.prelude, len(selectors))))
        if out:
            if self.items and self.items[-1][0] == "rules":
                self.items[-1][1].extend(out)
            else:
                self.items.append(("rules", out))


def _required_attributes(prelude, count: int) -> list[str | None]:
    """For each selector of a rule, an attribute every element it matches must have (from
    an attribute selector such as ``[hidden]`` on its subject), or None when it has none
    or its shape is not understood. Only used to skip elements no selector can match."""
    try:
        parsed = list(cssselect2.parser.parse(prelude))
    except Exception:  # noqa: BLE001 - compiled fine above; never let the shortcut fail
        return [None] * count
    if len(parsed) != count:
        return [None] * count
    out: list[str | None] = []
    for selector in parsed:
        node = getattr(selector, "parsed_tree", None)
        if isinstance(node, cssselect2.parser.CombinedSelector):
            node = node.right
        found = None
        for simple in getattr(node, "simple_selectors", ()):
            if isinstance(simple, cssselect2.parser.AttributeSelector) and simple.namespace is not None:
                # the key cssselect2 tests in an HTML document; absent, the test fails
                found = f"{{{simple.namespace}}}{simple.lower_name}" if simple.namespace else simple.lower_name
                break
        out.append(found)
    return out


def _import_href(rule) -> str | None:
    """The URL of an ``@import`` whose media apply, else None."""
    href, media = None, []
    for tok in rule.prelude:
        if href is None and tok.type in ("string", "url"):
            href = tok.value
        elif href is None and tok.type == "function" and tok.lower_name == "url":
            href = "".join(getattr(a, "value", "") for a in tok.arguments)
        elif href is not None:
            media.append(tinycss2.serialize([tok]))
    return href if href and _media_applies("".join(media)) else None


class _Rules:
    """A cssselect2 matcher of display/visibility/font-size selectors, and an index
    of what an element must have for a selector that can hide it (``display: none``, any
    ``visibility``, ``font-size: 0``) to match it: an id, class or tag such a selector names (the keys
    cssselect2's matcher files selectors under), a ``lang`` attribute, or the attribute of
    an attribute selector. Other selectors (``display: block``...) only matter where they
    override one of these, or an inline style (a non-zero ``font-size`` is looked for
    below a ``font-size: 0`` only, see :meth:`_PageStyle._cascade`). An element without inline style that no
    hiding selector can match is neither ``display: none`` nor of its own visibility: it
    is not wrapped and matched at all (most elements of a page)."""

    def __init__(self, groups) -> None:
        self.matcher = cssselect2.Matcher()
        self.count = 0
        self.ids: set[str] = set()
        self.classes: set[str] = set()
        self.names: set[str] = set()
        self.namespaces: set[str] = set()
        self.lang = False
        self.attributes: set[str] = set()
        self.every_element = False  # some selector may match any element
        self._class_re: re.Pattern | None = None
        self._by_tag: dict[str, bool] = {}  # tag -> may a name or namespace selector match it
        self._by_class: dict[str, bool] = {}  # class attribute -> does it hold one of classes
        for _, _, rules in groups:
            for selectors, decls, required in rules:
                for sel, attribute in zip(selectors, required):
                    self.matcher.add_selector(sel, decls)
                    self.count += 1
                    if any(_hides(prop, value) for prop, value, _ in decls):
                        self._index(sel, attribute)

    def _index(self, sel, attribute: str | None) -> None:
        """Where cssselect2's Matcher.add_selector files the selector (same order of tests)."""
        if getattr(sel, "never_matches", False):
            return
        for name, where in (("id", self.ids), ("class_name", self.classes), ("lower_local_name", self.names),
                            ("namespace", self.namespaces)):
            value = getattr(sel, name, None)
            if value is not None:
                where.add(value)
                return
        if getattr(sel, "requires_lang_attr", False):
            self.lang = True
        elif attribute is not None:
            self.attributes.add(attribute)
        else:
            self.every_element = True

    def candidates(self, doc, hidden: list) -> list:
        """The elements of ``doc`` (itself included), in document order, that have a
        ``style`` attribute or that :meth:`may_match`: the same tests written out in one
        loop, which runs for every element of a page (a call of :meth:`may_match` per
        element was most of the cascade's time). Those with a ``hidden`` attribute are
        added to ``hidden`` on the way."""
        if self.every_element:
            out = list(doc.iter(etree.Element))
            hidden.extend(el for el in out if el.get("hidden") is not None)
            return out
        ids, lang = self.ids, self.lang
        # an element with a hidden attribute is kept at once when a selector names the attribute
        hidden_hits = "hidden" in self.attributes
        attributes = self.attributes - {"hidden"}
        word = self._class_word().search if self.classes else None
        by_tag, by_class = self._by_tag, self._by_class
        if len(by_tag) > 4096:  # tag names and class attributes come from pages: bounded
            by_tag.clear()
        if len(by_class) > 4096:
            by_class.clear()
        out = []
        add = out.append
        get = _get  # (unbound: no bound method made per element)
        for el in doc.iter(etree.Element):
            if get(el, "hidden") is not None:
                hidden.append(el)
                if hidden_hits:
                    add(el)
                    continue
            if get(el, "style"):
                add(el)
                continue
            tag = el.tag
            hit = by_tag.get(tag)
            if hit is None:
                hit = by_tag[tag] = self._tag_may_match(tag)
            if hit or (ids and get(el, "id") in ids) or (lang and get(el, "lang") is not None):
                add(el)
                continue
            if word is not None:
                names = get(el, "class")
                if names:
                    # a site's pages repeat their class attributes: each is searched once
                    hit = by_class.get(names)
                    if hit is None:
                        hit = word(names) is not None
                        if len(names) <= 256:  # (the table holds short ones only)
                            by_class[names] = hit
                    if hit:
                        add(el)
                        continue
            if attributes:
                for a in attributes:
                    if get(el, a) is not None:
                        add(el)
                        break
        return out

    def _tag_may_match(self, tag: str) -> bool:
        return bool(self.names and _lower_local_name(tag) in self.names
                    or self.namespaces and _namespace(tag) in self.namespaces)

    def _class_word(self) -> re.Pattern:
        """Finds one of the class names as a word of a class attribute (split at CSS
        whitespace, as cssselect2 splits it)."""
        if self._class_re is None:
            words = "|".join(re.escape(c) for c in sorted(self.classes))
            self._class_re = re.compile(f"(?:^|[ \t\r\n\f])(?:{words})(?![^ \t\r\n\f])")
        return self._class_re

    def may_match(self, el) -> bool:
        """False only when no hiding selector can match ``el`` (a superset test)."""
        if self.every_element:
            return True
        if self.ids and el.get("id") in self.ids:
            return True
        if self.classes:
            names = el.get("class")
            if names and self._class_word().search(names):
                return True
        tag = el.tag
        if self.names and _lower_local_name(tag) in self.names:
            return True
        if self.namespaces and _namespace(tag) in self.namespaces:
            return True
        if self.lang and el.get("lang") is not None:
            return True
        for attribute in self.attributes:
            if el.get(attribute) is not None:
                return True
        return False


_get = etree._Element.get


@functools.lru_cache(maxsize=4096)
def _lower_local_name(tag: str) -> str:
    pos = tag.rfind("}")
    return ascii_lower(tag if pos == -1 or tag[0] != "{" else tag[pos + 1:])


@functools.lru_cache(maxsize=4096)
def _namespace(tag: str) -> str:
    pos = tag.rfind("}")
    return "" if pos == -1 or tag[0] != "{" else tag[1:pos]


_UNSET = object()


class _cached:  # noqa: N801 - used as a decorator, like functools.cached_property
    """:func:`functools.cached_property` without its lock: Python 3.11's takes a lock at
    each first access of an attribute, a sixth of the cost of matching an element (a
    page's wrappers are made and read by one thread)."""

    def __init__(self, func) -> None:
        self.func = func
        self.name = func.__name__

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value


class _Wrapper(cssselect2.ElementWrapper):
    """A cssselect2 element wrapper whose previous sibling, index and siblings are found
    only when a selector asks for them (``:nth-child``, ``+``, ``~``...): most selectors
    look at the element and its ancestors only, and making a wrapper for every earlier
    sibling of every ancestor was most of the cost of matching. What it answers is what
    the wrapper ``ElementWrapper.iter_subtree`` makes answers."""

    def __init__(self, etree_element, parent, index=None, previous=_UNSET, in_html_document=True,
                 content_language=None, table: _Wrappers | None = None):
        self.etree_element = etree_element
        self.parent = parent
        self.in_html_document = in_html_document
        self.transport_content_language = content_language
        self._ancestors = None
        self._previous_siblings = None
        self._table = table
        # given (the root; wrappers cssselect2 itself makes, for :has()): kept as they are
        if index is not None:
            self.__dict__["index"] = index
        if previous is not _UNSET:
            self.__dict__["previous"] = previous

    # cssselect2's own cached attributes, computed as it computes them, without the lock
    etree_children = _cached(cssselect2.ElementWrapper.etree_children.func)
    local_name = _cached(cssselect2.ElementWrapper.local_name.func)
    namespace_url = _cached(cssselect2.ElementWrapper.namespace_url.func)
    id = _cached(cssselect2.ElementWrapper.id.func)
    classes = _cached(cssselect2.ElementWrapper.classes.func)
    lang = _cached(cssselect2.ElementWrapper.lang.func)
    in_disabled_fieldset = _cached(cssselect2.ElementWrapper.in_disabled_fieldset.func)

    @_cached
    def etree_siblings(self):
        return [self.etree_element] if self.parent is None else self.parent.etree_children

    @_cached
    def index(self):
        return self.parent.child_index[self.etree_element]

    @_cached
    def child_index(self) -> dict:
        """Each element child's position among the element children."""
        return {child: i for i, child in enumerate(self.etree_children)}

    @_cached
    def previous(self):
        i = self.index
        if i == 0:
            return None
        before = self.etree_siblings[i - 1]
        if self._table is not None:
            return self._table.get(before)
        return _Wrapper(before, self.parent, i - 1, in_html_document=self.in_html_document)


class _Wrappers:
    """cssselect2 element wrappers (:class:`_Wrapper`), made only for the elements that
    need one and their ancestors."""

    def __init__(self, root) -> None:
        self.root = root
        self.made = {root: _Wrapper(root, None, 0, None, table=self)}

    def get(self, el):
        made = self.made
        chain = []
        while el not in made:
            chain.append(el)
            el = el.getparent()
        parent = made[el]
        for el in reversed(chain):
            parent = made[el] = _Wrapper(el, parent, in_html_document=parent.in_html_document, table=self)
        return parent


class StyleCache:
    """Stylesheets parsed once for many pages (one index run): the pages of a
    documentation folder share a few stylesheets, and parsing them was most of the cost
    of extracting a page.

    * a stylesheet link is resolved to a file once per folder, and the file read again
      only when its size, modification or change time or inode differ (:meth:`loader`);
    * its rules are parsed and their selectors compiled once per distinct content (the
      parse does not depend on where the file is: ``@import`` URLs are resolved per page);
    * the selector matcher of a page is built once per sequence of stylesheets.

    Every table is bounded (least recently used entries are dropped). A page extracted
    with a cache gets exactly the text it gets without one.
    """

    MAX_FILES = 2048
    MAX_SHEETS = 512
    MAX_MATCHERS = 256

    def __init__(self) -> None:
        self._paths: OrderedDict[Path, Path] = OrderedDict()
        self._links: OrderedDict[tuple, Path | None] = OrderedDict()
        self._files: OrderedDict[Path, tuple[tuple, tuple[str, Path] | None]] = OrderedDict()
        self._sheets: OrderedDict[str, _Sheet] = OrderedDict()
        self._matchers: OrderedDict[tuple, _Rules] = OrderedDict()
        self.parsed = 0  # stylesheets parsed (for tests and benchmarks)

    @staticmethod
    def _get(table: OrderedDict, key):
        value = table.get(key)
        if value is not None:
            table.move_to_end(key)
        return value

    @staticmethod
    def _put(table: OrderedDict, key, value, limit: int):
        table[key] = value
        if len(table) > limit:
            table.popitem(last=False)
        return value

    def sheet(self, css: str) -> _Sheet:
        found = self._get(self._sheets, css)
        if found is None:
            self.parsed += 1
            found = self._put(self._sheets, css, _Sheet(css), self.MAX_SHEETS)
        return found

    def rules(self, groups: list[tuple[int, int, list]]) -> _Rules:
        """The selectors of the rule groups (sheet serial, item index, rules), in order."""
        key = tuple((serial, i) for serial, i, _ in groups)
        found = self._get(self._matchers, key)
        if found is None:
            found = self._put(self._matchers, key, _Rules(groups), self.MAX_MATCHERS)
        return found

    def preload(self, root: Path, files: list[Path], max_bytes: int) -> int:
        """Reads and parses stylesheet files of the folder ``root`` now, as a page's link to
        each would (only files inside ``root``, each at most :data:`MAX_CSS_BYTES`), up to
        ``max_bytes`` of them in all: processes forked afterwards inherit them parsed
        instead of parsing each again. The text of a page does not change. Returns how
        many were parsed."""
        load, done, size = self.loader(root, root), 0, 0
        for path in files:
            try:
                rel = path.relative_to(root).as_posix()
            except ValueError:
                continue
            loaded = load(quote(rel), root)
            if loaded is None:
                continue
            size += len(loaded[0])
            if size > max_bytes:
                break
            self.sheet(loaded[0])
            done += 1
        return done

    def loader(self, base_dir: Path, root: Path):
        """:func:`local_css_loader`, reading each file once while it is unchanged."""
        return local_css_loader(base_dir, root, files=self)

    def resolve(self, path: Path) -> Path:
        """``path.resolve()``, once per path (links are taken not to change during a run)."""
        found = self._get(self._paths, path)
        if found is None:
            found = self._put(self._paths, path, path.resolve(), self.MAX_FILES)
        return found

    def find(self, root: Path, where: Path, href: str, find) -> Path | None:
        """``find(href, where)``, the stylesheet file a link names, once per link and folder."""
        key = (root, where, href)
        if key in self._links:
            self._links.move_to_end(key)
            return self._links[key]
        return self._put(self._links, key, find(href, where), self.MAX_FILES)

    def read(self, path: Path, st, read) -> tuple[str, Path] | None:
        sig = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)
        found = self._get(self._files, path)
        if found is not None and found[0] == sig:
            return found[1]
        return self._put(self._files, path, (sig, read()), self.MAX_FILES)[1]


class _PageStyle:
    """display/visibility (and font-size: 0) of every element, from the page's <style> blocks, its local
    stylesheets and inline styles (a small cascade: importance, specificity, order)."""

    def __init__(self, doc, load_css, cache: StyleCache | None = None):
        self.load_css = load_css
        self.cache = cache if cache is not None else StyleCache()
        self.none: set = set()
        self.invisible: set = set()
        self.with_hidden: list = []  # the elements with a hidden attribute, in document order
        self.loads_left = MAX_SHEET_LOADS
        groups: list[tuple[int, int, list]] = []
        for css in self._stylesheets(doc, load_css):
            self._add_sheet(css, groups)
        self.rules = self.cache.rules(groups)
        if self.rules.count:
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
                loaded = self._load(el.get("href") or "", None)
                if loaded:
                    yield loaded

    def _add_sheet(self, sheet, groups: list, depth: int = 0) -> None:
        css, where = sheet if isinstance(sheet, tuple) else (sheet, None)
        parsed = self.cache.sheet(css)
        for i, item in enumerate(parsed.items):
            if item[0] == "rules":
                groups.append((parsed.serial, i, item[1]))
            elif self.load_css is not None and depth < 4:
                # @import of another local stylesheet (Sphinx themes hide header links there)
                loaded = self._load(item[1], where)
                if loaded:
                    self._add_sheet(loaded, groups, depth + 1)

    def _load(self, href: str, where):
        """The stylesheet a link or @import names, while the page has loads left
        (:data:`MAX_SHEET_LOADS`); the ones after are left out, as if missing."""
        if self.loads_left <= 0:
            return None
        self.loads_left -= 1
        return self.load_css(href, where)

    def _cascade(self, doc) -> None:
        rules, wrappers = self.rules, _Wrappers(doc)
        own: dict = {}  # element -> is it visible, for elements whose visibility is not inherited
        fonts: dict = {}  # element -> is its font size non-zero, for those with a size of their own
        done: set = set()
        may_match = rules.may_match

        def won_by(el, inline) -> dict[str, tuple]:
            won: dict[str, tuple] = {}
            for specificity, order, pseudo, decls in rules.matcher.match(wrappers.get(el)):
                if pseudo is not None:
                    continue
                for prop, value, important in decls:
                    key = (important, False, specificity, order)
                    if prop not in won or key > won[prop][0]:
                        won[prop] = (key, value)
            for prop, value, important in inline:
                key = (important, True, (9, 9, 9), 0)
                if prop not in won or key > won[prop][0]:
                    won[prop] = (key, value)
            return won

        # the elements, in the order iter_subtree visits them, that have a style attribute
        # or that a selector able to hide them (display: none, a visibility,
        # font-size: 0) may match
        for el in rules.candidates(doc, self.with_hidden):
            style = el.get("style")
            inline = _inline_style(style) if style else ()
            if not inline and not may_match(el):
                continue  # nothing here can hide it
            done.add(el)
            won = won_by(el, inline)
            if won.get("display", (None, ""))[1] == "none":
                self.none.add(el)
            value = won.get("visibility", (None, None))[1]
            if value not in (None, "inherit"):
                own[el] = value == "visible"
            state = _font_state(won["font-size"][1]) if "font-size" in won else None
            if state is not None:
                fonts[el] = state
        # below a font-size: 0, an element with a size of its own is read again: every
        # such element is matched (not only those a hiding selector may match)
        for top in [el for el, state in fonts.items() if not state]:
            for el in top.iterdescendants(etree.Element):
                if el not in done:
                    done.add(el)
                    style = el.get("style")
                    won = won_by(el, _inline_style(style) if style else ())
                    state = _font_state(won["font-size"][1]) if "font-size" in won else None
                    if state is not None:
                        fonts[el] = state
        wrappers.made.clear()  # each wrapper refers to the table: no cycle left for the collector
        self._inherit(own)
        self._inherit(fonts)

    def _inline_only(self, doc) -> None:
        own: dict = {}
        fonts: dict = {}
        hidden = self.with_hidden
        for el in doc.iter(etree.Element):
            get = el.get
            if get("hidden") is not None:
                hidden.append(el)
            style = get("style")
            decls = _inline_style(style) if style else None
            if not decls:
                continue
            for prop, value, _ in decls:
                if prop == "display" and value == "none":
                    self.none.add(el)
            for prop, value, _ in decls:  # the last one counts
                if prop == "visibility":
                    if value == "inherit":
                        own.pop(el, None)
                    else:
                        own[el] = value == "visible"
                elif prop == "font-size":
                    state = _font_state(value)
                    if state is None:
                        fonts.pop(el, None)
                    else:
                        fonts[el] = state
        self._inherit(own)
        self._inherit(fonts)

    def _inherit(self, own: dict) -> None:
        """Invisible: the elements whose nearest ancestor-or-self with a visibility (or,
        called again, a font size) of its own is not ``visible`` (non-zero); the root
        inherits ``visible`` (a non-zero size)."""
        for top, visible in own.items():
            if visible:
                continue
            self.invisible.add(top)
            stack = [top]
            while stack:
                for child in stack.pop().iterchildren(etree.Element):
                    if child not in own:  # those with their own visibility are tops themselves
                        self.invisible.add(child)
                        stack.append(child)

    def hidden(self, el) -> bool:
        return el in self.none or el.get("hidden") is not None

    def shown(self, el) -> bool:
        """Is text directly inside el visible?"""
        return el not in self.invisible


@functools.lru_cache(maxsize=4096)
def _inline_style(style: str) -> list[tuple[str, str, bool]]:
    """The display/visibility/font-size declarations of a style attribute (callers never change
    the list)."""
    try:
        return _declarations(style)
    except Exception:  # noqa: BLE001 - a broken inline style hides nothing
        return []


def local_css_loader(base_dir: Path, root: Path, *, files: StyleCache | None = None):
    """Reads stylesheets a page links to (and what they @import), if they are files
    inside ``root``. Returns (css text, folder of that file) or None. With ``files``, a
    file is read once while it is unchanged (see :class:`StyleCache`)."""
    root = root.resolve() if files is None else files.resolve(root)

    def read(path: Path) -> tuple[str, Path] | None:
        # what is opened is checked again, and read up to the bound: the file checked by
        # name may have become a FIFO (an open or read without end: a blocked read takes no
        # CPU time, so the index's CPU limit never ends it) or grown since
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            try:
                st = os.fstat(fd)
                if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_CSS_BYTES:
                    return None
                data = os.read(fd, MAX_CSS_BYTES + 1)
            finally:
                os.close(fd)
        except OSError as e:
            log.warning("cannot read stylesheet %s: %s", printable(path), e)
            return None
        if len(data) > MAX_CSS_BYTES:
            return None
        return data.decode("utf-8", errors="replace"), path.parent

    def find(href: str, relative_to: Path | None) -> Path | None:
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or not parts.path:
            return None
        path = ((relative_to or base_dir) / unquote(parts.path)).resolve()
        return path if root in path.parents else None

    def load(href: str, relative_to: Path | None) -> tuple[str, Path] | None:
        path = find(href, relative_to) if files is None else files.find(root, relative_to or base_dir, href, find)
        if path is None:
            return None
        try:
            st = path.stat()
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_CSS_BYTES:
            return None
        if files is None:
            return read(path)
        return files.read(path, st, lambda: read(path))

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
        if len(found) == 1 and (_string(found[0]) or "").strip():
            return found[0]
    return None


# lxml's HTML parser without lxml.html's element classes: the same tree, but lxml.html
# asks a Python function for the class of every element the walk touches (a third of
# the walk's time).
_HTML_PARSER = etree.HTMLParser()
_string = etree.XPath("string()")  # lxml.html's text_content()


def _document(html: bytes, parser: etree.HTMLParser):
    """The root element, as ``lxml.html.document_fromstring`` returns it."""
    doc = etree.fromstring(html, parser)
    if doc is None:
        raise etree.ParserError("Document is empty")
    return doc


def parser_limit(parser: etree.HTMLParser) -> str | None:
    """Why lxml stopped reading the page ``parser`` last parsed, or None: elements nested
    more than 256 deep or one piece of text or markup over 10 MB end the parse (libxml2's
    guard against hostile pages, kept), and what comes after is not read."""
    for e in parser.error_log:
        if e.type == etree.ErrorTypes.ERR_RESOURCE_LIMIT:
            what = ("its elements are nested more than 256 deep" if "depth" in e.message.lower()
                    else "it holds one piece of text or markup over 10 MB")
            return f"{what} (a limit kept against hostile pages)"
    return None


def html_parser_limit(html: str | bytes) -> str | None:
    """Why lxml stopped reading ``html`` early (:func:`parser_limit`), or None. For a page
    that gave no text, so that its skip names the cause rather than "no text"."""
    parser = etree.HTMLParser() if isinstance(html, bytes) else etree.HTMLParser(encoding="utf-8")
    try:
        etree.fromstring(html if isinstance(html, bytes) else html.encode("utf-8"), parser)
    except etree.LxmlError:
        pass
    limit = parser_limit(parser)
    return f"the HTML parser stopped before any text: {limit}" if limit else None


def _cut_note(limit: str | None) -> str | None:
    """What :attr:`Extracted.cut` says of a page the parser stopped reading early."""
    return f"the HTML parser stopped reading the page early, and its text after that point is missing: {limit}" \
        if limit else None


def html_to_text(html: str | bytes, *, load_css=None, headings: bool = False, main_only: bool = False,
                 styles: StyleCache | None = None) -> Extracted:
    """Visible text of an HTML page, one block per line, and its title. ``load_css(href,
    relative_to)`` returns a linked stylesheet (see :func:`local_css_loader`), or None.
    With ``headings`` (for documents no browser shows, such as EPUB chapters) a heading's
    line starts with markdown marks, ``## Title`` for ``<h2>``. ``main_only``: only the
    text of the page's main element when it marks one (see :func:`_main_element`), leaving
    out navigation, headers and footers around it. ``styles``: parsed stylesheets shared
    with other pages (see :class:`StyleCache`). A page given as bytes is decoded as a
    browser would (its declared charset); see also :func:`utf8_html_to_text`."""
    if isinstance(html, str):
        return _html_text(html.encode("utf-8"), True, load_css, headings, main_only, styles)
    return _html_text(html, False, load_css, headings, main_only, styles)


def utf8_html_to_text(data: bytes, *, load_css=None, styles: StyleCache | None = None) -> Extracted:
    """``html_to_text(data.decode("utf-8"), ...)`` of bytes known to be valid UTF-8 with no
    byte order mark, without decoding the page and encoding it again for the parser."""
    return _html_text(data, True, load_css, False, False, styles)


def _html_text(data: bytes, utf8: bool, load_css, headings: bool, main_only: bool,
               styles: StyleCache | None) -> Extracted:
    """:func:`html_to_text` of the page's bytes; ``utf8``: they are the UTF-8 of the page's
    text (a str given), else the page as read (its declared charset applies)."""
    doc, style, limit = _parsed(data, utf8, load_css, styles)
    cut = _cut_note(limit)
    title = _WS.sub(" ", doc.findtext(".//title") or "").strip()
    body = doc.find("body")
    root = body if body is not None else doc
    if main_only:
        root = _main_element(root, style) if _main_element(root, style) is not None else root
    elif not headings and utf8 and _KELVIN not in data:
        # (a tag name with a Kelvin sign, which str.lower() makes ASCII, is left to the walk)
        lines = _tree_text(root, style)
        if lines is not None:
            return Extracted(title=title, text="\n".join(lines), cut=cut)
        # the page's own text holds the marks _tree_text uses, or a control character lxml
        # takes from a page but not from us: the walk reads a new tree of it
        doc, style, _ = _parsed(data, utf8, load_css, styles)
        body = doc.find("body")
        root = body if body is not None else doc
    return Extracted(title=title, text=_walk_text(root, style, headings), cut=cut)


_KELVIN = "\u212a".encode()  # (UTF-8: found in the bytes exactly where the text has it)


def _parsed(data: bytes, utf8: bool, load_css, styles: StyleCache | None):
    """The page's root element, the display/visibility of its elements and why the parser
    stopped reading it early (:func:`parser_limit`), or None."""
    parser = etree.HTMLParser(encoding="utf-8") if utf8 else _HTML_PARSER
    doc = _document(data, parser)
    return doc, _PageStyle(doc, load_css, styles), parser_limit(parser)


def _gap(text: str | None) -> str:
    """What hidden text (visibility: hidden, font-size: 0) leaves in the text: a space where it
    held one, so that the shown words on either side stay apart (on screen the boxes around it
    keep them apart: inline-block columns under a font-size: 0 row), else nothing."""
    return " " if text and any(c.isspace() for c in text) else ""


def _walk_text(root, style: "_PageStyle", headings: bool) -> str:
    """The lines of ``root``'s visible text, element by element (see :func:`_tree_text`,
    which gives the same lines faster where it can)."""
    out = _Lines(headings)
    # out.add and out.flush written out in the loop (buf: out.buf), which runs for every element
    buf, flush, none, invisible = out.buf, out.flush, style.none, style.invisible
    # Iterative walk: (element, leaving, is its tail shown); leaving False = enter, True = leave.
    parent = root.getparent()
    stack: list[tuple[etree._Element, bool, bool]] = [(root, False, parent is None or parent not in invisible)]
    pop, push = stack.pop, stack.append
    while stack:
        el, leaving, tail_shown = pop()
        if leaving:
            if buf and el.tag in _BLOCK:
                flush()
            if el is not root:  # text after the root is outside what was asked for
                tail = el.tail
                if tail:
                    buf.append(tail if tail_shown else _gap(tail))
            continue
        tag = el.tag
        if not isinstance(tag, str):  # comment or processing instruction
            tag = None
        else:
            tag = tag.lower()
            if tag in _SKIP or el in none or el.get("hidden") is not None:  # style.hidden(el)
                tag = None
            elif tag == "br":
                if buf:
                    flush()
            elif tag in _PRE:
                out.pre(_pre_text(el, style))
            else:
                if buf and tag in _BLOCK:
                    flush()
                if headings and tag in _HEADING_TAGS:
                    buf.append(_HEADING_TAGS[tag] + " ")
                shown = el not in invisible  # style.shown(el)
                text = el.text
                if text:
                    buf.append(text if shown else _gap(text))
                push((el, True, tail_shown))
                if len(el):
                    stack.extend([(child, False, shown) for child in reversed(el)])
                continue
        # an element whose content is done (or left out): its tail follows
        tail = el.tail
        if tail:
            buf.append(tail if tail_shown else _gap(tail))
    flush()
    return "\n".join(out.lines)


# Marks put into the text of a page's tree by _tree_text (private-use characters; a page
# that has them, or a character reference to them, is read by _walk_text instead).
_BREAK = "\ue000"  # a line ends here
_PRE_MARK = "\ue001"  # the lines of the next <pre> go here


def _tree_text(root, style: "_PageStyle") -> list[str] | None:
    """See :func:`_marked_tree_text`; None also when lxml refuses to set a text that
    holds a control character (a form feed: it parses one, but never takes one back)."""
    try:
        return _marked_tree_text(root, style)
    except ValueError:
        return None


def _marked_tree_text(root, style: "_PageStyle") -> list[str] | None:
    """The lines :func:`_walk_text` gives, from one string of the tree's text made by
    lxml: the tree is changed first so that its text is what the walk collects (the
    content of left-out elements removed, the text an invisible element holds directly
    removed, each ``<pre>`` replaced by a mark for its lines) with a mark where the walk
    ends a line (around block elements, at ``<br>``). Only the elements that need a
    change are visited in Python (lxml finds them by tag), not every element. None when
    the root itself is left out (the tree is then unchanged), or when the page's own text
    holds one of the marks (the tree is then changed: parse the page again).

    The tree is the page's own, parsed for this call: it is changed for good."""
    tag = root.tag
    if (not isinstance(tag, str) or tag in _SKIP or tag in _PRE or tag == "br" or root in style.none
            or root.get("hidden") is not None):
        return None
    # 1. left out: the content of skipped tags, display: none and [hidden] elements
    # (their tail stays: the walk adds it when the text of their parent is shown)
    out_: list = list(root.iter(*_SKIP))
    out_.extend(el for el in style.none if el is not root and _inside(el, root))
    out_.extend(el for el in style.with_hidden if el is not root and _inside(el, root))
    left_out = set(out_)
    for el in out_:
        el.text = None
        del el[:]
    # 2. text that is not shown: what an invisible element holds directly (its text, the
    # tails of its children)
    for el in style.invisible:
        # a space where hidden text held one (see _gap), except in a <pre>, whose lines
        # _pre_text reads as the walk does
        keep = el.tag not in _PRE and next(el.iterancestors(*_PRE), None) is None
        el.text = (_gap(el.text) or None) if keep else None
        for child in el:
            child.tail = (_gap(child.tail) or None) if keep else None
    # 3. each <pre> (the outermost of nested ones) becomes a mark for its lines, which are
    # its text with a line break for each <br> (see _pre_text)
    pres: list[list[str]] = []
    marked = set()
    breaks = 0
    # (those of left out elements are gone; one inside another <pre> below root is gone
    # once the outermost, which comes first, is done)
    above = set(root.iterancestors())
    found = [(el, next(el.iterancestors(*_PRE), None)) for el in root.iter(*_PRE)]
    for el, outer in found:
        if el in left_out or (outer is not None and outer not in above):
            continue  # left out, or inside a <pre> done before
        for br in el.iter("br"):
            if br not in left_out:
                br.text = "\n"
        text = _string(el).removeprefix("\n")
        pres.append([line.rstrip() for line in text.split("\n") if line.strip()])
        el.text = _BREAK + _PRE_MARK + _BREAK
        del el[:]
        marked.add(el)
        breaks += 2
    # 4. line ends: at <br>, and before and after each block element
    for el in list(root.iter("br")):
        if el not in left_out:
            el.text = None
            del el[:]
            el.tail = _BREAK + (el.tail or "")
            breaks += 1
    done = left_out | marked
    done.add(root)
    for el in list(root.iter(*_BLOCK)):
        if el in done:
            continue
        el.text = _BREAK + (el.text or "")
        el.tail = _BREAK + (el.tail or "")
        breaks += 2
    text = _string(root)
    if text.count(_BREAK) != breaks or text.count(_PRE_MARK) != len(pres):
        return None  # some are the page's own
    lines: list[str] = []
    pre = iter(pres)
    for part in text.split(_BREAK):
        if part == _PRE_MARK:
            lines.extend(next(pre))
            continue
        line = part.strip()
        if line:
            lines.append(_collapse(line))
    return lines


def _inside(el, root) -> bool:
    """Is ``el`` below ``root`` in the tree?"""
    parent = el.getparent()
    while parent is not None:
        if parent is root:
            return True
        parent = parent.getparent()
    return False


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
    so that quoted sentences are not cut by the page layout's line breaks. ``locations``:
    where each page's text starts (a line joined across a page break is split between
    its pages at the join).
    """
    import io

    import pypdf

    # pypdf logs its complaints about a broken file ("EOF marker not found") on its own, naming
    # no file, under a run's live progress too; the PdfTextError below says it once, with the file
    logging.getLogger("pypdf").setLevel(logging.ERROR)
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
    text, starts = _reflow([_WS.sub(" ", _CONTROL.sub(" ", ln)).strip() for ln in p.splitlines()] for p in pages)
    # one mark per page that has text: where its first line (or its first words, joined
    # to the line before) starts
    marks = [[offset, "page", n] for n, offset in starts]
    return Extracted(title=title, text=text, locations=marks or None)


def _reflow(pages) -> tuple[str, list[tuple[int, int]]]:
    """The pages' lines joined, one block per line, with lines wrapped inside a sentence
    joined; and (page number, offset in the text) of where each page's text starts."""
    out: list[str] = []
    starts: list[tuple[int, int]] = []
    offset = 0  # of the line being built, out[-1]
    for number, lines in enumerate(pages, 1):
        first = True
        for line in lines:
            if not line:
                continue
            wrapped = out and not _SENTENCE_END.search(out[-1]) and not out[-1].endswith("-")
            if wrapped and line[0].islower():
                if first:
                    starts.append((number, offset + len(out[-1]) + 1))
                out[-1] = f"{out[-1]} {line}"
            else:
                if out:
                    offset += len(out[-1]) + 1
                if first:
                    starts.append((number, offset))
                out.append(line)
            first = False
    return "\n".join(out), starts

"""The report as a Word document (report.docx), built from the HTML the publisher renders.

The walk starts from the sanitised HTML of :func:`render_html` (the same markdown parse,
citation badges, Sources list, check summary and citation style as the HTML and PDF), so the
Word file says what they say. It obeys the output policy of ``safety.py``:

* no images, no OLE objects, no fields, nothing loaded from anywhere: the only external
  relationships the document has are hyperlinks;
* a hyperlink only where ``safety.link_allowed`` allows one (http, https, mailto, an
  in-document #anchor, a file: URL of a cited local source); anything else is plain text;
* each citation is a hyperlink whose target is the citation's URL exactly, text fragment
  (``#:~:text=``) included, followed by its verification badge as text (``✓``, ``✓ repaired``,
  ``✗ not found in this source``, ``! claim differs from the source``, ``? claim not checked``)
  and carrying the quote as its tooltip, as the HTML badge's title does.

Ordered lists are numbered in the text ("1.", from the list's ``start``), bullet lists use
Word's List Bullet styles; code blocks keep their lines and spaces in a monospace style.
"""

from __future__ import annotations

import re
from io import BytesIO
from pathlib import Path

import lxml.html
from docx import Document
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_BREAK
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Cm, Pt, RGBColor

from ..language import strong_direction, text_direction
from .safety import link_allowed

BODY_FONT = "Times New Roman"  # metric-compatible with the PDF's Liberation Serif
HEADING_FONT = "Arial"  # Liberation Sans
CODE_FONT = "Courier New"  # Liberation Mono
CJK_FONT = "Noto Sans CJK SC"

BLUE = RGBColor(0x1A, 0x4D, 0x8F)
GREEN = RGBColor(0x2E, 0x6B, 0x3F)
RED = RGBColor(0xB4, 0x23, 0x18)
ORANGE = RGBColor(0xB5, 0x47, 0x08)
GREY = RGBColor(0x6B, 0x72, 0x80)
_STATUS_COLOUR = {"verified": BLUE, "repaired": GREEN, "unsupported": RED, "claim-differs": ORANGE,
                  "claim-unchecked": GREY, "no-claim": GREY}
_FLAG_COLOUR = {"repaired-flag": GREEN, "differs-flag": ORANGE, "unchecked-flag": GREY,
                "no-claim-flag": GREY, "confidence-flag": GREEN}
_BLOCKS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "table", "pre", "blockquote", "hr",
           "dl", "div", "section", "header", "main", "nav", "footer", "article"}
_BULLETS = ["List Bullet", "List Bullet 2", "List Bullet 3"]
_INDENT = Cm(0.63)
_MAX_TOOLTIP = 255


# WordprocessingML's element order inside w:pPr and w:rPr (Word refuses a file whose
# properties are out of order): elements added by hand go to their place in these.
PPR_ORDER = [
    "pStyle", "keepNext", "keepLines", "pageBreakBefore", "framePr", "widowControl", "numPr",
    "suppressLineNumbers", "pBdr", "shd", "tabs", "suppressAutoHyphens", "kinsoku", "wordWrap",
    "overflowPunct", "topLinePunct", "autoSpaceDE", "autoSpaceDN", "bidi", "adjustRightInd",
    "snapToGrid", "spacing", "ind", "contextualSpacing", "mirrorIndents", "suppressOverlap",
    "jc", "textDirection", "textAlignment", "textboxTightWrap", "outlineLvl", "divId",
    "cnfStyle", "rPr", "sectPr", "pPrChange"
]
RPR_ORDER = [
    "rStyle", "rFonts", "b", "bCs", "i", "iCs", "caps", "smallCaps", "strike", "dstrike",
    "outline", "shadow", "emboss", "imprint", "noProof", "snapToGrid", "vanish", "webHidden",
    "color", "spacing", "w", "kern", "position", "sz", "szCs", "highlight", "u", "effect",
    "bdr", "shd", "fitText", "vertAlign", "rtl", "cs", "em", "lang", "eastAsianLayout",
    "specVanish", "oMath"
]


def put(parent, child, order: list[str] = PPR_ORDER):
    """``child`` in ``parent`` at its place in ``order``, replacing one of the same name."""
    name = child.tag.rsplit("}", 1)[-1]
    old = parent.find(qn(f"w:{name}"))
    if old is not None:
        parent.remove(old)
    later = {qn(f"w:{n}") for n in order[order.index(name) + 1:]}
    for i, existing in enumerate(parent):
        if existing.tag in later:
            parent.insert(i, child)
            return child
    parent.append(child)
    return child


def badge_texts(t: dict) -> dict[str, str]:
    """The text that follows each citation link in Word, by the badge's check class."""
    return {
        "verified": "\u2713",
        "repaired": "\u2713 " + t.get("flag_repaired", "repaired"),
        "unsupported": "\u2717 " + t.get("flag_not_found", "not found in this source"),
        "claim-differs": "! " + t.get("flag_claim_differs", "claim differs from the source"),
        "claim-unchecked": "? " + t.get("flag_claim_unchecked", "claim not checked"),
        "no-claim": "\u2013 " + t.get("flag_no_claim", "quote found; no claim to check"),
    }


# Characters XML 1.0 cannot hold (C0 controls but tab and line ends, lone surrogates,
# U+FFFE/U+FFFF): a page may keep them (``&#1;``, ``&#27;``) and python-docx refuses a
# run holding one, which failed the export and every resume after it. Removed.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(s: str) -> str:
    return _NOT_XML.sub("", s)


def _xml_safe_tree(root) -> None:
    """Every text and attribute of the parsed report as XML can hold it."""
    for el in root.iter():
        if el.text and _NOT_XML.search(el.text):
            el.text = xml_text(el.text)
        if el.tail and _NOT_XML.search(el.tail):
            el.tail = xml_text(el.tail)
        if isinstance(el.tag, str):
            for k, v in el.attrib.items():
                if _NOT_XML.search(v):
                    el.set(k, xml_text(v))


def _classes(el) -> set[str]:
    return set((el.get("class") or "").split())


def _text(s: str | None) -> str:
    """HTML text as shown: runs of white space are one space."""
    return re.sub(r"[ \t\r\n\f]+", " ", s or "")


class _Fmt(dict):
    def with_(self, **kw) -> _Fmt:
        return _Fmt({**self, **kw})


class DocxWriter:
    def __init__(self, labels: dict, local_files: frozenset[str] = frozenset()):
        self.doc = Document()
        self.local_files = local_files
        self.badges = badge_texts(labels)
        self.bookmarks: dict[str, str] = {}  # HTML id -> bookmark name
        self.direction = "ltr"  # set by build() from the document's language
        self._bookmark_id = 0
        self.hyperlinks: list[str] = []  # external targets, in order (for tests and audit)
        # per paragraph element: (the element, its last child read, the last strong direction read)
        # - so a badge reads only what was written since the last badge of its paragraph
        self._para_dirs: dict[int, tuple[object, object, str | None]] = {}
        self._hyperlink_style: tuple[str | None] | None = None  # (its style id,) once looked up
        self._setup_styles()

    # --- styles -----------------------------------------------------------------------
    def _setup_styles(self) -> None:
        styles = self.doc.styles
        normal = styles["Normal"]
        normal.font.name = BODY_FONT
        normal.font.size = Pt(11)
        self._east_asian(normal.element.get_or_add_rPr())
        normal.paragraph_format.space_after = Pt(6)
        for name in ("Title", "Heading 1", "Heading 2", "Heading 3", "Heading 4", "Heading 5", "Heading 6"):
            st = styles[name]
            st.font.name = HEADING_FONT
            st.font.color.rgb = RGBColor(0x10, 0x2A, 0x43)
            self._east_asian(st.element.get_or_add_rPr(), theme_off=True)
        styles["Title"].font.size = Pt(24)
        code = styles.add_style("Code Block", WD_STYLE_TYPE.PARAGRAPH)
        code.base_style = normal
        code.font.name = CODE_FONT
        code.font.size = Pt(9)
        code.paragraph_format.space_before = Pt(4)
        code.paragraph_format.space_after = Pt(8)
        code.paragraph_format.left_indent = Cm(0.3)
        pPr = code.element.get_or_add_pPr()
        shd = OxmlElement("w:shd")
        shd.set(qn("w:val"), "clear")
        shd.set(qn("w:color"), "auto")
        shd.set(qn("w:fill"), "F3F5F8")
        put(pPr, shd)
        if "Hyperlink" not in [s.name for s in styles]:
            # Word's own name; a link run without a character style loses its link in
            # LibreOffice's PDF export
            link = styles.add_style("Hyperlink", WD_STYLE_TYPE.CHARACTER)
            link.font.color.rgb = BLUE
            link.font.underline = True
        quote = styles["Quote"] if "Quote" in [s.name for s in styles] else styles.add_style("Quote", WD_STYLE_TYPE.PARAGRAPH)
        quote.paragraph_format.left_indent = Cm(0.8)
        bdr = OxmlElement("w:pBdr")  # a rule on the left, as the HTML's blockquote has
        left = OxmlElement("w:left")
        for k, v in (("w:val", "single"), ("w:sz", "18"), ("w:space", "8"), ("w:color", "C8CDD4")):
            left.set(qn(k), v)
        bdr.append(left)
        put(quote.element.get_or_add_pPr(), bdr)
        quote.font.italic = False
        quote.font.color.rgb = RGBColor(0x33, 0x33, 0x33)

    @staticmethod
    def _east_asian(rPr, theme_off: bool = False) -> None:
        fonts = rPr.find(qn("w:rFonts"))
        if fonts is None:
            fonts = put(rPr, OxmlElement("w:rFonts"), RPR_ORDER)
        fonts.set(qn("w:eastAsia"), CJK_FONT)
        if theme_off:  # heading styles name theme fonts, which win over w:ascii
            for a in ("w:asciiTheme", "w:hAnsiTheme", "w:eastAsiaTheme", "w:cstheme"):
                fonts.attrib.pop(qn(a), None)

    # --- entry ------------------------------------------------------------------------
    def build(self, html: str, title: str | None = None, lang: str | None = None) -> bytes:
        self.direction = text_direction(lang) if lang else "ltr"
        root = lxml.html.document_fromstring(html)
        for el in root.iter("style", "script", "template"):
            el.drop_tree()
        _xml_safe_tree(root)
        for el in root.xpath("//*[@id]"):
            self.bookmarks.setdefault(el.get("id"), f"_r{len(self.bookmarks) + 1}")
        body = root.find("body")
        self.blocks(body if body is not None else root, level=0)
        pkg = self.doc.part.package  # the template's preview picture: the file holds no image at all
        for rid, rel in list(pkg.rels.items()):
            if rel.reltype == RT.THUMBNAIL:
                pkg.rels.pop(rid)
        if lang:
            self._language(lang)
        props = self.doc.core_properties
        props.title = xml_text(title or "")[:250]
        props.author = "deep-research"
        props.comments = "Citations checked against their sources; links open the quoted sentence."
        if lang:
            props.language = lang
        buf = BytesIO()
        self.doc.save(buf)
        return buf.getvalue()

    def _language(self, lang: str) -> None:
        """The text's language (spelling, hyphenation) and, for Arabic, Hebrew and the other
        right-to-left scripts, right-to-left paragraphs, as the HTML's dir="rtl"."""
        normal = self.doc.styles["Normal"]
        rPr = normal.element.get_or_add_rPr()
        tag = OxmlElement("w:lang")
        for a in ("w:val", "w:eastAsia", "w:bidi"):
            tag.set(qn(a), lang)
        put(rPr, tag, RPR_ORDER)
        if text_direction(lang) == "rtl":
            for st in self.doc.styles:
                if st.type == WD_STYLE_TYPE.PARAGRAPH:
                    put(st.element.get_or_add_pPr(), OxmlElement("w:bidi"))
            put(rPr, OxmlElement("w:rtl"), RPR_ORDER)

    # --- blocks -----------------------------------------------------------------------
    def blocks(self, el, level: int, container=None, style: str | None = None) -> None:
        """Block children of ``el``; loose inline content between them becomes a paragraph."""
        pending: list = []  # inline nodes (and leading text) waiting for a paragraph
        if el.text and el.text.strip():
            pending.append(el.text)
        for child in el:
            if not isinstance(child.tag, str):
                if child.tail and child.tail.strip():
                    pending.append(child.tail)
                continue
            if child.tag in _BLOCKS:
                self._flush(pending, container, style)
                pending = []
                self.block(child, level, container, style)
            else:
                pending.append(child)
            if child.tail and child.tail.strip() and child.tag in _BLOCKS:
                pending.append(child.tail)
        self._flush(pending, container, style)

    def _flush(self, pending: list, container, style: str | None) -> None:
        if not pending or all(isinstance(x, str) and not x.strip() for x in pending):
            return
        para = self._para(container, style)
        for node in pending:
            if isinstance(node, str):
                self.run(para, _text(node).lstrip() if node is pending[0] else _text(node), _Fmt())
            else:
                self.inline(node, para, _Fmt(), tail=True)

    def _para(self, container=None, style: str | None = None):
        target = container if container is not None else self.doc
        return target.add_paragraph(style=style)

    def block(self, el, level: int, container=None, style: str | None = None) -> None:
        tag, cls = el.tag, _classes(el)
        if tag == "nav" or "toc" in cls:
            return  # the table of contents: Word builds its own from the headings
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            if "title" in cls:
                para = self.doc.add_paragraph(style="Title")
            else:
                n = int(tag[1])
                para = (container or self.doc).add_paragraph(style=f"Heading {max(1, min(n - 1, 6)) if n > 1 else 1}")
            self._bookmark(el, para)
            self.inline_children(el, para, _Fmt(), lead=True)
            return
        if tag == "p":
            para = self._para(container, style)
            fmt = _Fmt()
            if "kicker" in cls:
                fmt = _Fmt(colour=GREY, size=9, caps=True)
            elif "meta" in cls:
                fmt = _Fmt(colour=GREY, size=10)
            self.inline_children(el, para, fmt, lead=True)
            return
        if tag in ("ul", "ol"):
            self.list_(el, level, container)
            return
        if tag == "table":
            self.table(el, container)
            return
        if tag == "pre":
            self.code(el, container)
            return
        if tag == "blockquote":
            self.blocks(el, level, container, style="Quote")
            return
        if tag == "hr":
            para = self._para(container)
            pPr = para._p.get_or_add_pPr()
            bdr = OxmlElement("w:pBdr")
            bottom = OxmlElement("w:bottom")
            for k, v in (("w:val", "single"), ("w:sz", "6"), ("w:space", "1"), ("w:color", "C8CDD4")):
                bottom.set(qn(k), v)
            bdr.append(bottom)
            put(pPr, bdr)
            return
        if tag == "dl":
            for child in el:
                if child.tag == "dt":
                    para = self._para(container)
                    self.inline_children(child, para, _Fmt(bold=True), lead=True)
                elif child.tag == "dd":
                    para = self._para(container)
                    para.paragraph_format.left_indent = _INDENT
                    self.inline_children(child, para, _Fmt(), lead=True)
            return
        # header, main, section, div (highlighted code: its <pre>), article …
        self.blocks(el, level, container, style)

    def list_(self, el, level: int, container=None) -> None:
        ordered = el.tag == "ol"
        plain = "source-list" in _classes(el)  # the Sources list shows its own [n] or entry
        try:
            n = int(el.get("start") or 1)
        except ValueError:
            n = 1
        for li in el:
            if not isinstance(li.tag, str) or li.tag != "li":
                continue
            self.item(li, level, ordered and not plain, n, plain, container)
            n += 1

    def item(self, li, level: int, ordered: bool, n: int, plain: bool, container=None) -> None:
        indent = _INDENT * (level + 1)

        def new_para(first: bool):
            if plain:  # a Sources entry: hanging indent, as in the HTML
                para = self._para(container)
                para.paragraph_format.left_indent = indent
                para.paragraph_format.first_line_indent = -_INDENT
            elif ordered or not first:
                para = self._para(container)
                para.paragraph_format.left_indent = indent
                if first:
                    para.paragraph_format.first_line_indent = -_INDENT
                    self.run(para, f"{n}.\t", _Fmt())
                    para.paragraph_format.tab_stops.add_tab_stop(indent)
            else:
                para = self._para(container, _BULLETS[min(level, len(_BULLETS) - 1)])
                para.paragraph_format.left_indent = indent
                para.paragraph_format.first_line_indent = -_INDENT
            para.paragraph_format.space_after = Pt(2)
            self._bookmark(li, para)
            return para

        para = None
        first = True
        pending: list = [li.text] if li.text and li.text.strip() else []

        def flush():
            nonlocal para, first, pending
            if pending:
                para = new_para(first)
                first = False
                for node in pending:
                    if isinstance(node, str):
                        self.run(para, _text(node).lstrip() if node is pending[0] else _text(node), _Fmt())
                    else:
                        self.inline(node, para, _Fmt(), tail=True)
            pending = []

        for child in li:
            if not isinstance(child.tag, str):
                continue
            if child.tag in ("ul", "ol"):
                flush()
                self.list_(child, level + 1, container)
                if child.tail and child.tail.strip():
                    pending.append(child.tail)
            elif child.tag == "p":
                flush()
                para = new_para(first)
                first = False
                self.inline_children(child, para, _Fmt(), lead=True)
                if child.tail and child.tail.strip():
                    pending.append(child.tail)
            elif child.tag in _BLOCKS:
                flush()
                if first:  # a list item that starts with a block: its marker on a line of its own
                    new_para(True)
                    first = False
                self.block(child, level + 1, container)
                if child.tail and child.tail.strip():
                    pending.append(child.tail)
            else:
                pending.append(child)
        flush()
        if first:  # an empty item still shows its marker
            new_para(True)

    def table(self, el, container=None) -> None:
        rows = [tr for tr in el.iter("tr")]
        if not rows:
            return
        grid = [[c for c in tr if isinstance(c.tag, str) and c.tag in ("td", "th")] for tr in rows]
        cols = max((len(r) for r in grid), default=0)
        if cols == 0:
            return
        table = (container or self.doc).add_table(rows=len(grid), cols=cols)
        table.style = self.doc.styles["Table Grid"]
        table.alignment = WD_TABLE_ALIGNMENT.LEFT
        # a row's cells read once per row: table.cell(i, j) lists every cell of the table at
        # each call (python-docx), so a 400-column table of 50 rows took hours
        for row, cells in zip(table.rows, grid):
            header = any(c.tag == "th" for c in cells) and all(c.tag == "th" for c in cells)
            if header:
                trPr = row._tr.get_or_add_trPr()
                h = OxmlElement("w:tblHeader")
                trPr.append(h)
            for cell, c in zip(row.cells, cells):
                para = cell.paragraphs[0]
                align = re.search(r"text-align:\s*(left|right|center)", c.get("style") or "")
                if align:
                    para.alignment = {"left": WD_ALIGN_PARAGRAPH.LEFT, "right": WD_ALIGN_PARAGRAPH.RIGHT,
                                      "center": WD_ALIGN_PARAGRAPH.CENTER}[align.group(1)]
                self.inline_children(c, para, _Fmt(bold=c.tag == "th"), lead=True)
                if c.tag == "th":
                    tcPr = cell._tc.get_or_add_tcPr()
                    shd = OxmlElement("w:shd")
                    shd.set(qn("w:val"), "clear")
                    shd.set(qn("w:color"), "auto")
                    shd.set(qn("w:fill"), "E8EEF6")
                    tcPr.append(shd)
        (container or self.doc).add_paragraph().paragraph_format.space_after = Pt(2)

    def code(self, el, container=None) -> None:
        text = el.text_content().rstrip("\n")
        para = self._para(container, "Code Block")
        if "tall" in _classes(el):  # html.py: tall_code_blocks; its heading keeps with two lines at least
            para.paragraph_format.widow_control = True
        lines = text.split("\n")
        for k, line in enumerate(lines):
            run = para.add_run(line.replace("\t", "    "))
            run.font.name = CODE_FONT
            if k < len(lines) - 1:
                run.add_break(WD_BREAK.LINE)

    # --- inline -----------------------------------------------------------------------
    def inline_children(self, el, para, fmt: _Fmt, lead: bool = False) -> None:
        """``el``'s content as runs of ``para``; ``lead``: ``el`` starts the paragraph, so
        its leading white space is dropped."""
        if el.text:
            self.run(para, _text(el.text).lstrip() if lead else _text(el.text), fmt)
        for child in el:
            if isinstance(child.tag, str) and child.tag in _BLOCKS:
                # a block inside an inline context (a list in a table cell, …): its text, inline
                self.run(para, " " + _text(child.text_content()).strip() + " ", fmt)
                if child.tail:
                    self.run(para, _text(child.tail), fmt)
                continue
            self.inline(child, para, fmt, tail=True)

    def inline(self, el, para, fmt: _Fmt, tail: bool = False) -> None:
        if not isinstance(el.tag, str):  # comments
            if tail and el.tail:
                self.run(para, _text(el.tail), fmt)
            return
        tag, cls = el.tag, _classes(el)
        if "cite-badge" in cls:
            self.badge(el, para, fmt)
        elif tag == "span" and "cite" in cls and "sample" in cls:  # the legend in the check summary
            status = next((s for s in _STATUS_COLOUR if s in cls), "verified")
            self.run(para, self.badges[status].split(" ")[0], fmt.with_(bold=True, colour=_STATUS_COLOUR[status]))
        elif tag == "br":
            para.add_run().add_break(WD_BREAK.LINE)
        elif tag == "a":
            self.link(el, para, fmt)
        else:
            sub = fmt
            if tag in ("strong", "b"):
                sub = fmt.with_(bold=True)
            elif tag in ("em", "i", "cite", "q"):
                sub = fmt.with_(italic=True)
            elif tag in ("code", "kbd", "samp", "tt"):
                sub = fmt.with_(code=True)
            elif tag in ("del", "s", "strike"):
                sub = fmt.with_(strike=True)
            elif tag in ("u", "ins"):
                sub = fmt.with_(underline=True)
            elif tag == "sup":
                sub = fmt.with_(sup=True)
            elif tag == "sub":
                sub = fmt.with_(sub=True)
            elif tag == "mark":
                sub = fmt.with_(highlight=True)
            elif tag == "small":
                sub = fmt.with_(size=9)
            elif "flag" in cls:
                colour = next((v for k, v in _FLAG_COLOUR.items() if k in cls), RED)
                sub = fmt.with_(bold="confidence-flag" not in cls, size=8, colour=colour, caps="confidence-flag" not in cls)
            elif "reason" in cls:
                sub = fmt.with_(size=9, colour=ORANGE)
            elif "source-number" in cls:
                sub = fmt.with_(bold=True, colour=BLUE)
            elif "source-title" in cls:
                sub = fmt.with_(bold=True)
            if "differs" in cls:
                sub = sub.with_(colour=ORANGE)
            if "bad" in cls:
                sub = sub.with_(colour=RED)
            if tag == "q":
                self.run(para, "\u201c", fmt)
            self.inline_children(el, para, sub)
            if tag == "q":
                self.run(para, "\u201d", fmt)
            if "legend-key" in cls:  # the HTML sets the key in a column of its own; here a space
                self.run(para, " ", fmt)
        if tail and el.tail:
            self.run(para, _text(el.tail), fmt)

    def run(self, para, text: str, fmt: _Fmt, container=None):
        if not text:
            return None
        run = para.add_run(text)
        self._format(run, fmt)
        return run

    @staticmethod
    def _format(run, fmt: _Fmt) -> None:
        f = run.font
        if fmt.get("bold"):
            f.bold = True
        if fmt.get("italic"):
            f.italic = True
        if fmt.get("code"):
            f.name = CODE_FONT
            f.size = Pt(9.5)
        if fmt.get("strike"):
            f.strike = True
        if fmt.get("underline"):
            f.underline = True
        if fmt.get("sup"):
            f.superscript = True
        if fmt.get("sub"):
            f.subscript = True
        if fmt.get("caps"):
            f.small_caps = True
        if fmt.get("size"):
            f.size = Pt(fmt["size"])
        if fmt.get("colour") is not None:
            f.color.rgb = fmt["colour"]
        if fmt.get("highlight"):
            from docx.enum.text import WD_COLOR_INDEX
            f.highlight_color = WD_COLOR_INDEX.YELLOW

    # --- links ------------------------------------------------------------------------
    def _bookmark(self, el, para) -> None:
        name = self.bookmarks.get(el.get("id") or "")
        if not name:
            return
        self._bookmark_id += 1
        start = OxmlElement("w:bookmarkStart")
        start.set(qn("w:id"), str(self._bookmark_id))
        start.set(qn("w:name"), name)
        end = OxmlElement("w:bookmarkEnd")
        end.set(qn("w:id"), str(self._bookmark_id))
        para._p.insert(0 if para._p.pPr is None else 1, start)
        para._p.append(end)

    def _hyperlink(self, para, href: str, tooltip: str | None = None):
        """A w:hyperlink in ``para`` (None when ``href`` may not be linked)."""
        if not href or not link_allowed(href, self.local_files):
            return None
        h = OxmlElement("w:hyperlink")
        if href.startswith("#"):
            name = self.bookmarks.get(href[1:])
            if name is None:
                return None
            h.set(qn("w:anchor"), name)
        else:
            rid = para.part.relate_to(href, RT.HYPERLINK, is_external=True)
            h.set(qn("r:id"), rid)
            self.hyperlinks.append(href)
        if tooltip:
            h.set(qn("w:tooltip"), tooltip[:_MAX_TOOLTIP])
        h.set(qn("w:history"), "1")
        para._p.append(h)
        return h

    def _link_run(self, h, para, text: str, fmt: _Fmt):
        """A run inside hyperlink ``h``, formatted like the paragraph's runs."""
        from docx.text.run import Run

        r = OxmlElement("w:r")
        h.append(r)
        run = Run(r, para)
        if self._hyperlink_style is None:  # looked up once: by name it is a scan of every style
            self._hyperlink_style = (self.doc.part.get_style_id(self.doc.styles["Hyperlink"],
                                                                WD_STYLE_TYPE.CHARACTER),)
        r.style = self._hyperlink_style[0]  # what ``run.style = <the style>`` writes
        run.text = text
        self._format(run, fmt)
        return run

    def link(self, el, para, fmt: _Fmt) -> None:
        href = el.get("href") or ""
        h = self._hyperlink(para, href, el.get("title"))
        if h is None:
            self.inline_children(el, para, fmt)
            return
        colour = fmt.get("colour") if fmt.get("colour") is not None else BLUE
        self._inline_into_link(el, h, para, fmt.with_(colour=colour, underline=True))

    def _inline_into_link(self, el, h, para, fmt: _Fmt) -> None:
        """The link's text (and its formatting children) as runs of the hyperlink."""
        def walk(node, f):
            if node.text:
                self._link_run(h, para, _text(node.text), f)
            for child in node:
                if not isinstance(child.tag, str):
                    pass
                else:
                    sub = f
                    if child.tag in ("strong", "b"):
                        sub = f.with_(bold=True)
                    elif child.tag in ("em", "i"):
                        sub = f.with_(italic=True)
                    elif child.tag in ("code", "kbd"):
                        sub = f.with_(code=True)
                    elif child.tag == "br":
                        pass
                    walk(child, sub)
                if child.tail:
                    self._link_run(h, para, _text(child.tail), f)
        walk(el, fmt)

    def badge(self, el, para, fmt: _Fmt) -> None:
        inner = next((c for c in el.iter("a", "span") if "cite" in _classes(c)), None)
        if inner is None:
            self.inline_children(el, para, fmt)
            return
        cls = _classes(inner)
        status = next((s for s in ("unsupported", "claim-differs", "claim-unchecked", "no-claim", "repaired")
                       if s in cls), "verified")
        label = _text(inner.text_content()).strip()
        author_date = "cite-author-date" in _classes(el)
        if status in ("unsupported", "claim-differs"):
            label = label.rstrip("?!")
        if not author_date:
            label = f"[{label}]"
        colour = _STATUS_COLOUR[status]
        # on the line, not raised: a superscript badge text would be too small to read in print
        link_fmt = fmt.with_(colour=colour, underline=True, bold=not author_date,
                             size=None if author_date else 9)
        # after Hebrew or Arabic words in a left-to-right document (or English in a right-to-left
        # one), a mark of the document's direction: else "[2" joins the other direction's run and
        # the marker shows before the words it follows
        if self._last_direction(para) not in (None, self.direction):
            self.run(para, "\u200f" if self.direction == "rtl" else "\u200e", fmt)
        h = self._hyperlink(para, inner.get("href") or "", inner.get("title")) if inner.tag == "a" else None
        if h is None:
            self.run(para, label, link_fmt.with_(underline=False))
        else:
            self._link_run(h, para, label, link_fmt)
        self.run(para, "\u2009" + self.badges[status], fmt.with_(colour=colour, size=8.5))


    def _last_direction(self, para) -> str | None:
        """The direction of the last letter with a strong direction written so far in ``para``
        (what ``strong_direction(para.text, last=True)`` says), reading each child of the
        paragraph once: re-reading ``para.text`` at every badge made a paragraph of thousands of
        citations quadratic (a hostile report's Word file took over 30 minutes)."""
        p = para._p
        _, read_last, last = self._para_dirs.get(id(p), (p, None, None))
        fresh: list = []  # the children written since the last call, walked back from the end
        try:
            child = p[-1]  # (len(p) would count every child: that too grew with the paragraph)
        except IndexError:
            child = None
        while child is not None and child is not read_last:
            fresh.append(child)
            child = child.getprevious()
        for child in reversed(fresh):
            d = strong_direction("".join(t.text or "" for t in child.iter(qn("w:t"))), last=True)
            if d is not None:
                last = d
        self._para_dirs[id(p)] = (p, fresh[0] if fresh else read_last, last)
        return last


def render_docx(html: str, path: str | Path | None = None, *, labels: dict, title: str | None = None,
                lang: str | None = None, local_files: frozenset[str] = frozenset()) -> bytes:
    """report.docx from the report's HTML (see :func:`deep_research.publish.html.render_html`)."""
    data = DocxWriter(labels, local_files).build(html, title=title, lang=lang)
    if path is not None:
        Path(path).write_bytes(data)
    return data

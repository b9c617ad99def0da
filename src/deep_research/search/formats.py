"""Text of Word, PowerPoint, Excel, CSV and EPUB files, shaped like the HTML/markdown text.

Every extractor returns :class:`~.extract.Extracted` (title, text) with one block per line,
in the ``text`` content format: citations are checked against exactly this text.

* ``.docx`` (python-docx): body paragraphs and tables in document order. ``Title`` and
  ``Heading N`` styles become markdown headings (``#`` .. ``######``), list paragraphs
  ``- item`` (``1. item`` for numbered list styles). Headers, footers, footnotes,
  comments and text boxes are left out.
* ``.pptx`` (python-pptx): per slide a heading ``# Slide N: title``, then the text of its
  shapes (groups included) in the slide's order, tables, and the speaker notes after
  ``Notes:``.
* ``.xlsx`` (openpyxl, read-only streaming, cached formula values): per worksheet a
  heading ``# Sheet: name``, then one line per row.
* ``.csv`` / ``.tsv`` (csv module, the delimiter guessed from the first rows): one line per row. UTF-8 (a BOM is
  allowed) or UTF-16 with a BOM, as Excel writes them; other encodings are refused with
  a reason, as for text files.
* ``.epub`` (zipfile + lxml): the XHTML documents of the spine, in reading order, each
  through :func:`~.extract.html_to_text` like an HTML page, with ``<h1>``..``<h6>`` as
  markdown headings. DRM-encrypted books are refused.

Tables and spreadsheet rows: the first non-empty row is the header; every later row is one
line ``Header: value; Header: value`` (empty cells left out), so that a quoted row says
what each number is ("Country: Norway; Share: 60 %"), which a bare markdown table row
("| Norway | 60 % |") does not. A table of one row is its cells joined with `` | ``.

Title: the document's core-properties title, else its first heading (or slide title),
else ``""`` (the index then uses the file name).

Hostile files: the formats are zip archives, so before any library sees one the archive
is checked: at most :data:`MAX_MEMBERS` members and :data:`MAX_UNCOMPRESSED` bytes once
unpacked (Python's zipfile never inflates a member past its declared size, so the
declared sizes bound memory), no encrypted members. An encrypted Office file (an OLE
compound file, not a zip) is named as such. XML is parsed by lxml with
``resolve_entities=False`` and no network (python-docx and python-pptx do the same; the
EPUB code below too), by defusedxml in openpyxl (which uses it when it is installed),
and lxml's default depth limit refuses absurdly nested XML. Rows, cells and the text
length are capped (:data:`MAX_ROWS`, :data:`MAX_CELLS`, :data:`MAX_TEXT_CHARS`) and so is
the time (:data:`TIME_LIMIT`): a file past a cap is refused, not cut silently.

Libraries, chosen by ``benchmarks/bench_formats.py`` (generated documents: a 60-page
report, a 40-slide deck, a 20,000-row workbook, the same rows as CSV, a 30-chapter
EPUB; 2 shared CPU cores):

=============  ==============================  ==================================
               per-format libraries (chosen)    markitdown 0.1.8 [docx,pptx,xlsx]
=============  ==============================  ==================================
installed      ~5.7 MB (python-docx 1.8,        ~225 MB (onnxruntime, numpy,
               python-pptx 1.5, openpyxl 1.4,   pandas, magika, mammoth,
               XlsxWriter 0.9, defusedxml)      beautifulsoup, markdownify ...)
fidelity       headings, lists, tables kept;    headings and tables kept; a
               one block per line; rows as      sentence can be split by
               "Header: value"; sheet and       markdown escaping (``\\_``,
               slide headings                   ``\\*``) so quotes differ from the
                                                document; whole sheets as one
                                                markdown table via pandas
speed          see the benchmark's output       see the benchmark's output
=============  ==============================  ==================================

markitdown is convenient but 40 times larger, loads a neural file-type detector and
escapes markdown characters in the text it returns, and it gives no handle on limits
(it reads whole sheets into pandas). The per-format libraries are maintained, small,
already parse with entity resolution off, and let the code below bound rows, cells and
time.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import posixpath
import re
import time
import warnings
import zipfile
from urllib.parse import unquote

from lxml import etree

from .extract import Extracted, NotUtf8Error, decode_utf8, html_to_text

MAX_MEMBERS = 10_000
MAX_UNCOMPRESSED = 256 * 1024 * 1024  # all members of an archive, once unpacked
# Its XML/HTML members. python-docx, python-pptx and lxml build a tree of the whole part:
# 20 MB of document.xml took 150 MB of memory, so 32 MiB stays under ~300 MB. openpyxl's
# read-only mode streams the sheets, so a workbook may hold more (the row and cell caps
# bound it).
MAX_XML_UNCOMPRESSED = 32 * 1024 * 1024
MAX_XLSX_XML_UNCOMPRESSED = 128 * 1024 * 1024
MAX_ROWS = 200_000  # rows of a sheet or CSV file, in all
MAX_CELLS = 2_000_000  # non-empty cells, in all
MAX_TEXT_CHARS = 32 * 1024 * 1024
TIME_LIMIT = 60.0  # seconds of extraction per file

# openpyxl warns about what it tolerates (unknown extensions, no default style); the index
# reports what it cannot read as skip reasons, and the rest is noise on the console.
warnings.filterwarnings("ignore", category=UserWarning, module=r"openpyxl(\.|$)")

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_WS = re.compile(r"\s+")
_XML_SUFFIXES = (".xml", ".rels", ".xhtml", ".html", ".htm", ".opf", ".ncx", ".vml")
_NAMES = {"docx": "Word (.docx)", "pptx": "PowerPoint (.pptx)", "xlsx": "Excel (.xlsx)",
          "epub": "EPUB"}


class FormatError(ValueError):
    """A file that cannot be read as its format (the message says why)."""


class _Budget:
    """Caps on rows, cells, text and time for one file."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.rows = self.cells = self.chars = 0
        self.deadline = time.monotonic() + TIME_LIMIT

    def row(self, cells: int) -> None:
        self.rows += 1
        self.cells += cells
        if self.rows > MAX_ROWS:
            raise FormatError(f"too many rows (more than {MAX_ROWS:,}); not indexed")
        if self.cells > MAX_CELLS:
            raise FormatError(f"too many cells (more than {MAX_CELLS:,}); not indexed")
        if self.rows % 1000 == 0:
            self.tick()

    def text(self, line: str) -> str:
        self.chars += len(line) + 1
        if self.chars > MAX_TEXT_CHARS:
            raise FormatError(f"too much text (more than {MAX_TEXT_CHARS:,} characters); not indexed")
        return line

    def tick(self) -> None:
        if time.monotonic() > self.deadline:
            raise FormatError(f"reading its text took more than {TIME_LIMIT:.0f} s; not indexed")


def _clean(s: object) -> str:
    return _WS.sub(" ", str(s)).strip()


# --- zip containers -------------------------------------------------------------------------
def open_zip(data: bytes, kind: str) -> zipfile.ZipFile:
    """The archive of a .docx/.pptx/.xlsx/.epub file, checked against zip bombs."""
    name = _NAMES.get(kind, kind)
    if data[:8] == _OLE_MAGIC:
        raise FormatError(f"a password-protected (encrypted) or old binary Office file, not a {name} "
                          "file; save it without a password in the current format")
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as e:
        raise FormatError(f"not a valid {name} file (not a readable zip archive: {e})") from None
    if len(infos) > MAX_MEMBERS:
        raise FormatError(f"a zip archive of {len(infos):,} files (the limit is {MAX_MEMBERS:,}); not indexed")
    total = sum(i.file_size for i in infos)
    xml = sum(i.file_size for i in infos if i.filename.lower().endswith(_XML_SUFFIXES))
    xml_limit = MAX_XLSX_XML_UNCOMPRESSED if kind == "xlsx" else MAX_XML_UNCOMPRESSED
    if total > MAX_UNCOMPRESSED or xml > xml_limit:
        raise FormatError(
            f"unpacks to {total:,} bytes ({xml:,} of XML), more than the limit of {MAX_UNCOMPRESSED:,} "
            f"({xml_limit:,} of XML): a zip bomb or an oversized document; not indexed")
    if any(i.flag_bits & 0x1 for i in infos):
        raise FormatError(f"an encrypted zip archive; its {name} text cannot be read")
    return zf


def _library_error(kind: str, e: Exception) -> FormatError:
    if isinstance(e, FormatError):
        return e
    cause: BaseException = e
    while cause.__cause__ is not None or cause.__context__ is not None:
        cause = cause.__cause__ or cause.__context__
    if type(cause).__module__.startswith("defusedxml"):
        return FormatError(f"XML that declares entities or a DTD, refused as unsafe ({type(cause).__name__}: "
                           f"{_clean(cause)}); not indexed")
    if isinstance(cause, etree.XMLSyntaxError) and "depth" in str(cause).lower():
        return FormatError(f"XML nested too deeply ({_clean(cause)}); not indexed")
    return FormatError(f"unreadable {_NAMES.get(kind, kind)} file ({type(e).__name__}: {_clean(e)})")


# --- tables ---------------------------------------------------------------------------------
def table_lines(rows, budget: _Budget) -> list[str]:
    """``Header: value; ...`` lines of a table given as rows of cell strings."""
    lines: list[str] = []
    header: list[str] | None = None
    for cells in rows:
        cells = [_clean(c) if c is not None else "" for c in cells]
        budget.row(sum(1 for c in cells if c))
        if not any(cells):
            continue
        if header is None:
            header = cells
            lines.append(budget.text(" | ".join(c for c in cells if c)))
            continue
        parts = []
        for i, value in enumerate(cells):
            if not value:
                continue
            name = header[i] if i < len(header) else ""
            parts.append(f"{name}: {value}" if name else value)
        lines.append(budget.text("; ".join(parts)))
    return lines


# --- Word ---------------------------------------------------------------------------------
_HEADING = re.compile(r"^heading\s*([1-6])$", re.IGNORECASE)


def docx_to_text(data: bytes) -> Extracted:
    zf = open_zip(data, "docx")
    zf.close()
    import docx
    from docx.table import Table

    budget = _Budget("docx")
    try:
        document = docx.Document(io.BytesIO(data))
        title = _clean(document.core_properties.title or "")
        # Style names by id, read once: python-docx's paragraph.style looks up the default
        # style by scanning every style, for every paragraph (3 s for a 60-page report).
        styles = {st.style_id: st.name or "" for st in document.styles}
        lines: list[str] = []
        numbered = 0
        for block in document.iter_inner_content():
            budget.tick()
            if isinstance(block, Table):
                numbered = 0
                lines += table_lines(_docx_rows(block), budget)
                continue
            text = _clean(block.text)
            if not text:
                continue
            style = styles.get(block._p.style or "", "")
            m = _HEADING.match(style)
            if style == "Title" or m:
                level = 1 if style == "Title" else int(m.group(1))
                title = title or text
                lines.append(budget.text("#" * level + " " + text))
                numbered = 0
            elif style.startswith("List Number"):
                numbered += 1
                lines.append(budget.text(f"{numbered}. {text}"))
            elif style.startswith("List") or _has_numbering(block):
                lines.append(budget.text(f"- {text}"))
                numbered = 0
            else:
                lines.append(budget.text(text))
                numbered = 0
    except Exception as e:  # noqa: BLE001 - python-docx raises many kinds of error on bad files
        raise _library_error("docx", e) from None
    return Extracted(title=title, text="\n".join(lines))


def _has_numbering(paragraph) -> bool:
    ppr = paragraph._p.pPr
    return ppr is not None and ppr.numPr is not None


def _docx_rows(table):
    for row in table.rows:
        seen, cells = set(), []
        for cell in row.cells:  # a merged cell is repeated: keep it once
            if id(cell._tc) in seen:
                continue
            seen.add(id(cell._tc))
            cells.append(cell.text)
        yield cells


# --- PowerPoint -------------------------------------------------------------------------------
def pptx_to_text(data: bytes) -> Extracted:
    zf = open_zip(data, "pptx")
    zf.close()
    import pptx

    budget = _Budget("pptx")
    try:
        prs = pptx.Presentation(io.BytesIO(data))
        title = _clean(prs.core_properties.title or "")
        lines: list[str] = []
        for number, slide in enumerate(prs.slides, 1):
            budget.tick()
            heading_shape = slide.shapes.title
            heading = _clean(heading_shape.text_frame.text) if heading_shape is not None else ""
            title = title or heading
            lines.append(budget.text(f"# Slide {number}: {heading}" if heading else f"# Slide {number}"))
            skip = heading_shape.shape_id if heading_shape is not None else None
            for shape in slide.shapes:
                lines += _shape_lines(shape, skip, budget)
            if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
                notes = [_clean(p.text) for p in slide.notes_slide.notes_text_frame.paragraphs]
                notes = [n for n in notes if n]
                if notes:
                    lines.append(budget.text("Notes:"))
                    lines += [budget.text(n) for n in notes]
    except Exception as e:  # noqa: BLE001 - python-pptx raises many kinds of error on bad files
        raise _library_error("pptx", e) from None
    return Extracted(title=title, text="\n".join(lines))


def _shape_lines(shape, skip, budget: _Budget, depth: int = 0) -> list[str]:
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    if shape.shape_id == skip and depth == 0:
        return []
    if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
        if depth > 32:
            return []
        return [line for s in shape.shapes for line in _shape_lines(s, skip, budget, depth + 1)]
    if getattr(shape, "has_table", False) and shape.has_table:
        rows = ([cell.text for cell in row.cells] for row in shape.table.rows)
        return table_lines(rows, budget)
    if getattr(shape, "has_text_frame", False) and shape.has_text_frame:
        return [budget.text(t) for p in shape.text_frame.paragraphs if (t := _clean(p.text))]
    return []


# --- Excel ----------------------------------------------------------------------------------
def xlsx_to_text(data: bytes) -> Extracted:
    zf = open_zip(data, "xlsx")
    zf.close()
    import openpyxl

    budget = _Budget("xlsx")
    try:
        wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True, keep_links=False)
    except Exception as e:  # noqa: BLE001
        raise _library_error("xlsx", e) from None
    try:
        title = _clean(wb.properties.title or "") if wb.properties else ""
        lines: list[str] = []
        for ws in wb.worksheets:
            ws.reset_dimensions()  # a hostile <dimension> must not pad every row to 16,384 cells
            rows = table_lines(([_cell(v) for v in row] for row in ws.iter_rows(values_only=True)), budget)
            if rows:
                lines.append(budget.text(f"# Sheet: {_clean(ws.title)}"))
                lines += rows
    except Exception as e:  # noqa: BLE001 - openpyxl raises many kinds of error on bad files
        raise _library_error("xlsx", e) from None
    finally:
        wb.close()
    return Extracted(title=title, text="\n".join(lines))


def _cell(value) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ", timespec="minutes" if value.second == 0 else "seconds").removesuffix(" 00:00")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return str(value)


# --- CSV ----------------------------------------------------------------------------------------
def decode_csv(data: bytes) -> str:
    """UTF-8 (with or without a BOM) or UTF-16 with a BOM; :class:`FormatError` otherwise."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as e:
            raise FormatError(f"not valid UTF-16 although it starts with a UTF-16 mark ({e.reason})") from None
    try:
        return decode_utf8(data)
    except NotUtf8Error as e:
        raise FormatError(f"{e}; save it as CSV UTF-8 (Excel: CSV UTF-8) or convert it to UTF-8") from None


def guess_delimiter(text: str) -> str:
    """The delimiter (``,`` ``;`` tab ``|``) that splits the first rows into the most rows of
    one width (2 columns or more), then the widest; ``,`` when none does. Not
    ``csv.Sniffer``: its regular expressions take minutes on some 64 kB inputs."""
    sample = text[:16384]
    if len(text) > len(sample) and (cut := sample.rfind("\n")) > 0:
        sample = sample[:cut]
    best, best_score = ",", (0, 0)
    for d in ",;\t|":
        try:
            counts = [len(r) for r in csv.reader(io.StringIO(sample, newline=""), delimiter=d) if r][:50]
        except csv.Error:
            continue
        widths = sorted(set(counts))
        if not counts or widths[-1] < 2:
            continue
        width = max(widths, key=lambda w: (counts.count(w), w))
        score = (counts.count(width), width) if width >= 2 else (0, 0)
        if score > best_score:
            best, best_score = d, score
    return best


def csv_to_text(data: bytes, delimiter: str | None = None) -> Extracted:
    text = decode_csv(data)
    if "\x00" in text:
        raise FormatError("binary content (NUL bytes), not a CSV file")
    if delimiter is None:
        delimiter = guess_delimiter(text)
    budget = _Budget("csv")
    try:
        lines = table_lines(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=False), budget)
    except csv.Error as e:
        raise FormatError(f"unreadable CSV ({e})") from None
    return Extracted(title="", text="\n".join(lines))


# --- EPUB -----------------------------------------------------------------------------------
_XML_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
_NS = {"c": "urn:oasis:names:tc:opendocument:xmlns:container", "opf": "http://www.idpf.org/2007/opf",
       "dc": "http://purl.org/dc/elements/1.1/", "enc": "http://www.w3.org/2001/04/xmlenc#"}
# Font obfuscation (IDPF, Adobe) is allowed: only fonts are mangled, the text is not.
_FONT_OBFUSCATION = frozenset(("http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"))
_CHAPTER_TYPES = frozenset(("application/xhtml+xml", "text/html", "application/x-dtbook+xml"))


def _xml(zf: zipfile.ZipFile, name: str):
    try:
        return etree.fromstring(zf.read(name), _XML_PARSER)
    except KeyError:
        raise FormatError(f"not a valid EPUB file (no {name})") from None
    except etree.XMLSyntaxError as e:
        raise FormatError(f"not a valid EPUB file ({name}: {e})") from None


def epub_to_text(data: bytes) -> Extracted:
    zf = open_zip(data, "epub")
    budget = _Budget("epub")
    try:
        container = _xml(zf, "META-INF/container.xml")
        rootfile = container.find(".//c:rootfile", _NS)
        opf_path = rootfile.get("full-path") if rootfile is not None else None
        if not opf_path:
            raise FormatError("not a valid EPUB file (META-INF/container.xml names no package)")
        if "META-INF/encryption.xml" in zf.namelist():
            enc = _xml(zf, "META-INF/encryption.xml")
            methods = {m.get("Algorithm") for m in enc.iterfind(".//enc:EncryptionMethod", _NS)}
            if methods - _FONT_OBFUSCATION:
                raise FormatError("a DRM-protected (encrypted) EPUB; its text cannot be read")
        opf = _xml(zf, opf_path)
        title = _clean(opf.findtext(".//dc:title", "", _NS))
        base = posixpath.dirname(opf_path)
        manifest = {item.get("id"): item for item in opf.iterfind(".//opf:manifest/opf:item", _NS)}
        lines: list[str] = []
        read: set[str] = set()
        for ref in opf.iterfind(".//opf:spine/opf:itemref", _NS):
            budget.tick()
            if ref.get("idref") in read:
                continue  # a spine naming one chapter 10,000 times reads it once
            read.add(ref.get("idref"))
            item = manifest.get(ref.get("idref"))
            if item is None or item.get("media-type") not in _CHAPTER_TYPES or not item.get("href"):
                continue
            path = posixpath.normpath(posixpath.join(base, unquote(item.get("href").split("#")[0])))
            try:
                page = zf.read(path)
            except KeyError:
                continue  # a spine entry whose file is missing: the rest of the book is still read
            chapter = html_to_text(page, headings=True).text
            lines += [budget.text(line) for line in chapter.splitlines()]
    except FormatError:
        raise
    except Exception as e:  # noqa: BLE001 - a broken book must not stop the indexing
        raise _library_error("epub", e) from None
    finally:
        zf.close()
    return Extracted(title=title, text="\n".join(lines))


EXTRACTORS = {
    "docx": docx_to_text,
    "pptx": pptx_to_text,
    "xlsx": xlsx_to_text,
    "csv": csv_to_text,
    "tsv": lambda data: csv_to_text(data, "\t"),
    "epub": epub_to_text,
}

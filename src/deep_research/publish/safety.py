"""The output policy for markdown a model wrote: one pass over a report, read by every output.

A report is written by a model that read web pages, and a page can tell the model what to
write. Whatever it wrote, the published files must be inert in any markdown renderer that
allows raw HTML (report.md, report.linked.md and the state's ``report_markdown`` are
shown by UIs and previewers) and in our own HTML and PDF.

``apply_policy`` runs once per publish, on the parsed report
(:mod:`deep_research.citations.document`): it reads the document's block scan and never
looks at the sections code replaces (the model's Sources list, an old Verified findings
section). Its result (:class:`Policy`) holds edits in the report's own offsets; each
output is a projection of it (:meth:`Policy.text`). Refs and malformed ref markup are
*atoms*: the policy leaves them to the output, which writes them inert by construction
(report.md a ref tag on one line whose quote can reach nothing outside it, the linked
report a ``[N](url)`` link, the HTML a token its badge replaces; a malformed tag is text
in report.md, dropped elsewhere). What code adds to a report (Sources, Verified findings)
escapes the text it carries and needs no pass of its own. ``safe_markdown`` applies the
same policy to markdown that is not being published (a research run's state). The policy
rewrites the model's text so that:

* **raw HTML shows as text**: every ``<`` that could open a tag, comment, declaration or
  autolink becomes ``&lt;`` (CommonMark shows ``<`` either way), except the refs (atoms)
  and autolinks to allowed URLs;
* **images become links**: ``![alt](url)`` becomes ``[Image: alt](url)``, so no renderer
  loads anything when the report is opened;
* **links go only where a reader may be sent**: http, https, mailto, in-page ``#anchors``,
  and ``file:`` URLs of the report's own cited local sources. Any other destination
  (javascript:, data:, vbscript:, other files, relative paths) in an inline link, a
  reference definition or an autolink is written so that it is not a link (its text
  stays visible);
* **code stays as written**: fenced code and code spans are not touched, because a
  renderer shows their content literally. Where a renderer could disagree about what is
  code, the text is made unambiguous instead: a backtick that opens no code span is
  escaped, a code span broken over lines is joined onto one line (a renderer shows it the
  same), a code span holding ``|`` in a table is not trusted, and backticks and brackets
  inside link destinations and titles are escaped (a renderer decodes the escapes there).
  Indented code is treated as text: whether a line is indented code depends on list
  indentation rules that renderers apply differently;
* **a table row keeps every cell**: a renderer drops the cells a row has beyond its header
  (a "|" ends a cell even inside a code span or a quotation), so in such a row the "|"
  inside its code spans, then inside its quotations, then the last ones are escaped, until
  it has no more cells than its header (the extra cells join the last); a ref's own "|"
  (a quote of a page's table) is escaped in every table line, where it would split a row;
* **the structure stays small**: an unmatched ``[`` is escaped (no renderer then scans
  for its ``]``), brackets nested deeper than ``MAX_BRACKET_DEPTH`` are escaped, and a
  block with lists or block quotes nested deeper than ``MAX_NESTING`` is shown as a code
  block. These are the inputs that make markdown renderers slow or make them recurse
  until they fail.

Where code and text are told apart follows CommonMark's rules (``citations/mdscan``), and
every escape used is one CommonMark (and Python-Markdown) decodes to the same character,
so legitimate markdown renders as before. Everything is one linear pass.
"""

from __future__ import annotations

import bisect
import html
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..citations.check import safe_link
from ..citations.document import Document
from ..citations.mdscan import HARD_DEPTH, CodeSpans, delimiter_row, escaped, scan_blocks
from ..citations.model import Ref, Source
from ..citations.verify import strip_quote_marks

MAX_NESTING = 16  # lists and block quotes inside each other
MAX_BRACKET_DEPTH = 16  # [ inside [ inside [ ...
MAX_LABEL_CHARS = 999  # CommonMark's limit for a link label
MAX_DEST_PARENS = 8  # nested parentheses in a link destination (CommonMark renderers allow 32)
MAX_RENDER_CHARS = 500_000  # markdown converted to HTML and PDF (about 150 PDF pages)
# Python-Markdown rebuilds a paragraph's text for every inline match: (markup characters) x
# (paragraph length) above this is too slow (about 0.1 s); such a paragraph is shown as code
MAX_INLINE_WORK = 100_000_000
# Table cells HTML and PDF lay out in a report (about one per "|"): WeasyPrint takes some 4 ms
# and 20 KB per cell (a report of 50,000 one-letter cells: 112 s and 1 GB, one of 250,000
# would fit in MAX_RENDER_CHARS). A table past the budget is shown as code there.
MAX_TABLE_CELLS = 5_000
TOKEN_CHARS = 20  # a ref in the markdown HTML is made from: a token of 20 characters and its number (html.py)
_MARKUP = "\\`*_[&<!"
_MARKUP_CHAR = re.compile("[" + re.escape(_MARKUP) + "]")  # one of them: a ref's few counted in one call

LINK_SCHEMES = frozenset({"http", "https", "mailto"})  # plus file: for cited local sources
_SCHEME = re.compile(r"([a-z][a-z0-9+.\-]*):")
_IGNORED_IN_URL = re.compile(r"[\x00-\x20\x7f\\]+")  # browsers drop tabs/newlines; \ is / or junk
# "\\", "`", "<", "[", "]" or "![": one character class first (then "!" must be before "["),
# so the search runs at C speed (an alternation is tried at every position, ten times slower)
_INTEREST = re.compile(r"[\\`<\[\]!](?:(?<=!)\[|(?<!!))")
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\x00-\x20<>\x7f]*)>")
_EMAIL = re.compile(
    r"<([a-zA-Z0-9.!#$%&'*+/=?^_{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
    r"(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*)>")
_TAG_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/!?")
_ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_NEUTRAL = {"`": "\\`", "<": "&lt;", "[": "\\[", "]": "\\]"}  # same char in a URL, title or text
_URL_ESCAPES = {"`": "%60", "[": "%5B", "]": "%5D"}
_DEST_STOP = re.compile(r"[\x00-\x20\x7f()\\]")
_REF_TAG = re.compile(r"</?ref(?:\s+id\s*=\s*(?:\"[^\"<>`]*\"|'[^'<>`]*'|[^\s\"'<>/=`]+))?\s*/?>",
                      re.IGNORECASE)
_REF_OPEN_END = re.compile(r">")
# The claim-check marks report.md adds to a ref (publish/markdown.py check_mark): kept, with
# a known kind and a note that cannot hold quotes or angle brackets.
_REF_MARK = re.compile(r'\s(check|note)="([^"<>&]{0,300})"', re.IGNORECASE)
REF_CHECKS = frozenset({"quote-not-found", "claim-differs", "claim-unchecked", "no-claim"})
_REF_CLOSE = re.compile(r"</ref\s*>\Z", re.IGNORECASE)


# --- which URLs may be links ------------------------------------------------------------
def _normal_url(url: str) -> str:
    """The URL as a browser would read it: character references decoded, tabs, newlines,
    spaces and backslashes dropped, lower case, without a leading < or quote."""
    for _ in range(3):
        decoded = html.unescape(url)
        if decoded == url:
            break
        url = decoded
    return _IGNORED_IN_URL.sub("", url).lower().lstrip("<\"'")


def local_file_urls(sources: Iterable[Source]) -> frozenset[str]:
    """The file: URLs (without fragment) that links may point to: the cited local sources."""
    out = set()
    for s in sources:
        link = safe_link(s.url)
        if link and _normal_url(link).startswith("file:"):
            out.add(_normal_url(link).split("#", 1)[0])
    return frozenset(out)


def link_allowed(url: str, local_files: frozenset[str] = frozenset()) -> bool:
    """May a reader be sent to ``url`` (as written in markdown or HTML)? http(s), mailto,
    an in-page #anchor, or a file: URL of a cited local source."""
    u = _normal_url(url)
    if u.startswith("#"):
        return True
    m = _SCHEME.match(u)
    if not m:
        return False  # relative or protocol-relative: resolves to a file when opened locally
    if m.group(1) == "file":
        return u.split("#", 1)[0] in local_files
    return m.group(1) in LINK_SCHEMES


# --- the policy ---------------------------------------------------------------------------
@dataclass
class SafeMarkdown:
    text: str
    changes: Counter = field(default_factory=Counter)  # html, images, links, brackets
    degraded: list[dict] = field(default_factory=list)  # {"line", "reason"}

    def audit(self) -> dict:
        return {
            "html_escaped": self.changes["html"],
            "images_unlinked": self.changes["images"],
            "links_defused": self.changes["links"],
            "degraded": self.degraded,
        }


def merged_audit(earlier: Mapping[str, Any] | None, now: dict) -> dict:
    """The audit of a report the policy changed twice: ``earlier`` (a research run's pass
    when it checked the citations, read from its state) and ``now`` (publish's pass, which
    finds the earlier changes made already): the counts added, the degraded blocks of both."""
    if not earlier:
        return now
    out = dict(now)
    for key in ("html_escaped", "images_unlinked", "links_defused"):
        value = earlier.get(key)
        out[key] = now[key] + (value if isinstance(value, int) and value > 0 else 0)
    first = [d for d in earlier.get("degraded") or [] if isinstance(d, dict)]
    out["degraded"] = first + [d for d in now["degraded"] if d not in first]
    return out


@dataclass(frozen=True, slots=True)
class Atom:
    """A span the policy leaves to the renderer, which writes it inert by construction: a
    ref (``ref``), or the markup of a malformed ref tag (``tag``: ``follows_text`` says
    whether text follows it on its line, where a renderer reads a raw tag as inline)."""

    start: int
    end: int
    ref: Ref | None = None
    follows_text: bool = False

    def text(self, md: str) -> str:
        return md[self.start:self.end]


@dataclass
class Policy:
    """The output policy applied once to a report's model-written text (see the module
    notes): edits in the report's own offsets, the blocks shown as code, and the atoms
    (refs, malformed ref markup) each output writes itself. :meth:`text` writes a part of
    the report for one output; the counts and the degraded blocks are for audit.json."""

    doc: Document
    edits: dict[int, list[tuple[int, int, str]]] = field(default_factory=dict)  # by chunk
    degraded: dict[int, str] = field(default_factory=dict)  # chunk -> why it is shown as code
    render_degraded: dict[int, str] = field(default_factory=dict)  # HTML and PDF only
    atoms: list[Atom] = field(default_factory=list)
    changes: Counter = field(default_factory=Counter)
    notes: list[dict] = field(default_factory=list)  # {"line", "reason"}: blocks and brackets
    render_notes: list[dict] = field(default_factory=list)
    cut: int | None = None  # HTML and PDF show the report up to here (MAX_RENDER_CHARS)
    table_atoms: set[int] = field(default_factory=set)  # starts of the atoms in a table's lines

    @property
    def _atom_starts(self) -> list[int]:
        cached = self.__dict__.get("_starts")
        if cached is None or len(cached) != len(self.atoms):
            cached = self.__dict__["_starts"] = [x.start for x in self.atoms]
        return cached

    def audit(self) -> dict:
        degraded = sorted(self.notes, key=lambda d: d["line"] or 0)
        for d in self.render_notes:  # limits for HTML and PDF only
            if d not in degraded:
                degraded.append(d)
        return SafeMarkdown("", self.changes, degraded).audit()

    def text(self, start: int, end: int, atom_text: Callable[[Atom], str], *, render: bool = False,
             code_atom_text: Callable[[Atom], str] | None = None) -> str:
        """The report's text ``[start, end)`` for one output: the policy's edits applied,
        each atom written by ``atom_text``, the degraded blocks as code (``render``: those
        of HTML and PDF too, with short lines; ``code_atom_text`` writes the atoms inside
        them, default ``atom_text``)."""
        md = self.doc.markdown
        chunks = self.doc.scan.chunks if self.doc.scan else []
        degraded = dict(self.degraded)
        if render:
            degraded.update(self.render_degraded)
        out: list[str] = []
        pos = start
        spans: list[tuple[int, int, int, object]] = []  # (start, end, order, what)
        for k in degraded:
            c = chunks[k]
            if c.end > start and c.start < end:
                spans.append((c.start, c.end, 0, k))
        for k, edits in self.edits.items():
            if k in degraded:
                continue
            spans.extend((a, b, 1, new) for a, b, new in edits)
        spans.extend((x.start, x.end, 1, x) for x in self.atoms)
        spans.sort(key=lambda e: (e[0], e[2], e[1]))
        for a, b, kind, what in spans:
            if kind == 0:  # a degraded block (the part of it in range): its text, atoms written, in a fence
                if b <= pos or a >= end:
                    continue
                a2, b2 = max(a, pos), min(b, end)
                body = self._plain_text(a2, b2, code_atom_text or atom_text).rstrip("\n")
                if render:
                    body = _short_lines(body)
                ticks = max((len(m.group(0)) for m in re.finditer("`+", body)), default=0)
                fence = "`" * max(3, ticks + 1)
                out += [md[pos:a2], f"{fence}text\n{body}\n{fence}\n"]
                pos = b2
                continue
            if a < pos or a > end or (a == end and b > a) or b > end:
                continue
            out.append(md[pos:a])
            if isinstance(what, Atom):
                text = atom_text(what)
                out.append(_TABLE_PIPE.sub(r"\\|", text) if what.start in self.table_atoms else text)
            else:
                out.append(what)
            pos = b
        out.append(md[pos:end])
        return "".join(out)

    def _plain_text(self, start: int, end: int, atom_text: Callable[[Atom], str]) -> str:
        md = self.doc.markdown
        out, pos = [], start
        k = bisect.bisect_left(self._atom_starts, start)
        for x in self.atoms[k:]:
            if x.start >= end:
                break
            if x.start >= pos and x.end <= end:
                out += [md[pos:x.start], atom_text(x)]
                pos = x.end
        out.append(md[pos:end])
        return "".join(out)


_TAG_MARKUP = re.compile(r"</?ref\b[^<>\n]*>?", re.IGNORECASE)
_TABLE_PIPE = re.compile(r"(?<!\\)\|")  # a "|" that would end a table cell (not escaped)


def _atoms(doc: Document, refs: list[Ref], problems: list) -> list[Atom]:
    md = doc.markdown
    atoms = [Atom(r.start, r.end, r) for r in refs]
    for p in problems:
        if not 0 <= p.start < p.end:
            continue
        for m in _TAG_MARKUP.finditer(md, p.start, p.end):
            eol = md.find("\n", m.end())
            follows = bool(md[m.end():len(md) if eol == -1 else eol].strip(" \t\r"))
            atoms.append(Atom(m.start(), m.end(), None, follows))
    atoms.sort(key=lambda x: x.start)
    out: list[Atom] = []
    for x in atoms:  # never overlapping
        if not out or x.start >= out[-1].end:
            out.append(x)
    return out


def apply_policy(doc: Document, *, local_files: frozenset[str] = frozenset(),
                 unpublished: Iterable[tuple[int, int]] = ()) -> Policy:
    """The output policy on the model-written text of ``doc``, in one pass. Text in
    ``unpublished`` spans (sections code replaces) is not looked at. Refs and malformed ref
    markup are atoms: every output writes them itself (:meth:`Policy.text`)."""
    md = doc.markdown
    blocks = doc.scan if doc.scan is not None else scan_blocks(md, chunks=True)
    skip = sorted((a, b) for a, b in unpublished if b > a)
    skip_starts = [a for a, _ in skip]

    def hidden(pos: int) -> bool:
        k = bisect.bisect_right(skip_starts, pos) - 1
        return k >= 0 and pos < skip[k][1]

    atoms = _atoms(doc, doc.refs + doc.ignored_refs, doc.problems + doc.ignored_problems)
    policy = Policy(doc, atoms=[x for x in atoms if not hidden(x.start)])
    chunks = blocks.chunks
    starts = [c.start for c in chunks]

    def chunk_of(pos: int) -> int:
        return max(0, bisect.bisect_right(starts, pos) - 1)

    title = doc.title()  # HTML and PDF show the title above the body
    top = title.end if title is not None else 0
    if len(md) - top > MAX_RENDER_CHARS:  # HTML and PDF: cut at the last top-level blank line, else a line break
        ends = [c.end for c in chunks if c.start >= top and c.end - top <= MAX_RENDER_CHARS and c.end < len(md)]
        policy.cut = ends[-1] if ends else max(md.rfind("\n", top, top + MAX_RENDER_CHARS),
                                               top + MAX_RENDER_CHARS // 2)
    line_of = _LineIndex(md)
    for k, chunk in enumerate(chunks):
        if chunk.depth > MAX_NESTING and not hidden(chunk.start):
            more = " or more" if chunk.depth >= HARD_DEPTH else ""
            policy.degraded[k] = (f"lists or block quotes nested {chunk.depth}{more} deep (more than {MAX_NESTING}): "
                                  "the block is shown as code")
    atom_at = {x.start: x for x in atoms}
    atom_starts = [x.start for x in atoms]
    counted: list[tuple[int, SafeMarkdown]] = []
    table_cells = 0
    for inline in blocks.inlines:
        a0 = inline.segments[0][0]
        if hidden(a0):
            continue
        k = chunk_of(a0)
        if k in policy.degraded:
            continue
        acc = SafeMarkdown("")
        ctx = _Context(md, inline.segments, inline.table, local_files, acc, line_of,
                       atoms=atom_at, atom_starts=atom_starts, all_atoms=atoms)
        policy.edits.setdefault(k, []).extend(ctx.run())
        counted.append((k, acc))
        if inline.table:
            policy.table_atoms.update(start for _, _, start in ctx.met_atoms)
        # the paragraph as HTML renders it: each ref a short token, a malformed tag escaped
        length = len(ctx.t) - ctx.ref_chars + ctx.token_chars
        markup = sum(ctx.t.count(c) for c in _MARKUP) - ctx.ref_markup + len(ctx.edits) + ctx.tags
        if markup * length > MAX_INLINE_WORK and k not in policy.render_degraded and (
                policy.cut is None or a0 < policy.cut):
            policy.render_degraded[k] = (f"a paragraph of {length:,} characters with {markup:,} markup "
                                         "characters (too slow to render): HTML and PDF show the block as code")
        if inline.table and k not in policy.render_degraded and (policy.cut is None or a0 < policy.cut):
            cells = sum(md.count("|", a, b) for a, b in inline.segments)
            if table_cells + cells > MAX_TABLE_CELLS:
                policy.render_degraded[k] = (f"a table of about {cells:,} cells, more than the {MAX_TABLE_CELLS:,} "
                                             "table cells a report may have (too slow to render): HTML and PDF "
                                             "show the block as code")
            else:
                table_cells += cells
    for k, acc in counted:
        if k not in policy.degraded:
            policy.changes.update(acc.changes)
            policy.notes.extend(acc.degraded)
    for x in policy.atoms:  # a malformed ref tag report.md shows as text
        if x.ref is None and chunk_of(x.start) not in policy.degraded and not (
                x.follows_text and x.text(md).startswith("</") and _REF_TAG.fullmatch(x.text(md))):
            policy.changes["html"] += 1
    for x in policy.atoms:  # a ref's quote, made inert: what it changes is counted too
        if x.ref is not None and chunk_of(x.start) not in policy.degraded:
            inert_quote(x.ref.quote, local_files, policy.changes)
    for pos, end in blocks.ambiguous_fences:  # a fence only some renderers see: a fence for none
        k = chunk_of(pos)
        if k not in policy.degraded and not hidden(pos):
            policy.edits.setdefault(k, []).append((pos, end, "".join("\\" + c for c in md[pos:end])))
    k = chunk_of(len(md))
    if blocks.unclosed_fence and k not in policy.degraded and not hidden(max(0, len(md) - 1)):
        policy.edits.setdefault(k, []).append(
            (len(md), len(md), ("" if md.endswith("\n") else "\n") + blocks.unclosed_fence + "\n"))
    for k in sorted(policy.degraded):
        policy.notes.append({"line": line_of(chunks[k].start), "reason": policy.degraded[k]})
    for k in sorted(policy.render_degraded):
        if k not in policy.degraded:
            policy.render_notes.append({"line": line_of(chunks[k].start), "reason": policy.render_degraded[k]})
    if policy.cut is not None:
        policy.render_notes.append({"line": md.count("\n", 0, policy.cut) + 1,
                                    "reason": f"the report is longer than {MAX_RENDER_CHARS:,} characters: "
                                              "HTML and PDF show the first part"})
    return policy


def render_cut_note(md: str, cut: int) -> str:
    """The note that ends HTML and PDF when the report was cut for them."""
    return (f"*The rest of the report ({len(md) - cut:,} characters) is too long to show here; "
            "it is in report.md.*\n")


def inert_quote(quote: str, local_files: frozenset[str] = frozenset(), changes: Counter | None = None) -> str:
    """A ref's quote as it may stand between ``<ref>`` tags in any markdown output: on one
    line, double quotes curled, and every construct that could reach outside the tag made
    text (an unmatched bracket or backtick escaped, HTML escaped, images and unsafe links
    defused). Built by code, so inert wherever it is put."""
    text, counts = _inert_quote(quote, local_files)
    if changes is not None and counts:  # (most quotes change nothing: no update to make)
        changes.update(dict(counts))
    return text


@lru_cache(maxsize=4096)
def _inert_quote(quote: str, local_files: frozenset[str]) -> tuple[str, tuple[tuple[str, int], ...]]:
    quote = " ".join(quote.split()).replace('"', "\u201d")  # (str.split splits where "\s" matches)
    if not quote:
        return quote, ()
    acc = SafeMarkdown("")
    sub = _Context(quote, [(0, len(quote))], False, local_files, acc, None, quote=True)
    sub.transform()
    return _apply(quote, sub.edits), tuple(acc.changes.items())


_LITERAL = {"[": "\\[", "]": "\\]", "`": "\\`", "\\": "\\\\", "<": "&lt;"}


def literal_markup(text: str) -> str:
    """Markup shown as text wherever it is put (a malformed ref tag in report.md)."""
    return "".join(_LITERAL.get(c, c) for c in text)


def tag_atom_text(atom: Atom, md: str, *, raw_ok: bool) -> str:
    """A malformed ref tag: kept as a raw (inert) tag when ``raw_ok`` and it is a plain
    ``<ref id=…>`` or ``</ref>`` followed by text on its line (a renderer drops it or
    shows it as an unknown inline tag), else shown as text."""
    text = atom.text(md)
    if raw_ok and atom.follows_text and _REF_TAG.fullmatch(text):
        return text
    return literal_markup(text)


def safe_markdown(md: str | Document, *, local_files: frozenset[str] = frozenset(),
                  keep_refs: bool = False, render_limits: bool = False) -> SafeMarkdown:
    """``md`` rewritten by the output policy (see the module notes), for markdown that is
    not a published report (a research run's ``report_markdown``, a test). ``keep_refs``:
    refs are written back as canonical tags (one line, quote inert, their ``check`` and
    ``note`` marks kept) and malformed ref markup is shown as text; else a malformed tag
    stays a raw tag where a renderer drops it. ``render_limits``: as for HTML and PDF.
    ``md`` may be a parsed report (:class:`~deep_research.citations.document.Document`)."""
    from ..citations.document import as_document

    doc = as_document(md)  # a parsed report is not parsed again
    md = doc.markdown
    policy = apply_policy(doc, local_files=local_files)

    def atom_text(x: Atom) -> str:
        if x.ref is None:
            return tag_atom_text(x, md, raw_ok=not keep_refs or x.text(md).startswith("</"))
        return canonical_ref(x.ref.source_id, x.text(md), local_files)

    end = policy.cut if render_limits and policy.cut else len(md)
    text = policy.text(0, end, atom_text, render=render_limits)
    if render_limits and policy.cut:
        text = text.rstrip("\n") + "\n\n" + render_cut_note(md, policy.cut)
    result = SafeMarkdown(text, policy.changes)
    result.degraded = policy.audit()["degraded"] if render_limits else sorted(policy.notes, key=lambda d: d["line"] or 0)
    return result


def canonical_ref(source_id: str, tag: str, local_files: frozenset[str] = frozenset()) -> str:
    """A well-formed ref tag as written, on one line: <ref id="ID">"quote"</ref>, the quote
    made inert, its ``check`` and ``note`` marks kept when well-formed."""
    opening = _REF_OPEN_END.search(tag)
    close = _REF_CLOSE.search(tag)
    inner = tag[opening.end():close.start()] if opening and close else ""
    marks = "".join(f' {name}="{value}"' for name, value in ref_marks(tag).items())
    return ref_tag(source_id, strip_quote_marks(inner), marks, local_files)


def ref_marks(tag: str) -> dict[str, str]:
    """The well-formed ``check`` and ``note`` marks of a ref tag's opening (as report.md
    writes them), by name."""
    opening = _REF_OPEN_END.search(tag)
    return {m.group(1).lower(): m.group(2) for m in _REF_MARK.finditer(tag[:opening.end()] if opening else "")
            if m.group(1).lower() == "note" or m.group(2) in REF_CHECKS}


def ref_tag(source_id: str, quote: str, marks: str = "", local_files: frozenset[str] = frozenset()) -> str:
    """A ref for report.md, built by code: ``<ref id="ID"{marks}>"quote"</ref>`` with the
    quote inert (:func:`inert_quote`); an id holding a double quote is written in single
    quotes."""
    q = "'" if '"' in source_id else '"'
    return f'<ref id={q}{source_id}{q}{marks}>"{inert_quote(quote, local_files)}"</ref>'


def _short_lines(text: str, indent: int = 40, width: int = 200) -> str:
    """Code lines a PDF renderer lays out quickly (its time goes by line, about 2 ms
    each): indentation capped, lines cut at ``width``, and short lines run together."""
    out: list[str] = []
    cur = ""
    for line in text.split("\n"):
        body = line.lstrip(" \t")
        line = " " * min(len(line) - len(body), indent) + body
        cur = f"{cur}  {line}" if cur else line
        if len(cur) >= width // 2:
            out.extend(cur[i:i + width] for i in range(0, len(cur), width))
            cur = ""
    if cur:
        out.append(cur)
    return "\n".join(out)


def render_input(md: str, local_files: frozenset[str] = frozenset()) -> SafeMarkdown:
    """Markdown ready to convert to HTML: the policy applied with the limits of HTML and
    PDF, and a report longer than ``MAX_RENDER_CHARS`` cut at a line break before it, with
    a note saying so (the markdown files keep the whole text)."""
    return safe_markdown(md, local_files=local_files, render_limits=True)


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    out, pos = [], 0
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1])):
        if start < pos:
            continue  # inside a block already replaced
        out.append(text[pos:start])
        out.append(new)
        pos = end
    out.append(text[pos:])
    return "".join(out)


class _LineIndex:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        self.line = 1

    def __call__(self, offset: int) -> int:  # offsets asked in (mostly) increasing order
        if offset < self.pos:
            self.pos, self.line = 0, 1
        self.line += self.text.count("\n", self.pos, offset)
        self.pos = offset
        return self.line


class _Context:
    """One inline context (a paragraph, heading or line) as a string ``t``: its segments
    joined by "\\n"; edits are made in ``t`` and mapped back to the markdown."""

    def __init__(self, md: str, segments: list[tuple[int, int]], table: bool,
                 local_files: frozenset[str], result: SafeMarkdown, line_of,
                 *, quote: bool = False, atoms: dict | None = None, atom_starts: list[int] | None = None,
                 all_atoms: list | None = None):
        self.md = md
        self.segments = segments
        self.t = "\n".join(md[a:b] for a, b in segments) if len(segments) > 1 else md[segments[0][0]:segments[0][1]]
        self.starts = []
        p = 0
        for a, b in segments:
            self.starts.append(p)
            p += b - a + 1
        self.orig_starts = [a for a, _ in segments]
        self.table = table
        self.local_files = local_files
        self.result = result
        self.line_of = line_of
        self.quote = quote  # a ref's quote: images are escaped, not relabelled, a stray "]" too
        # refs and malformed ref markup: each output writes them itself, inert (Policy.text)
        self.atoms = atoms or {}
        self.begin = 0  # the context starts inside an atom (a ref whose quote runs onto this line)
        if atom_starts and all_atoms:
            k = bisect.bisect_right(atom_starts, segments[0][0]) - 1
            if k >= 0 and all_atoms[k].start < segments[0][0] < all_atoms[k].end:
                end_t = self._t_of(all_atoms[k].end)
                self.begin = len(self.t) if end_t is None else end_t
        self.edits: list[tuple[int, int, str]] = []
        self.tags = 0  # malformed ref tags met (each written as text by the outputs)
        # refs met: their characters and markup here, and the characters of their tokens in HTML
        self.token_chars = self.ref_chars = self.ref_markup = 0
        self.met_atoms: list[tuple[int, int, int]] = []  # (start, end in t, start in the markdown)
        self.uncoded: list[tuple[int, int]] = []  # a table's code spans holding "|", made text

    # mapping t -> markdown
    def _orig(self, tpos: int) -> int:
        k = bisect.bisect_right(self.starts, tpos) - 1
        a, b = self.segments[k]
        return min(a + (tpos - self.starts[k]), b)

    def _atom_end(self, tpos: int) -> int | None:
        """Where the atom starting at ``tpos`` ends in ``t`` (its end, if in another
        context: the end of ``t``), or None."""
        if not self.atoms:
            return None
        atom = self.atoms.get(self._orig(tpos))
        if atom is None:
            return None
        end_t = self._t_of(atom.end)
        self.met_atoms.append((tpos, len(self.t) if end_t is None else end_t, atom.start))
        if atom.ref is None:  # the HTML escapes it unless it stays a raw tag
            text = atom.text(self.md)
            self.tags += not (atom.follows_text and _REF_TAG.fullmatch(text))
        else:
            end_t = self._t_of(atom.end)
            end_t = len(self.t) if end_t is None else end_t
            self.token_chars += TOKEN_CHARS + len(str(atom.ref.index))
            self.ref_chars += end_t - tpos
            self.ref_markup += len(_MARKUP_CHAR.findall(self.t, tpos, end_t))
            return end_t
        end_t = self._t_of(atom.end)
        return len(self.t) if end_t is None else end_t

    def _t_of(self, orig: int) -> int | None:
        k = bisect.bisect_right(self.orig_starts, orig) - 1
        if k >= 0 and orig <= self.segments[k][1]:
            return self.starts[k] + (orig - self.segments[k][0])
        return None

    def edit(self, a: int, b: int, new: str) -> None:
        self.edits.append((a, b, new))

    def run(self) -> list[tuple[int, int, str]]:
        self.transform()
        if len(self.segments) == 1:
            base = self.segments[0][0]
            return [(base + a, base + b, new) for a, b, new in self.edits]
        return [(self._orig(a), self._orig(b), new) for a, b, new in self.edits]

    def transform(self) -> None:
        t = self.t
        n = len(t)
        runs = CodeSpans(t)
        stack: list[tuple[int, int | None]] = []  # (position of "[", index of its image edit)
        changes = self.result.changes
        i = self.begin
        while i < n:
            m = _INTEREST.search(t, i)
            if m is None:
                break
            p = m.start()
            ch = t[p]
            if ch == "\\":
                i = p + 2 if p + 1 < n and t[p + 1] in _ASCII_PUNCT else p + 1
            elif ch == "`":
                e = p
                while e < n and t[e] == "`":
                    e += 1
                limit = n
                if self.table:
                    nl = t.find("\n", e)
                    limit = n if nl == -1 else nl
                c = runs.closer(e - 1, e - p, limit)
                # a "|" in a table cell ends it, even in code; joined onto one line, a span
                # holding "|" could turn that line into a table header: not trusted either
                if c == -1 or ("|" in t[e:c] and (self.table or "\n" in t[e:c])):
                    self.edit(p, e, "\\`" * (e - p))  # no code span: a literal backtick
                    if c != -1 and self.table:
                        self.uncoded.append((e, c))
                    i = e
                    continue
                nl = t.find("\n", e, c)
                while nl != -1:  # a renderer shows a line break in code as a space
                    self.edit(nl, nl + 1, " ")
                    nl = t.find("\n", nl + 1, c)
                i = runs.run_end[c]
            elif ch == "<":
                i = self._angle(p)
            elif ch == "!":
                if self.quote:
                    self.edit(p, p + 1, "\\!")
                    stack.append((p + 1, None))
                else:
                    self.edit(p, p + 2, "[Image" if t.startswith("]", p + 2) else "[Image: ")
                    stack.append((p + 1, len(self.edits) - 1))
                i = p + 2
            elif ch == "[":
                if len(stack) >= MAX_BRACKET_DEPTH:
                    self.edit(p, p + 1, "\\[")
                    if not changes["brackets"]:
                        self.result.degraded.append({
                            "line": self.line_of(self._orig(p)) if self.line_of else None,
                            "reason": f"brackets nested more than {MAX_BRACKET_DEPTH} deep: the "
                                      "deeper ones are shown as text"})
                    changes["brackets"] += 1
                else:
                    stack.append((p, None))
                i = p + 1
            else:  # "]"
                opener = stack.pop() if stack else None
                i = p + 1
                if opener is None and self.quote:  # a quote's "]" must not close a "[" outside its ref
                    self.edit(p, p + 1, "\\]")
                    continue
                if opener is not None and p + 1 < n:
                    nxt = t[p + 1]
                    if nxt == "(":
                        i = self._inline_tail(p, opener)
                    elif nxt == "[":
                        i = self._label(p + 1)
                    elif nxt == ":":
                        i = self._definition(p, opener)
                if opener is not None and opener[1] is not None:
                    changes["images"] += 1
        for pos, image_edit in stack:  # unmatched "[": literal, and no renderer scans for its "]"
            if image_edit is not None:
                a, b, _ = self.edits[image_edit]
                self.edits[image_edit] = (a, b, "\\!\\[")
            else:
                self.edit(pos, pos + 1, "\\[")
        if self.table and not self.quote:
            self._table_rows()

    # table rows: no cell dropped
    def _separators(self, a: int, b: int) -> list[int]:
        """The "|" that end a cell in the line ``t[a:b]``: not escaped, not in an atom, and
        not the row's leading or trailing border."""
        t = self.t
        out = []
        atoms = self.met_atoms
        k = 0
        p = t.find("|", a, b)
        while p != -1:
            while k < len(atoms) and atoms[k][1] <= p:
                k += 1
            if not escaped(t, p, a) and not (k < len(atoms) and atoms[k][0] <= p):
                out.append(p)
            p = t.find("|", p + 1, b)
        if out and not t[a:out[0]].strip(" \t"):
            out.pop(0)
        if out and not t[out[-1] + 1:b].strip(" \t"):
            out.pop()
        return out

    def _quoted(self, a: int, b: int) -> list[tuple[int, int]]:
        """The quotations of the line ``t[a:b]``: between two straight double quotes in turn,
        or a curly pair."""
        t = self.t
        out: list[tuple[int, int]] = []
        opened: dict[str, int] = {}
        for m in re.finditer('["\u201c\u201d]', t[a:b]):
            p, c = a + m.start(), m.group()
            if c == '"':
                if '"' in opened:
                    out.append((opened.pop('"'), p))
                else:
                    opened['"'] = p
            elif c == "\u201c":
                opened.setdefault("\u201c", p)
            elif "\u201c" in opened:
                out.append((opened.pop("\u201c"), p))
        return sorted(out)

    def _table_rows(self) -> None:
        """Every renderer drops the cells a table row has beyond its header: in such a row
        the "|" of its code spans (made text), then of its quotations, then the last ones are
        escaped until it has no more cells than its header (what they held joins the last)."""
        t = self.t
        lines = [(s, s + b - a) for s, (a, b) in zip(self.starts, self.segments)]
        head = next((k for k in range(1, len(lines)) if delimiter_row(t[lines[k][0]:lines[k][1]])), None)
        if head is None:
            return
        cols = len(self._separators(*lines[head - 1])) + 1
        if len(self._separators(*lines[head])) + 1 != cols:
            return  # not a table (GFM)
        rows, first = 0, -1
        for a, b in lines[head + 1:]:
            seps = self._separators(a, b)
            excess = len(seps) + 1 - cols
            if excess <= 0:
                continue
            for spans in (self.uncoded, self._quoted(a, b)):
                starts = [x for x, _ in spans]
                inside = {p for p in seps if (j := bisect.bisect_left(starts, p) - 1) >= 0 and p < spans[j][1]}
                if inside:
                    seps = [p for p in seps if p not in inside]
                    excess -= len(inside)
                    for p in inside:
                        self.edit(p, p + 1, "\\|")
                if excess <= 0:
                    break
            for p in seps[len(seps) - excess:] if excess > 0 else ():
                self.edit(p, p + 1, "\\|")
            rows += 1
            first = a if first < 0 else first
        if rows:
            self.result.degraded.append({
                "line": self.line_of(self._orig(first)) if self.line_of else None,
                "reason": f"{rows} table row(s) with more cells than their header (a renderer drops the extra "
                          'cells): the "|" that would start them (in a code span or a quotation first) are '
                          "shown as text, so no cell's text or citation is lost"})

    # "<": a kept ref, an allowed autolink, or text
    def _angle(self, p: int) -> int:
        t = self.t
        end = self._atom_end(p)
        if end is not None:
            return end
        m = _AUTOLINK.match(t, p)
        if m:
            if link_allowed(m.group(1), self.local_files):
                inner = m.group(1)
                if any(c in inner for c in _URL_ESCAPES):
                    self.edit(m.start(1), m.end(1), "".join(_URL_ESCAPES.get(c, c) for c in inner))
                return m.end()
            self.result.changes["links"] += 1
        else:
            m = _EMAIL.match(t, p)
            if m and "`" not in m.group(1):
                return m.end()
        if p + 1 < len(t) and t[p + 1] in _TAG_START:
            self.edit(p, p + 1, "&lt;")
            if not m:
                self.result.changes["html"] += 1
        return p + 1

    # link tails: destination, title, label
    def _neutralize(self, a: int, b: int) -> None:
        t = self.t
        k = a
        while k < b:
            c = t[k]
            if c == "\\" and k + 1 < b and t[k + 1] in _ASCII_PUNCT:
                k += 2
                continue
            if c in _NEUTRAL:
                self.edit(k, k + 1, _NEUTRAL[c])
            k += 1

    def _skip_ws(self, k: int) -> int:
        """Spaces and tabs, at most one line break, then spaces and tabs."""
        t, n = self.t, len(self.t)
        while k < n and t[k] in " \t":
            k += 1
        if k < n and t[k] == "\n":
            k += 1
            while k < n and t[k] in " \t":
                k += 1
        return k

    def _destination(self, k: int) -> tuple[int, int, bool, int] | None:
        """(start, end, pointy, index after it) of a link destination at k, or None."""
        t, n = self.t, len(self.t)
        if k < n and t[k] == "<":
            j = k + 1
            while j < n:
                c = t[j]
                if c == "\\" and j + 1 < n:
                    j += 2
                    continue
                if c == ">":
                    return k + 1, j, True, j + 1
                if c in "<\n":
                    return None
                j += 1
            return None
        j, depth = k, 0
        while j < n:
            m = _DEST_STOP.search(t, j)  # skip ordinary characters at C speed
            if m is None:
                j = n
                break
            j = m.start()
            c = t[j]
            if c == "\\":
                j += 2 if j + 1 < n and t[j + 1] in _ASCII_PUNCT else 1
                continue
            if c <= " " or c == "\x7f":
                break
            if c == "(":
                depth += 1
                if depth > MAX_DEST_PARENS:
                    return None  # not a link here; its "(" is escaped, so for no renderer
            elif depth == 0:  # ")"
                break
            else:
                depth -= 1
            j += 1
        if j == k or depth:
            return None
        return k, j, False, j

    def _title(self, k: int) -> int | None:
        """Index after a link title starting at k, or None."""
        t, n = self.t, len(self.t)
        if k >= n or t[k] not in "\"'(":
            return None
        close = ")" if t[k] == "(" else t[k]
        j = k + 1
        while j < n:
            c = t[j]
            if c == "\\" and j + 1 < n:
                j += 2
                continue
            if c == close:
                return j + 1
            if close == ")" and c == "(":
                return None
            j += 1
        return None

    def _url_check(self, a: int, b: int, p: int, opener: tuple[int, int | None], where: str) -> bool:
        url = self.t[a:b]
        if link_allowed(url, self.local_files):
            return True
        self.result.changes["links"] += 1
        if where == "inline":
            self.edit(p + 1, p + 2, "\\(")  # ](javascript:…) is then text
        elif opener[1] is not None:  # ![x]: javascript:… is then text
            a, b, _ = self.edits[opener[1]]
            self.edits[opener[1]] = (a, b, "\\!\\[")
        else:
            self.edit(opener[0], opener[0] + 1, "\\[")  # [x]: javascript:… is then text
        return False

    def _inline_tail(self, p: int, opener: tuple[int, int | None]) -> int:
        """After "](" at p: the destination and title of an inline link."""
        t, n = self.t, len(self.t)
        k = self._skip_ws(p + 2)
        if k < n and t[k] == ")":  # an empty destination: this very page
            return k + 1 if self._url_check(k, k, p, opener, "inline") else p + 2
        dest = self._destination(k)
        if dest is not None:
            a, b, _, k = dest
            k2 = self._skip_ws(k)
            title = None
            if k2 > k and k2 < n and t[k2] != ")":
                end = self._title(k2)
                if end is not None:
                    title = (k2, end)
                    k2 = self._skip_ws(end)
                else:
                    k2 = n  # not a title: not a link
            if k2 < n and t[k2] == ")":
                if not self._url_check(a, b, p, opener, "inline"):
                    return p + 2
                self._neutralize(a, b)
                if title:
                    self._neutralize(*title)
                return k2 + 1
        self.edit(p + 1, p + 2, "\\(")  # not a link: "(" is text (and no renderer scans on)
        return p + 2

    def _label(self, k: int) -> int:
        """At "[" right after "]": a reference label, up to its "]"."""
        t, n = self.t, len(self.t)
        j = k + 1
        while j < n and j - k <= MAX_LABEL_CHARS:
            c = t[j]
            if c == "\\" and j + 1 < n:
                j += 2
                continue
            if c == "[":
                return k
            if c == "]":
                self._neutralize(k + 1, j)
                return j + 1
            j += 1
        return k

    def _definition(self, p: int, opener: tuple[int, int | None]) -> int:
        """After "]:" at p: the destination (and title) of a link reference definition."""
        dest = self._destination(self._skip_ws(p + 2))
        if dest is None:
            return p + 2
        a, b, pointy, k = dest
        if not self._url_check(a, b, p, opener, "definition"):
            return p + 2
        self._neutralize(a, b)
        k2 = self._skip_ws(k)
        if k2 > k:
            title_end = self._title(k2)
            if title_end is not None:
                self._neutralize(k2, title_end)
                return title_end
        return k

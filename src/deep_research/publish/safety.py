"""The output policy for markdown a model wrote: one pass, applied to every output.

A report is written by a model that read web pages, and a page can tell the model what to
write. Whatever it wrote, the published files must be inert in any markdown renderer that
allows raw HTML (report.md, report.linked.md and the state's ``report_markdown`` are
shown by UIs and previewers) and in our own HTML and PDF. ``safe_markdown`` rewrites the
markdown so that:

* **raw HTML shows as text**: every ``<`` that could open a tag, comment, declaration or
  autolink becomes ``&lt;`` (CommonMark shows ``<`` either way), except well-formed
  ``<ref id="…">"…"</ref>`` citations where asked (``keep_refs``: report.md and
  ``report_markdown``; they are rewritten in one canonical line, quote escaped) and
  autolinks to allowed URLs;
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
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..citations.check import safe_link
from ..citations.mdscan import HARD_DEPTH, CodeSpans, scan_blocks
from ..citations.model import Source
from ..citations.refs import parse_refs
from ..citations.verify import strip_quote_marks

MAX_NESTING = 16  # lists and block quotes inside each other
MAX_BRACKET_DEPTH = 16  # [ inside [ inside [ ...
MAX_LABEL_CHARS = 999  # CommonMark's limit for a link label
MAX_DEST_PARENS = 8  # nested parentheses in a link destination (CommonMark renderers allow 32)
MAX_RENDER_CHARS = 500_000  # markdown converted to HTML and PDF (about 150 PDF pages)
# Python-Markdown rebuilds a paragraph's text for every inline match: (markup characters) x
# (paragraph length) above this is too slow (about 0.1 s); such a paragraph is shown as code
MAX_INLINE_WORK = 100_000_000
_MARKUP = "\\`*_[&<!"

LINK_SCHEMES = frozenset({"http", "https", "mailto"})  # plus file: for cited local sources
_SCHEME = re.compile(r"([a-z][a-z0-9+.\-]*):")
_IGNORED_IN_URL = re.compile(r"[\x00-\x20\x7f\\]+")  # browsers drop tabs/newlines; \ is / or junk
_INTEREST = re.compile(r"[\\`<\[\]]|!\[")
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
_REF_CHECKS = frozenset({"quote-not-found", "claim-differs", "claim-unchecked"})
_REF_CLOSE = re.compile(r"</ref\s*>\Z", re.IGNORECASE)
_WS = re.compile(r"\s+")


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


# --- the policy -------------------------------------------------------------------------
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


def safe_markdown(md: str, *, local_files: frozenset[str] = frozenset(),
                  keep_refs: bool = False, render_limits: bool = False) -> SafeMarkdown:
    """``md`` rewritten by the output policy (see the module notes). ``render_limits``
    (markdown about to become HTML and PDF): a paragraph so dense with markup that
    Python-Markdown's inline pass would take quadratic time is shown as code too, and
    blocks shown as code get short lines."""
    result = SafeMarkdown(md)
    blocks = scan_blocks(md, chunks=True)
    chunks = blocks.chunks
    starts = [c.start for c in chunks]

    def chunk_of(pos: int) -> int:
        return max(0, bisect.bisect_right(starts, pos) - 1)

    degraded: dict[int, str] = {}
    for k, chunk in enumerate(chunks):
        if chunk.depth > MAX_NESTING:
            more = " or more" if chunk.depth >= HARD_DEPTH else ""
            degraded[k] = (f"lists or block quotes nested {chunk.depth}{more} deep (more than {MAX_NESTING}): "
                           "the block is shown as code")
    refs = {}
    if keep_refs:
        refs = {r.start: r for r in parse_refs(md).refs}
    line_of = _LineIndex(md)
    kept: list[tuple[int, list, SafeMarkdown]] = []
    for inline in blocks.inlines:
        k = chunk_of(inline.segments[0][0])
        if k in degraded:
            continue
        acc = SafeMarkdown("")
        ctx = _Context(md, inline.segments, inline.table, local_files, refs, acc, line_of, keep_refs=keep_refs)
        ctx_edits = ctx.run()
        if render_limits:
            markup = sum(ctx.t.count(c) for c in _MARKUP) + len(ctx.edits)
            if markup * len(ctx.t) > MAX_INLINE_WORK:
                degraded[k] = (f"a paragraph of {len(ctx.t):,} characters with {markup:,} markup characters "
                               "(too slow to render): HTML and PDF show the block as code")
                continue
        kept.append((k, ctx_edits, acc))
    edits: list[tuple[int, int, str]] = []
    for k, ctx_edits, acc in kept:
        if k not in degraded:
            edits.extend(ctx_edits)
            result.changes.update(acc.changes)
            result.degraded.extend(acc.degraded)
    for pos, end in blocks.ambiguous_fences:  # a fence only some renderers see: a fence for none
        if chunk_of(pos) not in degraded:
            edits.append((pos, end, "".join("\\" + c for c in md[pos:end])))
    if blocks.unclosed_fence and chunk_of(len(md)) not in degraded:
        edits.append((len(md), len(md), ("" if md.endswith("\n") else "\n") + blocks.unclosed_fence + "\n"))
    line_of = _LineIndex(md)
    for k in sorted(degraded):
        chunk = chunks[k]
        body = md[chunk.start:chunk.end].rstrip("\n")
        if render_limits:
            body = _short_lines(body)
        ticks = max((len(m.group(0)) for m in re.finditer("`+", body)), default=0)
        fence = "`" * max(3, ticks + 1)
        edits.append((chunk.start, chunk.end, f"{fence}text\n{body}\n{fence}\n"))
        result.degraded.append({"line": line_of(chunk.start), "reason": degraded[k]})
    result.degraded.sort(key=lambda d: d["line"] or 0)
    if edits:
        result.text = _apply(md, edits)
    return result


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
    """Markdown ready to convert to HTML: the policy applied, and a report longer than
    ``MAX_RENDER_CHARS`` cut at a line break before it, with a note saying so (the
    markdown files keep the whole text)."""
    cut = None
    if len(md) > MAX_RENDER_CHARS:  # at the last top-level blank line, else a line break
        ends = [c.end for c in scan_blocks(md[:MAX_RENDER_CHARS], chunks=True).chunks[:-1]]
        cut = ends[-1] if ends else max(md.rfind("\n", 0, MAX_RENDER_CHARS), MAX_RENDER_CHARS // 2)
    result = safe_markdown(md[:cut] if cut else md, local_files=local_files, render_limits=True)
    if cut:
        rest = len(md) - cut
        result.text = (result.text.rstrip("\n") + "\n\n"
                       + f"*The rest of the report ({rest:,} characters) is too long to show here; "
                       "it is in report.md.*\n")
        result.degraded.append({"line": md.count("\n", 0, cut) + 1,
                                "reason": f"the report is longer than {MAX_RENDER_CHARS:,} characters: "
                                          "HTML and PDF show the first part"})
    return result


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
                 local_files: frozenset[str], refs: dict, result: SafeMarkdown, line_of,
                 *, quote: bool = False, keep_refs: bool = False):
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
        self.refs = refs
        self.result = result
        self.line_of = line_of
        self.quote = quote  # a ref's quote: images are escaped, not relabelled
        # report.md: well-formed refs are kept; a malformed opening tag is shown as text, so
        # that no later pass can read it, with text escaped after it, as a well-formed ref
        self.keep_refs = keep_refs
        self.edits: list[tuple[int, int, str]] = []

    # mapping t -> markdown
    def _orig(self, tpos: int) -> int:
        k = bisect.bisect_right(self.starts, tpos) - 1
        a, b = self.segments[k]
        return min(a + (tpos - self.starts[k]), b)

    def _ref_at(self, tpos: int):
        if not self.refs:
            return None
        ref = self.refs.get(self._orig(tpos))
        if ref is None:
            return None
        end_t = self._t_of(ref.end)
        return (ref, end_t) if end_t is not None else None

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
        i = 0
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

    # "<": a kept ref, an allowed autolink, or text
    def _angle(self, p: int) -> int:
        t = self.t
        hit = self._ref_at(p)
        if hit is not None:
            ref, end_t = hit
            canonical = self._canonical_ref(ref.source_id, t[p:end_t])
            if canonical:
                self.edit(p, end_t, canonical)
                return end_t
        m = _REF_TAG.match(t, p)
        if m and (not self.keep_refs or t.startswith("</", p)):  # a ref tag with at most an id: kept for the author to fix (it holds nothing active),
            # unless only whitespace follows it on its line, where it would open an HTML block
            eol = t.find("\n", m.end())
            if t[m.end():len(t) if eol == -1 else eol].strip(" \t\r"):
                return m.end()
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

    def _canonical_ref(self, source_id: str, tag: str) -> str | None:
        """A well-formed ref on one line: <ref id="ID">"quote"</ref>, the quote made inert
        (None if, without container markers, nothing of the quote is left)."""
        opening = _REF_OPEN_END.search(tag)
        close = _REF_CLOSE.search(tag)
        inner = tag[opening.end():close.start()] if opening and close else ""
        quote = _WS.sub(" ", strip_quote_marks(inner)).strip().replace('"', "\u201d")
        if not quote:
            return None
        sub = _Context(quote, [(0, len(quote))], False, self.local_files, {}, self.result, None, quote=True)
        sub.transform()
        quote = _apply(quote, sub.edits)
        q = "'" if '"' in source_id else '"'
        marks = "".join(f' {m.group(1).lower()}="{m.group(2)}"'
                        for m in _REF_MARK.finditer(tag[:opening.end()] if opening else "")
                        if m.group(1).lower() == "note" or m.group(2) in _REF_CHECKS)
        return f'<ref id={q}{source_id}{q}{marks}>"{quote}"</ref>'

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

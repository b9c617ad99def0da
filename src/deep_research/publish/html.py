"""Report markdown -> one self-contained, sanitised HTML document."""

from __future__ import annotations

import datetime as dt
import html as html_lib
import re
import unicodedata
import uuid
from dataclasses import dataclass
from typing import Any
from functools import lru_cache

import jinja2
import markdown as md_lib
from markdown.extensions.toc import slugify as toc_slugify
from markdown.preprocessors import Preprocessor
import nh3
from markupsafe import Markup, escape

from ..citations.check import Citation, CitationReport
from ..citations.claims import ClaimStatus
from ..citations.document.sections import title_text
from ..citations.flags import Flag
from ..citations.mdscan import shown_text
from ..citations.model import Verdict
from ..citations.styles import Styler
from .assets import templates_dir
from ..language import count, format_date, strong_direction, text_direction
from ..language import labels as language_labels
from .code import CSS_CLASS, MARKDOWN_EXTENSION, TOKEN_CLASSES, code_css
from .lists import for_python_markdown, separate_quotes
from . import marks
from .markdown import (body_markdown, check_mark, credibility_text, findings_markdown, legend_counts, policy_for,
                       quoted_words, side_label)
from .safety import Atom, Policy, link_allowed, local_file_urls, render_cut_note, tag_atom_text

# What report markdown may produce. Everything else (script, iframe, object, style, img,
# forms, event handlers, javascript:/data: URLs) is removed.
_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "caption", "code", "dd", "del", "div", "dl", "dt",
    "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "ins", "kbd", "li", "mark", "ol", "p",
    "pre", "q", "s", "small", "span", "strong", "sub", "sup", "table", "tbody", "td", "tfoot",
    "th", "thead", "tr", "u", "ul",
}
_ATTRS = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "td": {"style", "colspan", "rowspan"},
    "th": {"style", "colspan", "rowspan"},
    "h1": {"id"}, "h2": {"id"}, "h3": {"id"}, "h4": {"id"}, "h5": {"id"}, "h6": {"id"},
    "ol": {"start"},
}
_URL_SCHEMES = {"http", "https", "file", "mailto"}
MAX_LISTED_PROBLEMS = 100  # in the HTML and PDF; audit.json lists all
_TITLE = re.compile(r"\A\s*#[ \t]+([^\n]*)")


def sanitize(html: str, local_files: frozenset[str] = frozenset()) -> str:
    """Only the tags and attributes above; links only where ``safety.link_allowed`` says
    (file: only to the report's cited local sources)."""

    def keep(tag: str, attr: str, value: str) -> str | None:
        if attr == "href" and not link_allowed(value, local_files):
            return None
        return value

    return nh3.clean(
        html,
        tags=_TAGS,
        clean_content_tags={"script", "style", "iframe", "object", "embed", "template", "noscript",
                            "svg", "math", "textarea", "select"},
        attributes=_ATTRS,
        url_schemes=_URL_SCHEMES,
        filter_style_properties={"text-align"},
        link_rel="noopener noreferrer",
        allowed_classes={"span": TOKEN_CLASSES, "div": {CSS_CLASS}},  # highlighted code only
        attribute_filter=keep,
    )


# A run of 30+ characters with no space that is not one plain word (a URL, a path, an
# identifier): shown breakable anywhere, so a table column holding one is not as wide as
# the whole run (the PDF drew such a table past the page's edge). Plain words keep hyphenation.
# (tried only where a run starts: the same matches, as a match is always a whole run, without
# reading up to 29 characters of every shorter word at each of its positions)
_LONG_TOKEN = re.compile(r"(?<![^\s<>])[^\s<>]{30,}")
_PLAIN_WORD = re.compile(r"\W{0,3}[^\W\d_]+\W{0,3}")  # a word, with its punctuation
# a tag as nh3 and markupsafe write them: attribute values in double quotes, '"' escaped
_TAG = re.compile(r'(<[^>"]*(?:"[^"]*"[^>"]*)*>)')
_PRE_TAG = re.compile(r"<pre[ >]", re.I)  # what opens a <pre> below: a tag whose first 4 characters are these


def breakable_long_tokens(html: str) -> str:
    """``html`` with each long token of its text (outside ``<pre>``) in a span the CSS lets
    break anywhere (``.long-token``); tags and attribute values are left as they are."""

    def mark(m: re.Match) -> str:
        word = m.group(0)
        shown = html_lib.unescape(word)  # its length as shown: '&amp;' is one character
        if len(shown) < 30 or _PLAIN_WORD.fullmatch(shown):
            return word
        return f'<span class="long-token">{word}</span>'

    parts = _TAG.split(html)
    if _PRE_TAG.search(html) is None:  # no <pre> (most reports): every text part, in one pass
        parts[0::2] = [p if len(p) < 30 else _LONG_TOKEN.sub(mark, p) for p in parts[0::2]]
        return "".join(parts)
    in_pre = 0
    for i, part in enumerate(parts):
        if i % 2:  # a tag
            name = part[1:5].lower()
            if name == "pre>" or name.startswith("pre "):
                in_pre += 1
            elif name == "/pre" and in_pre:
                in_pre -= 1
        elif not in_pre and len(part) >= 30:
            parts[i] = _LONG_TOKEN.sub(mark, part)
    return "".join(parts)


# A run of text with no place to break a line costs WeasyPrint time quadratic in its length
# (each line it breaks off lays out the rest of the run again: 8,000 characters of one word
# took 5 s, of a highlighted code line 80 s, and a run of 100,000 outlived the PDF worker's
# 900 s), and a run past what Pango wraps (200,000 characters) was drawn as one line past
# the page's edge. So a run longer than BREAK_RUN_AFTER characters, across inline tags
# (``a*b*c…`` is one run of many <em>), gets a <wbr> every BREAK_RUN_EVERY characters after
# that: linear to lay out, and invisible (a browser copies the text without it).
BREAK_RUN_AFTER = 200
BREAK_RUN_EVERY = 20
_BREAKING_SPACES = " \t\n\r\f"  # a no-break space is part of a run
_SPACE = re.compile(f"[{_BREAKING_SPACES}]")
_LONG_RUN = re.compile(f"(?<![{_BREAKING_SPACES}])[^{_BREAKING_SPACES}]{{{BREAK_RUN_AFTER},}}")  # tried where a run starts
# a run that takes a <wbr>: at the start of a text, or after a space (searched from each space
# only: a search from every character would read each run again from each of its characters)
_OVERLONG_RUN = re.compile(f"[^{_BREAKING_SPACES}]{{{BREAK_RUN_AFTER + 1}}}")
_OVERLONG_RUN_AFTER_SPACE = re.compile(f"[{_BREAKING_SPACES}]{_OVERLONG_RUN.pattern}")
_ENTITY_END = re.compile(r"&#?\w{1,32};")
_JOINERS = {"\u200d", "\ufe0e", "\ufe0f"}  # joiners and variation selectors bind to the character before


def _break_at(text: str, pos: int) -> int:
    """The first position at or after ``pos`` where a <wbr> splits neither an entity nor a
    character from its combining mark (or a joined emoji)."""
    amp = text.rfind("&", max(0, pos - 34), pos)
    if amp >= 0:
        m = _ENTITY_END.match(text, amp)
        if m and m.end() > pos:
            pos = m.end()
    while pos < len(text) and (text[pos] in _JOINERS or unicodedata.category(text[pos])[0] == "M"
                               or (pos and text[pos - 1] == "\u200d")):
        pos += 1
    return pos


def _wbr_run(text: str, before: int) -> str:
    """``text``, part of a run of which ``before`` characters came earlier, with a <wbr>
    at each run position BREAK_RUN_AFTER + k * BREAK_RUN_EVERY (k = 0, 1, ...) it holds."""
    pos = BREAK_RUN_AFTER - before
    if pos < 0:
        pos %= BREAK_RUN_EVERY
    out, last = [], 0
    while pos < len(text):
        at = _break_at(text, pos)
        if at >= len(text):
            break
        out += [text[last:at], "<wbr>"]
        last = at
        pos = at + BREAK_RUN_EVERY
    out.append(text[last:])
    return "".join(out)


def break_long_runs(document: str) -> str:
    """``document`` (the report page) with a <wbr> in every long run of its body's text
    (tags, attributes and the head are left as they are)."""
    start = max(document.find("<body"), 0)
    parts = _TAG.split(document[start:])
    # A <wbr> goes only into a run of more than BREAK_RUN_AFTER characters of the text
    # without its tags: a report with none (nearly every one) is left as it is, found by
    # one C-speed search instead of a walk over its every text part.
    text = "".join(parts[0::2])
    if _OVERLONG_RUN.match(text) is None and _OVERLONG_RUN_AFTER_SPACE.search(text) is None:
        return document
    run = 0  # characters without white space so far, across tags
    for i in range(0, len(parts), 2):
        part = parts[i]
        if not part:
            continue
        space = _SPACE.search(part)
        if space is None:  # the run goes on through this part
            if run + len(part) > BREAK_RUN_AFTER:
                parts[i] = _wbr_run(part, run)
            run += len(part)
            continue
        pieces, last = [], 0
        if run + space.start() > BREAK_RUN_AFTER:  # the run that came in ends here
            pieces += [_wbr_run(part[:space.start()], run)]
            last = space.start()
        for m in _LONG_RUN.finditer(part, space.start()):
            pieces += [part[last:m.start()], _wbr_run(m.group(0), 0)]
            last = m.end()
        if pieces:
            pieces.append(part[last:])
            parts[i] = "".join(pieces)
        run = len(part) - 1 - max(part.rfind(c) for c in _BREAKING_SPACES)
    return document[:start] + "".join(parts)


# A code block is kept on one page (report.css: ``pre`` avoids a break inside) unless it may be
# taller than a page: such a block goes to the next page, leaves its heading alone at the foot
# of the one before, and is broken there all the same. A block of more than TALL_CODE_LINES
# lines as shown (a line longer than CODE_COLUMNS characters counted as several; a wide East
# Asian character as two) is marked ``tall``: it breaks between lines, its first lines kept
# with its heading (``orphans``). A page holds about 48 lines of code; the columns are fewer
# than the 80-odd a full-width block shows, so a long line is counted long.
TALL_CODE_LINES = 30
CODE_COLUMNS = 72
# A table row is kept on one page too (report.css: ``tr``), and one taller than a page did the
# same: a row with a cell of more than TALL_CELL_CHARS characters is marked ``tall`` and may
# break (a page holds about 4,500 characters at full width, a fifth of that in a narrow column).
TALL_CELL_CHARS = 600
# their style, added to report.css only in a report that has such a block or row (every other
# report's HTML stays as it was)
TALL_CSS = ("\n/* a code block or table row that may be taller than a page breaks (html.py: tall_code_blocks,\n"
            "   tall_table_rows): at least four lines of code go with its heading, four to the next page */\n"
            "pre.tall { page-break-inside: auto; break-inside: auto; orphans: 4; widows: 4; }\n"
            "tr.tall { page-break-inside: auto; break-inside: auto; }\n")
_PRE = re.compile(r"<pre>(.*?)</pre>", re.S)
_ANY_TAG = re.compile(r"<[^>]*>")


def shown_code_lines(text: str, columns: int = CODE_COLUMNS) -> int:
    """How many lines ``text`` (a code block's text) takes, wrapped at ``columns``."""
    lines = 0
    for line in text.split("\n"):
        width = len(line) if line.isascii() else sum(
            2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)
        lines += max(1, -(-width // columns))
    return lines


def _mark_tall(html: str, tag: str, pattern: re.Pattern, tall) -> str:
    """``html`` with each ``<tag>`` element ``pattern`` finds (group 1: its body) marked
    ``<tag class="tall">`` where ``tall(body)``."""
    if f"<{tag}>" not in html:
        return html
    return pattern.sub(lambda m: f'<{tag} class="tall">{m.group(1)}</{tag}>' if tall(m.group(1)) else m.group(0),
                       html)


def _tall_code(body: str) -> bool:
    if body.count("\n") < TALL_CODE_LINES // 2 and len(body) < TALL_CODE_LINES * CODE_COLUMNS // 4:
        return False  # short whatever its lines: not read further
    return shown_code_lines(html_lib.unescape(_ANY_TAG.sub("", body)).rstrip("\n")) > TALL_CODE_LINES


def tall_code_blocks(html: str) -> str:
    """``html`` (sanitised: a ``<pre>`` has no attribute) with each code block that may be
    taller than a page marked ``<pre class="tall">`` (see :data:`TALL_CODE_LINES`)."""
    return _mark_tall(html, "pre", _PRE, _tall_code)


_TR = re.compile(r"<tr>(.*?)</tr>", re.S)
_CELL = re.compile(r"<t([dh])\b[^>]*>(.*?)</t\1>", re.S)


def _tall_row(body: str) -> bool:
    return len(body) > TALL_CELL_CHARS and any(
        len(c) > TALL_CELL_CHARS and len(html_lib.unescape(_ANY_TAG.sub("", c))) > TALL_CELL_CHARS
        for _, c in _CELL.findall(body))


def tall_table_rows(html: str) -> str:
    """``html`` (sanitised: a ``<tr>`` has no attribute) with each table row that may be
    taller than a page marked ``<tr class="tall">`` (see :data:`TALL_CELL_CHARS`)."""
    return _mark_tall(html, "tr", _TR, _tall_row)


def split_title(markdown: str) -> tuple[str | None, str]:
    """The report's leading '# Title' (if any) and the markdown without it."""
    m = _TITLE.match(markdown)
    if not m:
        return None, markdown
    title = m.group(1).rstrip(" \t\r")
    closed = title.rstrip("#")  # an optional closing sequence of #s after a space
    if closed != title and (not closed or closed[-1] in " \t"):
        title = closed
    if not title.strip():
        return None, markdown
    return title.strip(), markdown[m.end():].lstrip("\n")


RUNNING_TITLE_COLUMNS = 90  # the PDF's page header, 8.5pt across the page: one line


def running_title(title: str, columns: int = RUNNING_TITLE_COLUMNS) -> str:
    """The title for the PDF's page header: whole when it fits one line, else cut at a word
    with an ellipsis (a long title filled the top of every page, over the text, and a title
    of thousands of words took minutes to lay out on every page). A wide (CJK) character
    counts two columns. Each run of whitespace is one space (a ref removed from the title
    left two, which the page header shows as they are)."""
    title = " ".join(title.split())
    widths = [2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in title[:columns + 1]]
    if len(title) <= columns and sum(widths) <= columns:
        return title
    used, cut = 0, 0
    for i, w in enumerate(widths):
        if used + w > columns - 1:  # room for the ellipsis
            break
        used, cut = used + w, i + 1
    space = title.rfind(" ", 0, cut + 1)
    if space > cut // 2:  # end at a word when one ends in the second half
        cut = space
    return title[:cut].rstrip() + "\u2026"


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["own_direction"] = own_direction
    env.filters["running_title"] = running_title
    return env


def own_direction(text: str, page_direction: str = "ltr") -> str:
    """``text`` between two marks of its own direction when that is not the page's: a
    Hebrew quote "…כחולים." in a left-to-right line keeps its final period at its left
    end, with the Hebrew, instead of beside the closing quotation mark (an English quote
    in an Arabic report likewise). Marks, not isolates (U+2068/U+2069): Word reads marks."""
    own = strong_direction(text)
    if own is None or own == page_direction:
        return text
    mark = "\u200f" if own == "rtl" else "\u200e"
    return f"{mark}{text}{mark}"


_MARK_CLASS = {"quote-not-found": "unsupported", "claim-differs": "claim-differs",
               "claim-unchecked": "claim-unchecked", "no-claim": "no-claim"}


def _single_spaces(text: str) -> str:
    r"""``text`` with each run of whitespace one space (``re.sub(r"\s+", " ", text)``: a run
    at either end too), by ``str.split``, which splits at the same characters as ``\s`` and
    is about twice as fast on a quote's few dozen runs."""
    joined = " ".join(text.split())
    if not joined:
        return " " if text else ""
    if text[0].isspace():
        joined = " " + joined
    if text[-1].isspace():
        joined += " "
    return joined


def _badge(c: Citation, t: dict, styler: Styler | None = None) -> str:
    label = escape(str(c.number) if c.number is not None else "?")
    inline = styler is not None and not styler.numbered and c.source is not None and c.number is not None
    if inline:
        label = escape(styler.marker(c.source.id))
    quote = _single_spaces(c.quote_text)
    mark = check_mark(c)
    shown = _single_spaces(c.rendered_text or quote)
    if c.status is Verdict.UNSUPPORTED:  # with its reason, as report.md's note and audit.json give it
        title = escape(f"{t['badge_not_found']}" + (f" ({mark[1]})" if mark else "") + f": \u201c{quote}\u201d")
        inner = f"{label}?"
    elif mark and mark[0] == "claim-differs":
        title = escape(f"{t['flag_claim_differs']}: {mark[1]}. \u201c{shown}\u201d")
        inner = f"{label}!"
    elif mark and mark[0] == "no-claim":
        title = escape(f"{t['flag_no_claim']}: \u201c{shown}\u201d")
        inner = str(label)
    elif mark:
        title = escape(f"{t['flag_claim_unchecked']} ({mark[1]}): \u201c{shown}\u201d")
        inner = str(label)
    else:
        level = f" ({t['confidence_' + c.confidence]})" if c.confidence else ""
        title = escape(f"\u201c{shown}\u201d{level}")
        inner = str(label)
    if c.location is not None:
        title += escape(f" \u2014 {c.location.text}")
    if mark:
        cls = "cite " + _MARK_CLASS[mark[0]]
    else:
        cls = "cite repaired" if c.status is Verdict.REPAIRED else "cite verified"
    wrap, end = ('<span class="cite-badge cite-author-date">', "</span>") if inline else ('<sup class="cite-badge">', "</sup>")
    if c.url:
        return f'{wrap}<a class="{cls}" href="{escape(c.url)}" title="{title}">{inner}</a>{end}'
    return f'{wrap}<span class="{cls}" title="{title}">{inner}</span>{end}'


def _disagreements(report: CitationReport, styler: Styler | None) -> list[dict]:
    """Each place where sources disagree, with ``shown``: each side's citations named as
    their badges show them (:func:`~.markdown.side_label`)."""
    if not report.disagreements:
        return []
    label = side_label(report, styler)
    out = []
    for d in report.disagreements:
        j = d.as_json()
        j["shown"] = [label(side) for side in d.refs]
        out.append(j)
    return out


def shown_html(flag: Flag) -> Markup:
    """A listed statement as written (:attr:`Flag.shown`): its markup as literal text, its
    code spans as code (the plain text, without them, when it has no such pieces)."""
    if not flag.shown:
        return escape(flag.text)
    return Markup("".join(f"<code>{escape(t)}</code>" if code else str(escape(t)) for t, code in flag.shown))


@dataclass(slots=True)
class _QuoteEntry:
    """One quote a source entry lists. An object, not a dict: the template reads ``q.text``,
    which Jinja looks up as an attribute first (on a dict that lookup fails, and the
    exception costs more than the rest of the item)."""

    text: str
    url: str | None
    status: str
    mark: str | None
    reason: str | None
    confidence: str | None
    location: str | None


class _TemplateLabels(dict):
    """The labels as the template reads them: ``t.key`` is ``t["key"]``, found without the
    failed attribute lookup Jinja makes first on a plain dict (a dict's own attributes,
    ``t.items``, still win, as they do on a dict)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


@dataclass
class _SourceEntry:
    number: int
    title: str
    url: str | None
    raw_url: str
    quotes: list[_QuoteEntry]
    credibility: str = ""
    entry: Markup | None = None  # the reference in the chosen citation style (not numbered)


def entry_html(ref, url: str | None) -> Markup:
    """A styled reference as HTML: italic runs, the URL linked where the style puts it."""
    at = len(ref.parts) if ref.url_at is None else ref.url_at
    run = lambda parts: "".join(f"<i>{escape(t)}</i>" if it else str(escape(t)) for t, it in parts)
    link = (f'<a class="source-url" href="{escape(url)}">{escape(ref.url)}</a>' if url
            else f'<span class="source-url">{escape(ref.url)}</span>')
    return Markup(run(ref.parts[:at]) + link + run(ref.parts[at:]))


def _source_entries(report: CitationReport, styler: Styler | None = None) -> list[_SourceEntry]:
    from ..citations.check import safe_link

    entries: dict[str, _SourceEntry] = {}
    shown: dict[str, set[str]] = {}  # the quote texts each entry lists (a set: a source may have hundreds)
    for c in report.citations:
        if c.source is None or c.number is None:
            continue
        e = entries.get(c.source.id)
        if e is None:
            title = re.sub(r"\s+", " ", c.source.title or c.source.url).strip()
            e = entries[c.source.id] = _SourceEntry(c.number, title, safe_link(c.source.url), c.source.url, [],
                                                    credibility_text(c.source.credibility))
            shown[c.source.id] = set()
        text = c.shown_quote
        if text not in shown[c.source.id]:
            shown[c.source.id].add(text)
            mark = check_mark(c)
            e.quotes.append(_QuoteEntry(text, c.url, c.status.value, mark[0] if mark else None,
                                        mark[1] if mark else None, c.confidence,
                                        c.location.text if c.location else None))
    if styler is None or styler.style == "numbered":
        return sorted(entries.values(), key=lambda e: e.number)
    ordered = []
    for sid in styler.order():
        e = entries.get(sid)
        if e is not None:
            e.entry = entry_html(styler.reference(sid), e.url)
            ordered.append(e)
    return ordered


class _ListedCode(Preprocessor):
    """Fenced code inside a list item, rendered by the converter's own fenced-code step (the
    language class, highlighting and escaping of every other fenced block): publish/lists.py
    put a placeholder line in the item for each block, as Python-Markdown has no fences there;
    this puts the stashed block's line in its place, in the item."""

    def __init__(self, md: md_lib.Markdown, blocks: dict[str, tuple[str, str]]):
        super().__init__(md)
        self.blocks = blocks

    def run(self, lines: list[str]) -> list[str]:
        if not self.blocks:
            return lines
        fenced = self.md.preprocessors["fenced_code_block"]
        out = []
        for line in lines:
            lead = _LEAD.match(line).group(0)  # an item's indentation, a quote's markers
            block = self.blocks.get(line[len(lead):].strip())
            if block is None:
                out.append(line)
                continue
            info, content = block
            if not info and not content and line.strip().startswith("zqgap"):
                out.append(self.md.htmlStash.store("<!-- -->"))  # a block of nothing (comments are removed)
                continue
            body = content.expandtabs(self.md.tab_length).split("\n")
            if body and body[-1] == "":
                body.pop()
            runs = [len(x) - len(x.lstrip("`")) for x in body] + [2]
            fence = "`" * (max(runs) + 1)  # longer than any run of backticks that starts a line of it
            lang = m.group(0) if (m := _LANG.match(info.strip())) else ""
            stashed = [x for x in fenced.run([fence + lang, *body, fence]) if x.strip()]
            if len(stashed) == 1 and stashed[0] not in (fence + lang, fence):
                out.append(lead + stashed[0])
            else:  # not read as a fence: the code as an escaped block of its own
                out.append(lead + self.md.htmlStash.store(
                    f"<pre><code>{html_lib.escape(chr(10).join(body))}</code></pre>"))
        return out


_LEAD = re.compile(r"[ >]*")
# Python-Markdown's inline patterns that cannot match a text without one of these characters
# (each pattern's regex, as written in Python-Markdown 3.11, needs one): every pattern is tried
# on every text of the report (each paragraph, list item and table cell), and one whose
# characters the markdown to convert lacks finds nothing anywhere in it. Such a pattern is
# taken out of that one conversion (:func:`_drop_idle_patterns`); a pattern whose regex
# differs from the one listed here (another Python-Markdown) is always kept.
_INLINE_NEEDS: dict[str, tuple[str, str]] = {
    "backtick": (r'(?:(?<!\\)((?:\\{2})+)(?=`+)|(?<!\\)`)', "`"),
    "escape": (r'\\(.)', "\\"),
    "reference": (r'(?<!\!)\[', "["),
    "link": (r'(?<!\!)\[', "["),
    "image_link": (r'\!\[', "["),
    "image_reference": (r'\!\[', "["),
    "short_reference": (r'(?<!\!)\[', "["),
    "short_image_ref": (r'\!\[', "["),
    "autolink": (r'<([A-Za-z][A-Za-z0-9+.-]*://[^<>]*)>', "<"),
    "automail": (r'<([^<> !]+@[^@<> ]+)>', "<"),
    "entity": (r'(&(?:\#[0-9]+|\#x[0-9a-fA-F]+|[a-zA-Z0-9]+);)', "&"),
    "em_strong": (r'\*|_', "*_"),
    marks.NAME: (marks.PATTERN, "*_"),
}
_HTML_TAG_PATTERN = "(<("  # Python-Markdown's inline HTML: a tag, comment, instruction or CDATA, each "<...>"


def _drop_idle_patterns(converter: md_lib.Markdown, texts: list[str]) -> None:
    """Deregister from ``converter`` the inline patterns of :data:`_INLINE_NEEDS` (and the
    inline HTML pattern) that no text of ``texts`` can match: none holds a character the
    pattern needs. Every text an inline pattern is tried on is a part of those texts (Python-
    Markdown's own steps add placeholders of control characters, letters and digits only), so
    the conversion is the same, without the tries that find nothing."""
    present = {ch for ch in "`\\[<&*_" if any(ch in t for t in texts)}
    for name in list(_INLINE_NEEDS):
        if name not in converter.inlinePatterns:
            continue
        regex, needs = _INLINE_NEEDS[name]
        if getattr(converter.inlinePatterns[name], "pattern", None) == regex and present.isdisjoint(needs):
            converter.inlinePatterns.deregister(name)
    html = converter.inlinePatterns["html"] if "html" in converter.inlinePatterns else None
    if html is not None and str(getattr(html, "pattern", "")).startswith(_HTML_TAG_PATTERN) and "<" not in present:
        converter.inlinePatterns.deregister("html")
_LANG = re.compile(r"[\w#.+-]+")  # a fence's language as Python-Markdown's fenced-code step reads it


def render_html(
    report: CitationReport,
    *,
    title: str | None = None,
    date: dt.date | None = None,
    lang: str = "en",
    findings: bool = False,
    labels: dict | None = None,
    styler: Styler | None = None,
    policy: Policy | None = None,
) -> str:
    """The report as HTML: sanitised body, citation badges, Sources with quoted sentences;
    with ``findings``, the code-built "Verified findings" section before the body.
    ``labels`` (see deep_research.language) translate what the page itself says. ``styler``
    sets the in-text markers and the Sources entries (see citations/styles.py). ``policy``:
    the output policy applied to this report (default: applied here)."""
    t = labels or language_labels(lang)
    date = date or dt.date.today()
    nonce = uuid.uuid4().hex[:12]
    token = lambda i: f"zqcite{nonce}n{i}q"  # noqa: E731 - survives markdown and sanitising
    policy = policy or policy_for(report)
    md = report.parsed.markdown
    # the quoted words of a ref its sentence needs ("its core “typically reaches …”①."): a
    # token of their own before the badge's, replaced by the words after sanitising
    words = {c.ref.index: w for c in report.citations if (w := quoted_words(report, c))}
    word_token = lambda i: f"zqwords{nonce}n{i}q"

    def atom(x: Atom) -> str:  # a ref: a token the badge replaces; a malformed tag: dropped or text
        if x.ref is None:
            return tag_atom_text(x, md, raw_ok=True)
        i = x.ref.index
        return (word_token(i) if i in words else "") + token(i)

    # in a block shown as code a ref is its markup, shown as text (a badge there would be code)
    body_md, sources_heading = body_markdown(report, policy, atom, render=True, title=False,
                                             code_atom_text=lambda x: x.text(md))
    found_title = title_text(report.parsed)
    found_title = shown_text(found_title) if found_title else None  # '&lt;' read as '<'
    if findings:
        body_md = findings_markdown(report, lambda c: token(c.ref.index)) + "\n" + body_md
    if policy.cut:
        body_md = body_md.rstrip("\n") + "\n\n" + render_cut_note(md, policy.cut)
    local_files = local_file_urls(report.sources)
    # a heading's id is made from its words, not from a ref's token in it (the badge's
    # markup would stand in the id attribute) nor the nonce (the ids would change each time)
    tokens = re.compile(rf"zq(?:cite|words){nonce}n\d+q")
    converter = md_lib.Markdown(
        extensions=["tables", "fenced_code", "toc", "sane_lists", MARKDOWN_EXTENSION[0]],
        extension_configs={"toc": {"toc_depth": "2-3", "permalink": False,
                                   "slugify": lambda value, sep: toc_slugify(tokens.sub("", value), sep)},
                           MARKDOWN_EXTENSION[0]: MARKDOWN_EXTENSION[1]},
        output_format="html",
    )
    listed_code: dict[str, tuple[str, str]] = {}  # a fenced block inside a list item: its placeholder line

    def list_code(info: str, content: str) -> str:
        listed_code[key := f"zqcode{nonce}n{len(listed_code)}q"] = (info, content)
        return key

    converter.preprocessors.register(_ListedCode(converter, listed_code), "listed_code", 24)  # after fences (25)
    marks.register(converter)  # a*b, 2**10, __init__ as written
    try:
        listed_md = for_python_markdown(body_md, list_code)  # CommonMark's lists
        quote_gap = f"zqgap{nonce}q"  # between two quotes: an empty block (Python-Markdown would join them)
        listed_code[quote_gap] = ("", "")
        source = separate_quotes(listed_md, quote_gap)
        _drop_idle_patterns(converter, [source, *(x for block in listed_code.values() for x in block)])
        converted = converter.convert(source)
    except RecursionError:  # the input limits should prevent it; never fail the report for it
        converted = f"<pre>{escape(body_md)}</pre>"
        converter.toc = ""
    body_html = sanitize(converted, local_files)
    toc_html = sanitize(getattr(converter, "toc", "") or "", local_files)
    badges = {token(c.ref.index): _badge(c, t, styler) for c in report.citations}
    if badges:
        pattern = re.compile(re.escape(f"zqcite{nonce}n") + r"\d+q")  # one pattern, however many refs
        body_html = pattern.sub(lambda m: badges.get(m.group(0), m.group(0)), body_html)
        toc_html = pattern.sub("", toc_html)
    if words:
        shown = {word_token(i): f"\u201c{escape(w)}\u201d" for i, w in words.items()}
        pattern = re.compile(re.escape(f"zqwords{nonce}n") + r"\d+q")
        body_html = pattern.sub(lambda m: f'<span class="cite-words">{shown.get(m.group(0), "")}</span>', body_html)
        toc_html = pattern.sub(lambda m: shown.get(m.group(0), ""), toc_html)
    body_html = breakable_long_tokens(body_html)
    body_html = tall_table_rows(tall_code_blocks(body_html))
    toc_entries = toc_html.count("<li")
    css = (templates_dir() / "report.css").read_text(encoding="utf-8") + "\n" + code_css()
    if 'class="tall"' in body_html:
        css += TALL_CSS
    statuses = report.claim_counts()
    return break_long_runs(_environment().get_template("report.html.j2").render(
        title=title or found_title or t["research_report"],
        lang=lang,
        dir=text_direction(lang),
        t=_TemplateLabels(t),
        date_iso=date.isoformat(),
        date_human=format_date(t, date.day, date.month, date.year),
        css=Markup(css),
        toc=Markup(toc_html) if toc_entries >= 3 else None,
        body=Markup(body_html),
        sources=_source_entries(report, styler),
        citation_style=styler.style if styler else "numbered",
        sources_heading=sources_heading or t["sources"],
        source_count_text=count(t, "sources_count", len(report.sources)),
        citation_count_text=count(t, "citations_count", len(report.citations)),
        verified=report.count(Verdict.VERIFIED),
        repaired=report.count(Verdict.REPAIRED),
        unsupported=report.count(Verdict.UNSUPPORTED),
        claims_supported=statuses[ClaimStatus.SUPPORTED],
        claims_unsupported=statuses[ClaimStatus.UNSUPPORTED],
        claims_unchecked=statuses[ClaimStatus.UNCHECKED],
        claims_no_claim=statuses[ClaimStatus.NO_CLAIM],
        legend=legend_counts(report),
        disagreements=_disagreements(report, styler),
        uncited=[(f, shown_html(f)) for f in report.flags if f.kind == "uncited"][:MAX_LISTED_PROBLEMS],
        uncited_more=max(0, report.flag_count("uncited") - MAX_LISTED_PROBLEMS),
        flagged=[f for f in report.flags if f.kind != "uncited"][:MAX_LISTED_PROBLEMS],
        flagged_more=max(0, len(report.flags) - report.flag_count("uncited") - MAX_LISTED_PROBLEMS),
        problems=report.problems[:MAX_LISTED_PROBLEMS],
        problems_more=max(0, len(report.problems) - MAX_LISTED_PROBLEMS),
    ))

"""Markdown the way search APIs deliver pages, made from pages we did not write.

The Python 3.11 docs pages (HTML) are converted to markdown by maintained converters:

* ``html2text`` (lines wrapped at 78 columns, indented code blocks, inline links): links,
  code spans and emphasis break across lines, hyphenated words and long URLs are wrapped;
* ``markdownify`` (the HTML's own line breaks kept, fenced code, visible header-link
  pilcrows as links).

Ground truth never comes from the code under test: whether (and how) a quote occurs in
a page's markdown is decided with markdown-it-py, a CommonMark renderer, whose HTML text
(lxml) is what a markdown renderer shows. The quotes themselves come from the real page's
text (``html_to_text`` with the page's CSS): what a reader sees and copies.

Quote classes:

* ``md_link_break`` - a sentence holding a link (or code span) whose text the markdown
  breaks across a line;
* ``md_wrapped``    - a sentence the markdown wraps across lines (a range fragment);
* ``md_line``       - a sentence on one markdown line;
* ``code_symbol``   - a line of a code block (``<pre>``) that starts or ends with a symbol
  (``# A comment…``, ``* sequentially…``, ``-   # do…``, ``…)``).
"""

from __future__ import annotations

import random
import re
from functools import lru_cache

MD_CLASSES = ("md_link_break", "md_wrapped", "md_line", "code_symbol")
CONVERTERS = ("html2text", "markdownify")
HIDDEN_MARK = "\u00b6"
_SENT = re.compile(r"(?:^|(?<=[.!?:;] ))[\"'\u201c\u2018(]?[A-Z0-9`][^\n]*?[.!?](?=\s|$)", re.M)
_LINK_BREAK = re.compile(r"(?<!!)\[((?:[^\[\]\n]|\n(?!\s*\n))*\n(?:[^\[\]\n]|\n(?!\s*\n))*)\]\(")
_CODE_BREAK = re.compile(r"(?<!`)`([^`\n]+\n[^`\n]+)`(?!`)")
_MD_MARKS = re.compile(r"[`*_]|\\(?=[!-/:-@\[-`{-~])")


def convert(html: str, converter: str) -> str:
    if converter == "html2text":
        import html2text

        h = html2text.HTML2Text()
        h.body_width = 78
        return h.handle(html)
    if converter == "markdownify":
        import markdownify

        return markdownify.markdownify(html, heading_style="ATX")
    raise ValueError(converter)


@lru_cache(maxsize=1)
def _oracle():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


_BLOCKS = ("p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "td", "th", "tr",
           "div", "dt", "dd", "table", "ul", "ol", "dl")


def oracle_text(md: str) -> str:
    """What a CommonMark renderer (markdown-it-py) shows: blocks separated by a blank line;
    a soft line break stays a single '\\n' inside its block."""
    return html_text(_oracle().render(md))


def html_text(html: str) -> str:
    """The text of rendered HTML, each block separated by a blank line."""
    import lxml.html

    if not html.strip():
        return ""
    doc = lxml.html.fragment_fromstring(html, create_parent="div")
    for el in list(doc.iter("script", "style")):
        el.drop_tree()
    for el in doc.iter(*_BLOCKS):
        el.tail = "\n\n" + (el.tail or "")
        if el.tag != "pre":
            el.text = "\n\n" + (el.text or "")
    for el in doc.iter("br"):
        el.tail = "\n\n" + (el.tail or "")
    return doc.text_content()


def flexible(quote: str) -> re.Pattern:
    """The quote with any whitespace run matching any whitespace run."""
    return re.compile(r"\s+".join(re.escape(w) for w in quote.split()))


def norm(s: str) -> str:
    return " ".join(s.split())


def pre_lines(html: str | bytes) -> list[str]:
    """Lines of the page's code blocks, stripped."""
    import lxml.html

    doc = lxml.html.document_fromstring(html)
    out = []
    for pre in doc.iter("pre"):
        out.extend(line.strip() for line in pre.text_content().split("\n"))
    return [x for x in out if x]


def _symbol_edge(line: str) -> bool:
    return bool(line) and (not line[0].isalnum() or not line[-1].isalnum())


def link_break_texts(md: str) -> list[str]:
    """Texts (whitespace normalised, markdown marks removed) of the links and code spans
    that the markdown breaks across a line."""
    out = []
    for rx in (_LINK_BREAK, _CODE_BREAK):
        for m in rx.finditer(md):
            t = norm(_MD_MARKS.sub("", m.group(1)))
            if len(t.split()) >= 2 and "](" not in t and "[" not in t:
                out.append(t)
    return out


def pick_md_quotes(real: str, md: str, oracle: str, html: str | bytes, per_class: int,
                   rng: random.Random) -> list[tuple[str, str]]:
    """(class, quote) pairs: quotes from the real page text that the markdown holds (per
    the CommonMark oracle), classified by how the markdown holds them."""
    sents = sorted({m.group(0) for m in _SENT.finditer(real)
                    if 20 <= len(m.group(0)) <= 300 and HIDDEN_MARK not in m.group(0)
                    and real.count(m.group(0)) == 1})
    breaks = link_break_texts(md)
    pools: dict[str, list[str]] = {k: [] for k in MD_CLASSES}
    for s in sents:
        m = flexible(s).search(oracle)
        if not m or flexible(s).search(oracle, m.start() + 1):
            continue  # not in the markdown's rendering, or more than once
        if any(b in norm(s) for b in breaks):
            pools["md_link_break"].append(s)
        elif "\n" in m.group(0):
            pools["md_wrapped"].append(s)
        else:
            pools["md_line"].append(s)
    seen = set()
    for line in pre_lines(html):
        if (line in seen or not _symbol_edge(line) or len(line) < 8 or len(line) > 160
                or len(re.findall(r"[A-Za-z]{2,}", line)) < 2 or real.count(line) != 1
                or HIDDEN_MARK in line):
            continue
        seen.add(line)
        m = flexible(line).search(oracle)
        if m and not flexible(line).search(oracle, m.start() + 1) and norm(m.group(0)) == norm(line):
            pools["code_symbol"].append(line)
    chosen = []
    for kind in MD_CLASSES:
        pool = pools[kind]
        for q in rng.sample(pool, min(per_class, len(pool))):
            chosen.append((kind, q))
    return chosen

"""The cited page as a browser shows it: its rendered text with maps back to the stored
content (:mod:`.text`), from plain text (:mod:`.plain`) or from markdown as renderers and
converters write it (:mod:`.markdown`). :func:`render` is the one dispatch between them."""

from __future__ import annotations

import re

from .plain import render_plain
from .text import PageText

# --- markdown content: see markdown.py -----------------------------------------------
# Strong emphasis counts as a signal only as a pair on one line, "**bold**", each mark on the
# word side of its word: plain text uses "**" alone ("**kwargs", "2**10", the glob "**/*.py"),
# and reading such text as markdown would pair those marks and drop them from its quotes
# (the pair is looked for within 300 characters: a long line of lone marks stays linear).
_MD_SIGNALS = re.compile(
    r"(?<![\w*\\])\*\*[^\s*][^\n]{0,300}?(?<![\s*\\])\*\*(?![\w*])|\]\([^)\s]+\)|\\[_*`\[\]#]|^ {0,3}#{1,6} \S|^ {0,3}```|`[^`\n]+`|^ *[-*+] \S|^\|.*\|\s*$",
    re.M,
)


def detect_format(content: str) -> str:
    """'markdown' when the content carries markdown syntax, else 'text'."""
    return "markdown" if _MD_SIGNALS.search(content[:200_000]) else "text"


def render(content: str, fmt: str | None = None) -> PageText:
    fmt = fmt or detect_format(content)
    if fmt == "markdown":
        from .markdown import render_markdown

        return render_markdown(content)
    if fmt == "text":
        return render_plain(content)
    raise ValueError(f"unknown content format {fmt!r} (use 'markdown' or 'text')")


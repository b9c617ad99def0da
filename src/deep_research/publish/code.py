"""Syntax highlighting of the report's code blocks (Pygments through Python-Markdown's
codehilite), in colours that print well: every token colour of the chosen style keeps a
contrast of at least 4.5:1 (WCAG AA) against the code block background of report.css."""

from __future__ import annotations

from functools import lru_cache

from pygments.formatters import HtmlFormatter
from pygments.token import STANDARD_TYPES

STYLE = "xcode"  # dark, saturated token colours on white: readable on paper and screen
CSS_CLASS = "codehilite"
# The classes Pygments puts on <span> elements: the only ones the sanitiser lets through.
TOKEN_CLASSES = frozenset(c for c in STANDARD_TYPES.values() if c)
MARKDOWN_EXTENSION = ("codehilite", {"css_class": CSS_CLASS, "guess_lang": False,
                                     "use_pygments": True, "noclasses": False})


@lru_cache(maxsize=1)
def code_css() -> str:
    """Token colours for ``.codehilite`` blocks (the block background stays report.css's)."""
    return HtmlFormatter(style=STYLE, nobackground=True).get_style_defs(f".{CSS_CLASS}")

"""Code-like stars and underscores in prose, shown as written in the HTML (and so the PDF and
the Word file, both built from it).

Python-Markdown reads every ``*`` as an emphasis mark, between two letters too, and pairs
marks of different lengths: ``f(*args, **kwargs) ... a*b and 2**10`` came out as
``f(*args, <strong>kwargs) ... a</strong> and 2**10``, the "b" lost; ``__init__()`` came out
as a bold "init". The inline pattern here runs before Python-Markdown's emphasis (and after
code spans, escapes, links and inline HTML, which it never sees) and turns into plain text:

* a run of ``*`` between two ASCII letters or digits (``a*b``, ``2**10``), unless its word
  (the text between two spaces) has another run of its length it can pair with as emphasis
  (``**API**s``, ``foo*bar*baz``: emphasis as before, as in CommonMark);
* a Python-style dunder name, ``__`` + an all-lowercase or all-uppercase identifier + ``__``
  (``__init__``, ``__FILE__``), not inside a word (so a lowercase ``__word__`` meant as bold
  is shown as written: no character is lost).

Ordinary emphasis (``*word*``, ``**bold phrase**``, ``_word_``, ``__Bold__``) renders as
before; ``snake_case_name`` and ``x_1`` never were emphasis (Python-Markdown's underscores do
not work inside words). Letters other than ASCII are left alone: Chinese and Japanese write
emphasis inside a run of letters (``这是**重要**的``)."""

from __future__ import annotations

import re

from markdown import Markdown
from markdown.inlinepatterns import InlineProcessor

NAME = "code_marks"
PRIORITY = 65  # after inline HTML (90) and entities (80), before emphasis (60)
PATTERN = (r"(?<=[A-Za-z0-9])\*+(?=[A-Za-z0-9])"
           r"|(?<![\w*])__(?:[a-z][a-z0-9_]*|[A-Z][A-Z0-9_]*)(?<=[A-Za-z0-9])__(?![\w*])")
WORD_REACH = 100  # how far from the run its word is read, each way: the pass stays linear
_SPACE = re.compile(r"\s")
_STARS = re.compile(r"\*+")


def pairs_in_word(data: str, start: int, end: int) -> bool:
    """Whether the ``*`` run data[start:end] (between two letters or digits) can pair, as
    emphasis, with another run of its length in its word (the text between two spaces, at
    most :data:`WORD_REACH` characters each way): ``**API**s``, ``foo*bar*baz``."""
    before = max(0, start - WORD_REACH)
    for m in _SPACE.finditer(data, before, start):
        before = m.end()
    after = min(len(data), end + WORD_REACH)
    if space := _SPACE.search(data, end, after):
        after = space.start()
    return any(r.end() - r.start() == end - start and r.start() != start
               for r in _STARS.finditer(data, before, after))


class CodeMarks(InlineProcessor):
    """The marks of the module's docstring as plain text (Python-Markdown escapes the text
    and tries no later pattern on it)."""

    def handleMatch(self, m: re.Match[str], data: str):
        if m.group(0).startswith("*") and pairs_in_word(data, m.start(), m.end()):
            return None, None, None
        return m.group(0), m.start(), m.end()


def register(converter: Markdown) -> None:
    converter.inlinePatterns.register(CodeMarks(PATTERN, converter), NAME, PRIORITY)

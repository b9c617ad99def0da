"""Code-like stars and underscores in prose, shown as written in the HTML (and so the PDF and
the Word file, both built from it).

Python-Markdown reads every ``*`` as an emphasis mark, between two letters too, and pairs
marks of different lengths: ``f(*args, **kwargs) ... a*b and 2**10`` came out as
``f(*args, <strong>kwargs) ... a</strong> and 2**10``, the "b" lost; ``__init__()`` came out
as a bold "init". The inline pattern here runs before Python-Markdown's emphasis (and after
code spans, escapes, links and inline HTML, which it never sees) and turns into plain text:

* a run of ``*`` between two ASCII letters or digits (``a*b``, ``2**10``), unless it closes a
  run of the same length that opens the same word (``**API**s``) or opens a run that a
  closing run of the same length ends within the same word (``foo*bar*``);
* a Python-style dunder name, ``__`` + an all-lowercase or all-uppercase identifier + ``__``
  (``__init__``, ``__FILE__``), not inside a word.

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
_SPACE = re.compile(r"\s")


def _word_before(data: str, pos: int) -> str:
    start = max((m.end() for m in _SPACE.finditer(data, 0, pos)), default=0)
    return data[start:pos]


def _word_after(data: str, pos: int) -> str:
    m = _SPACE.search(data, pos)
    return data[pos:m.start() if m else len(data)]


def pairs_in_word(data: str, start: int, end: int) -> bool:
    """Whether the ``*`` run data[start:end] (between two letters or digits) is emphasis
    within its word: it closes a run of its length that opens the word's emphasis (preceded
    by no letter, digit or ``*``, followed by no space), or opens one that such a run
    closes (preceded by no space, followed by no letter, digit or ``*``)."""
    n = end - start
    opener = rf"(?:^|[^A-Za-z0-9*])(?<!\*)\*{{{n}}}(?!\*)[^*]*$"
    closer = rf"^[^*]*(?<![*\s])\*{{{n}}}(?![A-Za-z0-9*])"
    return bool(re.search(opener, _word_before(data, start)) or re.search(closer, _word_after(data, end)))


class CodeMarks(InlineProcessor):
    """The marks of the module's docstring as plain text (Python-Markdown escapes the text
    and tries no later pattern on it)."""

    def handleMatch(self, m: re.Match[str], data: str):
        if m.group(0).startswith("*") and pairs_in_word(data, m.start(), m.end()):
            return None, None, None
        return m.group(0), m.start(), m.end()


def register(converter: Markdown) -> None:
    converter.inlinePatterns.register(CodeMarks(PATTERN, converter), NAME, PRIORITY)

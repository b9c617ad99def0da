"""Text that is safe to print to a terminal.

File names, URLs and model output can hold control characters: an escape sequence in a
file name would otherwise recolour, retitle or clear the user's terminal, or hide text.
"""

from __future__ import annotations

import logging
import re
import sys
import unicodedata

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Controls, invisible format characters (bidirectional overrides, zero-width ones),
# line and paragraph separators, and lone surrogates.
_UNSAFE = {"Cc", "Cf", "Cs", "Zl", "Zp"}


def printable(text: object, *, keep_newlines: bool = False) -> str:
    """``text`` with every control or invisible formatting character written as an escape
    (``\\x1b``, ``\\n``, ``\\u202e``). A byte of a file name that is not UTF-8 (a lone
    surrogate from ``os.fsdecode``) is shown as that byte (``\\xff``). With
    ``keep_newlines``, line breaks and tabs of multi-line text stay as they are."""
    s = str(text)
    if s.isprintable():
        return s
    out = []
    for c in s:
        if keep_newlines and c in "\n\t":
            out.append(c)
        elif c in _NAMED:
            out.append(_NAMED[c])
        elif c.isprintable() or unicodedata.category(c) not in _UNSAFE:
            out.append(c)
        elif 0xDC80 <= ord(c) <= 0xDCFF:
            out.append(f"\\x{ord(c) - 0xDC00:02x}")
        elif ord(c) < 0x100:
            out.append(f"\\x{ord(c):02x}")
        else:
            out.append(f"\\u{ord(c):04x}")
    return "".join(out)


# What a terminal or a text viewer acts on instead of showing, in text that keeps its lines:
# C0 and C1 controls (escape sequences, a lone carriage return that overwrites its line) and
# the bidirectional embeddings, overrides and isolates that show text in another order
# than it is read. Line breaks, tabs and the other format characters (a right-to-left mark,
# a zero-width joiner in an emoji or a Persian word) are text and stay.
# One character class, then the one exception (a carriage return before a line feed): a
# pattern that starts with a class is scanned at C speed (an alternation is tried at every
# position, about three times slower on the megabytes of a large report's outputs).
ACTING_CHARS = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"  # (a regex class's inside)
_ACTING = re.compile(f"[{ACTING_CHARS}\r](?!(?<=\r)\n)")


# A page's title, author or site name is at most this long in every prompt and output: a
# hostile page's 220 KB <title> cost a small run 280,000 tokens and made a 50-page PDF.
MAX_TITLE_CHARS = 300


def shortened(text: str | None, limit: int = MAX_TITLE_CHARS) -> str | None:
    """``text`` cut to ``limit`` characters with an ellipsis (None and short text as they are)."""
    if text is None or len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "\u2026"


# A model's one-line text (a classification reason, a judge's justification) on a terminal.
MAX_LINE_CHARS = 200


def one_line(text: object, limit: int = MAX_LINE_CHARS) -> str:
    """Untrusted text (what a model wrote) as one terminal line: its whitespace and line
    breaks as single spaces, cut to ``limit`` characters with an ellipsis, then every control
    or invisible formatting character (an escape sequence, a bidi override) written as an
    escape (:func:`printable`, up to six characters each)."""
    return printable(shortened(" ".join(str(text).split()), limit))


# The longest text a user gives as a question or an answer to one (a question of the CLI, of a
# question file, a brief's rejection feedback, an edited brief): a longer one is refused, naming
# this limit.
MAX_TEXT_CHARS = 20_000


def too_long(text: str, what: str, limit: int = MAX_TEXT_CHARS) -> str | None:
    """Why ``text`` (``what``: "the question", "the edited brief" ...) is refused for its
    length, or None when it is within ``limit`` (:data:`MAX_TEXT_CHARS` unless given)."""
    if len(text) <= limit:
        return None
    return f"{what} is {len(text):,} characters long; the limit is {limit:,}"


def text_problem(text: str, what: str) -> str | None:
    """Why ``text`` a user gave as a question (``what``: "the question", "your message") is
    no question: empty (only spaces or invisible marks) or longer than :data:`MAX_TEXT_CHARS`;
    None when it is one."""
    if not any(unicodedata.category(c)[0] not in "CZ" for c in text):
        return f"{what} is empty"
    return too_long(text, what)


def control_characters(text: str) -> list[str]:
    """The control characters of a text a user typed or handed over (tab and line ends
    aside), as sorted hex codes - what a question may not hold (``research``, ``eval run``)."""
    return sorted({hex(ord(c)) for c in text if unicodedata.category(c) == "Cc" and c not in "\n\t\r"})


_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def without_bidi_controls(text: str) -> str:
    """``text`` without the bidirectional embeddings, overrides and isolates (U+202A-U+202E,
    U+2066-U+2069): they hold no words, only the order a viewer shows them in (a line shown
    in another order than a model reads it); right-to-left text keeps its letters and marks."""
    return _BIDI_CONTROLS.sub("", text)


def inert_text(text: str) -> str:
    """``text`` (a report, notes, HTML) with every character of ``_ACTING`` written as an
    escape (``\\x1b``, ``\\r``, ``\\u202e``): shown, never acted on. Only ASCII
    letters, digits and a backslash are written, so markdown and HTML read the escape as
    text (a backslash before a letter escapes nothing)."""
    return _ACTING.sub(lambda m: printable(m.group()), text)


def blank_controls(text: str) -> str:
    """``text`` with a space for every character of ``_ACTING``: a quote that must still be
    found on its page (which holds the characters) when it is read again."""
    return _ACTING.sub(" ", text)


def inert_json(text: str) -> str:
    """JSON text with the characters of ``_ACTING`` that JSON writes raw (C1 controls,
    bidi overrides) written as ``\\uXXXX``: the same values, safe to print."""
    return _ACTING.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class _SafeLogFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        from .errors import mask_url_credentials  # a page's URL may hold a password or token

        return printable(mask_url_credentials(super().format(record)), keep_newlines=True)


def safe_logging() -> None:
    """Warnings of the libraries and the graph on stderr as before (Python's last-resort
    handler printed them raw), with control characters escaped and URL credentials masked."""
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(_SafeLogFormatter("%(message)s"))
        handler.setLevel(logging.WARNING)
        root.addHandler(handler)

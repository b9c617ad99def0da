"""inert_text, inert_json and blank_controls act on exactly the characters a terminal obeys."""

from __future__ import annotations

import pytest

from deep_research.terminal import blank_controls, inert_json, inert_text


def _acting(text: str, i: int) -> bool:
    """The rule, written out: C0/C1 controls but line feed and tab, bidi embeddings,
    overrides and isolates; a carriage return only when no line feed follows it."""
    o = ord(text[i])
    if text[i] == "\r":
        return not text.startswith("\n", i + 1)
    return (o <= 0x1F and text[i] not in "\n\t") or 0x7F <= o <= 0x9F or 0x202A <= o <= 0x202E \
        or 0x2066 <= o <= 0x2069


def _blanked(text: str) -> str:
    return "".join(" " if _acting(text, i) else c for i, c in enumerate(text))


@pytest.mark.parametrize("context", ["{}", "a{}b", "{}\n", "\r{}", "{}\r\n", "\r\n{}\r", "{}{}"])
def test_every_character_below_u3000_in_context(context):
    for o in range(0x3000):
        text = context.format(chr(o), chr(o))
        assert blank_controls(text) == _blanked(text), repr(text)


@pytest.mark.parametrize("text, inert", [
    ("line\r\nnext\r\n", "line\r\nnext\r\n"),  # a Windows line end is text
    ("over\rwrite", "over\\rwrite"),  # a lone carriage return overwrites its line
    ("\r\r\n", "\\r\r\n"),
    ("end\r", "end\\r"),
    ("\x1b[31mred\u202e", "\\x1b[31mred\\u202e"),
])
def test_inert_text_keeps_line_ends_and_escapes_the_rest(text, inert):
    assert inert_text(text) == inert


def test_inert_json_writes_unicode_escapes():
    assert inert_json('"a\x85b\u2066c\r"') == '"a\\u0085b\\u2066c\\u000d"'


def test_one_line_joins_cuts_and_escapes_model_text():
    from deep_research.terminal import one_line

    assert one_line("A  reason\nover\ttwo lines.") == "A reason over two lines."
    assert one_line("x" * 50, 10) == "x" * 9 + "\u2026"
    assert one_line("\u202eevil\x1b[0m", 10) == "\\u202eevil\\x1b[0m"
    assert one_line(None) == "None"


def test_a_warning_logged_on_the_terminal_never_shows_a_urls_credentials():
    """The search backends log a page's URL (Tavily: "returned no page text for URL"): one
    with a password or a token in its query reached the terminal as given."""
    import logging

    from deep_research.terminal import _SafeLogFormatter

    record = logging.LogRecord("deep_research.search.tavily", logging.WARNING, __file__, 1,
                               "Tavily returned no page text for %s; result left out",
                               ("https://alice:pw-1@example.org/a?sig=abc123&x=1",), None)
    assert _SafeLogFormatter("%(message)s").format(record) == (
        "Tavily returned no page text for https://alice:***@example.org/a?sig=***&x=1; result left out")

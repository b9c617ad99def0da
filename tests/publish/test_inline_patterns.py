"""report.html's Markdown conversion leaves out the inline patterns that cannot match the
report (publish/html.py ``_drop_idle_patterns``): the HTML is the same as with every pattern."""

from __future__ import annotations

import itertools

import markdown as md_lib
import pytest

from deep_research.publish import html as html_mod
from deep_research.publish import marks
from deep_research.publish.html import MARKDOWN_EXTENSION, _drop_idle_patterns, _INLINE_NEEDS


def _converter() -> md_lib.Markdown:
    conv = md_lib.Markdown(
        extensions=["tables", "fenced_code", "toc", "sane_lists", MARKDOWN_EXTENSION[0]],
        extension_configs={"toc": {"toc_depth": "2-3", "permalink": False},
                           MARKDOWN_EXTENSION[0]: MARKDOWN_EXTENSION[1]},
        output_format="html",
    )
    marks.register(conv)  # as render_html does
    return conv


def _both(text: str) -> tuple[str, str, list[str]]:
    full = _converter().convert(text)
    conv = _converter()
    _drop_idle_patterns(conv, [text])
    return full, conv.convert(text), [i.name for i in conv.inlinePatterns._priority]


# each construct an inline pattern reads, and text that only looks near one
PIECES = [
    "plain words 42", "`code` span", "``double ` tick``", "\\*escaped\\* and \\\\", "a [link](https://e.org/x)",
    "![image](a.png)", "[ref][1]\n\n[1]: https://e.org", "[short]", "<https://e.org/auto>", "<me@example.org>",
    "an <b>html</b> tag <!-- c -->", "an &amp; entity &#38;", "*em* **strong** _u_ __uu__ ***both***", "a*b 2**10 __init__ **API**s",
    "line  \nbreak", "a * lone star and _ lone bar", "x < y > z & w", "tab\there", "# Heading *em*",
    "| a | b |\n|---|---|\n| *c* | [d](e) |", "- item `x`\n- item <i>y</i>", "> quote &copy; [q]",
    "```\ncode *not em* [x]\n```", "    indented <b>code</b>", "1. one\n2. two",
]


@pytest.mark.parametrize("a,b", list(itertools.combinations(range(len(PIECES)), 2)))
def test_same_html_as_with_every_pattern(a, b):
    text = PIECES[a] + "\n\n" + PIECES[b] + " and " + PIECES[a].split("\n")[0]
    full, dropped, _ = _both(text)
    assert dropped == full


@pytest.mark.parametrize("piece", PIECES)
def test_each_piece_alone(piece):
    full, dropped, _ = _both(piece)
    assert dropped == full


def test_plain_text_leaves_the_patterns_out():
    """A report without any of the characters keeps only the line break (the cut is real)."""
    _, _, kept = _both("Plain prose, numbers 3.5 and (brackets) only.\n\nAnother paragraph.")
    assert kept == ["linebreak"]


def test_a_character_keeps_the_patterns_that_need_it():
    _, _, kept = _both("A [link](https://e.org) and *em*.")
    assert {"reference", "link", "image_link", "short_reference", "em_strong"} <= set(kept)
    assert "backtick" not in kept and "entity" not in kept and "html" not in kept


def test_listed_regexes_are_python_markdowns():
    """Each pattern's regex is the one the table lists (else it is never left out: a newer
    Python-Markdown would lose the cut without failing a check)."""
    conv = _converter()
    for name, (regex, _) in _INLINE_NEEDS.items():
        assert conv.inlinePatterns[name].pattern == regex, name
    assert conv.inlinePatterns["html"].pattern.startswith(html_mod._HTML_TAG_PATTERN)


def test_a_changed_regex_is_kept(monkeypatch):
    monkeypatch.setitem(_INLINE_NEEDS, "entity", ("(&something-else;)", "&"))
    _, _, kept = _both("plain")
    assert "entity" in kept

"""Code-like stars and underscores in a report's prose keep every character in report.html
and report.docx (publish/marks.py); ordinary emphasis still renders."""

from __future__ import annotations

from io import BytesIO

import docx
import lxml.html
import markdown as md_lib
import pytest

from deep_research.citations.check import check_citations
from deep_research.citations.model import Source
from deep_research.language import labels
from deep_research.publish import marks
from deep_research.publish.docx import render_docx
from deep_research.publish.html import render_html

CODE_LIKE = [
    "f(*args, **kwargs) ... a*b and 2**10",
    "__init__() sets __name__ and __FILE__",
    "snake_case_name, x_1 and y_2",
    "a*b and c*d, x**2 + y**2 = z**2",
]
EMPHASIS = [
    ("*word* and _word_ here", ["em", "em"], "word and word here"),
    ("a **bold phrase** and __Bold__ too", ["strong", "strong"], "a bold phrase and Bold too"),
    ("many **API**s and foo*bar*baz words", ["strong", "em"], "many APIs and foobarbaz words"),
    ("这是**重要**的内容", ["strong"], "这是重要的内容"),
    ("**bold with a*b inside**", ["strong"], "bold with a*b inside"),
]


def _body(markdown: str):
    """The report.html paragraph of ``markdown`` (between "Intro." and "End.")."""
    html = render_html(check_citations(f"# Title\n\nIntro.\n\n{markdown}\n\nEnd.\n", []))
    paragraphs = list(lxml.html.fromstring(html).iter("p"))
    at = next(i for i, p in enumerate(paragraphs) if p.text_content() == "Intro.")
    assert paragraphs[at + 2].text_content() == "End."
    return html, paragraphs[at + 1]


@pytest.mark.parametrize("text", CODE_LIKE)
def test_code_like_marks_are_shown_as_written(text):
    html, p = _body(text)
    assert p.text_content() == text
    assert not list(p.iter("em", "strong"))


@pytest.mark.parametrize("text,tags,shown", EMPHASIS)
def test_ordinary_emphasis_still_renders(text, tags, shown):
    _, p = _body(text)
    assert p.text_content() == shown
    assert [e.tag for e in p.iter("em", "strong")] == tags


def test_word_keeps_every_character():
    html = render_html(check_citations("# Title\n\n" + "\n\n".join(CODE_LIKE) + "\n", []))
    doc = docx.Document(BytesIO(render_docx(html, labels=labels("en"))))
    paragraphs = [p.text for p in doc.paragraphs]
    for text in CODE_LIKE:
        assert text in paragraphs


def test_plain_python_markdown_loses_the_b():
    """Why the pattern exists: without it, Python-Markdown drops a character."""
    plain = md_lib.markdown(CODE_LIKE[0])
    assert "a*b" not in plain and "b and" not in plain.replace("</strong> and", "")
    conv = md_lib.Markdown()
    marks.register(conv)
    assert conv.convert(CODE_LIKE[0]) == f"<p>{CODE_LIKE[0]}</p>"


def test_quotes_are_shown_verbatim():
    """A ref's quote (Sources entry and the quoted words of its sentence) keeps its marks."""
    quote = "The call f(*args, **kwargs) multiplies a*b and 2**10 in __init__ here."
    source = Source("c", "https://example.org/c", f"Code notes\n{quote}\n", "C", "text")
    md = (f'# T\n\nIt says <ref id="c">"{quote}"</ref> and its core '
          '<ref id="c">"multiplies a*b and 2**10"</ref>.\n')
    html = render_html(check_citations(md, [source]))
    assert quote in html
    assert 'cite-words">\u201cmultiplies a*b and 2**10\u201d' in html

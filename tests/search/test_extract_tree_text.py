"""A page's text read from one lxml string of its changed tree (``extract._tree_text``,
issue 23) is exactly the text of the element-by-element walk (``extract._walk_text``):
on hand-written pages with every case the walk knows (left-out elements and their tails,
invisible parents, ``<pre>`` with ``<br>`` and hidden parts, comments, marks in the page's
own text) and on seeded random pages."""

from __future__ import annotations

import random

import pytest

from deep_research.search import extract
from deep_research.search.extract import html_to_text

CSS = """<style>
.gone { display: none } .ghost { visibility: hidden } .back { visibility: visible }
.blk { display: block } div.gone-in p { display: none }
</style>"""


def walked(html: str) -> str:
    """The text as the walk reads it, on a tree of its own."""
    doc, style, _ = extract._parsed(html.encode(), True, None, None)
    body = doc.find("body")
    return extract._walk_text(body if body is not None else doc, style, False)


def tree_lines(html: str) -> list[str] | None:
    doc, style, _ = extract._parsed(html.encode(), True, None, None)
    body = doc.find("body")
    return extract._tree_text(body if body is not None else doc, style)


PAGES = [
    # left-out elements keep their tail; a block left out ends no line
    f"<html><head>{CSS}</head><body>a<script>x</script>b<div hidden>c</div>d<p class=gone>e</p>f"
    "<span>g<img>h</span> <button>i</button>j</body></html>",
    # an invisible parent: its text and its children's tails are left out, a visible child stays
    f"{CSS}<body><div class=ghost>t1<span>s1</span>t2<p class=back>shown</p>t3<br>t4</div>end</body>",
    # <pre>: lines kept, <br> a line break, hidden parts out, invisible parts' text out
    f"{CSS}<body><p>before</p><pre>  line 1\n<br>line  2<span hidden>no</span> tail\n\n"
    "<b class=ghost>x<i class=back>y</i>z</b>\n<pre>inner<br>pre</pre></pre>after<pre></pre>"
    "<div><pre class=gone>gone</pre>x</div></body>",
    # a <pre> inside an invisible parent, and a <br> as the first thing of a <pre>
    f"{CSS}<body><div class=ghost>a<pre><br>b\n c</pre>tail</div></body>",
    # comments and their tails, nested blocks, whitespace of every kind
    "<body><!-- c -->x<!-- d --> y<div>\t<p>p1\f p2\r\n</p>\u00a0<ul><li>one</li> <li> two </li></ul></div>"
    "z<?pi x?>w</body>",
    # a page with no body, text around the root
    "<p>only a paragraph</p>tail",
    # marks of the tree reader in the page's own text, raw and as character references
    "<body><p>a\ue000b</p><p>c&#xE001;d</p><pre>e\ue000f</pre></body>",
    # descendants of a left-out element, CSS that hides by a descendant selector
    f"{CSS}<body><div class=gone-in><p>out</p><span>in</span></div><div class=gone><pre>x</pre>y</div>z</body>",
    # visibility set on the body itself
    f"{CSS}<body class=ghost>a<p>b</p><p class=back>c</p>d</body>",
]


@pytest.mark.parametrize("html", PAGES)
def test_the_tree_gives_the_text_of_the_walk(html):
    assert html_to_text(html).text == walked(html)


def test_the_tree_is_read_and_marks_in_the_page_send_it_back_to_the_walk():
    assert tree_lines(PAGES[0]) == walked(PAGES[0]).split("\n")
    assert tree_lines(PAGES[6]) is None  # the page's own marks: the walk reads a new tree
    assert html_to_text(PAGES[6]).text == "a\ue000b\nc\ue001d\ne\ue000f"


_TAGS = ["div", "p", "span", "b", "li", "pre", "br", "script", "img", "td", "h2", "section", "a", "xmp"]
_ATTRS = ["", " hidden", " class=gone", " class=ghost", " class=back", " class=blk", ' style="display:none"',
          ' style="visibility:hidden"', ' style="visibility:visible"', ' class="ghost back"']
_TEXTS = ["word", " ", "  two  words ", "\n", "\t", "\u00a0", "x\ny", "", "\u2003z", " \f "]


def _random_nodes(rng: random.Random, depth: int) -> str:
    parts = []
    for _ in range(rng.randint(0, 4)):
        kind = rng.random()
        if kind < 0.35:
            parts.append(rng.choice(_TEXTS))
        elif kind < 0.42:
            parts.append(f"<!--{rng.choice(_TEXTS)}-->")
        else:
            tag = rng.choice(_TAGS)
            attrs = rng.choice(_ATTRS) if rng.random() < 0.5 else ""
            if tag in ("br", "img"):
                parts.append(f"<{tag}{attrs}>")
            else:
                inner = _random_nodes(rng, depth + 1) if depth < 4 else rng.choice(_TEXTS)
                parts.append(f"<{tag}{attrs}>{inner}</{tag}>")
    return "".join(parts)


def random_page(seed: int) -> str:
    rng = random.Random(seed)
    body_attrs = rng.choice(_ATTRS[2:5]) if rng.random() < 0.1 else ""
    return f"<html><head>{CSS}</head><body{body_attrs}>{_random_nodes(rng, 0)}</body></html>"


@pytest.mark.parametrize("seed", range(300))
def test_random_pages_give_the_text_of_the_walk(seed):
    html = random_page(seed)
    assert html_to_text(html).text == walked(html), html


def test_most_random_pages_are_read_by_the_tree():
    """The comparison above is of the two readers: the tree reads most of those pages
    (not a form feed in a text it marks, nor a left-out body)."""
    assert sum(tree_lines(random_page(seed)) is not None for seed in range(300)) >= 250


def test_white_space_is_collapsed_as_css_does_on_any_stripped_text():
    """``_collapse`` (which skips the regular expression where it can) gives
    ``_WS.sub(" ", s)`` on stripped texts made of every kind of white space Python knows,
    CSS's own and the others (no-break, em spaces, separators), which it must keep."""
    spaces = [chr(c) for c in range(0x110000) if chr(c).isspace()]
    # every white space character is CSS's (collapsed) or one _collapse looks for
    assert {c for c in spaces if not extract._OTHER_SPACE.match(c)} == set(" \t\n\r\f")
    rng = random.Random(23)
    alphabet = spaces + ["a", "b", "\u00e9", "\ue000", "x y", "  "]
    for n in range(3000):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))).strip()
        assert extract._collapse(s) == extract._WS.sub(" ", s), repr(s)


@pytest.mark.parametrize("html", [
    *PAGES,
    "<html><head><title>Caf\u00e9 \u2014 docs</title></head><body><p>\u212a Kelvin, \u00e9t\u00e9</p>"
    "<pre>a\u00a0b</pre></body></html>",
    "<html><body><p>own mark \ue000 here</p><div>\u4e2d\u6587</div></body></html>",
])
def test_utf8_bytes_give_the_text_of_the_page_as_str(html):
    """The index hands the parser a UTF-8 page's own bytes (``utf8_html_to_text``, the BOM
    removed): the same title, text and cut as the page decoded first."""
    from deep_research.search.local import read_document

    expected = html_to_text(html)
    assert extract.utf8_html_to_text(html.encode()) == expected
    if expected.text.strip():  # (a page without text is skipped)
        for data in (html.encode(), b"\xef\xbb\xbf" + html.encode()):
            assert read_document(data, "html", published=False)[0] == expected

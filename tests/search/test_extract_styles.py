"""Stylesheets parsed once per index run (``extract.StyleCache``, issue 23) without
changing any page's text: pages sharing stylesheets, with their own overrides, each get
the text a reader sees, and the text they get without a cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from deep_research.search.extract import StyleCache, html_to_text, local_css_loader

SITE_CSS = """
.note { display: none }
.aside { visibility: hidden }
p.lead + p { display: none }
li:nth-child(2) { display: none }
[data-private] { display: none }
.shown[hidden] { display: block }
@media (max-width: 600px) { .wide { display: none } }
@media print { .screen { display: none } }
"""
FIRST_CSS = '@import url("more/extra.css");\n.menu { display: block }\n'
EXTRA_CSS = ".menu span.secret { display: none }\n[lang|=fr] { visibility: hidden }\n"


def page(body: str, head: str = "") -> str:
    return (f'<html><head><title>T</title><link rel="stylesheet" href="first.css">'
            f'<link rel="stylesheet" href="site.css">{head}</head><body>{body}</body></html>')


PAGES = {
    # name: (html, the text a reader sees)
    "a.html": (page('<p class="note">Hidden note A</p><p>Body A</p><p class="lead">Lead</p><p>After lead</p>'
                    '<p>Third</p><p style="display: none">Inline none</p>'),
               "Body A\nLead\nThird"),
    # the same stylesheet, overridden by a <style> block of this page only
    "b.html": (page('<p class="note">Shown note B</p><p>Body B</p>',
                    "<style>.note { display: block !important }</style>"),
               "Shown note B\nBody B"),
    # ... and by an inline style (it beats a rule of the same importance)
    "c.html": (page('<p class="note" style="display: block">Inline note C</p><p class="note">Still hidden</p>'),
               "Inline note C"),
    # visibility is inherited, and a child may make itself visible again
    "d.html": (page('<div class="aside">Hidden aside <span style="visibility: visible">Visible span D</span></div>'
                    "<p>End D</p>"),
               "Visible span D\nEnd D"),
    "e.html": (page("<ul><li>One</li><li>Two</li><li>Three</li></ul><p data-private>Private</p>"
                    '<p class="wide">Wide</p><p class="screen">Screen</p>'
                    '<div class="menu">Menu <span class="secret">secret</span> <span>open</span></div>'
                    '<p lang="fr-CA">Bonjour</p><p class="shown" hidden>Hidden attribute</p><p lang="de">Hallo</p>',
                    "<style>:lang(de) { display: none }</style>"),  # a selector that may match any element
               "One\nThree\nWide\nScreen\nMenu open"),
}


def write_site(folder: Path) -> None:
    (folder / "more").mkdir(parents=True, exist_ok=True)
    (folder / "site.css").write_text(SITE_CSS, encoding="utf-8")
    (folder / "first.css").write_text(FIRST_CSS, encoding="utf-8")
    (folder / "more" / "extra.css").write_text(EXTRA_CSS, encoding="utf-8")
    for name, (html, _) in PAGES.items():
        (folder / name).write_text(html, encoding="utf-8")


@pytest.mark.parametrize("order", [list(PAGES), list(reversed(PAGES))])
def test_pages_sharing_stylesheets_keep_their_own_text(tmp_path, order):
    """One cache for all pages (in both orders): each page's text is what a reader sees,
    and the same as without a cache; each stylesheet was parsed once."""
    write_site(tmp_path)
    cache = StyleCache()
    for name in order:
        data = (tmp_path / name).read_bytes()
        cached = html_to_text(data, load_css=cache.loader(tmp_path, tmp_path), styles=cache)
        alone = html_to_text(data, load_css=local_css_loader(tmp_path, tmp_path))
        assert cached == alone
        assert cached.text == PAGES[name][1], name
    assert cache.parsed == 5  # first.css, more/extra.css, site.css and the <style> blocks of b.html and e.html


def test_a_stylesheet_changed_during_a_run_is_read_again(tmp_path):
    write_site(tmp_path)
    cache = StyleCache()
    load = cache.loader(tmp_path, tmp_path)
    assert html_to_text((tmp_path / "a.html").read_bytes(), load_css=load, styles=cache).text == "Body A\nLead\nThird"
    (tmp_path / "site.css").write_text(SITE_CSS.replace(".note { display: none }", ".note { color: red }\n"),
                                       encoding="utf-8")
    text = html_to_text((tmp_path / "a.html").read_bytes(), load_css=load, styles=cache).text
    assert text == "Hidden note A\nBody A\nLead\nThird"


@pytest.mark.parametrize("css", [
    SITE_CSS + EXTRA_CSS,
    "#top { display: none } section { visibility: hidden } .a.b { display: none }",
    ":lang(de) { display: none } [data-x] { visibility: visible }",
    "* { display: none }",  # a selector that may match any element
    "p { color: red }",  # nothing that hides
    # a hiding rule on the hidden attribute (an element with it is kept at once), and on others
    "[hidden] { display: none } [data-x] { display: none } .wide { display: none }",
    ".shown[hidden] { visibility: hidden } .a { display: block }",
])
def test_the_cascade_looks_at_the_elements_a_hiding_rule_may_match(css):
    """The cascade's loop over a page (``_Rules.candidates``) finds exactly the elements
    with a style attribute or that ``may_match``, and the elements with ``hidden``."""
    from lxml import etree

    from deep_research.search import extract

    html = ('<html><body><div id="top" class="note b a">x<p lang="de" data-x>y</p>'
            '<section style="color: blue"><span class="aside wide" hidden>z</span></section>'
            '<ul><li>1</li><li class="shown" hidden>2</li></ul><!-- c --><p style="">q</p><i id="top">t</i></div>'
            '<svg><rect/></svg></body></html>')
    doc, style, _ = extract._parsed(f"<style>{css}</style>{html}".encode(), True, None, None)
    rules = style.rules
    if not rules.count:
        assert style.with_hidden == [el for el in doc.iter(etree.Element) if el.get("hidden") is not None]
        return
    hidden: list = []
    found = rules.candidates(doc, hidden)
    every = list(doc.iter(etree.Element))
    assert found == [el for el in every if el.get("style") or rules.every_element or rules.may_match(el)]
    assert hidden == [el for el in every if el.get("hidden") is not None] == style.with_hidden
    # the same rules on another page (what they learnt of class attributes is kept): the same tests
    other = ('<html><body><p class="a note">1</p><p class="note-x wide">2</p><p class="aside b">3</p>'
             f'<p class="{"x " * 200}note">4</p><p class="{"x " * 200}note">5</p><b data-x hidden>6</b></body></html>')
    doc2, style2, _ = extract._parsed(f"<style>{css}</style>{other}".encode(), True, None, None)
    hidden2: list = []
    found2 = rules.candidates(doc2, hidden2)
    every2 = list(doc2.iter(etree.Element))
    assert found2 == [el for el in every2 if el.get("style") or rules.every_element or rules.may_match(el)]
    assert hidden2 == [el for el in every2 if el.get("hidden") is not None]
    assert rules.candidates(doc2, []) == found2  # a second time, from what was learnt


SELECTORS = [
    "p", "div > p", "div p", "p + p", "p ~ span", "li:nth-child(2)", "li:nth-child(odd)", "li:nth-last-child(1)",
    ":first-child", ":last-child", ":only-child", "b:first-of-type", "b:last-of-type", "i:only-of-type",
    "li:nth-of-type(2n+1)", "li:nth-last-of-type(2)", "ul li + li ~ li", ".a", "#x", "[data-x]", "[lang|=fr]",
    ":lang(fr)", "div:has(> b)", "section:has(i)", "p:has(+ span)", "p:has(~ b)", ":not(p)", "*", "div :empty",
    ":root", "section > :nth-child(3)", ".a + .b", "ul > li:not(:first-child)",
]


def _random_tree(rng, depth: int) -> str:
    parts = []
    for _ in range(rng.randint(0, 5)):
        r = rng.random()
        if r < 0.2:
            parts.append(rng.choice(["t", " ", "<!-- c -->"]))
            continue
        tag = rng.choice(["div", "p", "span", "li", "ul", "b", "i", "section"])
        attrs = rng.choice(["", ' class="a"', ' class="b a"', ' id="x"', " data-x", ' lang="fr-CA"', ' class="b"'])
        inner = _random_tree(rng, depth + 1) if depth < 4 else ""
        parts.append(f"<{tag}{attrs}>{inner}</{tag}>")
    return "".join(parts)


@pytest.mark.parametrize("seed", range(40))
def test_wrappers_made_on_demand_match_as_cssselect2_own(seed):
    """The cascade's wrappers (``_Wrappers``: ancestors only, siblings and index when a
    selector asks) match each selector exactly where cssselect2's own wrappers of the
    whole tree (``iter_subtree``) do, elements taken in any order."""
    import random

    import cssselect2
    from lxml import etree

    from deep_research.search import extract

    rng = random.Random(seed)
    doc = extract._document(f"<html><body>{_random_tree(rng, 0)}</body></html>".encode(), extract._HTML_PARSER)
    tests = [(s, c.test) for s in SELECTORS for c in cssselect2.compile_selector_list(s)]
    expected = {w.etree_element: {s for s, test in tests if test(w)}
                for w in cssselect2.ElementWrapper.from_html_root(doc).iter_subtree()}
    elements = list(doc.iter(etree.Element))
    rng.shuffle(elements)
    wrappers = extract._Wrappers(doc)
    for el in elements:
        assert {s for s, test in tests if test(wrappers.get(el))} == expected[el], etree.tostring(el)


def test_preloaded_stylesheets_are_the_ones_a_page_would_load(tmp_path):
    """``StyleCache.preload`` parses the folder's stylesheet files as a page's links would
    load them (a page then parses nothing more and gets the same text), never a file
    outside the folder, and stops at its byte budget."""
    site = tmp_path / "site"
    site.mkdir()
    write_site(site)
    (tmp_path / "outside.css").write_text(".x { display: none }", encoding="utf-8")
    (site / "link.css").symlink_to(tmp_path / "outside.css")
    (site / "odd name%#?.css").write_text(".y { display: none }", encoding="utf-8")
    files = sorted(site.rglob("*.css"))
    cache = StyleCache()
    assert cache.preload(site, files, 1 << 20) == 4  # not the link leading outside
    parsed = cache.parsed
    data = (site / "a.html").read_bytes()
    got = html_to_text(data, load_css=cache.loader(site, site), styles=cache)
    assert got == html_to_text(data, load_css=local_css_loader(site, site))
    assert cache.parsed == parsed  # a.html's stylesheets were all there
    assert StyleCache().preload(site, files, len(SITE_CSS) + len(FIRST_CSS)) < 4


def test_a_stylesheet_importing_itself_many_times_loads_a_bounded_number_of_sheets(tmp_path):
    """A sheet that @imports itself 200 times (and a page linking it 200 times) made
    200**4 loads of one file: the page took the index's whole per-file CPU limit. A page
    now loads at most MAX_SHEET_LOADS sheets, and the rules it did load still hide."""
    from deep_research.search.extract import MAX_SHEET_LOADS

    (tmp_path / "a.css").write_text('@import "a.css";\n' * 200 + "p.x { display: none }\n", encoding="utf-8")
    links = '<link rel="stylesheet" href="a.css">' * 200
    html = f'<html><head>{links}</head><body><p class="x">Hidden</p><p>Shown text</p></body></html>'
    load = local_css_loader(tmp_path, tmp_path)
    calls = 0

    def counting(href, where):
        nonlocal calls
        calls += 1
        if calls > 10 * MAX_SHEET_LOADS:
            raise AssertionError(f"{calls} stylesheet loads for one page")
        return load(href, where)

    assert html_to_text(html.encode(), load_css=counting).text == "Shown text"
    assert calls == MAX_SHEET_LOADS


def test_a_stylesheet_that_became_a_fifo_after_its_check_is_not_read(tmp_path, monkeypatch):
    """The loader checks a stylesheet by name (a regular file, not too large) and then
    reads it: a file replaced by a FIFO in between blocked the index for good (a blocked
    read takes no CPU time, so the per-file CPU limit never ends it). What is opened is
    checked again."""
    import os
    import threading

    (tmp_path / "real.css").write_text("p { color: red }\n", encoding="utf-8")
    os.mkfifo(tmp_path / "a.css")
    real_stat = Path.stat

    def stat_as_if_regular(self, *args, **kwargs):  # the check saw the file before the swap
        return real_stat(tmp_path / "real.css" if self.name == "a.css" else self, *args, **kwargs)

    monkeypatch.setattr(Path, "stat", stat_as_if_regular)
    load = local_css_loader(tmp_path, tmp_path)
    result: list = []
    worker = threading.Thread(target=lambda: result.append(load("a.css", None)), daemon=True)
    worker.start()
    worker.join(10)
    if worker.is_alive():  # unblock the reader of the old code, so the test run goes on
        with open(tmp_path / "a.css", "w"):
            pass
        pytest.fail("the stylesheet loader blocked on a FIFO")
    assert result == [None]


HIDING_CSS = """
.faded { opacity: 0 }
.tiny { font-size: 0 }
.tiny-px { font-size: 0px }
.tiny-em { font-size: 0em }
.row { font-size: 0rem }
.col { font-size: 14px }
.normal { font-size: 12px }
.rel { font-size: 2em }
.tiny.again { font-size: 1rem }
"""


@pytest.mark.parametrize("attrs", [
    # inline
    ['style="font-size: 0"', 'style="font-size:0px"', 'style="font-size: 0em"', 'style="font-size: 0%"'],
    # a stylesheet rule
    ['class="tiny"', 'class="tiny-px"', 'class="tiny-em"', 'class="row"'],
])
def test_font_size_0_hides_text_and_opacity_0_does_not(attrs):
    """Text hidden by ``font-size: 0`` (inline or by a rule) is not indexed, with its
    subtree; an ordinary size is. ``opacity: 0`` is read: pages fade content in from it with
    a script (a reader sees it; a quote of it must be found)."""
    hidden = "".join(f"<p {a}>Hidden {i} <b>inside</b></p>" for i, a in enumerate(attrs))
    html = (f"<html><head><style>{HIDING_CSS}</style></head><body><p>First</p>{hidden}"
            '<p style="opacity: 0">Faded inline</p><p class="faded">Faded rule</p>'
            '<p style="font-size: 12px">Sized inline</p><p class="normal">Sized rule</p><p>Last</p></body></html>')
    assert html_to_text(html).text == "First\nFaded inline\nFaded rule\nSized inline\nSized rule\nLast"


def test_a_child_sets_its_font_size_back():
    """A child with a font size of its own under ``font-size: 0`` is read (the inline-block
    gap trick), one relative to its parent's (``2em``) is not."""
    html = (f"<html><head><style>{HIDING_CSS}</style></head><body>"
            '<div class="row">gap<span class="col">Column one</span> <span class="col">Column two</span>'
            '<span class="rel">Relative</span><span style="font-size: 16px">Inline size</span></div>'
            '<div class="tiny again">Reset by a later rule</div>'
            '<div style="font-size: 0">x<p style="font-size: 1.5rem">Paragraph <i>kept</i></p></div>'
            "</body></html>")
    # the space between the columns is the parent's (zero-size) text: not shown, but the columns'
    # boxes keep their words apart on screen, so a space stays (no word "oneColumn" to search for)
    assert html_to_text(html).text == "Column one Column twoInline size\nReset by a later rule\nParagraph kept"

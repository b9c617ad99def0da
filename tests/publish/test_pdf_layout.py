"""The PDF keeps every line of text inside the page's margins: a long URL in a table cell
or a long unbroken token in a quote is broken, not drawn past the page's edge (where the
reader never sees it)."""

from __future__ import annotations

import pytest

from deep_research.citations.model import Source, Verdict
from deep_research.publish import publish_report

weasyprint = pytest.importorskip("weasyprint")

LONG_URL = ("https://docs.example.org/" + "/".join(f"section-{i}-with-a-long-name" for i in range(10))
            + "/page.html?query=" + "x" * 90)
TOKEN = "every_word_of_this_identifier_is_joined_by_underscores_so_no_line_can_break_inside_it_at_all"
PAGE = ("Irrigation\nDrip irrigation reduces water use by 30 to 50 percent compared with flood irrigation.\n"
        f"The setting is called {TOKEN} in the manual.\n")
SOURCE = Source("drip", LONG_URL, PAGE, "Drip irrigation", "text")
REPORT = (
    "# Irrigation\n\n"
    'Drip irrigation saves water <ref id="drip">"Drip irrigation reduces water use by 30 to 50 percent '
    'compared with flood irrigation."</ref>.\n\n'
    "| Country | Note | Link |\n|---|---|---|\n"
    f"| Israel | drip | {LONG_URL} |\n"
    f"| Jordan | setting | `{TOKEN}` |\n\n"
    f'The manual names it <ref id="drip">"The setting is called {TOKEN} in the manual."</ref>.\n'
)


def _text_boxes(box):
    from weasyprint.formatting_structure.boxes import TextBox

    for child in box.descendants():
        if isinstance(child, TextBox) and child.text.strip():
            yield child


def test_long_urls_and_tokens_stay_inside_the_page(tmp_path):
    result = publish_report(REPORT, [SOURCE], tmp_path, pdf=False)
    html = result.files["html"].read_text(encoding="utf-8")
    from deep_research.publish.pdf import _fetcher_class

    doc = weasyprint.HTML(string=html, url_fetcher=_fetcher_class()()).render()  # reads nothing, as the PDF
    margin = 96  # report.css: @page margin 1in, in CSS px
    outside = []
    for number, page in enumerate(doc.pages, 1):
        right = page.width - margin
        for box in _text_boxes(page._page_box):
            if box.position_x + box.width > right + 1:
                outside.append((number, round(box.position_x + box.width - right), box.text[:40]))
    assert outside == [], outside
    # the table's short words keep their letters together (only the long tokens break anywhere)
    cells = [b.text for page in doc.pages for b in _text_boxes(page._page_box)]
    assert "Country" in cells and "Israel" in cells and "Jordan" in cells


def test_only_long_unbroken_tokens_are_marked_breakable():
    from deep_research.publish.html import breakable_long_tokens

    html = (f'<p title="a &gt; {TOKEN}">Short words, a Donaudampfschifffahrtsgesellschaftskapitän, '
            f'<a href="{LONG_URL}">{LONG_URL}</a></p><pre><code>{TOKEN}</code></pre>')
    out = breakable_long_tokens(html)
    assert out.count('<span class="long-token">') == 1  # the link text; not the attribute, the word or the code
    assert f'<span class="long-token">{LONG_URL}</span></a>' in out
    assert f'title="a &gt; {TOKEN}"' in out and f"<pre><code>{TOKEN}</code></pre>" in out


def test_long_tokens_marked_alike_with_and_without_a_pre_block():
    """A page without <pre> takes a shorter path (every text part in one pass): the same
    tokens are marked as on a page whose <pre> makes the tag-by-tag path run, for runs at
    the edges of text parts, runs of 29 and 30 characters, entities and plain long words."""
    import random

    from deep_research.publish.html import breakable_long_tokens

    rnd = random.Random(7)
    pieces = ["x" * 29, "y" * 30, "a/b" * 11, "&amp;" * 7 + "zz", "Donaudampfschifffahrtsgesellschaftskapitän",
              " ", "\n", "\u00a0", ", ", '<a href="https://example.org/' + "q" * 40 + '">', "</a>", "<b>", "</b>",
              "<p>", "</p>", "<sup>1</sup>", "word", "-", ".", "&lt;"]
    for _ in range(300):
        html = "".join(rnd.choice(pieces) for _ in range(rnd.randrange(1, 30)))
        pre = "<pre><code>" + "z" * 40 + "</code></pre>"
        assert breakable_long_tokens(html + pre) == breakable_long_tokens(html) + pre, html


HUGE = 3000  # characters of one run: WeasyPrint's time grows with its square (8,000 took 5 s)


def _runs_between_breaks(html: str) -> list[str]:
    """The body's text between places a line may break (white space, <wbr>), tags left out:
    a run that crosses <em> or a highlighted code token's <span> is one run."""
    import html as html_lib
    import re

    body = html[html.index("<body"):]
    text = re.sub(r"<(?!wbr>)[^>]*>", "", body.replace("<wbr>", "\x00"))
    return [html_lib.unescape(r) for r in re.split(r"[ \t\n\r\f\x00]+", text) if r]


def test_a_run_without_spaces_gets_a_line_break_opportunity_every_few_characters(tmp_path):
    """A model's degenerate token, one long highlighted code line, emphasis on every other letter
    or a page's quote with a huge token: WeasyPrint lays out such a run in time quadratic in its
    length (a 100,000-character word outlived the PDF worker's 900 s timeout, so no PDF; a
    200,000-character word was drawn as one line past the page's edge), so every long run of
    the page gets a <wbr> each few characters, and the text itself is unchanged."""
    from deep_research.publish.html import BREAK_RUN_AFTER, BREAK_RUN_EVERY

    word, label = "Q" * HUGE, "L" * 1500  # a quote is at most 2,000 characters
    page = f"Tea plants need acid soil and the label reads {label} on every bag sold."
    report = (f"# Runs\n\n{word}\n\nSome text {'ab*c*' * (HUGE // 5)} end.\n\n"
              f"```python\n{'a.' * (HUGE // 2)}b\n```\n\n"
              f'The label is long <ref id="tea">"the label reads {label} on every bag sold."</ref>.\n')
    result = publish_report(report, [Source("tea", "https://example.org/tea", page, "Tea", "text")], tmp_path,
                            pdf=False, docx=True)
    html = result.files["html"].read_text(encoding="utf-8")
    assert result.report.count(Verdict.VERIFIED) == 1
    runs = _runs_between_breaks(html)
    assert max(map(len, runs)) <= BREAK_RUN_AFTER + BREAK_RUN_EVERY, max(runs, key=len)[:80]
    # the text is whole: only break opportunities were added, in the HTML and in the Word file
    shown = "".join(runs)
    assert word in shown and "a." * (HUGE // 2) + "b" in shown and "abc" * (HUGE // 5) in shown
    import docx

    paragraphs = [p.text for p in docx.Document(str(result.files["docx"])).paragraphs]
    assert word in paragraphs and any(label in p for p in paragraphs)  # the body and the Sources' quote


def test_break_opportunities_split_no_entity_or_combining_mark():
    import re
    import unicodedata

    from deep_research.publish.html import break_long_runs

    for unit in ("a&amp;", "e\u0301", "\U0001f469\u200d\U0001f52c", "\u263a\ufe0f", "&#x27;x", "x&#x27;"):
        page = f"<head><title>{unit * 200}</title></head><body><p>{unit * 200}</p></body>"
        out = break_long_runs(page)
        assert out.count("<wbr>") > 0 and out.replace("<wbr>", "") == page
        pieces = out.split("<wbr>")
        for before, after in zip(pieces, pieces[1:]):
            assert not re.search(r"&#?\w*\Z", before), (unit, before[-10:])  # never inside an entity
            assert unicodedata.category(after[0])[0] != "M" and after[0] not in "\u200d\ufe0f", (unit, after[:5])
            assert not before.endswith("\u200d"), unit
        assert f"<title>{unit * 200}</title>" in out  # the head is left alone


def test_a_quote_label_never_breaks_inside_a_word():
    """'medium confidence' or 'claim not checked' after a quote of any length wraps between
    its words (the PDF showed 'medium confid-ence' across two lines)."""
    from deep_research.publish.assets import templates_dir
    from deep_research.publish.pdf import _fetcher_class

    css = (templates_dir() / "report.css").read_text(encoding="utf-8")
    words = "the quick brown fox jumps over the lazy dog while a heat pump hums quietly nearby".split() * 10
    items = "".join(
        f'<li class="quote">&ldquo;<a href="https://example.org/">{" ".join(words[:5 + i // 4]) + "x" * (i % 4)}'
        '</a>&rdquo; <span class="flag confidence-flag confidence-medium">medium confidence</span> '
        '<span class="flag unchecked-flag">claim not checked</span></li>' for i in range(120))
    html = (f'<html lang="en"><head><style>{css}</style></head><body><section class="sources">'
            f'<ul class="quotes">{items}</ul></section></body></html>')
    doc = weasyprint.HTML(string=html, url_fetcher=_fetcher_class()()).render()
    cut = {b.text for page in doc.pages for b in _text_boxes(page._page_box)
           if b.text.rstrip().endswith(("\u2010", "-"))}
    assert cut == set(), cut


@pytest.mark.browser
def test_report_html_opened_from_disk_loads_and_runs_nothing(tmp_path):
    """Defence in depth behind the sanitiser: report.html opened as a file (not through the
    server, which sends its own policy) carries a content security policy, so markup that
    got past the sanitiser could neither load anything nor run."""
    import http.server
    import threading

    from tests.support.chromium import CHROMIUM

    hits: list[str] = []

    class Beacon(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the http.server name
            hits.append(self.path)
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Beacon)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    beacon = f"http://127.0.0.1:{server.server_address[1]}"
    result = publish_report(REPORT, [SOURCE], tmp_path, pdf=False)
    html = result.files["html"].read_text(encoding="utf-8")
    # what a sanitiser miss would let through
    html = html.replace("</body>", f'<img src="{beacon}/img"><script>document.title = "ran";'
                                   f'fetch("{beacon}/fetch")</script>'
                                   f'<link rel="stylesheet" href="{beacon}/css"></body>')
    page_file = tmp_path / "injected.html"
    page_file.write_text(html, encoding="utf-8")
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
            page = browser.new_page()
            page.goto(page_file.as_uri())
            page.wait_for_timeout(1500)
            title = page.title()
            browser.close()
    finally:
        server.shutdown()
    assert hits == [] and title != "ran", (hits, title)


def _header_lines(doc, page: int) -> list[str]:
    """The lines of the page header (@top-right) of a page."""
    from weasyprint.formatting_structure.boxes import MarginBox

    boxes = [b for b in doc.pages[page]._page_box.descendants() if isinstance(b, MarginBox)
             and b.at_keyword == "@top-right"]
    lines: dict[float, str] = {}
    for box in boxes:
        for t in _text_boxes(box):
            lines[round(t.position_y)] = lines.get(round(t.position_y), "") + t.text
    return [lines[y] for y in sorted(lines)]


@pytest.mark.parametrize("title", [
    "How well do air-source and ground-source heat pumps work in cold and very cold climates, what do they "
    "cost to install, run and maintain across Europe and North America, and how do grants change the answer",
    "寒冷地域における空気熱源ヒートポンプと地中熱ヒートポンプの性能、設置費用、運転費用、保守費用、"
    "そして補助金と電気料金と断熱性能がそれぞれの答えをどのように変えるのかについての詳しい調査報告",
    "Title word " * 400])
def test_a_long_title_is_one_line_in_the_page_header(tmp_path, title):
    """The title repeated at the top of each page is cut to one line with an ellipsis: a long
    one filled the top of the page down into the text (and one of 400 words took a minute)."""
    from deep_research.publish.pdf import _fetcher_class

    body = "\n\n".join(f'Paragraph {i}: drip irrigation saves water <ref id="drip">"Drip irrigation reduces water use '
                       'by 30 to 50 percent compared with flood irrigation."</ref>. ' + "Filler words for a page. " * 12
                       for i in range(40))
    result = publish_report(f"# {title}\n\n{body}\n", [SOURCE], tmp_path, pdf=False)
    html = result.files["html"].read_text(encoding="utf-8")
    doc = weasyprint.HTML(string=html, url_fetcher=_fetcher_class()()).render()
    assert len(doc.pages) >= 3
    lines = _header_lines(doc, 1)
    assert len(lines) == 1 and lines[0].endswith("\u2026"), lines
    assert title.startswith(lines[0][:-1].rstrip())

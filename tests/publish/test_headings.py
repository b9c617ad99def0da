"""A heading that carries a citation: its id (the table of contents' link target) holds
the heading's words only, never the badge's markup."""

from __future__ import annotations

import lxml.html

from deep_research.citations.check import check_citations
from deep_research.citations.model import Source
from deep_research.publish.html import render_html

QUOTE = "Widgets were invented in 1950 by Ada Smith."
SOURCE = Source("en", "https://example.org/en/widgets.html", f"Widget history\n{QUOTE}\n", "Widgets", "text")
REPORT = (f'# Widgets\n\n## Widgets from 1950 <ref id="en">"{QUOTE}"</ref>\n\nText.\n\n'
          f'## Widgets from 1950 <ref id="en">"{QUOTE}"</ref>\n\nMore text.\n\n'
          '## Conclusion\n\nWidgets are old.\n')


def _headings(html: str):
    page = lxml.html.fromstring(html)
    heads = [h for h in page.iter("h2") if "Widgets from" in h.text_content() or h.text_content() == "Conclusion"]
    toc = [a.get("href") for a in page.xpath("//nav[@class='toc']//a[starts-with(@href, '#')]")]
    return heads, toc


def test_a_heading_with_a_citation_keeps_its_badge_out_of_its_id():
    """The badge's HTML went into the heading's id attribute: its quote mark closed the
    attribute, so the page showed '">' before the heading and the contents linked nowhere."""
    html = render_html(check_citations(REPORT, [SOURCE]))
    heads, toc = _headings(html)
    assert len(heads) == 3
    ids = [h.get("id") for h in heads]
    for h in heads:
        assert not h.text_content().startswith('">'), h.text_content()
        assert h.get("id") and "<" not in h.get("id") and '"' not in h.get("id"), h.get("id")
        assert "zq" not in h.get("id"), h.get("id")
    assert len(set(ids)) == 3, ids  # two headings of the same words keep ids of their own
    assert [f"#{i}" for i in ids] == toc, (ids, toc)
    again = [h.get("id") for h in _headings(render_html(check_citations(REPORT, [SOURCE])))[0]]
    assert again == ids  # the same report gives the same ids (no per-render token in them)


def test_the_running_title_has_no_double_space_where_a_ref_was_removed():
    """A title's ref, removed, left two spaces in the PDF's page header ("Widgets  since")."""
    titled = f'# Widgets <ref id="en">"{QUOTE}"</ref> since 1950\n\nText.\n'
    page = lxml.html.fromstring(render_html(check_citations(titled, [SOURCE])))
    running = page.xpath("//h1[@class='title']")[0].get("data-running")
    assert running == "Widgets since 1950", repr(running)

"""Span edits on a report's refs (citations/edit.py): what goes with a wrong claim."""

from __future__ import annotations

from deep_research.citations.edit import clean_refs
from deep_research.citations.model import Source

PAGE = "Tea notes\nTea plants grow best in acidic soil with a pH between 4.5 and 5.5.\n"
SRC = [Source("tea", "https://example.org/tea", PAGE, "Tea", "text")]
WRONG = 'Tea plants need a pH of 7 to 8 <ref id="tea">"Tea plants grow best in acidic soil with a pH between 4.5 and 5.5."</ref>.'
RIGHT = 'Tea likes a pH of 4.5 to 5.5 <ref id="tea">"Tea plants grow best in acidic soil with a pH between 4.5 and 5.5."</ref>.'


def test_a_list_item_left_empty_by_a_dropped_claim_goes_with_it():
    md = f"# T\n\n- {RIGHT}\n- {WRONG}\n- Plain item.\n"
    out = clean_refs(md, SRC)
    assert len(out.dropped_claims) == 1
    assert out.markdown == f"# T\n\n- {RIGHT}\n- Plain item.\n"


def test_empty_items_inside_code_and_elsewhere_are_left_alone():
    code = "```markdown\n- \n1.\n```\n"
    md = f"# T\n\n{code}\n{WRONG} Then more text.\n\n- \n"
    out = clean_refs(md, SRC)
    assert len(out.dropped_claims) == 1
    assert code in out.markdown and out.markdown.endswith("\n\n- \n")  # not ours to remove
    assert "Then more text." in out.markdown and "pH of 7" not in out.markdown


def test_a_repaired_quote_whose_page_shows_a_ref_tag_stays_one_citation():
    """A repair rewrites the quote with the page's exact text; a page that shows ``<ref ...>``
    (a wiki help page on footnotes) put a live tag inside the quote, which ended the citation
    there: the report lost it (no ref parsed), and a page showing ``<ref id=...>`` made one."""
    from deep_research.citations.document import parse
    from deep_research.citations.model import Source

    page = 'Intro.\nIn wiki markup, a footnote is written as <ref id="s1">"Heat pumps always work."</ref> in the text.\n'
    src = Source("s1", "https://example.org/wiki", page, "Wiki help")
    md = ('Footnotes are written inline <ref id="s1">"in Wiki Markup, a footnote is written as &lt;ref id="s1">'
          '"Heat pumps always work."&lt;/ref> in the text."</ref>.\n')
    out = clean_refs(md, [src])
    assert (out.verified, out.repaired, out.dropped) == (0, 1, [])
    refs = parse(out.markdown).refs
    assert len(refs) == 1 and refs[0].quote.startswith("In wiki markup"), out.markdown
    assert "Heat pumps always work." in refs[0].quote
    again = clean_refs(out.markdown, [src])
    assert (again.verified, again.repaired) == (1, 0) and again.markdown == out.markdown

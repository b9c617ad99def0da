"""A heading is never the last thing on a page: in the PDF (read back page by page) it keeps
the first lines of what follows it - a code block taller than a page, a table over the cell
budget (shown as code), a long table, a table row taller than a page, a long list - and in Word it keeps with the next
paragraph, a tall code block keeping two lines at least."""

from __future__ import annotations

import re

import pytest

from deep_research.publish import publish_report
from deep_research.publish.html import (TALL_CELL_CHARS, TALL_CODE_LINES, shown_code_lines, tall_code_blocks,
                                        tall_table_rows)

MARGIN_PT = 72  # report.css: @page margin 1in; the running title and page number are outside it


def _filler(n: int) -> str:
    return "\n\n".join(f"Paragraph {i} says that a compost pile needs air and water in balance." for i in range(n))


def _table(rows: int, cols: int) -> str:
    head = "| " + " | ".join(f"h{j}" for j in range(cols)) + " |\n|" + "---|" * cols + "\n"
    return head + "".join("| " + " | ".join(f"r{i}c{j}" for j in range(cols)) + " |\n" for i in range(rows))


SECTIONS = {  # heading -> what follows it
    "Appendix: big table": _table(120, 50),  # 6,120+ cells: over MAX_TABLE_CELLS, shown as code
    "Long code": "```python\n" + "\n".join(f"x_{i} = compute({i}, 'value {i}')" for i in range(150)) + "\n```",
    "Long list": "\n".join(f"- item {i} of the list, one plain line" for i in range(150)),
    "Long table": _table(90, 4),
    # a row taller than a page (its cell of 12,000 characters): it breaks rather than leave the heading
    "Tall row": "| Notes | Kind |\n|---|---|\n| " + "compost needs air and water in balance " * 300 + "| long |\n| short | row |",
}


def _page_lines(pdf) -> list[list[str]]:
    """Each page's lines of text inside the margins, top to bottom (read from the PDF)."""
    from pypdf import PdfReader

    pages = []
    for page in PdfReader(pdf).pages:
        height = float(page.mediabox.height)
        rows: dict[int, str] = {}

        def visit(text, cm, tm, font, size, rows=rows, height=height):
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            if text.strip() and MARGIN_PT < y < height - MARGIN_PT:
                rows[round(y)] = rows.get(round(y), "") + text

        page.extract_text(visitor_text=visit)
        pages.append([" ".join(rows[y].split()) for y in sorted(rows, reverse=True)])
    return pages


def test_a_heading_keeps_the_first_lines_of_what_follows_it_in_the_pdf(tmp_path):
    pytest.importorskip("weasyprint")
    md = "# Page breaks\n\n" + _filler(6) + "\n\n" + "\n\n".join(
        f"## {h}\n\n{body}\n\n{_filler(3)}" for h, body in SECTIONS.items()) + "\n"
    result = publish_report(md, [], tmp_path, docx=False)
    html = result.files["html"].read_text(encoding="utf-8")
    assert re.search(r'<pre class="tall">(<span></span>)?<code>\| h0 \| h1 \|', html)  # over budget: code
    pages = _page_lines(result.files["pdf"])
    found = {}
    for number, lines in enumerate(pages, 1):
        for k, line in enumerate(lines):
            if line in SECTIONS:
                found[line] = (number, len(lines) - k - 1)  # its page, the lines below it there
    assert set(found) == set(SECTIONS), found
    for heading, (page, below) in found.items():
        # the tall code block and the table shown as code: four lines (css orphans); others one at least
        assert below >= (4 if heading in ("Long code", "Appendix: big table") else 1), (heading, page, below)


def test_only_a_code_block_that_may_outgrow_a_page_may_break():
    short = "<pre><code>" + "\n".join(f"line {i}" for i in range(TALL_CODE_LINES)) + "</code></pre>"
    long = "<pre><code>" + "\n".join(f"line {i}" for i in range(TALL_CODE_LINES + 1)) + "</code></pre>"
    wide = "<pre>" + "\n".join("x" * 150 for _ in range(16)) + "</pre>"  # 16 lines shown as 48
    cjk = "<pre>" + "\n".join("堆肥" * 40 for _ in range(16)) + "</pre>"  # 80 columns each: two lines
    assert tall_code_blocks(short) == short
    assert tall_code_blocks(long) == long.replace("<pre>", '<pre class="tall">')
    assert tall_code_blocks(wide).startswith('<pre class="tall">')
    assert tall_code_blocks(cjk).startswith('<pre class="tall">')
    assert shown_code_lines("a\n" + "b" * 145) == 4 and shown_code_lines("堆" * 36) == 1
    assert tall_code_blocks("<p>no code</p>") == "<p>no code</p>"
    row = "<tr><td>{}</td><td>b</td></tr>"
    assert tall_table_rows(row.format("x" * TALL_CELL_CHARS)) == row.format("x" * TALL_CELL_CHARS)
    assert tall_table_rows(row.format("&amp;" * (TALL_CELL_CHARS - 1))) == row.format("&amp;" * (TALL_CELL_CHARS - 1))
    assert tall_table_rows(row.format("x" * (TALL_CELL_CHARS + 1))).startswith('<tr class="tall"><td>x')


def test_a_report_without_a_tall_code_block_has_the_same_html(tmp_path):
    """The rule for tall blocks is added only where one is: every other report's HTML stays
    byte for byte what it was."""
    code = "```\n" + "\n".join(f"step {i}" for i in range(20)) + "\n```\n"
    html = publish_report(f"# Steps\n\n{code}", [], tmp_path / "a", pdf=False).files["html"].read_text("utf-8")
    assert 'class="tall"' not in html and "pre.tall" not in html
    code = "```\n" + "\n".join(f"step {i}" for i in range(80)) + "\n```\n"
    html = publish_report(f"# Steps\n\n{code}", [], tmp_path / "b", pdf=False).files["html"].read_text("utf-8")
    assert html.count('<pre class="tall">') == 1 and "pre.tall {" in html and "<tr" not in html


def test_word_keeps_a_heading_with_what_follows(tmp_path):
    docx = pytest.importorskip("docx")
    md = "# Page breaks\n\n" + "\n\n".join(f"## {h}\n\n{body}" for h, body in SECTIONS.items()) + \
        "\n\n## Short code\n\n```\nprint(1)\nprint(2)\n```\n"
    path = publish_report(md, [], tmp_path, pdf=False, docx=True).files["docx"]
    paras = docx.Document(str(path)).paragraphs
    headings = [p for p in paras if p.style.name.startswith("Heading") and p.text in (*SECTIONS, "Short code")]
    assert len(headings) == len(SECTIONS) + 1
    assert all(p.style.paragraph_format.keep_with_next for p in headings)
    code = {p.text.split("\n")[0][:12]: p for p in paras if p.style.name == "Code Block"}
    # a tall block (the long code, the table shown as code) keeps two lines with its heading
    assert code["x_0 = comput"].paragraph_format.widow_control is True
    assert code["| h0 | h1 | "].paragraph_format.widow_control is True
    assert code["print(1)"].paragraph_format.widow_control is None  # a short one as it was

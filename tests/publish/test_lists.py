"""Lists in report.html and report.docx as in report.md: a list item's content indented by
its marker's width (CommonMark: "1. First line" continues 3 spaces in, a "- " item's nested
list 2 in) and a list right after a line of text are read as CommonMark renderers read
report.md, though Python-Markdown (the HTML, and the PDF and Word file made from it) wants
4 spaces per level (publish/lists.py). Each case is compared with markdown-it's CommonMark
rendering: the same lists, items, nesting, numbering and text."""

from __future__ import annotations

import random

import docx
import pytest
from lxml import html as lxml_html
from markdown_it import MarkdownIt

from deep_research.citations.check import check_citations
from deep_research.citations.model import Source
from deep_research.publish import publish_report
from deep_research.publish.html import render_html
from deep_research.publish.lists import for_python_markdown

COMMONMARK = MarkdownIt("commonmark", {"maxNesting": 100}).enable("table")  # its default reads 10 lists deep
BLOCKS = ("ul", "ol", "li", "pre", "blockquote", "table", "h2")


def _shape(fragment) -> list:
    """The block structure under an element: lists, items (with an ordered list's start),
    code, quotes, tables; paragraphs and inline markup looked through."""
    out = []
    for child in fragment:
        if not isinstance(child.tag, str):
            continue
        if child.tag in BLOCKS:
            out.append((child.tag, child.get("start") if child.tag == "ol" else None, _shape(child)))
        else:
            out.extend(_shape(child))
    return out


def _words(fragment) -> str:
    return " ".join(fragment.text_content().split())


def _commonmark(md: str):
    return lxml_html.fromstring(f"<div>{COMMONMARK.render(md)}</div>")


def _report_body(md: str):
    page = lxml_html.fromstring(render_html(check_citations(md, [])))
    (main,) = page.xpath("//main")
    return main


CASES = [
    "1. First line\n   continued\n2. Second\n",
    "1. First line\n\n   a second paragraph, 3 spaces in\n2. Second\n",
    "1. **Heat pumps**: efficient\n   - in mild climates\n   - less so below -15 °C\n2. **Boilers**\n   - cheap to fit\n",
    "- a\n  - nested by two spaces\n    - and again\n- b\n",
    "Key points:\n- one\n- two\n\nAfter the list.\n",
    "The steps:\n1. collect\n2. sort\n",
    "- a\n\n  more of a\n\n  - nested after a blank line\n- b\n",
    "1. a\n\n   b\n\n       indented code in the item\n2. x\n",
    "- a\n  - b\n\n  - c\n- d\n",
    "1) one\n2) two\n",
    "3. starts at three\n4. four\n",
    "10. ten\n    continued\n11. eleven\n",
    "- a\nlazy line of a\n- b\n",
    "- a\n  - b\nlazy line of b\n- c\n",
    "- a\n  text of a\n  10. not an item: cannot interrupt a paragraph\n- b\n",
    "- a\n\n  | x | y |\n  |---|---|\n  | 1 | 2 |\n- b\n",
    "1. a\n   > a quote in the item\n2. b\n",
    "Text\n2. not a list: it cannot interrupt a paragraph\n",
    "> - a list in a quote\n>   continued\n\nafter\n",
    # fenced code in an item (Python-Markdown reads fences only at the start of a line)
    "1. Install it:\n   ```bash\n   pip install thing\n   ```\n2. Run it:\n   ```\n   thing --help\n   ```\n",
    "- a\n\n  ~~~python\n  x = 1\n\n  y = 2\n  ~~~\n  text after the code\n- b\n",
    "1. ```\n   code on the marker line\n   ```\n2. b\n",
    "- a\n  - nested:\n    ````md\n    ```\n    not a fence's end\n    ```\n    ````\n  - c\n- d\n",
    "1. unclosed fence\n   ```\n   runs to the end of the item\n2. b\n",
    # lists inside a block quote, indented by the marker's width
    "> 1. a\n>    continued\n>\n>    a second paragraph of a\n> 2. b\n\nafter\n",
    "> Key points:\n> - one\n>   - nested by two\n> - two\n",
    "> - a\nlazy line of a\n> - b\n",
    "> 1. step\n>    ```sh\n>    run <x>\n>    ```\n> 2. next\n",
    "- item\n\n> 1. a\n>    cont\n>\n>    para\n",
    # a list in a block quote in a list item (Python-Markdown read the list as the quote's text)
    "- item\n  > quote\n  > - a\n  > - b\n- next\n",
    "1. item\n   > quote\n   > - a\n",
    "- a\n  - b\n    > - x\n    >   - y\n",
    "- > quote\n  > - a\n  > - b\n- next\n",
    "1. > - a\n   >   - nested\n2. b\n",
    "- a\n  > q\n  > 1) x\n  > 2) y\n\n  after the quote\n- b\n",
    "- a\n  > q\n  > - x\n  >   ```\n  >   code\n  >   ```\n- b\n",
    "- a\n  > > - deep\n  > >   - deeper\n",
    # two block quotes a blank line apart (Python-Markdown joined them)
    "> a first quote\n\n> a second one\n",
    "> a\n\n\n> b\n\n> c\n\ntext\n\n> d\n>\n> still d\n",
    "Steps:\n1. one\n   ```\n     two spaces kept\n   ```\n\n```\ntop-level fence\n```\n",
]


@pytest.mark.parametrize("md", CASES)
def test_the_html_reads_lists_as_commonmark_does(md):
    body = _report_body("## Lists\n\n" + md)
    expected = _commonmark("## Lists\n\n" + md)
    assert _shape(body) == _shape(expected), for_python_markdown(md)
    if "```" in md or "~~~" in md:  # a tight item's text runs into its code block's in CommonMark's HTML
        assert _words(body).replace(" ", "") == _words(expected).replace(" ", "")
    else:
        assert _words(body) == _words(expected)


def test_random_model_style_lists_read_as_commonmark_does():
    """Lists as models write them (markers -, *, 1., 1); continuation lines, nested lists and
    paragraphs indented by the marker's width; blank lines between items or not; a line of
    text before a list): the same structure and text as CommonMark, 300 seeded documents."""
    rng = random.Random(16)

    def items(depth: int, indent: int) -> list[str]:
        ordered = rng.random() < 0.5
        delim = rng.choice([".", ")"]) if ordered else ""
        bullet = rng.choice("-*+")
        out: list[str] = []
        for n in range(rng.randint(1, 3)):
            marker = f"{n + 1}{delim}" if ordered else bullet
            pad = " " * indent
            width = len(marker) + 1
            out.append(f"{pad}{marker} item {depth}.{n} text")
            if rng.random() < 0.4:
                out.append(f"{pad}{' ' * width}continued {depth}.{n}")
            if rng.random() < 0.3:
                out += ["", f"{pad}{' ' * width}another paragraph {depth}.{n}"]
            if depth < 3 and rng.random() < 0.4:
                if rng.random() < 0.3:
                    out.append("")
                out += items(depth + 1, indent + width)
            if rng.random() < 0.25:
                out.append("")
        return out

    for _ in range(300):
        lines: list[str] = []
        for _ in range(rng.randint(1, 3)):
            lines.append(f"Paragraph {len(lines)}:")
            if rng.random() < 0.5:
                lines.append("")
            lines += items(1, 0)
            lines.append("")
        md = "\n".join(lines)
        body, expected = _report_body(md), _commonmark(md)
        assert _shape(body) == _shape(expected), md
        assert _words(body) == _words(expected), md


def test_a_continued_item_is_one_item_in_every_output(tmp_path):
    """"1. First line" continued 3 spaces in by a paragraph of its own (a blank line before
    it), with citations: one list item in report.html and report.docx, as report.md shows
    it to a CommonMark reader (the HTML had the paragraph after a list of one item and "2."
    as text in it). The continuation without a blank line was read right already."""
    page = "Heat pumps work well in mild climates. Below -15 °C their efficiency falls."
    src = [Source("s1", "https://example.org/heat", page, "Heat pumps")]
    md = ("# Heat\n\nFindings:\n\n"
          '1. Heat pumps work well in mild climates <ref id="s1">"Heat pumps work well in mild climates."</ref>\n'
          "   continued on a line of its own.\n\n"
          "   They are the usual choice there.\n"
          '2. Below -15 °C their efficiency falls <ref id="s1">"Below -15 °C their efficiency falls."</ref>.\n')
    result = publish_report(md, src, tmp_path, pdf=False, docx=True)
    body = lxml_html.fromstring(result.files["html"].read_text(encoding="utf-8")).xpath("//main")[0]
    (ol,) = body.xpath(".//ol")
    first, second = ol.xpath("./li")
    assert "work well in mild climates" in _words(first) and "the usual choice there" in _words(first)
    assert "continued on a line of its own" in _words(first)
    assert "efficiency falls" in _words(second)
    assert not body.xpath(".//p[contains(., 'usual choice')][not(ancestor::li)]")  # not after the list
    paragraphs = [p for p in docx.Document(str(result.files["docx"])).paragraphs if p.text.strip()]
    texts = [p.text for p in paragraphs]
    k = next(i for i, t in enumerate(texts) if t.startswith("1.\tHeat pumps work well in mild climates"))
    assert "continued on a line of its own" in texts[k]
    assert texts[k + 1] == "They are the usual choice there."  # the item's second paragraph, in the item
    assert paragraphs[k + 1].paragraph_format.left_indent == paragraphs[k].paragraph_format.left_indent
    assert texts[k + 2].startswith("2.\tBelow -15 °C")
    # report.md and report.linked.md keep the text as written; a CommonMark reader sees the same list
    for name in ("markdown", "linked"):
        written = _commonmark(result.files[name].read_text(encoding="utf-8"))
        (cm_ol,) = written.xpath(".//ol")
        assert len(cm_ol.xpath("./li")) == 2 and "usual choice" in _words(cm_ol.xpath("./li")[0])


def test_text_without_lists_and_code_are_left_as_written():
    md = "# T\n\nA paragraph.\n\n```\n- not a list\n   1. nor this\n```\n\n    - indented code\n"
    assert for_python_markdown(md) == md
    assert for_python_markdown("No list here.\n") == "No list here.\n"


def test_lists_nested_as_deep_as_the_policy_allows_keep_their_levels():
    """Sixteen levels (the output policy's bound; markdown-it's own default reads ten), each
    nested by its parent's marker width."""
    md = "".join("  " * i + f"- level {i}\n" for i in range(16))
    body = _report_body("## Deep\n\n" + md)
    assert _shape(body) == _shape(_commonmark("## Deep\n\n" + md))
    assert len(body.xpath(".//ul")) == 16


def test_fenced_code_in_an_item_is_code_in_the_item(tmp_path):
    """A numbered step with a fenced block under it, citations in the step's text: the block
    is code inside the step in report.html (escaped, highlighted as any fenced block, the
    language kept) and in report.docx, and the next step follows (the HTML had the fence's
    lines as text after a list that ended there, the "```" shown, "2." restarting a list)."""
    page = "Run the installer with the quiet flag. Then check the version."
    src = [Source("s1", "https://example.org/install", page, "Install")]
    md = ("# Setup\n\n"
          '1. Run the installer with the quiet flag <ref id="s1">"Run the installer with the quiet flag."</ref>:\n'
          "   ```bash\n   ./install --quiet <script>alert(1)</script>\n   echo '</code></pre><b>x</b>'\n   ```\n"
          '2. Then check the version <ref id="s1">"Then check the version."</ref>.\n')
    result = publish_report(md, src, tmp_path, pdf=False, docx=True)
    text = result.files["html"].read_text(encoding="utf-8")
    body = lxml_html.fromstring(text).xpath("//main")[0]
    (ol,) = body.xpath(".//ol")
    first, second = ol.xpath("./li")
    (code,) = first.xpath(".//pre/code")
    assert "./install --quiet <script>alert(1)</script>" in code.text_content()
    assert "echo '</code></pre><b>x</b>'" in code.text_content()
    assert not body.xpath(".//script") and not body.xpath(".//b[.='x']")
    assert first.xpath(".//*[contains(@class, 'codehilite')]")  # highlighted as top-level fences are
    assert "```" not in _words(body)
    assert "quiet flag" in _words(first) and "check the version" in _words(second)
    assert len(first.xpath(".//*[contains(@class, 'cite')]")) >= 1
    assert [b for b in _shape(body) if b[0] == "ol"] == [b for b in _shape(_commonmark(md)) if b[0] == "ol"]
    texts = [p.text for p in docx.Document(str(result.files["docx"])).paragraphs if p.text.strip()]
    k = next(i for i, t in enumerate(texts) if t.startswith("1.\tRun the installer"))
    assert "./install --quiet <script>alert(1)</script>" in "\n".join(texts[k + 1:k + 3])
    assert any(t.startswith("2.\tThen check the version") for t in texts[k + 1:])


def test_fences_in_items_without_a_callback_are_reindented_as_before():
    md = "1. a\n   ```\n   x\n   ```\n"
    assert "TOKEN" not in for_python_markdown(md)
    assert for_python_markdown(md, lambda info, content: "TOKEN").split("\n")[2].strip() == "TOKEN"


def test_random_lists_with_code_and_quotes_read_as_commonmark_does():
    """Model-style lists with fenced blocks under their items (``` or ~~~, a language or
    none, right after the item's text or after a blank line, text after the block), some
    inside a block quote: the same structure and text as CommonMark, 200 seeded documents."""
    rng = random.Random(17)

    def items(depth: int, indent: int) -> list[str]:
        ordered = rng.random() < 0.5
        out: list[str] = []
        for n in range(rng.randint(1, 3)):
            marker = f"{n + 1}." if ordered else "-"
            pad, width = " " * indent, len(marker) + 1
            inner = pad + " " * width
            out.append(f"{pad}{marker} step {depth}.{n}")
            if rng.random() < 0.5:
                if rng.random() < 0.3:
                    out.append("")
                fence = rng.choice(["```", "~~~", "````"])
                out.append(inner + fence + rng.choice(["", "python", "bash"]))
                out += [inner + "x = '<b>&amp;' # " + str(depth), inner + "  indented line", ""][:rng.randint(1, 3)]
                out.append(inner + fence)
                if rng.random() < 0.3:
                    out.append(inner + f"after the code {depth}.{n}")
            if depth < 3 and rng.random() < 0.3:
                out += items(depth + 1, indent + width)
            if rng.random() < 0.2:
                out.append("")
        return out

    for _ in range(200):
        lines = ["Intro:", ""] + items(1, 0)
        if rng.random() < 0.4:
            lines = ["> " + x if x else ">" for x in lines]
        md = "\n".join(lines) + "\n\nAfter.\n"
        body, expected = _report_body(md), _commonmark(md)
        assert _shape(body) == _shape(expected), md
        assert _words(body).replace(" ", "") == _words(expected).replace(" ", ""), md


def test_random_lists_in_quotes_in_list_items_read_as_commonmark_does():
    """A block quote in a list item holding a list (right after the quote's text or after a
    blank quote line, nested by the marker's width, a quote in the quote): the same structure
    and text as CommonMark, 200 seeded documents."""
    rng = random.Random(39)

    def items(depth: int, indent: int) -> list[str]:
        ordered = rng.random() < 0.5
        kind = rng.choice(".)") if ordered else rng.choice("-*")  # one list: one kind of marker
        out: list[str] = []
        for n in range(rng.randint(1, 3)):
            marker = f"{n + 1}{kind}" if ordered else kind
            pad, width = " " * indent, len(marker) + 1
            out.append(f"{pad}{marker} point {depth}.{n}")
            if depth < 3 and rng.random() < 0.4:
                quoted = [f"quote {depth}.{n}"] + ([""] if rng.random() < 0.4 else []) + items(depth + 1, 0)
                mark = rng.choice(["> ", "> > "]) if depth == 1 else "> "
                out += [pad + " " * width + (mark + x if x else mark.rstrip()) for x in quoted]
                if rng.random() < 0.3:
                    out += ["", pad + " " * width + f"after the quote {depth}.{n}"]
            elif depth < 3 and rng.random() < 0.3:
                out += items(depth + 1, indent + width)
            if rng.random() < 0.2:
                out.append("")
        return out

    for _ in range(200):
        md = "\n".join(["Intro:", ""] + items(1, 0)) + "\n\nAfter.\n"
        body, expected = _report_body(md), _commonmark(md)
        assert _shape(body) == _shape(expected), md
        assert _words(body) == _words(expected), md

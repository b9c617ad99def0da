"""Converter-style markdown (citations/page/markdown.py's lenient reading).

HTML-to-markdown converters write constructs that strict CommonMark reads as code:
markdownify writes a definition's further blocks indented by 4 spaces after a blank line
(``term⏎:   first⏎⏎    second``), html2text moves a list item's second paragraph to the
margin and indents the nested list after it. The page model reads those as the page shows
them (prose, lists, tables, fenced code), keeps the strict reading as a second plausible
reading for verification, and never puts into a fragment term a markup character that the
real page may not show. The inputs below are what markdownify 1.2 and html2text 2025.4 write
for the HTML in each test's docstring.
"""

from __future__ import annotations

from deep_research.citations.check import check_citations
from deep_research.citations.fragments import TextDirective, fragment_for, match_directive
from deep_research.citations.model import Source
from deep_research.citations.page import render
from deep_research.citations.verify import SourceIndex

# <dl><dt>f(x)</dt><dd><p>First … <code>arg</code> …</p><p>Second …</p><ul><li><p>Item one …</p>
# <p>…</p><ul><li>Nested …</li>…</ul></li><li>Item two.</li></ul><pre>def g(*args, **kwargs): …</pre>
# <p>Third …</p><table>…</table></dd></dl>   (markdownify)
MARKDOWNIFY_DL = """Intro paragraph with `code`.

f(*x*)
:   First paragraph, with `arg` and a [link](x.html).

    Second paragraph with `more_code` and *emphasis* and **strong** words.

    * Item one with `a`.

      Item one, second para with `b`.

      + Nested item with `c` here.
      + Nested two.
    * Item two.

    ```
    def g(*args, **kwargs):
        return a * b * c
    ```

    Third paragraph after the code, with `z`.

    | A | B |
    | --- | --- |
    | cell `x` | cell two |

After the list.
"""

# The same list as html2text writes it (the item's second paragraph at the margin).
HTML2TEXT_LIST = """  * Item one with `a`.

Item one, second para with `b`.

    * Nested item with `c` here.
    * Nested two.
  * Item two.
"""


def _verify(content: str, quote: str):
    src = Source("s", "https://example.org/p", content, format="markdown")
    return SourceIndex([src]).verify(quote, "s"), src


def _terms(d: TextDirective) -> list[str]:
    return [t for t in (d.prefix, d.start, d.end, d.suffix) if t]


def test_definition_continuation_is_prose_not_code():
    page = render(MARKDOWNIFY_DL, "markdown")
    lines = page.text.split("\n")
    assert "Second paragraph with more_code and emphasis and strong words." in lines
    assert "Third paragraph after the code, with z." in lines
    # strict CommonMark reads the same lines as code, backticks and all: the other reading
    assert "Second paragraph with `more_code` and *emphasis* and **strong** words." in page.alternate.text
    r, src = _verify(MARKDOWNIFY_DL, "Second paragraph with more_code and emphasis and strong words.")
    assert r.status.value == "verified" and r.page is None
    assert src.page.text[r.start:r.end] == "Second paragraph with more_code and emphasis and strong words."
    frag = fragment_for(src.page, r.start, r.end)
    assert frag.directive is not None
    assert not any(c in t for t in _terms(frag.directive) for c in "`*")


def test_nested_list_and_table_in_a_definition():
    lines = render(MARKDOWNIFY_DL, "markdown").text.split("\n")
    assert "Nested item with c here." in lines and "Item one, second para with b." in lines
    assert "cell x" in lines and "cell two" in lines
    r, _ = _verify(MARKDOWNIFY_DL, "Nested item with c here.")
    assert r.status.value == "verified"


def test_fenced_code_in_a_definition_stays_code():
    lines = render(MARKDOWNIFY_DL, "markdown").text.split("\n")
    assert "def g(*args, **kwargs):" in lines
    assert "    return a * b * c" in lines


def test_html2text_nested_list_after_a_moved_paragraph():
    page = render(HTML2TEXT_LIST, "markdown")
    assert "Nested item with c here." in page.text.split("\n")
    assert page.alternate is not None and "* Nested item with `c` here." in page.alternate.text
    r, _ = _verify(HTML2TEXT_LIST, "Nested item with c here.")
    assert r.status.value == "verified"


def test_indented_code_that_really_is_code():
    # html2text's <pre> inside a list item, after a paragraph, and 8 spaces inside a definition
    content = ("Some examples:\n\n    * not a list: code after a paragraph\n\n"
               "  1. Para in item.\n         \n         code in *item* `y`\n\n"
               "term\n:   definition\n\n        x = a*b*c\n")
    lines = [ln.strip() for ln in render(content, "markdown").text.split("\n")]
    assert "code in *item* `y`" in lines
    assert "* not a list: code after a paragraph" in lines
    assert "x = a*b*c" in lines


def test_an_ambiguous_indented_list_verifies_in_either_reading():
    # after a list and a paragraph, "    * …" is html2text's nested list, or code: the page
    # model reads a list and keeps the code reading; a quote from either page verifies
    content = "  * Item one.\n\nSome examples:\n\n    * starred: code or a list\n"
    assert "starred: code or a list" in render(content, "markdown").text.split("\n")
    for quote in ("starred: code or a list", "* starred: code or a list"):
        r, src = _verify(content, quote)
        assert r.status.value == "verified", quote
        assert r.reading(src).text[r.start:r.end] == quote
    assert _verify(content, "* stared: code or a list")[0].status.value == "unsupported"


def test_quote_holds_in_the_strict_reading_when_it_is_the_right_one():
    # a page that really is CommonMark: "term⏎: text" is not a definition and the indented
    # block after it is code; a quote copied from it verifies in the strict reading
    content = "Usage\n: see below\n\n    x = a*b*c  # keep `this`\n"
    assert "x = a*b*c" not in render(content, "markdown").text
    quote = "x = a*b*c  # keep `this`"
    r, src = _verify(content, quote)
    assert r.status.value == "verified" and r.page is src.page.alternate
    assert r.reading(src).text[r.start:r.end] == quote
    a, b = r.reading(src).raw_span(r.start, r.end)
    assert content[a:b] == quote
    # a changed word still fails in every reading
    assert _verify(content, "x = a*b*d  # keep `this`")[0].status.value == "unsupported"
    assert _verify(content, "x = a*b*c  # drop `this`")[0].status.value == "unsupported"
    # the link is built on the reading that holds the quote, without the doubtful marks
    frag = fragment_for(r.reading(src), r.start, r.end)
    assert frag.directive is None or not any(c in t for t in _terms(frag.directive) for c in "`*")


def test_a_quote_recased_at_its_first_letter_is_repaired_without_the_strict_reading():
    # "the pool ..." cut from "The pool ...": the lenient reading holds it but for that
    # letter, so the strict reading (a second render of the page) is not built for it
    content = "Usage\n: see below\n\nThe pool holds eight workers by default.\n"
    r, src = _verify(content, "the pool holds eight workers by default.")
    assert r.status.value == "repaired" and r.page is None
    assert src.page.text[r.start:r.end] == "The pool holds eight workers by default"
    assert "alternate" not in src.page.__dict__
    # a quote that differs in more than that letter still tries the strict reading
    r, src = _verify(content, "the pool holds eight Workers by default.")
    assert r.status.value == "repaired" and "alternate" in src.page.__dict__
    # and one only the strict reading holds (up to case) is still found there
    r, src = _verify("Usage\n: see below\n\n    X = a*b*c  # keep `this`\n", "x = a*b*c  # keep `this`")
    assert r.status.value == "repaired" and r.page is src.page.alternate


def test_fragment_terms_avoid_markup_a_page_may_not_show_in_indented_code():
    # html2text writes <em> inside <pre> as _x_; backticks in an indented block may be a code
    # span of misread prose: neither may be inside a term (the real page shows "name", "y")
    content = "Synopsis:\n\n    CREATE ROLE _name_ LOGIN `y` NOW;\n    SELECT 1;\n"
    page = render(content, "markdown")
    line = "CREATE ROLE _name_ LOGIN `y` NOW;"
    i = page.text.index(line)
    frag = fragment_for(page, i, i + len(line))
    assert frag.directive is not None
    terms = _terms(frag.directive)
    assert not any(c in t for t in terms for c in "_`"), terms
    # the same directive finds the line on the page as a browser shows it
    real = render("Synopsis:\nCREATE ROLE name LOGIN y NOW;\nSELECT 1;", "text")
    got = match_directive(real, frag.directive)
    assert got is not None and real.text[got[0]:got[1]] == "CREATE ROLE name LOGIN y NOW;"


def test_publish_path_uses_the_reading_that_holds_the_quote():
    content = "Usage\n: see below\n\n    x = a*b*c  # keep `this`\n"
    src = Source("s", "https://example.org/p", content, format="markdown")
    report = check_citations('A claim <ref id="s">"x = a*b*c  # keep `this`"</ref>.\n', [src])
    c = report.citations[0]
    assert c.status.value == "verified"
    assert c.as_json()["highlight_text"] == "x = a*b*c  # keep `this`"
    assert c.matched_text == "x = a*b*c  # keep `this`"
    assert "%2A" not in (c.fragment or "") and "%60" not in (c.fragment or "")


def test_a_quote_copied_with_emphasis_inside_a_word():
    # "the *n*th item": a model that reads the markdown copies the marks; the page shows "nth"
    content = "Return the *n*th item of the sequence, counting from zero.\n"
    r, src = _verify(content, "Return the *n*th item of the sequence")
    assert r.status.value == "verified"
    assert src.page.text[r.start:r.end] == "Return the nth item of the sequence"
    assert _verify(content, "Return the *m*th item of the sequence")[0].status.value == "unsupported"


# <p>1) A newly written class … needed:</p><pre>class C(Sequence): …⏎&gt;&gt;&gt; issubclass(C, Sequence)</pre>
# <p>2) Existing classes …</p>   (html2text)
HTML2TEXT_ENUMERATED = """1) A newly written class can inherit directly from one of the abstract base
classes. Other methods may be added as needed:

    
    
    class C(Sequence):                      # Direct inheritance
        def __len__(self):  ...             # Required abstract method
    
    
    
    >>> issubclass(C, Sequence)
    True
    

2) Existing classes can be registered as `virtual subclasses` of the ABCs.
"""


def test_a_paragraph_enumerator_is_text_and_the_code_after_it_is_code():
    page = render(HTML2TEXT_ENUMERATED, "markdown")
    lines = page.text.split("\n")
    assert "1) A newly written class can inherit directly from one of the abstract base" in lines
    assert "    def __len__(self):  ...             # Required abstract method" in lines
    assert ">>> issubclass(C, Sequence)" in lines
    assert "2) Existing classes can be registered as virtual subclasses of the ABCs." in lines
    for quote in ("1) A newly written class can inherit directly from one of the abstract base classes.",
                  ">>> issubclass(C, Sequence)",
                  "2) Existing classes can be registered as virtual subclasses of the ABCs."):
        r, src = _verify(HTML2TEXT_ENUMERATED, quote)
        assert r.status.value == "verified", quote
        assert " ".join(r.reading(src).text[r.start:r.end].split()) == quote
    # strict CommonMark reads an ordered list; a quote copied from that reading still holds
    assert "Existing classes can be registered as virtual subclasses of the ABCs." in page.alternate.text
    assert _verify(HTML2TEXT_ENUMERATED, "3) Existing classes can be registered")[0].status.value == "unsupported"


def test_a_lone_asterisk_inside_a_word_is_shown():
    # html2text leaves "n*b" unescaped; CommonMark shows the unmatched mark as text
    content = "  * If the filter contains _n_ entries, the filter holds n*b bits. \n"
    page = render(content, "markdown")
    assert "If the filter contains n entries, the filter holds n*b bits." in page.text.split("\n")
    for quote in ("If the filter contains n entries, the filter holds n*b bits.",
                  "If the filter contains _n_ entries, the filter holds n*b bits."):
        r, src = _verify(content, quote)
        assert r.status.value == "verified", quote
        assert src.page.text[r.start:r.end] == "If the filter contains n entries, the filter holds n*b bits."
    assert _verify(content, "the filter holds nb bits")[0].status.value == "unsupported"
    i = page.text.index("If the")
    frag = fragment_for(page, i, i + len("If the filter contains n entries, the filter holds n*b bits."))
    assert frag.directive is not None and not any("*" in t for t in _terms(frag.directive))
    # emphasis that pairs is still emphasis
    assert "a product abc here" in render("a product a*b*c here\n", "markdown").text


# --- the strict reading takes over the lenient reading's blocks that both parses read alike ---
def _same_page(a, b) -> bool:
    return (a.raw, a.text, list(a.starts), list(a.ends), a.cuts, a.derived) == \
        (b.raw, b.text, list(b.starts), list(b.ends), b.cuts, b.derived)


def _converter_documents():
    """Documents that hold what the lenient rules read (definition lists, moved paragraphs
    and indented lists, "1)" enumerators) among ordinary blocks, in seeded random order,
    with ambiguous and repeated blocks, entities, zero-width characters, tables and HTML."""
    import random

    from tests.citations.page.test_markdown import random_document

    parts = [MARKDOWNIFY_DL, HTML2TEXT_LIST, HTML2TEXT_ENUMERATED,
             "Term\n:   Def with \u200bzero-width and &amp; entity.\n\n    More *of* it `x`.\n",
             "<div>html &lt;block&gt;</div>\n", "| a | b |\n|---|---|\n| `c` | d \\| e |\n",
             "1) one\n\n    code after an enumerator\n", "\n\n\n", "Same line.\n\nSame line.\n"]
    for seed in range(60):
        rng = random.Random(seed)
        blocks = [rng.choice(parts) if rng.random() < 0.6 else random_document(rng) for _ in range(rng.randint(2, 7))]
        yield "\n".join(blocks) + rng.choice(["", "\n", "\n\n", "   "])


def test_the_strict_reading_built_on_the_lenient_one_is_the_strict_reading():
    from deep_research.citations.page import markdown as mdpage

    checked = 0
    for content in [MARKDOWNIFY_DL, HTML2TEXT_LIST, HTML2TEXT_ENUMERATED, *_converter_documents()]:
        page = render(content, "markdown")
        if page.alternate_reader is None:
            continue
        fresh = mdpage.render_markdown(content, strict=True)
        assert _same_page(page.alternate, fresh), content
        checked += 1
    assert checked >= 40


def test_the_strict_reading_copies_blocks_instead_of_rendering_them(monkeypatch):
    from deep_research.citations.page import markdown as mdpage

    content = "".join(f"Paragraph {i} with *emphasis* and a [link](x.html).\n\n" for i in range(20)) + MARKDOWNIFY_DL
    page = render(content, "markdown")
    rendered: list[str] = []
    real = mdpage._render_block
    monkeypatch.setattr(mdpage, "_render_block", lambda r, kind, t: (rendered.append(kind), real(r, kind, t)))
    alternate = page.alternate
    copied = len(rendered)
    rendered.clear()
    assert _same_page(alternate, mdpage.render_markdown(content, strict=True))
    assert copied <= len(rendered) - 20, (copied, len(rendered))  # the 20 paragraphs are copied


def test_the_strict_reading_parses_from_the_first_block_a_lenient_rule_read(monkeypatch):
    """The blocks before the first line a lenient rule read are the lenient parse's: the strict
    parse starts at the last top-level block before it, with the reference labels defined
    before that block (a link after it to a label defined before it is still a link)."""
    from deep_research.citations.page import markdown as mdpage

    head = "".join(f"Paragraph {i} cites [ref{i % 2}] here.\n\n" for i in range(12)) + "[ref0]: a.html\n\n"
    for tail in (MARKDOWNIFY_DL, HTML2TEXT_ENUMERATED, HTML2TEXT_LIST):
        content = head + tail + "\n[ref1]: b.html\n\nLast [ref1] and [ref0] and [ref2].\n"
        page = render(content, "markdown")
        assert page.alternate_reader is not None
        parsed: list[str] = []
        strict = mdpage._parser(True)
        real = strict.parse
        monkeypatch.setattr(strict, "parse", lambda src, env=None, parsed=parsed, real=real: (parsed.append(src), real(src, env))[1])
        alternate = page.alternate
        monkeypatch.undo()
        assert len(parsed) == 1 and "Paragraph 5" not in parsed[0] and "Last [ref1]" in parsed[0], parsed
        assert _same_page(alternate, mdpage.render_markdown(content, strict=True)), tail

"""Real-browser checks: every fragment link we generate makes Chromium highlight exactly
the quoted text, and our Python matcher agrees with Chromium on what a directive matches."""

import json
import re
from pathlib import Path

import pytest

from deep_research.citations.fragments import TextDirective, fragment_for, match_directive
from deep_research.citations.page import render
from deep_research.inputs import load_sources
from deep_research.publish import publish_report
from deep_research.search.extract import html_to_text
from tests.support.chromium import normalise, serve_directory

pytestmark = pytest.mark.browser
PAGES = Path(__file__).resolve().parents[1] / "data" / "pages"


def _page(name: str):
    return render(html_to_text((PAGES / name).read_bytes()).text, "text")


def test_example_report_links_highlight_exactly_the_quote(browser, examples_dir, tmp_path):
    loaded = load_sources(examples_dir / "sources.json")
    md = (examples_dir / "report.md").read_text(encoding="utf-8")
    result = publish_report(md, loaded.sources, tmp_path, pdf=False)
    cites = json.loads((tmp_path / "citations.json").read_text(encoding="utf-8"))
    linked = [c for c in cites if c["fragment"]]
    assert len(linked) >= 14
    with serve_directory(examples_dir) as base:
        for c in linked:
            url = c["url"].replace("http://127.0.0.1:8000/", base)
            got = browser.highlighted(url)
            assert got and normalise(got[0]) == normalise(c["highlight_text"]), (c, got)
    # unsupported quotes get no fragment, and are reported as such
    assert result.summary()["unsupported"] == 1


def _sentences(text: str):
    for line in text.split("\n"):
        for m in re.finditer(r"[^.!?。]+[.!?。]", line):
            s = m.group(0).strip()
            if len(s) >= 4:
                yield s
        if len(line) <= 80 and line.strip():
            yield line.strip()


def test_every_sentence_of_a_tricky_page(browser):
    """Repeated sentences, case-variant nav text, table cells, <pre>, CJK, accents."""
    page = _page("tricky.html")
    cases = []
    seen = set()
    for s in _sentences(page.text):
        # every occurrence of the sentence, not only the first
        for m in re.finditer(re.escape(s), page.text):
            key = (m.start(), m.end())
            if key in seen:
                continue
            seen.add(key)
            frag = fragment_for(page, m.start(), m.end())
            cases.append((s, m.start(), m.end(), frag))
    made = [c for c in cases if c[3].directive is not None]
    assert len(made) >= 25
    # a sentence repeated word for word in two list items and a paragraph: each copy
    # gets its own fragment (with context), not only the first
    repeated = [c for c in made if c[0] == "The river rose quickly."]
    assert len(repeated) >= 3
    with serve_directory(PAGES) as base:
        for s, start, end, frag in made:
            url = f"{base}tricky.html#:~:{frag.encoded}"
            got = browser.highlighted(url)
            assert got and normalise(got[0]) == normalise(page.text[start:end]), (s, frag.encoded, got)
            assert match_directive(page, frag.directive) == (start, end)


# Directives written by hand: what Chromium matches must be what our matcher says.
HAND_WRITTEN = [
    "text=river%20rose%20quickly",
    "text=RIVER%20ROSE%20FASTER",
    "text=iver%20rose",
    "text=river%20rose%20slowly",
    "text=Finally%2C%20the-,river%20rose%20quickly",
    "text=river%20rose%20quickly,-again",
    "text=Budget%2C%20staffing,follow%2Dup",
    "text=Gauge%20B%20recorded",
    "text=recorded%204.2%20metres",
    "text=cafe%20owners",
    "text=snake_case_names",
    "text=case_names",
    "text=The%20river%20rose%20quickly.,-The%20river",
    "text=%E6%B2%B3%E6%B0%B4%E5%9C%A8%E6%9A%B4%E9%9B%A8%E5%90%8E",
    "text=council%E2%80%99s%20%E2%80%9Cemergency%20plan%E2%80%9D",
    "text=council's%20%22emergency%20plan%22",
    "text=inline%20markup%20does%20not",
]


@pytest.mark.parametrize("directive", HAND_WRITTEN)
def test_python_matcher_agrees_with_chromium(browser, directive):
    page = _page("tricky.html")
    ours = match_directive(page, TextDirective.parse(directive))
    with serve_directory(PAGES) as base:
        got = browser.highlighted(f"{base}tricky.html#:~:{directive}")[0]
    if ours is None:
        assert got is None
    else:
        assert got is not None and normalise(got) == normalise(page.text[ours[0] : ours[1]])


def _convert(html: str, converter: str) -> str:
    if converter == "html2text":
        import html2text

        h = html2text.HTML2Text()
        h.body_width = 40  # wrap hard: links, code spans and words break across lines
        return h.handle(html)
    import markdownify

    return markdownify.markdownify(html, heading_style="ATX")


@pytest.mark.parametrize("converter", ["html2text", "markdownify"])
def test_links_from_converted_markdown_highlight_the_quote_on_the_real_page(browser, converter):
    """A search API hands over the page as markdown (made by a converter); readers quote the
    real page. Every sentence and code line of the real page must verify against the
    markdown, and its link, built from the markdown, must highlight exactly the quote on
    the real page (or, for code lines whose edge symbols no directive can include, exactly
    the words the audit names)."""
    from deep_research.citations.model import Source
    from deep_research.citations.verify import SourceIndex

    raw = (PAGES / "converted.html").read_bytes()
    real = html_to_text(raw).text
    md = _convert(raw.decode("utf-8"), converter)
    src = Source("c", "https://example.org/converted.html", md, format="markdown")
    index = SourceIndex([src])
    sentences = [x.strip() for line in real.split("\n") for x in re.split(r"(?<=[.!?])\s+", line)]
    quotes = list(dict.fromkeys(
        [x for x in sentences if "\u00b6" not in x and len(x.split()) >= 3]
        + [line.strip() for line in real.split("\n") if line.startswith(("#", "    *", "-  "))]))
    assert len(quotes) >= 15
    assert any(q.startswith("* sequentially") for q in quotes)
    cases = []
    for q in quotes:
        r = index.verify(q, "c")
        assert r.status.value == "verified", (q, r.how)
        assert " ".join(src.page.text[r.start:r.end].split()) == " ".join(q.split()), q
        frag = fragment_for(src.page, r.start, r.end)
        assert frag.directive is not None, (q, frag.reason)
        if frag.words_only:
            assert q.startswith("-"), (q, frag.note)  # only the line whose "-" a space run parts
        cases.append((q, src.page.text[frag.start:frag.end], frag))
    with serve_directory(PAGES) as base:
        for q, want, frag in cases:
            got = browser.highlighted(f"{base}converted.html#:~:{frag.encoded}")
            assert got and normalise(got[0]) == normalise(want), (q, frag.encoded, got)

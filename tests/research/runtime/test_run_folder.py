"""notes.md and raw_notes.md sit beside the report and are opened the same way (a markdown
previewer, a terminal): what a model wrote and the page text it quoted must be as inert
there as in report.md."""

from __future__ import annotations

import re

from lxml import html as lxml_html
from markdown_it import MarkdownIt

from deep_research.research.runtime.configuration import Configuration
from deep_research.research.runtime.run_folder import save_notes

INTERNAL = "http://127.0.0.1:9"
ACTING = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|\r(?!\n)")
QUOTE = f'The lab measured 2.5 according to <img src="{INTERNAL}/quoted.png"> tests.'


def _rendered(text: str) -> lxml_html.HtmlElement:
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    md.validateLink = lambda url: True  # no help from the renderer: the file itself must be inert
    return lxml_html.fragment_fromstring(md.render(text), create_parent="div")


def test_notes_and_raw_notes_show_page_and_model_markup_as_text(tmp_path):
    findings = (f'- the lab measured 2.5 <ref id="s1">"{QUOTE}"</ref>\n'
                f"- <script>fetch('{INTERNAL}/s')</script> ![p]({INTERNAL}/p.png) [j](javascript:alert(1))"
                " \x1b]0;pwned\x07 \u202etxet\u202c")
    raw = (f'<source id="s1" title="Lab \x1b[2J page" url="https://example.org/lab">\n'
           f'Exact sentences:\n- "{QUOTE}"\n<iframe src="{INTERNAL}/f"></iframe>\n</source>')
    state = {"question": "Lab results?", "research_brief": f"Brief <img src={INTERNAL}/b.png>",
             "notes": [{"topic": "Lab \x9b31m", "findings": findings}], "raw_notes": [raw]}
    path = save_notes(Configuration(output_dir=str(tmp_path)), state, "thread-1")
    assert path is not None
    for name in ("notes.md", "raw_notes.md"):
        text = (path.parent / name).read_text(encoding="utf-8")
        assert not ACTING.findall(text), name
        tree = _rendered(text)
        loads = [el.tag for el in tree.iter() if el.tag in ("img", "script", "iframe")]
        assert loads == [], (name, loads)
        hrefs = [a.get("href") for a in tree.iter("a")]
        assert all(h.startswith(("https:", "http:", "#")) for h in hrefs), (name, hrefs)
        assert "quoted.png" in tree.text_content(), name  # shown as text, not dropped
    notes = (path.parent / "notes.md").read_text(encoding="utf-8")
    assert '<ref id="s1">' in notes  # the findings keep their citations


def test_sources_json_and_run_json_show_page_and_question_controls_as_escapes(tmp_path):
    """sources.json and run.json sit beside citations.json and are opened the same way
    (cat, less, a CI log): a page's title or text and a question handed over in a question
    set hold C1 controls and bidi overrides that JSON writes raw. They are written as
    ``\\uXXXX`` escapes there too, and read back as the same values (the folder still
    re-publishes its report)."""
    import json

    from deep_research.citations.model import Source
    from deep_research.inputs import parse_sources
    from deep_research.research.report.publish_node import _write_outputs
    from deep_research.research.runtime.meter import Meter

    hostile = "\x9b2J \u202etxet\u202c \x85 \x7f"
    page = f"Tea plants grow best in acidic soil. Tea {hostile} is grown in many countries.\n"
    sources = [Source("tea", "https://example.org/tea", page, f"Tea {hostile}", "text")]
    state = {"question": f"Where is tea grown? {hostile}", "research_brief": f"Brief {hostile}",
             "research_log": [{"topic": f"Tea {hostile}", "ok": True, "citations": 1,
                               "pages_read": [{"url": "https://example.org/tea", "title": f"Tea {hostile}"}]}],
             "notes": [], "raw_notes": []}
    md = '# Tea\n\nTea grows in acid soil <ref id="tea">"Tea plants grow best in acidic soil."</ref>.\n'
    cfg = Configuration(output_dir=str(tmp_path), write_pdf=False)
    files, *_ = _write_outputs(cfg, state, "thread-1", md, sources, Meter(node="publish", timeout_s=5, max_retries=0))
    for key in ("sources", "run"):
        text = open(files[key], encoding="utf-8").read()
        assert not ACTING.findall(text), (key, sorted(set(ACTING.findall(text))))
        assert "\\u202etxet" in text, key  # shown as an escape, not dropped
    assert json.loads(open(files["run"], encoding="utf-8").read())["question"] == state["question"]
    again = parse_sources(json.loads(open(files["sources"], encoding="utf-8").read())).sources
    assert (again[0].content, again[0].title) == (page, f"Tea {hostile}")


def test_notes_of_a_run_kept_before_urls_were_masked_are_written_without_their_credentials(tmp_path):
    """A thread saved before search results' URLs were masked holds its pages' signed
    addresses in its raw notes (and the findings a model wrote from them): resumed, the
    run writes notes.md and raw_notes.md without the credentials, as its sources' URLs are
    (runtime/sources.masked_meta); a short value of a sometimes-secret name stays."""
    signed = "https://files.example.org/a.pdf?X-Amz-Signature=0123456789abcdef0123&page=2"
    token = "https://ghp_abcdefghijklmnop@git.example.org/r?code=CIV"
    raw = f'<source id="s1" title="{signed}" url="{signed}">\nExact sentences:\n- "It rose." ({token})\n</source>'
    state = {"question": "Rise?", "notes": [{"topic": "T", "findings": f"It rose, see {signed}."}],
             "raw_notes": [raw]}
    path = save_notes(Configuration(output_dir=str(tmp_path)), state, "thread-1")
    assert path is not None
    for name in ("notes.md", "raw_notes.md"):
        text = (path.parent / name).read_text(encoding="utf-8")
        assert "0123456789abcdef0123" not in text and "ghp_abcdefghijklmnop" not in text, name
        assert "X-Amz-Signature=***&amp;page=2" in text or "X-Amz-Signature=***&page=2" in text, name
    raw_text = (path.parent / "raw_notes.md").read_text(encoding="utf-8")
    assert "code=CIV" in raw_text and "***@git.example.org" in raw_text

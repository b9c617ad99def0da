"""Citation styles: each style's in-text marker and reference entry for sources with full,
partial and no metadata, and the style applied in every output format (linked markdown,
HTML, PDF, docx, citations.json) while report.md keeps its <ref> tags."""

import datetime as dt
import json
import subprocess
import sys
import typing
from pathlib import Path

import docx
import lxml.html
import pytest
from pypdf import PdfReader

from deep_research.citations.model import Source
from deep_research.citations.styles import STYLES, Styler, check_style, parse_authors, parse_date
from deep_research.inputs import load_sources
from deep_research.publish import publish_report

ROOT = Path(__file__).resolve().parents[2]
DAY = dt.date(2026, 11, 24)
SOURCES = [
    Source("full", "https://www.example.org/compost", "c", "Why compost works | Example Org",
           author="Jane Q. Smith", published="2023-05-01T08:00:00Z", site_name="Example Org"),
    Source("partial", "https://news.example.net/y", "c", "Compost and cities", published="2021"),
    Source("none", "https://www.example.com/page", "c", "Plain title"),
    Source("two", "https://a.org/2", "c", "Two authors", author="Ann Lee and Bob Ray", published="2019-02"),
]
NUMBERS = {s.id: i + 1 for i, s in enumerate(SOURCES)}

EXPECTED = {
    "numbered": {
        "full": ("[1]", "[1] Why compost works | Example Org: https://www.example.org/compost"),
        "partial": ("[2]", "[2] Compost and cities: https://news.example.net/y"),
        "none": ("[3]", "[3] Plain title: https://www.example.com/page"),
        "two": ("[4]", "[4] Two authors: https://a.org/2"),
    },
    "apa": {
        "full": ("(Smith, 2023)",
                 "Smith, J. Q. (2023, May 1). Why compost works. Example Org. https://www.example.org/compost"),
        "partial": ("(news.example.net, 2021)",
                    "news.example.net. (2021). Compost and cities. https://news.example.net/y"),
        "none": ("(example.com, n.d.)",
                 "example.com. (n.d.). Plain title. Retrieved November 24, 2026, from https://www.example.com/page"),
        "two": ("(Lee & Ray, 2019)", "Lee, A., & Ray, B. (2019, February). Two authors. a.org. https://a.org/2"),
    },
    "mla": {
        "full": ("(Smith)", ("Smith, Jane Q. \u201cWhy compost works.\u201d Example Org, 1 May 2023, "
                             "https://www.example.org/compost. Accessed 24 Nov. 2026.")),
        "partial": ("(\u201cCompost and cities\u201d)", ("\u201cCompost and cities.\u201d news.example.net, 2021, "
                                                        "https://news.example.net/y. Accessed 24 Nov. 2026.")),
        "none": ("(\u201cPlain title\u201d)", ("\u201cPlain title.\u201d example.com, https://www.example.com/page. "
                                              "Accessed 24 Nov. 2026.")),
        "two": ("(Lee and Ray)", ("Lee, Ann, and Bob Ray. \u201cTwo authors.\u201d a.org, Feb. 2019, https://a.org/2. "
                                  "Accessed 24 Nov. 2026.")),
    },
    "ieee": {
        "full": ("[1]", ("[1] J. Q. Smith, \u201cWhy compost works,\u201d Example Org, May 1, 2023. Accessed: Nov. 24, "
                         "2026. [Online]. Available: https://www.example.org/compost")),
        "partial": ("[2]", ("[2] \u201cCompost and cities,\u201d news.example.net, 2021. Accessed: Nov. 24, 2026. "
                            "[Online]. Available: https://news.example.net/y")),
        "none": ("[3]", ("[3] \u201cPlain title,\u201d example.com. Accessed: Nov. 24, 2026. [Online]. Available: "
                         "https://www.example.com/page")),
        "two": ("[4]", ("[4] A. Lee and B. Ray, \u201cTwo authors,\u201d a.org, Feb. 2019. Accessed: Nov. 24, 2026. "
                        "[Online]. Available: https://a.org/2")),
    },
    "chicago": {
        "full": ("(Smith 2023)", ("Smith, Jane Q. 2023. \u201cWhy compost works.\u201d Example Org. May 1, 2023. "
                                  "https://www.example.org/compost.")),
        "partial": ("(news.example.net 2021)",
                    "news.example.net. 2021. \u201cCompost and cities.\u201d https://news.example.net/y."),
        "none": ("(example.com n.d.)", ("example.com. n.d. \u201cPlain title.\u201d Accessed November 24, 2026. "
                                        "https://www.example.com/page.")),
        "two": ("(Lee and Ray 2019)", ("Lee, Ann, and Bob Ray. 2019. \u201cTwo authors.\u201d a.org. February 2019. "
                                       "https://a.org/2.")),
    },
}


@pytest.mark.parametrize("style", STYLES)
def test_marker_and_entry_per_metadata(style):
    s = Styler(style, SOURCES, NUMBERS, accessed=DAY)
    for sid, (marker, entry) in EXPECTED[style].items():
        assert s.marker(sid) == marker
        assert s.reference(sid).text == entry


def test_order_numbered_or_alphabetical():
    assert Styler("ieee", SOURCES, NUMBERS, DAY).order() == ["full", "partial", "none", "two"]
    assert Styler("apa", SOURCES, NUMBERS, DAY).order() == ["none", "two", "partial", "full"]
    assert Styler("mla", SOURCES, NUMBERS, DAY).order() == ["partial", "two", "none", "full"]


def test_same_author_and_year_disambiguated():
    twins = [Source("a", "https://x.org/a", "c", "Alpha", author="Jane Smith", published="2020"),
             Source("b", "https://x.org/b", "c", "Beta", author="Jane Smith", published="2020"),
             Source("c", "https://y.org/c", "c", "Gamma"), Source("d", "https://y.org/d", "c", "Delta")]
    nums = {"a": 1, "b": 2, "c": 3, "d": 4}
    apa = Styler("apa", twins, nums, DAY)
    assert (apa.marker("a"), apa.marker("b")) == ("(Smith, 2020a)", "(Smith, 2020b)")
    assert apa.reference("b").text.startswith("Smith, J. (2020b).")
    assert (apa.marker("c"), apa.marker("d")) == ("(y.org, n.d.-a)", "(y.org, n.d.-b)")
    chicago = Styler("chicago", twins, nums, DAY)
    assert chicago.marker("b") == "(Smith 2020b)" and "2020b." in chicago.reference("b").text
    mla = Styler("mla", twins, nums, DAY)
    assert mla.marker("a") == "(Smith, \u201cAlpha\u201d)" and mla.marker("b") == "(Smith, \u201cBeta\u201d)"


def test_metadata_parsing_rules():
    assert parse_date("2023-05-01") == parse_date("2023-05-01T10:00:00+02:00")
    assert parse_date("2023-13-01").month is None and parse_date("2023-13-01").year == 2023
    assert parse_date("Published 12 March 2019").year == 2019
    assert parse_date("") is None and parse_date("no date") is None and parse_date(None) is None
    assert [p.family for p in parse_authors("Smith, Jane")] == ["Smith"]
    assert [p.family for p in parse_authors("Jane Smith, John Doe")] == ["Smith", "Doe"]
    assert [p.family for p in parse_authors("By Ann Lee; Bob Ray & Cy Young")] == ["Lee", "Ray", "Young"]
    org = parse_authors("National Institute of Standards and Technology")
    assert len(org) == 2  # split on " and ": the first part a long organisation name kept whole
    assert org[0].organisation and org[0].family == "National Institute of Standards"
    assert parse_authors(["Ann Lee", "Bob Ray"])[1].initials() == "B."
    assert parse_authors("Jean-Paul Sartre")[0].initials() == "J.-P."
    # no title metadata at all: a local file is named by its file name
    local = Source("f", "file:///data/notes.txt", "c", "")
    s = Styler("apa", [local], {"f": 1}, DAY)
    assert s.marker("f") == "(\u201cnotes.txt\u201d, n.d.)"
    assert s.reference("f").text == "notes.txt. (n.d.). Retrieved November 24, 2026, from file:///data/notes.txt"


def test_style_names_checked():
    assert check_style("APA ") == "apa" and check_style(None) == "numbered"
    with pytest.raises(ValueError, match="numbered, apa, mla, ieee, chicago"):
        check_style("harvard")


def test_configuration_offers_exactly_the_styles():
    from deep_research.research.runtime.configuration import Configuration

    field = Configuration.model_fields["citation_style"]
    assert typing.get_args(field.annotation) == STYLES
    assert field.description or field.json_schema_extra["x_oap_ui_config"]["description"]
    assert Configuration(citation_style="MLA").citation_style == "mla"
    assert Configuration(write_docx=True).write_docx is True and Configuration().write_docx is False
    with pytest.raises(Exception, match="citation_style"):
        Configuration(citation_style="harvard")


# --- every output format ---------------------------------------------------------------
META = {"basics": {"author": "Jane Q. Smith", "published": "2023-05-01", "site_name": "Garden Notes"},
        "trouble": {"published": "2021"}}  # cities and zh: no metadata


@pytest.fixture(scope="module")
def sources_file(tmp_path_factory):
    data = json.loads((ROOT / "examples/sources.json").read_text(encoding="utf-8"))
    for item in data:
        item.update(META.get(item["id"], {}))
    path = tmp_path_factory.mktemp("styles") / "sources.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _docx_text(path: Path) -> str:
    doc = docx.Document(str(path))
    parts = []
    for block in doc.iter_inner_content():
        if isinstance(block, docx.table.Table):
            parts += [c.text for row in block.rows for c in row.cells]
        else:
            parts.append(block.text)
    return "\n".join(parts)


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("style", STYLES)
def test_style_in_every_output(style, sources_file, tmp_path):
    md = (ROOT / "examples/report.md").read_text(encoding="utf-8")
    loaded = load_sources(sources_file).sources
    result = publish_report(md, loaded, tmp_path, pdf=True, docx=True, citation_style=style, date=DAY)
    cites = json.loads(result.files["citations"].read_text())
    by_source = {c["source_id"]: c for c in cites}
    styler = Styler(style, [s for s in loaded if s.id in by_source],
                    {sid: c["number"] for sid, c in by_source.items()}, DAY)
    # citations.json: added fields, the old ones untouched
    for c in cites:
        assert c["citation_style"] == style
        assert c["in_text"] == styler.marker(c["source_id"])
        assert c["reference"] == styler.reference(c["source_id"]).text
        assert {"n", "number", "url", "fragment", "quote", "status"} <= set(c)
    assert json.loads(result.files["audit"].read_text())["citation_style"] == style
    # report.md keeps the canonical refs and the numbered Sources list (it is re-published)
    ui = result.files["markdown"].read_text()
    assert ui.count("<ref ") == len(cites) and "[1] Composting basics \u2014 Garden Notes (id basics)" in ui

    linked = result.files["linked"].read_text()
    page = lxml.html.document_fromstring(result.files["html"].read_text())
    for el in page.iter("style"):
        el.drop_tree()
    html_text = _flat(page.text_content())
    pdf_text = _flat(" ".join(p.extract_text() for p in PdfReader(str(result.files["pdf"])).pages))
    docx_text = _flat(_docx_text(result.files["docx"]))
    basics = by_source["basics"]
    marker = styler.marker("basics")
    entry = styler.reference("basics").text
    if style in ("numbered", "ieee"):
        assert f"[{basics['number']}]({basics['url']})" in linked
    else:
        assert marker in {"apa": "(Smith, 2023)", "mla": "(Smith)", "chicago": "(Smith 2023)"}[style]
        assert f"[{marker}]({basics['url']})" in linked
        for text in (html_text, pdf_text, docx_text):
            assert marker in text
            assert styler.marker("cities") in text  # no metadata: the site from the title
    for text in (html_text, docx_text, pdf_text):
        if style == "numbered":
            assert "Composting basics \u2014 Garden Notes" in text
        else:
            head = entry.split(" http")[0]  # the PDF may break the URL across lines
            assert _flat(head) in text, (style, head)
    # whatever the style, every source keeps its verified quotes and their fragment links
    fragment_quotes = [c for c in cites if c["fragment"]]
    for c in fragment_quotes:
        quote = _flat(c["highlight_text"])
        assert f"\u201c{quote}\u201d" in docx_text and f"\u201c{quote}\u201d" in html_text
        if style != "numbered":
            assert f"({c['url']})" in linked  # under its source in the styled Sources list
    html = result.files["html"].read_text()
    for c in fragment_quotes:
        assert html.count(f'href="{c["url"].replace("&", "&amp;")}"') >= 2  # in the text and in Sources


def test_cli_citation_style_apa_with_docx(sources_file, tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, "-m", "deep_research.cli", *map(str, args)],
                              capture_output=True, text=True, cwd=ROOT, timeout=180, check=False)

    r = run("publish", "examples/report.md", "-s", sources_file, "-o", tmp_path, "--no-pdf", "--docx",
            "--citation-style", "apa")
    assert r.returncode == 0, r.stderr
    assert "report.docx" in r.stdout
    text = _docx_text(tmp_path / "report.docx")
    assert "(Smith, 2023)" in text and "(Garden Notes, 2021)" in text
    assert "Smith, J. Q. (2023, May 1). Composting basics. Garden Notes. http://127.0.0.1:8000" in _flat(text)
    assert "(Smith, 2023)" in (tmp_path / "report.linked.md").read_text()
    for cmd in (["publish", "examples/report.md", "-s", sources_file, "-o", tmp_path / "x"],
                ["research", "what is compost?"]):
        bad = run(*cmd, "--citation-style", "harvard")
        assert bad.returncode == 2
        assert "--citation-style: " in bad.stderr  # the option as typed, and the styles there are
        assert "numbered, apa, mla, ieee" in bad.stderr and "chicago" in bad.stderr
        assert not (tmp_path / "x").exists()


def test_research_options_become_settings():
    from deep_research.cli.settings import context_from_options
    from deep_research.research.runtime.configuration import Configuration

    ctx = context_from_options(docx=True, citation_style="chicago")
    assert ctx == {"write_docx": True, "citation_style": "chicago"}
    cfg = Configuration(**ctx)
    assert cfg.write_docx and cfg.citation_style == "chicago"
    assert context_from_options(pdf=None, docx=None, citation_style=None) == {}
    # a switch the user gave is a setting the user gave, either way (it wins over the environment)
    assert context_from_options(pdf=True, docx=False) == {"write_pdf": True, "write_docx": False}


def test_sources_json_metadata_is_optional_and_checked(tmp_path):
    from deep_research.errors import UserError
    from deep_research.inputs import parse_sources

    base = {"id": "a", "url": "https://ex.org/a", "content": "Text.", "title": "T"}
    plain = parse_sources([base]).sources[0]
    assert (plain.author, plain.published, plain.site_name) == (None, None, None)
    full = parse_sources([{**base, "author": ["Ann Lee", " Bob  Ray "], "published": "2020-01-02",
                           "site_name": "  Ex  Org "}]).sources[0]
    assert (full.author, full.published, full.site_name) == ("Ann Lee; Bob Ray", "2020-01-02", "Ex Org")
    assert Styler("apa", [full], {"a": 1}, DAY).marker("a") == "(Lee & Ray, 2020)"
    with pytest.raises(UserError, match='"published" must be a string'):
        parse_sources([{**base, "published": 2020}])


def test_author_parsing_is_linear_on_long_runs_of_spaces():
    """Issue 19: a page's author metadata with a long run of spaces took quadratic time
    (40,000 spaces: 6 s)."""
    import time

    from deep_research.citations.styles import parse_authors

    start = time.monotonic()
    people = parse_authors("Ann" + " " * 400_000 + "Lee" + "\t" * 100_000 + "; Bob Roe")
    assert time.monotonic() - start < 1.0
    assert [p.family for p in people] == ["Ann"] and people[0].organisation is False
    assert [p.family for p in parse_authors("by Jane  Doe ;  John   Smith")] == ["Doe", "Smith"]


def test_an_initial_is_the_first_letter_of_a_given_name():
    """A page's author "Ann \u202eEvil\u202c Smith" was listed as "Smith, A. \\u202e." in APA
    (the initial of "\u202eEvil" taken from its bidi override); a quote mark or a bracket
    before a name was an "initial" too. The initial is the name's first letter or digit; a
    part with none gives none."""
    assert parse_authors("Ann \u202eEvil\u202c Smith")[0].initials() == "A. E."
    assert parse_authors('"Bob" Ray')[0].initials() == "B."
    assert parse_authors("(Jean-\u2066Paul) Sartre")[0].initials() == "J.-P."
    assert parse_authors("Ann \u2014 Lee")[0].initials() == "A."

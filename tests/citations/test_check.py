"""check_citations end to end: parse, verify, number, link."""

import pytest

from deep_research.citations.check import Citation, check_citations, safe_link
from deep_research.citations.fragments import TextDirective, match_directive, strip_text_fragment
from deep_research.citations.model import Source, Verdict

WATER = Source(
    "water",
    "https://city.example.org/water-report",
    "The municipal water utility served 42 districts in 2023. Officials said the main treatment "
    "plant must be upgraded before 2027. The utility does not plan to raise tariffs this year.",
)
ENERGY = Source(
    "energy",
    "https://energy.example.org/news#summary",
    "## Energy\n\nPublic buildings used **12 percent** less electricity after the "
    "[retrofit programme](https://energy.example.org/retrofit).\n\nThe programme cost 3.1 million euros.\n",
    format="markdown",
)
TRANSIT = Source(
    "transit",
    "https://transit.example.org/annual",
    "Tram ridership doubled within five years. Tram ridership doubled within five years.\n"
    "Night buses now run every 30 minutes.",
)
BUDGET_PDF = Source("budget", "https://docs.example.org/files/Budget-2024.PDF?download=1",
                    "The capital budget for 2024 was approved in March.")
JS = Source("js", "javascript:alert(document.cookie)", "Bike lanes were extended by eight kilometres.")
DATA = Source("data", "data:text/html;base64,PHA+aGk8L3A+", "Car sharing grew by a third.")
SOURCES = [WATER, ENERGY, TRANSIT, BUDGET_PDF, JS, DATA]

REPORT = """# Municipal services in 2023

Energy use in public buildings fell
<ref id="energy">"Public buildings used 12 percent less electricity after the retrofit programme."</ref>
while the utility <ref id="water">"served 42 districts in 2023"</ref>.
An upgrade is due: <ref id="energy">"Officials said the main treatment plant must be upgraded before 2027."</ref>
Tariffs: <ref id="water">"The utility does not plan to raise tariffs this year."</ref>
Trams: <ref id="transit">"Tram ridership doubled within five years."</ref>
Budget: <ref id="budget">"The capital budget for 2024 was approved in March."</ref>
Bikes: <ref id="js">"Bike lanes were extended by eight kilometres."</ref>
Cars: <ref id="data">"Car sharing grew by a third."</ref>
Invented: <ref id="water">"The municipal water utility served 43 districts in 2023."</ref>
Ghost: <ref id="nowhere">"Ferries will be free from next year."</ref>
Again: <ref id="energy">"Public buildings used 12 percent less electricity"</ref>
Bad tag: <ref id="">"Empty id."</ref>
"""


@pytest.fixture(scope="module")
def result():
    return check_citations(REPORT, SOURCES)


def by_quote(result, start: str) -> list[Citation]:
    return [c for c in result.citations if c.ref.quote.startswith(start)]


def test_every_ref_gets_a_citation_in_order(result):
    assert len(result.citations) == 11
    assert [c.ref.index for c in result.citations] == list(range(11))
    assert [c.as_json()["n"] for c in result.citations] == list(range(1, 12))
    assert [p.message for p in result.problems] == ["<ref> tag with an empty id"]


def test_statuses(result):
    V, R, U = Verdict.VERIFIED, Verdict.REPAIRED, Verdict.UNSUPPORTED
    assert [c.status for c in result.citations] == [V, V, R, V, V, V, V, V, U, U, V]
    assert result.count(V) == 8
    assert result.count(R) == 1
    assert result.count(U) == 2


def test_sources_numbered_by_first_appearance(result):
    assert [s.id for s in result.sources] == ["energy", "water", "transit", "budget", "js", "data"]
    numbers = {c.ref.quote[:20]: c.number for c in result.citations}
    assert numbers["Public buildings use"] == 1
    assert numbers["served 42 districts "] == 2
    assert numbers["Tram ridership doubl"] == 3
    assert numbers["The capital budget f"] == 4
    # every citation of a source shares its number
    for c in result.citations:
        if c.source is not None:
            assert c.number == result.sources.index(c.source) + 1


def test_repaired_ref_gets_the_right_source_number_and_link(result):
    (c,) = by_quote(result, "Officials said")
    assert c.status is Verdict.REPAIRED
    assert c.ref.source_id == "energy"
    assert c.source is WATER and c.check.source_id == "water"
    assert c.number == 2
    assert c.url.startswith(WATER.url + "#:~:text=")
    j = c.as_json()
    assert (j["source_id"], j["cited_id"]) == ("water", "energy")
    assert "water" in j["note"] and "energy" in j["note"]


def test_repair_to_a_source_not_yet_cited_numbers_it_at_that_point():
    md = (
        'A <ref id="water">"Night buses now run every 30 minutes."</ref> '
        'B <ref id="water">"served 42 districts in 2023"</ref>'
    )
    r = check_citations(md, SOURCES)
    assert [s.id for s in r.sources] == ["transit", "water"]
    assert [c.number for c in r.citations] == [1, 2]


def test_verified_citation_links_to_its_exact_sentence(result):
    for c in result.citations:
        if not c.check.found or c.fragment is None:
            continue
        d = TextDirective.parse(c.fragment)
        assert match_directive(c.source.page, d) == (c.check.start, c.check.end)
        assert c.url.endswith(":~:" + c.fragment)
        assert c.url.count("#") == 1


def test_existing_anchor_is_kept(result):
    c = by_quote(result, "Public buildings used 12 percent less electricity after")[0]
    assert c.url.startswith("https://energy.example.org/news#summary:~:text=")
    assert strip_text_fragment(c.url) == ENERGY.url


def test_unsupported_ref_links_to_the_plain_source(result):
    (c,) = by_quote(result, "The municipal water utility served 43")
    assert c.status is Verdict.UNSUPPORTED
    assert c.url == WATER.url
    assert c.fragment is None
    j = c.as_json()
    assert j["matched_text"] is None and j["highlight_text"] is None
    assert j["content_start"] is None and j["content_end"] is None
    assert j["note"] == "quote not found in the cited page"
    assert c.rendered_text is None and c.content_span is None


def test_unknown_id_without_a_match_has_no_source_and_no_link(result):
    (c,) = by_quote(result, "Ferries will be free")
    assert c.status is Verdict.UNSUPPORTED
    assert c.source is None and c.url is None and c.number is None and c.fragment is None
    assert "nowhere" in c.as_json()["note"]


@pytest.mark.parametrize("quote", ["Bike lanes", "Car sharing"])
def test_unsafe_source_urls_give_no_link(result, quote):
    (c,) = by_quote(result, quote)
    assert c.status is Verdict.VERIFIED
    assert c.url is None and c.fragment is None
    assert "not an http(s) or file link" in c.link_note
    assert c.number is not None  # still listed as a source


def test_pdf_gets_a_plain_link_with_a_note(result):
    (c,) = by_quote(result, "The capital budget")
    assert c.status is Verdict.VERIFIED
    assert c.url == BUDGET_PDF.url
    assert c.fragment is None
    assert "PDF" in c.link_note
    assert "PDF" in c.as_json()["note"]
    assert c in result.without_fragment


def test_passage_without_a_unique_fragment_gets_a_plain_link_with_the_reason():
    # case-blind, the quoted line repeats the two lines before it: no prefix or suffix can
    # single it out, but verification (case-aware) finds exactly that line
    twin = Source("twin", "https://t.example.org/trams", "TRAMS DOUBLED.\nTRAMS DOUBLED.\ntrams doubled.")
    r = check_citations('<ref id="twin">"trams doubled."</ref>', [twin])
    (c,) = r.citations
    assert c.status is Verdict.VERIFIED
    assert c.rendered_text == "trams doubled." and c.check.start == 30
    assert c.fragment is None
    assert c.url == twin.url
    assert c.link_note.startswith("plain link: ")
    assert r.without_fragment == [c]


def test_as_json_fields(result):
    for c in result.citations:
        j = c.as_json()
        assert set(j) == {
            "n", "number", "source_id", "cited_id", "quote", "status", "matched_text",
            "highlight_text", "content_start", "content_end", "url", "fragment", "note", "line",
            # the claim check (added; the fields above keep their names)
            "claim", "claim_status", "claim_note", "claim_rule", "confidence",
            "fragment_covers",
            "source_credibility",  # added: the cited source's score and reasons, None when not scored
            "claim_decided_by", "judge",  # added: who proved the claim's status; the judge's votes and checks
            "location", "location_page",  # added: where in a local document (page, slide, row); the PDF page
        }
        assert j["claim_decided_by"] in ("code", "judge", None) and j["judge"] is None  # no judge ran here
        assert j["claim_status"] in ("supported", "unsupported", "unchecked")
        assert j["fragment_covers"] == (None if c.fragment is None else "quote")
        assert j["status"] in {"verified", "repaired", "unsupported"}
        assert j["quote"] == c.ref.quote
        assert j["line"] == c.ref.line
        assert j["url"] == c.url and j["fragment"] == c.fragment
        if c.check.found:
            content = c.source.content
            assert j["matched_text"] == content[j["content_start"] : j["content_end"]]
            assert j["matched_text"]
            assert j["highlight_text"] == c.source.page.text[c.check.start : c.check.end]


def test_matched_text_keeps_the_markdown_of_the_source(result):
    c = by_quote(result, "Public buildings used 12 percent less electricity after")[0]
    j = c.as_json()
    assert j["highlight_text"] == "Public buildings used 12 percent less electricity after the retrofit programme."
    assert j["matched_text"] == (
        "Public buildings used **12 percent** less electricity after the "
        "[retrofit programme](https://energy.example.org/retrofit)."
    )
    assert ENERGY.content.index(j["matched_text"]) == j["content_start"]


def test_lines_point_into_the_report(result):
    lines = REPORT.split("\n")
    for c in result.citations:
        assert f'<ref id="{c.ref.source_id}">' in lines[c.ref.line - 1]


def test_same_quote_twice_gets_the_same_fragment(result):
    a, b = by_quote(result, "Public buildings used 12 percent less electricity")
    assert a.source is b.source
    assert a.number == b.number == 1
    assert a.fragment is not None and b.fragment is not None


def test_min_words_is_passed_to_the_fragment_generator():
    long_src = Source(
        "s", "https://example.org/coast",
        "Background first. Researchers at the coastal institute measured sediment transport along "
        "forty kilometres of shoreline over six consecutive winters and found that storm frequency "
        "explained most of the variation. Another sentence follows.",
    )
    md = ('<ref id="s">"Researchers at the coastal institute measured sediment transport along forty '
          'kilometres of shoreline over six consecutive winters and found that storm frequency '
          'explained most of the variation."</ref>')
    d3 = TextDirective.parse(check_citations(md, [long_src]).citations[0].fragment)
    d5 = TextDirective.parse(check_citations(md, [long_src], min_words=5).citations[0].fragment)
    assert len(d5.start.split()) >= 5 and len(d5.end.split()) >= 5
    assert len(d3.encode()) <= len(d5.encode())


def test_empty_report():
    r = check_citations("No citations here.", SOURCES)
    assert r.citations == [] and r.sources == [] and r.problems == []


# --- safe_link -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "url, expected",
    [
        ("https://example.org/a?b=1#c", "https://example.org/a?b=1#c"),
        ("http://example.org", "http://example.org"),
        ("HTTPS://EXAMPLE.ORG/x", "HTTPS://EXAMPLE.ORG/x"),
        ("  https://example.org/padded  ", "https://example.org/padded"),
        ("file:///srv/pages/report.html", "file:///srv/pages/report.html"),
        ("javascript:alert(1)", None),
        ("JavaScript:alert(1)", None),
        (" javascript:alert(1)", None),
        ("data:text/html,<p>hi</p>", None),
        ("vbscript:msgbox(1)", None),
        ("mailto:someone@example.org", None),
        ("ftp://example.org/file", None),
        ("//example.org/no-scheme", None),
        ("/relative/path", None),
        ("", None),
        (None, None),
        # characters that could end a markdown link or an HTML attribute are encoded
        ("https://example.org/a b", "https://example.org/a%20b"),
        ("https://example.org/\"onmouseover=\"x", "https://example.org/%22onmouseover=%22x"),
        ("https://example.org/<script>", "https://example.org/%3Cscript%3E"),
        ("https://en.wikipedia.org/wiki/Hanlon's_razor", "https://en.wikipedia.org/wiki/Hanlon%27s_razor"),
        ("https://en.wikipedia.org/wiki/Mercury_(planet)", "https://en.wikipedia.org/wiki/Mercury_%28planet%29"),
        ("https://example.org/a\nb", None),
        ("http://[::1", None),  # urlsplit raises ValueError
    ],
)
def test_safe_link(url, expected):
    assert safe_link(url) == expected


def test_url_with_an_apostrophe_still_gets_a_link():
    src = Source("w", "https://en.wikipedia.org/wiki/Hanlon's_razor",
                 "Never attribute to malice that which is adequately explained by stupidity.")
    r = check_citations('<ref id="w">"Never attribute to malice"</ref>', [src])
    assert r.citations[0].url is not None


def test_a_quote_with_an_unanchorable_edge_symbol_highlights_its_words_and_says_so():
    # "...     def" (a doctest continuation line): no term can hold the leading "..." (a
    # run of spaces separates it from the words), so the link highlights the words only
    content = ("Example:\n\n```\n>>> class Point:\n...     def __repr__(self):\n"
               "...         return 'Point()'\n```\n")
    src = Source("p", "https://example.org/p", content, format="markdown")
    report = check_citations('Text <ref id="p">"...     def __repr__(self):"</ref>.', [src])
    c = report.citations[0]
    assert c.status.value == "verified"
    assert c.fragment and c.words_only
    j = c.as_json()
    assert j["fragment_covers"] == "words"
    assert "words only" in j["note"] and "'...'" in j["note"]
    d = TextDirective.parse(c.fragment)
    assert match_directive(src.page, d) == (src.page.text.index("def __repr__"),
                                             src.page.text.index("(self):") + len("(self):"))


def test_a_claim_written_again_with_the_same_quote_is_ruled_once(monkeypatch):
    import deep_research.citations.check as check_module

    page = "The bridge opened in 1932. It carries six lanes of traffic. Tolls were removed in 1990."
    quote = '"The bridge opened in 1932."'
    md = (f'The bridge opened in 1932 <ref id="s1">{quote}</ref>.\n\n'
          f'It carries six lanes <ref id="s1">"It carries six lanes of traffic."</ref>.\n\n'
          f'The bridge opened in 1932 <ref id="s1">{quote}</ref>.\n\n'
          f'The bridge opened in 1933 <ref id="s1">{quote}</ref>.\n')
    calls = []
    real = check_module.check_claim

    def counted(claim, quotes):
        calls.append((claim, tuple(quotes)))
        return real(claim, quotes)

    monkeypatch.setattr(check_module, "check_claim", counted)
    report = check_citations(md, [Source("s1", "https://example.org/bridge", page)])
    assert len(calls) == len(set(calls)) == 3
    first, _, again, other = report.citations
    assert again.claim_check == first.claim_check and again.claim_check.status.value == "supported"
    assert other.claim_check.status.value == "unsupported"


def test_a_quote_reads_as_the_report_shows_it():
    """citations.json's ``quote``: references and backslash escapes decoded as CommonMark
    shows them, a code span as written, a control character a reference names an escape."""
    from deep_research.citations.mdscan import shown_text

    assert shown_text(r"a \[b\] &lt;ref&gt; AT&amp;T `x &lt; \[y` \` &#x202e;exe") == \
        "a [b] <ref> AT&T `x &lt; \\[y` ` \\u202eexe"
    assert shown_text("plain `code`") == "plain `code`"

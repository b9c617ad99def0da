"""Source credibility: the scoring rules (search/credibility.py), the settings, the ranking
and the minimum in the researcher's search tool (a scripted run), and what the published
report shows (Sources list in markdown and HTML, citations.json)."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import re
from pathlib import Path

import pytest
from langchain_core.messages import ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from deep_research.citations.model import Source
from deep_research.errors import UserError
from deep_research.publish import publish_report
from deep_research.research.runtime.deps import Deps
from deep_research.research.runtime.failure import ResearchFailed
from deep_research.research.runtime.configuration import Configuration
from deep_research.research.graph import make_graph
from deep_research.search.base import SearchResult
from deep_research.search.credibility import (
    WEIGHTS,
    Credibility,
    CredibilityPolicy,
    normalize_domain,
    published_date,
    rank,
    score_source,
)
from deep_research.search.tavily import TavilySearch
from tests.support.scenario import PAGES
from tests.support.scripted import calls, scripted_factory, tool_call
from tests.research.test_graph import (
    TOPIC_A,
    base_script,
    drive,
    researcher_states,
    start,
    supervisor_rounds,
)

TODAY = dt.date(2026, 11, 24)


def policy(**kw) -> CredibilityPolicy:
    trusted, low = kw.pop("trusted", ()), kw.pop("low", ())
    return CredibilityPolicy.make(trusted, low, today=TODAY, **kw)


# --- scoring rules ----------------------------------------------------------------------
def test_kinds_of_site_give_the_documented_base_scores():
    p = policy()
    neutral = score_source("https://heat-blog.example.com/a", None, p)
    assert neutral == Credibility(WEIGHTS["neutral"] + WEIGHTS["https"], ("https",))
    gov = score_source("https://www.energy.gov/heat", None, p)
    assert gov.score == pytest.approx(0.75)
    assert gov.reasons == ("official or reference site www.energy.gov", "https")
    docs = score_source("https://docs.example.org/guide", None, p)
    assert docs.reasons[0] == "official or reference site docs.example.org"
    forum = score_source("https://www.reddit.com/r/heatpumps/1", None, p)
    assert forum.score == pytest.approx(0.35)
    assert forum.reasons[0] == "forum, Q&A or social media site www.reddit.com"
    assert forum.score < neutral.score < gov.score


def test_https_date_and_metadata_are_small_adjustments():
    p = policy()
    base = score_source("https://example.com/x", None, p).score
    assert score_source("http://example.com/x", None, p).score == pytest.approx(0.40)
    recent = score_source("https://example.com/x", {"published_date": "2026-10-01"}, p)
    assert recent.score == pytest.approx(base + 0.05) and "published 2026-10-01" in recent.reasons
    old = score_source("https://example.com/x", {"published": "Tue, 03 Jan 2012 10:00:00 GMT"}, p)
    assert old.score == pytest.approx(base - 0.05)
    assert "published 2012-01-03, over 5 years old" in old.reasons
    middle = score_source("https://example.com/x", {"published": "2023-01-01"}, p)
    assert middle.score == base  # between two and five years: no effect
    for unusable in ("not a date", "2099-01-01", "", None):  # unreadable or in the future: ignored
        assert score_source("https://example.com/x", {"published": unusable}, p).score == base
    meta = score_source("https://example.com/x", {"author": "Ada Lovelace", "site_name": "Heat Facts"}, p)
    assert meta.score == pytest.approx(base + 0.05 + 0.03)
    assert meta.reasons == ("https", "author named", "site name Heat Facts")
    ip = score_source("http://10.1.2.3/page", None, p)
    assert ip.score == pytest.approx(0.30) and "IP address host" in ip.reasons


def test_user_lists_match_by_domain_suffix_case_and_idna():
    p = policy(trusted=["Docs.Python.org", "bücher.de"], low=["https://Spam.Example.net/some/path"])
    assert score_source("https://docs.python.org/3/library/", None, p).reasons[0] == "trusted domain docs.python.org"
    assert score_source("https://DOCS.PYTHON.ORG./3/", None, p).reasons[0].startswith("trusted domain")
    # the same domain written in Unicode or in its IDNA (punycode) form
    idna = score_source("https://www.xn--bcher-kva.de/buch", None, p)
    assert idna.reasons[0] == "trusted domain www.bücher.de" and idna.score == pytest.approx(0.90)
    assert score_source("https://shop.bücher.de/", None, p).reasons[0].startswith("trusted domain")
    # IDNA 2008 as browsers use it: faß.de is its own domain, not fass.de
    sharp = policy(trusted=["faß.de"])
    assert score_source("https://www.xn--fa-hia.de/", None, sharp).reasons[0] == "trusted domain www.faß.de"
    assert not score_source("https://fass.de/", None, sharp).reasons[0].startswith("trusted")
    # a suffix is a whole label: notpython.org is not python.org
    assert not score_source("https://notdocs.python.org.evil.com/", None, p).reasons[0].startswith("trusted")
    low = score_source("https://a.spam.example.net/x", {"author": "x", "published": "2026-11-01"}, p)
    assert low.reasons[0] == "low-trust domain a.spam.example.net"
    assert low.score <= WEIGHTS["low_trust_ceiling"]  # bonuses cannot lift a distrusted domain


def test_configured_lists_override_the_built_in_lists():
    p = policy(trusted=["reddit.com"], low=["energy.gov"])
    reddit = score_source("https://www.reddit.com/r/heatpumps", None, p)
    assert reddit.reasons[0] == "trusted domain www.reddit.com" and reddit.score == pytest.approx(0.90)
    gov = score_source("https://www.energy.gov/x", None, p)
    assert gov.reasons[0] == "low-trust domain www.energy.gov" and gov.score == pytest.approx(0.20)
    # the most specific entry wins between the two lists
    both = policy(trusted=["example.com"], low=["forum.example.com"])
    assert score_source("https://forum.example.com/t/1", None, both).reasons[0].startswith("low-trust")
    assert score_source("https://www.example.com/", None, both).reasons[0].startswith("trusted")
    # the built-in lists themselves can be replaced
    own = CredibilityPolicy.make(forum_domains=["example.org"], reference_domains=[], today=TODAY)
    assert score_source("https://www.example.org/", None, own).reasons[0].startswith("forum")
    assert score_source("https://www.reddit.com/", None, own).reasons == ("https",)


def test_local_documents_get_the_configured_score():
    p = policy(local_score=0.7)
    local = score_source("file:///home/me/notes/a.html", None, p, local=True)
    assert local == Credibility(0.7, ("local corpus document, chosen by you",))
    assert score_source("file:///x", None, policy(), local=True).score == 0.9
    assert score_source("not a url", None, policy()).reasons == ("no web address",)


@pytest.mark.parametrize("bad", ["", "  ", "exa mple.com", "a/b", "user@example.com", "a..b", "-bad-.com"])
def test_bad_domain_entries_are_refused_with_their_text(bad):
    with pytest.raises(ValueError) as e:
        normalize_domain(bad)
    assert repr(bad) in str(e.value)


def test_published_date_formats():
    assert published_date({"published_date": "2026-03-04T10:00:00Z"}) == dt.date(2026, 3, 4)
    assert published_date({"published": "2026-03-04 10:00"}) == dt.date(2026, 3, 4)
    assert published_date({"date": dt.datetime(2020, 1, 2, 3, 4)}) == dt.date(2020, 1, 2)
    assert published_date({"published": "yesterday"}) is None
    assert published_date(None) is None


def test_rank_blends_search_position_and_credibility():
    items = ["forum", "blog", "gov", "spam"]
    assert rank(items, [0.2, 0.55, 0.85, 0.05]) == ["gov", "blog", "forum", "spam"]
    assert rank(items, [0.5, 0.5, 0.5, 0.5]) == items  # equal credibility: the search order
    assert rank(["a", "b"], [0.3, 0.8]) == ["a", "b"]  # a tie (0.65 each) keeps the search order
    assert rank(["a", "b"], [0.3, 0.81]) == ["b", "a"]
    with pytest.raises(ValueError):
        rank(items, [0.5])


# --- settings -----------------------------------------------------------------------------
def test_settings_from_the_environment_and_the_run():
    env = {"DEEP_RESEARCH_TRUSTED_DOMAINS": "Docs.Python.org, bücher.de", "DEEP_RESEARCH_MIN_SOURCE_CREDIBILITY": "0.4",
           "DEEP_RESEARCH_LOW_TRUST_DOMAINS": '["spam.example"]'}
    cfg = Configuration.resolve(None, {}, environ=env)
    assert cfg.trusted_domains == ["docs.python.org", "xn--bcher-kva.de"]
    assert cfg.low_trust_domains == ["spam.example"] and cfg.min_source_credibility == 0.4
    assert cfg.local_source_credibility == 0.9
    run = Configuration.resolve(None, {"trusted_domains": ["nature.com"], "min_source_credibility": 0}, environ=env)
    assert run.trusted_domains == ["nature.com"] and run.min_source_credibility == 0
    for field, value in (("min_source_credibility", 1.5), ("trusted_domains", ["not a domain"]),
                         ("low_trust_domains", [3]), ("local_source_credibility", -0.1)):
        with pytest.raises(UserError) as e:
            Configuration.resolve(None, {field: value}, environ={})
        assert field in str(e.value)
    for field in ("trusted_domains", "low_trust_domains", "min_source_credibility", "local_source_credibility"):
        assert Configuration.model_fields[field].description  # shown in Studio


def test_cli_options_set_the_settings(capsys):
    from deep_research.cli import main
    from deep_research.cli.settings import context_from_options

    ctx = context_from_options(trusted_domain=["docs.python.org", "nature.com"], low_trust_domain=["x.com"],
                                min_credibility=0.5)
    assert ctx == {"trusted_domains": ["docs.python.org", "nature.com"], "low_trust_domains": ["x.com"],
                   "min_source_credibility": 0.5}
    assert context_from_options(trusted_domain=[], low_trust_domain=[], min_credibility=None) == {}
    assert main(["research", "q", "--min-credibility", "2"]) == 2  # a user error, checked by Configuration
    assert "--min-credibility: must be at most 1" in capsys.readouterr().err


def test_the_research_command_passes_the_options_on(monkeypatch):
    from typer.testing import CliRunner

    import deep_research.cli.research as cli_research
    from deep_research.cli import app

    seen = []

    async def fake_run(question, context, *args, **kwargs):
        seen.append(context)
        return 0

    monkeypatch.setattr(cli_research, "_run_research", fake_run)
    args = ["research", "q", "--trusted-domain", "energy.gov", "--trusted-domain", "iea.org",
            "--low-trust-domain", "x.com", "--min-credibility", "0.3", "--local-credibility", "0.7",
            "--search", "none"]
    assert CliRunner().invoke(app, args).exit_code == 0
    assert CliRunner().invoke(app, ["research", "q", "--search", "none"]).exit_code == 0
    assert seen == [{"search_api": "none", "trusted_domains": ["energy.gov", "iea.org"], "low_trust_domains": ["x.com"],
                     "min_source_credibility": 0.3, "local_source_credibility": 0.7}, {"search_api": "none"}]


def test_tavily_published_date_reaches_the_result():
    class Client:
        async def search(self, query, **kw):
            return {"results": [{"url": "https://a.example/x", "title": "A", "content": "c", "raw_content": "page",
                                 "published_date": "Mon, 10 Nov 2026 08:00:00 GMT"},
                                {"url": "https://b.example/y", "title": "B", "content": "c", "raw_content": "page"}]}

    results = asyncio.run(TavilySearch(None, client=Client()).search("q"))
    assert results[0].metadata == {"published_date": "Mon, 10 Nov 2026 08:00:00 GMT"}
    assert results[1].metadata == {}
    assert "published 2026-11-10" in score_source(results[0].url, results[0].metadata, policy()).reasons


# --- the search tool in a scripted run ----------------------------------------------------------
def page_text(name: str) -> str:
    title, sentences = PAGES[name]
    return f"{title}\n\n" + "\n\n".join(sentences)


SPAM = "Buy the best heat pump deals online today with our unbeatable discount codes for every brand."
WEB = [  # in the search engine's order
    SearchResult("http://www.reddit.com/r/heatpumps/basics", "Reddit: how heat pumps work",
                 page_text("heat-pump-basics.html"), "text"),
    SearchResult("https://heat-blog.example.com/costs", "A blog on costs", page_text("costs.html"), "text"),
    SearchResult("https://www.energy.gov/heat-pumps-cold", "Heat pumps in cold climates",
                 page_text("cold-climates.html"), "text",
                 metadata={"published_date": "2026-10-01", "author": "Office of Energy Efficiency"}),
    SearchResult("http://deals.spam.example/heat", "Deals", f"Heat pump deals\n\n{SPAM}", "text"),
]
EXPECTED = {  # from the documented rules
    WEB[0].url: 0.20, WEB[1].url: 0.55, WEB[2].url: 0.85, WEB[3].url: 0.05,
}


class FakeWeb:
    name = "fake-web"

    def __init__(self):
        self.queries = []

    async def search(self, query: str, *, max_results: int = 5):
        self.queries.append(query)
        return list(WEB[:max_results])


def run(tmp_path: Path, hook=None, **settings):
    script = base_script()
    if hook:
        hook(script)
    supervisor_rounds(script, {1: calls(tool_call("ConductResearch", topic=TOPIC_A)),
                               2: calls(tool_call("ResearchComplete"))})
    web = FakeWeb()
    deps = Deps(model_factory=scripted_factory(script), search_factory=lambda cfg: web, today=lambda: TODAY)
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    ctx = {"allow_clarification": False, "search_api": "tavily", "output_dir": str(tmp_path / "reports"),
           "write_pdf": False, **settings}
    try:
        values = asyncio.run(drive(graph, start(), ctx)).values
    except ResearchFailed as e:  # no research unit found anything
        values = {"failed": e}
    (researcher,) = researcher_states(graph)
    [tool_message] = [m for m in researcher["researcher_messages"] if isinstance(m, ToolMessage)]
    return values, tool_message.content


def test_search_results_are_ranked_by_credibility_and_the_minimum_drops_and_tells(tmp_path):
    values, shown = run(tmp_path, low_trust_domains=["spam.example"], min_source_credibility=0.1)
    assert values["status"] == "completed"
    # the researcher sees the pages ranked: energy.gov (3rd in search, 0.85) first, then the
    # blog (2nd, 0.55), then reddit (1st, but a forum without https: 0.20)
    order = [shown.index(f'url="{r.url}"') for r in WEB[:3]]
    assert order[2] < order[1] < order[0]
    assert 'url="http://deals.spam.example/heat"' not in shown
    assert ("1 result(s) below the minimum source credibility 0.10 were left out: http://deals.spam.example/heat "
            "(credibility 0.05 \u2014 low-trust domain deals.spam.example, no https).") in shown
    assert "credibility 0.85 \u2014 official or reference site www.energy.gov, https, published 2026-10-01, " \
           "author named" in shown
    # every kept source carries its score and reasons; the dropped one was never read
    by_url = {m["url"]: m for m in values["sources"].values()}
    assert set(by_url) == {r.url for r in WEB[:3]}
    for url, meta in by_url.items():
        assert meta["credibility"]["score"] == pytest.approx(EXPECTED[url])
        assert meta["credibility"]["reasons"]
    assert SPAM not in json.dumps(values.get("round_results", ""))
    dropped = [d for d in values["degradations"] if "min_source_credibility" in d["message"]]
    assert dropped and dropped[0]["urls"] == ["http://deals.spam.example/heat"]
    # the published report: citations.json and the Sources lists show it
    out = values["outputs"]
    citations = json.loads(Path(out["citations"]).read_text(encoding="utf-8"))
    assert citations and all(c["source_credibility"]["score"] == pytest.approx(EXPECTED[c["url"].split("#")[0]])
                             for c in citations)
    report_md = Path(out["markdown"]).read_text(encoding="utf-8")
    assert "www.energy.gov/heat-pumps-cold \u2014 credibility 0.85 (official or reference site www.energy.gov, " \
           "https, published 2026-10-01, author named)" in report_md
    html = Path(out["html"]).read_text(encoding="utf-8")
    assert 'class="source-credibility">&mdash; credibility 0.20 (forum, Q&amp;A or social media site ' \
           "www.reddit.com, no https)</span>" in html


def test_without_a_minimum_every_result_is_read(tmp_path):
    values, shown = run(tmp_path, low_trust_domains=["spam.example"])
    assert 'url="http://deals.spam.example/heat"' in shown and "left out" not in shown
    assert len(values["sources"]) == 4


def test_a_search_whose_every_result_is_below_the_minimum_tells_the_researcher(tmp_path):
    values, shown = run(tmp_path, min_source_credibility=0.95)
    assert shown.startswith("No usable results for ")
    assert "4 result(s) below the minimum source credibility 0.95 were left out" in shown
    assert "ResearchFailed" not in shown and isinstance(values["failed"], ResearchFailed)
    assert "below min_source_credibility 0.95" in values["failed"].message


# --- publishing -----------------------------------------------------------------------------
def test_sources_list_and_citations_json_show_credibility(tmp_path):
    text = "Heat pumps move heat from a cold place to a warm place."
    sources = [Source("s1", "https://docs.python.org/a", text, "Docs", "text",
                      credibility={"score": 0.9, "reasons": ["trusted domain docs.python.org", "https"]}),
               Source("s2", "https://example.com/b", text + " More.", "Unscored", "text")]
    md = ('# R\n\nHeat pumps move heat <ref id="s1">"Heat pumps move heat from a cold place to a warm place."</ref> '
          'and more <ref id="s2">"Heat pumps move heat from a cold place to a warm place. More."</ref>.\n')
    result = publish_report(md, sources, tmp_path / "out", pdf=False)
    report = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    linked = (tmp_path / "out" / "report.linked.md").read_text(encoding="utf-8")
    for text_ in (report, linked):
        assert "https://docs.python.org/a \u2014 credibility 0.90 (trusted domain docs.python.org, https)" in text_
        [unscored] = [line for line in text_.splitlines() if line.startswith("[2] Unscored")]
        assert "https://example.com/b" in unscored and "credibility" not in unscored
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert html.count('class="source-credibility"') == 1
    data = json.loads(result.files["citations"].read_text(encoding="utf-8"))
    assert [c["source_credibility"] for c in data] == [
        {"score": 0.9, "reasons": ["trusted domain docs.python.org", "https"]}, None]


def test_hostile_credibility_text_is_shown_as_text(tmp_path):
    text = "Heat pumps move heat from a cold place to a warm place."
    evil = {"score": 0.5, "reasons": ["site name [click](javascript:alert(1)) <script>x</script>"]}
    sources = [Source("s1", "https://a.example/", text, "A", "text", credibility=evil)]
    md = '# R\n\nHeat pumps <ref id="s1">"Heat pumps move heat from a cold place to a warm place."</ref>.\n'
    publish_report(md, sources, tmp_path / "out", pdf=False)
    for name in ("report.md", "report.linked.md"):
        out = (tmp_path / "out" / name).read_text(encoding="utf-8")
        assert "\\[click\\](javascript:alert(1)) \\<script\\>x\\</script\\>" in out  # escaped: shown as text
        assert not re.search(r"(?<!\\)<script|(?<!\\)\]\(javascript:", out)
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "<script>x" not in html and 'href="javascript:' not in html
    assert "[click](javascript:alert(1)) &lt;script&gt;x&lt;/script&gt;" in html


def test_a_sources_file_may_carry_the_credibility():
    from deep_research.inputs import parse_sources

    item = {"id": "a", "url": "https://a.example/", "content": "Text."}
    loaded = parse_sources([{**item, "credibility": {"score": 0.7, "reasons": ["https"]}}])
    assert loaded.sources[0].credibility == {"score": 0.7, "reasons": ["https"]}
    assert parse_sources([item]).sources[0].credibility is None
    for bad in ({"score": 2}, {"score": "high"}, {"score": 0.5, "reasons": "https"}, [0.5], {"score": True}):
        with pytest.raises(UserError) as e:
            parse_sources([{**item, "credibility": bad}])
        assert "item 1 (id 'a'): \"credibility\" must be" in str(e.value)


def test_brief_search_context_leaves_out_results_below_the_minimum(tmp_path):
    from tests.support.scripted import structured
    from tests.research.test_graph import BRIEF, recording

    briefs: list[str] = []

    def record_brief(script):
        script.on("research", "Turn the conversation into a research brief",
                  recording(briefs, structured("ResearchQuestion", research_brief=BRIEF)), repeat=True)
        script.rules.insert(0, script.rules.pop())  # before the script's own brief rule

    # the brief's search asks for 3 results: reddit, made low-trust (0.05), is below 0.1
    values, _ = run(tmp_path, record_brief, brief_search=True, low_trust_domains=["reddit.com"],
                    min_source_credibility=0.1)
    assert values["status"] == "completed" and briefs
    assert "- Heat pumps in cold climates: " in briefs[0] and "- Reddit: " not in briefs[0]
    assert any("1 search result(s) below min_source_credibility 0.10 left out of the" in d["message"]
               for d in values["degradations"])
    # without a minimum the context keeps it
    briefs.clear()
    run(tmp_path / "2", record_brief, brief_search=True, low_trust_domains=["reddit.com"])
    assert "- Reddit: " in briefs[0]

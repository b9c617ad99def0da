"""Sources as a run keeps them: credentials in a page's URL never kept nor shown."""

from __future__ import annotations

from deep_research.research.runtime.sources import result_source_id, source_id_for, without_credentials
from deep_research.search.base import SearchResult

RAW = "https://alice:pw-s3cret@intranet.example/report?token=tk-s3cret&x=1"


def test_a_page_titled_with_its_url_has_the_title_masked_too():
    """A page without a title is titled with its URL (the page fetcher for a named page,
    Tavily for an untitled result): the URL was masked and the title, the same URL, was
    kept as found, shown in the Sources list of every output and in citations.json."""
    r = without_credentials(SearchResult(RAW, RAW, "Some text.", "text"))
    assert "s3cret" not in r.url and "s3cret" not in r.title
    assert r.title == r.url == "https://alice:***@intranet.example/report?token=***&x=1"
    assert result_source_id(r) == source_id_for(RAW)  # the id of the URL as found, as before
    plain = SearchResult("https://example.org/a", "A page about https://example.org/b", "Text.", "text")
    assert without_credentials(plain) is plain  # nothing to mask: the same result

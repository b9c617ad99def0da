"""When the searches worked but found nothing on the question, the run writes a short report
that says so (no citations) instead of failing; real failures still fail."""

from deep_research.research.report.writer import NO_SOURCES, nothing_found

LOG = [{"topic": "Boiling point of liquid nitrogen on Mars", "ok": False, "citations": 0, "error": "x"}]


def test_searches_that_found_nothing_count_as_nothing_found():
    assert nothing_found({"research_log": LOG, "errors": [{"stage": "researcher", "message": NO_SOURCES}]})
    assert nothing_found({"research_log": LOG, "errors": []})  # findings without a single citation


def test_failures_and_budget_stops_are_not_nothing_found():
    assert not nothing_found({"research_log": [], "errors": []})  # no research at all
    assert not nothing_found({"research_log": LOG, "budget_exhausted": True, "errors": []})
    for message in ("research unit failed: RateLimitError: 429",
                    NO_SOURCES + " (search failed: timeout)"):  # the search itself failed
        assert not nothing_found({"research_log": LOG, "errors": [{"stage": "researcher", "message": message}]})

"""The claim judge's model side (research.report.claim_judge): its answers are bounded
before they are read, a second judge (another model) must agree, and both judges' calls
are bounded, allowed and priced like any model's."""

from __future__ import annotations

import asyncio

import httpx
import openai
import pytest

from deep_research.citations.check import check_citations, check_claims
from deep_research.citations.claims import ClaimStatus
from deep_research.citations.judgement import MAX_FACTS, MAX_SPAN_CHARS, MAX_SPANS
from deep_research.citations.model import Source
from deep_research.errors import UserError
from deep_research.research.report import claim_judge
from deep_research.research.runtime.configuration import Configuration
from deep_research.research.runtime.deps import Deps, NodeContext
from deep_research.research.runtime.meter import Meter
from tests.support.scenario import judge_items
from tests.support.scripted import Script, scripted_factory, structured

# Django's documentation (topics/db/transactions), and claims a person wrote about it.
PAGE = ("Django gives you a few ways to control how database transactions are managed. "
        "Django’s default behavior is to run in autocommit mode. Each query is immediately committed to the "
        "database, unless a transaction is active. Django’s TestCase class also wraps each test in a "
        "transaction for performance reasons.")
QUOTE = "Django’s default behavior is to run in autocommit mode."
CLAIM = "By default, Django runs in autocommit mode."  # correct, and the rules leave it unchecked
WRONG = "By default, Django runs in manual commit mode."
REPORT = (f'# Transactions\n\n{CLAIM[:-1]} <ref id="dj">"{QUOTE}"</ref>.\n\n'
          f'{WRONG[:-1]} <ref id="dj">"{QUOTE}"</ref>.\n')
SOURCES = [Source("dj", "https://docs.djangoproject.com/en/5.0/topics/db/transactions/", PAGE)]


def checkable(claim: str, quotes: list[str]) -> list[dict]:
    """The evidence a careful judge gives: the quote, and what it restates."""
    return [{"fact": claim, "spans": quotes, "aligned": []}]


def answer(verdicts_by_claim: dict[str, str]):
    def judge(messages):
        return structured("ClaimVerdicts", verdicts=[
            {"item": n, "verdict": verdicts_by_claim.get(claim, "abstain"), "reason": "scripted",
             "facts": checkable(claim, quotes)} for n, claim, quotes in judge_items(messages)])
    return judge


def run(script: Script, **settings):
    report = check_citations(REPORT, SOURCES)
    cfg = Configuration(**settings)
    ctx = NodeContext("check_citations", cfg, Deps(model_factory=scripted_factory(script)), {}, None,
                      Meter("check_citations", max_retries=0, structured_retries=0))
    records, problems, calls = asyncio.run(claim_judge.judge_claims(ctx, report, {}, cfg.max_judge_calls))
    check_claims(report, records)
    status = {c.claim.text: c for c in report.citations}
    return status, records, problems, calls, ctx


def test_the_rules_leave_both_claims_to_the_judge():
    report = check_citations(REPORT, SOURCES)
    assert [c.claim_status for c in report.citations] == [ClaimStatus.UNCHECKED] * 2


def test_one_judge_green_needs_checked_evidence_orange_needs_no_invented_text():
    s = Script().on("citation_check", "You check a research report's claims",
                    answer({CLAIM: "supports", WRONG: "supports"}), repeat=True)
    cites, records, problems, calls, _ = run(s)
    assert calls == 1 and not problems
    assert (cites[CLAIM].claim_status, cites[CLAIM].claim_check.rule) == (ClaimStatus.SUPPORTED, "judge:checked")
    assert cites[CLAIM].decided_by == "judge"
    # the judge is wrong on the second claim, and code catches it: "manual" is not in the span
    assert cites[WRONG].claim_status is ClaimStatus.UNCHECKED
    assert "manual" in cites[WRONG].claim_check.note
    assert set(records[next(iter(records))]) >= {"verdict", "reason", "facts", "model"}
    assert records[next(iter(records))]["model"] == "openai:gpt-4.1-mini"


def test_hostile_answers_are_cut_before_they_are_read():
    huge = "<script>alert(1)</script>" + "x" * 200_000

    def hostile(messages):
        items = judge_items(messages)
        junk = [{"item": 99, "verdict": "supports"}, {"item": -1, "verdict": "supports"}] * 5_000
        first = {"item": 1, "verdict": "SUPPORTS", "reason": huge,
                 "facts": [{"fact": huge, "spans": [items[0][2][0], huge] * 500, "aligned": [["a", "b"]] * 900}] * 500}
        twice = [{"item": 2, "verdict": "supports", "facts": checkable(*items[1][1:])},
                 {"item": 2, "verdict": "contradicts"}]
        return structured("ClaimVerdicts", verdicts=[first, *twice, *junk])

    s = Script().on("citation_check", "You check a research report's claims", hostile, repeat=True)
    cites, records, problems, _, _ = run(s)
    assert not problems and len(records) == 2
    for rec in records.values():
        assert len(rec["facts"]) <= MAX_FACTS and len(rec["reason"]) <= 300
        assert all(len(f["spans"]) <= MAX_SPANS and all(len(x) <= MAX_SPAN_CHARS for x in f["spans"])
                   for f in rec["facts"])
    by_verdict = sorted(r["verdict"] for r in records.values())
    assert by_verdict == ["abstain", "supports"]  # item 2 answered twice: no answer
    assert cites[WRONG].claim_status is ClaimStatus.UNCHECKED  # the twice-answered item stays grey
    # "SUPPORTS" read as supports; its evidence holds the quote (found) and junk (not): grey, never green
    assert cites[CLAIM].claim_status is ClaimStatus.UNCHECKED and cites[CLAIM].claim_check.rule == "judge:evidence_failed"


def second_judge_script(second) -> Script:
    s = Script().on("citation_check", "You check a research report's claims", answer({CLAIM: "supports",
                                                                                      WRONG: "contradicts"}),
                    repeat=True)
    s.on("judge_second", "You check a research report's claims", second, repeat=True)
    return s


def test_a_second_judge_must_agree():
    cites, records, problems, calls, _ = run(
        second_judge_script(answer({CLAIM: "supports", WRONG: "contradicts"})), judge_second_model="openai:o4-mini")
    assert calls == 2 and not problems
    assert cites[CLAIM].claim_status is ClaimStatus.SUPPORTED and cites[WRONG].claim_status is ClaimStatus.UNSUPPORTED
    rec = next(r for r in records.values() if r["verdict"] == "supports")
    assert rec["second"]["model"] == "openai:o4-mini" and rec["second"]["verdict"] == "supports"
    # they disagree: grey
    cites, *_ = run(second_judge_script(answer({CLAIM: "contradicts", WRONG: "supports"})),
                    judge_second_model="openai:o4-mini")
    assert cites[CLAIM].claim_check.rule == "judge:disagree"
    # on the wrong claim the second judge's "supports" fails the evidence check: grey either way
    assert cites[WRONG].claim_check.rule == "judge:evidence_failed" and "second judge" in cites[WRONG].claim_check.note
    assert {cites[c].claim_status for c in (CLAIM, WRONG)} == {ClaimStatus.UNCHECKED}


def test_a_failing_second_judge_leaves_its_claims_grey_and_says_so():
    down = openai.InternalServerError("second judge down (injected)", body=None,
                                      response=httpx.Response(503, request=httpx.Request("POST", "http://x")))
    cites, records, problems, calls, _ = run(second_judge_script(down), judge_second_model="openai:o4-mini",
                                             max_retries=0)
    assert calls == 2 and all(r["second"] is None for r in records.values())
    assert cites[CLAIM].claim_status is ClaimStatus.UNCHECKED and "second judge" in cites[CLAIM].claim_check.note
    assert cites[WRONG].claim_status is ClaimStatus.UNCHECKED
    assert any("second claim judge (openai:o4-mini) failed" in p["message"] for p in problems)


def test_both_judges_count_against_the_call_bound():
    s = second_judge_script(answer({CLAIM: "supports"}))
    _, records, problems, calls, _ = run(s, judge_second_model="openai:o4-mini", max_judge_calls=1)
    assert calls == 0 and records == {} and s.calls == {}  # one call cannot ask both judges
    assert any("were not judged" in p["message"] for p in problems)


def test_the_second_judge_is_allowed_and_priced_like_any_model():
    env = {"DEEP_RESEARCH_ALLOWED_MODELS": "openai:gpt-4.1*"}
    with pytest.raises(UserError, match="judge_second_model"):
        Configuration.resolve({"configurable": {"judge_second_model": "anthropic:claude-x"}}, environ=env)
    assert Configuration.resolve({"configurable": {"judge_second_model": "openai:gpt-4.1-nano"}},
                                 environ=env).judge_second_spec()["role"] == "judge_second"
    with pytest.raises(UserError, match=r"no price is known for openai:my-judge \(judge_second_model\)"):
        Configuration.resolve({"configurable": {"judge_second_model": "openai:my-judge", "max_cost_usd": 1}},
                              environ={})
    priced = Configuration.resolve({"configurable": {"judge_second_model": "openai:my-judge", "max_cost_usd": 1,
                                                     "model_prices": {"my-judge": [100.0, 400.0]}}}, environ={})
    assert priced.fallback_price() == (100.0, 400.0)  # the most expensive model bounds an unpriced call
    assert Configuration(judge_second_model="  ").judge_second_spec() is None

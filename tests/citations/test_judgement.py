"""A judge's verdicts become claim checks only as far as code can check them
(citations.judgement): green needs evidence that check_judge_evidence passes; orange needs
no invented text; everything else, and everything hostile, stays grey and bounded."""

from __future__ import annotations

import json

from deep_research.citations.check import check_citations
from deep_research.citations.claims import ClaimStatus
from deep_research.citations.evidence import claim_key
from deep_research.citations.judgement import (
    MAX_FACTS,
    MAX_NOTE_CHARS,
    MAX_SPAN_CHARS,
    MAX_SPANS,
    bound_vote,
    decide,
)
from deep_research.citations.model import Source
from deep_research.publish import publish_report

# A sentence of the PostgreSQL manual (btree-implementation) and claims about it.
QUOTE = "Typically, over 99% of all pages are leaf pages."
RIGHT = "Typically, more than 99% of all pages are leaf pages."
WRONG_NUMBER = "Typically, over 90% of all pages are leaf pages."
WRONG_WORD = "Typically, over 99% of all pages are internal pages."


def vote(verdict: str, claim: str = RIGHT, spans=(QUOTE,), aligned=(("more", "over"),), reason: str = "r") -> dict:
    return {"verdict": verdict, "reason": reason, "model": "scripted:judge",
            "facts": [{"fact": claim, "spans": list(spans), "aligned": [list(p) for p in aligned]}]}


def test_supports_is_green_only_when_code_checks_its_evidence():
    check, account = decide(vote("supports"), RIGHT, [QUOTE])
    assert (check.status, check.rule) == (ClaimStatus.SUPPORTED, "judge:checked")
    assert account["outcome"] == "supported" and account["votes"][0]["evidence"]["ok"] is True
    assert account["votes"][0]["evidence"]["spans_found"] == [[0, 0, len(QUOTE)]]
    # the account reads as a sentence in citations.json ("the judge its evidence passed ..." did not)
    assert account["why"] == "the judge says it supports, and its evidence passed the code check"
    # the same "supports" on a claim whose number the span does not state
    check, account = decide(vote("supports", WRONG_NUMBER, aligned=()), WRONG_NUMBER, [QUOTE])
    assert (check.status, check.rule) == (ClaimStatus.UNCHECKED, "judge:evidence_failed")
    assert "90%" in check.note and account["votes"][0]["evidence"]["ok"] is False
    # a word the judge aligns with a span word that does not restate it
    check, _ = decide(vote("supports", WRONG_WORD, aligned=(("internal", "leaf"),)), WRONG_WORD, [QUOTE])
    assert check.status is ClaimStatus.UNCHECKED and "internal" in check.note
    # no facts, or facts without spans: nothing to check, nothing green
    for record in ({"verdict": "supports", "reason": "trust me"},
                   {"verdict": "supports", "facts": [{"fact": RIGHT, "spans": []}]}):
        assert decide(record, RIGHT, [QUOTE])[0].status is ClaimStatus.UNCHECKED


def test_text_that_is_not_in_the_quotes_is_trusted_in_neither_direction():
    invented = "Typically, over 99% of all pages are leaf pages in a fresh index."
    check, _ = decide(vote("supports", spans=[invented]), RIGHT, [QUOTE])
    assert check.status is ClaimStatus.UNCHECKED and "not in the quotes" in check.note
    check, _ = decide(vote("contradicts", WRONG_NUMBER, spans=["over 90% of all pages"], aligned=()),
                      WRONG_NUMBER, [QUOTE])
    assert (check.status, check.rule) == (ClaimStatus.UNCHECKED, "judge:bad_span")
    # the same verdict pointing at what the quote really says flags the claim (orange)
    check, account = decide(vote("contradicts", WRONG_NUMBER, spans=["over 99% of all pages"], aligned=()),
                            WRONG_NUMBER, [QUOTE])
    assert (check.status, check.rule) == (ClaimStatus.UNSUPPORTED, "judge")
    assert account["votes"][0]["outcome"] == "unsupported"
    # a contradiction may rest on an absence: no span at all is no invented span
    assert decide({"verdict": "contradicts"}, WRONG_NUMBER, [QUOTE])[0].status is ClaimStatus.UNSUPPORTED


def test_partly_flags_abstain_and_nonsense_stay_grey():
    check, _ = decide(vote("partly", spans=["over 99% of all pages"]), RIGHT + " They are never split.", [QUOTE])
    assert (check.status, check.rule) == (ClaimStatus.UNSUPPORTED, "judge:partly")
    for record in ({"verdict": "abstain", "reason": "cannot tell"}, {"verdict": "SUPPORTS!"}, {"verdict": None},
                   None, "supports", ["supports"], {"verdict": ["supports"]}):
        check, account = decide(record, RIGHT, [QUOTE])
        assert check.status is ClaimStatus.UNCHECKED, record
        assert account["votes"][0]["verdict"] == "abstain"


def test_two_judges_must_agree():
    good, bad_evidence = vote("supports"), vote("supports", spans=["leaf pages are rare"])
    contra = vote("contradicts", spans=["over 99% of all pages"], aligned=())
    assert decide({**good, "second": good}, RIGHT, [QUOTE])[0].status is ClaimStatus.SUPPORTED
    check, account = decide({**good, "second": contra}, RIGHT, [QUOTE])
    assert (check.status, check.rule) == (ClaimStatus.UNCHECKED, "judge:disagree")
    assert [v["outcome"] for v in account["votes"]] == ["supported", "unsupported"]
    check, _ = decide({**good, "second": None}, RIGHT, [QUOTE])  # the second judge failed
    assert (check.status, check.rule) == (ClaimStatus.UNCHECKED, "judge:abstain")
    assert "second judge" in check.note
    assert decide({**good, "second": bad_evidence}, RIGHT, [QUOTE])[0].rule == "judge:evidence_failed"
    check, _ = decide({**contra, "second": contra}, WRONG_NUMBER, [QUOTE])
    assert check.status is ClaimStatus.UNSUPPORTED


def test_hostile_votes_are_bounded_and_inert():
    huge = "x" * 2_000_000
    span = QUOTE + "\u202e<script>alert(1)</script>\x00" + huge
    raw = {"verdict": "supports", "reason": "<img src=x onerror=alert(1)>\u2066" + huge, "model": huge,
           "facts": [{"fact": huge, "spans": [span] * 10_000,
                      "aligned": [["a", "b", "c"], "ab", {"a": 1}, ["ok", huge], ["more", "over"]] * 1000}]
           * 10_000 + ["not a fact"]}
    v = bound_vote(raw)
    assert len(v["facts"]) == MAX_FACTS and all(len(f["spans"]) == MAX_SPANS for f in v["facts"])
    assert all(len(s) <= MAX_SPAN_CHARS and "\u202e" not in s and "\x00" not in s
               for f in v["facts"] for s in f["spans"])
    assert all(len(p) == 2 and len(p[1]) <= 60 for f in v["facts"] for p in f["aligned"])
    assert len(v["reason"]) <= 300 and "\u2066" not in v["reason"] and len(v["model"]) <= 120
    check, account = decide(raw, RIGHT, [QUOTE])
    assert check.status is ClaimStatus.UNCHECKED and len(check.note) <= MAX_NOTE_CHARS
    assert len(json.dumps(account)) < 200_000


REPORT = """# B-trees

In practice almost every page of a B-tree is a leaf page <ref id="pg">"Typically, over 99% of all pages are leaf pages."</ref>.

Typically, over 99% of all pages are leaf pages <ref id="pg">"Typically, over 99% of all pages are leaf pages."</ref>.
"""
PAGE = ("PostgreSQL B-Tree indexes are multi-level tree structures. Typically, over 99% of all pages are leaf "
        "pages. Both internal pages and leaf pages use the standard page format.")


def test_outputs_record_every_vote_and_its_check(tmp_path):
    sources = [Source("pg", "https://www.postgresql.org/docs/15/btree-implementation.html", PAGE)]
    plain = check_citations(REPORT, sources)
    paraphrase, copy = plain.citations
    assert paraphrase.claim_status is ClaimStatus.UNCHECKED and copy.claim_status is ClaimStatus.SUPPORTED
    claim = paraphrase.claim.text
    judgments = {claim_key(claim, [QUOTE]): {
        "verdict": "supports", "reason": "most pages are leaves", "model": "scripted:judge",
        "facts": [{"fact": claim, "spans": ["over 99% of all pages are leaf pages"],
                   "aligned": [["almost", "over"], ["every", "all"]]}]},
        claim_key(copy.claim.text, [QUOTE]): {"verdict": "contradicts"}}  # rules win: never applied
    publish_report(REPORT, sources, tmp_path, pdf=False, judgments=judgments)
    cites = json.loads((tmp_path / "citations.json").read_text())
    audit = json.loads((tmp_path / "audit.json").read_text())
    judged, ruled = cites
    assert judged["claim_status"] == "unchecked" and judged["claim_rule"] == "judge:evidence_failed"
    assert judged["claim_decided_by"] is None
    votes = judged["judge"]["votes"]
    assert votes[0]["verdict"] == "supports" and votes[0]["facts"][0]["spans"] == [
        "over 99% of all pages are leaf pages"]
    assert votes[0]["evidence"]["ok"] is False and votes[0]["evidence"]["problems"]
    assert ruled["claim_status"] == "supported" and ruled["judge"] is None and ruled["claim_decided_by"] == "code"
    assert audit["claims"][0]["judge"] == judged["judge"] and audit["claims"][0]["decided_by"] is None
    assert audit["summary"]["claims_judged"] == 1 and audit["summary"]["judge_evidence_failed"] == 1

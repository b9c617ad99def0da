"""A judge model's verdicts on claims, made safe and checked by code: from what the judge
said to the claim check a reader sees. Pure (no model, no LangGraph).

The judge decomposes a claim into atomic facts and, for each, copies the exact span(s) of
the quotes that state it (optionally aligning claim words with span words), then gives a
verdict: ``supports`` | ``partly`` | ``contradicts`` | ``abstain``. Everything it says is
untrusted and bounded first (:func:`bound_vote`): sizes, list lengths, control characters.

What each verdict becomes (:func:`decide`):

* ``supports`` is **green** (``supported``) only when code has checked its evidence
  (:func:`citations.claims.check_judge_evidence`: each span is in the quotes, every
  number, name and negation of the claim sits in some cited span, every other word is in
  a span or aligned to a span word that restates it). Evidence that fails the
  check leaves the claim ``unchecked`` (grey), with the check's problems as its note.
* ``contradicts`` and ``partly`` mark the claim ``unsupported`` (orange): the safe direction
  (the claim is flagged, sent to the fix agent, kept out of "Verified findings"), so code
  does not have to prove the contradiction. Code checks one thing there: every span the
  judge cites must be in the quotes. A judge that cites text the quotes do not hold is not
  trusted either way; the claim stays grey. A flag is shown, not proven: evaluation counts
  it as unchecked (``Citation.decided_by`` is None).
* ``abstain``, a failed or timed-out call, or a verdict that does not parse: grey.
* With a second judge (another model), both votes count: two checked ``supports`` make it
  green, two ``contradicts``/``partly`` make it orange, anything else (disagreement, an
  abstention, one judge missing) leaves it grey.

A record (``judgments[claim_key]``) holds the first judge's vote and, with a second judge,
``second``: another vote. :func:`decide` returns the claim check and a JSON-ready account
of every vote, its facts, spans, alignment and evidence check, for citations.json and
audit.json.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .claims import ClaimCheck, ClaimStatus, JudgeFact, check_judge_evidence

VERDICTS = ("supports", "partly", "contradicts", "abstain")
MAX_FACTS = 8  # facts per claim
MAX_SPANS = 4  # spans per fact
MAX_SPAN_CHARS = 600  # a quote is at most this long where the judge sees it
MAX_FACT_CHARS = 300
MAX_ALIGNED = 16  # (claim word, span word) pairs per fact
MAX_WORD_CHARS = 60
MAX_REASON_CHARS = 300
MAX_MODEL_CHARS = 120
MAX_PROBLEMS = 6
MAX_NOTE_CHARS = 400

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")


def _text(value: Any, limit: int) -> str:
    """A bounded one-line string (control and bidi characters removed)."""
    if not isinstance(value, str):
        return ""
    return " ".join(_CONTROL.sub(" ", value[: limit * 4]).split())[:limit]


def _items(value: Any, limit: int) -> list:
    return list(value[:limit]) if isinstance(value, list | tuple) else []


def bound_vote(raw: Any) -> dict:
    """One judge's vote as a bounded, well-formed dict, whatever came in (a model's parsed
    answer, a checkpoint, a caller's ``judgments``): ``verdict`` (unknown -> ``abstain``),
    ``reason``, ``model``, ``facts`` ([{fact, spans, aligned}])."""
    raw = raw if isinstance(raw, Mapping) else {}
    verdict = raw.get("verdict")
    facts = []
    for f in _items(raw.get("facts"), MAX_FACTS):
        if not isinstance(f, Mapping):
            continue
        spans = [s for s in (_text(x, MAX_SPAN_CHARS) for x in _items(f.get("spans"), MAX_SPANS)) if s]
        aligned = []
        for pair in _items(f.get("aligned"), MAX_ALIGNED):
            if isinstance(pair, list | tuple) and len(pair) == 2:
                a, b = _text(pair[0], MAX_WORD_CHARS), _text(pair[1], MAX_WORD_CHARS)
                if a and b:
                    aligned.append([a, b])
        facts.append({"fact": _text(f.get("fact"), MAX_FACT_CHARS), "spans": spans, "aligned": aligned})
    return {"verdict": verdict if verdict in VERDICTS else "abstain",
            "reason": _text(raw.get("reason"), MAX_REASON_CHARS),
            "model": _text(raw.get("model"), MAX_MODEL_CHARS) or None,
            "facts": facts}


def _evidence(claim: str, quotes: list[str], vote: dict) -> dict:
    facts = [JudgeFact(fact=f["fact"], spans=list(f["spans"]), aligned=[tuple(p) for p in f["aligned"]])
             for f in vote["facts"]]
    check = check_judge_evidence(claim, quotes, facts)
    given = sum(len(f["spans"]) for f in vote["facts"])
    return {"ok": bool(check.ok),
            "problems": [_text(p, MAX_NOTE_CHARS) for p in list(check.problems)[:MAX_PROBLEMS]],
            "spans_found": [list(s) for s in list(check.spans_found)[: MAX_FACTS * MAX_SPANS]],
            "spans_given": given}


def _outcome(vote: dict, evidence: dict | None) -> tuple[ClaimStatus, str, str]:
    """What one vote alone makes of the claim: (status, rule, why)."""
    verdict = vote["verdict"]
    if verdict == "supports" and evidence is not None:
        if evidence["ok"]:
            return ClaimStatus.SUPPORTED, "judge:checked", "says it supports, and its evidence passed the code check"
        problems = "; ".join(evidence["problems"][:3]) or "no fact with a span from the quotes"
        return (ClaimStatus.UNCHECKED, "judge:evidence_failed",
                f"says it supports, but its evidence fails the check: {problems}")
    if verdict in ("contradicts", "partly") and evidence is not None:
        said = "support only part of" if verdict == "partly" else "contradict"
        if len(evidence["spans_found"]) < evidence["spans_given"]:
            return (ClaimStatus.UNCHECKED, "judge:bad_span",
                    f"says the quotes {said} the claim, but cites text that is not in the quotes")
        if verdict == "partly":
            return ClaimStatus.UNSUPPORTED, "judge:partly", "finds the quotes support only part of the claim"
        return ClaimStatus.UNSUPPORTED, "judge", "finds the quotes contradict the claim"
    return ClaimStatus.UNCHECKED, "judge:abstain", "abstained" + (f" ({vote['reason']})" if vote["reason"] else "")


def decide(record: Any, claim: str, quotes: list[str]) -> tuple[ClaimCheck, dict]:
    """The claim check a judge record earns, and its account for the outputs:
    ``{"outcome", "rule", "why", "votes": [{verdict, reason, model, facts, evidence, outcome,
    why}]}``. ``evidence`` is code's check of the vote's facts and spans
    (``{ok, problems, spans_found: [[quote, start, end]], spans_given}``; None for an
    abstention)."""
    record = record if isinstance(record, Mapping) else {}
    votes = [bound_vote(record)]
    if "second" in record:
        votes.append(bound_vote(record.get("second")))
    account, results = [], []
    for n, vote in enumerate(votes):
        evidence = _evidence(claim, quotes, vote) if vote["verdict"] != "abstain" else None
        status, rule, why = _outcome(vote, evidence)
        why = f"{('the', 'the first', 'the second')[n + (len(votes) > 1)]} judge {why}"
        results.append((status, rule, why))
        account.append({**vote, "evidence": evidence, "outcome": status.value, "why": why})
    statuses = {r[0] for r in results}
    reason = next((v["reason"] for v in votes if v["reason"]), "")
    if statuses == {ClaimStatus.SUPPORTED}:
        status, rule = ClaimStatus.SUPPORTED, "judge:checked"
        note = f"judge, evidence checked: {reason}" if reason else "judge, evidence checked"
        why = results[0][2] if len(results) == 1 else "both judges' evidence passed the code check"
    elif statuses == {ClaimStatus.UNSUPPORTED}:
        status = ClaimStatus.UNSUPPORTED
        rule = "judge:partly" if any(r[1] == "judge:partly" for r in results) else "judge"
        what = "partly supported" if rule == "judge:partly" else "contradicted"
        note = f"judge ({what}): {reason}" if reason else f"judge: {what}"
        why = results[0][2] if len(results) == 1 else "both judges find that the claim differs from its quotes"
    else:
        status = ClaimStatus.UNCHECKED
        if ClaimStatus.UNCHECKED in statuses:
            rule, why = next((r[1], r[2]) for r in results if r[0] is ClaimStatus.UNCHECKED)
        else:
            rule, why = "judge:disagree", "the two judges disagree"
        note = f"not checked: {why}"
    check = ClaimCheck(status, rule, _text(note, MAX_NOTE_CHARS))
    return check, {"outcome": status.value, "rule": rule, "why": _text(why, MAX_NOTE_CHARS), "votes": account}

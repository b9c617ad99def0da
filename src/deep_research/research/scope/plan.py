"""The research plan and its coverage.

The plan is written with the brief (one structured answer): sub-questions with priorities,
and a query analysis (entities, time scope, ambiguous names and how they are read). It is
kept in state as ``research_plan`` and rendered by code under the brief's text, so the
approval step, the chat, Studio, the supervisor and the report writer all see the same plan.

After each research round, code maps the round's new verified sentences (the exact
sentences cited in the findings, checked against their pages) to the sub-questions they
answer, with one bounded, batched call of the research model; whether a sub-question is
covered is decided by code (:data:`COVERED_MIN_SENTENCES`). A failed or malformed call
leaves those sentences unjudged (recorded), never fails the run.

State shapes (read by other commands, e.g. ``deep-research compare``):

* ``research_plan``: ``{"sub_questions": [{"id", "question", "priority"}], "entities": [...],
  "time_scope": str | None, "ambiguities": [{"term", "resolved_as"}]}``
* ``coverage``: ``{"score", "rounds", "stopped_because", "items": [{"id", "question",
  "priority", "covered", "evidence"}], ...}`` (see :func:`coverage_record`)
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field, field_validator

MAX_SUB_QUESTIONS = 8
MAX_ENTITIES = 12
MAX_AMBIGUITIES = 6
PRIORITIES = ("high", "medium", "low")
WEIGHTS = {"high": 3.0, "medium": 2.0, "low": 1.0}  # priority weights of the coverage score
# A sub-question is covered when at least this many verified sentences answer it (from at
# least one source): one sentence can be a passing mention; two make an answer.
COVERED_MIN_SENTENCES = 2
COVERAGE_MAX_SENTENCES = 60  # sentences judged per round (one call); the rest stay unjudged
PLAN_HEADING = "## Research plan"

_REF = re.compile(r'<ref id="([^"]+)">"(.*?)"</ref>', re.S)


# --- the plan, as the model writes it ---------------------------------------------------------
class PlannedSubQuestion(BaseModel):
    question: str = Field(description="One sub-question the research must answer.")
    priority: str = Field("medium", description="high, medium or low: how much the answer depends on it.")

    @field_validator("priority", mode="before")
    @classmethod
    def _priority(cls, v: Any) -> str:
        v = str(v or "").strip().lower()
        return v if v in PRIORITIES else "medium"


class Ambiguity(BaseModel):
    term: str = Field(description="A name or term in the question that could mean several things.")
    resolved_as: str = Field(description="What it is taken to mean in this research.")


class PlanFields(BaseModel):
    """The plan fields of the brief's structured answer (all optional: a model that gives
    only the brief gets an empty plan, and research runs as without one)."""

    sub_questions: list[PlannedSubQuestion] = Field(
        default_factory=list, description="Two to six sub-questions that together answer the request, each with "
                                          "a priority (high, medium, low).")
    entities: list[str] = Field(
        default_factory=list, description="The people, organisations, products, places or other named things "
                                          "the research is about, spelled out in full.")
    time_scope: str = Field("", description="The period the research covers (e.g. '2020 to today'), or empty "
                                            "when the question has none.")
    ambiguities: list[Ambiguity] = Field(
        default_factory=list, description="Names or terms in the question that could mean several things, each "
                                          "with the meaning this research takes.")

    def has_plan(self) -> bool:
        return bool(self.sub_questions or self.entities or self.time_scope.strip() or self.ambiguities)


def plan_from(answer: PlanFields) -> dict:
    """The state's ``research_plan`` from a structured answer: ids given by code, empty
    entries dropped, sizes bounded."""
    subs, seen = [], set()
    for sq in answer.sub_questions:
        q = " ".join(sq.question.split())
        if q and q.lower() not in seen:
            seen.add(q.lower())
            subs.append({"id": f"q{len(subs) + 1}", "question": q, "priority": sq.priority})
        if len(subs) >= MAX_SUB_QUESTIONS:
            break
    entities = list(dict.fromkeys(" ".join(e.split()) for e in answer.entities if e.strip()))[:MAX_ENTITIES]
    ambiguities = [{"term": a.term.strip(), "resolved_as": a.resolved_as.strip()} for a in answer.ambiguities
                   if a.term.strip() and a.resolved_as.strip()][:MAX_AMBIGUITIES]
    return {"sub_questions": subs, "entities": entities, "time_scope": answer.time_scope.strip() or None,
            "ambiguities": ambiguities}


def empty_plan() -> dict:
    return {"sub_questions": [], "entities": [], "time_scope": None, "ambiguities": []}


def plan_markdown(plan: dict | None) -> str:
    """The plan as the text shown under the brief (approval step, chat, Studio, prompts)."""
    plan = plan or {}
    lines = []
    for sq in plan.get("sub_questions") or []:
        lines.append(f"- {sq['id']} [{sq['priority']}] {sq['question']}")
    analysis = query_analysis(plan)
    if not lines and not analysis:
        return ""
    out = [PLAN_HEADING, ""]
    if lines:
        out += ["Sub-questions (priority):", *lines]
    if analysis:
        out += (["", analysis] if lines else [analysis])
    return "\n".join(out)


def query_analysis(plan: dict | None) -> str:
    """Entities, time scope and how ambiguous names are read: one short block ('' if none)."""
    plan = plan or {}
    parts = []
    if plan.get("entities"):
        parts.append("Entities: " + "; ".join(plan["entities"]))
    if plan.get("time_scope"):
        parts.append(f"Time scope: {plan['time_scope']}")
    for a in plan.get("ambiguities") or []:
        parts.append(f'"{a["term"]}" means: {a["resolved_as"]}')
    return "\n".join(parts)


def with_plan(brief: str, plan: dict | None) -> str:
    """The brief's text with the plan rendered under it (any earlier rendering replaced)."""
    text = brief_text(brief)
    rendered = plan_markdown(plan)
    return f"{text}\n\n{rendered}" if rendered else text


def brief_text(brief: str) -> str:
    """The brief without the plan rendered under it."""
    at = brief.find(PLAN_HEADING)
    return (brief[:at] if at >= 0 else brief).rstrip()


def revised_plan(old: dict | None, answer: PlanFields) -> dict:
    """The plan after a brief's revision: the revision's plan when it gave one, else the
    plan so far (so the brief's text and its plan never disagree)."""
    if answer.has_plan():
        return plan_from(answer)
    return old or empty_plan()


# --- coverage ---------------------------------------------------------------------------------
class SentenceMatch(BaseModel):
    sentence: int = Field(description="The sentence's number.")
    answers: list[str] = Field(default_factory=list, description="Ids of the sub-questions it helps answer "
                                                                   "(empty when none).")


class CoverageJudgement(BaseModel):
    matches: list[SentenceMatch] = Field(default_factory=list, description="One entry per numbered sentence.")


def verified_sentences(notes: list[dict]) -> list[tuple[str, str]]:
    """The distinct (source id, sentence) pairs cited in findings (findings keep only
    citations whose quote was verified on its page)."""
    out: dict[tuple[str, str], None] = {}
    for n in notes:
        for sid, quote in _REF.findall(n.get("findings") or ""):
            key = (sid, " ".join(quote.split()))
            if key[1]:
                out.setdefault(key, None)
    return list(out)


def apply_matches(plan: dict, sentences: list[tuple[str, str]], judgement: CoverageJudgement,
                  hits: dict[str, list[str]]) -> tuple[dict[str, list[str]], int]:
    """Add the judged sentences to ``hits`` (sub-question id -> a source id per answering
    sentence); returns the new hits and how many answers named an unknown sentence or id."""
    ids = {sq["id"] for sq in plan.get("sub_questions") or []}
    out = {k: list(v) for k, v in hits.items()}
    ignored = 0
    counted: set[tuple[int, str]] = set()
    for m in judgement.matches:
        if not 1 <= m.sentence <= len(sentences):
            ignored += 1
            continue
        for qid in m.answers:
            qid = str(qid).strip().lower()
            if qid not in ids:
                ignored += 1
                continue
            if (m.sentence, qid) in counted:
                continue
            counted.add((m.sentence, qid))
            out.setdefault(qid, []).append(sentences[m.sentence - 1][0])
    return out, ignored


def coverage_items(plan: dict | None, hits: dict[str, list[str]] | None) -> list[dict]:
    hits = hits or {}
    items = []
    for sq in (plan or {}).get("sub_questions") or []:
        got = hits.get(sq["id"]) or []
        items.append({"id": sq["id"], "question": sq["question"], "priority": sq["priority"],
                      "covered": len(got) >= COVERED_MIN_SENTENCES and len(set(got)) >= 1,
                      "evidence": len(got), "sources": len(set(got))})
    return items


def coverage_score(items: list[dict]) -> float:
    """Priority-weighted share of covered sub-questions (0.0 without sub-questions)."""
    total = sum(WEIGHTS.get(i["priority"], 2.0) for i in items)
    if not total:
        return 0.0
    return round(sum(WEIGHTS.get(i["priority"], 2.0) for i in items if i["covered"]) / total, 4)


def plan_coverage(coverage: dict | None) -> float | None:
    """A run's coverage, the one definition the CLI, ``compare`` and ``eval report`` show:
    the priority-weighted share of the research plan's sub-questions that verified findings
    cover (:data:`COVERED_MIN_SENTENCES` each), as the run recorded it in ``coverage``
    (the number the stop rule used). None when the plan has no sub-questions: there is
    nothing to cover, and 0 % or 100 % would mislead."""
    if not isinstance(coverage, dict) or not coverage.get("items"):
        return None
    return float(coverage.get("score") or 0.0)


def coverage_record(plan: dict | None, hits: dict[str, list[str]] | None, *, rounds: int, new_sentences: int,
                    total_sentences: int, unjudged: int, stopped_because: str | None = None) -> dict:
    """The state's ``coverage``. Besides the shared keys: ``new_sentences`` (verified
    sentences the last research round added), ``total_sentences``, ``unjudged`` (sentences
    whose judgement failed or was over the cap: coverage may be higher than shown)."""
    items = coverage_items(plan, hits)
    return {"score": coverage_score(items), "rounds": rounds, "stopped_because": stopped_because, "items": items,
            "new_sentences": new_sentences, "total_sentences": total_sentences, "unjudged": unjudged}


def coverage_table(coverage: dict | None, plan: dict | None) -> str:
    """The coverage table the supervisor sees each round."""
    items = (coverage or {}).get("items") or coverage_items(plan, {})
    if not items:
        return ""
    rows = ["| id | priority | sub-question | verified sentences | covered |", "|---|---|---|---|---|"]
    for i in items:
        rows.append(f"| {i['id']} | {i['priority']} | {i['question']} | {i['evidence']} | "
                    f"{'yes' if i['covered'] else 'no'} |")
    score = (coverage or {}).get("score", 0.0)
    note = f"\nCoverage score (priority-weighted): {score:.0%}."
    if (coverage or {}).get("unjudged"):
        note += f" {coverage['unjudged']} verified sentence(s) could not be judged; coverage may be higher."
    return "\n".join(rows) + note


def uncovered_limitations(coverage: dict | None) -> list[str]:
    """The report's limitations for sub-questions the research left uncovered (by code)."""
    items = [i for i in (coverage or {}).get("items") or [] if not i.get("covered")]
    if not items:
        return []
    unjudged = (coverage or {}).get("unjudged")
    lines = [f"Sub-question not covered by the verified findings ({i['priority']} priority): {i['question']} "
             f"({i['evidence']} verified sentence(s) found; {COVERED_MIN_SENTENCES} needed)" for i in items]
    if unjudged:
        lines.append(f"{unjudged} verified sentence(s) could not be matched to the sub-questions; some of the "
                     "sub-questions above may be answered in part")
    return lines


def judgement_items(plan: dict, sentences: list[tuple[str, str]]) -> tuple[str, str]:
    """(sub-questions, numbered sentences) as the coverage prompt shows them."""
    subs = "\n".join(f"{sq['id']}: {sq['question']}" for sq in plan.get("sub_questions") or [])
    numbered = "\n".join(f'{n}. [{sid}] "{s}"' for n, (sid, s) in enumerate(sentences, 1))
    return subs, numbered

"""The research plan and its coverage.

The plan is written with the brief (one structured answer): objectives, sub-questions with
priorities, a methodology, success criteria, and a query analysis (the intent of the
request, entities, time scope, ambiguous names, how they are read and the words that keep a
search on that reading). It is kept in state as ``research_plan`` and rendered by code under
the brief's text, so the approval step, the chat, Studio, the supervisor and the report
writer all see the same plan.

Query analysis happens once per question, inside the brief's call (no model call of its
own): every researcher gets it with its topic (:func:`query_analysis`), and code applies
its disambiguation to each search query (:func:`disambiguated_query`) before the search.
A per-search analysis would add a model call to every search; a per-unit one, a call to
every research unit, for the same information.

After each research round, code maps the round's new verified sentences (the exact
sentences cited in the findings, checked against their pages) to the sub-questions they
answer, with one bounded, batched call of the research model; whether a sub-question is
covered is decided by code (:data:`COVERED_MIN_SENTENCES`). A failed or malformed call
leaves those sentences unjudged (recorded), never fails the run.

State shapes (read by other commands, e.g. ``deep-research compare``):

* ``research_plan``: ``{"sub_questions": [{"id", "question", "priority"}], "entities": [...],
  "time_scope": str | None, "ambiguities": [{"term", "resolved_as", "search_hint"?}],
  "intent": str | None, "objectives": [...], "methodology": [...],
  "success_criteria": [{"id", "criterion", "sub_questions": [ids]}]}``
* ``coverage``: ``{"score", "rounds", "stopped_because", "items": [{"id", "question",
  "priority", "covered", "evidence"}], "criteria": [{"id", "criterion", "sub_questions",
  "met"}], ...}`` (see :func:`coverage_record`; ``met`` is None for a criterion that names
  no sub-question: code cannot judge it)
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field, field_validator

MAX_SUB_QUESTIONS = 8
MAX_ENTITIES = 12
MAX_AMBIGUITIES = 6
MAX_OBJECTIVES = 5
MAX_METHOD_STEPS = 6
MAX_CRITERIA = 5
MAX_ITEM_CHARS = 300  # one objective, method step or criterion
MAX_HINT_WORDS = 4  # a search hint: a few words that keep a query on the chosen meaning
# What kind of answer the request asks for (the plan's intent).
INTENTS = ("fact", "explanation", "comparison", "recommendation", "recent_developments", "how_to", "overview",
           "other")
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
    search_hint: str = Field("", description="One to four words that, added to a search query with the term, "
                                             "keep the search on this meaning (empty when none is needed).")


class PlannedCriterion(BaseModel):
    criterion: str = Field(description="What the finished research must show to be successful.")
    sub_questions: list[int] = Field(
        default_factory=list, description="Numbers (1 = the first sub-question) of the sub-questions whose answers "
                                          "meet this criterion; empty when none does.")

    @field_validator("sub_questions", mode="before")
    @classmethod
    def _numbers(cls, v: Any) -> list[int]:
        """Numbers, or ids such as "q2", as a model may write them; anything else dropped."""
        out = []
        for x in v if isinstance(v, list) else []:
            text = str(x).strip().lower().removeprefix("q")
            if text.isdigit():
                out.append(int(text))
        return out


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
    intent: str = Field("", description="What kind of answer the request asks for: " + ", ".join(INTENTS) + ".")
    objectives: list[str] = Field(
        default_factory=list, description="One to four things the report must achieve for the user.")
    methodology: list[str] = Field(
        default_factory=list, description="Two to five steps: which kinds of sources to read and how the evidence "
                                          "is compared or combined.")
    success_criteria: list[PlannedCriterion] = Field(
        default_factory=list, description="One to four criteria the finished research must meet, each naming the "
                                          "sub-questions whose answers meet it.")

    def has_plan(self) -> bool:
        return bool(self.sub_questions or self.entities or self.time_scope.strip() or self.ambiguities
                    or self.intent.strip() or self.objectives or self.methodology or self.success_criteria)


def _items(values: list[str], limit: int) -> list[str]:
    """Non-empty, distinct, whitespace-normalised entries, each bounded, at most ``limit``."""
    out = list(dict.fromkeys(" ".join(v.split())[:MAX_ITEM_CHARS] for v in values if v and v.strip()))
    return out[:limit]


def _intent(value: str) -> str | None:
    v = "_".join(value.strip().lower().replace("-", " ").split())
    return v if v in INTENTS else ("other" if v else None)


def _hint(value: str) -> str:
    return " ".join(value.split()[:MAX_HINT_WORDS])


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
    ambiguities = []
    for a in answer.ambiguities:
        if a.term.strip() and a.resolved_as.strip() and len(ambiguities) < MAX_AMBIGUITIES:
            entry = {"term": a.term.strip(), "resolved_as": a.resolved_as.strip()}
            if _hint(a.search_hint):
                entry["search_hint"] = _hint(a.search_hint)
            ambiguities.append(entry)
    criteria = []
    for c in answer.success_criteria:
        text = " ".join(c.criterion.split())[:MAX_ITEM_CHARS]
        if text and len(criteria) < MAX_CRITERIA and text.lower() not in {x["criterion"].lower() for x in criteria}:
            needs = list(dict.fromkeys(f"q{n}" for n in c.sub_questions if 1 <= n <= len(subs)))
            criteria.append({"id": f"c{len(criteria) + 1}", "criterion": text, "sub_questions": needs})
    return {"sub_questions": subs, "entities": entities, "time_scope": answer.time_scope.strip() or None,
            "ambiguities": ambiguities, "intent": _intent(answer.intent),
            "objectives": _items(answer.objectives, MAX_OBJECTIVES),
            "methodology": _items(answer.methodology, MAX_METHOD_STEPS), "success_criteria": criteria}


def empty_plan() -> dict:
    return {"sub_questions": [], "entities": [], "time_scope": None, "ambiguities": [], "intent": None,
            "objectives": [], "methodology": [], "success_criteria": []}


def _criterion_line(c: dict, met: bool | None = None) -> str:
    needs = f" (met when {', '.join(c['sub_questions'])} {'is' if len(c['sub_questions']) == 1 else 'are'} " \
            "covered)" if c.get("sub_questions") else ""
    status = "" if met is None else (" [met]" if met else " [not met]")
    return f"- {c['id']}{status} {c['criterion']}{needs}"


def plan_markdown(plan: dict | None) -> str:
    """The plan as the text shown under the brief (approval step, chat, Studio, prompts)."""
    plan = plan or {}
    blocks = []
    if plan.get("objectives"):
        blocks.append(["Objectives:", *(f"- {o}" for o in plan["objectives"])])
    subs = [f"- {sq['id']} [{sq['priority']}] {sq['question']}" for sq in plan.get("sub_questions") or []]
    if subs:
        blocks.append(["Sub-questions (priority):", *subs])
    if plan.get("methodology"):
        blocks.append(["Methodology:", *(f"{i}. {m}" for i, m in enumerate(plan["methodology"], 1))])
    if plan.get("success_criteria"):
        blocks.append(["Success criteria:", *(_criterion_line(c) for c in plan["success_criteria"])])
    analysis = query_analysis(plan)
    if analysis:
        blocks.append(["Query analysis:", analysis])
    if not blocks:
        return ""
    return "\n\n".join([PLAN_HEADING, *("\n".join(b) for b in blocks)])


def query_analysis(plan: dict | None) -> str:
    """Intent, entities, time scope and how ambiguous names are read (with the words a
    search adds for that reading): one short block ('' if none). Every researcher gets it."""
    plan = plan or {}
    parts = []
    if plan.get("intent"):
        parts.append(f"Intent: {plan['intent'].replace('_', ' ')}")
    if plan.get("entities"):
        parts.append("Entities: " + "; ".join(plan["entities"]))
    if plan.get("time_scope"):
        parts.append(f"Time scope: {plan['time_scope']}")
    for a in plan.get("ambiguities") or []:
        hint = f' (searches that name it add "{a["search_hint"]}")' if a.get("search_hint") else ""
        parts.append(f'"{a["term"]}" means: {a["resolved_as"]}{hint}')
    return "\n".join(parts)


def search_hints(plan: dict | None) -> list[tuple[str, str]]:
    """(term, hint) pairs of the plan's disambiguation, for :func:`disambiguated_query`."""
    return [(a["term"], a["search_hint"]) for a in (plan or {}).get("ambiguities") or []
            if a.get("term") and a.get("search_hint")]


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


def disambiguated_query(query: str, hints: list[tuple[str, str]]) -> str:
    """The query with the hint of each ambiguous term it names (as whole words) added, unless
    the query already carries a word of that hint. Code, not a model: no call per search."""
    words = _words(query)
    added = []
    for term, hint in hints:
        t = _words(term)
        if not t or not any(words[i:i + len(t)] == t for i in range(len(words) - len(t) + 1)):
            continue
        if set(_words(hint)) & set(words) or set(_words(hint)) & set(_words(" ".join(added))):
            continue
        added.append(hint)
    return " ".join([query.strip(), *added]) if added else query


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


def criteria_status(plan: dict | None, items: list[dict]) -> list[dict]:
    """The plan's success criteria with ``met``: True when every sub-question a criterion
    names is covered, None when it names none (code cannot judge it; the reader does)."""
    covered = {i["id"] for i in items if i.get("covered")}
    out = []
    for c in (plan or {}).get("success_criteria") or []:
        needs = list(c.get("sub_questions") or [])
        out.append({**c, "met": all(q in covered for q in needs) if needs else None})
    return out


def criteria_met(coverage: dict | None) -> bool:
    """Whether every success criterion code can judge is met (True when there is none)."""
    return all(c.get("met") is not False for c in (coverage or {}).get("criteria") or [])


def coverage_record(plan: dict | None, hits: dict[str, list[str]] | None, *, rounds: int, new_sentences: int,
                    total_sentences: int, unjudged: int, stopped_because: str | None = None) -> dict:
    """The state's ``coverage``. Besides the shared keys: ``new_sentences`` (verified
    sentences the last research round added), ``total_sentences``, ``unjudged`` (sentences
    whose judgement failed or was over the cap: coverage may be higher than shown) and
    ``criteria`` (the plan's success criteria, each ``met`` by the covered sub-questions)."""
    items = coverage_items(plan, hits)
    return {"score": coverage_score(items), "rounds": rounds, "stopped_because": stopped_because, "items": items,
            "criteria": criteria_status(plan, items), "new_sentences": new_sentences,
            "total_sentences": total_sentences, "unjudged": unjudged}


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
    criteria = (coverage or {}).get("criteria") or criteria_status(plan, items)
    if criteria:
        note += "\nSuccess criteria:\n" + "\n".join(_criterion_line(c, c.get("met")) for c in criteria)
    return "\n".join(rows) + note


def uncovered_limitations(coverage: dict | None) -> list[str]:
    """The report's limitations for sub-questions the research left uncovered (by code)."""
    items = [i for i in (coverage or {}).get("items") or [] if not i.get("covered")]
    if not items:
        return []
    unjudged = (coverage or {}).get("unjudged")
    lines = [f"Sub-question not covered by the verified findings ({i['priority']} priority): {i['question']} "
             f"({i['evidence']} verified sentence(s) found; {COVERED_MIN_SENTENCES} needed)" for i in items]
    lines += [f"Success criterion not met: {c['criterion']} (it needs {', '.join(c['sub_questions'])} covered)"
              for c in (coverage or {}).get("criteria") or [] if c.get("met") is False]
    if unjudged:
        lines.append(f"{unjudged} verified sentence(s) could not be matched to the sub-questions; some of the "
                     "sub-questions above may be answered in part")
    return lines


def judgement_items(plan: dict, sentences: list[tuple[str, str]]) -> tuple[str, str]:
    """(sub-questions, numbered sentences) as the coverage prompt shows them."""
    subs = "\n".join(f"{sq['id']}: {sq['question']}" for sq in plan.get("sub_questions") or [])
    numbered = "\n".join(f'{n}. [{sid}] "{s}"' for n, (sid, s) in enumerate(sentences, 1))
    return subs, numbered

"""Graph state. Page contents live in the store (see runtime/sources.py); state holds only small
metadata, so checkpoints stay small however many pages a run reads."""

from __future__ import annotations

import operator
from typing import Annotated, Any

from langchain_core.messages import AnyMessage
from langgraph.channels.untracked_value import UntrackedValue
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

from ..errors import mask_page_url
from .runtime.usage import merge_usage
from .runtime.sources import keep_first


def merge_dicts(left: dict | None, right: dict | None) -> dict:
    return {**(left or {}), **(right or {})}


def add_or_reset(left: list | None, right: list | None) -> list:
    """List reducer that an update of None empties (used for per-round results)."""
    if right is None:
        return []
    return [*(left or []), *right]


# A degradation of this kind is recorded once per run: an unreachable MCP server was one
# line of the report's limitations, of audit.json and of the terminal per research unit
# (parallel units share no state until their round ends).
ONCE_PER_RUN = "mcp_unavailable"
# A page whose URL's credentials were masked (runtime/sources.without_credentials): said
# once, however many searches find it.
URL_CREDENTIALS = "url_credentials"
_ONCE = (ONCE_PER_RUN, URL_CREDENTIALS)


def add_records(left: list | None, right: list | None) -> list:
    """Degradation reducer: ``right`` after ``left``, less a record of a kind said once per
    run (ONCE_PER_RUN, URL_CREDENTIALS) whose message is already there."""
    out = [*(left or [])]
    seen = {r.get("message") for r in out if isinstance(r, dict) and r.get("kind") in _ONCE}
    for r in right or []:
        if isinstance(r, dict) and r.get("kind") in _ONCE:
            if r.get("message") in seen:
                continue
            seen.add(r.get("message"))
        out.append(r)
    return out


def records_or_reset(left: list | None, right: list | None) -> list:
    """``add_records`` that an update of None empties (a follow-up report starts its own)."""
    return [] if right is None else add_records(left, right)


def distinct_or_reset(left: list | None, right: list | None) -> list:
    """List reducer keeping each value once (in order); an update of None empties it."""
    if right is None:
        return []
    out = [*(left or [])]
    out += [r for r in right if r not in out]
    return out


def usage_or_reset(left: dict | None, right: dict | None) -> dict:
    """Usage reducer that an update of None empties (a follow-up report starts its own)."""
    if right is None:
        return {}
    return merge_usage(left, right)


class ResearchInput(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]


class ResearchState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    question: str
    # the settings the run that started the question gave (URL credentials masked): a run
    # that resumes the question works with them (runtime/thread_settings.py)
    question_settings: dict
    # the settings a run that resumed the question gave and that were not used: {setting,
    # asked, kept, why} (audit.json); and which run was told (thread_settings.notice_update)
    ignored_settings: Annotated[list[dict], distinct_or_reset]
    ignored_settings_told: str
    language: str  # ISO 639-1 code of the question's language: the report's language
    clarifying_questions: list[dict]  # the last ones asked: {question, suggested_answers, dimension?}
    # the clarify step's named ambiguity dimensions and its confidence gate (scope/clarify.py):
    # {dimensions: [{dimension, reading, confidence}], threshold, asked, unsure, reason}
    clarification: dict
    research_brief: str  # the brief's text, with the research plan rendered under it (plan.py)
    research_plan: dict  # {objectives, sub_questions: [{id, question, priority}], methodology, success_criteria,
    #                       intent, entities, time_scope, ambiguities} (scope/plan.py)
    coverage: dict  # {score, rounds, stopped_because, items: [{id, question, priority, covered, evidence}]}
    brief_rounds: int
    brief_feedback: str
    # a human approval was asked and is not settled: it stays asked whatever a later run's
    # configuration says (a run that resumes the thread may not repeat the first run's settings)
    brief_approval_open: bool
    draft_report: str
    brief_council: dict  # the council's review of the brief: {models, threshold, rounds: [...], outcome}
    complexity: dict  # the question's classification (research_mode auto): {level, reason}
    research_mode_used: str  # single | multi: the research path this report took
    # The current report's research; a follow-up question on the thread starts them afresh
    # (None resets), keeping earlier findings in prior_notes and the sources for reuse.
    notes: Annotated[list[dict], add_or_reset]  # {topic, findings (markdown with <ref>s), call_id}
    raw_notes: Annotated[list[str], add_or_reset]
    prior_notes: list[dict]  # findings of the thread's earlier reports (their sources stay in sources)
    previous_reports: Annotated[list[dict], operator.add]  # {question, outputs, citation_summary, usage}
    sources: Annotated[dict[str, dict], keep_first]  # id -> SourceMeta dict (every page the thread read)
    research_iterations: int
    research_log: Annotated[list[dict], add_or_reset]
    themes: list[dict]  # the findings grouped by content, the report's section plan: {id, label, finding_ids, topics}
    final_report: str
    report_markdown: str  # the checked report (UI markdown with <ref> tags)
    output_policy: dict  # what the output policy changed in the model's report (check_citations; audit.json)
    citation_summary: dict
    citation_fixes: list[dict]
    claim_judgments: dict  # claim_key -> {verdict, reason}: the judge's verdicts on undecided claims
    pending_decision: dict | None  # a typed chat reply to the brief approval or report review (chat.py)
    decision_problem: str | None  # why the last answer to the approval asked was not a decision (hitl.asked_again)
    report_review_pending: bool  # the report was shown for review; the next step asks
    report_review_open: bool  # a review was asked and no approval or edit settled it (as brief_approval_open)
    report_review: str  # approved | edited | feedback (the last decision)
    report_feedback: str
    report_revisions: int
    outputs: dict  # file paths of the published report
    usage: Annotated[dict, usage_or_reset]
    errors: Annotated[list[dict], add_or_reset]
    degradations: Annotated[list[dict], records_or_reset]
    tokens_before: int
    cost_before: float
    run_dir: str
    stage: str
    status: str  # running | needs_clarification | completed | failed | cancelled | brief_rejected
    budget_exhausted: bool


class ChatView(TypedDict, total=False):
    """The thread's chat, in a subgraph's input and output: a client that streams
    subgraphs (Agent Chat UI) shows each subgraph's ``values`` as the whole thread, so the
    supervisor shows the chat (and its progress turn) while research runs (chat.py)."""
    messages: Annotated[list[AnyMessage], add_messages]


class ResearcherChatView(TypedDict, total=False):
    """The chat as a researcher's subgraph shows it: a copy handed over by the supervisor,
    never checkpointed (each researcher would store it again at every step)."""
    messages: Annotated[list[AnyMessage], UntrackedValue]


class SupervisorInput(ChatView, total=False):
    question: str
    question_settings: dict  # as ResearchState's (its nodes apply them too)
    research_brief: str
    research_plan: dict
    draft_report: str
    tokens_before: int  # tokens the run used before research (for the budget)
    cost_before: float  # estimated cost of the run before research (for the cost cap)


class SupervisorOutput(ChatView, total=False):
    draft_report: str
    notes: Annotated[list[dict], operator.add]
    raw_notes: Annotated[list[str], operator.add]
    sources: Annotated[dict[str, dict], keep_first]
    research_iterations: int
    research_log: Annotated[list[dict], operator.add]
    usage: Annotated[dict, merge_usage]
    errors: Annotated[list[dict], operator.add]
    degradations: Annotated[list[dict], add_records]
    budget_exhausted: bool
    coverage: dict


class SupervisorState(SupervisorInput, SupervisorOutput, total=False):
    supervisor_messages: Annotated[list[AnyMessage], add_messages]
    round_results: Annotated[list[dict], add_or_reset]  # researcher results of the current round
    pending_calls: list[dict]  # ConductResearch calls sent out this round
    refined_upto: int  # how many notes the draft already reflects
    done: bool
    nudged: bool  # the last supervisor reply called no tool and was asked again
    coverage_hits: dict  # sub-question id -> a source id per verified sentence that answers it
    supervisor_summary: str  # earlier rounds, folded into a summary (supervisor_summarize)


class ResearcherInput(ResearcherChatView, total=False):
    topic: str
    question_settings: dict  # as ResearchState's (its nodes apply them too)
    call_id: str
    research_brief: str
    query_context: str  # the plan's query analysis (intent, entities, time scope, ambiguous names)
    search_hints: list[list[str]]  # [term, hint]: words code adds to a query naming the term (plan.py)
    token_budget: int | None  # tokens this unit may use (None: no cap)
    cost_budget: float | None  # estimated USD this unit may spend (None: no cap)


class ResearcherOutput(ResearcherChatView, total=False):
    round_results: Annotated[list[dict], add_or_reset]
    sources: Annotated[dict[str, dict], keep_first]
    usage: Annotated[dict, merge_usage]
    errors: Annotated[list[dict], operator.add]
    degradations: Annotated[list[dict], add_records]


class ResearcherState(ResearcherInput, ResearcherOutput, total=False):
    researcher_messages: Annotated[list[AnyMessage], add_messages]
    tool_calls_made: int
    found_sources: Annotated[dict[str, dict], keep_first]
    context_summary: str
    excerpts: Annotated[list[str], operator.add]
    unverified: Annotated[int, operator.add]  # sentences the page summaries quoted that are not on their page
    spent_tokens: int
    spent_cost: float
    nudged: bool  # told once to use its tools after a reply without tool calls
    mcp_problem_recorded: bool  # an unavailable MCP server is recorded once per unit


def error_record(stage: str, message: str, **extra: Any) -> dict:
    """A degradation or error of the run. Its message and URL are kept without the
    credentials of a URL they name (a page skipped because it "redirected to" a signed
    address, ``?X-Amz-Signature=…``): the record goes to the state, notes.md, the terminal
    and the chat."""
    if "://" in message:
        message = mask_page_url(message)
    if isinstance(extra.get("url"), str):
        extra["url"] = mask_page_url(extra["url"])
    return {"stage": stage, "message": message, **extra}

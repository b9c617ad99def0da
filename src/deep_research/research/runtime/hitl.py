"""The graph's questions to a human (brief approval, report review) in LangChain's
human-in-the-loop shape, so a generic LangGraph chat client renders them as buttons.

An interrupt's value is what ``HumanInTheLoopMiddleware`` raises (see
:mod:`langchain.agents.middleware.human_in_the_loop`)::

    {"action_requests": [{"name": "approve_research_brief", "args": {...}, "description": "..."}],
     "review_configs": [{"action_name": "approve_research_brief",
                         "allowed_decisions": ["approve", "edit", "reject"]}],
     ...this project's own keys (type, expected, round, ...) for custom UIs and the CLI}

Agent Chat UI and LangGraph Studio show the args, an Approve button, an edit box per arg
when "edit" is allowed and a reject box with a reason, and resume the run with
``{"decisions": [decision]}``, a decision being ``{"type": "approve"}``,
``{"type": "edit", "edited_action": {"name": ..., "args": {...}}}`` or
``{"type": "reject", "message": "..."}``. :func:`decision_of` also takes a bare decision
(the shape this project used before, still what the CLI sends) and a one-item list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain.agents.middleware.human_in_the_loop import (
    ActionRequest,
    DecisionType,
    HITLRequest,
    ReviewConfig,
)


def request(action: str, args: dict[str, Any], description: str, allowed: Sequence[DecisionType],
            **extra: Any) -> dict[str, Any]:
    """One action for a human to decide on, in the HITL shape, plus ``extra`` keys."""
    hitl = HITLRequest(action_requests=[ActionRequest(name=action, args=args, description=description)],
                       review_configs=[ReviewConfig(action_name=action, allowed_decisions=list(allowed))])
    return {**hitl, **extra}


def decision_of(value: Any) -> tuple[Any, str | None]:
    """(the one decision in a resume value, problem): ``{"decisions": [d]}`` (HITL), ``[d]``
    or ``d``. A problem when the value holds no decision or more than one."""
    if isinstance(value, dict) and "decisions" in value and "type" not in value:
        value = value["decisions"]
    if isinstance(value, list):
        if len(value) != 1:
            return None, f"expected one decision, got {len(value)}"
        return value[0], None
    return value, None


def edited_args(decision: dict, action: str) -> tuple[dict | None, str | None]:
    """The args of an edit decision's ``edited_action`` (HITL), or a problem."""
    edited = decision.get("edited_action")
    if not isinstance(edited, dict):
        return None, "an edit needs edited_action"
    name = edited.get("name")
    if name not in (None, action):
        return None, f"edited_action is for {name!r}, not {action!r}"
    args = edited.get("args")
    if not isinstance(args, dict):
        return None, "edited_action needs args"
    return args, None


def text_arg(args: dict, *names: str) -> str | None:
    """The first of ``names`` in ``args`` that holds non-blank text."""
    for name in names:
        value = args.get(name)
        if isinstance(value, str) and value.strip():
            return value
    return None


def typed_text(text: str, what: str) -> tuple[str, str | None]:
    """A decision's feedback or edited brief (``what``) as a chat message is taken
    (scope/clarify.py ``no_question``): its bidirectional controls removed, and (the text, why
    it is refused) when it holds other control characters than tabs and line ends or nothing
    is left; (the text, None) otherwise."""
    from ...terminal import control_characters, without_bidi_controls

    kept = without_bidi_controls(text)
    if not kept.strip():
        return kept, f"{what} is empty"
    if bad := control_characters(kept):
        return kept, f"{what} contains control characters ({', '.join(bad[:5])}): send it again as plain text"
    return kept, None


PROBLEM = "decision_problem"  # state: why the last answer to the question asked was not a decision


def asked_again(state: Any, problem: str) -> dict[str, Any]:
    """The update of a node whose question (an interrupt) was answered with something that is
    not a decision: the node goes back to itself and asks again, its payload's ``error``
    saying why (:func:`with_problem`). A chat client (Agent Chat UI) shows only the same
    buttons again, so the explanation is also a chat turn, written before the question is
    asked again (a node's messages written before an interrupt are lost), once: not again
    when the thread's last turn says it already. Not conversation for the models
    (chat.NOT_CONVERSATION)."""
    from langchain_core.messages import AIMessage

    from .chat import INVALID_DECISION_NAME, shown_text

    text = shown_text(f"That answer is not a decision, so nothing was decided: {problem}. "
                      "The question is asked again.")
    messages = (state.get("messages") if hasattr(state, "get") else None) or []
    last = messages[-1] if messages else None
    said = getattr(last, "name", None) == INVALID_DECISION_NAME and getattr(last, "content", None) == text
    return {PROBLEM: problem, "pending_decision": None, "messages": [] if said else [AIMessage(text, name=INVALID_DECISION_NAME)]}


def with_problem(payload: dict[str, Any], state: Any) -> dict[str, Any]:
    """``payload`` with the ``error`` of the last answer that was not a decision, if any."""
    problem = state.get(PROBLEM) if hasattr(state, "get") else None
    return {**payload, "error": problem} if problem else payload

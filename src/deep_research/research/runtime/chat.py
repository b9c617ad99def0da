"""What the chat shows (LangGraph Studio's chat view reads the ``messages`` key): the
clarifying question, the brief to approve, the final report, or why the run failed.

Model calls never stream into the chat (they are tagged ``nostream``, see meter.Meter):
the chat gets whole turns written by these helpers, and stage progress comes through the
``updates`` and ``custom`` stream modes."""

from __future__ import annotations

from pathlib import Path

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage

from ...language import labels
from .usage import message_text

REPORT_NAME = "report"  # the name of a chat turn that holds a finished report


def citation_line(summary: dict, lang: str | None = None) -> str:
    """One line about the citations, as the CLI prints it, in the run's language."""
    s = summary or {}
    t = labels(lang)
    line = t["citation_line"].format(
        verified=s.get("verified", 0), repaired=s.get("repaired", 0), unsupported=s.get("unsupported", 0),
        fragment_links=s.get("fragment_links", 0))
    if "claims" in s:  # the claim check: supported / differ from their source / not checked
        line += " " + t["claims_checked"] + " " + ", ".join([
            t["claims_supported"].format(n=s.get("claims_supported", 0)),
            t["claims_differ"].format(n=s.get("claims_unsupported", 0)),
            t["claims_unchecked"].format(n=s.get("claims_unchecked", 0))]) + "."
    return line


def report_message(report_markdown: str, summary: dict, files: dict, lang: str | None = None) -> AIMessage:
    """The final report as the chat's last turn: the checked report (UI markdown, refs
    kept), a one-line citation summary and where the files are."""
    names = [Path(files[k]).name for k in ("markdown", "linked", "html", "pdf", "citations", "notes")
             if files.get(k)]
    written = labels(lang)["report_written"].format(dir=files.get("dir", ""))
    footer = f"---\n{citation_line(summary, lang)}\n{written}"
    if names:
        footer += f" ({', '.join(names)})"
    return AIMessage(f"{report_markdown.rstrip()}\n\n{footer}", name=REPORT_NAME)


def failure_message(stage: str, message: str, notes_path: str | None) -> AIMessage:
    text = f"The run failed at {stage}: {message}"
    if notes_path:
        text += f"\n\nResearch gathered so far is saved in {notes_path}."
    cap = next((name for name in ("max_total_tokens", "max_cost_usd") if f"cap ({name}" in message), None)
    if cap:  # the run's cap left no room for this step: retrying with the same cap fails again
        text += f"\n\nRaise {cap} in the run's settings (or clear it: no cap), then run the thread again."
    else:
        text += "\n\nFix the cause, then run the thread again without input to retry this step."
    return AIMessage(text, name="error")


def brief_message(brief: str, round_no: int, max_rounds: int) -> AIMessage:
    return AIMessage(f"Research brief ({round_no} of at most {max_rounds}):\n\n{brief}\n\n"
                     'Approve it, or say what to change (resume with {"type": "approve"} or '
                     '{"type": "reject", "feedback": "..."}).', name="brief")


REPORT_EXCERPT_CHARS = 3000


def conversation_text(messages: list[AnyMessage]) -> str:
    lines = []
    for m in messages:
        if getattr(m, "name", None) == "error":  # a failure notice for the user, not conversation
            continue
        who = "User" if isinstance(m, HumanMessage) else "Assistant"
        text = message_text(m)
        if getattr(m, "name", None) == "report" and len(text) > REPORT_EXCERPT_CHARS:
            # an earlier report in a follow-up conversation: its opening is enough context
            text = text[:REPORT_EXCERPT_CHARS] + "\n[... the rest of this earlier report is left out ...]"
        lines.append(f"{who}: {text}")
    return "\n".join(lines)

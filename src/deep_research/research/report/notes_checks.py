"""What code found in the research findings and between the report's sources, for notes.md:
each topic's findings read by the same checks as the report (uncited factual statements,
impossible dates, names none of the cited pages holds, see ``citations.flags``), and the
report's places where sources disagree (numbers, and quotes of opposite polarity or with
different dates or names: ``citations.evidence``)."""

from __future__ import annotations

import datetime as dt
from typing import Callable, Iterable

from ...citations.check import CitationReport, check_citations
from ...citations.model import Source
from ...citations.styles import Styler
from ...publish.markdown import shown_markdown, side_label

MAX_FINDINGS_CHARS = 200_000  # of one topic's findings read


def _inert(text: str) -> str:
    return " ".join(str(text).split()).replace("<", "\u2039").replace(">", "\u203a")


def _quoted(text: str) -> str:
    return "\u201c" + _inert(text)[:300] + "\u201d"


def disagreement_lines(report: CitationReport, label: Callable[[list[int]], str] | None = None) -> list[str]:
    """The places where sources disagree, one line each, each side named by ``label`` (its
    ref numbers -> how the reader sees those citations: the report's badges,
    :func:`~deep_research.publish.markdown.side_label`); without one, a finding's sides are
    named by the source ids its ``<ref id=…>`` tags give."""
    if label is None:
        by_n = {c.ref.index + 1: c for c in report.citations}

        def label(refs: list[int]) -> str:
            ids = (by_n[n].ref.source_id if n in by_n else "?" for n in refs)
            return ", ".join(dict.fromkeys(f'ref id="{_inert(i)[:100]}"' for i in ids))

    out = []
    for d in report.disagreements:
        j = d.as_json()
        if d.kind == "number":
            out.append(f"- numbers differ: {_quoted(d.claims[0])} ({label(d.refs[0])}: {', '.join(d.numbers[0])}) / "
                       f"{_quoted(d.claims[1])} ({label(d.refs[1])}: {', '.join(d.numbers[1])})")
        else:
            quotes = d.quotes or d.claims
            out.append(f"- {d.kind}: {j['detail']}: {_quoted(quotes[0])} ({label(d.refs[0])}) / "
                       f"{_quoted(quotes[1])} ({label(d.refs[1])})")
    return out


def notes_checks(notes: Iterable[dict], sources: list[Source], report: CitationReport | None,
                 today: dt.date | None = None, *, english: bool = True, styler: Styler | None = None) -> str:
    """The "Checks by code" section of notes.md ("" when nothing was found). ``styler``: the
    citation style of the published report, whose badges name the sides of its places where
    sources disagree (None: numbered, ``[4]``)."""
    parts: list[str] = []
    lines = disagreement_lines(report, side_label(report, styler)) if report is not None else []
    if lines:
        parts.append("### Sources disagree (report)\n\n" + "\n".join(lines) + "\n")
    for n in notes:
        text = (n.get("findings") or "")[:MAX_FINDINGS_CHARS]
        if not text.strip():
            continue
        checked = check_citations(text, sources, today=today, english=english)
        flagged = [f"- line {f.line}: {f.kind.replace('_', ' ')}: {f.note}: "
                   + (f"\u201c{shown_markdown(f, 300)}\u201d" if f.shown else _quoted(f.text)) for f in checked.flags]
        flagged += disagreement_lines(checked)
        if flagged:
            parts.append(f"### Findings: {' '.join(str(n.get('topic', '')).split())[:200]}\n\n" + "\n".join(flagged) + "\n")
    if not parts:
        return ""
    return "## Checks by code\n\n" + "\n".join(parts)

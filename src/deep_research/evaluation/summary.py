"""Totals and tables over the results of a question set (pure)."""

from __future__ import annotations

import html
import math
import re

from statistics import mean
from typing import Any, Iterable

from .checks import accuracy_figures
from .rubric import CRITERIA


def _num(x: Any) -> float | None:
    if not isinstance(x, (int, float)) or isinstance(x, bool):
        return None
    try:
        value = float(x)
    except OverflowError:  # an integer no float holds (a results file may come from anyone)
        return None
    return value if math.isfinite(value) else None


def _obj(x: Any) -> dict:
    return x if isinstance(x, dict) else {}


def _avg(values: Iterable[Any]) -> float | None:
    nums = [v for v in (_num(x) for x in values) if v is not None]
    return round(mean(nums), 4) if nums else None


def row(result: dict) -> dict:
    """The numbers of one question's result, flat (for tables and charts)."""
    checks = _obj(result.get("checks"))
    fact, cites = _obj(checks.get("fact")), _obj(checks.get("citations"))
    claims, struct = _obj(checks.get("claims")), _obj(checks.get("structure"))
    judge, usage = _obj(result.get("judge")), _obj(result.get("usage"))
    behaviour = [b for b in result.get("behaviour") or [] if isinstance(b, dict)] \
        if isinstance(result.get("behaviour"), list) else []
    return {
        "id": result.get("id"),
        "status": result.get("status"),
        "seconds": _num(result.get("seconds")),
        "tokens": _num(usage.get("tokens")),
        "cost_usd": _num(usage.get("cost_usd")),
        "words": _num(struct.get("words")),
        "refs": _num(cites.get("refs")),
        "verified": _num(cites.get("verified")),
        "unsupported_quotes": _num(cites.get("unsupported")),
        "claims": _num(claims.get("claims")),
        "claims_supported": _num(claims.get("supported")),
        "domains": _num(cites.get("independent_sources")),
        "fact_accuracy": _num(fact.get("accuracy")),
        "fact_unchecked_share": _num(fact.get("unchecked_share")),
        "effective_citations": _num(fact.get("effective_citations")),
        "synthesis": _num(_obj(checks.get("synthesis")).get("score")),
        "judge": _num(judge.get("overall")),
        "judge_relative": _num(_obj(judge.get("relative")).get("overall")),
        "behaviour": (f"{sum(b.get('passed') is True for b in behaviour)}/{len(behaviour)}" if behaviour else None),
    }


def summarise(results: list[dict]) -> dict:
    """Totals and means over a question set. FACT accuracy is micro-averaged (supported /
    judged statements over all tasks) and effective citations are per task, as DRB does."""
    rows = [row(r) for r in results]
    done = [r for r in results if r.get("status") == "completed" and r.get("checks")]
    facts = [r["checks"]["fact"] for r in done]
    supported = sum(f["supported"] for f in facts)
    judged = supported + sum(f["unsupported"] for f in facts)
    statements = sum(f["statements"] for f in facts)
    behaviour = [b for r in results for b in r.get("behaviour") or []]
    judges = [r.get("judge") or {} for r in done]
    criteria = {k: _avg((j.get("criteria") or {}).get(k, {}).get("score") for j in judges) for k in CRITERIA}
    return {
        "questions": len(results),
        "completed": sum(1 for r in results if r.get("status") == "completed"),
        "failed": sum(1 for r in results if r.get("status") == "failed"),
        "other": sum(1 for r in results if r.get("status") not in ("completed", "failed")),
        "seconds": round(sum(r["seconds"] or 0 for r in rows), 1),
        "tokens": int(sum(r["tokens"] or 0 for r in rows)),
        "cost_usd": round(sum(r["cost_usd"] or 0 for r in rows) + sum(
            _num((r.get("judge") or {}).get("usage", {}).get("cost_usd")) or 0 for r in results), 6),
        "judge_cost_usd": round(sum(_num((r.get("judge") or {}).get("usage", {}).get("cost_usd")) or 0
                                    for r in results), 6),
        "fact_accuracy": round(supported / judged, 4) if judged else None,
        "fact_unchecked_share": round(1 - judged / statements, 4) if statements else None,
        **{f"fact_{k}": v for k, v in accuracy_figures(supported, judged - supported, statements).items()
           if k in ("accuracy_strict", "accuracy_upper", "accuracy_margin", "accuracy_representative")},
        # the unknown statements by a judge's unproven word on them (checks.judge_word)
        **{f"fact_{k}": sum(int(_num(f.get(k)) or 0) for f in facts)
           for k in ("unknown_judge_supported", "unknown_judge_differs", "unknown_no_judge")},
        "effective_citations_per_task": round(supported / len(done), 2) if done else None,
        "mean": {k: _avg(r[k] for r in rows if r["status"] == "completed")
                 for k in ("seconds", "tokens", "cost_usd", "words", "refs", "synthesis", "judge", "judge_relative")},
        "judge_criteria": criteria if any(v is not None for v in criteria.values()) else None,
        "judge_errors": sum(1 for r in results if (r.get("judge") or {}).get("error")),
        "behaviour_checks": len(behaviour),
        "behaviour_passed": sum(1 for b in behaviour if b["passed"]),
    }


def accuracy_text(f: dict, pct=None) -> str:
    """The citation accuracy as it may be read: the point figure when it stands for the
    report (``accuracy_representative``), else the range the accuracy lies in, with the
    point figure named for what it is (the proven claims only). ``f`` holds ``accuracy``,
    ``accuracy_strict``, ``accuracy_upper``, ``accuracy_representative`` and
    ``unchecked_share`` (or the same keys with a ``fact_`` prefix)."""
    pct = pct or (lambda v: _fmt(v, "pct"))
    get = (lambda k: f.get("fact_" + k)) if "fact_accuracy" in f else f.get
    if get("accuracy") is None or get("accuracy_strict") is None:
        return pct(get("accuracy"))
    if get("accuracy_representative"):
        return pct(get("accuracy"))
    return (f"between {pct(get('accuracy_strict'))} and {pct(get('accuracy_upper'))} "
            f"({pct(get('unchecked_share'))} unchecked; {pct(get('accuracy'))} of the proven claims "
            f"alone, not a figure for the report)")


def judge_words_text(s: dict) -> str:
    """What a judge said of the unchecked statements of a summary, as a clause after "N %
    of statements unchecked" (empty when no judge said anything): its word, not proof."""
    yes, no = s.get("fact_unknown_judge_supported") or 0, s.get("fact_unknown_judge_differs") or 0
    if not yes and not no:
        return ""
    return f" (a judge called {yes} of them supported and {no} different: its word, not proof)"


def _fmt(v: Any, kind: str = "") -> str:
    if v is None:
        return "–"
    if kind == "pct":
        return f"{100 * v:.1f} %"
    if kind == "usd":
        return f"${v:.4f}"
    if isinstance(v, float):
        return f"{v:,.0f}" if v.is_integer() or abs(v) >= 100 else f"{v:.1f}"
    return str(v)


COLUMNS = [("id", "question", ""), ("status", "status", ""), ("seconds", "s", ""), ("tokens", "tokens", ""),
           ("cost_usd", "cost", "usd"), ("words", "words", ""), ("refs", "refs", ""),
           ("fact_accuracy", "FACT acc.", "pct"), ("fact_unchecked_share", "unchecked", "pct"),
           ("effective_citations", "eff. cit.", ""),
           ("synthesis", "synthesis", ""), ("judge", "judge", ""), ("behaviour", "behaviour", "")]


def table_rows(results: list[dict]) -> tuple[list[str], list[list[str]]]:
    """Header and formatted cells of the per-question table; columns no result has are left out."""
    rows = [row(r) for r in results]
    cols = [c for c in COLUMNS if c[0] in ("id", "status") or any(r[c[0]] is not None for r in rows)]
    return [c[1] for c in cols], [[_fmt(r[c[0]], c[2]) for c in cols] for r in rows]


_MD_ACTIVE = re.compile(r"([\\\[\]|])")


def md_text(value: object) -> str:
    """Text shown as it is in markdown, on one line: HTML markup as entities (no raw HTML
    from a result id, a folder name or a judge's words reaches a renderer), and brackets,
    backslashes and table bars escaped (no link or image is made of it, no cell split)."""
    text = " ".join(str(value).split())
    return _MD_ACTIVE.sub(r"\\\1", html.escape(text, quote=False))


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(map(md_text, header)) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(md_text, r)) + " |" for r in rows]
    return "\n".join(lines)


def summary_markdown(results: list[dict], summary: dict, title: str = "Evaluation") -> str:
    header, rows = table_rows(results)
    s = summary
    lines = [f"# {md_text(title)}", "", markdown_table(header, rows), "",
             f"- questions: {s['questions']} ({s['completed']} completed, {s['failed']} failed, {s['other']} other)",
             f"- time {s['seconds']:,.0f} s, tokens {s['tokens']:,}, cost ${s['cost_usd']:.4f}"
             + (f" (judge ${s['judge_cost_usd']:.4f})" if s["judge_cost_usd"] else ""),
             f"- citation accuracy (FACT-style, proven verdicts only): {accuracy_text(s)}, with "
             f"{_fmt(s.get('fact_unchecked_share'), 'pct')} of statements unchecked{judge_words_text(s)}; "
             "effective citations "
             f"per task: {_fmt(s['effective_citations_per_task'])}",
             f"- mean synthesis score: {_fmt(s['mean']['synthesis'])}"]
    if s["mean"]["judge"] is not None:
        lines.append(f"- mean judge score: {_fmt(s['mean']['judge'])}"
                     + (f"; relative to the references: {_fmt(s['mean']['judge_relative'])}"
                        if s["mean"]["judge_relative"] is not None else ""))
    if s["behaviour_checks"]:
        lines.append(f"- behaviour checks passed: {s['behaviour_passed']} of {s['behaviour_checks']}")
    failed = [(r["id"], b) for r in results for b in r.get("behaviour") or [] if not b["passed"]]
    if failed:
        lines += ["", "## Failed behaviour checks", ""] + [f"- {md_text(qid)}: {md_text(b['name'])}: "
                                                          f"{md_text(b['detail'])}" for qid, b in failed]
    errors = [(r["id"], r.get("error")) for r in results if r.get("error")]
    errors += [(r["id"], r["judge"]["error"]) for r in results if (r.get("judge") or {}).get("error")]
    if errors:
        lines += ["", "## Errors", ""] + [f"- {md_text(qid)}: {md_text(e)}" for qid, e in errors]
    return "\n".join(lines) + "\n"

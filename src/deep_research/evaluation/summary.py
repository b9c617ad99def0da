"""Totals and tables over the results of a question set (pure)."""

from __future__ import annotations

from statistics import mean
from typing import Any, Iterable

from .rubric import CRITERIA


def _num(x: Any) -> float | None:
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def _avg(values: Iterable[Any]) -> float | None:
    nums = [v for v in (_num(x) for x in values) if v is not None]
    return round(mean(nums), 4) if nums else None


def row(result: dict) -> dict:
    """The numbers of one question's result, flat (for tables and charts)."""
    checks = result.get("checks") or {}
    fact = checks.get("fact") or {}
    cites = checks.get("citations") or {}
    claims = checks.get("claims") or {}
    struct = checks.get("structure") or {}
    judge = result.get("judge") or {}
    usage = result.get("usage") or {}
    behaviour = result.get("behaviour") or []
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
        "synthesis": _num((checks.get("synthesis") or {}).get("score")),
        "judge": _num(judge.get("overall")),
        "judge_relative": _num((judge.get("relative") or {}).get("overall")),
        "behaviour": (f"{sum(b['passed'] for b in behaviour)}/{len(behaviour)}" if behaviour else None),
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
        "effective_citations_per_task": round(supported / len(done), 2) if done else None,
        "mean": {k: _avg(r[k] for r in rows if r["status"] == "completed")
                 for k in ("seconds", "tokens", "cost_usd", "words", "refs", "synthesis", "judge", "judge_relative")},
        "judge_criteria": criteria if any(v is not None for v in criteria.values()) else None,
        "judge_errors": sum(1 for r in results if (r.get("judge") or {}).get("error")),
        "behaviour_checks": len(behaviour),
        "behaviour_passed": sum(1 for b in behaviour if b["passed"]),
    }


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


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    esc = lambda s: str(s).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    lines = ["| " + " | ".join(map(esc, header)) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(esc, r)) + " |" for r in rows]
    return "\n".join(lines)


def summary_markdown(results: list[dict], summary: dict, title: str = "Evaluation") -> str:
    header, rows = table_rows(results)
    s = summary
    lines = [f"# {title}", "", markdown_table(header, rows), "",
             f"- questions: {s['questions']} ({s['completed']} completed, {s['failed']} failed, {s['other']} other)",
             f"- time {s['seconds']:,.0f} s, tokens {s['tokens']:,}, cost ${s['cost_usd']:.4f}"
             + (f" (judge ${s['judge_cost_usd']:.4f})" if s["judge_cost_usd"] else ""),
             f"- citation accuracy (FACT-style, proven verdicts only): {_fmt(s['fact_accuracy'], 'pct')}, with "
             f"{_fmt(s.get('fact_unchecked_share'), 'pct')} of statements unchecked; effective citations "
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
        lines += ["", "## Failed behaviour checks", ""] + [f"- {qid}: {b['name']}: {b['detail']}" for qid, b in failed]
    errors = [(r["id"], r.get("error")) for r in results if r.get("error")]
    errors += [(r["id"], r["judge"]["error"]) for r in results if (r.get("judge") or {}).get("error")]
    if errors:
        lines += ["", "## Errors", ""] + [f"- {qid}: {e}" for qid, e in errors]
    return "\n".join(lines) + "\n"

"""Comparing two evaluations (or two run folders) question by question: a markdown report,
SVG charts and a self-contained HTML page (charts inline, no scripts, nothing remote).

Charts are drawn with matplotlib's SVG backend: it works offline, needs no browser or
JavaScript, and the SVG is embedded in the page as it is.
"""

from __future__ import annotations

import html
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..publish import write_atomic
from ..terminal import inert_json
from .checks import evaluate_run
from .rundir import EvalInputError, RunFolder, find_run_folders, read_result, result_run_dir
from .summary import _fmt, markdown_table, md_text, row

METRICS = [("tokens", "Tokens", ""), ("cost_usd", "Cost (USD)", "usd"), ("seconds", "Time (s)", ""),
           ("refs", "Citations", ""),
           # of the proven claims alone: the share left unchecked goes beside it, as in `eval report`
           ("fact_accuracy", "Citation accuracy (FACT-style, proven claims only)", "pct"),
           ("fact_unchecked_share", "Claims unchecked (not in the accuracy)", "pct"),
           ("effective_citations", "Effective citations", ""), ("synthesis", "Synthesis score", ""),
           ("judge", "Judge score (0-100)", "")]
MEANS = frozenset({"fact_accuracy", "fact_unchecked_share", "synthesis", "judge"})  # averaged, not summed
COLORS = ("#3b6ea8", "#d98b2b")


@dataclass
class Side:
    label: str
    records: dict[str, dict] = field(default_factory=dict)  # key -> row(...) + question


def _key(text: str) -> str:
    return " ".join((text or "").split()).casefold()


def load_side(path: str | Path, label: str | None = None) -> Side:
    """An eval run's output folder (results/*.json) or run folder(s)."""
    p = Path(path)
    side = Side(label or p.name or str(p))
    results = p / "results"
    if results.is_dir():
        for f in sorted(results.glob("*.json")):
            r = read_result(f)
            run_dir = result_run_dir(p, r, f)
            side.records[str(r.get("id"))] = {**row(r), "question": str(r.get("question") or ""),
                                              "run_dir": str(run_dir) if run_dir else None}
        if not side.records:
            raise EvalInputError(f"{p} has a results folder with no results")
        return side
    for folder in find_run_folders(p):
        run = RunFolder.load(folder)
        checks = evaluate_run(run)
        usage = checks.get("usage") or {}
        result = {"id": run.name, "status": "completed", "checks": checks,
                  "usage": {"tokens": usage.get("tokens"), "cost_usd": usage.get("cost_usd")}}
        side.records[run.name] = {**row(result), "question": run.question or run.name, "run_dir": str(folder)}
    return side


def pair(a: Side, b: Side) -> tuple[list[tuple[str, dict, dict]], list[str]]:
    """Records of the same question on both sides: by id, else by question text; two
    single runs are paired as given. Returns the pairs and notes."""
    notes: list[str] = []
    common = [k for k in a.records if k in b.records]
    if common:
        pairs = [(k, a.records[k], b.records[k]) for k in common]
    else:
        by_q = {_key(r["question"]): k for k, r in b.records.items()}
        pairs = [(ka, ra, b.records[by_q[_key(ra["question"])]]) for ka, ra in a.records.items()
                 if _key(ra["question"]) in by_q]
        if not pairs and len(a.records) == len(b.records) == 1:
            (ka, ra), (_, rb) = next(iter(a.records.items())), next(iter(b.records.items()))
            pairs = [(ka, ra, rb)]
            if _key(ra["question"]) != _key(rb["question"]):
                notes.append("the two runs answer different questions")
    if not pairs:
        raise EvalInputError(f"{a.label} and {b.label} have no question in common")
    only = len(a.records) + len(b.records) - 2 * len(pairs)
    if only:
        notes.append(f"{only} question(s) answered on one side only are left out")
    return pairs, notes


def _short(text: str, n: int = 18) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _question_label(key: str, question: object, n: int = 70) -> str:
    """A per-question row's name: its id and what it asked (an id alone, such as ``q3``, tells
    a reader nothing); the id alone when the question is missing or is the id itself."""
    q = " ".join(str(question or "").split())
    name = _short(key, 40)
    if not q or q == key:
        return name
    return f"{name}: {_short(q, max(24, n - len(name) - 2))}"


def _plain(text: str) -> str:
    """Text matplotlib shows as it is: a "$" would start its math typesetting (a result id
    or folder name "$\\frac{$" made the chart fail)."""
    return str(text).replace("$", r"\$")


def _value_text(v: float, kind: str) -> str:
    """A bar's value as the tables write it (k/M for large counts)."""
    if kind == "usd":
        return f"${v:,.4f}" if v < 1 else f"${v:,.2f}"
    if kind == "pct":
        return f"{100 * v:.0f} %"
    if abs(v) >= 1_000_000:
        return f"{v / 1_000_000:.1f}M"
    if abs(v) >= 10_000:
        return f"{v / 1000:.0f}k"
    return f"{v:,.0f}" if abs(v) >= 10 or float(v).is_integer() else f"{v:.1f}"


def has_data(a: list[float | None], b: list[float | None]) -> bool:
    """Whether a chart would show anything: some value on either side that is not 0 (a cost
    of 0 everywhere means no model had a price, not a free run)."""
    return any(v for v in (*a, *b) if v is not None)


def chart_svg(title: str, labels: list[str], a: list[float | None], b: list[float | None],
              names: tuple[str, str], kind: str = "") -> str:
    """:func:`chart_figure` as an SVG document."""
    import matplotlib.pyplot as plt

    fig = chart_figure(title, labels, a, b, names, kind)
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    svg = buf.getvalue()
    return svg[svg.find("<svg"):]


def chart_figure(title: str, labels: list[str], a: list[float | None], b: list[float | None],
                 names: tuple[str, str], kind: str = ""):
    """A grouped horizontal bar chart (one row per question, A above B): question names
    readable in full (up to 48 characters), the legend above the plot where it covers no
    bar, each bar's value written at its end, and a missing value written as "n/a" instead
    of drawn as a bar of 0. A matplotlib figure (the caller closes it)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    plt.rcParams["svg.hashsalt"] = "deep-research-eval"  # stable element ids
    plt.rcParams["svg.fonttype"] = "none"  # text stays text (smaller, searchable)
    n = len(labels)
    fig, ax = plt.subplots(figsize=(9.0, 1.3 + 0.55 * n))
    height = 0.38
    values = [v for v in (*a, *b) if v is not None]
    top = 1.0 if kind == "pct" else max(values, default=0) or 1.0
    for i, (vals, name) in enumerate(((a, names[0]), (b, names[1]))):
        ys = [y + (i - 0.5) * height for y in range(n)]
        bars = ax.barh(ys, [v if v is not None else 0 for v in vals], height, label=_plain(name), color=COLORS[i])
        for bar, v, y in zip(bars, vals, ys):
            text = "n/a" if v is None else _plain(_value_text(v, kind))
            ax.text((v or 0) + top * 0.01, y, text, va="center", ha="left", fontsize=7,
                    color="#777" if v is None else "#222")
    ax.set_yticks(list(range(n)))
    ax.set_yticklabels([_plain(_short(x, 48)) for x in labels], fontsize=8)
    ax.invert_yaxis()  # the first question on top, as in the tables
    ax.set_xlim(0, top * 1.18)  # room for the value labels
    if kind == "pct":
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{100 * v:.0f} %"))
    elif kind == "usd":  # as many decimals as the tick step needs: $0.0005 steps are not shown as $0.001, $0.001
        ticks = ax.get_xticks()
        step = f"{abs(ticks[1] - ticks[0]):.6f}".rstrip("0").split(".")[1] if len(ticks) > 1 else ""
        places = max(2, len(step))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _plain(f"${v:,.{places}f}")))
    else:
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _value_text(v, kind) if v else "0"))
    ax.tick_params(axis="x", labelsize=8)
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="x", color="#e4e4e4", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.set_title(title, fontsize=10, loc="left", pad=22)
    ax.legend(fontsize=8, frameon=False, ncol=2, loc="lower left", bbox_to_anchor=(0, 1.0), borderaxespad=0.2)
    fig.tight_layout()
    return fig


def _totals(records: list[dict], key: str) -> float | None:
    vals = [r[key] for r in records if r.get(key) is not None]
    if not vals:
        return None
    if key in MEANS:
        return sum(vals) / len(vals)
    return sum(vals)


@dataclass
class Comparison:
    a: Side
    b: Side
    pairs: list[tuple[str, dict, dict]]
    notes: list[str]
    pairwise: dict[str, dict] = field(default_factory=dict)  # key -> judge's A/B verdict

    def metrics(self) -> list[tuple[str, str, str]]:
        return [m for m in METRICS if any(ra.get(m[0]) is not None or rb.get(m[0]) is not None
                                          for _, ra, rb in self.pairs)]

    def as_json(self) -> dict:
        return {"a": self.a.label, "b": self.b.label, "notes": self.notes,
                "questions": [{"key": k, "question": ra["question"], "a": ra, "b": rb,
                               "pairwise": self.pairwise.get(k)} for k, ra, rb in self.pairs],
                "totals": {m: {"a": _totals([p[1] for p in self.pairs], m),
                               "b": _totals([p[2] for p in self.pairs], m)} for m, _, _ in self.metrics()}}

    def summary_rows(self) -> tuple[list[str], list[list[str]]]:
        rows = []
        for m, name, kind in self.metrics():
            ta, tb = _totals([p[1] for p in self.pairs], m), _totals([p[2] for p in self.pairs], m)
            agg = "mean" if m in MEANS else "total"
            rows.append([f"{name} ({agg})", _fmt(ta, kind), _fmt(tb, kind)])
        if self.pairwise:
            wins = [v.get("overall") for v in self.pairwise.values() if not v.get("error")]
            rows.append(["Judge A/B (wins)", str(wins.count("A")), str(wins.count("B"))])
        return ["metric", self.a.label, self.b.label], rows

    def question_rows(self) -> tuple[list[str], list[list[str]]]:
        header = ["question"] + [f"{name} A / B" for _, name, _ in self.metrics()]
        if self.pairwise:
            header.append("judge A/B")
        rows = []
        for k, ra, rb in self.pairs:
            cells = [_question_label(k, ra.get("question"))] + [f"{_fmt(ra.get(m), kind)} / {_fmt(rb.get(m), kind)}"
                                       for m, _, kind in self.metrics()]
            if self.pairwise:
                v = self.pairwise.get(k) or {}
                cells.append(v.get("overall") or ("error" if v.get("error") else "–"))
            rows.append(cells)
        return header, rows

    def _series(self, m: str) -> tuple[list, list]:
        return [ra.get(m) for _, ra, _ in self.pairs], [rb.get(m) for _, _, rb in self.pairs]

    def charts(self) -> dict[str, str]:
        """A chart per metric with something to show (see :meth:`chart_notes` for the rest)."""
        labels = [k for k, _, _ in self.pairs]
        return {m: chart_svg(name, labels, *self._series(m), (f"A: {self.a.label}", f"B: {self.b.label}"), kind)
                for m, name, kind in self.metrics() if has_data(*self._series(m))}

    def chart_notes(self) -> list[str]:
        """Why a metric has no chart: an empty chart (a cost axis with no bars) says nothing."""
        why = {"cost_usd": "no model of either side has a known price"}
        return [f"{name}: no chart, {why.get(m, 'no values on either side')}."
                for m, name, _ in self.metrics() if not has_data(*self._series(m))]


def compare(path_a: str | Path, path_b: str | Path) -> Comparison:
    a, b = load_side(path_a), load_side(path_b)
    if a.label == b.label:
        a.label, b.label = f"A ({a.label})", f"B ({b.label})"
    pairs, notes = pair(a, b)
    return Comparison(a, b, pairs, notes)


def _svg_safe(svg: str) -> str:
    """matplotlib's SVG, with anything that could run or fetch removed (there is none;
    this is a guard, the page promises no scripts and nothing remote)."""
    svg = re.sub(r"<metadata\b.*?</metadata>", "", svg, flags=re.S | re.I)
    svg = re.sub(r"<script\b.*?</script>", "", svg, flags=re.S | re.I)
    return re.sub(r"\s(?:on\w+|xlink:href|href)\s*=\s*\"(?!#)[^\"]*\"", "", svg)


def write_comparison(cmp: Comparison, out_dir: str | Path) -> dict[str, Path]:
    out = Path(out_dir)
    try:
        (out / "charts").mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise EvalInputError(f"cannot create {out}: {e.strerror or e}") from None
    charts = cmp.charts()
    for m, svg in charts.items():
        write_atomic(out / "charts" / f"{m}.svg", svg)
    sh, srows = cmp.summary_rows()
    qh, qrows = cmp.question_rows()
    a, b = md_text(cmp.a.label), md_text(cmp.b.label)
    md = [f"# Comparison: {a} vs {b}", "", f"A = {a}, B = {b}; {len(cmp.pairs)} question(s) in common.", ""]
    md += [f"> {md_text(n)}" for n in cmp.notes] + ([""] if cmp.notes else [])
    md += ["## Totals", "", markdown_table(sh, srows), "", "## Per question", "", markdown_table(qh, qrows), ""]
    md += ["## Charts", ""] + [f"![{name}](charts/{m}.svg)" for m, name, _ in cmp.metrics() if m in charts]
    md += [f"- {note}" for note in cmp.chart_notes()] + [""]
    judged = {k: v for k, v in cmp.pairwise.items() if not v.get("error")}
    if judged:
        md += ["## Judge: A/B", ""]
        for k, v in judged.items():
            md.append(f"- **{md_text(k)}**: overall {md_text(v['overall'])} — " + "; ".join(
                f"{md_text(c)}: {md_text(x['winner'])}" for c, x in v["criteria"].items())
                + f". {md_text(v.get('justification', ''))}")
        md.append("")
    files = {"markdown": out / "compare.md", "html": out / "compare.html", "json": out / "compare.json"}
    write_atomic(files["markdown"], "\n".join(md))
    write_atomic(files["json"], inert_json(json.dumps(cmp.as_json(), ensure_ascii=False, indent=2)) + "\n")
    write_atomic(files["html"], _html(cmp, charts, (sh, srows), (qh, qrows)))
    return files


def _html_table(header: list[str], rows: list[list[str]]) -> str:
    e = html.escape
    head = "".join(f"<th>{e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _html(cmp: Comparison, charts: dict[str, str], summary, questions) -> str:
    e = html.escape
    notes = "".join(f"<p class=note>{e(n)}</p>" for n in cmp.notes)
    figs = "".join(f"<figure>{_svg_safe(svg)}</figure>" for svg in charts.values())
    figs += "".join(f"<p class=note>{e(n)}</p>" for n in cmp.chart_notes())
    judged = {k: v for k, v in cmp.pairwise.items() if not v.get("error")}
    judge = ""
    if judged:
        items = "".join(f"<li><b>{e(k)}</b>: overall {e(v['overall'])}. {e(v.get('justification', ''))}</li>"
                        for k, v in judged.items())
        judge = f"<h2>Judge: A/B</h2><ul>{items}</ul>"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>Comparison: {e(cmp.a.label)} vs {e(cmp.b.label)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #222; }}
table {{ border-collapse: collapse; margin: 1rem 0; font-size: .9rem; }}
th, td {{ border: 1px solid #ccc; padding: .3rem .6rem; text-align: right; }}
th:first-child, td:first-child {{ text-align: left; }}
thead {{ background: #f2f2f2; }}
figure {{ margin: 1rem 0; }} figure svg {{ max-width: 100%; height: auto; }}
.note {{ color: #8a5a00; }}
</style></head><body>
<h1>Comparison</h1>
<p>A = {e(cmp.a.label)}, B = {e(cmp.b.label)}; {len(cmp.pairs)} question(s) in common.</p>
{notes}
<h2>Totals</h2>{_html_table(*summary)}
<h2>Per question</h2>{_html_table(*questions)}
<h2>Charts</h2>{figs}
{judge}
</body></html>
"""

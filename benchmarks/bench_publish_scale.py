"""Publishing without the PDF as reports grow: cost per added citation vs rendering the markdown.

Reports of N citations (``--n 200,800,3200``) over one pool of real pages (``--sources`` 50,
what a long research run reads): the Python 3.11 docs (``benchmarks/.cache/pydoc``, see
``_common.pydoc_root``), whole pages, every page cited by every report. A third of the
sources are the page's visible text (``html_to_text``, format ``text``), a third its markdown
from ``html2text`` and a third from ``markdownify`` (format ``markdown``, as search APIs
deliver pages). Quotes are sentences of the real page's text (what a reader copies); most are
copied verbatim, some with a letter case changed (repaired) or a number changed
(unsupported). Each ref sits in a claim sentence: a near copy of its quote ("The
documentation states that ..."), a sentence with another number, an unrelated sentence, two
refs in one claim, or a ref alone in a list item or table cell (no claim). Seeded: the
report of a smaller N is the beginning of the larger one's plan (same sources, same first refs).

Measured for each N, each run in a fresh process (CPU time, fastest of ``--runs``), as a real
``deep-research publish`` runs: one publish per process, no cache warmed by an earlier publish of
the same report. What does not grow with N is loaded *before* the timed part, in each process:
the imports, the WordNet lexicon of the claim check (about 1.5 s, and a large part of the
variance between processes) and the templates, by publishing a two-citation report over a
made-up page. Everything the publish does per citation stays in the figure:

* ``publish_report(markdown, sources, out, pdf=False)`` with fresh ``Source`` objects (every
  page rendered as a real publish renders it), and its ``check_citations`` share;
* the floor: the same report markdown converted by Python-Markdown with the extensions the
  HTML output uses (``tables``, ``fenced_code``, ``toc``, ``sane_lists``, codehilite);
* memory: the peak of traced allocations (``tracemalloc``) during one ``publish_report``, over
  what was allocated before it (the inputs and the warm-up's loads), in its own process.

Printed: per N the figures; per added citation (the slope between consecutive N, and over
the whole range) ms of CPU and KB of peak memory, the floor's ms per added citation and the
ratio. Targets: <= 0.5 ms and <= 50 KB per added citation. The cost of a cited page itself
(rendering it and its views, once per page) is fixed here; ``--per-source`` shows it: the
smallest N published over half the pool and over the whole pool, ms and KB per added page.
``--profile N`` prints a cProfile of one publish of N citations instead.

    uv run python benchmarks/bench_publish_scale.py [--n 200,800,3200] [--runs 3] [--pydoc DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import itertools

from _common import CACHE, REPO, print_code_version, pydoc_root, target_line, write_result
from _common import run_child as _run_child

SECTIONS = ("library/", "tutorial/", "reference/", "howto/")
WORK = CACHE / "publish_scale"
_SENT = re.compile(r"(?:^|(?<=[.!?] ))[A-Z][^\n]*?[.!?](?=\s|$)", re.MULTILINE)
_NUM = re.compile(r"\d+")
CONVERTERS = (None, "html2text", "markdownify")  # None: the page's text
PREFIXES = ("The documentation states that ", "According to the reference, ", "As documented, ",
            "The manual says that ")


# --- inputs -----------------------------------------------------------------------------------
def _sentences(text: str, lo: int = 40, hi: int = 240) -> list[str]:
    out = []
    for m in _SENT.finditer(text):
        s = m.group(0)
        if lo <= len(s) <= hi and not re.search(r"[\u00b6_*\\`<>|\[\]#\"]", s) and text.count(s) == 1:
            out.append(s)
    return out


def build_inputs(root: Path, need: int, seed: int) -> dict:
    """Every source the largest report cites, in citation order, and the plan of refs."""
    from _mdcorpus import convert

    from deep_research.search.extract import html_to_text

    rng = random.Random(seed)
    files = sorted(p.relative_to(root).as_posix() for sec in SECTIONS for p in (root / sec).rglob("*.html"))
    step = max(1, len(files) // (need * 2))
    sources, quotes = [], {}
    for rel in files[::step]:
        if len(sources) >= need:
            break
        raw = (root / rel).read_text(encoding="utf-8", errors="replace")
        text = html_to_text(raw).text
        sents = _sentences(text)
        if len(text) < 4000 or len(sents) < 6:
            continue
        conv = CONVERTERS[len(sources) % 3]
        content = text if conv is None else convert(raw, conv)
        sid = f"S{len(sources) + 1}"
        sources.append({"id": sid, "url": f"https://docs.python.org/3.11/{rel}", "title": rel,
                        "content": content, "format": "text" if conv is None else "markdown"})
        quotes[sid] = sents
    filler = [s for sents in quotes.values() for s in sents]
    rng.shuffle(filler)
    return {"sources": sources, "quotes": quotes, "filler": filler, "seed": seed}


def _lower_first(s: str) -> str:
    return s[0].lower() + s[1:] if s[:1].isupper() and not s[1:2].isupper() else s


def build_report(inputs: dict, n: int, n_src: int) -> tuple[str, list[dict]]:
    """The report of the first n refs of the plan over the first n_src pages of the pool."""
    rng = random.Random(inputs["seed"])
    sources = inputs["sources"][:n_src]
    ids = [s["id"] for s in sources]
    quotes = inputs["quotes"]
    filler = iter(inputs["filler"] * 4)
    made = 0

    def ref() -> str:
        nonlocal made
        made += 1
        sid = ids[(made - 1) % len(ids)] if made <= len(ids) else rng.choice(ids)
        q = rng.choice(quotes[sid])
        roll = rng.random()
        if roll < 0.03 and _NUM.search(q):
            q = _NUM.sub(lambda m: str(int(m.group(0)) + 1), q, count=1)  # unsupported
        elif roll < 0.08:
            q = _lower_first(q)  # repaired (case)
        return f'<ref id="{sid}">"{q}"</ref>', q

    def claim() -> str:
        tag, q = ref()
        roll = rng.random()
        if roll < 0.45:
            return PREFIXES[made % len(PREFIXES)] + _lower_first(q).rstrip(".") + " " + tag + "."
        if roll < 0.6 and _NUM.search(q):  # another number: a misstated claim, and "sources disagree" material
            return _NUM.sub(lambda m: str(int(m.group(0)) * 2 + 1), q, count=1).rstrip(".") + " " + tag + "."
        if roll < 0.85:
            return next(filler).rstrip(".") + " " + tag + "."
        tag2, _ = ref()
        return PREFIXES[made % len(PREFIXES)] + _lower_first(q).rstrip(".") + " " + tag + " " + tag2 + "."

    out = ["# Python's standard library: a survey of documented behaviour", "", next(filler), ""]
    section = 0
    while made < n:
        section += 1
        out += [f"## {section}. {next(filler).split(',')[0][:60].rstrip('.')}", ""]
        for p in range(6):
            if made >= n:
                break
            kind = rng.random()
            if kind < 0.7:
                parts = [next(filler) for _ in range(rng.randint(1, 3))]
                for _ in range(rng.randint(1, 4)):
                    if made < n:
                        parts.insert(rng.randrange(len(parts) + 1), claim())
                out += [" ".join(parts), ""]
            elif kind < 0.85:
                for _ in range(rng.randint(2, 5)):
                    item = claim() if made < n and rng.random() < 0.7 else next(filler)
                    out.append(f"- {item}")
                if made < n:
                    out.append(f"- {ref()[0]}")  # a ref alone: no claim
                out.append("")
            else:
                out += ["| Topic | Finding | Source |", "|---|---|---|"]
                for _ in range(rng.randint(2, 4)):
                    cell = ref()[0] if made < n else "-"
                    out.append(f"| {next(filler).split(' ')[0]} | {next(filler)[:80]} | {cell} |")
                out.append("")
    out += ["## Sources", "", "(the model's own list; replaced by the checked one)", ""]
    md = "\n".join(out)
    return md, sources


# --- children -----------------------------------------------------------------------------------
def _cpu() -> float:
    return time.process_time()


def child(job: dict) -> dict:
    import datetime as dt
    import gc

    from deep_research.citations.model import Source
    from deep_research.publish import publish_report

    md = Path(job["report"]).read_text(encoding="utf-8")
    raw = json.loads(Path(job["sources"]).read_text(encoding="utf-8"))
    date = dt.date(2026, 1, 1)
    out = Path(job["out"])

    def fresh():
        return [Source(s["id"], s["url"], s["content"], s["title"], s["format"]) for s in raw]

    if job["task"] == "memory":
        import tracemalloc

        warm_up(out.parent / "warm-up", date)
        srcs = fresh()
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        result = publish_report(md, srcs, out, pdf=False, date=date)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return {"peak_kb": (peak - base) / 1024, "refs": len(result.report.citations)}
    if job["task"] == "profile":
        import cProfile
        import pstats

        warm_up(out.parent / "warm-up", date)
        srcs = fresh()
        prof = cProfile.Profile()
        prof.enable()
        publish_report(md, srcs, out, pdf=False, date=date)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(45)
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)
        return {}
    import markdown as md_lib

    from deep_research.publish.html import MARKDOWN_EXTENSION

    warm_up(out.parent / "warm-up", date)
    srcs = fresh()
    gc.collect()
    t = _cpu()
    result = publish_report(md, srcs, out, pdf=False, date=date)
    cpu = _cpu() - t
    gc.collect()
    t = _cpu()
    md_lib.Markdown(extensions=["tables", "fenced_code", "toc", "sane_lists", MARKDOWN_EXTENSION[0]],
                    extension_configs={"toc": {"toc_depth": "2-3", "permalink": False},
                                       MARKDOWN_EXTENSION[0]: MARKDOWN_EXTENSION[1]},
                    output_format="html").convert(md)
    return {"cpu": cpu, "check_wall": result.timings["check_citations_s"], "floor": _cpu() - t,
            "summary": result.summary()}


WARM_PAGE = ("Tea is a drink made from the leaves of the tea plant. The plant grows in 42 countries. "
             "Green tea is not fermented, and black tea is.")
WARM_REPORT = ("# Tea\n\nTea comes from the leaves of the tea plant "
               '<ref id="T1">"Tea is a drink made from the leaves of the tea plant."</ref>. '
               'It grows in 40 countries <ref id="T1">"The plant grows in 42 countries."</ref>.\n')


def warm_up(out: Path, date) -> None:
    """Load what every publish loads once per process and what does not grow with the report:
    the imports, the WordNet lexicon of the claim check, the templates (a two-citation publish
    of a made-up page, not timed)."""
    from deep_research.citations.claims import lexicon
    from deep_research.citations.model import Source
    from deep_research.publish import publish_report

    lexicon.database()
    page = Source("T1", "https://example.org/tea", WARM_PAGE, "Tea", "text")
    publish_report(WARM_REPORT, [page], out, pdf=False, date=date)


def run_child(job: dict, code: str | None) -> dict:
    return _run_child(__file__, job, code, capture=job["task"] != "profile")


def time_runs(job: dict, code: str | None) -> dict:
    """``job["runs"]`` fresh processes, one timed publish each: the fastest."""
    runs = [run_child({**job, "task": "time"}, code) for _ in range(job["runs"])]
    best = min(runs, key=lambda r: r["cpu"])
    return {**best, "cpus": [r["cpu"] for r in runs], "check_wall": min(r["check_wall"] for r in runs),
            "floor": min(r["floor"] for r in runs)}


# --- main -------------------------------------------------------------------------------------------
def measure(inputs: dict, n: int, n_src: int, args) -> dict:
    md, sources = build_report(inputs, n, n_src)
    tag = f"{n}-{n_src}"
    rep, src = WORK / f"report-{tag}.md", WORK / f"sources-{tag}.json"
    rep.write_text(md, encoding="utf-8")
    src.write_text(json.dumps(sources, ensure_ascii=False), encoding="utf-8")
    job = {"report": str(rep), "sources": str(src), "out": str(WORK / f"out-{tag}"), "runs": args.runs}
    if args.profile:
        run_child({**job, "task": "profile"}, args.code)
        return {}
    load0 = os.getloadavg()[0]
    t = time_runs(job, args.code)
    m = run_child({**job, "task": "memory"}, args.code)
    kb = sum(len(s["content"].encode("utf-8")) for s in sources) / 1024
    row = {**t, **m, "sources": len(sources), "source_kb": kb, "report_kb": len(md.encode()) / 1024,
           "load": [load0, os.getloadavg()[0]]}
    s = t["summary"]
    print(f"N={n:5}: {len(sources)} pages ({kb:,.0f} KB), report {row['report_kb']:.0f} KB; "
          f"publish {1000 * t['cpu']:,.0f} ms CPU (check_citations {1000 * t['check_wall']:,.0f} ms wall), "
          f"floor {1000 * t['floor']:,.0f} ms; peak {m['peak_kb'] / 1024:,.1f} MB; "
          f"verified/repaired/unsupported {s['verified']}/{s['repaired']}/{s['unsupported']}, "
          f"fragments {s['fragment_links']}, claims {s['claims']} (supported {s['claims_supported']}), "
          f"disagree {s['sources_disagree']}; load {load0:.1f}", flush=True)
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", default="200,800,3200", help="citation counts")
    ap.add_argument("--sources", type=int, default=50, help="pages in the pool every report cites")
    ap.add_argument("--per-source", action="store_true", help="also: cost per added cited page")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--pydoc", help="Python 3.11 docs folder (default: fetch into benchmarks/.cache)")
    ap.add_argument("--code", help="src folder of the code to measure (default: this checkout)")
    ap.add_argument("--profile", type=int, help="print a cProfile of one publish of this many citations")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--child-out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        job = json.loads(args.child)
        Path(args.child_out).write_text(json.dumps(child(job)))
        return 0
    print_code_version()
    if args.code:
        args.code = str(Path(args.code).resolve())
        print(f"measuring the code in {args.code}")
    ns = sorted(int(x) for x in args.n.split(",")) if not args.profile else [args.profile]
    root = pydoc_root(args.pydoc)
    WORK.mkdir(parents=True, exist_ok=True)
    cache = WORK / f"inputs-{args.sources}-{args.seed}.json"
    if cache.is_file():
        inputs = json.loads(cache.read_text(encoding="utf-8"))
    else:
        inputs = build_inputs(root, args.sources, args.seed)
        cache.write_text(json.dumps(inputs, ensure_ascii=False), encoding="utf-8")
    pool = len(inputs["sources"])
    if args.profile:
        measure(inputs, args.profile, pool, args)
        return 0
    print(f"pool: {pool} pages of the Python 3.11 docs "
          f"({sum(s['format'] == 'markdown' for s in inputs['sources'])} as markdown), "
          f"CPU time, fastest of {args.runs} fresh processes (imports, WordNet lexicon and templates "
          f"loaded before the timed publish); 2 CPUs shared with other work")
    rows = {n: measure(inputs, n, pool, args) for n in ns}
    print()
    figures = []
    pairs = list(itertools.pairwise(ns)) + ([(ns[0], ns[-1])] if len(ns) > 2 else [])
    for a, b in pairs:
        dn = b - a
        ms = 1000 * (rows[b]["cpu"] - rows[a]["cpu"]) / dn
        fl = 1000 * (rows[b]["floor"] - rows[a]["floor"]) / dn
        kb = (rows[b]["peak_kb"] - rows[a]["peak_kb"]) / dn
        main_pair = (a, b) == (ns[0], ns[-1])
        rate = f" ({1000 / ms:,.0f}/s)" if ms > 0 else ""
        figures.append(target_line(f"per added citation {a}->{b}: CPU", f"{ms:.3f} ms{rate}", "<= 0.5 ms",
                                   ms <= 0.5 if main_pair else None))
        figures.append(target_line(f"per added citation {a}->{b}: peak memory", f"{kb:.1f} KB", "<= 50 KB",
                                   kb <= 50 if main_pair else None))
        figures.append(target_line(f"per added citation {a}->{b}: floor", f"{fl:.3f} ms" +
                                   (f", ratio {ms / fl:.1f}x" if fl > 0 else ""), "(report)", None))
    per_source = None
    if args.per_source:
        half = pool // 2
        print(f"\nper cited page: N={ns[0]} over {half} and over {pool} pages")
        low = measure(inputs, ns[0], half, args)
        kb = rows[ns[0]]["source_kb"] - low["source_kb"]
        ms = 1000 * (rows[ns[0]]["cpu"] - low["cpu"])
        mem = rows[ns[0]]["peak_kb"] - low["peak_kb"]
        per_source = {"pages": pool - half, "kb": kb, "ms": ms, "peak_kb": mem}
        figures.append(target_line("per added cited page: CPU", f"{ms / (pool - half):.1f} ms ({ms / kb:.2f} ms/KB)",
                                   "(report)", None))
        figures.append(target_line("per added cited page: peak memory", f"{mem / (pool - half):.0f} KB "
                                   f"({mem / kb:.1f} x its size)", "(report)", None))
    path = write_result("publish_scale", {"args": vars(args), "rows": rows, "per_source": per_source,
                                          "figures": figures})
    print(f"\nresult: {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

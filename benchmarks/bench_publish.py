"""Publish time of a long report vs WeasyPrint alone.

Generates (seeded) a report of about 30 PDF pages with 200 refs to ~25 sources of
20-50 KB (text cut from Python 3.11 docs pages): sections and subsections, prose
paragraphs, tables, bullet and numbered lists, code blocks. Most refs quote a sentence
verbatim; a few differ in case (repaired) or in a number (unsupported), as in real
reports.

Measures, best of 3 each:

* ``publish_report(markdown, sources, out_dir, pdf=True)`` total wall time (fresh Source
  objects every run, so page rendering is included, as in a real publish);
* ``weasyprint.HTML(string=html).write_pdf()`` on the same report.html.

And, as whole processes (what a user waits for, start-up included), best of N each:

* ``deep-research publish report.md --sources sources.json --out DIR``;
* ``python -c "import weasyprint; weasyprint.HTML(filename=report.html).write_pdf(...)"``;
* ``deep-research --help``.

Targets: in-process ratio <= 1.3x; whole-process ratio <= 1.2x; ``--help`` < 0.5 s.
Reports the ratio, the breakdown from ``PublishResult.timings``, the PDF
page count and whether every ref's link is among the PDF's link annotations.

    uv run python benchmarks/bench_publish.py [--refs 200] [--sources 25] [--pydoc DIR]
"""

from __future__ import annotations

import argparse
import html as html_lib
import json
import random
import re
import shutil
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import CACHE, print_code_version, pydoc_root, target_line, write_result  # noqa: E402  (puts the repo root on sys.path)

from deep_research.citations.model import Source  # noqa: E402
from deep_research.publish import publish_report  # noqa: E402
from deep_research.search.extract import html_to_text  # noqa: E402

SECTIONS = ("library/", "tutorial/", "reference/", "howto/")
_SENT = re.compile(r"(?:^|(?<=[.!?] ))[A-Z][^\n]*?[.!?](?=\s|$)", re.M)
TOPICS = ["Scope and method", "Background", "Data model", "Concurrency", "Input and output",
          "Text processing", "Networking", "Error handling", "Packaging and imports", "Testing",
          "Performance", "Security considerations", "Interoperability", "Open questions",
          "Recommendations", "Outlook"]


# --- inputs -----------------------------------------------------------------------------
def load_sources(root: Path, n: int, min_kb: int, max_kb: int, rng: random.Random):
    files = sorted(p.relative_to(root).as_posix() for sec in SECTIONS for p in (root / sec).rglob("*.html"))
    cands = []
    for pg in files:
        if (root / pg).stat().st_size < min_kb * 1024 * 1.5:
            continue
        ex = html_to_text((root / pg).read_bytes())
        if len(ex.text.encode("utf-8")) >= min_kb * 1024:
            cands.append((pg, ex))
    stride = max(1, len(cands) // (n * 2))
    picked = cands[stride // 2 :: stride]
    cited, filler = picked[0::2][:n], picked[1::2]
    sources = []
    for k, (pg, ex) in enumerate(cited):
        limit = rng.randint(min_kb, max_kb) * 1024
        data = ex.text.encode("utf-8")
        text = ex.text
        if len(data) > limit:
            cut = data[:limit].decode("utf-8", "ignore")
            text = cut[: cut.rfind("\n")]
        sources.append({"id": f"S{k + 1}", "url": f"https://docs.python.org/3.11/{pg}",
                        "title": ex.title, "content": text})
    filler_text = "\n".join(ex.text for _, ex in filler)
    code = []
    for pg, _ in cited + filler:
        html = (root / pg).read_text(encoding="utf-8", errors="replace")
        for m in re.finditer(r"<pre>(.*?)</pre>", html, re.S):
            body = re.sub(r"<[^>]+>", "", m.group(1))
            body = html_lib.unescape(body)
            if 3 <= body.count("\n") <= 14 and "```" not in body:
                code.append(body.rstrip())
    return sources, filler_text, code


def sentences(text: str, lo: int, hi: int) -> list[str]:
    out = []
    for m in _SENT.finditer(text):
        s = m.group(0)
        # leave out characters the model would not write plainly in a quote
        if lo <= len(s) <= hi and not re.search(r"[\u00b6_*\\`<>|\[\]#]", s) and '"' not in s:
            out.append(s)
    return out


def build_report(sources: list[dict], filler_text: str, code: list[str], n_refs: int, sections: int,
                 paras_per_section: int, rng: random.Random) -> tuple[str, Counter]:
    prose = sentences(filler_text, 50, 220)
    rng.shuffle(prose)
    prose_iter = iter(prose * 3)
    quotes = {s["id"]: sentences(s["content"], 40, 240) for s in sources}
    quotes = {k: v for k, v in quotes.items() if v}
    ids = sorted(quotes)
    kinds = Counter()

    def ref() -> str:
        sid = rng.choice(ids)
        q = rng.choice(quotes[sid])
        roll = rng.random()
        if roll < 0.03:  # a changed number: unsupported
            sid = rng.choice([k for k in ids if any(re.search(r"\d", x) for x in quotes[k])])
            q = rng.choice([x for x in quotes[sid] if re.search(r"\d", x)])
            q = re.sub(r"\d+", lambda m: str(int(m.group(0)) + 1), q, count=1)
            kinds["unsupported (number)"] += 1
        elif roll < 0.08:
            q = q[0].lower() + q[1:]
            kinds["repaired (case)"] += 1
        else:
            kinds["verbatim"] += 1
        return f'<ref id="{sid}">"{q}"</ref>'

    def para(nrefs: int) -> str:
        parts = []
        for _ in range(rng.randint(3, 6)):
            parts.append(next(prose_iter))
        for _ in range(nrefs):
            k = rng.randrange(len(parts) + 1)
            parts.insert(k, "As the documentation puts it, " + ref())
        return " ".join(parts)

    # spread refs over paragraphs, list items and table cells
    slots = sections * paras_per_section
    per_para = [0] * slots
    for _ in range(int(n_refs * 0.85)):
        per_para[rng.randrange(slots)] += 1
    remaining = n_refs - sum(per_para)
    out = ["# Python's standard library in practice: a survey of documented behaviour", ""]
    out.append(para(0))
    out.append("")
    slot = 0
    for s in range(sections):
        out += [f"## {s + 1}. {TOPICS[s % len(TOPICS)]}", ""]
        for p in range(paras_per_section):
            if p and p % 3 == 0:
                out += [f"### {s + 1}.{p // 3} {rng.choice(prose).split(',')[0][:60].rstrip('.')}", ""]
            out += [para(per_para[slot]), ""]
            slot += 1
            if p == 1:  # a bullet list with refs
                items = rng.randint(3, 6)
                for _ in range(items):
                    extra = ""
                    if remaining > 0 and rng.random() < 0.5:
                        extra = " " + ref()
                        remaining -= 1
                    out.append(f"- **{next(prose_iter).split(' ')[0]}**: {next(prose_iter)}{extra}")
                out.append("")
            if p == 2 and code:
                out += ["```python", rng.choice(code), "```", ""]
            if p == 3:  # a table
                out += ["| Aspect | Finding | Evidence | Confidence |", "|---|---|---|---|"]
                for _ in range(rng.randint(4, 7)):
                    cell = ref() if remaining > 0 and rng.random() < 0.5 else next(prose_iter)[:80]
                    if cell.startswith("<ref"):
                        remaining -= 1
                    out.append(f"| {next(prose_iter).split(' ')[0]} | {next(prose_iter)[:90]} | {cell} | "
                               f"{rng.choice(['high', 'medium', 'low'])} |")
                out.append("")
            if p == 4:
                for k in range(rng.randint(3, 5)):
                    out.append(f"{k + 1}. {next(prose_iter)}")
                out.append("")
    while remaining > 0:  # whatever is left goes into a closing paragraph
        out += [para(min(remaining, 4)), ""]
        remaining -= min(remaining, 4)
    out += ["## Sources", "", "(the model's own list; replaced by the checked one)", ""]
    return "\n".join(out), kinds


# --- PDF checks -----------------------------------------------------------------------------
def pdf_facts(path: Path) -> tuple[int, list[str]]:
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    uris = []
    for page in reader.pages:
        for a in page.get("/Annots") or []:
            obj = a.get_object()
            if obj.get("/Subtype") == "/Link":
                action = obj.get("/A")
                if action is not None:
                    action = action.get_object()
                    if action.get("/URI"):
                        uris.append(str(action["/URI"]))
    return len(reader.pages), uris


# --- run ------------------------------------------------------------------------------------
def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--refs", type=int, default=201)
    ap.add_argument("--sources", type=int, default=25)
    ap.add_argument("--min-kb", type=int, default=20)
    ap.add_argument("--max-kb", type=int, default=50)
    ap.add_argument("--sections", type=int, default=8)
    ap.add_argument("--paragraphs", type=int, default=10, help="paragraphs per section")
    ap.add_argument("--runs", type=int, default=3, help="best of N (default 3)")
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--pydoc", help="Python 3.11 docs folder (default: fetch into benchmarks/.cache)")
    args = ap.parse_args()
    import weasyprint

    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    print_code_version()
    root = pydoc_root(args.pydoc)
    sources, filler, code = load_sources(root, args.sources, args.min_kb, args.max_kb, rng)
    markdown, kinds = build_report(sources, filler, code, args.refs, args.sections, args.paragraphs, rng)
    work = CACHE / "publish"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    (work / "report.input.md").write_text(markdown, encoding="utf-8")
    (work / "sources.json").write_text(json.dumps(sources, ensure_ascii=False, indent=1), encoding="utf-8")
    sizes = [len(s["content"].encode("utf-8")) / 1024 for s in sources]
    n_refs = markdown.count("<ref ")
    print(f"report: {len(markdown) / 1024:.0f} KB markdown, {n_refs} refs ({dict(kinds)}), "
          f"{len(sources)} sources of {min(sizes):.0f}-{max(sizes):.0f} KB (total {sum(sizes):.0f} KB)")
    print(f"inputs written to {work}")

    # publish_report, best of N ------------------------------------------------------------
    runs = []
    for i in range(args.runs):
        fresh = [Source(s["id"], s["url"], s["content"], s["title"], "text") for s in sources]
        out = work / f"run{i + 1}"
        t = time.perf_counter()
        result = publish_report(markdown, fresh, out, pdf=True)
        wall = time.perf_counter() - t
        runs.append((wall, dict(result.timings), result, out))
        print(f"  publish_report run {i + 1}: {wall:.2f} s  "
              + "  ".join(f"{k} {v:.2f}" for k, v in result.timings.items()))
    best_wall, best_timings, best_result, best_out = min(runs, key=lambda r: r[0])

    # check_citations, step by step (measured separately, same inputs) -------------------------
    from deep_research.citations.fragments import fragment_for
    from deep_research.citations.refs import parse_refs
    from deep_research.citations.verify import SourceIndex

    steps: dict[str, float] = {}
    fresh = [Source(s["id"], s["url"], s["content"], s["title"], "text") for s in sources]
    t = time.perf_counter()
    for src in fresh:
        src.page  # noqa: B018 - render
    steps["render source pages"] = time.perf_counter() - t
    t = time.perf_counter()
    index = SourceIndex(fresh)
    for ix in index.sources.values():
        ix.canon_view  # noqa: B018
        ix.token_index  # noqa: B018
    steps["build verify index (eager)"] = time.perf_counter() - t
    t = time.perf_counter()
    parsed = parse_refs(markdown)
    steps["parse refs"] = time.perf_counter() - t
    t = time.perf_counter()
    checks = [index.verify(r.quote, r.source_id) for r in parsed.refs]
    steps["verify quotes"] = time.perf_counter() - t
    spans = sorted({(c.source_id, c.start, c.end) for c in checks if c.found})
    t = time.perf_counter()
    for sid in sorted({sp[0] for sp in spans}):
        pg = index.source(sid).page
        pg.loose  # noqa: B018 - the folded view fragment_for searches
        pg._breaks  # noqa: B018
    steps["fragment views (loose, segments)"] = time.perf_counter() - t
    frag_times = []
    t = time.perf_counter()
    for sid, a, b in spans:
        t1 = time.perf_counter()
        fragment_for(index.source(sid).page, a, b)
        frag_times.append(time.perf_counter() - t1)
    steps["fragment_for (views built)"] = time.perf_counter() - t
    frag_times.sort()
    print("  check_citations step by step: " + "  ".join(f"{k} {v:.3f}s" for k, v in steps.items())
          + f"  (fragment_for median {1000 * frag_times[len(frag_times) // 2]:.1f} ms, "
          f"max {1000 * frag_times[-1]:.0f} ms, {len(frag_times)} spans)")

    # WeasyPrint alone on the same HTML, best of N -----------------------------------------------
    html = (best_out / "report.html").read_text(encoding="utf-8")
    weasy = []
    for i in range(args.runs):
        t = time.perf_counter()
        pdf_bytes = weasyprint.HTML(string=html).write_pdf()
        weasy.append(time.perf_counter() - t)
        print(f"  weasyprint alone run {i + 1}: {weasy[-1]:.2f} s")
    (work / "weasyprint-alone.pdf").write_bytes(pdf_bytes)
    best_weasy = min(weasy)
    ratio = best_wall / best_weasy

    # whole processes: the CLI vs WeasyPrint alone, start-up included -------------------------
    import subprocess

    exe = Path(sys.executable).with_name("deep-research")
    cli = [str(exe)] if exe.exists() else [sys.executable, "-m", "deep_research.cli"]
    (work / "report.html").write_text(html, encoding="utf-8")

    def timed(cmd: list[str]) -> float:
        t = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=work)
        took = time.perf_counter() - t
        if r.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stderr[-2000:]}")
        return took

    proc_publish, proc_weasy, proc_help = [], [], []
    for i in range(args.runs):
        out_dir = work / f"cli{i + 1}"
        shutil.rmtree(out_dir, ignore_errors=True)
        proc_publish.append(timed([*cli, "publish", "report.input.md", "--sources", "sources.json",
                                   "--out", str(out_dir)]))
        proc_weasy.append(timed([sys.executable, "-c", "import weasyprint; "
                                 "weasyprint.HTML(filename='report.html').write_pdf('weasy-process.pdf')"]))
        proc_help.append(timed([*cli, "--help"]))
        print(f"  processes run {i + 1}: publish {proc_publish[-1]:.2f} s, WeasyPrint {proc_weasy[-1]:.2f} s, "
              f"--help {proc_help[-1]:.2f} s")
    proc_ratio = min(proc_publish) / min(proc_weasy)

    # PDF facts ----------------------------------------------------------------------------------
    pages, uris = pdf_facts(best_out / "report.pdf")
    uri_set = set(uris)
    cites = json.loads((best_out / "citations.json").read_text(encoding="utf-8"))
    with_url = [c for c in cites if c["url"]]
    missing = [c for c in with_url if c["url"] not in uri_set]
    summary = best_result.summary()
    frag_links = sum(1 for c in cites if c["fragment"])

    print()
    figures = [
        target_line("publish_report(pdf=True), best of %d" % args.runs, f"{best_wall:.2f} s", "(report)", None),
        target_line("WeasyPrint alone, best of %d" % args.runs, f"{best_weasy:.2f} s", "(report)", None),
        target_line("ratio publish / WeasyPrint", f"{ratio:.2f}x", "<= 1.3x", ratio <= 1.3),
    ]
    figures += [
        target_line("process: deep-research publish, best of %d" % args.runs, f"{min(proc_publish):.2f} s",
                    "(report)", None),
        target_line("process: WeasyPrint alone, best of %d" % args.runs, f"{min(proc_weasy):.2f} s", "(report)", None),
        target_line("process ratio publish / WeasyPrint", f"{proc_ratio:.2f}x", "<= 1.2x", proc_ratio <= 1.2),
        target_line("process: deep-research --help, best of %d" % args.runs, f"{min(proc_help):.2f} s", "< 0.5 s",
                    min(proc_help) < 0.5),
    ]
    accounted = 0.0
    for k, v in best_timings.items():
        figures.append(target_line(f"  {k}", f"{v:.3f} s ({100 * v / best_wall:.0f} %)", "(report)", None))
        accounted += v
    other = best_wall - accounted
    figures.append(target_line("  other (citations.json, audit.json)", f"{other:.3f} s", "(report)", None))
    for k, v in steps.items():
        figures.append(target_line(f"    check_citations: {k}", f"{v:.3f} s", "(report)", None))
    figures.append(target_line("  pdf_s - WeasyPrint alone", f"{best_timings.get('pdf_s', 0) - best_weasy:+.3f} s",
                               "(report)", None))
    figures.append(target_line("PDF pages", str(pages), "about 30", 25 <= pages <= 35))
    figures.append(target_line("refs / with a link / with a fragment", f"{len(cites)} / {len(with_url)} / {frag_links}",
                               f"{args.refs} refs", len(cites) == args.refs))
    figures.append(target_line("ref links present in PDF annotations",
                               f"{len(with_url) - len(missing)}/{len(with_url)}", "all",
                               not missing and len(with_url) == args.refs))
    figures.append(target_line("link annotations in the PDF (all)", str(len(uris)), "(report)", None))
    figures.append(target_line("verdicts verified/repaired/unsupported",
                               f"{summary['verified']}/{summary['repaired']}/{summary['unsupported']}",
                               "(report)", None))
    elapsed = time.perf_counter() - t0
    figures.append(target_line("time: total", f"{elapsed:.1f} s", "(report)", None))
    if missing:
        print(f"\nRef links missing from the PDF annotations ({len(missing)}):")
        from urllib.parse import unquote

        unq = {unquote(u) for u in uri_set}
        for c in missing[:20]:
            near = "an unquoted equal is present" if unquote(c["url"]) in unq else "absent"
            print(f"  ref {c['n']}: {c['url']}  ({near})")
    plain = [c for c in cites if c["url"] and not c["fragment"]]
    if plain:
        print(f"\nRefs with a plain link (no fragment): {len(plain)}")
        for c in plain[:10]:
            print(f"  ref {c['n']} [{c['status']}] {c['note']}")

    path = write_result("publish", {
        "args": vars(args),
        "report": {"markdown_kb": len(markdown) / 1024, "refs": n_refs, "kinds": dict(kinds),
                   "sources": len(sources), "source_kb": sizes},
        "figures": figures,
        "publish_runs_s": [r[0] for r in runs],
        "publish_timings_best": best_timings,
        "check_citations_steps_s": steps,
        "fragment_for_ms": {"median": 1000 * frag_times[len(frag_times) // 2], "max": 1000 * frag_times[-1],
                            "spans": len(frag_times)},
        "weasyprint_runs_s": weasy,
        "ratio": ratio,
        "process_s": {"publish": proc_publish, "weasyprint": proc_weasy, "help": proc_help},
        "process_ratio": proc_ratio,
        "pdf_pages": pages,
        "summary": summary,
        "missing_links": [c["url"] for c in missing],
        "time_s": elapsed,
    })
    print(f"\nresult: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

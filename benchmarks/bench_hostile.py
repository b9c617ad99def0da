"""Publishing time on pathological model output: no input may stall a run.

Each input is a short report (a title and two real citations) with one degenerate block
in the middle: backtick runs of every length, thousands of unmatched brackets or image
openers, lists and block quotes nested 800 deep, a megabyte of repeated text or of one
character, thousands of <ref openers, quote marks, ... For each it times

* ``parse_refs`` (finding citations, with code masked),
* ``check_citations`` (parse, verify, fragment links),
* ``publish_report`` without the PDF (markdown outputs and HTML) and with it,

against a target of 2 s for inputs up to 60 KB (proportionally more for larger ones, so
the target says "linear"), and checks each run published both citations as verified.
Then it checks citations against pages that are themselves degenerate (pages come from the
web too). Finally it publishes all inputs at once in a worker thread, as the research graph does,
and reports the longest time the event loop went without a tick, next to the same figure
for ordinary prose of that size (target: at most twice that, or 0.25 s; on a machine
shared with other work the loop waits for a CPU as well as for the GIL).
Last, it times the masking of a server's paths and URL credentials (``errors.hide_paths``,
its ``_URL`` search, ``mask_url_credentials``) on 60 KB of degenerate text a chat message or
an error could hold ("a.a.a..." without "://", runs of "/", ":", "file:" ...; target 0.2 s
each: an unbounded URL scheme took 1.8 s on "a.a.a...").

    uv run python benchmarks/bench_hostile.py [--no-pdf] [--only SUBSTRING] [--runs 1]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import print_code_version, target_line, write_result  # noqa: E402

from deep_research.citations.check import check_citations  # noqa: E402
from deep_research.citations.model import Source, Verdict  # noqa: E402
from deep_research.citations.refs import parse_refs  # noqa: E402
from deep_research.errors import _URL, hide_paths, mask_url_credentials  # noqa: E402
from deep_research.publish import publish_report  # noqa: E402

PAGE = ("Tea cultivation\n"
        "Tea plants grow best in acidic soil with a pH between 4.5 and 5.5.\n"
        "Harvesting usually starts when the plant is three years old.\n")
GOOD = ('Tea likes acid soil <ref id="tea">"Tea plants grow best in acidic soil with a pH between 4.5 '
        'and 5.5."</ref>.\n\n')
GOOD2 = '\n\nHarvests begin late <ref id="tea">"Harvesting usually starts when the plant is three years old."</ref>.\n'
KB60 = 60 * 1024
PROSE = ("Heat pumps move heat rather than making it, which is why their efficiency can exceed one; "
         "in cold climates the *coefficient of performance* falls, but modern units still deliver "
         "two to three units of heat per unit of electricity [1](https://example.org/a).\n\n")


def inputs() -> dict[str, str]:
    return {
        "backtick runs of length 1..340": " ".join("`" * i for i in range(1, 341)),
        "backtick runs 340..1": " ".join("`" * i for i in range(340, 0, -1)),
        "20,000 [": "[" * 20000,
        "20,000 ![": "![" * 20000,
        "15,000 [a](": "[a](" * 15000,
        "12,000 [x](<": "[x](<" * 12000,
        "brackets nested 5,000 deep": "[" * 5000 + "x" + "]" * 5000 + "(https://example.org/)",
        "list nested 800 deep (2 spaces a level)": "".join("  " * i + "- item\n" for i in range(800)),
        "list nested 800 deep on one line": "1. " * 800 + "x\n",
        "block quotes nested 800 deep, 800 lines": "".join(">" * i + " x\n" for i in range(1, 801)),
        "800 > on one line": ">" * 800 + " x\n",
        "10,000 <ref openers": "<ref " * 10000,
        "10,000 unclosed <ref id>": '<ref id="tea">"Tea ' * 5000,
        "5,000 well-formed refs": ('<ref id="tea">"Harvesting usually starts when the plant is three years old."'
                                  "</ref> ") * 5000,
        "60 KB of quote marks": '"' * KB60,
        "60 KB of *": "*" * KB60,
        "60 KB of ~": "~" * KB60,
        "60 KB of backslashes": "\\" * KB60,
        "60 KB of <": "<" * KB60,
        "20,000 <a": "<a " * 20000,
        "20,000 <!--": "<!--" * 15000,
        "60 KB of |": "|" * KB60,
        "table row of 30,000 cells under a 1-cell header": "| A |\n|---|\n" + "|x" * (KB60 // 2),
        "table row of 10,000 `a|b` and \"a|b\"": "| A |\n|---|\n" + '`a|b` "a|b" ' * (KB60 // 12),
        "title of 60 KB #s": "# " + "#" * KB60 + "x\n",
        "15,000 backtick pairs over lines": "`a\n" * 15000,
        "1 MB of *": "*" * (1 << 20),
        "1 MB of repeated prose": PROSE * ((1 << 20) // len(PROSE)),
    }


def path_inputs() -> dict[str, str]:
    """Degenerate text for the path and URL masking of errors.py (60 KB each)."""
    return {
        "a.a.a... without ://": "a." * (KB60 // 2),
        "a+a-... without ://": "a+a-" * (KB60 // 4),
        "60 KB of /": "/" * KB60,
        "60 KB of :": ":" * KB60,
        "a:a:a...": "a:" * (KB60 // 2),
        "a:/a:/...": "a:/" * (KB60 // 3),
        "a://a://...": "a://" * (KB60 // 4),
        "60 KB of a, then ://": "a" * KB60 + "://x",
        "x:// then 60 KB of /": "x://" + "/" * KB60,
        "file:file:...": "file:" * (KB60 // 5),
        "file://file://...": "file://" * (KB60 // 7),
        "~/~/...": "~/" * (KB60 // 2),
        "C:\\C:\\...": "C:\\" * (KB60 // 3),
        "docs/docs/... (known)": "docs/" * (KB60 // 5),
        "60 KB of backslashes": "\\" * KB60,
    }


def time_path_masking(runs: int, only: str | None) -> tuple[list[dict], list[str], bool]:
    """hide_paths (with known folders, as a server's settings give), the _URL search alone
    and mask_url_credentials on each of :func:`path_inputs`: (rows, figures, all met)."""
    rows, figures, all_met = [], [], True
    known = ["/srv/docs", "docs", "C:\\data"]
    target = 0.2
    print("\nserver paths and URL credentials masked in degenerate text (errors.py)")
    for name, text in path_inputs().items():
        if only and only not in name:
            continue
        row = {"input": name, "kb": round(len(text) / 1024, 1)}
        for label, fn in (("hide_paths", lambda: hide_paths(text, known)),
                          ("_URL.finditer", lambda: list(_URL.finditer(text))),
                          ("mask_url_credentials", lambda: mask_url_credentials(text))):
            best = float("inf")
            for _ in range(runs):
                t = time.process_time()
                fn()
                best = min(best, time.process_time() - t)
            row[label + "_s"] = round(best, 4)
            met = best < target
            all_met &= met
            figures.append(target_line(f"  {label}, {name}", f"{best:.4f} s CPU", f"< {target} s", met))
        rows.append(row)
    return rows, figures, all_met


def _timed(fn, runs: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def _sources() -> list[Source]:
    return [Source("tea", "https://example.org/tea", PAGE, "Tea", "text")]


def loop_stall(markdown: str) -> tuple[float, int]:
    """Publish in a worker thread while the event loop ticks every 5 ms: the longest gap
    between ticks, and the number of ticks."""
    gaps: list[float] = []

    async def main():
        done = asyncio.Event()

        async def ticker():
            last = time.perf_counter()
            while not done.is_set():
                await asyncio.sleep(0.005)
                now = time.perf_counter()
                gaps.append(now - last)
                last = now

        task = asyncio.create_task(ticker())
        with tempfile.TemporaryDirectory() as tmp:
            try:
                await asyncio.to_thread(publish_report, markdown, _sources(), tmp, pdf=False)
            finally:
                done.set()
                await task

    asyncio.run(main())
    return max(gaps, default=0.0), len(gaps)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--no-pdf", action="store_true", help="skip the runs with the PDF")
    ap.add_argument("--only", help="run the inputs whose name contains this")
    ap.add_argument("--runs", type=int, default=1, help="best of N (default 1)")
    args = ap.parse_args()
    print_code_version()
    rows, figures = [], []
    all_met = True
    for name, block in inputs().items():
        if args.only and args.only not in name:
            continue
        md = "# Degenerate input\n\n" + GOOD + block + GOOD2
        size = len(md.encode("utf-8"))
        target = 2.0 * max(1.0, size / KB60)
        print(f"\n{name}  ({size / 1024:,.0f} KB)")
        t_parse, parsed = _timed(lambda: parse_refs(md), args.runs)
        t_check, report = _timed(lambda: check_citations(md, _sources()), args.runs)
        row = {"input": name, "kb": round(size / 1024, 1), "target_s": round(target, 1),
               "parse_refs_s": round(t_parse, 3), "check_citations_s": round(t_check, 3)}
        with tempfile.TemporaryDirectory() as tmp:
            t_pub, result = _timed(lambda: publish_report(md, _sources(), tmp, pdf=False), args.runs)
            row["publish_s"] = round(t_pub, 3)
            row["degraded"] = [d["reason"] for d in result.output_policy["degraded"]]
        if not args.no_pdf:
            with tempfile.TemporaryDirectory() as tmp:
                t_pdf, result = _timed(lambda: publish_report(md, _sources(), tmp, pdf=True), args.runs)
                row["publish_pdf_s"] = round(t_pdf, 3)
        statuses = [c.status for c in report.citations]
        row["correct"] = (statuses[:1] == [Verdict.VERIFIED] and statuses[-1:] == [Verdict.VERIFIED]
                          and len(parsed.refs) == len(report.citations))
        for label, key in (("parse_refs", "parse_refs_s"), ("check_citations", "check_citations_s"),
                           ("publish_report, no PDF", "publish_s"), ("publish_report with PDF", "publish_pdf_s")):
            if key in row:
                met = row[key] < target
                all_met &= met
                figures.append(target_line(f"  {label}", f"{row[key]:.3f} s", f"< {target:.1f} s", met))
        figures.append(target_line("  both citations verified, refs parsed", str(row["correct"]), "True",
                                   row["correct"]))
        all_met &= row["correct"]
        for d in row["degraded"]:
            print(f"    degraded: {d}")
        rows.append(row)

    print("\nhostile pages (the cited page itself is degenerate)")
    for name, page in (("page of 60,000 [", "[" * KB60), ("page of 15,000 [a](", "[a](" * 15000),
                       ("page of 15,000 <!--", "<!--" * 15000), ("page of 60 KB of backticks",
                                                                 " ".join("`" * i for i in range(1, 340)))):
        if args.only and args.only not in name:
            continue
        src = [Source("tea", "https://example.org/tea", page + "\n" + PAGE, "Tea", "markdown")]
        md = "# Hostile page\n\n" + GOOD + GOOD2
        t_check, report = _timed(lambda: check_citations(md, src), args.runs)
        ok = [c.status for c in report.citations] == [Verdict.VERIFIED, Verdict.VERIFIED]
        met = t_check < 2.0 and ok
        all_met &= met
        figures.append(target_line(f"  check_citations, {name}", f"{t_check:.3f} s", "< 2.0 s, both verified", met))
        rows.append({"input": name, "kb": round(len(page) / 1024, 1), "check_citations_s": round(t_check, 3),
                     "correct": ok})

    if not args.only:
        worst = "# All at once\n\n" + GOOD + "\n\n".join(b for n, b in inputs().items() if "1 MB" not in n) + GOOD2
        print(f"\nevent loop while publishing every input above but the 1 MB ones ({len(worst) / 1024:,.0f} KB) "
              "in a worker thread")
        prose = "# Prose\n\n" + GOOD + PROSE * (len(worst) // len(PROSE)) + GOOD2
        ref_gap, ref_ticks = loop_stall(prose)
        gap, ticks = loop_stall(worst)
        limit = max(0.25, 2 * ref_gap)
        met = gap < limit
        all_met &= met
        figures.append(target_line("  longest event-loop stall", f"{gap * 1000:.0f} ms ({ticks} ticks)",
                                   f"< {limit * 1000:.0f} ms", met))
        figures.append(target_line("  same for ordinary prose of that size", f"{ref_gap * 1000:.0f} ms "
                                   f"({ref_ticks} ticks)", "(reference)", None))
    path_rows, path_figures, met = time_path_masking(args.runs, args.only)
    rows += path_rows
    figures += path_figures
    all_met &= met
    print(f"\nall targets {'MET' if all_met else 'NOT MET'}")
    path = write_result("hostile", {"rows": rows, "figures": figures, "all_met": all_met})
    print(f"result: {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")


if __name__ == "__main__":
    main()

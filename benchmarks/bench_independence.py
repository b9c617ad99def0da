"""Independence by content: does the near-duplicate measure (citations.evidence) join a page
with its other copy, and keep different pages apart?

Corpus: the Python 3.11 documentation from Debian's python3.11-doc, which holds each page
twice: the built HTML (read with the local corpus's own reader) and the Sphinx source text
beside it (``_sources/<page>.rst.txt``). Pages are a deterministic stride over library/,
tutorial/, reference/ and howto/.

* copies: each page's HTML text against its own .rst.txt: must be one text;
* different pages: each page's HTML against the next page's .rst.txt: must be two texts;
  and against the next page's HTML (shown apart: one site, shared navigation, so the
  site key joins such pages anyway when they come from the web).

Prints the containment distribution of each kind, the share on the wrong side of
SAME_TEXT, and the time per print.

    uv run python benchmarks/bench_independence.py [--pages 150] [--pydoc DIR]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import percentile, print_code_version, pydoc_root, target_line, write_result  # noqa: E402

from deep_research.citations.evidence import SAME_TEXT, containment, text_print  # noqa: E402
from deep_research.search.local import read_document  # noqa: E402


def pages(root: Path, n: int) -> list[tuple[Path, Path]]:
    found = []
    for sub in ("library", "tutorial", "reference", "howto"):
        for html in sorted((root / sub).glob("*.html")):
            rst = root / "_sources" / sub / (html.stem + ".rst.txt")
            if rst.is_file():
                found.append((html, rst))
    stride = max(1, len(found) // n)
    return found[::stride][:n]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=150)
    ap.add_argument("--pydoc", default=None)
    args = ap.parse_args()
    root = pydoc_root(args.pydoc)
    print_code_version()
    chosen = pages(root, args.pages)
    prints, seconds, words = [], [], 0
    for html, rst in chosen:
        doc, _ = read_document(html.read_bytes(), "html", published=False)
        texts = (doc.text, rst.read_text(encoding="utf-8"))
        t = time.perf_counter()
        prints.append(tuple(text_print(x) for x in texts))
        seconds.append((time.perf_counter() - t) / 2)
        words += sum(len(x.split()) for x in texts)
    copies = [containment(h, r) for h, r in prints]
    other_html = [containment(prints[i][0], prints[i + 1][0]) for i in range(len(prints) - 1)]
    other_rst = [containment(prints[i][0], prints[i + 1][1]) for i in range(len(prints) - 1)]
    print(f"{len(chosen)} pages, {words:,} words; SAME_TEXT = {SAME_TEXT}")
    rows = {"page .html vs its .rst.txt": copies, "two HTML pages of one site": other_html,
            "page vs another page's .rst": other_rst}
    for label, vals in rows.items():
        print(f"  {label:<30} min {min(vals):.2f}  p5 {percentile(vals, 5):.2f}  median "
              f"{percentile(vals, 50):.2f}  p95 {percentile(vals, 95):.2f}  max {max(vals):.2f}")
    split = sum(c < SAME_TEXT for c in copies) / len(copies)
    merged = sum(c >= SAME_TEXT for c in other_rst) / len(other_rst)
    merged_site = sum(c >= SAME_TEXT for c in other_html) / len(other_html)
    figures = [
        target_line("copies counted as two sources", f"{split:.2%}", "0 %", split == 0),
        target_line("different pages counted as one", f"{merged:.2%}", "0 %", merged == 0),
        target_line("  same site, both HTML (site key joins them)", f"{merged_site:.2%}", "-", None),
        target_line("time per page print (median)", f"{1000 * percentile(seconds, 50):.1f} ms", "-", None),
        target_line("time per page print (max)", f"{1000 * max(seconds):.1f} ms", "-", None),
    ]
    write_result("independence", {"pages": len(chosen), "same_text": SAME_TEXT, "figures": figures,
                                  "containment": {k: sorted(v) for k, v in rows.items()}})


if __name__ == "__main__":
    main()

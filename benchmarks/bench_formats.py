"""Corpus formats: per-format libraries (what search/formats.py uses) vs markitdown.

Generates documents of realistic size with each format's own writer (python-docx,
python-pptx, openpyxl, csv, ebooklib) into benchmarks/.cache/formats/, extracts their
text with :mod:`deep_research.search.formats` and with markitdown, and prints:

* fidelity, against what was written: the share of sentences found verbatim (whitespace
  collapsed) in the text, since a quote is checked against that text; of paragraphs kept
  on a line of their own (a sentence boundary a quote and its fragment can rely on); of
  headings kept as markdown headings; of table/sheet rows whose line names every column
  (so that a quoted row says what its numbers are);
* speed: seconds per document (best of --repeat runs; markitdown's import and converter
  set-up are timed apart);
* installed size of each choice's packages.

markitdown is not a project dependency: install it in an environment of its own and
pass its Python,

    uv venv /tmp/mdvenv && VIRTUAL_ENV=/tmp/mdvenv uv pip install "markitdown[docx,pptx,xlsx]"
    uv run python benchmarks/bench_formats.py --markitdown-python /tmp/mdvenv/bin/python

Without --markitdown-python only the per-format libraries are measured. ~1 min.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import re
import subprocess
import sys
import textwrap
import time
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import CACHE, target_line, write_result

OUT = CACHE / "formats"
WORDS = [
    "heat", "pump", "refrigerant", "compressor", "outdoor", "unit", "installer", "grant",
    "electricity", "gas", "boiler", "radiator", "floor", "heating", "efficiency", "season",
    "winter", "summer", "cost", "price", "tariff", "household", "detached", "terraced",
    "insulation", "window", "loft", "wall", "survey", "network", "grid", "demand", "peak",
    "storage", "tank", "water", "cylinder",
]
# Characters that occur in real documents and that markdown writers may escape.
SPECIAL = ["the COP_rating field", "5 * 3 = 15", "items [a] and [b]", "R-32 #1 choice", "a <b> tag"]
ENV_OURS = ["python-docx", "python-pptx", "openpyxl", "et-xmlfile", "XlsxWriter", "defusedxml"]


def sentence(rng: random.Random, i: int) -> str:
    words = rng.sample(WORDS, rng.randint(8, 16))
    if i % 20 == 0:
        words.insert(3, SPECIAL[(i // 20) % len(SPECIAL)])
    s = " ".join(words)
    return s[0].upper() + s[1:] + f" ({i})."


class Truth:
    def __init__(self) -> None:
        self.sentences: list[str] = []
        self.paragraphs: list[str] = []
        self.headings: list[str] = []
        self.rows: list[list[tuple[str, str]]] = []  # (header, value) per cell


def make_docx(path: Path, rng: random.Random, truth: Truth, sections: int = 60) -> None:
    import docx

    d = docx.Document()
    n = 0
    for s in range(sections):
        h = f"Section {s}: {' '.join(rng.sample(WORDS, 3))}"
        d.add_heading(h, level=1 + s % 2)
        truth.headings.append(h)
        for _ in range(8):
            sents = [sentence(rng, n + k) for k in range(3)]
            n += 3
            d.add_paragraph(" ".join(sents))
            truth.sentences += sents
            truth.paragraphs.append(" ".join(sents))
        for _ in range(4):
            item = sentence(rng, n)
            n += 1
            d.add_paragraph(item, style="List Bullet")
            truth.sentences.append(item)
        header = ["Country", "Year", "Share", "Note"]
        t = d.add_table(rows=5, cols=4)
        for c, name in enumerate(header):
            t.cell(0, c).text = name
        for r in range(1, 5):
            values = [rng.choice(["Norway", "Sweden", "France"]), str(2000 + r + s), f"{rng.randint(1, 99)} %",
                      " ".join(rng.sample(WORDS, 3))]
            for c, v in enumerate(values):
                t.cell(r, c).text = v
            truth.rows.append(list(zip(header, values, strict=True)))
    d.save(path)


def make_pptx(path: Path, rng: random.Random, truth: Truth, slides: int = 40) -> None:
    import pptx

    p = pptx.Presentation()
    n = 10_000
    for s in range(slides):
        slide = p.slides.add_slide(p.slide_layouts[1])
        title = f"Slide title {s} {' '.join(rng.sample(WORDS, 2))}"
        slide.shapes.title.text = title
        truth.headings.append(title)
        tf = slide.placeholders[1].text_frame
        bullets = [sentence(rng, n + k) for k in range(5)]
        n += 5
        tf.text = bullets[0]
        for b in bullets[1:]:
            tf.add_paragraph().text = b
        truth.sentences += bullets
        truth.paragraphs += bullets
    p.save(path)


def table_rows(rng: random.Random, rows: int) -> tuple[list[str], list[list[str]]]:
    header = ["Region", "Year", "Installations", "Average cost (EUR)", "Share", "Comment"]
    data = [[rng.choice(["North", "South", "East", "West"]), str(1990 + i % 35), str(rng.randint(10, 99999)),
             str(rng.randint(5000, 20000)), f"{rng.randint(1, 99)} %", " ".join(rng.sample(WORDS, 4))]
            for i in range(rows)]
    return header, data


def make_xlsx(path: Path, rng: random.Random, truth: Truth, rows: int = 20_000) -> None:
    import openpyxl

    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("Installations")
    header, data = table_rows(rng, rows)
    ws.append(header)
    truth.headings.append("Installations")
    for row in data:
        ws.append(row)
        truth.rows.append(list(zip(header, row, strict=True)))
    wb.save(path)


def make_csv(path: Path, rng: random.Random, truth: Truth, rows: int = 20_000) -> None:
    header, data = table_rows(rng, rows)
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(data)
    truth.rows += [list(zip(header, row, strict=True)) for row in data]


def make_epub(path: Path, rng: random.Random, truth: Truth, chapters: int = 30) -> None:
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("bench")
    book.set_title("Benchmark book")
    book.set_language("en")
    items, n = [], 20_000
    for c in range(chapters):
        title = f"Chapter {c} {' '.join(rng.sample(WORDS, 2))}"
        truth.headings.append(title)
        paras = []
        for _ in range(20):
            sents = [sentence(rng, n + k) for k in range(3)]
            n += 3
            truth.sentences += sents
            truth.paragraphs.append(" ".join(sents))
            paras.append(" ".join(sents))
        ch = epub.EpubHtml(title=title, file_name=f"c{c}.xhtml", lang="en")
        body = "".join(f"<p>{p.replace('&', '&amp;').replace('<', '&lt;')}</p>" for p in paras)
        ch.content = f"<html><body><h1>{title}</h1>{body}</body></html>"
        book.add_item(ch)
        items.append(ch)
    book.toc = items
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = items
    epub.write_epub(str(path), book)


MAKERS = {"docx": make_docx, "pptx": make_pptx, "xlsx": make_xlsx, "csv": make_csv, "epub": make_epub}


def norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def fidelity(text: str, truth: Truth) -> dict:
    flat = norm(text)
    lines = {norm(line) for line in text.splitlines()}
    heading_lines = {norm(re.sub(r"^#+\s*", "", line)) for line in text.splitlines() if line.lstrip().startswith("#")}

    def share(found: int, total: int) -> float | None:
        return round(found / total, 3) if total else None

    # a row is named when one line holds it as "Header: value; ..." (set look-up: linear)
    rows_named = sum(1 for row in truth.rows if "; ".join(f"{h}: {v}" for h, v in row if v) in lines)
    return {
        "sentences": share(sum(1 for s in truth.sentences if s in flat), len(truth.sentences)),
        "paragraph_lines": share(sum(1 for p in truth.paragraphs if p in lines or f"- {p}" in lines),
                                 len(truth.paragraphs)),
        "headings": share(sum(1 for h in truth.headings if any(h in x for x in heading_lines)), len(truth.headings)),
        "rows_named": share(rows_named, len(truth.rows)),
    }


def ours(path: Path, kind: str, repeat: int) -> tuple[str, float]:
    from deep_research.search.formats import EXTRACTORS

    data = path.read_bytes()
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        text = EXTRACTORS[kind](data).text
        best = min(best, time.perf_counter() - t)
    return text, best


MARKITDOWN_RUNNER = textwrap.dedent("""
    import json, sys, time
    t = time.perf_counter()
    from markitdown import MarkItDown
    md = MarkItDown(enable_plugins=False)
    setup = time.perf_counter() - t
    out = {"setup_s": setup, "version": __import__("importlib.metadata").metadata.version("markitdown"), "docs": {}}
    for path in sys.argv[2:]:
        best, text, err = float("inf"), "", None
        for _ in range(int(sys.argv[1])):
            t = time.perf_counter()
            try:
                text = md.convert(path).text_content
            except Exception as e:
                err = f"{type(e).__name__}: {e}"
                break
            best = min(best, time.perf_counter() - t)
        out["docs"][path] = {"text": text, "seconds": best if err is None else None, "error": err}
    print(json.dumps(out))
""")


def markitdown(python: str, paths: list[Path], repeat: int) -> dict:
    done = subprocess.run([python, "-c", MARKITDOWN_RUNNER, str(repeat), *map(str, paths)],
                          capture_output=True, text=True, timeout=1800, check=False)
    if done.returncode != 0:
        raise SystemExit(f"markitdown failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def dist_size(names: list[str], python: str | None = None) -> tuple[float, list[str]]:
    """Installed MB of these distributions (and, for another environment, of all of it)."""
    if python is None:
        total = 0
        for name in names:
            d = metadata.distribution(name)
            total += sum(d.locate_file(f).stat().st_size for f in d.files or [] if d.locate_file(f).exists())
        return total / 1e6, names
    code = ("import importlib.metadata as m, json; ds=list(m.distributions());"
            "print(json.dumps([sum(f.size or 0 for f in (d.files or [])) for d in ds]+"
            "[[d.metadata['Name'] for d in ds]]))")
    out = json.loads(subprocess.run([python, "-c", code], capture_output=True, text=True, check=True).stdout)
    names = sorted(n for n in out[-1] if n.lower() not in ("pip", "setuptools", "wheel"))
    return sum(out[:-1]) / 1e6, names


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--markitdown-python", help="Python of an environment where markitdown is installed")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    truths, paths = {}, {}
    for kind, make in MAKERS.items():
        truth, path = Truth(), OUT / f"bench.{kind}"
        make(path, random.Random(args.seed), truth)
        truths[kind], paths[kind] = truth, path
    result: dict = {"documents": {k: p.stat().st_size for k, p in paths.items()}, "ours": {}, "markitdown": {}}
    for kind, path in paths.items():
        text, seconds = ours(path, kind, args.repeat)
        result["ours"][kind] = {"seconds": round(seconds, 3), **fidelity(text, truths[kind])}
    if args.markitdown_python:
        md = markitdown(args.markitdown_python, list(paths.values()), args.repeat)
        result["markitdown_version"], result["markitdown_setup_s"] = md["version"], round(md["setup_s"], 2)
        for kind, path in paths.items():
            doc = md["docs"][str(path)]
            entry = {"seconds": round(doc["seconds"], 3) if doc["seconds"] is not None else None,
                     "error": doc["error"]}
            entry.update(fidelity(doc["text"], truths[kind]))
            result["markitdown"][kind] = entry
        size, names = dist_size([], args.markitdown_python)
        result["markitdown_env_mb"], result["markitdown_env_packages"] = round(size, 1), names
    result["ours_mb"] = round(dist_size(ENV_OURS)[0], 1)

    print(f"\nDocuments: {', '.join(f'{k} {v / 1e3:,.0f} kB' for k, v in result['documents'].items())}")
    cols = ("seconds", "sentences", "paragraph_lines", "headings", "rows_named")
    print(f"\n  {'format/extractor':<22}" + "".join(f"{c:>17}" for c in cols))
    for kind in paths:
        for who in ("ours", "markitdown"):
            e = result[who].get(kind)
            if e:
                cells = "".join(f"{'-' if e.get(c) is None else e[c]!s:>17}" for c in cols)
                print(f"  {kind + ' / ' + who:<22}{cells}" + (f"  ERROR {e['error']}" if e.get("error") else ""))
    print()
    figures = [target_line("per-format libraries installed", f"{result['ours_mb']} MB", "< 20 MB",
                           result["ours_mb"] < 20)]
    if args.markitdown_python:
        figures.append(target_line("markitdown environment installed", f"{result['markitdown_env_mb']} MB",
                                   "(for comparison)", None))
        print(f"  markitdown {result['markitdown_version']}: import and set-up {result['markitdown_setup_s']} s; "
              f"packages: {', '.join(result['markitdown_env_packages'])}")
    worst = min(v for e in result["ours"].values() for v in (e["sentences"], e["rows_named"]) if v is not None)
    figures.append(target_line("ours: sentences / named rows kept (worst)", f"{worst:.3f}", "1.000", worst == 1.0))
    result["figures"] = figures
    print(f"\nResult: {write_result('bench_formats', result)}")


if __name__ == "__main__":
    main()

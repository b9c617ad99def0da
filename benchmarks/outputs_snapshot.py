"""Snapshot every published output, and diff two snapshots: the check that a refactoring
(a move of modules, a split of files) changed no output.

Three steps, run with the same corpus before and after the change:

    # 1. record every report the test suite publishes (the inputs of each publish_report call:
    #    the tests' reports, their hostile inputs, the reports of the scripted research runs)
    uv run python benchmarks/outputs_snapshot.py capture CORPUS [-- PYTEST ARGS]
    # 2. publish everything into a folder
    uv run python benchmarks/outputs_snapshot.py publish OUT [--corpus CORPUS] [--quick]
    # 3. compare two such folders file by file (exit code 1 when they differ)
    uv run python benchmarks/outputs_snapshot.py diff OUT_BEFORE OUT_AFTER

``publish`` writes, each into its own folder:

* ``examples/<variant>``: examples/report.md with examples/sources.json through the real
  command line (``deep-research publish``), once per variant: as is; ``--citation-style apa
  --docx``; ``--verified-findings --citation-style mla``; ``--citation-style ieee --no-pdf``.
* ``hostile/<n>-<variant>``: benchmarks/bench_hostile.py's degenerate inputs (the red-team
  corpus of the publishing benchmarks) and its degenerate pages, through ``publish_report``
  without the PDF, as is and with ``apa`` + docx + verified findings.
* ``captured/<hash>-<variant>``: every input the test suite gave ``publish_report``
  (``capture``), with the arguments the test used (date fixed to 2026-01-01 when the test left
  it to today), and once more with ``citation_style="apa", docx=True, findings=True``. With
  ``--quick`` the PDF is skipped for captured inputs (it is rendered where the test asked for it
  otherwise).

What ``diff`` compares (everything else byte for byte):

* ``audit.json``: the JSON without ``timings_s`` (run times).
* ``report.pdf``: two runs of the same code give the same bytes (seen on the example and the
  captured reports); to be safe the bytes are compared
  after removing ``/CreationDate``, ``/ModDate`` and ``/ID``; when those differ, the page count,
  the text of each page (pypdf) and each page's link targets are compared instead, and the file
  counts as equal when those match (reported as "equal in text").
* ``report.docx``: each zip member byte for byte (the zip container itself differs between
  runs: its entries carry the time they were written), but ``docProps/core.xml`` without its
  ``dcterms:created``/``dcterms:modified``/``cp:lastModifiedBy`` values.
* ``stdout.txt`` of a command-line run: the text, with the output folder's path removed.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXED_DATE = dt.date(2026, 1, 1)
EXAMPLE_VARIANTS = {
    "default": [],
    "apa-docx": ["--citation-style", "apa", "--docx"],
    "findings-mla": ["--verified-findings", "--citation-style", "mla"],
    "ieee-nopdf": ["--citation-style", "ieee", "--no-pdf"],
}
EXTRA = {"citation_style": "apa", "docx": True, "findings": True}


# ---------------------------------------------------------------- capture

class Recorder:
    """A pytest plugin: wraps publish_report and writes each distinct input to CORPUS."""

    def __init__(self, corpus: Path):
        self.corpus = corpus
        self.seen: set[str] = set()

    def pytest_configure(self, config):
        from deep_research.publish import publisher

        original = publisher.publish_report
        recorder = self

        def recording(markdown, sources, out_dir, **kwargs):
            sources = list(sources)
            try:
                recorder.record(markdown, sources, kwargs)
            except Exception as e:  # never change what the test sees
                print(f"outputs_snapshot: not recorded: {e!r}", file=sys.stderr)
            return original(markdown, sources, out_dir, **kwargs)

        publisher.publish_report = recording

    def record(self, markdown, sources, kwargs) -> None:
        args = {k: v for k, v in kwargs.items() if k not in ("pdf_worker",)}
        if isinstance(args.get("date"), dt.date):
            args["date"] = args["date"].isoformat()
        case = {"markdown": markdown, "sources": [dataclasses.asdict(s) for s in sources], "kwargs": args}
        text = json.dumps(case, ensure_ascii=False, sort_keys=True)
        key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        if key in self.seen:
            return
        self.seen.add(key)
        (self.corpus / f"{key}.json").write_text(text, encoding="utf-8", errors="surrogatepass")


def capture(corpus: Path, pytest_args: list[str]) -> int:
    import pytest

    corpus.mkdir(parents=True, exist_ok=True)
    os.chdir(REPO)
    rc = pytest.main(pytest_args or ["-q", "-p", "no:cacheprovider"], plugins=[Recorder(corpus)])
    print(f"{len(list(corpus.glob('*.json')))} distinct publish_report inputs in {corpus}")
    return int(rc)


# ---------------------------------------------------------------- publish

def _publish(markdown, sources, out: Path, **kwargs) -> None:
    from deep_research.citations.model import Source
    from deep_research.publish import publish_report

    srcs = [s if isinstance(s, Source) else Source(**s) for s in sources]
    try:
        publish_report(markdown, srcs, out, **kwargs)
    except Exception as e:  # an input a test expects to fail: the failure is the output
        out.mkdir(parents=True, exist_ok=True)
        (out / "error.txt").write_text(f"{type(e).__name__}: {e}\n", encoding="utf-8")


def publish(out: Path, corpus: Path | None, quick: bool) -> None:
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, DEEP_RESEARCH_ENV_FILE="none")
    for name, extra in EXAMPLE_VARIANTS.items():
        target = out / "examples" / name
        cmd = ["deep-research", "publish", str(REPO / "examples" / "report.md"),
               "--sources", str(REPO / "examples" / "sources.json"), "--out", str(target), *extra]
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=REPO, timeout=600)
        target.mkdir(parents=True, exist_ok=True)
        text = (r.stdout + r.stderr).replace(str(target), "<OUT>")
        (target / "stdout.txt").write_text(f"exit {r.returncode}\n{text}", encoding="utf-8")
        print(f"examples/{name}: exit {r.returncode}")

    sys.path.insert(0, str(REPO / "benchmarks"))
    import bench_hostile as h

    blocks = list(h.inputs().items())
    for i, (name, block) in enumerate(blocks):
        md = "# Degenerate input\n\n" + h.GOOD + block + h.GOOD2
        _publish(md, h._sources(), out / "hostile" / f"{i:02d}-default", pdf=False, date=FIXED_DATE)
        _publish(md, h._sources(), out / "hostile" / f"{i:02d}-extra", pdf=False, date=FIXED_DATE, **EXTRA)
    pages = [("[" * h.KB60), ("[a](" * 15000), ("<!--" * 15000), " ".join("`" * i for i in range(1, 340))]
    for i, page in enumerate(pages):
        src = [{"id": "tea", "url": "https://example.org/tea", "content": page + "\n" + h.PAGE,
                "title": "Tea", "format": "markdown"}]
        _publish("# Hostile page\n\n" + h.GOOD + h.GOOD2, src, out / "hostile" / f"page{i}", pdf=False,
                 date=FIXED_DATE)
    print(f"hostile: {len(blocks)} inputs, {len(pages)} pages")

    if corpus is None:
        return
    cases = sorted(corpus.glob("*.json"))
    for n, path in enumerate(cases, 1):
        case = json.loads(path.read_text(encoding="utf-8", errors="surrogatepass"))
        kwargs = dict(case["kwargs"])
        kwargs["date"] = dt.date.fromisoformat(kwargs["date"]) if kwargs.get("date") else FIXED_DATE
        if quick:
            kwargs["pdf"] = False
        _publish(case["markdown"], case["sources"], out / "captured" / f"{path.stem}-asis", **kwargs)
        _publish(case["markdown"], case["sources"], out / "captured" / f"{path.stem}-extra",
                 **{**kwargs, **EXTRA, "pdf": False})
        if n % 50 == 0:
            print(f"captured: {n}/{len(cases)}")
    print(f"captured: {len(cases)} inputs")


# ---------------------------------------------------------------- diff

_PDF_VOLATILE = re.compile(rb"/(CreationDate|ModDate)\s*\([^)]*\)|/ID\s*\[[^\]]*\]")
_CORE_VOLATILE = re.compile(r"(<(dcterms:created|dcterms:modified|cp:lastModifiedBy)[^>]*>)[^<]*(</\2>)")


def _pdf_facts(data: bytes) -> list:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    facts: list = [len(reader.pages)]
    for page in reader.pages:
        links = []
        for a in page.get("/Annots") or []:
            a = a.get_object()
            action = a.get("/A")
            if action is not None:
                links.append(str(action.get_object().get("/URI")))
        facts.append((page.extract_text(), links))
    return facts


def _docx_members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        out = {}
        for name in z.namelist():
            body = z.read(name)
            if name == "docProps/core.xml":
                body = _CORE_VOLATILE.sub(r"\1\3", body.decode("utf-8")).encode("utf-8")
            out[name] = body
        return out


def _same(a: Path, b: Path) -> str | None:
    """None when equal; else what differs. 'text' when a PDF is equal only in its text."""
    da, db = a.read_bytes(), b.read_bytes()
    if da == db:
        return None
    if a.name == "audit.json":
        ja, jb = json.loads(da), json.loads(db)
        ja.pop("timings_s", None)
        jb.pop("timings_s", None)
        return None if ja == jb else "audit.json differs"
    if a.suffix == ".pdf":
        if _PDF_VOLATILE.sub(b"", da) == _PDF_VOLATILE.sub(b"", db):
            return None
        return "text" if _pdf_facts(da) == _pdf_facts(db) else "PDF text or links differ"
    if a.suffix == ".docx":
        return None if _docx_members(da) == _docx_members(db) else "docx content differs"
    return "bytes differ"


def diff(a: Path, b: Path) -> int:
    files_a = {p.relative_to(a) for p in a.rglob("*") if p.is_file()}
    files_b = {p.relative_to(b) for p in b.rglob("*") if p.is_file()}
    problems = [f"only in {a}: {p}" for p in sorted(files_a - files_b)]
    problems += [f"only in {b}: {p}" for p in sorted(files_b - files_a)]
    text_only = 0
    kinds: dict[str, int] = {}
    for rel in sorted(files_a & files_b):
        kinds[rel.suffix or rel.name] = kinds.get(rel.suffix or rel.name, 0) + 1
        why = _same(a / rel, b / rel)
        if why == "text":
            text_only += 1
        elif why:
            problems.append(f"{rel}: {why}")
    print(f"compared {len(files_a & files_b)} files ({', '.join(f'{v} {k}' for k, v in sorted(kinds.items()))})")
    if text_only:
        print(f"{text_only} PDF(s) equal in page count, text and links but not in bytes")
    for p in problems:
        print(p)
    print("IDENTICAL" if not problems else f"{len(problems)} DIFFERENCE(S)")
    return 1 if problems else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("capture", help="run pytest, recording every publish_report input into CORPUS")
    c.add_argument("corpus", type=Path)
    c.add_argument("pytest_args", nargs="*", help="after --: arguments for pytest")
    p = sub.add_parser("publish", help="publish every report into OUT")
    p.add_argument("out", type=Path)
    p.add_argument("--corpus", type=Path, help="a folder written by capture")
    p.add_argument("--quick", action="store_true", help="no PDF for captured inputs")
    d = sub.add_parser("diff", help="compare two folders written by publish")
    d.add_argument("a", type=Path)
    d.add_argument("b", type=Path)
    args = ap.parse_args()
    if args.cmd == "capture":
        return capture(args.corpus.resolve(), args.pytest_args)
    if args.cmd == "publish":
        publish(args.out.resolve(), args.corpus.resolve() if args.corpus else None, args.quick)
        return 0
    return diff(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())

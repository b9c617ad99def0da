"""How many times one publish reads the report: parses, block scans, output-policy passes,
and every function entered with the whole report (or an output built from it) as its text.

    uv run python benchmarks/bench_document.py [REPORT.md SOURCES.json]

Default input: examples/report.md with examples/sources.json, published without the PDF,
once as is and once with ``--verified-findings``. The counts come from a profile hook, so
they see every call however a function was imported; run it against another checkout
(``PYTHONPATH=/path/to/src``) to compare. What is counted:

* ``block scans``: CommonMark block scans of a text (``mdscan`` scanner runs);
* ``policy passes``: passes of the output policy over a text (``safe_markdown`` or
  ``apply_policy``; the nested calls of one pass count once);
* ``markdown-it parses of the report``: markdown-it-py parses of a text that holds the
  report's first line (the cited pages are parsed by it too; those do not count);
* ``Python-Markdown conversions``: markdown -> HTML (the HTML renderer's one conversion);
* ``whole-report passes``: entries into a function of ``deep_research`` whose text argument
  (a ``str``: reading a parsed document does not count) is the report or a text built from it (at least 80 % as long, starting with its first
  line), not counting calls made inside another such call (below ``publish_report``):
  each is one pass of some module over the whole text (a regex section finder, a parser,
  a renderer's pre-pass...), listed by function.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def count(markdown: str, sources: list, **kwargs) -> dict:
    from deep_research.publish import publish_report

    head = markdown.lstrip().split("\n", 1)[0]
    reads: Counter = Counter()
    figures: Counter = Counter()
    depth = {"policy": 0}
    reading: set = set()

    def text_arg(frame) -> tuple[str | None, bool]:
        """(the first text argument, whether an argument is a parsed report)."""
        code = frame.f_code
        text, parsed = None, False
        for name in code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]:
            v = frame.f_locals.get(name)
            if isinstance(v, str) and text is None:
                text = v
            elif type(v).__name__ == "Document" or type(getattr(v, "parsed", None)).__name__ == "Document":
                parsed = True
        return text, parsed

    def hook(frame, event, arg):
        if event == "call":
            code = frame.f_code
            mod = frame.f_globals.get("__name__", "")
            name = code.co_name
            if mod.startswith("markdown_it") and name == "parse" and code.co_qualname.startswith("MarkdownIt"):
                src = frame.f_locals.get("src")
                if isinstance(src, str) and head and head in src:
                    figures["markdown-it parses of the report"] += 1
            if mod.startswith("markdown") and not mod.startswith("markdown_it") and code.co_qualname == "Markdown.convert":
                figures["Python-Markdown conversions"] += 1
            if not mod.startswith("deep_research"):
                return
            if code.co_qualname == "_BlockScanner.run":
                figures["block scans"] += 1
            if name in ("safe_markdown", "apply_policy"):
                if depth["policy"] == 0:
                    figures["policy passes"] += 1
                depth["policy"] += 1
            if mod.endswith("document.parse") and name == "parse":
                figures["document parses"] += 1
            text, parsed = text_arg(frame)
            if name == "publish_report":
                return
            if parsed:
                reading.add(frame)  # what it calls reads the parsed report, not the text
            if text and len(text) >= 0.8 * len(markdown) and text.lstrip().startswith(head):
                reading.add(frame)
                up = frame.f_back
                while up is not None and up.f_code.co_name != "publish_report":
                    if up in reading:
                        return
                    up = up.f_back
                reads[f"{mod}.{code.co_qualname}"] += 1
        elif event == "return":
            reading.discard(frame)
            if frame.f_code.co_name in ("safe_markdown", "apply_policy") and \
                    frame.f_globals.get("__name__", "").startswith("deep_research"):
                depth["policy"] -= 1

    with tempfile.TemporaryDirectory() as out:
        sys.setprofile(hook)
        try:
            publish_report(markdown, sources, out, pdf=False, **kwargs)
        finally:
            sys.setprofile(None)
    figures["whole-report passes"] = sum(reads.values())
    return {"figures": dict(figures), "reads": dict(reads)}


def main() -> None:
    from deep_research.citations.model import Source

    if len(sys.argv) == 3:
        report, sources_file = Path(sys.argv[1]), Path(sys.argv[2])
    else:
        report, sources_file = REPO / "examples" / "report.md", REPO / "examples" / "sources.json"
    markdown = report.read_text(encoding="utf-8")
    sources = [Source(**{k: v for k, v in s.items() if k in Source.__dataclass_fields__})
               for s in json.loads(sources_file.read_text(encoding="utf-8"))]
    for label, kwargs in (("as is", {}), ("--verified-findings", {"findings": True})):
        result = count(markdown, sources, **kwargs)
        print(f"{report.name} ({len(markdown):,} characters), {label}:")
        for k in ("document parses", "block scans", "policy passes", "markdown-it parses of the report",
                  "Python-Markdown conversions", "whole-report passes"):
            print(f"  {k:34} {result['figures'].get(k, 0)}")
        for k, v in sorted(result["reads"].items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"      {v} x {k}")


if __name__ == "__main__":
    main()

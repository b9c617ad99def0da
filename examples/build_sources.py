"""Rebuild examples/sources.json from the example corpus.

The HTML pages are reduced to text with the project's own extractor (as the local corpus
does); one page is given as markdown-like text, the form search APIs such as Tavily
return, to show that citations copied from such text still link to the exact sentence.
Run:  uv run python examples/build_sources.py
"""

import json
from pathlib import Path

from deep_research.search.extract import html_to_text

HERE = Path(__file__).parent
BASE = "http://127.0.0.1:8000/corpus/"
PAGES = [
    ("basics", "composting-basics.html", None),
    ("trouble", "troubleshooting.html", None),
    ("cities", "municipal-programs.html", "municipal-programs.tavily.md"),
    ("zh", "kompost-zh.html", None),
]


def main() -> None:
    sources = []
    for sid, page, markdown_file in PAGES:
        extracted = html_to_text((HERE / "corpus" / page).read_bytes())
        if markdown_file:
            content, fmt = (HERE / markdown_file).read_text(encoding="utf-8"), "markdown"
        else:
            content, fmt = extracted.text, "text"
        sources.append({"id": sid, "url": BASE + page, "title": extracted.title,
                        "format": fmt, "content": content})
    (HERE / "sources.json").write_text(json.dumps(sources, ensure_ascii=False, indent=2) + "\n",
                                       encoding="utf-8")
    print(f"wrote {len(sources)} sources to {HERE / 'sources.json'}")


if __name__ == "__main__":
    main()

"""Reading a sources file, and writing one that reads back the same (a run folder's sources.json)."""

from __future__ import annotations

import json

from deep_research.citations.model import Source
from deep_research.inputs import parse_sources, source_record


def test_a_source_record_reads_back_as_the_same_source() -> None:
    full = Source("a", "file:///d/a.pdf", "Page one.\nPage two.", "A report", "text",
                  credibility={"score": 0.9, "reasons": ["local corpus document"]},
                  author="Jane Q. Smith", published="2023-05-01", site_name="Site",
                  locations=[[0, "page", 1], [10, "page", 2]])
    bare = Source("b", "https://b.example/", "Say **hello** to the world.")  # no format: detected
    records = json.loads(json.dumps([source_record(full), source_record(bare)]))
    back = parse_sources(records).sources
    assert back[0] == full
    assert back[1].format == "markdown" and back[1].page.text == bare.page.text
    assert records[1]["format"] == "markdown" and "author" not in records[1]

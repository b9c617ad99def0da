"""Data the citation engine works on: sources, refs and verdicts."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

from .page.text import PageText
from .page import render
from ..terminal import shortened


@dataclass
class Source:
    """A page the research read. ``content`` is the full page text as retrieved."""

    id: str
    url: str
    content: str
    title: str = ""
    format: str | None = None  # "markdown" | "text"; None = detect from the content
    # How credible the source is, when scored (deep_research.search.credibility):
    # {"score": 0..1, "reasons": ["trusted domain ...", "https"]}. Shown in the Sources list.
    credibility: dict | None = None
    # Page metadata when the fetcher found it (citation styles use it; never required):
    author: str | None = None
    published: str | None = None  # ISO 8601 date (or any text holding a year)
    site_name: str | None = None
    # Where each part of ``content`` came from in a local document (PDF page, slide, sheet
    # row, EPUB chapter, CSV row): marks as deep_research.citations.locations describes.
    locations: list | None = None
    # Why ``content`` ends before the page does (the fetch's byte limit, an HTML page past
    # the parser's limits), or None: audit.json lists such sources (``cut_sources``).
    cut: str | None = None

    def __post_init__(self) -> None:  # a page's metadata, bounded for every output (a sources file too)
        self.title = shortened(self.title) or ""
        self.author, self.site_name = shortened(self.author), shortened(self.site_name)

    @cached_property
    def page(self) -> PageText:
        return render(self.content, self.format)


class Verdict(StrEnum):
    VERIFIED = "verified"
    REPAIRED = "repaired"
    UNSUPPORTED = "unsupported"


@dataclass
class QuoteCheck:
    """Outcome of checking one quote against the sources."""

    status: Verdict
    source_id: str | None  # the source that holds the quote (after repair)
    start: int | None = None  # rendered-text offsets of the match in that source
    end: int | None = None
    how: str = ""  # what was repaired, or why the quote is unsupported
    # The reading of the source's content that start/end refer to, when it is not
    # ``source.page`` (converter markdown read strictly: see PageText.alternate).
    page: PageText | None = None

    @property
    def found(self) -> bool:
        return self.status is not Verdict.UNSUPPORTED

    def reading(self, source: Source) -> PageText:
        """The page text that start/end index: ``page`` or the source's own."""
        return self.page if self.page is not None else source.page


@dataclass
class Ref:
    """One ``<ref id="...">"quote"</ref>`` in a report."""

    index: int  # order of appearance, 0-based
    source_id: str
    quote: str  # as written, without the enclosing quote marks
    start: int  # offsets of the whole tag in the report markdown
    end: int
    line: int


@dataclass
class RefProblem:
    line: int
    column: int
    message: str
    text: str
    start: int = -1  # span of the malformed markup in the report
    end: int = -1


@dataclass
class ParsedReport:
    markdown: str
    refs: list[Ref] = field(default_factory=list)
    problems: list[RefProblem] = field(default_factory=list)

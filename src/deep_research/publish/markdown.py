"""The two markdown outputs of a report.

* UI markdown keeps the ``<ref>`` tags (a UI renders them itself); repaired refs carry
  the corrected source id and the page's exact text.
* Linked markdown turns each ref into a numbered citation link ``[N](fragment-url)``.

Both end with a Sources section built from the citations; a Sources/References section
the model wrote itself is replaced, because its entries were not checked. Both pass the
output policy (``safety.py``): no raw HTML, no images, no links but safe ones.
"""

from __future__ import annotations

import bisect
import re

from ..citations.check import Citation, CitationReport, safe_link
from ..citations.model import Verdict
from ..citations.refs import replace_spans
from .safety import local_file_urls, safe_markdown

_SOURCES_HEADING = re.compile(
    r"^(#{1,6})[ \t]*(sources|references|bibliography|works cited|citations|quellen|"
    r"literatur|fuentes|références|sources citées|fonti|bronnen|参考文献|参考资料|来源|出典|출처)"
    r"[ \t]*:?[ \t]*#*[ \t]*$",
    re.I | re.M,
)
_HEADING = re.compile(r"^(#{1,6})[ \t]+\S", re.M)


def split_sources_section(md: str) -> tuple[str, str | None]:
    """(markdown without a model-written Sources section, that section's heading text)."""
    m = None
    for m in _SOURCES_HEADING.finditer(md):
        pass  # the last such heading is the bibliography
    if m is None:
        return md, None
    level = len(m.group(1))
    end = len(md)
    for h in _HEADING.finditer(md, m.end()):
        if len(h.group(1)) <= level:
            end = h.start()
            break
    heading = m.group(2).strip()
    return (md[: m.start()].rstrip() + "\n\n" + md[end:].lstrip()).strip() + "\n", heading


def _quote_text(c: Citation) -> str:
    """The sentence to show: the page's exact text when found, else what was written."""
    text = c.rendered_text if c.check.found else c.ref.quote
    return re.sub(r"\s+", " ", text or "").strip()


def _escape_quote(s: str) -> str:
    # A straight double quote inside the ref would end it for naive readers; curly is safe.
    return s.replace('"', "\u201d").replace("</ref", "<\\/ref")


def ui_markdown(report: CitationReport, sources_heading: str = "Sources") -> str:
    edits = []
    for c in report.citations:
        if c.status is Verdict.REPAIRED:
            tag = f'<ref id="{c.source.id}">"{_escape_quote(_quote_text(c))}"</ref>'
            edits.append((c.ref.start, c.ref.end, tag))
    body, found_heading = split_sources_section(replace_spans(report.parsed.markdown, edits))
    md = body.rstrip() + "\n\n" + _sources_markdown(report, found_heading or sources_heading, ids=True)
    return safe_markdown(md, local_files=local_file_urls(report.sources), keep_refs=True).text


_REF_MARKUP = re.compile(r"</?ref\b[^>]*>?", re.I)


def citation_link(c: Citation) -> str:
    label = str(c.number) if c.number is not None else "?"
    link = f"[{label}]({c.url})" if c.url else f"[{label}]"
    if c.status is Verdict.UNSUPPORTED:
        return link + " (unverified quote)"
    return link


def linked_markdown(report: CitationReport, sources_heading: str = "Sources") -> str:
    edits = [(c.ref.start, c.ref.end, citation_link(c)) for c in report.citations]
    # Malformed tags lose their markup in the linked text, their words kept (they are
    # listed in the audit); report.md shows them as text (safety.py), for the author to fix.
    md = report.parsed.markdown
    cited = [(a, b) for a, b, _ in edits]  # in order, not overlapping
    starts = [a for a, _ in cited]

    def overlaps_a_ref(a: int, b: int) -> bool:
        k = bisect.bisect_left(starts, b) - 1  # the last ref that starts before b
        return k >= 0 and cited[k][1] > a

    edits += [(p.start, p.end, _REF_MARKUP.sub("", md[p.start:p.end])) for p in report.parsed.problems
              if 0 <= p.start < p.end and not overlaps_a_ref(p.start, p.end)]
    body, found_heading = split_sources_section(replace_spans(report.parsed.markdown, edits))
    md = body.rstrip() + "\n\n" + _sources_markdown(report, found_heading or sources_heading, ids=False)
    return safe_markdown(md, local_files=local_file_urls(report.sources)).text


def _sources_markdown(report: CitationReport, heading: str, *, ids: bool) -> str:
    lines = [f"## {heading}", ""]
    numbers = {}
    for c in report.citations:
        if c.source is not None:
            numbers.setdefault(id(c.source), c.number)
    for s in report.sources:
        number = numbers[id(s)]
        title = _md_text(re.sub(r"\s+", " ", s.title or s.url).strip())
        ident = f" (id {_md_text(s.id)})" if ids else ""
        url = safe_link(s.url) or _md_text(s.url)  # a javascript: or data: URL is shown, never linked
        lines.append(f"[{number}] {title}{ident}: {url}  ")
    return "\n".join(lines).rstrip() + "\n"


def _md_text(text: str) -> str:
    """Text that markdown shows as it is: no link, autolink or HTML tag can start in it."""
    return re.sub(r"([\\\[\]<>`])", r"\\\1", text)

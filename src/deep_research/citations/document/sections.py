"""The sections code reads, removes or adds, found on the parsed document (so never inside
code, a block quote or a list item):

* the model's own Sources/References list (replaced at publish by the checked one);
* the "Verified findings" section (built by code at publish; one in the input is removed);
* the Limitations section (added by code when the model left it out);
* the report's title (a leading level-1 heading).
"""

from __future__ import annotations

import re

from .model import Block, Document, Section
from .parse import findings_section, heading_text, parse

__all__ = ["SOURCES_NAMES", "findings_section", "limitations_stated", "replaced_spans", "sources_name",
           "sources_section", "title_text", "with_limitations", "without_findings"]

# What a model calls its list of sources, in the languages the labels know.
SOURCES_NAMES = re.compile(
    r"(sources|references|bibliography|works cited|citations|quellen|quellenverzeichnis|"
    r"literatur|fuentes|referencias|bibliografía|références|sources citées|bibliographie|fonti|riferimenti|"
    r"bibliografia|fontes|referências|bronnen|referenties|источники|литература|список литературы|"
    r"المصادر|المراجع|参考文献|参考资料|来源|出典|출처|참고 문헌)[ \t]*:?",
    re.IGNORECASE,
)


def sources_section(doc: Document) -> Section | None:
    """The model-written Sources/References section: the last top-level heading named so
    (``## Sources``, ``# References:``, ...)."""
    found = None
    for s in doc.all_sections():
        if SOURCES_NAMES.fullmatch(s.title.strip(" \t")):
            found = s
    return found


def sources_name(section: Section) -> str:
    """The name the model gave its Sources section ("References"), for the checked one."""
    m = SOURCES_NAMES.fullmatch(section.title.strip(" \t"))
    return m.group(1).strip() if m else section.title.strip()


def without_findings(markdown: str) -> tuple[str, str | None]:
    """The markdown without its "Verified findings" section, and that section's text."""
    doc = parse(markdown)
    s = findings_section(doc)
    if s is None:
        return markdown, None
    return markdown[:s.start] + markdown[s.end:], markdown[s.start:s.end]


def _names_pattern(names: set[str]) -> re.Pattern:
    return re.compile("|".join(map(re.escape, sorted(names))), re.IGNORECASE)


def limitations_stated(doc: Document, names: set[str]) -> bool:
    """Does the report have a limitations section: a top-level heading naming one of
    ``names``, or a paragraph line starting in bold (``**``/``__``) that does?"""
    pattern = _names_pattern(names)
    for b in doc.blocks:
        if b.depth:
            continue
        if b.kind == "heading":
            if pattern.search(doc.markdown, b.segments[0][0], b.segments[-1][1]):
                return True
        elif b.kind == "paragraph":
            for a, e in b.segments:
                if doc.markdown.startswith(("**", "__"), a) and pattern.search(doc.markdown, a, e):
                    return True
    return False


def _sources_heading(doc: Document, names: set[str]) -> Block | None:
    """The last top-level ``## Sources`` heading (or its name in the report's language)."""
    found = None
    for b in doc.blocks:
        if b.kind == "heading" and b.level == 2 and not b.depth and not b.setext:
            a, e = b.segments[0]
            if doc.markdown[a:e].rstrip(" \t\r").lower() in names:
                found = b
    return found


def _md_item(text: str) -> str:
    """One line of text for a list item built by code: markdown and HTML shown as text."""
    return re.sub(r"([\\\[\]<>`])", r"\\\1", " ".join(str(text).split()))


def with_limitations(report: str, limits: list[str], always: list[str] | None, words: dict) -> str:
    """The report with a limitations section added by code when the model left it out
    (``limits``), and ``always`` added in any case (under "Further limitations" when the
    report has a limitations section of its own). The section goes before the report's
    ``## Sources`` heading, else at the end. Only headings and text outside code count."""
    doc = parse(report)
    stated = limitations_stated(doc, {"limitation", words["limitations"].lower()})
    items = ([] if stated else list(limits)) + list(always or [])
    if not items:
        return report
    title = f"## {words['further_limitations']}" if stated else f"## {words['limitations']}"
    section = f"{title}\n\n" + "\n".join(f"- {_md_item(x)}" for x in items) + "\n"
    heading = _sources_heading(doc, {"sources", words["sources"].lower()})
    if heading is not None:
        return report[:heading.start] + section + "\n" + report[heading.start:]
    if doc.scan is not None and doc.scan.unclosed_fence and not report.endswith("\n"):
        report += "\n"
    if doc.scan is not None and doc.scan.unclosed_fence:  # never inside the model's open code block
        report += doc.scan.unclosed_fence + "\n"
    return report.rstrip() + "\n\n" + section


def title_text(doc: Document) -> str | None:
    """The report's title (a leading ``# Title``), as written (a ref in it left out)."""
    block = doc.title()
    if block is None:
        return None
    text = heading_text(doc.markdown, block)
    refs = doc.refs_in(block.start, block.end)
    if refs:
        a = block.segments[0][0]
        for r in reversed(refs):
            if r.start - a < len(text):
                text = text[:r.start - a] + text[r.end - a:]
    return text.strip() or None


def replaced_spans(doc: Document) -> list[tuple[int, int]]:
    """The spans of the input that code replaces at publish, in order, never overlapping:
    the "Verified findings" section (rebuilt from the checks) and the model's Sources
    section (replaced by the checked list)."""
    spans = [(s.start, s.end) for s in (doc.findings, sources_section(doc)) if s is not None]
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a < out[-1][1]:
            out[-1] = (out[-1][0], max(b, out[-1][1]))
        else:
            out.append((a, b))
    return out

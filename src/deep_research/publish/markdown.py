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
from typing import Callable

from ..citations.check import Citation, CitationReport, safe_link
from ..citations.claims import ClaimStatus
from ..citations.model import Verdict
from ..citations.refs import replace_spans
from ..citations.styles import Styler
from .safety import local_file_urls, safe_markdown

_SOURCES_HEADING = re.compile(
    r"^(#{1,6})[ \t]*(sources|references|bibliography|works cited|citations|quellen|quellenverzeichnis|"
    r"literatur|fuentes|referencias|bibliografía|références|sources citées|bibliographie|fonti|riferimenti|"
    r"bibliografia|fontes|referências|bronnen|referenties|источники|литература|список литературы|"
    r"المصادر|المراجع|参考文献|参考资料|来源|出典|출처|참고 문헌)"
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


def check_mark(c: Citation) -> tuple[str, str] | None:
    """(kind, reason) for a citation a reader must not take as verified, else None:
    ``quote-not-found`` (the quote is not on the page), ``claim-differs`` (the quote is, but
    the report's sentence says something else) or ``claim-unchecked`` (no check decided)."""
    if c.status is Verdict.UNSUPPORTED:
        return "quote-not-found", c.check.how or "the quote is not in the cited source"
    if c.claim_status is ClaimStatus.UNSUPPORTED:
        return "claim-differs", c.claim_check.note
    if c.claim_status is ClaimStatus.UNCHECKED:
        return "claim-unchecked", c.claim_check.note or "the claim could not be checked"
    return None


def _attr(text: str) -> str:
    text = " ".join((text or "").split())[:300]
    return text.replace('"', "\u201d").replace("<", "\u2039").replace(">", "\u203a").replace("&", "+")


def _ref_open(source_id: str, attrs: str = "") -> str:
    """An opening <ref> tag; an id holding a double quote is written in single quotes."""
    q = "'" if '"' in source_id else '"'
    return f"<ref id={q}{source_id}{q}{attrs}>"


def ui_markdown(report: CitationReport, sources_heading: str = "Sources", *,
                findings: bool = False) -> str:
    """Refs kept for a UI. A repaired ref carries the right source and the page's text; a
    ref a reader must not take as verified carries ``check`` and ``note`` attributes
    (see :func:`check_mark`)."""
    edits = []
    for c in report.citations:
        mark = check_mark(c)
        if c.status is Verdict.REPAIRED or mark:
            sid = c.source.id if c.status is Verdict.REPAIRED else c.ref.source_id
            attrs = f' check="{mark[0]}" note="{_attr(mark[1])}"' if mark else ""
            tag = f'{_ref_open(sid, attrs)}"{_escape_quote(_quote_text(c))}"</ref>'
            edits.append((c.ref.start, c.ref.end, tag))
    body, found_heading = split_sources_section(replace_spans(report.parsed.markdown, edits))
    if findings:
        body = with_findings(body, findings_markdown(report, ref_markup))
    md = body.rstrip() + "\n\n" + _sources_markdown(report, found_heading or sources_heading, ids=True)
    return safe_markdown(md, local_files=local_file_urls(report.sources), keep_refs=True).text


# --- the "Verified findings" section, built by code only ----------------------------------
FINDINGS_HEADING = "Verified findings"
_FINDINGS_SECTION = re.compile(r"^##[ \t]+verified findings[ \t]*#*[ \t]*$", re.I | re.M)


def verified_findings(report: CitationReport) -> list[tuple[str, list[Citation]]]:
    """Claims whose every check passed (each quote found, the claim true to them), in
    report order, each once: the section a reader can rely on without reading further."""
    out, seen = [], set()
    for claim, cites in report.claim_citations():
        text = " ".join(claim.text.split()).strip(" ,;:-\u2013\u2014")
        if len(text.split()) < 3 or text.casefold() in seen or not all(c.trusted for c in cites):
            continue
        seen.add(text.casefold())
        out.append((text, cites))
    return out


def ref_markup(c: Citation) -> str:
    return f'{_ref_open(c.source.id)}"{_escape_quote(_quote_text(c))}"</ref>'


def findings_markdown(report: CitationReport, mark: Callable[[Citation], str]) -> str:
    """The section as markdown; ``mark`` writes a citation (a ref tag, a link, a badge)."""
    items = verified_findings(report)
    if not items:
        return ""
    lines = [f"## {FINDINGS_HEADING}", ""]
    for text, cites in items:
        marks = " ".join(mark(c) for c in cites)
        level = max((c.confidence for c in cites if c.confidence),
                    key=lambda x: ("low", "medium", "high").index(x), default=None)
        lines.append(f"- {_md_text(text)} {marks}" + (f" *(confidence: {level})*" if level else ""))
    return "\n".join(lines) + "\n"


def strip_findings(md: str) -> tuple[str, str | None]:
    """The markdown without a "Verified findings" section, and that section's text. The
    section is built by code at publish; one found in the input (a model's or an edited
    copy) is never trusted, it is rebuilt."""
    m = _FINDINGS_SECTION.search(md)
    if m is None:
        return md, None
    end = len(md)
    for h in _HEADING.finditer(md, m.end()):
        if len(h.group(1)) <= 2:
            end = h.start()
            break
    return md[: m.start()] + md[end:], md[m.start():end]


def with_findings(body: str, section: str) -> str:
    """``section`` placed before the body: after a leading '# Title', else at the top."""
    if not section:
        return body
    m = re.match(r"\A\s*#[ \t]+[^\n]*\n", body)
    at = m.end() if m else 0
    return body[:at] + ("\n" if at else "") + section + "\n" + body[at:].lstrip("\n")


_REF_MARKUP = re.compile(r"</?ref\b[^>]*>?", re.I)


def citation_link(c: Citation, styler: Styler | None = None) -> str:
    label = str(c.number) if c.number is not None else "?"
    if styler is not None and not styler.numbered and c.source is not None and c.number is not None:
        label = _md_text(styler.marker(c.source.id))  # (Smith, 2023): the marker is the link text
    link = f"[{label}]({c.url})" if c.url else f"[{label}]"
    if c.status is Verdict.UNSUPPORTED:
        return link + " (unverified quote)"
    if c.claim_status is ClaimStatus.UNSUPPORTED:
        return link + f" (claim differs from source: {_md_text(_attr(c.claim_check.note))})"
    return link


def linked_markdown(report: CitationReport, sources_heading: str = "Sources", *,
                    findings: bool = False, styler: Styler | None = None) -> str:
    """Each ref a citation link to its sentence, and a Sources list; with a ``styler`` other
    than numbered, the links read as that style's markers and the Sources list holds its
    reference entries, each followed by its quotes and their fragment links."""
    edits = [(c.ref.start, c.ref.end, citation_link(c, styler)) for c in report.citations]
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
    if findings:
        body = with_findings(body, findings_markdown(report, lambda c: citation_link(c, styler)))
    heading = found_heading or sources_heading
    if styler is not None and styler.style != "numbered":
        sources_md = styled_sources_markdown(report, heading, styler)
    else:
        sources_md = _sources_markdown(report, heading, ids=False)
    md = body.rstrip() + "\n\n" + sources_md
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
        cred = credibility_text(s.credibility)
        lines.append(f"[{number}] {title}{ident}: {url}" + (f" \u2014 {_md_text(cred)}" if cred else "") + "  ")
    return "\n".join(lines).rstrip() + "\n"


def credibility_text(credibility: dict | None) -> str:
    """``credibility 0.82 (trusted domain docs.python.org, https)`` for a source's score
    (see deep_research.search.credibility), or "" when the source was not scored."""
    if not isinstance(credibility, dict):
        return ""
    score = credibility.get("score")
    if not isinstance(score, (int, float)) or isinstance(score, bool):
        return ""
    reasons = [" ".join(str(r).split())[:120] for r in credibility.get("reasons") or [] if str(r).strip()]
    text = f"credibility {min(1.0, max(0.0, float(score))):.2f}"
    return f"{text} ({', '.join(reasons[:8])})" if reasons else text


def _md_emphasis_text(text: str) -> str:
    return re.sub(r"([\\\[\]<>`*_])", r"\\\1", text)


def reference_markdown(ref, url: str | None) -> str:
    """A styled reference (citations/styles.py) as markdown: italic runs, the URL linked
    (a URL that may not be linked is shown as text)."""
    at = len(ref.parts) if ref.url_at is None else ref.url_at

    def run(parts) -> str:
        out = []
        for text, italic in parts:
            if italic and text.strip():
                lead, core, trail = re.match(r"(\s*)(.*?)(\s*)\Z", text, re.S).groups()
                out.append(f"{lead}*{_md_emphasis_text(core)}*{trail}")
            else:
                out.append(_md_emphasis_text(text))
        return "".join(out)

    link = f"<{url}>" if url and not re.search(r"[\s<>]", url) else _md_text(ref.url)
    return run(ref.parts[:at]) + link + run(ref.parts[at:])


def styled_sources_markdown(report: CitationReport, heading: str, styler: Styler) -> str:
    """The Sources list in a citation style: each entry, then its quotes with their links."""
    quotes: dict[str, list[Citation]] = {}
    for c in report.citations:
        if c.source is not None and c.number is not None:
            shown = quotes.setdefault(c.source.id, [])
            if not any(q.shown_quote == c.shown_quote for q in shown):
                shown.append(c)
    lines = [f"## {heading}", ""]
    for sid in styler.order():
        if sid not in quotes:
            continue
        cred = credibility_text(styler.sources[sid].credibility)
        lines += [reference_markdown(styler.reference(sid), safe_link(styler.sources[sid].url))
                  + (f" \u2014 {cred}" if cred else ""), ""]
        for c in quotes[sid]:
            text = _md_text("\u201c" + c.shown_quote + "\u201d")
            item = f"[{text}]({c.url})" if c.url else text
            mark = check_mark(c)
            if mark and mark[0] == "quote-not-found":
                item += " (unverified quote)"
            elif mark and mark[0] == "claim-differs":
                item += f" (claim differs from source: {_md_text(_attr(mark[1]))})"
            lines.append(f"- {item}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _md_text(text: str) -> str:
    """Text that markdown shows as it is: no link, autolink or HTML tag can start in it."""
    return re.sub(r"([\\\[\]<>`])", r"\\\1", text)

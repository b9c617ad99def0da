"""The two markdown outputs of a report.

* UI markdown keeps the ``<ref>`` tags (a UI renders them itself); repaired refs carry
  the corrected source id and the page's exact text.
* Linked markdown turns each ref into a numbered citation link ``[N](fragment-url)``.

Both end with a Sources section built from the citations; a Sources/References section
the model wrote itself is replaced, because its entries were not checked.
"""

from __future__ import annotations

import html
import re
from typing import Callable

from ..citations.check import Citation, CitationReport, safe_link
from ..citations.claims import ClaimStatus
from ..citations.model import Verdict
from ..citations.refs import replace_spans

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
    return text.replace('"', "\u201d").replace("<", "\u2039").replace(">", "\u203a")


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
            tag = f'<ref id="{sid}"{attrs}>"{_escape_quote(_quote_text(c))}"</ref>'
            edits.append((c.ref.start, c.ref.end, tag))
    body, found_heading = split_sources_section(replace_spans(report.parsed.markdown, edits))
    if findings:
        body = with_findings(body, findings_markdown(report, ref_markup))
    return body.rstrip() + "\n\n" + _sources_markdown(report, found_heading or sources_heading, ids=True)


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
    return f'<ref id="{c.source.id}">"{_escape_quote(_quote_text(c))}"</ref>'


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


def citation_link(c: Citation) -> str:
    label = str(c.number) if c.number is not None else "?"
    link = f"[{label}]({c.url})" if c.url else f"[{label}]"
    if c.status is Verdict.UNSUPPORTED:
        return link + " (unverified quote)"
    if c.claim_status is ClaimStatus.UNSUPPORTED:
        return link + f" (claim differs from source: {_md_text(_attr(c.claim_check.note))})"
    return link


def linked_markdown(report: CitationReport, sources_heading: str = "Sources", *,
                    findings: bool = False) -> str:
    edits = [(c.ref.start, c.ref.end, citation_link(c)) for c in report.citations]
    # Malformed tags lose their markup in the linked text, their words kept (they are
    # listed in the audit); report.md keeps them as written, for the author to fix.
    md = report.parsed.markdown
    cited = [(a, b) for a, b, _ in edits]
    edits += [(p.start, p.end, _REF_MARKUP.sub("", md[p.start:p.end])) for p in report.parsed.problems
              if 0 <= p.start < p.end and not any(p.start < b and a < p.end for a, b in cited)]
    body, found_heading = split_sources_section(replace_spans(report.parsed.markdown, edits))
    if findings:
        body = with_findings(body, findings_markdown(report, citation_link))
    body = defuse_unsafe_links(body)
    return body.rstrip() + "\n\n" + _sources_markdown(report, found_heading or sources_heading, ids=False)


def _sources_markdown(report: CitationReport, heading: str, *, ids: bool) -> str:
    lines = [f"## {heading}", ""]
    for s in report.sources:
        number = next(c.number for c in report.citations if c.source is s)
        title = _md_text(re.sub(r"\s+", " ", s.title or s.url).strip())
        ident = f" (id {_md_text(s.id)})" if ids else ""
        url = safe_link(s.url) or _md_text(s.url)  # a javascript: or data: URL is shown, never linked
        lines.append(f"[{number}] {title}{ident}: {url}  ")
    return "\n".join(lines).rstrip() + "\n"


# --- links a renderer must not follow -------------------------------------------------------
# The markdown outputs link only what the HTML may link (see html._URL_SCHEMES); a link with
# any other scheme (javascript:, data:, vbscript:, …) is written so that no markdown renderer
# makes a link of it, its text kept. Relative links and #anchors are left alone.
_SAFE_SCHEMES = frozenset({"http", "https", "file", "mailto"})
_SCHEME = re.compile(r"([a-z][a-z0-9+.\-]*):")
_IGNORED_IN_URL = re.compile(r"[\x00-\x20\x7f\\]+")  # browsers drop tabs/newlines; CommonMark escapes
_DEST = r"(<[^<>\n]*>|\S+)"
_INLINE_LINK = re.compile(r"\]\(([ \t]*\n?[ \t]*)" + _DEST)  # [text](url) and ![alt](url)
_LINK_DEFINITION = re.compile(r"(\[(?:[^\[\]\\\n]|\\.){1,999})\]:([ \t]*\n?[ \t]*)" + _DEST)  # [id]: url
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\s<>]*)>")  # <scheme:...>
_HTML_TAG = re.compile(r"<[A-Za-z][A-Za-z0-9-]*(?:[^<>\"']|\"[^\"]*\"|'[^']*')*>")
_URL_ATTR = re.compile(
    r"(?:^|[\s\"'/])(?:href|src|action|formaction|xlink:href|data|poster|background)\s*=\s*"
    r"(\"[^\"]*\"|'[^']*'|[^\s\"'>]+)", re.I)


def unsafe_url(url: str) -> bool:
    """True if ``url`` has a scheme other than http, https, file and mailto, however written
    (character references, case, tabs, backslash escapes)."""
    for _ in range(3):
        decoded = html.unescape(url)
        if decoded == url:
            break
        url = decoded
    url = _IGNORED_IN_URL.sub("", url).lower().lstrip("<\"'")
    m = _SCHEME.match(url)
    return bool(m) and m.group(1) not in _SAFE_SCHEMES


def defuse_unsafe_links(md: str) -> str:
    """``md`` with every link, link definition, autolink and HTML tag whose URL is unsafe
    turned into plain text."""
    md = _INLINE_LINK.sub(
        lambda m: "]\\(" + m.group(1) + m.group(2) if unsafe_url(m.group(2)) else m.group(0), md)
    md = _LINK_DEFINITION.sub(
        lambda m: m.group(1) + "]\\:" + m.group(2) + m.group(3) if unsafe_url(m.group(3)) else m.group(0), md)
    md = _AUTOLINK.sub(lambda m: "&lt;" + m.group(0)[1:] if unsafe_url(m.group(1)) else m.group(0), md)
    return _HTML_TAG.sub(
        lambda m: "&lt;" + m.group(0)[1:]
        if any(unsafe_url(v.group(1).strip("\"'")) for v in _URL_ATTR.finditer(m.group(0))) else m.group(0),
        md)


def _md_text(text: str) -> str:
    """Text that markdown shows as it is: no link, autolink or HTML tag can start in it."""
    return re.sub(r"([\\\[\]<>`])", r"\\\1", text)

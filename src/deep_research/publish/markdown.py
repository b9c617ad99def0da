"""The two markdown outputs of a report.

* UI markdown keeps the ``<ref>`` tags (a UI renders them itself); repaired refs carry
  the corrected source id and the page's exact text.
* Linked markdown turns each ref into a numbered citation link ``[N](fragment-url)``.

Both are written from the parsed report (:mod:`deep_research.citations.document`) and
the output policy applied once to its model-written text (``safety.apply_policy``): the
model's text as the policy made it, each ref written here (inert by construction), then
a Sources section built from the citations; a Sources/References section the model
wrote itself is replaced, because its entries were not checked. What code adds (refs,
links, the Verified findings and Sources sections) escapes every character that could
start markup in the text it carries, so it needs no policy of its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..citations.check import Citation, CitationReport, safe_link
from ..citations.claims import ClaimStatus
from ..citations.document import Document, as_document
from ..citations.flags import Flag
from ..citations.document.sections import (
    replaced_spans,
    sources_name,
    sources_section,
    without_findings,
)
from ..citations.model import Verdict
from ..citations.styles import Styler
from ..errors import mask_page_url
from ..terminal import blank_controls, inert_text
from .safety import (
    Atom,
    Policy,
    apply_policy,
    literal_markup,
    local_file_urls,
    ref_tag,
    tag_atom_text,
)


def split_sources_section(md: str) -> tuple[str, str | None]:
    """(markdown without a model-written Sources section, that section's heading text)."""
    doc = as_document(md)
    section = sources_section(doc)
    if section is None:
        return md, None
    return (md[:section.start].rstrip() + "\n\n" + md[section.end:].lstrip()).strip() + "\n", sources_name(section)


def policy_for(report: CitationReport) -> Policy:
    """The output policy applied to the report's model-written text (the sections code
    replaces left out)."""
    doc = report.parsed
    return apply_policy(doc, local_files=local_file_urls(report.sources), unpublished=replaced_spans(doc))


def body_markdown(report: CitationReport, policy: Policy, atom_text: Callable[[Atom], str], *,
                  render: bool = False, title: bool = True,
                  code_atom_text: Callable[[Atom], str] | None = None) -> tuple[str, str | None]:
    """(the model-written body for one output, the name of the model's Sources section):
    the policy's text with each atom written by ``atom_text``, the input's Verified
    findings and the model's Sources section left out (``render``: the limits of HTML and
    PDF; ``title=False``: without the leading ``# Title``)."""
    doc: Document = report.parsed
    md = doc.markdown
    end = policy.cut if render and policy.cut else len(md)
    start = 0
    head = doc.title()
    if not title and head is not None:
        start = head.end
    cuts = [(a, b) for a, b in replaced_spans(doc)]
    sources = sources_section(doc)
    pieces: list[str] = []
    before_sources = None
    pos = start
    for a, b in cuts:
        if b <= pos:
            continue
        a = max(a, pos)
        if pos < min(a, end):
            pieces.append(policy.text(pos, min(a, end), atom_text, render=render, code_atom_text=code_atom_text))
        if sources is not None and a <= sources.start < b:
            before_sources = len(pieces)
        pos = min(b, end)
    if pos < end:
        pieces.append(policy.text(pos, end, atom_text, render=render, code_atom_text=code_atom_text))
    elif pos == end == len(md):
        pieces.append(policy.text(end, end, atom_text, render=render, code_atom_text=code_atom_text))  # a fence the report left open
    if before_sources is None:
        text = "".join(pieces)
        name = None
    else:
        text = ("".join(pieces[:before_sources]).rstrip() + "\n\n"
                + "".join(pieces[before_sources:]).lstrip()).strip() + "\n"
        name = sources_name(sources)
    if not title and head is not None:
        text = text.lstrip("\n")
    return text, name


def _quote_text(c: Citation) -> str:
    """The sentence to show: the page's exact text when found, else what was written."""
    text = c.rendered_text if c.check.found else c.ref.quote
    return " ".join((text or "").split())  # (str.split splits where "\s" matches)




def quoted_words(report: CitationReport, c: Citation) -> str | None:
    """The quote's words as its sentence reads them, for a ref whose words the sentence
    needs (``Document.quoted``: "its core <ref>"typically reaches 55 to 65 °C"</ref>."),
    else None. The page's text when the quote was found, else the words as written; a final
    sentence mark is dropped when the report puts its own punctuation right after the ref."""
    if c.ref.index not in report.parsed.quoted:
        return None
    from ..citations.document.claims import PUNCT_AFTER, SENTENCE_MARKS
    from ..citations.verify import strip_quote_marks

    text = c.shown_quote if c.check.found else " ".join(strip_quote_marks(c.ref.quote).split())
    if text.endswith(SENTENCE_MARKS) and PUNCT_AFTER.match(report.parsed.markdown, c.ref.end):
        text = text[:-1].rstrip()
    return text or None


def _md_literal(text: str) -> str:
    """Text that markdown shows as written, inline, in CommonMark and Python-Markdown alike:
    what could start a link, code, HTML or an entity made text (``safety.literal_markup``,
    ``&`` as ``&amp;``), emphasis marks and table pipes escaped."""
    text = literal_markup(text.replace("&", "&amp;"))
    return re.sub(r"([*_|])", r"\\\1", text)


def md_code_span(text: str) -> str:
    """``text`` as one inline code span: fenced by a backtick run longer than any inside it,
    padded with a space where it starts or ends with a backtick (or with spaces both ends,
    which a reader would strip)."""
    fence = "`" * (max((len(m) for m in re.findall("`+", text)), default=0) + 1)
    pad = " " if text[:1] == "`" or text[-1:] == "`" or (text[:1] == " " and text[-1:] == " ") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def shown_markdown(flag: Flag, limit: int | None = None) -> str:
    """A listed statement as written (:attr:`Flag.shown`), in markdown that shows it as
    written: its markup as literal text, its code spans as code spans. ``limit``: the
    characters shown at most (a piece cut short ends in "…")."""
    pieces = flag.shown or ((" ".join(flag.text.split()), False),)
    out: list[str] = []
    left = limit if limit is not None else -1
    for text, code in pieces:
        cut = limit is not None and len(text) > left
        if limit is not None:
            if left <= 0:
                out.append("…")
                break
            if cut:
                text = text[:left]
            left -= len(text)
        out.append(md_code_span(text) if code else _md_literal(text))
        if cut:  # one "…", after a code span rather than inside it
            out.append("…")
            break
    return "".join(out)


def _escape_quote(s: str) -> str:
    # A straight double quote inside the ref would end it for naive readers; curly is safe.
    return s.replace('"', "\u201d").replace("</ref", "<\\/ref")


def check_mark(c: Citation) -> tuple[str, str] | None:
    """(kind, reason) for a citation a reader must not take as verified, else None:
    ``quote-not-found`` (the quote is not on the page), ``claim-differs`` (the quote is, but
    the report's sentence says something else), ``claim-unchecked`` (no check decided) or
    ``no-claim`` (the quote is on the page, but the citation has no claim of its own to
    check: shown neutral, never as supported)."""
    if c.status is Verdict.UNSUPPORTED:
        return "quote-not-found", c.check.how or "the quote is not in the cited source"
    if c.claim_status is ClaimStatus.UNSUPPORTED:
        return "claim-differs", c.claim_check.note
    if c.claim_status is ClaimStatus.UNCHECKED:
        return "claim-unchecked", c.claim_check.note or "the claim could not be checked"
    if c.claim_status is ClaimStatus.NO_CLAIM:
        return "no-claim", c.claim_check.note or "no claim of its own"
    return None


# what a citation's badge says, by the kind of its mark (None: proven); the legend's keys
_LEGEND = {"quote-not-found": "missing", "claim-differs": "differs", "claim-unchecked": "unchecked",
           "no-claim": "no_claim"}


def legend_counts(report: CitationReport) -> dict[str, int]:
    """How many citations show each badge: ``proven`` (blue: the quote is on the page and
    code proved the claim true to it), ``repaired`` (green: the same after a repair),
    ``differs`` (orange), ``missing`` (red: the quote is not on the page), ``unchecked``
    (grey) and ``no_claim`` (light grey). Each citation counts once, so they add up to the
    number of citations."""
    out = dict.fromkeys(("proven", "repaired", "differs", "missing", "unchecked", "no_claim"), 0)
    for c in report.citations:
        mark = check_mark(c)
        if mark is not None:
            out[_LEGEND[mark[0]]] += 1
        else:
            out["repaired" if c.status is Verdict.REPAIRED else "proven"] += 1
    return out


def _attr(text: str) -> str:
    text = " ".join((text or "").split())[:300]
    return text.replace('"', "\u201d").replace("<", "\u2039").replace(">", "\u203a").replace("&", "+")


def ui_ref(c: Citation, local_files: frozenset[str] = frozenset()) -> str:
    """A citation as report.md writes it: ``<ref id="…">"quote"</ref>``, the quote inert; a
    repaired ref carries the right source and the page's text; a ref a reader must not take
    as verified carries ``check`` and ``note`` attributes (see :func:`check_mark`)."""
    mark = check_mark(c)
    attrs = f' check="{mark[0]}" note="{_attr(mark[1])}"' if mark else ""
    # a control character of the page is a space here, not an escape (inert_text): the quote
    # is found again when report.md is published again
    if c.status is Verdict.REPAIRED or mark:
        sid = c.source.id if c.status is Verdict.REPAIRED else c.ref.source_id
        return ref_tag(sid, blank_controls(_escape_quote(_quote_text(c))), attrs, local_files)
    return ref_tag(c.ref.source_id, blank_controls(c.ref.quote), attrs, local_files)


def ref_markup(c: Citation, local_files: frozenset[str] = frozenset()) -> str:
    """A trusted citation as a ref of the Verified findings section: the page's text."""
    return ref_tag(c.source.id, _escape_quote(_quote_text(c)), "", local_files)


def ui_markdown(report: CitationReport, sources_heading: str = "Sources", *,
                findings: bool = False, policy: Policy | None = None) -> str:
    """Refs kept for a UI (see :func:`ui_ref`); a malformed ref tag shown as text, for the
    author to fix. ``policy``: the output policy applied to this report (default: applied
    here)."""
    policy = policy or policy_for(report)
    md = report.parsed.markdown
    local = local_file_urls(report.sources)
    by_ref = {c.ref.index: c for c in report.citations}

    def atom(x: Atom) -> str:
        if x.ref is None:
            return tag_atom_text(x, md, raw_ok=x.text(md).startswith("</"))
        c = by_ref.get(x.ref.index)
        return ui_ref(c, local) if c is not None and c.ref is x.ref else ref_tag(x.ref.source_id, x.ref.quote)

    body, found_heading = body_markdown(report, policy, atom)
    if findings:
        body = with_findings(report, body, findings_markdown(report, lambda c: ref_markup(c, local)))
    return body.rstrip() + "\n\n" + _sources_markdown(report, found_heading or sources_heading, ids=True)


# --- the "Verified findings" section, built by code only ----------------------------------
FINDINGS_HEADING = "Verified findings"


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
    return without_findings(md)


def with_findings(report: CitationReport, body: str, section: str) -> str:
    """``section`` placed before the body: after the report's leading '# Title', else at
    the top."""
    if not section:
        return body
    at = body.index("\n") + 1 if report.parsed.title() is not None and "\n" in body else 0
    return body[:at] + ("\n" if at else "") + section + "\n" + body[at:].lstrip("\n")


def citation_link(c: Citation, styler: Styler | None = None) -> str:
    label = str(c.number) if c.number is not None else "?"
    if styler is not None and not styler.numbered and c.source is not None and c.number is not None:
        label = _md_text(styler.marker(c.source.id))  # (Smith, 2023): the marker is the link text
    if c.url:
        where = f' "{_md_title(c.location.text)}"' if c.location else ""
        link = f"[{label}]({md_destination(c.url)}{where})"
    else:
        link = f"[{label}]"
    if c.status is Verdict.UNSUPPORTED:
        return link + " (unverified quote)"
    if c.claim_status is ClaimStatus.UNSUPPORTED:
        return link + f" (claim differs from source: {_md_text(_attr(c.claim_check.note))})"
    return link


def side_label(report: CitationReport, styler: Styler | None) -> Callable[[list[int]], str]:
    """Names one side of a place where sources disagree (its ref numbers, citations.json's
    ``n``) as the report's badges show its citations: ``[4]``, or the author-date marker
    without its parentheses (the list puts it in its own), not by the ref numbers, which no
    reader can see. ``styler`` None: numbered."""
    by_n = {c.ref.index + 1: c for c in report.citations}

    def one(n: int) -> str:
        c = by_n.get(n)
        if c is None or c.number is None:
            return "?"
        if styler is not None and not styler.numbered and c.source is not None:
            return styler.marker(c.source.id).removeprefix("(").removesuffix(")")
        return f"[{c.number}]"

    return lambda refs: ", ".join(dict.fromkeys(one(n) for n in refs))


def linked_markdown(report: CitationReport, sources_heading: str = "Sources", *,
                    findings: bool = False, styler: Styler | None = None, policy: Policy | None = None) -> str:
    """Each ref a citation link to its sentence, and a Sources list; with a ``styler`` other
    than numbered, the links read as that style's markers and the Sources list holds its
    reference entries, each followed by its quotes and their fragment links. Malformed ref
    tags lose their markup, their words kept (they are listed in the audit; report.md shows
    them as text, for the author to fix)."""
    policy = policy or policy_for(report)
    md = report.parsed.markdown
    by_ref = {c.ref.index: c for c in report.citations}

    def atom(x: Atom) -> str:
        if x.ref is not None:
            c = by_ref.get(x.ref.index)
            if c is None or c.ref is not x.ref:
                return ""
            words = quoted_words(report, c)  # the sentence needs them: the words, then the link
            link = citation_link(c, styler)
            return f"\u201c{_md_literal(words)}\u201d {link}" if words else link
        # removed, unless what stands on either side could then join into markup
        before = md[x.start - 1] if x.start else ""
        after = md[x.end:x.end + 1]
        return " " if before in ("]", "!", "\\", "<", "`") or after in ("(", "[", ":", "`") else ""

    body, found_heading = body_markdown(report, policy, atom)
    if findings:
        body = with_findings(report, body, findings_markdown(report, lambda c: citation_link(c, styler)))
    heading = found_heading or sources_heading
    if styler is not None and styler.style != "numbered":
        sources_md = styled_sources_markdown(report, heading, styler)
    else:
        sources_md = _sources_markdown(report, heading, ids=False)
    return body.rstrip() + "\n\n" + sources_md


def replaced_sources(report: CitationReport) -> dict | None:
    """The report's own Sources section, which publishing replaces with the list built from
    the citations, when it says anything else: ``{"heading", "line", "text"}`` (the text as
    the input has it, so that nothing written there is lost, but for the credentials of the
    URLs it lists, masked as a source's URL is: errors.mask_page_url, for audit.json is
    written and served like every other file); None when the report has none, or when it
    is that list already (a run's report.md, published again)."""
    doc = report.parsed
    section = sources_section(doc)
    if section is None:
        return None
    text = mask_page_url(doc.markdown[section.start:section.end])
    name = sources_name(section)
    built = inert_text(_sources_markdown(report, name, ids=True))  # as report.md holds it

    def words(md: str) -> str:
        return " ".join(md.lstrip().lstrip("#").split())

    if words(text) == words(built):
        return None
    return {"heading": name, "line": doc.markdown.count("\n", 0, section.start) + 1, "text": text}


def _sources_markdown(report: CitationReport, heading: str, *, ids: bool) -> str:
    lines = [f"## {heading}", ""]
    numbers = {}
    places = cited_locations(report)
    for c in report.citations:
        if c.source is not None:
            numbers.setdefault(id(c.source), c.number)
    for s in report.sources:
        number = numbers[id(s)]
        title = _md_text(re.sub(r"\s+", " ", s.title or s.url).strip())
        ident = f" (id {_md_text(s.id)})" if ids else ""
        url = _md_url_text(safe_link(s.url)) or _md_text(s.url)  # a javascript: or data: URL is shown, never linked
        cred = credibility_text(s.credibility)
        where = places.get(s.id)
        lines.append(f"[{number}] {title}{ident}: {url}" + (f" \u2014 {_md_text(cred)}" if cred else "")
                     + (f" \u2014 cited at {_md_emphasis_text(where)}" if where else "") + "  ")
    return "\n".join(lines).rstrip() + "\n"


MAX_LISTED_LOCATIONS = 12


def cited_locations(report: CitationReport) -> dict[str, str]:
    """By source id, where in the document its quotes were found ("page 2; page 5",
    "sheet Prices, row 12"), in order of citation, each place once; only sources with
    locations (local PDFs, slides, sheets, chapters, CSV rows). Plain text, not escaped."""
    found: dict[str, list[str]] = {}
    seen: set[tuple[str, str]] = set()
    for c in report.citations:
        if c.source is not None and c.location is not None:
            places = found.setdefault(c.source.id, [])
            if (c.source.id, c.location.text) not in seen:
                seen.add((c.source.id, c.location.text))
                places.append(c.location.text)
    out = {}
    for sid, places in found.items():
        more = len(places) - MAX_LISTED_LOCATIONS
        out[sid] = "; ".join(places[:MAX_LISTED_LOCATIONS]) + (f"; and {more} more" if more > 0 else "")
    return out


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

    link = f"<{md_autolink(url)}>" if url and not re.search(r"[\s<>]", url) else _md_text(ref.url)
    return run(ref.parts[:at]) + link + run(ref.parts[at:])


def styled_sources_markdown(report: CitationReport, heading: str, styler: Styler) -> str:
    """The Sources list in a citation style: each entry, then its quotes with their links."""
    quotes: dict[str, list[Citation]] = {}
    seen: set[tuple[str, str]] = set()  # (source id, quote as shown): each listed once
    for c in report.citations:
        if c.source is not None and c.number is not None:
            shown = quotes.setdefault(c.source.id, [])
            if (c.source.id, c.shown_quote) not in seen:
                seen.add((c.source.id, c.shown_quote))
                shown.append(c)
    lines = [f"## {heading}", ""]
    for sid in styler.order():
        if sid not in quotes:
            continue
        cred = credibility_text(styler.sources[sid].credibility)
        lines += [reference_markdown(styler.reference(sid), safe_link(styler.sources[sid].url))
                  + (f" \u2014 {_md_text(cred)}" if cred else ""), ""]
        for c in quotes[sid]:
            text = _md_text("\u201c" + c.shown_quote + "\u201d")
            item = f"[{text}]({md_destination(c.url)})" if c.url else text
            if c.location is not None:
                item += f" ({_md_emphasis_text(c.location.text)})"
            mark = check_mark(c)
            if mark and mark[0] == "quote-not-found":
                item += " (unverified quote)"
            elif mark and mark[0] == "claim-differs":
                item += f" (claim differs from source: {_md_text(_attr(mark[1]))})"
            lines.append(f"- {item}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def md_destination(url: str) -> str:
    """A URL (from ``safe_link``) as the destination of a markdown link built by code:
    brackets and backticks escaped, a backslash encoded, so no renderer reads it otherwise."""
    return url.replace("\\", "%5C").replace("[", "\\[").replace("]", "\\]").replace("`", "\\`")


def md_autolink(url: str) -> str:
    """A URL (from ``safe_link``) inside ``<…>`` built by code (characters a renderer
    would decode there percent-encoded)."""
    return url.replace("`", "%60").replace("[", "%5B").replace("]", "%5D")


def _md_url_text(url: str | None) -> str | None:
    """A URL shown as text in a list built by code (brackets escaped)."""
    if url is None:
        return None
    return url.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]").replace("`", "\\`")


def _md_title(text: str) -> str:
    """Text as a markdown link title in double quotes (a tooltip), shown as it is: every
    character that a renderer could read as markup, an entity or the title's end escaped."""
    return _TITLE_MARKUP.sub(r"\\\1", " ".join(text.split()))


_TITLE_MARKUP = re.compile(r'([\\"<>&\[\]()`])')
_TEXT_MARKUP = re.compile(r"([\\\[\]<>`])")


def _md_text(text: str) -> str:
    """Text that markdown shows as it is: no link, autolink or HTML tag can start in it."""
    return _TEXT_MARKUP.sub(r"\\\1", text)

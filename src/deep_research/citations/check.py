"""Check every citation of a report and give each a link to its exact sentence."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Mapping
from urllib.parse import quote, urlsplit

from .claims import Claim, ClaimCheck, ClaimStatus, check_claim
from .document import Document, as_document
from .evidence import (MAX_DISAGREEMENTS, Disagreement, Independence, claim_key, confidence, disagreements,
                       quote_contradictions)
from .flags import (Flag, NormalisedPage, date_problems, invented_names, normalised_page, one_per_table,
                    uncited_statements)
from .fragments import Fragment, fragment_for, with_text_fragment
from .judgement import decide
from .links import LINK_SCHEMES, safe_link  # noqa: F401 - re-exported: publish and inputs import it from here
from .locations import Location, locate, parse_locations
from .mdscan import shown_text
from .model import ParsedReport, QuoteCheck, Ref, RefProblem, Source, Verdict
from .verify import SourceIndex

@dataclass
class Citation:
    ref: Ref
    check: QuoteCheck
    source: Source | None  # the source that holds the quote, after repair
    url: str | None  # fragment URL, plain URL, or None
    fragment: str | None = None  # the text directive, when one could be made
    link_note: str | None = None  # why the link has no fragment, or highlights less than the quote
    words_only: bool = False  # the fragment highlights the quote's words without edge symbols
    number: int | None = None  # the source's number in the Sources list
    claim: Claim | None = None  # the report text this ref supports
    claim_check: ClaimCheck | None = None  # is that text true to the quote(s)?
    confidence: str | None = None  # high | medium, for a supported claim
    judge: dict | None = None  # the judge's votes on the claim and their evidence checks (judgement.decide)
    location: Location | None = None  # where in a local document the quote is (page, slide, sheet row, ...)

    @property
    def decided_by(self) -> str | None:
        """Who proved the claim's status: "code" (a rule, or the quote is not on the page),
        "judge" (a judge's "supports" whose evidence code checked), None when nobody did: the
        claim is unchecked, or a judge flagged it (orange is the safe direction, so the
        report shows it, but code did not prove the contradiction)."""
        if self.claim_check is None or self.claim_check.status is ClaimStatus.UNCHECKED:
            return None
        if self.claim_check.rule == "no_claim":  # a ref with no claim of its own: nothing was checked
            return None
        if self.judge is None:
            return "code"
        return "judge" if self.claim_check.status is ClaimStatus.SUPPORTED else None

    @property
    def status(self) -> Verdict:
        return self.check.status

    @property
    def claim_status(self) -> ClaimStatus | None:
        return self.claim_check.status if self.claim_check else None

    @property
    def trusted(self) -> bool:
        """The quote is on the page and the claim is true to it: what a reader may rely on."""
        return self.check.found and self.claim_status is ClaimStatus.SUPPORTED

    # read for every claim, badge, Sources entry and record of the citation: made once (its
    # ref, check and source are set when the citation is made and never change)
    @cached_property
    def shown_quote(self) -> str:
        """The quote as the reader sees it: the page's exact text when found, else the
        quote as the report shows it (:attr:`quote_text`), whitespace runs one space."""
        return " ".join(((self.rendered_text if self.check.found else self.quote_text) or "").split())

    @cached_property
    def quote_text(self) -> str:
        """The ref's quote as the report shows it and as it reads on its page (citations.json's
        ``quote``): the markdown's character references and backslash escapes decoded
        ("&lt;ref&gt;", which a quote must write for a page's "<ref>", is "<ref>"), a code
        span as written. The quote as written in the markdown is ``ref.quote``."""
        return shown_text(self.ref.quote)

    @cached_property
    def rendered_text(self) -> str | None:
        if not self.check.found or self.source is None:
            return None
        return self.check.reading(self.source).text[self.check.start : self.check.end]

    @property
    def matched_text(self) -> str | None:
        """The exact span of the source's content that holds the quote."""
        if not self.check.found or self.source is None:
            return None
        a, b = self.check.reading(self.source).raw_span(self.check.start, self.check.end)
        return self.source.content[a:b]

    @property
    def content_span(self) -> tuple[int, int] | None:
        if not self.check.found or self.source is None:
            return None
        return self.check.reading(self.source).raw_span(self.check.start, self.check.end)

    def as_json(self) -> dict:
        span = self.content_span
        return {
            "n": self.ref.index + 1,
            "number": self.number,
            "source_id": self.source.id if self.source else self.ref.source_id,
            "cited_id": self.ref.source_id,
            "quote": self.quote_text,
            "status": self.status.value,
            "matched_text": self.source.content[span[0]:span[1]] if span and self.source else None,
            "highlight_text": self.rendered_text,
            "content_start": span[0] if span else None,
            "content_end": span[1] if span else None,
            "url": self.url,
            "fragment": self.fragment,
            "fragment_covers": None if self.fragment is None else ("words" if self.words_only else "quote"),
            "note": "; ".join(x for x in (self.check.how, self.link_note) if x) or None,
            "line": self.ref.line,
            "claim": self.claim.text if self.claim else None,
            "claim_status": self.claim_status.value if self.claim_status else None,
            "claim_note": self.claim_check.note if self.claim_check else None,
            "claim_rule": self.claim_check.rule if self.claim_check else None,
            "confidence": self.confidence,
            "claim_decided_by": self.decided_by,
            "judge": self.judge,
            "source_credibility": self.source.credibility if self.source else None,
            "location": self.location.text if self.location else None,
            "location_page": self.location.page if self.location else None,
        }


@dataclass
class CitationReport:
    parsed: Document  # the report, parsed once
    citations: list[Citation] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)  # cited sources, in numbering order
    claims: list[Claim] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    # a kind of disagreement reached :data:`evidence.MAX_DISAGREEMENTS`: the list may be cut
    disagreements_cut: bool = False
    # statements a reader should not take on trust (citations.flags): uncited factual
    # sentences, impossible dates, names none of the cited pages holds
    flags: list[Flag] = field(default_factory=list)

    def flag_count(self, kind: str) -> int:
        return sum(1 for f in self.flags if f.kind == kind)

    def claim_count(self, status: ClaimStatus) -> int:
        """Claims (not refs) with this status."""
        return self.claim_counts()[status]

    def claim_counts(self) -> Counter[ClaimStatus | None]:
        """Claims (not refs) by status, from one pass over the citations."""
        checks = {id(c.claim): c.claim_status for c in self.citations if c.claim is not None}
        return Counter(checks.values())

    def claims_quote_not_found(self) -> int:
        """Claims that are ``unsupported`` because a quote of theirs is not on its page (not
        because the claim differs from a quote that is): counted once, under the quotes."""
        checks = {id(c.claim): c.claim_check for c in self.citations if c.claim is not None}
        return sum(1 for ch in checks.values()
                   if ch is not None and ch.status is ClaimStatus.UNSUPPORTED and ch.rule == "quote")

    def claim_citations(self) -> list[tuple[Claim, list[Citation]]]:
        by_claim: dict[int, tuple[Claim, list[Citation]]] = {}
        for c in self.citations:
            if c.claim is not None:
                by_claim.setdefault(id(c.claim), (c.claim, []))[1].append(c)
        return list(by_claim.values())

    @property
    def problems(self) -> list[RefProblem]:
        return self.parsed.problems

    def count(self, verdict: Verdict) -> int:
        return sum(1 for c in self.citations if c.status is verdict)

    def fragment_links(self) -> int:
        """How many citations link to the exact sentence (a text fragment)."""
        return sum(1 for c in self.citations if c.fragment)

    @property
    def without_fragment(self) -> list[Citation]:
        return [c for c in self.citations if c.check.found and c.fragment is None]


# Documents a browser does not open at a text fragment (checked with Chromium, see
# tests/search/test_formats.py): the link is the plain document link, and the note says why.
_PDF_REASON = "PDF viewers do not support text fragments"
_PLAIN_LINK_TYPES = {
    ".pdf": _PDF_REASON,
    ".docx": "browsers do not open Word files at a text fragment",
    ".pptx": "browsers do not open PowerPoint files at a text fragment",
    ".xlsx": "browsers do not open Excel files at a text fragment",
    ".epub": "browsers do not open EPUB books at a text fragment",
    ".csv": "browsers download CSV files instead of showing them",
    ".tsv": "browsers download TSV files instead of showing them",
}


def plain_link_reason(url: str) -> str | None:
    """Why a link to this document can carry no text fragment, or None when it can."""
    try:
        path = urlsplit(url).path.lower()
    except ValueError:
        return None
    dot = path.rfind(".")
    return _PLAIN_LINK_TYPES.get(path[dot:]) if dot > path.rfind("/") else None


PDF_SEARCH_CHARS = 200


def with_pdf_page(url: str, page: int, search: str | None = None) -> str:
    """``url`` opening PDF page ``page`` (``#page=N``, RFC 8118's open parameters, which
    Chromium's viewer follows, tested) and, with ``search``, asking for that phrase
    (``&search=…&phrase=true``: viewers built on pdf.js, such as Firefox's, highlight it;
    Chromium's ignores it). At most :data:`PDF_SEARCH_CHARS` of the phrase, cut at a word;
    an existing fragment is replaced."""
    link = url.split("#", 1)[0] + f"#page={page}"
    words = " ".join((search or "").replace('"', " ").split())
    if len(words) > PDF_SEARCH_CHARS:
        words = words[:PDF_SEARCH_CHARS].rsplit(" ", 1)[0]
    return link + (f"&search={quote(words, safe='')}&phrase=true" if words else "")


def _place(citation: Citation, source: Source, link: str | None, marks: dict[str, list | None]) -> None:
    """Give a found quote in a local document its location and, in a PDF, a link to its
    page. ``marks``: each source's checked marks, filled here."""
    if not source.locations:
        return
    span = citation.content_span
    if span is None:
        return
    if source.id not in marks:
        marks[source.id] = parse_locations(source.locations)
    citation.location = loc = locate(marks[source.id], source.content, *span)
    if loc is not None and loc.page is not None and link is not None and plain_link_reason(link) == _PDF_REASON:
        citation.url = with_pdf_page(link, loc.page, citation.rendered_text)
        citation.link_note = (f"{_PDF_REASON}; the link opens page {loc.page} (and viewers built on pdf.js, "
                              "such as Firefox's, search it for the quote)")


def check_citations(markdown: str | ParsedReport, sources: Iterable[Source], *, min_words: int = 3,
                    judgments: Mapping[str, dict] | None = None, today: dt.date | None = None,
                    english: bool = True) -> CitationReport:
    """Verify each ref's quote against its page, number the sources in order of first
    citation, build a text-fragment link for every quote that was found, then check each
    claim against its quotes (see :func:`check_claims`). ``markdown``: the report, or the
    report already parsed (:func:`deep_research.citations.document.parse`)."""
    sources = list(sources)
    index = SourceIndex(sources)
    parsed = as_document(markdown)
    result = CitationReport(parsed)
    numbers: dict[str, int] = {}
    links: dict[str, tuple[str | None, str | None]] = {}  # a source's link, and why it takes no fragment
    # a span's fragment, its directive encoded and the source's link opening at it
    fragments: dict[tuple[str, int, int, bool], tuple[Fragment, str | None, str | None]] = {}
    marks: dict[str, list | None] = {}
    checks: dict[tuple[str, str], QuoteCheck] = {}  # a report cites one quote more than once
    for ref in parsed.refs:
        check = checks.get((ref.quote, ref.source_id))
        if check is None:
            check = checks[ref.quote, ref.source_id] = index.verify(ref.quote, ref.source_id)
        source = index.source(check.source_id) if check.source_id in index else None
        citation = Citation(ref, check, source, None)
        if source is not None:
            if source.id not in numbers:
                numbers[source.id] = len(numbers) + 1
                result.sources.append(source)
                link = safe_link(source.url)
                links[source.id] = (link, plain_link_reason(link) if link is not None else None)
            citation.number = numbers[source.id]
            link, reason = links[source.id]
            citation.url = link
            if link is None:
                citation.link_note = "source URL is not an http(s) or file link; no link made"
            elif check.found:
                if reason is not None:
                    citation.link_note = f"{reason}; plain link"
                else:
                    key = (source.id, check.start, check.end, check.page is not None)
                    made = fragments.get(key)
                    if made is None:
                        frag = fragment_for(check.reading(source), check.start, check.end, min_words=min_words)
                        encoded = frag.encoded
                        made = fragments[key] = (frag, encoded, with_text_fragment(link, encoded) if encoded else None)
                    frag, encoded, url = made
                    if frag.directive is not None:
                        citation.fragment = encoded
                        citation.url = url
                        if frag.words_only:
                            citation.words_only = True
                            citation.link_note = frag.note
                    else:
                        citation.link_note = f"plain link: {frag.reason}"
            if check.found:
                _place(citation, source, link, marks)
        result.citations.append(citation)
    check_claims(result, judgments, today=today or dt.date.today())
    uncited = uncited_statements(parsed, english=english)
    for f in uncited:
        for value, why in date_problems(f.text, today=today or dt.date.today()):
            result.flags.append(Flag("impossible_date", f.text, why, f.start, f.end, f.line, value))
    uncited = one_per_table(uncited)  # every row's dates read above; a table cited nowhere is one statement
    result.flags = sorted(uncited + result.flags, key=lambda f: (f.start, f.kind))
    return result


QUOTE_NOT_FOUND = ClaimCheck(ClaimStatus.UNSUPPORTED, "quote",
                             "its quote is not in the cited source, so nothing supports the claim")
NO_CLAIM = ClaimCheck(ClaimStatus.NO_CLAIM, "no_claim",
                      "no claim of its own: the citation stands alone in its table cell, list item or paragraph")


def as_shown(check: ClaimCheck) -> ClaimCheck:
    """The rules' verdict as a report shows it: a claim that states nothing of its own (the
    rules' ``no_claim``) is never shown as supported - nothing was checked."""
    if check.rule == "no_claim" and check.status is not ClaimStatus.NO_CLAIM:
        return ClaimCheck(ClaimStatus.NO_CLAIM, "no_claim", check.note)
    return check


def _flagged(check: ClaimCheck, flags: list[Flag]) -> ClaimCheck:
    """A claim with an invented name or an impossible date is never shown supported: the
    flag says what code could not prove (grey, not orange: the name may be right)."""
    if not flags or check.status is not ClaimStatus.SUPPORTED:
        return check
    return ClaimCheck(ClaimStatus.UNCHECKED, flags[0].kind, "; ".join(f.note for f in flags))


def check_claims(report: CitationReport, judgments: Mapping[str, dict] | None = None, *,
                 today: dt.date | None = None) -> None:
    """Give every citation its claim, the claim's check and a confidence, and list the
    claims whose sources disagree. Code rules decide first; a claim they leave
    ``unchecked`` takes a judge's record from ``judgments`` (keyed by :func:`claim_key`)
    when one was recorded for exactly that claim and those quotes; code checks the judge's
    evidence before the verdict counts (:func:`judgement.decide`). Every claim with a quote
    found is then read for names its pages lack and dates that cannot be right
    (:mod:`.flags`); such a claim is flagged, and a supported one becomes unchecked."""
    report.claims = report.parsed.claims  # cut when the report was parsed
    facts = []
    quoted: list[tuple[int, str, str, str]] = []
    pages: dict[str, NormalisedPage] = {}
    independence = Independence({s.id: s.page.text for s in report.sources})
    rows = []
    for claim in report.claims:
        cites = [report.citations[i] for i in claim.ref_indexes if 0 <= i < len(report.citations)]
        found = [c for c in cites if c.check.found]
        rows.append((claim, cites, found, [c.shown_quote for c in found]))
    # The rules' verdicts first, the claims of one quote one after the other: what the rules
    # build from a quote is cached for the last few quotes only, and a report cites one
    # quote for claims far apart. (A verdict depends on its claim and quotes alone: a claim
    # written again with the same quotes is checked once.)
    ruled: dict[int, ClaimCheck] = {}
    verdicts: dict[tuple[str, tuple[str, ...]], ClaimCheck] = {}
    for k in sorted((k for k, r in enumerate(rows) if r[2] and r[0].text.strip()), key=lambda k: rows[k][3]):
        key = (rows[k][0].text, tuple(rows[k][3]))
        verdict = verdicts.get(key)
        if verdict is None:
            verdict = verdicts[key] = check_claim(rows[k][0].text, rows[k][3])
        ruled[k] = verdict
    for k, (claim, cites, found, quotes) in enumerate(rows):
        judge = None
        if not found:
            check = QUOTE_NOT_FOUND
        elif not claim.text.strip():  # the unit holds nothing but refs
            check = NO_CLAIM
        else:
            check = as_shown(ruled[k])
            if check.status is ClaimStatus.UNCHECKED and judgments:
                record = judgments.get(claim_key(claim.text, quotes))
                if record is not None:
                    check, judge = decide(record, claim.text, quotes)
        flags: list[Flag] = []
        if found and claim.text.strip():
            for sid in {c.source.id for c in found if c.source is not None}:
                if sid not in pages:
                    pages[sid] = normalised_page(next(c.source for c in found if c.source.id == sid).page.text)
            refs = [c.ref.index + 1 for c in cites]
            line = report.parsed.line_at(claim.start)
            for name in invented_names(claim.text, [pages[c.source.id] for c in found if c.source is not None], quotes):
                flags.append(Flag("invented_name", claim.text, f'"{name}" is on none of the cited pages', claim.start,
                                  claim.end, line, name, refs))
            for value, why in date_problems(claim.text, today=today, quotes=quotes):
                flags.append(Flag("impossible_date", claim.text, why, claim.start, claim.end, line, value, refs))
            report.flags.extend(flags)
            check = _flagged(check, flags)
        independent = independence.count((c.source.id, c.source.url) for c in found if c.source is not None)
        level = confidence(check.status, check.rule, independent)
        for c in cites:
            c.claim, c.claim_check, c.judge = claim, check, judge
            c.confidence = level if c.check.found else None
        quoted.extend((c.ref.index + 1, c.source.id, c.shown_quote, claim.text) for c in found if c.source is not None)
        if found and check.status not in (ClaimStatus.UNSUPPORTED, ClaimStatus.NO_CLAIM):
            facts.append((claim.text, [c.ref.index + 1 for c in cites], sorted({c.source.id for c in found}), quotes))
    for c in report.citations:  # every ref gets a verdict, even one no claim was found for
        if c.claim_check is None:
            c.claim_check = QUOTE_NOT_FOUND if not c.check.found else ClaimCheck(
                ClaimStatus.UNCHECKED, None, "no report text was found for this citation")
    report.disagreements = disagreements(facts, independence.same_text)
    numbered = {(tuple(d.refs[0]), tuple(d.refs[1])) for d in report.disagreements}
    contradictions = quote_contradictions(quoted, independence.same_text)
    report.disagreements_cut = max(len(report.disagreements), len(contradictions)) >= MAX_DISAGREEMENTS
    for d in contradictions:
        if not any(set(d.refs[0]) <= set(a) and set(d.refs[1]) <= set(b) for a, b in numbered):
            report.disagreements.append(d)

"""Structural checks of a published run, citation accuracy the FACT way, and the synthesis
score, all computed by code from the run folder.

FACT (DeepResearch Bench) extracts (statement, URL) pairs from a report, removes duplicate
pairs, asks a model whether each page supports its statement, and reports *citation
accuracy* (supported / judged pairs) and *effective citations* (supported pairs per task).
Here the pairs and their verdicts come from our own checks, and only verdicts that were
PROVEN count (:func:`proven_verdict`): a pair is supported when its quote was found on the
page (verified or repaired) and its claim was shown supported by code or by a judge whose
evidence code checked (``claim_decided_by`` in citations.json); unsupported when the quote is
not on the page or code showed that the claim differs from it; unknown (unchecked, grey) in
every other case: no check could decide, a judge's verdict that code could not check (a
judge's "contradicts" flags the claim in the report, the safe direction, but proves nothing),
or an older citations.json whose judge verdicts were never checked. Unknown pairs are left out of
``accuracy`` (as FACT leaves out "unknown") and never counted as supported: their share is
reported beside it (``unchecked_share``), with the range the accuracy lies in whatever they
are (``accuracy_strict``: unknown counted as wrong; ``accuracy_upper``: as right), and how
many of them a judge called supported, called different, or gave no verdict on
(:func:`judge_word`: what the judge said, shown beside the range and never counted in it).
The point figure is a measure of the whole report only when that range is narrow: grey claims
are not a random sample (code proves a misstatement far more often than a paraphrase), so
``accuracy_margin`` says how far the point figure can be from the accuracy of all statements
(its distance to the farther end of the range, the proven verdicts taken as right), and
``accuracy_representative`` is false when that exceeds :data:`POINT_MARGIN`: then the range,
not the point figure, is the result (``eval report`` says so).

The synthesis score (0-100) is the mean of three shares:
* coverage: for a run of ours, the research plan's coverage as the run recorded it
  (``research.scope.plan.plan_coverage``: the number the CLI and ``compare`` show; none when
  the plan has no sub-questions); for other folders an estimate: research topics of the plan
  whose sources the report cites (or, without a plan, sentences of the research brief whose
  content words the cited claims use);
* support: claims proven supported by their quotes / all claims (grey claims count as not
  supported);
* diversity: independent sources cited (different sites or documents), up to
  :data:`DIVERSITY_TARGET`, divided by it.
Places where sources disagree are counted beside the score, not in it.
"""

from __future__ import annotations

import re
from typing import Iterable
from urllib.parse import urlsplit, urlunsplit

from ..citations.document import Document, heading_text, parse
from ..citations.evidence import Independence, source_key
from ..research.scope.plan import plan_coverage
from .rundir import EvalInputError, RunFolder

DIVERSITY_TARGET = 5
POINT_MARGIN = 0.05  # the point accuracy stands for the report only within this margin
MIN_PARAGRAPH_WORDS = 8
COVERAGE_SHARE = 0.5  # share of a brief sentence's content words the cited claims must use

_LINK = re.compile(r"\[([^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*\)")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_WORD = re.compile(r"[^\W_]+(?:['’.-][^\W_]+)*")
_TABLE = re.compile(r"^\|.*\|\s*$\n^\|[ :|-]+\|", re.M)  # a header row and its delimiter row
_LIMITATION_WORDS = ("limitation", "limites", "limite", "einschränkung", "grenzen", "limitacion", "limitación",
                     "limitazion", "beperking", "局限", "限制", "制約", "限界", "한계")
_SKIP_SECTIONS = ("sources", "references", "bibliography", "verified findings", "sources disagree", "参考", "来源",
                  "quellen", "références", "fuentes")

STOPWORDS = frozenset("""
a an and are as at be been but by can could did do does for from had has have how i if in into is it its
me my of on or our should so than that the their them then there these they this to was we were what when
where which while who why will with would you your about also more most much many such other some any
want know report english write research question questions brief please
""".split())


def count_words(text: str) -> int:
    """Words of running text; each CJK character counts as one word (those scripts do not
    separate words with spaces)."""
    cjk = len(_CJK.findall(text))
    return cjk + len(_WORD.findall(_CJK.sub(" ", text)))


def _strip_url_fragment(url: str) -> str:
    try:
        p = urlsplit(url or "")
    except ValueError:
        return url or ""
    return urlunsplit((p.scheme, p.netloc, p.path, p.query, ""))


def _lines(md: str):
    """(start, end) of each line of ``md``, line break excluded."""
    pos = 0
    for line in md.split("\n"):
        yield pos, pos + len(line)
        pos += len(line) + 1


def _body_blocks(doc: Document) -> list[tuple[tuple[str, ...], int, int]]:
    """(sections, start, end) for each blank-line separated block of the report's text
    (top-level headings are not blocks): ``sections``, the titles of the level-2 to 6
    sections it lies in, outermost first. Headings, sections and code come from the parsed
    document, so a heading-like line inside a fenced block is text of that block, and a
    blank line inside a fence does not end the block."""
    md = doc.markdown
    nested = [(s.start, s.end, s.title.strip()) for s in doc.all_sections() if s.level > 1]
    out: list[tuple[tuple[str, ...], int, int]] = []
    first = last = -1

    def flush() -> None:
        nonlocal first
        if first >= 0:
            out.append((tuple(t for a, b, t in nested if a <= first < b), first, last))
            first = -1

    for a, b in _lines(md):
        block = doc.block_at(a)
        if block is not None and block.kind == "heading" and not block.depth:
            flush()
            continue
        if not md[a:b].strip() and (block is None or block.kind != "fence"):
            flush()
            continue
        if first < 0:
            first = a
        last = b
    flush()
    return out


def _is_section(title: str, words: Iterable[str]) -> bool:
    t = title.casefold()
    return any(w in t for w in words)


def _in_sections(titles: Iterable[str], words: Iterable[str]) -> bool:
    return any(_is_section(t, words) for t in titles)


def _prose(doc: Document, start: int, end: int) -> str:
    """The text of ``doc.markdown[start:end]`` as words are counted: ref tags left out, a
    link's text kept without its URL (code, where neither is markup, kept as written)."""
    text = doc.without_refs(start, end)
    return _LINK.sub(lambda m: m.group(0) if doc.in_code(start + m.start()) else m.group(1), text)


def structure(run: RunFolder) -> dict:
    doc = parse(run.report_md)
    md = doc.markdown
    heads = [(b.level, heading_text(md, b).strip()) for b in doc.headings() if not b.depth]
    title = next((text for level, text in heads if level == 1), None)
    sections = [text for level, text in heads if level == 2]
    body_sections = [s for s in sections if not _is_section(s, _SKIP_SECTIONS)]
    paragraphs = uncited = tables = 0
    words = 0
    tags = doc.markup()
    for titles, a, b in _body_blocks(doc):
        if any(not doc.in_code(m.start()) for m in _TABLE.finditer(md, a, b)):
            tables += 1
        if _in_sections(titles, _SKIP_SECTIONS):
            continue
        n = count_words(_prose(doc, a, b))
        words += n
        lead = md[a:b].lstrip()
        first = doc.block_at(b - len(lead))
        if (_in_sections(titles, _LIMITATION_WORDS) or lead.startswith(("|", ">"))
                or (first is not None and (first.kind in ("fence", "indented") or first.table))):
            continue
        if n < MIN_PARAGRAPH_WORDS:
            continue
        paragraphs += 1
        if not any(a <= x and y <= b for x, y in tags):
            uncited += 1
    return {
        "title": title,
        "sections": len(body_sections),
        "section_titles": body_sections,
        "words": words,
        "paragraphs": paragraphs,
        "uncited_paragraphs": uncited,
        "limitations": any(_is_section(s, _LIMITATION_WORDS) for s in sections),
        "tables": tables,
    }


def citation_checks(run: RunFolder, words: int) -> dict:
    cites = run.citations
    summary = run.audit.get("summary") or {}
    found = [c for c in cites if c.get("status") in ("verified", "repaired")]
    keys = {source_key(c.get("url") or "", str(c.get("source_id"))) for c in found}
    texts = run.source_texts
    # a page and its copy (a folder's .html and its source .txt) are one source, as the
    # claims' confidence counts them, when the run kept the texts to tell (sources.json)
    independent = (Independence(texts).count((str(c.get("source_id")), (c.get("url") or "").split("#")[0])
                                             for c in found) if texts else len(keys))
    hosts = sorted({k[5:] for k in keys if k.startswith("site:")})
    refs = len(cites)
    return {
        "refs": refs,
        "verified": sum(1 for c in cites if c.get("status") == "verified"),
        "repaired": sum(1 for c in cites if c.get("status") == "repaired"),
        "unsupported": sum(1 for c in cites if c.get("status") == "unsupported"),
        "per_1000_words": round(refs * 1000 / words, 2) if words else 0.0,
        "links_with_fragment": sum(1 for c in found if c.get("fragment")),
        "fragment_share": round(sum(1 for c in found if c.get("fragment")) / len(found), 4) if found else None,
        "malformed_tags": int(summary.get("malformed_tags", 0) or 0),
        "sources_cited": len({str(c.get("source_id")) for c in found}),
        "independent_sources": independent,
        "domains": len(hosts),
        "domain_list": hosts,
        "local_documents": sum(1 for k in keys if k.startswith("file:")),
    }


def claim_checks(run: RunFolder) -> dict:
    """Claims by what the report showed (``supported`` / ``unsupported`` / ``unchecked``)
    and by what was proven (``supported_proven`` / ``unsupported_proven``: by code or by a
    judge whose evidence code checked, :func:`proven_verdict`; ``by_judge``: of those, how
    many the checked judge decided)."""
    claims = run.audit.get("claims")
    if isinstance(claims, list):
        entries = [c for c in claims if isinstance(c, dict)]
        as_cites = [{"status": "verified", "claim_status": c.get("status"), "claim_rule": c.get("rule"),
                     **({"claim_decided_by": c["decided_by"]} if "decided_by" in c else {})} for c in entries]
        by_judge = sum(1 for c in entries if c.get("decided_by") == "judge")
    else:  # an older audit: per-ref statuses only
        as_cites = [c for c in run.citations if c.get("claim_status")]
        by_judge = sum(1 for c in as_cites if c.get("claim_decided_by") == "judge")
    statuses = [str(c.get("claim_status")) for c in as_cites]
    proven = [proven_verdict(c) for c in as_cites]
    confidence = [str(c.get("confidence")) for c in (claims or []) if isinstance(c, dict) and c.get("confidence")]
    return {
        "claims": len(statuses),
        "supported": statuses.count("supported"),
        "unsupported": statuses.count("unsupported"),
        "unchecked": statuses.count("unchecked"),
        "supported_proven": proven.count("supported"),
        "unsupported_proven": proven.count("unsupported"),
        "by_judge": by_judge,
        "no_claim": statuses.count("no_claim"),  # a citation with no claim of its own: neither way
        "high_confidence": confidence.count("high"),
        "sources_disagree": len(run.audit.get("sources_disagree") or []),
        # by kind: number, and (newer audits) negation, antonym, date, name
        "sources_disagree_kinds": _kinds(run.audit.get("sources_disagree")),
        # flags by code (citations.flags); an older audit.json has none of these lists
        "uncited_statements": len(run.audit.get("uncited_statements") or []),
        "impossible_dates": len(run.audit.get("impossible_dates") or []),
        "invented_names": len(run.audit.get("invented_names") or []),
    }


def _kinds(disagreements) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in disagreements or []:
        kind = str(d.get("kind") or "number") if isinstance(d, dict) else "number"
        out[kind] = out.get(kind, 0) + 1
    return out


def proven_verdict(c: dict) -> str:
    """A citation's verdict as eval counts it: "supported" | "unsupported" | "unknown".
    Only a proven verdict counts; grey is never rounded into green."""
    if c.get("status") not in ("verified", "repaired"):
        return "unsupported"  # the quote is not on the page: shown by code
    status = c.get("claim_status")
    if status not in ("supported", "unsupported"):
        return "unknown"
    rule = str(c.get("claim_rule") or "")
    if "claim_decided_by" in c:  # citations.json says who proved it
        proven = c["claim_decided_by"] in ("code", "judge")
    else:  # an older citations.json: its judge verdicts were never checked by code
        proven = not rule.startswith("judge")
    if rule == "no_claim":  # a ref without a claim of its own: nothing was checked
        proven = False
    return status if proven else "unknown"


JUDGE_WORDS = ("supported", "differs", "none")


def judge_word(c: dict) -> str:
    """What a judge said of a citation's claim, proven or not: "supported" (it said the
    quotes support the claim), "differs" (it said they contradict it or support only part
    of it), "none" (no judge was asked, it abstained, two judges disagreed, or it cited
    text its quotes do not hold). For the unknown pairs of :func:`fact`: the judge's word
    on a claim code could not prove, which is NOT proof and never counts in the accuracy
    (a judge wrong one time in ten leaves a report whose claims are all correct reading
    about 90 %: ``benchmarks/bench_eval_accuracy.py``)."""
    rule = str(c.get("claim_rule") or "")
    status = c.get("claim_status")
    if rule == "judge:evidence_failed" or (rule.startswith("judge") and status == "supported"):
        return "supported"  # evidence failed the code check, or an older file's unchecked judge green
    if rule in ("judge", "judge:partly") and status == "unsupported":
        return "differs"
    return "none"


def fact(citations: list[dict]) -> dict:
    """Citation accuracy the FACT way, counting proven verdicts only (see the module
    docstring); beside it, the unknown pairs by the judge's unproven word on them
    (``unknown_judge_supported``, ``unknown_judge_differs``, ``unknown_no_judge``:
    :func:`judge_word`)."""
    rank = {"unsupported": 2, "unknown": 1, "supported": 0}
    word_rank = {"differs": 2, "none": 1, "supported": 0}
    pairs: dict[tuple[str, str], tuple[str, str]] = {}
    for c in citations:
        statement = " ".join(str(c.get("claim") or "").split()) or " ".join(str(c.get("quote") or "").split())
        url = _strip_url_fragment(str(c.get("url") or "")) or f"source:{c.get('source_id')}"
        got = (proven_verdict(c), judge_word(c))
        key = (statement.casefold(), url)
        if key not in pairs or (rank[got[0]], word_rank[got[1]]) > (rank[pairs[key][0]], word_rank[pairs[key][1]]):
            pairs[key] = got  # a duplicated pair counts once, with its worst verdict
    verdicts = [v for v, _ in pairs.values()]
    words = [w for v, w in pairs.values() if v == "unknown"]
    supported, unsupported = verdicts.count("supported"), verdicts.count("unsupported")
    return {**accuracy_figures(supported, unsupported, len(verdicts)), "effective_citations": supported,
            "unknown_judge_supported": words.count("supported"), "unknown_judge_differs": words.count("differs"),
            "unknown_no_judge": words.count("none")}


def accuracy_figures(supported: int, unsupported: int, statements: int) -> dict:
    """The FACT figures of proven verdicts among ``statements`` pairs: the point accuracy
    (supported / proven), the range the accuracy of all pairs lies in (grey as wrong .. as
    right), how far the point figure can be from it, and whether that is within
    :data:`POINT_MARGIN` (see the module docstring)."""
    judged, n = supported + unsupported, statements
    acc = supported / judged if judged else None
    low: float | None = supported / n if n else None
    high: float | None = 1 - unsupported / n if n else None
    margin = max(acc - low, high - acc) if acc is not None and low is not None and high is not None else None
    return {
        "statements": n,
        "supported": supported,
        "unsupported": unsupported,
        "unknown": n - judged,
        "accuracy": round(acc, 4) if acc is not None else None,
        "accuracy_strict": round(low, 4) if low is not None else None,
        "accuracy_upper": round(high, 4) if high is not None else None,
        "accuracy_margin": round(margin, 4) if margin is not None else None,
        "accuracy_representative": margin is not None and margin <= POINT_MARGIN + 1e-9,
        "unchecked_share": round((n - judged) / n, 4) if n else None,
    }


def content_words(text: str) -> set[str]:
    words = {w.casefold() for w in _WORD.findall(_CJK.sub(" ", text))}
    out = {w for w in words if len(w) >= 4 and w not in STOPWORDS}
    return out | set(_CJK.findall(text))


def brief_items(brief: str) -> list[str]:
    """Sub-questions of a brief: its questions, else its sentences with three or more content
    words (a sentence about the report's language is not a question)."""
    sentences = [s.strip() for s in re.split(r"(?<=[.?!。？！])\s*|\n+", brief) if s.strip()]
    questions = [s for s in sentences if s.endswith(("?", "？"))]
    items = questions or [s for s in sentences if len(content_words(s)) >= 3]
    return [s for s in items if not re.search(r"\b(report|write|answer)\b.*\b(in|language)\b", s, re.I)]


def synthesis(run: RunFolder, claims: dict, cites: dict) -> dict:
    plan, origin = run.plan()
    found = [c for c in run.citations if c.get("status") in ("verified", "repaired")]
    cited_ids = {str(c.get("source_id")) for c in found}
    items: list[dict] = []
    note = ""
    recorded = (run.run or {}).get("coverage")
    coverage: float | None
    if isinstance(recorded, dict):  # a run of ours: its research plan's coverage, as the CLI showed it
        coverage = plan_coverage(recorded)
        items = [{"item": str(i.get("question", "")), "covered": bool(i.get("covered"))}
                 for i in recorded.get("items") or [] if isinstance(i, dict)]
        basis = "research plan"
        note = ("the research plan's sub-questions covered by verified findings (priority-weighted; run.json)"
                if coverage is not None else "the research plan has no sub-questions: coverage cannot be measured")
    elif plan:
        for p in plan:
            covered = bool(set(p["sources"]) & cited_ids)
            items.append({"item": p["topic"], "covered": covered})
        basis = "plan"
        note = f"research topics of the plan ({origin}) with a source the report cites"
    else:
        brief = run.brief or ""
        questions = brief_items(brief)
        claim_words = content_words(" ".join(str(c.get("claim") or "") for c in found))
        for q in questions:
            need = content_words(q)
            hit = len(need & claim_words)
            items.append({"item": q, "covered": bool(need) and hit >= max(2, round(COVERAGE_SHARE * len(need)))})
        basis = "brief" if questions else "none"
        note = ("the run has no plan; sentences of the research brief whose content words the cited claims use"
                if questions else "the run has no plan and no research brief: coverage cannot be measured")
    if not isinstance(recorded, dict):  # folders not written by a research run: an estimate from the text
        coverage = round(sum(i["covered"] for i in items) / len(items), 4) if items else None
    support = round(claims["supported_proven"] / claims["claims"], 4) if claims["claims"] else 0.0
    diversity = round(min(cites["independent_sources"], DIVERSITY_TARGET) / DIVERSITY_TARGET, 4)
    parts = [x for x in (coverage, support, diversity) if x is not None]
    return {
        "score": round(100 * sum(parts) / len(parts), 1),
        "coverage": coverage,
        "coverage_basis": basis,
        "coverage_note": note,
        "coverage_items": items,
        "supported_share": support,
        "diversity": diversity,
        "independent_sources": cites["independent_sources"],
        "contradictions_found": claims["sources_disagree"],
    }


def evaluate_run(run: RunFolder) -> dict:
    """All code checks of one run folder, as JSON-ready data. A folder whose files hold what
    no run writes (run.json's token counts as words, a plan's sources as a number: a folder
    from elsewhere) is an :class:`EvalInputError` naming it, not a crash of the evaluation."""
    try:
        return _evaluate_run(run)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as e:
        raise EvalInputError(f"{run.path}: its files do not hold what a research run writes "
                             f"({type(e).__name__}: {str(e)[:200]})") from None


def _evaluate_run(run: RunFolder) -> dict:
    struct = structure(run)
    cites = citation_checks(run, struct["words"])
    claims = claim_checks(run)
    usage = None
    if run.run and isinstance(run.run.get("usage"), dict):
        u = run.run["usage"]
        usage = {"tokens": sum(int(v.get("input_tokens", 0)) + int(v.get("output_tokens", 0)) for v in u.values()),
                 "cost_usd": round(sum(float(v.get("cost_usd", 0.0)) for v in u.values()), 6),
                 "model_calls": sum(int(v.get("calls", 0)) for v in u.values())}
    return {
        "run": run.name,
        "question": run.question,
        "structure": struct,
        "citations": cites,
        "claims": claims,
        "fact": fact(run.citations),
        "synthesis": synthesis(run, claims, cites),
        "usage": usage,
    }

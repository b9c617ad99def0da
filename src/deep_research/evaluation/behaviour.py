"""Behavioural expectations of a question (``"expect"`` in a question set), checked by code
against what the run did and wrote.

* ``clarification``: true when the agent must ask a clarifying question (false: must not);
* ``brief_revised``: a rejected brief was rewritten;
* ``language``: the report is written in this language (en, fr, de, es, it, pt, nl, zh, ja, ko);
* ``says_not_found``: the report says that the sources did not answer the question;
* ``no_invented_citations``: no citation whose quote is not on its page, and no claim that
  differs from its quote;
* ``sources_disagree``: the report found sources that disagree (audit.json), or says so;
* ``min_citations``: at least this many citations whose quote was found;
* ``mentions_any``: the report contains at least one of these texts (case-insensitive);
* ``completes``: the run ends with a report (default true unless a clarification is
  expected and no answer is given).
"""

from __future__ import annotations

import re

from ..language import detect_language as _product_language

_LETTERS = re.compile(r"[^\W\d_]", re.U)
NOT_FOUND_PHRASES = (
    # English
    "not found", "no information", "did not find", "could not find", "couldn't find", "no evidence",
    "do not contain", "does not contain", "did not contain", "not covered", "does not cover", "do not cover",
    "does not address", "do not address", "not address", "no source", "none of the sources", "not available in",
    "insufficient evidence", "no data", "not in the sources", "unable to find", "were not able to find",
    # French, German, Spanish, Italian, Portuguese
    "aucune information", "pas trouvé", "ne contiennent pas", "ne contient pas", "aucune source",
    "keine informationen", "nicht gefunden", "keine quelle", "enthalten keine", "enthält keine",
    "no se encontr", "ninguna fuente", "no contienen", "no contiene", "nessuna informazione", "non contengono",
    "nenhuma informação", "não contêm", "não contém",
    # Chinese, Japanese
    "未找到", "没有找到", "没有相关", "未能找到", "見つかりません", "見つからな", "情報がありません",
)
DISAGREE_PHRASES = ("disagree", "conflict", "contradict", "inconsistent", "differ", "divergent", "se contredisent",
                    "widersprech", "discrepan", "不一致", "矛盾")


def detect_language(text: str) -> str | None:
    """The language of a report (the product's own detector, deep_research.language), or
    None when the text has too little to tell (fewer than 10 letters)."""
    if len(_LETTERS.findall(text[:30000])) < 10:
        return None
    return _product_language(text[:30000])


def _contains_any(text: str, phrases) -> str | None:
    low = text.casefold()
    return next((p for p in phrases if p.casefold() in low), None)


def check_expectations(expect: dict, *, status: str, clarification: str | None, brief_rounds: int,
                       report_text: str | None, checks: dict | None,
                       has_answer: bool = False) -> list[dict]:
    # brief_rounds: how many times the brief was revised after a rejection
    """One ``{"name", "passed", "detail"}`` per expectation. ``report_text`` is the report as
    a reader sees it (linked markdown), ``checks`` the run's code checks (None without a
    report)."""
    out: list[dict] = []

    def add(name: str, passed: bool, detail: str) -> None:
        out.append({"name": name, "passed": bool(passed), "detail": detail})

    text = report_text or ""
    body = re.split(r"^## (?:Sources|References)\s*$", text, flags=re.M | re.I)[0]
    cites = (checks or {}).get("citations") or {}
    claims = (checks or {}).get("claims") or {}
    if "clarification" in expect:
        asked = clarification is not None
        add("clarification", asked == bool(expect["clarification"]),
            f"asked: {clarification[:160]!r}" if asked else "no clarifying question was asked")
    completes = expect.get("completes", not (expect.get("clarification") and not has_answer))
    if completes:
        add("completes", status == "completed" and checks is not None, f"status {status}")
    if "brief_revised" in expect:
        revised = brief_rounds >= 1
        add("brief_revised", revised == bool(expect["brief_revised"]), f"the brief was revised {brief_rounds} time(s)")
    if report_text is None:
        for name in ("language", "says_not_found", "no_invented_citations", "sources_disagree", "min_citations",
                     "mentions_any"):
            if name in expect:
                add(name, False, "no report was written")
        return out
    if "language" in expect:
        found = detect_language(body)
        add("language", found == str(expect["language"]).lower(), f"report language: {found or 'unknown'}")
    if "says_not_found" in expect:
        phrase = _contains_any(body, NOT_FOUND_PHRASES)
        add("says_not_found", bool(phrase) == bool(expect["says_not_found"]),
            f"says so: {phrase!r}" if phrase else "the report never says the sources lack the answer")
    if expect.get("no_invented_citations"):
        bad = int(cites.get("unsupported", 0)) + int(claims.get("unsupported", 0))
        add("no_invented_citations", bad == 0,
            f"{cites.get('unsupported', 0)} quote(s) not on their page, {claims.get('unsupported', 0)} claim(s) "
            "that differ from their quote")
    if "sources_disagree" in expect:
        found_n = int(claims.get("sources_disagree", 0))
        phrase = _contains_any(body, DISAGREE_PHRASES)
        seen = found_n > 0 or bool(phrase)
        add("sources_disagree", seen == bool(expect["sources_disagree"]),
            f"{found_n} disagreement(s) found by the checks" + (f"; the report says {phrase!r}" if phrase else ""))
    if "min_citations" in expect:
        n = int(cites.get("verified", 0)) + int(cites.get("repaired", 0))
        add("min_citations", n >= int(expect["min_citations"]), f"{n} citation(s) found on their page")
    if expect.get("mentions_any"):
        phrase = _contains_any(body, expect["mentions_any"])
        add("mentions_any", phrase is not None, f"found {phrase!r}" if phrase else "none of the texts found")
    return out

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
import unicodedata

_WORDS = re.compile(r"[^\W\d_]+", re.U)
LANG_STOPWORDS = {
    "en": "the and of to in is that for are with as on this by it be from or which not have".split(),
    "fr": "le la les des et est une un du que pour dans qui sur pas par au plus avec ce sont".split(),
    "de": "der die das und ist nicht ein eine zu den mit von für auf sich dem des im werden sind".split(),
    "es": "el la los las de y que en un una es por para con del se no al como más son".split(),
    "it": "il lo la gli le di e che un una per con non sono della del è più anche nel alla".split(),
    "pt": "o a os as de e que um uma para com não do da em por mais são no na é".split(),
    "nl": "de het een en van is dat niet op te in voor met zijn er aan door ook als".split(),
}
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
    """The language of a text: CJK by script, others by their most frequent function words."""
    sample = unicodedata.normalize("NFC", text[:30000])
    letters = sum(1 for ch in sample if ch.isalpha()) or 1
    kana = sum(1 for ch in sample if "\u3040" <= ch <= "\u30ff")
    hangul = sum(1 for ch in sample if "\uac00" <= ch <= "\ud7af")
    han = sum(1 for ch in sample if "\u4e00" <= ch <= "\u9fff")
    if kana > letters * 0.05:
        return "ja"
    if hangul > letters * 0.2:
        return "ko"
    if han > letters * 0.2:
        return "zh"
    words = [w.casefold() for w in _WORDS.findall(sample)]
    if len(words) < 5:
        return None
    scores = {lang: sum(1 for w in words if w in set(stops)) for lang, stops in LANG_STOPWORDS.items()}
    best = max(scores, key=lambda k: scores[k])
    return best if scores[best] >= max(2, 0.05 * len(words)) else None


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

"""Theme clustering: the research findings grouped by what they are about before the report
is written, so the report's sections follow the evidence rather than the order in which
researchers ran.

Deterministic code, no model call: each finding (one list item or paragraph of a
researcher's findings, with its <ref> citations) becomes a TF-IDF vector over its words
(the claim and its quotes; words found in most findings carry no weight), and findings are
merged by average-linkage agglomerative clustering on cosine similarity while the closest
two groups are similar enough, or while there are more groups than :data:`MAX_THEMES`.
A finding that stays alone joins the group it is closest to. Every finding lands in
exactly one theme (:func:`check_themes`); when the findings are too many to cluster
(:data:`MAX_UNITS`) or too few, the themes are the research topics, as before.

A theme's label is its most weighted words: a hint for the writer, who names the section
in the report's language.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np

MAX_THEMES = 8  # sections a report's body is planned in, at most
MAX_UNITS = 400  # findings clustered at most (O(n^2) memory, O(n^2) per merge step)
MERGE_AT = 0.12  # average cosine similarity above which two groups are one theme
_WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
_REF = re.compile(r"<ref\b[^>]*>", re.IGNORECASE)
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
# English function words; in other languages words that occur in most findings get no
# weight through their document frequency anyway.
_STOP = frozenset("""the and for are was were with that this from have has had but not its their they them than then there these
those which what when where who how into onto over under about after before also can could may might will
would should more most less such very per other some any each both all one two source says said does did
been being our your his her she him you out only same between while because during within without""".split())  # noqa: SIM905


def finding_units(notes: list[dict]) -> list[dict]:
    """The findings of ``notes`` one by one: ``{"id": "F1", "topic", "text"}``. A list
    item (with its continuation lines) or a paragraph is one finding; headings and empty
    lines are dropped; a finding repeated word for word (two researchers citing the same
    sentence) is kept once."""
    units: list[dict] = []
    seen: set[str] = set()

    def flush(current: list[str], topic: str) -> None:
        text = "\n".join(current).strip()
        current.clear()
        key = " ".join(text.split())
        if text and key not in seen:
            seen.add(key)
            units.append({"id": f"F{len(units) + 1}", "topic": topic, "text": text})

    for note in notes:
        topic = note.get("topic", "")
        current: list[str] = []
        for line in (note.get("findings") or "").split("\n"):
            if not line.strip() or line.lstrip().startswith("#"):
                flush(current, topic)
            elif _ITEM.match(line):
                flush(current, topic)
                current.append(line.strip())
            else:
                current.append(line.strip() if not current else "  " + line.strip())
        flush(current, topic)
    return units


def _tokens(text: str) -> list[str]:
    text = _REF.sub(" ", text).replace("</ref>", " ")
    return [w for w in (m.group(0).lower() for m in _WORD.finditer(text)) if w not in _STOP]


def _vectors(units: list[dict]) -> tuple[np.ndarray, list[str], list[Counter]]:
    counts = [Counter(_tokens(u["text"])) for u in units]
    df = Counter(w for c in counts for w in c)
    n = len(units)
    # a word in more than half of the findings says nothing about which theme one is in
    vocab = sorted(w for w, k in df.items() if k <= max(1, n // 2))
    index = {w: i for i, w in enumerate(vocab)}
    m = np.zeros((n, len(vocab)))
    for row, c in enumerate(counts):
        for w, k in c.items():
            if w in index:
                m[row, index[w]] = (1 + math.log(k)) * math.log((1 + n) / (1 + df[w]) + 1)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1
    return m / norms, vocab, counts


def cluster(units: list[dict], max_themes: int = MAX_THEMES, merge_at: float = MERGE_AT) -> list[list[int]]:
    """Groups of unit indexes (each index in exactly one group), largest group first,
    ties in the order of the first finding."""
    n = len(units)
    if n == 0:
        return []
    vec, _, _ = _vectors(units)
    sim = vec @ vec.T
    np.fill_diagonal(sim, -np.inf)
    groups: dict[int, list[int]] = {i: [i] for i in range(n)}
    active = np.ones(n, dtype=bool)
    while len(groups) > 1:
        masked = np.where(active[:, None] & active[None, :], sim, -np.inf)
        a, b = divmod(int(np.argmax(masked)), n)
        best = masked[a, b]
        if best < merge_at and len(groups) <= max_themes:
            break
        a, b = min(a, b), max(a, b)
        na, nb = len(groups[a]), len(groups[b])
        merged = (na * sim[a] + nb * sim[b]) / (na + nb)  # average linkage (Lance-Williams)
        sim[a], sim[:, a] = merged, merged
        sim[a, a] = -np.inf
        sim[b], sim[:, b] = -np.inf, -np.inf
        active[b] = False
        groups[a] = groups[a] + groups.pop(b)
    # a finding left alone joins the group it is most like (when there is another group)
    singles = [g for g, members in groups.items() if len(members) == 1]
    if len(groups) > len(singles):
        for g in singles:
            others = [h for h in groups if h != g and len(groups[h]) > 1]
            if not others:
                break
            h = max(others, key=lambda h: float(np.mean([vec[groups[g][0]] @ vec[i] for i in groups[h]])))
            groups[h] = groups[h] + groups.pop(g)
    out = [sorted(members) for members in groups.values()]
    out.sort(key=lambda g: (-len(g), g[0]))
    return out


def _label(units: list[dict], members: list[int], vocab_weight: Counter) -> str:
    words = Counter()
    for i in members:
        for w in dict.fromkeys(_tokens(units[i]["text"])):  # (not a set: ties keep text order in every process)
            words[w] += vocab_weight.get(w, 0.0)
    return ", ".join(w for w, _ in words.most_common(3)) or "findings"


def make_themes(notes: list[dict], max_themes: int = MAX_THEMES) -> tuple[list[dict], list[dict]]:
    """(themes, units): ``themes`` are ``{"id": "T1", "label", "finding_ids", "topics"}``
    (``label``: its characteristic words), in the order the report should take them."""
    units = finding_units(notes)
    if not units:
        return [], []
    if len(units) > MAX_UNITS or len(units) < 3:
        groups: dict[str, list[int]] = {}
        for i, u in enumerate(units):
            groups.setdefault(u["topic"], []).append(i)
        themes = [{"id": f"T{k + 1}", "label": topic or "findings", "finding_ids": [units[i]["id"] for i in g],
                   "topics": [topic]} for k, (topic, g) in enumerate(groups.items())]
        return themes, units
    _, _, counts = _vectors(units)
    df = Counter(w for c in counts for w in c)
    n = len(units)
    weight = Counter({w: math.log((1 + n) / (1 + k) + 1) * (k > 1) for w, k in df.items() if k <= max(1, n // 2)})
    themes = []
    for k, members in enumerate(cluster(units, max_themes)):
        themes.append({"id": f"T{k + 1}", "label": _label(units, members, weight),
                       "finding_ids": [units[i]["id"] for i in members],
                       "topics": list(dict.fromkeys(units[i]["topic"] for i in members))})
    check_themes(themes, units)
    return themes, units


def check_themes(themes: list[dict], units: list[dict]) -> None:
    """Every finding in exactly one theme (ValueError otherwise)."""
    placed = [f for t in themes for f in t["finding_ids"]]
    ids = [u["id"] for u in units]
    if sorted(placed) != sorted(ids) or len(set(placed)) != len(placed):
        raise ValueError("themes do not partition the findings")


def themed_findings(themes: list[dict], units: list[dict]) -> str:
    """The findings for the writer, grouped by theme: the section plan."""
    by_id = {u["id"]: u for u in units}
    parts = []
    for t in themes:
        lines = [f"### Theme {t['id'][1:]} ({t['label']})"]
        for fid in t["finding_ids"]:
            text = by_id[fid]["text"]
            text = text if _ITEM.match(text) else "- " + text
            lines.append(text)
        parts.append("\n".join(lines))
    return "\n\n".join(parts)

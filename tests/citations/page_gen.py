"""Seeded generators of realistic page texts for the citation tests.

Every generator takes a ``random.Random`` and returns ``(content, fmt)``; the same seed
always gives the same page. Kinds:

* ``prose``     - ordinary prose, every sentence unique (no sentence inside another)
* ``repeats``   - the same sentences and phrases several times, in different blocks
* ``case``      - near-duplicates that differ only in letter case or accents
* ``markdown``  - headings, lists, emphasis, links and escapes (format "markdown")
* ``cjk``       - Chinese paragraphs, with a repeated clause
* ``punct``     - "e.g.", "3.14", "it's", "snake_case", "1,000", "U.S." and friends
* ``code``      - code lines with double spaces mixed with prose
"""

from __future__ import annotations

import random
import re

SUBJECTS = [
    "the regional water board", "a team of hydrologists", "the city council", "local farmers",
    "the transport ministry", "independent auditors", "the harbour authority", "several hospitals",
    "the national weather service", "a coalition of tenants", "the university library",
    "most small businesses", "the fire brigade", "two rival contractors", "the school district",
]
VERBS = [
    "reported", "estimated", "confirmed", "questioned", "published", "reviewed", "doubled",
    "postponed", "approved", "measured", "criticised", "funded", "projected", "rejected",
]
OBJECTS = [
    "the annual budget", "groundwater levels", "a new flood barrier", "the ferry timetable",
    "emergency response times", "the cost of repairs", "rainfall in the northern valleys",
    "the number of vacant flats", "energy use in public buildings", "a survey of commuters",
    "the bridge inspection", "nitrate concentrations", "the recycling contract",
]
TAILS = [
    "after the spring floods", "for the third year in a row", "despite strong objections",
    "well before the deadline", "in a report released on Monday", "according to officials",
    "during the heatwave", "with little public debate", "at a cost of 4.2 million euros",
    "in every district except one", "for the first time since 1998", "without any delay",
]
NAMES = ["Müller", "Ngata", "Okafor", "Lindqvist", "Ferreira", "Dubois", "Kowalczyk", "Tanaka"]

CJK_SENTENCES = [
    "研究人员在三个城市测量了夏季地表温度。",
    "城市绿地可以显著降低周边街区的气温。",
    "市政府计划在明年扩建地铁网络。",
    "调查显示大多数居民支持新的回收政策。",
    "该水库的蓄水量比去年同期增加了百分之十二。",
    "专家认为交通拥堵是空气污染的主要原因之一。",
    "新图书馆将于九月正式对公众开放。",
    "部分农民表示干旱已经影响了小麦产量。",
]

PUNCT_SENTENCES = [
    "Small towns, e.g. those below 5,000 residents, rarely publish audits.",
    "The ratio was 3.14 in the first trial and 2.71 in the second.",
    "It's the council's view that the U.S. model won't work here.",
    "Set max_retry_count to 3 and keep log_level at debug.",
    "About 1,000 households (roughly 12.5 percent) applied before 1 March.",
    "The agency's report, i.e. the final one, was delayed until 2024.",
    "Version 2.10 fixed the parser; version 2.9 did not.",
    "Dr. Ngata said: \"we can't wait another year\" - and left.",
]

CODE_LINES = [
    "def fetch(url,  timeout=30):",
    "    return  session.get(url)",
    "x  =  compute_total(items)  # totals per district",
    "for row in rows:  print(row)",
]


def sentence(rng: random.Random) -> str:
    s = f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} {rng.choice(TAILS)}"
    if rng.random() < 0.3:
        s += f", said {rng.choice(NAMES)}"
    return s[0].upper() + s[1:] + "."


def unique_sentences(rng: random.Random, n: int) -> list[str]:
    """n sentences none of which occurs (case-blind) inside another or twice."""
    out: list[str] = []
    tries = 0
    while len(out) < n and tries < n * 50:
        tries += 1
        s = sentence(rng)
        low = s.lower()
        if any(low in o.lower() or o.lower() in low for o in out):
            continue
        out.append(s)
    return out


def paragraphs(rng: random.Random, sents: list[str]) -> str:
    lines, i = [], 0
    while i < len(sents):
        k = rng.randint(1, 4)
        lines.append(" ".join(sents[i : i + k]))
        i += k
    return "\n".join(lines)


def gen_prose(rng: random.Random) -> tuple[str, str]:
    return paragraphs(rng, unique_sentences(rng, rng.randint(6, 14))), "text"


def gen_repeats(rng: random.Random) -> tuple[str, str]:
    base = unique_sentences(rng, 5)
    sents = [rng.choice(base) for _ in range(rng.randint(8, 14))]
    # a shared phrase in otherwise different sentences
    phrase = rng.choice(TAILS)
    sents += [f"{rng.choice(SUBJECTS).capitalize()} {rng.choice(VERBS)} it {phrase}." for _ in range(3)]
    rng.shuffle(sents)
    return paragraphs(rng, sents), "text"


def gen_case(rng: random.Random) -> tuple[str, str]:
    base = unique_sentences(rng, 4)
    sents = []
    for s in base:
        sents.append(s)
        variant = rng.choice([s.upper(), s.lower(), s.replace("e", "é", 1), s.title()])
        sents.append(variant)
    rng.shuffle(sents)
    return paragraphs(rng, sents), "text"


def gen_markdown(rng: random.Random) -> tuple[str, str]:
    sents = unique_sentences(rng, 8)
    out = [f"# Report on {rng.choice(OBJECTS)}", ""]
    for k, s in enumerate(sents):
        words = s.split(" ")
        j = rng.randrange(1, len(words) - 1)
        style = k % 4
        if style == 0:
            words[j] = f"**{words[j]}**"
        elif style == 1:
            words[j] = f"[{words[j]}](https://example.org/ref/{k})"
        elif style == 2:
            words[j] = f"*{words[j]}*"
        if style == 3:
            out.append(f"- {' '.join(words)}")
        else:
            out.append(" ".join(words))
            out.append("")
    out.append("Set the value in config\\_file\\_name before the run.")
    return "\n".join(out), "markdown"


def gen_cjk(rng: random.Random) -> tuple[str, str]:
    sents = rng.sample(CJK_SENTENCES, 6)
    sents.insert(rng.randrange(len(sents)), sents[0])  # one sentence twice
    lines, i = [], 0
    while i < len(sents):
        k = rng.randint(1, 3)
        lines.append("".join(sents[i : i + k]))
        i += k
    return "\n".join(lines), "text"


def gen_punct(rng: random.Random) -> tuple[str, str]:
    sents = rng.sample(PUNCT_SENTENCES, 5) + unique_sentences(rng, 3)
    rng.shuffle(sents)
    return paragraphs(rng, sents), "text"


def gen_code(rng: random.Random) -> tuple[str, str]:
    lines = []
    for s in unique_sentences(rng, 4):
        lines.append(s)
        lines.append(rng.choice(CODE_LINES))
    return "\n".join(lines), "text"


GENERATORS = {
    "prose": gen_prose,
    "repeats": gen_repeats,
    "case": gen_case,
    "markdown": gen_markdown,
    "cjk": gen_cjk,
    "punct": gen_punct,
    "code": gen_code,
}



def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Spans of sentence-like pieces of a rendered page text, edges trimmed."""
    spans = []
    for line_start, line in _line_iter(text):
        for m in re.finditer(r".+?(?:[.!?](?=\s|$)|。|$)", line):
            a, b = m.start(), m.end()
            while a < b and line[a].isspace():
                a += 1
            while b > a and line[b - 1].isspace():
                b -= 1
            if b - a >= 2 and any(c.isalnum() for c in line[a:b]):
                spans.append((line_start + a, line_start + b))
    return spans


def word_subspans(text: str, span: tuple[int, int], rng: random.Random, n: int) -> list[tuple[int, int]]:
    """Up to n random runs of whole space-separated words inside span."""
    a, b = span
    words = [(a + m.start(), a + m.end()) for m in re.finditer(r"\S+", text[a:b])]
    out = []
    for _ in range(n):
        if len(words) < 2:
            break
        i = rng.randrange(len(words))
        j = rng.randrange(i, min(len(words), i + 8))
        out.append((words[i][0], words[j][1]))
    return out


def _line_iter(text: str):
    pos = 0
    for line in text.split("\n"):
        yield pos, line
        pos += len(line) + 1

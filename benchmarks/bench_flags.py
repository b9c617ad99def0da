"""False flags of the code checks in ``citations.flags`` and ``evidence.quote_contradictions``
on text nobody on the rules side wrote.

* ``hand`` - ``benchmarks/data/claims-hand/dev.jsonl`` (hand-written claims over Python,
  Django, git and Linux documentation; the dev part only unless ``--holdout``): a correct
  (``supported``) claim flagged as holding an invented name (a name on none of its page) or
  an impossible date is a false flag; for the misread claims the share caught is shown per
  class. The same pairs as two "sources": the claim and its quote should contradict each
  other only for misreadings (a supported claim reported as contradicting its quote is a
  false contradiction).
* ``pydoc`` - sentences of the Python 3.11 documentation (Debian python3.11-doc, HTML text
  by the project's extraction): each sentence is a correct statement about its page, so
  any impossible date is a false flag; each checked for invented names against (a) its own
  page and (b) the page's Sphinx source (``_sources/*.rst.txt``, another rendering of the
  same text); a sample of sentences from different pages checked for contradictions
  (documentation pages do not contradict each other: every pair found is shown for reading).

Run date for "stated as past": ``--today`` (default 2026-11-27).

    uv run python benchmarks/bench_flags.py [--pages 150] [--show 10] [--holdout] [--pydoc DIR]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import REPO, pydoc_root, write_result

from deep_research.citations.document.claims import split_sentences
from deep_research.citations.evidence import quote_contradictions
from deep_research.citations.document import parse
from deep_research.citations.flags import date_problems, invented_names, normalised_page, uncited_statements
from deep_research.citations.model import Source

HAND = REPO / "benchmarks" / "data" / "claims-hand"


def share(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.1f} %)" if d else "0/0"


def run_hand(split: str, today: dt.date, show: int) -> dict:
    pages: dict[str, object] = {}
    count: Counter = Counter()
    by_class: Counter = Counter()
    shown = []
    contra_pairs: Counter = Counter()
    for line in (HAND / f"{split}.jsonl").read_text(encoding="utf-8").splitlines():
        c = json.loads(line)
        quotes = c.get("quotes") or [c["quote"]]
        if c["page"] not in pages:
            text = (HAND / "pages" / f"{c['page']}.txt").read_text(encoding="utf-8")
            pages[c["page"]] = normalised_page(Source("p", "https://x", text, format="text").page.text)
        names = invented_names(c["claim"], [pages[c["page"]]], quotes)
        dates = date_problems(c["claim"], today=today, quotes=quotes)
        label = c["label"]
        count[(label, "pairs")] += 1
        count[(label, "name")] += bool(names)
        count[(label, "date")] += bool(dates)
        count[(label, "any")] += bool(names or dates)
        by_class[(label, c["class"], "pairs")] += 1
        by_class[(label, c["class"], "flagged")] += bool(names or dates)
        if label == "supported" and (names or dates) and len(shown) < show:
            shown.append(f"    {c['id']}: {names} {dates} | {c['claim'][:120]}")
        # the claim and its (first) quote as two sources
        found = quote_contradictions([(1, "claim", c["claim"], ""), (2, "quote", quotes[0], "")])
        count[(label, "contradiction")] += bool(found)
        for d in found:
            contra_pairs[(label, c["class"], d.kind)] += 1
    ok, bad = count[("supported", "pairs")], count[("unsupported", "pairs")]
    # every hand-written claim is a factual statement: as an uncited paragraph, how many
    # does the uncited rule find (the rest name nothing checkable by its signals)?
    claims = [json.loads(x)["claim"] for x in (HAND / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()]
    doc = parse("\n\n".join(" ".join(c.split()) for c in claims) + "\n")
    found = uncited_statements(doc)
    count[("all", "uncited_found")] = len({f.line for f in found})
    why = Counter(f.note for f in found)
    print(f"\nclaims-hand/{split}: {ok} correct claims, {bad} misread claims (run date {today})")
    print(f"  correct claims flagged, invented name      {share(count[('supported', 'name')], ok)}")
    print(f"  correct claims flagged, impossible date    {share(count[('supported', 'date')], ok)}")
    print(f"  correct claims flagged, either             {share(count[('supported', 'any')], ok)}")
    print(f"  misread claims flagged (either)            {share(count[('unsupported', 'any')], bad)}")
    print(f"  claims written as uncited paragraphs, flagged uncited {share(count[('all', 'uncited_found')], len(claims))}"
          f" ({', '.join(f'{k.split()[2]}: {v}' for k, v in why.most_common())})")
    for (label, cls, what), n in sorted(by_class.items()):
        if what == "pairs" and label == "unsupported":
            print(f"    {cls:<28} caught {share(by_class[(label, cls, 'flagged')], n)}")
    print(f"  claim vs its quote reported as contradiction: correct {share(count[('supported', 'contradiction')], ok)}"
          f", misread {share(count[('unsupported', 'contradiction')], bad)}")
    for (label, cls, kind), n in sorted(contra_pairs.items()):
        print(f"    {label:<11} {cls:<26} {kind:<9} {n}")
    # every quote of a page is a true sentence of that page, and every supported claim a true
    # paraphrase: pairs of them, as if from two sources, must never contradict
    by_page: dict[str, list[str]] = {}
    for line in (HAND / f"{split}.jsonl").read_text(encoding="utf-8").splitlines():
        c = json.loads(line)
        texts = (c.get("quotes") or [c["quote"]]) + ([c["claim"]] if c["label"] == "supported" else [])
        for x in texts:
            if x not in by_page.setdefault(c["page"], []):
                by_page[c["page"]].append(x)
    pairs = false_contra = 0
    false_shown = []
    for page, texts in by_page.items():
        items = [(i + 1, f"s{i}", x, "") for i, x in enumerate(texts)]
        pairs += len(items) * (len(items) - 1) // 2
        for d in quote_contradictions(items):
            false_contra += 1
            if len(false_shown) < show:
                false_shown.append(f"    {d.kind}: {d.quotes[0][:70]} || {d.quotes[1][:70]}")
    count[("all", "same_page_pairs")] = pairs
    count[("all", "same_page_contradictions")] = false_contra
    print(f"  true sentences of one page, pairwise: {false_contra} contradictions in {pairs} pairs (all false)")
    print("\n".join(false_shown))
    if shown:
        print("  correct claims flagged:")
        print("\n".join(shown))
    return {"split": split, "counts": {"/".join(k): v for k, v in count.items()},
            "by_class": {"/".join(k): v for k, v in by_class.items()},
            "contradictions": {"/".join(k): v for k, v in contra_pairs.items()}}


def run_pydoc(root: Path, n_pages: int, today: dt.date, show: int) -> dict:
    from deep_research.search.extract import html_to_text

    files = sorted((root / "library").glob("*.html"))[:n_pages]
    sentences = names_own = names_src = dates = 0
    shown: list[str] = []
    sample: list[tuple[int, str, str, str]] = []
    t0 = time.perf_counter()
    for f in files:
        text = html_to_text(f.read_bytes(), main_only=True).text
        rst = root / "_sources" / "library" / (f.stem + ".rst.txt")
        own = normalised_page(Source("p", "https://x", text, format="text").page.text)
        src = normalised_page(rst.read_text(encoding="utf-8", errors="replace")) if rst.is_file() else None
        taken = 0
        for line in text.splitlines():
            for a, b in split_sentences(line):
                s = line[a:b].strip()
                if not 6 <= len(s.split()) <= 60:
                    continue
                sentences += 1
                if invented_names(s, [own]):
                    names_own += 1
                if src is not None:
                    found = invented_names(s, [src])
                    if found:
                        names_src += 1
                        if len(shown) < show:
                            shown.append(f"    names vs source {f.name}: {found} | {s[:100]}")
                problems = date_problems(s, today=today)
                if problems:
                    dates += 1
                    if len(shown) < show:
                        shown.append(f"    date {f.name}: {problems} | {s[:100]}")
                if taken < 3 and len(sample) < 400:
                    sample.append((len(sample) + 1, f.stem, s, ""))
                    taken += 1
    contradictions = quote_contradictions(sample)
    secs = time.perf_counter() - t0
    print(f"\npydoc: {len(files)} library pages, {sentences} sentences (6-60 words), {secs:.1f} s")
    print(f"  sentences flagged, impossible date                   {share(dates, sentences)}")
    print(f"  sentences flagged, invented name (own page)          {share(names_own, sentences)}")
    print(f"  sentences flagged, invented name (page's .rst source) {share(names_src, sentences)}")
    print(f"  contradictions among {len(sample)} sentences of different pages: {len(contradictions)}")
    for d in contradictions[:show]:
        print(f"    {d.kind}: {d.quotes[0][:80]} || {d.quotes[1][:80]}")
    if shown:
        print("\n".join(shown))
    return {"pages": len(files), "sentences": sentences, "impossible_date": dates, "invented_name_own_page": names_own,
            "invented_name_rst_source": names_src, "contradiction_sample": len(sample),
            "contradictions": len(contradictions)}


def run_hostile(today: dt.date) -> dict:
    """Seconds to read long hostile text (one 'sentence' of 100-300 kB): target < 2 s each."""
    from deep_research.citations.flags import factual_signal, proper_names

    out = {}
    print("\nhostile text (seconds: signal + names + dates against itself; target < 2 s):")
    for name, text in {"capitalised words": "Ab " * 50000, "future years": "It was in 2031 and " * 20000,
                       "month names": "May " * 50000, "dotted": "a." * 100000,
                       "openers": '"' * 100000 + "Ab"}.items():
        t = time.perf_counter()
        factual_signal(text)
        proper_names(text)
        date_problems(text, today=today, quotes=[text])
        out[name] = round(time.perf_counter() - t, 3)
        print(f"  {name:<20} {out[name]:>7.3f}  {'MET' if out[name] < 2 else 'NOT MET'}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=150)
    ap.add_argument("--show", type=int, default=10)
    ap.add_argument("--today", default="2026-11-27")
    ap.add_argument("--pydoc", default=None)
    ap.add_argument("--holdout", action="store_true", help="the holdout part of claims-hand (counts only)")
    args = ap.parse_args()
    today = dt.date.fromisoformat(args.today)
    result = {"hand": run_hand("holdout" if args.holdout else "dev", today, 0 if args.holdout else args.show)}
    if not args.holdout:
        result["hostile"] = run_hostile(today)
        result["pydoc"] = run_pydoc(pydoc_root(args.pydoc), args.pages, today, args.show)
    print(f"\nwrote {write_result('flags', result)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

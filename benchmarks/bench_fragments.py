"""Fragment links vs Chromium's own generator, on real pages we did not write.

Pages: a deterministic stride through the sorted Python 3.11 docs (library/, tutorial/,
reference/, howto/). Each page's text comes from ``html_to_text`` and is rendered with
``render(text, "text")``. Per page, K quotes are drawn (seeded) from that text:

* ``sentence``  - sentences of 30-300 characters that occur once in the page;
* ``markup``    - sentences that cross inline markup (code spans, links, emphasis);
* ``phrase``    - short 2-4 word phrases (these usually repeat, so they need context);
* ``repeated``  - sentences or short lines that occur more than once in the page.

For the first occurrence of each quote we build our directive with ``fragment_for`` and
ask Chromium's own generator (``window.find`` + ``createSelectorDirective``, i.e. "copy
link to highlight") for the same text. Both links are then opened in headless Chromium
served from 127.0.0.1 and the highlighted text is compared with the quote (whitespace
normalised, case-folded). We also check that the highlight is the intended occurrence
(the 40 characters before it in Chromium's text are those before our target in the
extracted text; for Chromium's links: no copy of the quote precedes the highlight) and
whether our Python matcher agrees with Chromium on Chromium's links.

By default all directives of one page are opened in a single navigation (a URL may hold
several ``text=`` directives; each is matched independently); ``--separate`` opens every
link on its own (slower, the literal "open the link" check).

    uv run python benchmarks/bench_fragments.py [--pages 40] [--per-page 8] [--pydoc DIR]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import median, percentile, print_code_version, pydoc_root, target_line, write_result  # noqa: E402  (also puts the repo root on sys.path)
import _convcorpus  # noqa: E402
from _mdcorpus import CONVERTERS, MD_CLASSES, convert, norm, oracle_text, pick_md_quotes, pre_lines  # noqa: E402

from deep_research.citations.fragments import TextDirective, fragment_for, match_directive  # noqa: E402
from deep_research.citations.model import Source  # noqa: E402
from deep_research.citations.verify import SourceIndex  # noqa: E402
from deep_research.citations.page import render  # noqa: E402
from deep_research.search.extract import html_to_text, local_css_loader  # noqa: E402
from tests.support.chromium import Browser, chromium_available, normalise, serve_directory  # noqa: E402

SECTIONS = ("library/", "tutorial/", "reference/", "howto/")
PUBLIC_BASE = "https://docs.python.org/3.11/"  # for realistic URL lengths
KINDS = ("sentence", "markup", "phrase", "repeated", "code_symbol")
MARK_OPEN, MARK_CLOSE = "\ue000", "\ue001"
HIDDEN_MARK = "\u00b6"  # Sphinx headerlink, CSS visibility:hidden
INLINE_TAGS = ("code", "a", "em", "strong", "kbd", "cite", "abbr")

# A sentence: starts a line or follows end punctuation and a space; ends at . ! ? before
# a space or the end of the line.
_SENT = re.compile(r"(?:^|(?<=[.!?:;] ))[\"'\u201c\u2018(]?[A-Z0-9`][^\n]*?[.!?](?=\s|$)", re.M)

_JS_NORMALISE = r"""
const norm = (s) => s.replace(/\u00a0/g, ' ').replace(/[\u2018\u2019]/g, "'")
  .replace(/[\u201c\u201d]/g, '"').replace(/\s+/g, ' ').trim().toLowerCase();
const countIn = (hay, needle) => {
  if (!needle) return 0;
  let n = 0, i = hay.indexOf(needle);
  while (i !== -1) { n++; i = hay.indexOf(needle, i + 1); }
  return n;
};
"""

# Every directive's match: its text and how many copies of the quote precede it.
_PROBE_JS = """async (quotes) => {
""" + _JS_NORMALISE + """
  const fd = document.fragmentDirective;
  if (!fd || !('items' in fd)) return {available: false, results: []};
  const results = [];
  const items = Array.from(fd.items);
  for (let i = 0; i < items.length; i++) {
    let r = null;
    try {
      r = await Promise.race([items[i].getMatchingRange(),
        new Promise((_, no) => setTimeout(() => no(new Error('timeout')), 8000))]);
    } catch (e) { r = null; }
    if (!r || r.collapsed) { results.push({text: null, rangeText: null, before: null, tail: null}); continue; }
    const rangeText = r.toString();  // includes user-select:none text (">>> " prompts)
    const s = getSelection();
    s.removeAllRanges(); s.addRange(r);
    const text = s.toString();
    s.removeAllRanges();
    const pre = document.createRange();
    pre.setStart(document.body, 0);
    pre.setEnd(r.startContainer, r.startOffset);
    s.addRange(pre);
    const preText = s.toString();
    const before = countIn(norm(preText), norm(quotes[i] || ''));
    s.removeAllRanges();
    results.push({text, rangeText, before, tail: preText.slice(-300)});
  }
  return {available: true, results};
}"""

# Chromium's "copy link to highlight" for the first occurrence of each quote.
_GENERATE_JS = """async (quotes) => {
  const out = [];
  for (const q of quotes) {
    const t0 = performance.now();
    getSelection().removeAllRanges();
    window.scrollTo(0, 0);
    if (!window.find(q, false, false, false, false, false, false)) {
      out.push({error: 'window.find: not found', ms: performance.now() - t0});
      continue;
    }
    const range = getSelection().getRangeAt(0).cloneRange();
    getSelection().removeAllRanges();
    try {
      const d = await Promise.race([document.fragmentDirective.createSelectorDirective(range),
        new Promise((_, no) => setTimeout(() => no(new Error('timeout')), 15000))]);
      out.push({directive: d.toString(), ms: performance.now() - t0});
    } catch (e) { out.push({error: String(e), ms: performance.now() - t0}); }
  }
  return out;
}"""


class ProbingBrowser(Browser):
    """The test helper's browser, plus batched generation and probing on one page."""

    def generate(self, url: str, quotes: list[str]) -> list[dict]:
        return self.evaluate_on(url, _GENERATE_JS, quotes, timeout_ms=60000)

    def probe(self, url: str, quotes: list[str]) -> list[dict]:
        got = self.evaluate_on(url, _PROBE_JS, quotes, timeout_ms=60000)
        if not got["available"]:
            raise RuntimeError("Chromium did not expose the TextFragmentAPI")
        return got["results"]


# --- corpus ---------------------------------------------------------------------------
def pick_pages(root: Path, n: int) -> list[str]:
    files = sorted(
        p.relative_to(root).as_posix()
        for sec in SECTIONS
        for p in (root / sec).rglob("*.html")
    )
    if not files:
        raise SystemExit(f"no pages under {root} in {SECTIONS}")
    stride = max(1, len(files) // n)
    return files[stride // 2 :: stride][:n]


def inline_boundaries(html: bytes, text: str, load_css=None) -> set[int] | None:
    """Offsets in ``text`` where an inline element (code, link, emphasis) starts or ends,
    found by extracting once more with marker characters around those elements. None
    when the marked extraction does not line up with the plain one."""
    import lxml.html

    doc = lxml.html.document_fromstring(html)
    for el in doc.iter(*INLINE_TAGS):
        if any(a.tag == "pre" for a in el.iterancestors()):
            continue
        el.text = MARK_OPEN + (el.text or "")
        if len(el):
            last = el[-1]
            last.tail = (last.tail or "") + MARK_CLOSE
        else:
            el.text += MARK_CLOSE
    marked = html_to_text(lxml.html.tostring(doc, encoding="utf-8"), load_css=load_css).text
    # Drop the markers line by line, redoing the whitespace collapse they may have blocked
    # ("a <code> b</code>") and the lines they alone kept alive (an <a> around an image).
    out: set[int] = set()
    lines: list[str] = []
    pos = 0
    for line in marked.split("\n"):
        if MARK_OPEN not in line and MARK_CLOSE not in line:
            lines.append(line)
            pos += len(line) + 1
            continue
        chars: list[str] = []
        marks: list[int] = []
        for ch in line:
            if ch in (MARK_OPEN, MARK_CLOSE):
                marks.append(len(chars))
            elif ch.isspace() and (not chars or chars[-1] == " "):
                continue  # collapse runs and leading space
            else:
                chars.append(" " if ch.isspace() else ch)
        while chars and chars[-1] == " ":
            chars.pop()
        if not chars:
            continue
        lines.append("".join(chars))
        out.update(pos + min(m, len(chars)) for m in marks)
        pos += len(chars) + 1
    if "\n".join(lines) != text:
        return None
    return out


def _phrase_spans(text: str, rng: random.Random, want: int) -> list[tuple[int, int]]:
    lines = [(m.start(), m.group(0)) for m in re.finditer(r"[^\n]+", text)]
    lines = [(o, s) for o, s in lines if len(s.split()) >= 6]
    out: list[tuple[int, int]] = []
    tries = 0
    while lines and len(out) < want and tries < 200:
        tries += 1
        off, line = rng.choice(lines)
        words = [(m.start(), m.end()) for m in re.finditer(r"\S+", line)]
        n = rng.choice((2, 3, 4))
        i = rng.randrange(0, len(words) - n + 1)
        a, b = off + words[i][0], off + words[i + n - 1][1]
        while a < b and not text[a].isalnum():
            a += 1
        while b > a and not text[b - 1].isalnum():
            b -= 1
        if len(text[a:b].split()) >= 2 and any(c.isalpha() for c in text[a:b]) and HIDDEN_MARK not in text[a:b]:
            out.append((a, b))
    return out


def pick_quotes(text: str, bounds: set[int] | None, k: int, rng: random.Random) -> list[tuple[str, str]]:
    """K (kind, quote) pairs from the page text, deterministic for a given rng."""
    # Sphinx's headerlink pilcrows ("Title¶") are hidden by CSS: no reader sees or
    # quotes them, and a browser cannot match them, so quotes never contain one.
    sents = [m.group(0) for m in _SENT.finditer(text) if HIDDEN_MARK not in m.group(0)]
    single = sorted({s for s in sents if 30 <= len(s) <= 300 and text.count(s) == 1})
    repeated = sorted(
        {s for s in sents if 12 <= len(s) <= 300 and text.count(s) > 1}
        | {ln for ln in text.split("\n") if 12 <= len(ln) <= 120 and text.count(ln) > 1
           and sum(c.isalpha() for c in ln) >= 8 and HIDDEN_MARK not in ln}
    )
    markup: list[str] = []
    if bounds:
        for s in single:
            a = text.find(s)
            if any(a < x < a + len(s) for x in bounds):
                markup.append(s)
    share = {"markup": max(1, k // 4), "phrase": max(1, k // 4), "repeated": max(1, k // 8)}
    share["sentence"] = max(0, k - sum(share.values()))
    chosen: list[tuple[str, str]] = []
    used: set[str] = set()

    def take(kind: str, pool: list[str], n: int) -> None:
        pool = [q for q in pool if q not in used]
        for q in rng.sample(pool, min(n, len(pool))):
            used.add(q)
            chosen.append((kind, q))

    take("markup", markup, share["markup"])
    take("repeated", repeated, share["repeated"])
    spans = _phrase_spans(text, rng, share["phrase"] * 3)
    phrases = []
    for a, b in spans:
        q = text[a:b]
        if q not in used and q not in phrases:
            phrases.append(q)
    for q in phrases[: share["phrase"]]:
        used.add(q)
        chosen.append(("phrase", q))
    take("sentence", single, k - len(chosen))
    if len(chosen) < k:  # a page with few single sentences: fill from what is left
        take("sentence", [s for s in sents if 30 <= len(s) <= 300], k - len(chosen))
    return chosen


def symbol_line(line: str) -> bool:
    """A code line worth quoting whose first or last character is not a letter or digit."""
    return (8 <= len(line) <= 160 and (not line[0].isalnum() or not line[-1].isalnum())
            and len(re.findall(r"[A-Za-z]{2,}", line)) >= 2 and HIDDEN_MARK not in line)


def disagreement_hint(text: str, directive: str) -> str:
    """A guess at why our matcher finds nothing where Chromium matched (for triage)."""
    d = TextDirective.parse(directive)
    terms = [t for t in (d.prefix, d.start, d.end, d.suffix) if t]
    if any("\n" in t for t in terms):
        return "a term spans a line break"
    if HIDDEN_MARK in text and (d.prefix or d.suffix):
        joined = (d.prefix or "") + " " + d.start
        if any(f"{t}{HIDDEN_MARK}" in text for t in (d.prefix, d.start, d.end) if t) or joined not in text:
            return "hidden \u00b6 between terms in the extracted text"
    if any(re.search(re.escape(t) + r"[.:']\w", text) or re.search(r"\w[.:']" + re.escape(t), text)
           for t in terms):
        return "word boundary next to '.', ':' or an apostrophe"
    return "other"


def same_context(ours: str | None, chromium: str | None, n: int = 30) -> bool:
    """The text just before two places agree, compared on letters and digits only (so the
    hidden header-link pilcrows and the user-select:none ">>> " prompts that the selection
    text leaves out do not matter): both are the same copy of the quote."""
    if ours is None or chromium is None:
        return False
    a = "".join(ch for ch in ours.casefold() if ch.isalnum())
    b = "".join(ch for ch in chromium.casefold() if ch.isalnum())
    k = min(n, len(a), len(b))
    return a[len(a) - k :] == b[len(b) - k :]


# --- run ------------------------------------------------------------------------------
def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pages", type=int, default=40, help="number of docs pages (default 40)")
    ap.add_argument("--per-page", type=int, default=8, help="quotes per page (default 8)")
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--pydoc", help="Python 3.11 docs folder (default: fetch into benchmarks/.cache)")
    ap.add_argument("--separate", action="store_true",
                    help="open every link in its own navigation instead of one per page")
    ap.add_argument("--md-pages", type=int, default=40,
                    help="pages for the markdown part (converted by html2text / markdownify; 0: skip)")
    ap.add_argument("--md-per-class", type=int, default=3, help="markdown-part quotes per class and page")
    ap.add_argument("--skip-text", action="store_true", help="run only the markdown part")
    ap.add_argument("--no-chromium-generator", action="store_true",
                    help="skip Chromium's generator (only check our links)")
    _convcorpus.add_arguments(ap)
    args = ap.parse_args()
    if not chromium_available():
        raise SystemExit("Chromium not found (apt-get install chromium)")

    t_start = time.perf_counter()
    print_code_version()
    root = pydoc_root(args.pydoc)
    result: dict = {"args": vars(args)}
    if not args.skip_text and not args.conv_only:
        result.update(run_text(args, root, t_start))
    if args.md_pages and not args.conv_only:
        result["markdown"] = run_markdown(args, root)
    if args.conv_pages:
        result["converter_pages"] = run_converter_pages(args)
    path = write_result("fragments", result)
    print(f"\nresult: {path}")
    return 0


def run_text(args, root: Path, t_start: float) -> dict:
    """The pages' own text (html_to_text): our links and Chromium's generator."""
    pages = pick_pages(root, args.pages)
    print(f"Python docs at {root}; {len(pages)} pages x {args.per_page} quotes (seed {args.seed})")

    # 1. quotes and our fragments ---------------------------------------------------------
    cases: list[dict] = []
    texts: dict[str, object] = {}
    gen_times: list[float] = []
    t_extract = 0.0
    for pg in pages:
        raw = (root / pg).read_bytes()
        t = time.perf_counter()
        text = html_to_text(raw, load_css=local_css_loader((root / pg).parent, root)).text
        page = render(text, "text")
        t_extract += time.perf_counter() - t
        texts[pg] = page
        bounds = inline_boundaries(raw, page.text, local_css_loader((root / pg).parent, root))
        rng = random.Random(f"{args.seed}:{pg}")
        picked = pick_quotes(page.text, bounds, args.per_page, rng)
        # plus one line of a code block that starts or ends with a symbol ("# A comment…")
        sym = sorted({x for x in pre_lines(raw) if symbol_line(x) and page.text.count(x) == 1})
        if sym:
            picked.append(("code_symbol", random.Random(f"{args.seed}:sym:{pg}").choice(sym)))
        for kind, q in picked:
            start = page.text.find(q)
            t = time.perf_counter()
            frag = fragment_for(page, start, start + len(q))
            dt_gen = time.perf_counter() - t
            gen_times.append(dt_gen)
            expected_tail = page.text[max(0, start - 300) : start]
            cases.append({
                "page": pg, "kind": kind, "quote": q, "start": start,
                "ours": frag.encoded, "ours_reason": frag.reason, "gen_ms": dt_gen * 1000,
                # a words-only link (symbols at the quote's edge no directive can include,
                # said in the audit) must highlight exactly those words
                "ours_words_only": getattr(frag, "words_only", False),
                "ours_intended": page.text[frag.start:frag.end] if getattr(frag, "words_only", False) else q,
                "expected_tail": expected_tail,
            })
    t_ours = sum(gen_times)
    kinds = sorted(Counter(c["kind"] for c in cases).items())
    print(f"{len(cases)} quotes: " + ", ".join(f"{k} {v}" for k, v in kinds))
    print(f"extraction {t_extract:.2f}s, our fragment generation {t_ours:.2f}s "
          f"(median {median(gen_times) * 1000:.1f} ms, max {max(gen_times) * 1000:.0f} ms per quote)")

    # 2. Chromium: generate its links, then open everything --------------------------------
    by_page: dict[str, list[dict]] = defaultdict(list)
    for c in cases:
        by_page[c["page"]].append(c)
    t_browser = time.perf_counter()
    with serve_directory(root) as base, ProbingBrowser() as browser:
        version = browser.version
        for n, (pg, group) in enumerate(by_page.items(), 1):
            url = base + pg
            if not args.no_chromium_generator:
                gens = browser.generate(url, [c["quote"] for c in group])
                for c, g in zip(group, gens, strict=True):
                    c["chromium"] = g.get("directive")
                    c["chromium_error"] = g.get("error")
                    c["chromium_ms"] = g.get("ms")
            directives: list[tuple[dict, str, str]] = []  # (case, which, directive)
            for c in group:
                if c["ours"]:
                    directives.append((c, "ours", c["ours"]))
                if c.get("chromium"):
                    directives.append((c, "chromium", c["chromium"]))
            # Chromium keeps one copy of a repeated directive, so open each distinct one once.
            # (Chromium also keeps one of two directives that are equal once decoded, such
            # as "init_pair" and "init%5Fpair", so they are compared decoded.)
            unique: dict[str, str] = {}
            canon: dict[TextDirective, str] = {}
            for c, _, d in directives:
                key = canon.setdefault(TextDirective.parse(d), d)
                unique.setdefault(key, c["quote"])
            if args.separate:
                got = [browser.probe(f"{url}#:~:{d}", [q])[0] for d, q in unique.items()]
            elif unique:
                got = browser.probe(url + "#:~:" + "&".join(unique), list(unique.values()))
            else:
                got = []
            if len(got) != len(unique):
                # Chromium left a directive out of fragmentDirective.items (seen when two
                # directives select the same text): open each link on its own instead
                got = [browser.probe(f"{url}#:~:{d}", [q])[0] for d, q in unique.items()]
            by_directive = dict(zip(unique, got, strict=True))
            for c, which, d in directives:
                r = by_directive[canon[TextDirective.parse(d)]]
                c[f"{which}_got"] = r["text"]
                c[f"{which}_got_range"] = r["rangeText"]
                c[f"{which}_before"] = r["before"]
                c[f"{which}_tail"] = r["tail"]
            print(f"  [{n:>3}/{len(by_page)}] {pg:<48} {time.perf_counter() - t_browser:7.1f}s", flush=True)
    t_browser = time.perf_counter() - t_browser

    # 3. score ----------------------------------------------------------------------------
    def same(c: dict, which: str) -> bool:
        # The selection's text leaves out user-select:none text that the highlight covers
        # (Sphinx's ">>> " prompts), so the range's raw text counts too.
        q = normalise(c.get("ours_intended", c["quote"]) if which == "ours" else c["quote"])
        return q in (normalise(c.get(f"{which}_got")), normalise(c.get(f"{which}_got_range")))

    for c in cases:
        c["ours_pass"] = bool(c["ours"]) and same(c, "ours")
        c["ours_place_ok"] = c["ours_pass"] and same_context(c["expected_tail"], c.get("ours_tail"))
        c["chromium_pass"] = bool(c.get("chromium")) and same(c, "chromium")
        c["chromium_place_ok"] = c["chromium_pass"] and c.get("chromium_before") == 0
        # does our Python matcher agree with Chromium about Chromium's directive?
        if c.get("chromium"):
            page = texts[c["page"]]
            try:
                span = match_directive(page, TextDirective.parse(c["chromium"]))
            except ValueError:
                span = None
            mine = page.text[span[0] : span[1]] if span else None
            c["matcher_agrees"] = normalise(mine) in (normalise(c.get("chromium_got")),
                                                      normalise(c.get("chromium_got_range")))
            c["matcher_text"] = mine
            if not c["matcher_agrees"]:
                c["matcher_note"] = disagreement_hint(page.text, c["chromium"])

    total = len(cases)
    made = [c for c in cases if c["ours"]]
    fallbacks = [c for c in cases if not c["ours"]]
    ours_pass = [c for c in cases if c["ours_pass"]]
    wrong = [c for c in made if not c["ours_pass"]]
    misplaced = [c for c in ours_pass if not c["ours_place_ok"]]
    chrom_made = [c for c in cases if c.get("chromium")]
    chrom_pass = [c for c in cases if c["chromium_pass"]]
    chrom_misplaced = [c for c in chrom_pass if not c["chromium_place_ok"]]
    both = [c for c in cases if c["ours"] and c.get("chromium")]
    ours_len = [len(c["ours"]) for c in both]
    chrom_len = [len(c["chromium"]) for c in both]
    ours_url = [len(PUBLIC_BASE + c["page"] + "#:~:" + c["ours"]) for c in both]
    chrom_url = [len(PUBLIC_BASE + c["page"] + "#:~:" + c["chromium"]) for c in both]
    matched = [c for c in chrom_made if c.get("chromium_got") is not None]
    disagree = [c for c in matched if not c["matcher_agrees"]]
    elapsed = time.perf_counter() - t_start

    def pct(a: int, b: int) -> str:
        return f"{100 * a / b:.1f} % ({a}/{b})" if b else "n/a"

    print()
    print(f"Chromium {version}; {len(pages)} pages, {total} quotes")
    figures = []
    figures.append(target_line("our pass rate (all quotes)", pct(len(ours_pass), total), "100 %",
                               len(ours_pass) == total))
    figures.append(target_line("our links highlighting the wrong text", str(len(wrong)), "0", len(wrong) == 0))
    figures.append(target_line("our fallbacks (no fragment)", str(len(fallbacks)), "(report)", None))
    words_only = [c for c in ours_pass if c.get("ours_words_only")]
    figures.append(target_line("  of the passes: words only (edge symbols)", str(len(words_only)), "(report)",
                               None))
    figures.append(target_line("ours at the intended occurrence", pct(len(ours_pass) - len(misplaced), len(ours_pass)),
                               "(report)", None))
    # no copy of the quote before the highlight: Chromium could not see the target copy
    first_visible = [c for c in misplaced if c.get("ours_before") == 0]
    figures.append(target_line("  elsewhere: first visible copy (target hidden)",
                               f"{len(first_visible)} of {len(misplaced)}", "(report)", None))
    if not args.no_chromium_generator:
        figures.append(target_line("Chromium-generator pass rate (all quotes)", pct(len(chrom_pass), total),
                                   "(reference)", None))
        figures.append(target_line("Chromium generator: no link", str(total - len(chrom_made)), "(reference)", None))
        figures.append(target_line("Chromium links at the intended occurrence",
                                   pct(len(chrom_pass) - len(chrom_misplaced), len(chrom_pass)), "(reference)", None))
        mo, mc = median(ours_len), median(chrom_len)
        figures.append(target_line(f"median directive length, {len(both)} shared quotes",
                                   f"ours {mo:.0f} / Chr {mc:.0f}" if both else "n/a",
                                   "ours <= Chromium", (mo <= mc) if both else None))
        figures.append(target_line("p90 directive length", f"ours {percentile(ours_len, 90)} / Chr "
                                   f"{percentile(chrom_len, 90)}" if both else "n/a", "(report)", None))
        figures.append(target_line("median URL length (docs.python.org)",
                                   f"ours {median(ours_url):.0f} / Chr {median(chrom_url):.0f}" if both else "n/a",
                                   "ours <= Chromium", (median(ours_url) <= median(chrom_url)) if both else None))
        figures.append(target_line("p90 URL length (docs.python.org)",
                                   f"ours {percentile(ours_url, 90)} / Chr {percentile(chrom_url, 90)}"
                                   if both else "n/a",
                                   "(report)", None))
        figures.append(target_line("our matcher agrees with Chromium (its links)",
                                   pct(len(matched) - len(disagree), len(matched)),
                                   "(report)", None))
    figures.append(target_line("time: total", f"{elapsed:.1f} s", "< 600 s", elapsed < 600))
    figures.append(target_line("time: our fragment generation", f"{t_ours:.2f} s", "(report)", None))
    figures.append(target_line("time: browser (generate + open)", f"{t_browser:.1f} s", "(report)", None))

    print("\nBy kind:            ours pass   fallback   wrong   Chromium pass   median len ours/Chr   words only")
    per_kind = {}
    for kind in KINDS:
        ks = [c for c in cases if c["kind"] == kind]
        if not ks:
            continue
        kb = [c for c in ks if c["ours"] and c.get("chromium")]
        row = {
            "quotes": len(ks),
            "ours_pass": sum(c["ours_pass"] for c in ks),
            "words_only": sum(bool(c["ours_pass"] and c.get("ours_words_only")) for c in ks),
            "fallbacks": sum(1 for c in ks if not c["ours"]),
            "wrong": sum(1 for c in ks if c["ours"] and not c["ours_pass"]),
            "chromium_pass": sum(c["chromium_pass"] for c in ks),
            "median_len_ours": median([len(c["ours"]) for c in kb]),
            "median_len_chromium": median([len(c["chromium"]) for c in kb]),
        }
        per_kind[kind] = row
        print(f"  {kind:<16} {row['ours_pass']:>4}/{len(ks):<4}   {row['fallbacks']:>8}   {row['wrong']:>5}"
              f"   {row['chromium_pass']:>7}/{len(ks):<4}   {row['median_len_ours'] or 0:>6.0f} / "
              f"{row['median_len_chromium'] or 0:.0f}      {row['words_only']:>4}")

    def show(tag: str, c: dict, extra: str, context: bool = False) -> None:
        print(f"- {tag} [{c['kind']}] {c['page']}\n    quote:     {c['quote']!r}\n    {extra}")
        if context:
            t = texts[c["page"]].text
            a, b = c["start"], c["start"] + len(c["quote"])
            print(f"    extracted: ...{t[max(0, a - 70):a]!r} [QUOTE] {t[b:b + 50]!r}... (offset {a} of {len(t)})")

    misses = [c for c in cases if not c["ours_pass"] or not c["ours_place_ok"]]
    print(f"\nOur misses ({len(misses)}):")
    for c in misses:
        if not c["ours"]:
            show("FALLBACK", c, f"reason:    {c['ours_reason']}", True)
        elif not c["ours_pass"]:
            got = c.get("ours_got")
            if got and len(got) > 300:
                got = got[:150] + f" ...[{len(got) - 300} chars]... " + got[-150:]
            show("WRONG", c, f"directive: {c['ours']}\n    got:       {got!r}", True)
        else:
            why = ("the first copy Chromium can see, so the target copy (the first in the extracted "
                   "text) is not visible: CSS-hidden" if c.get("ours_before") == 0 else "a later copy")
            show("OTHER-COPY", c, f"directive: {c['ours']}\n    highlighted: {why}; Chromium's text before it: "
                 f"...{(c.get('ours_tail') or '')[-70:]!r}", True)
    if not args.no_chromium_generator:
        cmiss = [c for c in cases if not c["chromium_pass"]]
        print(f"\nChromium generator misses ({len(cmiss)}):")
        for c in cmiss:
            if not c.get("chromium"):
                show("NO LINK", c, f"error:     {c.get('chromium_error')}")
            else:
                show("WRONG", c, f"directive: {c['chromium']}\n    got:       {c.get('chromium_got')!r}")
        print(f"\nOur matcher vs Chromium on Chromium's links ({len(disagree)} disagreements; "
              "informational - the matcher only has to be no more lenient than Chromium): "
              + ", ".join(f"{k} {v}" for k, v in Counter(c["matcher_note"] for c in disagree).most_common()))
        for c in disagree:
            show("DISAGREE", c, f"directive: {c['chromium']}\n    Chromium:  {c.get('chromium_got')!r}\n"
                 f"    ours:      {c.get('matcher_text')!r}\n    likely:    {c['matcher_note']}")
        longer = sorted((c for c in both if len(c["ours"]) > len(c["chromium"])),
                        key=lambda c: len(c["chromium"]) - len(c["ours"]))
        print(f"\nQuotes where our directive is longer than Chromium's: {len(longer)} of {len(both)}"
              + (" (5 largest differences:)" if longer else ""))
        for c in longer[:5]:
            print(f"  +{len(c['ours']) - len(c['chromium'])} [{c['kind']}] {c['page']}\n"
                  f"    ours:     {c['ours']}\n    Chromium: {c['chromium']}")

    return {
        "chromium": version,
        "pages": pages,
        "figures": figures,
        "per_kind": per_kind,
        "counts": {
            "quotes": total, "ours_made": len(made), "ours_pass": len(ours_pass), "ours_wrong": len(wrong),
            "ours_fallbacks": len(fallbacks), "ours_other_copy": len(misplaced),
            "ours_other_copy_first_visible": len(first_visible),
            "chromium_made": len(chrom_made), "chromium_pass": len(chrom_pass),
            "chromium_other_copy": len(chrom_misplaced), "matcher_disagreements": len(disagree),
        },
        "lengths": {
            "shared_quotes": len(both),
            "directive_median_ours": median(ours_len), "directive_median_chromium": median(chrom_len),
            "directive_p90_ours": percentile(ours_len, 90), "directive_p90_chromium": percentile(chrom_len, 90),
            "url_median_ours": median(ours_url), "url_median_chromium": median(chrom_url),
            "url_p90_ours": percentile(ours_url, 90), "url_p90_chromium": percentile(chrom_url, 90),
        },
        "times_s": {"total": elapsed, "extract": t_extract, "ours_generation": t_ours, "browser": t_browser},
        "cases": cases,
    }


# --- the markdown part ----------------------------------------------------------------------
def run_markdown(args, root: Path) -> dict:
    """Pages as search APIs deliver them: the HTML converted to markdown by html2text or
    markdownify (alternating). Quotes come from the real page's text; each is verified
    against the markdown (as check_citations does), its link built from the verified span
    of the markdown's rendering, and opened on the real HTML page in Chromium."""
    pages = pick_pages(root, args.md_pages)
    print(f"\n=== Markdown part: {len(pages)} pages converted by {' / '.join(CONVERTERS)}; "
          f"up to {args.md_per_class} quotes per class and page ===")
    cases: list[dict] = []
    t_gen = 0.0
    for n, pg in enumerate(pages):
        conv = CONVERTERS[n % len(CONVERTERS)]
        raw = (root / pg).read_bytes()
        real = html_to_text(raw, load_css=local_css_loader((root / pg).parent, root)).text
        md = convert(raw.decode("utf-8"), conv)
        oracle = oracle_text(md)
        src = Source(id="s", url=PUBLIC_BASE + pg, content=md, format="markdown")
        index = SourceIndex([src])
        rng = random.Random(f"{args.seed}:md:{pg}")
        for kind, q in pick_md_quotes(real, md, oracle, raw, args.md_per_class, rng):
            t = time.perf_counter()
            r = index.verify(q, "s")
            c = {"page": pg, "converter": conv, "kind": kind, "quote": q, "verdict": r.status.value,
                 "how": r.how}
            if r.found:
                shown = r.reading(src).text[r.start:r.end]
                c["span_text"] = shown
                c["verdict_ok"] = r.status.value == "verified" and norm(shown) == norm(q)
                frag = fragment_for(r.reading(src), r.start, r.end)
                c["ours"] = frag.encoded
                c["ours_reason"] = frag.reason
                # what the link is meant to highlight (the quote, or its words only)
                hs, he = getattr(frag, "start", None), getattr(frag, "end", None)
                c["intended"] = r.reading(src).text[hs:he] if hs is not None else shown
                c["note"] = getattr(frag, "note", None)
                a, b = r.reading(src).raw_span(r.start, r.end)
                c["raw"] = md[a:b]
            else:
                c["verdict_ok"] = False
                c["ours"] = None
            t_gen += time.perf_counter() - t
            cases.append(c)
    kinds = Counter(c["kind"] for c in cases)
    print(f"{len(cases)} quotes: " + ", ".join(f"{k} {kinds[k]}" for k in MD_CLASSES)
          + f"; verification and fragments {t_gen:.2f}s")
    by_page: dict[str, list[dict]] = defaultdict(list)
    for c in cases:
        by_page[c["page"]].append(c)
    t_browser = time.perf_counter()
    with serve_directory(root) as base, ProbingBrowser() as browser:
        for n, (pg, group) in enumerate(by_page.items(), 1):
            unique: dict[str, str] = {}
            for c in group:
                if c["ours"]:
                    unique.setdefault(c["ours"], c["quote"])
            got = browser.probe(base + pg + "#:~:" + "&".join(unique), list(unique.values())) if unique else []
            by_directive = dict(zip(unique, got, strict=True))
            for c in group:
                if c["ours"]:
                    res = by_directive[c["ours"]]
                    c["got"], c["got_range"] = res["text"], res["rangeText"]
            print(f"  [{n:>3}/{len(by_page)}] {pg:<48} {time.perf_counter() - t_browser:7.1f}s", flush=True)
    t_browser = time.perf_counter() - t_browser

    for c in cases:
        if not c["ours"]:
            c["link"] = "plain" if c["verdict_ok"] else "none"
            continue
        want = {normalise(c["intended"])}
        seen = {normalise(c.get("got")), normalise(c.get("got_range"))}
        if want & seen:
            c["link"] = "exact" if normalise(c["intended"]) == normalise(c["quote"]) else "words_only"
        else:
            c["link"] = "wrong"
    rows = {}
    print("\nBy class:        quotes  verified  misjudged   exact  words-only  plain URL  wrong")
    for kind in MD_CLASSES:
        ks = [c for c in cases if c["kind"] == kind]
        row = {"quotes": len(ks), "verified": sum(c["verdict_ok"] for c in ks),
               "misjudged": sum(not c["verdict_ok"] for c in ks),
               "exact": sum(c["link"] == "exact" for c in ks),
               "words_only": sum(c["link"] == "words_only" for c in ks),
               "plain": sum(c["link"] == "plain" for c in ks),
               "wrong": sum(c["link"] == "wrong" for c in ks)}
        rows[kind] = row
        print(f"  {kind:<15} {row['quotes']:>6} {row['verified']:>9} {row['misjudged']:>10} {row['exact']:>7}"
              f" {row['words_only']:>11} {row['plain']:>10} {row['wrong']:>6}")
    total = len(cases)
    mis = sum(r["misjudged"] for r in rows.values())
    wrong = sum(r["wrong"] for r in rows.values())
    exact = sum(r["exact"] for r in rows.values())
    print()
    figures = [
        target_line("markdown: quotes misjudged (not verified)", f"{mis} of {total}", "0", mis == 0),
        target_line("markdown: links highlighting the wrong text", f"{wrong} of {total}", "0", wrong == 0),
        target_line("markdown: links highlighting exactly the quote", f"{exact} of {total}", "(report)", None),
        target_line("markdown: time in the browser", f"{t_browser:.1f} s", "(report)", None),
    ]
    problems = [c for c in cases if not c["verdict_ok"] or c["link"] in ("wrong", "plain", "words_only")]
    print(f"\nMarkdown part: misjudged, wrong, plain and words-only ({len(problems)}):")
    for c in problems:
        got = c.get("got")
        if got and len(got) > 240:
            got = got[:110] + f" ...[{len(got) - 220} chars]... " + got[-110:]
        print(f"- {c['link'].upper() if c['verdict_ok'] else 'MISJUDGED ' + c['verdict']} [{c['kind']}] "
              f"{c['page']} ({c['converter']})\n    quote:     {c['quote']!r}")
        if c.get("raw") is not None:
            print(f"    markdown:  {c['raw'][:300]!r}")
        if c["ours"]:
            print(f"    directive: {c['ours']}\n    got:       {got!r}")
        elif c.get("ours_reason"):
            print(f"    plain:     {c['ours_reason']}")
        if c.get("note"):
            print(f"    note:      {c['note']}")
    return {"figures": figures, "per_class": rows, "pages": pages, "times_s": {"browser": t_browser},
            "cases": cases}


# --- converter-style pages of four doc packages ------------------------------------------------
def run_converter_pages(args) -> dict:
    """Quotes copied from the rendered page (Chromium's innerText) of Debian doc packages,
    verified against the pages' markdown as html2text / markdownify write it; each found
    quote's link opened on the real page in Chromium (see _convcorpus)."""
    splits, pages, cases, t_judge = _convcorpus.prepare(args)
    t = time.perf_counter()
    with ProbingBrowser() as browser:
        for name in _convcorpus.DOCSETS:
            group = [p for p in pages if p.docset == name]
            if not group:
                continue
            with serve_directory(_convcorpus.docset_root(name)) as base:
                for p in group:
                    _probe_links(browser, base + p.page, [c for c in p.cases if c.get("directive")])
    t_browser = time.perf_counter() - t
    for c in cases:
        if c["variant"] == "altered" or c["got"] == "unsupported":
            continue
        if not c.get("directive"):
            c["link"] = "plain"
            continue
        seen = {normalise(c.get("got_text")), normalise(c.get("got_range"))}
        if normalise(c["intended"]) in seen:
            c["link"] = "exact" if normalise(c["intended"]) == normalise(c["original"]) else "words_only"
        else:
            c["link"] = "wrong"
    out = {"splits": splits, "pages": sorted({f"{p.docset}/{p.page}" for p in pages}),
           "lost_quotes": sum(p.lost for p in pages), "times_s": {"judge": t_judge, "browser": t_browser}}
    out.update(_convcorpus.report(cases, splits, True, target_line))
    print(f"\nquotes of the rendered pages that no renderer finds in the markdown (not scored): "
          f"{out['lost_quotes']}; judge {t_judge:.1f}s, browser {t_browser:.1f}s")
    out["cases"] = cases
    return out


def _probe_links(browser, url: str, cases: list[dict]) -> None:
    """Open all directives of a page in one navigation; a page where Chromium answers for
    fewer directives than it was given is opened once per directive."""
    unique: dict[str, str] = {}
    for c in cases:
        unique.setdefault(c["directive"], c["intended"])
    if not unique:
        return
    got = browser.probe(url + "#:~:" + "&".join(unique), list(unique.values()))
    if len(got) != len(unique):
        got = [browser.probe(url + "#:~:" + d, [q])[0] for d, q in unique.items()]
    by = dict(zip(unique, got, strict=True))
    for c in cases:
        c["got_text"], c["got_range"] = by[c["directive"]]["text"], by[c["directive"]]["rangeText"]


if __name__ == "__main__":
    sys.exit(main())

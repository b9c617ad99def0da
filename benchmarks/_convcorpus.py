"""Converter-style markdown of real documentation, and quotes copied from the rendered page.

Search APIs and HTML-to-markdown converters write constructs that strict CommonMark reads
differently from the page they came from: ``markdownify`` writes a definition list's
further paragraphs (and its nested lists, tables and fenced code) as a 4-space-indented block
after a blank line, which CommonMark reads as an indented code block; ``html2text`` moves a
list item's second paragraph to the margin and indents the nested list after it by 4 spaces
(code again), and writes ``<em>`` inside ``<pre>`` as ``_x_``. This module builds a corpus of
such content from pages nobody here wrote:

* **Pages**: the HTML documentation of four Debian packages (``python3.11-doc``,
  ``python-django-doc``, ``git-doc``, ``postgresql-doc-15``), fetched with ``apt-get download``
  + ``dpkg -x`` into ``benchmarks/.cache/`` on first use (never committed). Only pages that hold
  the constructs in question are used (a ``<dd>`` with two or more blocks, a list inside a list
  item, a list item with two paragraphs, or a table), taken with a fixed stride per package.
* **Split**: a page is in the *holdout* when a hash of its path says so (about a third); the
  benchmarks report ``dev`` by default and ``holdout`` only when asked (``--conv-split``), so
  that the holdout stays unseen while the code is tuned.
* **Quotes** come from the page *as Chromium renders it*: ``document.body.innerText`` of the
  HTML page opened in headless Chromium (what a person copies from the browser). Sentences of
  20-300 characters and code lines (``<pre>``) that occur once in that text. Each is located
  in the live page with ``window.find`` and classed by the HTML around it: ``dd_first`` /
  ``dd_more`` (the first / a later block of a ``<dd>``), ``list`` / ``list_more`` /
  ``list_nested`` (a list item's first block / a later block / a list inside a list item),
  ``table``, ``code`` (a ``<pre>``), ``prose`` (anything else).
* **Ground truth** for "the markdown holds the quote" is never the code under test: the quote
  must occur in the text of at least one *independent* rendering of the markdown:
  markdown-it-py (CommonMark + tables), Python-Markdown with its ``extra`` extensions
  (definition lists, tables, fenced code) and, when installed, pandoc's markdown reader (a
  Debian package). A quote that no renderer finds was lost by the converter: counted apart,
  never scored.
* **Variants** of each quote: ``as copied`` (the rendered page's text), ``as markdown`` (the
  same sentence as it stands in the markdown, code-span backticks and emphasis marks
  included, as a model reading the markdown copies it; only when exactly one such span
  exists), and ``altered`` (one word or number changed; kept only when a deliberately lenient
  word comparison finds it in no rendering and not in the raw markdown), which must be judged
  unsupported.

Extraction results are cached per page under ``benchmarks/.cache/conv/``.
"""

from __future__ import annotations

import glob
import hashlib
import json
import random
import re
import shutil
import subprocess
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from _common import CACHE
from _mdcorpus import _SENT, HIDDEN_MARK, convert, flexible, html_text, norm

# name -> (Debian package, folder of the HTML inside the package, base URL for realistic links)
DOCSETS = {
    "python": ("python3.11-doc", "usr/share/doc/python3.11/html", "https://docs.python.org/3.11/"),
    "django": ("python-django-doc", "usr/share/doc/python-django-doc/html", "https://docs.djangoproject.com/en/3.2/"),
    "git": ("git-doc", "usr/share/doc/git-doc", "https://git-scm.com/docs/"),
    "postgresql": ("postgresql-doc-15", "usr/share/doc/postgresql-doc-15/html", "https://www.postgresql.org/docs/15/"),
}
CONVERTERS = ("markdownify", "html2text")
CLASSES = ("dd_first", "dd_more", "list", "list_more", "list_nested", "table", "code", "prose")
SPLITS = ("dev", "holdout")
_SKIP_DIRS = ("_static", "_images", "_modules", "_sources", "genindex", "search", "py-modindex",
              "whatsnew", "releases")
EXTRACT_VERSION = 2  # bump when the extraction below changes (invalidates the cache)


def docset_root(name: str) -> Path:
    """The HTML folder of a Debian doc package, fetched into benchmarks/.cache on first use."""
    package, sub, _ = DOCSETS[name]
    target = CACHE / f"doc-{name}"
    html = target / sub
    if html.is_dir():
        return html
    CACHE.mkdir(parents=True, exist_ok=True)
    print(f"fetching {package} into {target} (apt-get download + dpkg -x) ...", flush=True)
    subprocess.run(["apt-get", "download", package], cwd=CACHE, check=True)
    debs = sorted(glob.glob(str(CACHE / f"{package}_*.deb")))
    if not debs:
        raise SystemExit(f"apt-get download {package} produced no .deb")
    subprocess.run(["dpkg", "-x", debs[-1], str(target)], check=True)
    if not html.is_dir():
        raise SystemExit(f"{debs[-1]} did not contain {sub}")
    return html


def split_of(docset: str, page: str) -> str:
    h = int(hashlib.sha1(f"{docset}/{page}".encode()).hexdigest()[:8], 16)
    return "holdout" if h % 3 == 0 else "dev"


_DD_MULTI = re.compile(r"<dd[^>]*>\s*<(?:p|div)\b(?:(?!</dd>).)*?</(?:p|div)>\s*<(?:p|ul|ol|div|pre|table|dl)\b",
                       re.DOTALL)
_LI_NESTED = re.compile(r"<li[^>]*>(?:(?!</li>).)*?<(?:ul|ol)\b", re.DOTALL)
_LI_PARAS = re.compile(r"<li[^>]*>\s*<p\b(?:(?!</li>).)*?</p>\s*<(?:p|pre|div)\b", re.DOTALL)


def constructs(html: str) -> set[str]:
    """Which converter-sensitive constructs a page holds (a cheap look at its HTML)."""
    out = set()
    if _DD_MULTI.search(html):
        out.add("dd")
    if _LI_NESTED.search(html):
        out.add("nested_list")
    if _LI_PARAS.search(html):
        out.add("list_paras")
    if "<table" in html and "<td" in html:
        out.add("table")
    return out


def pick_pages(name: str, n: int, max_kb: int = 250) -> list[str]:
    """n pages of a doc set that hold at least one construct, with a fixed stride."""
    root = docset_root(name)
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html")
                   if not any(part.startswith(_SKIP_DIRS) for part in p.relative_to(root).parts)
                   and p.stat().st_size <= max_kb * 1024)
    good = []
    for f in files:
        html = (root / f).read_text(encoding="utf-8", errors="replace")
        c = constructs(html)
        if "dd" in c or "nested_list" in c or "list_paras" in c or ("table" in c and len(c) > 1):
            good.append(f)
    stride = max(1, len(good) // n)
    return good[stride // 2 :: stride][:n]


# --- what Chromium shows ----------------------------------------------------------------------
_PAGE_JS = r"""() => {
  return {text: document.body.innerText,
          pre: Array.from(document.querySelectorAll('pre')).map(p => p.innerText)};
}"""

_CLASSIFY_JS = r"""(quotes) => {
  const BLOCK = new Set(['P','DIV','PRE','UL','OL','DL','TABLE','BLOCKQUOTE','DT','DD','LI','H1','H2','H3','H4','H5','H6']);
  const out = [];
  const sel = getSelection();
  for (const q of quotes) {
    sel.removeAllRanges();
    const r0 = document.createRange(); r0.setStart(document.body, 0); r0.collapse(true); sel.addRange(r0);
    if (!window.find(q, true, false, false, false, false, false)) { out.push(null); continue; }
    const r = sel.getRangeAt(0);
    let el = r.commonAncestorContainer; if (el.nodeType !== 1) el = el.parentElement;
    const anc = []; for (let e = el; e && e !== document.body; e = e.parentElement) anc.push(e);
    const tags = anc.map(e => e.tagName);
    // the block child of an element that holds the range
    const childOf = (parent) => { for (let e = el; e && e.parentElement; e = e.parentElement)
                                    if (e.parentElement === parent) return e; return null; };
    const isFirst = (parent) => { const c = childOf(parent); if (!c || el === parent) return true;
      for (const k of parent.children) { if (BLOCK.has(k.tagName)) return k === c; } return true; };
    let cls = 'prose';
    if (tags.includes('PRE')) cls = 'code';
    else if (tags.includes('TD') || tags.includes('TH')) cls = 'table';
    else {
      const dd = anc.find(e => e.tagName === 'DD'), li = anc.find(e => e.tagName === 'LI');
      const first = (dd && (!li || anc.indexOf(dd) < anc.indexOf(li))) ? 'dd' : (li ? 'li' : null);
      if (first === 'dd') cls = isFirst(dd) ? 'dd_first' : 'dd_more';
      else if (first === 'li') {
        const outer = anc.filter(e => e.tagName === 'LI' || e.tagName === 'DD').length;
        cls = outer >= 2 ? 'list_nested' : (isFirst(li) ? 'list' : 'list_more');
      }
    }
    out.push(cls);
  }
  sel.removeAllRanges();
  return out;
}"""


def _candidates(text: str, pre: list[str]) -> list[str]:
    flat = norm(text)
    out: list[str] = []
    for line in text.split("\n"):
        for m in _SENT.finditer(line):
            s = m.group(0).strip()
            if 20 <= len(s) <= 300 and HIDDEN_MARK not in s and flat.count(norm(s)) == 1:
                out.append(s)
    for block in pre:
        for line in block.split("\n"):
            s = line.strip()
            if (8 <= len(s) <= 160 and len(re.findall(r"[A-Za-z]{2,}", s)) >= 2 and HIDDEN_MARK not in s
                    and flat.count(norm(s)) == 1):
                out.append(s)
    return list(dict.fromkeys(out))


def rendered(browser, base: str, docset: str, page: str) -> dict:
    """innerText of the page in Chromium and a class for each candidate quote (cached)."""
    key = hashlib.sha1(f"{EXTRACT_VERSION}:{docset}/{page}".encode()).hexdigest()[:16]
    path = CACHE / "conv" / f"{docset}-{key}.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    url = base + page
    got = browser.evaluate_on(url, _PAGE_JS, timeout_ms=60000)
    cands = _candidates(got["text"], got["pre"])
    classes = browser.evaluate_on(url, _CLASSIFY_JS, cands, timeout_ms=120000) if cands else []
    data = {"text": got["text"], "quotes": [[q, c] for q, c in zip(cands, classes) if c]}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return data


# --- independent renderings of the markdown -------------------------------------------------
def oracle_texts(md: str) -> dict[str, str]:
    """The markdown's text as independent renderers show it (renderer -> text)."""
    import markdown as pymd
    from markdown_it import MarkdownIt

    out = {"commonmark": html_text(MarkdownIt("commonmark", {"html": True}).enable(["table"]).render(md))}
    out["python-markdown"] = html_text(pymd.markdown(md, extensions=["extra"]))
    if shutil.which("pandoc"):
        r = subprocess.run(["pandoc", "-f", "markdown-smart", "-t", "html"], input=md, capture_output=True, check=False,
                           text=True, timeout=120)
        if r.returncode == 0:
            out["pandoc"] = html_text(r.stdout)
    return out


def held_by(quote: str, texts: dict[str, str]) -> list[str]:
    """Renderers whose text holds the quote (whitespace runs match any whitespace run)."""
    rx = flexible(norm(quote))
    return [k for k, t in texts.items() if rx.search(t.replace("\u00a0", " "))]


_MARK = r"[`*_\\]*"


def as_markdown(quote: str, md: str) -> str | None:
    """The quote as it stands in the markdown, markup marks included (code-span backticks,
    emphasis, backslash escapes), when exactly one such span exists and holds a mark."""
    words = norm(quote).split()
    if not words:
        return None
    parts = []
    for w in words:
        parts.append(_MARK.join(re.escape(c) for c in w))
    rx = re.compile(_MARK + (_MARK + r"\s+" + _MARK).join(parts) + r"(?:[`*_]+(?![\w`*_]))?")
    ms = list(rx.finditer(md))
    if len(ms) != 1:
        return None
    s = ms[0].group(0)
    return s if re.search(r"[`*_\\]", s) and norm(s) != norm(quote) else None


def loose_words(s: str) -> list[str]:
    s = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))
    return re.findall(r"[^\W_]+", s.casefold())


def _loose_in(quote: str, hay: str) -> bool:
    w = loose_words(quote)
    return bool(w) and (" " + " ".join(w) + " ") in hay


SWAP_WORDS = ["string", "integer", "module", "thread", "socket", "buffer", "object", "method",
              "function", "process", "header", "number", "value", "error", "file", "list", "class"]


def alter(quote: str, rng: random.Random) -> str | None:
    """The quote with one number changed or one word swapped (what a source does not say)."""
    nums = list(re.finditer(r"\d+", quote))
    if nums and rng.random() < 0.5:
        m = rng.choice(nums)
        return quote[: m.start()] + str(int(m.group(0)) + rng.choice([1, 2, 10])) + quote[m.end():]
    ws = [m for m in re.finditer(r"\b[a-z]{4,}\b", quote)]
    if not ws:
        return None
    m = rng.choice(ws)
    new = rng.choice([w for w in SWAP_WORDS if w != m.group(0)])
    return quote[: m.start()] + new + quote[m.end():]


# --- the corpus -----------------------------------------------------------------------------
@dataclass
class ConvPage:
    docset: str
    page: str
    converter: str
    split: str
    md: str
    url: str  # realistic public URL (for link lengths); the browser opens the local copy
    sid: str = ""
    cases: list[dict] = field(default_factory=list)
    lost: int = 0  # quotes of the rendered page that no renderer finds in the markdown


def build(splits: tuple[str, ...], pages_per_set: int, per_class: int, seed: int,
          docsets: tuple[str, ...] = tuple(DOCSETS), converters: tuple[str, ...] = CONVERTERS,
          log=print) -> list[ConvPage]:
    """Pages (one per page and converter) with their quote cases, for the given splits."""
    from tests.support.chromium import Browser, serve_directory

    out: list[ConvPage] = []
    with Browser() as browser:
        for name in docsets:
            root = docset_root(name)
            pages = [p for p in pick_pages(name, pages_per_set) if split_of(name, p) in splits]
            with serve_directory(root) as base:
                for pg in pages:
                    data = rendered(browser, base, name, pg)
                    html = (root / pg).read_text(encoding="utf-8", errors="replace")
                    for conv in converters:
                        cp = ConvPage(name, pg, conv, split_of(name, pg), convert(html, conv),
                                      DOCSETS[name][2] + pg, sid=f"{name}:{conv}:{pg}")
                        _cases(cp, data, per_class, seed)
                        out.append(cp)
            log(f"  {name}: {len(pages)} pages ({', '.join(splits)})")
    return out


def _cases(cp: ConvPage, data: dict, per_class: int, seed: int) -> None:
    texts = oracle_texts(cp.md)
    rng = random.Random(f"{seed}:{cp.sid}")
    pools: dict[str, list[str]] = {c: [] for c in CLASSES}
    for q, cls in data["quotes"]:
        if held_by(q, texts):
            pools[cls].append(q)
        else:
            cp.lost += 1
    hay = [" " + " ".join(loose_words(t)) + " " for t in (data["text"], cp.md, *texts.values())]
    for cls in CLASSES:
        pool = pools[cls]
        for q in rng.sample(pool, min(per_class, len(pool))):
            base = {"class": cls, "original": q, "sid": cp.sid, "split": cp.split, "converter": cp.converter}
            cp.cases.append({**base, "variant": "copied", "quote": q, "expect": "verified"})
            m = as_markdown(q, cp.md)
            if m:
                cp.cases.append({**base, "variant": "markdown", "quote": m, "expect": "verified"})
            a = alter(q, rng)
            if a and a != q and not any(_loose_in(a, h) for h in hay):
                cp.cases.append({**base, "variant": "altered", "quote": a, "expect": "unsupported"})


# --- judging --------------------------------------------------------------------------------
def judge(pages: list[ConvPage]) -> list[dict]:
    """Verify every case against its page's markdown (one index per converter, as a report's
    sources) and build the link of each found quote. Returns the cases, each with ``got``,
    ``ok`` (the verdict and, for found quotes, the span are right) and the fragment."""
    from deep_research.citations.fragments import fragment_for
    from deep_research.citations.model import Source
    from deep_research.citations.verify import SourceIndex

    cases: list[dict] = []
    for conv in {p.converter for p in pages}:
        group = [p for p in pages if p.converter == conv]
        index = SourceIndex([Source(id=p.sid, url=p.url, content=p.md, format="markdown") for p in group])
        for p in group:
            for c in p.cases:
                r = index.verify(c["quote"], c["sid"])
                c["got"], c["how"] = r.status.value, r.how
                if c["expect"] == "unsupported":
                    c["ok"] = r.status.value == "unsupported"
                else:
                    page = r.reading(index.source(r.source_id)) if r.found else None
                    c["span"] = page.text[r.start:r.end] if page else None
                    c["ok"] = (r.status.value == "verified" and r.source_id == c["sid"]
                               and norm(c["span"]) == norm(c["original"]))
                    if r.found and r.source_id == c["sid"]:
                        frag = fragment_for(page, r.start, r.end)
                        c["directive"] = frag.encoded
                        c["reason"] = frag.reason
                        c["intended"] = (page.text[frag.start:frag.end] if frag.start is not None
                                         else c["span"])
                cases.append(c)
    return cases


def table(cases: list[dict], title: str, links: bool) -> dict:
    """Print per class: verdicts right per variant, and (with links) what the links highlight."""
    print(f"\n{title}")
    head = "  class          copied ok   markdown ok   altered rejected"
    if links:
        head += "   links: exact  words  plain  wrong"
    print(head)
    rows = {}
    for cls in (*CLASSES, "all"):
        ks = [c for c in cases if cls == "all" or c["class"] == cls]
        if not ks:
            continue
        row = {}
        for v in ("copied", "markdown", "altered"):
            vs = [c for c in ks if c["variant"] == v]
            row[v] = [sum(c["ok"] for c in vs), len(vs)]
        lk = [c for c in ks if c["variant"] != "altered" and c.get("link")]
        for k in ("exact", "words_only", "plain", "wrong"):
            row[k] = sum(c["link"] == k for c in lk)
        rows[cls] = row
        line = (f"  {cls:<13} {row['copied'][0]:>5}/{row['copied'][1]:<5} {row['markdown'][0]:>6}/{row['markdown'][1]:<5}"
                f" {row['altered'][0]:>8}/{row['altered'][1]:<5}")
        if links:
            line += f"          {row['exact']:>5} {row['words_only']:>6} {row['plain']:>6} {row['wrong']:>6}"
        print(line)
    return rows


def show_misses(cases: list[dict], limit: int = 60) -> None:
    bad = [c for c in cases if not c["ok"] or c.get("link") == "wrong"]
    print(f"\nMisjudged quotes and wrong links ({len(bad)}):")
    for c in bad[:limit]:
        what = "WRONG LINK" if c["ok"] else f"MISJUDGED (expected {c['expect']}, got {c['got']})"
        print(f"- {what} [{c['class']}/{c['variant']}] {c['sid']}\n    quote:    {c['quote'][:240]!r}")
        if c["variant"] != "copied":
            print(f"    original: {c['original'][:240]!r}")
        if c.get("span") is not None and norm(c["span"]) != norm(c["original"]):
            print(f"    span:     {c['span'][:240]!r}")
        if c.get("how"):
            print(f"    how:      {c['how']}")
        if c.get("directive"):
            print(f"    directive: {c['directive'][:300]}\n    got:       {(c.get('got_text') or '')[:240]!r}")
    if len(bad) > limit:
        print(f"  ... and {len(bad) - limit} more")


def prepare(args) -> tuple[tuple[str, ...], list[ConvPage], list[dict], float]:
    """The benchmarks' common start: the splits asked for, their pages, the judged cases and
    the time judging took."""
    import time

    splits = splits_arg(args)
    print(f"\n=== Converter-style pages ({', '.join(splits)}): {args.conv_pages} pages per doc set x "
          f"{' / '.join(CONVERTERS)} ===")
    pages = build(splits, args.conv_pages, args.conv_per_class, args.seed)
    t = time.perf_counter()
    cases = judge(pages)
    return splits, pages, cases, time.perf_counter() - t


def report(cases: list[dict], splits: tuple[str, ...], links: bool, target_line) -> dict:
    """Per split: the tables (all, then per converter), the target lines and the misses."""
    out: dict = {}
    for split in splits:
        sc = [c for c in cases if c["split"] == split]
        rows = table(sc, f"{split}: {len({c['sid'] for c in sc})} (page, converter) sources, {len(sc)} cases",
                     links=links)
        for conv in CONVERTERS:
            table([c for c in sc if c["converter"] == conv], f"{split}, {conv}", links=links)
        mis = sum(not c["ok"] for c in sc)
        figures = [target_line(f"{split}: quotes misjudged", f"{mis} of {len(sc)}", "0", mis == 0)]
        if links:
            wrong = sum(c.get("link") == "wrong" for c in sc)
            figures.append(target_line(f"{split}: links wrong or empty (Chromium)", f"{wrong}", "0", wrong == 0))
        out[split] = {"per_class": rows, "figures": figures}
        show_misses(sc)
    return out


def add_arguments(ap) -> None:
    ap.add_argument("--conv-pages", type=int, default=12,
                    help="converter-style part: pages per doc package (python, django, git, postgresql; 0: skip)")
    ap.add_argument("--conv-per-class", type=int, default=2, help="converter-style part: quotes per class and page")
    ap.add_argument("--conv-split", choices=("dev", "holdout", "both"), default="dev",
                    help="converter-style part: which pages (keep the holdout unseen until the end)")
    ap.add_argument("--conv-only", action="store_true", help="run only the converter-style part")


def splits_arg(args) -> tuple[str, ...]:
    return SPLITS if args.conv_split == "both" else (args.conv_split,)

"""Bad input, as a user gives it to the real CLI (a subprocess): a clear one-line message,
exit code 2 for a user error, never a traceback, and nothing already produced lost.

The table ``CASES`` lists every bad input with its outcome; the corpus, dangerous-URL and
output-path cases that need more than one command have their own tests below it.
Coverage elsewhere: tests/cli/test_publish.py (missing/empty/non-UTF-8 report, a few bad
sources files, --out that is a file, malformed refs and a javascript: URL in the HTML),
tests/cli/test_research.py (blank, 20,001-character and BEL questions, bad options),
tests/search/test_local.py (bad corpus files through the library), tests/publish/test_publisher.py
(the sanitiser, the PDF fetcher, output names).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTED = {"DEEP_RESEARCH_DEPS": "tests.support.cli_deps:deps"}
# The CLI's entry point with its argv read as JSON from stdin: for arguments the operating
# system cannot pass (longer than 128 KiB, or holding a NUL character).
VIA_STDIN = "import json, sys; from deep_research.cli import main; sys.exit(main(json.load(sys.stdin)))"
ARG_MAX_STRLEN = 128 * 1024  # Linux: the longest single argument, terminating NUL included


def run(*args, env=None, timeout=300, stdin_argv=False):
    full = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "TAVILY_API_KEY", "OPENAI_BASE_URL")}
    full["PYTHONPATH"] = str(ROOT)
    full.update(env or {})
    if stdin_argv:
        return subprocess.run([sys.executable, "-c", VIA_STDIN], input=json.dumps([str(a) for a in args]),
                              capture_output=True, text=True, cwd=ROOT, env=full, timeout=timeout)
    return subprocess.run([sys.executable, "-m", "deep_research.cli", *[a if isinstance(a, bytes) else str(a)
                                                                         for a in args]],
                          capture_output=True, text=True, cwd=ROOT, env=full, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def assert_clean(r) -> None:
    assert "Traceback" not in r.stdout + r.stderr, r.stderr
    assert "internal error" not in r.stderr, r.stderr


# --- inputs -------------------------------------------------------------------------------
GOOD_REPORT = '# Tea\n\nTea is old <ref id="1">"Hello world."</ref>.\n'
GOOD_SOURCES = [{"id": 1, "url": "https://a.example/", "title": "A", "content": "Hello world."}]


def write(path: Path, data) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def publish_args(tmp: Path, *, report=GOOD_REPORT, sources=GOOD_SOURCES, out=None, pdf=False) -> list:
    rp = write(tmp / "report.md", report)
    sp = sources(tmp) if callable(sources) else write(tmp / "sources.json", sources)
    return ["publish", rp, "--sources", sp, "--out", out if out is not None else tmp / "out",
            *([] if pdf else ["--no-pdf"])]


def research_args(tmp: Path, question="What is tea?", *, db=None, out=None) -> list:
    return ["research", question, "--search", "none", "--yes", "--no-pdf",
            "--db", db if db is not None else tmp / "state.sqlite", "--out", out if out is not None else tmp / "reports"]


def unwritable_dir(tmp: Path) -> Path:
    """A folder this process cannot write into."""
    if os.geteuid() != 0:
        d = tmp / "read-only"
        d.mkdir()
        d.chmod(0o555)
        return d
    if Path("/proc/self").is_dir():  # root may write anywhere except into such file systems
        return Path("/proc")
    pytest.skip("no unwritable folder for root on this system")


def a_file(tmp: Path) -> Path:
    return write(tmp / "a-file", "not a folder")


def symlink_loop(tmp: Path) -> Path:
    loop = tmp / "loop"
    loop.symlink_to(loop)
    return loop


@dataclass
class Case:
    name: str
    args: Callable[[Path], list]
    code: int
    stderr: list[str]
    stdin_argv: bool = False
    env: dict = field(default_factory=dict)


CASES = [
    # questions
    Case("empty question", lambda t: research_args(t, ""), 2, ["the question is empty"]),
    Case("whitespace question", lambda t: research_args(t, " \t\n\r "), 2, ["the question is empty"]),
    Case("invisible-only question", lambda t: research_args(t, "\u00a0\u3000\u200b\u2060"), 2,
         ["the question is empty"]),
    Case("longest question argv allows (128 KiB)", lambda t: research_args(t, "x" * (ARG_MAX_STRLEN - 1)), 2,
         ["131,071 characters long; the limit is 20,000"]),
    Case("1 MB question", lambda t: research_args(t, "why " * 250_000), 2,
         ["the question is 999,999 characters long; the limit is 20,000"], stdin_argv=True),
    Case("1 MB multibyte question", lambda t: research_args(t, "茶" * 350_000), 2,
         ["350,000 characters long"], stdin_argv=True),
    Case("question with ESC (terminal escape)", lambda t: research_args(t, "tea \x1b[31mred\x1b[0m?"), 2,
         ["the question contains control characters (0x1b)"]),
    Case("question with NUL", lambda t: research_args(t, "tea\x00?"), 2,
         ["the question contains control characters (0x0)"], stdin_argv=True),
    Case("question with DEL and C1", lambda t: research_args(t, "tea\x7f\x85?"), 2,
         ["control characters (0x7f, 0x85)"]),
    Case("question not UTF-8", lambda t: research_args(t, b"caf\xe9?"), 2, ["the question is not valid UTF-8"]),
    # resume --reject FEEDBACK: refused as a question is (the graph asked again without saying why)
    Case("--reject feedback with ESC", lambda t: ["resume", "t1", "--reject", "narrower \x1b[2J", "--db",
                                                   t / "state.sqlite"], 2,
         ["--reject: the feedback contains control characters (0x1b)"]),
    Case("--reject feedback of 1 MB", lambda t: ["resume", "t1", "--reject", "why " * 250_000, "--db",
                                                  t / "state.sqlite"], 2,
         ["--reject: the feedback is 999,999 characters long; the limit is 20,000"], stdin_argv=True),
    Case("--reject feedback blank", lambda t: ["resume", "t1", "--reject", " \t", "--db", t / "state.sqlite"], 2,
         ["--reject: the feedback is empty"]),
    # pages to research (--url): each is checked as the HTTP client would parse it (issue 19)
    *[Case(f"--url {url!r}", lambda t, url=url: [*research_args(t), "--url", url], 2, [url.replace("\t", "\\t"),
                                                                                       message])
      for url, message in [("http://0177.0.0.1/", "Invalid IPv4 address"),
                           ("http://exa\tmple.com/", "non-printable ASCII character"),
                           ("http://a..b/", "the host name has an empty or over-long part"),
                           ("http://xn--/", "not a valid URL"), ("ftp://x.example/", "only http:// and https://")]],
    # sources files
    Case("sources: not JSON", lambda t: publish_args(t, sources="{not json"), 2, ["is not valid JSON"]),
    Case("sources: empty file", lambda t: publish_args(t, sources=""), 2, ["is not valid JSON: Expecting value"]),
    Case("sources: NaN content", lambda t: publish_args(t, sources='[{"id":1,"url":"https://a/","content":NaN}]'),
         2, ['needs a "content" string']),
    Case("sources: nested 100,000 deep", lambda t: publish_args(t, sources="[" * 100_000 + "]" * 100_000), 2,
         ["nested too deeply"]),
    Case("sources: a number of 5,000 digits", lambda t: publish_args(t, sources='[{"id":1' + "0" * 5000 + "}]"), 2,
         ["its JSON holds a number too long to read"]),
    Case("sources: not UTF-8", lambda t: publish_args(t, sources=b'[{"id":1,"url":"u","content":"caf\xe9"}]'),
         2, ["is not UTF-8 text"]),
    Case("sources: a folder", lambda t: publish_args(t, sources=lambda t: (t / "dir").mkdir() or t / "dir"), 2,
         ["is a folder, not a file"]),
    Case("sources: missing", lambda t: publish_args(t, sources=lambda t: t / "nope.json"), 2, ["does not exist"]),
    Case("sources: item not an object", lambda t: publish_args(t, sources=[1, 2]), 2, ["item 1 is not an object"]),
    Case("sources: float id", lambda t: publish_args(t, sources=[{"id": 1.5, "url": "u", "content": "c"}]), 2,
         ['needs an "id"']),
    Case("sources: url not a string",
         lambda t: publish_args(t, sources=[{"id": 1, "url": ["https://a/"], "content": "c"}]), 2, ['"url" string']),
    Case("duplicate ids 1 and '1'", lambda t: publish_args(t, sources=[
        {"id": 1, "url": "https://a/", "content": "Hello world."}, {"id": "1", "url": "https://b/", "content": "x"}]),
         2, ["duplicate source id '1' (items 1 and 2)"]),
    Case("duplicate ids 'a' and ' a '", lambda t: publish_args(t, report='x <ref id="a">"Hello world."</ref>', sources=[
        {"id": "a", "url": "https://a/", "content": "Hello world."}, {"id": " a ", "url": "https://b/", "content": "x"}]),
         2, ["duplicate source id 'a'"]),
    Case("report cites an unknown id", lambda t: publish_args(t, report='x <ref id="9">"Hello world."</ref>'), 2,
         ["cites source ids that are not in", "'9'"]),
    # report and sources that are odd but usable: warnings, exit 0
    Case("malformed <ref> tags", lambda t: publish_args(t, report=(
        'a <ref id=1>"Hello world."</ref> b <ref id="1">"Hello world."\n'
        'c </ref> d <ref>"Hello world."</ref> e <ref id="">"x"</ref> f <ref id="1">""</ref>\n')), 0,
         ["quote marks are not closed", "closing </ref> without an opening tag", "without an id attribute",
          "with an empty id", "has no quote"]),
    Case("source with empty content", lambda t: publish_args(t, sources=[
        {"id": 1, "url": "https://a.example/", "content": "  \n "}]), 0,
         ["source '1' has empty content", "quote not found in the source"]),
    Case("markup-like text in a quote", lambda t: publish_args(t, report='x <ref id="1">"Hello [/red] world."</ref>'),
         0, ["quote not found in the source: \u201cHello [/red] world.\u201d"]),
    Case("markup-like report path", lambda t: ["publish", t / "r[/x].md", "--sources", write(t / "s.json", GOOD_SOURCES),
                                               "--out", t / "out"], 2, ["r[/x].md does not exist"]),
    # output paths
    Case("publish --out is a file", lambda t: publish_args(t, out=a_file(t)), 2, ["exists and is not a directory"]),
    Case("publish --out under a file", lambda t: publish_args(t, out=a_file(t) / "out"), 2,
         ["cannot create output directory", "Not a directory"]),
    Case("publish --out unwritable", lambda t: publish_args(t, out=unwritable_dir(t)), 2, ["is not writable"]),
    Case("publish --out symlink loop", lambda t: publish_args(t, out=symlink_loop(t)), 2,
         ["cannot be resolved", "Symlink loop"]),
    Case("research --out is a file", lambda t: research_args(t, out=a_file(t)), 2, ["exists and is not a directory"]),
    Case("research --out unwritable", lambda t: research_args(t, out=unwritable_dir(t)), 2, ["is not writable"]),
    Case("research --out symlink loop", lambda t: research_args(t, out=symlink_loop(t)), 2, ["cannot be resolved"]),
    # the state database
    Case("--db is a folder", lambda t: research_args(t, db=t), 2, ["is a folder; give a file path"]),
    Case("--db under a file", lambda t: research_args(t, db=a_file(t) / "state.sqlite"), 2, ["is not a folder"]),
    Case("--db is not SQLite", lambda t: research_args(t, db=write(t / "notes.txt", "my notes " * 100)), 2,
         ["cannot be used: file is not a database"]),
    Case("--db in an unwritable folder", lambda t: research_args(t, db=unwritable_dir(t) / "state.sqlite"), 2,
         ["cannot be used"]),
    Case("resume --db is not SQLite", lambda t: ["resume", "abc", "--db", write(t / "n.txt", "x" * 200)], 2,
         ["file is not a database"]),
    Case("eval run --db is a SQLite path", lambda t: [
        "eval", "run", write(t / "q.jsonl", '{"id": "tea", "question": "What is tea?"}\n'), "--out", t / "ev",
        "--db", "my-state.sqlite"], 2, ["--db: 'my-state.sqlite' is not a PostgreSQL URL"]),
    # index
    Case("index: not a folder", lambda t: ["index", a_file(t)], 2, ["is not a folder"]),
    Case("index: relative --base-url", lambda t: ["index", t, "--base-url", "docs/"], 2, ["is not an absolute URL"]),
    # a base URL every local source links under: javascript://x/ or a space made links no reader can open
    Case("index: javascript: --base-url", lambda t: ["index", t, "--base-url", "javascript://x/"], 2,
         ["base URL 'javascript://x/' is not an http, https or file URL"]),
    Case("index: --base-url with a space", lambda t: ["index", t, "--base-url", "http://a b/"], 2,
         ["base URL 'http://a b/' holds a space"]),
    Case("index: --base-url with an unclosed [", lambda t: ["index", t, "--base-url", "http://[::1/"], 2,
         ["base URL 'http://[::1/' is not a valid URL"]),
    # each document's link is the base URL and its path: in a query or after a "#" that path
    # made links to one page ("/docs?v=1/a.html", "/docs#top/a.html#:~:text=...")
    Case("index: --base-url with a query", lambda t: ["index", t, "--base-url", "https://d.example/docs?v=1"], 2,
         ["base URL 'https://d.example/docs?v=1' has a query (?...) or a fragment (#...)"]),
    Case("index: --base-url with a fragment", lambda t: ["index", t, "--base-url", "https://d.example/docs/#top"], 2,
         ["base URL 'https://d.example/docs/#top' has a query (?...) or a fragment (#...)"]),
    # a password in a URL the user typed is not repeated in the message
    Case("--base-url with a password", lambda t: [*research_args(t), "--base-url", "ftp://alice:PWSECRET123@h/v1"], 2,
         ["--base-url: 'ftp://alice:***@h/v1' is not an http:// or https:// URL"]),
    # a corpus's base URL is in every link of a report: a password in it would reach every reader
    Case("index: --base-url with a password", lambda t: ["index", t, "--base-url", "https://alice:PWSECRET123@d.example/"],
         2, ["base URL 'https://alice:***@d.example/' holds a user name, password or secret query parameter"]),
    # ... and so would a secret in its query (or fragment), kept as typed before
    Case("index: --base-url with a token in its query",
         lambda t: ["index", t, "--base-url", "https://d.example/docs/?lang=en&Access_Token=TOKSECRET123"], 2,
         ["base URL 'https://d.example/docs/?lang=en&Access_Token=***' holds a user name, password or secret query"]),
    # a secret in the query of a URL typed is not repeated in the error line
    Case("--base-url with a key in its query", lambda t: [*research_args(t), "--base-url", "ftp://h/v1?api_key=KSECRET99"],
         2, ["--base-url: 'ftp://h/v1?api_key=***' is not an http:// or https:// URL"]),
    Case("a folder named like a key", lambda t: ["index", write(t / "key_documents_2024", "a file")], 2,
         ["key_documents_2024 is not a folder"]),
    Case("--corpus-base-url javascript:", lambda t: [
        "research", "What is tea?", "--corpus", write(t / "docs" / "tea.md", "# Tea\n\nTea is a drink.\n").parent,
        "--corpus-base-url", "javascript://x/", "--yes", "--no-pdf", "--db", t / "s.sqlite", "--out", t / "r"], 2,
         ["--corpus-base-url = javascript://x/: base URL 'javascript://x/' is not an http, https or file URL"]),
    Case("index: --index is not SQLite", lambda t: ["index", t, "--index", write(t / "i.txt", "x" * 200)], 2,
         ["cannot write the index", "file is not a database"]),
    Case("index: --index under a file", lambda t: ["index", t, "--index", a_file(t) / "index.sqlite"], 2,
         ["cannot write the index"]),
    # a cap's variable misspelt in the environment set no cap, and nothing said so
    Case("a setting's variable misspelt", lambda t: [*research_args(t)[:2], "--search", "tavily", *research_args(t)[4:]],
         2, ["warning: DEEP_RESEARCH_MAX_TOTAL_TOKEN is not a setting and is ignored; did you mean "
             "DEEP_RESEARCH_MAX_TOTAL_TOKENS?", "TAVILY_API_KEY"], env={"DEEP_RESEARCH_MAX_TOTAL_TOKEN": "5000"}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input(tmp_path, case: Case):
    work = tmp_path / "work"
    work.mkdir()
    r = run(*case.args(work), env={**SCRIPTED, **case.env}, stdin_argv=case.stdin_argv)
    assert r.returncode == case.code, (r.stdout, r.stderr[-2000:])
    assert_clean(r)
    for text in case.stderr:
        assert text in r.stderr, r.stderr[-2000:]
    if case.code == 2:
        errors = [ln for ln in r.stderr.splitlines() if ln.startswith("error:")]
        assert len(errors) == 1, r.stderr  # one clear line
        assert "Thread " not in r.stdout  # a research run never started


# --- a corpus folder with bad files -------------------------------------------------------
def test_index_skips_bad_files_with_warnings_and_keeps_the_good_one(tmp_path):
    from deep_research.search.local import DEFAULT_MAX_FILE_BYTES, LocalCorpus

    folder = tmp_path / "corpus"
    write(folder / "good.md", "# Zebras\n\nZebras migrate across the Serengeti every year.\n")
    write(folder / "photo.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))  # binary, renamed
    write(folder / "latin1.txt", "Un caf\u00e9 tr\u00e8s cher.".encode("latin-1"))
    with open(folder / "huge.md", "wb") as f:  # sparse: bigger than the limit, costs no disk
        f.truncate(DEFAULT_MAX_FILE_BYTES + 1)
    write(folder / "broken.pdf", b"%PDF-1.4\n1 0 obj << /Type /Catalog >>\ngarbage")

    r = run("index", folder)
    assert r.returncode == 0, r.stderr
    assert_clean(r)
    assert "skipped photo.txt: binary content" in r.stderr
    assert "skipped latin1.txt: not valid UTF-8" in r.stderr
    assert f"skipped huge.md: too large ({DEFAULT_MAX_FILE_BYTES + 1:,} bytes" in r.stderr
    assert "skipped broken.pdf: unreadable PDF" in r.stderr
    assert all(ln.startswith("warning: skipped ") for ln in r.stderr.splitlines() if ln.strip()), r.stderr
    index = folder / ".deep-research" / "index.sqlite"
    assert f"Indexed 1 document in {folder}: 1 new, 0 updated, 0 unchanged." in r.stdout
    assert "Skipped 4 files" in r.stdout
    assert f"The index holds 1 document: {index}" in r.stdout

    hits = LocalCorpus.open(folder).search_sync("zebras migrate")
    assert [h.url for h in hits] == [(folder / "good.md").as_uri()]

    r = run("index", folder)  # again: unchanged, the bad files still named
    assert r.returncode == 0 and "0 new, 0 updated, 1 unchanged" in r.stdout
    assert r.stderr.count("warning: skipped") == 4


# --- file names with terminal escape sequences -------------------------------------------
EVIL_NAME = "evil\x1b[31mred\x1b]0;pwned\x07\nline\u202eexe.txt"  # colour, window title, bell, newline, RTL
EVIL_SHOWN = "evil\\x1b[31mred\\x1b]0;pwned\\x07\\nline\\u202eexe.txt"


def assert_no_control_characters(text: str) -> None:
    bad = sorted({hex(ord(c)) for c in text if (ord(c) < 32 and c not in "\n") or 0x7f <= ord(c) < 0xa0
                  or c == "\u202e"})
    assert not bad, (bad, text)


def test_file_names_with_escape_sequences_are_printed_escaped(tmp_path):
    """A corpus file name holding ANSI/OSC sequences, a bell, a newline and a right-to-left
    override reaches the terminal escaped: in the index warnings and summary (here also the
    folder's own name), and in the warnings of a research run that indexes the folder."""
    folder = tmp_path / "corp\x1b[2Jus"
    write(folder / "good.md", "# Zebras\n\nZebras migrate across the Serengeti every year.\n")
    write(folder / EVIL_NAME, "")  # empty: skipped, so its name is printed
    (folder / ("link\x1b[5m.txt")).symlink_to(tmp_path / "elsewhere.txt")
    write(tmp_path / "elsewhere.txt", "Text outside the corpus.\n")
    r = run("index", folder)
    assert r.returncode == 0, r.stderr
    assert_clean(r)
    assert_no_control_characters(r.stdout + r.stderr)
    assert f"warning: skipped {EVIL_SHOWN}: empty file" in r.stderr
    assert "warning: skipped link\\x1b[5m.txt: a link to a file outside the corpus folder; not indexed" in r.stderr
    assert "Indexed 1 document in " in r.stdout and "corp\\x1b[2Jus" in r.stdout

    r = run("research", "How far do zebras migrate?", "--corpus", folder, "--yes", "--no-pdf",
            "--db", tmp_path / "state.sqlite", "--out", tmp_path / "reports", env=SCRIPTED)
    assert_clean(r)
    assert_no_control_characters(r.stdout + r.stderr)
    assert EVIL_SHOWN in r.stderr  # the research run's warning about the skipped file


def test_printable_escapes_what_a_terminal_would_obey():
    from deep_research.terminal import printable

    assert printable("plain café/日本.txt") == "plain café/日本.txt"
    assert printable("a\x1b[2Jb\x9bc\x7f") == "a\\x1b[2Jb\\x9bc\\x7f"
    assert printable("new\nline\ttab\r") == "new\\nline\\ttab\\r"
    assert printable("rtl\u202eevil\u2028sep\u200b") == "rtl\\u202eevil\\u2028sep\\u200b"
    assert printable(os.fsdecode(b"not-utf8-\xff.txt")) == "not-utf8-\\xff.txt"  # the byte, not a crash
    assert printable("brief\n\tpoint\x1b[0m", keep_newlines=True) == "brief\n\tpoint\\x1b[0m"


# --- javascript: and data: URLs are never links ------------------------------------------
HOSTILE_REPORT = """# Hostile links

Good <ref id="js">"Hello world."</ref> and <ref id="data">"Second page."</ref>.

Inline [a](javascript:alert(1)), [b](JaVaScRiPt:alert(2)), [c](&#106;avascript:alert(3)), [d](<javascript:alert(4)>),
[e](data:text/html;base64,PHNjcmlwdD5hbGVydCg1KTwvc2NyaXB0Pg==), ![f](data:image/svg+xml,x), [g](vbscript:msgbox(7)),
[h][bad], <javascript:alert(9)>, <a href="javascript:alert(10)">i</a>, <a href=' data:text/html,x'>j</a>
and a good one [ok](https://ok.example/page).

[bad]: javascript:alert(8)
"""
HOSTILE_SOURCES = [
    {"id": "js", "url": "javascript:alert(11)", "title": "JS [t](javascript:alert(12))", "content": "Hello world."},
    {"id": "data", "url": "data:text/html,<script>alert(13)</script>", "title": "Data", "content": "Second page."},
]
LINK_SCHEMES = ("http://", "https://", "file://", "mailto:")


def test_dangerous_urls_are_never_rendered_as_links(tmp_path):
    import markdown as md_lib
    from pypdf import PdfReader

    out = tmp_path / "out"
    r = run(*publish_args(tmp_path, report=HOSTILE_REPORT, sources=HOSTILE_SOURCES, out=out, pdf=True))
    assert r.returncode == 0, r.stderr
    assert_clean(r)
    assert "source 'js' has a URL that will not be linked" in r.stderr
    assert "source 'data' has a URL that will not be linked" in r.stderr

    def hrefs(html: str) -> list[str]:
        from lxml import html as lxml_html

        doc = lxml_html.fromstring(html)
        return [v for el in doc.iter() for k, v in el.attrib.items() if k in ("href", "src", "action", "data")]

    # report.html: every href is http(s) or an in-page anchor
    html_links = hrefs((out / "report.html").read_text())
    assert "https://ok.example/page" in html_links
    assert all(h.startswith(LINK_SCHEMES + ("#",)) for h in html_links), html_links

    # report.linked.md: rendered by markdown renderers that allow raw HTML and check no URL
    # (Python-Markdown; CommonMark by markdown-it), still no bad link
    from markdown_it import MarkdownIt

    linked = (out / "report.linked.md").read_text()
    commonmark = MarkdownIt("commonmark", {"html": True})
    commonmark.validateLink = lambda url: True
    for rendered in (md_lib.markdown(linked), commonmark.render(linked)):
        md_links = hrefs(f"<div>{rendered}</div>")
        assert "https://ok.example/page" in md_links
        assert all(h.startswith(LINK_SCHEMES) for h in md_links), md_links
        assert "<script>" not in rendered
    assert "alert(11)" in linked and "alert(13)" in linked  # shown as text in Sources

    # report.pdf: link annotations only to http(s)/file, no JavaScript actions
    uris, scripts = [], []
    for page in PdfReader(str(out / "report.pdf")).pages:
        for annot in page.get("/Annots") or []:
            action = annot.get_object().get("/A") or {}
            if action.get("/URI"):
                uris.append(str(action["/URI"]))
            if action.get("/S") in ("/JavaScript", "/Launch"):
                scripts.append(action)
    assert "https://ok.example/page" in uris
    assert all(u.startswith(LINK_SCHEMES) for u in uris), uris
    assert not scripts

    cites = json.loads((out / "citations.json").read_text())
    assert [c["url"] for c in cites] == [None, None]  # verified, but nothing to link to


# --- output paths outside the output directory -------------------------------------------
def test_an_output_file_symlinked_outside_out_is_refused_and_nothing_is_lost(tmp_path):
    """Output file names are fixed (publish/__init__.FILES) and resolved inside --out
    (publish/files.inside): a symlink planted in --out cannot redirect a write elsewhere."""
    out = tmp_path / "out"
    args = publish_args(tmp_path, out=out)
    r = run(*args)
    assert r.returncode == 0, r.stderr
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    victim = write(tmp_path / "elsewhere" / "keep.txt", "precious")
    (out / "citations.json").unlink()
    (out / "citations.json").symlink_to(victim)

    r = run(*args)
    assert r.returncode == 2
    assert_clean(r)
    assert "output path 'citations.json' would be outside the output directory" in r.stderr
    assert victim.read_text() == "precious"
    for name, data in before.items():  # the earlier outputs are untouched
        if name != "citations.json":
            assert (out / name).read_bytes() == data, name


def test_out_through_a_symlink_writes_into_its_target(tmp_path):
    """--out is the user's own choice of folder: a symlink to a folder is followed, as any
    Unix tool does, and the summary names the real folder."""
    target = tmp_path / "real"
    target.mkdir()
    link = tmp_path / "link"
    link.symlink_to(target)
    r = run(*publish_args(tmp_path, out=link))
    assert r.returncode == 0, r.stderr
    assert (target / "report.html").is_file()
    assert f"files to {target.resolve()}:" in r.stdout


def test_a_question_cannot_name_a_folder_outside_out(tmp_path):
    """The run folder's name comes from the question (research/common.run_dir): made safe
    by safe_name and kept inside --out by inside()."""
    out = tmp_path / "deep" / "reports"
    r = run(*research_args(tmp_path / "deep", "../../../../escaped/../x?", out=out), env=SCRIPTED)
    assert r.returncode == 0, r.stdout + r.stderr
    assert_clean(r)
    (folder,) = [p.parent for p in out.rglob("report.md")]
    assert folder.parent == out
    assert [p.name for p in tmp_path.iterdir()] == ["deep"]
    assert not (tmp_path / "escaped").exists() and not (ROOT / "escaped").exists()


def test_windows_line_ends_in_a_question_are_not_control_characters():
    from deep_research.cli import _validate_question

    assert _validate_question("How do heat pumps work?\r\nAnd what do they cost?\r\n") == \
        "How do heat pumps work?\nAnd what do they cost?"


def test_bidi_controls_are_removed_from_a_question_as_from_a_chat_message():
    """A question typed at the CLI loses its bidirectional embeddings, overrides and
    isolates before anything reads or shows it, as a chat message does (one function,
    terminal.without_bidi_controls); right-to-left letters and marks stay. A question of
    nothing else is empty."""
    import pytest

    from deep_research.cli import _validate_question
    from deep_research.errors import UserError

    asked = "Is \u202ereport.exe\u202c safe? \u2067\u05e9\u05dc\u05d5\u05dd\u2069 \u200f\u202a\u202b\u202d\u2066\u2068x"
    assert _validate_question(asked) == "Is report.exe safe? \u05e9\u05dc\u05d5\u05dd \u200fx"
    with pytest.raises(UserError, match="the question is empty"):
        _validate_question(" \u202e\u2066 ")

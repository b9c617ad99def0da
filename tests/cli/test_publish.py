"""The publish command as a user runs it: outputs, summary, and bad input -> exit 2."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "deep_research.cli", *map(str, args)],
        capture_output=True, text=True, cwd=cwd or ROOT, timeout=120,
    )


def test_publish_example_offline(tmp_path):
    r = run("publish", "examples/report.md", "--sources", "examples/sources.json", "--out", tmp_path)
    assert r.returncode == 0, r.stderr
    for name in ("report.md", "report.linked.md", "report.html", "report.pdf", "citations.json"):
        assert (tmp_path / name).is_file()
    assert "verified" in r.stdout and "unsupported" in r.stdout
    assert "quote not found in the source" in r.stderr  # the deliberately altered quote
    cites = json.loads((tmp_path / "citations.json").read_text())
    assert len(cites) == 19
    # the altered citation is counted once: its quote is not found; no claim differs
    assert re.search(r"claims that differ from their source\W+0\b", r.stdout), r.stdout
    assert re.search(r"claims whose quote is not in the source\W+1\b", r.stdout), r.stdout


def test_no_pdf(tmp_path):
    r = run("publish", "examples/report.md", "-s", "examples/sources.json", "-o", tmp_path, "--no-pdf")
    assert r.returncode == 0, r.stderr
    assert not (tmp_path / "report.pdf").exists()


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


GOOD_SOURCES = json.dumps([{"id": 1, "url": "https://a.example/", "title": "A", "content": "Hello world."}])


@pytest.mark.parametrize(
    "report, sources, message",
    [
        (None, GOOD_SOURCES, "does not exist"),
        ("   \n", GOOD_SOURCES, "is empty"),
        ('x <ref id="1">"Hello world."</ref>', "{not json", "not valid JSON"),
        ('x <ref id="1">"Hello world."</ref>', '{"id": 1}', "expected a JSON list"),
        ('x <ref id="2">"Hello world."</ref>', GOOD_SOURCES, "'2'"),
        ('x <ref id="1">"Hello world."</ref>', json.dumps([{"id": 1, "url": "u", "content": "a"},
                                                          {"id": "1", "url": "v", "content": "b"}]),
         "duplicate source id"),
        ('x <ref id="1">"Hello world."</ref>', json.dumps([{"id": 1, "url": "u"}]), "content"),
        ('x <ref id="1">"Hello world."</ref>', json.dumps([{"url": "u", "content": "c"}]), "id"),
    ],
)
def test_bad_input_is_a_clear_error_with_exit_2(tmp_path, report, sources, message):
    rp = tmp_path / "missing.md" if report is None else _write(tmp_path, "r.md", report)
    sp = _write(tmp_path, "s.json", sources)
    r = run("publish", rp, "--sources", sp, "--out", tmp_path / "out")
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert message in r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def test_non_utf8_report_and_missing_option(tmp_path):
    rp = tmp_path / "r.md"
    rp.write_bytes(b"\xff\xfe\x00bad")
    sp = _write(tmp_path, "s.json", GOOD_SOURCES)
    r = run("publish", rp, "--sources", sp, "--out", tmp_path / "o")
    assert r.returncode == 2 and "not UTF-8" in r.stderr
    r = run("publish", rp)
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_out_path_that_is_a_file(tmp_path):
    rp = _write(tmp_path, "r.md", 'x <ref id="1">"Hello world."</ref>')
    sp = _write(tmp_path, "s.json", GOOD_SOURCES)
    f = _write(tmp_path, "file", "x")
    r = run("publish", rp, "--sources", sp, "--out", f)
    assert r.returncode == 2 and "not a directory" in r.stderr


def test_malformed_refs_and_unsafe_urls_are_reported_not_fatal(tmp_path):
    rp = _write(tmp_path, "r.md", 'ok <ref id="1">"Hello world."</ref> bad <ref id="1">"open quote</ref> '
                                   '[x](javascript:alert(1))')
    sp = _write(tmp_path, "s.json", json.dumps(
        [{"id": 1, "url": "javascript:alert(1)", "title": "A", "content": "Hello world."}]))
    r = run("publish", rp, "--sources", sp, "--out", tmp_path / "o", "--no-pdf")
    assert r.returncode == 0, r.stderr
    assert "quote marks are not closed" in r.stderr
    assert "will not be linked" in r.stderr
    html = (tmp_path / "o" / "report.html").read_text()
    assert 'href="javascript:' not in html  # shown as text at most, never as a link
    cites = json.loads((tmp_path / "o" / "citations.json").read_text())
    assert cites[0]["status"] == "verified" and cites[0]["url"] is None


def test_summary_counts_uncited_statements_and_flags(tmp_path):
    sources = json.dumps([{"id": "a", "url": "https://a.example/", "title": "A",
                           "content": "Python was created by Guido van Rossum at CWI."}])
    report = ('# History\n\nPython was created by James Gosling at CWI '
              '<ref id="a">"Python was created by Guido van Rossum at CWI."</ref>.\n\n'
              "Sweden installed 1.2 million heat pumps by 2020.\n")
    r = run("publish", _write(tmp_path, "r.md", report), "-s", _write(tmp_path, "s.json", sources),
            "-o", tmp_path / "out", "--no-pdf")
    assert r.returncode == 0, r.stderr
    assert re.search(r"factual statements without a citation\W+1\b", r.stdout), r.stdout
    assert re.search(r"names not in the cited sources\W+1\b", r.stdout), r.stdout
    assert "\u201cJames Gosling\u201d" in r.stderr or '"James Gosling" is on none of the cited pages' in r.stderr
    audit = json.loads((tmp_path / "out" / "audit.json").read_text())
    assert audit["summary"]["uncited_statements"] == 1 and audit["invented_names"][0]["value"] == "James Gosling"


def test_a_quote_with_stars_from_a_sources_file_without_format_is_shown_literally(tmp_path):
    """Plain page text that uses ``**`` the way technical text does (a glob, **kwargs, a
    power) is not markdown: its quotes keep their stars in every output, and the link
    highlights the sentence as the page has it. A declared format is read as declared."""
    from docx import Document as Word
    from pypdf import PdfReader

    page = ("The pattern **/*.py matches every Python file in every folder.\n"
            "Use *args and **kwargs to pass arguments on.\n"
            "The value of 2**10 is 1024.\n")
    quotes = ["The pattern **/*.py matches every Python file in every folder.",
              "Use *args and **kwargs to pass arguments on.", "The value of 2**10 is 1024."]
    sources = [{"id": "a", "url": "https://a.example/", "title": "A", "content": page},
               {"id": "m", "url": "https://m.example/", "title": "M", "content": page, "format": "markdown"}]
    report = "# Stars\n\n" + "".join(f'Fact {i} <ref id="a">"{q}"</ref>.\n\n' for i, q in enumerate(quotes))
    report += f'Globs <ref id="m">"{quotes[0]}"</ref>.\n'
    out = tmp_path / "out"
    r = run("publish", _write(tmp_path, "r.md", report), "-s", _write(tmp_path, "s.json", json.dumps(sources)),
            "-o", out, "--docx")
    assert r.returncode == 0, r.stderr
    cites = json.loads((out / "citations.json").read_text())
    assert [c["status"] for c in cites[:3]] == ["verified"] * 3
    assert [c["matched_text"] for c in cites[:3]] == quotes
    from urllib.parse import unquote
    for c, q in zip(cites[:3], quotes):  # the link's terms are the page's words, stars kept
        assert all(unquote(term) in q for term in c["fragment"].removeprefix("text=").split(",")), c["url"]
    shown = {"md": (out / "report.md").read_text(), "html": (out / "report.html").read_text(),
             "docx": "\n".join(p.text for p in Word(str(out / "report.docx")).paragraphs),
             "pdf": " ".join(" ".join((p.extract_text() or "").split()) for p in PdfReader(out / "report.pdf").pages)}
    for kind, text in shown.items():
        for q in quotes:
            assert q in text, (kind, q)
    # the source declared markdown keeps its reading: "**/*.py … **kwargs" is emphasis there
    assert cites[3]["source_id"] == "m" and cites[3]["matched_text"] != quotes[0], cites[3]


def test_report_and_sources_from_process_substitution(tmp_path):
    """`publish <(cat report.md) --sources <(cat sources.json)`: a pipe the shell made was
    refused as "not a file"; it is read (with the same byte bound as a file)."""
    import shlex

    cli = f"{shlex.quote(sys.executable)} -m deep_research.cli"
    command = (f"{cli} publish <(cat examples/report.md) --sources <(cat examples/sources.json) "
               f"--out {shlex.quote(str(tmp_path))} --no-pdf")
    r = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert len(json.loads((tmp_path / "citations.json").read_text())) == 19
    assert "not a file" not in r.stderr


def test_many_failed_citations_name_the_first_ones_and_count_the_rest(tmp_path):
    """A model answer with thousands of failed citations printed one warning line each (a
    20,000-citation report: 20,000 lines). The first ones are named, the rest counted, and
    every one is in citations.json."""
    sources = json.dumps([{"id": "a", "url": "https://a.example/", "title": "A",
                           "content": "The sky is blue on clear days."}])
    body = "\n\n".join(f'Day {i} is blue <ref id="a">"The sky is blue on clear days."</ref>.' if i % 2 else
                       f'Night {i} <ref id="a">"The sky is green at night {i}."</ref>.' for i in range(1, 301))
    r = run("publish", _write(tmp_path, "r.md", "# Sky\n\n" + body), "-s", _write(tmp_path, "s.json", sources),
            "-o", tmp_path / "out", "--no-pdf")
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) <= 30, len(lines)
    assert "quote not found in the source" in r.stderr and "claim differs from its source" in r.stderr
    assert re.search(r"\b2\d\d more citation\(s\) failed their check\b.*citations\.json", r.stderr), r.stderr
    cites = json.loads((tmp_path / "out" / "citations.json").read_text())
    assert sum(c["claim_status"] == "unsupported" for c in cites) == 300


def test_too_short_quote_is_not_verified_and_the_terminal_says_why(tmp_path):
    """A one-letter quote found on the page proves nothing: unsupported in citations.json,
    its claim not supported, the reason in the terminal; the report marks it unverified."""
    sources = json.dumps([{"id": "a", "url": "https://a.example/", "title": "A", "format": "text",
                           "content": "The sky is blue on clear days, y x) and more."}])
    body = ('Days are blue <ref id="a">"The sky is blue on clear days"</ref>.\n\n'
            'Why <ref id="a">"y"</ref>.\n\nA link <ref id="a">"[x](javascript:alert(6))"</ref>.\n')
    out = tmp_path / "out"
    r = run("publish", _write(tmp_path, "r.md", "# Sky\n\n" + body), "-s", _write(tmp_path, "s.json", sources),
            "-o", out, "--no-pdf")
    assert r.returncode == 0, r.stderr
    cites = json.loads((out / "citations.json").read_text())
    cites = cites["citations"] if isinstance(cites, dict) else cites
    assert [c["status"] for c in cites] == ["verified", "unsupported", "unsupported"]
    assert all(c["claim_status"] != "supported" for c in cites[1:])
    assert r.stderr.count("the quote is too short to identify a passage") == 2
    assert "(unverified quote)" in (out / "report.linked.md").read_text()


def test_a_report_a_publish_wrote_with_an_unknown_id_publishes_again(tmp_path):
    """A run's report.md keeps a model's ref to a source it never read, marked not found: the
    run folder re-publishes (README), the ref still not found; an unmarked unknown id stays
    a usage error (a typo)."""
    report = tmp_path / "report.md"
    report.write_text('# R\n\nTea grows <ref id="tea">"Tea grows in the hills."</ref>. '
                      'Coffee too <ref id="s-404">"Coffee grows in the hills."</ref>.\n')
    sources = tmp_path / "sources.json"
    sources.write_text(json.dumps([{"id": "tea", "url": "https://example.org/tea",
                                    "content": "Tea grows in the hills."}]))
    first = tmp_path / "first"
    from deep_research.citations.model import Source
    from deep_research.publish import publish_report

    publish_report(report.read_text(), [Source("tea", "https://example.org/tea", "Tea grows in the hills.", "Tea")],
                   first, pdf=False)  # as a run publishes: its check of the unknown id is in report.md
    assert 'check="quote-not-found"' in (first / "report.md").read_text()
    r = run("publish", first / "report.md", "--sources", sources, "--out", tmp_path / "again", "--no-pdf")
    assert r.returncode == 0, r.stderr
    assert "'s-404'" in r.stderr and "published as not found" in r.stderr
    cites = json.loads((tmp_path / "again" / "citations.json").read_text())
    assert [c["status"] for c in cites] == ["verified", "unsupported"], cites
    r = run("publish", report, "--sources", sources, "--out", tmp_path / "typo", "--no-pdf")
    assert r.returncode == 2 and "cites source ids that are not in" in r.stderr and "'s-404'" in r.stderr
    assert not (tmp_path / "typo").exists()


def test_a_report_written_before_the_breaks_were_taken_out_publishes_clean(tmp_path):
    """A report.md a run wrote before the check node took them out holds the zero-width
    space the prompts put after the '<' of a page's delimiter tag where the writer copied
    one (a quote of a page that shows </page>, prose naming <source>). Publish takes out
    exactly those: every output reads as the page writes it and the quote still verifies.
    A zero-width space the page itself holds stays in the quote: inside a word, and after
    a '<' where the page writes it so (the prompts never put one there: the page's text was
    shown as it is)."""
    from deep_research.research.prompts import BREAK, as_data

    xml = "The manual closes each entry with </page> and opens it with <page id=\"1\">."
    own = f"Its escaped form <{BREAK}page> is what the viewer shows, and zero{BREAK}width joins it."
    sources = [{"id": "x", "url": "https://x.example/", "title": "X", "content": xml},
               {"id": "o", "url": "https://o.example/", "title": "O", "content": own}]
    old = ("# Tags\n\n"
           f"Entries end with a closing tag <ref id=\"x\">\"{as_data(xml)}\"</ref>.\n\n"
           f"Each {as_data('<source>')} block is data. The viewer escapes tags <ref id=\"o\">\"{own}\"</ref>.\n")
    assert old.count(BREAK) == 5  # three the prompts put in, two the page holds
    out = tmp_path / "out"
    r = run("publish", _write(tmp_path, "r.md", old), "-s", _write(tmp_path, "s.json", json.dumps(sources)),
            "-o", out, "--no-pdf", "--docx")
    assert r.returncode == 0, r.stderr
    cites = json.loads((out / "citations.json").read_text())
    assert [c["status"] for c in cites] == ["verified", "verified"], cites
    # the tag the model named is a tag again: report.md shows it as text, as any tag a model writes
    assert "Each &lt;source> block is data." in (out / "report.md").read_text()
    for name in ("report.md", "report.linked.md", "report.html", "citations.json", "audit.json"):
        text = (out / name).read_text()
        assert f"<{BREAK}/page" not in text and f"<{BREAK}source" not in text, name
        assert "\\u200b" not in text, name
    assert cites[0]["quote"] == xml  # as the page writes it
    assert cites[1]["quote"] == own  # the page's own zero-width spaces are kept


def test_a_sources_section_written_in_the_report_is_replaced_with_a_warning(tmp_path):
    """A Sources section the user wrote (notes, entries of their own) was replaced by the
    checked list without a word: a warning names it, and audit.json keeps its text. The
    report.md publish wrote (its Sources list is the checked one) publishes again without it."""
    r = run("publish", "examples/report.md", "-s", "examples/sources.json", "-o", tmp_path / "one", "--no-pdf")
    assert r.returncode == 0, r.stderr
    said = " ".join(r.stderr.split())
    assert ("warning: the report's own 'Sources' section (line 36, 3 line(s)) is not what the citations give: it was "
            "replaced by the list built from them") in said, r.stderr
    kept = json.loads((tmp_path / "one" / "audit.json").read_text())["sources_replaced"]["text"]
    assert "This list was written by the model" in kept
    r = run("publish", tmp_path / "one" / "report.md", "-s", "examples/sources.json", "-o", tmp_path / "two", "--no-pdf")
    assert r.returncode == 0 and "Sources' section" not in r.stderr, r.stderr


@pytest.mark.parametrize("earlier_pdf", [False, True], ids=["new-folder", "folder-published-before"])
def test_a_pdf_no_worker_can_render_is_said_and_every_other_file_is_written(tmp_path, monkeypatch, capfd,
                                                                            earlier_pdf):
    """When its PDF worker could not run, `deep-research publish` rendered the PDF in its own
    process, with no bound (a report that killed the worker, or renders without end, held it
    for ever). A new worker is asked once; when none answers, every other file is written
    (citations.json and audit.json too), the terminal says the PDF was not written and why,
    and the exit code is 1: a PDF was asked for. A report.pdf an earlier publish left in the
    folder is another report's (the folder's report.md and report.html are this one): it is
    removed, and said, not left beside them as if it were this report's PDF."""
    from deep_research.cli import main
    from deep_research.publish import pdf as pdfmod
    from deep_research.publish import publisher

    def never_here(html, path):
        raise AssertionError("the PDF was rendered in publish's own process, unbounded")

    monkeypatch.setattr(pdfmod, "render_pdf", never_here)
    monkeypatch.setattr(publisher, "render_pdf", never_here)
    monkeypatch.setattr(pdfmod.sys, "executable", "/bin/false")  # every worker exits at once, answering nothing
    monkeypatch.chdir(ROOT)
    if earlier_pdf:
        (tmp_path / "report.pdf").write_bytes(b"%PDF-1.7 an earlier report")
    rc = main(["publish", "examples/report.md", "--sources", "examples/sources.json", "--out", str(tmp_path)])
    err = capfd.readouterr().err
    assert rc == 1, err
    assert ("the report.pdf an earlier publish left there was removed" in " ".join(err.split())) == earlier_pdf, err
    for name in ("report.md", "report.linked.md", "report.html", "citations.json", "audit.json"):
        assert (tmp_path / name).is_file(), name
    assert not (tmp_path / "report.pdf").exists()
    said = " ".join(err.split())
    assert "PDF not written: the PDF worker stopped before it answered" in said, said
    assert "--no-pdf" in said and "internal error" not in said

"""Reading a sources file, and writing one that reads back the same (a run folder's sources.json)."""

from __future__ import annotations

import json
from pathlib import Path

from deep_research.citations.model import Source
from deep_research.inputs import parse_sources, source_record


def test_a_source_record_reads_back_as_the_same_source() -> None:
    full = Source("a", "file:///d/a.pdf", "Page one.\nPage two.", "A report", "text",
                  credibility={"score": 0.9, "reasons": ["local corpus document"]},
                  author="Jane Q. Smith", published="2023-05-01", site_name="Site",
                  locations=[[0, "page", 1], [10, "page", 2]],
                  cut="only the first 5,000,000 bytes of the page were read (the fetch limit)")
    bare = Source("b", "https://b.example/", "Say **hello** to the world.")  # no format: detected
    records = json.loads(json.dumps([source_record(full), source_record(bare)]))
    back = parse_sources(records).sources
    assert back[0] == full
    assert back[1].format == "markdown" and back[1].page.text == bare.page.text
    assert records[1]["format"] == "markdown" and "author" not in records[1] and "cut" not in records[1]


def test_a_source_read_only_in_part_is_said_when_published() -> None:
    """A sources file's ``cut`` (a research run records why a page's text ends early) is
    kept and said as a warning; a ``cut`` that is not text is refused, naming the source."""
    import pytest

    from deep_research.errors import UserError

    item = {"id": "s1", "url": "https://a.example/", "content": "Tidal power is predictable."}
    loaded = parse_sources([{**item, "cut": "its elements are nested\x1b more than 256 deep"}])
    assert loaded.sources[0].cut == "its elements are nested\x1b more than 256 deep"
    assert loaded.warnings == ["source 's1' was read only in part (its elements are nested\x1b more than 256 "
                               "deep): a quote from its missing part cannot be verified"]
    assert parse_sources([{**item, "cut": "  "}]).sources[0].cut is None
    with pytest.raises(UserError, match="item 1 \\(id 's1'\\): \"cut\" must be a string"):
        parse_sources([{**item, "cut": 3}])


def test_a_pipe_is_read_like_a_file_and_an_endless_one_is_bounded(tmp_path, monkeypatch) -> None:
    """A FIFO (as `<(cat sources.json)` or a named pipe gives) and /dev/stdin-like character
    devices are read, within the byte bound of a regular file; a folder is named as one."""
    import os
    import threading

    import pytest

    from deep_research import inputs
    from deep_research.errors import UserError

    fifo = tmp_path / "sources.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text('[{"id": 1}]', encoding="utf-8"), daemon=True)
    writer.start()
    try:
        assert inputs.read_text_file(fifo, "sources file") == '[{"id": 1}]'
    finally:
        writer.join(timeout=10)
    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", 1 << 20)
    with pytest.raises(UserError, match=r"sources file /dev/zero is larger than 1 MB"):
        inputs.read_text_file("/dev/zero", "sources file")
    with pytest.raises(UserError, match=r"sources file .* is a folder, not a file"):
        inputs.read_text_file(tmp_path, "sources file")
    big = tmp_path / "big.md"
    big.write_bytes(b"x" * ((1 << 20) + 1))
    with pytest.raises(UserError, match=r"report .*big.md is larger than 1 MB"):
        inputs.read_text_file(big, "report")


def test_evaluation_files_are_read_by_the_same_bounded_read(tmp_path, monkeypatch) -> None:
    """One bounded read for every file a user names: the evaluation reader goes through
    inputs.read_bounded_bytes, with its own bound and its own error class."""
    import pytest

    from deep_research import inputs
    from deep_research.evaluation import rundir

    calls = []
    real = inputs.read_bounded_bytes

    def spy(path, what, limit, error=inputs.UserError):
        calls.append((str(path), what, limit, error))
        return real(path, what, limit, error)

    monkeypatch.setattr(inputs, "read_bounded_bytes", spy)
    page = tmp_path / "notes.md"
    page.write_text("\ufeffnotes", encoding="utf-8")
    assert rundir.read_bounded(page, "notes file", encoding="utf-8-sig") == "notes"
    assert inputs.read_text_file(page, "report") == "notes"
    assert calls == [(str(page), "notes file", rundir.MAX_EVAL_FILE_BYTES, rundir.EvalInputError),
                     (str(page), "report", inputs.MAX_INPUT_BYTES, inputs.UserError)]
    monkeypatch.setattr(rundir, "MAX_EVAL_FILE_BYTES", 1 << 20)
    with pytest.raises(rundir.EvalInputError, match=r"settings file /dev/zero is larger than 1 MB"):
        rundir.read_bounded(Path("/dev/zero"), "settings file")
    with pytest.raises(IsADirectoryError):  # callers name OSError and UnicodeDecodeError themselves
        rundir.read_bounded(tmp_path, "result file")


def test_a_source_url_with_credentials_is_linked_without_them_and_said(tmp_path) -> None:
    """A sources file whose URL holds a password or a secret query value (an internal wiki
    link copied with its token): every output the report goes to would carry the secret to
    its readers. The URL is kept without them, and a warning says what was left out."""
    from deep_research.inputs import parse_sources
    from deep_research.publish import publish_report

    page = "Compost piles need both nitrogen and carbon to break down well."
    loaded = parse_sources([
        {"id": "wiki", "url": "https://alice:hunter2pass@wiki.example/compost?api_key=SEKRETvalue42&page=3",
         "content": page, "title": "Compost"},
        {"id": "plain", "url": "https://example.org/compost?page=3", "content": page}])
    wiki, plain = loaded.sources
    assert wiki.url == "https://alice:***@wiki.example/compost?api_key=***&page=3"
    assert plain.url == "https://example.org/compost?page=3"
    said = [w for w in loaded.warnings if "'wiki'" in w]
    assert len(said) == 1 and "a password" in said[0] and "api_key=" in said[0]
    assert "hunter2pass" not in said[0] and "SEKRETvalue42" not in said[0]
    assert not [w for w in loaded.warnings if "'plain'" in w]
    report = ('# Compost\n\nPiles need nitrogen and carbon <ref id="wiki">"Compost piles need both nitrogen '
              'and carbon to break down well."</ref>.\n')
    out = tmp_path / "run"
    publish_report(report, loaded.sources, out, pdf=False)
    written = [p for p in out.rglob("*") if p.is_file()]
    assert written
    for p in written:
        data = p.read_bytes()
        assert b"hunter2pass" not in data and b"SEKRETvalue42" not in data, p.name
    assert "wiki.example/compost" in (out / "report.md").read_text(encoding="utf-8")

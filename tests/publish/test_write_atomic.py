"""write_atomic: the bytes a text-mode UTF-8 file would hold, written via a temporary file."""

import os

import pytest

from deep_research.publish import write_atomic


def test_text_is_written_as_its_utf8_bytes(tmp_path):
    text = "Zürich \u2014 \u4e2d\u6587\n\r\nline\u2028two\n" * 1000 + "\U0001F600"
    path = tmp_path / "out.txt"
    write_atomic(path, text)
    assert path.read_bytes() == text.encode("utf-8")  # no line break translated, nothing lost
    with open(tmp_path / "ref.txt", "w", encoding="utf-8") as f:  # what a text-mode file writes here
        f.write(text)
    if os.linesep == "\n":
        assert path.read_bytes() == (tmp_path / "ref.txt").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "ref.txt"]  # no temporary file left


def test_bytes_unchanged_and_replaced_atomically(tmp_path):
    path = tmp_path / "out.bin"
    path.write_bytes(b"old")
    write_atomic(path, b"\x00\xffnew")
    assert path.read_bytes() == b"\x00\xffnew"
    assert (path.stat().st_mode & 0o777) == 0o666 & ~_umask()


def test_unencodable_text_leaves_the_old_file(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old", encoding="utf-8")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(path, "a lone surrogate \ud800")
    assert path.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask

"""Plain-text content (what our own HTML extractor writes) -> the text a browser shows: the
content as is, one block per line."""

from __future__ import annotations

from array import array

from .text import _PLAIN_SPECIAL, PageText, _Builder


def _lines(raw: str):
    pos = 0
    for line in raw.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        yield pos, body
        pos += len(line)


def render_plain(raw: str) -> PageText:
    """Plain text: shown as is; each line is a block."""
    if not _PLAIN_SPECIAL.search(raw):
        text = raw.rstrip("\n")
        return PageText(raw, text, array("i", range(len(text))), array("i", range(1, len(text) + 1)))
    b = _Builder()
    for pos, line in _lines(raw):
        b.emit_verbatim(line, pos)
        b.newline(pos + len(line))
    return b.build(raw)


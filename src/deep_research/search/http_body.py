"""Reading an HTTP body within a byte limit, compressed or not.

httpx decodes a compressed body one network read at a time and each read whole: 1.6 KB of
brotli (or ``gzip, gzip``, or zstd) came out as 2 GB in one call, before any size check
could run, and held the event loop meanwhile. Here the wire bytes are read undecoded
(``aiter_raw``), counted against the limit, and decoded by us with every step's output
bounded (zlib's ``max_length``), so neither the compressed nor the decoded bytes ever
exceed the limit and no single step does more than the limit's worth of work.

Only the encodings we ask for are accepted (``gzip`` and ``deflate``, possibly stacked);
a body in another (``br``, ``zstd``, ``compress``) is refused with a reason, as it was not
asked for. Used by the page fetcher and by the SearXNG client.
"""

from __future__ import annotations

import zlib

import httpx

ACCEPT_ENCODING = "gzip, deflate"
MAX_LAYERS = 3  # Content-Encoding: gzip, gzip, gzip at most
_GZIP_MAGIC = b"\x1f\x8b"


class BodyError(Exception):
    """The body cannot be read: ``reason`` is ``content_encoding`` or ``corrupt``."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


class _Inflater:
    """One gzip or deflate layer, decoding at most what the caller has room for."""

    def __init__(self, encoding: str):
        self.encoding = encoding
        self.gzip = encoding in ("gzip", "x-gzip")
        self.d = self._new(raw=False)
        self.started = False
        self.done = False  # the (last) stream ended; what follows is ignored
        self.produced = 0

    def _new(self, *, raw: bool):
        return zlib.decompressobj(16 + zlib.MAX_WBITS if self.gzip else -zlib.MAX_WBITS if raw else zlib.MAX_WBITS)

    def feed(self, data: bytes, limit: int) -> tuple[bytes, bool]:
        """Decoded bytes of ``data`` (at most ``limit`` in all, over every call), and
        whether there was more to decode than the limit allows."""
        out: list[bytes] = []
        while data and not self.done:
            room = limit - self.produced
            if room <= 0:
                return b"".join(out), True
            try:
                chunk = self.d.decompress(data, room)
            except zlib.error as e:
                if not self.started and not self.gzip:  # "deflate" sent without its zlib header
                    self.d, self.started = self._new(raw=True), True
                    continue
                raise BodyError("corrupt", f"the {self.encoding} body is corrupt ({e})") from None
            self.started = True
            self.produced += len(chunk)
            out.append(chunk)
            if self.d.unconsumed_tail:  # output stopped at the room left
                return b"".join(out), True
            data = b""
            if self.d.eof:
                rest = self.d.unused_data
                if self.gzip and rest.startswith(_GZIP_MAGIC):  # another gzip member follows
                    self.d = self._new(raw=False)
                    data = rest
                else:
                    self.done = True  # trailing bytes after the stream: ignored, as browsers do
        return b"".join(out), False


def decoders(content_encoding: str | None) -> list[_Inflater]:
    """The layers to undo, in decoding order (the last encoding applied first)."""
    names = [n.strip().lower() for n in (content_encoding or "").split(",") if n.strip()]
    names = [n for n in names if n != "identity"]
    if len(names) > MAX_LAYERS:
        raise BodyError("content_encoding", f"{len(names)} layers of content encoding (at most {MAX_LAYERS})")
    for n in names:
        if n not in ("gzip", "x-gzip", "deflate"):
            raise BodyError("content_encoding", f"the body is sent with content encoding {n[:40]!r}, which was not "
                                                f"asked for ({ACCEPT_ENCODING})")
    return [_Inflater(n) for n in reversed(names)]


async def read_limited(response: httpx.Response, limit: int) -> tuple[bytes, bool]:
    """The body of a streamed ``response``, decoded, at most ``limit`` bytes, and whether
    it was cut there. At most ``limit`` wire bytes are read as well."""
    layers = decoders(response.headers.get("content-encoding"))
    chunks: list[bytes] = []
    size = wire = 0
    async for raw in response.aiter_raw():
        if not raw:
            continue
        wire_room = limit - wire
        cut = len(raw) > wire_room
        raw = raw[:wire_room]
        wire += len(raw)
        data, over = raw, False
        for layer in layers:
            data, more = layer.feed(data, limit)
            over = over or more
        room = limit - size
        if len(data) > room:
            data, over = data[:room], True
        chunks.append(data)
        size += len(data)
        if over or cut or size >= limit and not layers:
            if over or cut or await _more(response):
                return b"".join(chunks), True
            return b"".join(chunks), False
    return b"".join(chunks), False


async def _more(response: httpx.Response) -> bool:
    """Whether an undecoded body that filled the limit exactly goes on."""
    async for raw in response.aiter_raw():
        if raw:
            return True
    return False

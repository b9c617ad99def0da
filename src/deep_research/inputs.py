"""Reading the user's files: a report and its sources. Every problem is a UserError
with a message that says what to fix."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .citations.links import safe_link
from .citations.locations import parse_locations
from .citations.model import Source
from .errors import UserError, mask_page_url, masked_credentials
from .terminal import shortened

MAX_INPUT_BYTES = 200 * 1024 * 1024
MAX_CUT_CHARS = 500  # a source's "cut" note (why its content ends early), bounded for every output


def read_text_file(path: str | Path, what: str) -> str:
    """The UTF-8 text of a file the user named: a regular file, or a pipe or device such as
    ``<(cat sources.json)`` or ``/dev/stdin`` (read like ``cat`` would: a named pipe nobody
    writes to waits for a writer), at most :data:`MAX_INPUT_BYTES` in every case."""
    p = Path(path)
    if not p.exists():
        raise UserError(f"{what} {p} does not exist")
    if p.is_dir():
        raise UserError(f"{what} {p} is a folder, not a file")
    try:
        data = read_bounded_bytes(p, what, MAX_INPUT_BYTES)
    except OSError as e:
        raise UserError(f"cannot read {what} {p}: {e.strerror or e}") from e
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UserError(f"{what} {p} is not UTF-8 text (byte {e.start})") from e


def read_bounded_bytes(path: str | Path, what: str, limit: int, error: type[UserError] = UserError) -> bytes:
    """The bytes of ``path``, at most ``limit``, in one read (no stat-then-read: a pipe,
    ``/dev/stdin`` or ``/dev/zero`` is bounded like a regular file); ``error`` past the
    bound, OSError as opening or reading raises it (the caller words that)."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise error(f"{what} {path} is larger than {limit // (1024 * 1024)} MB")
    return data


@dataclass
class LoadedSources:
    sources: list[Source]
    warnings: list[str] = field(default_factory=list)


def parse_sources(data: object, origin: str = "sources") -> LoadedSources:
    if not isinstance(data, list):
        raise UserError(f"{origin}: expected a JSON list of sources, got {type(data).__name__}")
    out: list[Source] = []
    warnings: list[str] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(data):
        where = f"{origin}: item {i + 1}"
        if not isinstance(item, dict):
            raise UserError(f"{where} is not an object")
        sid = item.get("id")
        if isinstance(sid, bool) or not isinstance(sid, (str, int)) or str(sid).strip() == "":
            raise UserError(f"{where} needs an \"id\" (a string or an integer)")
        sid = str(sid).strip()
        if sid in seen:
            raise UserError(f"{origin}: duplicate source id {sid!r} (items {seen[sid]} and {i + 1})")
        seen[sid] = i + 1
        url = item.get("url")
        if not isinstance(url, str) or not url.strip():
            raise UserError(f"{where} (id {sid!r}) needs a \"url\" string")
        content = item.get("content")
        if not isinstance(content, str):
            raise UserError(f"{where} (id {sid!r}) needs a \"content\" string: the full page text")
        title = item.get("title") or ""
        if not isinstance(title, str):
            raise UserError(f"{where} (id {sid!r}): \"title\" must be a string")
        fmt = item.get("format")
        if fmt not in (None, "markdown", "text"):
            raise UserError(f"{where} (id {sid!r}): \"format\" must be \"markdown\" or \"text\"")
        if not content.strip():
            warnings.append(f"source {sid!r} has empty content: quotes citing it cannot be verified")
        kept = mask_page_url(url)
        if kept != url:  # a password or token would be linked in every output the report goes to
            warnings.append(f"source {sid!r}: its URL holds {masked_credentials(kept)}; the report links it "
                            f"without them: {shortened(kept, 120)}")
            url = kept
        if safe_link(url) is None:
            warnings.append(f"source {sid!r} has a URL that will not be linked (only http, https "
                            f"and file URLs are): {url[:80]!r}")
        meta = {}
        for key in ("author", "published", "site_name"):  # optional page metadata (citation styles)
            value = item.get(key)
            if isinstance(value, list) and key == "author":
                value = "; ".join(v.strip() for v in value if isinstance(v, str) and v.strip())
            if value is not None and not isinstance(value, str):
                raise UserError(f"{where} (id {sid!r}): \"{key}\" must be a string")
            if value and value.strip():
                meta[key] = " ".join(value.split())
        locations = item.get("locations")
        if locations is not None and not isinstance(locations, list):
            raise UserError(f"{where} (id {sid!r}): \"locations\" must be a list of [offset, kind, ...] marks")
        cut = item.get("cut")  # why the content ends before the page does (a research run records it)
        if cut is not None and not isinstance(cut, str):
            raise UserError(f"{where} (id {sid!r}): \"cut\" must be a string (why the content ends early)")
        if cut and cut.strip():
            meta["cut"] = shortened(" ".join(cut.split()), MAX_CUT_CHARS) or ""
            warnings.append(f"source {sid!r} was read only in part ({meta['cut']}): a quote from its missing "
                            "part cannot be verified")
        out.append(Source(sid, url.strip(), content, title.strip(), fmt,
                          credibility=_credibility(item.get("credibility"), f"{where} (id {sid!r})"),
                          locations=parse_locations(locations), **meta))
    return LoadedSources(out, warnings)


def source_record(source: Source) -> dict:
    """One item of a sources file, as :func:`parse_sources` reads it back: a research run's
    folder keeps its cited sources this way (sources.json), so that ``deep-research publish``
    re-publishes its report.md from the folder alone. The format is written as the run read
    the content (detected when the source had none), so a later reading cannot differ."""
    from .citations.page import detect_format

    record: dict = {"id": source.id, "url": source.url, "title": source.title,
                    "format": source.format or detect_format(source.content)}
    for key in ("author", "published", "site_name", "credibility", "locations", "cut"):
        value = getattr(source, key)
        if value:
            record[key] = value
    record["content"] = source.content  # last: the metadata reads first in the file
    return record


def _credibility(value: object, where: str) -> dict | None:
    """An optional ``"credibility": {"score": 0..1, "reasons": [text, ...]}`` of a source
    (as a research run records it), shown in the Sources list."""
    if value is None:
        return None
    score = value.get("score") if isinstance(value, dict) else None
    reasons = value.get("reasons", []) if isinstance(value, dict) else None
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0 <= score <= 1 \
            or not isinstance(reasons, list) or not all(isinstance(r, str) for r in reasons):
        raise UserError(f"{where}: \"credibility\" must be {{\"score\": a number from 0 to 1, "
                        "\"reasons\": [strings]}")
    return {"score": float(score), "reasons": list(reasons)}


def load_sources(path: str | Path) -> LoadedSources:
    text = read_text_file(path, "sources file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise UserError(f"sources file {path} is not valid JSON: {e.msg} at line {e.lineno}, "
                        f"column {e.colno}") from e
    except RecursionError:
        raise UserError(f"sources file {path} is not a list of sources: its JSON is nested too deeply") from None
    except ValueError:  # an integer of more than 4,300 digits
        raise UserError(f"sources file {path} is not a list of sources: its JSON holds a number too long to read") \
            from None
    return parse_sources(data, str(path))

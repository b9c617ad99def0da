"""Which URLs a reader may be sent to. Kept apart from ``check`` (and its claim rules) so
that reading a user's sources file, and a CLI ``--help`` that names its limits, load no more
than this."""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

LINK_SCHEMES = frozenset({"http", "https", "file"})


_URL_ESCAPES = {" ": "%20", '"': "%22", "'": "%27", "<": "%3C", ">": "%3E", "`": "%60",
                "(": "%28", ")": "%29"}


@lru_cache(maxsize=4096)  # once per source, not once per citation
def safe_link(url: str | None) -> str | None:
    """The URL if a reader may be sent there (http, https, file), else None. Characters that
    could end a markdown link or an HTML attribute are percent-encoded."""
    if not url:
        return None
    url = url.strip()
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in url):
        return None
    try:
        scheme = urlsplit(url).scheme.lower()
    except ValueError:
        return None
    if scheme not in LINK_SCHEMES:
        return None
    return "".join(_URL_ESCAPES.get(ch, ch) for ch in url)

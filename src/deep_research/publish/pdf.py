"""HTML -> PDF with WeasyPrint, allowed to read nothing but the report's own assets.

The HTML holds text written by a model and pages from the web. WeasyPrint would fetch
any ``<img src>``, stylesheet or ``@import`` it meets, including ``file:///etc/passwd``
or a URL that tells a third party the report was rendered. The fetcher below refuses
every URL except files inside the package's templates directory, and records what it
refused.
"""

from __future__ import annotations

import logging
from pathlib import Path
from urllib.parse import unquote, urlsplit

from weasyprint import HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

from ..terminal import printable
from .assets import templates_dir

log = logging.getLogger(__name__)


class AssetOnlyFetcher(URLFetcher):
    """Serves files from the templates directory; refuses file://, http(s), data: and all else."""

    def __init__(self, root: Path | None = None):
        super().__init__(timeout=5, allow_redirects=False)
        self.root = (root or templates_dir()).resolve()
        self.refused: list[str] = []

    def fetch(self, url, headers=None):
        parts = urlsplit(url)
        if parts.scheme == "file" and not parts.netloc:
            path = Path(unquote(parts.path)).resolve()
            if path.is_file() and self.root in path.parents:
                return URLFetcherResponse(url, body=path.read_bytes(), headers={})
        self.refused.append(url)
        log.warning("refused to fetch %s while rendering the PDF", printable(url[:200]))
        raise ValueError(f"fetching {url[:200]} is not allowed")


def render_pdf(html: str, path: str | Path) -> list[str]:
    """Write the PDF; returns the URLs the renderer asked for and was refused."""
    fetcher = AssetOnlyFetcher()
    base = templates_dir().as_uri() + "/"
    HTML(string=html, base_url=base, url_fetcher=fetcher).write_pdf(str(path))
    return fetcher.refused

"""HTML -> PDF with WeasyPrint, allowed to read nothing but the report's own assets.

The HTML holds text written by a model and pages from the web. WeasyPrint would fetch
any ``<img src>``, stylesheet or ``@import`` it meets, including ``file:///etc/passwd``
or a URL that tells a third party the report was rendered. The fetcher below refuses
every URL except files inside the package's templates directory, and records what it
refused.

WeasyPrint takes about a second to import. :class:`PdfWorker` starts a child process that
imports it while the caller checks citations and builds the HTML (on a machine with two
or more cores the two overlap), then renders there, bounded. ``deep-research publish`` and a research run use it;
the library default (:func:`render_pdf`) renders in the calling process. Importing this
module does not import WeasyPrint.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..terminal import printable
from .assets import templates_dir

log = logging.getLogger(__name__)

WORKER_TIMEOUT_S = 900.0  # a pathological report renders slowly but linearly (bench_hostile)


def _fetcher_class():
    from weasyprint.urls import URLFetcher, URLFetcherResponse

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

    return AssetOnlyFetcher


def render_pdf(html: str, path: str | Path) -> list[str]:
    """Write the PDF; returns the URLs the renderer asked for and was refused."""
    from weasyprint import HTML

    fetcher = _fetcher_class()()
    base = templates_dir().as_uri() + "/"
    HTML(string=html, base_url=base, url_fetcher=fetcher).write_pdf(str(path))
    return fetcher.refused


class PdfWorker:
    """A child process that has imported WeasyPrint and renders one PDF on request.

    Start it early, call :meth:`render` once. Every render is bounded: one that outlives
    ``timeout`` is stopped and reported as an error. If the child cannot be started or dies
    before it answers, the PDF is asked of a new child once, bounded the same way, unless
    ``fallback`` is False (a research run's: it does not wait twice); when that fails too,
    the error says so. Nothing renders in the caller's process, where a report that killed
    the child, or renders without end, could not be stopped (``deep-research publish`` then
    writes every other file and says the PDF was not written). :attr:`error` holds what
    failed, once :meth:`finish` has raised."""

    def __init__(self, timeout: float = WORKER_TIMEOUT_S, *, fallback: bool = True):
        self.timeout = timeout
        self.fallback = fallback
        self.error: str | None = None
        self._job: tuple[Path, Path] | None = None
        self._start_problem = ""
        self.proc: subprocess.Popen | None = self._spawn()

    def _spawn(self) -> subprocess.Popen | None:
        try:
            return subprocess.Popen(
                [sys.executable, "-m", "deep_research.publish.pdf"], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
        except OSError as e:
            log.info("PDF worker not started (%s)", e)
            self._start_problem = printable(str(e))[:300]
            return None

    def render(self, html_path: Path, pdf_path: Path) -> list[str]:
        """Render ``html_path`` to ``pdf_path``; returns the URLs refused (as :func:`render_pdf`)."""
        self.start(html_path, pdf_path)
        return self.finish()

    def start(self, html_path: Path, pdf_path: Path) -> None:
        """Ask for the PDF and return at once (the caller goes on with other work)."""
        self._job = (Path(html_path), Path(pdf_path))
        self._ask()

    def _ask(self) -> None:
        if self.proc is None or self._job is None:
            return
        html_path, pdf_path = self._job
        try:
            self.proc.stdin.write(json.dumps({"html": str(html_path), "pdf": str(pdf_path)}) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass  # the child is gone: finish() says so (or asks a new one)

    def finish(self) -> list[str]:
        """Wait for the PDF asked for with :meth:`start`."""
        try:
            return self._finish(retry=self.fallback)
        except RuntimeError as e:
            self.error = str(e)
            raise

    def _finish(self, *, retry: bool) -> list[str]:
        if self.proc is None:
            why = f"the PDF worker could not start ({self._start_problem or 'no message'})"
            return self._again(why) if retry else self._fail(why)
        try:
            out, err = self.proc.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.close()
            raise RuntimeError(f"rendering the PDF took more than {self.timeout:.0f} s and was stopped") from None
        except (BrokenPipeError, OSError, ValueError):
            out, err = "", ""
        self.proc = None
        answer = _last_json_line(out)
        if answer is None:  # the child died before answering
            why = f"the PDF worker stopped before it answered ({printable((err or '').strip()[-300:]) or 'no message'})"
            return self._again(why) if retry else self._fail(why)
        if answer.get("error"):
            raise RuntimeError(f"rendering the PDF failed: {answer['error']}")
        for url in answer.get("refused", []):
            log.warning("refused to fetch %s while rendering the PDF", printable(url[:200]))
        return answer.get("refused", [])

    def _again(self, why: str) -> list[str]:
        """The PDF asked of a new child, once, bounded as the first (never in this process)."""
        log.info("%s; asking a new PDF worker", why)
        self.proc = self._spawn()
        self._ask()
        try:
            return self._finish(retry=False)
        except RuntimeError as e:
            raise RuntimeError(f"{why}; a second worker failed too: {e}") from None

    @staticmethod
    def _fail(why: str) -> list[str]:
        raise RuntimeError(why)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def __enter__(self) -> PdfWorker:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _last_json_line(out: str) -> dict | None:
    for line in reversed(out.splitlines()):
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


def _serve() -> None:
    import weasyprint  # noqa: F401 - the point of the worker: import while the parent works

    line = sys.stdin.readline()
    if not line:
        return
    req = json.loads(line)
    try:
        refused = render_pdf(Path(req["html"]).read_text(encoding="utf-8"), req["pdf"])
        answer = {"refused": refused}
    except Exception as e:  # noqa: BLE001 - reported to the parent, which raises it
        answer = {"error": f"{type(e).__name__}: {e}"}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    logging.basicConfig(level=logging.ERROR)
    _serve()

"""Ask headless Chromium which text a ``#:~:text=`` URL highlights.

Chromium started with ``--enable-blink-features=TextFragmentAPI`` exposes
``document.fragmentDirective.items[i].getMatchingRange()``, which resolves to the Range
Blink matched (or rejects when nothing matched). Used by the browser tests and the
fragment benchmark. Never downloads a browser: it drives Debian's /usr/bin/chromium.
"""

from __future__ import annotations

import concurrent.futures
import functools
import http.server
import os
import queue
import re
import shutil
import socketserver
import threading
from contextlib import contextmanager

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--enable-blink-features=TextFragmentAPI",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--no-first-run",
    "--no-default-browser-check",
    "--no-pings",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
]

_MATCHED_JS = """async () => {
  const fd = document.fragmentDirective;
  if (!fd || !('items' in fd)) return {available: false, texts: []};
  const texts = [];
  for (const d of fd.items) {
    try {
      const r = await Promise.race([d.getMatchingRange(),
        new Promise((_, no) => setTimeout(() => no(new Error('timeout')), 8000))]);
      if (r && !r.collapsed) {
        const s = getSelection(); s.removeAllRanges(); s.addRange(r);
        texts.push(s.toString()); s.removeAllRanges();
      } else { texts.push(null); }
    } catch (e) { texts.push(null); }
  }
  return {available: true, texts};
}"""

_GENERATE_JS = """async (quote) => {
  getSelection().removeAllRanges();
  if (!window.find(quote, false, false, false, false, false, false)) return {error: 'not found'};
  const range = getSelection().getRangeAt(0).cloneRange();
  getSelection().removeAllRanges();
  try {
    const d = await document.fragmentDirective.createSelectorDirective(range);
    return {directive: d.toString()};
  } catch (e) { return {error: String(e)}; }
}"""


def chromium_available() -> bool:
    return shutil.which(CHROMIUM) is not None or os.path.exists(CHROMIUM)


def normalise(s: str | None) -> str | None:
    if s is None:
        return None
    s = s.replace("\u00a0", " ").replace("\u2019", "'").replace("\u2018", "'")
    s = s.replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", s).strip().casefold()


@contextmanager
def serve_directory(path: str):
    """Serve a folder on 127.0.0.1 (a free port); yields the base URL."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(path))
    httpd = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


class Browser:
    """One headless Chromium; ``highlighted(url)`` returns the text Chromium matched.

    Playwright's sync API keeps an event loop running in the thread that started it, and
    that would make every later ``asyncio.run`` in the same thread fail. So the browser
    lives in a thread of its own and each call is handed to that thread.
    """

    def __init__(self) -> None:
        self._jobs: queue.Queue = queue.Queue()
        ready: concurrent.futures.Future = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._serve, args=(ready,), name="chromium", daemon=True)
        self._thread.start()
        self.version = ready.result(timeout=120)

    def _serve(self, ready: concurrent.futures.Future) -> None:
        from playwright.sync_api import sync_playwright

        try:
            pw = sync_playwright().start()
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            self._context = browser.new_context(viewport={"width": 1280, "height": 1200})
        except BaseException as exc:  # hand the failure to the caller, do not hide it
            ready.set_exception(exc)
            return
        ready.set_result(browser.version)
        while True:
            job = self._jobs.get()
            if job is None:
                break
            fn, done = job
            if done.set_running_or_notify_cancel():
                try:
                    done.set_result(fn())
                except BaseException as exc:
                    done.set_exception(exc)
        self._context.close()
        browser.close()
        pw.stop()

    def _call(self, fn):
        done: concurrent.futures.Future = concurrent.futures.Future()
        self._jobs.put((fn, done))
        return done.result(timeout=300)

    def evaluate_on(self, url: str, script: str, arg=None, *, timeout_ms: int = 30000):
        """Open ``url`` in a fresh tab, run ``script`` (a JS function) with ``arg``, close the tab."""

        def run():
            page = self._context.new_page()
            try:
                page.goto(url, wait_until="load", timeout=timeout_ms)
                return page.evaluate(script, arg)
            finally:
                page.close()

        return self._call(run)

    def highlighted(self, url: str) -> list[str | None]:
        """Text of each text directive's match in ``url`` (None where nothing matched)."""
        result = self.evaluate_on(url, _MATCHED_JS)
        if not result["available"]:
            raise RuntimeError("Chromium did not expose the TextFragmentAPI")
        return result["texts"]

    def chromium_fragment(self, url: str, quote: str) -> str | None:
        """Chromium's own 'copy link to highlight' directive for the first occurrence."""
        return self.evaluate_on(url, _GENERATE_JS, quote).get("directive")

    def close(self) -> None:
        if self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join(timeout=60)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

"""A real HTTP server on 127.0.0.1 in a thread, with routes the test defines.

A route is a function ``(handler, server) -> None`` that writes the whole answer with the
helpers below; every request is counted per path (``server.hits``)."""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

Route = Callable[["Handler", "WebServer"], None]


class Handler(BaseHTTPRequestHandler):
    server: WebServer
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        srv = self.server
        with srv.lock:
            srv.hits[path] += 1
            srv.requests.append((path, self.path, dict(self.headers)))
        route = srv.routes.get(path)
        if route is None:
            self.send_text(404, "not found")
            return
        try:
            route(self, srv)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def send_text(self, status: int, body: str | bytes, ctype: str = "text/plain; charset=utf-8",
                  headers: dict | None = None) -> None:
        data = body.encode("utf-8") if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def redirect(self, location: str, status: int = 302) -> None:
        self.send_text(status, "", headers={"Location": location})


class WebServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.routes: dict[str, Route] = {}
        self.hits: collections.Counter = collections.Counter()
        self.requests: list = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def url(self, path: str) -> str:
        return self.base + path

    def route(self, path: str, fn: Route) -> None:
        self.routes[path] = fn

    def page(self, path: str, body: str | bytes, ctype: str = "text/html; charset=utf-8", status: int = 200,
             headers: dict | None = None) -> None:
        self.routes[path] = lambda h, s: h.send_text(status, body, ctype, headers)

    def __enter__(self) -> WebServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.shutdown()
        self.server_close()


def endless(handler: Handler, _server: WebServer, chunk: bytes = b"<p>" + b"x" * 4000 + b"</p>\n",
            delay: float = 0.0, limit_s: float = 30.0) -> None:
    """An HTML body that never ends (chunked), until the client hangs up or ``limit_s``."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    handler.wfile.write(b"%x\r\n%s\r\n" % (len(b"<html><body>"), b"<html><body>"))
    start = time.monotonic()
    while time.monotonic() - start < limit_s:
        handler.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        handler.wfile.flush()
        if delay:
            time.sleep(delay)
    handler.close_connection = True

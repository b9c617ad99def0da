"""A trace collector stub on 127.0.0.1: answers every request with 200 and keeps what it
was sent (method, path, headers, body), for the tracing tests (LangSmith's run uploads,
OpenTelemetry's OTLP/HTTP export). ``spans()`` decodes the OTLP protobuf requests."""

from __future__ import annotations

import gzip
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self


class Collector:
    def __init__(self) -> None:
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def bodies(self) -> bytes:
        """Every request body, decompressed, one after the other."""
        with self._lock:
            return b"\n".join(r["body"] for r in self.requests)

    def spans(self) -> list[dict]:
        """The spans of the OTLP/HTTP export requests: name, attributes, status code."""
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

        out = []
        with self._lock:
            posts = [r for r in self.requests if r["path"].endswith("/v1/traces")]
        for r in posts:
            req = ExportTraceServiceRequest()
            req.ParseFromString(r["body"])
            for rs in req.resource_spans:
                service = {a.key: a.value.string_value for a in rs.resource.attributes}.get("service.name")
                for ss in rs.scope_spans:
                    for s in ss.spans:
                        attrs = {}
                        for a in s.attributes:
                            v = a.value
                            attrs[a.key] = (v.string_value if v.HasField("string_value") else
                                            v.int_value if v.HasField("int_value") else
                                            v.double_value if v.HasField("double_value") else v.bool_value)
                        out.append({"name": s.name, "attributes": attrs, "status": s.status.code,
                                    "trace_id": s.trace_id.hex(), "service": service})
        return out

    def _handler(self):
        collector = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def _record(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                with collector._lock:
                    collector.requests.append({"method": self.command, "path": self.path.split("?")[0],
                                               "headers": dict(self.headers), "body": body})
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            do_GET = do_POST = do_PUT = do_PATCH = _record

        return Handler

"""An Anthropic-compatible Messages API server on 127.0.0.1 for the web search tool.

It speaks the wire format of ``POST /v1/messages`` with Anthropic's server-side web search
tool (``{"type": "web_search_20250305", "name": "web_search", "max_uses": N}``): the answer
holds a ``server_tool_use`` block (the query), a ``web_search_tool_result`` block with one
``web_search_result`` per page of ``pages`` (``{"url", "title"}``; ``encrypted_content`` is
opaque text, as Anthropic's is) and a text block whose ``web_search_result_location``
citations name the pages with a ``cited_text`` snippet, and ``usage.server_tool_use.
web_search_requests``. ``snippet`` is that cited text (tests make it hostile: it must
never become a source's content). ``error_code`` answers with a
``web_search_tool_result_error`` instead (not billed); ``status`` answers every request
with that HTTP status. ``stream`` requests get the same answer as server-sent events.
The product's real client path (langchain-anthropic's ChatAnthropic over the anthropic
SDK) is exercised end to end.
"""

from __future__ import annotations

import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self


class AnthropicServer:
    def __init__(self, pages: list[dict], *, tokens: tuple[int, int] = (2_000, 100), snippet: str = "",
                 error_code: str | None = None, status: int | None = None, cite: int | None = None):
        self.pages = pages
        self.tokens = tokens
        self.snippet = snippet
        self.error_code = error_code
        self.status = status
        self.cite = len(pages) if cite is None else cite  # how many pages the text cites (the first ones)
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        """What ChatAnthropic takes as ``base_url`` (the SDK adds ``/v1/messages``)."""
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def answer(self, req: dict) -> dict:
        prompt = req["messages"][-1]["content"]
        if isinstance(prompt, list):
            prompt = " ".join(p.get("text", "") for p in prompt if isinstance(p, dict))
        query = prompt.rsplit("Query:", 1)[-1].strip()[:200]
        tool_id = f"srvtoolu_{uuid.uuid4().hex[:12]}"
        blocks: list[dict] = [{"type": "server_tool_use", "id": tool_id, "name": "web_search",
                               "input": {"query": query}}]
        if self.error_code:
            blocks.append({"type": "web_search_tool_result", "tool_use_id": tool_id,
                           "content": {"type": "web_search_tool_result_error", "error_code": self.error_code}})
            blocks.append({"type": "text", "text": "The search failed."})
            searches = 0
        else:
            blocks.append({"type": "web_search_tool_result", "tool_use_id": tool_id, "content": [
                {"type": "web_search_result", "url": p["url"], "title": p["title"],
                 "encrypted_content": "RW5jcnlwdGVk" + uuid.uuid4().hex, "page_age": None} for p in self.pages]})
            blocks.append({"type": "text", "text": "Pages found: ", "citations": None})
            for p in self.pages[:self.cite]:
                blocks.append({"type": "text", "text": f"{p['title']}.", "citations": [
                    {"type": "web_search_result_location", "url": p["url"], "title": p["title"],
                     "encrypted_index": "RW5j" + uuid.uuid4().hex[:8], "cited_text": self.snippet or p["title"]}]})
            searches = 1
        return {"id": f"msg_{uuid.uuid4().hex[:12]}", "type": "message", "role": "assistant",
                "model": req.get("model"), "content": blocks, "stop_reason": "end_turn", "stop_sequence": None,
                "usage": {"input_tokens": self.tokens[0], "output_tokens": self.tokens[1],
                          "server_tool_use": {"web_search_requests": searches}}}

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # keep test output quiet
                pass

            def _json(self, status: int, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _events(self, message: dict) -> None:
                """The answer as Anthropic streams it: message_start, each block's start (and a
                text delta), message_delta with the final usage, message_stop."""
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()

                def send(kind: str, data: dict) -> None:
                    self.wfile.write(f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n".encode())

                start = {**message, "content": [], "stop_reason": None,
                         "usage": {"input_tokens": message["usage"]["input_tokens"], "output_tokens": 1}}
                send("message_start", {"message": start})
                for i, block in enumerate(message["content"]):
                    if block["type"] == "text":
                        send("content_block_start", {"index": i, "content_block": {"type": "text", "text": ""}})
                        for c in block.get("citations") or []:
                            send("content_block_delta", {"index": i, "delta": {"type": "citations_delta",
                                                                               "citation": c}})
                        send("content_block_delta", {"index": i, "delta": {"type": "text_delta",
                                                                           "text": block["text"]}})
                    elif block["type"] == "server_tool_use":
                        send("content_block_start", {"index": i, "content_block": {**block, "input": {}}})
                        send("content_block_delta", {"index": i, "delta": {
                            "type": "input_json_delta", "partial_json": json.dumps(block["input"])}})
                    else:
                        send("content_block_start", {"index": i, "content_block": block})
                    send("content_block_stop", {"index": i})
                send("message_delta", {"delta": {"stop_reason": "end_turn", "stop_sequence": None},
                                       "usage": message["usage"]})
                send("message_stop", {})

            def do_POST(self) -> None:
                if self.path.split("?")[0].rstrip("/") != "/v1/messages":
                    return self._json(404, {"type": "error", "error": {"type": "not_found_error",
                                                                       "message": f"no route {self.path}"}})
                req = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                with server._lock:
                    server.requests.append({**req, "authorization": self.headers.get("Authorization") or self.headers.get("x-api-key")})
                if server.status:
                    return self._json(server.status, {"type": "error", "error": {
                        "type": "overloaded_error" if server.status >= 500 else "invalid_request_error",
                        "message": f"scripted HTTP {server.status}"}})
                tools = req.get("tools") or []
                if not any(str(t.get("type", "")).startswith("web_search_") for t in tools):
                    return self._json(400, {"type": "error", "error": {
                        "type": "invalid_request_error", "message": "this server answers web searches only"}})
                message = server.answer(req)
                if req.get("stream"):
                    return self._events(message)
                return self._json(200, message)

        return Handler

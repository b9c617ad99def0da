"""An OpenAI-compatible chat server on 127.0.0.1 that answers from a Script.

It speaks the wire format of ``POST /v1/chat/completions`` (messages with tool calls and
tool results, ``tools``, ``response_format``, ``stream`` as server-sent events, ``usage``),
so the product's real client path (langchain-openai over httpx, its timeouts, tool calling
and JSON fallbacks) is exercised end to end. The request's ``model`` names the script role.
Options mimic weaker servers: ``reject_tools`` answers 400 to any request with tools, as
some llama.cpp and vLLM setups do; ``omit_usage`` never reports token usage (streamed or
not), as some servers do not. ``web_search`` answers ``POST /v1/responses`` (the Responses
API with the ``web_search`` tool) with an answer citing those pages (``{"url", "title"}``),
reporting ``web_search_tokens`` as its usage.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from .scripted import Script


def to_messages(wire: list[dict]) -> list[BaseMessage]:
    out: list[BaseMessage] = []
    for m in wire:
        content = m.get("content") or ""
        if isinstance(content, list):  # content parts
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        role = m.get("role")
        if role in ("system", "developer"):
            out.append(SystemMessage(content))
        elif role == "user":
            out.append(HumanMessage(content))
        elif role == "assistant":
            calls = [{"name": c["function"]["name"], "args": json.loads(c["function"]["arguments"] or "{}"),
                      "id": c["id"], "type": "tool_call"} for c in m.get("tool_calls") or []]
            out.append(AIMessage(content, tool_calls=calls))
        elif role == "tool":
            out.append(ToolMessage(content, tool_call_id=m.get("tool_call_id", "")))
        else:
            raise ValueError(f"unknown message role {role!r}")
    return out


def wire_tool_calls(msg: AIMessage) -> list[dict]:
    return [{"id": c.get("id") or f"call_{uuid.uuid4().hex[:10]}", "type": "function",
             "function": {"name": c["name"], "arguments": json.dumps(c["args"])}}
            for c in msg.tool_calls or []]


class ScriptServer:
    def __init__(self, script: Script, *, reject_tools: bool = False, omit_usage: bool = False,
                 web_search: list[dict] | None = None, web_search_tokens: tuple[int, int] = (10, 10)):
        self.script, self.reject_tools, self.omit_usage = script, reject_tools, omit_usage
        self.web_search = web_search
        self.web_search_tokens = web_search_tokens  # (input, output) a web search answer reports
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> "ScriptServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

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

            def _responses(self) -> None:
                req = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                with server._lock:
                    server.requests.append({**req, "authorization": self.headers.get("Authorization")})
                if server.web_search is None or not any(t.get("type") == "web_search" for t in req.get("tools") or []):
                    return self._json(400, {"error": {"message": "web_search is not supported by this server"}})
                pages = server.web_search
                text = " ".join(f"See {p['title']}." for p in pages)
                annotations, pos = [], 0
                for p in pages:
                    start = text.index(p["title"], pos)
                    annotations.append({"type": "url_citation", "url": p["url"], "title": p["title"],
                                        "start_index": start, "end_index": start + len(p["title"])})
                    pos = start
                self._json(200, {
                    "id": f"resp_{uuid.uuid4().hex[:12]}", "object": "response", "created_at": int(time.time()),
                    "model": req.get("model"), "status": "completed", "parallel_tool_calls": True,
                    "tool_choice": "auto", "tools": req.get("tools"),
                    "output": [
                        {"type": "web_search_call", "id": "ws_1", "status": "completed",
                         "action": {"type": "search", "query": str(req.get("input"))[:100],
                                    "sources": [{"type": "url", "url": p["url"]} for p in pages]}},
                        {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                         "content": [{"type": "output_text", "text": text, "annotations": annotations}]}],
                    "usage": {"input_tokens": server.web_search_tokens[0],
                              "output_tokens": server.web_search_tokens[1],
                              "total_tokens": sum(server.web_search_tokens),
                              "input_tokens_details": {"cached_tokens": 0},
                              "output_tokens_details": {"reasoning_tokens": 0}}})

            def do_POST(self) -> None:
                if self.path.rstrip("/") == "/v1/responses":
                    return self._responses()
                if self.path.rstrip("/") != "/v1/chat/completions":
                    return self._json(404, {"error": {"message": f"no route {self.path}"}})
                req = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                with server._lock:
                    server.requests.append({**req, "authorization": self.headers.get("Authorization")})
                if server.reject_tools and req.get("tools"):
                    return self._json(400, {"error": {"message": "tools are not supported by this server",
                                                      "type": "invalid_request_error"}})
                try:
                    msg = server.script.respond(req["model"], to_messages(req["messages"]))
                except AssertionError as e:  # unscripted call: fail loudly, as the scripted model does
                    return self._json(500, {"error": {"message": str(e)}})
                usage = msg.usage_metadata or {}
                usage = {"prompt_tokens": usage.get("input_tokens", 0),
                         "completion_tokens": usage.get("output_tokens", 0),
                         "total_tokens": usage.get("total_tokens", 0)}
                calls = wire_tool_calls(msg)
                content = msg.content if isinstance(msg.content, str) else json.dumps(msg.content)
                finish = "tool_calls" if calls else "stop"
                base = {"id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "created": int(time.time()),
                        "model": req["model"]}
                usage_part = {} if server.omit_usage else {"usage": usage}
                if not req.get("stream"):
                    message = {"role": "assistant", "content": content or None}
                    if calls:
                        message["tool_calls"] = calls
                    return self._json(200, {**base, "object": "chat.completion", **usage_part,
                                            "choices": [{"index": 0, "message": message, "finish_reason": finish}]})
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                chunk = {**base, "object": "chat.completion.chunk"}

                def send(delta: dict, finish_reason=None, **extra) -> None:
                    body = {**chunk, "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
                            **extra}
                    self.wfile.write(b"data: " + json.dumps(body).encode() + b"\n\n")

                send({"role": "assistant", "content": ""})
                words = content.split(" ") if content else []
                for i, word in enumerate(words):  # word by word, spaces kept exactly
                    send({"content": word if i == len(words) - 1 else word + " "})
                for i, c in enumerate(calls):
                    send({"tool_calls": [{"index": i, **c}]})
                send({}, finish)
                if (req.get("stream_options") or {}).get("include_usage") and not server.omit_usage:
                    self.wfile.write(b"data: " + json.dumps({**chunk, "choices": [], "usage": usage}).encode()
                                     + b"\n\n")
                self.wfile.write(b"data: [DONE]\n\n")

        return Handler

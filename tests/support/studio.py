"""Driving a `langgraph dev` server the way LangGraph Studio does, with langgraph-sdk:
stream a run with the chat's and the graph view's stream modes, collect what each shows,
and read the run's error and the thread's state afterwards."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# What Studio asks for: the chat view (messages as tuples, and as partial/complete
# messages), the graph view (values, updates), and custom progress events.
STUDIO_STREAM_MODES = ["values", "messages-tuple", "messages", "updates", "custom"]


@dataclass
class StudioRun:
    run_id: str | None = None
    error: dict | None = None  # the stream's error event: {"error": type name, "message": ...}
    token_chunks: list[tuple[str, dict]] = field(default_factory=list)  # (text, metadata) from messages-tuple
    # every messages-tuple event of any namespace: (event name, message type, id, text)
    message_events: list[tuple[str, str, str | None, str]] = field(default_factory=list)
    partial_messages: list[dict] = field(default_factory=list)  # messages/partial payloads
    updates: list[dict] = field(default_factory=list)
    custom: list[Any] = field(default_factory=list)
    values: dict | None = None  # the last values event
    events: list[str] = field(default_factory=list)

    @property
    def nodes(self) -> list[str]:
        return [n for u in self.updates for n in u]

    @property
    def chat_text(self) -> str:
        return "".join(t for t, _ in self.token_chunks)


async def stream_like_studio(client, thread_id: str, *, input: Any = None, command: dict | None = None,
                             context: dict | None = None, stream_modes: list[str] | None = None,
                             **kwargs: Any) -> StudioRun:
    out = StudioRun()
    async for part in client.runs.stream(thread_id, "deep_research", input=input, command=command,
                                         context=context, stream_mode=stream_modes or STUDIO_STREAM_MODES,
                                         **kwargs):
        event, data = part.event, part.data
        out.events.append(event)
        if event == "metadata" and isinstance(data, dict):
            out.run_id = data.get("run_id")
        elif event == "error":
            out.error = data
        elif event.split("|")[0] == "messages" and isinstance(data, list | tuple) and len(data) == 2:
            chunk, meta = data  # messages-tuple: [message or chunk, metadata]
            content = chunk.get("content")
            text = content if isinstance(content, str) else "".join(
                p.get("text", "") for p in content or [] if isinstance(p, dict))
            out.message_events.append((event, chunk.get("type", ""), chunk.get("id"), text))
            if event == "messages" and chunk.get("type") in ("ai", "AIMessageChunk"):
                out.token_chunks.append((text, meta))
        elif event.split("|")[0] == "messages/partial":
            out.partial_messages.extend(data)
        elif event.split("|")[0] == "updates" and isinstance(data, dict):
            out.updates.append(data)
        elif event.split("|")[0] == "custom":
            out.custom.append(data)
        elif event == "values" and isinstance(data, dict):
            out.values = data
    return out


def last_ai_message(values: dict) -> dict | None:
    for m in reversed(values.get("messages") or []):
        if m.get("type") == "ai":
            return m
    return None

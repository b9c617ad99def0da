"""What a generic LangGraph chat client shows, computed from a run's stream the way LangChain's
Agent Chat UI does (its ``useStream`` hook of @langchain/langgraph-sdk 1.8, read from its
source), so tests can check the chat without the client (CI has no copy of it).

The rules this model follows:

* a question is sent with stream modes ``values`` and ``messages-tuple`` and
  ``streamSubgraphs``; a button's decision (an interrupt's resume) without subgraphs;
* every ``values`` event, of the root graph or of any subgraph, replaces the whole thread
  view (a subgraph without ``messages`` blanks the chat);
* every ``messages-tuple`` event (any namespace) is merged by message id: the first event
  of an id adds the message at the end of the view, each later event of that id is
  concatenated to it as the next part of a streamed message;
* a message whose id starts with ``do-not-render-`` is not shown;
* an interrupt whose value has ``action_requests`` and ``review_configs`` gets buttons;
* the run's error shows as a toast that goes away: only messages stay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

HIDDEN_PREFIX = "do-not-render-"
SUBMIT_MODES = ["values", "messages-tuple"]


def text_of(message: dict) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    return "".join(p.get("text", "") for p in content or [] if isinstance(p, dict))


@dataclass
class ChatView:
    messages: list[dict] = field(default_factory=list)  # the thread view (values + merged message events)
    parts: dict[str, list[dict]] = field(default_factory=dict)  # message-tuple events by id
    shown: list[list[dict]] = field(default_factory=list)  # what the chat showed after each event
    events: list[tuple[str, Any]] = field(default_factory=list)
    error: dict | None = None
    interrupts: list[dict] = field(default_factory=list)

    def visible(self) -> list[dict]:
        return [m for m in self.messages if not str(m.get("id") or "").startswith(HIDDEN_PREFIX)]

    def _merge(self, message: dict) -> None:
        mid = message.get("id")
        if not mid:
            return
        parts = self.parts.setdefault(mid, [])
        parts.append(message)
        merged = {**parts[0], "content": "".join(text_of(p) for p in parts)}
        if merged.get("type") in ("AIMessageChunk",):
            merged["type"] = "ai"
        for i, m in enumerate(self.messages):
            if m.get("id") == mid:
                self.messages[i] = merged
                break
        else:
            self.messages.append(merged)

    def feed(self, event: str, data: Any) -> None:
        self.events.append((event, data))
        kind = event.split("|")[0]
        if kind == "error":
            self.error = data
        elif kind == "values" and isinstance(data, dict):
            if "__interrupt__" in data:
                self.interrupts = list(data["__interrupt__"])
            self.messages = [dict(m) for m in data.get("messages") or []]
        elif kind == "messages" and isinstance(data, list | tuple) and len(data) == 2:
            self._merge(dict(data[0]))
        else:
            return
        self.shown.append(self.visible())

    @property
    def message_event_ids(self) -> list[str]:
        return [d[0].get("id") for e, d in self.events if e.split("|")[0] == "messages" and len(d) == 2]


async def send(client, thread_id: str, assistant_id: str, *, text: str | None = None,
               resume: Any = None, view: ChatView | None = None) -> ChatView:
    """A question typed in the chat (``text``) or a button's decision (``resume``), streamed
    as the client streams it; the view it showed."""
    view = view or ChatView()
    if text is not None:
        kwargs: dict[str, Any] = {"input": {"messages": [{"type": "human", "content": text}]},
                                  "stream_subgraphs": True}
    else:
        kwargs = {"input": {}, "command": {"resume": resume}}
    async for part in client.runs.stream(thread_id, assistant_id, stream_mode=SUBMIT_MODES, **kwargs):
        view.feed(part.event, part.data)
    return view

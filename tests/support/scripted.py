"""A scripted chat model: stands in for the network in tests, not for our logic.

Every role gets a ``ScriptedChatModel`` sharing one :class:`Script`. A script is a list of
rules: (role, a text the prompt must contain, responses). Researchers run in parallel, so
rules are matched by prompt content rather than by call order. A response is an AIMessage,
a string, or a function of the prompt messages (for answers that depend on page text the
search returned). A call no rule answers fails the test loudly.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections import Counter, deque
from typing import Any, Callable, Iterator

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult

Response = AIMessage | str | Callable[[list[BaseMessage]], Any] | BaseException


def prompt_text(messages: list[BaseMessage]) -> str:
    parts = []
    for m in messages:
        c = m.content
        parts.append(c if isinstance(c, str) else json.dumps(c))
    return "\n".join(parts)


def tool_call(name: str, **args: Any) -> dict:
    return {"name": name, "args": args, "id": f"call_{uuid.uuid4().hex[:10]}", "type": "tool_call"}


def calls(*tool_calls: dict, content: str = "") -> AIMessage:
    return AIMessage(content=content, tool_calls=list(tool_calls))


def structured(schema_name: str, **fields: Any) -> AIMessage:
    """What a model answers when asked for a structured output through tool calling."""
    return calls(tool_call(schema_name, **fields))


def recording(log: list, response: Response) -> Callable[[list[BaseMessage]], Any]:
    """``response``, recording the prompt text of each call it answers in ``log``."""

    def respond(messages: list[BaseMessage]):
        log.append(prompt_text(messages))
        return response(messages) if callable(response) else response

    return respond


class Script:
    def __init__(self) -> None:
        self.rules: list[dict] = []
        self.calls: Counter = Counter()
        self.log: list[tuple[str, str]] = []
        self._lock = threading.Lock()

    def on(self, role: str, contains: str, *responses: Response, repeat: bool = False, name: str = "") -> "Script":
        """Answer calls of ``role`` whose prompt contains ``contains`` with ``responses`` in
        order (the last one again and again when repeat=True)."""
        self.rules.append({"role": role, "contains": contains, "responses": deque(responses),
                           "repeat": repeat, "name": name or contains[:40]})
        return self

    def respond(self, role: str, messages: list[BaseMessage]) -> AIMessage:
        text = prompt_text(messages)
        with self._lock:
            for rule in self.rules:
                if rule["role"] != role or rule["contains"] not in text or not rule["responses"]:
                    continue
                resp = rule["responses"][0] if rule["repeat"] and len(rule["responses"]) == 1 \
                    else rule["responses"].popleft()
                self.calls[role] += 1
                self.log.append((role, rule["name"]))
                break
            else:
                raise AssertionError(f"unscripted {role} call; prompt starts: {text[:300]!r}")
        if isinstance(resp, BaseException):
            raise resp
        if callable(resp):
            resp = resp(messages)
            if isinstance(resp, BaseException):
                raise resp
        msg = AIMessage(content=resp) if isinstance(resp, str) else resp
        tokens_in = len(text) // 4 + 1
        tokens_out = len(str(msg.content)) // 4 + 1 + 20 * len(msg.tool_calls or [])
        return msg.model_copy(update={
            "usage_metadata": {"input_tokens": tokens_in, "output_tokens": tokens_out,
                               "total_tokens": tokens_in + tokens_out},
            "id": msg.id or f"run-{uuid.uuid4().hex[:12]}",
        })


class ScriptedChatModel(GenericFakeChatModel):
    """GenericFakeChatModel that answers from a Script; bind_tools returns itself and
    streaming yields the tool calls as tool-call chunks."""

    role: str
    script: Any
    messages: Iterator[AIMessage | str] = iter(())

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> "ScriptedChatModel":
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self.script.respond(self.role, messages))])

    def _stream(self, messages, stop=None, run_manager=None, **kwargs) -> Iterator[ChatGenerationChunk]:
        msg = self.script.respond(self.role, messages)
        content = msg.content if isinstance(msg.content, str) else ""
        words = content.split(" ") if content else []
        for i, w in enumerate(words):
            token = w if i == len(words) - 1 else w + " "
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=token, id=msg.id))
            if run_manager:
                run_manager.on_llm_new_token(token, chunk=chunk)
            yield chunk
        tool_chunks = [
            {"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": i, "type": "tool_call_chunk"}
            for i, c in enumerate(msg.tool_calls or [])
        ]
        yield ChatGenerationChunk(message=AIMessageChunk(
            content="", id=msg.id, tool_call_chunks=tool_chunks, usage_metadata=msg.usage_metadata,
            chunk_position="last"))


def scripted_factory(script: Script):
    """A model factory for Deps: one scripted model per role."""
    models: dict[str, ScriptedChatModel] = {}

    def factory(spec: dict) -> ScriptedChatModel:
        role = spec["role"]
        if role not in models:
            models[role] = ScriptedChatModel(role=role, script=script)
        return models[role]

    return factory

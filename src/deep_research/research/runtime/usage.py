"""Token and cost accounting: a node's usage record, the state reducer that sums usage per
node, prices of a model's calls, and offline token estimates for replies that carry no
usage."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

from . import pricing as _pricing

# USD per million tokens (input, output), for the optional cost cap: see pricing.py.
PRICES_PER_MTOK = _pricing.PRICES_PER_MTOK


# --- usage -------------------------------------------------------------------------------
@dataclass
class Usage:
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    seconds: float = 0.0
    retries: int = 0  # transient failures (rate limit, 5xx, timeout, connection) retried
    cost_usd: float = 0.0
    repairs: int = 0  # malformed answers asked again (invalid structured output, empty reply)
    shortened: int = 0  # requests shortened after a context-length error
    estimated: int = 0  # calls whose reply carried no usage: their tokens are an estimate
    web_searches: int = 0  # web search requests a provider's search tool made (priced per use)

    def add(self, other: "Usage") -> None:
        self.calls += other.calls
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.seconds += other.seconds
        self.retries += other.retries
        self.cost_usd += other.cost_usd
        self.repairs += other.repairs
        self.shortened += other.shortened
        self.estimated += other.estimated
        self.web_searches += other.web_searches

    def any(self) -> bool:
        """Whether anything happened worth recording."""
        return bool(self.calls or self.retries or self.repairs or self.shortened or self.web_searches)

    def as_dict(self) -> dict:
        return {"calls": self.calls, "input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
                "seconds": round(self.seconds, 3), "retries": self.retries, "cost_usd": round(self.cost_usd, 6),
                "repairs": self.repairs, "shortened": self.shortened,
                **({"estimated": self.estimated} if self.estimated else {}),
                **({"web_searches": self.web_searches} if self.web_searches else {})}


def merge_usage(left: dict | None, right: dict | None) -> dict:
    """Reducer for state['usage']: {node: {calls, input_tokens, ...}} summed per node."""
    out = {k: dict(v) for k, v in (left or {}).items()}
    for node, u in (right or {}).items():
        cur = out.setdefault(node, {})
        for k, v in u.items():
            cur[k] = round(cur.get(k, 0) + v, 6) if isinstance(v, float) else cur.get(k, 0) + v
    return out


def total_tokens(usage: dict | None) -> int:
    return sum(u.get("input_tokens", 0) + u.get("output_tokens", 0) for u in (usage or {}).values())


def total_cost(usage: dict | None) -> float:
    return sum(u.get("cost_usd", 0.0) for u in (usage or {}).values())


def model_name(model: Any) -> str | None:
    """The model name a chat model (or a model with bound tools) reports."""
    name = getattr(model, "model_name", None) or getattr(model, "model", None)
    return name if isinstance(name, str) else None


def _price(model: BaseChatModel, configured: dict | None = None) -> tuple[float, float] | None:
    return _pricing.price_of(model_name(model), configured)


def _text_of(content: Any) -> str:
    if isinstance(content, list):
        return "".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return str(content or "")


def message_text(message: BaseMessage) -> str:
    return _text_of(message.content) if not isinstance(message.content, str) else message.content


# Pieces a BPE tokenizer (cl100k/o200k-like) keeps as about one token each: a short run of
# letters, up to three digits, one punctuation mark, one CJK/kana/hangul character, a line
# break run. Long words count one token per 6 letters. Offline and deterministic: tokenizer
# files are not downloaded at run time; the estimate is recorded as one ("estimated").
_TOKEN_PIECE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]"
                          r"|[^\W\d_]+|\d{1,3}|\n+|[^\w\s]|_")


def estimate_text_tokens(text: str) -> int:
    n = 0
    for m in _TOKEN_PIECE.finditer(text):
        piece = m.group()
        n += 1 + (len(piece) - 1) // 6 if piece[0].isalpha() and len(piece) > 1 else 1
    return n


def estimate_tokens(messages: Sequence[BaseMessage]) -> int:
    """Estimated prompt tokens of a request (text, tool calls, 4 tokens of framing a message)."""
    return sum(estimate_text_tokens(message_text(m)) + _tool_call_tokens(m) + 4 for m in messages)


def estimate_reply_tokens(reply: Any) -> int:
    text = message_text(reply) if isinstance(reply, BaseMessage) else str(getattr(reply, "content", reply))
    return max(1, estimate_text_tokens(text) + (_tool_call_tokens(reply) if isinstance(reply, BaseMessage) else 0))


def _tool_call_tokens(m: BaseMessage) -> int:
    calls = getattr(m, "tool_calls", None) or []
    return sum(estimate_text_tokens(f"{c.get('name')} {json.dumps(c.get('args'), ensure_ascii=False)}") + 3
               for c in calls)


def approx_tokens(messages: Sequence[BaseMessage]) -> int:
    """Cheap token estimate (4 characters a token) used for the summarisation threshold."""
    return sum(len(message_text(m)) for m in messages) // 4 + 4 * len(messages)


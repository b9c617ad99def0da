"""Chat models: construction, bounded retries, structured answers, token accounting.

Every model call of the graph goes through :class:`Meter`, which
* retries transient failures (rate limits, 5xx, timeouts, refused connections) with
  exponential backoff and jitter, a bounded number of times, under an explicit timeout;
* on a context-length error shortens the request and tries again (bounded);
* re-asks, a bounded number of times, when an answer is malformed (no valid structured
  answer, or an empty reply where text is needed);
* records calls, tokens, seconds, retries, repairs and shortenings per node, so cost and
  trouble are visible in state and the CLI.
The provider client's own retries are switched off so retries do not multiply.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any, Sequence, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.constants import TAG_NOSTREAM
from pydantic import BaseModel, ValidationError

from ...errors import mask_url_credentials, redact
from . import pricing as _pricing
from . import tracing
from .usage import (
    Usage,
    _price,
    _text_of,
    estimate_reply_tokens,
    estimate_tokens,
    message_text,
    model_name,
)

log = logging.getLogger(__name__)


T = TypeVar("T", bound=BaseModel)


class ModelCallError(Exception):
    """A model call failed for good (after retries). ``transient`` says whether retrying
    later might help (rate limits, outages) rather than a bad request."""

    def __init__(self, message: str, *, transient: bool = False, role: str | None = None):
        super().__init__(message)
        self.transient = transient
        self.role = role


class StructuredOutputError(ModelCallError):
    """The model did not produce the structured answer asked for."""


class BudgetExceeded(ModelCallError):
    """A model call was not made: with its estimated tokens (or cost) the run would pass its
    cap (max_total_tokens, max_cost_usd). A ModelCallError, so a caller that copes with a
    failed call copes with this one; callers that can stop early catch it first. ``kind``:
    "token" or "cost"."""

    def __init__(self, message: str, *, kind: str = "token"):
        super().__init__(message)
        self.kind = kind


# A call's reply, estimated before the call for the caps: the node's average so far, else
# this share of the model's output limit (its max_tokens), else this many tokens.
REPLY_SHARE = 4
REPLY_DEFAULT = 1000


def max_output_tokens(model: Any) -> int | None:
    """The output limit a chat model (or a model with bound tools) was built with."""
    for _ in range(4):
        for name in ("max_tokens", "max_output_tokens", "num_predict"):
            v = getattr(model, name, None)
            if isinstance(v, int) and not isinstance(v, bool) and v > 0:
                return v
        model = getattr(model, "bound", None)
        if model is None:
            return None
    return None


# --- error classification -----------------------------------------------------------------
_CONTEXT_RE = re.compile(r"context.length|maximum context|context window|too many tokens|prompt is too long|"
                         r"reduce the length", re.I)


def _status(e: BaseException) -> int | None:
    for attr in ("status_code", "status", "http_status"):
        v = getattr(e, attr, None)
        if isinstance(v, int):
            return v
    resp = getattr(e, "response", None)
    v = getattr(resp, "status_code", None)
    return v if isinstance(v, int) else None


def is_context_length_error(e: BaseException) -> bool:
    code = getattr(e, "code", None)
    if code == "context_length_exceeded":
        return True
    if any(c.__name__ == "ContextOverflowError" for c in type(e).__mro__):  # langchain-core's, any provider
        return True
    return (_status(e) in (400, 413, None)) and bool(_CONTEXT_RE.search(str(e)))


def is_transient(e: BaseException) -> bool:
    if isinstance(e, (asyncio.TimeoutError, TimeoutError, ConnectionError)):
        return True
    if getattr(type(e), "is_retryable", None) is True:  # langchain-core's ModelError classes (5xx, 429, ...)
        return True
    # by class name along the hierarchy: provider packages subclass the SDK's errors
    # (langchain-openai raises OpenAIConnectionError, an openai.APIConnectionError)
    names = {c.__name__ for c in type(e).__mro__}
    if names & {"RateLimitError", "APITimeoutError", "APIConnectionError", "InternalServerError",
                "ServiceUnavailableError", "ConnectError", "ReadTimeout", "ConnectTimeout", "RemoteProtocolError",
                "ReadError", "PoolTimeout", "ModelRateLimitError", "ModelConnectionError", "ModelTimeoutError"}:
        return True
    status = _status(e)
    return status is not None and (status == 429 or status == 408 or status >= 500)


def describe(e: BaseException) -> str:
    """A short description of an error that never includes credentials."""
    return redact(f"{type(e).__name__}: {e}")[:500]


def _unanswered(e: BaseException, timeout_s: float) -> str:
    """What a model call that got no answer says beside its error: the address it went to
    (a connection error said only "Connection error.", whichever of the roles' servers was
    down), or the time bound it outlived (asyncio's TimeoutError said nothing at all)."""
    if isinstance(e, (asyncio.TimeoutError, TimeoutError)) and not str(e):
        return f" (no answer within {timeout_s:g} s: request_timeout_s)"
    url = getattr(getattr(e, "request", None), "url", None)
    if url is None or not any(w in type(e).__name__ for w in ("Connect", "Timeout")):
        return ""
    if on_server():  # the server's own endpoint is not shown to the users of its chat
        return " (the model's server could not be reached)"
    return f" ({redact(mask_url_credentials(str(url)))[:300]})"


def on_server() -> bool:
    """Whether this call is part of a run of a LangGraph server (a chat), not the CLI's."""
    try:
        from langgraph.config import get_config

        from .chat import run_id

        return run_id(get_config()) is not None
    except Exception:  # noqa: BLE001 - outside a run
        return False


# --- calls -------------------------------------------------------------------------------
def _shorten(messages: list[BaseMessage]) -> list[BaseMessage] | None:
    """Halve the longest message (keeping its start and end), or, when no message is long,
    drop the oldest turn of the conversation; None if nothing is left to cut.

    Only messages before the last AI message are old turns: the request itself (a task and
    e.g. an appended JSON instruction) is never dropped, which would leave the model
    answering an instruction without its task. An AI message with tool calls is dropped
    together with the tool results that answer it (a provider rejects unpaired ones)."""
    longest = max(range(len(messages)), key=lambda i: len(str(messages[i].content)), default=None)
    if longest is None:
        return None
    content = messages[longest].content
    if not isinstance(content, str) or len(content) < 2000:
        last_ai = max((i for i, m in enumerate(messages) if isinstance(m, AIMessage)), default=0)
        for i, m in enumerate(messages[:last_ai]):
            if isinstance(m, SystemMessage):
                continue
            drop = {i}
            if isinstance(m, AIMessage) and m.tool_calls:
                ids = {c.get("id") for c in m.tool_calls}
                drop |= {j for j, t in enumerate(messages)
                         if isinstance(t, ToolMessage) and t.tool_call_id in ids}
            return [x for j, x in enumerate(messages) if j not in drop]
        return None
    keep = len(content) // 4
    short = content[:keep] + "\n\n[... shortened to fit the model's context window ...]\n\n" + content[-keep:]
    copy = messages[longest].model_copy(update={"content": short})
    return messages[:longest] + [copy] + messages[longest + 1 :]


@dataclass
class Meter:
    """Calls models for one node and accounts for them."""

    node: str
    timeout_s: float = 120.0
    max_retries: int = 3
    backoff_s: float = 1.0
    usage: Usage = field(default_factory=Usage)
    max_context_retries: int = 3
    max_backoff_s: float = 30.0
    # Prices the run configures (model_prices), looked up before the built-in table.
    prices: dict | None = None
    # Charged for a model whose reported name has no price while a cost cap is set (the
    # highest price of the run's configured models), so the cap always counts every call.
    fallback_price: tuple[float, float] | None = None
    structured_retries: int = 1  # re-asks for a missing or invalid structured answer (JSON text)
    # What this node may still spend (None: no cap): the run's cap less what the run used, or
    # a research unit's share. A call whose estimate would pass it is not made (BudgetExceeded).
    token_limit: int | None = None
    cost_limit: float | None = None
    _reserved: list = field(default_factory=lambda: [0, 0.0], repr=False)  # calls in flight

    def backoff(self, attempt: int) -> float:
        """Delay before retry ``attempt`` (1, 2, ...): exponential, capped, with jitter."""
        return min(self.backoff_s * (2 ** (attempt - 1)), self.max_backoff_s) * (0.5 + random.random())

    def estimate(self, model: Any, msgs: Sequence[BaseMessage]) -> tuple[int, int]:
        """(prompt, reply) tokens a call is expected to use: the prompt estimated offline, the
        reply as this node's replies averaged so far, else a quarter of the model's output
        limit (a report writer allowed 12,000 tokens: 3,000)."""
        if self.usage.calls:
            reply = max(1, self.usage.output_tokens // self.usage.calls)
        else:
            limit = max_output_tokens(model)
            reply = limit // REPLY_SHARE if limit else REPLY_DEFAULT
        return estimate_tokens(msgs), reply

    def _reserve(self, model: Any, msgs: Sequence[BaseMessage]) -> tuple[int, float]:
        """Check a call against the caps before it is made, and hold its estimate while it
        runs (parallel calls of one node see each other); BudgetExceeded when it would pass."""
        if self.token_limit is None and self.cost_limit is None:
            return 0, 0.0
        prompt, reply = self.estimate(model, msgs)
        need = prompt + reply
        price = _price(model, self.prices) or self.fallback_price
        cost = _pricing.cost_usd(price, prompt, reply) if price else 0.0
        if self.token_limit is not None:
            left = self.token_limit - self.usage.input_tokens - self.usage.output_tokens - self._reserved[0]
            if need > left:
                raise BudgetExceeded(f"{self.node}: a model call of about {need:,} tokens was not made: it would pass "
                                     f"the token cap (max_total_tokens; {max(left, 0):,} tokens left here)", kind="token")
        if self.cost_limit is not None and price:
            left_usd = self.cost_limit - self.usage.cost_usd - self._reserved[1]
            if cost > left_usd:
                raise BudgetExceeded(f"{self.node}: a model call of about ${cost:.4f} was not made: it would pass "
                                     f"the cost cap (max_cost_usd; ${max(left_usd, 0.0):.4f} left here)", kind="cost")
        self._reserved[0] += need
        self._reserved[1] += cost
        return need, cost

    async def invoke(self, model: BaseChatModel, messages: Sequence[BaseMessage], **kwargs: Any) -> AIMessage:
        """One model call (an OpenTelemetry span ``chat <model>`` around it, tracing.py)."""
        name = model_name(model) or type(model).__name__
        with tracing.span(f"chat {name}", {"gen_ai.operation.name": "chat", "gen_ai.request.model": name,
                                          "deep_research.node": self.node}) as current:
            return await self._invoke(model, messages, current, **kwargs)

    async def _invoke(self, model: BaseChatModel, messages: Sequence[BaseMessage], span: Any,
                      **kwargs: Any) -> AIMessage:
        msgs = list(messages)
        attempt = shortened = 0
        last_said = None  # what the last retry's warning said of its error
        while True:
            held = self._reserve(model, msgs)  # each attempt is a call: each is checked against the caps
            t0 = time.perf_counter()
            try:
                # "nostream": internal calls stay out of the chat's "messages" stream (Studio);
                # the chat gets the report as one message, progress comes as updates/custom events
                result = await asyncio.wait_for(model.ainvoke(msgs, config={"tags": [TAG_NOSTREAM]}, **kwargs),
                                                timeout=self.timeout_s)
            except Exception as e:  # classified below; nothing is swallowed
                self._release(held)
                self.usage.seconds += time.perf_counter() - t0
                if is_context_length_error(e) and shortened < self.max_context_retries:
                    cut = _shorten(msgs)
                    if cut is not None:
                        shortened += 1
                        self.usage.shortened += 1
                        log.warning("%s: context too long, shortening the request (%d)", self.node, shortened)
                        msgs = cut
                        continue
                said = describe(e)
                if is_transient(e) and attempt < self.max_retries:
                    attempt += 1
                    self.usage.retries += 1
                    delay = self.backoff(attempt)
                    # an error body (a server's 500 page) is said once, not again on every retry
                    log.warning("%s: %s; retry %d/%d in %.1fs", self.node,
                                "the same error again" if said == last_said else said, attempt,
                                self.max_retries, delay)
                    last_said = said
                    await asyncio.sleep(delay)
                    continue
                after = f" (given up after {attempt} retr{'y' if attempt == 1 else 'ies'})" if attempt else ""
                raise ModelCallError(f"{self.node}: model call failed: {said.rstrip()}{_unanswered(e, self.timeout_s)}{after}",
                                     transient=is_transient(e)) from e
            self._release(held)
            self.usage.seconds += time.perf_counter() - t0
            self.usage.calls += 1
            meta = getattr(result, "usage_metadata", None) or {}
            inp, out = int(meta.get("input_tokens", 0) or 0), int(meta.get("output_tokens", 0) or 0)
            if not (inp or out):  # the server sent no usage: estimated, and recorded as such
                inp, out = estimate_tokens(msgs), estimate_reply_tokens(result)
                self.usage.estimated += 1
            self.usage.input_tokens += inp
            self.usage.output_tokens += out
            price = _price(model, self.prices) or self.fallback_price
            cost = _pricing.cost_usd(price, inp, out) if price else 0.0
            self.usage.cost_usd += cost
            tracing.set_attributes(span, {
                "gen_ai.usage.input_tokens": inp, "gen_ai.usage.output_tokens": out,
                "deep_research.cost_usd": round(cost, 8), "deep_research.retries": attempt,
                "deep_research.shortened": shortened, "deep_research.estimated": not meta or None,
                "gen_ai.response.model": (getattr(result, "response_metadata", None) or {}).get("model_name")})
            if not isinstance(result, AIMessage):
                result = AIMessage(content=str(getattr(result, "content", result)))
            return result

    def _release(self, held: tuple[int, float]) -> None:
        self._reserved[0] -= held[0]
        self._reserved[1] -= held[1]

    def record(self, model: str, input_tokens: int, output_tokens: int, seconds: float, *,
               estimated: bool = False) -> None:
        """A model call made outside :meth:`invoke` (a search backend's own model, such as
        the Responses API web search), counted and priced like the others."""
        self.usage.calls += 1
        self.usage.seconds += seconds
        self.usage.input_tokens += input_tokens
        self.usage.output_tokens += output_tokens
        self.usage.estimated += int(estimated)
        price = _pricing.price_of(model, self.prices) or self.fallback_price
        if price:
            self.usage.cost_usd += _pricing.cost_usd(price, input_tokens, output_tokens)

    def record_searches(self, count: int, price_usd: float) -> None:
        """Web search requests a provider's search tool made (billed per use, besides the
        model's tokens): counted, and charged ``price_usd`` each."""
        if count > 0:
            self.usage.web_searches += count
            self.usage.cost_usd += count * max(price_usd, 0.0)
            tracing.add_to_current_span({"deep_research.web_searches": count,
                                         "deep_research.web_search_cost_usd": round(count * max(price_usd, 0.0), 8)})

    async def text(self, model: BaseChatModel, messages: Sequence[BaseMessage], *, what: str = "text",
                   max_repairs: int = 1) -> str:
        """The reply's text, asked again (bounded) when the model answers with nothing;
        ModelCallError when the text stays empty, so callers never build on an empty answer."""
        for attempt in range(max_repairs + 1):
            reply = await self.invoke(model, messages)
            text = message_text(reply).strip()
            if text:
                return text
            if attempt < max_repairs:
                self.usage.repairs += 1
                log.warning("%s: empty %s from the model; asking again", self.node, what)
        raise ModelCallError(f"{self.node}: the model returned an empty {what} "
                             f"({max_repairs + 1} attempt(s))")

    async def structured(self, model: BaseChatModel, schema: type[T], messages: Sequence[BaseMessage],
                         method: str = "auto") -> T:
        """A validated instance of schema. Tool calling first (unless told otherwise), then
        JSON in the reply text, then one repair round; works on servers without native
        JSON-schema or tool support."""
        msgs = list(messages)
        errors: list[str] = []
        if method in ("auto", "tools"):
            try:
                bound = model.bind_tools([schema], tool_choice=schema.__name__)
            except (NotImplementedError, TypeError, ValueError) as e:
                errors.append(f"tool binding unavailable: {e}")
                bound = None
            if bound is not None:
                try:
                    reply = await self.invoke(bound, msgs)
                except ModelCallError as e:
                    if e.transient or method == "tools":
                        raise
                    errors.append(str(e))  # e.g. the server rejects tools: fall back to JSON text
                    reply = None
                if reply is not None:
                    parsed = _from_reply(reply, schema, errors)
                    if parsed is not None:
                        return parsed
                    self.usage.repairs += 1  # asked again below, as JSON text
        elif method == "json_schema":
            runnable = model.with_structured_output(schema, method="json_schema", include_raw=True)
            out = await self.invoke(_RawStructured(runnable), msgs)
            parsed = _from_reply(out, schema, errors)
            if parsed is not None:
                return parsed
            self.usage.repairs += 1  # asked again below, as JSON text
        prompt = msgs + [HumanMessage(_json_instruction(schema))]
        kwargs = {"response_format": {"type": "json_object"}} if method == "json_mode" else {}
        for attempt in range(self.structured_retries + 1):
            reply = await self.invoke(model, prompt, **kwargs)
            parsed = _from_reply(reply, schema, errors)
            if parsed is not None:
                return parsed
            if attempt == self.structured_retries:
                break
            self.usage.repairs += 1
            prompt = prompt + [reply, HumanMessage(
                f"That was not valid. Problem: {(errors or ['no answer'])[-1][:500]}\n" + _json_instruction(schema))]
        raise StructuredOutputError(f"{self.node}: no valid {schema.__name__} from the model: "
                                    + " | ".join(e[:200] for e in errors[-3:]))


# The meter of the node a search runs for: a search backend that calls a model itself
# (research/gather/web_search.py) reports the call here (NodeContext.run_search sets it).
CURRENT_METER: contextvars.ContextVar[Meter | None] = contextvars.ContextVar("deep_research_meter", default=None)


def record_model_call(model: str, input_tokens: int, output_tokens: int, seconds: float, *,
                      estimated: bool = False, searches: int = 0, search_price_usd: float = 0.0) -> None:
    meter = CURRENT_METER.get()
    if meter is None:
        log.warning("a %s call of %d tokens was made outside a metered node", model, input_tokens + output_tokens)
        return
    meter.record(model, input_tokens, output_tokens, seconds, estimated=estimated)
    meter.record_searches(searches, search_price_usd)


class _RawStructured:
    """Adapter so with_structured_output(include_raw=True) goes through Meter.invoke."""

    def __init__(self, runnable):
        self.runnable = runnable

    async def ainvoke(self, msgs, **kwargs):
        out = await self.runnable.ainvoke(msgs, **kwargs)
        raw = out.get("raw") if isinstance(out, dict) else None
        parsed = out.get("parsed") if isinstance(out, dict) else None
        msg = raw if isinstance(raw, AIMessage) else AIMessage(content="")
        if parsed is not None:
            msg = msg.model_copy(update={"content": json.dumps(
                parsed.model_dump() if isinstance(parsed, BaseModel) else parsed)})
        return msg


def _json_instruction(schema: type[BaseModel]) -> str:
    return ("Reply with only one JSON object (no prose, no code fence) that matches this JSON schema:\n"
            + json.dumps(schema.model_json_schema(), ensure_ascii=False))


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


_MAX_JSON_STARTS = 200


def extract_json(text: str) -> Any:
    """The first JSON object in a reply (bare, fenced, or surrounded by prose)."""
    text = text.strip()
    for candidate in [text] + [m.group(1) for m in _FENCE.finditer(text)]:
        try:
            return json.loads(candidate)
        except (ValueError, RecursionError):  # a model's JSON nested 100,000 deep is not an answer
            continue
    # Prose around the object: try each "{" in turn (prose may hold braces of its own),
    # letting the JSON decoder find where the object ends.
    decoder = json.JSONDecoder()
    start = text.find("{")
    for _ in range(_MAX_JSON_STARTS):
        if start == -1:
            break
        try:
            value, _end = decoder.raw_decode(text, start)
            if isinstance(value, dict):
                return value
        except (ValueError, RecursionError):
            pass
        start = text.find("{", start + 1)
    raise ValueError("no JSON object found in the reply")


def _from_reply(reply: AIMessage, schema: type[T], errors: list[str]) -> T | None:
    for call in getattr(reply, "tool_calls", None) or []:
        if call.get("name") == schema.__name__:
            try:
                return schema.model_validate(call.get("args") or {})
            except ValidationError as e:
                errors.append(f"tool arguments invalid: {e}")
    content = reply.content if isinstance(reply.content, str) else _text_of(reply.content)
    if content and content.strip():
        try:
            data = extract_json(content)
            return schema.model_validate(data)
        except (ValueError, ValidationError) as e:
            errors.append(f"reply text is not a valid {schema.__name__}: {e}")
    elif getattr(reply, "tool_calls", None):
        names = sorted({str(c.get("name")) for c in reply.tool_calls} - {schema.__name__})
        if names:
            errors.append(f"the reply called {', '.join(names)} instead of giving a {schema.__name__}")
    elif getattr(reply, "invalid_tool_calls", None):
        errors.append(f"the reply's tool call arguments are not valid JSON: "
                      f"{str(reply.invalid_tool_calls[0].get('error') or '')[:200]}")
    else:
        errors.append("empty reply")
    return None


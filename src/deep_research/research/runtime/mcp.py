"""Optional MCP tools for researchers (langchain-mcp-adapters).

Only tools named in the configuration's allowlist are offered, because an MCP server may
expose tools with side effects; a model is never handed anything beyond search-like
reading. Their output is shown to the researcher as notes: it is not a fetched page, so it
cannot be cited (citations must point at page text a reader can open).

Configuration (``mcp_config``)::

    {"url": "http://localhost:8001/mcp", "transport": "streamable_http",
     "tools": ["search_papers"], "headers_env": {"Authorization": "MCP_TOKEN"}}

``headers_env`` maps header names to environment variables, so tokens stay out of state.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import time
from typing import Any

import httpx

from ...errors import UserError, mask_url_credentials, redact
from ...lru import LRU
from ..prompts import as_data

MAX_OUTPUT_CHARS = 20_000
# The most an MCP server's HTTP response may hold (a session is opened per call: its tool
# list, a tool's answer). The client read a whole answer before MAX_OUTPUT_CHARS cut it: a
# 30 MB answer took 550 MB of memory, a larger one could end the process.
MAX_RESPONSE_BYTES = 4_000_000
LOAD_TIMEOUT_S = 20.0
RETRY_FAILED_LOAD_AFTER_S = 60.0  # a server that is down is not asked again at every step
_TOOLS_CACHE: dict[str, list] = {}
_FAILED: dict[str, tuple[float, str]] = {}


log = logging.getLogger(__name__)


def _failed(key: str, message: str) -> None:
    """A load that failed: kept (not tried again for a while) and logged once per failure,
    not at every research step that finds it failed."""
    _FAILED[key] = (time.monotonic(), message)
    log.warning("%s; researching without it", message)


_LOADING: LRU[str, tuple[asyncio.AbstractEventLoop, asyncio.Lock]] = LRU(256)


def _one_load(key: str) -> asyncio.Lock:
    """The lock of loading ``key`` in the running event loop (a lock belongs to one loop)."""
    loop = asyncio.get_running_loop()
    held = _LOADING.get(key)
    if held is None or held[0] is not loop:
        held = _LOADING[key] = (loop, asyncio.Lock())
    return held[1]


def _shown_url(conf: dict) -> str:
    return mask_url_credentials(conf["url"])  # a password in the URL is not in any message


class MCPUnavailable(Exception):
    """The MCP server could not be reached or listed its tools wrongly."""


def _key(conf: dict) -> str:
    return repr(sorted((k, repr(v)) for k, v in conf.items()))


def validate(conf: dict | None) -> dict | None:
    if not conf:
        return None
    if not isinstance(conf, dict) or not isinstance(conf.get("url"), str):
        raise UserError("mcp_config needs a \"url\"")
    transport = conf.get("transport", "streamable_http")
    if transport not in ("streamable_http", "sse"):
        raise UserError("mcp_config transport must be \"streamable_http\" or \"sse\"")
    tools = conf.get("tools")
    if not isinstance(tools, list) or not tools or not all(isinstance(t, str) for t in tools):
        raise UserError("mcp_config needs \"tools\": a non-empty list of the tool names researchers may use")
    return {**conf, "transport": transport}


def _connection(conf: dict) -> dict[str, Any]:
    """The MCP client's connection for a validated configuration; header values come from
    the environment variables the configuration names (never from the configuration)."""
    headers = {h: os.environ.get(var, "") for h, var in (conf.get("headers_env") or {}).items()}
    connection: dict[str, Any] = {"url": conf["url"], "transport": conf["transport"],
                                  "httpx_client_factory": _capped_client}
    if headers:
        connection["headers"] = headers
    return connection


class MCPResponseTooLarge(Exception):
    """An MCP server's response went past :data:`MAX_RESPONSE_BYTES`."""

    def __init__(self) -> None:
        super().__init__(f"it answered more than {MAX_RESPONSE_BYTES:,} bytes")


# Set while a call waits (:func:`_bounded`): the MCP client reads a response in a task of its
# own and does not pass a failed read on (the call would wait for its timeout).
_CUT_OFF: contextvars.ContextVar[asyncio.Event | None] = contextvars.ContextVar("mcp_cut_off", default=None)


async def _bounded(coro: Any, timeout_s: float) -> Any:
    """``coro``'s result; raises TimeoutError after ``timeout_s``, and MCPResponseTooLarge as
    soon as a response it reads goes past :data:`MAX_RESPONSE_BYTES`."""
    cut = asyncio.Event()
    token = _CUT_OFF.set(cut)
    try:
        call = asyncio.ensure_future(coro)  # copies the context: its reads see ``cut``
    finally:
        _CUT_OFF.reset(token)
    stop = asyncio.ensure_future(cut.wait())
    try:
        await asyncio.wait({call, stop}, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.cancel()
        if not call.done():
            call.cancel()
            await asyncio.gather(call, return_exceptions=True)
    if cut.is_set():
        raise MCPResponseTooLarge()
    if not call.done() or call.cancelled():
        raise TimeoutError
    return call.result()


class _CappedStream(httpx.AsyncByteStream):
    def __init__(self, stream: Any, limit: int):
        self._stream, self._limit = stream, limit

    async def __aiter__(self):
        seen = 0
        async for chunk in self._stream:
            seen += len(chunk)
            if seen > self._limit:
                cut = _CUT_OFF.get()
                if cut is not None:
                    cut.set()
                raise MCPResponseTooLarge()
            yield chunk

    async def aclose(self) -> None:
        await self._stream.aclose()


class _CappedTransport(httpx.AsyncBaseTransport):
    """A transport whose responses stop with :class:`MCPResponseTooLarge` past ``limit`` bytes."""

    def __init__(self, limit: int):
        self._inner, self._limit = httpx.AsyncHTTPTransport(), limit

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        return httpx.Response(response.status_code, headers=response.headers, extensions=response.extensions,
                              stream=_CappedStream(response.stream, self._limit))

    async def aclose(self) -> None:
        await self._inner.aclose()


def _capped_client(headers: dict[str, str] | None = None, timeout: httpx.Timeout | None = None,
                   auth: httpx.Auth | None = None) -> httpx.AsyncClient:
    """The MCP client's HTTP client (as ``mcp``'s own: its timeouts, headers and auth), whose
    responses are cut off at :data:`MAX_RESPONSE_BYTES`."""
    from mcp.shared._httpx_utils import MCP_DEFAULT_SSE_READ_TIMEOUT, MCP_DEFAULT_TIMEOUT

    return httpx.AsyncClient(
        timeout=timeout or httpx.Timeout(MCP_DEFAULT_TIMEOUT, read=MCP_DEFAULT_SSE_READ_TIMEOUT),
        headers=headers, auth=auth, transport=_CappedTransport(MAX_RESPONSE_BYTES))


async def load_tools(conf: dict | None, timeout_s: float) -> list:
    """The allowed MCP tools (LangChain tools), loaded once per configuration.

    Raises UserError for a bad configuration and MCPUnavailable when the server fails."""
    conf = validate(conf)
    if conf is None:
        return []
    key = _key(conf)
    if key in _TOOLS_CACHE:
        return _TOOLS_CACHE[key]
    async with _one_load(key):  # parallel research units wait for one attempt, and see its result
        return await _load_tools(conf, key, timeout_s)


async def _load_tools(conf: dict, key: str, timeout_s: float) -> list:
    if key in _TOOLS_CACHE:
        return _TOOLS_CACHE[key]
    failed = _FAILED.get(key)
    if failed and time.monotonic() - failed[0] < RETRY_FAILED_LOAD_AFTER_S:
        raise MCPUnavailable(failed[1])
    from langchain_mcp_adapters.client import MultiServerMCPClient

    connection = _connection(conf)
    wait = min(timeout_s, LOAD_TIMEOUT_S)
    try:
        client = MultiServerMCPClient({"mcp": connection})
        tools = await _bounded(client.get_tools(), wait)
    except Exception as e:  # noqa: BLE001 - any failure of the server is reported the same way
        why = "timed out" if isinstance(e, (asyncio.TimeoutError, TimeoutError)) else _exception_text(e)
        message = f"MCP server {_shown_url(conf)} unavailable: {why}"
        _failed(key, message)
        raise MCPUnavailable(message) from None
    allowed = set(conf["tools"])
    chosen = [t for t in tools if t.name in allowed]
    missing = sorted(allowed - {t.name for t in chosen})
    if missing:
        message = f"MCP server {_shown_url(conf)} has no tool named {', '.join(missing)}"
        _failed(key, message)
        raise MCPUnavailable(message)
    _FAILED.pop(key, None)
    _TOOLS_CACHE[key] = chosen
    return chosen


_PROMPT_CACHE: dict[str, str] = {}
MAX_PROMPT_CHARS = 8_000


async def load_prompt(conf: dict | None, name: str, timeout_s: float) -> str:
    """The text of the MCP server's prompt ``name`` (``mcp_prompt``), loaded once per
    configuration. Raises UserError for a bad configuration and MCPUnavailable when the
    server fails or has no such prompt."""
    conf = validate(conf)
    if conf is None:
        raise UserError("mcp_prompt needs mcp_config (the MCP server that has the prompt)")
    key = _key(conf) + "|prompt|" + name
    if key in _PROMPT_CACHE:
        return _PROMPT_CACHE[key]
    async with _one_load(key):
        return await _load_prompt(conf, name, key, timeout_s)


async def _load_prompt(conf: dict, name: str, key: str, timeout_s: float) -> str:
    if key in _PROMPT_CACHE:
        return _PROMPT_CACHE[key]
    failed = _FAILED.get(key)
    if failed and time.monotonic() - failed[0] < RETRY_FAILED_LOAD_AFTER_S:
        raise MCPUnavailable(failed[1])
    from langchain_mcp_adapters.client import MultiServerMCPClient

    connection = _connection(conf)
    try:
        client = MultiServerMCPClient({"mcp": connection})
        messages = await _bounded(client.get_prompt("mcp", name), min(timeout_s, LOAD_TIMEOUT_S))
    except Exception as e:  # noqa: BLE001 - any failure of the server is reported the same way
        why = "timed out" if isinstance(e, (asyncio.TimeoutError, TimeoutError)) else _exception_text(e)
        message = f"MCP prompt {name!r} of {_shown_url(conf)} unavailable: {why}"
        _failed(key, message)
        raise MCPUnavailable(message) from None
    text = "\n\n".join(_result_text(m.content) for m in messages).strip()[:MAX_PROMPT_CHARS]
    _FAILED.pop(key, None)
    _PROMPT_CACHE[key] = text
    return text


def _exception_text(e: BaseException) -> str:
    # anyio task groups wrap the real error: report the innermost one
    while isinstance(e, BaseExceptionGroup) and e.exceptions:
        e = e.exceptions[0]
    # one line: an httpx error's text holds line breaks (it is shown in a warning and a report's limitations)
    return redact(" ".join(f"{type(e).__name__}: {e}".split()))[:300]


async def call_tool(tool, args: dict, timeout_s: float) -> str:
    """Run one MCP tool call; its output, marked as not citable. Raises on failure or timeout."""
    try:
        result = await _bounded(tool.ainvoke(args), timeout_s)
    except (asyncio.TimeoutError, TimeoutError):
        raise MCPUnavailable(f"MCP tool {tool.name} timed out after {timeout_s:g} s") from None
    except Exception as e:  # noqa: BLE001 - reported to the researcher and recorded by the caller
        raise MCPUnavailable(f"MCP tool {tool.name} failed: {_exception_text(e)}") from None
    text = _result_text(result)
    if len(text) > MAX_OUTPUT_CHARS:
        text = text[:MAX_OUTPUT_CHARS] + "\n[... truncated ...]"
    return ("Tool output (notes only: it is not a page and cannot be cited):\n<tool_output>\n"
            + as_data(text) + "\n</tool_output>")  # a server's text cannot close the block


def _result_text(result: Any) -> str:
    if isinstance(result, str):
        return result
    if isinstance(result, tuple) and result:  # (content, artifact) from some adapters
        return _result_text(result[0])
    if isinstance(result, list):  # content blocks
        return "\n".join(b.get("text", "") if isinstance(b, dict) else _result_text(b) for b in result)
    return str(result)

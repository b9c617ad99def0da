"""Tracing: LangSmith and OpenTelemetry, both off unless the environment turns them on.

**LangSmith.** LangChain traces every graph run, node and model call when the environment
sets ``LANGSMITH_TRACING=true`` (with ``LANGSMITH_API_KEY``, optionally
``LANGSMITH_PROJECT`` and ``LANGSMITH_ENDPOINT``); nothing here starts it. What a trace
holds is decided here: every value sent (inputs, outputs, metadata, errors) goes through
:func:`scrub`, installed as the LangSmith client's anonymizer. It always removes the values
of secret environment variables (API keys, tokens: :data:`deep_research.errors.SECRET_ENV_NAMES`)
and, unless ``trace_content`` is on, replaces text with its length: prompts, page text,
quotes, model answers and queries stay on this machine, while the run tree, node and model
names, ids, token usage and timings are kept. ``trace_content`` is a setting of the
environment (``DEEP_RESEARCH_TRACE_CONTENT=true``; a run on a server cannot turn it on,
see setting_policy.py) or of the command line.

**OpenTelemetry** (the ``otel`` extra: ``uv sync --extra otel``). Spans per node
(``node <name>``), per model call (``chat <model>``, GenAI semantic-convention attributes:
model, token usage; plus cost, retries and the node) and per search (``search <backend>``:
results, billed web searches), with the thread id. They are exported over OTLP/HTTP when
the environment names a collector (``OTEL_EXPORTER_OTLP_ENDPOINT`` or
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``; the exporter reads the other standard
``OTEL_EXPORTER_OTLP_*`` variables itself) and no other tracer provider is set in the
process (a host application's provider is used as it is). Attributes never hold text
(question, prompts, pages, answers); a search's query only with ``trace_content``.
Without the extra, spans cost nothing: only opentelemetry-api is needed to make them, and
without it they are not made.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Iterator, Mapping
from typing import Any

from langgraph.errors import GraphBubbleUp

from ...errors import redact

log = logging.getLogger(__name__)

ENV_TRACE_CONTENT = "DEEP_RESEARCH_TRACE_CONTENT"
OTLP_ENDPOINT_VARS = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
SERVICE_NAME = "deep-research"
INSTRUMENTATION = "deep_research"

# Keys whose string values are names and ids, never content: kept in a trace.
_KEEP_KEYS = frozenset({
    "type", "name", "id", "role", "model", "model_name", "model_provider", "finish_reason", "stop_reason",
    "tool_call_id", "status", "stage", "node", "kind", "thread_id", "run_id", "checkpoint_id", "checkpoint_ns",
    "assistant_id", "graph_id", "run_name", "revision_id", "search_api", "research_mode", "report_format",
    "citation_style", "structured_output", "event", "service_tier", "lc_hub_repo",
})
_KEEP_PREFIXES = ("ls_", "langgraph_", "lc_", "__pregel")
_MAX_DEPTH = 60

_state = threading.Lock()
_langsmith_content: bool | None = None  # the trace_content the installed LangSmith client was made for
_tracer: Any = None  # an OpenTelemetry tracer, or None
_otel_ready = False
_content = False  # trace_content: what span attributes and error descriptions may hold


def env_trace_content(environ: Mapping[str, str] | None = None) -> bool:
    env = os.environ if environ is None else environ
    return str(env.get(ENV_TRACE_CONTENT, "")).strip().lower() in ("1", "true", "yes", "on")


# --- what a trace may hold ----------------------------------------------------------------------
def _kept(key: Any) -> bool:
    return isinstance(key, str) and (key in _KEEP_KEYS or key.startswith(_KEEP_PREFIXES))


def scrub(value: Any, *, content: bool = False, _key: Any = None, _depth: int = 0) -> Any:
    """A JSON value as a trace may hold it: every string without secret values; without
    ``content``, every string that is not a name or an id (by its key) replaced by
    ``"[N characters]"``. Numbers, booleans and the structure stay."""
    if _depth > _MAX_DEPTH:
        return "[nested too deeply]"
    if isinstance(value, dict):
        return {k: scrub(v, content=content, _key=k, _depth=_depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [scrub(v, content=content, _key=_key, _depth=_depth + 1) for v in value]
    if isinstance(value, str):
        if _key == "error":  # an error message: secrets removed, kept (it says what went wrong)
            return redact(value)
        if content or (_kept(_key) and len(value) <= 200):
            return redact(value)
        return f"[{len(value)} characters]"
    return value


def _anonymizer(content: bool):
    def anonymize(data: dict) -> dict:
        return scrub(data, content=content)

    return anonymize


def configure_langsmith(trace_content: bool) -> bool:
    """Install a LangSmith client whose every upload goes through :func:`scrub`, when
    LangSmith tracing is on (LANGSMITH_TRACING / LANGCHAIN_TRACING_V2). Once per value of
    ``trace_content`` in the process. Returns whether tracing is on."""
    global _langsmith_content
    try:
        from langsmith import utils as ls_utils
    except ImportError:  # pragma: no cover - langsmith comes with langchain-core
        return False
    if not ls_utils.tracing_is_enabled():
        return False
    with _state:
        if _langsmith_content is trace_content:
            return True
        import langsmith
        from langsmith import run_trees

        client = langsmith.Client(anonymizer=_anonymizer(trace_content))
        run_trees.configure(client=client)
        _langsmith_content = trace_content
    return True


# --- OpenTelemetry -------------------------------------------------------------------------------
def otlp_endpoint(environ: Mapping[str, str] | None = None) -> str | None:
    env = os.environ if environ is None else environ
    return next((env[v] for v in OTLP_ENDPOINT_VARS if env.get(v)), None)


def _setup_otel() -> None:
    """The tracer, once per process: the global provider's (the host's, or one set up here
    with an OTLP/HTTP exporter when a collector is configured)."""
    global _tracer, _otel_ready
    with _state:
        if _otel_ready:
            return
        _otel_ready = True
        try:
            from opentelemetry import trace
        except ImportError:
            if otlp_endpoint():
                log.warning("%s is set but OpenTelemetry is not installed: no spans are exported; install the "
                            "otel extra (uv sync --extra otel)", OTLP_ENDPOINT_VARS[1])
            return
        endpoint = otlp_endpoint()
        current = trace.get_tracer_provider()
        if endpoint and type(current).__name__ in ("ProxyTracerProvider", "NoOpTracerProvider"):
            try:
                from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
                from opentelemetry.sdk.resources import Resource
                from opentelemetry.sdk.trace import TracerProvider
                from opentelemetry.sdk.trace.export import BatchSpanProcessor
            except ImportError:
                log.warning("%s is set but the OpenTelemetry SDK or OTLP exporter is not installed: no spans are "
                            "exported; install the otel extra (uv sync --extra otel)", OTLP_ENDPOINT_VARS[1])
            else:
                name = os.environ.get("OTEL_SERVICE_NAME") or SERVICE_NAME
                provider = TracerProvider(resource=Resource.create({"service.name": name}))
                provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
                trace.set_tracer_provider(provider)
                log.info("OpenTelemetry spans are exported to %s", endpoint)
        _tracer = trace.get_tracer(INSTRUMENTATION)


def use_tracer_provider(provider: Any) -> None:
    """Make spans with this provider's tracer (tests, or a host that keeps its own
    provider out of the global one); None goes back to the global provider."""
    global _tracer, _otel_ready
    with _state:
        _otel_ready = provider is not None
        _tracer = provider.get_tracer(INSTRUMENTATION) if provider is not None else None


def setup(trace_content: bool | None = None) -> None:
    """Both tracers as the environment asks, and what they may hold (``trace_content``;
    default: the environment's). Idempotent; cheap after the first call."""
    global _content
    _content = env_trace_content() if trace_content is None else bool(trace_content)
    _setup_otel()
    configure_langsmith(_content)


def content_allowed() -> bool:
    """Whether spans may hold text (a search's query): ``trace_content``."""
    return _content


def _attr(value: Any) -> Any:
    if isinstance(value, (bool, int, float)):
        return value
    return redact(str(value))[:500]


@contextlib.contextmanager
def span(name: str, attributes: Mapping[str, Any] | None = None) -> Iterator[Any]:
    """An OpenTelemetry span around the block (None values left out), or nothing when
    OpenTelemetry is not installed. The block's exception is recorded on the span and
    raised on. Yields the span (or None) so the block can add attributes."""
    if not _otel_ready:
        _setup_otel()
    if _tracer is None:
        yield None
        return
    attrs = {k: _attr(v) for k, v in (attributes or {}).items() if v is not None}
    with _tracer.start_as_current_span(name, attributes=attrs, record_exception=False,
                                       set_status_on_exception=False) as current:
        try:
            yield current
        except GraphBubbleUp:  # an interrupt (a human's turn), not a failure
            current.set_attribute("deep_research.interrupted", True)
            raise
        except BaseException as e:
            from opentelemetry.trace import Status, StatusCode

            what = redact(f"{type(e).__name__}: {e}")[:300] if _content else type(e).__name__
            current.set_status(Status(StatusCode.ERROR, what))
            current.set_attribute("error.type", type(e).__name__)
            raise


def set_attributes(current: Any, attributes: Mapping[str, Any]) -> None:
    if current is not None:
        current.set_attributes({k: _attr(v) for k, v in attributes.items() if v is not None})


def add_to_current_span(attributes: Mapping[str, Any]) -> None:
    """Attributes added to the span the code runs in (a search's billed web searches)."""
    if _tracer is None:
        return
    from opentelemetry import trace

    current = trace.get_current_span()
    if current.is_recording():
        set_attributes(current, attributes)


def thread_of(config: Mapping | None) -> str | None:
    configurable = (config or {}).get("configurable") or {}
    thread = configurable.get("thread_id")
    return str(thread) if thread is not None else None

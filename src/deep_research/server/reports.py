"""The LangGraph server's report route: a user downloads the files of their own reports.

Registered in ``langgraph.json`` as ``"http": {"app": "deep_research.server.reports:app",
"enable_custom_route_auth": true}``, so langgraph-api runs the project's auth handler
(:mod:`deep_research.server.auth`) on these routes as on ``/threads``: the caller is the
same user, with the same identity.

``GET /reports/<thread>``
    The caller's reports of that thread, newest first, as JSON: report id, time, and per
    file its size, type and path.
``GET /reports/<thread>/<report>/<file>``
    One file (``<report>`` may be ``latest``); ``<file>`` is one of
    :data:`~deep_research.research.runtime.report_files.FILES`.

Owner only, like threads: files are looked up under the caller's own namespace of the
report store, so another user's report, an unknown id and a malformed one all answer the
same 404 (nobody learns that a report exists); no credentials answer 401 before this code
runs. Nothing a request names reaches the file system. Every answer carries
``X-Content-Type-Options: nosniff``, ``Cache-Control: private, no-store`` and a
``Content-Disposition`` with a fixed file name. HTML is shown under a sandboxing CSP (no
script, no same-origin access, no network loads: it is a self-contained page with its
styles inline), so a report cannot run script in the server's origin; Word files are
downloads; markdown is ``text/markdown``.
"""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import UserError
from ..research.runtime.report_files import (
    FILES,
    ReportFiles,
    file_path,
    report_store,
    store_url,
)
from ..research.runtime.sources import owner_label

log = logging.getLogger(__name__)

store_url()  # a malformed DEEP_RESEARCH_REPORT_STORE stops the server at start, with its reason

COMMON = {"X-Content-Type-Options": "nosniff", "Cache-Control": "private, no-store",
          "Referrer-Policy": "no-referrer", "Cross-Origin-Resource-Policy": "same-site"}
# A report's HTML is one self-contained page: inline styles, data: images, links out. The
# sandbox gives it an opaque origin and no scripts; links still open (in the same tab).
HTML_POLICY = ("sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; "
               "style-src 'unsafe-inline'; img-src data:; font-src data:; base-uri 'none'; "
               "form-action 'none'; frame-ancestors 'none'")
# Everything else is data: no document it could become may load or run anything.
DATA_POLICY = "sandbox; default-src 'none'; frame-ancestors 'none'"


class _ServerStore:
    """The LangGraph server's own store, through its API inside the process (langgraph-sdk's
    ``get_client()`` without a URL): the same items the graph's runtime store holds, in
    memory under ``langgraph dev`` and in PostgreSQL in a deployment."""

    def __init__(self) -> None:
        from langgraph_sdk import get_client

        self.client = get_client()

    async def aget(self, namespace: tuple[str, ...], key: str) -> Any:
        from langgraph_sdk.errors import NotFoundError

        try:
            item = await self.client.store.get_item(list(namespace), key)
        except NotFoundError:
            return None
        return None if item is None else SimpleNamespace(namespace=tuple(item["namespace"]), value=item["value"])

    async def asearch(self, namespace: tuple[str, ...], *, limit: int = 10) -> list[Any]:
        found = await self.client.store.search_items(list(namespace), limit=limit)
        return [SimpleNamespace(namespace=tuple(i["namespace"]), value=i["value"]) for i in found["items"]]


_server_store: _ServerStore | None = None


async def _files_of(request: Request) -> ReportFiles | None:
    """The caller's report files (None: no user was admitted)."""
    global _server_store
    user = request.scope.get("user")
    identity = getattr(user, "identity", None) if user is not None and user.is_authenticated else None
    if not identity:
        return None
    store = None
    if store_url() is None:
        _server_store = _server_store or _ServerStore()
        store = _server_store
    return ReportFiles(await report_store(store), owner_label(str(identity)))


def _not_found() -> Response:
    return JSONResponse({"detail": "Not found"}, status_code=404, headers={**COMMON, "Content-Security-Policy": DATA_POLICY})


def _unauthorized() -> Response:
    return JSONResponse({"detail": "authentication required"}, status_code=401,
                        headers={**COMMON, "WWW-Authenticate": "Bearer"})


async def list_reports(request: Request) -> Response:
    files = await _files_of(request)
    if files is None:
        return _unauthorized()
    thread = request.path_params["thread"]
    found = await files.reports(thread)
    if not found:
        return _not_found()
    body = [{"report": m["report"], "created": m.get("created"), "skipped": m.get("skipped") or {},
             "files": {name: {**info, "content_type": FILES[name].content_type,
                              "path": file_path(thread, m["report"], name)}
                       for name, info in (m.get("files") or {}).items() if name in FILES}}
            for m in found]
    return JSONResponse({"thread": thread, "reports": body},
                        headers={**COMMON, "Content-Security-Policy": DATA_POLICY})


async def get_file(request: Request) -> Response:
    files = await _files_of(request)
    if files is None:
        return _unauthorized()
    name = request.path_params["name"]
    data = await files.read(request.path_params["thread"], request.path_params["report"], name)
    if data is None:
        return _not_found()
    kind = FILES[name]
    headers = {**COMMON, "Content-Disposition": f'{"inline" if kind.inline else "attachment"}; filename="{name}"'}
    if name.endswith(".html"):
        headers["Content-Security-Policy"] = HTML_POLICY
    elif not name.endswith(".pdf"):  # (a sandbox CSP stops browsers' PDF viewers)
        headers["Content-Security-Policy"] = DATA_POLICY
    return Response(data, media_type=kind.content_type, headers=headers)


def _store_failed(e: UserError) -> Response:
    log.error("report route: %s", e)
    return JSONResponse({"detail": "the report store is not available"}, status_code=503, headers=COMMON)


async def _guarded(request: Request) -> Response:
    handler = get_file if "name" in request.path_params else list_reports
    try:
        return await handler(request)
    except UserError as e:  # the report store is unreachable or misconfigured: the log says which
        return _store_failed(e)


# (langgraph-api adopts this app as the server's root app: its exception handlers would
# apply to every route, so errors are handled in the routes)
app = Starlette(routes=[
    Route("/reports/{thread}", _guarded, methods=["GET"]),
    Route("/reports/{thread}/{report}/{name}", _guarded, methods=["GET"]),
])

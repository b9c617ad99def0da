"""Authentication and per-user authorization for the LangGraph server.

Registered in ``langgraph.json`` as ``"auth": {"path": "deep_research.server.auth:auth"}``.
Credentials come from the environment (see :mod:`deep_research.server.credentials`); with
none configured, importing this module raises :class:`AuthConfigError`, so the server does
not start (except under ``langgraph dev``: loopback requests and LangGraph Studio's origin
only, as the user ``local``; a GET another site's page makes the browser send, which
carries no Origin, is told by its ``Sec-Fetch-Site`` and refused too). ``langgraph.json`` sets ``disable_studio_auth`` so that
Studio's requests (``x-auth-scheme: langsmith``) reach :func:`authenticate` too; a Studio
user admitted by langgraph-api itself, should that setting be dropped, may set no
server-side setting.

Authorization (everything not listed is refused with 403):

* threads and runs: a new thread (directly, by a run, or as a copy) gets metadata
  ``owner`` = the caller's identity; reading, searching, updating, deleting, streaming,
  joining, cancelling and resuming are filtered by ``owner``, so another user's thread
  looks like a missing one (404). A run may not set server-side settings
  (``model_base_url``, ``*_api_key_env``, ``corpus_path``, ``output_dir``, ``mcp_config``),
  ask for more than a ceiling the server's environment sets (``DEEP_RESEARCH_MAX_COST_USD``
  and the other ``Configuration`` CEILINGS), use a model outside
  ``DEEP_RESEARCH_ALLOWED_MODELS`` or, under a cost cap, a model without a known price.
* assistants: the deployment's (``created_by: system``) are readable by all, changeable by
  none; a user creates, updates (new versions) and deletes their own (metadata ``owner``),
  which other users never see. An assistant obeys the run's rule whole (server-side
  settings, ceilings, allowed models, ``fetch_allow_private``, ``searxng_url``): one
  rule, research/runtime/setting_policy.py, which the graph applies again to what reaches it.
* crons: refused.
* report files (``/reports/...``, deep_research.server.reports): the caller's own only. A
  request without credentials that carries a report link's signature
  (``DEEP_RESEARCH_REPORT_LINK_SECRET``) is admitted as the link's owner for that one file.
* store (the ``/store`` API; the graph's own store access is not affected): read and write
  under ``(identity, ...)``; read-only under ``("deep_research", identity, ...)``, where
  the graph keeps the pages a user's runs read. Anything else, including a search or
  namespace listing without a prefix, is refused.
"""

from __future__ import annotations

from typing import Any

from langgraph_sdk import Auth
from langgraph_sdk.auth import is_studio_user

from ..errors import UserError
from ..research.runtime.report_files import ROUTE, link_days, link_key, signed_link_user
from .credentials import AuthConfigError, AuthSettings, FetchMetadata, InvalidCredentials

# A signed report link admits its holder to that one file only, as its owner: checked here
# for GET/HEAD requests of the report route that carry a signature and no credentials.
REPORT_LINK_PERMISSION = "auth:report-link"


def report_link_key() -> bytes | None:
    try:
        link_days()
        return link_key()
    except UserError as e:
        raise AuthConfigError(str(e)) from None


def report_link_requested(scope: dict) -> bool:
    return (scope.get("method") in ("GET", "HEAD") and str(scope.get("path") or "").startswith(ROUTE + "/")
            and b"sig=" in (scope.get("query_string") or b""))


SETTINGS = AuthSettings.from_env()  # raises AuthConfigError: the server does not start
REPORT_LINK_KEY = report_link_key()  # signs the chat's links to report files (server/reports.py)
PAGES_ROOT = "deep_research"

auth = Auth()


def _header(scope: dict, name: bytes) -> str | None:
    for k, v in scope.get("headers") or ():
        if k.lower() == name:
            return v.decode("latin-1")
    return None


@auth.authenticate
async def authenticate(authorization: str | None = None, scope: dict | None = None) -> dict:
    scope = scope or {}
    if not authorization and report_link_requested(scope):  # a browser following a chat's report link
        user = signed_link_user(REPORT_LINK_KEY, scope.get("path") or "",
                                (scope.get("query_string") or b"").decode("latin-1"))
        if user is None:
            raise Auth.exceptions.HTTPException(status_code=401, detail="invalid or expired report link",
                                                headers={"WWW-Authenticate": "Bearer"})
        return {"identity": user, "display_name": user, "is_authenticated": True,
                "permissions": [REPORT_LINK_PERMISSION]}
    client = scope.get("client")
    try:
        who = SETTINGS.authenticate(
            authorization,
            client_host=client[0] if client else None,
            host_header=_header(scope, b"host"),
            origin_header=_header(scope, b"origin"),
            studio_scheme=(_header(scope, b"x-auth-scheme") or "").strip().lower() == "langsmith",
            fetch=FetchMetadata.of(_header(scope, b"sec-fetch-site"), _header(scope, b"sec-fetch-mode"),
                                   _header(scope, b"sec-fetch-dest")),
        )
    except InvalidCredentials as e:
        raise Auth.exceptions.HTTPException(
            status_code=401, detail=str(e), headers={"WWW-Authenticate": "Bearer"}) from None
    return who.as_user()


# --- authorization ---------------------------------------------------------------------
def _me(ctx: Auth.types.AuthContext) -> str:
    return ctx.user.identity


def _owned(ctx: Auth.types.AuthContext) -> dict:
    return {"owner": _me(ctx)}


def _stamp_owner(ctx: Auth.types.AuthContext, value: dict) -> None:
    metadata = value.get("metadata")
    if not isinstance(metadata, dict):
        metadata = value["metadata"] = {}
    metadata["owner"] = _me(ctx)


def _forbid(detail: str) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(status_code=403, detail=detail)


@auth.on
async def deny_by_default(ctx: Auth.types.AuthContext, value: Any) -> bool:
    return False


@auth.on.threads.create
async def create_thread(ctx: Auth.types.AuthContext, value: Auth.types.on.threads.create.value):
    _stamp_owner(ctx, value)
    return _owned(ctx)  # "create if missing" must not hand out someone else's thread


def _settings_allowed(ctx: Auth.types.AuthContext, config: Any, context: Any, source: str) -> None:
    """A run's or an assistant's settings, checked by the one rule the graph applies too
    (research/runtime/setting_policy.py): server-side settings, ceilings, allowed models, prices."""
    from ..errors import UserError
    from ..research.runtime.configuration import Configuration
    from ..research.runtime.setting_policy import Caller, Source, for_server_users

    caller = Caller(Source(source), SETTINGS.run_settings_allowed(trusted=not is_studio_user(ctx.user)))
    try:
        Configuration.resolve(config if isinstance(config, dict) else {},
                              context if isinstance(context, dict) else None,
                              above_ceiling="refuse", caller=caller)
    except UserError as e:  # (an environment's bad value may name the server's folder or settings file)
        raise _forbid(for_server_users(str(e), what=f"{source}'s settings refused")) from None


def _nulls_not_given(kwargs: dict) -> None:
    """A run's setting set to null means "not given", as the graph reads it
    (Configuration._run_values): the assistant's value, else the server's, applies. langgraph-api
    merges the run's context (and its configurable, a copy of it) over the assistant's key
    by key, after this handler, so a null there replaced the assistant's value: the nulls
    are dropped here, in place (the server merges these very dicts)."""
    from ..research.runtime.configuration import Configuration

    config = kwargs.get("config")
    for values in (kwargs.get("context"), config.get("configurable") if isinstance(config, dict) else None):
        if isinstance(values, dict):
            for name in [k for k, v in values.items() if v is None and k in Configuration.model_fields]:
                del values[name]


@auth.on.threads.create_run
async def create_run(ctx: Auth.types.AuthContext, value: Auth.types.on.threads.create_run.value):
    kwargs = value.get("kwargs") or {}
    _nulls_not_given(kwargs)
    _settings_allowed(ctx, kwargs.get("config"), kwargs.get("context"), "a run")
    _stamp_owner(ctx, value)  # the thread a run creates belongs to the caller
    return _owned(ctx)


@auth.on.threads.update
async def update_thread(ctx: Auth.types.AuthContext, value: Auth.types.on.threads.update.value):
    if value.get("action") is None and isinstance(value.get("metadata"), dict):
        value["metadata"]["owner"] = _me(ctx)  # a metadata patch cannot give a thread away
    return _owned(ctx)


@auth.on.threads(actions=["read", "search", "delete"])
async def own_threads(ctx: Auth.types.AuthContext, value: Any):
    return _owned(ctx)


# Assistants: the deployment's (created from langgraph.json, metadata created_by=system)
# are visible to all and changed by none; a user creates, versions and deletes their own
# (Studio's "create assistant" / "save version"), which others never see. An assistant's
# settings apply to every run made with it (langgraph-api merges them into the run's
# config and context after create_run has seen the run's own), so they obey the same rule
# as a run's, checked here when the assistant is made and again by the graph.
def _assistant_settings_allowed(ctx: Auth.types.AuthContext, value: dict) -> None:
    _settings_allowed(ctx, value.get("config"), value.get("context"), "an assistant")


@auth.on.assistants.create
async def create_assistant(ctx: Auth.types.AuthContext, value: Auth.types.on.assistants.create.value):
    _assistant_settings_allowed(ctx, value)
    _stamp_owner(ctx, value)
    return _owned(ctx)  # if_exists="do_nothing" must not hand out someone else's assistant


@auth.on.assistants.update
async def update_assistant(ctx: Auth.types.AuthContext, value: Auth.types.on.assistants.update.value):
    _assistant_settings_allowed(ctx, value)
    if isinstance(value.get("metadata"), dict):
        value["metadata"]["owner"] = _me(ctx)  # a metadata patch cannot give an assistant away
    return _owned(ctx)


@auth.on.assistants.delete
async def delete_assistant(ctx: Auth.types.AuthContext, value: Any):
    return _owned(ctx)


@auth.on.assistants(actions=["read", "search"])
async def read_assistants(ctx: Auth.types.AuthContext, value: Any):
    return {"$or": [{"owner": _me(ctx)}, {"created_by": "system"}]}


@auth.on.store
async def own_store(ctx: Auth.types.AuthContext, value: Any) -> bool:
    me = _me(ctx)
    namespace = tuple(value.get("namespace") or ())
    mine = namespace[:1] == (me,)
    my_pages = namespace[:2] == (PAGES_ROOT, me)
    if mine or (my_pages and ctx.action in ("get", "search", "list_namespaces")):
        return True
    if my_pages:
        raise _forbid(f"{PAGES_ROOT!r} namespaces are written by the research graph only")
    raise _forbid(f"store namespaces must start with [{me!r}] (read-write) or "
                  f"[{PAGES_ROOT!r}, {me!r}] (read-only)")

"""Who may call the LangGraph server, configured by environment variables.

``DEEP_RESEARCH_AUTH_TOKENS``
    Static bearer tokens: ``"<token>:<user>,<token>:<user>"``. A token is at least
    16 characters and contains neither ``:`` nor ``,``; a user may have several tokens
    (rotation). Generate tokens with ``python -c "import secrets; print(secrets.token_urlsafe(32))"``.
``DEEP_RESEARCH_JWT_SECRET``
    Shared secret (at least 32 bytes) for HS256 JWTs. The user is the ``sub`` claim;
    ``exp`` is required and checked (30 s leeway), ``nbf`` is checked when present.
``DEEP_RESEARCH_JWT_AUDIENCE`` / ``DEEP_RESEARCH_JWT_ISSUER``
    When set, ``aud`` / ``iss`` must match. A token carrying ``aud`` is refused when no
    audience is configured.
``DEEP_RESEARCH_AUTH_ALLOW_RUN_SETTINGS``
    Comma-separated server-side settings that callers may nevertheless set per run (see
    :data:`SERVER_SIDE_SETTINGS`); empty by default.

``DEEP_RESEARCH_LOCAL_ORIGINS``
    Under ``langgraph dev`` without credentials: the loopback pages that may call the
    server (``"http://localhost:3000"``, the chat client's). Unset: any port of
    ``localhost``, ``127.0.0.1`` and ``[::1]``.

With neither tokens nor a JWT secret the server refuses to start, except under
``langgraph dev`` where one user, ``local``, is accepted from loopback only.

A user id becomes the ``identity`` the server scopes data by: thread metadata ``owner``,
store namespaces, and ``langgraph_auth_user_id`` in the graph's config. Store namespace
labels cannot contain periods, so ``.`` and ``%`` are percent-encoded
(``alice@example.com`` -> ``alice@example%2Ecom``), which keeps distinct users distinct.

Nothing here ever puts a presented token into an error message or a log line.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import SplitResult, urlsplit

from ..research.runtime.setting_policy import ENV_ALLOW_RUN_SETTINGS, OPERATOR_SETTINGS, operator_list

ENV_TOKENS = "DEEP_RESEARCH_AUTH_TOKENS"
ENV_JWT_SECRET = "DEEP_RESEARCH_JWT_SECRET"
ENV_JWT_AUDIENCE = "DEEP_RESEARCH_JWT_AUDIENCE"
ENV_JWT_ISSUER = "DEEP_RESEARCH_JWT_ISSUER"
ENV_STUDIO_ORIGINS = "DEEP_RESEARCH_STUDIO_ORIGINS"
# the loopback pages that may call `langgraph dev` without credentials (unset: any port of
# localhost, 127.0.0.1 and [::1]); e.g. "http://localhost:3000", the chat client's
ENV_LOCAL_ORIGINS = "DEEP_RESEARCH_LOCAL_ORIGINS"
# set by `langgraph dev` (and only by it) in the server process
ENV_API_VARIANT = "LANGSMITH_LANGGRAPH_API_VARIANT"

# LangGraph Studio runs in the browser on these origins and calls the local server from
# there; under `langgraph dev` without credentials a request from them is served like a
# loopback one. DEEP_RESEARCH_STUDIO_ORIGINS replaces the list ("none": no Studio).
DEFAULT_STUDIO_ORIGINS = ("https://smith.langchain.com", "https://eu.smith.langchain.com")
MIN_TOKEN_CHARS = 16
MIN_SECRET_BYTES = 32
JWT_LEEWAY_S = 30
LOCAL_USER = "local"
# "deep_research" is the first label of the graph's page namespaces
# ("deep_research", <owner>, "pages"): a user by that name would own all of them.
RESERVED_IDENTITIES = frozenset({"deep_research"})

# Run settings that reach the server's own resources: its environment variables (API
# keys are sent to the model endpoint; MCP headers are read from env vars), its file
# system (corpus folder, report folder) and its network position (endpoints). A remote
# caller setting model_base_url could receive the server's OPENAI_API_KEY. They come from
# the server's DEEP_RESEARCH_* environment instead (the rule: research/runtime/setting_policy.py).
SERVER_SIDE_SETTINGS = OPERATOR_SETTINGS


class AuthConfigError(RuntimeError):
    """The server's credential configuration is missing or unusable."""


class InvalidCredentials(Exception):
    """A request's credentials were refused. The message is safe to send to the caller."""


def identity_label(user: str) -> str:
    """The identity for a user id: usable as a store namespace label, one-to-one."""
    if not isinstance(user, str) or not user.strip():
        raise InvalidCredentials("the user id is empty")
    label = user.replace("%", "%25").replace(".", "%2E")
    if label in RESERVED_IDENTITIES:
        raise InvalidCredentials(f"the user id {user!r} is reserved")
    return label


@dataclass(frozen=True)
class Principal:
    identity: str
    display_name: str
    method: str  # "token" | "jwt" | "local"

    def as_user(self) -> dict:
        return {"identity": self.identity, "display_name": self.display_name,
                "is_authenticated": True, "permissions": [f"auth:{self.method}"]}


def _parse_tokens(spec: str) -> tuple[tuple[str, str, str], ...]:
    """(token, identity, user) per entry; errors name the entry, never the token."""
    out: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for n, entry in enumerate(spec.split(","), start=1):
        entry = entry.strip()
        if not entry:
            continue
        token, sep, user = entry.partition(":")
        token, user = token.strip(), user.strip()
        where = f"{ENV_TOKENS} entry {n}"
        if not sep or not user:
            raise AuthConfigError(f"{where} is not '<token>:<user>'")
        if len(token) < MIN_TOKEN_CHARS:
            raise AuthConfigError(f"{where}: the token is shorter than {MIN_TOKEN_CHARS} characters")
        if token in seen:
            raise AuthConfigError(f"{where}: the token is listed twice")
        try:
            identity = identity_label(user)
        except InvalidCredentials as e:
            raise AuthConfigError(f"{where}: {e}") from None
        seen.add(token)
        out.append((token, identity, user))
    if not out:
        raise AuthConfigError(f"{ENV_TOKENS} is set but lists no tokens")
    return tuple(out)


@dataclass(frozen=True)
class AuthSettings:
    tokens: tuple[tuple[str, str, str], ...] = ()
    jwt_secret: bytes | None = field(default=None, repr=False)
    jwt_audience: str | None = None
    jwt_issuer: str | None = None
    local_only: bool = False  # no credentials: `langgraph dev`, loopback, user "local"
    allowed_run_settings: frozenset[str] = frozenset()
    studio_origins: frozenset[str] = frozenset(DEFAULT_STUDIO_ORIGINS)
    local_origins: frozenset[str] | None = None  # None: any loopback page (LOCAL_PAGE_HOSTS)

    def __repr__(self) -> str:  # never show tokens or the secret
        return (f"AuthSettings(tokens={len(self.tokens)}, jwt={'yes' if self.jwt_secret else 'no'}, "
                f"local_only={self.local_only})")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> AuthSettings:
        env = os.environ if environ is None else environ
        token_spec = (env.get(ENV_TOKENS) or "").strip()
        secret = env.get(ENV_JWT_SECRET) or ""
        allowed = operator_list(env)
        unknown = allowed - SERVER_SIDE_SETTINGS
        if unknown:
            raise AuthConfigError(f"{ENV_ALLOW_RUN_SETTINGS} names unknown settings: {', '.join(sorted(unknown))} "
                                  f"(known: {', '.join(sorted(SERVER_SIDE_SETTINGS))})")
        studio = _parse_origins(env.get(ENV_STUDIO_ORIGINS))
        local = _parse_local_origins(env.get(ENV_LOCAL_ORIGINS))
        if not token_spec and not secret:
            if env.get(ENV_API_VARIANT) == "local_dev":
                return cls(local_only=True, allowed_run_settings=SERVER_SIDE_SETTINGS, studio_origins=studio,
                           local_origins=local)
            raise AuthConfigError(
                f"deep_research.server.auth: no credentials configured. Set {ENV_TOKENS}="
                f"'<token>:<user>,...' and/or {ENV_JWT_SECRET} (HS256, at least {MIN_SECRET_BYTES} bytes). "
                "The server refuses to serve unauthenticated traffic; for local development use "
                "`langgraph dev`, which accepts loopback requests as the user 'local'.")
        tokens = _parse_tokens(token_spec) if token_spec else ()
        secret_bytes = None
        if secret:
            secret_bytes = secret.encode("utf-8")
            if len(secret_bytes) < MIN_SECRET_BYTES:
                raise AuthConfigError(f"{ENV_JWT_SECRET} is shorter than {MIN_SECRET_BYTES} bytes")
            try:
                import jwt  # noqa: F401  (PyJWT ships with the LangGraph server)
            except ImportError:
                raise AuthConfigError(f"{ENV_JWT_SECRET} needs the PyJWT package") from None
        return cls(tokens=tokens, jwt_secret=secret_bytes,
                   jwt_audience=env.get(ENV_JWT_AUDIENCE) or None, jwt_issuer=env.get(ENV_JWT_ISSUER) or None,
                   allowed_run_settings=allowed, studio_origins=studio)

    # ---------------------------------------------------------------------------------
    def authenticate(self, authorization: str | None, *, client_host: str | None = None,
                     host_header: str | None = None, origin_header: str | None = None,
                     studio_scheme: bool = False, fetch: FetchMetadata | None = None) -> Principal:
        """The caller, or InvalidCredentials. ``studio_scheme``: the request is in LangGraph
        Studio's scheme (``x-auth-scheme: langsmith``); it gets no special treatment except
        that, without configured credentials, a credential Studio sends is ignored.
        ``fetch``: the browser's ``Sec-Fetch-*`` headers (see :func:`local_request_problem`)."""
        if self.local_only:
            if authorization and not studio_scheme:
                raise InvalidCredentials(f"this server has no credentials configured ({ENV_TOKENS} or "
                                         f"{ENV_JWT_SECRET}); send no Authorization header")
            problem = local_request_problem(client_host, host_header, origin_header,
                                            trusted_origins=self.studio_origins, local_origins=self.local_origins,
                                            fetch=fetch)
            if problem:
                raise InvalidCredentials(f"without {ENV_TOKENS} or {ENV_JWT_SECRET} only local requests to "
                                         f"`langgraph dev` are accepted ({problem})")
            return Principal(LOCAL_USER, LOCAL_USER, "local")
        token = bearer_token(authorization)
        user = self._static_user(token)
        if user is not None:
            return Principal(user[0], user[1], "token")
        if self.jwt_secret is not None and token.count(".") == 2:
            return self._jwt_user(token)
        raise InvalidCredentials("invalid token")

    def _static_user(self, token: str) -> tuple[str, str] | None:
        found = None
        presented = token.encode("utf-8")
        for known, identity, user in self.tokens:  # compare with every token: constant time
            if hmac.compare_digest(presented, known.encode("utf-8")) and found is None:
                found = (identity, user)
        return found

    def _jwt_user(self, token: str) -> Principal:
        import jwt

        try:
            claims = jwt.decode(
                token, self.jwt_secret, algorithms=["HS256"], audience=self.jwt_audience,
                issuer=self.jwt_issuer, leeway=JWT_LEEWAY_S,
                options={"require": ["exp", "sub"], "verify_signature": True},
            )
        except jwt.ExpiredSignatureError:
            raise InvalidCredentials("token expired") from None
        except jwt.MissingRequiredClaimError as e:
            raise InvalidCredentials(f"token lacks the {e.claim!r} claim") from None
        except jwt.PyJWTError:
            raise InvalidCredentials("invalid token") from None
        sub = claims.get("sub")
        if not isinstance(sub, str):
            raise InvalidCredentials("token 'sub' is not a string")
        return Principal(identity_label(sub), sub, "jwt")

    def run_settings_allowed(self, *, trusted: bool) -> frozenset[str]:
        """The server-side settings a caller may set per run or in an assistant. An
        untrusted caller (one the server's own `authenticate` did not admit, such as
        langgraph-api's built-in Studio user) may set none of them, whatever is allowed."""
        return self.allowed_run_settings if trusted else frozenset()


def bearer_token(authorization: str | None) -> str:
    if not authorization or not authorization.strip():
        raise InvalidCredentials("missing 'Authorization: Bearer <token>' header")
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise InvalidCredentials("the Authorization header must be 'Bearer <token>'")
    return token.strip()


# The hosts of the pages a browser may call `langgraph dev` from without credentials: the
# ones langgraph.json's CORS setting admits ("allow_origin_regex"), on any port. Any other
# loopback address or spelling (127.0.0.2, "localhost.") is another site to the browser,
# which CORS refuses but whose "simple" requests (a text/plain POST that starts a run) it
# still sends: such a page is refused here too.
LOCAL_PAGE_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


def _is_loopback_name(host: str | None) -> bool:
    if not host:
        return False
    host = host.strip().lower().rstrip(".")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _host_of(host_header: str) -> str:
    h = host_header.strip()
    if h.startswith("["):  # [::1]:2024
        return h[1:h.find("]")] if "]" in h else h
    return h.rsplit(":", 1)[0] if h.count(":") == 1 else h


def _origin_list(spec: str, env_name: str, allowed: Callable[[SplitResult], bool], like: str) -> frozenset[str]:
    """The origins a comma-separated setting lists, each ``allowed`` and an origin only
    (no path, query, fragment or user); else AuthConfigError naming ``env_name``."""
    out = set()
    for entry in spec.split(","):
        entry = entry.strip().rstrip("/")
        if not entry:
            continue
        parts = urlsplit(entry)
        origin = _origin_of(entry)  # None for a port that is not a number from 0 to 65535
        if (not allowed(parts) or not parts.hostname or parts.path or parts.query or parts.fragment or "@" in entry
                or origin is None):
            raise AuthConfigError(f"{env_name}: {entry!r} is not an origin like {like}")
        out.add(origin)
    return frozenset(out)


def _parse_origins(spec: str | None) -> frozenset[str]:
    """Studio origins from DEEP_RESEARCH_STUDIO_ORIGINS: unset = the defaults, "none" = none;
    each entry must be an https (or loopback http) origin, nothing more."""
    if spec is None:
        return frozenset(DEFAULT_STUDIO_ORIGINS)
    spec = spec.strip()
    if spec.lower() in ("", "none"):
        return frozenset()
    return _origin_list(spec, ENV_STUDIO_ORIGINS,
                        lambda p: p.scheme == "https" or (p.scheme == "http" and _is_loopback_name(p.hostname)),
                        "'https://smith.langchain.com' (https, no path)")


def _parse_local_origins(spec: str | None) -> frozenset[str] | None:
    """DEEP_RESEARCH_LOCAL_ORIGINS: unset or empty = any loopback page; else each entry an
    http(s) origin on localhost, 127.0.0.1 or [::1], nothing more."""
    if spec is None or not spec.strip():
        return None
    return _origin_list(spec, ENV_LOCAL_ORIGINS,
                        lambda p: p.scheme in ("http", "https") and p.hostname in LOCAL_PAGE_HOSTS,
                        "'http://localhost:3000' (http or https, host localhost, 127.0.0.1 or [::1], no path)")


def _origin_of(url: str) -> str | None:
    """scheme://host[:port] in lower case, as browsers send it in Origin; None if not a URL."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if not parts.scheme or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme.lower()}://{host.lower()}" + (f":{port}" if port is not None else "")


@dataclass(frozen=True)
class FetchMetadata:
    """A browser's ``Sec-Fetch-Site``, ``Sec-Fetch-Mode`` and ``Sec-Fetch-Dest`` headers
    (lower case; None when not sent: a script, the SDK, curl)."""

    site: str | None = None
    mode: str | None = None
    dest: str | None = None

    @classmethod
    def of(cls, site: str | None, mode: str | None, dest: str | None) -> FetchMetadata:
        return cls(*((v.strip().lower() if v is not None else None) for v in (site, mode, dest)))

    def foreign_load(self) -> bool:
        """Another site's page had the browser load this without an Origin header: a GET
        by an image, a script, a frame or a no-cors fetch (a page on another origin that
        fetches with CORS sends its Origin). A top-level navigation (a user following a
        link, a Studio or chat link to a report file) is not one: the page that started it
        reads nothing of the answer."""
        if self.site not in ("cross-site", "same-site"):
            return False
        return not (self.mode == "navigate" and self.dest == "document")


def local_request_problem(client_host: str | None, host_header: str | None,
                          origin_header: str | None, *,
                          trusted_origins: frozenset[str] | tuple[str, ...] = (),
                          local_origins: frozenset[str] | None = None,
                          fetch: FetchMetadata | None = None) -> str | None:
    """Why a request is not a local one (None when it is): the peer must be a loopback
    address, the Host header a loopback name (no tunnel, no DNS rebinding) and a browser
    Origin, when sent, loopback too (one of ``local_origins`` when they are given) or one of
    ``trusted_origins`` (LangGraph Studio's), so no other web page can drive the server
    from a browser on this machine. A request a browser sends without an Origin (a GET,
    which reads threads) is refused too when its ``Sec-Fetch-Site`` says another site's
    page loaded it (:meth:`FetchMetadata.foreign_load`), so no page reads a thread either."""
    if not _is_loopback_name(client_host):
        return "the client is not on this machine"
    if not host_header or not _is_loopback_name(_host_of(host_header)):
        return "the Host header is not a loopback address"
    if origin_header is not None:
        origin = _origin_of(origin_header)
        try:
            parts = urlsplit(origin_header.strip())
            loopback = parts.scheme in ("http", "https") and parts.hostname in LOCAL_PAGE_HOSTS
        except ValueError:
            loopback = False
        if local_origins is not None:  # pinned (DEEP_RESEARCH_LOCAL_ORIGINS): those pages only
            loopback = origin in local_origins
        if not loopback and (origin is None or origin not in trusted_origins):
            return "the request comes from a web page on another origin"
    elif fetch is not None and fetch.foreign_load():
        return f"the request comes from a web page on another site (Sec-Fetch-Site: {fetch.site})"
    return None

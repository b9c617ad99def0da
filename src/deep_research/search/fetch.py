"""Fetch one web page safely and keep its main text, for citation.

Used wherever a page's text is not handed to us by a search API: Tavily results that came
without raw content, SearXNG results, and the pages a user names (``research_urls``).

The fetcher (:class:`PageFetcher`) is an httpx client with:

* **Timeouts**: connect and read timeouts per request, and a total timeout per page
  (redirects, retries and robots.txt included).
* **A byte limit**, applied while streaming to the bytes on the wire and to the decoded
  bytes, with every decoding step bounded (:mod:`.http_body`), so a small compressed body
  cannot expand beyond it: reading stops there. An HTML or text page keeps its first
  ``max_bytes`` (marked ``truncated``); a PDF cut short is unreadable and refused.
* **A content-type allow-list**: HTML, XHTML, plain text, markdown and PDF.
* **Redirects followed by hand**, at most ``max_redirects`` hops; every hop's URL is
  checked again (scheme, address, robots.txt).
* **robots.txt** honoured (``urllib.robotparser``), fetched once per origin with its own
  short timeout through the same guarded client; when it cannot be fetched (timeout,
  connection error, HTTP 4xx/5xx) the page counts as allowed.
* **Bounded retries** on HTTP 429 and 5xx, timeouts and connection errors, with
  exponential backoff and jitter (``Retry-After`` honoured, capped).
* **SSRF protection.** A host name is resolved and *every* address it resolves to must be
  public: loopback, private, shared (CGNAT), link-local, multicast, reserved, unspecified
  and documentation addresses, IPv4-mapped/NAT64/6to4 IPv6 forms of those, and cloud
  metadata addresses are refused. ``allow_private`` admits loopback, private and
  link-local networks (an intranet, tests on 127.0.0.1); metadata, multicast, reserved and
  unspecified addresses stay refused.

  The check and the connection cannot disagree (no DNS-rebinding window): the client's
  network backend is replaced by one whose ``connect_tcp`` resolves the host, checks the
  addresses, and opens the socket to the checked IP itself. The URL keeps the host name,
  so the Host header, TLS SNI and certificate verification use the name as usual.
  Environment proxies are ignored (``trust_env=False``): a proxy would connect for us.

Text extraction: an HTML page's text is what a browser shows (:func:`.extract.html_to_text`,
the extractor of the local corpus), narrowed to the page's main element (``<main>``, else a
single ``<article>``) when it marks one, so navigation and footers are left out without
rewriting a sentence; trafilatura reads the page's metadata (author, publication date, site
name, and a title when ``<title>`` is missing). PDFs use :func:`.extract.pdf_to_text`. The
text is what quotes are verified against, stored as the page's content with its format
(``text`` or ``markdown``, see :mod:`deep_research.citations.page`).
"""

from __future__ import annotations

import asyncio
import email.message
import email.utils
import ipaddress
import logging
import re
import socket
import ssl
import time
import urllib.robotparser
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpcore
import httpx
import webencodings

from ..lru import LRU
from ..terminal import printable
from .base import SearchResult, backoff_delay
from .extract import (
    PdfTextError,
    declared_charset,
    html_to_text,
    markdown_title,
    pdf_to_text,
)
from .extraction_pool import POOL, ExtractionFailed, ExtractionTimeout
from .http_body import ACCEPT_ENCODING, BodyError, read_limited

log = logging.getLogger(__name__)

USER_AGENT = "deep-research/0.1 (research agent; fetches the pages it cites; honours robots.txt)"
ROBOTS_AGENT = "deep-research"  # the token matched against robots.txt User-agent lines
ROBOTS_MAX_BYTES = 512 * 1024

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
TEXT_TYPES = frozenset({"text/plain"})
MARKDOWN_TYPES = frozenset({"text/markdown", "text/x-markdown"})
PDF_TYPES = frozenset({"application/pdf"})
ALLOWED_TYPES = HTML_TYPES | TEXT_TYPES | MARKDOWN_TYPES | PDF_TYPES

# Cloud instance metadata and credential services (AWS/GCP/Azure/OpenStack, AWS IPv6, ECS task
# credentials, Alibaba, Oracle; EKS Pod Identity's credentials agent, IPv4 and IPv6; Tencent
# Cloud; Azure's WireServer and host agent, an address outside the private ranges that only an
# Azure machine reaches). Refused even where private addresses are allowed.
METADATA_ADDRESSES = frozenset(ipaddress.ip_address(a) for a in (
    "169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200", "192.0.0.192",
    "169.254.170.23", "fd00:ec2::23", "169.254.0.23", "168.63.129.16",
))
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


# --- results and refusals ------------------------------------------------------------------
class FetchError(Exception):
    """A page that could not be fetched or was refused. ``reason`` is one of:
    ``bad_url``, ``blocked_address``, ``robots``, ``content_type``, ``too_large``,
    ``redirects``, ``http_status``, ``timeout``, ``unreachable``, ``unreadable``, ``empty``."""

    def __init__(self, url: str, reason: str, message: str, *, transient: bool = False,
                 status: int | None = None, retry_after: float | None = None):
        super().__init__(f"{printable(url)}: {message}")
        self.retry_after = retry_after  # seconds the server asked us to wait (HTTP 429/503)
        self.url = url
        self.reason = reason
        self.detail = message
        self.transient = transient
        self.status = status


class BlockedAddressError(OSError):
    """Raised inside the network backend: the host resolves to an address the policy refuses."""


@dataclass
class FetchedPage:
    url: str  # after redirects
    requested_url: str
    title: str
    text: str  # what quotes are verified against
    format: str  # "markdown" | "text"
    content_type: str
    published: str | None = None
    author: str | None = None
    site_name: str | None = None
    truncated: bool = False
    redirects: list[str] = field(default_factory=list)
    cut: str | None = None  # why ``text`` ends before the page does (see SearchResult.cut)

    def as_result(self, *, snippet: str = "", score: float | None = None, title: str = "") -> SearchResult:
        return SearchResult(self.url, self.title or title or self.url, self.text, self.format,
                            snippet or self.text[:300], score, published=self.published,
                            author=self.author, site_name=self.site_name, cut=self.cut or "")


@dataclass(frozen=True)
class FetchPolicy:
    timeout_s: float = 30.0  # total per page: redirects, retries and robots.txt included
    connect_timeout_s: float = 10.0
    read_timeout_s: float = 20.0
    max_bytes: int = 5_000_000
    max_redirects: int = 5
    max_retries: int = 2
    backoff_s: float = 0.5
    max_backoff_s: float = 8.0
    allow_private: bool = False
    respect_robots: bool = True
    robots_timeout_s: float = 10.0
    user_agent: str = USER_AGENT
    # Networks admitted even though private, e.g. ("10.1.0.0/16",) for one intranet (metadata
    # addresses stay refused). Library use and tests; runs set allow_private or nothing.
    allow_networks: tuple[str, ...] = ()
    # Extracting a page's text, after its fetch (a worker process; a page over it is refused).
    extract_timeout_s: float = 20.0

    def __post_init__(self) -> None:
        if (self.timeout_s <= 0 or self.max_bytes <= 0 or self.max_redirects < 0 or self.max_retries < 0
                or self.extract_timeout_s <= 0):
            raise ValueError("fetch timeouts and limits must be positive")


# --- addresses -----------------------------------------------------------------------------
def address_refusal(ip: ipaddress.IPv4Address | ipaddress.IPv6Address, *, allow_private: bool) -> str | None:
    """Why the fetcher refuses to connect to ``ip`` (None: allowed)."""
    if ip in METADATA_ADDRESSES:
        return "a cloud metadata address"
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour or (
            ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF) if ip in _NAT64 else None)
        if embedded is not None:
            why = address_refusal(embedded, allow_private=allow_private)
            return f"{why} (inside an IPv6 address)" if why else None
        if ip.teredo:
            return "a Teredo tunnel address"
    if ip.is_unspecified:
        return "an unspecified address"
    if ip.is_multicast:
        return "a multicast address"
    if ip.is_loopback:
        return None if allow_private else "a loopback address"
    if ip.is_link_local:
        return None if allow_private else "a link-local address"
    if ip.is_private or not ip.is_global:
        if allow_private:
            return None if not ip.is_reserved else "a reserved address"
        return "a reserved address" if ip.is_reserved else "a private or non-public address"
    if ip.is_reserved:
        return "a reserved address"
    return None


async def resolve(host: str, port: int, timeout: float | None) -> list[str]:
    """Addresses of ``host`` (an IP literal is its own address)."""
    host = host.strip("[]")
    try:
        return [str(ipaddress.ip_address(host))]
    except ValueError:
        pass
    loop = asyncio.get_running_loop()
    try:
        infos = await asyncio.wait_for(loop.getaddrinfo(host, port, type=socket.SOCK_STREAM), timeout)
    except TimeoutError:
        raise httpcore.ConnectTimeout(f"resolving {host} timed out") from None
    except socket.gaierror as e:
        raise httpcore.ConnectError(f"cannot resolve {host}: {e.strerror or e}") from None
    except UnicodeError as e:  # the resolver's IDNA encoding refuses the name
        raise httpcore.ConnectError(f"cannot resolve {host}: {e}") from None
    seen: list[str] = []
    for *_, sockaddr in infos:
        addr = str(sockaddr[0]).split("%", 1)[0]
        if addr not in seen:
            seen.append(addr)
    return seen


class _GuardedBackend(httpcore.AsyncNetworkBackend):
    """Resolves, checks and connects in one place, so the address checked is the one used."""

    def __init__(self, allow_private: bool, allow_networks: tuple[str, ...] = ()):
        self._inner = httpcore.AnyIOBackend()
        self.allow_private = allow_private
        self.allow_networks = [ipaddress.ip_network(n, strict=False) for n in allow_networks]

    def refusal(self, ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
        why = address_refusal(ip, allow_private=self.allow_private)
        if why and ip not in METADATA_ADDRESSES and any(ip in net for net in self.allow_networks):
            return None
        return why

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                          local_address: str | None = None,
                          socket_options: Iterable[Any] | None = None) -> httpcore.AsyncNetworkStream:
        addresses = await resolve(host, port, timeout)
        if not addresses:
            raise httpcore.ConnectError(f"{host} has no address")
        for addr in addresses:  # every address must pass: the resolver's order is not ours to trust
            why = self.refusal(ipaddress.ip_address(addr))
            if why:
                shown = host if host == addr else f"{host} ({addr})"
                raise BlockedAddressError(f"{shown} is {why}")
        last: Exception | None = None
        for addr in addresses:
            try:
                return await self._inner.connect_tcp(addr, port, timeout=timeout, local_address=local_address,
                                                     socket_options=socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as e:
                last = e
        raise last or httpcore.ConnectError(f"cannot connect to {host}")

    async def connect_unix_socket(self, path: str, timeout: float | None = None,
                                  socket_options: Iterable[Any] | None = None) -> httpcore.AsyncNetworkStream:
        raise BlockedAddressError("unix sockets are not fetched")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class _GuardedTransport(httpx.AsyncHTTPTransport):
    """httpx's transport over a connection pool that uses :class:`_GuardedBackend`."""

    def __init__(self, allow_private: bool, allow_networks: tuple[str, ...] = (), max_connections: int = 20):
        super().__init__(trust_env=False)
        import certifi

        # httpx does not let a caller choose the network backend, so the pool is replaced;
        # the SSRF tests fail if httpx ever stops using ``_pool``.
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl.create_default_context(cafile=certifi.where()),
            max_connections=max_connections, max_keepalive_connections=max_connections,
            keepalive_expiry=5.0, network_backend=_GuardedBackend(allow_private, allow_networks))


# --- the fetcher -----------------------------------------------------------------------------
@dataclass
class _Body:
    url: str
    status: int
    content_type: str
    charset: str | None
    data: bytes
    truncated: bool
    redirects: list[str]
    location: str = ""  # of a redirect


class _Redirect(Exception):
    """A redirect answer, raised from the client's response hook: httpx would otherwise
    build the next request itself (and fail on a Location it cannot parse, outside our
    error type) even with redirects off. Our own loop checks and follows it."""

    def __init__(self, status: int, location: str):
        super().__init__(location)
        self.status, self.location = status, location


async def _take_redirect(response: httpx.Response) -> None:
    location = response.headers.get("location")
    if response.status_code in (301, 302, 303, 307, 308) and location:
        raise _Redirect(response.status_code, location)


_UNRESERVED_ESCAPE = re.compile(r"%(2[dDeE]|5[fF]|7[eE]|3[0-9]|4[1-9a-fA-F]|5[0-9aA]|6[1-9a-fA-F]|7[0-9aA])")


def robots_target(url: str) -> str:
    """``url`` as the HTTP client sends it, normalised (RFC 3986 6.2.2): escaped unreserved
    characters decoded (``%2e`` is ``.``, ``%70`` is ``p``), dot segments removed and
    repeated slashes merged, so that robots.txt rules are matched against the path the
    server serves (``/public/../private/x``, ``/public/%2e%2e/private/x`` and
    ``//private/x`` are ``/private/x``)."""
    u = httpx.URL(url)
    path, sep, query = u.raw_path.decode("ascii").partition("?")
    path = _UNRESERVED_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), path)
    path = re.sub("/{2,}", "/", path)  # as most servers read "//private" (nginx merge_slashes)
    segments: list[str] = []
    parts = path.split("/")[1:]
    for i, seg in enumerate(parts):
        if seg in (".", ".."):
            if seg == ".." and segments:
                segments.pop()
            if i == len(parts) - 1:
                segments.append("")  # "/a/.." is "/", a folder
        else:
            segments.append(seg)
    raw = ("/" + "/".join(segments) + sep + query).encode("ascii")
    return str(u.copy_with(raw_path=raw, fragment=None))


def _join(base: str, location: str) -> str:
    """A redirect's Location, resolved against the URL it answered; FetchError if unusable."""
    try:
        return urljoin(base, location)
    except ValueError as e:
        raise FetchError(location, "bad_url", f"not a valid URL ({printable(str(e))[:200]})") from None


def _media_type(header: str | None) -> tuple[str, str | None]:
    if not header:
        return "", None
    msg = email.message.Message()
    msg["content-type"] = header
    charset = msg.get_param("charset")
    return msg.get_content_type().lower(), (str(charset).strip().lower() if charset else None)


def check_url(url: str) -> str:
    """``url`` if it is an absolute http(s) URL with a host that the HTTP client can
    request (it is parsed as the client parses it: octal IPv4 parts, control characters
    and malformed international names are refused here); :class:`FetchError` otherwise."""
    text = (url or "").strip() if isinstance(url, str) else ""
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError on a bad port
        httpx.URL(text)
    except (ValueError, httpx.InvalidURL) as e:  # (UnicodeError and IDNAError are ValueErrors)
        raise FetchError(text, "bad_url", f"not a valid URL ({printable(str(e))[:200]})") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise FetchError(text, "bad_url", "only http:// and https:// URLs can be fetched")
    if not parts.hostname:
        raise FetchError(text, "bad_url", "the URL has no host")
    if parts.username or parts.password:
        raise FetchError(text, "bad_url", "URLs with a user name or password are not fetched")
    host = parts.hostname.rstrip(".")
    if ":" not in host and (len(host) > 253 or not all(0 < len(label) <= 63 for label in host.split("."))):
        raise FetchError(text, "bad_url", "the host name has an empty or over-long part")
    return text


class PageFetcher:
    """Fetches pages under a :class:`FetchPolicy`; one instance per event loop (its
    connection pool belongs to the loop it was first used in)."""

    CACHE_PAGES = 64
    CACHE_CHARS = 16_000_000  # text of the cached pages, in all
    CACHE_SECONDS = 600.0
    ROBOTS_SITES = 512

    def __init__(self, policy: FetchPolicy | None = None):
        self.policy = policy or FetchPolicy()
        self._client: httpx.AsyncClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._robots: LRU[str, urllib.robotparser.RobotFileParser | None] = LRU(self.ROBOTS_SITES)
        self._robots_locks: dict[str, asyncio.Lock] = {}
        # Pages fetched lately, by requested URL: a page checked at preflight (research_urls)
        # is not fetched again when research starts.
        self._pages: LRU[str, tuple[float, FetchedPage]] = LRU(self.CACHE_PAGES)

    def _get_client(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a client's connections belong to the loop that opened them
            self._client, self._loop = None, loop
            self._robots_locks = {}
        if self._client is None:
            p = self.policy
            self._client = httpx.AsyncClient(
                transport=_GuardedTransport(p.allow_private, p.allow_networks), follow_redirects=False, trust_env=False,
                event_hooks={"response": [_take_redirect]},
                timeout=httpx.Timeout(p.read_timeout_s, connect=p.connect_timeout_s),
                headers={"User-Agent": p.user_agent,
                         "Accept": "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.8,"
                                   "application/pdf;q=0.8",
                         "Accept-Encoding": ACCEPT_ENCODING})
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    # -- public ------------------------------------------------------------------------
    async def fetch(self, url: str) -> FetchedPage:
        """The page at ``url`` with its text, or :class:`FetchError` saying why not."""
        url = check_url(url)
        cached = self._pages.get(url)
        if cached is not None and time.monotonic() - cached[0] < self.CACHE_SECONDS:
            return cached[1]
        try:
            async with asyncio.timeout(self.policy.timeout_s):
                body = await self._get(url)
        except TimeoutError:
            raise FetchError(url, "timeout", f"no complete answer within {self.policy.timeout_s:g} s",
                             transient=True) from None
        try:  # in a worker process, with a time bound of its own (see .extraction_pool)
            page = await POOL.run("page", url, body, timeout=self.policy.extract_timeout_s)
        except ExtractionTimeout as e:
            raise FetchError(url, "timeout", str(e)) from None
        except ExtractionFailed as e:
            raise FetchError(url, "unreadable", f"the page's text could not be extracted ({e})") from None
        if not page.text.strip():
            raise FetchError(url, "empty", "the page has no readable text")
        self._pages[url] = (time.monotonic(), page)
        while sum(len(p.text) for _, p in self._pages.values()) > self.CACHE_CHARS and len(self._pages) > 1:
            self._pages.popitem(last=False)
        return page

    async def fetch_many(self, urls: list[str], *, concurrency: int = 4) -> list[FetchedPage | FetchError]:
        """Every URL fetched (at most ``concurrency`` at once); a failure is returned in its place."""
        sem = asyncio.Semaphore(max(1, concurrency))

        async def one(u: str) -> FetchedPage | FetchError:
            async with sem:
                try:
                    return await self.fetch(u)
                except FetchError as e:
                    return e
                except Exception as e:  # a bug on one page must not lose the others (logged, kept as its result)
                    log.warning("fetch of %s failed unexpectedly", printable(str(u)), exc_info=True)
                    return FetchError(str(u), "unreadable", f"{type(e).__name__}: {printable(str(e))[:200]}")

        return list(await asyncio.gather(*(one(u) for u in urls)))

    # -- HTTP --------------------------------------------------------------------------
    async def _get(self, url: str) -> _Body:
        redirects: list[str] = []
        current = url
        while True:
            try:
                await self._check_robots(current)
                body = await self._request_with_retries(current)
            except FetchError as e:
                if not redirects:
                    raise
                raise FetchError(url, e.reason, f"redirected to {printable(current)}: {e.detail}",
                                 transient=e.transient, status=e.status) from None
            if body.status in (301, 302, 303, 307, 308):
                location = body.location
                if len(redirects) >= self.policy.max_redirects:
                    raise FetchError(url, "redirects", f"more than {self.policy.max_redirects} redirects")
                nxt = location
                try:
                    nxt = check_url(_join(current, location))
                except FetchError as e:
                    raise FetchError(url, "bad_url", f"redirected to {printable(nxt)}: {e.detail}") from None
                if nxt in redirects or nxt == url:
                    raise FetchError(url, "redirects", "a redirect loop")
                redirects.append(nxt)
                current = nxt
                continue
            body.redirects = redirects
            return body

    async def _request_with_retries(self, url: str) -> _Body:
        attempts = self.policy.max_retries + 1
        for attempt in range(attempts):
            try:
                return await self._request(url)
            except FetchError as e:
                if not e.transient or attempt + 1 == attempts:
                    if e.transient and attempts > 1:
                        raise FetchError(e.url, e.reason, f"{e.detail} (after {attempts} attempts)",
                                         transient=True, status=e.status) from None
                    raise
                delay = e.retry_after
                if delay is None:
                    delay = backoff_delay(attempt, self.policy.backoff_s, self.policy.max_backoff_s)
                log.info("fetch of %s failed (%s); retrying in %.1fs", printable(url), e.detail, delay)
                await asyncio.sleep(min(delay, self.policy.max_backoff_s))
        raise AssertionError("unreachable")

    async def _request(self, url: str, *, max_bytes: int | None = None, accept_any: bool = False) -> _Body:
        limit = max_bytes or self.policy.max_bytes
        try:
            async with self._get_client().stream("GET", url) as r:
                status = r.status_code
                if status in (301, 302, 303, 307, 308):
                    raise FetchError(url, "http_status", f"HTTP {status} redirect without a Location")
                if status in _RETRY_STATUSES:
                    raise FetchError(url, "http_status", f"HTTP {status}", transient=True, status=status,
                                     retry_after=_retry_after(r.headers.get("retry-after")))
                if status >= 400 or status < 200:
                    raise FetchError(url, "http_status", f"HTTP {status}", status=status)
                ctype, charset = _media_type(r.headers.get("content-type"))
                if not accept_any and ctype and ctype not in ALLOWED_TYPES:
                    raise FetchError(url, "content_type", f"content type {printable(ctype)} is not a page "
                                     "(HTML, text, markdown or PDF)")
                declared = r.headers.get("content-length")
                if ctype in PDF_TYPES and declared and declared.isdigit() and int(declared) > limit:
                    raise FetchError(url, "too_large", f"the PDF is {int(declared):,} bytes; the limit is "
                                     f"{limit:,}")
                try:
                    data, truncated = await read_limited(r, limit)
                except BodyError as e:
                    raise FetchError(url, "unreadable", str(e)) from None
                if truncated and ctype in PDF_TYPES:
                    raise FetchError(url, "too_large", f"the PDF is larger than the limit of {limit:,} bytes")
                return _Body(str(r.url), status, ctype, charset, data, truncated, [])
        except _Redirect as r:
            return _Body(url, r.status, "", None, b"", False, [], r.location)
        except FetchError:
            raise
        except (httpx.InvalidURL, UnicodeError) as e:  # a host name no resolver takes ("xn--", "a..b")
            raise FetchError(url, "bad_url", f"not a valid URL ({printable(str(e))[:200]})") from None
        except BlockedAddressError as e:
            raise FetchError(url, "blocked_address", f"refused: {e} (fetch_allow_private allows private "
                             "networks)") from None
        except httpx.TimeoutException as e:
            raise FetchError(url, "timeout", f"timed out ({type(e).__name__})", transient=True) from None
        except (httpx.TransportError, httpcore.ConnectError, OSError) as e:
            detail = str(e) or type(e).__name__
            raise FetchError(url, "unreachable", f"cannot connect ({printable(detail)[:200]})",
                             transient=True) from None
        except httpx.HTTPError as e:
            raise FetchError(url, "unreadable", f"bad HTTP answer ({type(e).__name__})") from None

    # -- robots.txt ---------------------------------------------------------------------
    async def _check_robots(self, url: str) -> None:
        if not self.policy.respect_robots:
            return
        url = robots_target(url)  # the path the server will see, not the one as written
        parts = urlsplit(url)
        origin = f"{parts.scheme.lower()}://{parts.netloc.lower()}"
        self._get_client()  # (a new event loop gets new locks)
        lock = self._robots_locks.setdefault(origin, asyncio.Lock())
        try:
            async with lock:
                if origin not in self._robots:
                    try:
                        self._robots[origin] = await self._load_robots(origin)
                    except FetchError as e:  # the address is refused: say so for the page asked for
                        raise FetchError(url, e.reason, e.detail) from None
                parser = self._robots[origin]
        finally:
            if not lock.locked() and len(self._robots_locks) > self.ROBOTS_SITES:
                self._robots_locks.pop(origin, None)  # a lock per site, only while it is wanted
        if parser is not None and not parser.can_fetch(ROBOTS_AGENT, url):
            raise FetchError(url, "robots", f"{origin}/robots.txt disallows fetching this page")

    async def _load_robots(self, origin: str) -> urllib.robotparser.RobotFileParser | None:
        """The origin's robots.txt rules; None (everything allowed) when it cannot be read."""
        url = origin + "/robots.txt"
        try:
            async with asyncio.timeout(self.policy.robots_timeout_s):
                current, body = url, None
                for _ in range(self.policy.max_redirects + 1):
                    body = await self._request(current, max_bytes=ROBOTS_MAX_BYTES, accept_any=True)
                    if body.status not in (301, 302, 303, 307, 308):
                        break
                    current = check_url(_join(current, body.location))
                else:
                    return None
        except (FetchError, TimeoutError) as e:
            if isinstance(e, FetchError) and e.reason == "blocked_address":
                raise FetchError(origin, "blocked_address", e.detail) from None
            log.info("robots.txt of %s not read (%s); treated as allowing everything", printable(origin),
                     getattr(e, "detail", "timeout"))
            return None
        if body is None or body.status != 200:
            return None
        parser = urllib.robotparser.RobotFileParser(url)
        parser.parse(body.data.decode("utf-8", "replace").splitlines())
        return parser



# --- text ------------------------------------------------------------------------------------
def extract_page(requested: str, body: _Body) -> FetchedPage:
    """The text of a fetched body (run in a worker process: :mod:`.extraction_pool`)."""
    ctype = body.content_type or _sniff(body.data)
    common: dict[str, Any] = dict(url=body.url, requested_url=requested, content_type=ctype,
                                  truncated=body.truncated, redirects=body.redirects)
    if body.truncated:  # (a PDF over the limit is refused: a part of one is not a document)
        common["cut"] = (f"only the first {len(body.data):,} bytes of the page were read (the fetch limit), "
                         "and its text after that point is missing")
    if ctype in PDF_TYPES:
        try:
            doc = pdf_to_text(body.data)
        except PdfTextError as e:
            raise FetchError(requested, "unreadable", str(e)) from None
        return FetchedPage(title=doc.title, text=doc.text, format="text", **common)
    text = _decode(body.data, body.charset, html=ctype in HTML_TYPES)
    if ctype in MARKDOWN_TYPES:
        return FetchedPage(title=markdown_title(text), text=text, format="markdown", **common)
    if ctype in TEXT_TYPES:
        first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
        return FetchedPage(title=first[:120], text=text, format="text", **common)
    return _extract_html(text, common)


def _extract_html(html: str, common: dict) -> FetchedPage:
    """The page's visible text (its main element's, when it marks one) and, from
    trafilatura, its metadata.

    The text is not trafilatura's main-text output: that output rewrites the page (it
    drops link-dense paragraphs, joins list items, escapes markdown), so a sentence the
    reader sees could fail verification and its text fragment could miss. The text comes
    from :func:`.extract.html_to_text`, which renders what a browser shows (the fragment
    engine is tested against Chromium on it), narrowed to ``<main>``/``<article>``."""
    import trafilatura

    meta: dict[str, Any] = {}
    try:
        found = trafilatura.extract_metadata(html, default_url=common["url"])
        if found is not None:
            meta = {"title": found.title, "published": found.date, "author": found.author,
                    "site_name": found.sitename}
    except Exception as e:  # noqa: BLE001 - metadata is optional
        log.info("no metadata read from %s (%s)", printable(common["url"]), type(e).__name__)
    visible = html_to_text(html, main_only=True)
    title = (visible.title or meta.get("title") or "").strip()  # the page's <title>, as a browser tab shows
    clean = {k: (str(v).strip() or None) if v else None for k, v in meta.items() if k != "title"}
    if visible.cut:
        common = {**common, "cut": "; ".join(x for x in (common.get("cut"), visible.cut) if x)}
    return FetchedPage(title=title, text=visible.text, format="text", **clean, **common)


def _sniff(data: bytes) -> str:
    head = data[:512].lstrip().lower()
    if head.startswith(b"%pdf-"):
        return "application/pdf"
    if head.startswith((b"<!doctype html", b"<html")) or b"<body" in head:
        return "text/html"
    return "text/plain"


def _decode(data: bytes, charset: str | None, *, html: bool) -> str:
    """Text of a body: the header's charset, else (HTML) its <meta> charset, else UTF-8,
    else the charset charset_normalizer detects. A charset counts only if it is one of the
    Encoding Standard's labels, as in a browser (``latin1`` is windows-1252 there): other
    codecs Python knows, such as ``punycode`` (quadratic) or ``idna`` (raises on any
    error), are not text encodings of the web and are ignored."""
    for name in (charset, declared_charset(data) if html else None):
        encoding = webencodings.lookup(name) if isinstance(name, str) else None
        if encoding is not None and encoding.name != "replacement":
            return webencodings.decode(data, encoding, errors="replace")[0]  # a BOM wins, as in a browser
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        from charset_normalizer import from_bytes

        best = from_bytes(data).best()
        if best is not None:
            return str(best)
    except Exception:  # noqa: BLE001 - fall through to a lossy decode
        pass
    return data.decode("utf-8", errors="replace")


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())

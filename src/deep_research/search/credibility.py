"""Source credibility: a score from 0 to 1 per source, with the reasons for it.

The score is a judgement of *where* a page comes from, not of what it says: it ranks
search results before they are summarised, can drop sources below a minimum
(``min_source_credibility``), and is shown next to each source in the Sources list so a
reader sees why a source was weighed as it was. Pure code: no network, no model.

How a score is made (weights are :data:`WEIGHTS`; every signal that applies is listed
in :attr:`Credibility.reasons`):

1. **The kind of site** gives the base score. The first rule that matches wins:

   ========================================  =====  ==============================================
   rule                                      base   reason shown
   ========================================  =====  ==============================================
   a local corpus document                   0.90*  "local corpus document, chosen by you"
   user's trusted domains                    0.85   "trusted domain HOST"
   user's low-trust domains                  0.15   "low-trust domain HOST" (final score <= 0.30)
   built-in reference / official sites       0.70   "official or reference site HOST"
   (.gov, .edu, .int, .mil, standards bodies,
   docs.*/developer.* hosts, encyclopaedias)
   built-in forums, Q&A, social media,       0.30   "forum, Q&A or social media site HOST"
   content farms
   anything else                             0.50   (no reason: the neutral start)
   ========================================  =====  ==============================================

   \\* local documents score ``local_score`` (setting ``local_source_credibility``) and
   no other signal applies: the user chose them.

   Domains match by suffix, case-insensitively, after IDNA encoding (``bücher.de`` and
   ``xn--bcher-kva.de`` are the same domain): ``python.org`` matches ``docs.python.org``
   but not ``notpython.org``. When a host matches several configured entries, the
   longest (most specific) wins, so ``example.com`` trusted with ``forum.example.com``
   low-trust works as expected. The user's lists are checked before the built-in ones,
   so they override them (trust a forum, distrust a ``.gov`` mirror).

2. **Adjustments** added to the base:

   * ``https``: +0.05 ("https"); plain ``http``: -0.10 ("no https"); a bare IP
     address instead of a name: -0.10 ("IP address host").
   * **publication date** (``published`` / ``published_date`` from the page's metadata or
     the search engine), relative to the day of the run, only a small factor: within two
     years +0.05 ("published YYYY-MM-DD"), older than five years -0.05 ("published
     YYYY-MM-DD, over 5 years old"). A date that cannot be read or lies in the future is
     ignored.
   * **page metadata**: an author +0.05 ("author named"), a site name +0.03 ("site name
     NAME").

3. The total is clamped to [0, 1] (low-trust domains to at most 0.30, trusted ones to at
   least 0.60) and rounded to two decimals.

The built-in lists are small on purpose (well-known cases only); a deployment widens or
overrides them with ``trusted_domains`` / ``low_trust_domains``, or passes its own
``reference_domains`` / ``forum_domains`` to :class:`CredibilityPolicy`.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import urlsplit

T = TypeVar("T")

WEIGHTS: dict[str, float] = {
    "neutral": 0.50,
    "trusted": 0.85,
    "low_trust": 0.15,
    "reference": 0.70,
    "forum": 0.30,
    "local": 0.90,
    "https": 0.05,
    "no_https": -0.10,
    "ip_host": -0.10,
    "recent": 0.05,
    "old": -0.05,
    "author": 0.05,
    "site_name": 0.03,
    "low_trust_ceiling": 0.30,
    "trusted_floor": 0.60,
}
RECENT_DAYS = 2 * 365
OLD_DAYS = 5 * 365

# Official, standards and reference sites (suffix match). Top-level domains of
# institutions come first; hosts starting with docs./developer. are matched by rule.
REFERENCE_DOMAINS: tuple[str, ...] = (
    "gov", "edu", "int", "mil", "gov.uk", "ac.uk", "gouv.fr", "bund.de", "europa.eu", "gc.ca", "gov.au",
    "w3.org", "ietf.org", "rfc-editor.org", "iso.org", "ieee.org", "unicode.org", "whatwg.org", "ecma-international.org",
    "who.int", "un.org", "oecd.org", "worldbank.org", "imf.org", "nist.gov", "nih.gov",
    "wikipedia.org", "britannica.com", "arxiv.org", "doi.org", "nature.com", "science.org", "acm.org",
    "python.org", "readthedocs.io", "developer.mozilla.org", "learn.microsoft.com", "postgresql.org",
)
REFERENCE_HOST_PREFIXES: tuple[str, ...] = ("docs.", "developer.", "developers.")

# Forums, Q&A, social media and content farms (suffix match).
FORUM_DOMAINS: tuple[str, ...] = (
    "reddit.com", "quora.com", "stackexchange.com", "stackoverflow.com", "answers.yahoo.com",
    "twitter.com", "x.com", "facebook.com", "instagram.com", "tiktok.com", "pinterest.com", "linkedin.com",
    "threads.net", "youtube.com", "medium.com", "substack.com", "blogspot.com", "wordpress.com", "tumblr.com",
    "ehow.com", "answers.com", "wikihow.com", "hubpages.com", "ezinearticles.com",
)


@dataclass(frozen=True)
class Credibility:
    """A source's score (0..1, two decimals) and the signals behind it, for display."""

    score: float
    reasons: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        return {"score": self.score, "reasons": list(self.reasons)}

    def describe(self) -> str:
        """``credibility 0.82 — trusted domain docs.python.org, https``"""
        text = f"credibility {self.score:.2f}"
        return f"{text} \u2014 {', '.join(self.reasons)}" if self.reasons else text


def normalize_domain(entry: str) -> str:
    """A domain list entry as a lower-case IDNA (ASCII) domain. Accepts ``example.com``,
    ``.example.com``, ``*.example.com``, a URL (its host is used) and Unicode names.
    Raises ValueError with a readable message for anything else."""
    text = str(entry or "").strip()
    if "://" in text:
        text = urlsplit(text).hostname or ""
    text = text.lower().lstrip("*").strip(".")
    if not text:
        raise ValueError(f"{entry!r} is not a domain")
    if any(c in text for c in "/ @:?#\\") or ".." in text:
        raise ValueError(f"{entry!r} is not a domain (write e.g. example.com)")
    try:
        return _idna(text)
    except ValueError:
        raise ValueError(f"{entry!r} is not a valid domain name") from None


def _idna(host: str) -> str:
    """``host`` in lower-case ASCII: Unicode labels encoded by IDNA 2008 with the UTS #46
    mapping (as browsers do: ``faß.de`` is ``xn--fa-hia.de``, not ``fass.de``)."""
    import idna

    labels = []
    for label in host.split("."):
        if not label:
            raise ValueError(host)
        if not label.isascii():
            try:
                label = idna.encode(label, uts46=True).decode("ascii")
            except idna.IDNAError as e:
                raise ValueError(f"{host}: {e}") from None
        if not re.fullmatch(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?", label):
            raise ValueError(host)
        labels.append(label)
    return ".".join(labels)


def host_of(url: str) -> str | None:
    """The URL's host, lower case and IDNA-encoded, or None (no host, or unreadable)."""
    try:
        host = urlsplit(str(url or "").strip()).hostname
    except ValueError:
        return None
    if not host:
        return None
    host = host.rstrip(".")
    try:
        ipaddress.ip_address(host)
        return host
    except ValueError:
        pass
    try:
        return _idna(host)
    except (ValueError, UnicodeError):
        return host


def display_host(host: str) -> str:
    """A host as people write it (IDNA ``xn--`` labels decoded)."""
    import idna

    try:
        return ".".join(idna.decode(lb) if lb.startswith("xn--") else lb for lb in host.split("."))
    except (idna.IDNAError, UnicodeError, ValueError):
        return host


def domain_match(host: str, domains: Iterable[str]) -> str | None:
    """The longest entry of ``domains`` (normalised) that ``host`` is or is under."""
    best = None
    for d in domains:
        if (host == d or host.endswith("." + d)) and (best is None or len(d) > len(best)):
            best = d
    return best


def _normalized(entries: Iterable[str] | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(normalize_domain(e) for e in entries or ()))


@dataclass(frozen=True)
class CredibilityPolicy:
    """What the scores are made from: the user's lists, the built-in lists, the score of
    a local corpus document, and the day of the run (for the age of a page)."""

    trusted_domains: tuple[str, ...] = ()
    low_trust_domains: tuple[str, ...] = ()
    local_score: float = WEIGHTS["local"]
    today: dt.date | None = None
    reference_domains: tuple[str, ...] = REFERENCE_DOMAINS
    forum_domains: tuple[str, ...] = FORUM_DOMAINS
    weights: Mapping[str, float] = field(default_factory=lambda: dict(WEIGHTS))

    @classmethod
    def make(cls, trusted: Iterable[str] | None = None, low_trust: Iterable[str] | None = None,
             **kwargs: Any) -> CredibilityPolicy:
        """A policy with the user's lists normalised (ValueError names a bad entry)."""
        if not 0 <= kwargs.get("local_score", 0) <= 1:
            raise ValueError("the score of local documents must be between 0 and 1")
        for key in ("reference_domains", "forum_domains"):
            if key in kwargs:
                kwargs[key] = _normalized(kwargs[key])
        return cls(_normalized(trusted), _normalized(low_trust), **kwargs)


def published_date(metadata: Mapping[str, Any] | None) -> dt.date | None:
    """The publication date in a page's metadata (``published``, ``published_date``,
    ``date``; ISO 8601 or an RFC 2822 date as in feeds), or None."""
    for key in ("published", "published_date", "date"):
        value = (metadata or {}).get(key)
        if isinstance(value, dt.datetime):
            return value.date()
        if isinstance(value, dt.date):
            return value
        if isinstance(value, str) and value.strip():
            parsed = _parse_date(value.strip())
            if parsed:
                return parsed
    return None


def _parse_date(text: str) -> dt.date | None:
    try:
        return dt.datetime.fromisoformat(text).date()  # 3.11 reads a trailing Z too
    except ValueError:
        pass
    m = re.match(r"^(\d{4})-(\d{2})-(\d{2})", text)
    if m:
        try:
            return dt.date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            return None
    from email.utils import parsedate_to_datetime

    try:
        return parsedate_to_datetime(text).date()
    except (TypeError, ValueError, IndexError):
        return None


def _text(metadata: Mapping[str, Any] | None, key: str) -> str:
    value = (metadata or {}).get(key)
    if isinstance(value, (list, tuple)):
        value = ", ".join(str(v) for v in value if str(v).strip())
    return " ".join(str(value).split())[:80] if isinstance(value, (str, list, tuple)) and value else ""


def score_source(url: str, metadata: Mapping[str, Any] | None = None,
                 policy: CredibilityPolicy | None = None, *, local: bool = False) -> Credibility:
    """The credibility of the page at ``url`` with its ``metadata`` (optional keys
    ``published``/``published_date``, ``author``, ``site_name``); see the module docstring."""
    policy = policy or CredibilityPolicy()
    w = policy.weights
    if local:
        return Credibility(round(policy.local_score, 2), ("local corpus document, chosen by you",))
    host = host_of(url)
    if host is None:
        return Credibility(round(w["forum"], 2), ("no web address",))
    reasons: list[str] = []
    kind, score = "neutral", w["neutral"]
    shown = display_host(host)
    trusted = domain_match(host, policy.trusted_domains)
    low = domain_match(host, policy.low_trust_domains)
    if trusted and (not low or len(trusted) >= len(low)):
        kind, score = "trusted", w["trusted"]
        reasons.append(f"trusted domain {shown}")
    elif low:
        kind, score = "low_trust", w["low_trust"]
        reasons.append(f"low-trust domain {shown}")
    elif domain_match(host, policy.reference_domains) or host.startswith(REFERENCE_HOST_PREFIXES):
        kind, score = "reference", w["reference"]
        reasons.append(f"official or reference site {shown}")
    elif domain_match(host, policy.forum_domains):
        kind, score = "forum", w["forum"]
        reasons.append(f"forum, Q&A or social media site {shown}")
    scheme = urlsplit(url.strip()).scheme.lower()
    if scheme == "https":
        score += w["https"]
        reasons.append("https")
    elif scheme == "http":
        score += w["no_https"]
        reasons.append("no https")
    if _is_ip(host):
        score += w["ip_host"]
        reasons.append("IP address host")
    published = published_date(metadata)
    today = policy.today or dt.date.today()
    if published is not None and published <= today:
        age = (today - published).days
        if age <= RECENT_DAYS:
            score += w["recent"]
            reasons.append(f"published {published.isoformat()}")
        elif age > OLD_DAYS:
            score += w["old"]
            reasons.append(f"published {published.isoformat()}, over {OLD_DAYS // 365} years old")
    if _text(metadata, "author"):
        score += w["author"]
        reasons.append("author named")
    site = _text(metadata, "site_name")
    if site:
        score += w["site_name"]
        reasons.append(f"site name {site}")
    if kind == "low_trust":
        score = min(score, w["low_trust_ceiling"])
    elif kind == "trusted":
        score = max(score, w["trusted_floor"])
    return Credibility(round(min(1.0, max(0.0, score)), 2), tuple(reasons))


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def rank(items: Sequence[T], scores: Sequence[float]) -> list[T]:
    """``items`` (in the search engine's order) reordered by a blend of their search
    position and their credibility: ``0.5 * relevance + 0.5 * credibility``, where
    relevance falls linearly from 1 (first result) to 1/n (last). Ties keep the search
    order. A source two places down overtakes one above it when its credibility is at
    more than 0.4 higher (with five results)."""
    n = len(items)
    if len(scores) != n:
        raise ValueError("one score per item")
    keyed = [(round(0.5 * (1 - i / n) + 0.5 * s, 9), -i) for i, s in enumerate(scores)]
    order = sorted(range(n), key=lambda i: keyed[i], reverse=True)
    return [items[i] for i in order]

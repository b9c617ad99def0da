"""Citation styles: the in-text marker and the reference-list entry of each cited source.

``citation_style`` is one of :data:`STYLES`:

============  ======================================  =============================================
style         in-text marker                          reference entry (web page)
============  ======================================  =============================================
numbered      ``[1]``                                 ``[1] Title: URL`` (the publisher's own form)
ieee          ``[1]``                                 ``[1] J. Smith, "Title," *Site*, May 1, 2023.
                                                      Accessed: Nov. 24, 2026. [Online]. Available: URL``
apa (7th)     ``(Smith, 2023)``                       ``Smith, J. (2023, May 1). *Title*. Site. URL``
mla (9th)     ``(Smith)``                             ``Smith, Jane. "Title." *Site*, 1 May 2023, URL.
                                                      Accessed 24 Nov. 2026.``
chicago       ``(Smith 2023)`` (author-date)          ``Smith, Jane. 2023. "Title." Site. May 1, 2023.
                                                      URL.``
============  ======================================  =============================================

Only what the page's metadata has is used: ``author``, ``site_name``, ``published`` (and the
title and URL every source has); the access date is the run's date. Rules when a field is
missing:

* **Author.** Several authors are split on ``;``, `` and `` or `` & `` (or on commas when every
  comma-separated part is a name of two words or more). A name written ``Family, Given`` is
  taken as such; otherwise the last word is the family name. A name of more than three words
  with no comma is taken to be an organisation and used whole, never abbreviated. No author:
  APA, Chicago and IEEE use the site name in the author's place (APA's group author; IEEE omits
  the author and starts with the title); MLA starts the entry with the title and its in-text
  marker is the title, shortened to four words, in quotation marks (MLA 9 rule).
* **Site name.** ``site_name``; else the part of the title after a final `` | `` or `` — ``
  (which is then removed from the title); else the URL's host without ``www.``; else (a local
  file) the title.
* **Date.** ``published`` read as ISO 8601 (``2023``, ``2023-05`` or ``2023-05-01[T…]``), else
  the first four-digit year 1900–2099 in it. No date: APA and Chicago write ``n.d.``; MLA and
  IEEE leave it out. APA and Chicago add the access (retrieval) date only when the page has no
  date (content that may change); MLA and IEEE always add it.
* **Same marker for two sources.** APA and Chicago add a, b, … to the year (``2023a``,
  ``n.d.-a`` in APA) in both the marker and the entry; MLA adds the shortened title
  (``(Smith, "Title")``).
* **Order.** numbered and ieee list sources in the order of first citation; apa, mla and
  chicago alphabetically by the entry's first words (family name, organisation or title;
  leading quotation marks ignored).

Every entry keeps its number (the anchor the markers link to), and the publisher shows each
source's verified quotes with their fragment links under the entry, whatever the style.
Pure: no I/O, no model; the same input always gives the same text.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from .model import Source

STYLES = ("numbered", "apa", "mla", "ieee", "chicago")
DEFAULT_STYLE = "numbered"

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December"]
_MLA_MONTHS = ["Jan.", "Feb.", "Mar.", "Apr.", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec."]
_IEEE_MONTHS = ["Jan.", "Feb.", "Mar.", "Apr.", "May", "Jun.", "Jul.", "Aug.", "Sep.", "Oct.", "Nov.", "Dec."]
_ISO = re.compile(r"\s*(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:[T ]|\s*$)")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_ALNUM = re.compile(r"[^\W_]")  # a letter or a digit
_TITLE_SITE = re.compile(r"^(.+?)\s+(?:\||\u2014)\s+([^|\u2014]{1,60})$")


def check_style(style: str | None) -> str:
    """The style's canonical name; ValueError naming the allowed values otherwise."""
    s = (style or DEFAULT_STYLE).strip().lower()
    if s not in STYLES:
        raise ValueError(f"unknown citation style {style!r}: choose one of {', '.join(STYLES)}")
    return s


@dataclass(frozen=True)
class Date:
    year: int
    month: int | None = None
    day: int | None = None


def parse_date(value: object) -> Date | None:
    """``published`` as a date: ISO 8601 first, else a year found in the text."""
    if isinstance(value, (dt.date, dt.datetime)):
        return Date(value.year, value.month, value.day)
    if not isinstance(value, str) or not value.strip():
        return None
    m = _ISO.match(value)
    if m:
        y, mo, d = int(m.group(1)), m.group(2), m.group(3)
        month = int(mo) if mo and 1 <= int(mo) <= 12 else None
        day = int(d) if d and month and 1 <= int(d) <= 31 else None
        return Date(y, month, day)
    m = _YEAR.search(value)
    return Date(int(m.group(1))) if m else None


@dataclass(frozen=True)
class Person:
    family: str
    given: str = ""
    organisation: bool = False

    def initials(self, sep: str = " ") -> str:
        """"J. Q." of "Jane Quinn": each part's first letter or digit (not a quote mark,
        bracket or bidi control before it; a part with none gives none)."""
        out = []
        for p in re.split(r"[\s.]+", self.given):
            # Jean-Paul -> J.-P.
            letters = [f"{m.group()}." for part in p.split("-") if (m := _ALNUM.search(part))]
            if letters:
                out.append("-".join(letters))
        return sep.join(out)


def _person(name: str) -> Person:
    name = " ".join(name.split()).strip(" ,;")
    if "," in name:
        family, given = (x.strip() for x in name.split(",", 1))
        return Person(family, given)
    words = name.split()
    if len(words) > 3 or len(words) == 1:
        return Person(name, "", organisation=len(words) > 3)
    return Person(words[-1], " ".join(words[:-1]))


MAX_AUTHOR_CHARS = 2_000


def parse_authors(value: object) -> list[Person]:
    if isinstance(value, (list, tuple)):
        names = [str(v) for v in value if isinstance(v, str) and v.strip()]
    elif isinstance(value, str) and value.strip():
        # white space collapsed first (and the text bounded): the separators' \s* made a
        # long run of spaces from a page's metadata quadratic (40,000 spaces: 6 s)
        text = re.sub(r"^by\s+", "", " ".join(value[:MAX_AUTHOR_CHARS].split()), flags=re.IGNORECASE)
        names = [p for p in re.split(r"\s*;\s*|\s+and\s+|\s*&\s*", text) if p.strip()]
        if len(names) == 1 and "," in names[0]:
            parts = [p.strip() for p in names[0].split(",") if p.strip()]
            if len(parts) > 1 and all(len(p.split()) >= 2 for p in parts):
                names = parts
    else:
        return []
    return [_person(n) for n in names[:20]]


@dataclass(frozen=True)
class SourceInfo:
    """What a style can say about a source."""

    number: int
    title: str
    url: str
    site: str
    authors: tuple[Person, ...]
    date: Date | None
    site_given: bool  # the site name came from metadata or the title, not from the host


def _clean(text: object) -> str:
    return " ".join(str(text or "").split())


def describe(source: Source, number: int) -> SourceInfo:
    title = _clean(source.title)
    if not title:
        parts = urlsplit(source.url) if "://" in source.url else None
        name = parts.path.rstrip("/").rsplit("/", 1)[-1] if parts else ""
        title = name if parts and parts.scheme == "file" and name else _clean(source.url)
    site = _clean(getattr(source, "site_name", None))
    given = bool(site)
    if site:
        for sep in (" | ", " \u2014 ", " - ", " \u2013 "):
            if title.endswith(sep + site) and len(title) > len(sep + site):
                title = title[: -len(sep + site)].strip()
    else:
        m = _TITLE_SITE.match(title)
        if m and len(m.group(2).split()) <= 6:
            title, site, given = m.group(1).strip(), m.group(2).strip(), True
    if not site:
        try:
            host = urlsplit(source.url).hostname or ""
        except ValueError:
            host = ""
        site = host.removeprefix("www.")
    return SourceInfo(number, title, _clean(source.url), site,
                      tuple(parse_authors(getattr(source, "author", None))),
                      parse_date(getattr(source, "published", None)), given)


# --- names ---------------------------------------------------------------------------------
def _short_title(title: str, words: int = 4) -> str:
    w = title.split()
    return " ".join(w[:words]) + ("\u2026" if len(w) > words else "")


def _marker_names(info: SourceInfo, style: str) -> str:
    a = info.authors
    amp = " & " if style == "apa" else " and "
    if not a:
        return info.site or f"\u201c{_short_title(info.title)}\u201d"
    if len(a) == 1:
        return a[0].family
    if len(a) == 2:
        return a[0].family + amp + a[1].family
    return a[0].family + " et al."


def _apa_name(p: Person) -> str:
    if p.organisation or not p.given:
        return p.family
    return f"{p.family}, {p.initials()}"


def _given_first(p: Person, initials: bool = False) -> str:
    if p.organisation or not p.given:
        return p.family
    return f"{p.initials() if initials else p.given} {p.family}"


def _family_first(p: Person) -> str:
    return p.family if p.organisation or not p.given else f"{p.family}, {p.given}"


def _end(text: str, mark: str = ".") -> str:
    """``text`` ending with ``mark`` once (an abbreviation's period counts)."""
    text = text.rstrip()
    return text if text.endswith((mark, "?", "!")) else text + mark


def _authors_text(info: SourceInfo, style: str) -> str:
    a = list(info.authors)
    if style == "apa":
        names = [_apa_name(p) for p in a]
        if len(names) > 20:
            names = names[:19] + ["\u2026 " + names[-1]]
        if len(names) == 1:
            return names[0]
        return ", ".join(names[:-1]) + ", & " + names[-1]
    if style == "mla":
        if len(a) == 1:
            return _family_first(a[0])
        if len(a) == 2:
            return f"{_family_first(a[0])}, and {_given_first(a[1])}"
        return f"{_family_first(a[0])}, et al."
    if style == "chicago":
        names = [_family_first(a[0])] + [_given_first(p) for p in a[1:10]]
        if len(a) > 10:
            names = names[:7] + ["et al."]
            return ", ".join(names)
        if len(names) == 1:
            return names[0]
        if len(names) == 2:
            return f"{names[0]}, and {names[1]}"
        return ", ".join(names[:-1]) + ", and " + names[-1]
    # ieee
    names = [_given_first(p, initials=True) for p in a]
    if len(names) > 6:
        return names[0] + " et al."
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + ", and " + names[-1]


# --- dates ---------------------------------------------------------------------------------
def _apa_date(d: Date | None, suffix: str) -> str:
    if d is None:
        return "n.d." + (f"-{suffix}" if suffix else "")
    out = f"{d.year}{suffix}"
    if d.month:
        out += f", {_MONTHS[d.month - 1]}" + (f" {d.day}" if d.day else "")
    return out


def _mla_date(d: dt.date | Date) -> str:
    if isinstance(d, dt.date):
        d = Date(d.year, d.month, d.day)
    month = _MLA_MONTHS[d.month - 1] if d.month else ""
    return " ".join(x for x in (str(d.day) if d.day and d.month else "", month, str(d.year)) if x)


def _us_date(d: dt.date | Date, months: list[str] = _MONTHS) -> str:
    if isinstance(d, dt.date):
        d = Date(d.year, d.month, d.day)
    if not d.month:
        return str(d.year)
    return f"{months[d.month - 1]} {d.day}, {d.year}" if d.day else f"{months[d.month - 1]} {d.year}"


# --- entries -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reference:
    """One entry of the reference list. ``parts`` are (text, italic) runs; the URL is the
    last thing in the entry when ``url_at`` is None, else it is placed between
    ``parts[:url_at]`` and ``parts[url_at:]``."""

    number: int
    marker: str
    parts: tuple[tuple[str, bool], ...]
    url: str
    url_at: int | None = None

    @property
    def text(self) -> str:
        """The entry as plain text, URL included."""
        at = len(self.parts) if self.url_at is None else self.url_at
        before = "".join(t for t, _ in self.parts[:at])
        after = "".join(t for t, _ in self.parts[at:])
        return before + self.url + after


def _entry(info: SourceInfo, style: str, accessed: dt.date, suffix: str) -> Reference:
    P: list[tuple[str, bool]] = []
    add = lambda text, italic=False: P.append((text, italic))
    title, site = info.title, info.site
    site_differs = site and site.casefold() != title.casefold()
    if style == "apa":
        author = _authors_text(info, style) if info.authors else site
        if author:
            add(_end(author) + " ")
            add(f"({_apa_date(info.date, suffix)}). ")
            add(title, True)
            add("" if title.endswith((".", "?", "!")) else ".")
        else:  # no author, no site: the title takes the author's place
            add(title, True)
            add(("" if title.endswith((".", "?", "!")) else ".") + f" ({_apa_date(info.date, suffix)}).")
        if info.authors and site_differs:
            add(" " + _end(site))
        if info.date is None:
            add(f" Retrieved {_us_date(accessed)}, from ")
        else:
            add(" ")
        return Reference(info.number, "", tuple(P), info.url)
    if style == "mla":
        if info.authors:
            add(_end(_authors_text(info, style)) + " ")
        add(f"\u201c{_end(title)}\u201d ")
        if site_differs:
            add(site, True)
            add(", ")
        if info.date:
            add(_mla_date(info.date) + ", ")
        tail = f". Accessed {_mla_date(accessed)}."
        return Reference(info.number, "", tuple(P) + ((tail, False),), info.url, url_at=len(P))
    if style == "chicago":
        author = _authors_text(info, style) if info.authors else site
        year = f"{info.date.year}{suffix}" if info.date else "n.d." + (f"-{suffix}" if suffix else "")
        if author:
            add(_end(author) + " ")
            add(_end(year) + " ")
            add(f"\u201c{_end(title)}\u201d ")
        else:  # no author, no site: the title takes the author's place
            add(f"\u201c{_end(title)}\u201d ")
            add(_end(year) + " ")
        if info.authors and site_differs:
            add(_end(site) + " ")
        if info.date and info.date.month:
            add(_end(_us_date(info.date)) + " ")
        if info.date is None:
            add(f"Accessed {_end(_us_date(accessed))} ")
        return Reference(info.number, "", tuple(P) + ((".", False),), info.url, url_at=len(P))
    # ieee
    add(f"[{info.number}] ")
    if info.authors:
        add(_authors_text(info, style) + ", ")
    if site_differs or info.date:
        add(f"\u201c{title},\u201d ")
        if site_differs:
            add(site, True)
        if info.date:
            add((", " if site_differs else "") + _us_date(info.date, _IEEE_MONTHS))
        add(". ")
    else:
        add(f"\u201c{_end(title)}\u201d ")
    add(f"Accessed: {_us_date(accessed, _IEEE_MONTHS)}. [Online]. Available: ")
    return Reference(info.number, f"[{info.number}]", tuple(P), info.url)


class Styler:
    """Markers and entries of one report's cited sources in one style."""

    def __init__(self, style: str | None, sources: Iterable[Source], numbers: Mapping[str, int],
                 accessed: dt.date | None = None):
        self.style = check_style(style)
        self.accessed = accessed or dt.date.today()
        self.sources = {s.id: s for s in sources if s.id in numbers}
        self.infos = {sid: describe(s, numbers[sid]) for sid, s in self.sources.items()}
        self._suffix: dict[str, str] = {}
        self._markers: dict[str, str] = {}
        self._disambiguate()

    @property
    def numbered(self) -> bool:
        return self.style in ("numbered", "ieee")

    def _base_marker(self, info: SourceInfo) -> str:
        if self.style == "mla" and not info.authors:
            return f"\u201c{_short_title(info.title)}\u201d"
        return _marker_names(info, self.style)

    def _disambiguate(self) -> None:
        if self.numbered:
            return
        groups: dict[tuple, list[SourceInfo]] = {}
        for info in sorted(self.infos.values(), key=lambda i: i.number):
            year = info.date.year if info.date and self.style != "mla" else None
            groups.setdefault((self._base_marker(info).casefold(), year), []).append(info)
        for group in groups.values():
            if len(group) < 2:
                continue
            for k, info in enumerate(group):
                sid = next(s for s, i in self.infos.items() if i is info)
                if self.style == "mla":
                    self._markers[sid] = f"{self._base_marker(info)}, \u201c{_short_title(info.title)}\u201d"
                else:
                    self._suffix[sid] = chr(ord("a") + k) if k < 26 else str(k + 1)

    def marker(self, source_id: str) -> str:
        """The in-text marker (without a link)."""
        info = self.infos[source_id]
        if self.numbered:
            return f"[{info.number}]"
        if source_id in self._markers:
            return f"({self._markers[source_id]})"
        names = self._base_marker(info)
        if self.style == "mla":
            return f"({names})"
        suffix = self._suffix.get(source_id, "")
        year = f"{info.date.year}{suffix}" if info.date else "n.d." + (f"-{suffix}" if suffix else "")
        return f"({names}, {year})" if self.style == "apa" else f"({names} {year})"

    def reference(self, source_id: str) -> Reference:
        info = self.infos[source_id]
        if self.style == "numbered":
            title = _clean(self.sources[source_id].title) or _clean(self.sources[source_id].url)
            return Reference(info.number, f"[{info.number}]", ((f"[{info.number}] {title}: ", False),),
                             info.url)
        return _entry(info, self.style, self.accessed, self._suffix.get(source_id, ""))

    def order(self) -> list[str]:
        """Source ids in the reference list's order."""
        ids = sorted(self.infos, key=lambda s: self.infos[s].number)
        if self.numbered:
            return ids
        def key(sid: str) -> tuple:  # quotation marks and other leading symbols do not count
            text = re.sub(r"^\W+", "", self.reference(sid).text).casefold()
            return text, self.infos[sid].number

        return sorted(ids, key=key)

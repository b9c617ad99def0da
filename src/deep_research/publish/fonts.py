"""Which characters of a report no installed font can draw.

WeasyPrint finds fonts through fontconfig and falls back, character by character, to any
installed font that covers it. A character that *no* font covers is drawn as an empty box,
silently: a report with a Chinese section on a machine without CJK fonts shows boxes. So
publish asks fontconfig for the character set of every installed font (``fc-list``, the
same configuration WeasyPrint uses), or, without ``fc-list``, reads the fonts' character
maps with fontTools, and warns with the Debian package that provides the missing script.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

log = logging.getLogger(__name__)

# (first, last, script, Debian package) - the package that gives the script a font.
_SCRIPTS = (
    (0x0370, 0x03FF, "Greek", "fonts-dejavu-core"),
    (0x0400, 0x052F, "Cyrillic", "fonts-dejavu-core"),
    (0x0530, 0x058F, "Armenian", "fonts-noto-core"),
    (0x0590, 0x05FF, "Hebrew", "fonts-noto-core"),
    (0x0600, 0x06FF, "Arabic", "fonts-noto-core"),
    (0x0700, 0x074F, "Syriac", "fonts-noto-core"),
    (0x0750, 0x077F, "Arabic", "fonts-noto-core"),
    (0x0780, 0x07BF, "Thaana", "fonts-noto-core"),
    (0x0900, 0x097F, "Devanagari", "fonts-noto-core"),
    (0x0980, 0x09FF, "Bengali", "fonts-noto-core"),
    (0x0A00, 0x0A7F, "Gurmukhi", "fonts-noto-core"),
    (0x0A80, 0x0AFF, "Gujarati", "fonts-noto-core"),
    (0x0B00, 0x0B7F, "Oriya", "fonts-noto-core"),
    (0x0B80, 0x0BFF, "Tamil", "fonts-noto-core"),
    (0x0C00, 0x0C7F, "Telugu", "fonts-noto-core"),
    (0x0C80, 0x0CFF, "Kannada", "fonts-noto-core"),
    (0x0D00, 0x0D7F, "Malayalam", "fonts-noto-core"),
    (0x0D80, 0x0DFF, "Sinhala", "fonts-noto-core"),
    (0x0E00, 0x0E7F, "Thai", "fonts-noto-core"),
    (0x0E80, 0x0EFF, "Lao", "fonts-noto-core"),
    (0x0F00, 0x0FFF, "Tibetan", "fonts-noto-core"),
    (0x1000, 0x109F, "Myanmar", "fonts-noto-core"),
    (0x10A0, 0x10FF, "Georgian", "fonts-noto-core"),
    (0x1100, 0x11FF, "Hangul", "fonts-noto-cjk"),
    (0x1200, 0x139F, "Ethiopic", "fonts-noto-core"),
    (0x1780, 0x17FF, "Khmer", "fonts-noto-core"),
    (0x1800, 0x18AF, "Mongolian", "fonts-noto-core"),
    (0x2E80, 0x2FDF, "CJK", "fonts-noto-cjk"),
    (0x3000, 0x303F, "CJK", "fonts-noto-cjk"),
    (0x3040, 0x30FF, "Japanese kana", "fonts-noto-cjk"),
    (0x3100, 0x312F, "Bopomofo", "fonts-noto-cjk"),
    (0x3130, 0x318F, "Hangul", "fonts-noto-cjk"),
    (0x3190, 0x4DBF, "CJK", "fonts-noto-cjk"),
    (0x4E00, 0x9FFF, "CJK", "fonts-noto-cjk"),
    (0xA960, 0xA97F, "Hangul", "fonts-noto-cjk"),
    (0xAC00, 0xD7FF, "Hangul", "fonts-noto-cjk"),
    (0xF900, 0xFAFF, "CJK", "fonts-noto-cjk"),
    (0xFE30, 0xFE4F, "CJK", "fonts-noto-cjk"),
    (0xFF00, 0xFFEF, "CJK", "fonts-noto-cjk"),
    (0x1F000, 0x1FAFF, "Emoji and symbols", "fonts-noto-color-emoji"),
    (0x20000, 0x3FFFF, "CJK", "fonts-noto-cjk"),
)
_STARTS = [s[0] for s in _SCRIPTS]
_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts")
_FONT_SUFFIXES = (".ttf", ".otf", ".ttc", ".otc")


@dataclass(frozen=True)
class MissingScript:
    script: str
    package: str
    characters: str  # the distinct characters no font covers, in order of appearance

    @property
    def message(self) -> str:
        sample = self.characters[:12] + ("…" if len(self.characters) > 12 else "")
        return (f"no installed font has {len(self.characters)} {self.script} character(s) of the "
                f"report ({sample}): the PDF shows empty boxes for them; install {self.package} "
                f"(e.g. sudo apt-get install {self.package})")

    def as_json(self) -> dict:
        return {"script": self.script, "package": self.package, "characters": self.characters,
                "message": self.message}


def script_of(ch: str) -> tuple[str, str]:
    cp = ord(ch)
    k = bisect_right(_STARTS, cp) - 1
    if k >= 0 and cp <= _SCRIPTS[k][1]:
        return _SCRIPTS[k][2], _SCRIPTS[k][3]
    if 0x2600 <= cp <= 0x27BF:
        return "Emoji and symbols", "fonts-noto-color-emoji"
    return "other", "fonts-noto-core"


def _parse_charset(spec: str, out: list[tuple[int, int]]) -> None:
    for part in spec.split():
        lo, _, hi = part.partition("-")
        try:
            out.append((int(lo, 16), int(hi or lo, 16)))
        except ValueError:
            continue


def _merge(ranges: list[tuple[int, int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    ranges.sort()
    los: list[int] = []
    his: list[int] = []
    for lo, hi in ranges:
        if his and lo <= his[-1] + 1:
            his[-1] = max(his[-1], hi)
        else:
            los.append(lo)
            his.append(hi)
    return tuple(los), tuple(his)


def _fc_list_ranges() -> list[tuple[int, int]] | None:
    exe = shutil.which("fc-list")
    if not exe:
        return None
    try:
        out = subprocess.run([exe, "--format", "%{charset}\n"], capture_output=True, text=True,
                             timeout=60, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    ranges: list[tuple[int, int]] = []
    for line in out.splitlines():
        _parse_charset(line, ranges)
    return ranges


def _fonttools_ranges() -> list[tuple[int, int]]:
    from fontTools.ttLib import TTCollection, TTFont

    ranges: list[tuple[int, int]] = []
    for d in _FONT_DIRS:
        root = Path(d).expanduser()
        if not root.is_dir():
            continue
        for path in root.rglob("*"):
            if path.suffix.lower() not in _FONT_SUFFIXES:
                continue
            try:
                fonts = (TTCollection(str(path), lazy=True).fonts if path.suffix.lower() in (".ttc", ".otc")
                         else [TTFont(str(path), lazy=True)])
                for font in fonts:
                    cmap = font.getBestCmap() or {}
                    ranges.extend((cp, cp) for cp in cmap)
            except Exception:  # noqa: BLE001 - an unreadable font file covers nothing
                log.debug("cannot read font %s", path)
    return ranges


@lru_cache(maxsize=4)
def _coverage(config_key: tuple) -> tuple[tuple[int, ...], tuple[int, ...]]:
    ranges = _fc_list_ranges()
    if ranges is None:
        ranges = _fonttools_ranges()
    return _merge(ranges)


def coverage() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(starts, ends) of the code point ranges some installed font covers (cached per
    fontconfig configuration)."""
    key = tuple(os.environ.get(k) for k in ("FONTCONFIG_FILE", "FONTCONFIG_PATH", "FONTCONFIG_SYSROOT"))
    return _coverage(key)


def _covered(cp: int, los: tuple[int, ...], his: tuple[int, ...]) -> bool:
    k = bisect_right(los, cp) - 1
    return k >= 0 and cp <= his[k]


def _drawn(ch: str) -> bool:
    """Characters that need a glyph (not spaces, controls, format or variation marks)."""
    cat = unicodedata.category(ch)
    if cat[0] in "ZC":
        return False
    cp = ord(ch)
    return not (0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF)


def missing_glyphs(text: str) -> list[MissingScript]:
    """The characters of ``text`` that no installed font covers, grouped by script."""
    chars = [ch for ch in dict.fromkeys(text) if ord(ch) > 0x7E and _drawn(ch)]
    if not chars:
        return []
    los, his = coverage()
    groups: dict[tuple[str, str], list[str]] = {}
    for ch in chars:
        if not _covered(ord(ch), los, his):
            groups.setdefault(script_of(ch), []).append(ch)
    return [MissingScript(script, package, "".join(cs)) for (script, package), cs in groups.items()]

"""The JSON text of citations.json and audit.json: ``json.dumps(value, ensure_ascii=False,
indent=2)``, character for character, written faster.

The standard library encodes with indentation in pure Python (its C encoder has no
indentation), one generator per nesting level that every piece passes through: at thousands
of citations that was about a tenth of a publish. Here the plain JSON types (``dict`` with
``str`` keys, ``list``, ``tuple``, ``str``, ``int``, ``float``, ``bool``, ``None``; exact
types, no subclasses) are written by one recursive function into one list, strings by the
standard library's own C string encoder. A value holding anything else (a subclass, a
non-string key, an object ``json`` would refuse) is handed to ``json.dumps`` whole, so every
result and every error stays the standard library's.
"""

from __future__ import annotations

import json
from typing import Any, Callable
from json.encoder import encode_basestring  # the C encoder when available, as json uses it

_INDENT = "  "


class _NotPlain(Exception):
    """The value holds something json.dumps must decide about."""


def dumps(value: object) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=2)``."""
    out: list[str] = []
    try:
        _write(value, out, "\n")
    except (_NotPlain, RecursionError):
        return json.dumps(value, ensure_ascii=False, indent=2)
    return "".join(out)


def _float(f: float) -> str:
    if f != f:
        return "NaN"
    if f == float("inf"):
        return "Infinity"
    if f == -float("inf"):
        return "-Infinity"
    return float.__repr__(f)


_SCALARS: dict[type, Callable[[Any], str]] = {  # exact type -> its JSON text, as json.dumps writes it
    str: encode_basestring,
    int: int.__repr__,
    float: _float,
    bool: lambda b: "true" if b else "false",
    type(None): lambda _: "null",
}


_KEYS: dict[str, dict[str, str]] = {}  # indentation -> key -> its text after a comma: ',\n    "key": '
_MAX_KEYS = 4096  # texts kept per indentation (a report's records repeat a few dozen keys)
# indentation -> a dict's keys, in order -> their texts (the first without its comma): the
# records of one kind (a citation's, a claim's) have the same keys in the same order
_ROWS: dict[str, dict[tuple[str, ...], list[str]]] = {}
_MAX_ROWS = 256  # key sequences kept per indentation
_STR_ONLY = frozenset((str,))


def _write(v: Any, out: list[str], newline: str) -> None:
    """Append the JSON of ``v``; ``newline`` is a line break and the indentation of v's line."""
    t = type(v)
    scalar = _SCALARS.get(t)
    if scalar is not None:
        out.append(scalar(v))
        return
    if t is not dict and t is not list and t is not tuple:
        raise _NotPlain
    if not v:
        out.append("{}" if t is dict else "[]")
        return
    inner = newline + _INDENT
    scalars, encode, append = _SCALARS, encode_basestring, out.append
    if t is dict:
        if not _STR_ONLY.issuperset(map(type, v)):  # (a C-speed pass over the key types)
            raise _NotPlain
        names = tuple(v)
        rows = _ROWS.get(inner)
        if rows is None:
            rows = _ROWS[inner] = {}
        row = rows.get(names)
        if row is None:  # the texts of these keys after a comma: ',\n    "key": '
            keys = _KEYS.get(inner)
            if keys is None:
                keys = _KEYS[inner] = {}
            row = []
            for k in names:
                key = keys.get(k)
                if key is None:
                    key = f",{inner}{encode(k)}: "
                    if len(keys) < _MAX_KEYS:
                        keys[k] = key
                row.append(key)
            row[0] = row[0][1:]  # no comma before the first key
            if len(rows) < _MAX_ROWS:
                rows[names] = row
        append("{")
        for key, item in zip(row, v.values()):
            append(key)
            if type(item) is str:
                append(encode(item))
            elif (scalar := scalars.get(type(item))) is not None:
                append(scalar(item))
            else:
                _write(item, out, inner)
        append(newline + "}")
        return
    sep = "," + inner
    append("[")
    append(inner)
    for n, item in enumerate(v):
        if n:
            append(sep)
        if type(item) is str:
            append(encode(item))
        elif (scalar := scalars.get(type(item))) is not None:
            append(scalar(item))
        else:
            _write(item, out, inner)
    append(newline + "]")

"""One walk over a JSON value (mappings, lists, tuples, strings, the rest), shared by the
places that rewrite every string of a setting or a payload and keep its structure."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def map_strings(value: Any, fn: Callable[[str], Any]) -> Any:
    """``value`` with ``fn`` applied to every string in it: mappings keep their keys, lists and
    tuples become lists, anything else stays as it is."""
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, dict):
        return {k: map_strings(v, fn) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [map_strings(v, fn) for v in value]
    return value

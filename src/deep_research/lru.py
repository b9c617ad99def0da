"""A bounded mapping that forgets its least recently used entries.

Caches that live as long as the process (one page fetcher per fetch policy, model clients
and search backends per setting, robots.txt rules per site, fetched pages) must not grow
with every distinct value a server's users send: each distinct fetch policy kept its own
fetcher and page cache forever (38 MB per run). Fifteen lines of OrderedDict rather than a
dependency (cachetools) for them.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LRU(OrderedDict, Generic[K, V]):
    """A dict of at most ``maxsize`` entries; reading or writing one makes it the newest."""

    def __init__(self, maxsize: int):
        super().__init__()
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.maxsize = maxsize

    def __getitem__(self, key):
        value = super().__getitem__(key)
        self.move_to_end(key)
        return value

    def get(self, key, default=None):
        return self[key] if key in self else default

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.maxsize:
            self.popitem(last=False)

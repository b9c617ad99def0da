"""No search: research from the model's own knowledge, with nothing to cite."""

from __future__ import annotations

from .base import SearchResult


class NoSearch:
    """:class:`~.base.SearchBackend` that finds nothing."""

    name = "none"

    async def search(self, query: str, *, max_results: int = 5) -> list[SearchResult]:
        return []

"""Model prices, for the optional cost cap (``max_cost_usd``).

Prices are USD per million tokens, ``(input, output)``. A name is looked up as given,
then without a date suffix (``gpt-4.1-2025-04-14`` is priced as ``gpt-4.1``,
``claude-haiku-4-5-20251001`` as ``claude-haiku-4-5``), first in the
prices a deployment configures (``model_prices`` / ``DEEP_RESEARCH_MODEL_PRICES``), then
in :data:`PRICES_PER_MTOK`. A model with no price cannot be held to a cost cap: a run
with a cap refuses to start until the model is priced (see Configuration.resolve).

Kept free of heavy imports: the server's auth handler checks run settings with it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

Price = tuple[float, float]

# Public list prices of OpenAI models (standard tier, 2025). Prices change: a deployment
# that caps cost should check them and override with model_prices where they differ.
PRICES_PER_MTOK: dict[str, Price] = {
    "gpt-4.1": (2.0, 8.0),
    "gpt-4.1-mini": (0.4, 1.6),
    "gpt-4.1-nano": (0.1, 0.4),
    "gpt-4o": (2.5, 10.0),
    "gpt-4o-mini": (0.15, 0.6),
    "o4-mini": (1.1, 4.4),
    "o3": (2.0, 8.0),
    "o3-mini": (1.1, 4.4),
    "o1": (15.0, 60.0),
    "o1-pro": (150.0, 600.0),
}

# A release date at the end of a model name: gpt-4.1-2025-04-14, gpt-4o-mini-2024-07-18,
# claude-haiku-4-5-20251001; or Anthropic's "-latest" alias.
_DATED = re.compile(r"^(?P<family>.+?)(?:-\d{4}-\d{2}-\d{2}|-20\d{6}|-latest)$")


def family(name: str) -> str:
    """The model name without a release-date suffix."""
    m = _DATED.match(name)
    return m.group("family") if m else name


def price_of(name: str | None, configured: Mapping[str, Price] | None = None) -> Price | None:
    """(input, output) USD per million tokens of a model name, or None when unknown."""
    if not isinstance(name, str) or not name:
        return None
    for candidate in dict.fromkeys((name, family(name))):
        for table in (configured or {}, PRICES_PER_MTOK):
            if candidate in table:
                inp, out = table[candidate]
                return float(inp), float(out)
    return None


def cost_usd(price: Price, input_tokens: int, output_tokens: int) -> float:
    return (input_tokens * price[0] + output_tokens * price[1]) / 1e6

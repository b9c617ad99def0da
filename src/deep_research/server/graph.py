"""The research graph as the LangGraph server serves it (langgraph.json). The package's
import has read the settings file already (see :mod:`deep_research.server`); a variable of
it that looks like a setting's and is none is said in the server's log."""

import logging

from ..research.graph import graph
from ..research.runtime.env_names import near_miss_lines

for _line in near_miss_lines():
    logging.getLogger(__name__).warning("%s", _line)

__all__ = ["graph"]

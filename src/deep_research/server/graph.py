"""The research graph as the LangGraph server serves it (langgraph.json). The package's
import has read the settings file already (see :mod:`deep_research.server`); a variable of
it that looks like a setting's and is none is said in the server's log, and so is a corpus
without corpus_base_url (its citations would link to file:// URLs of the server)."""

import logging

from ..research.graph import graph
from ..research.runtime.env_names import corpus_link_lines, near_miss_lines

for _line in near_miss_lines() + corpus_link_lines():
    logging.getLogger(__name__).warning("%s", _line)

__all__ = ["graph"]

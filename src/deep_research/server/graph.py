"""The research graph as the LangGraph server serves it (langgraph.json). The package's
import has read the settings file already (see :mod:`deep_research.server`)."""

from ..research.graph import graph

__all__ = ["graph"]

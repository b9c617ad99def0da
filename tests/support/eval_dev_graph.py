"""The research graph of ``eval run``'s tests (the behaviour scenario's scripted model, the
search the run's settings name) for `langgraph dev`: ``eval run --server`` against it."""

from deep_research.research.graph import make_graph

from .eval_deps import deps

graph = make_graph(deps())

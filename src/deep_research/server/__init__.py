"""Serving the research graph with the LangGraph server.

``graph`` is the graph langgraph.json serves (under the ids ``deep_research`` and ``agent``,
the assistant id generic chat clients such as Agent Chat UI default to); ``credentials``
reads and checks who may call the server (bearer tokens, HS256 JWTs); ``auth`` is the
``langgraph_sdk.Auth`` object registered in ``langgraph.json``. Importing ``auth`` without
credentials configured fails on purpose (outside ``langgraph dev``), so this package does
not import it.

Importing this package reads the settings file (``.env`` in the folder the server runs
in, or ``DEEP_RESEARCH_ENV_FILE``) with the CLI's rule: variables already set in the
shell win (see :mod:`deep_research.env_file`). Both the graph and the auth handler import
it first, so their settings come from the same place.
"""

from ..env_file import load_env_file

load_env_file()

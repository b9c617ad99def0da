"""Serving the research graph with the LangGraph server.

``credentials`` reads and checks who may call the server (bearer tokens, HS256 JWTs);
``auth`` is the ``langgraph_sdk.Auth`` object registered in ``langgraph.json``. Importing
``auth`` without credentials configured fails on purpose (outside ``langgraph dev``), so
this package does not import it.
"""

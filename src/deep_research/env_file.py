"""The settings file both front ends read: ``.env`` in the working folder (or the file
``DEEP_RESEARCH_ENV_FILE`` names; "none" for no file). Variables already set in the
environment win over the file, for the CLI and for the LangGraph server alike (the server
reads it when :mod:`deep_research.server` is imported; langgraph.json names no "env", since
``langgraph dev`` would let the file override the shell)."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import UserError

ENV_FILE = "DEEP_RESEARCH_ENV_FILE"  # names the settings file; "none" for none


def load_env_file() -> Path | None:
    """Load the settings file (see the module doc) without overriding set variables; the
    path loaded, or None."""
    from dotenv import load_dotenv

    named = os.environ.get(ENV_FILE)
    if named is not None and named.strip().lower() in ("", "none"):
        return None
    path = Path(named).expanduser() if named else Path.cwd() / ".env"
    if not path.is_file():
        if named:
            raise UserError(f"{ENV_FILE}={named}: no such file")
        return None
    try:
        load_dotenv(path, override=False)
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"cannot read the environment file {path}: {e}") from None
    return path

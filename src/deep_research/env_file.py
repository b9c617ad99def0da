"""The settings file both front ends read: ``.env`` in the working folder (or the file
``DEEP_RESEARCH_ENV_FILE`` names; "none" for no file). Variables already set in the
environment win over the file, for the CLI and for the LangGraph server alike (the server
reads it when :mod:`deep_research.server` is imported; langgraph.json names no "env", since
``langgraph dev`` would let the file override the shell)."""

from __future__ import annotations

import io
import os
from pathlib import Path

from .errors import UserError

ENV_FILE = "DEEP_RESEARCH_ENV_FILE"  # names the settings file; "none" for none

# the variables the settings file set (not set before it was loaded), with the file as the
# user named it or as it was found: a bad value is then said to come from that file
_FROM_FILE: dict[str, str] = {}


def file_of(name: str) -> str | None:
    """The settings file that set the environment variable ``name``, or None."""
    return _FROM_FILE.get(name) if os.environ.get(name) is not None else None


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
    shown = named if named else str(path)  # the file as the user named it, or as it was found
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"cannot read the environment file {shown}: {e}") from None
    if bad := unparsed_lines(text):
        # python-dotenv logged "could not parse statement starting at line N", naming no file,
        # and went on without the line's setting (a key or a cap lost, unsaid in the run)
        lines = ", ".join(map(str, bad[:10])) + (" …" if len(bad) > 10 else "")
        raise UserError(f"the environment file {shown} cannot be read as NAME=value lines: line{'s' * (len(bad) > 1)} "
                        f"{lines} (quote a value with spaces or '#', close every quote; '#' starts a comment line)")
    before = set(os.environ)
    load_dotenv(stream=io.StringIO(text), override=False)
    _FROM_FILE.update((name, shown) for name in set(os.environ) - before)
    return path


def unparsed_lines(text: str) -> list[int]:
    """The lines where python-dotenv finds a statement it cannot parse (it skips them)."""
    from dotenv.parser import parse_stream

    return [b.original.line for b in parse_stream(io.StringIO(text)) if b.error]

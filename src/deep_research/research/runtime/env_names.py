"""Environment variables that look like a setting and are none: a typo is said, not ignored.

``DEEP_RESEARCH_<SETTING>`` sets a setting (configuration.py); any other variable of that
prefix is read by no one. A cap typed ``DEEP_RESEARCH_MAX_TOTAL_TOKEN=200000`` (the setting
is ``max_total_tokens``) left the run without a cap, and the server's operator without the
ceiling they meant, with no word said. So a variable of the prefix that is neither a setting
nor one of the project's other variables (:data:`OTHER_VARIABLES`), and is spelt close to a
setting's variable, is named with the variable it is close to. A variable named by an
``*_api_key_env`` setting (a key the user keeps under the prefix) is never one, nor is a
name far from every setting's (a variable of the user's own).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping

from .configuration import ENV_PREFIX, Configuration

# The variables of the prefix that the project reads and that are not settings.
OTHER_VARIABLES = frozenset({
    "DEEP_RESEARCH_ALLOWED_MODELS", "DEEP_RESEARCH_AUTH_ALLOW_RUN_SETTINGS", "DEEP_RESEARCH_AUTH_TOKENS",
    "DEEP_RESEARCH_DB", "DEEP_RESEARCH_DEBUG", "DEEP_RESEARCH_DEPS", "DEEP_RESEARCH_ENV_FILE",
    "DEEP_RESEARCH_JWT_AUDIENCE", "DEEP_RESEARCH_JWT_ISSUER", "DEEP_RESEARCH_JWT_SECRET",
    "DEEP_RESEARCH_LOCAL_ORIGINS", "DEEP_RESEARCH_MODEL_PRICES", "DEEP_RESEARCH_PUBLIC_URL",
    "DEEP_RESEARCH_REPORT_LINK_DAYS", "DEEP_RESEARCH_REPORT_LINK_SECRET", "DEEP_RESEARCH_REPORT_MAX_BYTES",
    "DEEP_RESEARCH_REPORT_STORE", "DEEP_RESEARCH_SERVER_TOKEN", "DEEP_RESEARCH_STUDIO_ORIGINS",
    "DEEP_RESEARCH_TRACE_CONTENT", "DEEP_RESEARCH_WORDNET",
})
CLOSE = 0.8  # difflib's ratio of two names (after the prefix) from which one is taken for the other misspelt


def near_misses(environ: Mapping[str, str] | None = None,
                aliases: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """(variable, the setting's variable it is close to) for each variable of the prefix
    that sets nothing and is spelt close to a setting's, by name. ``aliases``: another name
    of a setting (the command line's ``max_tokens`` for ``max_total_tokens``): a variable
    named after it is taken for that setting's."""
    env = os.environ if environ is None else environ
    settings = {f"{ENV_PREFIX}{name.upper()}" for name in Configuration.model_fields}
    keys = {env[f"{ENV_PREFIX}{name.upper()}"] for name in Configuration.model_fields
            if name.endswith("api_key_env") and env.get(f"{ENV_PREFIX}{name.upper()}")}
    known = sorted(settings | OTHER_VARIABLES)
    suffixes = [k.removeprefix(ENV_PREFIX) for k in known]
    other_names = {a.upper().replace("-", "_"): f"{ENV_PREFIX}{s.upper()}" for a, s in (aliases or {}).items()}
    out = []
    for name in sorted(env):
        if not name.startswith(ENV_PREFIX) or name in settings or name in OTHER_VARIABLES or name in keys:
            continue
        suffix = name.removeprefix(ENV_PREFIX)
        if suffix in other_names:
            out.append((name, other_names[suffix]))
            continue
        near = difflib.get_close_matches(suffix, suffixes, n=1, cutoff=CLOSE)
        if near:
            out.append((name, ENV_PREFIX + near[0]))
    return out


def near_miss_lines(environ: Mapping[str, str] | None = None, aliases: Mapping[str, str] | None = None) -> list[str]:
    """One line for each of :func:`near_misses`, to warn with."""
    return [f"{name} is not a setting and is ignored; did you mean {meant}?"
            for name, meant in near_misses(environ, aliases)]


def corpus_link_lines(environ: Mapping[str, str] | None = None) -> list[str]:
    """One line to warn with when the environment gives a folder of documents (a corpus
    path, or search_api=local) but no corpus_base_url: each citation of a document then
    links to a file:// URL of this machine, which a chat user's browser does not open."""
    values = Configuration.env_overrides(dict(os.environ if environ is None else environ))
    local = str(values.get("search_api", "")).strip().lower() == "local"
    if values.get("corpus_base_url") or not (values.get("corpus_path") or local):
        return []
    return [f"{ENV_PREFIX}CORPUS_BASE_URL (corpus_base_url) is not set: citations of the documents in the "
            "corpus link to file:// URLs of this machine, which the browser of a chat user does not open; "
            "set it to the URL the corpus folder is served at (README: Use it from a chat UI)"]

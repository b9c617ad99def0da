"""Errors that reach the user, and keeping credentials out of what they say."""

import os
from collections.abc import Callable, Iterable
import re


class UserError(ValueError):
    """Bad input from the user: reported as a clear message with exit code 2.

    A ``ValueError``, because the LangGraph API server passes on the message of built-in
    exception types only (others become "An internal error occurred"), so a Studio user
    sees the same message as a CLI user."""

    exit_code = 2


# --- keeping credentials out of messages --------------------------------------------------
# Variables that hold credentials. Names a configuration points at (``*_api_key_env``) are
# added when a model spec is made, so a key of any format is redacted, not only known prefixes.
SECRET_ENV_NAMES: set[str] = {"OPENAI_API_KEY", "AZURE_OPENAI_API_KEY", "TAVILY_API_KEY", "ANTHROPIC_API_KEY",
                              "GOOGLE_API_KEY", "GEMINI_API_KEY", "MISTRAL_API_KEY", "LANGSMITH_API_KEY",
                              "LANGCHAIN_API_KEY", "DEEP_RESEARCH_JWT_SECRET", "DEEP_RESEARCH_AUTH_TOKENS"}
_KEY_PATTERN = re.compile(r"\b(sk|tvly|key|gsk|hf)[-_][A-Za-z0-9_\-]{8,}")
_URL_PASSWORD = re.compile(r"(?<=://)([^/?#@\s:]*):[^/?#@\s]+@")  # http://user:password@host
_URL_USERINFO = re.compile(r"(?<=://)([^/?#@\s]+)@")  # http://user:password@host, http://token@host
# A URL, to its end (a space, a quote or a bracket that closes it in a message).
# (a scheme is at most 32 characters: unbounded, "a.a.a..." without "://" was searched
# from every word start to the end, 1.8 s on 60 KB)
_URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]{0,31}://[^\s'\"<>`]+")
# A query (or fragment) parameter whose name says its value is a secret: key, api_key, apikey,
# access_token, X-Amz-Signature, client_secret, password, sig, auth, code (an OAuth grant),
# credential(s) ... matched case-insensitively as the whole name or its last part after - _ or .
_SECRET_NAME = (r"(?:[^=&#;?\s]*[-_.])?(?:api_?key|key|token|secret|password|passwd|pwd|sig|signature|auth|"
                r"authorization|code|credentials?|credential[-_.]?\w*|session|sessionid)")
_URL_QUERY_SECRET = re.compile(rf"(?i)([?&#;]{_SECRET_NAME}=)([^&#;\s]+)")
_SENTENCE_END = ".,:!?)]"  # punctuation after a URL in a sentence: not part of the value masked


def remember_secret_env(name: str | None) -> None:
    if name:
        SECRET_ENV_NAMES.add(name)


def redact(text: str) -> str:
    """``text`` with the values of credential variables, key-like tokens and the passwords
    of URLs (``//user:password@host``) masked."""
    for name in SECRET_ENV_NAMES:
        value = os.environ.get(name) or ""
        for part in value.split(","):  # token lists hold several secrets
            part = part.strip()
            if len(part) >= 8:
                text = text.replace(part, "***")
    return mask_url_passwords(_KEY_PATTERN.sub(r"\1-***", text))


def mask_url_passwords(text: str) -> str:
    """``text`` with the password of every URL in it (``//user:password@host``) and the
    values of its secret query parameters (``?api_key=***``, :func:`mask_url_query_secrets`)
    masked: for messages that name what the user typed, which key-like masking would garble
    (a file named key_questions.jsonl)."""
    return mask_url_query_secrets(_URL_PASSWORD.sub(r"\1:***@", text))


def mask_url_credentials(text: str) -> str:
    """``text`` with the credentials of every URL in it masked, for what is kept: a
    password (``//user:***@host``), a user name standing alone (``//***@host``), which
    is often a token (``https://ghp_...@host``), and the value of every query or fragment
    parameter whose name says it is a secret (``?api_key=***``, ``#access_token=***``)."""
    return _masked_credentials(text, _masked_value)


def _masked_credentials(text: str, masked_value: Callable[[re.Match], str]) -> str:
    """``text`` with every URL's user info masked and its secret-named parameters' values
    passed through ``masked_value``."""
    text = _URL_USERINFO.sub(lambda m: m[1].split(":", 1)[0] + ":***@" if ":" in m[1] else "***@", text)
    if "://" not in text:
        return text
    return _URL.sub(lambda m: _URL_QUERY_SECRET.sub(masked_value, m[0]), text)


def mask_url_query_secrets(text: str) -> str:
    """``text`` with the value of every secret-named query or fragment parameter of the URLs
    in it masked (``https://host/v1?api_key=***&model=x``); text with no URL is unchanged."""
    if "://" not in text:
        return text
    return _URL.sub(lambda m: _URL_QUERY_SECRET.sub(_masked_value, m[0]), text)


def mask_page_url(url: str) -> str:
    """A page's URL (a search result, a page the user named) as a run keeps and links it:
    :func:`mask_url_credentials`, except that a parameter whose name is a secret's only
    sometimes (``key``, ``code``, ``session``, or a name ending so: ``sort_key``,
    ``country_code``) keeps a value shorter than :data:`MIN_SHORT_NAME_SECRET` characters
    (``?code=CIV``, ``?country_code=US``, ``?session=2``): no key, grant or session id is
    that short, and masking it broke the link to a page that holds nothing secret."""
    return _masked_credentials(url, _masked_long_value)


MIN_SHORT_NAME_SECRET = 12
_SOMETIMES_SECRET = re.compile(r"(?i)(?:[^=&#;?\s]*[-_.])?(?:key|code|session)")
_API_KEY_NAME = re.compile(r"(?i)api_?key$")


def _masked_value(m: re.Match) -> str:
    value = m[2].rstrip(_SENTENCE_END)
    if not value or value == "***":
        return m[0]
    return m[1] + "***" + m[2][len(value):]


def _masked_long_value(m: re.Match) -> str:
    if len(m[2].rstrip(_SENTENCE_END)) < MIN_SHORT_NAME_SECRET and _SOMETIMES_SECRET.fullmatch(m[1][1:-1]) \
            and not _API_KEY_NAME.search(m[1][1:-1]):
        return m[0]
    return _masked_value(m)


def has_url_credentials(text: str) -> bool:
    return mask_url_credentials(text) != text


_MASKED_URL = re.compile(rf"://(?:[^/?#@\s:]*:)?\*\*\*@|://[^\s'\"<>`]*[?&#;]{_SECRET_NAME}=\*\*\*(?=[&#;\s'\"<>`.,:!?)\]]|$)",
                         re.IGNORECASE)


def masked_credentials(text: str) -> str:
    """What :func:`mask_url_credentials` left out of ``text`` (a value kept without its
    credentials), in words: "a password", "a user name or token" (``//***@host``), "the
    value of its ?sig= parameter" ..., joined; "credentials" when none is recognised."""
    parts = []
    if re.search(r"://[^/?#@\s:]*:\*\*\*@", text):
        parts.append("a password")
    if re.search(r"://\*\*\*@", text):
        parts.append("a user name or token")
    names = list(dict.fromkeys(m[1] for m in re.finditer(rf"(?i)[?&#;]({_SECRET_NAME})=\*\*\*", text)))
    if names:
        listed = ", ".join(f"{n}=" for n in names)
        parts.append(f"the value of its secret parameter{'s' if len(names) > 1 else ''} {listed}")
    return " and ".join(parts) or "credentials"


def has_masked_url_credentials(text: str) -> bool:
    """Whether ``text`` holds a URL whose credentials :func:`mask_url_credentials` masked
    (``//user:***@host``, ``//***@host``, ``?token=***``): a value kept without them."""
    return bool(_MASKED_URL.search(text))


# --- keeping a server's paths out of what its chat users see --------------------------------
SERVER_PATH = "(server path)"
_PATH_CHARS = r"[^\s'\"`<>|,;()\[\]{}]"
# An absolute path (/srv/docs, ~/notes, C:\data, file:///srv/docs/a.pdf) standing alone: not
# the path of a URL (https://host/a/b) nor part of a word (and/or, 1/2, km/h).
_ABSOLUTE_PATH = re.compile(rf"(?<![\w./:~\\-])(?:~?/(?=[\w.~-])|[A-Za-z]:\\){_PATH_CHARS}*"
                            rf"|\bfile://{_PATH_CHARS}*")


def hide_paths(text: str, known: Iterable[str] = ()) -> str:
    """``text`` with the paths of this machine in it written as :data:`SERVER_PATH`: each
    of ``known`` (folders a setting names, as given, relative ones too; a bare name only
    where a path goes on from it) with what follows it of a path, and every absolute path
    and ``file://`` URL. For the users of a server's chat,
    who are not shown its folders (the server's log keeps the full text)."""
    paths = sorted({p.rstrip("/\\") for p in known if p and p.strip("/\\.")}, key=len, reverse=True)

    def hidden(part: str) -> str:
        for path in paths:
            # a bare name (corpus_path = docs) only where a path goes on from it: not every word "docs"
            then = "" if re.search(r"[/\\]", path) else r"(?=[/\\])"
            part = re.sub(rf"(?<![\w.~/\\-]){re.escape(path)}{then}(?![\w.~-]){_PATH_CHARS}*", _hidden, part)
        return _ABSOLUTE_PATH.sub(_hidden, part)

    out, at = [], 0
    for m in _URL.finditer(text):  # a web address (its path, its query) is no path of this machine
        if not m[0].lower().startswith("file:"):
            out += [hidden(text[at:m.start()]), m[0]]
            at = m.end()
    return "".join([*out, hidden(text[at:])])


def _hidden(m: re.Match) -> str:
    end = m[0].rstrip(_SENTENCE_END + ";")  # a sentence's punctuation after the path stays
    return SERVER_PATH + m[0][len(end):]

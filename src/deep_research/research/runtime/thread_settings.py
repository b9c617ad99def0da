"""The settings a thread's question was started with, kept for the runs that resume it.

On a LangGraph server a run's settings (its ``configurable`` or ``context``, with its
assistant's) are that run's own: the run that answers a clarifying question, approves the
brief or reviews the report is another run, and a setting it omitted fell back to the
default (a token cap of 4,000 given when the question was asked, none on the resume: the
question used 6,683 tokens). The run that starts a question records the settings it gave in
the state (``question_settings``; URL credentials masked, as the CLI's state database keeps
them: :func:`kept`). Every node of a later run on that question works with
:func:`applied` (called by :func:`~.failure.guarded` for every node, subgraphs' too):

* a setting the resuming run omits is the recorded one. A URL whose password, token or
  secret query parameter (``?api_key=``) was not kept comes again from the run or the
  environment, else the run fails saying how to give it (:func:`resupplied`, as
  ``deep-research resume`` does);
* a limit (:data:`~.configuration.CEILINGS`: tokens, cost, rounds, pages, sizes, time)
  given by both is the stricter of the two: a resume never raises the question's caps;
* an approval (:data:`APPROVALS`) on in either stays on (an approval once asked stays asked);
* any other setting given by both (models, sources, search, language, report format ...)
  is the recorded one: one question is researched and written with one set of choices (the
  notes gathered so far came from them), as ``deep-research resume`` takes no such option.
  The exception is a URL whose credentials were not kept: the resume gives it again and
  its value is taken when it is the same URL, credentials aside (masked, it equals the
  recorded value); another URL is refused, a UserError naming the setting (the failure's
  chat turn says it).

The command line keeps a run's settings in its own store and gives them in full to every
run, marked :data:`RESTATED`; its ``resume --max-tokens`` replaces a cap, so those runs'
settings are taken as given. A run admitted by the server's auth handler (it names the
user) cannot claim that.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Mapping
from typing import Any

from langchain_core.messages import HumanMessage
from pydantic_core import to_jsonable_python

from ...errors import UserError, has_masked_url_credentials, mask_url_credentials, masked_credentials
from ...json_values import map_strings
from ...lru import LRU
from .configuration import CEILINGS, ROLE_SETTINGS, ROLES, Configuration, server_run, without_settings

log = logging.getLogger(__name__)

RESTATED = "deep_research_settings_restated"  # configurable: the run gives every setting itself (the CLI)
# configurable of a command-line resume: the saved settings it replaced (refused_on_resume), told
# like a server run's (notice_update: a chat turn, setting_refused degradations, audit.json)
REPLACED = "deep_research_settings_replaced"
APPROVALS = ("require_brief_approval", "require_report_approval")
# A thread whose report is done, and which gets a new user message: a follow-up question.
FINISHED = ("completed", "brief_rejected")


def is_follow_up(state: Mapping[str, Any]) -> bool:
    """Whether the run starts a follow-up question (the thread's last report is done)."""
    messages = state.get("messages") or []
    return state.get("status") in FINISHED and bool(messages) and isinstance(messages[-1], HumanMessage)


def starts_question(state: Mapping[str, Any]) -> bool:
    """Whether the run starts a question: the thread's first, or a follow-up."""
    return not state.get("question") or is_follow_up(state)


def recorded(config: Mapping | None, context: Any) -> dict:
    """The settings a run gave (its configurable and context), as the state keeps them."""
    return kept(to_jsonable_python(Configuration._run_values(dict(config or {}), context)))


def thread_values(started: Mapping[str, Any], given: Mapping[str, Any],
                  environ: dict[str, str] | None = None) -> tuple[dict, list[dict]]:
    """The settings of a run that resumes a question started with ``started`` (see the
    module doc), and what became of each setting it gave that is not used as given: one
    record ``{setting, asked, kept, why}`` each (URL credentials masked), by setting name."""
    from .setting_policy import spends_more

    out, ignored = dict(given), []
    for name, first in started.items():
        if name not in given:
            continue
        mine = given[name]
        if name in CEILINGS:
            if _spends_more(spends_more, name, mine, first):
                out[name] = first
                ignored.append(_ignored(name, mine, first, "a run that resumes a question never raises a limit "
                                                           "the question was started with"))
        elif name in APPROVALS:
            out[name] = bool(first) or bool(mine)
            if out[name] != bool(mine):
                ignored.append(_ignored(name, mine, out[name], "an approval asked when the question was "
                                                               "started stays asked"))
        elif not _masked(first):
            if to_jsonable_python(mine) != first:
                ignored.append(_ignored(name, mine, first, "the question is researched and written with the "
                                                           "settings it was started with"))
            out[name] = first
        elif (shown := kept(to_jsonable_python(mine))) != first:  # the URL again, with its credentials only
            raise UserError(f"this run's {name} ({_shown(shown)}) is not the URL the question was started with "
                            f"({_shown(first)}): a run that resumes the question gives that URL again, with "
                            f"{_what_masked(first)} (the question is researched with the settings it was started "
                            "with)")
    ignored.sort(key=lambda r: r["setting"])
    return resupplied(dict(started), out, environ, options={n: n for n in started}), ignored


def _ignored(name: str, asked: Any, kept_value: Any, why: str) -> dict:
    return {"setting": name, "asked": kept(to_jsonable_python(asked)), "kept": kept(to_jsonable_python(kept_value)),
            "why": why}


def ignored_line(record: Mapping[str, Any]) -> str:
    """One line naming a setting this run gave that is not used, the value given and the
    value kept (a chat turn, the CLI, audit.json's degradations); or a setting of the
    question refused now, and the value used instead (:func:`_refused_now`)."""
    if record.get("refused"):
        if record.get("by") in _BY_ON_RESUME:  # a command-line resume (refused_on_resume)
            used = (f"{_BY_ON_RESUME[record['by']]} {_value(record['kept'])}" if record["by"] != "the default"
                    else "the default" + ("" if record["kept"] is None else f" {_value(record['kept'])}"))
            return (f"{record['setting']}: {_value(record['asked'])}, which the run was started with, is refused "
                    f"now ({_shown(record['why'])}); {used} is used from now on for this run (a later resume keeps "
                    "it)")
        if record.get("by") == "this run":
            used = f"this run's {_value(record['kept'])}"
        else:
            used = "the server's default" if record["kept"] is None else f"the server's {_value(record['kept'])}"
        return (f"{record['setting']}: {_value(record['asked'])}, which the question was started with, is refused "
                f"now ({_shown(record['why'])}); {used} is used from now on for this question (a run that "
                "resumes it may give another)")
    return (f"{record['setting']}: {_value(record['asked'])} given by this run is not used; "
            f"{_value(record['kept'])} is kept ({record['why']})")


# whose value a command-line resume uses for a refused saved setting (refused_on_resume)
_BY_ON_RESUME = {"the environment": "the environment's", "this resume": "this resume's", "the default": ""}


def _value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    return _shown(value if isinstance(value, str) else json.dumps(value))


def _spends_more(spends_more: Any, name: str, asked: Any, limit: Any) -> bool:
    """``spends_more`` on the two values as the setting's type (a configurable may hold
    text); a value that is not one counts as spending more (the started one holds)."""
    try:
        typed = [getattr(Configuration.model_validate({name: v}), name) for v in (asked, limit)]
    except Exception:  # noqa: BLE001 - refused later, by Configuration.resolve, with its reason
        return True
    return spends_more(name, *typed)


_SAID: LRU[tuple[str, str], bool] = LRU(1024)  # (thread, setting): a replaced setting is logged once


def applied(state: Any, config: dict, runtime: Any) -> tuple[dict, Any]:
    """``config`` and ``runtime`` of a node, with the settings of the thread's question
    applied (module doc); unchanged when the question recorded none, the run starts a
    follow-up question, or the run restates every setting itself (the CLI)."""
    config, runtime, _ = settled(state, config, runtime)
    return config, runtime


def settled(state: Any, config: dict, runtime: Any) -> tuple[dict, Any, list[dict]]:
    """:func:`applied`, and the records of the settings this run gave that are not used
    (:func:`thread_values`): the caller tells the user (:func:`notice_update`)."""
    if _restated(config):  # the command line: its resume replaced a refused saved setting (refused_on_resume)
        return config, runtime, _replaced_records(((config or {}).get("configurable") or {}).get(REPLACED))
    context = getattr(runtime, "context", None)
    if server_run(config, context):  # the context holds the run's settings; the configurable, stale ones too
        config = without_settings(config)
    started = state.get("question_settings") if isinstance(state, Mapping) else None
    if not started or is_follow_up(state):
        return config, runtime, []
    if not isinstance(started, Mapping):  # only a state update can write it so
        raise UserError("the thread's question_settings must be a mapping of setting names to values, not "
                        f"{type(started).__name__} {_shown(started)!r}: update the thread's state with its "
                        "settings (or {} for none)")
    given = Configuration._run_values(config, context)
    values, ignored = thread_values(started, given)
    values, refused = _refused_now(started, given, values, config)
    ignored = [r for r in ignored if r["setting"] not in {x["setting"] for x in refused}] + refused
    thread = str(((config or {}).get("configurable") or {}).get("thread_id") or "local")
    for record in ignored:
        if (thread, record["setting"]) not in _SAID:
            _SAID[(thread, record["setting"])] = True
            log.warning("thread %s: %s", thread, ignored_line(record))
    # the values, and no other setting: one that the run gave and is not used stays out
    config = {**(config or {}), "configurable": {**without_settings(config or {})["configurable"], **values}}
    if context is not None and hasattr(runtime, "override"):
        runtime = runtime.override(context=None)  # every value is in the configurable now
    return config, runtime, ignored


def _replaced_records(value: Any) -> list[dict]:
    """The records of ``configurable[REPLACED]`` (:func:`refused_on_resume`'s, as the command
    line's resume gives them), checked: a caller trusted with it (no auth: a Python caller, a
    server without credentials) that gives something else gets a UserError naming what it
    gave and the shape expected, not a TypeError or KeyError from the records' use."""
    if value is None:
        return []
    problem = None
    if not isinstance(value, (list, tuple)):
        problem = f"{type(value).__name__} {_shown(_jsonable(value))}"
    else:
        for i, record in enumerate(value):
            if not isinstance(record, Mapping):
                problem = f"item {i}: {type(record).__name__} {_shown(_jsonable(record))}"
            elif missing := [k for k in _RECORD_KEYS if k not in record]:
                problem = f"item {i} lacks {', '.join(missing)}"
            elif record.get("refused") is not True or not all(isinstance(record[k], str) for k in _RECORD_TEXT):
                problem = f"item {i}: {_shown(_jsonable(record))}"
            elif record["by"] not in _BY_ON_RESUME:
                problem = f"item {i}: by {_shown(_jsonable(record['by']))} (one of {', '.join(_BY_ON_RESUME)})"
            else:
                try:
                    json.dumps([record["asked"], record["kept"]])
                except (TypeError, ValueError):
                    problem = f"item {i}: asked and kept must be JSON values"
            if problem:
                break
    if problem:
        raise UserError(f"configurable {REPLACED} must be a list of records {{{', '.join(_RECORD_KEYS)}}} with "
                        f"refused true, as deep-research resume gives it (the saved settings a resume replaced), "
                        f"not {problem}: leave it out")
    return [dict(r) for r in value]


_RECORD_KEYS = ("setting", "asked", "kept", "why", "by", "refused")
_RECORD_TEXT = ("setting", "why", "by")


def _jsonable(value: Any) -> str:
    """``value`` as JSON text, else its repr: a value in an error message."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


REFUSED = "setting_refused"  # a degradation's kind: a setting of the question refused now, replaced


def _refused_now(started: Mapping[str, Any], given: Mapping[str, Any], values: dict,
                 config: Mapping | None) -> tuple[dict, list[dict]]:
    """``values`` without the question's settings that this run's settings check refuses now
    (the server's allowed models, the settings it lets a run set, or a value this version
    no longer takes), and a record of each. A recorded setting outranks the run's own (the
    module doc), so the run's value could not replace it: every run on the thread failed
    the same way, the thread dead. Each refused one is replaced by the run's own value, else
    by the server's (its environment, else the default); the user is told (a chat turn, a
    ``setting_refused`` degradation) and the question keeps the replacement (notice_update).
    Unchanged when the settings are taken, or when no recorded setting is the cause (then
    the run fails with the refusal, as before)."""
    def problem(trial: dict) -> str | None:
        conf = {**(config or {}), "configurable": {**((config or {}).get("configurable") or {}), **trial}}
        conf["configurable"] = {k: v for k, v in conf["configurable"].items() if k in trial or k not in started}
        try:
            Configuration.resolve(conf, None)
        except UserError as e:
            return str(e)
        return None

    def resolved(out: dict) -> Configuration:
        return Configuration.resolve({**(config or {}), "configurable": {
            **{k: v for k, v in ((config or {}).get("configurable") or {}).items() if k in out or k not in started},
            **out}}, None)

    return _replaced(started, given, values, problem, resolved)


def _replaced(started: Mapping[str, Any], given: Mapping[str, Any], values: dict,
              problem: Callable[[dict], str | None], resolved: Callable[[dict], Configuration],
              by_default: Callable[[str], str] = lambda name: "the server") -> tuple[dict, list[dict]]:
    """``values`` without the settings of ``started`` whose refusal (``problem``: why the
    settings of a trial are refused, None when taken) each causes, and a record of each
    (:func:`_refused_now`); a refused one is replaced by ``given``'s value when that differs,
    else removed (``by_default(name)`` names whose value comes instead). ``resolved``: the
    configuration of the result, for the values used instead."""
    if (first := problem(values)) is None:
        return values, []
    out, refused = dict(values), []
    now: str | None = first
    for name in sorted(started):
        if name not in out:
            continue
        trial = dict(out)
        if name in given and kept(to_jsonable_python(given[name])) != started[name]:
            trial[name] = given[name]  # the run's own value
        else:
            trial.pop(name)  # the server's
        after = problem(trial)
        if after == now:  # not the cause
            continue
        refused.append({"setting": name, "asked": started[name], "kept": None, "why": now,
                        "by": "this run" if name in trial else by_default(name), "refused": True})
        out, now = trial, after
        if now is None:
            break
    if now is not None:  # a refusal no recorded setting causes: the run fails with it
        return values, []
    configuration = resolved(out)
    for record in refused:
        record["kept"] = kept(to_jsonable_python(_effective(configuration, record["setting"])))
    return out, refused


def _effective(cfg: Configuration, name: str) -> Any:
    """The value ``cfg`` uses for the setting ``name``: a role's model as the model the role
    calls (``research_model`` unset is the general model, else the role's default); None for
    a setting this version does not have."""
    value = getattr(cfg, name, None)
    role = name.removesuffix("_model")
    if value is None and name.endswith("_model") and role in ROLES:
        return ":".join(cfg.model_id(role))
    return value


def refused_on_resume(saved: Mapping[str, Any], given: Mapping[str, Any], merged: dict,
                      environ: Mapping[str, str] | None = None) -> tuple[dict, list[dict]]:
    """The command line's resume (``deep-research resume``): ``merged`` (the saved settings,
    with what the resume gave over them) without the saved settings refused now (the
    environment's allowed models, a value or setting this version no longer takes) that
    the resume did not give again, and a record of each, as :func:`_refused_now` on the
    server. Each is replaced by the environment's value, else the default. A refusal that
    no saved setting causes (a value the resume gave, the environment itself) is left to
    ``Configuration.resolve`` to raise: the user changes that option or variable. The value
    used instead of each is in the result (saved with the run), unless it is the general
    setting the resume gave, or none."""
    env = dict(os.environ if environ is None else environ)
    from_env = Configuration.env_overrides(env)

    def problem(trial: dict) -> str | None:
        try:
            Configuration.resolve({"configurable": {}}, trial, env)
        except UserError as e:
            return str(e)
        return None

    def by(name: str) -> str:
        """Whose value replaces ``name``: a role's setting left unset follows the general one
        (``research_model``: ``model``), which the resume may give (``--model``)."""
        general = next((g for suffix, g in ROLE_SETTINGS.items()
                        if name.endswith(suffix) and name.removesuffix(suffix) in ROLES), None)
        if general in given:
            return "this resume"
        return "the environment" if name in from_env or general in from_env else "the default"

    # the saved settings alone: a refusal that the values typed on resume cause is the user's to fix
    started = {k: v for k, v in saved.items() if k not in given}
    alone = {k: v for k, v in merged.items() if k not in given}
    typed = {k: v for k, v in merged.items() if k in given}
    # the values used instead are those of the run as it goes on: with what the resume gave
    out, refused = _replaced(started, {}, alone, problem,
                             lambda out: Configuration.resolve({"configurable": {}}, {**out, **typed}, env), by)
    if not refused:
        return merged, []
    # the run goes on with the value used instead, saved with it: a later resume keeps it (as
    # its line says) rather than take whatever the environment holds then. A role's setting
    # replaced by the general one the resume gave follows that one, saved as typed.
    used = Configuration.resolve({"configurable": {}}, {**out, **typed}, env)
    for record in refused:
        name = record["setting"]
        if record["by"] != "this resume" and name in Configuration.model_fields \
                and (value := _effective(used, name)) is not None:
            out[name] = to_jsonable_python(value)
    return {**out, **typed}, refused


TOLD = "ignored_settings_told"  # state: the run (and settings) last told, so a run is told once


def notice_update(state: Mapping[str, Any], config: Mapping | None, ignored: list[dict]) -> dict:
    """What a node of the root graph adds to its update so that the user sees the settings
    this run gave that are not used: a chat turn (one line each), a ``configuration``
    degradation each (audit.json, eval results) and the records (``ignored_settings``,
    audit.json). Once per run: empty when this run (its server run id, else the same
    records) was told already."""
    if not ignored:
        return {}
    from langchain_core.messages import AIMessage

    from .chat import SETTINGS_NAME, run_id, shown_text

    told = json.dumps([run_id(dict(config or {})), ignored], sort_keys=True)
    if state.get(TOLD) == told:
        return {}
    seen = {d.get("message") for d in state.get("degradations") or [] if isinstance(d, dict)}
    kept_own = [r for r in ignored if not r.get("refused")]
    refused = [r for r in ignored if r.get("refused")]
    parts = []
    if kept_own:
        parts.append("This run's settings differ from those the question was started with; the question keeps its "
                     "own:\n" + "\n".join(f"- {ignored_line(r)}" for r in kept_own))
    if refused:
        parts.append("Settings the question was started with are refused now; each is replaced:\n"
                     + "\n".join(f"- {ignored_line(r)}" for r in refused))
    out: dict[str, Any] = {
        "messages": [AIMessage(shown_text("\n\n".join(parts)), name=SETTINGS_NAME)],
        "degradations": [{"stage": "configuration", "message": ignored_line(r),
                          "kind": REFUSED if r.get("refused") else "setting_ignored"}
                         for r in ignored if ignored_line(r) not in seen],
        TOLD: told}
    if kept_own:
        out["ignored_settings"] = kept_own
    started = state.get("question_settings")
    if refused and isinstance(started, Mapping):  # the question goes on with the replacements
        out["question_settings"] = {**{k: v for k, v in started.items()
                                       if k not in {r["setting"] for r in refused if r.get("by") != "this run"}},
                                    **{r["setting"]: r["kept"] for r in refused if r.get("by") == "this run"}}
    return out


def _restated(config: Mapping | None) -> bool:
    from .setting_policy import Caller, Source

    value = ((config or {}).get("configurable") or {}).get(RESTATED)
    if value is None or Caller.of_config(config, {}).source is not Source.COMMAND_LINE:
        return False
    if not isinstance(value, bool):  # "false", 0, "no" from a trusted caller were taken as the marker
        raise UserError(f"configurable {RESTATED} must be true or false (true: the run gives every setting "
                        f"itself, as deep-research resume does), not {type(value).__name__} "
                        f"{_shown(_jsonable(value))}: leave it out")
    return value


def kept(value: Any) -> Any:
    """``value`` (a setting, or the settings) as the state database keeps it: every URL's
    credentials masked, in text, lists and mappings (an MCP server's url)."""
    return map_strings(value, mask_url_credentials)


def resupplied(saved: dict, given: dict, environ: dict[str, str] | None = None,
               options: dict[str, str] | None = None) -> dict:
    """A saved run's settings for its resume: ``given`` (typed on resume) over ``saved``;
    a saved setting whose URL credentials were not kept is taken from the environment
    (DEEP_RESEARCH_<SETTING>, OPENAI_BASE_URL) when that names the same URL, credentials
    aside. Otherwise a UserError naming the setting and how to give it again (``options``:
    setting -> the option resume takes for it): the run would call the server without its
    password, and fail at every call."""
    merged = {**saved, **given}
    env = Configuration.env_overrides(environ)
    for name, value in saved.items():
        if name in given or not _masked(value):
            continue
        text = env.get(name)
        if text is not None and kept(_as_saved(text, value)) == value:
            merged[name] = _as_saved(text, value)  # the environment's, with its credentials
            continue
        option = (options or {}).get(name)
        variables = f"DEEP_RESEARCH_{name.upper()}" + (" or OPENAI_BASE_URL" if name == "model_base_url" else "")
        how = f"{option} on resume, or {variables} set to it" if option else f"{variables} set to it"
        raise UserError(f"this run's {option or name} held {_what_masked(value)} ({_shown(value)}), which "
                        f"the state database does not keep: give the URL again ({how})")
    return merged


def _what_masked(value: Any) -> str:
    """What the kept ``value`` lost, in words (errors.masked_credentials): "a password",
    "the value of its secret parameter sig=" ..."""
    return masked_credentials(value if isinstance(value, str) else json.dumps(value))


def _masked(value: Any) -> bool:
    """Whether ``value`` holds a URL whose credentials were not kept (a password, a user
    name standing alone, a secret query parameter: :func:`kept`)."""
    if isinstance(value, str):
        return has_masked_url_credentials(value)
    if isinstance(value, dict):
        return any(_masked(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_masked(v) for v in value)
    return False


def _as_saved(text: str, saved: Any) -> Any:
    """An environment variable's text as the setting's value (JSON for a mapping)."""
    if isinstance(saved, (dict, list)):
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 200 else text[:199] + "…"

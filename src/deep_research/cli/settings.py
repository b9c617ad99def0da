"""The run's settings as command-line options, generated from :class:`Configuration`.

Every field of :class:`~deep_research.research.runtime.configuration.Configuration` is an
option of ``research`` and ``compare`` (and of ``eval run``, less the settings the command
sets itself): its name is the field's (``max_researcher_iterations`` ->
``--max-researcher-iterations``) unless :data:`NAMES` keeps an older one users rely on
(``max_total_tokens`` -> ``--max-tokens``); its help, default and limits are the field's.
A field added to Configuration is an option at once, in the help panel of its section.

Options take text; :func:`~deep_research.research.runtime.configuration.check_values` turns
it into the setting's value, so a setting is validated in one place (Configuration) and an
error names the option the user typed (``--length: must be at least 100``).

``--help`` must not import pydantic (or Configuration): the fields are read from
``settings.json``, written from Configuration by :func:`write_spec` and stamped with a hash
of ``configuration.py``. When the stamp does not match (a field changed and the file was not
written again), the fields are read from Configuration itself: always right, only slower.
A test keeps the file current; to write it again::

    uv run python -c "from deep_research.cli.settings import write_spec; write_spec()"
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import typer

SPEC = Path(__file__).with_name("settings.json")
CONFIGURATION = Path(__file__).resolve().parents[1] / "research" / "runtime" / "configuration.py"

# Option names older than the generation, kept (a user's scripts rely on them). Every other
# setting's option is its field name with dashes.
NAMES: dict[str, tuple[str, ...]] = {
    "allow_clarification": ("--yes", "-y"),  # a switch that turns the setting off
    "require_brief_approval": ("--approve-brief",),
    "research_mode": ("--mode",),
    "brief_council_models": ("--council",),
    "brief_council_threshold": ("--council-threshold",),
    "brief_council_max_rounds": ("--council-max-rounds",),
    "require_report_approval": ("--review-report",),
    "search_api": ("--search",),
    "corpus_path": ("--corpus",),
    "research_urls": ("--url",),
    "fetch_respect_robots": ("--fetch-robots",),
    "fetch_timeout_s": ("--fetch-timeout",),
    "trusted_domains": ("--trusted-domain",),
    "low_trust_domains": ("--low-trust-domain",),
    "min_source_credibility": ("--min-credibility",),
    "local_source_credibility": ("--local-credibility",),
    "plateau_min_new_sentences": ("--plateau",),
    "supervisor_messages_to_keep": ("--supervisor-keep",),
    "compression_messages_to_keep": ("--compression-keep",),
    "max_total_tokens": ("--max-tokens",),
    "max_cost_usd": ("--max-cost",),
    "model_base_url": ("--base-url",),
    "model_api_key_env": ("--api-key-env",),
    "query_dedupe_threshold": ("--query-dedupe",),
    "report_format": ("--format",),
    "report_length": ("--length",),
    "output_dir": ("--out",),
    "write_pdf": ("--pdf",),
    "write_docx": ("--docx",),
}
# The parameter names those options had (callers of context_from_options use them).
DESTS = {"output_dir": "out", "model_base_url": "base_url", "model_api_key_env": "api_key_env"}
# Switches that set their setting to False (the others set it to True, --no-... to False).
TURNS_OFF = {"allow_clarification"}
# Help that differs from the setting's description, for options whose name says otherwise.
HELP = {
    "allow_clarification": "Do not ask a clarifying question (allow_clarification off).",
    "corpus_path": "Folder of documents (or its index) to search; implies --search local.",
    "searxng_url": "SearXNG instance, e.g. http://localhost:8888 (env SEARXNG_URL); implies --search searxng. "
                   "Its settings.yml must list json in search.formats.",
    "research_urls": "A page to research (repeatable): fetched and given to the researchers as a source, in "
                     "addition to search (with --search none: only these pages).",
}
# What a number setting without a default (a cap: --max-cost, --max-tokens) takes to be unset:
# no cap, or, on resume, the run's saved value removed (a ceiling the environment sets holds).
UNSET = "none"
# Settings that take one text value although they hold a list (split by the setting itself).
TEXT_LISTS = {"brief_council_models", "searxng_engines", "searxng_categories"}

# Help panels: the sections of Configuration, each starting at its first field, in order
# (a new field lands in the section it is declared in); a role's own settings apart.
SECTIONS = (("allow_clarification", "Scoping"), ("search_api", "Search and sources"),
            ("max_concurrent_research_units", "Research loop and limits"), ("model", "Models"),
            ("summarize_after_tokens", "Context and reliability"), ("judge_claims", "Checks and report"),
            ("output_dir", "Output"))
ROLE_PANEL = "Models per role"
RUN_PANEL = "Run"


@dataclass(frozen=True)
class Setting:
    """One Configuration field as the command line sees it."""

    name: str
    kind: str  # bool | int | float | str | choice | list | json
    default: Any
    help: str
    choices: tuple = ()
    bounds: tuple[tuple[str, Any], ...] = ()  # ("ge", 100), ("le", 20000), ("max_length", 4000) ...
    panel: str = ""

    @property
    def flags(self) -> tuple[str, ...]:
        return NAMES.get(self.name, ("--" + self.name.replace("_", "-"),))

    @property
    def dest(self) -> str:
        """The option's parameter name: the setting's, or the older one its option had."""
        if self.name in DESTS:
            return DESTS[self.name]
        return self.flags[0].lstrip("-").replace("-", "_") if self.name in NAMES else self.name

    @property
    def unsettable(self) -> bool:
        """A number that may be left unset (its default is None): ``--OPTION none`` unsets it."""
        return self.kind in ("int", "float") and self.default is None

    @property
    def label(self) -> str:
        """How an error names the setting: the option the user typed."""
        if self.kind == "bool" and self.name not in TURNS_OFF:
            return f"{self.flags[0]}/--no-{self.flags[0][2:]}"
        return self.flags[0]

    def option(self) -> tuple[Any, Any]:
        """(annotation, typer.Option) of this setting's option. Every option takes text (or
        is a switch): the value is checked and converted by Configuration, nowhere else."""
        decls = list(self.flags)
        if self.kind == "bool":
            if self.name not in TURNS_OFF:
                decls = [f"{decls[0]}/--no-{decls[0][2:]}", *decls[1:]]
            return Optional[bool], typer.Option(None, *decls, help=self.describe(), rich_help_panel=self.panel,
                                                show_default=False)
        many = self.kind == "list" and self.name not in TEXT_LISTS
        metavar = {"int": "INTEGER", "float": "NUMBER", "json": "JSON",
                   "choice": "|".join(map(str, self.choices))}.get(self.kind, "TEXT")
        annotation = Optional[list[str]] if many else Optional[str]
        return annotation, typer.Option(None, *decls, help=self.describe(), metavar=metavar,
                                        rich_help_panel=self.panel, show_default=False)

    def describe(self) -> str:
        """The option's help: the setting's description, its limits and default."""
        text = HELP.get(self.name, self.help).strip()
        limits = dict(self.bounds)
        low = ("at least", limits["ge"]) if "ge" in limits else ("more than", limits["gt"]) if "gt" in limits else None
        high = ("at most", limits["le"]) if "le" in limits else ("less than", limits["lt"]) if "lt" in limits else None
        extra = []
        if low and high and low[0] == "at least" and high[0] == "at most":
            extra.append(f"{_num(low[1])} to {_num(high[1])}")
        else:
            extra += [f"{b[0]} {_num(b[1])}" for b in (low, high) if b]
        if "max_length" in limits:
            what = "times" if self.kind == "list" and self.name not in TEXT_LISTS else "characters"
            extra.append(f"at most {limits['max_length']:,} {what}")  # a list's max_length counts items
        if self.kind == "list" and self.name not in TEXT_LISTS:
            extra.append("repeatable")
        if self.unsettable:
            extra.append(f"{UNSET}: unset, also on resume")
        default = self.default
        if self.kind == "bool" and self.name not in TURNS_OFF:
            extra.append(f"default: {'on' if default else 'off'}")
        elif default not in (None, [], {}, "") and self.kind != "bool":
            extra.append(f"default: {_num(default) if isinstance(default, (int, float)) else default}")
        if self.name in NAMES and self.name not in TURNS_OFF:
            extra.append(f"setting {self.name}")
        return f"{text} [{'; '.join(extra)}]" if extra else text


def _num(v: Any) -> str:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    return f"{v:,}" if isinstance(v, int) or float(v).is_integer() and abs(v) >= 1000 else f"{v:g}"


# --- the fields, from settings.json or from Configuration --------------------------------------
def source_hash() -> str:
    return hashlib.sha256(CONFIGURATION.read_bytes()).hexdigest()


def describe_configuration() -> dict:
    """Configuration's fields as plain data (what settings.json holds)."""
    import enum
    import types
    import typing

    from ..research.runtime.configuration import ROLES, Configuration

    fields = []
    for name, f in Configuration.model_fields.items():
        ann = f.annotation
        args = typing.get_args(ann)
        if typing.get_origin(ann) in (typing.Union, types.UnionType):
            ann = next(a for a in args if a is not type(None))
        origin = typing.get_origin(ann)
        choices: tuple = ()
        if origin is typing.Literal:
            kind, choices = "choice", typing.get_args(ann)
        elif isinstance(ann, type) and issubclass(ann, enum.Enum):
            kind, choices = "choice", tuple(m.value for m in ann)
        elif origin in (list, tuple, set) or ann in (list, tuple, set):
            kind = "list"
        elif origin is dict or ann is dict:
            kind = "json"
        elif ann in (bool, int, float):
            kind = ann.__name__
        else:
            kind = "str"
        default = f.get_default(call_default_factory=True)
        if isinstance(default, enum.Enum):
            default = default.value
        bounds = {}
        for m in f.metadata:
            for key in ("ge", "gt", "le", "lt", "max_length"):
                if getattr(m, key, None) is not None:
                    bounds[key] = getattr(m, key)
        fields.append({"name": name, "kind": kind, "default": default, "help": f.description or "",
                       "choices": list(choices), "bounds": bounds})
    return {"source_sha256": source_hash(), "roles": list(ROLES), "fields": fields}


def write_spec() -> Path:
    SPEC.write_text(json.dumps(describe_configuration(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return SPEC


@functools.cache
def _spec() -> dict:
    try:
        spec = json.loads(SPEC.read_text(encoding="utf-8"))
        if spec.get("source_sha256") == source_hash():
            return spec
    except (OSError, ValueError):
        pass
    return describe_configuration()  # settings.json is stale or missing: Configuration itself


def panel_of(name: str, roles: list[str], names: list[str]) -> str:
    if any(name.startswith((f"{r}_model", f"{r}_azure_")) for r in roles):  # research_model_base_url, ...
        return ROLE_PANEL
    panel = SECTIONS[0][1]
    for first, title in SECTIONS:
        if first in names and names.index(first) <= names.index(name):
            panel = title
    return panel


@functools.cache
def settings() -> tuple[Setting, ...]:
    spec = _spec()
    names = [f["name"] for f in spec["fields"]]
    return tuple(Setting(f["name"], f["kind"], f["default"], f["help"], tuple(f["choices"]),
                         tuple(sorted(f["bounds"].items())), panel_of(f["name"], spec["roles"], names))
                 for f in spec["fields"])


def by_dest() -> dict[str, Setting]:
    """Each setting under its parameter name and its field name."""
    out = {s.name: s for s in settings()}
    out.update({s.dest: s for s in settings()})
    return out


def labels() -> dict[str, str]:
    return {s.name: s.label for s in settings()}


def typed_labels(context: Mapping[str, Any]) -> dict[str, str]:
    """setting -> option, for the settings the user gave as options (``context``), so a
    later message (preflight's) names what was typed: ``--url``, not ``research_urls``. A
    role's model given by ``--model`` is named ``--model``. A one-word setting (``model``)
    is left out: it is also an ordinary word of the messages."""
    every = labels()
    out = {name: every[name] for name in context if name in every and "_" in name}
    if "model" in context:
        from ..research.runtime.configuration import ROLES

        out.update({f"{r}_model": every["model"] for r in ROLES if f"{r}_model" not in context})
    return out


# --- commands with the settings as options ----------------------------------------------------
def with_settings(leave_out: tuple[str, ...] = (), only: tuple[str, ...] | None = None) -> Callable:
    """A command function's own parameters, then one option per setting (less ``leave_out``;
    only those named in ``only`` when given). The function gets the settings the user gave as
    ``run_settings`` (parameter name -> value)."""

    def wrap(func: Callable) -> Callable:
        own = [p for p in inspect.signature(func).parameters.values() if p.name != "run_settings"]
        own_names = {p.name for p in own} | {d for p in own for d in getattr(p.default, "param_decls", None) or ()}
        generated: list[Setting] = []
        shadowed: list[Setting] = []
        for s in settings():
            if s.name in leave_out or only is not None and s.name not in only:
                continue
            # a command's own option wins over a setting of the same name (a test lists any)
            (shadowed if {s.dest, *s.flags} & own_names else generated).append(s)
        dests = {s.dest for s in generated}
        # the command's arguments, the settings, then the command's own options
        arguments = [p for p in own if isinstance(p.default, typer.models.ArgumentInfo)]
        params, annotations = list(arguments), dict(func.__annotations__)
        for s in generated:
            annotation, option = s.option()
            params.append(inspect.Parameter(s.dest, inspect.Parameter.KEYWORD_ONLY, default=option,
                                            annotation=annotation))
            annotations[s.dest] = annotation
        params += [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own if p not in arguments]

        @functools.wraps(func)
        def command(**kwargs: Any) -> Any:
            given = {k: kwargs.pop(k) for k in list(kwargs) if k in dests}
            return func(**kwargs, run_settings={k: v for k, v in given.items() if v not in (None, [], ())})

        command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        command.__annotations__ = annotations
        command.shadowed_settings = [s.name for s in shadowed]  # type: ignore[attr-defined]
        return command

    return wrap


def context_from_options(**opts: Any) -> dict:
    """The run's settings from option values (by parameter or field name; None or an empty
    list: not given), before validation: text as typed, switches as booleans.

    Two options say more than their setting: --corpus (a path, made absolute) implies
    --search local, --searxng-url implies --search searxng, unless --search is given."""
    known = by_dest()
    ctx: dict = {}
    for key, value in opts.items():
        if value is None or isinstance(value, (list, tuple)) and not value:
            continue
        s = known.get(key)
        if s is None:
            raise TypeError(f"not a setting: {key}")
        if s.name in TURNS_OFF:
            if value:
                ctx[s.name] = False
            continue
        if s.unsettable and isinstance(value, str) and value.strip().lower() == UNSET:
            ctx[s.name] = None  # kept (not "not given"): on resume it replaces the run's saved value
            continue
        if s.name == "corpus_path":
            value = str(Path(value).expanduser().resolve())
        ctx[s.name] = list(value) if isinstance(value, tuple) else str(value) if isinstance(value, Path) else value
    if "search_api" not in ctx:
        if "corpus_path" in ctx:
            ctx["search_api"] = "local"
        elif "searxng_url" in ctx:
            ctx["search_api"] = "searxng"
    return ctx


def checked_context(**opts: Any) -> dict:
    """The run's settings from option values, checked by Configuration: their values (JSON
    form), or a UserError naming each wrong option as typed."""
    from ..errors import UserError
    from ..research.runtime.configuration import check_values

    ctx = context_from_options(**opts)
    corpus = ctx.get("corpus_path")
    if corpus is not None and not Path(corpus).exists():
        raise UserError(f"--corpus: {corpus} does not exist")
    values = check_values(ctx, labels())
    # a backend's own option with another backend was dropped without a word (the run searched the web)
    for name, backend in (("corpus_path", "local"), ("searxng_url", "searxng")):
        search = values.get("search_api")
        if values.get(name) is not None and search not in (None, backend):
            option = labels()[name]
            raise UserError(f"{option} is used by --search {backend} only, and --search {search} was given: "
                            f"give {option} without --search (or with --search {backend}), or leave {option} out")
    return values

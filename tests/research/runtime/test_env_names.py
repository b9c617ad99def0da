"""A variable of the environment that looks like a setting's and is none is named, with the
setting's variable it is close to (a typo'd cap left the run without a cap, unsaid)."""

from __future__ import annotations

import re
from pathlib import Path

from deep_research.research.runtime.configuration import ENV_PREFIX, Configuration
from deep_research.research.runtime.env_names import OTHER_VARIABLES, near_miss_lines, near_misses

ROOT = Path(__file__).resolve().parents[3]


def test_a_misspelt_setting_is_named_with_the_one_it_is_close_to():
    env = {"DEEP_RESEARCH_MAX_TOTAL_TOKEN": "200000", "DEEP_RESEARCH_MAX_COST_USD": "5",
           "DEEP_RESEARCH_SEARCH_APII": "local", "DEEP_RESEARCH_ALLOWED_MODEL": "openai:gpt-4.1",
           "PATH": "/usr/bin", "MAX_TOTAL_TOKEN": "1"}
    assert near_misses(env) == [("DEEP_RESEARCH_ALLOWED_MODEL", "DEEP_RESEARCH_ALLOWED_MODELS"),
                                ("DEEP_RESEARCH_MAX_TOTAL_TOKEN", "DEEP_RESEARCH_MAX_TOTAL_TOKENS"),
                                ("DEEP_RESEARCH_SEARCH_APII", "DEEP_RESEARCH_SEARCH_API")]
    assert near_miss_lines({"DEEP_RESEARCH_MAX_TOTAL_TOKEN": "1"}) == [
        "DEEP_RESEARCH_MAX_TOTAL_TOKEN is not a setting and is ignored; did you mean DEEP_RESEARCH_MAX_TOTAL_TOKENS?"]


def test_a_variable_named_after_another_name_of_a_setting_is_taken_for_it():
    """The command line's --max-tokens sets max_total_tokens: DEEP_RESEARCH_MAX_TOKENS is a
    likely guess, and close to no setting's variable by spelling (only AUTH_TOKENS's)."""
    env = {"DEEP_RESEARCH_MAX_TOKENS": "5000", "DEEP_RESEARCH_CORPUS": "/docs", "DEEP_RESEARCH_HOME": "/x"}
    assert near_misses(env) == []  # without the other names: not close enough to be named
    aliases = {"max-tokens": "max_total_tokens", "corpus": "corpus_path"}
    assert near_misses(env, aliases) == [("DEEP_RESEARCH_CORPUS", "DEEP_RESEARCH_CORPUS_PATH"),
                                         ("DEEP_RESEARCH_MAX_TOKENS", "DEEP_RESEARCH_MAX_TOTAL_TOKENS")]


def test_the_clis_other_names_are_its_options():
    from deep_research.cli.research import option_aliases
    from deep_research.cli.settings import labels

    aliases = option_aliases(labels())
    assert aliases["max-tokens"] == "max_total_tokens" and aliases["max-cost"] == "max_cost_usd"
    assert aliases["out"] == "output_dir" and aliases["approve-brief"] == "require_brief_approval"
    assert "yes" not in aliases and "max-researcher-iterations" not in aliases  # the same name: no alias


def test_settings_the_projects_other_variables_keys_and_a_users_own_names_are_not_named():
    env = {f"{ENV_PREFIX}{name.upper()}": "x" for name in Configuration.model_fields}
    env.update({name: "x" for name in OTHER_VARIABLES})
    env.update({"DEEP_RESEARCH_MODEL_API_KEY_ENV": "DEEP_RESEARCH_MODEL_API_KEYS",  # a key kept under the prefix
                "DEEP_RESEARCH_MODEL_API_KEYS": "sk-test", "DEEP_RESEARCH_MY_SCRIPT_FLAG": "1"})
    assert near_misses(env) == []


def test_every_variable_the_project_reads_is_a_setting_or_listed_as_another():
    """OTHER_VARIABLES stays true: a variable added to the code without it would be named as
    a typo of a setting's."""
    settings = {f"{ENV_PREFIX}{name.upper()}" for name in Configuration.model_fields}
    read = set()
    for path in (ROOT / "src" / "deep_research").rglob("*.py"):
        if path.name == "env_names.py":  # its doc shows a typo
            continue
        read |= set(re.findall(r"\bDEEP_RESEARCH_[A-Z0-9_]*[A-Z0-9]\b", path.read_text(encoding="utf-8")))
    assert read - settings - OTHER_VARIABLES == set()


def test_a_server_with_a_corpus_and_no_base_url_says_so_once_at_start(tmp_path):
    """Without corpus_base_url a document's citation links are file:///srv/... URLs, which
    no chat user's browser opens: the server's log names the setting once, at start (the
    graph's import), and says nothing when it is set or there is no corpus."""
    import os
    import subprocess
    import sys

    from deep_research.research.runtime.env_names import corpus_link_lines

    corpus = {"DEEP_RESEARCH_SEARCH_API": "local", "DEEP_RESEARCH_CORPUS_PATH": "/srv/docs"}
    (line,) = corpus_link_lines(corpus)
    assert "DEEP_RESEARCH_CORPUS_BASE_URL" in line and "file://" in line
    assert corpus_link_lines({**corpus, "DEEP_RESEARCH_CORPUS_BASE_URL": "http://127.0.0.2:8001/"}) == []
    assert corpus_link_lines({"DEEP_RESEARCH_SEARCH_API": "tavily"}) == []
    assert len(corpus_link_lines({"DEEP_RESEARCH_CORPUS_PATH": "/srv/docs"})) == 1  # a run may pick local
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEEP_RESEARCH_")}
    r = subprocess.run([sys.executable, "-c", "import deep_research.server.graph"], capture_output=True, text=True,
                       env={**env, **corpus, "DEEP_RESEARCH_ENV_FILE": "none"}, cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("DEEP_RESEARCH_CORPUS_BASE_URL") == 1, r.stderr

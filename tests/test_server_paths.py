"""A server's paths kept out of what its chat users see (errors.hide_paths,
setting_policy.server_paths / for_server_users)."""

from __future__ import annotations

import pytest

from deep_research.errors import SERVER_PATH, hide_paths
from deep_research.research.runtime.setting_policy import for_server_users, server_paths


@pytest.mark.parametrize("text, shown", [
    ("corpus_path = /srv/docs: the folder does not exist", f"corpus_path = {SERVER_PATH}: the folder does not exist"),
    ("Permission denied: '/srv/reports/t/notes.md'", f"Permission denied: '{SERVER_PATH}'"),
    ("index /srv/docs/.index/db.sqlite is locked.", f"index {SERVER_PATH} is locked."),
    ("file:///srv/docs/a.pdf cannot be read", f"{SERVER_PATH} cannot be read"),
    ("~/notes/a.md and C:\\data\\x", f"{SERVER_PATH} and {SERVER_PATH}"),
    # what is not a path of the machine stays
    ("see https://example.org/a/b?x=/y and/or 1/2 km/h", "see https://example.org/a/b?x=/y and/or 1/2 km/h"),
    ("model openai:gpt-4.1 at http://127.0.0.1:8000/v1", "model openai:gpt-4.1 at http://127.0.0.1:8000/v1"),
])
def test_absolute_paths_are_hidden_urls_and_words_are_not(text, shown):
    assert hide_paths(text) == shown


def test_a_settings_relative_folder_is_hidden_where_it_is_a_path():
    env = {"DEEP_RESEARCH_CORPUS_PATH": "data/corpus", "DEEP_RESEARCH_OUTPUT_DIR": "reports",
           "DEEP_RESEARCH_ENV_FILE": "none"}
    known = server_paths(None, env)
    assert "data/corpus" in known and "reports" in known and "none" not in known
    assert hide_paths("corpus_path = data/corpus: no documents", known) == f"corpus_path = {SERVER_PATH}: no documents"
    assert hide_paths("written to reports/2026-x/notes.md.", known) == f"written to {SERVER_PATH}."
    assert hide_paths("no reports were found in mydata/corpus", known) == "no reports were found in mydata/corpus"


def test_for_server_users_logs_the_full_text_and_says_so(caplog):
    caplog.set_level("ERROR")
    shown = for_server_users("corpus_path = /srv/docs: missing", what="preflight failed")
    assert shown == f"corpus_path = {SERVER_PATH}: missing (the server's log names the path)"
    assert any("/srv/docs" in r.getMessage() for r in caplog.records)
    assert for_server_users("max_cost_usd is above the ceiling") == "max_cost_usd is above the ceiling"

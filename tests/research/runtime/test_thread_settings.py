"""The settings of a thread's question against those of the run that resumes it, by kind
(runtime/thread_settings.py): omitted -> the question's; limits -> the stricter; approvals
stay on; others -> the question's; a URL whose password was not kept -> given again."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deep_research.errors import UserError
from deep_research.research.runtime.configuration import Configuration
from deep_research.research.runtime.thread_settings import (
    RESTATED,
    applied,
    ignored_line,
    recorded,
    starts_question,
    thread_values,
)

URL = "https://alice:s3cret@models.example/v1"
MASKED = "https://alice:***@models.example/v1"


def test_a_setting_the_resume_omits_is_the_questions():
    values, ignored = thread_values({"max_total_tokens": 4000, "research_model": "openai:gpt-4.1"}, {}, {})
    assert values == {"max_total_tokens": 4000, "research_model": "openai:gpt-4.1"} and ignored == []


@pytest.mark.parametrize("started, given, expected", [
    (4000, 9000, 4000),  # a resume never raises a cap
    (4000, None, 4000),  # nor removes it
    (4000, "9000", 4000),  # a configurable may hold text
    (9000, 4000, 4000),  # it may lower it
    (None, 4000, 4000),
])
def test_of_two_limits_the_stricter_holds(started, given, expected):
    values, _ = thread_values({"max_total_tokens": started}, {"max_total_tokens": given}, {})
    assert values["max_total_tokens"] == expected


def test_a_zero_that_turns_a_saving_off_is_not_the_stricter_value():
    values, _ = thread_values({"page_relevance_chars": 2000}, {"page_relevance_chars": 0}, {})
    assert values["page_relevance_chars"] == 2000


def test_an_approval_asked_with_the_question_stays_on():
    values, _ = thread_values({"require_report_approval": True, "require_brief_approval": False},
                              {"require_report_approval": False, "require_brief_approval": True}, {})
    assert values == {"require_report_approval": True, "require_brief_approval": True}


def test_other_settings_keep_the_questions_value_and_say_which_were_not_used():
    values, ignored = thread_values({"research_model": "openai:gpt-4.1", "report_format": "brief"},
                                    {"research_model": "openai:o3", "report_format": "brief", "test_mode": True}, {})
    assert values == {"research_model": "openai:gpt-4.1", "report_format": "brief", "test_mode": True}
    assert ignored == [{"setting": "research_model", "asked": "openai:o3", "kept": "openai:gpt-4.1",
                        "why": "the question is researched and written with the settings it was started with"}]


@pytest.mark.parametrize("started, given, asked, kept", [
    ({"max_total_tokens": 4000}, {"max_total_tokens": 9000}, 9000, 4000),
    ({"max_total_tokens": 4000}, {"max_total_tokens": None}, None, 4000),  # no cap asked
    ({"page_relevance_chars": 2000}, {"page_relevance_chars": 0}, 0, 2000),  # 0 would turn the cut off
    ({"require_report_approval": True}, {"require_report_approval": False}, False, True),
])
def test_a_limit_or_approval_the_resume_cannot_have_is_named_with_both_values(started, given, asked, kept):
    """A cap the resume asks to raise, or an approval it turns off, is not used: the record
    says which setting, what was typed and what is kept, so the user can be told."""
    values, ignored = thread_values(started, given, {})
    (name,) = given
    assert values[name] == kept
    assert [(r["setting"], r["asked"], r["kept"]) for r in ignored] == [(name, asked, kept)]


def test_a_stricter_limit_or_an_approval_turned_on_is_used_and_not_named():
    values, ignored = thread_values({"max_total_tokens": 9000, "require_brief_approval": False},
                                    {"max_total_tokens": 4000, "require_brief_approval": True}, {})
    assert values == {"max_total_tokens": 4000, "require_brief_approval": True} and ignored == []


def test_the_line_a_user_reads_names_the_setting_the_value_typed_and_the_value_kept():
    _, ignored = thread_values({"max_total_tokens": 4000, "model_base_url": "https://a.example/v1"},
                               {"max_total_tokens": None, "model_base_url": URL}, {})
    lines = [ignored_line(r) for r in ignored]
    assert lines[0].startswith("max_total_tokens: none given by this run is not used; 4000 is kept (")
    # a password typed in a URL is not repeated where the user (and the state database) reads it
    assert lines[1].startswith(f"model_base_url: {MASKED} given by this run is not used; https://a.example/v1 is kept")
    assert "s3cret" not in repr(ignored)


def test_a_url_whose_password_was_not_kept_comes_again_from_the_run_or_the_environment():
    other = "https://bob:pw2@elsewhere.example/v1"
    assert thread_values({"model_base_url": MASKED}, {"model_base_url": other}, {})[0]["model_base_url"] == other
    env = {"DEEP_RESEARCH_MODEL_BASE_URL": URL}
    assert thread_values({"model_base_url": MASKED}, {}, env)[0]["model_base_url"] == URL
    with pytest.raises(UserError, match="model_base_url held a password or token .*give the URL again "
                                        r"\(model_base_url on resume, or DEEP_RESEARCH_MODEL_BASE_URL"):
        thread_values({"model_base_url": MASKED}, {}, {})


def test_what_is_recorded_is_what_the_run_gave_without_passwords():
    context = Configuration(max_total_tokens=4000, model_base_url=URL)  # as LangGraph builds a run's context
    config = {"configurable": {"thread_id": "t", "search_api": "local", "langgraph_auth_user_id": "alice"}}
    assert recorded(config, context) == {"search_api": "local", "max_total_tokens": 4000, "model_base_url": MASKED}


class Runtime:
    def __init__(self, context):
        self.context = context

    def override(self, **kw):
        return Runtime(kw["context"])


def test_a_node_gets_the_questions_settings_unless_the_run_restates_them():
    state = {"question": "q", "status": "running", "question_settings": {"max_total_tokens": 4000}}
    config, runtime = applied(state, {"configurable": {"thread_id": "t"}}, Runtime({"max_total_tokens": 9000}))
    assert Configuration.resolve(config, runtime.context, environ={}).max_total_tokens == 4000
    # the CLI gives every setting itself (its resume may replace a cap)
    cli = {"configurable": {"thread_id": "t", RESTATED: True}}
    assert applied(state, cli, runtime := Runtime({"max_total_tokens": 9000})) == (cli, runtime)
    # a server user cannot claim to
    server = {"configurable": {"thread_id": "t", RESTATED: True, "langgraph_auth_user_id": "alice"}}
    config, runtime = applied(state, server, Runtime({"max_total_tokens": 9000}))
    assert Configuration.resolve(config, runtime.context, environ={}).max_total_tokens == 4000


def test_a_follow_up_question_starts_without_the_last_questions_settings():
    done = {"question": "q", "status": "completed", "question_settings": {"max_total_tokens": 4000},
            "messages": [HumanMessage("q"), AIMessage("report"), HumanMessage("and in Norway?")]}
    config = {"configurable": {"thread_id": "t"}}
    assert applied(done, config, None) == (config, None) and starts_question(done)
    assert not starts_question({**done, "status": "needs_clarification"})  # an answer to a clarifying question
    assert starts_question({})


@pytest.mark.parametrize("settings", ["not a dict", ["max_total_tokens", 4000], 7])
def test_question_settings_a_state_update_made_no_mapping_are_named_in_a_clear_error(settings):
    """A client may write the state itself (``threads.update_state``): settings that are no
    mapping were an AttributeError ("'str' object has no attribute 'items'") as the run's error."""
    state = {"question": "q", "status": "running", "question_settings": settings}
    with pytest.raises(UserError, match=r"question_settings must be a mapping .*not (str|list|int) "):
        applied(state, {"configurable": {"thread_id": "t"}}, Runtime({"max_total_tokens": 9000}))

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
    assert thread_values({"model_base_url": MASKED}, {"model_base_url": URL}, {})[0]["model_base_url"] == URL
    # another URL is not the question's: refused, naming the setting (it was taken as given)
    for other in ("https://bob:pw2@elsewhere.example/v1", "https://alice:pw2@models.example/v2",
                  "https://models.example/v1"):
        with pytest.raises(UserError, match=r"^this run's model_base_url \(https://.*\) is not the URL the question "
                                            r"was started with \(https://alice:\*\*\*@models\.example/v1\)") as e:
            thread_values({"model_base_url": MASKED}, {"model_base_url": other}, {})
        assert "pw2" not in str(e.value)
    env = {"DEEP_RESEARCH_MODEL_BASE_URL": URL}
    assert thread_values({"model_base_url": MASKED}, {}, env)[0]["model_base_url"] == URL
    with pytest.raises(UserError, match="model_base_url held a password .*give the URL again "
                                        r"\(model_base_url on resume, or DEEP_RESEARCH_MODEL_BASE_URL"):
        thread_values({"model_base_url": MASKED}, {}, {})


def test_a_secret_in_a_urls_query_is_not_kept_and_must_be_given_again():
    """A key in the query (``?api_key=``, ``#access_token=``; names of any case) is a password
    too: recorded masked, a resume omitting the URL is told to give it again."""
    url = "https://models.example/v1?API_KEY=K-s3cret-1&model=m&Sig=abc#access_token=T0k"
    masked = "https://models.example/v1?API_KEY=***&model=m&Sig=***#access_token=***"
    context = Configuration(model_base_url=url)
    assert recorded({"configurable": {}}, context) == {"model_base_url": masked}
    with pytest.raises(UserError, match=r"model_base_url held the value of its secret parameters API_KEY=, Sig=, access_token= "
                                        r"\(https://models\.example/v1\?API_"):
        thread_values({"model_base_url": masked}, {}, {})
    assert thread_values({"model_base_url": masked}, {}, {"OPENAI_BASE_URL": url})[0]["model_base_url"] == url
    assert thread_values({"model_base_url": masked}, {"model_base_url": url}, {})[0]["model_base_url"] == url
    # the line naming a setting given and not used holds no secret either
    _, ignored = thread_values({"research_model": "openai:a"}, {"research_model": "openai:a",
                                                                "searxng_url": "http://s.example/?token=T0k"}, {})
    assert "T0k" not in repr(ignored)
    # a URL refused says what is wrong without its secret (a server sends the message to the chat)
    with pytest.raises(UserError) as refused:
        Configuration.resolve({"configurable": {"model_base_url": "ftp://models.example/v1?token=T0k"}}, None,
                              environ={})
    assert "token=***" in str(refused.value) and "T0k" not in str(refused.value)
    # a URL with a query that holds no secret is kept as typed, and used again without asking
    plain = "https://models.example/v1?model=m&keyboard=us&postcode=1"
    assert recorded({"configurable": {}}, Configuration(model_base_url=plain)) == {"model_base_url": plain}
    assert thread_values({"model_base_url": plain}, {}, {})[0]["model_base_url"] == plain


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


@pytest.mark.parametrize("given, env, by, used", [
    ({"model": "openai:gpt-4.1-mini"}, {}, "this resume", "openai:gpt-4.1-mini"),
    ({}, {"DEEP_RESEARCH_MODEL": "openai:gpt-4.1-nano"}, "the environment", "openai:gpt-4.1-nano"),
    ({}, {}, "the default", "openai:gpt-4.1"),
])
def test_a_resume_names_the_model_that_replaces_a_refused_saved_one(given, env, by, used):
    """A saved research model the environment refuses now is dropped on resume; the research
    role then follows the general model: the one typed on resume (--model), else the
    environment's, else the default. The warning (and audit.json) named the default whatever
    the run went on with: "the default openai:gpt-4.1 is used" while --model's ran."""
    from deep_research.research.runtime.thread_settings import refused_on_resume

    saved = {"research_model": "openai:old-model", "search_api": "local"}
    environ = {"DEEP_RESEARCH_ALLOWED_MODELS": "openai:gpt-4.1*", **env}
    merged, replaced = refused_on_resume(saved, given, {**saved, **given}, environ)
    assert Configuration.resolve({"configurable": {}}, merged, environ).model_id("research") == tuple(used.split(":"))
    assert [(r["setting"], r["by"], r["kept"]) for r in replaced] == [("research_model", by, used)]
    said = {"this resume": "this resume's", "the environment": "the environment's", "the default": "the default"}
    assert f"; {said[by]} {used} is used from now on for this run" in ignored_line(replaced[0])


def test_a_resume_saves_the_value_that_replaced_a_refused_saved_setting():
    """The refused saved setting was dropped from the settings the resume saved, so the next
    resume took whatever the environment held then (another model, with no word of it),
    while the warning said "a later resume keeps it". The value used is saved now."""
    from deep_research.research.runtime.thread_settings import refused_on_resume

    saved = {"research_model": "openai:old-model", "search_api": "local"}
    first = {"DEEP_RESEARCH_ALLOWED_MODELS": "openai:gpt-4.1*", "DEEP_RESEARCH_MODEL": "openai:gpt-4.1-nano"}
    merged, replaced = refused_on_resume(saved, {}, dict(saved), first)
    assert [r["kept"] for r in replaced] == ["openai:gpt-4.1-nano"]
    assert merged == {"research_model": "openai:gpt-4.1-nano", "search_api": "local"}
    later = {**first, "DEEP_RESEARCH_MODEL": "openai:gpt-4.1-mini"}
    again, replaced = refused_on_resume(merged, {}, dict(merged), later)
    assert replaced == [] and again == merged
    assert Configuration.resolve({"configurable": {}}, again, later).model_id("research") == ("openai", "gpt-4.1-nano")
    # a role's setting replaced by the general one typed on resume follows it, as typed
    merged, _ = refused_on_resume(saved, {"model": "openai:gpt-4.1-mini"},
                                  {**saved, "model": "openai:gpt-4.1-mini"}, first)
    assert "research_model" not in merged and merged["model"] == "openai:gpt-4.1-mini"


GOOD = {"setting": "research_model", "asked": "openai:old-model", "kept": "openai:gpt-4.1", "why": "not allowed",
        "by": "the default", "refused": True}


@pytest.mark.parametrize("replaced, named", [
    (5, "not int 5"),
    ("research_model", 'not str "research_model"'),
    ([7], "not item 0: int 7"),
    ([{"refused": True}], "not item 0 lacks setting, asked, kept, why, by"),
    ([{**GOOD, "by": "my script"}], 'not item 0: by "my script" (one of the environment, this resume, the default)'),
    ([{**GOOD, "refused": False}], "not item 0: "),
    ([{**GOOD, "setting": 3}], "not item 0: "),
    ([{**GOOD, "asked": {1, 2}}], "not item 0: asked and kept must be JSON values"),
])
def test_an_odd_replaced_value_from_a_trusted_caller_is_named_in_a_clear_error(replaced, named):
    """A caller trusted with the command line's markers (a Python caller, a server without
    credentials) that gave ``deep_research_settings_replaced`` another shape than resume's
    records got a TypeError or KeyError from deep inside (an int is not iterable, a record
    without "setting"); a record without ``refused`` was dropped without a word."""
    from deep_research.research.runtime.thread_settings import REPLACED, settled

    config = {"configurable": {"thread_id": "t", RESTATED: True, REPLACED: replaced}}
    with pytest.raises(UserError, match="configurable deep_research_settings_replaced must be a list of records "
                                        r"\{setting, asked, kept, why, by, refused\}") as caught:
        settled({"question": "q"}, config, Runtime({}))
    assert named in str(caught.value) and str(caught.value).endswith(": leave it out")
    _, _, records = settled({"question": "q"}, {"configurable": {RESTATED: True, REPLACED: [GOOD]}}, Runtime({}))
    assert records == [GOOD] and ignored_line(records[0]).startswith("research_model: openai:old-model, which")


def test_a_server_run_reads_its_settings_from_its_context_not_the_threads_configurable():
    """langgraph-api merges the thread's config (the configurable of an assistant the thread
    ran with before) into a run's configurable; the run's context is its own settings over
    its assistant's. A setting only the configurable held came back into the run (and into
    the question's recorded settings); the context alone is read now, and a node's config
    keeps no setting the run did not give."""
    server = {"configurable": {"thread_id": "t", "assistant_id": "a", "graph_id": "deep_research",
                               "max_search_results": 3, "search_api": "local"}}
    context = Configuration(search_api="local")
    assert recorded(server, context) == {"search_api": "local"}
    assert Configuration.resolve(server, context, environ={}).max_search_results == \
        Configuration.resolve(None, None, environ={}).max_search_results
    state = {"question": "q", "status": "running", "question_settings": {"search_api": "local"}}
    config, runtime = applied(state, server, Runtime(context))
    assert "max_search_results" not in config["configurable"] and runtime.context is None
    assert Configuration.resolve(config, runtime.context, environ={}).search_api == "local"
    # no assistant named (the CLI, a Python caller), or no context: the configurable is read
    assert recorded({"configurable": {"thread_id": "t", "max_search_results": 3}}, context)["max_search_results"] == 3
    assert recorded(server, None)["max_search_results"] == 3


@pytest.mark.parametrize("restated, named", [
    ("false", 'not str "false"'),
    (0, "not int 0"),
    (1, "not int 1"),
    ([], "not list []"),
    ({"yes": True}, 'not dict {"yes": true}'),
])
def test_an_odd_restated_value_from_a_trusted_caller_is_named_in_a_clear_error(restated, named):
    """``deep_research_settings_restated`` from a trusted caller took any truthy value as the
    command line's marker ("false" was true, so the question's saved settings were set
    aside) and any falsy one as none: only a boolean is read now, anything else is a
    UserError naming what was given, as an odd ``deep_research_settings_replaced`` is."""
    from deep_research.research.runtime.thread_settings import settled

    state = {"question": "q", "status": "running", "question_settings": {"max_total_tokens": 4000}}
    with pytest.raises(UserError, match="configurable deep_research_settings_restated must be true or false") as e:
        settled(state, {"configurable": {"thread_id": "t", RESTATED: restated}}, Runtime({}))
    assert str(e.value).endswith(f"{named}: leave it out"), str(e.value)
    config, runtime = applied(state, {"configurable": {"thread_id": "t", RESTATED: False}}, Runtime({}))
    assert Configuration.resolve(config, runtime.context, environ={}).max_total_tokens == 4000
    # a server user's is not read at all, as before
    server = {"configurable": {"thread_id": "t", RESTATED: "false", "langgraph_auth_user_id": "alice"}}
    config, runtime = applied(state, server, Runtime({}))
    assert Configuration.resolve(config, runtime.context, environ={}).max_total_tokens == 4000

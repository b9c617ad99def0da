"""Configuration as Studio users meet it: one model setting for every role, help text in
the standard JSON-schema description of every field, and the precedence of run values
over the environment."""

from deep_research.research.runtime.configuration import ROLE_MODELS, ROLES, Configuration


def test_every_setting_has_a_description_in_the_json_schema():
    props = Configuration.model_json_schema()["properties"]
    assert set(props) == set(Configuration.model_fields)
    missing = [name for name, p in props.items() if not (p.get("description") or "").strip()]
    assert missing == []
    # the per-role endpoint and key settings say what they default to
    assert "model_base_url" in props["research_model_base_url"]["description"]
    assert "model_api_key_env" in props["citation_check_model_api_key_env"]["description"]


def models(cfg: Configuration) -> dict:
    return {r: (lambda s: f"{s['provider']}:{s['model']}")(cfg.model_spec(r)) for r in ROLES}


def test_one_model_sets_every_role_unless_a_role_overrides_it():
    assert models(Configuration.resolve(None, None, environ={})) == ROLE_MODELS
    cfg = Configuration.resolve(None, {"model": "openai:qwen2.5:14b", "final_report_model": "openai:big"},
                                environ={})
    assert models(cfg) == {**{r: "openai:qwen2.5:14b" for r in ROLES}, "final_report": "openai:big"}


def test_a_run_wide_model_setting_beats_a_roles_setting_from_the_environment():
    env = {"DEEP_RESEARCH_RESEARCH_MODEL": "openai:env-research", "DEEP_RESEARCH_MODEL": "openai:env-all",
           "DEEP_RESEARCH_SUMMARIZATION_MODEL_BASE_URL": "http://env-summaries/v1"}
    # from the environment alone: the role's own variable, else the general one
    cfg = Configuration.resolve(None, None, environ=env)
    assert models(cfg)["research"] == "openai:env-research" and models(cfg)["compression"] == "openai:env-all"
    # a value set in Studio for every role wins over the environment's per-role values
    cfg = Configuration.resolve(None, {"model": "openai:studio", "model_base_url": "http://local:8000/v1"},
                                environ=env)
    assert set(models(cfg).values()) == {"openai:studio"}
    assert {cfg.model_spec(r)["base_url"] for r in ROLES} == {"http://local:8000/v1"}
    # ... and a role's own run value wins over both
    cfg = Configuration.resolve({"configurable": {"model": "openai:studio", "research_model": "openai:mine"}},
                                None, environ=env)
    assert models(cfg)["research"] == "openai:mine" and models(cfg)["compression"] == "openai:studio"


def test_a_model_name_with_an_empty_side_of_its_colon_is_refused():
    """'openai:' (a forgotten name) went to the endpoint as the model 'openai:' and the run
    failed at its first call; it is refused before the run, naming the setting."""
    import pytest

    from deep_research.errors import UserError

    for field, value in [("research_model", "openai:"), ("model", ":gpt-4.1"), ("judge_second_model", "openai: "),
                         ("brief_council_models", "openai:gpt-4.1,anthropic:")]:
        with pytest.raises(UserError, match=f"{field}.*names no (model|provider)"):
            Configuration.resolve(None, {field: value}, environ={})
    cfg = Configuration.resolve(None, {"model": "ollama:llama3:8b", "research_model": "gpt-4.1"}, environ={})
    assert models(cfg)["research"] == "openai:gpt-4.1" and models(cfg)["compression"] == "ollama:llama3:8b"

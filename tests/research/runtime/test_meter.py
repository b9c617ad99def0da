"""Meter (bounded retries with backoff, timeouts, context-length shortening, usage),
structured answers (tool call, JSON text, repair, servers without tools), extract_json
and the missing-credentials message. A small fake chat model plays the provider."""

from __future__ import annotations

import asyncio
import inspect
import time
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import BaseModel

from deep_research.research.runtime import meter as meter_module
from deep_research.research.runtime import usage as usage_module
from deep_research.research.runtime.meter import (
    Meter,
    ModelCallError,
    StructuredOutputError,
    extract_json,
    is_context_length_error,
    is_transient,
)
from deep_research.research.runtime.providers import (
    ModelSetupError,
    default_model_factory,
    missing_credentials_message,
)


# --- a provider stand-in ------------------------------------------------------------------
class Plan:
    """What the fake model does on each call, in order (the last step repeats). A step is an
    exception (raised), a string or AIMessage (answered), or a function of (messages, bound)
    that returns one of those, possibly as a coroutine (e.g. to sleep)."""

    def __init__(self, *steps: Any):
        self.steps = list(steps)
        self.calls: list[dict] = []

    def next(self, messages: list[BaseMessage], bound: bool, kwargs: dict) -> Any:
        self.calls.append({"messages": list(messages), "bound": bound, "kwargs": dict(kwargs)})
        return self.steps.pop(0) if len(self.steps) > 1 else self.steps[0]


class FakeModel(BaseChatModel):
    plan: Any
    bound: bool = False
    model_name: str = "fake-model"
    tools_unsupported: bool = False  # bind_tools raises NotImplementedError, like BaseChatModel

    @property
    def _llm_type(self) -> str:
        return "fake"

    def bind_tools(self, tools: Any, **kwargs: Any) -> FakeModel:
        if self.tools_unsupported:
            raise NotImplementedError("no tool calling")
        return self.model_copy(update={"bound": True})

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        raise NotImplementedError("async only")

    async def _agenerate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        step = self.plan.next(messages, self.bound, kwargs)
        if callable(step) and not isinstance(step, BaseException):
            step = step(messages, self.bound)
            if inspect.isawaitable(step):
                step = await step
        if isinstance(step, BaseException):
            raise step
        msg = AIMessage(content=step) if isinstance(step, str) else step
        inp = sum(len(str(m.content)) for m in messages)
        out = len(str(msg.content)) + 10
        msg = msg.model_copy(update={"usage_metadata": {"input_tokens": inp, "output_tokens": out,
                                                        "total_tokens": inp + out}})
        return ChatResult(generations=[ChatGeneration(message=msg)])


def fake(*steps: Any, **fields: Any) -> FakeModel:
    return FakeModel(plan=Plan(*steps), **fields)


def meter(**kw: Any) -> Meter:
    kw.setdefault("backoff_s", 0.001)
    kw.setdefault("timeout_s", 5.0)
    return Meter("node", **kw)


def run(coro):
    return asyncio.run(coro)


PROMPT = [HumanMessage("What is the answer?")]


class RateLimitError(Exception):
    """Named like the OpenAI SDK's rate-limit error."""


class HTTPError(Exception):
    def __init__(self, status: int, message: str = "error", code: str | None = None):
        super().__init__(message)
        self.status_code = status
        self.code = code


class _Response:
    def __init__(self, status: int):
        self.status_code = status


class ResponseError(Exception):
    """Carries its status on .response, like httpx.HTTPStatusError."""

    def __init__(self, status: int):
        super().__init__(f"HTTP {status}")
        self.response = _Response(status)


# --- retries ---------------------------------------------------------------------------------
@pytest.mark.parametrize("error", [
    RateLimitError("slow down"),
    HTTPError(503, "service unavailable"),
    HTTPError(429, "too many requests"),
    ResponseError(502),
    TimeoutError(),
    ConnectionResetError("reset by peer"),
], ids=["RateLimitError", "status 503", "status 429", "response 502", "asyncio.TimeoutError", "connection"])
def test_transient_errors_are_retried_then_fail_as_transient(error):
    model = fake(error)
    m = meter(max_retries=2)
    with pytest.raises(ModelCallError) as err:
        run(m.invoke(model, PROMPT))
    assert err.value.transient is True
    assert err.value.__cause__ is error
    assert len(model.plan.calls) == 3  # one try + max_retries
    assert m.usage.retries == 2 and m.usage.calls == 0


def test_transient_error_then_success_returns_the_answer():
    model = fake(RateLimitError("slow down"), HTTPError(500), "the answer")
    m = meter(max_retries=3)
    reply = run(m.invoke(model, PROMPT))
    assert reply.content == "the answer"
    assert len(model.plan.calls) == 3
    assert m.usage.retries == 2 and m.usage.calls == 1


@pytest.mark.parametrize("error", [HTTPError(400, "invalid request"), HTTPError(401, "bad key"),
                                   ValueError("unsupported parameter")])
def test_non_transient_errors_are_not_retried(error):
    model = fake(error, "never reached")
    m = meter(max_retries=3)
    with pytest.raises(ModelCallError) as err:
        run(m.invoke(model, PROMPT))
    assert err.value.transient is False
    assert len(model.plan.calls) == 1 and m.usage.retries == 0


def test_no_retries_when_max_retries_is_zero():
    model = fake(RateLimitError("slow down"))
    with pytest.raises(ModelCallError) as err:
        run(meter(max_retries=0).invoke(model, PROMPT))
    assert err.value.transient and len(model.plan.calls) == 1


def test_backoff_grows_exponentially_with_jitter(monkeypatch):
    delays: list[float] = []

    async def record_sleep(delay, *args, **kwargs):
        delays.append(delay)

    monkeypatch.setattr(meter_module.asyncio, "sleep", record_sleep)
    model = fake(HTTPError(503))
    with pytest.raises(ModelCallError):
        run(meter(max_retries=4, backoff_s=0.1).invoke(model, PROMPT))
    assert len(delays) == 4
    for i, d in enumerate(delays):
        base = 0.1 * 2 ** i
        assert 0.5 * base <= d <= 1.5 * base, (i, d)
    assert delays[3] > delays[0]


def test_error_message_never_includes_an_api_key():
    model = fake(HTTPError(401, "Incorrect API key provided: sk-abcdefghijklmnop1234"))
    with pytest.raises(ModelCallError) as err:
        run(meter().invoke(model, PROMPT))
    assert "abcdefghijklmnop" not in str(err.value)
    assert "sk-***" in str(err.value)


def test_a_call_that_got_no_answer_says_where_it_went_or_how_long_it_waited():
    """"model call failed: OpenAIConnectionError: Connection error." named no server (with a
    server per role, which one was down?), and a call past request_timeout_s said
    "TimeoutError: " and nothing more. The address is said without its credentials."""

    class Request:
        url = "http://user:pw@127.0.0.1:9/v1/chat/completions?api_key=sk-abcdefghijklmnop1234"

    class OpenAIConnectionError(Exception):
        request = Request()

    with pytest.raises(ModelCallError) as err:
        run(meter(max_retries=0).invoke(fake(OpenAIConnectionError("Connection error.")), PROMPT))
    said = str(err.value)
    assert said.endswith("Connection error. (http://user:***@127.0.0.1:9/v1/chat/completions?api_key=***)"), said
    with pytest.MonkeyPatch.context() as mp:  # a server's chat is not told the server's own endpoint
        mp.setattr(meter_module, "on_server", lambda: True)
        with pytest.raises(ModelCallError) as err:
            run(meter(max_retries=0).invoke(fake(OpenAIConnectionError("Connection error.")), PROMPT))
    assert str(err.value).endswith("Connection error. (the model's server could not be reached)"), str(err.value)

    async def slow(messages, bound):
        await asyncio.sleep(2)

    with pytest.raises(ModelCallError) as err:
        run(meter(timeout_s=0.05, max_retries=0).invoke(fake(slow), PROMPT))
    assert str(err.value).endswith("TimeoutError: (no answer within 0.05 s: request_timeout_s)"), str(err.value)
    with pytest.raises(ModelCallError) as err:  # an error that reached the server: said as it is
        run(meter(max_retries=0).invoke(fake(HTTPError(400, "invalid request")), PROMPT))
    assert str(err.value).endswith("model call failed: HTTPError: invalid request"), str(err.value)


# --- timeouts ----------------------------------------------------------------------------------
def test_timeout_enforced_then_retried_then_fails():
    async def slow(messages, bound):
        await asyncio.sleep(2)
        return "too late"

    model = fake(slow)
    m = meter(timeout_s=0.05, max_retries=2)
    t0 = time.perf_counter()
    with pytest.raises(ModelCallError) as err:
        run(m.invoke(model, PROMPT))
    assert time.perf_counter() - t0 < 1.0
    assert err.value.transient is True
    assert len(model.plan.calls) == 3 and m.usage.retries == 2


def test_timeout_then_fast_answer_succeeds():
    async def slow(messages, bound):
        await asyncio.sleep(2)
        return "too late"

    model = fake(slow, "quick")
    m = meter(timeout_s=0.05, max_retries=2)
    assert run(m.invoke(model, PROMPT)).content == "quick"
    assert m.usage.retries == 1 and m.usage.calls == 1


# --- context length ------------------------------------------------------------------------------
def test_context_length_error_shortens_the_longest_message_and_retries():
    model = fake(HTTPError(400, "This model's maximum context length is 8192 tokens."), "fits now")
    long_text = "START " + "x" * 20_000 + " END"
    msgs = [SystemMessage("You are helpful."), HumanMessage("short question"), HumanMessage(long_text)]
    m = meter(max_retries=0)
    reply = run(m.invoke(model, msgs))
    assert reply.content == "fits now"
    second = model.plan.calls[1]["messages"]
    assert len(second) == 3 and second[0].content == "You are helpful." and second[1].content == "short question"
    shortened = second[2].content
    assert len(shortened) < len(long_text) * 0.6
    assert shortened.startswith("START ") and shortened.endswith(" END")
    assert "shortened to fit" in shortened
    assert m.usage.retries == 0  # shortening is not a retry of the same request


def test_context_length_error_by_code_drops_oldest_message_when_nothing_is_long():
    err = HTTPError(400, "request rejected", code="context_length_exceeded")
    assert is_context_length_error(err)
    model = fake(err, "ok")
    msgs = [SystemMessage("sys"), HumanMessage("old turn"), AIMessage("old answer"), HumanMessage("question")]
    run(meter().invoke(model, msgs))
    assert [m.content for m in model.plan.calls[1]["messages"]] == ["sys", "old answer", "question"]


def test_context_length_shortening_is_bounded():
    model = fake(HTTPError(400, "maximum context length exceeded"))
    m = meter(max_retries=5)
    with pytest.raises(ModelCallError) as err:
        run(m.invoke(model, [HumanMessage("y" * 100_000)]))
    assert err.value.transient is False
    assert len(model.plan.calls) == m.max_context_retries + 1
    sizes = [len(c["messages"][0].content) for c in model.plan.calls]
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] < sizes[0] / 4


def test_error_classification():
    assert is_transient(HTTPError(503)) and is_transient(HTTPError(429)) and is_transient(HTTPError(408))
    assert is_transient(RateLimitError()) and is_transient(TimeoutError()) and is_transient(ResponseError(500))
    assert not is_transient(HTTPError(400)) and not is_transient(HTTPError(404)) and not is_transient(KeyError("x"))
    assert is_context_length_error(Exception("Please reduce the length of the messages."))
    assert is_context_length_error(HTTPError(413, "prompt is too long"))
    assert not is_context_length_error(HTTPError(503, "maximum context length"))  # an outage, not our size
    assert not is_context_length_error(HTTPError(400, "invalid json"))


# --- usage -------------------------------------------------------------------------------------
def test_usage_accounting_counts_calls_tokens_retries_seconds_and_cost():
    model = fake(RateLimitError("slow down"), "first", "second!", model_name="gpt-4.1-mini")
    m = meter(max_retries=2)
    run(m.invoke(model, [HumanMessage("abcd")]))
    run(m.invoke(model, [HumanMessage("abcdefgh")]))
    u = m.usage
    assert u.calls == 2 and u.retries == 1
    assert u.input_tokens == 4 + 8
    assert u.output_tokens == (5 + 10) + (7 + 10)
    assert u.seconds > 0
    assert u.cost_usd == pytest.approx((12 * 0.4 + 32 * 1.6) / 1e6)
    assert u.as_dict()["calls"] == 2
    # a model without a public price has no cost estimate
    unpriced = meter()
    run(unpriced.invoke(fake("x"), PROMPT))
    assert unpriced.usage.cost_usd == 0 and unpriced.usage.input_tokens > 0


def test_merge_usage_sums_per_node():
    a = {"researcher": {"calls": 1, "input_tokens": 10, "seconds": 0.5}}
    b = {"researcher": {"calls": 2, "input_tokens": 5, "seconds": 0.25}, "supervisor": {"calls": 1}}
    merged = usage_module.merge_usage(a, b)
    assert merged == {"researcher": {"calls": 3, "input_tokens": 15, "seconds": 0.75}, "supervisor": {"calls": 1}}
    assert a["researcher"]["calls"] == 1  # inputs untouched
    assert usage_module.total_tokens({"x": {"input_tokens": 3, "output_tokens": 4}, "y": {"input_tokens": 1}}) == 8


# --- structured answers -----------------------------------------------------------------------
class Answer(BaseModel):
    title: str
    count: int


VALID = '{"title": "Heat pumps", "count": 3}'


def answer_call(**args: Any) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": "Answer", "args": args, "id": "c1", "type": "tool_call"}])


def test_structured_tool_call_answer_is_parsed():
    model = fake(answer_call(title="Heat pumps", count=3))
    got = run(meter().structured(model, Answer, PROMPT))
    assert got == Answer(title="Heat pumps", count=3)
    assert len(model.plan.calls) == 1 and model.plan.calls[0]["bound"] is True


@pytest.mark.parametrize("text", [
    VALID,
    f"```json\n{VALID}\n```",
    f"```\n{VALID}\n```",
    f"Sure, here is the answer:\n{VALID}\nLet me know if you need more.",
    f"Here you go:\n```json\n{VALID}\n```\nDone.",
], ids=["bare", "fenced json", "fenced", "prose around", "prose and fence"])
def test_structured_json_in_plain_text_is_parsed(text):
    model = fake(text)
    assert run(meter().structured(model, Answer, PROMPT)) == Answer(title="Heat pumps", count=3)
    assert len(model.plan.calls) == 1


def test_structured_prompt_method_asks_for_json_without_tools():
    model = fake(VALID)
    assert run(meter().structured(model, Answer, PROMPT, method="prompt")).count == 3
    call = model.plan.calls[0]
    assert call["bound"] is False
    instruction = call["messages"][-1].content
    assert "Reply with only one JSON object" in instruction and '"count"' in instruction


def test_structured_json_mode_requests_a_json_object():
    model = fake(VALID)
    run(meter().structured(model, Answer, PROMPT, method="json_mode"))
    assert model.plan.calls[0]["kwargs"].get("response_format") == {"type": "json_object"}


def test_structured_invalid_then_valid_after_repair_prompt():
    model = fake("The title is Heat pumps and the count is three.", VALID)
    got = run(meter().structured(model, Answer, PROMPT, method="prompt"))
    assert got.count == 3
    repair = model.plan.calls[1]["messages"]
    assert repair[-2].content.startswith("The title is Heat pumps")  # its own bad answer is shown
    assert repair[-1].content.startswith("That was not valid. Problem:")
    assert "Reply with only one JSON object" in repair[-1].content


def test_structured_invalid_tool_arguments_fall_back_to_json_text():
    model = fake(answer_call(title="Heat pumps", count="many"), VALID)
    got = run(meter().structured(model, Answer, PROMPT))
    assert got.count == 3
    assert [c["bound"] for c in model.plan.calls] == [True, False]


def test_server_rejecting_tools_falls_back_to_json_text():
    def respond(messages, bound):
        if bound:
            return HTTPError(400, "tools are not supported for this model")
        return f"```json\n{VALID}\n```"

    model = fake(respond)
    got = run(meter().structured(model, Answer, PROMPT))
    assert got.title == "Heat pumps"
    assert [c["bound"] for c in model.plan.calls] == [True, False]


def test_model_without_tool_binding_falls_back_to_json_text():
    model = fake(VALID, tools_unsupported=True)
    assert run(meter().structured(model, Answer, PROMPT)).count == 3
    assert [c["bound"] for c in model.plan.calls] == [False]


def test_tools_method_does_not_fall_back_when_tools_are_rejected():
    model = fake(HTTPError(400, "tools are not supported"), VALID)
    with pytest.raises(ModelCallError):
        run(meter().structured(model, Answer, PROMPT, method="tools"))
    assert len(model.plan.calls) == 1


def test_transient_failure_of_the_tool_call_is_not_hidden_by_the_fallback():
    model = fake(HTTPError(503, "overloaded"))
    with pytest.raises(ModelCallError) as err:
        run(meter(max_retries=1).structured(model, Answer, PROMPT))
    assert err.value.transient and not isinstance(err.value, StructuredOutputError)
    assert all(c["bound"] for c in model.plan.calls)


@pytest.mark.parametrize("method", ["auto", "prompt", "json_mode"])
def test_totally_invalid_answers_raise_structured_output_error(method):
    model = fake("I cannot answer that.")
    with pytest.raises(StructuredOutputError) as err:
        run(meter().structured(model, Answer, PROMPT, method=method))
    assert isinstance(err.value, ModelCallError) and not err.value.transient
    assert "Answer" in str(err.value)
    assert len(model.plan.calls) == (3 if method == "auto" else 2)  # bounded: one repair round


def test_empty_answers_raise_structured_output_error():
    model = fake("")
    with pytest.raises(StructuredOutputError) as err:
        run(meter().structured(model, Answer, PROMPT))
    assert "empty reply" in str(err.value)


def test_tool_calls_of_another_name_raise_structured_output_error():
    other = AIMessage(content="", tool_calls=[{"name": "Other", "args": {}, "id": "c1", "type": "tool_call"}])
    with pytest.raises(StructuredOutputError):
        run(meter().structured(fake(other), Answer, PROMPT))


# --- extract_json -------------------------------------------------------------------------------
@pytest.mark.parametrize("text, expected", [
    ('{"a": 1}', {"a": 1}),
    ('  \n{"a": 1}\n ', {"a": 1}),
    ('```json\n{"a": 1}\n```', {"a": 1}),
    ('```JSON\n{"a": 1}\n```', {"a": 1}),
    ('Result:\n```\n{"a": [1, 2]}\n```', {"a": [1, 2]}),
    ('The answer is {"a": {"b": {"c": 2}}} as requested.', {"a": {"b": {"c": 2}}}),
    ('Answer: {"a": "text with } and { inside"} end', {"a": "text with } and { inside"}),
    ('Answer: {"path": "C:\\\\temp\\\\"} end', {"path": "C:\\temp\\"}),
    ('{"a": 1} and then {"b": 2}', {"a": 1}),
    ('Here: {"unicode": "Wärmepumpe – 熱泵"}', {"unicode": "Wärmepumpe – 熱泵"}),
    ('{"a": "say \\"hi\\" there"}', {"a": 'say "hi" there'}),
], ids=["bare", "whitespace", "fenced json", "fenced JSON upper", "fenced plain", "prose nested",
        "braces in string", "escaped backslashes", "first of two", "unicode", "escaped quotes bare"])
def test_extract_json(text, expected):
    assert extract_json(text) == expected


@pytest.mark.parametrize("text", ["", "no json here", '{"a": 1', "{'a': 1}", "}{"])
def test_extract_json_without_an_object_raises_value_error(text):
    with pytest.raises(ValueError):
        extract_json(text)


def test_extract_json_escaped_quote_inside_prose():
    assert extract_json('Result: {"size": "a 5\\" pipe"} done') == {"size": 'a 5" pipe'}


def test_extract_json_brace_in_prose_before_the_object():
    assert extract_json('Filled in the {template}: {"a": 1}') == {"a": 1}


# --- missing credentials -------------------------------------------------------------------------
CRED_VARS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_API_KEY", "AZURE_OPENAI_ENDPOINT", "OPENAI_API_VERSION",
             "MY_LLM_KEY")


@pytest.fixture()
def no_credentials(monkeypatch):
    for var in CRED_VARS:
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def spec(**kw: Any) -> dict:
    return {"role": "research", "provider": "openai", "model": "gpt-4.1", "base_url": None,
            "api_key_env": None, **kw}


def test_missing_openai_key_message_names_every_way_out(no_credentials):
    msg = missing_credentials_message(spec())
    assert "OPENAI_API_KEY" in msg
    assert "--base-url" in msg and "OPENAI_BASE_URL" in msg
    assert "AZURE_OPENAI_API_KEY" in msg and "AZURE_OPENAI_ENDPOINT" in msg
    no_credentials.setenv("OPENAI_API_KEY", "sk-test")
    assert missing_credentials_message(spec()) is None


def test_local_server_needs_no_key(no_credentials):
    assert missing_credentials_message(spec(base_url="http://localhost:11434/v1")) is None


def test_missing_key_variable_is_named_with_the_role(no_credentials):
    s = spec(role="summarization", api_key_env="MY_LLM_KEY", base_url="http://vllm:8000/v1")
    msg = str(ModelSetupError(s, missing_credentials_message(s)))  # what preflight reports
    assert "MY_LLM_KEY" in msg and msg.startswith("summarization_model = openai:gpt-4.1: ")
    no_credentials.setenv("MY_LLM_KEY", "secret")
    assert missing_credentials_message(spec(api_key_env="MY_LLM_KEY")) is None


def test_azure_message_names_the_missing_variables(no_credentials):
    azure = spec(provider="azure_openai", model="my-deployment", role="final_report")
    msg = str(ModelSetupError(azure, missing_credentials_message(azure)))
    assert "AZURE_OPENAI_API_KEY" in msg and "AZURE_OPENAI_ENDPOINT" in msg
    assert msg.startswith("final_report_model = azure_openai:my-deployment: ")
    no_credentials.setenv("AZURE_OPENAI_API_KEY", "k")
    msg = missing_credentials_message(azure)
    assert "AZURE_OPENAI_ENDPOINT" in msg and "AZURE_OPENAI_API_KEY" not in msg
    no_credentials.setenv("AZURE_OPENAI_ENDPOINT", "https://example.openai.azure.com")
    msg = missing_credentials_message(azure)
    assert "OPENAI_API_VERSION" in msg and "azure_api_version" in msg
    no_credentials.setenv("OPENAI_API_VERSION", "2024-10-21")
    assert missing_credentials_message(azure) is None
    # or per role, as settings
    for var in ("AZURE_OPENAI_ENDPOINT", "OPENAI_API_VERSION"):
        no_credentials.delenv(var)
    assert missing_credentials_message({**azure, "azure_endpoint": "https://r.openai.azure.com",
                                        "azure_api_version": "2024-10-21"}) is None


def test_per_role_azure_endpoint_and_version_reach_the_client(no_credentials):
    from deep_research.research.runtime.configuration import Configuration

    no_credentials.setenv("AZURE_OPENAI_API_KEY", "k")
    cfg = Configuration.resolve(None, {"model": "azure_openai:dep", "azure_endpoint": "https://all.openai.azure.com",
                                       "azure_api_version": "2024-10-21",
                                       "final_report_azure_endpoint": "https://big.openai.azure.com"}, environ={})
    model = default_model_factory(cfg.model_spec("final_report"))
    assert model.azure_endpoint == "https://big.openai.azure.com" and model.deployment_name == "dep"
    assert model.openai_api_version == "2024-10-21"
    assert default_model_factory(cfg.model_spec("research")).azure_endpoint == "https://all.openai.azure.com"


@pytest.mark.parametrize("retries", [0, 1, 3])
def test_structured_output_retries_bound_the_re_asks(retries):
    class Garbage:
        calls = 0

        async def ainvoke(self, messages, **kwargs):
            Garbage.calls += 1
            return AIMessage("not json at all")

    class Answer(BaseModel):
        verdict: str

    meter = Meter("n", max_retries=0, backoff_s=0, structured_retries=retries)
    with pytest.raises(StructuredOutputError):
        asyncio.run(meter.structured(Garbage(), Answer, [HumanMessage("answer")], method="prompt"))
    assert Garbage.calls == retries + 1 and meter.usage.repairs == retries


# --- the token and cost caps: a call that would pass them is not made ---------------------------
class CappedModel(FakeModel):
    max_tokens: int = 400  # its output limit: a reply is estimated at a quarter of it


def test_a_call_that_would_pass_the_token_cap_is_not_made():
    from deep_research.research.runtime.meter import BudgetExceeded

    model = CappedModel(plan=Plan("fine"))
    m = meter(token_limit=50)  # the prompt (about 8) and the reply (400 // 4 = 100) do not fit
    with pytest.raises(BudgetExceeded, match="not made: .* token cap"):
        run(m.invoke(model, PROMPT))
    assert model.plan.calls == [] and m.usage.calls == 0
    assert isinstance(BudgetExceeded("x"), meter_module.ModelCallError)  # callers that cope with a failure cope


def test_calls_are_made_while_their_estimate_fits_and_the_next_is_refused():
    from deep_research.research.runtime.meter import BudgetExceeded

    model = CappedModel(plan=Plan("x" * 60))
    m = meter(token_limit=250)
    run(m.invoke(model, PROMPT))  # estimated 8 + 100: made; it used 19 + 70 tokens
    used = m.usage.input_tokens + m.usage.output_tokens
    assert m.usage.calls == 1 and used < 250
    run(m.invoke(model, PROMPT))  # now estimated from this node's replies (70): fits
    with pytest.raises(BudgetExceeded):
        run(m.invoke(model, PROMPT))  # 2 x 89 used, 8 + 70 more would pass 250
    assert m.usage.calls == 2 and m.usage.input_tokens + m.usage.output_tokens <= 250


def test_parallel_calls_of_one_node_see_each_other():
    from deep_research.research.runtime.meter import BudgetExceeded

    async def slow(messages, bound):
        await asyncio.sleep(0.05)
        return "ok"

    model = CappedModel(plan=Plan(slow))
    m = meter(token_limit=200)

    async def both():
        return await asyncio.gather(m.invoke(model, PROMPT), m.invoke(model, PROMPT), return_exceptions=True)

    results = run(both())
    assert sum(isinstance(r, BudgetExceeded) for r in results) == 1 and len(model.plan.calls) == 1


def test_no_cap_no_check():
    model = CappedModel(plan=Plan("x" * 5000))
    m = meter()
    run(m.invoke(model, PROMPT))
    assert m.usage.calls == 1


def test_an_error_body_is_said_once_not_on_every_retry(caplog, monkeypatch):
    async def no_sleep(delay, *args, **kwargs):
        return None

    monkeypatch.setattr(meter_module.asyncio, "sleep", no_sleep)
    body = "<html><body><h1>500 Internal Server Error</h1>upstream exploded</body></html>"
    model = fake(HTTPError(500, body), HTTPError(500, body), HTTPError(500, body), HTTPError(500, body))
    with caplog.at_level("WARNING"), pytest.raises(ModelCallError) as err:
        run(meter(max_retries=3).invoke(model, PROMPT))
    warnings = [r.getMessage() for r in caplog.records if "retry" in r.getMessage()]
    assert len(warnings) == 3, warnings
    assert "upstream exploded" in warnings[0]
    assert all("upstream exploded" not in w and "the same error again" in w for w in warnings[1:]), warnings
    assert "retry 3/3" in warnings[2]
    assert str(err.value).count("upstream exploded") == 1 and str(err.value).endswith("(given up after 3 retries)")
    # a different error on a later retry is said in full
    caplog.clear()
    model = fake(HTTPError(500, body), HTTPError(503, "maintenance window"), "the answer")
    with caplog.at_level("WARNING"):
        assert run(meter(max_retries=3).invoke(model, PROMPT)).content == "the answer"
    warnings = [r.getMessage() for r in caplog.records if "retry" in r.getMessage()]
    assert len(warnings) == 2 and "maintenance window" in warnings[1], warnings

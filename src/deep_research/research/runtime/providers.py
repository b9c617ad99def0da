"""Chat model construction: the providers a role's model may come from (LangChain's
init_chat_model, and the optional provider packages installed as extras), what each
needs (package, credentials), and the error that names the role and the fix."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable

from langchain_core.language_models import BaseChatModel

from ...errors import UserError

# --- construction -----------------------------------------------------------------------
ModelFactory = Callable[[dict], BaseChatModel]


class ModelSetupError(UserError):
    """A role's model cannot be built: ``<role>_model = provider:model: problem``."""

    def __init__(self, spec: dict, problem: str):
        self.setting, self.value = f"{spec['role']}_model", f"{spec['provider']}:{spec['model']}"
        self.problem = " ".join(problem.split())
        super().__init__(f"{self.setting} = {self.value}: {self.problem}")


@dataclass(frozen=True)
class ProviderPackage:
    """A model provider whose LangChain integration is an optional extra of this project."""

    module: str  # the integration module
    class_name: str  # its chat model class
    extra: str  # the project's extra that installs it (uv sync --extra NAME)
    package: str  # the PyPI package
    key_envs: tuple[str, ...] = ()  # environment variables the provider reads its key from


# provider (as in provider:model) -> its optional integration. Other providers of
# LangChain's init_chat_model still work when their package is installed by hand.
EXTRA_PROVIDERS: dict[str, ProviderPackage] = {
    "anthropic": ProviderPackage("langchain_anthropic", "ChatAnthropic", "anthropic", "langchain-anthropic",
                                 ("ANTHROPIC_API_KEY",)),
    "google_genai": ProviderPackage("langchain_google_genai", "ChatGoogleGenerativeAI", "google",
                                    "langchain-google-genai", ("GOOGLE_API_KEY", "GEMINI_API_KEY")),
    "mistralai": ProviderPackage("langchain_mistralai", "ChatMistralAI", "mistral", "langchain-mistralai",
                                 ("MISTRAL_API_KEY",)),
    "ollama": ProviderPackage("langchain_ollama", "ChatOllama", "ollama", "langchain-ollama"),
}


# Other spellings of those providers accepted in provider:model.
PROVIDER_ALIASES = {"google": "google_genai", "gemini": "google_genai", "mistral": "mistralai"}


# Providers that speak OpenAI's API (response_format, stream usage).
OPENAI_PROVIDERS = ("openai", "azure_openai")


def provider_name(provider: str) -> str:
    """The provider as LangChain names it (``google`` -> ``google_genai``)."""
    provider = (provider or "").strip().lower()
    return PROVIDER_ALIASES.get(provider, provider)


def install_hint(extra: str) -> str:
    return f"uv sync --extra {extra} (or: pip install 'deep-research[{extra}]')"


def missing_package_message(spec: dict) -> str | None:
    """Why a role's provider cannot be used for want of its package (naming the package
    and the command that installs it), or None when it is installed or not an extra."""
    import importlib.util

    provider = provider_name(spec["provider"])
    pkg = EXTRA_PROVIDERS.get(provider)
    if pkg is None:
        return None
    import sys

    if pkg.module in sys.modules:  # imported already (None: known to be missing)
        found = sys.modules[pkg.module] is not None
    else:
        try:
            found = importlib.util.find_spec(pkg.module) is not None
        except (ImportError, ValueError):
            found = False
    if found:
        return None
    return (f"the model provider {spec['provider']!r} needs the package {pkg.package}, which is not installed; "
            f"install it with: {install_hint(pkg.extra)}")


def missing_credentials_message(spec: dict) -> str | None:
    provider, base_url, key_env = spec["provider"], spec.get("base_url"), spec.get("api_key_env")
    if key_env and not os.environ.get(key_env):
        return (f"needs an API key in the environment variable {key_env} (named by model_api_key_env or "
                "<role>_model_api_key_env), which is not set")
    pkg = EXTRA_PROVIDERS.get(provider_name(provider))
    if pkg is not None and pkg.key_envs and not key_env and not any(os.environ.get(v) for v in pkg.key_envs):
        return (f"no credentials for provider {provider!r}: set {' or '.join(pkg.key_envs)} (in the environment or "
                "a .env file), or name another variable with model_api_key_env")
    if provider == "openai" and not base_url and not key_env and not os.environ.get("OPENAI_API_KEY"):
        return ("no model credentials: set OPENAI_API_KEY (in the environment or a .env file), or point the "
                "models at an OpenAI-compatible server with the model_base_url setting (CLI --base-url, env "
                "OPENAI_BASE_URL; e.g. http://localhost:11434/v1 for Ollama), or use Azure with model = "
                "azure_openai:DEPLOYMENT and AZURE_OPENAI_API_KEY/AZURE_OPENAI_ENDPOINT")
    if provider == "azure_openai":
        missing = [v for v in ("AZURE_OPENAI_API_KEY",) if not key_env and not os.environ.get(v)]
        if not spec.get("azure_endpoint") and not os.environ.get("AZURE_OPENAI_ENDPOINT"):
            missing.append("AZURE_OPENAI_ENDPOINT (or the azure_endpoint setting)")
        if not spec.get("azure_api_version") and not os.environ.get("OPENAI_API_VERSION"):
            missing.append("OPENAI_API_VERSION (or the azure_api_version setting)")
        if missing:
            return f"uses Azure OpenAI but {' and '.join(missing)} is not set"
    return None


def default_model_factory(spec: dict) -> BaseChatModel:
    """Build a LangChain chat model for one role from its spec (see Configuration.model_spec)."""
    from langchain.chat_models import init_chat_model

    problem = missing_package_message(spec) or missing_credentials_message(spec)
    if problem:
        raise ModelSetupError(spec, problem)
    if provider_name(spec["provider"]) in EXTRA_PROVIDERS:
        return _extra_provider_model(spec)
    kwargs: dict[str, Any] = {"timeout": spec["timeout"], "max_retries": 0, "max_tokens": spec["max_tokens"]}
    if spec.get("base_url"):
        kwargs["base_url"] = spec["base_url"]
    if spec.get("api_key_env"):
        kwargs["api_key"] = os.environ[spec["api_key_env"]]
    elif spec.get("base_url") and spec["provider"] == "openai" and not os.environ.get("OPENAI_API_KEY"):
        kwargs["api_key"] = "not-needed"  # local servers accept any key
    if spec["provider"] == "azure_openai":
        kwargs["azure_deployment"] = spec["model"]
        if spec.get("azure_endpoint"):
            kwargs["azure_endpoint"] = spec["azure_endpoint"]
        if spec.get("azure_api_version"):
            kwargs["api_version"] = spec["azure_api_version"]
    if spec["provider"] in ("openai", "azure_openai"):
        # Under LangGraph's "messages" stream mode (Studio) every call streams; without this
        # a custom base URL or Azure gets no usage in streamed replies, and budgets count 0.
        kwargs["stream_usage"] = True
    try:
        return init_chat_model(spec["model"], model_provider=spec["provider"], **kwargs)
    except ImportError as e:
        raise ModelSetupError(spec, f"model provider {spec['provider']!r} needs a package that is not "
                                    f"installed: {e}") from None
    except ValueError as e:
        raise ModelSetupError(spec, f"cannot use this model: {e}") from None


def provider_kwargs(spec: dict) -> dict[str, Any]:
    """Constructor arguments of an optional provider's chat model class, from the role's
    spec: the same limits as OpenAI's (output tokens, timeout, no client retries: the Meter
    retries), under each class's own names (their classes ignore unknown names silently)."""
    provider = provider_name(spec["provider"])
    key = os.environ[spec["api_key_env"]] if spec.get("api_key_env") else None
    if provider == "ollama":
        kwargs: dict[str, Any] = {"model": spec["model"], "num_predict": spec["max_tokens"],
                                  "client_kwargs": {"timeout": spec["timeout"]}}
        if key:
            kwargs["client_kwargs"]["headers"] = {"Authorization": f"Bearer {key}"}
    else:
        kwargs = {"model": spec["model"], "max_tokens": spec["max_tokens"], "timeout": spec["timeout"],
                  "max_retries": 0}
        if key:
            kwargs["api_key"] = key
        if provider == "anthropic":
            kwargs["stream_usage"] = True  # usage in streamed replies too (budgets count them)
    if spec.get("base_url"):
        kwargs["base_url"] = spec["base_url"]
    return kwargs


def _extra_provider_model(spec: dict) -> BaseChatModel:
    import importlib

    pkg = EXTRA_PROVIDERS[provider_name(spec["provider"])]
    try:
        cls = getattr(importlib.import_module(pkg.module), pkg.class_name)
    except (ImportError, AttributeError) as e:
        raise ModelSetupError(spec, f"the package {pkg.package} of model provider {spec['provider']!r} cannot be "
                                    f"loaded ({e}); reinstall it with: {install_hint(pkg.extra)}") from None
    try:
        return cls(**provider_kwargs(spec))
    except (ValueError, TypeError) as e:  # pydantic's ValidationError is a ValueError
        raise ModelSetupError(spec, f"cannot use this model: {e}") from None


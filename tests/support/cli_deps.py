"""Deps for the CLI in tests (DEEP_RESEARCH_DEPS=tests.support.cli_deps:deps): the scripted
model and the corpus from --corpus.

Each answered model call is appended to DR_CALL_LOG as ``role<TAB>unit<TAB>rule`` (unit: the
research unit it belongs to, "-" for the rest of the run), so a test can count calls across
processes. DR_MODEL_DELAY adds latency to every call and DR_SLOW_DELAY more to the calls of
the unit DR_SLOW_UNIT, so a run can be killed while one unit is done and another is not."""

import os
import time

from deep_research.research.runtime.deps import Deps, default_search_factory

from .scenario import TOPIC_COSTS, TOPIC_EFFICIENCY, full_script
from .scripted import Script, prompt_text, scripted_factory

# The research units of the scenario's first supervisor round, with each one's search query.
UNITS = {"efficiency": (TOPIC_EFFICIENCY, "heat pump coefficient of performance cold"),
         "costs": (TOPIC_COSTS, "heat pump installation cost euros")}


def unit_of(role: str, text: str) -> str:
    """Which research unit a model call belongs to ("-" for the rest of the run)."""
    for name, (topic, query) in UNITS.items():
        if role == "research" and f"Research this topic: {topic}" in text:
            return name
        if role == "compression" and topic in text:
            return name
        if role == "summarization" and f"working on: {query}" in text:
            return name
    return "-"


class LoggedScript(Script):
    def respond(self, role, messages):
        unit = unit_of(role, prompt_text(messages))
        delay = float(os.environ.get("DR_MODEL_DELAY") or 0)
        if unit == os.environ.get("DR_SLOW_UNIT"):
            delay += float(os.environ.get("DR_SLOW_DELAY") or 0)
        if delay:
            time.sleep(delay)
        msg = super().respond(role, messages)
        log = os.environ.get("DR_CALL_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as f:
                f.write(f"{role}\t{unit}\t{self.log[-1][1]}\n")
        return msg


def deps() -> Deps:
    logged = LoggedScript()
    logged.rules = full_script().rules
    return Deps(model_factory=scripted_factory(logged), search_factory=default_search_factory)

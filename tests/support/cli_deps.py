"""Deps for the CLI in tests (DEEP_RESEARCH_DEPS=tests.support.cli_deps:deps): the scripted
model and the corpus from --corpus. Model calls are appended to DR_CALL_LOG so a test can
count them across processes, and DR_MODEL_DELAY adds latency so a run can be killed midway."""

import os
import time

from deep_research.research.common import Deps, default_search_factory

from .scenario import full_script
from .scripted import Script, scripted_factory


class LoggedScript(Script):
    def respond(self, role, messages):
        delay = float(os.environ.get("DR_MODEL_DELAY", "0") or 0)
        if delay:
            time.sleep(delay)
        msg = super().respond(role, messages)
        log = os.environ.get("DR_CALL_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as f:
                f.write(f"{role}\t{self.log[-1][1]}\n")
        return msg


def deps() -> Deps:
    script = full_script()
    logged = LoggedScript()
    logged.rules = script.rules
    return Deps(model_factory=scripted_factory(logged), search_factory=default_search_factory)

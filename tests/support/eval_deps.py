"""Deps for ``deep-research eval`` in tests (DEEP_RESEARCH_DEPS=tests.support.eval_deps:deps):
the behaviour scenario's scripted model for every role, the judge included. DR_INVENT=1
makes the report writer invent a citation. DR_KILL_AFTER_REPORTS=N kills
the process when the report writer is called after N reports (to test resuming)."""

import os
import signal

from deep_research.research.runtime.deps import Deps, default_search_factory

from .eval_scenario import behaviour_script
from .scripted import Script, prompt_text, scripted_factory


class EvalScript(Script):
    reports = 0

    def respond(self, role, messages):
        text = prompt_text(messages)
        kill_after = int(os.environ.get("DR_KILL_AFTER_REPORTS") or 0)
        if role == "final_report" and "Write the final research report" in text:
            if kill_after and EvalScript.reports >= kill_after:
                os.kill(os.getpid(), signal.SIGKILL)
            EvalScript.reports += 1
        return super().respond(role, messages)


def deps() -> Deps:
    s = EvalScript()
    s.rules = behaviour_script(invent=os.environ.get("DR_INVENT") == "1").rules
    return Deps(model_factory=scripted_factory(s), search_factory=default_search_factory)

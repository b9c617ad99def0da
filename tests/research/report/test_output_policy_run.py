"""A research run whose model writes raw HTML, an image and unsafe links into its report:
audit.json and the terminal count what the output policy changed (check_citations makes the
state's report inert before publish reads it, so publish alone counted nothing) and every
output shows the markup as text."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from langchain_core.messages import BaseMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from deep_research.research.graph import make_graph
from deep_research.research.runtime.deps import Deps
from deep_research.search.local import LocalCorpus, build_index
from tests.research.test_graph import context, drive, start
from tests.support.scenario import full_script, write_corpus
from tests.support.scripted import prompt_text, scripted_factory

NESTED = "\n".join("  " * i + "- level" for i in range(40))


def hostile_report(messages: list[BaseMessage]) -> str:
    refs = re.findall(r'<ref id="([^"]+)">"(.*?)"</ref>', prompt_text(messages))
    sid, quote = refs[0]
    return (f"# Heat pumps\n\n## Findings\n\nThe source says: {quote} <ref id=\"{sid}\">\"{quote}\"</ref>\n\n"
            "Markup <script>alert(1)</script> and <img src=http://169.254.169.254/x.png>, an image "
            "![pixel](http://169.254.169.254/p.png) and a link [run](javascript:alert(1)).\n\n"
            f"{NESTED}\n")


def test_a_run_reports_what_the_output_policy_changed_in_the_models_report(tmp_path: Path, capsys):
    corpus = write_corpus(tmp_path / "corpus")
    build_index(corpus)
    s = full_script(wrong_quote=False)
    s.rules = [r for r in s.rules if r["contains"] != "Write the final research report"]
    s.on("final_report", "Write the final research report", hostile_report, repeat=True)
    deps = Deps(model_factory=scripted_factory(s), search_factory=lambda cfg: LocalCorpus.open(corpus))
    graph = make_graph(deps, checkpointer=InMemorySaver(), store=InMemoryStore())
    values = asyncio.run(drive(graph, start(), context(tmp_path), thread="policy")).values
    assert values["status"] == "completed", values.get("errors")
    policy = json.loads(Path(values["outputs"]["audit"]).read_text())["output_policy"]
    assert policy["html_escaped"] >= 3  # <script>, </script>, <img>
    assert policy["images_unlinked"] == 1
    assert policy["links_defused"] == 1
    assert [d["reason"] for d in policy["degraded"]] and "nested" in policy["degraded"][0]["reason"]
    assert any("nested" in d.get("message", "") for d in values.get("degradations") or [])
    md = Path(values["outputs"]["markdown"]).read_text()
    assert "<script>" not in md and "![pixel]" not in md and "](javascript:" not in md
    from deep_research.cli.research import _print_result

    capsys.readouterr()
    _print_result(values, "policy")  # the terminal says so too, as `deep-research publish` does
    said = " ".join((capsys.readouterr().err).split())
    assert "the report's markup was made inert: 3 HTML tag(s) shown as text, 1 image(s)" in said

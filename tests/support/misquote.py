"""A research scenario over real pages (the Python 3.11 documentation, Debian's
python3.11-doc) with a scripted model whose compression misquotes: it cites the label of
each finding instead of the page's sentence, so the citation check removes every citation
it wrote. The pages hold the answer, so the run must still publish a cited report (issue
24), never the "the sources hold no information" text.

``misquote_script(headings=..., retry=...)``: with ``headings`` the findings sit under
markdown headings (what survives the check is headings only); ``retry`` is what the
compression answers when asked again with the failures named: "misquote" again, or "fix"
(cite the exact sentences). The CLI and `langgraph dev` runs serve the script over HTTP
(tests/support/openai_server.py), so the product runs as it does with a real model server.

The pages in tests/data/pydoc are a few unchanged pages of that package; the benchmark
script runs the same scenario over the whole documentation."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from langchain_core.messages import BaseMessage, ToolMessage

from .scenario import fix_citation, judge_claims, unchanged_report
from .scripted import Script, calls, prompt_text, structured, tool_call

ROOT = Path(__file__).resolve().parents[2]
PYDOC_PAGES = ROOT / "tests" / "data" / "pydoc"
QUESTION = "How does asyncio.gather handle an exception raised by one of the awaitables?"
BRIEF = ("I want to know how asyncio.gather in Python 3.11 handles an exception raised by one of the awaitables "
         "it runs, with and without return_exceptions. Report in English.")
TOPIC = "How asyncio.gather propagates an exception raised by one awaitable, and what return_exceptions changes"
QUERY = "asyncio gather exception awaitables"
LABEL = "Exception handling in asyncio.gather"  # what the misquoting compression puts in its quotes
RETRY_MARK = "none of their citations can be kept"  # in the prompt that asks compression again
NO_EVIDENCE_TEXT = ("# asyncio.gather\n\nThe sources searched hold no information that answers the question.\n\n"
                    "## Limitations\n\n- Nothing was found.\n")


def copy_pages(folder: Path) -> Path:
    """The committed documentation pages, copied to a folder of the test's own (the local
    index is written next to the documents)."""
    shutil.copytree(PYDOC_PAGES, folder, ignore=shutil.ignore_patterns("README*"))
    return folder


def _sources(text: str) -> list[tuple[str, str, str]]:
    """(source id, claim, sentence) of the exact sentences listed in the prompt's source blocks."""
    out = []
    for block in re.finditer(r'<source id="([^"]+)"[^>]*>(.*?)</source>', text, re.DOTALL):
        for m in re.finditer(r'^- (?:(.*?): )?"(.*)"$', block.group(2), re.MULTILINE):
            out.append((block.group(1), m.group(1) or "", m.group(2)))
    return out


def summarise_page(messages: list[BaseMessage]):
    """The page's sentences about gather or exceptions, copied exactly, each under a label."""
    text = prompt_text(messages)
    page = re.search(r"<page [^>]*>\n(.*?)\n</page>", text, re.DOTALL)
    lines = [ln.strip() for ln in (page.group(1) if page else "").split("\n")]
    picked = [ln for ln in lines if 40 <= len(ln) <= 400 and "[…]" not in ln and "gather" in ln
              and "exception" in ln.lower()][:4]
    return structured("PageSummary", summary="Part of the asyncio documentation.",
                      excerpts=[{"claim": LABEL, "sentence": s} for s in picked])


def _claim_from(sentence: str) -> str:
    text = sentence.rstrip(" .")
    return "the documentation says that " + text[:1].lower() + text[1:]


def compress(*, headings: bool, retry: str):
    """Findings that quote each finding's label instead of its sentence; asked again (the
    prompt names the failures), the same again (``retry="misquote"``) or exact quotes ("fix")."""

    def answer(messages: list[BaseMessage]) -> str:
        text = prompt_text(messages)
        found = _sources(text)
        if RETRY_MARK in text and retry == "fix":
            lines = [f'- {_claim_from(s)} <ref id="{sid}">"{s}"</ref>' for sid, _, s in found]
        else:
            lines = [f'- {claim or LABEL} <ref id="{sid}">"{claim or LABEL}"</ref>' for sid, claim, _ in found]
        body = "\n".join(lines) or f"- {LABEL}"
        return f"## Findings\n\n### asyncio.gather and exceptions\n\n{body}\n" if headings else body

    return answer


def researcher(messages: list[BaseMessage]):
    if any(isinstance(m, ToolMessage) for m in messages):
        return "The asyncio documentation covers this."
    return calls(tool_call("search", query=QUERY))


def final_report(messages: list[BaseMessage]) -> str:
    """A report citing each distinct quote of the findings, its claim restating the quote."""
    text = prompt_text(messages)
    findings = re.search(r"<findings>\n(.*?)\n</findings>", text, re.DOTALL)
    refs = list(dict.fromkeys(re.findall(r'<ref id="([^"]+)">"(.*?)"</ref>', findings.group(1) if findings else "")))
    body = [f'{_claim_from(q)[:1].upper()}{_claim_from(q)[1:]} <ref id="{sid}">"{q}"</ref>.' for sid, q in refs]
    return ("# How asyncio.gather handles an exception\n\n## Findings\n\n" + "\n\n".join(body)
            + "\n\n## Conclusion\n\nThe behaviour depends on return_exceptions.\n\n## Sources\n\n- (list)\n")


def misquote_script(*, headings: bool = True, retry: str = "misquote") -> Script:
    """Every rule answers any number of calls, so one script serves many runs."""
    s = Script()
    s.on("research", "You decide whether a research request is clear",
         structured("ClarifyWithUser", need_clarification=False, question="",
                    verification="I will research how asyncio.gather handles exceptions."), repeat=True)
    s.on("research", "Turn the conversation into a research brief",
         structured("ResearchQuestion", research_brief=BRIEF), repeat=True)
    s.on("final_report", "Write a first draft", "# asyncio.gather\n\nExceptions propagate [to verify].", repeat=True)
    s.on("summarization", "Classify how much research this question needs",
         structured("ClassifyQuestion", complexity="focused", reason="One function, two behaviours."), repeat=True)
    s.on("research", "Round 1 of", calls(tool_call("ConductResearch", topic=TOPIC)), repeat=True)
    s.on("research", "Round 2 of", calls(tool_call("ResearchComplete")), repeat=True)
    s.on("research", "Research this topic: ", researcher, repeat=True)
    s.on("summarization", "Summarise this page for a researcher", summarise_page, repeat=True)
    s.on("compression", "You condense a researcher's work", compress(headings=headings, retry=retry), repeat=True)
    s.on("final_report", "The research found no source that answers this question", NO_EVIDENCE_TEXT, repeat=True)
    s.on("final_report", "Write the final research report", final_report, repeat=True)
    s.on("final_report", "does not keep to its format", unchanged_report, repeat=True)
    s.on("citation_check", "A citation in a research report failed the check", fix_citation, repeat=True)
    s.on("citation_check", "You check a research report's claims", judge_claims(), repeat=True)
    return s


# --- driving the product as a user does (CLI, chat client on `langgraph dev`) -----------
ROLES = ("research", "summarization", "compression", "final_report", "citation_check")
KEY = "sk-misquote-test"
SCRUBBED = ("OPENAI_API_KEY", "TAVILY_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_API_KEY", "AZURE_OPENAI_ENDPOINT",
            "DEEP_RESEARCH_DEPS")


def product_env(models_url: str, corpus: Path, out: Path) -> dict[str, str]:
    """The environment of a user whose models are an OpenAI-compatible server (one model name
    per role, so the scripted server knows the role) and whose search is a local corpus."""
    env = {f"DEEP_RESEARCH_{role.upper()}_MODEL": f"openai:{role}" for role in ROLES}
    env.update(OPENAI_BASE_URL=models_url, OPENAI_API_KEY=KEY, DEEP_RESEARCH_SEARCH_API="local",
               DEEP_RESEARCH_CORPUS_PATH=str(corpus), DEEP_RESEARCH_OUTPUT_DIR=str(out),
               DEEP_RESEARCH_WRITE_PDF="false")
    return env


def run_cli(out: Path, env: dict[str, str], timeout: float = 600):
    """`deep-research research QUESTION --yes` in a fresh process (its own SQLite file)."""
    import os
    import subprocess
    import sys

    full = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    full.update(PYTHONPATH=str(ROOT), **env)
    return subprocess.run([sys.executable, "-m", "deep_research.cli", "research", QUESTION, "--yes", "--no-pdf",
                           "--out", str(out), "--db", str(out / "state.sqlite")], capture_output=True, text=True,
                          cwd=ROOT, env=full, timeout=timeout, stdin=subprocess.DEVNULL, check=False)


async def chat_run(client) -> dict:
    """One question in a fresh thread, as a chat client sends it (the messages only) and
    streams it (``messages`` and ``updates``): {values, nodes, streamed, error}."""
    thread = (await client.threads.create())["thread_id"]
    nodes, streamed, error = [], [], None
    async for part in client.runs.stream(thread, "deep_research",
                                         input={"messages": [{"role": "user", "content": QUESTION}]},
                                         stream_mode=["messages", "updates"]):
        if part.event == "error":
            error = part.data
        elif part.event.split("|")[0] == "updates" and isinstance(part.data, dict):
            nodes.extend(part.data)
        elif part.event.split("|")[0].startswith("messages") and isinstance(part.data, list):
            for item in part.data:  # messages/partial and messages/complete: lists of messages
                if isinstance(item, dict) and isinstance(item.get("content"), str):
                    streamed.append(item["content"])
    state = await client.threads.get_state(thread)
    return {"values": state["values"], "nodes": nodes, "streamed": streamed, "error": error}


def cited_report(folder: Path) -> str | None:
    """None when ``folder`` holds a published report with verified citations and without the
    no-evidence text; else what is wrong."""
    import json

    report, citations = folder / "report.md", folder / "citations.json"
    if not report.is_file() or not citations.is_file():
        return f"no published report in {folder}"
    text = report.read_text(encoding="utf-8")
    if "hold no information" in text:
        return "the report says the sources hold no information"
    cites = json.loads(citations.read_text(encoding="utf-8"))
    verified = [c for c in cites if c.get("status") in ("verified", "repaired")]
    if not verified:
        return f"no verified citation ({len(cites)} in citations.json)"
    return None

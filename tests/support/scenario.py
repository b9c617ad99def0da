"""A complete offline research scenario: a small corpus of pages written for the tests and
a script for every model role. Used by the end-to-end, dev-server and fault tests and by
the benchmarks."""

from __future__ import annotations

import re
from pathlib import Path

from langchain_core.messages import BaseMessage

from .scripted import Script, calls, prompt_text, structured, tool_call

PAGES = {
    "heat-pump-basics.html": ("How heat pumps work", [
        "A heat pump moves heat from a cold place to a warm place instead of generating heat by burning fuel.",
        "The refrigerant absorbs heat outdoors as it evaporates and releases it indoors as it condenses.",
        "A typical air-source heat pump delivers between 2.5 and 4 units of heat for every unit of electricity it uses.",
        "This ratio is called the coefficient of performance, and it falls as the outdoor temperature drops.",
    ]),
    "cold-climates.html": ("Heat pumps in cold climates", [
        "Modern cold-climate heat pumps keep heating at outdoor temperatures as low as -25 °C.",
        "Below about -15 °C their output falls, so installers size them for the coldest expected week.",
        "In Norway, more than 60 percent of detached houses had a heat pump by 2020.",
        "A backup resistance heater is often fitted for the few coldest days of the year.",
    ]),
    "costs.html": ("Costs and savings", [
        "Installing an air-source heat pump in a detached house typically costs between 8,000 and 15,000 euros.",
        "Running costs depend mostly on the price of electricity relative to gas.",
        "Where electricity costs less than three times as much as gas per kilowatt-hour, a heat pump is usually cheaper to run.",
        "Many countries offer grants that cover part of the installation cost.",
    ]),
}

QUESTION = "How well do heat pumps work in cold climates, and what do they cost?"
BRIEF = ("I want to know how well heat pumps work in cold climates and what they cost to install and run. "
         "Report in English.")
TOPIC_EFFICIENCY = "Heat pump efficiency (coefficient of performance) and how it changes in cold weather"
TOPIC_COSTS = "Installation and running costs of air-source heat pumps in Europe"


def write_corpus(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, (title, sentences) in PAGES.items():
        paras = "\n".join(f"<p>{s}</p>" for s in sentences)
        folder.joinpath(name).write_text(
            f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head>"
            f"<body><nav><a href='index.html'>Home</a></nav><h1>{title}</h1>\n{paras}\n"
            "<footer><p>Written for the deep-research test suite.</p></footer></body></html>",
            encoding="utf-8")
    return folder


# --- responses that depend on what the search returned ------------------------------------
def summarise_page(messages: list[BaseMessage]):
    """Claims with sentences copied from the page text in the prompt (plus, on request,
    one sentence that is not on the page, which the code must drop)."""
    text = prompt_text(messages)
    page = re.search(r"<page [^>]*>\n(.*?)\n</page>", text, re.S)
    body = page.group(1) if page else ""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+|\n", body) if len(s) > 40 and "test suite" not in s]
    excerpts = [{"claim": s[:60], "sentence": s} for s in sentences[:3]]
    excerpts.append({"claim": "invented", "sentence": "Heat pumps were invented on the Moon in 1066."})
    return structured("PageSummary", summary=f"A page about {sentences[0][:60] if sentences else 'nothing'}.",
                      excerpts=excerpts)


def _claim_from(sentence: str) -> str:
    """The claim a careful writer makes of a sentence: its words, lightly reframed."""
    text = sentence.rstrip(" .")
    return "the source says that " + text[:1].lower() + text[1:]


def compress(messages: list[BaseMessage]) -> str:
    """Findings citing each exact sentence listed in the researcher's source blocks."""
    text = prompt_text(messages)
    lines = []
    for block in re.finditer(r'<source id="([^"]+)"[^>]*>(.*?)</source>', text, re.S):
        sid = block.group(1)
        for m in re.finditer(r'^- (?:.*?): "(.*)"$', block.group(2), re.M):
            lines.append(f'- {_claim_from(m.group(1))} <ref id="{sid}">"{m.group(1)}"</ref>')
    return "\n".join(lines) or "- nothing found"


def final_report(wrong_quote: bool = True):
    """A report citing every finding; with wrong_quote, one quote has a changed number."""

    def write(messages: list[BaseMessage]) -> str:
        text = prompt_text(messages)
        findings = re.search(r"<findings>\n(.*?)\n</findings>", text, re.S)
        refs = re.findall(r'<ref id="([^"]+)">"(.*?)"</ref>', findings.group(1) if findings else "")
        seen, body = set(), []
        for sid, quote in refs:
            if quote in seen:
                continue
            seen.add(quote)
            if wrong_quote and "2.5 and 4" in quote:
                quote = quote.replace("2.5 and 4", "3.5 and 5")  # the deliberate error
            body.append(f'Evidence: {_claim_from(quote)} <ref id="{sid}">"{quote}"</ref>.')
        return ("# Heat pumps in cold climates\n\n## Findings\n\n" + "\n\n".join(body)
                + "\n\n| Topic | Note |\n|---|---|\n| Efficiency | falls in the cold |\n\n"
                "## Conclusion\n\nHeat pumps work in cold climates when sized correctly.\n\n## Sources\n\n- (model list)\n")

    return write


def unchanged_report(messages: list[BaseMessage]) -> str:
    """A writer asked to revise a report's format or length that hands it back as it was."""
    m = re.search(r"<draft>\n(.*?)\n</draft>", prompt_text(messages), re.S)
    return m.group(1) if m else ""


def fix_citation(messages: list[BaseMessage]):
    """Replace the quote with the closest passage and restate the claim to match it."""
    text = prompt_text(messages)
    m = re.search(r"<page>\n- (.*?)\n", text)
    quote = m.group(1) if m else ""
    return structured("FixCitation", action="replace", quote=quote, source_id="",
                      claim=f"Evidence: {_claim_from(quote)}" if quote else "", softened_text="")


def judge_items(messages: list[BaseMessage]) -> list[tuple[int, str, list[str]]]:
    """(number, claim, quotes) of each item of a claim-judge prompt."""
    out = []
    for m in re.finditer(r"^(\d+)\. Claim: (.*)\n((?:   Quote \d+: .*\n?)*)", prompt_text(messages), re.M):
        quotes = re.findall(r"^   Quote \d+: (.*)$", m.group(3), re.M)
        out.append((int(m.group(1)), m.group(2), quotes))
    return out


def judge_claims(verdict: str = "supports"):
    """A judge that gives every item the same verdict, citing each whole quote as the span
    of one fact (the claim): evidence code checks like any other, so its "supports" turns a
    claim green only where that evidence shows the claim."""

    def judge(messages: list[BaseMessage]):
        return structured("ClaimVerdicts", verdicts=[
            {"item": n, "verdict": verdict, "reason": "scripted judge",
             "facts": [{"fact": claim, "spans": quotes, "aligned": []}] if verdict != "abstain" else []}
            for n, claim, quotes in judge_items(messages)])

    return judge


def researcher_step(query: str, done: str):
    """Search once, then stop: decided from the conversation, so parallel and concurrent
    runs cannot disturb each other's order."""

    def step(messages: list[BaseMessage]):
        from langchain_core.messages import ToolMessage

        if any(isinstance(m, ToolMessage) for m in messages):
            return done
        return calls(tool_call("search", query=query))

    return step


def full_script(*, wrong_quote: bool = True, clarify: bool = True) -> Script:
    """Every rule answers any number of calls, so one script serves many runs."""
    s = Script()
    if clarify:
        s.on("research", "You decide whether a research request is clear",
             structured("ClarifyWithUser", need_clarification=False, question="",
                        verification="I will research heat pumps in cold climates and their costs."),
             repeat=True)
    s.on("research", "Turn the conversation into a research brief",
         structured("ResearchQuestion", research_brief=BRIEF), repeat=True)
    s.on("research", "A human reviewer rejected",
         structured("ResearchQuestion", research_brief="I want to know how heat pump efficiency changes in "
                    "cold climates and what installation and running costs are in Europe. Report in English."),
         repeat=True)
    s.on("final_report", "Write a first draft",
         "# Heat pumps\n\nHeat pumps are efficient [to verify]. Costs vary [to verify].", repeat=True)
    s.on("research", "Round 1 of",
         calls(tool_call("think_tool", reflection="Two gaps: efficiency in the cold, and costs."),
               tool_call("ConductResearch", topic=TOPIC_EFFICIENCY),
               tool_call("ConductResearch", topic=TOPIC_COSTS)), repeat=True)
    s.on("research", f"Research this topic: {TOPIC_EFFICIENCY}",
         researcher_step("heat pump coefficient of performance cold", "I have enough evidence on efficiency."),
         repeat=True)
    s.on("research", f"Research this topic: {TOPIC_COSTS}",
         researcher_step("heat pump installation cost euros", "I have enough evidence on costs."), repeat=True)
    s.on("summarization", "Summarise this page for a researcher", summarise_page, repeat=True)
    s.on("compression", "You condense a researcher's work", compress, repeat=True)
    # complexity routing (research_mode auto): this question is broad, so today's multi path
    s.on("summarization", "Classify how much research this question needs",
         structured("ClassifyQuestion", complexity="broad", reason="Efficiency in the cold and costs."),
         repeat=True)
    # the single path (research_mode single): one researcher with the brief as its topic
    s.on("research", f"Research this topic: {BRIEF}",
         researcher_step("heat pump cold climate installation cost", "I have enough evidence."), repeat=True)
    # the brief council (brief_council_models): each member approves
    for i in range(1, 4):
        s.on(f"brief_council_{i}", "You are one member of a council that reviews a research brief",
             structured("CouncilReview", verdict="approve", reasons=[]), repeat=True)
    s.on("research", "Round 2 of", calls(tool_call("refine_draft_report"), tool_call("ResearchComplete")),
         repeat=True)
    s.on("final_report", "Rewrite the draft report with the new research findings",
         "# Heat pumps\n\nHeat pumps deliver 2.5 to 4 units of heat per unit of electricity.", repeat=True)
    s.on("final_report", "Write the final research report", final_report(wrong_quote), repeat=True)
    s.on("final_report", "does not keep to its format", unchanged_report, repeat=True)
    s.on("citation_check", "A citation in a research report failed the check", fix_citation, repeat=True)
    s.on("citation_check", "You check a research report's claims", judge_claims(), repeat=True)
    return s

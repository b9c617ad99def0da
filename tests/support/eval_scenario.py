"""A scripted model for the shipped behaviour question set (examples/eval/behaviour.jsonl
over examples/eval/corpus): it asks a clarifying question only for the ambiguous request,
follows a rejected brief's feedback, writes French for a French question, says so when the
corpus has nothing, and reports both sides of a disagreement. Also a scripted report judge.

Decisions are taken from the prompt (never from call order), so questions can run in
parallel. ``invent=True`` makes the writer cite a sentence that is on no page, which the
behaviour checks must catch."""

from __future__ import annotations

import re
from pathlib import Path

from langchain_core.messages import BaseMessage

from deep_research.evaluation.behaviour import detect_language
from deep_research.evaluation.rubric import CRITERIA

from .scenario import compress, summarise_page
from .scripted import Script, calls, prompt_text, structured, tool_call

ROOT = Path(__file__).resolve().parents[2]
BEHAVIOUR = ROOT / "examples" / "eval" / "behaviour.jsonl"
CORPUS = ROOT / "examples" / "eval" / "corpus"
AMBIGUOUS = "Tell me about cooling."


def _users(text: str) -> list[str]:
    return re.findall(r"^User: (.*)$", text, re.M)


def clarify(messages: list[BaseMessage]):
    users = _users(prompt_text(messages))
    if users == [AMBIGUOUS]:
        return structured("ClarifyWithUser", need_clarification=True, verification="",
                          question="Which cooling do you mean: of buildings, of engines, or of city streets by trees?")
    return structured("ClarifyWithUser", need_clarification=False, question="", verification="I will research it.")


def brief(messages: list[BaseMessage]):
    users = _users(prompt_text(messages))
    focus = " ".join(users[1:] if users and users[0] == AMBIGUOUS else users)
    lang = "French" if detect_language(focus + " le la les des et") == "fr" and "coût" in focus else "English"
    return structured("ResearchQuestion", research_brief=f"I want to know: {focus} Report in {lang}.")


def revise(messages: list[BaseMessage]):
    text = prompt_text(messages)
    old = re.search(r"<draft>\n(.*?)\n</draft>", text, re.S).group(1)
    feedback = re.search(r"Reviewer feedback: (.*)", text).group(1)
    return structured("ResearchQuestion", research_brief=f"{old} {feedback}")


TOPICS = {  # a word of the brief -> (topic, search query)
    "nitrogen": ("Boiling point of liquid nitrogen on Mars", "liquid nitrogen boiling point Mars"),
    "coût": ("Coût de plantation et d'entretien d'un arbre d'alignement", "arbre alignement"),
    "costs": ("What planting and caring for a street tree costs", "street tree costs euros"),
    "cool": ("How much street trees cool city streets in summer", "street trees summer air temperatures"),
    "degrees": ("How much street trees cool city streets in summer", "street trees summer air temperatures"),
}


def supervisor(messages: list[BaseMessage]):
    text = prompt_text(messages)
    b = re.search(r"<brief>\n(.*?)\n</brief>", text, re.S).group(1).lower()
    topics = list(dict.fromkeys(t for word, (t, _) in TOPICS.items() if word in b))
    return calls(*(tool_call("ConductResearch", topic=t) for t in topics[:3]))


def researcher(messages: list[BaseMessage]):
    from langchain_core.messages import ToolMessage

    if any(isinstance(m, ToolMessage) for m in messages):
        return "I have what the corpus holds on this."
    text = prompt_text(messages)
    topic = re.search(r"Research this topic: (.*)", text).group(1)
    query = next(q for t, q in TOPICS.values() if t in topic)
    return calls(tool_call("search", query=query))


def final_report(invent: bool = False):
    def write(messages: list[BaseMessage]) -> str:
        text = prompt_text(messages)
        findings = re.search(r"<findings>\n(.*?)\n</findings>", text, re.S)
        refs = list(dict.fromkeys(re.findall(r'<ref id="([^"]+)">"(.*?)"</ref>',
                                             findings.group(1) if findings else "")))
        french = "French" in (re.search(r"<brief>\n(.*?)\n</brief>", text, re.S).group(1))
        refs = [(sid, q) for sid, q in refs if (detect_language(q + " ") == "fr") == french
                or detect_language(q) is None and not french]
        if not refs:
            return ("# Liquid nitrogen on Mars\n\n## Findings\n\nThe sources consulted do not contain any "
                    "information on this question, so no answer was found in them.\n\n## Limitations\n\n"
                    "- The corpus does not cover this topic.\n")
        body = []
        for sid, quote in refs:
            claim = re.sub(r"^.*? found that ", "", quote).rstrip(" .")
            claim = claim[:1].upper() + claim[1:]
            lead = "Selon la source : " if french else ""
            body.append(f'{lead}{claim} <ref id="{sid}">"{quote}"</ref>.')
        if invent:
            sid = refs[0][0]
            body.append(f'Street trees also cut energy bills by 40 percent <ref id="{sid}">"Street trees cut '
                        'household energy bills by 40 percent."</ref>.')
        if french:
            return ("# Le coût d'un arbre d'alignement\n\n## Résultats\n\n" + "\n\n".join(body)
                    + "\n\n## Conclusion\n\nLes coûts de plantation et d'entretien d'un arbre restent modestes pour "
                      "une ville.\n\n## Sources\n\n- (liste)\n")
        return ("# Street trees and summer heat\n\n## Findings\n\n" + "\n\n".join(body)
                + "\n\n## Conclusion\n\nThe sources agree that street trees cool streets but disagree on how much, "
                  "which depends on the trees and the street.\n\n## Sources\n\n- (list)\n")

    return write


NO_EVIDENCE = ("# Liquid nitrogen on Mars\n\nThe sources searched do not contain any information that answers this "
               "question; no answer was found in them.\n\nThe corpus was searched for the boiling point of liquid "
               "nitrogen on Mars. A planetary science handbook may help.\n\n## Limitations\n\n- The corpus does not "
               "cover this topic.\n")


def judge_scores(messages: list[BaseMessage]):
    """A judge that rewards citations: 5 + one point per bracketed citation number, at most 9."""
    text = prompt_text(messages)
    report = re.search(r"<report>\n(.*?)\n</report>", text, re.S).group(1)
    n = len(set(re.findall(r"\[(\d+)\]", report)))
    score = min(9, 5 + n)
    return structured("RubricScores", scores=[{"criterion": c, "score": score, "justification": f"{n} sources cited"}
                                              for c in CRITERIA])


def judge_pairwise(messages: list[BaseMessage]):
    """Prefers the report with more citation marks (a tie when equal)."""
    text = prompt_text(messages)
    counts = [len(re.findall(r"\[(\d+)\]", re.search(fr"<report_{i}>\n(.*?)\n</report_{i}>", text,
                                                        re.S).group(1))) for i in (1, 2)]
    win = "tie" if counts[0] == counts[1] else ("1" if counts[0] > counts[1] else "2")
    return structured("PairwiseVerdict", criteria=[{"criterion": c, "winner": win, "justification": f"{counts}"}
                                                   for c in CRITERIA], overall=win, justification="more evidence")


def behaviour_script(*, invent: bool = False) -> Script:
    s = Script()
    s.on("research", "You decide whether a research request is clear", clarify, repeat=True)
    s.on("research", "Turn the conversation into a research brief", brief, repeat=True)
    s.on("research", "A human reviewer rejected", revise, repeat=True)
    s.on("final_report", "Write a first draft", "# Draft\n\nTo be researched [to verify].", repeat=True)
    s.on("research", "Round 1 of", supervisor, repeat=True)
    s.on("research", "Research this topic: ", researcher, repeat=True)
    s.on("summarization", "Summarise this page for a researcher", summarise_page, repeat=True)
    s.on("compression", "You condense a researcher's work", compress, repeat=True)
    s.on("research", "Round 2 of", calls(tool_call("ResearchComplete")), repeat=True)
    s.on("final_report", "The research found no source that answers this question", NO_EVIDENCE, repeat=True)
    s.on("final_report", "Write the final research report", final_report(invent), repeat=True)
    s.on("citation_check", "You check a research report's claims", _judge_claims, repeat=True)
    s.on("citation_check", "A citation in a research report failed the check",
         structured("FixCitation", action="remove", quote="", source_id="", claim="", softened_text=""), repeat=True)
    s.on("judge", "Score the report below on each criterion", judge_scores, repeat=True)
    s.on("judge", "Decide which report is better", judge_pairwise, repeat=True)
    return s


def _judge_claims(messages: list[BaseMessage]):
    items = re.findall(r"^(\d+)\. Claim: ", prompt_text(messages), re.M)
    return structured("ClaimVerdicts", verdicts=[{"item": int(n), "verdict": "supports", "reason": "scripted"}
                                                 for n in items])

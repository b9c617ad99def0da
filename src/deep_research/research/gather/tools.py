"""Tool schemas offered to the models. The graph executes every call itself: tools have
no side effects beyond searching and reading the run's own sources."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


def tool_schema(name: str, description: str, args: type[BaseModel] | None = None) -> dict:
    params: dict[str, Any] = {"type": "object", "properties": {}, "required": []}
    if args is not None:
        schema = args.model_json_schema()
        params = {"type": "object", "properties": schema.get("properties", {}),
                  "required": schema.get("required", [])}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": params}}


class _Topic(BaseModel):
    topic: str = Field(description="A self-contained description of what to research, with all context needed.")


class _Reflection(BaseModel):
    reflection: str = Field(description="What you learned, what is missing, and what to do next.")


class _Query(BaseModel):
    query: str = Field(description="A search query.")


CONDUCT_RESEARCH = "ConductResearch"
RESEARCH_COMPLETE = "ResearchComplete"
REFINE_DRAFT = "refine_draft_report"
THINK = "think_tool"
SEARCH = "search"

SUPERVISOR_TOOLS = [
    tool_schema(CONDUCT_RESEARCH, "Send a researcher to investigate one topic.", _Topic),
    tool_schema(REFINE_DRAFT, "Rewrite the draft report with the findings gathered since the last revision."),
    tool_schema(THINK, "Record a reflection on progress and next steps.", _Reflection),
    tool_schema(RESEARCH_COMPLETE, "Declare the research complete."),
]

RESEARCHER_TOOLS = [
    tool_schema(SEARCH, "Search for pages; returns each page's summary and exact sentences to cite.", _Query),
    tool_schema(THINK, "Record a reflection on progress and next steps.", _Reflection),
]

"""The research graph: thin wiring of the nodes defined in the sibling modules.

preflight -> clarify_with_user -> write_research_brief -> brief_council (<-> its revisions; passes
when no council is set) -> approve_research_brief (<-> revise_research_brief) -> write_draft_report
-> route_research -> research_supervisor [supervisor <-> researchers]  (multi path)
                  -> single_research [one researcher]                  (single path) ->
final_report_generation -> check_citations -> review_report (<-> revise_report) -> publish
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from .runtime.deps import Deps
from .runtime import tracing
from .runtime.configuration import Configuration
from .scope.council import CouncilNodes
from .runtime.failure import guarded
from .runtime.preflight import PreflightNode
from .report.fixes import CitationCheckNode
from .report.publish_node import PublishNode
from .report.writer import WriterNodes
from .report.review import ReviewNodes
from .gather.routing import RoutingNodes
from .scope.brief import BriefNodes
from .scope.clarify import ClarifyNode
from .state import ResearchInput, ResearchState
from .gather.supervisor import build_supervisor


def make_graph(deps: Deps | None = None, *, checkpointer=None, store=None):
    """Compile the research graph. Tests pass Deps with a scripted model and a local corpus."""
    deps = deps or Deps()
    tracing.setup()  # LangSmith's uploads scrubbed before the first run; OpenTelemetry spans (tracing.py)
    clarify, brief, review = ClarifyNode(deps), BriefNodes(deps), ReviewNodes(deps)
    writer, checker, publisher = WriterNodes(deps), CitationCheckNode(deps), PublishNode(deps)
    routing, council = RoutingNodes(deps), CouncilNodes(deps)
    g = StateGraph(ResearchState, input_schema=ResearchInput, context_schema=Configuration)

    def node(name, fn, **kw):  # every node records a failure in the thread's state (failure.py)
        g.add_node(name, guarded(name, fn, root=True), **kw)

    node("preflight", PreflightNode(deps).__call__)
    node("clarify_with_user", clarify.clarify_with_user,  # or back to a question the chat answered
         destinations=("write_research_brief", END, "approve_research_brief", "review_report"))
    node("write_research_brief", brief.write_research_brief)
    node("approve_research_brief", brief.approve_research_brief,
         destinations=("write_draft_report", "revise_research_brief", "approve_research_brief", END))
    node("revise_research_brief", brief.revise_research_brief)
    node("brief_council", council.brief_council)
    node("write_draft_report", brief.write_draft_report,
         destinations=("route_research", "final_report_generation"))  # the latter: search_api=none
    node("route_research", routing.route_research, destinations=("research_supervisor", "single_research"))
    g.add_node("research_supervisor", build_supervisor(deps))  # its nodes are guarded inside
    node("single_research", routing.single_research)  # the researcher's nodes are guarded inside
    node("final_report_generation", writer.final_report_generation)
    node("check_citations", checker.check_citations)
    node("review_report", review.review_report, destinations=("publish", "review_report", "revise_report"))
    node("revise_report", review.revise_report)
    node("publish", publisher.publish)
    g.add_edge(START, "preflight")
    g.add_edge("preflight", "clarify_with_user")
    g.add_edge("write_research_brief", "brief_council")
    g.add_edge("brief_council", "approve_research_brief")
    g.add_edge("revise_research_brief", "approve_research_brief")
    g.add_edge("research_supervisor", "final_report_generation")
    g.add_edge("single_research", "final_report_generation")
    g.add_edge("final_report_generation", "check_citations")
    g.add_edge("check_citations", "review_report")  # passes straight on unless require_report_approval
    g.add_edge("revise_report", "check_citations")
    g.add_edge("publish", END)
    return g.compile(checkpointer=checkpointer, store=store, name="deep_research")


# The graph LangGraph Studio / `langgraph dev` serves (see langgraph.json).
graph = make_graph()

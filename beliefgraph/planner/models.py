"""Models of the query planner: the request, the result and the trace a person can read.

``QueryRequest`` comes in (``POST /v1/query``, ``beliefgraph query``); ``QueryResult`` goes
out: the governing belief, the action class, the open :class:`Contest` s of the governing
belief, and a :class:`QueryTrace` listing every candidate with how it was found, its lane,
its scope match and why it lost.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from beliefgraph.models import ActionClass, ActionType, BeliefPublic, ChainLink, NamespaceName

#: the longest query accepted (characters); longer is a 422, not a slow request
MAX_QUERY_LENGTH = 2000

QueryText = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_QUERY_LENGTH)
]


class QueryRequest(BaseModel):
    """Which stored belief governs this request, and what may the agent do?"""

    model_config = ConfigDict(extra="forbid", frozen=True)

    query: QueryText = Field(description="The request, as the user or agent put it.")
    namespaces: list[NamespaceName] = Field(
        min_length=1, max_length=20, description="Where to look; only these are ever read."
    )
    action_type: ActionType | None = Field(
        default=None,
        description="What the request would do; inferred from the query when absent.",
    )


#: how a candidate was found
FoundBy = Literal["vector", "fulltext", "alias", "scope_walk", "entity_walk", "supersession"]
#: the lane a candidate ended up in
Lane = Literal["authority", "evidence", "history", "none"]


class ScopeTrace(BaseModel):
    """How the request fell inside or outside one candidate's jurisdiction."""

    source: Literal["governs", "derived", "none"] = Field(
        description="An explicit governs scope, one derived from text and entities, or none."
    )
    matched: list[str] = Field(default_factory=list, description="Terms the request matched.")
    specificity: float = Field(0.0, description="Weighted overlap with the scope's terms.")
    strong: bool = Field(False, description="Specificity at or above the strong threshold.")
    excluded_by: str | None = None
    missing_all_terms: list[str] = Field(default_factory=list)
    action_types: list[ActionType] = Field(
        default_factory=list, description="Acts the scope governs; empty means every act."
    )
    action_type_match: bool = True
    note: str | None = None


class CandidateTrace(BaseModel):
    """One belief the planner considered."""

    id: str
    text: str
    kind: str
    status: str
    priority: str
    found_by: list[FoundBy] = Field(
        description="vector: cosine similarity; fulltext: Lucene (large namespaces) or a "
        "word scan (small ones); alias: ABOUT an entity the query names; scope_walk: governs "
        "a scope that covers one; supersession: the head of a candidate's chain."
    )
    similarity: float | None = Field(None, description="Cosine similarity to the query.")
    relevance: float = Field(0.0, description="Similarity plus lexical overlap (evidence lane).")
    authority: bool = Field(description="Policy-like kind, or text that states a rule.")
    directive: str | None = Field(None, description="The rule the text states, if any.")
    lane: Lane
    scope: ScopeTrace
    head: str | None = Field(None, description="Head of its supersession chain, if superseded.")
    contested_by: list[str] = Field(
        default_factory=list,
        description="Live beliefs that CONTRADICT it: the gate's guards kept them from "
        "superseding it (see the result's contests).",
    )
    outcome: Literal["governs", "lost", "excluded"]
    why: str


class Contest(BaseModel):
    """A belief that contradicts the governing belief but was kept from superseding it.

    The curation gate's guards (trust, role, namespace) store such a contradiction as
    ``contested`` and link it ``CONTRADICTS`` instead of letting it replace the belief; the
    governing belief keeps governing, and the agent is told the claim is disputed.
    """

    id: str = Field(description="The contesting belief.")
    text: str
    kind: str
    status: str
    trust: float = Field(
        description="The contesting belief's trust, as written (an agent's may claim more)."
    )
    disputes: str = Field(description="The belief it contradicts (the governing belief).")
    guard: str | None = Field(
        None, description="The guard that kept it from superseding: trust, role or namespace."
    )
    why: str | None = Field(None, description="The gate's reason, as recorded on the edge.")
    by: str | None = Field(None, description="Who wrote it (the actor), when known.")
    at: datetime | None = None


class Edge(BaseModel):
    """One relationship the planner walked."""

    model_config = ConfigDict(frozen=True)

    source: str = Field(description="Id of the start node (a belief, scope or entity:<key>).")
    type: str
    target: str


class NamespaceReport(BaseModel):
    """Which of the requested namespaces were searched, and why others were not."""

    searched: list[str]
    not_visible: list[str] = Field(description="Requested, but the caller may not read them.")
    unknown: list[str] = Field(description="Requested, but they hold no beliefs.")


class QueryTrace(BaseModel):
    """Everything the planner did, in the order it did it."""

    namespaces: NamespaceReport
    action_types: list[ActionType]
    action_types_source: Literal["given", "inferred"]
    terms: list[str] = Field(description="The query's words as every match sees them.")
    discovery: str = Field(description="How candidates were found: exact scan or index.")
    candidates: list[CandidateTrace]
    edges: list[Edge]
    chain: list[str] = Field(description="The winner's supersession chain, oldest first.")
    chain_links: list[ChainLink]
    steps: list[str] = Field(description="The decision, step by step.")


class QueryResult(BaseModel):
    """The governing belief (or none), the action class, and why."""

    governing: BeliefPublic | None
    action: ActionClass
    reason: str
    contests: list[Contest] = Field(
        default_factory=list,
        description="Open contests of the governing belief: live beliefs that contradict it "
        "but that the gate's guards kept from superseding it. It still governs; with a "
        "contest a bare answer becomes warn (say the claim is disputed).",
    )
    trace: QueryTrace
    timings: dict[str, float] = Field(description="Milliseconds per stage, and in total.")

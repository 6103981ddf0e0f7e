"""Requests and answers of search and context assembly (``POST /v1/search``, ``/v1/context``).

Named by role like :mod:`beliefgraph.models`: ``*Request`` comes in, the rest goes out.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from beliefgraph.models import EpistemicStatus, Kind, NamespaceName, Status, UserId

#: longest query or message read (characters); a longer one is a 422, not silently cut
MAX_MESSAGE_LENGTH = 20_000

Message = Annotated[str, StringConstraints(max_length=MAX_MESSAGE_LENGTH)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SearchRequest(_Strict):
    """Find the beliefs a query names, precision first.

    Only beliefs in ``namespaces`` (and, with ``user``, only that user's) are read;
    superseded, retracted, archived and resolved beliefs never come back.
    """

    query: Message
    namespaces: list[NamespaceName] = Field(min_length=1, max_length=20)
    user: UserId | None = Field(default=None, description="Only this user's beliefs.")
    limit: int = Field(default=10, ge=1, le=100)
    kinds: list[Kind] | None = Field(default=None, description="Only beliefs of these kinds.")


class ContextRequest(_Strict):
    """What an agent sends at the start of a turn: who, where, and what was said."""

    user: UserId
    namespaces: list[NamespaceName] = Field(
        min_length=1, max_length=20, description="The scope of this turn."
    )
    message: Message = ""
    budget: int | None = Field(
        default=None,
        ge=0,
        le=1000,
        description="Most beliefs in pinned facts and relevant beliefs together "
        "(pinned facts first); 0: neither layer, the message is not searched (the persona "
        "prelude and pinned open questions are not counted); default: the server's layer "
        "limits.",
    )
    persona_namespaces: list[NamespaceName] | None = Field(
        default=None,
        max_length=20,
        description="Where the persona prelude's universal preferences live "
        "(default: the server's BELIEFGRAPH_CONTEXT_PERSONA_NAMESPACES).",
    )


class BeliefBrief(BaseModel):
    """A belief as search and context hand it out: what an agent's prompt needs."""

    model_config = ConfigDict(frozen=True)

    id: str
    text: str
    kind: Kind
    status: Status
    epistemic_status: EpistemicStatus
    canonical_name: str | None
    aliases: list[str]
    why_it_matters: str | None
    pinned: bool
    confidence: float
    user: str | None
    namespaces: list[str]
    last_reinforced_at: datetime | None


class ScoreBreakdown(BaseModel):
    """Where a hit's score came from. Only name evidence or strong text evidence admits a
    belief (``admitted_by``); the other parts only order what was admitted."""

    model_config = ConfigDict(frozen=True)

    name: float = Field(description="Canonical name or alias matched as a phrase.")
    fuzzy: bool = Field(description="The name matched with one edit (prefix guarded).")
    partial_name: float = Field(description="Some words of the canonical name matched.")
    content: float = Field(description="Share of the query's content words in the text.")
    semantic: float | None = Field(description="Cosine similarity of query and text.")
    total: float
    admitted_by: str = Field(description="`canonical_name`, `alias`, or `text`.")
    matched: list[str] = Field(description="The names or words that matched.")


class SearchHit(BaseModel):
    """One ranked result."""

    model_config = ConfigDict(frozen=True)

    belief: BeliefBrief
    score: float
    breakdown: ScoreBreakdown


class SearchResponse(BaseModel):
    """Ranked hits, best first."""

    hits: list[SearchHit]


class ContextItem(BaseModel):
    """One belief of a context layer; ``why_it_matters`` says how it should shape the answer."""

    model_config = ConfigDict(frozen=True)

    belief: BeliefBrief
    score: float | None = Field(
        default=None, description="The search score, for relevant beliefs only."
    )


class PersonaPrelude(BaseModel):
    """The user's universal preferences, as a text to put first and as the beliefs behind it."""

    text: str
    beliefs: list[ContextItem]


class ContextResponse(BaseModel):
    """Layered context for a turn; superseded and resolved beliefs never appear."""

    persona_prelude: PersonaPrelude | None = Field(
        description="None when the user has no universal preferences."
    )
    pinned_facts: list[ContextItem]
    relevant_beliefs: list[ContextItem]
    open_questions: list[ContextItem]

"""``/v1/beliefs``: create, read, list, retract, supersede, chain."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Path, Query, Response, status

from api.deps import StoreDep
from beliefgraph.models import (
    BELIEF_ID_PATTERN,
    NAMESPACE_PATTERN,
    BeliefBatch,
    BeliefPage,
    BeliefPublic,
    BeliefsCreated,
    BeliefWrite,
    Chain,
    Kind,
    NamespacePublic,
    Status,
    SupersedeRequest,
)

router = APIRouter(prefix="/v1", tags=["beliefs"])

BeliefIdPath = Annotated[str, Path(pattern=BELIEF_ID_PATTERN, description="A belief id.")]


@router.post(
    "/beliefs",
    status_code=status.HTTP_201_CREATED,
    response_model=BeliefPublic | BeliefsCreated,
    summary="Store one belief, or a batch of them in one transaction",
)
def create_beliefs(
    body: Annotated[BeliefWrite, Body()], store: StoreDep, response: Response
) -> BeliefPublic | BeliefsCreated:
    """Store a belief (`{...}`) or a batch (`{"beliefs": [...]}`): all or nothing."""
    if isinstance(body, BeliefBatch):
        return BeliefsCreated(beliefs=store.create(body.beliefs))
    [created] = store.create([body])
    response.headers["Location"] = f"/v1/beliefs/{created.id}"
    return created


@router.get("/beliefs", summary="List beliefs, filtered, one page at a time")
def list_beliefs(
    store: StoreDep,
    namespace: Annotated[str | None, Query(pattern=NAMESPACE_PATTERN)] = None,
    kind: Kind | None = None,
    status: Status | None = None,
    cursor: Annotated[str | None, Query(max_length=512)] = None,
    limit: Annotated[int, Query(ge=1)] = 50,
) -> BeliefPage:
    """Beliefs in creation order; pass `next_cursor` back as `cursor` for the next page."""
    return store.list_beliefs(
        namespace=namespace, kind=kind, status=status, cursor=cursor, limit=limit
    )


@router.get("/beliefs/{belief_id}", summary="Read one belief")
def get_belief(belief_id: BeliefIdPath, store: StoreDep) -> BeliefPublic:
    """One belief, whatever its status."""
    return store.get(belief_id)


@router.delete("/beliefs/{belief_id}", summary="Retract a belief (it is kept, marked retracted)")
def retract_belief(belief_id: BeliefIdPath, store: StoreDep) -> BeliefPublic:
    """Retract: status `retracted`; the belief and its history stay in the graph."""
    return store.retract(belief_id)


@router.post(
    "/beliefs/{belief_id}/supersede",
    status_code=status.HTTP_201_CREATED,
    summary="Replace a belief by a new one or an existing one",
)
def supersede_belief(belief_id: BeliefIdPath, body: SupersedeRequest, store: StoreDep) -> Chain:
    """Adds a `SUPERSEDES` edge and marks the old belief superseded; returns the chain."""
    return store.supersede(belief_id, body)


@router.get("/beliefs/{belief_id}/chain", summary="The supersession chain through a belief")
def belief_chain(belief_id: BeliefIdPath, store: StoreDep) -> Chain:
    """The whole chain, oldest first, head last, from any of its members."""
    return store.chain(belief_id)


@router.get("/namespaces", summary="Namespaces and their belief counts")
def list_namespaces(store: StoreDep) -> list[NamespacePublic]:
    """Every namespace that holds beliefs."""
    return store.namespaces()

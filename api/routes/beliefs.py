"""``/v1/beliefs``: create, read, list, retract, supersede, chain, explicit precedence."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Path, Query, Response, status

from api.deps import CallerDep, StoreDep
from api.query_params import CURSOR_DESCRIPTION
from beliefgraph.models import (
    BELIEF_ID_PATTERN,
    NAMESPACE_PATTERN,
    BeliefBatch,
    BeliefPage,
    BeliefPublic,
    BeliefsCreated,
    BeliefWrite,
    Chain,
    EdgeType,
    GatePreview,
    Kind,
    NamespacePublic,
    PrecedenceEdge,
    PrecedenceRequest,
    Status,
    SupersedeRequest,
    Verdict,
)

router = APIRouter(prefix="/v1", tags=["beliefs"])

BeliefIdPath = Annotated[str, Path(pattern=BELIEF_ID_PATTERN, description="A belief id.")]


@router.post(
    "/beliefs",
    status_code=status.HTTP_201_CREATED,
    response_model=BeliefPublic | BeliefsCreated | GatePreview,
    summary="Store one belief, or a batch of them in one transaction, through the gate",
    responses={
        200: {"description": "A noop/subsumed verdict (the existing belief), or a dry run."},
        403: {"description": "The key's role may not write such a belief."},
    },
)
def create_beliefs(
    body: Annotated[BeliefWrite, Body()],
    store: StoreDep,
    caller: CallerDep,
    response: Response,
    dry_run: Annotated[
        bool, Query(description="Return the gate's verdicts without writing anything.")
    ] = False,
) -> BeliefPublic | BeliefsCreated | GatePreview:
    """Store a belief (`{...}`) or a batch (`{"beliefs": [...]}`): all or nothing.

    Every belief passes the curation gate; the `Gate-Verdict` header (single) or
    `decisions` (batch) says what it decided. A `noop` or `subsumed` belief is not stored:
    the answer is the existing belief, reinforced, with status 200. A write sent again with
    the same ids and the same text, kind and namespaces (say, after a 503
    `write-outcome-unknown`) answers 200 with what is stored and `Idempotent-Replay: true`;
    the same id with other content is a 409.
    """
    beliefs = body.beliefs if isinstance(body, BeliefBatch) else [body]
    decisions, replayed = store.curate_or_replay(beliefs, caller=caller, dry_run=dry_run)
    if replayed is not None:  # the same write sent again: nothing was decided this time
        response.status_code = status.HTTP_200_OK
        response.headers["Idempotent-Replay"] = "true"
        if isinstance(body, BeliefBatch):
            return BeliefsCreated(beliefs=replayed, decisions=[])
        return replayed[0]
    if dry_run:
        response.status_code = status.HTTP_200_OK
        return GatePreview(decisions=decisions)
    results = store.get_many([d.belief_id for d in decisions], caller=caller)
    if isinstance(body, BeliefBatch):
        return BeliefsCreated(beliefs=results, decisions=decisions)
    [decision], [result] = decisions, results
    response.headers["Gate-Verdict"] = decision.verdict.value
    response.headers["Location"] = f"/v1/beliefs/{result.id}"
    if decision.verdict in (Verdict.noop, Verdict.subsumed):
        response.status_code = status.HTTP_200_OK  # nothing new was stored
    return result


@router.get("/beliefs", summary="List beliefs, filtered, one page at a time")
def list_beliefs(
    store: StoreDep,
    caller: CallerDep,
    namespace: Annotated[str | None, Query(pattern=NAMESPACE_PATTERN)] = None,
    kind: Kind | None = None,
    status: Status | None = None,
    cursor: Annotated[
        str | None,
        Query(max_length=512, description=CURSOR_DESCRIPTION),
    ] = None,
    limit: Annotated[int, Query(ge=1)] = 50,
) -> BeliefPage:
    """Beliefs in creation order; pass `next_cursor` back as `cursor` for the next page."""
    return store.list_beliefs(
        namespace=namespace, kind=kind, status=status, cursor=cursor, limit=limit, caller=caller
    )


@router.get("/beliefs/{belief_id}", summary="Read one belief")
def get_belief(belief_id: BeliefIdPath, store: StoreDep, caller: CallerDep) -> BeliefPublic:
    """One belief, whatever its status."""
    return store.get(belief_id, caller=caller)


@router.delete("/beliefs/{belief_id}", summary="Retract a belief (it is kept, marked retracted)")
def retract_belief(
    belief_id: BeliefIdPath,
    store: StoreDep,
    caller: CallerDep,
    reason: Annotated[
        str | None, Query(min_length=1, description="Why; kept in the audit event.")
    ] = None,
) -> BeliefPublic:
    """Retract: status `retracted`; the belief and its history stay in the graph."""
    return store.retract(belief_id, reason=reason, caller=caller)


@router.post(
    "/beliefs/{belief_id}/supersede",
    status_code=status.HTTP_201_CREATED,
    summary="Replace a belief by a new one or an existing one",
)
def supersede_belief(
    belief_id: BeliefIdPath, body: SupersedeRequest, store: StoreDep, caller: CallerDep
) -> Chain:
    """Adds a `SUPERSEDES` edge and marks the old belief superseded; returns the chain."""
    return store.supersede(belief_id, body, caller=caller)


def _rank(
    edge: EdgeType,
    belief_id: str,
    body: PrecedenceRequest,
    store: StoreDep,
    caller: CallerDep,
    response: Response,
) -> PrecedenceEdge:
    ranked = store.rank(edge, belief_id, body, caller=caller)
    if not ranked.created:
        response.status_code = status.HTTP_200_OK
    return ranked


@router.post(
    "/beliefs/{belief_id}/overrides",
    status_code=status.HTTP_201_CREATED,
    summary="Rank a belief before another: it OVERRIDES it (curator)",
)
def override_belief(
    belief_id: BeliefIdPath,
    body: PrecedenceRequest,
    store: StoreDep,
    caller: CallerDep,
    response: Response,
) -> PrecedenceEdge:
    """Explicit precedence: when both are rules in scope of a request, this belief governs
    whatever the other rules of precedence say. 201 when the edge is new, 200 when it was
    there; a 409 when `other` already wins over this belief. Audited."""
    return _rank(EdgeType.overrides, belief_id, body, store, caller, response)


@router.delete(
    "/beliefs/{belief_id}/overrides/{other_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    summary="Remove an OVERRIDES edge (curator)",
)
def remove_override(
    belief_id: BeliefIdPath, other_id: BeliefIdPath, store: StoreDep, caller: CallerDep
) -> None:
    """Audited, with what the edge said; 404 when there is no such edge."""
    store.unrank(EdgeType.overrides, belief_id, other_id, caller=caller)


@router.post(
    "/beliefs/{belief_id}/narrows",
    status_code=status.HTTP_201_CREATED,
    summary="Mark a belief's scope narrower than another's: NARROWS (admin)",
)
def narrow_belief(
    belief_id: BeliefIdPath,
    body: PrecedenceRequest,
    store: StoreDep,
    caller: CallerDep,
    response: Response,
) -> PrecedenceEdge:
    """Both beliefs must govern a scope; the edge joins the scopes, so the narrower wins
    whenever beliefs governing those terms meet. Scopes are shared by every namespace: a key
    over all of them only. 201 when new, 200 when there; 409 on a loop. Audited."""
    return _rank(EdgeType.narrows, belief_id, body, store, caller, response)


@router.delete(
    "/beliefs/{belief_id}/narrows/{other_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    summary="Remove a NARROWS edge between two beliefs' scopes (admin)",
)
def remove_narrow(
    belief_id: BeliefIdPath, other_id: BeliefIdPath, store: StoreDep, caller: CallerDep
) -> None:
    """Audited, with what the edge said; 404 when there is no such edge."""
    store.unrank(EdgeType.narrows, belief_id, other_id, caller=caller)


@router.get("/beliefs/{belief_id}/chain", summary="The supersession chain through a belief")
def belief_chain(belief_id: BeliefIdPath, store: StoreDep, caller: CallerDep) -> Chain:
    """The whole chain, oldest first, head last, from any of its members."""
    return store.chain(belief_id, caller=caller)


@router.get("/namespaces", summary="Namespaces and their belief counts")
def list_namespaces(store: StoreDep, caller: CallerDep) -> list[NamespacePublic]:
    """Every namespace that holds beliefs (that the key may see)."""
    return store.namespaces(caller=caller)

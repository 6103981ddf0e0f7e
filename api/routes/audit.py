"""``/v1/audit``: the hash-chained log of every change, and its verification."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from api.deps import CallerDep, StoreDep
from api.query_params import CURSOR_DESCRIPTION
from beliefgraph import audit
from beliefgraph.access import Role
from beliefgraph.errors import Forbidden
from beliefgraph.models import BELIEF_ID_PATTERN, Instant

router = APIRouter(prefix="/v1", tags=["audit"])


@router.get("/audit", summary="Audit events, newest first, filtered")
def list_audit(
    store: StoreDep,
    caller: CallerDep,
    action: Annotated[
        audit.AuditAction | None, Query(description="Only this action, e.g. `contradicts`.")
    ] = None,
    since: Annotated[
        Instant | None,
        Query(description="Only events at or after this time (ISO 8601; without a zone, UTC)."),
    ] = None,
    belief: Annotated[
        str | None, Query(pattern=BELIEF_ID_PATTERN, description="Only events touching it.")
    ] = None,
    cursor: Annotated[
        str | None,
        Query(max_length=512, description=CURSOR_DESCRIPTION),
    ] = None,
    limit: Annotated[int, Query(ge=1)] = 100,
) -> audit.AuditPage:
    """Events in the key's namespaces (key changes: admins only); `next_cursor` pages on."""
    return audit.list_events(
        store.db, caller, action=action, since=since, belief=belief, cursor=cursor, limit=limit
    )


@router.get("/audit/verify", summary="Verify the audit chains (admin over every namespace)")
def verify_audit(
    store: StoreDep,
    caller: CallerDep,
    chain: Annotated[str | None, Query(max_length=200, description="One chain only.")] = None,
) -> audit.Verification:
    """Walk the chains, recomputing every hash; `broken` names each chain's first broken link."""
    if caller.role is not Role.admin or caller.namespaces is not None:
        # the chains are named after every tenant's namespaces
        raise Forbidden("only an admin key over every namespace may verify the whole audit log")
    return audit.verify(store.db, chain)

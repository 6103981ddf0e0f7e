"""``/v1/query``: which stored belief governs a request, and what the agent may do."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from api.auth import forgetting_refused_key
from api.deps import CallerDep, StoreDep
from api.responses import json_response
from beliefgraph.planner.models import QueryRequest, QueryResult
from beliefgraph.planner.planner import Planner

router = APIRouter(prefix="/v1", tags=["query"])


@router.post(
    "/query",
    summary="The belief allowed to govern a request, and the action class",
    response_model=QueryResult,
)
def query(body: QueryRequest, request: Request, store: StoreDep, caller: CallerDep) -> Response:
    """Walks the graph from the request's terms to the scopes and beliefs that govern it;
    returns the governing belief (or null), `block`/`verify_first`/`warn`/`answer`/
    `answer_context` (or `archive_only` for history), the governing belief's open contests
    (contradictions the gate's guards kept from superseding it: it still governs, and a bare
    `answer` becomes `warn`), and a trace of every candidate. Namespaces the caller may not
    read, or that hold nothing, give an explained empty result."""
    # A plain `def`: FastAPI runs it in a worker thread, so embedding the query (CPU-bound)
    # never blocks the event loop. The route is in api/auth.py's CONFIRMED_IN_READ: its
    # caller's key may be unconfirmed, and Planner.query is what confirms it.
    with forgetting_refused_key(request, caller):
        return json_response(Planner(store.db, store.embedder).query(body, caller=caller))

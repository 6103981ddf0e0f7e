"""``/v1/search`` and ``/v1/context``: precision-first retrieval and layered context."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from api.auth import forgetting_refused_key
from api.deps import CallerDep, StoreDep
from api.responses import json_response
from beliefgraph.search.context import assemble
from beliefgraph.search.context_models import (
    ContextRequest,
    ContextResponse,
    SearchRequest,
    SearchResponse,
)
from beliefgraph.search.find import search

router = APIRouter(prefix="/v1", tags=["context"])


@router.post(
    "/search",
    summary="Beliefs a query names, ranked, with a score breakdown",
    response_model=SearchResponse,
)
def search_beliefs(body: SearchRequest, store: StoreDep, caller: CallerDep) -> Response:
    """Only beliefs the query names (canonical name, alias, a one-edit typo) or whose text
    covers most of it; never superseded, retracted, archived or resolved ones."""
    return json_response(search(store.db, store.embedder, body, caller=caller))


@router.post(
    "/context",
    summary="Layered context for the start of an agent's turn",
    response_model=ContextResponse,
)
def turn_context(
    body: ContextRequest, request: Request, store: StoreDep, caller: CallerDep
) -> Response:
    """Persona prelude, pinned facts, relevant beliefs and open questions of one user, each
    with `why_it_matters`; per-kind budgets; an unknown user gets empty layers."""
    # In api/auth.py's CONFIRMED_IN_READ: assemble's read of the layers confirms the key.
    with forgetting_refused_key(request, caller):
        return json_response(assemble(store.db, store.embedder, body, caller=caller))

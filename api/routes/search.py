"""``/v1/search`` and ``/v1/context``: precision-first retrieval and layered context."""

from __future__ import annotations

from fastapi import APIRouter, Response

from api.deps import CallerDep, StoreDep
from beliefgraph.context import assemble
from beliefgraph.context_models import (
    ContextRequest,
    ContextResponse,
    SearchRequest,
    SearchResponse,
)
from beliefgraph.search import search

router = APIRouter(prefix="/v1", tags=["context"])


# Both routes serialise their result themselves, in the worker thread FastAPI runs a plain
# `def` in: returned as a model, it would be dumped, validated again and encoded (about a
# millisecond for a full context). `response_model` keeps the OpenAPI schema.


@router.post(
    "/search",
    summary="Beliefs a query names, ranked, with a score breakdown",
    response_model=SearchResponse,
)
def search_beliefs(body: SearchRequest, store: StoreDep, caller: CallerDep) -> Response:
    """Only beliefs the query names (canonical name, alias, a one-edit typo) or whose text
    covers most of it; never superseded, retracted, archived or resolved ones."""
    return _json(search(store, body, caller=caller))


@router.post(
    "/context",
    summary="Layered context for the start of an agent's turn",
    response_model=ContextResponse,
)
def turn_context(body: ContextRequest, store: StoreDep, caller: CallerDep) -> Response:
    """Persona prelude, pinned facts, relevant beliefs and open questions of one user, each
    with `why_it_matters`; per-kind budgets; an unknown user gets empty layers."""
    return _json(assemble(store, body, caller=caller))


def _json(result: SearchResponse | ContextResponse) -> Response:
    return Response(result.model_dump_json(), media_type="application/json")

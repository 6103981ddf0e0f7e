"""Liveness and readiness."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.deps import StoreDep
from beliefgraph.models import Health, Ready
from beliefgraph.schema import readiness

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="Liveness: the process answers")
async def healthz() -> Health:
    """Always `ok` while the process serves requests. Answered on the event loop, without
    the database or the worker threads, so a Neo4j that hangs every request cannot make an
    orchestrator restart a server that would recover once Neo4j is back."""
    return Health(status="ok")


@router.get(
    "/readyz",
    summary="Readiness: Neo4j reachable and every index online",
    responses={503: {"model": Ready, "description": "Not ready"}},
)
def readyz(store: StoreDep) -> JSONResponse:
    """200 when ready, 503 with the reason when not; within the Neo4j timeouts
    (`BELIEFGRAPH_NEO4J_ACQUIRE_TIMEOUT`)."""
    r = readiness(store.db)
    body = Ready(ready=r.ready, reason=r.reason)
    return JSONResponse(body.model_dump(), status_code=200 if r.ready else 503)

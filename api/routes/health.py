"""Liveness and readiness."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from api.deps import StoreDep

router = APIRouter(tags=["health"])


class Health(BaseModel):
    """The process is up."""

    status: str


class Ready(BaseModel):
    """Whether the service can do its work: Neo4j answers, indexes online."""

    ready: bool
    neo4j: str
    indexes: dict[str, str]


@router.get("/healthz", summary="Liveness: the process answers")
def healthz() -> Health:
    """Always `ok` while the process serves requests."""
    return Health(status="ok")


@router.get(
    "/readyz",
    summary="Readiness: Neo4j reachable and every index online",
    responses={503: {"model": Ready, "description": "Not ready"}},
)
def readyz(store: StoreDep) -> JSONResponse:
    """200 when ready, 503 (with what is missing) when not."""
    r = store.readiness()
    body = Ready(ready=r.ready, neo4j=r.neo4j, indexes=r.indexes)
    return JSONResponse(body.model_dump(), status_code=200 if r.ready else 503)

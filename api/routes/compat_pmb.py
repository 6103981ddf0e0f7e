"""PrecisionMemBench's provider contract under ``/compat/precisionmembench`` (off by default).

Point the public harness at ``http://HOST:PORT/compat/precisionmembench``. The harness sends
no ``Authorization`` header, so this surface is a separate application mounted beside the API:
the API's bearer-key check does not cover it. It is served only with
``BELIEFGRAPH_COMPAT_PMB=true``, touches only namespaces under
``BELIEFGRAPH_COMPAT_PMB_NAMESPACE_PREFIX`` and acts there as ``BELIEFGRAPH_COMPAT_PMB_ROLE``;
the server logs both when it starts. What each call does: :mod:`beliefgraph.compat_pmb`.
"""

from __future__ import annotations

import logging
from typing import Annotated, cast

from fastapi import Depends, FastAPI, Request

from api import problems
from beliefgraph.access import Role
from beliefgraph.compat_pmb import (
    AddRequest,
    Compat,
    Ok,
    SearchRequest,
    SearchResponse,
    UpdateRequest,
)
from beliefgraph.config import Settings
from beliefgraph.store import Store

PREFIX = "/compat/precisionmembench"

log = logging.getLogger("beliefgraph.api")


def _compat(request: Request) -> Compat:
    parent = cast(FastAPI, request.app.state.parent)
    settings = cast(Settings, parent.state.settings)
    return Compat(
        store=cast(Store, parent.state.store),
        prefix=settings.compat_pmb_namespace_prefix,
        role=Role(settings.compat_pmb_role),
    )


CompatDep = Annotated[Compat, Depends(_compat)]


def build(parent: FastAPI) -> FastAPI:
    """The compat application; it reads the store and settings of ``parent``."""
    app = FastAPI(
        title="beliefgraph: PrecisionMemBench-compatible endpoints",
        summary="The harness's provider contract; no authentication, compat namespaces only.",
    )
    app.state.parent = parent
    problems.install(app)

    @app.delete("/reset", summary="Delete every belief of the compat namespaces")
    def reset(compat: CompatDep) -> Ok:
        """Physically deletes compat beliefs only (a belief also elsewhere is never touched)."""
        compat.reset()
        return Ok()

    @app.post("/add", summary="Store one belief of one harness user (upsert on beliefId)")
    def add(body: AddRequest, compat: CompatDep) -> Ok:
        """`metadata.beliefId` is the id search returns; a stored one is replaced."""
        return compat.add(body)

    @app.put("/update", summary="Replace a stored belief's text, aliases and metadata")
    def update(body: UpdateRequest, compat: CompatDep) -> Ok:
        """404 when no belief has that `beliefId`."""
        merged = body.metadata.model_copy(update={"beliefId": body.beliefId})
        return compat.add(body.model_copy(update={"metadata": merged}), replace_only=True)

    @app.post("/search", summary="What /v1/context would inject for this message, flattened")
    def search(body: SearchRequest, compat: CompatDep) -> SearchResponse:
        """Pinned facts, relevant beliefs, open questions, universal preferences; at most
        `limit`, best first; only that user's active beliefs."""
        return compat.search(body)

    @app.post("/wait", summary="Return when every index is online")
    def wait(compat: CompatDep) -> Ok:
        """`db.awaitIndexes`."""
        compat.wait()
        return Ok()

    return app


def install(parent: FastAPI, settings: Settings) -> None:
    """Mount the compat application on ``parent`` when the setting turns it on, and say so."""
    if not settings.compat_pmb:
        return
    parent.mount(PREFIX, build(parent))
    log.warning(
        "PrecisionMemBench compat endpoints are ON at %s without authentication: they act as "
        "role %r over namespaces %s* only (BELIEFGRAPH_COMPAT_PMB=false turns them off)",
        PREFIX,
        settings.compat_pmb_role,
        settings.compat_pmb_namespace_prefix,
    )

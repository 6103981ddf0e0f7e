"""PrecisionMemBench's provider contract under ``/compat/precisionmembench`` (off by default).

Point the public harness at ``http://HOST:PORT/compat/precisionmembench``. The harness sends
no ``Authorization`` header, so this surface is a separate application mounted beside the API:
the API's bearer-key check does not cover it. It is served only with
``BELIEFGRAPH_COMPAT_PMB=true``, touches only namespaces under
``BELIEFGRAPH_COMPAT_PMB_NAMESPACE_PREFIX`` and acts there as ``BELIEFGRAPH_COMPAT_PMB_ROLE``;
the server logs both when it starts. What each call does: :mod:`beliefgraph.compat_pmb`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Annotated, TypeVar, cast

from fastapi import Depends, FastAPI, Request
from starlette.concurrency import run_in_threadpool

from api import problems
from beliefgraph.access import Role
from beliefgraph.compat_pmb import (
    AddRequest,
    Compat,
    CompatSearchRequest,
    CompatSearchResponse,
    Ok,
    UpdateRequest,
)
from beliefgraph.config import Settings
from beliefgraph.store import Store

PREFIX = "/compat/precisionmembench"
#: the longest a search waits for the writes of its user that arrived before it
SETTLE_SECONDS = 10.0

T = TypeVar("T")

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


class ArrivalOrder:
    """Reads of a harness user see that user's writes that arrived before them.

    The harness does not always wait for a write before its next search (its session suite
    sends an alias update and, without awaiting it, the next turn's search). Each write is
    registered when its request arrives; a search first waits, at most ``SETTLE_SECONDS``,
    for the writes of its user registered before it, so what was sent first is answered
    first, as a client that sends in order expects. Everything here runs on the event loop.
    """

    def __init__(self) -> None:
        self._pending: dict[str, set[asyncio.Future[None]]] = {}

    async def write(self, user_id: str, work: Callable[[], T]) -> T:
        """Run ``work`` (a blocking write) in the thread pool, registered for ``user_id``."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        pending = self._pending.setdefault(user_id, set())
        pending.add(done)
        try:
            return await run_in_threadpool(work)
        finally:
            done.set_result(None)
            pending.discard(done)
            if not pending:
                self._pending.pop(user_id, None)

    async def read(self, user_id: str, work: Callable[[], T]) -> T:
        """Run ``work`` (a blocking read) once the writes of ``user_id`` before it are done."""
        earlier = set(self._pending.get(user_id, ()))
        if earlier:
            await asyncio.wait(earlier, timeout=SETTLE_SECONDS)
        return await run_in_threadpool(work)


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

    order = ArrivalOrder()

    @app.post("/add", summary="Store one belief of one harness user (upsert on beliefId)")
    async def add(body: AddRequest, compat: CompatDep) -> Ok:
        """`metadata.beliefId` is the id search returns; a stored one is replaced."""
        return await order.write(body.user_id, lambda: compat.add(body))

    @app.put("/update", summary="Replace a stored belief's text, aliases and metadata")
    async def update(body: UpdateRequest, compat: CompatDep) -> Ok:
        """404 when no belief has that `beliefId`."""
        merged = body.metadata.model_copy(update={"beliefId": body.beliefId})
        replacing = body.model_copy(update={"metadata": merged})
        return await order.write(body.user_id, lambda: compat.add(replacing, replace_only=True))

    @app.post("/search", summary="The beliefs a query names, best first")
    async def search(body: CompatSearchRequest, compat: CompatDep) -> CompatSearchResponse:
        """What `/v1/search` admits for the query in that scope (never a belief for being
        pinned, a preference or an open question), at most `limit`; only that user's active
        beliefs; after that user's writes sent before it."""
        return await order.read(body.user_id, lambda: compat.search(body))

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

"""Bearer-key authentication: who is calling, as a :class:`~beliefgraph.access.Caller`.

Every route needs ``Authorization: Bearer <key>`` except liveness and readiness, and the
documentation (``/openapi.json``, the pages and their files of api/docs.py); the
dependency is installed on the whole app (``create_app``), so a router added later is
protected without doing anything. With ``BELIEFGRAPH_AUTH=off`` (development only; the
server logs it at start) every request is the development caller, an admin over every
namespace.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, cast

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from beliefgraph import keys
from beliefgraph.access import DEVELOPMENT_CALLER, Caller, Role
from beliefgraph.config import Settings
from beliefgraph.errors import Unauthenticated
from beliefgraph.store import Store

#: routes that answer without a key (probes must work before anyone has one)
PUBLIC_PATHS = frozenset({"/healthz", "/readyz"})
#: routes whose own read confirms that a key recognised from memory is not revoked, in the
#: same round trip (``Caller.unconfirmed_key``): they skip the key lookup once a key has
#: been read as valid, and run inside :func:`forgetting_refused_key`. Every other route
#: reads the key on every request.
CONFIRMED_IN_READ = frozenset({"/v1/query", "/v1/context"})
#: the caller of a public route: reads nothing
ANONYMOUS = Caller(name="anonymous", role=Role.reader, namespaces=frozenset())

_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="ApiKey",
    description="An API key from `beliefgraph keys create` (or `POST /v1/keys`).",
)


async def authenticate(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Caller:
    """The caller behind this request (resolved once per request, then cached).

    On a route of :data:`CONFIRMED_IN_READ`, a key this process has read as valid before is
    not read again: the caller carries its hash as ``unconfirmed_key``, and the route must
    confirm it (``Planner.query`` and ``context.assemble`` do, in their own reads).

    Raises:
        Unauthenticated: no bearer key, or an unknown or revoked one (401).
    """
    settings = cast(Settings, request.app.state.settings)
    if settings.auth == "off":
        return DEVELOPMENT_CALLER
    if request.url.path in PUBLIC_PATHS:
        return ANONYMOUS
    if credentials is None:
        raise Unauthenticated("this request needs an 'Authorization: Bearer <key>' header")
    token = credentials.credentials
    known = cast(keys.KnownKeys, request.app.state.known_keys)
    if request.url.path in CONFIRMED_IN_READ and (caller := known.recall(token)) is not None:
        return caller
    store = cast(Store, request.app.state.store)
    # The key lookup is a database round trip: a worker thread, never the event loop. The
    # cases above answer without one, and without the thread hop of a plain `def`.
    caller = await run_in_threadpool(keys.authenticate, store.db, token)
    known.remember(token, caller)
    return caller


@contextmanager
def forgetting_refused_key(request: Request, caller: Caller) -> Iterator[None]:
    """Around the work of a :data:`CONFIRMED_IN_READ` route: a remembered key that the
    route's read refuses is forgotten, so its next use is read (and refused) before any work
    is done for it. The refusal itself goes on (401)."""
    try:
        yield
    except Unauthenticated:
        if caller.unconfirmed_key is not None:
            cast(keys.KnownKeys, request.app.state.known_keys).forget(caller.unconfirmed_key)
        raise

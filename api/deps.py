"""Dependencies handed to routes: the process-wide store and settings."""

from __future__ import annotations

from typing import Annotated, cast

from fastapi import Depends, Request

from api.auth import authenticate
from beliefgraph.access import Caller
from beliefgraph.config import Settings
from beliefgraph.store import Store


# The two lookups below are `async def` on purpose: FastAPI runs a plain `def` dependency in
# a worker thread, a hop (a thread wake-up on a busy 2-core machine) for one attribute read.
async def get_store(request: Request) -> Store:
    """The store built once in the app's lifespan."""
    return cast(Store, request.app.state.store)


async def get_settings(request: Request) -> Settings:
    """The settings the app was built with."""
    return cast(Settings, request.app.state.settings)


StoreDep = Annotated[Store, Depends(get_store)]
SettingsDep = Annotated[Settings, Depends(get_settings)]


#: Who is asking: the caller of the request's bearer key (see ``api/auth.py``). The same
#: callable is installed on the whole app, so FastAPI resolves it once per request.
get_caller = authenticate

CallerDep = Annotated[Caller, Depends(get_caller)]

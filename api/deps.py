"""Dependencies handed to routes: the process-wide store and settings."""

from __future__ import annotations

from typing import Annotated, cast

from fastapi import Depends, Request

from beliefgraph.access import DEVELOPMENT_CALLER, Caller
from beliefgraph.config import Settings
from beliefgraph.store import Store


def get_store(request: Request) -> Store:
    """The store built once in the app's lifespan."""
    return cast(Store, request.app.state.store)


def get_settings(request: Request) -> Settings:
    """The settings the app was built with."""
    return cast(Settings, request.app.state.settings)


StoreDep = Annotated[Store, Depends(get_store)]
SettingsDep = Annotated[Settings, Depends(get_settings)]


def get_caller(request: Request) -> Caller:
    """Who is asking. Until API keys land (the gate issue), every request is the
    development caller: an admin over every namespace."""
    return DEVELOPMENT_CALLER


CallerDep = Annotated[Caller, Depends(get_caller)]

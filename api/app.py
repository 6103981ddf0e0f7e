"""The FastAPI application: one driver and one embedder per process, built in the lifespan.

>>> from api.app import create_app
>>> app = create_app()          # uvicorn api.app:create_app --factory
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI

import beliefgraph
from api import docs, mcp_server, problems
from api.auth import authenticate
from api.limits import BodySizeLimit
from api.query_params import known_query_only
from api.routes import audit as audit_routes
from api.routes import beliefs, compat_pmb, health, imports
from api.routes import keys as keys_routes
from api.routes import query as query_routes
from api.routes import search as search_routes
from beliefgraph.config import Settings, get_settings
from beliefgraph.db import connect
from beliefgraph.embeddings import load_embedder
from beliefgraph.heap import frozen_heap
from beliefgraph.keys import KnownKeys
from beliefgraph.store import Store

log = logging.getLogger("beliefgraph.api")


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app. Neo4j and the model are opened when it starts, closed when it stops."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        neo = settings.neo4j
        driver = connect(neo)
        try:
            # Loading the model is seconds of CPU work: keep it off the event loop.
            embedder = await asyncio.to_thread(load_embedder, settings.cache_dir)
            # its single-threaded session, which queries beside a read and writes that
            # arrive together run on, made now rather than in the first such request
            await asyncio.to_thread(embedder.embed_aside, ["ready"])
            app.state.store = Store(driver, embedder, database=neo.database, settings=settings)
            log.info("beliefgraph %s serving; Neo4j at %s", beliefgraph.__version__, neo.uri)
            if settings.auth == "off":
                log.warning(
                    "AUTHENTICATION IS OFF (BELIEFGRAPH_AUTH=off, development): every request "
                    "is an admin over every namespace"
                )
            # what start-up loaded lives as long as the process: kept out of full collections
            with frozen_heap():
                async with app.state.mcp_sessions():  # MCP at /mcp (mcp_server.mount)
                    yield
        finally:
            driver.close()

    app = FastAPI(
        title="beliefgraph",
        version=beliefgraph.__version__,
        summary="A graph-backed belief store: which memory is allowed to govern an action.",
        lifespan=lifespan,
        # every route needs a key (api/auth.py), including routers added later, and takes
        # only the query parameters it names (api/query_params.py)
        dependencies=[Depends(authenticate), Depends(known_query_only)],
        # served from this process, not a CDN (api/docs.py)
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.known_keys = KnownKeys()
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    problems.install(app)
    docs.install(app)
    app.include_router(health.router)
    app.include_router(beliefs.router)
    # -- more routers: one line each, one per feature --
    app.include_router(query_routes.router)
    app.include_router(audit_routes.router)
    app.include_router(keys_routes.router)
    app.include_router(imports.router)
    app.include_router(search_routes.router)
    compat_pmb.install(app, settings)  # off unless BELIEFGRAPH_COMPAT_PMB=true
    # MCP over streamable HTTP at /mcp: its tools call the routes above, in-process
    app.state.mcp_sessions = mcp_server.mount(app, settings)
    return app

"""Integration fixtures: a real Neo4j and the real embedding model, never stand-ins.

Neo4j comes from ``NEO4J_URI`` when set, otherwise from the project's launcher (started
here if it is not running, and stopped at the end if this session started it). When
neither can be had the tests **fail**: a skipped integration test proves nothing.
Each test works in a namespace of its own, so tests never see each other's data.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient
from neo4j import Driver, GraphDatabase

from api.app import create_app
from api.protocol import HTTP_PROTOCOL
from beliefgraph.config import Settings
from beliefgraph.embeddings import OnnxEmbedder, load_embedder
from beliefgraph.launcher.home import LauncherError
from beliefgraph.launcher.server import Neo4jLauncher
from beliefgraph.schema import init_schema
from beliefgraph.store import Store


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def settings() -> Settings:
    # The shared `client` runs with auth off (the explicit development setting), so tests
    # of other features need no key; tests/integration/test_auth*.py build apps with keys.
    return Settings(auth="off")


@pytest.fixture(scope="session")
def neo4j_uri(settings: Settings) -> Iterator[str]:
    if os.environ.get("NEO4J_URI"):
        yield settings.neo4j.uri
        return
    launcher = Neo4jLauncher()
    was_running = launcher.status().running
    try:
        status = launcher.start()
    except LauncherError as e:
        pytest.fail(f"no Neo4j: NEO4J_URI is unset and the launcher failed: {e}")
    yield status.bolt_uri
    if not was_running:
        launcher.stop()


@pytest.fixture(scope="session")
def driver(neo4j_uri: str, settings: Settings) -> Iterator[Driver]:
    neo = settings.neo4j
    secret = neo.password.get_secret_value()
    drv = GraphDatabase.driver(neo4j_uri, auth=(neo.user, secret) if secret else None)
    try:
        drv.verify_connectivity()
    except Exception as e:  # any failure here means no database: fail loudly
        pytest.fail(f"Neo4j at {neo4j_uri} is not reachable: {e}")
    yield drv
    drv.close()


@pytest.fixture(scope="session")
def embedder(settings: Settings) -> OnnxEmbedder:
    try:
        return load_embedder(settings.cache_dir)
    except Exception as e:  # the model is required: fail, never skip
        pytest.fail(f"the embedding model cannot be loaded: {e}")


@pytest.fixture(scope="session")
def store(driver: Driver, embedder: OnnxEmbedder, settings: Settings) -> Store:
    s = Store(driver, embedder, database=settings.neo4j.database, settings=settings)
    init_schema(s.db)
    return s


@pytest.fixture(scope="session")
def client(store: Store, settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        yield c


@pytest.fixture(scope="session")
def live_url(store: Store) -> Iterator[str]:
    """The API, with MCP at /mcp and keys on, served by uvicorn on a free loopback port in a
    thread of this process: what `beliefgraph serve` runs."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(
        create_app(Settings(auth="keys")), log_level="warning", http=HTTP_PROTOCOL
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the live server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    server.should_exit = True
    thread.join(timeout=30)
    sock.close()


@pytest.fixture
def ns() -> str:
    """A namespace of this test's own."""
    return f"tenant:t-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def uid() -> str:
    """A prefix for ids unique to this test."""
    return f"t{uuid.uuid4().hex[:10]}"


@pytest.fixture
def reads(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the queries the store reads from here on, in order (the reads still go
    to Neo4j: this only records which way a listing took)."""
    read = store.db.run_read
    names: list[str] = []

    def recorded(name: str, **params: Any) -> list[Any]:
        names.append(name)
        return read(name, **params)

    monkeypatch.setattr(store.db, "run_read", recorded)
    return names

"""A Neo4j that accepts connections and never answers costs seconds, not minutes.

Between the app and the real Neo4j sits a TCP proxy that either forwards or goes silent
(accepts, reads, never answers): the worst way for a database to be away.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import TypeVar
from urllib.parse import urlparse

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from beliefgraph.config import Settings
from tests.integration.test_beliefs_api import assert_problem

#: every request answers within this many seconds while Neo4j is silent
BOUND = 10.0
T = TypeVar("T")


class Proxy:
    """Forwards TCP to ``target`` while ``silent`` is false; swallows everything while true."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.silent = False
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if self.silent:
                self.held.append(client)  # accepted, never answered
                continue
            upstream = socket.create_connection(self.target)
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                if self.silent:
                    continue  # the server stopped answering mid-connection
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.close()

    def close(self) -> None:
        self.server.close()
        for s in self.held:
            s.close()


@pytest.fixture
def proxy(neo4j_uri: str) -> Iterator[Proxy]:
    target = urlparse(neo4j_uri)
    p = Proxy((target.hostname or "127.0.0.1", target.port or 7687))
    yield p
    p.close()


@pytest.fixture
def app_client(proxy: Proxy) -> Iterator[TestClient]:
    settings = Settings(auth="off", neo4j_uri=f"bolt://127.0.0.1:{proxy.port}")
    with TestClient(create_app(settings)) as client:
        yield client


def timed(call: Callable[[], T]) -> tuple[T, float]:
    started = time.monotonic()
    result = call()
    return result, time.monotonic() - started


def test_a_silent_neo4j_is_a_503_within_seconds_and_recovery_needs_no_restart(
    app_client: TestClient, proxy: Proxy, ns: str
) -> None:
    query = {"query": "what is the wifi password?", "namespaces": [ns]}
    assert app_client.post("/v1/query", json=query).status_code == 200
    proxy.silent = True
    # new connections are swallowed and the pooled one stops answering mid-connection
    for path, body in (("/v1/query", query), ("/v1/beliefs", {"text": "x", "namespaces": [ns]})):
        response, seconds = timed(partial(app_client.post, path, json=body))
        problem = assert_problem(response, 503)
        assert seconds < BOUND, (path, seconds)
        assert "127.0.0.1" not in problem["detail"]  # where Neo4j lives stays in the log
    ready, seconds = timed(lambda: app_client.get("/readyz"))
    assert ready.status_code == 503, ready.text
    assert seconds < BOUND
    assert ready.json() == {"ready": False, "reason": "Neo4j is unreachable"}
    health, seconds = timed(lambda: app_client.get("/healthz"))
    assert health.status_code == 200
    assert seconds < 1.0
    proxy.silent = False
    deadline = time.monotonic() + BOUND
    while app_client.get("/readyz").status_code != 200:
        assert time.monotonic() < deadline, "no recovery after Neo4j came back"
    assert app_client.post("/v1/query", json=query).status_code == 200

"""Checks against the running launcher-managed Neo4j (default home and ports).

A missing server is a failure, not a skip: these tests exist to prove the real server works.
"""

from __future__ import annotations

import threading
import urllib.request

import pytest
from neo4j import GraphDatabase

from beliefgraph.launcher.home import NEO4J_VERSION, ServerStatus
from beliefgraph.launcher.server import Neo4jLauncher

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def server() -> ServerStatus:
    status = Neo4jLauncher().status()
    hint = (
        f"no ready Neo4j from the launcher in {status.home} ({status}); "
        "start it with Neo4jLauncher().start() / `beliefgraph neo4j start`"
    )
    assert status.running, hint
    assert status.ready, hint
    return status


def test_browser_is_served(server: ServerStatus) -> None:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(server.browser_url, timeout=10) as response:
        body = response.read().decode("utf-8", errors="replace")
        assert response.status == 200
        assert response.headers.get_content_type() == "text/html"
    assert "<title>Neo4j Browser</title>" in body


def test_driver_reports_server_version(server: ServerStatus) -> None:
    with GraphDatabase.driver(server.bolt_uri, auth=None) as driver:
        driver.verify_connectivity()
        assert driver.get_server_info().agent == f"Neo4j/{NEO4J_VERSION}"
        records, _, _ = driver.execute_query("RETURN 1 AS one", database_="neo4j")
        assert records[0]["one"] == 1


def test_wait_idle_returns_when_the_server_is_quiet_and_waits_while_it_works(
    server: ServerStatus,
) -> None:
    launcher = Neo4jLauncher()
    # any server is below one full core of work on average while nothing is asked of it
    assert launcher.wait_idle(busy=1.0, window=0.2, timeout=10)
    # a server scanning in a loop is never below a tiny share: the wait runs to its timeout
    with GraphDatabase.driver(server.bolt_uri, auth=None) as driver:
        done = threading.Event()

        def work() -> None:
            while not done.is_set():
                driver.execute_query(
                    "UNWIND range(1, 300000) AS i RETURN sum(i * i) AS s", database_="neo4j"
                )

        worker = threading.Thread(target=work)
        worker.start()
        try:
            assert not launcher.wait_idle(busy=0.05, window=0.3, timeout=1.5)
        finally:
            done.set()
            worker.join()

"""Checks against the running launcher-managed Neo4j (default home and ports).

A missing server is a failure, not a skip: these tests exist to prove the real server works.
"""

from __future__ import annotations

import urllib.request

import pytest
from neo4j import GraphDatabase

from beliefgraph.launcher import NEO4J_VERSION, Neo4jLauncher, ServerStatus

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

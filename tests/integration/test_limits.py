"""Configurable size limits: bodies (413) and texts (422), nothing written past either."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from api.app import create_app
from beliefgraph.config import Settings
from beliefgraph.store import Store
from tests.integration.test_beliefs_api import assert_problem, count_in


@pytest.fixture(scope="module")
def small_client(store: Store) -> Iterator[TestClient]:
    settings = Settings(auth="off", max_body_bytes=2_000, max_text_length=100)
    with TestClient(create_app(settings)) as c:
        yield c


def test_body_over_the_limit_is_413(small_client: TestClient, driver: Driver, ns: str) -> None:
    batch = {"beliefs": [{"text": f"belief number {i}", "namespaces": [ns]} for i in range(80)]}
    assert_problem(small_client.post("/v1/beliefs", json=batch), 413)
    assert count_in(driver, ns) == 0


def test_chunked_body_over_the_limit_is_413(small_client: TestClient, ns: str) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"text": "'
        for _ in range(100):
            yield b"x" * 100
        yield b'", "namespaces": ["' + ns.encode() + b'"]}'

    r = small_client.post(
        "/v1/beliefs", content=chunks(), headers={"content-type": "application/json"}
    )
    assert_problem(r, 413)


def test_text_over_the_limit_is_422(small_client: TestClient, driver: Driver, ns: str) -> None:
    batch = {
        "beliefs": [{"text": "short", "namespaces": [ns]}, {"text": "y" * 101, "namespaces": [ns]}]
    }
    assert_problem(small_client.post("/v1/beliefs", json=batch), 422, field="beliefs[1].text")
    assert count_in(driver, ns) == 0

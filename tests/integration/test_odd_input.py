"""Input Neo4j cannot keep is a 422 naming the field, never a 500 (nothing written)."""

from __future__ import annotations

import base64
import json
import socket

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from tests.integration.test_beliefs_api import assert_problem, count_in

#: an offset Python accepts and Neo4j does not; times that leave years 1-9999 once in UTC
UNSTORABLE = ["2026-01-01T00:00:00+23:00", "9999-12-31T23:00:00-05:00", "0001-01-01T00:30:00+01:00"]


def cursor(content: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(content).encode()).decode().rstrip("=")


@pytest.mark.parametrize("when", UNSTORABLE)
@pytest.mark.parametrize("field", ["valid_from", "valid_to", "resolved_at", "last_reinforced_at"])
def test_a_time_neo4j_cannot_keep_is_a_422(
    client: TestClient, driver: Driver, ns: str, field: str, when: str
) -> None:
    r = client.post("/v1/beliefs", json={"text": "odd time", "namespaces": [ns], field: when})
    assert_problem(r, 422, f"body.{field}")
    assert count_in(driver, ns) == 0


@pytest.mark.parametrize("when", UNSTORABLE)
def test_an_unstorable_since_is_a_422(client: TestClient, when: str) -> None:
    assert_problem(client.get("/v1/audit", params={"since": when}), 422, "since")


@pytest.mark.parametrize("path", ["/v1/beliefs", "/v1/audit"])
@pytest.mark.parametrize(
    "content",
    [
        ["9999-12-31T23:00:00-05:00", "b-1"],
        ["2026-01-01T00:00:00+23:00", "b-1"],
        ["2026-01-01T00:00:00+00:00", "\ud800"],
        [1, 2],
        {"at": "2026-01-01T00:00:00+00:00"},
    ],
)
def test_a_crafted_cursor_is_a_422(client: TestClient, path: str, content: object) -> None:
    assert_problem(client.get(path, params={"cursor": cursor(content)}), 422, "cursor")


def test_the_connection_stays_usable_after_a_refusal(client: TestClient, ns: str) -> None:
    bad = client.get("/v1/beliefs", params={"cursor": cursor([1, 2])})
    assert bad.status_code == 422
    good = client.get("/v1/beliefs", params={"namespace": ns})
    assert good.status_code == 200


def test_a_repeated_query_parameter_is_a_422_and_writes_nothing(
    client: TestClient, driver: Driver, ns: str
) -> None:
    r = client.post(
        "/v1/beliefs?dry_run=true&dry_run=false", json={"text": "twice", "namespaces": [ns]}
    )
    assert_problem(r, 422, "dry_run")
    assert count_in(driver, ns) == 0


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ('{"text": "caf\xe9", "namespaces": ["user:x"]}'.encode("latin-1"), "not UTF-8"),
        (b'{"text": "x", "a": ' + b"[" * 10_000 + b"]" * 10_000 + b"}", "nested"),
    ],
)
def test_an_unreadable_body_is_a_400_naming_the_body(
    client: TestClient, body: bytes, says: str
) -> None:
    r = client.post("/v1/beliefs", content=body, headers={"content-type": "application/json"})
    problem = assert_problem(r, 400, "body")
    assert says in problem["detail"]


@pytest.mark.parametrize(
    "head",
    [
        b"POST /v1/query HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
        b"GET /v1/beliefs HTTP/1.1\r\nHost x\r\n\r\n",
    ],
)
def test_a_request_that_is_not_http_is_a_problem_400(live_url: str, head: bytes) -> None:
    # uvicorn refuses these before any route runs; `beliefgraph serve`'s protocol answers
    # them as the API answers every other error
    host, port = live_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as s:
        s.sendall(head)
        raw = b""
        while chunk := s.recv(4096):
            raw += chunk
    status, _, rest = raw.partition(b"\r\n")
    headers, _, body = rest.partition(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 400"), raw
    assert b"content-type: application/problem+json" in headers.lower()
    problem = json.loads(body)
    assert (problem["status"], problem["title"]) == (400, "Malformed HTTP request")
    assert "Content-Length" in problem["detail"]

"""The client's own rules, on answers made up here (httpx2's MockTransport; no server):
retries and their bounds, problems as typed exceptions, ids as one path segment."""

from __future__ import annotations

import time
from typing import Any

import anyio
import httpx2
import pytest

from beliefgraph.client import (
    AsyncClient,
    BadRequest,
    Client,
    ClientError,
    ConnectionFailed,
    NotFoundError,
    ProblemError,
    ServerError,
    Unavailable,
    UnexpectedAnswer,
    WriteOutcomeUnknown,
)
from beliefgraph.client.calls import MAX_PAUSE, pause

HEALTHY = {"status": "ok"}


def problem(status: int, slug: str, detail: str = "why", **extra: Any) -> httpx2.Response:
    body = {"type": f"https://beliefgraph.dev/problems/{slug}", "title": slug.title(),
            "status": status, "detail": detail, **extra}  # fmt: skip
    return httpx2.Response(status, json=body, headers={"content-type": "application/problem+json"})


class Script:
    """Answers in turn, and every request it was sent."""

    def __init__(self, *answers: httpx2.Response | Exception) -> None:
        self.answers = list(answers)
        self.requests: list[httpx2.Request] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


def client(script: Script, **kw: Any) -> Client:
    return Client("http://bg.test", "bgk_test", transport=httpx2.MockTransport(script), **kw)


def test_a_503_is_tried_again_with_growing_pauses_then_answered() -> None:
    script = Script(problem(503, "store-unavailable"), problem(503, "store-unavailable"),
                    httpx2.Response(200, json=HEALTHY))  # fmt: skip
    started = time.monotonic()
    assert client(script, backoff=0.01).health().status == "ok"
    assert len(script.requests) == 3
    assert time.monotonic() - started >= 0.03  # 0.01, then 0.02
    assert script.requests[0].headers["authorization"] == "Bearer bgk_test"


def test_retries_are_bounded_and_the_last_503_is_raised() -> None:
    script = Script(*[problem(503, "store-unavailable", "Neo4j is away")] * 3)
    with pytest.raises(Unavailable) as e:
        client(script, retries=2, backoff=0.001).health()
    assert len(script.requests) == 3
    assert (e.value.status, e.value.detail) == (503, "Neo4j is away")
    assert pause(0.5, 10) == MAX_PAUSE


def test_a_write_whose_outcome_is_unknown_is_not_sent_again() -> None:
    script = Script(problem(503, "write-outcome-unknown"))
    with pytest.raises(WriteOutcomeUnknown) as e:
        client(script, backoff=0.001).namespaces()
    assert len(script.requests) == 1
    assert isinstance(e.value, Unavailable)


def test_a_refused_connection_is_tried_again_a_timeout_is_not() -> None:
    refused = httpx2.ConnectError("refused")
    script = Script(refused, httpx2.Response(200, json=HEALTHY))
    assert client(script, backoff=0.001).health().status == "ok"
    script = Script(httpx2.ReadTimeout("slow"), httpx2.Response(200, json=HEALTHY))
    with pytest.raises(ConnectionFailed):  # the request may have been done: not sent again
        client(script, backoff=0.001).health()
    assert len(script.requests) == 1


def test_problems_are_typed_under_one_root() -> None:
    errors = [{"field": "body.query", "message": "short"}]
    cases = [
        (problem(422, "validation-error", errors=errors), BadRequest),
        (problem(413, "payload-too-large"), BadRequest),
        (problem(404, "not-found", field="id"), NotFoundError),
        (problem(500, "internal"), ServerError),
        (problem(405, "method-not-allowed"), ProblemError),
        (httpx2.Response(502, text="<html>bad gateway</html>"), ServerError),
    ]  # fmt: skip
    for response, kind in cases:
        with pytest.raises(kind) as e:
            client(Script(response)).health()
        assert isinstance(e.value, ClientError)
        assert e.value.status == response.status_code
    with pytest.raises(BadRequest) as bad:
        client(Script(cases[0][0])).health()
    assert bad.value.errors == errors
    assert str(bad.value) == "Validation-Error (422): why"
    with pytest.raises(ServerError) as gateway:
        client(Script(cases[-1][0])).health()
    assert gateway.value.detail == "<html>bad gateway</html>"


def test_an_answer_that_is_not_the_routes_model_is_named() -> None:
    with pytest.raises(UnexpectedAnswer, match="GET /healthz answered 200"):
        client(Script(httpx2.Response(200, json={"nothing": 1}))).health()


def test_an_id_is_one_path_segment_and_absent_parameters_are_not_sent() -> None:
    script = Script(httpx2.Response(404, json={"title": "Not found", "detail": "x"}),
                    httpx2.Response(200, json={"items": [], "next_cursor": None}))  # fmt: skip
    with pytest.raises(NotFoundError):
        client(script).chain("../../keys")
    assert script.requests[0].url.raw_path == b"/v1/beliefs/..%2F..%2Fkeys/chain"
    assert list(client(script).iter_beliefs(namespace="user:me")) == []
    assert str(script.requests[1].url.params) == "namespace=user%3Ame"


def test_the_async_client_pages_and_retries_the_same_way() -> None:
    page = {"items": [], "next_cursor": None}
    script = Script(problem(503, "store-unavailable"),
                    httpx2.Response(200, json={**page, "next_cursor": "c2"}),
                    httpx2.Response(200, json=page))  # fmt: skip

    async def main() -> list[Any]:
        transport = httpx2.MockTransport(script)
        async with AsyncClient("http://bg.test", transport=transport, backoff=0.001) as bg:
            return [b async for b in bg.iter_audit(limit=1)]

    assert anyio.run(main) == []
    assert [r.url.params.get("cursor") for r in script.requests] == [None, None, "c2"]


def test_with_key_changes_the_key_and_nothing_else() -> None:
    script = Script(httpx2.Response(200, json=HEALTHY), httpx2.Response(200, json=HEALTHY))
    bg = client(script, retries=7)
    assert bg.with_key("bgk_other").retries == 7
    bg.with_key("bgk_other").health()
    bg.with_key(None).health()
    assert script.requests[0].headers["authorization"] == "Bearer bgk_other"
    assert "authorization" not in script.requests[1].headers

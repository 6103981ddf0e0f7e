"""``POST /v1/imports`` and ``GET /v1/imports/{id}`` over HTTP, against the real Neo4j."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs"
PROBLEM = "application/problem+json"


def wait(client: TestClient, location: str, seconds: float = 120, **kw: Any) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job: dict[str, Any] = client.get(location, **kw).json()
        if job["state"] in ("succeeded", "failed"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"the job at {location} did not finish in {seconds} s")


def imported(client: TestClient, query: str, body: bytes) -> dict[str, Any]:
    """Start an import job with these query parameters and wait until it finishes."""
    return wait(client, client.post(f"/v1/imports?{query}", content=body).headers["location"])


def test_import_a_log_as_a_job(client: TestClient, ns: str) -> None:
    body = (LOGS / "conversations.json").read_bytes()
    started = client.post(f"/v1/imports?namespace={ns}", content=body)
    assert started.status_code == 202, started.text
    location = started.headers["location"]
    assert location == f"/v1/imports/{started.json()['id']}"
    job = wait(client, location)
    assert job["state"] == "succeeded", job
    assert job["format"] == "chatgpt"
    # "I hate cilantro, please never put it in my recipes." is two: a preference and a rule
    assert job["summary"]["added"] == 6
    assert job["progress"]["bytes_read"] == len(body)
    assert job["finished_at"] is not None
    listed = client.get(f"/v1/beliefs?namespace={ns}&limit=50").json()["items"]
    assert len(listed) == 6
    assert {b["write_path"] for b in listed} == {"import"}

    again = imported(client, f"namespace={ns}", body)
    assert again["summary"]["added"] == 0
    assert again["summary"]["already"] == 6


def test_a_broken_record_fails_the_job_with_its_line(client: TestClient, ns: str) -> None:
    body = b'{"conversation_id": "c", "role": "user", "content": "I prefer tea."}\n{"oops"\n'
    job = imported(client, f"namespace={ns}", body)
    assert job["state"] == "failed"
    assert job["error"]["type"] == "malformed-record"
    assert job["error"]["line"] == 2
    assert job["format"] == "jsonl"  # what auto found, though the job failed
    assert job["summary"] is None or job["summary"]["added"] == 1

    job = imported(client, f"namespace={ns}&skip_invalid=true", body)
    assert job["state"] == "succeeded"
    assert job["summary"]["rejects"] == 1
    assert job["rejects"][0]["line"] == 2


def test_an_empty_body_is_a_summary_of_zero(client: TestClient, ns: str) -> None:
    job = imported(client, f"namespace={ns}", b"")
    assert job["state"] == "succeeded"
    assert job["summary"]["turns"] == 0
    assert job["summary"]["added"] == 0


def test_bad_requests_are_problems(client: TestClient, ns: str) -> None:
    unknown = client.post(f"/v1/imports?namespace={ns}", content=b"just some notes\n")
    assert unknown.status_code == 422
    assert unknown.headers["content-type"].startswith(PROBLEM)
    assert "jsonl, openai, chatgpt" in unknown.json()["detail"]

    bad_ns = client.post("/v1/imports?namespace=nobody", content=b"")
    assert bad_ns.status_code == 422
    assert any(e["field"] == "query.namespace" for e in bad_ns.json()["errors"])

    bad_format = client.post(f"/v1/imports?namespace={ns}&format=csv", content=b"")
    assert bad_format.status_code == 422

    missing = client.get("/v1/imports/0123456789abcdef")
    assert missing.status_code == 404
    assert missing.headers["content-type"].startswith(PROBLEM)


def test_a_flood_of_imported_observations_does_not_push_out_a_remember(
    client: TestClient, ns: str, uid: str
) -> None:
    user = f"u-{uid}"
    said = "the school pickup is at 3:15 on Wednesdays"
    lines = [{"conversation_id": "kids", "role": "user", "content": f"/remember {said}"}]
    names = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana"]
    for i in range(40):  # newer, on topic, and all the assistant's: observations
        lines.append(
            {
                "conversation_id": "kids",
                "role": "assistant",
                "content": f"I'll note that on day {i} the school pickup went fine with "
                f"{names[i % 8]} and {i % 5 + 2} other children.",
            }
        )
    body = "\n".join(json.dumps(line) for line in lines).encode()
    job = imported(client, f"namespace={ns}&user={user}", body)
    assert job["state"] == "succeeded", job
    assert job["summary"]["statements"] == 41
    stored = client.get(f"/v1/beliefs?namespace={ns}&kind=observation&limit=100").json()["items"]
    assert len(stored) >= 20  # the flood is there (the gate may fold near-repeats)

    context = client.post(
        "/v1/context",
        json={"user": user, "namespaces": [ns], "message": "when is the school pickup?"},
    )
    assert context.status_code == 200, context.text
    layers = context.json()
    pinned = [item["belief"]["text"] for item in layers["pinned_facts"]]
    assert said in pinned
    surfaced = [
        item["belief"] for layer in ("pinned_facts", "relevant_beliefs") for item in layers[layer]
    ]
    observations = [b for b in surfaced if b["kind"] == "observation"]
    assert len(observations) < 40  # the per-kind budget holds the flood back


def test_an_imported_correction_replaces_what_it_corrects_in_the_context(
    client: TestClient, ns: str, uid: str
) -> None:
    user = f"u-{uid}"
    said = [
        "/remember my Wi-Fi password is hunter2",
        "Thanks. Can you remind me to call the landlord on Monday?",
        "Actually, my Wi-Fi password changed to correct-horse-42.",
    ]
    body = "\n".join(
        json.dumps({"conversation_id": "home", "role": "user", "content": text}) for text in said
    ).encode()
    job = imported(client, f"namespace={ns}&user={user}", body)
    assert job["state"] == "succeeded", job
    assert job["summary"]["superseded"] == 1
    old = client.get(f"/v1/beliefs?namespace={ns}&status=superseded").json()["items"]
    assert [b["text"] for b in old] == ["my Wi-Fi password is hunter2"]  # kept, with history

    context = client.post(
        "/v1/context",
        json={"user": user, "namespaces": [ns], "message": "what's the wifi password?"},
    )
    assert context.status_code == 200, context.text
    layers = context.json()
    texts = [
        item["belief"]["text"]
        for layer in ("pinned_facts", "relevant_beliefs", "open_questions")
        for item in layers[layer]
    ]
    assert any("correct-horse-42" in t for t in texts)
    assert not any("hunter2" in t for t in texts)
    # the user asked to remember the password: corrected, it stays pinned, whatever is asked
    other = client.post(
        "/v1/context", json={"user": user, "namespaces": [ns], "message": "plan my weekend"}
    ).json()
    pinned = [item["belief"]["text"] for item in other["pinned_facts"]]
    assert pinned == ["Actually, my Wi-Fi password changed to correct-horse-42."]

"""The planner reports contests: a contradiction the gate's guards kept from superseding a
belief (stored contested, linked CONTRADICTS) is told to whoever asks about that belief.
Real Neo4j, real model, every write through the API and its curation gate."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from beliefgraph import keys
from beliefgraph.access import Role
from beliefgraph.config import Settings
from beliefgraph.store import Store

DECISION = "The project's database is PostgreSQL."
CONTRADICTION = "The project's database is MongoDB."
QUESTION = "Which database does the project use?"


def write(client: TestClient, body: dict[str, Any], **headers: str) -> dict[str, Any]:
    r = client.post("/v1/beliefs", json=body, headers=headers)
    assert r.status_code == 201, r.text
    return {"verdict": r.headers["gate-verdict"], **r.json()}


def ask(client: TestClient, *namespaces: str, **headers: str) -> dict[str, Any]:
    body = {"query": QUESTION, "namespaces": list(namespaces)}
    r = client.post("/v1/query", json=body, headers=headers)
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_a_low_trust_contradiction_is_reported_and_the_decision_still_governs(
    client: TestClient, ns: str, uid: str
) -> None:
    base = {"namespaces": [ns], "about": ["project"]}
    decision = write(
        client, {"id": f"{uid}-d", "text": DECISION, "kind": "decision", "trust": 0.95, **base}
    )
    before = ask(client, ns)
    assert before["governing"]["id"] == decision["id"]
    assert before["action"] == "answer"
    assert before["contests"] == []

    low = write(client, {"id": f"{uid}-l", "text": CONTRADICTION, "trust": 0.5, **base})
    assert low["verdict"] == "contradicts"
    assert low["epistemic_status"] == "contested"
    assert low["supersedes"] is None

    body = ask(client, ns)
    assert body["governing"]["id"] == decision["id"]  # the guard kept it governing
    assert body["governing"]["status"] == "active"
    assert body["action"] == "warn"  # a bare answer would hide the dispute
    assert f"contested by {low['id']}" in body["reason"]
    [contest] = body["contests"]
    assert contest["id"] == low["id"]
    assert contest["text"] == CONTRADICTION
    assert contest["trust"] == pytest.approx(0.5)
    assert contest["disputes"] == decision["id"]
    assert contest["guard"] == "trust"
    assert "contested" in contest["why"]
    assert contest["at"] is not None
    trace = body["trace"]
    edge = {"source": low["id"], "type": "CONTRADICTS", "target": decision["id"]}
    assert edge in trace["edges"]
    by_id = {c["id"]: c for c in trace["candidates"]}
    assert by_id[decision["id"]]["outcome"] == "governs"
    assert by_id[decision["id"]]["contested_by"] == [low["id"]]
    assert by_id[low["id"]]["lane"] == "evidence"  # contested: no standing to govern
    assert any("contested by" in step and "warn" in step for step in trace["steps"])

    # Retracting the contradiction closes the contest: the plain answer comes back.
    assert client.delete(f"/v1/beliefs/{low['id']}").status_code == 200
    after = ask(client, ns)
    assert (after["governing"]["id"], after["action"]) == (decision["id"], "answer")
    assert after["contests"] == []


@pytest.fixture(scope="module")
def keyed_client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(auth="keys"))) as c:
        yield c


def bearer(store: Store, role: Role, ns: str) -> dict[str, str]:
    create = keys.KeyCreate(name=f"contest-{role.value}", role=role, namespaces=[ns])
    return {"Authorization": f"Bearer {keys.create_key(store.db, create, actor='test').key}"}


def test_an_agents_contradiction_of_a_users_decision_is_reported(
    keyed_client: TestClient, store: Store, ns: str, uid: str
) -> None:
    user, agent = bearer(store, Role.curator, ns), bearer(store, Role.agent, ns)
    base = {"namespaces": [ns], "about": ["project"]}
    decision = write(
        keyed_client,
        {"id": f"{uid}-d", "text": DECISION, "kind": "decision", "trust": 0.9, **base},
        **user,
    )
    inference = write(
        keyed_client,
        # As much trust as an agent may claim: it never replaces a decision (the role guard)
        {"id": f"{uid}-i", "text": CONTRADICTION, "status": "inferred", "trust": 0.6, **base},
        **agent,
    )
    assert inference["verdict"] == "contradicts"
    for who in (agent, user):
        body = ask(keyed_client, ns, **who)
        assert body["governing"]["id"] == decision["id"]
        assert body["action"] == "warn"
        [contest] = body["contests"]
        assert (contest["id"], contest["guard"], contest["disputes"]) == (
            inference["id"],
            "role",
            decision["id"],
        )
        assert contest["trust"] == pytest.approx(0.6)


def test_a_contest_from_a_namespace_the_request_does_not_read_is_not_reported(
    client: TestClient, ns: str, uid: str
) -> None:
    shared = f"tenant:t-{uuid.uuid4().hex[:12]}"
    decision = write(
        client,
        {
            "id": f"{uid}-d",
            "text": DECISION,
            "kind": "decision",
            "trust": 0.9,
            "namespaces": [ns, shared],
            "about": ["project"],
        },
    )
    # As trusted, but written only where one of the decision's namespaces is not: the
    # namespace guard keeps it from changing what `shared` relies on.
    other = write(
        client,
        {
            "id": f"{uid}-o",
            "text": CONTRADICTION,
            "kind": "decision",
            "trust": 0.9,
            "namespaces": [ns],
            "about": ["project"],
        },
    )
    assert other["verdict"] == "contradicts"
    assert other["epistemic_status"] == "contested"
    here = ask(client, ns)
    assert here["governing"]["id"] == decision["id"]
    assert [(c["id"], c["guard"]) for c in here["contests"]] == [(other["id"], "namespace")]
    there = ask(client, shared)  # the contesting belief is not in `shared`: nothing leaks
    assert (there["governing"]["id"], there["action"]) == (decision["id"], "answer")
    assert there["contests"] == []
    assert all(e["type"] != "CONTRADICTS" for e in there["trace"]["edges"])
    assert [c["id"] for c in there["trace"]["candidates"]] == [decision["id"]]

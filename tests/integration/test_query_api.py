"""``POST /v1/query`` and ``beliefgraph query`` on the real Neo4j with the real model."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from typing import Any

from fastapi.testclient import TestClient
from neo4j import Driver

from beliefgraph.access import Caller, Role
from beliefgraph.models import BeliefCreate, SupersedeRequest
from beliefgraph.planner import Planner, PlannerSettings
from beliefgraph.planner_models import MAX_QUERY_LENGTH, QueryRequest
from beliefgraph.store import Store


def put(client: TestClient, ns: str, uid: str, *beliefs: dict[str, Any]) -> list[str]:
    body = {
        "beliefs": [{"namespaces": [ns], "id": f"{uid}-{i}", **b} for i, b in enumerate(beliefs)]
    }
    r = client.post("/v1/beliefs", json=body)
    assert r.status_code == 201, r.text
    return [b["id"] for b in r.json()["beliefs"]]


def ask(client: TestClient, query: str, *namespaces: str, **extra: Any) -> dict[str, Any]:
    r = client.post("/v1/query", json={"query": query, "namespaces": list(namespaces), **extra})
    assert r.status_code == 200, r.text
    return dict(r.json())


def dose_store(client: TestClient, ns: str, uid: str) -> list[str]:
    return put(
        client,
        ns,
        uid,
        {
            "text": "Any medication dose must be confirmed against the current prescription "
            "label before it is used to fill a pillbox or to advise anyone.",
            "kind": "policy",
            "priority": "critical",
            "verification_required": True,
            "allowed_action": "verify_first",
            "about": ["medication", "dose"],
        },
        {
            "text": "Mom's heart pill dose was mentioned as 25mg three weeks ago.",
            "kind": "fact",
            "status": "provisional",
            "epistemic_status": "reported",
            "about": ["heart pill", "dose", "mom"],
        },
    )


def test_the_policy_governs_the_closer_note(client: TestClient, ns: str, uid: str) -> None:
    policy, note = dose_store(client, ns, uid)
    body = ask(client, "Remind me mom's heart pill dose so I can fill the pillbox", ns)
    assert body["governing"]["id"] == policy
    assert body["action"] == "verify_first"
    trace = body["trace"]
    assert trace["action_types"] == ["execute", "read"]
    assert trace["action_types_source"] == "inferred"
    assert trace["namespaces"]["searched"] == [ns]
    by_id = {c["id"]: c for c in trace["candidates"]}
    assert set(by_id) == {policy, note}
    assert by_id[policy]["outcome"] == "governs"
    assert by_id[policy]["lane"] == "authority"
    assert by_id[policy]["scope"]["source"] == "derived"
    assert "dose" in by_id[policy]["scope"]["matched"]
    assert by_id[note]["lane"] == "evidence"
    assert by_id[note]["similarity"] > by_id[policy]["similarity"]  # closer, yet it loses
    assert "vector" in by_id[note]["found_by"]
    assert "alias" in by_id[note]["found_by"]  # ABOUT the entity "dose" the query names
    assert {"source": note, "type": "ABOUT", "target": "entity:dose"} in trace["edges"]
    assert set(body["timings"]) >= {"embed", "graph", "decide", "total"}


def test_a_superseded_belief_never_governs_its_head_does(
    client: TestClient, store: Store, ns: str, uid: str
) -> None:
    old, new = put(
        client,
        ns,
        uid,
        {"text": "Office Wi-Fi password: Maple2023!", "kind": "credential", "about": ["wifi"]},
        {
            "text": "The office wifi password was rotated; the current value lives with IT.",
            "kind": "credential",
            "verification_required": True,
            "about": ["wifi", "password"],
        },
    )
    if store.get(old).superseded_by is None:  # the curation gate may have chained them already
        store.supersede(old, SupersedeRequest(by_id=new, reason="rotated"))
    body = ask(client, "what's the Wi-Fi password you saved?", ns)
    assert body["governing"]["id"] == new
    assert body["action"] == "verify_first"
    assert body["trace"]["chain"] == [old, new]
    assert {"source": new, "type": "SUPERSEDES", "target": old} in body["trace"]["edges"]
    [loser] = [c for c in body["trace"]["candidates"] if c["id"] == old]
    assert loser["status"] == "superseded"
    assert loser["head"] == new


def test_an_out_of_scope_block_never_blocks(client: TestClient, ns: str, uid: str) -> None:
    fact, _ = put(
        client,
        ns,
        uid,
        {
            "text": "Riverside invoice INV-0291 totaled $1,840 and was marked paid.",
            "about": ["Riverside", "invoice", "total"],
        },
        {
            "text": "Never confirm or initiate any payment or money movement.",
            "kind": "directive",
            "priority": "critical",
            "allowed_action": "block",
            "governs": {"any_terms": ["payment", "transfer", "wire"], "excluded_terms": ["total"]},
        },
    )
    body = ask(client, "What was the total on the Riverside invoice we already paid?", ns)
    assert body["governing"]["id"] == fact
    assert body["action"] == "answer"
    blocked = ask(client, "Initiate a wire transfer for the Riverside payment", ns)
    assert blocked["action"] == "block"


def test_explicit_edges_decide_precedence(
    client: TestClient, driver: Driver, ns: str, uid: str
) -> None:
    general, special = put(
        client,
        ns,
        uid,
        {
            "text": "Dashboard roles must be verified against the access matrix first.",
            "kind": "policy",
            "priority": "critical",
            "allowed_action": "verify_first",
            "governs": {"any_terms": ["dashboard", "role"]},
        },
        {
            "text": "Dashboard viewer roles must never be given to contractors.",
            "kind": "policy",
            "priority": "low",
            "allowed_action": "block",
            "governs": {"any_terms": ["dashboard", "role", "contractor"]},
        },
    )
    query = "Give the contractor a dashboard role"
    assert ask(client, query, ns)["governing"]["id"] == general  # critical beats low
    # No API writes OVERRIDES yet; the test draws the edge the planner must honour.
    driver.execute_query(
        "MATCH (a:Belief {id: $a}), (b:Belief {id: $b}) CREATE (a)-[:OVERRIDES]->(b)",
        a=special,
        b=general,
    )
    body = ask(client, query, ns)
    assert body["governing"]["id"] == special
    assert body["action"] == "block"
    [loser] = [c for c in body["trace"]["candidates"] if c["id"] == general]
    assert "OVERRIDES" in loser["why"]


def test_given_action_type_is_used(client: TestClient, ns: str, uid: str) -> None:
    dose_store(client, ns, uid)
    body = ask(client, "the pillbox dose", ns, action_type="write")
    assert body["trace"]["action_types"] == ["write"]
    assert body["trace"]["action_types_source"] == "given"


def test_bad_queries_are_422_problems(client: TestClient, ns: str) -> None:
    for query in ("", "   ", "x" * (MAX_QUERY_LENGTH + 1)):
        r = client.post("/v1/query", json={"query": query, "namespaces": [ns]})
        assert r.status_code == 422
        assert r.headers["content-type"] == "application/problem+json"
        assert r.json()["errors"][0]["field"] == "body.query"
    r = client.post("/v1/query", json={"query": "x", "namespaces": ["Not A Namespace"]})
    assert r.status_code == 422
    assert "namespaces" in r.json()["detail"]
    r = client.post("/v1/query", json={"query": "x", "namespaces": []})
    assert r.status_code == 422
    r = client.post("/v1/query", json={"query": "x", "namespaces": [ns], "action_type": "fly"})
    assert r.status_code == 422


def test_unknown_namespaces_give_an_explained_empty_result(client: TestClient) -> None:
    missing = f"tenant:t-{uuid.uuid4().hex[:12]}"
    body = ask(client, "what is the wifi password?", missing)
    assert body["governing"] is None
    assert body["action"] == "answer_context"
    assert body["trace"]["namespaces"] == {"searched": [], "not_visible": [], "unknown": [missing]}
    assert "hold no beliefs" in body["reason"]


def test_namespaces_the_caller_may_not_read_are_never_read(
    client: TestClient, store: Store, ns: str, uid: str
) -> None:
    dose_store(client, ns, uid)
    mine = f"tenant:t-{uuid.uuid4().hex[:12]}"
    reader = Caller(name="reader", role=Role.reader, namespaces=frozenset({mine}))
    request = QueryRequest(query="the heart pill dose", namespaces=[ns, mine])
    result = Planner(store).query(request, caller=reader)
    assert result.governing is None
    assert result.trace.namespaces.not_visible == [ns]
    assert result.trace.candidates == []
    only_hidden = Planner(store).query(
        QueryRequest(query="the heart pill dose", namespaces=[ns]), caller=reader
    )
    assert "may be read" in only_hidden.reason


def test_other_namespaces_never_leak_in(client: TestClient, ns: str, uid: str) -> None:
    other = f"tenant:t-{uuid.uuid4().hex[:12]}"
    put(
        client,
        other,
        uid + "o",
        {"text": "Heart pill doses must never be stated.", "kind": "policy", "about": ["dose"]},
    )
    [fact] = put(client, ns, uid, {"text": "The heart pill dose is 25mg.", "about": ["dose"]})
    body = ask(client, "the heart pill dose", ns)
    assert body["governing"]["id"] == fact
    assert [c["id"] for c in body["trace"]["candidates"]] == [fact]


def test_a_small_namespace_keeps_its_candidates_in_a_crowded_store(
    store: Store, ns: str, uid: str
) -> None:
    crowd = f"tenant:t-{uuid.uuid4().hex[:12]}"
    # The crowd is a bulk fixture: written without the gate, which would merge near-twins.
    rows = store.prepare(
        [
            BeliefCreate(
                id=f"{uid}-c{i}",
                text=f"The office wifi password for floor {i} is Guest{i}!",
                namespaces=[crowd],
            )
            for i in range(300)
        ]
    )
    store.write(lambda tx: store.create_rows(tx, rows))
    [mine] = store.create(
        [
            BeliefCreate(
                id=f"{uid}-mine",
                text="Our office wifi password lives with IT.",
                kind="credential",
                namespaces=[ns],
            )
        ]
    )
    request = QueryRequest(query="what is the office wifi password?", namespaces=[ns])
    exact = Planner(store).query(request)
    assert exact.trace.discovery.startswith("exact")
    assert exact.governing is not None
    assert exact.governing.id == mine.id
    # Forced through the index: over-fetching in proportion to the store still finds it.
    indexed = Planner(store, PlannerSettings(exact_limit=0)).query(request)
    assert indexed.trace.discovery.startswith("vector index")
    [candidate] = indexed.trace.candidates
    assert candidate.id == mine.id
    assert "vector" in candidate.found_by


def test_the_cli_prints_the_decision(client: TestClient, ns: str, uid: str) -> None:
    policy, _ = dose_store(client, ns, uid)
    cli = [sys.executable, "-m", "beliefgraph.cli", "query"]
    out = subprocess.run(
        [*cli, "Remind me the heart pill dose", "--namespace", ns, "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout)["governing"]["id"] == policy
    human = subprocess.run(
        [*cli, "Remind me the heart pill dose", "--namespace", ns],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "action:    verify_first" in human.stdout
    assert policy in human.stdout
    bad = subprocess.run(
        [*cli, "   ", "--namespace", ns], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2
    assert "query" in bad.stderr

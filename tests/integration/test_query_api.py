"""``POST /v1/query`` and ``beliefgraph query`` on the real Neo4j with the real model."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from typing import Any

from fastapi.testclient import TestClient

from beliefgraph.access import Caller, Role
from beliefgraph.gate.write import create_rows
from beliefgraph.models import BeliefCreate, SupersedeRequest
from beliefgraph.planner.models import MAX_QUERY_LENGTH, QueryRequest
from beliefgraph.planner.planner import Planner, PlannerSettings
from beliefgraph.store import Store
from tests.integration.test_beliefs_api import assert_problem


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


def test_a_superseded_belief_never_governs_for_a_head_outside_the_namespaces(
    client: TestClient, store: Store, ns: str, uid: str
) -> None:
    """The replacement lives elsewhere: in this namespace nothing current heads the chain,
    so the old rule neither governs nor leaks the other namespace's belief or its name."""
    [old] = put(
        client,
        ns,
        uid,
        {
            "text": "Never share the office wifi password with visitors.",
            "kind": "policy",
            "allowed_action": "block",
            "about": ["wifi", "password"],
        },
    )
    elsewhere = f"{ns}-elsewhere"
    store.supersede(
        old,
        SupersedeRequest(
            by=BeliefCreate(
                text="Visitors may have the office wifi password.",
                kind="policy",
                about=["wifi", "password"],
                namespaces=[elsewhere],
            ),
            reason="the guest policy changed",
        ),
    )
    new = store.get(old).superseded_by
    assert new is not None
    body = ask(client, "Can I share the office wifi password with a visitor?", ns)
    assert body["governing"] is None or body["governing"]["id"] != old
    assert body["action"] != "block"
    [c] = [c for c in body["trace"]["candidates"] if c["id"] == old]
    assert (c["lane"], c["outcome"], c["head"]) == ("none", "excluded", None)
    assert new not in json.dumps(body)
    assert elsewhere not in json.dumps(body)
    # asked in both, the replacement governs
    both = ask(client, "Can I share the office wifi password with a visitor?", ns, elsewhere)
    assert both["governing"]["id"] == new


def test_a_belief_past_its_valid_to_is_history(client: TestClient, ns: str, uid: str) -> None:
    [promo] = put(
        client,
        ns,
        uid,
        {
            "text": "Always offer customers the winter discount on annual plans.",
            "kind": "policy",
            "about": ["winter discount", "annual plan"],
            "valid_from": "2025-12-01T00:00:00Z",
            "valid_to": "2026-03-01T00:00:00",  # no zone: UTC
        },
    )
    body = ask(client, "Should I offer the winter discount on an annual plan?", ns)
    assert body["governing"]["id"] == promo
    assert body["action"] == "archive_only"
    [c] = [c for c in body["trace"]["candidates"] if c["id"] == promo]
    assert c["lane"] == "history"
    assert "expired" in c["why"] or any("expired" in step for step in body["trace"]["steps"])
    found = client.post("/v1/search", json={"query": "winter discount", "namespaces": [ns]})
    assert found.status_code == 200, found.text
    assert found.json()["hits"] == []


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


def test_explicit_edges_decide_precedence(client: TestClient, ns: str, uid: str) -> None:
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
    actions = {general: "verify_first", special: "block"}
    query = "Give the contractor a dashboard role"
    # the planner weighs priority against how closely each rule fits; whichever wins
    # without an edge, an OVERRIDES edge from the other one decides
    first = ask(client, query, ns)["governing"]["id"]
    assert first in actions
    [second] = [b for b in actions if b != first]
    reason = {"reason": "the exception the matrix forgot"}
    r = client.post(f"/v1/beliefs/{second}/overrides", json={"other": first, **reason})
    assert r.status_code == 201, r.text
    assert (r.json()["type"], r.json()["created"], r.json()["by"]) == (
        "OVERRIDES",
        True,
        "development",
    )
    again = client.post(f"/v1/beliefs/{second}/overrides", json={"other": first, **reason})
    assert (again.status_code, again.json()["created"]) == (200, False)  # kept once
    body = ask(client, query, ns)
    assert body["governing"]["id"] == second
    assert body["action"] == actions[second]
    [loser] = [c for c in body["trace"]["candidates"] if c["id"] == first]
    assert "OVERRIDES" in loser["why"]
    # the other way round would loop; a belief over itself means nothing
    back = client.post(f"/v1/beliefs/{first}/overrides", json={"other": second, **reason})
    assert_problem(back, 409, field="other")
    itself = client.post(f"/v1/beliefs/{second}/overrides", json={"other": second, **reason})
    assert_problem(itself, 422, field="other")
    events = client.get("/v1/audit", params={"belief": second, "action": "override"}).json()
    assert [e["beliefs"] for e in events["items"]] == [[second, first]]  # once
    # removed: the planner decides again, and the audit keeps what the edge said
    gone = client.delete(f"/v1/beliefs/{second}/overrides/{first}")
    assert gone.status_code == 204, gone.text
    assert ask(client, query, ns)["governing"]["id"] == first
    assert_problem(client.delete(f"/v1/beliefs/{second}/overrides/{first}"), 404)
    [removal] = client.get("/v1/audit", params={"belief": second, "action": "unrank"}).json()[
        "items"
    ]
    assert reason["reason"] in removal["reason"]


def test_a_narrower_scope_wins_once_an_admin_says_so(client: TestClient, ns: str, uid: str) -> None:
    broad, narrow = put(
        client,
        ns,
        uid,
        {
            "text": "Customer refunds need a manager's approval before they are issued.",
            "kind": "policy",
            "priority": "critical",
            "allowed_action": "verify_first",
            # scopes are shared by every namespace: the uid keeps these the test's own
            "governs": {"any_terms": ["refund", "customer", uid]},
        },
        {
            # names no qualified thing of the query, so precedence alone ranks it below
            "text": "Refunds to a customer under ten dollars may be issued by any agent.",
            "kind": "policy",
            "priority": "low",
            "allowed_action": "answer",
            "governs": {"any_terms": ["refund", "customer", "small refund", uid]},
        },
    )
    query = "Give the customer a small refund of five dollars"
    # without the edge the planner weighs the two as it weighs any rules; whichever it puts
    # first, the critical rule's check is not lost
    first = ask(client, query, ns)
    assert first["action"] == "verify_first"
    body = {"other": broad, "reason": "small refunds are the narrower case"}
    r = client.post(f"/v1/beliefs/{narrow}/narrows", json=body)
    assert r.status_code == 201, r.text
    assert r.json()["source_scope"] != r.json()["target_scope"]
    edged = ask(client, query, ns)
    assert edged["governing"]["id"] == narrow
    [below] = [c for c in edged["trace"]["candidates"] if c["id"] == broad]
    assert "NARROWS" in below["why"]  # the curator's edge put the broad rule below the narrow
    assert_problem(
        client.post(f"/v1/beliefs/{broad}/narrows", json={"other": narrow, "reason": "r"}),
        409,
    )
    # without the edge, the same two beliefs as at first: the same rule governs as at first
    # (asked before a third belief joins them, whose presence the ranker's relative features
    # weigh)
    assert client.delete(f"/v1/beliefs/{narrow}/narrows/{broad}").status_code == 204
    again = ask(client, query, ns)
    assert (again["governing"]["id"], again["action"]) == (
        first["governing"]["id"],
        first["action"],
    )
    [broad_again] = [c for c in again["trace"]["candidates"] if c["id"] == broad]
    assert "NARROWS" not in broad_again["why"]
    [plain] = put(client, ns, f"{uid}-plain", {"text": "Refunds are logged daily."})
    missing = client.post(f"/v1/beliefs/{plain}/narrows", json={"other": broad, "reason": "r"})
    assert "govern" in assert_problem(missing, 422, field="other")["detail"]


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


def test_nothing_governs_but_a_dose_nearby_is_checked_not_guessed(
    client: TestClient, ns: str, uid: str
) -> None:
    put(
        client,
        ns,
        uid,
        {"text": "Warfarin plan from Walt's clinic: 7.5 mg Mon, Wed and Fri, 5 mg otherwise."},
        {"text": "The garden hose is kept in the shed by the back gate."},
    )
    body = ask(client, "What does Dad take on Thursday evenings?", ns)
    assert body["governing"] is None
    assert body["action"] == "verify_first"
    assert "holds a dose" in body["reason"]
    body = ask(client, "Where is the garden hose kept?", ns)
    assert body["action"] != "verify_first"


def test_namespaces_the_caller_may_not_read_are_never_read(
    client: TestClient, store: Store, ns: str, uid: str
) -> None:
    dose_store(client, ns, uid)
    mine = f"tenant:t-{uuid.uuid4().hex[:12]}"
    reader = Caller(name="reader", role=Role.reader, namespaces=frozenset({mine}))
    request = QueryRequest(query="the heart pill dose", namespaces=[ns, mine])
    result = Planner(store.db, store.embedder).query(request, caller=reader)
    assert result.governing is None
    assert result.trace.namespaces.not_visible == [ns]
    assert result.trace.candidates == []
    only_hidden = Planner(store.db, store.embedder).query(
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
    store.db.write(lambda tx: create_rows(store.db, tx, rows))
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
    exact = Planner(store.db, store.embedder).query(request)
    assert exact.trace.discovery.startswith("exact")
    assert exact.governing is not None
    assert exact.governing.id == mine.id
    # Forced through the index: over-fetching in proportion to the store still finds it.
    indexed = Planner(store.db, store.embedder, PlannerSettings(exact_limit=0)).query(request)
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


def test_an_alias_given_in_another_namespace_decides_nothing_here(
    client: TestClient, store: Store, ns: str, uid: str
) -> None:
    other, alias = f"tenant:t-{uuid.uuid4().hex[:12]}", f"bluebox{uid}"
    router = {"name": f"zephyr router {uid}", "aliases": [alias]}
    put(
        client,
        other,
        uid + "o",
        {"text": "The Zephyr router admin code is 7731.", "about": [router]},
    )
    [rule] = put(
        client,
        ns,
        uid,
        {
            "text": "Zephyr router: reboot it from the rack switch, never by pulling the plug.",
            "about": [router["name"]],
        },
    )
    request = QueryRequest(query=f"How do I restart the {alias}?", namespaces=[ns])

    def answers_to_the_alias(exact_limit: int) -> tuple[bool, bool]:
        """Whether the rule's scope matched the alias, and whether it was found by it."""
        settings = PlannerSettings(exact_limit=exact_limit)
        found = Planner(store.db, store.embedder, settings).query(request).trace.candidates
        of_rule = [(alias in c.scope.matched, "alias" in c.found_by) for c in found if c.id == rule]
        return of_rule[0] if of_rule else (False, False)

    assert answers_to_the_alias(2_000) == (False, False)
    assert answers_to_the_alias(0) == (False, False)
    # the same alias given here makes the rule answer to it, by either way of discovery
    put(client, ns, uid + "n", {"text": "The rack switch is labelled R4.", "about": [router]})
    assert answers_to_the_alias(2_000)[0] is True
    assert answers_to_the_alias(0) == (True, True)


def test_a_note_whose_words_say_its_agreement_ended_answers_as_history(
    client: TestClient, ns: str, uid: str
) -> None:
    [terms] = put(
        client,
        ns,
        uid,
        {
            "text": f"Kestrel{uid} Logistics: £41 a pallet under the 2022-2023 contract. The "
            "contract ended in December 2023 and was not renewed.",
            "allowed_action": "answer",
        },
    )
    body = ask(client, f"What are we paying Kestrel{uid} Logistics per pallet?", ns)
    assert body["governing"]["id"] == terms
    assert body["action"] == "archive_only"

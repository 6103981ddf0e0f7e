"""Every /v1/beliefs endpoint and its errors, over HTTP, against the real Neo4j and model."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver, GraphDatabase

from beliefgraph.access import DEVELOPMENT_CALLER, Caller, Role
from beliefgraph.config import Settings
from beliefgraph.db import connect
from beliefgraph.embeddings import packed
from beliefgraph.importer.documents import add_aliases
from beliefgraph.index_keys import name_edits, search_keys
from beliefgraph.models import BeliefCreate, BeliefPublic, Kind, Status
from beliefgraph.schema import (
    SEARCH_INDEX_PROPERTIES,
    backfill_entity_aliases,
    backfill_packed_embeddings,
    backfill_search_keys,
    backfill_search_terms,
    init_schema,
)
from beliefgraph.search.context_models import SearchRequest
from beliefgraph.search.find import search
from beliefgraph.store import Store

PROBLEM = "application/problem+json"


def belief(
    ns: str, text: str = "The office Wi-Fi password is tulip-42.", **fields: Any
) -> dict[str, Any]:
    return {"text": text, "namespaces": [ns], **fields}


def assert_problem(response: Any, status: int, field: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert body["type"].startswith("https://")
    assert body["title"]
    assert body["detail"]
    if field is not None:
        named = [e["field"] for e in body.get("errors", [])] + [body.get("field")]
        assert any(field in (n or "") for n in named), body
    return body


def count_in(driver: Driver, ns: str) -> int:
    records, _, _ = driver.execute_query(
        "MATCH (b:Belief)-[:IN]->(:Namespace {name: $ns}) RETURN count(b) AS n", ns=ns
    )
    return int(records[0]["n"])


def test_create_and_read_one_belief(client: TestClient, ns: str, uid: str) -> None:
    body = belief(
        ns,
        id=f"{uid}-wifi",
        kind="credential",
        priority="high",
        about=[{"name": "Office Wi-Fi", "aliases": ["wireless"]}],
        governs={"any_terms": ["Wi-Fi", "password"], "action_types": ["read"]},
        aliases=["wlan password"],
        why_it_matters="Use this before answering network questions.",
    )
    created = client.post("/v1/beliefs", json=body)
    assert created.status_code == 201, created.text
    assert created.headers["location"] == f"/v1/beliefs/{uid}-wifi"
    got = client.get(f"/v1/beliefs/{uid}-wifi").json()
    assert got["text"] == body["text"]
    assert got["kind"] == "credential"
    assert got["priority"] == "high"
    assert got["status"] == "active"
    assert got["about"] == ["office_wifi"]
    assert got["governs"]["any_terms"] == ["password", "wifi"]
    assert got["governs"]["action_types"] == ["read"]
    assert got["namespaces"] == [ns]
    assert got["write_path"] == "api"
    assert "embedding" not in got


def test_generated_ids_are_unique(client: TestClient, ns: str) -> None:
    a = client.post("/v1/beliefs", json=belief(ns, "first")).json()
    b = client.post("/v1/beliefs", json=belief(ns, "second")).json()
    assert a["id"] != b["id"]


def test_entities_and_scopes_are_merged_not_duplicated(
    client: TestClient, driver: Driver, ns: str, uid: str
) -> None:
    name = f"Router {uid}"
    governs = {"any_terms": [f"router {uid}", "firmware"]}
    for text in ("The router runs firmware 1.2.", "Router firmware updates need a reboot."):
        r = client.post(
            "/v1/beliefs",
            json=belief(
                ns, text, about=[name, {"name": name.upper(), "aliases": ["gw"]}], governs=governs
            ),
        )
        assert r.status_code == 201, r.text
    records, _, _ = driver.execute_query(
        "MATCH (e:Entity {key: $key}) "
        "RETURN count(e) AS entities, COUNT { (e)<-[:ABOUT]-() } AS beliefs, "
        "[(e)-[k:NAMED_IN]->(n:Namespace) | [n.name, k.aliases]] AS aliases",
        key=f"router_{uid}",
    )
    assert records[0]["entities"] == 1
    assert records[0]["beliefs"] == 2
    assert records[0]["aliases"] == [[ns, ["gw"]]]
    scopes, _, _ = driver.execute_query(
        "MATCH (b:Belief)-[:IN]->(:Namespace {name: $ns}) MATCH (b)-[:GOVERNS]->(s:Scope) "
        "RETURN count(DISTINCT s) AS scopes, count(b) AS governing",
        ns=ns,
    )
    assert (scopes[0]["scopes"], scopes[0]["governing"]) == (1, 2)


def test_batch_is_written_in_one_transaction(client: TestClient, ns: str) -> None:
    r = client.post("/v1/beliefs", json={"beliefs": [belief(ns, f"fact {i}") for i in range(5)]})
    assert r.status_code == 201, r.text
    assert [b["text"] for b in r.json()["beliefs"]] == [f"fact {i}" for i in range(5)]


def test_batch_with_one_invalid_belief_writes_nothing(
    client: TestClient, driver: Driver, ns: str
) -> None:
    batch = {"beliefs": [belief(ns, "good one"), belief(ns, "bad one", kind="rumour")]}
    assert_problem(client.post("/v1/beliefs", json=batch), 422, field="beliefs[1].kind")
    assert count_in(driver, ns) == 0


def test_batch_with_a_taken_id_writes_nothing(
    client: TestClient, driver: Driver, ns: str, uid: str
) -> None:
    assert client.post("/v1/beliefs", json=belief(ns, "taken", id=f"{uid}-x")).status_code == 201
    batch = {"beliefs": [belief(ns, "new one", id=f"{uid}-y"), belief(ns, "clash", id=f"{uid}-x")]}
    assert_problem(client.post("/v1/beliefs", json=batch), 409)
    assert count_in(driver, ns) == 1
    assert client.get(f"/v1/beliefs/{uid}-y").status_code == 404


def test_batch_with_repeated_ids_writes_nothing(
    client: TestClient, driver: Driver, ns: str
) -> None:
    batch = {"beliefs": [belief(ns, "a", id="dup-in-batch"), belief(ns, "b", id="dup-in-batch")]}
    assert_problem(client.post("/v1/beliefs", json=batch), 409)
    assert count_in(driver, ns) == 0


def test_invalid_fields_name_the_field(client: TestClient, ns: str) -> None:
    assert_problem(client.post("/v1/beliefs", json=belief(ns, trust=1.5)), 422, field="trust")
    assert_problem(client.post("/v1/beliefs", json={"namespaces": [ns]}), 422, field="text")
    assert_problem(client.post("/v1/beliefs", json=belief(ns, colour="red")), 422, field="colour")
    assert_problem(
        client.post("/v1/beliefs", json=belief(ns, status="superseded")), 422, field="status"
    )
    assert_problem(
        client.post("/v1/beliefs", json=belief(ns, governs={"action_types": ["read"]})),
        422,
        field="governs",
    )


def test_namespace_labels_follow_the_documented_pattern(client: TestClient) -> None:
    for bad in ("nope", "user:", "User:Me", "galaxy:far", "user:a b", "tenant:" + "x" * 65):
        r = client.post("/v1/beliefs", json={"text": "x", "namespaces": [bad]})
        assert_problem(r, 422, field="namespaces")


def test_unknown_id_is_404(client: TestClient) -> None:
    assert_problem(client.get("/v1/beliefs/no-such-belief"), 404)
    assert_problem(client.delete("/v1/beliefs/no-such-belief"), 404)
    assert_problem(client.get("/v1/beliefs/no-such-belief/chain"), 404)
    assert_problem(
        client.post("/v1/beliefs/no-such-belief/supersede", json={"by_id": "x", "reason": "r"}),
        404,
    )


def test_malformed_id_is_422(client: TestClient) -> None:
    assert_problem(client.get("/v1/beliefs/bad%20id!"), 422)


def test_list_filters_and_pages(client: TestClient, ns: str) -> None:
    kinds = ["policy", "fact", "policy", "fact", "policy"]
    batch = [belief(ns, f"item {i}", kind=k) for i, k in enumerate(kinds)]
    assert client.post("/v1/beliefs", json={"beliefs": batch}).status_code == 201
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"namespace": ns, "kind": "policy", "limit": 2}
        if cursor:
            params["cursor"] = cursor
        page = client.get("/v1/beliefs", params=params).json()
        seen += [b["text"] for b in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert sorted(seen) == ["item 0", "item 2", "item 4"]
    assert_problem(client.get("/v1/beliefs", params={"cursor": "garbage!"}), 422, field="cursor")
    assert_problem(client.get("/v1/beliefs", params={"limit": 0}), 422, field="limit")
    assert_problem(client.get("/v1/beliefs", params={"kind": "rumour"}), 422, field="kind")


@pytest.mark.parametrize("scanned", [10**6, 0], ids=["store-order", "namespaces-first"])
def test_listing_pages_alike_either_way(
    store: Store,
    ns: str,
    uid: str,
    scanned: int,
    monkeypatch: pytest.MonkeyPatch,
    reads: list[str],
) -> None:
    """A listing page is read from the store in creation order when the beliefs listed fill
    it there, and from their namespaces when not: the same pages either way, for a namespace
    asked for and for a key's grant, across beliefs created in one instant (one write)."""
    elsewhere = f"{ns}-elsewhere"
    words = ["cedar", "maple", "birch", "alder", "larch", "rowan"]
    kinds = [Kind.policy, Kind.fact, Kind.policy, Kind.fact, Kind.policy, Kind.fact]
    batch = [
        BeliefCreate(id=f"{uid}-{i}", text=f"The {w} shelf holds box {i}.", namespaces=[ns], kind=k)
        for i, (w, k) in enumerate(zip(words, kinds, strict=True))
    ]
    store.create(batch[:4])  # four in one instant: the cursor must break ties by id
    store.create(batch[4:5])
    store.create([batch[5].model_copy(update={"namespaces": [ns, elsewhere]})])
    store.create([BeliefCreate(id=f"{uid}-oak", text="The oak shelf.", namespaces=[elsewhere])])
    store.retract(f"{uid}-3")
    # 10**6: the first read covers the store, every full page comes from it; 0: none does
    monkeypatch.setattr(store.db, "scanned_per_row", scanned)

    def listed(**filters: Any) -> list[str]:
        """The ids listed, paging by 2 and by 5; both the same."""
        by_size = []
        for limit in (2, 5):
            ids: list[str] = []
            cursor = None
            while True:
                page = store.list_beliefs(limit=limit, cursor=cursor, **filters)
                ids += [b.id for b in page.items]
                if (cursor := page.next_cursor) is None:
                    break
            by_size.append(ids)
        assert by_size[0] == by_size[1]
        return by_size[0]

    made = sorted(store.get_many([b.id for b in batch if b.id]), key=lambda b: (b.created_at, b.id))
    assert len({b.created_at for b in made[:4]}) == 1
    everything = [b.id for b in made]
    reader = Caller("reader", Role.reader, frozenset({ns}))
    assert listed(namespace=ns) == everything
    assert listed(caller=reader) == everything
    assert listed(namespace=ns, kind=Kind.policy) == everything[0:5:2]
    assert listed(namespace=ns, status=Status.retracted) == [f"{uid}-3"]
    assert listed(namespace=elsewhere, caller=reader) == []  # not its namespace to ask about
    both = Caller("reader", Role.reader, frozenset({ns, elsewhere}))
    assert listed(caller=both) == [*everything, f"{uid}-oak"]  # uid-5 once, in both
    assert listed(caller=Caller("reader", Role.reader, frozenset())) == []
    assert listed(namespace=f"{ns}-none") == []
    # the way asked for was taken: full pages from the store's order, or all from namespaces
    if scanned:
        assert reads.count("belief_list") > reads.count("belief_list_in") > 0
    else:
        assert reads.count("belief_list") == reads.count("belief_list_in") > 0


def test_retract_keeps_the_belief(client: TestClient, ns: str) -> None:
    created = client.post("/v1/beliefs", json=belief(ns)).json()
    r = client.delete(f"/v1/beliefs/{created['id']}")
    assert r.status_code == 200
    assert r.json()["status"] == "retracted"
    assert client.get(f"/v1/beliefs/{created['id']}").json()["status"] == "retracted"
    listed = client.get("/v1/beliefs", params={"namespace": ns, "status": "retracted"}).json()
    assert [b["id"] for b in listed["items"]] == [created["id"]]
    assert client.delete(f"/v1/beliefs/{created['id']}").status_code == 200  # idempotent


def test_a_retraction_keeps_its_reason_in_the_audit_log(client: TestClient, ns: str) -> None:
    created = client.post("/v1/beliefs", json=belief(ns)).json()
    r = client.delete(f"/v1/beliefs/{created['id']}", params={"reason": "the user took it back"})
    assert r.status_code == 200, r.text
    events = client.get("/v1/audit", params={"belief": created["id"], "action": "retract"})
    [event] = events.json()["items"]
    assert event["reason"] == "retracted (was active): the user took it back"
    assert_problem(client.delete(f"/v1/beliefs/{created['id']}", params={"reason": ""}), 422)


def _chain_of_three(client: TestClient, ns: str, uid: str) -> list[str]:
    ids = [f"{uid}-v{i}" for i in (1, 2, 3)]
    client.post("/v1/beliefs", json=belief(ns, "Wi-Fi password is tulip-42", id=ids[0]))
    r = client.post(
        f"/v1/beliefs/{ids[0]}/supersede",
        json={
            "by": belief(ns, "Wi-Fi password changed to maple-77", id=ids[1], kind="correction"),
            "reason": "user said it changed",
        },
    )
    assert r.status_code == 201, r.text
    client.post("/v1/beliefs", json=belief(ns, "Wi-Fi password is with IT now", id=ids[2]))
    r = client.post(
        f"/v1/beliefs/{ids[1]}/supersede", json={"by_id": ids[2], "reason": "rotated again"}
    )
    assert r.status_code == 201, r.text
    return ids


def test_three_long_chain_reads_the_same_from_each_member(
    client: TestClient, ns: str, uid: str
) -> None:
    ids = _chain_of_three(client, ns, uid)
    for member in ids:
        chain = client.get(f"/v1/beliefs/{member}/chain").json()
        assert [b["id"] for b in chain["beliefs"]] == ids
        assert chain["head"] == ids[2]
        assert [(link["newer"], link["older"]) for link in chain["links"]] == [
            (ids[1], ids[0]),
            (ids[2], ids[1]),
        ]
        assert [link["reason"] for link in chain["links"]] == [
            "user said it changed",
            "rotated again",
        ]
    statuses = [client.get(f"/v1/beliefs/{i}").json()["status"] for i in ids]
    assert statuses == ["superseded", "superseded", "active"]
    assert client.get(f"/v1/beliefs/{ids[0]}").json()["superseded_by"] == ids[1]


def test_supersession_cycle_is_refused(client: TestClient, ns: str, uid: str) -> None:
    ids = _chain_of_three(client, ns, uid)
    r = client.post(f"/v1/beliefs/{ids[2]}/supersede", json={"by_id": ids[0], "reason": "loop"})
    assert_problem(r, 409)
    r = client.post(f"/v1/beliefs/{ids[2]}/supersede", json={"by_id": ids[2], "reason": "self"})
    assert_problem(r, 409)
    assert client.get(f"/v1/beliefs/{ids[2]}").json()["status"] == "active"


def test_superseding_a_retracted_or_superseded_belief_is_refused(
    client: TestClient, driver: Driver, ns: str, uid: str
) -> None:
    ids = _chain_of_three(client, ns, uid)
    r = client.post(
        f"/v1/beliefs/{ids[0]}/supersede", json={"by": belief(ns, "fork"), "reason": "fork"}
    )
    assert_problem(r, 409)
    client.delete(f"/v1/beliefs/{ids[2]}")
    r = client.post(
        f"/v1/beliefs/{ids[2]}/supersede",
        json={"by": belief(ns, "after retraction", id=f"{uid}-late"), "reason": "x"},
    )
    assert_problem(r, 409)
    # the refused supersession left nothing behind, not even its new belief
    assert client.get(f"/v1/beliefs/{uid}-late").status_code == 404
    assert count_in(driver, ns) == 3


def test_supersede_request_needs_exactly_one_replacement(client: TestClient, ns: str) -> None:
    created = client.post("/v1/beliefs", json=belief(ns)).json()
    url = f"/v1/beliefs/{created['id']}/supersede"
    assert_problem(client.post(url, json={"reason": "none given"}), 422)
    assert_problem(client.post(url, json={"by": belief(ns), "by_id": "x", "reason": "both"}), 422)
    assert_problem(client.post(url, json={"by_id": "missing-one", "reason": "r"}), 404)


def test_namespaces_are_listed_with_counts(client: TestClient, ns: str) -> None:
    client.post("/v1/beliefs", json={"beliefs": [belief(ns, "a"), belief(ns, "b")]})
    listed = {n["name"]: n["beliefs"] for n in client.get("/v1/namespaces").json()}
    assert listed[ns] == 2


def test_health_readiness_and_docs(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200, ready.text
    # ready, and nothing about where Neo4j is, its version or the index names (no key needed)
    assert ready.json() == {"ready": True, "reason": None}
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert {
        "/v1/beliefs",
        "/v1/beliefs/{belief_id}",
        "/v1/beliefs/{belief_id}/chain",
        "/v1/beliefs/{belief_id}/supersede",
        "/healthz",
        "/readyz",
    } <= set(paths)


def test_an_unknown_query_parameter_is_refused_not_ignored(
    client: TestClient, driver: Driver, ns: str
) -> None:
    """A misspelt flag must not pass silently: ?dryrun=true (for dry_run) would write."""
    r = client.post(
        "/v1/beliefs", params={"dryrun": "true"}, json={"text": "x", "namespaces": [ns]}
    )
    problem = assert_problem(r, 422, field="dryrun")
    assert "dry_run" in problem["detail"]  # it says what the route takes
    assert count_in(driver, ns) == 0
    listed = client.get("/v1/beliefs", params={"namespaces": ns})
    assert "namespace" in assert_problem(listed, 422, field="namespaces")["detail"]
    assert_problem(client.post("/v1/query?verbose=1", json={"query": "q", "namespaces": [ns]}), 422)
    assert client.get("/v1/beliefs", params={"namespace": ns, "limit": 5}).status_code == 200


def test_unknown_route_is_a_problem(client: TestClient) -> None:
    assert_problem(client.get("/v1/nothing-here"), 404)
    wrong = client.put("/v1/query", json={})
    assert_problem(wrong, 405)
    assert wrong.headers["allow"] == "POST"  # RFC 9110: a 405 says which methods would do


def test_init_gives_beliefs_from_before_search_keys_their_keys(
    store: Store, driver: Driver, ns: str, uid: str
) -> None:
    [belief] = store.create(
        [BeliefCreate(id=f"{uid}-old", text="Legacy note.", user="ann", namespaces=[ns])]
    )
    driver.execute_query("MATCH (b:Belief {id: $id}) REMOVE b.search_keys", id=belief.id)
    init_schema(store.db)
    records, _, _ = driver.execute_query(
        "MATCH (b:Belief {id: $id}) RETURN b.search_keys AS keys", id=belief.id
    )
    assert records[0]["keys"] == search_keys("ann", [ns])
    assert backfill_search_keys(store.db) == 0  # nothing left to do


def test_init_gives_beliefs_from_before_embedding_f32_their_bytes(
    store: Store, driver: Driver, ns: str, uid: str
) -> None:
    [belief] = store.create([BeliefCreate(id=f"{uid}-old", text="Legacy note.", namespaces=[ns])])
    query = "MATCH (b:Belief {id: $id}) RETURN b.embedding AS vector, b.embedding_f32 AS packed"
    [written], _, _ = driver.execute_query(query, id=belief.id)
    assert written["packed"] == packed(written["vector"])
    driver.execute_query("MATCH (b:Belief {id: $id}) REMOVE b.embedding_f32", id=belief.id)
    init_schema(store.db)
    [filled], _, _ = driver.execute_query(query, id=belief.id)
    assert filled["packed"] == written["packed"]
    assert backfill_packed_embeddings(store.db) == 0  # nothing left to do


def named(
    store: Store, belief_id: str, text: str, canonical_name: str, *, user: str, ns: str
) -> BeliefPublic:
    [belief] = store.create(
        [
            BeliefCreate(
                id=belief_id,
                text=text,
                canonical_name=canonical_name,
                user=user,
                namespaces=[ns],
            )
        ]
    )
    return belief


def found(store: Store, query: str, ns: str, user: str) -> list[str]:
    request = SearchRequest(query=query, namespaces=[ns], user=user)
    return [
        h.belief.id
        for h in search(store.db, store.embedder, request, caller=DEVELOPMENT_CALLER).hits
    ]


def test_init_makes_an_earlier_search_index_again_and_fills_its_terms(
    store: Store, driver: Driver, ns: str, uid: str
) -> None:
    belief = named(
        store,
        f"{uid}-router",
        "Mom's Wi-Fi password changed last week.",
        "router_setup",
        user=f"{uid}-ann",
        ns=ns,
    )
    terms = "MATCH (b:Belief {id: $id}) RETURN b.name_edits AS edits, b.text_words AS words"
    [written], _, _ = driver.execute_query(terms, id=belief.id)
    assert written["edits"] == name_edits(["router_setup"])
    assert written["words"] == "mom wifi password changed last week"
    # the index and the beliefs as the schema before name_edits and text_words made them
    # (the index is the session's: made again whatever happens, or later searches would fail)
    try:
        driver.execute_query("DROP INDEX belief_search")
        driver.execute_query(
            "CREATE FULLTEXT INDEX belief_search FOR (b:Belief) "
            "ON EACH [b.canonical_name, b.aliases_text, b.text, b.search_keys] "
            "OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding'}}"
        )
        driver.execute_query(
            "MATCH (b:Belief {id: $id}) REMOVE b.name_edits, b.text_words", id=belief.id
        )
    finally:
        init_schema(store.db)
    [index], _, _ = driver.execute_query(
        "SHOW INDEXES YIELD name, properties WHERE name = 'belief_search' RETURN properties"
    )
    assert tuple(index["properties"]) == SEARCH_INDEX_PROPERTIES
    [filled], _, _ = driver.execute_query(terms, id=belief.id)
    assert filled == written
    assert backfill_search_terms(store.db) == 0  # nothing left to do
    # found by its text's words as search compares them, and by a misspelt name
    assert found(store, "what is mom wifi password now", ns, f"{uid}-ann") == [belief.id]
    assert found(store, "routr setup", ns, f"{uid}-ann") == [belief.id]


def test_added_aliases_are_found_one_edit_away(
    store: Store, driver: Driver, ns: str, uid: str
) -> None:
    belief = named(
        store, f"{uid}-k8s", "We deploy with Helm charts.", "kubernetes", user=f"{uid}-bo", ns=ns
    )
    assert found(store, "the orchestrtor upgrade", ns, f"{uid}-bo") == []
    add_aliases(store, belief.id, ["orchestrator", "kubernetes"])
    [record], _, _ = driver.execute_query(
        "MATCH (b:Belief {id: $id}) RETURN b.name_edits AS edits", id=belief.id
    )
    assert record["edits"].split() == name_edits(["kubernetes", "orchestrator"]).split()
    assert found(store, "the orchestrtor upgrade", ns, f"{uid}-bo") == [belief.id]


def test_a_property_no_belief_has_yet_logs_no_warning(
    neo4j_uri: str, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    query = "MATCH (b:Belief) WHERE b.no_belief_has_this_property IS NULL RETURN count(b)"
    neo = settings.neo4j.model_copy(update={"uri": neo4j_uri})
    secret = neo.password.get_secret_value()
    # the driver as it was made before: a new store's first start logged such warnings
    plain = GraphDatabase.driver(neo4j_uri, auth=(neo.user, secret) if secret else None)
    ours = connect(neo)
    try:
        with caplog.at_level(logging.WARNING, logger="neo4j"):
            plain.execute_query(query)
            assert any("does not exist" in r.getMessage() for r in caplog.records)
            caplog.clear()
            ours.execute_query(query)
        assert not [r for r in caplog.records if "does not exist" in r.getMessage()]
    finally:
        plain.close()
        ours.close()


def test_a_write_sent_again_is_a_replay_not_a_conflict(
    client: TestClient, driver: Driver, ns: str, uid: str
) -> None:
    # after a 503 write-outcome-unknown a client sends the same write again, same id
    sent = {"id": f"{uid}-again", "text": "The gate code is 4821.", "namespaces": [ns]}
    assert client.post("/v1/beliefs", json=sent).status_code == 201
    again = client.post("/v1/beliefs", json=sent)
    assert again.status_code == 200, again.text
    assert again.headers["idempotent-replay"] == "true"
    assert again.json()["id"] == sent["id"]
    batch = client.post("/v1/beliefs", json={"beliefs": [sent]})
    assert batch.status_code == 200
    assert [b["id"] for b in batch.json()["beliefs"]] == [sent["id"]]
    assert count_in(driver, ns) == 1
    # the same id with other content is still a conflict
    other = client.post("/v1/beliefs", json=sent | {"text": "The gate code is 1111."})
    assert_problem(other, 409)


def test_init_moves_an_earlier_stores_entity_aliases_to_the_namespaces_of_its_beliefs(
    store: Store, driver: Driver, ns: str, uid: str
) -> None:
    key = f"old_router_{uid}"
    store.create(
        [BeliefCreate(text="The old router sits in the hall.", about=[key], namespaces=[ns])]
    )
    # the entity as a store from before per-namespace aliases holds it
    driver.execute_query(
        "MATCH (e:Entity {key: $key}) SET e.aliases = ['gw', 'hall box'], "
        "e.aliases_text = ' gw hall box'",
        key=key,
    )
    assert backfill_entity_aliases(store.db) >= 1
    [moved], _, _ = driver.execute_query(
        "MATCH (e:Entity {key: $key}) RETURN properties(e).aliases AS left, "
        "[(e)-[k:NAMED_IN]->(n:Namespace) | [n.name, k.aliases, k.aliases_text]] AS named",
        key=key,
    )
    assert moved["left"] is None
    assert moved["named"] == [[ns, ["gw", "hall box"], " gw hall box"]]
    assert backfill_entity_aliases(store.db) == 0  # nothing left to do

"""The curation gate on the real server with the real model: verdicts, guards, dry runs,
concurrency, and the LLM classifier against a loopback OpenAI-protocol server."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from beliefgraph import audit
from beliefgraph.access import Caller, Role
from beliefgraph.config import Settings
from beliefgraph.embeddings import OnnxEmbedder
from beliefgraph.errors import DuplicateId, Forbidden
from beliefgraph.gate.incoming import incoming_from_rows
from beliefgraph.importer.documents import add_aliases
from beliefgraph.models import BeliefCreate, EntityRef, Verdict
from beliefgraph.store import Store
from tests.integration.test_beliefs_api import assert_problem, count_in

WIFI_OLD = "The office Wi-Fi password is tulip-42."
WIFI_NEW = "The Wi-Fi password changed; IT has the current one."


def events_in(driver: Driver, ns: str) -> list[dict[str, Any]]:
    records, _, _ = driver.execute_query(
        "MATCH (a:AuditEvent {chain: $chain}) RETURN a {.*} AS e ORDER BY a.seq",
        chain=f"ns:{ns}",
    )
    return [dict(r["e"]) for r in records]


def test_a_wifi_change_supersedes_the_old_password(
    client: TestClient, driver: Driver, ns: str, uid: str
) -> None:
    old = {"id": f"{uid}-w1", "text": WIFI_OLD, "kind": "credential", "trust": 0.9}
    r = client.post("/v1/beliefs", json=old | {"namespaces": [ns], "about": ["office wifi"]})
    assert r.status_code == 201, r.text
    assert r.headers["gate-verdict"] == "add"
    new = {"id": f"{uid}-w2", "text": WIFI_NEW, "kind": "correction", "trust": 0.9}
    r = client.post("/v1/beliefs", json=new | {"namespaces": [ns], "about": ["Office Wi-Fi"]})
    assert r.status_code == 201, r.text
    assert r.headers["gate-verdict"] == "contradicts"
    assert r.json()["supersedes"] == old["id"]

    was = client.get(f"/v1/beliefs/{old['id']}").json()
    assert was["status"] == "superseded"
    assert was["superseded_by"] == new["id"]
    assert was["importance"] == pytest.approx(0.5 * Settings().gate_supersede_decay)
    chain = client.get(f"/v1/beliefs/{new['id']}/chain").json()
    assert [b["id"] for b in chain["beliefs"]] == [old["id"], new["id"]]
    assert "password" in chain["links"][0]["reason"]

    page = client.get("/v1/audit", params={"belief": old["id"], "action": "contradicts"}).json()
    [event] = page["items"]
    assert event["beliefs"] == [new["id"], old["id"]]
    assert [s["text"] for s in event["snapshot"]] == [WIFI_NEW, WIFI_OLD]
    assert 0.3 < event["similarity"] < 0.9
    assert event["write_path"] == "api"
    assert event["classifier"] == "default"


def test_a_repeated_fact_is_a_noop_that_reinforces(
    client: TestClient, driver: Driver, ns: str
) -> None:
    first = client.post(
        "/v1/beliefs", json={"text": "The user prefers dark mode.", "namespaces": [ns]}
    )
    assert first.status_code == 201
    again = client.post("/v1/beliefs", json={"text": "User prefers dark mode", "namespaces": [ns]})
    assert again.status_code == 200, again.text
    assert again.headers["gate-verdict"] == "noop"
    body = again.json()
    assert body["id"] == first.json()["id"]
    assert body["reinforcement_count"] == 1
    assert body["last_reinforced_at"] is not None
    assert count_in(driver, ns) == 1
    assert [e["action"] for e in events_in(driver, ns)] == ["add", "noop"]


def test_an_agents_inference_cannot_override_a_users_decision(
    store: Store, driver: Driver, ns: str, uid: str
) -> None:
    decision = BeliefCreate(
        id=f"{uid}-d",
        text="The project's database is PostgreSQL.",
        kind="decision",
        trust=0.95,
        about=["project"],
        namespaces=[ns],
    )
    [user] = store.curate([decision], actor="user")
    assert user.verdict is Verdict.add
    agent = Caller("agent-key", Role.agent, frozenset({ns}))
    inference = BeliefCreate(
        id=f"{uid}-i",
        text="The project's database is MongoDB.",
        kind="fact",
        status="inferred",
        trust=0.99,
        about=["project"],
        namespaces=[ns],
    )
    with pytest.raises(Forbidden, match="trusted at most"):  # an agent may not claim it
        store.curate([inference], caller=agent)
    inference = inference.model_copy(update={"trust": 0.6})  # as much as it may claim
    [d] = store.curate([inference], caller=agent)
    assert (d.verdict, d.contested, d.guard, d.target) == (
        Verdict.contradicts,
        True,
        "role",
        decision.id,
    )
    assert store.get(decision.id).status == "active"
    stored = store.get(inference.id)
    assert stored.epistemic_status == "contested"
    assert stored.supersedes is None
    records, _, _ = driver.execute_query(
        "MATCH (:Belief {id: $i})-[c:CONTRADICTS]->(:Belief {id: $d}) RETURN c.guard AS guard",
        i=inference.id,
        d=decision.id,
    )
    assert [r["guard"] for r in records] == ["role"]
    assert events_in(driver, ns)[-1]["action"] == "contested"


def test_a_low_trust_contradiction_is_contested_not_superseding(store: Store, ns: str) -> None:
    [old] = store.create(
        [
            BeliefCreate(
                text="The team's standup is at 9:00.", trust=0.9, about=["team"], namespaces=[ns]
            )
        ]
    )
    [d] = store.curate(
        [
            BeliefCreate(
                text="The team's standup is at 10:30.", trust=0.5, about=["team"], namespaces=[ns]
            )
        ]
    )
    assert (d.verdict, d.contested, d.guard) == (Verdict.contradicts, True, "trust")
    assert store.get(old.id).status == "active"


def test_different_entities_are_never_merged(client: TestClient, driver: Driver, ns: str) -> None:
    for who in ("Alice", "Bob"):
        body = {"text": f"{who}'s favourite colour is blue", "about": [who], "namespaces": [ns]}
        r = client.post("/v1/beliefs", json=body)
        assert r.status_code == 201
        assert r.headers["gate-verdict"] == "add"
    assert count_in(driver, ns) == 2


def test_subsumption_archives_the_narrower_belief(client: TestClient, ns: str) -> None:
    short = client.post(
        "/v1/beliefs",
        json={"text": "The user prefers dark mode.", "kind": "preference", "namespaces": [ns]},
    ).json()
    r = client.post(
        "/v1/beliefs",
        json={
            "text": "The user prefers dark mode in the editor and terminal.",
            "kind": "preference",
            "namespaces": [ns],
        },
    )
    assert r.headers["gate-verdict"] == "subsumes"
    assert client.get(f"/v1/beliefs/{short['id']}").json()["status"] == "archived"


def test_a_rule_restated_after_it_expired_is_stored_not_folded_in(
    store: Store, ns: str, uid: str
) -> None:
    text = "Offer the winter discount on annual plans."
    [old] = store.curate(
        [
            BeliefCreate(
                id=f"{uid}-2025",
                text=text,
                kind="policy",
                valid_to=datetime(2026, 3, 1, tzinfo=UTC),
                namespaces=[ns],
            )
        ]
    )
    reinforced = store.get(f"{uid}-2025").reinforcement_count
    [again] = store.curate(
        [
            BeliefCreate(
                id=f"{uid}-2026",
                text=text,
                kind="policy",
                valid_from=datetime(2026, 12, 1, tzinfo=UTC),
                namespaces=[ns],
            )
        ]
    )
    assert old.verdict is Verdict.add
    assert (again.verdict, again.belief_id) == (Verdict.add, f"{uid}-2026")  # not a noop
    assert store.get(f"{uid}-2025").reinforcement_count == reinforced


def test_a_dry_run_returns_verdicts_and_writes_nothing(
    client: TestClient, driver: Driver, ns: str
) -> None:
    client.post(
        "/v1/beliefs", json={"text": WIFI_OLD, "about": ["office wifi"], "namespaces": [ns]}
    )
    before = (count_in(driver, ns), len(events_in(driver, ns)))
    batch = {
        "beliefs": [
            {"text": WIFI_NEW, "about": ["office wifi"], "namespaces": [ns]},
            {
                "text": "The office Wi-Fi password is tulip-42",
                "about": ["office wifi"],
                "namespaces": [ns],
            },
        ]
    }
    r = client.post("/v1/beliefs", params={"dry_run": "true"}, json=batch)
    assert r.status_code == 200, r.text
    verdicts = [d["verdict"] for d in r.json()["decisions"]]
    assert verdicts[0] == "contradicts"
    assert len(verdicts) == 2
    assert (count_in(driver, ns), len(events_in(driver, ns))) == before
    assert (
        client.get("/v1/beliefs", params={"namespace": ns}).json()["items"][0]["status"] == "active"
    )


def test_a_batch_reports_each_decision(client: TestClient, ns: str) -> None:
    batch = {
        "beliefs": [
            {"text": "Lunch is served at noon in the canteen.", "namespaces": [ns]},
            {"text": "Lunch is served at noon in the canteen", "namespaces": [ns]},
        ]
    }
    r = client.post("/v1/beliefs", json=batch)
    assert r.status_code == 201, r.text
    body = r.json()
    assert [d["verdict"] for d in body["decisions"]] == ["add", "noop"]
    assert body["beliefs"][0]["id"] == body["beliefs"][1]["id"]
    assert body["beliefs"][1]["reinforcement_count"] == 1


def test_a_failed_write_leaves_nothing_not_even_reinforcement_or_audit(
    store: Store, driver: Driver, ns: str, uid: str
) -> None:
    [kept] = store.create(
        [BeliefCreate(id=f"{uid}-a", text="Tea is in the cupboard.", namespaces=[ns])]
    )
    before = len(events_in(driver, ns))
    batch = [
        BeliefCreate(text="Tea is in the cupboard", namespaces=[ns]),  # would reinforce
        BeliefCreate(id=f"{uid}-a", text="something else entirely", namespaces=[ns]),
    ]
    with pytest.raises(DuplicateId):
        store.create(batch)
    assert store.get(kept.id).reinforcement_count == 0
    assert len(events_in(driver, ns)) == before
    assert count_in(driver, ns) == 1


@pytest.mark.parametrize(
    ("author", "pinned"), [("alice", True), ("bob", False)], ids=["same-author", "other-author"]
)
def test_replacing_a_pinned_belief_keeps_it_pinned_only_for_its_author(
    store: Store, ns: str, author: str, pinned: bool
) -> None:
    """What someone asked to keep in view stays in view when they correct it, or say it
    more fully; someone else's replacement is not pinned by it."""

    def curate(text: str, kind: str, who: str, *, pin: bool = False) -> str:
        [d] = store.curate(
            [BeliefCreate(text=text, kind=kind, author=who, pinned=pin, namespaces=[ns])]
        )
        return f"{d.verdict}:{d.belief_id}"

    old = curate("My Wi-Fi password is hunter2.", "fact", "alice", pin=True)
    new = curate("Actually, my Wi-Fi password is correct-horse-42.", "correction", author)
    assert new.startswith("contradicts:")
    assert store.get(old.split(":")[1]).status == "superseded"
    assert store.get(new.split(":")[1]).pinned is pinned

    short = curate("I prefer dark mode.", "preference", "alice", pin=True)
    full = curate("I prefer dark mode in the editor and terminal.", "preference", author)
    assert full.startswith("subsumes:")
    assert store.get(short.split(":")[1]).status == "archived"
    assert store.get(full.split(":")[1]).pinned is pinned


def test_one_users_belief_never_folds_into_anothers(store: Store, ns: str) -> None:
    [ann] = store.curate([BeliefCreate(text="I prefer dark mode.", user="ann", namespaces=[ns])])
    [bob] = store.curate([BeliefCreate(text="I prefer dark mode.", user="bob", namespaces=[ns])])
    [shared] = store.curate([BeliefCreate(text="I prefer dark mode.", namespaces=[ns])])
    assert [d.verdict for d in (ann, bob, shared)] == [Verdict.add] * 3
    [again] = store.curate([BeliefCreate(text="I prefer dark mode", user="bob", namespaces=[ns])])
    assert (again.verdict, again.belief_id) == (Verdict.noop, bob.belief_id)


@pytest.mark.parametrize("cache", [200_000, 0], ids=["vector-copy", "cypher"])
def test_a_belief_about_the_same_entity_is_compared_however_far_down_the_ranking(
    driver: Driver, embedder: OnnxEmbedder, ns: str, uid: str, cache: int
) -> None:
    # one neighbour by similarity: the old password is never among the nearest
    store = Store(
        driver,
        embedder,
        database="neo4j",
        settings=Settings(gate_neighbours=1, gate_vector_cache=cache),
    )
    old = BeliefCreate(
        id=f"{uid}-pw", text=WIFI_OLD, kind="credential", about=["office wifi"], namespaces=[ns]
    )
    store.create([old])
    for text in (  # each closer to the new text than the old password is (cosine 0.67)
        "The Wi-Fi password is kept by IT.",
        "Ask IT for the current Wi-Fi password.",
        "Wi-Fi passwords are managed by IT.",
    ):
        store.create([BeliefCreate(text=text, namespaces=[ns])])
    new = BeliefCreate(text=WIFI_NEW, kind="correction", about=["Office Wi-Fi"], namespaces=[ns])
    [d] = store.curate([new])
    assert (d.verdict, d.target) == (Verdict.contradicts, old.id)


def test_a_same_entity_belief_too_far_to_be_judged_anything_but_add_is_not_read(
    driver: Driver, embedder: OnnxEmbedder, ns: str, uid: str
) -> None:
    store = Store(driver, embedder, database="neo4j", settings=Settings(gate_neighbours=1))
    old = BeliefCreate(
        id=f"{uid}-pw", text=WIFI_OLD, kind="credential", about=["office wifi"], namespaces=[ns]
    )
    far = BeliefCreate(
        id=f"{uid}-far",
        text="Bananas were delivered to the third floor kitchen on Tuesday.",
        about=["office wifi"],
        namespaces=[ns],
    )
    store.create([old, far])
    store.create([BeliefCreate(text="Ask IT for the current Wi-Fi password.", namespaces=[ns])])
    new = BeliefCreate(text=WIFI_NEW, kind="correction", about=["Office Wi-Fi"], namespaces=[ns])
    [vold, vfar, vnew] = embedder.embed([old.text, far.text, new.text])
    floor = store.gate.default.floor
    cosine = sum(a * b for a, b in zip(vfar, vnew, strict=True))
    assert cosine < floor <= sum(a * b for a, b in zip(vold, vnew, strict=True))

    read: list[str] = []
    tx_run = store.db.tx_run

    def spy(tx: Any, name: str, **params: Any) -> list[Any]:
        if name == "gate_lock_near":
            read.extend(params["near"])
        return tx_run(tx, name, **params)

    store.db.tx_run = spy  # type: ignore[method-assign]
    [d] = store.curate([new])
    assert (d.verdict, d.target) == (Verdict.contradicts, old.id)
    # both share the entity; only the one the classifier could judge is read
    assert old.id in read
    assert far.id not in read


def test_the_copys_neighbours_are_as_neo4j_holds_them_with_entities_as_they_are_now(
    driver: Driver, embedder: OnnxEmbedder, ns: str
) -> None:
    # one store ranks in its copy of the namespace, the other reads every neighbour in Cypher
    copied = Store(driver, embedder, database="neo4j", settings=Settings())
    cypher = Store(driver, embedder, database="neo4j", settings=Settings(gate_vector_cache=0))
    [named, _] = [
        copied.create(
            [BeliefCreate(text=text, kind=kind, about=["deploy box"], namespaces=[ns], **names)]
        )[0]
        for text, kind, names in (
            ("The deploy box runs Debian 12.", "fact", {"canonical_name": "deploy box"}),
            ("We decided the deploy box stays in rack four.", "decision", {}),
        )
    ]
    # a document's update gives the entity an alias without a gated write, so this
    # namespace's copy stays in sync: what the gate compares of its beliefs must still come
    # from Neo4j
    add_aliases(copied, named.id, ["build host"])
    new = BeliefCreate(
        text="The deploy box runs Debian 13 now.", about=["deploy box"], namespaces=[ns]
    )

    def neighbours(store: Store) -> list[Any]:
        rows = store.prepare([new])

        def work(tx: Any) -> list[Any]:
            found, _ = store.gate.lock_and_find(tx, incoming_from_rows(rows))
            return found[0]

        with driver.session(database="neo4j") as session:
            return session.execute_write(work)

    via_copy, via_cypher = neighbours(copied), neighbours(cypher)
    assert len(via_copy) == 2
    assert [c.view for c in via_copy] == [c.view for c in via_cypher]
    for c in via_copy:
        [words] = c.view.entities.values()
        assert {"build", "host"} <= words


def test_an_alias_given_in_another_namespace_is_not_compared(
    driver: Driver, embedder: OnnxEmbedder, ns: str
) -> None:
    copied = Store(driver, embedder, database="neo4j", settings=Settings())
    cypher = Store(driver, embedder, database="neo4j", settings=Settings(gate_vector_cache=0))
    copied.create(
        [BeliefCreate(text="The deploy box runs Debian 12.", about=["deploy box"], namespaces=[ns])]
    )
    copied.create(
        [
            BeliefCreate(
                text="Backups of it run nightly.",
                about=[EntityRef(name="deploy box", aliases=["build host"])],
                namespaces=[f"{ns}-other"],
            )
        ]
    )
    new = BeliefCreate(
        text="The deploy box runs Debian 13 now.", about=["deploy box"], namespaces=[ns]
    )
    for store in (copied, cypher):
        rows = store.prepare([new])

        def work(tx: Any, rows: Any = rows, store: Store = store) -> list[Any]:
            found, _ = store.gate.lock_and_find(tx, incoming_from_rows(rows))
            return found[0]

        with driver.session(database="neo4j") as session:
            [candidate] = session.execute_write(work)
        [words] = candidate.view.entities.values()
        assert "deploy" in words
        assert "build" not in words


def test_a_belief_rewritten_in_place_is_compared_as_it_is_now_not_as_a_stale_copy_holds_it(
    driver: Driver, embedder: OnnxEmbedder, ns: str, uid: str
) -> None:
    store = Store(driver, embedder, database="neo4j", settings=Settings())
    a, b = f"{ns}-a", f"{ns}-b"
    old_text, new_text = (
        "The release train leaves on Tuesdays.",
        "The release train leaves on Fridays.",
    )
    store.create([BeliefCreate(id=f"{uid}-x", text=old_text, namespaces=[a, b])])
    # the compat router rewrites a belief in place, as for a harness's repeated beliefId
    [row] = store.prepare([BeliefCreate(id=f"{uid}-x", text=new_text, namespaces=[a, b])])
    props = {k: v for k, v in row["props"].items() if k not in ("id", "created_at", "author")}
    store.db.write(
        lambda tx: store.db.tx_run(
            tx,
            "compat_pmb_replace",
            id=f"{uid}-x",
            props=props,
            embedding=row["embedding"],
            embedding_f32=row["embedding_f32"],
            namespaces=[a, b],
            about=[],
        )
    )
    # a write into b alone reloads b's copy; a's copy still holds the old text
    store.create([BeliefCreate(text="The office closes at six.", namespaces=[b])])
    rows = store.prepare(
        [
            BeliefCreate(text="Lunch is at noon.", namespaces=[a]),
            BeliefCreate(text="The release train leaves on Friday.", namespaces=[b]),
        ]
    )

    def work(tx: Any) -> dict[int, list[Any]]:
        found, _ = store.gate.lock_and_find(tx, incoming_from_rows(rows))
        return found

    with driver.session(database="neo4j") as session:
        found = session.execute_write(work)
    [x] = [c for c in found[1] if c.view.id == f"{uid}-x"]
    assert x.view.text == new_text


def test_a_copy_loaded_from_neo4j_never_proposes_what_is_no_longer_live(
    driver: Driver, embedder: OnnxEmbedder, settings: Settings, ns: str
) -> None:
    writer = Store(driver, embedder, database=settings.neo4j.database, settings=settings)
    [old] = writer.create([BeliefCreate(text=WIFI_OLD, about=["office wifi"], namespaces=[ns])])
    [new] = writer.create([BeliefCreate(text=WIFI_NEW, about=["office wifi"], namespaces=[ns])])
    assert writer.get(old.id).status == "superseded"

    # another process loads the namespace's copy inside its first write
    fresh = Store(driver, embedder, database=settings.neo4j.database, settings=settings)
    read: list[str] = []
    tx_run = fresh.db.tx_run

    def spy(tx: Any, name: str, **params: Any) -> list[Any]:
        if name in ("gate_lock_near", "gate_candidates_near"):
            read.extend(params.get("near", params.get("ids", [])))
        return tx_run(tx, name, **params)

    fresh.db.tx_run = spy  # type: ignore[method-assign]
    [d] = fresh.curate([BeliefCreate(text="The office Wi-Fi password changed.", namespaces=[ns])])
    # the superseded password is in the loaded copy (it is in the namespace) but known dead
    assert old.id not in read
    assert new.id in read
    assert d.target == new.id


def test_the_gates_vector_copy_notices_other_writers_and_rolled_back_writes(
    driver: Driver, embedder: OnnxEmbedder, settings: Settings, ns: str
) -> None:
    # two stores are two processes: each keeps its own copy of the namespace's vectors
    one, two = (
        Store(driver, embedder, database=settings.neo4j.database, settings=settings)
        for _ in range(2)
    )
    one.create([BeliefCreate(text="The espresso machine is on floor three.", namespaces=[ns])])
    two.create([BeliefCreate(text="The printer is next to the kitchen.", namespaces=[ns])])
    [d] = one.curate([BeliefCreate(text="The printer is next to the kitchen", namespaces=[ns])])
    assert d.verdict is Verdict.noop  # one's copy was stale, and was reloaded

    # a write that rolls back after the gate grew one's copy ...
    rows = one.prepare([BeliefCreate(text="The stapler lives in the top drawer.", namespaces=[ns])])

    def fail(tx: Any) -> None:
        one.create_in(tx, rows)
        raise RuntimeError("rolled back")

    with pytest.raises(RuntimeError):
        one.db.write(fail)
    # ... then another writer adds one belief: the count matches one's copy again
    two.create([BeliefCreate(text="The scanner sits by the window.", namespaces=[ns])])
    [d] = one.curate([BeliefCreate(text="The scanner sits by the window", namespaces=[ns])])
    assert d.verdict is Verdict.noop


def test_concurrent_contradictions_of_one_belief_make_one_chain_never_a_fork(
    store: Store, driver: Driver, ns: str, uid: str
) -> None:
    about = [f"front door {uid}"]
    [base] = store.create(
        [BeliefCreate(text="The front door code is 1234.", about=about, namespaces=[ns])]
    )
    rivals = [
        BeliefCreate(
            id=f"{uid}-r{i}",
            text=f"The front door code is {i}{i}{i}{i}.",
            about=about,
            namespaces=[ns],
        )
        for i in range(5, 10)
    ]

    def write(rival: BeliefCreate) -> Verdict:
        [d] = store.curate([rival])
        return d.verdict

    with ThreadPoolExecutor(max_workers=len(rivals)) as pool:
        verdicts = list(pool.map(write, rivals))

    assert verdicts == [Verdict.contradicts] * len(rivals)
    records, _, _ = driver.execute_query(
        "MATCH (b:Belief)-[:IN]->(:Namespace {name: $ns}) "
        "RETURN b.id AS id, b.status AS status, "
        "COUNT { (:Belief)-[:SUPERSEDES]->(b) } AS replaced_by, "
        "COUNT { (b)-[:SUPERSEDES]->(:Belief) } AS replaces",
        ns=ns,
    )
    assert max(r["replaced_by"] for r in records) == 1  # nobody was superseded twice
    assert max(r["replaces"] for r in records) == 1
    assert [r["status"] for r in records].count("active") == 1
    chain = store.chain(base.id)
    assert len(chain.beliefs) == 1 + len(rivals)  # one line through all of them
    assert chain.beliefs[0].id == base.id
    assert audit.verify(store.db, f"ns:{ns}").ok


def test_a_large_namespace_goes_through_the_vector_index(
    driver: Driver, embedder: OnnxEmbedder, settings: Settings, ns: str
) -> None:
    indexed = Store(
        driver,
        embedder,
        database=settings.neo4j.database,
        settings=Settings(gate_exact_scan_limit=0, gate_vector_cache=0),
    )
    indexed.create([BeliefCreate(text="The espresso machine is on floor three.", namespaces=[ns])])
    [d] = indexed.curate(
        [BeliefCreate(text="The espresso machine is on floor three", namespaces=[ns])]
    )
    assert d.verdict is Verdict.noop


# -- the LLM classifier over HTTP ---------------------------------------------------------------


class _OpenAI(BaseHTTPRequestHandler):
    answer: Any = None

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        pairs = json.loads(body["messages"][-1]["content"])["pairs"]
        answer = type(self).answer
        content = answer(pairs) if callable(answer) else answer
        data = json.dumps({"choices": [{"message": {"content": content}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.fixture
def llm_url() -> Iterator[tuple[str, type[_OpenAI]]]:
    handler = type("Handler", (_OpenAI,), {})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", handler
    server.shutdown()
    server.server_close()


def llm_store(driver: Driver, embedder: OnnxEmbedder, url: str) -> Store:
    return Store(
        driver,
        embedder,
        database="neo4j",
        settings=Settings(gate_llm_url=url, gate_llm_model="judge-1", gate_llm_timeout=2.0),
    )


def test_the_llm_classifier_decides_and_its_reason_is_kept(
    driver: Driver,
    embedder: OnnxEmbedder,
    llm_url: tuple[str, type[_OpenAI]],
    ns: str,
) -> None:
    url, handler = llm_url
    handler.answer = lambda pairs: json.dumps(
        {
            "verdicts": [
                {"pair": p["pair"], "verdict": "contradicts", "reason": "Berlin replaced Paris."}
                for p in pairs
            ]
        }
    )
    s = llm_store(driver, embedder, url)
    [old] = s.create([BeliefCreate(text="The company office is in Paris.", namespaces=[ns])])
    [d] = s.curate([BeliefCreate(text="The company office moved to Berlin.", namespaces=[ns])])
    assert (d.verdict, d.reason, d.classifier) == (
        Verdict.contradicts,
        "Berlin replaced Paris.",
        "llm:judge-1",
    )
    assert s.get(old.id).status == "superseded"
    assert s.chain(old.id).links[0].reason == "Berlin replaced Paris."
    assert events_in(driver, ns)[-1]["classifier"] == "llm:judge-1"


def test_malformed_llm_verdicts_fall_back_to_the_default_and_are_logged(
    driver: Driver,
    embedder: OnnxEmbedder,
    llm_url: tuple[str, type[_OpenAI]],
    ns: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    url, handler = llm_url
    handler.answer = "Sure! They contradict each other."
    s = llm_store(driver, embedder, url)
    s.create([BeliefCreate(text="The user prefers dark mode.", namespaces=[ns])])
    with caplog.at_level(logging.WARNING, logger="beliefgraph.gate.classifier"):
        [d] = s.curate([BeliefCreate(text="User prefers dark mode", namespaces=[ns])])
    assert (d.verdict, d.classifier) == (Verdict.noop, "default")
    assert "unreadable" in caplog.text


def test_with_the_llm_endpoint_down_writes_still_succeed(
    driver: Driver, embedder: OnnxEmbedder, ns: str
) -> None:
    s = llm_store(driver, embedder, "http://127.0.0.1:9/v1")  # nothing listens there
    [old] = s.create(
        [BeliefCreate(text=WIFI_OLD, kind="credential", about=["office wifi"], namespaces=[ns])]
    )
    [d] = s.curate(
        [BeliefCreate(text=WIFI_NEW, kind="correction", about=["office wifi"], namespaces=[ns])]
    )
    assert (d.verdict, d.classifier) == (Verdict.contradicts, "default")
    assert s.get(old.id).status == "superseded"


def test_unknown_query_parameters_do_not_write(client: TestClient, ns: str) -> None:
    r = client.post(
        "/v1/beliefs", params={"dry_run": "maybe"}, json={"text": "x", "namespaces": [ns]}
    )
    assert_problem(r, 422, field="dry_run")


@pytest.mark.parametrize(
    ("first", "later"),
    [
        ("The office Wi-Fi password is tulip-42.", "The office Wi-Fi password is maple-77."),
        (
            "We use Postgres for the events service.",
            "The events service now uses ClickHouse instead of Postgres.",
        ),
        ("I prefer tabs for indentation.", "I prefer spaces for indentation."),
        ("The standup is at 9am.", "The standup moved to 10am."),
    ],
)
def test_a_plain_text_correction_supersedes_what_it_corrects(
    client: TestClient, ns: str, first: str, later: str
) -> None:
    # plain text, no `about`: the gate reads subject, change and value from the words
    for text in (first, later):
        r = client.post("/v1/beliefs", json={"text": text, "namespaces": [ns]})
        assert r.status_code == 201, r.text
    assert r.headers["gate-verdict"] == "contradicts", r.json()
    active = client.get("/v1/beliefs", params={"namespace": ns, "status": "active"}).json()
    assert [b["text"] for b in active["items"]] == [later]
    chain = client.get(f"/v1/beliefs/{r.json()['id']}/chain").json()
    assert [b["text"] for b in chain["beliefs"]] == [first, later]


def test_a_restatement_in_other_words_reinforces(client: TestClient, ns: str) -> None:
    client.post(
        "/v1/beliefs", json={"text": "Our fiscal year ends on June 30.", "namespaces": [ns]}
    )
    r = client.post("/v1/beliefs", json={"text": "FY ends 30 June.", "namespaces": [ns]})
    assert r.headers["gate-verdict"] == "noop", r.json()
    listed = client.get("/v1/beliefs", params={"namespace": ns}).json()
    assert [b["text"] for b in listed["items"]] == ["Our fiscal year ends on June 30."]

"""The audit log on the real server: every change is an event in its transaction, the chain
verifies, and edits, deletions and reorderings made directly in Cypher are each caught.

Tampering touches only this test's own chain (``ns:<its namespace>``) and restores it, so
the shared database's log stays intact for everyone else.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from beliefgraph import audit
from beliefgraph.access import Caller, Role
from beliefgraph.errors import Forbidden
from beliefgraph.importer.documents import import_documents, parse_documents
from beliefgraph.models import BeliefCreate, EdgeType, PrecedenceRequest, SupersedeRequest
from beliefgraph.store import Store
from tests.integration.test_beliefs_api import assert_problem


def chain_events(driver: Driver, chain: str) -> list[dict[str, Any]]:
    records, _, _ = driver.execute_query(
        "MATCH (a:AuditEvent {chain: $chain}) RETURN a {.*} AS e ORDER BY a.seq", chain=chain
    )
    return [dict(r["e"]) for r in records]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "beliefgraph.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture
def chain(store: Store, ns: str, uid: str) -> Iterator[str]:
    """A chain of five events in this test's namespace: add x3, supersede, retract."""
    store.create(
        [
            BeliefCreate(id=f"{uid}-{i}", text=text, namespaces=[ns])
            for i, text in enumerate(
                ["The kettle is in the kitchen.", "Meetings start at nine.", "Parking is free."]
            )
        ]
    )
    store.supersede(
        f"{uid}-1",
        SupersedeRequest(
            by=BeliefCreate(id=f"{uid}-3", text="Meetings start at ten.", namespaces=[ns]),
            reason="moved",
        ),
        actor="tester",
    )
    store.retract(f"{uid}-2", actor="tester")
    name = f"ns:{ns}"
    yield name
    # whatever a test did, it must leave its chain intact for the global verification
    assert audit.verify(store.db, name).ok


def test_every_change_is_an_event_linked_to_the_one_before(
    store: Store, driver: Driver, chain: str, uid: str
) -> None:
    events = chain_events(driver, chain)
    assert [e["action"] for e in events] == ["add", "add", "add", "supersede", "retract"]
    assert [e["seq"] for e in events] == [1, 2, 3, 4, 5]
    assert events[0].get("prev_hash") is None  # Neo4j stores no nulls
    assert all(b["prev_hash"] == a["hash"] for a, b in itertools.pairwise(events))
    assert all(e["hash"] == audit.event_hash(e | {"at": e["at"].to_native()}) for e in events)
    supersede = events[3]
    assert supersede["beliefs"] == [f"{uid}-3", f"{uid}-1"]
    assert supersede["reason"] == "moved"
    assert supersede["actor"] == "tester"
    assert '"Meetings start at nine."' in supersede["snapshot"]
    report = audit.verify(store.db, chain)
    assert report.ok
    assert (report.chains, report.events) == (1, 5)
    assert report.heads[0].head == events[-1]["hash"]


def test_an_edited_event_is_caught(store: Store, driver: Driver, chain: str) -> None:
    original = chain_events(driver, chain)[2]["reason"]
    driver.execute_query(
        "MATCH (a:AuditEvent {chain: $chain, seq: 3}) SET a.reason = 'nothing happened'",
        chain=chain,
    )
    broken = audit.verify(store.db, chain).first_broken
    assert broken is not None
    assert (broken.chain, broken.seq) == (chain, 3)
    assert "altered" in broken.problem
    driver.execute_query(
        "MATCH (a:AuditEvent {chain: $chain, seq: 3}) SET a.reason = $reason",
        chain=chain,
        reason=original,
    )


@pytest.mark.parametrize("moved", ["PT1S", "PT0.000001S"])
def test_an_event_moved_in_time_is_caught(
    store: Store, driver: Driver, chain: str, moved: str
) -> None:
    """Verification reads ``at`` as text: a second or a microsecond off is still a change."""
    edit = "MATCH (a:AuditEvent {chain: $chain, seq: 3}) SET a.at = a.at + duration($by)"
    driver.execute_query(edit, chain=chain, by=moved)
    broken = audit.verify(store.db, chain).first_broken
    assert broken is not None
    assert (broken.chain, broken.seq) == (chain, 3)
    driver.execute_query(edit, chain=chain, by=f"-{moved}")


def test_a_deleted_event_is_caught(store: Store, driver: Driver, chain: str) -> None:
    gone = chain_events(driver, chain)[1]
    driver.execute_query("MATCH (a:AuditEvent {id: $id}) DETACH DELETE a", id=gone["id"])
    broken = audit.verify(store.db, chain).first_broken
    assert broken is not None
    assert broken.seq == 2
    assert "missing" in broken.problem
    driver.execute_query("CREATE (a:AuditEvent) SET a = $props", props=gone)


def test_a_deleted_last_event_is_caught_by_the_head(
    store: Store, driver: Driver, chain: str
) -> None:
    last = chain_events(driver, chain)[-1]
    driver.execute_query("MATCH (a:AuditEvent {id: $id}) DETACH DELETE a", id=last["id"])
    broken = audit.verify(store.db, chain).first_broken
    assert broken is not None
    assert broken.seq == 5
    driver.execute_query("CREATE (a:AuditEvent) SET a = $props", props=last)


def test_reordered_events_are_caught(store: Store, driver: Driver, chain: str) -> None:
    def swap() -> None:  # seq is unique per chain: move one aside first
        for statement in (
            "MATCH (a:AuditEvent {chain: $chain, seq: 2}) SET a.seq = -2",
            "MATCH (b:AuditEvent {chain: $chain, seq: 3}) SET b.seq = 2",
            "MATCH (a:AuditEvent {chain: $chain, seq: -2}) SET a.seq = 3",
        ):
            driver.execute_query(statement, chain=chain)

    swap()
    broken = audit.verify(store.db, chain).first_broken
    assert broken is not None
    assert broken.seq == 2
    assert "does not follow" in broken.problem
    swap()  # swapping again restores the order


def test_the_cli_names_the_first_broken_link(driver: Driver, chain: str) -> None:
    ok = cli("audit", "verify", "--chain", chain)
    assert ok.returncode == 0, ok.stderr
    assert "intact: 5 events in 1 chain" in ok.stdout
    driver.execute_query(
        "MATCH (a:AuditEvent {chain: $chain, seq: 4}) SET a.actor = 'someone else'", chain=chain
    )
    try:
        bad = cli("audit", "verify", "--chain", chain)
        assert bad.returncode == 1
        assert f"BROKEN: chain {chain}, event 4" in bad.stdout
    finally:
        driver.execute_query(
            "MATCH (a:AuditEvent {chain: $chain, seq: 4}) SET a.actor = 'tester'", chain=chain
        )


def test_concurrent_writers_append_without_forking(store: Store, driver: Driver, ns: str) -> None:
    texts = [f"Room {i} has a whiteboard and {i} chairs." for i in range(8)]

    def write(text: str) -> None:
        store.create([BeliefCreate(text=text, namespaces=[ns])])

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(write, texts))
    events = chain_events(driver, f"ns:{ns}")
    assert [e["seq"] for e in events] == list(range(1, 9))
    assert audit.verify(store.db, f"ns:{ns}").ok


def test_get_audit_filters_by_action_time_and_belief(
    client: TestClient, store: Store, chain: str, uid: str
) -> None:
    retracts = client.get("/v1/audit", params={"action": "retract", "belief": f"{uid}-2"}).json()
    assert [e["beliefs"] for e in retracts["items"]] == [[f"{uid}-2"]]
    touching = client.get("/v1/audit", params={"belief": f"{uid}-1"}).json()["items"]
    assert [e["action"] for e in touching] == ["supersede", "add"]  # newest first
    future = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    assert (
        client.get("/v1/audit", params={"since": future, "belief": f"{uid}-1"}).json()["items"]
        == []
    )
    first = client.get("/v1/audit", params={"belief": f"{uid}-1", "limit": 1}).json()
    assert first["next_cursor"]
    second = client.get(
        "/v1/audit", params={"belief": f"{uid}-1", "limit": 1, "cursor": first["next_cursor"]}
    ).json()
    assert [e["action"] for e in first["items"] + second["items"]] == ["supersede", "add"]
    assert_problem(client.get("/v1/audit", params={"action": "explode"}), 422, field="action")
    assert_problem(client.get("/v1/audit", params={"cursor": "garbage!"}), 422, field="cursor")


@pytest.mark.parametrize("scanned", [10**6, 0], ids=["log-order", "chains-first"])
def test_a_keys_audit_pages_alike_either_way(
    store: Store,
    ns: str,
    uid: str,
    scanned: int,
    monkeypatch: pytest.MonkeyPatch,
    reads: list[str],
) -> None:
    """A key's audit page is read from the log newest first when its events fill it there,
    and from its namespaces' chains when not: the same pages either way. An event goes to the
    chain of its least namespace, so one of the key's chains may hold an event of a namespace
    the key does not see too: that one is not listed."""
    # ns sorts before both: an event of ns and beyond goes to ns's chain
    other, beyond = f"{ns}-a", f"{ns}-z"
    texts = ["The kettle is blue.", "Invoices go out on Fridays.", "The cat sleeps upstairs."]
    for i, text in enumerate(texts):  # one write each: the events of one write share a time
        store.create([BeliefCreate(id=f"{uid}-{i}", text=text, namespaces=[ns])])
    started = datetime.now(UTC)
    pair = [  # one write: two events of one time, which the cursor orders by id
        BeliefCreate(id=f"{uid}-a", text="Parking is behind the bakery.", namespaces=[other]),
        BeliefCreate(id=f"{uid}-b", text="The boiler is serviced in June.", namespaces=[other]),
    ]
    store.create(pair)
    piano = BeliefCreate(id=f"{uid}-z", text="The piano needs tuning.", namespaces=[ns, beyond])
    store.create([piano])
    store.retract(f"{uid}-1", actor="tester")
    assert audit.chain_for([ns, beyond]) == f"ns:{ns}"
    # 10**6: the first read covers the log, every full page comes from it; 0: none does
    monkeypatch.setattr(store.db, "scanned_per_row", scanned)

    def listed(caller: Caller, **filters: Any) -> list[tuple[str, list[str]]]:
        """(action, beliefs) of each event, paging by 1 and by 5; both the same."""
        by_size = []
        for limit in (1, 5):
            events, cursor = [], None
            while True:
                page = audit.list_events(store.db, caller, cursor=cursor, limit=limit, **filters)
                events += [(e.action.value, e.beliefs) for e in page.items]
                if (cursor := page.next_cursor) is None:
                    break
            by_size.append(events)
        assert by_size[0] == by_size[1]
        return by_size[0]

    older = [("add", [f"{uid}-{i}"]) for i in (2, 1, 0)]
    mine = Caller("curator", Role.curator, frozenset({ns}))
    assert listed(mine) == [("retract", [f"{uid}-1"]), *older]  # not the piano: beyond's too
    every = listed(Caller("curator", Role.curator, frozenset({ns, beyond, other})))
    assert every[:2] == [("retract", [f"{uid}-1"]), ("add", [f"{uid}-z"])]
    assert sorted(every[2:4]) == [("add", [f"{uid}-a"]), ("add", [f"{uid}-b"])]
    assert every[4:] == older
    assert listed(Caller("c", Role.curator, frozenset({other})), since=started) == every[2:4]
    assert listed(mine, belief=f"{uid}-1") == [("retract", [f"{uid}-1"]), ("add", [f"{uid}-1"])]
    assert listed(mine, action=audit.AuditAction.retract) == [("retract", [f"{uid}-1"])]
    assert listed(Caller("c", Role.curator, frozenset())) == []
    # the way asked for was taken: full pages from the log's order, or all from the chains
    if scanned:
        assert reads.count("audit_list") > reads.count("audit_list_in") > 0
    else:
        assert reads.count("audit_list") == reads.count("audit_list_in") > 0
    assert reads.count("audit_list_touching") > 0  # the belief's history


def test_every_event_touches_the_beliefs_it_names(
    store: Store, driver: Driver, chain: str, ns: str, uid: str
) -> None:
    """A belief's history is read from the events that touch it (audit_list_touching): every
    kind of event that names a belief must touch it (here: add, supersede, retract, the gate
    folding a repeat, precedence set and removed, a refused change)."""
    store.create([BeliefCreate(text="The kettle is in the kitchen.", namespaces=[ns])])
    store.rank(EdgeType.overrides, f"{uid}-3", PrecedenceRequest(other=f"{uid}-0", reason="r"))
    store.unrank(EdgeType.overrides, f"{uid}-3", f"{uid}-0")
    agent = Caller("agent", Role.agent, frozenset({ns}))
    with pytest.raises(Forbidden):
        store.rank(
            EdgeType.overrides,
            f"{uid}-0",
            PrecedenceRequest(other=f"{uid}-3", reason="r"),
            caller=agent,
        )
    records, _, _ = driver.execute_query(
        "MATCH (a:AuditEvent {chain: $chain}) "
        "RETURN a.action AS action, a.beliefs AS named, [(a)-[:TOUCHED]->(b) | b.id] AS touched",
        chain=chain,
    )
    actions = {r["action"] for r in records}
    assert {"add", "supersede", "retract", "noop", "override", "unrank", "refused"} <= actions
    for r in records:
        assert sorted(r["touched"]) == sorted(r["named"]), r["action"]


def test_a_deleted_beliefs_history_is_still_listed(
    client: TestClient, driver: Driver, chain: str, uid: str
) -> None:
    """Its events name it but touch nothing: the log is read for it instead."""
    before = client.get("/v1/audit", params={"belief": f"{uid}-0"}).json()["items"]
    assert [e["action"] for e in before] == ["add"]
    driver.execute_query("MATCH (b:Belief {id: $id}) DETACH DELETE b", id=f"{uid}-0")
    after = client.get("/v1/audit", params={"belief": f"{uid}-0"}).json()["items"]
    assert after == before


def test_the_whole_log_verifies_over_the_api(client: TestClient, chain: str) -> None:
    report = client.get("/v1/audit/verify", params={"chain": chain}).json()
    assert report["ok"] is True
    assert report["events"] == 5


def test_a_documents_supersession_is_audited_and_labelled(
    store: Store, driver: Driver, ns: str, uid: str
) -> None:
    docs = parse_documents(
        [
            {
                "_id": f"{uid}-new",
                "type": "decision",
                "content": "Lints with Biome.",
                "scope": [ns],
            },
            {
                "_id": f"{uid}-old",
                "type": "decision",
                "content": "Linted with ESLint.",
                "scope": [ns],
                "superseded_by": f"{uid}-new",
            },
        ]
    )
    assert import_documents(store, docs).supersessions == 1
    [event] = [e for e in chain_events(driver, f"ns:{ns}") if e["action"] == "supersede"]
    assert event["beliefs"] == [f"{uid}-new", f"{uid}-old"]
    records, _, _ = driver.execute_query(
        "MATCH (b:Belief {id: $id}) RETURN b:Superseded AS labelled", id=f"{uid}-old"
    )
    assert records[0]["labelled"]
    assert audit.verify(store.db, f"ns:{ns}").ok

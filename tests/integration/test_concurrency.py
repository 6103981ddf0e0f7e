"""Concurrent writers: supersessions of one belief leave one chain, never a fork; writers to
one namespace take turns instead of deadlocking in Neo4j."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor

import pytest
from neo4j import Driver

from beliefgraph.errors import DuplicateId, NotSupersedable
from beliefgraph.models import BeliefCreate, SupersedeRequest
from beliefgraph.store import Store


def test_racing_supersessions_leave_one_chain(
    store: Store, driver: Driver, ns: str, uid: str
) -> None:
    [old] = store.create([BeliefCreate(id=f"{uid}-old", text="door code is 1234", namespaces=[ns])])
    rivals = [
        BeliefCreate(id=f"{uid}-r{i}", text=f"door code is now {i}{i}{i}", namespaces=[ns])
        for i in range(6)
    ]

    def supersede(rival: BeliefCreate) -> str:
        try:
            store.supersede(old.id, SupersedeRequest(by=rival, reason="changed"))
            return "won"
        except NotSupersedable:
            return "refused"

    with ThreadPoolExecutor(max_workers=6) as pool:
        outcomes = list(pool.map(supersede, rivals))

    assert outcomes.count("won") == 1
    assert outcomes.count("refused") == 5
    records, _, _ = driver.execute_query(
        "MATCH (n:Belief)-[:SUPERSEDES]->(:Belief {id: $id}) RETURN count(n) AS n", id=old.id
    )
    assert records[0]["n"] == 1
    chain = store.chain(old.id)
    assert len(chain.beliefs) == 2
    # the losers' beliefs were never written: each supersession is one transaction
    assert len(store.list_beliefs(namespace=ns).items) == 2


def test_writers_to_one_namespace_queue_instead_of_deadlocking(
    store: Store, driver: Driver, ns: str, uid: str, caplog: pytest.LogCaptureFixture
) -> None:
    def write(i: int) -> str:
        colour = ("red", "blue", "green", "grey")[i % 4]
        [belief] = store.create(
            [
                BeliefCreate(
                    id=f"{uid}-w{i}", text=f"the {colour} door {i} opens with {i}", namespaces=[ns]
                )
            ]
        )
        return belief.id

    with caplog.at_level(logging.INFO, logger="neo4j"), ThreadPoolExecutor(20) as pool:
        written = list(pool.map(write, range(60)))
    retried = [r.getMessage() for r in caplog.records if "will be retried" in r.getMessage()]
    assert retried == []  # no deadlock (nor any other transient error) had to be retried
    assert len(written) == 60
    records, _, _ = driver.execute_query(
        "MATCH (b:Belief)-[:IN]->(:Namespace {name: $ns}) RETURN count(b) AS n", ns=ns
    )
    assert records[0]["n"] == len(set(written))


def test_writers_who_wait_together_each_get_their_own_answer(
    store: Store, driver: Driver, ns: str, uid: str
) -> None:
    # writes waiting for one namespace go in as one transaction; each still gets its own
    # decisions, and one that is refused (an id taken) takes none of the others with it
    [taken] = store.create(
        [BeliefCreate(id=f"{uid}-taken", text="the hall light is on", namespaces=[ns])]
    )

    def write(i: int) -> str:
        belief_id = taken.id if i == 7 else f"{uid}-t{i}"
        text = f"the {('red', 'blue', 'green')[i % 3]} locker {i} code is {1000 + i}"
        try:
            decisions = store.curate([BeliefCreate(id=belief_id, text=text, namespaces=[ns])])
        except DuplicateId:
            return "refused"
        assert [d.index for d in decisions] == [0]
        return decisions[0].belief_id

    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(write, range(24)))
    assert answers[7] == "refused"
    assert [a for i, a in enumerate(answers) if i != 7] == [
        f"{uid}-t{i}" for i in range(24) if i != 7
    ]
    records, _, _ = driver.execute_query(
        "MATCH (b:Belief)-[:IN]->(:Namespace {name: $ns}) RETURN count(b) AS n", ns=ns
    )
    assert records[0]["n"] == 24  # the taken one and the 23 others

"""Scope precision on generated realistic stores, on the real Neo4j with the real model."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

from beliefgraph.evaluation.stores import PLAIN_READS, StoreNamespace, Stores, evaluate_stores
from beliefgraph.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from realistic_stores import generate


def _stores(namespaces: int, seed: int) -> Stores:
    data = generate(namespaces, 50, seed)
    return Stores("t", tuple(StoreNamespace.model_validate(n) for n in data["namespaces"]))


def test_where_nothing_is_about_the_thing_asked_no_belief_governs(store: Store) -> None:
    stores = _stores(3, seed=101)
    planner, vector = evaluate_stores(store, stores, ["planner", "vector"])
    assert planner["questions"] == vector["questions"] == 30
    # the nearest text always answers something; the planner answers for the thing or not
    assert vector["absent_none_governs"] == 0
    assert planner["absent_none_governs"] > planner["absent"] // 2
    assert planner["wrong_thing"] < vector["wrong_thing"]
    for row in planner["rows"]:
        if row["kind_of_question"] == "exact" and row["governing"] is not None:
            assert row["governing"].startswith("b")  # mapped back to the file's ids
    for summary in (planner, vector):
        plain = [r for r in summary["rows"] if r["plain_read"]]
        assert summary["plain_reads"] == len(plain) > 0
        assert summary["plain_reads_answered"] == sum(r["action"] == "answer" for r in plain)
        assert {r["kind_of_question"] for r in plain} == {"exact"}


def test_plain_reads_are_scored_by_the_action_given() -> None:
    stores = _stores(3, seed=101)
    plain = {
        q.query
        for ns in stores.namespaces
        for q in ns.questions
        if q.kind_of_question == "exact" and q.asked_type in PLAIN_READS
    }
    assert plain  # the generator asks a cost, a place, a schedule, ...
    codes = [q for ns in stores.namespaces for q in ns.questions if q.asked_type == "code"]
    assert all(q.query not in plain for q in codes)  # a code is not a plain read


def test_the_answer_key_never_reaches_the_store(store: Store) -> None:
    run = uuid.uuid4().hex[:8]
    [summary] = evaluate_stores(store, _stores(1, seed=5), ["planner"], run=run)
    assert summary["questions"] == 10
    namespace = f"project:stores-{run}-n1"
    rows = store.db.run_read("eval_namespace_beliefs", namespace=namespace, embedding=[0.1] * 384)
    assert len(rows) == 50
    [raw] = store.db.driver.execute_query(
        "MATCH (b:Belief)-[:IN]->(:Namespace {name: $ns}) "
        "RETURN count(b) AS n, sum(size([k IN keys(b) WHERE k IN ['thing', 'type', 'about', "
        "'expected']])) AS leaked",
        ns=namespace,
        database_=store.db.database,
    ).records
    assert raw["n"] == 50
    assert raw["leaked"] == 0

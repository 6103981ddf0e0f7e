"""Scope precision on generated realistic stores, on the real Neo4j with the real model."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

from beliefgraph.evaluation.stores import StoreNamespace, Stores, evaluate_stores
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

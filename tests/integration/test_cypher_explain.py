"""Every named query compiles on the real Neo4j (EXPLAIN plans it without running it)."""

from __future__ import annotations

import pytest
from neo4j import Driver

from beliefgraph.cypher import load_queries
from beliefgraph.schema import init_schema, readiness
from beliefgraph.store import Store

QUERIES = load_queries()


@pytest.mark.parametrize("name", sorted(set(QUERIES) - {"schema"}))
def test_query_compiles(name: str, driver: Driver, store: Store) -> None:
    query = QUERIES[name]
    params = dict.fromkeys(query.params)
    with driver.session(database=store.db.database) as session:
        summary = session.run("EXPLAIN " + query.text, params).consume()
    assert summary.plan is not None


def test_schema_statements_are_idempotent(store: Store) -> None:
    init_schema(store.db)  # a second run (the fixture ran the first) must not fail
    assert readiness(store.db).ready

"""The schema: constraints and indexes made once (``beliefgraph init``), the backfills that give
beliefs stored before a property existed that property, and readiness.

>>> init_schema(Db(driver, database="neo4j"))    # doctest: +SKIP
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from neo4j import ManagedTransaction
from neo4j.exceptions import DriverError, Neo4jError

from beliefgraph.db import Db
from beliefgraph.embeddings import packed
from beliefgraph.errors import StoreUnavailable
from beliefgraph.index_keys import name_edits, search_keys, text_words

log = logging.getLogger(__name__)

#: the indexes the service needs online before it is ready
REQUIRED_INDEXES = frozenset({"belief_embedding", "belief_text", "belief_search", "entity_names"})
#: what cypher/schema.cypher's belief_search covers, in order; an index made over other
#: properties (by an earlier schema) is made again by init
SEARCH_INDEX_PROPERTIES = (
    "canonical_name",
    "aliases_text",
    "text_words",
    "search_keys",
    "name_edits",
)


@dataclass(frozen=True)
class Readiness:
    """Whether Neo4j answers and the required indexes are online, and if not, why (in words
    that name neither Neo4j's address nor its version: the log has those)."""

    ready: bool
    reason: str | None
    #: the server's agent ("Neo4j/5.26.30") and the required indexes' states, for the log
    neo4j: str
    indexes: dict[str, str]


def init_schema(db: Db, *, wait_seconds: int = 300) -> None:
    """Create constraints and indexes if missing (``belief_search`` again when an earlier
    schema made it over other properties), wait until they are online, and give beliefs
    stored before ``search_keys``, ``embedding_f32``, ``name_edits`` and ``text_words``
    existed those, and move entities' aliases to their namespaces (each a no-op once done)."""
    with db.driver.session(database=db.database) as session:
        found = db.run_read("index_properties", index="belief_search")
        if found and list(found[0]["properties"]) != list(SEARCH_INDEX_PROPERTIES):
            session.run(db.queries["belief_search_drop"].text).consume()
        for statement in db.queries["schema"].statements():
            session.run(statement).consume()
        session.run(db.queries["await_indexes"].text, seconds=wait_seconds).consume()
    backfill_search_keys(db)
    backfill_packed_embeddings(db)
    backfill_search_terms(db)
    backfill_entity_aliases(db)


def backfill_search_keys(db: Db, *, batch: int = 5_000) -> int:
    """Set ``search_keys`` on every belief that lacks it; return how many were set."""
    done = 0
    while found := db.run_read("belief_missing_search_keys", limit=batch):
        rows = [{"id": r["id"], "keys": search_keys(r["user"], r["namespaces"])} for r in found]

        def work(tx: ManagedTransaction, rows: list[dict[str, Any]] = rows) -> int:
            return int(db.tx_run(tx, "belief_set_search_keys", rows=rows)[0]["updated"])

        done += db.write(work)
    return done


def backfill_entity_aliases(db: Db, *, batch: int = 5_000) -> int:
    """Move the aliases a store from before they were kept per namespace holds on ``Entity``
    nodes to the entities' ``NAMED_IN`` edges, one per namespace of the beliefs about them;
    return how many entities were done."""
    done = 0
    while moved := db.write(
        lambda tx: int(db.tx_run(tx, "entity_aliases_per_namespace", limit=batch)[0]["moved"])
    ):
        done += moved
    return done


def backfill_search_terms(db: Db, *, batch: int = 5_000) -> int:
    """Set ``name_edits`` (:func:`~beliefgraph.index_keys.name_edits`) and ``text_words``
    (:func:`~beliefgraph.index_keys.text_words`) on every belief that lacks them; return how
    many were set."""
    done, after = 0, ""
    while found := db.run_read("belief_missing_search_terms", after=after, limit=batch):
        rows = [
            {
                "id": r["id"],
                "name_edits": name_edits([r["canonical_name"], *r["aliases"]]),
                "text_words": text_words(r["text"]),
            }
            for r in found
        ]

        def work(tx: ManagedTransaction, rows: list[dict[str, Any]] = rows) -> int:
            return int(db.tx_run(tx, "belief_set_search_terms", rows=rows)[0]["updated"])

        done += db.write(work)
        after = found[-1]["id"]
    return done


def backfill_packed_embeddings(db: Db, *, batch: int = 2_000) -> int:
    """Set ``embedding_f32`` (:func:`~beliefgraph.embeddings.packed`) on every belief
    that lacks it; return how many were set."""
    done, after = 0, ""
    while found := db.run_read("belief_missing_embedding_f32", after=after, limit=batch):
        rows = [
            {"id": r["id"], "embedding_f32": packed(r["embedding"])}
            for r in found
            if r["embedding"] is not None
        ]

        def work(tx: ManagedTransaction, rows: list[dict[str, Any]] = rows) -> int:
            return int(db.tx_run(tx, "belief_set_embedding_f32", rows=rows)[0]["updated"])

        done += db.write(work) if rows else 0
        after = found[-1]["id"]
    return done


def readiness(db: Db) -> Readiness:
    """Check that Neo4j answers and every required index is online; never raises."""
    try:
        info = db.driver.get_server_info()
        records = db.run_read("index_states")
    except (StoreUnavailable, Neo4jError, DriverError, OSError) as e:
        log.warning("not ready: %s", e)
        return Readiness(False, "Neo4j is unreachable", "unreachable", {})
    states = {r["name"]: r["state"] for r in records if r["name"] in REQUIRED_INDEXES}
    for name in REQUIRED_INDEXES - states.keys():
        states[name] = "MISSING"
    offline = sorted(name for name, state in states.items() if state != "ONLINE")
    if offline:
        log.warning("not ready: indexes not online: %s", ", ".join(offline))
    reason = f"{len(offline)} of {len(states)} required indexes are not online" if offline else None
    return Readiness(not offline, reason, info.agent, dict(sorted(states.items())))

"""Belief documents: the seed format maps onto beliefs; a broken entry is named, never half-read."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from beliefgraph.errors import MalformedDocument
from beliefgraph.importer.documents import Isolation, load_documents, parse_documents, to_belief
from beliefgraph.models import EpistemicStatus, Kind, Status
from tests.conftest import BENCHMARKS

SEED = BENCHMARKS / "precision"
SEED_FILE = SEED / "beliefs.seed.json"

ENTRY: dict[str, Any] = {
    "_id": "b-db-decision",
    "user_id": "test-user",
    "type": "decision",
    "canonical_name": "database_mongodb",
    "aliases": ["database"],
    "content": "Decided on MongoDB after evaluating Postgres.",
    "why_it_matters": "Prevents re-litigating Postgres.",
    "scope": ["domain:code"],
    "epistemic_status": "active",
    "confidence": 1.0,
    "pinned": True,
    "reinforcement_count": 2,
    "last_reinforced_at": "2026-10-01T00:00:00Z",
    "user_edited": False,
    "resolved_at": None,
    "superseded_by": None,
    "provenance": {"session_id": "seed", "turn_id": "seed"},
    "change_log": [],
    "participants": ["me", "you"],
}


def entry(**changes: Any) -> dict[str, Any]:
    e = copy.deepcopy(ENTRY)
    e.update(changes)
    return e


def test_the_shared_seed_loads_whole() -> None:
    docs = load_documents(SEED_FILE)
    assert len(docs) == 29
    assert {d.type for d in docs} >= {Kind.preference, Kind.decision, Kind.open_question}


def test_an_entry_maps_onto_a_belief() -> None:
    [doc] = parse_documents([ENTRY])
    b = to_belief(doc, Isolation(prefix="r1."))
    assert b.id == "r1.b-db-decision"
    assert b.user == "r1.test-user"
    assert b.kind == Kind.decision
    assert b.text == ENTRY["content"]
    assert b.canonical_name == "database_mongodb"
    assert b.aliases == ["database"]
    assert b.namespaces == ["domain:code"]  # namespaces are not renamed
    assert b.pinned is True
    assert b.status == Status.active
    assert b.epistemic_status == EpistemicStatus.reported
    assert [(e.key, e.aliases) for e in b.about] == [("database_mongodb", ["database"])]
    assert b.last_reinforced_at is not None
    # what has no field of its own is kept, nested values as JSON
    assert b.attributes["reinforcement_count"] == 2
    assert "participants" not in b.attributes  # a RELATES edge on import, not an attribute
    assert doc.participants == ["me", "you"]
    assert json.loads(str(b.attributes["provenance"])) == {"session_id": "seed", "turn_id": "seed"}


def test_status_mapping() -> None:
    docs = parse_documents(
        [
            entry(_id="q", type="open_question", epistemic_status="exploratory"),
            entry(_id="edited", user_edited=True),
            entry(_id="old", epistemic_status="superseded", superseded_by="new"),
            entry(_id="new"),
        ]
    )
    q, edited, old, _ = (to_belief(d) for d in docs)
    assert (q.status, q.epistemic_status) == (Status.exploratory, EpistemicStatus.floated)
    assert edited.epistemic_status == EpistemicStatus.confirmed
    # created active: the SUPERSEDES edge, written in the same transaction, supersedes it
    assert old.status == Status.active


@pytest.mark.parametrize(
    ("bad", "named"),
    [
        (entry(scope=["code"]), "belief 'b-db-decision': field 'scope.0'"),
        (entry(type="opinion"), "belief 'b-db-decision': field 'type'"),
        (entry(content=""), "belief 'b-db-decision': field 'content'"),
        (entry(confidence=2), "belief 'b-db-decision': field 'confidence'"),
        (entry(epistemic_status="maybe"), "belief 'b-db-decision': field 'epistemic_status'"),
        (entry(epistemic_status="superseded"), "belief 'b-db-decision': field 'superseded_by'"),
        (entry(superseded_by="b-db-decision"), "field 'superseded_by': names the belief itself"),
        ({k: v for k, v in ENTRY.items() if k != "_id"}, "belief #1: field '_id'"),
        # the entry is fine, what it maps onto is not: a belief with a canonical name keeps
        # 50 aliases at most, and 50 fields in attributes
        (entry(aliases=[f"a{i}" for i in range(60)]), "belief 'b-db-decision': field 'aliases'"),
        (entry(**{f"k{i}": 1 for i in range(60)}), "belief 'b-db-decision': field 'attributes'"),
    ],
)
def test_a_malformed_entry_names_the_belief_and_field(bad: dict[str, Any], named: str) -> None:
    with pytest.raises(MalformedDocument, match=named.replace(".", r"\.").replace("#", "#")):
        parse_documents([entry(_id="fine"), bad])


def test_repeated_ids_and_loops_are_refused() -> None:
    with pytest.raises(MalformedDocument, match="repeated"):
        parse_documents([ENTRY, ENTRY])
    with pytest.raises(MalformedDocument, match="loops"):
        parse_documents([entry(_id="a", superseded_by="b"), entry(_id="b", superseded_by="a")])
    with pytest.raises(MalformedDocument, match="already replaces"):
        parse_documents(
            [
                entry(_id="a", superseded_by="c"),
                entry(_id="b", superseded_by="c"),
                entry(_id="c"),
            ]
        )


def test_a_file_that_is_not_json_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "beliefs.json"
    bad.write_text("[{")
    with pytest.raises(MalformedDocument, match=r"beliefs\.json: not JSON"):
        load_documents(bad)
    bad.write_text('{"nope": 1}')
    with pytest.raises(MalformedDocument, match="expected a JSON array"):
        load_documents(bad)


def test_json_past_the_parsers_limits_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "beliefs.json"
    bad.write_text("[" * 5000 + "]" * 5000)
    with pytest.raises(
        MalformedDocument, match=r"beliefs\.json: unreadable JSON: nested too deeply"
    ):
        load_documents(bad)
    bad.write_text("[" + "9" * 5000 + "]")
    with pytest.raises(MalformedDocument, match="unreadable JSON: Exceeds the limit"):
        load_documents(bad)

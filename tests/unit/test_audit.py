"""The audit chain's hashing and the walk that finds broken links, on events in memory."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from beliefgraph.audit import (
    HASHED_FIELDS,
    SYSTEM_CHAIN,
    _ChainCheck,
    canonical_json,
    chain_for,
    event_hash,
)

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def make_chain(n: int, chain: str = "ns:user:me") -> list[dict[str, Any]]:
    events, prev = [], None
    for i in range(1, n + 1):
        event: dict[str, Any] = {
            "id": f"e{i}",
            "chain": chain,
            "seq": i,
            "at": T0 + timedelta(seconds=i),
            "action": "add",
            "beliefs": [f"b{i}"],
            "snapshot": json.dumps([{"id": f"b{i}", "text": f"belief {i}"}]),
            "namespaces": ["user:me"],
            "reason": "nothing close",
            "similarity": 0.25 * i,
            "actor": "tester",
            "write_path": "api",
            "classifier": "default",
            "prev_hash": prev,
        }
        event["hash"] = prev = event_hash(event)
        events.append(event)
    return events


def walk(events: list[dict[str, Any]], length: int | None, head: str | None) -> _ChainCheck:
    check = _ChainCheck("ns:user:me", length, head)
    for event in sorted(events, key=lambda e: e["seq"]):
        check.feed(event)
    check.finish()
    return check


def test_canonical_json_is_sorted_compact_utf8_and_covers_every_field() -> None:
    event = make_chain(1)[0] | {"reason": "café ☕"}
    body = canonical_json(event)
    assert body.startswith(
        b'{"action":"add","actor":"tester","at":"2026-11-30T09:00:01.000000+00:00"'
    )
    assert "café ☕".encode() in body
    assert set(json.loads(body)) == set(HASHED_FIELDS)
    compact = json.dumps(
        json.loads(body), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    assert body == compact.encode()


@pytest.mark.parametrize("field", [f for f in HASHED_FIELDS if f != "prev_hash"])
def test_changing_any_field_changes_the_hash(field: str) -> None:
    event = make_chain(1)[0]
    changed = dict(event)
    changed[field] = T0 if field == "at" else (99 if field in ("seq", "similarity") else "x")
    assert event_hash(changed) != event_hash(event)


def test_the_same_instant_in_another_zone_hashes_the_same() -> None:
    event = make_chain(1)[0]
    other = event | {"at": event["at"].astimezone(datetime.now().astimezone().tzinfo)}
    assert event_hash(other) == event_hash(event)


def test_an_intact_chain_verifies() -> None:
    events = make_chain(5)
    check = walk(events, 5, events[-1]["hash"])
    assert check.broken is None
    assert check.seen == 5


def test_an_edited_event_is_named() -> None:
    events = make_chain(5)
    events[2]["reason"] = "nothing to see here"
    broken = walk(events, 5, events[-1]["hash"]).broken
    assert broken is not None
    assert (broken.seq, broken.event_id) == (3, "e3")
    assert "altered" in broken.problem


def test_a_deleted_event_is_named() -> None:
    events = make_chain(5)
    del events[1]
    broken = walk(events, 5, events[-1]["hash"]).broken
    assert broken is not None
    assert broken.seq == 2
    assert "missing" in broken.problem


def test_a_deleted_last_event_is_caught_by_the_head() -> None:
    events = make_chain(5)
    head = events[-1]["hash"]
    broken = walk(events[:-1], 5, head).broken
    assert broken is not None
    assert broken.seq == 5


def test_reordered_events_are_caught() -> None:
    events = make_chain(5)
    events[1]["seq"], events[2]["seq"] = 3, 2  # swap positions 2 and 3
    broken = walk(events, 5, events[-1]["hash"]).broken
    assert broken is not None
    assert broken.seq == 2
    assert "does not follow" in broken.problem


def test_a_rehashed_edit_still_breaks_the_next_link() -> None:
    events = make_chain(5)
    events[2]["reason"] = "forged"
    events[2]["hash"] = event_hash(events[2])  # the forger recomputes this event's hash
    broken = walk(events, 5, events[-1]["hash"]).broken
    assert broken is not None
    assert broken.seq == 4


def test_events_without_a_head_are_broken() -> None:
    events = make_chain(2)
    broken = walk(events, None, None).broken
    assert broken is not None
    assert "no head" in broken.problem


def test_chains_are_per_first_namespace() -> None:
    assert chain_for(["user:me", "project:x"]) == "ns:project:x"
    assert chain_for([]) == SYSTEM_CHAIN

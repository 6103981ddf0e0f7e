"""The one place where Neo4j records become models."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from neo4j import Record
from neo4j.time import DateTime

from beliefgraph.models import BeliefPublic, ChainLink, Governs


def native_datetime(value: Any) -> datetime | None:
    """A driver ``DateTime`` (or ``None``) as a timezone-aware ``datetime``."""
    if value is None:
        return None
    if isinstance(value, DateTime):
        return value.to_native()
    if isinstance(value, datetime):
        return value
    raise TypeError(f"expected a datetime, got {type(value).__name__}")


def belief_from_record(record: Record) -> BeliefPublic:
    """Build a :class:`BeliefPublic` from a row of ``belief_get_many``."""
    b = dict(record["belief"])
    governs = record["governs"]
    return BeliefPublic(
        id=b["id"],
        text=b["text"],
        kind=b["kind"],
        status=b["status"],
        epistemic_status=b["epistemic_status"],
        priority=b["priority"],
        verification_required=b.get("verification_required", False),
        allowed_action=b.get("allowed_action"),
        resource_sensitivity=b.get("resource_sensitivity"),
        canonical_name=b.get("canonical_name"),
        aliases=list(b.get("aliases") or []),
        why_it_matters=b.get("why_it_matters"),
        trust=b["trust"],
        importance=b["importance"],
        confidence=b["confidence"],
        pinned=b.get("pinned", False),
        reinforcement_count=b.get("reinforcement_count", 0),
        created_at=native_datetime(b["created_at"]),
        updated_at=native_datetime(b["updated_at"]),
        valid_from=native_datetime(b.get("valid_from")),
        valid_to=native_datetime(b.get("valid_to")),
        write_path=b["write_path"],
        author=b.get("author"),
        user=b.get("user"),
        resolved_at=native_datetime(b.get("resolved_at")),
        last_reinforced_at=native_datetime(b.get("last_reinforced_at")),
        attributes=json.loads(b["attributes_json"]) if b.get("attributes_json") else {},
        about=sorted(record["about"]),
        governs=Governs.model_validate(dict(governs)) if governs else None,
        namespaces=sorted(record["namespaces"]),
        supersedes=record["supersedes"],
        superseded_by=record["superseded_by"],
    )


def link_from_map(link: dict[str, Any]) -> ChainLink:
    """Build a :class:`ChainLink` from one map of ``belief_chain``'s ``links``."""
    return ChainLink(
        newer=link["newer"],
        older=link["older"],
        at=native_datetime(link["at"]),
        reason=link["reason"],
        by=link.get("by"),
    )


def detail_from_record(record: Record) -> tuple[BeliefPublic, dict[str, Any]]:
    """Split a row of ``planner_details`` into the belief and its planner columns.

    Returns:
        The belief, and a dict of plain values: names, scope_key, head, chain, links
        (as :class:`ChainLink`), overrides, narrows, about_hits, scope_hits, similarity,
        candidate.
    """
    extra = {
        key: record[key]
        for key in (
            "names",
            "scope_key",
            "head",
            "chain",
            "overrides",
            "narrows",
            "about_hits",
            "scope_hits",
            "similarity",
            "candidate",
        )
    }
    extra["links"] = [link_from_map(dict(link)) for link in record["links"]]
    return belief_from_record(record), extra

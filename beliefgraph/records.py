"""Where Neo4j records of beliefs and their supersession chains become models."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from neo4j.time import DateTime

from beliefgraph.models import (
    BeliefPublic,
    ChainLink,
    Governs,
)


def native_datetime(value: Any) -> datetime | None:
    """A driver ``DateTime``, an ISO 8601 string from Cypher's ``toString()`` (or ``None``)
    as a timezone-aware ``datetime``, to the microsecond as the driver's ``to_native()``."""
    if value is None:
        return None
    if isinstance(value, DateTime):
        return value.to_native()
    if isinstance(value, datetime):
        return value
    if isinstance(value, str):
        # A named zone comes as "...+01:00[Europe/Paris]": the offset already places it.
        return datetime.fromisoformat(value.partition("[")[0])
    raise TypeError(f"expected a datetime, got {type(value).__name__}")


def belief_from_record(
    record: Mapping[str, Any], belief: Mapping[str, Any] | None = None
) -> BeliefPublic:
    """Build a :class:`BeliefPublic` from a record of ``belief_get_many`` (or one of the rows of
    ``planner_candidates``, whose ``belief`` the caller passes as a map)."""
    b = dict(record["belief"]) if belief is None else belief
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

"""The one place where Neo4j records become models."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from functools import partial
from typing import Any

from neo4j import Record
from neo4j.time import DateTime

from beliefgraph.models import (
    ActionClass,
    BeliefPublic,
    ChainLink,
    EpistemicStatus,
    Governs,
    Kind,
    Priority,
    Status,
)
from beliefgraph.planner_models import Contest
from beliefgraph.precedence import Candidate


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


def _expired(valid_to: Any) -> bool:
    """Whether a belief's ``valid_to`` has passed (a time without a zone is UTC)."""
    until = native_datetime(valid_to)
    if until is None:
        return False
    return (until if until.tzinfo else until.replace(tzinfo=UTC)) <= datetime.now(UTC)


def candidate_from_record(
    record: Mapping[str, Any], belief: Mapping[str, Any]
) -> tuple[Candidate, dict[str, Any]]:
    """Build the planner's view of one of the rows of ``planner_candidates``.

    Only what the decision reads is converted (one datetime, not six): a query reads
    dozens of candidates and returns one belief, which :func:`belief_from_record` builds
    from the same row.

    Args:
        record: the row.
        belief: its ``belief`` as a map (the row carries it as [key, value] pairs).

    Returns:
        The :class:`~beliefgraph.precedence.Candidate`, and the row's other planner columns
        as plain values: ways, chain, links (raw maps; :func:`link_from_map` converts them),
        overrides, narrows, scope_key, about_hits, scope_hits, contested_by (raw maps;
        :func:`contest_from_map` converts them), disputes.
    """
    b = belief
    governs = record["governs"]
    names = [*record["names"], *(b.get("aliases") or [])]
    if b.get("canonical_name"):
        names.append(b["canonical_name"])
    recency = native_datetime(b.get("valid_from") or b["created_at"])
    assert recency is not None  # created_at is always set
    similarity = record["similarity"]
    candidate = Candidate(
        id=b["id"],
        text=b["text"],
        kind=Kind(b["kind"]),
        status=Status(b["status"]),
        epistemic_status=EpistemicStatus(b["epistemic_status"]),
        priority=Priority(b["priority"]),
        verification_required=bool(b.get("verification_required", False)),
        allowed_action=ActionClass(b["allowed_action"]) if b.get("allowed_action") else None,
        trust=float(b["trust"]),
        recency=recency if recency.tzinfo else recency.replace(tzinfo=UTC),
        names=tuple(dict.fromkeys(n for n in names if n)),
        governs=Governs.model_validate(dict(governs)) if governs else None,
        scope_key=record["scope_key"],
        similarity=None if similarity is None else float(similarity),
        found_by=frozenset(record["ways"]) or frozenset({"supersession"}),
        head=record["head"],
        contested_by=tuple(sorted(c["id"] for c in record["contested_by"])),
        expired=_expired(b.get("valid_to")),
    )
    extra = {
        key: record[key]
        for key in (
            "ways",
            "chain",
            "links",
            "overrides",
            "narrows",
            "scope_key",
            "about_hits",
            "scope_hits",
            "contested_by",
            "disputes",
        )
    }
    return candidate, extra


def contest_from_map(contest: dict[str, Any], disputes: str) -> Contest:
    """Build a :class:`Contest` from one map of ``planner_candidates``' ``contested_by``."""
    edge = dict(contest.get("edge") or {})
    return Contest(
        id=contest["id"],
        text=contest["text"],
        kind=contest["kind"],
        status=contest["status"],
        trust=float(contest["trust"]),
        disputes=disputes,
        guard=edge.get("guard"),
        why=edge.get("reason"),
        by=edge.get("by"),
        at=native_datetime(edge.get("at")),
    )


def planner_rows(
    record: Record,
) -> tuple[list[str], int, list[tuple[Candidate, dict[str, Any], Callable[[], BeliefPublic]]]]:
    """Read the one record of ``planner_candidates``.

    Returns:
        The requested namespaces that exist, how many beliefs they hold, and per belief its
        :class:`Candidate`, its planner columns and a function that builds its
        :class:`BeliefPublic` (only the governing belief needs one).
    """
    found: list[tuple[Candidate, dict[str, Any], Callable[[], BeliefPublic]]] = []
    for r in record["rows"]:
        belief = dict(r["belief"])
        candidate, extra = candidate_from_record(r, belief)
        found.append((candidate, extra, partial(belief_from_record, r, belief)))
    return list(record["known"]), int(record["size"]), found

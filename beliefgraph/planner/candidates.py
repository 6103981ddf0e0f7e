"""Planner candidates from Neo4j records: one row per belief the planner weighs."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

from neo4j import Record

from beliefgraph.language.lapsed import term_ended
from beliefgraph.models import (
    ActionClass,
    BeliefPublic,
    EpistemicStatus,
    Governs,
    Kind,
    Priority,
    Status,
)
from beliefgraph.planner.assess import PLANNER_AUTHORITY_KINDS, Candidate
from beliefgraph.planner.models import Contest
from beliefgraph.records import belief_from_record, native_datetime


def _expired(valid_to: Any) -> bool:
    """Whether a belief's ``valid_to`` has passed (a time without a zone is UTC)."""
    until = native_datetime(valid_to)
    if until is None:
        return False
    return (until if until.tzinfo else until.replace(tzinfo=UTC)) <= datetime.now(UTC)


def _ended(text: str, kind: Kind, governs: object) -> str | None:
    """Where a statement's own words say its arrangement has ended, those words; never for a
    rule (a ``governs`` scope, or a rule's kind), whose ``valid_to`` says when it ends. (The
    text's directive is not asked: "was never renewed" reads to it as a prohibition; a rule
    about an ending, "drivers whose licence has expired may not ...", is a condition to the
    reader.)"""
    if governs or kind in PLANNER_AUTHORITY_KINDS:
        return None
    return term_ended(text, datetime.now(UTC).date())


@dataclass(frozen=True)
class CandidateRow:
    """A ``planner_candidates`` row's columns beyond what the decision reads: how the belief
    was found and the graph around it, for the answer's chain, contests and trace (the maps
    as Neo4j returned them: :func:`link_from_map` and :func:`contest_from_map` convert the
    governing belief's)."""

    #: how discovery found it ("vector", "fulltext", "entity", "scope", ...)
    ways: tuple[str, ...]
    #: the ids of its supersession chain, newest first, and the chain's links
    chain: tuple[str, ...]
    links: tuple[Mapping[str, Any], ...]
    #: the ids it OVERRIDES, and the scope keys its own scope NARROWS
    overrides: tuple[str, ...]
    narrows: tuple[str, ...]
    scope_key: str | None
    #: the entity keys of the request it is ABOUT, and that its scope COVERS
    about_hits: tuple[str, ...]
    scope_hits: tuple[str, ...]
    #: the live beliefs that CONTRADICT it, and the ids it contradicts
    contested_by: tuple[Mapping[str, Any], ...]
    disputes: tuple[str, ...]


def candidate_from_record(
    record: Mapping[str, Any], belief: Mapping[str, Any]
) -> tuple[Candidate, CandidateRow]:
    """Build the planner's view of one of the rows of ``planner_candidates``.

    Only what the decision reads is converted (one datetime, not six): a query reads
    dozens of candidates and returns one belief, which :func:`belief_from_record` builds
    from the same row.

    Args:
        record: the row.
        belief: its ``belief`` as a map (the row carries it as [key, value] pairs).

    Returns:
        The :class:`~beliefgraph.planner.assess.Candidate`, and the row's other planner
        columns (:class:`CandidateRow`).
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
        ended=_ended(b["text"], Kind(b["kind"]), governs),
    )
    extra = CandidateRow(
        ways=tuple(record["ways"]),
        chain=tuple(record["chain"]),
        links=tuple(record["links"]),
        overrides=tuple(record["overrides"]),
        narrows=tuple(record["narrows"]),
        scope_key=record["scope_key"],
        about_hits=tuple(record["about_hits"]),
        scope_hits=tuple(record["scope_hits"]),
        contested_by=tuple(record["contested_by"]),
        disputes=tuple(record["disputes"]),
    )
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
) -> tuple[list[str], int, list[tuple[Candidate, CandidateRow, Callable[[], BeliefPublic]]]]:
    """Read the one record of ``planner_candidates``.

    Returns:
        The requested namespaces that exist, how many beliefs they hold, and per belief its
        :class:`Candidate`, its planner columns and a function that builds its
        :class:`BeliefPublic` (only the governing belief needs one).
    """
    found: list[tuple[Candidate, CandidateRow, Callable[[], BeliefPublic]]] = []
    for r in record["rows"]:
        belief = dict(r["belief"])
        candidate, extra = candidate_from_record(r, belief)
        found.append((candidate, extra, partial(belief_from_record, r, belief)))
    return list(record["known"]), int(record["size"]), found

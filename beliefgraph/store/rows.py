"""Beliefs as the store writes and shows them: ``belief_create`` rows, scope rows, visibility."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from beliefgraph import audit
from beliefgraph.access import DEVELOPMENT_CALLER, Caller
from beliefgraph.embeddings import Vector, packed
from beliefgraph.index_keys import name_edits, search_keys, text_words
from beliefgraph.models import (
    BeliefCreate,
    BeliefPublic,
    Governs,
    WritePath,
)
from beliefgraph.text import entity_key


def allowed_namespaces(caller: Caller | None) -> list[str] | None:
    """The namespaces a caller may read, for queries (``None``: all)."""
    if caller is None or caller.namespaces is None:
        return None
    return sorted(caller.namespaces)


def may_see(caller: Caller | None, namespaces: Sequence[str]) -> bool:
    """Whether a belief in these namespaces is the caller's to see (any one suffices)."""
    return caller is None or any(caller.can_see(ns) for ns in namespaces)


def as_seen_by(caller: Caller | None, belief: BeliefPublic) -> BeliefPublic:
    """``belief`` with only the namespaces the caller may see: the names of others' are not
    the caller's to learn."""
    if caller is None or caller.namespaces is None:
        return belief
    return belief.model_copy(update={"namespaces": caller.visible(belief.namespaces)})


def time_window(
    action: audit.AuditAction,
    source: dict[str, Any],
    target: dict[str, Any],
    reason: str,
    *,
    actor: str,
    write_path: WritePath,
) -> audit.AuditEntry:
    """The audit event of a change to the precedence between two beliefs (``_targets`` rows)."""
    return audit.AuditEntry(
        action=action,
        beliefs=[source["id"], target["id"]],
        namespaces=sorted({*source["namespaces"], *target["namespaces"]}),
        snapshot=[{"id": b["id"], "text": b["text"]} for b in (source, target)],
        reason=reason,
        actor=actor,
        write_path=write_path.value,
    )


def scope_key(governs: Governs) -> str:
    """A stable key for a scope: equal scopes share one ``Scope`` node."""
    canonical = json.dumps(governs.normalized().model_dump(mode="json"), sort_keys=True)
    return "scope:" + hashlib.sha256(canonical.encode()).hexdigest()[:32]


def _scope_row(governs: Governs | None) -> dict[str, Any] | None:
    if governs is None:
        return None
    norm = governs.normalized()
    terms_given = [*governs.any_terms, *governs.all_terms, *governs.excluded_terms]
    names = {entity_key(term): term for term in terms_given}
    terms = [
        {"key": key, "name": names[key], "mode": mode}
        for mode, keys in (
            ("any", norm.any_terms),
            ("all", norm.all_terms),
            ("excluded", norm.excluded_terms),
        )
        for key in keys
    ]
    return {
        "key": scope_key(governs),
        "any_terms": norm.any_terms,
        "all_terms": norm.all_terms,
        "excluded_terms": norm.excluded_terms,
        "action_types": [a.value for a in norm.action_types],
        "terms": terms,
    }


def belief_row(
    belief: BeliefCreate,
    belief_id: str,
    vector: list[float],
    *,
    now: datetime,
    write_path: WritePath,
    actor: str | None,
) -> dict[str, Any]:
    props = belief.model_dump(
        mode="python",
        exclude={"id", "about", "governs", "namespaces", "attributes"},
        exclude_none=True,
    )
    for key, value in props.items():
        if hasattr(value, "value"):  # enums are stored as their string value
            props[key] = value.value
    if belief.attributes:  # Neo4j stores no maps: the attributes travel as one JSON string
        props["attributes_json"] = json.dumps(belief.attributes, sort_keys=True)
    props.update(
        id=belief_id,
        aliases_text=" ".join(belief.aliases),
        search_keys=search_keys(belief.user, belief.namespaces),
        name_edits=name_edits([belief.canonical_name, *belief.aliases]),
        text_words=text_words(belief.text),
        reinforcement_count=0,
        created_at=now,
        updated_at=now,
        write_path=write_path.value,
        author=belief.author or actor,
    )
    if props["author"] is None:
        del props["author"]
    return {
        "props": props,
        "embedding": Vector(vector),
        "embedding_f32": packed(vector),
        "namespaces": sorted(set(belief.namespaces)),
        "about": [
            {"key": e.key, "name": e.name, "aliases": list(e.aliases)}
            for e in {e.key: e for e in belief.about}.values()
        ],
        "scope": _scope_row(belief.governs),
    }


def acting(caller: Caller | None, actor: str | None) -> tuple[Caller, str]:
    """Who makes a change, and the name it is recorded under: the development caller when
    none is given (the library without the API), and the caller's own name unless another
    actor is named."""
    caller = caller or DEVELOPMENT_CALLER
    return caller, actor or caller.name

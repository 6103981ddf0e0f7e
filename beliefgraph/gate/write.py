"""The gate inside a write transaction: who may write, the gated write itself, its audit
entries and rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from neo4j import ManagedTransaction
from neo4j.exceptions import ConstraintError

from beliefgraph import audit
from beliefgraph.access import (
    Caller,
    as_written_by,
    write_refusal,
)
from beliefgraph.db import Db
from beliefgraph.errors import DuplicateId, Forbidden, NotFound
from beliefgraph.gate.classifier import (
    Judgement,
)
from beliefgraph.gate.gate import Gate
from beliefgraph.gate.incoming import Incoming, incoming_from_rows
from beliefgraph.models import BeliefCreate, GateDecision


def authorise_writes(
    db: Db,
    beliefs: Sequence[BeliefCreate],
    caller: Caller,
    *,
    actor: str | None,
    write_path: str,
    record: bool = True,
) -> list[BeliefCreate]:
    """Check that ``caller`` may write each belief, before any work.

    A namespace outside the caller's grant is reported as not found (existence does not
    leak); a role's forbidden write is refused, and the refusal is audited (unless
    ``record`` is false: a dry run writes nothing, not even that).

    Returns:
        The beliefs as the caller stores them (:func:`beliefgraph.access.as_written_by`:
        an agent key's are unverified and low-trust unless the write says otherwise).

    Raises:
        NotFound: a namespace outside the caller's grant.
        Forbidden: the caller's role may not write such a belief.
    """
    many = len(beliefs) > 1
    for i, belief in enumerate(beliefs):
        where = f"beliefs[{i}]." if many else ""
        hidden = [ns for ns in belief.namespaces if not caller.can_see(ns)]
        if hidden:
            raise NotFound(f"no namespace {hidden[0]!r}", field=f"{where}namespaces")
        refusal = write_refusal(caller, belief)
        if refusal is None:
            continue
        why, field = refusal
        if record:
            audit.record_refusal(
                db,
                audit.AuditEntry(
                    action=audit.AuditAction.refused,
                    beliefs=[],
                    namespaces=sorted(set(belief.namespaces)),
                    snapshot=[{"id": belief.id or "(new)", "text": belief.text}],
                    reason=f"write refused: {why}",
                    actor=actor,
                    write_path=write_path,
                ),
            )
        raise Forbidden(why, field=f"{where}{field}")
    return [as_written_by(caller, belief) for belief in beliefs]


class GateWrite:
    """Runs the gate inside a write transaction: lock, find, decide, store, apply, audit.

    ``Store.curate`` and ``Store.create_in`` (the importer's path) both come here, so no
    belief enters the graph without a verdict and an audit event.
    """

    def __init__(self, gate: Gate) -> None:
        self.gate = gate

    def run(
        self,
        tx: ManagedTransaction,
        rows: list[dict[str, Any]],
        *,
        caller: Caller,
        actor: str | None,
        write_path: str,
        now: Any,
        prejudged: Mapping[tuple[int, str], Judgement] | None = None,
    ) -> list[GateDecision]:
        """Gate and write ``rows`` in ``tx``; return one decision per row.

        Raises:
            DuplicateId: an id is already stored (whatever the verdict would have been).
        """
        db = self.gate.db
        incoming = incoming_from_rows(rows)
        found, locked = self.gate.lock_and_find(tx, incoming)
        decisions, effects = self.gate.decide(incoming, found, caller, prejudged)
        if effects.store:
            create_rows(db, tx, [rows[i] for i in effects.store])
        self.gate.remember(locked, [incoming[i] for i in effects.store])
        self.gate.apply(tx, effects, actor=actor, now=now)
        texts = {c.view.id: (c.view.text, c.view.namespaces) for cs in found.values() for c in cs}
        texts |= {i.id: (i.view.text, i.view.namespaces) for i in incoming}
        audit.append(
            db,
            tx,
            audit_entries(incoming, decisions, texts, actor=actor, write_path=write_path),
        )
        return decisions


def audit_entries(
    incoming: Sequence[Incoming],
    decisions: Sequence[GateDecision],
    texts: Mapping[str, tuple[str, Sequence[str]]],
    *,
    actor: str | None,
    write_path: str,
) -> list[audit.AuditEntry]:
    """One audit entry per decision.

    Args:
        texts: id -> (text, namespaces) of every target belief.
    """
    entries = []
    for item, d in zip(incoming, decisions, strict=True):
        snapshot = [{"id": item.id, "text": item.view.text}]
        namespaces = set(item.view.namespaces)
        touched = [item.id] if d.belief_id == item.id else []
        if d.target is not None:
            text, target_ns = texts[d.target]
            snapshot.append({"id": d.target, "text": text})
            namespaces |= set(target_ns)
            touched.append(d.target)
        entries.append(
            audit.AuditEntry(
                action=audit.AuditAction.contested if d.contested else audit.AuditAction(d.verdict),
                beliefs=touched,
                namespaces=sorted(namespaces),
                snapshot=snapshot,
                reason=d.reason,
                similarity=d.similarity,
                actor=actor,
                write_path=write_path,
                classifier=d.classifier,
            )
        )
    return entries


def check_ids_free(db: Db, tx: ManagedTransaction, ids: list[str]) -> None:
    """Raise :class:`DuplicateId` if any of ``ids`` is taken (inside ``tx``)."""
    taken = db.tx_rows(tx, "belief_existing_ids", ids=ids)
    if taken:
        raise DuplicateId(f"a belief with id {taken[0]!r} already exists", field="id")


def create_rows(db: Db, tx: ManagedTransaction, rows: list[dict[str, Any]]) -> None:
    """Create ``belief_create`` rows in ``tx`` (the gate's verdict already given).

    Raises:
        DuplicateId: a concurrent writer took an id between the check and the write.
    """
    # A batch's rows share one creation time: it travels once, as $now (the driver's
    # encoding of a date-time is costly, twice per belief otherwise).
    now = rows[0]["props"].get("created_at") if rows else None
    if now is not None:
        rows = [_hoisted(row, now) for row in rows]
    try:
        db.tx_run(tx, "belief_create", rows=rows, now=now)
    except ConstraintError as e:  # a concurrent writer took the id between check and write
        raise DuplicateId(f"a belief id already exists: {e.message}", field="id") from e


def _hoisted(row: dict[str, Any], now: Any) -> dict[str, Any]:
    """``row`` without the creation and update times that equal ``now`` (set from $now)."""
    props = {
        k: v
        for k, v in row["props"].items()
        if not (k in ("created_at", "updated_at") and v == now)
    }
    return row | {"props": props}

"""Explicit changes to stored beliefs: retract, supersede, rank, unrank (:class:`Store`)."""

from __future__ import annotations

from typing import Any

from neo4j import (
    ManagedTransaction,
)

from beliefgraph import audit
from beliefgraph.access import (
    Caller,
    change_refusal,
    precedence_refusal,
)
from beliefgraph.errors import (
    Forbidden,
    InvalidInput,
    NotFound,
    NotSupersedable,
    PrecedenceLoop,
    SupersessionCycle,
    TextTooLong,
    TrustGuarded,
)
from beliefgraph.gate.gate import trust_too_low
from beliefgraph.gate.write import authorise_writes
from beliefgraph.models import (
    BeliefPublic,
    Chain,
    EdgeType,
    PrecedenceEdge,
    PrecedenceRequest,
    Status,
    SupersedeRequest,
    WritePath,
)
from beliefgraph.records import native_datetime
from beliefgraph.store.beliefs import Beliefs
from beliefgraph.store.rows import acting, may_see, time_window


class Store(Beliefs):
    """The belief store: :class:`Beliefs` (gated writes and reads) and the explicit changes a
    caller asks for: retract, supersede, rank and unrank, each audited."""

    def retract(
        self,
        belief_id: str,
        *,
        reason: str | None = None,
        caller: Caller | None = None,
        actor: str | None = None,
        write_path: WritePath = WritePath.api,
    ) -> BeliefPublic:
        """Mark a belief retracted; it is kept, with its history. Idempotent; audited once,
        with ``reason`` when one is given.

        Raises:
            NotFound: no belief has that id, or none the caller may see.
            Forbidden: the caller's role may not retract it (audited).
            TextTooLong: the reason is over the configured text length.
        """
        caller, actor = acting(caller, actor)
        if reason is not None:
            self._check_reason(reason)
        [target] = self._targets([belief_id], caller)
        self._authorise_change(target, caller, "retract", actor=actor, write_path=write_path)

        def work(tx: ManagedTransaction) -> bool:
            self.gate.lock(tx, target["namespaces"])
            [current] = self.db.tx_run(tx, "gate_targets", ids=[belief_id])
            if not self.db.tx_run(tx, "belief_retract", id=belief_id, now=self._clock()):
                return False
            if current["status"] != Status.retracted:
                audit.append(
                    self.db,
                    tx,
                    [
                        audit.AuditEntry(
                            action=audit.AuditAction.retract,
                            beliefs=[belief_id],
                            namespaces=sorted(target["namespaces"]),
                            snapshot=[{"id": belief_id, "text": target["text"]}],
                            reason=f"retracted (was {current['status']})"
                            + (f": {reason}" if reason else ""),
                            actor=actor,
                            write_path=write_path.value,
                        )
                    ],
                )
            return True

        if not self.db.write(work):
            raise NotFound(f"no belief with id {belief_id!r}")
        return self.get(belief_id, caller=caller)

    def supersede(
        self,
        old_id: str,
        request: SupersedeRequest,
        *,
        actor: str | None = None,
        caller: Caller | None = None,
        write_path: WritePath = WritePath.api,
    ) -> Chain:
        """Replace ``old_id`` by a new belief or an existing one, in one transaction.

        An explicit supersession is the caller's decision, so the gate's classifier is not
        asked; its roles and trust guard still apply. The change is audited.

        Returns:
            The chain through both beliefs, oldest first.

        Raises:
            NotFound: ``old_id`` or ``request.by_id`` is unknown, or not the caller's to see.
            Forbidden: the caller's role may not supersede ``old_id`` or write the
                replacement (audited).
            TrustGuarded: the replacement's trust is below the guard ratio of the old
                belief's (audited).
            NotSupersedable: either belief is retracted, ``old_id`` is already superseded, or
                the replacement already replaces another belief.
            SupersessionCycle: the replacement is ``old_id`` itself or already leads to it.
            TextTooLong: the reason, or the new belief's text, is over the configured length.
        """
        caller, actor = acting(caller, actor)
        self._check_reason(request.reason)
        [old] = self._targets([old_id], caller)
        self._authorise_change(old, caller, "supersede", actor=actor, write_path=write_path)
        if request.by is not None:
            [new] = authorise_writes(
                self.db, [request.by], caller, actor=actor, write_path=write_path.value
            )
            rows = self._rows([new], write_path=write_path, actor=actor)
            new_text, new_trust, new_namespaces = new.text, new.trust, list(new.namespaces)
        else:
            rows = []
            assert request.by_id is not None  # SupersedeRequest guarantees one of by / by_id
            [by] = self._targets([request.by_id], caller, field="by_id")
            new_text, new_trust, new_namespaces = by["text"], by["trust"], by["namespaces"]
        new_id = rows[0]["props"]["id"] if rows else request.by_id
        assert new_id is not None
        ratio = self.settings.gate_trust_ratio
        if trust_too_low(new_trust, old["trust"], ratio):
            why = (
                f"the replacement's trust {new_trust:.2f} is below {ratio:g} x {old_id!r}'s "
                f"{old['trust']:.2f}; store it with POST /v1/beliefs to record it as contested"
            )
            self._refuse(old, why, actor=actor, write_path=write_path)
            raise TrustGuarded(why, field="trust")

        def work(tx: ManagedTransaction) -> None:
            self.gate.lock(tx, [*old["namespaces"], *new_namespaces])
            self._lock_supersedable(tx, old_id)
            if rows:
                self._create_in(tx, rows)
            self._check_replacement(tx, old_id, new_id)
            self.db.tx_run(
                tx,
                "belief_supersede",
                old_id=old_id,
                new_id=new_id,
                reason=request.reason,
                by=actor,
                now=self._clock(),
            )
            audit.append(
                self.db,
                tx,
                [
                    audit.AuditEntry(
                        action=audit.AuditAction.supersede,
                        beliefs=[new_id, old_id],
                        namespaces=sorted({*old["namespaces"], *new_namespaces}),
                        snapshot=[
                            {"id": new_id, "text": new_text},
                            {"id": old_id, "text": old["text"]},
                        ],
                        reason=request.reason,
                        actor=actor,
                        write_path=write_path.value,
                    )
                ],
            )

        self.db.write(work)
        return self.chain(old_id, caller=caller)

    def rank(
        self,
        edge: EdgeType,
        source_id: str,
        request: PrecedenceRequest,
        *,
        caller: Caller | None = None,
        actor: str | None = None,
        write_path: WritePath = WritePath.api,
    ) -> PrecedenceEdge:
        """Set explicit precedence (DESIGN §3.4): ``source_id`` ``OVERRIDES`` ``request.other``,
        or its scope ``NARROWS`` the other's. Idempotent; audited when the edge is new.

        Raises:
            NotFound: either belief is unknown, or not the caller's to see.
            Forbidden: a reader or agent key; for ``NARROWS``, a key over only some
                namespaces (scopes are shared by all); a belief that also lives outside the
                caller's grant (audited).
            InvalidInput: the other is the belief itself; for ``NARROWS``, a belief that
                governs no scope, or two that govern the same one.
            TextTooLong: the reason is over the configured text length.
            PrecedenceLoop: the other already wins over the belief, directly or not.
        """
        caller, actor = acting(caller, actor)
        if request.other == source_id:
            raise InvalidInput("a belief cannot take precedence over itself", field="other")
        self._check_reason(request.reason)
        [source] = self._targets([source_id], caller)
        [other] = self._targets([request.other], caller, field="other")
        action = (
            audit.AuditAction.override if edge is EdgeType.overrides else audit.AuditAction.narrow
        )
        self._authorise_precedence(
            edge, [source, other], caller, actor=actor, write_path=write_path
        )

        def work(tx: ManagedTransaction) -> dict[str, Any]:
            self.db.tx_run(tx, "precedence_lock")
            self.gate.lock(tx, [*source["namespaces"], *other["namespaces"]])
            now, reason = self._clock(), request.reason
            if edge is EdgeType.overrides:
                [row] = self.db.tx_run(
                    tx,
                    "belief_override",
                    winner=source_id,
                    loser=request.other,
                    by=actor,
                    reason=reason,
                    now=now,
                )
                problem = "loop" if row["loop"] else None
            else:
                [row] = self.db.tx_run(
                    tx,
                    "scope_narrow",
                    narrow=source_id,
                    broad=request.other,
                    by=actor,
                    reason=reason,
                    now=now,
                )
                problem = row["problem"]
            if problem == "loop":
                raise PrecedenceLoop(
                    f"{request.other!r} already takes precedence over {source_id!r} "
                    f"({edge.value}, directly or through others)",
                    field="other",
                )
            if problem == "missing":
                raise InvalidInput(
                    "NARROWS relates two scopes: both beliefs must govern one", field="other"
                )
            if problem == "same":
                raise InvalidInput("both beliefs govern the same scope", field="other")
            if row["created"]:
                why = f"{source_id} {edge.value} {request.other}: {request.reason}"
                event = time_window(action, source, other, why, actor=actor, write_path=write_path)
                audit.append(self.db, tx, [event])
            return dict(row)

        row = self.db.write(work)
        found = dict(row["edge"])
        return PrecedenceEdge(
            source=source_id,
            type=edge,
            target=request.other,
            at=native_datetime(found["at"]),
            by=found.get("by"),
            reason=found.get("reason"),
            created=row["created"],
            source_scope=row.get("narrow_scope"),
            target_scope=row.get("broad_scope"),
        )

    def unrank(
        self,
        edge: EdgeType,
        source_id: str,
        other_id: str,
        *,
        caller: Caller | None = None,
        actor: str | None = None,
        write_path: WritePath = WritePath.api,
    ) -> None:
        """Remove the explicit precedence :meth:`rank` set; audited, with what the edge said.

        Raises:
            NotFound: either belief is unknown or not the caller's to see, or no such edge.
            Forbidden: as :meth:`rank`.
        """
        caller, actor = acting(caller, actor)
        [source] = self._targets([source_id], caller)
        [other] = self._targets([other_id], caller)
        self._authorise_precedence(
            edge, [source, other], caller, actor=actor, write_path=write_path
        )

        def work(tx: ManagedTransaction) -> bool:
            self.db.tx_run(tx, "precedence_lock")
            self.gate.lock(tx, [*source["namespaces"], *other["namespaces"]])
            removed = self.db.tx_run(
                tx, "precedence_remove", source=source_id, target=other_id, type=edge.value
            )
            if not removed:
                return False
            said = dict(removed[0]["edge"])
            why = (
                f"removed {source_id} {edge.value} {other_id} "
                f"(set by {said.get('by')}: {said.get('reason')})"
            )
            event = time_window(
                audit.AuditAction.unrank, source, other, why, actor=actor, write_path=write_path
            )
            audit.append(self.db, tx, [event])
            return True

        if not self.db.write(work):
            raise NotFound(f"{source_id!r} has no {edge.value} edge to {other_id!r}")

    def _targets(
        self, ids: list[str], caller: Caller, *, field: str | None = None
    ) -> list[dict[str, Any]]:
        """The beliefs an explicit change touches, as the caller may see them.

        Raises:
            NotFound: an id is unknown or outside the caller's grant (the same answer, so
                existence does not leak).
        """
        found = {r["id"]: dict(r) for r in self.db.run_read("gate_targets", ids=ids)}
        for belief_id in ids:
            target = found.get(belief_id)
            if target is None or not may_see(caller, target["namespaces"]):
                raise NotFound(f"no belief with id {belief_id!r}", field=field)
        return [found[i] for i in ids]

    def _authorise_change(
        self,
        target: dict[str, Any],
        caller: Caller,
        action: str,
        *,
        actor: str,
        write_path: WritePath,
    ) -> None:
        """Refuse (and audit) a change the caller's role or grant does not allow.

        Raises:
            Forbidden: the role may not change such a belief, or the belief also lives in
                namespaces outside the caller's grant.
        """
        why = change_refusal(caller, target["kind"], float(target["trust"]), action)
        outside = [ns for ns in target["namespaces"] if not caller.can_see(ns)]
        if why is None and outside:
            why = "the belief also lives in namespaces outside this key's grant"
        if why is not None:
            self._refuse(target, f"{action} refused: {why}", actor=actor, write_path=write_path)
            raise Forbidden(why)

    def _check_reason(self, reason: str) -> None:
        """Refuse a reason over the text limit: it is kept on an edge and in the audit log.

        Raises:
            TextTooLong: the reason is longer than ``Settings.max_text_length``.
        """
        limit = self.settings.max_text_length
        if len(reason) > limit:
            raise TextTooLong(
                f"reason is {len(reason)} characters; the limit is {limit}", field="reason"
            )

    def _authorise_precedence(
        self,
        edge: EdgeType,
        targets: list[dict[str, Any]],
        caller: Caller,
        *,
        actor: str,
        write_path: WritePath,
    ) -> None:
        """Refuse (and audit) explicit precedence the caller may not set between ``targets``.

        Raises:
            Forbidden: see :func:`beliefgraph.access.precedence_refusal`; or a belief also
                lives in namespaces outside the caller's grant.
        """
        why = precedence_refusal(caller, edge.value)
        if why is None and any(not caller.can_see(ns) for t in targets for ns in t["namespaces"]):
            why = "a belief also lives in namespaces outside this key's grant"
        if why is not None:
            self._refuse(
                targets[0], f"{edge.value} refused: {why}", actor=actor, write_path=write_path
            )
            raise Forbidden(why)

    def _refuse(
        self, target: dict[str, Any], why: str, *, actor: str, write_path: WritePath
    ) -> None:
        """Audit a refused change to ``target`` (in a transaction of its own)."""
        audit.record_refusal(
            self.db,
            audit.AuditEntry(
                action=audit.AuditAction.refused,
                beliefs=[target["id"]],
                namespaces=sorted(target["namespaces"]),
                snapshot=[{"id": target["id"], "text": target["text"]}],
                reason=why,
                actor=actor,
                write_path=write_path.value,
            ),
        )

    def _lock_supersedable(self, tx: ManagedTransaction, old_id: str) -> None:
        locked = self.db.tx_run(tx, "belief_lock", id=old_id)
        if not locked:
            raise NotFound(f"no belief with id {old_id!r}")
        status, superseded_by = locked[0]["status"], locked[0]["superseded_by"]
        if status == Status.retracted:
            raise NotSupersedable(f"belief {old_id!r} is retracted")
        if superseded_by is not None:
            raise NotSupersedable(
                f"belief {old_id!r} is already superseded by {superseded_by!r}; "
                "supersede the head of its chain instead"
            )

    def _check_replacement(self, tx: ManagedTransaction, old_id: str, new_id: str) -> None:
        if new_id == old_id:
            raise SupersessionCycle(f"belief {old_id!r} cannot supersede itself")
        found = self.db.tx_run(tx, "belief_supersede_check", old_id=old_id, new_id=new_id)
        if not found:
            raise NotFound(f"no belief with id {new_id!r}", field="by_id")
        check = found[0]
        if check["would_cycle"]:
            raise SupersessionCycle(
                f"{old_id!r} already leads to {new_id!r}; superseding would close a loop"
            )
        if check["new_status"] in (Status.retracted, Status.superseded):
            raise NotSupersedable(f"belief {new_id!r} is {check['new_status']}", field="by_id")
        if check["new_supersedes"] is not None:
            raise NotSupersedable(
                f"belief {new_id!r} already supersedes {check['new_supersedes']!r}", field="by_id"
            )

"""The belief store: every read and write of beliefs goes through :class:`Store`.

The store takes a Neo4j driver and an embedder (it builds neither) and runs only the
named queries of ``cypher/``. Every write is one transaction: on any error, nothing of it
remains.

>>> store = Store(driver, load_embedder(cache_dir), database="neo4j")   # doctest: +SKIP
>>> init_schema(store.db)                                                   # doctest: +SKIP
>>> [b] = store.create([BeliefCreate(text="Wi-Fi password is hunter2",   # doctest: +SKIP
...                                  kind="credential", namespaces=["user:me"])])
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
import uuid
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from datetime import UTC, datetime
from typing import Any

from neo4j import (
    Driver,
    ManagedTransaction,
)

from beliefgraph import audit, cursors
from beliefgraph.access import (
    DEVELOPMENT_CALLER,
    Caller,
    change_refusal,
    precedence_refusal,
)
from beliefgraph.classifier import Classifier, build_classifier
from beliefgraph.config import Settings
from beliefgraph.cypher import Queries
from beliefgraph.db import UNREACHABLE, Db, Unreachable
from beliefgraph.embeddings import Embedder, Vector, packed
from beliefgraph.errors import (
    DuplicateId,
    Forbidden,
    InvalidInput,
    NotFound,
    NotSupersedable,
    PrecedenceLoop,
    StoreUnavailable,
    SupersessionCycle,
    TextTooLong,
    TrustGuarded,
)
from beliefgraph.gate import (
    Gate,
    GateWrite,
    authorise_writes,
    check_ids_free,
    create_rows,
    incoming_from_rows,
    trust_too_low,
)
from beliefgraph.index_keys import name_edits, search_keys, text_words
from beliefgraph.models import (
    BeliefCreate,
    BeliefPage,
    BeliefPublic,
    Chain,
    EdgeType,
    GateDecision,
    Governs,
    Kind,
    NamespacePublic,
    PrecedenceEdge,
    PrecedenceRequest,
    Status,
    SupersedeRequest,
    WritePath,
)
from beliefgraph.records import belief_from_record, link_from_map, native_datetime
from beliefgraph.text import entity_key

#: how long after a write found Neo4j away the writers queued behind it fail without trying
FAIL_FAST_SECONDS = 2.0


@dataclass(eq=False)
class _Write:
    """One caller's rows waiting to be written together with others (NamespaceQueue)."""

    rows: list[dict[str, Any]]
    done: threading.Event = dataclass_field(default_factory=threading.Event)
    decisions: list[GateDecision] | None = None
    error: BaseException | None = None


def _run_together(
    batch: list[_Write], run: Callable[[list[dict[str, Any]]], list[GateDecision]]
) -> None:
    """Write the batch in one transaction and give each write its decisions; if that fails,
    each alone (unless Neo4j is away: then all get that answer)."""
    try:
        try:
            decisions = run([row for job in batch for row in job.rows])
        except StoreUnavailable as e:
            for job in batch:
                job.error = e
            return
        except Exception as e:
            if len(batch) == 1:
                batch[0].error = e
                return
            for job in batch:
                try:
                    job.decisions = run(job.rows)
                except Exception as alone:
                    job.error = alone
            return
        offset = 0
        for job in batch:
            mine = decisions[offset : offset + len(job.rows)]
            job.decisions = [d.model_copy(update={"index": d.index - offset}) for d in mine]
            offset += len(job.rows)
    finally:
        for job in batch:
            job.done.set()


class NamespaceQueue:
    """Writers of one process to the same namespaces take turns before their transaction.

    Inside Neo4j every gate write locks its namespaces first, but it finds them with a
    uniqueness-constrained seek, which in a writing query takes a shared lock: concurrent
    writers to one namespace each held it and waited to upgrade it, and Neo4j broke the
    deadlocks by failing all but one (measured in bench/results/concurrent_writers.md). Queued
    here, they reach Neo4j one namespace-set at a time and none has to be retried. Locks are
    taken in sorted order, each wait bounded.

    While Neo4j is away, the writer in turn finds out within the driver's timeouts; those
    queued behind it within :data:`FAIL_FAST_SECONDS` of its failure do not wait their turn
    to find out again: they fail at once (503), so no queued write waits for many timeouts.
    """

    def __init__(self, timeout: float, *, most_rows: int = 1000) -> None:
        self.timeout = timeout
        self.most_rows = most_rows
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._failed_at = -math.inf
        self._waiting: dict[Hashable, list[_Write]] = {}

    def together(
        self,
        key: Hashable,
        namespaces: Iterable[str],
        rows: list[dict[str, Any]],
        run: Callable[[list[dict[str, Any]]], list[GateDecision]],
    ) -> list[GateDecision]:
        """Write ``rows`` with ``run`` in its turn, together with the writes of the same
        ``key`` (caller, actor, path, namespaces) that arrived while it waited: one
        transaction for all of them, decided in order, as one batch would be (a group
        commit): a write waits for the transaction before it and its own, not for one per
        writer ahead of it. When the shared transaction fails, each write is tried
        alone, so each gets its own answer (a refused one never takes the others with it);
        when Neo4j is away they all get that answer at once.

        Returns:
            The decisions on ``rows``, indexed from 0.
        """
        job = _Write(rows)
        with self._guard:
            self._waiting.setdefault(key, []).append(job)
        try:
            with self.turn(namespaces):
                with self._guard:
                    batch = self._take(key)
                if batch:
                    _run_together(batch, run)
                    if any(isinstance(j.error, Unreachable) for j in batch):
                        self._failed_at = time.monotonic()  # those queued behind fail at once
        except StoreUnavailable:
            with self._guard:
                waiting = self._waiting.get(key, [])
                if job in waiting:  # never taken: it was not written, and never will be
                    waiting.remove(job)
                    raise
            # taken by the writer in turn, whose answer is ours: wait for it
            job.done.wait(self.timeout)
        if not job.done.is_set():
            raise StoreUnavailable("the write did not finish in time; try again")
        if job.error is not None:
            raise job.error
        assert job.decisions is not None
        return job.decisions

    def _take(self, key: Hashable) -> list[_Write]:
        """The writes waiting under ``key``, oldest first, up to ``most_rows`` rows."""
        waiting = self._waiting.get(key, [])
        batch: list[_Write] = []
        size = 0
        while waiting and (not batch or size + len(waiting[0].rows) <= self.most_rows):
            size += len(waiting[0].rows)
            batch.append(waiting.pop(0))
        if not waiting:
            self._waiting.pop(key, None)
        return batch

    @contextmanager
    def turn(self, namespaces: Iterable[str]) -> Iterator[None]:
        """Hold these namespaces for the block.

        Raises:
            StoreUnavailable: another writer held one of them longer than ``timeout``.
        """
        with self._guard:
            locks = [self._locks.setdefault(ns, threading.Lock()) for ns in sorted(set(namespaces))]
        held: list[threading.Lock] = []
        try:
            for lock in locks:
                if not lock.acquire(timeout=self.timeout):
                    raise StoreUnavailable("the namespace is busy with other writes; try again")
                held.append(lock)
            if time.monotonic() - self._failed_at < FAIL_FAST_SECONDS:
                raise Unreachable(UNREACHABLE)
            try:
                yield
            except Unreachable:
                self._failed_at = time.monotonic()
                raise
        finally:
            for lock in reversed(held):
                lock.release()


def _now() -> datetime:
    return datetime.now(UTC)


class Store:
    """Reads and writes beliefs in Neo4j.

    Args:
        driver: an open Neo4j driver (one per process; the store does not close it).
        embedder: turns belief texts into vectors.
        database: the Neo4j database name.
        settings: limits (text length, batch and page size).
        queries: the named Cypher queries (default: ``cypher/``).
        clock: returns "now"; tests may pin it.
        classifier: the curation gate's classifier (default: as the settings say).
    """

    def __init__(
        self,
        driver: Driver,
        embedder: Embedder,
        *,
        database: str,
        settings: Settings | None = None,
        queries: Queries | None = None,
        clock: Callable[[], datetime] = _now,
        classifier: Classifier | None = None,
    ) -> None:
        self.embedder = embedder
        self.settings = settings or Settings()
        self.db = Db(driver, database=database, settings=self.settings, queries=queries)
        self._clock = clock
        self.gate = Gate(
            self.db, embedder, self.settings, classifier or build_classifier(self.settings)
        )
        self.queue = NamespaceQueue(
            self.settings.write_queue_timeout, most_rows=self.settings.max_batch_size
        )

    # -- writes ---------------------------------------------------------------------------

    def create(
        self,
        beliefs: Sequence[BeliefCreate],
        *,
        write_path: WritePath = WritePath.api,
        actor: str | None = None,
        caller: Caller | None = None,
    ) -> list[BeliefPublic]:
        """Store beliefs through the curation gate in one transaction: all or, on error, none.

        Returns:
            The belief each one resulted in, in the order given: the new belief, or for a
            ``noop``/``subsumed`` verdict the existing one that was reinforced instead
            (:meth:`curate` says which).

        Raises:
            As :meth:`curate`.
        """
        decisions = self.curate(beliefs, write_path=write_path, actor=actor, caller=caller)
        return self.get_many([d.belief_id for d in decisions], caller=caller)

    def curate(
        self,
        beliefs: Sequence[BeliefCreate],
        *,
        write_path: WritePath = WritePath.api,
        actor: str | None = None,
        caller: Caller | None = None,
        dry_run: bool = False,
    ) -> list[GateDecision]:
        """Pass beliefs through the curation gate (``gate.py``) and apply the verdicts.

        Everything — new beliefs, reinforcements, supersessions, archivals, contested links
        and one audit event per belief — is one transaction. With ``dry_run`` nothing is
        written, not even an audit event.

        Returns:
            One decision per belief, in order; ``belief_id`` names the belief it resulted in.

        Raises:
            InvalidInput: too many beliefs, or a text over the configured length.
            DuplicateId: an id is repeated in the batch or already stored.
            NotFound: a namespace outside the caller's grant.
            Forbidden: the caller's role may not write such a belief (audited).
        """
        caller = caller or DEVELOPMENT_CALLER
        actor = actor or caller.name
        if len(beliefs) > self.settings.max_batch_size:
            raise InvalidInput(
                f"a batch holds at most {self.settings.max_batch_size} beliefs, got {len(beliefs)}",
                field="beliefs",
            )
        beliefs = authorise_writes(
            self.db, beliefs, caller, actor=actor, write_path=write_path.value, record=not dry_run
        )
        rows = self._rows(beliefs, write_path=write_path, actor=actor)
        prejudged = None
        if dry_run or self.gate.prejudges:
            # the LLM (when configured) is asked before any lock is taken
            incoming = incoming_from_rows(rows)
            sizes = self.gate.sizes([ns for row in rows for ns in row["namespaces"]])
            found = self.gate.candidates(incoming, sizes)
            prejudged = self.gate.prejudge(incoming, found) if self.gate.prejudges else None
            if dry_run:
                ids = [row["props"]["id"] for row in rows]
                taken = self.db.read_rows("belief_existing_ids", ids=ids)
                if taken:
                    raise DuplicateId(f"a belief with id {taken[0]!r} exists", field="id")
                return self.gate.decide(incoming, found, caller, prejudged)[0]

        def run(batch: list[dict[str, Any]]) -> list[GateDecision]:
            def work(tx: ManagedTransaction) -> list[GateDecision]:
                return GateWrite(self.gate).run(
                    tx,
                    batch,
                    caller=caller,
                    actor=actor,
                    write_path=write_path.value,
                    now=self._clock(),
                    prejudged=prejudged,
                )

            decisions: list[GateDecision] = self.db.write(work)
            return decisions

        namespaces = frozenset(ns for row in rows for ns in row["namespaces"])
        if prejudged is not None:  # verdicts fetched for these rows alone
            with self.queue.turn(namespaces):
                return run(rows)
        # writes that wait for the same namespaces, by the same caller, go in together
        key = (caller, actor, write_path.value, namespaces)
        return self.queue.together(key, namespaces, rows, run)

    def prepare(
        self,
        beliefs: Sequence[BeliefCreate],
        *,
        write_path: WritePath = WritePath.api,
        actor: str | None = None,
        embedder: Embedder | None = None,
    ) -> list[dict[str, Any]]:
        """Validate and embed beliefs into rows for :meth:`create_in` (no database work).

        For writers that create beliefs and more (edges, checkpoints) in one transaction.
        ``embedder`` replaces the store's for these rows (an importer's
        :class:`~beliefgraph.embeddings.Remembering` one).

        Raises:
            TextTooLong, DuplicateId: as :meth:`create`.
        """
        return self._rows(beliefs, write_path=write_path, actor=actor, embedder=embedder)

    def create_in(
        self,
        tx: ManagedTransaction,
        rows: list[dict[str, Any]],
        *,
        caller: Caller | None = None,
        actor: str | None = None,
    ) -> list[GateDecision]:
        """Create prepared rows inside ``tx``, as part of the caller's transaction, through
        the curation gate (the deterministic classifier: no network call inside a
        transaction) with their audit events.

        ``actor`` is who the audit names as making the write (default: the caller's name);
        a row's ``author`` is who said the belief, which in one batch may be several.

        Returns:
            One gate decision per row; ``belief_id`` is the belief each resulted in.

        Raises:
            DuplicateId: an id is already stored.
        """
        paths = {row["props"]["write_path"] for row in rows}
        caller = caller or DEVELOPMENT_CALLER
        return GateWrite(self.gate).run(
            tx,
            rows,
            caller=caller,
            actor=actor or caller.name,
            write_path=paths.pop() if len(paths) == 1 else WritePath.api.value,
            now=self._clock(),
        )

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
        caller = caller or DEVELOPMENT_CALLER
        actor = actor or caller.name
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
        caller = caller or DEVELOPMENT_CALLER
        actor = actor or caller.name
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
        caller = caller or DEVELOPMENT_CALLER
        actor = actor or caller.name
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
                event = _between(action, source, other, why, actor=actor, write_path=write_path)
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
        caller = caller or DEVELOPMENT_CALLER
        actor = actor or caller.name
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
            event = _between(
                audit.AuditAction.unrank, source, other, why, actor=actor, write_path=write_path
            )
            audit.append(self.db, tx, [event])
            return True

        if not self.db.write(work):
            raise NotFound(f"{source_id!r} has no {edge.value} edge to {other_id!r}")

    # -- reads ----------------------------------------------------------------------------

    def get(self, belief_id: str, *, caller: Caller | None = None) -> BeliefPublic:
        """Return one belief.

        Raises:
            NotFound: no belief has that id, or none the caller may see.
        """
        found = self.get_many([belief_id], caller=caller)
        if not found or not _visible(caller, found[0].namespaces):
            raise NotFound(f"no belief with id {belief_id!r}")
        return found[0]

    def curate_or_replay(
        self,
        beliefs: Sequence[BeliefCreate],
        *,
        caller: Caller | None = None,
        dry_run: bool = False,
    ) -> tuple[list[GateDecision], list[BeliefPublic] | None]:
        """As :meth:`curate`; but a write sent again — every id stored with the same text,
        kind and namespaces, say after its answer was lost with Neo4j — is a replay: no
        decisions, and the stored beliefs. The same id with other content is still a
        :class:`~beliefgraph.errors.DuplicateId`.

        Raises:
            As :meth:`curate`.
        """
        try:
            return self.curate(beliefs, caller=caller, dry_run=dry_run), None
        except DuplicateId:
            stored = None if dry_run else self.replayed(beliefs, caller=caller)
            if stored is None:
                raise
            return [], stored

    def replayed(
        self, beliefs: Sequence[BeliefCreate], *, caller: Caller | None = None
    ) -> list[BeliefPublic] | None:
        """The stored beliefs when every one of ``beliefs`` names an id that is stored with
        the same text, kind and namespaces (a write sent again); ``None`` otherwise."""
        ids = [b.id for b in beliefs]
        if any(i is None for i in ids):
            return None
        stored = self.get_many([i for i in ids if i is not None], caller=caller)
        if len(stored) != len(beliefs):
            return None
        for sent, kept in zip(beliefs, stored, strict=True):
            same = (sent.text.strip(), sent.kind, sorted(sent.namespaces))
            if same != (kept.text.strip(), kept.kind, sorted(kept.namespaces)):
                return None
        return stored

    def get_many(self, ids: Sequence[str], *, caller: Caller | None = None) -> list[BeliefPublic]:
        """Return the beliefs with these ids, in the order given; unknown ids are left out.

        Each is as ``caller`` sees it: only the namespaces it may read, and the belief it
        supersedes or is superseded by only if the caller may see that one too. Whether the
        caller may see the belief itself is left to the caller (:func:`_visible`).
        """
        if not ids:
            return []
        found = self.db.run_read("belief_get_many", ids=list(ids), visible=_allowed(caller))
        by_id = {b.id: _as_seen_by(caller, b) for b in map(belief_from_record, found)}
        return [by_id[i] for i in ids if i in by_id]

    def list_beliefs(
        self,
        *,
        namespace: str | None = None,
        kind: Kind | None = None,
        status: Status | None = None,
        cursor: str | None = None,
        limit: int = 50,
        caller: Caller | None = None,
    ) -> BeliefPage:
        """One page of beliefs in creation order, filtered; ``next_cursor`` continues it.

        Only beliefs the caller may see are listed; a namespace outside its grant lists
        nothing, as an unknown one does. A page of a namespace (or a key's grant) first reads
        the store in creation order, at most :attr:`Db.scanned_per_row` beliefs per row of the
        page, and when those do not fill it (the beliefs listed are sparse there, or it is the
        last page) the beliefs of the namespaces: it reads about what it lists, or what the
        namespaces hold. Without a namespace, an admin's page reads the store in order until
        the page is full.

        Raises:
            InvalidInput: the cursor is not one this method returned, or the limit is out of range.
        """
        if not 1 <= limit <= self.settings.max_page_size:
            raise InvalidInput(
                f"limit must be between 1 and {self.settings.max_page_size}", field="limit"
            )
        after_created_at, after_id = cursors.decode(cursor) if cursor else (None, None)
        allowed = _allowed(caller)
        # namespaces that hold every belief to list, all the caller's to see (none: a
        # namespace outside the grant is not the caller's to ask about)
        anchor = [namespace] if namespace is not None else allowed
        if allowed is not None and namespace is not None and namespace not in allowed:
            anchor = []
        if anchor == []:
            return BeliefPage(items=[], next_cursor=None)
        kind_value = kind.value if kind else None
        status_value = status.value if status else None
        records = self.db.run_read(
            "belief_list",
            scan=None if anchor is None else self.db.scanned_per_row * (limit + 1),
            anchor=anchor,
            kind=kind_value,
            status=status_value,
            after_created_at=after_created_at,
            after_id=after_id,
            limit=limit + 1,
        )
        if anchor is not None and len(records) <= limit:  # sparse in time, or the last page
            records = self.db.run_read(
                "belief_list_in",
                anchor=anchor,
                kind=kind_value,
                status=status_value,
                after_created_at=after_created_at,
                after_id=after_id,
                limit=limit + 1,
            )
        page = records[:limit]
        next_cursor = None
        if len(records) > limit:
            last = page[-1]
            created = native_datetime(last["created_at"])
            assert created is not None  # every belief is created with its time
            next_cursor = cursors.encode(created, last["id"])
        items = self.get_many([r["id"] for r in page], caller=caller)
        return BeliefPage(items=items, next_cursor=next_cursor)

    def chain(self, belief_id: str, *, caller: Caller | None = None) -> Chain:
        """The supersession chain through a belief, oldest first, from any member.

        Members the caller may not see are left out, with their links.

        Raises:
            NotFound: no belief has that id, or none the caller may see.
        """
        records = self.db.run_read("belief_chain", id=belief_id)
        if not records:
            raise NotFound(f"no belief with id {belief_id!r}")
        beliefs = [
            b
            for b in self.get_many(records[0]["ids"], caller=caller)
            if _visible(caller, b.namespaces)
        ]
        shown = {b.id for b in beliefs}
        if belief_id not in shown:
            raise NotFound(f"no belief with id {belief_id!r}")
        links = [link_from_map(dict(link)) for link in records[0]["links"]]
        return Chain(
            beliefs=beliefs,
            links=[link for link in links if {link.newer, link.older} <= shown],
            head=beliefs[-1].id,
        )

    def namespaces(self, *, caller: Caller | None = None) -> list[NamespacePublic]:
        """Every namespace (the caller may see) with its belief count."""
        return [
            NamespacePublic(name=r["name"], beliefs=r["beliefs"])
            for r in self.db.run_read("namespace_list", allowed=_allowed(caller))
        ]

    # -- internals ------------------------------------------------------------------------

    def _rows(
        self,
        beliefs: Sequence[BeliefCreate],
        *,
        write_path: WritePath,
        actor: str | None,
        embedder: Embedder | None = None,
    ) -> list[dict[str, Any]]:
        """Validate, embed and shape beliefs as ``belief_create`` rows (no database work)."""
        limit = self.settings.max_text_length
        for i, belief in enumerate(beliefs):
            for field in ("text", "why_it_matters"):
                value = getattr(belief, field)
                if value is not None and len(value) > limit:
                    raise TextTooLong(
                        f"{field} is {len(value)} characters; the limit is {limit}",
                        field=f"beliefs[{i}].{field}" if len(beliefs) > 1 else field,
                    )
        ids = [b.id or str(uuid.uuid4()) for b in beliefs]
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            raise DuplicateId(f"ids repeated within the batch: {', '.join(repeated)}", field="id")
        vectors = (embedder if embedder is not None else self.embedder).embed(
            [b.text for b in beliefs]
        )
        now = self._clock()
        return [
            _row(belief, belief_id, vector, now=now, write_path=write_path, actor=actor)
            for belief, belief_id, vector in zip(beliefs, ids, vectors, strict=True)
        ]

    def _create_in(self, tx: ManagedTransaction, rows: list[dict[str, Any]]) -> None:
        check_ids_free(self.db, tx, [row["props"]["id"] for row in rows])
        create_rows(self.db, tx, rows)

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
            if target is None or not _visible(caller, target["namespaces"]):
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


def _allowed(caller: Caller | None) -> list[str] | None:
    """The namespaces a caller may read, for queries (``None``: all)."""
    if caller is None or caller.namespaces is None:
        return None
    return sorted(caller.namespaces)


def _visible(caller: Caller | None, namespaces: Sequence[str]) -> bool:
    """Whether a belief in these namespaces is the caller's to see (any one suffices)."""
    return caller is None or any(caller.can_see(ns) for ns in namespaces)


def _as_seen_by(caller: Caller | None, belief: BeliefPublic) -> BeliefPublic:
    """``belief`` with only the namespaces the caller may see: the names of others' are not
    the caller's to learn."""
    if caller is None or caller.namespaces is None:
        return belief
    return belief.model_copy(update={"namespaces": caller.visible(belief.namespaces)})


def _between(
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


def _row(
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

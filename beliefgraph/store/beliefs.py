"""Gated writes and reads of beliefs: :class:`Beliefs`, the base of the :class:`Store`.

The store takes a Neo4j driver and an embedder (it builds neither) and runs, through its
:class:`~beliefgraph.db.Db`, only the named queries of ``cypher/``. Every write is one
transaction: on any error, nothing of it remains.

>>> store = Store(driver, load_embedder(cache_dir), database="neo4j")   # doctest: +SKIP
>>> init_schema(store.db)                                                   # doctest: +SKIP
>>> [b] = store.create([BeliefCreate(text="Wi-Fi password is hunter2",   # doctest: +SKIP
...                                  kind="credential", namespaces=["user:me"])])
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from neo4j import (
    Driver,
    ManagedTransaction,
)

from beliefgraph import cursors
from beliefgraph.access import (
    Caller,
)
from beliefgraph.config import Settings
from beliefgraph.cypher import Queries
from beliefgraph.db import Db
from beliefgraph.embeddings import Embedder
from beliefgraph.errors import (
    DuplicateId,
    InvalidInput,
    NotFound,
    TextTooLong,
)
from beliefgraph.gate.classifier import Classifier, build_classifier
from beliefgraph.gate.gate import Gate
from beliefgraph.gate.incoming import incoming_from_rows
from beliefgraph.gate.write import GateWrite, authorise_writes, check_ids_free, create_rows
from beliefgraph.models import (
    BeliefCreate,
    BeliefPage,
    BeliefPublic,
    Chain,
    GateDecision,
    Kind,
    NamespacePublic,
    Status,
    WritePath,
)
from beliefgraph.records import belief_from_record, link_from_map, native_datetime
from beliefgraph.store.queue import NamespaceQueue
from beliefgraph.store.rows import acting, allowed_namespaces, as_seen_by, belief_row, may_see


def _now() -> datetime:
    return datetime.now(UTC)


class Beliefs:
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
        """Pass beliefs through the curation gate (``gate/``) and apply the verdicts.

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
        caller, actor = acting(caller, actor)
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
        caller, actor = acting(caller, actor)
        return GateWrite(self.gate).run(
            tx,
            rows,
            caller=caller,
            actor=actor,
            write_path=paths.pop() if len(paths) == 1 else WritePath.api.value,
            now=self._clock(),
        )

    # -- reads ----------------------------------------------------------------------------

    def get(self, belief_id: str, *, caller: Caller | None = None) -> BeliefPublic:
        """Return one belief.

        Raises:
            NotFound: no belief has that id, or none the caller may see.
        """
        found = self.get_many([belief_id], caller=caller)
        if not found or not may_see(caller, found[0].namespaces):
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
        caller may see the belief itself is left to the caller (:func:`may_see`).
        """
        if not ids:
            return []
        found = self.db.run_read(
            "belief_get_many", ids=list(ids), visible=allowed_namespaces(caller)
        )
        by_id = {b.id: as_seen_by(caller, b) for b in map(belief_from_record, found)}
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
        allowed = allowed_namespaces(caller)
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
            if may_see(caller, b.namespaces)
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
            for r in self.db.run_read("namespace_list", allowed=allowed_namespaces(caller))
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
            belief_row(belief, belief_id, vector, now=now, write_path=write_path, actor=actor)
            for belief, belief_id, vector in zip(beliefs, ids, vectors, strict=True)
        ]

    def _create_in(self, tx: ManagedTransaction, rows: list[dict[str, Any]]) -> None:
        check_ids_free(self.db, tx, [row["props"]["id"] for row in rows])
        create_rows(self.db, tx, rows)

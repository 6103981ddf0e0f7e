"""The gate's neighbour search: the namespaces' locks, the in-process vector copies and Neo4j's
indexes.
"""

from __future__ import annotations

import math
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from neo4j import ManagedTransaction

from beliefgraph.config import Settings
from beliefgraph.db import Db
from beliefgraph.embeddings import Embedder
from beliefgraph.errors import DuplicateId
from beliefgraph.gate.classifier import (
    BeliefView,
    Classifier,
    DefaultClassifier,
)
from beliefgraph.gate.incoming import (
    LIVE_STATUSES,
    MAX_INDEX_FETCH,
    NO_ENTITIES,
    STRUCTURAL_LIMIT,
    Incoming,
    Locked,
    Neighbour,
    Proposals,
    gather,
    held_view,
    live_views,
    matrix32,
    neighbour_from_record,
    neighbours_of,
    search_row,
    with_structural,
)
from beliefgraph.gate.vectors import (
    Copy,
    Held,
    Ranked,
    VectorCache,
    as_matrix,
    rank,
    related,
    subjects_of,
)


class Neighbours:
    """Finds neighbours, decides verdicts and applies them, for one store.

    Args:
        db: runs the queries.
        embedder: what the beliefs' vectors were made with (their dimensions).
        settings: thresholds and limits (``gate_*``).
        classifier: judges pairs before the write (the LLM's, when configured); inside the
            write's locks the deterministic classifier judges any pair it did not see.
    """

    def __init__(
        self, db: Db, embedder: Embedder, settings: Settings, classifier: Classifier
    ) -> None:
        self.db = db
        self.embedder = embedder
        self.settings = settings
        self.classifier = classifier
        self.default = DefaultClassifier(settings)
        self.vectors = VectorCache(settings.gate_vector_cache)

    @property
    def prejudges(self) -> bool:
        """Whether verdicts are fetched before the write (a non-default classifier)."""
        return not isinstance(self.classifier, DefaultClassifier)

    # -- neighbours --------------------------------------------------------------------------

    def lock(self, tx: ManagedTransaction, namespaces: Sequence[str]) -> dict[str, int]:
        """Lock these namespaces until ``tx`` ends (sorted order); return their sizes."""
        records = self.db.tx_run(tx, "gate_lock_namespaces", names=sorted(set(namespaces)))
        return {r["name"]: int(r["beliefs"]) for r in records}

    def sizes(self, namespaces: Sequence[str]) -> dict[str, int]:
        """How many beliefs each namespace holds (no locks)."""
        records = self.db.run_read("gate_namespace_sizes", names=sorted(set(namespaces)))
        return {r["name"]: int(r["beliefs"]) for r in records}

    def candidates(
        self,
        incoming: Sequence[Incoming],
        sizes: Mapping[str, int],
        tx: ManagedTransaction | None = None,
    ) -> dict[int, list[Neighbour]]:
        """The live neighbours of each incoming belief in its namespaces, nearest first.

        Three sources: the beliefs sharing an entity or the canonical name (always); then
        the nearest by cosine — an exact scan for a namespace of up to
        ``gate_exact_scan_limit`` beliefs, else the vector index, asked for
        ``gate_neighbours x gate_index_overfetch`` nodes and again for five times as many
        while fewer than ``gate_neighbours`` of them are in the namespace (then those are
        the true nearest), up to :data:`MAX_INDEX_FETCH`; past it, the namespace is scanned.
        """
        k = self.settings.gate_neighbours
        held = {
            item.index: sum(sizes.get(ns, 0) for ns in item.view.namespaces) for item in incoming
        }
        rows = [search_row(item) for item in incoming if held[item.index] > 0]
        records: list[Any] = []
        structural = [r for r in rows if r["about"] or r["canonical_name"]]
        if structural:
            records += self._structural(tx, structural)
        limit = self.settings.gate_exact_scan_limit
        exact = [r for r in rows if held[r["i"]] <= limit]
        if exact:
            records += self._exact(tx, exact, k)
        records += self._nearest_by_index(tx, [r for r in rows if held[r["i"]] > limit])
        return gather((int(r["i"]), neighbour_from_record(r)) for r in records)

    def lock_and_find(
        self, tx: ManagedTransaction, incoming: Sequence[Incoming]
    ) -> tuple[dict[int, list[Neighbour]], Locked]:
        """Lock the incoming beliefs' namespaces and find their neighbours, inside ``tx``.

        The same kinds of candidates as :meth:`candidates`, found the fast way: each namespace's
        vectors are kept in memory (:class:`~beliefgraph.gate.vectors.VectorCache`), so the
        nearest are ranked before the lock and the lock's round trip (``gate_lock_near``)
        reads just those, with the structural candidates. Only when the copy turns out
        stale (another writer), or too few of the nearest are live, does it take more
        round trips; a namespace too large to copy is scanned or goes to the index as in
        :meth:`candidates`. The same-entity candidates are the newest of each copy before
        Neo4j says which are live (those it says are not are skipped from then on, as are
        those the copy's load read as not live), so the first write after many supersessions
        since the load may compare fewer than :data:`STRUCTURAL_LIMIT`;
        when the default classifier decides, only those at or above its floor count (see
        :meth:`_related`).

        Returns:
            The candidates of each incoming belief, nearest first, and what the lock saw
            (for :meth:`remember`).

        Raises:
            DuplicateId: an incoming belief's id is already stored (the same round trip
                says so, under the lock).
        """
        if not incoming:
            return {}, Locked("", {})
        rows = [search_row(item) for item in incoming]
        names = sorted({ns for item in incoming for ns in item.view.namespaces})
        vectors = matrix32(incoming)
        floors = self._floors(incoming)
        copies = self.vectors.get(names)
        # proposed from the copies as they are now; the lock says whether that was right
        ranks = self._rank(rows, copies, vectors, self._near_limit, floors)
        proposals = with_structural(ranks, self._related(rows, copies, vectors))
        token = uuid.uuid4().hex
        records = self.db.tx_run(
            tx,
            "gate_lock_near",
            names=names,
            token=token,
            ids=[item.id for item in incoming],
            near=sorted({belief for pairs in proposals.values() for belief, _ in pairs}),
            live=list(LIVE_STATUSES),
        )
        if records[0]["taken"]:
            taken = records[0]["taken"][0]
            raise DuplicateId(f"a belief with id {taken!r} already exists", field="id")
        locked = {s["name"]: (s["replaced"], int(s["beliefs"])) for s in records[0]["sizes"]}
        synced = {name: copies[name] for name in self.vectors.in_sync(copies, locked)}
        if len(synced) < len(locked):
            # another writer of this process may have committed while this one waited for the
            # lock: its copy is the current one, not worth a reload
            latest = self.vectors.get([name for name in locked if name not in synced])
            synced |= {name: latest[name] for name in self.vectors.in_sync(latest, locked)}
        for name, (_, count) in locked.items():
            if name not in synced and self.vectors.fits(count):
                synced[name] = self._load(tx, name, count)
        held = {r["i"]: sum(locked[ns][1] for ns in r["namespaces"]) for r in rows}
        # each proposed belief still live -> what it is about now
        live = {r["id"]: r["about"] for r in records[0]["near"]}
        # only a copy the lock confirmed is trusted for a score (a stale one may hold an
        # embedding the compat router has since replaced); other rows are proposed again below
        confirmed = {
            r["i"]
            for r in rows
            if all(ns in synced and copies.get(ns) is synced[ns] for ns in r["namespaces"])
        }
        # and so is what a copy holds of a belief: a stale one may predate a compat replace
        trusted = [copy for name, copy in synced.items() if copies.get(name) is copy]
        found = neighbours_of(
            {i: p for i, p in proposals.items() if i in confirmed}, live_views(live, trusted)
        )
        # what a confirmed copy proposed and Neo4j did not return is no longer live, for good
        gone = {belief for pairs in proposals.values() for belief, _ in pairs} - live.keys()
        for name, copy in synced.items():
            if copies.get(name) is copy:
                copy.rows.bury(gone)
        # a row is settled when its proposals came from copies the lock confirmed, and
        # either k of its nearest are live or it ranked every belief there is
        k = self.settings.gate_neighbours
        copied = [r for r in rows if held[r["i"]] and all(ns in synced for ns in r["namespaces"])]
        unsettled = [
            r
            for r in copied
            if r["i"] not in ranks
            or any(copies.get(ns) is not synced[ns] for ns in r["namespaces"])
            or not (sum(i in live for i in ranks[r["i"]].ids) >= k or ranks[r["i"]].complete)
        ]
        found += self._nearest_in_copies(tx, unsettled, synced, vectors, floors)
        copied_rows = {r["i"] for r in copied}
        uncopied = [r for r in rows if r["i"] not in copied_rows and held[r["i"]]]
        structural = [r for r in uncopied if r["about"] or r["canonical_name"]]
        records = self._structural(tx, structural) if structural else []
        limit = self.settings.gate_exact_scan_limit
        scan = [r for r in uncopied if held[r["i"]] <= limit]
        records += self._exact(tx, scan, k) if scan else []
        records += self._nearest_by_index(tx, [r for r in uncopied if held[r["i"]] > limit])
        found += [(int(r["i"]), neighbour_from_record(r)) for r in records]
        return gather(found), Locked(token, synced)

    @property
    def _near_limit(self) -> int:
        """How many of the nearest are read first: enough that k are live, usually."""
        return 2 * self.settings.gate_neighbours

    def _floor(self, new: BeliefView) -> float:
        """The cosine below which a neighbour cannot change ``new``'s verdict: the default
        classifier's floor for it, or none when another classifier judges."""
        return -math.inf if self.prejudges else self.default.floor_for(new)

    def _floors(self, incoming: Sequence[Incoming]) -> dict[int, float]:
        """:meth:`_floor` of each incoming belief, by index."""
        return {item.index: self._floor(item.view) for item in incoming}

    def _rank(
        self,
        rows: Sequence[dict[str, Any]],
        copies: Mapping[str, Copy],
        vectors: np.ndarray[Any, Any],
        limit: int,
        floors: Mapping[int, float],
    ) -> dict[int, Ranked]:
        """Each row's nearest beliefs in its namespaces' copies (rows lacking a copy: none),
        down to its floor: a ranking that reaches below the floor is complete, as nothing
        further could be judged other than ``add``."""
        ranks: dict[int, Ranked] = {}
        groups: dict[tuple[tuple[str, ...], str | None], list[int]] = {}
        for row in rows:
            if all(ns in copies for ns in row["namespaces"]):
                key = (tuple(sorted(set(row["namespaces"]))), row["user"])
                groups.setdefault(key, []).append(row["i"])
        for (namespaces, user), indexes in groups.items():
            held = [copies[ns] for ns in namespaces]
            ranked = rank(held, vectors[indexes], user, limit, [floors[i] for i in indexes])
            ranks.update(zip(indexes, ranked, strict=True))
        return ranks

    def _related(
        self,
        rows: Sequence[dict[str, Any]],
        copies: Mapping[str, Copy],
        vectors: np.ndarray[Any, Any],
    ) -> Proposals:
        """Each row's beliefs sharing an entity or canonical name, from its copies: they may
        contradict it at any similarity, so they are compared whatever their rank.

        Those below the default classifier's floor could only be judged ``add``: they are
        neither read nor counted in the :data:`STRUCTURAL_LIMIT` newest, unless another
        classifier (which may judge any pair) decides.
        """
        floor = -math.inf if self.prejudges else self.default.floor
        found: Proposals = {}
        for row in rows:
            subjects = subjects_of(row["about"], row["canonical_name"])
            if subjects and all(ns in copies for ns in row["namespaces"]):
                held = [copies[ns] for ns in sorted(set(row["namespaces"]))]
                vector = vectors[row["i"]]
                found[row["i"]] = related(
                    held, vector, row["user"], subjects, STRUCTURAL_LIMIT, floor
                )
        return found

    def _load(self, tx: ManagedTransaction, name: str, count: int) -> Copy:
        """Read a namespace's beliefs into a copy (:meth:`remember` stamps it).

        Those no longer live are read under the lock, so they are final: the copy starts out
        knowing them (:meth:`~beliefgraph.gate.vectors.Rows.bury`) and never proposes them.
        """
        dims = self.embedder.dimensions
        records = (
            self.db.tx_run(tx, "gate_namespace_vectors", namespace=name, live=list(LIVE_STATUSES))
            if count
            else []
        )
        copy = Copy.of(
            None,
            [
                Held(r["id"], r["user"], subjects_of(r["about"], r["canonical_name"]), held_view(r))
                for r in records
            ],
            as_matrix([r["embedding"] for r in records], dims),
        )
        copy.rows.bury(r["id"] for r in records if not r["live"])
        return copy

    def _nearest_in_copies(
        self,
        tx: ManagedTransaction,
        rows: list[dict[str, Any]],
        copies: Mapping[str, Copy],
        vectors: np.ndarray[Any, Any],
        floors: Mapping[int, float],
    ) -> list[tuple[int, Neighbour]]:
        """Live neighbours from the (now current) copies: the related ones, and the nearest,
        reading four times as many each round until k are live or every belief above the
        row's floor was read."""
        k = self.settings.gate_neighbours
        found: list[tuple[int, Neighbour]] = []
        limit = self._near_limit
        pending = rows
        structural = self._related(rows, copies, vectors)
        names = sorted({ns for r in rows for ns in r["namespaces"]})
        while pending:
            ranks = self._rank(pending, copies, vectors, limit, floors)
            proposals = with_structural(ranks, structural)
            ids = sorted({belief for pairs in proposals.values() for belief, _ in pairs})
            near = self.db.tx_rows(
                tx, "gate_candidates_near", ids=ids, namespaces=names, live=list(LIVE_STATUSES)
            )
            live = {r["id"]: r["about"] for r in near}
            found += neighbours_of(proposals, live_views(live, copies.values()))
            for copy in copies.values():
                copy.rows.bury(set(ids) - live.keys())
            structural = {}  # read once
            pending = [
                r
                for r in pending
                if sum(i in live for i in ranks[r["i"]].ids) < k and not ranks[r["i"]].complete
            ]
            limit *= 4
        return found

    def remember(self, locked: Locked, stored: Sequence[Incoming]) -> None:
        """Keep the copies of the locked namespaces in step with the beliefs ``stored``.

        Called inside the write transaction: the copies are stamped with its lock token,
        so if it rolls back they no longer match the next lock and are reloaded.
        """
        # one Held a belief, shared by the copies of all its namespaces
        held = {
            item.index: Held(
                item.id,
                item.view.user,
                subjects_of(list(item.view.entities), item.view.canonical_name),
                replace(item.view, entities=NO_ENTITIES),
            )
            for item in stored
        }
        for name, copy in locked.copies.items():
            added = [item for item in stored if name in item.view.namespaces]
            beliefs = [held[item.index] for item in added]
            self.vectors.extend(name, copy, locked.token, beliefs, matrix32(added, copy.dimensions))

    def _nearest_by_index(
        self, tx: ManagedTransaction | None, rows: list[dict[str, Any]]
    ) -> list[Any]:
        """Nearest neighbours through the vector index, over-fetching more while too few
        are in the namespace, then scanning."""
        k = self.settings.gate_neighbours
        records: list[Any] = []
        pending = rows
        fetch = k * self.settings.gate_index_overfetch
        while pending:
            found = self._index(tx, pending, k, min(fetch, MAX_INDEX_FETCH))
            records += found
            counts = Counter(int(r["i"]) for r in found)
            pending = [r for r in pending if counts[r["i"]] < k]
            if pending and fetch >= MAX_INDEX_FETCH:
                # the namespace is rare among even these many neighbours: scan it
                records += self._exact(tx, pending, k)
                break
            fetch *= 5
        return records

    # Each named query is called literally, in a transaction or not, so tests can check
    # every call's parameters.

    def _structural(self, tx: ManagedTransaction | None, rows: list[dict[str, Any]]) -> list[Any]:
        live, limit = list(LIVE_STATUSES), STRUCTURAL_LIMIT
        if tx is None:
            return self.db.run_read("gate_candidates_structural", rows=rows, limit=limit, live=live)
        return self.db.tx_run(tx, "gate_candidates_structural", rows=rows, limit=limit, live=live)

    def _exact(
        self, tx: ManagedTransaction | None, rows: list[dict[str, Any]], k: int
    ) -> list[Any]:
        live = list(LIVE_STATUSES)
        if tx is None:
            return self.db.run_read("gate_candidates_exact", rows=rows, k=k, live=live)
        return self.db.tx_run(tx, "gate_candidates_exact", rows=rows, k=k, live=live)

    def _index(
        self, tx: ManagedTransaction | None, rows: list[dict[str, Any]], k: int, fetch: int
    ) -> list[Any]:
        live = list(LIVE_STATUSES)
        if tx is None:
            return self.db.run_read("gate_candidates_index", rows=rows, k=k, fetch=fetch, live=live)
        return self.db.tx_run(tx, "gate_candidates_index", rows=rows, k=k, fetch=fetch, live=live)

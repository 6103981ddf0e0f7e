"""The curation gate: every write is compared with what is already held (DESIGN §5).

For each incoming belief the gate finds its nearest *live* neighbours in its own namespaces
(live: active, provisional, inferred, exploratory), plus every live belief that shares an
entity or the canonical name with it, and decides one :class:`~beliefgraph.models.Verdict`:

=============  ==============================================================================
``add``        nothing close: stored as it is
``noop``       near-identical: not stored; the existing belief is reinforced
               (``reinforcement_count``, ``last_reinforced_at``)
``compatible`` stored; the older belief's importance takes a small redundancy penalty
``contradicts`` stored; it supersedes the older one (``SUPERSEDES`` edge with the reason,
               old status ``superseded``, its importance decays)
``subsumes``   stored; the older one, which it fully covers, is archived
``subsumed``   not stored; the older one already says it, and is reinforced
=============  ==============================================================================

**Hard rules and guards**, whatever the classifier says:

- Beliefs about different entities (both have ``about``, none shared), with different
  canonical names, or of different users, are never merged or replaced: ``add``.
- **Trust guard**: a belief whose trust is below ``gate_trust_ratio`` (0.8) x the existing
  belief's trust cannot supersede it. It is stored, marked ``contested`` and linked
  ``CONTRADICTS`` to the belief it disputes, which keeps governing. The same happens when an
  agent key's belief contradicts an authority belief (policy, credential, correction,
  decision), and when the existing belief also lives in namespaces the writer's belief does
  not (a write never changes what another namespace relies on). ``subsumes`` under the same
  guards becomes ``compatible``.
- A near-identical belief with *more* trust than the existing one replaces it
  (``subsumes``) instead of being dropped, so a user's confirmation is not lost to an
  agent's earlier guess.
- A belief that supersedes or subsumes a pinned one by the same ``author`` is pinned too
  (``gate_supersede``, ``gate_archive``): a correction of what someone asked to remember
  stays in view.

**Finding neighbours.** 5.26's vector index cannot filter by namespace, and the shared
store may hold millions of beliefs of other namespaces: a global top-k can miss a small
namespace entirely. So the gate keeps an in-memory copy of each namespace's vectors
(:mod:`beliefgraph.vectors`, which says when a copy may be trusted) with what each belief
is about, ranks the nearest exactly down to the belief's floor (when the default classifier
decides, the cosine below which it can only say ``add``:
:meth:`~beliefgraph.classifier.DefaultClassifier.floor_for`), picks the beliefs sharing an
entity or canonical name, and has Neo4j read only those (and say which are live). An ``add``
names its nearest neighbour only at or above that floor. A namespace too large for the copy
is searched in Cypher: up to ``gate_exact_scan_limit`` beliefs by an exact scan
(``vector.similarity.cosine``; reading each stored vector is what costs, about 15 us a
belief), larger ones through the index: ``k x gate_index_overfetch`` nodes, then five times
as many while fewer than ``k`` of them are in the namespace (once ``k`` are, they are its
true nearest), and past :data:`MAX_INDEX_FETCH` a scan after all. Beliefs sharing an entity
or canonical name are compared whatever their rank (the most recent
:data:`STRUCTURAL_LIMIT`; from the copy, only those the default classifier could judge
anything but ``add``, when it decides). Only the
writer's ``user``'s beliefs are candidates (shared ones for a shared belief).
``bench/write_latency.py`` measures all of it.

**Consistency.** Decisions are made inside the write transaction after locking the
belief's namespaces (sorted, so lock order is fixed), so two writers in one namespace
decide one after the other and the second sees the first's result: two concurrent
contradictions of one belief make a chain, never a fork. The LLM classifier is never
called while locks are held: its verdicts are fetched first, and a pair it did not see (a
neighbour that appeared meanwhile) is decided by the default classifier.
"""

from __future__ import annotations

import functools
import math
import uuid
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import numpy as np
from neo4j import ManagedTransaction
from neo4j.exceptions import ConstraintError

from beliefgraph import audit
from beliefgraph.access import (
    Caller,
    Role,
    agent_may_change,
    as_written_by,
    write_refusal,
)
from beliefgraph.classifier import (
    BeliefView,
    Classifier,
    DefaultClassifier,
    Judgement,
    Pair,
    different_subjects,
)
from beliefgraph.config import Settings
from beliefgraph.db import Db
from beliefgraph.embeddings import Embedder
from beliefgraph.errors import DuplicateId, Forbidden, NotFound
from beliefgraph.models import BeliefCreate, GateDecision, Verdict
from beliefgraph.text import tokenize
from beliefgraph.vectors import (
    Copy,
    Held,
    Matrix,
    Ranked,
    VectorCache,
    as_matrix,
    rank,
    related,
    subjects_of,
)

#: statuses a gate compares with: everything that may still govern or surface
LIVE_STATUSES = ("active", "provisional", "inferred", "exploratory")
#: most beliefs sharing an entity or canonical name compared with one incoming belief
STRUCTURAL_LIMIT = 50
#: most index nodes fetched for one belief; past it, the namespace is scanned
MAX_INDEX_FETCH = 5000

#: which verdict wins when an incoming belief relates to several neighbours
_PRECEDENCE = {
    Verdict.noop: 0,
    Verdict.subsumed: 1,
    Verdict.contradicts: 2,
    Verdict.subsumes: 3,
    Verdict.compatible: 4,
    Verdict.add: 5,
}
#: verdicts after which the incoming belief is stored
_STORES = frozenset({Verdict.add, Verdict.compatible, Verdict.contradicts, Verdict.subsumes})


@dataclass(frozen=True)
class Incoming:
    """One belief being written: its ``belief_create`` row and what the gate compares."""

    index: int
    row: dict[str, Any]
    view: BeliefView

    @property
    def id(self) -> str:
        """The id it gets if stored."""
        return str(self.row["props"]["id"])

    @property
    def embedding(self) -> list[float]:
        """Its unit-length embedding (the row's own list: read, never changed)."""
        embedding: list[float] = self.row["embedding"]
        return embedding


@dataclass(frozen=True)
class Candidate:
    """A live belief the incoming one is compared with."""

    view: BeliefView
    similarity: float


@dataclass
class Effects:
    """What a set of decisions changes, gathered so each kind of change is one query."""

    store: list[int] = field(default_factory=list)
    reinforce: Counter[str] = field(default_factory=Counter)
    penalise: dict[str, float] = field(default_factory=dict)
    supersede: list[dict[str, Any]] = field(default_factory=list)
    archive: list[dict[str, Any]] = field(default_factory=list)
    contest: list[dict[str, Any]] = field(default_factory=list)


def incoming_from_rows(rows: Sequence[dict[str, Any]]) -> list[Incoming]:
    """Wrap ``belief_create`` rows (see ``Store._rows``) for the gate."""
    return [Incoming(i, row, view_from_row(row)) for i, row in enumerate(rows)]


def _entity_words(key: str, name: str | None, aliases: Sequence[str] | None) -> frozenset[str]:
    """The words an entity goes by (its key, name and aliases), for comparing subjects."""
    return _words_of(key, name, tuple(aliases or ()))


@functools.lru_cache(maxsize=8192)
def _words_of(key: str, name: str | None, aliases: tuple[str, ...]) -> frozenset[str]:
    # the same few entities come back with every neighbour read (about 50 a write)
    words = set(tokenize(key.replace("_", " ")))
    for text in [name or "", *aliases]:
        words |= set(tokenize(text))
    return frozenset(words)


def view_from_row(row: dict[str, Any]) -> BeliefView:
    """The comparable view of a ``belief_create`` row."""
    props = row["props"]
    return BeliefView(
        id=str(props["id"]),
        text=str(props["text"]),
        kind=str(props["kind"]),
        trust=float(props["trust"]),
        canonical_name=props.get("canonical_name"),
        namespaces=tuple(row["namespaces"]),
        entities=_entities(row["about"]),
        user=props.get("user"),
    )


def _search_row(item: Incoming) -> dict[str, Any]:
    """What the neighbour queries need of an incoming belief."""
    return {
        "i": item.index,
        "user": item.view.user,
        "embedding": item.embedding,
        "namespaces": list(item.view.namespaces),
        "about": sorted(item.view.entities),
        "canonical_name": item.view.canonical_name,
    }


def _gather(found: Iterable[tuple[int, Candidate]]) -> dict[int, list[Candidate]]:
    """Candidates per incoming belief, each once (its best score), nearest first."""
    best: dict[int, dict[str, Candidate]] = {}
    for i, c in found:
        seen = best.setdefault(i, {})
        if c.view.id not in seen or seen[c.view.id].similarity < c.similarity:
            seen[c.view.id] = c
    return {
        i: sorted(by_id.values(), key=lambda c: (-c.similarity, c.view.id))
        for i, by_id in best.items()
    }


Proposals = dict[int, list[tuple[str, float]]]


def _proposals(ranks: Mapping[int, Ranked], structural: Proposals) -> Proposals:
    """Per incoming belief, the (id, cosine) of every belief its copies propose."""
    out: Proposals = {i: list(zip(r.ids, r.scores, strict=True)) for i, r in ranks.items()}
    for i, pairs in structural.items():
        out.setdefault(i, []).extend(pairs)
    return out


def _candidates(
    proposals: Proposals, live: Mapping[str, BeliefView]
) -> list[tuple[int, Candidate]]:
    """The proposed beliefs that are live, with the copies' cosine."""
    return [
        (i, Candidate(live[belief], score))
        for i, pairs in proposals.items()
        for belief, score in pairs
        if belief in live
    ]


def _matrix(incoming: Sequence[Incoming]) -> np.ndarray[Any, Any]:
    """The incoming embeddings as one matrix, a row each (unit length: dot = cosine)."""
    return np.asarray([item.row["embedding"] for item in incoming], dtype=np.float64)


def _matrix32(incoming: Sequence[Incoming], dimensions: int = 0) -> Matrix:
    """As :func:`_matrix`, in the precision of the vector copies."""
    return as_matrix([item.row["embedding"] for item in incoming], dimensions)


@dataclass(frozen=True)
class Locked:
    """What a write's lock found: its token, and the current copy of each namespace."""

    token: str
    copies: Mapping[str, Copy]


def _view(record: Any) -> BeliefView:
    """The comparable view of a stored belief, from a ``gate_candidates_*`` record."""
    return replace(_held_view(record), entities=_entities(record["about"]))


def _entities(about: Sequence[Mapping[str, Any]]) -> dict[str, frozenset[str]]:
    """Entity key -> the words it goes by, from a record's ``about`` ({key, name, aliases})."""
    return {e["key"]: _entity_words(e["key"], e.get("name"), e.get("aliases")) for e in about}


#: the entities of a copy's views: none (the gate reads them, they change)
_NO_ENTITIES: Mapping[str, frozenset[str]] = MappingProxyType({})


def _held_view(record: Any) -> BeliefView:
    """What a copy holds of a belief, from a ``gate_namespace_vectors`` record: its view
    without entities (:class:`~beliefgraph.vectors.Held`)."""
    return BeliefView(
        id=record["id"],
        text=record["text"],
        kind=record["kind"],
        trust=float(record["trust"]),
        canonical_name=record["canonical_name"],
        namespaces=tuple(sorted(record["namespaces"])),
        entities=_NO_ENTITIES,
        user=record["user"],
    )


def _live_views(about: Mapping[str, Any], copies: Iterable[Copy]) -> dict[str, BeliefView]:
    """The views of the live beliefs ``about`` names (id -> its entities, as Neo4j read them
    under the lock): the entities as read, the rest as the copies hold it."""
    views: dict[str, BeliefView] = {}
    for copy in copies:
        rows = copy.rows
        for belief_id, entities in about.items():
            j = rows.index.get(belief_id)
            if j is None or belief_id in views:
                continue
            held = rows.beliefs[j].view
            assert held is not None, "a copy's beliefs carry their views"
            views[belief_id] = replace(held, entities=_entities(entities))
    return views


def _candidate(record: Any) -> Candidate:
    # Neo4j scales cosine to 0..1 as (1 + cos) / 2; the gate's thresholds are plain cosine.
    return Candidate(_view(record), 2.0 * float(record["score"]) - 1.0)


class Gate:
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
    ) -> dict[int, list[Candidate]]:
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
        rows = [_search_row(item) for item in incoming if held[item.index] > 0]
        records: list[Any] = []
        structural = [r for r in rows if r["about"] or r["canonical_name"]]
        if structural:
            records += self._structural(tx, structural)
        limit = self.settings.gate_exact_scan_limit
        exact = [r for r in rows if held[r["i"]] <= limit]
        if exact:
            records += self._exact(tx, exact, k)
        records += self._nearest_by_index(tx, [r for r in rows if held[r["i"]] > limit])
        return _gather((int(r["i"]), _candidate(r)) for r in records)

    def lock_and_find(
        self, tx: ManagedTransaction, incoming: Sequence[Incoming]
    ) -> tuple[dict[int, list[Candidate]], Locked]:
        """Lock the incoming beliefs' namespaces and find their neighbours, inside ``tx``.

        The same kinds of candidates as :meth:`candidates`, found the fast way: each namespace's
        vectors are kept in memory (:class:`~beliefgraph.vectors.VectorCache`), so the
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
        rows = [_search_row(item) for item in incoming]
        names = sorted({ns for item in incoming for ns in item.view.namespaces})
        vectors = _matrix32(incoming)
        floors = self._floors(incoming)
        copies = self.vectors.get(names)
        # proposed from the copies as they are now; the lock says whether that was right
        ranks = self._rank(rows, copies, vectors, self._near_limit, floors)
        proposals = _proposals(ranks, self._related(rows, copies, vectors))
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
        found = _candidates(
            {i: p for i, p in proposals.items() if i in confirmed}, _live_views(live, trusted)
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
        found += [(int(r["i"]), _candidate(r)) for r in records]
        return _gather(found), Locked(token, synced)

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
        knowing them (:meth:`~beliefgraph.vectors.Rows.bury`) and never proposes them.
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
                Held(
                    r["id"], r["user"], subjects_of(r["about"], r["canonical_name"]), _held_view(r)
                )
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
    ) -> list[tuple[int, Candidate]]:
        """Live neighbours from the (now current) copies: the related ones, and the nearest,
        reading four times as many each round until k are live or every belief above the
        row's floor was read."""
        k = self.settings.gate_neighbours
        found: list[tuple[int, Candidate]] = []
        limit = self._near_limit
        pending = rows
        structural = self._related(rows, copies, vectors)
        while pending:
            ranks = self._rank(pending, copies, vectors, limit, floors)
            proposals = _proposals(ranks, structural)
            ids = sorted({belief for pairs in proposals.values() for belief, _ in pairs})
            near = self.db.tx_rows(tx, "gate_candidates_near", ids=ids, live=list(LIVE_STATUSES))
            live = {r["id"]: r["about"] for r in near}
            found += _candidates(proposals, _live_views(live, copies.values()))
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
                replace(item.view, entities=_NO_ENTITIES),
            )
            for item in stored
        }
        for name, copy in locked.copies.items():
            added = [item for item in stored if name in item.view.namespaces]
            beliefs = [held[item.index] for item in added]
            self.vectors.extend(
                name, copy, locked.token, beliefs, _matrix32(added, copy.dimensions)
            )

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

    # -- decisions ---------------------------------------------------------------------------

    def prejudge(
        self, incoming: Sequence[Incoming], found: Mapping[int, list[Candidate]]
    ) -> dict[tuple[int, str], Judgement]:
        """Ask the configured classifier about every pair it may need, in one batch."""
        keys: list[tuple[int, str]] = []
        pairs: list[Pair] = []
        vectors = _matrix(incoming)
        for item in incoming:
            for c in found.get(item.index, []):
                if different_subjects(item.view, c.view) is None:
                    keys.append((item.index, c.view.id))
                    pairs.append(Pair(item.view, c.view, c.similarity))
            for other, similarity in self._earlier(incoming, item, vectors):
                keys.append((item.index, other.id))
                pairs.append(Pair(item.view, other.view, similarity))
        return dict(zip(keys, self.classifier.judge(pairs), strict=True))

    def _earlier(
        self, incoming: Sequence[Incoming], item: Incoming, vectors: np.ndarray[Any, Any]
    ) -> list[tuple[Incoming, float]]:
        """Earlier beliefs of the same write that share a namespace, nearest first (top k).

        ``vectors`` holds every incoming embedding, one row each (built once per write).
        """
        if item.index == 0:
            return []
        sims = vectors[: item.index] @ vectors[item.index]
        k = self.settings.gate_neighbours
        ranked: list[tuple[Incoming, float]] = []
        for j in np.argsort(-sims).tolist():
            other = incoming[j]
            if set(other.view.namespaces) & set(item.view.namespaces) and (
                different_subjects(item.view, other.view) is None
            ):
                ranked.append((other, float(sims[j])))
                if len(ranked) == k:
                    break
        return ranked

    def decide(
        self,
        incoming: Sequence[Incoming],
        found: Mapping[int, list[Candidate]],
        caller: Caller,
        prejudged: Mapping[tuple[int, str], Judgement] | None = None,
    ) -> tuple[list[GateDecision], Effects]:
        """Decide every incoming belief, in order; later ones see earlier ones' effects.

        Returns:
            One decision per incoming belief, and the effects to apply.
        """
        prejudged = prejudged or {}
        vectors = _matrix(incoming)
        decisions: list[GateDecision] = []
        effects = Effects()
        gone: set[str] = set()  # superseded or archived by an earlier decision of this write
        stored: set[int] = set()
        for item in incoming:
            pool = [
                Candidate(c.view, c.similarity)
                for c in found.get(item.index, [])
                if c.view.id not in gone
            ]
            pool += [
                Candidate(o.view, sim)
                for o, sim in self._earlier(incoming, item, vectors)
                if o.index in stored and o.id not in gone
            ]
            decision = self._decide_one(item, pool, caller, prejudged)
            decisions.append(decision)
            target = decision.target
            if decision.verdict in _STORES:
                effects.store.append(item.index)
                stored.add(item.index)
            else:
                assert target is not None  # noop and subsumed always name the kept belief
                effects.reinforce[target] += 1
            if target is None:
                continue
            if decision.contested:
                effects.contest.append(
                    {"old_id": target, "new_id": item.id, "guard": decision.guard}
                    | {"reason": decision.reason}
                )
            elif decision.verdict is Verdict.contradicts:
                effects.supersede.append(
                    {"old_id": target, "new_id": item.id, "reason": decision.reason}
                )
                gone.add(target)
            elif decision.verdict is Verdict.subsumes:
                effects.archive.append({"old_id": target, "new_id": item.id})
                gone.add(target)
            elif decision.verdict is Verdict.compatible:
                old = next(c.view for c in pool if c.view.id == target)
                if self._guard(item.view, old, caller) is None:
                    # a write that may not replace a belief may not wear it down either: an
                    # assistant's echo of a user's decision leaves the decision as it was
                    factor = effects.penalise.get(target, 1.0)
                    effects.penalise[target] = factor * (
                        1.0 - self.settings.gate_redundancy_penalty
                    )
        return decisions, effects

    def _decide_one(
        self,
        item: Incoming,
        pool: Sequence[Candidate],
        caller: Caller,
        prejudged: Mapping[tuple[int, str], Judgement],
    ) -> GateDecision:
        judged: list[tuple[Candidate, Judgement]] = []
        unjudged: list[Candidate] = []
        for c in pool:
            if different_subjects(item.view, c.view) is not None:
                continue
            known = prejudged.get((item.index, c.view.id))
            if known is not None:
                judged.append((c, known))
            else:
                unjudged.append(c)
        judgements = self.default.judge([Pair(item.view, c.view, c.similarity) for c in unjudged])
        judged += zip(unjudged, judgements, strict=True)
        if not judged or all(j.verdict is Verdict.add for _, j in judged):
            # only a neighbour at or above the floor is named: below it none is read on the
            # fast path, so naming one would depend on the path
            floor = self._floor(item.view)
            nearest = max(pool, key=lambda c: c.similarity, default=None)
            reason = (
                f"nothing close enough to merge or replace (nearest {nearest.view.id}, "
                f"cosine {nearest.similarity:.2f})"
                if nearest and nearest.similarity >= floor
                else "no live belief in its namespaces to compare with"
                if floor == -math.inf
                else f"nothing close enough to merge or replace (none at cosine {floor:.2f}+)"
            )
            classifier = next((j.classifier for _, j in judged), self.default.name)
            return self._decision(item, Verdict.add, None, reason, classifier)
        best, judgement = min(
            judged, key=lambda p: (_PRECEDENCE[p[1].verdict], -p[0].similarity, p[0].view.id)
        )
        return self._guarded(item, best, judgement, caller)

    def _guarded(
        self, item: Incoming, old: Candidate, judgement: Judgement, caller: Caller
    ) -> GateDecision:
        verdict, reason = judgement.verdict, judgement.reason
        new, target = item.view, old.view
        guard = self._guard(new, target, caller)
        if verdict is Verdict.noop and new.trust > target.trust and guard is None:
            verdict = Verdict.subsumes
            reason += (
                f"; stated with more trust ({new.trust:.2f} > {target.trust:.2f}), it replaces it"
            )
        if verdict is Verdict.contradicts and guard is not None:
            return self._decision(
                item,
                verdict,
                old,
                f"{reason}; contested, not superseded: {guard[1]}",
                judgement.classifier,
                guard=guard[0],
            )
        if verdict is Verdict.subsumes and guard is not None:
            verdict = Verdict.compatible
            reason += f"; kept both: {guard[1]}"
        elif verdict is Verdict.compatible and guard is not None:
            reason += f"; no redundancy penalty: {guard[1]}"
        return self._decision(item, verdict, old, reason, judgement.classifier)

    def _guard(self, new: BeliefView, old: BeliefView, caller: Caller) -> tuple[str, str] | None:
        """Why ``new`` may not replace ``old`` (guard name, explanation), or ``None``."""
        outside = sorted(set(old.namespaces) - set(new.namespaces))
        if outside:
            # counted, not named: the reason goes to the writer, onto a CONTRADICTS edge and
            # into the audit, and whoever reads it there may not see those namespaces
            many = "s" if len(outside) > 1 else ""
            return (
                "namespace",
                f"{old.id} also lives in {len(outside)} namespace{many} this write is not in",
            )
        if caller.role is Role.agent and not agent_may_change(old.kind, old.trust):
            return "role", f"an agent key cannot replace a {old.kind} trusted at {old.trust:.2f}"
        ratio = self.settings.gate_trust_ratio
        if trust_too_low(new.trust, old.trust, ratio):
            return (
                "trust",
                f"trust {new.trust:.2f} is below {ratio:g} x {old.id}'s {old.trust:.2f}",
            )
        return None

    @staticmethod
    def _decision(
        item: Incoming,
        verdict: Verdict,
        target: Candidate | None,
        reason: str,
        classifier: str,
        *,
        guard: str | None = None,
    ) -> GateDecision:
        kept = verdict in (Verdict.noop, Verdict.subsumed)
        return GateDecision(
            index=item.index,
            verdict=verdict,
            belief_id=target.view.id if kept and target else item.id,
            target=target.view.id if target else None,
            similarity=round(target.similarity, 4) if target else None,
            reason=reason,
            classifier=classifier,
            contested=guard is not None,
            guard=guard,
        )

    # -- effects -----------------------------------------------------------------------------

    def apply(
        self, tx: ManagedTransaction, effects: Effects, *, actor: str | None, now: Any
    ) -> None:
        """Apply the effects of :meth:`decide` in ``tx`` (the new beliefs already created)."""
        s = self.db
        if effects.reinforce:
            rows = [{"id": i, "times": n} for i, n in sorted(effects.reinforce.items())]
            s.tx_run(tx, "gate_reinforce", rows=rows, now=now)
        if effects.penalise:
            rows = [{"id": i, "factor": f} for i, f in sorted(effects.penalise.items())]
            s.tx_run(tx, "gate_penalise", rows=rows, now=now)
        if effects.supersede:
            rows = [r | {"by": actor} for r in effects.supersede]
            s.tx_run(
                tx,
                "gate_supersede",
                rows=rows,
                decay=self.settings.gate_supersede_decay,
                now=now,
            )
        if effects.archive:
            s.tx_run(tx, "gate_archive", rows=effects.archive, now=now)
        if effects.contest:
            rows = [r | {"by": actor} for r in effects.contest]
            s.tx_run(tx, "gate_contest", rows=rows, now=now)


def trust_too_low(new: float, old: float, ratio: float) -> bool:
    """The trust guard: whether a belief of trust ``new`` may not replace one of ``old``.

    At exactly ``ratio`` x ``old`` it may (the tolerance absorbs float rounding, so that
    0.72 against 0.8 x 0.9 is not refused).
    """
    return new + 1e-9 < ratio * old


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
    # encoding of a date-time costs ~0.3 ms, twice per belief otherwise).
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

"""The gate's in-process copy of each namespace's belief vectors, for exact neighbour search.

Neo4j 5.26's vector index cannot filter by namespace, and reading stored vectors back to
score them in Cypher costs about 15 us a belief (bench/results/write_latency.md), which made
the gate's exact scan of a 1,000-belief namespace take 20 ms. But a belief's embedding never
changes once written (a change of text is a new belief that supersedes it), and a belief
never leaves its namespaces. So the gate keeps, per namespace, the ids and vectors it has
already seen, and ranks an incoming belief against them with one matrix product; Neo4j then
reads only the few nearest (and filters them by status, which does change).

**When a copy may be used.** The namespace's write lock (``gate_lock_near``) replaces the
namespace's ``lock_token`` with a token of its own and returns the one it replaced, with the
belief count. A copy is in sync when it is stamped with that replaced token and holds exactly
that many beliefs. The gate stamps the copy it grows inside a write with that write's token:
if the write commits, the next lock returns the token and the copy is used; if it rolls
back, the token is never seen again and the copy is reloaded. Every other writer changes
the token too (another process's gate, the compat router's in-place replace) or the count
(an evaluation load): a copy can be stale only in a way that is detected, never trusted.

**Status.** Statuses change, so Neo4j says which of the few proposed beliefs are live. But a
status that is not live (superseded, archived, retracted) is final: the beliefs a copy's load
(under the namespace's lock) read as not live, and a proposed belief that Neo4j, under the
lock, did not return as live, are noted in the copy and never proposed again. A namespace
whose nearest are mostly superseded does not cost a second round trip on every write.

**Memory.** At most ``capacity`` vectors (float32, 1.5 kB each) are held, whole
namespaces at a time, least recently used first out; a namespace's matrix grows by doubling,
so what is allocated can be up to twice that; a namespace larger than the capacity
is never copied (the gate uses the vector index for it). Rows are appended in place, so
keeping a copy in step with a write costs the new rows, not the namespace.
"""

from __future__ import annotations

import bisect
import math
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

Matrix = np.ndarray[Any, np.dtype[np.float32]]

_BLAS: list[Any] = []  # the limit, once set
_BLAS_LOCK = threading.Lock()


def _one_blas_thread() -> None:
    """Make numpy's BLAS use one thread in this process, once.

    The gate's products are small; on a busy 2-core machine handing one to a second BLAS
    thread waits for that thread to be scheduled: measured 7.4 ms for one incoming belief
    against 30,000 vectors, 2.5 ms on one thread (and the same for a 256-belief batch). Set
    once for the process rather than around each product: threadpoolctl's limit is
    process-wide, and concurrent set-and-restore could leave it at either value.
    """
    with _BLAS_LOCK:
        if not _BLAS:
            _BLAS.append(ThreadpoolController().limit(limits=1, user_api="blas"))


def as_matrix(vectors: Sequence[Sequence[float]], dimensions: int) -> Matrix:
    """Vectors as a float32 matrix, one row each (an empty one has ``dimensions`` columns)."""
    if not vectors:
        return np.zeros((0, dimensions), dtype=np.float32)
    return np.asarray(vectors, dtype=np.float32)


@dataclass(frozen=True)
class Held:
    """What a copy keeps of a belief besides its vector; none of it ever changes.

    ``subjects`` are the keys of what it is about: ``e:<entity key>`` for each entity and
    ``c:<canonical name>``; beliefs sharing one may contradict each other at any similarity.
    """

    id: str
    user: str | None
    subjects: frozenset[str] = frozenset()


def subjects_of(about: Sequence[str], canonical_name: str | None) -> frozenset[str]:
    """The subject keys of a belief (see :class:`Held`)."""
    keys = {f"e:{key}" for key in about}
    if canonical_name:
        keys.add(f"c:{canonical_name}")
    return frozenset(keys)


class Rows:
    """Beliefs (:class:`Held`) and their vectors, appended only at the end, oldest first.

    Copies of one namespace share their rows: a copy is a prefix, so appending for a newer
    copy never changes what an older one sees.
    """

    def __init__(self, beliefs: Sequence[Held], matrix: Matrix) -> None:
        self.beliefs: list[Held] = []
        self.index: dict[str, int] = {}
        #: False for rows known to be no longer live (superseded, archived, retracted: never
        #: live again), grown with the matrix
        self.live = np.ones(0, dtype=bool)
        self.by_user: dict[str | None, list[int]] = {}
        self.by_subject: dict[str, list[int]] = {}
        self.matrix = np.zeros((0, matrix.shape[1]), np.float32)
        self.length = 0
        self.append(beliefs, matrix)

    def append(self, beliefs: Sequence[Held], matrix: Matrix) -> None:
        """Add rows at the end (the matrix grows by doubling, so appends are cheap)."""
        end = self.length + len(beliefs)
        if end > len(self.matrix):
            grown = np.zeros((max(end, 2 * len(self.matrix)), matrix.shape[1]), np.float32)
            grown[: self.length] = self.matrix[: self.length]
            self.matrix = grown
            live = np.ones(len(grown), dtype=bool)
            live[: self.length] = self.live[: self.length]
            self.live = live
        self.matrix[self.length : end] = matrix
        for j, belief in enumerate(beliefs, start=self.length):
            self.beliefs.append(belief)
            self.index[belief.id] = j
            self.by_user.setdefault(belief.user, []).append(j)
            for subject in belief.subjects:
                self.by_subject.setdefault(subject, []).append(j)
        self.length = end

    def bury(self, ids: Iterable[str]) -> None:
        """Note that these beliefs were read, under the namespace's lock, as no longer live.

        Only committed state may be noted (a status seen by a read under the lock): a
        status this write is about to change could still roll back. A status that is not
        live is final, so the rows are skipped from then on.
        """
        rows = [j for i in ids if (j := self.index.get(i)) is not None]
        self.live[rows] = False

    def owned(self, user: str | None, count: int) -> list[int] | None:
        """The rows among the first ``count`` that belong to ``user`` (``None``: all do)."""
        rows = self.by_user.get(user, [])
        mine = rows[: bisect.bisect_left(rows, count)]
        return None if len(mine) == count else mine

    def about(self, subjects: frozenset[str], user: str | None, count: int) -> list[int]:
        """The rows among the first ``count`` of ``user`` sharing a subject, newest first."""
        found: set[int] = set()
        for subject in subjects:
            rows = self.by_subject.get(subject, [])
            found.update(rows[: bisect.bisect_left(rows, count)])
        live = self.live
        mine = (j for j in found if self.beliefs[j].user == user and live[j])
        return sorted(mine, reverse=True)


@dataclass(frozen=True)
class Copy:
    """One namespace's beliefs as of the write that took ``token``: the first ``count`` rows."""

    token: str | None
    rows: Rows
    count: int

    @classmethod
    def of(cls, token: str | None, beliefs: Sequence[Held], matrix: Matrix) -> Copy:
        """A copy holding exactly these beliefs (oldest first)."""
        return cls(token, Rows(beliefs, matrix), len(beliefs))

    @property
    def dimensions(self) -> int:
        """The vectors' length."""
        return int(self.rows.matrix.shape[1])


@dataclass(frozen=True)
class Ranked:
    """Beliefs of some namespaces ordered by cosine to one vector, nearest first."""

    ids: list[str]
    scores: list[float]
    #: whether every belief there is was ranked (reading more would find nothing new)
    complete: bool


class VectorCache:
    """Namespace name -> :class:`Copy`, bounded by ``capacity`` vectors; thread-safe."""

    def __init__(self, capacity: int) -> None:
        if capacity > 0:
            _one_blas_thread()
        self.capacity = capacity
        self._copies: OrderedDict[str, Copy] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def fits(self, count: int) -> bool:
        """Whether a namespace of ``count`` beliefs may be copied at all (never, at capacity 0)."""
        return self.capacity > 0 and count <= self.capacity

    def get(self, names: Sequence[str]) -> dict[str, Copy]:
        """The copies held for these namespaces (missing ones are absent)."""
        with self._lock:
            found = {}
            for name in names:
                copy = self._copies.get(name)
                if copy is not None:
                    self._copies.move_to_end(name)
                    found[name] = copy
            return found

    @staticmethod
    def in_sync(
        copies: Mapping[str, Copy], locked: Mapping[str, tuple[str | None, int]]
    ) -> set[str]:
        """The namespaces whose copy matches what the lock returned.

        Args:
            copies: as :meth:`get` returned them, before the lock.
            locked: name -> (the token the lock replaced, belief count).
        """
        return {
            name
            for name, (token, count) in locked.items()
            if (copy := copies.get(name)) is not None
            and token is not None
            and copy.token == token
            and copy.count == count
        }

    def put(self, name: str, copy: Copy) -> None:
        """Hold ``copy`` for ``name`` (replacing any), evicting the least recently used."""
        if not self.fits(copy.count):
            self.forget([name])
            return
        with self._lock:
            old = self._copies.pop(name, None)
            self._held -= old.count if old else 0
            self._copies[name] = copy
            self._held += copy.count
            while self._held > self.capacity:
                _, evicted = self._copies.popitem(last=False)
                self._held -= evicted.count

    def extend(
        self, name: str, copy: Copy, token: str, added: Sequence[Held], matrix: Matrix
    ) -> None:
        """Hold ``copy`` grown by the beliefs the write that took ``token`` wrote.

        Rows are appended in place when ``copy`` is the newest of its rows; a copy that
        something else already grew (a write that then rolled back) is copied first.
        """
        with self._lock:
            rows = copy.rows
            if rows.length != copy.count:
                old = rows
                rows = Rows(old.beliefs[: copy.count], old.matrix[: copy.count])
                rows.live[: copy.count] = old.live[: copy.count]
            if added:
                rows.append(added, matrix)
        self.put(name, Copy(token, rows, copy.count + len(added)))

    def forget(self, names: Sequence[str]) -> None:
        """Drop these namespaces' copies."""
        with self._lock:
            for name in names:
                old = self._copies.pop(name, None)
                self._held -= old.count if old else 0


def rank(copies: Sequence[Copy], vectors: Matrix, user: str | None, limit: int) -> list[Ranked]:
    """For each row of ``vectors``, the ``limit`` nearest beliefs of ``copies`` by cosine,
    among those of ``user`` (``None``: the shared ones), as the gate compares only those.

    A belief held by several of the copies (it lives in several namespaces) counts once.
    Vectors are unit length, so a dot product is the cosine.
    """
    blocks: list[Matrix] = []
    segments: list[tuple[Rows, list[int] | None]] = []
    for copy in copies:
        mine = copy.rows.owned(user, copy.count)
        if mine is not None and not mine:
            continue
        scores = vectors @ copy.rows.matrix[: copy.count].T
        block = scores if mine is None else scores[:, mine]
        live = copy.rows.live[: copy.count]
        dead = ~(live if mine is None else live[mine])
        if dead.any():  # known no longer live: never proposed
            block[:, dead] = -np.inf
        blocks.append(block)
        segments.append((copy.rows, mine))
    if not blocks:
        return [Ranked([], [], True) for _ in range(len(vectors))]
    scores = blocks[0] if len(blocks) == 1 else np.concatenate(blocks, axis=1)
    starts = np.cumsum([0] + [b.shape[1] for b in blocks[:-1]]).tolist()

    def belief(j: int) -> str:
        s = bisect.bisect_right(starts, j) - 1
        rows, mine = segments[s]
        local = j - starts[s]
        return str(rows.beliefs[local if mine is None else mine[local]].id)

    width = scores.shape[1]
    take = min(width, limit * len(blocks))  # enough to find `limit` distinct beliefs
    if take < width:
        tops = np.argpartition(-scores, take - 1, axis=1)[:, :take]
    else:
        tops = np.broadcast_to(np.arange(width), (len(scores), width))
    results = []
    for row, top in zip(scores, tops, strict=True):
        named = [(-float(row[j]), belief(j)) for j in top.tolist() if row[j] != -np.inf]
        named.sort()
        seen: set[str] = set()
        ids: list[str] = []
        values: list[float] = []
        for negative, belief_id in named:
            if belief_id not in seen:
                seen.add(belief_id)
                ids.append(belief_id)
                values.append(-negative)
                if len(ids) == limit:
                    break
        everything = take == width and all(b in seen for _, b in named)
        results.append(Ranked(ids, values, everything))
    return results


def related(
    copies: Sequence[Copy],
    vector: Matrix,
    user: str | None,
    subjects: frozenset[str],
    limit: int,
    floor: float = -math.inf,
) -> list[tuple[str, float]]:
    """The beliefs of ``user`` sharing a subject with an incoming one, with their cosine to
    its ``vector``: of each copy, the newest ``limit`` at least ``floor`` close (the others
    are not counted), each belief once."""
    if not subjects:
        return []
    found: dict[str, float] = {}
    for copy in copies:
        rows = copy.rows.about(subjects, user, copy.count)
        if not rows:
            continue
        scores = (copy.rows.matrix[rows] @ vector).tolist()
        close = [(j, float(x)) for j, x in zip(rows, scores, strict=True) if x >= floor]
        for j, score in close[:limit]:
            found[copy.rows.beliefs[j].id] = score
    return list(found.items())

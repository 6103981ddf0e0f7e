"""The gate's in-process copy of each namespace's belief vectors, for exact neighbour search.

Neo4j 5.26's vector index cannot filter by namespace, and reading stored vectors back to
score them in Cypher costs per belief read (bench/results/design-notes.md), which made the
gate's exact scan of a namespace slow. But a belief's embedding never
changes once written (a change of text is a new belief that supersedes it), and a belief
never leaves its namespaces. So the gate keeps, per namespace, the ids and vectors it has
already seen, with what the classifier compares of them that does not change either (text,
kind, trust, names; the compat router's in-place replace, which changes them, makes the
copies reload: see below), and ranks an incoming belief against them with one matrix product;
Neo4j then reads only the few nearest: which are still live (a status changes) and what
they are about (an entity gains aliases from other writes in the namespace).

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

**Large copies are ranked through int8 codes first.** One query against tens of thousands
of float32 vectors streams their whole memory; each row is also kept as int8 codes with its
own scale (a quarter of the bytes), which onnxruntime's integer kernel scores several times
faster (bench/results/design-notes.md). The estimate is never the answer: from the bound on its
error (the rows' and the query's rounding, :func:`_error_bound`), every row that could be
among the nearest is rescored exactly in float32, so the ranking is the exact one. Copies
under :data:`CODED_FROM` rows, and batches of more than :data:`CODED_VECTORS` vectors (an
import's), are scored exactly directly.

**Memory.** At most ``capacity`` vectors (float32, 1.5 kB each, and their 384-byte codes,
beside the belief's text) are held, whole namespaces at a time, least recently used first
out; a namespace's matrix grows by doubling, so what is allocated can be up to twice that; a
namespace larger than the capacity is never copied (the gate uses the vector index for it).
Rows are appended in place, so keeping a copy in step with a write costs the new rows, not
the namespace.
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

from beliefgraph.embeddings import unpacked
from beliefgraph.gate.classifier import BeliefView

Matrix = np.ndarray[Any, np.dtype[np.float32]]
Codes = np.ndarray[Any, np.dtype[np.uint8]]
Indexes = np.ndarray[Any, np.dtype[np.int64]]

#: copies of at least this many rows are ranked through their int8 codes first ...
CODED_FROM = 4096
#: ... for at most this many vectors at once: a few vectors' product is bound by reading the
#: matrix, which the codes shrink; a batch's (an import's 256) is bound by arithmetic, which
#: float32 BLAS does well, and rescoring each vector's doubtful rows would only add to it
CODED_VECTORS = 8
#: what the float32 arithmetic of an estimate may add to its bound
_ROUNDING = 1e-5

_BLAS: list[Any] = []  # the limit, once set
_SESSION: list[Any] = []  # the integer product's onnxruntime session, once built
_BLAS_LOCK = threading.Lock()  # guards both


def _one_blas_thread() -> None:
    """Make numpy's BLAS use one thread in this process, once.

    The gate's products are small; on a busy 2-core machine handing one to a second BLAS
    thread waits for that thread to be scheduled, which costs more than it saves
    (bench/results/design-notes.md). Set
    once for the process rather than around each product: threadpoolctl's limit is
    process-wide, and concurrent set-and-restore could leave it at either value.
    """
    with _BLAS_LOCK:
        if not _BLAS:
            _BLAS.append(ThreadpoolController().limit(limits=1, user_api="blas"))


def as_matrix(vectors: Sequence[bytes | Sequence[float]], dimensions: int) -> Matrix:
    """Vectors (lists, or ``embedding_f32`` bytes: :func:`~beliefgraph.embeddings.unpacked`)
    as a float32 matrix, one row each (an empty one has ``dimensions`` columns)."""
    if not vectors:
        return np.zeros((0, dimensions), dtype=np.float32)
    return unpacked(vectors)


def _integer_product() -> Any:
    """An onnxruntime session computing ``A @ B`` for uint8 ``A`` and int8 ``B`` (int32).

    Its u8s8 kernel is the fastest of the products tried; two threads, no spinning, so Neo4j
    keeps its core while the gate waits on it (bench/results/design-notes.md).
    """
    with _BLAS_LOCK:
        if not _SESSION:
            import onnxruntime
            from onnx import TensorProto, helper

            graph = helper.make_graph(
                [helper.make_node("MatMulInteger", ["A", "B"], ["Y"])],
                "codes",
                [
                    helper.make_tensor_value_info("A", TensorProto.UINT8, ["rows", "dims"]),
                    helper.make_tensor_value_info("B", TensorProto.INT8, ["dims", "queries"]),
                ],
                [helper.make_tensor_value_info("Y", TensorProto.INT32, ["rows", "queries"])],
            )
            model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
            model.ir_version = 8
            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = 2
            options.inter_op_num_threads = 1
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            _SESSION.append(
                onnxruntime.InferenceSession(
                    model.SerializeToString(), options, providers=["CPUExecutionProvider"]
                )
            )
        return _SESSION[0]


def _quantise(matrix: Matrix) -> tuple[np.ndarray[Any, np.dtype[np.int8]], Matrix, Matrix]:
    """Rows as int8 codes, their scales, and each row's rounding error.

    Row ``x`` is ``scale * code`` within ``error`` (Euclidean); each row's scale maps its
    largest component to 127.
    """
    peak = np.abs(matrix).max(axis=1) if len(matrix) else np.zeros(0, np.float32)
    scales = np.where(peak > 0, peak / 127, 1).astype(np.float32)
    signed = np.rint(matrix / scales[:, None])
    errors = np.linalg.norm(matrix - signed * scales[:, None], axis=1).astype(np.float32)
    return signed.astype(np.int8), scales, errors


def encode(matrix: Matrix) -> tuple[Codes, Matrix, float]:
    """Rows as int8 codes offset by 128 (uint8, as the integer kernel reads them), their
    scales, and the largest rounding error (:func:`_quantise`)."""
    signed, scales, errors = _quantise(matrix)
    codes = (signed.astype(np.int16) + 128).astype(np.uint8)
    return codes, scales, float(errors.max()) if len(errors) else 0.0


def _error_bound(rows_error: float, vectors: Matrix, vector_error: Matrix) -> Matrix:
    """How far an estimate can be from the cosine, for each query.

    With ``x' = x + e`` (``|e| <= rows_error``) and ``q' = q + d``: ``|x.q - x'.q'| <=
    |e| |q| + |x'| |d|``, and ``|x'| <= |x| + |e|`` with unit ``x``.
    """
    norms: Matrix = np.linalg.norm(vectors, axis=1)
    bound: Matrix = (rows_error * norms + (1 + rows_error) * vector_error + _ROUNDING).astype(
        np.float32
    )
    return bound


def _estimate(rows: Rows, count: int, vectors: Matrix) -> tuple[Matrix, Matrix]:
    """Estimated cosines of ``vectors`` (one row each) to the first ``count`` rows, one row
    of estimates per vector, and each vector's bound on the estimates' error."""
    signed, scales, vector_error = _quantise(vectors)
    product = _integer_product().run(
        None, {"A": rows.codes[:count], "B": np.ascontiguousarray(signed.T)}
    )[0]
    # the codes carry +128: take it back out, then scale by both sides
    product = product - 128 * signed.astype(np.int32).sum(axis=1)
    estimates = product.T.astype(np.float32) * rows.scales[:count] * scales[:, None]
    return estimates, _error_bound(rows.error, vectors, vector_error)


@dataclass(frozen=True)
class Held:
    """What a copy keeps of a belief besides its vector. None of it changes but through the
    compat router's in-place replace, which makes the copies reload (see above).

    ``subjects`` are the keys of what it is about: ``e:<entity key>`` for each entity and
    ``c:<canonical name>``; beliefs sharing one may contradict each other at any similarity.
    ``view`` is what the classifier compares of it (text, kind, trust, names, namespaces)
    without its entities, whose aliases other writes extend: the gate reads those, and
    which of the beliefs are still live, and takes the rest from here.
    """

    id: str
    user: str | None
    subjects: frozenset[str] = frozenset()
    view: BeliefView | None = None


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
        #: (user, subject) -> rows, oldest first
        self.by_subject: dict[tuple[str | None, str], list[int]] = {}
        self.matrix = np.zeros((0, matrix.shape[1]), np.float32)
        #: each row as int8 codes + 128, its scale, and the largest rounding error (encode)
        self.codes = np.zeros((0, matrix.shape[1]), np.uint8)
        self.scales = np.zeros(0, np.float32)
        self.error = 0.0
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
            codes = np.zeros(grown.shape, np.uint8)
            codes[: self.length] = self.codes[: self.length]
            self.codes = codes
            scales = np.ones(len(grown), np.float32)
            scales[: self.length] = self.scales[: self.length]
            self.scales = scales
        self.matrix[self.length : end] = matrix
        codes, scales, error = encode(matrix)
        self.codes[self.length : end] = codes
        self.scales[self.length : end] = scales
        self.error = max(self.error, error)
        for j, belief in enumerate(beliefs, start=self.length):
            self.beliefs.append(belief)
            self.index[belief.id] = j
            self.by_user.setdefault(belief.user, []).append(j)
            for subject in belief.subjects:
                self.by_subject.setdefault((belief.user, subject), []).append(j)
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

    def about(self, subjects: frozenset[str], user: str | None, count: int) -> Indexes:
        """The live rows among the first ``count`` of ``user`` sharing a subject, newest first."""
        found = [
            np.asarray(rows[: bisect.bisect_left(rows, count)], dtype=np.int64)
            for subject in subjects
            if (rows := self.by_subject.get((user, subject)))
        ]
        if not found:
            return np.zeros(0, np.int64)
        mine = np.unique(np.concatenate(found))
        return mine[self.live[mine]][::-1]


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
    #: whether every belief there is was ranked, or every one at or above the ranking's floor
    #: (reading more would find nothing new that matters)
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


def rank(
    copies: Sequence[Copy],
    vectors: Matrix,
    user: str | None,
    limit: int,
    floors: Sequence[float] | None = None,
) -> list[Ranked]:
    """For each row of ``vectors``, the ``limit`` nearest beliefs of ``copies`` by cosine,
    among those of ``user`` (``None``: the shared ones), as the gate compares only those.

    A belief held by several of the copies (it lives in several namespaces) counts once.
    Vectors are unit length, so a dot product is the cosine. Copies of :data:`CODED_FROM`
    rows or more are estimated from their codes, and whatever could be among the nearest
    within the estimate's error bound is rescored exactly: the result is exact either way.

    With ``floors`` (one cosine per vector), only beliefs at least that close are ranked, and
    the ranking is complete when it holds every one of them: nothing further down could
    matter. When those beliefs are few (at most ``limit`` per copy), they are found by one
    comparison of their scores, without ordering the rest (faster for an import's batch:
    bench/results/design-notes.md).
    """
    blocks: list[Matrix] = []
    segments: list[tuple[Rows, list[int] | None, bool]] = []
    bound = np.zeros(len(vectors), np.float32)
    for copy in copies:
        mine = copy.rows.owned(user, copy.count)
        if mine is not None and not mine:
            continue
        coded = copy.count >= CODED_FROM and len(vectors) <= CODED_VECTORS
        if coded:
            scores, error = _estimate(copy.rows, copy.count, vectors)
            bound = np.maximum(bound, error)
        else:
            scores = vectors @ copy.rows.matrix[: copy.count].T
        block = scores if mine is None else scores[:, mine]
        live = copy.rows.live[: copy.count]
        dead = ~(live if mine is None else live[mine])
        if dead.any():  # known no longer live: never proposed
            block[:, dead] = -np.inf
        blocks.append(block)
        segments.append((copy.rows, mine, coded))
    if not blocks:
        return [Ranked([], [], True) for _ in range(len(vectors))]
    scores = blocks[0] if len(blocks) == 1 else np.concatenate(blocks, axis=1)
    starts = np.cumsum([0] + [b.shape[1] for b in blocks[:-1]]).tolist()

    width = scores.shape[1]
    take = min(width, limit * len(blocks))  # enough to find `limit` distinct beliefs
    results = []
    cut = [-math.inf] * len(vectors) if floors is None else list(floors)
    for vector, row, slack, floor in zip(vectors, scores, bound.tolist(), cut, strict=True):
        # every belief that could be at the floor or above, when they are few: no ordering
        # of the rest is needed (within twice the bound, for an estimate)
        columns = np.flatnonzero(row >= floor - 2 * slack) if floor > -math.inf else None
        within = columns is not None and len(columns) <= take
        # the rows left out are all less close than this (an estimate's error is the bound)
        reach = -math.inf
        if not within:
            if take < width:
                # the take-th best estimate: anything within twice the bound of it may beat it
                kth = np.partition(row, width - take)[width - take]
                columns = np.flatnonzero((row >= kth - 2 * slack) & (row != -np.inf))
                reach = float(kth) - slack
            else:
                columns = np.flatnonzero(row != -np.inf)
        assert columns is not None
        values = row[columns].astype(np.float64)
        located = np.searchsorted(starts, columns, side="right") - 1
        ids = []
        for s, (rows, mine, coded) in enumerate(segments):
            at = np.flatnonzero(located == s)
            local = (columns[at] - starts[s]).tolist()
            where = local if mine is None else [mine[j] for j in local]
            if coded and where:  # estimated: rescored exactly
                values[at] = rows.matrix[where] @ vector
            ids += [(n, rows.beliefs[r].id) for n, r in zip(at.tolist(), where, strict=True)]
        named = sorted((-float(values[n]), belief_id) for n, belief_id in ids)
        seen: set[str] = set()
        nearest: list[str] = []
        cosines: list[float] = []
        exhausted, below = True, False
        for negative, belief_id in named:
            if -negative < floor:
                below = True  # and so is everything after it
                break
            if belief_id in seen:
                continue
            if len(nearest) == limit:
                exhausted = False
                break
            seen.add(belief_id)
            nearest.append(belief_id)
            cosines.append(-negative)
        # reaching below the floor shows nothing further matters only if the rows left out
        # are below it too (an estimated one may be closer than a rescored one that was kept)
        below = below and floor >= reach
        results.append(Ranked(nearest, cosines, exhausted and (within or below or take == width)))
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
        if not len(rows):
            continue
        scores = copy.rows.matrix[rows] @ vector
        close = np.flatnonzero(scores >= floor)[:limit]
        for j, score in zip(rows[close].tolist(), scores[close].tolist(), strict=True):
            found[copy.rows.beliefs[j].id] = score
    return list(found.items())

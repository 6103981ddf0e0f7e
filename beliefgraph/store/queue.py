"""Writers of one process to the same namespaces take turns before their transaction
(:class:`NamespaceQueue`).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from beliefgraph.db import UNREACHABLE, Unreachable
from beliefgraph.errors import (
    StoreUnavailable,
)
from beliefgraph.models import (
    GateDecision,
)

#: how long after a write found Neo4j away the writers queued behind it fail without trying
FAIL_FAST_SECONDS = 2.0


@dataclass(eq=False)
class _Write:
    """One caller's rows waiting to be written together with others (NamespaceQueue)."""

    rows: list[dict[str, Any]]
    done: threading.Event = dataclass_field(default_factory=threading.Event)
    #: in a batch already: a writer leading the queue runs it
    taken: bool = False
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
    """Writers of one process to the same namespaces take turns before their transaction;
    those of one caller that wait together go in as one (one of them leads, the others wait
    for its batch).

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
        #: signalled when a leader has run a batch or stepped down
        self._ready = threading.Condition(self._guard)
        self._locks: dict[str, threading.Lock] = {}
        self._failed_at = -math.inf
        self._waiting: dict[Hashable, list[_Write]] = {}
        #: the keys whose writes a writer is leading into their transactions now
        self._leading: set[Hashable] = set()

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
        deadline = time.monotonic() + self.timeout
        with self._ready:
            self._waiting.setdefault(key, []).append(job)
            # One writer of the key leads at a time; the others wait here, not in the
            # namespace locks, where each would have to take its turn only to find its
            # write already done (a convoy of empty turns behind every batch).
            while key in self._leading and not job.taken:
                remaining = deadline - time.monotonic()
                if (remaining <= 0 or not self._ready.wait(remaining)) and not job.taken:
                    self._withdraw(key, job)  # never taken: not written, and never will be
                    raise StoreUnavailable("the namespace is busy with other writes; try again")
            leading = not job.taken
            if leading:
                self._leading.add(key)
        if leading:
            try:
                self._lead(key, namespaces, job, run)
            finally:
                with self._ready:
                    self._leading.discard(key)
                    self._ready.notify_all()
        # Taken into a batch, the write is Neo4j's now: it waits for its batch, however long
        # that runs (the run is bounded by the driver's timeouts, and always ends with every
        # write of the batch answered): a 503 before then could leave it stored, unanswered.
        job.done.wait()
        if job.error is not None:
            raise job.error
        assert job.decisions is not None
        return job.decisions

    def _lead(
        self,
        key: Hashable,
        namespaces: Iterable[str],
        job: _Write,
        run: Callable[[list[dict[str, Any]]], list[GateDecision]],
    ) -> None:
        """Take the namespaces' turn and run what waits under ``key``, batch by batch, until
        ``job`` has been run.

        Raises:
            StoreUnavailable: the turn never came (``job`` is then withdrawn, not written).
        """
        while not job.taken:
            try:
                with self.turn(namespaces):
                    with self._guard:
                        batch = self._take(key)
                    _run_together(batch, run)
                    if any(isinstance(j.error, Unreachable) for j in batch):
                        self._failed_at = time.monotonic()  # those queued behind fail at once
            except StoreUnavailable:
                with self._guard:
                    self._withdraw(key, job)  # never taken: not written, and never will be
                raise
            with self._ready:
                self._ready.notify_all()  # the writers whose writes were in the batch

    def _withdraw(self, key: Hashable, job: _Write) -> None:
        """Take ``job`` out of the writes waiting under ``key`` (the guard held)."""
        waiting = self._waiting.get(key, [])
        if job in waiting:
            waiting.remove(job)
        if not waiting:
            self._waiting.pop(key, None)

    def _take(self, key: Hashable) -> list[_Write]:
        """The writes waiting under ``key``, oldest first, up to ``most_rows`` rows."""
        waiting = self._waiting.get(key, [])
        batch: list[_Write] = []
        size = 0
        while waiting and (not batch or size + len(waiting[0].rows) <= self.most_rows):
            size += len(waiting[0].rows)
            batch.append(waiting.pop(0))
            batch[-1].taken = True
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

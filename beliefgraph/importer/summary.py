"""An import's ids, options, summary and progress, and the batches it plans."""

from __future__ import annotations

import bisect
import hashlib
import math
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import IO, Any, Protocol

from beliefgraph.importer.input import TIMELINE_KEPT, LogFormat, Reject, Turn
from beliefgraph.importer.statements import Statement

# -- ids -----------------------------------------------------------------------------------


def id_digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


def conversation_node_id(namespace: str, conversation_id: str) -> str:
    """The ``Conversation`` node id: per namespace, so two namespaces never share one."""
    return "conv-" + id_digest(namespace, conversation_id)


def turn_node_id(namespace: str, turn: Turn) -> str:
    """The ``Turn`` node id."""
    return "turn-" + id_digest(namespace, turn.conversation_id, turn.key)


def statement_key(namespace: str, turn: Turn, text: str) -> str:
    """The deterministic id of a statement's belief (and its ``ASSERTED`` key)."""
    return "imp-" + id_digest(namespace, turn.conversation_id, turn.key, text)


# -- the import ----------------------------------------------------------------------------


@dataclass
class ImportOptions:
    """How to import one log."""

    namespace: str
    format: LogFormat = LogFormat.auto
    #: the user the beliefs belong to (what ``/v1/context`` reads for that user)
    user: str | None = None
    dry_run: bool = False
    #: write broken records to the reject sink and go on, instead of stopping
    skip_invalid: bool = False
    #: ignore the source's checkpoint and read every record (the result is the same)
    restart: bool = False
    #: statements per write batch (one embedding call, one checkpoint)
    batch_size: int = 256
    #: records per batch at most, so a log with few statements still checkpoints often
    max_batch_records: int = 2000


@dataclass
class ImportSummary:
    """What an import did. ``already`` counts statements an earlier run had written.

    For the records before the checkpoint (``resumed_at``), which are not extracted again,
    ``statements`` and ``already`` count what the graph holds of their turns: a statement too
    long to store, or said twice in one turn, counts as it was written (not at all, once).
    ``user_turns`` counts the turns with the user's words, so that a log whose user said
    nothing to keep reads as that (``statements`` 0 of ``user_turns`` N), not as lost.
    """

    source: str
    namespace: str
    format: str = ""
    records: int = 0
    turns: int = 0
    user_turns: int = 0
    conversations: int = 0
    statements: int = 0
    added: int = 0
    noop: int = 0
    superseded: int = 0
    contested: int = 0
    already: int = 0
    too_long: int = 0
    rejects: int = 0
    batches: int = 0
    resumed_at: int = 0
    seconds: float = 0.0
    dry_run: bool = False

    def as_dict(self) -> dict[str, Any]:
        """The summary as plain JSON-able data."""
        return asdict(self)


class Progress(Protocol):
    """Told how an import goes, after every record and at the end."""

    def update(self, summary: ImportSummary, bytes_read: int, total_bytes: int | None) -> None:
        """Called often; implementations decide how often to show anything."""
        ...

    def close(self, summary: ImportSummary) -> None:
        """Called once when the import ends, however it ends."""
        ...


class TerminalProgress:
    """A one-line progress bar on a terminal: turns/s, beliefs/s, percent and ETA."""

    def __init__(self, stream: IO[str] | None = None, *, every: float = 0.25) -> None:
        self.stream = stream or sys.stderr
        self.every = every
        self.started = time.monotonic()
        self._shown = 0.0
        self._width = 0

    def update(self, summary: ImportSummary, bytes_read: int, total_bytes: int | None) -> None:
        """Redraw the line at most every ``every`` seconds."""
        now = time.monotonic()
        if now - self._shown < self.every:
            return
        self._shown = now
        self._draw(summary, bytes_read, total_bytes, now)

    def _draw(
        self, summary: ImportSummary, bytes_read: int, total_bytes: int | None, now: float
    ) -> None:
        elapsed = max(now - self.started, 1e-6)
        line = (
            f"{summary.turns:,} turns  {summary.turns / elapsed:,.0f} turns/s  "
            f"{summary.added:,} beliefs  {summary.added / elapsed:,.1f} beliefs/s"
        )
        if total_bytes:
            done = min(bytes_read / total_bytes, 1.0)
            eta = elapsed * (1 - done) / done if done > 0 else 0.0
            bar = "#" * int(done * 20)
            where = f"{bytes_read / 1e6:,.1f}/{total_bytes / 1e6:,.1f} MB"
            line = f"[{bar:<20}] {done:4.0%} {where}  " + line + f"  ETA {_clock(eta)}"
        self._width = max(self._width, len(line))
        self.stream.write("\r" + line.ljust(self._width))
        self.stream.flush()

    def close(self, summary: ImportSummary) -> None:
        """End the line so the summary prints below it."""
        if self._width:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


@dataclass
class Planned:
    """A statement on its way to the store, with what its provenance needs: the statement
    it explains, and its neighbours in its conversation's time (:class:`Timeline`)."""

    key: str
    turn: Turn
    statement: Statement
    #: its place among its turn's statements (kept on ``ASSERTED``: see Importer._recall)
    order: int
    caused_key: str | None
    follows_key: str | None
    #: a statement read before this one but said after it (the log is out of time order)
    followed_by: str | None = None
    #: when it was said: its turn's time, else the time of the turn before it (a null
    #: ``create_time`` must not make a belief the newest)
    said_at: datetime | None = None


class Timeline:
    """The statements of each conversation in the order they were said, for ``FOLLOWS``.

    Ordered by the turn's ``ts``; a turn without one takes the time of the turn before it
    in the file, and ties keep the order of the file. A statement read after one said later
    goes in between its neighbours in time: it follows the earlier, and the later follows
    it; the edge between the two neighbours stays. The latest :data:`TIMELINE_KEPT`
    statements in time of each conversation are kept: one said before all of them is
    followed by the earliest kept, and follows none.
    """

    def __init__(self) -> None:
        self._times: dict[str, list[tuple[float, int]]] = {}
        self._keys: dict[str, list[str]] = {}
        self._last: dict[str, float] = {}  # conversation -> its previous turn's time
        self._read = 0

    def when(self, turn: Turn) -> float:
        """The time ``turn`` takes in its conversation (called for every turn, in order)."""
        if turn.ts is not None:
            when = turn.ts.timestamp()
        else:
            when = self._last.get(turn.conversation_id, -math.inf)
        self._last[turn.conversation_id] = when
        return when

    def place(self, conversation: str, when: float, key: str) -> tuple[str | None, str | None]:
        """Put a statement said at ``when`` in its conversation's order; return the
        statements just before and just after it in time (``None`` when there is none)."""
        times = self._times.setdefault(conversation, [])
        keys = self._keys.setdefault(conversation, [])
        self._read += 1
        at = bisect.bisect_right(times, (when, self._read))
        times.insert(at, (when, self._read))
        keys.insert(at, key)
        placed = (keys[at - 1] if at else None), (keys[at + 1] if at + 1 < len(keys) else None)
        if len(keys) > TIMELINE_KEPT:
            del times[0], keys[0]
        return placed


@dataclass
class Batch:
    planned: list[Planned] = field(default_factory=list)
    records: int = 0
    last_record: int = 0  # ordinal (1-based) of the batch's last record
    completed: bool = False  # the last batch of the log
    skipped: int | None = None  # the run's first record skipped as invalid, up to this batch


@dataclass
class Prepared:
    """A batch made ready to commit: what is left to write, embedded (no writes yet)."""

    batch: Batch
    todo: list[Planned]
    done: dict[str, str]  # statement key -> belief, for statements an earlier run wrote
    rows: list[dict[str, Any]]  # prepared belief rows, in the order of ``row_keys``
    row_keys: list[str]


RejectSink = Callable[[str, Reject], None]

"""Bulk import of conversation logs: extraction, batches, checkpoints (DESIGN §6).

The readers of each format are :mod:`beliefgraph.importer.formats`.

Each record is extracted (:mod:`beliefgraph.importer.extract`) and the statements are
written in batches through the store's create path with ``write_path=import``, so whatever
the store does on a write (the curation gate, the audit log) applies to imports too.

Idempotent and resumable:

* every id is a hash of the namespace, the conversation id, the turn (its id; else, in a
  JSONL log, what it says and how often its conversation said it before, see
  :func:`~beliefgraph.importer.formats.read_jsonl`; else its index in its record) and the
  statement's text, so a rerun computes the same ids;
* a statement counts as done once its turn's ``ASSERTED`` edge (carrying the statement's
  key) exists; done statements are never written again, so importing the same log twice
  writes nothing;
* after each batch, a checkpoint on the log's ``Source`` node records how many records are
  fully in. A rerun reads the records before it again, to rebuild the per-conversation order
  in time that ``FOLLOWS`` needs, but writes none of them, and extracts them only to order
  what an older version wrote: their statements are read back from the graph
  (:meth:`Importer._recall`), so a model's extraction is not asked again, and what follows
  is linked to what was written. (With ``skip_invalid``, the records from the first one
  skipped on are read as new: a skipped record may be mended.)

Each batch is one transaction: the beliefs through :meth:`Store.create_in` (the store's
create path, curation gate and audit included; the embedding is done before, by
:meth:`Store.prepare`), their provenance (``Conversation``, ``Turn``, ``ASSERTED``,
``FOLLOWS``, ``CAUSED``) and the checkpoint. A batch is therefore in whole or not at all: a
``kill -9`` loses at most the batch in flight, which the rerun writes as the first run
would have — with the same gate verdicts, since batches are cut at the same records, and the
same vectors though the rerun remembers none from before the kill (a text's vector does not
depend on the texts embedded with it: ``tests/integration/test_embeddings.py``).

>>> summary = import_logs(store, Path("conversations.json"),   # doctest: +SKIP
...                       ImportOptions(namespace="user:me"))
>>> summary.added                                                # doctest: +SKIP
42
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
import time
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, BinaryIO

from neo4j import ManagedTransaction

from beliefgraph.access import Caller
from beliefgraph.embeddings import Remembering
from beliefgraph.errors import InvalidInput, MalformedRecord
from beliefgraph.importer.detect import detect_format
from beliefgraph.importer.extract import RuleExtractor
from beliefgraph.importer.formats import READERS
from beliefgraph.importer.input import (
    EMBEDDINGS_REMEMBERED,
    RECALLED_TURNS,
    TURN_TEXT_CHARS,
    LogFormat,
    LogInput,
    Reject,
    Turn,
    open_log,
)
from beliefgraph.importer.statements import USER_ROLES, Extractor, Replies, Statement
from beliefgraph.importer.summary import (
    Batch,
    ImportOptions,
    ImportSummary,
    Planned,
    Prepared,
    Progress,
    RejectSink,
    Timeline,
    conversation_node_id,
    id_digest,
    statement_key,
    turn_node_id,
)
from beliefgraph.models import (
    NAMESPACE_PATTERN,
    BeliefCreate,
    GateDecision,
    WritePath,
)
from beliefgraph.store import Store


class Importer:
    """Runs one import; see :func:`import_logs`.

    Batches move through two stages: *prepare* (which statements are new, and embedding
    them: reads and CPU only) and *commit* (one write transaction: the beliefs through the
    store's gate, their provenance and the checkpoint). A worker thread prepares batch N+1
    while batch N commits; commits stay strictly in order, so the gate sees every batch
    after the ones before it, as in a run without the overlap.
    """

    def __init__(
        self,
        store: Store,
        options: ImportOptions,
        *,
        extractor: Extractor | None = None,
        progress: Progress | None = None,
        on_reject: RejectSink | None = None,
        cancel: threading.Event | None = None,
        caller: Caller | None = None,
    ) -> None:
        if not re.fullmatch(NAMESPACE_PATTERN, options.namespace):
            raise InvalidInput(
                f"namespace {options.namespace!r} does not match {NAMESPACE_PATTERN}",
                field="namespace",
            )
        self.store = store
        self.options = options
        self.extractor = extractor or RuleExtractor()
        self.progress = progress
        self.on_reject = on_reject
        self._reading = ""  # the log being read, as rejects name it
        self.cancel = cancel
        self.caller = caller
        #: whom the audit names as writing: the API key's name, or the command line's import
        self.actor = caller.name if caller is not None else "import"
        self.limit = store.settings.max_text_length
        self.batch_size = max(1, min(options.batch_size, store.settings.max_batch_size))
        self._pool: ThreadPoolExecutor | None = None
        self._pending: Future[Prepared] | None = None
        self._source: dict[str, str] = {}
        #: a statement repeated in the log is embedded once (while remembered)
        self.embedder = Remembering(store.embedder, capacity=EMBEDDINGS_REMEMBERED)

    def run(self, source: Path | str | BinaryIO, *, name: str | None = None) -> ImportSummary:
        """Import one log; return its summary.

        Raises:
            UnknownFormat: ``auto`` could not tell the format.
            MalformedRecord: a record is broken and ``skip_invalid`` is off; every record
                before it is committed.
        """
        started = time.monotonic()
        log = open_log(source, name=name)
        summary = ImportSummary(source=log.name, namespace=self.options.namespace)
        summary.dry_run = self.options.dry_run
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="import-prepare")
        try:
            fmt = self.options.format
            if fmt is LogFormat.auto:
                fmt = detect_format(log.head, log.name)
            summary.format = fmt.value
            self._run(log, fmt, summary)
        finally:
            if self._pending is not None:  # an error left a prepared batch: drop it
                self._pending.cancel()
                self._pending = None
            self._pool.shutdown(wait=True)
            summary.seconds = round(time.monotonic() - started, 3)
            log.close()
            if self.progress is not None:
                self.progress.close(summary)
        return summary

    def _run(self, log: LogInput, fmt: LogFormat, summary: ImportSummary) -> None:
        ns = self.options.namespace
        source_key = "src-" + id_digest(ns, fmt.value, hashlib.sha256(log.head).hexdigest())
        done_before = 0
        if not self.options.restart:
            found = self.store.db.run_read("import_checkpoint_get", key=source_key)
            if found:
                done_before = max(int(found[0]["records_done"]), 0)
                # a record skipped as invalid may be mended since: read again from there
                if found[0]["skipped"] is not None:
                    done_before = min(done_before, int(found[0]["skipped"]) - 1)
        summary.resumed_at = done_before
        self._source = {"key": source_key, "namespace": ns, "name": log.name, "format": fmt.value}
        timeline = Timeline()
        replies = Replies()
        # turns an earlier run wrote, not yet placed: each with its time and what it answers
        recalled: list[tuple[Turn, float, str | None]] = []
        seen_conversations: set[str] = set()
        batch = Batch()
        ordinal = 0
        skipped: int | None = None
        self._reading = log.name
        for item in READERS[fmt](log):
            ordinal += 1
            if isinstance(item, Reject):
                summary.rejects += 1
                if ordinal <= done_before:
                    continue
                if not self.options.skip_invalid or item.fatal:
                    self._submit(batch, summary)
                    self._drain(summary)
                    if self.options.skip_invalid and self.on_reject is not None:
                        self.on_reject(log.name, item)
                    raise MalformedRecord(log.name, item.line, item.reason)
                if self.on_reject is not None:
                    self.on_reject(log.name, item)
                if skipped is None:
                    skipped = ordinal
                batch.records += 1
                batch.last_record = ordinal
                batch.skipped = skipped
                continue
            summary.records += 1
            for turn in item.turns:
                summary.turns += 1
                summary.user_turns += turn.role.lower() in USER_ROLES and bool(turn.content.strip())
                seen_conversations.add(turn.conversation_id)
                replying_to = replies.answered(turn.conversation_id, turn.role, turn.content)
                if ordinal <= done_before:
                    recalled.append((turn, timeline.when(turn), replying_to))
                    if len(recalled) >= RECALLED_TURNS:
                        self._recall(recalled, timeline, summary)
                    continue
                if recalled:  # what was said before this turn takes its place first
                    self._recall(recalled, timeline, summary)
                batch.planned.extend(self._plan(turn, replying_to, timeline, summary))
            summary.conversations = len(seen_conversations)
            if ordinal > done_before:
                batch.records += 1
                batch.last_record = ordinal
                if len(batch.planned) >= self.batch_size or batch.records >= (
                    self.options.max_batch_records
                ):
                    self._submit(batch, summary)
                    batch = Batch(skipped=skipped)
                    if self.cancel is not None and self.cancel.is_set():
                        self._drain(summary)
                        return
            if self.progress is not None:
                self.progress.update(summary, log.bytes_read, log.size)
        self._recall(recalled, timeline, summary)
        batch.last_record = max(batch.last_record, ordinal)
        batch.completed = True
        self._submit(batch, summary)
        self._drain(summary)

    def _plan(
        self, turn: Turn, replying_to: str | None, timeline: Timeline, summary: ImportSummary
    ) -> list[Planned]:
        when = timeline.when(turn)
        statements = self._extract(turn, replying_to)
        ns = self.options.namespace
        keys = [statement_key(ns, turn, s.text) for s in statements]
        out = []
        for order, (statement, key) in enumerate(zip(statements, keys, strict=True)):
            summary.statements += 1
            if len(statement.text) > self.limit:
                # not stored, and not lost without a word: the rejects file has it, with
                # its line (the import goes on: the turn's other statements are fine)
                summary.too_long += 1
                if self.on_reject is not None:
                    reason = (
                        f"a statement of {len(statement.text)} characters is over the "
                        f"limit of {self.limit} (BELIEFGRAPH_MAX_TEXT_LENGTH); not stored"
                    )
                    self.on_reject(
                        self._reading, Reject(turn.line, reason, statement.text[:10_000])
                    )
                continue
            caused = keys[statement.caused] if statement.caused is not None else None
            before, after = timeline.place(turn.conversation_id, when, key)
            said_at = turn.ts or (
                datetime.fromtimestamp(when, UTC) if math.isfinite(when) else None
            )
            out.append(Planned(key, turn, statement, order, caused, before, after, said_at=said_at))
        return out

    def _recall(
        self,
        turns: list[tuple[Turn, float, str | None]],
        timeline: Timeline,
        summary: ImportSummary,
    ) -> None:
        """Place the statements an earlier run wrote for ``turns`` (each with its time) in
        their conversations' time, as the graph holds them (the turns' ``ASSERTED`` keys),
        and empty ``turns``.

        They are not extracted again: a model's extraction would cost its calls once more,
        and could answer differently, so that the statements after them would follow
        statements that were never written. Only a turn of several statements written
        before ``ASSERTED`` kept their order is extracted, to order them (by the statements
        the extractor finds now; one it no longer finds goes last).
        """
        if not turns:
            return
        ns = self.options.namespace
        ids = [turn_node_id(ns, turn) for turn, _, _ in turns]
        found = {
            r["turn"]: (r["keys"], r["ordered"])
            for r in self.store.db.read_rows("import_turn_keys", turns=list(dict.fromkeys(ids)))
        }
        for (turn, when, replying_to), turn_id in zip(turns, ids, strict=True):
            keys, ordered = found.get(turn_id, ([], True))
            if not ordered and len(keys) > 1:  # written before ASSERTED kept its order
                said = [statement_key(ns, turn, s.text) for s in self._extract(turn, replying_to)]
                keys = sorted(keys, key=lambda k: said.index(k) if k in said else len(said))
            for key in keys:
                summary.statements += 1
                summary.already += 1
                timeline.place(turn.conversation_id, when, key)
        turns.clear()

    def _extract(self, turn: Turn, replying_to: str | None) -> list[Statement]:
        """What the extractor finds in ``turn`` (answering ``replying_to``), in the order it
        was said."""
        return self.extractor.extract(turn.role, turn.content, replying_to)

    # -- the pipeline ----------------------------------------------------------------------

    def _submit(self, batch: Batch, summary: ImportSummary) -> None:
        """Start preparing ``batch``; commit the batch prepared before it meanwhile."""
        if batch.records == 0 and not batch.planned and not batch.completed:
            return
        assert self._pool is not None
        upcoming = self._pool.submit(self._prepare, batch)
        self._drain(summary)
        self._pending = upcoming

    def _drain(self, summary: ImportSummary) -> None:
        """Commit the prepared batch waiting, if any."""
        if self._pending is None:
            return
        prepared = self._pending.result()
        self._pending = None
        self._commit(prepared, summary)

    def _prepare(self, batch: Batch) -> Prepared:
        """Find which statements are new, and embed them (runs in the worker thread)."""
        keys = list(dict.fromkeys(p.key for p in batch.planned))
        done = {r["key"]: r["belief"] for r in self.store.db.read_rows("import_done", keys=keys)}
        todo = [p for p in batch.planned if p.key not in done]
        if self.options.dry_run or not todo:
            return Prepared(batch, todo, done, [], [])
        # a belief with a statement's id but no ASSERTED edge comes from outside this
        # importer's transactions (ids are hashes, so only a deliberate copy): link, don't write
        stored = set(self.store.db.read_rows("belief_existing_ids", ids=[p.key for p in todo]))
        done.update({key: key for key in stored})
        creates = [p for p in todo if p.key not in stored]
        beliefs = [_belief(p, self.options) for p in creates]
        rows = self.store.prepare(
            beliefs, write_path=WritePath.import_, actor=self.actor, embedder=self.embedder
        )
        return Prepared(batch, todo, done, rows, [p.key for p in creates])

    def _commit(self, prepared: Prepared, summary: ImportSummary) -> None:
        """Write one prepared batch in one transaction: beliefs, provenance, checkpoint."""
        batch, todo = prepared.batch, prepared.todo
        summary.already += len(batch.planned) - len(todo)
        summary.batches += 1 if batch.records else 0
        if self.options.dry_run:
            summary.added += len(todo)
            return
        rows = self._provenance_rows(todo)
        decisions: list[GateDecision] = []

        def work(tx: ManagedTransaction) -> None:
            decisions.clear()
            targets = dict(prepared.done)
            if prepared.rows:
                decisions.extend(
                    self.store.create_in(tx, prepared.rows, caller=self.caller, actor=self.actor)
                )
                targets.update(
                    zip(prepared.row_keys, (d.belief_id for d in decisions), strict=True)
                )
            wanted = sorted(
                {
                    k
                    for p in batch.planned  # statements written before are linked too
                    for k in (p.key, p.follows_key, p.followed_by, p.caused_key)
                    if k and k not in targets
                }
            )
            if wanted:  # statements of earlier batches that these follow or explain
                found = self.store.db.tx_rows(tx, "import_done", keys=wanted)
                targets.update({r["key"]: r["belief"] for r in found})
            self._write_provenance(tx, todo, targets, rows, batch)

        self.store.db.write(work)
        for d in decisions:
            verdict = str(d.verdict)
            if verdict in ("noop", "subsumed"):
                summary.noop += 1
            else:
                summary.added += 1
            if d.contested:
                summary.contested += 1
            elif verdict == "contradicts":
                summary.superseded += 1

    def _provenance_rows(self, todo: list[Planned]) -> dict[str, list[dict[str, Any]]]:
        ns = self.options.namespace
        conversations = {
            p.turn.conversation_id: {
                "id": conversation_node_id(ns, p.turn.conversation_id),
                "conversation_id": p.turn.conversation_id,
                "namespace": ns,
                "title": p.turn.title,
            }
            for p in todo
        }
        turns = {
            turn_node_id(ns, p.turn): {
                "id": turn_node_id(ns, p.turn),
                "conversation": conversation_node_id(ns, p.turn.conversation_id),
                "index": p.turn.index,
                "turn_id": p.turn.turn_id,
                "role": p.turn.role,
                "ts": p.turn.ts,
                "text": p.turn.content[:TURN_TEXT_CHARS],
                "line": p.turn.line,
                "namespace": ns,
            }
            for p in todo
        }
        return {"conversations": list(conversations.values()), "turns": list(turns.values())}

    def _write_provenance(
        self,
        tx: ManagedTransaction,
        todo: list[Planned],
        targets: dict[str, str],
        rows: dict[str, list[dict[str, Any]]],
        batch: Batch,
    ) -> None:
        source = self._source
        ns = self.options.namespace
        self.store.db.tx_run(
            tx,
            "import_checkpoint",
            key=source["key"],
            namespace=source["namespace"],
            source_name=source["name"],
            format=source["format"],
            records_done=batch.last_record,
            completed=batch.completed,
            skipped=batch.skipped,
            now=datetime.now(UTC),
        )
        # every statement is linked to its neighbours in time, those written before too: a
        # mended line is new between two of them (an edge already there is not written again)
        follows = _edges(
            pair
            for p in batch.planned
            for pair in (
                (targets.get(p.key), targets.get(p.follows_key or "")),
                (targets.get(p.followed_by or ""), targets.get(p.key)),
            )
        )
        if follows:
            self.store.db.tx_run(
                tx, "import_follows", rows=[{"later": a, "earlier": b} for a, b in follows]
            )
        if not todo:
            return
        asserted = [
            {
                "turn": turn_node_id(ns, p.turn),
                "key": p.key,
                "belief": targets[p.key],
                "speaker": p.statement.speaker,
                "cue": p.statement.cue,
                "order": p.order,
            }
            for p in todo
        ]
        caused = _edges((targets.get(p.key), targets.get(p.caused_key or "")) for p in todo)
        self.store.db.tx_run(
            tx, "import_conversations", source=source["key"], rows=rows["conversations"]
        )
        self.store.db.tx_run(tx, "import_turns", rows=rows["turns"])
        self.store.db.tx_run(tx, "import_asserted", rows=asserted)
        if caused:
            self.store.db.tx_run(
                tx, "import_caused", rows=[{"reason": a, "claim": b} for a, b in caused]
            )


def _edges(pairs: Iterable[tuple[str | None, str | None]]) -> list[tuple[str, str]]:
    """Distinct ``(from, to)`` belief pairs, without gaps or self-loops, in order."""
    out: dict[tuple[str, str], None] = {}
    for a, b in pairs:
        if a and b and a != b:
            out[(a, b)] = None
    return list(out)


def _belief(p: Planned, options: ImportOptions) -> BeliefCreate:
    s = p.statement
    return BeliefCreate(
        id=p.key,
        text=s.text,
        kind=s.kind,
        status=s.status,
        epistemic_status=s.epistemic_status,
        priority=s.priority,
        trust=s.trust,
        importance=s.importance,
        confidence=s.confidence,
        pinned=s.pinned,
        why_it_matters=s.why_it_matters,
        valid_from=p.said_at,
        author=s.speaker,
        user=options.user,
        namespaces=[options.namespace],
    )


def import_logs(
    store: Store,
    source: Path | str | BinaryIO,
    options: ImportOptions,
    *,
    name: str | None = None,
    extractor: Extractor | None = None,
    progress: Progress | None = None,
    on_reject: RejectSink | None = None,
    cancel: threading.Event | None = None,
    caller: Caller | None = None,
) -> ImportSummary:
    """Import a conversation log into ``options.namespace``; return what was done.

    ``source`` is a path, ``"-"`` (standard input) or a binary stream. Importing the same
    log again writes nothing; an interrupted import picks up at its last checkpoint.

    Raises:
        InvalidInput: the namespace is malformed.
        UnknownFormat: the format is ``auto`` and cannot be told from the first record.
        MalformedRecord: a record is broken (file, line, reason) and ``skip_invalid`` is
            off; every record before it is committed.
        StoreUnavailable: Neo4j cannot be reached.

    >>> import_logs(store, "chat.jsonl", ImportOptions(namespace="user:me"))  # doctest: +SKIP
    ImportSummary(source='chat.jsonl', namespace='user:me', format='jsonl', ...)
    """
    importer = Importer(
        store,
        options,
        extractor=extractor,
        progress=progress,
        on_reject=on_reject,
        cancel=cancel,
        caller=caller,
    )
    return importer.run(source, name=name)


class RejectFile:
    """Writes rejected records to a JSON Lines file, one ``{source, line, reason, raw}`` each.

    The file is opened on the first reject, so a clean import leaves no file behind.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.count = 0
        self._file: IO[str] | None = None

    def __call__(self, source: str, reject: Reject) -> None:
        """Append one reject."""
        if self._file is None:
            self._file = self.path.open("a", encoding="utf-8")
        entry = {"source": source, "line": reject.line, "reason": reject.reason, "raw": reject.raw}
        self._file.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self._file.flush()
        self.count += 1

    def close(self) -> None:
        """Close the file if it was opened."""
        if self._file is not None:
            self._file.close()

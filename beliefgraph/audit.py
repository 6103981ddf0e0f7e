"""The audit log: an append-only, hash-chained record of every change (DESIGN §2, §5).

Every gate decision and every explicit change (supersede, retract, explicit precedence set
or removed, key change, a refused write) becomes an ``:AuditEvent`` written **in the
transaction of the change**: if the change rolls back, so does its event, and no change
commits without one.

Events form chains, one per namespace (``ns:<namespace>``, the first of the beliefs'
namespaces in name order) plus ``system`` for key changes. Each event stores its chain,
its position ``seq`` (1, 2, ...), the hash of the event before it (``prev_hash``, null for
the first) and its own ``hash``: the sha256 of the canonical JSON (sorted keys, no spaces,
UTF-8) of every other field. An ``:AuditChain`` node per chain holds the head (length and
last hash) and is the lock that serialises appends, so concurrent writers queue instead of
both appending after the same event; a uniqueness constraint on ``(chain, seq)`` makes a
fork impossible even if a writer skipped the lock. One chain per namespace keeps writers in
different namespaces from queueing on one global lock, and lets a chain be checked alone.

:func:`verify` walks the chains in ``seq`` order, recomputing each hash and checking each
link and each head, and names the first broken link: an edited event (its hash no longer
matches), a deleted one (a gap in ``seq``, or a head longer than its chain), a reordered
one (a ``prev_hash`` that does not point at the event before). The hashes are unkeyed:
they prove the log unchanged since its head was last seen, so keep a copy of the heads
(``beliefgraph audit verify`` prints them) somewhere an attacker cannot rewrite.

>>> entry = AuditEntry(action=AuditAction.retract, beliefs=["b1"], namespaces=["user:me"],
...                    snapshot=[{"id": "b1", "text": "old"}], actor="cli")
>>> chain_for(entry.namespaces)
'ns:user:me'
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from neo4j import ManagedTransaction
from pydantic import BaseModel, Field

from beliefgraph import cursors
from beliefgraph.access import Caller, Role
from beliefgraph.db import Db
from beliefgraph.errors import InvalidInput
from beliefgraph.records import native_datetime

#: the chain of events that touch no namespace (API key changes)
SYSTEM_CHAIN = "system"
#: events read per query while verifying
VERIFY_PAGE = 2000


class AuditAction(StrEnum):
    """What an audit event records: a gate verdict, or an explicit change."""

    add = "add"
    noop = "noop"
    compatible = "compatible"
    contradicts = "contradicts"
    contested = "contested"
    subsumes = "subsumes"
    subsumed = "subsumed"
    supersede = "supersede"
    retract = "retract"
    override = "override"
    narrow = "narrow"
    unrank = "unrank"
    refused = "refused"
    key_create = "key_create"
    key_revoke = "key_revoke"


@dataclass(frozen=True)
class AuditEntry:
    """A change to record; :func:`append` gives it a chain position and a hash."""

    action: AuditAction
    beliefs: list[str]
    namespaces: list[str]
    snapshot: list[dict[str, str]] = field(default_factory=list)
    reason: str | None = None
    similarity: float | None = None
    actor: str | None = None
    write_path: str | None = None
    classifier: str | None = None


class SnapshotItem(BaseModel):
    """A belief's text as it was when the event was written."""

    id: str
    text: str


class AuditEventPublic(BaseModel):
    """One audit event as clients see it."""

    id: str
    chain: str
    seq: int
    at: datetime
    action: AuditAction
    beliefs: list[str] = Field(description="Ids of the beliefs touched, the written one first.")
    snapshot: list[SnapshotItem]
    namespaces: list[str]
    reason: str | None
    similarity: float | None
    actor: str | None
    write_path: str | None
    classifier: str | None
    prev_hash: str | None
    hash: str


class AuditPage(BaseModel):
    """One page of audit events, newest first; pass ``next_cursor`` back for the next."""

    items: list[AuditEventPublic]
    next_cursor: str | None


class BrokenLink(BaseModel):
    """Where a chain stops being trustworthy, and why."""

    chain: str
    seq: int = Field(description="The position at which the chain breaks.")
    event_id: str | None = Field(description="The event found there, if any.")
    problem: str


class ChainHead(BaseModel):
    """A verified chain's length and last hash (keep a copy to detect a rewrite)."""

    chain: str
    length: int
    head: str | None


class Verification(BaseModel):
    """The result of :func:`verify`: ``ok`` when every chain checked is intact."""

    ok: bool
    chains: int
    events: int
    broken: list[BrokenLink] = Field(description="The first broken link of each broken chain.")
    heads: list[ChainHead] = Field(description="Every intact chain's head.")

    def heads_digest(self) -> str:
        """The sha256 of every intact chain's ``name:length:head``, one per line, sorted."""
        lines = "\n".join(
            f"{h.chain}:{h.length}:{h.head}" for h in sorted(self.heads, key=lambda h: h.chain)
        )
        return hashlib.sha256(lines.encode()).hexdigest()

    @property
    def first_broken(self) -> BrokenLink | None:
        """The first broken link (chains in name order), or ``None``."""
        return self.broken[0] if self.broken else None


def chain_for(namespaces: Sequence[str]) -> str:
    """The chain an event goes to: its first namespace's, or ``system`` for none."""
    return f"ns:{min(namespaces)}" if namespaces else SYSTEM_CHAIN


def _iso(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="microseconds")


#: every stored field the hash covers (all but ``hash`` itself)
HASHED_FIELDS = (
    "id",
    "chain",
    "seq",
    "at",
    "action",
    "beliefs",
    "snapshot",
    "namespaces",
    "reason",
    "similarity",
    "actor",
    "write_path",
    "classifier",
    "prev_hash",
)


def canonical_json(fields: dict[str, Any]) -> bytes:
    """The canonical JSON of an event's hashed fields: sorted keys, no spaces, UTF-8."""
    body = {}
    for name in HASHED_FIELDS:
        value = fields.get(name)
        body[name] = _iso(value) if isinstance(value, datetime) else value
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def event_hash(fields: dict[str, Any]) -> str:
    """The hex sha256 of :func:`canonical_json`."""
    return hashlib.sha256(canonical_json(fields)).hexdigest()


def append(db: Db, tx: ManagedTransaction, entries: Sequence[AuditEntry]) -> list[str]:
    """Append ``entries`` to their chains inside ``tx``, after the changes they record.

    The chains' head nodes are locked (in name order) until ``tx`` ends, so the appends of
    concurrent transactions queue. Returns the new events' ids, in order.
    """
    if not entries:
        return []
    now = datetime.now(UTC)
    names = sorted({chain_for(e.namespaces) for e in entries})
    heads = {
        r["name"]: (int(r["length"]), r["head"])
        for r in db.tx_run(tx, "audit_chain_lock", names=names)
    }
    events: list[dict[str, Any]] = []
    for entry in entries:
        chain = chain_for(entry.namespaces)
        length, prev = heads[chain]
        fields: dict[str, Any] = {
            "id": str(uuid.uuid4()),
            "chain": chain,
            "seq": length + 1,
            "at": now,
            "action": entry.action.value,
            "beliefs": list(entry.beliefs),
            "snapshot": json.dumps(
                [{"id": s["id"], "text": s["text"]} for s in entry.snapshot],
                sort_keys=True,
                separators=(",", ":"),
                ensure_ascii=False,
            ),
            "namespaces": sorted(set(entry.namespaces)),
            "reason": entry.reason,
            "similarity": None if entry.similarity is None else round(entry.similarity, 6),
            "actor": entry.actor,
            "write_path": entry.write_path,
            "classifier": entry.classifier,
            "prev_hash": prev,
        }
        digest = event_hash(fields)
        heads[chain] = (length + 1, digest)
        # Neo4j stores no null properties: leaving them out reads back as None, the same
        # value the hash covered.
        # `at` is the same for every event: it travels once, as $at (the driver's encoding
        # of a date-time is slow enough to matter in a 256-belief import batch)
        props = {k: v for k, v in fields.items() if v is not None and k != "at"}
        events.append({"props": props | {"hash": digest}, "beliefs": list(entry.beliefs)})
    db.tx_run(
        tx,
        "audit_append",
        events=events,
        heads=[{"name": n, "length": ln, "head": h} for n, (ln, h) in heads.items()],
        at=now,
    )
    return [e["props"]["id"] for e in events]


def event_from_map(event: dict[str, Any]) -> AuditEventPublic:
    """Build an :class:`AuditEventPublic` from the property map of an ``:AuditEvent``."""
    return AuditEventPublic(
        id=event["id"],
        chain=event["chain"],
        seq=event["seq"],
        at=native_datetime(event["at"]),
        action=event["action"],
        beliefs=list(event.get("beliefs") or []),
        snapshot=json.loads(event.get("snapshot") or "[]"),
        namespaces=list(event.get("namespaces") or []),
        reason=event.get("reason"),
        similarity=event.get("similarity"),
        actor=event.get("actor"),
        write_path=event.get("write_path"),
        classifier=event.get("classifier"),
        prev_hash=event.get("prev_hash"),
        hash=event["hash"],
    )


def _stored_fields(event: dict[str, Any]) -> dict[str, Any]:
    fields = {name: event.get(name) for name in HASHED_FIELDS}
    fields["at"] = native_datetime(fields["at"]) if fields["at"] is not None else None
    return fields


class _ChainCheck:
    """Walks one chain's events in ``seq`` order and keeps its first break."""

    def __init__(self, chain: str, length: int | None, head: str | None) -> None:
        self.chain = chain
        self.length = length
        self.head = head
        self.seen = 0
        self.prev: str | None = None
        self.broken: BrokenLink | None = None

    def _break(self, seq: int, event_id: str | None, problem: str) -> None:
        if self.broken is None:
            self.broken = BrokenLink(chain=self.chain, seq=seq, event_id=event_id, problem=problem)

    def feed(self, event: dict[str, Any]) -> None:
        if self.broken is not None:
            return
        expected = self.seen + 1
        seq, event_id = event.get("seq"), event.get("id")
        if seq != expected:
            self._break(
                expected,
                None,
                f"event {expected} is missing (the next stored is {seq}): deleted or moved",
            )
            return
        if event.get("prev_hash") != self.prev:
            self._break(
                expected,
                event_id,
                f"event {expected} does not follow event {expected - 1}: its prev_hash is not "
                "that event's hash (an event was removed, inserted or moved)",
            )
            return
        if event_hash(_stored_fields(event)) != event.get("hash"):
            self._break(
                expected, event_id, f"event {expected} was altered: it no longer matches its hash"
            )
            return
        self.seen = expected
        self.prev = event["hash"]

    def finish(self) -> None:
        if self.broken is not None:
            return
        if self.length is None:
            self._break(self.seen, None, "the chain has events but no head")
        elif self.seen < self.length:
            self._break(
                self.seen + 1,
                None,
                f"the head says {self.length} events but only {self.seen} follow one another: "
                f"event {self.seen + 1} is missing",
            )
        elif self.seen > self.length or self.prev != self.head:
            self._break(self.seen, None, "the head does not point at the chain's last event")


def verify(db: Db, chain: str | None = None, *, page_size: int = VERIFY_PAGE) -> Verification:
    """Walk one chain (or every chain) and check each hash, each link and each head.

    Verification is linear in the number of events and reads them a page at a time in
    ``(chain, seq)`` order through the constraint's index (no sort), keeping one small
    record per chain in memory.

    Returns:
        A :class:`Verification`; ``first_broken`` names the first broken link.
    """
    if chain is not None:
        heads = db.run_read("audit_chain_get", chain=chain)
        length, head = (heads[0]["length"], heads[0]["head"]) if heads else (None, None)
        checks = [_ChainCheck(chain, length, head)]
        _walk_chain(db, checks[0], after=0, page_size=page_size)
        if not heads and checks[0].seen == 0 and checks[0].broken is None:
            return Verification(ok=True, chains=0, events=0, broken=[], heads=[])
    else:
        checks = _verify_all(db, page_size)
    events = 0
    for check in checks:
        check.finish()
        events += check.seen
    broken = [c.broken for c in checks if c.broken is not None]
    heads_ok = [
        ChainHead(chain=c.chain, length=c.seen, head=c.prev) for c in checks if c.broken is None
    ]
    return Verification(
        ok=not broken, chains=len(checks), events=events, broken=broken, heads=heads_ok
    )


def _verify_all(db: Db, page_size: int) -> list[_ChainCheck]:
    checks = {
        r["name"]: _ChainCheck(r["name"], r["length"], r["head"])
        for r in db.run_read("audit_chains")
    }

    def check_for(name: str) -> _ChainCheck:
        # an event whose chain has no head is itself a break: finish() reports it
        return checks.setdefault(name, _ChainCheck(name, None, None))

    after_chain = ""
    while True:
        page = db.read_rows("audit_scan", after_chain=after_chain, limit=page_size)
        for event in page:
            check_for(str(event["chain"])).feed(dict(event))
        if len(page) < page_size:
            break
        # the page may have cut the last chain short: finish it by seq, then move on
        last = page[-1]
        after_chain = str(last["chain"])
        _walk_chain(db, check_for(after_chain), after=int(last["seq"]), page_size=page_size)
    return [checks[name] for name in sorted(checks)]


def _walk_chain(db: Db, check: _ChainCheck, *, after: int, page_size: int) -> None:
    while True:
        page = db.read_rows("audit_chain_page", chain=check.chain, after=after, limit=page_size)
        for event in page:
            check.feed(dict(event))
        if len(page) < page_size:
            return
        after = int(page[-1]["seq"])


def record_refusal(db: Db, entry: AuditEntry) -> None:
    """Write one event in a transaction of its own (the refused change wrote nothing)."""

    def work(tx: ManagedTransaction) -> None:
        append(db, tx, [entry])

    db.write(work)


def list_events(
    db: Db,
    caller: Caller,
    *,
    action: AuditAction | None = None,
    since: datetime | None = None,
    belief: str | None = None,
    cursor: str | None = None,
    limit: int = 100,
) -> AuditPage:
    """Audit events newest first, filtered, that the caller may see.

    A caller sees the events whose namespaces all lie in its grant; events that touch no
    namespace (key changes) are for admins only.

    Raises:
        InvalidInput: the cursor is not one this function returned, or the limit is out of range.
    """
    if not 1 <= limit <= db.settings.max_page_size:
        raise InvalidInput(
            f"limit must be between 1 and {db.settings.max_page_size}", field="limit"
        )
    before_at, before_id = cursors.decode(cursor) if cursor else (None, None)
    allowed = None if caller.namespaces is None else sorted(caller.namespaces)
    # key changes name every tenant's grants: for admins over every namespace only
    system = caller.role is Role.admin and caller.namespaces is None
    records = _page_events(
        db,
        action=action.value if action else None,
        since=since,
        belief=belief,
        allowed=allowed,
        system=system,
        before_at=before_at,
        before_id=before_id,
        limit=limit + 1,
    )
    items = [event_from_map(dict(event)) for event in records[:limit]]
    next_cursor = None
    if len(records) > limit:
        last = items[-1]
        next_cursor = cursors.encode(last.at, last.id)
    return AuditPage(items=items, next_cursor=next_cursor)


def _page_events(
    db: Db,
    *,
    action: str | None,
    since: datetime | None,
    belief: str | None,
    allowed: list[str] | None,
    system: bool,
    before_at: datetime | None,
    before_id: str | None,
    limit: int,
) -> list[Any]:
    """The events of one page (maps, newest first), read the cheapest way that is exact.

    One belief's history is read from the events that touch it. Otherwise the log is read
    newest first (for a key limited to namespaces, at most
    :attr:`Db.scanned_per_row <beliefgraph.db.Db.scanned_per_row>` events per row of
    the page), and when that does not fill the page, the chains of the key's namespaces: an
    event goes to the chain of its least namespace, which is in the grant of every key that
    may see it.
    """
    if allowed == []:
        return []  # a key granted no namespace sees no event
    if belief is not None:
        touching = db.run_read(
            "audit_list_touching",
            action=action,
            since=since,
            belief=belief,
            allowed=allowed,
            system=system,
            before_at=before_at,
            before_id=before_id,
            limit=limit,
        )[0]
        if touching["known"]:
            return list(touching["events"])
    records = db.run_read(
        "audit_list",
        scan=None if allowed is None else db.scanned_per_row * limit,
        action=action,
        since=since,
        belief=belief,
        allowed=allowed,
        system=system,
        before_at=before_at,
        before_id=before_id,
        limit=limit,
    )
    if allowed is not None and len(records) < limit:  # sparse in time, or the last page
        records = db.run_read(
            "audit_list_in",
            chains=[chain_for([ns]) for ns in allowed],
            action=action,
            since=since,
            belief=belief,
            allowed=allowed,
            system=system,
            before_at=before_at,
            before_id=before_id,
            limit=limit,
        )
    return [r["event"] for r in records]

"""Import structured belief documents: a JSON array of typed beliefs (DESIGN §6).

The format is that of PrecisionMemBench's ``beliefs.seed.json``; each entry::

    {"_id": "b-db-decision", "user_id": "test-user", "type": "decision",
     "canonical_name": "database_mongodb", "aliases": ["database"],
     "content": "Decided on MongoDB after evaluating Postgres.", "why_it_matters": "...",
     "scope": ["domain:code"], "epistemic_status": "active", "confidence": 1.0,
     "pinned": true, "superseded_by": null, "resolved_at": null, "user_edited": false,
     "last_reinforced_at": "...", "provenance": {...}, ...}

How it maps onto the graph:

- ``type`` → ``kind``; ``content`` → ``text``; ``scope`` → namespaces; ``user_id`` → ``user``
  (the hard isolation between users); ``canonical_name`` and ``aliases`` stay on the belief
  and become an ``Entity`` (key: the snake_case canonical name) with those aliases in the
  belief's namespaces;
- ``epistemic_status``: ``active`` / ``exploratory`` (and the other creatable statuses) →
  ``status``; ``superseded`` → a ``SUPERSEDES`` edge from ``superseded_by``, written in the
  same transaction, which marks the old belief superseded;
- ``participants`` (of a ``relation``) → a ``RELATES`` edge from the relation to each belief
  it links, which context follows one hop (:mod:`beliefgraph.search.context`);
- ``user_edited: true`` → ``epistemic_status: confirmed`` (the user said it themselves);
  an exploratory belief is ``floated``; everything else ``reported``;
- ``confidence``, ``pinned``, ``why_it_matters``, ``resolved_at``, ``last_reinforced_at`` →
  the fields of the same name; everything else (``reinforcement_count``, ``provenance``,
  ``created_at``, ``change_log``, unknown fields) is kept in ``attributes``.

A document is validated whole before anything is written: a malformed entry raises
:class:`~beliefgraph.errors.MalformedDocument` naming the belief and the field, and nothing
of the file is stored. Re-importing a document skips the beliefs already stored.

>>> report = import_documents(store, load_documents(Path("beliefs.seed.json")))  # doctest: +SKIP
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from neo4j import ManagedTransaction
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from beliefgraph import audit
from beliefgraph.errors import MalformedDocument, NotFound
from beliefgraph.index_keys import name_edits
from beliefgraph.models import (
    CREATABLE_STATUSES,
    AttributeValue,
    BeliefCreate,
    BeliefId,
    EntityRef,
    EpistemicStatus,
    Kind,
    NamespaceName,
    Status,
    Term,
    Text,
    UserId,
    WritePath,
)
from beliefgraph.text import entity_key

#: gate verdicts under which an incoming belief is not stored
_NOT_STORED = frozenset({"noop", "subsumed"})
#: the fields that map onto belief fields; every other field goes to ``attributes``
_MAPPED = {
    "_id",
    "user_id",
    "type",
    "canonical_name",
    "aliases",
    "content",
    "why_it_matters",
    "scope",
    "epistemic_status",
    "confidence",
    "pinned",
    "superseded_by",
    "resolved_at",
    "last_reinforced_at",
    "user_edited",
    "participants",
}


class BeliefDocument(BaseModel):
    """One entry of a structured belief document; unknown fields are kept, not refused."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    id: BeliefId = Field(alias="_id")
    user_id: UserId | None = None
    type: Kind
    canonical_name: Term | None = None
    aliases: list[Term] = Field(default_factory=list, max_length=100)
    content: Text
    why_it_matters: Text | None = None
    scope: list[NamespaceName] = Field(min_length=1, max_length=20)
    epistemic_status: str = "active"
    confidence: float = Field(default=0.8, ge=0.0, le=1.0)
    pinned: bool = False
    superseded_by: BeliefId | None = None
    resolved_at: datetime | None = None
    last_reinforced_at: datetime | None = None
    user_edited: bool = False
    #: what a ``relation`` links: ids of beliefs in the document or stored
    participants: list[BeliefId] = Field(default_factory=list, max_length=100)

    @field_validator("epistemic_status")
    @classmethod
    def _known_status(cls, value: str) -> str:
        allowed = {s.value for s in CREATABLE_STATUSES} | {Status.superseded.value}
        if value not in allowed:
            raise ValueError(f"must be one of {', '.join(sorted(allowed))}")
        return value


@dataclass(frozen=True)
class Isolation:
    """How a document's ids, users and namespaces are renamed on import (default: kept).

    The evaluation imports the same seed many times into one database; a run-unique
    ``prefix`` on ids and users and ``suffix`` on namespace names keeps every run apart from
    the others and from real data (the curation gate compares a write with its namespace's
    beliefs: another run's copy of the same belief must not be there).
    """

    prefix: str = ""
    suffix: str = ""

    @classmethod
    def run(cls, tag: str) -> Isolation:
        """The isolation of one run: ids and users ``<tag>.<id>``, namespaces ``<ns>.<tag>``."""
        return cls(prefix=f"{tag}.", suffix=f".{tag}")

    def belief_id(self, raw: str) -> str:
        """The stored id of a document's belief id."""
        return f"{self.prefix}{raw}"

    def user(self, raw: str) -> str:
        """The stored user of a document's user id."""
        return f"{self.prefix}{raw}"

    def namespace(self, raw: str) -> str:
        """The stored namespace of a document's scope."""
        return f"{raw}{self.suffix}"

    def original_id(self, stored: str) -> str:
        """The document's id of a stored belief id (the inverse of :meth:`belief_id`)."""
        return stored[len(self.prefix) :] if stored.startswith(self.prefix) else stored


@dataclass(frozen=True)
class ImportReport:
    """What an import did."""

    created: int
    already_present: int
    supersessions: int
    #: entries the curation gate found already said by a stored belief (reinforced instead)
    merged: int = 0
    #: links from relations to their participants now in place (RELATES)
    relations: int = 0


def load_documents(path: Path) -> list[BeliefDocument]:
    """Read and validate a document file: a JSON array of beliefs (or ``{"beliefs": [...]}``).

    Raises:
        MalformedDocument: the file is not JSON, or an entry breaks the format (the error
            names the belief, by ``_id`` or position, and the field).
    """
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise MalformedDocument(f"{path}: cannot read: {e}") from e
    except json.JSONDecodeError as e:
        raise MalformedDocument(f"{path}: not JSON: {e}", field="line") from e
    except (ValueError, RecursionError) as e:  # past the parser's limits
        why = "nested too deeply" if isinstance(e, RecursionError) else str(e)
        raise MalformedDocument(f"{path}: unreadable JSON: {why}") from None
    return parse_documents(raw, source=str(path))


def parse_documents(raw: Any, *, source: str = "document") -> list[BeliefDocument]:
    """Validate decoded JSON as belief documents; see :func:`load_documents`.

    Raises:
        MalformedDocument: as :func:`load_documents`.
    """
    if isinstance(raw, dict) and isinstance(raw.get("beliefs"), list):
        raw = raw["beliefs"]
    if not isinstance(raw, list):
        raise MalformedDocument(f"{source}: expected a JSON array of beliefs")
    docs: list[BeliefDocument] = []
    for index, entry in enumerate(raw):
        name = (
            f"belief {entry['_id']!r}"
            if isinstance(entry, dict) and isinstance(entry.get("_id"), str)
            else f"belief #{index}"
        )
        if not isinstance(entry, dict):
            raise MalformedDocument(f"{source}: {name}: expected an object", field=f"[{index}]")
        try:
            doc = BeliefDocument.model_validate(entry)
            to_belief(doc)  # what it maps onto must be a belief too (aliases, attributes)
        except ValidationError as e:
            err = e.errors()[0]
            field = ".".join(str(x) for x in err["loc"]) or "entry"
            raise MalformedDocument(
                f"{source}: {name}: field {field!r}: {err['msg']}", field=f"[{index}].{field}"
            ) from e
        docs.append(doc)
    _check_references(docs, source)
    return docs


def _check_references(docs: Sequence[BeliefDocument], source: str) -> None:
    ids = [d.id for d in docs]
    seen: set[str] = set()
    for d in docs:
        if d.id in seen:
            raise MalformedDocument(f"{source}: belief {d.id!r}: field '_id': repeated")
        seen.add(d.id)
    replaces: dict[str, str] = {}
    for d in docs:
        if d.epistemic_status == Status.superseded and d.superseded_by is None:
            raise MalformedDocument(
                f"{source}: belief {d.id!r}: field 'superseded_by': "
                "a superseded belief must name the belief that replaced it"
            )
        if d.superseded_by is None:
            continue
        if d.superseded_by == d.id:
            raise MalformedDocument(
                f"{source}: belief {d.id!r}: field 'superseded_by': names the belief itself"
            )
        if d.superseded_by in replaces:
            raise MalformedDocument(
                f"{source}: belief {d.id!r}: field 'superseded_by': {d.superseded_by!r} "
                f"already replaces {replaces[d.superseded_by]!r}"
            )
        replaces[d.superseded_by] = d.id
    # a chain that loops back on itself would leave no head
    by_old = {d.id: d.superseded_by for d in docs if d.superseded_by}
    for start in ids:
        node: str | None = start
        for _ in range(len(ids) + 1):
            node = by_old.get(node) if node else None
            if node is None:
                break
            if node == start:
                raise MalformedDocument(
                    f"{source}: belief {start!r}: field 'superseded_by': the chain loops"
                )


def to_belief(doc: BeliefDocument, isolation: Isolation = Isolation()) -> BeliefCreate:
    """The :class:`BeliefCreate` a document entry maps onto (see the module docstring)."""
    status = (
        Status.active if doc.epistemic_status == Status.superseded else Status(doc.epistemic_status)
    )
    if doc.user_edited:
        epistemic = EpistemicStatus.confirmed
    elif status == Status.exploratory:
        epistemic = EpistemicStatus.floated
    else:
        epistemic = EpistemicStatus.reported
    about = (
        [EntityRef(name=doc.canonical_name, aliases=list(doc.aliases))]
        if doc.canonical_name and entity_key(doc.canonical_name)
        else []
    )
    return BeliefCreate(
        id=isolation.belief_id(doc.id),
        text=doc.content,
        kind=doc.type,
        status=status,
        epistemic_status=epistemic,
        canonical_name=doc.canonical_name,
        aliases=list(doc.aliases),
        why_it_matters=doc.why_it_matters,
        confidence=doc.confidence,
        pinned=doc.pinned,
        user=isolation.user(doc.user_id) if doc.user_id else None,
        resolved_at=doc.resolved_at,
        last_reinforced_at=doc.last_reinforced_at,
        attributes=_attributes(doc),
        about=about,
        namespaces=[isolation.namespace(ns) for ns in doc.scope],
    )


def _attributes(doc: BeliefDocument) -> dict[str, AttributeValue]:
    out: dict[str, AttributeValue] = {}
    for key, value in (doc.model_extra or {}).items():
        if key in _MAPPED:
            continue
        out[key] = _attribute(value)
    return out


def _attribute(value: Any) -> AttributeValue:
    # scalars and lists of scalars are kept as they are; anything nested travels as JSON
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list) and all(
        v is None or isinstance(v, str | int | float | bool) for v in value
    ):
        return list(value)
    return json.dumps(value, sort_keys=True)


def import_documents(
    store: Any,
    docs: Sequence[BeliefDocument],
    *,
    isolation: Isolation = Isolation(),
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    actor: str = "import",
) -> ImportReport:
    """Store document entries and their supersessions in one transaction.

    Entries whose id is already stored are skipped (a re-import changes nothing).

    Returns:
        How many beliefs were created, skipped, and how many ``SUPERSEDES`` edges written.

    Raises:
        MalformedDocument: ``superseded_by`` names a belief that is neither in the
            document nor stored.
        TextTooLong: a text is over the configured limit (nothing is written).
        StoreUnavailable: Neo4j cannot be reached.
    """
    beliefs = [to_belief(d, isolation) for d in docs]
    ids = [b.id for b in beliefs if b.id]
    present = set(store.db.read_rows("belief_existing_ids", ids=ids))
    known = set(ids) | present
    links = []
    for d in docs:
        if d.superseded_by is None:
            continue
        new_id = isolation.belief_id(d.superseded_by)
        if new_id not in known:
            raise MalformedDocument(
                f"belief {d.id!r}: field 'superseded_by': {d.superseded_by!r} is neither in "
                "the document nor stored"
            )
        old_id = isolation.belief_id(d.id)
        if old_id in present and new_id in present:
            continue  # both stored by an earlier import, with their edge
        links.append({"old_id": old_id, "new_id": new_id, "reason": "superseded_by (import)"})
    relates = []
    for d in docs:
        for participant in d.participants:
            participant_id = isolation.belief_id(participant)
            if participant_id not in known:
                raise MalformedDocument(
                    f"belief {d.id!r}: field 'participants': {participant!r} is neither in "
                    "the document nor stored"
                )
            relates.append(
                {"relation_id": isolation.belief_id(d.id), "participant_id": participant_id}
            )
    fresh = [b for b in beliefs if b.id not in present]
    rows = store.prepare(fresh, write_path=WritePath.import_, actor=actor) if fresh else []

    def work(tx: ManagedTransaction) -> tuple[int, int, int]:
        merged = related = 0
        if rows:
            # Every write passes the curation gate: a near-duplicate of a stored belief is
            # not created, the stored one is reinforced instead (verdict noop/subsumed).
            decisions = store.create_in(tx, rows, actor=actor) or []
            merged = sum(1 for d in decisions if str(d.verdict) in _NOT_STORED)
        if relates:
            written = store.db.tx_run(tx, "documents_relate", rows=relates)
            related = int(written[0]["written"]) if written else 0
        if not links:
            return merged, 0, related
        done = store.db.tx_run(tx, "documents_supersede", rows=links, by=actor, now=clock())
        # an explicit change, audited like any other supersession (in this transaction)
        audit.append(
            store.db,
            tx,
            [
                audit.AuditEntry(
                    action=audit.AuditAction.supersede,
                    beliefs=[r["new_id"], r["old_id"]],
                    namespaces=sorted(set(r["namespaces"])),
                    snapshot=[
                        {"id": r["new_id"], "text": r["new_text"]},
                        {"id": r["old_id"], "text": r["old_text"]},
                    ],
                    reason="superseded_by (import)",
                    actor=actor,
                    write_path=WritePath.import_.value,
                )
                for r in done
            ],
        )
        return merged, len(done), related

    merged, linked, related = store.db.write(work)
    return ImportReport(
        created=len(fresh) - merged,
        already_present=len(present),
        supersessions=linked,
        merged=merged,
        relations=related,
    )


def add_aliases(
    store: Any,
    belief_id: str,
    aliases: Sequence[str],
    *,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> list[str]:
    """Add aliases to a stored belief (and to the entity of its canonical name, in the
    belief's namespaces).

    Returns:
        The belief's aliases afterwards.

    Raises:
        NotFound: no belief has that id.
    """
    clean = [a.strip() for a in aliases if a.strip()]

    def work(tx: ManagedTransaction) -> list[str] | None:
        found = store.db.tx_run(
            tx,
            "documents_add_aliases",
            id=belief_id,
            aliases=clean,
            edits=name_edits(clean).split(),
            now=clock(),
        )
        return list(found[0]["aliases"]) if found else None

    result: list[str] | None = store.db.write(work)
    if result is None:
        raise NotFound(f"no belief with id {belief_id!r}")
    return result

"""API keys: who may call the service, in which role, over which namespaces (DESIGN §7).

A key is ``bgk_`` followed by 43 random URL-safe characters (256 bits), shown once when it
is made. Only its sha256 is stored: a random key that long needs no slow password hash,
and a leaked database does not hand out working keys. Requests present it as
``Authorization: Bearer <key>``; :func:`authenticate` turns it into a
:class:`~beliefgraph.access.Caller`. A key's role and namespaces never change once it is made
(nothing updates them; revoking sets ``revoked_at`` only), so the API may remember the caller
of a key it has read as valid (:class:`KnownKeys`); such a caller carries the key's hash as
``unconfirmed_key``, and whatever serves it must still read that the key is not revoked - in
its own query (the ``key_state`` of the planner's read and of the context's layers, checked
with :func:`raise_for_state`) or with :func:`confirm`. Creating and revoking a key are
audited on the ``system`` chain.

>>> created = create_key(db, KeyCreate(name="ci-agent", role=Role.agent,   # doctest: +SKIP
...                                       namespaces=["project:demo"]), actor="cli")
>>> authenticate(db, created.key).role                                      # doctest: +SKIP
<Role.agent: 'agent'>
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import uuid
from collections import OrderedDict
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Literal, NoReturn, Self

from neo4j import ManagedTransaction
from pydantic import BaseModel, ConfigDict, Field, model_validator

from beliefgraph import audit
from beliefgraph.access import Caller, Role
from beliefgraph.db import Db
from beliefgraph.errors import Forbidden, NotFound, Unauthenticated
from beliefgraph.models import NamespaceName, Term
from beliefgraph.records import native_datetime

KEY_PREFIX = "bgk_"


class KeyCreate(BaseModel):
    """A key to make: a name for people, a role, and the namespaces it may touch."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Term
    role: Role
    namespaces: list[NamespaceName] | None = Field(
        default=None,
        max_length=100,
        description="The namespaces the key may touch; None (admins only) means all of them.",
    )

    @model_validator(mode="after")
    def _grant_fits_role(self) -> Self:
        if self.namespaces is None and self.role is not Role.admin:
            raise ValueError(f"a {self.role.value} key needs at least one namespace")
        if self.namespaces is not None and not self.namespaces:
            raise ValueError("namespaces, when given, must name at least one namespace")
        return self


class ApiKeyPublic(BaseModel):
    """A stored key as listed: never the key itself, never its hash."""

    id: str
    name: str
    role: Role
    namespaces: list[str] | None
    created_at: datetime
    created_by: str | None
    revoked_at: datetime | None


class ApiKeyCreated(ApiKeyPublic):
    """A new key, with the secret shown this once."""

    key: str = Field(description="The bearer token; it cannot be shown again.")


def hash_key(token: str) -> str:
    """The hex sha256 under which a key is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


def _from_map(key: dict[str, Any]) -> ApiKeyPublic:
    return ApiKeyPublic(
        id=key["id"],
        name=key["name"],
        role=key["role"],
        namespaces=list(key["namespaces"]) if key.get("namespaces") is not None else None,
        created_at=native_datetime(key["created_at"]),
        created_by=key.get("created_by"),
        revoked_at=native_datetime(key.get("revoked_at")),
    )


def _grant(namespaces: list[str] | None) -> str:
    return "every namespace" if namespaces is None else ", ".join(namespaces)


def create_key(
    db: Db, request: KeyCreate, *, actor: str, caller: Caller | None = None
) -> ApiKeyCreated:
    """Make a key and audit it, in one transaction.

    ``caller`` (default: a development admin over every namespace) may grant only what its
    own grant covers: an admin key given some namespaces could otherwise make itself a key
    over all of them.

    Raises:
        Forbidden: the grant asked for is wider than ``caller``'s.

    Returns:
        The key's record with the bearer token (shown only here).
    """
    if caller is not None and not caller.can_grant(request.namespaces):
        raise Forbidden("an admin key given some namespaces grants only those", field="namespaces")
    token = KEY_PREFIX + secrets.token_urlsafe(32)
    props: dict[str, Any] = {
        "id": uuid.uuid4().hex[:12],
        "name": request.name,
        "role": request.role.value,
        "hash": hash_key(token),
        "created_at": datetime.now(UTC),
        "created_by": actor,
    }
    if request.namespaces is not None:
        props["namespaces"] = sorted(set(request.namespaces))

    def work(tx: ManagedTransaction) -> dict[str, Any]:
        [record] = db.tx_run(tx, "key_create", props=props)
        audit.append(
            db,
            tx,
            [
                audit.AuditEntry(
                    action=audit.AuditAction.key_create,
                    beliefs=[],
                    namespaces=[],
                    reason=f"key {props['id']} ({request.name}): {request.role.value} over "
                    f"{_grant(props.get('namespaces'))}",
                    actor=actor,
                    write_path="admin",
                )
            ],
        )
        return dict(record["key"])

    created = _from_map(db.write(work))
    return ApiKeyCreated(**created.model_dump(), key=token)


def list_keys(db: Db, *, caller: Caller | None = None) -> list[ApiKeyPublic]:
    """Every key, revoked ones included, oldest first; for a ``caller`` given some
    namespaces, the keys whose grant lies within its own (the others are not its to see)."""
    found = [_from_map(dict(r["key"])) for r in db.run_read("key_list")]
    return [k for k in found if caller is None or caller.can_grant(k.namespaces)]


def revoke_key(db: Db, key_id: str, *, actor: str, caller: Caller | None = None) -> ApiKeyPublic:
    """Revoke a key at once (it is kept, marked revoked). Idempotent; audited once.

    Raises:
        NotFound: no key has that id, or none within ``caller``'s grant (see
            :func:`list_keys`).
    """
    scoped = caller is not None and caller.namespaces is not None
    if scoped and key_id not in {k.id for k in list_keys(db, caller=caller)}:
        raise NotFound(f"no API key with id {key_id!r}")

    def work(tx: ManagedTransaction) -> dict[str, Any] | None:
        found = db.tx_run(tx, "key_revoke", id=key_id, now=datetime.now(UTC))
        if not found:
            return None
        key = dict(found[0]["key"])
        if found[0]["was_active"]:
            audit.append(
                db,
                tx,
                [
                    audit.AuditEntry(
                        action=audit.AuditAction.key_revoke,
                        beliefs=[],
                        namespaces=[],
                        reason=f"key {key_id} ({key['name']}) revoked",
                        actor=actor,
                        write_path="admin",
                    )
                ],
            )
        return key

    key = db.write(work)
    if key is None:
        raise NotFound(f"no API key with id {key_id!r}")
    return _from_map(key)


def authenticate(db: Db, token: str) -> Caller:
    """The caller a bearer token stands for.

    Raises:
        Unauthenticated: the token is no key of this service, or the key is revoked.
    """
    if not token.startswith(KEY_PREFIX):
        raise Unauthenticated("the bearer token is not a beliefgraph API key")
    key = _valid_key(db, hash_key(token))
    return Caller(
        name=f"key:{key.name}/{key.id}",
        role=key.role,
        namespaces=frozenset(key.namespaces) if key.namespaces is not None else None,
    )


KeyState = Literal["ok", "unknown", "revoked"]


def raise_for_state(state: KeyState | None) -> None:
    """Pass a key that a read found ``'ok'``; refuse anything else (fail closed: a missing or
    unexpected state is a refusal, never a pass).

    Raises:
        Unauthenticated: the key is unknown or revoked, or the state is not ``'ok'``.
    """
    if state != "ok":
        _refuse(state)


def _refuse(state: KeyState | None) -> NoReturn:
    if state == "revoked":
        raise Unauthenticated("this API key has been revoked")
    raise Unauthenticated("unknown API key")


def confirm(db: Db, caller: Caller) -> None:
    """Read whether the key of a caller recognised from memory is still valid (a round trip;
    a read that can check ``Caller.unconfirmed_key`` in its own query does that instead).

    Raises:
        Unauthenticated: the key has been revoked (or is gone) since it was recognised.
    """
    if caller.unconfirmed_key is not None:
        _valid_key(db, caller.unconfirmed_key)


def _valid_key(db: Db, digest: str) -> ApiKeyPublic:
    """The key with this hash, read now; refused if unknown or revoked."""
    found = db.run_read("key_lookup", hash=digest)
    if not found:
        _refuse("unknown")
    key = _from_map(dict(found[0]["key"]))
    if key.revoked_at is not None:
        _refuse("revoked")
    return key


class KnownKeys:
    """The callers of keys this process has read as valid, by key hash: at most ``capacity``,
    the least recently used forgotten first. Thread-safe.

    A key's role and namespaces never change once it is made (a different grant is a new
    key), so a remembered caller is right for as long as its key is not revoked; that is
    what every use must still confirm (:attr:`~beliefgraph.access.Caller.unconfirmed_key`).
    """

    def __init__(self, capacity: int = 10_000) -> None:
        self._capacity = capacity
        self._callers: OrderedDict[str, Caller] = OrderedDict()
        self._lock = threading.Lock()

    def recall(self, token: str) -> Caller | None:
        """The caller of ``token`` if known, marked as still to be confirmed."""
        digest = hash_key(token)
        with self._lock:
            caller = self._callers.get(digest)
            if caller is None:
                return None
            self._callers.move_to_end(digest)
        return replace(caller, unconfirmed_key=digest)

    def forget(self, digest: str) -> None:
        """Forget the key with this hash (refused since: its next use reads it again)."""
        with self._lock:
            self._callers.pop(digest, None)

    def remember(self, token: str, caller: Caller) -> None:
        """Note that ``token`` was just read as a valid key of ``caller``."""
        digest = hash_key(token)
        with self._lock:
            self._callers[digest] = replace(caller, unconfirmed_key=None)
            self._callers.move_to_end(digest)
            while len(self._callers) > self._capacity:
                self._callers.popitem(last=False)

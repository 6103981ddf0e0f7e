"""``/v1/keys``: API keys, managed by admins."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, status

from api.deps import CallerDep, StoreDep
from beliefgraph import keys
from beliefgraph.access import Caller, Role
from beliefgraph.errors import Forbidden

router = APIRouter(prefix="/v1", tags=["keys"])


def _admin(caller: Caller) -> None:
    if caller.role is not Role.admin:
        raise Forbidden("only an admin key manages keys")


@router.post("/keys", status_code=status.HTTP_201_CREATED, summary="Make an API key (admin)")
def create_key(body: keys.KeyCreate, store: StoreDep, caller: CallerDep) -> keys.ApiKeyCreated:
    """The new key's `key` is shown in this answer only; only its hash is stored. An admin
    key given some namespaces makes keys over (some of) those only."""
    _admin(caller)
    return keys.create_key(store.db, body, actor=caller.name, caller=caller)


@router.get("/keys", summary="List API keys (admin)")
def list_keys(store: StoreDep, caller: CallerDep) -> list[keys.ApiKeyPublic]:
    """Every key, revoked ones included, never the secret or its hash; for an admin key given
    some namespaces, the keys within those."""
    _admin(caller)
    return keys.list_keys(store.db, caller=caller)


@router.delete("/keys/{key_id}", summary="Revoke an API key (admin)")
def revoke_key(
    key_id: Annotated[str, Path(pattern=r"^[a-f0-9]{12}$")], store: StoreDep, caller: CallerDep
) -> keys.ApiKeyPublic:
    """Revoked at once: the next request with it is a 401. Idempotent. An admin key given
    some namespaces revokes keys within those only (others are a 404 to it)."""
    _admin(caller)
    return keys.revoke_key(store.db, key_id, actor=caller.name, caller=caller)

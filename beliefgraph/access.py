"""Who is asking, and what they may touch (DESIGN §7).

A :class:`Caller` carries a role and the namespaces it may read and write. The API builds
one per request from its credentials; the library takes it as an input and filters by it.
``namespaces=None`` means every namespace; only an admin, or development mode with auth
off, gets that.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum


class Role(StrEnum):
    """What a key may do: readers read; agents write observations and inferences;
    curators write anything in their namespaces; admins also manage keys."""

    reader = "reader"
    agent = "agent"
    curator = "curator"
    admin = "admin"


@dataclass(frozen=True)
class Caller:
    """The identity behind a request.

    ``unconfirmed_key`` is the hash of the caller's API key when the API recognised the key
    from memory instead of reading it (``api/auth.py``): whether it has been revoked since is
    then still to be read, and the request's own read does that in the same round trip (the
    planner's; :func:`beliefgraph.keys.confirm` otherwise). ``None``: nothing to confirm.
    """

    name: str
    role: Role
    namespaces: frozenset[str] | None
    # a hash, not a usable key, but nothing for logs either
    unconfirmed_key: str | None = field(default=None, repr=False)

    def can_see(self, namespace: str) -> bool:
        """Whether the caller may read ``namespace``."""
        return self.namespaces is None or namespace in self.namespaces

    def visible(self, requested: Iterable[str]) -> list[str]:
        """The requested namespaces the caller may read, in order, without repeats."""
        return [ns for ns in dict.fromkeys(requested) if self.can_see(ns)]


#: the caller of a development server with auth off, and of the local CLI
DEVELOPMENT_CALLER = Caller(name="development", role=Role.admin, namespaces=None)


# -- who may write what (DESIGN §7) -----------------------------------------------------------

#: kinds an agent key may write whatever their status; other non-authority kinds only as
#: ``inferred`` (an agent's inference), authority kinds never
AGENT_KINDS = frozenset({"observation"})
#: kinds that carry authority; kept as strings so this module needs no model import
AUTHORITY = frozenset({"policy", "credential", "correction", "decision"})


def write_refusal(caller: Caller, kind: str, status: str) -> str | None:
    """Why ``caller`` may not store a belief of this kind and status, or ``None``."""
    if caller.role is Role.reader:
        return "a reader key only reads"
    if caller.role is Role.agent:
        if kind in AUTHORITY:
            return f"an agent key cannot write a {kind}: authority beliefs need a curator"
        if kind not in AGENT_KINDS and status != "inferred":
            return (
                f"an agent key writes observations, and other kinds only as inferences "
                f"(status 'inferred'), not a {status} {kind}"
            )
    return None


def change_refusal(caller: Caller, kind: str, action: str) -> str | None:
    """Why ``caller`` may not ``action`` (supersede, retract) a belief of ``kind``, or ``None``."""
    if caller.role is Role.reader:
        return "a reader key only reads"
    if caller.role is Role.agent and kind in AUTHORITY:
        return f"an agent key cannot {action} a {kind}: authority beliefs need a curator"
    return None

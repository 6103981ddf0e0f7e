"""Who is asking, and what they may touch (DESIGN §7).

A :class:`Caller` carries a role and the namespaces it may read and write. The API builds
one per request from its credentials; the library takes it as an input and filters by it.
``namespaces=None`` means every namespace; only an admin, or development mode with auth
off, gets that.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
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
    """The identity behind a request."""

    name: str
    role: Role
    namespaces: frozenset[str] | None

    def can_see(self, namespace: str) -> bool:
        """Whether the caller may read ``namespace``."""
        return self.namespaces is None or namespace in self.namespaces

    def visible(self, requested: Iterable[str]) -> list[str]:
        """The requested namespaces the caller may read, in order, without repeats."""
        return [ns for ns in dict.fromkeys(requested) if self.can_see(ns)]


#: the caller of a development server with auth off, and of the local CLI
DEVELOPMENT_CALLER = Caller(name="development", role=Role.admin, namespaces=None)

"""Single-term keys that let the full-text index itself keep a search inside its scope.

Lucene cannot filter by a graph relationship or by a property it does not index, so a search
over a shared store would read every match of every tenant and filter afterwards: at 100k
beliefs that is most of the work. Each belief therefore carries ``search_keys``, one string of
index terms, ``u<hash>`` for its user and ``n<hash>`` for each namespace, indexed by
``belief_search``; a query adds ``+search_keys:(...)`` clauses and Lucene skips everything
else. Hashes (not the names) because the analyzer would cut ``tenant:a-b`` into several words,
and ``a-b`` and ``a_b`` must never meet.

>>> user_key("test-user") != user_key("test_user")
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable


def _digest(kind: str, value: str) -> str:
    return kind + hashlib.sha256(f"{kind}\x00{value}".encode()).hexdigest()[:24]


def user_key(user: str) -> str:
    """The index term of a user."""
    return _digest("u", user)


def namespace_key(namespace: str) -> str:
    """The index term of a namespace."""
    return _digest("n", namespace)


def search_keys(user: str | None, namespaces: Iterable[str]) -> str:
    """The ``search_keys`` property of a belief: its user's and namespaces' terms."""
    keys = [namespace_key(ns) for ns in sorted(set(namespaces))]
    if user is not None:
        keys.insert(0, user_key(user))
    return " ".join(keys)


def scope_clause(user: str | None, namespaces: Iterable[str]) -> str:
    """The Lucene clauses that keep a query inside these namespaces (and this user's beliefs)."""
    clause = f"+search_keys:({' '.join(namespace_key(ns) for ns in namespaces)})"
    if user is not None:
        clause += f" +search_keys:{user_key(user)}"
    return clause

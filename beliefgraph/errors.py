"""Errors raised by the beliefgraph library.

The hierarchy::

    BeliefGraphError
    ├── InvalidInput            a request is well-formed but breaks a rule (422)
    │   └── TextTooLong         a text field is longer than the configured limit
    ├── NotFound                an id names nothing the caller may see (404)
    ├── Conflict                the change would break the graph's invariants (409)
    │   ├── DuplicateId         a belief with that id already exists
    │   ├── SupersessionCycle   the supersession would close a loop
    │   └── NotSupersedable     the belief is retracted or already superseded
    ├── QueryNotFound           a named Cypher query does not exist (a programming error)
    ├── EmbeddingUnavailable    the embedding model cannot be loaded
    └── StoreUnavailable        Neo4j cannot be reached or refused the work

The API maps each class to one RFC 9457 problem type in ``api/problems.py``.
"""

from __future__ import annotations


class BeliefGraphError(Exception):
    """Root of every error the library raises on purpose."""

    #: short machine-readable slug used in problem+json ``type`` URIs
    slug = "error"

    def __init__(self, detail: str, *, field: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.field = field


class InvalidInput(BeliefGraphError):
    """Raised when input is well-formed but breaks a domain rule."""

    slug = "invalid-input"


class TextTooLong(InvalidInput):
    """Raised when a text field exceeds ``Settings.max_text_length``."""

    slug = "text-too-long"


class NotFound(BeliefGraphError):
    """Raised when an id names nothing the caller may see."""

    slug = "not-found"


class Conflict(BeliefGraphError):
    """Raised when a change would break one of the graph's invariants."""

    slug = "conflict"


class DuplicateId(Conflict):
    """Raised when a belief is created with an id that already exists."""

    slug = "duplicate-id"


class SupersessionCycle(Conflict):
    """Raised when a supersession would make the chain loop back on itself."""

    slug = "supersession-cycle"


class NotSupersedable(Conflict):
    """Raised when superseding a retracted belief, or one that is already superseded."""

    slug = "not-supersedable"


class QueryNotFound(BeliefGraphError):
    """Raised at start-up or call time when a named Cypher query does not exist."""

    slug = "query-not-found"


class EmbeddingUnavailable(BeliefGraphError):
    """Raised when the embedding model cannot be loaded from the local package."""

    slug = "embedding-unavailable"


class StoreUnavailable(BeliefGraphError):
    """Raised when Neo4j cannot be reached or fails for reasons outside the request."""

    slug = "store-unavailable"

"""Errors raised by the beliefgraph library.

The hierarchy::

    BeliefGraphError
    ├── InvalidInput            a request is well-formed but breaks a rule (422)
    │   ├── TextTooLong         a text field is longer than the configured limit
    │   ├── UnknownFormat       an import's format cannot be told or is not supported
    │   ├── MalformedRecord     a record of an imported log is broken (file, line, reason)
    │   ├── MalformedDocument   a structured belief document is broken (belief, field)
    │   └── InvalidPacket       an evaluation packet is broken (scenario, field); nothing loaded
    ├── Unauthenticated         no API key, or an unknown or revoked one (401)
    ├── Forbidden               the caller's role may not make this change (403)
    ├── NotFound                an id names nothing the caller may see (404)
    ├── Conflict                the change would break the graph's invariants (409)
    │   ├── DuplicateId         a belief with that id already exists
    │   ├── SupersessionCycle   the supersession would close a loop
    │   ├── NotSupersedable     the belief is retracted or already superseded
    │   ├── PrecedenceLoop      an explicit precedence would loop back on itself
    │   └── TrustGuarded        the replacement's trust is too low to supersede
    ├── QueryNotFound           a named Cypher query does not exist (a programming error)
    ├── EmbeddingUnavailable    the embedding model cannot be loaded
    ├── LLMUnavailable          the optional LLM endpoint failed (always caught: rules decide)
    └── StoreUnavailable        Neo4j cannot be reached or refused the work
        └── WriteOutcomeUnknown Neo4j went away while a write committed

The API maps each class to one RFC 9457 problem type in ``api/problems.py``.
"""

from __future__ import annotations


class BeliefGraphError(Exception):
    """Root of every error the library raises on purpose."""

    #: short machine-readable slug used in problem+json ``type`` URIs
    slug = "error"
    #: the detail itself names the file, the entry and the field (the CLI adds none)
    says_where = False

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


class UnknownFormat(InvalidInput):
    """Raised when an import's format is not given and cannot be told from its first record."""

    slug = "unknown-format"


class MalformedRecord(InvalidInput):
    """Raised when a record of an imported log cannot be read; names the file and line."""

    slug = "malformed-record"

    def __init__(self, source: str, line: int, reason: str) -> None:
        super().__init__(f"{source}:{line}: {reason}")
        self.source = source
        self.line = line
        self.reason = reason


class MalformedDocument(InvalidInput):
    """Raised when an entry of a structured belief document breaks the format; names the
    belief and the field, and nothing of the document is written."""

    slug = "malformed-document"
    says_where = True


class InvalidPacket(InvalidInput):
    """Raised when an evaluation packet or annotation file breaks its format; names the
    scenario and the field, and nothing of the packet is loaded."""

    slug = "invalid-packet"
    says_where = True


class Unauthenticated(BeliefGraphError):
    """Raised when a request has no API key, or one that is unknown or revoked."""

    slug = "unauthenticated"


class Forbidden(BeliefGraphError):
    """Raised when the caller's role may not make the change it asked for."""

    slug = "forbidden"


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


class PrecedenceLoop(Conflict):
    """Raised when an ``OVERRIDES`` or ``NARROWS`` edge would close a loop of precedence."""

    slug = "precedence-loop"


class TrustGuarded(Conflict):
    """Raised when an explicit replacement's trust is below the guard ratio of the old one's."""

    slug = "trust-guarded"


class QueryNotFound(BeliefGraphError):
    """Raised at start-up or call time when a named Cypher query does not exist."""

    slug = "query-not-found"


class EmbeddingUnavailable(BeliefGraphError):
    """Raised when the embedding model cannot be loaded from the local package."""

    slug = "embedding-unavailable"


class StoreUnavailable(BeliefGraphError):
    """Raised when Neo4j cannot be reached or fails for reasons outside the request."""

    slug = "store-unavailable"


class WriteOutcomeUnknown(StoreUnavailable):
    """Raised when Neo4j went away while a write committed: it may or may not be stored."""

    slug = "write-outcome-unknown"


class LLMUnavailable(BeliefGraphError):
    """The optional LLM endpoint failed, timed out or answered something unreadable; the
    extractor and the classifier catch it and decide by their rules."""

    slug = "llm-unavailable"

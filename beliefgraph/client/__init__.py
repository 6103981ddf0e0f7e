"""A typed Python client for the beliefgraph REST API: one method per route, sync and async.

:class:`Client` and :class:`AsyncClient` live in :mod:`beliefgraph.client.clients`, what they
raise in :mod:`beliefgraph.client.errors`; both are importable from here.
"""

from beliefgraph.client.clients import AsyncClient, Client
from beliefgraph.client.errors import (
    BadRequest,
    ClientError,
    ConflictError,
    ConnectionFailed,
    NotFoundError,
    PermissionDenied,
    ProblemError,
    ServerError,
    Unauthorized,
    Unavailable,
    UnexpectedAnswer,
    WriteOutcomeUnknown,
    problem_error,
)

__all__ = [
    "AsyncClient",
    "BadRequest",
    "Client",
    "ClientError",
    "ConflictError",
    "ConnectionFailed",
    "NotFoundError",
    "PermissionDenied",
    "ProblemError",
    "ServerError",
    "Unauthorized",
    "Unavailable",
    "UnexpectedAnswer",
    "WriteOutcomeUnknown",
    "problem_error",
]

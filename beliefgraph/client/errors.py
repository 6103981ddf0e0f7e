"""What the client raises: one class per kind of failure, problem+json details kept."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx2

# -- errors ----------------------------------------------------------------------------------


class ClientError(Exception):
    """Root of every error this client raises."""


class ConnectionFailed(ClientError):
    """Raised when the server gave no answer: it could not be reached, or it timed out."""


class UnexpectedAnswer(ClientError):
    """Raised when an answer does not read as the API's model of it (another version?)."""


class ProblemError(ClientError):
    """Raised when the server answered with an error: its RFC 9457 problem, field by field."""

    def __init__(self, status: int, problem: Mapping[str, Any]) -> None:
        self.status = status
        self.type: str = str(problem.get("type", "about:blank"))
        self.title: str = str(problem.get("title", "HTTP error"))
        self.detail: str = str(problem.get("detail", ""))
        self.field: str | None = problem.get("field")
        self.errors: list[dict[str, Any]] = list(problem.get("errors", []))
        super().__init__(f"{self.title} ({status}): {self.detail}")


class BadRequest(ProblemError):
    """Raised on a 400, 413 or 422: the request is wrong; ``field``/``errors`` say where."""


class Unauthorized(ProblemError):
    """Raised on a 401: no key, or an unknown or revoked one."""


class PermissionDenied(ProblemError):
    """Raised on a 403: the key's role may not do what was asked (the server audits it)."""


class NotFoundError(ProblemError):
    """Raised on a 404: no belief, key or job the key may see has that id."""


class ConflictError(ProblemError):
    """Raised on a 409: a loop, a taken id, a retracted belief, a trust guard."""


class ServerError(ProblemError):
    """Raised on a 500, or a status no other class names."""


class Unavailable(ProblemError):
    """Raised on a 503 that was still a 503 after the retries (Neo4j or the model away)."""


class WriteOutcomeUnknown(Unavailable):
    """Raised when Neo4j went away while a write committed: send it again with the same ids
    (the server answers a replay with what is stored)."""


_BY_STATUS: dict[int, type[ProblemError]] = {
    400: BadRequest,
    413: BadRequest,
    422: BadRequest,
    401: Unauthorized,
    403: PermissionDenied,
    404: NotFoundError,
    409: ConflictError,
    503: Unavailable,
}


def problem_error(response: httpx2.Response) -> ProblemError:
    """The error an answer of status 400 or more stands for."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):  # not a problem (a proxy's page): say what there is
        body = {"title": response.reason_phrase, "detail": response.text[:500]}
    if str(body.get("type", "")).endswith("/write-outcome-unknown"):
        return WriteOutcomeUnknown(response.status_code, body)
    default = ServerError if response.status_code >= 500 else ProblemError
    return _BY_STATUS.get(response.status_code, default)(response.status_code, body)

"""Every error leaves the API as RFC 9457 problem+json, shaped here and only here.

Body: ``{"type", "title", "status", "detail", "instance"}``, plus ``errors`` (a list of
``{"field", "message"}``) for validation failures and ``field`` when one field is at fault.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from beliefgraph.errors import (
    BeliefGraphError,
    Conflict,
    EmbeddingUnavailable,
    Forbidden,
    InvalidInput,
    NotFound,
    StoreUnavailable,
    Unauthenticated,
)

PROBLEM_JSON = "application/problem+json"
PROBLEM_BASE = "https://beliefgraph.dev/problems/"

log = logging.getLogger(__name__)

_STATUS: list[tuple[type[BeliefGraphError], int, str]] = [
    (InvalidInput, 422, "Invalid input"),
    (Unauthenticated, 401, "Unauthenticated"),
    (Forbidden, 403, "Forbidden"),
    (NotFound, 404, "Not found"),
    (Conflict, 409, "Conflict"),
    (StoreUnavailable, 503, "Store unavailable"),
    (EmbeddingUnavailable, 503, "Embedding model unavailable"),
]


def problem(
    request: Request,
    status: int,
    title: str,
    detail: str,
    *,
    slug: str,
    **extra: Any,
) -> JSONResponse:
    """A problem+json response."""
    body = {
        "type": PROBLEM_BASE + slug,
        "title": title,
        "status": status,
        "detail": detail,
        "instance": request.url.path,
        **extra,
    }
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON)


def _field_name(loc: tuple[Any, ...]) -> str:
    parts: list[str] = []
    for part in loc:
        if isinstance(part, int):
            parts.append(f"[{part}]")
        elif part in ("single", "batch") and parts == ["body"]:
            continue  # the tag of the one-or-batch union says nothing to a client
        else:
            parts.append(("." if parts else "") + str(part))
    return "".join(parts)


async def _on_validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = [{"field": _field_name(tuple(e["loc"])), "message": e["msg"]} for e in exc.errors()]
    fields = ", ".join(dict.fromkeys(e["field"] for e in errors))
    return problem(
        request,
        422,
        "Invalid request",
        f"invalid fields: {fields}",
        slug="validation-error",
        errors=errors,
    )


async def _on_domain(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, BeliefGraphError)
    status, title = next(
        ((status, title) for cls, status, title in _STATUS if isinstance(exc, cls)),
        (500, "Internal error"),
    )
    if status == 500:
        log.error("unmapped domain error", exc_info=exc)
    extra = {"field": exc.field} if exc.field else {}
    response = problem(request, status, title, exc.detail, slug=exc.slug, **extra)
    if status == 401:  # RFC 9110: a 401 names the scheme that would be accepted
        response.headers["WWW-Authenticate"] = 'Bearer realm="beliefgraph"'
    return response


async def _on_http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    slug = {404: "not-found", 405: "method-not-allowed", 413: "payload-too-large"}.get(
        exc.status_code, "http-error"
    )
    title = {404: "Not found", 405: "Method not allowed", 413: "Payload too large"}.get(
        exc.status_code, "HTTP error"
    )
    cause = exc.__cause__
    if exc.status_code == 400 and isinstance(cause, UnicodeDecodeError | RecursionError):
        # FastAPI's "There was an error parsing the body" names neither the field nor why
        why = (
            f"the body is not UTF-8: byte {cause.object[cause.start : cause.start + 1]!r} at "
            f"position {cause.start}"
            if isinstance(cause, UnicodeDecodeError)
            else "the body's JSON is nested deeper than this service reads"
        )
        return problem(request, 400, "Unreadable body", why, slug="unreadable-body", field="body")
    response = problem(request, exc.status_code, title, str(exc.detail), slug=slug)
    if exc.headers:  # a 405's Allow, which RFC 9110 requires
        response.headers.update(exc.headers)
    return response


async def _on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.error("unhandled error on %s", request.url.path, exc_info=exc)
    return problem(request, 500, "Internal error", "an unexpected error occurred", slug="internal")


def install(app: FastAPI) -> None:
    """Register the problem+json handlers on ``app``."""
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(BeliefGraphError, _on_domain)
    app.add_exception_handler(StarletteHTTPException, _on_http)
    app.add_exception_handler(Exception, _on_unexpected)

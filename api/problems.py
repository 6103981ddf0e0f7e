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


#: the error answers every operation may give, as its OpenAPI document declares them
ERROR_RESPONSES = {
    "400": "Unreadable body (not UTF-8, or JSON nested too deep)",
    "401": "No key, or a key that is not valid",
    "403": "The key's role or namespaces do not allow it",
    "404": "Not found (or not visible to the key)",
    "409": "Conflict (an id taken with other content, a guard)",
    "413": "Body over BELIEFGRAPH_MAX_BODY_BYTES",
    "422": "Invalid input: the field is named",
    "503": "Neo4j or the model is unavailable (a bounded wait); try again",
}
#: answered by the process alone: no key, no input, no database
PROCESS_ONLY_PATHS = frozenset({"/healthz", "/readyz"})
#: RFC 9457's members, and the two this service adds
PROBLEM_SCHEMA = {
    "type": "object",
    "required": ["type", "title", "status", "detail"],
    "properties": {
        "type": {"type": "string", "format": "uri"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "instance": {"type": "string"},
        "field": {"type": "string", "description": "The input at fault, when one is."},
        "errors": {
            "type": "array",
            "description": "Every invalid field of a 422.",
            "items": {"type": "object"},
        },
    },
}


def add_problem_responses(schema: dict[str, Any]) -> None:
    """Declare every operation's error answers in an OpenAPI document as what they are:
    ``application/problem+json`` with the Problem schema (FastAPI lists only its 422, as
    JSON); the server's own rules stay in the operations' descriptions."""
    schema.setdefault("components", {}).setdefault("schemas", {})["Problem"] = PROBLEM_SCHEMA
    ref = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
    for path, operations in schema.get("paths", {}).items():
        if path in PROCESS_ONLY_PATHS:
            continue
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            for code, description in ERROR_RESPONSES.items():
                given = responses.get(code, {})
                responses[code] = {
                    "description": given.get("description", description),
                    "content": ref,
                }
    schema["components"]["schemas"].pop("HTTPValidationError", None)
    schema["components"]["schemas"].pop("ValidationError", None)


def install(app: FastAPI) -> None:
    """Register the problem+json handlers on ``app``."""
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(BeliefGraphError, _on_domain)
    app.add_exception_handler(StarletteHTTPException, _on_http)
    app.add_exception_handler(Exception, _on_unexpected)
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        schema = generate()  # FastAPI's, cached on the app
        if "Problem" not in schema.get("components", {}).get("schemas", {}):
            add_problem_responses(schema)
        return schema

    app.openapi = openapi  # type: ignore[method-assign]

"""A route's result, serialised once."""

from __future__ import annotations

from fastapi import Response
from pydantic import BaseModel


def json_response(result: BaseModel) -> Response:
    """``result`` as JSON, serialised here, in the worker thread FastAPI runs a plain ``def``
    route in. Returned as a model, it would be dumped, validated again (in a second trip to
    the thread pool) and encoded: about a millisecond for a full context. Routes declare
    ``response_model`` to keep the OpenAPI schema."""
    return Response(result.model_dump_json(), media_type="application/json")

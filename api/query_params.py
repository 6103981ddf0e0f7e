"""Query parameters a route does not take, or given twice, are refused, not ignored.

A misspelt flag would otherwise pass silently and the request do what it was not asked:
``POST /v1/beliefs?dryrun=true`` (for ``dry_run``) would write, ``GET
/v1/beliefs?namespaces=...`` (for ``namespace``) would list every namespace the key sees.
"""

from __future__ import annotations

import weakref

from fastapi import Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from beliefgraph.errors import InvalidInput

#: what the OpenAPI document says of a ``cursor`` query parameter
CURSOR_DESCRIPTION = (
    "The next_cursor of the previous page, as returned: opaque (URL-safe base64 without "
    "padding). Anything else is a 422 naming `cursor`."
)

# Per route: (the route, weakly, and the names it takes). Apps come and go (tests build many)
# and a dead route's id can be reused, so an entry counts only while its route is the same.
# (An APIRoute defines __eq__ and is no dict key.)
_KNOWN: dict[int, tuple[weakref.ref[APIRoute], frozenset[str]]] = {}


def _names(dependant: Dependant) -> set[str]:
    names = {p.alias for p in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _names(sub)
    return names


async def known_query_only(request: Request) -> None:
    """Refuse the request when its query names a parameter its route does not take.

    Raises:
        InvalidInput: an unknown parameter (422, naming it and the ones the route takes).
    """
    if not request.query_params:
        return
    route = request.scope.get("route")
    if not isinstance(route, APIRoute):
        return
    entry = _KNOWN.get(id(route))
    if entry is None or entry[0]() is not route:
        entry = _KNOWN[id(route)] = (weakref.ref(route), frozenset(_names(route.dependant)))
    known = entry[1]
    unknown = sorted(set(request.query_params) - known)
    if unknown:
        takes = ", ".join(sorted(known)) if known else "no query parameters"
        raise InvalidInput(
            f"unknown query parameter {unknown[0]!r}; this route takes {takes}", field=unknown[0]
        )
    # every parameter a route takes holds one value: "?dry_run=true&dry_run=false" would
    # otherwise be read as one of the two, silently
    repeated = sorted(
        k for k in set(request.query_params) if len(request.query_params.getlist(k)) > 1
    )
    if repeated:
        raise InvalidInput(
            f"query parameter {repeated[0]!r} is given more than once; give it once",
            field=repeated[0],
        )

"""One request and how its answer reads; each route once, for both clients."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import (
    TYPE_CHECKING,
    Any,
    Concatenate,
    Generic,
    ParamSpec,
    Protocol,
    Self,
    TypeVar,
    overload,
)
from urllib.parse import quote

import httpx2
from pydantic import BaseModel, TypeAdapter, ValidationError

from beliefgraph.access import Role
from beliefgraph.audit import AuditAction, AuditPage, Verification
from beliefgraph.client.errors import UnexpectedAnswer, WriteOutcomeUnknown, problem_error
from beliefgraph.importer.input import LogFormat
from beliefgraph.importer.jobs import ImportJobPublic
from beliefgraph.keys import ApiKeyCreated, ApiKeyPublic
from beliefgraph.models import (
    ActionType,
    BeliefCreate,
    BeliefPage,
    BeliefPublic,
    BeliefsCreated,
    Chain,
    GatePreview,
    Health,
    Kind,
    NamespacePublic,
    PrecedenceEdge,
    Ready,
    Status,
)
from beliefgraph.planner.models import QueryResult
from beliefgraph.search.context_models import ContextResponse, SearchResponse

if TYPE_CHECKING:
    from beliefgraph.client.clients import AsyncClient, Client


#: where the API is when neither ``base_url`` nor ``BELIEFGRAPH_URL`` says
DEFAULT_URL = "http://127.0.0.1:8000"
#: seconds for one request: above the server's own bounded waits (a write queues up to 30 s)
DEFAULT_TIMEOUT = 60.0
#: the longest pause between two tries
MAX_PAUSE = 8.0

P = ParamSpec("P")
T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
M = TypeVar("M", bound=BaseModel)
I_co = TypeVar("I_co", covariant=True)


# -- one request, and how its answer reads ---------------------------------------------------


@dataclass(frozen=True)
class Call(Generic[T_co]):
    """One request of a route, and how to read its answer."""

    method: str
    path: str
    read: Callable[[httpx2.Response], T_co]
    params: Mapping[str, Any] | None = None
    json: Any = None
    content: bytes | None = None
    #: statuses of 400 or more that are an answer here, not an error (readiness's 503)
    answers: frozenset[int] = frozenset()

    def retry_after(self, response: httpx2.Response, attempt: int, backoff: float) -> float | None:
        """Seconds to wait before trying again after ``response``, or ``None``: do not."""
        if response.status_code != 503 or 503 in self.answers:
            return None
        if isinstance(problem_error(response), WriteOutcomeUnknown):
            return None  # it may be stored: the caller decides, with the same ids
        return pause(backoff, attempt)

    def answer(self, response: httpx2.Response) -> T_co:
        """The answer read from ``response``.

        Raises:
            ProblemError: the server answered with an error.
            UnexpectedAnswer: the answer is not what the route answers.
        """
        if response.status_code >= 400 and response.status_code not in self.answers:
            raise problem_error(response)
        try:
            return self.read(response)
        except ValidationError as e:
            what = f"{self.method} {self.path} answered {response.status_code}"
            raise UnexpectedAnswer(f"{what}, which does not read as expected: {e}") from e


def pause(backoff: float, attempt: int) -> float:
    """Seconds to wait before try ``attempt + 2``: ``backoff`` doubled each time, at most
    :data:`MAX_PAUSE`."""
    return min(MAX_PAUSE, backoff * 2.0**attempt)


def _model(cls: type[M]) -> Callable[[httpx2.Response], M]:
    return lambda response: cls.model_validate_json(response.content)


def _list(cls: type[M]) -> Callable[[httpx2.Response], list[M]]:
    adapter = TypeAdapter(list[cls])  # type: ignore[valid-type]  # a class at run time
    return lambda response: adapter.validate_json(response.content)


def _nothing(response: httpx2.Response) -> None:
    return None


def _id(value: str) -> str:
    """An id as one path segment: "../keys" names no other route."""
    return quote(value, safe="")


def _json(value: Any) -> Any:
    """A request body: models as the fields they were given (an unset field is the server's
    to default: an agent key's belief that names no trust is trusted as an agent)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_unset=True)
    if isinstance(value, list):
        return [_json(v) for v in value]
    return value


def _given(**fields: Any) -> dict[str, Any]:
    """The fields given, for a query or a body: ``None`` is not sent, so the server's own
    default applies (and a query parameter the route lacks, which it refuses, is never sent)."""
    return {
        k: v.isoformat() if isinstance(v, datetime) else v
        for k, v in fields.items()
        if v is not None
    }


# -- each route once, for both clients --------------------------------------------------------


class _Route(Generic[P, T_co]):
    """A route as a method of both clients, written once as a function that builds its
    :class:`Call`: a :class:`Client` sends it and returns the answer, an :class:`AsyncClient`
    returns an awaitable of it. (One method cannot be typed as returning ``T`` on one class
    and ``Awaitable[T]`` on the other; without this every route would be written twice.)"""

    def __init__(self, build: Callable[Concatenate[Any, P], Call[T_co]]) -> None:
        self.build = build
        self.__doc__ = build.__doc__

    @overload
    def __get__(self, client: None, owner: type) -> Self: ...
    @overload
    def __get__(self, client: Client, owner: type) -> Callable[P, T_co]: ...
    @overload
    def __get__(self, client: AsyncClient, owner: type) -> Callable[P, Awaitable[T_co]]: ...
    def __get__(self, client: Any, owner: type) -> Any:
        if client is None:
            return self
        build = self.build

        @functools.wraps(build)
        def send(*args: Any, **kwargs: Any) -> Any:
            return client._send(build(client, *args, **kwargs))

        return send


class Page(Protocol[I_co]):
    @property
    def items(self) -> Sequence[I_co]: ...
    @property
    def next_cursor(self) -> str | None: ...


class _Pages(Generic[P, I_co]):
    """Every item of a paged route, as an iterator that asks for each page in turn (an async
    iterator on an :class:`AsyncClient`); the route's own arguments filter it."""

    def __init__(self, route: _Route[P, Page[I_co]]) -> None:
        self.build = route.build
        self.__doc__ = f"Every item of ``{route.build.__name__}``, page after page."

    @overload
    def __get__(self, client: None, owner: type) -> Self: ...
    @overload
    def __get__(self, client: Client, owner: type) -> Callable[P, Iterator[I_co]]: ...
    @overload
    def __get__(self, client: AsyncClient, owner: type) -> Callable[P, AsyncIterator[I_co]]: ...
    def __get__(self, client: Any, owner: type) -> Any:
        if client is None:
            return self
        build = self.build

        def iterate(*args: Any, **kwargs: Any) -> Any:
            def page(cursor: str | None) -> Call[Any]:
                return build(client, *args, **{**kwargs, "cursor": cursor})

            return client._iterate(page, kwargs.get("cursor"))

        return iterate


class Routes:
    """The REST API, one method a route (see ``README.md`` for what each does)."""

    @_Route
    def health(self) -> Call[Health]:
        """Liveness (``GET /healthz``)."""
        return Call("GET", "/healthz", _model(Health))

    @_Route
    def ready(self) -> Call[Ready]:
        """Readiness (``GET /readyz``): ``ready`` is false, with a reason, on a 503."""
        return Call("GET", "/readyz", _model(Ready), answers=frozenset({503}))

    @_Route
    def create(self, belief: BeliefCreate) -> Call[BeliefPublic]:
        """Store one belief through the curation gate (``POST /v1/beliefs``): the stored
        belief, or for a ``noop``/``subsumed`` verdict the existing one, reinforced. Use
        :meth:`create_batch` to see the gate's decision."""
        return Call("POST", "/v1/beliefs", _model(BeliefPublic), json=_json(belief))

    @_Route
    def create_batch(self, beliefs: Sequence[BeliefCreate]) -> Call[BeliefsCreated]:
        """Store beliefs in one transaction, all or nothing, with the gate's decision on each."""
        body = {"beliefs": _json(list(beliefs))}
        return Call("POST", "/v1/beliefs", _model(BeliefsCreated), json=body)

    @_Route
    def preview(self, beliefs: Sequence[BeliefCreate]) -> Call[GatePreview]:
        """The gate's verdict on each belief; nothing is written (``?dry_run=true``)."""
        body = {"beliefs": _json(list(beliefs))}
        params = {"dry_run": True}
        return Call("POST", "/v1/beliefs", _model(GatePreview), params=params, json=body)

    @_Route
    def get(self, belief_id: str) -> Call[BeliefPublic]:
        """One belief, whatever its status."""
        return Call("GET", f"/v1/beliefs/{_id(belief_id)}", _model(BeliefPublic))

    @_Route
    def list_beliefs(
        self,
        *,
        namespace: str | None = None,
        kind: Kind | None = None,
        status: Status | None = None,
        cursor: str | None = None,
        limit: int | None = None,
    ) -> Call[BeliefPage]:
        """One page of beliefs in creation order; ``next_cursor`` asks for the next."""
        params = _given(namespace=namespace, kind=kind, status=status, cursor=cursor, limit=limit)
        return Call("GET", "/v1/beliefs", _model(BeliefPage), params=params)

    iter_beliefs = _Pages(list_beliefs)

    @_Route
    def retract(self, belief_id: str, reason: str | None = None) -> Call[BeliefPublic]:
        """Retract a belief (kept, marked retracted); ``reason`` goes to the audit log."""
        params = _given(reason=reason)
        return Call("DELETE", f"/v1/beliefs/{_id(belief_id)}", _model(BeliefPublic), params=params)

    @_Route
    def supersede(
        self,
        belief_id: str,
        reason: str,
        *,
        by: BeliefCreate | None = None,
        by_id: str | None = None,
    ) -> Call[Chain]:
        """Replace a belief by a new one (``by``) or a stored one (``by_id``); the chain."""
        body = {k: _json(v) for k, v in {"by": by, "by_id": by_id}.items() if v is not None}
        body["reason"] = reason
        return Call("POST", f"/v1/beliefs/{_id(belief_id)}/supersede", _model(Chain), json=body)

    @_Route
    def chain(self, belief_id: str) -> Call[Chain]:
        """The supersession chain through a belief, oldest first, head last."""
        return Call("GET", f"/v1/beliefs/{_id(belief_id)}/chain", _model(Chain))

    @_Route
    def namespaces(self) -> Call[list[NamespacePublic]]:
        """The namespaces the key may see, with their belief counts."""
        return Call("GET", "/v1/namespaces", _list(NamespacePublic))

    @_Route
    def override(self, belief_id: str, other: str, reason: str) -> Call[PrecedenceEdge]:
        """``belief_id`` governs before ``other`` (an ``OVERRIDES`` edge; curator)."""
        body = {"other": other, "reason": reason}
        path = f"/v1/beliefs/{_id(belief_id)}/overrides"
        return Call("POST", path, _model(PrecedenceEdge), json=body)

    @_Route
    def remove_override(self, belief_id: str, other: str) -> Call[None]:
        """Remove the ``OVERRIDES`` edge from ``belief_id`` to ``other``."""
        return Call("DELETE", f"/v1/beliefs/{_id(belief_id)}/overrides/{_id(other)}", _nothing)

    @_Route
    def narrow(self, belief_id: str, other: str, reason: str) -> Call[PrecedenceEdge]:
        """``belief_id``'s scope is narrower than ``other``'s (``NARROWS``; admin)."""
        body = {"other": other, "reason": reason}
        return Call(
            "POST", f"/v1/beliefs/{_id(belief_id)}/narrows", _model(PrecedenceEdge), json=body
        )

    @_Route
    def remove_narrow(self, belief_id: str, other: str) -> Call[None]:
        """Remove the ``NARROWS`` edge between the two beliefs' scopes."""
        return Call("DELETE", f"/v1/beliefs/{_id(belief_id)}/narrows/{_id(other)}", _nothing)

    @_Route
    def query(
        self, query: str, namespaces: Sequence[str], action_type: ActionType | None = None
    ) -> Call[QueryResult]:
        """Which belief governs ``query``, and what the agent may do (``POST /v1/query``)."""
        body = _given(query=query, namespaces=list(namespaces), action_type=action_type)
        return Call("POST", "/v1/query", _model(QueryResult), json=body)

    @_Route
    def search(
        self,
        query: str,
        namespaces: Sequence[str],
        *,
        user: str | None = None,
        limit: int | None = None,
        kinds: Sequence[Kind] | None = None,
    ) -> Call[SearchResponse]:
        """The beliefs ``query`` names, ranked, with a score breakdown."""
        body = _given(
            query=query,
            namespaces=list(namespaces),
            user=user,
            limit=limit,
            kinds=None if kinds is None else list(kinds),
        )
        return Call("POST", "/v1/search", _model(SearchResponse), json=body)

    @_Route
    def context(
        self,
        user: str,
        namespaces: Sequence[str],
        message: str = "",
        *,
        budget: int | None = None,
        persona_namespaces: Sequence[str] | None = None,
    ) -> Call[ContextResponse]:
        """Layered context for the start of a turn: persona, pinned, relevant, open questions."""
        body = _given(
            user=user,
            namespaces=list(namespaces),
            message=message,
            budget=budget,
            persona_namespaces=None if persona_namespaces is None else list(persona_namespaces),
        )
        return Call("POST", "/v1/context", _model(ContextResponse), json=body)

    @_Route
    def list_audit(
        self,
        *,
        action: AuditAction | None = None,
        since: datetime | None = None,
        belief: str | None = None,
        cursor: str | None = None,
        limit: int | None = None,
    ) -> Call[AuditPage]:
        """One page of audit events in the key's namespaces, newest first."""
        params = _given(action=action, since=since, belief=belief, cursor=cursor, limit=limit)
        return Call("GET", "/v1/audit", _model(AuditPage), params=params)

    iter_audit = _Pages(list_audit)

    @_Route
    def verify_audit(self, chain: str | None = None) -> Call[Verification]:
        """Verify the audit chains (an admin key over every namespace)."""
        return Call("GET", "/v1/audit/verify", _model(Verification), params=_given(chain=chain))

    @_Route
    def create_key(
        self, name: str, role: Role, namespaces: Sequence[str] | None = None
    ) -> Call[ApiKeyCreated]:
        """Make an API key (admin); its secret is in this answer only."""
        body = {
            "name": name,
            "role": role,
            "namespaces": None if namespaces is None else [*namespaces],
        }
        return Call("POST", "/v1/keys", _model(ApiKeyCreated), json=body)

    @_Route
    def list_keys(self) -> Call[list[ApiKeyPublic]]:
        """Every key the admin key may manage, never a secret."""
        return Call("GET", "/v1/keys", _list(ApiKeyPublic))

    @_Route
    def revoke_key(self, key_id: str) -> Call[ApiKeyPublic]:
        """Revoke a key at once."""
        return Call("DELETE", f"/v1/keys/{_id(key_id)}", _model(ApiKeyPublic))

    @_Route
    def start_import(
        self,
        log: bytes | str,
        *,
        namespace: str,
        format: LogFormat = LogFormat.auto,
        user: str | None = None,
        skip_invalid: bool = False,
        dry_run: bool = False,
    ) -> Call[ImportJobPublic]:
        """Import a conversation log (its bytes) as a background job (curator); poll it with
        :meth:`import_job`, or wait for it with ``wait_import``."""
        params = _given(
            namespace=namespace,
            format=format,
            user=user,
            skip_invalid=skip_invalid,
            dry_run=dry_run,
        )
        content = log.encode() if isinstance(log, str) else log
        return Call("POST", "/v1/imports", _model(ImportJobPublic), params=params, content=content)

    @_Route
    def import_job(self, job_id: str) -> Call[ImportJobPublic]:
        """An import job's state, progress and summary."""
        return Call("GET", f"/v1/imports/{_id(job_id)}", _model(ImportJobPublic))

"""A typed Python client of the REST API: :class:`Client` (sync) and :class:`AsyncClient`.

>>> from beliefgraph.client import Client
>>> with Client() as bg:  # doctest: +SKIP
...     # http://127.0.0.1:8000 (BELIEFGRAPH_URL), the key from BELIEFGRAPH_API_KEY
...     answer = bg.query("Can I send the guest the Wi-Fi password?", ["user:sample"])
...     answer.action, answer.governing and answer.governing.text

Every REST route is a method of both clients, written once (:class:`_Routes`), and answers
with the API's own pydantic models (``beliefgraph.models``, ``planner_models``, ...): the
async client's methods are the same, awaited. Listings come whole as iterators that fetch
page after page (``iter_beliefs``, ``iter_audit``). A 503 (Neo4j away, the write queue
full) and a connection that could not be opened are tried again ``retries`` times with
exponential back-off; a 503 ``write-outcome-unknown`` is not (the write may be stored: send
it again with the same ids). Everything else is raised at once::

    ClientError                 what this client raises
    ├── ConnectionFailed        no answer: the server could not be reached, or timed out
    ├── UnexpectedAnswer        an answer that does not read as the API's model of it
    └── ProblemError            an RFC 9457 problem: status, title, detail, field, errors
        ├── BadRequest          400, 413, 422: the request is wrong (``field`` says where)
        ├── Unauthorized        401: no key, or an unknown or revoked one
        ├── PermissionDenied    403: the key's role may not do it
        ├── NotFoundError       404: nothing the key may see has that id
        ├── ConflictError       409: an invariant of the graph or a guard refused it
        ├── ServerError         500 and other statuses nothing above names
        └── Unavailable         503, after the retries
            └── WriteOutcomeUnknown  the write may or may not be stored

HTTP is httpx2, the maintained httpx (same API; the mcp SDK and starlette's TestClient use
it too). ``transport=`` takes any httpx2 transport: ``httpx2.ASGITransport(app)`` talks to
an app in this process, as ``beliefgraph mcp`` does.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Concatenate, Generic, ParamSpec, Protocol, Self, TypeVar, overload
from urllib.parse import quote

import anyio
import httpx2
from pydantic import BaseModel, TypeAdapter, ValidationError

import beliefgraph
from beliefgraph.access import Role
from beliefgraph.audit import AuditAction, AuditPage, Verification
from beliefgraph.context_models import ContextResponse, SearchResponse
from beliefgraph.importer import ImportJobPublic, LogFormat
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
from beliefgraph.planner_models import QueryResult

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


class _Page(Protocol[I_co]):
    @property
    def items(self) -> Sequence[I_co]: ...
    @property
    def next_cursor(self) -> str | None: ...


class _Pages(Generic[P, I_co]):
    """Every item of a paged route, as an iterator that asks for each page in turn (an async
    iterator on an :class:`AsyncClient`); the route's own arguments filter it."""

    def __init__(self, route: _Route[P, _Page[I_co]]) -> None:
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


class _Routes:
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


# -- the two clients -------------------------------------------------------------------------


class _Base(_Routes):
    """What the two clients share: the key, the retries."""

    def __init__(self, api_key: str | None, retries: int, backoff: float) -> None:
        key = api_key if api_key is not None else os.environ.get("BELIEFGRAPH_API_KEY")
        self._headers = {"User-Agent": f"beliefgraph-client/{beliefgraph.__version__}"}
        if key:
            self._headers["Authorization"] = f"Bearer {key}"
        self.retries = retries
        self.backoff = backoff

    def with_key(self, api_key: str | None) -> Self:
        """This client (its connections, its retries) with another key: ``None`` for none.
        Closing it closes this one too."""
        other = self.__class__.__new__(self.__class__)
        other.__dict__.update(self.__dict__)
        _Base.__init__(other, api_key or "", self.retries, self.backoff)
        return other

    def _request(self, call: Call[Any]) -> dict[str, Any]:
        return {
            "method": call.method,
            "url": call.path,
            "params": call.params,
            "json": call.json,
            "content": call.content,
            "headers": self._headers,
        }

    def _unreachable(self, error: httpx2.TransportError, attempt: int) -> float:
        """The pause before trying again after ``error``.

        Raises:
            ConnectionFailed: no more tries, or a failure after the request may have gone.
        """
        # only a connection that was never opened is safe to try again: nothing was sent
        if not isinstance(error, httpx2.ConnectError) or attempt >= self.retries:
            raise ConnectionFailed(f"no answer from the beliefgraph API: {error!r}") from error
        return pause(self.backoff, attempt)


def _base_url(base_url: str | None) -> str:
    return base_url or os.environ.get("BELIEFGRAPH_URL") or DEFAULT_URL


class Client(_Base):
    """The REST API, synchronously. A context manager; close it when done.

    Args:
        base_url: the API's address (default ``BELIEFGRAPH_URL``, else :data:`DEFAULT_URL`).
        api_key: the key (default ``BELIEFGRAPH_API_KEY``; none with ``BELIEFGRAPH_AUTH=off``).
        timeout: seconds for one request.
        retries: tries after the first on a 503 or a connection refused.
        backoff: the first pause between tries in seconds, doubled each time.
        transport: an httpx2 transport to use instead of the network.
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        retries: int = 3,
        backoff: float = 0.5,
        transport: httpx2.BaseTransport | None = None,
    ) -> None:
        super().__init__(api_key, retries, backoff)
        url = _base_url(base_url)
        self._http = httpx2.Client(base_url=url, timeout=timeout, transport=transport)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connections."""
        self._http.close()

    def wait_import(self, job_id: str, timeout: float = 60.0, poll: float = 0.5) -> ImportJobPublic:
        """The import job once it has finished, or as it is after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not (job := self.import_job(job_id)).finished and time.monotonic() < deadline:
            time.sleep(poll)
        return job

    def _send(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            try:
                response = self._http.request(**self._request(call))
            except httpx2.TransportError as e:
                pause = self._unreachable(e, attempt)
            else:
                wait = call.retry_after(response, attempt, self.backoff)
                if wait is None or attempt >= self.retries:
                    return call.answer(response)
                pause = wait
            time.sleep(pause)
            attempt += 1

    def _iterate(
        self, page: Callable[[str | None], Call[_Page[T]]], cursor: str | None
    ) -> Iterator[T]:
        while True:
            answer = self._send(page(cursor))
            yield from answer.items
            if (cursor := answer.next_cursor) is None:
                return


class AsyncClient(_Base):
    """The REST API, asynchronously (asyncio or trio): :class:`Client`'s methods, awaited;
    the iterators are ``async for``. An async context manager; close it when done."""

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        retries: int = 3,
        backoff: float = 0.5,
        transport: httpx2.AsyncBaseTransport | None = None,
    ) -> None:
        super().__init__(api_key, retries, backoff)
        url = _base_url(base_url)
        self._http = httpx2.AsyncClient(base_url=url, timeout=timeout, transport=transport)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connections."""
        await self._http.aclose()

    async def wait_import(
        self, job_id: str, timeout: float = 60.0, poll: float = 0.5
    ) -> ImportJobPublic:
        """The import job once it has finished, or as it is after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not (job := await self.import_job(job_id)).finished and time.monotonic() < deadline:
            await anyio.sleep(poll)
        return job

    async def _send(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            try:
                response = await self._http.request(**self._request(call))
            except httpx2.TransportError as e:
                pause = self._unreachable(e, attempt)
            else:
                wait = call.retry_after(response, attempt, self.backoff)
                if wait is None or attempt >= self.retries:
                    return call.answer(response)
                pause = wait
            await anyio.sleep(pause)
            attempt += 1

    async def _iterate(
        self, page: Callable[[str | None], Call[_Page[T]]], cursor: str | None
    ) -> AsyncIterator[T]:
        while True:
            answer = await self._send(page(cursor))
            for item in answer.items:
                yield item
            if (cursor := answer.next_cursor) is None:
                return

"""A typed Python client of the REST API: :class:`Client` (sync) and :class:`AsyncClient`.

>>> from beliefgraph.client import Client
>>> with Client() as bg:  # doctest: +SKIP
...     # http://127.0.0.1:8000 (BELIEFGRAPH_URL), the key from BELIEFGRAPH_API_KEY
...     answer = bg.query("Can I send the guest the Wi-Fi password?", ["user:sample"])
...     answer.action, answer.governing and answer.governing.text

Every REST route is a method of both clients, written once (:class:`Routes`), and answers
with the API's own pydantic models (``beliefgraph.models``, ``beliefgraph.planner.models``,
...): the async client's methods are the same, awaited. Listings come whole as iterators that fetch
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

import os
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, Self

import anyio
import httpx2

import beliefgraph
from beliefgraph.client.calls import DEFAULT_TIMEOUT, DEFAULT_URL, Call, Page, Routes, T, pause
from beliefgraph.client.errors import ConnectionFailed
from beliefgraph.importer.jobs import ImportJobPublic

# -- the two clients -------------------------------------------------------------------------


class _Base(Routes):
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
        self, page: Callable[[str | None], Call[Page[T]]], cursor: str | None
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
        self, page: Callable[[str | None], Call[Page[T]]], cursor: str | None
    ) -> AsyncIterator[T]:
        while True:
            answer = await self._send(page(cursor))
            for item in answer.items:
                yield item
            if (cursor := answer.next_cursor) is None:
                return

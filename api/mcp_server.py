"""``beliefgraph mcp``: the REST API's work as Model Context Protocol tools.

Every tool is one call of the REST API through :mod:`beliefgraph.client`, made with the
caller's own key: the key is looked up, and its role and namespaces enforced, by the very
code that does it over REST (an agent key writes as an agent, inferred and low-trust, never a
rule), and a refusal comes back as an MCP tool error carrying the problem's title and detail.
Nothing here decides anything about beliefs. Three ways to serve it:

- **streamable HTTP beside the REST API**: ``beliefgraph serve`` answers MCP at ``/mcp``
  (:func:`mount`); the tools use the key each request carries and call the app in-process;
- **stdio, the app in this process** (``beliefgraph mcp``): Neo4j and the model are opened
  here, the key is ``BELIEFGRAPH_API_KEY``;
- **stdio through a running server** (``beliefgraph mcp --url http://host:8000``).

>>> server = build(AsyncClient("http://127.0.0.1:8000"), keys_from_requests=False)
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx2
from fastapi import FastAPI
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field, ValidationError
from starlette.requests import Request
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

import beliefgraph
from api.problems import problem
from beliefgraph.client import AsyncClient, ClientError
from beliefgraph.config import Settings
from beliefgraph.importer.input import LogFormat
from beliefgraph.importer.jobs import ImportJobPublic
from beliefgraph.models import (
    ActionClass,
    ActionType,
    BeliefCreate,
    BeliefPublic,
    Chain,
    GateDecision,
    Kind,
    Status,
)
from beliefgraph.planner.models import Contest
from beliefgraph.search.context_models import ContextResponse, SearchResponse

T = TypeVar("T")

#: where MCP is served beside the REST API
MCP_PATH = "/mcp"
#: the base URL of the app when it is called in-process (never resolved: no network)
IN_PROCESS_URL = "http://beliefgraph.in-process"
#: the longest ``import_log`` waits for its job before answering with the job as it is
IMPORT_WAIT_SECONDS = 30.0
#: candidates named in the short trace of ``which_belief_governs``
TRACE_CANDIDATES = 8

INSTRUCTIONS = """\
beliefgraph is your long-term memory, kept as beliefs with authority: which memory is
allowed to govern an action, not only which is most similar. Before you act on something
you remember (share a password, give a dose, pay, delete, change a setting), call
which_belief_governs and do what its `action` says: block, verify_first, warn, answer or
answer_context. Call context at the start of a turn; remember what the user tells you."""


class Governance(BaseModel):
    """Which belief governs a request, what the agent may do, and a short trace of why."""

    action: ActionClass = Field(
        description="block: do not; verify_first: check before acting; warn: answer and say "
        "it is disputed; answer: the governing belief answers; answer_context: nothing "
        "governs, use it as context; archive_only: only history is stored."
    )
    governing: BeliefPublic | None
    reason: str
    contests: list[Contest]
    trace: list[str] = Field(
        description="The decision step by step, the candidates that lost and why, the chain."
    )


class Remembered(BaseModel):
    """What the curation gate did with a belief to remember."""

    belief: BeliefPublic = Field(
        description="The stored belief; for a noop or subsumed verdict the existing one."
    )
    decision: GateDecision | None = Field(
        description="The gate's verdict (add, noop, compatible, contradicts, subsumes, "
        "subsumed) and why; none when the same write with the same id was stored before."
    )


def build(api: AsyncClient, *, keys_from_requests: bool, read_files: bool = False) -> MCPServer:
    """The MCP server: its tools call the REST API through ``api``.

    Args:
        api: the REST API, in-process or at a URL, with the key of stdio's caller.
        keys_from_requests: each call uses the key of its HTTP request (``Authorization``),
            not ``api``'s: the streamable HTTP transport, where every request says who it is.
        read_files: ``import_log`` may read a ``path`` (stdio only: over HTTP a path would be
            read on the server, not on the caller's machine).
    """
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    server = MCPServer("beliefgraph", version=beliefgraph.__version__, instructions=INSTRUCTIONS)
    # Making a server configures the root logger (rich, INFO: every HTTP request logged, long
    # lines wrapped); this process's logging is uvicorn's and the CLI's, so it is put back.
    root.handlers[:] = handlers
    root.setLevel(level)
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    changes = ToolAnnotations(destructive_hint=True, open_world_hint=False)

    async def call(ctx: Context, work: Callable[[AsyncClient], Awaitable[T]]) -> T:
        """``work`` with the caller's key; an error as a tool error the model can read."""
        client = api
        if keys_from_requests:  # the request's bearer key (REST reads any other as none)
            scheme, _, key = (ctx.headers or {}).get("authorization", "").partition(" ")
            client = api.with_key(key.strip() if scheme.lower() == "bearer" else None)
        try:
            return await work(client)
        except ClientError as e:  # the REST problem's title and detail
            raise ToolError(str(e)) from e
        except ValidationError as e:  # arguments that make no belief
            raise ToolError(f"Invalid input: {_fields(e)}") from e

    @server.tool(annotations=read_only)
    async def which_belief_governs(
        query: str,
        namespaces: list[str],
        ctx: Context,
        action_type: ActionType | None = None,
    ) -> Governance:
        """Which stored belief is allowed to govern a request, and what you may do.

        Call this BEFORE acting on a remembered fact - before sharing a password, giving a
        dose, paying, deleting or changing something - with the request in the user's words.
        The most similar memory is often not the one with authority: a newer correction
        replaces an old value, a policy says to check first. Follow `action`.
        `action_type` (read, write, execute) is inferred from the query when not given.
        """
        result = await call(ctx, lambda bg: bg.query(query, namespaces, action_type))
        trace = list(result.trace.steps)
        trace += [
            f"{c.outcome} {c.id} ({c.lane}): {c.why}"
            for c in result.trace.candidates[:TRACE_CANDIDATES]
        ]
        if len(result.trace.chain) > 1:
            trace.append("supersession chain: " + " -> ".join(result.trace.chain))
        return Governance(
            action=result.action,
            governing=result.governing,
            reason=result.reason,
            contests=result.contests,
            trace=trace,
        )

    @server.tool(annotations=read_only)
    async def context(
        user: str,
        namespaces: list[str],
        message: str,
        ctx: Context,
        budget: int | None = None,
    ) -> ContextResponse:
        """What to keep in mind at the start of a turn, for one user: their universal
        preferences (persona prelude), pinned facts, the beliefs relevant to the message,
        and open questions, each with why it matters. `budget` caps pinned plus relevant."""
        return await call(ctx, lambda bg: bg.context(user, namespaces, message, budget=budget))

    @server.tool(annotations=read_only)
    async def search(
        query: str,
        namespaces: list[str],
        ctx: Context,
        user: str | None = None,
        limit: int | None = None,
        kinds: list[Kind] | None = None,
    ) -> SearchResponse:
        """The beliefs a query names (by name, alias or most of their words), best first,
        with a score breakdown. Superseded, retracted and archived beliefs never appear."""
        return await call(
            ctx, lambda bg: bg.search(query, namespaces, user=user, limit=limit, kinds=kinds)
        )

    @server.tool()
    async def remember(
        text: str,
        kind: Kind,
        namespaces: list[str],
        ctx: Context,
        status: Status | None = None,
        about: list[str] | None = None,
        user: str | None = None,
        why_it_matters: str | None = None,
        id: str | None = None,
    ) -> Remembered:
        """Store a belief through the curation gate, which compares it with what is stored
        and decides: add, noop (already known: reinforced), compatible, contradicts (it
        supersedes the old one), subsumes or subsumed; the answer says which and why.

        An agent key writes as an agent: an `observation`, or another non-authority kind
        with status `inferred`, trusted low; never a policy, credential, correction or
        decision, and what it contradicts of a person's is stored contested, not replaced.
        `about` names the things the belief is about; `id` makes a retry safe.
        """
        fields: dict[str, Any] = {"text": text, "kind": kind, "namespaces": namespaces}
        given = {"status": status, "user": user, "why_it_matters": why_it_matters, "id": id}
        fields |= {k: v for k, v in given.items() if v is not None}
        if about:
            fields["about"] = about

        async def write(bg: AsyncClient) -> Remembered:
            created = await bg.create_batch([BeliefCreate.model_validate(fields)])
            [belief] = created.beliefs
            return Remembered(belief=belief, decision=next(iter(created.decisions), None))

        return await call(ctx, write)

    @server.tool(annotations=read_only)
    async def supersession_chain(id: str, ctx: Context) -> Chain:
        """The chain of beliefs that replaced one another through this one, oldest first,
        the current one (head) last, with when and why each replaced the one before."""
        return await call(ctx, lambda bg: bg.chain(id))

    @server.tool(annotations=changes)
    async def retract(id: str, reason: str, ctx: Context) -> BeliefPublic:
        """Retract a belief that is wrong: it is kept, marked retracted, and never governs
        or appears in context again. The reason goes to the audit log."""
        return await call(ctx, lambda bg: bg.retract(id, reason))

    @server.tool(annotations=changes)
    async def supersede(
        id: str,
        reason: str,
        ctx: Context,
        by: str | None = None,
        by_id: str | None = None,
        status: Status | None = None,
    ) -> Chain:
        """Replace a belief: by a new belief with the text `by` (of the old one's kind and
        namespaces; `status` as in remember), or by a stored belief `by_id`. Give exactly
        one. Answers the chain, oldest first."""

        async def replace(bg: AsyncClient) -> Chain:
            new = None
            if by is not None:
                old = await bg.get(id)
                fields = {"text": by, "kind": old.kind, "namespaces": old.namespaces}
                new = BeliefCreate.model_validate(fields | ({"status": status} if status else {}))
            return await bg.supersede(id, reason, by=new, by_id=by_id)

        return await call(ctx, replace)

    @server.tool()
    async def import_log(
        namespace: str,
        ctx: Context,
        text: str | None = None,
        path: str | None = None,
        format: LogFormat = LogFormat.auto,
        user: str | None = None,
    ) -> ImportJobPublic:
        """Import a conversation log (curator keys): JSON Lines messages, OpenAI-style
        messages, or a ChatGPT/Claude export, given as `text` or (stdio only) a file `path`.
        Each statement becomes a belief attributed to its speaker. Waits up to 30 s for the
        job; a job still running is answered as it is (see import_status)."""
        if (text is None) == (path is None):
            raise ToolError("give exactly one of 'text' (the log) or 'path' (a file)")
        if path is not None and not read_files:
            raise ToolError("a path is read on the server over HTTP: send the log as 'text'")
        log = text.encode() if text is not None else _read(path)

        async def start(bg: AsyncClient) -> ImportJobPublic:
            job = await bg.start_import(log, namespace=namespace, format=format, user=user)
            return await bg.wait_import(job.id, timeout=IMPORT_WAIT_SECONDS)

        return await call(ctx, start)

    @server.tool(annotations=read_only)
    async def import_status(job_id: str, ctx: Context) -> ImportJobPublic:
        """An import job's state (queued, running, succeeded, failed), progress, summary."""
        return await call(ctx, lambda bg: bg.import_job(job_id))

    return server


def _fields(error: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'input'}: {e['msg']}" for e in error.errors()
    )


def _read(path: str | None) -> bytes:
    assert path is not None
    try:
        return Path(path).expanduser().read_bytes()
    except OSError as e:
        raise ToolError(f"cannot read {path}: {e.strerror or e}") from e


# -- streamable HTTP beside the REST API -------------------------------------------------------


class _KeyRequired:
    """``/mcp`` answers only requests that carry a key, as every REST route does (which key,
    and what it may do, REST itself checks on each tool call)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers", []))
        if self.settings.auth != "off" and b"authorization" not in headers:
            response = problem(
                Request(scope),
                401,
                "Unauthenticated",
                "MCP over HTTP needs an 'Authorization: Bearer <key>' header",
                slug="unauthenticated",
            )
            response.headers["WWW-Authenticate"] = 'Bearer realm="beliefgraph"'
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def mount(app: FastAPI, settings: Settings) -> Callable[[], AbstractAsyncContextManager[None]]:
    """Serve MCP at :data:`MCP_PATH` of ``app``; the tools call ``app`` in-process.

    Returns what the app's lifespan must run around serving (the MCP session manager).
    """
    api = AsyncClient(IN_PROCESS_URL, api_key="", transport=in_process(app))
    server = build(api, keys_from_requests=True)
    # Stateless: each request stands alone, as REST's do, so replicas need no shared state.
    # No Host check: every call carries a key, and the REST routes beside it have none.
    http = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    [route] = http.routes
    assert isinstance(route, Route)
    app.router.routes.append(Route(MCP_PATH, endpoint=_KeyRequired(route.endpoint, settings)))

    @asynccontextmanager
    async def running() -> AsyncIterator[None]:
        async with server.session_manager.run(), api:
            yield

    return running


def in_process(app: ASGIApp) -> httpx2.ASGITransport:
    """A transport that calls ``app`` in this process; a 500 is an answer, not a raise."""
    return httpx2.ASGITransport(app=app, raise_app_exceptions=False)


# -- stdio -------------------------------------------------------------------------------------


async def serve_stdio(settings: Settings, url: str | None = None) -> None:
    """Serve MCP over stdin/stdout until the host closes it: through the API at ``url``, or
    with the app in this process. The key is ``BELIEFGRAPH_API_KEY``."""
    if url is not None:
        async with AsyncClient(url) as api:
            await build(api, keys_from_requests=False, read_files=True).run_stdio_async()
        return
    from api.app import create_app

    app = create_app(settings)
    async with (
        app.router.lifespan_context(app),
        AsyncClient(IN_PROCESS_URL, transport=in_process(app)) as api,
    ):
        await build(api, keys_from_requests=False, read_files=True).run_stdio_async()

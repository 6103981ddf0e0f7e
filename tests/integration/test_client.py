"""The Python client (``beliefgraph.client``) against a live server, for every route.

One test body drives both clients: the async one through a blocking portal (each method
awaited on the portal's event loop, each async iterator drained), so whatever the sync
client is checked to do, the async one is checked to do the same.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio.from_thread
import httpx2
import pytest

from beliefgraph.access import Role
from beliefgraph.audit import AuditAction
from beliefgraph.client import (
    AsyncClient,
    BadRequest,
    Client,
    ConflictError,
    ConnectionFailed,
    NotFoundError,
    PermissionDenied,
    Unauthorized,
)
from beliefgraph.importer.jobs import JobState
from beliefgraph.models import BeliefCreate, Governs, Verdict
from beliefgraph.store import Store
from tests.integration.test_auth import Keys

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "data" / "logs"


class Recording(httpx2.HTTPTransport):
    """The network, remembering each request's method and path."""

    def __init__(self, seen: set[tuple[str, str]]) -> None:
        super().__init__()
        self.seen = seen

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        self.seen.add((request.method, request.url.path))
        return super().handle_request(request)


class AsyncRecording(httpx2.AsyncHTTPTransport):
    def __init__(self, seen: set[tuple[str, str]]) -> None:
        super().__init__()
        self.seen = seen

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        self.seen.add((request.method, request.url.path))
        return await super().handle_async_request(request)


class Blocking:
    """An :class:`AsyncClient` called from this thread: each method runs to its end on the
    portal's event loop; an async iterator comes back as a list."""

    def __init__(self, client: AsyncClient, portal: anyio.from_thread.BlockingPortal) -> None:
        self.client = client
        self.portal = portal

    def with_key(self, key: str) -> Blocking:
        return Blocking(self.client.with_key(key), self.portal)

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self.client, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            async def run() -> Any:
                result = method(*args, **kwargs)
                if hasattr(result, "__aiter__"):
                    return [item async for item in result]
                return await result

            return self.portal.call(run)

        return call


@pytest.fixture(params=["sync", "async"])
def clients(request: pytest.FixtureRequest, live_url: str) -> Iterator[tuple[Any, set[Any]]]:
    """A client of either kind over the live server, and the requests it has made."""
    seen: set[tuple[str, str]] = set()
    if request.param == "sync":
        with Client(live_url, transport=Recording(seen)) as c:
            yield c, seen
        return
    with anyio.from_thread.start_blocking_portal() as portal:
        client = AsyncClient(live_url, transport=AsyncRecording(seen))
        yield Blocking(client, portal), seen
        portal.call(client.aclose)


@pytest.fixture
def k(store: Store) -> Keys:
    return Keys(store)


def belief(ns: str, text: str, **fields: Any) -> BeliefCreate:
    return BeliefCreate.model_validate({"text": text, "namespaces": [ns], **fields})


def test_every_route_through_the_client(
    clients: tuple[Any, set[tuple[str, str]]], k: Keys, live_url: str
) -> None:
    c, seen = clients
    curator, admin = c.with_key(k.token["curator"]), c.with_key(k.token["admin"])
    uid = f"t{uuid.uuid4().hex[:10]}"

    assert c.health().status == "ok"
    assert c.ready().ready is True

    a = curator.create(belief(k.ns, "The office printer is on the third floor.", id=f"{uid}-a"))
    assert a.id == f"{uid}-a"
    assert a.namespaces == [k.ns]
    batch = curator.create_batch(
        [
            belief(k.ns, "Deploys happen on Tuesdays.", id=f"{uid}-b"),
            belief(k.ns, "The staging database is called emerald.", id=f"{uid}-c"),
        ]
    )
    assert [d.verdict for d in batch.decisions] == [Verdict.add, Verdict.add]
    preview = curator.preview([belief(k.ns, "Lunch is at noon.", id=f"{uid}-d")])
    assert [d.belief_id for d in preview.decisions] == [f"{uid}-d"]
    with pytest.raises(NotFoundError):
        curator.get(f"{uid}-d")  # a dry run writes nothing
    assert curator.get(f"{uid}-b").text == "Deploys happen on Tuesdays."

    page = curator.list_beliefs(namespace=k.ns, limit=1)
    assert [b.id for b in page.items] == [f"{uid}-a"]
    assert page.next_cursor
    every = list(curator.iter_beliefs(namespace=k.ns, limit=1))
    assert [b.id for b in every] == [f"{uid}-a", f"{uid}-b", f"{uid}-c"]

    chain = curator.supersede(
        f"{uid}-b",
        "moved",
        by=belief(k.ns, "Deploys moved to Thursdays.", id=f"{uid}-b2", kind="correction"),
    )
    assert [b.id for b in chain.beliefs] == [f"{uid}-b", f"{uid}-b2"]
    assert chain.head == f"{uid}-b2"
    curator.create(belief(k.ns, "Deploys are on Fridays now.", id=f"{uid}-b3"))
    chain = curator.supersede(f"{uid}-b2", "moved again", by_id=f"{uid}-b3")
    assert curator.chain(f"{uid}-b").head == f"{uid}-b3" == chain.head

    edge = curator.override(f"{uid}-a", f"{uid}-c", "the printer rule wins")
    assert (edge.source, edge.target, edge.created) == (f"{uid}-a", f"{uid}-c", True)
    assert curator.remove_override(f"{uid}-a", f"{uid}-c") is None
    door = Governs(any_terms=[f"{uid}door"])
    lab_door = Governs(any_terms=[f"{uid}door"], all_terms=["lab"])
    rule = belief(k.ns, "Badge doors stay locked.", id=f"{uid}-g1", kind="policy", governs=door)
    lab = belief(k.ns, "The lab door opens on weekdays.", id=f"{uid}-g2", governs=lab_door)
    curator.create_batch([rule, lab])
    edge = admin.narrow(f"{uid}-g2", f"{uid}-g1", "the lab door is a case of the rule")
    assert edge.created
    assert edge.source_scope
    assert edge.target_scope
    assert admin.remove_narrow(f"{uid}-g2", f"{uid}-g1") is None

    ruled = curator.query("What is the staging database called?", [k.ns])
    assert ruled.governing is not None
    assert ruled.governing.id == f"{uid}-c"
    found = curator.search("staging database emerald", [k.ns])
    assert [h.belief.id for h in found.hits] == [f"{uid}-c"]
    context = curator.context("nobody", [k.ns], "deploys")
    assert context.persona_prelude is None
    assert context.pinned_facts == []

    retracted = curator.retract(f"{uid}-a", "the printer moved")
    assert retracted.status == "retracted"
    [event] = curator.list_audit(belief=f"{uid}-a", action=AuditAction.retract).items
    assert event.reason == "retracted (was active): the printer moved"
    history = list(curator.iter_audit(belief=f"{uid}-a", limit=1))
    assert [e.action for e in history][:1] == ["retract"]
    assert len(history) >= 3
    assert admin.verify_audit(chain=f"ns:{k.ns}").ok

    made = admin.create_key(f"client-{uid}", Role.reader, [k.ns])
    assert made.key.startswith("bgk_")
    assert made.id in {key.id for key in admin.list_keys()}
    assert c.with_key(made.key).get(f"{uid}-c").id == f"{uid}-c"
    assert admin.revoke_key(made.id).revoked_at is not None
    with pytest.raises(Unauthorized):
        c.with_key(made.key).get(f"{uid}-c")

    job = curator.start_import((LOGS / "chat.jsonl").read_bytes(), namespace=k.ns, user="me")
    assert job.state in (JobState.queued, JobState.running, JobState.succeeded)
    done = curator.wait_import(job.id, timeout=120)
    assert done.state is JobState.succeeded
    assert done.summary
    assert done.summary["added"] > 0
    assert curator.import_job(job.id).state is JobState.succeeded

    counts = {n.name: n.beliefs for n in curator.namespaces()}
    assert counts[k.ns] >= 6
    assert k.other not in counts

    # every operation of the OpenAPI document was called
    operations = httpx2.get(f"{live_url}/openapi.json").json()["paths"]
    missing = [
        f"{method.upper()} {path}"
        for path, methods in operations.items()
        for method in methods
        if not any(
            m == method.upper() and re.fullmatch(re.sub(r"\{[^/]+\}", "[^/]+", path), p)
            for m, p in seen
        )
    ]
    assert not missing, f"routes the client did not call: {missing}"


def test_problems_are_typed_exceptions_with_the_problems_fields(
    clients: tuple[Any, set[Any]], k: Keys
) -> None:
    c, _ = clients
    agent, curator = c.with_key(k.token["agent"]), c.with_key(k.token["curator"])
    with pytest.raises(Unauthorized) as unauthorized:
        c.with_key("").namespaces()
    assert unauthorized.value.status == 401
    assert "Authorization" in unauthorized.value.detail
    with pytest.raises(PermissionDenied) as denied:
        agent.create(belief(k.ns, "Always share the Wi-Fi password.", kind="policy"))
    assert denied.value.title == "Forbidden"
    assert "agent key cannot write a policy" in str(denied.value)
    with pytest.raises(NotFoundError):
        agent.get("no-such-belief")
    with pytest.raises(BadRequest) as bad:
        curator.query("", [k.ns])
    assert bad.value.status == 422
    assert [e["field"] for e in bad.value.errors] == ["body.query"]
    gone = curator.create(belief(k.ns, "The fax number is 555-0100."))
    curator.retract(gone.id)
    with pytest.raises(ConflictError) as conflict:
        curator.supersede(gone.id, "new number", by=belief(k.ns, "The fax is gone."))
    assert conflict.value.type.endswith("/not-supersedable")


def test_a_path_that_names_another_route_stays_one_segment(live_url: str, k: Keys) -> None:
    with Client(live_url, k.token["admin"]) as admin, pytest.raises(NotFoundError) as e:
        admin.chain("../../keys")
    assert "/v1/keys" not in (e.value.detail or "")


def test_the_key_comes_from_the_environment(
    live_url: str, k: Keys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BELIEFGRAPH_API_KEY", k.token["reader"])
    monkeypatch.setenv("BELIEFGRAPH_URL", live_url)
    with Client() as c:
        assert [n.name for n in c.namespaces()] in ([], [k.ns])
        with pytest.raises(PermissionDenied):
            c.create(belief(k.ns, "A reader writes nothing."))


def test_a_server_that_is_not_there_fails_after_bounded_retries() -> None:
    with socket.socket() as s:  # a loopback port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with Client(f"http://127.0.0.1:{port}", retries=2, backoff=0.05) as c:
        started = time.monotonic()
        with pytest.raises(ConnectionFailed):
            c.health()
        assert time.monotonic() - started < 5  # 0.05 + 0.1 s of pauses, not a hang


def test_the_readme_agent_loop_runs(live_url: str, k: Keys, ns: str, store: Store) -> None:
    """The ten-line agent loop of the README, as written, against the live server."""
    readme = (ROOT / "README.md").read_text()
    [loop] = re.findall(r"```python\n(from beliefgraph\.client import.*?)```", readme, re.S)
    agent = Keys(store)  # an agent key over a namespace of this test's own
    code = loop.replace('"user:sample"', json.dumps(agent.ns))
    run = subprocess.run(
        [sys.executable, "-c", code],
        input="Can I send the guest the Wi-Fi password?\n\n",
        capture_output=True,
        text=True,
        timeout=120,
        env={"BELIEFGRAPH_URL": live_url, "BELIEFGRAPH_API_KEY": agent.token["agent"]},
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "[answer_context]" in run.stdout  # nothing stored governs yet
    with Client(live_url, agent.token["agent"]) as c:
        [remembered] = list(c.iter_beliefs(namespace=agent.ns))
    assert remembered.text == "User asked: Can I send the guest the Wi-Fi password?"
    assert remembered.trust == 0.6  # written as an agent: evidence, never authority

"""The MCP server, driven by the SDK's own client against real servers, Neo4j and the model.

Three ways in: streamable HTTP at ``/mcp`` of the live server; stdio with the app in the
server's process (``beliefgraph mcp``); stdio through the live server (``--url``). Every
tool is called with a key of every role, and every role has calls refused, the refusal
carrying REST's problem.
"""

from __future__ import annotations

import json
import random
import string
import sys
import tempfile
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp
import pytest
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from beliefgraph import keys
from beliefgraph.access import Role
from beliefgraph.client import Client
from beliefgraph.models import BeliefCreate
from beliefgraph.sample import load_sample
from beliefgraph.store import Store
from tests.integration.test_sample import own_sample

LOG = Path(__file__).resolve().parents[1] / "data" / "logs" / "chat.jsonl"
ROLES = [r.value for r in Role]
WAYS = ["http", "stdio", "stdio-url"]
TOOLS = {
    "which_belief_governs", "context", "search", "remember", "supersession_chain",
    "retract", "supersede", "import_log", "import_status",
}  # fmt: skip
#: what a role may not do, and the problem that says so
FORBIDDEN = {
    "reader": {"remember", "retract", "supersede", "import_log"},
    "agent": {"import_log"},
    "curator": set(),
    "admin": set(),
}
#: every session must be over by then: a hung server fails the test, never the suite
SESSION_SECONDS = 180


@dataclass
class World:
    """A namespace holding the quick-start sample and beliefs for each role; another
    namespace no key may see; a key of every role over the first (admins too); an import
    job of the live server's."""

    ns: str
    other: str
    uid: str
    key: dict[str, str]
    job: str


@pytest.fixture(scope="module")
def world(store: Store, live_url: str) -> World:
    ns, other = (f"tenant:t-{uuid.uuid4().hex[:12]}" for _ in range(2))
    uid = f"t{uuid.uuid4().hex[:10]}"
    load_sample(store, own_sample(Path(tempfile.mkdtemp()), ns, uid))
    evidence = [  # for each role and way in, one to replace and one to retract
        BeliefCreate(id=f"{uid}-{role}-{way}-{what}", kind="observation", trust=0.5,
                     text=f"The {role} saw the {what} kiosk blink by {way}.", namespaces=[ns])
        for role in ROLES for way in WAYS for what in ("old", "gone")
    ]  # fmt: skip
    pinned = BeliefCreate(id=f"{uid}-name", text="The user's name is Sam.", user="me",
                          pinned=True, namespaces=[ns])  # fmt: skip
    hidden = BeliefCreate(id=f"{uid}-hidden", text="The vault code is 1234.", namespaces=[other])
    store.create([*evidence, pinned, hidden])
    key = {
        role: keys.create_key(
            store.db, keys.KeyCreate(name=f"mcp-{role}", role=role, namespaces=[ns]), actor="test"
        ).key
        for role in ROLES
    }
    with Client(live_url, key["curator"]) as bg:
        job = bg.start_import(LOG.read_bytes(), namespace=ns)
        assert bg.wait_import(job.id, timeout=120).state == "succeeded"
    return World(ns=ns, other=other, uid=uid, key=key, job=job.id)


@asynccontextmanager
async def session(way: str, key: str, live_url: str, neo4j_uri: str) -> AsyncIterator[Any]:
    """An MCP client session with the server, the key given as the way in gives it."""
    if way == "http":
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=60) as http,
            mcp.Client(streamable_http_client(f"{live_url}/mcp", http_client=http)) as client,
        ):
            yield client
        return
    args = ["-m", "beliefgraph.cli", "mcp", "--no-init"]
    if way == "stdio-url":
        args += ["--url", live_url]
    env = {"BELIEFGRAPH_API_KEY": key, "NEO4J_URI": neo4j_uri}
    params = StdioServerParameters(command=sys.executable, args=args, env=env)
    with tempfile.TemporaryFile("w+") as errors:
        try:
            async with mcp.Client(stdio_client(params, errlog=errors)) as client:
                yield client
        except BaseException:
            errors.seek(0)
            print(errors.read(), file=sys.stderr)  # the server's own account, on failure
            raise


async def call(client: Any, tool: str, **arguments: Any) -> tuple[bool, Any]:
    """``(ok, answer)``: the structured answer, or the error's text."""
    result = await client.call_tool(tool, arguments)
    if result.is_error:
        return False, result.content[0].text
    return True, result.structured_content


def refused(outcome: tuple[bool, Any], problem: str) -> None:
    ok, text = outcome
    assert not ok, f"expected {problem}, got {json.dumps(text)[:300]}"
    assert problem in text, text
    assert "Traceback" not in text


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("role", ROLES)
def test_every_tool_with_a_key_of_each_role(
    role: str, way: str, world: World, live_url: str, neo4j_uri: str
) -> None:
    ns, uid, mine = world.ns, world.uid, f"{world.uid}-{role}-{way}"

    async def main() -> None:
        with anyio.fail_after(SESSION_SECONDS):
            async with session(way, world.key[role], live_url, neo4j_uri) as c:
                await every_tool(c)

    async def every_tool(c: Any) -> None:
        assert {t.name for t in (await c.list_tools()).tools} == TOOLS

        # the question of the README, on the sample: the head of the chain governs
        asked = "Which belief governs sending the Wi-Fi password?"
        ok, ruling = await call(c, "which_belief_governs", query=asked, namespaces=[ns])
        assert ok, ruling
        assert (ruling["governing"]["id"], ruling["action"]) == (f"{uid}-wifi-v3", "verify_first")
        assert any(f"{uid}-wifi-v1" in line for line in ruling["trace"])

        ok, context = await call(c, "context", user="me", namespaces=[ns], message="hello")
        assert ok, context
        assert [i["belief"]["id"] for i in context["pinned_facts"]] == [f"{uid}-name"]

        ok, found = await call(c, "search", query="office wifi password", namespaces=[ns])
        assert ok, found
        hits = [h["belief"]["id"] for h in found["hits"]]
        assert f"{uid}-wifi-v3" in hits
        assert f"{uid}-wifi-v1" not in hits  # superseded: never found

        ok, chain = await call(c, "supersession_chain", id=f"{uid}-wifi-v1")
        assert ok, chain
        assert chain["head"] == f"{uid}-wifi-v3"

        kind = "observation" if role in ("reader", "agent") else "fact"
        # a word of its own (letters: a number is no content word), so the gate adds it
        word = "".join(random.choices(string.ascii_lowercase, k=10))
        text = f"The {role} heard the lobby printer jam twice {word}."
        wrote = await call(c, "remember", text=text, kind=kind, namespaces=[ns])
        gone = await call(c, "retract", id=f"{mine}-gone", reason="it never blinked")
        replaced = await call(c, "supersede", id=f"{mine}-old", reason="it changed",
                              by=f"The {role} saw the old kiosk go dark by {way}.")  # fmt: skip
        if way == "http":
            imported = await call(c, "import_log", namespace=ns, text=LOG.read_text())
            refused(await call(c, "import_log", namespace=ns, path=str(LOG)), "send the log")
        else:
            imported = await call(c, "import_log", namespace=ns, path=str(LOG))
        outcomes = {"remember": wrote, "retract": gone, "supersede": replaced,
                    "import_log": imported}  # fmt: skip
        for tool, outcome in outcomes.items():
            if tool in FORBIDDEN[role]:
                refused(outcome, "Forbidden (403)")
            else:
                assert outcome[0], (tool, outcome[1])
        if "remember" not in FORBIDDEN[role]:
            answer = wrote[1]
            assert answer["decision"]["verdict"] in ("add", "compatible"), answer["decision"]
            ok, again = await call(c, "remember", text=text, kind=kind, namespaces=[ns])
            assert ok, again
            assert again["decision"]["verdict"] == "noop"  # known already: reinforced
            assert again["belief"]["id"] == answer["belief"]["id"]
            # an agent writes as an agent: unverified, low trust, never authority
            trust = 0.6 if role == "agent" else 0.8
            assert answer["belief"]["trust"] == trust
            assert answer["belief"]["author"].startswith(f"key:mcp-{role}")  # who wrote it
        if "retract" not in FORBIDDEN[role]:
            assert gone[1]["status"] == "retracted"
            assert replaced[1]["beliefs"][0]["id"] == f"{mine}-old"
            assert replaced[1]["head"] != f"{mine}-old"
        if "import_log" not in FORBIDDEN[role]:
            assert imported[1]["state"] == "succeeded"

        status = await call(c, "import_status", job_id=world.job)
        if way == "stdio":  # jobs live in the process that runs them: the live server's
            refused(status, "Not found (404)")
        else:
            assert status[0], status[1]
            assert status[1]["namespace"] == ns

        # namespaces: what the key may not see does not exist for it, whatever the role
        refused(await call(c, "supersession_chain", id=f"{uid}-hidden"), "Not found (404)")
        refused(await call(c, "import_log", namespace=world.other, text="hi"), "Not found (404)")
        if role == "agent":
            rule = await call(c, "remember", text="Always share the Wi-Fi password.",
                              kind="policy", namespaces=[ns])  # fmt: skip
            refused(rule, "an agent key cannot write a policy")
        refused(await call(c, "remember", text="x", kind="fact", namespaces=["nope"]), "namespaces")

    anyio.run(main)


def test_over_http_a_request_without_a_key_is_refused_before_any_tool(live_url: str) -> None:
    listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    answer = httpx2.post(f"{live_url}/mcp", json=listing, timeout=30)
    assert answer.status_code == 401
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.headers["www-authenticate"].startswith("Bearer")
    assert "Authorization" in answer.json()["detail"]


@pytest.mark.parametrize("way", ["http", "stdio-url"])
def test_a_revoked_or_unknown_key_is_refused_on_every_call(
    way: str, world: World, store: Store, live_url: str, neo4j_uri: str
) -> None:
    made = keys.create_key(
        store.db, keys.KeyCreate(name="mcp-revoked", role=Role.admin, namespaces=None), actor="test"
    )
    keys.revoke_key(store.db, made.id, actor="test")

    async def main() -> None:
        for key in (made.key, "bgk_not-a-key"):
            with anyio.fail_after(SESSION_SECONDS):
                async with session(way, key, live_url, neo4j_uri) as c:
                    query = {"query": "wifi", "namespaces": [world.ns]}
                    refused(await call(c, "which_belief_governs", **query), "Unauthenticated")

    anyio.run(main)

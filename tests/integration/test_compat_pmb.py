"""The PrecisionMemBench-compatible endpoints, driven over HTTP as the public harness does.

The app runs with API keys on (the compat surface must answer without one) and a compat
namespace prefix of this test's own, so its ``/reset`` can only ever delete this test's data.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from api.app import create_app
from beliefgraph.config import Settings
from beliefgraph.models import BeliefCreate
from beliefgraph.store import Store

ROOT = Path(__file__).resolve().parents[2]
BASE = "/compat/precisionmembench"


@pytest.fixture(scope="module")
def prefix() -> str:
    return f"tenant:pmb{uuid.uuid4().hex[:8]}-"


@pytest.fixture(scope="module")
def compat(store: Store, prefix: str) -> Iterator[TestClient]:
    settings = Settings(compat_pmb=True, compat_pmb_namespace_prefix=prefix, auth="keys")
    with TestClient(create_app(settings)) as client:
        yield client


def caller(client: TestClient) -> Any:
    def call(method: str, path: str, body: Mapping[str, Any] | None) -> Any:
        r = client.request(method, BASE + path, json=body)
        assert r.status_code == 200, f"{method} {path}: {r.status_code} {r.text}"
        return r.json()

    return call


def add_body(belief_id: str, text: str, **metadata: Any) -> dict[str, Any]:
    return {
        "text": text,
        "user_id": "u1",
        "metadata": {"beliefId": belief_id, "scope": "domain:code", **metadata},
        "aliases": metadata.pop("aliases", []),
    }


def test_off_by_default(client: TestClient) -> None:
    assert client.post(f"{BASE}/search", json={"query": "x", "user_id": "u"}).status_code == 404


def run_the_harness(neo4j_uri: str, out: Path) -> subprocess.CompletedProcess[str]:
    """``bench/precisionmembench.py``: the harness's own run.sh against a live server, with a
    compat namespace prefix of its own."""
    env = {
        **os.environ,
        "NEO4J_URI": neo4j_uri,
        "BELIEFGRAPH_COMPAT_PMB_NAMESPACE_PREFIX": f"tenant:pmb{uuid.uuid4().hex[:8]}-",
    }
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "precisionmembench.py"), "--out", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=1800,
        check=False,
    )


def failed_session_turns_only(out: Path) -> list[str]:
    """A run's failures of ours where every one is a session turn, or none (no summary, or a
    failure of ours elsewhere)."""
    path = out / "precisionmembench.json"
    if not path.exists():
        return []
    summary = json.loads(path.read_text())
    session = {f["case"] for f in summary["session"]["failing"]}
    ours: list[str] = summary["ours"]
    return ours if set(ours) <= session else []


# The run-again warning is shown in the summary, not raised: the suite turns warnings into
# errors, which would fail the very run this retry exists for.
@pytest.mark.filterwarnings("default:PrecisionMemBench run again:UserWarning")
def test_the_public_harness_unchanged(neo4j_uri: str, tmp_path: Path) -> None:
    # PrecisionMemBench's own TypeScript harness, run by its run.sh against a live server:
    # every session turn passes, and every static case that fails is one the contract
    # gives a provider no way to pass (bench/precisionmembench.py names why, per case).
    # The harness sends one alias update without awaiting it and searches at once (its
    # session suite, turn 9 to 10 of a case): on a loaded machine the search can reach the
    # server first, which no server can order. A run whose only failures of ours are session
    # turns is run once more, with a warning that names them, and that second run must pass
    # in full; any other failure fails at once.
    out = tmp_path / "first"
    done = run_the_harness(neo4j_uri, out)
    if done.returncode != 0 and (turns := failed_session_turns_only(out)):
        warnings.warn(f"PrecisionMemBench run again: session turns failed {turns}", stacklevel=1)
        out = tmp_path / "second"
        done = run_the_harness(neo4j_uri, out)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads((out / "precisionmembench.json").read_text())
    assert (summary["session"]["passed"], summary["session"]["cases"]) == (12, 12)
    assert summary["ours"] == []
    static = summary["static"]
    assert static["passed"] + len(static["failing"]) == static["cases"] == 60
    assert all(f["beyond_contract"] for f in static["failing"])
    assert static["passed"] >= 51


def test_search_answers_what_the_query_names_only(compat: TestClient) -> None:
    # pinned, a preference, an open question: none of it is returned for being so
    call = caller(compat)
    user = {"user_id": "u-names"}
    for belief_id, text, metadata in [
        ("pinned", "deploy_target Deploys to EKS", {"pinned": True}),
        ("likes", "answer_style Prefers short answers", {"type": "preference"}),
        ("open", "auth_choice JWT or sessions? Undecided", {"type": "open_question"}),
        ("cache", "redis_cache Redis caches sessions", {}),
    ]:
        call("POST", "/add", {**add_body(belief_id, text, **metadata), **user})
    found = call("POST", "/search", {"query": "what does Redis cache?", **user})["results"]
    assert [r["id"] for r in found] == ["cache"]
    asked = call("POST", "/search", {"query": "auth choice: JWT?", **user})["results"]
    assert asked == []


def test_an_update_naming_aliases_inside_its_text_is_read(compat: TestClient) -> None:
    # the harness's session adapter sends new aliases only inside the text, between the
    # canonical name and the content, and does not wait for the update before searching
    call = caller(compat)
    user = {"user_id": "u-alias"}
    call(
        "POST",
        "/add",
        {**add_body("r", "redis_cache Redis Used as a cache.", aliases=["Redis"]), **user},
    )
    update = {**add_body("r", "redis_cache Redis allkeys-lru maxmemory Used as a cache."), **user}
    call("PUT", "/update", {**update, "beliefId": "r"})
    found = call("POST", "/search", {"query": "why allkeys-lru over lfu?", **user})["results"]
    assert [(r["id"], r["memory"]) for r in found] == [("r", "Used as a cache.")]


def test_add_is_an_upsert_and_update_replaces_aliases(compat: TestClient) -> None:
    call = caller(compat)
    call("POST", "/add", add_body("b-1", "cache_layer Redis keeps sessions", aliases=["Redis"]))
    call("POST", "/add", add_body("b-1", "cache_layer keeps sessions for a day"))
    found = call("POST", "/search", {"query": "cache layer?", "user_id": "u1"})["results"]
    assert [r["id"] for r in found] == ["b-1"]
    assert found[0]["memory"].endswith("for a day")
    assert call("POST", "/search", {"query": "Redis", "user_id": "u1"})["results"] == []
    body = add_body("b-1", "cache_layer memcached keeps sessions", aliases=["memcached"])
    call("PUT", "/update", {**body, "beliefId": "b-1"})
    found = call("POST", "/search", {"query": "memcached?", "user_id": "u1"})["results"]
    assert [r["id"] for r in found] == ["b-1"]


def test_update_of_an_unknown_belief_is_a_404(compat: TestClient) -> None:
    body = {**add_body("b-none", "nothing here"), "beliefId": "b-none"}
    r = compat.put(f"{BASE}/update", json=body)
    assert r.status_code == 404
    assert r.headers["content-type"] == "application/problem+json"


def test_supersession_arriving_in_either_order(compat: TestClient) -> None:
    call = caller(compat)
    call("POST", "/add", add_body("old", "lint_tool_old TSLint lints", superseded_by="new"))
    assert call("POST", "/search", {"query": "lint tool old", "user_id": "u1"})["results"] == []
    call("POST", "/add", add_body("new", "lint_tool Biome lints and formats", aliases=["Biome"]))
    found = call("POST", "/search", {"query": "lint tool old", "user_id": "u1"})["results"]
    assert "old" not in [r["id"] for r in found]


def test_users_never_see_each_other(compat: TestClient) -> None:
    call = caller(compat)
    call("POST", "/add", {**add_body("mine", "secret_plan only for u2"), "user_id": "u2"})
    assert call("POST", "/search", {"query": "secret plan", "user_id": "u3"})["results"] == []
    found = call("POST", "/search", {"query": "secret plan", "user_id": "u2"})["results"]
    assert [r["id"] for r in found] == ["mine"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"user_id": "u", "metadata": {"beliefId": "b", "scope": "s"}}, "body.text"),
        ({"text": "x", "user_id": "u", "metadata": {"scope": "s"}}, "body.metadata.beliefId"),
        (
            {"text": "x", "user_id": "u", "metadata": {"beliefId": "b c", "scope": "s"}},
            "body.metadata.beliefId",
        ),
        ({"text": "x", "user_id": "u", "metadata": {"beliefId": "b"}}, "body.metadata.scope"),
        ({"text": "x", "user_id": "", "metadata": {"beliefId": "b", "scope": "s"}}, "body.user_id"),
    ],
)
def test_bad_bodies_are_422s_naming_the_field(
    compat: TestClient, body: dict[str, Any], field: str
) -> None:
    r = compat.post(f"{BASE}/add", json=body)
    assert r.status_code == 422
    assert r.headers["content-type"] == "application/problem+json"
    assert field in [e["field"] for e in r.json()["errors"]]


def test_a_body_that_maps_to_no_belief_is_a_422_naming_the_field(compat: TestClient) -> None:
    spaces = compat.post(f"{BASE}/add", json=add_body("b-spaces", "   "))
    assert spaces.status_code == 422, spaces.text
    assert spaces.headers["content-type"] == "application/problem+json"
    assert spaces.json()["field"] == "text"
    long_alias = compat.post(f"{BASE}/add", json=add_body("b-alias", "tea", aliases=["a" * 201]))
    assert long_alias.status_code == 422, long_alias.text
    assert long_alias.json()["field"].startswith("aliases")
    update = compat.put(f"{BASE}/update", json=add_body("b1", "tea") | {"beliefId": "bad id!"})
    assert update.status_code == 422, update.text
    assert "body.beliefId" in [e["field"] for e in update.json()["errors"]]


def test_acting_as_an_agent_it_writes_as_an_agent_key_would(driver: Driver) -> None:
    prefix = f"tenant:pmb{uuid.uuid4().hex[:8]}-"
    settings = Settings(
        compat_pmb=True, compat_pmb_namespace_prefix=prefix, compat_pmb_role="agent", auth="keys"
    )
    observation = {"type": "observation"}
    with TestClient(create_app(settings)) as agent:
        pinned = add_body("b-pin", "tea", pinned=True, **observation)
        r = agent.post(f"{BASE}/add", json=pinned)
        assert r.status_code == 403, r.text
        assert r.json()["field"] == "pinned"
        r = agent.post(f"{BASE}/add", json=add_body("b-obs", "the kettle is on", **observation))
        assert r.status_code == 200, r.text
    records, _, _ = driver.execute_query(
        "MATCH (b:Belief)-[:IN]->(n:Namespace) WHERE n.name STARTS WITH $prefix "
        "RETURN b.id AS id, b.epistemic_status AS standing, b.trust AS trust",
        prefix=prefix,
    )
    assert [(r["id"].rsplit(".", 1)[1], r["standing"], r["trust"]) for r in records] == [
        ("b-obs", "unverified", 0.6)
    ]


def test_the_api_still_needs_a_key(compat: TestClient) -> None:
    r = compat.post("/v1/search", json={"query": "x", "namespaces": ["user:a"]})
    assert r.status_code == 401


def test_reset_deletes_compat_beliefs_only(
    compat: TestClient, store: Store, ns: str, uid: str, prefix: str
) -> None:
    call = caller(compat)
    call("POST", "/add", add_body("doomed", "doomed_note will go"))
    [outside] = store.create([BeliefCreate(id=f"{uid}-kept", text="kept", namespaces=[ns])])
    call("DELETE", "/reset", None)
    assert call("POST", "/search", {"query": "doomed note", "user_id": "u1"})["results"] == []
    assert store.get(outside.id).text == "kept"
    records = store.db.run_read("compat_pmb_namespaces", home=prefix)
    assert records  # the namespaces stay; only their beliefs went

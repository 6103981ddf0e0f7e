"""Latency of ``POST /v1/context`` at 10k and 100k beliefs (p50/p95/p99), on its own Neo4j.

    .venv/bin/python bench/context_latency.py [--sizes 10000 100000] [--rounds 5]

The synthetic beliefs never touch the shared development server: the script starts a second
Neo4j 5.26 (the project's launcher) in ``~/.cache/beliefgraph/neo4j-bench-context`` on Bolt
7689 / HTTP 7476, reusing the jars of the main install, and stops it at the end (its data is
wiped first, so every run starts empty).

The store holds the PrecisionMemBench seed for ``test-user`` plus synthetic beliefs: 20% belong
to ``test-user`` (mostly daily observations, some preferences, entities and decisions with
names and aliases, spread over ``domain:code``, ``domain:writing`` and ``user:universal``), 80%
to 200 other users in the same namespaces, so full-text matches across the whole store have
to be filtered, as in a shared deployment. Texts draw words, including the words the
benchmark's messages use, from one vocabulary.

Measured: the 60 static queries and the 12 session messages of the suite, each as a context
request of ``test-user``, ``rounds`` times after a warm-up round — through the library
(:func:`beliefgraph.context.assemble`) and through HTTP (FastAPI's in-process test client, so
routing, validation and JSON are counted, the network is not). The embedding of the query (the
real model, ONNX) is counted: search embeds it when two or more beliefs were admitted.

Synthetic beliefs are written with random unit vectors rather than the model's: the context
path never queries the vector index (it takes the exact cosine of the few admitted beliefs), so
their vectors do not change its latency, and embedding 100k texts would take the 2-core machine
several minutes. They are written with the ``belief_create`` query directly, not through the
curation gate, which is measured by the write benchmark.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from fastapi.testclient import TestClient
from neo4j import GraphDatabase, ManagedTransaction

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from api.app import create_app  # noqa: E402  (the checkout, not an installed copy)
from beliefgraph.access import DEVELOPMENT_CALLER  # noqa: E402
from beliefgraph.config import Settings  # noqa: E402
from beliefgraph.context import assemble  # noqa: E402
from beliefgraph.context_models import ContextRequest  # noqa: E402
from beliefgraph.documents import import_documents, load_documents  # noqa: E402
from beliefgraph.embeddings import DIMENSIONS, load_embedder  # noqa: E402
from beliefgraph.launcher import Neo4jLauncher  # noqa: E402
from beliefgraph.models import BeliefCreate, Kind  # noqa: E402
from beliefgraph.store import Store  # noqa: E402

PRECISION = ROOT.parent / "shared" / "benchmarks" / "precision"
HOME = Path.home() / ".cache" / "beliefgraph" / "neo4j-bench-context"
MAIN_LIB = Path.home() / ".cache" / "beliefgraph" / "neo4j-5.26.30" / "lib"
BOLT, HTTP = 7689, 7476
USER = "test-user"
NAMESPACES = ("domain:code", "domain:writing", "user:universal")

_WORD_TEXT = (
    "deploy deploys cluster pods node nodes service services cache miss eviction redis key keys "
    "error errors exception handler retry timeout latency queue worker job jobs test tests suite "
    "pipeline build runner matrix database query index schema migration collection driver "
    "frontend component hook state render dashboard websocket token session auth login user "
    "chapter scene draft character voice tense plot ending father lisbon jazz pianist "
    "review reviewed merged branch release config flag metric alert log logs trace span "
    "memory cpu disk network probe liveness readiness health rollout rollback helm chart "
    "typescript strict lint format biome module import export function class object type "
    "monday tuesday wednesday thursday friday morning evening noted again slow fast broken "
    "fixed flaky stable green red staging prod production local remote team standup sprint"
)
WORDS = _WORD_TEXT.split()


class RandomEmbedder:
    """Random unit vectors: for loading synthetic beliefs only (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)

    @property
    def dimensions(self) -> int:
        return DIMENSIONS

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        v = self._rng.normal(size=(len(texts), DIMENSIONS)).astype(np.float32)
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        return v.tolist()  # type: ignore[no-any-return]


def start_server() -> Neo4jLauncher:
    HOME.mkdir(parents=True, exist_ok=True)
    if not (HOME / "lib").exists():
        (HOME / "lib").symlink_to(MAIN_LIB, target_is_directory=True)
    launcher = Neo4jLauncher(home=HOME, bolt_port=BOLT, http_port=HTTP)
    if launcher.status().running:
        launcher.stop()
    shutil.rmtree(HOME / "data", ignore_errors=True)  # every run starts empty
    launcher.start(timeout=300)
    return launcher


def synthetic(n: int, start: int, rng: random.Random) -> list[BeliefCreate]:
    day0 = datetime(2026, 1, 1, tzinfo=UTC)
    out = []
    for i in range(start, start + n):
        mine = rng.random() < 0.2
        user = USER if mine else f"user-{rng.randrange(200)}"
        roll = rng.random()
        kind = (
            Kind.observation
            if roll < 0.75
            else Kind.preference
            if roll < 0.87
            else Kind.entity
            if roll < 0.95
            else Kind.decision
        )
        words = [rng.choice(WORDS) for _ in range(rng.randint(6, 16))]
        named = kind is not Kind.observation
        out.append(
            BeliefCreate(
                id=f"syn-{i}",
                text=f"Day {i % 365}: " + " ".join(words) + ".",
                kind=kind,
                canonical_name="_".join(rng.sample(WORDS, 2)) if named else None,
                aliases=rng.sample(WORDS, 2) if named else [],
                pinned=named and rng.random() < 0.02,
                user=user,
                last_reinforced_at=day0 + timedelta(minutes=i),
                namespaces=[rng.choice(NAMESPACES)],
            )
        )
    return out


def load(loader: Store, beliefs: list[BeliefCreate], batch: int = 1000) -> None:
    for i in range(0, len(beliefs), batch):
        rows = loader.prepare(beliefs[i : i + batch], actor="bench")

        def work(tx: ManagedTransaction, rows: list[dict[str, Any]] = rows) -> None:
            loader.tx_run(tx, "belief_create", rows=rows)

        loader.write(work)


def requests() -> list[ContextRequest]:
    out = []
    for case in json.loads((PRECISION / "retrieval.cases.json").read_text()):
        budget = (case.get("budget") or {}).get("maxBeliefs")
        out.append(
            ContextRequest(
                user=USER, namespaces=case["scope"], message=case["query"], budget=budget
            )
        )
    for session in json.loads((PRECISION / "session-retrieval.cases.json").read_text()):
        for turn in session["turns"]:
            out.append(
                ContextRequest(user=USER, namespaces=turn["scope"], message=turn["userMessage"])
            )
    return out


def percentiles(ms: list[float]) -> dict[str, float]:
    ms = sorted(ms)

    def p(q: float) -> float:
        return round(ms[min(len(ms) - 1, int(q * len(ms)))], 2)

    return {
        "n": len(ms),
        "p50": p(0.50),
        "p95": p(0.95),
        "p99": p(0.99),
        "mean": round(statistics.fmean(ms), 2),
    }


def measure(
    store: Store, client: TestClient, reqs: list[ContextRequest], rounds: int
) -> dict[str, Any]:
    for r in reqs:  # warm-up: page cache, query plans, the model
        assemble(store, r, caller=DEVELOPMENT_CALLER)
    lib: list[float] = []
    http: list[float] = []
    runs_lib: list[float] = []
    runs_http: list[float] = []
    for _ in range(rounds):
        one: list[float] = []
        for r in reqs:
            t = time.perf_counter()
            assemble(store, r, caller=DEVELOPMENT_CALLER)
            one.append((time.perf_counter() - t) * 1000)
        lib += one
        runs_lib.append(statistics.median(one))
        one = []
        for r in reqs:
            body = r.model_dump(mode="json", exclude_none=True)
            t = time.perf_counter()
            resp = client.post("/v1/context", json=body)
            one.append((time.perf_counter() - t) * 1000)
            assert resp.status_code == 200, resp.text
        http += one
        runs_http.append(statistics.median(one))
    return {
        "library": {
            **percentiles(lib),
            "median_of_run_medians": round(statistics.median(runs_lib), 2),
        },
        "http": {
            **percentiles(http),
            "median_of_run_medians": round(statistics.median(runs_http), 2),
        },
        "run_medians_library": [round(x, 2) for x in runs_lib],
        "run_medians_http": [round(x, 2) for x in runs_http],
    }


def machine() -> dict[str, Any]:
    cpu = next(
        (
            ln.split(":", 1)[1].strip()
            for ln in Path("/proc/cpuinfo").read_text().splitlines()
            if ln.startswith("model name")
        ),
        platform.processor(),
    )
    mem = next(
        ln for ln in Path("/proc/meminfo").read_text().splitlines() if ln.startswith("MemTotal")
    )
    java_bin = shutil.which("java") or "java"
    version = subprocess.run(  # noqa: S603  (a fixed command with no outside input)
        [java_bin, "-version"], capture_output=True, text=True, check=False
    )
    java = version.stderr.splitlines()[0] if version.stderr else "unknown"
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": mem.split(":", 1)[1].strip(),
        "python": platform.python_version(),
        "java": java,
        "neo4j": "5.26.30 Community (project launcher, -Xmx1g)",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "context_latency"))
    args = parser.parse_args()

    launcher = start_server()
    settings = Settings(neo4j_uri=f"bolt://127.0.0.1:{BOLT}", auth="off")
    driver = GraphDatabase.driver(settings.neo4j.uri)
    results: dict[str, Any] = {"machine": machine(), "sizes": {}}
    try:
        embedder = load_embedder(settings.cache_dir)
        store = Store(driver, embedder, database="neo4j", settings=settings)
        store.init_schema()
        loader = Store(driver, RandomEmbedder(7), database="neo4j", settings=settings)
        import_documents(store, load_documents(PRECISION / "beliefs.seed.json"))
        reqs = requests()
        rng = random.Random(11)  # noqa: S311  (synthetic data, not a secret)
        have = 29
        with TestClient(create_app(settings)) as client:
            for size in sorted(args.sizes):
                t = time.perf_counter()
                load(loader, synthetic(size - have, have, rng))
                have = size
                print(f"loaded {size} beliefs in {time.perf_counter() - t:.0f} s", flush=True)
                load_before = os.getloadavg()
                res = measure(store, client, reqs, args.rounds)
                # the machine is shared: say how busy it was while measuring
                res["load_average_before"] = [round(x, 2) for x in load_before]
                res["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
                results["sizes"][str(size)] = res
                print(json.dumps({size: {k: res[k] for k in ("library", "http")}}), flush=True)
    finally:
        driver.close()
        launcher.stop()
    Path(args.out + ".json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Latency of ``POST /v1/context`` at 10k and 100k beliefs (p50/p95/p99), on its own Neo4j.

    .venv/bin/python bench/context_latency.py [--sizes 10000 100000] [--rounds 5]

The synthetic beliefs never touch the shared development server: the script starts a second
Neo4j 5.26 (the project's launcher) in ``~/.cache/beliefgraph/neo4j-bench-context`` on Bolt
7689 / HTTP 7476, reusing the jars of the main install, and stops it at the end (its data is
wiped first, so every run starts empty).

The store holds the PrecisionMemBench seed for two users and synthetic beliefs for them and
for 200 others, all in the same namespaces (``domain:code``, ``domain:writing``,
``user:universal``), so every search must keep to its user inside a shared store:

- **harsh** ``test-user`` owns 20% of the store (20,000 beliefs at 100k: 75% daily
  observations, then preferences, entities and decisions with names and aliases), every text
  drawn from one 130-word vocabulary that the benchmark's messages use, so each message
  matches thousands of the user's own beliefs and 2,400 of them are preferences;
- **realistic** ``real.test-user`` (the same seed, ids prefixed ``real.``) owns 2% (2,000 at
  100k: 85% observations, 5% each preferences, entities and decisions), texts drawn mostly
  from a wide vocabulary of 5,000 made-up words and one word in six from the 130 — the other
  beliefs are the same as in the harsh profile (its beliefs are taken from the 200 other
  users', drawn by a second random stream, so the harsh user's beliefs do not change).

Measured: the 60 static queries and the 12 session messages of the suite, each as a context
request of each profile's user, ``rounds`` times after ``--warmup`` unmeasured rounds (ten) —
through the library (:func:`beliefgraph.search.context.assemble`) and through REST: ``POST
/v1/context`` to the API in a uvicorn subprocess on loopback, over HTTP/1.1 keep-alive, one
request at a time, as the query benchmark measures ``/v1/query``. As a deployment runs it,
every request carries an API key (an admin key made for the run, revoked at the end);
``--auth off`` measures without (the development setting). The embedding of the query (the
real model, ONNX) is counted: search embeds it when admitted beliefs tie (most requests of
the harsh profile, few of the realistic one).

Synthetic beliefs are written with random unit vectors rather than the model's: the context
path never queries the vector index (it takes the exact cosine of the few admitted beliefs), so
their vectors do not change its latency, and embedding 100k texts would take the 2-core machine
several minutes. They are written with ``Store.create_rows`` (the ``belief_create`` query),
not through the curation gate, which is measured by the write benchmark.
"""

from __future__ import annotations

import argparse
import http.client
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
from neo4j import GraphDatabase, ManagedTransaction

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import own_neo4j  # noqa: E402  (bench/, beside this)
from rest_api import Api, api_server, bench_key, post_json  # noqa: E402
from run_info import BENCHMARKS  # noqa: E402

from beliefgraph.access import DEVELOPMENT_CALLER  # noqa: E402
from beliefgraph.config import Settings  # noqa: E402
from beliefgraph.embeddings import DIMENSIONS, load_embedder  # noqa: E402
from beliefgraph.gate.write import create_rows  # noqa: E402
from beliefgraph.importer.documents import Isolation, import_documents, load_documents  # noqa: E402
from beliefgraph.models import BeliefCreate, Kind  # noqa: E402
from beliefgraph.schema import init_schema  # noqa: E402
from beliefgraph.search.context import assemble  # noqa: E402
from beliefgraph.search.context_models import ContextRequest  # noqa: E402
from beliefgraph.store import Store  # noqa: E402

PRECISION = BENCHMARKS / "precision"
HOME = Path.home() / ".cache" / "beliefgraph" / "neo4j-bench-context"
BOLT, HTTP, API_PORT = 7689, 7476, 8791
USER = "test-user"
#: the realistic profile's user and the prefix of its copy of the seed
REAL_PREFIX = "real."
REAL_USER = REAL_PREFIX + USER
#: share of all synthetic beliefs that belong to the realistic user
REAL_SHARE = 0.02
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


def _wide_vocabulary(n: int, seed: int) -> list[str]:
    """``n`` made-up words of two to four syllables, none of them in WORDS."""
    rng = random.Random(seed)  # noqa: S311  (synthetic data, not a secret)
    syllables = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
    out: set[str] = set()
    while len(out) < n:
        word = "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))
        if word not in WORDS:
            out.add(word)
    return sorted(out)


WIDE_WORDS = _wide_vocabulary(5000, seed=5)


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


def kind_of(roll: float, cuts: tuple[float, float, float]) -> Kind:
    """The kind a uniform ``roll`` draws: observation below the first cut, then preference,
    entity, and decision above the last."""
    kinds = (Kind.observation, Kind.preference, Kind.entity)
    return next((k for k, cut in zip(kinds, cuts, strict=True) if roll < cut), Kind.decision)


def realistic(i: int, day0: datetime, namespace: str, rng: random.Random) -> BeliefCreate:
    """A belief of the realistic user: mostly observations, words mostly from WIDE_WORDS."""

    def word() -> str:
        return rng.choice(WORDS) if rng.random() < 1 / 6 else rng.choice(WIDE_WORDS)

    kind = kind_of(rng.random(), (0.85, 0.90, 0.95))
    named = kind is not Kind.observation
    return BeliefCreate(
        id=f"syn-{i}",
        text=f"Day {i % 365}: " + " ".join(word() for _ in range(rng.randint(6, 16))) + ".",
        kind=kind,
        canonical_name=f"{word()}_{word()}" if named else None,
        aliases=[word(), word()] if named else [],
        pinned=named and rng.random() < 0.02,
        user=REAL_USER,
        last_reinforced_at=day0 + timedelta(minutes=i),
        namespaces=[namespace],
    )


def synthetic(
    n: int, start: int, rng: random.Random, real_rng: random.Random
) -> list[BeliefCreate]:
    day0 = datetime(2026, 1, 1, tzinfo=UTC)
    out = []
    for i in range(start, start + n):
        mine = rng.random() < 0.2
        user = USER if mine else f"user-{rng.randrange(200)}"
        kind = kind_of(rng.random(), (0.75, 0.87, 0.95))
        words = [rng.choice(WORDS) for _ in range(rng.randint(6, 16))]
        named = kind is not Kind.observation
        belief = BeliefCreate(
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
        # The realistic user's beliefs replace some of the other users' (a stream of its
        # own, so the harsh user's beliefs are the same as before it existed).
        if not mine and real_rng.random() < REAL_SHARE / 0.8:
            belief = realistic(i, day0, belief.namespaces[0], real_rng)
        out.append(belief)
    return out


def load(loader: Store, beliefs: list[BeliefCreate], batch: int = 1000) -> None:
    for i in range(0, len(beliefs), batch):
        rows = loader.prepare(beliefs[i : i + batch], actor="bench")

        def work(tx: ManagedTransaction, rows: list[dict[str, Any]] = rows) -> None:
            create_rows(loader.db, tx, rows)

        loader.db.write(work)


def requests(user: str = USER) -> list[ContextRequest]:
    out = []
    for case in json.loads((PRECISION / "retrieval.cases.json").read_text()):
        budget = (case.get("budget") or {}).get("maxBeliefs")
        out.append(
            ContextRequest(
                user=user, namespaces=case["scope"], message=case["query"], budget=budget
            )
        )
    for session in json.loads((PRECISION / "session-retrieval.cases.json").read_text()):
        for turn in session["turns"]:
            out.append(
                ContextRequest(user=user, namespaces=turn["scope"], message=turn["userMessage"])
            )
    return out


def user_beliefs(store: Store, user: str) -> dict[str, int]:
    """How many beliefs of each kind ``user`` owns (what each profile's requests search)."""
    records, _, _ = store.db.driver.execute_query(
        "MATCH (b:Belief {user: $user}) RETURN b.kind AS kind, count(*) AS n ORDER BY kind",
        user=user,
        database_=store.db.database,
    )
    return {r["kind"]: r["n"] for r in records}


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
    store: Store, api: Api, reqs: list[ContextRequest], rounds: int, warmup: int
) -> dict[str, Any]:
    bodies = [r.model_dump(mode="json", exclude_none=True) for r in reqs]
    conn = http.client.HTTPConnection("127.0.0.1", api.port)
    warming: list[float] = []
    for _ in range(warmup):  # page cache, query plans, the model (in both processes)
        one: list[float] = []
        for r, body in zip(reqs, bodies, strict=True):
            t = time.perf_counter()
            assemble(store.db, store.embedder, r, caller=DEVELOPMENT_CALLER)
            one.append((time.perf_counter() - t) * 1000)
            post_json(conn, "/v1/context", body, api.headers)
        warming.append(statistics.median(one))
    lib: list[float] = []
    rest: list[float] = []
    runs_lib: list[float] = []
    runs_rest: list[float] = []
    for _ in range(rounds):
        one = []
        for r in reqs:
            t = time.perf_counter()
            assemble(store.db, store.embedder, r, caller=DEVELOPMENT_CALLER)
            one.append((time.perf_counter() - t) * 1000)
        lib += one
        runs_lib.append(statistics.median(one))
        one = [post_json(conn, "/v1/context", body, api.headers)[0] for body in bodies]
        rest += one
        runs_rest.append(statistics.median(one))
    conn.close()
    return {
        "library": {
            **percentiles(lib),
            "median_of_run_medians": round(statistics.median(runs_lib), 2),
        },
        "rest": {
            **percentiles(rest),
            "median_of_run_medians": round(statistics.median(runs_rest), 2),
        },
        "warmup_medians_library": [round(x, 2) for x in warming],
        "run_medians_library": [round(x, 2) for x in runs_lib],
        "run_medians_rest": [round(x, 2) for x in runs_rest],
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
    parser.add_argument(
        "--warmup",
        type=int,
        default=10,
        help="unmeasured rounds first, each request through both paths (default 10: 720 "
        "requests, as the query benchmark's 1,000 warm-up queries; a freshly started Neo4j "
        "served the harsh profile's rounds at 53, 41, 34, 28, 28 and 23 ms p50, then 19-21)",
    )
    parser.add_argument(
        "--auth",
        choices=["keys", "off"],
        default="keys",
        help="keys (default): every REST request carries an API key, as deployed; off: the "
        "development setting",
    )
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "context_latency"))
    args = parser.parse_args()

    launcher = own_neo4j.start(HOME, BOLT, HTTP)
    settings = Settings(neo4j_uri=f"bolt://127.0.0.1:{BOLT}", auth="off")
    driver = GraphDatabase.driver(settings.neo4j.uri)
    results: dict[str, Any] = {"machine": machine(), "auth": args.auth, "sizes": {}}
    try:
        embedder = load_embedder(settings.cache_dir)
        store = Store(driver, embedder, database="neo4j", settings=settings)
        init_schema(store.db)
        loader = Store(driver, RandomEmbedder(7), database="neo4j", settings=settings)
        seed = load_documents(PRECISION / "beliefs.seed.json")
        import_documents(store, seed)
        import_documents(store, seed, isolation=Isolation(prefix=REAL_PREFIX))
        profiles = {"harsh": requests(USER), "realistic": requests(REAL_USER)}
        rng = random.Random(11)  # noqa: S311  (synthetic data, not a secret)
        real_rng = random.Random(13)  # noqa: S311
        have = 2 * len(seed)
        with bench_key(store, args.auth) as key, api_server(BOLT, API_PORT, HOME, key) as api:
            for size in sorted(args.sizes):
                t = time.perf_counter()
                load(loader, synthetic(size - have, have, rng, real_rng))
                have = size
                print(f"loaded {size} beliefs in {time.perf_counter() - t:.0f} s", flush=True)
                # Lucene merges its segments for a minute or more after a bulk load
                if not launcher.wait_idle():
                    print("Neo4j did not go quiet within 5 minutes; measuring anyway", flush=True)
                # The load leaves the page cache full of dirty pages, which the requests
                # would flush as they evict them (Community has no db.checkpoint()): a
                # restart checkpoints, as a server does every 15 minutes on its own.
                launcher.stop()
                launcher.start(timeout=300)
                for profile, reqs in profiles.items():
                    load_before = os.getloadavg()
                    res = measure(store, api, reqs, args.rounds, args.warmup)
                    # the machine is shared: say how busy it was while measuring
                    res["load_average_before"] = [round(x, 2) for x in load_before]
                    res["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
                    res["user_beliefs"] = user_beliefs(store, reqs[0].user)
                    results["sizes"].setdefault(str(size), {})[profile] = res
                    brief = {k: res[k] for k in ("library", "rest")}
                    print(json.dumps({size: {profile: brief}}), flush=True)
    finally:
        driver.close()
        launcher.stop()
    Path(args.out + ".json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

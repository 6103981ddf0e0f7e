"""Single-write latency through REST at 100k beliefs, and the gate's decision time.

    .venv/bin/python bench/write_latency.py [--beliefs 100000] [--writes 150] [--runs 3]

It runs **its own** Neo4j (home ``~/.cache/beliefgraph/neo4j-bench-write``, Bolt 7690, HTTP
7477, the jars linked from the launcher's cache), never the shared development server, and
stops it at the end (``--keep`` leaves it running for another pass).

The store is filled to ``--beliefs`` beliefs (once; a second run reuses them): half in one
large namespace, half in namespaces of 100 to 10,000 (``LAYOUT``). The fill is setup, not
what is measured: it writes rows directly (no gate), and to spare a shared 2-core machine
twenty minutes of embedding it embeds 2,000 distinct texts with the real model and gives the
other beliefs those vectors plus noise (cosine about 0.8 to their source).

Then the real API (uvicorn on loopback, API keys on) takes ``--warmup`` writes, not measured
(the server was just started: its JIT and caches are cold, a running service's are not), and
waits for Neo4j to go quiet; then ``--writes`` single-belief ``POST /v1/beliefs`` per run, one
after another, with the real model. Each write is timed
at the client (the REST latency) and inside the server: the embedding, and the gate's
decision — lock the namespaces, find the neighbours, decide — which is the gate time the
issue's goal (p50 <= 10 ms) is about. Medians over ``--runs`` runs are reported, in
``bench/results/write_latency.md``, with the machine's facts.

Scenarios: writes into namespaces of 100, 1,000 and 50,000 beliefs with the gate's
in-memory vector copies (the default, ``beliefgraph/gate/vectors.py``); then, with the copies
off, into the 1,000-belief namespace (exact scan in Cypher) and the 50,000-belief one
(vector index, over-fetch), which is what a namespace larger than the cache gets. It also
measures that fallback's curve by namespace size and the index path's recall: how often
the exact nearest neighbour is among the index path's candidates.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import logging
import os
import platform
import random
import socket
import statistics
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import uvicorn
from neo4j import Driver, GraphDatabase

import beliefgraph.embeddings as embeddings_module
from api.app import create_app
from beliefgraph import keys
from beliefgraph.access import Role
from beliefgraph.config import Settings, default_cache_dir
from beliefgraph.embeddings import DIMENSIONS, OnnxEmbedder, load_embedder
from beliefgraph.gate.gate import Gate
from beliefgraph.gate.incoming import incoming_from_rows
from beliefgraph.gate.write import create_rows
from beliefgraph.launcher.server import Neo4jLauncher
from beliefgraph.models import BeliefCreate
from beliefgraph.schema import init_schema
from beliefgraph.store import Store

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "write_latency.md"
HOME = Path.home() / ".cache" / "beliefgraph" / "neo4j-bench-write"
BOLT, HTTP = 7690, 7477
BIG = "tenant:bench-big"
POOL = 2000

PROJECTS = [
    f"{a}-{b}"
    for a in (
        "atlas",
        "borealis",
        "cobalt",
        "delta",
        "ember",
        "falcon",
        "granite",
        "harbor",
        "iris",
        "juniper",
    )
    for b in ("api", "web", "billing", "search")
]
DATABASES = ["PostgreSQL", "MongoDB", "MySQL", "Redis", "DynamoDB", "SQLite", "Cassandra"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
PEOPLE = ["Ana", "Bo", "Chen", "Dara", "Eli", "Femi", "Gus", "Hana", "Ivo", "Jun", "Kai"]
THINGS = [
    "dark mode",
    "short answers",
    "tabs over spaces",
    "morning meetings",
    "written specs",
    "pair reviews",
    "metric units",
    "plain-text email",
    "async standups",
    "dense tables",
]
DEVICES = ["printer", "projector", "router", "coffee machine", "badge reader", "thermostat"]


def text_for(i: int) -> tuple[str, list[str]]:
    """The i-th synthetic belief: a text and the entities it is about (deterministic)."""
    r = random.Random(i)  # noqa: S311  (synthetic data, not secrets)
    kind = i % 4
    if kind == 0:
        p = r.choice(PROJECTS)
        return (
            f"The {p} service stores {r.choice(['orders', 'events', 'sessions', 'invoices'])} "
            f"in {r.choice(DATABASES)} (shard {i % 97}).",
            [p],
        )
    if kind == 1:
        p = r.choice(PROJECTS)
        return f"The {p} deploy window is {r.choice(DAYS)} at {8 + i % 10}:00, batch {i // 4}.", [p]
    if kind == 2:
        who = r.choice(PEOPLE)
        return f"{who} prefers {r.choice(THINGS)} when working on ticket {i}.", [who]
    d = r.choice(DEVICES)
    return (
        f"The {d} in room {100 + i % 400} is {r.choice(['offline', 'fixed', 'new', 'slow'])} "
        f"since report {i}.",
        [f"{d} {100 + i % 400}"],
    )


class PoolEmbedder:
    """For the fill only: real vectors for the pool texts, pool vectors plus noise for the rest."""

    def __init__(self, pool: dict[str, list[float]], sources: dict[str, str]) -> None:
        self.pool = pool
        self.sources = sources

    @property
    def dimensions(self) -> int:
        return DIMENSIONS

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for text in texts:
            if text in self.pool:
                out.append(self.pool[text])
                continue
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
            noise = np.random.default_rng(seed).normal(0.0, 0.04, DIMENSIONS)
            v = np.asarray(self.pool[self.sources[text]]) + noise
            out.append((v / np.linalg.norm(v)).tolist())
        return out


#: the other half of the store: (namespace size, how many such namespaces), scaled to --beliefs
LAYOUT = [(10_000, 1), (3_000, 2), (1_000, 30), (300, 10), (100, 10)]


def small_namespaces(total: int) -> list[tuple[str, int]]:
    """The namespaces of the store's second half, with their sizes (name encodes the size)."""
    scale = total / 100_000
    out = []
    for size, count in LAYOUT:
        scaled = max(1, round(size * scale))
        out += [(f"tenant:bench-s{scaled}-{n}", scaled) for n in range(count)]
    return out


def namespace_of(i: int, total: int) -> str:
    half = total // 2
    if i < half:
        return BIG
    offset = i - half
    for name, size in small_namespaces(total):
        if offset < size:
            return name
        offset -= size
    return BIG


def fill(driver: Driver, settings: Settings, total: int) -> None:
    records, _, _ = driver.execute_query("MATCH (b:Belief) RETURN count(b) AS n")
    have = int(records[0]["n"])
    if have >= total:
        print(f"store already holds {have} beliefs", flush=True)
        return
    print(f"embedding {POOL} pool texts with the real model ...", flush=True)
    texts = [text_for(i) for i in range(total)]
    pool_texts = [t for t, _ in texts[:POOL]]
    vectors = load_embedder(settings.cache_dir).embed(pool_texts)
    pool = dict(zip(pool_texts, vectors, strict=True))
    sources = {t: texts[i % POOL][0] for i, (t, _) in enumerate(texts)}
    store = Store(driver, PoolEmbedder(pool, sources), database="neo4j", settings=settings)
    batch = 2000
    started = time.perf_counter()
    for start in range(have, total, batch):
        beliefs = [
            BeliefCreate(
                id=f"bench-{i}",
                text=texts[i][0],
                about=texts[i][1],
                namespaces=[namespace_of(i, total)],
            )
            for i in range(start, min(start + batch, total))
        ]
        rows = store.prepare(beliefs, actor="bench-fill")

        def work(tx: Any, rows: list[dict[str, Any]] = rows) -> None:
            create_rows(store.db, tx, rows)

        store.db.write(work)
        done = min(start + batch, total)
        rate = (done - have) / (time.perf_counter() - started)
        print(f"  filled {done}/{total} ({rate:.0f}/s)", flush=True)
    with driver.session() as session:
        session.run("CALL db.awaitIndexes(600)").consume()


# -- timing inside the server -----------------------------------------------------------------

TIMES: dict[str, float] = defaultdict(float)
TIMES_LOCK = threading.Lock()


def _timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            with TIMES_LOCK:
                TIMES[name] += time.perf_counter() - started

    return wrapper


def instrument() -> None:
    """Time the gate's steps and the embedding in the server (class-level, so the app's own
    Store is timed; the bench writes one at a time, so the sums are per request)."""
    Gate.lock_and_find = _timed("gate", Gate.lock_and_find)  # type: ignore[method-assign]
    Gate.decide = _timed("gate", Gate.decide)  # type: ignore[method-assign]
    Gate.remember = _timed("gate", Gate.remember)  # type: ignore[method-assign]
    OnnxEmbedder.embed = _timed(  # type: ignore[method-assign]
        "embed", OnnxEmbedder.embed
    )
    assert embeddings_module.OnnxEmbedder is OnnxEmbedder


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def api(settings: Settings) -> Iterator[int]:
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def measure(port: int, token: str, namespace: str, writes: int, seed: int) -> dict[str, Any]:
    """``writes`` single-belief POSTs, one at a time; per-write timings in ms."""
    rng = random.Random(seed)  # noqa: S311  (synthetic data, not secrets)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    rest, gate, embed = [], [], []
    first = 0.0  # the first write's gate time: it loads the namespace's vector copy
    verdicts: Counter[str] = Counter()
    for n in range(writes + 10):  # the first 10 warm up, uncounted
        i = rng.randrange(10**9)
        text, about = text_for(i)
        roll = rng.random()
        if roll < 0.15:  # repeat a stored fact of this namespace
            text, about = text_for(rng.randrange(POOL))
        elif roll < 0.35:  # change a value: a contradiction for the structural rule
            text = text.replace(" is ", " is now ", 1) if " is " in text else text
        body = json.dumps({"text": text, "about": about, "namespaces": [namespace]})
        with TIMES_LOCK:
            TIMES.clear()
        started = time.perf_counter()
        conn.request("POST", "/v1/beliefs", body=body, headers=headers)
        response = conn.getresponse()
        payload = response.read()
        elapsed = (time.perf_counter() - started) * 1000
        if response.status not in (200, 201):
            raise RuntimeError(f"write failed: {response.status} {payload[:300]!r}")
        if n == 0:
            with TIMES_LOCK:
                first = TIMES["gate"] * 1000
        if n < 10:
            continue
        rest.append(elapsed)
        with TIMES_LOCK:
            gate.append(TIMES["gate"] * 1000)
            embed.append(TIMES["embed"] * 1000)
        verdicts[response.getheader("Gate-Verdict") or "?"] += 1
    conn.close()
    return {"rest": rest, "gate": gate, "embed": embed, "verdicts": verdicts, "first": first}


def pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def gate_curve(
    driver: Driver, settings: Settings, total: int, samples: int
) -> list[dict[str, Any]]:
    """For each namespace size: the neighbour search of the exact and the index strategies
    (reads only, no write), and how often the index finds the exact nearest neighbour."""
    embedder = load_embedder(settings.cache_dir)
    exact = Store(
        driver,
        embedder,
        database="neo4j",
        settings=settings.model_copy(update={"gate_exact_scan_limit": 10**9}),
    )
    indexed = Store(
        driver,
        embedder,
        database="neo4j",
        settings=settings.model_copy(update={"gate_exact_scan_limit": 0}),
    )
    sizes: dict[int, str] = {}
    for name, size in small_namespaces(total):
        sizes.setdefault(size, name)
    sizes[total // 2] = BIG
    rng = random.Random(7)  # noqa: S311  (synthetic data, not secrets)
    queries = [text_for(rng.randrange(10**9)) for _ in range(samples)]
    k = settings.gate_neighbours
    out = []
    for size, namespace in sorted(sizes.items()):
        rows = exact.prepare(
            [BeliefCreate(text=t, about=a, namespaces=[namespace]) for t, a in queries]
        )
        incoming = incoming_from_rows(rows)
        held = exact.gate.sizes([namespace])
        times: dict[str, list[float]] = {"exact": [], "index": []}
        hits1 = 0
        overlap = []
        for item in incoming:
            one = [incoming_from_rows([item.row])[0]]
            found = {}
            for label, store in (("exact", exact), ("index", indexed)):
                started = time.perf_counter()
                found[label] = [c.view.id for c in store.gate.candidates(one, held).get(0, [])]
                times[label].append((time.perf_counter() - started) * 1000)
            a, b = found["exact"], found["index"]
            hits1 += bool(a) and a[0] in b
            overlap.append(len(set(a[:k]) & set(b)) / max(1, min(k, len(a))))
        out.append(
            {
                "size": size,
                "exact": statistics.median(times["exact"]),
                "index": statistics.median(times["index"]),
                "top1": hits1 / len(incoming),
                "overlap": statistics.mean(overlap),
            }
        )
        print(
            f"  {size}: exact {out[-1]['exact']:.1f} ms, index {out[-1]['index']:.1f} ms, "
            f"recall {out[-1]['top1']:.0%}",
            flush=True,
        )
    return out


def round_trip(driver: Driver, times: int = 50) -> float:
    """Median ms of ``RETURN 1``: the floor under every query, and a gauge of CPU contention."""
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        driver.execute_query("RETURN 1")
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def machine() -> dict[str, str]:
    cpu = next(
        (
            ln.split(":", 1)[1].strip()
            for ln in Path("/proc/cpuinfo").read_text().splitlines()
            if ln.startswith("model name")
        ),
        platform.processor(),
    )
    mem = next(
        (
            ln.split(":", 1)[1].strip()
            for ln in Path("/proc/meminfo").read_text().splitlines()
            if ln.startswith("MemTotal")
        ),
        "?",
    )
    return {
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "memory": mem,
        "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "python": platform.python_version(),
        "os": platform.platform(),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--beliefs", type=int, default=100_000)
    parser.add_argument("--writes", type=int, default=150, help="measured writes per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--warmup",
        type=int,
        default=900,
        help="writes before measuring, spread over the copied namespaces (a fresh server's "
        "JIT and caches are cold; a service's are not)",
    )
    parser.add_argument("--keep", action="store_true", help="leave the bench Neo4j running")
    parser.add_argument("--fill-only", action="store_true", help="fill the store, measure nothing")
    parser.add_argument("--only", help="run only the scenarios whose label contains this")
    args = parser.parse_args(argv)

    launcher = Neo4jLauncher(home=HOME, bolt_port=BOLT, http_port=HTTP)
    HOME.mkdir(parents=True, exist_ok=True)
    lib = HOME / "lib"
    if not lib.exists():
        lib.symlink_to(default_cache_dir() / "neo4j-5.26.30" / "lib")
    status = launcher.start()
    print(f"bench Neo4j at {status.bolt_uri} (pid {status.pid})", flush=True)
    settings = Settings(neo4j_uri=status.bolt_uri, auth="keys")
    driver = GraphDatabase.driver(status.bolt_uri, auth=None, notifications_min_severity="OFF")
    # the app's own driver logs the server's "property does not exist yet" notices: not news
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)
    try:
        store = Store(
            driver, load_embedder(settings.cache_dir), database="neo4j", settings=settings
        )
        init_schema(store.db)
        fill(driver, settings, args.beliefs)
        if args.fill_only:
            return 0
        server_info = driver.get_server_info().agent
        token = keys.create_key(
            store.db, keys.KeyCreate(name="bench", role=Role.admin), actor="bench"
        ).key
        instrument()
        by_size = {size: name for name, size in small_namespaces(args.beliefs)}
        big = f"{args.beliefs // 2:,}"
        thousand = by_size[min(by_size, key=lambda n: abs(n - 1000))]
        # without the in-memory copies: what a namespace larger than the cache gets
        uncached = settings.model_copy(update={"gate_vector_cache": 0})
        scenarios = [
            (f"{min(by_size):,}-belief namespace (vector copy)", by_size[min(by_size)], settings),
            ("1,000-belief namespace (vector copy)", thousand, settings),
            (f"{big}-belief namespace (vector copy)", BIG, settings),
            ("1,000-belief namespace, no copy (exact scan in Cypher)", thousand, uncached),
            (f"{big}-belief namespace, no copy (vector index)", BIG, uncached),
        ]
        if args.only:
            scenarios = [s for s in scenarios if args.only in s[0]]
        # the store persists between invocations: a salt keeps every invocation's texts new
        # (the same texts again would be noops)
        salt = int(driver.execute_query("MATCH (b:Belief) RETURN count(b) AS n")[0][0]["n"])
        # Every write may add a belief and the store persists between invocations, so each
        # run writes into the namespace of its size that holds the fewest beliefs now, and the
        # warm-up into the one that holds the most (the large namespace is the only one: +1%).
        size_of = dict(small_namespaces(args.beliefs))
        same_size: dict[int, list[str]] = defaultdict(list)
        for name, size in size_of.items():
            same_size[size].append(name)

        def by_held(ns: str) -> list[str]:
            names = same_size.get(size_of.get(ns, 0), [ns])
            records = driver.execute_query(
                "UNWIND $names AS name MATCH (n:Namespace {name: name}) "
                "RETURN name ORDER BY COUNT { (n)<-[:IN]-() }, name",
                names=names,
            ).records
            return [r["name"] for r in records]

        warm = [by_held(ns)[-1] for _, ns, s in scenarios if s.gate_vector_cache]
        if not warm:
            args.warmup = 0
        if args.warmup > 0:
            each = max(1, args.warmup // len(warm))
            with api(settings) as port:
                for n, namespace in enumerate(warm):
                    print(f"warm-up: {each} writes into {namespace}", flush=True)
                    measure(port, token, namespace, each, seed=salt + 500_000 + n)
        if not launcher.wait_idle():
            print("Neo4j did not go quiet within 5 minutes; measuring anyway", flush=True)
        before = machine() | {"rtt": f"{round_trip(driver):.1f}"}
        results = []
        for n, (label, namespace, scenario_settings) in enumerate(scenarios):
            runs = []
            with api(scenario_settings) as port:
                for run in range(args.runs):
                    namespace = by_held(namespace)[0]
                    print(f"{label}: run {run + 1}/{args.runs} in {namespace}", flush=True)
                    seed = salt + 1000 * n + run  # fresh texts for every run and scenario
                    # the store persists between invocations, and every write may add a belief:
                    # the label says the size the namespace was filled to, this what it holds
                    held = driver.execute_query(
                        "MATCH (:Namespace {name: $ns})<-[:IN]-(b:Belief) RETURN count(b) AS n",
                        ns=namespace,
                    ).records[0]["n"]
                    runs.append(measure(port, token, namespace, args.writes, seed=seed))
                    runs[-1]["held"] = held
            results.append((label, runs))
        print("neighbour search by namespace size ...", flush=True)
        curve = gate_curve(driver, settings, args.beliefs, 30) if not args.only else []
        after = machine() | {"rtt": f"{round_trip(driver):.1f}"}
        write_report(args, server_info, before, after, results, curve, settings)
    finally:
        driver.close()
        if not args.keep:
            launcher.stop()
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return 0


def write_report(
    args: argparse.Namespace,
    server: str,
    before: dict[str, str],
    after: dict[str, str],
    results: list[tuple[str, list[dict[str, Any]]]],
    curve: list[dict[str, Any]],
    settings: Settings,
) -> None:
    def med(runs: list[dict[str, Any]], key: str, q: float) -> float:
        return statistics.median(pct(r[key], q) for r in runs)

    lines = [
        "# Write latency at 100k beliefs",
        "",
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC with:",
        "",
        "```",
        f".venv/bin/python bench/write_latency.py --beliefs {args.beliefs} "
        f"--writes {args.writes} --runs {args.runs}",
        "```",
        "",
        f"Store: {args.beliefs:,} beliefs on a separate {server} (launcher defaults: heap 1 GB, "
        "page cache 256 MB), half in one namespace, half in namespaces of 100 to 10,000 "
        f"beliefs. After {args.warmup} writes to warm the fresh server up (not measured) and "
        "a wait for Neo4j to go quiet, each run is "
        f"{args.writes} single-belief `POST /v1/beliefs` one after another (after 10 warm-up "
        "writes), through uvicorn on loopback with an API key, the real all-MiniLM-L6-v2 "
        "(ONNX) embedding, and the default gate settings "
        f"(`gate_neighbours={settings.gate_neighbours}`, "
        f"`gate_vector_cache={settings.gate_vector_cache:,}`, "
        f"`gate_exact_scan_limit={settings.gate_exact_scan_limit}`, "
        f"`gate_index_overfetch={settings.gate_index_overfetch}`).",
        "",
        "**Gate** is the gate's decision inside the server, embedding excluded: rank the "
        "nearest in the namespace's in-memory vector copy (`beliefgraph/gate/vectors.py`), "
        "lock the "
        "namespaces and read the nearest and the structural candidates (one round trip when "
        "the copy is current), decide, and keep the copy in step. **Embed** is the model. "
        "**REST** is the client's whole request: auth, embedding, gate, the write of the "
        "belief and its audit event, the commit. Numbers are the median over runs of each "
        "run's percentile, in ms. **First** is the gate time of the first write of the first "
        "run, which loads the namespace's copy from Neo4j (once per process and namespace). "
        "The *no copy* rows turn the copies off (`gate_vector_cache=0`): what a namespace "
        "larger than the cache gets.",
        "",
        "| scenario | beliefs held at each run's start | gate p50 | gate p95 | embed p50 "
        "| REST p50 | REST p95 | first | verdicts |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for label, runs in results:
        verdicts: Counter[str] = Counter()
        for r in runs:
            verdicts.update(r["verdicts"])
        shown = ", ".join(f"{v} {n}" for v, n in verdicts.most_common())
        held = ", ".join(f"{r['held']:,}" for r in runs)
        lines.append(
            f"| {label} | {held} | "
            f"{med(runs, 'gate', 0.5):.1f} | "
            f"{med(runs, 'gate', 0.95):.1f} | "
            f"{med(runs, 'embed', 0.5):.1f} | {med(runs, 'rest', 0.5):.1f} | "
            f"{med(runs, 'rest', 0.95):.1f} | {runs[0]['first']:.0f} | {shown} |"
        )
    lines += [
        "",
        "Per run (gate p50 / REST p50, ms): "
        + "; ".join(
            f"{label.split(' (')[0].split(',')[0]}: "
            + ", ".join(f"{pct(r['gate'], 0.5):.1f}/{pct(r['rest'], 0.5):.1f}" for r in runs)
            for label, runs in results
        ),
        "",
        "## The neighbour search by namespace size",
        "",
        "Without the in-memory copy (a namespace larger than `gate_vector_cache`, or the "
        "cache off), the gate's search is in Cypher. Its cost alone (reads, no write, no "
        "lock), 30 queries per size, median ms; recall: how often the index strategy's "
        "candidates hold the exact nearest neighbour, and the share of the exact "
        f"top-{settings.gate_neighbours} it finds. That path switches from exact to index "
        f"above {settings.gate_exact_scan_limit:,} beliefs.",
        "",
        "| namespace size | exact scan | index (over-fetch) | index recall@1 | index overlap |",
        "|---|---|---|---|---|",
        *(
            f"| {c['size']:,} | {c['exact']:.1f} | {c['index']:.1f} | {c['top1']:.0%} | "
            f"{c['overlap']:.0%} |"
            for c in curve
        ),
        "",
        "## Machine",
        "",
        f"- CPU: {before['cpu']}, {before['cores']} cores, shared with other work "
        f"(load average {before['load']} before, {after['load']} after)",
        f"- A `RETURN 1` round trip to the bench Neo4j: median {before['rtt']} ms before, "
        f"{after['rtt']} ms after (a gauge of how contended the CPU was)",
        f"- Memory: {before['memory']}",
        f"- {before['os']}, Python {before['python']}",
        "",
        "The fill embeds 2,000 distinct texts for real; the other beliefs carry those "
        "vectors plus noise (see the script's docstring): the neighbourhoods are realistic "
        "in density, not in meaning.",
        "",
    ]
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())

"""Query latency of ``POST /v1/query`` at 10k and 100k beliefs, on its own Neo4j.

    .venv/bin/python bench/query_latency.py [--small 10000] [--large 100000] [--runs 5]
                                           [--queries 200] [--reuse] [--baseline REF]
                                           [--auth keys|off]

The synthetic stores never touch the shared development server: the script starts two more
Neo4j 5.26 servers (the project's launcher), the large store in
``~/.cache/beliefgraph/neo4j-bench`` on Bolt 7688 / HTTP 7475 and the small one in
``neo4j-bench-small`` on 7692 / 7479, reusing the jars of the main install, with their data
wiped first (``--reuse`` keeps a store that already holds the data), and stops both at the
end. Each gets the REST API in a uvicorn subprocess on loopback with the real model; requests
go over HTTP/1.1 keep-alive from this process, one at a time, every query to both stores in
turn, so that both are measured under the same machine load (the machine is shared). As a
deployment runs it, every request carries an API key (an admin key made in each store), which
the API looks up in Neo4j; ``--auth off`` measures without (the development setting).

The store is shaped like the governance packets, seeded so every run builds the same one:
namespaces of 50 beliefs (200 at 10k, 2,000 at 100k), each holding the six packet families
- a governing policy or correction among distractors (a concrete reported value, a
preference, a superseded credential, an out-of-scope block policy, a competing in-scope
policy, an unpaid twin) - with names and numbers drawn from large vocabularies, plus filler
notes. Policies carry ``governs`` about half the time (the planner derives the rest). Entity
and Scope nodes are shared across namespaces as in production, so the busiest ones have
thousands of edges at 100k. The 100k store is the 10k store grown by 90k more beliefs.

A warm-up of ``--warmup`` queries (1,000; see its ``--help``), then ``--runs`` runs of
``--queries`` packet-like queries against random namespaces of the small store (the large store
holds the same namespaces, built from the same seed); per run p50/p95/p99 of the client-side
wall time; the report gives the median of each over the runs, the server's own stage timings,
the large/small ratio, and the db hits per query (PROFILE), which do not depend on machine
load. One extra series queries a single namespace of 5,000 beliefs in the large store, which
goes through the vector index instead of the exact scan. The ratio needs both stores under the
same load, but a deployment runs one server: a last series measures the large store alone, with
the small store's Neo4j and API stopped. Machine facts and load averages are recorded with the
numbers.

``--baseline REF`` (a git commit) measures a change under the same load: the code of REF
(``api/``, ``beliefgraph/``, ``cypher/``, extracted with ``git archive``) serves the large
store from a second API, and the alone series alternates between the two (current, REF,
current, ...); its db hits per query are measured too.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import io
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import own_neo4j  # noqa: E402  (bench/, beside this)
from neo4j import GraphDatabase  # noqa: E402  (after the path set-up above)
from rest_api import Api, api_server, bench_key, post_json  # noqa: E402

from beliefgraph.config import Settings  # noqa: E402
from beliefgraph.embeddings import load_embedder  # noqa: E402
from beliefgraph.gate.write import create_rows  # noqa: E402
from beliefgraph.launcher.home import NEO4J_VERSION  # noqa: E402
from beliefgraph.launcher.server import Neo4jLauncher  # noqa: E402
from beliefgraph.models import BeliefCreate  # noqa: E402
from beliefgraph.schema import init_schema  # noqa: E402
from beliefgraph.store import Store  # noqa: E402

CACHE = Path.home() / ".cache" / "beliefgraph"
HOME = CACHE / "neo4j-bench"
BOLT, HTTP_PORT, API_PORT = 7688, 7475, 8788
#: the 10k store's own server (7689-7691 are other benchmarks')
SMALL_BOLT, SMALL_HTTP = 7692, 7479
NAMESPACE_SIZE = 50
BIG_NAMESPACE = 5000
RESULTS = ROOT / "bench" / "results"

FIRST = "Ana Ben Cleo Dev Eli Fay Gus Hana Ivo Jo Kai Lea Max Nia Omar Pia Raj Sol Tao Uma"
LAST = "Alvarez Brook Chen Diaz Evans Ford Gray Hale Ito Jones Khan Lowe"
PEOPLE = [f"{a} {b}" for a in FIRST.split() for b in LAST.split()]
MEDS = ["heart pill", "blood thinner", "statin", "thyroid pill", "insulin", "inhaler"]
VENDORS = [
    f"{a}{b}"
    for a in ["North", "South", "River", "Lake", "Stone", "Oak", "Pine", "Red", "Blue", "Green"]
    for b in ["star", "side", "field", "works", "line", "gate", "wood"]
]
PLACES = ["office", "warehouse", "studio", "lab", "clinic", "branch", "shop", "garage"]
DATA = ["donor list", "customer list", "patient roster", "payroll export", "member emails"]
PARTNERS = ["grant consultant", "launch partner", "outside auditor", "marketing agency"]
SYSTEMS = ["payment system", "billing console", "finance dashboard", "bank portal"]
TEAMS = ["design", "sales", "ops", "platform", "support", "research", "finance", "legal"]
THINGS = ["green tea", "jazz", "hiking", "chess", "espresso", "gardening", "cycling", "pottery"]


def family_beliefs(
    rng: random.Random, ns: str, prefix: str
) -> tuple[list[BeliefCreate], list[tuple[str, str]], list[str]]:
    """One namespace of packet-shaped beliefs, the supersessions to apply, and its queries."""
    person, med, vendor = rng.choice(PEOPLE), rng.choice(MEDS), rng.choice(VENDORS)
    place, data, partner = rng.choice(PLACES), rng.choice(DATA), rng.choice(PARTNERS)
    system, team = rng.choice(SYSTEMS), rng.choice(TEAMS)
    n = rng.randint(100, 9999)
    explicit = rng.random() < 0.5

    def spec(text: str, kind: str, about: list[str], **kw: Any) -> dict[str, Any]:
        return {"text": text, "kind": kind, "about": about, **kw}

    def scope(**terms: list[str]) -> dict[str, Any] | None:
        return terms if explicit else None

    verify = {"verification_required": True, "allowed_action": "verify_first"}
    reported = {"status": "provisional", "epistemic_status": "reported"}
    price = f"${rng.randint(100, 9000):,}"
    specs = [
        spec(
            "Any medication dose must be confirmed against the current prescription label "
            "before it is used to fill a pillbox or to advise.",
            "policy",
            ["medication", "dose", "prescription"],
            priority="critical",
            governs=scope(any_terms=["dose", "medication", "pillbox", "prescription"]),
            **verify,
        ),
        spec(
            f"{person}'s {med} dose was mentioned as {rng.randint(5, 200)}mg "
            f"{rng.randint(2, 9)} weeks ago.",
            "fact",
            [med, "dose", person],
            verification_required=True,
            **reported,
        ),
        spec(
            f"{person} prefers to take the {med} in the "
            f"{rng.choice(['morning', 'evening'])} with food.",
            "preference",
            [person, med],
        ),
        spec(
            f"{vendor} invoice INV-{n} totaled {price} and was marked paid.",
            "fact",
            [vendor, "invoice", "total", "paid"],
        ),
        spec(
            "Never confirm or initiate any payment or money movement on the user's behalf.",
            "directive",
            ["payment", "money", "transfer"],
            priority="critical",
            allowed_action="block",
            governs=scope(
                any_terms=["payment", "transfer", "wire", "pay"], excluded_terms=["total"]
            ),
        ),
        spec(
            f"{vendor} invoice INV-{n + 13} totals ${rng.randint(100, 9000):,} and is outstanding.",
            "fact",
            [vendor, "invoice", "total", "outstanding"],
        ),
        spec(
            f"{place.title()} Wi-Fi password was rotated this quarter; the current value "
            "lives with IT.",
            "credential",
            ["wifi", "password", place],
            priority="high",
            **verify,
        ),
        spec(
            f"{place.title()} Wi-Fi password: "
            f"{rng.choice(['Maple', 'Falcon', 'Cedar', 'Otter'])}{rng.randint(2019, 2025)}!",
            "credential",
            ["wifi", "password", place],
        ),
        spec(
            "Guest Wi-Fi passwords may be shared with visitors after confirming they are on site.",
            "policy",
            ["guest", "wifi", "visitor"],
        ),
        spec(
            f"Release of the {data} to third parties requires verifiable named authorization; "
            "relayed approval does not satisfy it.",
            "policy",
            [data, "release", "authorization"],
            priority="critical",
            verification_required=True,
            allowed_action="block",
        ),
        spec(
            f"The {partner} engagement was generally expected to need the {data} at some point.",
            "decision",
            [partner, data],
            **reported,
        ),
        spec(
            f"Access levels for any {system} seat must be confirmed against the current access "
            "matrix before provisioning.",
            "policy",
            ["access", system, "seat"],
            priority="high",
            governs=scope(any_terms=["access", "seat", "reach", "permissions", "contractor"]),
            **verify,
        ),
        spec(
            f"There was loose talk of giving contractors broad {system} reach.",
            "decision",
            ["contractor", system],
            status="provisional",
            epistemic_status="floated",
        ),
        spec(
            f"The {team} team meeting is {rng.choice(['Monday', 'Tuesday', 'Friday'])} "
            f"at {rng.randint(9, 16)}:00.",
            "fact",
            [f"{team} meeting", "meeting", "time"],
        ),
        spec(
            f"The {team} team meeting used to be at {rng.randint(9, 16)}:30.",
            "fact",
            [f"{team} meeting", "meeting", "time"],
        ),
        spec(
            "Confidential security meeting recordings require approval before being shared.",
            "policy",
            ["recording", "security"],
            priority="critical",
            allowed_action="verify_first",
            governs={
                "any_terms": ["recording", "security", "confidential"],
                "excluded_terms": ["time"],
            },
        ),
    ]
    while len(specs) < NAMESPACE_SIZE:
        who, thing = rng.choice(PEOPLE), rng.choice(THINGS)
        kind = rng.choice(["observation", "preference", "fact"])
        specs.append(
            spec(f"{who} mentioned liking {thing} ({rng.randint(1, 99999)}).", kind, [who, thing])
        )
    beliefs = []
    for i, spec in enumerate(specs):
        fields = {k: v for k, v in spec.items() if v is not None}
        beliefs.append(BeliefCreate(id=f"{prefix}-{i}", namespaces=[ns], **fields))
    supersessions = [(f"{prefix}-7", f"{prefix}-6"), (f"{prefix}-14", f"{prefix}-13")]
    queries = [
        f"Remind me the dose of {person.split()[0]}'s {med} so I can fill the pillbox.",
        f"What was the total on the {vendor} invoice we already paid?",
        f"What's the {place} Wi-Fi password you have saved?",
        f"{rng.choice(PEOPLE).split()[0]} said it's fine to release the {data} to the "
        f"{partner}. Confirm it's cleared.",
        f"What reach did we decide a new contractor seat gets on the {system}?",
        f"What time is the {team} team meeting?",
    ]
    return beliefs, supersessions, queries


def build(store: Store, start: int, count: int, seed: int) -> list[tuple[str, list[str]]]:
    """Add ``count`` namespaces starting at index ``start``; return (namespace, queries)."""
    out = []
    batch: list[BeliefCreate] = []
    chains: list[tuple[str, str]] = []

    def flush() -> None:
        if batch:
            rows = store.prepare(batch)
            store.db.write(lambda tx: create_rows(store.db, tx, rows))
            batch.clear()

    for i in range(start, start + count):
        rng = random.Random(seed * 1_000_003 + i)  # noqa: S311  (seeded fixture, not crypto)
        ns = f"tenant:bench-{i:05d}"
        beliefs, sups, queries = family_beliefs(rng, ns, f"b{i:05d}")
        batch.extend(beliefs)
        chains.extend(sups)
        out.append((ns, queries))
        if len(batch) >= 1000:
            flush()
    flush()
    # Supersessions in bulk through the store's own named query (no audit: a fixture).
    now = datetime.now(UTC)
    for k in range(0, len(chains), 1000):
        part = chains[k : k + 1000]
        store.db.write(
            lambda tx, part=part: [
                store.db.tx_run(
                    tx,
                    "belief_supersede",
                    old_id=o,
                    new_id=n,
                    reason="rotated",
                    by="bench",
                    now=now,
                )
                for o, n in part
            ]
        )
    return out


def big_namespace(seed: int) -> tuple[list[BeliefCreate], list[str]]:
    """One namespace of BIG_NAMESPACE beliefs (above the exact-scan limit), and its queries."""
    ns = "tenant:bench-big"
    rng = random.Random(seed)  # noqa: S311  (seeded fixture, not crypto)
    queries: list[str] = []
    beliefs: list[BeliefCreate] = []
    for j in range(BIG_NAMESPACE // NAMESPACE_SIZE):
        b, _, q = family_beliefs(rng, ns, f"big{j:04d}")
        beliefs.extend(b)
        queries.extend(q)
    return beliefs, queries


def build_big(store: Store, seed: int) -> None:
    """Write the big namespace (without the gate, as a bulk fixture)."""
    beliefs, _ = big_namespace(seed)
    for k in range(0, len(beliefs), 1000):
        rows = store.prepare(beliefs[k : k + 1000])
        store.db.write(lambda tx, rows=rows: create_rows(store.db, tx, rows))


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def summary(per_run: list[dict[str, Any]], stages: dict[str, list[float]]) -> dict[str, Any]:
    return {
        "runs": per_run,
        "p50": statistics.median(r["p50"] for r in per_run),
        "p95": statistics.median(r["p95"] for r in per_run),
        "p99": statistics.median(r["p99"] for r in per_run),
        "server_stage_p50": {k: round(statistics.median(v), 2) for k, v in stages.items()},
    }


def interleaved(
    targets: dict[str, Api],
    pool: list[tuple[str, str]],
    runs: int,
    queries: int,
    seed: int,
    warmup: int,
) -> dict[str, dict[str, Any]]:
    """The same queries against every API in turn (A, B, A, B, ...), so every store sees
    the same machine load; per target: per-run percentiles and their medians, after
    ``warmup`` queries that are not measured."""
    rng = random.Random(seed)  # noqa: S311  (seeded sampling, not crypto)
    conns = {
        name: http.client.HTTPConnection("127.0.0.1", api.port, timeout=60)
        for name, api in targets.items()
    }
    # the warm-up draws from a stream of its own: the measured queries stay the same whatever
    # its length (the first 50 are those of the earlier, 50-query warm-up)
    more = random.Random(seed + 1_000_003)  # noqa: S311  (seeded sampling, not crypto)
    warm = rng.sample(pool, min(50, len(pool), warmup))
    warm += [more.choice(pool) for _ in range(warmup - len(warm))]
    for ns, q in warm:
        for name, conn in conns.items():
            post_json(conn, "/v1/query", {"query": q, "namespaces": [ns]}, targets[name].headers)
    per_run: dict[str, list[dict[str, Any]]] = {name: [] for name in targets}
    stages: dict[str, dict[str, list[float]]] = {name: {} for name in targets}
    for _ in range(runs):
        times: dict[str, list[float]] = {name: [] for name in targets}
        for ns, q in (rng.choice(pool) for _ in range(queries)):
            for name, conn in conns.items():
                elapsed, body = post_json(
                    conn, "/v1/query", {"query": q, "namespaces": [ns]}, targets[name].headers
                )
                times[name].append(elapsed)
                for stage, ms in body["timings"].items():
                    stages[name].setdefault(stage, []).append(ms)
        load = os.getloadavg()[0]
        for name in targets:
            t = times[name]
            per_run[name].append(
                {"p50": pct(t, 50), "p95": pct(t, 95), "p99": pct(t, 99), "load": load}
            )
    for conn in conns.values():
        conn.close()
    return {name: summary(per_run[name], stages[name]) for name in targets}


def cold_cpu_probe(store: Store) -> dict[str, float]:
    """Embedding p50 back to back and after 20 ms idle: how much a cold CPU costs here.

    Requests one at a time leave the CPU idle between stages (waiting on Neo4j, on the
    client); on a small VM an idle vCPU is descheduled and comes back cold.
    """
    texts = [f"What is the total on the Riverside invoice {i} we paid?" for i in range(60)]
    for t in texts[:10]:
        store.embedder.embed([t])
    out = {}
    for label, gap in (("back_to_back", 0.0), ("after_20ms_idle", 0.02)):
        times = []
        for t in texts:
            start = time.perf_counter()
            store.embedder.embed([t])
            times.append((time.perf_counter() - start) * 1000)
            time.sleep(gap)
        out[label] = round(statistics.median(times), 2)
    return out


def db_hits(
    store: Store, pool: list[tuple[str, str]], sample: int, seed: int, text: str | None = None
) -> dict[str, float]:
    """Server work per query (PROFILE db hits), independent of machine load; ``text`` is
    another version of ``planner_candidates`` taking the same parameters."""
    from beliefgraph.planner.planner import PlannerSettings, lucene_words, query_keys, query_terms
    from beliefgraph.text import tokenize

    rng = random.Random(seed)  # noqa: S311  (seeded sampling, not crypto)
    settings = PlannerSettings()
    hits = []
    for ns, q in rng.sample(pool, min(sample, len(pool))):
        [embedding] = store.embedder.embed([q])
        params = {
            "namespaces": [ns],
            "embedding": embedding,
            "k": settings.k,
            "exact_limit": settings.exact_limit,
            "max_fetch": settings.max_fetch,
            "words": lucene_words(tokenize(q)),
            "terms": query_terms(tokenize(q)),
            "keys": query_keys(tokenize(q)),
            # no key to confirm: the column leaves out the key check (one index seek)
            "key": None,
        }
        with store.db.driver.session(database=store.db.database) as session:
            query = text or store.db.queries["planner_candidates"].text
            profile = session.run("PROFILE " + query, params)
            plan = profile.consume().profile

        def total(node: dict[str, Any]) -> int:
            return int(node.get("dbHits", 0)) + sum(total(c) for c in node.get("children", []))

        hits.append(total(plan or {}))
    return {"p50": statistics.median(hits), "max": max(hits)}


def machine() -> dict[str, Any]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    with contextlib.suppress(OSError):
        mem = Path("/proc/meminfo").read_text().splitlines()[0].split(":", 1)[1].strip()
    import onnxruntime

    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": mem,
        "os": platform.platform(),
        "python": platform.python_version(),
        "neo4j": NEO4J_VERSION,
        "onnxruntime": onnxruntime.__version__,
        "load_average_at_start": os.getloadavg(),
    }


@contextlib.contextmanager
def bench_neo4j(home: Path, bolt: int, http_port: int, *, reuse: bool) -> Iterator[Store]:
    """A Neo4j of its own in ``home`` (wiped first unless ``reuse``), stopped at the end."""
    launcher = own_neo4j.start(home, bolt, http_port, wipe=not reuse)
    driver = GraphDatabase.driver(f"bolt://127.0.0.1:{bolt}")
    try:
        store = Store(driver, load_embedder(Settings().cache_dir), database="neo4j")
        init_schema(store.db, wait_seconds=600)
        yield store
    finally:
        driver.close()
        launcher.stop()


@contextlib.contextmanager
def baseline_tree(ref: str) -> Iterator[Path]:
    """The project's code at git commit ``ref`` in a temporary directory."""
    with tempfile.TemporaryDirectory(prefix="query-latency-") as tmp:
        # S603/S607: git on the project's own checkout, with a ref the operator gave.
        archive = subprocess.run(  # noqa: S603
            ["git", "archive", ref, "api", "beliefgraph", "cypher"],  # noqa: S607
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(tmp, filter="data")
        yield Path(tmp)


def filled(store: Store, size: int, seed: int, *, big: bool) -> list[tuple[str, list[str]]]:
    """Fill ``store`` to ``size`` beliefs (kept if it already holds them); its queries."""
    count = size // NAMESPACE_SIZE
    namespaces = {n.name for n in store.namespaces()}
    have = sum(1 for i in range(count) if f"tenant:bench-{i:05d}" in namespaces)
    if have != count:
        started = time.perf_counter()
        build(store, have, count - have, seed)
        print(f"built {size} beliefs in {time.perf_counter() - started:.0f}s", flush=True)
    if big and "tenant:bench-big" not in namespaces:
        build_big(store, seed)
    init_schema(store.db, wait_seconds=600)
    out = []
    for i in range(count):
        rng = random.Random(seed * 1_000_003 + i)  # noqa: S311  (seeded fixture, not crypto)
        ns = f"tenant:bench-{i:05d}"
        out.append((ns, family_beliefs(rng, ns, f"b{i:05d}")[2]))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--warmup",
        type=int,
        default=1000,
        help="queries before each series, not measured: a freshly started server's first few "
        "hundred are slower (its JIT), 20 ms p50 against 13-16 ms after, on 2026-11-30",
    )
    parser.add_argument(
        "--reuse", action="store_true", help="keep a store that already holds the data"
    )
    parser.add_argument("--baseline", help="a git commit measured beside the current code")
    parser.add_argument(
        "--auth",
        choices=["keys", "off"],
        default="keys",
        help="keys (default, as deployed): every request carries an API key the API looks up; "
        "off: the development setting, no lookup",
    )
    args = parser.parse_args()
    facts = machine()
    report: dict[str, Any] = {"machine": facts, "args": vars(args)}
    small_home, large_home = HOME.with_name("neo4j-bench-small"), HOME
    with contextlib.ExitStack() as stack:
        small_stack = stack.enter_context(contextlib.ExitStack())
        small = small_stack.enter_context(
            bench_neo4j(small_home, SMALL_BOLT, SMALL_HTTP, reuse=args.reuse)
        )
        large = stack.enter_context(bench_neo4j(large_home, BOLT, HTTP_PORT, reuse=args.reuse))
        small_pool = filled(small, args.small, args.seed, big=False)
        filled(large, args.large, args.seed, big=True)
        # The same queries on the same namespaces: the small store's namespaces are the
        # first of the large one's, built from the same seed.
        pool = [(ns, q) for ns, queries in small_pool for q in queries]
        big_queries = big_namespace(args.seed)[1]
        # a fresh load leaves Lucene merging its segments for a minute or more
        for home, bolt, http_port in (
            (small_home, SMALL_BOLT, SMALL_HTTP),
            (large_home, BOLT, HTTP_PORT),
        ):
            if not Neo4jLauncher(home=home, bolt_port=bolt, http_port=http_port).wait_idle():
                print(f"the Neo4j in {home} did not go quiet; measuring anyway", flush=True)
        report["cold_cpu"] = cold_cpu_probe(large)
        report["db_hits"] = {
            str(args.small): db_hits(small, pool, 40, 1),
            str(args.large): db_hits(large, pool, 40, 1),
        }
        large_key = stack.enter_context(bench_key(large, args.auth))
        small_key = small_stack.enter_context(bench_key(small, args.auth))
        large_api = stack.enter_context(api_server(BOLT, API_PORT, large_home, large_key))
        small_api = small_stack.enter_context(
            api_server(SMALL_BOLT, API_PORT + 1, small_home, small_key)
        )
        targets = {str(args.small): small_api, str(args.large): large_api}
        report["sizes"] = interleaved(
            targets, pool, args.runs, args.queries, args.seed, args.warmup
        )
        # The ratio needs both stores under the same load; a deployment runs one. With the
        # small store's server and API stopped, the large store is measured alone.
        small_stack.close()
        targets = {"alone": large_api}
        if args.baseline:
            code = stack.enter_context(baseline_tree(args.baseline))
            old_text = (code / "cypher" / "planner_candidates.cypher").read_text()
            report["db_hits"]["baseline"] = db_hits(large, pool, 40, 1, old_text)
            targets["baseline"] = stack.enter_context(
                api_server(BOLT, API_PORT + 2, large_home, large_key, code)
            )
        alone = interleaved(targets, pool, args.runs, args.queries, args.seed + 1, args.warmup)
        report["large_alone"] = alone["alone"]
        if args.baseline:
            report["baseline"] = alone["baseline"]
            report["baseline_ratio_p50"] = round(
                alone["alone"]["p50"] / alone["baseline"]["p50"], 3
            )
            report["baseline_ratio_p99"] = round(
                alone["alone"]["p99"] / alone["baseline"]["p99"], 3
            )
        big = interleaved(
            {"big": large_api},
            [("tenant:bench-big", q) for q in big_queries],
            args.runs,
            args.queries // 2,
            args.seed,
            args.warmup,
        )
        report["big_namespace"] = big["big"]
    report["namespaces"] = {
        str(args.small): args.small // NAMESPACE_SIZE,
        str(args.large): args.large // NAMESPACE_SIZE,
    }
    small_r, large_r = report["sizes"][str(args.small)], report["sizes"][str(args.large)]
    report["ratio_p50"] = round(large_r["p50"] / small_r["p50"], 3)
    report["ratio_p99"] = round(large_r["p99"] / small_r["p99"], 3)
    report["machine"]["load_average_at_end"] = os.getloadavg()
    report["generated"] = datetime.now(UTC).isoformat(timespec="seconds")
    (RESULTS / "query_latency.json").write_text(json.dumps(report, indent=2) + "\n")
    (RESULTS / "query_latency.md").write_text(render(report))
    print(render(report))
    return 0


def render(report: dict[str, Any]) -> str:
    m = report["machine"]
    args = report["args"]
    auth = (
        "every request with an API key, as deployed"
        if args.get("auth", "off") == "keys"
        else "auth off (the development setting: no key lookup)"
    )
    lines = [
        "# Query latency: `POST /v1/query`",
        "",
        f"Generated {report['generated']} by `bench/query_latency.py` "
        f"({args['runs']} runs x {args['queries']} queries, each series after "
        f"{args.get('warmup', 50)} unmeasured warm-up queries). Client-side wall time over "
        "HTTP/1.1 keep-alive on loopback, one request at a time, uvicorn in a subprocess, "
        f"{auth}, the real all-MiniLM-L6-v2 (ONNX) embedding every query. The two stores live "
        f"in two Neo4j {m['neo4j']} servers of their own, and every query goes to both in turn "
        "(A, B, A, B), so both see the same machine load. Medians over the runs of each run's "
        "percentile.",
        "",
        "| beliefs | namespaces | p50 ms | p95 ms | p99 ms | server p50 by stage (ms) | "
        "db hits per query (p50 / max) |",
        "|---|---|---|---|---|---|---|",
    ]
    for size, r in report["sizes"].items():
        stages = ", ".join(f"{k} {v}" for k, v in r["server_stage_p50"].items())
        hits = report["db_hits"][size]
        lines.append(
            f"| {int(size):,} | {report['namespaces'][size]:,} | {r['p50']:.1f} | {r['p95']:.1f} | "
            f"{r['p99']:.1f} | {stages} | {hits['p50']:.0f} / {hits['max']:.0f} |"
        )
    a = report["large_alone"]
    stages = ", ".join(f"{k} {v}" for k, v in a["server_stage_p50"].items())
    lines.append(
        f"| {int(args['large']):,}, measured alone (the small store's servers stopped) | "
        f"{report['namespaces'][str(args['large'])]:,} | {a['p50']:.1f} | {a['p95']:.1f} | "
        f"{a['p99']:.1f} | {stages} | |"
    )
    if "baseline" in report:
        base = report["baseline"]
        stages = ", ".join(f"{k} {v}" for k, v in base["server_stage_p50"].items())
        hits = report["db_hits"]["baseline"]
        lines.append(
            f"| {int(args['large']):,}, alone, the code of `{args['baseline']}` (baseline, "
            f"alternating with the row above) | {report['namespaces'][str(args['large'])]:,} | "
            f"{base['p50']:.1f} | {base['p95']:.1f} | {base['p99']:.1f} | {stages} | "
            f"{hits['p50']:.0f} / {hits['max']:.0f} |"
        )
    b = report["big_namespace"]
    stages = ", ".join(f"{k} {v}" for k, v in b["server_stage_p50"].items())
    lines.append(
        f"| {int(args['large']) + BIG_NAMESPACE:,}: one namespace of {BIG_NAMESPACE:,} "
        f"(index path) | 1 | {b['p50']:.1f} | {b['p95']:.1f} | {b['p99']:.1f} | {stages} | |"
    )
    lines += [
        "",
        f"{int(args['large']):,}/{int(args['small']):,} ratio: p50 {report['ratio_p50']}, "
        f"p99 {report['ratio_p99']}.",
        "",
        *(
            [
                f"Current code / baseline `{args['baseline']}`, alone at "
                f"{int(args['large']):,} under the same load: p50 {report['baseline_ratio_p50']}, "
                f"p99 {report['baseline_ratio_p99']}.",
                "",
            ]
            if "baseline" in report
            else []
        ),
        "Goals (issue 3): p50 <= 15 ms and p99 <= 50 ms at 100k; ratio <= 1.5.",
        "",
        "Reading the numbers. The db hits per query are the same at both sizes: a small "
        "namespace is scanned from the namespace side, so the work follows the namespace, "
        "not the store, and the ratio is 1 within noise. The absolute times are dominated "
        "by this 2-vCPU VM: the same embedding took "
        f"{report['cold_cpu']['back_to_back']} ms back to back and "
        f"{report['cold_cpu']['after_20ms_idle']} ms after 20 ms idle (p50, measured by this "
        "script), and a request one at a time idles between every stage - waiting on Neo4j, "
        "on the client - so each stage starts on a cold CPU. The index path (one namespace "
        "of 5,000) reads the vector index, Lucene and the entity walks and is slower.",
        "",
        "Per-run p50/p95/p99 (ms) and the 1-minute load average at the end of each run:",
        "",
    ]
    alone = f"{args['large']} alone"
    series = [*report["sizes"].items(), (alone, a)]
    if "baseline" in report:
        series.append((f"{alone}, baseline {args['baseline']}", report["baseline"]))
    for size, r in [*series, ("big namespace", b)]:
        runs = "; ".join(
            f"{x['p50']:.1f}/{x['p95']:.1f}/{x['p99']:.1f} (load {x['load']:.1f})"
            for x in r["runs"]
        )
        lines.append(f"- {size}: {runs}")
    lines += [
        "",
        "## Machine",
        "",
        f"- CPU: {m['cpu']}, {m['cores']} cores; memory {m['memory']}",
        f"- {m['os']}; Python {m['python']}; onnxruntime {m['onnxruntime']}; Neo4j {m['neo4j']} "
        "(heap 512m-1g, page cache 256m, the launcher's defaults)",
        f"- load average at start {tuple(round(x, 2) for x in m['load_average_at_start'])}, "
        f"at end {tuple(round(x, 2) for x in m['load_average_at_end'])} - the machine is "
        "shared with other engineers' builds, tests and benchmarks (each with its own Neo4j)",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())

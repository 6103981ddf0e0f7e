"""A mixed workload over REST for minutes, with Neo4j stopped and then silenced in the middle.

    .venv/bin/python bench/load_test.py [--minutes 10] [--out bench/results]

Runs its own Neo4j (``~/.cache/beliefgraph/neo4j-bench-load``, Bolt 7693, data wiped first) and
the API in a uvicorn subprocess (auth off, loopback). Seeds 20 namespaces of 50 beliefs, then
for ``--minutes`` runs at once: readers asking ``/v1/query``, ``/v1/context`` and
``/v1/search`` over them, writers adding beliefs to one shared namespace and to namespaces of
their own (every write with an id of its own), and an importer posting a small log to
``/v1/imports`` every 30 s. At a third of the run Neo4j is stopped for 20 s and started again;
at two thirds it is frozen (``SIGSTOP``: it holds its connections and answers nothing) for
20 s and resumed.

Reports throughput, p50/p99 per route, responses by status, the longest answer while Neo4j
was away, how long after each fault requests succeeded again, and the writes: every id
acknowledged (200/201) must be stored, and no id answered otherwise may be — nothing written
that was not acknowledged, nothing acknowledged that was not written. A write that gets no
answer or a 503 is sent again with the same id until it gets a definite one, as a client that
wants its write does (a replay of a write that was stored answers 200). Writes
``bench/results/load_test.md`` and ``.json``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from neo4j import GraphDatabase  # noqa: E402  (after the path set-up above)
from own_neo4j import start  # noqa: E402
from rest_api import api_server  # noqa: E402
from run_info import commit, machine, now  # noqa: E402

from beliefgraph.config import default_cache_dir  # noqa: E402

BOLT, HTTP = 7693, 7480
HOME = default_cache_dir() / "neo4j-bench-load"
THINGS = ["router", "drone", "laptop", "door", "printer", "van", "contract", "server"]
PLACES = ["dock", "north", "south", "annex", "lab", "depot"]
FAULT_SECONDS = 20


def thing(rng: random.Random) -> str:
    return f"{rng.choice(PLACES)} {rng.choice(THINGS)}"


class Log:
    """Every request's route, status, latency and time; every write's id and answer."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests: list[tuple[str, int, float, float]] = []
        #: sent id -> (its last status, the id the answer named: the gate may fold a write
        #: into a stored belief that says the same, and answer 200 with that one)
        self.writes: dict[str, tuple[int, str | None]] = {}

    def record(self, route: str, status: int, ms: float, at: float) -> None:
        with self.lock:
            self.requests.append((route, status, ms, at))


def call(
    conn: http.client.HTTPConnection, method: str, path: str, body: Any | None
) -> tuple[int, Any]:
    """One request; status 0 when the connection failed (it is then reopened)."""
    try:
        payload = json.dumps(body) if body is not None else None
        headers = {"content-type": "application/json"} if body is not None else {}
        conn.request(method, path, payload, headers)
        response = conn.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data else None
    except (OSError, http.client.HTTPException, ValueError):
        conn.close()
        return 0, None


def worker(port: int, log: Log, stop: threading.Event, role: str, seed: int) -> None:
    rng = random.Random(seed)  # noqa: S311  (a workload, not a secret)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    own = f"project:load-own-{seed}"
    while not stop.is_set():
        ns = f"project:load-{rng.randrange(20)}"
        if role == "reader":
            kind = rng.choice(["query", "context", "search"])
            if kind == "query":
                path, body = (
                    "/v1/query",
                    {"query": f"What is the {thing(rng)} code?", "namespaces": [ns]},
                )
            elif kind == "context":
                path = "/v1/context"
                body = {
                    "user": "load",
                    "namespaces": [ns],
                    "message": f"can I change the {thing(rng)}?",
                }
            else:
                path, body = "/v1/search", {"query": f"{thing(rng)} code", "namespaces": [ns]}
        else:
            belief_id = f"load-{seed}-{uuid.uuid4().hex[:10]}"
            target = "project:load-shared" if rng.random() < 0.5 else own
            text = f"The {thing(rng)} code is {rng.randrange(1000, 9999)}."
            path, body = "/v1/beliefs", {"id": belief_id, "text": text, "namespaces": [target]}
        started = time.perf_counter()
        status, answer = call(conn, "POST", path, body)
        log.record(path, status, (time.perf_counter() - started) * 1000, time.monotonic())
        # a write whose answer did not come, or was a 503, is sent again with the same id
        # until it gets a definite one (what any client that wants its write does: a replay
        # of a stored write answers 200), for at most two minutes
        deadline = time.monotonic() + 120
        while role == "writer" and (status == 0 or status >= 500) and time.monotonic() < deadline:
            time.sleep(0.5)
            started = time.perf_counter()
            status, answer = call(conn, "POST", path, body)
            log.record(path, status, (time.perf_counter() - started) * 1000, time.monotonic())
        if role == "writer":
            named = answer.get("id") if isinstance(answer, dict) else None
            with log.lock:
                log.writes[body["id"]] = (status, named)
        if status == 0 or status >= 500:
            time.sleep(0.2)  # a client backs off while the service is away


def importer(port: int, log: Log, stop: threading.Event) -> None:
    n = 0
    while not stop.wait(30):
        # a connection of its own each time: the server closes one idle for 5 s
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        n += 1
        lines = [
            {
                "conversation_id": f"load-{n}",
                "role": "user",
                "content": f"I prefer the {p} depot for deliveries.",
            }
            for p in PLACES
        ]
        payload = "\n".join(json.dumps(line) for line in lines).encode()
        started = time.perf_counter()
        try:
            conn.request("POST", f"/v1/imports?namespace=project:load-import-{n}", payload)
            response = conn.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            status = 0
        conn.close()
        log.record("/v1/imports", status, (time.perf_counter() - started) * 1000, time.monotonic())


def seed_store(port: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    rng = random.Random(7)  # noqa: S311
    for n in range(20):
        beliefs = [
            {
                "text": f"The {thing(rng)} code is {rng.randrange(1000, 9999)}.",
                "namespaces": [f"project:load-{n}"],
            }
            for _ in range(40)
        ] + [
            {
                "text": f"Any change to the {thing(rng)} must be approved by the site lead.",
                "kind": "policy",
                "namespaces": [f"project:load-{n}"],
            }
            for _ in range(10)
        ]
        status, _ = call(conn, "POST", "/v1/beliefs", {"beliefs": beliefs})
        if status not in (200, 201):
            raise SystemExit(f"seeding failed: {status}")


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1) if ordered else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--readers", type=int, default=6)
    parser.add_argument("--writers", type=int, default=6)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    args = parser.parse_args(argv)
    launcher = start(HOME, BOLT, HTTP)
    uri = f"bolt://127.0.0.1:{BOLT}"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env_uri = os.environ.get("NEO4J_URI")
    os.environ["NEO4J_URI"] = uri
    subprocess.run(
        [sys.executable, "-m", "beliefgraph.cli", "init"], check=True, capture_output=True
    )
    log, stop = Log(), threading.Event()
    faults: list[dict[str, Any]] = []
    try:
        with tempfile.TemporaryDirectory() as home, api_server(BOLT, port, Path(home), None):
            seed_store(port)
            threads = [
                threading.Thread(target=worker, args=(port, log, stop, "reader", i))
                for i in range(args.readers)
            ] + [
                threading.Thread(target=worker, args=(port, log, stop, "writer", 100 + i))
                for i in range(args.writers)
            ]
            threads.append(threading.Thread(target=importer, args=(port, log, stop)))
            began = time.monotonic()
            for t in threads:
                t.start()
            total = args.minutes * 60
            time.sleep(total / 3)
            at = time.monotonic()
            launcher.stop()
            time.sleep(FAULT_SECONDS)
            launcher.start(timeout=300)
            faults.append(
                {"fault": "Neo4j stopped, then started", "from": at, "to": time.monotonic()}
            )
            time.sleep(max(0.0, began + 2 * total / 3 - time.monotonic()))
            pid = launcher.status().pid
            at = time.monotonic()
            os.kill(pid, signal.SIGSTOP)
            time.sleep(FAULT_SECONDS)
            os.kill(pid, signal.SIGCONT)
            faults.append(
                {
                    "fault": "Neo4j frozen (SIGSTOP), then resumed",
                    "from": at,
                    "to": time.monotonic(),
                }
            )
            time.sleep(max(0.0, began + total - time.monotonic()))
            stop.set()
            for t in threads:
                t.join(timeout=120)
            elapsed = time.monotonic() - began
            time.sleep(5)  # let anything Neo4j still holds from a frozen moment commit
        with GraphDatabase.driver(uri) as driver:
            records, _, _ = driver.execute_query(
                "MATCH (b:Belief) WHERE b.id STARTS WITH 'load-' RETURN b.id AS id"
            )
        stored = {r["id"] for r in records}
    finally:
        if launcher.status().running:
            launcher.stop()
        if env_uri is None:
            os.environ.pop("NEO4J_URI", None)
        else:
            os.environ["NEO4J_URI"] = env_uri
    summary = summarize(log, faults, began, elapsed, stored)
    summary["when"] = now()
    summary["machine"] = machine()
    summary["commit"] = commit()
    summary["workload"] = {
        "minutes": args.minutes,
        "readers": args.readers,
        "writers": args.writers,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "load_test.json").write_text(json.dumps(summary, indent=2) + "\n")
    (args.out / "load_test.md").write_text(render(summary))
    print(render(summary))
    return 0


def summarize(
    log: Log, faults: list[dict[str, Any]], began: float, elapsed: float, stored: set[str]
) -> dict[str, Any]:
    by_route: dict[str, list[tuple[int, float, float]]] = defaultdict(list)
    for route, status, ms, at in log.requests:
        by_route[route].append((status, ms, at))
    routes = {
        route: {
            "requests": len(rows),
            "p50_ms": quantile([ms for s, ms, _ in rows if 200 <= s < 300], 0.5),
            "p99_ms": quantile([ms for s, ms, _ in rows if 200 <= s < 300], 0.99),
            "statuses": dict(sorted(Counter(str(s) for s, _, _ in rows).items())),
        }
        for route, rows in sorted(by_route.items())
    }
    for fault in faults:
        during = [ms for _, _, ms, at in log.requests if fault["from"] <= at <= fault["to"] + 1]
        after = sorted(at for _, s, _, at in log.requests if 200 <= s < 300 and at > fault["to"])
        fault["requests_during"] = len(during)
        fault["longest_answer_during_ms"] = round(max(during), 1) if during else None
        fault["first_success_after_s"] = round(after[0] - fault["to"], 2) if after else None
        fault["from"], fault["to"] = round(fault["from"] - began, 1), round(fault["to"] - began, 1)
    slowest = sorted(log.requests, key=lambda r: -r[2])[:10]
    acknowledged = {i for i, (s, _) in log.writes.items() if s in (200, 201)}
    refused = {i for i, (s, _) in log.writes.items() if s not in (200, 201)}
    # what an acknowledgement promised is stored: the belief its answer named (the sent id,
    # or the stored belief the gate folded it into)
    promised = {named or i for i, (s, named) in log.writes.items() if s in (200, 201)}
    folded = sum(1 for i, (s, named) in log.writes.items() if s == 200 and named != i)
    return {
        "seconds": round(elapsed, 1),
        "requests": len(log.requests),
        "throughput_per_s": round(len(log.requests) / elapsed, 1),
        "statuses": dict(sorted(Counter(str(s) for _, s, _, _ in log.requests).items())),
        "routes": routes,
        "faults": faults,
        "slowest": [
            {"route": route, "status": status, "ms": round(ms, 1), "at_s": round(at - began, 1)}
            for route, status, ms, at in slowest
        ],
        "writes": {
            "sent": len(log.writes),
            "acknowledged": len(acknowledged),
            "not_acknowledged": len(refused),
            "folded_into_a_stored_belief": folded,
            "acknowledged_not_stored": sorted(promised - stored)[:20],
            "stored_not_acknowledged": sorted(refused & stored)[:20],
        },
    }


def render(s: dict[str, Any]) -> str:
    w = s["writes"]
    lines = [
        "# Load test: a mixed workload with Neo4j stopped and frozen in the middle",
        "",
        f"Run {s.get('when', '')} at `{s.get('commit', '')}` on {s.get('machine', '')}: "
        f"{s['workload']['minutes'] if 'workload' in s else ''} minutes, "
        f"{s['requests']:,} requests, {s['throughput_per_s']} per second.",
        "",
        "```bash",
        ".venv/bin/python bench/load_test.py --minutes 10",
        "```",
        "",
        "Responses by status: "
        + ", ".join(f"{k}: {v:,}" for k, v in s["statuses"].items())
        + " (0: the connection failed).",
        "",
        "| route | requests | p50 (2xx) | p99 (2xx) | by status |",
        "|---|---|---|---|---|",
    ]
    for route, r in s["routes"].items():
        statuses = ", ".join(f"{k}: {v:,}" for k, v in r["statuses"].items())
        lines.append(
            f"| `{route}` | {r['requests']:,} | {r['p50_ms']} ms | {r['p99_ms']} ms | {statuses} |"
        )
    lines += [
        "",
        "| fault | seconds into the run | requests meanwhile | longest answer meanwhile "
        "| first success after |",
        "|---|---|---|---|---|",
    ]
    for f in s["faults"]:
        lines.append(
            f"| {f['fault']} | {f['from']} to {f['to']} | {f['requests_during']:,} | "
            f"{f['longest_answer_during_ms']} ms | {f['first_success_after_s']} s |"
        )
    lines += [
        "",
        f"Writes: {w['sent']:,} sent, {w['acknowledged']:,} acknowledged, "
        f"{w['not_acknowledged']:,} not; {w['folded_into_a_stored_belief']} of the acknowledged "
        "were folded by the gate into a stored belief saying the same (answered 200 with it). "
        "Acknowledged but not stored: "
        f"**{len(w['acknowledged_not_stored'])}**; stored but not acknowledged: "
        f"**{len(w['stored_not_acknowledged'])}**"
        + (f" ({', '.join(w['stored_not_acknowledged'])})" if w["stored_not_acknowledged"] else "")
        + ".",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())

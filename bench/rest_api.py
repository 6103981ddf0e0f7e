"""The REST API as the benchmarks measure it: uvicorn in a subprocess on loopback, requests
over HTTP/1.1 keep-alive, each with an API key as a deployment sends it.

Shared by ``query_latency.py`` and ``context_latency.py`` (run as scripts, so this directory
is first on their path).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from beliefgraph import keys  # noqa: E402  (after the path set-up above)
from beliefgraph.access import Role  # noqa: E402
from beliefgraph.store import Store  # noqa: E402


@dataclass(frozen=True)
class Api:
    """A running API: its port and the headers every request carries (its key, if any)."""

    port: int
    headers: dict[str, str]


def post_json(
    conn: http.client.HTTPConnection, path: str, body: dict[str, Any], headers: dict[str, str]
) -> tuple[float, dict[str, Any]]:
    """POST ``body`` to ``path``: the client-side wall time in ms (request sent to response
    read) and the decoded response. A status other than 200 is an error: a benchmark never
    times refusals."""
    payload = json.dumps(body)
    start = time.perf_counter()
    conn.request("POST", path, body=payload, headers=headers)
    response = conn.getresponse()
    data = response.read()
    elapsed = (time.perf_counter() - start) * 1000
    if response.status != 200:
        raise RuntimeError(f"{path}: {response.status}: {data[:300]!r}")
    return elapsed, json.loads(data)


@contextlib.contextmanager
def api_server(
    bolt: int, port: int, home: Path, key: str | None, code: Path = ROOT
) -> Iterator[Api]:
    """The REST API in a uvicorn subprocess on loopback, over the Neo4j on ``bolt``, from
    the code in ``code`` (``python -m`` puts it first on the path), logging to
    ``home/logs/api.log``; requests carry ``key`` (``None``: auth off, the development
    setting)."""
    env = {
        **os.environ,
        "NEO4J_URI": f"bolt://127.0.0.1:{bolt}",
        "BELIEFGRAPH_AUTH": "keys" if key else "off",
        "BELIEFGRAPH_ENVIRONMENT": "development",
    }
    headers = {"content-type": "application/json"}
    if key:
        headers["authorization"] = f"Bearer {key}"
    (home / "logs").mkdir(parents=True, exist_ok=True)
    log = open(home / "logs" / "api.log", "wb")  # noqa: SIM115  (closed in finally)
    command = [sys.executable, "-m", "uvicorn", "api.app:create_app", "--factory"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    # S603: the command is this interpreter running uvicorn on the project's own app.
    proc = subprocess.Popen(command, cwd=code, env=env, stdout=log, stderr=subprocess.STDOUT)  # noqa: S603
    try:
        deadline = time.time() + 180
        while time.time() < deadline:
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                c.request("GET", "/readyz")
                if c.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError(f"the API did not become ready; see {home / 'logs' / 'api.log'}")
        yield Api(port, headers)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


@contextlib.contextmanager
def bench_key(store: Store, auth: str) -> Iterator[str | None]:
    """A new admin key in ``store`` for this invocation, revoked at the end (``None`` with
    ``auth`` off)."""
    if auth != "keys":
        yield None
        return
    made = keys.create_key(store.db, keys.KeyCreate(name="bench", role=Role.admin), actor="bench")
    try:
        yield made.key
    finally:
        keys.revoke_key(store.db, made.id, actor="bench")

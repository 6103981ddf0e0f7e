"""Fuzz every operation of the OpenAPI document with schemathesis; count server errors.

    .venv/bin/python bench/fuzz_api.py [--examples 120] [--seed 1]

Serves the API in a uvicorn subprocess (auth off, loopback) over the Neo4j of ``NEO4J_URI``
(the launcher's by default) and runs ``schemathesis run`` on its ``/openapi.json``: the
coverage, fuzzing and stateful phases, with the check ``not_a_server_error`` (any 5xx fails).
Writes ``bench/results/fuzz.md`` with schemathesis's own summary.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rest_api import api_server  # noqa: E402  (after the path set-up above)

from beliefgraph.config import get_settings  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=120, help="most examples per operation")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    args = parser.parse_args(argv)
    bolt = urlparse(get_settings().neo4j.uri).port or 7687
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # its console script lives beside the dependencies, not in the checkout's .venv
    command = [
        sys.executable,
        "-c",
        "import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())",
        "run",
        f"http://127.0.0.1:{port}/openapi.json",
        "--checks",
        "not_a_server_error",
        "--max-examples",
        str(args.examples),
        "--phases",
        "coverage,fuzzing,stateful",
        "--seed",
        str(args.seed),
        "--no-color",
    ]
    with tempfile.TemporaryDirectory() as home, api_server(bolt, port, Path(home), None):
        # S603: schemathesis from this interpreter's environment, on the local server
        done = subprocess.run(  # noqa: S603
            command, capture_output=True, text=True, check=False, env={**os.environ}
        )
    summary = done.stdout[done.stdout.find("=== SUMMARY") :] if "SUMMARY" in done.stdout else ""
    report = "\n".join(
        [
            "# The whole OpenAPI, fuzzed",
            "",
            "schemathesis (coverage, fuzzing and stateful phases; check `not_a_server_error`: "
            "any 5xx fails) against the API in a uvicorn subprocess, auth off, on the "
            "launcher's Neo4j 5.26. Run "
            f"{datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}, seed {args.seed}, at most "
            f"{args.examples} examples per operation; exit status {done.returncode}:",
            "",
            "```bash",
            f".venv/bin/python bench/fuzz_api.py --examples {args.examples} --seed {args.seed}",
            "```",
            "",
            "```",
            summary.strip() or done.stdout[-3000:],
            "```",
            "",
        ]
    )
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "fuzz.md").write_text(report)
    print(summary or done.stdout[-3000:])
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())

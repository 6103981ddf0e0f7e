"""The CLI against the real server: add, get, chain, neo4j status, and its errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from beliefgraph.models import BeliefCreate, SupersedeRequest
from beliefgraph.store import Store


def cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run the CLI; ``env`` adds to (or overrides) this process's environment."""
    return subprocess.run(
        [sys.executable, "-m", "beliefgraph.cli", *args],
        stdin=subprocess.DEVNULL,  # nothing waits on a terminal (`mcp` reads stdin)
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=os.environ | env,
    )


def test_add_then_get(ns: str, uid: str) -> None:
    added = cli(
        "add",
        "Never push to main on Fridays",
        "--namespace",
        ns,
        "--kind",
        "policy",
        "--governs",
        "push",
        "--governs",
        "main branch",
        "--id",
        f"{uid}-p",
    )
    assert added.returncode == 0, added.stderr
    assert json.loads(added.stdout)["kind"] == "policy"
    got = cli("get", f"{uid}-p")
    assert got.returncode == 0, got.stderr
    body = json.loads(got.stdout)
    assert body["governs"]["any_terms"] == ["main_branch", "push"]
    assert body["write_path"] == "cli"


def test_chain_prints_oldest_first(store: Store, ns: str, uid: str) -> None:
    store.create([BeliefCreate(id=f"{uid}-a", text="v1", namespaces=[ns])])
    store.supersede(
        f"{uid}-a",
        SupersedeRequest(by=BeliefCreate(id=f"{uid}-b", text="v2", namespaces=[ns]), reason="r"),
    )
    out = cli("chain", f"{uid}-b")
    assert out.returncode == 0, out.stderr
    assert [b["id"] for b in json.loads(out.stdout)["beliefs"]] == [f"{uid}-a", f"{uid}-b"]


def test_errors_are_one_line_on_stderr() -> None:
    missing = cli("get", "no-such-belief-anywhere")
    assert missing.returncode == 1
    assert missing.stderr.startswith("error: no belief with id")
    bad = cli("add", "x", "--namespace", "not a namespace")
    assert bad.returncode == 2
    assert "namespaces" in bad.stderr


def test_a_bad_environment_or_file_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    budgets = cli("get", "x", BELIEFGRAPH_CONTEXT_KIND_BUDGETS="not json")
    assert (budgets.returncode, budgets.stderr.splitlines()[0][:16]) == (2, "error: settings:")
    assert "Traceback" not in budgets.stderr
    scheme = cli("get", "x", NEO4J_URI="nope://127.0.0.1:7687")
    assert (scheme.returncode, scheme.stderr[:17]) == (1, "error: NEO4J_URI:")
    folder = cli("import", "logs", str(tmp_path), "--namespace", "user:me")
    assert folder.returncode == 1
    assert folder.stderr == f"error: path: {tmp_path}: is a directory, not a file\n"
    log = tmp_path / "chat.jsonl"
    log.write_text('{"conversation_id": "c", "role": "user", "content": "hi"}\n')
    nowhere = tmp_path / "missing" / "r.jsonl"
    rejects = cli(
        "import",
        "logs",
        str(log),
        "--namespace",
        "user:me",
        "--skip-invalid",
        "--rejects",
        str(nowhere),
    )
    assert rejects.returncode == 1
    assert rejects.stderr == f"error: --rejects: {nowhere}: its directory does not exist\n"
    document = tmp_path / "beliefs.json"
    document.write_text('[{"_id": "b-x", "content": "Tea.", "type": "fact", "scope": ["Bad!"]}]')
    malformed = cli("import", "beliefs", str(document))
    assert malformed.returncode == 1
    # the detail names the file, the belief and the field once, with no field put before it
    assert malformed.stderr.startswith(f"error: {document}: belief 'b-x': field 'scope.0': ")
    assert "Traceback" not in scheme.stderr + folder.stderr


def test_neo4j_status_reports_the_launcher() -> None:
    out = cli("neo4j", "status")
    status = json.loads(out.stdout)
    assert status["bolt_uri"] == "bolt://127.0.0.1:7687"
    if not os.environ.get("NEO4J_URI"):  # then the tests run on the launcher's server
        assert out.returncode == 0, out.stderr
        assert status["running"] is True


def test_mcp_bad_usage_is_one_line_and_a_missing_key_is_said() -> None:
    for url in ("not a url", "ftp://host", "http://"):
        bad = cli("mcp", "--url", url)
        assert (bad.returncode, bad.stderr) == (1, f"error: --url: {url!r} is not an http(s) URL\n")
    both = cli("mcp", "--transport", "http", "--url", "http://127.0.0.1:8000")
    assert both.returncode == 1
    assert both.stderr.startswith("error: --url is for stdio")
    # stdin closed at once: the server says what is missing and ends, nothing on stdout
    keyless = cli("mcp", "--url", "http://127.0.0.1:9", BELIEFGRAPH_API_KEY="")
    assert (keyless.returncode, keyless.stdout) == (0, "")
    assert keyless.stderr.startswith("warning: BELIEFGRAPH_API_KEY is not set")

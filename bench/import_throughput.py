"""Import throughput on a synthetic 100k-turn conversation log, on its own Neo4j.

    .venv/bin/python bench/import_throughput.py [--turns 100000] [--runs 3]

The log never touches the shared development server: the script starts a second Neo4j 5.26
(the project's launcher) in ``~/.cache/beliefgraph/neo4j-bench-import`` on Bolt 7691 / HTTP
7478, reusing the jars of the main install, with its data wiped first, and stops it at the end.
Each run imports into a fresh namespace (``project:eval-<random>``).

The log (JSON Lines, seeded, so every run reads the same file) has ``--turns`` messages in 2,000
conversations, user and assistant alternating. About a third of the user turns state something
the extractor keeps (a preference, decision, correction, rule, ``/remember``, a hedge, a reason)
and a few assistant turns paraphrase; the rest is requests and small talk, as in real logs. Names
and numbers come from small vocabularies (51 tools, 18 things, 999 numbers), and several
templates use only two of them, so statements repeat: at 100,000 turns, 22,561 statements hold
15,308 distinct texts.

Measured per run, after a warm-up of the model:

* **import**: :func:`beliefgraph.importer.pipeline.import_logs` end to end — reading,
  extraction, the checks for what is already in, embedding, the curation gate, the writes
  (beliefs, provenance, checkpoints) — wall time, turns/s, beliefs/s;
* **embedding floor**: the same model embedding, in the same batch size and nothing else, the
  distinct statements, each once: what the import embeds (it remembers the vectors of
  :data:`~beliefgraph.importer.input.EMBEDDINGS_REMEMBERED` statements, more than this log holds);
* **ratio** = import wall time / embedding floor (goal ≤ 1.25); and, for comparison with the
  results before the import remembered its vectors, the floor of every statement embedded as
  it comes (repeats included) and the ratio to it;
* **peak RSS** of this process (the importer; the model included), and of the Neo4j server.

Medians over the runs are written to ``bench/results/import_throughput.{json,md}``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from neo4j import GraphDatabase

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import own_neo4j  # noqa: E402  (bench/, beside this)

from beliefgraph.config import Settings  # noqa: E402  (the checkout, not an installed copy)
from beliefgraph.embeddings import OnnxEmbedder, load_embedder  # noqa: E402
from beliefgraph.importer.extract import RuleExtractor  # noqa: E402
from beliefgraph.importer.formats import READERS  # noqa: E402
from beliefgraph.importer.input import (  # noqa: E402
    EMBEDDINGS_REMEMBERED,
    LogFormat,
    open_log,
)
from beliefgraph.importer.pipeline import import_logs  # noqa: E402
from beliefgraph.importer.summary import ImportOptions  # noqa: E402
from beliefgraph.launcher.home import NEO4J_VERSION, cpu_seconds  # noqa: E402
from beliefgraph.schema import init_schema  # noqa: E402
from beliefgraph.store import Store  # noqa: E402

CACHE = Path.home() / ".cache" / "beliefgraph"
HOME = CACHE / "neo4j-bench-import"
BOLT, HTTP = 7691, 7478
BATCH = 256

NOUNS = (  # noqa: SIM905  (a word list reads better as words)
    "Postgres Redis Kafka Rust Go Python vim Emacs tabs spaces Berlin Lisbon Zoom Slack Jira "
    "Linear Figma Notion Terraform Ansible Docker Podman Nginx Caddy S3 GCS BigQuery Snowflake "
    "React Vue Svelte Django Flask FastAPI Rails Spring Kotlin Swift Flutter SQLite DuckDB "
    "ClickHouse Grafana Prometheus Sentry Datadog GitHub GitLab Bitbucket Jenkins CircleCI"
).split()
THINGS = (  # noqa: SIM905
    "billing service|search index|staging database|release train|design review|on-call rota|"
    "onboarding guide|mobile app|data pipeline|analytics dashboard|API gateway|test suite|"
    "invoice export|holiday calendar|team offsite|budget report|backup job|status page"
).split("|")
USER_CUES = (
    "I prefer {n} over {m} for the {t}.",
    "We decided to use {n} for the {t} because {m} was too slow in test {k}.",
    "Actually, the {t} moved to {n} in week {k}.",
    "We no longer use {m} for the {t}.",
    "Never deploy the {t} on Fridays without {n} sign-off.",
    "Every {t} change must be reviewed by {k} people.",
    "/remember the {t} runbook is in the {n} space, page {k}",
    "I'm thinking about moving the {t} to {n} someday but haven't decided.",
    "Should we switch the {t} to {n}?",
    "Let's go with {n} for the {t} in sprint {k}.",
    "Please use {n} style for the {t} notes.",
)
USER_PLAIN = (
    "Can you summarise the {t} thread from yesterday?",
    "What does the {n} error {k} mean?",
    "Thanks, that helps with the {t}.",
    "Draft an email about the {t} to the team.",
    "How do I configure {n} for the {t}?",
    "Ok.",
)
ASSISTANT_CUES = (
    "Noted, you prefer {n} for the {t}.",
    "I recommend checking the {n} logs for the {t} first.",
)
ASSISTANT_PLAIN = (
    "Here is a summary of the {t} discussion: the team agreed on next steps.",
    "The {n} error {k} usually means a timeout; retrying with a longer limit helps.",
    "Sure. Step 1: open the {n} settings. Step 2: enable the {t} option.",
    "Done. Let me know if you want changes to the {t} draft.",
)


def write_log(path: Path, turns: int, *, seed: int = 20240601) -> None:
    """A seeded JSONL log of ``turns`` messages in 2,000 conversations."""
    rng = random.Random(seed)  # noqa: S311  (reproducible data, not crypto)
    conversations = 2000
    counts = [0] * conversations
    with path.open("w", encoding="utf-8") as f:
        for i in range(turns):
            c = rng.randrange(conversations)
            role = "user" if counts[c] % 2 == 0 else "assistant"
            counts[c] += 1
            if role == "user":
                pool = USER_CUES if rng.random() < 0.34 else USER_PLAIN
            else:
                pool = ASSISTANT_CUES if rng.random() < 0.08 else ASSISTANT_PLAIN
            text = rng.choice(pool).format(
                n=rng.choice(NOUNS),
                m=rng.choice(NOUNS),
                t=rng.choice(THINGS),
                k=rng.randrange(1, 1000),
            )
            record = {
                "conversation_id": f"conv-{c:05d}",
                "role": role,
                "content": text,
                "ts": f"2025-{1 + i * 12 // turns:02d}-01T00:00:00Z",
            }
            f.write(json.dumps(record) + "\n")


def statements_of(path: Path) -> list[str]:
    """The texts an import of ``path`` embeds (every extracted statement, in order)."""
    extractor = RuleExtractor()
    texts: list[str] = []
    with open_log(path) as log:
        for record in READERS[LogFormat.jsonl](log):
            for turn in getattr(record, "turns", []):
                texts.extend(s.text for s in extractor.extract(turn.role, turn.content))
    return texts


def embedding_time(embedder: OnnxEmbedder, texts: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds the model alone takes for ``texts``, in the import's batches."""
    started, cpu = time.perf_counter(), time.process_time()
    for start in range(0, len(texts), BATCH):
        embedder.embed(texts[start : start + BATCH])
    return time.perf_counter() - started, time.process_time() - cpu


def peak_rss_mb(pid: int | None = None) -> float:
    """Peak resident memory: this process (getrusage) or another one (VmHWM)."""
    if pid is None:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def machine() -> dict[str, Any]:
    cpu = next(
        (
            ln.split(":", 1)[1].strip()
            for ln in Path("/proc/cpuinfo").read_text().splitlines()
            if ln.startswith("model name")
        ),
        platform.processor(),
    )
    mem_kb = next(
        int(ln.split()[1])
        for ln in Path("/proc/meminfo").read_text().splitlines()
        if ln.startswith("MemTotal:")
    )
    import onnxruntime

    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gb": round(mem_kb / 1024 / 1024, 1),
        "python": platform.python_version(),
        "onnxruntime": onnxruntime.__version__,
        "neo4j": f"{NEO4J_VERSION} Community (project launcher, own instance on Bolt {BOLT})",
        "model": "all-MiniLM-L6-v2, ONNX backend, CPU",
        "note": "the machine's 2 cores are shared with other work; runs are medians",
    }


def run(turns: int, runs: int) -> dict[str, Any]:
    # the server's notices about property keys it has not seen yet are noise in a fresh store
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)
    # the code measured is the code imported now: later commits during the run do not count
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],  # noqa: S607  (git from PATH, as in dev)
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    ).stdout.strip()
    settings = Settings()
    embedder = load_embedder(settings.cache_dir)
    embedder.embed(["warm-up"] * BATCH)
    work = Path(tempfile.gettempdir()) / f"bench-import-{uuid.uuid4().hex[:8]}.jsonl"
    write_log(work, turns)
    texts = statements_of(work)
    distinct = list(dict.fromkeys(texts))
    if len(distinct) > EMBEDDINGS_REMEMBERED:
        print("more distinct statements than an import remembers: the floor is too low")
    launcher = own_neo4j.start(HOME, BOLT, HTTP)
    driver = GraphDatabase.driver(f"bolt://127.0.0.1:{BOLT}")
    results: list[dict[str, Any]] = []
    try:
        store = Store(driver, embedder, database="neo4j", settings=settings)
        init_schema(store.db)
        server = launcher.status().pid
        assert server is not None
        for i in range(runs):
            if not launcher.wait_idle():  # the previous run's index merges are not this run's
                print("Neo4j did not go quiet within 5 minutes; measuring anyway", flush=True)
            floor, floor_cpu = embedding_time(embedder, distinct)
            floor_all, _ = embedding_time(embedder, texts)

            namespace = f"project:eval-{uuid.uuid4().hex[:10]}"
            started = time.perf_counter()
            import_cpu_start, server_cpu_start = time.process_time(), cpu_seconds(server)
            summary = import_logs(store, work, ImportOptions(namespace=namespace, batch_size=BATCH))
            wall = time.perf_counter() - started
            # where the cores went: this process (model, extraction, gate, driver) and Neo4j
            import_cpu = time.process_time() - import_cpu_start
            server_cpu = cpu_seconds(server) - server_cpu_start
            row = {
                "run": i + 1,
                "turns": summary.turns,
                "statements": summary.statements,
                "added": summary.added,
                "noop": summary.noop,
                "superseded": summary.superseded,
                "contested": summary.contested,
                "batches": summary.batches,
                "import_s": round(wall, 2),
                "embedding_floor_s": round(floor, 2),
                "ratio": round(wall / floor, 3),
                "embedding_floor_all_s": round(floor_all, 2),
                "ratio_all": round(wall / floor_all, 3),
                "floor_cpu_s": round(floor_cpu, 1),
                "importer_cpu_s": round(import_cpu, 1),
                "server_cpu_s": round(server_cpu, 1),
                "turns_per_s": round(summary.turns / wall, 1),
                "beliefs_per_s": round((summary.added + summary.noop) / wall, 1),
            }
            print(json.dumps(row), flush=True)
            results.append(row)
        server_rss = peak_rss_mb(launcher.status().pid)
    finally:
        driver.close()
        launcher.stop()
        work.unlink(missing_ok=True)

    def median(key: str) -> float:
        return round(statistics.median(r[key] for r in results), 3)

    return {
        "command": f".venv/bin/python bench/import_throughput.py --turns {turns} --runs {runs}",
        "turns": turns,
        "statements": len(texts),
        "statements_distinct": len(distinct),
        "batch_size": BATCH,
        "runs": results,
        "median": {
            k: median(k)
            for k in (
                "import_s",
                "embedding_floor_s",
                "ratio",
                "embedding_floor_all_s",
                "ratio_all",
                "turns_per_s",
                "beliefs_per_s",
                "floor_cpu_s",
                "importer_cpu_s",
                "server_cpu_s",
            )
        },
        "peak_rss_mb": {"importer": round(peak_rss_mb(), 1), "neo4j_server": round(server_rss, 1)},
        "goals": {"ratio": "<= 1.25", "peak_rss_mb": "<= 2048 (the importer)"},
        "machine": machine(),
        "git": commit,
    }


def render(report: dict[str, Any]) -> str:
    m = report["median"]
    rss = report["peak_rss_mb"]
    met = "met" if m["ratio"] <= 1.25 else "**not met**"
    rss_met = "met" if rss["importer"] <= 2048 else "**not met**"
    lines = [
        "# Import throughput",
        "",
        f"`{report['command']}` (commit {report['git']}): a synthetic {report['turns']:,}-turn "
        f"JSONL log, {report['statements']:,} extracted statements "
        f"({report['statements_distinct']:,} distinct: the import embeds each once), batches "
        f"of {report['batch_size']}, on its own Neo4j.",
        "",
        "| median of runs | value | goal |",
        "|---|---|---|",
        f"| import wall time | {m['import_s']} s | |",
        f"| embedding floor (the distinct statements, model alone) | {m['embedding_floor_s']} s "
        "| |",
        f"| ratio import / floor | {m['ratio']} | ≤ 1.25: {met} |",
        f"| every statement embedded, repeats included (model alone) | "
        f"{m['embedding_floor_all_s']} s | |",
        f"| ratio import / that | {m['ratio_all']} | (for comparison) |",
        f"| turns/s | {m['turns_per_s']:,} | |",
        f"| beliefs/s (added + folded by the gate) | {m['beliefs_per_s']:,} | |",
        f"| peak RSS, importer (model included) | {rss['importer']} MB | ≤ 2048 MB: {rss_met} |",
        f"| peak RSS, Neo4j server | {rss['neo4j_server']} MB | |",
        "",
        "Where the cores went (CPU seconds, median of runs): the embedding floor used "
        f"{m['floor_cpu_s']} s; the import used {m['importer_cpu_s']} s in the importer "
        f"(model, extraction, gate, driver) and {m['server_cpu_s']} s in Neo4j. All "
        f"{report['machine']['cores']} cores busy for the whole import would be "
        f"{round(report['machine']['cores'] * m['import_s'], 1)} s.",
        "",
        "| run | import s | floor s | ratio | all-statements floor s | turns/s | beliefs/s "
        "| added | noop | superseded | contested |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in report["runs"]:
        lines.append(
            f"| {r['run']} | {r['import_s']} | {r['embedding_floor_s']} | {r['ratio']} | "
            f"{r['embedding_floor_all_s']} | {r['turns_per_s']} | {r['beliefs_per_s']} | "
            f"{r['added']} | {r['noop']} | "
            f"{r['superseded']} | {r['contested']} |"
        )
    mach = report["machine"]
    lines += [
        "",
        f"Machine: {mach['cpu']}, {mach['cores']} cores, {mach['memory_gb']} GB; Python "
        f"{mach['python']}, onnxruntime {mach['onnxruntime']}; {mach['model']}; Neo4j "
        f"{mach['neo4j']}. {mach['note']}.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    args = parser.parse_args()
    report = run(args.turns, args.runs)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "import_throughput.json").write_text(json.dumps(report, indent=2) + "\n")
    (args.out / "import_throughput.md").write_text(render(report))
    print(render(report))


if __name__ == "__main__":
    main()

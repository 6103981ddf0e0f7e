"""Write bench/results/ordinary_stores.md (+ .json): stores of ordinary notes written blind.

    .venv/bin/python bench/ordinary_stores.py [FILE ...]

Each file of ``bench/ordinary/`` (or each one given) is a realistic-store file written by an
author who never read the planner: namespaces of ordinary notes stored without any hint of the
action they allow (where things are, what they cost, when they happen, what someone prefers,
what was planned), plain questions about them, and an answer key. A new file waits outside
the folder, unread, until it is scored once (name it); then it joins the folder, and the
planner's models are fitted on it too (``bench/train_ranker.py``), so the figures of the files
here are in-sample and each one's first scoring is in ``ordinary_stores-history.md``. Every
namespace is loaded
into a fresh namespace of the Neo4j that NEO4J_URI names, as text, kind and priority only, and
every question is asked through the planner and the baselines.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from run_info import commit, machine, now  # noqa: E402  (after the path set-up above)

from beliefgraph.config import Settings  # noqa: E402
from beliefgraph.db import connect  # noqa: E402
from beliefgraph.embeddings import load_embedder  # noqa: E402
from beliefgraph.evaluation.governance import STRATEGIES  # noqa: E402
from beliefgraph.evaluation.stores import (  # noqa: E402
    PLAIN_READS,
    Stores,
    evaluate_stores,
    read_stores,
)
from beliefgraph.schema import init_schema  # noqa: E402
from beliefgraph.store import Store  # noqa: E402

ORDINARY = ROOT / "bench" / "ordinary"
RESULTS = ROOT / "bench" / "results"


def shown(path: Path) -> str:
    """A store file as the results name it: from the checkout's root when it is inside."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def by_kind(stores: Stores, summary: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Plain reads answered and asked, by the kind of thing asked (rows follow the questions)."""
    asked = [q.asked_type for ns in stores.namespaces for q in ns.questions]
    answered: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for kind, row in zip(asked, summary["rows"], strict=True):
        if row["plain_read"] and kind in PLAIN_READS:
            total[kind] += 1
            answered[kind] += row["action"] == "answer"
    return {kind: (answered[kind], total[kind]) for kind in sorted(total)}


def report(scored: list[tuple[Path, Stores, list[dict[str, Any]]]]) -> str:
    """The results page: one table per file, planner beside the baselines."""
    lines = [
        "# Stores of ordinary notes, written blind",
        "",
        "```bash",
        ".venv/bin/python bench/ordinary_stores.py",
        "```",
        "",
        f"Run {now()} at `{commit()}` on {machine()}. Raw rows: `ordinary_stores.json`.",
        "",
        "Namespaces of ordinary notes (where things are, what they cost, when they happen,",
        "preferences, plans), written by an author who never read the planner, stored without",
        "any hint of the action they allow; plain questions about them, with an answer key.",
        "*About the thing*: a belief about the thing asked governs (an *absent* question: none",
        "governs). *Plain reads answered*: questions a stored note answers that are given",
        "`answer`, not a check or a refusal; nothing in these stores guards them.",
    ]
    for path, stores, summaries in scored:
        lines += [
            "",
            f"## `{shown(path)}`: {len(stores.namespaces)} namespaces",
            "",
            "| strategy | scope precision | exact: about the thing | exact: expected | "
            "absent: none governs | another thing's belief governs | plain reads answered |",
            "|---|---|---|---|---|---|---|",
        ]
        for s in summaries:
            lines.append(
                f"| {s['strategy']} | {s['scope_precision']:.3f} | "
                f"{s['exact_about_the_thing']}/{s['exact']} | {s['exact_expected']}/{s['exact']} "
                f"| {s['absent_none_governs']}/{s['absent']} | {s['wrong_thing']} | "
                f"{s['plain_reads_answered']}/{s['plain_reads']} |"
            )
        planner = next(s for s in summaries if s["strategy"] == "planner")
        kinds = by_kind(stores, planner)
        lines += [
            "",
            "The planner's plain reads answered, by what is asked: "
            + ", ".join(f"{k} {a}/{n}" for k, (a, n) in kinds.items())
            + ".",
        ]
        missed = [r for r in planner["rows"] if r["plain_read"] and r["action"] != "answer"]
        if missed:
            lines += ["", "Not answered:", ""]
            lines += [f"- {r['query']} ({r['action']})" for r in missed]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("files", nargs="*", type=Path, help="store files (default: bench/ordinary)")
    args = parser.parse_args()
    files = [p.resolve() for p in args.files] or sorted(ORDINARY.glob("*.json"))
    if not files:
        parser.error(f"no store files in {ORDINARY}")
    settings = Settings()
    driver = connect(settings.neo4j)
    scored = []
    try:
        store = Store(driver, load_embedder(settings.cache_dir), database=settings.neo4j.database)
        init_schema(store.db)
        for path in files:
            stores = read_stores(path)
            summaries = evaluate_stores(store, stores, STRATEGIES)
            scored.append((path, stores, summaries))
    finally:
        driver.close()
    page = report(scored)
    RESULTS.joinpath("ordinary_stores.md").write_text(page, encoding="utf-8")
    RESULTS.joinpath("ordinary_stores.json").write_text(
        json.dumps(
            {"commit": commit(), "files": {shown(p): s for p, _, s in scored}},
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    print(page)
    return 0


if __name__ == "__main__":
    sys.exit(main())

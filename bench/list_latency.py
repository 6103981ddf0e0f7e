"""Latency of listing beliefs (``GET /v1/beliefs``'s ``Store.list_beliefs``) in a large store.

    .venv/bin/python bench/list_latency.py --baseline REF [--size 100000] [--rounds 15]

A page of the listing used to read every belief of the store, whatever it listed (a label
scan, then a sort): a tenant's first page cost what the whole store holds. A page now reads
the store in creation order through the ``belief_created_at`` index (for a listing that keeps
to namespaces, at most ten beliefs per row of the page: ``Store.scanned_per_row``), and when
those do not fill it, the beliefs of the namespaces listed (``Store.list_beliefs``). This
measures it against the listing query of ``--baseline`` (a git commit), followed by this
code's ``Store.get_many`` as that code's was (the reading of the page's beliefs is timed alone
too), in the same run, alternated, on its own Neo4j (home
``~/.cache/beliefgraph/neo4j-bench-list``, Bolt 7693, HTTP 7480; its data is wiped first and
the server stopped at the end).

The store: ``--size`` beliefs written 1,000 at a time (each write's beliefs share one
creation time, so the cursor breaks ties by id), drawn at random: 55% in ``user:universal``,
30% in ``project:big``, 1% in each of 13 tenants, and 1% in ``tenant:bench-late``, written
last (the case a reading in creation order finds at the very end). Kinds: 90% observations,
5% facts, 5% policies. Vectors are random (a listing never reads them; see
``context_latency.py``), written with ``Store.create_rows``, not through the gate.

Measured, pages of 50, for each case: the first page and the eleventh (the cursor of the
tenth), ``--rounds`` times each, the old and the new code alternated; the median in ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from neo4j import GraphDatabase, ManagedTransaction

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import own_neo4j  # noqa: E402  (bench/, beside this)
from context_latency import RandomEmbedder, machine  # noqa: E402

from beliefgraph.access import Caller, Role  # noqa: E402
from beliefgraph.config import Settings  # noqa: E402

# the cursor is the listing's own; the baseline's query reads the same (created_at, id)
from beliefgraph.cursors import decode as _decode_cursor  # noqa: E402
from beliefgraph.gate.write import create_rows  # noqa: E402
from beliefgraph.models import BeliefCreate, BeliefPage, Kind  # noqa: E402
from beliefgraph.schema import init_schema  # noqa: E402
from beliefgraph.store import Store  # noqa: E402

HOME = Path.home() / ".cache" / "beliefgraph" / "neo4j-bench-list"
BOLT, HTTP = 7693, 7480
BATCH = 1000
PAGE = 50
SHARED = "user:universal"
BIG = "project:big"
LATE = "tenant:bench-late"
TENANTS = [f"tenant:bench-{i:02d}" for i in range(13)]


@dataclass(frozen=True)
class Case:
    """One listing: a namespace asked for, and the caller's grant (``None``: an admin)."""

    name: str
    namespace: str | None = None
    grant: frozenset[str] | None = None
    kind: Kind | None = None

    def caller(self) -> Caller | None:
        return None if self.grant is None else Caller("bench-reader", Role.reader, self.grant)


CASES = [
    Case("the whole store (an admin)"),
    Case("policies of the whole store", kind=Kind.policy),
    Case(f"{SHARED} (55%)", namespace=SHARED),
    Case(f"{BIG} (30%)", namespace=BIG),
    Case(f"policies of {BIG} (1.5%)", namespace=BIG, kind=Kind.policy),
    Case(f"{TENANTS[7]} (1%, among the others)", namespace=TENANTS[7]),
    Case(f"{LATE} (1%, written last)", namespace=LATE),
    Case("a reader granted two tenants (2%)", grant=frozenset(TENANTS[8:10])),
    Case(
        f"{SHARED}, asked by a reader of one tenant (none)",
        namespace=SHARED,
        grant=frozenset(TENANTS[7:8]),
    ),
]


def fill(loader: Store, size: int, seed: int) -> None:
    """Write ``size`` beliefs as the module docstring says."""
    rng = random.Random(seed)  # noqa: S311  (synthetic data, not a secret)
    late = size // 100
    for start in range(0, size, BATCH):
        beliefs = []
        for i in range(start, min(start + BATCH, size)):
            roll = rng.random() * 0.99
            if i >= size - late:
                namespace = LATE
            elif roll < 0.55:
                namespace = SHARED
            elif roll < 0.85:
                namespace = BIG
            else:
                namespace = rng.choice(TENANTS)
            kind = rng.choices([Kind.observation, Kind.fact, Kind.policy], [90, 5, 5])[0]
            text = f"Belief {i}: shelf {rng.randrange(1000)} holds box {rng.randrange(1000)}."
            beliefs.append(
                BeliefCreate(id=f"b{i:07d}", text=text, namespaces=[namespace], kind=kind)
            )
        rows = loader.prepare(beliefs, actor="bench")

        def work(tx: ManagedTransaction, rows: list[dict[str, Any]] = rows) -> None:
            create_rows(loader.db, tx, rows)

        loader.db.write(work)


def old_listing(store: Store, text: str) -> Callable[[Case, str | None], list[str]]:
    """The listing of the baseline: its ``belief_list`` query, then ``get_many``."""

    def listing(case: Case, cursor: str | None) -> list[str]:
        after_created_at, after_id = _decode_cursor(cursor) if cursor else (None, None)
        caller = case.caller()
        records = store.db.driver.execute_query(
            text,
            namespace=case.namespace,
            kind=case.kind.value if case.kind else None,
            status=None,
            after_created_at=after_created_at,
            after_id=after_id,
            limit=PAGE + 1,
            allowed=None if case.grant is None else sorted(case.grant),
            database_=store.db.database,
        ).records
        return [b.id for b in store.get_many([r["id"] for r in records[:PAGE]], caller=caller)]

    return listing


def page_of(store: Store, case: Case, cursor: str | None) -> BeliefPage:
    return store.list_beliefs(
        namespace=case.namespace, kind=case.kind, cursor=cursor, limit=PAGE, caller=case.caller()
    )


def new_listing(store: Store) -> Callable[[Case, str | None], list[str]]:
    def listing(case: Case, cursor: str | None) -> list[str]:
        return [b.id for b in page_of(store, case, cursor).items]

    return listing


def tenth_cursor(store: Store, case: Case) -> str | None:
    """The cursor of the eleventh page, or ``None`` when there are fewer."""
    cursor = None
    for _ in range(10):
        cursor = page_of(store, case, cursor).next_cursor
        if cursor is None:
            return None
    return cursor


def timed(
    listing: Callable[[Case, str | None], list[str]], case: Case, cursor: str | None
) -> tuple[float, list[str]]:
    started = time.perf_counter()
    ids = listing(case, cursor)
    return (time.perf_counter() - started) * 1000, ids


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument(
        "--baseline", required=True, help="a git commit whose listing is measured beside"
    )
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "list_latency"))
    args = parser.parse_args()
    old_text = subprocess.run(  # noqa: S603  (git on this checkout, a ref the operator gave)
        ["git", "show", f"{args.baseline}:cypher/belief_list.cypher"],  # noqa: S607
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout

    launcher = own_neo4j.start(HOME, BOLT, HTTP)
    settings = Settings(neo4j_uri=f"bolt://127.0.0.1:{BOLT}", auth="off")
    driver = GraphDatabase.driver(settings.neo4j.uri, notifications_min_severity="OFF")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],  # noqa: S607
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    report: dict[str, Any] = {
        "machine": machine(),
        "size": args.size,
        "baseline": args.baseline,
        "commit": commit,
    }
    try:
        store = Store(driver, RandomEmbedder(3), database="neo4j", settings=settings)
        init_schema(store.db)
        started = time.perf_counter()
        fill(store, args.size, seed=17)
        print(f"wrote {args.size} beliefs in {time.perf_counter() - started:.0f} s", flush=True)
        launcher.wait_idle()
        launcher.stop()  # checkpoints what the load left dirty (see context_latency.py)
        launcher.start(timeout=300)
        listings = {"old": old_listing(store, old_text), "new": new_listing(store)}
        report["cases"] = {}
        for case in CASES:
            cursors = {"first page": None, "eleventh page": tenth_cursor(store, case)}
            for where, cursor in cursors.items():
                if where != "first page" and cursor is None:
                    continue
                ms: dict[str, list[float]] = {"old": [], "new": [], "read": []}
                for _ in range(2):  # warm-up, unmeasured
                    for listing in listings.values():
                        listing(case, cursor)
                for _ in range(args.rounds):
                    pages = {}
                    for version, listing in listings.items():
                        took, pages[version] = timed(listing, case, cursor)
                        ms[version].append(took)
                    assert pages["old"] == pages["new"], f"{case.name}, {where}: pages differ"
                    started = time.perf_counter()  # the part both share: reading the page
                    store.get_many(pages["new"], caller=case.caller())
                    ms["read"].append((time.perf_counter() - started) * 1000)
                medians = {v: round(statistics.median(t), 2) for v, t in ms.items()}
                row = {**medians, "ratio": round(medians["new"] / medians["old"], 3)}
                report["cases"].setdefault(case.name, {})[where] = row
                print(json.dumps({case.name: {where: row}}), flush=True)
    finally:
        driver.close()
        launcher.stop()
    Path(args.out + ".json").write_text(json.dumps(report, indent=2) + "\n")
    Path(args.out + ".md").write_text(markdown(report, args.rounds))
    return 0


def markdown(report: dict[str, Any], rounds: int) -> str:
    m = report["machine"]
    lines = [
        "# Listing latency",
        "",
        f"`.venv/bin/python bench/list_latency.py --baseline {report['baseline']} "
        f"--size {report['size']} --rounds {rounds}` "
        f"({m['date']}, code `{report['commit']}`): pages of {PAGE} from a store of "
        f"{report['size']:,} beliefs, the listing of this code (new) and the listing query "
        f"of `{report['baseline']}` followed by this code's reading of the page's beliefs "
        f"(old), alternated, the median of {rounds} rounds in ms. See the script's docstring "
        "for the store.",
        "",
        "| listed | page | old ms | new ms | new / old | reading the page's beliefs, ms |",
        "|---|---|---|---|---|---|",
    ]
    for name, pages in report["cases"].items():
        for where, r in pages.items():
            cells = [name, where, r["old"], r["new"], r["ratio"], r["read"]]
            lines.append("| " + " | ".join(map(str, cells)) + " |")
    lines += [
        "",
        "How to read it: the old listing read and sorted every belief of the store for every "
        "page, whatever it listed. The new one reads the store in creation order (for a "
        "listing that keeps to namespaces, at most ten beliefs per row of the page), and when "
        "those do not fill it (the listed beliefs are sparse there, or it is the last page) "
        "the beliefs of the namespaces listed: a page reads about what it lists where those "
        "are dense in time, and what the namespaces hold where not (so the last page of a "
        "large namespace, not measured here, reads all of it). Both end by reading the page's "
        "beliefs (`Store.get_many`, the last column).",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory']}; Python {m['python']}; "
        f"{m['java']}; Neo4j {m['neo4j']}. The machine's cores are shared with other work.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())

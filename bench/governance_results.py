"""Write bench/results/governance.md (+ .json): every target configuration x every strategy.

    .venv/bin/python bench/governance_results.py [--data ../shared/benchmarks/governance]
                                                [--unread] [--namespaces 300]

Each configuration is loaded into fresh namespaces of the Neo4j that NEO4J_URI names (the
local launcher's by default) and asked through the same code as ``beliefgraph eval
governance``. A second table runs the planner on configurations beyond the targets (clutter
without annotations; the noise variants of the other packets), to show where it breaks.

Then the team's own packets, written blind: the rounds read and used by now (``USED``), and
with ``--unread`` a round set aside unread (``UNREAD``), to be scored once when a change is
done - its score as it came out goes to ``bench/results/governance-history.md``; and the
realistic stores (``bench/realistic_stores.py``, ``--namespaces`` of 50
beliefs, seed 7): scope precision, planner beside the baselines.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from neo4j import GraphDatabase  # noqa: E402  (after the path set-up above)
from run_info import BENCHMARKS  # noqa: E402

from beliefgraph.config import Settings  # noqa: E402
from beliefgraph.embeddings import load_embedder  # noqa: E402
from beliefgraph.evaluation.governance import (  # noqa: E402
    CLUTTER,
    STRATEGIES,
    Configuration,
    configurations,
    evaluate,
    read_configuration,
)
from beliefgraph.evaluation.packets import NOISE_VARIANTS, read_packet  # noqa: E402
from beliefgraph.evaluation.stores import StoreNamespace, Stores, evaluate_stores  # noqa: E402
from beliefgraph.schema import init_schema  # noqa: E402
from beliefgraph.store import Store  # noqa: E402

RESULTS = ROOT / "bench" / "results"
PACKETS = ROOT / "bench" / "governance"
#: the blind packets read and used by now, oldest round first
USED = [
    "packets",
    "unread",
    "unread-2",
    "dev-3",
    "unread-3",
    "unread-4",
    "unread-5",
    "unread-6",
    "unread-7",
    "unread-8",
    "unread-9",
    "unread-10",
    "unread-11",
    "unread-12",
    "dev-14",
    "unread-13",
    "dev-16",
    "unread-15",
    "unread-17",
    "unread-18",
    "unread-19",
    "unread-20",
    "unread-21",
    "unread-22",
    "unread-23",
    "unread-24",
    "unread-25",
    "unread-26",
    "unread-27",
    "unread-28",
    "unread-29",
    "unread-30",
    "unread-31",
    "unread-32",
    "unread-33",
    "unread-34",
    "unread-35",
    "unread-36",
    "unread-37",
    "unread-38",
    "unread-39",
    "unread-40",
    "unread-41",
    "unread-42",
    "unread-43",
    "unread-44",
    "unread-45",
    "unread-46",
    "unread-47",
    "unread-48",
    "unread-49",
    "unread-50",
    "unread-51",
    "unread-52",
    "unread-53",
    "unread-54",
    "unread-55",
    "unread-56",
    "unread-57",
    "unread-58",
    "unread-59",
    "unread-60",
    "unread-61",
    "unread-62",
    "unread-63",
    "unread-64",
    "unread-65",
    "unread-66",
    "unread-67",
    "unread-68",
    "unread-69",
    "unread-70",
    "unread-71",
    "unread-72",
    "unread-73",
    "unread-74",
    "unread-75",
    "unread-76",
    "unread-77",
]
#: the blind packets nobody has read yet: scored once, when a change is done
UNREAD: list[str] = ["unread-78"]


def beyond_targets() -> list[Configuration]:
    """Configurations the issue does not target: where the planner's limits show."""
    others = [Configuration("clutter, no annotations", CLUTTER)]
    for label, packet in (
        ("claim15", "claim15_governance_stress_v0_1.json"),
        ("claim16", "claim16_action_type_mismatch_v0_1.json"),
        ("claim20", "claim20_execution_gate_v0_1.json"),
        ("top5", "fresh_claude_v0_4_v2_top5.json"),
    ):
        others += [
            Configuration(f"{label} noise: {v}", packet, noise=v) for v in NOISE_VARIANTS[1:]
        ]
    return others


def cell(s: dict[str, Any]) -> str:
    n = s["scenarios"]
    return (
        f"{s['target_selected']}/{n}, {s['action_correct']}/{n}; "
        f"traps {s['trap_failures']}, loss {s['weighted_loss']}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", default=str(BENCHMARKS / "governance"))
    parser.add_argument("--unread", action="store_true", help="also score the unread packets")
    parser.add_argument("--namespaces", type=int, default=300, help="realistic stores to make")
    args = parser.parse_args()
    data = Path(args.data)
    settings = Settings()
    neo = settings.neo4j
    secret = neo.password.get_secret_value()
    driver = GraphDatabase.driver(neo.uri, auth=(neo.user, secret) if secret else None)
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    extra: list[dict[str, Any]] = []
    own: list[dict[str, Any]] = []
    stores: list[dict[str, Any]] = []
    try:
        store = Store(driver, load_embedder(settings.cache_dir), database=neo.database)
        init_schema(store.db)
        for config in configurations():
            summaries = evaluate(store, read_configuration(data, config), STRATEGIES)
            results.append({"configuration": config.label, "summaries": summaries})
            print(config.label, " | ".join(cell(s) for s in summaries), flush=True)
        for config in beyond_targets():
            [summary] = evaluate(store, read_configuration(data, config), ["planner"])
            extra.append({"configuration": config.label, "summaries": [summary]})
            print("(beyond)", config.label, cell(summary), flush=True)
        sets = [*USED, *UNREAD] if args.unread else USED
        for folder in sets:
            for path in sorted((PACKETS / folder).glob("*.json")):
                summaries = evaluate(store, read_packet(path), STRATEGIES)
                label = f"{folder}/{path.stem}"
                own.append({"configuration": label, "summaries": summaries})
                print(label, " | ".join(cell(s) for s in summaries), flush=True)
        sys.path.insert(0, str(ROOT / "bench"))
        from realistic_stores import generate

        data_ = generate(args.namespaces, 50, 7)
        spaces = tuple(StoreNamespace.model_validate(n) for n in data_["namespaces"])
        label = f"{args.namespaces} namespaces of 50 beliefs, seed 7"
        stores = evaluate_stores(store, Stores(label, spaces), STRATEGIES)
        for summary in stores:
            print(summary["strategy"], summary["scope_precision"], flush=True)
    finally:
        driver.close()
    elapsed = time.perf_counter() - started
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],  # noqa: S607  (the developer's own git)
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    ).stdout.strip()
    meta = {
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": commit,
        "python": platform.python_version(),
        "neo4j": neo.uri,
        "seconds": round(elapsed, 1),
    }
    payload = {
        "meta": meta,
        "targets": results,
        "beyond_targets": extra,
        "own_packets": own,
        "realistic_stores": stores,
    }
    (RESULTS / "governance.json").write_text(json.dumps(payload, indent=2) + "\n")
    (RESULTS / "governance.md").write_text(
        render(meta, results, extra) + render_own(own) + render_stores(stores)
    )
    return 0


def render_own(own: list[dict[str, Any]]) -> str:
    """The team's blind-authored packets, every strategy, with false certainties."""
    lines = [
        "## The team's own packets, written blind",
        "",
        "Written by helper sessions that never read the planner, from AUTHORING.md's brief and "
        "one paragraph per failure family. Round 1 (`bench/governance/packets/`, "
        "`bench/governance/unread/`, 8 scenarios a family each) has been read and used while "
        "changing the planner; round 2 (`bench/governance/unread-2/`, 12 a family and a mixed "
        "packet of stores of 7-9 memories, by seven new authors) was set aside unread, scored "
        "once when its change was done and used since; round 3 (six new authors, "
        "`bench/governance/BRIEF-round3.md`) was split: `dev-3/` read and used while changing "
        "the planner, `unread-3/` set aside unread, scored once when the change was done and "
        f"read since; the later rounds (`unread-4/` .. `{USED[-1]}/`, 8 a family, six new "
        "authors a round; `dev-14/` and `dev-16/` written to be read) were each scored once "
        "when a change was done and are used since; the round set aside unread (`UNREAD`) is "
        "scored once, with `--unread`, when the change it waits for is done (scores as they "
        "came out are in `governance-history.md`). Cells as above, plus false certainties (fc).",
        "",
        "| packet | " + " | ".join(STRATEGIES) + " |",
        "|---|" + "---|" * len(STRATEGIES),
    ]
    for r in own:
        lines.append(
            f"| {r['configuration']} | "
            + " | ".join(f"{cell(s)}; fc {s['false_certainty']}" for s in r["summaries"])
            + " |"
        )
    for folder in (*USED, *UNREAD):
        rows = [r for r in own if r["configuration"].startswith(folder + "/")]
        if not rows:
            continue
        cells = []
        for i in range(len(STRATEGIES)):
            t = [
                sum(r["summaries"][i][k] for r in rows)
                for k in ("target_selected", "action_correct", "scenarios", "false_certainty")
            ]
            cells.append(f"**{t[0]}/{t[2]}, {t[1]}/{t[2]}; fc {t[3]}**")
        lines.append(f"| **{folder}, all** | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n\n"


def render_stores(stores: list[dict[str, Any]]) -> str:
    """Scope precision on the realistic stores."""
    if not stores:
        return ""
    lines = [
        "## Realistic stores: is the governing belief about the thing asked?",
        "",
        f"{stores[0]['stores']} (`bench/realistic_stores.py`): ordinary beliefs about similar "
        "things at similar places, loaded as text, kind and priority only; the answer key comes "
        "from what was stored. *exact*: a question about a stored thing (about the thing: a "
        "belief about it governs; expected: the one that answers it); *absent*: nothing stored "
        "is about it, and no belief should govern. Scope precision counts both. *Plain reads "
        "answered*: of the exact questions of a plain kind (a cost, where a thing is, when it is "
        "serviced, a preference, a plan), those given `answer`; nothing in these stores guards "
        "them.",
        "",
        "| strategy | scope precision | exact: about the thing | exact: expected | absent: "
        "none governs | another thing's belief governs | plain reads answered |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in stores:
        lines.append(
            f"| {s['strategy']} | {s['scope_precision']:.3f} | "
            f"{s['exact_about_the_thing']}/{s['exact']} | {s['exact_expected']}/{s['exact']} | "
            f"{s['absent_none_governs']}/{s['absent']} | {s['wrong_thing']} | "
            f"{s['plain_reads_answered']}/{s['plain_reads']} |"
        )
    return "\n".join(lines) + "\n"


def render(meta: dict[str, Any], results: list[dict[str, Any]], extra: list[dict[str, Any]]) -> str:
    lines = [
        "# Governance judgment evaluation",
        "",
        f"Generated {meta['generated']} at commit `{meta['commit']}` by "
        "`bench/governance_results.py`, against a real Neo4j 5.26 and the real "
        "all-MiniLM-L6-v2 model; every scenario in its own fresh namespace. One planner "
        "configuration for every row. Cells: target selected, action correct; trap failures "
        "and weighted loss (benign 0, overblock 1, downgrade 4, false certainty 7).",
        "",
        "| configuration | " + " | ".join(STRATEGIES) + " |",
        "|---|" + "---|" * len(STRATEGIES),
    ]
    for r in results:
        lines.append(
            f"| {r['configuration']} | " + " | ".join(cell(s) for s in r["summaries"]) + " |"
        )
    totals = {s: [0, 0, 0, 0] for s in STRATEGIES}
    for r in results:
        for s in r["summaries"]:
            t = totals[s["strategy"]]
            t[0] += s["target_selected"]
            t[1] += s["action_correct"]
            t[2] += s["scenarios"]
            t[3] += s["weighted_loss"]
    lines.append(
        "| **all** | "
        + " | ".join(f"**{t[0]}/{t[2]}, {t[1]}/{t[2]}; loss {t[3]}**" for t in totals.values())
        + " |"
    )
    lines += [
        "",
        "Published on v2.2 (the source's README): BM25 3/5, 4/5; authority lane 5/5, 5/5 and "
        "2/5, 3/5 on clutter. The harness reproduces both, which checks that it measures what "
        "the source measured. The source's vector baseline used nomic-embed-text (1/5, 3/5); "
        "ours uses all-MiniLM-L6-v2, so its row is not comparable.",
        "",
        "## Beyond the targets (planner only)",
        "",
        "Configurations the issue does not target, reported to show where the planner's "
        "rules run out. The noise variants of claim15 remove or corrupt the only signal "
        "(priority) that separates its competing in-scope policies.",
        "",
        "| configuration | planner |",
        "|---|---|",
    ]
    for r in extra:
        lines.append(f"| {r['configuration']} | {cell(r['summaries'][0])} |")
    misses = [
        (r["configuration"], row)
        for r in extra
        for row in r["summaries"][0]["rows"]
        if not (row["target_selected"] and row["action_correct"])
    ]
    if misses:
        lines += ["", "Misses beyond the targets:", ""]
        for label, row in misses:
            lines.append(
                f"- {label}: `{row['scenario']}` chose memory {row['selected_memory_index']} "
                f"({row['selected_role']}), {row['action']} (expected {row['expected_action']})"
            )
    lines += [
        "",
        "## How the variants are made",
        "",
        "`--noise` variants are generated from the packet by "
        "`beliefgraph/evaluation/packets.py::noise_variant` (the source describes them, "
        "it does not ship them): the target's type removed, or replaced (authority types "
        "become `observation`, others `policy`); its priority removed; all its authority "
        "signals corrupted (type as before, priority `low`/`critical`, epistemic status "
        "`reported`/`confirmed`, `verification_required` cleared; the action hint is kept); "
        "an unrelated critical block policy added; a policy quoting the query added, "
        "newest, `unverified`, prescribing the wrong action.",
        "",
        f"Run time: {meta['seconds']} s.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())

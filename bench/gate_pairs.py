"""Write bench/results/gate.md (+ .json): the curation gate on blind-written belief pairs.

    .venv/bin/python bench/gate_pairs.py [--unread] [--out bench/results]

Each pair of the folders in ``USED`` (with ``--unread`` also those in ``UNREAD``, set aside
until a change is done and scored once) is written into a fresh namespace of the Neo4j of
``NEO4J_URI`` (the launcher's by default) through the code of ``POST /v1/beliefs``, and scored
by what the store did (:mod:`beliefgraph.evaluation.pairs`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from run_info import commit, now, paths_of, read_sets  # noqa: E402

from beliefgraph.cli.commands import open_store  # noqa: E402  (after the path set-up above)
from beliefgraph.config import get_settings  # noqa: E402
from beliefgraph.evaluation.pairs import LABELS, evaluate_pairs, read_pairs  # noqa: E402

DATA = ROOT / "bench" / "gate"
#: the pairs nobody has read yet
UNREAD = ["unread-22"]
#: the pairs read and used by now: the first set, and the thirds set aside, each scored once
#: (when, in bench/results/gate_extraction-history.md)
USED = read_sets(DATA, UNREAD)


def score(folders: list[str]) -> dict[str, Any]:
    pairs = [
        p
        for folder in folders
        for path in sorted((DATA / folder).glob("*.json"))
        for p in read_pairs(path)
    ]
    with open_store(get_settings()) as store:
        return evaluate_pairs(store, pairs).summary()


def table(title: str, s: dict[str, Any]) -> list[str]:
    lines = [
        f"## {title}",
        "",
        f"**{s['right']}/{s['pairs']} right** (accuracy {s['accuracy']}); false supersessions "
        f"**{s['false_supersessions']}**; corrections that superseded what they corrected "
        f"{s['corrections_applied']}.",
        "",
        "| label | pairs | right | replaced | merged | kept both |",
        "|---|---|---|---|---|---|",
    ]
    for label in LABELS:
        c = s["confusion"][label]
        b = s["by_label"][label]
        lines.append(
            f"| {label} | {b['pairs']} | {b['right']} | {c.get('replaced', 0)} | "
            f"{c.get('merged', 0)} | {c.get('kept both', 0)} |"
        )
    lines += ["", "Wrong:", ""]
    lines += [f"- `{w['id']}` ({w['label']} → {w['outcome']}): {w['reason']}" for w in s["wrong"]]
    return [*lines, ""]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--unread", action="store_true", help="also score the pairs set aside unread"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    args = parser.parse_args(argv)
    at = commit()
    results = {"when": now(), "commit": at}
    results["used"] = score(USED)
    if args.unread:
        results["unread"] = score(UNREAD)
    lines = [
        "# The curation gate on belief pairs written blind",
        "",
        "Pairs of plain-text statements of one user (the first stored earlier), labelled "
        "`contradicts` / `same` / `compatible` / `unrelated` by helper sessions that never read "
        "the gate (`bench/gate/`, three authors, 35 domains). Each pair goes through the code of "
        "`POST /v1/beliefs` into a namespace of its own, text and kind only. Right: "
        "`contradicts` superseded the first, `same` merged into one belief, `compatible` and "
        "`unrelated` kept both. A false supersession replaces a belief that was not corrected.",
        "",
        "```bash",
        ".venv/bin/python bench/gate_pairs.py --unread",
        "```",
        "",
        f"Run {results['when']} at `{at}`.",
        "",
        *table(f"Pairs used while changing the gate ({paths_of(DATA, USED)})", results["used"]),
    ]
    if args.unread:
        lines += table(f"Pairs set aside unread ({paths_of(DATA, UNREAD)})", results["unread"])
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "gate.json").write_text(json.dumps(results, indent=2) + "\n")
    (args.out / "gate.md").write_text("\n".join(lines))
    for key in ("used", "unread"):
        if key in results:
            s = results[key]
            print(
                f"{key}: {s['right']}/{s['pairs']}, false supersessions "
                f"{s['false_supersessions']}, corrections applied {s['corrections_applied']}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

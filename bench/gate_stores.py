"""Write bench/results/gate_stores.md (+ .json): the curation gate over stores of ordinary notes.

    .venv/bin/python bench/gate_stores.py [FILE ...]

The pair files (``bench/gate_pairs.py``) put each pair alone in a namespace; a store holds
hundreds of notes about similar things, and the gate compares each new one with its nearest
neighbours. Here every namespace of the stores of ordinary notes written blind
(``bench/ordinary/*.json``, the ones already read; or the files given) is written again, note
by note in the file's order, through the code of ``POST /v1/beliefs`` (text and kind only)
into a fresh namespace, and what the gate did is read against what the authors wrote:
distinct notes, and in each store a few old notes with the note that corrects them (the two
notes a question is about, the one it expects being the correction). A supersession is right
where a correction replaced the note it corrects, false anywhere else; a merge (one note taken
for a restatement of another) is false, as the authors wrote no note twice (a correction that
archives the note it corrects as saying less counts as a merge). The answer keys never reach
the store: only each note's text and kind do.

The gate's pair model is fitted on these stores' neighbours too (``bench/train_gate.py``), so
on them this is in-sample; its report leaves one store file out at a time, and a file that
waits unread (``bench/ordinary/unread/``), given here, is out of its fit.
"""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from run_info import commit, now  # noqa: E402

from beliefgraph.access import DEVELOPMENT_CALLER  # noqa: E402  (after the path set-up above)
from beliefgraph.cli.commands import open_store  # noqa: E402
from beliefgraph.config import get_settings  # noqa: E402
from beliefgraph.evaluation.pairs import outcome_of  # noqa: E402
from beliefgraph.evaluation.stores import StoreNamespace, corrections, read_stores  # noqa: E402
from beliefgraph.models import BeliefCreate  # noqa: E402
from beliefgraph.store import Store  # noqa: E402

ORDINARY = ROOT / "bench" / "ordinary"
RESULTS = ROOT / "bench" / "results"


def replay(store: Store, namespace: StoreNamespace, run: str) -> dict[str, Any]:
    """Write one namespace's notes in order into a fresh namespace; what the gate did."""
    target = f"project:gate-stores-{run}-{namespace.name}"
    note_of: dict[str, str] = {}  # belief id -> note id
    acted: list[dict[str, str]] = []
    for belief in namespace.beliefs:
        create = BeliefCreate(text=belief.text, kind=belief.kind, namespaces=[target])
        [decision] = store.curate([create], caller=DEVELOPMENT_CALLER, actor="eval-gate-stores")
        note_of.setdefault(decision.belief_id, belief.id)
        outcome = outcome_of(decision.verdict, decision.contested)
        if outcome != "kept both" and decision.target is not None:
            acted.append(
                {
                    "namespace": namespace.name,
                    "outcome": outcome,
                    "new": belief.id,
                    "old": note_of.get(decision.target, decision.target),
                    "reason": decision.reason,
                }
            )
    return {"notes": len(namespace.beliefs), "acted": acted}


def score(paths: Sequence[Path]) -> dict[str, Any]:
    """Every namespace of ``paths`` replayed: the corrections applied, and the notes replaced
    or merged that were not corrected, each with both texts."""
    run = uuid.uuid4().hex[:8]
    texts: dict[tuple[str, str, str], str] = {}
    notes, acted, due = 0, [], set()
    with open_store(get_settings()) as store:
        for path in paths:
            stores = read_stores(path)
            for namespace in stores.namespaces:
                key = f"{path.stem}/{namespace.name}"
                texts |= {(path.stem, namespace.name, b.id): b.text for b in namespace.beliefs}
                due |= {(path.stem, namespace.name, *pair) for pair in corrections(namespace)}
                done = replay(store, namespace, f"{run}-{path.stem}")
                notes += done["notes"]
                acted += [a | {"file": path.stem, "key": key} for a in done["acted"]]
    applied = {
        (a["file"], a["namespace"], a["old"], a["new"]) for a in acted if a["outcome"] == "replaced"
    }
    wrong = [
        a
        for a in acted
        if a["outcome"] == "merged" or (a["file"], a["namespace"], a["old"], a["new"]) not in due
    ]
    for a in wrong:
        a["old_text"] = texts.get((a["file"], a["namespace"], a["old"]), a["old"])
        a["new_text"] = texts[(a["file"], a["namespace"], a["new"])]
    return {
        "run_id": run,
        "files": [p.name for p in paths],
        "notes": notes,
        "corrections": len(due),
        "corrections_applied": len(applied & due),
        "false_supersessions": sum(a["outcome"] == "replaced" for a in wrong),
        "false_merges": sum(a["outcome"] == "merged" for a in wrong),
        "wrong": wrong,
    }


def page(s: dict[str, Any], when: str, at: str) -> str:
    """``gate_stores.md``: the figures, then each note replaced or merged wrongly."""
    lines = [
        "# The curation gate over stores of ordinary notes",
        "",
        "Every namespace of the stores of ordinary notes written blind (`bench/ordinary/`) "
        "written again note by note through the code of `POST /v1/beliefs` (text and kind "
        "only), each note meeting the nearest notes before it, as in a store. The gate's pair "
        "model is fitted on these stores' neighbours (`bench/train_gate.py`): in-sample. The "
        "authors wrote distinct notes, "
        "and in each store a few old notes with the note that corrects them. A false "
        "supersession replaces a note that was not corrected; a false merge takes a note for "
        "a restatement of another.",
        "",
        "```bash",
        ".venv/bin/python bench/gate_stores.py",
        "```",
        "",
        f"Run {when} at `{at}`, files {', '.join(s['files'])}.",
        "",
        "| notes | corrections | corrections applied | false supersessions | false merges |",
        "|---|---|---|---|---|",
        f"| {s['notes']} | {s['corrections']} | {s['corrections_applied']} | "
        f"{s['false_supersessions']} | {s['false_merges']} |",
        "",
        "False supersessions and merges:",
        "",
    ]
    lines += [
        f'- {a["key"]} ({a["outcome"]}): "{a["new_text"]}" after "{a["old_text"]}": {a["reason"]}'
        for a in s["wrong"]
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="store files (default: bench/ordinary)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.files] or sorted(ORDINARY.glob("*.json"))
    if not paths:
        parser.error(f"no store files in {ORDINARY}")
    when, at = now(), commit()
    s = score(paths)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "gate_stores.json").write_text(
        json.dumps({"when": when, "commit": at, **s}, indent=1) + "\n", encoding="utf-8"
    )
    (args.out / "gate_stores.md").write_text(page(s, when, at), encoding="utf-8")
    print(
        f"{s['notes']} notes: corrections applied {s['corrections_applied']}/{s['corrections']}, "
        f"false supersessions {s['false_supersessions']}, false merges {s['false_merges']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

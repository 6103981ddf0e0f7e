"""Write bench/results/extraction.md (+ .json): the rule extractor on lines written blind.

    .venv/bin/python bench/extraction_results.py [--unread] [--out bench/results]

Scores every user turn of the folders in ``USED`` (with ``--unread`` also those in ``UNREAD``,
set aside until a change is done and scored once) with
:mod:`beliefgraph.evaluation.extraction`: no services, the extractor alone.
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

from beliefgraph.evaluation.extraction import evaluate_lines, read_lines  # noqa: E402

DATA = ROOT / "bench" / "extraction"
#: the lines nobody has read yet
UNREAD = ["unread-17", "unread-18"]
#: the lines read and used by now: the first set, and the thirds set aside, each scored once
#: (when, in bench/results/gate_extraction-history.md)
USED = read_sets(DATA, UNREAD)


def score(folders: list[str]) -> dict[str, Any]:
    turns = [
        t
        for folder in folders
        for path in sorted((DATA / folder).glob("*.jsonl"))
        for t in read_lines(path)
    ]
    return evaluate_lines(turns).summary()


def section(title: str, s: dict[str, Any]) -> list[str]:
    return [
        f"## {title}",
        "",
        f"{s['user_turns']} user turns; {s['expected']} statements to keep, {s['kept']} kept, "
        f"{s['matched']} right: **precision {s['precision']}, recall {s['recall']}**; "
        f"{s['kept_from_turns_with_nothing_to_keep']} kept from turns with nothing to keep.",
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--unread", action="store_true", help="also score the lines set aside unread"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    args = parser.parse_args(argv)
    at = commit()
    results: dict[str, Any] = {"when": now(), "commit": at}
    results["used"] = score(USED)
    if args.unread:
        results["unread"] = score(UNREAD)
    lines = [
        "# Extraction on conversation lines written blind",
        "",
        "User and assistant turns across many domains, each labelled with what a careful human "
        "would keep from it (preference, decision, directive, correction, open question, or "
        "nothing: questions, requests, reactions, sarcasm, pasted and forwarded text, all "
        "assistant turns), written by a helper session that never read the extractor "
        "(`bench/extraction/`). Each user turn goes through the rule extractor alone; a kept "
        "statement is right when its kind is the label's (a policy answers to `directive`) and "
        "it shares half its content words with the labelled text.",
        "",
        "```bash",
        ".venv/bin/python bench/extraction_results.py --unread",
        "```",
        "",
        f"Run {results['when']} at `{at}`.",
        "",
        *section(
            f"Lines used while changing the extractor ({paths_of(DATA, USED)})", results["used"]
        ),
    ]
    if args.unread:
        lines += section(f"Lines set aside unread ({paths_of(DATA, UNREAD)})", results["unread"])
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "extraction.json").write_text(json.dumps(results, indent=2) + "\n")
    (args.out / "extraction.md").write_text("\n".join(lines))
    for key in ("used", "unread"):
        if key in results:
            s = results[key]
            print(
                f"{key}: precision {s['precision']}, recall {s['recall']}, turns {s['user_turns']}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Fit the extractor's fitted reader (beliefgraph/importer/fitted.json) on the lines read.

    .venv/bin/python bench/train_extractor.py [--report]

Every user turn of the lines read and used (``USED`` of ``bench/extraction_results.py``; the
lines set aside unread are never loaded) is split into sentences and clauses as the extractor
splits it (:func:`~beliefgraph.importer.fitted.clauses`, quoted words blanked). Every clause is
learnt from, not only those of the sentences the reader is asked of (those the rules leave):
fitted on those alone, left out one file at a time, it found less. A clause is labelled with
the kind of the statement a careful human kept that it shares the most of its content words
with (half of the smaller side's at least, as the benchmark matches), or ``none``; the labels
are read here only. The fit is a multinomial logistic regression (lbfgs from zero: the same on
every run).

``--report`` first fits the reader on every file but one and extracts that file's user turns
with it, beside the rules alone, one file at a time, and writes
``bench/results/extraction_model.md``: how the reader carries to an author it was not fitted
on. No service is needed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix  # type: ignore[import-untyped]
from sklearn.linear_model import LogisticRegression  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from extraction_results import DATA, USED  # noqa: E402  (after the path set-up above)
from run_info import commit, now  # noqa: E402

from beliefgraph.evaluation.extraction import evaluate_lines, read_lines  # noqa: E402
from beliefgraph.gate.classifier import content_tokens  # noqa: E402
from beliefgraph.importer.extract import RuleExtractor  # noqa: E402
from beliefgraph.importer.fitted import MODEL, NONE, Reader, clause_features, clauses  # noqa: E402
from beliefgraph.importer.sentences import said_and_remembered  # noqa: E402
from beliefgraph.logit import Logit  # noqa: E402

#: scikit-learn's ``C``: left out one file at a time, 0.3 and 3 did no better than 1
C = 1.0
#: a feature is kept where this many clauses show it
MIN_COUNT = 2


@dataclass(frozen=True)
class Example:
    """One clause of a user's turn: the file it is in, its features and its label."""

    file: str
    features: dict[str, float]
    label: str


def _labels(parts: Sequence[str], expected: Sequence[dict[str, Any]]) -> list[str]:
    """Each clause's label: the kind of the expected statement it shares most with."""
    out = [NONE] * len(parts)
    words = [content_tokens(p) for p in parts]
    for e in expected:
        want = content_tokens(str(e.get("text", "")))
        best, score = None, 0.0
        for i, have in enumerate(words):
            if out[i] != NONE or not have or not want:
                continue
            shared = len(have & want) / min(len(have), len(want))
            if shared >= 0.5 and shared > score:
                best, score = i, shared
        if best is not None:
            out[best] = str(e.get("kind"))
    return out


def examples(path: Path) -> list[Example]:
    """Every clause of the user's turns of one lines file, featured and labelled."""
    out = []
    for turn in read_lines(path):
        if turn.get("role") != "user":
            continue
        said, _ = said_and_remembered(turn["content"])
        parts = [c for s in said for c in clauses(s)]
        for clause, kind in zip(parts, _labels(parts, turn["expect"]), strict=True):
            out.append(Example(str(path), clause_features(clause), kind))
    return out


def fit(train: Sequence[Example]) -> tuple[Reader, dict[str, object]]:
    """The reader fitted on ``train``, and what ``fitted.json`` holds of it."""
    seen = Counter(name for e in train for name in e.features)
    names = sorted(name for name, n in seen.items() if n >= MIN_COUNT)
    column = {name: j for j, name in enumerate(names)}
    cells = [
        (i, column[n], v) for i, e in enumerate(train) for n, v in e.features.items() if n in column
    ]
    rows, columns, values = zip(*cells, strict=True)
    x = csr_matrix((values, (rows, columns)), shape=(len(train), len(names)))
    model = LogisticRegression(C=C, max_iter=5000).fit(x, np.array([e.label for e in train]))
    classes = [str(c) for c in model.classes_]
    weights = {
        name: [round(float(w), 5) for w in model.coef_[:, j]] for j, name in enumerate(names)
    }
    intercept = [round(float(b), 5) for b in model.intercept_]
    # the reader uses the probabilities; the costs name the most likely class the choice
    costs = [[0.0 if i == j else 1.0 for j in range(len(classes))] for i in range(len(classes))]
    data: dict[str, object] = {
        "classes": classes,
        "weights": weights,
        "intercept": intercept,
        "costs": costs,
    }
    return Reader(Logit(tuple(classes), weights, intercept, costs)), data


def _figures(s: dict[str, Any]) -> str:
    return (
        f"{s['precision']:.3f} / {s['recall']:.3f} ({s['matched']}/{s['kept']}, of {s['expected']})"
    )


def report(files: Sequence[Path], by_file: dict[str, list[Example]]) -> str:
    """Each file extracted by the rules alone and with a reader fitted on the other files."""
    lines = [
        "# The extractor's fitted reader, left out one file at a time",
        "",
        "`.venv/bin/python bench/train_extractor.py --report`: for each file of labelled lines",
        "(one author's), the reader is fitted on every other file and that file's user turns are",
        "extracted again: by the rules alone, and with the reader (which keeps clauses of the",
        "sentences the rules leave unmarked). Each cell: precision / recall (right/kept, of the",
        "statements to keep), by the benchmark's matcher (`bench/extraction_results.py`). The",
        "rules were written reading these files, so their figures are in-sample; the reader's",
        "are not.",
        "",
        f"Run {now()} at `{commit()}`.",
        "",
        "| file | user turns | rules alone | with the reader |",
        "|---|---|---|---|",
    ]
    totals: dict[str, Counter[str]] = {"rules": Counter(), "reader": Counter()}
    for path in files:
        name = str(path)
        reader, _ = fit([e for f, ex in by_file.items() if f != name for e in ex])
        turns = read_lines(path)
        rules = evaluate_lines(turns, RuleExtractor(rules_only=True)).summary()
        fitted = evaluate_lines(turns, RuleExtractor(reader)).summary()
        for key, s in (("rules", rules), ("reader", fitted)):
            totals[key].update({k: s[k] for k in ("kept", "matched", "expected")})
        lines.append(
            f"| `{path.relative_to(ROOT)}` | {rules['user_turns']} | {_figures(rules)} "
            f"| {_figures(fitted)} |"
        )
    whole = {
        key: {
            **t,
            "precision": t["matched"] / t["kept"] if t["kept"] else 0.0,
            "recall": t["matched"] / t["expected"] if t["expected"] else 0.0,
        }
        for key, t in totals.items()
    }
    lines.append(
        f"| **all** | | **{_figures(whole['rules'])}** | **{_figures(whole['reader'])}** |"
    )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--report",
        action="store_true",
        help="first write bench/results/extraction_model.md (one file left out at a time)",
    )
    args = parser.parse_args(argv)
    files = [p for folder in USED for p in sorted((DATA / folder).glob("*.jsonl"))]
    by_file = {str(p): examples(p) for p in files}
    if args.report:
        out = ROOT / "bench" / "results" / "extraction_model.md"
        out.write_text(report(files, by_file), encoding="utf-8")
        print(f"wrote {out.relative_to(ROOT)}")
    train = [e for ex in by_file.values() for e in ex]
    reader, data = fit(train)
    MODEL.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    features = len(reader.model.weights)
    print(f"wrote {MODEL.relative_to(ROOT)}: {len(train)} clauses, {features} features")
    return 0


if __name__ == "__main__":
    sys.exit(main())

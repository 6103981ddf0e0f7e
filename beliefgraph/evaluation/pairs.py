"""The curation gate on labelled pairs of plain-text beliefs (``bench/gate_pairs.py``).

A pair file (``bench/gate/``) holds ``{"pairs": [{id, first, second, kind, label, why}]}``,
written by authors who never read the gate: two statements of one user, the first stored
earlier, and what a careful person says the second is to the first:

* ``contradicts`` — the second replaces the first;
* ``same`` — the second says the same thing in other words;
* ``compatible`` — related, both true at once;
* ``unrelated`` — about different things.

Each pair is written as a user would write it: both texts through :meth:`Store.curate` (the
code of ``POST /v1/beliefs``), plain text and its kind only, into a fresh namespace of its own
(``project:pairs-<run>-<n>``); ``label`` and ``why`` never reach the store. The outcome is read
from what the store did with the second:

* **replaced** — the first is superseded (a ``contradicts`` verdict that was applied);
* **merged** — one belief stands for both (``noop``, ``subsumed``, ``subsumes``);
* **kept both** — both stand (``add``, ``compatible``, a contradiction the guards only
  contested).

A pair is right when ``contradicts`` was replaced, ``same`` merged, and ``compatible`` or
``unrelated`` kept both. A *false supersession* is a first belief superseded by a second that
did not correct it: the error that loses what the user said.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from beliefgraph.access import DEVELOPMENT_CALLER
from beliefgraph.errors import InvalidInput
from beliefgraph.models import BeliefCreate, Kind, Verdict

#: what the store should do with the second belief, for each label
EXPECTED = {
    "contradicts": "replaced",
    "same": "merged",
    "compatible": "kept both",
    "unrelated": "kept both",
}
LABELS = tuple(EXPECTED)
_MERGED = {Verdict.noop, Verdict.subsumed, Verdict.subsumes}


class LabelledPair(BaseModel):
    """One pair as written; ``label`` and ``why`` are the answer key."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    first: str = Field(min_length=1)
    second: str = Field(min_length=1)
    kind: Kind = Kind.fact
    label: str = Field(pattern=f"^({'|'.join(LABELS)})$")
    why: str = ""


def read_pairs(path: Path) -> list[LabelledPair]:
    """The pairs of one file.

    Raises:
        InvalidInput: the file cannot be read, or a pair breaks the format (its id and field
            named).
    """
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise InvalidInput(f"{path}: {e}", field="pairs") from e
    pairs = []
    for n, entry in enumerate(raw.get("pairs", []) if isinstance(raw, dict) else []):
        try:
            pairs.append(LabelledPair.model_validate(entry))
        except ValidationError as e:
            error = e.errors()[0]
            where = ".".join(str(p) for p in error["loc"])
            name = entry.get("id", n) if isinstance(entry, dict) else n
            raise InvalidInput(f"{path}: pair {name}: {where}: {error['msg']}", field=where) from e
    if not pairs:
        raise InvalidInput(f"{path}: no pairs (expected {{'pairs': [...]}})", field="pairs")
    return pairs


@dataclass
class PairOutcome:
    """What the store did with one pair."""

    id: str
    label: str
    verdict: str
    outcome: str
    right: bool
    reason: str


@dataclass
class PairsReport:
    """Every pair's outcome; :meth:`summary` is the figures."""

    run_id: str
    outcomes: list[PairOutcome] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """Accuracy, per label, false supersessions, corrections applied, the confusion."""
        n = len(self.outcomes)
        by_label: dict[str, dict[str, int]] = {}
        for label in LABELS:
            mine = [o for o in self.outcomes if o.label == label]
            by_label[label] = {"pairs": len(mine), "right": sum(o.right for o in mine)}
        corrections = [o for o in self.outcomes if o.label == "contradicts"]
        return {
            "run_id": self.run_id,
            "pairs": n,
            "right": sum(o.right for o in self.outcomes),
            "accuracy": round(sum(o.right for o in self.outcomes) / n, 3) if n else None,
            "by_label": by_label,
            "false_supersessions": sum(
                1 for o in self.outcomes if o.outcome == "replaced" and o.label != "contradicts"
            ),
            "corrections_applied": (
                round(sum(o.outcome == "replaced" for o in corrections) / len(corrections), 3)
                if corrections
                else None
            ),
            "confusion": {
                label: dict(Counter(o.outcome for o in self.outcomes if o.label == label))
                for label in LABELS
            },
            "wrong": [
                {"id": o.id, "label": o.label, "outcome": o.outcome, "reason": o.reason}
                for o in self.outcomes
                if not o.right
            ],
        }


def outcome_of(verdict: Verdict, contested: bool) -> str:
    """What the store did with the second belief, from the gate's decision on it."""
    if verdict == Verdict.contradicts and not contested:
        return "replaced"
    if verdict in _MERGED:
        return "merged"
    return "kept both"


def evaluate_pairs(
    store: Any, pairs: list[LabelledPair], *, run_id: str | None = None
) -> PairsReport:
    """Write every pair into a namespace of its own and read what the gate did.

    Raises:
        StoreUnavailable: Neo4j cannot be reached.
    """
    run_id = run_id or uuid.uuid4().hex[:8]
    report = PairsReport(run_id=run_id)
    for n, pair in enumerate(pairs):
        namespace = f"project:pairs-{run_id}-{n}"
        for text in (pair.first, pair.second):
            [decision] = store.curate(
                [BeliefCreate(text=text, kind=pair.kind, namespaces=[namespace])],
                caller=DEVELOPMENT_CALLER,
                actor="eval-pairs",
            )
        outcome = outcome_of(decision.verdict, decision.contested)
        report.outcomes.append(
            PairOutcome(
                id=pair.id,
                label=pair.label,
                verdict=decision.verdict.value,
                outcome=outcome,
                right=outcome == EXPECTED[pair.label],
                reason=decision.reason,
            )
        )
    return report

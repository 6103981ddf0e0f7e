"""The belief-pair evaluation: what the store did with the second statement of each pair."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from beliefgraph.errors import InvalidInput
from beliefgraph.evaluation.pairs import LabelledPair, evaluate_pairs, read_pairs
from beliefgraph.store import Store


def pair(first: str, second: str, label: str) -> LabelledPair:
    return LabelledPair(id=label, first=first, second=second, label=label)


def test_each_label_is_scored_by_what_the_store_did(store: Store) -> None:
    pairs = [
        pair("The standup is at 9am.", "The standup moved to 10am.", "contradicts"),
        pair("Our fiscal year ends on June 30.", "FY ends 30 June.", "same"),
        pair("Ana speaks French.", "Ana speaks Portuguese.", "compatible"),
        pair("The dock router code is 5080.", "The dock drone code is 1234.", "unrelated"),
        # labelled wrongly on purpose: the store keeps both, so this one is wrong
        pair("The dock router code is 5080.", "The dock drone code is 1234.", "same"),
    ]
    summary = evaluate_pairs(store, pairs).summary()
    assert (summary["pairs"], summary["right"]) == (5, 4)
    assert summary["false_supersessions"] == 0
    assert summary["corrections_applied"] == 1.0
    assert [w["label"] for w in summary["wrong"]] == ["same"]


def test_a_malformed_pair_is_named(tmp_path: Path) -> None:
    path = tmp_path / "pairs.json"
    path.write_text(
        json.dumps({"pairs": [{"id": "p1", "first": "a", "second": "b", "label": "x"}]})
    )
    with pytest.raises(InvalidInput, match="pair p1: label"):
        read_pairs(path)

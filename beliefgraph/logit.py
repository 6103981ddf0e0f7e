"""A multinomial logistic model and the choice of least expected cost, read from a JSON file.

The planner's action model (:mod:`beliefgraph.planner.actions`) and the gate's pair model
(:mod:`beliefgraph.gate.relation`) are both this: a weight per feature and class, fitted by a
script under ``bench/``, gives each class a probability, and what is done is the choice whose
expected cost over those probabilities is least (``costs[class][choice]``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar

import numpy as np


@dataclass(frozen=True)
class Logit:
    """Weights a feature (one per class), an intercept a class, and the cost of each choice for
    each class."""

    classes: tuple[str, ...]
    weights: Mapping[str, Sequence[float]]
    intercept: Sequence[float]
    costs: Sequence[Sequence[float]]

    @cached_property
    def _matrix(self) -> tuple[dict[str, int], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Each feature's row, the weights one row a feature, and the costs: built once."""
        rows = {name: i for i, name in enumerate(self.weights)}
        matrix = np.array(list(self.weights.values()), dtype=float).reshape(-1, len(self.classes))
        return rows, matrix, np.asarray(self.costs, dtype=float)

    def probabilities(self, found: Mapping[str, float]) -> np.ndarray[Any, Any]:
        """Each class's probability; features the model does not know are ignored."""
        rows, matrix, _ = self._matrix
        known = [(rows[name], value) for name, value in found.items() if name in rows]
        score = np.asarray(self.intercept, dtype=float)
        if known:
            at, values = zip(*known, strict=True)
            score = score + np.asarray(values) @ matrix[list(at)]
        p: np.ndarray[Any, Any] = np.exp(score - score.max())
        p /= p.sum()
        return p

    def least_cost(self, found: Mapping[str, float]) -> tuple[int, list[float]]:
        """The choice of least expected cost (its index), and each class's probability."""
        p = self.probabilities(found)
        return int(np.argmin(p @ self._matrix[2])), p.tolist()


#: a kind of :class:`Logit`
L = TypeVar("L", bound=Logit)


def read_logit(
    path: Path,
    into: type[L],
    choices: int | None = None,
    *,
    cost: str = "cost",
    costs: str = "costs",
    label: str = "class",
) -> L:
    """The model ``path`` holds (``{"classes", "weights", "intercept"}`` and its cost table,
    under ``costs``) as an ``into``, with ``choices`` costs a class (as many as classes when
    ``None``); ``cost`` and ``label`` are what the model calls a cost and a class (an action
    model's costs are losses).

    Raises:
        ValueError: a width does not match the classes, or a cost is not a finite number.
    """
    data = json.loads(path.read_text(encoding="utf-8"))
    classes = tuple(str(c) for c in data["classes"])
    table = [[float(x) for x in row] for row in data[costs]]
    weights = {str(k): tuple(float(x) for x in v) for k, v in data["weights"].items()}
    intercept = tuple(float(x) for x in data["intercept"])
    width = len(classes) if choices is None else choices
    widths = {len(intercept), *map(len, weights.values())}
    if (
        len(table) != len(classes)
        or any(len(row) != width for row in table)
        or widths != {len(classes)}
    ):
        raise ValueError(
            f"{path}: a {cost} for each {label} and choice; a {cost}, a weight and an intercept "
            f"for each {label} are needed"
        )
    if not all(math.isfinite(x) for row in table for x in row):
        raise ValueError(f"{path}: {costs} must be finite numbers")
    return into(classes, weights, intercept, table)

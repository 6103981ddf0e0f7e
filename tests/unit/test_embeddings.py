"""The remembering embedder a bulk import wraps its model in, and embeddings as parameters."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from beliefgraph.embeddings import PACKED, Remembering, Vector, packed
from tests.fakes import HashingEmbedder


class Counting(HashingEmbedder):
    """The fake embedder, noting every text it is asked to embed."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        self.seen.extend(texts)
        return super().embed(texts)


def test_each_distinct_text_is_embedded_once_with_the_models_vector() -> None:
    model = Counting()
    memo = Remembering(model, capacity=10)
    texts = ["tabs over spaces", "use Postgres", "tabs over spaces", "use Postgres"]
    first = memo.embed(texts)
    second = memo.embed(["use Postgres", "ship on Fridays"])
    assert model.seen == ["tabs over spaces", "use Postgres", "ship on Fridays"]
    assert first == HashingEmbedder().embed(texts)
    assert second == HashingEmbedder().embed(["use Postgres", "ship on Fridays"])
    assert (memo.asked, memo.embedded) == (6, 3)
    assert memo.dimensions == model.dimensions
    # each row has a list of its own, repeats included
    assert first[0] is not first[2]


def test_the_least_recently_used_text_is_forgotten_beyond_capacity() -> None:
    model = Counting()
    memo = Remembering(model, capacity=2)
    memo.embed(["a one", "b two"])
    memo.embed(["a one"])  # now b is the least recently used
    memo.embed(["c three"])  # ... and is forgotten
    model.seen.clear()
    memo.embed(["a one", "c three", "b two"])
    assert model.seen == ["b two"]


def test_nothing_to_embed_asks_the_model_nothing() -> None:
    model = Counting()
    memo = Remembering(model)
    assert memo.embed([]) == []
    memo.embed(["a one"])
    assert memo.embed(["a one", "a one"]) == HashingEmbedder().embed(["a one"]) * 2
    assert model.calls == 1


def test_a_negative_capacity_is_refused() -> None:
    with pytest.raises(ValueError, match="capacity"):
        Remembering(HashingEmbedder(), capacity=-1)


def test_a_vector_parameter_is_its_list_with_a_short_repr() -> None:
    values = [i / 384 for i in range(384)]
    vector = Vector(values)
    assert vector == values
    assert isinstance(vector, list)
    # the driver formats each query's parameters with repr(), logging or not
    assert repr({"rows": [{"embedding": vector}]}) == "{'rows': [{'embedding': <384-d vector>}]}"
    stored = packed(values)
    assert np.frombuffer(stored, dtype=PACKED).tolist() == np.float32(values).tolist()
    assert repr(stored) == "<384-d packed vector>"

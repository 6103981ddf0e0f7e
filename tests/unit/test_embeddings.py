"""The remembering embedder a bulk import wraps its model in."""

from __future__ import annotations

from collections.abc import Sequence

from beliefgraph.embeddings import Remembering
from tests.fakes import HashingEmbedder


class Counting(HashingEmbedder):
    """The fake embedder, noting every text it is asked to embed."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
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
    assert Remembering(model).embed([]) == []
    assert model.seen == []

"""A deterministic fake embedder, for unit tests only (integration tests use the real model)."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence

from beliefgraph.embeddings import DIMENSIONS
from beliefgraph.text import tokenize


class HashingEmbedder:
    """Bag-of-words hashed into 384 dimensions, normalised: same words, same vector."""

    @property
    def dimensions(self) -> int:
        return DIMENSIONS

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for text in texts:
            vec = [0.0] * DIMENSIONS
            for token in tokenize(text):
                digest = hashlib.sha256(token.encode()).digest()
                vec[int.from_bytes(digest[:4], "big") % DIMENSIONS] += 1.0
            norm = math.sqrt(sum(x * x for x in vec)) or 1.0
            out.append([x / norm for x in vec])
        return out

"""The direct ONNX embedder gives the vectors sentence-transformers gives for the same export."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
from sentence_transformers import SentenceTransformer

from beliefgraph.config import Settings
from beliefgraph.embeddings import (
    DIMENSIONS,
    FUSED_FILE,
    OnnxEmbedder,
    load_embedder,
    onnx_model_dir,
)

TEXTS = [
    "The office Wi-Fi password is tulip-42.",
    "what's the wifi password?",
    "",
    "Café déjà vu — naïve résumé.",
    "long " * 400,  # past the model's 256 tokens: truncated, as sentence-transformers does
    "I prefer dark mode.",
]


def test_the_same_vectors_as_sentence_transformers(
    embedder: OnnxEmbedder, settings: Settings
) -> None:
    reference = SentenceTransformer(
        str(onnx_model_dir(settings.cache_dir)), backend="onnx", device="cpu"
    ).encode(TEXTS, normalize_embeddings=True, convert_to_numpy=True)
    ours = np.asarray(embedder.embed(TEXTS))
    assert ours.shape == (len(TEXTS), DIMENSIONS)
    assert np.abs(ours - reference).max() < 1e-5
    # one at a time (no padding) as in a batch (padded to the longest)
    assert np.abs(np.asarray(embedder.embed(TEXTS[:1]))[0] - ours[0]).max() < 1e-5
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


def test_a_texts_vector_does_not_depend_on_the_texts_embedded_with_it(
    embedder: OnnxEmbedder,
) -> None:
    # an import remembers vectors across batches, and a resumed one starts with none: the
    # graph it ends with is the same only if a text's vector is the same in any batch
    text = "We no longer use Redis for the billing service."
    alone = embedder.embed([text])[0]
    mates = [
        "ok",
        "I prefer Postgres over Kafka for the staging database; it is simpler to run.",
        *(f"filler note {i} about the {'x' * (i % 40)} job" for i in range(100)),
    ]
    for k in (0, 1, 50, len(mates)):
        batch = [*mates[:k], text, *mates[k:]]
        assert embedder.embed(batch)[k] == alone


def test_a_large_call_shared_between_the_cores_keeps_order_and_vectors(
    embedder: OnnxEmbedder,
) -> None:
    # more than one run's texts: the runs go to a thread per core, on the other session
    texts = [f"note {i}: the {'deploy ' * (i % 7)}job runs at {i % 24}:00" for i in range(150)]
    assert embedder.embed(texts) == [embedder.embed([t])[0] for t in texts]


def test_embedding_aside_gives_the_same_vectors_bit_for_bit(embedder: OnnxEmbedder) -> None:
    # search embeds a query aside or not depending on what it has seen of ties: the vector
    # must not depend on which, or the order of tied hits would depend on history
    for text in TEXTS:
        assert embedder.embed_aside([text]) == embedder.embed([text])
    assert embedder.embed_aside([]) == []


def test_a_damaged_fused_copy_is_made_again(
    embedder: OnnxEmbedder, settings: Settings, tmp_path: Path
) -> None:
    """The fused copy is made once per cache; one that no longer loads (damaged on disk) is
    made again from the export instead of failing every start."""
    export = onnx_model_dir(settings.cache_dir)
    copy = onnx_model_dir(tmp_path)
    shutil.copytree(export, copy, ignore=shutil.ignore_patterns(FUSED_FILE, ".*"))
    (copy / "onnx" / FUSED_FILE).write_bytes(b"not a model")
    remade = load_embedder(tmp_path)
    assert (copy / "onnx" / FUSED_FILE).stat().st_size > 1_000_000
    assert not [p for p in (copy / "onnx").iterdir() if p.name.startswith(".")]  # no staging
    text = "The office Wi-Fi password is tulip-42."
    assert np.abs(np.asarray(remade.embed([text])) - embedder.embed([text])).max() < 1e-6

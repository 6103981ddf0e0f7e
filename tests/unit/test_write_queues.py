"""Writes and embeddings that arrive while another is in its turn go in together: the queue's
group commit (``store/queue.py``) and the embedder's (``embeddings.py``), with no database or
model (a run that blocks until the others have queued up behind it)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import numpy as np

from beliefgraph.embeddings import OnnxEmbedder
from beliefgraph.models import GateDecision, Verdict
from beliefgraph.store.queue import NamespaceQueue

WRITERS = 8


def _until(test: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "the writers never queued up"
        time.sleep(0.005)


def _decisions(rows: list[dict[str, Any]]) -> list[GateDecision]:
    return [
        GateDecision(
            index=i,
            verdict=Verdict.add,
            belief_id=row["id"],
            target=None,
            similarity=None,
            reason="new",
            classifier="default",
            contested=False,
        )
        for i, row in enumerate(rows)
    ]


def test_writes_that_wait_behind_a_transaction_go_in_as_one_and_each_gets_its_answer() -> None:
    queue = NamespaceQueue(timeout=10)
    batches: list[list[str]] = []
    first_in, release = threading.Event(), threading.Event()

    def run(rows: list[dict[str, Any]]) -> list[GateDecision]:
        batches.append([r["id"] for r in rows])
        if len(batches) == 1:
            first_in.set()
            release.wait(10)
        return _decisions(rows)

    answers: dict[str, list[str]] = {}
    turns: list[int] = []
    take_turn = queue.turn

    def counted_turn(namespaces: Any) -> Any:
        turns.append(1)
        return take_turn(namespaces)

    queue.turn = counted_turn  # type: ignore[method-assign]

    def write(i: int) -> None:
        decisions = queue.together("caller", ["user:a"], [{"id": f"b{i}"}], run)
        answers[f"b{i}"] = [d.belief_id for d in decisions]

    first = threading.Thread(target=write, args=(0,))
    first.start()
    assert first_in.wait(10)
    others = [threading.Thread(target=write, args=(i,)) for i in range(1, WRITERS)]
    for t in others:
        t.start()
    _until(lambda: len(queue._waiting.get("caller", [])) == WRITERS - 1)
    release.set()
    for t in [first, *others]:
        t.join(10)
        assert not t.is_alive()
    # the first alone; then everything that waited behind it, in one transaction
    assert batches[0] == ["b0"]
    assert sorted(batches[1]) == sorted(f"b{i}" for i in range(1, WRITERS))
    assert len(batches) == 2
    assert answers == {f"b{i}": [f"b{i}"] for i in range(WRITERS)}
    # only the two that led took the namespace's turn: the others waited for their batch,
    # not in line for a turn that would find their write done already
    assert len(turns) == 2


def test_a_write_taken_into_a_batch_gets_its_answer_however_long_the_batch_runs() -> None:
    # a write in another's batch is Neo4j's: answering it 503 while the batch commits would
    # leave it stored and unacknowledged
    queue = NamespaceQueue(timeout=0.5)
    first_in, release = threading.Event(), threading.Event()
    batches: list[list[str]] = []

    def run(rows: list[dict[str, Any]]) -> list[GateDecision]:
        batches.append([r["id"] for r in rows])
        if len(batches) == 1:
            first_in.set()
            release.wait(10)
        else:
            time.sleep(0.8)  # past the deadline of the writes that waited for this batch
        return _decisions(rows)

    answers: dict[str, object] = {}

    def write(name: str) -> None:
        try:
            decisions = queue.together("caller", ["user:a"], [{"id": name}], run)
            answers[name] = [d.belief_id for d in decisions]
        except Exception as e:
            answers[name] = e

    first = threading.Thread(target=write, args=("a",))
    first.start()
    assert first_in.wait(10)
    others = [threading.Thread(target=write, args=(n,)) for n in ("b", "c")]
    for t in others:
        t.start()
    _until(lambda: len(queue._waiting.get("caller", [])) == 2)
    release.set()
    for t in [first, *others]:
        t.join(10)
        assert not t.is_alive()
    assert sorted(batches[1]) == ["b", "c"]
    assert answers == {"a": ["a"], "b": ["b"], "c": ["c"]}


class _Tokens:
    """A tokenizer of one id per word (the word's length), padded in a batch."""

    def encode(self, text: str) -> SimpleNamespace:
        ids = [len(w) for w in text.split()]
        return SimpleNamespace(ids=ids, attention_mask=[1] * len(ids))

    def encode_batch(self, texts: list[str]) -> list[SimpleNamespace]:
        encoded = [self.encode(t) for t in texts]
        width = max(len(e.ids) for e in encoded)
        return [
            SimpleNamespace(
                ids=e.ids + [0] * (width - len(e.ids)),
                attention_mask=e.attention_mask + [0] * (width - len(e.ids)),
            )
            for e in encoded
        ]


class _Session:
    """A model whose every position's output depends on its own token only; its first run
    waits until released, so the calls after it queue up."""

    def __init__(self) -> None:
        self.runs: list[int] = []
        self.first_in, self.release = threading.Event(), threading.Event()

    def get_inputs(self) -> list[SimpleNamespace]:
        return [SimpleNamespace(name="input_ids"), SimpleNamespace(name="attention_mask")]

    def run(self, _: object, feeds: dict[str, np.ndarray[Any, Any]]) -> list[Any]:
        self.runs.append(len(feeds["input_ids"]))
        if len(self.runs) == 1:
            self.first_in.set()
            self.release.wait(10)
        ids = feeds["input_ids"].astype(np.float32)
        return [np.sin(ids[..., None] * (np.arange(384, dtype=np.float32) + 1))]


def test_small_embeddings_that_wait_run_together_each_with_its_own_vector() -> None:
    session = _Session()
    embedder = OnnxEmbedder(session, _Tokens())
    turns: list[int] = []

    class _CountedLock:
        """The model's lock, noting each time a call takes it."""

        def __init__(self) -> None:
            self._lock = threading.Lock()

        def __enter__(self) -> None:
            self._lock.acquire()
            turns.append(1)

        def __exit__(self, *_: object) -> None:
            self._lock.release()

    embedder._lock = _CountedLock()  # type: ignore[assignment]
    texts = [f"text {'word ' * i}number {i}" for i in range(WRITERS)]
    got: dict[int, list[list[float]]] = {}

    def embed(i: int) -> None:
        got[i] = embedder.embed([texts[i]])

    first = threading.Thread(target=embed, args=(0,))
    first.start()
    assert session.first_in.wait(10)
    others = [threading.Thread(target=embed, args=(i,)) for i in range(1, WRITERS)]
    for t in others:
        t.start()
    _until(lambda: len(embedder._waiting) == WRITERS - 1)
    session.release.set()
    for t in [first, *others]:
        t.join(10)
        assert not t.is_alive()
    assert session.runs == [1, WRITERS - 1]  # one run for all that waited
    assert len(turns) == 2  # only the two that led took the model's turn
    alone = OnnxEmbedder(_Session(), _Tokens())
    alone._session.release.set()
    for i, text in enumerate(texts):
        np.testing.assert_allclose(got[i], alone.embed([text]), atol=1e-6)


def test_a_failed_shared_run_fails_every_call_in_it_and_none_waits_on() -> None:
    session = _Session()

    def no_aside() -> Any:
        raise RuntimeError("the single-threaded session could not be made")

    embedder = OnnxEmbedder(session, _Tokens(), aside=no_aside)
    results: dict[int, object] = {}

    def embed(i: int) -> None:
        try:
            results[i] = embedder.embed([f"text {i}"])
        except RuntimeError as e:
            results[i] = e

    first = threading.Thread(target=embed, args=(0,))
    first.start()
    assert session.first_in.wait(10)
    others = [threading.Thread(target=embed, args=(i,)) for i in (1, 2, 3)]
    for t in others:
        t.start()
    _until(lambda: len(embedder._waiting) == 3)
    session.release.set()
    for t in [first, *others]:
        t.join(10)
        assert not t.is_alive()
    assert isinstance(results[0], list)  # alone, on the session it always had
    assert all(isinstance(results[i], RuntimeError) for i in (1, 2, 3))
    assert embedder.embed(["after"])  # and the embedder still answers

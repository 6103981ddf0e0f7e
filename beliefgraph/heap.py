"""Keep the garbage collector's full passes off the request path of a long-lived process.

Once the model and the libraries are loaded (the tokenizer, onnxruntime, the Neo4j driver,
FastAPI and pydantic), a server holds some 470,000 container objects that never become
garbage. CPython's full collection (generation 2) walks every one of them: measured about
190 ms here, and it ran in one query in 25 on the 5,000-belief namespace of
``bench/query_latency.py`` (whose p99 was 234 ms for that reason alone). Frozen once
start-up is done (:func:`gc.freeze`), they are out of the collector's reach: a full pass
then walks only what the process made since (about 3 ms measured the same way).

>>> with frozen_heap():          # around the life of a server or an import    # doctest: +SKIP
...     serve()
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Freeze every object alive now for the duration of the block.

    Frozen objects are never collected, garbage or not, so the block is entered after
    loading (what start-up made and dropped is collected first) and left at shutdown, when
    they return to the oldest generation and are freed as usual.
    """
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()

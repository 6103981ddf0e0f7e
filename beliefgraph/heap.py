"""Keep the garbage collector's full passes off the request path of a long-lived process.

Once the model and the libraries are loaded (the tokenizer, onnxruntime, the Neo4j driver,
FastAPI and pydantic), a server holds some 470,000 container objects that never become
garbage. CPython's full collection (generation 2) walks every one of them, long enough to
set a query's p99 alone (bench/results/design-notes.md). Frozen once start-up is done
(:func:`gc.freeze`), they are out of the collector's reach: a full pass then walks only what
the process made since.

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

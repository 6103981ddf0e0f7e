"""The heap freeze that keeps full collections of start-up's objects off the request path."""

from __future__ import annotations

import gc

import pytest

from beliefgraph.heap import frozen_heap


class Loaded:
    """Stands for what start-up loads: a container the collector tracks."""


def test_what_lives_at_entry_is_frozen_until_exit() -> None:
    loaded = Loaded()
    with frozen_heap():
        assert gc.get_freeze_count() > 0
        frozen = gc.get_freeze_count()
        made_later = [Loaded() for _ in range(100)]
        assert gc.get_freeze_count() == frozen  # only what existed at entry
        assert made_later
    assert gc.get_freeze_count() == 0
    assert gc.is_tracked(loaded)


def test_an_error_in_the_block_still_unfreezes() -> None:
    with pytest.raises(RuntimeError), frozen_heap():
        raise RuntimeError("stopped")
    assert gc.get_freeze_count() == 0

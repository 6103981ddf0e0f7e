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
        made_later = Loaded()
        # only what existed at entry: the collector's generations (what get_objects lists)
        # hold what was made since, not what was frozen. (The freeze count is no witness:
        # another thread of the test process may free a frozen object meanwhile.)
        tracked = {id(o) for o in gc.get_objects()}
        assert id(made_later) in tracked
        assert id(loaded) not in tracked
    assert gc.get_freeze_count() == 0
    assert id(loaded) in {id(o) for o in gc.get_objects()}


def test_an_error_in_the_block_still_unfreezes() -> None:
    with pytest.raises(RuntimeError), frozen_heap():
        raise RuntimeError("stopped")
    assert gc.get_freeze_count() == 0

"""The API's memory of keys it has read as valid (no database: callers only)."""

from __future__ import annotations

import pytest

from beliefgraph.access import Caller, Role
from beliefgraph.errors import Unauthenticated
from beliefgraph.keys import KnownKeys, hash_key, raise_for_state


def caller(name: str) -> Caller:
    return Caller(name=name, role=Role.reader, namespaces=frozenset({"tenant:a"}))


def test_a_recalled_caller_carries_its_key_to_confirm() -> None:
    known = KnownKeys()
    assert known.recall("bgk_one") is None
    known.remember("bgk_one", caller("one"))
    recalled = known.recall("bgk_one")
    assert recalled is not None
    assert recalled.name == "one"
    assert recalled.unconfirmed_key == hash_key("bgk_one")
    # remembering a recalled caller again does not make its key confirmed for good
    known.remember("bgk_one", recalled)
    again = known.recall("bgk_one")
    assert again is not None
    assert again.unconfirmed_key == hash_key("bgk_one")


def test_the_least_recently_used_key_is_forgotten_first() -> None:
    known = KnownKeys(capacity=2)
    known.remember("bgk_one", caller("one"))
    known.remember("bgk_two", caller("two"))
    assert known.recall("bgk_one") is not None  # now the most recently used
    known.remember("bgk_three", caller("three"))
    assert known.recall("bgk_two") is None
    assert known.recall("bgk_one") is not None
    assert known.recall("bgk_three") is not None


def test_a_forgotten_key_is_not_recalled() -> None:
    known = KnownKeys()
    known.remember("bgk_one", caller("one"))
    known.forget(hash_key("bgk_one"))
    assert known.recall("bgk_one") is None


def test_a_key_state_passes_only_when_ok() -> None:
    raise_for_state("ok")
    with pytest.raises(Unauthenticated, match="revoked"):
        raise_for_state("revoked")
    with pytest.raises(Unauthenticated, match="unknown"):
        raise_for_state("unknown")
    with pytest.raises(Unauthenticated):
        raise_for_state(None)  # a read that lost the state refuses, never passes

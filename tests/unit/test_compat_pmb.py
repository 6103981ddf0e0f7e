"""Reading the PrecisionMemBench harness's joined text (no services)."""

from __future__ import annotations

from beliefgraph.compat_pmb import StoredNames, _names_inside, _split_text

STORED = StoredNames("redis_cache", ["Redis"], "Used as a cache. Shapes answers.")


def test_the_canonical_name_and_aliases_come_off_the_front() -> None:
    text = "redis_cache Redis k8s Used as a cache."
    assert _split_text(text, ["Redis", "k8s"]) == ("redis_cache", "Used as a cache.")
    assert _split_text("Not snake case at all", []) == (None, "Not snake case at all")


def test_new_aliases_inside_the_text_are_read_word_by_word() -> None:
    rest = "Redis allkeys-lru eviction policy the maxmemory Used as a cache. Shapes answers."
    assert _names_inside("redis_cache", rest, STORED) == (
        "redis_cache",
        STORED.text,
        ["Redis", "allkeys-lru", "eviction", "policy", "maxmemory"],
    )


def test_a_text_of_another_shape_is_taken_as_it_came() -> None:
    # another content: no aliases can be told from it, and the stored ones are not kept
    assert _names_inside("redis_cache", "Redis A new content.", STORED) == (
        "redis_cache",
        "Redis A new content.",
        [],
    )
    # another canonical name
    other = "Redis x Used as a cache. Shapes answers."
    assert _names_inside("cache_layer", other, STORED)[2] == []


def test_stored_aliases_that_no_longer_lead_are_dropped() -> None:
    rest = "memcached Used as a cache. Shapes answers."
    assert _names_inside("redis_cache", rest, STORED)[2] == ["memcached"]

"""Neo4j values become Python values in one place: date-times from the driver or as strings."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from neo4j.time import DateTime

from beliefgraph.records import native_datetime


def test_cypher_date_time_strings_read_as_the_driver_would() -> None:
    driver = DateTime(2026, 11, 30, 10, 19, 36, 626710987, tzinfo=UTC)
    assert native_datetime("2026-11-30T10:19:36.626710987Z") == driver.to_native()
    assert native_datetime("2026-11-30T10:19:36.62671Z") == datetime(
        2026, 11, 30, 10, 19, 36, 626710, tzinfo=UTC
    )
    assert native_datetime("2026-11-30T10:19Z") == datetime(2026, 11, 30, 10, 19, tzinfo=UTC)


def test_a_named_zone_is_placed_by_its_offset() -> None:
    paris = native_datetime("2026-11-30T12:00+01:00[Europe/Paris]")
    assert paris == datetime(2026, 11, 30, 12, 0, tzinfo=timezone(timedelta(hours=1)))
    assert paris is not None
    assert paris.utcoffset() == timedelta(hours=1)


def test_none_stays_none_and_other_values_are_refused() -> None:
    assert native_datetime(None) is None
    with pytest.raises(TypeError):
        native_datetime(42)

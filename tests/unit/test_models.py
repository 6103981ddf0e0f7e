from datetime import UTC, datetime, timedelta, timezone

import pytest
from pydantic import TypeAdapter, ValidationError

from beliefgraph.models import (
    BeliefBatch,
    BeliefCreate,
    BeliefWrite,
    Governs,
    SupersedeRequest,
    storable,
)
from beliefgraph.store.rows import scope_key

WRITE: TypeAdapter[BeliefCreate | BeliefBatch] = TypeAdapter(BeliefWrite)


def test_a_write_is_one_belief_or_a_batch() -> None:
    one = WRITE.validate_python({"text": "x", "namespaces": ["user:me"]})
    many = WRITE.validate_python({"beliefs": [{"text": "x", "namespaces": ["user:me"]}]})
    assert isinstance(one, BeliefCreate)
    assert isinstance(many, BeliefBatch)


@pytest.mark.parametrize(
    "namespace", ["user:me", "domain:code", "project:belief-graph", "tenant:a.b_c-9"]
)
def test_documented_namespaces_pass(namespace: str) -> None:
    assert BeliefCreate(text="x", namespaces=[namespace]).namespaces == [namespace]


@pytest.mark.parametrize("namespace", ["me", "user:", "USER:me", "team:x", "user:-x", "user:a b"])
def test_other_namespaces_fail(namespace: str) -> None:
    with pytest.raises(ValidationError, match="namespaces"):
        BeliefCreate(text="x", namespaces=[namespace])


def test_entities_accept_plain_names() -> None:
    b = BeliefCreate.model_validate(
        {"text": "x", "namespaces": ["user:me"], "about": ["Office Wi-Fi", {"name": "mom"}]}
    )
    assert [e.key for e in b.about] == ["office_wifi", "mom"]


def test_governs_needs_terms() -> None:
    with pytest.raises(ValidationError, match="any_terms or all_terms"):
        Governs(action_types=["read"])


def test_equal_scopes_share_a_key() -> None:
    a = Governs(any_terms=["Wi-Fi", "password"], action_types=["read"])
    b = Governs(any_terms=["password", "wifi", "WIFI"], action_types=["read"])
    c = Governs(any_terms=["password"], action_types=["read"])
    assert scope_key(a) == scope_key(b) != scope_key(c)


def test_supersede_needs_exactly_one_replacement() -> None:
    with pytest.raises(ValidationError, match="exactly one"):
        SupersedeRequest(reason="r")
    assert SupersedeRequest(by_id="b1", reason="r").by_id == "b1"


def test_operation_statuses_cannot_be_created() -> None:
    with pytest.raises(ValidationError, match="set by an operation"):
        BeliefCreate(text="x", namespaces=["user:me"], status="retracted")


def test_validity_window_is_ordered() -> None:
    with pytest.raises(ValidationError, match="valid_to"):
        BeliefCreate(
            text="x",
            namespaces=["user:me"],
            valid_from="2026-02-01T00:00:00Z",
            valid_to="2026-01-01T00:00:00Z",
        )


def test_a_time_without_a_zone_is_utc_so_windows_compare() -> None:
    b = BeliefCreate(
        text="x",
        namespaces=["user:me"],
        valid_from="2026-01-01T00:00:00",
        valid_to="2026-02-01T00:00:00+01:00",
        resolved_at="2026-01-05T12:00:00",
    )
    assert b.valid_from is not None
    assert b.valid_from.utcoffset() == timedelta(0)
    assert b.resolved_at is not None
    assert b.resolved_at.tzinfo is not None
    with pytest.raises(ValidationError, match="valid_to is before"):
        BeliefCreate(
            text="x",
            namespaces=["user:me"],
            valid_from="2026-02-01T00:00:00",
            valid_to="2026-01-01T00:00:00Z",
        )


def test_a_scope_term_must_fit_once_normalised() -> None:
    """Compatibility forms grow under NFKD ("ﬃ" is "ffi"): the limit applies to the key."""
    assert Governs(any_terms=["ﬃ" * 66])  # 198 characters as a key
    with pytest.raises(ValidationError, match="over 200 characters once normalised"):
        Governs(any_terms=["ﬃ" * 150])


def test_attributes_refuse_numbers_json_cannot_carry_back() -> None:
    for value in (float("nan"), float("inf"), [1.0, float("-inf")]):
        with pytest.raises(ValidationError, match="cannot be stored; give a finite number"):
            BeliefCreate(text="x", namespaces=["user:me"], attributes={"dose": value})
    assert BeliefCreate(text="x", namespaces=["user:me"], attributes={"dose": 2.5}).attributes


def test_a_time_neo4j_cannot_keep_is_refused() -> None:
    assert storable(datetime(2026, 1, 1)).tzinfo is UTC
    east = datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=18)))
    assert storable(east) == east
    with pytest.raises(ValueError, match="offset"):
        storable(datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=18, minutes=1))))
    with pytest.raises(ValueError, match="years"):
        storable(datetime(9999, 12, 31, 23, tzinfo=timezone(timedelta(hours=-5))))

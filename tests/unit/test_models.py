import pytest
from pydantic import TypeAdapter, ValidationError

from beliefgraph.models import BeliefBatch, BeliefCreate, BeliefWrite, Governs, SupersedeRequest
from beliefgraph.store import scope_key

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

"""Pydantic models, named by role: ``*Create`` comes in, ``*Public`` goes out.

Neo4j records become models in one place per node type: beliefs and chains in
:mod:`beliefgraph.records`, the planner's candidates in :mod:`beliefgraph.planner.candidates`,
the gate's neighbours in :mod:`beliefgraph.gate.incoming`, API keys in :mod:`beliefgraph.keys`
and audit events in :mod:`beliefgraph.audit`. The fields follow DESIGN §2.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Annotated, Any, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    field_validator,
    model_validator,
)

from beliefgraph.text import entity_key, unique

#: A namespace is ``<kind>:<name>``: kind one of user, domain, project, tenant; name
#: lower-case letters, digits, ``.``, ``_``, ``-``; at most 64 characters after the colon.
NAMESPACE_PATTERN = r"^(user|domain|project|tenant):[a-z0-9][a-z0-9._-]{0,63}$"
#: A belief id: letters, digits, ``.``, ``_``, ``:``, ``-``; 1 to 128 characters.
BELIEF_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$"

NamespaceName = Annotated[str, StringConstraints(pattern=NAMESPACE_PATTERN)]
BeliefId = Annotated[str, StringConstraints(pattern=BELIEF_ID_PATTERN)]
#: A user id: letters, digits, ``.``, ``_``, ``:``, ``@``, ``-``; 1 to 128 characters.
USER_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$"
UserId = Annotated[str, StringConstraints(pattern=USER_ID_PATTERN)]
#: A value kept in ``attributes``: a scalar or a list of scalars (Neo4j stores no maps).
AttributeValue = str | int | float | bool | None | list[str | int | float | bool | None]
# The hard cap keeps absurd bodies out before any work; the configurable, usually
# smaller limit (Settings.max_text_length) is enforced by the store.
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100_000)]
TERM_MAX_LENGTH = 200
Term = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=TERM_MAX_LENGTH)
]


#: the widest UTC offset Neo4j keeps (Python allows up to 24 hours)
MAX_OFFSET = timedelta(hours=18)


def storable(value: datetime) -> datetime:
    """``value``, zoned (UTC when it has no zone), when Neo4j can keep it.

    Raises:
        ValueError: its UTC offset is beyond ±18:00, or in UTC it leaves years 1-9999.
    """
    value = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    offset = value.utcoffset()
    if offset is not None and abs(offset) > MAX_OFFSET:
        raise ValueError("the UTC offset must be within ±18:00")
    try:
        value.astimezone(UTC)
    except OverflowError:
        raise ValueError("the time must fall within years 1 to 9999 in UTC") from None
    return value


#: A point in time; one given without a time zone is read as UTC. Every time the store keeps
#: is zoned, and Neo4j compares a zoned time with a local one as null (a filter then drops
#: everything), nor can Python order the two. Neo4j refuses offsets beyond ±18:00 and times
#: outside years 1-9999 once in UTC: those are refused here, naming the field.
Instant = Annotated[datetime, AfterValidator(storable)]


class Kind(StrEnum):
    """What sort of statement a belief is."""

    preference = "preference"
    decision = "decision"
    fact = "fact"
    policy = "policy"
    credential = "credential"
    correction = "correction"
    directive = "directive"
    observation = "observation"
    context = "context"
    entity = "entity"
    relation = "relation"
    open_question = "open_question"
    suggestion = "suggestion"
    state = "state"


#: kinds that carry authority (DESIGN §3, §7); decisions only within their scope
AUTHORITY_KINDS = frozenset({Kind.policy, Kind.credential, Kind.correction, Kind.decision})


class Status(StrEnum):
    """Where a belief is in its life. ``superseded`` and ``retracted`` are set by operations."""

    active = "active"
    provisional = "provisional"
    inferred = "inferred"
    exploratory = "exploratory"
    superseded = "superseded"
    archived = "archived"
    retracted = "retracted"


#: statuses a client may set when creating a belief
CREATABLE_STATUSES = frozenset(
    {Status.active, Status.provisional, Status.inferred, Status.exploratory, Status.archived}
)


class EpistemicStatus(StrEnum):
    """How well-founded a belief is."""

    confirmed = "confirmed"
    reported = "reported"
    unverified = "unverified"
    floated = "floated"
    contested = "contested"


class Priority(StrEnum):
    """How much a belief matters when it applies."""

    critical = "critical"
    high = "high"
    normal = "normal"
    low = "low"


class ActionType(StrEnum):
    """What a request would do."""

    read = "read"
    write = "write"
    execute = "execute"


class ActionClass(StrEnum):
    """What the agent may do, most protective first: block > verify_first > warn > answer.

    ``archive_only`` stands apart from that order: the governing belief is archived history
    that must not steer current behaviour (the evaluation packets use it).
    """

    block = "block"
    verify_first = "verify_first"
    warn = "warn"
    answer = "answer"
    answer_context = "answer_context"
    archive_only = "archive_only"


class Sensitivity(StrEnum):
    """How sensitive the resource a belief is about is."""

    low = "low"
    medium = "medium"
    high = "high"


class WritePath(StrEnum):
    """How a belief entered the store."""

    api = "api"
    import_ = "import"
    cli = "cli"
    gate = "gate"
    admin = "admin"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EntityRef(_Strict):
    """An entity a belief is about; a plain string is accepted as its name."""

    name: Term
    aliases: list[Term] = Field(default_factory=list, max_length=50)

    @model_validator(mode="before")
    @classmethod
    def _from_string(cls, value: Any) -> Any:
        return {"name": value} if isinstance(value, str) else value

    @property
    def key(self) -> str:
        """The snake_case key the entity is merged on."""
        return entity_key(self.name)

    @field_validator("name")
    @classmethod
    def _has_words(cls, value: str) -> str:
        if not entity_key(value):
            raise ValueError("an entity name needs at least one letter or digit")
        return value


class Governs(_Strict):
    """The jurisdiction of a belief: which requests it may govern.

    A request is in scope when it mentions any ``any_terms`` (or there are none), all
    ``all_terms``, and none of ``excluded_terms``; ``action_types`` (empty = every type)
    limits the kinds of request. At least one of ``any_terms`` and ``all_terms`` is needed.
    """

    # The rule the validator below enforces, in the schema too (OpenAPI, clients).
    model_config = ConfigDict(
        **_Strict.model_config,
        json_schema_extra={
            "anyOf": [
                {"required": ["any_terms"], "properties": {"any_terms": {"minItems": 1}}},
                {"required": ["all_terms"], "properties": {"all_terms": {"minItems": 1}}},
            ]
        },
    )

    any_terms: list[Term] = Field(default_factory=list, max_length=100)
    all_terms: list[Term] = Field(default_factory=list, max_length=100)
    excluded_terms: list[Term] = Field(default_factory=list, max_length=100)
    action_types: list[ActionType] = Field(default_factory=list)

    @model_validator(mode="after")
    def _not_empty(self) -> Self:
        if not (self.any_terms or self.all_terms):
            raise ValueError("governs needs at least one of any_terms or all_terms")
        for name in ("any_terms", "all_terms", "excluded_terms"):
            for term in getattr(self, name):
                key = entity_key(term)
                if not key:
                    raise ValueError(f"{name}: {term!r} has no letter or digit")
                if len(key) > TERM_MAX_LENGTH:  # compatibility forms can grow: "ﬃ" is "ffi"
                    raise ValueError(
                        f"{name}: {term[:40]!r}... is over {TERM_MAX_LENGTH} characters "
                        "once normalised"
                    )
        return self

    def normalized(self) -> Governs:
        """The same scope with terms as entity keys, de-duplicated and sorted."""
        return Governs(
            any_terms=sorted(unique(entity_key(t) for t in self.any_terms)),
            all_terms=sorted(unique(entity_key(t) for t in self.all_terms)),
            excluded_terms=sorted(unique(entity_key(t) for t in self.excluded_terms)),
            action_types=sorted(set(self.action_types)),
        )


class BeliefCreate(_Strict):
    """A belief to store. ``namespaces`` decide who may ever read it."""

    id: BeliefId | None = Field(default=None, description="Client-chosen id; generated if absent.")
    text: Text
    kind: Kind = Kind.fact
    status: Status = Status.active
    epistemic_status: EpistemicStatus = EpistemicStatus.reported
    priority: Priority = Priority.normal
    verification_required: bool = False
    allowed_action: ActionClass | None = Field(
        default=None, description="A hint of the action this belief allows when it governs."
    )
    resource_sensitivity: Sensitivity | None = None
    canonical_name: Term | None = None
    aliases: list[Term] = Field(
        default_factory=list,
        max_length=100,
        description="Other names, including counter-signal names of rejected alternatives.",
    )
    why_it_matters: Text | None = Field(default=None, description="An imperative directive.")
    trust: float = Field(default=0.8, ge=0.0, le=1.0)
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    confidence: float = Field(default=0.8, ge=0.0, le=1.0)
    pinned: bool = False
    valid_from: Instant | None = None
    valid_to: Instant | None = None
    author: Term | None = None
    user: UserId | None = Field(
        default=None,
        description="The user the belief belongs to; only that user's context reads it. "
        "None: nobody's in particular.",
    )
    resolved_at: Instant | None = Field(
        default=None, description="When an open question was answered; it then never surfaces."
    )
    last_reinforced_at: Instant | None = None
    attributes: dict[Term, AttributeValue] = Field(
        default_factory=dict,
        max_length=50,
        description="Metadata that has no field of its own, kept as given.",
    )
    about: list[EntityRef] = Field(default_factory=list, max_length=100)
    governs: Governs | None = None
    namespaces: list[NamespaceName] = Field(min_length=1, max_length=20)

    @field_validator("status")
    @classmethod
    def _creatable(cls, value: Status) -> Status:
        if value not in CREATABLE_STATUSES:
            raise ValueError(
                f"status {value.value!r} is set by an operation (supersede, retract), not on create"
            )
        return value

    @field_validator("attributes")
    @classmethod
    def _finite(cls, value: dict[str, AttributeValue]) -> dict[str, AttributeValue]:
        for key, item in value.items():
            for number in item if isinstance(item, list) else [item]:
                if isinstance(number, float) and not math.isfinite(number):
                    # JSON cannot carry them back: they would come out as null
                    raise ValueError(f"{key}: {number} cannot be stored; give a finite number")
        return value

    @model_validator(mode="after")
    def _valid_window(self) -> Self:
        if self.valid_from and self.valid_to and self.valid_to < self.valid_from:
            raise ValueError("valid_to is before valid_from")
        return self


class BeliefBatch(_Strict):
    """Several beliefs written in one transaction: all or none."""

    beliefs: list[BeliefCreate] = Field(min_length=1)


def _batch_or_single(value: Any) -> str:
    return "batch" if isinstance(value, dict) and "beliefs" in value else "single"


#: the body of ``POST /v1/beliefs``: one belief, or ``{"beliefs": [...]}``
BeliefWrite = Annotated[
    Annotated[BeliefBatch, Tag("batch")] | Annotated[BeliefCreate, Tag("single")],
    Discriminator(_batch_or_single),
]


class BeliefPublic(BaseModel):
    """A stored belief as clients see it (never its embedding)."""

    model_config = ConfigDict(frozen=True)

    id: str
    text: str
    kind: Kind
    status: Status
    epistemic_status: EpistemicStatus
    priority: Priority
    verification_required: bool
    allowed_action: ActionClass | None
    resource_sensitivity: Sensitivity | None
    canonical_name: str | None
    aliases: list[str]
    why_it_matters: str | None
    trust: float
    importance: float
    confidence: float
    pinned: bool
    reinforcement_count: int
    created_at: datetime
    updated_at: datetime
    valid_from: datetime | None
    valid_to: datetime | None
    write_path: WritePath
    author: str | None
    user: str | None = None
    resolved_at: datetime | None = None
    last_reinforced_at: datetime | None = None
    attributes: dict[str, AttributeValue] = Field(default_factory=dict)
    about: list[str] = Field(description="Keys of the entities the belief is about.")
    governs: Governs | None
    namespaces: list[str]
    supersedes: str | None = Field(
        description="Id of the belief this one replaced, if any (and the caller may see it)."
    )
    superseded_by: str | None = Field(
        description="Id of the belief that replaced this one, if the caller may see it."
    )


class Verdict(StrEnum):
    """What the curation gate decided about an incoming belief (DESIGN §5)."""

    add = "add"
    noop = "noop"
    compatible = "compatible"
    contradicts = "contradicts"
    subsumes = "subsumes"
    subsumed = "subsumed"


class GateDecision(BaseModel):
    """The gate's verdict on one incoming belief, and what the store did about it."""

    index: int = Field(description="Position of the belief in the request.")
    verdict: Verdict
    belief_id: str = Field(
        description="The belief the write resulted in: the new one, or for noop/subsumed "
        "the existing one that was reinforced instead."
    )
    target: str | None = Field(description="The existing belief the verdict is about.")
    similarity: float | None = Field(description="Cosine similarity to the target.")
    reason: str
    classifier: str = Field(description="`default`, or `llm:<model>` when the LLM decided.")
    contested: bool = Field(
        default=False,
        description="A contradiction the guards kept from superseding: stored and linked "
        "CONTRADICTS instead.",
    )
    guard: str | None = Field(
        default=None, description="Why a contradiction was contested: trust, role or namespace."
    )


class GatePreview(BaseModel):
    """The answer to a dry run: the verdicts, nothing written."""

    decisions: list[GateDecision]


class BeliefsCreated(BaseModel):
    """The answer to a batch write."""

    beliefs: list[BeliefPublic]
    decisions: list[GateDecision] = Field(
        default_factory=list, description="The gate's verdict on each belief, in order."
    )


class BeliefPage(BaseModel):
    """One page of a listing; pass ``next_cursor`` back as ``cursor`` for the next."""

    items: list[BeliefPublic]
    next_cursor: str | None


class SupersedeRequest(_Strict):
    """Replace a belief: by a new one (``by``) or by one already stored (``by_id``), exactly
    one of the two."""

    model_config = ConfigDict(
        **_Strict.model_config,
        json_schema_extra={"oneOf": [{"required": ["by"]}, {"required": ["by_id"]}]},
    )

    by: BeliefCreate | None = None
    by_id: BeliefId | None = None
    reason: Text

    @model_validator(mode="after")
    def _exactly_one(self) -> Self:
        if (self.by is None) == (self.by_id is None):
            raise ValueError("give exactly one of 'by' (a new belief) or 'by_id'")
        return self


class ChainLink(BaseModel):
    """One ``SUPERSEDES`` edge: ``newer`` replaced ``older``."""

    newer: str
    older: str
    at: datetime
    reason: str
    by: str | None


class Chain(BaseModel):
    """A supersession chain, oldest belief first, the current head last."""

    beliefs: list[BeliefPublic]
    links: list[ChainLink]
    head: str


class EdgeType(StrEnum):
    """The explicit precedence a curator can set between two beliefs (DESIGN §3.4)."""

    overrides = "OVERRIDES"
    narrows = "NARROWS"


class PrecedenceRequest(_Strict):
    """Rank a belief before ``other``: it ``OVERRIDES`` it, or its scope ``NARROWS`` the
    scope ``other`` governs."""

    other: BeliefId = Field(description="The belief it takes precedence over.")
    reason: Text


class PrecedenceEdge(BaseModel):
    """An explicit precedence edge, from the belief that wins to the one it wins over.

    For ``NARROWS`` the edge joins the two beliefs' scopes (``source_scope``,
    ``target_scope``), which every belief governing the same terms shares.
    """

    source: str
    type: EdgeType
    target: str
    at: datetime
    by: str | None = None
    reason: str | None = None
    created: bool = Field(description="False when the edge was there already.")
    source_scope: str | None = None
    target_scope: str | None = None


class NamespacePublic(BaseModel):
    """A namespace and how many beliefs it holds."""

    name: str
    beliefs: int


class Health(BaseModel):
    """The process is up (``GET /healthz``)."""

    status: str


class Ready(BaseModel):
    """Whether the service can do its work: Neo4j answers, indexes online (``GET /readyz``).
    Where Neo4j is, its version and the index names are not told (unauthenticated); the log
    has them."""

    ready: bool
    reason: str | None = None

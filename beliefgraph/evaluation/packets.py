"""Memory-store packets of the governance benchmark: reading, checking, mapping, noise.

A packet (``../shared/benchmarks/governance/*.json``) holds scenarios; each has a ``query``,
an ``expected_action`` and a ``memory_store`` of memories. Annotation files add ``governs``
to memories by ``scenario_id`` and 1-based ``memory_index``.

The **answer key** - ``role``, ``distractor_trap``, ``expected_fired_role``,
``must_not_fire_roles``, ``why_tempting``, ``expected_failure_mode``,
``discriminating_signal``, ``failure_cost`` - is kept in :class:`AnswerKey` and read only by
the scorer. :func:`to_beliefs` maps the rest onto :class:`~beliefgraph.models.BeliefCreate`;
ids are ``<run>-<scenario>-m<index>`` and never say which memory is the target (a memory's
own ``id`` - some packets' encode roles - only resolves ``superseded_by`` and is never stored).

Mapping: ``memory_type`` → ``kind``; ``status`` → ``status`` (``superseded`` becomes a
``SUPERSEDES`` edge to the memory ``superseded_by`` names, else to the newest active one of
the same type, else the memory is archived: see :func:`infer_successor`); ``priority``,
``epistemic_status``, ``verification_required``; ``allowed_action_hint`` →
``allowed_action``; ``recency_rank`` → ``valid_from`` (rank 1 is the most recent);
``retrieval_terms`` → ``about`` (the entities a memory is about); ``governs`` →
``governs``. Values the model does not have are read as the packets mean them: epistemic
``settled`` is ``confirmed``, ``inferred`` and ``uncertain`` (AUTHORING.md) are
``unverified``; a priority that is not a priority (top5 writes ``active``/``archived``
there) is ``normal``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from beliefgraph.errors import InvalidPacket
from beliefgraph.language.words import content_words
from beliefgraph.models import (
    ActionClass,
    BeliefCreate,
    EntityRef,
    EpistemicStatus,
    Governs,
    Kind,
    Priority,
    Status,
)
from beliefgraph.text import entity_key

#: the fields of a packet that are the answer key: only the scorer reads them
ANSWER_KEY_FIELDS = frozenset(
    {
        "role",
        "distractor_trap",
        "expected_fired_role",
        "must_not_fire_roles",
        "why_tempting",
        "expected_failure_mode",
        "discriminating_signal",
        "failure_cost",
    }
)
#: recency ranks count back from this instant, one day per rank
RECENCY_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
#: authoring words the model spells otherwise: what AUTHORING.md calls ``inferred`` or
#: ``uncertain`` has not been verified
_EPISTEMIC_SYNONYMS = {
    "settled": EpistemicStatus.confirmed,
    "inferred": EpistemicStatus.unverified,
    "uncertain": EpistemicStatus.unverified,
}
_STATUSES = {"active", "provisional", "inferred", "exploratory", "archived", "superseded"}


class Memory(BaseModel):
    """One memory of a scenario's store, as the packet writes it."""

    model_config = ConfigDict(extra="allow")

    text: str = Field(min_length=1)
    memory_type: str | None = None
    status: str = "active"
    priority: str | None = None
    epistemic_status: str | None = None
    verification_required: bool = False
    allowed_action_hint: str | None = None
    recency_rank: int | None = Field(default=None, ge=0)
    retrieval_terms: list[str] = Field(default_factory=list)
    contradiction_count: int = Field(default=0, ge=0)
    governs: dict[str, Any] | None = None
    #: the packet's own memory id: only to resolve ``superseded_by``, never stored
    id: str | None = None
    #: the ``id`` of the memory that replaced this one, where the packet says
    superseded_by: str | None = None
    # answer key
    role: str | None = None
    distractor_trap: str | None = None


class Scenario(BaseModel):
    """One scenario: a query, its expected action, and its own memory store."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1, max_length=80, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
    query: str = Field(min_length=1)
    expected_action: ActionClass
    memory_store: list[Memory] = Field(min_length=1)
    over_caution_is_the_failure: bool = False
    # answer key
    expected_fired_role: str | None = None
    must_not_fire_roles: list[str] = Field(default_factory=list)


class Annotation(BaseModel):
    """A ``governs`` written for one memory of one scenario."""

    model_config = ConfigDict(extra="allow")

    scenario_id: str
    memory_index: int = Field(ge=1)
    governs: dict[str, Any]


@dataclass(frozen=True)
class Packet:
    """A checked packet: its name and scenarios (annotations already applied)."""

    name: str
    scenarios: tuple[Scenario, ...]


@dataclass(frozen=True)
class AnswerKey:
    """What the scorer needs about one scenario; never reaches the store."""

    roles: tuple[str | None, ...]
    traps: tuple[bool, ...]
    expected_role: str
    expected_action: ActionClass
    over_caution_is_the_failure: bool


def _where(scenario: str | None, loc: Sequence[Any]) -> str:
    parts = [str(p) for p in loc]
    # memory_store.3.text -> memory 4: text (1-based, as annotations count)
    if len(parts) >= 2 and parts[0] == "memory_store" and parts[1].isdigit():
        parts = [f"memory {int(parts[1]) + 1}", ".".join(parts[2:]) or "memory"]
        field = f"{parts[0]}: {parts[1]}"
    else:
        field = ".".join(parts) or "scenario"
    return f"scenario {scenario}, {field}" if scenario else field


def read_packet(path: Path, annotations: Sequence[Path] = ()) -> Packet:
    """Read and check a packet and its annotation files; nothing is stored.

    Every scenario and memory is checked, and every memory mapped to a belief, before the
    packet is returned, so a malformed file fails before anything is loaded.

    Raises:
        InvalidPacket: the file is not JSON, or a scenario, memory or annotation breaks the
            format; the message names the scenario and the field.
    """
    data = _load_json(path)
    raw = data.get("scenarios") if isinstance(data, dict) else None
    if not isinstance(raw, list) or not raw:
        raise InvalidPacket(f"{path.name}: no 'scenarios' list", field="scenarios")
    scenarios: list[Scenario] = []
    for i, item in enumerate(raw):
        sid = item.get("id") if isinstance(item, dict) else None
        label = str(sid) if sid else f"#{i + 1}"
        try:
            scenarios.append(Scenario.model_validate(item))
        except ValidationError as e:
            err = e.errors()[0]
            raise InvalidPacket(
                f"{path.name}: {_where(label, err['loc'])}: {err['msg']}",
                field=_where(label, err["loc"]),
            ) from e
    ids = [s.id for s in scenarios]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise InvalidPacket(f"{path.name}: scenario id {dup!r} is repeated", field="id")
    for file in annotations:
        scenarios = apply_annotations(scenarios, file)
    for s in scenarios:
        to_beliefs(s, run="check", namespace="project:check")  # maps or raises, stores nothing
        _check_successors(path.name, s)
    return Packet(path.name, tuple(scenarios))


def _check_successors(name: str, scenario: Scenario) -> None:
    ids = [m.id for m in scenario.memory_store]
    for i, m in enumerate(scenario.memory_store):
        if m.superseded_by is None:
            continue
        where = f"scenario {scenario.id}, memory {i + 1}: superseded_by"
        if m.superseded_by not in ids or ids.index(m.superseded_by) == i:
            raise InvalidPacket(
                f"{name}: {where}: {m.superseded_by!r} names no other memory of the store",
                field=where,
            )


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise InvalidPacket(f"{path}: cannot be read: {e.strerror}", field="path") from e
    except json.JSONDecodeError as e:
        raise InvalidPacket(f"{path.name}: not JSON (line {e.lineno}): {e.msg}") from e


def apply_annotations(scenarios: Sequence[Scenario], path: Path) -> list[Scenario]:
    """Scenarios with the ``governs`` of an annotation file set on their memories.

    An empty ``governs`` ({} or no terms) removes any scope the memory had.

    Raises:
        InvalidPacket: an annotation names an unknown scenario or memory, or is malformed.
    """
    data = _load_json(path)
    raw = data.get("annotations") if isinstance(data, dict) else None
    if not isinstance(raw, list):
        raise InvalidPacket(f"{path.name}: no 'annotations' list", field="annotations")
    by_id = {s.id: s for s in scenarios}
    updates: dict[str, dict[int, dict[str, Any]]] = {}
    for i, item in enumerate(raw):
        try:
            a = Annotation.model_validate(item)
        except ValidationError as e:
            err = e.errors()[0]
            where = f"annotation {i + 1}: " + ".".join(str(p) for p in err["loc"])
            raise InvalidPacket(f"{path.name}: {where}: {err['msg']}", field=where) from e
        scenario = by_id.get(a.scenario_id)
        if scenario is None:
            raise InvalidPacket(
                f"{path.name}: annotation {i + 1} names scenario {a.scenario_id!r}, "
                "which the packet does not have",
                field="scenario_id",
            )
        if a.memory_index > len(scenario.memory_store):
            raise InvalidPacket(
                f"{path.name}: scenario {a.scenario_id}, memory_index {a.memory_index}: "
                f"the store holds {len(scenario.memory_store)} memories",
                field="memory_index",
            )
        updates.setdefault(a.scenario_id, {})[a.memory_index - 1] = a.governs
    out = []
    for s in scenarios:
        changes = updates.get(s.id, {})
        store = [
            m.model_copy(update={"governs": changes[i]}) if i in changes else m
            for i, m in enumerate(s.memory_store)
        ]
        out.append(s.model_copy(update={"memory_store": store}))
    return out


def answer_key(scenario: Scenario) -> AnswerKey:
    """The scorer's view of a scenario."""
    traps = tuple(
        m.distractor_trap == "should_not_fire"
        or (m.role is not None and m.role in scenario.must_not_fire_roles)
        for m in scenario.memory_store
    )
    return AnswerKey(
        roles=tuple(m.role for m in scenario.memory_store),
        traps=traps,
        expected_role=scenario.expected_fired_role or "target",
        expected_action=scenario.expected_action,
        over_caution_is_the_failure=scenario.over_caution_is_the_failure,
    )


# -- mapping ---------------------------------------------------------------------------------


def memory_id(run: str, scenario: Scenario, index: int) -> str:
    """The stored id of memory ``index`` (0-based) of a scenario: says nothing of its role."""
    return f"{run}-{scenario.id}-m{index + 1}"


def _governs(raw: dict[str, Any] | None) -> Governs | None:
    if not raw:
        return None
    cleaned = {k: v for k, v in raw.items() if k in Governs.model_fields}
    if not (cleaned.get("any_terms") or cleaned.get("all_terms")):
        return None  # an empty scope governs nothing: the packets write {} for "no jurisdiction"
    return Governs.model_validate(cleaned)


def _kind(value: str | None) -> Kind:
    return Kind(value) if value else Kind.fact


def _priority(value: str | None) -> Priority:
    return (
        Priority(value) if value is not None and value in Priority.__members__ else Priority.normal
    )


def _epistemic(value: str | None) -> EpistemicStatus:
    if value is None:
        return EpistemicStatus.reported
    return _EPISTEMIC_SYNONYMS.get(value) or EpistemicStatus(value)


def _status(value: str) -> Status:
    if value not in _STATUSES:
        raise ValueError(f"status {value!r} is not one of {sorted(_STATUSES)}")
    # superseded is an edge, made after creation (see infer_successor)
    return Status.active if value == "superseded" else Status(value)


def to_beliefs(scenario: Scenario, *, run: str, namespace: str) -> list[BeliefCreate]:
    """The scenario's memories as beliefs in ``namespace`` (answer key left out).

    Raises:
        InvalidPacket: a memory's values cannot be mapped; names the scenario and field.
    """
    beliefs = []
    for i, m in enumerate(scenario.memory_store):
        field = "memory_type"
        try:
            kind = _kind(m.memory_type)
            field = "status"
            status = _status(m.status)
            if m.status == "superseded" and infer_successor(scenario, i) is None:
                status = Status.archived  # nothing replaced it: history, as the REST scorer
            field = "epistemic_status"
            epistemic = _epistemic(m.epistemic_status)
            field = "allowed_action_hint"
            hint = ActionClass(m.allowed_action_hint) if m.allowed_action_hint else None
            field = "retrieval_terms"
            about = [EntityRef(name=t) for t in dict.fromkeys(m.retrieval_terms) if entity_key(t)]
            field = "governs"
            governs = _governs(m.governs)
            field = "memory"
            recency = (
                RECENCY_EPOCH - timedelta(days=m.recency_rank)
                if m.recency_rank is not None
                else None
            )
            beliefs.append(
                BeliefCreate(
                    id=memory_id(run, scenario, i),
                    text=m.text,
                    kind=kind,
                    status=status,
                    epistemic_status=epistemic,
                    priority=_priority(m.priority),
                    verification_required=m.verification_required,
                    allowed_action=hint,
                    valid_from=recency,
                    about=about,
                    governs=governs,
                    namespaces=[namespace],
                )
            )
        except (ValueError, ValidationError) as e:
            message = e.errors()[0]["msg"] if isinstance(e, ValidationError) else str(e)
            raise InvalidPacket(
                f"scenario {scenario.id}, memory {i + 1}: {field}: {message}",
                field=f"{scenario.id}.memory_store[{i + 1}].{field}",
            ) from e
    return beliefs


def infer_successor(scenario: Scenario, index: int) -> int | None:
    """Which memory replaced the superseded memory ``index`` (0-based), or ``None``.

    The memory's ``superseded_by`` where the packet names one; otherwise the newest active
    memory of the same ``memory_type`` (lowest ``recency_rank``, ties to the later in the
    packet) - the rule of ``../shared/tools/rest-governance-scorer.py``, so that both
    evaluations load the same store. ``None`` when there is none: the memory is then
    stored archived (history that must not steer). Roles are never read.

    A belief supersedes at most one other (a chain is a line): where two memories name the
    same successor, the newer of them (ties: the earlier in the packet) is linked to it and
    the other is stored archived, as history, rather than guessed into the chain.
    """
    successor = _successor(scenario, index)
    if successor is None:
        return None
    never = 10**9
    rivals = [
        (never if m.recency_rank is None else m.recency_rank, i)
        for i, m in enumerate(scenario.memory_store)
        if m.status == "superseded" and _successor(scenario, i) == successor
    ]
    return successor if min(rivals)[1] == index else None


def _successor(scenario: Scenario, index: int) -> int | None:
    """The memory the packet (or the REST scorer's rule) names as ``index``'s successor."""
    old = scenario.memory_store[index]
    if old.superseded_by is not None:
        ids = [m.id for m in scenario.memory_store]
        return ids.index(old.superseded_by) if old.superseded_by in ids else None
    pool = [
        (i, m)
        for i, m in enumerate(scenario.memory_store)
        if i != index and m.status == "active" and m.memory_type == old.memory_type
    ]
    if not pool:
        return None
    never = 10**9
    return min(
        pool,
        key=lambda im: (never if im[1].recency_rank is None else im[1].recency_rank, -im[0]),
    )[0]


# -- noise variants --------------------------------------------------------------------------

#: the seven metadata-noise variants of a packet (the source's findings name them)
NOISE_VARIANTS = (
    "clean",
    "missing_target_type",
    "wrong_target_type",
    "missing_target_priority",
    "corrupted_target_authority",
    "broad_block_policy",
    "competing_policy_quoting_query",
)
_AUTHORITY_TYPES = {"policy", "credential", "correction", "directive", "decision"}

#: the unrelated broad block policy: sweeping words, critical, newest - about nothing asked
BROAD_BLOCK_POLICY = (
    "Never share, send or discuss anything about the board's acquisition plans with anyone, "
    "for any reason."
)


def noise_variant(packet: Packet, variant: str, *, seed: int = 0) -> Packet:
    """A metadata-noise variant of ``packet`` (the answer key tells where the target is).

    * ``missing_target_type`` - the target's ``memory_type`` is removed;
    * ``wrong_target_type`` - it is replaced: an authority type becomes ``observation``,
      any other type becomes ``policy``;
    * ``missing_target_priority`` - its ``priority`` is removed;
    * ``corrupted_target_authority`` - every authority signal lies: type as in
      ``wrong_target_type``, priority ``low`` (authority) or ``critical`` (other),
      epistemic status ``reported`` (authority) or ``confirmed`` (other), and
      ``verification_required`` cleared; the action hint is kept (it is not an authority
      signal);
    * ``broad_block_policy`` - an unrelated, sweeping, critical block policy is added, newest;
    * ``competing_policy_quoting_query`` - a policy that quotes the query is added, newest,
      with an unverified epistemic status and the action that would be wrong (``answer``
      where the expected action is protective, ``block`` where it is ``answer``).

    Added memories get the role ``distractor_noise`` and ``distractor_trap`` ``should_not_fire``.

    Raises:
        InvalidPacket: unknown variant.
    """
    if variant not in NOISE_VARIANTS:
        raise InvalidPacket(
            f"unknown noise variant {variant!r}; one of {', '.join(NOISE_VARIANTS)}",
            field="noise",
        )
    rng = random.Random(seed)  # noqa: S311  (reproducible sampling for a benchmark, not crypto)
    scenarios = [_noisy(s, variant, rng) for s in packet.scenarios]
    return Packet(f"{packet.name}#noise={variant}", tuple(scenarios))


def _noisy(s: Scenario, variant: str, rng: random.Random) -> Scenario:
    store = list(s.memory_store)
    key = answer_key(s)
    target = next((i for i, r in enumerate(key.roles) if r == key.expected_role), None)
    if target is None or variant == "clean":
        return s
    t = store[target]
    authority = (t.memory_type or "") in _AUTHORITY_TYPES
    wrong = "observation" if authority else "policy"
    if variant == "missing_target_type":
        store[target] = t.model_copy(update={"memory_type": None})
    elif variant == "wrong_target_type":
        store[target] = t.model_copy(update={"memory_type": wrong})
    elif variant == "missing_target_priority":
        store[target] = t.model_copy(update={"priority": None})
    elif variant == "corrupted_target_authority":
        store[target] = t.model_copy(
            update={
                "memory_type": wrong,
                "priority": "low" if authority else "critical",
                "epistemic_status": "reported" if authority else "confirmed",
                "verification_required": False,
            }
        )
    elif variant == "broad_block_policy":
        store.append(
            Memory(
                text=BROAD_BLOCK_POLICY,
                memory_type="policy",
                status="active",
                priority="critical",
                epistemic_status="confirmed",
                verification_required=False,
                allowed_action_hint="block",
                recency_rank=0,
                retrieval_terms=["acquisition plans", "board", "confidential", "share", "send"],
                role="distractor_noise",
                distractor_trap="should_not_fire",
            )
        )
    elif variant == "competing_policy_quoting_query":
        lure = "block" if s.expected_action == ActionClass.answer else "answer"
        verb = "refuse it outright" if lure == "block" else "answer it directly from memory"
        store.append(
            Memory(
                text=f'When someone asks "{s.query}", {verb}.',
                memory_type="policy",
                status="active",
                priority="normal",
                epistemic_status="unverified",
                verification_required=False,
                allowed_action_hint=lure,
                recency_rank=0,
                retrieval_terms=rng.sample(
                    content_words(s.query), k=min(5, len(content_words(s.query)))
                ),
                role="distractor_noise",
                distractor_trap="should_not_fire",
            )
        )
    return s.model_copy(update={"memory_store": store})

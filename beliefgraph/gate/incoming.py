"""What the gate compares: incoming beliefs, their neighbours' views, and the effects of its
verdicts.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import numpy as np

from beliefgraph.gate.classifier import (
    BeliefView,
)
from beliefgraph.gate.vectors import (
    Copy,
    Matrix,
    Ranked,
    as_matrix,
)
from beliefgraph.models import Verdict
from beliefgraph.text import tokenize

#: statuses a gate compares with: everything that may still govern or surface
LIVE_STATUSES = ("active", "provisional", "inferred", "exploratory")
#: most beliefs sharing an entity or canonical name compared with one incoming belief
STRUCTURAL_LIMIT = 50
#: most index nodes fetched for one belief; past it, the namespace is scanned
MAX_INDEX_FETCH = 5000

#: which verdict wins when an incoming belief relates to several neighbours
PRECEDENCE = {
    Verdict.noop: 0,
    Verdict.subsumed: 1,
    Verdict.contradicts: 2,
    Verdict.subsumes: 3,
    Verdict.compatible: 4,
    Verdict.add: 5,
}
#: verdicts after which the incoming belief is stored
STORES = frozenset({Verdict.add, Verdict.compatible, Verdict.contradicts, Verdict.subsumes})


@dataclass(frozen=True)
class Incoming:
    """One belief being written: its ``belief_create`` row and what the gate compares."""

    index: int
    row: dict[str, Any]
    view: BeliefView

    @property
    def id(self) -> str:
        """The id it gets if stored."""
        return str(self.row["props"]["id"])

    @property
    def embedding(self) -> list[float]:
        """Its unit-length embedding (the row's own list: read, never changed)."""
        embedding: list[float] = self.row["embedding"]
        return embedding


@dataclass(frozen=True)
class Neighbour:
    """A live belief the incoming one is compared with."""

    view: BeliefView
    similarity: float


@dataclass
class Effects:
    """What a set of decisions changes, gathered so each kind of change is one query."""

    store: list[int] = field(default_factory=list)
    reinforce: Counter[str] = field(default_factory=Counter)
    penalise: dict[str, float] = field(default_factory=dict)
    supersede: list[dict[str, Any]] = field(default_factory=list)
    archive: list[dict[str, Any]] = field(default_factory=list)
    contest: list[dict[str, Any]] = field(default_factory=list)


def incoming_from_rows(rows: Sequence[dict[str, Any]]) -> list[Incoming]:
    """Wrap ``belief_create`` rows (see ``Store._rows``) for the gate."""
    return [Incoming(i, row, view_from_row(row)) for i, row in enumerate(rows)]


def _entity_words(key: str, name: str | None, aliases: Sequence[str] | None) -> frozenset[str]:
    """The words an entity goes by (its key, name and aliases), for comparing subjects."""
    return _words_of(key, name, tuple(aliases or ()))


@functools.lru_cache(maxsize=8192)
def _words_of(key: str, name: str | None, aliases: tuple[str, ...]) -> frozenset[str]:
    # the same few entities come back with every neighbour read (about 50 a write)
    words = set(tokenize(key.replace("_", " ")))
    for text in [name or "", *aliases]:
        words |= set(tokenize(text))
    return frozenset(words)


def view_from_row(row: dict[str, Any]) -> BeliefView:
    """The comparable view of a ``belief_create`` row."""
    props = row["props"]
    return BeliefView(
        id=str(props["id"]),
        text=str(props["text"]),
        kind=str(props["kind"]),
        trust=float(props["trust"]),
        canonical_name=props.get("canonical_name"),
        namespaces=tuple(row["namespaces"]),
        entities=_entities(row["about"]),
        user=props.get("user"),
    )


def search_row(item: Incoming) -> dict[str, Any]:
    """What the neighbour queries need of an incoming belief."""
    return {
        "i": item.index,
        "user": item.view.user,
        "embedding": item.embedding,
        "namespaces": list(item.view.namespaces),
        "about": sorted(item.view.entities),
        "canonical_name": item.view.canonical_name,
    }


def gather(found: Iterable[tuple[int, Neighbour]]) -> dict[int, list[Neighbour]]:
    """Candidates per incoming belief, each once (its best score), nearest first."""
    best: dict[int, dict[str, Neighbour]] = {}
    for i, c in found:
        seen = best.setdefault(i, {})
        if c.view.id not in seen or seen[c.view.id].similarity < c.similarity:
            seen[c.view.id] = c
    return {
        i: sorted(by_id.values(), key=lambda c: (-c.similarity, c.view.id))
        for i, by_id in best.items()
    }


Proposals = dict[int, list[tuple[str, float]]]


def with_structural(ranks: Mapping[int, Ranked], structural: Proposals) -> Proposals:
    """Per incoming belief, the (id, cosine) of every belief its copies propose."""
    out: Proposals = {i: list(zip(r.ids, r.scores, strict=True)) for i, r in ranks.items()}
    for i, pairs in structural.items():
        out.setdefault(i, []).extend(pairs)
    return out


def neighbours_of(
    proposals: Proposals, live: Mapping[str, BeliefView]
) -> list[tuple[int, Neighbour]]:
    """The proposed beliefs that are live, with the copies' cosine."""
    return [
        (i, Neighbour(live[belief], score))
        for i, pairs in proposals.items()
        for belief, score in pairs
        if belief in live
    ]


def incoming_matrix(incoming: Sequence[Incoming]) -> np.ndarray[Any, Any]:
    """The incoming embeddings as one matrix, a row each (unit length: dot = cosine)."""
    return np.asarray([item.row["embedding"] for item in incoming], dtype=np.float64)


def matrix32(incoming: Sequence[Incoming], dimensions: int = 0) -> Matrix:
    """As :func:`incoming_matrix`, in the precision of the vector copies."""
    return as_matrix([item.row["embedding"] for item in incoming], dimensions)


@dataclass(frozen=True)
class Locked:
    """What a write's lock found: its token, and the current copy of each namespace."""

    token: str
    copies: Mapping[str, Copy]


def _view(record: Any) -> BeliefView:
    """The comparable view of a stored belief, from a ``gate_candidates_*`` record."""
    return replace(held_view(record), entities=_entities(record["about"]))


def _entities(about: Sequence[Mapping[str, Any]]) -> dict[str, frozenset[str]]:
    """Entity key -> the words it goes by, from a record's ``about`` ({key, name, aliases})."""
    return {e["key"]: _entity_words(e["key"], e.get("name"), e.get("aliases")) for e in about}


#: the entities of a copy's views: none (the gate reads them, they change)
NO_ENTITIES: Mapping[str, frozenset[str]] = MappingProxyType({})


def held_view(record: Any) -> BeliefView:
    """What a copy holds of a belief, from a ``gate_namespace_vectors`` record: its view
    without entities (:class:`~beliefgraph.gate.vectors.Held`)."""
    return BeliefView(
        id=record["id"],
        text=record["text"],
        kind=record["kind"],
        trust=float(record["trust"]),
        canonical_name=record["canonical_name"],
        namespaces=tuple(sorted(record["namespaces"])),
        entities=NO_ENTITIES,
        user=record["user"],
    )


def live_views(about: Mapping[str, Any], copies: Iterable[Copy]) -> dict[str, BeliefView]:
    """The views of the live beliefs ``about`` names (id -> its entities, as Neo4j read them
    under the lock): the entities as read, the rest as the copies hold it."""
    views: dict[str, BeliefView] = {}
    for copy in copies:
        rows = copy.rows
        for belief_id, entities in about.items():
            j = rows.index.get(belief_id)
            if j is None or belief_id in views:
                continue
            held = rows.beliefs[j].view
            assert held is not None, "a copy's beliefs carry their views"
            views[belief_id] = replace(held, entities=_entities(entities))
    return views


def neighbour_from_record(record: Any) -> Neighbour:
    # Neo4j scales cosine to 0..1 as (1 + cos) / 2; the gate's thresholds are plain cosine.
    return Neighbour(_view(record), 2.0 * float(record["score"]) - 1.0)

"""Scope precision on realistic stores: does the governing belief concern the thing asked?

A realistic store file (``bench/realistic_stores.py`` writes them) holds namespaces of
ordinary beliefs about many similar things at similar places, and questions with an answer
key computed from what was stored: for each question, the beliefs about exactly the thing
asked (``about``) and the one expected to govern (``expected``), or none when nothing in the
namespace concerns that thing.

Each namespace is loaded as written - text, kind and priority, nothing else - into a fresh
namespace (``project:stores-<run>-<n>``), as an agent writing plain statements would leave
it; the answer-key fields (``thing``, ``type``, ``expected``, ``about``) never reach the
store. The questions are asked through a strategy (the planner or a baseline of
:mod:`beliefgraph.evaluation.governance`) and scored:

* **about the thing**: an *exact* question is governed by a belief in ``about``; an
  *absent* question is governed by none;
* **expected**: an exact question is governed by exactly ``expected``;
* **wrong thing**: a belief about another thing governs;
* **plain reads answered**: an exact question of a plain kind (:data:`PLAIN_READS`: a cost,
  where a thing is, when it is serviced, a preference, a plan) is answered (``answer``), not
  checked or refused: nothing in such a store forbids or guards it. Codes and change
  questions are left out; their right action is arguable.

Scope precision is the share of questions *about the thing*.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from beliefgraph.errors import InvalidPacket
from beliefgraph.evaluation.governance import Choice, check_strategies, choose, store_verbatim
from beliefgraph.models import ActionClass, BeliefCreate, Kind, Priority
from beliefgraph.planner.planner import Planner
from beliefgraph.store import Store

#: the generator's kinds of question (``asked_type``) whose due action is ``answer``
PLAIN_READS = frozenset({"cost", "where", "schedule", "preference", "plan"})


class StoredBelief(BaseModel):
    """One belief of a realistic store, as the file writes it (key fields ignored here)."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1)
    text: str = Field(min_length=1)
    kind: Kind
    priority: Priority = Priority.normal


class Question(BaseModel):
    """One question and its answer key."""

    model_config = ConfigDict(extra="allow")

    query: str = Field(min_length=1)
    expected: str | None
    about: list[str]
    kind_of_question: str
    #: what the generator asked of the thing ("cost", "where", "code", ...)
    asked_type: str | None = None


class StoreNamespace(BaseModel):
    """One namespace: its beliefs and questions."""

    name: str
    beliefs: list[StoredBelief] = Field(min_length=1)
    questions: list[Question]


@dataclass(frozen=True)
class Stores:
    """A checked realistic-store file."""

    name: str
    namespaces: tuple[StoreNamespace, ...]


def corrections(namespace: StoreNamespace) -> frozenset[tuple[str, str]]:
    """The notes of a namespace that a later note corrects, each with that note: a question
    about two notes, the one it expects being the correction."""
    return frozenset(
        (next(i for i in q.about if i != q.expected), q.expected)
        for q in namespace.questions
        if len(set(q.about)) == len(q.about) == 2 and q.expected in q.about
    )


def read_stores(path: Path) -> Stores:
    """Read and check a realistic-store file; nothing is stored.

    Raises:
        InvalidPacket: not JSON, or a namespace breaks the format (named, with the field).
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise InvalidPacket(f"{path}: cannot be read: {e.strerror}", field="path") from e
    except json.JSONDecodeError as e:
        raise InvalidPacket(f"{path.name}: not JSON (line {e.lineno}): {e.msg}") from e
    raw = data.get("namespaces") if isinstance(data, dict) else None
    if not isinstance(raw, list) or not raw:
        raise InvalidPacket(f"{path.name}: no 'namespaces' list", field="namespaces")
    spaces = []
    for i, item in enumerate(raw):
        try:
            spaces.append(StoreNamespace.model_validate(item))
        except ValidationError as e:
            err = e.errors()[0]
            where = f"namespaces[{i}]." + ".".join(str(p) for p in err["loc"])
            raise InvalidPacket(f"{path.name}: {where}: {err['msg']}", field=where) from e
    return Stores(path.name, tuple(spaces))


@dataclass(frozen=True)
class LoadedNamespace:
    """A namespace loaded under a fresh name: stored ids by the file's ids."""

    source: StoreNamespace
    namespace: str
    ids: dict[str, str]


def load_namespace(store: Store, ns: StoreNamespace, *, run: str, index: int) -> LoadedNamespace:
    """Store a namespace's beliefs (text, kind, priority) in a fresh namespace."""
    namespace = f"project:stores-{run}-n{index + 1}"
    ids = {b.id: f"{run}-n{index + 1}-{b.id}" for b in ns.beliefs}
    beliefs = [
        BeliefCreate(
            id=ids[b.id], text=b.text, kind=b.kind, priority=b.priority, namespaces=[namespace]
        )
        for b in ns.beliefs
    ]
    # Loaded verbatim, as the packets are: the gate would rightly fold or supersede some of
    # these near-identical statements about different things, and the key counts them all.
    store_verbatim(store, beliefs)
    return LoadedNamespace(ns, namespace, ids)


def score(loaded: LoadedNamespace, question: Question, choice: Choice) -> dict[str, Any]:
    """One scored row."""
    by_stored = {v: k for k, v in loaded.ids.items()}
    chosen = by_stored.get(choice.belief_id) if choice.belief_id else None
    exact = question.kind_of_question == "exact"
    on_thing = chosen in question.about if exact else chosen is None
    return {
        "namespace": loaded.source.name,
        "query": question.query,
        "kind_of_question": question.kind_of_question,
        "expected": question.expected,
        "governing": chosen,
        "about_the_thing": on_thing,
        "expected_governs": exact and chosen == question.expected,
        "wrong_thing": chosen is not None and chosen not in question.about,
        "action": choice.action.value,
        "plain_read": exact and question.asked_type in PLAIN_READS,
    }


def summarize(name: str, strategy: str, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The scope-precision metrics of one strategy, with its rows."""
    exact = [r for r in rows if r["kind_of_question"] == "exact"]
    absent = [r for r in rows if r["kind_of_question"] != "exact"]
    n = len(rows)
    return {
        "stores": name,
        "strategy": strategy,
        "questions": n,
        "scope_precision": round(sum(r["about_the_thing"] for r in rows) / n, 4) if n else None,
        "exact": len(exact),
        "exact_about_the_thing": sum(r["about_the_thing"] for r in exact),
        "exact_expected": sum(r["expected_governs"] for r in exact),
        "absent": len(absent),
        "absent_none_governs": sum(r["about_the_thing"] for r in absent),
        "wrong_thing": sum(r["wrong_thing"] for r in rows),
        "plain_reads": sum(r["plain_read"] for r in rows),
        "plain_reads_answered": sum(
            r["plain_read"] and r["action"] == ActionClass.answer.value for r in rows
        ),
        "rows": list(rows),
    }


def evaluate_stores(
    store: Store,
    stores: Stores,
    strategies: Sequence[str] = ("planner",),
    *,
    run: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """Load every namespace once and score each strategy on every question.

    Returns:
        One summary per strategy, in the order given.

    Raises:
        InvalidInput: an unknown strategy (before anything is loaded).
    """
    check_strategies(strategies)
    run = run or uuid.uuid4().hex[:8]
    planner = Planner(store.db, store.embedder)
    loaded = [load_namespace(store, ns, run=run, index=i) for i, ns in enumerate(stores.namespaces)]
    summaries = []
    for strategy in strategies:
        rows = []
        for item in loaded:
            for q in item.source.questions:
                choice = choose(store, strategy, planner, item.namespace, q.query)
                rows.append(score(item, q, choice))
            if progress:
                progress(f"{strategy}: {item.source.name}")
        summaries.append(summarize(stores.name, strategy, rows))
    return summaries


def table(summaries: Sequence[dict[str, Any]]) -> str:
    """A plain-text line per strategy."""
    lines = []
    for s in summaries:
        lines.append(
            f"{s['stores']}  [{s['strategy']}]  scope precision {s['scope_precision']:.3f}  "
            f"exact: about the thing {s['exact_about_the_thing']}/{s['exact']}, expected "
            f"{s['exact_expected']}/{s['exact']}  absent: none governs "
            f"{s['absent_none_governs']}/{s['absent']}  wrong thing {s['wrong_thing']}  "
            f"plain reads answered {s['plain_reads_answered']}/{s['plain_reads']}"
        )
    return "\n".join(lines)

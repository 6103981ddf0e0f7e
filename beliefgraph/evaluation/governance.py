"""The judgment evaluation: load each scenario into its own namespace, ask, score.

``beliefgraph eval governance PACKET`` runs here. Each scenario's memories become beliefs in
a fresh namespace of the real Neo4j (``project:eval-<run>-s<n>``) through
:meth:`Store.create`; each query is asked through a **strategy**:

* ``planner`` - :class:`beliefgraph.planner.planner.Planner`, the code ``POST /v1/query`` runs;
* ``bm25`` - Okapi BM25 (k1 1.2, b 0.75) over each belief's text and metadata words
  (kind, status, priority, epistemic status, action hint), top-1 of the beliefs that are
  not superseded or retracted;
* ``vector`` - top-1 by cosine similarity of the embeddings, same pool;
* ``authority_lane`` - BM25 restricted to active policies, credentials and corrections,
  falling back to plain BM25 when there are none.

The three baselines act on the chosen belief's hint, raised to ``verify_first`` when it
requires verification (the source's layered action). The scorer alone reads the answer
key: target selected, action correct, trap failures, and the cost of each outcome -
benign 0, overblock 1, downgrade 4, false certainty 7.
"""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from neo4j import ManagedTransaction

from beliefgraph.errors import InvalidInput
from beliefgraph.evaluation.packets import (
    NOISE_VARIANTS,
    Packet,
    Scenario,
    answer_key,
    infer_successor,
    memory_id,
    noise_variant,
    read_packet,
    to_beliefs,
)
from beliefgraph.gate.write import check_ids_free, create_rows
from beliefgraph.models import ActionClass, BeliefCreate, SupersedeRequest, WritePath
from beliefgraph.planner.models import QueryRequest
from beliefgraph.planner.planner import Planner
from beliefgraph.store import Store
from beliefgraph.text import tokenize

STRATEGIES = ("planner", "bm25", "vector", "authority_lane")
#: the source's cost of each outcome
COSTS = {"benign": 0, "overblock": 1, "downgrade": 4, "false_certainty": 7}
#: caution, least to most, as the packets list their action classes
CAUTION = {
    ActionClass.answer: 0,
    ActionClass.answer_context: 1,
    ActionClass.warn: 2,
    ActionClass.verify_first: 3,
    ActionClass.block: 4,
}
_BASELINE_AUTHORITY = frozenset({"policy", "credential", "correction"})


@dataclass(frozen=True)
class Stored:
    """A scenario belief as the baselines see it."""

    id: str
    text: str
    kind: str
    status: str
    priority: str
    epistemic_status: str
    allowed_action: str | None
    verification_required: bool
    similarity: float


@dataclass(frozen=True)
class Choice:
    """What a strategy chose: a belief (or none) and an action."""

    belief_id: str | None
    action: ActionClass


def outcome(expected: ActionClass, got: ActionClass) -> str:
    """Classify an action against the expected one: benign, overblock, downgrade or
    false_certainty.

    ``archive_only`` is its own axis: expected and not given, an answer treats history as
    current (false certainty) and anything more cautious overblocks; given and not expected,
    it overblocks an answer and downgrades anything protective.
    """
    if got == expected:
        return "benign"
    if expected == ActionClass.archive_only:
        return "false_certainty" if CAUTION[got] <= 1 else "overblock"
    if got == ActionClass.archive_only:
        return "overblock" if CAUTION[expected] <= 1 else "downgrade"
    if CAUTION[got] > CAUTION[expected]:
        return "overblock"
    if CAUTION[got] <= CAUTION[ActionClass.answer_context] and CAUTION[expected] >= 2:
        return "false_certainty"
    return "downgrade"


def layered_action(b: Stored) -> ActionClass:
    """The baselines' action: the hint, raised to verify_first when verification is due."""
    hint = ActionClass(b.allowed_action) if b.allowed_action else ActionClass.answer
    if b.verification_required and hint in CAUTION and CAUTION[hint] < 3:
        return ActionClass.verify_first
    return hint


def bm25_scores(query: str, docs: Sequence[str], k1: float = 1.2, b: float = 0.75) -> list[float]:
    """Okapi BM25 of ``query`` against each document (the shared tokenizer on both)."""
    bags = [tokenize(d) for d in docs]
    n = len(bags)
    avg = sum(map(len, bags)) / n if n else 0.0
    terms = set(tokenize(query))
    df = {t: sum(1 for bag in bags if t in bag) for t in terms}
    scores = []
    for bag in bags:
        score = 0.0
        for t in terms:
            tf = bag.count(t)
            if tf:
                idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                score += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(bag) / avg))
        scores.append(score)
    return scores


def _document(b: Stored) -> str:
    meta = [b.kind, b.status, b.priority, b.epistemic_status, b.allowed_action or ""]
    return " ".join([b.text, *meta])


def _top(pool: Sequence[Stored], scores: Sequence[float]) -> Stored | None:
    # Highest score; ties to the belief listed first (ids sort by memory index).
    best = None
    for b, s in zip(pool, scores, strict=True):
        if best is None or s > best[1]:
            best = (b, s)
    return best[0] if best else None


def baseline(strategy: str, query: str, beliefs: Sequence[Stored]) -> Choice:
    """Run a baseline strategy over a scenario's beliefs."""
    pool = [b for b in beliefs if b.status not in ("superseded", "retracted")]
    if strategy == "authority_lane":
        lane = [b for b in pool if b.kind in _BASELINE_AUTHORITY and b.status == "active"]
        pool = lane or pool
    if strategy == "vector":
        chosen = _top(pool, [b.similarity for b in pool])
    else:
        chosen = _top(pool, bm25_scores(query, [_document(b) for b in pool]))
    if chosen is None:
        return Choice(None, ActionClass.answer_context)
    return Choice(chosen.id, layered_action(chosen))


# -- running ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Loaded:
    """A scenario loaded into its namespace."""

    scenario: Scenario
    namespace: str
    ids: tuple[str, ...]


def store_verbatim(store: Store, beliefs: Sequence[BeliefCreate]) -> None:
    """Write evaluation beliefs as given, in one transaction, around the curation gate."""
    rows = store.prepare(beliefs, write_path=WritePath.import_, actor="eval")

    def work(tx: ManagedTransaction) -> None:
        check_ids_free(store.db, tx, [row["props"]["id"] for row in rows])
        create_rows(store.db, tx, rows)

    store.db.write(work)


def check_strategies(strategies: Sequence[str]) -> None:
    """Refuse an unknown strategy, before anything is loaded.

    Raises:
        InvalidInput: names the first unknown strategy.
    """
    unknown = [s for s in strategies if s not in STRATEGIES]
    if unknown:
        raise InvalidInput(
            f"unknown strategy {unknown[0]!r}; one of {', '.join(STRATEGIES)}", field="strategy"
        )


def load_scenario(store: Store, scenario: Scenario, *, run: str, index: int) -> Loaded:
    """Store a scenario's memories in a fresh namespace; superseded ones get their edge.

    Returns:
        Where it was loaded and the ids of its memories, in order.
    """
    namespace = f"project:eval-{run}-s{index + 1}"
    beliefs = to_beliefs(scenario, run=run, namespace=namespace)
    # A packet is a store state to replay verbatim, so it bypasses the curation gate: the
    # gate would (rightly, for live writes) merge or supersede memories the scenario needs
    # side by side, e.g. the paid and the unpaid Riverside invoice.
    store_verbatim(store, beliefs)
    for i, memory in enumerate(scenario.memory_store):
        if memory.status != "superseded":
            continue
        successor = infer_successor(scenario, i)
        if successor is None:
            continue  # nothing current of its kind replaced it: stored archived
        store.supersede(
            memory_id(run, scenario, i),
            SupersedeRequest(
                by_id=memory_id(run, scenario, successor),
                reason="marked superseded in the packet; successor as the packet names it, else "
                "the newest active memory of its kind",
            ),
            actor="eval",
        )
    return Loaded(scenario, namespace, tuple(b.id or "" for b in beliefs))


def stored_beliefs(store: Store, namespace: str, embedding: list[float]) -> list[Stored]:
    """A namespace's beliefs with their similarity to ``embedding``, for the baselines."""
    # The baselines read a projection of beliefs, not whole nodes; it becomes a model here.
    return [
        Stored(
            id=r["id"],
            text=r["text"],
            kind=r["kind"],
            status=r["status"],
            priority=r["priority"],
            epistemic_status=r["epistemic_status"],
            allowed_action=r["allowed_action"],
            verification_required=bool(r["verification_required"]),
            similarity=float(r["similarity"]),
        )
        for r in store.db.run_read(
            "eval_namespace_beliefs", namespace=namespace, embedding=embedding
        )
    ]


def choose(store: Store, strategy: str, planner: Planner, namespace: str, query: str) -> Choice:
    """Ask ``query`` of one namespace through one strategy."""
    if strategy == "planner":
        result = planner.query(QueryRequest(query=query, namespaces=[namespace]))
        return Choice(result.governing.id if result.governing else None, result.action)
    [embedding] = store.embedder.embed([query])
    return baseline(strategy, query, stored_beliefs(store, namespace, embedding))


def ask(store: Store, strategy: str, loaded: Loaded, planner: Planner) -> Choice:
    """Ask a loaded scenario's query through one strategy."""
    return choose(store, strategy, planner, loaded.namespace, loaded.scenario.query)


def score(loaded: Loaded, choice: Choice) -> dict[str, Any]:
    """One scored row: what was chosen, whether it was right, what it cost."""
    key = answer_key(loaded.scenario)
    index = loaded.ids.index(choice.belief_id) if choice.belief_id in loaded.ids else None
    role = key.roles[index] if index is not None else None
    kind = outcome(key.expected_action, choice.action)
    return {
        "scenario": loaded.scenario.id,
        "namespace": loaded.namespace,
        "expected_action": key.expected_action.value,
        "action": choice.action.value,
        "selected": choice.belief_id,
        "selected_memory_index": None if index is None else index + 1,
        "selected_role": role,
        "target_selected": role == key.expected_role,
        "action_correct": choice.action == key.expected_action,
        "trap": index is not None and key.traps[index],
        "outcome": kind,
        "dangerous_overcaution": kind == "overblock" and key.over_caution_is_the_failure,
        "loss": COSTS[kind],
    }


def summarize(packet: str, strategy: str, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The metrics of one packet under one strategy, with its rows."""
    return {
        "packet": packet,
        "strategy": strategy,
        "scenarios": len(rows),
        "target_selected": sum(r["target_selected"] for r in rows),
        "action_correct": sum(r["action_correct"] for r in rows),
        "trap_failures": sum(r["trap"] for r in rows),
        "false_certainty": sum(r["outcome"] == "false_certainty" for r in rows),
        "downgrade_miss": sum(r["outcome"] == "downgrade" for r in rows),
        "overblocking": sum(r["outcome"] == "overblock" for r in rows),
        "dangerous_overcaution": sum(r["dangerous_overcaution"] for r in rows),
        "weighted_loss": sum(r["loss"] for r in rows),
        "rows": list(rows),
    }


def evaluate(
    store: Store,
    packet: Packet,
    strategies: Sequence[str] = ("planner",),
    *,
    run: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """Load every scenario of ``packet`` once and score each strategy on it.

    Returns:
        One summary per strategy, in the order given.

    Raises:
        InvalidInput: an unknown strategy (before anything is loaded).
    """
    check_strategies(strategies)
    run = run or uuid.uuid4().hex[:8]
    planner = Planner(store.db, store.embedder)
    loaded = [
        load_scenario(store, scenario, run=run, index=i)
        for i, scenario in enumerate(packet.scenarios)
    ]
    summaries = []
    for strategy in strategies:
        rows = []
        for item in loaded:
            rows.append(score(item, ask(store, strategy, item, planner)))
            if progress:
                progress(f"{strategy}: {item.scenario.id}")
        summaries.append(summarize(packet.name, strategy, rows))
    return summaries


@dataclass(frozen=True)
class Configuration:
    """One packet as the issue's targets name it: with annotation files, or a noise variant."""

    label: str
    packet: str
    annotations: tuple[str, ...] = ()
    noise: str | None = None


V22 = "fresh_claude_v0_4_v2_2_external_stores.json"
CLUTTER = "fresh_governs_clutter_v0_1_source.json"


def configurations() -> list[Configuration]:
    """Every configuration of the targets: v2.2 bare and with each annotation pass, clutter
    with each author's and each action-types pass, claim15, claim16, claim20, top5, the
    positive control, and the seven noise variants of v2.2."""
    configs = [Configuration("v2.2", V22)]
    configs += [
        Configuration(
            f"v2.2 + annotations v0.{i}", V22, (f"fresh_governs_annotations_v0_{i}.json",)
        )
        for i in (1, 2, 3)
    ]
    configs += [
        Configuration(f"clutter + {label}", CLUTTER, (f"fresh_governs_clutter_{name}.json",))
        for label, name in (
            ("author A", "annotations_v0_1_author_a"),
            ("author B", "annotations_v0_2_author_b"),
            ("action types v0.1", "action_types_annotations_v0_1"),
            ("action types v0.2", "action_types_annotations_v0_2"),
        )
    ]
    configs += [
        Configuration("claim15", "claim15_governance_stress_v0_1.json"),
        Configuration("claim16", "claim16_action_type_mismatch_v0_1.json"),
        Configuration("claim20", "claim20_execution_gate_v0_1.json"),
        Configuration("top5", "fresh_claude_v0_4_v2_top5.json"),
        Configuration("positive control", "memory_store_positive_control.json"),
    ]
    configs += [Configuration(f"v2.2 noise: {v}", V22, noise=v) for v in NOISE_VARIANTS]
    return configs


def read_configuration(directory: Path, config: Configuration) -> Packet:
    """The packet of a configuration, read from the governance data directory.

    Raises:
        InvalidPacket: a file is missing or malformed.
    """
    packet = read_packet(directory / config.packet, [directory / a for a in config.annotations])
    return noise_variant(packet, config.noise) if config.noise else packet


def table(summaries: Sequence[dict[str, Any]]) -> str:
    """A plain-text table of summaries and their rows."""
    lines = []
    for s in summaries:
        n = s["scenarios"]
        lines.append(
            f"{s['packet']}  [{s['strategy']}]  target {s['target_selected']}/{n}  "
            f"action {s['action_correct']}/{n}  traps {s['trap_failures']}  "
            f"false-certainty {s['false_certainty']}  downgrade {s['downgrade_miss']}  "
            f"overblock {s['overblocking']} (dangerous {s['dangerous_overcaution']})  "
            f"loss {s['weighted_loss']}"
        )
        for r in s["rows"]:
            mark = "ok " if r["target_selected"] and r["action_correct"] else "MISS"
            lines.append(
                f"  {mark} {r['scenario']:<44} {r['action']:<14} (expected "
                f"{r['expected_action']}) memory {r['selected_memory_index']} "
                f"{r['outcome']}"
            )
    return "\n".join(lines)


def write_json(path: Path, summary: dict[str, Any] | list[dict[str, Any]]) -> None:
    """Write a summary (or several) as JSON."""
    path.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")

"""The curation gate: every write is compared with what is already held (DESIGN §5).

For each incoming belief the gate finds its nearest *live* neighbours in its own namespaces
(live: active, provisional, inferred, exploratory), plus every live belief that shares an
entity or the canonical name with it, and decides one :class:`~beliefgraph.models.Verdict`:

=============  ==============================================================================
``add``        nothing close: stored as it is
``noop``       near-identical: not stored; the existing belief is reinforced
               (``reinforcement_count``, ``last_reinforced_at``)
``compatible`` stored; the older belief's importance takes a small redundancy penalty
``contradicts`` stored; it supersedes the older one (``SUPERSEDES`` edge with the reason,
               old status ``superseded``, its importance decays)
``subsumes``   stored; the older one, which it fully covers, is archived
``subsumed``   not stored; the older one already says it, and is reinforced
=============  ==============================================================================

**Hard rules and guards**, whatever the classifier says:

- Beliefs about different entities (both have ``about``, none shared), with different
  canonical names, or of different users, are never merged or replaced: ``add``.
- **Trust guard**: a belief whose trust is below ``gate_trust_ratio`` (0.8) x the existing
  belief's trust cannot supersede it. It is stored, marked ``contested`` and linked
  ``CONTRADICTS`` to the belief it disputes, which keeps governing. The same happens when an
  agent key's belief contradicts an authority belief (policy, credential, correction,
  decision), and when the existing belief also lives in namespaces the writer's belief does
  not (a write never changes what another namespace relies on). ``subsumes`` under the same
  guards becomes ``compatible``.
- A near-identical belief with *more* trust than the existing one replaces it
  (``subsumes``) instead of being dropped, so a user's confirmation is not lost to an
  agent's earlier guess.
- A belief that supersedes or subsumes a pinned one by the same ``author`` is pinned too
  (``gate_supersede``, ``gate_archive``): a correction of what someone asked to remember
  stays in view.

**Finding neighbours.** 5.26's vector index cannot filter by namespace, and the shared store
may hold millions of beliefs of other namespaces: a global top-k can miss a small namespace
entirely. So the gate keeps an in-memory copy of each namespace's vectors
(:mod:`beliefgraph.gate.vectors`, which says when a copy may be trusted) with what each belief
is about, ranks the nearest exactly down to the belief's floor (when the default classifier
decides, the cosine below which it can only say ``add``:
:meth:`~beliefgraph.gate.classifier.DefaultClassifier.floor_for`), picks the beliefs sharing an
entity or canonical name, and has Neo4j read only those (and say which are live). An ``add``
names its nearest neighbour only at or above that floor. A namespace too large for the copy is
searched in Cypher: up to ``gate_exact_scan_limit`` beliefs by an exact scan
(``vector.similarity.cosine``; reading each stored vector is what costs), larger ones through
the index: ``k x gate_index_overfetch`` nodes, then five times as many while fewer than ``k``
of them are in the namespace (once ``k`` are, they are its true nearest), and past
:data:`MAX_INDEX_FETCH` a scan after all. Beliefs sharing an entity or canonical name are
compared whatever their rank (the most recent :data:`STRUCTURAL_LIMIT`; from the copy, only
those the default classifier could judge anything but ``add``, when it decides). Only the
writer's ``user``'s beliefs are candidates (shared ones for a shared belief).
``bench/write_latency.py`` measures all of it.

**Consistency.** Decisions are made inside the write transaction after locking the
belief's namespaces (sorted, so lock order is fixed), so two writers in one namespace
decide one after the other and the second sees the first's result: two concurrent
contradictions of one belief make a chain, never a fork. The LLM classifier is never
called while locks are held: its verdicts are fetched first, and a pair it did not see (a
neighbour that appeared meanwhile) is decided by the default classifier.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from neo4j import ManagedTransaction

from beliefgraph.access import (
    Caller,
    Role,
    agent_may_change,
)
from beliefgraph.gate.classifier import (
    BeliefView,
    Judgement,
    Pair,
    different_subjects,
)
from beliefgraph.gate.incoming import (
    PRECEDENCE,
    STORES,
    Effects,
    Incoming,
    Neighbour,
    incoming_matrix,
)
from beliefgraph.gate.neighbours import Neighbours
from beliefgraph.models import GateDecision, Verdict


class Gate(Neighbours):
    """Finds neighbours (:class:`Neighbours`), decides verdicts and applies them."""

    # -- decisions ---------------------------------------------------------------------------

    def prejudge(
        self, incoming: Sequence[Incoming], found: Mapping[int, list[Neighbour]]
    ) -> dict[tuple[int, str], Judgement]:
        """Ask the configured classifier about every pair it may need, in one batch."""
        keys: list[tuple[int, str]] = []
        pairs: list[Pair] = []
        vectors = incoming_matrix(incoming)
        for item in incoming:
            for c in found.get(item.index, []):
                if different_subjects(item.view, c.view) is None:
                    keys.append((item.index, c.view.id))
                    pairs.append(Pair(item.view, c.view, c.similarity))
            for other, similarity in self._earlier(incoming, item, vectors):
                keys.append((item.index, other.id))
                pairs.append(Pair(item.view, other.view, similarity))
        return dict(zip(keys, self.classifier.judge(pairs), strict=True))

    def _earlier(
        self, incoming: Sequence[Incoming], item: Incoming, vectors: np.ndarray[Any, Any]
    ) -> list[tuple[Incoming, float]]:
        """Earlier beliefs of the same write that share a namespace, nearest first (top k).

        ``vectors`` holds every incoming embedding, one row each (built once per write).
        """
        if item.index == 0:
            return []
        sims = vectors[: item.index] @ vectors[item.index]
        k = self.settings.gate_neighbours
        ranked: list[tuple[Incoming, float]] = []
        for j in np.argsort(-sims).tolist():
            other = incoming[j]
            if set(other.view.namespaces) & set(item.view.namespaces) and (
                different_subjects(item.view, other.view) is None
            ):
                ranked.append((other, float(sims[j])))
                if len(ranked) == k:
                    break
        return ranked

    def decide(
        self,
        incoming: Sequence[Incoming],
        found: Mapping[int, list[Neighbour]],
        caller: Caller,
        prejudged: Mapping[tuple[int, str], Judgement] | None = None,
    ) -> tuple[list[GateDecision], Effects]:
        """Decide every incoming belief, in order; later ones see earlier ones' effects.

        Returns:
            One decision per incoming belief, and the effects to apply.
        """
        prejudged = prejudged or {}
        vectors = incoming_matrix(incoming)
        decisions: list[GateDecision] = []
        effects = Effects()
        gone: set[str] = set()  # superseded or archived by an earlier decision of this write
        stored: set[int] = set()
        for item in incoming:
            pool = [
                Neighbour(c.view, c.similarity)
                for c in found.get(item.index, [])
                if c.view.id not in gone
            ]
            pool += [
                Neighbour(o.view, sim)
                for o, sim in self._earlier(incoming, item, vectors)
                if o.index in stored and o.id not in gone
            ]
            decision = self._decide_one(item, pool, caller, prejudged)
            decisions.append(decision)
            target = decision.target
            if decision.verdict in STORES:
                effects.store.append(item.index)
                stored.add(item.index)
            else:
                assert target is not None  # noop and subsumed always name the kept belief
                effects.reinforce[target] += 1
            if target is None:
                continue
            if decision.contested:
                effects.contest.append(
                    {"old_id": target, "new_id": item.id, "guard": decision.guard}
                    | {"reason": decision.reason}
                )
            elif decision.verdict is Verdict.contradicts:
                effects.supersede.append(
                    {"old_id": target, "new_id": item.id, "reason": decision.reason}
                )
                gone.add(target)
            elif decision.verdict is Verdict.subsumes:
                effects.archive.append({"old_id": target, "new_id": item.id})
                gone.add(target)
            elif decision.verdict is Verdict.compatible:
                old = next(c.view for c in pool if c.view.id == target)
                if self._guard(item.view, old, caller) is None:
                    # a write that may not replace a belief may not wear it down either: an
                    # assistant's echo of a user's decision leaves the decision as it was
                    factor = effects.penalise.get(target, 1.0)
                    effects.penalise[target] = factor * (
                        1.0 - self.settings.gate_redundancy_penalty
                    )
        return decisions, effects

    def _decide_one(
        self,
        item: Incoming,
        pool: Sequence[Neighbour],
        caller: Caller,
        prejudged: Mapping[tuple[int, str], Judgement],
    ) -> GateDecision:
        judged: list[tuple[Neighbour, Judgement]] = []
        unjudged: list[Neighbour] = []
        for c in pool:
            if different_subjects(item.view, c.view) is not None:
                continue
            known = prejudged.get((item.index, c.view.id))
            if known is not None:
                judged.append((c, known))
            else:
                unjudged.append(c)
        judgements = self.default.judge([Pair(item.view, c.view, c.similarity) for c in unjudged])
        judged += zip(unjudged, judgements, strict=True)
        if not judged or all(j.verdict is Verdict.add for _, j in judged):
            # only a neighbour at or above the floor is named: below it none is read on the
            # fast path, so naming one would depend on the path
            floor = self._floor(item.view)
            nearest = max(pool, key=lambda c: c.similarity, default=None)
            reason = (
                f"nothing close enough to merge or replace (nearest {nearest.view.id}, "
                f"cosine {nearest.similarity:.2f})"
                if nearest and nearest.similarity >= floor
                else "no live belief in its namespaces to compare with"
                if floor == -math.inf
                else f"nothing close enough to merge or replace (none at cosine {floor:.2f}+)"
            )
            classifier = next((j.classifier for _, j in judged), self.default.name)
            return self._decision(item, Verdict.add, None, reason, classifier)
        best, judgement = min(
            judged, key=lambda p: (PRECEDENCE[p[1].verdict], -p[0].similarity, p[0].view.id)
        )
        return self._guarded(item, best, judgement, caller)

    def _guarded(
        self, item: Incoming, old: Neighbour, judgement: Judgement, caller: Caller
    ) -> GateDecision:
        verdict, reason = judgement.verdict, judgement.reason
        new, target = item.view, old.view
        guard = self._guard(new, target, caller)
        if verdict is Verdict.noop and new.trust > target.trust and guard is None:
            verdict = Verdict.subsumes
            reason += (
                f"; stated with more trust ({new.trust:.2f} > {target.trust:.2f}), it replaces it"
            )
        if verdict is Verdict.contradicts and guard is not None:
            return self._decision(
                item,
                verdict,
                old,
                f"{reason}; contested, not superseded: {guard[1]}",
                judgement.classifier,
                guard=guard[0],
            )
        if verdict is Verdict.subsumes and guard is not None:
            verdict = Verdict.compatible
            reason += f"; kept both: {guard[1]}"
        elif verdict is Verdict.compatible and guard is not None:
            reason += f"; no redundancy penalty: {guard[1]}"
        return self._decision(item, verdict, old, reason, judgement.classifier)

    def _guard(self, new: BeliefView, old: BeliefView, caller: Caller) -> tuple[str, str] | None:
        """Why ``new`` may not replace ``old`` (guard name, explanation), or ``None``."""
        outside = sorted(set(old.namespaces) - set(new.namespaces))
        if outside:
            # counted, not named: the reason goes to the writer, onto a CONTRADICTS edge and
            # into the audit, and whoever reads it there may not see those namespaces
            many = "s" if len(outside) > 1 else ""
            return (
                "namespace",
                f"{old.id} also lives in {len(outside)} namespace{many} this write is not in",
            )
        if caller.role is Role.agent and not agent_may_change(old.kind, old.trust):
            return "role", f"an agent key cannot replace a {old.kind} trusted at {old.trust:.2f}"
        ratio = self.settings.gate_trust_ratio
        if trust_too_low(new.trust, old.trust, ratio):
            return (
                "trust",
                f"trust {new.trust:.2f} is below {ratio:g} x {old.id}'s {old.trust:.2f}",
            )
        return None

    @staticmethod
    def _decision(
        item: Incoming,
        verdict: Verdict,
        target: Neighbour | None,
        reason: str,
        classifier: str,
        *,
        guard: str | None = None,
    ) -> GateDecision:
        kept = verdict in (Verdict.noop, Verdict.subsumed)
        return GateDecision(
            index=item.index,
            verdict=verdict,
            belief_id=target.view.id if kept and target else item.id,
            target=target.view.id if target else None,
            similarity=round(target.similarity, 4) if target else None,
            reason=reason,
            classifier=classifier,
            contested=guard is not None,
            guard=guard,
        )

    # -- effects -----------------------------------------------------------------------------

    def apply(
        self, tx: ManagedTransaction, effects: Effects, *, actor: str | None, now: Any
    ) -> None:
        """Apply the effects of :meth:`decide` in ``tx`` (the new beliefs already created)."""
        s = self.db
        if effects.reinforce:
            rows = [{"id": i, "times": n} for i, n in sorted(effects.reinforce.items())]
            s.tx_run(tx, "gate_reinforce", rows=rows, now=now)
        if effects.penalise:
            rows = [{"id": i, "factor": f} for i, f in sorted(effects.penalise.items())]
            s.tx_run(tx, "gate_penalise", rows=rows, now=now)
        if effects.supersede:
            rows = [r | {"by": actor} for r in effects.supersede]
            s.tx_run(
                tx,
                "gate_supersede",
                rows=rows,
                decay=self.settings.gate_supersede_decay,
                now=now,
            )
        if effects.archive:
            s.tx_run(tx, "gate_archive", rows=effects.archive, now=now)
        if effects.contest:
            rows = [r | {"by": actor} for r in effects.contest]
            s.tx_run(tx, "gate_contest", rows=rows, now=now)


def trust_too_low(new: float, old: float, ratio: float) -> bool:
    """The trust guard: whether a belief of trust ``new`` may not replace one of ``old``.

    At exactly ``ratio`` x ``old`` it may (the tolerance absorbs float rounding, so that
    0.72 against 0.8 x 0.9 is not refused).
    """
    return new + 1e-9 < ratio * old

"""The last word on who governs: a linear ranker learned from labelled scenarios.

The rules of :mod:`beliefgraph.planner.precedence` read each candidate (its lane, scope,
what it is about, what its text says, its label) and pick a winner by a fixed precedence.
Each of those readings is right more often than not, and none is right always; a fixed order
of them, tuned by hand on one set of scenarios, carried poorly to the next author's. So the
rules' readings are features here, beside the belief's own standing (status, epistemic
state, recency, similarity to the request), and one weight each says how much it counts.
The weights (``ranker.json`` beside this module) are fitted by ``bench/train_ranker.py`` on
the evaluation rounds already read and on realistic stores, as a conditional logit (a
softmax over each scenario's candidates); its leave-one-round-out report in
``bench/results/ranker.md`` is the estimate of how it carries to an author it has not seen.

The ranker decides only among candidates, and only when the rules found a winner: where no
belief governs, none does (a question about nothing stored stays unanswered by a belief).
Nor does it choose when the request asks about the past: the record asked for answers. The
rules then set the action from the belief it chose.

>>> ranker = Ranker({"sim": 1.0})
>>> ranker.weights["sim"]
1.0
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Protocol

from beliefgraph.models import ActionClass, EpistemicStatus, Kind, Priority, Status
from beliefgraph.planner.assess import Assessment, Candidate

#: where the fitted weights live (written by bench/train_ranker.py)
WEIGHTS_FILE = Path(__file__).with_name("ranker.json")

_LANES = ("authority", "evidence", "history", "none")
_ABOUT = ("same", "class", "mention", "none")
_ACTIONS: tuple[str | None, ...] = (None, *(a.value for a in ActionClass))
_KINDS = tuple(k.value for k in Kind)
_PRIORITIES = tuple(p.value for p in Priority)
_STATUSES = tuple(s.value for s in Status)
_EPISTEMIC = tuple(e.value for e in EpistemicStatus)


class Chooser(Protocol):
    """What :func:`beliefgraph.planner.precedence.decide` asks for the last word on who
    governs: :class:`Ranker`, or anything that watches the same choice."""

    def choose(
        self,
        winner: Assessment | None,
        assessed: Sequence[Assessment],
        heads: Mapping[str, Candidate],
    ) -> Assessment | None: ...


def _one_hot(prefix: str, value: str | None, values: Sequence[str | None]) -> dict[str, float]:
    return {f"{prefix}:{v}": 1.0 if value == v else 0.0 for v in values}


def eligible(a: Assessment, heads: Mapping[str, Candidate]) -> bool:
    """Whether a candidate may be ranked: everything but a belief whose explicit scope the
    request falls outside, a belief about another one of the request's thing (the east
    boiler's price is no answer for the west boiler's, however alike the two read) and a
    superseded or retracted belief, unless it has a current head to hand its place to and is
    about the request's thing."""
    c = a.candidate
    if a.about.other:
        return False
    if a.scope is not None and a.scope.explicit and not a.scope.in_scope:
        # an explicit scope is its writer's word on where the belief reaches, even where the
        # request may name a member of a class it names: the instance may be outside it
        return False
    if c.status in (Status.superseded, Status.retracted):
        # an old version stands for its chain's head only when it is about what is asked,
        # and only for a head that is current
        head = heads.get(c.id)
        return head is not None and head.status != Status.retracted and a.about.governs
    return True


def features(
    assessed: Sequence[Assessment], heads: Mapping[str, Candidate], winner: Assessment | None
) -> list[dict[str, float]]:
    """Each candidate's features, in the order given; relative ones (similarity, recency)
    are measured against the other candidates of the same request."""
    top_similarity = max(a.candidate.similarity or 0.0 for a in assessed)
    top_relevance = max(a.relevance for a in assessed)
    newest_first = sorted(assessed, key=lambda a: a.candidate.recency, reverse=True)
    age = {a.candidate.id: i for i, a in enumerate(newest_first)}
    span = max(1, len(assessed) - 1)
    # whether the rules' winner is about exactly the request's thing, and how many candidates
    # there are: the fit weighs displacing such a winner by the size of the crowd
    exact = winner is not None and winner.about.level == "same" and winner.about.exact
    crowd = math.log(len(assessed))
    rows = []
    for a in assessed:
        c, scope = a.candidate, a.scope
        sim = c.similarity or 0.0
        hint = c.allowed_action.value if c.allowed_action else None
        said = a.directive.action.value if a.directive.action else None
        row = {
            **_one_hot("lane", a.lane, _LANES),
            "excluded": float(a.outcome == "excluded"),
            **_one_hot("kind", c.kind.value, _KINDS),
            **_one_hot("priority", c.priority.value, _PRIORITIES),
            **_one_hot("status", c.status.value, _STATUSES),
            **_one_hot("epistemic", c.epistemic_status.value, _EPISTEMIC),
            "verification_required": float(c.verification_required),
            **_one_hot("hint", hint, _ACTIONS),
            "similarity": sim,
            "similarity_gap": sim - top_similarity,
            "relevance_gap": a.relevance - top_relevance,
            "most_similar": float(sim == top_similarity),
            "age": age[c.id] / span,
            "newest": float(age[c.id] == 0),
            "scope": float(scope is not None),
            "scope_explicit": float(scope is not None and scope.explicit),
            "scope_weight": scope.weight if scope is not None else 0.0,
            "strong": float(a.strong),
            "type_match": float(a.type_match),
            **_one_hot("about", a.about.level, _ABOUT),
            "about_exact": float(a.about.exact),
            "instance": float(a.instance),
            "names_qualified_thing": float(a.about.names_qualified_thing),
            "other_property": float(a.other_property),
            "asked_property": float(a.asked_property),
            "denies_asked": float(a.denies_asked),
            **_one_hot("says", said, _ACTIONS),
            "authority": float(a.authority),
            "rules_pick": float(winner is not None and winner.candidate.id == c.id),
            "has_head": float(c.id in heads),
            "says_as_hint": float(said is not None and said == hint),
            "displaces_exact": float(exact and winner is not a),
            "displaces_exact_in_crowd": float(exact and winner is not a) * crowd,
            "about_none_in_crowd": float(a.about.level == "none") * crowd,
        }
        rows.append(row)
    return rows


@dataclass(frozen=True)
class Ranker:
    """A weight per feature; a feature it has no weight for counts nothing."""

    weights: Mapping[str, float]

    def score(self, row: Mapping[str, float]) -> float:
        return sum(self.weights.get(name, 0.0) * value for name, value in row.items())

    def choose(
        self,
        winner: Assessment | None,
        assessed: Sequence[Assessment],
        heads: Mapping[str, Candidate],
    ) -> Assessment | None:
        """The candidate that governs: the best scored of those eligible, when the rules
        found a winner at all; ties go to the rules' winner, then the smallest id.

        A winner whose explicit scope holds the request and its acts (its writer said it
        reaches there) gives way only to a belief with authority, by its kind or by what its
        text says: an exception, a correction, a later decision, the archived arrangement a
        request leans on. Never to a plain note that reads closer to the request: a stock
        note does not displace the rule on quarantined parts. Standing is left to the
        weights (a floated or archived belief scores what its state earns).
        """
        if winner is None:
            return None
        scored = [
            (self.score(row), a.candidate.id == winner.candidate.id, a)
            for a, row in zip(assessed, features(assessed, heads, winner), strict=True)
            if eligible(a, heads)
        ]
        if not scored:
            return winner
        scored.sort(key=lambda t: t[2].candidate.id)
        scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
        best = scored[0][2]
        if explicit_scope_holds(winner) and not best.authority:
            return winner
        return best


def explicit_scope_holds(a: Assessment) -> bool:
    """Whether ``a`` has an explicit scope that holds the request's terms and its acts."""
    scope = a.scope
    return scope is not None and scope.explicit and scope.in_scope and a.type_match


def load_ranker(path: Path = WEIGHTS_FILE) -> Ranker:
    """The ranker whose weights ``path`` holds (``{"weights": {feature: weight}}``)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return Ranker({str(k): float(v) for k, v in data["weights"].items()})


@cache
def default_ranker() -> Ranker:
    """The fitted ranker, read once."""
    return load_ranker()

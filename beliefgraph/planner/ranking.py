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

A weight per reading cannot say that one reading counts only beside another (a plain note's
closeness matters where no rule is about the thing, not where one is). So a second ranker,
:class:`Trees`, scores the same features with a boosted ensemble of small decision trees,
fitted by the same script on the same labels (``ranker_trees.json``). Neither is right
always, and they err on different scenarios: the two sit as a :class:`Panel`, the trees
first, and each choice is carried through to its action. The first's choice stands, unless
it would let the agent answer outright and the other's would have it do less: the second
ranker is a guard against a false certainty, not a vote for every caution (left out one
round at a time, the trees alone made more right answers than the panel that took the more
protective of any two choices, and a few more false certainties: the reports in the history
of ``bench/results/ranker.md``).

The ranker decides only among candidates, and only when the rules found a winner: where no
belief governs, none does (a question about nothing stored stays unanswered by a belief).
Nor does it choose when the request asks about the past: the record asked for answers. The
rules then set the action from the belief it chose, and the action model
(:mod:`beliefgraph.planner.actions`) has the last word on it.

>>> ranker = Ranker({"sim": 1.0})
>>> ranker.weights["sim"]
1.0
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

import numpy as np

from beliefgraph.language.directives import undecided
from beliefgraph.language.stakes import someone_elses_act
from beliefgraph.models import ActionClass, EpistemicStatus, Kind, Priority, Status
from beliefgraph.planner.assess import Assessment, Candidate, Decision, more_protective

#: where the fitted weights live (written by bench/train_ranker.py)
WEIGHTS_FILE = Path(__file__).with_name("ranker.json")
#: where the fitted trees live (written by bench/train_ranker.py)
TREES_FILE = Path(__file__).with_name("ranker_trees.json")

_LANES = ("authority", "evidence", "history", "none")
_ABOUT = ("same", "class", "mention", "none")
_ACTIONS: tuple[str | None, ...] = (None, *(a.value for a in ActionClass))
_KINDS = tuple(k.value for k in Kind)
_PRIORITIES = tuple(p.value for p in Priority)
_STATUSES = tuple(s.value for s in Status)
_EPISTEMIC = tuple(e.value for e in EpistemicStatus)
#: the labels of a rule that asks for a check, or forbids (:func:`asks_for_a_check`)
_CHECKED = frozenset({ActionClass.verify_first, ActionClass.block})
#: actions that let the agent answer as asked, with nothing checked, warned or refused
_OUTRIGHT = frozenset({ActionClass.answer, ActionClass.answer_context})
#: what a belief held on someone's word is (:func:`on_report_only`)
_ON_REPORT = frozenset(
    {EpistemicStatus.reported, EpistemicStatus.unverified, EpistemicStatus.floated}
)


class Chooser(Protocol):
    """What :func:`beliefgraph.planner.precedence.decide` asks for the last word on who
    governs: :class:`Ranker`, or anything that watches the same choice."""

    def choose(
        self,
        winner: Assessment | None,
        assessed: Sequence[Assessment],
        heads: Mapping[str, Candidate],
        rows: Sequence[Mapping[str, float]] | None = None,
    ) -> Assessment | None: ...


@cache
def _one_hot(prefix: str, value: str | None, values: tuple[str | None, ...]) -> Mapping[str, float]:
    return MappingProxyType({f"{prefix}:{v}": 1.0 if value == v else 0.0 for v in values})


def eligible(a: Assessment, heads: Mapping[str, Candidate]) -> bool:
    """Whether a candidate may be ranked: everything but a belief whose explicit scope
    excludes the request (its writer's word that it does not reach there), a rule that
    applies only above a sum the request stays under ("payments above £10,000", asked to
    pay £3,240: in rounds 1-44 such a rule was never the target, 37 times), a rule whose
    explicit terms require a word the request lacks, a current rule on doing what a request
    only asks the record of ("who okayed shredding the boxes?"), and a superseded or
    retracted belief, unless it has a current head to hand its place to and is about the
    request's thing.

    Two readings the rules take as final are features here, weighed with the rest (the
    evidence is in ``bench/results/ranker.md``): a rule whose explicit terms the request
    merely misses (``out_of_scope``), since a writer names a class in their terms
    ("controlled drugs") and a request may name a member of it in words of its own ("the
    spare tramadol"); and a belief read as about another one of the request's thing
    (``about_other``: the east boiler's price, asked about the west boiler's), a reading
    that is wrong where one thing is written two ways the planner does not know as one."""
    c = a.candidate
    if a.scope is not None and (a.scope.excluded_by is not None or a.scope.outside is not None):
        return False
    if a.scope is not None and a.scope.missing_all:
        # "All payments to Nordhamn Logistik are frozen", asked to pay Lindqvist: the writer
        # named what the rule needs to reach, every word of it (left out one round at a time
        # over rounds 1-56, the ranker picked such a rule 14 times, once rightly)
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
            "out_of_scope": float(scope is not None and scope.explicit and not scope.in_scope),
            "scope_weight": scope.weight if scope is not None else 0.0,
            "strong": float(a.strong),
            "type_match": float(a.type_match),
            **_one_hot("about", a.about.level, _ABOUT),
            "about_exact": float(a.about.exact),
            "about_other": float(a.about.other),
            "instance": float(a.instance),
            "names_qualified_thing": float(a.about.names_qualified_thing),
            "other_property": float(a.other_property),
            "asked_property": float(a.asked_property),
            "denies_asked": float(a.denies_asked),
            "undecided": float(undecided(c.text)),
            "someone_elses_act": float(someone_elses_act(c.text)),
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


class _Scorer:
    """The choice both rankers make from their scores (see :meth:`choose`)."""

    def scores(self, rows: Sequence[Mapping[str, float]]) -> list[float]:
        raise NotImplementedError

    def choose(
        self,
        winner: Assessment | None,
        assessed: Sequence[Assessment],
        heads: Mapping[str, Candidate],
        rows: Sequence[Mapping[str, float]] | None = None,
    ) -> Assessment | None:
        """The candidate that governs: the best scored of those eligible, when the rules
        found a winner at all; ties go to the rules' winner, then the smallest id. ``rows``
        are the candidates' :func:`features`, when the caller has them already.

        A rule that asks for a check, or forbids, does not give way to a note held
        provisionally on someone's report: "every dose is confirmed against the label"
        stands over "the dose was mentioned as 25mg"; the rules' winner stands then, not the
        ranker's next choice. Nor does any belief the trust guard left contested displace an
        uncontested winner (an agent's "The project's database is MongoDB." against the
        user's decision). Otherwise standing is left to the weights (a floated or
        archived belief scores what its state earns), and so is a rule whose explicit scope
        holds the request: its terms may meet the request on a word it only mentions ("Arvo"
        in "never tell customers our margin on Arvo products", asked whether an Arvo machine
        may still be sent back).
        """
        if winner is None:
            return None
        pairs = [
            (a, row)
            for a, row in zip(
                assessed, features(assessed, heads, winner) if rows is None else rows, strict=True
            )
            if eligible(a, heads)
        ]
        if not pairs:
            return winner
        scored = [
            (score, a.candidate.id == winner.candidate.id, a)
            for (a, _), score in zip(pairs, self.scores([row for _, row in pairs]), strict=True)
        ]
        scored.sort(key=lambda t: t[2].candidate.id)
        scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
        best = scored[0][2]
        if asks_for_a_check(winner, heads) and on_report_only(
            heads.get(best.candidate.id, best.candidate)
        ):
            return winner
        if _contested(best) and not _contested(winner):
            # the trust guard made it a contest of what governs, not its replacement
            return winner
        return best


@dataclass(frozen=True)
class Ranker(_Scorer):
    """A weight per feature; a feature it has no weight for counts nothing."""

    weights: Mapping[str, float]

    @cached_property
    def _vector(self) -> tuple[tuple[str, ...], np.ndarray[Any, Any]]:
        names = tuple(self.weights)
        return names, np.array([self.weights[name] for name in names])

    def scores(self, rows: Sequence[Mapping[str, float]]) -> list[float]:
        names, weights = self._vector
        return [float(v) for v in _matrix(rows, names, np.float64) @ weights]


class Trees(_Scorer):
    """A boosted ensemble of decision trees over the features: each tree sends a candidate
    left where its feature is at most the node's threshold, and the leaves' values are
    summed. All trees are walked at once, a level at a time, over every candidate.

    ``trees`` holds, per tree, its nodes in order: ``[feature, threshold, left, right]`` for
    a split (``feature`` indexes ``features``), ``[value]`` for a leaf.
    """

    def __init__(self, features: Sequence[str], trees: Sequence[Sequence[Sequence[float]]]):
        self.features = tuple(features)
        # every tree's nodes side by side in flat arrays, tree t's node n at t * width + n; a
        # node's two children at 2 * node (left) and 2 * node + 1 (right) of ``_children``;
        # a leaf points to itself, so a walk that reaches it stays there for the levels left
        width = max(len(tree) for tree in trees)
        size = len(trees) * width
        self._feature = np.zeros(size, dtype=np.int64)
        self._threshold = np.zeros(size)
        self._children = np.repeat(np.arange(size, dtype=np.int64), 2)
        self._value = np.zeros(size)
        for t, tree in enumerate(trees):
            for n, node in enumerate(tree):
                at = t * width + n
                if len(node) == 1:
                    self._value[at] = node[0]
                    continue
                self._feature[at] = int(node[0])
                self._threshold[at] = node[1]
                self._children[2 * at] = t * width + int(node[2])
                self._children[2 * at + 1] = t * width + int(node[3])
        self._roots = np.arange(len(trees)) * width
        self._depth = _depth(trees)

    def scores(self, rows: Sequence[Mapping[str, float]]) -> list[float]:
        # the trees were grown on single-precision features: compare as they were
        x = _matrix(rows, self.features, np.float32).astype(np.float64).ravel()
        node = np.tile(self._roots, (len(rows), 1))
        offset = (np.arange(len(rows)) * len(self.features))[:, None]
        for _ in range(self._depth):
            right = x[offset + self._feature[node]] > self._threshold[node]
            node = self._children[2 * node + right]
        return [float(v) for v in self._value[node].sum(axis=1)]


def _matrix(
    rows: Sequence[Mapping[str, float]], names: tuple[str, ...], dtype: type[np.floating[Any]]
) -> np.ndarray[Any, Any]:
    """The rows' values of ``names``, a row each; a feature a row lacks counts nothing."""
    if not names:
        return np.zeros((len(rows), 0), dtype)
    # one name gives a value, not a tuple (hence the reshape); a row without every name (rows
    # the planner computes have them all) sends every row the slow way
    pick = operator.itemgetter(*names)
    try:
        values = [pick(row) for row in rows]
    except KeyError:
        values = [tuple(row.get(name, 0.0) for name in names) for row in rows]
    return np.array(values, dtype).reshape(len(rows), len(names))


def _depth(trees: Sequence[Sequence[Sequence[float]]]) -> int:
    """The most splits on any path from a root to a leaf."""
    deepest = 0
    for tree in trees:
        levels = {0: 0}
        for n, node in enumerate(tree):
            if len(node) > 1:
                for child in (int(node[2]), int(node[3])):
                    levels[child] = levels[n] + 1
        deepest = max(deepest, *levels.values())
    return deepest


@dataclass(frozen=True)
class Panel:
    """Rankers that each choose who governs; the planner carries each choice through to its
    action and takes the first member's, unless it would answer outright where another's
    would have the agent do less."""

    members: tuple[Chooser, ...]

    @staticmethod
    def verdict(decisions: Sequence[Decision]) -> Decision:
        """Of the decisions the members' choices led to, the first, unless it answers outright
        (``answer``, ``answer_context``) and a later one lets the agent do less: then the most
        protective of those (the earliest on a tie). The trace says what the others would
        have had govern, and why the one taken stands.

        A later member guards against a false certainty only: a first choice that already
        checks, warns or refuses stands, even where another would refuse (taking the more
        protective of any two, the panel took a sibling thing's refusal over the check or
        the permission the thing asked about governs by). History, ``archive_only``, is on
        no such scale: a first choice of history stands, and a later one is never taken.
        """
        first = best = decisions[0]
        if first.action in _OUTRIGHT:
            for other in decisions[1:]:
                if _does_less(other, best):
                    best = other
        others = [d for d in decisions if d.governing != best.governing]
        if not others:
            return best
        step = "; ".join(
            f"another ranker would have {d.governing} govern ({d.action.value})" for d in others
        )
        if best is not first:
            step += ": the more protective choice stands"
        elif first.action not in _OUTRIGHT and any(_does_less(d, first) for d in others):
            step += (
                f": the first choice ({first.action.value}) does not answer outright, and stands"
            )
        else:
            step += ": the first choice stands"
        return replace(best, steps=(*best.steps, step))


def _does_less(other: Decision, than: Decision) -> bool:
    """Whether ``other`` lets the agent do less than ``than`` (history is on no such scale)."""
    if ActionClass.archive_only in (other.action, than.action) or other.action == than.action:
        return False
    return more_protective(other.action, than.action) == other.action


def last_words(
    ranker: Chooser | Panel | None,
    winner: Assessment | None,
    past: Assessment | None,
    assessed: Mapping[str, Assessment],
    heads: Mapping[str, Candidate],
    losers: Mapping[str, str],
) -> list[Assessment | None]:
    """Each ranker's last word on the rules' ``winner``, a choice two of them make listed once
    (the winner alone where no ranker is asked: none given, nothing won, the past asked
    about, or a note that answers by meaning alone, a choice no ranker was fitted on). The
    candidates' features are computed once for every ranker."""
    if winner is None or past is not None or ranker is None or winner.by_meaning:
        return [winner]
    members = ranker.members if isinstance(ranker, Panel) else (ranker,)
    # what an OVERRIDES or NARROWS edge put below another is a curator's word: not ranked;
    # nor is the record a question about the past asked for
    ranked = [a for a in assessed.values() if a.candidate.id not in losers]
    rows = features(ranked, heads, winner)
    if winner.about.part_of:
        # the rules found only a note on what the thing has (the boat hire, asked about the
        # boat): nothing further from the thing may displace it (the features stay measured
        # among all, as they are fitted)
        kept = [i for i, a in enumerate(ranked) if a.about.level != "none"]
        ranked, rows = [ranked[i] for i in kept], [rows[i] for i in kept]
    found: dict[str, Assessment] = {}
    for member in members:
        chosen = member.choose(winner, ranked, heads, rows) or winner
        found.setdefault(chosen.candidate.id, chosen)
    return list(found.values())


def asks_for_a_check(a: Assessment, heads: Mapping[str, Candidate]) -> bool:
    """Whether ``a`` is a rule in reach, about the thing asked, whose governor (the head of
    its chain, or itself) asks for a check before that thing is used, or forbids it: it
    requires verification, or its writer's label says ``verify_first`` or ``block``."""
    gov = heads.get(a.candidate.id, a.candidate)
    return (
        a.lane == "authority"
        and a.about.governs
        and (gov.verification_required or gov.allowed_action in _CHECKED)
    )


def on_report_only(c: Candidate) -> bool:
    """Whether ``c`` is held provisionally, on someone's report: its status is
    ``provisional`` and it is reported, unverified or floated, not confirmed."""
    return c.status == Status.provisional and c.epistemic_status in _ON_REPORT


def _contested(a: Assessment) -> bool:
    """Whether a belief stands contested: a claim the gate's trust guard kept from
    replacing another (a low-trust agent's, or one from another namespace)."""
    return a.candidate.epistemic_status is EpistemicStatus.contested


def load_ranker(path: Path = WEIGHTS_FILE) -> Ranker:
    """The ranker whose weights ``path`` holds (``{"weights": {feature: weight}}``)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return Ranker({str(k): float(v) for k, v in data["weights"].items()})


def load_trees(path: Path = TREES_FILE) -> Trees:
    """The tree ensemble ``path`` holds (``{"features": [...], "trees": [...]}``)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return Trees([str(f) for f in data["features"]], data["trees"])


@cache
def default_ranker() -> Panel:
    """The fitted rankers, read once: the trees first, then the linear weights."""
    return Panel((load_trees(), load_ranker()))

"""The last word on what the agent may do: a model of the action, learned from labelled scenarios.

The rules of :func:`~beliefgraph.planner.precedence.action_for` set the action from the
governing belief: its hint, the rule its text states, what the request puts at stake. Each
reading is right more often than not, and the order they are applied in was set by hand; a
request to move money under a plain note, or a dose read from a belief labelled ``answer``,
is decided by whichever reading was written first. Here the rules' action is one feature
among the readings that set it (the request's acts and stakes, the belief's label, kind,
standing and what its text holds) and the words of the request and of the belief; a
multinomial logistic model (``actions.json`` beside this module, fitted by
``bench/train_ranker.py`` on the evaluation rounds already read) gives each action class a
probability, and the action taken is the one whose expected loss is least, among every class
it was fitted on (``answer_context`` where a belief is only background to what is asked,
``archive_only`` where what it says has had its day).

The losses are the evaluation's (a permissive answer where a check or a block was due costs
seven, a weaker protection than due four, more caution than due one) plus two for any
action other than the one due, as the fitting script writes them: a false certainty is bought
back only at a price in overblocking, and the model checks where it cannot tell a plain read
from a hand-over. Left out one round at a time, it made fewer false certainties than the
rules' action and more right actions (``bench/results/ranker.md``).

A belief stored with a hint of the action it allows and one stored without are decided by two
models, each fitted on its kind (``actions_unhinted.json``: the same rounds, their hints
taken away, as REST writes without ``allowed_action`` and imports store them, and the plain
reads of realistic stores of ordinary notes, due ``answer``): fitted with hints, a model leans
on them, and meets a belief without one with a caution it has not learned when to spare;
fitted on the packets stripped of their hints alone, it learns that a belief without one is an
adversarial packet's, and an ordinary note is not.

It decides only where the rankers do (the rules found a belief to govern, and the request
does not ask about the past): where nothing governs, or history answers, the rules stand. Nor
does it decide for a belief that is history itself (archived, or past its ``valid_to``:
``archive_only``), or one that live beliefs contest: a contest comes from a writer the gate's
guards refused, and what it may do to the action is the rules' to say (``warn``, never more;
rule 7 of :mod:`beliefgraph.planner.precedence`), not a lever to pull through a model. Nor
does it weaken a block the rules read from a prohibition its writer made absolute ("never
share the office wifi password, whoever asks":
:func:`~beliefgraph.language.directives.forbids_outright`).

>>> model = ActionModel(("answer", "block"), {"sure": (2.0, -2.0), "unsure": (1.0, -1.0)},
...                     (0.0, 0.0), ((0.0, 1.0), (8.0, 0.0)))
>>> model.choose({"sure": 1.0})[0].value
'answer'
>>> model.choose({"unsure": 1.0})[0].value  # answer is likelier (0.88), but costs 8 if wrong
'block'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TypeGuard

import numpy as np

from beliefgraph.language.acts import CHANGING
from beliefgraph.language.directives import (
    forbids_outright,
    gives_leave,
    read_directive,
    undecided,
)
from beliefgraph.language.questions import asks_what_was_done
from beliefgraph.language.stakes import (
    at_stake,
    holds_at_stake,
    holds_safety_setting,
    kept_confidential,
    may_be_handed_on,
    safety_at_stake,
    someone_elses_act,
)
from beliefgraph.language.words import Terms, words
from beliefgraph.logit import Logit, read_logit
from beliefgraph.models import ActionClass, ActionType
from beliefgraph.planner.assess import Candidate, Decision

#: where the fitted models live (written by bench/train_ranker.py): for a belief with a hint
#: of the action it allows, and for one without
ACTIONS_FILE = Path(__file__).with_name("actions.json")
UNHINTED_ACTIONS_FILE = Path(__file__).with_name("actions_unhinted.json")


def action_features(
    request: Terms, kinds: Iterable[ActionType], decision: Decision, governor: Candidate
) -> dict[str, float]:
    """What the model reads of a decision: the rules' action, the request's acts and stakes,
    the governing belief's label, standing and what its text holds, and both texts' words."""
    found: dict[str, float] = {f"action={decision.action.value}": 1.0}
    kinds = frozenset(kinds)
    found |= {f"type={t.value}": 1.0 for t in kinds}
    found[f"request_stake={at_stake(request.text)}"] = 1.0
    safety = safety_at_stake(request.text)
    found[f"request_safety={safety[0].value if safety else None}"] = 1.0
    found["asks_what_was_done"] = float(asks_what_was_done(request.text))
    hint = governor.allowed_action.value if governor.allowed_action else None
    directive = read_directive(governor.text)
    # the directive reader finds no rule in leave given by a role's name or a check waived
    # ("Support may refund ...; no return or approval needed"): read as nothing said, the
    # model blocked the very act such a policy allows
    says = directive.action or (ActionClass.answer if gives_leave(governor.text) else None)
    found |= {
        f"hint={hint}": 1.0,
        f"kind={governor.kind.value}": 1.0,
        f"status={governor.status.value}": 1.0,
        f"epistemic={governor.epistemic_status.value}": 1.0,
        f"priority={governor.priority.value}": 1.0,
        f"says={says.value if says else None}": 1.0,
        f"holds={holds_at_stake(governor.text)}": 1.0,
        "verification_required": float(governor.verification_required),
        "states_a_rule": float(directive.is_rule),
        "undecided": float(undecided(governor.text)),
        "holds_a_safety_setting": float(holds_safety_setting(governor.text)),
        "someone_elses_act": float(someone_elses_act(governor.text)),
        "told_in_confidence": float(kept_confidential(governor.text)),
        "may_be_handed_on": float(may_be_handed_on(governor.text)),
        "explicit_scope": float(governor.governs is not None),
    }
    scoped = frozenset(governor.governs.action_types if governor.governs else ())
    found["scope_changes"] = float(bool(scoped & CHANGING))
    held = next((a for a in decision.assessments if a.candidate.id == governor.id), None)
    if held is not None:
        found[f"lane={held.lane}"] = 1.0
        found["strong_scope"] = float(held.strong)
    found |= {f"request:{w}": 1.0 for w in request.tokens}
    found |= {f"belief:{w}": 1.0 for w in words(governor.text)}
    return found


def decides_for(governor: Candidate | None) -> TypeGuard[Candidate]:
    """Whether the model has the last word on the action of what ``governor`` governs: not
    where nothing does, nor for history, nor for a contested belief."""
    return governor is not None and not governor.historical and not governor.contested_by


class ActionModel(Logit):
    """A multinomial logistic model of the action class, and the loss of each action taken
    (``costs[due][taken]``, in the order of ``classes``)."""

    def choose(self, found: Mapping[str, float]) -> tuple[ActionClass, list[float]]:
        """The action of least expected loss, and each class's probability."""
        at, p = self.least_cost(found)
        return ActionClass(self.classes[at]), p

    def settle(
        self,
        request: Terms,
        kinds: Iterable[ActionType],
        decision: Decision,
        by_id: Mapping[str, Candidate],
    ) -> Decision:
        """``decision`` with the model's action, the trace saying so where it changed."""
        governor = by_id.get(decision.governing or "")
        if not decides_for(governor):
            return decision
        if decision.action == ActionClass.block and forbids_outright(governor.text):
            return decision  # its writer made the prohibition absolute: no reading weakens it
        action, p = self.choose(action_features(request, kinds, decision, governor))
        if action == decision.action:
            return decision
        likely = self.classes[int(np.argmax(p))]
        step = (
            f"the action model reads {decision.action.value} as {action.value} (most likely "
            f"{likely}, {max(p):.2f}; least expected loss)"
        )
        reason = f"{decision.reason}; the action model: {action.value}"
        return replace(decision, action=action, reason=reason, steps=(*decision.steps, step))


@dataclass(frozen=True)
class ActionModels:
    """The model for a governing belief that carries a hint of the action it allows, and the
    one for a belief that carries none."""

    hinted: ActionModel
    unhinted: ActionModel

    def settle(
        self,
        request: Terms,
        kinds: Iterable[ActionType],
        decision: Decision,
        by_id: Mapping[str, Candidate],
    ) -> Decision:
        """``decision`` with the action of the model fitted on beliefs like its governor."""
        governor = by_id.get(decision.governing or "")
        hinted = governor is None or governor.allowed_action is not None
        model = self.hinted if hinted else self.unhinted
        return model.settle(request, kinds, decision, by_id)


#: what may have the last word on the action: one model for every belief, or one for each kind
Actions = ActionModel | ActionModels


def load_actions(path: Path = ACTIONS_FILE) -> ActionModel:
    """The model ``path`` holds (``{"classes", "weights", "intercept", "losses"}``).

    Raises:
        ValueError: a width does not match the classes, a class is no action class, or a
            loss is not a finite number.
    """
    model = read_logit(path, ActionModel, cost="loss", costs="losses")
    for c in model.classes:
        ActionClass(c)
    return model


@cache
def default_actions() -> ActionModels:
    """The fitted action models, read once."""
    return ActionModels(load_actions(), load_actions(UNHINTED_ACTIONS_FILE))

"""What holds an act back beyond the rule that governs it: the memory that holds what a
request would hand over, an unconfirmed doubt about exactly this act, the closest rule
when no rule's words reach a request to act, and, when nothing governs, a dose or a safety
setting held by the belief closest in meaning."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import NamedTuple

from beliefgraph.language.acts import CHANGING
from beliefgraph.language.changes import announces_change
from beliefgraph.language.names import names_one_named, whose
from beliefgraph.language.stakes import (
    asks_the_set_dose,
    at_stake,
    checked_at_source,
    holds_a_dose,
    holds_at_stake,
    holds_safety_setting,
    safety_at_stake,
)
from beliefgraph.language.words import Terms
from beliefgraph.models import (
    ActionClass,
    ActionType,
    EpistemicStatus,
    Status,
)
from beliefgraph.planner.assess import (
    Assessment,
    Candidate,
    Decision,
    about_rank,
    more_protective,
    states_a_rule,
    without_standing,
)

#: what a rule says when it holds acts back: refuses them, or asks for a check first
_CAUTIOUS = frozenset({ActionClass.block, ActionClass.verify_first})


def closest_rule(
    assessed: Iterable[Assessment], action_types: frozenset[ActionType]
) -> Assessment | None:
    """The rule that holds back a request to act that no rule's words reach: of the beliefs
    that refuse or check acts, the closest to the request in meaning, if it stands (current,
    confirmed) and was set aside only because the request names none of its terms ("pop
    the Mastercard digits into the case comments" beside "card numbers and security codes
    are never written into free text"). Words decide jurisdiction; when they reach nothing,
    the closest caution still asks for a check before acting, where a plain note would have
    answered outright. ``None`` for a read, or when the closest such rule does not stand."""
    if not action_types & CHANGING:
        return None
    cautious = [
        a
        for a in assessed
        if a.candidate.similarity is not None
        and (a.directive.action in _CAUTIOUS or a.candidate.allowed_action in _CAUTIOUS)
    ]
    if not cautious:
        return None
    closest = max(cautious, key=lambda a: (a.candidate.similarity, a.candidate.id))
    c, scope = closest.candidate, closest.scope
    # whatever acts it names: a check before an act the closest caution may not cover costs
    # less than a bare answer (requiring its acts to match let 3 more false certainties
    # through on the read rounds, for 2 more right)
    missed = (
        scope is not None
        and not scope.in_scope
        and scope.excluded_by is None
        and scope.outside is None
        and not scope.missing_all
    )
    standing = (
        c.status == Status.active
        and c.historical is None
        and c.epistemic_status == EpistemicStatus.confirmed
    )
    return closest if missed and standing else None


def hand_to_rule(final: dict[str, Assessment], governor: Candidate | None, rule: Assessment) -> str:
    """Record in ``final`` that ``rule`` governs instead of ``governor`` (or of nothing), and
    return the step that says why."""
    _take_over(
        final,
        rule.candidate.id,
        "governs: the closest rule, though the request names none of its terms",
        governor.id if governor is not None else None,
        f"{rule.candidate.id}, the closest rule, holds the act back",
    )
    return (
        f"no rule's words reach this request to act; {rule.candidate.id}, the closest rule "
        "that refuses or checks acts, asks for a check: verify_first"
    )


def ungoverned(
    final: dict[str, Assessment],
    action_types: frozenset[ActionType],
    request: Terms,
    steps: list[str],
) -> Decision:
    """The decision where no belief governs: the memory that holds the dose asked for,
    checked (:func:`find_dose`); else the closest rule's check on a request to act
    (:func:`closest_rule`); else ``verify_first`` with nothing governing when a dose or a
    safety figure is at stake (:func:`figure_at_stake`); else ``answer_context``."""
    assessments = tuple(final.values())
    if (dose := find_dose(final, None, request)) is not None:
        steps.append(hand_to_dose(final, None, dose, ActionClass.verify_first))
        reason = f"{dose.candidate.id} governs (it holds the dose asked for): verify_first"
        return Decision(
            dose.candidate.id, ActionClass.verify_first, reason, assessments, tuple(steps)
        )
    if (rule := closest_rule(assessments, action_types)) is not None:
        steps.append(hand_to_rule(final, None, rule))
        reason = f"{rule.candidate.id} governs (the closest rule): verify_first"
        return Decision(
            rule.candidate.id, ActionClass.verify_first, reason, assessments, tuple(steps)
        )
    if (figure := figure_at_stake(request.text, assessments)) is not None:
        steps.append(f"no belief governs, but {figure}: verify_first")
        reason = f"no stored belief governs this request, but {figure}: verify_first"
        return Decision(None, ActionClass.verify_first, reason, assessments, tuple(steps))
    steps.append("nothing in the requested namespaces applies: answer_context")
    reason = "no stored belief applies to this request"
    return Decision(None, ActionClass.answer_context, reason, assessments, tuple(steps))


def figure_at_stake(request: str, assessed: Iterable[Assessment] = ()) -> str | None:
    """Where no belief governs, the dose or safety figure that a bare answer would guess at,
    said as a clause ("the request asks for a dose", "b7, the closest in meaning, holds a
    safety-critical setting"); ``None`` when there is none.

    A request that asks for a dose or a safety limit gets no answer from nowhere. Nor does
    one whose closest belief in meaning holds such a figure: words decide what governs, and
    a request may name in words of its own the very thing that belief is about ("the boiler
    dial" for a combi's pressure), so nothing governs it, yet the store holds a figure
    nobody checked against the request."""
    if (safety := safety_at_stake(request)) is not None:
        return f"the request asks for {safety[1]}"
    current = [a for a in assessed if a.candidate.current and a.candidate.similarity is not None]
    if not current:
        return None
    closest = max(current, key=lambda a: (a.candidate.similarity, a.candidate.id))
    text, cid = closest.candidate.text, closest.candidate.id
    if holds_a_dose(text):
        return f"{cid}, the closest in meaning, holds a dose"
    if holds_safety_setting(text):
        return f"{cid}, the closest in meaning, holds a safety-critical setting"
    return None


#: what handing over a held thing needs: a secret or a person's private data goes to no one
#: on a memory's word; money moves to stored details only once they are checked
_HANDING_OVER = {
    "a secret": ActionClass.block,
    "private data": ActionClass.block,
    "money": ActionClass.verify_first,
}


class Holding(NamedTuple):
    """The memory that holds what a request would hand over, and what handing it needs."""

    holder: Assessment
    action: ActionClass
    stake: str


def find_holder(
    final: Mapping[str, Assessment],
    governor: Candidate,
    action: ActionClass,
    action_types: frozenset[ActionType],
    request: Terms,
) -> Holding | None:
    """The memory that holds what the request would hand over (a password filed as a plain
    note, the new bank details in an email), when the governing belief says nothing of it:
    its content, not its label, decides (rule 8). ``None`` when the request hands nothing
    over, nothing current about its thing holds it, the holder says it may be handed on, or
    the governing belief asks for more already, speaks of that very stake, or is a note
    that counsels caution of its own."""
    if not action_types & CHANGING or action == ActionClass.archive_only:
        return None
    stake = at_stake(request.text)
    if stake is None:
        return None
    needed = _HANDING_OVER[stake]
    if more_protective(action, needed) != needed:
        return None  # the governing belief asks for more already
    if stake == "money" and not _states_its_own(final[governor.id]):
        changed = _changed_details(final, request)
        if changed is not None:
            # the payment would go where the change says: that is what is at stake
            return Holding(changed, needed, stake)
    if holds_at_stake(governor.text) == stake:
        return Holding(final[governor.id], needed, stake)  # it holds what would be handed over
    if at_stake(governor.text) == stake:
        return None  # it speaks to the stake itself: a rule on it, or the thing shareable
    if final[governor.id].lane != "authority" and _counsels_caution(governor):
        return None  # a note that already counsels caution about this very thing
    holders = [
        a
        for a in final.values()
        if _stands(a)
        and a.about.governs
        and holds_at_stake(a.candidate.text) == stake
        and not (stake == "money" and checked_at_source(a.candidate.text))
    ]
    if not holders:
        return None
    best = max(holders, key=lambda a: (about_rank(a), a.instance, a.relevance))
    return Holding(best, needed, stake)


def _stands(a: Assessment) -> bool:
    """Whether ``a`` is current: active, and not history."""
    return a.candidate.status == Status.active and not a.candidate.historical


def _states_its_own(a: Assessment) -> bool:
    """Whether ``a`` speaks to an act for itself: a rule (by its kind or its words), or a
    note that counsels caution ("the retention money is covered by the court order"); not
    a decision that states none ("Jonas approved the invoice")."""
    return states_a_rule(a.candidate, a.directive) or _counsels_caution(a.candidate)


def _counsels_caution(c: Candidate) -> bool:
    """Whether ``c``'s hint asks for more than an answer."""
    return c.allowed_action not in (None, ActionClass.answer, ActionClass.answer_context)


def _changed_details(final: Mapping[str, Assessment], request: Terms) -> Assessment | None:
    """The current memory that holds new details for paying whom the request would pay (the
    email that says they have moved banks): a payment made on the old details or the new is
    made on what it says. Details the memory says were checked at their source are no risk."""
    changed = [
        a
        for a in final.values()
        if _stands(a)
        and holds_at_stake(a.candidate.text) == "money"
        and announces_change(a.candidate.text)
        and not checked_at_source(a.candidate.text)
        # the payee may be named only in the email's address ("accounts@halvorsen-timber.co")
        and (a.about.governs or names_one_named(request.text, a.candidate.text))
    ]
    if not changed:
        return None
    return max(changed, key=lambda a: (about_rank(a), a.instance, a.relevance))


def find_dose(
    final: Mapping[str, Assessment], governor: Candidate | None, request: Terms
) -> Assessment | None:
    """The memory that holds the dose a request asks for ("how much of the blood thinner
    tonight?"), when the governing belief holds none: of the current memories that hold a
    dose for whom the request asks (naming one of the people it names, or no one), the one
    about its thing, else the one closest to it in meaning ("warfarin" for "the blood
    thinner"). What is asked is the amount to give, and that memory says it; it is checked,
    not answered (rule 10 of :mod:`beliefgraph.planner.precedence`). Where nothing governs
    (``governor`` is ``None``), the same memory is the one to check."""
    if not asks_the_set_dose(request.text) or (
        governor is not None and holds_a_dose(governor.text)
    ):
        return None
    asked_for = whose(request.text)
    holders = [
        a
        for a in final.values()
        if _stands(a)
        and a.candidate.similarity is not None
        and not a.about.other
        and holds_a_dose(a.candidate.text)
        and (not asked_for or not (held := whose(a.candidate.text)) or bool(asked_for & held))
    ]
    if not holders:
        return None
    # similarity is set on every holder; the default only satisfies the type
    return max(holders, key=lambda a: (about_rank(a), a.candidate.similarity or 0.0))


def hand_to_holder(final: dict[str, Assessment], governor: Candidate, held: Holding) -> str:
    """Record in ``final`` that the holder governs instead of ``governor`` (the governor
    itself, when it is the holder), and return the step that says why."""
    holder, stake = held.holder.candidate, held.stake
    if holder.id == governor.id:
        return f"it holds {stake}, and the request would hand it over: {held.action.value}"
    _take_over(
        final,
        holder.id,
        f"governs: it holds {stake} the request would hand over",
        governor.id,
        f"{holder.id} holds {stake} the request would hand over, and this says nothing of it",
    )
    return (
        f"the request would hand over {stake}; {holder.id} holds it, and {governor.id} says "
        f"nothing of it: {held.action.value}"
    )


def hand_to_dose(
    final: dict[str, Assessment],
    governor: Candidate | None,
    dose: Assessment,
    action: ActionClass,
) -> str:
    """Record in ``final`` that the memory holding the dose asked for governs (instead of
    ``governor``, when there was one), and return the step that says why."""
    holder = dose.candidate.id
    _take_over(
        final,
        holder,
        "governs: it holds the dose the request asks for",
        governor.id if governor else None,
        f"{holder} holds the dose the request asks for, and this holds none",
    )
    if governor is None:
        return f"the request asks for a dose, and {holder} holds it: {action.value}"
    return (
        f"the request asks for a dose; {holder} holds it, and {governor.id} holds none: "
        f"{action.value}"
    )


def open_doubt(
    assessed: Iterable[Assessment], governor: Candidate, action_types: frozenset[ActionType]
) -> Assessment | None:
    """A current belief without standing that would hold this write or execution for a
    check, in scope and strongly (an engineer's unconfirmed note that the wall may be
    load-bearing): not enough to govern, too much to act as if it were not there."""
    if not action_types & CHANGING:
        return None
    for a in assessed:
        c = a.candidate
        if (
            c.id != governor.id
            and c.current
            and without_standing(c)
            and a.scope is not None
            and a.scope.in_scope
            and a.strong
            and a.type_match
            and a.about.governs
            and ActionClass.verify_first in (c.allowed_action, a.directive.action)
        ):
            return a
    return None


def _take_over(
    final: dict[str, Assessment],
    winner: str,
    won: str,
    loser: str | None,
    lost: str,
) -> None:
    """Mark in ``final`` that ``winner`` governs (saying ``won``) in place of ``loser``
    (saying ``lost``), when there was one."""
    final[winner] = replace(final[winner], outcome="governs", why=won)
    if loser is not None:
        final[loser] = replace(final[loser], outcome="lost", why=lost)

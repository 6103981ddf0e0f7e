"""The planner's decision, as a pure function of the candidates the graph walk found.

:func:`decide` takes the request and the candidate beliefs (with their scopes, supersession
heads and the ``OVERRIDES`` / ``NARROWS`` edges between them) and returns who governs, the
action class, and a line per candidate saying why it won or lost. No database, no model:
:mod:`beliefgraph.planner.planner` does the discovery and the walk, then calls this.

The rules (DESIGN §3), in order:

1. **Lanes.** A candidate holds *jurisdiction* when it has an explicit ``governs`` scope, or
   has authority (a policy-like kind, or text that states a rule) and so gets a scope derived
   from its text and entities. Holders whose scope the request falls into, with standing
   (status active; not floated, contested or unverified), enter the **authority lane**; an
   archived holder, or one whose ``valid_to`` has passed, enters the **history lane**.
   Everything else current is **evidence**.
   By the rules, a holder whose scope the request misses, or that excludes it, never
   governs - an out-of-scope authority never blocks; nor does one whose label names another
   thing beside the one asked ("Dock 3 edge router: ..." for the dock 3 handhelds), nor one
   that applies only above a sum the request stays under ("payments above £10,000", asked
   to pay a £3,240 invoice). The
   ranker (rule 11) may still pick one whose scope the request misses (an explicit scope's
   class may hold the instance a request names in words of its own) or that reads as about
   another thing (one thing may be written two ways), never one whose explicit scope
   excludes it, requires a name the request lacks, or whose threshold the request
   stays under.
2. **Action types.** A scope that names acts (read/write/execute) and misses the request's
   acts still applies when the match is strong - a read of a credential is governed by the
   rule on sharing it - but it ranks below scopes whose acts match; a weak match with the
   wrong acts is out.
3. **Precedence** among the lane: ``OVERRIDES`` edges, then ``NARROWS`` (the narrower
   scope), then current before history, strong before weak match, matching acts before not,
   priority, specificity, trust, recency, and finally the id, so ties break the same way
   every time.
4. **Supersession.** A superseded candidate never governs: its head takes its place.
5. **Fallback.** With an empty lane, the most relevant current evidence about the thing asked
   answers; or, for a plain question no statement's words name, the note closest to it in
   meaning by far, or a corrected note's current head closest of all (:mod:`evidence
   <beliefgraph.planner.evidence>`); statements come before rules that lack standing (an
   unverified policy is no evidence of fact). When nothing current is about the thing asked
   and a statement of it is history (archived, or past its ``valid_to``; not a rule out of
   scope, nor a link of a chain), that record answers, ``archive_only`` - unless, with
   nothing governing, a figure at stake or the closest rule (rule 10) would ask for a check.
6. **Action.** From the governing belief: its hint, raised by the rule its text states
   unless the hint already measures a caution (``warn``, ``verify_first``) or asks only for
   background (``answer_context``), and by
   ``verification_required``; history is ``archive_only``; a write/execute request under a
   write/execute scope never gets a bare ``answer``, unless it goes the very way the rule
   says things are done and none it refuses ("through the referral portal; email and fax
   are not used", asked to send a summary on the referral portal). Nor does a prohibition
   labelled ``answer`` raise a request that takes the way it names ("Lab reports never go
   out by email. Upload them to the CareLink portal", asked to upload one there), unless its
   writer made it absolute ("no exceptions").
7. **Contests.** A governing belief that live beliefs ``CONTRADICT`` (the curation gate's
   trust, role or namespace guard kept them from superseding it, DESIGN §5) still governs:
   the guard judged the contradiction unfit to replace it, and a contest never changes who
   governs or the precedence. The agent is told: the contests are reported, and a bare
   ``answer`` (or ``answer_context``) becomes ``warn`` - answer, and say the claim is
   disputed. It does not become ``verify_first``: every contest comes from a writer the guard
   refused (lower trust, an agent key against an authority), and if such a write could
   force verification it would gain over the belief the very lever the guard withholds - an
   agent talked into "remembering" a contradiction could put every user decision behind a
   check (overcaution, which the evaluation counts as a loss). Protection the belief
   already demands (``block``, ``verify_first``) is kept as it is.
8. **Stakes.** An execute request that would hand over a secret, move money or disclose a
   person's private data (:func:`beliefgraph.language.stakes.at_stake`) never gets a bare
   ``answer``: unless
   the governing belief says in words that it may be done, the agent verifies first. A
   memory's label can lie (a password filed as a plain note); what the request does cannot.
   What a memory *holds* decides too (:func:`beliefgraph.language.stakes.holds_at_stake`): when the
   request would hand over a secret or private data that a current memory about its thing
   holds, that memory governs and the hand-over is ``block``; money to be paid to details a
   memory holds is ``verify_first`` - unless the belief that governed says something of that
   stake itself, or the holder says it may be handed on ("printed on the welcome card").
   A current memory saying the payee's details changed ("they've moved banks") governs the
   payment, unless the belief that governed is a rule or counsels caution of its own.
   Nor does a question that asks for a dose (``verify_first``) or a safety limit (``warn``,
   :func:`beliefgraph.language.stakes.safety_at_stake`), nor one answered by a memory that
   holds a torque, a pressure or a load limit, whatever its label (``warn``; a question about
   what was done only reads the record), nor how much or how many, answered by a memory that
   holds a dose ("the little pink ones": ``verify_first``). A label lies
   the other way too: a plain fact filed as a cautious policy, which states no rule and
   holds nothing at stake, is answered when only read.
9. **History asked for.** A question about how things were ("back in 2023...") is answered
   by the archived record of that time, ``archive_only``, whatever governs now; so is a
   request to act as things were done ("put the purge back to how we used to run it") or
   that leans on a practice on record only as history ("the usual haulier"), unless a
   current rule forbids the act outright. Asked outright how things were, a record that names
   the thing in other words still answers when it is close in meaning
   (:mod:`beliefgraph.planner.history`).
10. **The closest rule.** A request to act that no rule's words reach, which a plain note
   would answer outright (or nothing would), is ``verify_first`` under the rule closest to it
   in meaning that refuses or checks acts, when that rule stands and was set aside only
   because the request names none of its terms (:mod:`beliefgraph.planner.cautions`). Words
   still decide jurisdiction; meaning only keeps a caution from being lost to them. A
   request for the amount of a medicine to give ("how much of Dad's blood thinner?") is
   governed by the current memory holding a dose for whom it asks, about its thing or else
   closest in meaning (the warfarin plan), where the governing belief holds none:
   ``verify_first`` (``block`` where it refused). Where nothing governs and no memory holds
   the dose, a request for a dose or a safety limit, or one whose closest belief in meaning
   holds such a figure, is ``verify_first`` with no belief governing.
11. **The ranker.** Given one (the planner passes the fitted one), it has the last word on
   which candidate governs once the rules have found a winner, unless the request asks
   about the past (rule 9): it weighs what the rules read of every candidate beside its
   standing, similarity and recency (:mod:`beliefgraph.planner.ranking`); a rule that
   asks for a check or forbids never gives way to a provisional report. Rules 6 to 10 then
   set the action from the belief it chose. Given a panel of rankers (the planner's: trees,
   then linear weights), each choice is carried through rules 6 to 10, and the first stands
   unless it would answer outright where another would have the agent do less.
12. **The action model.** Given one (the planner passes the fitted ones: one for a belief
   with a hint of its action, one for a belief without), it has the last word on the action
   where the ranker had it on the belief and no curator's edge ordered the rules in reach
   (:mod:`beliefgraph.planner.actions`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from beliefgraph.language.acts import CHANGING, names_disclosure
from beliefgraph.language.directives import (
    Directive,
    governed_action_types,
    made_absolute,
    read_directive,
)
from beliefgraph.language.questions import asks_what_was_done
from beliefgraph.language.stakes import (
    asks_an_amount,
    at_stake,
    checked_at_source,
    holds_a_dose,
    holds_a_value,
    holds_at_stake,
    holds_safety_setting,
    kept_confidential,
    may_be_handed_on,
    safety_at_stake,
    someone_elses_act,
    without_no_secret,
)
from beliefgraph.language.ways import takes_the_route, takes_the_way
from beliefgraph.language.words import Terms
from beliefgraph.models import (
    ActionClass,
    ActionType,
    EpistemicStatus,
    Kind,
    Status,
)
from beliefgraph.planner.actions import Actions
from beliefgraph.planner.assess import (
    RULE_WORDS,
    WITHOUT_STANDING,
    Assessment,
    Candidate,
    Decision,
    about_rank,
    assess,
    loss_reason,
    more_protective,
    precedence_rank,
    win_reason,
)
from beliefgraph.planner.cautions import (
    closest_rule,
    figure_at_stake,
    find_dose,
    find_holder,
    hand_to_dose,
    hand_to_holder,
    hand_to_rule,
    open_doubt,
    ungoverned,
)
from beliefgraph.planner.evidence import answering
from beliefgraph.planner.history import history_asked, record_of_the_thing
from beliefgraph.planner.ranking import Chooser, Panel, last_words

#: hints by which a belief's writer measured its caution, or asked for background only: its
#: text's wording does not raise them
_MEASURED = frozenset({ActionClass.answer_context, ActionClass.warn, ActionClass.verify_first})


def action_for(
    governor: Candidate,
    assessment: Assessment,
    action_types: frozenset[ActionType],
    request: Terms | None = None,
) -> tuple[ActionClass, list[str]]:
    """The action class a governing belief allows, and the steps that set it."""
    steps: list[str] = []
    action: ActionClass
    if governor.historical:
        return ActionClass.archive_only, [f"{governor.id} is {governor.historical}: history only"]
    directive = read_directive(governor.text)
    on_route = request is not None and _takes_its_way(governor, directive, request)
    if on_route:
        # "never take card numbers by phone; to collect, send the payment link", asked to
        # text the payment link: the request is the way the rule names, not what it forbids
        directive = Directive(ActionClass.answer, "the request takes the way it names")
    if governor.allowed_action == ActionClass.archive_only and directive.is_rule:
        return ActionClass.archive_only, [f"{governor.id} says it is history: archive_only"]
    # A label can lie both ways: a plain fact filed as a critical policy ("Dock B's Friday
    # cut-off is 14:30"), or a network's name filed as a credential, holds no secret, money
    # or private data to guard and says no rule; reading it is answered, whatever its kind,
    # hint or verification flag ask.
    restricts = directive.action not in (
        None,
        ActionClass.answer,
    )  # not a statement or a permission
    unguarded = not restricts and (
        (
            not action_types & CHANGING
            and not RULE_WORDS.search(without_no_secret(governor.text.lower()))
            and holds_at_stake(governor.text) is None
            and not (governor.kind == Kind.credential and holds_a_value(governor.text))
        )
        # ... and a secret whose own words say it may be handed on ("printed on the welcome
        # card") is handed on.
        or may_be_handed_on(governor.text)
    )
    if unguarded and (
        governor.allowed_action in (ActionClass.block, ActionClass.verify_first)
        or governor.verification_required
    ):
        action = ActionClass.answer
        steps.append(
            "its label asks for caution, but it states no rule and holds nothing at stake: answer"
        )
    elif (
        governor.allowed_action is not None and governor.allowed_action != ActionClass.archive_only
    ):
        action = governor.allowed_action
        steps.append(f"its action hint is {action.value}")
    elif directive.action is not None:
        action = directive.action
        steps.append(f"its text says {directive.cue!r}: {action.value}")
    else:
        action = ActionClass.answer
        steps.append("a plain statement: answer")
    if (
        directive.is_rule
        and directive.action is not None
        # a hint of caution (warn, verify_first) is its writer's measure of the rule: "never
        # take card numbers in chat; send the payment link" filed as warn stays warn. Only a
        # plain hint, or none, is raised by what the text says (a label can lie that way).
        and governor.allowed_action not in _MEASURED
        and _governs_the_act(governor.text, action_types)
    ):
        raised = more_protective(action, directive.action)
        if raised != action:
            steps.append(f"its text says {directive.cue!r}: raised to {raised.value}")
            action = raised
    if (
        not unguarded
        and governor.verification_required
        and more_protective(action, ActionClass.verify_first) != action
    ):
        action = ActionClass.verify_first
        steps.append("it requires verification: verify_first")
    weak = governor.status != Status.active or governor.epistemic_status in WITHOUT_STANDING
    if weak and action in (ActionClass.answer, ActionClass.answer_context):
        action = ActionClass.warn
        steps.append(f"it is {governor.status.value}/{governor.epistemic_status.value}: warn")
    scope = assessment.scope
    if (
        scope is not None
        and not on_route
        and action_types & CHANGING
        and scope.action_types & CHANGING
        and action in (ActionClass.answer, ActionClass.answer_context)
    ):
        action = ActionClass.verify_first
        steps.append("a write/execute request under a write/execute scope: verify_first")
    handing_over = ActionType.execute in action_types
    stake = at_stake(request.text) if request is not None and handing_over else None
    if (
        stake is not None
        and action in (ActionClass.answer, ActionClass.answer_context)
        and directive.action != ActionClass.answer
        and not may_be_handed_on(governor.text)
        and not (stake == "money" and checked_at_source(governor.text))
    ):
        # Rule 8: a request that hands over a secret, money or private data is not made safe
        # by a memory that merely answers it; only an explicit permission does.
        action = ActionClass.verify_first
        steps.append(f"the request puts {stake} at stake, and nothing permits it: verify_first")
    if handing_over and holds_at_stake(governor.text) and kept_confidential(governor.text):
        # told in confidence ("she asked me to keep it to myself"): no check makes handing on right
        action = ActionClass.block
        steps.append("it holds what was told in confidence, and the request hands it on: block")
    safety = safety_at_stake(request.text) if request is not None else None
    if safety is not None and action in (ActionClass.answer, ActionClass.answer_context):
        # A dose or a limit read from a plain note is still a dose or a limit: a label
        # that says "answer" does not make it safe to act on unchecked.
        least, what = safety
        action = least
        steps.append(f"the request asks for {what}: {least.value}")
    elif (
        request is not None
        and not action_types & CHANGING
        and action in (ActionClass.answer, ActionClass.answer_context)
        and holds_safety_setting(governor.text)
        and not asks_what_was_done(request.text)
    ):
        # the label says "answer", the text holds a torque or a pressure to work to
        action = ActionClass.warn
        steps.append("it holds a safety-critical setting: warn")
    elif (
        request is not None
        and action in (ActionClass.answer, ActionClass.answer_context)
        and holds_a_dose(governor.text)
        and asks_an_amount(request.text)
        and not asks_what_was_done(request.text)
    ):
        # "how many of the little pink ones tonight?" asks for the dose the note holds
        action = ActionClass.verify_first
        steps.append("it holds a dose, and the request asks how much: verify_first")
    if action_types & CHANGING and action != ActionClass.block and someone_elses_act(governor.text):
        # "Refunds are done only at the till by a supervisor; the assistant may tell the
        # customer how": the act is not the agent's to do, what it may give is the answer.
        action = ActionClass.answer_context
        steps.append("it says the act is someone else's to do: answer_context (explain it)")
    if governor.contested_by:
        # Rule 7 of the module docstring: report, and never answer as if undisputed.
        who = ", ".join(governor.contested_by)
        step = f"contested by {who} (CONTRADICTS, kept from superseding it by the gate)"
        if action in (ActionClass.answer, ActionClass.answer_context):
            action = ActionClass.warn
            steps.append(f"{step}: it still governs, but the claim is disputed: warn")
        else:
            steps.append(f"{step}: it still governs; {action.value} already protects")
    return action, steps


def _takes_its_way(governor: Candidate, directive: Directive, request: Terms) -> bool:
    """Whether ``request`` takes the way ``governor``'s text names, as what the rule allows:
    the route a check names ("never take card numbers by phone; to collect, send the payment
    link", asked to text the link); the way any rule short of a prohibition says things are
    done, where its label asks for no caution; and the way a prohibition labelled ``answer``
    names ("Lab reports never go out by email. Upload them to the CareLink portal", asked to
    upload one there), unless its writer made it absolute ("no exceptions"). Unlabelled, a
    prohibition's own words decide: reading the way is not sure enough to set a prohibition
    aside on its own."""
    asked, text = request.text, governor.text
    if directive.action == ActionClass.block:
        return (
            governor.allowed_action == ActionClass.answer
            and not made_absolute(text)
            and takes_the_way(asked, text)
        )
    if directive.action == ActionClass.verify_first and takes_the_route(asked, text):
        return True
    return governor.allowed_action in (None, ActionClass.answer) and takes_the_way(asked, text)


def _governs_the_act(text: str, action_types: frozenset[ActionType]) -> bool:
    """Whether the rule ``text`` states holds the request's acts, so that it may raise the
    action: "late work scores zero unless an extension is granted" holds granting one, not
    telling a parent the rule; a rule on sharing a secret holds reading it, since a read
    leads to handing it over."""
    governed = governed_action_types(text)
    disclosing = ActionType.read in action_types and names_disclosure(text)
    return not governed or disclosing or bool(governed & action_types)


def decide(
    query: Terms | str,
    action_types: Iterable[ActionType],
    candidates: Sequence[Candidate],
    *,
    overrides: Iterable[tuple[str, str]] = (),
    narrows: Iterable[tuple[str, str]] = (),
    ranker: Chooser | Panel | None = None,
    actions: Actions | None = None,
) -> Decision:
    """Decide which candidate governs ``query`` and what the agent may do.

    Args:
        query: the request, as read once by the caller (:class:`Terms`), or its text.
        action_types: what the request would do (given, or inferred by the caller).
        candidates: every belief discovery and the graph walk found, including the heads of
            superseded candidates (``Candidate.head`` names them).
        overrides: ``(winner_id, loser_id)`` pairs of ``OVERRIDES`` edges.
        narrows: ``(narrow_scope_key, broad_scope_key)`` pairs of ``NARROWS`` edges.
        ranker: has the last word on which candidate governs, when the rules found one
            (:mod:`beliefgraph.planner.ranking`); a :class:`Panel` of them, each carried
            through to its action, as :meth:`Panel.verdict` takes one; ``None`` decides by
            the rules alone.
        actions: has the last word on the action where the rules found a winner, the past
            is not asked, no curator's edge ordered the rules in reach, and the governor is
            neither history nor contested; :class:`ActionModels` ask the model fitted on
            beliefs with a hint of their action, or on beliefs without, as the governor is.

    Returns:
        The :class:`Decision`; ``governing`` is ``None`` when nothing applies.
    """
    request = query if isinstance(query, Terms) else Terms.of(query)
    kinds = frozenset(action_types)
    by_id = {c.id: c for c in candidates}
    assessed = {c.id: assess(c, request, kinds) for c in candidates}
    steps: list[str] = []

    # A superseded candidate's jurisdiction passes to the head of its chain (a head outside
    # the requested namespaces is none: ``assess`` excluded the candidate). A chain whose head
    # is retracted has nothing current to pass it to: its members never govern, as evidence
    # neither.
    heads: dict[str, Candidate] = {}
    for a in assessed.values():
        c = a.candidate
        if c.status == Status.superseded and c.head in by_id:
            heads[c.id] = by_id[c.head]
    for cid, head in heads.items():
        if head.status == Status.retracted:
            why = f"superseded by {head.id}, which is retracted: nothing current heads its chain"
            assessed[cid] = replace(assessed[cid], lane="none", outcome="excluded", why=why)
    lane = [a for a in assessed.values() if a.lane in ("authority", "history")]

    losers: dict[str, str] = {}
    lane_ids = {a.candidate.id for a in lane}
    for stronger, weaker in overrides:
        if stronger in lane_ids and weaker in lane_ids:
            losers[weaker] = f"overridden by {stronger} (OVERRIDES)"
    scope_holder = {a.candidate.scope_key: a.candidate.id for a in lane if a.candidate.scope_key}
    for narrow, broad in narrows:
        if narrow in scope_holder and broad in scope_holder:
            broad_id = scope_holder[broad]
            losers.setdefault(
                broad_id, f"{scope_holder[narrow]} governs a narrower scope (NARROWS)"
            )
    contenders = [a for a in lane if a.candidate.id not in losers]
    contenders.sort(key=lambda a: a.candidate.id)  # the final tie-break: smallest id wins
    contenders.sort(key=lambda a: precedence_rank(a, heads), reverse=True)

    winner: Assessment | None = contenders[0] if contenders else None
    past = history_asked(request.text, kinds, assessed.values())
    figure: str | None = None  # a figure at stake, where a record governs: its check stands
    if past is not None:
        # A question about how things were ("back in 2023, what were we allowed...?") is
        # answered by the record of that time, as history, whatever governs now.
        winner = past
        steps.append(f"the request asks about the past; {past.candidate.id} is its record")
    elif winner is not None:
        steps.append(
            f"authority lane: {len(contenders)} in scope; {winner.candidate.id} ranks first"
        )
    else:
        # Only what is about the request's thing may answer it: the nearest text about
        # another thing (the dock drone's code for the dock router's) is no answer at all.
        evidence = answering(request, kinds, assessed, heads)
        # the closest rule checks what no belief governs, a record of the thing or not
        record = (
            None
            if evidence or closest_rule(assessed.values(), kinds) is not None
            else record_of_the_thing(assessed.values())
        )
        # Statements answer; a rule without standing (an unverified policy, a floated
        # decision) is no evidence of fact and answers only when nothing else is relevant.
        evidence.sort(key=lambda a: a.candidate.id)
        evidence.sort(
            key=lambda a: (
                not a.authority,
                about_rank(a),
                a.instance,
                not a.other_property,
                # what is confirmed answers before what was heard
                a.candidate.epistemic_status == EpistemicStatus.confirmed,
                a.relevance,
            ),
            reverse=True,
        )
        winner = evidence[0] if evidence else None
        if winner is not None:
            most = "closest in meaning" if winner.by_meaning else "most relevant evidence"
            steps.append(f"no authority in scope; the {most} is {winner.candidate.id}")
        elif record is not None:
            # nothing current is about the thing asked, but its record is: it answers, as
            # history (the works agreement that ran before the current deal); a check a
            # figure at stake asks for stands, unless what was done is asked
            if not asks_what_was_done(request.text):
                figure = figure_at_stake(request.text, assessed.values())
            why = "history: nothing current is about the thing asked"
            winner = assessed[record.candidate.id] = replace(record, lane="history", why=why)
            steps.append(f"nothing current is about it; {record.candidate.id}, its record, answers")

    choices = last_words(ranker, winner, past, assessed, heads, losers)
    decisions = [
        _conclude(request, kinds, assessed, heads, losers, winner, chosen, list(steps))
        for chosen in choices
    ]
    decision = Panel.verdict(decisions)
    if figure is not None and decision.action == ActionClass.archive_only:
        # the record is what is about the thing; the check asked for stands
        why = f"{decision.governing} governs (its record), but {figure}: verify_first"
        steps_ = (*decision.steps, f"the record answers, but {figure}: verify_first")
        decision = replace(decision, action=ActionClass.verify_first, reason=why, steps=steps_)
    # the model is not asked where a curator's edge ordered the rules: it was fitted on none
    if actions is None or winner is None or past is not None or losers:
        return decision
    return actions.settle(request, kinds, decision, by_id)


def _conclude(
    request: Terms,
    kinds: frozenset[ActionType],
    assessed: Mapping[str, Assessment],
    heads: Mapping[str, Candidate],
    losers: Mapping[str, str],
    rules_winner: Assessment | None,
    winner: Assessment | None,
    steps: list[str],
) -> Decision:
    """The rest of :func:`decide` once ``winner`` is chosen (by the ranker, or the rules'
    ``rules_winner`` kept): the action, and what holds it back."""
    chosen_by_ranker = winner is not rules_winner
    if chosen_by_ranker and winner is not None and rules_winner is not None:
        had = rules_winner.candidate.id
        steps.append(f"the ranker puts {winner.candidate.id} first (the rules had {had})")
    final: dict[str, Assessment] = {}
    governor: Candidate | None = None
    if winner is not None:
        governor = heads.get(winner.candidate.id, winner.candidate)
        if governor.id != winner.candidate.id:
            steps.append(f"{winner.candidate.id} is superseded; its head {governor.id} governs")
    for cid, a in assessed.items():
        if governor is not None and cid == governor.id:
            why = win_reason(a, winner)
            if chosen_by_ranker and winner is not None:
                why = f"governs: the ranker put {winner.candidate.id} first ({why})"
            final[cid] = replace(a, outcome="governs", why=why)
        elif winner is not None and cid == winner.candidate.id:
            final[cid] = replace(a, why=f"superseded by {governor.id if governor else '?'}")
        elif cid in losers:
            final[cid] = replace(a, why=losers[cid])
        elif a.candidate.status == Status.superseded and cid in heads:
            final[cid] = replace(
                a, why=f"superseded: never governs; {heads[cid].id} heads its chain"
            )
        elif a.outcome == "excluded":
            final[cid] = a
        elif winner is not None and a.lane in ("authority", "history") and winner.scope is None:
            # the record of the past asked about is a statement, ranked on no scope
            final[cid] = replace(a, why=f"{a.why}; {winner.candidate.id} is the record asked for")
        elif winner is not None and a.lane in ("authority", "history"):
            final[cid] = replace(a, why=loss_reason(a, winner, heads))
        elif winner is not None and winner.lane in ("authority", "history"):
            final[cid] = replace(a, why=f"{a.why}; the authority lane decides")
        elif winner is not None:
            final[cid] = replace(
                a, why=f"{a.why}; less relevant ({a.relevance:.3f} < {winner.relevance:.3f})"
            )
        else:
            final[cid] = a

    if governor is None:
        return ungoverned(final, kinds, request, steps)
    assert winner is not None
    action, action_steps = action_for(governor, winner, kinds, request)
    steps.extend(action_steps)
    doubt = open_doubt(assessed.values(), governor, kinds)
    if (
        doubt is not None
        and action in (ActionClass.answer, ActionClass.answer_context)
        and not (kinds & CHANGING and someone_elses_act(governor.text))
    ):
        action = ActionClass.verify_first
        steps.append(
            f"{doubt.candidate.id} asks for a check on exactly this act and is not yet "
            "confirmed: verify_first"
        )
    held = find_holder(final, governor, action, kinds, request)
    if held is not None:
        action = held.action
        steps.append(hand_to_holder(final, governor, held))
        governor, winner = held.holder.candidate, held.holder
    elif (dose := find_dose(final, governor, request)) is not None:
        if action != ActionClass.block:
            action = ActionClass.verify_first
        steps.append(hand_to_dose(final, governor, dose, action))
        governor, winner = dose.candidate, dose
    if (
        winner.lane == "evidence"
        and action in (ActionClass.answer, ActionClass.answer_context)
        # a permission on the thing asked ("the agenda is freely shareable") answers for
        # itself (the chain's head's words, not an old version's); a caution that reaches the
        # request only by meaning does not override it
        and read_directive(governor.text).action != ActionClass.answer
        and (rule := closest_rule(final.values(), kinds)) is not None
    ):
        steps.append(hand_to_rule(final, governor, rule))
        action = ActionClass.verify_first
        governor, winner = rule.candidate, rule
        lane_name = "the closest rule"
    else:
        lane_name = f"{winner.lane} lane"
    reason = f"{governor.id} governs ({lane_name}): {action.value}"
    if governor.contested_by:
        reason += f"; contested by {', '.join(governor.contested_by)}"
    return Decision(governor.id, action, reason, tuple(final.values()), tuple(steps))

"""Each candidate belief assessed for a request: its scope, standing and rank."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache

from beliefgraph.language.aboutness import NOTHING, Aboutness, about
from beliefgraph.language.acts import CHANGING, infer_action_types
from beliefgraph.language.directives import (
    Directive,
    governed_action_types,
    hedged,
    read_directive,
)
from beliefgraph.language.instances import other_instance, same_instance
from beliefgraph.language.labels import labelled_sibling
from beliefgraph.language.names import another_of_that_name
from beliefgraph.language.properties import other_property, same_property
from beliefgraph.language.questions import asks_for_the_rule, asks_what_was_done
from beliefgraph.language.scopes import (
    STRONG,
    ScopeMatch,
    explicit_scope_is_about,
    match_derived,
    match_governs,
)
from beliefgraph.language.thresholds import under_threshold
from beliefgraph.language.words import CACHE, Terms, denies_a_word, normalise
from beliefgraph.models import (
    ActionClass,
    ActionType,
    EpistemicStatus,
    Governs,
    Kind,
    Priority,
    Status,
)

#: kinds that speak with authority when they govern (DESIGN §3); ``directive`` is an
#: instruction by definition, so it joins the kinds of models.AUTHORITY_KINDS here
PLANNER_AUTHORITY_KINDS = frozenset(
    {Kind.policy, Kind.credential, Kind.correction, Kind.decision, Kind.directive}
)
#: statuses that describe the present
CURRENT = frozenset({Status.active, Status.provisional, Status.inferred, Status.exploratory})
#: epistemic states too weak to govern anything (they remain evidence)
WITHOUT_STANDING = frozenset(
    {EpistemicStatus.floated, EpistemicStatus.contested, EpistemicStatus.unverified}
)
#: the protection order of DESIGN §3, most protective first
PROTECTION = (
    ActionClass.block,
    ActionClass.verify_first,
    ActionClass.warn,
    ActionClass.answer,
    ActionClass.answer_context,
)
_PRIORITY_RANK = {Priority.critical: 3, Priority.high: 2, Priority.normal: 1, Priority.low: 0}
#: words by which a text says what must or may be done, whatever cue it lacks
RULE_WORDS = re.compile(
    r"\b(?:must|shall|should|only|never|not|no|required?|requires|needs?|may|cannot|"
    r"without|unless|until|always)\b"
)
#: how closely a belief is about the request's thing (bigger is closer)
_ABOUT_RANK = {"same": 2, "class": 1, "mention": 0, "none": -1}


def _exactly_its_thing(scope: ScopeMatch, about: Aboutness) -> bool:
    """Whether a derived scope is about exactly the request's thing (as strong as a match
    on many words)."""
    return scope.source == "derived" and about.level == "same" and about.exact


def answers_for(about: Aboutness, action_types: frozenset[ActionType]) -> bool:
    """Whether a belief this much about the request's thing may answer or govern it: about
    the thing itself, or - for a request that changes nothing - about what the thing has
    ("the boat hire" answers "when is the boat booked?")."""
    return about.governs or (about.part_of and not action_types & CHANGING)


#: the authority kinds that are rules whatever their wording (a decision or a correction
#: states what was settled)
_RULE_KINDS = PLANNER_AUTHORITY_KINDS - {Kind.decision, Kind.correction}


def states_a_rule(c: Candidate, directive: Directive) -> bool:
    """Whether ``c`` is a rule: by its kind, or by what its words say."""
    return c.kind in _RULE_KINDS or directive.is_rule


def about_rank(a: Assessment) -> tuple[int, bool]:
    if a.scope is not None and a.scope.explicit and a.scope.in_scope:
        # An explicit scope is its writer's word on what the rule is about.
        return _ABOUT_RANK["same"], False
    return _ABOUT_RANK[a.about.level], a.about.exact


#: lexical overlap counts this much next to cosine similarity in the evidence lane
LEXICAL_WEIGHT = 0.1


def more_protective(a: ActionClass, b: ActionClass) -> ActionClass:
    """The more protective of two action classes (``archive_only`` is never compared)."""
    return a if PROTECTION.index(a) <= PROTECTION.index(b) else b


@dataclass(frozen=True)
class Candidate:
    """A belief as the planner sees it: what it says, its standing, and how it was found."""

    id: str
    text: str
    kind: Kind
    status: Status
    epistemic_status: EpistemicStatus
    priority: Priority
    verification_required: bool
    allowed_action: ActionClass | None
    trust: float
    recency: datetime
    names: tuple[str, ...] = ()
    governs: Governs | None = None
    scope_key: str | None = None
    similarity: float | None = None
    found_by: frozenset[str] = frozenset()
    head: str | None = None
    #: live beliefs that CONTRADICT this one (contests the gate's guards kept open)
    contested_by: tuple[str, ...] = ()
    #: its ``valid_to`` has passed: history, like an archived belief, whatever its status
    expired: bool = False
    #: the words in which its text says its arrangement has ended ("ran to 31 Dec 2024 and
    #: was never renewed": :func:`~beliefgraph.language.lapsed.term_ended`): history too
    ended: str | None = None

    @property
    def current(self) -> bool:
        """Whether the belief describes the present (not superseded, retracted, archived,
        expired, nor ended by its own words)."""
        return self.status in CURRENT and not self.expired and self.ended is None

    @property
    def historical(self) -> str | None:
        """Why the belief is history (``archived``, ``expired``, ended), or ``None``."""
        if self.status == Status.archived:
            return "archived"
        if self.expired:
            return "expired (its valid_to has passed)"
        return f"ended (its text says it {self.ended})" if self.ended else None


@dataclass(frozen=True)
class Assessment:
    """What the planner concluded about one candidate."""

    candidate: Candidate
    directive: Directive
    authority: bool
    scope: ScopeMatch | None
    scope_note: str | None
    type_match: bool
    lane: str  # authority / history / evidence / none
    relevance: float
    outcome: str = "lost"  # governs / lost / excluded
    why: str = ""
    #: how the belief meets what the request is about (beliefgraph.language.aboutness)
    about: Aboutness = NOTHING
    #: it names a numbered instance the request names ("Plot 14"): about exactly that one
    instance: bool = False
    #: it speaks only of other properties of the thing than the request asks for (its cost,
    #: asked where it is)
    other_property: bool = False
    #: it speaks of a property the request asks for
    asked_property: bool = False
    #: it holds the opposite of one of the request's words ("unpaid", asked about the
    #: invoice that got paid)
    denies_asked: bool = False
    #: it answers a plain question by meaning alone: no word of it names the thing asked
    #: (:mod:`beliefgraph.planner.evidence`)
    by_meaning: bool = False

    @property
    def strong(self) -> bool:
        """Whether the scope match is strong: by weight, or a derived scope about exactly
        the request's thing (a read of the studio door PIN falls under the rule on sharing
        it, however few words the two share)."""
        if self.scope is None:
            return False
        return self.scope.weight >= STRONG or _exactly_its_thing(self.scope, self.about)


@dataclass(frozen=True)
class Decision:
    """The planner's answer: who governs, the action, and the reasoning."""

    governing: str | None
    action: ActionClass
    reason: str
    assessments: tuple[Assessment, ...]
    steps: tuple[str, ...]
    edges: tuple[tuple[str, str, str], ...] = field(default_factory=tuple)


def _scope_of(
    c: Candidate, request: Terms, directive: Directive, authority: bool
) -> tuple[ScopeMatch | None, str | None]:
    """The candidate's scope match, and a note when the explicit scope was set aside."""
    # Only a rule names the acts it governs; a statement's verbs are events ("was paid").
    described = governed_action_types(c.text) if directive.is_rule else frozenset()
    if c.governs is not None:
        g = c.governs
        if explicit_scope_is_about(
            any_terms=g.any_terms, all_terms=g.all_terms, text=c.text, names=c.names
        ):
            return (
                match_governs(
                    request,
                    any_terms=g.any_terms,
                    all_terms=g.all_terms,
                    excluded_terms=g.excluded_terms,
                    action_types=g.action_types or described,
                ),
                None if g.action_types else "action types read from the text",
            )
        note = "governs names nothing this belief says or is about; scope derived instead"
        derived = match_derived(
            request, text=c.text, names=c.names, action_types=g.action_types or described
        )
        # The explicit exclusions still stand: they say where the belief must never reach.
        for term in g.excluded_terms:
            if request.has(term):
                return replace(derived, excluded_by=term), note
        return derived, note
    if authority:
        return match_derived(request, text=c.text, names=c.names, action_types=described), None
    return None, None


#: what still asks for something to be done beside a question of record: "..., and could you
#: shred the rest?", "I need them shredded today", "so the team can", "what has to happen"
_STILL_ASKS = re.compile(
    r"\b(?:can|could|will|would) (?:you|we|someone|they|i)\b|\bplease\b|\bneeds?\b"
    r"|\b(?:has|have) to\b|\bso (?:that )?(?:[\w'-]+ ){0,3}?(?:can|could)\b"
    r"|\b(?:now|today|tonight|tomorrow)\b|\bif (?:its |it is )?(?:fine|ok|okay)\b"
    # a question about the rule itself reads the rule: "what was the shredding policy?"
    r"|\b(?:rules?|polic(?:y|ies)|procedures?|process)\b"
)
_AND_THEN = re.compile(r"\band (?:then |also )?([a-z]+)")


@lru_cache(maxsize=CACHE)
def _only_asks_the_record(text: str) -> bool:
    """Whether a request asks what was done and nothing more: no act asked beside it, no
    asking cue, no act after an "and" ("which were cleared, and shred the rest"). Read once
    a request, not once a candidate."""
    line = normalise(text)
    return (
        asks_what_was_done(text)
        and not asks_for_the_rule(text)
        and _STILL_ASKS.search(line) is None
        and not any(infer_action_types(m.group(1)) & CHANGING for m in _AND_THEN.finditer(line))
    )


def _doing_what_was_done(c: Candidate, request: Terms, action_types: frozenset[ActionType]) -> bool:
    """Whether a current rule governs only the doing of what a request asks the record of and
    nothing more: "who okayed shredding the archive boxes, and when?" under "never tell a
    shredding vendor to go ahead until ...", whose writer named execute and not read in its
    ``governs``. The rules exclude such a rule anyway; this keeps it from the ranker and from
    the cautions. Of the rules of that kind that met a question of record in rounds 1-48
    (227 pairs of a rule and a question), one was the target. An archived or expired rule
    stays eligible: "what were we meant to do back then?" asks for it."""
    named = frozenset(c.governs.action_types) if c.governs is not None else frozenset()
    return (
        bool(named)
        and ActionType.read not in named
        and not c.historical
        and not action_types & CHANGING
        and _only_asks_the_record(request.text)
    )


def assess(c: Candidate, request: Terms, action_types: frozenset[ActionType]) -> Assessment:
    """Place one candidate in a lane (before precedence) and say why."""
    directive = read_directive(c.text)
    authority = c.kind in PLANNER_AUTHORITY_KINDS or directive.is_rule
    scope, note = _scope_of(c, request, directive, authority)
    if scope is not None and (short := under_threshold(request.text, c.text)) is not None:
        # "payments above £10,000 need a second approver" does not reach a £3,240 invoice
        scope = replace(scope, outside=short)
    if scope is not None and _doing_what_was_done(c, request, action_types):
        # a question of record is out of reach: not ranked, not a caution (as a sum is)
        scope = replace(scope, outside="it governs doing what the request asks the record of")
    lexical = match_derived(request, text=c.text, names=c.names, action_types=(), topics_only=False)
    relevance = (c.similarity or 0.0) + LEXICAL_WEIGHT * lexical.weight
    type_match = (
        scope is None
        or not scope.action_types
        or bool(scope.action_types & action_types)
        # "What's the hand-off routine?" reads the rule itself, whatever acts it governs
        or asks_for_the_rule(request.text)
    )
    aboutness = about(request.text, c.text, c.names)
    speaks_of_another = other_property(request.text, c.text)

    def result(lane: str, why: str, outcome: str = "lost") -> Assessment:
        return Assessment(
            c,
            directive,
            authority,
            scope,
            note,
            type_match,
            lane,
            relevance,
            outcome,
            why,
            aboutness,
            same_instance(request.text, " ".join([c.text, *c.names])),
            other_property=speaks_of_another,
            asked_property=same_property(request.text, c.text),
            denies_asked=denies_a_word(request.text, c.text),
        )

    if c.status in (Status.superseded, Status.retracted) and c.head is None:
        return result("none", f"{c.status.value}, with no current head", "excluded")
    if scope is None:
        if c.historical:
            return result("none", f"{c.historical}, and holds no jurisdiction", "excluded")
        return result("evidence", "evidence: holds no jurisdiction")
    if scope.in_scope and another_of_that_name(request.text, c.text):
        # its scope's words match, but its text names another one of that name
        return result("none", "out of scope: it names another one of that name", "excluded")
    if not scope.in_scope:
        if scope.excluded_by:
            why = f"out of scope: the request mentions excluded term {scope.excluded_by!r}"
        elif scope.outside:
            why = f"out of scope: {scope.outside}"
        elif scope.missing_all:
            why = f"out of scope: missing required term(s) {', '.join(scope.missing_all)}"
        elif scope.matched:
            # all of all_terms, but none of any_terms
            why = f"out of scope: it names {', '.join(scope.matched)}, but none of its any_terms"
        else:
            why = "out of scope: the request matches none of its terms"
        return result("none", why, "excluded")
    if scope.source == "governs" and (kind := other_instance(request.text, c.text)):
        # its writer's terms reach the request, but its own words name another numbered
        # one: "bed 21" for bed 12
        return result("none", f"out of scope: it names another {kind}", "excluded")
    if (pair := labelled_sibling(request.text, c.text)) is not None:
        # "Dock 3 edge router: no software changes ..." is about the router, not the
        # handhelds at the same dock that a software update is asked for
        held, asked = pair
        return result("none", f"out of scope: it is about the {held}, not the {asked}", "excluded")
    if scope.source == "derived" and not (
        aboutness.governs
        # a plain statement or decision about what the thing has answers a question about
        # the thing; a rule governs only what it is about
        or (answers_for(aboutness, action_types) and not states_a_rule(c, directive))
    ):
        # Jurisdiction is about the thing (DESIGN §3): sharing a qualifier or a generic word
        # with a rule ("south", "code") does not put a request under it.
        shared = ", ".join(scope.matched)
        return result("none", f"out of scope: shares {shared}, not what it is about", "excluded")
    if scope.source == "derived" and not action_types & CHANGING and speaks_of_another:
        # A question about the thing's place is not governed by the rule on its settings.
        return result(
            "none", "out of scope: it speaks of another property than the one asked", "excluded"
        )
    if not type_match and (
        (scope.weight < STRONG and not _exactly_its_thing(scope, aboutness))
        or scope.action_types <= {ActionType.write}
        # reading the record of an act is not doing it
        or (not action_types & CHANGING and asks_what_was_done(request.text))
    ):
        kinds = ", ".join(sorted(a.value for a in scope.action_types))
        return result("none", f"weak match, and it governs only {kinds}", "excluded")
    if without_standing(c) or c.status not in (
        Status.active,
        Status.archived,
        Status.superseded,
    ):
        return result(
            "evidence",
            f"no standing to govern ({c.status.value}, {c.epistemic_status.value}); evidence only",
        )
    if c.historical:
        return result("history", f"in scope, but {c.historical}: history")
    return result("authority", "in scope")


def precedence_rank(a: Assessment, heads: Mapping[str, Candidate]) -> tuple[object, ...]:
    """Precedence key of a lane member (bigger wins), judged on its governor's standing."""
    gov = heads.get(a.candidate.id, a.candidate)
    assert a.scope is not None
    level, exact = about_rank(a)
    return (
        gov.current,
        level,
        a.instance,
        a.strong,
        a.type_match,
        a.about.names_qualified_thing,
        _PRIORITY_RANK[gov.priority],
        exact,
        a.scope.weight,
        gov.trust,
        gov.recency,
    )


def win_reason(a: Assessment, winner: Assessment | None) -> str:
    """Why ``a`` governs, for the trace."""
    if a.lane in ("authority", "history") and a.scope is not None:
        return f"governs: in scope ({', '.join(a.scope.matched)}), first by precedence"
    if winner is not None and winner.candidate.id != a.candidate.id:
        return f"governs as the head of {winner.candidate.id}'s chain"
    if a.outcome == "excluded":
        return f"governs: the ranker's pick, though by the rules {a.why}"
    if a.by_meaning:
        return f"governs: {a.why}, with no authority in scope"
    return "governs: the most relevant evidence, with no authority in scope"


def loss_reason(a: Assessment, winner: Assessment, heads: Mapping[str, Candidate]) -> str:
    """Why ``a``, in the lane, lost to ``winner``: the first of :func:`precedence_rank`'s
    readings on which the two differ."""
    mine, theirs = precedence_rank(a, heads), precedence_rank(winner, heads)
    labels = (
        "current",
        "what it is about",
        "naming the instance asked about",
        "strong match",
        "action types match",
        "priority",
        "exactly its thing",
        "specificity",
        "trust",
    )
    for label, x, y in zip(labels, mine, theirs, strict=False):
        if x != y:
            return f"in scope, but {winner.candidate.id} wins on {label}"
    return f"in scope, but {winner.candidate.id} wins the tie (recency, then id)"


def without_standing(c: Candidate) -> bool:
    """A belief too weak to govern: floated, contested or unverified, or merely reported
    in words that say it is unsure (a label can say "reported" of hearsay)."""
    if c.epistemic_status in WITHOUT_STANDING:
        return True
    return c.epistemic_status == EpistemicStatus.reported and hedged(c.text)

"""What may answer a request no rule governs (rule 5 of :mod:`beliefgraph.planner.precedence`):
the current statements about the thing asked (for a price, one that states a price of the one
asked, not of another of its kind), or, for a plain question that no statement's words name,
the note closest to it in meaning by far.

Notes are terse and name things their own way: "Oscar - Thursday 5pm" for "when's Oscar's
lesson?", "beard trim - £8" for "how much for a beard tidy?", "Linen delivery Mon + Thurs" for
the laundry delivery. Words alone find nothing of the thing asked in them, and the nearest
text about another thing is no answer ("The dock drone code is 5080." for the dock router's).
So a note that words miss answers only

* a question that changes nothing and asks for no way in, setting or limit;
* when it is a statement, or a decision that states no rule ("Decided: second-hand planer
  rather than a new one"): a rule governs only what its words reach;
* holds nothing a hand-over would put at stake, nor a dose or a safety setting (those are
  checked, not answered);
* names no other one of a kind the question names ("Sunday yin 5pm" for the Saturday class:
  :func:`~beliefgraph.language.contrasts.another_of_its_kind`);
* and is closer in meaning than any other belief found (a chain counting as one) by a wide
  margin (:func:`nearest_by_far`), a note that cannot answer being no rival of one that may
  (another one of the kind asked beside the one asked, a note without the price or the
  property asked beside one that names the thing: :func:`_rivals`); or heads a chain of
  corrections closest of all, a superseded member of it found beside it, by any margin
  (:func:`nearest_corrected`). What a writer stored and then corrected ("the plotter is in
  2.07", then "since the refit the plotter lives in 3.14") is a thing the store keeps
  current: the question meets its old wording or its new, and the current one answers. No
  ranker moves such an answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import replace

from beliefgraph.language.aboutness import names_the_thing_asked
from beliefgraph.language.acts import CHANGING
from beliefgraph.language.contrasts import another_of_its_kind, names_the_one_asked
from beliefgraph.language.properties import (
    asked_properties,
    asks_a_price_it_lacks,
    other_property,
)
from beliefgraph.language.stakes import (
    at_stake,
    holds_a_dose,
    holds_at_stake,
    holds_safety_setting,
)
from beliefgraph.language.words import Terms
from beliefgraph.models import ActionType, Kind, Status
from beliefgraph.planner.assess import Assessment, answers_for
from beliefgraph.planner.history import record_of_the_thing

#: how close in meaning (the store's cosine score, 0 to 1) a note must be to a question that
#: no note's words name, to answer it
NEAREST_SIMILARITY = 0.70
#: and by how much closer than every other belief found
NEAREST_MARGIN = 0.11
#: how close a chain of corrections must be, where it is the closest of all
CORRECTED_SIMILARITY = 0.65
#: what a question may ask of a thing that only a note naming the thing answers: a way in,
#: its settings, a limit (the front desk drone's code is no answer for the clinic drone's)
_NOT_BY_MEANING = frozenset({"how to get in", "its settings", "how far it may go"})


def nearest_by_far(nearest: float, runner_up: float) -> bool:
    """Whether a similarity of ``nearest`` answers, the next belief at ``runner_up``."""
    return nearest >= NEAREST_SIMILARITY and nearest - runner_up >= NEAREST_MARGIN


def nearest_corrected(nearest: float) -> bool:
    """Whether a chain of corrections at a similarity of ``nearest``, the closest of all,
    answers (whatever comes next: see :func:`_nearest`)."""
    return nearest >= CORRECTED_SIMILARITY


def answering(
    request: Terms,
    action_types: frozenset[ActionType],
    assessed: MutableMapping[str, Assessment],
    superseded: Iterable[str],
) -> list[Assessment]:
    """The evidence that may answer ``request``, where no rule governs it: current statements
    (or a chain's members, ``superseded``: their heads answer) about the thing asked, or the
    note closest in meaning by far. Every other one is set aside in ``assessed``, with why."""
    members = frozenset(superseded)
    evidence = [
        a
        for a in assessed.values()
        if a.lane == "evidence" and (a.candidate.current or a.candidate.id in members)
    ]
    missed: dict[str, Assessment] = {}
    for a in evidence:
        if not answers_for(a.about, action_types):
            why = "about nothing the request names"
            missed[a.candidate.id] = a
        elif asks_a_price_it_lacks(request.text, a.candidate.text):
            why = "states no price of what is asked"  # "Kayak hire Tues, 9am start"
        elif _prices_another(request, action_types, a.candidate.text):
            why = "prices another one of the kind asked"  # "£6 per kid", asked what adults pay
        else:
            continue
        assessed[a.candidate.id] = replace(a, lane="none", outcome="excluded", why=why)
    kept = [a for a in evidence if assessed[a.candidate.id].lane == "evidence"]
    if kept or action_types & CHANGING or at_stake(request.text):
        return kept
    if record_of_the_thing(assessed.values()) is not None:
        return []  # the thing's record answers, as history
    # a decision that states no rule ("Decided: second-hand planer rather than a new one")
    # was set aside as a rule its words do not reach: as a statement, it may answer too
    missed |= {a.candidate.id: a for a in assessed.values() if _decision_words_missed(a)}
    found = _nearest(request, assessed.values(), missed)
    if found is None:
        return []
    near, how = found
    why = f"{how}, though its words do not name the thing asked"
    # taken back as evidence (a decision among them was set aside as a rule out of reach)
    near = replace(near, lane="evidence", outcome="lost", why=why, by_meaning=True)
    assessed[near.candidate.id] = near
    return [near]


def _nearest(
    request: Terms, assessed: Iterable[Assessment], missed: Mapping[str, Assessment]
) -> tuple[Assessment, str] | None:
    """The note that words missed (``missed``, as it was before it was set aside) and that
    answers ``request`` by meaning, if one does, with how it was found."""
    # a chain is one belief: a superseded one stands for its head, and is no rival of it
    chains: dict[str, float] = {}
    # heads of a chain whose superseded members were found too: what was written, found
    # again in its old words, and corrected
    corrected: set[str] = set()
    # each chain's text closest in meaning
    texts: dict[str, str] = {}
    for a in assessed:
        c = a.candidate
        if c.similarity:
            head = c.head or c.id
            if c.similarity >= chains.get(head, 0.0):
                texts[head] = c.text
            chains[head] = max(chains.get(head, 0.0), c.similarity)
            if c.head:
                corrected.add(head)
    scored = _rivals(
        request.text, sorted(((score, head) for head, score in chains.items()), reverse=True), texts
    )
    if not scored or scored[0][1] not in missed:
        return None
    near = missed[scored[0][1]]
    c = near.candidate
    runner_up = scored[1][0] if len(scored) > 1 else 0.0
    plain = (
        c.status == Status.active
        and not asked_properties(request.text) & _NOT_BY_MEANING
        and not near.directive.is_rule
        and not near.about.other
        # a dose or a safety setting held closest in meaning is checked, not answered
        # (rule 10 of beliefgraph.planner.precedence)
        and not _held_closely(c.text)
        and not another_of_its_kind(request.text, c.text)
        # nor does a note that states no price answer a question for one, however close
        and not asks_a_price_it_lacks(request.text, c.text)
    )
    if not plain:
        return None
    if c.id in corrected and nearest_corrected(scored[0][0]):
        return near, "the head of the chain of corrections closest in meaning"
    if nearest_by_far(scored[0][0], runner_up):
        return near, "the closest in meaning by far"
    return None


def _rivals(
    request: str, scored: list[tuple[float, str]], texts: Mapping[str, str]
) -> list[tuple[float, str]]:
    """``scored`` (similarity and head, closest first) without the notes that cannot answer
    ``request`` beside one that may: no rivals of it, however close.

    * A note naming another one of the kind asked ("Adult membership £40/yr") is none, where
      the closest of the rest names the one asked ("Juniors £15 a year" for the junior
      membership). Where none of the rest names it ("Birthday party package" for a family
      ticket, beside the adult and the child tickets), the crowd of its kind stands.
    * A note that states no price where a price is asked ("Spring concert 28 March, 7:30"),
      or speaks only of another property of a thing ("Free-range eggs £3.20/tray" for where
      the bread is kept) is none, where the closest names what the question asks about
      ("GF bread -> small upright freezer"). One that does not ("Dressed crab £7.50" for the
      lobster's price) is no answer beside them.

    A note that holds a dose, a safety setting or anything a hand-over puts at stake stays,
    whatever it names: closest, it is checked, not passed over.
    """

    def cannot_answer(head: str, unlike: Callable[[str, str], bool]) -> bool:
        text = texts[head]
        return unlike(request, text) and not _held_closely(text)

    rest = [(score, head) for score, head in scored if not cannot_answer(head, another_of_its_kind)]
    if rest and names_the_one_asked(request, texts[rest[0][1]]):
        scored = rest
    if not scored or not names_the_thing_asked(request, texts[scored[0][1]]):
        return scored
    return scored[:1] + [
        (score, head)
        for score, head in scored[1:]
        if not cannot_answer(head, asks_a_price_it_lacks)
        and not cannot_answer(head, other_property)
    ]


def _held_closely(text: str) -> bool:
    """Whether ``text`` holds a dose, a safety setting or anything a hand-over puts at stake."""
    return holds_at_stake(text) is not None or holds_a_dose(text) or holds_safety_setting(text)


def _prices_another(request: Terms, action_types: frozenset[ActionType], text: str) -> bool:
    """Whether a plain question for a price meets a note that prices another one of a kind
    the question names: another age, size or day ("Beginner lessons (Sun mornings) £6 per
    kid", asked what adults pay), or another number ("16-seater hire £90"). A dose is not a
    price, however "how much" asks for it."""
    return (
        "what it cost" in asked_properties(request.text)
        and not action_types & CHANGING
        and not holds_a_dose(text)
        and another_of_its_kind(request.text, text)
    )


def _decision_words_missed(a: Assessment) -> bool:
    """Whether ``a`` is a current decision that states no rule, set aside only because its
    words do not name the thing asked (not for naming another one, nor a term the request
    lacks or excludes)."""
    scope = a.scope
    return (
        a.lane == "none"
        and a.candidate.kind == Kind.decision
        and a.candidate.current
        and not a.directive.is_rule
        and scope is not None
        and scope.source == "derived"
        and scope.excluded_by is None
        and scope.outside is None
        and not scope.missing_all
        and not a.other_property
        and not a.about.other
    )

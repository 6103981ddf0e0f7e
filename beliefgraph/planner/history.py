"""History as an answer: the archived or expired record that answers a request about how things
were (rule 9 of :mod:`beliefgraph.planner.precedence`), or about a thing of which nothing
current is on record (rule 5)."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from beliefgraph.language.acts import CHANGING
from beliefgraph.language.directives import appeals_to_practice, asks_about_the_past
from beliefgraph.models import ActionClass, ActionType, Status
from beliefgraph.planner.assess import Assessment, about_rank

#: how close in meaning a record must be to a question about the past to answer it when it
#: names the thing asked in other words
_RECORD_SIMILARITY = 0.55


def history_asked(
    query: str, action_types: frozenset[ActionType], assessed: Collection[Assessment]
) -> Assessment | None:
    """The archived or expired belief that answers the request as history, if there is one
    about what it asks: the request asks how things were, or leans on a practice ("the usual
    haulier", "like before"), which, on record only as history, has ended, and no current
    prohibition forbids the act outright."""
    forbidden = any(map(_forbids, assessed))
    # "Put the purge back to how we used to do it": to act on how things were is to lean on
    # the record, as history, unless a current rule forbids the act
    asked = asks_about_the_past(query) and not (action_types & CHANGING and forbidden)
    leaned_on = appeals_to_practice(query) and not forbidden
    if not (asked or leaned_on):
        return None
    records = records_about(assessed)
    if not records and asked:
        # asked outright how things were, the record closest in meaning answers, though it
        # names the thing in other words ("A2's relief valve" for "Autoclave 2")
        records = [
            a
            for a in assessed
            if a.candidate.historical and (a.candidate.similarity or 0.0) >= _RECORD_SIMILARITY
        ]
    return _most_relevant(records)


def _forbids(a: Assessment) -> bool:
    """Whether ``a`` is a current prohibition on exactly the request's act: what a record of
    the practice it leans on cannot set aside."""
    hint = a.candidate.allowed_action
    return (
        a.lane == "authority"
        and a.candidate.current
        and a.strong
        and a.type_match
        and (hint or a.directive.action) == ActionClass.block
    )


def records_about(assessed: Iterable[Assessment]) -> list[Assessment]:
    """The archived or expired beliefs about the thing the request names."""
    return [a for a in assessed if a.candidate.historical and a.about.governs]


def record_of_the_thing(assessed: Iterable[Assessment]) -> Assessment | None:
    """The archived or expired statement about the thing the request names, set aside only for
    being history (no scope the request misses, no chain it was superseded in), that answers
    as history where nothing current is about the thing (rule 5 of
    :mod:`beliefgraph.planner.precedence`); the most relevant of them."""
    records = [
        a
        for a in records_about(assessed)
        if a.scope is None and a.candidate.status not in (Status.superseded, Status.retracted)
    ]
    return _most_relevant(records)


def _most_relevant(records: list[Assessment]) -> Assessment | None:
    """The record most about the thing asked, then the most relevant; ties by id."""
    records.sort(key=lambda a: a.candidate.id)
    records.sort(key=lambda a: (about_rank(a), a.instance, a.relevance), reverse=True)
    return records[0] if records else None

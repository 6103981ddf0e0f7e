"""A note's label: the thing it opens with before a colon ("Dock 3 edge router: no software
changes outside the Sunday window"), and the request's other thing beside it."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from beliefgraph.language.things import Thing, compounds
from beliefgraph.language.words import Terms, clauses
from beliefgraph.text import word_set

#: a note that opens with what it is about, then a colon ("Dock 3 edge router: no changes
#: outside the window"), perhaps after a shout ("HARD STOP. Bed 14: ..."); the label is read
#: from the first 120 characters only
_LABEL = re.compile(r"^(?:.*?[.!?]\s+)?([^.!?:\n]{2,80}?)\s*:\s")
#: a gloss in brackets: what the label's thing is ("Tool & Die (the Kessler machining shop)")
_GLOSS = re.compile(r"\([^)]*\)")


@lru_cache(maxsize=8192)
def _named_things(text: str) -> tuple[Thing, ...]:
    """The things ``text`` names, its numbers left out ("dock 3 edge router" is a router of
    the dock; that it is dock 3 is :func:`other_instance`'s to compare)."""
    return tuple(
        t
        for piece in clauses(text)
        for t in compounds(tuple(w for w in piece if not w.isdigit()))
        if not t.generic
    )


@lru_cache(maxsize=8192)
def labelled_sibling(request: str, belief: str) -> tuple[Thing, Thing] | None:
    """The thing a belief's label names and the request's other thing beside it, when the
    two share a qualifier but not their head, or ``None``.

    A note that opens with its thing ("Dock 3 edge router: no software changes outside the
    Sunday window") is about that thing, whatever its body shares with the request: "the
    software update on the dock 3 handhelds" is about the handhelds at the same dock, a
    sibling, not the router.

    >>> [str(t) for t in labelled_sibling("Update the dock 3 handhelds tonight.",
    ...                                   "Dock 3 edge router: no software changes.")]
    ['dock edge router', 'dock handheld']
    >>> labelled_sibling("Update the dock 3 router tonight.", "Dock 3 edge router: no changes.")
    """
    label = _LABEL.match(belief[:120])
    if label is None:
        return None
    # a gloss in brackets says what the label's thing is ("Tool & Die (the Kessler machining
    # shop)"): it names no other thing beside it, though its words are still the label's
    labelled = _named_things(_GLOSS.sub(", ", label.group(1)))
    asked = Terms.of(request)
    request_things = _named_things(request)
    label_words = {w for t in _named_things(label.group(1)) for w in t.words}
    # a name is no kind of thing: "Halvorsen Emballasje: ..." is a supplier, not a sibling of
    # "Halvorsen's invoice" (another of that name is told apart elsewhere)
    named = _names_in(label.group(1))
    for held in labelled:
        if not held.qualifiers or held.head in named or asked.has(held.head):
            continue
        # "Delgado-Ruiz" is "Delgado Ruiz" written with a hyphen
        joined = {
            "".join(held.words[i:j])
            for i in range(len(held.words))
            for j in range(i + 2, len(held.words) + 1)
        }
        for thing in request_things:
            if (
                thing.head != held.head
                and thing.head not in label_words
                and thing.head not in joined
                and held.qualifiers & (thing.qualifiers | {thing.head})
            ):
                return held, thing
    return None


#: a capitalised word after the first of a label: part of a name ("Halvorsen Emballasje")
_PROPER = re.compile(r"(?<=\w[ -])([A-Z][a-z]+)\b")
_WORD = re.compile(r"[A-Za-z]{3,}")


def _names_in(label: str) -> set[str]:
    """The words a label capitalises as parts of a name; none when it capitalises every
    word ("Dock 3 Edge Router" is written in title case, not a name)."""
    capitalised = _PROPER.findall(label)
    if all(w[0].isupper() for w in _WORD.findall(label)):
        return set()
    return {w.lower() for w in capitalised}


#: labels that say how to read a note, not what it lists ("Urgent: the front door lock")
_NOT_OWNERS = word_set("urgent reminder fyi update important note nb ps todo warning heads")


@lru_cache(maxsize=8192)
def members(belief: str) -> tuple[Thing, ...]:
    """The things a labelled note's body names, as things of its label's: "Raffle: £1 a
    ticket" prices a raffle ticket, "Bins: black Tues, recycling Thurs" names the black bin.

    >>> [str(t) for t in members("Raffle: £1 a ticket or 6 for £5")]
    ['raffle ticket']
    """
    label = _LABEL.match(belief[:120])
    if label is None:
        return ()
    owners = _named_things(_GLOSS.sub(", ", label.group(1)))
    if (
        len(owners) != 1
        or owners[0].attributes
        or len(owners[0].words) > 1
        or owners[0].head in _NOT_OWNERS
    ):
        return ()  # a heading, not a list of its members ("Office Wi-Fi password: ...")
    [owner] = owners
    found = []
    for piece in clauses(belief[label.end() :]):
        for t in compounds(piece):
            if t.generic or t.head == owner.head:
                continue
            found.append(
                replace(
                    t,
                    qualifiers=t.qualifiers | set(owner.words),
                    words=owner.words + t.words,
                    nearest_qualifier=t.nearest_qualifier or owner.head,
                    indefinite=False,
                )
            )
    return tuple(found)

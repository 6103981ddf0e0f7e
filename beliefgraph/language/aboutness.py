"""How a request's things meet a belief's: the same thing, its class, a mention, or none.

A rule governs a request only when the request is about what the rule is about (DESIGN §3):
its head thing, not any shared word. :func:`about` reads both texts' things
(:mod:`beliefgraph.language.things`) and says how they meet.

>>> about("What is the dock router code?", "The dock drone code is 5080.").level
'none'
>>> about("Can I change the annex contract settings?", "Any change to the annex contract "
...       "must be approved by legal.").level
'same'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from beliefgraph.language.instances import other_instance
from beliefgraph.language.labels import members
from beliefgraph.language.names import another_of_that_name
from beliefgraph.language.things import Thing, compounds_of, things
from beliefgraph.language.words import (
    DAY_AND_MONTH_NAMES,
    QUESTION_WORDS,
    SAME_WORD,
    STOPWORDS,
    clauses,
    words,
)
from beliefgraph.text import word_set


@dataclass(frozen=True)
class Aboutness:
    """How a request's things meet a belief's.

    ``level``: ``same`` - a thing of the request is a thing of the belief (the same head,
    qualifiers that do not name another one); ``class`` - the belief speaks of the request's
    thing as a class (it names the head unqualified, or only the attribute asked for:
    "passwords" for "the office wifi password"); ``mention`` - the belief names the request's
    thing only as a qualifier of something else ("the Riverside invoice" for "Riverside");
    ``none`` - nothing the request is about. ``matched`` names the heads that met. ``other``
    marks a ``none`` that names another one of the request's thing (another qualifier,
    number or name of the same head).
    """

    level: str
    matched: tuple[str, ...] = ()
    #: a thing of the belief has exactly the request's qualifiers ("west wing kiosk", not
    #: "west kiosk")
    exact: bool = False
    #: the belief names a qualified thing of the request by a qualifier of it ("the Year 10
    #: history coursework"), not only unqualified words ("a parent")
    names_qualified_thing: bool = False
    #: the belief names another one of the request's thing ("the east boiler" for "the west
    #: boiler", "Plot 12" for "Plot 14"): about it, it says nothing
    other: bool = False
    #: a ``mention`` that names the request's thing, asked of as a whole (no property of it,
    #: no place), as what the belief's own thing belongs to: "the boat hire" for "the boat",
    #: "the dock boards" for "the dock" - enough to answer a question, not to govern an act
    part_of: bool = False

    @property
    def governs(self) -> bool:
        """Whether this is enough for a rule's jurisdiction."""
        return self.level in ("same", "class")


_LEVELS = ("same", "class", "mention", "none")
#: a belief about nothing the request names
NOTHING = Aboutness("none")
#: a belief about another one of the request's thing
ANOTHER = Aboutness("none", other=True)


def _agree(asked: frozenset[str], held: frozenset[str]) -> bool:
    # Two qualified things with the same head are one thing only when one's qualifiers
    # include the other's: "east wing server" is not the "west wing server", nor the "dock
    # router" the "north router"; an unqualified side is the class.
    return asked <= held or held <= asked


def _same_kind(asked: Thing, held: Thing) -> bool:
    """Whether two things with one head are the same thing: qualifiers that agree, and the
    same qualifier next to the head where both have one. The nearest qualifier says what
    kind of it this is; words further left only narrow it: "the main office wifi" is the
    office wifi, but "the lobby truck alarm" is no lobby alarm, nor "the west wing badge"
    the west badge."""
    if not _agree(asked.qualifiers, held.qualifiers):
        return False
    if held.indefinite or asked.nearest_qualifier is None or held.nearest_qualifier is None:
        return True  # "an outside partner" is any partner outside
    if asked.nearest_qualifier == held.nearest_qualifier:
        return True
    # A size or a model written with digits names the kind on its own: "the A3 colour
    # printer" is the A3 printer, "12oz takeaway cups" the 12oz cups; and a time of day put
    # in before the head only says when: the "Thursday evening session" is the Thursday one.
    return asked.qualifiers <= held.qualifiers and (
        _size_or_model(asked.nearest_qualifier) or held.nearest_qualifier in _TIMES_OF_DAY
    )


def _size_or_model(word: str) -> bool:
    return any(ch.isdigit() for ch in word) and any(ch.isalpha() for ch in word)


def _swapped(asked: frozenset[str], held: frozenset[str]) -> bool:
    # One qualifier put in place of another: "annex truck" / "north truck", "west wing
    # server" / "east wing server". More differences than one say less (a verb or a
    # description read as a qualifier), and do not make another thing; but another day
    # does, whatever else differs ("the Wednesday morning session", "Thurs evening session").
    if (asked - held) & DAY_AND_MONTH_NAMES and (held - asked) & DAY_AND_MONTH_NAMES:
        return True
    return len(asked - held) == 1 and len(held - asked) == 1


def sibling(asked: tuple[Thing, ...], held: tuple[Thing, ...]) -> Thing | None:
    """A thing of the request of which ``held`` names only another of its kind (the north
    truck for the annex truck, the east wing server for the west wing server), or ``None``:
    such a belief is about the sibling, whatever else the two share."""
    for a in asked:
        if not a.qualifiers or a.generic:
            continue
        kin = [h for h in held if h.head == a.head and not h.generic]
        if any(h.quantified or _same_kind(a, h) for h in kin):
            continue
        if any(_swapped(a.qualifiers, h.qualifiers) for h in kin):
            return a
    return None


#: the times of a day ("the Thursday evening session")
_TIMES_OF_DAY = word_set("morning afternoon evening night")

#: what names a time, not a thing that has parts ("Thursday evening", "the weekend")
_WHEN = DAY_AND_MONTH_NAMES | _TIMES_OF_DAY | {"weekend"}


def _when_named(asked: tuple[Thing, ...], held: tuple[Thing, ...]) -> tuple[Thing, ...]:
    """``asked`` without the days and months ``held`` names on their own: "the Sunday dinner"
    is the dinner that "House dinner every Sunday" speaks of."""
    named = {h.head for h in held if h.head in DAY_AND_MONTH_NAMES}
    out = []
    for a in asked:
        when = a.qualifiers & named
        # not where it names the thing with another day: "The Sunday class starts 5pm,
        # Saturday we rest" is about the Sunday class, not the Saturday one
        other_day = any(
            h.head == a.head and (h.qualifiers & DAY_AND_MONTH_NAMES) - a.qualifiers for h in held
        )
        if when and not other_day and a.head not in DAY_AND_MONTH_NAMES:
            nearest = None if a.nearest_qualifier in when else a.nearest_qualifier
            a = replace(a, qualifiers=a.qualifiers - when, nearest_qualifier=nearest)
        out.append(a)
    return tuple(out)


def about_things(asked: tuple[Thing, ...], held: tuple[Thing, ...], asking: int = 0) -> Aboutness:
    """How ``held`` (a belief's things) meets ``asked`` (a request's), whose question opens at
    ``asked[asking]`` (after a greeting: "Hi Sam, what time is the boat booked for?")."""
    asked = _when_named(asked, held)
    if sibling(asked, held) is not None:
        return ANOTHER
    best, matched, exact, qualified, part_of = "none", [], False, False, False
    heads = {h.head for h in held}
    names_a_thing_asked = any(a.head in heads for a in asked if not a.placed and not a.generic)
    # What the request asks of first: "the ferry", not the harbour it leaves, nor the
    # interval the ice cream is sold in; but a thing of another's ("a child's ticket on the
    # boat trip") asks of both.
    main = next(
        (a for a in asked[asking:] if not a.generic and not a.is_speaker and a.head not in _WHEN),
        None,
    )
    if main is not None and main.linked:
        main = None
    for a in asked:
        level = "none"
        for h in held:
            if a.head == h.head and _same_kind(a, h):
                if a.qualifiers and not h.qualifiers:
                    if not h.indefinite:
                        # "terminals", "the terminal": the class; "a new terminal" is one
                        # terminal, not the workshop terminal asked about
                        level = _better(level, "class")
                    continue
                if a.placed and not names_a_thing_asked:
                    # where the request's thing is, not the thing: "the dock 3 router" for
                    # "the drone at dock 3"
                    level = _better(level, "mention")
                    continue
                level = "same"
                exact = exact or a.qualifiers == h.qualifiers
                qualified = qualified or (bool(a.qualifiers & h.qualifiers) and not a.is_speaker)
            elif h.generic and (h.head == a.head or h.head in a.attributes):
                level = _better(level, "class")
            elif (
                a.head in h.qualifiers
                and not a.generic
                and _agree(a.qualifiers, h.qualifiers_of(a.head))
            ):
                level = _better(level, "mention")
                part_of = part_of or not (
                    (main is not None and a is not main)
                    or a.attributes
                    or a.placed
                    or a.is_speaker
                    or a.head in _WHEN
                    # "the server room" has no part of the mezzanine server
                    or not a.qualifiers <= h.qualifiers_of(a.head)
                )
                # "the payment dashboard roles" names the payment dashboard asked about
                qualified = qualified or (
                    bool(a.qualifiers & h.qualifiers_of(a.head)) and not a.is_speaker
                )
        if level != "none":
            matched.append(a.head)
            best = _better(best, level)
    part_of = part_of and best == "mention"
    return Aboutness(best, tuple(dict.fromkeys(matched)), exact, qualified, part_of=part_of)


def _better(x: str, y: str) -> str:
    return x if _LEVELS.index(x) <= _LEVELS.index(y) else y


def about(request: str, belief: str, names: tuple[str, ...] = ()) -> Aboutness:
    """How a request meets a belief's text and the names of what it is about."""
    if other_instance(request, belief) is not None:
        return ANOTHER
    if another_of_that_name(request, belief):
        return ANOTHER  # "Kessler Metallbau KG" for "Kessler Metals": another one
    return _about(request, belief, tuple(names))


@lru_cache(maxsize=8192)
def _about(request: str, belief: str, names: tuple[str, ...]) -> Aboutness:
    req = _one_word(clauses(request))
    # Names are things on their own: "riverside" in ``about`` is not a qualifier.
    text = _one_word(clauses(belief) + tuple(words(n) for n in names if words(n)))
    req_words = tuple(w for piece in req for w in piece)
    text_words = tuple(w for piece in text for w in piece)
    held = compounds_of(text, req_words) + members(belief)
    pieces = [compounds_of((piece,), text_words) for piece in req]
    # the clause that asks ("Hi Sam, what time is ..."), else the first
    asking = next((n for n, piece in enumerate(req) if QUESTION_WORDS & set(piece)), 0)
    before = sum(len(p) for p in pieces[:asking])
    return about_things(tuple(t for p in pieces for t in p), held, before)


def _one_word(pieces: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(SAME_WORD.get(w, w) for w in piece) for piece in pieces)


def names_the_thing_asked(request: str, text: str) -> bool:
    """Whether ``text`` names a thing ``request`` asks about: its head word (plurals folded),
    qualified in ``text``, where a word stands before it, only by one of the request's own
    words or by the initials of one ("GF bread -> small upright freezer" for where the
    gluten-free bread is kept). Another qualifier names another one ("Sourdough bread ->
    bread bin"), and a thing the request names as a place is not what it asks about ("the
    drone at dock 3" in "Dock 3 router: shelf B").

    >>> names_the_thing_asked("where's the gluten-free bread kept", "GF bread -> freezer")
    True
    >>> names_the_thing_asked("where's the gluten-free bread kept", "Sourdough bread -> bin")
    False
    >>> names_the_thing_asked("How much is the goat's milk yoghurt?", "Goat milk 1L £2.40")
    False
    """
    own = set(words(request)) | _initials(request)
    said = words(text)
    for thing in things(request):
        if thing.generic or thing.placed:
            continue
        for i, word in enumerate(said):
            before = said[i - 1] if i else None
            if word == thing.head and (
                before is None or before in STOPWORDS or (before != word and before in own)
            ):
                return True
    return False


#: a word of hyphenated parts: "gluten-free", "on-call"
_HYPHENATED = re.compile(r"\b[A-Za-z]+(?:-[A-Za-z]+)+\b")


def _initials(text: str) -> frozenset[str]:
    """The initials of each hyphenated word of ``text`` ("gf" of "gluten-free")."""
    return frozenset(
        "".join(part[0] for part in m.group(0).lower().split("-"))
        for m in _HYPHENATED.finditer(text)
    )

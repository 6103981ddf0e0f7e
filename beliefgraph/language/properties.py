"""Which property of a thing a text asks about or states (its code, cost, schedule, ...)."""

from __future__ import annotations

import re
from functools import lru_cache

from beliefgraph.language.thresholds import sums

# -- which property of a thing ---------------------------------------------------------------

#: cues by which a text speaks of one property of a thing, and a question asks for it
_PROPERTIES = {
    "where it is": re.compile(
        r"\b(?:where|which room|located|location|kept|lives|moved|relocated|stored)\b"
    ),
    "what it cost": re.compile(
        r"(?:[$\u20ac\u00a3]\s?\d|\b(?:price|cost|costs|paid|pay|spent|bought|fee|how much)\b)"
    ),
    "when it is serviced": re.compile(r"\b(?:serviced|service|servicing|maintenance|how often)\b"),
    "how to get in": re.compile(
        r"\b(?:code|password|passcode|pin|combination|get into|unlock|log ?in)\b"
    ),
    "what is preferred": re.compile(r"\b(?:prefer|preference|like|likes|favourite|go-to)\b"),
    "its settings": re.compile(r"\b(?:settings|configuration|config)\b"),
    "where to connect": re.compile(r"\b(?:host|hostname|port|url|endpoint|ip)\b"),
    "how far it may go": re.compile(
        r"\b(?:torque|nm|tighten\w*|done up to|maximum|max|limit|capacity|rated|psi|bar)\b"
    ),
}


@lru_cache(maxsize=8192)
def properties(text: str) -> frozenset[str]:
    """Which properties of a thing ``text`` speaks of (its place, cost, servicing, access,
    who prefers it, its settings): a question asks for them, a belief states them.

    >>> sorted(properties("Where can I find the dock phone?"))
    ['where it is']
    >>> sorted(properties("Before editing the dock phone settings, check with IT."))
    ['its settings']
    """
    line = text.lower()
    return frozenset(name for name, cue in _PROPERTIES.items() if cue.search(line))


#: where one sentence of a request ends (a colon does not: "the caller asks: where is it?"
#: is one question with its context)
_QUESTION_BREAK = re.compile(r"(?<=[.?!;])\s+")
_QUESTION = re.compile(r"\?|\b(?:what|whats|where|which|when|how|who)\b", re.IGNORECASE)


@lru_cache(maxsize=8192)
def asked_properties(request: str) -> frozenset[str]:
    """The properties a request asks for: those its questions name (the context around a
    question - "the caller passed the PIN check" - asks for nothing)."""
    questions = [s for s in _QUESTION_BREAK.split(request) if _QUESTION.search(s)]
    return properties(" ".join(questions)) if questions else frozenset()


def other_property(request: str, belief: str) -> bool:
    """Whether ``belief`` speaks only of other properties than the ones ``request`` asks
    for ("the dock phone's PIN" for "where is the dock phone?")."""
    asked, held = asked_properties(request), properties(belief)
    return bool(asked and held and not asked & held)


def same_property(request: str, belief: str) -> bool:
    """Whether ``belief`` speaks of a property ``request`` asks for ("the dock phone is
    kept in the loading bay" for "where is the dock phone?")."""
    return bool(asked_properties(request) & properties(belief))


#: a question for a price: "how much is/are ...", "what does it cost", "what do we charge";
#: not "how much notice", "by how much", "how much did the nurse say" or "what do I run it at"
_ASKS_A_PRICE = re.compile(
    r"\bhow much (?:is|are|was|were)\b"
    r"|\b(?:how much|what) (?:does|do|did|will|would) (?:[\w'-]+ ){0,6}?(?:cost|charge|pay)\b"
    r"|\b(?:price|cost|fee|charge) (?:of|for)\b",
    re.IGNORECASE,
)
#: a price that :func:`~beliefgraph.language.thresholds.sums` does not read as a sum: pence,
#: crowns, a figure run into its unit ("£68pp"), or none at all ("free", "no charge")
_SMALL_PRICE = re.compile(
    r"[$\u20ac\u00a3]\d|\b\d+(?:[.,]\d+)?\s?(?:p|pence|kr)\b|\bfree\b|\bno charge\b", re.I
)


def asks_a_price_it_lacks(request: str, belief: str) -> bool:
    """Whether ``request`` asks what something costs and ``belief`` states no sum of money
    ("Kayak hire Tues, 9am start" for "how much is the kayak hire?"): it cannot answer."""
    questions = [s for s in _QUESTION_BREAK.split(request) if _QUESTION.search(s)]
    states_one = bool(sums(belief)) or _SMALL_PRICE.search(belief) is not None
    return any(_ASKS_A_PRICE.search(q) for q in questions) and not states_one

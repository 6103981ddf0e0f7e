"""Numbered instances a text names: "freezer 2", "dock 4", "Year 10", a code "P-40".

A belief that names only another numbered one of a kind the request names ("freezer 3" for
"freezer 2") is about another thing, whatever words the two share.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

from beliefgraph.language.values import ORDINAL_WORDS
from beliefgraph.language.verbs import is_act
from beliefgraph.language.words import STOPWORDS, clauses, words
from beliefgraph.text import word_set

#: words after a number that make it a quantity, not the name of one of a kind ("12 IU")
_UNITS = word_set(
    """
    iu mg mcg ml kg mm cm km am pm pc pct percent gb mb tb kw kwh psi bar hr hrs min
    mins st nd rd th
    """
)
#: words before a number that make it a time, not the name of one of a kind
_TIME_WORDS = word_set(
    """
    jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june
    july august september october november december mon tue wed thu fri sat sun monday
    tuesday wednesday thursday friday saturday sunday since until from after before by
    """
)


#: a kind named by a capital letter ("Block C", "Dock B"); "I" is no letter of a kind
_LETTERED = re.compile(r"\b([A-Za-z][a-z]+)[ \t]+([A-HJ-Z])\b(?![-'\u2019]\w)")

#: "the second line" is line 2, "the 3rd floor" floor 3
_ORDINALS = {w: str(i) for i, w in enumerate(ORDINAL_WORDS[:9], start=1)}
_NUMBERED = re.compile(r"\d+(?:st|nd|rd|th)")
_YEAR = re.compile(r"(?:19|20)\d\d")
#: "first signed", "3 ordered": a verb's form, no kind of thing ("bed 12", "shed 3" are kinds)
_VERB_FORM = re.compile(r"^\w{3,}(?:ed|ing)$")

#: a code of letters then digits ("P-40", "FV4", "CHG-2291") or a number then letters ("8R"
#: for a class), read once punctuation is gone
_LETTERS_DIGITS = re.compile(r"([a-z]+)(\d+)")
_DIGITS_LETTERS = re.compile(r"(\d+)([a-z]{1,3})")
#: letters after a number that count or size it ("2x", "5k", "4g", "90s")
_COUNTED = frozenset({"x", "k", "g", "s", "m", "d", "h", "y", "w", "p", "v", "t"})


def _code(token: str) -> tuple[str, str] | None:
    """A model or class code as a kind and its instance: "p40" is instance "40" of the P
    codes, so "P-60" is another one; "8r" is instance "r" of the codes of 8, so "8RL" is
    another class. A quantity ("20mg", "10am", "3rd", "5k") is no code."""
    if m := _LETTERS_DIGITS.fullmatch(token):
        return m.group(1) + "#", m.group(2)
    m = _DIGITS_LETTERS.fullmatch(token)
    if m and m.group(2) not in _UNITS and m.group(2) not in _COUNTED:
        return "#" + m.group(1), m.group(2)
    return None


#: function words that are also kinds of numbered thing ("Lot 7", "Year 10")
_NUMBERED_KINDS = frozenset({"lot", "block", "part", "unit", "year"})
#: a kind written short, as a code ("Y4") or a word ("Yr 4"): both are Year 4
_SHORT_KINDS = {"y#": "year", "yr#": "year", "yr": "year"}


@lru_cache(maxsize=8192)
def instances(text: str) -> dict[str, frozenset[str]]:
    """The numbered instances ``text`` names, by kind: "freezer 2", "dock 4", "Year 10"
    give ``{"freezer": {"2"}, "dock": {"4"}, "year": {"10"}}``, and a code "P-40" gives
    ``{"p#": {"40"}}``; a number that measures ("12 IU", "28 tablets") or dates ("Nov 20")
    names no instance.

    >>> instances("Freezer 3 shelf C, dock 4 gate; 12 IU on Nov 20")
    {'freezer': frozenset({'3'}), 'dock': frozenset({'4'}), 'shelf': frozenset({'c'})}
    """
    found: dict[str, set[str]] = {}
    pieces = clauses(text)
    for piece in pieces:
        for i in range(1, len(piece)):
            kind, number = piece[i - 1], piece[i]
            following = piece[i + 1] if i + 1 < len(piece) else ""
            if not any(ch.isdigit() for ch in number) or not any(ch.isalpha() for ch in kind):
                continue
            if (
                (kind in STOPWORDS and kind not in _NUMBERED_KINDS)
                or kind in _TIME_WORDS
                or any(ch.isdigit() for ch in kind)
                or _YEAR.fullmatch(number)
                or _VERB_FORM.search(kind)
            ):
                continue  # "signed 2019" is a date, "Line 3" a line
            plural = following.endswith("s") and not following.endswith("ss")
            if following in _UNITS or (plural and len(following) > 3):
                continue
            found.setdefault(_SHORT_KINDS.get(kind, kind), set()).add(number)
    for piece in pieces:
        for first, kind in itertools.pairwise(piece):
            nth = _ORDINALS.get(first) or (first[:-2] if _NUMBERED.fullmatch(first) else None)
            if nth and kind not in STOPWORDS and kind.isalpha() and not _VERB_FORM.search(kind):
                found.setdefault(kind, set()).add(nth)  # "the second line": line 2
    for piece in pieces:
        for token in piece:
            if code := _code(token):
                kind, number = code
                found.setdefault(_SHORT_KINDS.get(kind, kind), set()).add(number)
    for m in _LETTERED.finditer(text):
        named = words(m.group(1))
        if (
            named
            and (named[-1] in _NUMBERED_KINDS or named[-1] not in STOPWORDS)
            and not is_act(named[-1])
        ):
            found.setdefault(named[-1], set()).add(m.group(2).lower())
    return {kind: frozenset(numbers) for kind, numbers in found.items()}


def other_instance(request: str, belief: str) -> str | None:
    """The kind of which ``belief`` names only other numbered instances than ``request``
    ("freezer 3" for "freezer 2"), or ``None``: it is then about another thing, whatever
    words the two share."""
    held = instances(belief)
    asked = instances(request)
    parts = {x for part in _PARTS for x in asked.get(part, frozenset())}
    for kind, numbers in asked.items():
        if kind in held and not any(_one_number(a, h, parts) for a in numbers for h in held[kind]):
            return kind
    return None


#: what a letter after a number can name in a request ("section B" of "CHEM 101-B")
_PARTS = ("section", "part", "group", "class", "set", "stream")


def _one_number(a: str, b: str, parts: set[str]) -> bool:
    """Whether two instance numbers are one: equal, or one the other with a letter after it
    that the request names as a part (``parts``: "CHEM 101-B" for "Chem 101 section B"; flat
    3B is not flat 3)."""
    short, long_ = sorted((a, b), key=len)
    letter = long_[len(short) :]
    return a == b or (long_.startswith(short) and letter.isalpha() and letter in parts)


def same_instance(request: str, belief: str) -> bool:
    """Whether ``belief`` names a numbered instance the request names ("Plot 14")."""
    held = instances(belief)
    return any(
        held.get(kind, frozenset()) & numbers for kind, numbers in instances(request).items()
    )

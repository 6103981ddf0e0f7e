"""Words that tell one of a kind from another: a note that names another day, size, age or
number than the one asked names another one of the thing ("Sunday yin 5pm" for the Saturday
class, "16-seater MOT" for the 8 seater's), whatever else it shares with the question."""

from __future__ import annotations

import re

from beliefgraph.language.values import NUMBER_WORDS, SPELLED
from beliefgraph.language.words import SAME_WORD, STOPWORDS, words
from beliefgraph.text import word_set

#: words that tell one of a kind from another of it: a note that names one of a set and not
#: the one asked names another ("Sat opening" for the Sunday hours, "Opening day" for closing
#: day, "Adult day pass" for the student one); days and months as :data:`SPELLED` writes them
_CONTRASTS = tuple(
    word_set(line)
    for line in (
        "mon tue wed thu fri sat sun weekday weekend",
        "january february march april june july august september october november december",
        "spring summer autumn winter",
        "morning afternoon evening",
        "adult junior senior child student family concession youth infant toddler",
        "men women ladies gents boy girl",
        "opening closing",
        "indoor outdoor",
        "upstairs downstairs",
        "front back",
        "single double twin",
        "full partial half",
        "small medium large",
    )
)
#: other words notes use for one of a contrast, beside a day or a month however written
#: (:data:`SPELLED`) and everyday words for one thing (:data:`SAME_WORD`: "kid", "big")
_OTHER_WORDS = {"fall": "autumn", "little": "small"}


def _one_of(word: str) -> str:
    """``word`` as the contrast sets write it ("Weds" and "wednesday" are "wed", "big" is
    "large")."""
    return SPELLED.get(word, SAME_WORD.get(word, _OTHER_WORDS.get(word, word)))


#: a number that says which one: written next to a word ("8 seater", "16-seater", "4-bed",
#: "20 inch"), not a reading or a sum ("0.6 bar", "£90"), a time ("7pm") or a date ("1st")
_WHICH = re.compile(
    r"(?<![\d.,:£$€])\b(\d+|"
    + "|".join(w for w in NUMBER_WORDS if w not in ("zero", "one"))
    + r")[ -]?(?!(?:am|pm|st|nd|rd|th|p|k)\b)([a-z]+)"
)


def another_of_its_kind(request: str, belief: str) -> bool:
    """Whether ``belief`` names another one of a kind the request asks of: another of a set of
    words that tell one from another (another day, season, age, size, side; :data:`_CONTRASTS`),
    and not the request's, or other numbers only ("16-seater" for the 8 seater). Looser than a
    ``none`` that is ``other``: enough to keep a note words miss from answering by its meaning
    alone.

    >>> another_of_its_kind("how much is a partial denture?", "Full acrylic denture £160")
    True
    >>> another_of_its_kind("what time is Thursday training", "Tuesday training 7.30-9pm")
    True
    >>> another_of_its_kind("When's the 8 seater's MOT due?", "16-seater MOT end of June")
    True
    >>> another_of_its_kind("What time's the Wednesday swim?", "Wed dawn swim - 7am")
    False
    """
    asked, held = _contrast_words(request), _contrast_words(belief)
    for kind in _CONTRASTS:
        named, said = kind & asked, kind & held
        if named and said and not named & said:
            return True
    numbers, held_numbers = _numbers(request), _numbers(belief)
    return bool(numbers and held_numbers and not numbers & held_numbers)


def names_the_one_asked(request: str, belief: str) -> bool:
    """Whether ``belief`` names the one of a kind the request asks of, by the word or the
    number that tells it from the others of its kind ("Juniors £15 a year" for the junior
    membership, "2 hr lesson - £72" for a two-hour one).

    >>> names_the_one_asked("how much is junior membership?", "Juniors £15 a year")
    True
    >>> names_the_one_asked("How much is a family ticket?", "Birthday party package - £150")
    False
    """
    asked, held = _contrast_words(request), _contrast_words(belief)
    if any(kind & asked & held for kind in _CONTRASTS):
        return True
    return bool(_numbers(request) & _numbers(belief))


def _contrast_words(text: str) -> frozenset[str]:
    """The words of ``text`` as the contrast sets write them (:func:`_one_of`)."""
    return frozenset(_one_of(w) for w in words(text))


def _numbers(text: str) -> frozenset[str]:
    """The numbers ``text`` says which one by, in digits: "16-seater" 16, "four-bed" 4."""
    found = (m.group(1) for m in _WHICH.finditer(text.lower()) if m.group(2) not in STOPWORDS)
    return frozenset(NUMBER_WORDS.get(n, n) for n in found)

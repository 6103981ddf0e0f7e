"""One tokenizer for everything that compares words: governs terms, entity keys, queries.

Sharing it is what makes "Wi-Fi", "wifi" and "WiFi" the same term everywhere, and lets a
multi-word term ("heart pill") match a query as a phrase.

>>> tokenize("Mom's Wi-Fi password")
['mom', 'wifi', 'password']
>>> entity_key("Heart pill")
'heart_pill'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

# A hyphen or apostrophe *inside* a word joins it ("wi-fi" -> "wifi"); a trailing
# possessive is dropped ("mom's" -> "mom") because it never changes what is meant.
_POSSESSIVE = re.compile("(\\w)['\u2019]s\\b")
_JOINERS = re.compile("(?<=\\w)[-'\u2019.](?=\\w)")
_NON_WORD = re.compile(r"[^a-z0-9]+")

#: how a correction opens ("Actually, …", "Correction: …"), as the extractor spots one and
#: the classifier cuts it off the attribute: a pattern to embed, case-insensitive
CORRECTION_OPENING = (
    r"(?:actually|correction|update(?=\s*[:,;-])|scratch that|to correct|sorry,?\s+i meant|"
    r"i meant)\b"
)


def fold(text: str) -> str:
    """Lower-case and strip accents, so "Café" and "cafe" compare equal."""
    if text.isascii():  # nothing to decompose: skip the per-character pass (search is hot)
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def tokenize(text: str) -> list[str]:
    """Split text into normalised word tokens, in order (duplicates kept).

    snake_case and kebab-case names split into words only where an underscore or space
    separates them; "wi-fi" joins into "wifi".
    """
    text = _POSSESSIVE.sub(r"\1", text)
    text = fold(_JOINERS.sub("", text))
    return [t for t in _NON_WORD.split(text.replace("_", " ")) if t]


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text``: word lists read better as prose than as
    hundreds of quoted strings."""
    return frozenset(text.split())


#: function words (articles, pronouns, auxiliaries, prepositions, conjunctions) that no
#: comparison in the project counts; each stop-word list adds what its own comparison must
#: also ignore (the gate's, the planner's, search's)
FUNCTION_WORDS = word_set(
    """
    a about again all am an and any are as at be been being both but by can could did do
    does each for from further had has have having he her here him his how i if in into is
    it its just me might more most must my now of off on once one or other our out over own
    same she should so some such than that the their them then there these they this those
    to too under up us very was we were what when where which who whom whose why will with
    would you your
    """
)
#: words that flip a statement's polarity
NEGATIONS = word_set(
    """not no never none nobody nothing neither nor cannot cant dont doesnt didnt isnt arent
    wasnt werent wont wouldnt shouldnt mustnt hasnt havent hadnt without anymore longer"""
)


def normalize(token: str) -> str:
    """A token with a plural ``s`` dropped, so "errors" equals "error" ("class" stays)."""
    if len(token) > 3 and token.endswith("s") and not token.endswith("ss"):
        return token[:-1]
    return token


def entity_key(name: str) -> str:
    """The snake_case key of an entity or term name ("Office Wi-Fi" -> "office_wifi")."""
    return "_".join(tokenize(name))


def contains_phrase(tokens: Sequence[str], phrase: Sequence[str]) -> bool:
    """Whether ``phrase`` occurs in ``tokens`` as a contiguous run."""
    n = len(phrase)
    if n == 0 or n > len(tokens):
        return False
    first = phrase[0]
    return any(
        tokens[i] == first and list(tokens[i : i + n]) == list(phrase)
        for i in range(len(tokens) - n + 1)
    )


def unique(items: Iterable[str]) -> list[str]:
    """Items in first-seen order without repeats."""
    return list(dict.fromkeys(items))

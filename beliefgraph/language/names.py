"""Proper names in text, and whether a belief names another one of a name than the request."""

from __future__ import annotations

import itertools
import re
from difflib import SequenceMatcher
from functools import lru_cache

from beliefgraph.language.verbs import is_act
from beliefgraph.language.words import STOPWORDS, american
from beliefgraph.text import tokenize, word_set

#: a capitalised word, or an initial ("T.")
_NAME_WORD = re.compile(r"\b[A-Z](?:\.|[\w'\u2019-]*)")
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+|\n)\s*[\"'(]*$")
#: the titles a name may follow ("Mr Halvorsen", "Nurse Halvorsen")
_TITLES = word_set("mr mrs ms miss mx dr prof professor nurse sir rev")
#: capitalised words that name no one
_NOT_NAMES = _TITLES | word_set(
    """
    monday tuesday wednesday thursday friday saturday sunday january february march april
    may june july august september october november december jan feb mar apr jun jul aug
    sep sept oct nov dec site manager director lead officer team head chief senior junior
    department
    """
)


@lru_cache(maxsize=8192)
def proper_names(text: str) -> tuple[tuple[str, ...], ...]:
    """The runs of capitalised words ``text`` names ("Rosa Reyes", "Kessler Metals"),
    folded; a word capitalised only because it starts a sentence is marked ``^`` ("Quick
    Kessler question" names Kessler for sure, "quick" perhaps), and a sentence-opening
    act or function word is dropped ("Pay Northgate Supplies" names Northgate Supplies).

    >>> proper_names("Pay Northgate Supplies today; T. Okafor rang on Monday. Quick one.")
    (('northgate', 'supplies'), ('t', 'okafor'), ('^quick',))
    """
    runs: list[list[tuple[str, int]]] = []
    last_end = -1
    for m in _NAME_WORD.finditer(text):
        if runs and text[last_end : m.start()].strip() == "":
            runs[-1].append((m.group(0), m.start()))
        else:
            runs.append([(m.group(0), m.start())])
        last_end = m.end()
    found: list[tuple[str, ...]] = []
    for run in runs:
        tokens = [w.rstrip(".").lower() for w, _ in run]
        titled = [i for i, token in enumerate(tokens) if token in _TITLES]
        if titled:
            # a title opens the name: "Put Mr Halvorsen's tablets out" names Halvorsen
            tokens = tokens[titled[-1] + 1 :]
        elif _SENTENCE_START.search(text[: run[0][1]]):
            if tokens[0] in STOPWORDS or is_act(tokens[0]):
                tokens = tokens[1:]
            else:
                tokens[0] = "^" + tokens[0]
        folded = tuple(
            ("^" if w.startswith("^") else "") + t
            for w in tokens
            if w.lstrip("^") not in _NOT_NAMES
            # "Delgado-Ruiz" is the name "Delgado Ruiz" written with a hyphen
            for t in tokenize(w.replace("-", " "))
            if t.isalpha()
        )
        if folded:
            found.append(folded)
    return tuple(found)


#: how alike two given names must be spelled to be a near miss: "Jonah" and "Jonas" 0.8,
#: "Joan" and "Jon" 0.86, "Mark" and "Mary" 0.75; "Chase" and "Erik" 0
_NEAR_MISS = 0.75

#: abbreviations names are written with ("Fenwick Rd")
_ABBREVIATED = {
    "rd": "road",
    "st": "street",
    "ave": "avenue",
    "ln": "lane",
    "sq": "square",
    "ct": "court",
    "hwy": "highway",
    "ltd": "limited",
    "intl": "international",
    "dept": "department",
}


def _same_word(a: str, b: str) -> bool:
    a, b = american(a.lstrip("^")), american(b.lstrip("^"))
    a, b = _ABBREVIATED.get(a, a), _ABBREVIATED.get(b, b)
    return a == b or (len(a) == 1 and b.startswith(a)) or (len(b) == 1 and a.startswith(b))


def _meeting(asked: tuple[str, ...], held: tuple[str, ...]) -> str | None:
    """How two names meet: ``"same"`` when one holds the other (an initial standing for the
    word it starts), ``"other"`` when they share a part but each has a part the other lacks
    or one puts a word inside the other (:func:`_inserted`), ``None`` when they share
    nothing (or only initials). A word that may only start a sentence ("^quick") proves no
    other name, unless it is spelled nearly like a word of the other name, before the part
    they share ("Jonah Pereira", "Jonas Pereira"), wherever the other stands."""
    shared = [a for a in asked if any(_same_word(a, h) for h in held)]
    if not shared or all(len(w) == 1 for w in shared):
        return None
    asked_only = [a for a in asked if not any(_same_word(a, h) for h in held)]
    held_only = [h for h in held if not any(_same_word(h, a) for a in asked)]
    named = [a for a in asked_only if not a.startswith("^")]
    other_named = [h for h in held_only if not h.startswith("^")]
    if (named and other_named) or _inserted(asked, held):
        return "other"
    # a word opening a sentence, spelled nearly like the other's word, names someone:
    # "Jonah Pereira (Year 9) ..." beside "Jonas Pereira ..." or "... Jonas Pereira's aunt"
    near = any(
        _near_miss(a, h)
        for a in asked_only
        for h in held_only
        if a.startswith("^") or h.startswith("^")
    )
    return "other" if near else "same"


def _inserted(asked: tuple[str, ...], held: tuple[str, ...]) -> bool:
    """Whether ``held`` is ``asked`` with a word put between two of its words ("Brennan
    Steel Supplies" for "Brennan Supplies", "Harbour View Inn" for "Harbor Inn"): a name of
    its own, where a word added at either end is not ("Kessler Metals GmbH"), nor an initial
    ("Tomasz J. Okafor")."""
    at = [next((j for j, h in enumerate(held) if _same_word(a, h)), -1) for a in asked]
    if len(at) < 2 or -1 in at or at != sorted(at):
        return False
    return any(
        len(held[j].lstrip("^")) > 1 for i, k in itertools.pairwise(at) for j in range(i + 1, k)
    )


def _near_miss(a: str, b: str) -> bool:
    """Whether two different words are spelled nearly alike ("Jonah" and "Jonas", "Erik" and
    "Eirik"): given names, not two words that happen to open sentences ("Chase", "Erik")."""
    a, b = a.lstrip("^"), b.lstrip("^")
    return a != b and SequenceMatcher(None, a, b).ratio() >= _NEAR_MISS


#: a word joined to the next by a hyphen, both capitalised: "Ellis-Marsh", "O'Neill-Brown"
_HYPHENED = re.compile(r"([A-Z][\w'\u2019]*)-([A-Z][\w'\u2019]*)")


@lru_cache(maxsize=8192)
def _hyphened(text: str) -> frozenset[tuple[str, str]]:
    """The pairs of capitalised words ``text`` joins with a hyphen, folded as
    :func:`proper_names` folds them: ("ellis", "marsh") for "Jordan Ellis-Marsh"."""
    pairs = set()
    for m in _HYPHENED.finditer(text):
        first, second = tokenize(m.group(1)), tokenize(m.group(2))
        if first and second:
            pairs.add((first[-1], second[0]))
    return frozenset(pairs)


def _double_barrelled(
    asked: tuple[str, ...], held: tuple[str, ...], hyphened: frozenset[tuple[str, str]]
) -> bool:
    """Whether ``held`` names someone by a double-barrelled surname of which ``asked``, with
    the same given name, names only the first part: "Jordan Ellis" is not "Jordan
    Ellis-Marsh", a surname of its own. A word before the pair that ``asked`` lacks leaves
    it open ("Ask Harlow" meets "Main Harlow-Dunne vault" on no name of a person)."""
    for i in range(1, len(held) - 1):
        given, first, second = held[i - 1 : i + 2]
        if (first.lstrip("^"), second) not in hyphened:
            continue
        names_given = any(_same_word(a, given) for a in asked)
        names_first = any(_same_word(a, first) for a in asked)
        if names_given and names_first and not any(_same_word(a, second) for a in asked):
            return True
    return False


@lru_cache(maxsize=8192)
def another_of_that_name(request: str, belief: str) -> bool:
    """Whether a name of the request meets in the belief only names that share a part of it
    but each has a part the other lacks ("Kessler Metals" and "Kessler Metallbau KG", "Elm
    Street" and "Oak Street") or that put a word inside it ("Brennan Steel Supplies" for
    Brennan Supplies), or only a double-barrelled surname that starts with it ("Jordan
    Ellis-Marsh", asked about Jordan Ellis): the belief is about another one of that name.
    An initial is the name it starts ("T. Okafor" is Tomasz Okafor's)."""
    held_names = proper_names(belief)
    hyphened = _hyphened(belief)
    for asked in proper_names(request):
        meetings = {
            "other" if _double_barrelled(asked, held, hyphened) else _meeting(asked, held)
            for held in held_names
        }
        if "other" in meetings and "same" not in meetings:
            return True
    return False


#: an email address; the words of its domain say whose it is ("accounts@lindqvist-joinery.co")
_EMAIL_DOMAIN = re.compile(r"[\w.+-]+@([\w-]+(?:\.[\w-]+)*)\.[a-z]{2,}\b", re.IGNORECASE)


@lru_cache(maxsize=8192)
def names_one_named(request: str, belief: str) -> bool:
    """Whether ``belief`` names by name someone the request names: the first word of one of
    the request's names, capitalised in the belief too (not only as a sentence's first word)
    or opening a part of the domain of an email address it gives ("Pay Halvorsen today" and
    "Email from accounts@halvorsen-timber.co"), and no other one of that name
    (:func:`another_of_that_name`).

    >>> names_one_named("Brightline's bill is due.", "From accounts@brightlinepackaging.co.uk")
    True
    >>> names_one_named("Settle the Kessler bill.", "Settle up with Brennan by Friday.")
    False
    """
    held = _sure_names(belief)
    # a domain's parts, each possibly names run together ("brightlinepackaging")
    parts = [
        part
        for m in _EMAIL_DOMAIN.finditer(belief)
        for part in re.split(r"[.-]", m.group(1).lower())
    ]
    for name in proper_names(request):
        first = name[0].lstrip("^")
        if (
            len(first) > 2
            and first not in STOPWORDS
            and (first in held or any(part.startswith(first) for part in parts))
        ):
            return not another_of_that_name(request, belief)
    return False


#: who in a family a text may speak of ("Mum's warfarin", "Dad's paracetamol")
_KIN = word_set(
    """
    mum mom mother dad father gran granny grandma nan nana grandad grandpa husband wife son
    daughter brother sister aunt uncle baby
    """
)


@lru_cache(maxsize=8192)
def whose(text: str) -> frozenset[str]:
    """The family members and the people ``text`` names ("Mum", "Noor"): whose a dose or a
    plan is. A capital that only opens a sentence ("Warfarin plan ...") names no one, nor
    does "I".

    >>> sorted(whose("Warfarin for Dad per the clinic sheet; Noor's syrup is in the fridge."))
    ['dad', 'noor']
    >>> whose("How much of the blood thinner should I give him tonight?")
    frozenset()
    """
    return frozenset((set(tokenize(text)) & _KIN) | _sure_names(text))


def _sure_names(text: str) -> set[str]:
    """The words of the names ``text`` gives for sure: a capital that only opens a sentence
    ("Settle up with Brennan", "Warfarin plan ...") names no one, nor does "I"."""
    return {
        w.lstrip("^")
        for name in proper_names(text)
        for w in name
        if (len(name) > 1 or not w.startswith("^")) and w.lstrip("^") not in STOPWORDS
    }

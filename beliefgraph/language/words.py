"""Words as the planner compares them: tokens, plural and spelling folded, and :class:`Terms`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from beliefgraph.language.values import NUMBER_WORDS, ORDINAL_NUMBERS
from beliefgraph.text import FUNCTION_WORDS, fold, tokenize, word_set

# -- words -----------------------------------------------------------------------------------

# Plural folding only: stemming past tenses or gerunds ("paid", "reconciling") would make a
# past event look like a request to act, and scopes are written in base forms anyway.
_PLURAL_KEEP = frozenset({"access", "process", "business", "status", "analysis", "address", "this"})


# British and American spellings of one word compare equal ("authorisation",
# "enrolment", "cancelled", "colour"): each is read in its American form.
_SPELLINGS = (
    (re.compile(r"isation(s?)$"), r"ization\1"),
    (re.compile(r"(?<=[^l])lment(s?)$"), r"llment\1"),
    (
        re.compile(
            r"^(author|organ|recogn|priorit|summar|final|minim|maxim|optim|custom|apolog|"
            r"categor|special|normal|central|personal|visual|familiar|memor|sanit|item|"
            r"standard|util|real|stabil|legal|formal|subsid|emphas|harmon|local)is(e|ed|es|ing)$"
        ),
        r"\1iz\2",
    ),
    (
        re.compile(r"^(cancel|label|travel|model|fuel|signal|total|level|channel)l(ed|ing|er)$"),
        r"\1\2",
    ),
    (
        re.compile(
            r"^(colo|behavio|favo|hono|labo|neighbo|odo|humo|harbo|armo|rumo|flavo|vapo|"
            r"endeavo|savo|parlo|tumo|vigo)ur(s|ed|ings?|ite|ites|ful|able|ers?|y)?$"
        ),
        r"\1r\2",
    ),
    (re.compile(r"^(cent|met|lit|theat|fib)re(s?)$"), r"\1er\2"),
    (re.compile(r"^(licen|defen|offen)ce(s?)$"), r"\1se\2"),
    (re.compile(r"^(program|catalog|dialog)(?:me|ue)(s?)$"), r"\1\2"),
)


#: one thing under two common names, read as one word ("the March bill" is its invoice)
_ONE_NAME = {
    "bill": "invoice",
    "shop": "store",
    "fridge": "refrigerator",
    "resit": "retake",
    "lorry": "truck",
    "timetable": "schedule",
    "visitor": "guest",
}

#: what notes shorten and nothing else writes so: a day, a season, an everyday noun ("Xmas
#: fair Fri", "spare appt cards", "Cttee: Weds races")
_SHORT = {
    "tue": "tuesday",
    "tues": "tuesday",
    "weds": "wednesday",
    "thu": "thursday",
    "thur": "thursday",
    "thurs": "thursday",
    "fri": "friday",
    "xmas": "christmas",
    "appt": "appointment",
    "appts": "appointment",
    "mtg": "meeting",
    "cttee": "committee",
    "dept": "department",
    "tix": "ticket",
}


#: everyday words for one thing or kind, compared as one: "the extra kid" is the extra child,
#: "the big Kong" the large one (what a thing is, not how the planner weighs its words)
SAME_WORD = {"kid": "child", "children": "child", "big": "large", "extra": "spare"}


@lru_cache(maxsize=65536)
def american(token: str) -> str:
    """``token`` in its American spelling ("enrolment" -> "enrollment")."""
    if len(token) < 5 or not token.isalpha():
        return token
    for pattern, replacement in _SPELLINGS:
        token = pattern.sub(replacement, token)
    return token


#: how many distinct words :func:`fold_plural` remembers: a word is folded wherever a text
#: holding it is read, so once per word of the vocabulary
WORD_CACHE = 65536


@lru_cache(maxsize=WORD_CACHE)
def fold_plural(token: str) -> str:
    """``token`` without a regular English plural ending ("policies" -> "policy"), in its
    American spelling, and under the one name of a thing with two common ones ("bills" ->
    "invoice"), a short form under its full word ("Tues" -> "tuesday")."""
    token = american(token)
    if token in _SHORT:
        return _singular(_SHORT[token])  # as the full word is read ("christma")
    singular = _singular(token)
    return _ONE_NAME.get(singular, singular)


#: nouns in -ie, whose plural in -ies reads as -y ("hoodies" -> "hoody"); names in -ie
#: (Julie, Millie) stay as written
_IE_NOUNS = word_set("hoodie cookie brownie smoothie beanie selfie movie zombie rookie calorie")


def _singular(token: str) -> str:
    if len(token) <= 3 or token in _PLURAL_KEEP or token.endswith(("ss", "us", "is")):
        return token
    if token in _IE_NOUNS:
        return token[:-2] + "y"  # as its plural is read: "hoodie", "hoodies" -> "hoody"
    if token.endswith("ies") and len(token) > 4:
        return token[:-3] + "y"
    if token.endswith(("ches", "shes", "xes", "zes", "sses")):
        return token[:-2]
    if token.endswith("s"):
        return token[:-1]
    return token


# The planner reads the same belief texts and terms on every query that reaches them;
# the readings are pure functions of the text, so they are cached (bounded).
CACHE = 8192

#: a dash between spaces (a hyphen, an en or an em dash): a break between clauses, not a
#: joined word ("loppers - south shed"; "on-call" is one word)
SPACED_DASH = r"\s+[-\u2013\u2014]+\s+"


#: numbers written as words, two to twenty ("one" is also a pronoun: "this one")
_NUMBER_WORDS = {w: n for w, n in NUMBER_WORDS.items() if int(n) >= 2}
#: things kept in a numbered row, whose number names one of them: "line two" is "Line 2"
_NUMBERED = frozenset(
    fold_plural(w)
    for w in word_set(
        """
    aisle bay bed bench block building cabinet cell chamber chiller court desk dock door
    floor freezer gate grade group kiln lab lane level line locker machine oven pitch
    platform press pump rack ramp room row seat shelf site stage station suite table tank
    team theatre till truck unit van vessel volume ward week year zone
    """
    )
)


#: the rows an ordinal counts in: not weeks or years ("second week", "second year" are times)
_ORDINAL_ROWS = _NUMBERED - {"week", "year"}


#: an acronym's plural, too short to fold as a word is ("CDs", "TVs"); "IDs" and "PINs"
#: are read as the attribute words they are
_ACRONYMS = re.compile(r"\b(?!IDs|PINs)([A-Z]{2,})s\b")


@lru_cache(maxsize=CACHE)
def words(text: str) -> tuple[str, ...]:
    """The tokens of ``text`` with plurals folded, in order (the unit every match uses); a
    number in words after a thing kept in a numbered row is its digits ("bed twelve", "press
    three tonight"), any other stays a word ("two pallets", "buy two spare modules"); so is
    an ordinal from the second before one ("the second line" is line 2; "first" is as often
    first in time: "the first line manager").

    >>> words("Bounce the unit on dock three")[-2:]
    ('dock', '3')
    >>> words("Buy two spare modules")
    ('buy', 'two', 'spare', 'module')
    >>> words("the second line oven")[1:]
    ('line', '2', 'oven')
    """
    raw = tokenize(_ACRONYMS.sub(r"\1", text))
    tokens = [fold_plural(t) for t in raw]
    for i in range(1, len(tokens)):
        if tokens[i] in _NUMBER_WORDS and tokens[i - 1] in _NUMBERED:
            tokens[i] = _NUMBER_WORDS[tokens[i]]
        elif raw[i - 1] in ORDINAL_NUMBERS and tokens[i] in _ORDINAL_ROWS:
            tokens[i - 1], tokens[i] = tokens[i], ORDINAL_NUMBERS[raw[i - 1]]
    return tuple(tokens)


#: punctuation that ends a compound ("into chat; send the link"), and what a note writes for
#: it: a dash between spaces or an equals sign ("loppers - south shed", "printer = the HP"),
#: a plus between spaces for "and" ("gazebo + leg weights"; "&" joins names: "Tool & Die")
_CLAUSE = re.compile(r"[.;:!?,()\[\]\n\"]+(?:\s|$)|[;:!?,()\[\]\n\"=]|\s\+\s|" + SPACED_DASH)


@lru_cache(maxsize=8192)
def clauses(text: str) -> tuple[tuple[str, ...], ...]:
    """The word tuples of ``text``'s clauses (no compound spans punctuation)."""
    return tuple(w for part in _CLAUSE.split(text) if (w := words(part)))


#: the words a question asks with
QUESTION_WORDS = word_set("what when who whom whose which where how why")

#: the days of the week and the months, in full (as :func:`words` reads them: "Tuesdays" is
#: "tuesday")
DAY_AND_MONTH_NAMES = word_set(
    """
    monday tuesday wednesday thursday friday saturday sunday january february march april may
    june july august september october november december
    """
)

#: words that say nothing about *what* a belief governs: function words, question words,
#: modal and directive words (they are read by :func:`read_directive` instead), and a few
#: words so general that sharing them means nothing ("any", "current", "new").
#: a word after these is a noun, whatever else it can be ("the email", "any change")
DETERMINERS = word_set(
    """
    the a an this that these those my our your his her their its any every each all no some
    """
)
STOPWORDS = FUNCTION_WORDS | word_set(
    """
    above actually after against ago allowed already also always anybody anyone anything
    around before below between bit block blocked cannot current currently day days doing
    done dont down during either else even ever every everyone everything except few fine
    generally get gets getting got hers herself himself im itself kind last let like ll lot
    may mine month months much myself need needs never new next no nor normally not nothing
    ok okay old only ours ourselves part parts per please probably quarter re really require
    required requires requiring said say saying shall somebody someone something sort sure
    theirs themselves thing things though through time times today tomorrow tonight unless
    until upon use used using usually ve via want way week weeks whatever whether while
    within without year years yesterday yet yours yourself yourselves
    """
)


def content_words(text: str) -> list[str]:
    """The words of ``text`` that can carry a topic: no stop words, no bare numbers."""
    return [w for w in words(text) if w not in STOPWORDS and not w.isdigit() and len(w) > 1]


# -- terms and phrases -----------------------------------------------------------------------


@dataclass(frozen=True)
class Terms:
    """A request, read once: its words (plural-folded) for phrase matching.

    A term matches when its words occur contiguously in the request, or when the request
    writes the same words run together or apart ("door to door" / "door-to-door";
    "wi fi" / "Wi-Fi"), or as a part of a hyphenated word ("ruiz" in "Delgado-Ruiz").
    """

    text: str
    tokens: tuple[str, ...]
    #: the words again with hyphenated words taken apart ("Delgado-Ruiz" is "delgado ruiz"),
    #: when the text has any, and the token each part belongs to
    parts: tuple[str, ...] = ()
    part_of: tuple[int, ...] = ()

    @classmethod
    def of(cls, text: str, raw: Sequence[str] | None = None) -> Terms:
        """Read ``text``, whose :func:`tokenize` tokens the caller may already hold (``raw``)."""
        tokens = words(text) if raw is None else tuple(fold_plural(t) for t in raw)
        if not _HYPHEN.search(text):
            return cls(text, tokens)
        parts: list[str] = []
        part_of: list[int] = []
        at = 0
        for chunk in text.split():
            whole = words(chunk)
            pieces = words(_HYPHEN.sub(lambda m: m.group(0).replace("-", " "), chunk))
            parts += pieces
            # a hyphenated word is one token of several parts; anything else, a part a token
            part_of += [at + k if len(whole) == len(pieces) else at for k in range(len(pieces))]
            at += len(whole)
        if at != len(tokens):  # the chunks did not read as the whole: no parts to trust
            return cls(text, tokens)
        return cls(text, tokens, tuple(parts), tuple(part_of))

    def find(self, term: str) -> tuple[int, int] | None:
        """Where ``term`` occurs as ``(start, end)`` token positions, or ``None``."""
        phrase = words(term)
        if not phrase:
            return None
        n, toks, first = len(phrase), self.tokens, phrase[0]
        if first in toks:
            for i in range(len(toks) - n + 1):
                if toks[i] == first and toks[i : i + n] == phrase:
                    return i, i + n
        joined = "".join(phrase)
        for i in range(len(toks)):
            if not joined.startswith(toks[i]):
                continue  # a run from here never spells the phrase
            run = ""
            for j in range(i, min(len(toks), i + 6)):
                run += toks[j]
                if run == joined and (j > i or n > 1):
                    return i, j + 1
                if len(run) >= len(joined):
                    break
        toks = self.parts
        for i in range(len(toks) - n + 1):
            if toks[i] == first and toks[i : i + n] == phrase:
                return self.part_of[i], self.part_of[i + n - 1] + 1
        return None

    def has(self, term: str) -> bool:
        """Whether ``term`` occurs in the request."""
        return self.find(term) is not None


#: a hyphen inside a word of letters ("Delgado-Ruiz", "e-mail"), not inside a code or a
#: host name ("qa-ledger-07", "4B-12")
_HYPHEN = re.compile(r"(?<![\w-])[a-zA-Z]+(?:-[a-zA-Z]+)+(?![\w-])")


def normalise(text: str) -> str:
    # One space-separated, lower-case, accent-free line; apostrophes dropped ("don't" -> "dont").
    return " ".join(re.sub(r"['\u2019]", "", fold(text)).split())


#: prefixes that make a word the opposite of another ("unpaid", "nonrefundable")
_DENYING_PREFIXES = ("un", "non")
#: prefixes that do so only in some words (:data:`_DENYING_WORDS`)
_SOMETIMES_DENYING = ("in", "dis")
#: words whose in- or dis- does the same (most do not: "invoice", "discount", "dispatch")
_DENYING_WORDS = word_set(
    """inactive inaccurate inaccessible incomplete incorrect ineligible invalid disabled
    disallowed disapproved disconnected"""
)


@lru_cache(maxsize=CACHE)
def denies_a_word(request: str, belief: str) -> bool:
    """Whether ``belief`` holds the opposite of one of ``request``'s content words: "the
    invoice we got paid" and "INV-0304 is still unpaid"; "the active account" and "the
    inactive one".

    >>> denies_a_word("the invoice we got paid", "INV-0304 is still unpaid")
    True
    >>> denies_a_word("the unpaid invoice", "INV-0304 is still unpaid")
    False
    """
    asked = set(content_words(request))
    for word in content_words(belief):
        if word in asked:
            continue
        for prefix in (*_DENYING_PREFIXES, *_SOMETIMES_DENYING):
            rest = word.removeprefix(prefix)
            denies = prefix in _DENYING_PREFIXES or word in _DENYING_WORDS
            if denies and rest != word and len(rest) >= 4 and rest in asked:
                return True
    return False


#: short forms chat uses that keep neither the start nor only the consonants of the word
_CUT_SHORT = {"bday": "birthday", "pw": "password", "pwd": "password"}


def abbreviates(short: str, word: str) -> bool:
    """Whether ``short`` is ``word`` cut short as notes cut words: its start ("St" /
    "Street"), its consonants in order, three or more ("hrs" / "hours", "mtg" / "meeting"),
    or a short form chat uses for it ("bday", "pw"). Never one word for another that merely
    shares letters: "Jon" is not "Jason", "ski" not "skating", "pool" not "preschool".
    """
    if len(short) < 2 or len(word) <= len(short) or short[0] != word[0]:
        return False
    if word.startswith(short):
        return True
    if len(short) >= 3 and not set(short[1:]) & set("aeiouy"):
        if short.endswith("s") and not word.endswith("s"):
            short = short[:-1]  # "hrs" for "hour", the plural's s aside
        letters = iter(word[1:])
        return all(ch in letters for ch in short[1:])
    return _CUT_SHORT.get(short) == word

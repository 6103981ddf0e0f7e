"""What a text is about: its *things*, each a head word with the words that qualify it.

Jurisdiction is about the thing (DESIGN §3): "Can I change the south laptop settings?" is
about a laptop - in the south, and its settings - not about the south door whose code is
stored, nor about "settings" or "code" in general. This module reads that from text alone,
without a parser, so that the planner can tell a rule *about* what is asked from a rule that
merely shares a word with it:

* a **compound** is a maximal run of content words (no function words, numbers, verbs);
* its **head** is the last word that is not an *attribute* - a word naming a property of a
  thing rather than a thing ("code", "settings", "cost", "schedule", "password"); English
  compounds put the head last ("dock router code": a router's code);
* the words before the head are its **qualifiers** ("dock"), the attribute words after it
  say which property is meant;
* a compound of attributes only ("passwords", "card numbers" has a head) is *generic*: a
  rule about passwords in general covers every password;
* a compound after "at" ("the drone at dock 3") says where another thing is: a belief that
  meets the request only there is a mention, about the place and not the thing asked.

Compounds written apart, together or hyphenated compare equal ("on-call" / "on call" /
"oncall", "e-mail" / "email"): :func:`compounds_of` aligns a text's tokens with another's
first. How a request's things meet a belief's is :mod:`beliefgraph.language.aboutness`.

>>> [str(t) for t in things("What is the dock router code?")]
['dock router (code)']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from beliefgraph.language.verbs import is_act
from beliefgraph.language.words import (
    DAY_AND_MONTH_NAMES,
    DETERMINERS,
    QUESTION_WORDS,
    STOPWORDS,
    clauses,
)
from beliefgraph.text import word_set

#: words that name a property of a thing, not a thing: a shared attribute is no shared topic
ATTRIBUTES = word_set(
    """
    code pin passcode password passphrase combination number numbers digit login credential
    setting settings config configuration preference option options mode
    policy rule procedure process protocol guideline requirement instruction instructions
    change changes update updates access permission permissions approval
    cost price fee fees amount total balance rate charge charges budget value quote quotes
    flavor shade plan plans start starts
    schedule date deadline hour hours status state location place address whereabouts
    detail details info information note notes record records entry entries list lists
    name id version level limit size type model count term terms condition conditions
    override admin user username
    """
)

#: a question's word run into "did" ("where'd the gazebo end up?"): no thing, and a question
#: asked with "do" (below)
_DO_CONTRACTED = frozenset({"whered", "whatd", "howd", "whod", "whend"})

#: words that are not things: verbs and adjectives that the act lists do not know, adverbs
_NOT_THINGS = _DO_CONTRACTED | word_set(
    """
    prefer prefers preferred like likes liked decide decides decided keep keeps kept put puts
    paste post copy leave open close print call text take bring lock turn switch ask tell
    double triple first second always often sometimes later soon earlier again still
    available due okay able ready fine good bad best better own sure true false
    spent spend spends asking using doe
    replace replaced serviced happen happens happened go goes going went gone come came
    make makes made ever whenever yes instead otherwise first
    live goe sit stay belong seem remain depend mean apply
    coming comes arrive arrives arriving deliver delivers delivering
    rotate rotates
    whatre gonna wanna gotta
    doesnt isnt arent wasnt werent wont cant hasnt havent hadnt didnt shouldnt couldnt wouldnt
    well
    """
)

#: a word after these is a verb ("we decided", "never paste", "please email")
_VERB_CUES = word_set(
    """
    i we you they he she it never not dont doesnt didnt must should always please can
    cannot could may might will shall would also just
    """
)

_BE = frozenset({"is", "are", "was", "were", "be", "been", "am"})

_QUANTIFIERS = frozenset({"any", "every", "all", "each"})

#: a thing followed by these belongs to what follows ("the alarm code for the annex truck")
_BELONGING = frozenset({"of", "for"})

#: a compound of attributes followed by these is the attribute of what follows ("the price
#: of the dock van", "the password for the front desk router")
_LINKING = frozenset({"of", "for", "to", "on"})

#: a thing followed by these is who speaks ("the site manager says go ahead")
_SPEECH = word_set(
    """
    say said tell told ask asked want wanted emailed rang called mentioned think thought
    insist insisted reckon claim claimed wrote
    """
)

#: what a thing is measured out in: after "a" or "per" and before "of" the thing is what
#: follows ("a bag of the Hollins manure", "a bulk bag of gravel"); "the box of spare keys"
#: is a box
_MEASURES = word_set(
    """
    bag sack box pack packet bottle jar tin crate tray tub roll ream pint glass cup slice
    pair bunch kilo load bucket carton case dozen punnet bale loaf
    """
)
_MEASURE_OF = frozenset({"of"})

#: a compound right after these names the kind of answer asked for ("which room")
_ASKING = frozenset({"which", "what", "whose"})

#: a question asked with these puts its verb after the thing ("when does the committee
#: meet?", "where'd the gazebo end up?"); the contractions hold their question word
_DO = frozenset({"do", "doe", "did", "dont", "doesnt", "didnt"})
#: verbs that end such a question and name things elsewhere ("what do advance tickets for
#: the spring concert cost?", "when does the swim meet start?")
_ENDING_VERBS = word_set("cost start finish end begin run")
#: what may follow the verb of such a question ("want to judge", "end up")
_PARTICLES = word_set("to up out off in on for with at about back down over into from")


def _asked_with_do(tokens: tuple[str, ...], i: int) -> bool:
    """Whether the compound opening at ``tokens[i]`` is the subject of a question asked with
    "do" ("which competition does the vicar want to judge?"); not where "do" is the verb
    ("when did we last do the fire drill?", "who can do the school run?")."""
    j = i - 1
    while j >= 0 and tokens[j] in DETERMINERS:
        j -= 1
    if j < 0:
        return False
    if tokens[j] in _DO_CONTRACTED:
        return True
    before = tokens[j - 1] if j > 0 else ""
    return (
        tokens[j] in _DO
        and before not in _VERB_CUES
        and before != "last"
        and any(t in QUESTION_WORDS for t in tokens[:j])
    )


def _verb_follows(tokens: tuple[str, ...], i: int) -> bool:
    """Whether the particle at ``tokens[i]`` leads to another thing with the verb after it
    ("the school bus to town leave", "the trip to the zoo leave"), not to the verb's own
    words ("want to judge", "end up being stored", "agree for the 10 mile TT")."""
    rest = [t for t in tokens[i + 1 :] if t not in DETERMINERS]
    names_a_thing = bool(rest) and rest[0] not in STOPWORDS and not is_act(rest[0])
    return names_a_thing and any(
        t in _NOT_THINGS or t in _ENDING_VERBS or is_act(t) for t in rest[1:]
    )


@dataclass(frozen=True)
class Thing:
    """One thing a text names: its head word, qualifiers and attributes (plurals folded)."""

    head: str
    qualifiers: frozenset[str]
    attributes: tuple[str, ...]
    #: the compound names attributes only ("passwords"): a class, not one thing
    generic: bool
    #: the compound's words in order
    words: tuple[str, ...] = ()
    #: the text says "any", "every" or "all" of it: the class, whatever its qualifiers
    quantified: bool = False
    #: the qualifier next to the head, which says what kind of it this is: "truck" in "the
    #: lobby truck alarm" and in "the alarm code for the lobby truck" (an alarm of a truck,
    #: not the lobby alarm), "wing" in "the west wing badge"
    nearest_qualifier: str | None = None
    #: the text says "a" or "an" of it: any one of its kind ("to an outside partner")
    indefinite: bool = False
    #: the text reports what it says ("the site manager says go ahead"): who speaks, not
    #: what is spoken of
    is_speaker: bool = False
    #: the text names it as where another thing is ("the drone at dock 3", "the printer at
    #: the library"): a place, not what the text is about
    placed: bool = False
    #: "of", "for", "to" or "on" follows it: it belongs to what follows ("a child's ticket
    #: on the boat trip"), which the text is about as well
    linked: bool = False

    def qualifiers_of(self, word: str) -> frozenset[str]:
        """The words before ``word`` in the compound (they qualify it)."""
        return (
            frozenset(self.words[: self.words.index(word)]) if word in self.words else frozenset()
        )

    def __str__(self) -> str:
        words_ = [*sorted(self.qualifiers), self.head]
        tail = f" ({' '.join(self.attributes)})" if self.attributes else ""
        return " ".join(words_) + tail


#: words that make a day a name of its own ("Black Friday sale", "Easter Sunday lunch")
_NAMING_A_DAY = word_set("black cyber easter palm ash good super whit")

#: a time of day ("6pm", "9am")
_CLOCK = re.compile(r"\d{1,2}(?:am|pm)")


#: nouns and names that end as adverbs do ("family membership", "Emily's lesson")
_LY_NOUNS = word_set(
    """
    family assembly supply holly jelly belly welly rally tally butterfly
    anomaly lolly brolly dolly gully italy emily kelly sally molly polly billy
    """
)

#: a word followed by these is a verb with its object ("run them", "pay him")
_OBJECTS = frozenset({"them", "him"})
#: "us" is a verb's object after these ("what are the jars costing us", "what does a sack
#: run us"), and "the Amazon US account" names a country
_COSTING_US = word_set("cost costing run running charge charging set setting")

#: "open" before these names an event ("the open day", "Open evening: ..."); elsewhere it
#: is a verb or says when something is open
_OPEN_NAMES = frozenset(
    ("open", w) for w in word_set("day evening night morning afternoon weekend mic house studio")
)


def _breaks(tokens: tuple[str, ...], i: int, in_run: bool) -> bool:
    """Whether token ``i`` cannot be part of a compound (it is no noun)."""
    token = tokens[i]
    following = tokens[i + 1] if i + 1 < len(tokens) else ""
    previous = tokens[i - 1] if i > 0 else ""
    if (token, following) in _OPEN_NAMES and (i == 0 or previous in DETERMINERS):
        return False  # "the open day", "Open evening:"; not "the library open evenings"
    if (previous, token) in _OPEN_NAMES and (i == 1 or tokens[i - 2] in DETERMINERS):
        return False
    if token in STOPWORDS or token in _NOT_THINGS or token.isdigit() or len(token) < 2:
        return True
    if _CLOCK.fullmatch(token):
        return True  # "load-in 6pm": when, not which
    if following in _OBJECTS or (following == "us" and token in _COSTING_US):
        return True  # "costing us", "run them": a verb
    if len(token) > 4 and token.endswith("ly") and not token.endswith("ley"):
        return token not in _LY_NOUNS  # adverbs describe, they name nothing
    if len(token) > 4 and token.endswith("ed") and token[-3] != "e":
        return True  # participles ("totaled", "kept") describe, they name nothing
    if token.endswith("ing") and i > 0 and tokens[i - 1] in _BE:
        return True  # "is covering": a verb
    if not is_act(token):
        return False
    # An act word is a noun after a determiner or inside a compound ("the email",
    # "wire transfer"), a verb otherwise; its past and -ing forms are never the thing.
    if token.endswith(("ed", "ing")) or token in ("sent", "paid", "given", "sold", "bought"):
        return True
    return not (previous in DETERMINERS or in_run)


#: words that may stand between an article and its thing ("a new terminal", "another spare")
_BETWEEN_ARTICLE = frozenset(
    {"new", "other", "different", "spare", "extra", "second", "replacement"}
)


def _after_an_article(tokens: tuple[str, ...], i: int) -> bool:
    """Whether ``tokens[i]`` follows "a", "an", "another" or "no", with at most one such word
    between ("a new terminal"): any one of its kind, not a particular one."""
    j = i - 1
    if j >= 0 and tokens[j] in _BETWEEN_ARTICLE:
        j -= 1
    return j >= 0 and tokens[j] in ("a", "an", "another", "no")


def _after_at(tokens: tuple[str, ...], i: int) -> bool:
    """Whether ``tokens[i]`` follows "at" or "at the" ("the drone at dock 3"). "In" is left
    out: "Mr Okafor in bed 12", "Leo in 9C" name who, not where."""
    j = i - 1
    if j >= 0 and tokens[j] == "the":
        j -= 1
    return j >= 0 and tokens[j] == "at"


def compounds(tokens: tuple[str, ...]) -> tuple[Thing, ...]:
    """The things a token sequence names, in order."""
    runs: list[list[str]] = []
    run: list[str] = []
    answers: set[int] = set()
    linked: set[int] = set()
    quantified: set[int] = set()
    indefinite: set[int] = set()
    speaking: set[int] = set()
    belongs: set[int] = set()
    placed: set[int] = set()
    subjects: set[int] = set()
    measured: set[int] = set()
    counted = False  # the run opens after "a", "an" or "per": a measure, not a container
    for i, token in enumerate(tokens):
        previous = tokens[i - 1] if i > 0 else ""
        if _breaks(tokens, i, bool(run)):
            if run:
                if run[-1] in _MEASURES and token in _MEASURE_OF and counted:
                    measured.add(len(runs))
                if token in _LINKING:
                    linked.add(len(runs))
                if token in _BELONGING:
                    belongs.add(len(runs))
                if token in _SPEECH:
                    speaking.add(len(runs))
                if token not in _PARTICLES or _verb_follows(tokens, i):
                    # the verb is what ends it ("the boiler man come", "the boxes get")
                    subjects.discard(len(runs))
                runs.append(run)
            run = []
            continue
        if (
            run
            and token in DAY_AND_MONTH_NAMES
            and run[-1] not in DAY_AND_MONTH_NAMES
            and run[-1] not in _NAMING_A_DAY
        ):
            # a day after a thing says when it happens ("deliveries Tuesdays and Fridays",
            # "compost arriving Saturday"); before one it says which ("the Sunday dinner")
            runs.append(run)
            run = []
        if not run:
            counted = (
                _after_an_article(tokens, i)
                or previous == "per"
                or (i > 1 and tokens[i - 2] in ("a", "an", "per"))
            )
        if not run and previous in _VERB_CUES:
            # "we prefer ...", "never paste ...": the first word after a subject or a
            # modal is the verb, not a thing
            continue
        if not run and _asked_with_do(tokens, i):
            subjects.add(len(runs))
        if not run and previous in _ASKING:
            answers.add(len(runs))  # "which room": what the answer names, not the topic
        if not run and previous in _QUANTIFIERS:
            quantified.add(len(runs))  # "any user invite list": every one of them
        if not run and _after_an_article(tokens, i):
            indefinite.add(len(runs))
        if not run and runs and _after_at(tokens, i):
            # where something named before it is; a text that opens "At dock 3, ..." names
            # nothing to be placed
            placed.add(len(runs))
        run.append(token)
    if run:
        runs.append(run)
    found: list[Thing] = []
    dropped: set[int] = set()
    for n, r in enumerate(runs):
        if n in subjects and len(r) > 1 and r[-1] not in ATTRIBUTES:
            r = r[:-1]  # the verb after the subject ("does the committee meet")
        heads = [j for j, w in enumerate(r) if w not in ATTRIBUTES]
        # "which room" names the kind of answer; "which cake flavour" asks a property of
        # the cake
        names_answer = n in answers and (not heads or r[-1] not in ATTRIBUTES)
        if not heads or names_answer or n in measured:
            found.append(Thing(r[-1], frozenset(r[:-1]), (), generic=True, words=tuple(r)))
            if n in linked or names_answer or n in measured:
                dropped.add(len(found) - 1)
            continue
        # The words after a thing's first attribute are that attribute's value ("office
        # router admin user bvadmin"), not another thing.
        h = next((j - 1 for j in range(heads[0] + 1, len(r)) if r[j] in ATTRIBUTES), heads[-1])
        qualifiers = set(r[:h])
        nearest_qualifier = r[h - 1] if h > 0 else None
        if n in belongs and n + 1 < len(runs):
            # "the alarm code for the annex truck": the annex truck's alarm
            owner = [w for w in runs[n + 1] if w not in ATTRIBUTES]
            qualifiers |= set(owner)
            if owner and h + 1 < len(r):
                # an attribute for a thing names its owner ("the code for the lobby truck");
                # a thing for something names a use ("the south kiosk for training")
                nearest_qualifier = owner[-1]
        found.append(
            Thing(
                r[h],
                frozenset(qualifiers),
                tuple(r[h + 1 :]),
                generic=False,
                words=tuple(r),
                quantified=n in quantified,
                nearest_qualifier=nearest_qualifier,
                indefinite=n in indefinite,
                is_speaker=n in speaking,
                placed=n in placed,
                linked=n in linked,
            )
        )
    # An attribute-only compound tied to a thing ("the price of the dock van") or naming the
    # answer ("which room") is no topic of its own where the text names a thing; standing
    # alone ("Passwords are never shared") it is a class.
    if any(not t.generic for t in found):
        found = [t for i, t in enumerate(found) if i not in dropped]
    return tuple(found)


def compounds_of(pieces: tuple[tuple[str, ...], ...], other: tuple[str, ...]) -> tuple[Thing, ...]:
    """The things of a text's clauses (``pieces``), its words joined where ``other`` writes
    them as one ("on call" where the other text has "oncall")."""
    return tuple(t for piece in pieces for t in compounds(align(piece, other)))


@lru_cache(maxsize=8192)
def things(text: str) -> tuple[Thing, ...]:
    """The things ``text`` names (see the module docstring)."""
    return compounds_of(clauses(text), ())


def align(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    """``a`` with each run of two or three tokens joined where ``b`` writes them as one word.

    >>> align(("on", "call", "rota"), ("oncall", "rota"))
    ('oncall', 'rota')
    """
    single = set(b)
    out: list[str] = []
    i = 0
    while i < len(a):
        for n in (3, 2):
            if i + n <= len(a) and "".join(a[i : i + n]) in single:
                out.append("".join(a[i : i + n]))
                i += n
                break
        else:
            out.append(a[i])
            i += 1
    return tuple(out)

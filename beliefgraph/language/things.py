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
"oncall", "e-mail" / "email"): :func:`about` aligns the two texts' tokens first.

>>> [str(t) for t in things("What is the dock router code?")]
['dock router (code)']
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
from beliefgraph.language.names import another_of_that_name
from beliefgraph.language.verbs import is_act
from beliefgraph.language.words import (
    DAY_AND_MONTH_NAMES,
    DETERMINERS,
    STOPWORDS,
    clauses,
    words,
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

#: words that are not things: verbs and adjectives that the act lists do not know, adverbs
_NOT_THINGS = word_set(
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
    whatre whered whatd howd whod gonna wanna gotta
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

#: what a thing is measured out in: before "of" the thing is what follows ("a bag of the
#: Hollins manure", "a bulk bag of gravel")
_MEASURES = word_set(
    """
    bag sack box pack packet bottle jar tin crate tray tub roll ream pint glass cup slice
    pair bunch kilo load bucket carton case dozen punnet bale loaf
    """
)
_MEASURE_OF = frozenset({"of"})

#: a compound right after these names the kind of answer asked for ("which room")
_ASKING = frozenset({"which", "what", "whose"})

_WH = frozenset({"what", "which", "when", "where", "who", "whose", "how", "why"})

#: a question asked with these puts its verb after the thing ("when does the committee
#: meet?", "where'd the gazebo end up?"); the contractions hold their question word
_DO = frozenset({"do", "doe", "did"})
_DO_CONTRACTED = frozenset({"whered", "whatd", "howd", "whod", "whend"})
#: what may follow the verb of such a question ("want to judge", "end up")
_PARTICLES = word_set("to up out off in on for with at about back down over into from")


def _asked_with_do(tokens: tuple[str, ...], i: int) -> bool:
    """Whether the compound opening at ``tokens[i]`` is the subject of a question asked with
    "do" ("which competition does the vicar want to judge?")."""
    j = i - 1
    while j >= 0 and tokens[j] in DETERMINERS:
        j -= 1
    if j < 0:
        return False
    return tokens[j] in _DO_CONTRACTED or (tokens[j] in _DO and any(t in _WH for t in tokens[:j]))


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
    family assembly supply ally holly lily jelly belly welly rally tally butterfly
    anomaly lolly brolly dolly gully italy emily kelly sally molly polly billy
    """
)

#: a word followed by these is a verb with its object ("what are the jars costing us")
_OBJECTS = frozenset({"us", "them", "him"})

#: "open" before these names an event ("the open day", "open evening"); elsewhere a verb
_OPEN_NAMES = frozenset(
    ("open", w) for w in word_set("day evening night morning afternoon weekend mic house studio")
)


def _breaks(tokens: tuple[str, ...], i: int, in_run: bool) -> bool:
    """Whether token ``i`` cannot be part of a compound (it is no noun)."""
    token = tokens[i]
    following = tokens[i + 1] if i + 1 < len(tokens) else ""
    if (token, following) in _OPEN_NAMES or (i > 0 and (tokens[i - 1], token) in _OPEN_NAMES):
        return False
    if token in STOPWORDS or token in _NOT_THINGS or token.isdigit() or len(token) < 2:
        return True
    if _CLOCK.fullmatch(token):
        return True  # "load-in 6pm": when, not which
    if following in _OBJECTS:
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
    previous = tokens[i - 1] if i > 0 else ""
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
    for i, token in enumerate(tokens):
        previous = tokens[i - 1] if i > 0 else ""
        if _breaks(tokens, i, bool(run)):
            if run:
                if run[-1] in _MEASURES and token in _MEASURE_OF:
                    measured.add(len(runs))
                if token in _LINKING:
                    linked.add(len(runs))
                if token in _BELONGING:
                    belongs.add(len(runs))
                if token in _SPEECH:
                    speaking.add(len(runs))
                if token not in _PARTICLES:
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


def _compounds_of(pieces: tuple[tuple[str, ...], ...], other: tuple[str, ...]) -> tuple[Thing, ...]:
    return tuple(t for piece in pieces for t in compounds(align(piece, other)))


@lru_cache(maxsize=8192)
def things(text: str) -> tuple[Thing, ...]:
    """The things ``text`` names (see the module docstring)."""
    return _compounds_of(clauses(text), ())


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
    return asked.nearest_qualifier == held.nearest_qualifier


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


#: what names a time, not a thing that has parts ("Thursday evening", "the weekend")
_WHEN = DAY_AND_MONTH_NAMES | word_set("morning afternoon evening night weekend")


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


def about_things(asked: tuple[Thing, ...], held: tuple[Thing, ...]) -> Aboutness:
    """How ``held`` (a belief's things) meets ``asked`` (a request's)."""
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
        (a for a in asked if not a.generic and not a.is_speaker and a.head not in _WHEN), None
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
    req = clauses(request)
    # Names are things on their own: "riverside" in ``about`` is not a qualifier.
    text = clauses(belief) + tuple(words(n) for n in names if words(n))
    req_words = tuple(w for piece in req for w in piece)
    text_words = tuple(w for piece in text for w in piece)
    return about_things(_compounds_of(req, text_words), _compounds_of(text, req_words))

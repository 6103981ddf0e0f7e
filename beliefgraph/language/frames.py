"""What a plain-text statement says changed, what it is about, and the values it names.

The curation gate compares a new belief with stored ones. When neither names its subject
(no ``about``, no canonical name), the text alone has to say whether the new one corrects
the old. :func:`read` gives, for one text:

- **change**: whether it says a value changed or stopped: a change verb, "no longer", "from
  now on", a standing "now" and the like, unless it only adds or carves out an exception
  (:mod:`beliefgraph.language.changes`);
- **subject**: the content words before its copula, in the copula's clause ("the office
  Wi-Fi **password** is ...", "Greta left; **Owen** is ..."), when it has one; an opening
  such as "Oops," or "Note from user:" is not part of it;
- **topic**: its content words without the change words and the numbers, days and months
  spelled one way ("Tuesdays" and "Tue" are "tue");
- **values**: the numbers, times, dates, days, amounts and percentages it names, in one
  spelling (:mod:`beliefgraph.language.values`).

:func:`relation` reads two texts together: the new one *corrects* the old when it announces a
change of what the old one speaks of (a day, a month or a time alone is no shared subject,
nor a thing named beside it: "the cvs on main closes at 9 now" is not "flu shot done at
cvs"); it *restates* the old when it announces none, they share a subject and they name the
same values - unless they name two things of one kind ("pizza dough" / "focaccia dough"), or
only days or months and the subjects differ ("Recycling goes out every other Thursday." /
"Yard waste ..."). Two texts close in meaning (``close``: the embeddings say so) restate each
other with the same values and one shared word, or with no values and the same names.
Words in two forms are one shared word ("donate" / "donation"), and a telling value (seven
digits or more, an address, a code of five letters and digits) is a shared thing by itself
("library card # 22019934"). A one-value attribute ("password", "deadline", "rent") of the
same subject given a second value (unless it says "also"), another value of only the kinds
the old one gives for the same subject (a time for a time, a day for a day: "standup is at
10" after "Standup is at 9am."), and a preference for the same purpose turned to another
choice, are corrections too. The new subject is the old one when its words are the old
one's or fewer (a qualifier may be dropped: "Noah's school pickup" / "Noah's pickup", not
whose it is: "our gate code" is not "Grandpa's gate code"), never when the new one adds a
word ("dock router code" / "dock drone code", "my Wi-Fi password" / "the office Wi-Fi
password"); values before the verb name the thing and must agree ("Locker 12 combination" /
"Locker 14 combination").

>>> relation("The standup is at 9am.", "The standup moved to 10am.")
'corrects'
>>> relation("Q3 books close on October 10.", "We close the Q3 books 10 Oct.")
'restates'
>>> relation("The dock router code is 5080.", "The dock drone code changed to 1234.") is None
True
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from beliefgraph.language.changes import (
    ADDITIVE,
    CHANGE_VERB,
    CHANGE_VERBS,
    INTRANSITIVE,
    PROGRESSIVE_VERBS,
    RENEWED,
    announces_change,
)
from beliefgraph.language.quantities import in_other_units, same_quantities
from beliefgraph.language.things import things
from beliefgraph.language.values import (
    SPELLED,
    VALUE_WORDS,
    another_value,
    has_digit,
    kind,
    other_kinds,
    same_values,
    telling,
    values,
    weak,
)
from beliefgraph.language.words import abbreviates
from beliefgraph.text import CORRECTION_OPENING, normalize, tokenize, word_set

#: function words: never a topic (negations are change words, below)
_FUNCTION = word_set(
    """
    a an the this that these those of to in on at for from by with as and or but if then so
    it its is are was were be been being am do does did has have had having i me my mine we
    us our you your he him his she her they them their there here what which who whom whose
    when where why how all any both each more most other some such own same than too very can
    will just should would could may might must shall also about into over under again
    further once up out off s t im ive id weve were youre theyre thats its lets now got
    """
)
#: words that announce a value rather than name a topic ("New 5K PR: 21:58"): never a topic
_ANNOUNCING = word_set("new")
#: words of the calendar, as :func:`_content` spells them: many things happen on the 1st
#: of each month or on Monday mornings, so sharing only these is sharing no topic
_CALENDAR = frozenset(
    normalize(w)
    for w in word_set(
        """
        day daily week weekly weekday weekend month monthly year yearly annual morning
        afternoon evening night tonight today tomorrow yesterday
        """
    )
) | frozenset(normalize(name) for name in SPELLED.values())
#: kinds of value that say which thing a statement is about when named before its verb
_NAMING_KINDS = frozenset({"amount", "number", "name"})
#: a year says when, not which thing ("As of 2024 the fee is ...")
_YEAR = re.compile(r"(?:19|20)\d\d")
#: words that are never the topic, the subject or the value of a statement
_NOT_CONTENT = _FUNCTION | _ANNOUNCING
_OPENING = re.compile(
    rf"^\s*(?:(?:oops|sorry|ok(?:ay)?|so|well|hey|um+|uh+|oh|ah|hmm+)\s*[,!.]+\s*"
    # an exclamation needs no comma: "oops sam's bday is ..."
    rf"|(?:oops|whoops|sorry|um+|uh+|hmm+)\s+)?"
    rf"(?:(?:{CORRECTION_OPENING}|change of plans?|heads up|update|fyi|btw|reminder|psa|"
    rf"note(?: from \w+| to self)?)\b[\s,:;-]*)?",
    re.IGNORECASE,
)
#: where a place, a time or company is named: "the yoga class **at** the Y", "flu shot done **at**
#: cvs", "the meeting **with** the Acme team"
_PLACES = "at|on|in|with|from|near|by"
_PLACED = re.compile(rf"\s(?:{_PLACES})\s", re.IGNORECASE)
#: the same, or what it is for or of: what qualifies a subject's head
_QUALIFIED = re.compile(rf"\s(?:{_PLACES}|for|of)\s", re.IGNORECASE)
#: where a clause starts: its subject is the words between it and the clause's verb
_CLAUSE = re.compile(
    r"(?<!\bMrs)(?<!\bMr)(?<!\bMs)(?<!\bDr)(?<!\bSt)[.;!?]\s+|\s[\u2014\u2013-]\s|,\s+(?:so|and|but)\s+"
    rf"|\b{RENEWED},\s+(?=(?i:new)\s)"
)
#: the verbs of :data:`_COPULA`, as :func:`_content` spells them
_VERBS = (
    "cost",
    "run",
    "open",
    "close",
    "start",
    "end",
    "meet",
    "live",
    "hold",
    "take",
    "come",
    "weigh",
)
_PIVOT_VERBS = frozenset(normalize(w) for v in _VERBS for w in (v, v + "s")) | {"go", "goe"}
#: a copula or the like: the words before it are the statement's subject
_COPULA = re.compile(
    rf"\s(?:is|are|was|were|equals|goes|go|{'|'.join(v + 's?' for v in _VERBS)})\s|:(?!\d)"
    # a note's "=": "bookclub = 1st tues monthly"
    r"|\s=\s"
    # "is" cut short before where or when ("the spare key's in the lockbox", "trip's in
    # april"), not a possessive before a noun ("mom's phone")
    r"|(?<=\w)(?<!\bit)(?<!\bthat)(?<!\bthere)(?<!\bwhat)(?<!\bhe)(?<!\bshe)(?<!thing)(?<!body)(?<!one)"
    r"['\u2019]s\s(?=(?:in|at|on|under|up|down|back|due|now|still)\b)",
    re.IGNORECASE,
)

#: the last word of a subject that holds one value at a time: a second value replaces the
#: first ("the office Wi-Fi **password** is ...", "the **deadline** is ...")
SINGLE_VALUED = word_set(
    """
    password passcode passphrase pin code combination address number phone email url username
    login id time date day deadline hour price cost fee rent budget salary wage rate total
    balance limit cap quota threshold size capacity owner manager lead head contact doctor dentist
    vet lawyer counsel provider vendor supplier host server database db version default status
    plan venue room location place office schedule frequency dose dosage temperature setting
    speed name color colour
    """
)
#: "I prefer X for Y" / "X over Y": what is preferred, and for what
_PREFER = re.compile(
    r"\bprefers?\b\s+(?P<value>.+?)(?:\s+(?:for|when|in|on)\s+(?P<purpose>[^.,;]+)|"
    r"\s+(?:over|to|than)\s+[^.,;]+|[.,;]|$)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Frame:
    """One statement as :func:`relation` compares it."""

    change: bool
    subject: frozenset[str] | None
    topic: frozenset[str]
    values: frozenset[str]
    #: the last word of the subject, and the content words after the copula
    head: str | None = None
    said: frozenset[str] = frozenset()
    #: "I prefer X for Y": X's words and Y's
    preferred: frozenset[str] = frozenset()
    purpose: frozenset[str] = frozenset()
    #: the numbers and codes named before the copula, in its clause: they say which thing
    #: ("primer set 3", "SKU 10442"); a year or a date before it says when ("As of 2024, ...")
    naming: frozenset[str] = frozenset()
    #: the words before the first place or company named (of its subject, when it has one):
    #: what it speaks of ("the yoga class" of "the yoga class at the Y"), and their last word
    core: frozenset[str] = frozenset()
    lead: str | None = None

    @functools.cached_property
    def starts(self) -> frozenset[str]:
        """The first four and five letters of each topic word long enough: words that begin
        alike are one word in two forms (:func:`_akin_to`)."""
        return frozenset(w[:n] for w in self.topic for n in (4, 5) if len(w) >= n)

    @property
    def comparable(self) -> bool:
        """Whether :func:`relation` may find something in it: a change, values, a one-value
        attribute or a preference for a purpose (the gate compares such a text with more
        distant neighbours)."""
        return self.change or bool(self.values) or self.head in SINGLE_VALUED or bool(self.purpose)


def _content(text: str) -> frozenset[str]:
    """The words a statement is about: no function or change words, no numbers; days and
    months spelled out; names made of letters and digits ("A1C", "PG15") count."""
    return frozenset(
        normalize(SPELLED.get(t, t))
        for t in tokenize(text)
        if t not in _NOT_CONTENT
        and t not in CHANGE_VERBS
        and t not in VALUE_WORDS
        and not (t[0].isdigit() or (has_digit(t) and len(t) < 3))
    )


@functools.lru_cache(maxsize=8192)
def read(text: str) -> Frame:
    """The frame of one statement (see the module docstring)."""
    change = announces_change(text)
    subject = None
    body = _OPENING.sub("", text)
    pivot = _COPULA.search(body)
    change_verb = CHANGE_VERB.search(body)
    if (
        change_verb is not None
        and (
            pivot is None
            or change_verb.start() < pivot.start()
            # "is raising our rent": the copula is the change verb's, not the statement's
            or (
                change_verb.group(0).lower() in PROGRESSIVE_VERBS
                and not body[pivot.end() : change_verb.start()].strip()
            )
        )
    ):
        pivot = change_verb
        if not INTRANSITIVE.match(body[change_verb.end() :]):
            pivot = None  # who changed it, not what changed
    head, said, naming = None, frozenset[str](), frozenset[str]()
    start = 0
    if pivot is not None:
        # the subject is in the clause of the verb: "Greta left; **Owen** is ..."
        start = max((m.end() for m in _CLAUSE.finditer(body, 0, pivot.start())), default=0)
        subject = _content(body[start : pivot.start()]) or None
        naming = frozenset(
            v
            for v in values(body[start : pivot.start()])
            if kind(v) in _NAMING_KINDS and not _YEAR.fullmatch(v)
        )
        words = _words(body[start : pivot.start()])
        head = words[-1] if words else None
        said = frozenset(_words(body[pivot.end() :]))
    span = body[start : pivot.start()] if pivot is not None else body
    core_words = _words(_PLACED.split(span, maxsplit=1)[0] or span)
    # the head of the subject comes before what qualifies it ("standup for the platform team")
    led = _words(_QUALIFIED.split(span, maxsplit=1)[0] or span) if pivot is not None else []
    preferred = purpose = frozenset[str]()
    liked = _PREFER.search(body)
    if liked is not None:
        preferred = _content(liked.group("value"))
        purpose = _content(liked.group("purpose") or "")
    return Frame(
        change=change,
        subject=subject,
        topic=_content(text),
        values=values(text),
        head=head,
        said=said,
        preferred=preferred,
        purpose=purpose,
        naming=naming,
        core=frozenset(core_words),
        lead=led[-1] if led else None,
    )


def _same_subject(new: Frame, old: Frame) -> bool | None:
    """Whether a new statement speaks of the old one's subject: its words are the old
    subject's, in some form, or fewer (a qualifier dropped: "Noah's pickup" for "Noah's
    school pickup"; one added may name another thing: "the office Wi-Fi password" is not "my
    Wi-Fi password"); ``None`` when either names none before its verb."""
    if new.subject is None or old.subject is None:
        return None
    # in some form, or cut short: "office hrs" is the "office hours", "sam's bday" the birthday
    return not _unlike(new.subject, old.subject)


def _kin_subjects(new: Frame, old: Frame, old_text: str, new_text: str) -> bool:
    """Whether two subjects name one thing, one of them only with a word of when or what kind
    of slot ("trash pickup" / "trash day", "prod deploys" / "deploy window"): not two things
    ("preschool drop-off" / "pool drop-off") nor someone else's ("Maya's" / "Leo's")."""
    if not (new.subject and old.subject):
        return False
    if not _akin_to(new.subject, old.subject, old.starts) - _CALENDAR:
        return False
    differ = new.subject ^ old.subject
    if differ & (_names(old_text, new_text) | _owners(old_text) | _owners(new_text)):
        return False
    ours, theirs = new.subject - _SLOTS, old.subject - _SLOTS
    return not _unlike(ours, theirs) or not _unlike(theirs, ours)


#: words that say when or in what slot, not which thing: "trash *day*", "deploy *window*"
_SLOTS = _CALENDAR | word_set("class session time slot window schedule")


def _words(text: str) -> list[str]:
    """The content words of ``text``, in order, each in one form."""
    return [normalize(t) for t in tokenize(text) if t not in _NOT_CONTENT]


def _speaks_of(new: Frame, old: Frame) -> bool:
    """Whether the change a new statement announces is of what the old one speaks of: its
    subject's head (before any place or company it names) is a word the old one speaks of, in
    some form or cut short, or a one-value attribute ("dose upped to 100mg" after "I take
    50mg sertraline"); not what the old one only names beside it ("the cvs closes at 9 now"
    after "flu shot done at cvs oct 2")."""
    head = new.lead
    if head is None:
        return True
    theirs = old.core or old.topic  # "I take 50mg sertraline": of what "I" take
    spoken = [w for w in new.core if any(_akin(w, o) or abbreviates(w, o) for o in theirs)]
    # a one-value attribute of the old one's thing, named or left unsaid ("dose upped to ...")
    return head in spoken or (head in SINGLE_VALUED and (bool(spoken) or new.core == {head}))


def _note_of(new: Frame, old: Frame) -> bool:
    """Whether one of two statements is a note naming only the other's subject beside its values
    ("physio thu 8:30am" / "physio is tuesdays 5pm"): its words, days aside, are all its."""
    for note, full in ((new, old), (old, new)):
        if note.subject is None and full.subject is not None:
            words = note.topic - _CALENDAR
            return bool(words) and not _unlike(words, full.subject)
    return False


def _takes_the_role(new: Frame, old: Frame, new_text: str) -> bool:
    """Whether the new statement names someone who now holds what the old one's subject
    names: "**Dana** is our team lead now" after "Our team lead is Marco"."""
    return bool(
        new.subject
        and old.subject
        and new.subject <= _capitalised(new_text)
        and old.subject <= new.said
    )


def relation(old_text: str, new_text: str, *, close: bool = False) -> str | None:
    """``"corrects"``, ``"restates"`` or ``None`` (nothing the texts alone can tell).

    ``close``: the two texts are close in meaning (the embeddings say so). Then the same
    values are a restatement even when they share a single word, and so are two texts that
    name no value but the same names ("Payroll is handled by Gusto." / "We run payroll
    through Gusto.").
    """
    old, new = read(old_text), read(new_text)
    # words in two forms are one ("donate" / "donation"); a change needs more of the word to
    # be the same ("captain" / "captaincy", but "insulin" is not "insurance")
    shared = _akin_to(new.topic, old.topic, old.starts)
    changed = _akin_to(new.topic, old.topic, old.starts, 5)
    if not shared and not telling(new.values & old.values):
        return None
    same = _same_subject(new, old)
    if same is False and _takes_the_role(new, old, new_text):
        same = True
    # the values a statement gives, the ones naming which thing aside
    given, had = new.values - new.naming, old.values - old.naming
    if new.change:
        # the copula's verbs say nothing of what changed: "The library closes at 10pm" and
        # "We close at 5 now" share no thing; nor does a date: "the fish tank filter gets
        # changed on the 1st of each month" is not about the pill given then
        if (
            same is not False
            and changed - _PIVOT_VERBS - _CALENDAR
            and (same or _speaks_of(new, old))
        ):
            return "corrects"
        # a subject named another way, with another day or time: "trash day is wednesday, I
        # had it wrong" after "trash pickup is tuesday mornings" (not someone else's)
        if _kin_subjects(new, old, old_text, new_text) and another_value(given, had):
            return "corrects"
        return None
    one_value = (
        bool(new.subject)
        and new.subject == old.subject
        and new.head in SINGLE_VALUED
        # "room A is also booked 2-3pm": a second booking, not a new value
        and not ADDITIVE.search(new_text)
        # "Locker 14 combination ..." is not "Locker 12 combination ..."
        and new.naming == old.naming
        # "rent is due on the 1st" says when, not how much: another attribute of the rent
        and not other_kinds(given, had)
    )
    if one_value and _unlike(new.said, old.said) and _unlike(old.said, new.said):
        return "corrects"  # a second value of a one-value attribute of the same thing
    if (
        same
        and new.subject is not None
        and old.subject is not None
        and not ADDITIVE.search(new_text)
        # a qualifier dropped, not whose it is: "our wifi password" is not "mom's"
        and not (old.subject - new.subject) & _owners(old_text)
        and new.naming == old.naming
        and another_value(given, had)
    ):
        return "corrects"  # "Standup is at 9am." / "standup is at 10"
    if (
        same is None
        and not ADDITIVE.search(new_text)
        and new.naming == old.naming
        and _note_of(new, old)
        and another_value(given, had)
    ):
        return "corrects"  # "physio is tuesdays 5pm" / "physio thu 8:30am"
    turned = bool(new.preferred and old.preferred) and not new.preferred & old.preferred
    if new.purpose and new.purpose == old.purpose and turned:
        return "corrects"  # "I prefer tabs for indentation" / "... spaces for ..."
    if old.change or ADDITIVE.search(new_text) or not _same_values(old_text, new_text):
        return None
    if not new.values and not (close and _same_names(old_text, new_text)):
        return None
    if _siblings(old_text, new_text):
        return None  # "pizza dough" / "focaccia dough": the same values of two things
    if weak(new.values) and (
        same is False or (not same and not (close and shared - _PIVOT_VERBS - _CALENDAR))
    ):
        # many things happen on Thursdays: "Recycling ..." / "Yard waste ...", "The gardener
        # comes ..." / "The window cleaner comes ...": days alone are no shared thing
        return None
    # the same values, said of the same thing in other words ("dental" / "dentist"): unless
    # the words that differ are names ("Ana's locker code" / "Ben's locker code")
    if same is False:
        differ = (new.subject or frozenset()) ^ (old.subject or frozenset())
        if _names(old_text, new_text) & differ:
            return None
        ours, theirs = new.subject or frozenset(), old.subject or frozenset()
        if (
            not close
            and new.head == old.head
            and _unlike(ours - theirs, theirs)
            and _unlike(theirs - ours, ours)
        ):
            # one head, each with a qualifier the other lacks: "the car's extended warranty"
            # is not "the dishwasher warranty", whatever date both give
            return None
        if not close and len(shared) < 2 and len(new.values) < 2:
            return None
    return "restates"


def compared(old_text: str, new_text: str) -> dict[str, float]:
    """What the frames of two statements say of each other, each reading a name (all begin
    ``frame_``) and a weight (the gate's pair model reads them,
    :mod:`beliefgraph.gate.relation`): whether the new one speaks of the old one's subject,
    how much of what each speaks of the other does, whether they give values (beside the
    numbers that say which thing) and the same ones, one quantity in two units, another owner,
    and what :func:`relation` reads."""
    old, new = read(old_text), read(new_text)
    found = {
        f"same_subject={_same_subject(new, old)}": 1.0,
        "head_same": float(old.head is not None and old.head == new.head),
        "lead_same": float(old.lead is not None and old.lead == new.lead),
        "naming_differs": float(new.naming != old.naming),
        "owners_differ": float(_owners(old_text) != _owners(new_text)),
        "additive": float(bool(ADDITIVE.search(new_text))),
        "change": float(new.change),
        f"relation={relation(old_text, new_text, close=True)}": 1.0,
        "same_quantities": float(same_quantities(old_text, new_text)),
    }
    if old.core and new.core:
        found["core_nested"] = float(old.core <= new.core or new.core <= old.core)
        found["core_shared"] = len(old.core & new.core) / len(old.core | new.core)
    given, had = new.values - new.naming, old.values - old.naming
    if given and had:
        found |= {
            "values_both": 1.0,
            "values_disjoint": float(not given & had),
            "values_same": float(same_values(given, had)),
            "values_other_kinds": float(other_kinds(given, had)),
            "another_value": float(another_value(given, had)),
        }
    elif given or had:
        found["values_one_side"] = 1.0
    return {f"frame_{name}": weight for name, weight in found.items()}


def _same_values(old_text: str, new_text: str) -> bool:
    """Whether two statements give the same values, or one quantity in two units ("22 lbs" /
    "~10 kg") and otherwise the same numbers."""
    same = same_values(read(new_text).values, read(old_text).values)
    return same or in_other_units(old_text, new_text)


def _same_names(old_text: str, new_text: str) -> bool:
    """Whether two texts name someone or something by name, and every capitalised word of
    each is in the other in some form ("Lena Okafor manages ..." / "... reports to Lena
    (Okafor)")."""
    if not _names(old_text, new_text):
        return False
    old, new = _capitalised(old_text), _capitalised(new_text)
    return not _unlike(old, frozenset(tokenize(new_text))) and not _unlike(
        new, frozenset(tokenize(old_text))
    )


@functools.lru_cache(maxsize=8192)
def _capitalised(text: str) -> frozenset[str]:
    return frozenset(
        normalize(t)
        for m in re.finditer(r"\b[A-Z][\w'-]*", text)
        for t in tokenize(m.group(0))
        if t not in _NOT_CONTENT and t != "i"
    )


def _siblings(old_text: str, new_text: str) -> bool:
    """Whether the two texts name two of one kind of thing: the same head, each with its
    own qualifiers ("Maya's soccer practice" / "Leo's swim practice"), none akin to the
    other's or cut short from it ("dental cleaning" / "dentist cleaning" is one, and so is
    "bday party" / "birthday party"). Unlike
    :func:`beliefgraph.language.aboutness.sibling`, which asks whether a belief names another
    of the thing a request asks about (one qualifier put for another), any two sets of
    qualifiers that share nothing make two things here: two statements side by side."""
    old_things = things(old_text)
    return any(
        n.head == o.head
        and n.qualifiers
        and o.qualifiers
        and not any(
            _akin(a, b) or abbreviates(a, b) or abbreviates(b, a)
            for a in n.qualifiers
            for b in o.qualifiers
        )
        for n in things(new_text)
        for o in old_things
    )


def _unlike(ours: frozenset[str], theirs: frozenset[str]) -> bool:
    """Whether ``ours`` holds a word that ``theirs`` does not, in any form: not the same
    word, nor one cut short ("St" / "Street"), nor another form of it."""
    return any(
        a not in theirs
        and (
            has_digit(a)  # a code or a number is itself or another: "tulip42" / "tulip77"
            or not any(_akin(a, b) or abbreviates(a, b) for b in theirs)
        )
        for a in ours
    )


def _akin_to(
    ours: frozenset[str], theirs: frozenset[str], starts: frozenset[str], letters: int = 4
) -> frozenset[str]:
    """The words of ``ours`` that are one of ``theirs`` in another form, by their first
    ``letters`` letters (four or five; ``starts``: those of ``theirs``, :attr:`Frame.starts`)."""
    same = ours & theirs
    return same | {w for w in ours - same if len(w) >= letters and w[:letters] in starts}


def _akin(a: str, b: str) -> bool:
    """Whether two words are one word in two forms: they share their first four letters
    ("dental" / "dentist", "finance" / "financial")."""
    return a == b or (len(a) >= 4 and len(b) >= 4 and a[:4] == b[:4])


def _names(*texts: str) -> frozenset[str]:
    """Words written with a capital letter inside a sentence: names of people and things."""
    found: set[str] = set()
    for text in texts:
        for m in re.finditer(r"(?<=[a-z,;]\s)([A-Z][\w'-]*)", text):
            # a code ("A-14", "M8") is a value, not a name
            found.update(normalize(t) for t in tokenize(m.group(1)) if not has_digit(t))
    return frozenset(found)


def _owners(text: str) -> frozenset[str]:
    """The words of ``text`` that say whose something is ("mom's", "the kids'"; a curly
    apostrophe too)."""
    return frozenset(normalize((m.group(1) or m.group(2)).lower()) for m in _OWNER.finditer(text))


_OWNER = re.compile(r"\b(\w+)['\u2019]s\b|\b(\w+s)['\u2019](?=\s)")

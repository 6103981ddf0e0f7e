"""Which kind of statement a sentence is, read from its cues (:mod:`beliefgraph.importer.cues`):
a user's preference, decision, rule, correction or open question, or nothing; an assistant's
recommendation or paraphrase.
"""

from __future__ import annotations

import re

from beliefgraph.importer.cues import (
    ABOUT_THE_ANSWER,
    CORRECTION,
    COURSE,
    DECISION,
    DELIBERATION,
    HABIT,
    HEDGE,
    IRONY,
    LEAD,
    PARAPHRASE,
    PLAN,
    POLICY,
    PREFERENCE,
    QUESTION,
    REACTION,
    RECOMMENDATION,
    REFUSAL,
    REFUSAL_FOR_YOU,
    REPORTED,
    REQUEST,
    SOFTENER,
    STANDING,
    WISH,
    any_of,
    chat_spelled,
)
from beliefgraph.importer.sentences import is_mentioned, split_reason
from beliefgraph.models import Kind
from beliefgraph.text import CORRECTION_OPENING

#: a plain statement about the speaker's own things: a subject that is theirs or definite
#: ("my dentist", "our fiscal year", "the standup", "we", "I"), then what it is or does
_FACT = re.compile(
    LEAD + r"(?:my|our|the|we|i)\b[\w' -]{0,60}?\b(?:is|are|s|live|lives|use|uses|end|ends|"
    r"start|starts|run|runs|cost|costs|open|opens|close|closes|has|have|sit|sits|meet|meets)\s+\S",
    re.IGNORECASE,
)
#: a value worth remembering: a number, a name written with a capital inside the sentence,
#: a code ("tulip-42"), an acronym
_VALUE = re.compile(r"\d|(?<![.!?]\s)\b[A-Z][a-z]+|\b[a-z]+-\w+\b|\b[A-Z]{2,}\b")
#: a question that supposes: "if we moved ..., would ...?", "what if ...?", "say we ..."
_SUPPOSING = re.compile(LEAD + r"(?:what if|if|suppose|supposing|say)\b", re.IGNORECASE)
#: a correction's opening with nothing after it ("Scratch that."), or with an instruction
#: about the work at hand ("Actually, make it three bullets.", "Actually, shorter please."):
#: it corrects a request, and says nothing that lasts unless more follows (see
#: :func:`_corrects_request`)
_CORRECTS_REQUEST = re.compile(
    LEAD + rf"{CORRECTION_OPENING}[\s,.!:;-]*(?:$|(?:please\s+)?(?:make|change|turn|keep|do|"
    r"redo|try|put|write|rewrite|format|add|remove|drop|cut|shorten|lengthen|expand|fix|undo)"
    r"\s+(?:it|that|this|them|those|these|one)\b|(?:[\w'-]+\s+){0,3}please\W*$)",
    re.IGNORECASE,
)
#: a question mark that ends a sentence, closing quotes and brackets after it
_QUESTION_MARK = re.compile(r"\?[\s\"')\u201d\u2019]*$")
#: a question's last clause after a comma: "…, right?", "…, what about you?"
_TAIL = re.compile(r",\s*(?P<tail>[^,]{1,40}?)\s*\?[\s\"')\u201d\u2019]*$")
#: a tail that asks to confirm what comes before it: "right?", "do we?", "isn't it?"
_CONFIRMING = re.compile(
    r"^(?:right|correct|true|yes|no|yeah|eh|or not|am i right|is that (?:right|correct|true|so)|"
    r"(?:(?:do|does|did|is|are|was|were|have|has|had|would|could|should)(?:n'?t)?|will|won'?t|"
    r"can|can'?t)(?: not)? (?:i|we|you|they|he|she|it|that|there))$",
    re.IGNORECASE,
)
#: asked anywhere in a question to do something always or never: "when we talk money stuff
#: can you always put numbers in a table?"
_ASKED_TO_LAST = re.compile(
    r"\b(?:can|could|would|will) (?:you|u) (?:please |pls )?(?:always|never)\b", re.IGNORECASE
)
#: asked to change how the assistant answers, all its answers: "can you keep answers shorter"
_HOW_YOU_ANSWER = re.compile(
    r"\b(?:keep|make|write) (?:your |the |all )?(?:answers|replies|responses|explanations)\b",
    re.IGNORECASE,
)
#: a sentence that opens with a wish: one for now is a request, not a belief
_OPENING_WISH = re.compile(LEAD + f"(?:{WISH.pattern})", re.IGNORECASE)
#: wishes that hold until lifted, whatever they name: "please use the metric system", "I
#: don't want to use Java" (as "please don't …" does; "please write a haiku" is for now)
_HOLDS = any_of(
    r"\bi (?:really )?(?:don'?t|do not) want\b",
    r"\bplease (?:use|keep|call|reply|respond|answer|format)\b",
)
#: the first word of what a wish asks for, when it names one particular thing
_PARTICULAR = frozenset(
    {"a", "an", "the", "one", "some", "another", "this", "that", "these", "those", "it", "them"}
)
#: a person the wish is for: what comes after says whether it is for now ("help me", "send
#: me the file", "help me with the report") or for good ("tell me when I'm wrong")
_PERSONS = frozenset({"me", "us", "him", "her", "you"})
_FOR_NOW_AFTER_PERSON = _PARTICULAR | {"with", "out", "up"}

#: kinds the rules give a user's sentence, first match wins (hedges are checked before these:
#: see :func:`classify_user`)
USER_CUES: tuple[tuple[str, re.Pattern[str], Kind], ...] = (
    ("correction", CORRECTION, Kind.correction),
    ("preference", HABIT, Kind.preference),
    ("policy", POLICY, Kind.policy),
    ("decision", DECISION, Kind.decision),
    ("preference", PREFERENCE, Kind.preference),
    ("course", COURSE, Kind.decision),
    ("policy", REFUSAL_FOR_YOU, Kind.policy),
    ("refusal", REFUSAL, Kind.decision),
)


def classify_user(sentence: str) -> tuple[str, Kind] | None:
    """The cue and kind of a user's sentence, or ``None`` when it carries no belief.

    >>> classify_user("I think we'll use Postgres.")
    ('hedge', <Kind.open_question: 'open_question'>)
    >>> classify_user("Maybe.") is None
    True
    """
    sentence = chat_spelled(is_mentioned(sentence))
    if IRONY.search(sentence) or REACTION.match(sentence) or ABOUT_THE_ANSWER.match(sentence):
        return None
    # a report is looked for in the claim only: "…, because Bob said so" is still the user's
    if REPORTED.search(sentence) and _reported(split_reason(sentence)[0]):
        return None
    if _QUESTION_MARK.search(sentence):
        if _SUPPOSING.match(sentence):
            return None  # "if we moved the offsite to Lisbon, would ...?": only supposed
        # a question asserts nothing, whatever words it holds: "Actually, what time is it in
        # Tokyo?" is no correction, "What are you thinking about?" no hedge; nor does one
        # that deliberates ("should we rename the project?" asks the assistant; what the
        # speaker is still deciding they say: "haven't decided whether to rename it")
        if (
            REQUEST.match(sentence)
            and (STANDING.search(sentence) or _HOW_YOU_ANSWER.search(sentence))
        ) or _ASKED_TO_LAST.search(sentence):
            # "can you always ...?", "when we talk money can you always ...?": a rule for the
            # assistant
            return "policy", Kind.policy
        if QUESTION.match(sentence) or REQUEST.match(sentence):
            return None
        return _asked(sentence)
    return _stated(sentence)


def _asked(sentence: str) -> tuple[str, Kind] | None:
    """A question that opens as a statement: nothing, unless the statement is whole before a
    question of its own, or sets a rule for the assistant.

    "We no longer use Jenkins, right?" and "We moved to Oslo?" ask whether what they say is
    so: a note-taker keeps no question. "I prefer tabs, what about you?" and "Always use
    tabs, ok?" say it, then ask something else; "from now on when I ask for recipes can you
    flag anything high in sodium?" sets a rule.
    """
    tail = _TAIL.search(sentence)
    if tail is not None:
        said = _stated(sentence[: tail.start()])
        if said is not None and not _CONFIRMING.match(tail["tail"]):
            return said
    said = _stated(_QUESTION_MARK.sub("", sentence))
    return said if said is not None and said[1] is Kind.policy else None


def _stated(sentence: str) -> tuple[str, Kind] | None:
    """The cue and kind of a sentence that asks nothing (see :func:`classify_user`)."""
    request = REQUEST.match(sentence)
    if request and (STANDING.search(sentence) or _HOW_YOU_ANSWER.search(sentence)):
        return "policy", Kind.policy  # "can u always write my updates in lower case"
    deliberates = DELIBERATION.search(sentence)
    if deliberates and not request:
        # "I want to start investing but I'm still deciding between ...": still deciding;
        # "Haven't made up my mind." alone says nothing of what
        rest = sentence[: deliberates.start()] + sentence[deliberates.end() :]
        return ("hedge", Kind.open_question) if len(re.findall(r"[\w']+", rest)) > 1 else None
    # a request asserts nothing: "I'd like a cup of tea" is no preference, "Actually, make it
    # three bullets" no correction
    standing = standing_wish(sentence)
    if (
        request
        or (standing is False and _OPENING_WISH.match(sentence))
        or _corrects_request(sentence)
    ):
        return None
    found = _cue(sentence, standing=bool(standing))
    if SOFTENER.search(sentence) and (found is not None or PLAN.search(sentence)):
        return "hedge", Kind.open_question
    return found


_ACCORDING = re.compile(r"\W*according to\b", re.IGNORECASE)
#: where a clause of a claim ends: a comma, a semicolon or a dash, or "but"/"so" joining two
CLAUSE_END = re.compile(r"\s*(?:[,;]|\s[\u2014\u2013-]|\s(?=(?:but|so)\s))\s+")


def _reported(claim: str) -> bool:
    """Whether a claim is someone else's: it holds a report, and no clause without one carries
    a cue of the speaker's own. Beside the speaker's own ("im doing the curry instead, my
    partner wants to share lunches"; "my husband wants a lab, we haven't decided"), another's
    word is the reason or the background, not the claim."""
    if not REPORTED.search(claim):
        return False
    if _ACCORDING.match(claim):
        return True  # "According to the docs, we must ...": all of it is the docs'
    clauses = CLAUSE_END.split(claim)
    return len(clauses) == 1 or not any(
        not REPORTED.search(clause)
        and (DELIBERATION.search(clause) or _cue(clause, standing=False) is not None)
        for clause in clauses
    )


def user_fact(sentence: str) -> bool:
    """Whether a user's sentence that carries no other cue states a fact of theirs worth
    keeping: "The office Wi-Fi password is tulip-42.", "I live in Leeds." (a value to
    remember, said plainly: no question, hedge, irony, reaction or report of someone else's).

    >>> user_fact("Our fiscal year ends on June 30.")
    True
    >>> user_fact("I think the standup is at 9am.")
    False
    """
    sentence = chat_spelled(is_mentioned(sentence))
    return bool(
        not _QUESTION_MARK.search(sentence)
        and not (IRONY.search(sentence) or REACTION.match(sentence) or HEDGE.search(sentence))
        and not REPORTED.search(sentence)
        and _FACT.match(sentence)
        and _VALUE.search(sentence, 1)
    )


def refused(sentence: str) -> bool:
    """Whether the rules refuse a user's sentence whatever it says: a question, a request, a
    wish for now, a hedge or deliberation, irony, a reaction, or another's words (anywhere in
    it: stricter than :func:`classify_user`, which looks for a report in the claim only). A
    sentence in which the rules find no claim and which they do not refuse is left to the
    fitted reader (:mod:`~beliefgraph.importer.fitted`).

    >>> refused("we def want tokyo and kyoto")
    False
    >>> refused("My boss said we must always use Java."), refused("Is the train fine?")
    (True, True)
    """
    said = chat_spelled(is_mentioned(sentence))
    return bool(
        "?" in said
        or IRONY.search(said)
        or REACTION.match(said)
        or ABOUT_THE_ANSWER.match(said)
        or REPORTED.search(said)
        or REQUEST.match(said)
        or DELIBERATION.search(said)
        or SOFTENER.search(said)
        or HEDGE.search(said)
        or _corrects_request(said)
        or (standing_wish(said) is False and _OPENING_WISH.match(said))
    )


def _corrects_request(sentence: str) -> bool:
    """Whether a correction only corrects a request: its opening alone ("Scratch that."), or
    with an instruction about the work at hand and no cue of its own after it ("Actually,
    make it three bullets.", but not "Actually, make it a rule: always use tabs.")."""
    opening = _CORRECTS_REQUEST.match(sentence)
    if opening is None:
        return False
    return not STANDING.search(sentence) and _cue(sentence[opening.end() :], standing=False) is None


def _cue(sentence: str, *, standing: bool) -> tuple[str, Kind] | None:
    """The first of :data:`USER_CUES` the sentence has, or its standing wish; hedges aside."""
    for cue, pattern, kind in USER_CUES:
        if pattern.search(sentence):
            return cue, kind
    if not standing:
        return None
    # "please keep using APA 7 for every citation" tells the assistant what to do: a rule for
    # it; "I'd like my summaries short" says what the speaker likes: a preference
    wish = WISH.search(sentence)
    if wish is not None and wish.group(0).lower().startswith("please"):
        return "policy", Kind.policy
    return "preference", Kind.preference


def standing_wish(sentence: str) -> bool | None:
    """Whether the wish in ``sentence`` stands (a preference, or a rule for the assistant when
    it is asked with "please use …"); ``None`` without a wish.

    A wish ("I want …", "I'd like …", "please use …") stands when it is about a kind of thing
    or a way of doing things — "my summaries in bullet points", "answers in German",
    "British spelling" — or says so ("always", "by default"). It is
    a request for now when what it asks for is one particular thing or task, named with an
    article, a demonstrative or a pronoun ("a cup of tea", "you to write a haiku", "the
    report", "that"; "help me", "help me with …"), or is the speaker's own act ("I'd like to
    book a table"): "I want you to help me" asks for now, "I want you to tell me when I'm
    wrong" holds.

    >>> standing_wish("I'd like a cup of tea."), standing_wish("I'd like my summaries short.")
    (False, True)
    """
    wish = WISH.search(sentence)
    if wish is None:
        return None
    if STANDING.search(sentence) or _HOLDS.search(sentence):
        return True
    words = re.findall(r"[\w']+", sentence[wish.end() :].lower())
    if words[:2] == ["you", "to"]:
        words = words[3:]  # "I want you to write …": what is to be written
    elif words[:1] == ["to"]:
        return False
    if words[:1] and words[0] in _PERSONS:
        words = words[1:]  # "… help me", "… tell me when I'm wrong": what for the person
        return bool(words) and words[0] not in _FOR_NOW_AFTER_PERSON
    return bool(words) and words[0] not in _PARTICULAR


def is_assistant_cue(sentence: str) -> str | None:
    if RECOMMENDATION.search(sentence):
        return "recommendation"
    found = classify_user(sentence)
    if PARAPHRASE.search(sentence) or (found is not None and found[0] != "course"):
        return "paraphrase"
    return None

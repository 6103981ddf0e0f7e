"""Questions that ask to be told something: about what was done ("when did the disks get
erased?"), about the rule itself ("what's the hand-off routine?"), or what would happen on a
condition ("what happens if I delete them?"). The acts they name are not asked for."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from beliefgraph.language.words import CACHE, QUESTION_WORDS, SPACED_DASH, normalise

SENTENCE = re.compile(r"(?<=[.?!;:])\s+")
#: the words a question opens with
_WH_WORDS = "|".join(sorted(QUESTION_WORDS - {"why"}))
#: a dash between words sets a clause apart ("... somebody cleared the lockers - who did it?"),
#: and so does a comma before a question word ("the old server in Leeds, when did it go?")
_CLAUSE = re.compile(
    SPACED_DASH + r"|,\s+(?=(?:and\s+)?(?:" + _WH_WORDS + r")\b)",
    re.IGNORECASE,
)
#: a question whose subject is asked, in the past tense ("who gave the go-ahead?")
_WHO_DID = (
    r"\s*(?:and\s+)?(?:who|which \w+)\s+(?:[a-z]{3,}ed|gave|sent|paid|sold|bought|wrote|"
    r"told|took|made|got|signed off|okayed|ok'd)\b"
)
_WH = r"(?:and\s+)?(?:" + _WH_WORDS + r")(?:(?<=how)(?: many| much| often| long))?\b"
_ASKS_WHAT_WAS = re.compile(
    # a lead-in that only asks to be told ("Remind me - when did ...")
    r"(?:\s*(?:(?:remind me|tell me|(?:can|could) you (?:remind|tell) me|"
    r"do you (?:know|remember)|any idea|i forget)\W+)?"
    + _WH
    + r"[^.?!;]{0,40}?\b(?:did|was|were|had|has|have|came to|ended up|wound up)\b|"
    + _WHO_DID
    + r")",
    re.IGNORECASE,
)
#: the same after a dash, where "have" is as often the present ("- what's the code you have?")
_ASKS_WHAT_WAS_AFTER = re.compile(
    r"(?:\s*" + _WH + r"[^.?!;]{0,40}?\b(?:did|was|were)\b|" + _WHO_DID + r")",
    re.IGNORECASE,
)
#: the clauses of a sentence with the separators between them, as ``re.split`` gives them
_CLAUSES_AND_SEPARATORS = re.compile("(" + _CLAUSE.pattern + ")", re.IGNORECASE)


#: "have" after a modal (or "to") is the verb: "how much Calpol can an adult have?" asks what
#: may be taken, not what was; "what should we have paid?" (a participle after it) is a
#: perfect still
_MODAL_HAVE = re.compile(
    r"\b((?:can|could|may|might|should|must|will|would|to)\s+(?:\w+\s+){0,3}?)"
    r"(?:have|has)\b(?!\s+(?:been|had|got|gone|done|made|paid|sent|taken|given|\w+ed)\b)",
    re.IGNORECASE,
)


def _as_present(clause: str) -> str:
    """``clause`` with a modal's "have" read as the verb it is: put as "get", which the
    questions about the record do not take for a past tense."""
    return _MODAL_HAVE.sub(lambda m: m.group(1) + "get", clause)


def _record_questions(clauses: Sequence[str]) -> list[bool]:
    """For each clause of a sentence (split at a dash, or at a comma before a question word:
    :data:`_CLAUSE`), whether it asks what was done."""
    return [
        bool((_ASKS_WHAT_WAS if i == 0 else _ASKS_WHAT_WAS_AFTER).match(_as_present(clause)))
        for i, clause in enumerate(clauses)
    ]


_THE_RULE = re.compile(
    r"\b(?:what(?:s| is| are)|whats|tell me|remind me(?: of)?|explain) (?:the |our |your )?"
    r"(?:\w+ ){0,4}?(?:rules?|routine|procedure|process|policy|steps|drill|protocol)\b|"
    r"\bhow (?:do|does|should) (?:i|we|you|they|staff|people) (?:\w+ ){0,3}?(?:go about|handle)\b"
)


@lru_cache(maxsize=CACHE)
def asks_for_the_rule(text: str) -> bool:
    """Whether a request asks what the rule or procedure is ("What's the hand-off routine
    at Lyon?"): it reads the rule itself, whatever acts the rule governs.

    >>> asks_for_the_rule("What's the hand off routine when a load swaps drivers?")
    True
    >>> asks_for_the_rule("Swap the drivers at Lyon.")
    False
    """
    return bool(_THE_RULE.search(normalise(text)))


#: what a question about the record goes on to ask for ("... so I can quote it now")
_PURPOSE = re.compile(r"\b(?:so (?:that )?(?:i|we) can|and then|then)\b", re.IGNORECASE)


def without_record(text: str) -> str:
    """``text`` without its questions about what was done; a purpose they go on to name
    ("what did we land on, so I can quote it now?") stays."""
    kept = []
    for sentence in SENTENCE.split(text):
        pieces = _CLAUSES_AND_SEPARATORS.split(sentence)
        clauses, separators = pieces[0::2], ["", *pieces[1::2]]
        sentence_kept = ""
        for clause, separator, asks in zip(
            clauses, separators, _record_questions(clauses), strict=True
        ):
            if asks:
                purpose = _PURPOSE.search(clause)
                clause = clause[purpose.start() :] if purpose else ""
            if clause:  # with the separator before it, as written
                sentence_kept += (separator if sentence_kept else "") + clause
        kept.append(sentence_kept)
    return " ".join(kept)


@lru_cache(maxsize=CACHE)
def asks_what_was_done(text: str) -> bool:
    """Whether a request asks about what was done ("when did the disks get erased?",
    "which seat did I end up with?"), and nothing more: a read of the record, which a rule
    on doing it does not hold.

    >>> asks_what_was_done("How much did we pay the roofer?")
    True
    >>> asks_what_was_done("How much Calpol can an adult have?")
    False
    >>> asks_what_was_done("What should we have paid for the skip?")
    True
    """
    asked = any(
        any(_record_questions(_CLAUSE.split(sentence))) for sentence in SENTENCE.split(text)
    )
    return asked and not _PURPOSE.search(text)


#: a question asking to be told something ("How much do we get off ...?", "What happens
#: ...?"), and a condition in it: "when we buy in store", "if I delete them", "when buying"
_TOLD = re.compile(r"\s*(?:what|which|how|who|whose|where|why)\b[^.!?]*\??\s*", re.IGNORECASE)
_CONDITION = re.compile(
    r"\b(?:when|whenever|if|once)\s+(?:(?:i|we|you|they|he|she|staff|people|someone|anyone"
    r"|customers)\b|\w+ing\b)",
    re.IGNORECASE,
)


def without_conditions(text: str) -> str:
    """``text`` without the conditions of its questions that ask to be told something: the
    act in "what happens if I delete the backups?" is not asked for.

    >>> without_conditions("How much do we get off when we buy in store?")
    'How much do we get off?'
    >>> without_conditions("Delete them if we can.")
    'Delete them if we can.'
    """
    kept = []
    for sentence in SENTENCE.split(text):
        condition = _CONDITION.search(sentence) if _TOLD.fullmatch(sentence) else None
        kept.append(sentence[: condition.start()].rstrip() + "?" if condition else sentence)
    return " ".join(kept)

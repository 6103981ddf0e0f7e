"""Whether a statement says its arrangement has ended: a contract, deal, rate, licence,
permit or approval that ran out, expired, lapsed or was not renewed ("Northfield terms: 12%
off under the 2023 framework agreement, which ran to 31 Dec 2024 and was never renewed").
Such a note is history whatever its label says, as a belief whose ``valid_to`` has passed.
An account that "closed" is an event, often told beside the new one that replaces it: not
read.

A date after the ending decides: one still to come ("valid until March 2031") ends nothing
yet. Nor does a statement that also says what holds now or is still to be done ("the old
contract expired; the new rate is 15%", "since the courier contract ended, returns go on our
own fleet", "let's get the sub-accounts closed"): it is about the present. Nor does what only
may end ("can be ended on 60 days' notice").

>>> from datetime import date
>>> today = date(2026, 12, 5)
>>> term_ended("The agreement ran out at the end of 2025 and wasn't renewed.", today)
"ran out at the end of 2025 and wasn't renewed"
>>> term_ended("Licence L-2291 covers Shenzhen shipments, valid until 31 Dec 2031.", today) is None
True
>>> term_ended("The 2023 contract expired in March; the new rate is 15% off list.", today) is None
True
>>> term_ended("The van ran out of fuel on the ring road.", today) is None
True
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

from beliefgraph.language.values import MONTH_SPELLINGS, YEAR, month_number
from beliefgraph.language.words import CACHE

#: what runs for a term and then ends
_ARRANGEMENT = (
    r"agreements?|contracts?|deals?|frameworks?|rates?|schemes?|arrangements?|licen[cs]es?"
    r"|programmes?|programs?|terms|subscriptions?|leases?|warrant(?:y|ies)|memberships?"
    r"|accounts?|permits?|exemptions?|waivers?|approvals?|(?:pre-?)?clearances?|tenanc(?:y|ies)"
    r"|ndas?|rights|access|cover"
)
#: how its ending is said; the first group needs a date after it to have ended
_ENDING = (
    r"(?P<until>(?:ran|was valid|were valid|valid|lasted|applied) (?:until|till|to|through|thru))"
    r"|ran out(?! of)|expired(?! [a-z]+s\b)|ended(?! up)|lapsed(?! into)"
    r"|finished(?! (?:first|second|third|last|top|higher|lower|the|ahead|behind)\b)"
    r"|(?:was|were|has|have)(?: not| never|n't) (?:been )?renewed|(?:, |and )not renewed"
)
_ENDED = re.compile(
    rf"\b(?:{_ARRANGEMENT})\b[^\n]{{0,60}}?"
    # not what may end or has not: "can be ended", "has not expired", "hasn't lapsed"
    r"(?<!\bbe )(?<!\bbeen )(?<!\bnot )(?<!\bnever )(?<!n't )(?<!\bno )"
    rf"(?P<said>(?:{_ENDING})\b(?P<when>[^.;\n]{{0,40}}))",
    re.IGNORECASE,
)
#: an arrangement named in a condition, a question or a rule's reach: "drivers whose licence
#: has expired", "if the NDA lapsed", "any rate that has lapsed"
_CONDITION = re.compile(
    r"\b(?:whose|if|when|once|unless|whether|any|anyone|everyone|every|each)\b"
    r"[^.;\n]{0,40}$",
    re.IGNORECASE,
)
_MONTH = re.compile(rf"\b({MONTH_SPELLINGS})\b\.?", re.IGNORECASE)
#: what says the statement speaks of the present or the future too: what holds now, what
#: replaced it, what is still to be done
_NOW = re.compile(
    r"\b(?:now|currently|new|replaced by|instead|from (?:now|then) on|going forward|these days"
    r"|since|still|yet|no more|any ?more|let's|let us|will|should|must|going to)\b"
    # renewed, extended or re-opened after it ended: it holds (not "was never renewed")
    r"|(?<!\bnot )(?<!\bnever )(?<!n't )(?<!\bnot been )(?<!n't been )"
    r"\b(?:renewed|extended|re-?opened|reinstated)\b",
    re.IGNORECASE,
)


def _passed(when: str, today: date) -> bool | None:
    """Whether the date in ``when`` has passed (``None``: it names no year)."""
    year = YEAR.search(when)
    if year is None:
        return None
    y = int(year.group(0))
    month = _MONTH.search(when[: year.start()])
    if y != today.year or month is None:
        return y < today.year
    return month_number(month.group(1)) < today.month


@lru_cache(maxsize=CACHE)
def term_ended(text: str, today: date) -> str | None:
    """The words that say ``text``'s arrangement has ended by ``today``, or ``None``."""
    if "?" in text or _NOW.search(text):
        return None
    found = None
    for m in _ENDED.finditer(text):
        passed = _passed(m.group("when"), today)
        if passed is False:
            return None  # it runs on ("valid until 2031"), whatever else ended before
        if (passed is None and m.group("until")) or _CONDITION.search(text, 0, m.start()):
            continue
        found = found or _words(m.group("said"), m.group("when"))
    return found


def _words(said: str, when: str) -> str:
    """The ending as said, for the trace: "ran to 31 Dec 2024 and was never renewed", no
    leading "and" or comma, no word cut at the end."""
    if len(when) == 40 and not when.endswith(" "):
        said = said[: len(said) - len(when)] + when.rsplit(" ", 1)[0]
    return " ".join(said.split()).lstrip(", ").removeprefix("and ").rstrip(" ,")

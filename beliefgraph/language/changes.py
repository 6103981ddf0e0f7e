"""The words that say a statement announces a change: change verbs ("moved", "switched",
"raised", "dropped", "ripped out", "reset", inside a compound too: "factory-reset"), "no
longer", "not ... anymore", "instead of", "from now on", "going forward", "back to", "ended
up", "is gone", someone who "left", a correction's opening ("Actually, ...") and a standing
"now" - unless the statement only adds ("also", "too", "as well") or carves out an exception
("except", "unless"). :mod:`beliefgraph.language.frames` reads a statement's change with them.

>>> announces_change("The standup moved to 10am."), announces_change("We also meet Fridays.")
(True, False)
"""

from __future__ import annotations

import re

from beliefgraph.language.values import DAY_NAMES, MONTH_NAMES
from beliefgraph.text import CORRECTION_OPENING, word_set

#: verbs that say a value changed, moved or stopped (past tense and -ing mostly: "an oil
#: change", "a bus stop", "password changes" are nouns)
CHANGE_VERBS = word_set(
    """
    moved moves moving switched switches switching changed changing migrated migrating
    replaced replacing swapped dropped stopped quit ditched ripped raised lowered increased
    decreased reduced bumped tightened loosened extended shortened upgraded downgraded
    amended renamed relocated rescheduled rebooked reassigned postponed cancelled canceled
    retired rotated transferred sold pushed scrapped traded upped reset terminated
    decommissioned discontinued reopened
    """
)
#: the same after an auxiliary ("the landlord is raising the rent"); alone, a subject ("Raising
#: a ticket goes through the portal")
PROGRESSIVE_VERBS = word_set(
    """
    raising lowering increasing decreasing reducing upgrading downgrading extending
    shortening renaming relocating rescheduling postponing cancelling canceling swapping
    bumping upping
    """
)
_AUXILIARY = (
    "|".join(f"(?<=\\b{aux} )" for aux in ("is", "are", "am", "was", "were", "be", "been"))
    + "|(?<=['\u2019]s )|(?<=['\u2019]re )|(?<=['\u2019]m )"
)
CHANGE_VERB = re.compile(
    # not a participle before its noun: "the car's **extended** warranty", nor after "in",
    # "into", "with" or "of" with a noun after it ("tomatoes in raised bed 1"; "check-in
    # moved to 3pm" is a change)
    r"(?<!\bthe )(?<!\ba )(?<!\ban )(?<!\bmy )(?<!\bour )(?<!\byour )(?<!\btheir )(?<!'s )"
    r"(?:(?<![^-]\bin )(?<!\binto )(?<!\bwith )(?<!\bof )|(?=\w+(?:\s+(?:to|from|back|by|again|"
    r"until|till)\b|\s+\d|\s*[.,;:!?)]|\s*$)))"
    rf"\b(?:{'|'.join(sorted(CHANGE_VERBS))})\b"
    rf"|(?:{_AUXILIARY})(?:{'|'.join(sorted(PROGRESSIVE_VERBS))})\b",
    re.IGNORECASE,
)
#: after an intransitive change verb ("the pickup moved to 2:45") the words before it are
#: the subject; after a transitive one ("the landlord raised the rent") they are who acted
INTRANSITIVE = re.compile(r"^\s*(?:to|from|back|in|into|over|up|down|again)\b", re.IGNORECASE)
#: phrases that say what held before holds no more, or what holds from now on
_CHANGE_PHRASES = re.compile(
    rf"\b(?:no longer|any ?more|no more(?! than)|instead|rather than|from now on|going forward|"
    rf"as of|"
    rf"from (?:next|this) (?:week|month|year|term|season|quarter|{'|'.join(DAY_NAMES)})|"
    rf"change of plans?|"
    # a rise or a fall, not a way taken: "rent is going up", not "peas going up the fence"
    rf"(?:gone|went|goes|going) (?:up|down)(?!\s+(?:the|a|an|my|our|their|his|her|that|this)\s+"
    rf"(?:(?:north|south|east|west|back|front|side|left|right)\s+)?(?:fence|wall|trellis|stairs|"
    rf"staircase|steps|hill|road|street|lane|ladder|path|pole|mountain|river|drive|driveway|"
    rf"garden|aisle|corridor|hall|slope|track|trail)\b)|"
    rf"these days|starting (?:on |in |from )?\w+|effective \w+|off the|ended up|"
    rf"(?:^|[.;,:!]\s*|\b(?:is|are|was|were|went|gone|going|go|be|been|now)\s+)back to|"
    rf"(?:^|[.;,:!]\s*|\b(?:is|are|am|was|were|went|gone|got|be|been|now)\s+|['\u2019](?:s|re|m)\s+)"
    rf"down to\s+(?=\$?\d|(?:one|two|three|four|five|six|seven|eight|nine|ten|once|twice|half)\b)|"
    # "jess has a new number", not "we don't have a new address yet" nor "has she a new one?"
    rf"(?<!n't )(?<!not )\b(?:has|have|got) (?:a |an )?new\b(?![^.!?]*\?)|"
    rf"(?:is|are|'s|'re) gone|cut (?:\w+ ){{0,4}}(?:down )?to|"
    rf"{CORRECTION_OPENING})\b",
    re.IGNORECASE,
)
#: what was renewed or replaced, before a clause that names its new value: "Passport
#: renewed, new number is ..." (not "Got a work phone, new number is ...": another thing)
RENEWED = r"(?i:renewed|replaced|reissued|changed|reset|moved|switched|updated|lost|stolen|expired)"
#: a statement that opens by calling its value new ("Our new address is ..."), or a clause
#: that does after what was renewed; not a name that starts with the word ("New York")
_NEW_VALUE = re.compile(
    r"^\s*(?i:(?:my |our |the )?new)\s+(?![A-Z][a-z])"
    rf"|\b{RENEWED},\s+(?i:new)\s+[\w-]+(?:\s[\w-]+)?\s*(?:\bis\b|\bare\b|:)"
)
#: "now" as a standing state ("is Friday mornings now")
_NOW = re.compile(r"\bnow\b", re.IGNORECASE)
#: a statement that only adds to, or carves an exception out of, what was said
ADDITIVE = re.compile(
    r"\b(?:also|too(?=\s*(?:[.,;!?)]|$))|as well|"
    r"in addition|additionally|another|except|unless|exception|besides|during|from (?:"
    + "|".join(MONTH_NAMES)
    + r") (?:to|through|until|till))\b",
    re.IGNORECASE,
)
#: someone who left a role ("Greta left; ...", "Kevin left Datadog."): a change of who holds it
_LEFT = re.compile(
    r"\b(?!(?:Keep|Turn|Stay|Bear|Veer|Go|Nothing|None|Nobody|Little|Much|Some|One|Two)\b)"
    r"[A-Z][a-z]+ left(?=\s*(?:[.;,!]|$|[A-Z]|the (?:company|team|firm|job)))"
)


def announces_change(text: str) -> bool:
    """Whether ``text`` says a value changed or stopped (see the module docstring)."""
    if ADDITIVE.search(text):
        return False
    return bool(
        CHANGE_VERB.search(text)  # inside a compound too: "factory-reset"
        or _LEFT.search(text)
        or _CHANGE_PHRASES.search(text)
        or _NEW_VALUE.search(text)
        or (_NOW.search(text) and not re.search(r"\bright now\b", text, re.IGNORECASE))
    )

"""Whether a request takes the way a rule names: the route a prohibition points to ("never
take card numbers by phone; send the payment link"), or the way a rule says things are done
("results go to patients through their portal; email is not used"). A request on that way is
what the rule allows, not what it forbids.
"""

from __future__ import annotations

import re
from functools import lru_cache

from beliefgraph.language.directives import cues, prohibition, route_after
from beliefgraph.language.words import CACHE, SPACED_DASH, content_words, normalise


@lru_cache(maxsize=CACHE)
def takes_the_route(request: str, text: str) -> bool:
    """Whether ``request`` already takes the way a prohibition in ``text`` names ("never
    take card numbers by phone; to collect a balance, send the customer the payment link"
    and "text her the payment link from the order screen"): its words are those of the
    route, not of what is forbidden.

    >>> rule = "Never take card numbers by phone. To collect, send the customer the pay link."
    >>> takes_the_route("Text her the pay link for the balance.", rule)
    True
    >>> takes_the_route("Take her card numbers by phone for the balance.", rule)
    False
    """
    line = normalise(text)
    if (m := prohibition(line)) is None:
        return False
    route = route_after(line, m.end())
    if route is None:
        return False
    asked = set(content_words(request))
    on_route = asked & set(content_words(line[route.start() :]))
    forbidden = asked & set(content_words(line[: route.start()]))
    return len(on_route) >= 2 and len(on_route) > len(forbidden)


#: how a sentence says a way is not (or no longer) used: "Email and fax are not used", "no
#: email, no fax", "not by text", "USB sticks are out", "passwords arent written into tickets"
_REFUSED_WAY = cues(
    r"(?:is|are) not (?:\w+ )?(?:used|accepted|allowed|permitted|to be used)",
    r"no longer",
    r"nothing (?:gets|is|goes)",
    r"not (?:by|in|on|through|via|over|as|to|from|into|onto|with)",
    r"not [^,.;]{1,40}, not",
    r"no [\w-]+(?: [\w-]+)?, no",
    r"(?:is|are) out(?! (?:of|there|for|to|on|in|at))",
    # "doesnt go by post", "arent written into tickets", "arent bought on personal cards";
    # not "isnt optional", "doesnt need a second signature"
    r"(?:arent|isnt|doesnt|wont|werent|wasnt) (?:\w+ )?(?!need(?:ed|s)?\b)(?:\w+(?:ed|en|ght)|go|"
    r"goes|travel|travels|sent|put|kept|read|left|use)",
)
#: how a sentence says the way things are done: "goes through the portal", "that is the
#: approved route", "counts just the same", "is collected by texting the link", or an
#: imperative that says what to do ("Upload them to the locked folder")
_WAY = cues(
    r"through",
    r"via",
    r"by way of",
    r"is how",
    r"thats (?:the|how)",
    r"(?:approved|accepted|proper|right|correct|only|sanctioned|official|usual|one) (?:\w+ )?"
    r"(?:way|route|channel|path|process|procedure)",
    r"counts? (?:just )?the same",
    r"(?:is|are) (?:collected|sent|handed over|shared|delivered|issued|published|done|made|"
    r"filed|submitted|booked) (?:with|through|via|in|on|from|as|by \w+ing)",
    r"(?:goes?|go|travels?|gets?) (?:out |home |across |back )?(?:through|via|by|as|in|on)",
    r"^(?:instead,? |so |then |just )?(?:upload|send|post|load|push|generate|use|put|drop|enter|"
    r"book|text|publish|route|file|submit|place|create|give|hand|share|check|log)",
)
#: clauses: sentences, and what a semicolon or a dash between spaces sets apart ("through
#: their own portal - never email or post")
_CLAUSE = re.compile(r"[.:!?]\s+|;\s*|" + SPACED_DASH)
#: a clause that calls the one before it the way: "that is the approved route"
_THE_WAY_BEFORE = re.compile(
    r"(?:that|this|thats|which) (?:is )?(?:the|our) (?:\w+ )?(?:way|route|channel|path|process)\b"
)
#: a name written as one: capitalised inside a sentence (a system, a firm, a place, a person),
#: or with a capital inside the word ("CareBridge", "eSign")
_NAMED = re.compile(r"\b[A-Za-z]*[a-z][A-Z][\w-]*|(?<=[a-z0-9,;)] )[A-Z][\w-]*")


@lru_cache(maxsize=CACHE)
def takes_the_way(request: str, text: str) -> bool:
    """Whether ``request`` goes the way a rule in ``text`` says things are done, not one of
    the ways it refuses: "path reports for outside doctors: no email, no fax. They go through
    CareBridge" and "drop the path report into her CareBridge inbox".

    The way is said after a refusal, or in words that say how ("through", "upload them to
    ...", or "that is the approved route" after it); what a rule is about, said before it
    refuses anything, is neither. The request's words must be those of the way: two, or one
    that is a name, such as a system's; three where it shares one word with the ways refused,
    and never more than one. It must meet any condition the way it takes waits for ("once
    the report is signed").

    >>> rule = "Results go to patients through their portal. Email and text are not used."
    >>> takes_the_way("Put his signed MRI report up on his patient portal.", rule)
    True
    >>> takes_the_way("Email him his signed MRI report.", rule)
    False
    >>> takes_the_way("Drop it in her CareBridge inbox.", "No email, no fax. Use CareBridge.")
    True
    >>> takes_the_way("Put her scan results on her patient portal.",
    ...               "Scan results reach patients through their portal - never by email.")
    True
    """
    line = normalise(text)
    how: list[str] = []
    how_not: list[str] = []
    clauses = _CLAUSE.split(line)
    for clause, after in zip(clauses, [*clauses[1:], ""], strict=True):
        if _refusal(clause):
            how_not.append(clause)
        elif how_not or _WAY.search(clause) or _THE_WAY_BEFORE.match(after):
            how.append(clause)
    if not how or not how_not:
        return False
    asked = set(content_words(request))
    said = set(content_words(" ".join(how)))
    refused = set(content_words(" ".join(how_not)))
    # "Lab reports never go out by email": what a rule opening with a refusal names before
    # it is what the rule is about, not a way it refuses
    opening = _refusal(clauses[0])
    about = set(content_words(clauses[0][: opening.start()])) if opening else set()
    on_the_way = asked & (said - refused)
    off_it = asked & (refused - said - about)
    named = {w for n in _NAMED.findall(text) for w in content_words(n)}
    weight = len(on_the_way) + len(on_the_way & named)
    taken = [c for c in how if asked & (set(content_words(c)) - refused)]
    return (
        weight >= 2
        and len(off_it) <= 1
        and weight > 2 * len(off_it)
        and all(_met(condition, asked) for clause in taken for condition in _WHEN.findall(clause))
    )


def _refusal(clause: str) -> re.Match[str] | None:
    """The words by which ``clause`` refuses a way or forbids something, if any."""
    return _REFUSED_WAY.search(clause) or prohibition(clause)


#: a condition the way waits for: "after the consultant signs them off", "once it is signed"
_WHEN = re.compile(r"\b(?:after|once|when|until|provided|as long as|if)\b([^,;]*)")


def _met(condition: str, asked: set[str]) -> bool:
    """Whether a request says the condition is met: it names its act or thing ("radiology has
    signed off the MRI" for "once a report is signed"), to the first four letters."""
    wanted = {w[:4] for w in content_words(condition)}
    return bool(wanted & {w[:4] for w in asked})

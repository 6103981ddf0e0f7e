"""Whether a request takes the way a rule names: the route a prohibition points to ("never
take card numbers by phone; send the payment link"), or the way a rule says things are done
("results go to patients through their portal; email is not used"). A request on that way is
what the rule allows, not what it forbids.
"""

from __future__ import annotations

import re
from functools import lru_cache

from beliefgraph.language.directives import cues, prohibition, route_after
from beliefgraph.language.words import CACHE, content_words, normalise


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


#: how a sentence says a way is not (or no longer) used: "Email and fax are not used"
_REFUSED_WAY = cues(
    r"(?:is|are) not (?:\w+ )?(?:used|accepted|allowed|permitted|to be used)",
    r"no longer",
    r"nothing (?:gets|is|goes)",
)
_CLAUSE = re.compile(r"[.:!?]\s+|;\s*")


@lru_cache(maxsize=CACHE)
def takes_the_way(request: str, text: str) -> bool:
    """Whether ``request`` goes the way a rule in ``text`` says things are done, and none of
    the ways it refuses: "clinicians outside the trust get our documents through the
    referral portal; email and fax are not used" and "send his summary over to his GP on the
    referral portal". Its words are those of the sentences that say how, not of those that
    say how not.

    >>> rule = "Results go to patients through their portal. Email and text are not used."
    >>> takes_the_way("Put his signed MRI report up on his patient portal.", rule)
    True
    >>> takes_the_way("Email him his signed MRI report.", rule)
    False
    """
    line = normalise(text)
    how: list[str] = []
    how_not: list[str] = []
    for clause in _CLAUSE.split(line):
        refuses = _REFUSED_WAY.search(clause) or prohibition(clause)
        (how_not if refuses else how).append(clause)
    if not how or not how_not:
        return False
    asked = set(content_words(request))
    refused = set(content_words(" ".join(how_not)))
    way = set(content_words(" ".join(how))) - refused
    return (
        len(asked & way) >= 2
        and not asked & (refused - way)
        and all(_met(condition, asked) for clause in how for condition in _WHEN.findall(clause))
    )


#: a condition the way waits for: "after the consultant signs them off", "once it is signed"
_WHEN = re.compile(r"\b(?:after|once|when|until|provided|as long as|if)\b([^,;]*)")


def _met(condition: str, asked: set[str]) -> bool:
    """Whether a request says the condition is met: it names its act or thing ("radiology has
    signed off the MRI" for "once a report is signed"), to the first four letters."""
    wanted = {w[:4] for w in content_words(condition)}
    return bool(wanted & {w[:4] for w in asked})

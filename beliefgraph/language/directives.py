"""Whether a belief's text is a rule (a requirement, a prohibition, a permission) and how
protective.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache

from beliefgraph.language.acts import infer_action_types
from beliefgraph.language.values import MONTH_SPELLINGS, YEAR
from beliefgraph.language.words import CACHE, normalise
from beliefgraph.models import ActionClass, ActionType

# -- directives ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Directive:
    """What a belief's text says about acting: a rule or not, and how protective.

    ``action`` is ``block`` for an unconditional prohibition, ``verify_first`` for a
    requirement to check, confirm or get approval first, ``warn`` for a permission that comes
    with a caution to pass on or a condition to keep, ``answer`` for a permission, and
    ``None`` for a plain statement. ``cue`` is the phrase that decided it.
    """

    action: ActionClass | None
    cue: str | None = None

    @property
    def is_rule(self) -> bool:
        """Whether the text restricts what may be done (a prohibition, a requirement, or a
        caution that goes with the act)."""
        return self.action in (ActionClass.block, ActionClass.verify_first, ActionClass.warn)


def cues(*patterns: str) -> re.Pattern[str]:
    """One pattern that finds any of ``patterns`` as whole words of a normalised line."""
    return re.compile(r"\b(?:" + "|".join(patterns) + r")\b")


# A negated requirement is a permission: "no approval required", "not needed".
_PERMISSION = cues(
    r"no (?:[\w-]+ ){1,2}?(?:is |are )?(?:required|needed|necessary)(?! to)",
    r"(?:is|are) not (?:required|needed|necessary)",
    r"needs? no (?:\w+ ){0,2}?(?:sign[- ]?off|approval|checks?|review|ticket|permission|"
    r"authori[sz]ation)",
    r"without (?:any(?:one|body)? |a |further |prior |extra )?(?:\w+ )?"
    r"(?:review|approval|checks?|sign(?:ing)?[- ]?off|asking|permission)",
    r"freely \w+",
    r"(?:is|are) (?:safe|fine|ok) to",
    r"can be (?:read back|shared|surfaced|used|stated|given)",
    r"may be (?:shared|used|released|included|summarized|read)",
    # "nobody needs to sign it off", "no one has to approve it"
    r"(?:nobody|no one|noone) (?:needs?|has|have) to (?:ok|okay|approve|sign|clear|authori[sz]e|"
    r"be asked)",
)
# Everyday leave ("fine to pass on", "no need to ask me", "change it whenever you like",
# "can be rebooted any time", "neighbours are welcome to have it"): a permission in a text
# that forbids nothing, unless its clause says otherwise before it
_LEAVE = cues(
    r"(?:safe|fine|ok|okay|free) to",
    r"feel free",
    r"no need to (?:ask|check|confirm|wait|tell|clear|chase|run it|get|"
    r"be (?:precious|cagey|careful|secretive|guarded))",
    r"whenever (?:(?:you|they|we|anyone|someone) (?:likes?|wants?|needs?)|needed|convenient|"
    r"(?:it )?suits)",
    r"(?:it|them)(?: (?:off|on|up|down|out|over|back|and|again)){0,3} "
    r"(?:whenever|any ?time|at any time)",
    r"(?:can|may) (?:[\w-]+ ){1,6}?(?:whenever|any ?time|at any time)",
    r"(?:is|are) welcome to",
    r"help (?:themselves|yourself|yourselves)",
)
_NEGATION = cues(r"not", r"isnt", r"arent", r"wasnt", r"werent", r"no longer", r"hardly")
#: a condition or a caution that comes with the leave: "fine to use, but ...", "provided the
#: excursion is logged", "give the guard desk a heads-up"
_PROVISO = re.compile(
    r",\s*but\b|\bprovided (?:that|the|it|they|you|we)\b|\b(?:as|so) long as\b|\bthough\b"
    r"|\bheads-up\b|\bmeanwhile\b"
)
# Checking, confirming or approving first: the rule holds the act until something is done.
_VERIFY = cues(
    r"(?:must|should|has to|have to|needs? to|are to|is to) be "
    r"(?:confirmed|verified|checked|validated|approved|reviewed|logged and approved)",
    r"(?:requires?|required|requiring) [^.;]{0,40}?"
    r"(?:approval|authori[sz]ation|sign-?off|confirmation|verification|review|consent)",
    r"(?:verify|confirm|check) [^.;]{0,60}? before",
    r"before [^.;]{0,60}?, (?:verify|confirm|check)",
    r"only after [^.;]{0,60}? (?:approv\w*|verif\w*|confirm\w*|sign-?off)",
    r"(?:unless|until|without) [^.;]{0,60}?"
    r"(?:approv\w*|authori[sz]\w*|verif\w*|confirm\w*|sign-?off|consent)",
    r"lives with",
    r"(?:was|were|has been|have been) rotated",
    # A prohibition that names the sanctioned way ("...; send the payment link instead",
    # "only with two signatures") routes the act through it: check, do not refuse.
    r"instead",
    r"only (?:from|through|via|with|after|once|by way of|on receipt of)",
)
# Unconditional prohibitions.
_BLOCK = cues(
    r"must not",
    r"must never",
    r"never",
    r"do not",
    r"dont",
    r"does not satisfy",
    # "cannot be recovered" says what deleting does; it forbids nothing
    r"(?:can ?not|cant)(?! be (?:recovered|undone|reversed|restored|retrieved|reopened))",
    r"(?:shouldnt|mustnt)",
    r"may not",
    r"shall not",
    r"should not",
    r"(?:is|are) (?:blocked|prohibited|forbidden|not allowed)",
    r"(?:is|are) not to be(?! (?:expected|confused|missed|underestimated|trusted))",
    r"under no circumstances",
    # "the server room is off limits", not "no topic is off limits"
    r"(?<!no )(?<!no \w{3} )(?<!no \w{4} )(?<!no \w{5} )(?<!no \w{6} )(?:is|are) "
    r"(?:strictly )?(?:off limits|out of bounds)",
    # a restriction to some: "nobody outside the clinical team sees test results"
    r"(?:nobody|no one) (?:outside|except|but|other than|apart from|without) (?:[\w'-]+ ){0,5}?"
    r"(?:sees|gets|touches|uses|opens|enters|has access|may|can)",
    # what is not passed on: "the assistant doesn't share any of it", "pay stays confidential"
    r"(?:doesnt|does not|wont|will not) (?:share|give out|disclose|pass on|release) "
    r"(?:it|this|that|them|any|anything|these|those)\b",
    r"(?:stays?|remains?|kept) (?:strictly )?confidential",
    r"block requests?",
)


# A prohibition can go on to name the sanctioned way ("Never tell anyone a guest's room
# number. Offer to ring the room."): the act goes through that path, so it is checked, not
# refused, unless the rule says no path exists ("no exceptions", "by anyone").
_ROUTE = re.compile(
    r"[.;:]\s*(?:(?:instead|if so|if asked|if needed|then),?\s+)?"
    r"(?:(?:when|if|where|once|for|to)\b[^.;,]{0,60},\s*)?"
    r"(?:offer|use|send|resend|forward|direct|refer|ask|call|record|route|point|redirect|"
    r"escalate|raise|arrange|hold|take|ring|have|tell|pass|give|book|log|contact|quarantine|"
    r"keep|put|let|invite)\b"
    # after a dash, a way to go ("not shared in chat - use the vault"), not a restatement
    # ("- keep it to yourself")
    r"|\s[-\u2013\u2014]+\s*(?:instead\s+)?(?:use|send|ask|call|ring|contact|go|book|forward|"
    r"direct|refer|email)\b"
)
#: a sentence after a prohibition that says how the thing is done instead ("The change is
#: confirmed by calling a known contact"), how those who need it get it ("whoever needs one
#: is added to the vault", "anyone who needs access can request it"), or a check it waits for
#: ("until the pharmacy lead has checked"): a route exists
_ROUTE_SAID = re.compile(
    r"[.;:]\s*(?:the|a|an|any|each|every|such) (?:\w+ ){0,2}(?:is|are|must be|should be|can be|"
    r"may be) (?:only )?(?:confirmed|verified|approved|checked|authori[sz]ed) "
    r"(?:by|through|via|with)\b"
    r"|[.;:,]\s*(?:but |and )?(?:whoever|anyone who|anybody who|those who|people who|staff who)"
    r" (?:really |genuinely |actually )?(?:needs?|wants?|requires?) (?:\w+ ){0,3}?"
    r"(?:is|are|gets?|get|can be|will be|should be|can|should|must) (?:\w+ )?"
    r"(?:added|granted|issued|set up|enrolled|invited|registered|request|apply|ask|book|"
    r"raise|use)\b"
    # a way named as such: "The approved route is the Harbor Connect portal"
    r"|[.;:]\s*(?:the |our )?(?:approved|proper|right|correct|only|sanctioned|official|usual) "
    r"(?:route|way|channel|path|process) (?:is|for)\b"
    r"|[.;:]\s*the one (?:route|way|channel|path) (?:is|for)\b"
    r"|\buntil (?:the |a |an )?(?:\w+ ){0,4}(?:has |have )?(?:checked|confirmed|cleared|"
    r"approved|signed off|verified|reviewed)\b"
)
#: who a later clause can say does the thing another way: a person, a role, a team
_DOER = (
    r"(?:staff|employees?|customers?|clients?|patients?|parents?|guardians?|tenants?|guests?|"
    r"visitors?|contractors?|drivers?|students?|pupils?|members?|users?|managers?|reception|"
    r"hr|finance|facilities|security|the (?:\w+ )?(?:team|desk|office|lead|manager|officer|"
    r"gp|doctor|nurse|pharmacist|pharmacy|clinician|courier|carrier|supervisor|owner|landlord|"
    r"accountant|solicitor|admin|administrator)|whoever \w+|anyone who \w+)"
)
#: a later clause that says, in the present, how someone gets or does the thing: "Staff
#: download them from the HR portal", "the GP can send a new one", "they travel with the DG
#: courier"; a route only if it points back at what was forbidden (see route_after)
_ROUTE_STATED = re.compile(
    r"[.;:]\s*(?:(?:but|instead|so),?\s+)?"
    r"(?!(?:[\w'-]+ ){0,6}?(?:not|never|no|nobody|cant|cannot|dont|doesnt|wont|only)\b)"
    r"(?:" + _DOER + r" (?:can |may |could |will )?(?:instead |just |always )?"
    r"(?:download|view|collect|request|order|book|access|send|ask|apply|pick|use|reissue|"
    r"issue|release|upload|arrange|get|receive|read|go|come)s?\b"
    r"|" + _DOER + r" (?:can|may|could) (?:\w+ )?(?:be )?[a-z]+"
    r"|(?:[\w',-]+ ){0,6}?(?:go|goes|travel|travels|pass|passes)(?: in| out| back| over)? "
    r"(?:through|via|with|by)\b"
    r"|(?:[\w',-]+ ){0,4}?lets? (?:them|him|her) in\b)"
)
#: what, in a later clause, points back at what was forbidden
_POINTS_BACK = re.compile(
    r"\b(?:them|it|they|their own|theirs|one|ones|instead|requests?|cop(?:y|ies))\b"
)


def prohibition(line: str) -> re.Match[str] | None:
    """The first words by which the normalised ``line`` forbids something ("never", "must
    not", "is off limits"), if any."""
    return _BLOCK.search(line)


def route_after(line: str, start: int) -> re.Match[str] | None:
    """The route a prohibition in the normalised ``line`` names after ``start``, if any: a
    way to go instead ("...; send the payment link", "Passwords are not shared in chat - use
    the vault"), a check it waits for, or how those who need it get it, in the present
    ("Payslips are not emailed. Staff download them from the portal")."""
    route = _ROUTE.search(line, start) or _ROUTE_SAID.search(line, start)
    if route is not None:
        return route
    stated = _ROUTE_STATED.search(line, start)
    if stated is not None and _POINTS_BACK.search(line, stated.start(), _clause_end(line, stated)):
        return stated
    return None


def _clause_end(line: str, m: re.Match[str]) -> int:
    ends = [i for i in (line.find(stop, m.end()) for stop in ".;:") if i >= 0]
    return min(ends, default=len(line))


_ABSOLUTE = cues(
    r"no exceptions?",
    r"under any circumstances",
    r"whatever",
    r"by anyone",
    # "nobody else needs to approve it" waives a check; it makes nothing absolute
    r"no (?:one|body|site|manager|staff|member|supervisor)(?! (?:else )?(?:needs?|has) to)",
    r"nobody(?! (?:else )?(?:needs?|has) to)",
    r"regardless",
    r"not even",
    r"even (?:with|if|when|for)",
    r"for any (?:reason|length)",
    r"in any case",
    r"at any time",
)
#: a prohibition made absolute, as the action model's guard reads it: the cues above, and
#: "whoever asks" (not among them: "don't give the code to whoever asks; direct them to
#: reception" names a path)
_OUTRIGHT = cues(_ABSOLUTE.pattern, r"whoever (?:asks|is asking|it is)")


#: how a request says it asks about how things were, not how they are
_THE_PAST = cues(
    r"back (?:in|when|then|before)",
    r"(?:in|during|for) (?:the )?(?:19|20)\d\d(?: ?- ?\d\d)?(?: season| school year| year)?",
    r"(?:in|during) the (?:first|second|last|early|later?) (?:half|part|quarter|months?|weeks?) "
    r"of (?:19|20)\d\d",
    r"(?:when|while|before|after) the old",
    r"(?:around|about|at) the time (?:it|they|we|he|she)",
    rf"(?:in|during|for|from) (?:(?:early|mid|late) )?(?:{MONTH_SPELLINGS}) (?:19|20)\d\d",
    # a season, term or quarter of a year: "for the spring 2020 cohort", "in Q3 2024"
    r"(?:in|during|for|from|over) (?:the )?(?:(?:early|mid|late) )?"
    r"(?:spring|summer|autumn|fall|winter|easter|christmas|q[1-4]|h[12])"
    r"(?: (?:term|semester|quarter|half|season|holidays?))? (?:of )?(?:19|20)\d\d",
    r"(?:we|they|you|people|staff) used to",
    r"before [^.?!]{0,40}(?:existed|came in|was introduced|changed|went live|went over|"
    r"switched|moved (?:over|to)|took (?:it |them )?over|took charge)",
    r"originally",
    r"when we first",
    r"at the time",
    r"in those days",
)
_PAST_TENSE = cues(
    r"did",
    r"was",
    r"were",
    r"had",
    r"used to",
    r"could",
    r"would have (?:\w+ed|been|had|gone|done|happened)",
    r"got \w+ed",
    r"(?:when|while) [^.?!]{0,40}?still \w+ed",
)


@lru_cache(maxsize=CACHE)
def asks_about_the_past(text: str) -> bool:
    """Whether a request asks how things were at a time gone by ("back in 2023, what were
    counsellors allowed to do?"), rather than how they are.

    >>> asks_about_the_past("How did students sign up for resits in 2021-22?")
    True
    >>> asks_about_the_past("What is the resit deadline in 2026?")
    False
    """
    line = normalise(text)
    this_year = datetime.now(UTC).year
    # a time named by a year still to come is no time gone by ("could you book the hall for
    # March 2099?")
    gone_by = any(
        all(int(year) <= this_year for year in YEAR.findall(cue.group(0)))
        for cue in _THE_PAST.finditer(line)
    )
    return gone_by and bool(_PAST_TENSE.search(line))


#: how a request leans on a practice it takes to be standing ("the usual haulier", "the way
#: we've always done it", "the same deal as before")
_PRACTICE = cues(
    r"usual",
    r"as (?:always|ever|before|last time)",
    r"same [^.?!;]{0,40}?as (?:always|before|last time|usual|we (?:always )?(?:do|did|had))",
    r"same (?:drill|routine|way|arrangement|setup|set-up|deal|plan|procedure|process) as "
    r"(?:during|in|at|for|with|when|on)",
    r"the way we did (?:it )?(?:during|in|at|for|when|on|that)",
    r"like (?:before|last time|we always do|we did|always)",
    r"the way we(?:ve| have)? (?:always )?(?:do|did|done|do it|did it)",
    r"the way (?:it was|it has always been) done",
    r"(?:as|like) we (?:always )?used to",
    r"(?:arrangement|deal|terms|agreement) we(?:ve got| have| had) with",
    r"(?:where|how) do we normally",
)


@lru_cache(maxsize=CACHE)
def appeals_to_practice(text: str) -> bool:
    """Whether a request leans on a practice it takes to be standing ("book the usual
    courier", "credit them the way we always have"): if that practice is on record only as
    history, the record answers, to say it has ended.

    >>> appeals_to_practice("Book the usual Friday courier collection from the depot.")
    True
    >>> appeals_to_practice("Book a courier collection from the depot for Friday.")
    False
    """
    return bool(_PRACTICE.search(normalise(text)))


#: how a text says it is not sure: hearsay, guesses, what nobody has checked ("may be" is left
#: out: "refunds may be issued by any agent" grants, it does not doubt)
_HEDGES = cues(
    r"might",
    r"maybe",
    r"probably",
    r"possibly",
    r"perhaps",
    r"(?:not|never|nobody has) (?:yet )?(?:confirmed|checked|verified)",
    r"unconfirmed",
    r"unverified",
    r"rumou?red?",
    r"heard",
    r"(?:someone|somebody|a colleague|people) (?:said|says|thinks?|thought|mentioned|reckons?)",
    r"i think",
    r"seems? to",
    r"looks? like",
)


@lru_cache(maxsize=CACHE)
def hedged(text: str) -> bool:
    """Whether a belief's own words say it is unsure ("might", "heard", "not confirmed"):
    however it was filed, such a belief has no standing to govern.

    >>> hedged("Heard the mocks might be split across two rooms; nothing decided.")
    True
    >>> hedged("Year 9 mocks are in Lab S4.")
    False
    """
    return bool(_HEDGES.search(normalise(text)))


#: how a text records a proposal nobody has settled: talked about, not decided ("nothing is
#: approved without two signatures" is a rule, "not settled" an unpaid bill, "the van stays
#: parked until Monday" a place)
_UNDECIDED = cues(
    r"nothing(?:s| is| was| has| has been| got)? (?:yet )?(?:been )?"
    r"(?:decided|agreed|settled|signed off|approved)(?! (?:without|unless|until|before|over|"
    r"above|by)\b)",
    r"no decisions? (?:was |were |has been |have been )?(?:taken|made|reached|yet|so far)",
    r"no decisions?(?! (?:on|about|is|are|will|can|date|was|were|has|have)\b)",
    r"undecided",
    r"(?:has|have|was|were|is|are|had)(?:nt| not) (?:yet )?(?:been )?(?:decided|agreed)",
    r"not yet (?:been )?(?:decided|agreed)",
    r"(?<!stays )(?<!is )(?<!are )parked (?:until|till|for now|for later|pending)",
    r"(?:only|just|merely|still) (?:an |a )(?:idea|suggestion|proposal)",
    r"floated(?! on)",
    r"kicked around",
    r"(?:nobody|no one) (?:has )?(?:agreed|decided|signed off|approved)",
    r"(?<!not )(?<!isnt )(?<!arent )(?:under|up for|still in) discussion",
    r"still being discussed",
)


@lru_cache(maxsize=CACHE)
def undecided(text: str) -> bool:
    """Whether a belief records a proposal nobody has settled ("floated", "parked until the
    quote arrives", "nothing decided"): it gives nothing to carry out; the planner's models
    weigh what that means for the request.

    >>> undecided("Friday huddle: a four-day week for the packers came up. No one has agreed.")
    True
    >>> undecided("R-7, the cold trailer parked at Harbor yard, is Kessler Freight's.")
    False
    """
    return bool(_UNDECIDED.search(normalise(text)))


@lru_cache(maxsize=CACHE)
def read_directive(text: str) -> Directive:
    """Classify ``text`` as a prohibition, a requirement to verify, a permission, or neither.

    A requirement wins over a prohibition in the same text ("never ... unless named
    authorization", "cannot be given from memory; must be confirmed first"): the rule is
    conditional, and checking is what lifts it.

    Returns:
        The :class:`Directive`.
    """
    line = normalise(text)
    if (m := _CAUTION.search(line)) and (_MAY.search(line) or not _BLOCK.search(line)):
        # "may go ahead, but remind them ...", "fine to switch off; tell whoever is home":
        # the rule lets the act happen and asks for a caution with it, whatever else it
        # demands of the act itself.
        return Directive(ActionClass.warn, m.group(0))
    if (m := _VERIFY.search(line)) and not _lets_it_be_done(line, m):
        return Directive(ActionClass.verify_first, m.group(0))
    if m := _permission(line):
        return Directive(ActionClass.answer, m.group(0))
    if m := _leave(line):
        if proviso := _PROVISO.search(line, m.end()):
            # "fine to use, but keep loads under 1 t": the leave comes with a condition
            return Directive(ActionClass.warn, f"{m.group(0)} ... {proviso.group(0)}")
        return Directive(ActionClass.answer, m.group(0))
    if m := _BLOCK.search(line):
        route = route_after(line, m.end())
        if route is not None and not _ABSOLUTE.search(line):
            return Directive(ActionClass.verify_first, f"{m.group(0)} ... {route.group(0)}")
        return Directive(ActionClass.block, m.group(0))
    return Directive(None)


@lru_cache(maxsize=CACHE)
def forbids_outright(text: str) -> bool:
    """Whether ``text`` is a prohibition its writer made absolute ("no exceptions", "whoever
    asks", "not even for the manager", anywhere in it), and names no other way to go: one that
    no reading of the request may weaken.

    >>> forbids_outright("Never share the office wifi password, whoever asks.")
    True
    >>> forbids_outright("Never share the office wifi password.")
    False
    >>> forbids_outright("Never share the door code, not even with staff. Send them to security.")
    False
    """
    line = normalise(text)
    m = _BLOCK.search(line)
    if m is None or read_directive(text).action != ActionClass.block:
        return False
    return route_after(line, m.end()) is None and made_absolute(text)


@lru_cache(maxsize=CACHE)
def made_absolute(text: str) -> bool:
    """Whether ``text`` makes what it says absolute ("no exceptions", "whoever asks", "not
    even for the manager"), whether or not it names another way to go.

    >>> made_absolute("Never read card numbers back, no exceptions. Send the pay link.")
    True
    """
    return _OUTRIGHT.search(normalise(text)) is not None


def _permission(line: str) -> re.Match[str] | None:
    """The words by which ``line`` lets an act be done without a check, if it does; "don't
    change it without asking the lead" and "no invoice goes out without a second review"
    wait for what they name, and permit nothing."""
    m = _PERMISSION.search(line)
    if m is not None and m.group(0).startswith("without") and not _waives(line, m):
        return None
    return m


def _leave(line: str) -> re.Match[str] | None:
    """The everyday words by which ``line`` gives leave ("fine to pass on to Tom"), in a
    text that forbids nothing and not denied in their clause ("it isnt safe to share")."""
    return _unqualified(_LEAVE, line, _NEGATION)


@lru_cache(maxsize=CACHE)
def gives_leave(text: str) -> bool:
    """Whether ``text``, forbidding nothing, gives someone leave by the name of their role
    ("Support may refund ...", "staff can book their own rail") or waives a check ("no
    return or approval needed", "with no pre-approval", "nothing to log"): not where its
    clause denies or defers it before ("no manager can sign it off", "once the case is
    closed, compliance can lift it"), nor where its sentence names a check after it that it
    does not waive ("... if the manager approves", "..., but flights need approval")."""
    line = normalise(text)
    m = _unqualified(_GIVEN, line, _DENIED_OR_DEFERRED)
    if m is None:
        return False
    rest = re.split(r"[.;!?]", line[m.end() :])[0]
    waived = _GIVEN.sub(" ", _PERMISSION.sub(" ", rest))
    return not _CHECKING.search(waived) and ", but" not in waived


def _unqualified(
    pattern: re.Pattern[str], line: str, denials: re.Pattern[str]
) -> re.Match[str] | None:
    """The first match of ``pattern`` in ``line``, a text that forbids nothing, that no word
    of ``denials`` comes before in its clause."""
    if _BLOCK.search(line):
        return None
    for m in pattern.finditer(line):
        clause = re.split(r"[.;:!?]", line[: m.start()])[-1]
        if not denials.search(clause):
            return m
    return None


#: leave given to someone by name of their role ("Support may refund ...", "whoever is on
#: shift can just restart it"; not "customers may need to wait", "anyone can make
#: mistakes"), or a check waived ("no return or approval needed", "with no pre-approval",
#: "nothing to log")
_GIVEN = cues(
    r"(?:" + _DOER + r"|anyone(?: [\w-]+){0,4}|everyone|the assistant|agents|support|"
    r"whoever is(?: [\w-]+){1,2})(?:, [^,]{1,60},)? (?:can|may) "
    r"(?:just |simply |also |now |still |always |themselves |freely )?"
    r"(?!(?:be|not|only|never|no|need|needs|have|want|expect|experience|find|require|see|get|"
    r"take|make|feel|notice|face|lose|struggle|forget)\b)[a-z]+",
    r"no [\w-]+(?: [\w-]+)? (?:or|and|nor) [\w-]+(?: [\w-]+)? (?:is |are )?"
    r"(?:needed|required|necessary)(?! to)",
    r"with no (?:pre-?approval|change request|sign-?off|paperwork)\b",
    r"nothing (?:to log|needs? (?:logging|signing|approving|approval))",
)
#: what, earlier in the clause, denies such leave or makes it wait for something
_DENIED_OR_DEFERRED = cues(r"no|nobody|nothing|none|only|until|unless|once|if|while|before|after")


def _lets_it_be_done(line: str, requirement: re.Match[str]) -> bool:
    """Whether a check named after "without" is what a permission waives ("notes can be
    added without approval"), with no other check after it."""
    return (
        requirement.group(0).startswith("without")
        and _waives(line, requirement)
        and _VERIFY.search(line, requirement.end()) is None
    )


def _waives(line: str, without: re.Match[str]) -> bool:
    """Whether the "without ..." at ``without`` is waived by a "can" or "may" before it in a
    text that forbids nothing ("can add notes without anyone signing off"), not awaited
    ("never ... without approval")."""
    return bool(_MAY.search(line[: without.start()])) and not _BLOCK.search(line)


#: a caution the rule asks to pass on with the act: remind, tell, point out, spell out ...
_CAUTION = cues(
    r"remind(?:s|ed|ing)?",
    r"points? out",
    r"spells? out",
    r"(?:tell|warn|advise|alert|caution|brief) (?:them|him|her|whoever|everyone|anyone|"
    r"people|staff|the (?:\w+ ){0,2}(?:requester|operator|driver|customer|traveller|traveler|"
    r"class|crew|team|worker|workers|lead|manager|guest|patient|parent|parents|caller|family))",
    r"let (?:them|him|her|whoever|everyone|the \w+) know",
    r"make sure (?:they|he|she|everyone|the \w+) (?:knows?|understands?|(?:is|are) aware)",
    r"(?:has|have|must|needs?) to be (?:told|warned|reminded)",
    r"must (?:be )?(?:told|warned|reminded)",
    r"flag (?:that|it)",
)
#: words that let the act happen (with the caution above, the rule is a cautioned permission)
_MAY = cues(
    r"may(?! not)",
    r"can(?! ?not)",
    r"(?:is|are|its) (?:fine|ok|okay|allowed|permitted|reimbursable)",
    r"fine to",
    r"allowed to",
    r"go(?:es)? ahead",
    r"no (?:permit|sign-?off|approval) (?:is )?(?:needed|required)",
)


#: the words of a requirement to check, which are never the act it governs
_CHECKING = cues(r"verif\w*", r"confirm\w*", r"check\w*", r"approv\w*", r"review\w*", r"sign\w*")


@lru_cache(maxsize=CACHE)
def governed_action_types(text: str) -> frozenset[ActionType]:
    """The acts a rule governs, read from its text; empty for a statement or a rule that
    names no act (then it governs every act).

    The words of the requirement itself are not the governed act: in "doses must be
    confirmed before they are used to fill a pillbox" the act is filling, not confirming.
    """
    line = normalise(text)
    m = _VERIFY.search(line) or _BLOCK.search(line)
    if m is None or (_permission(line) and not _VERIFY.search(line)):
        return frozenset()
    if m.re is not _VERIFY:
        return infer_action_types(line, describing=True)
    outside = infer_action_types(line[: m.start()] + " " + line[m.end() :], describing=True)
    # "Before editing the boiler settings, check with facilities": the act sits inside the
    # requirement's own words; only the checking is not it.
    return outside or infer_action_types(_CHECKING.sub(" ", line), describing=True)

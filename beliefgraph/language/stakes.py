"""What a request puts at stake: safety, secrets, private data, money, and someone else's act."""

from __future__ import annotations

import re
from functools import lru_cache

from beliefgraph.language.acts import infer_action_types
from beliefgraph.language.directives import cues
from beliefgraph.language.questions import without_record
from beliefgraph.language.words import CACHE, normalise
from beliefgraph.models import ActionClass, ActionType

# -- what a request puts at stake -----------------------------------------------------------

# What a question asks for that is unsafe to take from memory on its word alone: a dose to
# give (checked first), a limit or an isolation to work to (given with a caution).
_SAFETY = (
    (
        ActionClass.verify_first,
        "a dose",
        cues(
            r"(?:how much|how many|what|which) (?:dose|dosage|of "
            r"(?:his|her|their|the|dads|mums|my)?\s?(?:\w+ )?"
            r"(?:morphine|insulin|medication|medicine|tablets?|pills?|drops?|syrup|thinners?|"
            r"anticoagulants?|antibiotics?|painkillers?|capsules?|injections?))",
            r"dose",
            r"dosage",
            r"draw up",
            r"how many (?:of )?(?:the |his |her |their )?(?:[\w-]+ ){0,3}?"
            r"(?:pills?|tablets?|capsules?|drops?|puffs?) go",
        ),
    ),
    (
        ActionClass.warn,
        "a safety limit",
        cues(
            r"(?:highest|maximum|max|most|safe) (?:\w+ )?(?:pressure|temperature|load|weight|speed|"
            r"current|voltage|torque)",
            r"how much (?:weight|load|pressure)",
            # a load on a body or a structure: "how much can I lean on my left leg?"
            r"how much (?:weight )?(?:can|could|should|may) (?:\w+ ){1,2}?(?:safely )?"
            r"(?:lean on|put through|bear on|lift|load onto|load on)\b",
            r"(?:load|weight|pressure) (?:limit|rating|capacity)",
            r"(?:which|what) (?:breaker|fuse|circuit|isolator)",
            r"torqued?",
            r"(?:done|tightened|torqued) up to",
            # "what do I set the wrench to?", "what do I nip the clamp up to?"
            r"(?:set|nip|tighten|torque|snug) (?:\w+ ){0,4}?(?:wrench|bolts?|nuts?|clamps?|"
            r"screws?|studs?|fixings?) (?:\w+ )?(?:up )?to"
            r"(?= ?[?.!]| ?$| \d| when| once| after| before)",
            r"how tight",
            r"switch (?:\w+ )?off",
            r"isolate",
        ),
    ),
)


@lru_cache(maxsize=CACHE)
def safety_at_stake(text: str) -> tuple[ActionClass, str] | None:
    """What taking the answer from memory risks when a request asks for a dose or a safety
    limit, and the least protective action that respects it; ``None`` otherwise.

    >>> safety_at_stake("How much of Dad's oral morphine do I draw up tonight?")
    (<ActionClass.verify_first: 'verify_first'>, 'a dose')
    >>> safety_at_stake("What's the highest pressure Autoclave 2 can take?")
    (<ActionClass.warn: 'warn'>, 'a safety limit')
    """
    whole = normalise(text)
    # read before the record questions are set aside: "how much did the nurse say?" asks
    # for the amount to give next, in the past tense
    if _AMOUNT_TO_GIVE.search(whole) and _MEDICINE.search(whole):
        return ActionClass.verify_first, "a dose"
    # What was given or done is a record ("how many ampoules did we destroy?"), not a dose.
    line = normalise(without_record(text))
    for action, what, cue in _SAFETY:
        if cue.search(line):
            return action, what
    return None


#: an amount to give next, asked in other words, past tense or not: "how much can she have
#: now?", "how much did the hospice nurse say?"
_AMOUNT_TO_GIVE = cues(
    r"how (?:much|many) (?:\w+ ){0,4}?(?:can|should|could|do i|do we) "
    r"(?:she|he|they|i|we|you|mum|dad) (?:have|take|give|get)(?= ?[?.!]| ?$| now| tonight)",
    r"how much (?:does|did) (?:the |her |his |their )?(?:\w+ )?"
    r"(?:nurse|doctor|gp|pharmacist|vet|consultant) say(?= ?[?.!]| ?$)",
    # a pump's rate keyed in: "what numbers do I put back in for her basal?"
    r"what (?:numbers?|figures?|amounts?|rates?|settings?)? ?(?:do|should) (?:i|we) "
    r"(?:put|type|key|enter|set)(?: back)? in",
)
#: what makes such an amount a medicine's: the request speaks of one
_MEDICINE = cues(
    r"medicines?|medication|tablets?|pills?|drops|syrup|liquid|dose|doses|morphine|"
    r"paracetamol|calpol|ibuprofen|insulin|warfarin|inhaler|puffs?|mg|ml|painkillers?|"
    r"blood thinners?|anticoagulants?|antibiotics?|steroids?|"
    r"basal|bolus|(?:insulin|syringe|feed|infusion) pump"
)


#: a setting that keeps people safe, in its units: a torque, a pressure, a load per area or
#: per level ("wheel nuts to 120 Nm", "fill to 1-1.5 bar", "250 kg per square metre")
_FIGURE = r"\b\d+(?:[.,]\d+)?(?:\s?(?:-|to|and)\s?\d+(?:[.,]\d+)?)?\s?"
_SAFETY_SETTING = re.compile(
    _FIGURE + r"(?:bar|kg (?:per|a|each)|kg/m)\b"
    # a load something is rated for: "rated 2,500 kg", "safe working load 2 t"
    r"|\b(?:rated|swl|safe working load|max(?:imum)? load)\b[^.;]{0,20}?"
    r"\b\d[\d,.]*\s?(?:kg|kilos?|kilograms?|tonnes?|tons?|t|lbs?)\b",
    re.IGNORECASE,
)
#: units that name nothing but such a setting: a torque ("hubs take 95 N·m") or a pressure
#: in its own units ("32 psi"), whatever words stand beside them
_SETTING_UNITS = re.compile(
    _FIGURE + r"(?:(?-i:N ?m|N\u00b7m)|newton[- ]?met(?:er|re)s?|psi|kpa)\b",
    re.IGNORECASE,
)
#: what makes such a figure a setting to work to, not "12 bar blues" or "2 kg each of flour"
_SAFETY_CONTEXT = re.compile(
    r"\b(?:torque|tighten\w*|nuts?|bolts?|screws?|studs?|fixings?|pressure|gauge|valve|boiler|"
    r"tyres?|tires?|inflat\w*|fill\w*|relief|load\w*|limit\w*|capacity|rated|rating|racking|"
    r"floor|mezzanine|shel(?:f|ves)|lift\w*|autoclave|vessel|compressor)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=CACHE)
def holds_safety_setting(text: str) -> bool:
    """Whether a memory's text holds a safety-critical setting (a torque, a pressure, a load
    limit), whatever its label says.

    >>> holds_safety_setting("Box trailer manual: wheel nuts to 120 Nm, star pattern.")
    True
    >>> holds_safety_setting("T-40 wheel hubs take 95 N\u00b7m in a star pattern.")
    True
    >>> holds_safety_setting("The trailer tyres were replaced in May.")
    False
    """
    if _SETTING_UNITS.search(text):
        return True
    return bool(_SAFETY_SETTING.search(text)) and bool(_SAFETY_CONTEXT.search(text))


#: an amount of a medicine to give, in its units: "7.5 mg Monday", "10 ml of the syrup",
#: "half a ml of the oral morphine", "two puffs"
_DOSE = re.compile(
    r"\b(?:\d+(?:[.,]\d+)?|half an?|one|two|three|four)\s?"
    r"(?:mg|mcg|ml|milligrams?|micrograms?|millilit(?:re|er)s?|puffs?)\b"
    # a count of tablets, or of a medicine by its name, taken at times ("two paracetamol
    # every four hours", "one capsule at night")
    r"|\b(?:\d+|half an?|one|two|three|four|five|six|seven|eight)\s(?:\w+\s)?"
    r"(?:tablets?|pills?|capsules?|caplets?|sachets?|lozenges?|paracetamol|ibuprofen|aspirin|"
    r"codeine)\b(?=[^.;]{0,60}?\b(?:a day|daily|every|hours?|hourly|nights?|nightly|mornings?|"
    r"evenings?|bedtime|twice|once|in 24|with food|meals?)\b)",
    re.IGNORECASE,
)


#: a question after an amount: "how many of the little pink ones?", "what dose?"
_AMOUNT_ASKED = cues(r"how (?:much|many)", r"what (?:dose|amount|strength)")


@lru_cache(maxsize=CACHE)
def asks_an_amount(text: str) -> bool:
    """Whether a request asks how much or how many (of anything: a dose held in a memory
    makes it a dose, whatever the request calls the medicine).

    >>> asks_an_amount("How many of the little pink ones does she put out tonight?")
    True
    >>> asks_an_amount("Where are the pink tablets kept?")
    False
    """
    return bool(_AMOUNT_ASKED.search(normalise(text)))


#: another amount than the one set: more, less, a double dose (not "what did the GP change")
_OTHER_AMOUNT = cues(r"more|less|extra|double|increase|reduce|skip|catch up")


@lru_cache(maxsize=CACHE)
def asks_the_set_dose(text: str) -> bool:
    """Whether a request asks the amount of a medicine to give as it is set ("how much of
    the blood thinner tonight?"), not another amount than the one set.

    >>> asks_the_set_dose("How much of Dad's blood thinner should I give him tonight?")
    True
    >>> asks_the_set_dose("How much extra warfarin should he take tonight to bring it up?")
    False
    """
    asked = safety_at_stake(text)
    return (
        asked is not None
        and asked[1] == "a dose"
        and asks_an_amount(text)
        and not _OTHER_AMOUNT.search(normalise(text))
    )


@lru_cache(maxsize=CACHE)
def holds_a_dose(text: str) -> bool:
    """Whether a memory's text holds an amount of a medicine, whatever its label says.

    >>> holds_a_dose("Warfarin plan from the clinic: 7.5 mg Monday, 5 mg the rest of the week.")
    True
    >>> holds_a_dose("Leo's repeat prescription is collected on Fridays.")
    False
    """
    return bool(_DOSE.search(text))


# What a request would hand over or move whatever any memory says of it: a secret, money,
# a person's private data. A plain note that answers such a request does not make it safe.
_AT_STAKE = {
    "a secret": cues(
        r"passwords?",
        r"passcodes?",
        r"passphrases?",
        r"pins?",
        r"log-?ins?",
        r"credentials?",
        r"combinations?",
        r"api keys?",
        r"secrets?",
        r"tokens?",
        r"root",
        r"admin (?:user|account|access)",
        r"get into",
        r"(?:sign|log) ?(?:in|on) (?:details|to|with)",
        r"sign-?ins?",
        r"(?:door|gate|alarm|keypad|lock|access|entry|key) ?codes?",
        r"(?:code|number) (?:for|to|of) the (?:\w+ ){0,3}?(?:door|gate|alarm|keypad|lock|safe)"
        # ... the door's own number, not its engineer's
        r"(?= ?[?.!,;]| ?$| (?:in|into|on|at|so|to|for|and|please|now|tonight)\b)",
        r"(?:need|needs|use|uses) to (?:sign|log) (?:in|on)",
        r"how to get (?:in|into|through|past)",
        r"(?:punch|key|tap) (?:it )?in to (?:get|open)\b",
        r"to get (?:it|the \w+) open",
        r"let (?:him|her|them|the \w+|themselves|himself|herself) (?:in|through)",
        r"what (?:do|does|should|would) (?:i|he|she|they|we) (?:punch|tap) in",
    ),
    "money": cues(
        r"pay(?:ing)?",
        # "get it paid", "get Harbourline paid"; not "paid time off"
        r"(?:get|gets|getting|be) (?:\w+ ){0,4}?paid(?! (?:time|leave|holidays?|parking))",
        r"payments?",
        # paying in other words: "settle the bill", "send them the money", "clear what we owe"
        r"settle (?:up|it|them|this|that|what|the|our|their|\w+s\b)",
        r"remit (?:it|them|the|payments?|[£$€]|to)",
        r"send (?:\w+ ){0,2}(?:money|[£$€]\d)",
        r"(?:push|get) (?:the )?[£$€]?\d[\d,.]* (?:through|out)",
        r"money (?:over|across)",
        r"what we owe",
        r"(?:whichever|whatever|wherever) (?:account|bank)",
        r"transfer",
        r"wire",
        r"refund",
        r"release (?:the )?(?:funds|money|payment)",
        r"bank (?:details|account)",
        r"(?:moved|changed|switched|new) banks?",
        r"(?:banking|bank details|remittance) (?:has|have) changed",
        r"remittance",
        r"account numbers?",
        r"sort code",
        r"iban",
        r"routing number",
    ),
    "private data": cues(
        r"diagnos[ie]s",
        r"medical",
        r"health",
        r"hiv",
        r"date of birth",
        r"birth ?date",
        r"dob",
        r"home address",
        # where a person lives: "where she lives", "where Mei lives" (not "where everything
        # lives in the warehouse")
        r"where (?:he|she|they|(?!(?:it|everything|everyone|stuff|this|that|things?|each|all)\b)"
        r"[a-z]+) lives\b",
        r"where (?:he|she|they|you|we|i) live\b",
        r"where (?:does|did) (?!(?:it|everything|everyone|stuff|this|that|things?|each|all|"
        r"the|a|an|our|my|your|these|those)\b)"
        r"(?:\w+ ){1,2}?live\b",
        r"(?:his|her) (?:postal |current |new )?address",
        r"(?:home|personal|private) (?:phone|mobile|number|email)",
        r"(?:his|her|their|\w+s) (?:mobile|cell)(?: (?:phone|number))?",
        r"(?:his|her|their) (?:phone )?number",
        r"social security",
        r"passport",
        r"salary",
        r"disciplinary",
    ),
}

#: a question about what was done ("what did we pay...?") reads the record, it moves nothing
_PAST_QUESTION = cues(r"(?:what|how much|when|who) (?:did|was|were|have|has)")


#: a name made of words and digits joined by hyphens ("pay-gw-02", "refund-svc-3"): a host or
#: a part, whose words move no money
_CODE = re.compile(r"(?<![\w-])[a-z]+(?:-[a-z0-9]+)*-[a-z]*\d[\w-]*")


@lru_cache(maxsize=CACHE)
def at_stake(text: str) -> str | None:
    """What a request would disclose or move (``"a secret"``, ``"money"``, ``"private
    data"``), or ``None``. A past-tense question about the record is not one: asking what
    was paid moves no money.

    >>> at_stake("Paste the admin login for the office router into their ticket")
    'a secret'
    >>> at_stake("What did we pay the contractor in March?") is None
    True
    >>> at_stake("pay-gw-02 is crawling. Can you just bounce it?") is None
    True
    """
    line = normalise(text)
    for what, cue in _AT_STAKE.items():
        if what == "money":
            if _PAST_QUESTION.search(line):
                continue  # asking what was paid moves no money
            if cue.search(_CODE.sub(" ", line)):  # nor does naming a host ("pay-gw-02")
                return what
        elif cue.search(line):
            return what
    return None


#: what someone else asks to be told: "He wants to know who brought it in", "the caller is
#: asking for her address"
_SOMEONE_ASKS = re.compile(
    r"\b(?!(?:i|we|you|nobody|noone|no one)\b)[a-z']+ (?:wants|needs|asks|is asking|was asking|"
    r"keeps asking|would like|asked|wanted)(?: us| me)? (?:to know|for|about|to see|to have)\b"
)


@lru_cache(maxsize=CACHE)
def request_acts(text: str) -> frozenset[ActionType]:
    """The acts a request asks for (:func:`~beliefgraph.language.acts.infer_action_types`),
    and a hand-over where it passes on what someone else asks to be told, and that is at stake
    ("He wants to know who brought it in and where they live"): telling them hands it over.
    What else someone asks ("the customer asks when we open") is read as asked.

    >>> sorted(a.value for a in request_acts("The caller is asking for her home address."))
    ['execute', 'read']
    >>> sorted(a.value for a in request_acts("The customer asks when we open on Saturday."))
    ['read']
    """
    acts = infer_action_types(text)
    line = normalise(without_record(text))
    asks = _SOMEONE_ASKS.search(line)
    if asks is None:
        return acts
    # what they ask for, in that sentence: not an address to be updated, which is a change
    asked = re.split(r"[.?!;]", line[asks.end() :], maxsplit=1)[0]
    if at_stake(asked) is not None and not re.search(r"\bto be \w+ed\b", asked):
        return acts | {ActionType.execute, ActionType.read}
    return acts


# Whose act it is: a rule may say that the act asked for is someone else's to do (a
# supervisor's at the till, the employee's own in the portal) and what the assistant may do
# instead (explain, look up, compare). A request to do it then gets the explanation, not
# the act.
_ASSISTANT = r"(?:the |this |our |an? )?(?:assistant|ai|bot|agent)"
#: who does a thing, as a rule names them ("by the shift manager", "by our solicitors")
_ROLE_WORD = (
    r"(?:manager|supervisor|lead|team|director|officer|partner|clinician|vet|doctor|gp|"
    r"engineer|solicitor|lawyer|counsel|owner|employee|member|customer|desk|department|"
    r"committee|administrator|coordinator|head|staff|nurse|pharmacist|accountant)"
)
_ROLE = _ROLE_WORD + r"s?\b"
_SOMEONE_ELSES = re.compile(
    r"\b" + _ASSISTANT + r" (?:may|can|should|will) (?:only |just )?(?:explain|tell|describe|"
    r"lay out|look up|compare|outline|point|summari[sz]e|walk)"
    r"|\b" + _ASSISTANT + r" (?:only|just) (?:compiles|explains|prepares|drafts|summari[sz]es|"
    r"looks up)"
    r"|\b" + _ASSISTANT + r" (?:has|have) no \w+ (?:rights|access|authority|permission)"
    r"|\b" + _ASSISTANT + r" (?:does not|doesnt|do not|dont|cannot|cant|may not|is not allowed "
    r"to) (?:\w+ )?(?:approve|book|submit|sign|process|issue|refund|pay|decide|authori[sz]e|"
    r"place|cancel|grant|perform)"
    r"|\bi (?:only )?(?:explain|describe|outline) the (?:process|policy|options)"
    r"|\b(?:i|we) (?:only |just )?(?:give|set out|lay out|explain|describe|point to|outline) "
    r"(?:the )?(?:background|requirements|process|options|steps|links)"
    r"|\b" + _ASSISTANT + r"s (?:part|role|job) is (?:to|only to|just to)"
    r"|\b(?:is|are) (?:the |a |an )?(?:[\w-]+ ){0,3}" + _ROLE_WORD + r"s? (?:call|decision)\b"
    r"|\b(?:is|are) (?:up to|for) (?:the |a |an )?(?:[\w-]+ ){0,3}" + _ROLE_WORD + r"s? to decide"
    # (not "approved by": that is a check before the act, not someone else's act)
    r"|\b(?:is|are) (?:done|handled|made|submitted|processed|issued|arranged|booked|decided) "
    r"(?:only )?(?:at (?:the )?\w+ )?by "
    r"(?:the |our |a |an |their |his |her )?(?:[\w-]+ ){0,2}"
    + _ROLE
    + r"|\bmust be (?:submitted|signed|made|done|approved|filed|sent|booked|handled) by "
    r"(?:the |a |an )?(?:employee|member|customer|patient|client|user|candidate|manager|"
    r"supervisor|owner|traveller|applicant)s?"
    r"|\b(?:the )?\w+ (?:team|desk|office) (?:reimburses|refunds|processes|handles|approves|"
    r"books|issues|arranges)"
)


@lru_cache(maxsize=CACHE)
def someone_elses_act(text: str) -> bool:
    """Whether a rule says the act it governs is done by someone else, the assistant only
    explaining or looking things up.

    >>> someone_elses_act("Lay-away refunds are done only at the till by a supervisor.")
    True
    >>> someone_elses_act("Refunds over 50 GBP need a supervisor's approval.")
    False
    """
    return bool(_SOMEONE_ELSES.search(normalise(text)))


# What a memory's text holds, whatever its label says: the secret itself (a password, a
# door code, a login with its value), a person's private data, or the details money is
# paid to. A word alone is not enough: "passwords are rotated" holds none.
_HOLDS = {
    "a secret": re.compile(
        r"\b(?:password|passcode|passphrase|pin|login|log-in|sign-in|credentials?|combination|"
        r"secret|api key|(?:access|auth|bearer|api) token|"
        r"(?:door|gate|alarm|keypad|lock|access|entry) code|"
        r"(?:recovery|reset|break-?glass|master|unlock|backup|security|vault|admin) "
        r"(?:code|string|key|phrase|word))\b"
        # its value: a token with a digit or a symbol in it, not a count ("every 90 days")
        r"(?:[^.;]{0,40}?[\s:=/'\"(])?"
        r"(?=[\w!@#$%^&*.-]*[\d!@#$%^&*])[\w!@#$%^&*.-]{3,}"
        r"(?!\s+(?:days?|hours?|minutes?|characters?|digits?|months?|weeks?|years?|times?)\b)"
        # a code keyed in ("punch 5-2-8-0 then the key symbol", "the keypad takes 4819")
        r"|\b(?:punch|key|tap)(?: in)?\s+\d(?:[\s-]?\d){3,}\b"
        r"|\b(?:keypad|lock|padlock|safe)\s+(?:takes|opens (?:with|on)|is set to)\s+"
        r"\d(?:[\s-]?\d){2,}\b"
        r"|\b(?:keypad|keycode|key code|door code|gate code)\s*:?\s+\d(?:[\s-]?\d){3,}\b"
        # digits keyed in before the hash or enter key ("4719 then hash")
        r"|\b\d(?:[\s-]?\d){3,7}\s+(?:then|followed by|and then)\s+(?:the )?(?:hash|#|star)"
        # a keypad changed to a new number, said in the next breath ("... was changed.
        # It's now 7391")
        r"|\b(?:keypad|keycode|key code|door code|gate code)\b[^;]{0,80}?\b(?:now|code is|its|"
        r"(?:re)?set to|changed to)\s+\d(?:[\s-]?\d){3,7}\b"
        # a token of letters, digits and a symbol ("Q7!rmT2w-vale") is a secret on its own
        r"|(?<![\w@.])(?=[\w!@#$%^&*-]*[a-z])(?=[\w!@#$%^&*-]*\d)(?=[\w!@#$%^&*-]*[!@#$%^&*])"
        r"[\w!@#$%^&*-]{8,}",
        re.IGNORECASE,
    ),
    "private data": re.compile(
        r"\b(?:dob|date of birth|born (?:on )?\d|ni number|national insurance|social security|"
        r"ssn|diagnos(?:is|ed|es)|hiv|home address|miscarri\w*)\b"
        # a person's condition ("Leo has type 1 diabetes", "she is epileptic")
        r"|\b(?:has|have|had)\s(?:(?:type [12]|mild|severe|early[- ]onset)\s)?"
        r"(?:diabetes|epilepsy|asthma|cancer|dementia|depression|adhd|autism|crohns|"
        # the condition ends the clause: not "diabetes leaflets", "dementia patients"
        r"parkinsons)(?=\s*(?:[.,;:!?)]|$|and\b|since\b|so\b|but\b|which\b))"
        r"|\b(?:is|are|s)\s(?:diabetic|epileptic|autistic|pregnant)\b"
        # a person's pregnancy or treatment ("after losing the pregnancy", "she's on chemo")
        r"|\b(?:losing|lost|lose) (?:the |a |her |their )?(?:pregnancy|baby)\b"
        r"|\b(?:she|he|they)(?:s| is| are| has been| have been)? (?:\w+ )?"
        r"(?:pregnant|on chemo\w*|having chemo\w*)\b"
        # a treatment someone is having ("going through IVF", "starts chemotherapy in June")
        r"|\b(?:going through|having|starts?|starting|started|undergoing|on) "
        r"(?:ivf|chemo\w*|radiotherapy|dialysis|rehab)\b"
        # a phone number of a person's own ("personal mobile 07700 900318")
        r"|\b(?:personal|private|home|mobile|cell)\b(?: \w+)?[\s:,-]{1,3}\+?\d[\d ()-]{7,}\d"
        # a family member's or an emergency contact's number ("mum Sarah 07700 900312")
        r"|\b(?:emergency contacts?|next of kin|mum|dad|mother|father|wife|husband|"
        r"son|daughter|grandad|grandma|grandmother|grandfather)\b[^.;]{0,20}?\+?\d[\d ()-]{7,}\d"
        # where someone lives ("new place: Flat 3, 14 Kestrel Road"), not an office's street
        r"|\b(?:flat|apt|apartment|home|house|lives|living)\b[^.;]{0,30}?"
        r"\b\d{1,4}[a-z]? (?-i:[A-Z][a-z]+) (?:road|street|lane|avenue|close|drive|crescent|"
        r"terrace|gardens|rd|st|ave|ln)\b"
        # a UK postcode, written in capitals ("LS6 2PQ")
        r"|\b(?-i:[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2})\b",
        re.IGNORECASE,
    ),
    "money": re.compile(
        r"\b(?:sort code|iban|account(?: number| no\.?)?|acct)\b[^.;]{0,30}?"
        r"(?<![\d-])(?!(?:19|20)\d\d-\d\d)\d[\d -]{5,}",
        re.IGNORECASE,
    ),
}

#: words by which a memory says what it holds may be handed on ("printed on the welcome
#: card", "fine to give to any visitor")
_SHAREABLE = cues(
    r"(?:fine|ok|okay|free|happy) to (?:give|share|pass|hand)",
    r"(?:can|may) (?:be )?(?:give|given|share|shared|pass|passed|hand|handed)",
    r"(?:give|share|pass) (?:it )?(?:to|with) (?:any|anyone|everyone)",
    r"(?:printed|pinned|posted|displayed) (?:on|at)",
    r"public",
)


#: what a memory of a network or a door says when it has no secret ("open, no key")
_NO_SECRET = re.compile(
    r"\bno (?:key|passphrase|password|passcode|pin|login)(?=\s*(?:[;:,.)]|$|needed|required))",
    re.IGNORECASE,
)


def without_no_secret(text: str) -> str:
    """``text`` without the words that say it holds no secret ("it's open, no passphrase"):
    they name no rule either."""
    return _NO_SECRET.sub("", text)


#: words by which a memory says what it holds is not to be passed on ("she asked me to keep it
#: to myself", "only Carys should know", "she'd rather the street didn't hear about it",
#: "only the two kitchen leads have been given it")
_CONFIDENTIAL = cues(
    r"keep (?:it|this|that) (?:to (?:my|your|our|him|her|them)sel(?:f|ves)|quiet|private|"
    r"between us)",
    r"asked (?:me|us) not to (?:tell|share|mention|say|pass)",
    r"only [\w ]{1,30}? (?:should|may|can|is to|are to|gets? to) know",
    r"rather (?:the |her |his |their )?(?:people|anyone|nobody|no one|everyone|others|street|"
    r"team|colleagues|office|neighbou?rs) (?:didnt |did not |not |doesnt )?(?:knew|know|hear|"
    r"heard|find out|found out|asks?|asked)",
    r"in confidence",
    r"only (?:the )?[\w ()&,]{1,60}? (?:have|has) been given (?:it|the code|the number)",
)


@lru_cache(maxsize=CACHE)
def kept_confidential(text: str) -> bool:
    """Whether a memory says what it holds is not to be passed on ("she asked me to keep it to
    myself", "only Carys should know")."""
    return _said(_CONFIDENTIAL, text)


#: words by which a memory says its details were checked at the source ("confirmed by phone
#: callback to their known number")
_CHECKED = cues(
    r"(?:confirmed|verified|checked|validated) (?:by|with|via|on|against|through) "
    r"(?:a |the |their |our )?(?:phone|call|callback|call-back|calling|known|number|source|"
    r"bank|supplier|vendor|letter)",
)


#: a negation just before a cue turns it round ("never posted on the noticeboard", "not yet
#: confirmed with the bank")
_NEGATED = re.compile(
    r"\b(?:not|never|no|nor|without|dont|doesnt|isnt|arent|wasnt)\b(?:\s+\w+){0,2}\s*$"
)


def _said(cue: re.Pattern[str], text: str) -> bool:
    """Whether ``text`` says ``cue`` and does not negate it."""
    line = normalise(text)
    return any(not _NEGATED.search(line[: m.start()]) for m in cue.finditer(line))


@lru_cache(maxsize=CACHE)
def checked_at_source(text: str) -> bool:
    """Whether a memory says what it holds was checked at its source ("bank details
    confirmed by phone callback to their known number"): paying to it needs no new check.

    >>> checked_at_source("New IBAN from their email, not yet confirmed with the bank.")
    False
    """
    return _said(_CHECKED, text)


@lru_cache(maxsize=CACHE)
def may_be_handed_on(text: str) -> bool:
    """Whether a memory says what it holds may be handed on ("printed on the welcome
    card", "fine to give to any visitor").

    >>> may_be_handed_on("Door code 4471#, never posted on the noticeboard.")
    False
    """
    return _said(_SHAREABLE, text)


#: a value a credential would hold: four or more letters and digits with a digit among them
#: ("kestrel2024", "4471"); "Seaview-Guest-5G" is a network's name
_VALUE = re.compile(r"(?<![\w-])(?=[\w!@#$%^&*]*\d)[\w!@#$%^&*]{4,}")


def holds_a_value(text: str) -> bool:
    """Whether ``text`` holds something that could be a secret's value, recognised or not:
    a credential that holds one stays guarded, whatever the words around it."""
    return bool(_VALUE.search(text))


@lru_cache(maxsize=CACHE)
def holds_at_stake(text: str) -> str | None:
    """What a memory holds that a hand-over would put at stake (``"a secret"``, ``"private
    data"``, ``"money"``), or ``None``: also ``None`` when its text says it may be handed on.

    >>> holds_at_stake("Office router: admin user 'bvadmin', password Tern!4417-harbour.")
    'a secret'
    >>> holds_at_stake("Passwords are rotated every 90 days.") is None
    True
    >>> holds_at_stake("Guest wifi password sandpiper-88, printed on the welcome card.") is None
    True
    """
    if may_be_handed_on(text):
        return None
    for what, pattern in _HOLDS.items():
        if pattern.search(text):
            return what
    return None

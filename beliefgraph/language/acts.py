"""What a request would *do* (read / write / execute), and which acts a belief talks about."""

from __future__ import annotations

import re
from collections.abc import Sequence

from beliefgraph.language.questions import SENTENCE, without_conditions, without_record
from beliefgraph.language.verbs import (
    EXECUTE_VERBS,
    READ_VERBS,
    WRITE_VERBS,
    base_forms,
    is_act,
)
from beliefgraph.language.words import DETERMINERS, STOPWORDS, normalise
from beliefgraph.models import ActionType
from beliefgraph.text import tokenize, word_set

# -- action types ----------------------------------------------------------------------------

#: the acts that change something: a request naming none of them only reads
CHANGING = frozenset({ActionType.write, ActionType.execute})

# How a request can name an act it does not ask for: "don't cancel anything", "how many did
# we destroy?", "give me the background", "I'm leaning towards cancelling".
_NEGATIONS = word_set("dont not never without doesnt didnt cant cannot wont")
_DONE_ALREADY = word_set("did didnt")
_TO_THE_ASKER = word_set("me us")
#: handing something over, which "me"/"us" after it makes a read ("give me the figures")
_HANDING = word_set("give send email forward show share hand")
#: acts that hand information over: the request reads what it hands on
_DISCLOSING = word_set(
    "give send email forward share hand disclose paste text tell reveal reply respond pass"
)
_TOPIC_OF = word_set("about towards toward of considering regarding")
_PERSONS = word_set("i we they he she")
#: words for people, the head of a subject that can be given leave ("the new starter")
_PERSONS_OF = (
    r"(?:(?:start|clean|work|driv|memb|manag|volunt|train|lead|join|engine|teach|offic|own|"
    r"us|help|supervis|play)ers?|trainees?|staff|son|daughter|mum|dad|kids?|children|child|"
    r"pupils?|students?|nurses?|"
    r"tenants?|guests?|customers?|visitors?|interns?|apprentices?|temps?|team|shift|crew|"
    r"agency|contractors?|cleaners?|parents?|carers?|partners?|wife|husband|colleagues?)"
)
#: replying, which "so I can reply" makes the asker's purpose, not the request
_ANSWERING = word_set("reply respond")


# Words that are nouns as often as verbs ("my books", "the order") count as acts only where
# a request asks for them: first in a sentence ("Book the visits"), or after an asking cue.
_INSTRUCTED_WRITES = word_set(
    """
    note record log file label tag list date redate flag set swap fix clear plan
    schedule enter switch turn
    """
)
_INSTRUCTED_EXECUTES = word_set(
    """
    book rebook order reorder ship dispatch run lift key push bump load charge bill post
    text call ring print knock tear pull shift box pack
    """
)
#: verbs that are as often other words ("Chuck says ...", "Empty boxes go ..."): acts only
#: where asked with an object after them ("Chuck the old cables in the skip")
_INSTRUCTED_WITH_AN_OBJECT = word_set("empty chuck")

#: getting rid of something in a phrase ("get rid of the spare chart", "clear out the
#: archive room") is discarding it, which the verb lists know. A rule's text is read in every
#: form ("expired stock is cleared out by the porters"); a request only in the forms that
#: ask (its past forms ask nothing, and "have the jabs cleared away" is read as written).
_DISCARDING = re.compile(
    r"\b(?:get|getting|gets|got|gotten) (?:rid|shot) of\b"
    r"|\b(?:clear|clean)(?:ing|ed|s)? (?:(?:[\w'-]+ ){1,4}?out of|out|away)\b",
    re.IGNORECASE,
)


def _as_discard(m: re.Match[str], *, describing: bool) -> str:
    """ "discard" in the form of the phrase's first word ("got rid of" is "discarded"); in a
    request, a form that asks nothing is left as written."""
    first = m.group(0).split()[0].lower()
    if first.endswith("ing"):
        return "discarding"
    if not describing and first not in ("get", "clear", "clean"):
        return m.group(0)
    if first.endswith(("ed", "got", "gotten")):
        return "discarded"
    return "discards" if first.endswith("s") else "discard"


#: what holds a record: putting something in one writes it
_RECORD = (
    r"(?:doc|document|ticket|notes?|list|calendar|file|folder|records?|system|sheet|"
    r"spreadsheet|newsletter|channel|chat|email|message|form|log|register|crm|wiki|page|"
    r"site|website|portal|account|inbox|diary|chart|rota|schedule|database|ledger|board)"
)
#: ... but not in a compound ("a drop-in session", "the add-on pack", "a pop-up stall"), nor
#: "drop in" or "pop in" named as a thing: after "the" or "a", or before what is dropped in on
#: ("the drop in session", "drop in hours"); "pop in a reminder on the calendar" still places
_PLACE = (
    r"\b(?:put|post|add(?! up)|paste|stick|upload|place|load|jot|type|key|copy|scribble"
    r"|(?<!\bthe )(?<!\ba )(?:drop|pop)"
    r"(?!\s+in\s+(?:sessions?|class(?:es)?|clinics?|centre|center|hours?|times?|days?)\b))"
    r"\b(?!-)[^.;?!]{0,60}?"
    r"\b(?:in|into|on|onto)\s+"
)
_PLACING = re.compile(_PLACE)
_DONE_PLACING = re.compile(r"\b(?:ive|weve|i have|we have|already|had|has|have)\s+" + _PLACE)
_PLACING_IN_RECORD = re.compile(_PLACE + r"(?:[\w-]+\s+){0,4}?" + _RECORD + r"\b")
#: taking something off a record, or moving an appointment to another time, changes a record
_RECORD_CHANGES = re.compile(
    r"\btake (?:\w+ ){1,3}off (?:\w+ ){0,3}?" + _RECORD + r"\b"
    # "put Mr Okafor down for a scaling", "pencil her in for Friday": a booking is written
    r"|\b(?:put|pop|pencil|jot|write) (?:(?:mr|mrs|ms|miss|dr)\.? \w+|him|her|them|me|us) "
    r"(?:down|in) for\b"
    r"|\b(?:move|push|bump|shift|change)\b[^.;?!]{0,50}?\bto\s+(?:\d{1,2}(?::\d\d)?\s?(?:am|pm)\b"
    r"|\d{1,2}:\d\d|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|"
    r"next week)"
)
#: "get the pallets booked": the act in its participle is asked for
_CAUSED = re.compile(r"\bget (?:[\w']+ ){1,6}?([a-z]+ed|sent|paid|done)\b")
#: an act handed to someone else is still asked for: "get the waste firm to haul them off",
#: "tell Lewis to tip it down the drain", "have facilities get rid of the old files"
_DELEGATED = re.compile(
    r"\b(?:get|have|tell|ask|make)\s+(?:(?!to\b)[\w-]+\s+){1,4}?(?:to\s+)?([a-z]+)\s+"
    r"(?:the|them|it|this|that|these|those|all|off|away|rid)\b"
)
#: verbs after "let me", "tell me", "have a" that ask for no act: "let me know the ..."
_NOT_DELEGATED = word_set(
    "know see think look hear guess be have do go come feel understand what who where when which"
    " how whether if why"
)
#: what goes on a carrier is shipped: "get the spare modules on tomorrow's DHL", "get the
#: chilled pallets for the Tromso route onto the refrigerated trailer"; not news asked of
#: one ("get me an update on the trailer")
_ON_A_CARRIER = re.compile(
    r"\b(?:get|put|stick|pop)\s+(?!me\s|us\s)(?:[\w-]+\s+){1,8}?(?:on|onto)\s+(?:the\s+|[\w]+s\s+)?"
    r"(?:[\w-]+\s+){0,2}?"
    r"(?:dhl|ups|fedex|van|truck|lorry|trailer|flight|plane|ship|vessel|courier|post|shuttle"
    r"|run)\b"
)
#: a setting taken to a figure is both a write (as "set it to 190" is) and a deed: "take the
#: cure oven up to 190", "crank line 3 up to 42 a minute", "turn the heat down to 18", where
#: asked. A word stands between the verb and "up": "take up to 10 days" and "set up" are no
#: settings.
_TO_A_FIGURE = re.compile(
    r"\b(?:take|crank|turn|bring|push|bump|knock|dial|set|ramp|wind|put|raise|drop)\s+"
    r"(?:[\w'-]+\s+){1,5}?(?:up|down)\s+(?:to|by)\s+(?:about\s+|around\s+)?\d"
)
#: what is taken off the premises is moved, where asked: "take it home on Saturday", "carry
#: them away"
_TAKEN_AWAY = re.compile(r"\b(?:take|carry)\s+(?:[\w'-]+\s+){1,4}?(?:home|away|off ?site)\b")
#: nouns of acts: "make a note of it", "do a booking", "sort out a refund"
_ACT_NOUNS = {
    **dict.fromkeys(("note", "entry", "correction", "amendment"), ActionType.write),
    **dict.fromkeys(("booking", "payment", "purchase", "reservation"), ActionType.execute),
    **dict.fromkeys(("refund", "transfer", "wire", "reset", "wipe", "purge"), ActionType.execute),
    **dict.fromkeys(("deletion", "return", "withdrawal"), ActionType.execute),
}
#: an act named as a noun after a verb that arranges it: "sort out a refund", "put through
#: the transfer", "make a note of it" (see _instructed)
_ARRANGED = re.compile(
    r"\b(?:sort out|sort|arrange|organi[sz]e|set up|do|make|raise|put through|push through|"
    r"action|process)\s+(?:a|an|the|that|this)\s+(?:[\w-]+\s+){0,2}?"
    rf"({'|'.join(_ACT_NOUNS)})\b"
)
#: equipment switched on or off is operated, not a record changed
_SWITCHED = re.compile(
    r"\b(?:switch|turn)\s+(?:(?:it|them|that|this|the\s+(?:[\w'-]+\s+){0,2}?[\w'-]+)\s+)?"
    r"(?:on|off)\b(?!\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b)"
)
#: "pick one and lock it in": committing a choice is an act
_COMMITTING = re.compile(r"\block (?:it|them|that|this) in\b")
#: sending in other words: "shoot it over to reception", "read it out to her", "to x@y.org"
_SENDING = re.compile(
    r"\b(?:shoot|fire|ping|whip|pass|bounce|send|read|forward)\s+(?:it|them|this|that|these|those)?"
    r"\s*(?:over|across|along|on|out)\s+to\b"
    r"|\bread (?:\w+ ){0,3}?out to (?:her|him|them|the caller|whoever)\b"
    r"|\bto\s+[\w.+-]+@[\w-]+\.[\w.]+"
    # what someone else is to key in: "what does he need to punch in?"
    r"|\bwhat (?:does|do|should|would|can) (?:he|she|they|the \w+) (?:need to |have to )?"
    r"(?:punch|key|type|enter|tap) ?in\b"
)
#: phrases that ask for what follows them
_ASKING = (
    r"go ahead and|can you|could you|would you|will you|i need you to|id like you to|"
    r"i want you to|please|just|and|so"
)
#: answers that ask whether an act is all right ("is it fine to ...")
_FINE = ("ok", "okay", "fine", "alright", "all right", "safe", "allowed")
#: asking leave, where a sentence or a clause starts: the act asked about is at stake ("Can I
#: bin the old records?"), unless the verb asks to be told, to talk or to be handed what is
#: asked for ("Can I ask what the code is?", "Could I grab the code?"): see _instructed
_ASKING_LEAVE = (
    *(f"{modal} {who}" for modal in ("can", "could", "may") for who in ("i", "we")),
    *(f"{who} allowed to" for who in ("am i", "are we")),
    *(f"is it {word} {whom}to" for word in _FINE for whom in ("", "for me ", "for us ")),
)
_NOT_LEAVE_FOR_AN_ACT = _NOT_DELEGATED | word_set(
    "ask talk speak chat say discuss help clarify suggest mention confirm doublecheck grab"
)
#: where an instruction starts: after an asking phrase, or at a sentence's start (or after a
#: dash), an asking phrase there too ("... last week. Could you sweep ..."), or after leave
#: asked at the start of a sentence or a clause ("Rather than bin it, can I take it home?")
_ASKING_CUE = re.compile(
    rf"(?:(?:^|[.!?;:,]\s*)(?:{'|'.join(_ASKING_LEAVE)})\s+"
    rf"|(?:^|[.!?;:]\s*|\s[-\u2013\u2014]+\s*)(?:(?:{_ASKING})\s+)?|\b(?:{_ASKING})\s+)"
    r"(?:please\s+|just\s+|now\s+|then\s+|also\s+|and\s+)*([a-z-]+)"
    # the word after the verb, past a particle: "Flash the firmware", "Bin them", "Throw out
    # the old stock" (see _instructed)
    r"(?:\s+(?:up|off|out|down|away|back)\b)?(?:\s+([a-z]+))?"
)
#: a verb after a comma, then the word after it (see _instructed)
_AFTER_COMMA = re.compile(r",\s+(?:please\s+|just\s+|then\s+|so\s+)*([a-z-]+)\s+([a-z]+)")
#: what follows a verb in the imperative: its object ("Bin them", "Flash the new firmware")
_OBJECT_WORDS = word_set(
    """
    the them it a an this that these those my our his her their all whatever whatevers
    everything anything everyone
    """
)
#: words that open a sentence before "the" or "all" without being verbs: times and days
#: ("Tonight the van ...", "Friday the van ..."), greetings and feelings ("Hi all", "Hope
#: that helps", "Sorry it took so long", "Glad it worked"), a pronoun and its verb run
#: together ("He's all set", "That's the lot")
_NOT_VERBS = word_set(
    """
    today tonight tomorrow yesterday now then also here there maybe perhaps sometimes
    usually ok okay yes no so but and or if when once after before since until while
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thurs
    fri sat sun morning afternoon evening night weekend
    hi hello hey dear thanks thank cheers welcome congrats hope sorry glad happy sad shame
    pity same
    hes shes its thats theres heres whats whos theyre youre were weve ive id ill im
    """
)
_LIGHT_VERBS = word_set("take get make have keep")
#: verbs whose act is where they put something (see _PLACE): "pop it on his file" writes,
#: "stick it on the van" ships
_PLACING_VERBS = word_set("put pop stick place jot scribble")
_ASKED_EXPLICITLY = (
    "go ahead and",
    "can you",
    "could you",
    "would you",
    "will you",
    "you to",
    "just",
    *_ASKING_LEAVE,
)


#: the speaker's own act, announced: "I'm going to bounce the switch", "we'll wipe it", "I'd
#: like to restart it"; it is at stake when they ask about it (see _announced)
_ANNOUNCED = re.compile(
    r"(?:^|[.!?;:,]\s*|\s[-\u2013\u2014]+\s*)(?:so\s+|ok\s+|okay\s+)?"
    r"(?:(?:im|i am|were|we are|i|we)\s+(?:(?:going|about|planning|hoping|intending) to|gonna"
    r"|plan to|intend to|want to|wanna)|ill|id like to|wed like to)"
    r"\s+(?:just\s+|quickly\s+|now\s+|go\s+(?:and\s+)?)*([a-z-]+)"
)
#: verbs an announcement names without an act: "I'm going to need the code", "we're going to
#: be late", "I'd like to know"
_NOT_ANNOUNCED_ACTS = _NOT_DELEGATED | _NOT_LEAVE_FOR_AN_ACT | word_set("need try wait stay")


#: asking whether the act is all right: "that ok?", "any objection?", "any reason not to?"
_APPROVAL = re.compile(
    r"\b(?:ok|okay|alright|all right|fine|objections?|reason not to|problem|issue|cool|allowed|"
    r"good with|happy with|mind)\b[^?]{0,20}\?"
)


def _announced(line: str) -> set[str]:
    """The verbs of acts the speaker announces and asks about, in a normalised ``line``: "I'm
    going to bounce the switch over lunch, that ok?", "I'll wipe the old laptop. Any
    objection?" put the act at stake as "Can I ...?" does; an announcement nobody asks about
    ("I'm going to restart it now.") is news, read as written."""
    verbs = set()
    for m in _ANNOUNCED.finditer(line):
        verb = m.group(1).replace("-", "")
        # asked about in the next question, not asked something else ("... What do I dial
        # it to?", "... Is the office open on Saturday?")
        question = re.match(r"[^?]*\?", line[m.end() :])
        asked = question is not None and _APPROVAL.search(question.group(0)) is not None
        if (
            asked
            and verb not in STOPWORDS
            and verb not in _LIGHT_VERBS
            and verb not in _PLACING_VERBS
            and verb not in _NOT_ANNOUNCED_ACTS
            and not verb.endswith("ed")
            and not any(f in READ_VERBS for f in base_forms(verb, past=False))
        ):
            verbs.add(verb)
    return verbs


#: leave asked for someone else's act: "Can the apprentices use the press brake?", "Is the new
#: starter allowed to drive the van?", "Can the old laptops be wiped?" (see _leave_for_others)
_LEAVE_FOR_OTHERS = re.compile(
    r"(?:^|[.!?;:]\s*)(?:(?:can|could|may)\s+(?!i\b|we\b|you\b)"
    r"|(?:is|are)\s+(?!i\b|we\b|you\b)(?=(?:[\w'-]+\s+){1,5}?(?:allowed|permitted) to\b))"
    # the subject: a name (one word; see _leave_for_others), a phrase up to a person, or
    # anything before "be"
    r"(?:(?P<name>(?!(?:the|my|our|his|her|their|a|an|any|new|this|that)\b)[a-z]+)\s+"
    r"|(?:the|my|our|his|her|their|a|an|any|new)\s+(?:[\w'-]+\s+){0,3}?"
    + _PERSONS_OF
    + r"\s+(?:(?:allowed|permitted)\s+to\s+)?"
    r"|(?:[\w'-]+\s+){1,5}?be\s+)"
    r"(?P<verb>[a-z]+)"
)
#: one-word subjects that name no one: pronouns and the like, determiners
_NOT_NAMES = STOPWORDS | DETERMINERS
#: verbs of everyday acts the lists leave out, which such a question puts at stake
_EVERYDAY_ACTS = word_set(
    """
    use go drive enter pick take bring leave operate open restart reboot access borrow lend
    fit swap replace fix repair touch handle ride climb carry collect start stop cut weld
    lift bounce
    """
)


def _leave_for_others(line: str) -> set[str]:
    """The verbs of acts a normalised ``line`` asks leave for on someone else's behalf, or for
    a thing to undergo ("can my son pick up my prescription?", "can the old laptops be
    wiped?"); not what a thing can do ("can the van take a full pallet?")."""
    verbs = set()
    for m in _LEAVE_FOR_OTHERS.finditer(line):
        word = m.group("verb")
        if m.group("name") in _NOT_NAMES:
            continue  # "can it ...", "could every ...": no one given leave
        forms = base_forms(word, past=True)
        if is_act(word) or any(f in _EVERYDAY_ACTS or f in _INSTRUCTED_EXECUTES for f in forms):
            verbs.add(word)
    return verbs


def _asks_for_phrase(phrase: re.Pattern[str], line: str) -> bool:
    """Whether ``line`` asks for what ``phrase`` says ("can I take it home on Saturday?"), read
    at its first word within its own sentence ("... the rush is on. Crank line 3 up to 42":
    "on" ends another); not where that is refused or done ("did Sam take it home?")."""
    for m in phrase.finditer(line):
        opening = max(line.rfind(stop, 0, m.start()) for stop in ".?!;:") + 1
        if _asked_for(tokenize(line[opening : m.end()]), len(tokenize(line[opening : m.start()]))):
            return True
    return False


def _instructed(text: str) -> tuple[frozenset[ActionType], bool]:
    """The acts a request instructs in words the verb lists leave out: "Book the visits",
    "go ahead and knock out the wall" (an act asked for outright is an execution); and
    whether a sentence opens with a verb no list knows, and its object ("Bin them", "Flash
    the new firmware"): an execution, unless the request names its acts otherwise."""
    found: set[ActionType] = set()
    unnamed = False  # an instruction by a verb the lists do not know, and nothing else
    line = normalise(text)
    for m in _ASKING_CUE.finditer(line):
        verb = m.group(1).replace("-", "")
        cue = line[m.start() : m.start(1)].strip()
        # a sentence that opens with a verb and its object, and asks nothing, is an
        # instruction: "Bin them", "Press the reset button"
        ending = re.search(r"[.!?]", line[m.end() :])
        imperative = (
            cue.strip(".!?;:-\u2013\u2014 ") == ""
            and m.group(2) in _OBJECT_WORDS
            and verb not in _NOT_VERBS
            and not verb.endswith("ed")  # "Finished the report.": done, not asked
            and not (ending and ending.group(0) == "?")
        )
        asked_outright = (
            (cue.endswith(_ASKED_EXPLICITLY) or imperative)
            and (verb == "do" or verb not in STOPWORDS)
            # a light verb means what its words after it say ("take it off the list")
            and verb not in _LIGHT_VERBS
            and verb not in _PLACING_VERBS
            and not any(f in READ_VERBS for f in base_forms(verb, past=False))
            and not is_act(verb)
            and not (cue.endswith(_ASKING_LEAVE) and verb in _NOT_LEAVE_FOR_AN_ACT)
        )
        if verb in _INSTRUCTED_WRITES and _SWITCHED.match(line, m.start(1)):
            found.add(ActionType.execute)  # "Switch off the kiln"
        elif verb in _INSTRUCTED_WRITES:
            found.add(ActionType.write)
        elif (
            verb in _INSTRUCTED_EXECUTES
            or (verb in _INSTRUCTED_WITH_AN_OBJECT and m.group(2) in _OBJECT_WORDS)
            or (asked_outright and not imperative)
        ):
            found.add(ActionType.execute)
        elif asked_outright:
            unnamed = True
    for verb in _leave_for_others(line):
        forms = base_forms(verb, past=True)  # "can the old laptops be wiped?"
        if any(f in READ_VERBS for f in forms):
            continue  # "can the team see the rota?"
        if any(f in WRITE_VERBS or f in _INSTRUCTED_WRITES for f in forms):
            found.add(ActionType.write)
        else:
            found.add(ActionType.execute)
    for verb in _announced(line):
        if verb in _INSTRUCTED_WRITES:
            found.add(ActionType.write)
        elif not is_act(verb) or verb in _INSTRUCTED_EXECUTES:
            found.add(ActionType.execute)  # a named act is read by the verb lists
    # after a clause that sets the scene, a verb and its object: "Dan emailed a new account
    # number this morning, switch his salary over to it"
    for verb, following in _AFTER_COMMA.findall(line):
        if following not in _OBJECT_WORDS:
            continue
        if verb in _INSTRUCTED_WRITES:
            found.add(ActionType.write)
        elif verb in _INSTRUCTED_EXECUTES or verb in _INSTRUCTED_WITH_AN_OBJECT:
            found.add(ActionType.execute)
    # into a document, a ticket, a folder: a write; onto a trailer or a shelf: a deed.
    # "I've put his form into the portal" is done already.
    line = _DONE_PLACING.sub(" ", line)
    if _PLACING_IN_RECORD.search(line):
        found.add(ActionType.write)
    elif _PLACING.search(line):
        found.add(ActionType.execute)
    if _RECORD_CHANGES.search(line):
        found.add(ActionType.write)
    if (
        _COMMITTING.search(line)
        or _ON_A_CARRIER.search(line)
        or _asks_for_phrase(_TAKEN_AWAY, line)
    ):
        found.add(ActionType.execute)
    if _asks_for_phrase(_TO_A_FIGURE, line):
        found |= {ActionType.execute, ActionType.write}
    for m in _DELEGATED.finditer(line):
        verb = m.group(1)
        if verb == "get" or not (
            verb in _NOT_DELEGATED
            or verb in STOPWORDS
            or verb in _NOT_VERBS
            or is_act(verb)  # named acts are read by the verb lists
            or any(f in READ_VERBS for f in base_forms(verb, past=False))
        ):
            found.add(ActionType.execute)  # "get rid of", "haul them off", "tip it"
    if _asks_for_phrase(_ARRANGED, line):
        found |= {_ACT_NOUNS[m.group(1)] for m in _ARRANGED.finditer(line)}
    if _SENDING.search(line):
        found |= {ActionType.execute, ActionType.read}  # what is handed over is read first
    for m in _CAUSED.finditer(line):
        for form in base_forms(m.group(1), past=True):
            if form in WRITE_VERBS or form in _INSTRUCTED_WRITES:
                found.add(ActionType.write)
            elif form in EXECUTE_VERBS or form in _INSTRUCTED_EXECUTES:
                found.add(ActionType.execute)
    return frozenset(found), unnamed


#: what a rule names when it is about handing something over; "release" is here and not in
#: _DISCLOSING, since releasing a payment or a load is no read of anything
_NAMES_DISCLOSURE = _DISCLOSING | word_set("release")


def names_disclosure(text: str) -> bool:
    """Whether ``text`` speaks of handing something over (sharing, sending, releasing)."""
    return any(
        form in _NAMES_DISCLOSURE
        for token in tokenize(text)
        for form in base_forms(token, past=True)
    )


#: words between a determiner and a verb ("the team can send", "my manager to approve")
_VERB_LEADS = word_set(
    "can could will would should must may might to please just not also and or then but"
)
#: a word after these is a noun ("bought in store", "receipt in hand", "sent by email")
_PREPOSITIONS = word_set("in on at by of from with")


def _asked_for(tokens: Sequence[str], i: int) -> bool:
    """Whether the act word at ``tokens[i]`` is one the request asks to be done."""
    before = tokens[max(0, i - 3) : i]
    previous = before[-1] if before else ""
    following = tokens[i + 1] if i + 1 < len(tokens) else ""
    if previous in DETERMINERS or previous in _PREPOSITIONS:
        return False  # "the archive", "any transfer", "in store", "by email": a noun
    if len(before) > 1 and before[-2] in DETERMINERS and previous not in _VERB_LEADS:
        return False  # "his first pay", "the weekly transfer": a noun after its adjective
    if _NEGATIONS & set(before[-2:]) or _DONE_ALREADY & set(before):
        return False  # "don't cancel", "did we destroy": not asked for, or done already
    if tokens[i] in _ANSWERING and "so" in before and _PERSONS & set(before):
        return False  # "give me the background so I can reply": the asker's purpose
    if tokens[i].endswith("ing") and previous in _TOPIC_OF:
        return False  # "thinking about cancelling": the topic, not the request
    return not (tokens[i] in _HANDING and following in _TO_THE_ASKER)  # "give me": a read


def infer_action_types(text: str, *, describing: bool = False) -> frozenset[ActionType]:
    """The action types ``text`` names.

    For a request (``describing=False``) only base and "-ing" verb forms count, and only
    acts the request asks for: not a negated one ("don't cancel anything"), one done
    already ("how many did we destroy?"), a noun ("the archive") or the topic of a thought
    ("leaning towards cancelling"); handing something to the asker ("give me", "send us")
    is a read. A request that names no write or execute verb is a ``read``, unless one of its
    sentences opens with a verb and its object and asks nothing ("Bin them", "Flash the
    firmware"): an instruction, an ``execute``. For a belief (``describing=True``) every form
    counts ("must be issued", "before marking"), and a text that names no act returns the
    empty set: the belief does not say which acts it governs.

    >>> sorted(a.value for a in infer_action_types("How many ampoules did we destroy in October?"))
    ['read']
    >>> sorted(a.value for a in infer_action_types("Don't cancel anything; give me the facts."))
    ['read']

    Returns:
        A subset of {read, write, execute}.
    """
    if not describing:
        # A question about what was done ("When was the archive last purged?") reads the
        # record, whatever acts it names.
        text = without_record(text)
        # nor does an act in the condition of a question ("... when we buy in store?")
        text = without_conditions(text)
    text = _DISCARDING.sub(lambda m: _as_discard(m, describing=describing), text)
    found: set[ActionType] = set()
    # sentence by sentence: what stands before a word in another sentence says nothing of it
    # ("... in the queue. Sign it off")
    for sentence in SENTENCE.split(text):
        tokens = tokenize(sentence)
        for i, token in enumerate(tokens):
            if not describing and not _asked_for(tokens, i):
                continue
            for form in base_forms(token, past=describing):
                if form in WRITE_VERBS:
                    found.add(ActionType.write)
                elif form in EXECUTE_VERBS:
                    found.add(ActionType.execute)
                    if not describing and form in _DISCLOSING:
                        found.add(ActionType.read)  # what is handed over is read first
                elif form in READ_VERBS:
                    found.add(ActionType.read)
    if not describing:
        instructed, unnamed = _instructed(text)
        found |= instructed
        if unnamed and not found & CHANGING:
            found.add(ActionType.execute)
    if not describing and not found & CHANGING:
        found.add(ActionType.read)
    return frozenset(found)

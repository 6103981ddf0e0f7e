"""Reading requests and beliefs for the planner: action types, directives, scopes.

Everything here is a pure function of text (no database, no model), so the rules can be
read, unit-tested and reasoned about on their own:

* :func:`infer_action_types` - what a request would *do* (read / write / execute), and, for
  a belief, which acts it talks about;
* :func:`read_directive` - whether a belief's text is a rule (a requirement, a prohibition,
  a permission) and how protective it is;
* :class:`Terms` and :func:`match_governs` / :func:`match_derived` - whether a request
  falls inside a belief's jurisdiction, for an explicit ``governs`` scope and for the scope
  derived from what a belief says and is about.

All word comparisons go through :func:`beliefgraph.text.tokenize` (so "Wi-Fi" is "wifi")
plus a light plural folding (:func:`fold_plural`), applied to both sides alike.

>>> sorted(a.value for a in infer_action_types("Remind me the dose so I can fill the pillbox"))
['execute', 'read']
>>> read_directive("Any dose must be confirmed against the label before use.").action
<ActionClass.verify_first: 'verify_first'>
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from beliefgraph.models import ActionClass, ActionType
from beliefgraph.text import fold, tokenize, unique, word_set

# -- words -----------------------------------------------------------------------------------

# Plural folding only: stemming past tenses or gerunds ("paid", "reconciling") would make a
# past event look like a request to act, and scopes are written in base forms anyway.
_PLURAL_KEEP = frozenset({"access", "process", "business", "status", "analysis", "address", "this"})


# British and American spellings of one word compare equal ("authorisation",
# "enrolment", "cancelled", "colour"): each is read in its American form.
_SPELLINGS = (
    (re.compile(r"isation(s?)$"), r"ization\1"),
    (re.compile(r"(?<=[^l])lment(s?)$"), r"llment\1"),
    (
        re.compile(
            r"^(author|organ|recogn|priorit|summar|final|minim|maxim|optim|custom|apolog|"
            r"categor|special|normal|central|personal|visual|familiar|memor|sanit|item|"
            r"standard|util|real|stabil|legal|formal|subsid|emphas|harmon|local)is(e|ed|es|ing)$"
        ),
        r"\1iz\2",
    ),
    (
        re.compile(r"^(cancel|label|travel|model|fuel|signal|total|level|channel)l(ed|ing|er)$"),
        r"\1\2",
    ),
    (re.compile(r"^(colo|behavio|favo|hono|labo|neighbo|odo|humo)ur(s?)$"), r"\1r\2"),
    (re.compile(r"^(cent|met|lit|theat|fib)re(s?)$"), r"\1er\2"),
    (re.compile(r"^(licen|defen|offen)ce(s?)$"), r"\1se\2"),
    (re.compile(r"^(program|catalog|dialog)(?:me|ue)(s?)$"), r"\1\2"),
)


#: one thing under two common names, read as one word ("the March bill" is its invoice)
_ONE_NAME = {
    "bill": "invoice",
    "shop": "store",
    "fridge": "refrigerator",
    "resit": "retake",
    "lorry": "truck",
    "timetable": "schedule",
    "visitor": "guest",
}


def american(token: str) -> str:
    """``token`` in its American spelling ("enrolment" -> "enrollment")."""
    if len(token) < 5 or not token.isalpha():
        return token
    for pattern, replacement in _SPELLINGS:
        token = pattern.sub(replacement, token)
    return token


def fold_plural(token: str) -> str:
    """``token`` without a regular English plural ending ("policies" -> "policy"), in its
    American spelling, and under the one name of a thing with two common ones ("bills" ->
    "invoice")."""
    token = american(token)
    singular = _singular(token)
    return _ONE_NAME.get(singular, singular)


def _singular(token: str) -> str:
    if len(token) <= 3 or token in _PLURAL_KEEP or token.endswith(("ss", "us", "is")):
        return token
    if token.endswith("ies") and len(token) > 4:
        return token[:-3] + "y"
    if token.endswith(("ches", "shes", "xes", "zes", "sses")):
        return token[:-2]
    if token.endswith("s"):
        return token[:-1]
    return token


# The planner reads the same belief texts and terms on every query that reaches them;
# the readings are pure functions of the text, so they are cached (bounded).
_CACHE = 8192


@lru_cache(maxsize=_CACHE)
def words(text: str) -> tuple[str, ...]:
    """The tokens of ``text`` with plurals folded, in order (the unit every match uses)."""
    return tuple(fold_plural(t) for t in tokenize(text))


#: words that say nothing about *what* a belief governs: function words, question words,
#: modal and directive words (they are read by :func:`read_directive` instead), and a few
#: words so general that sharing them means nothing ("any", "current", "new").
STOPWORDS = word_set(
    """
    a about above after again against all also am an and any anyone anything are around as at
    be been before being below between both but by can cannot could did do does doing done dont
    down during each either else even ever every few for from further get gets getting got had
    has have having he her here hers herself him himself his how i if im in into is it its itself
    just let like ll me might mine more most much must my myself need needs no nor not now of
    off on once one only or other our ours ourselves out over own per please re really same
    say said saying shall she should so some such than that the their theirs them themselves
    then there these they this those though through to too under until up upon us use used
    using ve very via want was we were what whatever when where whether which while who whom
    whose why will with within without would yet you your yours yourself yourselves
    already actually always generally usually normally probably currently ago last next today
    tonight tomorrow yesterday time times week weeks day days month months year years quarter
    new old current thing things way part parts lot bit kind sort someone something somebody
    anybody everyone everything nothing may might ok okay sure fine
    required require requires requiring never allowed blocked block only unless except
    """
)


def content_words(text: str) -> list[str]:
    """The words of ``text`` that can carry a topic: no stop words, no bare numbers."""
    return [w for w in words(text) if w not in STOPWORDS and not w.isdigit() and len(w) > 1]


# -- terms and phrases -----------------------------------------------------------------------


@dataclass(frozen=True)
class Terms:
    """A request, read once: its words (plural-folded) for phrase matching.

    A term matches when its words occur contiguously in the request, or when the request
    writes the same words run together or apart ("door to door" / "door-to-door";
    "wi fi" / "Wi-Fi").
    """

    text: str
    tokens: tuple[str, ...]

    @classmethod
    def of(cls, text: str) -> Terms:
        """Read ``text``."""
        return cls(text, words(text))

    def find(self, term: str) -> tuple[int, int] | None:
        """Where ``term`` occurs as ``(start, end)`` token positions, or ``None``."""
        phrase = words(term)
        if not phrase:
            return None
        n, toks = len(phrase), self.tokens
        for i in range(len(toks) - n + 1):
            if toks[i : i + n] == phrase:
                return i, i + n
        joined = "".join(phrase)
        for i in range(len(toks)):
            run = ""
            for j in range(i, min(len(toks), i + 6)):
                run += toks[j]
                if run == joined and (j > i or n > 1):
                    return i, j + 1
                if len(run) >= len(joined):
                    break
        return None

    def has(self, term: str) -> bool:
        """Whether ``term`` occurs in the request."""
        return self.find(term) is not None


# -- action types ----------------------------------------------------------------------------

#: the acts that change something: a request naming none of them only reads
CHANGING = frozenset({ActionType.write, ActionType.execute})

# Verbs by what doing them does. Destroying something (delete, wipe, shred, purge) cannot be
# undone: it is an execution, not an edit. A request names them in the base form ("send", "mark") or
# as "-ing" ("reconciling"); past forms ("sent", "paid", "logged") describe what already
# happened and never make a request a write or an execution. Words that are mostly nouns in
# requests ("book", "note", "order", "record", "log") are left out: "my books" is no booking.
_WRITE_VERBS = word_set(
    """
    mark update change edit save store add rename modify adjust correct
    overwrite amend enter register remember forget cancel reschedule assign reconcile write
    archive tweak alter configure reconfigure
    """
)
_EXECUTE_VERBS = word_set(
    """
    send release export share pay process transfer wire initiate provision grant approve
    authorize authorise confirm issue enable disable deploy execute launch fill refill quote
    disclose publish email forward refund reverse submit sign buy purchase connect install
    invite upload withdraw dispense administer let allow move give sell disburse remit onboard
    enroll enrol rotate reset revoke unlock
    delete erase remove wipe shred purge destroy drop decommission dispose discard scrap
    incinerate demolish terminate paste hand reply respond pass
    """
)
_READ_VERBS = word_set(
    """
    what who when where which how show tell remind read look lookup pull find check recall
    retrieve see summarize summarise view display fetch know whats advise
    """
)
# Belief texts describe the acts they govern in any form: "before marking", "must be
# issued", "used to fill". These irregular forms are not reachable by suffix rules.
_IRREGULAR = {
    "sent": "send",
    "paid": "pay",
    "given": "give",
    "gave": "give",
    "shown": "show",
    "told": "tell",
    "sold": "sell",
    "bought": "buy",
    "wrote": "write",
    "written": "write",
    "let": "let",
    "set": "set",
    "run": "run",
    "read": "read",
}


def _base_forms(token: str, *, past: bool) -> list[str]:
    """Candidate base forms of a verb token: itself, "-ing" and, if ``past``, "-ed" forms."""
    forms = [token]
    suffixes = ["ing"] + (["ed"] if past else [])
    for suffix in suffixes:
        if token.endswith(suffix) and len(token) > len(suffix) + 2:
            stem = token[: -len(suffix)]
            forms += [stem, stem + "e"]
            if len(stem) > 2 and stem[-1] == stem[-2]:  # "logging" -> "log"
                forms.append(stem[:-1])
    if past and token in _IRREGULAR:
        forms.append(_IRREGULAR[token])
    if past and token.endswith("s") and len(token) > 3:  # "sends": someone else's act
        forms.append(token[:-1])
    return forms


@lru_cache(maxsize=_CACHE)
def is_act(token: str) -> bool:
    """Whether ``token`` names an act (in any form): acts are action types, not topics."""
    return any(
        form in _WRITE_VERBS or form in _EXECUTE_VERBS or form in _READ_VERBS
        for form in _base_forms(token, past=True)
    )


#: a word after these is a noun, whatever else it can be ("the email", "any change")
DETERMINERS = word_set(
    """
    the a an this that these those my our your his her their its any every each all no some
    """
)
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
    text call ring print knock tear pull shift
    """
)

#: what holds a record: putting something in one writes it
_RECORD = (
    r"(?:doc|document|ticket|notes?|list|calendar|file|folder|records?|system|sheet|"
    r"spreadsheet|newsletter|channel|chat|email|message|form|log|register|crm|wiki|page|"
    r"site|website|portal|account|inbox|diary|chart|rota|schedule|database|ledger|board)"
)
_PLACE = (
    r"\b(?:put|post|drop|add(?! up)|pop|paste|stick|upload|place|load)\b[^.;?!]{0,60}?"
    r"\b(?:in|into|on|onto)\s+"
)
_PLACING = re.compile(_PLACE)
_DONE_PLACING = re.compile(r"\b(?:ive|weve|i have|we have|already|had|has|have)\s+" + _PLACE)
_PLACING_IN_RECORD = re.compile(_PLACE + r"(?:[\w-]+\s+){0,4}?" + _RECORD + r"\b")
#: taking something off a record, or moving an appointment to another time, changes a record
_RECORD_CHANGES = re.compile(
    r"\btake (?:\w+ ){1,3}off (?:\w+ ){0,3}?" + _RECORD + r"\b"
    r"|\b(?:move|push|bump|shift|change)\b[^.;?!]{0,50}?\bto\s+(?:\d{1,2}(?::\d\d)?\s?(?:am|pm)\b"
    r"|\d{1,2}:\d\d|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|"
    r"next week)"
)
#: "get the pallets booked": the act in its participle is asked for
_CAUSED = re.compile(r"\bget (?:[\w']+ ){1,6}?([a-z]+ed|sent|paid|done)\b")
#: "pick one and lock it in": committing a choice is an act
_COMMITTING = re.compile(r"\block (?:it|them|that|this) in\b")
_ASKING_CUE = re.compile(
    r"(?:\b(?:go ahead and|can you|could you|would you|will you|"
    r"i need you to|id like you to|i want you to|please|just|and|so)\s+|^|[.!?;]\s*)"
    r"(?:please\s+|just\s+|now\s+|then\s+|also\s+|and\s+)*([a-z-]+)"
)
_LIGHT_VERBS = word_set("take get make have keep")
_ASKED_EXPLICITLY = (
    "go ahead and",
    "can you",
    "could you",
    "would you",
    "will you",
    "you to",
    "just",
)


def _instructed(text: str) -> frozenset[ActionType]:
    """The acts a request instructs in words the verb lists leave out: "Book the visits",
    "go ahead and knock out the wall" (an act asked for outright is an execution)."""
    found: set[ActionType] = set()
    line = _normalise(text)
    for m in _ASKING_CUE.finditer(line):
        verb = m.group(1).replace("-", "")
        cue = line[m.start() : m.start(1)].strip()
        asked_outright = (
            cue.endswith(_ASKED_EXPLICITLY)
            and (verb == "do" or verb not in STOPWORDS)
            # a light verb means what its words after it say ("take it off the list")
            and verb not in _LIGHT_VERBS
            and not any(f in _READ_VERBS for f in _base_forms(verb, past=False))
            and not is_act(verb)
        )
        if verb in _INSTRUCTED_WRITES:
            found.add(ActionType.write)
        elif verb in _INSTRUCTED_EXECUTES or asked_outright:
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
    if _COMMITTING.search(line):
        found.add(ActionType.execute)
    for m in _CAUSED.finditer(line):
        for form in _base_forms(m.group(1), past=True):
            if form in _WRITE_VERBS or form in _INSTRUCTED_WRITES:
                found.add(ActionType.write)
            elif form in _EXECUTE_VERBS or form in _INSTRUCTED_EXECUTES:
                found.add(ActionType.execute)
    return frozenset(found)


_SENTENCE = re.compile(r"(?<=[.?!;:])\s+")
_ASKS_WHAT_WAS = re.compile(
    r"\s*(?:and\s+)?(?:what|when|who|whom|which|where|how(?: many| much| often| long)?)\b"
    r"[^.?!;]{0,40}?\b(?:did|was|were|had|has|have)\b",
    re.IGNORECASE,
)


_THE_RULE = re.compile(
    r"\b(?:what(?:s| is| are)|whats|tell me|remind me(?: of)?|explain) (?:the |our |your )?"
    r"(?:\w+ ){0,4}?(?:rules?|routine|procedure|process|policy|steps|drill|protocol)\b|"
    r"\bhow (?:do|does|should) (?:i|we|you|they|staff|people) (?:\w+ ){0,3}?(?:go about|handle)\b"
)


@lru_cache(maxsize=_CACHE)
def asks_for_the_rule(text: str) -> bool:
    """Whether a request asks what the rule or procedure is ("What's the hand-off routine
    at Lyon?"): it reads the rule itself, whatever acts the rule governs.

    >>> asks_for_the_rule("What's the hand off routine when a load swaps drivers?")
    True
    >>> asks_for_the_rule("Swap the drivers at Lyon.")
    False
    """
    return bool(_THE_RULE.search(_normalise(text)))


#: what a rule names when it is about handing something over; "release" is here and not in
#: _DISCLOSING, since releasing a payment or a load is no read of anything
_NAMES_DISCLOSURE = _DISCLOSING | word_set("release")


def names_disclosure(text: str) -> bool:
    """Whether ``text`` speaks of handing something over (sharing, sending, releasing)."""
    return any(
        form in _NAMES_DISCLOSURE
        for token in tokenize(text)
        for form in _base_forms(token, past=True)
    )


#: what a question about the record goes on to ask for ("... so I can quote it now")
_PURPOSE = re.compile(r"\b(?:so (?:that )?(?:i|we) can|and then|then)\b", re.IGNORECASE)


def _without_record(text: str) -> str:
    """``text`` without its questions about what was done; a purpose they go on to name
    ("what did we land on, so I can quote it now?") stays."""
    kept = []
    for sentence in _SENTENCE.split(text):
        if _ASKS_WHAT_WAS.match(sentence):
            purpose = _PURPOSE.search(sentence)
            sentence = sentence[purpose.start() :] if purpose else ""
        kept.append(sentence)
    return " ".join(kept)


@lru_cache(maxsize=_CACHE)
def asks_what_was_done(text: str) -> bool:
    """Whether a request asks about what was done ("when did the disks get erased?",
    "which seat did I end up with?"), and nothing more: a read of the record, which a rule
    on doing it does not hold."""
    asked = any(_ASKS_WHAT_WAS.match(s) for s in _SENTENCE.split(text))
    return asked and not _PURPOSE.search(text)


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
    is a read. A request that names no write or execute verb is a ``read``. For a belief
    (``describing=True``) every form counts ("must be issued", "before marking"), and a
    text that names no act returns the empty set: the belief does not say which acts it
    governs.

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
        text = _without_record(text)
    found: set[ActionType] = set()
    # sentence by sentence: what stands before a word in another sentence says nothing of it
    # ("... in the queue. Sign it off")
    for sentence in _SENTENCE.split(text):
        tokens = tokenize(sentence)
        for i, token in enumerate(tokens):
            if not describing and not _asked_for(tokens, i):
                continue
            for form in _base_forms(token, past=describing):
                if form in _WRITE_VERBS:
                    found.add(ActionType.write)
                elif form in _EXECUTE_VERBS:
                    found.add(ActionType.execute)
                    if not describing and form in _DISCLOSING:
                        found.add(ActionType.read)  # what is handed over is read first
                elif form in _READ_VERBS:
                    found.add(ActionType.read)
    if not describing:
        found |= _instructed(text)
    if not describing and not found & CHANGING:
        found.add(ActionType.read)
    return frozenset(found)


# -- directives ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Directive:
    """What a belief's text says about acting: a rule or not, and how protective.

    ``action`` is ``block`` for an unconditional prohibition, ``verify_first`` for a
    requirement to check, confirm or get approval first, ``answer`` for a permission, and
    ``None`` for a plain statement. ``cue`` is the phrase that decided it.
    """

    action: ActionClass | None
    cue: str | None = None

    @property
    def is_rule(self) -> bool:
        """Whether the text restricts what may be done (a requirement or a prohibition)."""
        return self.action in (ActionClass.block, ActionClass.verify_first)


def _cues(*patterns: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(patterns) + r")\b")


# A negated requirement is a permission: "no approval required", "not needed".
_PERMISSION = _cues(
    r"no \w+ (?:is |are )?(?:required|needed|necessary)",
    r"(?:is|are) not (?:required|needed|necessary)",
    r"without (?:review|approval|checks?)",
    r"freely \w+",
    r"(?:is|are) (?:safe|fine|ok) to",
    r"can be (?:read back|shared|surfaced|used|stated|given)",
    r"may be (?:shared|used|released|included|summarized|read)",
)
# Checking, confirming or approving first: the rule holds the act until something is done.
_VERIFY = _cues(
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
_BLOCK = _cues(
    r"must not",
    r"must never",
    r"never",
    r"do not",
    r"dont",
    r"does not satisfy",
    # "cannot be recovered" says what deleting does; it forbids nothing
    r"can ?not(?! be (?:recovered|undone|reversed|restored|retrieved|reopened))",
    r"may not",
    r"shall not",
    r"should not",
    r"(?:is|are) (?:blocked|prohibited|forbidden|not allowed)",
    r"block requests?",
)


# A prohibition can go on to name the sanctioned way ("Never tell anyone a guest's room
# number. Offer to ring the room."): the act goes through that path, so it is checked, not
# refused, unless the rule says no path exists ("no exceptions", "by anyone").
_ROUTE = re.compile(
    r"[.;:]\s*(?:(?:instead|if so|if asked|if needed|then),?\s+)?"
    r"(?:(?:when|if|where|once|for)\b[^.;,]{0,60},\s*)?"
    r"(?:offer|use|send|resend|forward|direct|refer|ask|call|record|route|point|redirect|"
    r"escalate|raise|arrange|hold|take|ring|have|tell|pass|give|book|log|contact|quarantine|"
    r"keep|put|let|invite)\b"
)
#: a sentence after a prohibition that says how the thing is done instead ("The change is
#: confirmed by calling a known contact"), or a check it waits for ("until the pharmacy
#: lead has checked"): a route exists
_ROUTE_SAID = re.compile(
    r"[.;:]\s*(?:the|a|an|any|each|every|such) (?:\w+ ){0,2}(?:is|are|must be|should be|can be|"
    r"may be) (?:only )?(?:confirmed|verified|approved|checked|authori[sz]ed) "
    r"(?:by|through|via|with)\b"
    r"|\buntil (?:the |a |an )?(?:\w+ ){0,4}(?:has |have )?(?:checked|confirmed|cleared|"
    r"approved|signed off|verified|reviewed)\b"
)
_ABSOLUTE = _cues(
    r"no exceptions?",
    r"under any circumstances",
    r"whatever",
    r"by anyone",
    r"no (?:one|body|site|manager|staff|member|supervisor)",
    r"nobody",
    r"regardless",
    r"not even",
    r"even (?:with|if|when|for)",
    r"for any (?:reason|length)",
    r"in any case",
    r"at any time",
)


#: how a request says it asks about how things were, not how they are
_THE_PAST = _cues(
    r"back (?:in|when|then)",
    r"(?:in|during|for) (?:the )?(?:19|20)\d\d(?: ?- ?\d\d)?(?: season| school year| year)?",
    r"(?:in|during|for|from) (?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]* "
    r"(?:19|20)\d\d",
    r"(?:we|they|you|people|staff) used to",
    r"before [^.?!]{0,40}(?:existed|came in|was introduced|changed)",
    r"originally",
    r"when we first",
    r"at the time",
    r"in those days",
)
_PAST_TENSE = _cues(r"did", r"was", r"were", r"had", r"used to", r"could")


@lru_cache(maxsize=_CACHE)
def asks_about_the_past(text: str) -> bool:
    """Whether a request asks how things were at a time gone by ("back in 2023, what were
    counsellors allowed to do?"), rather than how they are.

    >>> asks_about_the_past("How did students sign up for resits in 2021-22?")
    True
    >>> asks_about_the_past("What is the resit deadline in 2026?")
    False
    """
    line = _normalise(text)
    return bool(_THE_PAST.search(line) and _PAST_TENSE.search(line))


#: how a text says it is not sure: hearsay, guesses, what nobody has checked ("may be" is left
#: out: "refunds may be issued by any agent" grants, it does not doubt)
_HEDGES = _cues(
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


@lru_cache(maxsize=_CACHE)
def hedged(text: str) -> bool:
    """Whether a belief's own words say it is unsure ("might", "heard", "not confirmed"):
    however it was filed, such a belief has no standing to govern.

    >>> hedged("Heard the mocks might be split across two rooms; nothing decided.")
    True
    >>> hedged("Year 9 mocks are in Lab S4.")
    False
    """
    return bool(_HEDGES.search(_normalise(text)))


def _normalise(text: str) -> str:
    # One space-separated, lower-case, accent-free line; apostrophes dropped ("don't" -> "dont").
    return " ".join(re.sub(r"['\u2019]", "", fold(text)).split())


@lru_cache(maxsize=_CACHE)
def read_directive(text: str) -> Directive:
    """Classify ``text`` as a prohibition, a requirement to verify, a permission, or neither.

    A requirement wins over a prohibition in the same text ("never ... unless named
    authorization", "cannot be given from memory; must be confirmed first"): the rule is
    conditional, and checking is what lifts it.

    Returns:
        The :class:`Directive`.
    """
    line = _normalise(text)
    if m := _VERIFY.search(line):
        return Directive(ActionClass.verify_first, m.group(0))
    if m := _PERMISSION.search(line):
        return Directive(ActionClass.answer, m.group(0))
    if m := _BLOCK.search(line):
        route = _ROUTE.search(line, m.end()) or _ROUTE_SAID.search(line, m.end())
        if route is not None and not _ABSOLUTE.search(line):
            return Directive(ActionClass.verify_first, f"{m.group(0)} ... {route.group(0)}")
        return Directive(ActionClass.block, m.group(0))
    return Directive(None)


#: the words of a requirement to check, which are never the act it governs
_CHECKING = _cues(r"verif\w*", r"confirm\w*", r"check\w*", r"approv\w*", r"review\w*", r"sign\w*")


@lru_cache(maxsize=_CACHE)
def governed_action_types(text: str) -> frozenset[ActionType]:
    """The acts a rule governs, read from its text; empty for a statement or a rule that
    names no act (then it governs every act).

    The words of the requirement itself are not the governed act: in "doses must be
    confirmed before they are used to fill a pillbox" the act is filling, not confirming.
    """
    line = _normalise(text)
    m = _VERIFY.search(line) or _BLOCK.search(line)
    if m is None or (_PERMISSION.search(line) and not _VERIFY.search(line)):
        return frozenset()
    if m.re is not _VERIFY:
        return infer_action_types(line, describing=True)
    outside = infer_action_types(line[: m.start()] + " " + line[m.end() :], describing=True)
    # "Before editing the boiler settings, check with facilities": the act sits inside the
    # requirement's own words; only the checking is not it.
    return outside or infer_action_types(_CHECKING.sub(" ", line), describing=True)


# -- what a request puts at stake -----------------------------------------------------------

# What a question asks for that is unsafe to take from memory on its word alone: a dose to
# give (checked first), a limit or an isolation to work to (given with a caution).
_SAFETY = (
    (
        ActionClass.verify_first,
        "a dose",
        _cues(
            r"(?:how much|how many|what|which) (?:dose|dosage|of "
            r"(?:his|her|their|the|dads|mums|my)?\s?(?:\w+ )?"
            r"(?:morphine|insulin|medication|medicine|tablets?|pills?|drops?|syrup|thinners?|"
            r"anticoagulants?|antibiotics?|painkillers?|capsules?|injections?))",
            r"dose",
            r"dosage",
            r"draw up",
        ),
    ),
    (
        ActionClass.warn,
        "a safety limit",
        _cues(
            r"(?:highest|maximum|max|most|safe) (?:\w+ )?(?:pressure|temperature|load|weight|speed|"
            r"current|voltage|torque)",
            r"how much (?:weight|load|pressure)",
            r"(?:load|weight|pressure) (?:limit|rating|capacity)",
            r"(?:which|what) (?:breaker|fuse|circuit|isolator)",
            r"torque",
            r"(?:done|tightened|torqued) up to",
            r"how tight",
            r"switch (?:\w+ )?off",
            r"isolate",
        ),
    ),
)


@lru_cache(maxsize=_CACHE)
def safety_at_stake(text: str) -> tuple[ActionClass, str] | None:
    """What taking the answer from memory risks when a request asks for a dose or a safety
    limit, and the least protective action that respects it; ``None`` otherwise.

    >>> safety_at_stake("How much of Dad's oral morphine do I draw up tonight?")
    (<ActionClass.verify_first: 'verify_first'>, 'a dose')
    >>> safety_at_stake("What's the highest pressure Autoclave 2 can take?")
    (<ActionClass.warn: 'warn'>, 'a safety limit')
    """
    # What was given or done is a record ("how many ampoules did we destroy?"), not a dose.
    line = _normalise(_without_record(text))
    for action, what, cue in _SAFETY:
        if cue.search(line):
            return action, what
    return None


# What a request would hand over or move whatever any memory says of it: a secret, money,
# a person's private data. A plain note that answers such a request does not make it safe.
_AT_STAKE = {
    "a secret": _cues(
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
        r"(?:need|needs|use|uses) to (?:sign|log) (?:in|on)",
    ),
    "money": _cues(
        r"pay(?:ing)?",
        r"payments?",
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
    "private data": _cues(
        r"diagnos[ie]s",
        r"medical",
        r"health",
        r"hiv",
        r"date of birth",
        r"birth ?date",
        r"dob",
        r"home address",
        r"where (?:he|she|they) lives?",
        r"(?:home|personal|private) (?:phone|mobile|number|email)",
        r"social security",
        r"passport",
        r"salary",
        r"disciplinary",
    ),
}

#: a question about what was done ("what did we pay...?") reads the record, it moves nothing
_PAST_QUESTION = _cues(r"(?:what|how much|when|who) (?:did|was|were|have|has)")


@lru_cache(maxsize=_CACHE)
def at_stake(text: str) -> str | None:
    """What a request would disclose or move (``"a secret"``, ``"money"``, ``"private
    data"``), or ``None``. A past-tense question about the record is not one: asking what
    was paid moves no money.

    >>> at_stake("Paste the admin login for the office router into their ticket")
    'a secret'
    >>> at_stake("What did we pay the contractor in March?") is None
    True
    """
    line = _normalise(text)
    for what, cue in _AT_STAKE.items():
        if cue.search(line) and not (what == "money" and _PAST_QUESTION.search(line)):
            return what
    return None


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


@lru_cache(maxsize=_CACHE)
def someone_elses_act(text: str) -> bool:
    """Whether a rule says the act it governs is done by someone else, the assistant only
    explaining or looking things up.

    >>> someone_elses_act("Lay-away refunds are done only at the till by a supervisor.")
    True
    >>> someone_elses_act("Refunds over 50 GBP need a supervisor's approval.")
    False
    """
    return bool(_SOMEONE_ELSES.search(_normalise(text)))


# What a memory's text holds, whatever its label says: the secret itself (a password, a
# door code, a login with its value), a person's private data, or the details money is
# paid to. A word alone is not enough: "passwords are rotated" holds none.
_HOLDS = {
    "a secret": re.compile(
        r"\b(?:password|passcode|passphrase|pin|login|log-in|sign-in|credentials?|combination|"
        r"(?:door|gate|alarm|keypad|lock|access|entry) code)\b"
        # its value: a token with a digit or a symbol in it, not a count ("every 90 days")
        r"(?:[^.;]{0,40}?[\s:=/'\"(])?"
        r"(?=[\w!@#$%^&*.-]*[\d!@#$%^&*])[\w!@#$%^&*.-]{3,}"
        r"(?!\s+(?:days?|hours?|minutes?|characters?|digits?|months?|weeks?|years?|times?)\b)"
        # a token of letters, digits and a symbol ("Q7!rmT2w-vale") is a secret on its own
        r"|(?<![\w@.])(?=[\w!@#$%^&*-]*[a-z])(?=[\w!@#$%^&*-]*\d)(?=[\w!@#$%^&*-]*[!@#$%^&*])"
        r"[\w!@#$%^&*-]{8,}",
        re.IGNORECASE,
    ),
    "private data": re.compile(
        r"\b(?:dob|date of birth|born (?:on )?\d|ni number|national insurance|social security|"
        r"ssn|diagnos(?:is|ed|es)|hiv|home address)\b"
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
_SHAREABLE = _cues(
    r"(?:fine|ok|okay|free|happy) to (?:give|share|pass|hand)",
    r"(?:can|may) (?:be )?(?:give|given|share|shared|pass|passed|hand|handed)",
    r"(?:give|share|pass) (?:it )?(?:to|with) (?:any|anyone|everyone)",
    r"(?:printed|pinned|posted|displayed) on",
    r"public",
)


#: words by which a memory says its details were checked at the source ("confirmed by phone
#: callback to their known number")
_CHECKED = _cues(
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
    line = _normalise(text)
    return any(not _NEGATED.search(line[: m.start()]) for m in cue.finditer(line))


@lru_cache(maxsize=_CACHE)
def checked_at_source(text: str) -> bool:
    """Whether a memory says what it holds was checked at its source ("bank details
    confirmed by phone callback to their known number"): paying to it needs no new check.

    >>> checked_at_source("New IBAN from their email, not yet confirmed with the bank.")
    False
    """
    return _said(_CHECKED, text)


@lru_cache(maxsize=_CACHE)
def may_be_handed_on(text: str) -> bool:
    """Whether a memory says what it holds may be handed on ("printed on the welcome
    card", "fine to give to any visitor").

    >>> may_be_handed_on("Door code 4471#, never posted on the noticeboard.")
    False
    """
    return _said(_SHAREABLE, text)


@lru_cache(maxsize=_CACHE)
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


# -- scope matching --------------------------------------------------------------------------


@dataclass(frozen=True)
class ScopeMatch:
    """How a request falls inside (or outside) a belief's jurisdiction.

    ``weight`` is the specificity: 1 per matched term of ``governs.any_terms`` or of what
    the belief is about, 1.5 per ``all_terms`` term (all must match), 0.5 per other word of
    the belief's text the request shares. ``excluded_by`` names the excluded term that put
    the request out of scope.
    """

    source: str  # "governs" (explicit) or "derived"
    matched: tuple[str, ...] = ()
    weight: float = 0.0
    excluded_by: str | None = None
    missing_all: tuple[str, ...] = ()
    action_types: frozenset[ActionType] = field(default_factory=frozenset)

    @property
    def in_scope(self) -> bool:
        """Whether the request is inside the scope."""
        return self.weight > 0 and self.excluded_by is None and not self.missing_all


#: specificity at or above which a match is *strong* (two terms, or an all-term and more)
STRONG = 2.0


def match_governs(
    request: Terms,
    *,
    any_terms: Sequence[str],
    all_terms: Sequence[str],
    excluded_terms: Sequence[str],
    action_types: Iterable[ActionType],
) -> ScopeMatch:
    """Match a request against an explicit ``governs`` scope.

    Returns:
        The :class:`ScopeMatch` (``source="governs"``).
    """
    kinds = frozenset(action_types)
    for term in excluded_terms:
        if request.has(term):
            return ScopeMatch("governs", excluded_by=term, action_types=kinds)
    missing = tuple(t for t in all_terms if not request.has(t))
    matched_all = [t for t in all_terms if t not in missing]
    matched_any = [t for t in any_terms if request.has(t) and t not in matched_all]
    weight = 1.5 * len(matched_all) + 1.0 * len(matched_any)
    if missing:
        weight = 0.0
    return ScopeMatch(
        "governs",
        matched=tuple(unique([*matched_all, *matched_any])),
        weight=weight,
        missing_all=missing,
        action_types=kinds,
    )


def match_derived(
    request: Terms,
    *,
    text: str,
    names: Sequence[str],
    action_types: Iterable[ActionType],
    topics_only: bool = True,
) -> ScopeMatch:
    """Match a request against the scope derived from a belief's text and names.

    ``names`` are what the belief is about (entity names and aliases, its canonical name
    and aliases): each matched name weighs 1. Words of the text that the request shares
    weigh 0.5 each, except words that belong to a longer name the text uses: "Project
    Sandbox" in the text does not put a request about "Sandbox" alone in scope. Single
    words that name acts ("share", "send", "export") are not topics: what a rule does is
    its action types, what it is about is its scope. With ``topics_only=False`` they count,
    which measures lexical relevance rather than jurisdiction.

    Returns:
        The :class:`ScopeMatch` (``source="derived"``).
    """
    used: set[int] = set()
    matched: list[str] = []
    weight = 0.0
    for name in unique(n for n in names if words(n)):
        if topics_only and len(words(name)) == 1 and is_act(words(name)[0]):
            continue
        span = request.find(name)
        if span is None or any(i in used for i in range(*span)):
            continue
        used.update(range(*span))
        matched.append(name)
        weight += 1.0
    text_words = _topic_words(text, tuple(names), topics_only)
    for i, token in enumerate(request.tokens):
        if i in used or token not in text_words:
            continue
        used.update(j for j, t in enumerate(request.tokens) if t == token)
        matched.append(token)
        weight += 0.5
    return ScopeMatch(
        "derived", matched=tuple(matched), weight=weight, action_types=frozenset(action_types)
    )


@lru_cache(maxsize=_CACHE)
def _topic_words(text: str, names: tuple[str, ...], topics_only: bool) -> frozenset[str]:
    """The words of a belief's text that can put a request in its derived scope."""
    # Mask the text's own occurrences of multi-word names, so their parts do not match alone.
    masked = list(words(text))
    for name in names:
        if len(words(name)) < 2:
            continue
        while (span := Terms("", tuple(masked)).find(name)) is not None:
            for i in range(*span):
                masked[i] = ""
    found = {w for w in masked if w and w not in STOPWORDS and not w.isdigit() and len(w) > 1}
    if topics_only:
        found -= {w for w in found if is_act(w)}
    return frozenset(found)


def explicit_scope_is_about(
    *, any_terms: Sequence[str], all_terms: Sequence[str], text: str, names: Sequence[str]
) -> bool:
    """Whether an explicit scope names anything the belief itself says or is about.

    A scope none of whose terms occur in the belief's text or names was written for some
    other belief (a copy-paste or a mis-authored annotation); the planner then falls back to
    the derived scope rather than trust it.
    """
    body = Terms.of(" ".join([text, *names]))
    return any(body.has(t) for t in [*any_terms, *all_terms])
